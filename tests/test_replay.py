"""A run answered from its record (lint/replay.py): the same output and status while nothing it
depended on changed, a full run after any change."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from launchlint import cli, replay, rulekit
from launchlint.cli import command
from launchlint.replay import DIRECTORY, RECORDS, replayed

LAUNCHER = "set -o pipefail\nbash job.sh 2>&1 | tee run.log\n"
JOB = "echo start\nexec > other.log 2>&1\npython -u train.py\n"
ARGS = ["--format", "json", "."]  # a finding (LL102, exit 1) and a warning (stderr: loop.sh)


@pytest.fixture
def settled(tmp_path, monkeypatch):
    """A project whose files count as settled though written a moment ago (the racy window is
    moved an hour into the future), with its own user key."""
    monkeypatch.setattr(replay, "RACY_SECONDS", -3600)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    (project / ".git").mkdir()  # the root marker; the configuration is looked for up to /
    (project / "launch.sh").write_text(LAUNCHER)
    (project / "job.sh").write_text(JOB)
    (project / "loop.sh").symlink_to("loop.sh")  # skipped with a warning
    # As an earlier run left it: making it changes the root directory's stamp, so the record of
    # the run that makes it is never used.
    (project / DIRECTORY).mkdir()
    monkeypatch.chdir(project)
    return project


def full(capsys, args=ARGS) -> tuple[int, str, str]:
    status = command(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def again(capsys, args=ARGS) -> tuple[int | None, str, str]:
    status = replayed(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def records(project: Path) -> list[Path]:
    directory = project / DIRECTORY / RECORDS
    return sorted(directory.iterdir()) if directory.is_dir() else []


def test_the_same_command_with_nothing_changed_prints_the_same_and_exits_the_same(settled, capsys):
    first = full(capsys)
    assert first[0] == 1 and '"LL102"' in first[1] and "loop.sh: symbolic link loop" in first[2]
    assert len(records(settled)) == 1
    assert again(capsys) == first


def _same_size_rewrite(project: Path) -> None:
    """New bytes, same size, and the old modification time put back: the change time tells."""
    job = project / "job.sh"
    before = job.stat()
    job.write_text(JOB.replace("exec > other.log", "exec > OTHER.log"))
    os.utime(job, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert job.stat().st_size == before.st_size and job.stat().st_mtime_ns == before.st_mtime_ns


def _a_config_above_the_root(project: Path) -> None:
    (project.parent / ".launchlint.yaml").write_text("ignore: [LL102]\n")


def _new_file_in_a_walked_directory(project: Path) -> None:
    (project / "scripts" / "other.sh").write_text("exec > x.log\n")


def _found_by_a_rule_question(project: Path) -> None:
    """LL303 asked whether data/prepare.sh exists; data/ is hidden from the walk, so only the
    question sees the script appear."""
    (project / "data" / "prepare.sh").write_text("echo prepare\n")


def _chmod(project: Path) -> None:
    (project / "job.sh").chmod(0o755)


def _the_looping_link_is_mended(project: Path) -> None:
    (project / "loop.sh").unlink()
    (project / "loop.sh").symlink_to("job.sh")


def _a_bash_earlier_on_path(project: Path) -> None:
    """LL001's `bash -n` would now run another bash: the directory it appeared in changed."""
    (project.parent / "early-bin" / "bash").symlink_to(os.path.realpath(replay.bash_on_path()[-1]))


@pytest.mark.parametrize(
    "change",
    [_same_size_rewrite, _a_config_above_the_root, _new_file_in_a_walked_directory, _found_by_a_rule_question, _chmod,
     _the_looping_link_is_mended, _a_bash_earlier_on_path],
)
def test_any_change_it_depended_on_is_a_full_run(settled, capsys, monkeypatch, change):
    (settled.parent / "early-bin").mkdir()
    monkeypatch.setenv("PATH", f"{settled.parent / 'early-bin'}{os.pathsep}{os.environ['PATH']}")
    (settled / ".gitignore").write_text("data/\n")
    (settled / "data").mkdir()
    (settled / "launch.sh").write_text(LAUNCHER + "bash data/prepare.sh\n")
    full(capsys)
    assert again(capsys)[0] is not None
    change(settled)
    assert again(capsys) == (None, "", "")


def test_another_command_line_directory_colour_setting_or_path_is_another_record(settled, capsys, monkeypatch):
    full(capsys)
    assert again(capsys, ["--format", "text", "."]) == (None, "", "")
    monkeypatch.setenv("NO_COLOR", "1")
    assert again(capsys) == (None, "", "")
    monkeypatch.delenv("NO_COLOR")
    path = os.environ["PATH"]
    monkeypatch.setenv("PATH", f"{settled}{os.pathsep}{path}")  # which bash confirms LL001
    assert again(capsys) == (None, "", "")
    monkeypatch.setenv("PATH", path)
    assert again(capsys)[0] == 1
    monkeypatch.chdir(settled / "scripts")
    assert again(capsys, ["--format", "json", ".."]) == (None, "", "")


