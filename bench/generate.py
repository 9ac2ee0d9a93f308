"""A deterministic generator of realistic ML launch projects, for the benchmark.

`python bench/generate.py OUT --files N [--seed S]` writes N source files under OUT: about 45%
shell launchers (torchrun with argument arrays and continuation lines, Slurm batch jobs, remote
launchers nesting commands in `ssh '...'` and `tmux new-session -d "..."`), 45% Python (trainers
with argparse, threads, thread pools and `torch.compile`, plus helper modules) and 10% YAML
(GitHub workflows with `run:` blocks, training configs), grouped in experiment directories of 50
files, and a `.launchlint.yaml` marking the project root.

Same N and seed, same bytes: every file draws from its own `random.Random` seeded by the seed and
its path, so nothing depends on the run, the clock, the machine or the order files are written.
No network, no templates copied from elsewhere.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

# Within every 20 files: 9 shell, 9 Python, 2 YAML, so any multiple of 20 is exactly 45/45/10.
KIND_CYCLE = ("shell", "python") * 9 + ("yaml", "yaml")
GROUP_SIZE = 50  # files per experiment directory, about what one team's experiment folder holds
TEAMS = ("pretrain", "alignment", "multimodal", "speech", "infra", "evals", "retrieval")
MODELS = ("gpt", "llama", "t5", "bert", "mixtral", "vit", "whisper", "mamba")
HOSTS = ("gpu-node-01", "gpu-node-02", "dgx-a", "dgx-b", "h100-03", "train-box")
ROOT_MARKER = "# launchlint benchmark project: this directory is the project root\n"


@dataclass(frozen=True)
class Planned:
    """One file to write: where, what kind, what role in its experiment directory."""

    path: str
    kind: str
    role: str
    group: int
    index: int  # position among the files of its kind in its group


@dataclass(frozen=True)
class Group:
    """What a file may refer to in its own experiment directory."""

    directory: str
    trainers: tuple[str, ...]  # paths relative to the directory
    launchers: tuple[str, ...]
    helpers: tuple[str, ...]


def group_dir(group: int) -> str:
    return f"projects/{TEAMS[group % len(TEAMS)]}/exp_{group:04d}"


def plan(n_files: int) -> list[Planned]:
    """The files of an N-file project, in a fixed order."""
    planned, seen = [], Counter()
    for i in range(n_files):
        kind, group = KIND_CYCLE[i % len(KIND_CYCLE)], i // GROUP_SIZE
        index = seen[(group, kind)]
        seen[(group, kind)] += 1
        role, rel = _role(kind, index, group)
        path = rel if rel.startswith(".github/") else f"{group_dir(group)}/{rel}"
        planned.append(Planned(path, kind, role, group, index))
    return planned


def _role(kind: str, k: int, group: int) -> tuple[str, str]:
    model = MODELS[(group + k) % len(MODELS)]
    if kind == "shell":
        if k == 0:
            return "env", "scripts/env.sh"
        role = ("slurm", "remote", "torchrun", "torchrun")[k % 4]
        name = {"slurm": f"slurm/{model}_{k}.sbatch", "remote": f"scripts/remote_{k}.sh"}
        return role, name.get(role, f"scripts/launch_{model}_{k}.sh")
    if kind == "python":
        role = ("trainer", "finetuner", "helper")[k % 3]
        name = {
            "trainer": f"train/pretrain_{model}_{k}.py",
            "finetuner": f"train/finetune_{model}_{k}.py",
        }
        return role, name.get(role, f"utils/data_{k}.py")
    if k == 0:
        return "workflow", f".github/workflows/exp_{group:04d}_smoke.yml"
    return "config", f"configs/{model}_{k}.yaml"


def _groups(planned: list[Planned]) -> dict[int, Group]:
    groups = {}
    for number in sorted({p.group for p in planned}):
        prefix = group_dir(number) + "/"
        mine = [p for p in planned if p.group == number and p.path.startswith(prefix)]

        def rel(roles, mine=mine, prefix=prefix):
            return tuple(p.path[len(prefix) :] for p in mine if p.role in roles)

        groups[number] = Group(
            group_dir(number),
            rel({"trainer", "finetuner"}) or ("train/pretrain_gpt_0.py",),
            rel({"torchrun"}) or ("scripts/launch_gpt_2.sh",),
            rel({"helper"}) or ("utils/data_2.py",),
        )
    return groups


def generate(out: Path, n_files: int, seed: int = 0) -> Counter:
    """Write the project under `out`; returns the number of files of each kind."""
    out.mkdir(parents=True, exist_ok=True)
    (out / ".launchlint.yaml").write_text(ROOT_MARKER)
    planned = plan(n_files)
    groups = _groups(planned)
    for item in planned:
        rng = random.Random(f"{seed}:{item.path}")  # a str seed hashes the same on every run
        path = out / item.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(RENDER[item.role](rng, item, groups[item.group]))
    return Counter(p.kind for p in planned)


# --- shell -----------------------------------------------------------------------------------


def _env(rng: random.Random, item: Planned, group: Group) -> str:
    cuda = rng.choice(("12.1", "12.4", "11.8"))
    return f"""#!/usr/bin/env bash
