"""The `launchlint` command. Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FORMATS = ["text", "json", "sarif", "github"]


class UsageError(Exception):
    """A problem with the command line or the configuration: one line, exit 2."""


def _known_codes() -> list[str]:
    from .rulekit import codes

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
        glob, sep, codes = value.rpartition(":")
        if not sep or not glob:
            raise UsageError(f"--per-file-ignores expects GLOB:CODES, not {value!r}")
        table[glob] = _codes(codes, "--per-file-ignores")
    return table


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
    path = Path(config_file) if config_file else find_config(Path.cwd())
    if path is None:
        return Config()
    if not path.is_file():
        raise UsageError(f"config file {config_file} not found")
    return load_config(path, _known_codes())


def build_options(cli: dict, config, stdin):
    """Command-line values override the configuration file's, key by key."""
    from .engine import Options
    from .parsing import default_jobs
    from .project import Settings

    select = _codes(cli["select"], "--select") if cli["select"] else config.select
    extend = (_codes(cli["extend_select"], "--extend-select") if cli["extend_select"] else []) + config.extend_select
    if extend:
        select = (select or ["ALL"]) + extend
    ignore = _codes(cli["ignore"], "--ignore") if cli["ignore"] else config.ignore
    per_file = _per_file_ignores(cli["per_file_ignores"]) or config.per_file_ignores
    excludes = [e for value in cli["exclude"] for e in value.split(",") if e] or config.exclude
    base = Path.cwd() if cli["per_file_ignores"] or cli["exclude"] else config.directory
    path_map = tuple(
        (prefix, os.path.relpath(config.directory / directory, config.directory))
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
    )


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", help="Rule codes or prefixes to report (comma-separated); default: all.")
@click.option("--ignore", help="Rule codes or prefixes not to report (comma-separated).")
@click.option("--extend-select", help="Codes to report in addition to --select.")
@click.option("--per-file-ignores", multiple=True, metavar="GLOB:CODES", help="Ignore CODES in files matching GLOB.")
@click.option("--exclude", multiple=True, metavar="GLOBS", help="Gitignore-style globs of files not to read.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--output", type=click.Path(dir_okay=False), help="Write the report to FILE.")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), help="Lowest severity that fails (default: warning).")
@click.option("--fix", is_flag=True, help="Apply the safe fixes in place, then report what is left.")
@click.option("--diff", is_flag=True, help="Print the safe fixes as a unified diff; change nothing.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Use this configuration file.")
@click.option("--no-config", is_flag=True, help="Ignore configuration files.")
@click.option("--stdin-filename", metavar="NAME", help="The file name of the text read from `-` (standard input).")
@click.option("--write-baseline", metavar="FILE", help="Record today's findings in FILE and exit 0.")
@click.option("--baseline", metavar="FILE", help="Report only findings that are not in FILE.")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes for parsing (default: CPUs; 1: none).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write .launchlint_cache/.")
@click.option("--quiet", is_flag=True, help="Print findings only, no summary line.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--explain", metavar="CODE", help="Print a rule's documentation and examples.")
@click.option("--list-rules", is_flag=True, help="List every rule: code, name, severity, summary.")
@click.option("--debug", is_flag=True, help="Add tracebacks to internal errors (LL003).")
@click.option("--command", "command_line", metavar="STRING", help="Lint STRING as a command line typed here; launch nothing.")
@click.version_option(__version__, prog_name="launchlint")
def command(**cli):
    """Lint ML training launch scripts, configs and trainers."""
    from .rulekit import all_rules, rule_by_code

    if cli["list_rules"]:
        for rule in all_rules():
            click.echo(f"{rule.code}  {rule.name:<32} {rule.severity.value:<8} {rule.summary}")
        return EXIT_CLEAN
    if cli["explain"]:
        rule = rule_by_code().get(cli["explain"].strip().upper())
        if rule is None:
            raise UsageError(f"unknown rule code {cli['explain']!r} for --explain")
        click.echo(rule.explain(), nl=False)
        return EXIT_CLEAN

    from .engine import run

    paths = list(cli["paths"]) or ["."]
    stdin = None
    if cli["command_line"] is not None:  # the string is a launcher in the project: see preflight.py
        from .preflight import command_input

        if cli["fix"] or cli["diff"]:
            raise UsageError("--fix and --diff need files, not --command")
        paths, stdin = command_input(cli["command_line"], paths)
    elif "-" in paths:
        if not cli["stdin_filename"]:
            raise UsageError("reading `-` (standard input) needs --stdin-filename NAME")
        stdin = (cli["stdin_filename"], sys.stdin.read())
    if stdin and (cli["fix"] or cli["diff"]):
        raise UsageError("--fix and --diff need files, not `-` (standard input)")
    config = load_config_for(cli["config_file"], cli["no_config"])
    options = build_options(cli, config, stdin)
    result = run(paths, options)
    for warning in result.warnings:
        click.echo(f"launchlint: warning: {warning}", err=True)
    findings = _baseline(cli, result)
    if cli["diff"] or cli["fix"]:
        from .fixes import plan_fixes, unified_diff, write_fixes
        from .report import Paths

        fixes = plan_fixes(findings, result.root, result.indexes)
        if cli["diff"]:
            _emit(unified_diff(fixes, Paths(result.root).show), cli["output"])
            return EXIT_FINDINGS if fixes and not cli["exit_zero"] else EXIT_CLEAN
        fixes = write_fixes(fixes, warn=lambda message: click.echo(f"launchlint: warning: {message}", err=True))
        fixed = sum(1 for f in findings if f.fix is not None and f.location.path in {x.path for x in fixes})
        click.echo(f"launchlint: fixed {fixed} findings in {len(fixes)} files", err=True)
        if fixes:  # report what is left, at its new positions
            result = run(paths, options)
            findings = _baseline(cli, result)
    if cli["write_baseline"]:
        click.echo(f"launchlint: wrote {len(findings)} findings to {cli['write_baseline']}", err=True)
        return EXIT_CLEAN
    _emit(_render(cli, result, findings), cli["output"])
    fail_on = cli["fail_on"] or config.fail_on
    threshold = 2 if fail_on == "error" else 1
    failed = any(f.severity.rank >= threshold for f in findings)
    return EXIT_FINDINGS if failed and not cli["exit_zero"] else EXIT_CLEAN


