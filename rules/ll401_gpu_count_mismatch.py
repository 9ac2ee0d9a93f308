"""## What it does
Compares the processes a launch starts on each node (`torchrun --nproc_per_node N`, `accelerate
launch --num_processes N`, `deepspeed --num_gpus N`, `msrun --local_worker_num N`) with the GPUs it gets there: the devices
`CUDA_VISIBLE_DEVICES` (or accelerate's `gpu_ids`, or another accelerator's device list) makes
visible, and the GPUs the SLURM job allocates per node. More processes than visible GPUs is
reported, and a count that differs from the allocation.

## Why is this bad?
Each of the N processes takes local rank `i` and calls `torch.cuda.set_device(i)`. With fewer
visible GPUs, ranks past the last one fail with `RuntimeError: CUDA error: invalid device ordinal`
(on ROCm `HIP error: invalid device ordinal`; on Ascend NPUs, Gaudi HPUs and Intel XPUs their
runtime's own error for a device that is not there), but only after the job waited in the
queue, the container started, every rank imported torch and the rendezvous completed: minutes
of a multi-GPU allocation lost. With more GPUs allocated than processes, the extra GPUs are paid
for and idle for the whole run.

## Example
```bash
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gres=gpu:4
srun torchrun --nproc_per_node 8 train.py
```

## Use instead
```bash
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gres=gpu:8
srun torchrun --nproc_per_node 8 train.py
```
or `--nproc_per_node gpu`, which starts one process per visible GPU.

## Details
Processes per node:
- `torchrun --nproc_per_node N` (`--nproc-per-node`, `=N`, also `python -m
  torch.distributed.run` and nvidia-resiliency-ext's `ft_launcher`), `accelerate launch --num_processes N` or `num_processes` in the
  accelerate config it is given (`--config_file`; divided by `num_machines`), `deepspeed
  --num_gpus N`, MindSpore's `msrun --local_worker_num N` (its default, 8, is not judged).

GPUs made visible:
- `CUDA_VISIBLE_DEVICES` as a prefix, an `export` in the script, a Compose or Kubernetes
  `environment`, an export in a file the script sources before the launch (`source env.sh`; every
  variable of a file sourced under `set -a`), or the caller's prefix or export
  (`CUDA_VISIBLE_DEVICES=0,1 bash train.sh`), or its caller's, up the chain of scripts;
  accelerate's `--gpu_ids`/`gpu_ids` (which accelerate turns into `CUDA_VISIBLE_DEVICES`);
- the other accelerators' lists, set in any of those ways: ROCm's `HIP_VISIBLE_DEVICES` and
  `ROCR_VISIBLE_DEVICES`, Ascend's `ASCEND_RT_VISIBLE_DEVICES` (torch_npu), Gaudi's
  `HABANA_VISIBLE_MODULES` and Intel's `ZE_AFFINITY_MASK` (whose `0.0,0.1` lists tiles: each
  entry is a device, as in Level Zero's default flat hierarchy). Which decide: Ascend's, Gaudi's
  or Intel's, when set, alone (in that order), as their runtimes ignore `CUDA_VISIBLE_DEVICES`: a
  `CUDA_VISIBLE_DEVICES=0` left from a GPU script beside `ASCEND_RT_VISIBLE_DEVICES=0,1,2,3`
  changes nothing. Else `CUDA_VISIBLE_DEVICES`, `HIP_VISIBLE_DEVICES` and `ROCR_VISIBLE_DEVICES`
  together: ROCm honours all three, each narrowing the others, so the fewest any of them lists are
  compared (a list not known among them is left out). The message names the variable compared,
  and says "devices" and "an invalid device ordinal" but for `CUDA_VISIBLE_DEVICES`'s GPUs;
- a prefix from the variable of a `for` loop over static words (`for i in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$i torchrun --nproc_per_node 2 ...`, also on a script the loop runs:
  `CUDA_VISIBLE_DEVICES=$g bash train.sh`), or an export of it in the loop (`export
  CUDA_VISIBLE_DEVICES=$i`, then the launch), makes each word's devices visible in turn: the time
  round with the fewest is compared, one finding a launch (said `CUDA_VISIBLE_DEVICES=$i: 0`, the
  loop's word a related location); words that list no devices are left out;
- `unset CUDA_VISIBLE_DEVICES` (or another list) takes the restriction away (on one path only, it is unknown), and
  an export inside a function the script never calls does not count;
- `deepspeed --num_gpus` is not compared with `CUDA_VISIBLE_DEVICES`: deepspeed ignores it when
  `--num_gpus` is given, and picks its GPUs itself;
- a launch in an arm of an `if`/`case` (or after a test's `&&`/`||`) whose condition tests
  `CUDA_VISIBLE_DEVICES` runs only with the lists the test lets through. The devices set before
  the test (by the script, a file it sources or a caller; the caller's own arms count too) are
  compared only when the arm can run with them: `if [[ $CUDA_VISIBLE_DEVICES != *","* ]]; then
  python train.py; else torchrun --nproc_per_node 4 train.py; fi` is reported with `0,1`, not with
  `0`. The tests read are `=`, `==`, `!=` against a static pattern, `-z`, `-n` and a `case` on the
  variable; a condition that reads it otherwise (`=~`), or reads a variable computed from it
  (`NGPU=$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\\n' | wc -l)`, then `[ $NGPU -gt 1 ]`), leaves those
  devices uncompared. Devices the arm sets itself, after the test, are compared.

The SLURM allocation, of the same job script or of the job script that runs this one (`srun bash
train.sh`, `bash train.sh` in `job.sbatch`), or of the job `sbatch` reads from a heredoc (`sbatch
<<EOF`: its `#SBATCH` lines, then the options of the `sbatch` command line, which override them):
- `#SBATCH --gpus-per-node`, `--gres=gpu[:type]:N`, `--gpus` with `--nodes` (with no `--nodes`,
  SLURM may spread `--gpus` over several nodes: only more processes than the job's GPUs are
  reported then), `--gpus-per-task` with the tasks per node;
- the processes are the launcher's times the tasks per node when `srun` starts it: its own
  `--ntasks-per-node`, or `--ntasks` (`-n`) over the nodes, else the job's. `--ntasks` takes
  precedence, `--ntasks-per-node` being then the most a node runs: `srun -n1 --ntasks-per-node=4`
  runs one copy, and with no `--nodes` a node runs as many tasks as that allows. The `srun`
  that starts the launch may ask for its own (`srun --gres=gpu:4 torchrun ...`, in the job script
  or without one): its step gets those, and they count instead of the header's;
- a count that differs is reported; fewer processes only when the script makes no other launch
  (a job may split its GPUs between steps) and does not set `CUDA_VISIBLE_DEVICES` itself; more
  also when it lists as many devices as processes (`CUDA_VISIBLE_DEVICES=0,...,7` in a job of 4
  GPUs: the job has no device 4-7), not when the list is not known (`$GPUS`);
- `#SBATCH --exclusive` gets the job every GPU of its nodes, however many they have: the count
  asked is a floor, so more processes are not reported, fewer are ("at least 8 GPUs"). So does an
  `srun --exclusive` in a script with no job header (it may start the job). `--exclusive=user`
  (`=mcs`, `=topo`) gets what it asks, as does an `srun` step in a job, its own `--exclusive` or not.

Values from variables are followed when static, and a function's positional parameters (`$1`,
`${2:-8}`, after a `shift`) as each call gives them (`launch 0,1` for `CUDA_VISIBLE_DEVICES=$1`
in `launch`'s body), reported in the body, as a variable the caller sets is: once for the calls
that give the same words, and for a later call that gives others (`launch 0,1,2,3 4`, then
`launch 0 4`) with a note at that call; up to 4 sets of words a function (more for a body that
calls a function by a name made of them: LL105), and not for words not
known here (`launch $i 4` in a loop). So are the script's own
(`CUDA_VISIBLE_DEVICES=$1`, also through a variable or an export), as each script of the project that
runs it gives them (`bash child.sh 0,1`): reported at the launch for each caller's value, the
argument a related location; not known past an argument that may be several words or none (`"$@"`,
`$GPUS`), from a loop's value, after a `shift` of the script, or when not given. A value the script takes from a default
(`${NGPU:-8}`) is not judged when a script of the project runs it with that variable set (`NGPU=2
bash train.sh`, or submits it as a Slurm job after `export NGPU=2`: sbatch passes its variables
unless `--export` leaves them out), nor a Makefile's `?=` one (`make train NGPU=2`): the caller's
value is the one that runs. Only the defaults that can set the count count: the launcher's options (also one that
made no word, `torchrun $(LAUNCH_ARGS) ...`) and its environment; not the interpreter's name
(`$(PYTHON) -m torch.distributed.run`, `${PYTHON:-python3}`) nor the program's arguments
(`train.py $(ARGS)`). `--nproc_per_node gpu`/`auto`, unknown values and GPU lists of anything but
ordinals and `GPU-`/`MIG-` UUIDs are not reported. Nor is a job that allocates no GPUs
(`--gres=gpu:0`, `--gpus-per-node=0`): it runs CPU workers (gloo), as one with an empty
`CUDA_VISIBLE_DEVICES=` does.

A launch on another host or in a container (`ssh gpu1 "..."`, `docker exec`) is compared only with
the `CUDA_VISIBLE_DEVICES` its own command sets there (`ssh gpu1 "CUDA_VISIBLE_DEVICES=0,1
torchrun --nproc_per_node 4 ..."`): this job's allocation, its exports and its callers' do not
reach it. A job step's container (pyxis's `srun --container-image=IMG torchrun ...`) runs on the
job's nodes and is compared with the job's allocation too.

## References
- torchrun: `--nproc-per-node`, "Number of workers per node; supported values: [auto, cpu, gpu,
  int]".
- sbatch(1): `--gpus-per-node`, `--gres`, `--gpus`, `--nodes`, `--ntasks-per-node`; `--exclusive`:
  "If user/mcs/topo are not specified (i.e. the job allocation can not share nodes with other
  running jobs), the job is allocated all CPUs and GRES on all nodes in the allocation".
- srun(1): `--exclusive` "applies to job and job step allocations, and has two slightly different
  meanings for each one"; for a step, "The job step is only allocated as much GRES as is requested".
- `accelerate launch --num_processes`, "The total number of processes to be launched in
  parallel", and `--gpu_ids`.
- DeepSpeed launcher: "ignoring [CUDA_VISIBLE_DEVICES] because one or several of
  --include/--exclude/--num_gpus/--num_nodes cl args were used".
- ROCm, GPU isolation techniques: `ROCR_VISIBLE_DEVICES`, "A list of device indices or UUIDs that
  will be exposed to applications"; `HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES`, "Device indices
  exposed to HIP applications". PyTorch's ROCm device count reads them together (pytorch/pytorch#142292).
- DeepSpeed PR deepspeedai/DeepSpeed#5369: on Ascend NPUs, "CUDA_VISIBLE_DEVICES is not work";
  torch_npu reads `ASCEND_RT_VISIBLE_DEVICES`.
- Intel oneAPI Level Zero: `ZE_AFFINITY_MASK` lists devices or `device.tile`s; with
  `ZE_FLAT_DEVICE_HIERARCHY=FLAT` (the default) each tile is a device.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from launchlint.front.wrappers import LAUNCHERS
from launchlint.graph import python_run
from launchlint.launches import (
    VISIBLE,
    Devices,
    Launch,
    Setting,
    as_run_by,
    decided_by_caller,
    deciding_lists,
    device_list,
    fewest_devices,
    launch_defaults,
    launch_of,
    processes_per_node,
    setting,
    sourced_before,
    visibility,
    visible_devices,
)
from launchlint.lazyre import lazy
from launchlint.model import Finding, Record, Related, Severity, whole
from launchlint.rulekit import Example
from launchlint.rules.ll109_sbatch_log_dir_missing import sbatch_options
from launchlint.shellfacts import Command, Directive, ShellScript, Word

CODE = "LL401"
NAME = "gpu-count-mismatch"
SEVERITY = Severity.ERROR
SUMMARY = "A launch's processes per node do not fit its GPUs (CUDA_VISIBLE_DEVICES, gpu_ids, the SLURM allocation)"

ORDINAL = "'CUDA error: invalid device ordinal'"
# `gpu:4`, `gpu:a100:4`, `gpu:a100:4(S:0-1)` in --gres; `4` or `a100:4` in --gpus-per-node
_GRES_GPU = lazy(r"^gpu(?::[^:,(]+)?:(\d+)(?:\(.*\))?$")
_TYPED_COUNT = lazy(r"^(?:[^:,]+:)?(\d+)$")

INVALID = [
    Example(  # devices and counts a function takes from its call's arguments (`$1`; after a `shift`), read at its first call
        {
            "train.py": "print('step')\n",
            "run.sh": (
                "#!/bin/bash\nlaunch() {\n  CUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node 4 --master_port $2 train.py > log_$3.txt 2>&1 &\n}\n"
                "launch 0,1 29500 a\nlaunch 2,3 29500 b\nwait\n"
            ),
            "shift.sh": (
                "#!/bin/bash\nrun() {\n  local gpus=$1\n  shift\n  CUDA_VISIBLE_DEVICES=$gpus torchrun --nproc_per_node ${1:-8} train.py\n}\n"
                "run 0,1,2,3\n"
            ),
        },
        ["LL401 run.sh:3", "LL401 run.sh:3", "LL401 shift.sh:5"],  # each call's devices
    ),
    Example(  # the devices a script makes visible from its own argument (`$1`, also through a variable it exports), as its caller gives it
        {
            "train.py": "print('step')\n",
            "child.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node 4 train.py\n",
            "export.sh": "#!/bin/bash\nGPUS=$2\nexport CUDA_VISIBLE_DEVICES=$GPUS\ntorchrun --nproc_per_node 2 train.py --name $1\n",
            "sweep.sh": "#!/bin/bash\nbash child.sh 0,1 &\nbash child.sh 2,3 &\nwait\nbash export.sh a 0\n",
        },
        ["LL401 child.sh:2", "LL401 child.sh:2", "LL401 export.sh:4"],
    ),
    Example(  # a later call's other arguments: the body walked for them, reported with a note at the call; the same words
        # twice, once
        {
            "train.py": "print('step')\n",
            "run.sh": "#!/bin/bash\nrun() { CUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node $2 train.py; }\nrun 0,1,2,3 4\nrun 0 4\n",
            "twice.sh": (
                "#!/bin/bash\nrun() {\n  CUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node 2 train.py 2>&1 | tee log_$1.txt\n}\n"
                "run 0,1\nrun 0\nrun 0\n"
            ),
        },
        ["LL401 run.sh:2", "LL401 twice.sh:3"],
    ),
    Example(  # as many devices listed as processes, more than the job's GPUs: they are not the job's (helper-304's plant)
        {
            "c.sh": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=4\nCUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 torchrun --nproc_per_node=8 train.py\n",
            "d.sh": "#!/bin/bash\n#SBATCH --gpus-per-node=4\nexport CUDA_VISIBLE_DEVICES=0,1\ntorchrun --nproc_per_node=2 train.py\n",
        },
        ["LL401 c.sh:4"],
    ),
    Example(  # arms that run with the devices set before their test (and one that sets its own)
        {
            "train.py": "print('step')\n",
            "run.sh": (
                "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\nif [[ $CUDA_VISIBLE_DEVICES != *\",\"* ]]; then\n"
                "    torchrun --nproc_per_node 4 train.py\nelse\n    torchrun --nproc_per_node 4 train.py\nfi\n"
                "[[ $CUDA_VISIBLE_DEVICES == 0 ]] && torchrun --nproc_per_node 4 train.py\n"
                "case $CUDA_VISIBLE_DEVICES in 0|1) torchrun --nproc_per_node 4 train.py ;; *,*) torchrun --nproc_per_node 4 train.py ;; esac\n"
                "[ -z \"$CUDA_VISIBLE_DEVICES\" ] || CUDA_VISIBLE_DEVICES=0 torchrun --nproc_per_node 2 train.py\n"
            ),
        },
        ["LL401 run.sh:6", "LL401 run.sh:9", "LL401 run.sh:10"],
    ),
    Example(  # the arm runs for one caller's devices, not the other's
        {
            "train.py": "print('step')\n",
            "sweep.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 bash train.sh\nCUDA_VISIBLE_DEVICES=0,1 bash train.sh\n",
            "train.sh": "#!/bin/bash\nif [[ $CUDA_VISIBLE_DEVICES == *,* ]]; then torchrun --nproc_per_node 4 train.py; fi\n",
        },
        ["LL401 train.sh:2"],
    ),
    Example(  # variables a line of two assignments sets, read by a later line (not that line's environment)
        {
            "train.py": "print('step')\n",
            "run.sh": "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\nNPROC=4 PORT=29501\ntorchrun --nproc_per_node $NPROC --master_port $PORT train.py\n",
        },
        ["LL401 run.sh:4"],
    ),
    Example(  # the same with a comment ending the assignments' line
        {
            "train.py": "print('step')\n",
            "run.sh": "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\nNPROC=4 PORT=29501  # 4 GPUs\ntorchrun --nproc_per_node $NPROC --master_port $PORT train.py\n",
        },
        ["LL401 run.sh:4"],
    ),
    Example(  # a default its caller decides, but of the interpreter's name or the program's arguments: not the count
        {
            "train.py": "print('training')\n",
            "Makefile": (
                "PYTHON ?= python3\nARGS ?= --lr 1\nEXTRA ?=\ntrain:\n"
                "\tCUDA_VISIBLE_DEVICES=0,1 $(PYTHON) -m torch.distributed.run --nproc_per_node 8 train.py $(ARGS)\n"
                "\tCUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 8 train.py $(EXTRA)\n"
            ),
            "run.sh": "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\n${PYTHON:-python3} -m torch.distributed.run --nproc_per_node 8 train.py ${EXTRA:-}\n",
            "sweep.sh": "#!/bin/bash\nPYTHON=python3.11 EXTRA=--fp16 bash run.sh\n",
        },
        ["LL401 Makefile:5", "LL401 Makefile:6", "LL401 run.sh:3"],
    ),
    Example(  # `colossalai run` (click) reads its own options after the script too
        {
            "train.py": "print('train')\n",
            "run.sh": "CUDA_VISIBLE_DEVICES=0,1 colossalai run train.py --nproc_per_node 4 --lr 1\n",
        },
        ["LL401 run.sh:1"],
    ),
    Example(  # nvidia-resiliency-ext's ft_launcher, as torchrun, starts `--nproc-per-node` processes
        {"train.py": "print('step')\n", "run.sh": "CUDA_VISIBLE_DEVICES=0,1 ft_launcher --max-restarts 3 --nproc-per-node=4 train.py\n"},
        ["LL401 run.sh:1"],
    ),
    Example(  # ColossalAI's `colossalai run` starts `--nproc_per_node` processes with this environment
        {
            "train.py": "print('step')\n",
            "run.sh": "CUDA_VISIBLE_DEVICES=0,1 colossalai run --nproc_per_node 4 train.py\n",
        },
        ["LL401 run.sh:1"],
    ),
    Example(  # a job step's container (pyxis's `srun --container-image`) runs on the job's GPUs; not a remote host's
        {
            "job.sbatch": (
                "#!/bin/bash\n#SBATCH -N 1\n#SBATCH --gres=gpu:4\n"
                "srun --container-image=nvcr.io/nvidia/pytorch:24.01-py3 torchrun --nproc_per_node 8 train.py\n"
                "ssh gpu2 torchrun --nproc_per_node 8 /w/train.py\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL401 job.sbatch:4"],
    ),
    Example(  # the devices a remote command sets for itself, on that host or in that container
        {
            "remote.sh": (
                "ssh gpu1 \"CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node=4 /w/train.py\"\n"
                "docker exec c1 bash -c 'export CUDA_VISIBLE_DEVICES=0; torchrun --nproc_per_node 2 /w/train.py'\n"
            )
        },
        ["LL401 remote.sh:1", "LL401 remote.sh:2"],
    ),
    Example(  # the GPUs come from the script that runs the script that runs the launch
        {
            "run.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0,1 bash stage.sh\n",
            "stage.sh": "#!/bin/bash\nbash train.sh\n",
            "train.sh": "#!/bin/bash\ntorchrun --nproc_per_node 4 train.py\n",
            "train.py": "print('training')\n",
        },
        ["LL401 train.sh:2"],
    ),
    Example(  # the GPUs come from a file the script sources: exported, or under `set -a`
        {
            "run.sh": (
                "#!/bin/bash\nsource ./env.sh\ntorchrun --nproc_per_node 4 train.py\n"
                "set -a\n. ./gpus.env\nset +a\ntorchrun --nproc_per_node 4 train.py\n"
            ),
            "env.sh": "export CUDA_VISIBLE_DEVICES=0,1\n",
            "gpus.env": "CUDA_VISIBLE_DEVICES=0\n",
            "train.py": "print('training')\n",
        },
        ["LL401 run.sh:3", "LL401 run.sh:7"],
    ),
    Example(  # the job script allocates 4 GPUs and runs a script whose launch starts 8
        {
            "job.sbatch": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\nsrun bash train.sh\n",
            "train.sh": "#!/bin/bash\ntorchrun --nproc_per_node 8 train.py\n",
            "train.py": "print('training')\n",
        },
        ["LL401 train.sh:2"],
    ),
    Example(
        {
            "pretrain.sbatch": (
                "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\n"
                "srun torchrun --nproc_per_node 8 train.py\n"
            ),
        },
        ["LL401 pretrain.sbatch:4"],
    ),
    Example(  # torchrun's options in a variable, one of them unknown, the value on continued lines
        {
            "train.py": "print('train')\n",
            "run.sh": (
                '#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\nDIST_ARGS="\\\n    --nproc_per_node 4 \\\n'
                '    --nnodes $NNODES --master_addr $MASTER_ADDR"\ntorchrun $DIST_ARGS train.py\n'
            ),
        },
        ["LL401 run.sh:6"],
    ),
    Example(  # accelerate's config: 8 processes, 4 GPU ids
        {
            "launch.sh": "#!/bin/bash\naccelerate launch --config_file accelerate.yaml train.py\n",
            "accelerate.yaml": "distributed_type: MULTI_GPU\nnum_machines: 1\nnum_processes: 8\ngpu_ids: 0,1,2,3\n",
        },
        ["LL401 accelerate.yaml:3"],
    ),
    Example(  # an export, a prefix, a variable, the caller's prefix, and the `=` form
        {
            "a.sh": "export CUDA_VISIBLE_DEVICES=0,1\nN=4\ntorchrun --nproc-per-node=$N train.py\n",
            "b.sh": "CUDA_VISIBLE_DEVICES=3 python -m torch.distributed.run --nproc_per_node 2 train.py\n",
            "run.sh": "CUDA_VISIBLE_DEVICES=0,1 bash c.sh\n",
            "c.sh": "accelerate launch --num_processes 4 train.py\n",
        },
        ["LL401 a.sh:3", "LL401 b.sh:1", "LL401 c.sh:1"],
    ),
    Example(  # a Compose service's environment; --gpus over --nodes
        {
            "compose.yaml": (
                "services:\n  train:\n    environment:\n      CUDA_VISIBLE_DEVICES: '0,1'\n"
                "    command: torchrun --nproc_per_node 4 train.py\n"
            ),
            "job.sbatch": "#!/bin/bash\n#SBATCH -N 2\n#SBATCH --gpus=8\nsrun deepspeed --num_gpus 8 train.py\n",
        },
        ["LL401 compose.yaml:5", "LL401 job.sbatch:4"],
    ),
    Example(  # --gpus with no --nodes: spread or not, no node has more than the job's 4
        {"job.sbatch": "#!/bin/bash\n#SBATCH --gpus=4\nsrun torchrun --nproc_per_node 8 train.py\n"},
        ["LL401 job.sbatch:3"],
    ),
    Example(  # one task (`-n1`) is one copy on its node, with no --nodes, whatever --ntasks-per-node says
        {
            "run.sh": (
                "#!/bin/bash\nsrun --gres=gpu:4 -n1 --ntasks-per-node=4 python -m torch.distributed.launch --nproc_per_node=4 train.py\n"
                "srun --gres=gpu:4 -n1 python -m torch.distributed.launch --nproc_per_node=8 train.py\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL401 run.sh:3"],
    ),
    Example(  # srun's own GPUs for its step, with no job header, and over the header's
        {
            "run.sh": "#!/bin/bash\nsrun --gres=gpu:4 --ntasks-per-node=1 torchrun --nproc_per_node 8 train.py\n",
            "job.sbatch": "#!/bin/bash\n#SBATCH --gres=gpu:8\nsrun --gpus-per-node=4 torchrun --nproc_per_node 8 train.py\n",
        },
        ["LL401 job.sbatch:3", "LL401 run.sh:2"],
    ),
    Example(  # `--exclusive=user` shares no node with other users, but gets what it asks; an exclusive job's
        # GPUs idle; a step gets what its srun asks (its own `--exclusive` too), however exclusive the job
        {
            "user.sbatch": "#!/bin/bash\n#SBATCH -N 1\n#SBATCH --gres=gpu:1\n#SBATCH --exclusive=user\ntorchrun --nproc_per_node 4 t.py\n",
            "idle.sbatch": "#!/bin/bash\n#SBATCH -N 1\n#SBATCH --gres=gpu:8\n#SBATCH --exclusive\ntorchrun --nproc_per_node 4 t.py\n",
            "step.sbatch": (
                "#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --exclusive\nsrun --gres=gpu:1 torchrun --nproc_per_node 4 t.py\n"
                "srun --exclusive --gres=gpu:1 torchrun --nproc_per_node 4 t.py\n"
            ),
        },
        ["LL401 idle.sbatch:5", "LL401 step.sbatch:3", "LL401 step.sbatch:4", "LL401 user.sbatch:5"],
    ),
    Example(  # a job submitted with none of this shell's variables takes the default
        {
            "submit.sh": "#!/bin/bash\nexport NGPU=2\nsbatch --export=NONE eval.sh\n",
            "eval.sh": "#!/bin/bash\nNGPU=${NGPU:-8}\nexport CUDA_VISIBLE_DEVICES=0,1\ntorchrun --nproc_per_node $NGPU train.py\n",
            "train.py": "print('training')\n",
        },
        ["LL401 eval.sh:4"],
    ),
    Example(  # a job sbatch reads from a heredoc: its `#SBATCH` lines, and the command line's options, which override them
        {
            "submit.sh": (
                "#!/bin/bash\nsbatch <<EOF\n#!/bin/bash\n#SBATCH --gres=gpu:4\ntorchrun --nproc_per_node 8 train.py\nEOF\n"
                "sbatch --gpus-per-node=2 <<EOF\n#!/bin/bash\n#SBATCH --gres=gpu:8\ntorchrun --nproc_per_node 8 train.py\nEOF\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL401 submit.sh:5", "LL401 submit.sh:10"],
    ),
    Example(  # devices from a loop's variable over static words: the time round with the fewest, once a launch; a script the loop runs
        {
            "train.py": "print('step')\n",
            "sweep.sh": (
                "#!/bin/bash\nfor i in 0 1 2 3; do\n"
                "  CUDA_VISIBLE_DEVICES=$i torchrun --nproc_per_node 2 --master_port $((29500 + i)) train.py > log_$i.txt 2>&1 &\ndone\nwait\n"
                "for gpus in 0,1,2,3 4,5; do\n  CUDA_VISIBLE_DEVICES=$gpus torchrun --nproc_per_node 4 --standalone train.py &\ndone\nwait\n"
                "for g in 0 1; do\n  CUDA_VISIBLE_DEVICES=$g bash child.sh &\ndone\nwait\n"
                "for i in 0 1 2 3; do\n  export CUDA_VISIBLE_DEVICES=$i\n  torchrun --nproc_per_node 2 --master_port $((29600 + i)) train.py &\ndone\nwait\n"
            ),
            "child.sh": "#!/bin/bash\ntorchrun --standalone --nproc_per_node 2 train.py\n",
        },
        ["LL401 child.sh:2", "LL401 sweep.sh:3", "LL401 sweep.sh:7", "LL401 sweep.sh:16"],
    ),
    Example(  # other accelerators' lists: Ascend's, ROCm's (the fewest with CUDA's), Gaudi's, Intel's tiles; sourced, looped, given
        {
            "train.py": "print('step')\n",
            "npu.sh": (
                "#!/bin/bash\nASCEND_RT_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 4 train.py\n"
                "ASCEND_RT_VISIBLE_DEVICES=0,1 msrun --worker_num 4 --local_worker_num 4 --join True train.py\n"
            ),
            "rocm.sh": (
                "#!/bin/bash\nexport HIP_VISIBLE_DEVICES=0,1,2,3\nCUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 4 train.py\n"
                "ROCR_VISIBLE_DEVICES=0 torchrun --nproc_per_node 2 train.py\n"
            ),
            "gaudi.sh": "#!/bin/bash\nsource env.sh\ntorchrun --nproc_per_node 8 train.py\n",
            "env.sh": "export HABANA_VISIBLE_MODULES=0,1,2,3\n",
            "xpu.sh": "#!/bin/bash\nfor t in 0.0,0.1 0.0; do\n  ZE_AFFINITY_MASK=$t torchrun --nproc_per_node 2 train.py\ndone\n",
            "run.sh": "#!/bin/bash\nbash child.sh 0,1\n",
            "child.sh": "#!/bin/bash\nexport ASCEND_RT_VISIBLE_DEVICES=$1\ntorchrun --nproc_per_node 4 train.py\n",
        },
        ["LL401 child.sh:3", "LL401 gaudi.sh:3", "LL401 npu.sh:2", "LL401 npu.sh:3", "LL401 rocm.sh:3", "LL401 rocm.sh:4", "LL401 xpu.sh:3"],
    ),
]

VALID = [
    Example(  # a heredoc job's own allocation, the command line's overriding its `#SBATCH` line, not the submitting job's
        {
            "chain.sbatch": (
                "#!/bin/bash\n#SBATCH --gres=gpu:8\nsbatch <<EOF\n#!/bin/bash\n#SBATCH --gres=gpu:4\ntorchrun --nproc_per_node 4 train.py\nEOF\n"
                "sbatch --gres=gpu:8 <<EOF\n#!/bin/bash\n#SBATCH --gres=gpu:4\nsrun --ntasks-per-node=1 torchrun --nproc_per_node 8 train.py\nEOF\n"
            ),
            "train.py": "print(1)\n",
        }
    ),
    Example(  # a function's arguments: as many devices as processes; not known (`$GPUS`, the script's own `$1`);
        # read in a loop that shifts them (`--name x,y` is no device list)
        {
            "train.py": "print('step')\n",
            "run.sh": (
                "#!/bin/bash\nlaunch() {\n  CUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node 4 train.py\n}\n"
                "launch 0,1,2,3\nlaunch $GPUS\nCUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node 4 train.py\n"
            ),
            "loop.sh": (
                "#!/bin/bash\nrun() {\n  while [ $# -gt 0 ]; do\n    case $1 in\n      --gpus) GPUS=$2; shift 2 ;;\n"
                "      *) shift 2 ;;\n    esac\n  done\n  CUDA_VISIBLE_DEVICES=$GPUS torchrun --nproc_per_node 4 train.py\n}\n"
                "run --name x,y --gpus 0,1,2,3\n"
            ),
            "calls.sh": (  # each call as many devices as processes: in a loop (`$i` not known), the same words twice
                "#!/bin/bash\nrun() {\n  CUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node $2 train.py 2>&1 | tee -a log.txt\n}\n"
                "set -o pipefail\nfor i in $(seq 0 49); do\n  run $i 1\ndone\nrun 0,1 2\nrun 0,1 2\nrun 0,1,2,3 4\nrun 5 1\n"
            ),
        }
    ),
    Example(  # a loop's devices as many as the processes each time round, or not known (another part of the word, a list not static)
        {
            "train.py": "print('step')\n",
            "sweep.sh": (
                "#!/bin/bash\nfor gpus in 0,1 2,3; do\n  CUDA_VISIBLE_DEVICES=$gpus torchrun --nproc_per_node 2 --standalone train.py &\ndone\nwait\n"
                "for i in 0 1; do\n  CUDA_VISIBLE_DEVICES=$i,$OTHER torchrun --nproc_per_node 2 --standalone train.py\ndone\n"
                "for i in $(seq 0 3); do\n  CUDA_VISIBLE_DEVICES=$i torchrun --nproc_per_node 2 --standalone train.py\ndone\n"
                "for g in 0,1 all; do\n  CUDA_VISIBLE_DEVICES=$g bash child.sh\ndone\n"
                "for gpus in 0,1 2,3; do\n  export CUDA_VISIBLE_DEVICES=$gpus\n  torchrun --nproc_per_node 2 --standalone train.py\ndone\n"
            ),
            "child.sh": "#!/bin/bash\ntorchrun --standalone --nproc_per_node 2 train.py\n",
        }
    ),
    Example(  # the script's own argument: as many devices as processes, or not known (`"$@"`, `$GPUS`, a loop's value, none given)
        {
            "train.py": "print('step')\n",
            "child.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node 4 train.py\n",
            "sweep.sh": (
                '#!/bin/bash\nbash child.sh 0,1,2,3\nbash child.sh "$@"\nbash child.sh $GPUS\nbash child.sh\n'
                "for g in 0,1,2,3 4,5,6,7; do\n  bash child.sh $g\ndone\n"
            ),
        }
    ),
    Example(  # --ntasks takes precedence: --ntasks-per-node is a maximum (OpenPSG's `srun -n1 --ntasks-per-node=4`)
        {
            "job.sbatch": "#!/bin/bash\n#SBATCH --ntasks=1\n#SBATCH --ntasks-per-node=4\n#SBATCH --gres=gpu:4\nsrun torchrun --nproc_per_node 4 train.py\n",
            "run.sh": "#!/bin/bash\nsrun --gres=gpu:4 -n1 --ntasks-per-node=4 python -m torch.distributed.launch --nproc_per_node=4 train.py\n",
            "train.py": "print(1)\n",
        }
    ),
    Example(  # `--exclusive` gets the job every GPU of its nodes: the count asked is a floor (SuPreM); so
        # does an srun's with no job header, which may start the job itself
        {
            "job.sbatch": "#!/bin/bash\n#SBATCH -N 1\n#SBATCH --gpus=1\n#SBATCH --exclusive\ntorchrun --nproc_per_node=4 t.py\n",
            "run.sh": "#!/bin/bash\nsrun --exclusive --gres=gpu:1 torchrun --nproc_per_node 4 t.py\n",
            "node.sbatch": "#!/bin/bash\n#SBATCH --gres=gpu:2 --exclusive\nsrun bash train.sh\n",
            "train.sh": "#!/bin/bash\ntorchrun --nproc_per_node 8 t.py\n",
        }
    ),
    Example(  # a job the batch script submits to LSF (`bsub CMD`) has an allocation of its own
        {
            "job.sh": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:8\nbsub -gpu num=4 bash train.sh\n",
            "train.sh": "#!/bin/bash\ntorchrun --nproc_per_node 4 t.py\n",
            "t.py": "print(1)\n",
        }
    ),
    Example(  # a launcher other than srun starts the copies: how many run on a node is its own to say
        {
            "job.sh": (
                "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=4\n#SBATCH --gres=gpu:4\n"
                "ibrun torchrun --nproc_per_node 1 t.py\nmpirun -np 4 torchrun --nproc_per_node 1 t.py\n"
            ),
            "t.py": "print(1)\n",
        }
    ),
    Example(  # a job that allocates no GPUs runs CPU workers
        {
            "prep.sh": (
                "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --cpus-per-task=16\n#SBATCH --gres=gpu:0\n"
                "srun torchrun --nproc_per_node=16 prep.py\n"
            ),
            "cpu.sh": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=0\ntorchrun --nproc_per_node=8 prep.py\n",
        }
    ),
    Example(  # --gpus with no --nodes: as many processes, or fewer (the GPUs may be spread over nodes)
        {
            "a.sbatch": "#!/bin/bash\n#SBATCH --gpus=8\nsrun torchrun --nproc_per_node 8 train.py\n",
            "b.sbatch": "#!/bin/bash\n#SBATCH -G 8\nsrun torchrun --nproc_per_node 4 train.py\n",
        }
    ),
    Example(  # the launcher chosen by the devices: torchrun only when several are visible (SLAM-LLM)
        {
            "train.py": "print('step')\n",
            "run.sh": (
                "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0\nif [[ $CUDA_VISIBLE_DEVICES != *\",\"* ]]; then\n"
                "    python train.py\nelse\n    torchrun --nproc_per_node 4 train.py\nfi\n"
            ),
        }
    ),
    Example(  # the same from a caller's devices, a count computed from them, a guard, an arm of the caller
        {
            "train.py": "print('step')\n",
            "run.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 bash a.sh\nexport CUDA_VISIBLE_DEVICES=3\ncase $CUDA_VISIBLE_DEVICES in *,*) bash b.sh ;; esac\n",
            "a.sh": "#!/bin/bash\nif [ \"${CUDA_VISIBLE_DEVICES:-}\" = 0 ]; then python train.py; else torchrun --nproc_per_node 2 train.py; fi\n",
            "b.sh": "#!/bin/bash\ntorchrun --nproc_per_node 2 train.py\n",
            "c.sh": (
                "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0\nNGPU=$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\\n' | wc -l)\n"
                "if [ $NGPU -gt 1 ]; then torchrun --nproc_per_node 4 train.py; fi\n"
                "[[ $CUDA_VISIBLE_DEVICES =~ , ]] && torchrun --nproc_per_node 4 train.py\n"
            ),
        }
    ),
    Example(  # `colossalai check -i` runs no program; `colossalai run` within its devices
        {
            "train.py": "print('step')\n",
            "run.sh": "CUDA_VISIBLE_DEVICES=0,1 colossalai check -i\nCUDA_VISIBLE_DEVICES=0,1 colossalai run --nproc_per_node 2 train.py\n",
        },
        [],
    ),
    Example(  # the count is asked for when the script runs: its default is not what runs
        {
            "run.sh": (
                "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\nNGPU=8\nread -rp 'GPUs to use: ' NGPU\n"
                "torchrun --nproc_per_node $NGPU train.py\n"
            ),
            "train.py": "print('training')\n",
        }
    ),
    Example(  # the caller passes what the script takes a default for: the caller's value runs
        {
            "run_all.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0,1,2,3 bash train.sh\nNGPU=2 bash eval.sh\n",
            "train.sh": "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0,1}\ntorchrun --nproc_per_node 4 train.py\n",
            "eval.sh": "#!/bin/bash\nNGPU=${NGPU:-8}\nexport CUDA_VISIBLE_DEVICES=0,1\ntorchrun --nproc_per_node $NGPU train.py\n",
            "train.py": "print('training')\n",
        }
    ),
    Example(  # a Slurm job gets the submitting shell's variables (sbatch's `--export=ALL`, its default), or those it names
        {
            "submit.sh": "#!/bin/bash\nexport NGPU=2\nsbatch eval.sh\nsbatch --export=NONE,NGPU=2 eval2.sh\n",
            "eval.sh": "#!/bin/bash\nNGPU=${NGPU:-8}\nexport CUDA_VISIBLE_DEVICES=0,1\ntorchrun --nproc_per_node $NGPU train.py\n",
            "eval2.sh": "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0,1\ntorchrun --nproc_per_node ${NGPU:-8} train.py\n",
            "train.py": "print('training')\n",
        }
    ),
    Example(  # a Makefile's `?=` default is whoever runs make's: `make train NGPU=2`, or launcher options
        {
            "Makefile": (
                "NGPU ?= 8\nLAUNCH_ARGS ?=\ntrain:\n\tCUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node $(NGPU) train.py\n"
                "\tCUDA_VISIBLE_DEVICES=0,1 torchrun $(LAUNCH_ARGS) --nproc_per_node 8 train.py\n"
            ),
            "train.py": "print('training')\n",
        }
    ),
    Example(  # a job that submits another job, and runs a script once per task
        {
            "job.sbatch": (
                "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\nsbatch eval.sbatch\n"
                "srun --ntasks-per-node=4 bash per_task.sh\n"
            ),
            "eval.sbatch": "#!/bin/bash\n#SBATCH --gres=gpu:8\ntorchrun --nproc_per_node 8 train.py\n",
            "per_task.sh": "#!/bin/bash\ntorchrun --nproc_per_node 1 train.py\n",
            "train.py": "print('training')\n",
        }
    ),
    Example(  # sourced after the launch; overridden by the script; not exported
        {
            "run.sh": (
                "#!/bin/bash\ntorchrun --nproc_per_node 4 train.py\nsource env.sh\n"
                "export CUDA_VISIBLE_DEVICES=0,1,2,3\ntorchrun --nproc_per_node 4 train.py\n"
            ),
            "eval.sh": "#!/bin/bash\nsource ./vars.sh\ntorchrun --nproc_per_node 4 train.py\n",
            "env.sh": "export CUDA_VISIBLE_DEVICES=0\n",
            "vars.sh": "CUDA_VISIBLE_DEVICES=0\n",
            "train.py": "print('training')\n",
        }
    ),
    Example(  # an export inside a function that is never called
        {"run.sh": "#!/bin/bash\ndebug_single_gpu() {\n  export CUDA_VISIBLE_DEVICES=0\n}\n\ntorchrun --nproc_per_node 4 train.py\n"}
    ),
    Example(  # CUDA_VISIBLE_DEVICES unset before the launch (or unset on one path only: unknown)
        {
            "run.sh": (
                "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0\npython check.py\nunset CUDA_VISIBLE_DEVICES\n"
                "torchrun --nproc_per_node 4 train.py\nexport CUDA_VISIBLE_DEVICES=0\n"
                "if [ \"$1\" = all ]; then\n  unset CUDA_VISIBLE_DEVICES\nfi\ntorchrun --nproc_per_node 4 train.py\n"
            ),
        }
    ),
    Example(  # a step that asks for part of the job's GPUs and starts as many processes
        {"job.sbatch": "#!/bin/bash\n#SBATCH --gres=gpu:8\nsrun --gres=gpu:4 torchrun --nproc_per_node 4 train.py\n"}
    ),
    Example(  # Megatron style: the counts come from the cluster's environment
        {
            "pretrain_gpt.sh": (
                "#!/bin/bash\nGPUS_PER_NODE=8\nNNODES=${SLURM_NNODES:-1}\nNODE_RANK=${SLURM_NODEID:-0}\n"
                "MASTER_ADDR=${MASTER_ADDR:-localhost}\nMASTER_PORT=6000\n"
                "DISTRIBUTED_ARGS=\"--nproc_per_node $GPUS_PER_NODE --nnodes $NNODES --node_rank $NODE_RANK "
                "--master_addr $MASTER_ADDR --master_port $MASTER_PORT\"\n"
                "torchrun $DISTRIBUTED_ARGS pretrain_gpt.py --tensor-model-parallel-size 2\n"
            ),
        }
    ),
    Example(  # matching counts; `gpu`; fewer processes than visible GPUs; a job split in two steps
        {
            "a.sbatch": "#!/bin/bash\n#SBATCH --gpus-per-node=a100:8\nsrun torchrun --nproc_per_node=8 train.py\n",
            "b.sh": (
                "CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node 2 train.py\n"
                "CUDA_VISIBLE_DEVICES=0 torchrun --nproc_per_node gpu train.py\n"
            ),
            "c.sbatch": (
                "#!/bin/bash\n#SBATCH --gres=gpu:8\ntorchrun --nproc_per_node 1 convert.py\n"
                "torchrun --nproc_per_node 8 train.py\n"
            ),
        }
    ),
    Example(  # torch_npu and Gaudi ignore a CUDA_VISIBLE_DEVICES left from a GPU script; Intel's tiles, each a device
        {
            "npu.sh": (
                "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0\nexport ASCEND_RT_VISIBLE_DEVICES=0,1,2,3\n"
                "torchrun --nproc_per_node 4 train.py\n"
                "CUDA_VISIBLE_DEVICES=0 HABANA_VISIBLE_MODULES=0,1 torchrun --nproc_per_node 2 train.py\n"
                "ZE_AFFINITY_MASK=0.0,0.1,1.0,1.1 torchrun --nproc_per_node 4 train.py\n"
            ),
        }
    ),
    Example(  # deepspeed picks its own GPUs; accelerate's gpu_ids decide over the environment
        {
            "d.sh": (
                "export CUDA_VISIBLE_DEVICES=0,1\ndeepspeed --num_gpus 4 train.py\n"
                "accelerate launch --num_processes 4 --gpu_ids 0,1,2,3 train.py\n"
            ),
        }
    ),
    Example(  # a remote launch does not run in this job, nor get its exports; a dynamic device list
        {
            "e.sbatch": (
                "#!/bin/bash\n#SBATCH --gres=gpu:4\nssh node2 'torchrun --nproc_per_node 8 train.py'\n"
                "CUDA_VISIBLE_DEVICES=$GPUS torchrun --nproc_per_node 8 train.py\n"
                "export CUDA_VISIBLE_DEVICES=0\nssh node2 'torchrun --nproc_per_node 8 train.py'\n"
                "CUDA_VISIBLE_DEVICES=0 docker exec c1 torchrun --nproc_per_node 8 /w/train.py\n"
            ),
        }
    ),
]


class Allocation(Record):
    """The GPUs per node a SLURM job script asks for, and the directive that says so."""

    count: int
    word: Word
    said: str  # "#SBATCH --gres=gpu:4"
    at_most: bool = False  # `--gpus=4` with no `--nodes`: the job's GPUs, on one node or spread over several
    at_least: bool = False  # with `--exclusive`: every GPU of the node, however many it has


def check(project) -> Iterator[Finding]:
    for path, script in project.shell.items():
        launches = [launch for launch in map(launch_of, script.effective_commands()) if launch is not None]
        # Most scripts launch nothing: no job header to read (with LL402's same test, -15 M instructions
        # of 520 on the 1,000-file benchmark).
        if not launches:
            continue
        options = _job_options(script)
        allocation = _allocation(options)
        for launch in launches:
            found = processes_per_node(project, path, launch)
            if found is None or decided_by_caller(project, path, launch_defaults(launch.command)):
                continue
            count, said = found
            visible, places = _visible(project, path, launch)
            too_many = [_too_many(launch, count, said, devices, where) for devices, where in places if count > devices.count]
            yield from _with_call(script, launch, too_many)
            job = _heredoc_job(launch.command)
            if too_many or _elsewhere(launch.command) or _submitted(launch.command) and job is None or visible and not places:
                continue  # on another host, this job's allocation is not its; a device list not known is not judged
            # With CUDA_VISIBLE_DEVICES set, fewer processes than the job's GPUs are chosen: only more count
            # (`CUDA_VISIBLE_DEVICES=0,...,7` in a job of 4 GPUs: ranks 4-7 have no device)
            alone = len(launches) == 1 and not visible
            own = options if job is None else job
            granted = _step_allocation(launch.command, own) or (allocation if job is None else _heredoc_allocation(launch.command, job))
            if granted is not None:
                yield from _with_call(script, launch, _against_job(launch, count, said, granted, _tasks_per_node(launch.command, own), alone=alone))
            if visible or job is not None:
                continue
            elif not options:  # a script the job script runs (`srun bash train.sh`) gets the job's GPUs
                for job, granted, tasks in _jobs_running(project, path):
                    yield from _with_call(script, launch, _against_job(launch, count, said, granted, tasks, alone=alone, where=f" when {job} runs it"))


def _with_call(script: ShellScript, launch: Launch, findings: Iterable[Finding]) -> Iterator[Finding]:
    """The findings of a launch, with a note at the call of its function whose arguments it has,
    when a later call's walk of the body made it (`ShellScript.call_walked`)."""
    call = None
    for finding in findings:
        call = call or script.call_walked(launch.command)
        if call is not None:
            finding = finding._replace(related=(*finding.related, Related(call.location, f"`{call.name}` is called with these arguments here")))
        yield finding


