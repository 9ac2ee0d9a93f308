"""A run answered from its record: the same command, in the same place, with nothing on disk
changed, prints what the last run printed and exits with its status, without importing the
linter.

A run that can be replayed (it uses the cache, writes its report to stdout, lints files, not
standard input, `--command`, `--fix`, `--diff` or a baseline being written, and no analysis in it
stopped at its time budget or crashed: `Result.repeatable`) records in
`.launchlint_cache/records/` its stdout, its stderr, its exit status and the *stamp* of every
path its output depends on:
- each directory discovery walked (its stamp changes when an entry is added, removed or renamed)
  and each file it looked at, read or not;
- the root markers and configuration files it looked for, found or not, the baseline, and the
  paths rules asked the disk about (`Project.ask`);
- launchlint's own code, the parsers' packages, and the `bash` on PATH (`bash_on_path`).

A stamp is the path's type and permissions, inode, size, modification and change times, or
None for a path that does not exist. The record's name hashes the command line, the working
directory, launchlint's version, the interpreter, and what else the output depends on: whether
stdout is a terminal (colour), NO_COLOR and LAUNCHLINT_BUDGET. A record is used only when every
stamp is the same again; any difference is a miss, and the full run follows (its facts and run
caches, keyed by the files' contents, make it fast).

Stamps are trusted as make, git's index and Ruff's cache trust modification times. A file
rewritten to the same size within one timestamp tick of the stamp would look unchanged, so
nothing is recorded while any stamp is less than `RACY_SECONDS` older than the run's start (the
coarsest common tick is FAT's two seconds): git's "racy" rule for its index. That also covers a
file edited while the run read it.

The record is signed with the user's key (lint/digest.py) and loaded with `marshal` only after
its signature checks. The cache's other files are read and written with this module's
`read_regular` and `write_replacing` too: a replay needs them before anything else is imported,
and they are where a repository's `.launchlint_cache/`, `.gitignore` or links are met. This
module imports nothing but `os`, `stat`, `sys`, `time`, `marshal` and BLAKE2b: a replayed run is
the interpreter's start-up and a stat per path.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
from stat import S_ISBLK, S_ISCHR, S_ISFIFO, S_ISREG, S_ISSOCK  # imported by `os` already

from . import __version__
from .digest import blake2b, sign, user_key

TYPE_CHECKING = False  # as typing's: a replayed run imports neither typing nor collections
if TYPE_CHECKING:
    from collections.abc import Iterator

DIRECTORY = ".launchlint_cache"  # at the project root; lint/cache.py keeps its entries there too
RECORDS = "records"
ROOT_MARKERS = ("pyproject.toml", ".launchlint.yaml", ".git")
ENVIRONMENT = ("NO_COLOR", "LAUNCHLINT_BUDGET", "PATH")  # the variables a report depends on (PATH: `bash_on_path`)
RACY_SECONDS = 2


class Recording:
    """What the running command's output depends on, gathered as it runs."""

    def __init__(self) -> None:
        self.start = time.time_ns()
        self.paths: dict[str, os.stat_result | None] = {}  # -> its stat when it was looked at
        self.stderr: list[str] = []


recording: Recording | None = None  # set by the command line while a replayable run goes


def saw(path, info: os.stat_result | None = None) -> None:
    """Note that the output depends on `path` (its presence, entries or contents), and its stat
    `info` if the caller has it: a stamp taken after the run's start and before the path is read
    is as good as one taken at the end, and saves a `stat` per file."""
    if recording is not None:
        path = os.fspath(path)
        paths = recording.paths
        paths[path] = info if info is not None else paths.get(path)


def said(line: str) -> None:
    """Note a line the run wrote to stderr."""
    if recording is not None:
        recording.stderr.append(line)


def upward(directory: str) -> Iterator[str]:
    """`directory` (a real path), then each directory above it up to the file system's root."""
    while True:
        yield directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return
        directory = parent


def marked_root(directory: str) -> str | None:
    """The nearest directory at or above `directory` (a real path) that holds a root marker."""
    for here in upward(directory):
        for marker in ROOT_MARKERS:
            probe = os.path.join(here, marker)
            saw(probe)
            if os.path.exists(probe):
                return here
    return None


