"""LL104-LL109 through the real `launchlint` command: a careful launcher stays silent, nested
strings and workflow steps are reported at their exact positions, and safe fixes apply once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from launchlint.engine import Options, run
from launchlint.fixes import plan_fixes, unified_diff, write_fixes

from tests.conftest import lint, write_project

REPO = Path(__file__).resolve().parent.parent
CLEAN = REPO / "fixtures" / "megatron-clean"
FIXABLE = REPO / "fixtures" / "launch-fixable"
LAUNCHLINT = shutil.which("launchlint") or "launchlint"
SHELL_RULES = "LL104,LL105,LL106,LL107,LL108,LL109"


def launchlint(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [LAUNCHLINT, "--no-cache", *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def findings(*args: str, cwd: Path = REPO) -> list[tuple[str, str, int, int]]:
    result = launchlint("--format", "json", *args, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return [(f["code"], f["path"], f["line"], f["column"]) for f in json.loads(result.stdout)]


def where(path: Path, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of `needle` in a file."""
    seen = 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        column = line.find(needle)
        while column != -1:
            if seen == nth:
                return number, column + 1
            seen += 1
            column = line.find(needle, column + 1)
    raise AssertionError(f"{needle!r} not in {path}")


def copy_of(fixture: Path, tmp_path: Path) -> Path:
    target = tmp_path / fixture.name
    shutil.copytree(fixture, target, ignore=shutil.ignore_patterns(".launchlint_cache"), symlinks=True)
    return target


# --- a careful launcher is clean, and each careful line is what keeps it clean ------------------


def test_megatron_style_launcher_has_no_findings():
    result = launchlint("fixtures/megatron-clean")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("0 findings"), result.stdout


@pytest.mark.parametrize(
    "change,expected",
    [
        (("pretrain_gpt.sh", "set -euo pipefail\n", ""), ("LL105", "torchrun")),
        (("pretrain_gpt.sh", "2>&1 | tee", "2>&1 >"), ("LL104", "2>&1")),
        (("pretrain_gpt.sh", 'torchrun "${DISTRIBUTED_ARGS[@]}"', "python"), None),  # exported
        (("pretrain_gpt.sh", "export PYTHONUNBUFFERED=1\n", ""), None),  # torchrun runs python -u
    ],
)
def test_each_careful_line_matters(tmp_path, change, expected):
    project = copy_of(CLEAN, tmp_path)
    name, old, new = change
    script = project / name
    text = script.read_text()
    assert old in text
    script.write_text(text.replace(old, new))
    got = findings("--select", SHELL_RULES, ".", cwd=project)
    if expected is None:
        assert got == []
    else:
        code, needle = expected
        assert [(c, p) for c, p, _, _ in got] == [(code, name)]
        assert got[0][2] == where(script, needle)[0]


def test_python_without_unbuffered_env_is_reported_in_the_careful_launcher(tmp_path):
    project = copy_of(CLEAN, tmp_path)
    script = project / "pretrain_gpt.sh"
    text = script.read_text().replace("export PYTHONUNBUFFERED=1\n", "")
    script.write_text(text.replace('torchrun "${DISTRIBUTED_ARGS[@]}"', "python"))
    assert findings("--select", SHELL_RULES, ".", cwd=project) == []  # its trainer prints each step with flush=True
    trainer = project / "pretrain_gpt.py"
    trainer.write_text(trainer.read_text().replace(", flush=True)", ")"))
    assert findings("--select", SHELL_RULES, ".", cwd=project) == [
        ("LL106", "pretrain_gpt.sh", *where(script, "python pretrain_gpt.py"))
    ]


def test_missing_log_directory_fails_the_sbatch_header(tmp_path):
    """One finding for the missing `logs/`, at `--output`: `--error`'s file, in it too, is a related
    location, after the job's own `mkdir` that comes too late."""
    project = copy_of(CLEAN, tmp_path)
    shutil.rmtree(project / "logs")
    script = project / "pretrain_gpt.sh"
    assert findings("--select", SHELL_RULES, ".", cwd=project) == [("LL109", "pretrain_gpt.sh", *where(script, "--output="))]
    (finding,) = json.loads(launchlint("--format", "json", "--select", "LL109", ".", cwd=project).stdout)
    assert [(r["path"], r["line"], r["column"], r["message"]) for r in finding["related"]] == [
        ("pretrain_gpt.sh", *where(script, "mkdir -p"), "this `mkdir` runs after SLURM has opened the log: too late"),
        ("pretrain_gpt.sh", *where(script, "--error="), "`--error` opens `logs/%x-%j.err` there too"),
    ]


