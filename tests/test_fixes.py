"""Applying edits, writing files atomically, rendering diffs (launchlint.fixes)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from launchlint.engine import Options, run
from launchlint.fixes import FileFix, apply_fixes, fix_json, plan_fixes, unified_diff, write_atomic
from launchlint.model import Edit, Finding, Fix, LineIndex, Location

from tests.conftest import write_project
from tests.test_safe_writes import launchlint


def edit(start: int, end: int, text: str) -> Edit:
    return Edit("run.sh", start, end, text)


def test_edits_apply_back_to_front_on_the_original_offsets():
    text = "python train.py 2>&1 > log\n"
    edits = [edit(6, 6, " -u"), edit(16, 26, "> log 2>&1")]
    assert apply_fixes(text, edits) == "python -u train.py > log 2>&1\n"


def test_overlapping_and_same_place_edits_are_skipped_duplicates_applied_once():
    text = "abcdef"
    edits = [edit(1, 3, "X"), edit(2, 4, "Y"), edit(0, 0, "<"), edit(0, 0, "["), edit(6, 6, "!"), edit(6, 6, "!")]
    assert apply_fixes(text, edits) == "<aXdef!"


def test_write_atomic_keeps_mode_bom_and_follows_symlinks(tmp_path):
    target = tmp_path / "real.sh"
    target.write_bytes(b"\xef\xbb\xbfecho old\n")
    os.chmod(target, 0o750)
    link = tmp_path / "link.sh"
    link.symlink_to(target)
    write_atomic(link, "echo new\n")
    assert link.is_symlink()
    assert target.read_bytes() == b"\xef\xbb\xbfecho new\n"
    assert os.stat(target).st_mode & 0o777 == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.sh", "real.sh"]  # no temp file left


def test_fix_as_json_positions():
    index = LineIndex("#!/bin/bash\npython t.py | tee a.log\n")
    fix = Fix("run `python -u`", (Edit("run.sh", 18, 18, " -u"),))
    assert fix_json(fix, {"run.sh": index}) == {
        "description": "run `python -u`",
        "edits": [{"path": "run.sh", "line": 2, "column": 7, "end_line": 2, "end_column": 7, "text": " -u"}],
    }
    assert fix_json(None, {}) is None


def test_diff_marks_a_last_line_without_newline(tmp_path):
    fix = FileFix("run.sh", tmp_path / "run.sh", "set -e\npython t.py", "set -e\npython -u t.py")
    assert unified_diff([fix]) == (
        "--- a/run.sh\n+++ b/run.sh\n@@ -1,2 +1,2 @@\n set -e\n-python t.py\n"
        "\\ No newline at end of file\n+python -u t.py\n\\ No newline at end of file\n"
    )


# --- the rules' safe fixes ----------------------------------------------------------------------

def fixed(tmp_path, monkeypatch, text: str, code: str, others: dict[str, str] | None = None) -> str:
    """run.sh after the rule's fixes, or unchanged when it offers none."""
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path, {"run.sh": text, **(others or {})})
    result = run([str(tmp_path)], Options(select=frozenset({code})))
    assert result.findings, f"{code} did not fire"
    fixes = plan_fixes(result.findings, result.root, result.indexes)
    return fixes[0].after if fixes else text


@pytest.mark.parametrize(
    "before,after",
    [
        ("#!/bin/bash\npython t.py | tee a.log\n", "#!/bin/bash\nset -o pipefail\npython t.py | tee a.log\n"),
        ("#!/bin/bash\nset -eux\n\nbash x.sh | tee a.log\n", "#!/bin/bash\nset -eux\nset -o pipefail\n\nbash x.sh | tee a.log\n"),
        ("python t.py | tee a.log\nmake | tee b.log", "set -o pipefail\npython t.py | tee a.log\nmake | tee b.log"),
        ("#!/bin/sh\npython t.py | tee a.log\n", None),  # dash before 0.5.11 has no pipefail
        ("#!/bin/bash\nset +o pipefail\npython t.py | tee a.log\n", None),  # off on purpose
        ("#!/bin/bash\nbash -c 'python t.py | tee a.log'\n", None),  # a string: its own shell
    ],
)
def test_pipefail_fix(tmp_path, monkeypatch, before, after):
    assert fixed(tmp_path, monkeypatch, before, "LL105") == (after or before)