def bash_on_path() -> list[str]:
    """Where the `bash` that confirms LL001 (`bash -n`, lint/front/shell.py) is found, as
    `subprocess` finds a program: the directories of PATH up to the one that holds it, then the
    program. LL001's findings depend on which bash that is, or on there being none: the facts
    cache is keyed on the program, a record on every one of these paths (a bash installed in an
    earlier directory changes that directory's stamp)."""
    found = []
    for directory in os.get_exec_path():
        found.append(directory)
        program = os.path.join(directory, "bash")
        if os.path.isfile(program) and os.access(program, os.X_OK):
            found.append(program)
            break
    return found


def stamp(path: str, info: os.stat_result | None = None) -> tuple[int, int, int, int, int] | None:
    """`path`'s stamp, from `info` if given; None if it does not exist."""
    if info is None:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return None
    return (info.st_mode, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _where(args: list[str]) -> tuple[str, str] | None:
    """The project root a record of this command line would be in, and its name; None where
    there is no working directory."""
    try:
        cwd = os.getcwd()
        here = os.path.realpath(cwd)
    except OSError:
        return None
    facts = (
        __version__,
        sys.version,
        sys.executable,
        cwd,
        args,
        [os.environ.get(name) for name in ENVIRONMENT],
        _terminal(),
    )
    name = blake2b(repr(facts).encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    return marked_root(here) or here, name


def _terminal() -> bool:
    """Whether stdout is a terminal: `--color auto` colours the text report there."""
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (OSError, ValueError):  # closed
        return False


class TooLarge(Exception):
    """A file whose size is over the reader's limit: not read."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def read_regular(path, follow_links: bool = True, limit: int | None = None) -> bytes:
    """The bytes of the regular file at `path`; OSError if there is none. A repository decides
    what its `.gitignore` and `.launchlint_cache/` hold, and a FIFO there would block a run for
    ever, a symbolic link to /dev/zero fill its memory: the file is opened without blocking and
    read only once `fstat` says it is regular. A cache entry or record is never a symbolic link
    (`follow_links=False`): their names are predictable (a record's hashes the command line and
    the directory). With `limit`, a file whose size says more raises TooLarge, and at most
    `limit + 1` bytes are read (a /proc file's size says 0 whatever it holds).

    Five system calls a file (open, fstat, two reads, close): a Python file object added an
    fstat, an ioctl and a seek, and reading up to a limit mapped and unmapped a buffer that
    large."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not S_ISREG(info.st_mode):
            raise OSError(f"{os.fspath(path)} is not a regular file")
        if limit is not None and info.st_size > limit:
            raise TooLarge(info.st_size)
        # Up to one byte past the size the file says it has, then to the end: an empty read (a
        # short one is no end on every file system: FUSE, network file systems).
        chunks, total, ask = [], 0, info.st_size + 1
        while limit is None or total <= limit:
            chunk = os.read(fd, ask if limit is None else min(ask, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            ask = 1 << 16  # more than it said it had: it grew, or says 0 (/proc)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def write_replacing(path, data: bytes, mode: int = 0o666) -> None:
    """Write `data` at `path` all at once: a temporary file beside it (`mode`, less the umask),
    renamed over it, so a reader sees the old file or the new one. A symbolic link at `path` is
    replaced, not followed: a repository that ships `launchlint.sarif -> ../../.bashrc` cannot make
    `--output launchlint.sarif` (the CI example) overwrite the user's file. Raises OSError."""
    directory, name = os.path.split(os.path.abspath(path))
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        try:  # noqa: SIM105  contextlib is an import this module does without
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _write_all(fd: int, data: bytes) -> None:
    """Every byte of `data` to `fd`, however short each write (a pipe takes what it has room for).
    Not `open(fd)`: its stat, ioctl and seek were three of the seven system calls of a write."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_stdout(text: str, errors: str = "strict") -> None:
    """All of `text` on stdout, or BrokenPipeError. CPython's buffered writer takes a large write
    that a reader leaving cuts short (`launchlint . | head`) as done, and drops the rest in silence;
    `_write_all` asks again and hears the pipe is gone. A stream without a descriptor (a test's
    capture) and Windows' newline translation keep `sys.stdout.write`. `errors`
    "surrogateescape" writes lone surrogates as the bytes they stand for (a diff's, see
    `fixes.as_bytes`); otherwise the stream's own handler applies."""
    try:
        fd = sys.stdout.fileno() if os.name == "posix" else None
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        fd = None
    if fd is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    if errors == "strict":
        errors = sys.stdout.errors or "strict"
    _write_all(fd, text.encode(sys.stdout.encoding or "utf-8", errors))


def write_report(path, data: bytes) -> None:
    """Write what the user asked for at `path` (`--output`, `--write-baseline`): a file all at
    once (`write_replacing`), a stream or a device where it is, as a shell redirection writes it
    (`_is_stream`): renamed over, a device is replaced by a regular file, and run as root
    `--output /dev/null` made the system's /dev/null a file (tmux then failed to start). Such a
    path is never created (`/dev/nul` is a typo) and a block device is refused. Raises OSError."""
    if not _is_stream(path):
        write_replacing(path, data)
        return
    if S_ISBLK(os.stat(path).st_mode):  # asked before it is opened: a disk is never opened to write
        raise OSError(22, "a block device, not a file or a stream")  # EINVAL (no errno import at start-up)
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)  # O_TRUNC: a file behind `/dev/stdout`; pipes ignore it
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def _is_stream(path) -> bool:
    """Whether `path` names a stream or a device rather than a file: anything under /dev or /proc
    (`/dev/null`, `/dev/stdout`, bash's `>(...)` as `/dev/fd/63`), or, as it is (a link not
    followed: a repository cannot ship a FIFO or a device, git stores neither), a FIFO, a
    character device or a socket."""
    full = os.path.abspath(path)
    if full.startswith(("/dev/", "/proc/")):
        return True
    try:
        mode = os.lstat(full).st_mode
    except OSError:
        return False
    return S_ISFIFO(mode) or S_ISCHR(mode) or S_ISSOCK(mode)


def replayed(args: list[str]) -> int | None:
    """Write the recorded output of this command line and return its exit status, if a record
    is still true; else None (and nothing is written)."""
    if "--no-cache" in args:  # neither read nor write the cache
        return None
    where = _where(args)
    key = user_key(make=False) if where else b""  # no key yet: no record either
    if not key:
        return None
    try:
        data = read_regular(os.path.join(where[0], DIRECTORY, RECORDS, where[1]), follow_links=False)
    except OSError:
        return None
    if data[:32] != sign(key, data[32:]):
        return None
    try:
        stamps, stdout, stderr, status = marshal.loads(data[32:])
    except (EOFError, ValueError, TypeError):
        return None
    if any(stamp(path) != expected for path, expected in stamps):
        return None
    try:
        write_stdout(stdout)
    except BrokenPipeError:  # the reader went away: the output was cut short
        return 1
    sys.stderr.write(stderr)
    return status


def leave(status: int) -> None:
    """End the process once its output is flushed, without tearing the interpreter down
    (`cli.console` says why). A reader that went away before the last of the output (`| head`)
    makes the status at least 1, as a write that failed earlier does (`cli.main`): the output
    was cut short."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:
            status = status or 1
        except ValueError:  # a closed stream: nothing was left to write
            pass
    os._exit(status)


def record(args: list[str], root: str, stdout: str, status: int) -> None:
    """Store the finished run's record, unless a stamp is too recent to trust or `root`, the
    project's, is not where `replayed` looks (a run from outside the project it lints)."""
    global recording
    done, recording = recording, None
    where = _where(args)
    if done is None or where is None or where[0] != root:
        return
    from .cache import Cache, all_code

    code = dict.fromkeys([*all_code(), *bash_on_path()])
    stamps = tuple((path, stamp(path, info)) for path, info in {**code, **done.paths}.items())
    racy = done.start - RACY_SECONDS * 1_000_000_000
    if any(s is not None and max(s[3], s[4]) > racy for _, s in stamps):
        return
    if root in done.paths and stamp(root) != stamp(root, done.paths[root]):
        return  # changed since the walk (the run made .launchlint_cache there): it would never hit
    Cache(root).put_record(where[1], marshal.dumps((stamps, stdout, "".join(done.stderr), status)))
