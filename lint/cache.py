"""The per-file facts cache in `.launchlint_cache/` at the project root.

Entries are keyed by a hash of the file's path, kind and text and launchlint's version, written
atomically (temp file + rename, so two runs can share the directory), and signed with a key kept
in the user's own cache directory: a repository that ships a crafted `.launchlint_cache/` cannot
make launchlint unpickle it. An entry that fails its signature or does not load is a miss.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import tempfile
from pathlib import Path

from . import __version__
from .parsing import FileFacts

DIRECTORY = ".launchlint_cache"
# The modules whose code decides what the facts of a file are: any change to them is a new cache.
FACT_MODULES = ("parsing.py", "shellfacts.py", "pyfacts.py", "model.py", "front")


def _user_key() -> bytes:
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "launchlint"
    key_file = home / "cache-key"
    try:
        return key_file.read_bytes()
    except OSError:
        pass
    try:
        home.mkdir(parents=True, exist_ok=True)
        key = os.urandom(32)
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
        return key
    except FileExistsError:  # another run created it first
        return key_file.read_bytes()
    except OSError:
        return b""  # no private place for a key: no cache


def _code_fingerprint() -> str:
    """A hash of the front ends' source, so facts cached by older code are never reused."""
    package = Path(__file__).parent
    digest = hashlib.sha256()
    for name in FACT_MODULES:
        for path in sorted((package / name).rglob("*.py")) if (package / name).is_dir() else [package / name]:
            try:
                digest.update(path.name.encode() + path.read_bytes())
            except OSError:
                continue
    return digest.hexdigest()[:16]


class Cache:
    def __init__(self, root: str):
        self.directory = Path(root) / DIRECTORY / f"{__version__}-{_code_fingerprint()}"
        self.key = _user_key()
        self.enabled = bool(self.key)

    def _entry(self, path: str, kind: str, text: str) -> Path:
        digest = hashlib.sha256("\0".join((path, kind, text)).encode("utf-8", "surrogatepass")).hexdigest()
        return self.directory / digest[:2] / digest

    def get(self, path: str, kind: str, text: str) -> FileFacts | None:
        if not self.enabled:
            return None
        try:
            data = self._entry(path, kind, text).read_bytes()
        except OSError:
            return None
        signature, payload = data[:32], data[32:]
        if not hmac.compare_digest(signature, hmac.new(self.key, payload, "sha256").digest()):
            return None
        try:
            facts = pickle.loads(payload)
        except Exception:  # noqa: BLE001  a signed but stale entry (older classes): parse again
            return None
        return facts if isinstance(facts, FileFacts) else None

    def put(self, text: str, facts: FileFacts, payload: bytes | None = None) -> None:
        """Store `facts`; `payload` is their pickle when a worker already made it."""
        if not self.enabled or facts.crash or facts.stopped:  # a stop is no fact of the file's
            return
        entry = self._entry(facts.path, facts.kind, text)
        temporary = None
        try:
            if payload is None:
                payload = pickle.dumps(facts, protocol=pickle.HIGHEST_PROTOCOL)
            self._ensure_directory(entry.parent)
            fd, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                handle.write(hmac.new(self.key, payload, "sha256").digest() + payload)
            os.replace(temporary, entry)
        except (OSError, pickle.PicklingError, RecursionError):
            if temporary is not None and os.path.exists(temporary):
                os.unlink(temporary)

    def _ensure_directory(self, directory: Path) -> None:
        top = self.directory.parent
        if not top.exists():
            top.mkdir(parents=True, exist_ok=True)
            (top / ".gitignore").write_text("# created by launchlint\n*\n")
        directory.mkdir(parents=True, exist_ok=True)