def _baseline(cli: dict, result):
    from .baseline import without_baseline, write_baseline

    if cli["write_baseline"]:
        write_baseline(cli["write_baseline"], result.findings, result.indexes)
        return result.findings
    if cli["baseline"]:
        return without_baseline(cli["baseline"], result.findings, result.indexes)
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
        text = to_text(findings, shown, result.indexes, result.files, color=color, quiet=cli["quiet"])
    if cli["statistics"]:
        text += statistics(findings)
    return text


def _emit(text: str, output: str | None) -> None:
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {output}: {error.strerror or error}") from None
    else:
        click.echo(text, nl=False, color=True)  # --color decided already; click would strip it


def main(argv: list[str] | None = None) -> int:
    from .baseline import BaselineError
    from .config import ConfigError

    args = sys.argv[1:] if argv is None else list(argv)
    chosen, prog = command, "launchlint"
    if args[:1] == ["run"]:  # `launchlint run -- CMD ...`: its own options; CMD's words are not PATHs
        from .preflight import run_command

        chosen, prog, args = run_command, "launchlint run", args[1:]
    try:
        status = chosen.main(args=args, prog_name=prog, standalone_mode=False)
    except click.ClickException as error:
        click.echo(f"launchlint: error: {error.format_message()}", err=True)
        status = EXIT_USAGE
    except (UsageError, ConfigError, BaselineError) as error:
        click.echo(f"launchlint: error: {error}", err=True)
        status = EXIT_USAGE
    except click.exceptions.Abort:
        status = EXIT_USAGE
    if status is None:  # --help and --version return nothing
        status = EXIT_CLEAN
    sys.exit(status)


def console() -> None:
    """The installed `launchlint` command and `python -m launchlint`: `main`, then a hard exit.

    A run is one short-lived process whose facts are millions of small objects kept to the end:
    the cyclic collector has nothing to find in them, and freeing them one by one at exit took
    longer than loading them from the cache (0.17 s of a 0.76 s warm run on 1,000 files). So the
    collector is off from the first import and the process ends with `os._exit` once its output
    is flushed, as mypy does. In-process callers (tests, `launchlint.cli.main`) keep the ordinary
    exit.
    """
    import gc

    gc.disable()
    try:
        main()
        status = EXIT_CLEAN
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (EXIT_CLEAN if stop.code is None else EXIT_USAGE)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader that went away (`| head`)
            stream.flush()
    os._exit(status)