def _elsewhere(command) -> bool:
    """On another host or in a container that is not this job's step: a step's container (pyxis's
    `srun --container-image=IMG torchrun ...`) runs on the job's nodes, with its GPUs."""
    return any(w.remote and w.kind != "srun" for w in command.wrappers)


MAX_CALLERS = 4  # scripts running scripts: `run.sh` runs `a.sh`, which runs `b.sh`, ...


def _visible(project, path: str, launch: Launch) -> tuple[bool, list[tuple[Devices, str]]]:
    """(restricted?, [(devices, where they are set)]) for the launch: its accelerate gpu_ids,
    else its CUDA_VISIBLE_DEVICES, else each caller's."""
    if launch.launcher == "deepspeed":  # ignores CUDA_VISIBLE_DEVICES when --num_gpus is given
        return False, []
    if launch.command.remote:  # on another host or in a container: what its own command sets there
        restricted, devices = visible_devices(launch.command)
        return restricted, [(devices, "")] if devices is not None else []
    if launch.launcher == "accelerate":
        ids = setting(project, path, launch, "gpu_ids")
        devices = device_list(ids.word, ids.said) if ids is not None else None
        if devices is not None:
            return True, [(devices, "")]
    command = launch.command
    restricted, devices = visible_devices(command)
    if devices is not None and project.shell[path].in_uncalled_function(devices.word.location):
        return False, []  # `debug() { export CUDA_VISIBLE_DEVICES=0; }`, never called
    if restricted:
        if devices is None:  # `CUDA_VISIBLE_DEVICES=$i` round a loop; `=$1`: each caller's argument (`bash train.sh 0,1`)
            given = _looped_devices(project.shell[path], command, "") or _given_devices(project, path, command)
            return True, [place for place in given if _judged(command, place[0])]
        return True, [(devices, "")] if _judged(command, devices) else []
    sourced = sourced_before(project, path, command).value
    restricted, devices = fewest_devices(deciding_lists(lambda name: ((word := sourced(name)) is not None, word)))
    if restricted:  # `source env.sh`, which exports it
        judged = devices is not None and _judged(command, devices)
        return True, [(devices, f" once {devices.word.location.path} is sourced")] if judged else []
    return False, [place for place in _callers_devices(project, path, MAX_CALLERS) if _judged(command, place[0])]


