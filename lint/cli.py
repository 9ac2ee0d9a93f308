"""The `launchlint` command. Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error."""

from __future__ import annotations

import argparse
import os
import sys

from . import __version__, replay
from .errors import UsageError
from .paths import normal
from .replay import saw

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FORMATS = ["text", "json", "sarif", "github"]


def _known_codes() -> list[str]:
    from .rules import codes

    return codes()


def _codes(value: str | None, option: str) -> list[str]:
    codes = [c.strip().upper() for c in (value or "").split(",") if c.strip()]
    known = _known_codes()
    for code in codes:
        if code != "ALL" and not any(k.startswith(code) for k in known):
            raise UsageError(f"unknown rule code {code!r} in {option}")
    return codes


def _per_file_ignores(values: tuple[str, ...]) -> dict[str, list[str]]:
    table = {}
    for value in values:
        for pair in _pairs(value):
            glob, sep, codes = pair.rpartition(":")
            if not sep or not glob or not codes.strip(" ,"):
                raise UsageError(f"--per-file-ignores expects GLOB:CODES, not {pair!r}")
            table[glob] = _codes(codes, "--per-file-ignores")
    return table


def _pairs(value: str) -> list[str]:
    """`a/*.sh:LL105,LL106,b/*.sh:LL105` is two GLOB:CODES pairs, as in ruff: an item with a `:`
    starts the next. A glob with braces (`*.{sh,bash}:LL105`) is one pair."""
    if "{" in value:
        return [value]
    pairs: list[str] = []
    for item in value.split(","):
        if ":" in item or not pairs:
            pairs.append(item)
        else:
            pairs[-1] += "," + item
    return pairs


def _color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def load_config_for(config_file: str | None, no_config: bool):
    from .config import Config, find_config, load_config

    if no_config:
        return Config()
    path = normal(config_file) if config_file else find_config(os.getcwd())
    if path is None:
        return Config()
    saw(path)
    if not os.path.isfile(path):
        raise UsageError(f"config file {config_file} {'is a directory' if os.path.isdir(path) else 'not found'}")
    return load_config(path, _known_codes())


def build_options(cli: dict, config, stdin):
    """Command-line values override the configuration file's, key by key."""
    from .engine import Options
    from .parsing import budget_error, default_jobs
    from .project import Settings

    problem = budget_error()
    if problem:  # before anything is read: a budget that was meant is not silently 20 s
        raise UsageError(problem)

    # a repeated option adds up, as in ruff: `--ignore LL102 --ignore LL202` is `--ignore LL102,LL202`
    chosen = {key: ",".join(cli[key] or ()) for key in ("select", "extend_select", "ignore")}
    select = _codes(chosen["select"], "--select") if chosen["select"] else config.select
    extend = (_codes(chosen["extend_select"], "--extend-select") if chosen["extend_select"] else []) + config.extend_select
    if extend:
        select = (select or ["ALL"]) + extend
    ignore = _codes(chosen["ignore"], "--ignore") if chosen["ignore"] else config.ignore
    per_file = _per_file_ignores(cli["per_file_ignores"]) or config.per_file_ignores
    excludes = [e for value in cli["exclude"] for e in value.split(",") if e] or config.exclude
    base = os.getcwd() if cli["per_file_ignores"] or cli["exclude"] else config.directory
    path_map = tuple(
        (prefix, os.path.relpath(os.path.join(config.directory, directory), config.directory))
        for prefix, directory in config.path_map.items()
    )
    return Options(
        select=frozenset(select) if select else None,
        ignore=frozenset(ignore),
        per_file_ignores={glob: frozenset(codes) for glob, codes in per_file.items()},
        exclude=tuple(excludes),
        severity=dict(config.severity),
        base=base,
        settings=Settings(lock_names=tuple(config.lock_names), path_map=path_map),
        stdin=stdin,
        jobs=cli["jobs"] or default_jobs(),
        cache=not cli["no_cache"],
        debug=cli["debug"],
        force_exclude=cli["force_exclude"],
    )


RUN_OPTIONS = ("--force", "--expect-log")  # `launchlint run`'s own, which the main command has not
PREFLIGHT = (
    "Preflight: `launchlint run [--fail-on {error,warning}] [--force] [--expect-log SECONDS] -- COMMAND"
    " [ARGS]...` lints COMMAND against the project here, then runs it or refuses; see `launchlint run --help`."
)


