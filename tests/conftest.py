"""Shared helpers: write a small project to a temporary directory and lint it."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from launchlint.engine import Options, run
from launchlint.front.pysource import parse_python


def write_project(root: Path, files: dict[str, str]) -> None:
    (root / ".launchlint.yaml").write_text("# project root for the test\n")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def imports_of_a_run(args: list[str], modules: tuple[str, ...], cwd: Path | None = None) -> tuple[str, list[str]]:
    """Run `launchlint ARGS` in a fresh interpreter: what it printed, and which of `modules` it
    imported (one that a site hook imported before launchlint counts only if the run imports it
    again)."""
    code = (
        f"import sys\nfor name in {modules!r}:\n    sys.modules.pop(name, None)\n"
        f"from launchlint.cli import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {modules!r} if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd)
    *printed, imported = result.stdout.strip().splitlines()
    return "\n".join(printed), ast.literal_eval(imported)


def lint(root: Path, files: dict[str, str], select: list[str] | None = None) -> list[str]:
    """`CODE path:line` of every finding, sorted as reported."""
    write_project(root, files)
    options = Options(select=frozenset(select) if select else None)
    result = run([str(root)], options)
    return [f"{f.code} {f.location.path}:{f.location.line}" for f in result.findings]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """Lint a {name: text} project; returns the `CODE path:line` list."""
    monkeypatch.chdir(tmp_path)

    def _lint(files: dict[str, str], select: list[str] | None = None) -> list[str]:
        return lint(tmp_path, files, select)

    return _lint


def py(text: str) -> str:
    """A Python snippet written indented inside a test."""
    return textwrap.dedent(text).lstrip("\n")


def facts(text: str, path: str = "train.py"):
    """The front end's facts of a snippet that must parse."""
    module = parse_python(path, py(text))
    assert module.parse_errors == []
    return module