# --- nested strings and workflow steps: exact positions in the real file ------------------------

NESTED = """#!/bin/bash
set -euo pipefail
ssh gpu1 "tmux new-session -d -s job 'cd /w && python train.py 2>&1 > run.log'"
ssh gpu1 'cd /w && bash -c "python eval.py | tee eval.log"'
run_cmd="deepspeed pretrain.py 2>&1 > train.log"
eval ${run_cmd}
pct exec 200 -- bash start.sh
tmux new-session -d -s serve "python serve.py"
"""


def shell_findings(root: Path, name: str, text: str) -> tuple[Path, list[tuple[str, str, int, int]]]:
    """The shell rules' findings for one script, the only file of a project at `root`."""
    (root / ".launchlint.yaml").write_text("# root\n")
    script = root / name
    script.write_text(text)
    return script, findings("--select", SHELL_RULES, name, cwd=root)


def test_nested_strings_through_the_cli(tmp_path):
    script, got = shell_findings(tmp_path, "deploy.sh", NESTED)
    assert got == [
        ("LL106", "deploy.sh", *where(script, "python train.py")),  # three quoting levels deep
        ("LL104", "deploy.sh", *where(script, "2>&1")),
        ("LL105", "deploy.sh", *where(script, "python eval.py")),  # bash -c: no pipefail
        ("LL106", "deploy.sh", *where(script, "python eval.py")),
        ("LL104", "deploy.sh", *where(script, "${run_cmd}")),  # eval: where the string expands
        ("LL108", "deploy.sh", *where(script, "start.sh")),
        ("LL107", "deploy.sh", *where(script, "tmux", 1)),
    ]


UNKNOWN_PARTS = """#!/bin/bash
set -euo pipefail
tmux new-session -d -s flex5 "cd $WORKDIR && python train.py 2>&1 | tee train_$RUN.log"
ssh gpu1 "cd $WORKDIR; nohup python eval.py > eval.log 2>&1 &"
tmux new-session -d -s serve "cd $WORKDIR && python serve.py"
"""


def test_nested_strings_with_unknown_variables_through_the_cli(tmp_path):
    """`$WORKDIR` is unknown here: the strings are read as written, `$WORKDIR` one unknown word
    (they were not read at all, and the launcher had no finding)."""
    script, got = shell_findings(tmp_path, "deploy.sh", UNKNOWN_PARTS)
    assert got == [
        ("LL106", "deploy.sh", *where(script, "python train.py")),
        ("LL106", "deploy.sh", *where(script, "python eval.py")),
        ("LL107", "deploy.sh", *where(script, "tmux", 1)),
    ]


RUNNERS = """#!/bin/bash
set -euo pipefail
mpirun -np 8 -genv NCCL_DEBUG INFO python train.py 2>&1 | tee train.log
horovodrun -np 8 --hostfile hosts python train.py 2>&1 | tee hvd.log
singularity exec --nv img.sif python3 eval.py > eval.log
conda run -n serve --no-capture-output python -u serve.py > serve.log
docker run --rm img python train.py > docker.log
docker run -it --rm img python train.py > tty.log
"""


def test_launchers_containers_and_environments_through_the_cli(tmp_path):
    """mpirun, horovodrun, singularity exec, conda run and docker run start the program after their
    options (and the image): its stdout is the log's. `-u` is kept; a terminal (`-it`) line-buffers
    (`-genv`, a pair, is MPICH's and Intel MPI's: Open MPI's options would give the ranks a terminal)."""
    script, got = shell_findings(tmp_path, "run.sh", RUNNERS)
    assert got == [
        ("LL106", "run.sh", *where(script, "python train.py")),
        ("LL106", "run.sh", *where(script, "python train.py", 1)),
        ("LL106", "run.sh", *where(script, "python3 eval.py")),
        ("LL106", "run.sh", *where(script, "python train.py", 2)),
    ]


WORKFLOW = """name: ci
on: push
jobs:
  smoke:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: default shell
        run: |
          pip install -e .
          python train.py --steps 10 \\
            2>&1 | tee smoke.log
      - name: bash shell
        shell: bash
        env:
          PYTHONUNBUFFERED: "1"
        run: python eval.py | tee eval.log
"""


def test_workflow_steps_through_the_cli(tmp_path):
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    workflow = tmp_path / ".github" / "workflows" / "ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(WORKFLOW)
    got = findings("--select", SHELL_RULES, ".", cwd=tmp_path)
    path = ".github/workflows/ci.yml"
    assert got == [
        ("LL105", path, *where(workflow, "python train.py")),  # reported at its first line
        ("LL106", path, *where(workflow, "python train.py")),
    ]


