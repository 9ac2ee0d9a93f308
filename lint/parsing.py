"""Per-file parsing: the only stage that scales with the project, so it runs in worker processes
and its results are cached. Only picklable facts cross a process boundary.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field

from .model import LineIndex, Location

POOL_MIN_FILES = 48  # below this, starting worker processes costs more than it saves
POOL_MIN_BYTES = 2 * 1024 * 1024


@dataclass
class FileFacts:
    """What the front end of one file produced."""

    path: str
    kind: str
    shell: object | None = None  # ShellScript
    python: object | None = None  # PythonModule
    errors: list[tuple[Location, str]] = field(default_factory=list)
    crash: str | None = None  # a launchlint bug: "TypeError: ..." (+ traceback with --debug)


def parse_file(path: str, kind: str, text: str, debug: bool = False) -> FileFacts:
    """Run the front end for one file's kind. Never raises."""
    facts = FileFacts(path, kind)
    try:
        _front_end(facts, text)
    except RecursionError:
        facts.errors.append((Location(path, 1, 1, 1, 1), "nesting too deep to analyse"))
    except Exception as error:  # a launchlint bug: report it, analyse the rest
        facts.crash = f"{type(error).__name__}: {error}"
        if debug:
            facts.crash += "\n" + "".join(traceback.format_exception(error))
    return facts


def _front_end(facts: FileFacts, text: str) -> None:
    path, kind = facts.path, facts.kind
    if kind == "shell":
        from .front.shell import parse_shell

        facts.shell = parse_shell(path, text, LineIndex(text))
        facts.errors.extend(facts.shell.parse_errors)
    elif kind == "python":
        from .front.pysource import parse_python

        facts.python = parse_python(path, text)
        facts.errors.extend(facts.python.parse_errors)
    elif kind == "yaml":
        from .front.yamldoc import parse_yaml

        result = parse_yaml(path, text, LineIndex(text))
        facts.shell = result.shell
        if result.shell is not None:
            facts.errors.extend(result.shell.parse_errors)
        facts.errors.extend(result.errors)


def _parse_batch(batch: list[tuple[str, str, str, bool]]) -> list[FileFacts]:
    return [parse_file(*item) for item in batch]


def parse_many(items: list[tuple[str, str, str]], jobs: int, debug: bool = False) -> Iterable[FileFacts]:
    """Parse (path, kind, text) items, in worker processes when there are enough of them."""
    size = sum(len(text) for _, _, text in items)
    if jobs <= 1 or (len(items) < POOL_MIN_FILES and size < POOL_MIN_BYTES):
        for path, kind, text in items:
            yield parse_file(path, kind, text, debug)
        return
    yield from _in_pool(items, jobs, debug)


def _in_pool(items, jobs: int, debug: bool) -> Iterable[FileFacts]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Batches of similar byte size keep both workers busy without one message per file.
    batches: list[list] = [[]]
    budget = max(64 * 1024, sum(len(t) for _, _, t in items) // (jobs * 8))
    weight = 0
    for path, kind, text in items:
        batches[-1].append((path, kind, text, debug))
        weight += len(text) + 512
        if weight >= budget:
            batches.append([])
            weight = 0
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    limit = sys.getrecursionlimit()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_init, initargs=(limit,)) as pool:
        for facts in pool.map(_parse_batch, [b for b in batches if b]):
            yield from facts


def _worker_init(limit: int) -> None:
    sys.setrecursionlimit(limit)


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