def _given_devices(project, path: str, command: Command) -> list[tuple[Devices, str]]:
    """The devices a command makes visible that are the script's own positional parameter
    (`CUDA_VISIBLE_DEVICES=$1`, also after `GPUS=$1`, or exported), as each script that runs it
    gives that argument (`bash train.sh 0,1`: `as_run_by`), at the argument; none for a caller
    whose argument is not known."""
    places = []
    arguments = project.shell[path].arguments
    for invocation in project.graph.callers(path) if arguments else ():
        bound = as_run_by(project, path, command, invocation)
        found = visible_devices(bound)[1] if bound is not command else None
        number = arguments.get(found.word.origin[0], 0) if found is not None else 0
        given = invocation.args[number - 1] if number else None
        if given is not None and given.value == found.word.value:
            said = f"{found.variable}=${number}: {given.value}"
            places.append((Devices(found.count, given, said, found.variable), f" when {invocation.caller} runs it"))
    return places


def _looped_devices(script: ShellScript, command: Command, where: str) -> list[tuple[Devices, str]]:
    """The devices a prefix `CUDA_VISIBLE_DEVICES=$i` makes visible in a loop over static words
    (`for i in 0 1 2 3`: `ShellScript.loop_values`): the fewest any time round does, at the first
    word of the loop's list that gives that many (one finding a command), said as `$i: 0`; none
    when no value is a device list."""
    if not script.loop_values:
        return []
    for name, _ in visibility(command):
        word = command.env_value(name)  # a prefix's, else an export's
        if word is None:
            word = command.environment.get(name)
        looped = script.loop_values.get(word.location) if word is not None else None
        if looped is not None:
            rounds = [device_list(value, f"{name}={word.template}: {value.value}", name) for value in looped[1]]
            known = [devices for devices in rounds if devices is not None]
            return [(min(known, key=lambda devices: devices.count), where)] if known else []
    return []


