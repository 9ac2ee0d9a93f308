"""## What it does
Finds a Python program whose stdout goes into a log, through a pipe or a file, when nothing makes
it unbuffered: no `python -u`, no `PYTHONUNBUFFERED` in its environment, no pseudo terminal, and
no `sys.stdout.reconfigure(line_buffering=True)` in the trainer. The log may be its own (`| tee
run.log`, `> run.log`), its script's (`exec > run.log`, a launcher's `bash run.sh | tee`), its
function's call's (`train > train.log`; `gg_run_$ci | tee $OUT/$ci.log` for each function that
name may call, at each call: LL105 says how far such calls are followed), or the file `srun -o`
names.

## Why is this bad?
When stdout is not a terminal, Python buffers it in blocks of several kilobytes. `tail -f
train.log` shows nothing for minutes, then a burst; and when the job is killed (OOM killer, SLURM
time limit, `kill -9`, a node failure) the last block never reaches the file: the lines that say
what the job was doing when it died are exactly the ones that are lost.

## Example
```bash
set -o pipefail
python train.py --lr 3e-4 2>&1 | tee train.log
```

## Use instead
```bash
set -o pipefail
python -u train.py --lr 3e-4 2>&1 | tee train.log
```
or `export PYTHONUNBUFFERED=1` once at the top of the script.

## Details
The programs: `python`, `python3`, `python -m pkg`, `srun python`, `uv run x.py`, a console
script the project's own packages declare, run by its name (`fq-train data > train.log`: LL301
says how they are read), a Python file
of the project run by its `#!` line (`./train.py > train.log`, also through a directory the
project links in: `utils/t.py` by `utils -> ../paraformer/utils`; not one whose `#!` line passes
`-u`: `#!/usr/bin/env -S python3 -u`), a program on
standard input (`python - <<'PY' | tee audit.log`), a program `coverage run` or `python -m
coverage run` runs (not `coverage report`), a program run under a debugger (`python -m pdb -c
continue train.py | tee debug.log`: what it prints waits in the buffer until pdb's next prompt,
though LL105 leaves that pipeline alone). A tool run as a module is not one: a package manager
(`python3 -m pip install -U pip >> setup.log`, as `pip install` by its own name; `python -m uv`,
`python -m conda`) or a maker of environments (`python3 -m venv .venv`, `ensurepip`,
`virtualenv`) writes no program's log; nor does setuptools building a package (`python setup.py
install > build.log`, also `build`, `build_ext`, `develop`, `bdist_wheel`, `sdist` ...). pytest
(`python -m pytest`, or the program `coverage run -m pytest` runs) flushes each test's result as
it writes it, the tests' own prints captured and shown after them: its log does not lag.

What makes it unbuffered:
- `-u`; `srun -u`/`--pty`, `ssh -t`, `docker exec -t` or `kubectl exec -t` (a pseudo terminal,
  on which Python line-buffers); Open MPI's `mpirun`/`mpiexec`, known by an option only it has
  (`--allow-run-as-root`, `--oversubscribe`, `--mca`, `-x`, `-npernode`, `--report-bindings`,
  `--tag-output`), which starts each local rank with its stdout on a pseudo terminal (MPICH's
  and Intel MPI's hydra give pipes: a bare `mpirun -np 4 python t.py | tee log` is reported);
- `PYTHONUNBUFFERED` set to a value that is not empty: a prefix assignment, `export`, `env`, a
  wrapper's own option (`docker exec`/`run -e`, `tmux new -e`, `mpirun -x`, `srun --export`), a
  workflow's `env:`, a launch spec's environment (a dstack run's `env:`, a SkyPilot task's `envs:`),
  a file the script sources before it (`. ./path.sh` whose `export
  PYTHONUNBUFFERED=1`, also inside a function it defines; under `set -a` every name the file
  sets), `set -a` (allexport) before the assignment, an `export` in a function the script calls
  before the launch (one it never calls exports nothing);
- the script's callers: every script of the project that runs it starting it with the variable
  set (`export PYTHONUNBUFFERED=1`, then `bash train.sh`, or `sbatch job.sh`, whose job gets the
  submitting shell's variables unless `--export` leaves them out), or with what their own
  callers started them with, up the chain of scripts (four deep). A script no script runs is
  run by hand, with nothing set, and one that some caller runs without it is reported: that run
  buffers;
- SkyPilot, whose job script exports `PYTHONUNBUFFERED=1` before a task's `setup:` and `run:`
  (sky/skylet/log_lib.py, `make_task_bash_script`), then the task's `envs:`: an empty value there
  turns it off;
- Ray's job supervisor, which starts the program of `ray job submit -- CMD` with
  `PYTHONUNBUFFERED=1`, over what its runtime environment says
  (ray/dashboard/modules/job/job_supervisor.py, `_get_driver_env_vars`; since ray#21659, January
  2022);
- the trainer calling `sys.stdout.reconfigure(line_buffering=True)` itself (a script, a module of
  `python -m`, a package's `__main__.py`), or the top-level code of a project module it imports,
  directly or through others (`import logsetup`, which runs that call at the import; not a
  function such a module only defines, nor an import in a function's body);
- the trainer flushing its stdout by hand as it runs: `sys.stdout.flush()` or `print(...,
  flush=True)` in a loop of its own code (the progress line of its training loop, HFM's), whose
  author sees to the buffering where it matters; a flush outside any loop (once, at the end), or
  only in a helper module, is not that.

What this shell sets or exports does not reach a program on another host or in a container
(`PYTHONUNBUFFERED=1 ssh gpu1 'python ...'`, `docker exec`, `kubectl exec`), nor one `sudo` starts
(its `env_reset`; not with `-E`), a login shell `su - user -c` (`-l`, `--login`; not plain `su
user -c`) starts, `env -i` starts, `srun --export=NONE` or `sbatch --export=NONE --wrap CMD` (or a
list without `ALL`; sbatch's default is `ALL` too) or `apptainer exec --cleanenv` (`-e`,
`-C`/`--containall`; singularity's too) starts, unless given there (`--env K=V`, `--env-file`,
`APPTAINERENV_K`/`SINGULARITYENV_K` in this shell's environment). `env -u PYTHONUNBUFFERED`
(`--unset`) removes it for the command it runs; the other variables still reach it.

What a Ray job's program prints reaches a pipe or file after `ray job submit` through `ray`
itself: Ray's CLI, a Python program, prints the job's output as it comes with a plain `print`
(ray/dashboard/modules/job/cli.py, `_tail_logs`), so that log lags unless `ray` gets
PYTHONUNBUFFERED from this shell (`export`, a prefix, `env`; a runtime environment's `env_vars`
reach the job, not `ray`). It is reported at `ray`, with no fix (`-u` on the job's `python` would
change nothing). With `--no-wait`, `ray job submit` returns once the job is submitted and its
program writes to Ray's job log, not into this command's pipe or file: not reported, as a
program `sbatch --wrap` runs is not (its slurm-%j.out is the scheduler's log, not one this script
writes), nor one LSF's `bsub CMD` runs (its `-o` file, or mail; `bsub -I CMD`, an interactive job,
writes into this command's pipe, on a pseudo terminal with `-Ip` and `-Is`).

Nor is a program a Kaldi or ESPnet job runner runs (`run.pl [OPTIONS] [JOB=1:N] LOG CMD`, also
`queue.pl`, `slurm.pl`, `ssh.pl`, and `${train_cmd}`/`${cuda_cmd}`/`${decode_cmd}`, which a
recipe's cmd.sh sets to one of them): the runner writes CMD's output into LOG itself, between its
own header and `# Ended (code 0)` lines, and on most of its backends LOG is a scheduler's job log
(queue.pl's `qsub -o`, slurm.pl's `sbatch -o`) chosen by cmd.sh, not by the line. It is the
recipe's design, the same for every step (every ESPnet and ParallelWaveGAN recipe runs each of
its Python steps so, and logs through `logging`, on stderr), so it is read as a job's log, as
`sbatch --wrap`'s is. A pipe inside CMD (`python t.py \\| tee out.log`) is still reported.

Launchers:
- `torchrun`, `deepspeed` and `python -m torch.distributed.run`/`launch` are not reported: they
  start every worker as `python -u` (torch/distributed/run.py, deepspeed/launcher/launch.py), as
  does ATorch's `python -m atorch.distributed.launch` (MFTCoder's launcher). So is a program of the
  project that calls one of them as a function (`deepspeed.launcher.runner.main(args)`, gpt-neox's
  `deepy.py`; `torch.distributed.run.main`): the workers write the log.
- `accelerate launch` does too when it starts several processes (through torchrun or deepspeed),
  but one process goes through its simple launcher, which runs the program as `python` without
  `-u` (accelerate/commands/launch.py, `simple_launcher`). That launch is reported when the
  command line or the project's config file says it is one: `--cpu`, a `--config_file` whose
  `distributed_type` is `NO` or `MULTI_CPU`, or `--num_processes 1` with no config file named
  (the machine's own default config, outside the project, is not read). `--multi_gpu`,
  `--use_deepspeed`, `--use_fsdp`, `--use_megatron_lm` and `--tpu` start several; anything else
  (`accelerate launch train.py`, whose processes the machine's default config decides) is not
  reported.
- MindSpore's `msrun` is not reported: it writes each worker's output to a file of its own
  (`--log_dir`'s `worker_N.log`, and the scheduler's `scheduler.log`), not to the stdout the
  command's redirect or `| tee` holds, which gets msrun's own lines (and, with
  `--tail_worker_log`, lines it reads back from those files). Those files are msrun's to open:
  what the script redirects is not the workers' log.

Not logs, and not reported:
- a pipe into `grep` with no file behind it, `$(python ...)`, and result files (`> hosts.json`; a
  `.txt` that a word of its name calls a result: `result(s)`, `score(s)`, `metric(s)`, `accuracy`,
  `res`, `avg`, `mean(s)`, `stat(s)`, as in `eval_res/m/ifeval_res_result.txt`, `| tee res.txt`,
  `>> plots/NSL-KDD_5class_Avg.txt` (a table a number is appended to per call), or one in a directory
  of scores (`score(s)`, `metric(s)`, `accuracy`, `answer(s)`, `pred(s)`, `prediction(s)`: Bunny's
  `| tee scores/$MODEL.txt`; a `results/` directory holds logs as often); not `resultant.txt`,
  nor a name that calls it a log: `results.log`, `result_log.txt`; the logarithm of a quantity is
  no log: `log_probs.json`, `log_likelihood.csv`, `x_log_score_significance.txt`);
- the output of a filter: a program whose standard input is read from a file (`python g2p.py <
  words.txt > phones.txt`) or from the stage before it in a pipeline (`cut -f2 words.txt | python
  g2p.py > phones.txt`; not a program `xargs` or GNU `parallel` starts, which reads /dev/null, but
  one `parallel --pipe` starts): it writes data, not a log, whatever the file's name;
- a file the program writes with `>`, or through the filters of a pipeline (`python lister.py |
  head -n -2 | grep -o 'name_[a-z]*' > names.txt`), that the script then hands a Python program to
  read (`python conv.py raw > train.txt`, then `python train.py --data train.txt`; a program of the
  project run by its `#!` line too: icefall's `./shared/make_kn_lm.py -text transcript_tokens.txt`;
  as an option's value, `--data=train.txt`, or a Hydra override's: FunASR's
  `++tokenizer_conf.token_list=tokens.txt`, `+data.b=b.txt`, `data.c=c.txt`; `python gen.py >
  deps.txt`, then `pip install -r deps.txt`, or `pip3`, `uv pip`, `pip-audit`, `python -m pip`;
  `uv --quiet pip`, uv's global options before `pip`; also round a loop, by a path its variable
  makes: `for f in c d; do pip-audit -r "reqs/$f.txt"; done`): a dataset. So is a file another command of
  the script reads, as an argument or on stdin, into a file it makes with no `tee` on the way (a
  data chain: `cat a.txt b.txt | cut -d' ' -f2 | sort -u > labels.txt`), or copies (wenet's
  `cp $unit_file data/local/dict/units.txt`; not the file `cp` copies to). A file nothing reads so
  is a log, whatever it holds: one only a shell script is given (`./local/score.sh words.txt`), or
  an override names as its key (`data/test.txt=1`). Neither when the file's
  name calls it a log (`.log`, `.out`, `.err`, `.stdout`, `.stderr`, `.nohup`, the word `log`, or the split
  below) or the program's stderr goes there too (`2>&1`): `tail -n 5 train.log > last.txt` keeps a
  summary of a log, and `python train.py >> exp/train.log 2>&1`, then `python parse_results.py --input
  exp/train.log` (FederatedScope), parses one. A file a command only shows
  (`cat a.txt`, `tail -f a.txt`, `| tee`) is not.

A program's stdout and stderr kept apart, in two files of one directory whose names differ only
by the word for the stream (`out`/`err`, `stdout`/`stderr`: `> outs/my_out_$i 2> outs/my_err_$i`),
are its logs, whatever else their names say; names that differ by more (`a_out`, `b_err`) are not.

A `| tee` is watched as it grows: a log even when a checker reads it after (`python train.py |
tee out.txt; python check.py --output_file=out.txt`), also behind a filter (`python train.py |
grep -v Warn | tee out.txt`). `< /dev/null`, which detached jobs use, is
no input and leaves the program a job like any other. A file not known is named as written:
`> $LOG_FILE` is a log whether LOG_FILE is never set or is the script's argument
(`LOG_FILE=$1`), unless its value has a name of its own (`LOG_FILE=$DIR/scores.json`, a result);
a file named by nothing but a variable whose name says nothing (`| tee $FOO`, FOO never set) is
not taken for a log.

## Fix safety
Safe: the fix adds `-u` right after the interpreter of a plain `python`/`python3` command; `-u`
only changes when output is flushed. It is not offered when the interpreter comes from a
variable (`$PYTHON`), since the text there is not the word to change. No fix is offered for
`accelerate launch`, which has no `-u`: a `PYTHONUNBUFFERED=1` prefix would break it behind a
wrapper (`nohup PYTHONUNBUFFERED=1 accelerate ...` runs a command of that name).

## References
- Python command line, `-u` and `PYTHONUNBUFFERED`: "Force the stdout and stderr streams to be
  unbuffered."
- `io.TextIOWrapper.reconfigure(line_buffering=True)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from launchlint.discover import shebang_words
from launchlint.fixes import source, span
from launchlint.graph import EXPANSION, TOOL_MODULES, PythonRun, coverage_subcommand, python_run, runs_setuptools
from launchlint.launches import launch_of, runs_python_program, simple_launch, sourced_before, started_with
from launchlint.logs import downstream, file_name, files_written, is_log_capture, named_log, split_logs
from launchlint.model import Edit, Finding, Fix, Related, Severity
from launchlint.paths import normal
from launchlint.pyfacts import MODULE_SCOPE
from launchlint.rulekit import Example
from launchlint.shellfacts import FILE, INHERIT, PIPE, SUBMITTED, Command, Word

CODE = "LL106"
NAME = "python-output-buffered"
SEVERITY = Severity.WARNING
SUMMARY = "Python writes its stdout into a log without -u or PYTHONUNBUFFERED"

UNBUFFERED = "PYTHONUNBUFFERED"
# `python -m` launchers that start their workers with `python -u` themselves.
UNBUFFERED_LAUNCHERS = {
    "torch.distributed.run", "torch.distributed.launch", "deepspeed.launcher.runner",
    "deepspeed.launcher.launch", "atorch.distributed.launch",
}  # fmt: skip
RECONFIGURE = "sys.stdout.reconfigure"
FLUSH = "sys.stdout.flush"
# Modules run as tools, whose output is no program's log: the package managers (`python -m pip
# install` is `pip install`, not reported by that name either) and the makers of environments.
TOOL_RUNS = (TOOL_MODULES - {"coverage"}) | {"venv", "ensurepip", "virtualenv"}
# Modules that flush what they print as they go: pytest's reporter writes each test's result and
# flushes it (the tests' own prints are captured and shown after them).
FLUSHING_MODULES = {"pytest"}

INVALID = [
    Example(  # an `mpirun` with no option only Open MPI has may be hydra's (MPICH, Intel MPI): its ranks write into pipes
        {
            "run.sh": "#!/bin/bash\nset -o pipefail\nmpirun -np 8 python3 train.py 2>&1 | tee run.log\n",
            "train.py": "print(1)\n",
        },
        ["LL106 run.sh:3"],
    ),
    Example(  # the interpreter `which` finds, in the word or through a variable
        {"x.py": "print(1)\n", "run.sh": "#!/bin/bash\n$(which python) x.py > log.txt 2>&1\nPY=$(which python3)\n$PY x.py | tee a.log\n"},
        ["LL106 run.sh:2", "LL106 run.sh:4"],
    ),
    Example(  # a console script of the project's packages runs in Python: its log buffers too
        {
            "pyproject.toml": "[project]\nname = 'fq'\n\n[project.scripts]\nfq-train = 'fq.train:main'\n",
            "fq/train.py": "def main():\n    print('step')\n",
            "run.sh": "#!/bin/bash\nnohup fq-train > train.log 2>&1 &\nPYTHONUNBUFFERED=1 fq-train > ok.log\nfq-other > other.log\n",
        },
        ["LL106 run.sh:2"],
    ),
    Example(  # a trainer that flushes once, after its loop, not as it prints; only in a helper module; or only another file
        {
            "train.py": (
                "import sys\nimport log\n\n\ndef train(loader):\n    for batch in loader:\n        print('loss', batch)\n"
                "        log.step(batch)\n    sys.stdout.flush()\n"
            ),
            "log.py": "def step(batch):\n    for each in batch:\n        print(each, flush=True)\n",
            "tofile.py": "f = open('x.txt', 'w')\nfor i in range(9):\n    print(i)\n    print(i, file=f, flush=True)\n",
            "once.py": "import sys\n\n\ndef done():\n    print('result')\n    sys.stdout.flush()\n\n\nfor i in range(9):\n    print(i)\ndone()\n",
            "run.sh": "python train.py > train.log\npython once.py > once.log\npython tofile.py > tofile.log\n",
        },
        ["LL106 run.sh:1", "LL106 run.sh:2", "LL106 run.sh:3"],
    ),
    Example(  # a Python file run by its `#!` line (funcwj's conv-tasnet `./train.py > log`); not one whose `#!` line passes -u
        {
            "run.sh": "#!/bin/bash\n./train.py > train.log 2>&1\n./fast.py > fast.log\n",
            "train.py": "#!/usr/bin/env python\nprint(1)\n",
            "fast.py": "#!/usr/bin/env -S python3 -u\nprint(1)\n",
        },
        ["LL106 run.sh:2"],
    ),
    Example(  # a program under a debugger prints into the log as late as without one (code-act's DEBUG_MODE branch)
        {"debug.sh": "#!/bin/bash\npython -m pdb -c continue train.py 2>&1 | tee debug.log\n", "train.py": "print(1)\n"},
        ["LL106 debug.sh:2"],
    ),
    Example(  # an interactive LSF job (`bsub -I`, no pseudo terminal) writes into this command's pipe
        {"submit.sh": "#!/bin/bash\nset -o pipefail\nbsub -I -n 1 python train.py | tee run.log\n", "train.py": "print(1)\n"},
        ["LL106 submit.sh:3"],
    ),
    Example(  # a detached job's output kept in a `.nohup` file, in place of nohup.out (xLAM's critic jobs)
        {"run.sh": "#!/bin/bash\nmkdir -p nohup_files\nnohup python t.py > nohup_files/webshop.nohup 2>&1 &\n", "t.py": "print(1)\n"},
        ["LL106 run.sh:3"],
    ),
    Example(  # a job's streams kept in `.stdout` and `.stderr` files (msr-fiddle's varuna)
        {"run.sh": "#!/bin/bash\npython3 train.py > train.stdout 2> train.stderr &\nwait\n", "train.py": "print(1)\n"},
        ["LL106 run.sh:2"],
    ),
    Example(  # stdout and stderr kept apart in two files named alike but for the stream's word (varuna's
        # `my_ssh_out_$i`/`my_ssh_err_$i`), a log also when a later command keeps its tail
        {
            "run.sh": (
                "#!/bin/bash\nfor i in 1 2; do\n  python3 train.py > outs/my_out_$i 2> outs/my_err_$i &\ndone\nwait\n"
                "python3 train.py > outs/stdout_9 2> outs/stderr_9\ntail -n 5 outs/stdout_9 > last.txt\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL106 run.sh:3", "LL106 run.sh:6"],
    ),
    Example(  # a `.txt` a word of whose name (not its letters) calls it a result; a `.log` always a log
        {
            "eval.sh": (
                "python3 eval.py > eval_res/m/ifeval_res_result.txt\npython3 eval.py > scores.txt\n"
                "python3 eval.py > resultant.txt\npython3 eval.py > results.log\n"
                "python evaler.py $RECORD >> answers.txt\npython predict.py > preds.txt\npython predict.py > predator.txt\n"
                "python convert.py | tee eval/scores/$MODEL.txt\npython convert.py | tee eval/scorers/$MODEL.txt\n"
            )
        },
        ["LL106 eval.sh:3", "LL106 eval.sh:4", "LL106 eval.sh:7", "LL106 eval.sh:9"],
    ),
    Example(  # HPE Cray PALS's mpiexec (Polaris, Aurora): `--cpu-bind` and `-d` take a value, `--env` one `K=V`
        {
            "train.py": "print('step')\n",
            "submit.sh": (
                "#!/bin/bash\nmpiexec -n 8 --ppn 4 --depth=16 --cpu-bind depth python train.py |& tee -a run.log\n"
                "mpiexec -n 24 -ppn 12 --cpu-bind depth -d 8 --env OMP_NUM_THREADS=8 python3 train.py > run2.log 2>&1\n"
            ),
        },
        ["LL106 submit.sh:2", "LL106 submit.sh:3"],
    ),
    Example(  # the HPC launchers pass their tasks' output on: `aprun`, `flux run`
        {
            "train.py": "print('step')\n",
            "run.sh": "#!/bin/bash\naprun -n 8 -N 4 -cc depth -d 8 python train.py > train.log\nflux run -N 2 -n 8 python train.py | tee flux.log\n",
        },
        ["LL106 run.sh:2", "LL106 run.sh:3"],
    ),
    Example(  # a command partly unknown, run by `nohup`: split as written, as it would be first on the line
        {"run.sh": 'CMD="python train.py --lr $1"\nnohup $CMD > train.log 2>&1 &\n'},
        ["LL106 run.sh:2"],
    ),
    Example(  # a line of two assignments sets shell variables, exported to nothing (tree-sitter-bash took them for the next command's)
        {"train.py": "print('step')\n", "run.sh": "#!/bin/bash\nPYTHONUNBUFFERED=1 WORLD=8\n\npython train.py > train.log\n"},
        ["LL106 run.sh:4"],
    ),
    Example(  # the same with a comment ending the line, after a tab
        {"train.py": "print('step')\n", "run.sh": "#!/bin/bash\nPYTHONUNBUFFERED=1 WORLD=8\t# one node\npython train.py > train.log\n"},
        ["LL106 run.sh:3"],
    ),
    Example(  # set, but empty: Python ignores it; an empty prefix hides an exported 1
        {
            "run.sh": "#!/bin/bash\nexport PYTHONUNBUFFERED=\npython train.py | tee a.log\nPYTHONUNBUFFERED= python train.py > b.log\n",
            "b.sh": "PYTHONUNBUFFERED= python train.py > b.log\nexport PYTHONUNBUFFERED=1\nPYTHONUNBUFFERED= python e.py > e.log\n",
        },
        ["LL106 b.sh:1", "LL106 b.sh:3", "LL106 run.sh:3", "LL106 run.sh:4"],
    ),
    Example(  # after a four-stage pipeline into a file, which tree-sitter-bash reads on past its line
        # (what it makes of gen.log does not make data of a file named a log)
        {
            "gen.sh": (
                "#!/bin/bash\nif [ \"$1\" = big ]; then\n  python gen.py --beam 5 2>&1 > gen.log\n"
                "  grep ^H gen.log | cut -f2 | sort -n | cut -f3 > hyp.txt\nelse\n  python gen.py --beam 4 2>&1 > gen.log\n"
                "  grep ^H gen.log | cut -f2 | sort -n | cut -f3 > hyp.txt\nfi\n"
            )
        },
        ["LL106 gen.sh:3", "LL106 gen.sh:6"],
    ),
    Example(  # the string `eval` runs writes into eval's pipe
        {"run.sh": 'cmd="python train.py --epochs 3"\neval "$cmd" | tee run.log\n'},
        ["LL106 run.sh:2"],
    ),
    Example(  # a log a checker reads after the run is still a log: `tee` shows it as it grows, behind a filter too
        {
            "e2e.sh": (
                "python3 main_trainer.py | tee out.txt\npython3 check_results.py --output_file=out.txt\n"
                "python3 main_trainer.py | grep -v Warn | tee b.txt > /dev/null\npython3 check_results.py --output_file=b.txt\n"
            )
        },
        ["LL106 e2e.sh:1", "LL106 e2e.sh:3"],
    ),
    Example(  # a file a later command only shows, or summarises into a file when its name calls it a log
        {
            "prep.sh": (
                "#!/bin/bash\npython3 conv.py a.raw > a.txt\ncat a.txt\npython3 conv.py b.raw > b.txt\n"
                "grep -v '^#' b.txt | tee b.clean\npython3 train.py > train.log\ntail -n 5 train.log > last.txt\n"
                "python3 conv.py c.raw > c.txt\ngrep -q ERROR c.txt > /dev/null\n"
            )
        },
        ["LL106 prep.sh:2", "LL106 prep.sh:4", "LL106 prep.sh:6", "LL106 prep.sh:8"],
    ),
    Example(  # a log a later program parses is a log still: its name says so, or the program's stderr goes there too
        {
            "hpo.sh": (
                "#!/bin/bash\nfor seed in 1 2 3; do\n  python train.py --seed $seed >> exp/train.log 2>&1\ndone\n"
                "python parse_results.py --input exp/train.log\npython eval.py > exp/eval.txt 2>&1\n"
                "python parse_results.py --input exp/eval.txt\n"
            )
        },
        ["LL106 hpo.sh:3", "LL106 hpo.sh:6"],
    ),
    Example(  # a function called into a log; a group whose first command is not the program
        {
            "run.sh": (
                "#!/bin/bash\ntrain() {\n  python train.py\n}\ntrain > train.log 2>&1\n"
                "{ cd eval; python eval.py; } | tee eval.log\n"
            ),
        },
        ["LL106 run.sh:3", "LL106 run.sh:6"],
    ),
    Example(  # a function called by a name made at run time, into its caller's pipe: at each of five calls
        {
            "ci.sh": (
                '#!/bin/bash\nrun() {\n    set -o pipefail\n    job_$1 | tee "$1.log"\n    set +o pipefail\n}\n'
                "job_a() { python3 conv.py a; }\njob_b() { python3 conv.py b; }\njob_c() { python3 conv.py c; }\n"
                "job_d() { python3 conv.py d; }\njob_e() { python3 conv.py e; }\nrun a\nrun b\nrun c\nrun d\nrun e\n"
            ),
            "conv.py": "print(1)\n",
        },
        ["LL106 ci.sh:7", "LL106 ci.sh:8", "LL106 ci.sh:9", "LL106 ci.sh:10", "LL106 ci.sh:11"],
    ),
    Example(  # a program on standard input, from a heredoc whose line goes on into the pipe
        {"ci.sh": "#!/bin/bash\nset -o pipefail\npython - <<'PY' |& tee audit.log\nprint('audit')\nPY\n"},
        ["LL106 ci.sh:3"],
    ),
    Example(  # the same, the heredoc's command redirected before the pipe, and a shell's heredoc
        {
            "ci.sh": (
                "#!/bin/bash\nset -o pipefail\npython - <<'PY' 2>&1 | tee audit.log\nprint('audit')\nPY\n"
                "bash <<EOF 2>&1 | tee run.log\npython train.py\nEOF\n"
            )
        },
        ["LL106 ci.sh:3", "LL106 ci.sh:7"],
    ),
    Example(  # a shell run by `stdbuf`, whose `-oL` reaches C's stdio, not Python's own buffer
        {"host.sh": '#!/bin/bash\nset -o pipefail\nstdbuf -oL bash <<EOF 2>&1 | tee runlog\npython3 train.py\nEOF\n'},
        ["LL106 host.sh:4"],
    ),
    Example({"run.sh": "#!/bin/bash\npython train.py --lr 3e-4 2>&1 | tee train.log\n"}, ["LL106 run.sh:2"]),
    Example(  # the line after a pipeline (tree-sitter-bash took it for the last stage's arguments)
        {"prep.sh": "cut -d' ' -f1 data/text | sort | uniq -c\npython train.py > train.log\n"},
        ["LL106 prep.sh:2"],
    ),
    Example(  # a log whose directory is not known here
        {"run.sh": 'OUTFILE="/tmp/${RUN}/train.log"\npython3 train.py 2>&1 | tee -a "$OUTFILE"\n'},
        ["LL106 run.sh:2"],
    ),
    Example(  # set again in an `if`: its new value for the rest of the arm (after the `fi`, either: not known)
        {
            "train.py": "print('step')\n",
            "run.sh": (
                '#!/bin/bash\ncmd="python train.py > a.log"\nif [ -n "$FAST" ]; then\n  cmd="python train.py --fast > b.log"\n'
                "  eval $cmd\nfi\neval $cmd\n"
            ),
        },
        ["LL106 run.sh:5"],
    ),
    Example(  # an empty dry-run switch: `${cmd}` splits into no word, and python3 runs
        {"run.sh": "cmd=''\nif [ \"$1\" = dry ]; then cmd=echo; fi\n${cmd} python3 infer.py > infer.log 2>&1\n"},
        ["LL106 run.sh:3"],
    ),
    Example(  # the script's `exec >`; a continued command is reported at its interpreter
        {"job.sh": "exec > /logs/job.log 2>&1\nsrun python3 train.py \\\n  --lr 3e-4\n"},
        ["LL106 job.sh:2"],
    ),
    Example(  # the launcher pipes the whole script
        {
            "launch.sh": "bash run.sh 2>&1 | tee logs/run.log\n",
            "run.sh": "cd /work\npython -m trainer.main --epochs 3\n",
        },
        ["LL106 run.sh:2"],
    ),
    Example(  # nested strings, and a filter in front of the file
        {
            "deploy.sh": (
                "ssh gpu1 'cd /w && python train.py > train.log 2>&1'\n"
                'tmux new-session -d -s job "python train.py 2>&1 | grep -v Warn > run.log"\n'
                "nohup bash -c 'python eval.py >> eval.log' &\n"
            )
        },
        ["LL106 deploy.sh:1", "LL106 deploy.sh:2", "LL106 deploy.sh:3"],
    ),
    Example(  # input from /dev/null is no input: still a job whose output is a log
        {"run.sh": "nohup python train.py < /dev/null > train.log 2>&1 &\n"}, ["LL106 run.sh:1"]
    ),
    Example(  # a sourced file that sets it without exporting it: the program does not get it
        {"run.sh": "source ./env.sh\npython train.py > train.log\n", "env.sh": "PYTHONUNBUFFERED=1\n"},
        ["LL106 run.sh:2"],
    ),
    Example(  # a workflow step: its `run:` is shell, its `env:` has no PYTHONUNBUFFERED
        {
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - env:\n          WANDB_MODE: offline\n        shell: bash\n"
                "        run: |\n          python train.py --steps 10 > smoke.log 2>&1\n"
            )
        },
        ["LL106 .github/workflows/ci.yml:10"],
    ),
    Example(  # a SkyPilot task's `envs:` that empties it (exported after SkyPilot's 1), and its `setup:`'s
        # own pipeline; a document with a key no SkyPilot task has is no task, its `envs:` nothing
        {
            "sky.yaml": (
                "envs:\n  PYTHONUNBUFFERED: ''\nsetup: |\n  python prepare.py | tee prep.log\n"
                "run: |\n  python train.py > train.log\n"
            ),
            "other.yaml": "envs:\n  PYTHONUNBUFFERED: 1\nimage: pytorch\nrun: |\n  python train.py > train.log\n",
        },
        ["LL106 sky.yaml:4", "LL106 sky.yaml:6", "LL106 other.yaml:5"],
    ),
    Example(  # a dstack task's `env:` without it; a `type:` that runs nothing has no environment for commands
        {
            ".dstack.yml": "type: task\nenv:\n  - NCCL_DEBUG=INFO\ncommands:\n  - python train.py > train.log\n",
            "fleet.dstack.yml": "type: fleet\nenv:\n  - PYTHONUNBUFFERED=1\ncommands:\n  - python train.py > train.log\n",
        },
        ["LL106 .dstack.yml:5", "LL106 fleet.dstack.yml:5"],
    ),
    Example(  # a CircleCI executor's environment that does not set it, named by a mapping; an orb's
        {
            ".circleci/config.yml": (
                "version: 2.1\nexecutors:\n  cpu:\n    docker:\n      - image: cimg/python:3.11\n    environment:\n"
                "      WANDB_MODE: offline\njobs:\n  a:\n    executor:\n      name: cpu\n    steps:\n"
                "      - run: python train.py | tee a.log\n  b:\n    executor: python/default\n"
                "    steps:\n      - run: python eval.py | tee b.log\n"
            )
        },
        ["LL106 .circleci/config.yml:13", "LL106 .circleci/config.yml:17"],
    ),
    Example(  # `ray job submit` prints its job's output block-buffered, whatever the runtime environment
        # gives the job (its working_dir unknown, its JSON not known here, PYTHONUNBUFFERED set: the
        # job's, not `ray`'s); reported at `ray`, not at the job's program
        {
            "submit.sh": (
                "ray job submit --runtime-env-json='{\"env_vars\": {\"A\": \"1\"}}' -- python a.py | tee a.log\n"
                "ray job submit --runtime-env-json='{\"working_dir\": \"'${WD}'\", \"env_vars\": {\"A\": \"'$A'\"}}' "
                "-- python b.py | tee b.log\n"
                "ray job submit --runtime-env-json='{\"env_vars\": {\"PYTHONUNBUFFERED\": \"1\"}}' -- python c.py | tee c.log\n"
                'ray job submit --runtime-env-json="$ENV_JSON" -- python d.py | tee d.log\n'
                "ray job submit --address=http://127.0.0.1:8265 \\\n  -- python3 -m pkg.main x=1 2>&1 | tee e.log\n"
            )
        },
        ["LL106 submit.sh:1", "LL106 submit.sh:2", "LL106 submit.sh:3", "LL106 submit.sh:4", "LL106 submit.sh:5"],
    ),
    Example(  # a module the trainer imports only defines a function that would line-buffer; an import in a function not run at start
        {
            "run.sh": "#!/bin/bash\npython train.py > train.log\npython train2.py > train2.log\n",
            "quiet.py": "import sys\n\ndef setup():\n    sys.stdout.reconfigure(line_buffering=True)\n",
            "logsetup.py": "import sys\n\nsys.stdout.reconfigure(line_buffering=True)\n",
            "train.py": "import quiet\nprint('step 1')\n",
            "train2.py": "def main():\n    import logsetup\n\nprint('step 1')\n",
        },
        ["LL106 run.sh:2", "LL106 run.sh:3"],
    ),
    Example(  # uv runs a script or a module with python, also after its global options
        {
            "run.sh": "uv run tools/prep.py > prep.log\nuv run -m tools.prep | tee prep2.log\nuv --quiet run tools/prep.py > prep3.log\n",
            "tools/prep.py": "",
        },
        ["LL106 run.sh:1", "LL106 run.sh:2", "LL106 run.sh:3"],
    ),
    Example(  # accelerate's simple launcher: one process, run as `python` without -u
        {
            "run.sh": (
                "accelerate launch --cpu train.py > cpu.log 2>&1\n"
                "accelerate launch --num_processes=1 train.py | tee one.log\n"
                "accelerate launch --config_file acc.yaml train.py | tee acc.log\n"
            ),
            "acc.yaml": "compute_environment: LOCAL_MACHINE\ndistributed_type: 'NO'\nnum_processes: 1\n",
        },
        ["LL106 run.sh:1", "LL106 run.sh:2", "LL106 run.sh:3"],
    ),
    Example(  # `coverage run` runs the program in Python, without -u (not its report)
        {
            "test.sh": (
                "coverage run -a --source=pkg tests/smoke.py 2>&1 | tee smoke.log\ncoverage report > cov.log\n"
                "python -m coverage run -m unittest discover | tee tests.log\npython3 -m coverage report | tee cov.log\n"
            )
        },
        ["LL106 test.sh:1", "LL106 test.sh:3"],
    ),
    Example(  # a trainer run as a module, among tools run as modules (a package manager, a maker of venvs)
        {
            "setup.sh": (
                "#!/bin/bash\ninstall() {\n  python3.12 -m venv /opt/venv\n  /opt/venv/bin/python3 -m pip install -U pip uv\n}\n"
                "install >> setup.log 2>&1\npython3 -m pip install torch >> setup.log 2>&1\n"
                "python3 -m ensurepip --upgrade > pip.log\npython -m uv pip install -e . | tee uv.log\n"
                "python -m mypkg.train --lr 1 >> train.log 2>&1\n"
            )
        },
        ["LL106 setup.sh:10"],
    ),
    Example(  # srun writes its tasks' output into the file `-o`/`--output` names
        {
            "job.sh": (
                "#!/bin/bash\nsrun -N 1 -e err.log python3 eval.py\nsrun -N 1 -o run-%j.log python3 train.py\n"
                'srun --output=eval.log bash -c "python3 eval.py"\n'
            )
        },
        ["LL106 job.sh:3", "LL106 job.sh:4"],
    ),
    Example(  # the export is in a function nobody calls: it never happens
        {"run.sh": "#!/bin/bash\nunbuffered() { export PYTHONUNBUFFERED=1; }\npython train.py | tee run.log\n"},
        ["LL106 run.sh:3"],
    ),
    Example(  # set, but not exported: `set +a` came first, and a sourced file's names without `set -a`
        {
            "a.sh": "#!/bin/bash\nset -a\nset +a\nPYTHONUNBUFFERED=1\npython train.py | tee a.log\n",
            "b.sh": "#!/bin/bash\nsource .env\npython train.py | tee b.log\n",
            ".env": "PYTHONUNBUFFERED=1\n",
        },
        ["LL106 a.sh:5", "LL106 b.sh:3"],
    ),
    Example(  # `env -i` and POSIX's `env -` start the program with only the variables they name
        {"clean.sh": "#!/bin/bash\nexport PYTHONUNBUFFERED=1\nenv - PATH=/usr/bin python3 t.py > a.log\nenv -i python3 t.py > b.log\n"},
        ["LL106 clean.sh:3", "LL106 clean.sh:4"],
    ),
    Example(  # `env -u NAME` (`--unset`) removes NAME for the command it runs, also for a shell it starts
        {
            "unset.sh": (
                "#!/bin/bash\nexport PYTHONUNBUFFERED=1\nenv -u PYTHONUNBUFFERED python3 t.py > a.log\n"
                "env --unset=PYTHONUNBUFFERED bash -c 'python3 t.py > b.log'\n"
            )
        },
        ["LL106 unset.sh:3", "LL106 unset.sh:4"],
    ),
    Example(  # `apptainer exec --cleanenv` (`-e`, `--containall`) starts the program without them, as `shifter -E` does
        {
            "box.sh": (
                "#!/bin/bash\nexport PYTHONUNBUFFERED=1\napptainer exec --cleanenv img.sif python3 t.py > a.log\n"
                "singularity exec -e img.sif bash -c 'python3 t.py > b.log'\n"
                "apptainer exec --containall --env WANDB_MODE=offline img.sif python3 t.py > c.log\n"
                "shifter -E python3 t.py > d.log\nshifter --image=img python3 t.py > e.log\n"
            )
        },
        ["LL106 box.sh:3", "LL106 box.sh:4", "LL106 box.sh:5", "LL106 box.sh:6"],
    ),
    Example(  # `su - user -c` (`-l`, `--login`) runs the string in a login shell, its environment cleared
        {
            "as.sh": (
                '#!/bin/bash\nexport PYTHONUNBUFFERED=1\nsu - bob -c "python3 /w/t.py > /w/a.log"\n'
                'su -l bob -c "python3 /w/t.py > /w/b.log"\nsu --login -c "python3 /w/t.py > /w/c.log" bob\n'
            )
        },
        ["LL106 as.sh:3", "LL106 as.sh:4", "LL106 as.sh:5"],
    ),
    Example(  # keys sent to a tmux pane run at an Enter: a later send-keys to that pane sends it too
        {
            "keys.sh": (
                "tmux send-keys -t a 'python /w/a.py | tee /w/a.log' \\; send-keys Enter\n"
                "tmux send-keys -t b 'cd /w' Enter 'python b.py | tee b.log' C-m Enter\n"
                "tmux send-keys -t c 'python /w/c.py | tee /w/c.log'\nsleep 1\ntmux send-keys -t c C-m\n"
            )
        },
        ["LL106 keys.sh:1", "LL106 keys.sh:2", "LL106 keys.sh:3"],
    ),
    Example(  # `srun --export=NONE` starts the tasks without this shell's variables
        {"job.sh": "#!/bin/bash\nexport PYTHONUNBUFFERED=1\nsrun --export=NONE python3 train.py > train.log\n"},
        ["LL106 job.sh:3"],
    ),
    Example(  # so does `sbatch --export=NONE` (or a list without `ALL`) its `--wrap` job
        {
            "submit.sh": (
                '#!/bin/bash\nexport PYTHONUNBUFFERED=1\nsbatch --export=NONE --wrap "python3 train.py > a.log"\n'
                'sbatch --export=HOME,WANDB_MODE=offline --wrap="python3 train.py > b.log"\n'
            )
        },
        ["LL106 submit.sh:3", "LL106 submit.sh:4"],
    ),
    Example(  # xargs reads the pipe: the programs it starts read /dev/null, no filters; GNU parallel's too
        {
            "shards.sh": (
                "#!/bin/bash\nseq 3 | xargs -I{} sh -c 'python prep.py --shard {} > /w/prep_{}.log'\n"
                "seq 3 | parallel -j 3 \"python prep.py --shard {} > /w/prep_{}.log\"\n"
            ),
        },
        ["LL106 shards.sh:2", "LL106 shards.sh:3"],
    ),
    Example(  # a command kept in an array, run as `"${cmd[@]}"`: the finding is where `python` is written
        {"run.sh": "#!/bin/bash\ncmd=(python train.py --steps 10)\n\"${cmd[@]}\" > /w/t.log\n"},
        ["LL106 run.sh:2"],
    ),
    Example(  # the environment stops at a host or a container: ssh's and docker's own, sudo's reset
        {
            "remote.sh": (
                "#!/bin/bash\nPYTHONUNBUFFERED=1 ssh gpu1 'python /w/train.py > /w/t.log'\n"
                "export PYTHONUNBUFFERED=1\ndocker exec c1 bash -c 'python /w/eval.py > /w/e.log'\n"
                "sudo python3 /w/prep.py > prep.log\nsudo -E python3 /w/prep.py > prep2.log\n"
            )
        },
        ["LL106 remote.sh:2", "LL106 remote.sh:4", "LL106 remote.sh:5"],
    ),
    Example(  # a command an `if` appends to after the space that ends it is still that command
        {
            "train.py": "print('step')\n",
            "run.sh": '#!/bin/bash\nCMD="python train.py --seed 1 "\nif [ "$1" = train ]; then\n  CMD+="--do_train "\nfi\n$CMD > out/train.log\n',
        },
        ["LL106 run.sh:6"],
    ),
    Example(  # a log named by its variable, set to the script's argument: as if it were never set (OpenMatch's train.sh)
        {
            "train.py": "print('step')\n",
            "run.sh": (
                '#!/bin/bash\nLOG_FILE=$1\nOUT_LOG="$7"\npython train.py > $LOG_FILE\n'
                'python train.py &> "${OUT_LOG}" &\npython train.py | tee "$LOG_FILE"\n'
            ),
            "inner.sh": "python train.py\n",
            "outer.sh": 'RUN_LOG=${2}\nbash inner.sh > "$RUN_LOG" 2>&1\n',
        },
        ["LL106 inner.sh:1", "LL106 run.sh:4", "LL106 run.sh:5", "LL106 run.sh:6"],
    ),
    Example(  # an array an if's arms set differently: the python job they agree on is at `"${cmd[@]}"`, not in an arm
        {
            "train.py": "print('step')\n",
            "run.sh": (
                '#!/bin/bash\nif [ -n "$SLURM_JOB_ID" ]; then cmd=(srun python train.py); else cmd=(python train.py --debug); fi\n'
                '"${cmd[@]}" > out/train.log\n'
            ),
        },
        ["LL106 run.sh:3"],
    ),
    Example(  # the script's callers do not all give it PYTHONUNBUFFERED: run by hand (no caller), by
        # one caller without it, through `ssh` or as a job submitted without this shell's variables
        {
            "t.py": "print(1)\n",
            "hand.sh": "#!/bin/bash\nnohup python t.py > hand.log 2>&1 &\n",
            "a.sh": "#!/bin/bash\npython t.py > a.log\n",
            "b.sh": "#!/bin/bash\npython t.py > b.log\n",
            "c.sh": "#!/bin/bash\npython t.py > c.log\n",
            "run.sh": (
                "#!/bin/bash\nexport PYTHONUNBUFFERED=1\nbash a.sh\nssh gpu1 bash /w/b.sh\nsbatch --export=NONE c.sh\n"
            ),
            "eval.sh": "#!/bin/bash\nbash a.sh\n",
        },
        ["LL106 a.sh:2", "LL106 b.sh:2", "LL106 c.sh:2", "LL106 hand.sh:2"],
    ),
    Example(  # a pipe into tee inside a job runner's command (`\\|`, a pipe to its shell) is the program's own
        {"run.sh": "#!/bin/bash\nutils/run.pl exp/log/t.log python3 train.py \\| tee exp/train.out\n", "train.py": "print(1)\n"},
        ["LL106 run.sh:2"],
    ),
    Example(  # a file nothing hands a Python program, copies or reads into a file: a shell script is given it,
        # `cp` copies another file over it, an override names another file (and `data/test.txt=1` is a key's)
        {
            "tok.py": "#!/usr/bin/env python3\nprint('a b')\n",
            "local/score.sh": "#!/bin/bash\nwc -l $1\n",
            "prep.sh": (
                "#!/bin/bash\nset -o pipefail\n./tok.py data/text > data/words.txt\n./local/score.sh data/words.txt\n"
                "python3 tok.py data/dev > data/dev.txt\ncp -r exp/dict data/dev.txt\n"
                "python3 tok.py data/test | sort -u > data/test.txt\npython3 train.py ++data.test=data/other.txt data/test.txt=1\n"
            ),
        },
        ["LL106 prep.sh:3", "LL106 prep.sh:5", "LL106 prep.sh:7"],
    ),
]

VALID = [
    Example(  # a data file handed to a Python program run by its `#!` line (icefall's prepare_lm.sh)
        {
            "local/convert_transcript_words_to_tokens.py": "#!/usr/bin/env python3\nprint('a b')\n",
            "shared/make_kn_lm.py": "#!/usr/bin/env python3\nimport sys\nprint(sys.argv)\n",
            "prepare_lm.sh": (
                "#!/bin/bash\nlang_dir=data/lang_bpe_500\n"
                "./local/convert_transcript_words_to_tokens.py --lexicon $lang_dir/lexicon.txt > $lang_dir/transcript_tokens.txt\n"
                "./shared/make_kn_lm.py -ngram-order 2 -text $lang_dir/transcript_tokens.txt -lm data/lm/P.arpa\n"
            ),
        }
    ),
    Example(  # a vocabulary copied on (wenet's aishell2 recipe: `cp $unit_file data/local/dict/units.txt`)
        {
            "tools/text2token.py": "#!/usr/bin/env python3\nprint('a')\n",
            "run.sh": (
                "#!/bin/bash\nset -o pipefail\ndict=data/dict/lang_char.txt\n"
                "tools/text2token.py -s 1 -n 1 data/train/text | sort | uniq >> ${dict}\n"
                "unit_file=$dict\ncp $unit_file data/local/dict/units.txt\n"
            ),
        }
    ),
    Example(  # a token list handed to a Python program by a Hydra override (FunASR's aishell recipes), `+k=` and `k=` too
        {
            "run.sh": (
                "#!/bin/bash\nset -o pipefail\ntoken_list=data/zh_token_list/char/tokens.txt\n"
                "python utils/text2token.py -n 1 data/train/text | sort | uniq >> ${token_list}\n"
                'python train.py ++tokenizer_conf.token_list="${token_list}" ++output_dir=exp\n'
                "python gen.py > data/b.txt\npython train.py +data.b=data/b.txt\n"
                "python gen.py > c.txt\npython train.py c=./c.txt\n"
            ),
        }
    ),
    Example(  # `command -v python` says where python is: it runs no program
        {"run.sh": "#!/bin/bash\ncommand -v python train.py > where.txt\n", "train.py": "print(1)\n"}
    ),
    Example(  # each split's file, written in a loop with its variable, then read by a data chain (bio-lm)
        {
            "prep.sh": (
                '#!/bin/bash\nD=out\nfor split in train test; do\n  python3 clean.py --f "$split" > "$D/$split.txt"\ndone\n'
                'cat "$D/train.txt" "$D/test.txt" | cut -d " " -f 2 | sort -u > "$D/labels.txt"\n'
            ),
            "clean.py": "print(1)\n",
        }
    ),
    Example(  # pytest flushes each test's result as it goes (transformers' CircleCI steps), under coverage too
        {
            "ci.sh": (
                "python -m pytest -n 8 --dist=loadfile -s ./tests/ | tee output.txt\n"
                "coverage run -m pytest tests | tee tests.log\npython -m coverage run --source=pkg -m pytest tests > cov.log\n"
            )
        }
    ),
    Example(  # a trainer that flushes the progress line of its loop (HFM's, whose other loops print unflushed)
        {
            "train.py": (
                "import sys\n\nprint('start')\n\n\ndef train(steps):\n    for it in range(steps):\n"
                "        print('It: %d' % it)\n        sys.stdout.flush()\n    for name in ('c', 'u'):\n"
                "        print('Error', name)\n\n\ntrain(100)\n"
            ),
            "eval.py": "for batch in range(10):\n    print(batch, flush=True)\n",
            "sas.py": (  # RecAI's SASRec: a function that prints and flushes, called every 10th epoch
                "import sys\n\n\nclass Runner:\n    def evaluate(self, e):\n        print(e)\n        sys.stdout.flush()\n\n"
                "    def fit(self):\n        for e in range(200):\n            if e % 10 == 0:\n                self.evaluate(e)\n\n\n"
                "def report(e):\n    print(e)\n    sys.stdout.flush()\n\n\nfor epoch in range(1, 201):\n    report(epoch)\nRunner().fit()\n"
            ),
            "run.sh": "python train.py > train_stdout.txt &\npython eval.py > eval.log\npython sas.py > sas.log\n",
        }
    ),
    Example(  # a program that starts its workers through a launcher's `main` (gpt-neox's deepy.py): they run as `python -u`
        {
            "deepy.py": "import deepspeed.launcher.runner\n\n\ndef main():\n    deepspeed.launcher.runner.main(['train.py'])\n\n\nmain()\n",
            "elastic.py": "from torch.distributed.run import main as run\n\nrun(['--nproc_per_node', '2', 'train.py'])\n",
            "run.sh": "python deepy.py train.py cfg.yml > neox.log 2>&1\npython elastic.py > elastic.log\n",
        }
    ),
    Example(  # expect's `unbuffer` runs the program on a pseudo terminal, which line-buffers its stdout
        {"run.sh": "#!/bin/bash\nset -o pipefail\nunbuffer python train.py | tee train.log\n", "train.py": "print(1)\n"}
    ),
    Example(  # ruff run as a module execs its own binary: no Python writes the log (dattri)
        {"lint.sh": "#!/bin/bash\nset -o pipefail\npython3 -m ruff check . | tee ruff.log\n"}
    ),
    Example(  # a file made and read with a loop's own variable in its path: data each time round
        {
            "prep.py": "print('a b')\n",
            "train.py": "print(1)\n",
            "pre.sh": "#!/bin/bash\nfor D in a b; do\n  python prep.py x.tmp > $D/train.txt\n  python train.py --data $D/train.txt\ndone\n",
        }
    ),
    Example(  # a CI helper under `.azure-pipelines/` (walked as `.github/` is) that line-buffers its own stdout
        {
            ".azure-pipelines/scripts/monitor_gpu.py": "import sys\nsys.stdout.reconfigure(line_buffering=True)\nprint('gpu')\n",
            "ci.sh": "#!/bin/bash\nnohup python .azure-pipelines/scripts/monitor_gpu.py > monitor.log 2>&1 &\n",
        }
    ),
    Example(  # a submitted LSF job writes to its `-o` file, not into `| tee`; `bsub -Is` and `-Ip` give it a pseudo terminal
        {
            "submit.sh": (
                "#!/bin/bash\nset -o pipefail\nbsub -n 4 -o logs/%J.out python train.py | tee sub.log\n"
                "bsub -Is python train.py | tee run.log\nbsub -Ip -n 1 python train.py > run2.log\n"
            ),
            "train.py": "print(1)\n",
        }
    ),
    Example(  # setuptools building a package into a build log, as pip would (HydraGNN's install scripts)
        {
            "setup.py": "from setuptools import setup\nsetup(name='x')\n",
            "install.sh": "#!/bin/bash\nset -e\nCC=mpicc python setup.py build > build.log 2>&1\npython3 setup.py install >> build.log 2>&1\n",
        }
    ),
    Example(  # `|&` adds its `2>&1` after `>&2`: both streams go to the script's stderr, none to the log
        {"run.sh": "#!/bin/bash\nset -o pipefail\npython train.py >&2 |& tee train.log\n"}
    ),
    Example(  # GNU parallel --pipe hands each job a part of its input: a filter, its output data
        {"g2p.sh": "#!/bin/bash\ncat words.txt | parallel --pipe -j 4 \"python g2p.py > /w/phones_{#}.txt\"\n"},
    ),
    Example(  # a program that line-buffers its stdout itself, run as a module or a package's __main__
        {
            "jobs/__init__.py": "",
            "jobs/serve.py": "import sys\nsys.stdout.reconfigure(line_buffering=True)\nprint('up')\n",
            "app/__main__.py": "import sys\nsys.stdout.reconfigure(write_through=True)\nprint('up')\n",
            "start.sh": "python -m jobs.serve > serve.log 2>&1\npython -m app > app.log 2>&1\n",
        }
    ),
    Example(  # keys sent to a tmux pane with no Enter after them (`-l`: `Enter` is text) are typed, not run
        {
            "keys.sh": (
                "tmux send-keys -t a 'python /w/a.py | tee /w/a.log'\n"
                "tmux send-keys -l -t b 'python /w/b.py | tee /w/b.log' Enter\n"
                "tmux send-keys -t c 'cd /w' Enter 'python c.py | tee c.log' \\; send-keys -t d Enter\n"
            )
        }
    ),
    Example(  # plain `su user -c` keeps this shell's variables
        {"as.sh": '#!/bin/bash\nexport PYTHONUNBUFFERED=1\nsu bob -c "python3 /w/t.py > /w/a.log"\n'}
    ),
    Example(  # sbatch passes this shell's variables (`ALL`, its default), or those `--export` names
        {
            "submit.sh": (
                '#!/bin/bash\nexport PYTHONUNBUFFERED=1\nsbatch --wrap "python3 train.py > a.log"\n'
                'sbatch --export=ALL,WANDB_MODE=offline --wrap "python3 train.py > b.log"\n'
                'sbatch --export=PYTHONUNBUFFERED -N 1 --wrap "python3 train.py > c.log"\n'
                'sbatch --export NONE,PYTHONUNBUFFERED=1 --wrap "python3 train.py > d.log"\n'
            )
        }
    ),
    Example(  # apptainer passes the host's environment; with `--cleanenv`, what it is given
        {
            "box.sh": (
                "#!/bin/bash\nexport PYTHONUNBUFFERED=1\napptainer exec img.sif python3 t.py > a.log\n"
                "apptainer exec --cleanenv --env PYTHONUNBUFFERED=1 img.sif python3 t.py > b.log\n"
                "singularity exec -e --env-file run.env img.sif python3 t.py > c.log\n"
                "APPTAINERENV_PYTHONUNBUFFERED=1 apptainer exec -e img.sif python3 t.py > d.log\n"
                "export SINGULARITYENV_PYTHONUNBUFFERED=1\nsingularity exec --cleanenv img.sif python3 t.py > e.log\n"
            )
        }
    ),
    Example(  # `env -u` removes another variable; `env` sets the one it removed again
        {
            "unset.sh": (
                "#!/bin/bash\nexport PYTHONUNBUFFERED=1\nenv -u WANDB_MODE python3 t.py > a.log\n"
                "env --unset PYTHONUNBUFFERED PYTHONUNBUFFERED=1 python3 t.py > b.log\n"
            )
        }
    ),
    Example(  # `set -a` exports every variable set after it, those of a sourced file too
        {
            "a.sh": "#!/bin/bash\nset -a\nPYTHONUNBUFFERED=1\nset +a\npython train.py | tee a.log\n",
            "b.sh": "#!/bin/bash\nset -o allexport\nsource .env\nset +o allexport\npython train.py | tee b.log\n",
            ".env": "PYTHONUNBUFFERED=1\nWANDB_PROJECT=demo\n",
        }
    ),
    Example(  # exported after the function's definition, before its call
        {"run.sh": "#!/bin/bash\ntrain() { python train.py > train.log 2>&1; }\nexport PYTHONUNBUFFERED=1\ntrain\n"}
    ),
    Example(  # a function called before the launch exports it
        {"run.sh": "#!/bin/bash\nsetup() {\n  export PYTHONUNBUFFERED=1\n}\nsetup\npython train.py | tee run.log\n"}
    ),
    Example(  # Open MPI (an option only it has) starts each rank with its stdout on a pseudo terminal
        {
            "run.sh": (
                "#!/bin/bash\nset -o pipefail\nmpirun --allow-run-as-root -np 8 python3 train.py 2>&1 | tee run.log\n"
                "mpiexec -np 2 -x NCCL_DEBUG=INFO python3 train.py > eval.log\n"
            ),
            "train.py": "print(1)\n",
        }
    ),
    Example(  # `srun -u` (`--unbuffered`) and `--pty` run the tasks on a terminal: Python line-buffers
        {"job.sh": "#!/bin/bash\nsrun -u -o run.log python3 train.py\nsrun --pty python3 eval.py | tee eval.log\n"}
    ),
    Example(  # the program under `coverage run` made unbuffered by the environment
        {"test.sh": "PYTHONUNBUFFERED=1 coverage run tests/smoke.py | tee smoke.log\n"}
    ),
    Example(  # a file the script then hands a program to read is data, whatever its name
        {"prep.sh": "python3 conv.py raw.tmp > train.txt\npython3 -u train.py --data train.txt\n"}
    ),
    Example(  # the same file spelled otherwise (PaddleRec's `> data.txt`, then `./data.txt`), or as written when not known
        {
            "prep.sh": (
                "#!/bin/bash\npython conv.py a > data.txt\npython pad.py ./data.txt > /dev/null\n"
                "python conv.py b > d//b.txt\ncat ./d/b.txt | sort > b_sorted.txt\n"
                "python conv.py c > $1/f.txt\npython -u pad.py $1/f.txt\n"
            )
        }
    ),
    Example(  # so it is when the program's output reaches the file through filters
        {
            "ci.sh": (
                "#!/bin/bash\nset -eo pipefail\npython -m pytest --co -q tests | head -n -2 | grep -o 'name_[a-z]*' > names.txt\n"
                "python tests/use.py --names names.txt\n"
            )
        }
    ),
    Example(  # or when a later command reads it into a file it makes (a data chain), as an argument or on stdin
        {
            "prep.sh": (
                "#!/bin/bash\npython3 conv.py raw_a.tmp > a.txt\npython3 conv.py raw_b.tmp | grep -v '^#' > b.txt\n"
                "cat a.txt b.txt | cut -d ' ' -f 2 | sort -u > labels.txt\npython3 conv.py raw_c.tmp > c.txt\n"
                "tail -n +2 < c.txt > c_body.txt\n"
            )
        }
    ),
    Example(  # read round a loop, by a path the loop's variable makes
        {
            "audit.sh": (
                "#!/bin/bash\npython gen.py > reqs/c.txt\nfor f in c d; do\n  pip install -r \"reqs/$f.txt\"\ndone\n"
            )
        }
    ),
    Example(  # a requirements file generated for pip, however pip is spelled
        {
            "audit.sh": (
                "#!/bin/bash\nset -euo pipefail\npython - <<'PY' > reqs/deps.txt\nprint('torch==2.5.0')\nPY\n"
                "pip install -r reqs/deps.txt\npython3 gen.py > a.txt\npip3 install -r a.txt\n"
                "python3 gen.py > b.txt\nuv pip install -r b.txt\npython3 gen.py > c.txt\npip-audit -r c.txt\n"
                "python3 gen.py > d.txt\npython -m pip install -r d.txt\n"
            ),
            "uv.sh": (  # uv's global options before `pip`
                "#!/bin/bash\npython gen_reqs.py > requirements.txt\nuv --quiet pip install -r requirements.txt\n"
                "python gen_reqs.py > deps.txt\nuv --directory /w --no-cache -v pip install -r deps.txt\n"
            ),
        }
    ),
    Example(  # unbuffered; the interpreter's version is no program
        {"ci.sh": "python -u - <<'PY' | tee audit.log\nprint('audit')\nPY\npython --version > versions.log\n"}
    ),
    Example(  # a file the script sources exports it (kaldi's `. ./path.sh`)
        {"egs/s5/run.sh": ". ./path.sh\npython local/prep.py > prep.log\n", "egs/s5/path.sh": "export PYTHONUNBUFFERED=1\n"}
    ),
    Example(
        {
            "run.sh": (
                "python -u train.py | tee a.log\npython -Bu train.py > b.log\n"
                "PYTHONUNBUFFERED=1 python train.py > c.log\nenv PYTHONUNBUFFERED=1 python train.py > d.log\n"
                "export PYTHONUNBUFFERED=1\npython train.py | tee e.log\n"
            )
        }
    ),
    Example(  # launchers whose workers run `python -u`
        {
            "run.sh": (
                "torchrun --nproc_per_node 8 train.py | tee a.log\ndeepspeed train.py > b.log\n"
                "python -m torch.distributed.run --nproc_per_node 8 train.py | tee c.log\n"
                "python -m atorch.distributed.launch --nproc_per_node=2 train.py 2>&1 | tee d.log\n"
                "msrun --worker_num 8 --local_worker_num 8 --join True --log_dir msrun_log train.py 2>&1 | tee e.log\n"
            )
        }
    ),
    Example(  # accelerate with several processes (torchrun's workers run -u), or as the machine's config says
        {
            "run.sh": (
                "accelerate launch --multi_gpu --num_processes 8 train.py | tee a.log\n"
                "accelerate launch --config_file acc.yaml train.py | tee b.log\n"
                "accelerate launch train.py | tee c.log\n"
                "PYTHONUNBUFFERED=1 accelerate launch --cpu train.py > d.log\n"
            ),
            "acc.yaml": "distributed_type: MULTI_GPU\nnum_processes: 8\n",
        }
    ),
    Example(  # a project module the trainer imports line-buffers stdout at import, directly or through others
        {
            "run.sh": "#!/bin/bash\npython train.py | tee train.log\npython tools/eval.py > eval.log\n",
            "train.py": "import logsetup\nprint('step 1')\n",
            "logsetup.py": "import sys\n\nsys.stdout.reconfigure(line_buffering=True)\n",
            "tools/eval.py": "from utils import common\nprint('eval')\n",
            "utils/__init__.py": "",
            "utils/common.py": "from . import log\n",
            "utils/log.py": "import sys\nfrom utils import common  # a cycle\n\nif sys.stdout:\n    sys.stdout.reconfigure(write_through=True)\n",
        }
    ),
    Example(  # the trainer line-buffers its own stdout
        {
            "run.sh": "python train.py | tee train.log\naccelerate launch --cpu train.py | tee cpu.log\n",
            "train.py": "import sys\n\nsys.stdout.reconfigure(line_buffering=True)\nprint('step 1')\n",
        }
    ),
    Example(  # not logs: a result file, a capture, a filter read by a person
        {
            "run.sh": (
                "python make_hostfile.py > hosts.json\nN=$(python count_gpus.py)\n"
                "python train.py --help | grep lr\npython -c 'print(1)' > one.txt\n"
                "python3 -m kaldilm --max-order=3 lm/3gram.arpa > lm/G_3_gram.fst.txt\n"  # an FST, as text
                "python3 calc.py --results_dir out | tee out/res.txt\npython eval.py > accuracy/accuracy.txt\n"
            )
        }
    ),
    Example(  # stdout and stderr in files whose names differ by more than the stream's word, or in two directories
        {"run.sh": "python3 t.py > o/a_out 2> o/b_err &\npython3 t.py > o/x_out 2> p/x_err &\npython3 t.py > o/x_out 2>&1 &\nwait\n"}
    ),
    Example(  # a file a variable names: the script's argument, not named a log; a value named a result
        {"eval.sh": "OUT=$1\npython eval.py > $OUT\nLOG_FILE=$DIR/scores.json\npython eval.py > $LOG_FILE\n"}
    ),
    Example(  # a filter: its input comes from a file or a pipe, its output is data whatever its name
        {
            "prep.sh": (
                "python g2p.py --compact < words.txt > phones.txt\nsrun python g2p.py < w.txt > p.txt\n"
                "cut -d' ' -f2- data/text | python3 g2p.py > data/phones.txt\n"
            )
        }
    ),
    Example(  # a workflow's `env:` is the step's environment
        {
            ".github/workflows/ci.yml": (
                "on: push\nenv:\n  PYTHONUNBUFFERED: 1\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n"
                "    steps:\n      - run: python train.py --steps 10 | tee smoke.log\n"
            )
        }
    ),
    Example(  # SkyPilot exports PYTHONUNBUFFERED=1 before a task's `setup:` and `run:` (a task of `run:` alone too)
        {
            "task.yaml": (
                "resources:\n  accelerators: A100:1\nsetup: |\n  python prepare.py | tee prep.log\n"
                "run: |\n  python train.py > train.log 2>&1\n"
            ),
            "serve.yaml": "run: python serve.py | tee serve.log\n",
        }
    ),
    Example(  # a dstack run's `env:`, a list of `NAME=value` or a map
        {
            ".dstack.yml": "type: task\nenv:\n  - PYTHONUNBUFFERED=1\ncommands:\n  - python train.py > train.log\n",
            "serve.dstack.yml": "type: service\nenv:\n  PYTHONUNBUFFERED: 1\ncommands:\n  - python serve.py | tee s.log\n",
        }
    ),
    Example(  # CircleCI's `environment:` of an executor, a job's primary container, a job and a step;
        # a reusable command runs in the job that names it
        {
            ".circleci/config.yml": (
                "version: 2.1\nexecutors:\n  cpu:\n    docker:\n      - image: cimg/python:3.11\n    environment:\n"
                "      PYTHONUNBUFFERED: 1\ncommands:\n  smoke:\n    steps:\n      - run: python smoke.py | tee smoke.log\n"
                "jobs:\n  a:\n    executor: cpu\n    steps:\n      - run: python train.py | tee a.log\n      - smoke\n"
                "  b:\n    docker:\n      - image: cimg/python:3.11\n        environment:\n          PYTHONUNBUFFERED: 1\n"
                "    steps:\n      - run: python train.py | tee b.log\n  c:\n    docker:\n      - image: cimg/python:3.11\n"
                "    environment:\n      PYTHONUNBUFFERED: 1\n    steps:\n      - run: python train.py | tee c.log\n"
                "  d:\n    docker:\n      - image: cimg/python:3.11\n    steps:\n      - run:\n"
                "          command: python train.py | tee d.log\n          environment:\n            PYTHONUNBUFFERED: 1\n"
            )
        }
    ),
    Example(  # `ray job submit --no-wait` returns once the job is submitted: its output goes to Ray's job log
        {"submit.sh": "ray job submit --address http://head:8265 --no-wait --working-dir . -- python3 -m pkg.main x=1 2>&1 | tee run.log\n"}
    ),
    Example(  # a Ray job's program runs with PYTHONUNBUFFERED=1 (Ray's job supervisor sets it), a pipeline
        # inside its command too; `ray job submit` given it by this shell
        {
            "submit.sh": (
                'ray job submit --no-wait -- bash -c "python a.py | tee a.log"\n'
                "PYTHONUNBUFFERED=1 ray job submit -- python b.py | tee b.log\n"
                "export PYTHONUNBUFFERED=1\nray job submit -- python c.py 2>&1 | tee c.log\n"
            )
        }
    ),
    Example(  # the launcher makes the script's Python unbuffered
        {
            "launch.sh": "PYTHONUNBUFFERED=1 bash run.sh | tee run.log\n",
            "run.sh": "python train.py\n",
        }
    ),
    Example(  # every caller in the project runs the script with it: `bash`, a Slurm job (sbatch passes the
        # submitting shell's variables), up the chain of scripts (aigc3d/LHM's BiRefNet test.sh)
        {
            "t.py": "print(1)\n",
            "sub.sh": "#!/bin/sh\nexport PYTHONUNBUFFERED=1\nsbatch --gres=gpu:1 ./train_test.sh\nbash eval.sh\n",
            "train_test.sh": "#!/bin/sh\nbash test.sh 0\n",
            "test.sh": "#!/bin/bash\nnohup python t.py > e_logs/eval.out 2>&1 &\n",
            "eval.sh": "#!/bin/bash\npython t.py | tee eval.log\n",
        }
    ),
    Example(  # `srun --export=NAME` passes the name with this shell's value
        {"job.sh": "#!/bin/bash\nexport PYTHONUNBUFFERED=1\nsrun --export=PYTHONUNBUFFERED,WANDB_MODE=offline python3 train.py > train.log\n"}
    ),
    Example(  # the variable given by the wrapper's own options, or a terminal that line-buffers
        {
            "wrapped.sh": (
                "#!/bin/bash\nset -o pipefail\ndocker exec -e PYTHONUNBUFFERED=1 c1 python /w/a.py > /w/a.log\n"
                "docker run --rm --env=PYTHONUNBUFFERED=1 img python b.py > b.log\n"
                "tmux new -d -s n -e PYTHONUNBUFFERED=1 'python c.py > c.log 2>&1'\n"
                "mpirun -np 2 -x PYTHONUNBUFFERED=1 python d.py > d.log\n"
                "srun --export=ALL,PYTHONUNBUFFERED=1 python e.py > e.log\n"
                "ssh -t gpu1 'python /w/f.py' | tee f.log\ndocker exec -it c1 python /w/g.py | tee g.log\n"
                "kubectl exec -t pod -- python /w/h.py | tee h.log\n"
            )
        }
    ),
    Example(  # `|` binds tighter than `&&`: the command before the `&&` writes to the terminal, not into the pipe
        {"prepare.py": "print(1)\n", "run.sh": "#!/bin/bash\npython3 prepare.py && python3 -u train.py 2>&1 | tee train.log\n"}
    ),
    Example(  # the same with a redirected middle stage (tree-sitter-bash nests `a 2>&1 | b 2>&1 | c`)
        {
            "prepare.py": "print(1)\n",
            "run.sh": "#!/bin/bash\npython3 prepare.py && python3 -u train.py 2>&1 | grep -v Warning 2>&1 | tee train.log\n",
        }
    ),
    Example(  # a Kaldi/ESPnet job runner keeps the program's output in its log, as a scheduler keeps a job's
        {
            "run.sh": (
                "#!/bin/bash\n${cuda_cmd} --gpu 1 exp/train/log/train.log python3 train.py --config c.yaml\n"
                "utils/run.pl JOB=1:4 exp/log/d.JOB.log python3 train.py\n"
            ),
            "launch.sh": "#!/bin/bash\nset -o pipefail\nbash run.sh 2>&1 | tee run.log\n",
            "train.py": "print(1)\n",
        }
    ),
]


def _flushing(args) -> bool:
    """`coverage run ... -m pytest`: the module coverage runs flushes as it prints."""
    values = [word.value for word in args]
    return any(value == "-m" and following in FLUSHING_MODULES for value, following in zip(values, values[1:]))


def check(project) -> Iterator[Finding]:
    callers: dict[tuple[str, int], bool] = {}  # whether a script's callers give it PYTHONUNBUFFERED, found when a program asks
    for path, script in project.shell.items():
        fed: set[int] | None = None  # the commands a pipe feeds, found when a program asks
        inputs: tuple[set[str], set[str]] | None = None  # the files the script reads as data, found when one asks
        for command in (*script.effective_commands(), *filter(_ray_client, script.commands)):
            run = python_run(command, stdin=True)
            covers = coverage_subcommand(command, run)
            if covers not in (None, "run"):
                continue  # `coverage report`, `python -m coverage xml`: no program of the project's
            harm = "the log lags by kilobytes and loses its last lines when the job is killed"
            accelerate = command.name == "accelerate" or (run is not None and run.kind == "module")
            launch = launch_of(command) if accelerate else None
            if launch is not None and launch.launcher == "accelerate":  # also `python -m accelerate.commands.launch`
                one = simple_launch(project, path, launch)  # one process, run as plain `python`
                if one is None or _unbuffered(project, path, command, None, callers):
                    continue
                what = f"`accelerate launch` runs one process here ({one}), as `python` without -u, and it block-buffers"
                use = f"set {UNBUFFERED}=1"
                run = None
            elif command.name == "coverage":  # `coverage run`
                if _flushing(command.args) or _unbuffered(project, path, command, None, callers):
                    continue
                what, use = "`coverage run` runs its program in Python, which block-buffers", f"set {UNBUFFERED}=1"
            elif _ray_client(command):  # its program is unbuffered: `ray job submit` buffers what it prints
                if _unbuffered(project, path, command, None, callers):
                    continue
                what, use = "`ray job submit` (Python) block-buffers", f"set {UNBUFFERED}=1 for it"
                harm = "the log lags by kilobytes and loses its last lines when `ray` is killed"
            elif run is not None:
                if run.kind == "module" and run.target.value in TOOL_RUNS:
                    continue  # `python3 -m pip install -U pip >> setup.log`, `python3 -m venv .venv`
                if run.kind == "module" and run.target.value == "coverage" and _flushing(run.args):
                    continue  # `python -m coverage run -m pytest tests | tee tests.log`
                if run.kind == "module" and run.target.value in FLUSHING_MODULES:
                    continue  # `python -m pytest tests | tee tests.log`
                if run.kind == "script" and runs_setuptools(run.target, run.args):
                    continue  # `python setup.py install > build.log`
                if _unbuffered(project, path, command, run, callers):
                    continue
                if command.wrappers and command.wrappers[-1].adds_interpreter:  # `uv run x.py`: uv's python
                    what = f"`{command.wrappers[-1].kind} run` runs {run.target.text} with `python`, which block-buffers"
                    use = f"use `{command.wrappers[-1].kind} run python -u` or set {UNBUFFERED}=1"
                else:
                    what, use = f"`{command.name}` block-buffers", f"use `{command.name} -u` or set {UNBUFFERED}=1"
            elif (script_of_entry := _console_script(project, command)) is not None:
                if _unbuffered(project, path, command, None, callers):
                    continue
                what = f"`{command.name}`, the project's console script ({script_of_entry}), runs in Python, which block-buffers"
                use = f"set {UNBUFFERED}=1"
            elif _by_shebang(project, command):
                if _unbuffered(project, path, command, None, callers):
                    continue
                what, use = f"`{command.words[0].text}` runs in Python by its `#!` line, which block-buffers", f"set {UNBUFFERED}=1"
            else:
                continue
            if fed is None:
                fed = {id(c) for pipeline in script.pipelines for stage in pipeline.stages[1:] for c in stage}
            if _is_filter(command, fed):
                continue
            related = _log_captures(project, path, command)
            if not related:
                continue
            written = _file_made(command)
            if written is not None:
                inputs = _data_inputs(project, script) if inputs is None else inputs
                programs, chains = inputs
                made = normal(written.text)  # `> data.txt` is the `./data.txt` a program reads; `$1/f.txt` too, as written
                # a file its name, its stderr or its twin calls a log stays one, whatever reads it later
                # (FederatedScope's `>> exp/train.log 2>&1`, then `parse_results.py --input exp/train.log`)
                logged = named_log(written.text) or command.stderr is command.stdout or split_logs(command)
                if not logged and (_read_as(made, written, programs) or _read_as(made, written, chains)):
                    # `python conv.py raw [| grep -v '^#'] > train.txt`, then `python train.py train.txt`,
                    # or `cat a.txt b.txt | cut -f2 > labels.txt`: data
                    continue
            if _reconfigured_on_import(project, command):  # last: it may load the facts of many modules
                continue
            unexported = _set_unexported(script, command)
            if unexported is not None:  # `PYTHONUNBUFFERED=1;...; nohup python ...` (OpenNMT-kpg's selftrain scripts)
                use = f"`{UNBUFFERED}` is set at line {unexported.location.line} but not exported, so python does not see it: `export` it"
                related = [*related, Related(unexported.location, f"{UNBUFFERED} is set here, for this shell only")]
            yield Finding(
                command.words[0].location,
                f"{what} its stdout into a log: {harm}; {use}",
                tuple(related),
                fix=_add_u(project, command) if run is not None else None,
            )


def _set_unexported(script, command: Command):
    """The word PYTHONUNBUFFERED got its value from, when the script sets it before the command
    without exporting it (a `;` after the assignment, no `export`): a shell variable no program sees."""
    word = script.final_assigned.get(UNBUFFERED)
    if word is None or UNBUFFERED in script.final_exported or word.location.line > command.location.line:
        return None
    return word


def _console_script(project, command: Command) -> str | None:
    """`module:function` of the project's console script the command runs by its name
    (`fq-train data > train.log`: entrypoints.console_script), a Python program."""
    invocation = project.graph.invocation(command)
    if invocation is None or invocation.kind != "console" or invocation.target is not command.words[0]:
        return None
    return f"{invocation.callee}:{invocation.function}"


def _by_shebang(project, command: Command) -> bool:
    """The command runs a Python file of the project by its `#!` line (`./train.py > train.log`),
    one with no `-u` there (`#!/usr/bin/env -S python3 -u`)."""
    program = _shebang_program(project, command)
    if program is None:
        return False
    words = shebang_words(project.files[program].text) or []
    return not any(w.startswith("-") and not w.startswith("--") and "u" in w for w in words[1:])


def _shebang_program(project, command: Command) -> str | None:
    """The Python file of the project the command runs by its `#!` line (`./train.py`), if any."""
    if not command.words or "/" not in command.words[0].text:  # run by a path (a bare name is PATH's)
        return None
    invocation = project.graph.invocation(command)
    if invocation is None or invocation.kind != "python" or invocation.target is not command.words[0]:
        return None
    return invocation.callee


def _ray_client(command: Command) -> bool:
    """`ray job submit -- CMD` waiting for its job (no `--no-wait`): Ray's CLI, a Python program,
    prints the job's output to its own stdout as it comes (ray/dashboard/modules/job/cli.py,
    `_tail_logs`: a plain `print`), while the job's program runs unbuffered on the cluster."""
    runs = command.inner[0].wrappers[-1:] if command.inner else ()  # none for a `>(tee f.log)` it holds
    return bool(runs) and runs[0].kind == "ray" and runs[0].command is command and command.inner[0].stdout.kind != SUBMITTED