def test_no_pipefail_fix_for_a_script_some_caller_runs_with_sh(tmp_path, monkeypatch):
    before = "python t.py | tee a.log\n"
    assert fixed(tmp_path, monkeypatch, before, "LL105", {"ci.sh": "sh run.sh\n"}) == before


@pytest.mark.parametrize(
    "before,after",
    [
        ("python t.py 2>&1 > a.log\n", "python t.py > a.log 2>&1\n"),
        ("python t.py 2>&1 >>\"$LOG\"\n", "python t.py >>\"$LOG\" 2>&1\n"),
        ("ssh h 'python t.py 2>&1 > a.log'\n", "ssh h 'python t.py > a.log 2>&1'\n"),
        # the words after the file are the command's: they stay where they are
        ("python t.py 2>&1 >a.log --seed 1\n", "python t.py >a.log 2>&1 --seed 1\n"),
        ('CMD="python t.py 2>&1 > a.log"\neval "$CMD"\n', None),  # the text is in the variable
        # tee's `2>&1` goes before the `|`: the job's stderr enters the pipe
        ("python t.py | tee 2>&1 a.log\n", "python t.py 2>&1 | tee a.log\n"),
        ("python t.py \\\n  --lr 1 | tee -a 2>&1 a.log\n", "python t.py \\\n  --lr 1 2>&1 | tee -a a.log\n"),
        ("ssh h 'python t.py | tee 2>&1 a.log'\n", "ssh h 'python t.py 2>&1 | tee a.log'\n"),
        ('CMD="python t.py | tee 2>&1 a.log"\neval "$CMD"\n', None),  # the text is in the variable
    ],
)
def test_redirect_order_fix(tmp_path, monkeypatch, before, after):
    assert fixed(tmp_path, monkeypatch, before, "LL104") == (after or before)


@pytest.mark.parametrize(
    "before,after",
    [
        ("python3 t.py | tee a.log\n", "python3 -u t.py | tee a.log\n"),
        ("srun /usr/bin/python -m pkg.train > a.log\n", "srun /usr/bin/python -u -m pkg.train > a.log\n"),
        ("PY=python\n$PY t.py > a.log\n", None),  # the interpreter comes from a variable
    ],
)
def test_unbuffered_fix(tmp_path, monkeypatch, before, after):
    assert fixed(tmp_path, monkeypatch, before, "LL106") == (after or before)


# --- `--fix` through the real command: where `set -o pipefail` goes, and when it is not offered ---

JOB = "torchrun --nproc_per_node 8 train.py 2>&1 | tee train.log\n"


def cli_fix(tmp_path, files: dict[str, str], *args: str) -> tuple[dict[str, str], str, list[dict]]:
    """Every file after `launchlint --fix ARGS` (LL105's in the project, by default), its last
    stderr line, and the findings left; a second `--fix` must change nothing."""
    args = args or ("--select", "LL105", ".")
    write_project(tmp_path, files)
    first = launchlint("--fix", "--no-cache", *args, cwd=tmp_path)
    assert "Traceback" not in first.stderr, first.stderr
    after = {name: (tmp_path / name).read_text() for name in files}
    launchlint("--fix", "--no-cache", *args, cwd=tmp_path)
    assert {name: (tmp_path / name).read_text() for name in files} == after, "a second --fix changed the files"
    left = json.loads(launchlint("--format", "json", "--no-cache", *args, cwd=tmp_path).stdout)
    return after, first.stderr.strip().splitlines()[-1], left


