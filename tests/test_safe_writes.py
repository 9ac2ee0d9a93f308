"""Never lose a byte: `--fix` writes atomically and only over what it analysed; the cache
survives concurrent runs (issue 9)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from launchlint import parsing, replay
from launchlint.cache import DIRECTORY, Cache
from launchlint.engine import Options, run
from launchlint.fixes import plan_fixes, write_atomic, write_fixes

from tests.conftest import write_project

LAUNCHLINT = shutil.which("launchlint") or "launchlint"
BOM = b"\xef\xbb\xbf"
# LL104 (moves `2>&1`), LL105 (inserts `set -o pipefail`) and LL106 (adds `-u`), all with fixes.
FIXABLE = "#!/bin/bash\npython t.py 2>&1 > a.log\npython t.py | tee b.log\n"
FIXED = "#!/bin/bash\nset -o pipefail\npython -u t.py > a.log 2>&1\npython -u t.py | tee b.log\n"


def launchlint(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, **env}
    return subprocess.run([LAUNCHLINT, *args], cwd=cwd, capture_output=True, text=True, timeout=120, env=environment)


def planned(root: Path, monkeypatch) -> list:
    monkeypatch.chdir(root)
    result = run(["."], Options(select=frozenset({"LL104", "LL105", "LL106"})))
    return plan_fixes(result.findings, result.root, result.indexes)


# --- atomic writes ------------------------------------------------------------------------------


def test_the_new_text_goes_to_a_temporary_file_beside_the_original_then_is_renamed(tmp_path, monkeypatch):
    target = tmp_path / "run.sh"
    target.write_text("old\n")
    renames = []
    real_replace = os.replace

    def watching(source, destination):
        # At the rename the original is still whole and the new text is complete beside it.
        renames.append((Path(source), Path(destination), Path(source).read_text(), Path(destination).read_text()))
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", watching)
    write_atomic(target, "new\n")
    [(source, destination, new, old)] = renames
    assert (source.parent, destination) == (tmp_path, target)
    assert source.name.startswith(".run.sh.") and source.name.endswith(".tmp")
    assert (new, old) == ("new\n", "old\n")
    assert target.read_text() == "new\n"


def test_a_failed_write_leaves_the_original_and_no_temporary_file(tmp_path, monkeypatch):
    write_project(tmp_path, {"run.sh": FIXABLE})
    fixes = planned(tmp_path, monkeypatch)

    def full_disk(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    warnings = []
    assert write_fixes(fixes, warnings.append) == []
    assert warnings == ["run.sh: cannot write the fix: No space left on device"]
    assert (tmp_path / "run.sh").read_text() == FIXABLE
    assert sorted(p.name for p in tmp_path.iterdir()) == [".launchlint.yaml", "run.sh"]


def test_a_short_write_is_carried_on_until_every_byte_is_written(tmp_path, monkeypatch):
    """`os.write` may write less than it is given (a signal, a full pipe): the rest follows."""
    real_write, sizes = os.write, []

    def one_kilobyte(fd, data):
        sizes.append(len(data))
        return real_write(fd, bytes(data[:1024]))

    monkeypatch.setattr(os, "write", one_kilobyte)
    data = bytes(range(256)) * 40
    replay.write_replacing(tmp_path / "entry", data)
    assert (tmp_path / "entry").read_bytes() == data
    assert sizes == list(range(len(data), 0, -1024))
    assert os.listdir(tmp_path) == ["entry"]


def test_a_report_is_never_written_into_a_block_device(monkeypatch):
    """`write_report` writes a device where it is (see test_ecosystem), but refuses a block
    device before it opens it: a report does not belong on a disk. Faked with /dev/null seen as
    a block device, so no real disk is ever opened."""
    real_stat, opened = os.stat, []

    def as_block_device(path, *args, **kwargs):
        found = real_stat(path, *args, **kwargs)
        return os.stat_result((0o060666, *tuple(found)[1:])) if path == "/dev/null" else found  # S_IFBLK

    monkeypatch.setattr(os, "stat", as_block_device)
    monkeypatch.setattr(os, "open", lambda *args, **kwargs: opened.append(args) or -1)
    with pytest.raises(OSError) as raised:
        replay.write_report("/dev/null", b"report")
    assert (raised.value.errno, raised.value.strerror) == (errno.EINVAL, "a block device, not a file or a stream")
    assert opened == []


def test_mode_and_owner_are_kept(tmp_path):
    target = tmp_path / "run.sh"
    target.write_text("old\n")
    os.chmod(target, 0o2754)
    if os.geteuid() == 0:  # only root can hand a file to someone else
        os.chown(target, 4321, 4321)
    before = os.stat(target)
    write_atomic(target, "new\n")
    after = os.stat(target)
    assert (after.st_mode, after.st_uid, after.st_gid) == (before.st_mode, before.st_uid, before.st_gid)
    assert after.st_ino != before.st_ino  # a new file renamed over the old, not rewritten in place


def test_fix_through_a_symlink_edits_the_target_and_keeps_the_link(tmp_path):
    write_project(tmp_path, {"real/run.sh": FIXABLE})
    (tmp_path / "link.sh").symlink_to("real/run.sh")
    result = launchlint("--fix", "--no-cache", "--select", "LL104,LL105,LL106", "link.sh", cwd=tmp_path)
    assert "Traceback" not in result.stderr and "warning" not in result.stderr, result.stderr
    assert (tmp_path / "link.sh").is_symlink()
    assert os.readlink(tmp_path / "link.sh") == "real/run.sh"
    assert (tmp_path / "real" / "run.sh").read_text() == FIXED


def test_a_file_reached_twice_through_a_symlink_is_fixed_once_without_warnings(tmp_path):
    write_project(tmp_path, {"real.sh": FIXABLE})
    (tmp_path / "link.sh").symlink_to("real.sh")
    result = launchlint("--fix", "--no-cache", "--select", "LL104,LL105,LL106", ".", cwd=tmp_path)
    assert "warning" not in result.stderr, result.stderr
    assert (tmp_path / "real.sh").read_text() == FIXED and (tmp_path / "link.sh").is_symlink()


# --- never over what was not analysed ------------------------------------------------------------


def test_a_file_changed_after_the_analysis_is_not_fixed(tmp_path, monkeypatch):
    write_project(tmp_path, {"run.sh": FIXABLE, "gone.sh": FIXABLE})
    monkeypatch.chdir(tmp_path)
    result = run(["."], Options())
    (tmp_path / "run.sh").write_text("# edited meanwhile\n" + FIXABLE)
    (tmp_path / "gone.sh").unlink()
    warnings = []
    assert plan_fixes(result.findings, result.root, result.indexes, warnings.append) == []
    assert warnings == ["gone.sh: cannot read: No such file or directory; not fixed", "run.sh: changed while launchlint ran; not fixed"]


# Installed in the launchlint process through sitecustomize: when the fix planner opens run.sh,
# an editor saves it first (the analysis has read it already).
EDITOR_SAVES_WHILE_PLANNED = """
import os, sys