# Sourced by every launcher of {group.directory}: cluster paths and NCCL settings.
export DATA_DIR="${{DATA_DIR:-/datasets/{rng.choice(MODELS)}}}"
export CKPT_ROOT="${{CKPT_ROOT:-/checkpoints/$USER}}"
export LOG_ROOT="${{LOG_ROOT:-/logs/$USER/exp_{item.group:04d}}}"
export CUDA_HOME=/usr/local/cuda-{cuda}
export PATH="$CUDA_HOME/bin:$PATH"
export NCCL_IB_DISABLE={rng.randint(0, 1)}
export NCCL_SOCKET_IFNAME=${{NCCL_SOCKET_IFNAME:-eth0}}
export OMP_NUM_THREADS={rng.choice((4, 8, 16))}
export PYTHONUNBUFFERED=1

log() {{
    printf '[%s] %s\\n' "$(date +%H:%M:%S)" "$*" >&2
}}

require() {{
    command -v "$1" >/dev/null 2>&1 || {{ log "missing $1"; exit 1; }}
}}
"""


def _model_args(rng: random.Random) -> list[str]:
    """Options every trainer defines (ARG_SPECS[:4]), as its launchers pass them; now and then
    one a trainer may not define, spelled as another codebase spells it (an LL301 to find)."""
    args = [
        f"--lr {rng.choice(('1.5e-4', '3e-4', '6e-4'))}",
        f"--epochs {rng.randint(1, 20)}",
        f"--batch-size {rng.choice((8, 16, 32))}",
        f"--num-workers {rng.choice((2, 4, 8))}",
    ]
    if rng.random() < 0.05:
        args.append(f"--warmup_steps {rng.choice((100, 500, 2000))}")
    return rng.sample(args, k=rng.randint(3, len(args)))


def _array(name: str, items: list[str]) -> str:
    body = "\n".join(f"    {item}" for item in items)
    return f"{name}=(\n{body}\n)"


def _torchrun(rng: random.Random, item: Planned, group: Group) -> str:
    trainer = rng.choice(group.trainers)
    strict = rng.random() < 0.85  # some real launchers forget pipefail
    redirect = rng.random() < 0.2  # and some send their own output to a file
    run = f"{item.index}_{rng.randint(100, 999)}"
    lines = [
        "#!/bin/bash",
        f"# Pretraining launcher, run {run}: torchrun on ${{NNODES}} nodes.",
        "set -euo pipefail" if strict else "set -e",
        "",
        'SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
        'source "$SCRIPT_DIR/env.sh"',
        "",
        f'RUN_NAME="${{RUN_NAME:-run_{run}}}"',
        'LOG_DIR="$LOG_ROOT/$RUN_NAME"',
        'mkdir -p "$LOG_DIR" "$CKPT_ROOT/$RUN_NAME"',
        f"GPUS_PER_NODE={rng.choice((4, 8))}",
        "NNODES=${NNODES:-1}",
        "NODE_RANK=${NODE_RANK:-0}",
        "MASTER_ADDR=${MASTER_ADDR:-localhost}",
        f"MASTER_PORT=${{MASTER_PORT:-{rng.randint(20000, 40000)}}}",
        "",
        _array("MODEL_ARGS", _model_args(rng)),
        "",
        _array("DATA_ARGS", [f"--num-workers {rng.choice((2, 4, 8))}"]),
        "",
        _array("OUTPUT_ARGS", ['--output-dir "$CKPT_ROOT/$RUN_NAME"']),
        "",
    ]
    if redirect:
        lines += ['exec > "$LOG_DIR/launcher.log" 2>&1', ""]
    lines += [
        'log "starting $RUN_NAME on $NNODES nodes"',
        "torchrun \\",
        "    --nproc_per_node $GPUS_PER_NODE \\",
        "    --nnodes $NNODES --node_rank $NODE_RANK \\",
        "    --master_addr $MASTER_ADDR --master_port $MASTER_PORT \\",
        f'    "$SCRIPT_DIR/../{trainer}" \\',
        '    "${MODEL_ARGS[@]}" \\',
        '    "${DATA_ARGS[@]}" \\',
        '    "${OUTPUT_ARGS[@]}" \\',
        f'    2>&1 | tee "$LOG_DIR/train_{run}.log"',
        "",
        'log "done: $RUN_NAME"',
    ]
    return "\n".join(lines) + "\n"


def _remote(rng: random.Random, item: Planned, group: Group) -> str:
    launcher = rng.choice(group.launchers)
    hosts = " ".join(rng.sample(HOSTS, k=rng.randint(1, 3)))
    tag = f"{item.group:04d}_{item.index}"
    workdir = f"/work/{group.directory}"
    return f"""#!/usr/bin/env bash
