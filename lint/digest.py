"""BLAKE2b, the one hash launchlint's cache and front ends use, from CPython's own module:
importing `hashlib` loads OpenSSL, 3 ms of every run's start-up (medians of 31 runs). Keyed, it
is also the cache's signature (a MAC by design, in one call where HMAC takes two hashes)."""

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib finds one (OpenSSL's)
    from hashlib import blake2b

__all__ = ["blake2b"]
