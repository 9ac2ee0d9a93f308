"""The README stays true: its set-up commands and its generated rule table."""

from __future__ import annotations

from pathlib import Path

from launchlint.docs import with_table

README = Path(__file__).resolve().parent.parent / "README.md"


def test_rule_table_is_generated_from_the_registry():
    text = README.read_text(encoding="utf-8")
    assert text == with_table(text), "stale rule table: run `python -m launchlint.docs README.md`"


def test_readme_opens_with_the_two_setup_commands():
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```bash") + 1 : lines.index("```")]
    assert block == ["pip install . && launchlint fixtures/incident", "pip install '.[test]' && pytest"]


def test_ci_runs_the_readme_test_command():
    ci = (README.parent / ".ci" / "run").read_text()
    assert "pip install --quiet '.[test]' && pytest" in ci
