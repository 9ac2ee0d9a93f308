"""The cache in `.launchlint_cache/` at the project root: each file's facts, and whole runs.

Facts entries are keyed by a hash of the file's path, kind and text, launchlint's version and the
front ends' code. Run entries are keyed by every analysed file's path, kind and text, the options
that change findings, the paths named on the command line and all of launchlint's code; they hold
the run's findings and the questions its rules asked the disk (does `configs/x.json` exist? which
files are under the root?) with their answers. A run entry is reused only when every question gets
the same answer again, so a changed file, a new config file or a deleted script is a miss, and
the facts entries make the run that follows fast anyway. Thread entries are keyed by the Python
files alone (and the lock names, and the code): they hold the thread analysis's findings and what
the run needs of each module without its facts, so a run after an edit to anything but Python
loads a module's facts only when a rule asks for them (`project.LazyModules`). `records/` holds
lint/replay.py's records of whole commands, which a run reads before any of this is imported.

Entries are written atomically (temp file + rename, so two runs can share the directory) and
signed with a key kept in the user's own cache directory: a repository that ships a crafted
`.launchlint_cache/` cannot make launchlint unpickle it. An entry that fails its signature or
does not load is a miss.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import sys

from . import __version__
from .digest import blake2b, sign, user_key
from .parsing import FileFacts
from .replay import DIRECTORY, RECORDS, bash_on_path, read_regular, write_replacing

# The modules whose code decides what the facts of a file are: any change to them is a new cache.
FACT_MODULES = ("parsing.py", "shellfacts.py", "pyfacts.py", "model.py", "front")
PARSERS = ("tree_sitter", "tree_sitter_bash", "yaml")
RUNS = "runs"  # run entries, under DIRECTORY: their keys cover all of the code
THREAD_ENTRIES = "threads"  # thread entries, under DIRECTORY: keyed by the Python files and all of the code
# Facts are what this interpreter's `ast` made of a file: another Python version parses some files
# differently (Python 3.12 syntax, that 3.11 refuses), so each version has its own entries.
PYTHON = f"py{sys.version_info[0]}{sys.version_info[1]}"
KEEP_RUNS = 16  # one per recent combination of options and named paths is plenty
KEEP_RECORDS = 16  # lint/replay.py: one per recent command line


def _code_fingerprint(paths: list[str]) -> str:
    """A fingerprint of launchlint's source, so entries made by other code are never reused: each
    file's path, size and modification time, as Python's own bytecode cache checks its sources.
    Reading and hashing the 680 KB of code took 2.5 ms of every cached run; this takes 0.4 ms."""
    digest = blake2b(digest_size=16)
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _sources(place: str) -> list[str]:
    if not os.path.isdir(place):
        return [place]
    return sorted(os.path.join(top, name) for top, _, names in os.walk(place) for name in names if name.endswith(".py"))


def _fact_code() -> list[str]:
    package = os.path.dirname(__file__)
    return [path for name in FACT_MODULES for path in _sources(os.path.join(package, name))] + parser_files()


def all_code() -> list[str]:
    """launchlint's code and its parsers': whatever decides a run's findings."""
    import launchlint
    import launchlint.rules

    places = [place for package in (launchlint, launchlint.rules) for place in package.__path__]
    return sorted({path for place in places for path in _sources(place)}) + parser_files()


_parser_files: list[str] = []


def parser_files() -> list[str]:
    """Each parser package's `__init__`, found without importing it, and the `bash` that confirms
    LL001. An upgrade or a reinstall writes it anew, so facts a tree-sitter-bash, PyYAML or bash
    of another release made are not reused (nor run entries, nor lint/replay.py's records)."""
    if not _parser_files:
        from importlib.machinery import PathFinder  # as front.bash_language finds the grammar

        for name in PARSERS:
            spec = PathFinder.find_spec(name)
            if spec is not None and spec.origin:
                _parser_files.append(spec.origin)
        _parser_files.extend(path for path in bash_on_path()[-1:] if os.path.isfile(path))  # none: no bash
    return _parser_files