@pytest.mark.parametrize(
    "before,after",
    [
        (  # a `set` ending a case arm: not the script's first command at the top level (bash -n failed)
            f'#!/bin/bash\ncase "$1" in\n-v)\nset -x;;\nesac\n{JOB}',
            f'#!/bin/bash\nset -o pipefail\ncase "$1" in\n-v)\nset -x;;\nesac\n{JOB}',
        ),
        (  # in an `if` or a loop it would run only sometimes
            f'#!/bin/bash\nif [ -n "$DEBUG" ]; then\nset -x\nfi\n{JOB}',
            f'#!/bin/bash\nset -o pipefail\nif [ -n "$DEBUG" ]; then\nset -x\nfi\n{JOB}',
        ),
        (
            f'#!/bin/bash\nfor a in "$@"; do\nset -x\ndone\n{JOB}',
            f'#!/bin/bash\nset -o pipefail\nfor a in "$@"; do\nset -x\ndone\n{JOB}',
        ),
        (  # in a subshell or `$(...)` it would do nothing
            f"#!/bin/bash\n(\nset -e\ncd sub\n)\n{JOB}",
            f"#!/bin/bash\nset -o pipefail\n(\nset -e\ncd sub\n)\n{JOB}",
        ),
        (f"OUT=$(\nset -e\npwd)\n{JOB}", f"set -o pipefail\nOUT=$(\nset -e\npwd)\n{JOB}"),
        (  # a line holding a heredoc's start: the next line is the heredoc's data
            f"#!/bin/bash\nset -e; cat <<EOF > cfg.yaml\nlr: 1\nEOF\n{JOB}",
            f"#!/bin/bash\nset -o pipefail\nset -e; cat <<EOF > cfg.yaml\nlr: 1\nEOF\n{JOB}",
        ),
        (f"set -e; {JOB}", f"set -o pipefail\nset -e; {JOB}"),  # the pipeline on the `set` line
        (  # a top-level `set` alone on its line, after the header comments
            f"#!/bin/bash\n# train\n\nset -eu  # strict\n{JOB}",
            f"#!/bin/bash\n# train\n\nset -eu  # strict\nset -o pipefail\n{JOB}",
        ),
        (  # after the #SBATCH header: sbatch stops reading directives at the first command
            f"#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=1:00:00\n\n{JOB}",
            f"#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=1:00:00\nset -o pipefail\n\n{JOB}",
        ),
    ],
)
def test_pipefail_goes_where_it_runs_once_before_the_pipeline(tmp_path, before, after):
    fixed, said, left = cli_fix(tmp_path, {"run.sh": before})
    assert fixed["run.sh"] == after
    assert said == "launchlint: fixed 1 finding in 1 file"
    assert [f["code"] for f in left] == []


@pytest.mark.parametrize(
    "files",
    [
        # pipefail would change pipelines the rule leaves alone: an early exit aborts under `set -e`,
        # `if ... | grep -q` takes the other branch, a `grep` in the middle fails on no match
        {"run.sh": f"#!/bin/bash\nset -e\npython ls.py | head -n 1 > latest.txt\n{JOB}"},
        {"run.sh": f"#!/bin/bash\nif python check.py | grep -q OK; then echo ok; fi\n{JOB}"},
        {"run.sh": f"#!/bin/bash\ngrep loss old.log | sort > losses.txt\n{JOB}"},
        {"run.sh": f"#!/bin/bash\nyes | pip uninstall torch\n{JOB}"},
        # ... or the reported pipeline itself: grep's "no match" in its middle, a `head` its writer dies at
        {"run.sh": "#!/bin/bash\nset -e\ntests=$(pytest --collect-only -q | grep ::test_rpc | cut -d: -f3)\n"},
        {"run.sh": "#!/bin/bash\npython bench.py | tail -n2 | head -n1 | tee -a results.txt\n"},
        # ... in a file that sources it
        {"lib.sh": f"run_train() {{\n  {JOB}}}\nrun_train\n", "main.sh": "#!/bin/bash\nset -e\n. ./lib.sh\npython gen.py | head -n 1\n"},
        # pipefail turned off on purpose, in the script or in a file it sources
        {"run.sh": f"#!/bin/bash\nset -euo pipefail\nset +eo pipefail\n{JOB}"},
        {"run.sh": f"#!/bin/bash\nset -euo pipefail\nshopt -uo pipefail\n{JOB}"},
        {"run.sh": f"#!/bin/bash\nsource ./env.sh\n{JOB}", "env.sh": "set +o pipefail\n"},
        {"run.sh": f"#!/bin/bash\nsource ./common.env\n{JOB}", "common.env": "LOG=run.log\nset +o pipefail\n"},
        # a shell without pipefail runs it: sourced by sh, run by sh without a `#!` line, read by sh
        {"lib.sh": JOB, "main.sh": "#!/bin/sh\n. ./lib.sh\n"},
        {"lib.sh": JOB, "main.sh": "#!/bin/sh\n./lib.sh\n"},
        {"run.sh": f"#!/bin/bash\n{JOB}", "launch.sh": "#!/bin/bash\nssh gpu1 sh -s < run.sh\n"},
        # not a shell with pipefail at all
        {"run.sh": f"#!/usr/bin/env yash\n{JOB}"},
        {"run.sh": f"#!/bin/posh\n{JOB}"},
    ],
)
def test_no_pipefail_fix_where_it_would_change_or_break_the_script(tmp_path, files):
    fixed, said, left = cli_fix(tmp_path, files)
    assert fixed == files
    assert said == "launchlint: fixed 0 findings in 0 files"
    assert "LL105" in {f["code"] for f in left}