def _data_inputs(project, script) -> tuple[set[str], set[str]]:
    """The files the script reads as data: those it hands a Python program to read (one run by its
    `#!` line too: icefall's `./shared/make_kn_lm.py -text transcript_tokens.txt`), as its
    arguments (`--data train.txt`, `--data=train.txt`, a Hydra override's `++x.token_list=tokens.txt`,
    pip's `-r deps.txt`) or standard input (`< train.txt`); and those another command reads so into
    a file it makes, with no `tee` on the way (`cat a.txt b.txt | cut -f2 | sort -u > labels.txt`:
    a data chain; `cp units.txt dict/`, a copy). A file written and then
    handed to a program is a dataset, whatever its name; one a data chain reads is, unless its
    name calls it a log (`tail -n 1 train.log > last.txt` keeps a summary of a log). Each path as
    `paths.normal` spells it (`./data.txt` is `data.txt`), a value not known as written (`$1/f.txt`)."""
    programs: set[str] = set()
    chains: set[str] = set()
    for command in script.commands:
        python = runs_python_program(command) or _shebang_program(project, command) is not None
        if python:
            found = programs
        elif command.name == "cp" or not command.tee_targets() and _file_made(command) is not None:
            found = chains
        else:
            continue  # `cat run.log`, `grep loss train.txt | tee loss.txt`: it shows the file
        # each time round a loop (`pip-audit -r "reqs/$f.txt"`), and as written, as the written
        # file is compared (`> $D/train.txt`, then `--data $D/train.txt`, in `for D in a b`)
        for variant in (command, *script.variants(command)):
            words = variant.args[:-1] if command.name == "cp" else variant.args  # cp's last word is where it copies to
            found.update(normal(read) for word in words if (read := _file_named(word.text, python)))
        found.update(normal(r.target.text) for r in command.redirects if r.op == "<" and r.target is not None and r.target.text)
    return programs, chains


