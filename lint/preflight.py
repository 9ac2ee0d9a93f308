"""Preflight: lint a launch command against the project before it runs, then run it.

`launchlint --command 'STRING'` lints a command line and launches nothing. `launchlint run --
COMMAND ARGS...` lints the command it is given, then refuses it or replaces itself with it
(`os.execvp`: same PID, so signals and the exit status are the command's). With `--expect-log
SECONDS` it starts the command as a child instead and watches the logs the analysis says the job
writes, for detached launches (tmux, nohup, ...) whose own exit says nothing.

The command is linted as a one-line launcher named `<command>` in the current directory (where it
will run, so `bash start.sh` is ./start.sh), through the engine's stdin path: the whole project is
context, and only findings that touch the command are reported. The report goes to stderr: stdout
is the command's, and may be a pipe into its log.
"""

from __future__ import annotations

import argparse
import inspect
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from .cli import EXIT_CLEAN, EXIT_FINDINGS, Parser, UsageError, build_options, load_config_for, say
from .discover import find_root
from .front.wrappers import TMUX_GLOBAL_VALUED, session_named
from .logs import exec_sinks, files_written, redirected_long_runners
from .model import Finding, Record
from .shellfacts import Command, Word

TYPE_CHECKING = False  # as typing's, which costs 3 ms to import
if TYPE_CHECKING:
    from .config import Config
    from .engine import Result
    from .project import Project

VIRTUAL_NAME = "<command>"
POLL_SECONDS = 0.1
EXIT_CANNOT_RUN, EXIT_NOT_FOUND = 126, 127  # what a shell returns for the same failures
# Findings that explain a missing or empty log: the rules about where output goes, and a
# command that does not parse. (LL105 is about the exit status, LL2xx about the trainer.)
LOG_CAUSES = {"LL001", "LL101", "LL102", "LL103", "LL104", "LL106", "LL107", "LL108", "LL109"}
# `build_options` reads the main command's option values; `run` has none of them: the config decides.
NO_CLI_OPTIONS = {
    "select": None, "extend_select": None, "ignore": None, "per_file_ignores": (), "exclude": (),
    "jobs": None, "no_cache": False, "debug": False, "force_exclude": False,
}


def command_input(line: str, paths: list[str]) -> tuple[list[str], tuple[str, str]]:
    """The engine's (paths, stdin) that lint `line` as a launcher of the project of `paths[0]`.

    The launcher sits in the current directory when that is in the same project, so relative
    script paths resolve as they will when the command runs; else at the project root.
    """
    if "-" in paths:
        raise UsageError("--command lints its string; it cannot also read `-` (standard input)")
    root = find_root(paths[0])
    cwd = os.path.realpath(os.getcwd())
    home = cwd if find_root(cwd) == root else root
    return ["-"], (os.path.join(home, VIRTUAL_NAME), line.encode("utf-8", "surrogateescape"))


class Linted:
    def __init__(self, result: Result, config: Config, launcher: str) -> None:
        self.result = result
        self.config = config
        self.launcher = launcher  # the command's project path, `<command>` or `sub/<command>`


def unfixable_line(result: Result) -> None:
    """The command line is no file: nothing can apply a fix to it (`--fix` refuses `--command`), so
    a finding there offers none, neither `[*]` nor the json's `fix`."""
    result.findings = [
        f._replace(fix=None) if f.fix and any(os.path.basename(e.path) == VIRTUAL_NAME for e in f.fix.edits) else f
        for f in result.findings
    ]


