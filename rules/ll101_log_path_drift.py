"""log-path-drift

## What it does
Finds two places that should name the same log but name near-identical, different paths: the
same directory (after variable resolution) and the same file name except for a run or version
token (`flex4`/`flex5`, `v2`/`v3`, `run7`/`run8`, a date, a counter). The pairs compared:

- a launcher's `tee`/redirect target and the log the script it starts writes (its `exec >`
  target, or the redirect of its training command);
- a monitor (`tail`, `less`, `cat`, `grep`, `head` of a log) reading a path that nothing in the
  project writes, and the paths that are written.

Logs of different jobs (`exp7.log` and `exp7_eval.log`) are not drift. The primary location is
the stale name: the launcher's target, or the monitored path that nothing writes.

## Why is this bad?
Log names get bumped by hand between runs. Bump one place and not the other and you `tail` a
file that never grows, or the launcher's log stays empty while the real one sits next to it:
"No flex5 log: the start_training.sh still points to the old log name."

## Example
```bash
# launch.sh
tmux new-session -d "bash start.sh 2>&1 | tee /workspace/train_flex5.log"
# start.sh
exec > /workspace/train_flex4.log 2>&1
```

## Use instead
Name the log once, in one variable or in the launcher only:
```bash
RUN=flex5
tmux new-session -d "RUN=$RUN bash start.sh 2>&1 | tee /workspace/train_$RUN.log"
```
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.logs import drifted, exec_sinks, looks_like_log, normalise, redirected_long_runners, written_paths
from launchlint.model import Finding, Related, Severity
from launchlint.rulekit import Example

CODE = "LL101"
NAME = "log-path-drift"
SEVERITY = Severity.WARNING
SUMMARY = "Two places name the same log with different run/version tokens"

MONITORS = {"tail", "less", "more", "cat", "head", "grep", "multitail"}

INVALID = [
    Example(
        {
            "launch.sh": 'tmux new-session -d "bash start.sh 2>&1 | tee /workspace/train_flex5.log"\n',
            "start.sh": "exec > /workspace/train_flex4.log 2>&1\npython train.py\n",
        },
        ["LL101 launch.sh:1"],
    ),
    Example(  # variables resolve before comparing; the monitor reads last week's run
        {
            "run.sh": "LOG_DIR=/data/logs\nRUN=v3\npython train.py 2>&1 | tee \"$LOG_DIR/exp_${RUN}.log\"\n",
            "watch.sh": "tail -f /data/logs/exp_v2.log\n",
        },
        ["LL101 watch.sh:1"],
    ),
]

VALID = [
    Example(  # different jobs, not drift
        {
            "run.sh": "python train.py | tee logs/exp7.log\npython eval.py | tee logs/exp7_eval.log\n",
            "watch.sh": "tail -f logs/exp7_eval.log\n",
        }
    ),
    Example(  # the same name everywhere
        {
            "launch.sh": 'tmux new-session -d "bash start.sh 2>&1 | tee /workspace/train_flex5.log"\n',
            "start.sh": "python train.py\n",
            "watch.sh": "tail -f /workspace/train_flex5.log\n",
        }
    ),
    Example(  # other directory: another file, not a drifted one
        {"run.sh": "python a.py > /a/run1.log\n", "watch.sh": "tail -f /b/run2.log\n"}
    ),
]


def check(project) -> Iterator[Finding]:
    yield from _launcher_vs_script(project)
    yield from _monitor_vs_writers(project)


def _launcher_vs_script(project) -> Iterator[Finding]:
    for invocation in project.graph.invocations:
        script = project.shell.get(invocation.callee or "")
        if script is None or invocation.kind != "shell":
            continue
        wanted = invocation.command.stdout.file_targets()
        written = [s.path for s in exec_sinks(script) + redirected_long_runners(script)]
        if {normalise(w.text) for w in wanted} & {normalise(w.text) for w in written}:
            continue
        for target in wanted:
            other = next((w for w in written if drifted(target.text, w.text)), None)
            if other is not None:
                yield Finding(
                    target.location,
                    f"the launcher logs to {target.text}, but {invocation.callee} writes "
                    f"{other.text}: one of the two names is stale",
                    (Related(other.location, f"{invocation.callee} writes {other.text} here"),),
                )


def _monitor_vs_writers(project) -> Iterator[Finding]:
    written = [w for script in project.shell.values() for w in written_paths(script)]
    names = {normalise(w.text) for w in written}
    for script in project.shell.values():
        for command in script.effective_commands():
            if command.name not in MONITORS:
                continue
            for word in command.args:
                text = word.text
                if text.startswith("-") or not looks_like_log(text) or normalise(text) in names:
                    continue
                other = next((w for w in written if drifted(text, w.text)), None)
                if other is not None:
                    yield Finding(
                        word.location,
                        f"`{command.name}` reads {text}, which nothing in the project writes; "
                        f"{other.text} is written instead",
                        (Related(other.location, f"{other.text} is written here"),),
                    )
