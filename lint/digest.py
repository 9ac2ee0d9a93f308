"""BLAKE2b, the hash of the cache's keys and the front ends' stand-in names, from CPython's own
module: importing `hashlib` loads OpenSSL, 3 ms of every run's start-up (medians of 31 runs).
Keyed, it is also the cache's signature (a MAC by design, in one call where HMAC takes two
hashes). A baseline's fingerprints stay SHA-256: users keep them in their files.

The key is the user's own (in their cache directory, created on first use): a repository that
ships a crafted `.launchlint_cache/` cannot make launchlint load it. This module imports nothing
heavier than `os`, as a replayed run (lint/replay.py) checks a signature before anything else."""

import os

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib finds one (OpenSSL's)
    from hashlib import blake2b

__all__ = ["blake2b", "sign", "user_key"]


def user_key(make: bool = True) -> bytes:
    """The user's signing key (32 random bytes, made on first use unless `make` is false), or b""
    when there is none and no private place for one: then there is no cache."""
    home = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "launchlint")
    key_file = os.path.join(home, "cache-key")
    try:
        with open(key_file, "rb") as handle:
            return handle.read()
    except OSError:
        if not make:
            return b""
    try:
        os.makedirs(home, exist_ok=True)
        key = os.urandom(32)
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
        return key
    except FileExistsError:  # another run created it first
        return user_key(make=False)
    except OSError:
        return b""


def sign(key: bytes, payload: bytes) -> bytes:
    """Keyed BLAKE2b of `payload` (a key of at most 64 bytes: the key file's 32)."""
    return blake2b(payload, key=key[:64], digest_size=32).digest()
