"""The console scripts a project's packages declare: `fairseq-train = fairseq_cli.train:cli_main`.

Read statically, never run or imported: pyproject.toml's `[project.scripts]` and
`[tool.poetry.scripts]`, setup.cfg's `console_scripts` of `[options.entry_points]`, and setup.py's
`setup(entry_points={"console_scripts": [...]})` when the list is a literal (in the call, or bound
to a name the module assigns once). Each of these files counts for the package rooted at its
directory (a monorepo's `packages/a/pyproject.toml` for `packages/a/`): an entry `pkg.mod:func`
names the project module `pkg/mod.py` there, or under its `src/` (or the one directory its
`package-dir`/`where` names). A name two packages declare otherwise, or whose module or function is
not the project's, is no program: a launch of it is not judged.

A launch `NAME --flags` (`graph.LaunchGraph`) then runs `func` of that module: LL301, LL302 and LL304
read its command line as `programs.entry_command_line` finds it, LL105 and LL106 judge it as a
Python program.
"""

from __future__ import annotations

import posixpath
import re
import sys

from .model import Record

MAX_TEXT = 1_000_000  # characters of a packaging file read: a larger one declares nothing here
MAX_DEPTH = 3  # directories below the root whose pyproject.toml and setup.cfg are asked for
PACKAGE_FILES = ("pyproject.toml", "setup.cfg")
_ENTRY = re.compile(r"\s*([A-Za-z_][\w.]*)\s*:\s*([A-Za-z_][\w.]*)\s*(?:\[[^\]]*\])?\s*")
_NAME = re.compile(r"[A-Za-z0-9][\w.+-]*")


class Script(Record):
    """A console script: the project module that defines its function, and the function."""

    path: str
    function: str


class Declared(Record):
    """What one packaging file declares: its console scripts (name -> `pkg.mod:func`), and the
    directories (below its own) its packages are found in."""

    scripts: tuple[tuple[str, str], ...]
    roots: tuple[str, ...] = ()


def console_scripts(project) -> dict[str, Script | None]:
    """Each console script name the project's packages declare, with its function; None for one
    declared otherwise by two packages, or whose function is not found. Made once a run."""
    cache = project.__dict__
    if "_console_scripts" not in cache:
        cache["_console_scripts"] = _console_scripts(project)
    return cache["_console_scripts"]


def console_script(project, name: str | None) -> Script | None:
    """The console script a command's name runs, if the project declares it."""
    if not name or "/" in name or not _NAME.fullmatch(name):
        return None
    return console_scripts(project).get(name)


def _console_scripts(project) -> dict[str, Script | None]:
    declared: list[tuple[str, Declared]] = []
    for path, source in project.files.items():
        if source.kind == "python" and posixpath.basename(path) == "setup.py":
            declared.append((posixpath.dirname(path), from_setup_py(source.text)))
    for directory in sorted(_package_directories(project)):
        for name in PACKAGE_FILES:
            path = posixpath.join(directory, name) if directory else name
            text = project._ask(("text", path))
            if isinstance(text, str):
                declared.append((directory, from_pyproject(text) if name == "pyproject.toml" else from_setup_cfg(text)))
    found: dict[str, set[Script | None]] = {}
    for directory, what in declared:
        for name, target in what.scripts:
            found.setdefault(name, set()).add(_resolve(project, directory, what.roots, target))
    return {name: next(iter(scripts)) if len(scripts) == 1 else None for name, scripts in found.items()}


def _package_directories(project) -> set[str]:
    """The root, and each directory up to MAX_DEPTH below it that holds a Python file of the
    project or a directory that does (a package's pyproject.toml is above its modules)."""
    found = {""}
    for path in project.python:
        parts = path.split("/")[:-1]
        for depth in range(1, min(len(parts), MAX_DEPTH) + 1):
            found.add("/".join(parts[:depth]))
    return found


def _resolve(project, directory: str, roots: tuple[str, ...], target: str) -> Script | None:
    """The project module and function of `pkg.mod:func` in the package rooted at `directory`."""
    match = _ENTRY.fullmatch(target)
    if match is None:
        return None
    module, function = match.groups()
    if "." in function:  # `pkg.mod:Cls.method`, `pkg.mod:app.run`: not a function of the module
        return None
    relative = module.replace(".", "/")
    for root in roots or ("", "src"):
        base = posixpath.normpath(posixpath.join(directory, root, relative)) if directory or root else relative
        for path in (base + ".py", base + "/__init__.py"):
            if path in project.python:
                return Script(path, function)
    return None


def _tomllib():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    return tomllib


def _table(value, *keys: str) -> dict:
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _relative_root(value) -> str | None:
    """A package directory as written (`src`, `./src`), below the file's own: None for anything else."""
    if not isinstance(value, str):
        return None
    root = posixpath.normpath(value.strip() or ".")
    return None if root.startswith(("/", "..")) else "" if root == "." else root