# A Hydra override's key (`++tokenizer_conf.token_list`, `+trainer.ckpt`, `data.path`): Hydra reads
# a Python program's `KEY=VALUE` words so, and the value may name a file.
OVERRIDE_KEY = re.compile(r"\+{0,2}[A-Za-z_][\w.@/-]*")


def _file_named(text: str, python: bool) -> str:
    """The file a word of a command may name: an option's value after `=` (`--data=train.txt`;
    none for `--data`, whose value is the next word), a Hydra override's given to a Python program
    (FunASR's `++tokenizer_conf.token_list=tokens.txt`), else the word."""
    head, equals, value = text.partition("=")
    if text.startswith("--") or python and equals and OVERRIDE_KEY.fullmatch(head):
        return value
    return text


def _read_as(made: str, written: Word, read: set[str]) -> bool:
    """Whether the file made is one of those `read`; one written with a variable (`> "$D/$split.txt"`
    in `for split in train test`) is when a file read has its shape (`$D/train.txt`: bio-lm's
    preprocessing, each split's file, then `cat` of them all into a file of labels)."""
    if made in read:
        return True
    pieces = EXPANSION.split(made)
    if written.value is not None or len(pieces) < 2 or not any(c.isalnum() for c in "".join(pieces)):
        return False  # not `> $LOG_FILE`: a name all unknown has no shape
    shape = re.compile("[^/]+".join(map(re.escape, pieces)))
    return any(shape.fullmatch(path) for path in read)




