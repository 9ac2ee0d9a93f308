"""The command-line contract of cli.md, through the real `launchlint` command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import imports_of_a_run, write_project

REPO = Path(__file__).resolve().parent.parent
INCIDENT = REPO / "fixtures" / "incident"
FIXED = REPO / "fixtures" / "incident-fixed"
LAUNCHLINT = shutil.which("launchlint") or "launchlint"


def launchlint(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([LAUNCHLINT, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def column_of(path: Path, needle: str) -> int:
    line = path.read_text().splitlines()[line_of(path, needle) - 1]
    return line.index(needle) + 1



def found_in(cwd, *paths: str):
    """The findings of a run on `paths` as (path, code, line), sorted, and the run itself."""
    result = launchlint("--no-cache", "--format", "json", "--exit-zero", *paths, cwd=cwd)
    return sorted((f["path"], f["code"], f["line"]) for f in json.loads(result.stdout)), result

def test_incident_reports_drift_starvation_and_the_thread_race():
    result = launchlint("--format", "json", "fixtures/incident")
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)
    by_code = {f["code"]: f for f in findings}
    assert {"LL101", "LL102", "LL202"} <= set(by_code)
    assert not {"LL001", "LL003"} & set(by_code)

    launcher = INCIDENT / "launch.sh"
    start = INCIDENT / "start_training.sh"
    trainer = INCIDENT / "train_dflash_pipeline.py"

    drift = by_code["LL101"]
    assert (drift["path"], drift["line"], drift["column"]) == (
        "fixtures/incident/launch.sh",
        line_of(launcher, "tee /workspace"),
        column_of(launcher, "/workspace/train_stdout_flex5.log"),
    )
    assert drift["related"][0]["path"] == "fixtures/incident/start_training.sh"
    assert drift["related"][0]["line"] == line_of(start, "exec >")

    starve = by_code["LL102"]
    assert (starve["path"], starve["line"], starve["column"]) == (
        "fixtures/incident/start_training.sh",
        line_of(start, "exec >"),
        1,
    )
    assert [(r["path"], r["line"], r["column"]) for r in starve["related"]] == [
        ("fixtures/incident/launch.sh", line_of(launcher, "| tee"), column_of(launcher, "tee /workspace"))
    ]

    race = by_code["LL202"]
    assert (race["path"], race["line"]) == (
        "fixtures/incident/train_dflash_pipeline.py",
        line_of(trainer, "out = flex_attention_compiled("),
    )
    related_lines = sorted(r["line"] for r in race["related"])
    assert related_lines == sorted(
        [line_of(trainer, "threading.Thread(target=worker"), line_of(trainer, "= torch.compile(")]
    )


def test_fixed_incident_is_clean():
    result = launchlint("fixtures/incident-fixed")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("0 findings (0 errors, 0 warnings) in 4 files")


def test_text_format_has_location_snippet_notes_and_summary():
    result = launchlint("--select", "LL102", "fixtures/incident")
    start_line = line_of(INCIDENT / "start_training.sh", "exec >")
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"fixtures/incident/start_training.sh:{start_line}:1: LL102 [error] ")
    assert lines[1] == f" {start_line} | exec > /workspace/train_stdout_flex4.log 2>&1"
    assert lines[2].strip() == "| " + "^" * len("exec > /workspace/train_stdout_flex4.log 2>&1")
    assert lines[3].startswith("  = note: fixtures/incident/launch.sh:")
    assert lines[-1] == "1 finding (1 errors, 0 warnings) in 4 files"
    assert result.returncode == 1


def test_paths_are_relative_to_the_current_directory():
    result = launchlint("--format", "json", "--select", "LL102", ".", cwd=INCIDENT)
    assert json.loads(result.stdout)[0]["path"] == "start_training.sh"


def test_json_fields_and_empty_result():
    result = launchlint("--format", "json", "--select", "LL102", "fixtures/incident")
    finding = json.loads(result.stdout)[0]
    assert list(finding) == [
        "code", "name", "severity", "message", "path", "line", "column",
        "end_line", "end_column", "related", "fix",
    ]
    assert finding["name"] == "exec-redirect-starves-pipe" and finding["fix"] is None
    clean = launchlint("--format", "json", "fixtures/incident-fixed")
    assert (clean.stdout, clean.returncode) == ("[]\n", 0)


def test_select_and_ignore_by_code_and_prefix():
    codes = lambda r: sorted({f["code"] for f in json.loads(r.stdout)})  # noqa: E731
    assert codes(launchlint("--format", "json", "--select", "LL1", "fixtures/incident")) == ["LL101", "LL102"]
    assert codes(launchlint("--format", "json", "--ignore", "LL1,LL2", "fixtures/incident")) == []
    only_warning = launchlint("--select", "LL101", "--fail-on", "error", "fixtures/incident")
    assert only_warning.returncode == 0


@pytest.mark.parametrize(
    "args,message",
    [
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--select", "LL999", "."], "unknown rule code 'LL999'"),
        (["--ignore", "XYZ", "."], "unknown rule code 'XYZ'"),
        (["--explain", "LL999"], "unknown rule code"),
        (["--format", "xml", "."], "invalid choice: 'xml'"),
        (["--jobs", "0", "."], "argument --jobs"),
        (["--sel", "LL1", "."], "unrecognized arguments: --sel (did you mean `--select`?)"),  # no abbreviations
        # A mistyped option: the close one among the parser's own, as ruff's "a similar argument exists".
        (["--selct", "LL1", "."], "unrecognized arguments: --selct (did you mean `--select`?)"),
        (["--fromat=json", "."], "unrecognized arguments: --fromat=json (did you mean `--format`?)"),
        (["--selct", "LL1", "--no-cahce", "."], "(did you mean `--select` for --selct, `--no-cache` for --no-cahce?)"),
        (["run", "--forse", "--", "true"], "unrecognized arguments: --forse (did you mean `--force`?)"),
        (["run", "--expct-log", "5", "--", "true"], "unrecognized arguments: --expct-log (did you mean `--expect-log`?)"),
        (["fixtures/incident", "fixtures/incidnet"], "fixtures/incidnet: no such file or directory"),  # a CI gate's typo
        (["--force", "."], "--force is an option of `launchlint run`: see `launchlint run --help`"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args, message):
    result = launchlint(*args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert message in result.stderr and result.stderr.startswith("launchlint: error: ")


def test_help_points_to_the_run_subcommand():
    """`run` (the preflight) has options of its own, which `--help` alone never named."""
    help_text = " ".join(launchlint("--help").stdout.split())
    assert "`launchlint run [--fail-on {error,warning}] [--force] [--expect-log SECONDS] -- COMMAND [ARGS]...`" in help_text
    assert "see `launchlint run --help`" in help_text
    assert "--expect-log SECONDS" in launchlint("run", "--help").stdout


def test_explain_prints_docs_and_examples():
    result = launchlint("--explain", "LL102")
    assert result.returncode == 0
    assert result.stdout.startswith("LL102 exec-redirect-starves-pipe (error)")
    assert "## Why is this bad?" in result.stdout and "# start.sh" in result.stdout


def test_list_rules_lists_every_registered_rule():
    from launchlint.rulekit import all_rules

    result = launchlint("--list-rules")
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert listed == [r.code for r in all_rules()]


def test_module_entry_point_and_version():
    result = subprocess.run([sys.executable, "-m", "launchlint", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and "launchlint" in result.stdout


def test_version_does_not_import_parsers():
    """Nor the facts' dataclasses (the baseline's and the configuration's errors are usage
    errors, caught without importing their modules): --version took 0.04 s with them, 0.02 s now."""
    modules = (
        'tree_sitter', 'tree_sitter._binding', 'yaml', 'libcst', 'launchlint.model', 'launchlint.baseline',
        'launchlint.config',
    )
    printed, imported = imports_of_a_run(["--version"], modules)
    assert printed.startswith("launchlint") and imported == []


def test_help_fits_the_terminal_width_and_a_run_does_not_import_shutil(tmp_path):
    """argparse asks shutil for the width at every add_argument; launchlint reads it as shutil
    does (COLUMNS, then the terminal, then 80) without that import."""
    for columns in (60, 150):
        result = subprocess.run(
            [LAUNCHLINT, "--help"], capture_output=True, text=True, env={**os.environ, "COLUMNS": str(columns)}
        )
        assert columns - 12 <= max(map(len, result.stdout.splitlines())) <= columns - 2  # argparse's margin
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "job.sh").write_text("python train.py | tee log.txt\n")
    printed, imported = imports_of_a_run(["--no-cache", "job.sh"], ("shutil",), cwd=tmp_path)
    assert "LL105" in printed and imported == []


def test_a_named_file_gets_project_context(tmp_path):
    """Pre-commit passes one file: the caller elsewhere in the project still counts."""
    shutil.copytree(INCIDENT, tmp_path / "p")
    result = launchlint("--format", "json", "--select", "LL102", "start_training.sh", cwd=tmp_path / "p")
    assert [f["code"] for f in json.loads(result.stdout)] == ["LL102"]
    other = launchlint("--format", "json", "--select", "LL102", "train_dflash_pipeline.py", cwd=tmp_path / "p")
    assert json.loads(other.stdout) == []


def test_named_files_of_two_projects_each_get_their_own_project_in_any_order(tmp_path):
    """A monorepo's pre-commit run names files of two sub-projects (each with its pyproject.toml).
    The root used to be the first PATH's alone: the other project's files were linted without
    their callers, so LL101/LL102 of svc/b came and went with the order of the arguments."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(INCIDENT, tmp_path / "svc" / "b")
    (tmp_path / "svc" / "b" / "pyproject.toml").write_text("[project]\nname = 'b'\n")
    (tmp_path / "svc" / "a").mkdir()
    write_project(tmp_path / "svc" / "a", {"run.sh": "python t.py | tee t.log\n", "t.py": "print(1)\n"})
    (tmp_path / "top.sh").write_text("bash svc/a/run.sh\n")

    def found(*paths: str) -> list[tuple]:
        result = launchlint("--format", "json", "--select", "LL101,LL102,LL105", *paths, cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        return [(f["code"], f["path"], [r["path"] for r in f["related"]]) for f in json.loads(result.stdout)]

    b = [
        ("LL101", "svc/b/launch.sh", ["svc/b/start_training.sh"]),
        ("LL102", "svc/b/start_training.sh", ["svc/b/launch.sh"]),
    ]
    a = [("LL105", "svc/a/run.sh", [])]
    assert found("svc/a/run.sh", "svc/b/launch.sh") == a + b
    assert found("svc/b/launch.sh", "svc/a/run.sh") == a + b
    # A project inside another named file's project is part of it: top.sh's project holds svc/a.
    assert found("svc/a/run.sh", "top.sh") == a
    text = launchlint("--select", "LL101,LL102,LL105", "a/run.sh", "b/launch.sh", cwd=tmp_path / "svc")
    assert "a/run.sh:1:1: LL105" in text.stdout and "b/launch.sh:7:" in text.stdout
    assert text.stdout.rstrip().endswith("in 7 files"), text.stdout  # each project's .launchlint.yaml too


def test_a_named_file_that_the_configuration_excludes_is_linted_unless_force_exclude(tmp_path):
    """As in ruff: a file named on the command line is read although `exclude` matches it, and
    `--force-exclude` (which the pre-commit hook passes) keeps it out, as the walk does."""
    write_project(tmp_path, {"vendor/run.sh": "python -u t.py | tee v.log\n", "run.sh": "python -u t.py | tee r.log\n"})
    (tmp_path / ".launchlint.yaml").write_text("exclude: [vendor/]\n")

    def found(*args: str) -> list[str]:
        result = launchlint("--format", "json", "--select", "LL105", *args, cwd=tmp_path)
        return [f["path"] for f in json.loads(result.stdout)]

    assert found(".") == ["run.sh"]
    assert found("vendor/run.sh") == ["vendor/run.sh"]
    assert found("--force-exclude", "vendor/run.sh", "run.sh") == ["run.sh"]
    assert found("--force-exclude", "--exclude", "/run.sh", "run.sh", "vendor/run.sh") == ["vendor/run.sh"]  # replaces the key


def test_a_named_hidden_or_ignored_directory_is_linted(tmp_path):
    """Walking the project skips `.devcontainer/` and a gitignored `sandbox/`; naming one lints it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("sandbox/\n")
    for directory in (".devcontainer", "sandbox"):
        (tmp_path / directory).mkdir()
        (tmp_path / directory / "run.sh").write_text("python t.py | tee x.log\n")

    def found(*paths: str) -> list[tuple[str, str]]:
        result = launchlint("--format", "json", "--select", "LL105", *paths, cwd=tmp_path)
        return [(f["code"], f["path"]) for f in json.loads(result.stdout)]

    assert found(".") == []
    assert found(".devcontainer", "sandbox") == [("LL105", ".devcontainer/run.sh"), ("LL105", "sandbox/run.sh")]


def test_macos_archive_metadata_is_not_walked(tmp_path):
    """A zip made on a Mac leaves `__MACOSX/` and AppleDouble `._name` files beside each file
    (binary: `\\x00\\x05\\x16\\x07`); committed by mistake, each `._x.py` was an LL001 on metadata.
    A walk reads neither; a `._x.py` named on the command line is read (and is binary)."""
    apple_double = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        "
    write_project(tmp_path, {"src/main.py": "print(1)\n"})
    for name in ("__MACOSX/src/._main.py", "src/._main.py", "__MACOSX/src/run.sh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(apple_double if "._" in name else b"python t.py | tee x.log\n")

    def found(*paths: str) -> list[tuple[str, str]]:
        result = launchlint("--format", "json", "--no-cache", *paths, cwd=tmp_path)
        return [(f["code"], f["path"]) for f in json.loads(result.stdout)]

    assert found(".") == []
    assert found("src/._main.py") == [("LL001", "src/._main.py")]


def test_a_file_the_gitignore_matches_is_linted_only_when_named(tmp_path):
    """A `.gitignore` that says `*.sh` hides the launchers from a walk, tracked or not (launchlint
    reads no git index, as ruff); named, as a pre-commit hook names them, they are linted."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("*.sh\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "run.sh").write_text("python t.py | tee x.log\n")

    def found(*paths: str) -> list[tuple[str, str, int]]:
        result = launchlint("--format", "json", "--select", "LL105", *paths, cwd=tmp_path)
        return [(f["code"], f["path"], f["line"]) for f in json.loads(result.stdout)]

    assert found(".") == []
    assert found("tools/run.sh") == [("LL105", "tools/run.sh", 1)]


