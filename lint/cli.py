"""The `launchlint` command. Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error."""

from __future__ import annotations

import os
import sys

import click

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A problem with the command line or the configuration: one line, exit 2."""


def _codes(value: str | None, option: str) -> frozenset[str]:
    if not value:
        return frozenset()
    from .rulekit import all_rules

    known = [r.code for r in all_rules()]
    codes = frozenset(c.strip().upper() for c in value.split(",") if c.strip())
    for code in codes:
        if code != "ALL" and not any(k.startswith(code) for k in known):
            raise UsageError(f"unknown rule code {code!r} in {option}")
    return codes


def _color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", help="Rule codes or prefixes to enable (comma-separated); default: all.")
@click.option("--ignore", help="Rule codes or prefixes to disable (comma-separated).")
@click.option("--extend-select", help="Codes to enable in addition to --select.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--output", type=click.Path(dir_okay=False), help="Write the report to FILE.")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="warning", show_default=True)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--quiet", is_flag=True, help="Print findings only, no summary line.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--explain", metavar="CODE", help="Print a rule's documentation and examples.")
@click.option("--list-rules", is_flag=True, help="List every rule: code, name, severity, summary.")
@click.option("--debug", is_flag=True, help="Add tracebacks to internal errors (LL003).")
@click.version_option(__version__, prog_name="launchlint")
def command(paths, select, ignore, extend_select, fmt, output, fail_on, exit_zero, quiet, statistics, color, explain, list_rules, debug):
    """Lint ML training launch scripts, configs and trainers."""
    from .rulekit import all_rules, rule_by_code

    if list_rules:
        for rule in all_rules():
            click.echo(f"{rule.code}  {rule.name:<32} {rule.severity.value:<8} {rule.summary}")
        return EXIT_CLEAN
    if explain:
        rule = rule_by_code().get(explain.strip().upper())
        if rule is None:
            raise UsageError(f"unknown rule code {explain!r} for --explain")
        click.echo(rule.explain(), nl=False)
        return EXIT_CLEAN

    from .engine import Options, run
    from .report import Paths, statistics as stats_text, to_json, to_text

    chosen = _codes(select, "--select") or None
    if extend_select:
        chosen = (chosen or frozenset({"ALL"})) | _codes(extend_select, "--extend-select")
    options = Options(select=chosen, ignore=_codes(ignore, "--ignore"), debug=debug)
    result = run(list(paths) or ["."], options)
    for warning in result.warnings:
        click.echo(f"launchlint: warning: {warning}", err=True)
    shown = Paths(result.root)
    if fmt == "json":
        text = to_json(result.findings, shown)
    else:
        text = to_text(result.findings, shown, result.indexes, result.files, color=_color(color) and not output)
        if quiet:
            text = "\n".join(text.splitlines()[:-1]) + ("\n" if result.findings else "")
    if statistics:
        text += stats_text(result.findings)
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        click.echo(text, nl=False)
    threshold = 2 if fail_on == "error" else 1
    failed = any(f.severity.rank >= threshold for f in result.findings)
    return EXIT_FINDINGS if failed and not exit_zero else EXIT_CLEAN


def main(argv: list[str] | None = None) -> int:
    try:
        status = command.main(args=argv, prog_name="launchlint", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.format_message(), err=True)
        status = EXIT_USAGE
    except click.ClickException as error:
        click.echo(f"launchlint: error: {error.format_message()}", err=True)
        status = EXIT_USAGE
    except UsageError as error:
        click.echo(f"launchlint: error: {error}", err=True)
        status = EXIT_USAGE
    except click.exceptions.Abort:
        status = EXIT_USAGE
    if status is None:  # --help and --version return nothing
        status = EXIT_CLEAN
    sys.exit(status)