def _judged(command: Command, devices: Devices) -> bool:
    """Whether `devices` are compared with what `command` starts: not when they were set before
    an if/case arm around it (or a test's `&&`/`||`) that cannot run with them (`if [[
    $CUDA_VISIBLE_DEVICES != *","* ]]; then python ...; else torchrun ...`), nor when its
    conditions read CUDA_VISIBLE_DEVICES, or a variable computed from it, in another way."""
    return not command.ruled_out(devices.variable, devices.word.value, devices.word.location)


def _callers_devices(project, path: str, depth: int, runs: str = "it", known=None) -> list[tuple[Devices, str]]:
    """What the scripts that run `path` make visible to it: their prefix or export on the call,
    else what their own callers make visible to them (`run.sh` runs `a.sh`, which runs `b.sh`).
    A caller's own callers are asked once, however often it runs `path`, and each script once
    at each depth (`known`): a sweep of scripts each running the next 80 times was 80^4 walks."""
    known = {} if known is None else known
    found = known.get((path, depth, runs))
    if found is not None:
        return found
    places = []
    asked = set()
    for invocation in project.graph.callers(path) if depth else ():
        if invocation.kind != "shell":
            continue
        restricted, devices = visible_devices(invocation.command)
        if devices is not None:
            if _judged(invocation.command, devices):  # `if [[ $CUDA_VISIBLE_DEVICES == *,* ]]; then bash train.sh`
                places.append((devices, f" when {invocation.caller} runs {runs}"))
        elif restricted:  # `for i in 0 1; do CUDA_VISIBLE_DEVICES=$i bash train.sh; done`
            looped = _looped_devices(project.shell[invocation.caller], invocation.command, f" when {invocation.caller} runs {runs}")
            places += [place for place in looped if _judged(invocation.command, place[0])]
        elif not restricted and invocation.caller not in (path, *asked):
            asked.add(invocation.caller)
            found = _callers_devices(project, invocation.caller, depth - 1, invocation.caller, known)
            places += [place for place in found if _judged(invocation.command, place[0])]
    known[path, depth, runs] = places
    return places


