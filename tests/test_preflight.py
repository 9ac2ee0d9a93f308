"""`launchlint run` and `launchlint --command`, through the real command on real local commands."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest
from launchlint.preflight import parse_tmux_session

from tests.conftest import write_project

REPO = Path(__file__).resolve().parent.parent
INCIDENT = REPO / "fixtures" / "incident"
LAUNCHLINT = shutil.which("launchlint") or "launchlint"
ENV = {k: v for k, v in os.environ.items() if k != "TMUX"}  # the tests' tmux is never nested

# start.sh sends its output elsewhere with `exec >`; the marker shows whether it ran.
STARVING = {"start.sh": "#!/bin/bash\nexec > other.log 2>&1\ntouch launched.marker\necho started\n"}
TEE_LINE = "bash start.sh 2>&1 | tee run.log"


def launchlint(*args: str, cwd: Path, env: dict[str, str] = ENV) -> subprocess.CompletedProcess:
    return subprocess.run([LAUNCHLINT, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False)


def said(result: subprocess.CompletedProcess) -> list[str]:
    """launchlint's own verdict lines (after the findings report), without the prefix."""
    prefix = "launchlint: "
    return [line[len(prefix) :] for line in result.stderr.splitlines() if line.startswith(prefix)]


# --- --command --------------------------------------------------------------------------------


def test_command_findings_point_into_the_string():
    line = 'tmux new-session -d -s dflash "bash start_training.sh 2>&1 | tee /workspace/train_stdout_flex5.log"'
    result = launchlint("--format", "json", "--command", line, cwd=INCIDENT)
    assert result.returncode == 1, result.stderr
    by_code = {f["code"]: f for f in json.loads(result.stdout)}
    assert set(by_code) == {"LL101", "LL102"}  # the trainer's LL202 does not touch the command
    drift = by_code["LL101"]
    assert (drift["path"], drift["line"], drift["column"]) == ("<command>", 1, line.index("/workspace") + 1)
    starve = by_code["LL102"]
    assert (starve["path"], starve["line"]) == ("start_training.sh", 5)
    assert ("<command>", 1, line.index("tee ") + 1) in [(r["path"], r["line"], r["column"]) for r in starve["related"]]


def test_command_text_report_shows_the_string_with_a_caret(tmp_path):
    write_project(tmp_path, STARVING)
    line = f"sh -c '{TEE_LINE}'"
    result = launchlint("--select", "LL105", "--command", line, cwd=tmp_path)
    assert result.stdout.splitlines()[:3] == [
        (
            "<command>:1:8: LL105 [warning] without pipefail this pipeline exits with `tee`'s status, "
            "so a failed `start.sh` looks like success: use `set -o pipefail;` at the start of the command string"
        ),
        f" 1 | {line}",
        "   | " + " " * 7 + "^" * len(TEE_LINE),
    ]


def test_command_sees_through_tmux_server_options():
    line = 'tmux -L work -f /dev/null new -ds dflash "bash start_training.sh 2>&1 | tee /workspace/train_stdout_flex5.log"'
    result = launchlint("--format", "json", "--command", line, cwd=INCIDENT)
    assert {f["code"] for f in json.loads(result.stdout)} == {"LL101", "LL102"}


def test_command_paths_choose_the_project(tmp_path):
    (tmp_path / "proj").mkdir()
    write_project(tmp_path / "proj", STARVING)
    line = "bash start.sh | tee run.log"
    result = launchlint("--select", "LL102", "--command", line, "proj", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("proj/start.sh:2:1: LL102 [error] ")
    assert f"  = note: proj/<command>:1:{line.index('tee') + 1}: " in result.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["-"], "--command lints its string; it cannot also read `-` (standard input)"),
        (["--fix"], "--fix and --diff need files, not --command"),
    ],
)
def test_command_usage_errors(tmp_path, args, message):
    write_project(tmp_path, {})
    result = launchlint("--command", "true", *args, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, f"launchlint: error: {message}\n")


def test_clean_command_exits_0(tmp_path):
    write_project(tmp_path, {"start.sh": "#!/bin/bash\necho started\n"})
    result = launchlint("--command", "bash start.sh > run.log 2>&1", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "0 findings (0 errors, 0 warnings) in 3 files\n")


