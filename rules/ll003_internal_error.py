"""## What it does
Reports a bug in launchlint itself: a front end or a rule failed on a file. The finding names the
rule (or front end) and the file; every other rule still reports, so one bug never hides the rest
of the run. `--debug` adds the traceback to the message.

## Why is this bad?
It is not your bug, but the rule that failed checked nothing in that file: its findings are
missing. Please report it with the file (or a reduced copy) and the `--debug` output.

## Example
A rule raising `KeyError` on an unusual script gives
`LL003 [error] internal error in the rule LL102 exec-redirect-starves-pipe: KeyError: ... (the other rules still ran)`.

## Use instead
Upgrade launchlint, or `--ignore` the failing rule until it is fixed.

## Details
- A rule's failure is placed on the launch (or file) that rule was checking when it failed, when
  that is a file you named; otherwise on the first file named.
- It is reported when that rule is selected, or LL003 is: `--select LL301` does not pass in
  silence because LL301 failed, and does not fail because a rule it did not ask for did. A front
  end's failure is reported whatever is selected, since every rule lost that file. `--ignore
  LL003` (or `--per-file-ignores`) hides both.
- A rule that runs past its time budget (`LAUNCHLINT_BUDGET` seconds for each 1,000 files of the
  project, at least once) has failed too: `... stopped after 20 s; its findings are missing`.
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