# --- safe fixes ---------------------------------------------------------------------------------

FIXED_RUN = """#!/bin/bash
# Each line below has a problem launchlint can fix safely (LL104, LL105, LL106).
set -e
set -o pipefail
python -u train.py --lr 3e-4 2>&1 | tee logs/train.log
nohup python -u eval.py > logs/eval.log 2>&1 &
"""


def _lint(project: Path):
    return run([str(project)], Options(select=frozenset(SHELL_RULES.split(","))))


def test_fixes_apply_once_and_keep_the_file_mode(tmp_path, monkeypatch):
    project = copy_of(FIXABLE, tmp_path)
    os.chmod(project / "run.sh", 0o751)  # a mode no umask makes, kept through the fix
    monkeypatch.chdir(project)
    result = _lint(project)
    fixes = plan_fixes(result.findings, result.root, result.indexes)
    assert [f.path for f in fixes] == [".github/workflows/ci.yml", "run.sh"]
    write_fixes(fixes)
    assert (project / "run.sh").read_text() == FIXED_RUN
    assert os.stat(project / "run.sh").st_mode & 0o777 == 0o751
    assert "run: python -u train.py --steps 10 2>&1 | tee smoke.log" in (project / ".github/workflows/ci.yml").read_text()
    again = _lint(project)
    assert [f.code for f in again.findings] == ["LL105"]  # the workflow's: no safe fix there
    assert plan_fixes(again.findings, again.root, again.indexes) == []


def test_diff_shows_the_fixes_without_writing(tmp_path, monkeypatch):
    project = copy_of(FIXABLE, tmp_path)
    monkeypatch.chdir(project)
    before = (project / "run.sh").read_text()
    result = _lint(project)
    diff = unified_diff(plan_fixes(result.findings, result.root, result.indexes))
    assert (project / "run.sh").read_text() == before
    assert "--- a/run.sh\n+++ b/run.sh\n" in diff
    assert "+set -o pipefail\n" in diff and "+nohup python -u eval.py > logs/eval.log 2>&1 &\n" in diff
    patched = tmp_path / "patched"
    shutil.copytree(project, patched)
    subprocess.run(["patch", "-s", "-p1"], input=diff, text=True, cwd=patched, check=True)
    assert (patched / "run.sh").read_text() == FIXED_RUN


def _cli_has_fix() -> bool:
    return "--fix" in launchlint("--help").stdout


@pytest.mark.skipif(not _cli_has_fix(), reason="the CLI has no --fix/--diff yet")
def test_fix_and_diff_through_the_cli(tmp_path):
    project = copy_of(FIXABLE, tmp_path)
    diff = launchlint("--select", SHELL_RULES, "--diff", ".", cwd=project)
    assert "+set -o pipefail" in diff.stdout and (project / "run.sh").read_text() != FIXED_RUN
    launchlint("--select", SHELL_RULES, "--fix", ".", cwd=project)
    assert (project / "run.sh").read_text() == FIXED_RUN
    snapshot = {p: p.read_bytes() for p in project.rglob("*") if p.is_file() and ".launchlint_cache" not in p.parts}
    launchlint("--select", SHELL_RULES, "--fix", ".", cwd=project)
    assert snapshot == {p: p.read_bytes() for p in project.rglob("*") if p.is_file() and ".launchlint_cache" not in p.parts}


# --- LL105's advice follows where the pipeline runs ---------------------------------------------

