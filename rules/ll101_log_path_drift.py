"""## What it does
Finds two places that should name the same log but name near-identical, different paths: the
same directory (after variable resolution) and the same file name except for a run or version
token (`flex4`/`flex5`, `v2`/`v3`, `run7`/`run8`, a date, a counter). It compares what a
launcher tees or redirects to with the log its script or its trainer's config names, and what a
monitor (`tail -f`, `grep`, ...) reads with the logs that are written.

## Why is this bad?
Log names get bumped by hand between runs. Bump one place and not the other and you `tail` a
file that never grows, or the launcher's log stays empty while the real one sits next to it:
"No flex5 log: the start_training.sh still points to the old log name."

## Example
```bash
nohup python -u train.py > /workspace/train_flex5.log 2>&1 &
tail -f /workspace/train_flex4.log
```

## Use instead
Name the log once, in one variable (or in the launcher only):
```bash
LOG=/workspace/train_flex5.log
nohup python -u train.py > "$LOG" 2>&1 &
tail -f "$LOG"
```

## Details
The pairs compared:
- a launcher's `tee`/redirect target and the log the script it starts writes (its `exec >`
  target, the file of its `exec > >(tee -a ...)`, or the redirect of its training command);
- a launcher's `tee`/redirect target and the log path in the YAML config its trainer is started
  with (`--config exp.yaml` holding `log_file`, `stdout`, or the directory keys `log_dir`,
  `logging_dir`, `output_dir`, `save_dir`, compared with the directory of the launcher's log);
- a monitor (`tail`, `less`, `cat`, `grep`, `head` of a log) reading a path that nothing in the
  project writes, and the paths that are written. A command whose output is kept in a file
  (`grep -v '^#' lex0.txt | sort > lex1.txt`) is a stage of data processing, not someone looking
  at a log; a path the project copies, moves or downloads (`cp`, `wget`, ...) is written.

Not reported:
- a script's log named from a default its caller overrides (`exec > "logs/${RUN:-run7}.log"`, run
  as `RUN=run8 bash start.sh | tee logs/run8.log`): the log is the caller's name, not the default;
- logs of different jobs (`exp7.log` and `exp7_eval.log`), or of two model sizes (`llama2-7b.log`
  and `llama2-70b.log`: a number followed by `b`, `m` or `k`);
- a monitor reading a log the launcher names to a program as an option's value (`python
  train.py --log_file logs/run2.log`): that program may write it;
- a monitor reading a file that is no log by LL106's names: a result (`cat eval/scores_v1.txt`
  next to `> eval/scores_v2.txt`, a `.json`).

The finding is on the stale name: the launcher's target, or the monitored path that nothing
writes; the other name is its related location.
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.graph import project_resolver
from launchlint.launches import decided_by_caller
from launchlint.logs import (
    LogPlace,
    LogPlaces,
    config_places,
    exec_sinks,
    exec_teed,
    files_written,
    handed_logs,
    looks_like_log,
    redirected_long_runners,
    written_paths,
)
from launchlint.model import Finding, Related, Severity
from launchlint.paths import shown
from launchlint.rulekit import Example
from launchlint.shellfacts import Word

CODE = "LL101"
NAME = "log-path-drift"
SEVERITY = Severity.WARNING
SUMMARY = "Two places name the same log with different run/version tokens"

MONITORS = {"tail", "less", "more", "cat", "head", "grep", "multitail"}

INVALID = [
    Example(  # the script tees its own output (`exec > >(tee -a ...)`, LL102's advice) into another name
        {
            "launch.sh": "#!/bin/bash\nset -o pipefail\nbash inner.sh 2>&1 | tee logs/exp_v2.log\n",
            "inner.sh": "#!/bin/bash\nexec > >(tee -a logs/exp_v3.log) 2>&1\npython -u train.py\n",
            "train.py": "print(1)\n",
        },
        ["LL101 launch.sh:3"],
    ),
    Example(
        {
            "launch.sh": 'tmux new-session -d "bash start.sh 2>&1 | tee /workspace/train_flex5.log"\n',
            "start.sh": "exec > /workspace/train_flex4.log 2>&1\npython train.py\n",
        },
        ["LL101 launch.sh:1"],
    ),
    Example(  # the trainer's config was bumped to exp7, the launcher still tees into exp6
        {
            "run.sh": "python train.py --config exp.yaml 2>&1 | tee runs/exp6/train.log\n",
            "exp.yaml": "lr: 0.001\ntrainer:\n  log_dir: runs/exp7\n",
        },
        ["LL101 run.sh:1"],
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
    Example(  # results, not logs, by LL106's names: a `.json`, a `.txt` its name calls a result
        {"eval.sh": "python eval.py > eval/scores_v2.txt\ncat eval/scores_v1.txt\npython eval.py > eval/m_v2.json\ncat eval/m_v1.json\n"}
    ),
    Example(  # the script's log is named from a default that the caller overrides with its own name
        {
            "launch.sh": "#!/bin/bash\nset -o pipefail\nRUN=run8 bash start.sh 2>&1 | tee logs/run8.log\n",
            "start.sh": '#!/bin/bash\nexec > "logs/${RUN:-run7}.log" 2>&1\npython -u train.py\n',
            "train.py": "print('step')\n",
        },
        [],
    ),
    Example(  # the same through a wrapper: the redirect is nohup's, the job python
        {
            "launch.sh": "#!/bin/bash\nset -o pipefail\nRUN=run8 bash start.sh 2>&1 | tee logs/run8.log\n",
            "start.sh": '#!/bin/bash\nnohup python -u train.py > "logs/${RUN:-run7}.log" 2>&1\n',
            "train.py": "print('step')\n",
        },
        [],
    ),
    Example(  # two models' logs (a size, not a run); a log the trainer is told to write itself
        {
            "run.sh": (
                "python -u train.py --model llama2-7b > logs/llama2-7b.log 2>&1 &\n"
                "python -u train.py > logs/run1.log 2>&1\npython -u train.py --log_file logs/run2.log\n"
            ),
            "watch.sh": "grep loss logs/llama2-70b.log\ntail -f logs/run2.log\n",
        }
    ),
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
    Example(  # the launcher's log sits in the config's log directory
        {
            "run.sh": "python train.py --config=exp.yaml 2>&1 | tee runs/exp7/train.log\n",
            "exp.yaml": "log_dir: runs/exp7\n",
            "old.yaml": "log_dir: runs/exp6\n",  # no launcher passes it: not a log sink
        }
    ),
    Example(  # other directory: another file, not a drifted one
        {"run.sh": "python a.py > /a/run1.log\n", "watch.sh": "tail -f /b/run2.log\n"}
    ),
    Example(  # stages of data processing: a copy made the first file, each stage's output is kept
        {
            "prep.sh": (
                "cp /src/lexicon.txt data/lex0.txt\n"
                "grep -v '^#' data/lex0.txt | sort > data/lex1.txt\n"
                "python fix.py -i data/lex1.txt -o data/lex2.txt\n"
                "cat data/lex2.txt | sort -u > data/lex3.txt\n"
            )
        }
    ),
]


def check(project) -> Iterator[Finding]:
    resolver = project_resolver(project)
    # The log paths of the configs each command is started with: asked by all three comparisons.
    configs = {
        id(command): config_places(project, resolver, path, command)
        for path, script in project.shell.items()
        for command in script.effective_commands()
    }
    yield from _launcher_vs_script(project, configs)
    yield from _trainer_vs_config(project, configs)
    yield from _monitor_vs_writers(project, configs)


def _launcher_vs_script(project, configs: dict[int, list[LogPlace]]) -> Iterator[Finding]:
    for invocation in project.graph.invocations:
        callee = invocation.callee or ""
        script = project.shell.get(callee)
        if script is None or invocation.kind != "shell":
            continue
        written = [
            LogPlace(sink.path, f"{callee} writes `{shown(sink.path.text)}`")
            for sink in exec_sinks(script) + exec_teed(script) + redirected_long_runners(script)
            if not decided_by_caller(project, callee, sink.defaults, invocation)
        ]
        written += [place for command in script.effective_commands() for place in configs[id(command)]]
        yield from _stale(invocation.command.stdout.file_targets(), written, "this launcher logs to")


def _trainer_vs_config(project, configs: dict[int, list[LogPlace]]) -> Iterator[Finding]:
    """`python train.py --config exp.yaml | tee logs/exp6/train.log`, the config says exp7."""
    for script in project.shell.values():
        for command in script.effective_commands():
            places = configs[id(command)]
            if places:
                yield from _stale(command.stdout.file_targets(), places, f"`{command.name}` logs to")


def _stale(wanted: list[Word], written: list[LogPlace], logs_to: str) -> Iterator[Finding]:
    """The targets (of a launcher, or of the command a config is given to) that name a written
    log with another run token."""
    places = LogPlaces(written)
    if any(places.holds(target.text) for target in wanted):
        return
    for target in wanted:
        place = places.drifted_from(target.text)
        if place is not None:
            yield Finding(
                target.location,
                f"{logs_to} `{shown(target.text)}`, but {place.said}: one of the two names is stale; "
                "name the log once, in one variable",
                (Related(place.path.location, f"{place.said} here"),),
            )


def _monitor_vs_writers(project, configs: dict[int, list[LogPlace]]) -> Iterator[Finding]:
    monitors = [c for script in project.shell.values() for c in script.effective_commands() if c.name in MONITORS]
    if not monitors:  # most projects: no need to collect what everything writes
        return
    written = [
        LogPlace(word, f"`{shown(word.text)}` is written")
        for script in project.shell.values()
        for word in written_paths(script)
    ]
    written += [place for places in configs.values() for place in places]
    places = LogPlaces(written)
    # A log named to a program (`--log_file logs/run2.log`) may be written by it: not stale, but
    # no writer to point at either, since the program may as well read it. Collected only when a
    # monitor reads a drifted name (most projects: never).
    handed = None
    for command in monitors:
        if files_written(command.stdout):  # its output is kept: data processing, not a look at a log
            continue
        for word in command.args:
            text = word.text
            if text.startswith("-") or not looks_like_log(text) or places.holds(text) or project.made.holds(text, project):
                continue
            place = places.drifted_from(text)
            if place is None:
                continue
            if handed is None:
                handed = LogPlaces([LogPlace(w, "") for script in project.shell.values() for w in handed_logs(script)])
            if not handed.holds(text):
                yield Finding(
                    word.location,
                    f"`{command.name}` reads `{shown(text)}`, which nothing in the project writes; "
                    f"{place.said} instead",
                    (Related(place.path.location, f"{place.said} here"),),
                )
