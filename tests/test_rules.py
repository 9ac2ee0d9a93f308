"""Every rule's own examples are its tests: INVALID must give exactly `expect`, VALID nothing."""

from __future__ import annotations

import pytest
from launchlint.rulekit import all_rules

CASES = [
    pytest.param(rule, example, id=f"{rule.code}-{kind}-{n}")
    for rule in all_rules()
    for kind, examples in (("invalid", rule.invalid), ("valid", rule.valid))
    for n, example in enumerate(examples)
]


@pytest.mark.parametrize("rule,example", CASES)
def test_rule_example(rule, example, project):
    assert project(example.files, select=[rule.code]) == sorted(example.expect, key=_order)


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