PIPEFAIL_PLACES = [
    (  # a workflow step's own script: the step's shell
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: python train.py | tee t.log\n",
        6,
        "`shell: bash`, which sets pipefail",
    ),
    (  # a job's default shell of its own (conda's login shell): `shell: bash` would drop `-l`
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        shell: bash -el {0}\n"
        "    steps:\n      - run: |\n          conda activate env\n          python train.py | tee t.log\n",
        11,
        "use `shell: bash -el -o pipefail {0}`, which keeps its options and sets pipefail",
    ),
    (  # a step's own template
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - shell: bash -x -e {0}\n        run: python train.py | tee t.log\n",
        7,
        "use `shell: bash -x -e -o pipefail {0}`, which keeps its options and sets pipefail",
    ),
    (  # the default written out: `shell: bash` is that, with pipefail
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - shell: bash -e {0}\n        run: python train.py | tee t.log\n",
        7,
        "`shell: bash`, which sets pipefail",
    ),
    (  # nested in a step's script: `shell: bash` does not reach the inner bash
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - shell: bash\n        run: bash -c 'python train.py | tee t.log'\n",
        7,
        "`set -o pipefail;` at the start of the command string",
    ),
    (
        "compose.yaml",
        'services:\n  t:\n    image: x\n    command: ["bash", "-c", "python train.py | tee /l/t.log"]\n',
        4,
        "`set -o pipefail;` at the start of the command string",
    ),
    (
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: t\n      image: x\n"
        '      command: ["/bin/bash", "-c"]\n      args: ["python train.py | tee /l/t.log"]\n',
        8,
        "`set -o pipefail;` at the start of the command string",
    ),
    ("Makefile", "train:\n\tpython train.py | tee t.log\n", 2, "`SHELL := bash` and `.SHELLFLAGS := -eo pipefail -c`"),
    # SHELL is bash already (envpool's): its flags are what is missing
    ("Makefile", "SHELL = /bin/bash\ntrain:\n\tpython train.py | tee t.log\n", 3, "use `.SHELLFLAGS := -eo pipefail -c`"),
    ("run.sh", "#!/bin/bash\npython train.py | tee t.log\n", 2, "use `set -o pipefail`"),
    # dash: "Illegal option -o pipefail", which ends the script; the shell it names is the one to change
    ("run.sh", "#!/bin/sh\npython train.py | tee t.log\n", 2, "use `#!/bin/bash` and `set -o pipefail` (`sh` has no pipefail)"),
    ("run.sh", "#!/usr/bin/env dash\npython train.py | tee t.log\n", 2, "use `#!/bin/bash` and `set -o pipefail` (`dash` has no pipefail)"),
    ("run.sh", "#!/bin/bash\ncmd='python train.py | tee t.log'\neval $cmd\n", 3, "use `set -o pipefail`"),  # this shell
    ("run.sh", "#!/bin/bash\nssh gpu1 'python train.py | tee t.log'\n", 2, "at the start of the command string"),
    # a heredoc a shell reads: the remote shell's script, whatever this one set
    ("run.sh", "#!/bin/bash\nset -o pipefail\nssh gpu1 <<'EOF'\npython t.py | tee t.log\nEOF\n", 4, "start of the heredoc"),
    ("run.sh", "#!/bin/bash\nbash -s <<EOF\npython t.py | tee t.log\nEOF\n", 3, "use `set -o pipefail` at the start of the heredoc"),
    ("run.sh", "#!/bin/bash\nbash -s <<EOF\nbash -c 'python t.py | tee t.log'\nEOF\n", 3, "start of the command string"),
]


@pytest.mark.parametrize(("name", "text", "line", "advice"), PIPEFAIL_PLACES, ids=[p[0] + str(p[2]) for p in PIPEFAIL_PLACES])
def test_pipefail_advice_fits_where_the_pipeline_runs(tmp_path, name, text, line, advice):
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    result = run([str(tmp_path)], Options(select=frozenset({"LL105"})))
    assert [(f.code, f.location.path, f.location.line) for f in result.findings] == [("LL105", name, line)]
    assert result.findings[0].message.endswith(advice)


def test_a_masked_script_is_named_by_its_file_not_the_shell_that_runs_it(tmp_path):
    """`. scripts/x/test.sh | tee`, `bash run.sh | tee`: a failed `test.sh`, not a failed `.` (tranX,
    helper-311); a `-c` string's shell stays the shell's own name."""
    write_project(tmp_path, {"go.sh": "#!/bin/bash\n. scripts/x/test.sh a | tee a.log\nbash run.sh | tee b.log\n"})
    result = run([str(tmp_path)], Options(select=frozenset({"LL105"})))
    assert [(f.location.line, f.message.split("so a failed ")[1].split(" looks")[0]) for f in result.findings] == [
        (2, "`test.sh`"),
        (3, "`run.sh`"),
    ]


def test_pipefail_advice_names_the_callers_shell_without_it(tmp_path):
    """A bash script that a project caller runs with `sh`: the caller's shell is the one to change."""
    write_project(tmp_path, {"run.sh": "#!/bin/bash\npython train.py | tee t.log\n", "go.sh": "sh run.sh\n"})
    result = run([str(tmp_path)], Options(select=frozenset({"LL105"})))
    assert [(f.code, f.location.path, f.location.line) for f in result.findings] == [("LL105", "run.sh", 2)]
    assert result.findings[0].message.endswith("use `bash` to run it and `set -o pipefail` (`sh` has no pipefail)")
    assert result.findings[0].fix is None  # sh would stop at the line the fix adds


