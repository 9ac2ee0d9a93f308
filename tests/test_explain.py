"""`launchlint --explain CODE`: every code block a page shows is true when copied.

The pages come from the real command; the blocks are linted in this process (as test_rules.py
lints the modules' examples). A *Flagged*/*Not flagged* block must be the module's own example
(which test_rules.py runs); the *Example* must give this rule's findings and no other rule's; the
*Use instead* must give no finding at all: a fix that trips another rule teaches the wrong thing.
"""

from __future__ import annotations

import re

import pytest
from launchlint.rulekit import CR_MARK, all_rules

from tests.conftest import lint
from tests.test_cli import launchlint

RULES = all_rules()
EVERY_CODE = frozenset(rule.code for rule in RULES)
NO_EXAMPLE_PROJECT = {"LL003"}  # an internal error: no input file provokes it
MAX_WORDS_WHAT = 100  # ruff's pages say what a rule does in a few sentences
DEFAULT_NAMES = {"bash": "run.sh", "python": "train.py", "yaml": "config.yaml"}
# `# launch.sh`, `# configs/ds.json`, `# logs/.gitkeep`: a block's line that names the file it starts
FILE_HEADER = re.compile(r"# ([\w.-]*[\w-]\.[\w]+|[\w./-]+/[\w.-]+)$")


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


def code_blocks(body: str) -> dict[str, str]:
    """The project that a section's fenced blocks make: file name -> text. A block's `# name`
    lines start its files; a block without one is a file named for its language."""
    files: dict[str, str] = {}
    for lang, text in re.findall(r"^```(\w*)\n(.*?)^```$", body, flags=re.M | re.S):
        name = None
        for line in text.splitlines(keepends=True):
            header = FILE_HEADER.fullmatch(line.rstrip("\n"))
            if header:
                name = header.group(1)
                files.setdefault(name, "")
                continue
            if name is None:
                name = DEFAULT_NAMES[lang]
                assert name not in files, f"two {lang} blocks without a file name"
                files[name] = ""
            files[name] += line
    return files


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


@pytest.mark.parametrize("rule", [r for r in RULES if r.code not in NO_EXAMPLE_PROJECT], ids=lambda r: r.code)
def test_the_example_is_flagged_and_the_use_instead_is_clean(rule, pages, tmp_path):
    shown = dict(sections(pages[rule.code]))
    example, fixed = code_blocks(shown["Example"]), code_blocks(shown["Use instead"])
    assert example and fixed, f"{rule.code}: its Example and Use instead need code blocks"
    (tmp_path / "example").mkdir()
    (tmp_path / "fixed").mkdir()
    found = lint(tmp_path / "example", example, sorted(EVERY_CODE))
    assert found and {f.split()[0] for f in found} == {rule.code}, found
    assert lint(tmp_path / "fixed", fixed, sorted(EVERY_CODE)) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_a_page_names_its_rule_once_says_what_it_does_in_a_few_lines_and_cites_what_users_have(rule, pages):
    """The name once, in the title line (the SARIF descriptions are the page's text); *What it
    does* short, as ruff's are, the cases in *Details*; and no reference to the spec's rules.md,
    which users do not have."""
    page = pages[rule.code]
    assert page.startswith(f"{rule.code} {rule.name} ({rule.severity.value})\n\n## What it does\n")
    assert len(dict(sections(page))["What it does"].split()) <= MAX_WORDS_WHAT
    assert "rules.md" not in page