def test_no_pipefail_fix_in_a_script_with_windows_line_ends(tmp_path):
    """The line the fix adds ends as the file's lines do; bash reads `set -o pipefail\r` as an
    option it refuses and goes on without pipefail: the finding stays, without a fix."""
    script = b"#!/bin/bash\r\n" + JOB.replace("\n", "\r\n").encode()
    (tmp_path / "run.sh").write_bytes(script)
    launchlint("--fix", "--no-cache", "--select", "LL105", ".", cwd=tmp_path)
    assert (tmp_path / "run.sh").read_bytes() == script
    found = json.loads(launchlint("--no-cache", "--format", "json", "--select", "LL105", ".", cwd=tmp_path).stdout)
    assert [(f["code"], f["line"], f["fix"]) for f in found] == [("LL105", 2, None)]


def test_no_pipefail_fix_for_a_csh_script_named_on_the_command_line(tmp_path):
    files = {"run.csh": f"#!/bin/csh\n{JOB}"}
    assert cli_fix(tmp_path, files, "--select", "LL105", "run.csh")[0] == files


def test_a_fish_script_is_neither_fixed_nor_reported(tmp_path):
    """fish is not bash: the script is not analysed (a warning on stderr), so no LL105 and no fix."""
    files = {"run.sh": f"#!/usr/bin/env fish\n{JOB}"}
    fixed, said, left = cli_fix(tmp_path, files)
    assert (fixed, said, left) == (files, "launchlint: fixed 0 findings in 0 files", [])


def test_no_pipefail_fix_that_would_change_a_suppressed_pipeline(tmp_path):
    files = {"run.sh": f"#!/bin/bash\npython dump.py | awk 'NR==1{{print; exit}}' > first.txt  # launchlint: disable=LL105\n{JOB}"}
    fixed, _, left = cli_fix(tmp_path, files, "--select", "LL105,LL002", ".")
    assert fixed == files
    assert [f["code"] for f in left] == ["LL105"]  # and no LL002: the suppression still covers a finding


@pytest.mark.parametrize("shebang", ["#!/bin/zsh", "#!/usr/bin/env ksh", "#!/bin/mksh", "#!/bin/bash"])
def test_pipefail_fix_beside_pipelines_it_leaves_alone(tmp_path, shebang):
    before = f"{shebang}\nnvidia-smi | tee gpus.log\npython -u t.py &> t.log &\n{JOB}"
    fixed, _, left = cli_fix(tmp_path, {"run.sh": before})
    assert fixed["run.sh"] == before.replace("\n", "\nset -o pipefail\n", 1) and left == []


