"""Which project file a Python import names.

Resolution (`ModuleIndex.resolve`) follows what `sys.path` holds when a trainer runs: the
importer's own directory when it is no package (`python moe/serve.py` puts moe/ first, so its
`import helpers` is moe/helpers.py, not the root's), the project root (`python -m pkg.train`,
`PYTHONPATH=.`), and the other directories above the importer that are not packages themselves
(a launcher may `cd` to any directory above it). A package's own directory is never a `sys.path` entry, so a module
inside a package does not see its siblings by plain name. Standard library names (`os`, `socket`,
`_socket`) resolve to a project file only when it sits at the project root under that exact
name: a `trio/_socket.py` is not the `_socket` that `trio/_core/_io.py` imports.
"""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Iterable, Mapping

from .pyfacts import PythonModule, module_name

STDLIB = frozenset(sys.stdlib_module_names)


class ModuleIndex:
    """The project's Python files by dotted module name (see the module docstring)."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.by_name: dict[str, str] = {}
        self.packages: set[str] = set()  # dotted names of directories holding an __init__.py
        # The dotted tails of module names (`c`, `b.c`, `a.b.c` of `a.b.c`): a name that is none
        # of them names no project module wherever it is imported (-34 M instructions of the thread
        # analysis's 456 on the 1,000-file benchmark project).
        self._tails: set[str] = set()
        for path in sorted(paths, key=lambda p: p.endswith("/__init__.py")):  # a package beats pkg.py
            name, is_package = module_name(path)
            if name:
                self.by_name[name] = path
                parts = name.split(".")
                self._tails.update(".".join(parts[start:]) for start in range(len(parts)))
            if is_package:
                self.packages.add(name)
        self._resolved: dict[tuple[str, str], str | None] = {}
        self._direct: dict[tuple[str, bool], tuple[str, ...]] = {}  # (module, at_start) -> the modules it names
        self._importers: dict[str, list[str]] | None = None  # module -> the modules that import it directly

    def resolve(self, importer: str, name: str) -> str | None:
        """The file of module `name` as the file `importer` imports it, or None (a library)."""
        if name not in self._tails:  # no project module ends with it: a library, as most imports are
            return None
        key = importer, name
        if key not in self._resolved:
            self._resolved[key] = self._resolve(importer, name)
        return self._resolved[key]

    def module_of(self, importer: str, dotted: str) -> str | None:
        """The project module a dotted import names (or names a member of)."""
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            path = self.resolve(importer, ".".join(parts[:end]))
            if path is not None:
                return path
        return None

    def imported(self, modules: Mapping[str, PythonModule | None], path: str, *, at_start: bool = False) -> frozenset[str]:
        """The project modules the module at `path` imports, directly or through others, itself
        included; `at_start`: only those importing it runs (`PythonModule.top_imports`: not an
        import in a function's body). Each module once: imports may go round in a cycle."""
        found, queue = {path}, [path]
        while queue:
            for imported in self._direct_imports(modules, queue.pop(), at_start):
                if imported not in found:
                    found.add(imported)
                    queue.append(imported)
        return frozenset(found)

    def importers(self, modules: Mapping[str, PythonModule | None], path: str) -> frozenset[str]:
        """The project modules that import the module at `path`, directly or through others,
        itself included: the programs that run it (`imported` the other way round: a module's
        closure for each of 2,559 modules of aphrodite-engine was 27.9 M import resolutions)."""
        if self._importers is None:
            self._importers = {}
            for importer in modules:
                for imported in self._direct_imports(modules, importer, False):
                    self._importers.setdefault(imported, []).append(importer)
        found, queue = {path}, [path]
        while queue:
            for importer in self._importers.get(queue.pop(), ()):
                if importer not in found:
                    found.add(importer)
                    queue.append(importer)
        return frozenset(found)

    def _direct_imports(self, modules: Mapping[str, PythonModule | None], path: str, at_start: bool) -> tuple[str, ...]:
        """The project modules the module at `path` names in its imports, each resolved once."""
        key = path, at_start
        found = self._direct.get(key)
        if found is None:
            module = modules.get(path)
            if module is None:
                found = ()
            else:
                targets = module.top_imports if at_start else [*module.imports.values(), *module.star_imports]
                resolved = (self.module_of(module.path, target) for target in targets)
                found = tuple(dict.fromkeys(p for p in resolved if p is not None))
            self._direct[key] = found
        return found

    def _resolve(self, importer: str, name: str) -> str | None:
        directories = _directories(importer)
        if directories and directories[0] not in self.packages and name.partition(".")[0] not in STDLIB:
            # `python moe/serve.py` puts moe/ first: its `from helpers import x` is moe/helpers.py
            found = self.by_name.get(f"{directories[0]}.{name}")
            if found is not None:
                return found
        if name in self.by_name:
            return self.by_name[name]
        if name.partition(".")[0] in STDLIB:
            return None
        for directory in directories:
            if directory not in self.packages:
                found = self.by_name.get(f"{directory}.{name}")
                if found is not None:
                    return found
        return None


def _directories(path: str) -> list[str]:
    """The dotted names of the directories above a file, nearest first (the root excluded)."""
    parts = [p for p in posixpath.dirname(path).split("/") if p not in ("", ".")]
    return [".".join(parts[:end]) for end in range(len(parts), 0, -1)]