def test_bad_inputs_do_not_stop_the_run(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "binary.sh").write_bytes(b"\x7fELF\x00\x00\x01")
    (tmp_path / "latin1.py").write_bytes(b"print('caf\xe9')\n")  # no coding declaration: Python refuses it too
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "run.sh").write_text("bash job.sh | tee job.log\n")
    (tmp_path / "job.sh").write_text("exec > other.log\npython t.py\n")
    (tmp_path / "loop.sh").write_text("for g in 0 1; do\n  echo $g\ndone\ndone\n")  # bash -n refuses it
    result = launchlint("--format", "json", "--select", "LL001,LL102", ".", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    found = sorted((f["path"], f["code"], f["line"], f["message"]) for f in json.loads(result.stdout))
    assert found == [
        ("binary.sh", "LL001", 1, "binary file (NUL byte); not analysed"),
        ("broken.py", "LL001", 1, found[1][3]),
        ("job.sh", "LL102", 1, found[2][3]),
        ("latin1.py", "LL001", 1, "not valid UTF-8 at byte 10"),
        ("loop.sh", "LL001", 4, "syntax error near unexpected token `done'"),
    ]


def test_a_latin1_script_is_fixed_as_it_is_marked_keeping_its_bytes(tmp_path):
    """bash reads bytes: a script with a Latin-1 comment runs, so it is analysed, and its findings
    showed `[*]` while `--fix` refused it ("not valid UTF-8"). It is written back as it was read,
    one byte a character: every byte the fixes leave is the same, a moved `>r\xe9sultat.log` too,
    and `--diff` shows the bytes, which patch(1) applies."""
    (tmp_path / ".git").mkdir()
    script = b"#!/bin/bash\n# r\xe9sum\xe9 du lancement\npython train.py 2>&1 > r\xe9sultat.log\npython train.py | tee train.log\n"
    fixed = b"#!/bin/bash\n# r\xe9sum\xe9 du lancement\nset -o pipefail\npython -u train.py > r\xe9sultat.log 2>&1\npython -u train.py | tee train.log\n"
    (tmp_path / "run.sh").write_bytes(script)
    result = launchlint("--format", "json", ".", cwd=tmp_path)
    assert [(f["code"], f["line"], f["fix"] is not None) for f in json.loads(result.stdout)] == [
        ("LL106", 3, True), ("LL104", 3, True), ("LL105", 4, True), ("LL106", 4, True),
    ]  # fmt: skip
    diff = subprocess.run([LAUNCHLINT, "--diff", "."], cwd=tmp_path, capture_output=True, timeout=120)
    assert diff.returncode == 1 and b"\n+python -u train.py > r\xe9sultat.log 2>&1\n" in diff.stdout
    shutil.copy(tmp_path / "run.sh", tmp_path / "patched.sh")
    subprocess.run(["patch", "-s", str(tmp_path / "patched.sh")], input=diff.stdout, check=True)
    fix = launchlint("--fix", ".", cwd=tmp_path)
    assert (fix.returncode, fix.stderr) == (0, "launchlint: fixed 4 findings in 1 file\n")
    assert (tmp_path / "run.sh").read_bytes() == fixed == (tmp_path / "patched.sh").read_bytes()


def test_an_extensionless_file_is_read_by_the_program_of_its_shebang(tmp_path):
    """`#!/usr/bin/fish` holds "sh" but is no shell launchlint reads; `env -S` names the program."""
    (tmp_path / ".git").mkdir()
    body = "python t.py 2>&1 > a.log\n"
    (tmp_path / "runjob").write_text("#!/bin/bash\n" + body)
    (tmp_path / "fishjob").write_text("#!/usr/bin/fish\n" + body)
    (tmp_path / "cshjob").write_text("#!/bin/csh\n" + body)
    (tmp_path / "envjob").write_text("#!/usr/bin/env -S bash -eu\n" + body)
    result = launchlint("--format", "json", "--select", "LL104", ".", cwd=tmp_path)
    assert sorted((f["path"], f["line"]) for f in json.loads(result.stdout)) == [("envjob", 2), ("runjob", 2)]


def test_a_sub_or_job_file_is_read_as_shell_only_by_a_shells_shebang(tmp_path):
    """NVIDIA DeepLearningExamples' Slurm jobs are `x.sub`; HTCondor's submit files are `.sub` too,
    with no `#!` line, and a `.job` may be another program's: only a shell's `#!` makes them read."""
    (tmp_path / ".git").mkdir()
    body = "python t.py 2>&1 > a.log\n"
    (tmp_path / "train.sub").write_text("#!/bin/bash\n#SBATCH -N 1\n" + body)
    (tmp_path / "pbs.job").write_text("#!/usr/bin/env bash\n" + body)
    (tmp_path / "condor.sub").write_text("executable = run.sh\narguments = 2>&1 > a.log\nqueue\n")
    (tmp_path / "py.job").write_text("#!/usr/bin/env python3\nprint(1)\n")
    (tmp_path / "other.subx").write_text("#!/bin/bash\n" + body)
    result = launchlint("--format", "json", "--select", "LL104,LL001", ".", cwd=tmp_path)
    assert sorted((f["path"], f["line"]) for f in json.loads(result.stdout)) == [("pbs.job", 2), ("train.sub", 3)]


def test_a_project_whose_only_yaml_is_a_commented_root_marker_never_imports_pyyaml(tmp_path):
    (tmp_path / ".launchlint.yaml").write_text("# the project root\n\n   # nothing else\n")
    (tmp_path / "run.sh").write_text("python train.py | tee train.log\n")
    printed, imported = imports_of_a_run(["--no-cache", "--format", "json", "."], ("yaml",), cwd=tmp_path)
    assert '"code": "LL105"' in printed and imported == []
    (tmp_path / ".launchlint.yaml").write_text("# the project root\nignore: [LL105]\n")
    printed, imported = imports_of_a_run(["--no-cache", "--format", "json", "."], ("yaml",), cwd=tmp_path)
    assert '"code": "LL105"' not in printed and imported == ["yaml"]


def test_a_shell_only_project_never_imports_the_python_front_end(tmp_path):
    """Issue 8: a parser is imported only when a file of its kind is present. What Python steps
    write (lint/pymade.py, LL303/LL304) imported it at start-up (6 ms of a shell-only run); now only
    for a `python -c` or `python - <<EOF` program, which it parses."""
    modules = ("launchlint.front.pysource", "ast")
    (tmp_path / ".launchlint.yaml").write_text("# the project root\n")
    (tmp_path / "run.sh").write_text("python train.py --out ds.json | tee train.log\n")
    printed, imported = imports_of_a_run(["--no-cache", "--format", "json", "."], modules, cwd=tmp_path)
    assert '"code": "LL105"' in printed and imported == []
    (tmp_path / "run.sh").write_text("python -c \"open('ds.json', 'w')\"\ndeepspeed t.py --deepspeed ds.json | tee t.log\n")
    printed, imported = imports_of_a_run(["--no-cache", "--format", "json", "."], modules, cwd=tmp_path)
    assert '"LL304"' not in printed and "launchlint.front.pysource" in imported


def test_a_python_only_project_imports_the_launch_graph_only_for_a_stdout_hijack(tmp_path):
    """The launch graph (launchers and the programs they start) matters to a trainer only when
    it writes its own output to a file (LL204 asks who captures it): a Python-only run that
    finds no such redirect never imports it, nor the shell facts it is made of (5 M of the
    522 M instructions of the 100-file benchmark project's Python-only run). Nor, with no file
    that could launch it, the command-line reader (1.1 M of 452.9 M)."""
    modules = ("launchlint.graph", "launchlint.shellfacts", "tree_sitter", "tree_sitter._binding", "launchlint.front.pycli")
    (tmp_path / ".launchlint.yaml").write_text("# the project root\n")
    (tmp_path / "train.py").write_text(
        "import threading\nimport torch\n\nstep = torch.compile(lambda x: x)\n\n"
        "def worker():\n    step(1)\n\nthreading.Thread(target=worker).start()\n"
    )
    printed, imported = imports_of_a_run(["--no-cache", "--format", "json", "."], modules, cwd=tmp_path)
    assert '"code": "LL202"' in printed and imported == []
    (tmp_path / "log.py").write_text("import sys\n\nsys.stdout = open('train.log', 'w')\n")
    printed, imported = imports_of_a_run(["--no-cache", "--format", "json", "."], modules, cwd=tmp_path)
    assert '"code": "LL204"' in printed and imported == ["launchlint.graph", "launchlint.shellfacts"]


def test_a_run_imports_neither_pathlib_nor_typing(tmp_path):
    """pathlib (with urllib.parse and ipaddress: 16 M instructions), typing (tree-sitter's
    `__init__`) and pathspec (25 ms, for a `.gitignore`) were each imported by every run that met
    a shell script, a configuration or a `.gitignore`: a run with all of them, and the cache,
    imports none now."""
    modules = ("pathlib", "urllib.parse", "ipaddress", "typing", "pathspec")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n*.log\n")
    (tmp_path / ".launchlint.yaml").write_text("exclude: [vendor/]\nper-file-ignores: {'legacy/*.sh': [LL105]}\n")
    (tmp_path / "run.sh").write_text("python train.py --lr 1 | tee train.log\n")
    (tmp_path / "train.py").write_text("import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\n")
    (tmp_path / "ci.yml").write_text("on: push\njobs:\n  a:\n    steps:\n      - run: bash run.sh | tee ci.log\n")
    printed, imported = imports_of_a_run(["--format", "json", "run.sh"], modules, cwd=tmp_path)
    assert '"code": "LL105"' in printed and imported == []


def test_newer_python_syntax_is_a_warning_not_a_finding_cold_and_warm(tmp_path):
    """rules.md: valid Python never gets LL001. A trainer in Python 3.12 syntax, read by an older
    Python, is reported as not analysed on stderr, the same from the cache; the run goes on."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "buffer.py").write_text("import torch\n\ntype Batch = dict[str, torch.Tensor]\n")
    (tmp_path / "train.py").write_text("import sys\nprint(sys.argv\n")
    older = sys.version_info < (3, 12)
    expected = (
        [
            f"launchlint: warning: buffer.py:3: Python 3.12 syntax (a `type` statement, PEP 695), which "
            f"Python {sys.version_info[0]}.{sys.version_info[1]} cannot parse: not analysed "
            "(run launchlint on a newer Python)"
        ]
        if older
        else []
    )
    for _ in range(2):  # the second run reuses the first one's cache entries
        result = launchlint("--format", "json", ".", cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        assert result.stderr.splitlines() == expected
        found = [(f["code"], f["path"], f["line"]) for f in json.loads(result.stdout)]
        assert found == [("LL001", "train.py", 2)]
    # Naming another file (a pre-commit hook's staged files): no word about the rest of the project.
    named = launchlint("--format", "json", "train.py", cwd=tmp_path)
    assert named.stderr == "" and [f["path"] for f in json.loads(named.stdout)] == ["train.py"]


def test_a_large_project_without_a_root_marker_is_named_in_a_warning(tmp_path):
    """cli.md: with no root marker the project is the current directory. Past UNMARKED_FILES files
    the run says so (a home directory is rarely one project); a marker silences it."""
    from launchlint.discover import ROOT_MARKERS, UNMARKED_FILES

    assert not any((d / m).exists() for d in (tmp_path, *tmp_path.parents) for m in ROOT_MARKERS)
    for i in range(UNMARKED_FILES):
        (tmp_path / f"step{i}.sh").write_text(f"echo {i}\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\necho start\n")
    result = launchlint("--no-cache", "run.sh", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "launchlint: warning: no pyproject.toml, .launchlint.yaml or .git at or above run.sh, so the project is "
        f"the current directory: {UNMARKED_FILES + 1:,} files read; a .launchlint.yaml at the project's root "
        "limits a run to it"
    ]
    (tmp_path / "step0.sh").unlink()  # at the limit: no warning
    assert launchlint("--no-cache", "run.sh", cwd=tmp_path).stderr == ""
    (tmp_path / "step0.sh").write_text("echo 0\n")
    (tmp_path / ".launchlint.yaml").write_text("# the project's root\n")
    assert launchlint("--no-cache", "run.sh", cwd=tmp_path).stderr == ""


def test_without_a_root_marker_the_walk_stops_after_a_bounded_number_of_files(tmp_path):
    """`cd / && launchlint run -- ...` walked the whole machine (2.6 GB, no end in 45 s): with no
    root marker the walk stops after UNMARKED_WALK files of any kind, says so in one line, and the
    run goes on with what it read; a named file is still read."""
    from launchlint.discover import ROOT_MARKERS, UNMARKED_WALK

    assert not any((d / m).exists() for d in (tmp_path, *tmp_path.parents) for m in ROOT_MARKERS)
    (tmp_path / "a.sh").write_text("python t.py 2>&1 > a.log\n")  # the walk's first file
    (tmp_path / "data").mkdir()
    for i in range(UNMARKED_WALK):
        (tmp_path / "data" / f"{i}.txt").touch()
    (tmp_path / "zz").mkdir()
    (tmp_path / "zz" / "late.sh").write_text("python t.py 2>&1 > late.log\n")  # past the limit in the walk's order
    stopped = (
        "launchlint: warning: no pyproject.toml, .launchlint.yaml or .git at or above {}, so the project is the "
        f"current directory: its walk stopped after {UNMARKED_WALK:,} files, and the run goes on with the {{}} it "
        "read; a .launchlint.yaml at the project's root limits a run to it"
    )
    walked = launchlint("--no-cache", "--format", "json", "--select", "LL104", ".", cwd=tmp_path)
    assert [f["path"] for f in json.loads(walked.stdout)] == ["a.sh"]
    assert walked.stderr.splitlines() == [stopped.format(".", 1)]
    named = launchlint("--no-cache", "--format", "json", "--select", "LL104", "zz/late.sh", cwd=tmp_path)
    assert [f["path"] for f in json.loads(named.stdout)] == ["zz/late.sh"]
    assert named.stderr.splitlines() == [stopped.format("zz/late.sh", 2)]
    for i in (0, 1):  # UNMARKED_WALK files: all of them are read, and nothing is said
        (tmp_path / "data" / f"{i}.txt").unlink()
    whole = launchlint("--no-cache", "--format", "json", "--select", "LL104", ".", cwd=tmp_path)
    assert ([f["path"] for f in json.loads(whole.stdout)], whole.stderr) == (["a.sh", "zz/late.sh"], "")


def test_a_walk_never_enters_the_kernels_file_systems(tmp_path, monkeypatch):
    """/proc, /sys and /dev (here a stand-in for /proc), by name or through a link (/dev/fd is a
    link into /proc): `cd / && launchlint` read /proc's endless files."""
    from launchlint import discover

    assert discover._pseudo("/dev/fd") and discover._pseudo("/proc") and not discover._pseudo("/procs")
    (tmp_path / "proc" / "1").mkdir(parents=True)
    (tmp_path / "proc" / "1" / "x.sh").write_text("echo\n")
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "fd").symlink_to(tmp_path / "proc" / "1", target_is_directory=True)
    (tmp_path / "etc" / "job.sh").write_text("echo\n")
    monkeypatch.setattr(discover, "PSEUDO_DIRECTORIES", (str(tmp_path / "proc"),))
    assert [rel for _, rel in discover.walk(str(tmp_path), lambda rel: False)] == ["etc/job.sh"]


