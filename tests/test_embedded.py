"""Shell embedded in workflows, Compose files, Kubernetes manifests, Makefiles and runbooks,
through the real `launchlint`: each finding at its exact line and column in the embedding file."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EMBEDDED = REPO / "fixtures" / "embedded"
LAUNCHLINT = shutil.which("launchlint") or "launchlint"


def launchlint(*args: str, cwd: Path) -> list[dict]:
    result = subprocess.run(
        [LAUNCHLINT, "--format", "json", "--no-cache", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)


def where(finding: dict) -> tuple[str, str, int, int]:
    return finding["code"], finding["path"], finding["line"], finding["column"]


def spot(path: Path, needle: str, at: str = "") -> tuple[int, int]:
    """1-based (line, column) of the first `needle` in the file, or of `at` inside it."""
    text = path.read_text()
    offset = text.index(needle) + needle.index(at)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def project(root: Path, files: dict[str, str]) -> Path:
    (root / ".launchlint.yaml").write_text("# project root for the test\n")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


# --- the fixture: one planted problem per embedding --------------------------------------------


def test_fixture_reports_each_planted_problem_once():
    found = [where(f) for f in launchlint("fixtures/embedded", cwd=REPO)]
    planted = [  # code, file, what the finding points at
        ("LL104", ".github/workflows/train.yml", "2>&1 >logs/ci.log"),  # after a ${{ }}
        ("LL101", "Makefile", "$(LOGS)/train_run6.log"),
        ("LL107", "RUNBOOK.md", "nohup python"),  # in a console block, after the prompt
        ("LL101", "docker-compose.yml", "runs/exp6/train.log"),  # the config says exp7
        ("LL106", "k8s/job.yaml", "python train.py"),  # in a Job's bash -c
    ]
    expected = [
        (code, f"fixtures/embedded/{name}", *spot(EMBEDDED / name, needle))
        for code, name, needle in planted
    ]
    assert found == expected


def test_fixture_related_locations_point_into_the_embeddings():
    related = {
        f["path"]: (r["path"], r["line"], r["column"])
        for f in launchlint("fixtures/embedded", cwd=REPO)
        for r in f["related"]
    }
    prefix = "fixtures/embedded/"
    assert related[prefix + "Makefile"] == (
        prefix + "Makefile", *spot(EMBEDDED / "Makefile", "$(LOGS)/train_$(RUN).log")
    )
    assert related[prefix + "docker-compose.yml"] == (
        prefix + "configs/exp7.yaml", *spot(EMBEDDED / "configs/exp7.yaml", "runs/exp7")
    )


# --- GitHub Actions ----------------------------------------------------------------------------

WORKFLOW = """\
on: push
jobs:
  train:
    runs-on: ubuntu-latest
    steps:
      - run: python -u train.py > logs/run_${{ matrix.n }}_v3.log 2>&1 && python -u t.py > logs/w_v3.log
      - run: echo "${{ github.sha }}" ${{ inputs.tag }} && tail -f logs/w_v2.log
      - run: |
          echo ${{ github.event.inputs.reason }} )
"""


def test_workflow_finding_after_expressions_on_the_same_line(tmp_path):
    root = project(tmp_path, {".github/workflows/train.yml": WORKFLOW})
    path = root / ".github/workflows/train.yml"
    found = [where(f) for f in launchlint(".", cwd=root)]
    assert found == [
        ("LL101", ".github/workflows/train.yml", *spot(path, "logs/w_v2.log")),
        ("LL001", ".github/workflows/train.yml", *spot(path, "reason }} )", at=")")),
    ]


# --- Compose -----------------------------------------------------------------------------------

COMPOSE = """\
services:
  train:
    image: trainer
    command: ["bash", "-c", "bash start.sh 2>&1 | tee /logs/run8.log"]