def _file_made(command: Command) -> Word | None:
    """The file the command's stdout ends up in, directly or through the later stages of its
    pipeline, when no `tee` on the way shows it as it grows: `> labels.txt`, `| sort -u > labels.txt`."""
    readers, end = downstream(command.stdout)
    if end.kind != FILE or end.target is None:  # `> /dev/null` is a NULL sink, no FILE
        return None
    return None if any(r.tee_targets() for r in readers) else end.target


def _is_filter(command: Command, fed: set[int]) -> bool:
    """The program reads its standard input from a file (`< words.txt`, not `< /dev/null`), given
    to it or to a command that runs it (`nohup python g2p.py < words.txt`), or from the stage
    before it in a pipeline (`cut -f2 words.txt | python g2p.py`: `fed`, the commands of the
    stages after the first; a first stage's `{ cd x; python t.py; }` or function call is none)."""
    stage = command.wrappers[0].command if command.wrappers else command
    if id(stage) in fed and not any(w.reads_input for w in command.wrappers):
        return True  # xargs reads the pipe; what it runs reads /dev/null (`seq 3 | xargs -I{} python t.py`)
    return any(
        r.op == "<" and r.fd in (None, 0) and r.target is not None and r.target.text != "/dev/null"
        for runner in (command, *(w.command for w in command.wrappers))
        for r in runner.redirects
    )


