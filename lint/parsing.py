"""Per-file parsing: the only stage that scales with the project, so it runs in worker processes
and its results are cached. Only picklable facts cross a process boundary.
"""

from __future__ import annotations

import _signal as signal  # `signal` less its enums (3.3 M instructions to import): the same calls
import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .front import yaml_is_blank
from .model import LineIndex, Location, Record
from .paths import ends_in, written_tail

POOL_MIN_FILES = 48  # below this, starting worker processes costs more than it saves
POOL_MIN_BYTES = 2 * 1024 * 1024
# The least estimated work (microseconds, see COST) worth a process: a worker costs its fork, the
# pages it copies as it runs and the pickles of its facts both ways. On two cores, 60 small shell
# scripts took 73 ms in one process, 75 ms in two and 209 ms in 16 (`--jobs` defaults to the CPUs).
MIN_SHARE = 40000
# The least estimated work of its Python files for which a small run takes a worker: a trainer's
# facts cost a fifth of its parse to pickle and load where a script's cost half (at 1,000 files,
# per file: Python 2.4 ms to parse and 0.49 to move, shell 1.2 and 0.63), so with the hand-overs
# (`_in_workers`) a worker pays off on fewer of them. Interleaved medians of 25: the benchmark's
# 45 generated trainers alone (30,500) 196 -> 178 ms with a worker, 38 of them (28,000) 196 -> 172;
# its 45 scripts alone took 159 -> 182 ms with one, so scripts never count here, and a small run
# whose worker would get scripts (kinds are dealt whole, the dearest to move here) keeps one process: 38
# of those trainers and 9 scripts took 222 -> 229 ms with a worker.
SMALL_RUN_PYTHON = 25000


def _budget_from_environment(default: float = 20.0) -> float:
    """`LAUNCHLINT_BUDGET=SECONDS` overrides the default (tests, slow machines); a value that is
    not a positive number leaves the default here (the command line refuses it: `budget_error`)."""
    try:
        seconds = float(os.environ.get("LAUNCHLINT_BUDGET", default))
    except ValueError:
        return default
    return seconds if seconds > 0 else default


def budget_error() -> str | None:
    """What is wrong with LAUNCHLINT_BUDGET, for the command's one-line usage error (ruff refuses a
    bad RUFF_* value the same way), or None when it is unset or a number of seconds above 0."""
    value = os.environ.get("LAUNCHLINT_BUDGET")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    return None if seconds > 0 else f"LAUNCHLINT_BUDGET must be a number of seconds above 0, not {value!r}"


BUDGET_SECONDS = _budget_from_environment()  # per file: a pathological file gets LL001, not a stalled run


def traceback_text(error: BaseException) -> str:
    """The traceback `--debug` adds to an internal error (LL003). `traceback` is imported here, on
    the rare run that needs it: with textwrap it was 1.5 ms of every run's start-up."""
    import traceback

    return "".join(traceback.format_exception(error))


class OverBudget(Exception):
    pass


# A timer longer than about 2**31 s overflows the platform's time_t (OverflowError: an LL003 from
# every rule): LAUNCHLINT_BUDGET=inf or 1e10 (no budget, in effect), times the files a rule covers.
LONGEST_TIMER = 1e8  # three years


@contextmanager
def time_budget(seconds: float):
    """Interrupt the front end (or a rule) after `seconds` (POSIX main thread only; elsewhere no limit: there
    `signal.signal` refuses, which spares every run importing threading to ask)."""

    def expire(signum, frame):
        raise OverBudget

    try:
        usable = seconds > 0 and hasattr(signal, "setitimer")
        previous = signal.signal(signal.SIGALRM, expire) if usable else None
    except ValueError:  # not the main thread
        usable = False
    if not usable:
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, min(seconds, LONGEST_TIMER))
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


class FileFacts:
    """What the front end of one file produced."""

    def __init__(
        self,
        path: str,
        kind: str,
        shell: object | None = None,
        python: object | None = None,
        log_settings: list | None = None,
        launch_settings: dict | None = None,
        errors: list[tuple[Location, str]] | None = None,
        warnings: list[str] | None = None,
        crash: str | None = None,
        stopped: bool = False,
    ) -> None:
        self.path = path
        self.kind = kind
        self.shell = shell  # ShellScript
        self.python = python  # PythonModule
        self.log_settings = [] if log_settings is None else log_settings  # LogSetting: a YAML config's log paths
        self.launch_settings = {} if launch_settings is None else launch_settings  # an accelerate config's keys -> Word
        self.errors = [] if errors is None else errors
        self.warnings = [] if warnings is None else warnings  # for stderr: the file was not analysed, and why
        self.crash = crash  # a launchlint bug: "TypeError: ..." (+ traceback with --debug)
        self.stopped = stopped  # over the time budget: says how busy the machine was, not the file


