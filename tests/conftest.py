"""Shared helpers: write a small project to a temporary directory and lint it."""

from __future__ import annotations

from pathlib import Path

import pytest
from launchlint.engine import Options, run


def write_project(root: Path, files: dict[str, str]) -> None:
    (root / ".launchlint.yaml").write_text("# project root for the test\n")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


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