# Start the run on each host in a detached tmux session, logs kept on the host.
set -euo pipefail

HOSTS=({hosts})
SESSION="exp{tag}"
REMOTE_LOG=/workspace/logs/stdout_{tag}.log

for host in "${{HOSTS[@]}}"; do
    echo "launching on $host"
    ssh -o ConnectTimeout=10 "$host" \\
        'cd {workdir} && tmux new-session -d -s exp{tag} "bash {launcher} 2>&1 | tee /workspace/logs/stdout_{tag}.log"'
done

if [[ "${{FOLLOW:-0}}" == 1 ]]; then
    ssh "${{HOSTS[0]}}" "tail -f $REMOTE_LOG"
fi
tmux new-session -d -s "watch_$SESSION" "watch -n 60 'nvidia-smi --query-gpu=utilization.gpu --format=csv'"
echo "follow with: ssh ${{HOSTS[0]}} tail -f $REMOTE_LOG"
"""


def _slurm(rng: random.Random, item: Planned, group: Group) -> str:
    trainer = rng.choice(group.trainers)
    nodes = rng.choice((1, 2, 4, 8))
    name = f"exp{item.group:04d}_{item.index}"
    return f"""#!/bin/bash
#SBATCH --job-name={name}
#SBATCH --nodes={nodes}
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time={rng.choice(("04:00:00", "24:00:00", "72:00:00"))}
#SBATCH --output=/logs/%u/{name}_%j.out
set -euo pipefail

source "{group.directory}/scripts/env.sh"
MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_ADDR MASTER_PORT={rng.randint(20000, 40000)}

srun --kill-on-bad-exit=1 bash -c "python -u {group.directory}/{trainer} \\
    --lr {rng.choice(("1e-4", "2e-4"))} --epochs {rng.randint(1, 10)} \\
    --output-dir $CKPT_ROOT/{name}_$SLURM_JOB_ID" | tee "$LOG_ROOT/{name}.log"
"""


# --- Python ----------------------------------------------------------------------------------

ARG_SPECS = (
    '("--lr", type=float, default={lr})',
    '("--epochs", type=int, default={epochs})',
    '("--batch-size", type=int, default={batch})',
    '("--num-workers", type=int, default={workers})',
    '("--output-dir", default="checkpoints")',
    '("--seed", type=int, default={seed})',
    '("--compile", action="store_true")',
    '("--warmup-steps", type=int, default={warmup})',
    '("--grad-clip", type=float, default=1.0)',
    '("--log-every", type=int, default=10)',
)


def _argparse(rng: random.Random, description: str) -> str:
    values = {
        "lr": rng.choice((1e-4, 3e-4, 6e-4)),
        "epochs": rng.randint(1, 20),
        "batch": rng.choice((8, 16, 32)),
        "workers": rng.choice((2, 4, 8)),
        "seed": rng.randint(0, 9999),
        "warmup": rng.choice((100, 500, 2000)),
    }
    specs = ARG_SPECS[:5] + tuple(rng.sample(ARG_SPECS[5:], k=rng.randint(1, 5)))
    adds = "\n".join(f"    parser.add_argument{spec.format(**values)}" for spec in specs)
    return f"""def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="{description}")
{adds}
    return parser.parse_args(argv)