def command_lines_read(items: list[tuple[str, str, str]]) -> frozenset[str]:
    """The Python files of these (path, kind, text) items whose command lines the front end reads
    as it parses them: the ones another file names, `x.py` or `-m pkg.x` (a script, the shell in
    YAML, a Makefile, a justfile or Markdown, where a launch is written); a path after a variable by what
    follows it (`"$SCRIPT_DIR/../train/x.py"` names `train/x.py`), a module's name only when static.

    Only LL301 and LL302 read a command line: that of a program a launch runs, when the launch
    names its file (statically, or from the launcher's own directory), or of the module its
    parser comes from. Any other's is read when asked for (`programs.command_line` parses the
    module again then), so a name this screen misses (`DIR=train; python $DIR/x.py`) costs time,
    never a finding, and one it takes in vain costs the reading. On the 1,000-file benchmark
    project, whose launchers name their trainers `"$SCRIPT_DIR/../train/x.py"`, reading every
    module's command line was 407 M instructions of the Python front end's 2,929 (callgrind,
    PYTHONHASHSEED=0); parsing a launched trainer again in this process for its command line
    cost more (a run 50% longer, when those paths started to resolve)."""
    named: dict[str, set[str | None]] = {}
    for _, kind, text in items:
        if kind != "python":
            _static_names(text, ".py", named)
            _static_names(text, "-m", named)
    return frozenset(path for path, kind, _ in items if kind == "python" and _is_named(path, named))


def _is_named(path: str, named: dict[str, set[str | None]]) -> bool:
    """Whether something written in `named` (by its last part) can name `path`: a script's path
    as programs.launched reads it (`paths.may_name`: `path` ends in its tail), or a module's name
    or an absolute path (None)."""
    return any(ends_in(path, tail) for name in _names_of(path) for tail in named.get(name, ()))


_WORD_ENDS = frozenset(" \t\r\n\"'=;|&()<>`")


def _static_names(text: str, marker: str, named: dict[str, set[str | None]]) -> None:
    """Add what names a program where `text` has `marker`, by its last part: `.py` ends a
    script's path (`x`: its `paths.written_tail`, normalised once here rather than for each
    namesake it is matched with: at 10,000 files, 21,752 matches of 1,011 paths), `-m` (or
    `--module`) comes before a module's dotted name (`x`: None, any module of that name). A word
    with `$` is not static (a backquote or a parenthesis ends it): no launch reads a command line
    through it."""
    at = text.find(marker)
    while at != -1:
        if marker == ".py":
            end = at + 3
            if end == len(text) or not (text[end].isalnum() or text[end] == "_"):  # not `.pyc`, `.pyi`
                first = at
                while first > 0 and text[first - 1] not in _WORD_ENDS:
                    first -= 1
                word = text[first:end]
                if "$" in word or "}}" in word:  # `"$SCRIPT_DIR/../train/x.py"`, a justfile's `{{dir}}/x.py`: what follows it
                    slash = word.find("/", max(word.rfind("$"), word.rfind("}}")))
                    word = "" if slash == -1 else word[slash + 1 :]
                if word:
                    named.setdefault(word[:-3].rpartition("/")[2], set()).add(written_tail(word))
        else:
            end = at + 2
            if text.startswith("odule", end):  # `--module`
                end += 5
            if end < len(text) and text[end] in " \t=" and (at == 0 or text[at - 1] in " \t-\"'"):
                first = end + 1
                while first < len(text) and text[first] in " \t":
                    first += 1
                last = first
                while last < len(text) and text[last] not in _WORD_ENDS:
                    last += 1
                word = text[first:last]
                if word and "$" not in word:
                    named.setdefault(word.rpartition(".")[2], set()).add(None)
        at = text.find(marker, end)


def _names_of(path: str) -> tuple[str, ...]:
    """What names a Python file in a launch: its stem, and its package's for `__main__.py` (`-m
    pkg`) and `__init__.py`."""
    directory, _, name = path.rpartition("/")
    stem = name[: -len(".py")] if name.endswith(".py") else name
    if stem in ("__main__", "__init__"):
        return (stem, directory.rpartition("/")[2])
    return (stem,)


def parse_file(
    path: str, kind: str, text: str, debug: bool = False, budget: float = BUDGET_SECONDS, cli: bool = True
) -> FileFacts:
    """Run the front end for one file's kind. Never raises. `cli`: read the command line a
    Python module defines (see `command_lines_read`)."""
    facts = FileFacts(path, kind)
    try:
        with time_budget(budget), no_cyclic_gc():
            _front_end(facts, text, cli)
    except OverBudget:
        stop = (Location(path, 1, 1, 1, 1), f"analysis stopped after {budget:g} s")
        facts = FileFacts(path, kind, errors=[stop], stopped=True)
    except RecursionError:
        facts.errors.append((Location(path, 1, 1, 1, 1), "nesting too deep to analyse"))
    except Exception as error:  # noqa: BLE001  a launchlint bug: report it, analyse the rest
        facts.crash = f"{type(error).__name__}: {error}"
        if debug:
            facts.crash += "\n" + traceback_text(error)
    return facts