@pytest.mark.parametrize("args", [["--list-rules"], ["--no-cache", str(INCIDENT)], ["--no-cache", "--format", "json", str(INCIDENT)]])
def test_a_reader_that_went_away_gets_no_traceback(args):
    """`launchlint ... | head`: once the reader has closed the pipe, the rest of the output goes
    nowhere and launchlint ends with exit 1, never a traceback."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first write
    try:
        done = subprocess.run([LAUNCHLINT, *args], cwd=REPO, stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
    assert done.returncode == 1


def test_a_reader_that_goes_away_part_way_gets_exit_1(tmp_path):
    """`launchlint . | head`: the reader takes the start of a long report, then leaves; the
    report was cut short, so the status is 1 even with `--exit-zero`, and no traceback."""
    for i in range(300):
        (tmp_path / f"run{i}.sh").write_text(f"python train{i}.py 2>&1 | tee run{i}.log\n")
    (tmp_path / ".launchlint.yaml").write_text("")
    reader = subprocess.Popen(
        [LAUNCHLINT, "--no-cache", "--exit-zero", "--format", "json", "."],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert reader.stdout.read(10)  # more than a pipe holds is on its way (600 findings)
    reader.stdout.close()
    stderr = reader.stderr.read().decode()
    assert reader.wait(timeout=120) == 1
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr


def test_a_ray_job_submitted_without_waiting_sends_its_status_and_output_to_ray(tmp_path):
    """Search-R1's multinode scripts: `ray job submit --no-wait -- python3 ... 2>&1 | tee X.log`
    returns once the job is submitted, so the program's status and output go to Ray, not into this
    pipe: no LL105, no LL106, and no LL107 for a nohup'd submission, as for sbatch. Without
    `--no-wait` ray streams the job's log and exits 1 when it fails: LL105 and LL106. The options
    with a value before `--` (`--verify False` too) leave the program to LL301."""
    write_project(tmp_path, {
        "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
        "submit.sh": (
            "ray job submit --address=http://head:8265 --runtime-env-json '{\"env_vars\": {\"A\": \"1\"}}' --working-dir . "
            "--entrypoint-num-gpus 1 --no-wait -- python3 train.py --lr 1 --bogus 2>&1 | tee a.log\n"
            "ray job submit --address=http://head:8265 --working-dir . --verify False -- python3 train.py --lr 1 2>&1 | tee b.log\n"
            "nohup ray job submit --no-wait --working-dir . -- python3 train.py --lr 2 &\n"
            'nohup sbatch --wrap "python3 train.py --lr 3" &\n'
        ),
    })
    result = launchlint("--no-cache", "--format", "json", "--exit-zero", ".", cwd=tmp_path)
    found = sorted((f["code"], f["line"]) for f in json.loads(result.stdout))
    assert found == [("LL105", 2), ("LL106", 2), ("LL301", 1)], result.stderr


def test_the_launch_after_a_continued_placeholder_bash_refuses_is_analysed(tmp_path):
    """Megatron-LLaMA's examples/msdp: `A=<PATH> \\` continued onto `(e.g., /a.txt)`, which bash
    refuses. Blanking that line alone left `A=<PATH>` with no file for its `>`, so nothing was
    blanked and tree-sitter-bash folded the lines after it into one bad region: the launch that
    expands `${A}` was lost to every rule, though rules.md says the rest of the file is still
    analysed. Now the continued command is blanked, one LL001 per region, and `B=<PATH> \\ `,
    which bash reads (the backslash escapes a blank), is left out too, with no LL001."""
    write_project(tmp_path, {
        "x.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--a')\np.add_argument('--b')\np.add_argument('--c')\np.parse_args()\n",
        "gen.sh": (
            "#!/bin/bash\nA=<PATH_A> \\\n        (e.g., /a.txt)\nB=<PATH_B> \\ \n        (e.g., /b.txt)\n"
            "C=<PATH_C> \\\n        (e.g., /c.txt)\n\npython x.py --a ${A} --b ${B} --c ${C} --bogus 1 | tee x.log\n"
        ),
    })
    result = launchlint("--no-cache", "--format", "json", "--exit-zero", ".", cwd=tmp_path)
    found = sorted((f["code"], f["line"], f["column"]) for f in json.loads(result.stdout))
    assert found == [("LL001", 3, 9), ("LL001", 7, 9), ("LL105", 9, 1), ("LL106", 9, 1), ("LL301", 9, 40)], result.stderr


def test_a_windows_script_tree_sitter_bash_misreads_too_is_one_finding_with_the_hint(tmp_path):
    """NIID-Bench's sweeps, saved with CRLF: bash refuses `do\\r`, and tree-sitter-bash errs too
    (a line of flags after one with no `\\`). They got up to 10 LL001 each, one per line bash then
    stops at, none with the `dos2unix` hint; the file tree-sitter-bash reads cleanly got one.
    Now both get the one hinted finding. The LF copy, which bash accepts, gets none."""
    sweep = (
        "for alg in fedavg fedprox\ndo\n  python main.py --alg=$alg \\\n    --mu=0.01\n"
        "    --lr=0.1 --beta=0.5\\\n    --seed=$alg \ndone\n"
    )
    write_project(tmp_path, {"lf.sh": sweep})
    (tmp_path / "crlf.sh").write_bytes(sweep.replace("\n", "\r\n").encode())
    result = launchlint("--no-cache", "--format", "json", "--select", "LL001", ".", cwd=tmp_path)
    found = [(f["path"], f["line"], f["message"]) for f in json.loads(result.stdout)]
    assert found == [
        (
            "crlf.sh", 2,
            "syntax error near unexpected token `$'do\\r'' (Windows line ends: bash reads each `\\r` as part of a word; "
            "`dos2unix` converts them)",
        )
    ], result.stderr


def test_a_windows_file_bash_refuses_with_unix_line_ends_too_gets_no_dos2unix_hint(tmp_path):
    """TIGERScore's Python saved as `.sh` with CRLF: bash refuses it whatever its line ends, so
    converting them is no fix and the finding does not offer it (helper-272)."""
    (tmp_path / "fmt.sh").write_bytes(b"import json\r\nfor x in range(3):\r\n    print(json.dumps(x))\r\n")
    result = launchlint("--no-cache", "--format", "json", "--select", "LL001", ".", cwd=tmp_path)
    (finding,) = json.loads(result.stdout)
    assert finding["path"] == "fmt.sh" and "dos2unix" not in finding["message"], finding


def test_a_batch_script_submitted_in_the_background_keeps_its_output_in_the_scheduler_log(tmp_path):
    """`nohup sbatch job.sh &` (also `setsid -f sbatch`, `sbatch job.sh & disown`) only prints the
    job's id: the job's output goes where its `#SBATCH --output` says, so no LL107 for the
    submission, as for `sbatch --wrap`. A job run after the submission in the same nohup is still
    reported, and the script sbatch runs is still a launch target (LL303 when it is missing)."""
    write_project(tmp_path, {
        "job.sh": "#!/bin/bash\n#SBATCH --output=slurm-%j.out\npython3 train.py\n",
        "train.py": "print('step')\n",
        "submit.sh": (
            "nohup sbatch job.sh &\n"
            "nohup sbatch --parsable -N 2 job.sh > submit.log 2>&1 &\n"
            "setsid -f sbatch job.sh\n"
            "sbatch job.sh & disown\n"
            "nohup sbatch missing.sh &\n"
            "nohup bash -c 'sbatch job.sh; python3 train.py' &\n"
        ),
    })
    result = launchlint("--no-cache", "--format", "json", "--exit-zero", ".", cwd=tmp_path)
    found = sorted((f["code"], f["line"]) for f in json.loads(result.stdout))
    assert found == [("LL107", 6), ("LL303", 5)], result.stderr


def test_the_background_jobs_of_a_batch_script_write_to_the_job_log(tmp_path):
    """A batch script that sbatch submits writes to its `#SBATCH --output` file, never to a
    terminal: its `nohup python monitor.py &` writes no nohup.out and its disowned job loses
    nothing, so no LL107 there; the same script run by `bash` from a terminal gets both."""
    job = "#!/bin/bash\n#SBATCH --output=slurm-%j.out\nnohup python3 monitor.py &\npython3 train.py & disown\nwait\n"
    write_project(tmp_path, {
        "submit.sh": "sbatch job.sh\n",
        "job.sh": job,
        "local/run.sh": "bash job.sh\n",
        "local/job.sh": job,
        "monitor.py": "print('gpu')\n",
        "train.py": "print('step')\n",
    })
    found, result = found_in(tmp_path, ".")
    assert found == [("local/job.sh", "LL107", 3), ("local/job.sh", "LL107", 4)], result.stderr


def test_pwd_after_sourcing_a_file_that_may_cd_is_not_the_directory_before_it(tmp_path):
    """`cd /work/proj` then `source recipes/gpt/env.sh`, which does `cd recipes/gpt`: `$(pwd)` is
    /work/proj/recipes/gpt, no longer /work/proj, so `$(pwd)/train.py` is neither the root's
    train.py (LL301 read the root's parser) nor missing from the path-map directory (LL303, no
    unique file of that name). A virtualenv's activate script or a file outside the project
    leaves it known; a path from `pwd` made before the source stays right."""
    parser = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--{}')\np.parse_args()\n"
    write_project(tmp_path, {
        "train.py": parser.format("lr"),
        "recipes/gpt/train.py": parser.format("gpt_layers"),
        "recipes/gpt/env.sh": "export NCCL_DEBUG=INFO\ncd recipes/gpt\n",
        "recipes/bert/train.py": parser.format("bert_layers"),
        "launch.sh": (
            "#!/bin/bash\ncd /work/proj\nROOT=$(pwd)\nsource recipes/gpt/env.sh\n"
            'python "$(pwd)/train.py" --gpt_layers 12\n'
            'torchrun --nproc_per_node 8 "$PWD/train.py" --gpt_layers 12\n'
            'python "$ROOT/train.py" --bogus 1\n'
        ),
        "venv.sh": (
            "#!/bin/bash\ncd /work/proj\nsource .venv/bin/activate\nsource /opt/conda/etc/profile.d/conda.sh\n"
            'python "$(pwd)/train.py" --bogus 2\n'
        ),
    })
    (tmp_path / ".launchlint.yaml").write_text("path-map:\n  /work/proj/: .\n")
    found, result = found_in(tmp_path, ".")
    assert found == [("launch.sh", "LL301", 7), ("venv.sh", "LL301", 5)], result.stdout + result.stderr


def test_csh_and_fish_scripts_are_not_read_as_bash(tmp_path):
    """A csh, tcsh or fish script (its `#!` line, else a `.csh`/`.fish` name) is not bash: read as
    bash, `|& tee` was a pipeline without pipefail (LL105) and `nohup python eval.py &` lost its
    output (LL107, csh's `>&` redirects it), findings about a misreading. It is not analysed: a
    warning on stderr for each file named, no finding from its contents, and a launcher that
    runs one (`csh job.csh`, `./run.fish`) still gets LL303 when it is missing."""
    csh = (
        "#!/bin/csh -f\nsetenv CUDA_VISIBLE_DEVICES 0,1\nforeach lr (1e-4 3e-4)\n"
        "    python train.py --lr $lr |& tee logs/run_$lr.log\nend\nnohup python eval.py >& eval.log &\n"
    )
    write_project(tmp_path, {
        "train.py": "print('step')\n",
        "eval.py": "print('eval')\n",
        "job.sh": csh,
        "job.csh": csh.replace("#!/bin/csh -f\n", ""),
        "run.fish": "#!/usr/bin/env fish\nfor lr in 1e-4 3e-4\n    python train.py --lr $lr 2>&1 | tee logs/run_$lr.log\nend\n",
        "launch.sh": "csh job.csh\ntcsh -f missing.csh\n./run.fish\n./gone.fish\nfish -c 'python train.py | tee a.log'\n",
    })
    found, result = found_in(tmp_path, ".", "job.csh", "run.fish")
    assert found == [("launch.sh", "LL303", 2), ("launch.sh", "LL303", 4)], result.stdout
    assert sorted(result.stderr.splitlines()) == [
        f"launchlint: warning: {name}: a {shell} script, not bash: not analysed (launchlint reads bash, sh, dash, ksh and zsh)"
        for name, shell in (("job.csh", "csh"), ("job.sh", "csh"), ("run.fish", "fish"))
    ], result.stderr


def test_an_opengl_shader_named_like_a_shell_script_is_not_read_as_bash(tmp_path):
    """Matterport3DSimulator's `src/lib/vertex.sh` (copied into many navigation projects) is a
    GLSL shader the simulator loads as a file: read as bash, its `void main() {` was an LL001.
    `#version N` first and a `main`: a warning, no finding; a comment `#version 2 ...` in a
    script does not make it one."""
    shader = "#version 120\nattribute vec3 vertex;\nuniform mat4 PVM;\nvoid main() {\n  gl_Position = PVM * vec4(vertex, 1.0);\n}\n"
    write_project(tmp_path, {
        "src/lib/vertex.sh": shader,
        "run.sh": "#version 2 of the launcher\npython train.py | tee a.log\n",
        "train.py": "print(1)\n",
    })
    found, result = found_in(tmp_path, ".")
    assert found == [("run.sh", "LL105", 2), ("run.sh", "LL106", 2)], result.stdout
    assert result.stderr.splitlines() == [
        "launchlint: warning: src/lib/vertex.sh: an OpenGL shader (`#version` first), not a shell script: not analysed"
    ], result.stderr


def test_an_options_value_from_a_variable_is_located_at_the_expansion(tmp_path):
    """`--config=x` in `$CMD`'s value: every character of the value stands at `$CMD`, so the
    finding on `x` is `$CMD` (columns 1-5), not a span as long as `x` running past it."""
    write_project(tmp_path, {"train.py": "print(1)\n", "run.sh": 'CMD="python train.py --config=cfg/gone.yaml"\n$CMD\n'})
    result = launchlint("--format", "json", "--select", "LL304", ".", cwd=tmp_path)
    assert [(f["line"], f["column"], f["end_line"], f["end_column"]) for f in json.loads(result.stdout)] == [(2, 1, 2, 5)]