def from_pyproject(text: str) -> Declared:
    """`[project.scripts]` and `[tool.poetry.scripts]` (a string, or poetry's `{callable = ...}`
    / `{reference = ..., type = "console"}`); setuptools' `package-dir = {"" = "src"}` and
    `[tool.setuptools.packages.find] where`, poetry's `packages = [{include, from}]`."""
    if len(text) > MAX_TEXT:
        return Declared(())
    tomllib = _tomllib()
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return Declared(())
    scripts = []
    for name, value in _table(data, "project", "scripts").items():
        if isinstance(value, str):
            scripts.append((name, value))
    for name, value in _table(data, "tool", "poetry", "scripts").items():
        if isinstance(value, dict) and value.get("type", "console") == "console":
            value = value.get("callable", value.get("reference"))
        if isinstance(value, str):
            scripts.append((name, value))
    roots: list[str | None] = []
    setuptools = _table(data, "tool", "setuptools")
    package_dir = setuptools.get("package-dir")
    if isinstance(package_dir, dict) and "" in package_dir:
        roots.append(_relative_root(package_dir[""]))
    where = _table(setuptools, "packages", "find").get("where")
    roots += [_relative_root(w) for w in where] if isinstance(where, list) else []
    packages = _table(data, "tool", "poetry").get("packages")
    for package in packages if isinstance(packages, list) else ():
        if isinstance(package, dict) and "from" in package:
            roots.append(_relative_root(package["from"]))
    return Declared(tuple(scripts), _roots(roots))


def _roots(roots: list[str | None]) -> tuple[str, ...]:
    """The declared package directories, each once; none (the defaults) when one is not simple."""
    if None in roots:
        return ("<unknown>",)  # resolves nothing: where the packages are is not known
    return tuple(dict.fromkeys(r for r in roots if r is not None))


def from_setup_cfg(text: str) -> Declared:
    """`console_scripts =` of `[options.entry_points]`, one `name = pkg.mod:func` a line;
    `package_dir = =src` of `[options]`, `where` of `[options.packages.find]`."""
    if len(text) > MAX_TEXT or "console_scripts" not in text:
        return Declared(())
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
        lines = parser.get("options.entry_points", "console_scripts", fallback="")
        package_dir = parser.get("options", "package_dir", fallback=None)
        where = parser.get("options.packages.find", "where", fallback=None)
    except (configparser.Error, ValueError, RecursionError):
        return Declared(())
    roots: list[str | None] = []
    if package_dir is not None:
        mapped = dict(_pair(line) for line in package_dir.splitlines() if "=" in line)
        if "" in mapped:
            roots.append(_relative_root(mapped[""]))
    if where is not None:
        roots.append(_relative_root(where))
    return Declared(_entries(lines.splitlines()), _roots(roots))


def _pair(line: str) -> tuple[str, str]:
    key, _, value = line.partition("=")
    return key.strip(), value.strip()


def _entries(lines) -> tuple[tuple[str, str], ...]:
    """`name = pkg.mod:func` lines (a `#` or `;` line is a comment)."""
    found = []
    for line in lines:
        if not isinstance(line, str) or "=" not in line or line.lstrip().startswith(("#", ";")):
            continue
        name, target = _pair(line)
        if name:
            found.append((name, target))
    return tuple(found)


def from_setup_py(text: str) -> Declared:
    """The `console_scripts` of each `setup(...)` call's `entry_points`, when literal: a dict (or
    an INI string, `[console_scripts]` then its lines) in the call or bound once by an assignment
    in the module; its list of strings the same. `package_dir={"": "src"}`, and
    `packages=find_packages("src")` (`where="src"`)."""
    if len(text) > MAX_TEXT or "console_scripts" not in text:
        return Declared(())
    import ast

    try:
        tree = ast.parse(text)
        nodes = list(ast.walk(tree))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Declared(())
    assigned: dict[str, list[ast.expr]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)

    def value(node: ast.expr | None, depth: int = 0) -> ast.expr | None:
        """The literal a name stands for, when the module binds it once."""
        if isinstance(node, ast.Name) and depth < 3:
            bound = assigned.get(node.id, [])
            return value(bound[0], depth + 1) if len(bound) == 1 else None
        return node

    scripts: list[tuple[str, str]] = []
    roots: list[str | None] = []
    for node in nodes:
        if not isinstance(node, ast.Call) or _called_name(node.func) != "setup":
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        scripts += _setup_scripts(value(keywords.get("entry_points")), value)
        package_dir = value(keywords.get("package_dir"))
        if isinstance(package_dir, ast.Dict):
            for key, mapped in zip(package_dir.keys, package_dir.values):
                if isinstance(key, ast.Constant) and key.value == "":
                    roots.append(_relative_root(mapped.value) if isinstance(mapped, ast.Constant) else None)
        packages = value(keywords.get("packages"))
        if isinstance(packages, ast.Call) and _called_name(packages.func) in ("find_packages", "find_namespace_packages"):
            where = packages.args[0] if packages.args else next((k.value for k in packages.keywords if k.arg == "where"), None)
            if where is not None:
                roots.append(_relative_root(where.value) if isinstance(where, ast.Constant) else None)
    return Declared(tuple(scripts), _roots(roots))


def _called_name(func) -> str | None:
    import ast

    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _setup_scripts(entry_points, value) -> list[tuple[str, str]]:
    import ast

    if isinstance(entry_points, ast.Constant) and isinstance(entry_points.value, str):  # setuptools' INI form
        section, lines = None, []
        for line in entry_points.value.splitlines():
            stripped = line.strip()
            if stripped.startswith("["):
                section = stripped.strip("[]").strip()
            elif section == "console_scripts":
                lines.append(line)
        return list(_entries(lines))
    if not isinstance(entry_points, ast.Dict):
        return []
    for key, listed in zip(entry_points.keys, entry_points.values):
        if isinstance(key, ast.Constant) and key.value == "console_scripts":
            listed = value(listed)
            if isinstance(listed, ast.Constant) and isinstance(listed.value, str):
                return list(_entries(listed.value.splitlines()))
            if isinstance(listed, (ast.List, ast.Tuple)):
                return list(_entries(e.value for e in listed.elts if isinstance(e, ast.Constant)))
    return []