"""


def _trainer(rng: random.Random, item: Planned, group: Group) -> str:
    helper = Path(rng.choice(group.helpers)).stem
    locked = rng.random() < 0.7  # most share one lock around the compiled call; some do not
    compile_mode = rng.choice(('"max-autotune"', '"reduce-overhead"', '"default"'))
    lock_use = (
        "with STEP_LOCK:\n                loss = compiled_step(model, batch)"
        if locked
        else "loss = compiled_step(model, batch)"
    )
    return f'''"""Pretraining entry point for {group.directory}: one worker thread per device."""

import argparse
import logging
import queue
import threading
import time

import torch
from torch import nn

from utils.{helper} import build_loader

LOG = logging.getLogger(__name__)
STEP_LOCK = threading.Lock()


def train_step(model, batch):
    logits = model(batch["input"])
    return nn.functional.cross_entropy(logits, batch["target"])


compiled_step = torch.compile(train_step, mode={compile_mode})


class Prefetcher(threading.Thread):
    """Keeps {rng.randint(2, 8)} batches ready so the device never waits on the loader."""

    def __init__(self, loader, depth):
        super().__init__(daemon=True)
        self.loader, self.batches = loader, queue.Queue(maxsize=depth)

    def run(self):
        for batch in self.loader:
            self.batches.put(batch)
        self.batches.put(None)


def worker(rank, model, args):
    device = torch.device("cuda", rank)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    prefetch = Prefetcher(build_loader(args.batch_size, rank), depth=4)
    prefetch.start()
    step = 0
    while True:
        batch = prefetch.batches.get()
        if batch is None:
            break
        batch = {{k: v.to(device, non_blocking=True) for k, v in batch.items()}}
        for _ in range(args.epochs):
            {lock_use}
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), {rng.choice(("1.0", "0.5"))})
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        step += 1
        if step % {rng.choice((10, 50, 100))} == 0:
            LOG.info("rank %d step %d loss %.4f", rank, step, loss.item())


{_argparse(rng, "pretraining")}

def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO)
    model = nn.Sequential(nn.Embedding({rng.choice((32000, 50257))}, {rng.choice((512, 1024))}), nn.Linear(1024, 32000))
    started = time.time()
    threads = [threading.Thread(target=worker, args=(rank, model, args)) for rank in range(args.num_workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    LOG.info("finished in %.1fs", time.time() - started)


if __name__ == "__main__":
    main()
'''


def _finetuner(rng: random.Random, item: Planned, group: Group) -> str:
    helper = Path(rng.choice(group.helpers)).stem
    return f'''"""Fine-tuning with checkpoints uploaded in the background."""

import argparse
import json
import os
from concurrent.futures import ThreadPoolExecutor

import torch

from utils.{helper} import build_loader, shard_paths

UPLOADS = ThreadPoolExecutor(max_workers={rng.choice((2, 4))})


def upload(path, bucket="{rng.choice(("ckpt-bucket", "ml-artifacts"))}"):
    size = os.path.getsize(path)
    print(json.dumps({{"event": "upload", "path": path, "bucket": bucket, "bytes": size}}))


def save(model, step, output_dir):
    path = os.path.join(output_dir, f"step_{{step:07d}}.pt")
    torch.save(model.state_dict(), path)
    return UPLOADS.submit(upload, path)


{_argparse(rng, "fine-tuning")}

def main():
    args = parse_args()
    os.makedirs(args.output_dir, exist_ok=True)
    model = torch.nn.Linear({rng.choice((768, 1024))}, {rng.choice((2, 10, 100))})
    if args.compile:
        model = torch.compile(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    pending = []
    for epoch in range(args.epochs):
        for step, (x, y) in enumerate(build_loader(args.batch_size, 0)):
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if step % {rng.choice((100, 500))} == 0:
                pending.append(save(model, epoch * 100000 + step, args.output_dir))
    for future in pending:
        future.result()
    print("shards:", len(shard_paths(args.output_dir)))


if __name__ == "__main__":
    main()
'''


def _helper(rng: random.Random, item: Planned, group: Group) -> str:
    return f'''"""Data loading helpers shared by the trainers of {group.directory}."""

import glob
import os

import torch
from torch.utils.data import DataLoader, Dataset

SEQ_LEN = {rng.choice((512, 1024, 2048))}


class TokenDataset(Dataset):
    def __init__(self, size, vocab={rng.choice((32000, 50257))}):
        self.size, self.vocab = size, vocab

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        generator = torch.Generator().manual_seed(index)
        tokens = torch.randint(0, self.vocab, (SEQ_LEN + 1,), generator=generator)
        return {{"input": tokens[:-1], "target": tokens[1:]}}


def build_loader(batch_size, rank, size={rng.choice((10000, 100000))}):
    dataset = TokenDataset(size)
    return DataLoader(dataset, batch_size=batch_size, num_workers={rng.choice((2, 4))}, pin_memory=True)


def shard_paths(directory):
    return sorted(glob.glob(os.path.join(directory, "*.pt")))
'''


# --- YAML ------------------------------------------------------------------------------------


def _workflow(rng: random.Random, item: Planned, group: Group) -> str:
    launcher = rng.choice(group.launchers)
    trainer = rng.choice(group.trainers)
    return f"""name: smoke exp_{item.group:04d}
