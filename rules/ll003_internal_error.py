"""internal-error

## What it does
Reports a bug in launchlint itself: a front end or a rule failed on a file. The finding names
the rule (or front end) and the file; every other rule still reports, so one bug never hides the
rest of the run. `--debug` adds the traceback to the message.

## Why is this bad?
It is not your bug. Please report it with the file (or a reduced copy) and the `--debug` output.

## Example
A rule raising `KeyError` on an unusual script gives
`LL003 [error] internal error in rule LL102 exec-redirect-starves-pipe: KeyError: ...`.

## Use instead
Upgrade launchlint, or `--ignore` the failing rule until it is fixed.
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Severity

CODE = "LL003"
NAME = "internal-error"
SEVERITY = Severity.ERROR
SUMMARY = "A launchlint front end or rule failed on a file (a bug in launchlint)"


def check(project) -> Iterator[Finding]:
    """The engine reports internal errors itself, since the failing code cannot."""
    return iter(())