def _front_end(facts: FileFacts, text: str, cli: bool) -> None:
    path, kind = facts.path, facts.kind
    if kind == "shell":
        from .discover import is_shader, other_shell
        from .front.shell import parse_shell

        other = other_shell(path, text)
        if other is not None:  # its commands read as bash would be a misreading, its syntax bash's errors
            facts.warnings.append(f"{path}: a {other} script, not bash: not analysed (launchlint reads bash, sh, dash, ksh and zsh)")
            return
        if is_shader(text):
            facts.warnings.append(f"{path}: an OpenGL shader (`#version` first), not a shell script: not analysed")
            return
        facts.shell = parse_shell(path, text, LineIndex(text))
        facts.errors.extend(facts.shell.parse_errors)
    elif kind == "python":
        from .front.pysource import parse_python

        facts.python = parse_python(path, text, cli)
        facts.errors.extend(facts.python.parse_errors)
        if facts.python.newer_syntax is not None:
            where, what = facts.python.newer_syntax
            facts.warnings.append(
                f"{path}:{where.line}: {what}, which Python {sys.version_info[0]}.{sys.version_info[1]} "
                "cannot parse: not analysed (run launchlint on a newer Python)"
            )
    elif kind == "yaml":
        if yaml_is_blank(text):
            return
        from .front.yamldoc import parse_yaml

        result = parse_yaml(path, text, LineIndex(text))
        facts.shell = result.shell
        if result.shell is not None:
            facts.errors.extend(result.shell.parse_errors)
        facts.errors.extend(result.errors)
        facts.warnings.extend(result.warnings)
        facts.log_settings = result.log_settings
        facts.launch_settings = result.launch_settings
    elif kind in ("makefile", "justfile", "markdown"):
        if kind == "makefile":
            from .front.makefile import parse_makefile as parse
        elif kind == "justfile":
            from .front.justfile import parse_justfile as parse
        else:
            from .front.markdown import parse_markdown as parse

        facts.shell = parse(path, text, LineIndex(text))
        if facts.shell is not None:
            facts.errors.extend(facts.shell.parse_errors)


Keep = Callable[[FileFacts, str, "bytes | None"], None]  # (facts, the file's text, their pickle if made)


class _How(Record):
    """How every file of a run is parsed, in whichever process: `parse_file`'s `debug` and
    `budget`, `keep`, the cache's store (None: no cache), and `cli`, the Python files whose
    command lines are read (None: all)."""

    debug: bool
    budget: float
    keep: Keep | None
    cli: frozenset[str] | None

    def reads_command_line(self, path: str) -> bool:
        return self.cli is None or path in self.cli


