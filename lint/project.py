"""The project as rules see it: every file's facts, the launch graph, and the settings."""

from __future__ import annotations

import os
from functools import cached_property

from .model import LineIndex, Location, Record

TYPE_CHECKING = False  # as typing's, which costs 3 ms to import
if TYPE_CHECKING:
    from collections.abc import Callable

    from .front.yamldoc import LogSetting
    from .graph import LaunchGraph
    from .launches import Made
    from .model import Finding
    from .pyfacts import PythonModule
    from .pyindex import ModuleIndex
    from .shellfacts import ShellScript, Word
    from .suppress import Suppression
    from .threads import ThreadReport


def ask_disk(root: str, question: tuple[str, str]):
    """The answer to one of `Project.disk`'s questions, asked now."""
    import os

    from .replay import saw

    what, path = question
    full = os.path.join(root, path)
    saw(full)
    if what == "directory":
        return os.path.isdir(full)
    if what == "filled":  # a directory holding something: an empty one is a submodule not checked out
        try:
            with os.scandir(full) as entries:
                return next(entries, None) is not None
        except OSError:
            return False
    if what == "file":  # a symbolic link the project holds is its file, the target in a checkout not here too
        return os.path.isfile(full) or os.path.islink(full)
    if what == "real":  # the directory a path reaches through symbolic links, relative to the root (None: none in it)
        from .paths import relative_to

        real = os.path.realpath(full)
        return relative_to(real, os.path.realpath(root)) if os.path.isdir(real) else None
    if what == "ignored":  # a .gitignore hides it: a file each user makes (`.env.sh`), not the repository's
        from .discover import gitignored_path

        return gitignored_path(root, path)
    if what == "text":  # a file a script sources, which launchlint does not analyse (`common.env`)
        from .discover import read_text

        inside = os.path.realpath(full).startswith(os.path.join(os.path.realpath(root), ""))
        try:
            return read_text(full, "shell")[0] if inside and os.path.isfile(full) else None
        except OSError:
            return None
    from .discover import walk

    return tuple(rel for _, rel in walk(root, lambda rel: False))


class Settings(Record):
    """The configuration that changes what rules conclude (not what they report). A value, as
    its repr keys the run cache."""

    lock_names: tuple[str, ...] = ()
    path_map: tuple[tuple[str, str], ...] = ()  # remote prefix -> project directory


_UNLOADED = object()  # a LazyModules value not loaded yet


class LazyModules(dict):
    """A run's Python modules, path -> `PythonModule`, when its thread analysis came from the
    cache (engine.add_facts): each module's facts are loaded the first time a rule asks for them.
    The other rules read a few modules (the ones launches run, their parsers' modules, the ones
    that replace a standard stream), and loading every module's facts took 612 of the 1.8 s of a
    run after a script of Megatron-LM changed. Keys and length are the modules' from the start;
    `redirecting` holds the paths whose modules replace a standard stream (see
    `Project.redirecting_modules`), `starts_processes` whether some module starts a process
    (`Project.starts_processes`)."""

    def __init__(
        self,
        texts: dict[str, str],
        load: Callable[[str, str], PythonModule | None],
        redirecting: frozenset[str],
        starts_processes: bool,
    ):
        super().__init__(dict.fromkeys(texts, _UNLOADED))
        self._texts, self._load, self.redirecting, self.starts_processes = texts, load, redirecting, starts_processes

    def __getitem__(self, path: str) -> PythonModule | None:
        module = dict.__getitem__(self, path)
        if module is _UNLOADED:  # loaded once, even when that fails (a parse over its time budget)
            module = self._load(path, self._texts[path])
            dict.__setitem__(self, path, module)
        return module

    def get(self, path: str, default=None):
        return self[path] if path in self else default  # noqa: SIM401  (`self.get` is this very method)

    def values(self) -> list:
        return [self[path] for path in self]

    def items(self) -> list:
        return [(path, self[path]) for path in self]


class SourceFile:
    def __init__(self, path: str, kind: str, text: str) -> None:
        self.path = path  # relative to the project root, '/' separators
        self.kind = kind  # shell | python | yaml | makefile | justfile | markdown
        self.text = text