def _unbuffered(project, path: str, command: Command, run: PythonRun | None, callers: dict[tuple[str, int], bool]) -> bool:
    """Whether the program's stdout is unbuffered; `run` is None for a launcher's program."""
    if _sets_unbuffered(command) or (run is not None and run.unbuffered):
        return True
    if any(w.terminal for w in command.wrappers):  # `srun -u python x.py`: a terminal line-buffers it
        return True
    if UNBUFFERED in sourced_before(project, path, command).exported:
        return True
    reached = not command.has_env(UNBUFFERED) and not any(w.isolated or UNBUFFERED in w.unset for w in command.wrappers)
    if reached and _given_by_callers(project, path, MAX_CALLERS, callers):  # the environment the script starts with
        return True
    if run is not None and run.kind == "module" and run.target.value in UNBUFFERED_LAUNCHERS:
        return True
    module = project.python.get(_trainer(project, command) or "")
    return module is not None and (_reconfigures_stdout(module) or _flushes_as_it_prints(module) or _launches_workers(module))


def _launches_workers(module) -> bool:
    """Whether the program starts its workers through a launcher's `main` (`UNBUFFERED_LAUNCHERS`),
    which runs each as `python -u`: gpt-neox's `deepy.py`, `deepspeed.launcher.runner.main(args)`."""
    return any(
        module.qualified(call.callee).removesuffix(".main") in UNBUFFERED_LAUNCHERS for function in module.functions.values() for call in function.calls
    )