def _too_many(launch: Launch, count: int, said: Setting, devices: Devices, where: str) -> Finding:
    cuda = devices.variable == VISIBLE
    visible = _gpus(devices.count) if cuda else _gpus(devices.count, "device")
    outcome = ORDINAL if cuda else "an invalid device ordinal"  # HIP's, torch_npu's, HPU's and XPU's own words
    return Finding(
        said.word.location,
        f"{_spelled(launch)} starts {count} processes per node but {visible} "
        f"{'is' if devices.count == 1 else 'are'} visible{where} ({devices.said}): {_ranks(devices.count, count)} "
        f"with {outcome}; start {devices.count}, or make {count} visible",
        (Related(devices.word.location, f"{devices.said} makes {visible} visible here"),),
    )


def _gpus(count: int, noun: str = "GPU") -> str:
    return f"1 {noun}" if count == 1 else f"{count} {noun}s"


def _spelled(launch: Launch) -> str:
    """The launcher as the script spells it: `torchrun`, or `python -m torch.distributed.launch`
    (after the interpreter's options too: `python -W ignore -m torch.distributed.launch`, SuPreM's)."""
    run = python_run(launch.command)
    interpreter = launch.command.words[0].value
    if run is not None and run.kind == "module" and interpreter and run.target.value:
        return f"{interpreter} -m {run.target.value}"
    return launch.launcher