def test_the_command_line_offers_no_fix_a_project_file_does(tmp_path):
    """A finding in the typed line showed `[*]`, "fixable with --fix", and a json `fix`, but the
    line is no file: `--fix` refuses `--command` and `run` has no `--fix`. One in a project file
    it runs keeps its fix: `launchlint --fix` applies it there."""
    write_project(tmp_path, {"start.sh": "#!/bin/bash\npython t.py\n"})
    line = "python t.py 2>&1 > a.log; bash start.sh | tee run.log"
    result = launchlint("--command", line, "--format", "json", "--select", "LL104,LL106", cwd=tmp_path)
    found = [(f["code"], f["path"], f["fix"] is not None) for f in json.loads(result.stdout)]
    assert found == [("LL106", "<command>", False), ("LL104", "<command>", False), ("LL106", "start.sh", True)]
    text = launchlint("--command", line, "--select", "LL104,LL106", cwd=tmp_path).stdout
    assert "<command>:1:13: LL104 [warning] `2>&1`" in text and "start.sh:2:1: LL106 [warning] [*] " in text
    assert "\n1 fixable with --fix ([*])\n" in text
    ran = launchlint("run", "--", "sh", "-c", "python t.py 2>&1 > a.log", cwd=tmp_path)
    assert ran.returncode == 1 and "LL104 [warning] `2>&1`" in ran.stderr and "[*]" not in ran.stderr


# --- run: the gate and the exec ---------------------------------------------------------------


