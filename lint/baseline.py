"""Baselines and stable fingerprints.

A finding's fingerprint hashes its code, its path and the *content* of its source line (not the
line number), plus how many identical findings came before it in the file; so inserting lines
elsewhere does not make an old finding new, and SARIF consumers can track it across commits.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter

from .errors import UsageError
from .model import Finding, LineIndex
from .paths import normal, relative_to
from .replay import marked_root, read_regular, saw
from .report import json_text

VERSION = 1


class BaselineError(UsageError):
    """An unreadable or malformed baseline file: one line, exit 2."""


def fingerprints(findings: list[Finding], indexes: dict[str, LineIndex], named=str) -> list[str]:
    """`named`: a finding's path as the baseline records it (`Anchor`)."""
    seen: Counter[str] = Counter()
    prints = []
    for finding in findings:
        index = indexes.get(finding.location.path)
        content = index.line_text(finding.location.line).strip() if index else ""
        key = "\0".join((finding.code, named(finding.location.path), content))
        seen[key] += 1
        digest = hashlib.sha256(f"{key}\0{seen[key]}".encode("utf-8", "surrogatepass")).hexdigest()
        prints.append(digest[:32])
    return prints


class Anchor:
    """A baseline's paths are relative to the project root of the directory the baseline file is
    in, whatever root a run finds from its PATHs: a baseline written with `launchlint .` at the
    top of a monorepo still matches a pre-commit run whose staged files lie in a sub-project with
    its own `pyproject.toml` (the run's root is then that sub-project's, `run.sh` for the
    baseline's `svc/a/run.sh`). Where the baseline sits at the run's root, as usual, or in no
    project, a path is the run's own."""

    def __init__(self, baseline: str, root: str) -> None:
        self.root = root
        self.anchor = marked_root(os.path.dirname(os.path.realpath(baseline))) or root

    def __call__(self, path: str) -> str:
        absolute = normal(os.path.join(self.root, path))
        rel = relative_to(absolute, self.anchor)
        return absolute if rel is None else rel


def baseline_text(findings: list[Finding], indexes: dict[str, LineIndex], named=str) -> str:
    """The baseline file that records `findings` (`--write-baseline`)."""
    entries = [
        {"code": f.code, "path": named(f.location.path), "fingerprint": p}
        for f, p in zip(findings, fingerprints(findings, indexes, named))
    ]
    return json_text({"version": VERSION, "findings": entries})


def _entry(entry) -> tuple[str, str, str]:
    """A baseline finding's (code, path, fingerprint), each a string: one that is not never
    matched, in silence."""
    key = (entry["code"], entry["path"], entry["fingerprint"])
    if not all(type(part) is str for part in key):
        raise TypeError(key)
    return key


def without_baseline(path: str, findings: list[Finding], indexes: dict[str, LineIndex], named=str) -> list[Finding]:
    """The findings that are not in the baseline (each baseline entry absorbs one finding)."""
    saw(path)
    try:
        data = json.loads(read_regular(path).decode("utf-8"))  # a FIFO or device: OSError
        entries = data["findings"]
        if type(entries) is not list:  # `{}` or `""` read as no findings: every old one came back, unexplained
            raise TypeError(entries)
        version = data.get("version", VERSION)  # a hand-written baseline may leave it out
        known = Counter(_entry(e) for e in entries)
    except OSError as error:
        raise BaselineError(f"cannot read baseline {path}: {error.strerror or error}") from None
    except ValueError as error:  # UnicodeDecodeError and json's errors too
        raise BaselineError(f"cannot read baseline {path}: not JSON ({error})") from None
    except RecursionError:  # `[[[[...` 100,000 deep: json recurses per level
        raise BaselineError(f"cannot read baseline {path}: nested too deeply to be a baseline") from None
    except (KeyError, TypeError):
        raise BaselineError(
            f'cannot read baseline {path}: not a launchlint baseline (an object with a "findings" list, each '
            'finding an object with "code", "path" and "fingerprint" strings; --write-baseline makes one)'
        ) from None
    if version != VERSION or type(version) is bool:  # a newer launchlint's format: its entries may not mean ours
        raise BaselineError(
            f"cannot read baseline {path}: its format is version {json.dumps(version)}, this launchlint reads version "
            f"{VERSION}; upgrade launchlint, or write the baseline again with --write-baseline"
        )
    fresh = []
    for finding, print_ in zip(findings, fingerprints(findings, indexes, named)):
        key = (finding.code, named(finding.location.path), print_)
        if known[key] > 0:
            known[key] -= 1
        else:
            fresh.append(finding)
    return fresh