def lint_line(line: str) -> Linted:
    """Lint a command line run from here, with the configuration found from here."""
    from .engine import run

    config = load_config_for(None, False)
    paths, stdin = command_input(line, ["."])
    result = run(paths, build_options(NO_CLI_OPTIONS, config, stdin))
    unfixable_line(result)
    return Linted(result, config, Path(stdin[0]).relative_to(result.root).as_posix())


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds above 0")
    return seconds


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="launchlint run",
        usage="launchlint run [-h] [--fail-on {error,warning}] [--force] [--expect-log SECONDS] -- COMMAND [ARGS]...",
        description=inspect.cleandoc(run_command.__doc__ or ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    add = parser.add_argument
    add("--fail-on", choices=["error", "warning"], help="Lowest severity that refuses the launch (default: the config's, else warning).")
    add("--force", action="store_true", help="Launch even when findings are at or above --fail-on.")
    add("--expect-log", type=_seconds, metavar="SECONDS", help="Start COMMAND as a child and wait up to SECONDS for the logs it should write.")
    # Options come before COMMAND: from its first word (or after `--`) every word is COMMAND's.
    add("argv", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def run_command(args: list[str]) -> int:
    """Lint COMMAND against the project here, then run it in launchlint's place.

    Findings go to stderr. Exit 1 without launching when a finding is at or above --fail-on;
    otherwise COMMAND replaces launchlint (same PID, its exit status), or with --expect-log, 0
    only when every expected log appeared.
    """
    options = _parser().parse_args(args)
    argv = options.argv[1:] if options.argv[:1] == ["--"] else options.argv
    if not argv:
        raise UsageError("launchlint run needs a COMMAND: launchlint run [OPTIONS] -- COMMAND [ARGS]...")
    fail_on, force, expect_log = options.fail_on, options.force, options.expect_log
    _check_single_word(argv)
    linted = lint_line(shlex.join(argv))
    # A usage error is the one line, before any report: a command with no log to watch here
    watched = None if expect_log is None else watched_logs(linted.result.project, linted.launcher)
    _report(linted.result)
    fail_on = fail_on or linted.config.fail_on
    threshold = 2 if fail_on == "error" else 1
    blocking = [f for f in linted.result.findings if f.severity.rank >= threshold]
    if blocking and not force:
        say(f"not launched: {_count(blocking)} at or above --fail-on {fail_on} (--force launches anyway)")
        return EXIT_FINDINGS
    if blocking:
        say(f"launching despite {_count(blocking)} (--force)")
    if watched is None:
        return _exec(argv)
    return watch_launch(argv, linted, expect_log, *watched)


def _check_single_word(argv: list[str]) -> None:
    """`launchlint run -- 'python t.py | tee x.log'` is one word, not a shell line: say so."""
    if len(argv) == 1 and any(c.isspace() for c in argv[0]) and shutil.which(argv[0]) is None:
        raise UsageError(
            f"COMMAND is the single word {argv[0]!r}; to run it as a shell line, write "
            f"`launchlint run -- bash -c {shlex.quote(argv[0])}`"
        )


def _report(result: Result) -> None:
    from .report import Paths, to_text

    for warning in result.warnings:
        say(f"warning: {warning}")
    color = sys.stderr.isatty() and not os.environ.get("NO_COLOR")
    text = to_text(result.findings, Paths(result.root), result.indexes, result.files, color=color)
    sys.stderr.write(text)


def _count(findings: list[Finding]) -> str:
    from .report import counted

    return counted(len(findings), "finding")


def _exec(argv: list[str]) -> int:
    """Become the command. Returns only when it cannot be run."""
    sys.stdout.flush()
    sys.stderr.flush()
    # Python ignores SIGPIPE and SIGXFSZ, and ignored signals survive exec: `yes | head` would
    # never stop. Give the command the dispositions a shell would.
    for name in ("SIGPIPE", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        os.execvp(argv[0], argv)
    except OSError as error:
        return _cannot_run(argv, error)


def _cannot_run(argv: list[str], error: OSError) -> int:
    say(f"cannot run {argv[0]!r}: {error.strerror or error}")
    return EXIT_NOT_FOUND if isinstance(error, FileNotFoundError) else EXIT_CANNOT_RUN


# --- --expect-log ---------------------------------------------------------------------------


class Log(Record):
    """A file the job should write, and how it looked before the launch."""

    shown: str  # as written in the command or script
    path: Path  # resolved against the current directory
    before: os.stat_result | None

    def now(self) -> os.stat_result | None:
        return _stat(self.path)

    def written(self, now: os.stat_result | None) -> bool:
        """Something was written to it since the launch (a new file, or a changed one)."""
        if now is None or now.st_size == 0:
            return False
        before = self.before
        return before is None or _identity(now) != _identity(before)

    def verdict(self, now: os.stat_result | None, seconds: float) -> str:
        if self.written(now):
            return f"log {self.shown} appeared and is growing ({now.st_size} bytes)"
        if now is None:
            return f"no log at {self.shown} after {seconds:g} s"
        if now.st_size == 0:
            return f"log {self.shown} was created but is still empty after {seconds:g} s"
        return f"log {self.shown} has not changed in the {seconds:g} s since the launch (it is an earlier run's)"


def _identity(info: os.stat_result) -> tuple[int, int, int]:
    """What changes when a file is written or replaced."""
    return info.st_ino, info.st_size, info.st_mtime_ns


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def log_words(project: Project, launcher: str) -> list[tuple[Word, Command]]:
    """The files the command's job writes its output to, each with the command that writes it:
    the command line's own redirects and tee targets, and the `exec >` targets and redirected
    trainers of the scripts it starts."""
    found = []
    for command in project.shell[launcher].effective_commands():
        for sink in (command.stdout, command.stderr):
            found += [(word, command) for word in files_written(sink)]
    for invocation in project.graph.invocations:
        started = project.shell.get(invocation.callee or "")
        if invocation.caller == launcher and started is not None:
            found += [(s.path, invocation.command) for s in exec_sinks(started) + redirected_long_runners(started)]
    return found


def watched_logs(project: Project, launcher: str) -> tuple[list[Log], list[str]]:
    """The logs this machine can watch, and why any other is left out. None is a usage error,
    whose one line gives those reasons."""
    logs: dict[Path, Log] = {}
    skipped: dict[str, str] = {}
    for word, command in log_words(project, launcher):
        if command.remote:
            skipped[word.text] = "it is written on another host or in a container"
        elif not word.value:
            skipped[word.text] = "its path is only known when the command runs"
        elif not word.value.startswith("/dev/"):  # `tee /dev/stderr` is a stream, not a log
            path = Path.cwd() / word.value  # an absolute value replaces the cwd
            logs.setdefault(path, Log(word.value, path, _stat(path)))
    reasons = [f"not watching {text}: {why}" for text, why in skipped.items()]
    if not logs:
        because = f" ({'; '.join(reasons)})" if reasons else ""
        raise UsageError(f"--expect-log: the command writes no log that launchlint can watch here{because}")
    return list(logs.values()), reasons


class TmuxSession(Record):
    name: str
    server: tuple[str, ...]  # `-L NAME` / `-S PATH` as the command gives them

    def state(self) -> str | None:
        """'... is gone' or '... is still running', or None when tmux cannot say."""
        try:
            done = subprocess.run(
                ["tmux", *self.server, "has-session", "-t", "=" + self.name],  # '=': exact name
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                timeout=10, check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0:
            return f"tmux session '{self.name}' is gone"
        attach = shlex.join(["tmux", *self.server, "attach", "-t", self.name])
        return f"tmux session '{self.name}' is still running (look with `{attach}`)"


def tmux_sessions(project: Project, launcher: str) -> list[TmuxSession]:
    """The named sessions the command line creates on this machine."""
    sessions = []
    for command in project.shell[launcher].commands:
        if command.name == "tmux" and not command.remote:
            session = parse_tmux_session([w.value for w in command.args])
            if session is not None:
                sessions.append(session)
    return sessions


def parse_tmux_session(values: list[str | None]) -> TmuxSession | None:
    """`tmux [-L NAME|-S PATH ...] new-session [... -s NAME ...]`."""
    server: list[str] = []
    i = 0
    while i < len(values) and (values[i] or "").startswith("-"):
        if values[i] in ("-L", "-S") and i + 1 < len(values) and values[i + 1]:
            server += values[i : i + 2]
        i += 2 if values[i] in TMUX_GLOBAL_VALUED else 1
    if values[i : i + 1] not in (["new-session"], ["new"]):
        return None
    name = session_named(values[i + 1 :])
    return TmuxSession(name, tuple(server)) if name else None


def watch_launch(argv: list[str], linted: Linted, seconds: float, logs: list[Log], unwatched: list[str]) -> int:
    """Start the command as a child, then wait up to `seconds` for every expected log."""
    for reason in unwatched:
        say(reason)
    try:
        child = subprocess.Popen(argv)
    except OSError as error:
        return _cannot_run(argv, error)
    say(f"watching {', '.join(log.shown for log in logs)} for up to {seconds:g} s")
    deadline = time.monotonic() + seconds
    states = [log.now() for log in logs]
    while not all(map(Log.written, logs, states)) and time.monotonic() < deadline:
        time.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))
        states = [log.now() for log in logs]
    missing = [(log, now) for log, now in zip(logs, states) if not log.written(now)]
    for log, now in zip(logs, states):
        if log.written(now):
            say(log.verdict(now, seconds))
    if missing:
        _explain(missing, seconds, child, linted)
    return EXIT_FINDINGS if missing else EXIT_CLEAN


def _explain(missing: list[tuple[Log, os.stat_result | None]], seconds: float, child: subprocess.Popen, linted: Linted) -> None:
    """Each missing log, with what became of the job and the findings that would explain it."""
    from .report import Paths

    sessions = tmux_sessions(linted.result.project, linted.launcher)
    fates = [fate for fate in (session.state() for session in sessions) if fate]
    for log, now in missing:
        say("; ".join([log.verdict(now, seconds), *fates]))
    status = child.poll()
    if status is None:
        say(f"the command is still running (pid {child.pid})")
    elif status != 0:
        say(f"the command exited with status {status}")
    shown = Paths(linted.result.root).show
    for f in (f for f in linted.result.findings if f.code in LOG_CAUSES):
        where = f"{shown(f.location.path)}:{f.location.line}:{f.location.column}"
        say(f"  likely cause: {where}: {f.code} {f.message}")
