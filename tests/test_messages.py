"""A finding says what is wrong, what it costs, and what to do: the fix is part of the message
(as ruff's and ShellCheck's), paths and code in backticks. Through the real command."""

from __future__ import annotations

import json

import pytest

from tests.conftest import write_project
from tests.test_cli import launchlint

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
        "it write to stdout, or use `2>&1 | tee logs/train.log`",
    ),
    "LL107-tmux": (
        {"run.sh": 'tmux new-session -d -s train "python -u train.py"\n'},
        "run.sh:1",
        "nothing keeps the output of this detached tmux session: when the job dies, the pane closes with its "
        "traceback; end the command with `2>&1 | tee logs/job.log`, or set `remain-on-exit on`",
    ),
    "LL107-screen": (
        {"run.sh": "screen -dmS ev python -u eval.py\n"},
        "run.sh:1",
        "nothing keeps the output of this detached screen session: when the job dies, the window closes with its "
        "traceback; end the command with `2>&1 | tee logs/job.log`, or log it with `screen -L`",
    ),
    "LL107-nohup": (
        {"run.sh": "nohup python -u eval.py &\n"},
        "run.sh:1",
        "`nohup` with no redirection appends this job's output to a `nohup.out` in whatever directory it starts "
        "in; redirect it: `nohup cmd > logs/job.log 2>&1 &`",
    ),
    "LL109-the job's own mkdir": (
        {"job.sbatch": "#!/bin/bash\n#SBATCH --output=logs/%x-%j.out\nmkdir -p logs\nsrun python -u train.py\n"},
        "job.sbatch:2",
        "SLURM opens `logs/%x-%j.out` before the job starts and creates no directory: `logs/` does not exist (the "
        "`mkdir` at line 3 runs too late), so the job fails without a log; create it before `sbatch`, or commit "
        "`logs/.gitkeep`",
    ),
    "LL201": (
        {
            "train.py": (
                "import threading\n\nimport torch\n\n\ndef worker():\n    step = torch.compile(lambda x: x)\n"
                "    step(1)\n\n\nfor _ in range(4):\n    threading.Thread(target=worker).start()\n"
            )
        },
        "train.py:7",
        "torch.compile compiles a callable on worker threads, which call it with no shared lock: dynamo and inductor "
        "are not thread safe, so racing first calls compile it again, and past recompile_limit (8) the rest silently "
        "run uncompiled; compile it once on the main thread and call it there before starting them",
    ),
    "LL202": (
        {
            "train.py": (
                "import threading\n\nimport torch\n\nstep = torch.compile(lambda x: x)\n\n\ndef worker():\n    step(1)\n"
                "\n\nfor _ in range(4):\n    threading.Thread(target=worker).start()\n"
            )
        },
        "train.py:9",
        "`step` (compiled with torch.compile) is called on worker threads with no shared lock: racing first calls "
        "compile it again, and past recompile_limit (8) the rest silently run uncompiled; share one lock between "
        "the threads, or call it once on the main thread before starting them",
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
        "`torch._dynamo.config.cache_size_limit` changed at module level does not reach the worker threads running "
        "compiled code (config is thread-local since PyTorch 2.12): they use the defaults; set it in the thread's "
        "function or the executor's `initializer`",
    ),
    "LL303-after a cd": (
        {"run.sh": "cd experiments && python train.py\n", "train.py": "print(1)\n", "experiments/README.md": "x\n"},
        "run.sh:1",
        "`train.py` is not under experiments/, where the launcher cds: the project's only file of that name is "
        "`train.py`; use `../train.py`",
    ),
    "LL304-yml for yaml": (
        {
            "run.sh": "torchrun --nproc_per_node 8 train.py --config configs/llama7b.yml\n",
            "configs/llama7b.yaml": "lr: 1\n",
        },
        "run.sh:1",
        "`--config configs/llama7b.yml`: no such file in the project; the job fails after start-up with "
        "FileNotFoundError; did you mean `configs/llama7b.yaml`?",
    ),
    "LL402-MASTER_PORT to torchrun": (
        {
            "run.sh": (
                "MASTER_PORT=29600 torchrun --nproc_per_node 2 train.py &\n"
                "MASTER_PORT=29601 torchrun --nproc_per_node 2 train.py &\nwait\n"
            )
        },
        "run.sh:2",
        "torchrun listens on port 29500 (torchrun's default: torchrun ignores `MASTER_PORT`), as torchrun at line 1 "
        "does, and they run at the same time (a background job): the second fails with 'Address already in use'; "
        "give each its own `--master_port`, or use `--standalone`",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_message_says_what_to_do(case, tmp_path):
    files, where, message = CASES[case]
    code = case[:5]
    write_project(tmp_path, files)
    result = launchlint("--format", "json", "--select", code, ".", cwd=tmp_path)
    assert [(f"{f['path']}:{f['line']}", f["message"]) for f in json.loads(result.stdout)] == [(where, message)]


def test_a_missing_config_offers_the_file_of_the_nearest_name_as_a_related_location(tmp_path):
    files, _, _ = CASES["LL304-yml for yaml"]
    write_project(tmp_path, files)
    (finding,) = json.loads(launchlint("--format", "json", "--select", "LL304", ".", cwd=tmp_path).stdout)
    assert [(r["path"], r["message"]) for r in finding["related"]] == [
        ("configs/llama7b.yaml", "configs/llama7b.yaml is a file of the project")
    ]