def _ranks(first: int, count: int) -> str:
    """The local ranks past the last GPU: `rank 4 fails`, `ranks 4-7 fail`."""
    return f"rank {first} fails" if first == count - 1 else f"ranks {first}-{count - 1} fail"


def _job_options(script: ShellScript) -> dict[str, tuple[str, Word]]:
    """The script's `#SBATCH` options, by name: its job's, when it is a batch script."""
    return {name: (value, word) for d in script.directives if d.prefix == "SBATCH" for name, value, word in sbatch_options(d)}


def _jobs_running(project, path: str) -> Iterator[tuple[str, Allocation, int | None]]:
    """(job script, its allocation, tasks per node) for each batch script of the project that
    runs the script at `path` itself (`bash train.sh`, `srun bash train.sh`), not under its own
    `CUDA_VISIBLE_DEVICES` nor as another job (`sbatch --wrap`, `bsub CMD`)."""
    for invocation in project.graph.callers(path):
        caller = project.shell.get(invocation.caller)
        command = invocation.command
        if invocation.kind != "shell" or caller is None or command.remote or _submitted(command) or visible_devices(command)[0]:
            continue
        options = _job_options(caller)
        granted = _step_allocation(command, options) or _allocation(options)
        if granted is not None:
            yield invocation.caller, granted, _tasks_per_node(command, options)