_saved = []


def _save(event, args):
    if _saved or event != "open" or isinstance(args[0], int) or os.path.basename(os.fsdecode(args[0])) != "run.sh":
        return
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_name != "plan_fixes":
        frame = frame.f_back
    if frame is not None:
        _saved.append(1)
        with open(args[0], "a") as handle:
            handle.write("echo saved by an editor\\n")


sys.addaudithook(_save)
"""


def test_a_file_changed_between_the_analysis_and_the_fix_is_one_warning(tmp_path):
    """It was left alone without a word: `fixed 0 findings in 0 files`, and no saying why."""
    write_project(tmp_path, {"run.sh": FIXABLE, "other.sh": FIXABLE})
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(EDITOR_SAVES_WHILE_PLANNED)
    result = launchlint("--fix", "--no-cache", "--select", "LL104,LL105,LL106", ".", cwd=tmp_path, PYTHONPATH=str(hook))
    assert result.stderr.splitlines() == ["launchlint: warning: run.sh: changed while launchlint ran; not fixed", "launchlint: fixed 4 findings in 1 file"]
    assert (tmp_path / "run.sh").read_text() == FIXABLE + "echo saved by an editor\n"
    assert (tmp_path / "other.sh").read_text() == FIXED


def test_a_file_changed_between_planning_and_writing_is_not_fixed(tmp_path, monkeypatch):
    write_project(tmp_path, {"run.sh": FIXABLE})
    fixes = planned(tmp_path, monkeypatch)
    assert [f.path for f in fixes] == ["run.sh"]
    (tmp_path / "run.sh").write_text("# an editor saved this meanwhile\n" + FIXABLE)
    warnings = []
    assert write_fixes(fixes, warnings.append) == []
    assert warnings == ["run.sh: changed while launchlint ran; not fixed"]
    assert (tmp_path / "run.sh").read_text() == "# an editor saved this meanwhile\n" + FIXABLE
    assert sorted(p.name for p in tmp_path.iterdir()) == [".launchlint.yaml", "run.sh"]


@pytest.mark.parametrize("locked,why", [("jobs/run.sh", "read-only"), ("jobs", "in a read-only directory")])
def test_fix_leaves_a_read_only_file_alone_with_one_warning(tmp_path, locked, why):
    """`--fix` renamed its fixed copy over a file the user had made read-only (`chmod a-w`, a
    read-only checkout), which a rename does not ask. The mode bits are checked as well as
    `os.access`, so this holds when the tests run as root, whom modes do not stop."""
    write_project(tmp_path, {"jobs/run.sh": FIXABLE, "other.sh": FIXABLE})
    before = os.stat(tmp_path / "jobs/run.sh")
    mode = before.st_mode & 0o777
    (tmp_path / locked).chmod(0o555 if locked == "jobs" else 0o444)
    try:
        result = launchlint("--fix", "--no-cache", "--select", "LL104,LL105,LL106", ".", cwd=tmp_path)
        after = os.stat(tmp_path / "jobs/run.sh")
    finally:
        (tmp_path / locked).chmod(0o755 if locked == "jobs" else mode)
    assert result.stderr.splitlines() == [f"launchlint: warning: jobs/run.sh: {why}; not fixed", "launchlint: fixed 4 findings in 1 file"]
    assert (tmp_path / "jobs/run.sh").read_text() == FIXABLE and after.st_ino == before.st_ino
    assert (tmp_path / "other.sh").read_text() == FIXED
    assert result.returncode == 1  # its findings are still reported, as fixable as they were
    assert "\njobs/run.sh:2:13: LL104 [warning] [*] " in result.stdout and result.stdout.endswith("\n4 findings (0 errors, 4 warnings) in 3 files\n")


def test_fix_is_idempotent(tmp_path):
    write_project(tmp_path, {"run.sh": FIXABLE, "deploy.sh": "ssh h 'python t.py 2>&1 > a.log'\n"})
    first = launchlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert first.stderr.splitlines()[-1].startswith("launchlint: fixed ")
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert after["run.sh"] == FIXED.encode()
    second = launchlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert second.stderr.splitlines()[-1] == "launchlint: fixed 0 findings in 0 files"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == after
    assert launchlint("--diff", "--no-cache", ".", cwd=tmp_path).stdout == ""


def test_fix_keeps_a_byte_order_mark_and_crlf_line_endings(tmp_path):
    """Edits keep the byte order mark and the CRLF line ends; LL105 inserts no `set -o pipefail`
    line there (bash would read `pipefail\r`: its finding stays, unfixed)."""
    (tmp_path / ".launchlint.yaml").write_text("")
    (tmp_path / "run.sh").write_bytes(BOM + FIXABLE.replace("\n", "\r\n").encode())
    result = launchlint("--fix", "--no-cache", "--select", "LL104,LL105,LL106", ".", cwd=tmp_path)
    assert result.stderr.splitlines()[-1] == "launchlint: fixed 3 findings in 1 file"
    fixed = FIXED.replace("set -o pipefail\n", "")
    assert (tmp_path / "run.sh").read_bytes() == BOM + fixed.replace("\n", "\r\n").encode()


# --- the cache under concurrent runs ------------------------------------------------------------


@pytest.fixture
def busy_project(tmp_path, monkeypatch):
    """Enough files that two runs overlap for a while; a private cache key."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    root.mkdir()
    files = {f"jobs/run{i}.sh": f"python t.py 2>&1 > a{i}.log\nbash jobs/step{i}.sh | tee s{i}.log\n" for i in range(150)}
    files.update({f"jobs/step{i}.sh": f"exec > step{i}.log\npython -m pkg.step{i}\n" for i in range(150)})
    write_project(root, files)
    assert parsing.processes_for([(name, "shell", text) for name, text in files.items()], 2) == 2  # a worker writes too
    return root


