"""BLAKE2b, the hash of the cache's keys and the front ends' stand-in names, from CPython's own
module: importing `hashlib` loads OpenSSL, 3 ms of every run's start-up (medians of 31 runs).
Keyed, it is also the cache's signature (a MAC by design, in one call where HMAC takes two
hashes). A baseline's fingerprints stay SHA-256: users keep them in their files."""

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib finds one (OpenSSL's)
    from hashlib import blake2b

__all__ = ["blake2b"]
