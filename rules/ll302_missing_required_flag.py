"""## What it does
Finds a launch of a Python program of the project that never passes an option the program's
parser requires: `add_argument("--data-path", required=True)`, a required mutually exclusive
group, a click option with `required=True`, a typer `Option(...)` without a default, or a field
without a default in a dataclass of an `HfArgumentParser`. When the option is written in the
lines after the launch but cut off from it (a line lacks its `\\`), the finding says so, and what
mends the line.

## Why is this bad?
argparse exits with `error: the following arguments are required: --data-path` before the
program does anything else. Under a scheduler that is a job that waited in the queue to fail in
a second, on every rank.

## Example
```bash
# launch.sh
torchrun --nproc_per_node 8 train.py --lr 3e-4
```
```python
# train.py
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float)
parser.add_argument("--data-path", required=True)
args = parser.parse_args()
```

## Use instead
```bash
# launch.sh
torchrun --nproc_per_node 8 train.py --lr 3e-4 --data-path /data/tokens
```
```python
# train.py
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float)
parser.add_argument("--data-path", required=True)
args = parser.parse_args()
```

## Details
- Required: a mutually exclusive group made with `required=True` counts when none of its options
  is passed (argparse's "one of the arguments --train --eval is required"); an HfArgumentParser
  field without a default counts, but not a `bool` or `Optional[bool]` one, which it makes
  `False` or `None`.
- Not required: an option added on some paths only, below where the parser is made: in a branch
  of an `if` (not `if __name__ == "__main__":`), a loop (but a `for` loop over a literal list or
  `range()` whose body has no `break`, `continue` or `return` of its own: it runs each time
  round), an `except:` or a `case` that does not parse it too; after a `return` of its function
  in one (`if mode == "eval": return parser.parse_args()`); or in a function of the module each
  call of which is so (`if mode == "train": add_training_args(parser)`). A required mutually
  exclusive group is judged where it is made. LL301 still counts such an option as defined. Nor is one that a helper whose name is
  imported from two modules (in an if's arms) adds in one of them only.
- A branch that parses the parser too requires the option (or the group made there) where it
  runs. When its `if` reads the parser's own options (`if not args.skip_training or not
  args.skip_rendering:`), that is where the launch passes none of them, if the test then holds
  with each switch at its default (a `store_true` False); a test that reads them otherwise (`if
  args.mode == "train":`) leaves it not required.
- A console script of the project's own packages run by its name (`fairseq-train data`) is its
  function's program, found as LL301 finds it (pyproject.toml, setup.cfg or setup.py, read and
  never run); a name two packages declare otherwise, or whose function is not found, is none.
- The program and its arguments are found as for LL301 (its path from the checkout's parent too,
  `proj/tools/x.py` after a workflow's `actions/checkout` into `proj`; on another host or in a
  container, not after a `cd` there into another checkout: `cd /srv/tools`, whose `export.py` is
  not `legacy/export.py`, or `cd $APP`; nor after such a static `cd /srv/tools` or `cd ~/other` in
  the launcher's own shell, until it goes back; arrays, continuation lines,
  `--flag=value`, unambiguous prefixes, subcommands; a required option of a subcommand counts
  when the launch names that subcommand). Switches grouped in one word count letter by letter
  (`-vd DIR` passes `-d`).
- `--local_rank` is passed by the launchers that append it to the program's arguments:
  `deepspeed` (unless `--no_local_rank`) and `python -m torch.distributed.launch` (unless
  `--use_env`; `--local-rank` since torch 2.0), not `torchrun`, which sets `LOCAL_RANK` in the
  environment.
- When the option (or one of the required group's) is written in the lines right after the
  launch, but in a command of its own because a line lacks its `\\` or a comment or a space
  follows it (`--lr 1e-4 \\ # tune`), or a line in the middle is commented out (`# --seed 1 \\`),
  the finding says so and points at it, and its fix mends that line: end it with `\\`, delete what
  follows its `\\` (the blanks, and a comment after them), or uncomment or delete the
  commented-out line. Written with its value (`--data-path="/data"`), that line is a command of
  that name too, as bash runs it (no assignment: its name is no identifier). In a file saved with
  Windows line ends every `\\` escapes a `\\r` and continues nothing: the fix is `dos2unix`.
- After a `cd` into another directory of the project (`cd autoencoder`, then `python train.py`),
  the program is that directory's file, named by its path (autoencoder/train.py), and the file the
  path names from where the launcher started (the root's `train.py`) may be the one meant. When
  that file takes the launch's whole command line (as LL301 says), the launch is one finding,
  naming every option missing, whose fix is that file's path from there ("`../train.py` takes this
  command line: use that path"); when its options are not all known but it defines a flag the
  launch passes and the program does not, each finding's fix offers that path too ("pass `--data`,
  or use `../train.py`").
- When the launch passes a flag the program does not define whose nearest defined flag (LL301's
  "did you mean") is the missing option, or one of the missing group's (`--result_file` for a
  required `--result_dir`), the finding is still reported, since the spelling that runs never
  passes the option, but its fix asks whether that flag is the option (`pass `--result_dir` (is
  `--result_file` a typo for it?)`) and its related locations point at the flag, where LL301
  reports it when the parser lets no unknown word through: one typo, two findings that say so.
  Only when every option of that parser is known: else the flag may be one we do not see.

A function that gives its arguments to the program (`train() { python train.py "$@"; }`) launches
it at each call with the call's words there (`train --lr 1`, as LL301 reads them): the finding
stands at the program's word in the function, and its related locations point at the call. So
does a script that gives its own arguments to the program (`python train.py "$@"` in run.sh, as
LL301 reads them): an option is passed when every script of the project that runs it passes it
(`bash run.sh --data d`, `sbatch run.sh --data d`), or may (a word not known: `bash run.sh
$ARGS`); the finding names the scripts that run it without (`when go.sh:3 runs run.sh`), each a
related location. A script that no script runs is judged as before: its `"$@"` may hold anything.

A variable that each arm of an if/case before the launch sets to a static string of its own
(`EXTRA="--layers 32"` in one arm, `EXTRA=""` in the other, then `python train.py $EXTRA`), read as
LL301 reads it, passes what each way through the statement gives it: an option that no way passes
is missing, and the finding names the statement. One that some ways pass and others do not is not
reported: this launch does pass it, on the ways whose conditions ask for it, and the rule's
finding is an option no run of the launch gets (an arm's condition may hold only where the
program is not meant to run: `[ "$MODE" = dry ]`). Nor is one that a way whose value is not
known (as LL301 leaves it) may pass.

Nothing is reported when the launch may pass more than we can see:
- `"$@"`, `$*`, an array or a variable whose value is unknown where a flag could be; a placeholder
  left in the line before an option (`--partition <partition_name> --config c.yaml`, which bash
  reads as `<partition_name` and `> --config`, stdout into a file named `--config`; the option on
  the line a `\\` continues to as well): the line is
  read as meant, the placeholder a word not known and `--config` an option, as LL301 judges it;
- a default its caller decides among the program's arguments, also one that made no word: a
  Makefile's `ARGS ?= --lr 1` or empty `ARGS ?=`, which `make train ARGS=...` or the environment
  replaces, or a justfile recipe's `*ARGS` (empty unless given) or `*ARGS='--lr 1'`, which `just
  train --lr 2` replaces; a shell `${EXTRA:---lr 1}` or `${EXTRA:-}` that a script running the launcher sets
  (see `launches.decided_by_caller`, which LL303, LL401 and LL402 ask too);
- the words `xargs` appends (`cat args.txt | xargs python train.py`; not with `-I {}`, which puts
  them where `{}` is);
- arguments read from a file: configargparse's parser (its config files and environment
  variables may give any option), `fromfile_prefix_chars`, HfArgumentParser's `parse_json_file`
  (under HF's examples' `if len(sys.argv) == 2 and sys.argv[1].endswith(".json"):`, only for a
  launch that passes no option: one that passes options takes the `else:` arm, which parses them),
  its `parse_args_into_dataclasses(args_file_flag="--config")` (each file the flag names gives
  options), or the `train.args` next to `train.py` that its `parse_args_into_dataclasses` reads
  first by default, when that file exists;
- `--help`.

## References
- Python `argparse`, *required*: "the following arguments are required".
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from functools import cache, partial

from launchlint.launches import (
    decided_by_caller,
    directory_changes,
    flags_added,
    passes_on,
    run_with,
    unworded_defaults,
)
from launchlint.model import Finding, Related, Severity
from launchlint.programs import (
    Meant,
    Reading,
    fits_none,
    group_of,
    launched,
    meant_before_cd,
    missing_required,
    read_launch,
    shown,
)
from launchlint.rulekit import Example, either, listed
from launchlint.rules.ll301_unknown_cli_flag import CONSOLE, MEGATRON
from launchlint.shellfacts import CutOff

CODE = "LL302"
NAME = "missing-required-flag"
SEVERITY = Severity.ERROR
SUMMARY = "A launcher never passes an option the Python program requires"

TRAIN = (
    "import argparse\n\nparser = argparse.ArgumentParser()\n"
    'parser.add_argument("--data-path", required=True)\n'
    'parser.add_argument("--lr", type=float, default=3e-4)\n'
    "args = parser.parse_args()\n"
)

INVALID = [
    Example(  # a console script of the project's packages, run by its name, requires what its function's parser does
        {
            **CONSOLE,
            "scripts/train.sh": "#!/bin/bash\nnohup fq-train data --lr 1 > train.log 2>&1 &\nfq-train data --arch x\n",
        },
        ["LL302 scripts/train.sh:2"],
    ),
    Example(  # a loop over a literal list runs its body each time round: each option it adds is required; not
        # where the body may skip the rest (`continue`)
        {
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nfor split in ('train', 'val'):\n"
                "    parser.add_argument(f'--{split}_file', required=True)\nfor s in ('p', 'q'):\n    if s == 'p':\n"
                "        continue\n    parser.add_argument(f'--{s}_dir', required=True)\nparser.parse_args()\n"
            ),
            "run.sh": "python train.py --train_file a --val_file b\npython train.py --train_file a\n",
        },
        ["LL302 run.sh:2"],
    ),
    Example(  # Megatron's `tasks/main.py`: its `extra_args_provider` requires `--task`, three calls before the parse
        {
            **MEGATRON,
            "tasks/main.py": (
                "from megatron.initialize import initialize_megatron\n\n\ndef get_tasks_args(parser):\n"
                "    group = parser.add_argument_group(title='tasks')\n    group.add_argument('--task', type=str, required=True)\n"
                "    return parser\n\n\nif __name__ == '__main__':\n    initialize_megatron(extra_args_provider=get_tasks_args)\n"
            ),
            "run.sh": "python tasks/main.py --task RACE --lr 1e-5\npython tasks/main.py --lr 1e-5\n",
        },
        ["LL302 run.sh:2"],
    ),
    Example(  # a helper called twice gives each caller a parser of its own: the training parser's required
        # `--arch` is not the preprocessing parser's (fairseq's `get_parser()`)
        {
            "options.py": (
                "import argparse\n\n\ndef get_parser():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--seed')\n    return parser\n\n\ndef add_model_args(parser):\n"
                "    parser.add_argument('--arch', required=True)\n\n\ndef get_training_parser():\n"
                "    parser = get_parser()\n    add_model_args(parser)\n    return parser\n\n\n"
                "def get_preprocessing_parser():\n    return get_parser()\n"
            ),
            "preprocess.py": "import options\n\noptions.get_preprocessing_parser().parse_args()\n",
            "train.py": "import options\n\noptions.get_training_parser().parse_args()\n",
            "run.sh": "python preprocess.py --seed 1\npython train.py --seed 1 --arch a\npython train.py --seed 1\n",
        },
        ["LL302 run.sh:3"],
    ),
    Example(  # a function's arguments are the program's at each call: the finding at the program, with the call
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data', required=True)\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\ntrain() {\n  python train.py "$@"\n}\ntrain --data d1 --lr 1\ntrain --lr 2\n',
        },
        ["LL302 run.sh:3"],
    ),
    Example(  # a script's own arguments are the program's as each script that runs it gives them: the finding at the
        # program, with each caller that gives none of them (`bash run.sh`, a job's `sbatch job.sh`)
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data', required=True)\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\npython train.py --lr 1 "$@"\n',
            "job.sh": '#!/bin/bash\n#SBATCH -N 1\nshift\nsrun python train.py "$@"\n',
            "go.sh": "#!/bin/bash\nbash run.sh --data d\nbash run.sh --lr 2\nsbatch job.sh --data d\n",
        },
        ["LL302 run.sh:2", "LL302 job.sh:4"],
    ),
    Example(  # `${x:+...}` of a value known: its words when set (not empty), else none (wekws's `${checkpoint:+--checkpoint ...}`)
        {
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--train_data', required=True)\n"
                "p.add_argument('--checkpoint')\np.parse_args()\n"
            ),
            "run.sh": (
                "#!/bin/bash\ncheckpoint=\npython train.py ${checkpoint:+--checkpoint $checkpoint}\n"
                "python train.py ${EXTRA:+--train_data $EXTRA}\n"
            ),
        },
        ["LL302 run.sh:3"],
    ),
    Example(  # HF's examples read a JSON file only when it is the one argument: a launch passing options takes the else arm
        {
            "run_qa.py": (
                "import os\nimport sys\nfrom dataclasses import dataclass\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass Args:\n    task: str\n    seed: int = 1\n\n\ndef main():\n    parser = HfArgumentParser(Args)\n"
                "    if len(sys.argv) == 2 and sys.argv[1].endswith('.json'):\n"
                "        (args,) = parser.parse_json_file(json_file=os.path.abspath(sys.argv[1]))\n"
                "    else:\n        (args,) = parser.parse_args_into_dataclasses()\n\n\nmain()\n"
            ),
            "run.sh": "python run_qa.py configs/qa.json\npython run_qa.py --seed 2\n",
        },
        ["LL302 run.sh:2"],
    ),
    Example(  # the first of two parsers requires its option: `parse_known_args` exits without it too
        {
            "train.py": (
                "import argparse\n\nearly = argparse.ArgumentParser(add_help=False)\nearly.add_argument('--config', required=True)\n"
                "late = argparse.ArgumentParser()\nlate.add_argument('--lr')\n"
                "known, rest = early.parse_known_args()\nargs = late.parse_args(rest)\n"
            ),
            "run.sh": "python train.py --config a.yaml --lr 1\npython train.py --lr 1\n",
        },
        ["LL302 run.sh:2"],
    ),
    Example(  # after `cd sub`, the root's train.py takes the launch whole: one finding for its two options
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('-s')\np.parse_args()\n",
            "sub/train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data', required=True)\n"
                "p.add_argument('--out', required=True)\np.parse_args()\n"
            ),
            "run.sh": "#!/bin/bash\ncd sub\npython train.py --data d --out o\npython train.py -s d\n",
        },
        ["LL302 run.sh:4"],
    ),
    Example(  # after an absolute `cd` to where the project is mounted (`/srv/app/legacy/export.py`), or back from one
        {
            "legacy/export.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out', required=True)\np.parse_args()\n",
            "deploy.sh": "(cd /srv/tools && make)\npython export.py\ncd /srv/app && python legacy/export.py --dst /tmp/m\n",
        },
        ["LL302 deploy.sh:2", "LL302 deploy.sh:3"],
    ),
    Example(  # a shell default in a Makefile's recipe is judged as in a script: no caller sets it
        {"train.py": TRAIN, "Makefile": "train:\n\tpython train.py $${EXTRA:-}\n"},
        ["LL302 Makefile:2"],
    ),
    Example(  # a Makefile's `=` is the Makefile's own value; a shell default no caller sets is what runs
        {
            "train.py": TRAIN,
            "Makefile": "ARGS = --lr 1\nLR ?= 1\nARGS2 := $(ARGS)\nLR = 2\ntrain:\n\tpython train.py $(ARGS)\n\tpython train.py $(ARGS2) --lr $(LR)\n",
            "run.sh": "#!/bin/bash\npython train.py ${EXTRA:---lr 1}\n",
        },
        ["LL302 Makefile:6", "LL302 Makefile:7", "LL302 run.sh:2"],
    ),
    Example(  # xargs puts what it reads where `{}` is (-I), or after `bash -c`'s string, not in the program's words
        {
            "train.py": TRAIN,
            "run.sh": "#!/bin/bash\nls *.txt | xargs -I{} python train.py --lr {}\ncat args.txt | xargs bash -c 'python train.py'\n",
        },
        ["LL302 run.sh:2", "LL302 run.sh:3"],
    ),
    Example(  # `python app` runs app/__main__.py; torchrun runs `train`, Python by its shebang
        {
            "app/__main__.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out', required=True)\np.parse_args()\n",
            "train": "#!/usr/bin/env python\nimport argparse\np = argparse.ArgumentParser()\np.add_argument('--out', required=True)\np.parse_args()\n",
            "run.sh": "#!/bin/bash\npython app --out o\npython app\ntorchrun --nproc_per_node 2 train --out o\ntorchrun --nproc_per_node 2 train\n",
        },
        ["LL302 run.sh:3", "LL302 run.sh:5"],
    ),
    Example(  # a workflow that checks the project out into `proj/` runs `proj/tools/x.py`: the project's `tools/x.py`
        {
            "tools/x.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out', required=True)\np.parse_args()\n",
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n"
                "        with:\n          path: proj\n      - run: python proj/tools/x.py --out o\n"
                "      - run: python proj/tools/x.py\n"
            ),
        },
        ["LL302 .github/workflows/ci.yml:10"],
    ),
    Example(  # a required option an adder adds that `from pkg import *` brings (the package's own star import)
        {
            "pkg/__init__.py": "from .parsers import *\n",
            "pkg/parsers.py": "def add_data(parser):\n    parser.add_argument('--data', required=True)\n    return parser\n",
            "train.py": "import argparse\nfrom pkg import *\n\np = argparse.ArgumentParser()\np = add_data(p)\np.parse_args()\n",
            "run.sh": "#!/bin/bash\npython train.py --data d\npython train.py\n",
        },
        ["LL302 run.sh:3"],
    ),
    Example(  # an array and continuation lines, but no --data-path
        {
            "train.py": TRAIN,
            "launch.sh": (
                "#!/bin/bash\nOPTIM=(--lr 1e-4)\ntorchrun --nproc_per_node 8 \\\n"
                '    train.py \\\n    "${OPTIM[@]}"\n'
            ),
        },
        ["LL302 launch.sh:4"],
    ),
    Example(  # a subcommand's own required option; HfArgumentParser fields without defaults
        {
            "cli.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nsub = parser.add_subparsers()\n"
                "train = sub.add_parser('train')\ntrain.add_argument('--config', required=True)\n"
                "args = parser.parse_args()\n"
            ),
            "sft.py": (
                "from dataclasses import dataclass\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass ScriptArguments:\n    dataset: str\n    epochs: int = 3\n\n\n"
                "(script_args,) = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()\n"
            ),
            "run.sh": "python cli.py train --verbose\npython sft.py --epochs=1\n",
        },
        ["LL302 run.sh:1", "LL302 run.sh:2"],
    ),
    Example(  # a required option added to a variable given a subcommand in each branch of an `if`: each requires it
        {
            "main.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nsub = parser.add_subparsers(dest='cmd')\n"
                "if len(sub.choices) == 0:\n    sp = sub.add_parser('cifar')\nelse:\n    sp = sub.add_parser('imagenet')\n"
                "sp.add_argument('--data', required=True)\nparser.parse_args()\n"
            ),
            "run.sh": "python main.py cifar\npython main.py imagenet\npython main.py cifar --data d\n",
        },
        ["LL302 run.sh:1", "LL302 run.sh:2"],
    ),
    Example(  # a click option, started on a remote host inside ssh
        {
            "tools/export.py": (
                "import click\n\n\n@click.command()\n@click.option('--out', required=True)\n"
                "def main(out):\n    pass\n\n\nif __name__ == '__main__':\n    main()\n"
            ),
            "deploy.sh": "ssh gpu1 'python /srv/tools/export.py --verbose'\n",
        },
        ["LL302 deploy.sh:1"],
    ),
    Example(  # a typer option without a default
        {
            "cli.py": (
                "import typer\n\n\ndef main(out: str = typer.Option(..., '--out'), steps: int = 10):\n"
                "    pass\n\n\ntyper.run(main)\n"
            ),
            "run.sh": "python cli.py --steps 5\n",
        },
        ["LL302 run.sh:1"],
    ),
    Example(  # its own parser, handed to an imported helper that parses it (another parser of that module too)
        {
            "common.py": (
                "import argparse\n\n\ndef add_common(parser):\n    parser.add_argument('--lr')\n    return parser.parse_args()\n\n\n"
                "def main():\n    print(add_common(argparse.ArgumentParser()))\n"
            ),
            "evaluate.py": (
                "import argparse\n\nfrom common import add_common\n\n\ndef build():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--out', required=True)\n    return add_common(parser)\n\n\nbuild()\n"
            ),
            "run.sh": "python evaluate.py --lr 0.2\n",
        },
        ["LL302 run.sh:1"],
    ),
    Example(  # `eval "$cmd"` runs each line of the string as a command: the second is not an option
        {
            "eval.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--model', required=True)\np.parse_args()\n",
            "run.sh": 'cmd="python eval.py --out $OUT\n  --model bge"\neval "$cmd"\n',
        },
        ["LL302 run.sh:3"],
    ),
    Example(  # torchrun passes the rank in the environment; so does torch.distributed.launch told `--use_env`
        {
            "main.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--local_rank', type=int, required=True)\np.parse_args()\n",
            "run.sh": (
                "torchrun --nproc_per_node 8 main.py\npython -m torch.distributed.launch --use_env main.py\n"
                "deepspeed --no_local_rank main.py\npython -m atorch.distributed.launch --nproc_per_node 8 main.py\n"
            ),
        },
        ["LL302 run.sh:1", "LL302 run.sh:2", "LL302 run.sh:3", "LL302 run.sh:4"],
    ),
    Example(  # `\ # note` escapes the space and starts a comment: the lines after it are commands of their own
        {"train.py": TRAIN, "run.sh": "python train.py \\\n    --lr 1e-4 \\ # tune\n    --data-path /data\n"},
        ["LL302 run.sh:1"],
    ),
    Example(  # a near miss of the required option, or of one of a required group's: LL301's word, named in the fix
        {
            "decode.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--result_dir', required=True)\np.parse_args()\n",
            "main.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nmode = p.add_mutually_exclusive_group(required=True)\n"
                "mode.add_argument('--train', action='store_true')\nmode.add_argument('--eval', action='store_true')\np.parse_args()\n"
            ),
            "run.sh": "#!/bin/bash\npython decode.py --result_file out/text\npython main.py --trian\n",
        },
        ["LL302 run.sh:2", "LL302 run.sh:3"],
    ),
    Example(  # a required mutually exclusive group none of whose options is passed
        {
            "main.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nmode = p.add_mutually_exclusive_group(required=True)\n"
                "mode.add_argument('--train', action='store_true')\nmode.add_argument('--eval', action='store_true')\n"
                "p.add_argument('--lr')\np.parse_args()\n"
            ),
            "run.sh": "python main.py --lr 1\nARGS=(--lr 2)\npython main.py \"${ARGS[@]}\"\n",
        },
        ["LL302 run.sh:1", "LL302 run.sh:3"],
    ),
    Example(  # the parser of a module the program imports, which parses when it is imported
        {
            "opts.py": "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--data', required=True)\nargs = p.parse_args()\n",
            "train.py": "import opts\n\nprint(opts.args.data)\n",
            "run.sh": "python train.py --data d\npython train.py\n",
        },
        ["LL302 run.sh:2"],
    ),
    Example(  # a branch the parser is made in too, or parsed in too; a function called under `if __name__ == "__main__":`
        {
            "both.py": (
                "import argparse\nimport sys\n\nif len(sys.argv) > 1:\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--data', required=True)\n    parser.parse_args()\n"
            ),
            "main.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\n\n\ndef main():\n"
                "    parser.add_argument('--data', required=True)\n    return parser.parse_args()\n\n\n"
                "if __name__ == '__main__':\n    main()\n"
            ),
            "cli.py": (
                "import argparse\nimport sys\n\n\ndef add_model(parser):\n    parser.add_argument('--model', required=True)\n\n\n"
                "def parse():\n    parser = argparse.ArgumentParser()\n    if '--list' in sys.argv:\n        sys.exit(0)\n"
                "    else:\n        add_model(parser)\n        return parser.parse_args()\n\n\nparse()\n"
            ),
            "run.sh": "python both.py --verbose\npython main.py\npython cli.py\n",
        },
        ["LL302 run.sh:1", "LL302 run.sh:2", "LL302 run.sh:3"],
    ),
    Example(  # an options class (pix2pix's): the instance's class adds to what its base's method builds and parses
        {
            "options.py": (
                "import argparse\n\n\nclass BaseOptions:\n    def initialize(self, parser):\n"
                "        parser.add_argument('--dataroot', required=True)\n        return parser\n\n"
                "    def parse(self):\n        parser = argparse.ArgumentParser()\n        self.initialize(parser)\n"
                "        return parser.parse_args()\n\n\nclass TrainOptions(BaseOptions):\n"
                "    def initialize(self, parser):\n        super().initialize(parser)\n"
                "        parser.add_argument('--phase', required=True)\n        return parser\n"
            ),
            "train.py": "from options import TrainOptions\n\nopt = TrainOptions().parse()\n",
            "run.sh": "python train.py --dataroot d --phase train\npython train.py --phase train\n",
        },
        ["LL302 run.sh:2"],
    ),
    Example(  # a required option and a required group's options added through bound methods (`arg = parser.add_argument`)
        {
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\narg = parser.add_argument\narg('--data', required=True)\n"
                "mode = parser.add_mutually_exclusive_group(required=True)\nadd_mode = mode.add_argument\n"
                "add_mode('--train', action='store_true')\nadd_mode('--eval', action='store_true')\nparser.parse_args()\n"
            ),
            "run.sh": "python train.py --data d --train\npython train.py --eval\npython train.py --data d\n",
        },
        ["LL302 run.sh:2", "LL302 run.sh:3"],
    ),
    Example(  # a required option added through a lambda that hands its arguments to `add_argument`
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nadd = lambda *a, **k: p.add_argument(*a, **k)\n"
                "add('--data', required=True)\np.parse_args()\n"
            ),
            "run.sh": "python train.py --data d\npython train.py\n",
        },
        ["LL302 run.sh:2"],
    ),
    Example(  # added and parsed in an `if` that reads the parser's own switches: required where the launch passes none of them
        {
            "full_eval.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--skip_training', action='store_true')\n"
                "p.add_argument('--skip_rendering', action='store_true')\nargs, _ = p.parse_known_args()\n"
                "if not args.skip_training or not args.skip_rendering:\n    p.add_argument('--data', required=True)\n"
                "    args = p.parse_args()\n"
            ),
            "render.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--dry', action='store_true')\n"
                "args, _ = p.parse_known_args()\nif args.dry:\n    print('dry run')\nelse:\n"
                "    p.add_argument('--out', required=True)\n    args = p.parse_args()\n"
            ),
            "run.sh": (
                "python full_eval.py --skip_training --skip_rendering\npython full_eval.py\n"
                "python render.py --dry\npython render.py\n"
            ),
        },
        ["LL302 run.sh:2", "LL302 run.sh:4"],
    ),
    Example(  # a variable each arm of an if/case sets to a static string: an option that no way through it passes
        {
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--layers')\n"
                "p.add_argument('--data', required=True)\np.parse_args()\n"
            ),
            "launch.sh": (
                'if [ "$SIZE" = big ]; then\n  EXTRA="--layers 32"\nelse\n  EXTRA=""\nfi\ntorchrun --nproc_per_node 8 train.py $EXTRA\n'
                'case "$1" in\n  big) MORE="--layers 32";;\n  *) MORE="--layers 2";;\nesac\npython train.py $MORE\n'
            ),
        },
        ["LL302 launch.sh:6", "LL302 launch.sh:11"],
    ),
    Example(  # a required group made and parsed in an `if` that reads the parser's own switch: where it is not passed
        {
            "eval.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--dry', action='store_true')\n"
                "args, _ = p.parse_known_args()\nif not args.dry:\n    split = p.add_mutually_exclusive_group(required=True)\n"
                "    split.add_argument('--val', action='store_true')\n    split.add_argument('--test', action='store_true')\n"
                "    p.parse_args()\n"
            ),
            "run.sh": "python eval.py --dry\npython eval.py\npython eval.py --val\n",
        },
        ["LL302 run.sh:2"],
    ),
]

VALID = [
    Example(  # a variable an if/case sets: an option one way passes, or a way whose value is not known may pass
        {
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--layers')\n"
                "p.add_argument('--data', required=True)\np.parse_args()\n"
            ),
            "launch.sh": (
                'if [ "$SIZE" = big ]; then\n  EXTRA="--data big --layers 32"\nelse\n  EXTRA="--layers 2"\nfi\npython train.py $EXTRA\n'
                'case "$1" in\n  big) MORE="--layers 32";;\n  *) MORE="--data $DATA";;\nesac\npython train.py $MORE\n'
                'ARGS="--data d"\ncase "$1" in\n  big) ARGS="--layers 32";;\n  *) usage;;\nesac\npython train.py $ARGS\n'
            ),
        }
    ),
    Example(  # `command -v` runs nothing; a console script name declared otherwise by two packages is no program
        {
            **CONSOLE,
            "tools/one/pyproject.toml": "[project.scripts]\nfq-train = 'one.cli:main'\n",
            "tools/one/one/cli.py": "import argparse\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n",
            "run.sh": "#!/bin/bash\nfq-train data\ncommand -v python fq_cli/train.py data\n",
        }
    ),
    Example(  # every call of the function passes it; one that prints its words launches nothing
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data', required=True)\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": (
                '#!/bin/bash\ntrain() {\n  python train.py "$@"\n}\ntrain --data d1 --lr 1\ntrain --lr 2 --data d2\n'
                'say() { echo "$@"; }\nsay python train.py --lr 3\n'
            ),
        }
    ),
    Example(  # every script that runs the launch's script gives it, or may (words not known); a script no script runs
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data', required=True)\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\npython train.py --lr 1 "$@"\n',
            "open.sh": '#!/bin/bash\nwhile getopts "g:" o; do :; done\npython train.py "$@"\n',
            "lone.sh": '#!/bin/bash\npython train.py "$@"\n',
            "go.sh": (
                '#!/bin/bash\nbash run.sh --data d\nsbatch run.sh --lr 2 --data=e\nbash run.sh $ARGS\nbash run.sh "$@"\n'
                "source run.sh\nbash open.sh --lr 1\n"
            ),
        }
    ),
    Example(  # a program a script downloads, not the project's namesake elsewhere (context-debias's NER example)
        {
            "src/preprocess.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--input', required=True)\np.parse_args()\n",
            "examples/ner/run.sh": (
                'wget "https://raw.githubusercontent.com/x/tools/master/scripts/preprocess.py"\n'
                "python3 preprocess.py train.txt.tmp bert-base-cased 128 > train.txt\n"
            ),
        }
    ),
    Example(  # two calls to Megatron's parse that pass two providers: which one runs is not known, each one's option is required by none
        {
            **MEGATRON,
            "tasks/main.py": (
                "import sys\nfrom megatron.initialize import initialize_megatron\n\n\ndef get_tasks_args(parser):\n"
                "    parser.add_argument('--task', type=str, required=True)\n    return parser\n\n\n"
                "def get_eval_args(parser):\n    parser.add_argument('--eval-task', type=str, required=True)\n    return parser\n\n\n"
                "if 'eval' in sys.argv[0]:\n    initialize_megatron(extra_args_provider=get_eval_args)\nelse:\n"
                "    initialize_megatron(extra_args_provider=get_tasks_args)\n"
            ),
            "run.sh": "python tasks/main.py --task RACE --lr 1e-5\n",
        }
    ),
    Example(  # an options subclass's method that nothing runs (an override's base, one nothing calls) requires nothing
        {
            "options/__init__.py": "",
            "options/base.py": (
                "import argparse\n\n\nclass BaseOptions:\n    def __init__(self):\n        self.parser = argparse.ArgumentParser()\n\n"
                "    def initialize(self):\n        self.parser.add_argument('--name')\n\n"
                "    def parse(self):\n        self.initialize()\n        return self.parser.parse_args()\n"
            ),
            "options/train.py": (
                "from .base import BaseOptions\n\n\nclass TrainOptions(BaseOptions):\n    def initialize(self):\n"
                "        BaseOptions.initialize(self)\n        self.parser.add_argument('--lr', required=True)\n\n"
                "    def initialize_eval(self):\n        self.parser.add_argument('--results_dir', required=True)\n\n\n"
                "class FinetuneOptions(TrainOptions):\n    def initialize(self):\n        BaseOptions.initialize(self)\n"
                "        self.parser.add_argument('--ft_lr')\n"
            ),
            "train.py": "from options.train import TrainOptions\n\nopt = TrainOptions().parse()\n",
            "finetune.py": "from options.train import FinetuneOptions\n\nopt = FinetuneOptions().parse()\n",
            "run.sh": "python train.py --lr 1\npython finetune.py --ft_lr 1\n",
        }
    ),
    Example(  # configargparse: a required option may come from its config file or the environment, also
        # when an imported function builds the parser (HAT's fairseq fork)
        {
            "main.py": (
                "import configargparse\n\np = configargparse.ArgParser(default_config_files=['conf.ini'])\n"
                "p.add_argument('--n_chunks', type=int, required=True, env_var='N_CHUNKS')\np.parse_args()\n"
            ),
            "opts.py": (
                "import configargparse\n\n\ndef get_parser():\n    parser = configargparse.ArgumentParser()\n"
                "    parser.add_argument('--configs', is_config_file=True)\n    parser.add_argument('--arch', required=True)\n"
                "    return parser\n"
            ),
            "preprocess.py": "import opts\n\nparser = opts.get_parser()\nparser.parse_args()\n",
            "run.sh": "python main.py\npython preprocess.py --configs c.yml\n",
        }
    ),
    Example(  # a word not known after an option of optional or several values may hold the required flag (diffai's `$1`)
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--multistep', nargs='?', const=True)\n"
                "p.add_argument('--models', nargs='*')\np.add_argument('-t', '--test-domain', required=True)\np.parse_args()\n"
            ),
            "run.sh": "python train.py --multistep $1\npython train.py --models a b $EXTRA\n",
        }
    ),
    Example(  # a helper that adds to the parser it is given and returns it, called by two builders (mLoRA's `_add_base_cmd`)
        {
            "cmd.py": (
                "import argparse\n\ndef _base(parser):\n    parser.add_argument('--base_model', required=True)\n    return parser\n\n"
                "def get_cmd_args():\n    parser = argparse.ArgumentParser()\n    parser = _base(parser)\n"
                "    parser.add_argument('--config', required=True)\n    return parser.parse_args()\n\n"
                "def get_server_cmd_args():\n    parser = argparse.ArgumentParser()\n    parser = _base(parser)\n"
                "    parser.add_argument('--root', required=True)\n    return parser.parse_args()\n"
            ),
            "train.py": "import cmd\n\nif __name__ == '__main__':\n    args = cmd.get_cmd_args()\n",
            "run.sh": "python train.py --base_model m --config c.yaml\n",
            "c.yaml": "a: 1\n",
        }
    ),
    Example(  # an imported module's parser under a main test joined by `and` to another: not parsed on import (AnyLoc)
        {
            "helper.py": (
                "import argparse, sys\ndef util(): return 1\nif __name__ == '__main__' and 'ipykernel' not in sys.argv[0]:\n"
                "    p = argparse.ArgumentParser()\n    p.add_argument('--image_path', required=True)\n    p.parse_args()\n"
            ),
            "run.py": "from helper import util\nprint(util())\n",
            "go.sh": "python run.py --foo 1\n",
        }
    ),
    Example(  # a placeholder left in the line (`<qos>`): bash reads `<qos` and `> --config`, but `--config` is meant (nwm)
        {
            "run.sh": (
                "python t.py --partition <partition_name> --qos <qos> --config c.yaml\npython t.py --qos <your qos> --config c.yaml\n"
                "python t.py --qos <qos> \\\n  --config c.yaml\n"  # the option on the line a `\\` continues to (ClinicalTransformerNER)
            ),
            "t.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--partition')\np.add_argument('--qos')\n"
                "p.add_argument('--config', required=True)\np.parse_args()\n"
            ),
            "c.yaml": "a: 1\n",
        }
    ),
    Example(  # a field a dataclass defines again, with a default, is not its base's required one
        {
            "train.py": (
                "from dataclasses import dataclass, field\n\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass DataArguments:\n    data_path: str = field(metadata={'help': 'data'})\n\n\n"
                "@dataclass\nclass LazyArguments(DataArguments):\n    data_path: str = 'data.json'\n\n\n"
                "(args,) = HfArgumentParser(LazyArguments).parse_args_into_dataclasses()\n"
            ),
            "run.sh": "python train.py\n",
        }
    ),
    Example(  # `parse_args_into_dataclasses(args_file_flag="--config")`: its own parser takes the flag, the file the fields
        {
            "train.py": (
                "from dataclasses import dataclass\n\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass Args:\n    model: str\n    config_name: str = ''\n\n\n"
                "(args,) = HfArgumentParser(Args).parse_args_into_dataclasses(args_file_flag='--config')\n"
            ),
            "run.args": "--model gpt2\n",
            "run.sh": "python train.py --config run.args\n",
        }
    ),
    Example(  # required only when `mode == "train"`: added in that branch, or by a helper only that branch calls
        {
            "pkg/__init__.py": "",
            "pkg/cfg.py": (
                "import argparse\n\n\ndef add_train(parser):\n    parser.add_argument('--out', required=True)\n    return parser\n\n\n"
                "def get_args(mode='eval'):\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--seed', type=int)\n"
                "    if mode == 'train':\n        parser = add_train(parser)\n    else:\n        parser.add_argument('--ckpt', required=True)\n"
                "    if mode == 'eval':\n        pass\n    elif mode == 'train':\n        parser.add_argument('--task', required=True)\n"
                "    return parser.parse_args()\n"
            ),
            "sample.py": "from pkg.cfg import get_args\n\nargs = get_args()\n",
            "train.py": "from pkg.cfg import get_args\n\nargs = get_args('train')\n",
            "run.sh": "python sample.py --seed 1 --ckpt c\npython train.py --seed 1 --out o --task t\n",
        }
    ),
    Example(  # a test that drives another module's `main(argv)` with words of its own: the parse reads
        # those, not the test's command line (a workflow's `python3 tests/test_sync.py`)
        {
            "scripts/sync_pins.py": (
                "import argparse\n\n\ndef main(argv=None):\n    ap = argparse.ArgumentParser()\n"
                "    mode = ap.add_mutually_exclusive_group(required=True)\n    mode.add_argument('--check', action='store_true')\n"
                "    mode.add_argument('--fix', action='store_true')\n    ap.add_argument('--dir', required=True)\n"
                "    ap.parse_args(argv)\n    return 0\n"
            ),
            "tests/test_sync_pins.py": (
                "import sys\n\nsys.path.insert(0, 'scripts')\nimport sync_pins as sync  # noqa: E402\n\n\n"
                "def test_check():\n    assert sync.main(['--check', '--dir', 'x']) == 0\n\n\n"
                "if __name__ == '__main__':\n    test_check()\n"
            ),
            "run.sh": "#!/bin/bash\npython3 tests/test_sync_pins.py --verbose\n",
        }
    ),    Example(  # one option of a required mutually exclusive group passed (a prefix too); words we cannot see;
        # a group that is not required
        {
            "main.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nmode = p.add_mutually_exclusive_group(required=True)\n"
                "mode.add_argument('--train', action='store_true')\nmode.add_argument('--eval', action='store_true')\n"
                "prec = p.add_mutually_exclusive_group()\nprec.add_argument('--fp16', action='store_true')\n"
                "p.add_argument('--lr')\np.parse_args()\n"
            ),
            "run.sh": "python main.py --train --lr 1\npython main.py --ev\npython main.py --lr 1 \"$@\"\npython main.py $EXTRA\n",
        }
    ),
    Example(  # bool fields with no default: HfArgumentParser makes them False (or None), not required
        {
            "run.sh": "#!/bin/bash\npython train.py --model gpt2\n",
            "train.py": (
                "from dataclasses import dataclass\nfrom typing import Optional\n\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass Args:\n    model: str\n    debug: bool\n    use_lora: Optional[bool]\n\n\n"
                "(args,) = HfArgumentParser(Args).parse_args_into_dataclasses()\n"
            ),
        }
    ),
    Example(  # HfArgumentParser reads `train.args` next to `train.py` first: the required field may be there
        {
            "run.sh": "#!/bin/bash\npython train.py --learning_rate 1e-4\n",
            "train.args": "--output_dir out/run1\n",
            "train.py": (
                "from dataclasses import dataclass, field\n\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass Args:\n    output_dir: str = field(metadata={'help': 'where'})\n"
                "    learning_rate: float = 1e-4\n\n\n(args,) = HfArgumentParser(Args).parse_args_into_dataclasses()\n"
            ),
        }
    ),
    Example(  # the required option at the end of a group of switches (`-vd DIR` is `-v -d DIR`)
        {
            "run.sh": "#!/bin/bash\npython train.py -vd /data/tokens\npython train.py -vd/data/tokens\n",
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('-v', '--verbose', action='store_true')\n"
                "parser.add_argument('-d', '--data-dir', required=True)\nargs = parser.parse_args()\n"
            ),
        }
    ),
    Example(  # deepspeed and torch.distributed.launch append `--local_rank=N` themselves; ATorch's told `--not_use_env`
        {
            "main.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--local_rank', type=int, required=True)\np.parse_args()\n",
            "run.sh": (
                "deepspeed --num_gpus 8 main.py\npython -m torch.distributed.launch --nproc_per_node 8 main.py\n"
                "python -m atorch.distributed.launch --not_use_env --nproc_per_node 8 main.py\n"
            ),
        }
    ),
    Example(  # an imported parser class is not a builder: its parsing may differ (`--data_path` for `--data-path`)
        {
            "utils.py": "import argparse\n\n\nclass FlexibleArgumentParser(argparse.ArgumentParser):\n    pass\n",
            "train.py": (
                "from utils import FlexibleArgumentParser\n\np = FlexibleArgumentParser()\n"
                "p.add_argument('--data-path', required=True)\np.parse_args()\n"
            ),
            "run.sh": "python train.py --data_path d\n",
        }
    ),
    Example(  # `eval $cmd`: bash splits the value, newlines too, and eval joins the words with spaces
        {
            "eval.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--model', required=True)\np.parse_args()\n",
            "run.sh": 'cmd="python eval.py --out $OUT\n  --model bge"\neval $cmd\n',
        }
    ),
    Example(  # after a redirect's file, a word is still the command's: `>log.txt --model bge`
        {
            "eval.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--model', required=True)\np.parse_args()\n",
            "run.sh": "python -u eval.py >eval.log --model bge\npython -u eval.py 2>/dev/null --model=bge | tee eval.log\n",
        }
    ),
    Example(  # a parser another module builds, handed to its parsing helper: what is required there is not known
        {
            "pkg/__init__.py": "",
            "pkg/options.py": (
                "import argparse\n\n\ndef get_training_parser():\n    parser = get_parser()\n    add_model_args(parser)\n"
                "    return parser\n\n\ndef get_inference_parser():\n    parser = get_parser()\n    parser.add_argument('--path')\n"
                "    return parser\n\n\ndef parse_args_and_arch(parser):\n    return parser.parse_args()\n\n\n"
                "def get_parser():\n    return argparse.ArgumentParser()\n\n\n"
                "def add_model_args(parser):\n    parser.add_argument('--arch', required=True)\n"
            ),
            "inference.py": (
                "from pkg import options\n\nparser = options.get_inference_parser()\n"
                "parser.add_argument('--quiet', action='store_true')\nargs = options.parse_args_and_arch(parser)\n"
            ),
            "run.sh": "python inference.py --path ckpt.pt\n",
        }
    ),
    Example(  # one variable for each subcommand in turn: each requires only its own
        {
            "tool.py": (
                "import argparse\np = argparse.ArgumentParser()\nsub = p.add_subparsers(dest='cmd')\n"
                "pa = sub.add_parser('drift')\npa.add_argument('--notebooks-dir', required=True)\n"
                "pa = sub.add_parser('api')\npa.add_argument('--surface', required=True)\np.parse_args()\n"
            ),
            "run.sh": "python tool.py drift --notebooks-dir nb\npython tool.py api --surface s\n",
        }
    ),
    Example(  # `--dir=$DIR` passes --dir; an option of a parent parser not read here, with `=`,
        # takes no next word as its value
        {
            "train.py": (
                "import argparse\n\n\nclass Common:\n    def __init__(self):\n"
                "        self.parser = argparse.ArgumentParser(add_help=False)\n"
                "        self.parser.add_argument('--stage', type=int)\n\n\n"
                "p = argparse.ArgumentParser(parents=[Common().parser])\np.add_argument('--dir', required=True)\n"
                "args = p.parse_args()\n"
            ),
            "run.sh": "python train.py --stage=1 --dir=$DIR\n",
        }
    ),
    Example(  # options in a variable whose value is not all known: they may hold the flag
        {"train.py": TRAIN, "run.sh": 'ARGS="--lr=1 --data-path $DATA $EXTRA"\npython train.py ${ARGS} > run.log\n'}
    ),
    Example(  # after torchrun's `--`, which its argparse REMAINDER drops: the program gets `--data-path`
        {"train.py": TRAIN, "run.sh": "torchrun --standalone --nproc_per_node=8 train.py -- --data-path /data\n"}
    ),
    Example(  # passed as `--flag=value`, as an unambiguous prefix, from a static variable
        {
            "train.py": TRAIN,
            "run.sh": (
                "python train.py --data-path=/data\npython train.py --data /data\n"
                'ARGS="--data-path /data --lr 1"\npython train.py $ARGS\n'
            ),
        }
    ),
    Example(  # pass-through: the caller's arguments, an unknown array or variable, --help
        {
            "train.py": TRAIN,
            "run.sh": (
                'python train.py "$@"\npython train.py "${EXTRA[@]}"\npython train.py $EXTRA_ARGS\n'
                "python train.py --help\n"
            ),
        }
    ),
    Example(  # xargs appends the words it reads to its command's (through srun too)
        {
            "train.py": TRAIN,
            "run.sh": (
                "#!/bin/bash\ncat args.txt | xargs python train.py\nls *.txt | xargs -n1 python train.py --lr 1\n"
                "xargs -a args.txt srun python train.py\n"
            ),
        }
    ),
    Example(  # a default its caller decides: make's command line or environment, a calling script
        {
            "train.py": TRAIN,
            "Makefile": (
                "ARGS ?= --lr 1\nCMD = python train.py $(ARGS)\nEXTRA ?=\ntrain:\n\tpython train.py $(ARGS)\n\t$(CMD)\n"
                "\tpython train.py $(EXTRA) --lr 1\n\tpython train.py --lr 1 $(EXTRA) | tee log\n"
            ),
            "run.sh": (
                "#!/bin/bash\npython train.py ${EXTRA:---lr 1}\npython train.py ${EXTRA:-}\n"
                "ray job submit --working-dir . -- A=1 python train.py ${EXTRA:-}\n"
            ),
            "sweep.sh": "#!/bin/bash\nEXTRA='--data-path /d' bash run.sh\n",
        }
    ),
    Example(  # the values may come from a file
        {
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser(fromfile_prefix_chars='@')\n"
                "parser.add_argument('--data-path', required=True)\nargs = parser.parse_args()\n"
            ),
            "run_glue.py": (
                "import sys\nfrom dataclasses import dataclass\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass Args:\n    task: str\n\n\nparser = HfArgumentParser(Args)\n"
                "if sys.argv[1].endswith('.json'):\n    (args,) = parser.parse_json_file(sys.argv[1])\n"
                "else:\n    (args,) = parser.parse_args_into_dataclasses()\n"
            ),
            "run_qa.py": (
                "import os\nimport sys\nfrom dataclasses import dataclass\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass Args:\n    task: str\n\n\nparser = HfArgumentParser(Args)\n"
                "if len(sys.argv) == 2 and sys.argv[1].endswith('.json'):\n"
                "    (args,) = parser.parse_json_file(json_file=os.path.abspath(sys.argv[1]))\n"
                "else:\n    (args,) = parser.parse_args_into_dataclasses()\n"
            ),
            "run.sh": "python train.py @args.txt\npython run_glue.py config.json\npython run_qa.py configs/qa.json\n",
        }
    ),
    Example(  # a subcommand the launch does not name; a required option of another program
        {
            "cli.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nsub = parser.add_subparsers()\n"
                "train = sub.add_parser('train')\ntrain.add_argument('--config', required=True)\n"
                "sub.add_parser('export')\nargs = parser.parse_args()\n"
            ),
            "run.sh": "python cli.py export\n",
        }
    ),
    Example(  # an absolute path in another directory than the project's only file of its name
        {
            "legacy/export.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out', required=True)\np.parse_args()\n",
            "deploy.sh": "ssh gpu1 'python /srv/tools/export.py --dst /tmp/m'\n",
        }
    ),
    Example(  # on another host, after a `cd` to another checkout there: its `export.py` runs, not the project's
        {
            "legacy/export.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out', required=True)\np.parse_args()\n",
            "deploy.sh": "ssh gpu1 'cd /srv/tools && python export.py --dst /tmp/m'\nssh gpu2 'cd $APP && python export.py'\n",
        }
    ),
    Example(  # here too, after a static absolute `cd` or into another home's directory: another checkout's `export.py`
        {
            "legacy/export.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out', required=True)\np.parse_args()\n",
            "deploy.sh": "cd /srv/tools && python export.py --dst /tmp/m\n(cd ~/other && python export.py)\n",
        }
    ),
    Example(  # arms that set an array differently leave words not known after those they agree on
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr', required=True)\np.parse_args()\n",
            "run.sh": '#!/bin/bash\nif [ "$1" = a ]; then A=(python train.py); else A=(python train.py --lr 1); fi\n"${A[@]}"\n',
        }
    ),
    Example(  # `add_argument` replaced (a wrapper renames the flags): what is added through it is not known
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nold = p.add_argument\n"
                "p.add_argument = lambda *a, **k: old(*[f.replace('--', '--model-') for f in a], **k)\n"
                "p.add_argument('--data', required=True)\np.parse_args()\n"
            ),
            "run.sh": "python train.py --model-data d\n",
        }
    ),
    Example(  # a helper imported in an if's arms, one module's requiring an option the other's does not add
        {
            "a.py": "def add_args(parser):\n    parser.add_argument('--data', required=True)\n",
            "b.py": "def add_args(parser):\n    parser.add_argument('--lr')\n",
            "main.py": (
                "import argparse\nimport sys\n\np = argparse.ArgumentParser()\nif '--lr' in sys.argv:\n    from b import add_args\n"
                "else:\n    from a import add_args\nadd_args(p)\np.parse_args()\n"
            ),
            "run.sh": "python main.py --lr 1\n",
        }
    ),
    Example(  # after an early `return` of its function: on some paths only
        {
            "train.py": (
                "import argparse\n\n\ndef get_args(mode):\n    p = argparse.ArgumentParser()\n    p.add_argument('--lr')\n"
                "    if mode == 'eval':\n        return p.parse_args()\n    p.add_argument('--data', required=True)\n"
                "    return p.parse_args()\n\n\nif __name__ == '__main__':\n    get_args('train')\n"
            ),
            "eval.py": "from train import get_args\n\nget_args('eval')\n",
            "run.sh": "python eval.py --lr 1\n",
        }
    ),
    Example(  # a required mutually exclusive group made in a branch: on some paths only
        {
            "device.py": (
                "import argparse\nimport sys\n\np = argparse.ArgumentParser()\nif '--train' in sys.argv:\n"
                "    mode = p.add_mutually_exclusive_group(required=True)\n    mode.add_argument('--gpu', action='store_true')\n"
                "    mode.add_argument('--cpu', action='store_true')\np.add_argument('--train', action='store_true')\np.parse_args()\n"
            ),
            "run.sh": "python device.py\n",
        }
    ),
]


def _args_file(project, program, path: str) -> bool:
    """HfArgumentParser's `parse_args_into_dataclasses()` reads `train.args` next to `train.py`
    (its `look_for_args_file` is on unless turned off) and puts its words first: when that file
    exists, any required field may be in it."""
    return program.parser.kind == "hf" and project.on_disk(posixpath.splitext(path)[0] + ".args")


def check(project) -> Iterator[Finding]:
    changes = cache(partial(directory_changes, project))  # each launcher's `cd`s, read when asked
    for invocation in project.graph.invocations:
        program = launched(project, invocation)
        if program is None or _args_file(project, program, invocation.callee):
            continue
        if any(w.appended(invocation.command) for w in invocation.command.wrappers):
            continue  # `cat args.txt | xargs python t.py`: more arguments than written, read at run time
        command = invocation.command
        took = frozenset().union(*map(command.defaults_of, invocation.args)) if command.word_defaults else frozenset()
        if decided_by_caller(project, invocation.caller, took | unworded_defaults(command, invocation.target)):
            continue  # `python train.py $(ARGS)` with `ARGS ?= --lr 1`, or `${EXTRA:-}` that a caller sets
        added = flags_added(invocation.command)  # `deepspeed x.py`: the launcher passes `--local_rank` itself
        reading = read_launch(program, invocation.args)
        missing = [(owner, option) for owner, option in missing_required(reading) if not added.intersection(option.flags)]
        by: dict[int, list] = {}  # the scripts that run the launch's script without the option, when they give its `"$@"`
        arms: list[Related] = []  # the if/case whose arms set what `$EXTRA` passes, none of them the option
        script = project.shell[invocation.caller]
        if reading.open and script.arm_values:
            missing, reading, arms = _missed_in_every_arm(project, invocation, program, added, reading)
        if reading.open and script.arguments and passes_on(project, invocation) is not None:
            missing, reading, by = _missed_by_callers(project, invocation, program, added)
        if missing and fits_none(project, invocation, reading):
            continue  # a namesake elsewhere that takes none of its flags: not the program meant
        meant = meant_before_cd(project, invocation, reading, changes) if missing else None
        if meant is not None and meant.whole:  # `cd sub`, then `python train.py -s d`: the root's train.py takes the launch
            yield _run_elsewhere(project, invocation, missing, meant)
            continue
        # A program the launch may have been meant for, whose options are not all known: named as a choice
        moved = f" (the launcher cds into {meant.directory}/)" if meant else ""
        for owner, option in missing:
            flag = _flag(option)
            name = shown(project, invocation) + (f" {owner.parser.subcommand}" if owner.parser.subcommand else "")
            callers = by.get(id(option), ())
            when = ""
            if callers:  # `python train.py "$@"` in run.sh, and `bash run.sh --lr 1`
                runs = "runs" if len(callers) == 1 else "run"
                when = f" when {listed([f'{c.caller}:{c.command.location.line}' for c in callers])} {runs} {invocation.caller}"
            message = f"{name} requires `{flag}`, which this launch never passes{when}{moved}: it exits at start-up"
            fix, wanted, which = f"pass `{flag}`", option.flags, "it"
            related = [Related(option.location, f"`{flag}` is required here")]
            if option.group:  # argparse: "one of the arguments --train --eval is required"
                group = group_of(owner, option)
                names = ", ".join(f"`{_flag(o)}`" for o in group)
                message = f"{name} requires one of {names}, and this launch passes none{when}{moved}: it exits at start-up"
                fix, wanted, which = "pass one of them", [f for o in group for f in o.flags], "one"
                related = [Related(option.location, f"the group of {names} is required here")]
            cut = invocation.command.cut_off  # `--lr 1 \\ # note`: the lines after it run on their own
            stranded = next(((w, f) for w in cut.words if (f := (w.value or "").partition("=")[0]) in wanted), None) if cut else None
            if stranded is not None:
                (word, written), (why, mend) = stranded, _broken(cut)
                end = invocation.command.location.end_line
                related.append(Related(word.location, f"a command of its own: line {end} ends the launch, {why}"))
                fix = f"`{written}` on line {word.location.line} is cut off from it: {mend}"
            else:
                near = next((u for u in reading.unknown if u.program is owner and u.meant in wanted), None)
                if near is not None and owner.complete:  # `--result_file` for `--result_dir`: LL301's near miss
                    fix += f" (is `{near.flag}` a typo for {which}?)"
                    related.append(Related(near.located(project), f"`{near.flag}` is passed here: {name} has no such option"))
                if meant is not None:
                    fix = either(fix, f"use `{meant.path}`")
                    related.append(Related(meant.program.location, f"the parser of {meant.file}"))
            if not command.location.holds(invocation.target.location):  # `train() { python train.py "$@"; }`, then `train --lr 1`
                related.append(Related(command.location, "the call of the function that launches it so"))
            related += (Related(c.command.location, f"{c.caller} runs {invocation.caller} without it") for c in callers)
            related += arms
            message += f"; {fix}"
            yield Finding(invocation.target.location, message, tuple(related))


def _missed_by_callers(project, invocation, program, added) -> tuple[list, Reading, dict[int, list]]:
    """The required options a launch that passes its script's own arguments (`python train.py
    "$@"` in run.sh: `launches.run_with`) does not get from a script that runs it with words all
    known (`bash run.sh --lr 1`), each with those scripts (by the option's id); one a caller
    passes, or may (`bash run.sh "$@"`), is passed there. The reading of the first that misses one."""
    missing: list = []
    by: dict[int, list] = {}
    first = None
    for caller in project.graph.callers(invocation.caller):
        words = run_with(project, invocation, caller)
        if words is None:
            continue
        reading = read_launch(program, words)
        for owner, option in missing_required(reading):
            if not added.intersection(option.flags):
                if id(option) not in by:
                    missing.append((owner, option))
                by.setdefault(id(option), []).append(caller)
                first = first or reading
    return missing, first or Reading([program], open=True), by


def _missed_in_every_arm(project, invocation, program, added, reading: Reading) -> tuple[list, Reading, list[Related]]:
    """The required options no way through an if/case passes, where the launch passes a variable
    the statement sets (`python train.py $EXTRA`, with `EXTRA="--layers 32"` in one arm and
    `EXTRA=""` in the other: `ShellScript.arm_variants`) and its value is known on every way; the
    reading of the first, and the statement as a related location. None when a way's value is not
    known: it may hold them."""
    script = project.shell[invocation.caller]
    variants, complete = script.arm_variants(invocation.command, invocation.args)
    if not complete:
        return [], reading, []
    missing: list | None = None
    first = None
    for way in variants:
        read = read_launch(program, way.words)
        now = [(owner, option) for owner, option in missing_required(read) if not added.intersection(option.flags)]
        held = {id(option) for _, option in now}
        missing = now if missing is None else [m for m in missing if id(m[1]) in held]
        first = first or read
    way = variants[0]
    related = Related(way.statement, f"no way through here puts it in `{way.expansion}`")
    return missing or [], first or reading, [related]


def _flag(option) -> str:
    """The option's name in a message: its first long flag (`--data-path`, not `-d`)."""
    return next((f for f in option.flags if f.startswith("--")), option.flags[0])


def _run_elsewhere(project, invocation, missing, meant: Meant) -> Finding:
    """One finding for a launch that a `cd` runs away from the program its path names from
    where the launcher started, which takes its whole command line (`programs.meant_before_cd`):
    its fix that program's path."""
    needs = [f"one of {', '.join(f'`{_flag(o)}`' for o in group_of(owner, option))}" if option.group else f"`{_flag(option)}`" for owner, option in missing]
    name = shown(project, invocation)
    message = (
        f"{name} requires {listed(needs)}, which this launch never passes (the launcher cds into {meant.directory}/): "
        f"it exits at start-up; `{meant.path}` takes this command line: use that path"
    )
    related = [Related(option.location, f"{need} is required here") for (_, option), need in zip(missing, needs)]
    related.append(Related(meant.program.location, f"the parser of {meant.file}, which takes it"))
    return Finding(invocation.target.location, message, tuple(related))


def _broken(cut: CutOff) -> tuple[str, str]:
    """Why the launch does not go on into the lines cut off from it, and what makes it."""
    line = cut.line
    if cut.how == "commented":
        return f"as the comment on line {line} ends it", f"uncomment or delete line {line}"
    if cut.how == "line":
        return "as it does not end with `\\`", f"end line {line} with `\\`"
    if cut.how == "comment":
        # `\ #`: the `\` escapes the blank (the `#` then starts a word, not a comment: LEVEN's), not the line end
        return "as its `\\` escapes the blank after it, not the line end", f"delete what follows the `\\` on line {line}"
    if cut.how == "crlf":  # its `\` escapes the `\r` of a Windows line end
        return "as the file's line ends are Windows' (`\\r\\n`)", "run `dos2unix` on the file"
    return "as a space follows its `\\`", f"delete the blanks after the `\\` of line {line}"
