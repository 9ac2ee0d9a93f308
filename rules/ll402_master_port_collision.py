"""## What it does
Finds two launches that can run at the same time on the same host and listen on the same
rendezvous port: `--master_port`/`--master-port` (torchrun, deepspeed, `python -m
torch.distributed.run`/`launch`), `--main_process_port` (accelerate, or `main_process_port` in
its config), `MASTER_PORT=... python train.py`, and the default 29500 of torchrun and deepspeed
when no port is given (torchrun ignores a `MASTER_PORT` in its environment); MindSpore's `msrun
--master_port`, where its scheduler listens, 8118 when none is given. At the same time
means background jobs, separate tmux or screen sessions, a loop of background jobs, or `xargs
-P`/`parallel`.

## Why is this bad?
Rank 0 of each launch binds the port. The second launch on the same host cannot: after its
start-up, it dies with `RuntimeError: The server socket has failed to listen on any local
network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already
in use)` (older PyTorch: `RuntimeError: Address already in use`). In a sweep, every job but the
first fails that way, often after the first one has been running long enough that nobody is
watching. `accelerate launch` checks the port before it starts: before 1.8 it stops at once with
`ConnectionError: Tried to launch distributed communication on port ...`; since 1.8
(huggingface/accelerate#3576), a single-node launch that finds the port in use takes a free one,
with a warning, so only launches that start together (a loop's background jobs, two sessions
started one right after the other), before the first binds the port, still fail.

## Example
```bash
CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 train.py --lr 1e-4 &
CUDA_VISIBLE_DEVICES=2,3 torchrun --nproc_per_node 2 train.py --lr 3e-4 &
wait
```

## Use instead
```bash
CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 --master_port 29500 train.py --lr 1e-4 &
CUDA_VISIBLE_DEVICES=2,3 torchrun --nproc_per_node 2 --master_port 29501 train.py --lr 3e-4 &
wait
```
or `torchrun --standalone`, which takes a free port, for single-node jobs.

## Details
At the same time means:
- a background job (`&`, also `nohup ... &`, `setsid -f`, `docker exec -d`, which return while
  the command runs) and any launch after it before a `wait` or `kill`. A `wait` waits for the
  shell's own jobs only: not for what `setsid -f` or `docker exec -d` started, nor a tmux or
  screen session. `wait $A` after `A=$!` waits for that job alone, also `wait "${pids[@]}"` after
  `pids+=($!)` and `wait $PIDS` after `PIDS="$PIDS $!"` for those jobs; `wait -n`, `wait %1` or
  process ids not known here count as waiting for every job;
- separate `tmux new-session -d`/`new-window`/`split-window`/`screen -dm` sessions (`new-window`
  and `split-window` return at once with or without `-d`);
- a job started in the background inside a loop, with the same port every time round, unless a
  `wait` (or `kill`) ends it before the next: one that runs every time round of the innermost loop
  around the launch. A `wait` under a condition (`if [ $i -eq 4 ]; then wait; fi`, `[ $i -eq 4 ]
  && wait`) lets the jobs in between run together, unless each arm of an if/case one of whose arms
  always runs (an `else`, a `*)`) has one (with no `else`, the rounds where no condition holds
  wait for nothing), and
  a `wait` after an inner loop (`for a ...; do for b ...; do ... & done; wait; done`) lets that
  loop's rounds run together;
- a launch that `xargs -P N` runs several at a time (N a number other than 1; `-P 0` runs as many
  as it can), or GNU `parallel` (`-j N`, `--jobs N`, `-P N` with N other than 1; with no `-j`, one
  job per CPU core; `-j 1` runs one at a time, `-S host` on other hosts).

Scripts and functions:
- a script run that way (`bash train.sh &`) counts as its launch, and so does a shell function
  called that way (`run 1e-4 &`): a function's launch runs where the function is called, once at
  each call, also when the function itself starts it in the background or in a tmux session
  (`launch() { tmux new -d -s "$1" "torchrun ..."; }`, then `launch a`, `launch b`), and one that
  a script only defines launches nothing;
- the function's body is read at its first call, so a port it takes from a variable
  (`--master_port $PORT`) is that call's; a later call has it too when it finds the same value
  there, known here. Values decide, not the places that set them: `PORT=29500` at the top and
  `run 1e-4 &`, `run 3e-4 &` is a collision, and so is `PORT=29501` written again before the
  second call; `PORT=29502` (or a `read PORT`, a `for PORT in ...`) between the calls is another
  port, and that call is not compared (neither with the first nor with a third call that also
  sets 29502). A variable the body sets (`local PORT=29500`) has the same value at every call,
  and one it sets from the caller's (`local P=$BASE`) the value that one has at each; a default
  (`${PORT:-29500}`) is not taken at a call that finds the variable set. The same for its
  positional parameters (`--master_port $2`, `${2:-29500}`, `$1` after a `shift`): the call's
  words, compared with the first call's (`launch 0,1 29500 a &`, then `launch 2,3 29500 b &`, is a
  collision); a later call that gives them other words has the port of a walk of the body for
  them (`launch a 29400`, then `launch b 29500 &` and `launch c 29500 &`: b's and c's collide), up
  to 4 sets of words a function (more for a body that calls a function by a name made of them:
  LL105); not known past an argument that may be several words or none
  (`$ARGS`, `"$@"`), nor in a loop of the body (a `shift` there moves them for the next round);
- a port that is the script's own argument (`--master_port $1`, `"${1}"`, `PORT=$1` then
  `--master_port=$PORT`, `MASTER_PORT=$2 python train.py`) is the word a script of the project
  that runs it passes there: `bash child.sh 12345 &` twice is a collision, reported at the second
  line, the launch in `child.sh` a related location. Not known past an argument that may be several
  words or none (`"$@"`, `$ARGS`), from a loop's value (another each time round), after a `shift`
  of a count not known (`shift $N`, one in an arm or a loop: after `shift 2`, `$1` is the third
  argument), a `set --` or a `getopts` of the script, in its functions and loops, when one arm of
  an `if` sets it, nor when no script of the project runs it;
- a port whose value is not known here but that the script sets once (`PORT=$RANDOM`,
  `PORT=$(shuf -i 20000-30000 -n 1)`, `PORT=$((RANDOM + 20000))`, `PORT=$1`) and a launch reads
  whole (`--master_port $PORT`, `--master_port="${PORT}"`) is one value, whatever it is: the same
  every time round a loop it is set before, and for two launches that read it
  (`--main_process_port $PORT` alike). Set again in the loop (before the launch, or after it from
  `$RANDOM` or a computation), in a function (at each call), in a file the script sources, or by a
  script another runs (at each run), it is another each time, and not compared;
- a port the script takes from a default (`MASTER_PORT=${MASTER_PORT:-29500}`) is the caller's
  when a script of the project runs it with that variable set (`MASTER_PORT=$((29500 + i)) bash
  train.sh &` in a sweep; also a Slurm job after an `export`), the default of the script's argument
  (`PORT=${1:-29500}`) when a caller passes that argument (`bash train.sh 29601`), and a
  Makefile's `?=` one (`PORT ?= 29500`) whoever runs make's: not
  compared then with another launch's port, except with a launch of the same run that takes the
  same default, whose port is the same whatever the caller sets (`torchrun --master_port $(PORT)
  a.py & torchrun --master_port $(PORT) b.py`). As in LL401, the interpreter's name and the
  program's arguments decide no port;
- a launch whose port comes from accelerate's config file is reported at the launch, not in the
  YAML.

Not reported:
- launches that run one after the other, in different arms of an `if`/`case`, or on other hosts
  (`ssh`, `srun`, `sbatch`); so are two `msrun`s one after the other, though without `--join True`
  the first returns at once and its scheduler keeps the port (not followed here);
- a launch that joins another's rendezvous (`--node_rank 1`; a `RANK`, `LOCAL_RANK` or
  `NODE_RANK` other than 0 before a python that reads `MASTER_PORT` itself);
- a launch whose options are partly unknown (`torchrun $ARGS x.py` with `$ARGS` not static: it
  may hold a port);
- a port computed per job (`$((29500 + i))`, `$RANDOM` at the launch or drawn in the loop),
  `torchrun --standalone` and a c10d rendezvous (`--rdzv_backend c10d`, which picks a free port or
  joins the first store): these never collide. nvidia-resiliency-ext's `ft_launcher`, built on
  torchrun, takes its options, but meets in a c10d store when no `--rdzv-backend` is given (since
  0.3): only with `--rdzv-backend static` is its `--master-port` (29500 when none is given)
  compared.

Launches on one remote host are compared with each other, never with this host's: those inside
one remote command string (two `tmux new -d` in `ssh gpu1 "..."`, two `&` jobs in `docker exec c1
bash -c "..."`), and those through wrappers that name the same host or container, written alike
and static (`ssh gpu1 '...' &` twice, `pct exec 101 -- ...`). A host not known here (`ssh $HOST`,
a loop over hosts), srun, sbatch, LSF's bsub, kubectl, `docker run` (a container of its own) and a Ray job
(`ray job submit`, which returns at once with `--no-wait`: the cluster places the job) are not
judged.

## References
- torchrun: `--master-port`, "Port on the master node ... Default 29500"; `--standalone`, "Useful
  when launching single-node, multi-worker job ... automatically assigns a free port".
- DeepSpeed launcher `--master_port` (default `TORCH_DISTRIBUTED_DEFAULT_PORT`, 29500).
- MindSpore, msrun launching: `--master_port`, "the port number of the scheduler ... default
  8118"; `--join` (default False): msrun returns once it has started the processes.
- nvidia-resiliency-ext, `fault_tolerance/launcher.py` and `cli_args.py`: `--rdzv-backend`
  default `c10d`, `--master-port` default 29500, `--standalone`.
- accelerate, `utils/launch.py` `prepare_multi_gpu_env`, `prepare_deepspeed_cmd_env`: "Port ... is
  already in use. Accelerate will attempt to launch in a standalone-like mode by finding an open
  port automatically" when `num_machines <= 1` (1.8 and later), else `ConnectionError`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator
from heapq import heappop, heappush
from itertools import accumulate

from launchlint.launches import (
    TORCHRUNS,
    Port,
    as_run_by,
    decided_by_caller,
    launch_defaults,
    launch_of,
    rendezvous_port,
)
from launchlint.model import Finding, Location, Record, Related, Severity
from launchlint.rulekit import Example
from launchlint.shellfacts import ARM, FUNCTION, LOOP, Block, Command, ShellScript

CODE = "LL402"
NAME = "master-port-collision"
SEVERITY = Severity.ERROR
SUMMARY = "Two launches that run at the same time on one host use the same rendezvous port"

IN_USE = "'Address already in use'"
WAITS = {"wait", "kill", "pkill", "killall"}  # after these, an earlier background job is gone (`_still_running`)
NEW_PANES = {"new-window", "neww", "split-window", "splitw"}
# Another host or allocation: also the job steps of `aprun` (ALPS gives each its own compute
# nodes), `jsrun` (resource sets; LLNL's `lrun` runs it) and `flux run`/`flux submit`, which their
# resource manager places, and an LSF job (`bsub CMD`, `bsub -Is CMD`), on the hosts LSF gives it
ELSEWHERE = {"ssh", "pct", "docker", "kubectl", "srun", "sbatch", "bsub", "aprun", "jsrun", "lrun", "flux"}
NAMED_HOST = {"ssh", "pct", "docker"}  # wrappers whose own words name the host or container

INVALID = [
    Example(  # a function's port from its call's arguments: the same word at each call (`$2`, after a `shift`, a default)
        {
            "train.py": "print('step')\n",
            "run.sh": (
                "#!/bin/bash\nlaunch() {\n  CUDA_VISIBLE_DEVICES=$1 torchrun --nproc_per_node 2 --master_port $2 train.py > log_$3.txt 2>&1 &\n}\n"
                "launch 0,1 29500 a\nlaunch 2,3 29500 b\nwait\n"
            ),
            "shift.sh": (
                "#!/bin/bash\nrun() {\n  local name=$1\n  shift\n  torchrun --master_port \"$1\" train.py --name \"$name\" &\n}\n"
                "run a 29500\nrun b 29500\nwait\n"
            ),
            "default.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port ${2:-29500} train.py --name $1 &\n}\nrun a\nrun b\nwait\n",
        },
        ["LL402 default.sh:6", "LL402 run.sh:6", "LL402 shift.sh:8"],
    ),
    Example(  # a function's port from its call's arguments, where the first call's differs: later calls' words, walked
        {
            "train.py": "print('step')\n",
            "run.sh": (
                "#!/bin/bash\nlaunch() {\n  torchrun --nproc_per_node 1 --master_port $2 train.py --name $1 &\n}\n"
                "launch a 29400\nlaunch b 29500\nlaunch c 29500\nwait\n"
            ),
            "redirected.sh": (
                "#!/bin/bash\nrun() {\n  CUDA_VISIBLE_DEVICES=$1 torchrun --master_port $2 train.py\n}\n"
                "run 0 29400 > a.log 2>&1 &\nrun 1 29500 > b.log 2>&1 &\nrun 2 29500 > c.log 2>&1 &\nwait\n"
            ),
        },
        ["LL402 redirected.sh:7", "LL402 run.sh:7"],
    ),
    Example(  # a program whose name is partly known (aps's `cmd/train_$task.py`) is still a program, not options
        {
            "run.sh": (
                "#!/bin/bash\ntorchrun --nproc_per_node 1 --master_port 29501 train.py > a.log 2>&1 &\n"
                "torchrun --nproc_per_node 2 --master_port 29501 cmd/train_$task.py > b.log 2>&1\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL402 run.sh:3"],
    ),
    Example(  # the program's path from the script's own directory (mmdetection's `$(dirname "$0")/train.py`) holds no options
        {
            "run.sh": (
                '#!/bin/bash\ntorchrun --nproc_per_node=2 $(dirname "$0")/train.py > a.log 2>&1 &\n'
                'torchrun --nproc_per_node=2 "$(dirname "$0")/train.py" > b.log 2>&1 &\nwait\n'
            ),
            "train.py": "print(1)\n",
        },
        ["LL402 run.sh:3"],
    ),
    Example(  # launches that take one default share it whoever sets it: the caller of the script, or of make
        {
            "a.py": "print('a')\n",
            "pair.sh": (
                "#!/bin/bash\nMASTER_PORT=${MASTER_PORT:-29500}\ntorchrun --master_port $MASTER_PORT a.py &\n"
                "torchrun --master_port $MASTER_PORT a.py &\nwait\n"
            ),
            "run.sh": "#!/bin/bash\nMASTER_PORT=29601 bash pair.sh\n",
            "Makefile": "PORT ?= 29500\npair:\n\ttorchrun --master_port $(PORT) a.py & torchrun --master_port $(PORT) a.py & wait\n",
        },
        ["LL402 Makefile:3", "LL402 pair.sh:4"],
    ),
    Example(  # two ft_launchers told to use torchrun's static rendezvous, on its default --master-port 29500
        {
            "a.py": "print('a')\n",
            "b.py": "print('b')\n",
            "sweep.sh": (
                "ft_launcher --rdzv-backend static --nproc-per-node 2 a.py &\n"
                "ft_launcher --rdzv_backend=static --nproc-per-node 2 b.py &\nwait\n"
            ),
        },
        ["LL402 sweep.sh:2"],
    ),
    Example(  # two MindSpore msruns in the background, both on msrun's default --master_port 8118 (its scheduler's)
        {
            "a.py": "print('a')\n",
            "b.py": "print('b')\n",
            "sweep.sh": (
                "msrun --worker_num 2 --local_worker_num 2 --log_dir la a.py &\n"
                "msrun --worker_num 2 --local_worker_num 2 --log_dir lb --master_port 8118 b.py &\nwait\n"
            ),
        },
        ["LL402 sweep.sh:2"],
    ),
    Example(  # two `colossalai run`s in the background, both on its default --master_port 29500
        {
            "a.py": "print('a')\n",
            "b.py": "print('b')\n",
            "sweep.sh": (
                "CUDA_VISIBLE_DEVICES=0,1 colossalai run --nproc_per_node 2 a.py &\n"
                "CUDA_VISIBLE_DEVICES=2,3 colossalai run --nproc_per_node 2 b.py &\nwait\n"
            ),
        },
        ["LL402 sweep.sh:2"],
    ),
    Example(  # the sweep passes each job its GPU but not its port: all of them take the default
        {
            "sweep.sh": "#!/bin/bash\nfor i in 0 1 2 3; do\n  CUDA_VISIBLE_DEVICES=$i bash train.sh &\ndone\nwait\n",
            "train.sh": "#!/bin/bash\nMASTER_PORT=${MASTER_PORT:-29500}\ntorchrun --nproc_per_node 1 --master_port $MASTER_PORT train.py\n",
            "train.py": "print('training')\n",
        },
        ["LL402 sweep.sh:3"],
    ),
    Example(
        {
            "sweep.sh": (
                "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 train.py --lr 1e-4 &\n"
                "CUDA_VISIBLE_DEVICES=2,3 torchrun --nproc_per_node 2 train.py --lr 3e-4 &\nwait\n"
            ),
        },
        ["LL402 sweep.sh:3"],
    ),
    Example(  # separate tmux sessions, one port from a variable
        {
            "launch.sh": (
                "PORT=6000\ntmux new-session -d -s a \"torchrun --master_port $PORT train.py\"\n"
                "tmux new-session -d -s b \"deepspeed --master_port=6000 train.py\"\n"
            ),
        },
        ["LL402 launch.sh:3"],
    ),
    Example(  # a background job in a loop, the same port each time; a background script
        {
            "loop.sh": (
                "for lr in 1e-4 3e-4; do\n  MASTER_PORT=29511 python train.py --lr $lr &\ndone\nwait\n"
            ),
            "run_all.sh": "nohup bash train.sh > a.log 2>&1 &\naccelerate launch --main_process_port 29500 x.py\n",
            "train.sh": "torchrun --nproc_per_node 8 train.py\n",
        },
        ["LL402 loop.sh:2", "LL402 run_all.sh:2"],
    ),
    Example(  # GNU parallel runs its command -j N at a time, by default one per CPU core
        {
            "sweep.sh": (
                "parallel -j 4 torchrun --nproc_per_node 1 train.py --lr {} ::: 1e-4 3e-4 1e-3\n"
                "parallel --jobs 2 \"torchrun --master_port 29600 train.py --seed {} > run{}.log 2>&1\" ::: 1 2\n"
                "parallel -j2 deepspeed --master_port 29700 train.py --config {} :::: configs.txt\n"
                "ls configs | parallel torchrun --master_port 29900 train.py --config {}\n"
            ),
        },
        ["LL402 sweep.sh:1", "LL402 sweep.sh:2", "LL402 sweep.sh:3", "LL402 sweep.sh:4"],
    ),
    Example(  # xargs runs the launch several at a time: -P 2, -P0 (as many as it can), --max-procs=4
        {
            "sweep.sh": (
                "printf '%s\\n' 1e-4 3e-4 | xargs -P 2 -I{} torchrun --nproc_per_node 1 train.py --lr {}\n"
                "ls configs | xargs -P0 -n1 deepspeed --master_port 29600 train.py --config\n"
                "seq 4 | xargs --max-procs=4 -I{} env MASTER_PORT=29700 python train.py --seed {}\n"
            ),
        },
        ["LL402 sweep.sh:1", "LL402 sweep.sh:2", "LL402 sweep.sh:3"],
    ),
    Example(  # a function's launch, called twice in the background and in a loop
        {
            "sweep.sh": (
                "#!/bin/bash\nrun() {\n  torchrun --nproc_per_node 2 train.py --lr \"$1\"\n}\n"
                "run 1e-4 > a.log 2>&1 &\nrun 3e-4 > b.log 2>&1 &\nwait\n"
                "for lr in 1e-3 3e-3; do\n  run $lr &\ndone\nwait\n"
            ),
        },
        ["LL402 sweep.sh:6", "LL402 sweep.sh:9"],
    ),
    Example(  # a function's port from a variable the script sets once, called twice in the background
        {
            "sweep.sh": (
                "#!/bin/bash\nPORT=29500\ntrain() {\n  torchrun --master_port $PORT train.py --lr $1\n}\n"
                "train 1e-4 > a.log 2>&1 &\ntrain 3e-4 > b.log 2>&1 &\nwait\n"
            ),
        },
        ["LL402 sweep.sh:7"],
    ),
    Example(  # the port's variable set once for every call: a `PORT=` in a comment, a string or a function
        {  # never called sets nothing; a `local PORT=29500` in the body sets it at each call
            "note.sh": (
                "#!/bin/bash\n# PORT=29600 moves it\nPORT=29500\ntrain() {\n  torchrun --master_port $PORT train.py --lr $1\n}\n"
                "train 1e-4 &\ntrain 3e-4 &\nwait\n"
            ),
            "spare.sh": (
                "#!/bin/bash\nPORT=29500\nspare() {\n  PORT=29600\n}\ntrain() {\n  torchrun --master_port $PORT train.py\n}\n"
                "train &\ntrain &\nwait\n"
            ),
            "local.sh": (
                "#!/bin/bash\nPORT=29400\ntrain() {\n  local PORT=29500\n  torchrun --master_port $PORT train.py\n}\n"
                "train &\ntrain &\nwait\n"
            ),
        },
        ["LL402 local.sh:8", "LL402 note.sh:8", "LL402 spare.sh:10"],
    ),
    Example(  # values decide, not places: the port's variable set to the same value again before a call
        {  # (walked again when its output is redirected); a later call on another port hides no collision
            "again.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port $PORT train.py\n}\nPORT=29501\nrun &\nPORT=29501\nrun &\nwait\n",
            "redirect.sh": (
                "#!/bin/bash\nrun() {\n  torchrun --master_port $PORT train.py\n}\nPORT=29501\nrun > a.log &\n"
                "export PORT=\"29501\"\nrun > b.log &\nwait\n"
            ),
            "pair.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port $PORT train.py\n}\nPORT=29501\nrun &\nrun &\nPORT=29502\nrun &\nwait\n",
        },
        ["LL402 again.sh:8", "LL402 pair.sh:7", "LL402 redirect.sh:8"],
    ),
    Example(  # a script in the background that calls its function (with its output redirected)
        {
            "run_all.sh": "bash lib.sh &\ntorchrun --nproc_per_node 2 x.py\nwait\n",
            "lib.sh": "go() {\n  torchrun --nproc_per_node 2 y.py\n}\ngo > go.log\n",
        },
        ["LL402 run_all.sh:2"],
    ),
    Example(  # a script with no extension, shell by its `#!` line, run by its path twice in the background
        {
            "sweep.sh": "#!/bin/bash\n./scripts/train &\n./scripts/train &\nwait\n",
            "scripts/train": "#!/bin/bash\ntorchrun --nproc_per_node 2 train.py\n",
        },
        ["LL402 sweep.sh:3"],
    ),
    Example(  # tmux windows and panes run side by side, `-d` or not; a port from accelerate's config
        {
            "tmux.sh": (
                "#!/bin/bash\ntmux new-session -d -s exp\n"
                "tmux new-window -t exp \"torchrun --nproc_per_node 2 a.py\"\n"
                "tmux split-window -t exp \"torchrun --nproc_per_node 2 b.py\"\n"
            ),
            "acc.sh": (
                "#!/bin/bash\naccelerate launch --config_file acc.yaml a.py &\n"
                "accelerate launch --config_file acc.yaml b.py &\nwait\n"
            ),
            "acc.yaml": "main_process_port: 29600\nnum_processes: 2\n",
        },
        ["LL402 tmux.sh:4", "LL402 acc.sh:3"],
    ),
    Example(  # a function that starts a detached session, called twice: two sessions
        {
            "launch.sh": (
                '#!/bin/bash\nlaunch() {\n  tmux new-session -d -s "$1" "torchrun --master_port 29500 train.py > $1.log 2>&1"\n}\n'
                "launch a\nlaunch b\n"
            ),
        },
        ["LL402 launch.sh:6"],
    ),
    Example(  # on one remote host: in one command string, or through the same ssh host or container
        {
            "tmux.sh": "ssh gpu1 'tmux new -d -s a \"torchrun a.py > a.log 2>&1\"; tmux new -d -s b \"torchrun b.py > b.log 2>&1\"'\n",
            "docker.sh": "docker exec c1 bash -c 'torchrun a.py > a.log 2>&1 & torchrun b.py > b.log 2>&1 & wait'\n",
            "twice.sh": (
                "ssh gpu1 'torchrun --master_port 29600 a.py' &\nssh gpu1 'torchrun --master_port 29600 b.py' &\nwait\n"
                "pct exec 101 -- torchrun a.py &\npct exec 101 -- torchrun b.py &\nwait\n"
            ),
        },
        ["LL402 docker.sh:1", "LL402 tmux.sh:1", "LL402 twice.sh:2", "LL402 twice.sh:5"],
    ),
    Example(  # `docker exec -d` returns at once: two launches in one container run side by side
        {"detach.sh": "#!/bin/bash\ndocker exec -d c1 torchrun /w/a.py\ndocker exec -d c1 torchrun /w/b.py\n"},
        ["LL402 detach.sh:3"],
    ),
    Example(  # `wait` does not wait for what `docker exec -d` or `setsid -f` started: no job of this shell's
        {
            "detach.sh": "#!/bin/bash\ndocker exec -d c1 torchrun /w/a.py\nwait\ndocker exec -d c1 torchrun /w/b.py\n",
            "fork.sh": "#!/bin/bash\nsetsid -f torchrun a.py > a.log 2>&1\nwait\ntorchrun b.py\n",
            "loop.sh": "#!/bin/bash\nfor i in 1 2; do\n  docker exec -d c1 torchrun /w/a.py\n  wait\ndone\n",
        },
        ["LL402 detach.sh:4", "LL402 fork.sh:4", "LL402 loop.sh:3"],
    ),
    Example(  # `wait $A` waits for the job `A=$!` names: b (on 29500) still runs when c starts
        {
            "sweep.sh": (
                "#!/bin/bash\ntorchrun --nproc_per_node 1 --master_port 29501 train.py > a.log 2>&1 &\nA=$!\n"
                "torchrun --nproc_per_node 1 train.py > b.log 2>&1 &\nwait $A\n"
                "torchrun --nproc_per_node 1 train.py > c.log 2>&1 &\nwait\n"
            ),
            "pids.sh": (  # the ids of the loop's jobs in an array, then in a string: not the one after the loop
                "#!/bin/bash\npids=()\nfor i in 1 2; do\n  torchrun --master_port $((29500 + i)) train.py & pids+=($!)\ndone\n"
                "torchrun --master_port 29600 b.py &\nwait \"${pids[@]}\"\ntorchrun --master_port 29600 c.py &\nwait\n"
                "PIDS=\"\"\nfor i in 1 2; do\n  torchrun --master_port $((29700 + i)) train.py &\n  PIDS=\"$PIDS $!\"\ndone\n"
                "torchrun --master_port 29800 d.py &\nwait $PIDS\ntorchrun --master_port 29800 e.py &\nwait\n"
            ),
            "train.py": "print('training')\n",
        },
        ["LL402 pids.sh:8", "LL402 pids.sh:17", "LL402 sweep.sh:6"],
    ),
    Example(  # a script's port from its own argument (`$1`, `${1}`, `PORT=$1`, after `--master_port=`), given alike by two callers
        {  # that run side by side; in tmux sessions; with a fixed port, or torchrun's default
            "child.sh": "#!/bin/bash\nPORT=$1\ntorchrun --nproc_per_node 2 --master_port $PORT train.py\n",
            "launch.sh": "#!/bin/bash\nbash child.sh 12345 &\nbash child.sh 12345 &\nwait\n",
            "braced.sh": '#!/bin/bash\ntorchrun --master_port="${1}" train.py\n',
            "tmux.sh": (
                '#!/bin/bash\ntmux new -d -s a "bash braced.sh 29600"\ntmux new -d -s b "bash braced.sh 29600"\n'
                "bash braced.sh 29500 &\ntorchrun --nproc_per_node 2 train.py\n"
            ),
            "python.sh": "#!/bin/bash\nMASTER_PORT=$2 python train.py --name $1\n",
            "pair.sh": "#!/bin/bash\nbash python.sh a 29700 &\nbash python.sh b 29700 &\nwait\nbash shift.sh a 29800 &\nbash shift.sh b 29800 &\n",
            "shift.sh": "#!/bin/bash\nNAME=$1\nshift\ntorchrun --master_port $1 train.py --name $NAME\n",
            "train.py": "print('training')\n",
        },
        ["LL402 launch.sh:3", "LL402 pair.sh:3", "LL402 pair.sh:6", "LL402 tmux.sh:3", "LL402 tmux.sh:5"],
    ),
    Example(  # the script's argument's default port, when no caller gives the argument (run by hand, it runs)
        {
            "a.py": "print(1)\n",
            "b.py": "print(1)\n",
            "run.sh": (
                "#!/bin/bash\nPORT=${1:-29500}\ntorchrun --nproc_per_node 1 --master_port $PORT a.py &\n"
                "torchrun --nproc_per_node 1 --master_port 29500 b.py &\nwait\n"
            ),
        },
        ["LL402 run.sh:4"],
    ),
    Example(  # `run.pl JOB=1:4` runs the copies on this host, several at a time
        {"run.sh": "#!/bin/bash\nutils/run.pl --gpu 1 JOB=1:4 exp/log/t.JOB.log torchrun --nproc_per_node 1 train.py --seed JOB\n"},
        ["LL402 run.sh:2"],
    ),
    Example(  # a port drawn once, before the loop: every time round gets it (`$RANDOM`, `$(shuf ...)`, arithmetic on them), as do two jobs
        {
            "train.py": "print('step')\n",
            "sweep.sh": (
                "#!/bin/bash\nPORT=$RANDOM\nfor i in 0 1; do\n  torchrun --master_port $PORT train.py --lr $i &\ndone\nwait\n"
                "P=$(shuf -i 20000-30000 -n 1)\nfor i in 0 1; do\n  torchrun --master_port=\"${P}\" train.py --lr $i &\ndone\nwait\n"
                "Q=$((RANDOM + 20000))\ntorchrun --master_port $Q a.py &\ntorchrun --master_port $Q b.py &\nwait\n"
                "for a in 1 2; do\n  R=$RANDOM\n  for b in 1 2; do\n    accelerate launch --main_process_port $R train.py &\n  done\n  wait\ndone\n"
            ),
        },
        ["LL402 sweep.sh:4", "LL402 sweep.sh:9", "LL402 sweep.sh:14", "LL402 sweep.sh:19"],
    ),
    Example(  # a `wait` under a condition ends no round (four jobs run at a time), nor does one after an inner loop that loop's
        # rounds, nor one in some arms of an if/case (no `else`, or an arm without one)
        {
            "train.py": "print('step')\n",
            "batch.sh": (
                "#!/bin/bash\ni=0\nfor lr in 1 2 3 4 5 6 7 8; do\n  torchrun --master_port 29500 train.py --lr $lr &\n"
                "  i=$((i+1))\n  if [ $i -eq 4 ]; then wait; i=0; fi\ndone\nwait\n"
                "for lr in 1 2; do\n  torchrun --master_port 29501 train.py --lr $lr &\n  [ $lr = 2 ] && wait\ndone\n"
                "for a in 1 2; do\n  for b in 1 2; do\n    torchrun --master_port 29502 train.py --lr $b &\n  done\n  wait\ndone\n"
                'for lr in 1 2; do\n  torchrun --master_port 29503 train.py --lr $lr &\n  if [ "$S" = a ]; then wait; elif [ "$S" = b ]; then wait; fi\ndone\n'
                'for lr in 1 2; do\n  torchrun --master_port 29504 train.py --lr $lr &\n  case $S in a) wait ;; b) wait ;; *) echo ;; esac\ndone\n'
            ),
        },
        ["LL402 batch.sh:4", "LL402 batch.sh:10", "LL402 batch.sh:15", "LL402 batch.sh:20", "LL402 batch.sh:24"],
    ),
]

VALID = [
    Example(  # a port drawn each time round (before the launch, or after it for the next), in a function at each call, by each run of a script
        {
            "train.py": "print('step')\n",
            "sweep.sh": (
                "#!/bin/bash\nfor i in 0 1; do\n  PORT=$RANDOM\n  torchrun --master_port $PORT train.py &\ndone\nwait\n"
                "P=$RANDOM\nfor i in 0 1; do\n  torchrun --master_port $P train.py &\n  P=$RANDOM\ndone\nwait\n"
                "run() {\n  local S=$(shuf -i 20000-30000 -n 1)\n  torchrun --master_port $S train.py &\n}\nrun\nrun\nfor i in 0 1; do run; done\nwait\n"
                "for i in 0 1; do\n  torchrun --master_port $((BASE + i)) train.py &\ndone\nwait\n"
                "for i in 0 1; do\n  bash child.sh &\ndone\nbash child.sh &\nwait\n"
            ),
            "child.sh": "#!/bin/bash\nPORT=$(shuf -i 20000-30000 -n 1)\ntorchrun --master_port $PORT train.py\n",
        }
    ),
    Example(  # a `wait` that ends each round: unconditional, or in each arm of an if/case
        {
            "train.py": "print('step')\n",
            "sweep.sh": (
                "#!/bin/bash\nfor lr in 1 2; do\n  torchrun --master_port 29500 train.py --lr $lr &\n"
                "  if [ $lr = 2 ]; then echo last; fi\n  wait\ndone\n"
                "for lr in 1 2; do\n  torchrun --master_port 29501 train.py --lr $lr &\n  if [ $lr = 2 ]; then wait; else wait; fi\ndone\n"
                "for lr in 1 2; do\n  torchrun --master_port 29502 train.py --lr $lr &\n  case $lr in 1) wait ;; *) wait ;; esac\ndone\n"
            ),
        }
    ),
    Example(  # a function's port from its call's arguments: another at each call, or not known (`$P`, `"$@"`)
        {
            "train.py": "print('step')\n",
            "run.sh": (
                "#!/bin/bash\nlaunch() {\n  torchrun --nproc_per_node 2 --master_port $2 train.py > log_$1.txt 2>&1 &\n}\n"
                "launch a 29500\nlaunch b 29501\nlaunch c $P\nlaunch \"$@\"\nwait\n"
            ),
            "glued.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port 2950$1 train.py &\n}\nrun 1\nrun 2\nwait\n",
            "default.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port ${1:-29500} train.py &\n}\nrun\nrun 29501\nwait\n",
            "walked.sh": (  # each call's own port, its body walked for it; one call's port in each round of a loop
                "#!/bin/bash\nlaunch() {\n  torchrun --master_port $2 train.py --name $1 &\n}\n"
                "launch x 29400\nwait\nlaunch a 29500\nlaunch b 29501\nfor i in $(seq 2 49); do\n  launch $i $((29500 + i))\ndone\nwait\n"
            ),
        }
    ),
    Example(  # an LSF job, batch or interactive, runs on the hosts LSF gives it
        {
            "pair.sh": (
                "#!/bin/bash\nbsub -n 8 torchrun --master_port 29500 a.py\ntorchrun --master_port 29500 a.py &\n"
                "bsub -Is torchrun --master_port 29500 a.py &\nwait\n"
            ),
            "a.py": "print(1)\n",
        }
    ),
    Example(  # job steps placed by the resource manager: ALPS gives each aprun its own compute nodes
        {
            "pair.sh": "#!/bin/bash\naprun -n 1 torchrun --master_port 29500 a.py &\naprun -n 1 torchrun --master_port 29500 b.py &\nwait\n",
            "a.py": "print(1)\n",
            "b.py": "print(1)\n",
        }
    ),
    Example(  # `wait` for the ids of every job that runs; one of two arms' jobs; waits not known here: every job
        {
            "ids.sh": (
                "#!/bin/bash\ntorchrun a.py & A=$!\ntorchrun --master_port 29501 b.py & B=$!\nwait $A \"$B\"\n"
                "torchrun c.py &\nwait\n"
                "if [ \"$1\" = x ]; then torchrun d.py & P=$!; else torchrun --master_port 29501 e.py & P=$!; fi\n"
                "wait $P\ntorchrun f.py &\nwait\n"
            ),
            "unknown.sh": (
                "#!/bin/bash\ntorchrun a.py & A=$!\ntorchrun --master_port 29501 b.py &\nwait -n\n"
                "torchrun c.py &\nwait %1\ntorchrun --master_port 29501 d.py &\nwait $X\ntorchrun e.py &\n"
                "A=$(cat pid)\nwait $A\ntorchrun --master_port 29501 f.py &\nwait\n"
            ),
        }
    ),
    Example(  # `docker exec` without `-d` waits; `-d` into two containers
        {
            "detach.sh": (
                "#!/bin/bash\ndocker exec c1 torchrun /w/a.py\ndocker exec c1 torchrun /w/b.py\n"
                "docker exec -d c2 torchrun /w/c.py\ndocker exec -d c3 torchrun /w/d.py\n"
            )
        }
    ),
    Example(  # keys sent to two panes with no Enter are only typed: nothing runs
        {
            "keys.sh": (
                "tmux send-keys -t a 'torchrun /w/a.py > /w/a.log 2>&1'\n"
                "tmux send-keys -t b 'torchrun /w/b.py > /w/b.log 2>&1'\n"
            )
        }
    ),
    Example(  # a function that would start a session, never called: it launches nothing
        {
            "launch.sh": (
                '#!/bin/bash\nspare() {\n  tmux new -d -s spare "torchrun --master_port 29500 train.py > s.log 2>&1"\n}\n'
                'tmux new -d -s main "torchrun --master_port 29500 train.py > m.log 2>&1"\n'
            ),
        }
    ),
    Example(  # the sweep passes each job its port; the script's default is not what runs
        {
            "sweep.sh": "#!/bin/bash\nfor i in 0 1 2 3; do\n  MASTER_PORT=$((29500 + i)) CUDA_VISIBLE_DEVICES=$i bash train.sh &\ndone\nwait\n",
            "pair.sh": "#!/bin/bash\nexport MASTER_PORT=29601\nbash train.sh &\nexport MASTER_PORT=29602\nbash train.sh &\nwait\n",
            "train.sh": "#!/bin/bash\nMASTER_PORT=${MASTER_PORT:-29500}\ntorchrun --nproc_per_node 1 --master_port $MASTER_PORT train.py\n",
            "train.py": "print('training')\n",
        }
    ),
    Example(  # a Makefile's `?=` port is whoever runs make's: with the launcher's default, no collision is sure
        {
            "Makefile": (
                "PORT ?= 29500\nsweep:\n\ttorchrun --master_port $(PORT) train.py & torchrun train.py & wait\n"
            ),
            "train.py": "print('training')\n",
        }
    ),
    Example(  # a function whose port is a variable set anew before each call
        {
            "sweep.sh": (
                "#!/bin/bash\nrun() {\n  torchrun --nproc_per_node 2 --master_port $PORT train.py\n}\n"
                "PORT=29501\nrun > a.log 2>&1 &\nPORT=29502\nrun > b.log 2>&1 &\nwait\n"
            ),
        },
    ),
    Example(  # the port's variable set anew before each call: by an assignment, `read`, a `for` loop
        {
            "sweep.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port $PORT train.py\n}\nPORT=29501\nrun &\nPORT=29502\nrun &\nwait\n",
            "read.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port $PORT train.py\n}\nPORT=29501\nrun &\nread -r PORT < port.txt\nrun &\nwait\n",
            "for.sh": (
                "#!/bin/bash\nrun() {\n  torchrun --master_port $PORT train.py\n}\nPORT=29501\nrun &\n"
                "for PORT in 29601 29602; do\n  run &\ndone\nwait\n"
            ),
            "next.sh": (  # the body moves it on for the next call
                "#!/bin/bash\nPORT=29500\nrun() {\n  torchrun --master_port $PORT train.py &\n  PORT=$((PORT + 1))\n}\n"
                "run\nrun\nwait\n"
            ),
        },
    ),
    Example(  # the port from a variable the body sets from the caller's, or from a default a later call does not take
        {
            "base.sh": (
                "#!/bin/bash\nrun() {\n  local P=$BASE\n  torchrun --master_port $P train.py\n}\n"
                "BASE=29500\nrun &\nBASE=29600\nrun &\nwait\n"
            ),
            "default.sh": "#!/bin/bash\nrun() {\n  torchrun --master_port ${PORT:-29500} train.py\n}\nrun &\nPORT=29501\nrun &\nwait\n",
            "local.sh": (
                "#!/bin/bash\nrun() {\n  local P=${PORT:-29500}\n  torchrun --master_port $P train.py\n}\n"
                "run > a.log &\nPORT=29501\nrun > b.log &\nwait\n"
            ),
        },
    ),
    Example(  # a sweep that computes a port per job
        {
            "sweep.sh": (
                "#!/bin/bash\nfor i in 0 1 2 3; do\n"
                "  CUDA_VISIBLE_DEVICES=$i torchrun --nproc_per_node 1 --master_port $((29500 + i)) train.py &\n"
                "done\nwait\n"
                "torchrun --master_port $RANDOM train.py &\ntorchrun --master_port $RANDOM train.py &\nwait\n"
            ),
        }
    ),
    Example(  # a script in the background whose function is defined but never called there
        {
            "run_all.sh": "bash lib.sh &\ntorchrun --nproc_per_node 2 x.py\nwait\n",
            "lib.sh": "helper() {\n  torchrun --nproc_per_node 2 y.py\n}\necho defined only\n",
        }
    ),
    Example(  # GNU parallel one at a time (-j 1, -j1, --jobs=1), as many as a variable says, on other hosts, a port per job
        {
            "serial.sh": (
                "parallel -j 1 torchrun train.py --lr {} ::: 1e-4 3e-4\nparallel -j1 torchrun train.py --lr {} ::: 1e-4 3e-4\n"
                "parallel --jobs=1 torchrun train.py --lr {} ::: 1e-4 3e-4\n"
                "parallel -j \"$N\" torchrun --master_port 29600 train.py --lr {} ::: 1e-4 3e-4\n"
                "parallel -S gpu1,gpu2 torchrun train.py --lr {} ::: 1e-4 3e-4\n"
                "parallel -j 4 torchrun --master_port '$((29500 + {#}))' train.py ::: a b\n"
            ),
        }
    ),
    Example(  # xargs one at a time (no -P, -P 1), or as many as a variable says
        {
            "sweep.sh": (
                "seq 2 | xargs -I{} torchrun train.py --seed {}\nseq 2 | xargs -P 1 -I{} torchrun train.py --seed {}\n"
                "seq 2 | xargs -P \"$JOBS\" -I{} torchrun --master_port 29600 train.py --seed {}\n"
            ),
        }
    ),
    Example(  # a function called in the foreground, one call after the other
        {"run.sh": "#!/bin/bash\nrun() {\n  torchrun --nproc_per_node 8 train.py --lr $1\n}\nrun 1e-4\nrun 3e-4 > b.log\n"}
    ),
    Example(  # one after the other; waited for; --standalone; exclusive branches
        {
            "run.sh": (
                "torchrun --nproc_per_node 8 pretrain.py\ntorchrun --nproc_per_node 8 finetune.py\n"
                "torchrun eval.py &\nwait\ntorchrun eval2.py\n"
                "torchrun --standalone --nproc_per_node 4 a.py &\ntorchrun --standalone --nproc_per_node 4 b.py &\n"
                "if [ \"$1\" = big ]; then torchrun big.py & else torchrun small.py & fi\n"
            ),
        }
    ),
    Example(  # Megatron style: one multi-node launch; a second node joins the first's port
        {
            "pretrain_gpt.sh": (
                "#!/bin/bash\nGPUS_PER_NODE=8\nMASTER_ADDR=${MASTER_ADDR:-localhost}\nMASTER_PORT=6000\n"
                "NNODES=${SLURM_NNODES:-1}\nNODE_RANK=${SLURM_NODEID:-0}\n"
                "torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES --node_rank $NODE_RANK "
                "--master_addr $MASTER_ADDR --master_port $MASTER_PORT pretrain_gpt.py\n"
            ),
            "two_nodes_one_host.sh": (
                "torchrun --nnodes 2 --node_rank 0 --master_port 29400 train.py &\n"
                "torchrun --nnodes 2 --node_rank 1 --master_port 29400 train.py &\nwait\n"
            ),
            "by_hand.sh": (  # the two processes of one job, started by hand (Lightning reads LOCAL_RANK)
                "MASTER_ADDR=localhost MASTER_PORT=1234 LOCAL_RANK=1 python train.py &\n"
                "MASTER_ADDR=localhost MASTER_PORT=1234 LOCAL_RANK=0 python train.py\n"
            ),
        }
    ),
    Example(  # ft_launcher meets in a c10d store unless told `--rdzv-backend static`: its port is not bound
        {"sweep.sh": "ft_launcher --nproc-per-node 2 a.py &\nft_launcher --nproc-per-node 2 --master-port 29500 b.py &\nwait\n"}
    ),
    Example(  # other hosts; a c10d rendezvous; a fresh port per iteration from arithmetic
        {
            "hosts.sh": (
                "ssh gpu1 'torchrun train.py' &\nssh gpu2 'torchrun train.py' &\n"
                "srun -w node1 torchrun train.py &\nsrun -w node2 torchrun train.py &\n"
                "torchrun --rdzv_backend c10d --rdzv_endpoint localhost:0 a.py &\n"
                "torchrun --rdzv_backend c10d --rdzv_endpoint localhost:0 b.py &\nwait\n"
                "PORT=29600\nfor s in 1 2; do torchrun --master_port $PORT train.py & PORT=$((PORT + 1)); done\n"
            ),
            "mixed.sh": (  # here and there; a host not known; one after the other on one host
                "torchrun train.py &\nssh gpu1 'torchrun train.py' &\nssh $HOST 'torchrun a.py' &\n"
                "ssh $HOST 'torchrun b.py' &\nfor h in gpu2 gpu3; do ssh $h 'torchrun c.py' & done\n"
                "docker run img torchrun d.py &\ndocker run img torchrun d.py &\nwait\n"
                "ssh gpu1 'torchrun e.py'\nssh gpu1 'torchrun f.py'\n"
            ),
            "ray.sh": (  # Ray jobs, submitted without waiting: the cluster places them
                "ray job submit --no-wait --working-dir . -- torchrun --nproc_per_node 2 a.py\n"
                "ray job submit --no-wait --working-dir . -- torchrun --nproc_per_node 2 b.py\n"
            ),
        }
    ),
    Example(  # a script's port from its own argument: another at each run (also past a `shift`), one after the other, not
        {  # known (`"$@"`, `$P`, a loop's, after `shift $N`), set in one arm only; or a port the script picks itself
            "child.sh": "#!/bin/bash\nPORT=$1\ntorchrun --nproc_per_node 2 --master_port $PORT train.py\n",
            "launch.sh": (
                "#!/bin/bash\nbash child.sh 29500 &\nbash child.sh 29501 &\nwait\nbash child.sh 29600\nbash child.sh 29600\n"
                'bash child.sh "$@" &\nbash child.sh "$@" &\nbash child.sh $P &\nbash child.sh $P &\nwait\n'
                "for p in 29700 29701; do\n  bash child.sh $p &\ndone\nwait\n"
                "bash shift.sh a 29800 &\nbash shift.sh b 29801 &\nbash arm.sh 29900 x &\nbash arm.sh 29900 x &\n"
                "bash free.sh 29950 &\nbash free.sh 29950 &\nbash moved.sh a 29960 &\nbash moved.sh b 29960 &\nwait\n"
            ),
            "shift.sh": "#!/bin/bash\nNAME=$1\nshift\ntorchrun --master_port $1 train.py --name $NAME\n",
            "moved.sh": "#!/bin/bash\nshift $N\ntorchrun --master_port $1 train.py\n",
            "arm.sh": '#!/bin/bash\nif [ -n "$2" ]; then PORT=$1; else PORT=29000; fi\ntorchrun --master_port $PORT train.py\n',
            "free.sh": "#!/bin/bash\nPORT=$(python free_port.py)\ntorchrun --master_port $PORT train.py --tag $1\n",
            "train.py": "print('training')\n",
        }
    ),
    Example(  # the same when a caller passes the argument: its port is not compared with a fixed one
        {
            "a.py": "print(1)\n",
            "b.py": "print(1)\n",
            "run.sh": (
                "#!/bin/bash\nPORT=${1:-29500}\ntorchrun --nproc_per_node 1 --master_port $PORT a.py &\n"
                "torchrun --nproc_per_node 1 --master_port 29500 b.py &\nwait\n"
            ),
            "sweep.sh": "#!/bin/bash\nbash run.sh 29601\n",
        }
    ),
    Example(  # one copy, one at a time, a port per copy, or a runner by cmd.sh's variable (the cluster places them)
        {
            "run.sh": (
                "#!/bin/bash\nutils/run.pl JOB=1:1 exp/log/a.JOB.log torchrun --nproc_per_node 1 train.py\n"
                "utils/run.pl --max-jobs-run 1 JOB=1:4 exp/log/b.JOB.log torchrun --nproc_per_node 1 train.py\n"
                "utils/run.pl JOB=1:4 exp/log/c.JOB.log torchrun --master_port 2960JOB --nproc_per_node 1 train.py\n"
                "$cuda_cmd JOB=1:4 exp/log/d.JOB.log torchrun --nproc_per_node 1 train.py\n"
            )
        }
    ),
]


class Job(Record):
    """A launch as the script that starts it sees it."""

    # the commands of this script that start it, outermost first: for a launch in a function,
    # the call's, then the function's
    chain: tuple[Command, ...]
    launch: Command  # the launch itself (in this script or in a script it runs)
    path: str  # the launch's file
    port: Port
    call: Command | None = None  # the call of the function the launch is in
    # The defaults its port may have taken that whoever runs the script sets (`decided_by_caller`):
    # that value then, the same for every launch of the script that takes it.
    decided: frozenset[str] = frozenset()
    # The positional parameter of its script the port is (`--master_port $1`), given by the
    # caller's argument (`bash child.sh 12345`: `as_run_by`); 0 when not one.
    given: int = 0

    @property
    def said(self) -> str:
        """How the port is given (`Port.said`); for torchrun's default, that torchrun does not read
        a MASTER_PORT set for it (it sets MASTER_PORT for its workers from `--master_port`); for a
        port its caller decides, by what."""
        if self.given:
            return f"{self.port.said}: the `${self.given}` of {self.path}"
        if self.decided:
            return f"{self.port.said}, or whatever {' or '.join(f'`{n}`' for n in sorted(self.decided))} is set to"
        if self.port.word is None and self.name in TORCHRUNS and self.launch.has_env("MASTER_PORT"):
            return f"{self.port.said}: {self.name} ignores `MASTER_PORT`"
        return self.port.said

    @property
    def where(self) -> Location:
        """Where to point: the launch (see `launched_at`); for a launch in another script or in a
        function, the line of this script that starts it, or calls the function."""
        if self.call is not None:
            return self.call.location
        return self.chain[-1].location if self.launch is not self.chain[-1] else self.launched_at

    @property
    def launched_at(self) -> Location:
        """The port as written in the launch, else the launch itself (for a launcher's default,
        or a port its config file sets: `main_process_port` in accelerate's YAML)."""
        launch = self.launch.words[0].location
        word = self.port.word
        return word.location if word is not None and word.location.path == launch.path else launch

    @property
    def name(self) -> str:
        launch = launch_of(self.launch)
        return launch.launcher if launch is not None else self.launch.name or "the launch"


def check(project) -> Iterator[Finding]:
    scripts_run = _scripts_run(project)
    for path, script in project.shell.items():
        jobs = _jobs(project, path, script, scripts_run)
        if not jobs:  # most scripts: no order of commands to index (-15 M instructions of 520, with LL401's)
            continue
        position = {id(c): i for i, c in enumerate(script.commands)}
        stops = {i: c for i, c in enumerate(script.commands) if c.name in WAITS}
        ends = _Ends(stops)
        stops_in = _each_round(stops.values())
        # Only a job on the same port can collide: comparing with every earlier job was
        # quadratic in the launches of a script. So is comparing with every earlier job on the
        # port (a 1,500-step workflow of `torchrun`s on the default port: 13 s): an earlier job
        # is passed over once no later one can run beside it (`_Span`).
        spans = [_Span(job, position, ends) for job, _ in jobs]
        first_after = list(accumulate(reversed([span.first for span in spans]), min))[::-1]
        earlier_on: dict[tuple, _Earlier] = defaultdict(_Earlier)  # (port, decided, host) -> its jobs so far
        for i, (job, host) in enumerate(jobs):
            span = spans[i]
            earlier = earlier_on[job.port.number if job.port.drawn is None else job.port.drawn, job.decided, host]
            earlier.forget(first_after[i])  # the jobs none from here on can run beside
            repeated, parallel = _repeated(job, stops_in), _in_parallel(job)
            if repeated is not None:
                yield _in_a_loop(job, repeated)
            elif parallel is not None:
                yield _at_a_time(job, parallel)
            else:
                for first in earlier.spans.values():
                    if first.gone < span.first or not (first.at_once or span.at_once):
                        continue  # `_together` would say None
                    why = _together(first.job, job, position, stops, ends)
                    if why and host:
                        why += f", both through `{' '.join(host[-1])}`"
                    if why:
                        yield _collision(first.job, job, why)
                        break
            earlier.add(span)


class _Earlier:
    """The jobs on one port and host so far, in order, less those `forget` was told no later
    job can run beside (by `_Span.gone`; a heap finds them without reading the others)."""

    def __init__(self) -> None:
        self.spans: dict[int, _Span] = {}  # by the order they came in
        self.gones: list[tuple[float, int]] = []  # a heap of (gone, key)
        self.added = 0

    def add(self, span: _Span) -> None:
        key, self.added = self.added, self.added + 1
        self.spans[key] = span
        heappush(self.gones, (span.gone, key))

    def forget(self, before: float) -> None:
        while self.gones and self.gones[0][0] < before:
            del self.spans[heappop(self.gones)[1]]


class _Ends:
    """The script's `WAITS` commands, by place, to find those between two places without
    reading them all (`between`), and the first after a place that ends every job, or every
    job of the shell's own (`after`)."""

    def __init__(self, stops: dict[int, Command]) -> None:
        self.places = sorted(stops)
        every = [at for at in self.places if stops[at].waits_for is None]  # not `wait $A`
        self.killing = [at for at in every if stops[at].name != "wait"]  # `kill`: ends whatever ran
        self.every = every  # with `wait`, which ends the shell's own background jobs

    def between(self, start: int, end: int) -> list[int]:
        return self.places[bisect_right(self.places, start) : bisect_left(self.places, end)]

    @staticmethod
    def after(places: list[int], at: int) -> float:
        found = bisect_right(places, at)
        return places[found] if found < len(places) else INFINITY


INFINITY = float("inf")


class _Span:
    """A job's commands' places (`first` to `last`) and the place from which no job that starts
    wholly after it runs beside it (`gone`). `_together` compares a job with a later one where
    their chains part: with the earlier one's remainder when the two are apart, so it says None
    when that remainder cannot return at once (`at_once`: when the whole chain cannot, no part
    of it can) or a `WAITS` command between them ended it: a `kill`, or a `wait` when it is a
    job of the shell's own (it cannot return at once after a `wait`: `_at_once(..., waited=True)`)."""

    first: float
    gone: float

    def __init__(self, job: Job, position: dict[int, int], ends: _Ends) -> None:
        self.job = job
        places = [position.get(id(c)) for c in job.chain]
        self.at_once = _at_once(job.chain) is not None
        if None in places:  # a command not among the script's: compared with every job, as before
            self.first, self.gone = -INFINITY, INFINITY
            return
        self.first, last = min(places), max(places)
        if not self.at_once:
            self.gone = last
        elif _at_once(job.chain, waited=True) is None:
            self.gone = ends.after(ends.every, last)
        else:
            self.gone = ends.after(ends.killing, last)


def _scripts_run(project) -> dict[str, list]:
    """Caller -> its invocations of the project's shell scripts."""
    runs = defaultdict(list)
    for invocation in project.graph.invocations:
        if invocation.kind == "shell" and invocation.callee in project.shell:
            runs[invocation.caller].append(invocation)
    return runs


def _jobs(project, path: str, script: ShellScript, scripts_run) -> list[tuple[Job, tuple]]:
    """The script's launches with a fixed port, then those of the scripts it runs (their
    foreground launches, which run as long as the script that starts them), each with the host
    it runs on (see `_host`); not those on a host not known."""
    jobs = []
    calls = _calls(script)
    for command in script.effective_commands():
        port = rendezvous_port(project, path, command)
        if port is None:
            continue
        # A default its caller sets (`MASTER_PORT=${MASTER_PORT:-29500}`, a Makefile's `PORT ?=`) is
        # one value in a run of the script: the launches that take it still share it.
        took = launch_defaults(command)
        decided = took if decided_by_caller(project, path, took) else frozenset()
        chain = _chain(command)
        function = _function(chain)
        if function is not None and function.arm == 1:
            continue  # the body walked again for a call that redirects it: the walk of its values counts
        if function is None:
            jobs.append(Job(chain, command, path, port, None, decided))
        else:  # a function's launch runs at each call, in the background, in a tmux session, ...
            # at each call of the walk that had the call's positional parameters (`Command.walk`), the first one its own
            made = [call for call in calls.get(function.statement, []) if call.walk == function.arm]
            if port.word is not None and script.varies:  # its body was read at the first call: a variable may differ at others
                made = made[:1] + [call for call in made[1:] if _as_at_first(script, path, port.word, call)]
            jobs += [Job((*_chain(call), *chain), command, path, port, call, decided) for call in made]
    for invocation in scripts_run.get(path, []):
        callee = project.shell[invocation.callee]
        called = {defined for defined, made in _calls(callee).items() if made}
        for command in callee.effective_commands():
            function = _function(_chain(command))
            if function is not None and (function.arm or function.statement not in called):
                continue  # a function's launch counts once, and only when the script calls it
            port = _fixed(rendezvous_port(project, invocation.callee, command))  # a port the script draws is its run's own
            given = 0
            if port is None and callee.arguments:  # `--master_port $1`: the caller's `bash child.sh 12345`
                command = as_run_by(project, invocation.callee, command, invocation)
                port = _fixed(rendezvous_port(project, invocation.callee, command))
                word = port.word if port is not None else None
                given = callee.arguments.get(word.origin[0], 0) if word is not None and word.origin and word.location.path == invocation.callee else 0
            if port is None or decided_by_caller(project, invocation.callee, launch_defaults(command), invocation):
                continue
            if _at_once(_chain(command)) is None:
                jobs.append(Job(_chain(invocation.command), command, invocation.callee, port, given=given))
    placed = ((job, _host(job)) for job in sorted(jobs, key=lambda job: job.where))
    return [(job, host) for job, host in placed if host is not None]


def _fixed(port: Port | None) -> Port | None:
    """The port when its number is known: not one a script draws (`Port.drawn`), another value at each run."""
    return port if port is not None and port.number is not None else None


def _as_at_first(script: ShellScript, path: str, word, call: Command) -> bool:
    """Whether a port as written in a function's body has at this call the value of the first
    call, whose walk made it: none of its characters may differ here (`ShellScript.varies`); a
    port from a config file is that file's."""
    varies = script.varies.get(call.location) if word.location.path == path else None
    return not varies or not any(offset in varies for offset in word.origin[: len(word.text)])


def _function(chain: tuple[Command, ...]) -> Block | None:
    """The innermost function body the chain's command is in (also through a wrapper in the
    function: `run() { tmux new -d "torchrun ..."; }`)."""
    return next((b for c in reversed(chain) for b in reversed(c.blocks) if b.kind == FUNCTION), None)


def _calls(script: ShellScript) -> dict[Location, list[Command]]:
    """The script's calls of its own functions, by the function's definition."""
    calls = defaultdict(list)
    if script.functions:
        for command in script.effective_commands():
            defined = script.functions.get(command.name or "")
            if defined is not None:
                calls[defined].append(command)
    return calls


def _chain(command: Command) -> tuple[Command, ...]:
    return (*(w.command for w in command.wrappers), command)


def _host(job: Job) -> tuple | None:
    """Where the job runs: () on this host; through `ssh`, `docker exec` or `pct exec`, the own
    words of each such wrapper (`ssh gpu1`, `docker exec c1`), which name one host when written
    alike and static; None where not known: `ssh $HOST`, srun, sbatch, kubectl, `docker run` (a
    container of its own)."""
    host = []
    seen = set()
    for command in (*job.chain, job.launch):
        for wrapper in command.wrappers:
            if id(wrapper.command) in seen or not (wrapper.remote or wrapper.kind in ELSEWHERE):
                continue
            seen.add(id(wrapper.command))
            words = [w.value for w in wrapper.command.own_words()]
            if wrapper.kind not in NAMED_HOST or None in words or (wrapper.kind == "docker" and words[1:2] != ["exec"]):
                return None
            host.append(tuple(words))
    return tuple(host)


def _at_once(chain: tuple[Command, ...], waited: bool = False) -> str | None:
    """Why the first command of the chain returns while the last still runs, if it does; after a
    `wait` (`waited`), which waits for this shell's own background jobs only, why it still runs:
    `setsid -f` or `docker exec -d` started it outside them, or it runs in a tmux or screen session."""
    if any(c.background and (c.detaches or not waited) for c in chain):
        return "a background job"
    wrappers = [w for w in chain[-1].wrappers if any(w.command is c for c in chain[:-1])]
    detached = [w.kind for w in wrappers if w.detached]
    if detached:
        return f"started in a {detached[0]} session"
    # `tmux new-window`/`split-window` return once the pane runs, `-d` or not (`-d` only keeps
    # the current window in view); `new-session` without `-d` attaches, and waits.
    return "started in its own tmux pane" if any(_new_pane(w.command) for w in wrappers if w.kind == "tmux") else None


def _new_pane(tmux: Command) -> bool:
    return any(w.value in NEW_PANES for w in tmux.words[1:])


def _together(first: Job, second: Job, position: dict[int, int], stops: dict[int, Command], ends: _Ends) -> str | None:
    """Why the two jobs run at the same time, or None: compared where their chains part."""
    k = 0
    while k < min(len(first.chain), len(second.chain)) - 1 and first.chain[k] is second.chain[k]:
        k += 1
    a, b = first.chain[k:], second.chain[k:]
    if a[0] is b[0]:
        return None  # one command starts both: its own script decides
    if position[id(a[0])] > position[id(b[0])]:
        a, b = b, a
    if _exclusive(a[0].blocks, b[0].blocks) or _same_pane(a, b):
        return None
    between = ends.between(position[id(a[0])], position[id(b[0])])
    return _still_running(a, {stops[at].name for at in between if _ends(stops[at], a)})


def _ends(stop: Command, chain: tuple[Command, ...]) -> bool:
    """Whether `stop`, a command of `WAITS`, may end the job the chain starts: `wait $A` waits
    for the job `A=$!` names only (`Command.waits_for`), a `wait` with no such ids every job."""
    return stop.waits_for is None or any(c in stop.waits_for for c in chain)


def _still_running(chain: tuple[Command, ...], stopped: set[str]) -> str | None:
    """Why the chain's job still runs after `stopped`, the commands of `WAITS` that ran since it
    started, if it does: a `kill` or `pkill` may have ended any job, a `wait` only the shell's own."""
    if stopped - {"wait"}:
        return None
    return _at_once(chain, waited=bool(stopped))


def _exclusive(left: tuple[Block, ...], right: tuple[Block, ...]) -> bool:
    """In different arms of one if/case: never both run."""
    return any(x.kind == ARM and x.statement == y.statement and x.arm != y.arm for x in left for y in right)


def _same_pane(a: tuple[Command, ...], b: tuple[Command, ...]) -> bool:
    """`tmux send-keys` into the same pane: the second command waits at the prompt."""
    panes = [_pane(chain) for chain in (a, b)]
    return panes[0] is not None and panes[0] == panes[1]


def _pane(chain: tuple[Command, ...]) -> str | None:
    """The target of a `tmux send-keys` in the chain ("" for the current pane, "?" unknown)."""
    for command in chain:
        values = [w.value for w in command.words]
        if command.name == "tmux" and ("send-keys" in values or "send" in values):
            return (values[values.index("-t") + 1] or "?") if "-t" in values[:-1] else ""
    return None


def _repeated(job: Job, stops_in: dict[Block, list[Command]]) -> Block | None:
    """The loop that starts the job again while it still runs, on the same port: the innermost
    around a command of its chain (its rounds run one after the other when a `WAITS` command
    ends each: `stops_in`, see `_each_round`). A port drawn in that loop (`Port.drawn`) is another
    each time round."""
    drawn = job.port.drawn
    for i, command in enumerate(job.chain):
        loops = [block for block in command.blocks if block.kind == LOOP]
        if not loops or drawn is not None and loops[-1].statement.holds(drawn.location):
            continue
        if _at_once(job.chain[i:]) and _still_running(job.chain[i:], _stops_in(stops_in, loops[-1], job.chain[i:])):
            return loops[-1]
    return None


def _each_round(stops: Iterable[Command]) -> dict[Block, list[Command]]:
    """A loop -> the commands of `WAITS` in it that run every time round: not one under a
    condition of its body (`if [ $i -eq 4 ]; then wait; fi`, `[ ... ] && wait`: four jobs run at a
    time), unless each arm of that if/case has one."""
    stops = list(stops)
    arms: dict[Location, set[int]] = defaultdict(set)  # an if/case -> its arms that hold one
    counts: dict[Location, int] = {}  # an if/case one of whose arms always runs -> its arms
    for stop in stops:
        for block in stop.blocks:
            if block.kind == ARM:
                arms[block.statement].add(block.arm)
                counts[block.statement] = block.arms
    every = {statement for statement, held in arms.items() if len(held) == counts[statement] > 1}
    each_round: dict[Block, list[Command]] = {}
    for stop in stops:
        for block in reversed(dict.fromkeys(stop.blocks)):  # the innermost first
            if block.kind == ARM and block.statement not in every:
                break  # it may not run in this loop's rounds, nor in those of the loops around
            if block.kind == LOOP:
                each_round.setdefault(block, []).append(stop)
    return each_round


def _in_parallel(job: Job) -> Command | None:
    """The wrapper that runs the launch several copies at a time (`xargs -P 4`, `parallel -j 4`:
    `Wrapper.parallel`)."""
    return next((w.command for w in job.launch.wrappers if w.parallel), None)


def _stops_in(stops_in: dict[Block, list[Command]], loop: Block, chain: tuple[Command, ...]) -> set[str]:
    """The commands of `WAITS` that run every time round the loop and may end the chain's job
    (`_ends`), found by loop: reading every command of the script for each job in a loop was quadratic."""
    return {c.name for c in stops_in.get(loop, ()) if _ends(c, chain)}


def _in_a_loop(job: Job, loop: Block) -> Finding:
    return Finding(
        job.where,
        f"the loop {_line(loop.statement, job.where, 'on this line')} starts {job.name} in the background on port {_number(job)}"
        f"{_given(job)}: {_fail(job, many=True)}; {_own_ports(job)}",
        _launch_note(job),
    )


def _at_a_time(job: Job, runner: Command) -> Finding:
    how = "`xargs -P`" if runner.name == "xargs" else f"`{runner.name}`"
    if runner.location.line != job.where.line:
        how += f" (line {runner.location.line})"
    return Finding(
        job.where,
        f"{how} runs {job.name} several at a time on port {_number(job)}"
        f"{_given(job)}: {_fail(job, many=True)}; {_own_ports(job)}",
        _launch_note(job),
    )


def _collision(first: Job, second: Job, why: str) -> Finding:
    """The port, the launch holding it, the failure and the fix; why the two run at once is
    said at the first launch, a related location."""
    held = f"{first.name} on port {_number(first)} ({first.said}) starts here, and still runs ({why})"
    notes = dict.fromkeys((Related(first.where, held),) + _launch_note(first) + _launch_note(second))
    return Finding(
        second.where,
        f"port {_number(second)}{_given(second)} is taken by {_taken_by(first, second)}: "
        f"{_fail(second, many=False)}; {_own_ports(second)}",
        tuple(notes),
    )


def _fail(job: Job, many: bool) -> str:
    """What becomes of the launches on a port taken: they fail with 'Address already in use'. A
    single-node `accelerate launch` checks the port first: before 1.8 it stops then (ConnectionError);
    since (huggingface/accelerate#3576) it takes a free port instead, so only one that starts
    together with the first, before that one binds it, fails."""
    who = "all but one fail" if many else "this one fails"
    launch = launch_of(job.launch)
    machines = launch.options.get("num_machines") if launch is not None and launch.launcher == "accelerate" else None
    if launch is not None and launch.launcher == "accelerate" and (machines is None or machines.value in (None, "1")):
        return f"{who} (from accelerate 1.8, only if {'they start' if many else 'both start'} together)"
    return f"{who} with {IN_USE}"


def _number(job: Job) -> str:
    """The port in a message: its number, or the variable a port the script draws is read from."""
    port = job.port
    return str(port.number) if port.drawn is None else f"${port.drawn.name}"


def _taken_by(first: Job, second: Job) -> str:
    """The launch holding the port: "the torchrun at line 2", or "torchrun earlier on this line"."""
    if first.where.line != second.where.line:
        return f"the {first.name} at line {first.where.line}"
    return f"{first.name} {_line(first.where, second.where)}"


def _line(there: Location, here: Location, same: str = "") -> str:
    """Where `there` is, said from the finding at `here`: "at line 2", or "earlier on this line"
    (`torchrun a.py & torchrun b.py &`) where a line number would name the finding's own line."""
    if there.line != here.line:
        return f"at line {there.line}"
    return same or ("earlier on this line" if there.column < here.column else "later on this line")


def _given(job: Job) -> str:
    """How the launch's port is given, for its message: nothing when the number is written on
    the line the finding points at (`--master_port 29500`), else ` (torchrun's default)`,
    ` (--master_port $PORT)`, ` (main_process_port: 29600 in acc.yaml)`, ..."""
    port, where = job.port, job.where
    if port.drawn is not None:  # ` (set once, at line 3)`, with how the launch reads it when that is not this line
        written = port.word.location.path == where.path and port.word.location.line == where.line
        return f" ({'' if written else f'{job.said}, '}set once, at line {port.drawn.location.line})"
    if (
        port.word is not None
        and port.word.text == str(port.number)
        and job.said == port.said
        and (port.word.location.path, port.word.location.line) == (where.path, where.line)
    ):
        return ""
    return f" ({job.said})"


def _option(job: Job) -> str:
    """What sets this launch's port: `--master_port`, accelerate's `--main_process_port`, or the
    `MASTER_PORT` a trainer reads itself."""
    launch = launch_of(job.launch)
    if launch is None:
        return "MASTER_PORT"
    return "--main_process_port" if launch.launcher == "accelerate" else "--master_port"


def _own_ports(job: Job) -> str:
    standalone = ", or use `--standalone`" if job.name in TORCHRUNS else ""
    return f"give each its own `{_option(job)}`{standalone}"


def _launch_note(job: Job) -> tuple[Related, ...]:
    """For a launch in another script, where that launch is."""
    if job.call is None and job.launch is job.chain[-1]:
        return ()
    who = f"the function {job.call.name}" if job.call is not None else job.path
    return (Related(job.launched_at, f"{who} launches {job.name} here"),)
