"""`launchlint --explain CODE`: every code block a page shows is true when copied.

The pages come from the real command. A *Flagged*/*Not flagged* block must be the module's own
example (which test_rules.py runs).
"""

from __future__ import annotations

import pytest
from launchlint.rulekit import CR_MARK, all_rules

from tests.test_cli import launchlint

RULES = all_rules()


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {rule.code: launchlint("--explain", rule.code).stdout for rule in RULES}


def sections(page: str) -> list[tuple[str, str]]:
    """(title, body) of each `## ` section, in order."""
    found: list[tuple[str, list[str]]] = []
    for line in page.split("\n"):
        if line.startswith("## "):
            found.append((line[3:], []))
        elif found:
            found[-1][1].append(line)
    return [(title, "\n".join(body)) for title, body in found]


def rendered_examples(page: str) -> list[tuple[str, dict[str, str]]]:
    """The *Flagged* and *Not flagged* sections as printed: (title, files). A file starts at a
    `    # name` line after an empty one; its lines follow, indented by four spaces, with `^M` for
    each carriage return when the section's note says so."""
    examples = []
    for title, body in sections(page):
        if not title.startswith(("Flagged", "Not flagged")):
            continue
        marked = CR_MARK in body
        files: dict[str, list[str]] = {}
        previous = None
        for line in body.split("\n"):
            if previous == "" and line.startswith("    # "):
                lines = files[line[6:]] = []
            elif line.startswith("    ") and files:
                lines.append(line[4:].replace("^M", "\r") if marked else line[4:])
            previous = line
        examples.append((title, {name: "\n".join(lines) for name, lines in files.items()}))
    return examples


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_flagged_and_not_flagged_blocks_are_the_examples_the_rule_runs(rule, pages):
    shown = rendered_examples(pages[rule.code])
    examples = [("Flagged", e) for e in rule.invalid] + [("Not flagged", e) for e in rule.valid]
    assert len(shown) == len(examples)
    for (title, files), (kind, example) in zip(shown, examples):
        assert title.startswith(kind)
        assert {n: t.rstrip() for n, t in files.items()} == {n: t.rstrip() for n, t in example.files.items()}, title