class Parser(argparse.ArgumentParser):
    """argparse with launchlint's usage errors: one line, exit 2 (raised, not printed here)."""

    def error(self, message: str):
        words = message.split()
        if words[:2] == ["unrecognized", "arguments:"]:
            unknown = [w.split("=")[0] for w in words[2:] if w.startswith("-") and w != "-"]
            run_only = [w for w in unknown if w in RUN_OPTIONS] if self.prog == "launchlint" else []
            if run_only:  # `launchlint --force .`: the user is looking for the preflight
                message += f" ({run_only[0]} is an option of `launchlint run`: see `launchlint run --help`)"
            else:
                message += self._did_you_mean(unknown)
        raise UsageError(message)

    def _did_you_mean(self, unknown: list[str]) -> str:
        """` (did you mean `--select`?)` for a mistyped option (`--selct`), from the parser's own
        long options, as ruff's "a similar argument exists"; several: each with its own."""
        import difflib

        names = [option[2:] for option in self._option_string_actions if option.startswith("--")]
        # Without the dashes, which every option shares: `--bogus` is not close to `--jobs`.
        close = [(word, difflib.get_close_matches(word.lstrip("-"), names, n=1)) for word in unknown]
        close = [(word, f"--{match[0]}") for word, match in close if match]
        if not close:
            return ""
        if len(close) == 1:
            return f" (did you mean `{close[0][1]}`?)"
        return " (did you mean " + ", ".join(f"`{match}` for {word}" for word, match in close) + "?)"


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, with the terminal's width found as `shutil.get_terminal_size`
    finds it, but without importing shutil: argparse makes a formatter at every `add_argument`
    (to check its metavar), and shutil's import, with bz2 and lzma, was 1.4 ms of every run."""

    def __init__(self, prog: str) -> None:
        try:
            columns = int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            columns = 0
        if columns <= 0:
            try:
                columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                columns = 0
        super().__init__(prog, width=(columns or 80) - 2)  # argparse's own margin


def _jobs(value: str) -> int:
    from .model import whole  # a run imports it anyway; `--version` must not

    jobs = whole(value)
    if jobs is None or jobs < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of at least 1")
    return jobs