@pytest.mark.parametrize(
    ("name", "log"),
    [
        ("train.log", True), ("logs/train_log", True), ("train.txt", True), ("train.out.txt", True),
        ("job.err.txt", True), ("run.v2.txt", True), ("train.stdout", True), ("train.stderr", True),
        ("out/my_out_7", False), ("eval_res/m/ifeval_res_result.txt", False), ("scores.txt", False),
        ("res.txt", False), ("accuracy.txt", False), ("resultant.txt", True), ("res50_train.txt", True),
        ("eval_results/m/pairwise_acc.txt", False), ("vlm_results/m_d_auc.txt", False), ("accelerate.txt", True),
        ("auction_train.txt", True), ("plots/NSL-KDD_5class_Avg.txt", False), ("run_stats.txt", False),
        ("meaning.txt", True), ("average_precision.txt", False),
        ("results.log", True), ("result_log.txt", True), ("results/train.txt", True),
        ("eval/scores/model-a.txt", False), ("metrics/m.txt", False), ("scorers/m.txt", True),
        ("lm/G_3_gram.fst.txt", False), ("words.csv.txt", False), ("hosts.json", False),
        ("runlog", True), ("log_7.json", True), ("train.logs", True), ("syslog", True), ("logfile.json", True),
        ("catalog.csv", False), ("dialog.json", False), ("CHANGELOG.md", False), ("logits.npy", False),
        ("topology.json", False), ("login.sh", False), ("blog.html", False), ("log_probs.json", False),
        ("x_log_score_significance.txt", False), ("log-likelihood.csv", False), ("log_lik.csv", False),
        ("logs_probs.json", True), ("log_likes.json", True), ("train_log_7.json", True), ("log_scores.json", False),
        ("/tmp/mb/logs/run_$DESC", True), ("log/7", True), ("logs/metrics.json", False), ("out/run7", False),
        ("catalog/run7", False), ("exp_logs/run7", True),
    ],
)  # fmt: skip
def test_a_file_named_like_a_log(name, log):
    """LL106, LL101 and LL108 take a file for a log by its name; the text form of another format
    (`G_3_gram.fst.txt`, which kaldilm writes to its stdout) is data, and a `.txt` a word of whose
    name calls it a result (`scores.txt`, not `resultant.txt`; not in its directory's name) is a
    result."""
    from launchlint.logs import looks_like_log

    assert looks_like_log(name) is log


def test_a_log_set_to_an_argument_is_named_by_its_variable_in_the_note(tmp_path):
    """`LOG_FILE=$7`, then `> $LOG_FILE`: the note names the file as the line it points at writes
    it, `$LOG_FILE` (it said "goes to $7 here", the value the variable was set to); and
    `"$DIR/run.log"` with DIR=$2 as written too (it said `$2/run.log` until session 56)."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "t.py").write_text("print('step')\n")
    (tmp_path / "run.sh").write_text('LOG_FILE=$7\nDIR=$2\npython t.py > $LOG_FILE 2>&1 &\npython t.py > "$DIR/run.log"\n')
    findings = run([str(tmp_path)], Options(select=frozenset({"LL106"}))).findings
    assert [(f.location.line, [r.message for r in f.related]) for f in findings] == [
        (3, ["its stdout goes to $LOG_FILE here"]),
        (4, ["its stdout goes to $DIR/run.log here"]),
    ]


def test_a_file_named_with_a_variable_set_to_code_is_named_as_the_line_writes_it(tmp_path):
    """`> work_logs/train_$PORT.log` with PORT=${PORT:-$((RANDOM % 40000 + 20000))}: LL102 names
    the file as written, and its fix pastes no other random number (helper-320)."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "go.sh").write_text("bash t.sh 2>&1 | tee run.log\n")
    (tmp_path / "t.sh").write_text('PORT=${PORT:-$((RANDOM % 40000 + 20000))}\nexec > "work_logs/train_$PORT.log" 2>&1\npython t.py\n')
    findings = run([str(tmp_path)], Options(select=frozenset({"LL102"}))).findings
    assert [(f.location.line, f.message) for f in findings] == [
        (
            2,
            "`exec` sends this script's stdout to `work_logs/train_$PORT.log`, so the caller's pipe/log gets nothing; "
            "drop the `exec`, or keep both with `exec > >(tee -a work_logs/train_$PORT.log) 2>&1`",
        )
    ]


