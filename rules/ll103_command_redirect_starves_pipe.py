"""## What it does
Finds a script whose long-running command (`python`, `torchrun`, `accelerate`, `deepspeed`,
`srun`, `mpirun`) sends its output to a file while a launcher pipes the script's output into
`tee` or a file.

## Why is this bad?
The launcher's log only gets the wrapper's own `echo` lines; the training output, the traceback
included, goes to the other file. When the job dies at 2 a.m. the log you were told to read ends
with "starting training...".

## Example
```bash
# launch.sh
set -o pipefail
bash run.sh 2>&1 | tee logs/run.log
# run.sh
echo "starting training"
python -u train.py > logs/train.log 2>&1
```

## Use instead
Let the command write to the script's stdout and let the caller keep the log:
```bash
# launch.sh
set -o pipefail
bash run.sh 2>&1 | tee logs/run.log
# run.sh
echo "starting training"
python -u train.py
```
or keep both logs: `python -u train.py 2>&1 | tee logs/train.log`, after `set -o pipefail`
in both scripts.

## Details
- The file may be the command's own redirect, one after the group, subshell or loop it is in, or
  one on the call of the function that runs it (`{ python t.py; } > log`, `done > log`, `train >
  log`), or `srun -o FILE`.
- The launcher may pipe the script itself, or a script that sources it.
- Not reported when the script follows that file on its own stdout (`torchrun ... > "$LOG" 2>&1
  &` then `tail -f "$LOG" --pid=$!`): the output reaches the caller's log through `tail`; nor
  when the file is named as data, not a log (`python make_sad.py > data/x/vad`, `> results.json`:
  LL106's test of a log's name), which the command makes as its product; nor for the log a
  Kaldi/ESPnet job runner keeps (`${cuda_cmd} --gpu 1 exp/train.log python3 train.py`, `run.pl`,
  `queue.pl`, ...): the recipe's design, written by the runner, with no redirect to remove
  (LL106 reads it as a job's log too).
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.logs import file_name, files_written, is_log_capture, normalise, redirected_long_runners
from launchlint.model import Finding, Severity
from launchlint.rulekit import Example

CODE = "LL103"
NAME = "command-redirect-starves-pipe"
SEVERITY = Severity.ERROR
SUMMARY = "A script's training command writes to a file while the caller pipes the script's output"

INVALID = [
    Example(  # a project program run by its path, by its `#!` line (`cmd/train_am.py > $task.log`: aps)
        {
            "run.sh": "#!/bin/bash\n./train.sh am 2>&1 | tee train.log\n",
            "train.sh": "#!/bin/bash\ntask=$1\ncmd/train_am.py --conf x > $task.log 2>&1\n",
            "cmd/train_am.py": "#!/usr/bin/env python\nprint(1)\n",
        },
        ["LL103 train.sh:3"],
    ),
    Example(
        {
            "launch.sh": "#!/bin/bash\nbash run.sh 2>&1 | tee logs/run.log\n",
            "run.sh": '#!/bin/bash\necho "starting training"\npython train.py > logs/train.log 2>&1\n',
        },
        ["LL103 run.sh:3"],
    ),
    Example(  # a continued command line, behind nohup
        {
            "launch.sh": "#!/bin/bash\nbash job.sh > job.out 2>&1\n",
            "job.sh": "#!/bin/bash\nnohup torchrun --nproc_per_node 8 \\\n  train.py --lr 3e-4 \\\n  >> train.log 2>&1\n",
        },
        ["LL103 job.sh:4"],
    ),
    Example(  # the redirect after a group, a loop, or on the call of a function that runs it
        {
            "launch.sh": "#!/bin/bash\nbash a.sh 2>&1 | tee a.log\nbash b.sh | tee b.log\nbash c.sh > c.log\n",
            "a.sh": "#!/bin/bash\necho start\n{\n  python -u train.py\n} > out/a_r5.log 2>&1\n",
            "b.sh": "#!/bin/bash\nfor s in 1 2; do python -u train.py --seed $s; done > out/seeds.log 2>&1\n",
            "c.sh": "#!/bin/bash\nrun() { python -u train.py; }\necho start\nrun > out/fn.log 2>&1\n",
        },
        ["LL103 a.sh:5", "LL103 b.sh:2", "LL103 c.sh:4"],
    ),
    Example(  # in a file the script sources: its output is the script's
        {
            "launch.sh": "#!/bin/bash\nbash job.sh 2>&1 | tee launch.log\n",
            "job.sh": "#!/bin/bash\necho start\n. ./steps.sh\n",
            "steps.sh": "python -u train.py > logs/train.log 2>&1\n",
        },
        ["LL103 steps.sh:1"],
    ),
    Example(  # a script with no extension, shell by its `#!` line, run by its path
        {
            "launch.sh": "#!/bin/bash\ntools/start > launch.log 2>&1\n",
            "tools/start": '#!/bin/sh\necho "starting"\npython -u train.py > logs/train.log 2>&1\n',
        },
        ["LL103 tools/start:3"],
    ),
    Example(  # srun writes its tasks' output into the file `-o` names
        {
            "launch.sh": "#!/bin/bash\nbash job.sh 2>&1 | tee launch.log\n",
            "job.sh": "#!/bin/bash\necho start\nsrun -N 2 -o train-%j.log python3 -u train.py\n",
        },
        ["LL103 job.sh:3"],
    ),
]

VALID = [
    Example(  # the command's product, named as data: not a log the caller misses
        {
            "launch.sh": "#!/bin/bash\nbash prep.sh 2>&1 | tee logs/prep.log\n",
            "prep.sh": "#!/bin/bash\npython make_sad.py --scp wav.scp > data/dev/vad\npython score.py > results.json\n",
        }
    ),
    Example(  # the job in the background, its log followed on the script's stdout
        {
            "launch.sh": "#!/bin/bash\nbash run.sh 2>&1 | tee logs/launch.log\n",
            "run.sh": (
                '#!/bin/bash\nLOG=logs/train.log\ntorchrun --nproc_per_node 8 train.py > "$LOG" 2>&1 &\n'
                'tail -f "$LOG" --pid=$!\n'
            ),
        }
    ),
    Example(  # the command pipes into its own tee: its output still reaches stdout
        {
            "launch.sh": "#!/bin/bash\nbash run.sh 2>&1 | tee logs/run.log\n",
            "run.sh": "#!/bin/bash\npython train.py 2>&1 | tee logs/train.log\n",
        }
    ),
    Example(  # nothing captures the script's output
        {
            "launch.sh": "#!/bin/bash\nbash run.sh\n",
            "run.sh": "#!/bin/bash\npython train.py > logs/train.log 2>&1\n",
        }
    ),
    Example(  # a short helper redirected to a file is not the job's output
        {
            "launch.sh": "#!/bin/bash\nbash run.sh | tee run.log\n",
            "run.sh": "#!/bin/bash\nnvidia-smi > gpus.txt\npython train.py\n",
        }
    ),
    Example(  # a Kaldi/ESPnet job runner's log: the recipe's design, no redirect to remove
        {
            "launch.sh": "#!/bin/bash\nset -o pipefail\nbash run.sh 2>&1 | tee logs/run.log\n",
            "run.sh": "#!/bin/bash\n. ./cmd.sh\n${cuda_cmd} --gpu 1 exp/log/train.log python3 train.py\n",
        }
    ),
]


def check(project) -> Iterator[Finding]:
    graph = project.graph
    for path, script in project.shell.items():
        callers = graph.capturing_callers(path)
        if not callers:
            continue
        followed = None
        for sink in redirected_long_runners(script):
            if followed is None:
                followed = _followed(script)
            if normalise(sink.path.text) in followed:
                continue  # `tail -f train.log` prints it back into the caller's log
            if not is_log_capture(project, sink.command):
                continue  # `python make_sad.py > data/x/vad`: the job's product, not its log (wespeaker)
            name = file_name(project, sink.path)
            # a `| tee` in a shell without pipefail would hide the job's failure (LL105)
            pipefail = "" if sink.command.pipefail else " after `set -o pipefail`"
            yield Finding(
                sink.redirect.location if sink.redirect else sink.path.location,
                f"`{sink.command.name}` writes its output to `{name}`, so the caller's "
                f"log only gets this script's own lines; let it write to stdout, or use `2>&1 | tee {name}`{pipefail}",
                tuple(c.capture_note() for c in callers),
            )


def _followed(script) -> set[str]:
    """The files the script prints as they grow (`tail -f train.log`, `-F`, `--follow`), on its
    own stdout: a job's log followed so, in the background, reaches the caller's pipe after all."""
    files = set()
    for command in script.effective_commands():
        if command.name != "tail" or files_written(command.stdout):
            continue
        options = [w.value or "" for w in command.args if (w.value or "").startswith("-")]
        if any(o in ("-f", "-F") or o.startswith("--follow") or (o[1:2] != "-" and "f" in o.lower()[1:]) for o in options):
            files.update(normalise(w.text) for w in command.args if not w.text.startswith("-"))
    return files