on:
  push:
    branches: [main]
    paths: ["{group.directory}/**"]
  pull_request:
jobs:
  smoke:
    runs-on: {rng.choice(("ubuntu-latest", "[self-hosted, gpu]"))}
    timeout-minutes: {rng.choice((20, 30, 60))}
    env:
      LOG_ROOT: ${{{{ github.workspace }}}}/logs
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: |
          set -euo pipefail
          python -m pip install --upgrade pip
          pip install torch --index-url "$TORCH_INDEX"
      - name: Arguments parse
        run: python {group.directory}/{trainer} --help
      - name: Smoke run
        run: |
          set -euo pipefail
          mkdir -p "$LOG_ROOT"
          NNODES=1 RUN_NAME=smoke bash {group.directory}/{launcher} 2>&1 | tee "$LOG_ROOT/smoke.log"
          grep -q "done: smoke" "$LOG_ROOT/smoke.log"
"""


def _config(rng: random.Random, item: Planned, group: Group) -> str:
    hidden = rng.choice((1024, 2048, 4096))
    return f"""# Training config for {group.directory}; read by the trainers with --config.
defaults: &defaults
  seed: {rng.randint(0, 9999)}
  precision: {rng.choice(("bf16", "fp16", "fp32"))}
  log_every: 10

model:
  name: {rng.choice(MODELS)}-{rng.choice(("small", "base", "large"))}
  hidden_size: {hidden}
  num_layers: {rng.choice((12, 24, 32))}
  num_heads: {hidden // 128}
  dropout: {rng.choice((0.0, 0.1))}

optimizer:
  type: adamw
  lr: {rng.choice(("1.0e-4", "3.0e-4"))}
  betas: [0.9, 0.95]
  weight_decay: 0.1

schedule:
  warmup_steps: {rng.choice((500, 2000))}
  decay: cosine
  total_steps: {rng.choice((100000, 250000))}

data:
  train: ["/datasets/shard-{{000..{rng.randint(100, 999)}}}.jsonl"]
  eval: /datasets/eval.jsonl
  tokenizer: {rng.choice(("sentencepiece", "tiktoken"))}

runs:
  - <<: *defaults
    name: baseline
  - <<: *defaults
    name: long-warmup
    warmup_steps: {rng.choice((4000, 8000))}
"""


RENDER = {
    "env": _env,
    "torchrun": _torchrun,
    "remote": _remote,
    "slurm": _slurm,
    "trainer": _trainer,
    "finetuner": _finetuner,
    "helper": _helper,
    "workflow": _workflow,
    "config": _config,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="directory to write the project into")
    parser.add_argument("--files", type=int, default=1000, help="number of source files")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    counts = generate(args.out, args.files, args.seed)
    print(f"{args.out}: " + ", ".join(f"{counts[k]} {k}" for k in ("shell", "python", "yaml")))


if __name__ == "__main__":
    main()
