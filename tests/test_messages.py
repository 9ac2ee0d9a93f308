"""A finding says what is wrong, what it costs, and what to do: the fix is part of the message
(as ruff's and ShellCheck's), paths and code in backticks, in few words: the other places a user
needs are related locations. Through the real command."""

from __future__ import annotations

import json

import pytest
from launchlint.rulekit import rule_by_code

from tests.conftest import write_project
from tests.test_cli import launchlint

# The rules whose every message is held to both: its fix, and a length. ShellCheck's and ruff's
# messages run 60-110 characters; these carry what fails and why as well, so an ordinary input's
# message (CASES) stays within ORDINARY, and none of a rule's own examples' past LONGEST.
SHORT = ("LL107", "LL109", "LL201", "LL202", "LL203", "LL204", "LL205", "LL301", "LL302", "LL303", "LL304", "LL401", "LL402")
ORDINARY = 175
LONGEST = 210
# The CASES that show what most findings of those rules look like (the g1000 benchmark's and the
# corpus's: LL202's plain call, LL203's reduce-overhead call, LL107's tmux session, LL301's flag
# of a close name, LL303's path of no file); the others are rarer variants.
ORDINARY_CASES = {
    "LL107-tmux",
    "LL109",
    "LL201",
    "LL202",
    "LL203-reduce-overhead",
    "LL204-captured by the launcher",
    "LL205-quotes no measurement of another setting",
    "LL301",
    "LL301-no close name",
    "LL302",
    "LL303",
    "LL303-no file of that name",
    "LL304",
    "LL304-yml for yaml",
    "LL401-visible devices",
    "LL401-the job's GPUs",
    "LL402",
}
# The verbs a message's fix starts with, in the imperative.
IMPERATIVES = frozenset(
    {"add", "allocate", "call", "capture", "compile", "create", "delete", "drop", "end", "fix", "give", "hold"}
    | {"keep", "make", "pass", "put", "redirect", "remove", "run", "set", "share", "start", "uncomment", "use"}
    | {"warm", "write"}
)


def fix_of(message: str) -> str | None:
    """The fix a message ends with: the clause after its last `; `, or after the last `: ` in
    that clause (`...: use `set -o pipefail``), when it starts with a verb in the imperative."""
    tail = message.rpartition("; ")[2]
    return next((c for c in (tail, tail.rpartition(": ")[2]) if c.split(" ", 1)[0] in IMPERATIVES), None)


TRAIN = (
    "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--warmup_steps', type=int)\n"
    "parser.add_argument('--vocab-file')\nparser.add_argument('--vocab-size')\nargs = parser.parse_args()\n"
)
# After `cd sub`, `python train.py` runs sub/train.py, which requires `--data`; the root's train.py,
# what the path names from where the launcher started, defines `-s` and `--iters` (MOVED), or
# `--resume` and options added in a loop over what is not known (MOVED_LOOPED).
MOVED = {
    "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('-s')\np.add_argument('--iters')\np.parse_args()\n",
    "sub/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data', required=True)\np.parse_args()\n",
}
MOVED_LOOPED = {
    **MOVED,
    "train.py": (
        "import argparse\nimport json\np = argparse.ArgumentParser()\np.add_argument('--resume')\n"
        "for key in json.load(open('keys.json')):\n    p.add_argument('--' + key)\np.parse_args()\n"
    ),
}
HYDRA = {
    "trainer/main.py": "import hydra\n\n\n@hydra.main(config_path='config')\ndef main(cfg):\n    pass\n\n\nmain()\n",
    "trainer/config/ppo.yaml": "lr: 1\n",
}