def test_two_runs_at_once_share_the_cache_and_agree(busy_project):
    command = [LAUNCHLINT, "--format", "json", "--jobs", "2", "."]
    runs = [subprocess.Popen(command, cwd=busy_project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]  # fmt: skip
    outputs = [(p.communicate(timeout=120), p.returncode) for p in runs]
    (first_out, first_err), first_status = outputs[0]
    assert first_status == 1 and first_err == "", first_err
    assert outputs[1] == outputs[0]
    assert len(json.loads(first_out)) >= 300

    entries = [p for p in (busy_project / DIRECTORY).rglob("*") if p.is_file() and p.name != ".gitignore"]
    assert [p.name for p in entries if p.name.endswith(".tmp")] == []  # no half-written entry left
    cache = Cache(str(busy_project))
    project = run([str(busy_project)], Options()).project
    assert all(cache.get(path, f.kind, f.text) is not None for path, f in project.files.items())
    warm = launchlint("--format", "json", "--jobs", "2", ".", cwd=busy_project)
    assert (warm.stdout, warm.returncode) == (first_out, 1)


def test_a_truncated_cache_entry_is_a_miss(busy_project):
    cold = launchlint("--format", "json", ".", cwd=busy_project)
    for entry in (busy_project / DIRECTORY).rglob("*"):
        if entry.is_file() and entry.name != ".gitignore":
            entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 2])
    again = launchlint("--format", "json", ".", cwd=busy_project)
    assert (again.stdout, again.returncode, again.stderr) == (cold.stdout, cold.returncode, "")


