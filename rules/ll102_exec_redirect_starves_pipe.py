"""## What it does
Finds a script that permanently redirects its own output (`exec >file`, `exec >>file`,
`exec &>file`, `exec 1>file`; `exec 2>file` when the caller merges stderr with `2>&1` or `|&`)
while some launcher in the project pipes or redirects that script's output (`| tee run.log`,
`> run.log`).

## Why is this bad?
After `exec > file` nothing the script or its children print reaches the caller's pipe. The
launcher's `tee` creates an empty log (or none at all), the real output lands in a file nobody
is watching, and when the job dies you look in the wrong place. This is the incident that
started launchlint: `tmux new-session -d "bash start_training.sh 2>&1 | tee flex5.log"` gave
no log, because `start_training.sh` did `exec > train_stdout_flex4.log 2>&1`.

## Example
```bash
# launch.sh
tmux new-session -d -s job "bash start.sh 2>&1 | tee /logs/run5.log"
# start.sh
exec > /logs/run5.log 2>&1
python -u train.py
```

## Use instead
Let one side own the log: drop the `exec` and keep the caller's `tee`,
```bash
# launch.sh
tmux new-session -d -s job "bash start.sh 2>&1 | tee /logs/run5.log"
# start.sh
python -u train.py
```
or keep a log of the script's own that still feeds the caller's pipe:
`exec > >(tee -a /logs/start.log) 2>&1`.

## Details
- A redirect into a process substitution that still writes to the original stdout (`exec >
  >(tee -a run.log) 2>&1`) keeps the caller's pipe fed and is not reported. One whose commands
  all write elsewhere (`>(tee -a run.log > /dev/null)`, `>(cat >> run.log)`) or to the system log
  (`>(logger -t train)`, `systemd-cat`) starves it as a file does, and so does `exec >/dev/null`:
  the caller's log stays empty all the same.
- An `exec` inside a shell function counts only when the script calls that function (by name,
  from a `trap` or an `eval`, or through a command named by its arguments, `"$@"`): the redirect
  happens at the call, and a helper nothing calls redirects nothing.
- A file the script sources in its own shell (`source ./logging.sh`) redirects the script: its
  `exec` is reported, with the script's callers. So is a script it runs with its output left as
  it is (`bash inner.sh` in an `outer.sh` that a launcher runs as `nohup bash outer.sh >
  outer.log 2>&1 &`): the launcher's log was to hold inner.sh's output too.
- A redirect the script undoes is not permanent: one in a subshell (`( exec > setup.log 2>&1; pip
  install -e . )`) ends with it, and `exec 3>&1; exec > setup.log; ...; exec 1>&3` restores the
  saved stream. Such a redirect is reported only when a long-running command (python, torchrun,
  srun, ...) runs while it is in effect: then the caller's log still misses the job's output.

## References
- Bash manual, *Redirections* and the `exec` builtin.
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.logs import exec_sinks, exec_swallowed, file_name
from launchlint.model import Finding, Severity
from launchlint.rulekit import Example

CODE = "LL102"
NAME = "exec-redirect-starves-pipe"
SEVERITY = Severity.ERROR
SUMMARY = "A script redirects itself with `exec >file` while its caller pipes its output"

INVALID = [
    Example(  # two levels down: a script the captured script runs with its output left as it is
        {
            "launch.sh": "#!/bin/bash\nnohup bash outer.sh > outer.log 2>&1 &\n",
            "outer.sh": "#!/bin/bash\necho start\nbash inner.sh\nbash quiet.sh > quiet.log\n",
            "inner.sh": "#!/bin/bash\nexec > inner.out 2>&1\npython train.py\n",
            "quiet.sh": "#!/bin/bash\nexec > quiet.out 2>&1\npython train.py\n",
        },
        ["LL102 inner.sh:2", "LL102 quiet.sh:2"],
    ),
    Example(
        {
            "launch.sh": '#!/bin/bash\ntmux new-session -d -s job "bash start.sh 2>&1 | tee /logs/run5.log"\n',
            "start.sh": "#!/bin/bash\ncd /work\nexec > /logs/run5.log 2>&1\npython train.py\n",
        },
        ["LL102 start.sh:3"],
    ),
    Example(  # only stderr is redirected, but the caller merges it into the pipe
        {
            "launch.sh": "#!/bin/bash\nbash job.sh |& tee job.log\n",
            "job.sh": "#!/bin/bash\nexec 2>errors.log\npython train.py\n",
        },
        ["LL102 job.sh:2"],
    ),
    Example(  # `|&` merges stderr after the caller's own redirects: `2>/dev/null` is undone
        {
            "launch.sh": "#!/bin/bash\nbash job.sh 2>/dev/null |& tee job.log\n",
            "job.sh": "#!/bin/bash\nexec 2>errors.log\npython train.py\n",
        },
        ["LL102 job.sh:2"],
    ),
    Example(  # a remote absolute path resolves to the project's only start_training.sh
        {
            "deploy/launch.sh": "#!/bin/bash\nssh gpu1 'bash /root/start_training.sh > /root/out.log 2>&1'\n",
            "deploy/start_training.sh": "#!/bin/bash\nexec &>> /root/train.log\ntorchrun --nproc_per_node 8 train.py\n",
        },
        ["LL102 deploy/start_training.sh:2"],
    ),
    Example(  # into process substitutions that do not pass the output on
        {
            "launch.sh": "#!/bin/bash\nbash a.sh 2>&1 | tee a.log\nbash b.sh > b.log\n",
            "a.sh": "#!/bin/bash\nexec > >(logger -t train) 2>&1\npython -u train.py\n",
            "b.sh": "#!/bin/bash\nexec > >(tee -a own.log > /dev/null)\npython -u train.py\n",
        },
        ["LL102 a.sh:2", "LL102 b.sh:2"],
    ),
    Example(  # run as the command itself, by a path from the launcher's own directory
        {
            "launch.sh": 'DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n$DIR/scripts/train.sh 2>&1 | tee launch.log\n',
            "scripts/train.sh": "#!/bin/bash\nexec >> /tmp/train.log 2>&1\npython -u train.py\n",
        },
        ["LL102 scripts/train.sh:2"],
    ),
    Example(  # a script with no extension, shell by its `#!` line, run by its path
        {
            "launch.sh": "#!/bin/bash\n./scripts/train 2>&1 | tee run.log\n",
            "scripts/train": "#!/usr/bin/env bash\nexec > /tmp/train.log 2>&1\npython -u train.py\n",
        },
        ["LL102 scripts/train:2"],
    ),
    Example(  # in a function: it redirects where the script calls it
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\nquiet() {\n  exec > own.log 2>&1\n}\nquiet\npython -u train.py\n",
        },
        ["LL102 start.sh:3"],
    ),
    Example(  # discarded: the caller's log is as empty as with a file
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\nexec >/dev/null 2>&1\npython -u train.py\n",
        },
        ["LL102 start.sh:2"],
    ),
    Example(  # in a file the script sources: it runs in the script's shell
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\nsource ./logging.sh\npython -u train.py\n",
            "logging.sh": "exec > /tmp/inner.log 2>&1\n",
        },
        ["LL102 logging.sh:1"],
    ),
    Example(  # a subshell's redirect, with the job in it
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\n( exec > train.log 2>&1; python -u train.py )\necho done\n",
        },
        ["LL102 start.sh:2"],
    ),
    Example(  # the stream is restored, but only after the job wrote to the file
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\nexec 3>&1\nexec > train.log 2>&1\npython -u train.py\nexec 1>&3\necho done\n",
        },
        ["LL102 start.sh:3"],
    ),
]

VALID = [
    Example(  # process substitution: output still reaches the caller's tee
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\nexec > >(tee -a own.log) 2>&1\npython train.py\n",
        }
    ),
    Example(  # nobody captures the script's output: its exec is the only log
        {
            "launch.sh": "#!/bin/bash\nnohup bash start.sh > /dev/null 2>&1 &\n",
            "start.sh": "#!/bin/bash\nexec > run.log 2>&1\npython train.py\n",
        }
    ),
    Example(  # python runs a launcher's program with no extension, whatever its `#!` line says
        {
            "launch.sh": "#!/bin/bash\ntorchrun --nproc_per_node 2 scripts/train 2>&1 | tee run.log\n",
            "scripts/train": "#!/bin/bash\nexec > /tmp/train.log 2>&1\npython -u train.py\n",
        }
    ),
    Example(  # stderr only, and the caller does not merge stderr into its pipe; stdin
        {
            "launch.sh": "#!/bin/bash\nbash job.sh | tee job.log\nbash quiet.sh | tee quiet.log\n",
            "job.sh": "#!/bin/bash\nexec 2>errors.log\npython train.py\n",
            "quiet.sh": "#!/bin/bash\nexec </dev/null\nexec 2>/dev/null\npython train.py\n",
        }
    ),
    Example(  # `exec cmd` replaces the shell, it does not redirect it
        {
            "launch.sh": "#!/bin/bash\nbash job.sh | tee job.log\n",
            "job.sh": "#!/bin/bash\nexec python train.py\n",
        }
    ),
    Example(  # set-up quieted in a subshell, or with the stream saved and restored: the job reaches the caller
        {
            "launch.sh": "#!/bin/bash\nbash a.sh 2>&1 | tee a.log\nbash b.sh 2>&1 | tee b.log\n",
            "a.sh": "#!/bin/bash\n( exec > /tmp/setup.log 2>&1; pip install -e . )\npython -u train.py\n",
            "b.sh": (
                "#!/bin/bash\nexec 3>&1 4>&2\nexec > /tmp/setup.log 2>&1\npip install -r requirements.txt\n"
                "exec 1>&3 2>&4\npython -u train.py\n"
            ),
        }
    ),
    Example(  # sourced where its output is captured, or in another shell
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\nv=$(source ./logging.sh; echo 1)\nbash -c 'source ./logging.sh'\npython -u train.py\n",
            "logging.sh": "exec > /tmp/inner.log 2>&1\n",
        }
    ),
    Example(  # a function the script never calls redirects nothing
        {
            "launch.sh": "#!/bin/bash\nbash start.sh 2>&1 | tee run.log\n",
            "start.sh": "#!/bin/bash\nquiet() {\n  exec > own.log 2>&1\n}\npython -u train.py\n",
        }
    ),
]


def check(project) -> Iterator[Finding]:
    graph = project.graph
    for path, script in project.shell.items():
        callers = graph.capturing_callers(path)
        if not callers:
            continue
        for sink in (*exec_sinks(script), *exec_swallowed(script)):
            redirect = sink.redirect
            stdout = redirect.writes_stdout
            relevant = [c for c in callers if stdout or (redirect.writes_stderr and c.merges_stderr)]
            if not relevant:
                continue
            stream = "stdout" if stdout else "stderr"
            passes = ", which does not pass it on" if redirect.procsub else ""
            name = file_name(project, sink.path)
            yield Finding(
                sink.command.location,
                f"`exec` sends this script's {stream} to `{name}`{passes}, so the caller's "
                f"pipe/log gets {'nothing' if stdout else 'none of its errors'}; {_fix(name, stdout, redirect.procsub)}",
                tuple(c.capture_note() for c in relevant),
            )


def _fix(target: str, stdout: bool, procsub: bool) -> str:
    """Drop the `exec`, or keep the script's own log with a `tee` that still feeds the caller."""
    if procsub:
        return "drop the `exec`, or let the process substitution write to stdout too"
    if target == "/dev/null":
        return "drop the `exec`"
    both = f"exec > >(tee -a {target}) 2>&1" if stdout else f"exec 2> >(tee -a {target} >&2)"
    return f"drop the `exec`, or keep both with `{both}`"