"""


def test_compose_list_form_drift_and_the_script_it_starves(tmp_path):
    root = project(tmp_path, {
        "compose.yaml": COMPOSE,
        "start.sh": "exec > /logs/run7.log 2>&1\npython -u train.py\n",
    })
    findings = launchlint("--select", "LL101,LL102", ".", cwd=root)
    assert [where(f) for f in findings] == [
        ("LL101", "compose.yaml", *spot(root / "compose.yaml", "/logs/run8.log")),
        ("LL102", "start.sh", 1, 1),
    ]
    starved_by = findings[1]["related"][0]
    assert (starved_by["path"], starved_by["line"], starved_by["column"]) == (
        "compose.yaml", *spot(root / "compose.yaml", "tee /logs")
    )


# --- GitLab CI ---------------------------------------------------------------------------------

GITLAB_CI = """\
variables:
  DATA: data/train
.setup:
  before_script:
    - pip install -r requirements.txt
    - export LOG_DIR=logs
train:
  extends: .setup
  stage: train
  variables:
    PYTHONUNBUFFERED: "1"
  script:
    - python train.py --sed 1 2>&1 | tee $LOG_DIR/train.log
eval:
  stage: test
  script:
    - !reference [.setup, before_script]
    - python train.py --seed 2 > eval.log
"""


def test_gitlab_ci_jobs_are_linted_where_they_are_written(tmp_path):
    root = project(tmp_path, {".gitlab-ci.yml": GITLAB_CI, "train.py": (EMBEDDED / "train.py").read_text()})
    path = root / ".gitlab-ci.yml"
    found = [where(f) for f in launchlint(".", cwd=root)]
    assert found == [  # no LL105 for `| tee` (pipefail), no LL106 where PYTHONUNBUFFERED is set
        ("LL301", ".gitlab-ci.yml", *spot(path, "--sed")),
        ("LL106", ".gitlab-ci.yml", *spot(path, "python train.py --seed 2")),
    ]


def test_gitlab_ci_pipefail_turned_off_is_advised_back_on(tmp_path):
    job = "train:\n  stage: train\n  script:\n    - set +o pipefail\n    - python -u train.py | tee x.log\n"
    root = project(tmp_path, {".gitlab-ci.yml": job, "train.py": (EMBEDDED / "train.py").read_text()})
    (finding,) = launchlint(".", cwd=root)
    assert where(finding) == ("LL105", ".gitlab-ci.yml", *spot(root / ".gitlab-ci.yml", "python -u"))
    assert finding["message"].endswith("use `set -o pipefail`")


# --- Azure Pipelines ---------------------------------------------------------------------------

AZURE = """\
trigger: [main]
pool:
  vmImage: ubuntu-latest
variables:
  LOG_DIR: $(Build.ArtifactStagingDirectory)/logs
stages:
- stage: test
  jobs:
  - job: smoke
    steps:
    - bash: |
        python train.py --seed 1 2>&1 | tee $(LOG_DIR)/smoke.log
        ./upload.sh
      env:
        PYTHONUNBUFFERED: 1
    - script: python train.py --sed 2 > $LOG_DIR/eval.log
      workingDirectory: $(Build.SourcesDirectory)
    - pwsh: python train.py --seed 3 | Tee-Object pwsh.log