def _against_job(
    launch: Launch, count: int, said: Setting, allocation: Allocation, tasks: int | None, *, alone: bool, where: str = ""
) -> Iterator[Finding]:
    total, gpus = (count * tasks if tasks is not None else None), allocation.count
    if total is None or total == gpus or (total < gpus and (allocation.at_most or not alone)) or not gpus:
        return  # no GPUs (`--gres=gpu:0`): a CPU job, its processes CPU workers
    if total > gpus and allocation.at_least:
        return  # the node's GPUs, which may be as many
    floor = "at least " if allocation.at_least else ""
    allocates = f"at most {_gpus(gpus)} on a node" if allocation.at_most else f"{floor}{_gpus(gpus)} per node"
    if tasks > 1:  # every copy numbers its ranks from 0: they share GPUs rather than run out
        starts = f"srun starts {tasks} copies of {_spelled(launch)} per node, {count} processes each,"
        outcome = "the copies' local ranks share the same GPUs"
        fix = "run one task per node (`--ntasks-per-node=1`)"
    elif total > gpus:
        starts = f"{_spelled(launch)} starts {total} processes per node"
        outcome = f"{_ranks(gpus, total)} with {ORDINAL}"
        fix = f"start {gpus}, or allocate {total}"
    elif allocation.at_least:
        starts = f"{_spelled(launch)} starts {total} processes per node"
        outcome = f"{gpus - total} or more sit idle"
        fix = f"start one per GPU of the node, or allocate {total} without `--exclusive`"
    else:
        starts = f"{_spelled(launch)} starts {total} processes per node"
        outcome = f"{gpus - total} of them sit idle for the whole run"
        fix = f"start {gpus}, or allocate {total}"
    yield Finding(
        said.word.location,
        f"{starts} but the job gets {allocates} ({allocation.said}){where}: {outcome}; {fix}",
        (Related(allocation.word.location, f"the job allocates {allocates} here"),),
    )