CASES = {
    "LL101-launcher": (
        {
            "launch.sh": 'tmux new-session -d "bash start.sh 2>&1 | tee logs/run7.log"\n',
            "start.sh": "python -u train.py --config configs/run.yaml\n",
            "configs/run.yaml": "log_file: logs/run8.log\n",
        },
        "launch.sh:1",
        "this launcher logs to `logs/run7.log`, but configs/run.yaml's log_file is `logs/run8.log`: one of the two "
        "names is stale; name the log once, in one variable",
    ),
    "LL101-script's own exec, which is no launcher": (
        {
            "scripts/train.sh": "exec > logs/llama7b_v2.log 2>&1\npython -u train.py --config configs/llama7b.yaml\n",
            "configs/llama7b.yaml": "log_file: logs/llama7b_v3.log\n",
        },
        "scripts/train.sh:1",
        "`python` logs to `logs/llama7b_v2.log`, but configs/llama7b.yaml's log_file is `logs/llama7b_v3.log`: one "
        "of the two names is stale; name the log once, in one variable",
    ),
    "LL102": (
        {
            "launch.sh": 'tmux new-session -d "bash start.sh 2>&1 | tee /logs/run5.log"\n',
            "start.sh": "exec > /logs/run5.log 2>&1\npython -u train.py\n",
        },
        "start.sh:1",
        "`exec` sends this script's stdout to `/logs/run5.log`, so the caller's pipe/log gets nothing; drop the "
        "`exec`, or keep both with `exec > >(tee -a /logs/run5.log) 2>&1`",
    ),
    "LL103": (
        {
            "launch.sh": "set -o pipefail\nbash run.sh 2>&1 | tee logs/run.log\n",
            "run.sh": "python -u train.py > logs/train.log 2>&1\n",
        },
        "run.sh:1",
        "`python` writes its output to `logs/train.log`, so the caller's log only gets this script's own lines; let "
        "it write to stdout, or use `2>&1 | tee logs/train.log` after `set -o pipefail`",
    ),
    "LL103-a log named by a script argument": (
        {
            "run.sh": "./train.sh am 2>&1 | tee train.log\n",
            "train.sh": "#!/bin/bash\ntask=$1\npython train_am.py --conf x > $task.log 2>&1\n",
            "train_am.py": "print(1)\n",
        },
        "train.sh:3",
        "`python` writes its output to `$task.log`, so the caller's log only gets this script's own lines; let it "
        "write to stdout, or use `2>&1 | tee $task.log` after `set -o pipefail`",
    ),
    "LL103-pipefail on": (
        {
            "launch.sh": "set -o pipefail\nbash run.sh 2>&1 | tee logs/run.log\n",
            "run.sh": "set -o pipefail\npython -u train.py > logs/train.log 2>&1\n",
        },
        "run.sh:2",
        "`python` writes its output to `logs/train.log`, so the caller's log only gets this script's own lines; let "
        "it write to stdout, or use `2>&1 | tee logs/train.log`",
    ),
    "LL107-a tmux window": (
        {"run.sh": 'tmux new-window -d -n train "python -u train.py"\n'},
        "run.sh:1",
        "nothing logs this detached tmux window: when the job dies, its pane closes with the traceback; end "
        "the command with `2>&1 | tee logs/job.log`, or set `remain-on-exit on`",
    ),
    "LL107-tmux": (
        {"run.sh": 'tmux new-session -d -s train "python -u train.py"\n'},
        "run.sh:1",
        "nothing logs this detached tmux session: when the job dies, its pane closes with the traceback; end "
        "the command with `2>&1 | tee logs/job.log`, or set `remain-on-exit on`",
    ),
    "LL107-screen": (
        {"run.sh": "screen -dmS ev python -u eval.py\n"},
        "run.sh:1",
        "nothing logs this detached screen session: when the job dies, its window closes with the traceback; "
        "end the command with `2>&1 | tee logs/job.log`, or use `screen -L`",
    ),
    "LL107-nohup over ssh": (
        {"run.sh": '#!/bin/bash\nssh gpu2 "cd proj && nohup python train.py --seed 1 &"\n'},
        "run.sh:2",
        "`nohup` under `ssh` with no terminal sends this job's output back over the connection: ssh waits for the job, "
        "and once it closes, the job's next write fails; redirect it: `nohup cmd > logs/job.log 2>&1 &`",
    ),
    "LL107-nohup": (
        {"run.sh": "nohup python -u eval.py &\n"},
        "run.sh:1",
        "`nohup` with no redirection appends this job's output to a `nohup.out` in whatever directory it starts "
        "in; redirect it: `nohup cmd > logs/job.log 2>&1 &`",
    ),
    "LL109": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%x-%j.out\nsrun python -u train.py\n"},
        "job.sbatch:2",
        "SLURM opens `logs/%x-%j.out` before the job starts, and `logs/` does not exist: the job fails without a "
        "log; create it before `sbatch`, or commit `logs/.gitkeep`",
    ),
    "LL109-a directory .gitignore hides": (
        {".gitignore": "sbatch_log/\n", "job.sbatch": "#!/bin/bash\n#SBATCH --output=sbatch_log/%j.out\nsrun python -u train.py\n"},
        "job.sbatch:2",
        "SLURM opens `sbatch_log/%j.out` before the job starts, and `sbatch_log/` does not exist: the job fails without a "
        "log; create it before `sbatch`, or commit `sbatch_log/.gitkeep` (`git add -f`: it is gitignored)",
    ),
    "LL109-a directory a nested .gitignore hides": (
        {"exp/.gitignore": "slurm/\n", "exp/job.sbatch": "#!/bin/bash\n#SBATCH -o slurm/train.%j.out\nsrun python -u train.py\n"},
        "exp/job.sbatch:2",
        "SLURM opens `slurm/train.%j.out` before the job starts, and `slurm/` does not exist: the job fails without a "
        "log; create it before `sbatch`, or commit `slurm/.gitkeep` (`git add -f`: it is gitignored)",
    ),
    "LL109-a directory whose entries .gitignore hides": (
        {".gitignore": "hpc/logs/*\n", "hpc/run.sh": '#!/bin/bash\n#SBATCH --output="hpc/logs/rq1_%A.info"\nsrun python -u train.py\n'},
        "hpc/run.sh:2",
        "SLURM opens `hpc/logs/rq1_%A.info` before the job starts, and `hpc/logs/` does not exist: the job fails without a "
        "log; create it before `sbatch`, or commit `hpc/logs/.gitkeep` (`git add -f`: it is gitignored)",
    ),
    "LL109-the job's own mkdir": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%x-%j.out\nmkdir -p logs\nsrun python -u train.py\n"},
        "job.sbatch:2",
        "SLURM opens `logs/%x-%j.out` before the job's `mkdir` runs, and `logs/` does not exist: the job fails "
        "without a log; create it before `sbatch`, or commit `logs/.gitkeep`",
    ),
    "LL109-one log for stdout and stderr": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%x-%j.out\n#SBATCH --error=logs/%x-%j.out\nsrun python -u train.py\n"},
        "job.sbatch:2",
        "SLURM opens `logs/%x-%j.out` before the job starts, and `logs/` does not exist: the job fails without a "
        "log; create it before `sbatch`, or commit `logs/.gitkeep`",
    ),
    "LL109-a directory named after the job id": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%j/train.out\nsrun python -u train.py\n"},
        "job.sbatch:2",
        "SLURM opens `logs/%j/train.out` before the job starts, and `logs/%j/`, named after the job id, cannot "
        "exist yet: the job fails without a log; put the id in the file's name instead",
    ),
    "LL201": (
        {
            "train.py": (
                "import threading\n\nimport torch\n\n\ndef worker():\n    step = torch.compile(lambda x: x)\n"
                "    step(1)\n\n\nfor _ in range(4):\n    threading.Thread(target=worker).start()\n"
            )
        },
        "train.py:7",
        "threads compile and call a callable with no shared lock: they recompile it, and past 8 silently run "
        "it uncompiled; compile and call it once on the main thread first",
    ),
    "LL202": (
        {
            "train.py": (
                "import threading\n\nimport torch\n\nstep = torch.compile(lambda x: x)\n\n\ndef worker():\n    step(1)\n"
                "\n\nfor _ in range(4):\n    threading.Thread(target=worker).start()\n"
            )
        },
        "train.py:9",
        "threads call compiled `step` with no shared lock: they recompile it, and past 8 silently run it "
        "uncompiled; share a lock, or call it once before they start",
    ),
    "LL202-16 workers of a fullgraph callable": (
        {
            "train.py": (
                "from concurrent.futures import ThreadPoolExecutor\n\nimport torch\n\n"
                "step = torch.compile(lambda x: x, fullgraph=True)\n\n\ndef job(x):\n    return step(x)\n\n\n"
                "with ThreadPoolExecutor(max_workers=16) as pool:\n    pool.map(job, range(64))\n"
            )
        },
        "train.py:9",
        "16 threads call compiled `step` with no shared lock: they recompile it, and past 8 raise "
        "FailOnRecompileLimitHit (fullgraph=True); share a lock, or call it once before they start",
    ),
    "LL202-warmed up by a training step, called under no_grad": (
        {
            "bench.py": (
                "from concurrent.futures import ThreadPoolExecutor\n\nimport torch\n\n"
                "model = torch.compile(torch.nn.Linear(4, 4))\nmodel(torch.ones(4)).sum().backward()\n\n\n"
                "def job(x):\n    with torch.no_grad():\n        return model(x)\n\n\n"
                "with ThreadPoolExecutor(max_workers=4) as pool:\n    pool.map(job, [torch.ones(4)] * 8)\n"
            )
        },
        "bench.py:11",
        "threads call compiled `model` with no shared lock, warmed up only with grad enabled: they recompile "
        "it, and past 8 silently run it uncompiled; warm it up under torch.no_grad() too",
    ),
    "LL203-reduce-overhead": (
        {
            "serve.py": (
                "from concurrent.futures import ThreadPoolExecutor\n\nimport torch\n\n"
                'model = torch.compile(torch.nn.Linear(8, 8).cuda(), mode="reduce-overhead")\n'
                'model(torch.ones(8, device="cuda"))\n\n\ndef predict(x):\n    return model(x)\n\n\n'
                "with ThreadPoolExecutor(4) as pool:\n    pool.map(predict, range(8))\n"
            )
        },
        "serve.py:10",
        "threads call `model` with no shared lock: each captures its own CUDA graphs, which others' CUDA "
        'calls break; call it from one thread, or drop `mode="reduce-overhead"`',
    ),
    "LL203-torch.cuda.graph": (
        {
            "train.py": (
                "import threading\n\nimport torch\n\n\ndef worker(model, x):\n    graph = torch.cuda.CUDAGraph()\n"
                "    with torch.cuda.graph(graph):\n        model(x)\n\n\nfor _ in range(4):\n"
                "    threading.Thread(target=worker, args=(torch.nn.Linear(8, 8), torch.ones(8))).start()\n"
            )
        },
        "train.py:8",
        "threads run `torch.cuda.graph` with no shared lock: other threads' CUDA calls break a capture; "
        "capture on one thread, or hold one shared lock around it",
    ),
    "LL204-captured by the launcher": (
        {
            "run.sh": "set -o pipefail\npython -u train.py 2>&1 | tee run.log\n",
            "train.py": 'import sys\n\nsys.stdout = open("logs/train.log", "w")\nprint("step 1")\n',
        },
        "train.py:3",
        "assigning `sys.stdout` sends stdout into `logs/train.log` for good: the caller capturing it gets "
        "nothing more; keep stdout and add a `logging.FileHandler`",
    ),
    "LL204-os.dup2": (
        {"serve.py": 'import os\n\nlog = open("serve.log", "a")\nos.dup2(log.fileno(), 2)\n'},
        "serve.py:4",
        "`os.dup2` sends stderr into `serve.log` for good: a caller's `| tee` or terminal gets nothing more; "
        "keep stderr and add a `logging.FileHandler`",
    ),
    "LL204-the name's value when it is assigned": (
        {"evalx.py": 'import sys\n\nwith open("dets.pkl", "wb") as f:\n    f.write(b"x")\nf = open("summary.txt", "w")\nsys.stdout = f\n'},
        "evalx.py:6",
        "assigning `sys.stdout` sends stdout into `summary.txt` for good: a caller's `| tee` or terminal gets "
        "nothing more; keep stdout and add a `logging.FileHandler`",
    ),
    "LL205-quotes no measurement of another setting": (
        {
            "train.py": (
                "from concurrent.futures import ThreadPoolExecutor\n\nimport torch\n\n"
                "torch._dynamo.config.cache_size_limit = 64\nstep = torch.compile(lambda x: x)\nstep(1)\n\n"
                "with ThreadPoolExecutor(4) as pool:\n    pool.map(step, range(8))\n"
            )
        },
        "train.py:5",
        "worker threads ignore `torch._dynamo.config.cache_size_limit` set at module level (thread-local since "
        "PyTorch 2.12); set it in each thread or the executor's `initializer`",
    ),
    "LL301": (
        {"run.sh": "torchrun --nproc_per_node 8 train.py --warmup-steps 500\n", "train.py": TRAIN},
        "run.sh:1",
        "`--warmup-steps` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; fix "
        "it (did you mean `--warmup_steps`?), or add it to the parser",
    ),
    "LL301-the same words in another order": (
        {"run.sh": "python train.py --steps-warmup 5\n", "train.py": TRAIN},
        "run.sh:1",
        "`--steps-warmup` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; fix "
        "it (did you mean `--warmup_steps`?), or add it to the parser",
    ),
    "LL301-a long name with one dash": (  # Time-Series-Library's `-dropout 0.6`: "remove it" would train with the default
        {"run.sh": "python train.py -vocab-size 5\n", "train.py": TRAIN},
        "run.sh:1",
        "`-vocab-size` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; fix "
        "it (did you mean `--vocab-size`?), or add it to the parser",
    ),
    "LL301-a place named otherwise": (
        {"run.sh": "python train.py --vocab-dir v\n", "train.py": TRAIN},
        "run.sh:1",
        "`--vocab-dir` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; fix "
        "it (did you mean `--vocab-file`?), or add it to the parser",
    ),
    "LL301-no close name": (
        {"run.sh": "python train.py --bogus 1\n", "train.py": TRAIN},
        "run.sh:1",
        "`--bogus` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; remove it, "
        "or add it to the parser",
    ),
    "LL301-the close name already passed": (
        {"run.sh": "python train.py --warmup_steps 5 --warmup-step 3\n", "train.py": TRAIN},
        "run.sh:1",
        "`--warmup-step` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; remove it, "
        "or add it to the parser",
    ),
    "LL301-a value after a switch": (  # LambdaLabs' `--cpu-offload on` to a store_true
        {
            "run.sh": "torchrun --nproc-per-node 8 train.py --cpu-offload on\n",
            "train.py": "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--cpu-offload', action='store_true')\np.parse_args()\n",
        },
        "run.sh:1",
        "`on` is not an argument of train.py (`--cpu-offload` takes no value, and no positional is defined): it exits "
        "at start-up with 'unrecognized arguments'; remove `on`",
    ),
    "LL301-a value after a switch that sets the other": (  # `--fp16 False`: without `--fp16` too
        {
            "run.sh": "python train.py --fp16 False\n",
            "train.py": "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--fp16', action='store_true')\np.parse_args()\n",
        },
        "run.sh:1",
        "`False` is not an argument of train.py (`--fp16` takes no value, and no positional is defined): it exits "
        "at start-up with 'unrecognized arguments'; remove `--fp16 False`",
    ),
    "LL301-a prefix of two options": (
        {"run.sh": "python train.py --vocab v.txt\n", "train.py": TRAIN},
        "run.sh:1",
        "`--vocab` is ambiguous for train.py (`--vocab-file`, `--vocab-size`): it exits at start-up with "
        "'ambiguous option'; write the option in full",
    ),
    "LL301-a path the launcher builds": (
        {
            "scripts/run.sh": 'python "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../train.py" --lrr 1\n',
            "train.py": TRAIN,
        },
        "scripts/run.sh:1",
        "`--lrr` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; remove it, or "
        "add it to the parser",
    ),
    "LL302": (
        {
            "run.sh": "torchrun --nproc_per_node 8 train.py --lr 3e-4\n",
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr')\n"
                "parser.add_argument('--data-path', required=True)\nargs = parser.parse_args()\n"
            ),
        },
        "run.sh:1",
        "train.py requires `--data-path`, which this launch never passes: it exits at start-up; pass `--data-path`",
    ),
    "LL302-a near miss of the option": (
        {
            "run.sh": "python decode.py --beam 4 --result_file out/text\n",
            "decode.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--beam', type=int)\n"
                "parser.add_argument('--result_dir', required=True)\nargs = parser.parse_args()\n"
            ),
        },
        "run.sh:1",
        "decode.py requires `--result_dir`, which this launch never passes: it exits at start-up; pass "
        "`--result_dir` (is `--result_file` a typo for it?)",
    ),
    "LL302-a near miss, to a parser not all known": (  # the flag may be one of the options not seen
        {
            "run.sh": "python decode.py --result_file out/text\n",
            "common.py": "def add_more(parser):\n    for name in NAMES:\n        parser.add_argument(name)\n",
            "decode.py": (
                "import argparse\n\nfrom common import add_more\n\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('--result_dir', required=True)\nadd_more(parser)\nargs = parser.parse_args()\n"
            ),
        },
        "run.sh:1",
        "decode.py requires `--result_dir`, which this launch never passes: it exits at start-up; pass `--result_dir`",
    ),
    "LL302-a required group": (
        {
            "run.sh": "python main.py --lr 1\n",
            "main.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--lr')\n"
                "g = p.add_mutually_exclusive_group(required=True)\ng.add_argument('--train', action='store_true')\n"
                "g.add_argument('--eval', action='store_true')\np.parse_args()\n"
            ),
        },
        "run.sh:1",
        "main.py requires one of `--train`, `--eval`, and this launch passes none: it exits at start-up; "
        "pass one of them",
    ),
    "LL302-a comment after the backslash": (
        {
            "run.sh": "python train.py \\\n    --lr 1e-4 \\ # tune\n    --data-path /data\n",
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr')\n"
                "parser.add_argument('--data-path', required=True)\nargs = parser.parse_args()\n"
            ),
        },
        "run.sh:1",
        "train.py requires `--data-path`, which this launch never passes: it exits at start-up; "
        "`--data-path` on line 3 is cut off from it: delete what follows the `\\` on line 2",
    ),
    "LL302-an option with its value cut off by the comment after the backslash": (
        {
            "run.sh": 'python -m pkg.infer \\\n    --lr=1e-4 \\  # tune\n    --data-path="data/x.pt" \\\n    --seed=1  # c\n',
            "pkg/__init__.py": "",
            "pkg/infer.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr')\nparser.add_argument('--seed')\n"
                "parser.add_argument('--data-path', required=True)\nargs = parser.parse_args()\n"
            ),
        },
        "run.sh:1",
        "pkg.infer requires `--data-path`, which this launch never passes: it exits at start-up; "
        "`--data-path` on line 3 is cut off from it: delete what follows the `\\` on line 2",
    ),
    "LL302-one of a required group on a line cut off": (
        {
            "run.sh": "python main.py --lr 1\n    --eval\n",
            "main.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--lr')\n"
                "g = p.add_mutually_exclusive_group(required=True)\ng.add_argument('--train', action='store_true')\n"
                "g.add_argument('--eval', action='store_true')\np.parse_args()\n"
            ),
        },
        "run.sh:1",
        "main.py requires one of `--train`, `--eval`, and this launch passes none: it exits at start-up; "
        "`--eval` on line 2 is cut off from it: end line 1 with `\\`",
    ),
    "LL301-after a cd, flags the program the path names before it defines": (
        {"run.sh": "cd sub\npython train.py --data d\npython train.py -s d --iters 3\n", **MOVED},
        "run.sh:3",
        "`-s` and `--iters` are not options of sub/train.py (the launcher cds into sub/): it exits at start-up with "
        "'unrecognized arguments'; `../train.py` defines them: use that path",
    ),
    "LL301-after a cd, a flag the program the path names before it may define": (
        {"run.sh": "cd sub\npython train.py --data d --resume r\n", **MOVED_LOOPED},
        "run.sh:2",
        "`--resume` is not an option of sub/train.py (the launcher cds into sub/): it exits at start-up with "
        "'unrecognized arguments'; remove it, add it to the parser, or use `../train.py`",
    ),
    "LL301-after a cd, a flag the program the path names before it does not define either": (
        {"run.sh": "cd sub\npython train.py --data d --bogus 1\n", **MOVED},
        "run.sh:2",
        "`--bogus` is not an option of sub/train.py: it exits at start-up with 'unrecognized arguments'; remove it, "
        "or add it to the parser",
    ),
    "LL302-a program path the launcher builds": (
        {
            "run.sh": '#!/bin/bash\nHERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)\npython "$HERE/train.py" --lr 1\n',
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--data', required=True)\np.parse_args()\n",
        },
        "run.sh:3",
        "train.py requires `--data`, which this launch never passes: it exits at start-up; pass `--data`",
    ),
    "LL302-after a cd, the program the path names before it takes the launch": (
        {"run.sh": "cd sub\npython train.py --data d\npython train.py -s d --iters 3\n", **MOVED},
        "run.sh:3",
        "sub/train.py requires `--data`, which this launch never passes (the launcher cds into sub/): it exits at "
        "start-up; `../train.py` takes this command line: use that path",
    ),
    "LL302-after a cd, the program the path names before it may take the launch": (
        {"run.sh": "cd sub\npython train.py --resume r\n", **MOVED_LOOPED},
        "run.sh:2",
        "sub/train.py requires `--data`, which this launch never passes (the launcher cds into sub/): it exits at "
        "start-up; pass `--data`, or use `../train.py`",
    ),
    "LL302-cut off by Windows line ends": (
        {
            "run.sh": "#!/bin/bash\r\npython gen.py \\\r\n    --model m \\\r\n    --dataset d\r\n",
            "gen.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--model')\np.add_argument('--dataset', required=True)\np.parse_args()\n",
        },
        "run.sh:2",
        "gen.py requires `--dataset`, which this launch never passes: it exits at start-up; `--dataset` on line 4 is cut "
        "off from it: run `dos2unix` on the file",
    ),
    "LL303": (
        {"run.sh": "torchrun --nproc_per_node 8 trian.py\n", "train.py": "print(1)\n"},
        "run.sh:1",
        "`trian.py` is not next to this file or under the project root, and no file has that name; fix the path "
        "(did you mean `train.py`?), or create it",
    ),
    "LL303-a name without its suffix": (
        {"scripts/run.sh": "python sample_QOCS --n 3\n", "sample_QOCS.py": "print(1)\n", "docs/sample_QOCS.md": "x\n"},
        "scripts/run.sh:1",
        "`sample_QOCS` is not next to this file or under the project root, and no file has that name; fix the path "
        "(did you mean `sample_QOCS.py`?), or create it",
    ),
    "LL303-of two files of the near name, the one the path leads to": (
        {"a/run.sh": "bash helpr.sh\n", "a/helper.sh": "echo a\n", "b/helper.sh": "echo b\n"},
        "a/run.sh:1",
        "`helpr.sh` is not next to this file or under the project root, and no file has that name; fix the path "
        "(did you mean `helper.sh`?), or create it",
    ),
    "LL303-a word of its own beside it is no slip": (
        {"s/aws.sh": "bash s/ft_all_char_fair_lr.sh\n", "s/ft_all_large_fair_lr.sh": "echo 1\n"},
        "s/aws.sh:1",
        "`s/ft_all_char_fair_lr.sh` is not next to this file or under the project root, and no file has that name; fix "
        "the path, or create it",
    ),
    "LL303-two letters off beside it, before a neighbour it extends": (
        {"run.sh": "./main_supervised_analisys.py\n", "main_supervised.py": "print(1)\n", "main_supervised_analysis.py": "print(2)\n"},
        "run.sh:1",
        "`./main_supervised_analisys.py` is not next to this file or under the project root, and no file has that name; "
        "fix the path (did you mean `./main_supervised_analysis.py`?), or create it",
    ),
    "LL303-no file of that name": (
        {"run.sh": "bash prepare.sh\n", "train.py": "print(1)\n"},
        "run.sh:1",
        "`prepare.sh` is not next to this file or under the project root, and no file has that name; fix the "
        "path, or create it",
    ),
    "LL303-a launch spec's command": (
        {"config.yml": "trainingServicePlatform: local\ntrial:\n  command: python missing_trial.py\n  codeDir: .\n", "main.py": "print(1)\n"},
        "config.yml:3",
        "`missing_trial.py` runs where this launch spec starts it, and no file of the project has that name; fix the "
        "path, or create it",
    ),
    "LL303-of its namesakes, one in the directory it names": (
        {
            "scripts/eval.sh": "python examples/seq2seq/run_eval.py --x 1\n",
            "examples/legacy/seq2seq/run_eval.py": "print(1)\n",
            "examples/rag/run_eval.py": "print(2)\n",
        },
        "scripts/eval.sh:1",
        "`examples/seq2seq/run_eval.py` is not next to this file or under the project root, and 2 files have that "
        "name; use the path of the one meant (`examples/legacy/seq2seq/run_eval.py`?)",
    ),
    "LL303-of its namesakes, one in the directory it names, in a nested project": (
        {
            ".launchlint.yaml": "",
            "v/setup.py": "",
            "v/scripts/eval.sh": "python ex/s2s/run_eval.py --x 1\n",
            "v/ex/legacy/s2s/run_eval.py": "print(1)\n",
            "v/ex/rag/run_eval.py": "print(2)\n",
        },
        "v/scripts/eval.sh:1",
        "`ex/s2s/run_eval.py` is not next to this file, under v/ (its own project's root) or under the project root, "
        "and 2 files have that name; use the path of the one meant (`ex/legacy/s2s/run_eval.py`?)",
    ),
    "LL303-of its namesakes, none below the directory the launcher cds into": (
        {
            "setup.py": "print(1)\n",
            "scripts/setup.py": "print(2)\n",
            "pkg/__init__.py": "",
            "scripts/install.sh": "#!/bin/bash\ncd pkg\npython setup.py develop\n",
        },
        "scripts/install.sh:3",
        "`setup.py` is not under pkg/, where the launcher cds, and 2 files have that name; use the path of the one meant",
    ),
    "LL303-a slip of the keys before the neighbour it extends": (
        {"s/go.sh": "bash s/train_duo_fintune.sh\n", "s/train_duo.sh": "echo 1\n", "s/train_duo_finetune.sh": "echo 2\n"},
        "s/go.sh:1",
        "`s/train_duo_fintune.sh` is not next to this file or under the project root, and no file has that name; fix the path "
        "(did you mean `s/train_duo_finetune.sh`?), or create it",
    ),
    "LL303-did you mean, from the root of the nested project it runs from": (
        {"p/setup.py": "", "p/tools/avg.py": "print(1)\n", "p/exp/run.sh": "python3 tools/avgg.py\n"},
        "p/exp/run.sh:1",
        "`tools/avgg.py` is not next to this file, under p/ (its own project's root) or under the project root, and no "
        "file has that name; fix the path (did you mean `tools/avg.py`?), or create it",
    ),
    "LL304-did you mean, as the launcher writes it": (
        {
            "sub/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "sub/conf/train.yaml": "lr: 1\n",
            "sub/run.sh": "python train.py --config conf/trian.yaml\n",
        },
        "sub/run.sh:1",
        "`--config conf/trian.yaml`: no such file, so the job fails after start-up with FileNotFoundError; fix the path "
        "(did you mean `conf/train.yaml`?), or create it",
    ),
    "LL304-did you mean, from the one directory the path can be read from": (
        {
            "acc/nodes/n0.yaml": "num_machines: 6\n",
            "sub/train.py": "print(1)\n",
            "sub/run.sh": "accelerate launch --config_file ../proj/acc/nodes_6/n0.yaml train.py\n",
        },
        "sub/run.sh:1",
        "`--config_file ../proj/acc/nodes_6/n0.yaml`: no such file, so the job fails after start-up with FileNotFoundError; "
        "fix the path (did you mean `../acc/nodes/n0.yaml`?), or create it",
    ),
    "LL303-did you mean, from where the launcher cds": (
        {"scripts/run.sh": "cd ../tools\npython lib/perp.py\n", "tools/lib/prep.py": "print(1)\n"},
        "scripts/run.sh:2",
        "`lib/perp.py` is not under tools/, where the launcher cds, and no file has that name; fix the path "
        "(did you mean `lib/prep.py`?), or create it",
    ),
    "LL303-a stale path from a directory above the launcher": (
        {"pyproject.toml": "", "sub/exp/c/z.py": "print(1)\n", "sub/jobs/run.sh": "python exp/old/z.py out\n"},
        "sub/jobs/run.sh:1",
        "`exp/old/z.py` is not under sub/ (above this file, and where exp/ is): the project's only file of that name is "
        "`sub/exp/c/z.py`; use `exp/c/z.py`",
    ),
    "LL303-a name alike but for a word of its own is no typo": (
        {"experts/gen.sh": "python experts/generate_depth.py\n", "experts/generate_objdet.py": "print(1)\n"},
        "experts/gen.sh:1",
        "`experts/generate_depth.py` is not next to this file or under the project root, and no file has that name; "
        "fix the path, or create it",
    ),
    "LL303-did you mean, as the launcher writes the path": (
        {"scripts/run.sh": "python ../tools/perp.py\n", "tools/prep.py": "print(1)\n"},
        "scripts/run.sh:1",
        "`../tools/perp.py` is not next to this file or under the project root, and no file has that name; fix the path "
        "(did you mean `../tools/prep.py`?), or create it",
    ),
    "LL303-of its namesakes, one below the launcher's directory": (
        {
            "lvlm/run_all.sh": "python gemma3_vanilla.py --x 1\n",
            "lvlm/model_scripts/gemma3_vanilla.py": "print(1)\n",
            "baselines/lvlm/gemma3/gemma3_vanilla.py": "print(2)\n",
        },
        "lvlm/run_all.sh:1",
        "`gemma3_vanilla.py` is not next to this file or under the project root, and 2 files have that name; use the "
        "path of the one meant (`model_scripts/gemma3_vanilla.py`?)",
    ),
    "LL303-a namesake in another directory": (
        {"prep/new/run.sh": "python prep/new/convert.py\n", "prep/new/converted.py": "print(1)\n", "prep/old/convert.py": "print(2)\n"},
        "prep/new/run.sh:1",
        "`prep/new/convert.py` is not next to this file or under the project root, and no file ends in that path; "
        "fix the path (did you mean `prep/new/converted.py`?), or create it",
    ),
    "LL303-moved to another directory": (
        {"tools/run.sh": "python examples/detox/gen.py\n", "examples/papers/detox/gen.py": "print(1)\n"},
        "tools/run.sh:1",
        "`examples/detox/gen.py` is not next to this file or under the project root: the project's only file of that "
        "name is `examples/papers/detox/gen.py`; fix the path",
    ),
    "LL303-moved, another program of a like name where it was is not the fix": (
        {"run.sh": "torchrun --nproc_per_node 2 main/train_edm.py\n", "main/train_sd.py": "print(1)\n", "main/edm/train_edm.py": "print(2)\n"},
        "run.sh:1",
        "`main/train_edm.py` is not next to this file or under the project root: the project's only file of that name "
        "is `main/edm/train_edm.py`; fix the path",
    ),
    "LL303-moved, a close name beside the launcher is not the fix": (
        {"ex/pipe/run.sh": "python ex/scoring/score_dataset.py --n 1\n", "ex/pipe/score_dataset.py": "print(1)\n", "ex/pipe/score.py": "print(2)\n"},
        "ex/pipe/run.sh:1",
        "`ex/scoring/score_dataset.py` is not next to this file or under the project root: the project's only file of "
        "that name is `ex/pipe/score_dataset.py`; fix the path",
    ),
    "LL303-moved, its own nested project's copy among others": (
        {
            **{f"{copy}/pyproject.toml": "[project]\nname = 'tf'\n" for copy in ("tf", "q/tf")},
            **{f"{copy}/ex/rp/rag/ft.py": "print(1)\n" for copy in ("tf", "q/tf")},
            "q/tf/ex/legacy/run.sh": "python ex/rag/ft.py\n",
        },
        "q/tf/ex/legacy/run.sh:1",
        "`ex/rag/ft.py` is not next to this file, under q/tf/ (its own project's root) or under the project root: its "
        "own project's only file of that name is `q/tf/ex/rp/rag/ft.py`; use `ex/rp/rag/ft.py`",
    ),
    "LL303-a close name beside the launcher": (
        {"beir/run.sh": "python bert_retriever.py --model x\n", "beir/beir_retriever.py": "print(1)\n"},
        "beir/run.sh:1",
        "`bert_retriever.py` is not next to this file or under the project root, and no file has that name; fix the "
        "path (did you mean `beir_retriever.py`?), or create it",
    ),
    "LL303-a close name beside the launcher named as the launcher": (
        {"hf/upload_dataset.sh": "python upload.py\n", "hf/upload_dataset.py": "print(1)\n", "hf/upload_model.py": "print(2)\n"},
        "hf/upload_dataset.sh:1",
        "`upload.py` is not next to this file or under the project root, and no file has that name; fix the "
        "path (did you mean `upload_dataset.py`?), or create it",
    ),
    "LL303-the script's argument's default": (
        {"run.sh": "#!/bin/bash\ntorchrun --nproc_per_node 2 ${1:-main.py} --epochs 1\n", "a/main.py": "print(1)\n", "b/main.py": "print(2)\n"},
        "run.sh:2",
        "`main.py` (`$1`'s default) is not next to this file or under the project root, and 2 files have that name; "
        "use the path of the one meant",
    ),
    "LL303-a renamed package": (
        {"scripts/ft.sh": "deepspeed llava/train/train_mem.py\n", "moellava/train/train_mem.py": "print(1)\n"},
        "scripts/ft.sh:1",
        "`llava/train/train_mem.py` leads into `llava/`, which the project does not have, and `moellava/` holds the rest "
        "of that path (renamed?); use `moellava/train/train_mem.py`",
    ),
    "LL303-a quoted command": (
        {"run.sh": 'acc="tools/acc.py --dir /d"\npython "$acc" --verbose\n', "tools/acc.py": "print(1)\n"},
        "run.sh:2",
        "`tools/acc.py --dir /d` is one quoted word: python looks for a file of that whole name, and `tools/acc.py` "
        "is the file; remove the quotes, or keep the words in an array",
    ),
    "LL303-several files of that name": (
        {"run.sh": "python main.py\n", "a/main.py": "print(1)\n", "b/main.py": "print(2)\n"},
        "run.sh:1",
        "`main.py` is not next to this file or under the project root, and 2 files have that name; use the path "
        "of the one meant",
    ),
    "LL303-several files of that name, the one ending in most of the path first": (
        {
            "scripts/run.sh": "python benchmarks/nas/runner.py\n",
            "benchmarks/README.md": "moved to runners/\n",
            **{f"{d}/runner.py": "print(1)\n" for d in ("a/eval", "b/bbo", "c/opt", "runners/nas")},
        },
        "scripts/run.sh:1",
        "`benchmarks/nas/runner.py` is not next to this file or under the project root, and 4 files have that name; "
        "use the path of the one meant (`runners/nas/runner.py`?)",
    ),
    "LL303-from the launcher's own directory": (
        {"scripts/train.sh": 'source "$(dirname "$0")/common.sh"\n', "common.sh": "X=1\n"},
        "scripts/train.sh:1",
        "`$(dirname \"$0\")/common.sh` leads to scripts/common.sh, which does not exist; fix the path (did you "
        "mean `common.sh`?), or create it",
    ),
    "LL303-a module of the project's package": (
        {
            "run.sh": "python -m verl.trainer.main_ppoo\n",
            "verl/__init__.py": "",
            "verl/trainer/__init__.py": "",
            "verl/trainer/main_ppo.py": "print(1)\n",
        },
        "run.sh:1",
        "`verl.trainer.main_ppoo` is no module of the project's verl/ package: python stops with 'No module named "
        "verl.trainer.main_ppoo'; fix the name (did you mean `verl.trainer.main_ppo`?), or create it",
    ),
    "LL303-in a nested project, moved": (
        {"sub/setup.py": "", "sub/pkg/__init__.py": "", "sub/pkg/old/conv.py": "print(1)\n", "sub/scripts/run.sh": "python pkg/new/conv.py\n"},
        "sub/scripts/run.sh:1",
        "`pkg/new/conv.py` is not next to this file, under sub/ (its own project's root) or under the project root: "
        "the project's only file of that name is `sub/pkg/old/conv.py`; use `pkg/old/conv.py`",
    ),
    "LL303-only in another nested project": (
        {"a/setup.py": "", "a/scripts/train.sh": "echo\n", "a/run.sh": "bash scripts/prep.sh\n", "b/setup.py": "", "b/scripts/prep.sh": "echo\n"},
        "a/run.sh:1",
        "`scripts/prep.sh` is not next to this file or under the project root: the project's only file of that name is "
        "`b/scripts/prep.sh`; fix the path",
    ),
    "LL303-after a cd": (
        {"run.sh": "cd experiments && python train.py\n", "train.py": "print(1)\n", "experiments/README.md": "x\n"},
        "run.sh:1",
        "`train.py` is not under experiments/, where the launcher cds: the project's only file of that name is "
        "`train.py`; use `../train.py`",
    ),
    "LL304": (
        {"run.sh": "deepspeed train.py --deepspeed configs/ds_zero3.json\n", "train.py": "print(1)\n"},
        "run.sh:1",
        "`--deepspeed configs/ds_zero3.json`: no such file, so the job fails after start-up with "
        "FileNotFoundError; fix the path, or create it",
    ),
    "LL304-from the launcher's own directory": (
        {"scripts/run.sh": 'deepspeed train.py --deepspeed_config "$(dirname "$0")/ds.json"\n', "train.py": "print(1)\n"},
        "scripts/run.sh:1",
        "`--deepspeed_config $(dirname \"$0\")/ds.json` leads to scripts/ds.json, which does not exist, so the "
        "job fails after start-up with FileNotFoundError; fix the path, or create it",
    ),
    "LL304-Hydra's config name": (
        {"run.sh": "python trainer/main.py --config-path config --config-name ppo_megatron\n", **HYDRA},
        "run.sh:1",
        "`--config-name ppo_megatron`: `trainer/config/ppo_megatron.yaml` does not exist, so Hydra stops at "
        "start-up with MissingConfigException; fix the name, or create it",
    ),
    "LL304-Hydra's config path": (
        {"run.sh": "python trainer/main.py --config-path configs --config-name ppo\n", **HYDRA},
        "run.sh:1",
        "`--config-path configs` is relative to trainer/main.py, and `trainer/configs/` does not exist: Hydra "
        "stops at start-up with 'Primary config directory not found'; fix the path, or create it",
    ),
    "LL304-@hydra.main's config path": (
        {"run.sh": "python trainer/main.py --config-name ppo_megatron\n", **HYDRA},
        "run.sh:1",
        "`--config-name ppo_megatron`: `trainer/config/ppo_megatron.yaml` does not exist, so Hydra stops at "
        "start-up with MissingConfigException; fix the name, or create it",
    ),
    "LL304-yml for yaml": (
        {
            "run.sh": "torchrun --nproc_per_node 8 train.py --config configs/llama7b.yml\n",
            "configs/llama7b.yaml": "lr: 1\n",
        },
        "run.sh:1",
        "`--config configs/llama7b.yml`: no such file, so the job fails after start-up with FileNotFoundError; "
        "fix the path (did you mean `configs/llama7b.yaml`?), or create it",
    ),
    "LL401-visible devices": (
        {"run.sh": "CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 8 train.py\n"},
        "run.sh:1",
        "torchrun starts 8 processes per node but 2 GPUs are visible (CUDA_VISIBLE_DEVICES=0,1): ranks 2-7 "
        "fail with 'CUDA error: invalid device ordinal'; start 2, or make 8 visible",
    ),
    "LL401-another accelerator's devices": (  # ROCm's HIP, Ascend's torch_npu, Gaudi, Intel: not CUDA's words
        {"run.sh": "HIP_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 8 train.py\n"},
        "run.sh:1",
        "torchrun starts 8 processes per node but 2 devices are visible (HIP_VISIBLE_DEVICES=0,1): ranks 2-7 "
        "fail with an invalid device ordinal; start 2, or make 8 visible",
    ),
    "LL401-the job's GPUs": (
        {
            "job.sbatch": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\nsrun torchrun --nproc_per_node 8 train.py\n"
        },
        "job.sbatch:4",
        "torchrun starts 8 processes per node but the job gets 4 GPUs per node (#SBATCH --gres=gpu:4): ranks "
        "4-7 fail with 'CUDA error: invalid device ordinal'; start 4, or allocate 8",
    ),
    "LL401-a launcher module after the interpreter's options": (  # SuPreM's `python -W ignore -m torch.distributed.launch`
        {"run.sh": "CUDA_VISIBLE_DEVICES=0,1 python -W ignore -m torch.distributed.launch --nproc_per_node 4 train.py\n"},
        "run.sh:1",
        "python -m torch.distributed.launch starts 4 processes per node but 2 GPUs are visible (CUDA_VISIBLE_DEVICES=0,1): "
        "ranks 2-3 fail with 'CUDA error: invalid device ordinal'; start 2, or make 4 visible",
    ),
    "LL401-the job's one GPU": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:1\nsrun torchrun --nproc_per_node 2 train.py\n"},
        "job.sbatch:4",
        "torchrun starts 2 processes per node but the job gets 1 GPU per node (#SBATCH --gres=gpu:1): rank "
        "1 fails with 'CUDA error: invalid device ordinal'; start 1, or allocate 2",
    ),
    "LL401-idle GPUs": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:8\ntorchrun --nproc_per_node 4 train.py\n"},
        "job.sbatch:4",
        "torchrun starts 4 processes per node but the job gets 8 GPUs per node (#SBATCH --gres=gpu:8): 4 of "
        "them sit idle for the whole run; start 8, or allocate 4",
    ),
    "LL401-idle GPUs of a whole node": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:8\n#SBATCH --exclusive\ntorchrun --nproc_per_node 4 t.py\n"},
        "job.sbatch:5",
        "torchrun starts 4 processes per node but the job gets at least 8 GPUs per node (#SBATCH --gres=gpu:8, "
        "--exclusive): 4 or more sit idle; start one per GPU of the node, or allocate 4 without `--exclusive`",
    ),
    "LL401-a torchrun per task": (
        {
            "job.sbatch": (
                "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\n"
                "srun --ntasks-per-node=2 torchrun --nproc_per_node 4 train.py\n"
            )
        },
        "job.sbatch:4",
        "srun starts 2 copies of torchrun per node, 4 processes each, but the job gets 4 GPUs per node "
        "(#SBATCH --gres=gpu:4): the copies' local ranks share the same GPUs; run one task per node "
        "(`--ntasks-per-node=1`)",
    ),
    "LL402": (
        {"run.sh": "torchrun --nproc_per_node 2 a.py &\ntorchrun --nproc_per_node 2 b.py &\nwait\n"},
        "run.sh:2",
        "port 29500 (torchrun's default) is taken by the torchrun at line 1: this one fails with 'Address "
        "already in use'; give each its own `--master_port`, or use `--standalone`",
    ),
    "LL402-two on one line": (
        {"run.sh": "torchrun --nproc_per_node 2 a.py & torchrun --nproc_per_node 2 b.py &\nwait\n"},
        "run.sh:1",
        "port 29500 (torchrun's default) is taken by torchrun earlier on this line: this one fails with 'Address "
        "already in use'; give each its own `--master_port`, or use `--standalone`",
    ),
    "LL402-MASTER_PORT to torchrun": (
        {
            "run.sh": (
                "MASTER_PORT=29600 torchrun --nproc_per_node 2 train.py &\n"
                "MASTER_PORT=29601 torchrun --nproc_per_node 2 train.py &\nwait\n"
            )
        },
        "run.sh:2",
        "port 29500 (torchrun's default: torchrun ignores `MASTER_PORT`) is taken by the torchrun at line 1: "
        "this one fails with 'Address already in use'; give each its own `--master_port`, or use "
        "`--standalone`",
    ),
    "LL402-a loop": (
        {
            "sweep.sh": "for lr in 1e-4 3e-4; do\n  torchrun --nproc_per_node 2 --master_port 29500 train.py --lr $lr &\ndone\nwait\n"
        },
        "sweep.sh:2",
        "the loop at line 1 starts torchrun in the background on port 29500: all but one fail with 'Address "
        "already in use'; give each its own `--master_port`, or use `--standalone`",
    ),
    "LL402-a loop on one line": (
        {"sweep.sh": "for lr in 1e-4 3e-4; do torchrun --nproc_per_node 2 train.py --lr $lr & done; wait\n"},
        "sweep.sh:1",
        "the loop on this line starts torchrun in the background on port 29500 (torchrun's default): all but one "
        "fail with 'Address already in use'; give each its own `--master_port`, or use `--standalone`",
    ),
    "LL402-a port drawn once": (
        {"sweep.sh": "PORT=$RANDOM\nfor lr in 1e-4 3e-4; do\n  torchrun --nproc_per_node 2 --master_port $PORT train.py --lr $lr &\ndone\nwait\n"},
        "sweep.sh:3",
        "the loop at line 2 starts torchrun in the background on port $PORT (set once, at line 1): all but one fail "
        "with 'Address already in use'; give each its own `--master_port`, or use `--standalone`",
    ),
    "LL402-accelerate": (  # since accelerate 1.8, one that finds the port taken takes a free one
        {
            "run.sh": (
                "accelerate launch --multi_gpu --num_processes 2 --main_process_port 29500 a.py &\n"
                "accelerate launch --multi_gpu --num_processes 2 --main_process_port 29500 b.py &\nwait\n"
            )
        },
        "run.sh:2",
        "port 29500 is taken by the accelerate at line 1: this one fails (from accelerate 1.8, only if both start "
        "together); give each its own `--main_process_port`",
    ),
    "LL402-xargs -P": (
        {"sweep.sh": "cat lrs.txt | xargs -P 4 -I{} torchrun --nproc_per_node 2 train.py --lr {}\n"},
        "sweep.sh:1",
        "`xargs -P` runs torchrun several at a time on port 29500 (torchrun's default): all but one fail with "
        "'Address already in use'; give each its own `--master_port`, or use `--standalone`",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_message_says_what_to_do(case, tmp_path):
    files, where, message = CASES[case]
    code = case[:5]
    write_project(tmp_path, files)
    result = launchlint("--format", "json", "--select", code, ".", cwd=tmp_path)
    assert [(f"{f['path']}:{f['line']}", f["message"]) for f in json.loads(result.stdout)] == [(where, message)]
    if code in SHORT:
        assert fix_of(message) and len(message) <= (ORDINARY if case in ORDINARY_CASES else LONGEST), message


@pytest.mark.parametrize("code", SHORT)
def test_every_finding_of_the_rules_own_examples_says_what_to_do_in_few_words(code, tmp_path):
    """Each INVALID example of the rule is a project of its own (its own root marker), all linted
    by one run."""
    examples = rule_by_code()[code].invalid
    for n, example in enumerate(examples):
        (tmp_path / str(n)).mkdir()
        write_project(tmp_path / str(n), example.files)
    result = launchlint("--format", "json", "--select", code, *map(str, range(len(examples))), cwd=tmp_path)
    messages = [f["message"] for f in json.loads(result.stdout)]
    assert len(messages) == sum(len(example.expect) for example in examples), result.stderr
    assert [m for m in messages if not fix_of(m) or len(m) > LONGEST] == []


def test_a_missing_config_offers_the_file_of_the_nearest_name_as_a_related_location(tmp_path):
    files, _, _ = CASES["LL304-yml for yaml"]
    write_project(tmp_path, files)
    (finding,) = json.loads(launchlint("--format", "json", "--select", "LL304", ".", cwd=tmp_path).stdout)
    assert [(r["path"], r["message"]) for r in finding["related"]] == [
        ("configs/llama7b.yaml", "configs/llama7b.yaml is a file of the project")
    ]


def test_a_missing_hydra_config_path_points_at_the_config_of_its_name(tmp_path):
    """A config path made of a placeholder (verl-tool's `BASEDIR=base_dir`, then
    `--config-path=${BASEDIR}/recipe/deepeyes/configs`): the project's one config of the name
    `--config-name` gives, where the launcher's path names, is a related location with the config
    path that finds it from the program; none when two files have the name."""
    files = {
        **HYDRA,
        "recipe/deepeyes/run.sh": "BASEDIR=base_dir\npython trainer/main.py --config-path=$BASEDIR/recipe/deepeyes/configs --config-name=grpo\n",
        "recipe/deepeyes/configs/grpo.yaml": "lr: 1\n",
    }
    write_project(tmp_path, files)
    (finding,) = json.loads(launchlint("--format", "json", "--select", "LL304", ".", cwd=tmp_path).stdout)
    assert [(r["path"], r["line"], r["message"]) for r in finding["related"]] == [
        ("recipe/deepeyes/configs/grpo.yaml", 1, "`--config-name grpo` is here: `--config-path ../recipe/deepeyes/configs` finds it"),
        ("recipe/deepeyes/run.sh", 1, "the value is last set here"),
    ]
    write_project(tmp_path, {"recipe/other/configs/grpo.yaml": "lr: 2\n"})
    (finding,) = json.loads(launchlint("--format", "json", "--select", "LL304", ".", cwd=tmp_path).stdout)
    assert [r["path"] for r in finding["related"]] == ["recipe/deepeyes/run.sh"]


def test_a_caller_round_a_loop_is_one_related_location(tmp_path):
    """Each value of the loop is an invocation of its own, with the same note at the same place."""
    write_project(
        tmp_path,
        {
            "lane.sh": "python train.py\n",
            "run.sh": 'for lane in a b; do bash lane.sh "$lane" > "logs/lane-$lane.log" 2>&1 & done\nwait\n',
            "logs/.gitkeep": "",
        },
    )
    (finding,) = json.loads(launchlint("--format", "json", "--select", "LL106", ".", cwd=tmp_path).stdout)
    assert [(r["path"], r["line"], r["message"]) for r in finding["related"]] == [("run.sh", 1, "run.sh captures lane.sh's output here")]


def test_an_unexported_pythonunbuffered_is_named_as_the_cause(tmp_path):
    """`PYTHONUNBUFFERED=1;...; nohup python ...` (OpenNMT-kpg's selftrain scripts): a shell
    variable python never sees; the message says so, at the assignment, instead of "set it"."""
    line = "PYTHONUNBUFFERED=1;CUDA_VISIBLE_DEVICES=0 nohup python train.py > logs/a.log 2>&1 &\n"
    write_project(tmp_path, {"train.py": "print(1)\n", "a.sh": line, "b.sh": line + "export PYTHONUNBUFFERED\n", "logs/.gitkeep": ""})
    found = json.loads(launchlint("--format", "json", "--select", "LL106", ".", cwd=tmp_path).stdout)
    messages = {f["path"]: f["message"] for f in found}
    assert messages["a.sh"].endswith("`PYTHONUNBUFFERED` is set at line 1 but not exported, so python does not see it: `export` it")
    assert ("a.sh", 1, 18) in [(r["path"], r["line"], r["column"]) for f in found for r in f["related"]]
    assert messages["b.sh"].endswith("use `python -u` or set PYTHONUNBUFFERED=1")


# What a message no longer says, and where it is said: the place, a related location.
RELATED = {
    "LL109-the job's own mkdir": [("job.sbatch:3", "this `mkdir` runs after SLURM has opened the log: too late")],
    "LL109-one log for stdout and stderr": [("job.sbatch:3", "`--error` names the same file")],
    "LL303-several files of that name": [("a/main.py:1", "a/main.py has that name"), ("b/main.py:1", "b/main.py has that name")],
    "LL303-several files of that name, the one ending in most of the path first": [
        ("runners/nas/runner.py:1", "runners/nas/runner.py has that name"),
        ("a/eval/runner.py:1", "a/eval/runner.py has that name"),
        ("b/bbo/runner.py:1", "b/bbo/runner.py has that name"),
    ],
    "LL303-a module of the project's package": [
        ("verl/__init__.py:1", "python imports this package first, and it has no trainer/main_ppoo.py or trainer/main_ppoo/")
    ],
    "LL302-a near miss of the option": [
        ("decode.py:5", "`--result_dir` is required here"),
        ("run.sh:1", "`--result_file` is passed here: decode.py has no such option"),
    ],
    "LL301-after a cd, flags the program the path names before it defines": [
        ("run.sh:3", "`-s` is passed here"),
        ("run.sh:3", "`--iters` is passed here"),
        ("sub/train.py:2", "the parser of sub/train.py"),
        ("train.py:2", "the parser of train.py, which defines them"),
    ],
    "LL302-after a cd, the program the path names before it may take the launch": [
        ("sub/train.py:3", "`--data` is required here"),
        ("train.py:3", "the parser of train.py"),
    ],
    "LL304-Hydra's config name": [("run.sh:1", "--config-path is relative to trainer/main.py")],
    "LL304-@hydra.main's config path": [("trainer/main.py:4", "config_path='config', relative to trainer/main.py")],
}


@pytest.mark.parametrize("case", RELATED, ids=str)
def test_the_places_a_message_leaves_out_are_its_related_locations(case, tmp_path):
    files, _, _ = CASES[case]
    write_project(tmp_path, files)
    (finding,) = json.loads(launchlint("--format", "json", "--select", case[:5], ".", cwd=tmp_path).stdout)
    assert [(f"{r['path']}:{r['line']}", r["message"]) for r in finding["related"]] == RELATED[case]


def test_namesakes_in_no_directory_of_the_launchers_path_are_not_offered_as_the_fix(tmp_path):
    """A `detection/run.sh` that runs yolov5's `train.py` (in that checkout, as MONAI's tutorials
    do): the project's trainers of the name in `seg/` and `cls/` are not the one meant."""
    write_project(
        tmp_path,
        {
            "seg/train.py": "print(1)\n",
            "cls/train.py": "print(1)\n",
            "detection/run.sh": "torchrun --nproc_per_node 4 train.py --img 512\n",
            "examples/gpt/train.py": "print(1)\n",
            "examples/bert/train.py": "print(1)\n",
            "examples/run/run.sh": "python train.py\n",
        },
    )
    findings = json.loads(launchlint("--format", "json", "--select", "LL303", ".", cwd=tmp_path).stdout)
    assert [(f["path"], fix_of(f["message"])) for f in findings] == [
        ("detection/run.sh", "fix the path, or run it from the checkout it belongs to"),
        ("examples/run/run.sh", "use the path of the one meant"),
    ]


def test_a_close_name_beside_the_launcher_is_offered_before_unrelated_namesakes(tmp_path):
    """`bash run_fedprox.sh` in `scripts/flit/`, whose `run_fedprox_cls.sh` is beside it, and two
    other benchmarks' `run_fedprox.sh` elsewhere, in `scripts/` directories of their own or not
    (FederatedScope): the close name beside it is the did-you-mean, the namesakes still listed."""
    write_project(
        tmp_path,
        {
            "bench/a/scripts/run_fedprox.sh": "echo a\n",
            "bench/b/run_fedprox.sh": "echo b\n",
            "scripts/flit/run_fedprox_cls.sh": "echo cls\n",
            "scripts/flit/fedalgo.sh": "bash run_fedprox.sh\n",
            "other/fedalgo.sh": "bash run_fedprox.sh\n",
        },
    )
    findings = json.loads(launchlint("--format", "json", "--select", "LL303", ".", cwd=tmp_path).stdout)
    assert [(f["path"], fix_of(f["message"]), [r["path"] for r in f["related"]]) for f in findings] == [
        ("other/fedalgo.sh", "fix the path, or run it from the checkout it belongs to", ["bench/a/scripts/run_fedprox.sh", "bench/b/run_fedprox.sh"]),
        (
            "scripts/flit/fedalgo.sh",
            "fix the path (did you mean `run_fedprox_cls.sh`?), or create it",
            ["scripts/flit/run_fedprox_cls.sh", "bench/a/scripts/run_fedprox.sh", "bench/b/run_fedprox.sh"],
        ),
    ]


def test_the_loop_note_is_for_a_word_of_the_loops_list_only(tmp_path):
    """LL303 and LL304 say the loop's variable takes each word of the list only when the missing
    path is such a word; a path the command writes itself, beside `--dev $CVD`, gets no such note
    (LLM-Inference-Bench's `for CVD in 0 1; do python ../spawn.py gen.py --dev $CVD; done`)."""
    write_project(
        tmp_path,
        {
            "gen.py": "print(1)\n",
            "run.sh": (
                "for CVD in 0 1; do python spawn.py gen.py --config none.yaml --dev $CVD; done\n"
                "for s in prep.py tran.py; do python $s --config \"c_$s.yaml\"; done\n"
            ),
            "prep.py": "print(1)\n",
        },
    )
    found = json.loads(launchlint("--format", "json", "--select", "LL303,LL304", ".", cwd=tmp_path).stdout)
    notes = {(f["code"], f["line"], f["column"]): [r["message"] for r in f["related"] if "loop's variable" in r["message"]] for f in found}
    runs, passes = "run.sh runs it here, the loop's", "run.sh passes it here, the loop's"
    assert {k: [m[: len(runs if k[0] == "LL303" else passes)] for m in v] for k, v in notes.items()} == {
        ("LL303", 1, 27): [],
        ("LL304", 1, 52): [],
        ("LL304", 2, 10): [passes],
        ("LL303", 2, 18): [runs],
        ("LL304", 2, 18): [passes],
    }


def test_a_fire_programs_unknown_flag_says_fire_runs_without_it_and_names_the_function(tmp_path):
    """python-fire calls the function without a flag that names none of its parameters and only
    then exits (fire 0.7.1's core.py): the message says so, and the related location is the
    function fire runs, not a parser."""
    write_project(tmp_path, {
        "finetune.py": "import fire\n\n\ndef train(base_model='', lora_r=8):\n    print(base_model, lora_r)\n\n\nfire.Fire(train)\n",
        "run.sh": "python finetune.py --base_model llama --deepspeed ds.json\n",
    })  # fmt: skip
    (finding,) = json.loads(launchlint("--format", "json", "--select", "LL301", ".", cwd=tmp_path).stdout)
    assert finding["message"] == (
        "`--deepspeed` is not an option of finetune.py: fire runs it without the flag, then exits with "
        "'Could not consume arguments'; remove it, or add a parameter of that name"
    )
    assert [(r["path"], r["line"], r["message"]) for r in finding["related"]] == [("finetune.py", 4, "`train`, the function fire runs")]
