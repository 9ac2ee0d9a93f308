"""LL304, LL401 and LL402 through the real `launchlint` command: each finding at the exact
column of the word to change, the other place as a related location, and a Megatron-style
launcher left alone."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.conftest import write_project

REPO = Path(__file__).resolve().parent.parent
LAUNCHLINT = shutil.which("launchlint") or "launchlint"
RESOURCE_RULES = "LL304,LL401,LL402"


def lint(root: Path, files: dict[str, str]) -> list[dict]:
    write_project(root, files)
    result = subprocess.run(
        [LAUNCHLINT, "--no-cache", "--format", "json", "--select", RESOURCE_RULES, "."],
        cwd=root, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def where(findings: list[dict]) -> list[tuple[str, str, int, int]]:
    return [(f["code"], f["path"], f["line"], f["column"]) for f in findings]


def related(finding: dict) -> list[tuple[str, int, int]]:
    return [(r["path"], r["line"], r["column"]) for r in finding["related"]]


def test_missing_configs_at_their_values(tmp_path):
    found = lint(
        tmp_path,
        {
            "train.sh": (
                "#!/bin/bash\n"
                "deepspeed train.py --deepspeed configs/ds_zero3.json --config=configs/exp.yaml\n"
                "ssh gpu1 'python /srv/train.py --config /srv/missing.yaml'\n"
                "python3 -m trainer.main --config-path=conf --config-name=base\n"
            ),
            "train.py": "print('train')\n",
            "configs/ds_z3.json": "{}\n",
            "trainer/main.py": "import hydra\n",
            "trainer/conf/ppo.yaml": "a: 1\n",
        },
    )
    assert where(found) == [
        ("LL304", "train.sh", 2, 32),  # the word after --deepspeed
        ("LL304", "train.sh", 2, 63),  # the value of --config=, not the option
        ("LL304", "train.sh", 4, 58),  # base.yaml is not in trainer/conf/
    ]
    assert "FileNotFoundError" in found[0]["message"]
    assert "trainer/conf/base.yaml" in found[2]["message"]


def test_a_config_from_the_launchers_own_directory_is_looked_for_there(tmp_path):
    """`"$(dirname "$0")/ds.json"` names one place, as it does for LL303's scripts: a file missing
    there is reported; one that is there, a remote host's or one the launcher tests for is not."""
    found = lint(
        tmp_path,
        {
            "scripts/launch.sh": (
                '#!/bin/bash\nhere=$(dirname "$0")\n'
                'deepspeed "$here/train.py" --deepspeed_config "$here/ds_zero9.json"\n'
                'deepspeed "$here/train.py" --deepspeed_config "$here/ds_zero3.json"\n'
                'ssh gpu1 "python train.py --config $(dirname $0)/remote.yaml"\n'
                '[ -f "$here/local.yaml" ] && python "$here/train.py" --config "$here/local.yaml"\n'
                'python "$here/train.py" --config "$WORK/exp.yaml"\n'
            ),
            "scripts/train.py": "print('train')\n",
            "scripts/ds_zero3.json": "{}\n",
        },
    )
    assert where(found) == [("LL304", "scripts/launch.sh", 3, 47)]  # the quoted word
    assert "leads to scripts/ds_zero9.json, which does not exist" in found[0]["message"]


def test_a_clone_of_a_directorys_name_does_not_hide_the_projects_own_directory(tmp_path):
    """A CI script clones `tool` (olmocr's clones `olmocr`): a path into a `tool/` the project has
    is the project's, and a missing file there is reported; into a clone the project lacks, not."""
    found = lint(
        tmp_path,
        {
            "ci/selftest.sh": "#!/bin/bash\ngit clone https://example.com/org/tool.git tool && cd tool\n",
            "train.sh": (
                "#!/bin/bash\npython -m tool.train --config tool/configs/typo.yaml\n"
                "python -m vendor.train --config vendor/tool/x.yaml\n"
            ),
            "tool/__init__.py": "",
            "tool/train.py": "print('train')\n",
            "tool/configs/base.yaml": "a: 1\n",
        },
    )
    assert where(found) == [("LL304", "train.sh", 2, 31)]