def test_a_record_is_signed_with_the_users_key(settled, capsys, monkeypatch, tmp_path):
    full(capsys)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone else"))
    assert again(capsys) == (None, "", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    (entry,) = records(settled)
    data = bytearray(entry.read_bytes())
    data[-3] ^= 1
    entry.write_bytes(bytes(data))
    assert again(capsys) == (None, "", "")


def test_looking_for_a_record_makes_no_key(tmp_path, monkeypatch, capsys):
    """`launchlint --version` on a machine that never ran launchlint writes nothing."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert again(capsys, ["--version"]) == (None, "", "")
    assert not (tmp_path / "home").exists()


def test_the_run_that_makes_the_cache_records_nothing_it_could_never_use(settled, capsys):
    """Making `.launchlint_cache/` changes the root directory's stamp, taken before: its record
    would never hit, so it is not written; the next run's is."""
    (settled / DIRECTORY).rmdir()
    full(capsys)
    assert records(settled) == []
    first = full(capsys)
    assert len(records(settled)) == 1 and again(capsys) == first


def test_files_written_just_before_the_run_are_not_trusted_yet(settled, capsys, monkeypatch):
    """A file rewritten within one timestamp tick of its stamp would look unchanged: nothing is
    recorded while a stamp is within RACY_SECONDS of the run's start."""
    monkeypatch.setattr(replay, "RACY_SECONDS", 2)
    full(capsys)
    assert records(settled) == []


def _crash(project):
    raise KeyError("boom")


def _budget_stops_big_files(monkeypatch, settled: Path) -> None:
    build = cli.build_options

    def tight(*args):
        options = build(*args)
        options.budget = 0.001
        return options

    monkeypatch.setattr(cli, "build_options", tight)
    (settled / "big.sh").write_text("echo step; python -u train.py | tee log.txt\n" * 20000)


def _rule_crashes(monkeypatch, settled: Path) -> None:
    crashing = tuple(r._replace(check=_crash) if r.code == "LL102" else r for r in rulekit.all_rules())
    monkeypatch.setattr(rulekit, "rules_for", lambda present: crashing)


@pytest.mark.parametrize(("make", "says"), [(_budget_stops_big_files, "analysis stopped"), (_rule_crashes, "LL003")])
def test_a_run_that_would_not_find_the_same_again_is_not_recorded(settled, capsys, monkeypatch, make, says):
    """A stopped analysis depends on the machine's load, a crash on the code: like run entries,
    neither is recorded."""
    make(monkeypatch, settled)
    assert says in full(capsys)[1]
    assert records(settled) == []


@pytest.mark.parametrize(
    "args",
    [
        ["--no-cache", "."],
        ["--output", "report.txt", "."],
        ["--diff", "."],
        ["--fix", "."],
        ["--write-baseline", "base.json", "."],
        ["--command", "bash job.sh | tee x.log"],
    ],
)
def test_runs_that_write_files_or_read_other_input_are_not_recorded(settled, capsys, args):
    full(capsys, args)
    assert records(settled) == []


def test_a_run_of_a_project_from_outside_it_is_not_recorded(settled, capsys, monkeypatch):
    monkeypatch.chdir(settled.parent)  # no root marker here: this directory would be the root
    full(capsys, ["project"])
    assert records(settled) == [] and not (settled.parent / DIRECTORY).exists()


def test_a_replayed_command_imports_nothing_of_the_linter(tmp_path):
    """The installed command, end to end: run once (the cache is made), wait until the files
    are settled, run again (recorded), then a third run prints the same without importing the
    engine or a parser."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "launch.sh").write_text(LAUNCHER)
    (tmp_path / "job.sh").write_text(JOB)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "home")}

    def launchlint(*options: str) -> subprocess.CompletedProcess:
        command = [sys.executable, *options, "-m", "launchlint", "--format", "json", "."]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)

    launchlint()
    time.sleep(replay.RACY_SECONDS + 0.2)
    recorded = launchlint()
    assert recorded.returncode == 1 and '"LL102"' in recorded.stdout
    assert len(records(tmp_path)) == 1
    replay_run = launchlint("-X", "importtime")
    imported = [line.split("|")[-1].strip() for line in replay_run.stderr.splitlines() if line.startswith("import time:")]
    assert replay_run.returncode == 1 and replay_run.stdout == recorded.stdout
    assert "launchlint.replay" in imported
    assert not {"launchlint.cli", "launchlint.engine", "tree_sitter", "yaml", "pickle"} & set(imported)
