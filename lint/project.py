"""The project as rules see it: every file's facts, the launch graph, and the settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from .model import LineIndex, Location

if TYPE_CHECKING:
    from .front.yamldoc import LogSetting
    from .graph import LaunchGraph
    from .model import Finding
    from .pyfacts import PythonModule
    from .shellfacts import ShellScript, Word
    from .suppress import Suppression
    from .threads import ThreadReport


def ask_disk(root: str, question: tuple[str, str]):
    """The answer to one of `Project.disk`'s questions, asked now."""
    import os

    what, path = question
    full = os.path.join(root, path)
    if what == "directory":
        return os.path.isdir(full)
    if what == "file":
        return os.path.isfile(full)
    from pathlib import Path

    from .discover import walk

    return tuple(rel for _, rel in walk(Path(root), lambda rel: False))


@dataclass
class Settings:
    """The configuration that changes what rules conclude (not what they report)."""

    lock_names: tuple[str, ...] = ()
    path_map: tuple[tuple[str, str], ...] = ()  # remote prefix -> project directory


@dataclass
class SourceFile:
    path: str  # relative to the project root, '/' separators
    kind: str  # shell | python | yaml | makefile | markdown
    text: str


@dataclass
class Project:
    root: str
    files: dict[str, SourceFile] = field(default_factory=dict)
    shell: dict[str, ShellScript] = field(default_factory=dict)
    python: dict[str, PythonModule] = field(default_factory=dict)
    configs: dict[str, list[LogSetting]] = field(default_factory=dict)  # YAML files' log paths
    launch_configs: dict[str, dict[str, Word]] = field(default_factory=dict)  # accelerate settings
    errors: list[tuple[Location, str]] = field(default_factory=list)  # unparseable input
    settings: Settings = field(default_factory=Settings)
    suppressions: list[Suppression] = field(default_factory=list)
    raw_findings: list[Finding] = field(default_factory=list)  # before suppression (for LL002)
    stopped: bool = False  # some file's analysis ran out of time: the findings are not the files'
    # What rules asked the file system beyond the files' texts, with the answers: a run whose
    # questions get the same answers again can be reused (lint/cache.py, run entries).
    disk: dict[tuple[str, str], object] = field(default_factory=dict)

    def on_disk(self, path: str, *, directory: bool = False) -> bool:
        """Whether `path` (relative to the root) is a file, or a directory, whether launchlint
        reads it or not (ignored, excluded, of another kind)."""
        return self._ask(("directory" if directory else "file", path))

    def listing(self) -> list[str]:
        """Every file under the root that .gitignore does not hide, of any kind (configs are
        JSON or TOML as often as YAML)."""
        return list(self._ask(("listing", "")))

    def _ask(self, question: tuple[str, str]):
        if question not in self.disk:
            self.disk[question] = ask_disk(self.root, question)
        return self.disk[question]

    def index(self, path: str) -> LineIndex:
        cache = self.__dict__.setdefault("_indexes", {})
        if path not in cache:
            cache[path] = LineIndex(self.files[path].text if path in self.files else "")
        return cache[path]

    @cached_property
    def graph(self) -> LaunchGraph:
        from .graph import LaunchGraph

        return LaunchGraph.build(self)

    @cached_property
    def threads(self) -> ThreadReport:
        from .threads import analyse

        return analyse(self)