"""


def test_azure_pipelines_steps_and_scripts_are_linted_where_they_are_written(tmp_path):
    root = project(tmp_path, {
        "azure-pipelines.yml": AZURE,
        ".azure-pipelines/scripts/ut.sh": "#!/bin/bash\nset -e\npytest -vs tests/ 2>&1 | tee ut.log\n",
        "train.py": (EMBEDDED / "train.py").read_text(),
    })
    path = root / "azure-pipelines.yml"
    found = sorted(where(f) for f in launchlint(".", cwd=root))
    assert found == sorted([
        ("LL105", ".azure-pipelines/scripts/ut.sh", 3, 1),  # walked as .github/ is
        ("LL105", "azure-pipelines.yml", *spot(path, "python train.py --seed 1")),  # `bash <file>`: no pipefail
        ("LL303", "azure-pipelines.yml", *spot(path, "./upload.sh")),
        ("LL301", "azure-pipelines.yml", *spot(path, "--sed")),
        ("LL106", "azure-pipelines.yml", *spot(path, "python train.py --sed")),  # no PYTHONUNBUFFERED in this step
    ])  # nothing in the PowerShell step


# --- Kubernetes --------------------------------------------------------------------------------

JOB = """\
apiVersion: v1
kind: Service
metadata: {name: tensorboard}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: trainer
              image: trainer
              env:
                - {name: RUN_DIR, value: /runs/nightly}
              command: ["/bin/bash", "-c"]
              args:
                - |
                  mkdir -p $(RUN_DIR)
                  python -u train.py > $(RUN_DIR)/train_v5.log 2>&1
                  tail -n 20 $(RUN_DIR)/train_v4.log
                  echo "done $(RUN_DIR)" )
"""


def test_kubernetes_job_bash_c_with_env_references(tmp_path):
    root = project(tmp_path, {"k8s/nightly.yaml": JOB})
    path = root / "k8s/nightly.yaml"
    assert [where(f) for f in launchlint(".", cwd=root)] == [
        ("LL101", "k8s/nightly.yaml", *spot(path, "$(RUN_DIR)/train_v4.log")),
        ("LL001", "k8s/nightly.yaml", *spot(path, '" )', at=")")),
    ]


# --- Makefiles ---------------------------------------------------------------------------------

MAKEFILE = """\
LOG_DIRECTORY := logs/experiments
RUN ?= run7
Q = @

train:
\t$(Q)python -u train.py > $(LOG_DIRECTORY)/train_$(RUN).log 2>&1

watch:
\t@echo "watching $(RUN)" && \\
\t  tail -f $(LOG_DIRECTORY)/train_run6.log

broken:
\t-@echo $(LOG_DIRECTORY) $$HOME )
"""


def test_makefile_recipe_with_make_variables_and_prefixes(tmp_path):
    root = project(tmp_path, {"Makefile": MAKEFILE})
    path = root / "Makefile"
    found = [where(f) for f in launchlint("--select", "LL001,LL101", ".", cwd=root)]
    assert found == [
        ("LL101", "Makefile", *spot(path, "$(LOG_DIRECTORY)/train_run6.log")),
        ("LL001", "Makefile", *spot(path, "$$HOME )", at=")")),
    ]


def test_makefile_suppressions_at_the_end_of_the_line_and_above_it(tmp_path):
    text = MAKEFILE.replace(
        "\t  tail -f $(LOG_DIRECTORY)/train_run6.log",
        "\t  tail -f $(LOG_DIRECTORY)/train_run6.log  # launchlint: disable=LL101",
    ).replace("broken:\n", "broken:\n# launchlint: disable=LL001\n")
    root = project(tmp_path, {"Makefile": text})
    assert launchlint(".", cwd=root) == []


def test_mk_and_gnumakefile_are_makefiles(tmp_path):
    recipe = "watch:\n\t@tail -f logs/exp_v2.log\n"
    root = project(tmp_path, {
        "GNUmakefile": "train:\n\tpython -u t.py > logs/exp_v3.log 2>&1\n",
        "make/watch.mk": recipe,
    })
    assert [where(f) for f in launchlint(".", cwd=root)] == [
        ("LL101", "make/watch.mk", 2, 11),
    ]


# --- Markdown runbooks -------------------------------------------------------------------------

RUNBOOK = """\
# Restarting training

1. Start the job:

   ```bash
   nohup python -u train.py > /data/logs/exp_v3.log 2>&1 &
   ```

2. Check it is alive:

   ```console
   $ tail -f /data/logs/exp_v2.log
   step 100 loss 2.1
   $ echo "all good" \\
   >   )
   ```
