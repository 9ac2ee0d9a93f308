"""## What it does
Finds `cmd 2>&1 >file`: stderr is duplicated onto stdout *before* stdout is pointed at the file.
The redirects of a group, a subshell or a loop (`{ ...; } 2>&1 > log`, `done 2>&1 > log`) are
read the same way. So is `python train.py | tee 2>&1 train.log`: the `2>&1` there is tee's, and
the job's stderr never enters the pipe.

## Why is this bad?
Redirections run left to right. `2>&1` copies where stdout goes *now* (the terminal, or the
caller's pipe) and `>file` then moves only stdout. The log gets the progress lines, the
traceback goes to a terminal nobody is watching, and the log of the run that crashed ends
mid-epoch with no error in it.

## Example
```bash
nohup python -u train.py 2>&1 > train.log &
```

## Use instead
```bash
nohup python -u train.py > train.log 2>&1 &
```

## Details
A `2>&1` written on the `tee` (or any redirect of tee's) merges tee's own stderr: a job in the
first stage whose stderr goes where the script's does (the terminal) leaves its traceback out of
the log. Reported when that job is long-running (python, torchrun, deepspeed, ...); a job whose
stderr already enters the pipe (`2>&1 |`, `|&`) or goes to a file is fine.

Not reported: `2>&1 >/dev/null`, and the same order inside a pipe or `$(...)`, the idiom that
keeps only stderr for the next stage (`err=$(cmd 2>&1 >out.log)`).

## Fix safety
Safe: the fix swaps the two redirections, written as they are, so stdout and stderr both go to
the file. It is offered only when nothing but blanks stands between them. For tee's `2>&1` it
moves the `2>&1` before the `|`, where it sends the job's stderr into the pipe; only when both
are written as they are, the `|` a plain one.

## References
- Bash manual, *Redirections*: "Note that the order of redirections is significant."
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.fixes import source, span
from launchlint.graph import is_long_running
from launchlint.logs import file_name
from launchlint.model import Edit, Finding, Fix, Severity
from launchlint.rulekit import Example
from launchlint.shellfacts import CAPTURED, INHERIT, PIPE, Pipeline, Redirect, Sink

CODE = "LL104"
NAME = "redirect-order"
SEVERITY = Severity.WARNING
SUMMARY = "`2>&1 >file` sends stderr to the old stdout, not to the file"

INVALID = [
    Example({"run.sh": "#!/bin/bash\nnohup python train.py 2>&1 > train.log &\n"}, ["LL104 run.sh:2"]),
    Example(  # the redirects of a group, a subshell or a loop are read in the same order
        {
            "run.sh": (
                "{\n  echo start\n  python train.py\n} 2>&1 > train.log\n(cd sub && python t.py) 2>&1 > sub.log\n"
                "for s in 1 2; do python t.py --seed $s; done 2>&1 >> seeds.log\n"
            )
        },
        ["LL104 run.sh:4", "LL104 run.sh:5", "LL104 run.sh:6"],
    ),
    Example(  # a continued command, appending
        {"run.sh": "torchrun --nproc_per_node 8 train.py \\\n  --lr 3e-4 2>&1 >> logs/run.log\n"},
        ["LL104 run.sh:2"],
    ),
    Example(  # the script's own streams: stderr stays on the terminal
        {"job.sh": "exec 2>&1 > /logs/job.log\npython train.py\n"},
        ["LL104 job.sh:1"],
    ),
    Example(  # nested strings: ssh, tmux, bash -c, and eval of a known string
        {
            "deploy.sh": (
                "ssh gpu1 'cd /w && python train.py 2>&1 > run.log'\n"
                "tmux new-session -d -s job \"bash start.sh 2>&1 >> start.log\"\n"
                "bash -c 'python eval.py 2>&1 > eval.log'\n"
                'CMD="python score.py 2>&1 > score.log"\neval "$CMD"\n'
            )
        },
        ["LL104 deploy.sh:1", "LL104 deploy.sh:2", "LL104 deploy.sh:3", "LL104 deploy.sh:5"],
    ),
    Example(  # tee's own stderr merged: the job's traceback stays on the terminal
        {
            "train.sh": (
                "#!/bin/bash\nset -o pipefail\ndeepspeed train.py --report_to none | tee 2>&1 logs/log.txt\n"
                "python eval.py \\\n  --split test | tee -a 2>&1 logs/eval.txt\n"
            )
        },
        ["LL104 train.sh:3", "LL104 train.sh:5"],
    ),
]

VALID = [
    Example({"run.sh": "nohup python train.py > train.log 2>&1 &\npython eval.py &> eval.log\n"}),
    Example({"run.sh": "{ echo start; python train.py; } > train.log 2>&1\n(python a.py; python b.py) 2>&1 >/dev/null | tee errors.log\n"}),
    Example(  # deliberate: keep stderr for the pipe or the capture, silence or log stdout
        {
            "run.sh": (
                "python check.py 2>&1 >/dev/null | grep -i error\n"
                "errors=$(python train.py 2>&1 > train.log)\n"
                "python train.py 2>&1 > train.log | tee errors.log\n"
            )
        }
    ),
    Example(  # `|&` adds its `2>&1` after the command's own redirects: stderr ends in the file too
        {"run.sh": "python train.py 2>&1 > train.log |& tee errors.log\n{ python eval.py; } 2>&1 > eval.log |& tee e.log\n"}
    ),
    Example(  # stderr is sent elsewhere afterwards: nothing lands on the old stdout
        {"run.sh": "python train.py 2>&1 > train.log 2> errors.log\n"}
    ),
    Example(  # the job's stderr enters the pipe, or has a file of its own; a short helper's
        {
            "run.sh": (
                "set -o pipefail\npython train.py 2>&1 | tee 2>&1 a.log\npython train.py |& tee 2>&1 b.log\n"
                "python train.py 2> err.log | tee 2>&1 c.log\necho start | tee 2>&1 d.log\n"
            )
        }
    ),
]


def check(project) -> Iterator[Finding]:
    for script in project.shell.values():
        written = [(c.redirects, c.stderr) for c in script.commands] + script.compound_redirects
        for redirects, stderr in written:
            found = misordered(redirects, stderr)
            if found is None:
                continue
            dup, to_file = found
            name = file_name(project, to_file.target)
            op = ">>" if to_file.op.endswith(">>") else ">"  # as written: `2>&1 >>log` appends
            yield Finding(
                dup.location,
                f"`2>&1` comes before `{op}{name}`, so stderr goes to the old stdout, not to {name}: put `2>&1` after the file",
                fix=_swap(project, dup, to_file),
            )
        for pipeline in script.pipelines:
            found = _merged_by_tee(pipeline)
            if found is None:
                continue
            dup, job = found
            files = [w.text for w in pipeline.last.args if not (w.value or "-").startswith("-")]
            yield Finding(
                dup.location,
                f"this `2>&1` merges `tee`'s own stderr, not `{job.name}`'s: its errors never reach "
                f"{f'`{files[0]}`' if files else 'the log'}; put `2>&1` before the `|`",
                fix=_before_pipe(project, dup, job),
            )


def _merged_by_tee(pipeline: Pipeline) -> tuple[Redirect, object] | None:
    """(tee's `2>&1`, the first stage's long-running job) when the job's stderr goes where the
    script's does: `python t.py | tee 2>&1 log` meant `python t.py 2>&1 | tee log`."""
    last = pipeline.last
    if last is None or last.name != "tee":
        return None
    dup = next((r for r in last.redirects if r.fd == 2 and r.dup == 1), None)
    job = next((c for c in pipeline.feeders(0) if c.stderr.kind == INHERIT and is_long_running(c)), None)
    return None if dup is None or job is None else (dup, job)