def test_messages_name_a_file_set_to_an_argument_by_its_variable(tmp_path):
    """LL102, LL103 and LL104 name `> $LOG` of `LOG=$1` as written, `$LOG` (they said `$1`, and
    LL102's and LL103's fixes wrote `tee $1`)."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "t.py").write_text("print('step')\n")
    (tmp_path / "launch.sh").write_text("set -o pipefail\nbash a.sh 2>&1 | tee a.log\nbash b.sh 2>&1 | tee b.log\n")
    (tmp_path / "a.sh").write_text("OUT=$1\nexec > $OUT 2>&1\npython -u t.py\n")
    (tmp_path / "b.sh").write_text("LOG=$1\npython -u t.py 2>&1 > $LOG\n")
    findings = run([str(tmp_path)], Options(select=frozenset({"LL102", "LL103", "LL104"}))).findings
    assert [(f.code, f.location.path, f.location.line, f.message) for f in findings] == [
        (
            "LL102", "a.sh", 2,
            "`exec` sends this script's stdout to `$OUT`, so the caller's pipe/log gets nothing; drop the `exec`, "
            "or keep both with `exec > >(tee -a $OUT) 2>&1`",
        ),
        ("LL104", "b.sh", 2, "`2>&1` comes before `>$LOG`, so stderr goes to the old stdout, not to $LOG: put `2>&1` after the file"),
        (
            "LL103", "b.sh", 2,
            "`python` writes its output to `$LOG`, so the caller's log only gets this script's own lines; let it "
            "write to stdout, or use `2>&1 | tee $LOG` after `set -o pipefail`",
        ),
    ]


def test_a_log_too_long_to_read_is_named_by_its_variable(tmp_path):
    """`LOGFILE="${DIR}/logs/$(date +%F)-$(hostname)_n$((NR*NG)).log"`, then `> ${LOGFILE}`:
    LL104's message and LL106's note say `$LOGFILE` (the message spelled the 100-character template
    twice, 300 characters). A word `eval` splits out of a longer value keeps its path, and a short
    value is still shown as it is."""
    script = (
        '#!/bin/bash\nDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)\n'
        'LOGFILE="${DIR}/logs/$(date +%F)-$(hostname)_n$((NR*NG)).log"\n'
        'python3 -u t.py 2>&1 > "${LOGFILE}"\n'
        'cmd="python3 -u t.py 2>&1 > $LOGFILE"\neval $cmd\n'
        'LOG=$DIR/run.log\npython3 -u t.py 2>&1 > $LOG\n'
        "python3 -u t.py 2>&1 >>train.log\n"
    )
    write_project(tmp_path, {"t.py": "print('step')\n", "run.sh": script})
    findings = run([str(tmp_path)], Options(select=frozenset({"LL104"}))).findings
    template = '$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/logs/$(date +%F)-$(hostname)_n$((NR*NG)).log'
    assert [(f.location.line, f.message) for f in findings] == [
        (4, "`2>&1` comes before `>$LOGFILE`, so stderr goes to the old stdout, not to $LOGFILE: put `2>&1` after the file"),
        (6, f"`2>&1` comes before `>{template}`, so stderr goes to the old stdout, not to {template}: put `2>&1` after the file"),
        (
            8,
            '`2>&1` comes before `>$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/run.log`, so stderr goes to the old '
            'stdout, not to $(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/run.log: put `2>&1` after the file',
        ),
        (9, "`2>&1` comes before `>>train.log`, so stderr goes to the old stdout, not to train.log: put `2>&1` after the file"),
    ]


def test_a_log_named_through_a_positional_parameter_is_named_in_the_note(tmp_path):
    """The log of a command held in a variable and run by `eval`, in a directory given as `$2`:
    the note names it as written (it said "goes to  here": `$2` marks the word as passed
    through, and such words were left out of the names)."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "run.sh").write_text(
        'LOG_DIR=$2/sweep\nfor d in 32 64; do\n  LOG="${LOG_DIR}/write_d${d}.txt"\n'
        '  cmd="python sweep.py --depth ${d} &> ${LOG}"\n  eval ${cmd}\ndone\n'
    )
    [finding] = run([str(tmp_path)], Options(select=frozenset({"LL106"}))).findings
    assert (finding.code, finding.location.path, finding.location.line) == ("LL106", "run.sh", 5)
    assert [r.message for r in finding.related] == ["its stdout goes to $2/sweep/write_d${d}.txt here"]


def test_a_launcher_run_from_the_checkouts_parent_names_files_by_the_roots_own_name(tmp_path):
    """`srun python flamingo/flamingo/train/train.py` from the directory holding the checkout."""
    root = tmp_path / "flamingo"
    root.mkdir()
    files = {
        "flamingo/train/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--workers')\np.parse_args()\n",
        "flamingo/eval/train.py": "print('a namesake')\n",
        "scripts/run.sh": "#!/bin/bash\nsrun python flamingo/flamingo/train/train.py --workers 2 --wrokers 3\n",
    }
    assert lint(root, files, ["LL301", "LL303"]) == ["LL301 scripts/run.sh:2"]