"""


def test_markdown_console_block_commands_after_the_prompt(tmp_path):
    root = project(tmp_path, {"docs/RUNBOOK.md": RUNBOOK})
    path = root / "docs/RUNBOOK.md"
    assert [where(f) for f in launchlint(".", cwd=root)] == [
        ("LL101", "docs/RUNBOOK.md", *spot(path, "/data/logs/exp_v2.log")),
        ("LL001", "docs/RUNBOOK.md", *spot(path, ">   )", at=")")),
    ]


@pytest.mark.parametrize(
    "name,linted_in_a_walk",
    [
        ("README.md", False),
        ("docs/training.md", False),
        ("RUNBOOK.md", True),
        ("docs/oncall-runbook.md", True),
        ("docs/runbooks/restart.md", True),
    ],
)
def test_markdown_is_read_when_named_or_when_it_is_a_runbook(tmp_path, name, linted_in_a_walk):
    root = project(tmp_path, {name: RUNBOOK})
    walked = {f["path"] for f in launchlint(".", cwd=root)}
    assert walked == ({name} if linted_in_a_walk else set())
    named = {f["path"] for f in launchlint(name, cwd=root)}
    assert named == {name}


def test_markdown_example_commands_do_not_feed_other_files(tmp_path):
    """A README's `tee` is an example, not a writer: the script's monitor is judged without it."""
    root = project(tmp_path, {
        "README.md": "```bash\npython -u train.py | tee logs/exp_v3.log\n```\n",
        "watch.sh": "tail -f logs/exp_v2.log\n",
    })
    assert launchlint(".", cwd=root) == []


def test_markdown_cd_into_the_projects_own_clone_is_the_project(tmp_path):
    """A README's install steps, `git clone .../proj.git` then `cd proj`, land in the project
    itself (its checkout's name, which the project has no directory of): the paths of the later
    blocks are judged, as without the install steps. A directory of that name the project has is
    that directory, and `cd` anywhere else still leaves the paths unjudged."""
    install = "```bash\ngit clone https://github.com/me/proj.git\ncd proj\n```\n\n"
    (tmp_path / "proj").mkdir()
    root = project(tmp_path / "proj", {
        "RUNBOOK.md": install + "```bash\npython launcher.py --x 1\ncd tools\nbash gone.sh\n```\n",
        "docs/runbooks/other.md": "```bash\ncd elsewhere\n```\n\n```bash\npython launcher.py\n```\n",
        "tools/.keep": "",
        "train.py": "print(1)\n",
    })
    assert [where(f)[:3] for f in launchlint(".", cwd=root)] == [
        ("LL303", "RUNBOOK.md", 7),
        ("LL303", "RUNBOOK.md", 9),
    ]


def test_kubernetes_env_reaches_the_rules(tmp_path):
    manifest = (EMBEDDED / "k8s/job.yaml").read_text().replace(
        "          env:\n", "          env:\n            - {name: PYTHONUNBUFFERED, value: '1'}\n"
    )
    root = project(tmp_path, {"k8s/job.yaml": manifest})
    assert launchlint(".", cwd=root) == []


def test_launch_spec_read_past_its_set_echo_and_assignment_lines(tmp_path):
    """LL105's advice (`set -o pipefail` first in a launch spec's `run:`) keeps the block read; a
    config's `command: train` and a prose `run:` stay names. (A SkyPilot task's `run:` is read
    whole: `test_skypilot_setup_runs_first_with_the_tasks_environment`.)"""
    root = project(tmp_path, {
        "spec.yaml": (
            "job:\n  accelerators: A100:8\n  run: |\n    set -o pipefail\n"
            "    python train.py 2>&1 | tee train.log\n"
        ),
        "multinode.yaml": (
            "run: |\n  NODES=`echo \"$SKYPILOT_NODE_IPS\" | wc -l`\n  HEAD=$(echo \"$SKYPILOT_NODE_IPS\" | head -n1)\n"
            "  torchrun --nnodes $NODES --master_addr $HEAD train.py | tee run.log\n"
        ),
        "dstack.yaml": "type: task\ncommands:\n  - echo starting\n  - python train.py > train.log\n",
        "cfg.yaml": "trainer:\n  command: train\n  run: |\n    set fast\n    echo slow | tee x\n",
    })
    found = sorted((f["code"], f["path"], f["line"]) for f in launchlint(".", cwd=root))
    assert found == [
        ("LL105", "multinode.yaml", 4),
        ("LL106", "dstack.yaml", 4),
        ("LL106", "spec.yaml", 5),
    ]


def test_skypilot_setup_runs_first_with_the_tasks_environment(tmp_path):
    """A SkyPilot task's `setup:` is read before its `run:`, as a script of its own: what it
    clones is known to `run:` (a `cd` into the clone, a config there), its own `cd` ends with it,
    and its pipelines are judged; `envs:` are exported values. A document with a key no SkyPilot
    task has (`image:`) is no task: its `setup:` is not read."""
    root = project(tmp_path, {
        "train.py": "print('train')\n",
        "prepare.py": "print('prepare')\n",
        "clone.yaml": (
            "setup: |\n  git clone https://github.com/facebookresearch/detectron2\n"
            "run: |\n  cd detectron2/tools\n  python train_net.py --config-file ../configs/mask_rcnn.yaml\n"
        ),
        "other.yaml": (
            "image: maskrcnn\nsetup: |\n  git clone https://github.com/facebookresearch/maskrcnn\n"
            "run: |\n  cd maskrcnn/tools\n  python train_net.py --config-file ../configs/mask_rcnn.yaml\n"
        ),
        "cd.yaml": (
            "setup: |\n  git clone https://github.com/org/bench\n  cd bench\n  pip install -e .\n"
            "run: |\n  python trian.py\n"
        ),
        "envs.yaml": "envs:\n  SCRIPT: trian.py\nrun: |\n  python $SCRIPT\n",
        "pipe.yaml": "setup: |\n  python prepare.py | tee prep.log\nrun: |\n  python train.py\n",
    })
    found = sorted((f["code"], f["path"], f["line"]) for f in launchlint(".", cwd=root))
    assert found == [
        ("LL105", "pipe.yaml", 2),
        ("LL303", "cd.yaml", 6),
        ("LL303", "envs.yaml", 4),
        ("LL303", "other.yaml", 6),
        ("LL304", "other.yaml", 6),
    ]


def test_skypilot_workdir_of_another_checkout(tmp_path):
    """`run:`'s relative paths in a SkyPilot task whose `workdir:` is another checkout (a home's
    directory, an absolute or climbing path, a git repository) are not the project's: no missing
    script, config file or unknown flag of a namesake; `workdir: .` and a home's directory of the
    checkout's name keep them the project's."""
    root = tmp_path / "proj"
    root.mkdir()
    trainer = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n"
    run = "run: |\n  cd examples/qa\n  python run_qa.py --config configs/qa.yaml\n  cd ~/sky_workdir\n  python train.py --bogus 1\n"
    project(root, {
        "train.py": trainer,
        "home.yaml": "workdir: ~/transformers\n" + run,
        "git.yaml": "workdir:\n  url: https://github.com/huggingface/transformers.git\n  ref: main\n" + run,
        "abs.yaml": "workdir: /data/transformers\n" + run,
        "up.yaml": "workdir: ../transformers\n" + run,
        "here.yaml": "workdir: .\n" + run,
        "mine.yaml": "workdir: ~/proj\n" + run,
    })
    found = sorted((f["code"], f["path"], f["line"]) for f in launchlint(".", cwd=root))
    assert found == [
        ("LL301", "here.yaml", 6), ("LL301", "mine.yaml", 6),
        ("LL303", "here.yaml", 4), ("LL303", "mine.yaml", 4),
        ("LL304", "here.yaml", 4), ("LL304", "mine.yaml", 4),
    ]
