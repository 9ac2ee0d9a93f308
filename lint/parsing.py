"""Per-file parsing: the only stage that scales with the project, so it runs in worker processes
and its results are cached. Only picklable facts cross a process boundary.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import traceback
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field

from .model import LineIndex, Location

POOL_MIN_FILES = 48  # below this, starting worker processes costs more than it saves
POOL_MIN_BYTES = 2 * 1024 * 1024


def _budget_from_environment(default: float = 20.0) -> float:
    """`LAUNCHLINT_BUDGET=SECONDS` overrides the default (tests, slow machines); a value that is
    not a positive number leaves the default."""
    try:
        seconds = float(os.environ.get("LAUNCHLINT_BUDGET", default))
    except ValueError:
        return default
    return seconds if seconds > 0 else default


BUDGET_SECONDS = _budget_from_environment()  # per file: a pathological file gets LL001, not a stalled run


class OverBudget(Exception):
    pass


@contextmanager
def _budget(seconds: float):
    """Interrupt the front end after `seconds` (POSIX main thread only; elsewhere no limit)."""
    usable = seconds > 0 and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise OverBudget

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def no_cyclic_gc():
    """The facts are millions of small objects kept to the end: collecting them is wasted work
    that grows with the file (2.3x faster on a 1 MB script)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class FileFacts:
    """What the front end of one file produced."""

    path: str
    kind: str
    shell: object | None = None  # ShellScript
    python: object | None = None  # PythonModule
    log_settings: list = field(default_factory=list)  # LogSetting: a YAML config's log paths
    launch_settings: dict = field(default_factory=dict)  # an accelerate config's keys -> Word
    errors: list[tuple[Location, str]] = field(default_factory=list)
    crash: str | None = None  # a launchlint bug: "TypeError: ..." (+ traceback with --debug)
    stopped: bool = False  # over the time budget: says how busy the machine was, not the file


def parse_file(path: str, kind: str, text: str, debug: bool = False, budget: float = BUDGET_SECONDS) -> FileFacts:
    """Run the front end for one file's kind. Never raises."""
    facts = FileFacts(path, kind)
    try:
        with _budget(budget), no_cyclic_gc():
            _front_end(facts, text)
    except OverBudget:
        stop = (Location(path, 1, 1, 1, 1), f"analysis stopped after {budget:g} s")
        facts = FileFacts(path, kind, errors=[stop], stopped=True)
    except RecursionError:
        facts.errors.append((Location(path, 1, 1, 1, 1), "nesting too deep to analyse"))
    except Exception as error:  # noqa: BLE001  a launchlint bug: report it, analyse the rest
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
        facts.log_settings = result.log_settings
        facts.launch_settings = result.launch_settings
    elif kind in ("makefile", "markdown"):
        from .front.makefile import parse_makefile
        from .front.markdown import parse_markdown

        parse = parse_makefile if kind == "makefile" else parse_markdown
        facts.shell = parse(path, text, LineIndex(text))
        if facts.shell is not None:
            facts.errors.extend(facts.shell.parse_errors)


def _parse_batch(batch: list[tuple[str, str, str, bool, float]]) -> list[FileFacts]:
    return [parse_file(*item) for item in batch]


def parse_many(
    items: list[tuple[str, str, str]], jobs: int, debug: bool = False, budget: float = BUDGET_SECONDS
) -> Iterable[FileFacts]:
    """Parse (path, kind, text) items, in worker processes when there are enough of them."""
    size = sum(len(text) for _, _, text in items)
    if jobs <= 1 or (len(items) < POOL_MIN_FILES and size < POOL_MIN_BYTES):
        for path, kind, text in items:
            yield parse_file(path, kind, text, debug, budget)
        return
    yield from _in_pool(items, jobs, debug, budget)


def _in_pool(items, jobs: int, debug: bool, budget: float) -> Iterable[FileFacts]:
    """`jobs - 1` worker processes parse most files while this process parses its own share.

    Sending a file's facts back costs about a quarter of parsing it (pickling here, unpickling
    there), so a pool of `jobs` workers with an idle parent was slower than one process on two
    cores; the parent's share needs no pickling at all.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    mine = len(items) // jobs
    # Batches of similar byte size keep the workers busy without one message per file.
    batches: list[list] = [[]]
    batch_size = max(64 * 1024, sum(len(t) for _, _, t in items[mine:]) // (jobs * 8))
    weight = 0
    for path, kind, text in items[mine:]:
        batches[-1].append((path, kind, text, debug, budget))
        weight += len(text) + 512
        if weight >= batch_size:
            batches.append([])
            weight = 0
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    limit = sys.getrecursionlimit()
    with ProcessPoolExecutor(max_workers=jobs - 1, mp_context=context, initializer=_worker_init, initargs=(limit,)) as pool:
        futures = [pool.submit(_parse_batch, batch) for batch in batches if batch]
        for path, kind, text in items[:mine]:
            yield parse_file(path, kind, text, debug, budget)
        for future in futures:
            yield from future.result()


def _worker_init(limit: int) -> None:
    sys.setrecursionlimit(limit)


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