def test_a_sourced_file_that_turns_pipefail_off_after_the_scripts_own_set_is_reported(tmp_path):
    """`set -o pipefail`, then `source env.sh` whose top level says `set +o pipefail`: the
    pipelines after the `source` run without it, and the message names the file; one that turns
    it off only in a branch or a function, or before the script sets it again, changes nothing."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "env.sh").write_text("export HF_HOME=/data/hf\nset +o pipefail\n")
    (tmp_path / "maybe.sh").write_text('[ -n "$LOOSE" ] && set +o pipefail\nloose() { set +o pipefail; }\n')
    (tmp_path / "run.sh").write_text(
        "#!/bin/bash\nset -euo pipefail\npython -u prep.py | tee prep.log\nsource maybe.sh\nsource env.sh\n"
        "python -u train.py 2>&1 | tee train.log\nset -o pipefail\npython -u eval.py | tee eval.log\n"
    )
    result = launchlint("--format", "json", "--select", "LL105", ".", cwd=tmp_path)
    [finding] = json.loads(result.stdout)
    assert (finding["path"], finding["line"], finding["column"]) == ("run.sh", 6, 1)
    assert "`env.sh`, sourced before it, turns pipefail off" in finding["message"]
    assert [(r["path"], r["line"]) for r in finding["related"]] == [("run.sh", 5)]
    assert finding["fix"] is None


def test_an_environment_runner_is_judged_by_the_command_it_runs(tmp_path):
    """`conda run -n env pip show torch | grep Version` asks the environment a question, as `pip show`
    does alone (torchrec's validate_binaries.sh); `conda run -n env python train.py | tee` is a job,
    and the message names `python`, not `conda`."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "check.sh").write_text(
        "#!/bin/bash\nhave=$(conda run -n build pip show torch | grep Version | cut -d' ' -f2)\n"
        "conda run -n build nvidia-smi | tee gpus.log\nmicromamba run -n build pip list | grep torch\n"
        "uv run pip list | grep torch\nconda run -n build python train.py | tee train.log\n"
    )
    result = launchlint("--format", "json", "--select", "LL105", ".", cwd=tmp_path)
    [finding] = json.loads(result.stdout)
    assert (finding["path"], finding["line"]) == ("check.sh", 6)
    assert "so a failed `python` looks like success" in finding["message"]


def test_the_job_named_is_the_pipelines_not_the_one_before_its_and_and(tmp_path):
    """`pip install x && python3 t.py 2>&1 | tee log` is `pip install x && (python3 t.py 2>&1 |
    tee log)` in bash: `pip` is not in the pipeline (tpu-recipes' manifests; it named `pip`)."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "t.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\npip install x && python3 -u t.py 2>&1 | tee log\n")
    result = launchlint("--format", "json", "--select", "LL105", ".", cwd=tmp_path)
    [finding] = json.loads(result.stdout)
    assert (finding["path"], finding["line"], finding["column"]) == ("run.sh", 2, 18)
    assert "so a failed `python3` looks like success" in finding["message"]

def test_a_pipeline_with_a_redirected_middle_stage_exits_with_its_last_stages_status(tmp_path):
    """tree-sitter-bash nests `a 2>&1 | b 2>&1 | c` as `(a 2>&1 | b) 2>&1 | c`; bash runs one
    pipeline, whose status is `c`'s (it said "exits with `grep`'s status", over `a | b` alone)."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "t.py").write_text("print(1)\n")
    line = "python3 -u t.py 2>&1 | grep -v Warning 2>&1 | tee log"
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\n{line}\n")
    result = launchlint("--format", "json", "--select", "LL105", ".", cwd=tmp_path)
    [finding] = json.loads(result.stdout)
    assert (finding["line"], finding["column"], finding["end_line"], finding["end_column"]) == (2, 1, 2, len(line) + 1)
    assert "exits with `tee`'s status, so a failed `python3` looks like success" in finding["message"]