MAX_CALLERS = 4  # scripts running scripts whose environment is followed: `run.sh` runs `a.sh`, which runs `b.sh`, ...


def _given_by_callers(project, path: str, depth: int, known: dict[tuple[str, int], bool]) -> bool:
    """Whether every script of the project that runs `path` starts it with PYTHONUNBUFFERED set
    and not empty: its own (`export PYTHONUNBUFFERED=1`, then `bash train.sh` or `sbatch
    job.sh`), or what it was started with itself, up to `depth` scripts up (`launches.started_with`).
    A script no script runs is run by hand, with nothing set. `known` has each script's answer."""
    found = known.get((path, depth))
    if found is None:
        known[path, depth] = False  # a script that runs itself, on the way
        runs = project.graph.callers(path) if depth else []
        found = known[path, depth] = bool(runs) and all(_gives(project, invocation, depth, known) for invocation in runs)
    return found


def _gives(project, invocation, depth: int, known: dict[tuple[str, int], bool]) -> bool:
    """Whether one caller starts its script with PYTHONUNBUFFERED set and not empty."""
    given, word = started_with(invocation, UNBUFFERED)
    if given is not None:
        return given and (word is None or word.value != "")
    if UNBUFFERED in sourced_before(project, invocation.caller, invocation.command).exported:
        return True
    return _given_by_callers(project, invocation.caller, depth - 1, known)


