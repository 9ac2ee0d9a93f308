"""Every rule's own examples are its tests: INVALID must give exactly `expect`, VALID nothing."""

from __future__ import annotations

import pytest
from launchlint.rulekit import all_rules

from tests.conftest import lint

CASES = [
    pytest.param(rule, example, id=f"{rule.code}-{kind}-{n}")
    for rule in all_rules()
    for kind, examples in (("invalid", rule.invalid), ("valid", rule.valid))
    for n, example in enumerate(examples)
]


@pytest.mark.parametrize("rule,example", CASES)
def test_rule_example(rule, example, project):
    assert project(example.files, select=[rule.code]) == sorted(example.expect, key=_order)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_invalid_examples_expect_findings_and_valid_ones_none(rule):
    """An INVALID example that expects nothing would pass while testing nothing."""
    assert all(example.expect for example in rule.invalid), f"{rule.code}: an INVALID example expects no finding"
    assert not any(example.expect for example in rule.valid), f"{rule.code}: a VALID example expects findings"


def _order(expect: str) -> tuple:
    code, _, where = expect.partition(" ")
    path, _, line = where.rpartition(":")
    return (path, int(line), code)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_is_documented(rule):
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert section in rule.doc, f"{rule.code} lacks {section}"
    assert rule.name.replace("-", "").isalpha() and rule.name == rule.name.lower()


def test_every_rule_with_a_check_has_examples():
    engine_reported = {"LL003"}  # internal errors cannot be provoked by an input file
    for rule in all_rules():
        if rule.code not in engine_reported:
            assert rule.invalid and rule.valid, f"{rule.code} needs INVALID and VALID examples"


def test_the_catalogue_lists_every_rule_module_once_in_code_order():
    import pkgutil

    from launchlint import rules

    modules = sorted(info.name for info in pkgutil.iter_modules(rules.__path__))
    assert sorted(module for _, module, _ in rules.CATALOGUE) == modules
    assert [code for code, _, _ in rules.CATALOGUE] == sorted(r.code for r in all_rules())
    assert all(rule.code == code for rule, (code, _, _) in zip(all_rules(), rules.CATALOGUE))


@pytest.mark.parametrize("kind", ["shell", "python"])
def test_a_rule_the_catalogue_skips_finds_nothing_without_its_facts(tmp_path, monkeypatch, kind):
    """The catalogue's claim, on every rule's examples: with every rule forced to run on the
    example minus the files that give `kind` facts (Python files; or every other file), the rules
    that read `kind` find nothing."""
    from launchlint import rulekit
    from launchlint.rules import CATALOGUE

    every = all_rules()
    monkeypatch.setattr(rulekit, "rules_for", lambda present: every)
    needing = {code for code, _, reads in CATALOGUE if kind in reads}
    kept = 0
    for n, (rule, example) in enumerate(case.values for case in CASES):
        files = {name: text for name, text in example.files.items() if _is_python(name, text) != (kind == "python")}
        if not files:
            continue
        (tmp_path / str(n)).mkdir()
        found = lint(tmp_path / str(n), files)
        kept += 1
        assert not [f for f in found if f.split()[0] in needing], (rule.code, files)
    assert kept > 20  # the examples do exercise it


def _is_python(name: str, text: str) -> bool:
    """A Python file by its name, or with no extension by its `#!` line (`train`), as discovery reads it."""
    from launchlint.discover import shebang_program

    return name.endswith(".py") or ("." not in name.rpartition("/")[2] and (shebang_program(text) or "").startswith("python"))