def misordered(redirects: list[Redirect], stderr: Sink) -> tuple[Redirect, Redirect] | None:
    """(`2>&1`, `>file`) when stderr is duplicated onto a stdout that is then moved to a file;
    `stderr`: where it ends up after them."""
    for i, dup in enumerate(redirects):
        if not (dup.fd == 2 and dup.dup == 1):
            continue
        if any(r.writes_stdout for r in redirects[:i]):
            return None  # stdout was already moved: `>a 2>&1 >b` puts stderr in a, on purpose
        later = redirects[i + 1 :]
        if any(r.writes_stderr for r in later):
            return None
        to_file = next((r for r in later if _stdout_to_file(r)), None)
        # `|&` adds its `2>&1` after them: `cmd 2>&1 > log |& tee` has stderr in the file too
        if to_file is None or stderr.kind in (PIPE, CAPTURED) or stderr.location == to_file.location:
            return None
        return dup, to_file
    return None


def _stdout_to_file(redirect: Redirect) -> bool:
    return (
        redirect.op in (">", ">>", ">|")
        and redirect.fd in (None, 1)
        and redirect.target is not None
        and not redirect.procsub
        and redirect.target.value != "/dev/null"
    )


def _before_pipe(project, dup: Redirect, job) -> Fix | None:
    """`job | tee 2>&1 log` -> `job 2>&1 | tee log`, when both are written as they are."""
    pipe = job.stdout.location
    if pipe is None or source(project, dup.location) != "2>&1" or source(project, pipe) != "|":
        return None
    text = project.index(dup.location.path).text
    dup_start, dup_end = span(project, dup.location)
    pipe_start = span(project, pipe)[0]
    if text[dup_start - 1 : dup_start] not in (" ", "\t") or pipe_start >= dup_start:
        return None
    return Fix(
        "move `2>&1` before the `|`",
        (Edit(dup.location.path, pipe_start, pipe_start, "2>&1 "), Edit(dup.location.path, dup_start - 1, dup_end, "")),
    )


def _swap(project, dup: Redirect, to_file: Redirect) -> Fix | None:
    """`2>&1 >file` -> `>file 2>&1`, both as written in the file."""
    dup_start, dup_end = span(project, dup.location)
    file_start, file_end = span(project, to_file.location)
    text = project.index(dup.location.path).text
    gap = text[dup_end:file_start]
    dup_text = source(project, dup.location)
    if dup_text != "2>&1" or not gap or gap.strip(" \t") or file_end <= file_start:
        return None  # not literally there (a variable's value), or something between them
    moved = text[file_start:file_end] + gap + dup_text
    return Fix("put `2>&1` after the file redirect", (Edit(dup.location.path, dup_start, file_end, moved),))