class Project:
    def __init__(
        self,
        root: str,
        files: dict[str, SourceFile] | None = None,
        shell: dict[str, ShellScript] | None = None,
        python: dict[str, PythonModule] | None = None,
        configs: dict[str, list[LogSetting]] | None = None,
        launch_configs: dict[str, dict[str, Word]] | None = None,
        errors: list[tuple[Location, str]] | None = None,
        settings: Settings | None = None,
        suppressions: list[Suppression] | None = None,
        raw_findings: list[Finding] | None = None,
        stopped: bool = False,
        disk: dict[tuple[str, str], object] | None = None,
    ) -> None:
        self.root = root
        self.files = {} if files is None else files
        self.shell = {} if shell is None else shell
        self.python = {} if python is None else python
        self.configs = {} if configs is None else configs  # YAML files' log paths
        self.launch_configs = {} if launch_configs is None else launch_configs  # accelerate settings
        self.errors = [] if errors is None else errors  # unparseable input
        self.settings = Settings() if settings is None else settings
        self.suppressions = [] if suppressions is None else suppressions
        self.raw_findings = [] if raw_findings is None else raw_findings  # before suppression (for LL002)
        self.stopped = stopped  # some file's analysis ran out of time: the findings are not the files'
        # What rules asked the file system beyond the files' texts, with the answers: a run whose
        # questions get the same answers again can be reused (lint/cache.py, run entries).
        self.disk = {} if disk is None else disk

    def on_disk(self, path: str, *, directory: bool = False) -> bool:
        """Whether `path` (relative to the root) is a file, or a directory, whether launchlint
        reads it or not (ignored, excluded, of another kind)."""
        return self._ask(("directory" if directory else "file", path))

    def real_directory(self, path: str) -> str | None:
        """The project path of the directory `path` (relative to the root) reaches through
        symbolic links (`b/utils` -> `../a/utils`: `a/utils`; "." for the root); None when it is no
        directory, or one outside the root."""
        return self._ask(("real", path))

    def filled(self, path: str) -> bool:
        """Whether `path` (relative to the root) is a directory with something in it: git keeps no
        empty directory, so an empty one is a placeholder (a submodule a clone without
        `--recursive` leaves empty, one made at run time), not a directory of the project's."""
        return self._ask(("filled", path))

    def gitignored(self, path: str) -> bool:
        """Whether the project's .gitignore files hide `path` (relative to the root): a file the
        repository never holds by design, made by each user (`.env.sh`, `configs/local.yaml`)."""
        return self._ask(("ignored", path))

    def sourced_script(self, path: str) -> ShellScript | None:
        """The facts of a file under the root that a script sources but launchlint does not
        analyse (`source common.env`), read as the shell reads it; None when there is no such
        readable file. Parsed once a run; its text is one of the disk's answers."""
        scripts = self.__dict__.setdefault("_sourced", {})
        if path not in scripts:
            text = self.text(path)
            if text is None:
                scripts[path] = None
            else:
                from .front.shell import parse_shell

                scripts[path] = parse_shell(path, text)
        return scripts[path]

    def text(self, path: str) -> str | None:
        """The text of a file under the root that launchlint does not analyse (a Dockerfile, a
        sourced `common.env`), a disk answer; None when there is no such readable file."""
        return self._ask(("text", path))

    def listing(self) -> list[str]:
        """Every file under the root that .gitignore does not hide, of any kind (configs are
        JSON or TOML as often as YAML)."""
        return list(self._ask(("listing", "")))

    def _ask(self, question: tuple[str, str]):
        if question not in self.disk:
            self.disk[question] = ask_disk(self.root, question)
        return self.disk[question]

    def redirecting_modules(self) -> list[tuple[str, PythonModule]]:
        """(path, module) of the Python modules that replace a standard stream (LL204), without
        loading the others' facts when they load lazily."""
        if not isinstance(self.python, LazyModules):
            return [(path, module) for path, module in self.python.items() if module.redirects]
        return [(path, self.python[path]) for path in self.python if path in self.python.redirecting]

    def starts_processes(self) -> bool:
        """Whether some Python module hands a callable to another process (LL204), without
        loading the modules' facts when they load lazily."""
        if isinstance(self.python, LazyModules):
            return self.python.starts_processes
        return any(module.may_start_processes for module in self.python.values())

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
    def directory_name(self) -> str:
        """The root's own name (`open_flamingo`): a launcher run from the checkout's parent
        names the project's files from there (`open_flamingo/open_flamingo/train/train.py`)."""
        return os.path.basename(os.path.abspath(self.root))

    @cached_property
    def made(self) -> Made:
        """The files the project's scripts make and the repositories they clone (LL303, LL304)."""
        from .launches import made_by

        return made_by(self)

    @cached_property
    def module_index(self) -> ModuleIndex:
        """The project's Python files by the module names imports use."""
        from .pyindex import ModuleIndex

        return ModuleIndex(self.python)

    @cached_property
    def threads(self) -> ThreadReport:
        from .threads import analyse

        return analyse(self)
