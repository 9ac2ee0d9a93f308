"""## What it does
Finds `#SBATCH --output`/`--error` (or `-o`/`-e`), or the same options on an `sbatch` command
line, naming a file in a relative directory that does not exist in the project: not next to the
script, not under the project root. A directory named
after the job id (`logs/%j/out.log`) is reported wherever it is: it cannot exist before the job
does.

## Why is this bad?
SLURM opens the output file before the first line of the script runs, and it does not create
directories. If `logs/` is missing, the job waits its turn in the queue, then fails within a
second: `sacct` says FAILED and there is no log to read. A `mkdir -p logs` inside the job
script comes too late. Fresh clones hit this every time, because `logs/` is in `.gitignore`.

## Example
```bash
#!/bin/bash
#SBATCH --job-name=pretrain
#SBATCH --output=logs/%x-%j.out
mkdir -p logs
srun python -u train.py
```

## Use instead
Create the directory where the job is submitted, or commit it (`logs/.gitkeep`; with `git add -f`
when .gitignore hides `logs/`, which the message then says):
```bash
# submit.sh
mkdir -p logs && sbatch pretrain.sbatch
# pretrain.sbatch
#!/bin/bash
#SBATCH --job-name=pretrain
#SBATCH --output=logs/%x-%j.out
srun python -u train.py
```

## Details
- The options: `--output`, `--error`, `-o`, `-e`, and the abbreviations sbatch takes for them
  (`--out`, `--err`). Of an option given twice, only the last line counts, as sbatch replaces
  the first value with it (`#SBATCH -o a/%j.out`, then `#SBATCH -o b/%j.out`: only `b/` is
  opened); so does `--chdir`.
- Filename patterns (`%x`, `%j`, `%A`, `%a`, ...) are understood: `logs/%x-%j.out` needs
  `logs/`, and `logs/%x/%j.out` needs at least `logs/`; so does an expansion whose value is not
  known on an `sbatch` command line (`-o "arc/${size}/%j.out"` needs `arc/`, whatever `size` is;
  a path that starts with one, `-o "$OUT/%j.out"`, is not judged).
- A relative directory is looked for where `sbatch` may be run from: next to the job script, in
  a directory between it and the project root (mlcommons hpc's `cosmoflow/scripts/train.sh`, whose
  `logs/` is `cosmoflow/logs/`, submitted from `cosmoflow/`), or at the root; only next to it
  when every script of the project that submits it names it bare (`sbatch job.sh`: sbatch reads
  the file from where it runs, so `#SBATCH --output=../log/%j.txt` is the `log/` beside the job's
  directory, not one outside the project).
- Not reported: absolute directories, a job with `--chdir`, a directory that the submitting
  script creates (`mkdir -p logs` before `sbatch`), and a line that every `sbatch` of the project
  submitting the script overrides on its command line (`sbatch -o "$OUT/%j.out" job.sbatch`
  replaces `#SBATCH --output`, `sbatch --chdir=/scratch/run1` moves the relative path away). A
  submitter that does not, or a job with no submitter (submitted by hand), is judged by its own
  lines.
- An `sbatch` command of a script of the project (or of a Makefile's or a justfile's recipe)
  that gives `--output`/`--error` itself (`sbatch -o logs/%j.out job.sbatch`, `sbatch
  --output=runs/%A.out <<EOF`, `sbatch --wrap`) is judged the same way: SLURM opens that file before the job starts too, and it replaces the job's
  `#SBATCH` line. A job script `sbatch` reads from a heredoc (`sbatch <<EOF`) has its `#SBATCH`
  lines read as this shell hands them over (an unquoted heredoc's `$LOG` expanded), before the
  command line's options, which override them. Its relative path is relative to where the command runs: where the script's
  `cd`s lead, else next to the script or the project root; a `mkdir` of the directory (or of a
  variable, unless the parts written out of its path name other directories: `mkdir -p
  $HOME/cfg` makes a `cfg`, not `logs/`) in the same script makes it. Not judged: after a `cd` to a place not known here, on
  another host (`ssh login 'sbatch ...'`), with a `--chdir` on the command line or in the
  submitted script's `#SBATCH` lines; words after the script are the job's arguments.
- A directory named after the job id (`logs/%j/out.log`, `%A`, `%J`) is reported wherever it is,
  absolute or not: no job id is known before submission, so no one can have made that directory
  when SLURM opens the file. Other patterns in a directory (`%x`, `%u`, `%N`, `%a`) stay silent:
  `logs/%x/` can be made ahead of time for a job name.
- One finding for each directory, at its first line: `--output` and `--error` in the same missing
  directory (the same file, or `logs/%j.out` and `logs/%j.err`) have one cause and one fix, and the
  later line is the finding's related location.

## References
- sbatch(1), `--output`, `--error`, `--chdir`, and *filename pattern* (`%j`, `%x`, `%A`, `%a`,
  `%N`, `%u`). Options on the command line take precedence over `#SBATCH` lines, and sbatch sets
  each option it reads in turn, a later value replacing an earlier one.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from functools import partial

from launchlint.graph import SBATCH_FLAGS, directories_above, job_operands
from launchlint.launches import directory_changes, moved_before, start_directory
from launchlint.model import Finding, Location, Related, Severity
from launchlint.paths import has_format_field, is_pattern, joined
from launchlint.rulekit import Example
from launchlint.shellfacts import Command, Directive, Word

CODE = "LL109"
NAME = "sbatch-log-dir-missing"
SEVERITY = Severity.ERROR
SUMMARY = "#SBATCH or sbatch --output/--error in a directory that does not exist: the job fails with no log"

LOG_OPTIONS = {"--output", "--error", "-o", "-e"}
CHDIR_OPTIONS = {"--chdir", "-D"}
LONG_NAMES = {"-o": "--output", "-e": "--error", "-D": "--chdir"}

INVALID = [
    Example(  # an `sbatch` line of a justfile's `#!` recipe, continued, parameters unknown (pytorch_connectomics)
        {
            "justfile": (
                "slurm partition cmd:\n    #!/usr/bin/env bash\n    sbatch --job-name=\"pytc_{{cmd}}\" \\\n"
                "           --partition={{partition}} \\\n           --output=slurm_outputs/slurm-%j.out \\\n"
                "           --error=slurm_outputs/slurm-%j.err \\\n           --wrap=\"just {{cmd}}\"\n"
            ),
        },
        ["LL109 justfile:5"],
    ),
    Example(  # a job every submitter names bare runs from its own directory: `../log/` is the one beside it
        {
            "exp/a/submit.sh": "#!/bin/bash\nfor i in 0 1; do\n  sbatch job.sh $i\ndone\n",
            "exp/a/job.sh": "#!/bin/bash\n#SBATCH --output=../log/%j.txt\npython job.py --split $1\n",
            "exp/a/job.py": "print(1)\n",
            "top.sh": "#!/bin/bash\n#SBATCH --output=../log/%j.txt\npython exp/a/job.py\n",
        },
        ["LL109 exp/a/job.sh:2"],
    ),
    Example(  # the submitter's `mkdir` of a path not known makes a directory of another name (ai2cm's ace)
        {
            "submit.sh": "#!/bin/bash\nmkdir -p $HOME/cfg ~/runs/ ${SCRATCH}/cfg/${UUID}\nsbatch sb/job.sh\n",
            "sb/job.sh": "#!/bin/bash\n#SBATCH --output=joblogs/%j.out\nsrun python train.py\n",
        },
        ["LL109 sb/job.sh:2"],
    ),
    Example(  # an abbreviated option: getopt_long takes `--err` for `--error`
        {"job.sbatch": "#!/bin/bash\n#SBATCH --err=errs/%x-%j.err\n#SBATCH --out outs/%x-%j.out\nsrun python t.py\n"},
        ["LL109 job.sbatch:2", "LL109 job.sbatch:3"],
    ),
    Example(  # one finding for each directory: `--error`'s file in it, the same or another, is related
        {
            "a.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%x-%j.out\n#SBATCH --error=logs/%x-%j.out\nsrun python t.py\n",
            "b.sbatch": "#!/bin/bash\n#SBATCH -o slurm_logs/%j.out\n#SBATCH -e slurm_logs/%j.err\nsrun python t.py\n",
            "c.sbatch": "#!/bin/bash\n#SBATCH -o runs/%j/out.log\n#SBATCH -e runs/%j/err.log\nsrun python t.py\n",
        },
        ["LL109 a.sbatch:2", "LL109 b.sbatch:2", "LL109 c.sbatch:2"],
    ),
    Example(
        {
            "pretrain.sbatch": (
                "#!/bin/bash\n#SBATCH --job-name=gpt\n#SBATCH --output=logs/%x-%j.out\n"
                "mkdir -p logs\nsrun python train.py\n"
            )
        },
        ["LL109 pretrain.sbatch:3"],
    ),
    Example(  # a directory per job id never exists before the job, even under an existing one
        {
            "multinode.sbatch": (
                "#!/bin/bash\n#SBATCH --output=slurm_logs/%j/%N.out\n"
                "#SBATCH --error=/scratch/%u/%5A_%a/err.log\nsrun python train.py\n"
            ),
            "slurm_logs/.gitkeep": "",
        },
        ["LL109 multinode.sbatch:2", "LL109 multinode.sbatch:3"],
    ),
    Example(  # short options, separate values, array patterns, a pattern directory
        {
            "jobs/sweep.sh": (
                "#!/bin/bash\n#SBATCH -o out/%A_%a.log\n#SBATCH -e \"err/%x/%j.err\"\n"
                "#SBATCH --array=0-7\npython sweep.py\n"
            )
        },
        ["LL109 jobs/sweep.sh:2", "LL109 jobs/sweep.sh:3"],
    ),
    Example(  # of two `--output` lines, the last counts: sbatch replaces the first with it
        {
            "job.sbatch": (
                "#!/bin/bash\n#SBATCH -o ./samples/logs/%x_%j.out\n#SBATCH --error=/tmp/%j.err\n"
                "#SBATCH --output=watch/%x_%j.out\n#SBATCH -e errs/%j.err\nsrun python t.py\n"
            )
        },
        ["LL109 job.sbatch:4", "LL109 job.sbatch:5"],
    ),
    Example(  # an `sbatch` command line's own log path, relative to where it runs (here, or where it cds)
        {
            "submit.sh": (
                "#!/bin/bash\nsbatch --output=runs/%A_%a-%x.out -N 2 <<EOF\n#!/bin/bash\nsrun python t.py\nEOF\n"
                "JID=$(sbatch --parsable -o out/%j.log job.sbatch)\nsbatch -eerrs/%j.err --wrap 'python t.py'\n"
                "cd jobs && sbatch -o logs/%j.out run.sbatch\n"
            ),
            "job.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%j.out\nsrun python t.py\n",
            "jobs/run.sbatch": "#!/bin/bash\nsrun python t.py\n",
            "logs/.gitkeep": "",
        },
        ["LL109 submit.sh:2", "LL109 submit.sh:6", "LL109 submit.sh:7", "LL109 submit.sh:8"],
    ),
    Example(  # the `#SBATCH` lines of a job script `sbatch` reads from a heredoc, as this shell expands them
        {
            "submit.sh": (
                "#!/bin/bash\nLOG=runs\nsbatch <<EOF\n#!/bin/bash\n#SBATCH --output=$LOG/%j.out\nsrun python t.py\nEOF\n"
                "cd jobs && sbatch <<'EOF'\n#!/bin/bash\n#SBATCH -e errs/%j.err\nsrun python t.py\nEOF\n"
            ),
            "errs/.gitkeep": "",
            "jobs/t.py": "",
        },
        ["LL109 submit.sh:5", "LL109 submit.sh:10"],
    ),
    Example(  # a command line's path known up to an expansion: `arc/` is needed whatever `size` is (representation-engineering)
        {
            "scripts/launch.sh": (
                '#!/bin/bash\ntask=arc\nfor size in 7b 13b; do\n    sbatch --output="$task/${size}_new/%j.out" job.sh "$size"\n'
                'done\nsbatch -o "logs/$RUN/%j.out" job.sh\n'
            ),
            "scripts/job.sh": "#!/bin/bash\nsrun python eval.py\n",
        },
        ["LL109 scripts/launch.sh:4", "LL109 scripts/launch.sh:6"],
    ),
    Example(  # the command line overrides --error only, or one submitter of two overrides it
        {
            "submit.sh": "#!/bin/bash\nsbatch -e /tmp/%j.err a.sbatch\nsbatch -o /tmp/%j.out b.sbatch\nsbatch b.sbatch\n",
            "a.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%j.out\n#SBATCH --error=logs/%j.err\n",
            "b.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%j.out\n",
        },
        ["LL109 a.sbatch:2", "LL109 b.sbatch:2"],
    ),
    Example(  # the options in an array that an if's arm appends to (`--dependency`): those it had are read
        {
            "submit.sh": (
                '#!/bin/bash\nlog="./logs/eval/%x-%j.out"\nargs=(--job-name=eval --output="$log" --requeue)\n'
                'if [[ -n "$after" ]]; then\n    args+=(--dependency="afterok:$after")\nfi\n'
                'sbatch "${args[@]}" --wrap="bash eval.sh"\n'
            ),
            "eval.sh": "#!/bin/bash\nsrun python eval.py\n",
        },
        ["LL109 submit.sh:3"],
    ),
]

VALID = [
    Example(  # a justfile recipe's earlier line makes the directory (each line its own shell, one disk)
        {"justfile": "slurm:\n    @mkdir -p slurm_outputs\n    -sbatch --output=slurm_outputs/%j.out --wrap 'python t.py'\n"}
    ),
    Example(  # a `mkdir` of a path not known may make the directory: a variable, or a path ending in its name
        {
            "a.sh": "#!/bin/bash\nmkdir -p \"$LOG_DIR\"\nsbatch job.sh\n",
            "b.sh": "#!/bin/bash\nmkdir -p $SCRATCH/joblogs/old\nsbatch job.sh\n",
            "c.sh": "#!/bin/bash\nmkdir -p ${OUT}/${RUN} ./$LOGS/\nsbatch job.sh\n",
            "job.sh": "#!/bin/bash\n#SBATCH --output=joblogs/%j.out\nsrun python train.py\n",
        }
    ),
    Example(  # a job file that a program fills in with `str.format` before it submits it: its fields name no file
        {
            "job_template.sh": (
                "#!/bin/bash\n#SBATCH --output={log_dir}/slurm-%j.out\n"
                "srun python main_{script}.py --config {config_dir}/base.yaml\n"
            ),
            "main_train.py": "print('train')\n",
        }
    ),
    Example(  # SLURM stops at a line that is no comment, a merge's conflict marker too (PELICAN's job files)
        {
            "job.sbatch": (
                "#!/bin/bash\n#SBATCH --job-name=x\n<<<<<<< Updated upstream\n#SBATCH --output=./out/%j.out\n"
                "=======\n#SBATCH --output=./out2/%j.out\n>>>>>>> Stashed changes\nsrun python -u train.py\n"
            ),
        }
    ),
    Example(  # a placeholder the user replaces (cryoem-computing's slurm-template.sh)
        {"slurm-template.sh": "#!/bin/bash\n## replace <placeholders>\n#SBATCH --output=</path/to/your/dir/run.log>\nsrun python t.py\n"}
    ),
    Example(  # the directory exists (a committed .gitkeep), next to the script or at the root
        {
            "train.sbatch": (
                "#!/bin/bash\n#SBATCH --output=logs/%x-%j.out\n#SBATCH --error=logs/%x-%j.err\n"
                "srun python train.py\n"
            ),
            "logs/.gitkeep": "",
            "slurm/eval.sbatch": "#!/bin/bash\n#SBATCH -o logs/eval-%j.out\nsrun python eval.py\n",
        }
    ),
    Example(  # in a directory between the script and the root, which it is submitted from (mlcommons hpc's cosmoflow)
        {
            "part1/scripts/train.sh": "#!/bin/bash\n#SBATCH -o logs/%x-%j.out\n. scripts/env.sh\nsrun python -u train.py\n",
            "part1/scripts/env.sh": "export OMP_NUM_THREADS=8\n",
            "part1/logs/.gitkeep": "",
            "part1/train.py": "print(1)\n",
        }
    ),
    Example(  # absolute, the submit directory, --chdir, a pattern directory, a literal `%j` (`%%j`)
        {
            "a.sbatch": "#!/bin/bash\n#SBATCH --output=/scratch/logs/%j.out\n#SBATCH -e %x-%j.err\n",
            "b.sbatch": "#!/bin/bash\n#SBATCH --chdir=/work/run\n#SBATCH --output=logs/%j.out\n",
            "c.sbatch": "#!/bin/bash\n#SBATCH --output=%x/%j.out\n",
            "d.sbatch": "#!/bin/bash\n#SBATCH --output=/scratch/%u/%x/%N-%j.out\n#SBATCH -e %%j/e.log\n",
        }
    ),
    Example(  # the submitting script creates the directory first
        {
            "submit.sh": "#!/bin/bash\nmkdir -p logs/train\nsbatch train.sbatch\n",
            "train.sbatch": "#!/bin/bash\n#SBATCH --output=logs/train/%j.out\nsrun python train.py\n",
        }
    ),
    Example(  # the command line overrides the `#SBATCH` lines: --chdir, -o, --error (values unknown too)
        {
            "submit.sh": (
                "#!/bin/bash\nsbatch --chdir=/scratch/run1 a.sbatch\nsbatch -D \"$RUN\" a.sbatch\n"
                "sbatch --parsable -o \"$OUT/%j.out\" --error=/tmp/%j.err b.sbatch\n"
            ),
            "a.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%j.out\nsrun python train.py\n",
            "b.sbatch": "#!/bin/bash\n#SBATCH -o logs/%j.out\n#SBATCH -e logs/%j/err.log\nsrun python train.py\n",
        }
    ),
    Example(  # an `sbatch` command line's log path: made first, there, moved by --chdir (its own or the
        # job's), replaced by a later one, run where it is not known; a word after the script is the job's
        {
            "submit.sh": (
                "#!/bin/bash\nmkdir -p runs/a && sbatch -o runs/a/%j.out job.sbatch\nsbatch -o logs/%j.out job.sbatch\n"
                "sbatch --chdir=/scratch/r1 -o out/%j.out job.sbatch\nsbatch -o out/%j.out moved.sbatch\n"
                "sbatch -o out/%j.out --output=/tmp/%j.out job.sbatch\nsbatch job.sbatch -o out/%j.out\n"
                "ssh login 'sbatch -o out/%j.out job.sbatch'\ncd \"$WORK\" && sbatch -o out/%j.out job.sbatch\n"
            ),
            "job.sbatch": "#!/bin/bash\nsrun python t.py\n",
            "moved.sbatch": "#!/bin/bash\n#SBATCH --chdir=/scratch/r2\nsrun python t.py\n",
            "logs/.gitkeep": "",
        }
    ),
    Example(  # a heredoc job's `#SBATCH` lines: made first, overridden on the command line, after its first command
        {
            "submit.sh": (
                "#!/bin/bash\nmkdir -p logs\nsbatch <<EOF\n#!/bin/bash\n#SBATCH -o logs/%j.out\nsrun python t.py\nEOF\n"
                "sbatch -o /tmp/%j.out <<EOF\n#!/bin/bash\n#SBATCH --output=gone/%j.out\nsrun python t.py\nEOF\n"
                "sbatch <<EOF\n#!/bin/bash\nset -e\n#SBATCH --output=late/%j.out\nsrun python t.py\nEOF\n"
            ),
            "t.py": "",
        }
    ),
    Example(  # a command line's path known up to an expansion: made first, there, or starting with the expansion
        {
            "submit.sh": (
                '#!/bin/bash\nfor size in 7b 13b; do\n    mkdir -p "arc/${size}_new"\n'
                '    sbatch --output="arc/${size}_new/%j.out" job.sh\ndone\n'
                'sbatch -o "runs/$RUN/%j.out" job.sh\nsbatch -o "$LOGS/$RUN/%j.out" job.sh\n'
            ),
            "job.sh": "#!/bin/bash\nsrun python eval.py\n",
            "runs/.gitkeep": "",
        }
    ),
    Example(  # a line that a later one replaces (sbatch reads the last): its directory is never opened
        {
            "job.sbatch": (
                "#!/bin/bash\n#SBATCH -o ./samples/logs/%x_%j.out\n#SBATCH -e samples/%j/err.log\n"
                "#SBATCH --out=watch/%x_%j.out\n#SBATCH --error=watch/%x_%j.err\nsrun python t.py\n"
            ),
            "watch/.gitkeep": "",
        }
    ),
    Example(  # not the header any more: SLURM stops reading at the first command
        {"late.sbatch": "#!/bin/bash\nset -e\n#SBATCH --output=logs/%j.out\n"}
    ),
]


def check(project) -> Iterator[Finding]:
    changes = partial(directory_changes, project)  # a submitter's cds, read when it runs sbatch
    for path, script in project.shell.items():
        found: dict[str, tuple[str, Finding]] = {}  # by the directory it reports: one finding, the other lines related
        options = _last([o for d in script.directives if d.prefix == "SBATCH" for o in sbatch_options(d)]) if script.directives else []
        if options:  # a job script's header
            overridden = _submitted_with(project, path)
            # to a directory chosen at run time, or by the submitter
            moved = _moves(options) or "--chdir" in overridden
            _judge(
                [o for o in options if LONG_NAMES.get(o[0], o[0]) not in overridden],
                moved,
                partial(_there_for_job, project, path),
                partial(_mkdir, script, unknown=False),  # the reason a user believes the directory is there
                found,
                partial(_hidden, project, path),
            )
        for command in script.commands:
            if command.name == "sbatch":  # its own `--output`: relative to where it runs
                given = _last([o for d in command.job_directives for o in sbatch_options(d)] + _command_line(command))
                where = _submit_directory(project, path, command, changes)
                moved = where is None or _moves(given) or _moves_job(project, command)
                _judge(given, moved, partial(_there_for_submission, project, script, where or ()), lambda _: None, found, partial(_hidden, project, path))
        yield from (finding for _, finding in found.values())


def _judge(
    options, moved: bool, made: Callable[[str], bool], late: Callable[[str], Location | None], found: dict, hidden: Callable[[str], bool]
) -> None:
    """The findings of the `--output`/`--error` options SLURM opens, into `found` by directory:
    `moved` when a `--chdir` (or a place not known) takes a relative path away, `made(directory)`
    when it exists or a submitter makes it, `late(directory)` where the job makes it itself,
    `hidden(directory)` when .gitignore hides it (its `.gitkeep` then needs `git add -f`)."""
    for short, value, word in options:
        name = LONG_NAMES.get(short, short)
        if name not in LOG_OPTIONS:
            continue
        per_job = _per_job_directory(value)
        directory = per_job or (None if moved else _static_directory(value))
        if directory in found:  # `--error` in the directory `--output` is in
            first, finding = found[directory]
            again = f"`{name}` names the same file" if value == first else f"`{name}` opens `{value}` there too"
            found[directory] = first, finding._replace(related=finding.related + (Related(word.location, again),))
            continue
        if per_job is not None:
            found[per_job] = value, Finding(
                word.location,
                f"SLURM opens `{value}` before the job starts, and `{per_job}/`, named after the job id, "
                "cannot exist yet: the job fails without a log; put the id in the file's name instead",
            )
            continue
        if directory is None or made(directory):
            continue
        inside = late(directory)
        before = "the job's `mkdir` runs" if inside else "the job starts"
        found[directory] = value, Finding(
            word.location,
            f"SLURM opens `{value}` before {before}, "
            f"and `{directory}/` does not exist: the job fails without a log; create it before `sbatch`, or "
            f"commit `{directory}/.gitkeep`" + (" (`git add -f`: it is gitignored)" if hidden(directory) else ""),
            (Related(inside, "this `mkdir` runs after SLURM has opened the log: too late"),) if inside else (),
        )


# Long options a directive may abbreviate, as getopt_long takes any prefix that names one option
# of sbatch's: `--err` is `--error`, `--out` `--output` (`--o` is also `--overcommit`'s).
ABBREVIATED = {"--output": "--ou", "--error": "--er", "--chdir": "--ch"}


def sbatch_options(directive: Directive) -> list[tuple[str, str, Word]]:
    """(option, value, word holding the value): `--output=x`, `--output x`, `-o x`, `-ox`, and
    an unambiguous abbreviation of a long option as the option (`--err=x` is `--error`). A value
    not known before the job runs (`-o "$OUT/%j.out"` on an sbatch command line) is as written
    (`_static_directory` keeps what comes before its first expansion); a flag's is "", as it takes
    no value from the next word (`--exclusive`, but `--exclusive=user`)."""
    options = []
    words = directive.words
    for i, word in enumerate(words):
        text = _text(word)
        following = words[i + 1] if i + 1 < len(words) else None
        if text.startswith("--") and "=" in text:
            name, _, value = text.partition("=")
            options.append((_unabbreviated(name), value, word))
        elif text in SBATCH_FLAGS:
            options.append((text, "", word))
        elif text.startswith("-") and following is not None and not _text(following).startswith("-"):
            options.append((_unabbreviated(text), _text(following), following))
        elif len(text) > 2 and text[0] == "-" and text[1] != "-":
            options.append((text[:2], text[2:], word))
    return options


def _last(options: list[tuple[str, str, Word]]) -> list[tuple[str, str, Word]]:
    """Of an option given more than once, the last: sbatch reads the lines in order, and each
    value replaces the one before (`#SBATCH -o a/%j.out`, then `#SBATCH -o b/%j.out`: `b/`)."""
    last = {LONG_NAMES.get(name, name): i for i, (name, _, _) in enumerate(options)}
    return [option for i, option in enumerate(options) if last[LONG_NAMES.get(option[0], option[0])] == i]


def _moves(options: list[tuple[str, str, Word]]) -> bool:
    """A `--chdir`: the job runs, and opens its relative log paths, elsewhere."""
    return any(name in CHDIR_OPTIONS for name, _, _ in options)


def _text(word: Word) -> str:
    """A word as written when its value is not known: its option name still is (`--chdir="$RUN"`)."""
    return word.template if word.value is None else word.value


def _unabbreviated(name: str) -> str:
    for full, shortest in ABBREVIATED.items():
        if name.startswith(shortest) and full.startswith(name):
            return full
    return name


def _static_directory(value: str) -> str | None:
    """The part of the output file's directory that is known before the job runs.

    None when there is nothing to check: no directory (the submit directory), an absolute
    path, a path starting with a variable (SLURM does not expand it; a shell's value is not
    known), a placeholder for the user to fill in (`</path/to/your/dir/run.log>`), or a pattern at
    the top; a template's field (`{log_dir}/x.out`, filled in by a program
    before it submits the job) ends what is known, as a pattern does, and so does a shell
    expansion not known (`arc/${size}/%j.out` needs `arc/` whatever `size` is).
    """
    directory = posixpath.dirname(value)
    if not directory or value.startswith(("/", "~", "$", "<")):
        return None
    known = []
    for part in directory.split("/"):
        if "%" in part or has_format_field(part) or _expands(part):
            break
        known.append(part)
    static = posixpath.normpath("/".join(known)) if known else ""
    return static if static not in ("", ".") else None


# A filename pattern that stands for the job id (`%j`, `%J`, `%A`, with an optional width `%5j`).
JOB_ID_PATTERN = re.compile(r"%\d*[jJA]")


def _hidden(project, path: str, directory: str) -> bool:
    """Whether a .gitignore of the project hides the directory's `.gitkeep`, next to the script or
    from the root: the directory's own pattern (`logs/`) or one of its entries (linevd's `hpc/logs/*`)."""
    return any(project.gitignored(joined(base, directory) + "/.gitkeep") for base in {posixpath.dirname(path), ""})


def _per_job_directory(value: str) -> str | None:
    """The output file's directory up to the first part named after the job id: `logs/%j` of
    `logs/%j/%N.out`. None when no directory part holds one (`%%` is a literal percent sign)."""
    known = []
    parts = posixpath.dirname(value).split("/")
    for part in parts:
        known.append(part)
        if JOB_ID_PATTERN.search(part.replace("%%", "")):
            return "/".join(known)
    return None


def _there_for_job(project, path: str, directory: str) -> bool:
    """Next to the job script, in a directory above it, or under the project root (where `sbatch`
    may be run from), or made by a script that submits it. Only next to it when every script
    that submits it names it bare (`sbatch job.sh`: sbatch reads it from where it runs, its own
    directory; whisper-at's `../log/%j.txt`, helper-312)."""
    submitted = [c for c in project.graph.callers(path) if c.command.name == "sbatch"]
    if submitted and all(c.target.value and "/" not in c.target.value for c in submitted):
        bases: tuple[str, ...] = (posixpath.dirname(path),)
    else:
        bases = (posixpath.dirname(path), *directories_above(path), "")
    return _exists(project, bases, directory) or _created_by_submitter(project, path, directory)


def _there_for_submission(project, script, bases: tuple[str, ...], directory: str) -> bool:
    """Where an `sbatch` command runs, or made by its script (`mkdir -p logs`, or of a variable)."""
    return _exists(project, bases, directory) or _mkdir(script, directory, unknown=True) is not None


def _exists(project, bases: tuple[str, ...], directory: str) -> bool:
    """In one of the directories `sbatch` may be run from."""
    candidates = {joined(base, directory) for base in bases}
    # Outside the project ("../"): not ours to judge.
    return any(c.startswith("../") or project.on_disk(c, directory=True) for c in candidates)


def _command_line(command: Command) -> list[tuple[str, str, Word]]:
    """The options an `sbatch` command gives before its script (`sbatch -o logs/%j.out job.sbatch`),
    or all of them when the script comes on standard input (`sbatch -o logs/%j.out <<EOF`)."""
    words = command.words
    before = words[1 : len(words) - len(job_operands("sbatch", words[1:]))]
    return sbatch_options(Directive("sbatch", before, command.location))


def _submit_directory(project, path: str, command: Command, changes) -> tuple[str, ...] | None:
    """The directories an `sbatch` command of the script at `path` may run in, which its relative
    log paths are relative to: where the script's `cd`s lead, a step's `working-directory`, else
    next to the script or the root. None when not known: after a `cd` somewhere else, on another
    host, in a container."""
    if command.remote or project.shell[path].in_image or any(w.cwd_changed for w in command.wrappers):
        return None
    before = moved_before(changes(path), command)
    if None in before:
        return None
    declared, start = start_directory(command)
    if before:
        return (before[-1],)
    if declared:
        return (start,) if start is not None and project.on_disk(start, directory=True) else None
    return (posixpath.dirname(path), "")


def _moves_job(project, command: Command) -> bool:
    """The script an `sbatch` command submits has a `#SBATCH --chdir` line."""
    invocation = project.graph.invocation(command)
    job = project.shell.get(invocation.callee) if invocation is not None and invocation.callee else None
    return job is not None and _moves([o for d in job.directives if d.prefix == "SBATCH" for o in sbatch_options(d)])


def _submitted_with(project, script: str) -> set[str]:
    """The options (long names) that every `sbatch` of the project submitting the script gives
    on its command line (`sbatch --chdir=/scratch/run1 job.sbatch`, `sbatch -o /scratch/%j.out
    job.sbatch`): they override the script's `#SBATCH` lines. Empty when it is submitted by hand."""
    given: set[str] | None = None
    for invocation in project.graph.callers(script):
        if invocation.kind != "sbatch":
            continue
        names = {LONG_NAMES.get(n, n) for n, _, _ in _command_line(invocation.command)}
        given = names if given is None else given & names
    return given or set()


def _created_by_submitter(project, script: str, directory: str) -> bool:
    """A script that submits this job runs `mkdir` on the directory (or on a variable)."""
    for invocation in project.graph.callers(script):
        submitter = project.shell.get(invocation.caller)
        if invocation.kind == "sbatch" and submitter is not None and _mkdir(submitter, directory, unknown=True) is not None:
            return True
    return False


def _mkdir(script, directory: str, *, unknown: bool) -> Location | None:
    """Where the script runs `mkdir` on the directory (`mkdir -p logs`, or a directory in it),
    or, with `unknown`, on a value not known that may be it (`_may_make`). In a job script that
    `mkdir` runs only after SLURM has opened the file in it: too late."""
    for command in script.effective_commands():
        if command.name == "mkdir" and any(_may_make(w, directory) if w.value is None else _creates(w.value, directory) for w in command.args if unknown or w.value is not None):
            return command.location
    return None




def _expands(part: str) -> bool:
    """A part of a written path whose value is not known here: an expansion, a pattern."""
    return "$" in part or "`" in part or is_pattern(part)


def _may_make(word: Word, directory: str) -> bool:
    """Whether a `mkdir` of a value not known may make `directory`: `mkdir -p "$LOG_DIR"`,
    `$OUT/$RUN` or `$OUT/logs` may well, but not a path whose written-out parts name other
    directories, none of the directory's names (`mkdir -p $HOME/cfg` makes a `cfg`, and
    `${PSCRATCH}/fme-config/${UUID}` a directory under an `fme-config`, whatever the variables
    are, not the `joblogs/` of `#SBATCH --output=joblogs/%j.out`: ai2cm's ace)."""
    written = [p for p in word.template.split("/") if p not in ("", ".", "..") and not _expands(p)]
    names = set(directory.split("/"))
    return not written or any(part in names for part in written)


def _creates(argument: str, directory: str) -> bool:
    """`mkdir -p ARG` makes `directory`."""
    made = posixpath.normpath(argument)
    return made == directory or made.startswith(directory + "/")
