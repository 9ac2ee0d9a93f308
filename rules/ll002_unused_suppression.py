"""## What it does
Reports a `# launchlint: disable=CODES` (or `disable-file=CODES`) comment, or the codes in it,
that suppress nothing: no finding of those codes is on the line or statement it covers (or, for
`disable-file`, anywhere in the file). Unknown codes in such a comment are reported too.

## Why is this bad?
Suppressions outlive the problems they silenced. A stale `disable=LL102` above a launcher line
hides the next real `exec >` starvation on that line, and readers take it as a warning that
something there is subtle. Ruff's RUF100 and ShellCheck users ask for the same check.

## Example
```bash
# the script no longer redirects itself
python train.py  # launchlint: disable=LL102
```

## Use instead
```bash
python train.py
```

## Fix safety
No automatic fix yet: delete the comment or the unused codes by hand.
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Location, Severity
from launchlint.rulekit import Example
from launchlint.rules import codes
from launchlint.suppress import FoundCodes

CODE = "LL002"
NAME = "unused-suppression"
SEVERITY = Severity.WARNING
SUMMARY = "A `launchlint: disable=` comment suppresses nothing"
AFTER_OTHER_RULES = True  # reads the other rules' findings, before suppression

INVALID = [
    Example({"run.sh": "echo start\npython train.py  # launchlint: disable=LL102\n"}, ["LL002 run.sh:2"]),
    Example(
        {
            "launch.sh": "bash job.sh | tee job.log\n",
            "job.sh": "# launchlint: disable-file=LL102,LL103\nexec > other.log\npython t.py\n",
        },
        ["LL002 job.sh:1"],  # LL102 is used, LL103 is not
    ),
    Example({"run.sh": "python t.py  # launchlint: disable=LL999\n"}, ["LL002 run.sh:1"]),
]

VALID = [
    Example(
        {
            "launch.sh": "bash job.sh | tee job.log\n",
            "job.sh": "# the caller's tee is only a copy\nexec > job.out  # launchlint: disable=LL102\npython t.py\n",
        }
    ),
    Example(  # alone on the line above, covering a nested string's statement
        {
            "launch.sh": "# launchlint: disable=LL001\nssh gpu1 'tmux new-session -d \"python t.py'\n",
        }
    ),
]


def check(project) -> Iterator[Finding]:
    known = codes()
    found = FoundCodes(project.raw_findings)
    for suppression in project.suppressions:
        unused = []
        there = found.under(suppression)  # what a finding needs besides its code to be covered
        for code in suppression.codes:
            if code != "ALL" and not any(k.startswith(code) for k in known):
                unused.append(f"{code} (unknown code)")
                continue
            if not any(k.startswith(code) or code == "ALL" for k in there):
                unused.append(code)
        if unused:
            location = Location(
                suppression.path, suppression.line, suppression.column, suppression.line, suppression.column + 1
            )
            yield Finding(location, f"unused suppression: {', '.join(unused)} suppresses nothing here")