def test_a_job_run_by_a_partly_unknown_path_is_named_as_written(tmp_path):
    """`"$(dirname "$0")/train.sh" | tee log` runs the script next to it: the message names
    `train.sh` (it said "a failed `None`")."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "train.sh").write_text("#!/bin/bash\necho step\n")
    (tmp_path / "run.sh").write_text('#!/bin/bash\n"$(dirname "$0")/train.sh" --steps 10 | tee log.txt\n')
    result = launchlint("--format", "json", "--select", "LL105", ".", cwd=tmp_path)
    [finding] = json.loads(result.stdout)
    assert "so a failed `train.sh` looks like success" in finding["message"]


def test_a_log_path_joined_from_a_directory_ending_in_a_slash_is_named_with_one_slash(tmp_path):
    """align-anything's `BASE_DIR="./"`, then `LOG_FILE="${BASE_DIR}/logs/$(date +%F)/run.log"`:
    the shell reads `.//logs` as `./logs`, and so do the messages; an expansion's own `//` and a
    URL's `://` stay as written."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "launch.sh").write_text('#!/bin/bash\nset -o pipefail\nbash start.sh 2>&1 | tee "${BASE}"/logs/run.log\n')
    (tmp_path / "start.sh").write_text(
        '#!/bin/bash\nBASE_DIR="./"\nLOG_FILE="${BASE_DIR}/logs/$(date +"%Y%m%d")/run_log.txt"\n'
        'exec 1> "$LOG_FILE"\npython eval.py\npython eval.py > "${LOG_DIR//x/y}//eval.log"\n'
    )
    found = {(f["code"], f["line"]): f for f in json.loads(launchlint("--format", "json", "--select", "LL102,LL106", ".", cwd=tmp_path).stdout)}
    assert sorted(found) == [("LL102", 4), ("LL106", 5), ("LL106", 6)]
    assert "to `./logs/$(date +\"%Y%m%d\")/run_log.txt`, so" in found["LL102", 4]["message"]
    assert [r["message"] for r in found["LL106", 5]["related"]] == ['its stdout goes to ./logs/$(date +"%Y%m%d")/run_log.txt here']
    assert [r["message"] for r in found["LL106", 6]["related"]] == ["its stdout goes to ${LOG_DIR//x/y}/eval.log here"]


def test_a_package_manager_run_as_a_module_is_judged_as_the_package_manager(tmp_path):
    """``if [[ `python3 -m pip list | grep "^torch "` ]]`` asks the environment, as `pip list | grep`
    does (axlearn's start_tpu.sh); `python3 -m pip install -e . | tail` installs, and is a job."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "check.sh").write_text(
        '#!/bin/bash\nif [[ `python3 -m pip list | grep "^torch "` ]]; then echo has; fi\n'
        "python3 -m pip show torch | grep Version\npython -m pip freeze | grep torch | tee pins.txt\n"
        "python3 -m uv pip list | grep torch\npython3 -m pip install -e . 2>&1 | tail -n 3\n"
    )
    result = launchlint("--format", "json", "--select", "LL105", ".", cwd=tmp_path)
    [finding] = json.loads(result.stdout)
    assert (finding["path"], finding["line"], finding["column"]) == ("check.sh", 6, 1)


def test_a_tool_run_as_a_module_writes_no_programs_log(tmp_path):
    """`python3.12 -m venv` and `python3 -m pip install` into a setup log are not reported, as `pip
    install >> setup.log` is not (axlearn's start_vm.sh); a trainer run as a module still is."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "setup.sh").write_text(
        "#!/bin/bash\nLOG=/var/log/setup.log\ninstall() {\n  python3.12 -m venv /opt/venv\n"
        "  /opt/venv/bin/python3 -m pip install -U pip uv\n  pip install -U flit\n}\ninstall >> ${LOG} 2>&1\n"
        "python3 -m pip freeze | grep torch > pins.txt\npython -m mypkg.train >> ${LOG} 2>&1\n"
    )
    result = launchlint("--format", "json", "--select", "LL106", ".", cwd=tmp_path)
    [finding] = json.loads(result.stdout)
    assert (finding["path"], finding["line"]) == ("setup.sh", 10)
    assert finding["message"].startswith("`python` block-buffers its stdout into a log")


def test_a_subshell_in_an_eval_string_ends_with_it(tmp_path):
    """`eval` runs its string in this shell, but a `( ... )` or `$(...)` in the string is a
    subshell of its own: what it exports does not reach the commands after the `eval` (it did:
    the string's walk, which shares the shell, put a copy back for itself and left the shell
    changed); what the string itself exports does."""
    script = (
        '#!/bin/bash\neval "(export PYTHONUNBUFFERED=1)"\neval "X=\\$(export PYTHONUNBUFFERED=1)"\n'
        'python train.py > train.log\neval "export PYTHONUNBUFFERED=1"\npython eval.py > eval.log\n'
    )
    write_project(tmp_path, {"run.sh": script})
    assert findings("--select", "LL106", ".", cwd=tmp_path) == [("LL106", "run.sh", 4, 1)]