def _parser() -> Parser:
    parser = Parser(
        prog="launchlint",
        formatter_class=_Formatter,
        description="Lint ML training launch scripts, configs and trainers.",
        epilog=PREFLIGHT,
        allow_abbrev=False,  # `--sel` is not `--select`: an abbreviation would break when an option is added
    )
    add = parser.add_argument
    add("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    add("--select", action="append", help="Rule codes or prefixes to report (comma-separated, repeatable); default: all.")
    add("--ignore", action="append", help="Rule codes or prefixes not to report (comma-separated, repeatable).")
    add("--extend-select", action="append", help="Codes to report in addition to --select (repeatable).")
    add("--per-file-ignores", action="append", default=[], metavar="GLOB:CODES", help="Ignore CODES in files matching GLOB.")
    add("--exclude", action="append", default=[], metavar="GLOBS", help="Gitignore-style globs of files not to read.")
    add("--force-exclude", action="store_true", help="Apply the excludes to files named on the command line too.")
    add("--format", dest="fmt", choices=FORMATS, default="text", help="Report format (default: text).")
    add("--output", metavar="FILE", help="Write the report to FILE.")
    add("--fail-on", choices=["error", "warning"], help="Lowest severity that fails (default: warning).")
    add("--fix", action="store_true", help="Apply the safe fixes in place, then report what is left.")
    add("--diff", action="store_true", help="Print the safe fixes as a unified diff; change nothing.")
    add("--exit-zero", action="store_true", help="Exit 0 even when there are findings.")
    add("--config", dest="config_file", metavar="FILE", help="Use this configuration file.")
    add("--no-config", action="store_true", help="Ignore configuration files.")
    add("--stdin-filename", metavar="NAME", help="The file name of the text read from standard input (`-`; with no PATH, as `-`).")
    add("--write-baseline", metavar="FILE", help="Record today's findings in FILE and exit 0.")
    add("--baseline", metavar="FILE", help="Report only findings that are not in FILE.")
    add("--jobs", type=_jobs, metavar="N", help="Processes for parsing and the rules (default: CPUs; 1: this one only).")
    add("--no-cache", action="store_true", help="Neither read nor write .launchlint_cache/.")
    add("-q", "--quiet", action="store_true", help="Print findings only, no summary line.")  # ruff's -q too
    add("--statistics", action="store_true", help="Print the number of findings per rule.")
    add("--color", choices=["auto", "always", "never"], default="auto", help="Color the text report (default: auto).")
    add("--explain", metavar="CODE", help="Print a rule's documentation and examples.")
    add("--list-rules", action="store_true", help="List every rule: code, name, severity, summary.")
    add("--debug", action="store_true", help="Add tracebacks to internal errors (LL003).")
    add("--command", dest="command_line", metavar="STRING", help="Lint STRING as a command line typed here; launch nothing.")
    add("--version", action="version", version=f"launchlint, version {__version__}")
    return parser


# The last run's result, kept until the process ends: its project holds every file's facts, and
# freeing them one object at a time when `command` returned took 34 ms of a run on Megatron-LM
# from the cache, 6 ms of a cold one on the 1,000-file benchmark project (`console` ends the
# process without freeing anything). One at a time: a caller that runs `main` again (the tests)
# frees the one before.
_last_result = None


def command(args: list[str]) -> int:
    global _last_result
    cli = vars(_parser().parse_intermixed_args(args))
    if cli["list_rules"]:
        from .rulekit import all_rules

        for rule in all_rules():
            print(f"{rule.code}  {rule.name:<32} {rule.severity.value:<8} {rule.summary}")
        return EXIT_CLEAN
    if cli["explain"]:
        from .rulekit import rule_by_code

        rule = rule_by_code().get(cli["explain"].strip().upper())
        if rule is None:
            raise UsageError(f"unknown rule code {cli['explain']!r} for --explain")
        sys.stdout.write(rule.explain())
        return EXIT_CLEAN

    from .engine import run

    paths = list(cli["paths"]) or ["."]
    stdin = None
    ignored: list[str] = []
    if cli["command_line"] is not None:  # the string is a launcher in the project: see preflight.py
        from .preflight import command_input

        if cli["fix"] or cli["diff"]:
            raise UsageError("--fix and --diff need files, not --command")
        if cli["stdin_filename"]:
            raise UsageError("--command lints its string, not standard input: --stdin-filename has nothing to name")
        paths, stdin = command_input(cli["command_line"], paths)
    elif "-" in paths or cli["stdin_filename"]:
        if not cli["stdin_filename"]:
            raise UsageError("reading `-` (standard input) needs --stdin-filename NAME")
        if "-" not in paths:  # as ruff: --stdin-filename reads standard input, in place of any PATH
            ignored, paths = cli["paths"], ["-"]
        if cli["fix"] or cli["diff"]:
            raise UsageError("--fix and --diff need files, not `-` (standard input)")
        stdin = (cli["stdin_filename"], sys.stdin.buffer.read())
    replayable = not (stdin or cli["no_cache"] or cli["fix"] or cli["diff"] or cli["write_baseline"] or cli["output"])
    replay.recording = replay.Recording() if replayable else None
    if ignored:
        warn(f"ignoring {', '.join(ignored)} in favor of standard input (--stdin-filename); add `-` to lint both")
    config = load_config_for(cli["config_file"], cli["no_config"])
    options = build_options(cli, config, stdin)
    result = _last_result = run(paths, options)
    if cli["command_line"] is not None:
        from .preflight import unfixable_line

        unfixable_line(result)
    for warning in result.warnings:
        warn(warning)
    findings = _baseline(cli, result)
    fail_on = cli["fail_on"] or config.fail_on
    threshold = 2 if fail_on == "error" else 1
    if cli["diff"] or cli["fix"]:
        from .fixes import plan_fixes, unified_diff, write_fixes
        from .report import Paths, counted

        fixes = plan_fixes(findings, result.root, result.indexes, warn=warn)
        if cli["diff"]:
            _emit(unified_diff(fixes, Paths(result.root).show), cli["output"], errors="surrogateescape")
            # as ruff's, 1 when there is a diff; as every run's, only for findings at or above --fail-on
            failed = any(fix.worst >= threshold for fix in fixes)
            return EXIT_FINDINGS if failed and not cli["exit_zero"] else EXIT_CLEAN
        fixes = write_fixes(fixes, warn=warn)
        fixed = sum(x.fixed for x in fixes)
        say(f"fixed {counted(fixed, 'finding')} in {counted(len(fixes), 'file')}")
        if fixes:  # report what is left, at its new positions
            result = _last_result = run(paths, options)
            findings = _baseline(cli, result)
    if cli["write_baseline"]:
        from .report import counted

        say(f"wrote {counted(len(findings), 'finding')} to {cli['write_baseline']}")
        return EXIT_CLEAN
    text = _render(cli, result, findings)
    _emit(text, cli["output"])
    failed = any(f.severity.rank >= threshold for f in findings)
    status = EXIT_FINDINGS if failed and not cli["exit_zero"] else EXIT_CLEAN
    if replayable and result.repeatable:
        replay.record(args, result.root, text, status)
    replay.recording = None  # when there was nothing to record
    return status


def _baseline(cli: dict, result):
    if cli["write_baseline"]:
        from .baseline import Anchor, baseline_text

        named = Anchor(cli["write_baseline"], result.root)
        _emit(baseline_text(result.findings, result.indexes, named), cli["write_baseline"])
        return result.findings
    if cli["baseline"]:
        from .baseline import Anchor, without_baseline

        return without_baseline(cli["baseline"], result.findings, result.indexes, Anchor(cli["baseline"], result.root))
    return result.findings


def _render(cli: dict, result, findings) -> str:
    from .report import Paths, statistics, to_github, to_json, to_text

    shown = Paths(result.root)
    fmt = cli["fmt"]
    if fmt == "json":
        text = to_json(findings, shown, result.indexes)
    elif fmt == "sarif":
        from .sarif import to_sarif

        text = to_sarif(findings, shown.show, result.indexes)
    elif fmt == "github":
        text = to_github(findings, shown)
    else:
        color = _color(cli["color"]) and not cli["output"]
        return to_text(findings, shown, result.indexes, result.files, color=color, quiet=cli["quiet"], counts=cli["statistics"])
    if cli["statistics"]:  # the machine formats' output stays what they parse
        sys.stderr.write(statistics(findings))
    return text


def _emit(text: str, output: str | None, errors: str = "strict") -> None:
    """The report at `output` or on stdout; `errors="surrogateescape"` writes a diff's lone
    surrogates as the bytes they stand for (`fixes.as_bytes`)."""
    if output:
        try:
            replay.write_report(output, text.encode("utf-8", errors))
        except OSError as error:
            raise UsageError(f"cannot write {output}: {error.strerror or error}") from None
    else:
        replay.write_stdout(text, errors)


def say(message: str) -> None:
    """A line for the user on stderr (stdout is the report's)."""
    line = f"launchlint: {message}\n"
    sys.stderr.write(line)
    replay.said(line)


def warn(message: str) -> None:
    say(f"warning: {message}")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    chosen = command
    if args[:1] == ["run"]:  # `launchlint run -- CMD ...`: its own options; CMD's words are not PATHs
        from .preflight import run_command

        chosen, args = run_command, args[1:]
    try:
        status = chosen(args)
    except UsageError as error:  # also the configuration's and the baseline's
        say(f"error: {error}")
        status = EXIT_USAGE
    sys.exit(status)


def console() -> None:
    """The command line when no record answers (`__main__.console`): `main`, then a hard exit.

    A run is one short-lived process whose facts are millions of small objects kept to the end:
    the cyclic collector has nothing to find in them, and freeing them one by one at exit took
    longer than loading them from the cache (0.17 s of a 0.76 s warm run on 1,000 files). So the
    collector is off from the first import and the process ends with `os._exit` once its output
    is flushed, as mypy does. In-process callers (tests, `launchlint.cli.main`) keep the ordinary
    exit.
    """
    import gc

    gc.disable()
    for stream in (sys.stdout, sys.stderr):  # a path or a line no encoding of the terminal holds:
        reconfigure = getattr(stream, "reconfigure", None)  # `\xe9`, not a UnicodeEncodeError
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        main()
        status = EXIT_CLEAN
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (EXIT_CLEAN if stop.code is None else EXIT_USAGE)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
    except BrokenPipeError:  # the reader went away (`| head`): nothing more to write, no traceback
        status = EXIT_FINDINGS  # as Python's own advice has it: the output was cut short
    replay.leave(status)