def test_a_file_named_twice_through_a_symlink_is_one_diff_and_one_file(tmp_path):
    write_project(tmp_path, {"scripts/real.sh": f"#!/bin/bash\n{JOB}"})
    (tmp_path / "run.sh").symlink_to("scripts/real.sh")
    diff = launchlint("--diff", "--no-cache", ".", cwd=tmp_path).stdout
    assert diff.count("+++ ") == 1 and "+++ b/scripts/real.sh" in diff
    patched = tmp_path / "patched"
    shutil.copytree(tmp_path, patched, symlinks=True)
    subprocess.run(["patch", "-s", "-p1"], input=diff, text=True, cwd=patched, check=True)
    fixed = launchlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert fixed.stderr.strip().splitlines()[-1] == "launchlint: fixed 2 findings in 1 file"
    assert (tmp_path / "scripts/real.sh").read_text() == (patched / "scripts/real.sh").read_text()


def test_two_fixes_starting_at_the_same_place_are_both_applied_and_counted(tmp_path):
    fixed, said, left = cli_fix(tmp_path, {"run.sh": "2>&1 >t.log torchrun a.py\npython b.py | tee b.log\n"}, "--select", "LL104,LL105", ".")
    assert fixed["run.sh"] == "set -o pipefail\n>t.log 2>&1 torchrun a.py\npython b.py | tee b.log\n"
    assert said == "launchlint: fixed 2 findings in 1 file" and left == []


def test_a_fix_skipped_for_another_at_the_same_place_is_not_counted(tmp_path):
    (tmp_path / "run.sh").write_text("echo\n")
    where = Location("run.sh", 1, 1, 1, 5)
    findings = [Finding(where, "a", fix=Fix("a", (edit(0, 0, "x\n"),))), Finding(where, "b", fix=Fix("b", (edit(0, 0, "y\n"),)))]
    fixes = plan_fixes(findings, str(tmp_path), {"run.sh": LineIndex("echo\n")})
    assert [(f.after, f.fixed) for f in fixes] == [("x\necho\n", 1)]


def test_diff_fails_only_for_fixes_of_findings_at_or_above_fail_on(tmp_path):
    """`--diff` exits 1 when it shows a fix (as ruff's does), but, as every run, only for a finding
    at or above `--fail-on`: a CI gate `--diff --fail-on error` passed warnings' fixes as a failure."""
    write_project(tmp_path, {"run.sh": "python -u t.py 2>&1 > a.log\n"})  # LL104, a warning, with a fix

    def diff(*args: str) -> tuple[int, bool]:
        result = launchlint("--diff", "--no-cache", *args, ".", cwd=tmp_path)
        return result.returncode, "+python -u t.py > a.log 2>&1" in result.stdout

    assert diff() == (1, True)
    assert diff("--fail-on", "error") == (0, True)  # the diff is shown all the same
    assert diff("--fail-on", "error", "--exit-zero") == (0, True)
    (tmp_path / ".launchlint.yaml").write_text("fail-on: error\n")
    assert diff() == (0, True)
    assert diff("--fail-on", "warning") == (1, True)
    (tmp_path / ".launchlint.yaml").write_text("fail-on: error\nseverity: {LL104: error}\n")
    assert diff() == (1, True)
    (tmp_path / "run.sh").write_text("python -u t.py > a.log 2>&1\n")
    assert diff() == (0, False)


def test_a_script_read_byte_for_byte_gets_only_ascii_and_its_own_characters(tmp_path):
    """A Latin-1 script is written back one byte a character: a fix may copy its characters (a
    moved `>r\xe9sultat.log`) or write ASCII; any other character would be a byte of another
    meaning, so such a fix is refused, and said."""
    (tmp_path / "run.sh").write_bytes(b"# r\xe9sum\xe9\necho\n")
    texts = {"run.sh": LineIndex("# r\xe9sum\xe9\necho\n")}
    where = Location("run.sh", 2, 1, 2, 5)

    def plan(text: str) -> tuple[list, list[str]]:
        warnings: list[str] = []
        fixes = plan_fixes([Finding(where, "a", fix=Fix("a", (edit(13, 13, text),)))], str(tmp_path), texts, warnings.append)
        return [(f.after, f.encoding) for f in fixes], warnings

    assert plan(" \xe9 -n") == ([("# r\xe9sum\xe9\necho \xe9 -n\n", "latin-1")], [])
    assert plan(" \u2014") == ([], ["run.sh: the fix writes characters that are not in this latin-1 file; not fixed"])