def _step_allocation(command: Command, job: dict[str, tuple[str, Word]]) -> Allocation | None:
    """GPUs per node that the `srun` running the launch asks for itself (`srun --gres=gpu:8
    torchrun ...`): its step gets them, whatever the job's header says; None when it asks none."""
    srun = next((w.command for w in command.wrappers if w.kind == "srun"), None)
    if srun is None:
        return None
    return _allocation({name: (value, word) for name, value, word in _srun_options(srun)}, job, "srun ")


def _allocation(
    options: dict[str, tuple[str, Word]], job: dict[str, tuple[str, Word]] | None = None, prefix: str = "#SBATCH "
) -> Allocation | None:
    """GPUs per node from the job's header (or an srun's options, with the job's for the tasks
    and nodes it does not state); None when not stated or not a plain count. A job's
    `--exclusive` gets it every GPU of its nodes, so the count is a floor: the header's, or an
    srun's with no header, which may start the job; an srun's step in a job gets what it asks."""
    stated = _stated_allocation(options, options if job is None else job, prefix)
    exclusive = options.get("--exclusive")
    if stated is None or job or exclusive is None or exclusive[0] in ("user", "mcs", "topo"):
        return stated
    return stated._replace(said=f"{stated.said}, --exclusive", at_least=True)


def _stated_allocation(options: dict[str, tuple[str, Word]], job: dict[str, tuple[str, Word]], prefix: str) -> Allocation | None:
    """The GPUs per node the options ask for."""
    if "--gpus-per-node" in options:
        value, word = options["--gpus-per-node"]
        match = _TYPED_COUNT.match(value)
        return Allocation(int(match.group(1)), word, f"{prefix}--gpus-per-node={value}") if match else None
    if "--gres" in options:
        value, word = options["--gres"]
        counts = [m.group(1) for m in map(_GRES_GPU.match, value.split(",")) if m]
        return Allocation(int(counts[0]), word, f"{prefix}--gres={value}") if len(counts) == 1 else None
    if "--gpus-per-task" in options:
        value, word = options["--gpus-per-task"]
        match, tasks = _TYPED_COUNT.match(value), _stated_tasks(options, job)
        if match is None or not tasks:
            return None
        layout = f"{tasks} tasks per node" if tasks > 1 else "1 task per node"
        return Allocation(int(match.group(1)) * tasks, word, f"{prefix}--gpus-per-task={value} x {layout}")
    gpus = options.get("--gpus") or options.get("-G")
    nodes = _number(next((o[n] for o in (options, job) for n in ("--nodes", "-N") if n in o), None))
    match = _TYPED_COUNT.match(gpus[0]) if gpus is not None else None
    if match is not None and not any(n in o for o in (options, job) for n in ("--nodes", "-N")):
        return Allocation(int(match.group(1)), gpus[1], f"{prefix}--gpus={gpus[0]} with no --nodes", at_most=True)
    if match is None or not nodes or int(match.group(1)) % nodes:
        return None
    return Allocation(int(match.group(1)) // nodes, gpus[1], f"{prefix}--gpus={gpus[0]} over {nodes} node{'s' if nodes > 1 else ''}")


def _tasks_per_node(command: Command, job: dict[str, tuple[str, Word]]) -> int | None:
    """How many copies of the launcher run on a node: 1 in the batch script itself; under
    `srun`, the tasks per node its options or the job's give; None when they cannot be told:
    under another parallel launcher (`mpirun`, `ibrun`, `aprun`, `jsrun`, `flux run`), whose
    copies per node its own options, hostfile or resource sets decide."""
    if any(w.kind in LAUNCHERS for w in command.wrappers):
        return None
    srun = next((w.command for w in command.wrappers if w.kind == "srun"), None)
    if srun is None:
        return 1
    return _stated_tasks({name: (value, word) for name, value, word in _srun_options(srun)}, job)


def _stated_tasks(options: dict[str, tuple[str, Word]], job: dict[str, tuple[str, Word]]) -> int | None:
    """Tasks per node: `--ntasks` over the nodes, or `--ntasks-per-node`, from `options` or else
    the job's; 1 when neither says (one task per node); None when not a whole number. `--ntasks`
    takes precedence, and `--ntasks-per-node` is then the most a node runs (sbatch(1)): `srun -n1
    --ntasks-per-node=4` runs one copy (OpenPSG's), and with no `--nodes` the first node gets as
    many of the tasks as that allows."""
    for stated in (options, job):
        if "--ntasks" in stated or "-n" in stated:
            tasks = _number(stated.get("--ntasks") or stated.get("-n"))
            nodes = _number(next((o[n] for o in (stated, job) for n in ("--nodes", "-N") if n in o), None))
            most = _number(next((o["--ntasks-per-node"] for o in (stated, job) if "--ntasks-per-node" in o), None))
            if tasks and nodes:
                return tasks // nodes if tasks % nodes == 0 else None
            return 1 if tasks == 1 else min(tasks, most) if tasks and most else None
        if "--ntasks-per-node" in stated:
            return _number(stated["--ntasks-per-node"])
    return 1


def _srun_options(srun: Command) -> list[tuple[str, str, Word]]:
    """`srun`'s own options, before the command it runs: spelled as in `#SBATCH` lines."""
    first = srun.inner[0].words[0] if srun.inner else None
    own = next((i for i, word in enumerate(srun.args) if word is first), len(srun.args))
    return sbatch_options(Directive("srun", srun.args[:own], srun.location))


def _number(option: tuple[str, Word] | None) -> int | None:
    return whole(option[0]) if option is not None else None


def _heredoc_job(command: Command) -> dict[str, tuple[str, Word]] | None:
    """The options of the job a launch runs in when `sbatch` reads that job from a heredoc
    (`sbatch <<EOF`): its `#SBATCH` lines, then the command line's, which override them; None
    when the launch is in no such job (or in another, inner one: `sbatch --wrap`, `bsub CMD`)."""
    submitter = next((w for w in reversed(command.wrappers) if w.kind in ("sbatch", "bsub")), None)
    if submitter is None or not submitter.heredoc:
        return None
    sbatch = submitter.command
    lines = [*sbatch.job_directives, Directive("sbatch", sbatch.words[1:], sbatch.location)]
    return {name: (value, word) for d in lines for name, value, word in sbatch_options(d)}


def _heredoc_allocation(command: Command, job: dict[str, tuple[str, Word]]) -> Allocation | None:
    """The GPUs per node of a heredoc's job (`_heredoc_job`), said as the `sbatch` command line
    says them when it gives them (`sbatch --gres=gpu:2 <<EOF`), else as its `#SBATCH` line."""
    granted = _allocation(job)
    sbatch = next(w.command for w in reversed(command.wrappers) if w.kind == "sbatch")
    if granted is not None and any(word is granted.word for word in sbatch.words):
        return _allocation(job, prefix="sbatch ")
    return granted


def _submitted(command: Command) -> bool:
    """Inside `sbatch --wrap` or LSF's `bsub CMD`: another job, with its own allocation."""
    return any(w.kind in ("sbatch", "bsub") for w in command.wrappers)