def test_slurm_allocation_and_accelerate_config(tmp_path):
    found = lint(
        tmp_path,
        {
            "pretrain.sbatch": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\nsrun torchrun --nproc_per_node 8 train.py\n",
            "launch.sh": "accelerate launch --config_file accelerate.yaml train.py\n",
            "accelerate.yaml": "num_machines: 1\nnum_processes: 8\ngpu_ids: 0,1,2,3\n",
            "sweep.sh": "export CUDA_VISIBLE_DEVICES=0,1\nN=4\ntorchrun --nproc-per-node=$N train.py\n",
        },
    )
    assert where(found) == [
        ("LL401", "accelerate.yaml", 2, 16),
        ("LL401", "pretrain.sbatch", 4, 32),
        ("LL401", "sweep.sh", 3, 27),  # the `$N` of `--nproc-per-node=$N`
    ]
    yaml, sbatch, sweep = found
    assert related(yaml) == [("accelerate.yaml", 3, 10)]  # gpu_ids
    assert related(sbatch) == [("pretrain.sbatch", 3, 9)]  # the --gres directive
    assert related(sweep) == [("sweep.sh", 1, 29)]  # the exported value
    assert "CUDA error: invalid device ordinal" in sbatch["message"]
    assert "8 processes per node" in sbatch["message"] and "4 GPUs per node" in sbatch["message"]


def test_port_collisions_in_background_and_in_tmux_strings(tmp_path):
    found = lint(
        tmp_path,
        {
            "sweep.sh": (
                "CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 train.py &\n"
                "CUDA_VISIBLE_DEVICES=2,3 torchrun --nproc_per_node 2 train.py &\nwait\n"
            ),
            "tmux.sh": (
                "tmux new-session -d -s a 'torchrun --master_port 6000 train.py'\n"
                "tmux new-session -d -s b 'torchrun --master-port=6000 eval.py'\n"
            ),
            "ok.sh": (
                "for i in 0 1 2 3; do\n"
                "  CUDA_VISIBLE_DEVICES=$i torchrun --master_port $((29500 + i)) train.py &\ndone\nwait\n"
                "torchrun --standalone a.py &\ntorchrun --standalone b.py &\nwait\n"
            ),
        },
    )
    assert where(found) == [
        ("LL402", "sweep.sh", 2, 26),  # the second torchrun, on the default port
        ("LL402", "tmux.sh", 2, 50),  # inside the quoted string, at the port's value
    ]
    assert related(found[0]) == [("sweep.sh", 1, 26)]
    assert related(found[1]) == [("tmux.sh", 1, 50)]
    assert "Address already in use" in found[0]["message"] and "29500" in found[0]["message"]


def test_megatron_style_launchers_are_clean():
    result = subprocess.run(
        [LAUNCHLINT, "--no-cache", "--select", RESOURCE_RULES, "fixtures/megatron-clean"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_ll401_messages_name_the_launcher_as_spelled_and_read_as_sentences(tmp_path):
    found = lint(
        tmp_path,
        {
            "run.sh": (
                "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0\n"
                "python3 -m torch.distributed.launch --nproc_per_node 4 train.py\n"
            ),
            "job.sbatch": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus=4\ntorchrun --nproc_per_node 8 train.py\n",
            "train.py": "print('train')\n",
        },
    )
    assert where(found) == [("LL401", "job.sbatch", 4, 27), ("LL401", "run.sh", 3, 54)]
    job, run = found
    assert "(#SBATCH --gpus=4 over 1 node)" in job["message"]
    assert run["message"].startswith("python3 -m torch.distributed.launch starts 4 processes per node")
    assert "but 1 GPU is visible (CUDA_VISIBLE_DEVICES=0)" in run["message"]
    assert run["related"][0]["message"] == "CUDA_VISIBLE_DEVICES=0 makes 1 GPU visible here"


def test_ft_launcher_is_read_as_the_torchrun_it_is_built_on(tmp_path):
    """nvidia-resiliency-ext's ft_launcher takes torchrun's options: its `--nproc-per-node` counts
    for LL401; its port for LL402 only with `--rdzv-backend static`, as it meets in a c10d store
    by default (`fault_tolerance/cli_args.py`), and a `MASTER_PORT` set for it is not read."""
    found = lint(
        tmp_path,
        {
            "run.sh": (
                "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0,1 ft_launcher --ft-cfg-path ft.yaml --nproc-per-node=4 train.py\n"
                "ft_launcher --nproc-per-node 2 train.py &\nft_launcher --nproc-per-node 2 train.py &\nwait\n"
                "ft_launcher --rdzv-backend static train.py &\n"
                "MASTER_PORT=29501 ft_launcher --rdzv_backend=static --nproc-per-node 2 train.py &\nwait\n"
            ),
            "train.py": "print('train')\n",
            "ft.yaml": "fault_tolerance:\n  rank_heartbeat_timeout: 60\n",
        },
    )
    assert where(found) == [("LL401", "run.sh", 2, 77), ("LL402", "run.sh", 7, 19)]
    gpus, port = found
    assert gpus["message"].startswith("ft_launcher starts 4 processes per node but 2 GPUs are visible")
    assert "port 29500 (ft_launcher's default: ft_launcher ignores `MASTER_PORT`) is taken" in port["message"]
    assert "give each its own `--master_port`, or use `--standalone`" in port["message"]