def parse_many(
    items: list[tuple[str, str, str]],
    jobs: int,
    debug: bool = False,
    budget: float = BUDGET_SECONDS,
    keep: Keep | None = None,
    cli: frozenset[str] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> list[FileFacts]:
    """Parse (path, kind, text) items, in worker processes when there are enough of them and the
    system can fork (not Windows: there, in this process): each file's facts, in their order.

    `keep` (the cache's store) is called in the process that parsed the file, with the pickle a
    worker made of the facts: a worker stores its share while this process parses and stores its
    own. Stored by this process alone, the entries of the 1,000-file project cost a first run
    with the cache 0.28 s of its 0.88 (a file created per entry). `cli`: the Python files whose
    command lines are read (`command_lines_read`; None: every one).

    `meanwhile` is work of this process's own that needs no facts (the rules' imports): called
    once the workers are at work, it is part of this process's share of the parsing time, which
    the hand-overs even out, not time the workers wait for this process to be done.

    A Python file whose text an earlier item has too (a symbolic link to it, a copy), its command
    line read or not as that one's, is not parsed: it gets that file's facts moved to its own path
    (`_movable`), unless they are not the same there (then it is parsed, after the others). In
    icefall, 1,505 of 2,823 Python files have an earlier one's text (1,355 are links to shared
    recipe modules): moved, they cost 1.4 s of CPU where their parses cost 10.4, and a run 7.8 s
    of CPU where it took 15.0 (the tree without its links: 6.9)."""
    how = _How(debug, budget, keep, cli)
    first: dict[tuple[str, bool], int] = {}  # (a Python text, its command line read) -> the first item with it
    copies: dict[int, int] = {}  # an item -> the earlier one it is a copy of
    for i, (path, kind, text) in enumerate(items):
        if kind == "python":
            copies[i] = first.setdefault((text, how.reads_command_line(path)), i)
    unique = [i for i in range(len(items)) if copies.get(i, i) == i]
    facts = dict(zip(unique, _parse_all([items[i] for i in unique], jobs, how, meanwhile)))
    movable: dict[int, bytes | None] = {}
    again = []  # the copies whose facts are not the first's moved
    for i, original in copies.items():
        if i == original:
            continue
        if original not in movable:
            movable[original] = _movable(facts[original])
        if movable[original] is None:
            again.append(i)
        else:
            facts[i] = _moved(movable[original], items[i][0])
            if keep is not None:
                keep(facts[i], items[i][2], None)
    facts.update(zip(again, _parse_all([items[i] for i in again], jobs, how)))
    return [facts[i] for i in range(len(items))]


def _parse_all(items: list[tuple[str, str, str]], jobs: int, how: _How, meanwhile: Callable[[], object] | None = None) -> Iterator[FileFacts]:
    jobs = processes_for(items, jobs)
    if jobs <= 1:
        for item in items:
            yield _parsed(item, how)
        return
    yield from _in_workers(items, jobs, how, meanwhile)


def _movable(facts: FileFacts) -> bytes | None:
    """The facts of a Python file as `_moved` takes them to another path: their pickle with each
    reference to the path they were made at (every Location's, the module's) left out. None when
    the front end would not make these facts at another path: they hold names made of the module's
    dotted name (`own_name_used`), a warning (it names the file), a crash or a stop."""
    module = facts.python
    if module is None or module.own_name_used or facts.warnings or facts.crash or facts.stopped:
        return None
    import io
    import pickle

    made_at = facts.path
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.persistent_id = lambda value: 0 if type(value) is str and value == made_at else None
    pickler.dump(facts)
    return out.getvalue()


def _moved(movable: bytes, path: str) -> FileFacts:
    """The facts `_movable` pickled, at `path`: what `parse_file` makes of the same text there."""
    import io
    import pickle

    from .pyfacts import module_name

    unpickler = pickle.Unpickler(io.BytesIO(movable))
    unpickler.persistent_load = lambda _: path
    facts = unpickler.load()
    facts.python.module, facts.python.is_package = module_name(path)
    return facts


def processes_for(items: list[tuple[str, str, str]], jobs: int) -> int:
    """How many of `jobs` processes parse `items`: one where the system cannot fork, for a small
    run (under POOL_MIN_FILES files and POOL_MIN_BYTES) unless its Python files are work enough
    for two (SMALL_RUN_PYTHON) and the worker would get no script, and for less than two
    MIN_SHAREs of estimated work; else one per MIN_SHARE, up to `jobs`."""
    if jobs <= 1 or not hasattr(os, "fork"):
        return 1
    if len(items) < POOL_MIN_FILES and sum(len(text) for _, _, text in items) < POOL_MIN_BYTES:
        if sum(_cost(item) for item in items if item[1] == "python") < SMALL_RUN_PYTHON:
            return 1
        return 1 if any(items[i][1] == "shell" for i in _shares(items, 2)[1]) else 2
    work = sum(map(_cost, items)) + sum(COST_PER_KIND.get(kind, 0) for kind in {kind for _, kind, _ in items})
    return min(jobs, max(1, int(work / MIN_SHARE)))


def _parsed(item: tuple[str, str, str], how: _How) -> FileFacts:
    facts = parse_file(*item, how.debug, how.budget, how.reads_command_line(item[0]))
    if how.keep is not None:
        how.keep(facts, item[2], None)
    return facts


def _in_workers(items, jobs: int, how: _How, meanwhile: Callable[[], object] | None = None) -> Iterator[FileFacts]:
    """`jobs - 1` forked workers parse their shares while this process parses its own; whichever
    is done first takes part of what the other has left.

    Each worker gets its share up front and sends each file's pickle as soon as it is made
    (`_work`), then says it is idle and waits for orders (`_message`). Between its own files this
    process moves what has come out of the pipes (`_drain`), so a worker never waits on a full
    pipe, unpickles the facts that have come (`_Worker.take`), and answers an idle worker with
    the last part of its own files (`_given`). Done first, it claims the last part of what a busy
    worker has left (`_Worker.claim`) and parses what the worker gives back; then it orders every
    worker to leave once idle, and takes the rest of their facts as they come. The shares are
    estimates (COST), and the real cost of a file swings with the tree (a real shell script costs
    up to three times a generated one) and the moment: handing over and claiming back even out
    what the estimate missed. The facts come out in the order of `items`, however the work went,
    so the project is the same from run to run.

    A worker is a bare `os.fork` with two pipes (1 ms): `multiprocessing` took 25 ms to import and
    start one (its connection module imports socket and tempfile), a fifth of a 100-file run. A
    `ProcessPoolExecutor` fed batches through a thread of this process, which had to win the GIL
    from the parsing here: its worker sat idle between batches and two processes were no faster
    than one. A worker that dies (a crash in a parser's C code) costs the files it had not sent a
    second parse here.
    """
    # Before the fork, for `_pickled` and `_unpickled` on both sides; a run without workers never
    # imports it (2 ms of its start).
    import pickle  # noqa: F401

    mine, *shares = _shares(items, jobs, PARENT_LOAD if how.keep is None else PARENT_LOAD_CACHING)
    done: dict[int, FileFacts] = {}

    def store(i: int, payload: bytearray | None) -> None:
        """A worker's facts of items[i], from their pickle (None: it could not pickle them)."""
        facts = _unpickled(payload) if payload is not None else None  # None: parsed here instead
        done[i] = facts if facts is not None else _parsed(items[i], how)

    workers: list[_Worker] = []
    for share in filter(None, shares):  # more jobs than the files need: no process for nothing
        try:
            orders, control = os.pipe()
        except OSError:
            mine += share
            continue
        try:
            pid, pipe = _fork(_work, items, share, how, orders, control)
        except OSError:  # no process or pipe to be had (EAGAIN, EMFILE): the share is parsed here
            mine += share
            os.close(orders)
            os.close(control)
            continue
        os.close(orders)
        os.set_blocking(pipe, False)
        workers.append(_Worker(pid, pipe, control, list(share), store))

    def parse_here(indices: list[int], hand_over: bool) -> None:
        indices.sort(reverse=True)  # parsed from the end of the list: its first files first
        while indices:
            i = indices.pop()
            done[i] = _parsed(items[i], how)
            for worker in workers:
                _drain(worker.pipe, worker.received)
                worker.take()
                if hand_over and worker.waiting():
                    given = _given(items, indices, worker.kinds(items))
                    if given:
                        worker.order(given)
                    else:  # too little left to be worth it, and ever less: the worker waits for the end
                        worker.declined = True

    if meanwhile is not None:
        meanwhile()
    parse_here(mine, True)
    for worker in workers:  # done here first: take back part of what the workers have left
        worker.claim(items)
    parse_here([i for worker in workers for i in worker.returned()], False)
    for worker in workers:
        worker.order([])  # nothing more: the worker leaves once idle
    for worker in workers:
        os.set_blocking(worker.pipe, True)
        while chunk := os.read(worker.pipe, 1 << 20):
            worker.received += chunk
            worker.take()
        os.close(worker.pipe)
        os.close(worker.control)
        os.waitpid(worker.pid, 0)
        for i in worker.assigned[worker.sent :]:  # the worker died before it sent these
            done[i] = _parsed(items[i], how)
    for i in sorted(done):
        yield done[i]


class _Worker:
    """This process's side of a worker: its pipes, what it was given (in order), and its frames
    as they come in."""

    def __init__(self, pid: int, pipe: int, control: int, assigned: list[int], store) -> None:
        self.pid, self.pipe, self.control = pid, pipe, control
        self.assigned = assigned  # indices of items, in the order the worker parses them
        self.store = store  # store(i, pickle or None): the facts of items[i]
        self.received = bytearray()
        self.sent = 0  # frames of facts taken (pickled or not)
        self.idle = 0  # IDLE frames seen
        self.returns: list[int] = []  # the counts of the RETURNED frames seen
        self.answered = 0  # orders sent
        self.declined = False  # it was idle when too little was left here to hand over
        self.claimed = False

    def take(self) -> None:
        """Store the facts of the whole frames received so far, count the others. Unpickled as
        they come, between this process's own files, the worker's facts are part of this
        process's share of the work, which handing over and claiming back even out (unpickled at
        the end, they took 100-130 ms of a 1,400 ms run of the 1,000-file project, in this
        process alone)."""
        taken = 0
        for length, start, end in _whole_frames(self.received):
            if length == IDLE_LENGTH:
                self.idle += 1
            elif length == RETURNED_LENGTH:
                self.returns.append(int.from_bytes(self.received[start:end], "little"))
            else:
                self.sent += 1
                self.store(self.assigned[self.sent - 1], None if length == NOT_PICKLED else self.received[start:end])
            taken = end
        del self.received[:taken]

    def waiting(self) -> bool:
        """Whether the worker said it was idle since the last order (and may be handed more)."""
        return not self.declined and self.idle > self.answered

    def kinds(self, items) -> set[str]:
        return {items[i][1] for i in self.assigned}

    def order(self, given: list[int]) -> None:
        """Send more items (none: leave). A worker that died cannot read it: its files are parsed
        here at the end, as for any worker that dies."""
        if self._write(len(given).to_bytes(4, "little") + b"".join(i.to_bytes(4, "little") for i in given)):
            self.assigned += given
            self.answered += 1

    def claim(self, items) -> None:
        """Ask a busy worker for the last of the files it has not sent, half their estimated cost
        (the file it is parsing excluded), when that is worth it (MIN_GIVEN)."""
        if self.idle > self.answered:
            return
        count, cost = _last_part(items, self.assigned[self.sent + 1 :][::-1], 0.5)
        if cost >= MIN_GIVEN:
            self.claimed = self._write(CLAIM.to_bytes(4, "little") + count.to_bytes(4, "little"))

    def returned(self) -> list[int]:
        """What the worker gave back of what was claimed: its indices, no longer its. Waits for
        its answer; none from a worker that died."""
        while self.claimed and not self.returns:
            _wait_readable(self.pipe, None)
            try:
                chunk = os.read(self.pipe, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                return []
            self.received += chunk
            self.take()
        count = self.returns[0] if self.returns else 0
        if not count:
            return []
        back = self.assigned[-count:]
        del self.assigned[-count:]
        return back

    def _write(self, message: bytes) -> bool:
        try:
            os.write(self.control, message)
        except OSError:
            return False
        return True


# The least estimated work (microseconds, see COST) this process hands an idle worker: less is
# done here sooner than it is pickled there, sent and unpickled here.
MIN_GIVEN = 8000


def _given(items, mine: list[int], kinds: set[str]) -> list[int]:
    """What this process hands an idle worker, taken out of `mine` (its files still to parse, in
    reverse: it parses from the list's end): its last files, 40% of their estimated cost, as a
    worker parses a file slower (its pickles, the pages it copies) and this process unpickles it;
    nothing when that is under MIN_GIVEN plus the start of a kind the worker has not parsed."""
    count, cost = _last_part(items, mine, 0.4)
    given = mine[:count]
    starts = sum(COST_PER_KIND.get(kind, 0) for kind in {items[i][1] for i in given} - kinds)
    if cost < MIN_GIVEN + starts:
        return []
    del mine[: len(given)]
    return given[::-1]  # in the order of the items, as the worker's share


def _last_part(items, last_first: list[int], fraction: float) -> tuple[int, float]:
    """How many of the files `last_first` (indices of items, the last file first) it takes, from
    the first, to make `fraction` of their estimated cost; and their cost."""
    total = sum(_cost(items[i]) for i in last_first)
    count, cost = 0, 0.0
    while count < len(last_first) and cost < fraction * total:
        cost += _cost(items[last_first[count]])
        count += 1
    return count, cost


_LENGTH = 8  # bytes of a frame's length: the pickle's, NOT_PICKLED or IDLE_LENGTH
NOT_PICKLED = (1 << 64) - 1
IDLE_LENGTH = (1 << 64) - 2  # a worker has parsed all it was given
RETURNED_LENGTH = (1 << 64) - 3  # a worker gives back its last N files (N in the next 8 bytes)
CLAIM = (1 << 32) - 1  # in place of an order's count: this process asks for files back


def _payload_size(length: int) -> int:
    """The bytes that follow a frame's length field."""
    if length in (NOT_PICKLED, IDLE_LENGTH):
        return 0
    return _LENGTH if length == RETURNED_LENGTH else length


def _drain(pipe: int, received: bytearray) -> None:
    """Move what a worker has sent so far into `received`, without waiting."""
    try:
        while chunk := os.read(pipe, 1 << 20):
            received += chunk
    except BlockingIOError:
        pass


def _whole_frames(received: bytearray) -> Iterator[tuple[int, int, int]]:
    """(length field, start, end of what follows it) of each whole frame at the start of
    `received`: a frame cut short (not all here yet, or the worker died while writing it) ends
    them."""
    start = 0
    while len(received) - start >= _LENGTH:
        length = int.from_bytes(received[start : start + _LENGTH], "little")
        end = start + _LENGTH + _payload_size(length)
        if len(received) < end:
            return
        yield length, start + _LENGTH, end
        start = end


def _fork(work, *args) -> tuple[int, int]:
    """Run `work(*args, pipe)` in a forked child, where `pipe` is the write end of a pipe; returns
    the child's pid and the read end. The child never returns into its caller's code: it leaves
    with `os._exit`, which also leaves this process's unflushed output and exit handlers alone. It
    has this process's recursion limit and collector state (off, in a run)."""
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        raise
    if pid == 0:
        try:
            os.close(read)
            work(*args, write)
        finally:
            os._exit(0)
    os.close(write)
    return pid, read


# The weight of this process's load: a forked worker parses slower than this process (copy-on-write
# page faults, pickling its facts), which outweighs this process unpickling the workers' facts at
# the end (50-80 ms of the 1,000-file benchmark project). There, 0.8 and 0.9 took the same time
# (860 ms, interleaved); how long each side takes swings by a third from run to run.
PARENT_LOAD = 0.9
# The same when the cache is written: a worker has pickled its facts for the pipe already, this
# process pickles its own for the cache only. On a first run of the 1,000-file project (21 runs,
# interleaved): 0.9 took 714 ms, 1.15 680 ms, 1.3 708 ms.
PARENT_LOAD_CACHING = 1.15
# Front-end cost of a file of each kind, in microseconds: (per byte, per file). Fitted to the
# generated 1,000-file project and to Megatron-LM and verl, which disagree: a generated trainer is
# dense in what the front end reads (0.43 us a byte) where a real module is mostly other code (0.22),
# and a real shell script costs up to three times a generated one. Against the old model (a byte of
# Python twice one of shell), interleaved: the 1,000-file project 844 -> 788 ms, DeepSpeedExamples
# 1,302 -> 1,204 ms, Megatron-LM 4.2 -> 3.5 s; fitted to the generated files alone, Megatron-LM
# took 5.7 s. Other kinds (Makefiles, justfiles, Markdown): DEFAULT_COST.
COST = {"python": (0.3, 100), "shell": (0.25, 250), "yaml": (0.5, 100)}
DEFAULT_COST = (0.5, 250)
# What a process pays for the first file of a kind, on top of that file's cost: importing its
# front end and parser (PyYAML's import compiles a large regex; tree-sitter loads its grammar).
# Medians over the first file of the 100- and 1,000-file benchmark projects, less a typical file.
COST_PER_KIND = {"python": 9000, "shell": 12000, "yaml": 21000}
# What moving a file's facts from a worker to this process costs (the pickle made there and loaded
# here), as a fraction of its parse: instructions counted (callgrind) over 100 files of each kind of
# the 1,000-file benchmark project. A script's facts are many small objects (each word with its
# location and the offsets of its characters), a trainer's fewer for its parse. Makefiles and
# Markdown give shell facts. Dealing the scripts to this process and the trainers to the worker,
# not the other way round (by size), took that project 1,574 -> 1,494 ms and 2,901 -> 2,676 ms of
# CPU, the 10,000-file one 14.77 -> 12.26 s (interleaved medians of 15 and 3).
TRANSFER = {"shell": 0.57, "python": 0.21, "yaml": 0.14}
DEFAULT_TRANSFER = TRANSFER["shell"]


def _cost(item: tuple[str, str, str]) -> float:
    per_byte, per_file = COST.get(item[1], DEFAULT_COST)
    return len(item[2]) * per_byte + per_file


def _shares(items, jobs: int, parent_load: float = PARENT_LOAD) -> list[list[int]]:
    """Indices of `items` in `jobs` shares of about equal cost, this process's first.

    A process pays a kind's start (COST_PER_KIND) once it parses a file of that kind, so kinds
    are dealt out whole first, each to the least loaded share, the kind whose facts cost most to
    move (TRANSFER) first: to this process, where they need not move; then the most loaded share
    gives its cheapest files of one kind to the least loaded while that lowers the higher of the
    two. On the 100-file benchmark project, whole kinds (then the Python files here, the shell and
    YAML ones in the worker) took 195 ms where splitting every kind took 209 (medians of 15 runs),
    and 42 ms less CPU; dealt by TRANSFER (the scripts here), 305 -> 284 ms (of 21)."""
    costs = [_cost(item) for item in items]
    weights = [parent_load] + [1.0] * (jobs - 1)
    kinds: dict[str, list[int]] = {}
    for i in sorted(range(len(items)), key=lambda i: -costs[i]):  # dearest first
        kinds.setdefault(items[i][1], []).append(i)
    shares: list[dict[str, list[int]]] = [{} for _ in range(jobs)]
    loads = [0.0] * jobs

    def lightest() -> int:
        return min(range(jobs), key=lambda s: loads[s] * weights[s])

    def to_move(kind: str) -> float:  # what the kind's facts would cost to send from a worker
        return TRANSFER.get(kind, DEFAULT_TRANSFER) * sum(costs[i] for i in kinds[kind])

    for kind, members in sorted(kinds.items(), key=lambda k: -to_move(k[0])):
        share = lightest()
        shares[share][kind] = members
        loads[share] += COST_PER_KIND.get(kind, 0) + sum(costs[i] for i in members)
    while True:
        heavy, light = max(range(jobs), key=lambda s: loads[s] * weights[s]), lightest()
        given = shares[heavy]
        # a kind the light share already parses moves without a start; else the biggest one
        kind = next((k for k in given if k in shares[light]), None) or max(given, key=lambda k: len(given[k]), default=None)
        if kind is None or heavy == light:
            break
        i = given[kind][-1]
        start = 0.0 if kind in shares[light] else COST_PER_KIND.get(kind, 0)
        before = loads[heavy] * weights[heavy]
        if max((loads[heavy] - costs[i]) * weights[heavy], (loads[light] + start + costs[i]) * weights[light]) >= before:
            break
        given[kind].pop()
        if not given[kind]:
            del given[kind]
            loads[heavy] -= COST_PER_KIND.get(kind, 0)
        shares[light].setdefault(kind, []).append(i)
        loads[heavy] -= costs[i]
        loads[light] += start + costs[i]
    return [sorted(i for members in share.values() for i in members) for share in shares]


def _work(items, share: list[int], how: _How, orders: int, control: int, pipe: int) -> None:
    """A worker: parse (and keep) the items of its share, and send each file's pickle as soon as
    it is made, as a frame: its length in 8 bytes, then its bytes (NOT_PICKLED and nothing when
    the facts cannot be pickled: the parent parses that file again). Between files, give back
    what the parent claims (a RETURNED frame); when done, say so (an IDLE frame) and parse what
    the parent hands over, until it hands over nothing."""
    os.close(control)  # the parent's end: this process reads `orders`
    todo, leave = share[::-1], False  # parsed from the end of the list: its first files first
    with open(pipe, "wb") as out:
        while True:
            while todo:
                item = items[todo.pop()]
                facts = parse_file(*item, how.debug, how.budget, how.reads_command_line(item[0]))
                payload = _pickled(facts)  # None: the parent parses it again
                if how.keep is not None and payload is not None:
                    how.keep(facts, item[2], payload)
                _send_pickle(out, payload)  # sent: were this worker to die now, its files so far are not parsed again
                if _wait_readable(orders, 0):
                    message = _message(orders)
                    if isinstance(message, int):  # a claim: the last files of the list go back
                        count = min(message, len(todo))
                        del todo[:count]
                        _returned(out, count)
                    else:  # told to leave (orders come only to an idle worker)
                        leave = True
            if leave:
                return
            _send(out, IDLE_LENGTH)
            message = _message(orders)
            while isinstance(message, int):  # a claim that came as this worker went idle
                _returned(out, 0)
                message = _message(orders)
            if not message:
                return
            todo = message[::-1]


def _returned(out, count: int) -> None:
    _send(out, RETURNED_LENGTH, count.to_bytes(_LENGTH, "little"))


def _message(orders: int) -> list[int] | int | None:
    """The parent's next message: the indices it hands over (none: leave), or how many files it
    claims back (an int); None when it closed its end or died (then this process is an orphan)."""
    parent = os.getppid()
    data = b""
    while True:
        if len(data) >= 4 and int.from_bytes(data[:4], "little") == CLAIM:
            need = 8
        else:
            need = 4 if len(data) < 4 else 4 + 4 * int.from_bytes(data[:4], "little")
        if len(data) >= need:
            break
        ready = _wait_readable(orders, 1.0)
        if not ready and os.getppid() != parent:
            return None
        if ready:
            chunk = os.read(orders, need - len(data))
            if not chunk:
                return None
            data += chunk
    if int.from_bytes(data[:4], "little") == CLAIM:
        return int.from_bytes(data[4:8], "little")
    return [int.from_bytes(data[k : k + 4], "little") for k in range(4, len(data), 4)]


def _wait_readable(fd: int, seconds: float | None) -> bool:
    """Whether `fd` can be read (or is closed at the other end) within `seconds` (None: no
    limit). `poll`, not `select`, which refuses a descriptor past 1023 (a process that has many
    files open, an editor's language server)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(None if seconds is None else seconds * 1000))


def _send(out, length: int, body: bytes = b"") -> None:
    """Write one frame (see `_whole_frames`): its length field, then `body`; and flush it."""
    out.write(length.to_bytes(_LENGTH, "little"))
    out.write(body)
    out.flush()


def _send_pickle(out, payload: bytes | None) -> None:
    """A pickle's frame, or NOT_PICKLED's (None: the facts could not be pickled)."""
    if payload is None:
        _send(out, NOT_PICKLED)
    else:
        _send(out, len(payload), payload)


def in_child(compute: Callable[[], object]) -> Callable[[], object | None]:
    """Start `compute()` in a forked child (it sees this process as it is now) and return a
    function that waits for its result: the value, pickled across, or None when the child could
    not pickle it or died before it sent it. Raises OSError when no process can be had."""
    import pickle  # noqa: F401  before the fork: both sides need it (`_pickled`, `_unpickled`)

    def work(pipe: int) -> None:
        payload = _pickled(compute())
        with open(pipe, "wb") as out:
            _send_pickle(out, payload)

    pid, pipe = _fork(work)

    def result() -> object | None:
        received = bytearray()
        try:
            while chunk := os.read(pipe, 1 << 20):
                received += chunk
        finally:
            os.close(pipe)
            os.waitpid(pid, 0)
        length, start, end = next(_whole_frames(received), (NOT_PICKLED, 0, 0))
        return None if length == NOT_PICKLED else _unpickled(received[start:end])

    return result


def _pickled(value: object) -> bytes | None:
    """`value`'s pickle for the pipe; None when it cannot be pickled (the other side then does
    the work itself)."""
    import pickle  # imported before the fork by whoever forked (`_in_workers`, `in_child`)

    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError, TypeError):
        return None


def _unpickled(payload: bytes | bytearray) -> object | None:
    """What a pickle from the pipe holds; None when it does not load."""
    import pickle

    try:
        return pickle.loads(payload)
    except (pickle.UnpicklingError, EOFError, ValueError, RecursionError):
        return None


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