def _trainer(project, command: Command) -> str | None:
    """The project's Python file the command runs (the program of a launcher)."""
    invocation = project.graph.invocation(command)
    return invocation.callee if invocation is not None else None


def _reconfigured_on_import(project, command: Command) -> bool:
    """Whether a project module the trainer imports, directly or through others, line-buffers
    stdout in its top-level code, which runs at the import (`import logsetup`, whose module level
    calls `sys.stdout.reconfigure(line_buffering=True)`): as the trainer itself doing it."""
    trainer = _trainer(project, command)
    if trainer is None or trainer not in project.python:
        return False
    imported = project.module_index.imported(project.python, trainer, at_start=True) - {trainer}
    modules = (project.python.get(path) for path in sorted(imported))
    return any(module is not None and _reconfigures_stdout(module, at_start=True) for module in modules)


def _reconfigures_stdout(module, at_start: bool = False) -> bool:
    """Whether the module line-buffers its stdout: anywhere, or `at_start`, in its top-level code."""
    functions = [module.functions.get(MODULE_SCOPE)] if at_start else module.functions.values()
    for function in functions:
        if function is None:
            continue
        for call in function.calls:
            if module.qualified(call.callee) != RECONFIGURE:
                continue
            if "True" in (call.keyword("line_buffering"), call.keyword("write_through")):
                return True
    return False


