"""From the paths a user names to the project's source files.

The project root is the nearest directory above the first path that holds `pyproject.toml`,
`.launchlint.yaml` or `.git` (else the current directory). Every file of the project is read so
that cross-file rules see callers and callees; the *named* files decide what is reported.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import struct
from collections.abc import Callable, Iterator

from .errors import UsageError
from .paths import normal, relative_to, suffix
from .replay import DIRECTORY, ROOT_MARKERS, TooLarge, marked_root, read_regular, saw

# Batch job scripts are shell too, named for their scheduler: SLURM's, PBS's (`qsub job.pbs`),
# LSF's (`bsub < job.lsf`: bsub reads a job's commands from its input, for a Bourne shell) and
# Cobalt's; OLCF's, named for the machine they run on (`job.frontier`, `job.crusher`: its training
# series' launchers). Other names (`7B.sc`) are not read: no file is opened to see its `#!`.
SHELL_EXTENSIONS = {
    ".sh", ".bash", ".zsh", ".ksh", ".slurm", ".sbatch", ".pbs", ".qsub", ".lsf", ".bsub", ".cobalt", ".sl", ".frontier", ".crusher",
}  # fmt: skip
# Extensions that other tools' files have too, read as shell only when a `#!` line names a shell:
# NVIDIA DeepLearningExamples' Slurm jobs are `x.sub` (HTCondor's submit files, also `.sub`, have none).
SHEBANG_EXTENSIONS = {".sub", ".job"}
SHELL_PROGRAMS = {"sh", "bash", "zsh", "ksh", "dash", "ash", "mksh"}  # an extensionless file's `#!`
# Shells whose language is not bash's: a script for one of them is not analysed (`other_shell`).
# ShellCheck refuses them too (SC1071, "ShellCheck only supports sh/bash/dash/ksh scripts").
OTHER_SHELLS = frozenset({"csh", "tcsh", "fish"})
OTHER_SHELL_EXTENSIONS = (".csh", ".tcsh", ".fish")
PYTHON_EXTENSIONS = {".py"}
YAML_EXTENSIONS = {".yml", ".yaml"}
MAKEFILE_NAMES = {"Makefile", "makefile", "GNUmakefile"}
MAKEFILE_EXTENSIONS = {".mk"}
# just's (casey/just): it looks for `justfile` and `.justfile` in any case; `mod` and `import`
# name `.just` modules.
JUSTFILE_NAMES = {"justfile", ".justfile"}
JUSTFILE_EXTENSIONS = {".just"}
MARKDOWN_EXTENSIONS = {".md"}
RUNBOOK_DIRECTORIES = {"runbook", "runbooks"}
# `__MACOSX/`: the metadata a zip made on a Mac holds (AppleDouble `._name` files, binary)
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", "venv", ".tox", "__MACOSX", DIRECTORY}
# A CI system's directory at its repository's root: walked though hidden, and its files' steps run
# in the checkout that holds it (`graph.Resolver.nested_root`).
CI_DIRECTORIES = frozenset({".github", ".circleci", ".gitlab", ".azure-pipelines"})
MAX_BYTES = 20 * 1024 * 1024  # larger files are reported, not read
# With no root marker the project is the current directory (cli.md): past this many files, the
# run says so, since a home directory or a data disk is rarely meant as one project.
UNMARKED_FILES = 2000
# ... and its walk stops after this many files (of any kind): `cd / && launchlint run -- ...` read
# the whole machine (2.6 GB and no end in 45 s). The run goes on with what the walk found.
UNMARKED_WALK = 20_000
# The kernel's file systems: never entered from a walk (/proc/*/task/* alone is endless reading;
# /dev/fd links into /proc). Starting in one, as the named root, still walks it.
PSEUDO_DIRECTORIES = ("/proc", "/sys", "/dev")


class Discovery:
    def __init__(
        self,
        root: str,
        files: dict[str, tuple[str, str]] | None = None,
        named: set[str] | None = None,
        warnings: list[str] | None = None,
        stdin_path: str | None = None,
    ) -> None:
        self.root = root
        self.files = {} if files is None else files  # rel path -> (the path to read it at, kind)
        self.named = set() if named is None else named  # files the user asked about
        self.warnings = [] if warnings is None else warnings
        self.stdin_path = stdin_path  # the file whose text comes from standard input

    def add_stdin(self, name: str, data: bytes) -> None:
        """`launchlint - --stdin-filename NAME`: NAME's bytes are standard input, not the disk's."""
        path = normal(name)
        rel = _relative(path, self.root)
        kind = kind_by_name(path, named=True) or _kind_from_shebang(data.partition(b"\n")[0]) or "shell"
        self.files[rel] = (path, kind)
        self.named.add(rel)
        self.stdin_path = rel


def find_root(start: str | os.PathLike) -> str:
    """The real path of the project root for `start` (see the module's docstring)."""
    start = os.path.realpath(start)
    here = start if os.path.isdir(start) else os.path.dirname(start)
    root = marked_root(here)
    return root if root is not None else os.path.realpath(os.getcwd())


def marks_root(directory: str) -> bool:
    return any(os.path.exists(os.path.join(directory, marker)) for marker in ROOT_MARKERS)


def kind_of(path: str | os.PathLike, *, named: bool = False) -> str | None:
    """The file's kind by its name, else by shebang; None for files we do not read. A walk reads
    no `._name` file, the AppleDouble metadata macOS writes beside a file it copies to another
    disk (binary, committed by mistake: `._main.py` was an LL001)."""
    if not named and os.path.basename(path).startswith("._"):
        return None
    kind = kind_by_name(path, named=named)
    if kind is not None:
        return kind
    extension = "" if named else suffix(os.path.basename(path))
    if extension and extension.lower() not in SHEBANG_EXTENSIONS:
        return None
    try:
        with open(path, "rb") as handle:
            first = handle.readline(200)
    except OSError:
        return None
    kind = _kind_from_shebang(first)
    if extension:  # `x.sub`: a shell's only
        return kind if kind == "shell" else None
    return kind or ("shell" if named else None)


def in_circleci(path: str) -> bool:
    """A CircleCI config's path (`.circleci/config.yml`): its `run` steps' shell is `/bin/bash -eo
    pipefail` unless a step names another."""
    return path.startswith(".circleci/") or "/.circleci/" in path


def kind_by_name(path: str | os.PathLike, *, named: bool = False) -> str | None:
    """shell | python | yaml | makefile | justfile | markdown, from the file's name (the walk gives strings:
    a Path per file cost 9 us of pathlib).

    Markdown is read only when the user names the file, or when its name says it is a runbook
    (`RUNBOOK.md`, `docs/runbooks/train.md`): a README's example commands are not launchers, and
    its placeholders (`<path>`) and numbered examples would be noise.
    """
    directory, name = os.path.split(os.fspath(path))
    extension = suffix(name).lower()
    if extension in SHELL_EXTENSIONS:
        return "shell"
    if extension in PYTHON_EXTENSIONS:
        return "python"
    if extension in YAML_EXTENSIONS:
        return "yaml"
    if name in MAKEFILE_NAMES or extension in MAKEFILE_EXTENSIONS:
        return "makefile"
    if extension in JUSTFILE_EXTENSIONS or name.lower() in JUSTFILE_NAMES:
        return "justfile"
    if extension in MARKDOWN_EXTENSIONS and (named or _is_runbook(name, os.path.basename(directory))):
        return "markdown"
    return None


def _is_runbook(name: str, directory: str) -> bool:
    return "runbook" in name.lower() or directory.lower() in RUNBOOK_DIRECTORIES


def _kind_from_shebang(first: bytes) -> str | None:
    program = shebang_program(first.decode("utf-8", "replace"))
    if program is None:
        return None
    if program.startswith("python"):
        return "python"
    return "shell" if program in SHELL_PROGRAMS else None


def shebang_words(text: str) -> list[str] | None:
    """The words of a `#!` first line; None without one."""
    return text[2:].partition("\n")[0].split() if text.startswith("#!") else None


def shebang_program(text: str) -> str | None:
    """The program a `#!` first line runs (`/usr/bin/env -S zsh -f` runs `zsh`); "" when it
    names none, None without such a line."""
    words = shebang_words(text)
    if words is None:
        return None
    program = words[0].rpartition("/")[2] if words else ""
    if program == "env":
        named = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        program = named[0].rpartition("/")[2] if named else ""
    return program


def other_shell(path: str, text: str) -> str | None:
    """The shell not of bash's kin that runs a script, csh, tcsh or fish: by its `#!` line (any
    other program there is none of them), else by its name (`job.csh`, `run.fish`); None for a
    script bash, sh or zsh reads."""
    program = shebang_program(text)
    if program:
        return program if program in OTHER_SHELLS else None
    extension = suffix(os.path.basename(path)).lower()
    return extension[1:] if extension in OTHER_SHELL_EXTENSIONS else None


def is_shader(text: str) -> bool:
    """An OpenGL shader in a shell file's name (Matterport3DSimulator's `vertex.sh`, which vision-
    and-language navigation projects copy): `#version 120` as its first line, and a `main`."""
    if not text.startswith("#version"):  # most files: no copy of the text made
        return False
    first, _, rest = text.partition("\n")
    words = first.split()
    return len(words) in (2, 3) and words[0] == "#version" and words[1].isdigit() and "void main" in rest


_PATTERNS: dict[tuple, Callable[[str], bool | None] | None] = {}  # by a .gitignore's path and state


def _patterns(path: str) -> Callable[[str], bool | None] | None:
    """The matcher of the ignore file at `path` (None when there is none, it cannot be read (a
    FIFO), or it holds no pattern), compiled once for each state of the file: LL303 and LL304 ask
    for each path they would report, and a 200-line .gitignore takes milliseconds to compile."""
    saw(path)
    try:
        info = os.stat(path)
    except OSError:
        return None
    key = (path, info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _PATTERNS:
        lines: list[str] = []
        with contextlib.suppress(OSError):
            lines = read_regular(path).decode("utf-8", "replace").splitlines()
        if any(line.strip() and not line.startswith("#") for line in lines):
            from .gitignore import verdicts

            _PATTERNS[key] = verdicts(lines)
        else:
            _PATTERNS[key] = None
    return _PATTERNS[key]


class Gitignored:
    """Whether git ignores a path relative to the root ('/'-separated; a directory's ends in '/'),
    as git decides: a path under an ignored directory is ignored whatever the files below say (git
    never reads them); otherwise the .gitignore of the deepest directory above the path with a
    pattern that matches it decides by its last such pattern, then the root's, then
    `.git/info/exclude`; and a file git's index holds never is (`git add -f`: `tracked`). A walk tells it which directories hold a `.gitignore` (`listed`), so it
    looks for none where there is none; asked about another directory, it looks on the disk."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.levels: dict[str, Callable[[str], bool | None] | None] = {}  # "" or "a/b/" -> its patterns
        self.directories: dict[str, bool] = {}  # the answers for directories, asked again for each entry
        self.excluded: Callable[[str], bool | None] | None | bool = False  # `.git/info/exclude`'s, once read
        self.index: tuple[frozenset[str], frozenset[str]] | None = None  # `tracked()`

    def listed(self, directory: str, names: list[str]) -> None:
        """The walk read `directory`'s entries (`names`, its files)."""
        if directory not in self.levels:
            self.levels[directory] = self._read(directory) if ".gitignore" in names else None

    def _read(self, directory: str) -> Callable[[str], bool | None] | None:
        return _patterns(os.path.join(self.root, directory, ".gitignore"))

    def _level(self, directory: str) -> Callable[[str], bool | None] | None:
        if directory not in self.levels:
            self.levels[directory] = self._read(directory)
        return self.levels[directory]

    def __call__(self, path: str) -> bool:
        if not path.endswith("/"):
            return self._decide(path) and path not in self.tracked()[0]  # git never ignores a file it tracks
        if path not in self.directories:
            self.directories[path] = self._decide(path)
        return self.directories[path]

    def tracked(self) -> tuple[frozenset[str], frozenset[str]]:
        """The files git's index holds (`git add -f` of a file a pattern matches: MeZO's `*.sh`
        launchers), and the directories above them; read once, when a path is ignored."""
        if self.index is None:
            self.index = tracked_files(self.root)
        return self.index

    def holds_tracked(self, directory: str) -> bool:
        """An ignored directory (`a/b/`) that holds files git tracks: walked for those alone."""
        return directory in self.tracked()[1]

    def _decide(self, path: str) -> bool:
        directory = path[: path.rstrip("/").rfind("/") + 1]  # its parent: "" or "a/b/"
        if directory and self(directory):
            return True
        while True:
            patterns = self._level(directory)
            verdict = patterns(path[len(directory) :]) if patterns is not None else None
            if verdict is not None:
                return verdict
            if not directory:
                break
            directory = directory[: directory.rstrip("/").rfind("/") + 1]
        if self.excluded is False:
            self.excluded = _patterns(os.path.join(self.root, ".git", "info", "exclude"))
        return bool(self.excluded is not None and self.excluded(path))


def tracked_files(root: str) -> tuple[frozenset[str], frozenset[str]]:
    """The paths git's index at `root` holds, and the directories above them ("a/b/"); none where
    there is no index or it cannot be read (versions 2 to 4; a worktree's or a submodule's `.git`
    file names the directory)."""
    git = os.path.join(root, ".git")
    try:
        if os.path.isfile(git):  # `gitdir: ../.git/worktrees/x`
            with open(git, encoding="utf-8", errors="replace") as handle:
                head = handle.read(4096).strip()
            if not head.startswith("gitdir:"):
                return frozenset(), frozenset()
            git = os.path.join(root, head[len("gitdir:") :].strip())
        index = os.path.join(git, "index")
        info = os.stat(index)
        if info.st_size > MAX_BYTES * 8:
            return frozenset(), frozenset()
        return _read_index(index, info.st_mtime_ns, info.st_size)
    except OSError:
        return frozenset(), frozenset()


@functools.lru_cache(maxsize=4)
def _read_index(index: str, mtime: int, size: int) -> tuple[frozenset[str], frozenset[str]]:
    """Parse git's index file (its format: git's Documentation/gitformat-index.txt)."""
    saw(index)
    with open(index, "rb") as handle:
        data = handle.read()
    if data[:4] != b"DIRC":
        return frozenset(), frozenset()
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3, 4):
        return frozenset(), frozenset()
    paths, at, previous = [], 12, b""
    try:
        for _ in range(count):
            flags = int.from_bytes(data[at + 60 : at + 62], "big")
            start = at + 62 + (2 if version >= 3 and flags & 0x4000 else 0)  # extended flags
            if version == 4:  # the path: how much of the previous one to drop, then the rest
                drop, byte = data[start] & 127, data[start]
                start += 1
                while byte & 128:
                    byte = data[start]
                    drop = ((drop + 1) << 7) + (byte & 127)
                    start += 1
                end = data.index(b"\0", start)
                previous = previous[: len(previous) - drop] + data[start:end]
                at = end + 1
            else:  # NUL-padded to a multiple of 8 bytes
                end = data.index(b"\0", start)
                previous = data[start:end]
                at += ((end - at) // 8 + 1) * 8
            paths.append(previous.decode("utf-8", "surrogateescape"))
    except (IndexError, ValueError):
        return frozenset(), frozenset()
    directories: set[str] = set()
    for path in paths:
        slash = path.rfind("/")
        while slash > 0 and path[: slash + 1] not in directories:
            directories.add(path[: slash + 1])
            slash = path.rfind("/", 0, slash)
    return frozenset(paths), frozenset(directories)


def gitignored_path(root: str, path: str) -> bool:
    """Whether git ignores `path` (relative to the root), its ignore files read now: LL303 and
    LL304 ask for the paths they would report, a cached run's record asks again."""
    return Gitignored(root)(path)


_SPECIAL_FILES = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _not_read(path: str, within: str | None = None) -> str | None:
    """Why `path` is not read, or None for a regular file (after symlinks). Only `stat` looks
    at it: opening a FIFO blocks until something writes to it, and /dev/zero never ends. With
    `within` (the project's real path, for files the walk found), a symbolic link to a file
    outside it is not read either: a repository's `setup.sh -> ../../.bashrc` would show lines
    of the user's files in the report, and `--fix` would write them."""
    try:
        info = os.lstat(path)
        link = stat.S_ISLNK(info.st_mode)
        if link:
            info = os.stat(path)
    except OSError as error:
        saw(path)
        if error.errno == errno.ELOOP:
            return "symbolic link loop, skipped"
        if error.errno == errno.ENOENT and os.path.islink(path):
            return "dangling symbolic link, skipped"
        return f"cannot read: {error.strerror or error}"
    saw(path, info)
    mode = info.st_mode
    if not stat.S_ISREG(mode):
        what = next((name for test, name in _SPECIAL_FILES if test(mode)), "not a regular file")
        return f"{what}, not read"
    if link and within is not None and outside(path, within):
        return "symbolic link to a file outside the project, not read"
    return None


def outside(path: str, real_root: str) -> bool:
    """Whether `path`, its links followed, is outside the real directory `real_root`."""
    return os.path.commonpath([os.path.realpath(path), real_root]) != real_root


def walk(root: str, excludes, skipped: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """(path, path relative to root) of the files under root, honouring .gitignore. Symlinked
    directories are followed (once each) while they stay under root, after the real ones: a
    directory reached both ways is named by its own path (`tools/job.sh`, not
    `examples/a/tools/job.sh` through a link to `tools`), as naming the file names it, so
    `--exclude`, `per-file-ignores` and a baseline see one name. `skipped` gets the links that
    leave root (relative path -> why)."""
    ignored = Gitignored(root)
    real_root = os.path.realpath(root)
    seen: set[tuple[int, int]] = set()
    links: list[tuple[str, str]] = []  # the symlinked directories the walk of the real ones met

    def tree(top: str, rel_top: str, follow: bool) -> Iterator[tuple[str, str]]:
        # Each directory's path relative to root, "" or ending in "/": os.walk names a directory
        # as the join of its parent's path and its name, so the parent gives it (`relpath` asks
        # the working directory twice a directory).
        relative = {top: rel_top}

        def unreadable(error: OSError) -> None:
            """A directory the walk cannot list (no read permission) is said, as a file is: once,
            by its own path (a link to it comes after it)."""
            rel = relative.pop(error.filename, None)
            with contextlib.suppress(OSError):
                info = os.stat(error.filename)
                if (info.st_dev, info.st_ino) in seen:
                    return
                seen.add((info.st_dev, info.st_ino))
            if skipped is not None and rel is not None:
                skipped[rel.rstrip("/") or "."] = f"cannot read: {error.strerror or error}"

        for directory, dirnames, filenames in os.walk(top, onerror=unreadable, followlinks=follow):
            rel_dir = relative.pop(directory)
            try:
                info = os.stat(directory)
            except OSError:
                dirnames[:] = []
                continue
            if (info.st_dev, info.st_ino) in seen:  # walked already, by its own path or a link (a loop)
                dirnames[:] = []
                continue
            seen.add((info.st_dev, info.st_ino))
            saw(directory, info)  # its entries decide what is found
            ignored.listed(rel_dir, filenames)
            wanted = sorted(
                d
                for d in dirnames
                if (d not in SKIP_DIRS and not d.startswith(".") or d in CI_DIRECTORIES)
                and (not ignored(rel_dir + d + "/") or ignored.holds_tracked(rel_dir + d + "/"))
                and not excludes(rel_dir + d + "/")
            )
            dirnames[:] = []
            for d in wanted:
                path = os.path.join(directory, d)
                link = os.path.islink(path)
                # A link out of the walk is not followed: `data -> /mnt/datasets` would walk a
                # dataset, `host -> /` the whole machine (/proc included).
                if link and outside(path, real_root):
                    if skipped is not None:
                        skipped[rel_dir + d] = "symbolic link to a directory outside the project, not followed"
                elif (link or d in PSEUDO_NAMES) and _pseudo(path):
                    continue
                elif follow or not link:
                    dirnames.append(d)
                    relative[path] = f"{rel_dir}{d}/"
                else:
                    links.append((path, f"{rel_dir}{d}/"))
            for name in sorted(filenames):
                rel = rel_dir + name
                if not ignored(rel) and not excludes(rel):
                    yield os.path.join(directory, name), rel

    yield from tree(root, "", False)
    for path, rel in links:
        yield from tree(path, rel, True)


def _missing(path: str) -> bool:
    """Whether nothing is at `path` (not: it cannot be looked at, as under a directory without
    search permission, where `os.path.lexists` says False as well)."""
    try:
        os.lstat(path)
    except OSError as error:
        return error.errno in (errno.ENOENT, errno.ENOTDIR)
    return False


PSEUDO_NAMES = {os.path.basename(d) for d in PSEUDO_DIRECTORIES}


def _pseudo(path: str) -> bool:
    """Whether the directory `path`, its links followed, is in /proc, /sys or /dev."""
    real = os.path.realpath(path)
    return any(real == d or real.startswith(d + "/") for d in PSEUDO_DIRECTORIES)


def _relative(path: str, root: str) -> str:
    """`path` relative to the real `root`, its links resolved (realpath: on a symbolic link loop
    `Path.resolve()` raises on Python 3.11, where realpath leaves the loop unresolved); the
    absolute path of a file outside it."""
    absolute = os.path.realpath(path)
    rel = relative_to(absolute, root)
    return absolute if rel is None else rel


def discover(
    paths: list[str], excludes=lambda rel: False, root: str | os.PathLike | None = None, force_exclude: bool = False
) -> Discovery:
    """The files of the project and the named ones. `excludes` (the configured globs) keep the
    walks out of what they match; a file named by its own path is read all the same, as ruff
    reads one, unless `force_exclude` (ruff's `--force-exclude`, which the pre-commit hook passes:
    a staged file of an excluded `third_party/` stays out)."""
    root = normal(root) if root else find_root(paths[0] if paths else ".")
    found = Discovery(root)
    # What the walk passed over, warned about only under a named directory: naming one file
    # (a pre-commit hook) should not bring warnings about the rest of the project.
    skipped: dict[str, str] = {}
    named_directories: list[str] = []
    real_root = os.path.realpath(root)
    marked = marks_root(root)
    walked = 0  # files the walks met, of any kind
    stopped = False  # with no root marker, at UNMARKED_WALK files

    def bounded(files: Iterator[tuple[str, str]]) -> Iterator[tuple[str, str]]:
        nonlocal walked, stopped
        for item in files:
            if not marked and walked >= UNMARKED_WALK:
                stopped = True
                return
            walked += 1
            yield item

    def add(path: str, rel: str, *, named: bool, walked: bool = True) -> None:
        """`named`: the user asked for the file, by its path or by a directory outside the project
        that holds it; `walked`: a walk found it, so its name or shebang says whether it is read
        (only a file named by its own path is read whatever its name)."""
        if rel not in found.files:
            reason = _not_read(path, None if named else real_root)
            if reason is not None:
                if walked and kind_by_name(path) is None:  # not a file launchlint would have read
                    return
                if named:
                    found.warnings.append(f"{path}: {reason}")
                    skipped.pop(rel, None)
                else:
                    skipped[rel] = reason
                return
            kind = kind_of(path, named=not walked)
            if kind is None:
                return
            found.files[rel] = (path, kind)
        if named:
            found.named.add(rel)

    def walk_named(directory: str, prefix: str, excluded) -> dict[str, str]:
        """Add the files of a directory the user named that the project's walk did not read, under
        `prefix`; what it skipped, by the same names."""
        skips: dict[str, str] = {}
        for path, rel in bounded(walk(directory, excluded, skips)):
            add(path, prefix + rel, named=True)
        return {prefix + rel if rel != "." else prefix.rstrip("/"): why for rel, why in skips.items()}

    for path, rel in bounded(walk(root, excludes, skipped)):
        add(path, rel, named=False)
    for name in paths:
        path = normal(name)  # as the user named it, as pathlib spells it (`./x.sh` is `x.sh`)
        saw(path)
        if os.path.isdir(path):
            prefix = _relative(path, root)
            if prefix.startswith("/"):  # a directory outside the project: walk it too
                outside = walk_named(os.path.realpath(path), prefix + "/", excludes)
                found.warnings.extend(f"{rel}: {why}" for rel, why in outside.items())
            else:
                inside = "" if prefix == "." else prefix + "/"
                if inside and not any(rel.startswith(inside) for rel in found.files):
                    # hidden or ignored (`.devcontainer/`, a gitignored `sandbox/`): named, it is linted
                    skipped.update(walk_named(path, inside, lambda rel, inside=inside: excludes(inside + rel)))
                found.named.update(rel for rel in found.files if rel.startswith(inside))
                named_directories.append(inside)
        elif not _missing(path):  # there, or in a directory that cannot be read (a warning)
            rel = _relative(path, root)
            if not (force_exclude and not rel.startswith("/") and excludes(rel)):
                add(path, rel, named=True, walked=False)
        else:  # a CI gate given a mistyped path must not pass for having linted nothing
            raise UsageError(f"{name}: no such file or directory")
    found.warnings.extend(
        f"{rel}: {why}" for rel, why in skipped.items() if any(f"{rel}/".startswith(d) for d in named_directories)
    )
    if stopped or (len(found.files) > UNMARKED_FILES and not marked):
        size = (
            f"its walk stopped after {UNMARKED_WALK:,} files, and the run goes on with the {len(found.files):,} "
            "it read" if stopped else f"{len(found.files):,} files read"
        )
        found.warnings.append(
            f"no {', '.join(ROOT_MARKERS[:-1])} or {ROOT_MARKERS[-1]} at or above {paths[0] if paths else '.'}, "
            f"so the project is the current directory: {size}; a .launchlint.yaml at the project's root limits "
            "a run to it"
        )
    return found


# Kinds whose programs read bytes, not characters: bash and make run a script with Latin-1 or GBK
# bytes in its comments and strings as well as a UTF-8 one.
BYTE_KINDS = frozenset({"shell", "makefile"})


class Problem(str):
    """Why a file cannot be analysed (a finding's message), and where in it, 1-based."""

    line = column = 1
    shown = ""  # the text to show the location in: the bytes, with what is not UTF-8 replaced

    def at(self, line: int, column: int, shown: str) -> Problem:
        found = Problem(self)
        found.line, found.column, found.shown = line, column, shown
        return found


def read_text(path: str, kind: str | None = None) -> tuple[str | None, Problem | None]:
    """The file's text, or why it cannot be analysed (a finding). Raises OSError when unreadable.
    See `decode`."""
    try:
        data = read_regular(path, limit=MAX_BYTES)
    except TooLarge as error:
        return None, Problem(f"file is {error.size} bytes, over the {MAX_BYTES}-byte limit; not analysed")
    return decode(data, kind)


def decode(data: bytes, kind: str | None = None) -> tuple[str | None, Problem | None]:
    """A file's (or standard input's) text, or why it cannot be analysed.

    UTF-8, as a file of any kind is read; when it is not, what its program reads: a Python file
    in the encoding its coding declaration names (PEP 263: `# -*- coding: gbk -*-`), a shell
    script or makefile byte for byte (each byte that is not UTF-8 one character, U+0080-U+00FF:
    its commands are ASCII, and only a comment or a string shows it in a message). `kind` None:
    UTF-8 only. `--fix` writes a file back as it was read (`fixes.plan_fixes`)."""
    if len(data) > MAX_BYTES:
        return None, Problem(f"file is over the {MAX_BYTES}-byte limit; not analysed")
    if b"\0" in data[:8192]:
        return None, Problem("binary file (NUL byte); not analysed")
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[bom:].decode("utf-8"), None
    except UnicodeDecodeError as error:  # the offset in the file, byte order mark included
        problem = _at_byte(Problem(f"not valid UTF-8 at byte {error.start + bom}"), data[bom:], error.start)
    if kind in BYTE_KINDS:
        return data[bom:].decode("latin-1"), None
    if kind == "python" and not bom:
        return _declared(data, problem)
    return None, problem


def _at_byte(problem: Problem, data: bytes, offset: int) -> Problem:
    """The problem at the line and column of the byte `offset` of `data` (valid UTF-8 before it)."""
    start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[start:offset].decode("utf-8", "replace")) + 1
    return problem.at(data.count(b"\n", 0, offset) + 1, column, data.decode("utf-8", "replace"))


def _declared(data: bytes, problem: Problem) -> tuple[str | None, Problem | None]:
    """A Python file's text in the encoding its coding declaration names, as Python reads it."""
    import io
    import re
    import tokenize

    if not re.search(rb"^[ \t\f]*#.*?coding[:=]", b"\n".join(data.split(b"\n", 2)[:2]), re.MULTILINE):
        return None, problem  # no declaration (PEP 263, the first two lines): Python refuses it as well

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:  # an encoding Python does not know
        return None, Problem(f"{error.msg}; not analysed")
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as error:
        return None, Problem(f"not valid {encoding} (its coding declaration) at byte {error.start}")
