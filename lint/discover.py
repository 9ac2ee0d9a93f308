"""From the paths a user names to the project's source files.

The project root is the nearest directory above the first path that holds `pyproject.toml`,
`.launchlint.yaml` or `.git` (else the current directory). Every file of the project is read so
that cross-file rules see callers and callees; the *named* files decide what is reported.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SHELL_EXTENSIONS = {".sh", ".bash", ".zsh", ".ksh", ".slurm", ".sbatch"}
PYTHON_EXTENSIONS = {".py"}
YAML_EXTENSIONS = {".yml", ".yaml"}
MAKEFILE_NAMES = {"Makefile", "makefile", "GNUmakefile"}
MAKEFILE_EXTENSIONS = {".mk"}
MARKDOWN_EXTENSIONS = {".md"}
RUNBOOK_DIRECTORIES = {"runbook", "runbooks"}
ROOT_MARKERS = ("pyproject.toml", ".launchlint.yaml", ".git")
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", "venv", ".tox", ".launchlint_cache"}
MAX_BYTES = 20 * 1024 * 1024  # larger files are reported, not read


@dataclass
class Discovery:
    root: Path
    files: dict[str, tuple[Path, str]] = field(default_factory=dict)  # rel path -> (abs, kind)
    named: set[str] = field(default_factory=set)  # files the user asked about
    warnings: list[str] = field(default_factory=list)
    stdin_path: str | None = None  # the file whose text comes from standard input

    def add_stdin(self, name: str, text: str) -> None:
        """`launchlint - --stdin-filename NAME`: NAME's text is standard input, not the disk's."""
        path = Path(name)
        rel = _relative(path, self.root)
        kind = kind_by_name(path, named=True) or _kind_from_shebang(text.partition("\n")[0].encode()) or "shell"
        self.files[rel] = (path, kind)
        self.named.add(rel)
        self.stdin_path = rel


def find_root(start: Path) -> Path:
    start = start.resolve()
    here = start if start.is_dir() else start.parent
    for directory in (here, *here.parents):
        if any((directory / marker).exists() for marker in ROOT_MARKERS):
            return directory
    return Path.cwd().resolve()


def kind_of(path: Path, *, named: bool = False) -> str | None:
    """The file's kind by its name, else by shebang; None for files we do not read."""
    kind = kind_by_name(path, named=named)
    if kind is not None or (path.suffix and not named):
        return kind
    try:
        with open(path, "rb") as handle:
            first = handle.readline(200)
    except OSError:
        return None
    return _kind_from_shebang(first) or ("shell" if named else None)


def kind_by_name(path: Path, *, named: bool = False) -> str | None:
    """shell | python | yaml | makefile | markdown, from the file's name.

    Markdown is read only when the user names the file, or when its name says it is a runbook
    (`RUNBOOK.md`, `docs/runbooks/train.md`): a README's example commands are not launchers, and
    its placeholders (`<path>`) and numbered examples would be noise.
    """
    suffix = path.suffix.lower()
    if suffix in SHELL_EXTENSIONS:
        return "shell"
    if suffix in PYTHON_EXTENSIONS:
        return "python"
    if suffix in YAML_EXTENSIONS:
        return "yaml"
    if path.name in MAKEFILE_NAMES or suffix in MAKEFILE_EXTENSIONS:
        return "makefile"
    if suffix in MARKDOWN_EXTENSIONS and (named or _is_runbook(path)):
        return "markdown"
    return None


def _is_runbook(path: Path) -> bool:
    return "runbook" in path.name.lower() or path.parent.name.lower() in RUNBOOK_DIRECTORIES


def _kind_from_shebang(first: bytes) -> str | None:
    if first.startswith(b"#!"):
        if b"python" in first:
            return "python"
        if any(shell in first for shell in (b"sh", b"bash", b"zsh", b"ksh")):
            return "shell"
    return None


def _ignore_spec(root: Path):
    import pathspec

    lines: list[str] = []
    with contextlib.suppress(OSError):  # no .gitignore, or an unreadable one: ignore nothing
        lines = (root / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
    return pathspec.PathSpec.from_lines("gitwildmatch", lines)


def _regular(path: Path) -> bool:
    """A regular file (after symlinks); FIFOs and devices are never opened."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def walk(root: Path, excludes) -> Iterator[tuple[Path, str]]:
    """(path, path relative to root) of the files under root, honouring .gitignore."""
    ignore = _ignore_spec(root)
    seen: set[tuple[int, int]] = set()
    for directory, dirnames, filenames in os.walk(root, followlinks=True):
        try:
            info = os.stat(directory)
        except OSError:
            dirnames[:] = []
            continue
        if (info.st_dev, info.st_ino) in seen:  # a symlink loop
            dirnames[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        rel_dir = os.path.relpath(directory, root)
        rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/") + "/"
        dirnames[:] = sorted(
            d
            for d in dirnames
            if (d not in SKIP_DIRS and not d.startswith(".") or d in (".github", ".gitlab"))
            and not ignore.match_file(rel_dir + d + "/")
            and not excludes(rel_dir + d + "/")
        )
        for name in sorted(filenames):
            rel = rel_dir + name
            if not ignore.match_file(rel) and not excludes(rel):
                yield Path(directory) / name, rel


def _relative(path: Path, root: Path) -> str:
    absolute = path.resolve()
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return absolute.as_posix()


def discover(paths: list[str], excludes=lambda rel: False, root: Path | None = None) -> Discovery:
    root = root or find_root(Path(paths[0]) if paths else Path("."))
    found = Discovery(root)

    def add(path: Path, rel: str, *, named: bool) -> None:
        if rel not in found.files:
            if not _regular(path):
                if named:
                    found.warnings.append(f"{path}: not a regular file, skipped")
                return
            kind = kind_of(path, named=named)
            if kind is None:
                return
            found.files[rel] = (path, kind)
        if named:
            found.named.add(rel)

    for path, rel in walk(root, excludes):
        add(path, rel, named=False)
    for name in paths:
        path = Path(name)
        if path.is_dir():
            prefix = _relative(path, root)
            if prefix.startswith("/"):  # a directory outside the project: walk it too
                for sub, rel in walk(path.resolve(), excludes):
                    add(sub, f"{prefix}/{rel}", named=True)
            else:
                inside = "" if prefix == "." else prefix + "/"
                found.named.update(rel for rel in found.files if rel.startswith(inside))
        elif path.exists() or path.is_symlink():
            add(path, _relative(path, root), named=True)
        else:
            found.warnings.append(f"{name}: no such file or directory")
    return found


def read_text(path: Path) -> tuple[str | None, str | None]:
    """The file's text, or why it cannot be analysed (a finding). Raises OSError when unreadable."""
    size = os.stat(path).st_size
    if size > MAX_BYTES:
        return None, f"file is {size} bytes, over the {MAX_BYTES}-byte limit; not analysed"
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None, "binary file (NUL byte); not analysed"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return None, f"not valid UTF-8 at byte {error.start}"