def test_run_refuses_and_launches_nothing(tmp_path):
    write_project(tmp_path, STARVING)
    result = launchlint("run", "--", "sh", "-c", TEE_LINE, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""  # stdout is the command's
    assert "start.sh:2:1: LL102 [error] `exec` sends this script's stdout to `other.log`" in result.stderr
    assert f"  = note: <command>:1:{len('sh -c ') + TEE_LINE.index('tee') + 2}: " in result.stderr
    assert said(result) == ["not launched: 2 findings at or above --fail-on warning (--force launches anyway)"]
    assert not (tmp_path / "launched.marker").exists()
    assert not (tmp_path / "run.log").exists()


def test_fail_on_error_lets_a_warning_through(tmp_path):
    write_project(tmp_path, {"start.sh": "#!/bin/bash\ntouch launched.marker\n"})
    result = launchlint("run", "--fail-on", "error", "--", "sh", "-c", TEE_LINE, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "LL105 [warning]" in result.stderr
    assert (tmp_path / "launched.marker").exists()


def test_run_takes_fail_on_from_the_project_config(tmp_path):
    write_project(tmp_path, {"start.sh": "#!/bin/bash\ntouch launched.marker\n"})
    (tmp_path / ".launchlint.yaml").write_text("fail-on: error\n")
    result = launchlint("run", "--", "sh", "-c", TEE_LINE, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "launched.marker").exists()


def test_force_launches_anyway(tmp_path):
    write_project(tmp_path, STARVING)
    result = launchlint("run", "--force", "--", "sh", "-c", TEE_LINE, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert said(result) == ["launching despite 2 findings (--force)"]
    assert (tmp_path / "launched.marker").exists()
    assert (tmp_path / "other.log").read_text() == "started\n"


def test_exec_passes_the_exit_status_through(tmp_path):
    write_project(tmp_path, {})
    assert launchlint("run", "--", "sh", "-c", "exit 7", cwd=tmp_path).returncode == 7


def test_exec_keeps_the_pid(tmp_path):
    """The command's `$$` is the pid of the launchlint we started, and its parent is us: exec,
    not a child."""
    write_project(tmp_path, {})
    process = subprocess.Popen(
        [LAUNCHLINT, "run", "--", "sh", "-c", 'echo "$$ $PPID"'],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert out.split() == [str(process.pid), str(os.getpid())]


def test_signals_pass_through(tmp_path):
    write_project(tmp_path, {})
    killed = launchlint("run", "--", "sh", "-c", "kill -TERM $$", cwd=tmp_path)
    assert killed.returncode == -signal.SIGTERM
    # Python ignores SIGPIPE and SIGXFSZ; the command must not inherit that (`yes | head`).
    status = launchlint("run", "--", "grep", "SigIgn", "/proc/self/status", cwd=tmp_path)
    ignored = int(status.stdout.split()[1], 16)
    assert not ignored & (1 << (signal.SIGPIPE - 1) | 1 << (signal.SIGXFSZ - 1))


def test_a_shell_line_in_one_word_is_a_usage_error(tmp_path):
    write_project(tmp_path, {})
    result = launchlint("run", "--", "touch launched.marker", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "launchlint: error: COMMAND is the single word 'touch launched.marker'; to run it as a shell "
        "line, write `launchlint run -- bash -c 'touch launched.marker'`\n"
    )
    assert not (tmp_path / "launched.marker").exists()


def test_a_missing_program_exits_127(tmp_path):
    write_project(tmp_path, {})
    result = launchlint("run", "--", "no-such-program-x", cwd=tmp_path)
    assert result.returncode == 127
    assert said(result) == ["cannot run 'no-such-program-x': No such file or directory"]


# --- run --expect-log -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "script,argv",
    [
        ("exec > run.log 2>&1\necho started\n", ["bash", "start.sh"]),  # the script's `exec >`
        ("echo started\n", ["bash", "-c", "set -o pipefail; " + TEE_LINE]),  # the tee
        ("python3 -u -c 'print(1)' > run.log 2>&1\n", ["bash", "start.sh"]),  # its trainer's redirect
    ],
)
def test_expect_log_appeared(tmp_path, script, argv):
    write_project(tmp_path, {"start.sh": "#!/bin/bash\n" + script})
    result = launchlint("run", "--expect-log", "60", "--", *argv, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    size = (tmp_path / "run.log").stat().st_size
    assert said(result) == ["watching run.log for up to 60 s", f"log run.log appeared and is growing ({size} bytes)"]


def test_expect_log_an_earlier_runs_log_does_not_count(tmp_path):
    write_project(tmp_path, {"start.sh": "#!/bin/bash\nexit 0\nexec > run.log 2>&1\n"})
    (tmp_path / "run.log").write_text("the last run\n")
    result = launchlint("run", "--expect-log", "0.5", "--", "bash", "start.sh", cwd=tmp_path)
    assert result.returncode == 1
    assert "log run.log has not changed in the 0.5 s since the launch (it is an earlier run's)" in said(result)


def test_expect_log_the_incident_locally(tmp_path):
    """The caller's tee log is created and stays empty; the script's `exec >` log grows."""
    write_project(tmp_path, STARVING)
    result = launchlint("run", "--force", "--expect-log", "5", "--", "sh", "-c", TEE_LINE, cwd=tmp_path)
    assert result.returncode == 1
    assert said(result) == [
        "launching despite 2 findings (--force)",
        "watching run.log, other.log for up to 5 s",
        "log other.log appeared and is growing (8 bytes)",
        "log run.log was created but is still empty after 5 s",
        (
            "  likely cause: start.sh:2:1: LL102 `exec` sends this script's stdout to `other.log`, so the "
            "caller's pipe/log gets nothing; drop the `exec`, or keep both with `exec > >(tee -a other.log) 2>&1`"
        ),
    ]


def test_expect_log_tmux_session_that_dies_at_once(tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    # A private server: its own -L name, its socket in a directory of ours (short: sockets have
    # a path limit), so nothing is shared with a user's tmux and nothing is left in /tmp.
    socket_dir = tempfile.mkdtemp(prefix="ll-tmux-")
    env = {**ENV, "TMUX_TMPDIR": socket_dir}
    socket = f"launchlint-test-{uuid.uuid4().hex[:12]}"
    # The script fails before its `exec >`, so its log never appears and the session ends.
    write_project(tmp_path, {"start.sh": "#!/bin/bash\nno-such-command-x || exit 1\nexec > run.log 2>&1\necho started\n"})
    argv = ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "job", "bash start.sh"]
    try:
        result = launchlint("run", "--expect-log", "5", "--", *argv, cwd=tmp_path, env=env)
        assert result.returncode == 1, result.stderr
        assert said(result) == [
            "watching run.log for up to 5 s",
            "no log at run.log after 5 s; tmux session 'job' is gone",
        ]
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], env=env, capture_output=True, timeout=30, check=False)
        alive = subprocess.run(["tmux", "-L", socket, "list-sessions"], env=env, capture_output=True, timeout=30, check=False)
        shutil.rmtree(socket_dir)
    assert alive.returncode != 0  # no server left behind


def test_expect_log_with_nothing_to_watch_launches_nothing(tmp_path):
    """A usage error is its one line (cli.md), with no report before it: the reasons are in it."""
    write_project(tmp_path, {})
    remote = ["ssh", "-o", "BatchMode=yes", "gpu1", "python3 -u /opt/train.py > /tmp/x.log"]
    error = "launchlint: error: --expect-log: the command writes no log that launchlint can watch here"
    for argv, why in (
        (["sh", "-c", "touch launched.marker"], ""),
        (remote, " (not watching /tmp/x.log: it is written on another host or in a container)"),
        (["sh", "-c", 'touch launched.marker > "$LOG"'], " (not watching $LOG: its path is only known when the command runs)"),
    ):
        result = launchlint("run", "--expect-log", "5", "--", *argv, cwd=tmp_path)
        assert (result.returncode, result.stderr) == (2, error + why + "\n")
    assert not (tmp_path / "launched.marker").exists()


@pytest.mark.parametrize(
    "words,session",
    [
        (["new-session", "-d", "-s", "x", "cmd"], ("x", ())),
        (["-L", "sock", "-f", "/dev/null", "new", "-ds", "x", "cmd"], ("x", ("-L", "sock"))),
        (["-S", "/tmp/s", "new-session", "-n", "w", "-s", "x"], ("x", ("-S", "/tmp/s"))),
        (["new-session", "-d", "cmd"], None),  # unnamed: nothing to ask tmux about
        (["send-keys", "-t", "x", "cmd"], None),
    ],
)
def test_tmux_session_and_server_from_the_words(words, session):
    found = parse_tmux_session(words)
    assert (found and (found.name, found.server)) == session