class Cache:
    def __init__(self, root: str):
        self.top = os.path.join(root, DIRECTORY)
        self.directory = os.path.join(self.top, f"{__version__}-{PYTHON}-{_code_fingerprint(_fact_code())}")
        self.key = user_key()
        self.enabled = bool(self.key)
        self.made: set[str] = set()  # directories known to exist
        self._digests: dict[tuple[str, str], tuple[str, str]] = {}  # (path, kind) -> (text, its digest)

    # -- facts ------------------------------------------------------------------------------

    def _digest(self, path: str, kind: str, text: str) -> str:
        """The hash of a file's path, kind and text: the name of its facts' entry, and its part of
        a run's key. Hashed once a run: a second pass over Megatron-LM's 21 MB took 47 ms."""
        known = self._digests.get((path, kind))
        if known is not None and known[0] is text:
            return known[1]
        digest = blake2b("\0".join((path, kind, text)).encode("utf-8", "surrogatepass"), digest_size=32).hexdigest()
        self._digests[path, kind] = (text, digest)
        return digest

    def _entry(self, path: str, kind: str, text: str) -> str:
        return os.path.join(self.directory, self._digest(path, kind, text))  # one directory: 256 by the digest's first byte took 256 mkdirs on a first run

    def get(self, path: str, kind: str, text: str) -> FileFacts | None:
        facts = self._load(self._entry(path, kind, text))
        return facts if isinstance(facts, FileFacts) else None

    def put(self, text: str, facts: FileFacts, payload: bytes | None = None) -> None:
        """Store `facts`; `payload` is their pickle when a worker already made it."""
        if facts.crash or facts.stopped:  # a stop is no fact of the file's
            return
        self._store(self._entry(facts.path, facts.kind, text), facts, payload)

    # -- runs -------------------------------------------------------------------------------

    def run_key(self, sources, errors, options: tuple, named: list[str]) -> str:
        """A hash of everything a run's findings depend on but the disk's answers."""
        digest = blake2b(repr((__version__, PYTHON, _code_fingerprint(all_code()), options, named, errors)).encode(), digest_size=32)
        for path, kind, text in sorted(sources):
            digest.update(self._digest(path, kind, text).encode())  # fixed length: no separator needed
        return digest.hexdigest()

    def get_run(self, key: str) -> tuple[list, list[str]] | None:
        """The findings and the files' warnings of a run with this key, if the disk still gives
        its rules the same answers."""
        from .project import ask_disk

        entry = self._load(os.path.join(self.top, RUNS, key))
        if not isinstance(entry, tuple) or len(entry) != 4:
            return None
        root, findings, warnings, disk = entry
        if any(ask_disk(root, question) != answer for question, answer in disk.items()):
            return None
        return findings, warnings

    def put_run(self, key: str, root: str, findings: list, warnings: list[str], disk: dict) -> None:
        if self._store(os.path.join(self.top, RUNS, key), (root, findings, warnings, disk)):
            self._prune(os.path.join(self.top, RUNS), KEEP_RUNS)

    # -- thread entries ------------------------------------------------------------------------

    def threads_key(self, sources, lock_names: tuple[str, ...]) -> str:
        """A hash of everything the thread analysis reads: every Python file's path and text, the
        configured lock names, and all of launchlint's code."""
        digest = blake2b(repr((__version__, PYTHON, _code_fingerprint(all_code()), lock_names)).encode(), digest_size=32)
        for path, kind, text in sorted(sources):
            if kind == "python":
                digest.update(self._digest(path, kind, text).encode())
        return digest.hexdigest()

    def get_threads(self, key: str) -> tuple[list, dict] | None:
        """The thread analysis's findings, and what a run needs of each module without its facts
        (`engine.ThreadEntry`), of a run with the same Python files."""
        entry = self._load(os.path.join(self.top, THREAD_ENTRIES, key))
        return entry if isinstance(entry, tuple) and len(entry) == 2 else None

    def put_threads(self, key: str, findings: list, modules: dict) -> None:
        if self._store(os.path.join(self.top, THREAD_ENTRIES, key), (findings, modules)):
            self._prune(os.path.join(self.top, THREAD_ENTRIES), KEEP_RUNS)

    def put_record(self, name: str, payload: bytes) -> None:
        """Store a replayable run's record (lint/replay.py), already serialised."""
        if self._store(os.path.join(self.top, RECORDS, name), None, payload):
            self._prune(os.path.join(self.top, RECORDS), KEEP_RECORDS)

    # -- signed entries -----------------------------------------------------------------------

    def _load(self, entry: str):
        if not self.enabled:
            return None
        try:
            data = read_regular(entry, follow_links=False)
        except OSError:
            return None
        signature, payload = data[:32], data[32:]
        if signature != sign(self.key, payload):  # no constant-time compare needed: nobody can time this run
            return None
        try:
            return pickle.loads(payload)
        except Exception:  # noqa: BLE001  a signed but stale entry (older classes): a miss
            return None

    def _store(self, entry: str, value, payload: bytes | None = None) -> bool:
        """Write a signed entry; True once it is there."""
        if not self.enabled:
            return False
        try:
            if payload is None:
                payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            if not self._ensure_directory(os.path.dirname(entry)):
                return False
            write_replacing(entry, sign(self.key, payload) + payload, 0o600)  # two runs may share the cache
            return True
        except (OSError, pickle.PicklingError, RecursionError):
            return False

    @staticmethod
    def _prune(directory: str, keep: int) -> None:
        """Keep the `keep` newest entries: a run entry is only ever reused by the next runs. Only
        launchlint's own names (hex digests) are removed, and only regular files."""
        try:
            with os.scandir(directory) as listing:
                entries = [e for e in listing if _is_digest(e.name) and e.is_file(follow_symlinks=False)]
            entries.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime, reverse=True)
        except OSError:
            return
        for old in entries[keep:]:
            with contextlib.suppress(OSError):  # another run pruned it first
                os.unlink(old.path)

    def _ensure_directory(self, directory: str) -> bool:
        """Make `directory` (one directly under the cache's top) and say whether entries may be
        written there: not when `.launchlint_cache` or `directory` is a symbolic link, or no
        directory. A repository can ship `.launchlint_cache/runs -> ../../..`, and pruning that
        would delete the user's files; then this run writes no cache at all."""
        if directory in self.made:  # asked once per entry written: one system call a directory
            return True
        if not os.path.exists(self.top):
            os.makedirs(self.top, exist_ok=True)
            write_replacing(os.path.join(self.top, ".gitignore"), b"# created by launchlint\n*\n")
        if _real_directory(self.top):
            try:
                os.mkdir(directory)
            except FileExistsError:  # as `Path.mkdir(exist_ok=True)`: only a directory may be there
                if not os.path.isdir(directory):
                    raise
            if _real_directory(directory):
                self.made.add(directory)
                return True
        self.enabled = False
        return False


def _real_directory(path: str) -> bool:
    """A directory, and not through a symbolic link."""
    return stat.S_ISDIR(os.lstat(path).st_mode)


def _is_digest(name: str) -> bool:
    return bool(name) and not name.strip("0123456789abcdef")