def _flushes_as_it_prints(module) -> bool:
    """Whether the trainer flushes its stdout by hand as it runs: in a loop of its own code,
    `sys.stdout.flush()` or `print(..., flush=True)`, or a call there of a function of the module
    that does (RecAI's SASRec: `evaluate_all()` prints and flushes, every 10th epoch). Its author
    sees to the buffering where it matters: HFM's trainers flush each progress line of their
    training loop, 123 warnings (helper-338), and print their final errors in a loop that does not."""
    flushing = {name for name, function in module.functions.items() if any(_flushes(module, c) for c in function.calls)}
    if not flushing:
        return False
    methods = {name.rpartition(".")[2] for name in flushing if module.functions[name].is_method}
    return any(
        c.loops != 1 and (_flushes(module, c) or c.callee in flushing or c.callee.startswith("self.") and c.callee[5:] in methods)
        for function in module.functions.values()
        for c in function.calls
    )


def _flushes(module, call) -> bool:
    """`sys.stdout.flush()`, or `print(..., flush=True)` to stdout."""
    return module.qualified(call.callee) == FLUSH or call.callee == "print" and call.keyword("flush") == "True" and call.keyword("file") in (None, "sys.stdout")


def _log_captures(project, path: str, command: Command) -> list[Related]:
    """Where the program's stdout is kept as a log: here, or by the script's callers."""
    stdout = command.stdout
    if is_log_capture(project, command):
        at = stdout.reader.location if stdout.kind == PIPE else stdout.location or command.location
        files = files_written(stdout)
        names = ", ".join(file_name(project, w) for w in [w for w in files if not w.passthrough] or files)
        return [Related(at, f"its stdout goes to {names} here")]
    if stdout.kind != INHERIT:
        return []
    return [
        c.capture_note()
        for c in project.graph.callers(path)
        if c.kind == "shell" and is_log_capture(project, c.command) and not _sets_unbuffered(c.command)
    ]


def _sets_unbuffered(command: Command) -> bool:
    """PYTHONUNBUFFERED reaches the command, set to a value that is not empty (Python ignores an
    empty one: `PYTHONUNBUFFERED= python t.py` buffers); set to an unknown value counts."""
    word = command.env_value(UNBUFFERED) or command.environment.get(UNBUFFERED)
    return command.has_env(UNBUFFERED) and (word is None or word.value != "")


def _add_u(project, command: Command) -> Fix | None:
    interpreter = command.words[0]
    if source(project, interpreter.location) != interpreter.value:
        return None  # `$PYTHON`, or a string expanded from elsewhere
    _, end = span(project, interpreter.location)
    return Fix(f"run `{command.name} -u`", (Edit(interpreter.location.path, end, end, " -u"),))