@pytest.mark.parametrize("linked", [f"{DIRECTORY}/runs", f"{DIRECTORY}/records", DIRECTORY])
def test_a_cache_directory_that_is_a_link_is_never_written_or_pruned(tmp_path, linked):
    """A repository can ship `.launchlint_cache/runs -> ../..`: pruning old entries there would
    delete the user's files. A linked cache directory turns the cache off for the run."""
    project, victim = tmp_path / "project", tmp_path / "victim"
    project.mkdir()
    write_project(project, {"run.sh": "python t.py 2>&1 > a.log\n"})
    precious = [victim / "runs" / f"{n:064x}" for n in range(20)] + [victim / "records" / f"{n:032x}" for n in range(20)]
    precious += [victim / f"notes{n}.txt" for n in range(20)]
    for path in precious:
        path.parent.mkdir(exist_ok=True, parents=True)
        path.write_text("precious\n")
    link = project / linked
    if linked != DIRECTORY:
        link.parent.mkdir()
    link.symlink_to(victim / link.name if linked != DIRECTORY else victim, target_is_directory=True)
    before = sorted(victim.rglob("*"))
    env = {"XDG_CACHE_HOME": str(tmp_path / "home")}
    runs = [launchlint("--format", "json", ".", cwd=project, **env)]
    if linked.endswith(replay.RECORDS):
        time.sleep(replay.RACY_SECONDS + 0.2)  # the next run would record the command (lint/replay.py)
    runs += [launchlint("--format", "json", ".", cwd=project, **env) for _ in range(2)]
    assert {(r.returncode, r.stdout) for r in runs} == {(runs[0].returncode, runs[0].stdout)}
    assert '"LL104"' in runs[0].stdout
    assert sorted(victim.rglob("*")) == before and all(p.read_text() == "precious\n" for p in precious)
