"""Which code runs on worker threads, and what it does there: compiled calls without a guard,
CUDA graph captures, compile settings it does not inherit.

The project-wide half of LL201-LL203 and LL205 (see rules.md, LL2xx). From the facts of every
module:

1. *thread starts*: `threading.Thread(target=...)`, Timer, `asyncio.to_thread`,
   `run_in_executor`, `submit`/`map` of a thread pool (and its `initializer`), instantiations of
   `Thread` subclasses (whose `run` is the target), targets run through `copy_context().run`;
2. *reachability* from each target through calls of functions, methods (`self.m`, `obj.m` for an
   `obj = Class(...)`), instances (`model(x)` runs `__call__`, or one a class decorator installs,
   or `forward`; only the `__call__` of a module compiled in place), classes (`__init__`),
   across modules through imports, and through arguments bound to parameters;
3. *compiled callables*: names and attributes bound to `torch.compile(...)`, decorated defs,
   modules compiled in place, names bound to a compile API used as a decorator or called, and the
   results of functions that return a compiled callable;
4. *guards*: a shared lock held around the call or around a call on the way to it (a lock made
   per thread guards nothing), or a warm-up call on the spawning thread before the start.

Every call is resolved once per callee name (`_calls_named`), whoever asks, so the analysis is
linear in the calls of the project. Whenever a name cannot be resolved the analysis assumes the
harmless case: it stays silent.
"""

from __future__ import annotations

import gc
from collections import defaultdict, deque
from collections.abc import Iterable

from .model import Location, Record, Related, whole
from .pyfacts import (
    COMPILE_APIS,
    CONTEXT_MANAGER_DECORATORS,
    GRAD,
    LOCK_CONSTRUCTORS,
    MODULE_COMPILE,
    MODULE_SCOPE,
    SEMAPHORES,
    Call,
    CompileSite,
    ConfigOverride,
    Function,
    PythonModule,
    ThreadEntry,
    admits,
)
from .pyindex import ModuleIndex

# The sources LL201 and LL202 cite (appended to both rules' documentation).
COMPILE_RACE_REFERENCES = """- pytorch/pytorch#168042: "torch.compile is not thread safe overall (neither dynamo, nor inductor)".
- pytorch/pytorch#105943 "PT2 is not thread safe"; pytorch/pytorch#143931: "torch.compile'd
  models aren't thread safe"; pytorch/pytorch#118260 "Dynamo is not thread safe": two threads
  calling one `@torch.compile` function lose the race and compile it again.
- Measured on torch 2.13 with 4 to 12 threads, repeated runs: racing threads recompile in 100%
  of runs; past `recompile_limit` (8) threads run uncompiled silently, or raise
  `FailOnRecompileLimitHit` with `fullgraph=True`.
"""

TYPE_CHECKING = False  # as typing's, which costs 3 ms to import
if TYPE_CHECKING:
    from .project import Project

RECOMPILE_LIMIT = 8  # torch._dynamo.config.recompile_limit's default
_EXECUTOR = ("max_workers", "thread_name_prefix", "initializer")
_POOL = ("processes", "initializer")
THREAD_POOLS = {  # each constructor's parameters, in order, up to its initializer
    "concurrent.futures.ThreadPoolExecutor": _EXECUTOR,
    "concurrent.futures.thread.ThreadPoolExecutor": _EXECUTOR,
    "multiprocessing.pool.ThreadPool": _POOL,
    "multiprocessing.dummy.Pool": _POOL,
}
# The process pools, whose `submit`/`map` run a function in a worker process (LL204), as theirs.
PROCESS_POOLS = {
    name: _EXECUTOR if "Executor" in name else _POOL
    for name in (
        "concurrent.futures.ProcessPoolExecutor",
        "concurrent.futures.process.ProcessPoolExecutor",
        "multiprocessing.Pool",
        "multiprocessing.pool.Pool",
        "torch.multiprocessing.Pool",
    )
}
_POOLS = {"thread": THREAD_POOLS, "process": PROCESS_POOLS}
NOT_LOCKS = ("torch.", "contextlib.")  # context managers of these libraries are never locks
CAPTURE_APIS = frozenset(
    {
        "torch.cuda.graph",
        "torch.cuda.graphs.graph",
        "torch.cuda.make_graphed_callables",
        "torch.cuda.graphs.make_graphed_callables",
    }
)
CAPTURE_NAMES = frozenset({*(api.rpartition(".")[2] for api in CAPTURE_APIS), "capture_begin"})  # their last names
CUDA_GRAPHS = frozenset({"torch.cuda.CUDAGraph", "torch.cuda.graphs.CUDAGraph"})
GRAPH_MODES = frozenset({"reduce-overhead", "max-autotune"})  # torch.compile modes that capture CUDA graphs
ANY_KEY = "*"  # stands for the settings of a config override that are not static
MODULE_CALLS = ("forward", "__call__")  # the methods calling a module runs
SHARED, PER_THREAD, NOT_A_LOCK, UNKNOWN = "shared", "per-thread", "not-a-lock", "unknown"

Symbol = tuple[str, str, str]  # (module path, scope, name); scope "" means the module itself
FunctionKey = tuple[str, str]  # (module path, qualname)
Value = tuple[str, str, str, "Call | None"]  # (path, function, dotted value or callee, call)
CallRef = tuple[str, Function, Call]  # (module path, the calling function, the call)


class _Calls(Record):
    runs: dict[FunctionKey, list[CallRef]]  # by the project functions the call runs
    instantiates: dict[FunctionKey, list[CallRef]]  # by the project class it instantiates


_NO_CALLS = _Calls({}, {})


class ThreadStart(Record):
    """Where callables start running on other threads, and what they run."""

    location: Location
    function: str  # where the start happens; "" for a Thread subclass never seen instantiated
    label: str  # "threading.Thread(target=worker)", "pool.submit(step)", ...
    targets: tuple[FunctionKey, ...]  # the project functions the threads run
    count: int | None  # threads started here (static loops, max_workers); None: unknown
    entry: ThreadEntry | None = None  # the fact it comes from (None for Thread subclasses)
    started: Location | None = None  # a later `t.start()` of the thread made at `location`

    @property
    def path(self) -> str:
        return self.location.path

    def related(self) -> Related:
        """The start, as the rules about what its threads do point at it."""
        return Related(self.location, f"thread started here: {self.label}")


class CompiledCall(Record):
    """A call of a callable compiled off the threads, made on a thread with no guard (LL202)."""

    location: Location
    callee: str
    start: ThreadStart
    site: CompileSite
    grad_mode: str | None  # the call's grad mode on the worker
    warmup: Location | None = None  # a warm-up that does not cover the call (other grad mode)
    warmup_mode: str | None = None  # the grad mode that warm-up ran in
    own_lock: str | None = None  # a lock held around the call that each thread makes its own
    wide_lock: tuple[str, int] | None = None  # a semaphore held around it, and how many threads it lets in


class ThreadCompile(Record):
    """`torch.compile` executed on a thread, its result called there with no guard (LL201)."""

    site: CompileSite
    start: ThreadStart
    call: Location


class GraphCapture(Record):
    """A CUDA graph captured on a thread with no shared lock held (LL203): a capture API, or a
    call of a callable compiled with a CUDA-graph mode (`site`)."""

    location: Location
    api: str  # "torch.cuda.graph", ..., or 'torch.compile(mode="reduce-overhead")'
    start: ThreadStart
    site: CompileSite | None = None
    callee: str = ""  # the compiled callable called, as written (`site`'s)


class ConfigNotInherited(Record):
    """A dynamo/inductor setting changed off the threads while compiled code runs on them, and
    the threads do not set it themselves (LL205)."""

    override: ConfigOverride
    start: ThreadStart
    call: Location  # where compiled code runs on the thread
    site: CompileSite


class ThreadReport:
    def __init__(
        self,
        starts: list[ThreadStart] | None = None,
        compiled_calls: list[CompiledCall] | None = None,
        thread_compiles: list[ThreadCompile] | None = None,
        graph_captures: list[GraphCapture] | None = None,
        config_overrides: list[ConfigNotInherited] | None = None,
    ) -> None:
        self.starts = [] if starts is None else starts
        self.compiled_calls = [] if compiled_calls is None else compiled_calls
        self.thread_compiles = [] if thread_compiles is None else thread_compiles
        self.graph_captures = [] if graph_captures is None else graph_captures
        self.config_overrides = [] if config_overrides is None else config_overrides


def analyse(project: Project) -> ThreadReport:
    """The thread analysis of a whole project (cached by `Project.threads`)."""
    return _without_collector(lambda: _analysis(project).report())


def _without_collector(work):
    """`work()` with the cyclic garbage collector off. The analysis makes many small tuples next
    to a large heap of facts; left on, the collector rescans those facts over and over (2.5x
    slower on 5,000 files; making the analysis of SkyRL's 630 modules took 247 ms with it on, 41
    with it off). It frees nothing."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return work()
    finally:
        if collecting:
            gc.enable()


def _analysis(project: Project) -> _Analysis:
    """The project's analysis, made once: the report and LL204's questions share its memos."""
    analysis = project.__dict__.get("_thread_analysis")
    if analysis is None:
        # Kept as long as the project: freeing its memos (hundreds of thousands of small tuples)
        # made the analysis of the 10,000-file benchmark project 1,870 ms where kept it takes
        # 1,577 (medians of 4, in one process; the 1,000-file one the same either way), in a run
        # whose process leaves without freeing anything.
        analysis = project.__dict__["_thread_analysis"] = _Analysis(project.python, project.settings.lock_names)
    return analysis


def in_child_process_only(project: Project, path: str, function: str) -> bool:
    """Whether the function `function` of the module at `path` runs only in processes the
    program starts (LL204): a process's target (`multiprocessing.Process(target=f)`, a pool's
    `initializer`, a Ray task's function or a method of a Ray actor's class) or a function that
    only functions running there call. Never one a thread runs: a thread shares its process's
    streams."""
    return _without_collector(lambda: _analysis(project).in_child_process_only(path, function))


def grad_state(mode: str | None) -> str:
    """The grad mode a call runs in on the spawning thread or a new one (`None`, the caller's:
    grad enabled there), as dynamo guards on it: grad enabled, `no_grad`, or `inference_mode`
    (which also disables grad, but changes the dispatch keys dynamo's tensor guards check)."""
    return GRAD if mode is None else mode


def threads_of(start: ThreadStart) -> str:
    """The threads a message speaks of: their number when it is known and above the recompile
    limit (the worse case, which rules.md's LL202 message must say), else just "threads"."""
    if start.count is not None and start.count > RECOMPILE_LIMIT:
        return f"{start.count} threads"
    return "threads"


def consequence(site: CompileSite) -> str:
    """What racing threads do to a compiled callable, as bad as the facts show it to be: past the
    recompile limit (8; `recompile_limit`, which the rules' docs name), the rest run uncompiled or
    raise."""
    after = "raise FailOnRecompileLimitHit (fullgraph=True)" if site.fullgraph else "silently run it uncompiled"
    return f"they recompile it, and past {RECOMPILE_LIMIT} {after}"


def _more_threads(start: ThreadStart, than: ThreadStart | None) -> bool:
    """Whether `start` starts more threads than the recompile limit, and than `than` does (if
    given): an LL202 its threads make says so, with it as the thread start, whatever start
    reaching the call came first."""
    count = start.count
    return count is not None and count > RECOMPILE_LIMIT and (than is None or than.count is None or count > than.count)


END_OF_FILE = 1 << 62  # a line after every line of a file
MAX_DEPTH = 64  # nested resolutions (alias of an alias of ...): past it, a name is unknown
_MISSING = object()


def _cached(empty):
    """Memoise a method on its arguments. A cycle (a value that depends on itself) and a chain
    nested deeper than MAX_DEPTH see `empty`, the "don't know" answer."""

    def decorate(method):
        name = method.__name__

        def wrapper(self, *key):
            cache = self._caches[name]
            found = cache.get(key, _MISSING)  # one lookup for a known answer, the most calls
            if found is not _MISSING:
                return found
            if self._depth >= MAX_DEPTH:
                return empty
            cache[key] = empty
            self._depth += 1
            try:
                found = cache[key] = method(self, *key)
            finally:
                self._depth -= 1
            return found

        return wrapper

    return decorate


class _Analysis:
    def __init__(self, modules: dict[str, PythonModule], lock_names: Iterable[str]) -> None:
        self.modules = modules
        self.lock_names = frozenset(lock_names)
        self._caches: dict[str, dict] = defaultdict(dict)
        self._targets: dict[int, tuple[FunctionKey, ...]] = {}  # id(call) -> what it runs
        self._holding: set[FunctionKey] = set()  # functions calling project functions with something held
        self._depth = 0
        self.index = ModuleIndex(modules)
        self.bindings: dict[Symbol, list[Value]] = defaultdict(list)
        self.sites: dict[Symbol, list[CompileSite]] = defaultdict(list)
        self.returned_sites: dict[FunctionKey, list[CompileSite]] = defaultdict(list)
        self.called_sites: dict[Location, CompileSite] = {}  # torch.compile(f)(x), by the call
        self.calls_by_name: dict[str, list[CallRef]] = defaultdict(list)
        self.entries_by_name: dict[str, list[tuple[str, ThreadEntry]]] = defaultdict(list)
        self.lambdas: dict[FunctionKey, list[str]] = defaultdict(list)
        self.overrides: dict[FunctionKey, list[ConfigOverride]] = defaultdict(list)
        # Callee -> its last name, made once: most callees recur (-9 M instructions of 456 on the
        # 1,000-file benchmark project, where 15,063 calls have 63 callees).
        last_names: dict[str, str] = {}
        for path, module in modules.items():
            self._index(path, module, last_names)
        self._index_aliased_decorators()
        self.on_threads: set[FunctionKey] = set()

    def _index(self, path: str, module: PythonModule, last_names: dict[str, str]) -> None:
        for b in module.bindings:
            self.bindings[path, b.scope, b.name].append((path, b.function, b.value, b.call))
        for site in module.compile_sites:
            if site.name is not None:
                self.sites[path, site.scope, site.name].append(site)
            if site.returned:
                self.returned_sites[path, site.function].append(site)
            if site.call is not None:
                self.called_sites[site.call.location] = site
        for function in module.functions.values():
            if function.parent and function.name.startswith("<lambda"):  # most have no parent: no name made (-5 M)
                self.lambdas[path, function.parent].append(function.qualname)
            for call in function.calls:
                callee = call.callee
                name = last_names.get(callee)
                if name is None:
                    name = last_names[callee] = callee.rpartition(".")[2]
                self.calls_by_name[name].append((path, function, call))
        for entry in module.thread_entries:
            self.entries_by_name[entry.target.rpartition(".")[2]].append((path, entry))
        for override in module.config_overrides:
            self.overrides[path, override.function].append(override)

    def _index_aliased_decorators(self) -> None:
        """Defs decorated with a name bound to a compile API (`jit_fuser = torch.compile` in one
        module, `@jit_fuser` in another) are compile sites, as `@torch.compile` ones are."""
        found = False
        for path, module in self.modules.items():
            for function in module.functions.values():
                where = function.parent or MODULE_SCOPE  # the decorator runs where the def does
                for decorator in function.decorators:
                    api = self._compile_api(self._resolve(path, where, decorator))
                    if api is not None:
                        scope = function.qualname.rpartition(".")[0] or MODULE_SCOPE
                        site = CompileSite(function.location, api, function.name, where, scope, function.name)
                        self.sites[path, scope, function.name].append(site)
                        found = True
        if found:  # what was resolved on the way did not know these sites yet
            self._caches.clear()
            self._targets.clear()
            self._holding.clear()

    # -- the report ---------------------------------------------------------------------------

    def report(self) -> ThreadReport:
        starts = sorted(self._starts(), key=lambda s: s.location)
        # What any thread runs. A start whose targets earlier starts reached in the grad mode of a
        # new thread runs nothing more: it is not walked here.
        entered: set[FunctionKey] = set()  # reached in that grad mode
        for start in starts:
            if not entered.issuperset(start.targets):
                reached = self._reached(start)
                self.on_threads.update(reached)
                entered.update([key for key, grads in reached.items() if None in grads])
        found: dict[type, dict[Location, object]] = defaultdict(dict)  # by kind, then by location
        walked: dict[FunctionKey, dict[FunctionKey, Location]] = defaultdict(dict)
        for start in starts:
            for item in self._unguarded_findings(start, found, walked[start.path, start.function]):
                where = item.site.location if isinstance(item, ThreadCompile) else item.location
                known = found[type(item)].get(where)
                if known is None or isinstance(item, CompiledCall) and _more_threads(start, known.start):
                    found[type(item)][where] = item
        report = ThreadReport(starts)
        report.compiled_calls = [found[CompiledCall][k] for k in sorted(found[CompiledCall])]
        report.thread_compiles = [found[ThreadCompile][k] for k in sorted(found[ThreadCompile])]
        report.graph_captures = [found[GraphCapture][k] for k in sorted(found[GraphCapture])]
        report.config_overrides = list(self._configs_not_inherited(starts))
        return report

    def _unguarded_findings(self, start: ThreadStart, found: dict[type, dict], walked: dict):
        """LL201, LL202 and LL203 findings of one start: what its threads run with no guard.

        Only the first finding of a kind at a location is kept (`report`), so what a start would
        only repeat is not looked for. `walked` holds, for the starts of this start's spawning
        function so far, each function their threads run with no guard in the grad mode a thread
        starts in, with the earliest of their warm-up bounds. When this start's targets are among
        them, its threads run nothing those did not run in those grad modes: whatever that code
        compiles, captures or calls compiled was reported then (by location, whatever start), and
        each call then covered by a warm-up still is, since a later bound only sees more warm-ups
        (chains of compiled classes, each started on its own thread, were walked once a start:
        ~n^2). A start of more threads than the recompile limit is walked all the same: an LL202
        there says how many threads it starts."""
        target = self._start_target_sites(start)
        reported = found[CompiledCall]
        if target:
            yield from self._classify(start, start.location, start.entry.target, target, None, reported)
            yield from self._graph_modes(start, start.location, target, start.entry.target)
        before = start.started or start.location
        if not _more_threads(start, None) and all(key in walked and walked[key] <= before for key in start.targets):
            return
        reached = self._reached(start)
        # All `reached` when none of it calls a project function with something held: then a second
        # walk skipping the guarded calls finds the same (-27 M instructions of 456 on the 1,000-file
        # benchmark project, where none does).
        unguarded = reached if self._holding.isdisjoint(reached) else self._reach(start, unguarded=True)
        for key, grads in unguarded.items():
            if None in grads and walked.get(key, before) >= before:
                walked[key] = before
        for (path, qualname), grads in unguarded.items():
            function = self.modules[path].functions[qualname]
            for call in function.calls:
                if call.held and self._guarded(path, function, call):
                    continue
                capture = self._capture_api(path, function, call)
                if capture is not None:
                    yield GraphCapture(call.location, capture, start)
                sites = self._sites_called(path, function, call)
                if not sites:
                    continue
                yield from self._graph_modes(start, call.location, sites, call.callee)
                own_lock = next(
                    (h for h in call.held if self._lock_kinds_of(path, function.qualname, h) == (PER_THREAD,)),
                    None,
                )
                wide_lock = next(
                    ((h, n) for h in call.held if (n := self._semaphore_count(path, function.qualname, h))), None
                )
                for grad in sorted(grads, key=str):
                    yield from self._classify(
                        start, call.location, call.callee, sites, call.grad_mode or grad, reported, own_lock, wide_lock
                    )

    def _graph_modes(self, start: ThreadStart, location: Location, sites, callee: str) -> Iterable[GraphCapture]:
        """A call of a callable compiled with a CUDA-graph mode: it captures on the calling
        thread, whatever was warmed up on another (graph trees are per thread)."""
        site = next((s for s in sites if s.mode in GRAPH_MODES), None)
        if site is not None:
            yield GraphCapture(location, f'{site.api}(mode="{site.mode}")', start, site, callee or "")

    def _capture_api(self, path: str, function: Function, call: Call) -> str | None:
        """The CUDA graph capture API a call is: `torch.cuda.graph(g)`,
        `make_graphed_callables(...)`, or `g.capture_begin()` of a `torch.cuda.CUDAGraph()`."""
        receiver, _, method = call.callee.rpartition(".")
        if receiver and method not in CAPTURE_NAMES:  # imports only rename a callee's first name (-9 M of 456)
            return None
        qualified = self.modules[path].qualified(call.callee)
        if qualified in CAPTURE_APIS:
            return qualified
        if method != "capture_begin" or not receiver:
            return None
        symbol = self._resolve(path, function.qualname, receiver)
        for vpath, _, value, value_call in self._values(symbol) if symbol else ():
            if value_call is not None and self.modules[vpath].qualified(value) in CUDA_GRAPHS:
                return "torch.cuda.CUDAGraph.capture_begin"
        return None

    def _classify(
        self, start: ThreadStart, location: Location, callee: str, sites, grad: str | None, reported, own_lock=None, wide_lock=None
    ):
        """LL201 for sites executed on the threads, LL202 (unless warmed up, or `reported` has
        one at `location` already, from a start of no fewer threads) for the others."""
        off_threads = [s for s in sites if (s.location.path, s.function) not in self.on_threads]
        for site in sites:
            if site not in off_threads:
                yield ThreadCompile(site, start, location)
        if off_threads and (location not in reported or _more_threads(start, reported[location].start)):
            covered, warmup = self._warmed_up(start, off_threads, grad)
            if not covered:
                yield CompiledCall(location, callee, start, off_threads[0], grad, *warmup, own_lock, wide_lock)

    # -- compile settings (LL205) -------------------------------------------------------------

    def _configs_not_inherited(self, starts: list[ThreadStart]) -> Iterable[ConfigNotInherited]:
        """Each setting changed off the threads, with the first start whose threads run compiled
        code without setting it themselves, in a module linked to it by imports."""
        for (path, function), overrides in sorted(self.overrides.items()):
            if (path, function) in self.on_threads or (path, function) in self._compiling():
                continue
            for override in overrides:
                found = (self._not_inherited(path, override, s, self._reached(s).keys()) for s in starts)
                first = next(filter(None, found), None)
                if first is not None:
                    yield first

    @_cached(frozenset())
    def _compiling(self) -> frozenset[FunctionKey]:
        """The project functions that run while dynamo compiles, on the thread that compiles (a
        worker that recompiles too): the backends compile sites name (`backend=my_backend`, a
        `functools.partial` of one, `optimize(my_backend)`, an instance whose `__call__` is one)
        and what they run. A setting one makes is made on that thread, for that compile."""
        backends = [
            (key, None)
            for path, module in self.modules.items()
            for site in module.compile_sites
            if site.backend
            for key in self._runs(self._resolve(path, site.function, site.backend))
        ]
        return frozenset(self._reach_from(backends)) if backends else frozenset()

    def _not_inherited(
        self, path: str, override: ConfigOverride, start: ThreadStart, functions
    ) -> ConfigNotInherited | None:
        if start.entry is not None and start.entry.context:  # copy_context().run: inherited
            return None
        linked = (
            (call, site)
            for call, site in self._compiled_runs(start, functions)
            if self._one_program(path, site.location.path)
        )
        first = next(linked, None)
        if first is None or self._set_on_threads(override, start, functions) or not self._in_effect(path, override, start):
            return None
        return ConfigNotInherited(override, start, *first)

    def _in_effect(self, path: str, override: ConfigOverride, start: ThreadStart) -> bool:
        """Whether a setting is in effect on the spawning thread while the threads of `start` run:
        a lasting one is; one made for a while (`ConfigOverride.scope`) when its scope starts them
        or waits for them, itself or through the project code it runs. Else it is over before they
        start, or made after they end: not meant for them (vLLM patches dynamo's settings around a
        compile on the main thread, and in `@contextmanager`s entered there)."""
        if override.scope is None:
            return True
        calls, reached = self._scope_runs(path, override)
        return (start.path, start.function) in reached or not calls.isdisjoint(self._start_marks(start))

    @_cached((frozenset(), frozenset()))
    def _scope_runs(self, path: str, override: ConfigOverride) -> tuple[frozenset[Location], frozenset[FunctionKey]]:
        """Where the calls made while a setting made for a while lasts are, and the project
        functions they run: the calls in its scope and, for one made in a context manager, those
        in the `with` blocks entering it. One walk per such setting, only for one that would be
        reported otherwise."""
        key = (path, override.function)
        function = self.modules[path].functions[override.function]
        calls = [(path, function, call) for call in function.calls if override.scope.holds(call.location)]
        if self._is_context_manager(*key):
            calls += self._entered(key)
        steps = [(target, None) for cpath, caller, call in calls for target in self._call_targets(cpath, caller, call)]
        return frozenset(call.location for *_, call in calls), frozenset(self._reach_from(steps))

    def _entered(self, key: FunctionKey) -> list[CallRef]:
        """The calls made in the `with` blocks entering the context manager `key`: those that
        hold (`Call.held`) a call of it, in the function making that call."""
        found = []
        for path, caller, call in self._callers(key):
            held = f"{call.callee}()"
            found += [(path, caller, inner) for inner in caller.calls if held in inner.held]
        return found

    def _start_marks(self, start: ThreadStart) -> frozenset[Location]:
        """Where the spawning function starts the threads of `start` or waits for them: the
        spawning call, a later `t.start()`, and after it a `t.join()` or `future.result()` of a
        name bound to that call, or a `pool.shutdown()` or `pool.join()` of its pool."""
        marks = {start.location} if start.started is None else {start.location, start.started}
        spawner = self.modules[start.path].functions.get(start.function)
        names = self._bound_calls(start.path).get(start.location, ())
        pool = start.entry.pool if start.entry is not None else None
        for call in spawner.calls if spawner is not None else ():
            receiver, _, method = call.callee.rpartition(".")
            waits = receiver in names and method in ("join", "result") or receiver == pool and method in ("shutdown", "join")
            if waits and call.location > start.location:
                marks.add(call.location)
        return frozenset(marks)

    def _set_on_threads(self, override: ConfigOverride, start: ThreadStart, functions) -> bool:
        """Whether the threads set every setting `override` changes (a setting they change with
        keys that are not static counts as all of them)."""
        keys = self._thread_settings(start, functions).get(override.config)
        return keys is not None and (ANY_KEY in keys or keys >= set(override.keys))

    def _thread_settings(self, start: ThreadStart, functions) -> dict[str, frozenset[str]]:
        """The settings the threads of `start` change, by config."""
        cache = self._caches["_thread_settings"]
        if start not in cache:
            keys: dict[str, set[str]] = defaultdict(set)
            for key in functions:
                for own in self.overrides.get(key, ()):
                    keys[own.config].update(own.keys or (ANY_KEY,))
            cache[start] = {config: frozenset(found) for config, found in keys.items()}
        return cache[start]

    def _compiled_runs(self, start: ThreadStart, functions) -> list[tuple[Location, CompileSite]]:
        """Where the threads of `start` run compiled code (guarded or not), and what compiled it."""
        cache = self._caches["_compiled_runs"]
        if start not in cache:
            runs = [(start.location, site) for site in self._start_target_sites(start)]
            for path, qualname in functions:
                function = self.modules[path].functions[qualname]
                for call in function.calls:
                    runs += [(call.location, site) for site in self._sites_called(path, function, call)]
            cache[start] = runs
        return cache[start]

    def _linked(self, a: str, b: str) -> bool:
        """Whether one module imports the other (directly or not): then one program runs both."""
        return a == b or b in self._imported(a) or a in self._imported(b)

    def _one_program(self, a: str, b: str) -> bool:
        """Whether one program runs both modules: one imports the other, or a third imports both
        (a trainer that imports its settings module and its model). Not a library module both
        import while neither runs the other (a benchmark that sets a config and imports the
        library whose threads a test script hands its compiled function)."""
        return self._linked(a, b) or not self._importers(a).isdisjoint(self._importers(b))

    @_cached(frozenset())
    def _imported(self, path: str) -> frozenset[str]:
        """The project modules a module imports, directly or through others."""
        return self.index.imported(self.modules, path)

    @_cached(frozenset())
    def _importers(self, path: str) -> frozenset[str]:
        """The project modules that import a module, directly or through others."""
        return self.index.importers(self.modules, path)

    # -- thread starts ------------------------------------------------------------------------

    def _starts(self) -> Iterable[ThreadStart]:
        for path, module in self.modules.items():
            for entry in module.thread_entries:
                start = self._entry_start(path, module, entry)
                if start is not None:
                    yield start
        thread_classes = [
            (path, name) for path, module in self.modules.items() for name in module.classes
            if self._is_thread_class(path, name)
        ]
        bases = {base for cls in thread_classes for base in self._bases(*cls)}
        for path, name in thread_classes:
            yield from self._subclass_starts(path, name, subclassed=(path, name) in bases)

    def _entry_start(self, path: str, module: PythonModule, entry: ThreadEntry) -> ThreadStart | None:
        count, initializer = entry.call.loops, ()
        if entry.kind in ("submit", "map", "executor"):
            pool = self._thread_pool(path, module.functions[entry.function], entry.pool or "")
            if pool is None:
                return None
            count, initializer = pool
        shown = "lambda" if "<lambda" in entry.target else entry.target
        if entry.context:
            shown = f"copy_context().run, {shown}"
        if entry.kind == "thread":
            label = f"threading.Thread(target={shown})"
        else:
            label = f"{entry.call.callee or entry.kind}({shown})"
        targets = tuple(dict.fromkeys(self._entry_targets(path, entry) + initializer))
        started = self._started(path, entry.function, entry.call) if entry.kind in ("thread", "timer") else None
        return ThreadStart(entry.location, entry.function, label, targets, count, entry, started)

    def _started(self, path: str, function: str, made: Call) -> Location | None:
        """Where a thread made by `made` and bound to a name starts: the name's first `.start()`
        after it in the same function (`t = Thread(...)`, a warm-up, `t.start()`; or
        `threads = [Thread(...) for ...]`, a warm-up, `for t in threads: t.start()`)."""
        names = self._bound_calls(path).get(made.location)
        spawner = self.modules[path].functions.get(function) if names else None
        for call in spawner.calls if spawner else ():
            if call.location > made.location and call.callee.endswith(".start") and call.callee[:-6] in names:
                return call.location
        return None

    @_cached({})
    def _bound_calls(self, path: str) -> dict[Location, set[str]]:
        """By the call made, the names a module binds its results to: asked for each thread start
        (looking through every binding each time was ~n^2 in the starts of a module)."""
        module = self.modules[path]
        found: dict[Location, set[str]] = defaultdict(set)
        for b in module.bindings:
            if b.call is not None:
                found[b.call.location].add(
                    f"self.{b.name}" if b.scope != b.function and b.scope in module.classes else b.name
                )
        return found

    def _thread_pool(
        self, path: str, function: Function, pool: str
    ) -> tuple[int | None, tuple[FunctionKey, ...]] | None:
        """If `pool` is a thread pool: its static number of workers and what its `initializer`
        runs on each worker; None when it is not one (a process pool, an unknown object)."""
        if pool == "None":  # run_in_executor(None, f): the loop's default ThreadPoolExecutor
            return None, ()
        if pool.endswith("()"):
            return (None, ()) if self.modules[path].qualified(pool[:-2]) in THREAD_POOLS else None
        symbol = self._resolve(path, function.qualname, pool)
        made = self._pool_made(symbol, "thread") if symbol else None
        if made is None:
            return None
        vpath, vfunction, parameters, call = made
        workers = call.argument(parameters[0], 0)
        initializer = call.argument("initializer", len(parameters) - 1)
        runs = self._runs(self._resolve(vpath, vfunction, initializer)) if initializer else ()
        return whole(workers), runs

    def _process_pool(self, path: str, entry: ThreadEntry) -> bool:
        """Whether a `submit`/`map` entry's pool is a process pool (`ProcessPoolExecutor`,
        `multiprocessing.Pool`): its function runs in a worker process, not a thread."""
        pool = entry.pool or ""
        if entry.kind not in ("submit", "map") or pool == "None":
            return False
        if pool.endswith("()"):
            return self.modules[path].qualified(pool[:-2]) in PROCESS_POOLS
        symbol = self._resolve(path, entry.function, pool)
        return symbol is not None and self._pool_made(symbol, "process") is not None

    @_cached(None)
    def _pool_made(self, symbol: Symbol, kind: str) -> tuple[str, str, tuple[str, ...], Call] | None:
        """Where the pool of a `kind` ("thread", "process") a symbol holds is made, assigned or
        reached through an alias (`ex = executor`) or a parameter (`run_all(pool, xs)`): the
        module, the function, the constructor's parameters (`THREAD_POOLS`) and its call."""
        for vpath, vfunction, value, call in self._values(symbol):
            if call is None:
                alias = self._resolve(vpath, vfunction, value) if value else None
                made = self._pool_made(alias, kind) if alias else None
                if made is not None:
                    return made
                continue
            parameters = _POOLS[kind].get(self.modules[vpath].qualified(value))
            if parameters is not None:
                return vpath, vfunction, parameters, call
        return None

    @_cached(frozenset())
    def _made_per_thread(self) -> frozenset[FunctionKey]:
        """The classes whose instances are made one per thread: a thread runs a method of one made
        for it (`Thread(target=Worker().loop)`), or of one a name holds that is made in a loop
        (`for r in [Replica() for _ in range(4)]: ex.submit(r.run_once)`). An instance the
        threads share (`target=self.work`, `w = Worker()` outside the loop) is not one."""
        found = set()
        for path, module in self.modules.items():
            for entry in module.thread_entries:
                made, instance, _ = entry.target.rpartition("().")
                if instance:
                    found.add(self._class_of(self._resolve(path, entry.function, made)))
                    continue
                owner = entry.target.rpartition(".")[0]
                symbol = self._resolve(path, entry.function, owner) if owner else None
                for vpath, function, value, call in self._values(symbol) if symbol else ():
                    if call is not None and call.loops != 1:
                        found.add(self._class_of(self._resolve(vpath, function, value)))
        found.discard(None)
        return frozenset(found)

    @_cached(False)
    def _is_thread_class(self, path: str, qualname: str) -> bool:
        bases = self.modules[path].classes[qualname].bases
        if any(self.modules[path].qualified(base) == "threading.Thread" for base in bases):
            return True
        return any(self._is_thread_class(*base) for base in self._bases(path, qualname))

    def _bases(self, path: str, qualname: str) -> list[FunctionKey]:
        """The base classes of a class that are classes of the project."""
        cls = self.modules[path].classes[qualname]
        found = (self._class_of(self._resolve(path, cls.function, base)) for base in cls.bases)
        return [base for base in found if base is not None]

    def _subclass_starts(self, path: str, qualname: str, *, subclassed: bool) -> Iterable[ThreadStart]:
        """Where a Thread subclass is instantiated; its definition when it never is (nor any
        subclass of it), since something outside the project may start it. One with no `run` of
        its own runs threading.Thread's: the `target=` it is made with."""
        run = self._function_key(self._attribute(path, qualname, "run"))
        instantiations = self._calls_named(qualname.rpartition(".")[2]).instantiates.get((path, qualname), ())
        if run is None:
            for cpath, function, call in instantiations:
                target = call.keyword("target")
                targets = self._runs(self._resolve(cpath, function.qualname, target)) if target else ()
                if targets:
                    started = self._started(cpath, function.qualname, call)
                    label = f"{qualname}(target={target}) (a threading.Thread subclass)"
                    yield ThreadStart(call.location, function.qualname, label, targets, call.loops, None, started)
            return
        label = f"{qualname}() (a threading.Thread subclass)"
        for cpath, function, call in instantiations:
            started = self._started(cpath, function.qualname, call)
            yield ThreadStart(call.location, function.qualname, label, (run,), call.loops, None, started)
        if not instantiations and not subclassed:
            location = self.modules[path].classes[qualname].location
            yield ThreadStart(location, "", label, (run,), None)

    def _entry_targets(self, path: str, entry: ThreadEntry) -> tuple[FunctionKey, ...]:
        return self._runs(self._resolve(path, entry.function, entry.target))

    # -- processes (LL204) --------------------------------------------------------------------

    @_cached(False)
    def in_child_process_only(self, path: str, qualname: str) -> bool:
        """`in_child_process_only`'s answer. A cycle of calls, or a chain of callers deeper
        than MAX_DEPTH, is not known to run only there."""
        key = path, qualname
        function = self.modules[path].functions.get(qualname)
        if function is None or any(not self._process_pool(e, entry) for e, entry in self._entries_named(_called_as(function)).get(key, ())):
            return False  # a thread runs it; a process pool's `submit` does not
        callers = self._callers(key)
        # a target called too only where it runs already (an actor's method by another) runs only there
        started = key in self._process_targets()
        return (started or bool(callers)) and all(self.in_child_process_only(cpath, caller.qualname) for cpath, caller, _ in callers)

    @_cached(frozenset())
    def _process_targets(self) -> frozenset[FunctionKey]:
        """The project functions the processes the program starts run."""
        found = set()
        for path, module in self.modules.items():
            for entry in (*module.process_entries, *(e for e in module.thread_entries if self._process_pool(path, e))):
                found.update(self._entry_targets(path, entry))
                if entry.kind == "ray":
                    found.update(self._actor_methods(self._resolve(path, entry.function, entry.target)))
        return frozenset(found)

    def _actor_methods(self, symbol: Symbol | None) -> list[FunctionKey]:
        """The methods of the classes `symbol` may name that run in a Ray actor made of it: the
        class's own, and those of its project bases that only actors inherit (an `__init__` that
        the actor's runs through `super().__init__()`, a call not resolved)."""
        found = []
        for cls in self._classes(symbol):
            for path, qualname in (cls, *self._actor_bases(cls)):
                functions = self.modules[path].functions.values()
                found += [(path, f.qualname) for f in functions if f.qualname.rpartition(".")[0] == qualname]
        return found

    @_cached(())
    def _classes(self, symbol: Symbol | None) -> tuple[FunctionKey, ...]:
        """The project classes a name may stand for (`cls = Worker`, a parameter passed one)."""
        cls = self._class_of(symbol)
        if cls is not None or symbol is None:
            return (cls,) if cls else ()
        found = []
        for vpath, owner, value, call in self._values(symbol):
            if call is None and value:
                found += self._classes(self._resolve(vpath, owner, value))
        return tuple(dict.fromkeys(found))

    def _actor_bases(self, cls: FunctionKey) -> list[FunctionKey]:
        """The project bases of an actor's class, and theirs, from which no class that a plain call
        makes derives: `Local()` of a `class Local(Base)` may run `Base.__init__` in the driver
        through `super()`; so does `Cls()` of the actor's class itself (`ray.remote(Cls)`)."""
        found, queue, seen = [], self._bases(*cls), {cls}
        while queue:
            base = queue.pop()
            if base not in seen:
                seen.add(base)
                found += [] if any(map(self._made_plainly, self._derived(base))) else [base]
                queue += self._bases(*base)
        return found

    def _derived(self, cls: FunctionKey) -> set[FunctionKey]:
        """`cls` and the project classes deriving from it."""
        found, queue = set(), [cls]
        while queue:
            current = queue.pop()
            if current not in found:
                found.add(current)
                queue += self._subclasses().get(current, ())
        return found

    @_cached({})
    def _subclasses(self) -> dict[FunctionKey, list[FunctionKey]]:
        """Each project class's direct subclasses in the project."""
        found = defaultdict(list)
        for path, module in self.modules.items():
            for name in module.classes:
                for base in self._bases(path, name):
                    found[base].append((path, name))
        return found

    def _made_plainly(self, cls: FunctionKey) -> bool:
        """Whether a call of the class itself makes an instance (`Worker()`; not `Worker.remote()`)."""
        return bool(self._calls_named(cls[1].rpartition(".")[2]).instantiates.get(cls))

    def _start_target_sites(self, start: ThreadStart) -> tuple[CompileSite, ...]:
        """`Thread(target=compiled)`, `pool.map(compiled_model, batches)`: called by the thread."""
        if start.entry is None:
            return ()
        return self._compile_sites(self._resolve(start.path, start.function, start.entry.target))

    # -- reachability -------------------------------------------------------------------------

    def _reached(self, start: ThreadStart) -> dict[FunctionKey, set[str | None]]:
        """`_reach(start)`, made once a start: its findings and its compile settings ask."""
        cache = self._caches["_reached"]  # by id: a start hashes all its facts
        found = cache.get(id(start))
        if found is None:
            found = cache[id(start)] = self._reach(start)
        return found

    def _reach(self, start: ThreadStart, *, unguarded: bool = False) -> dict[FunctionKey, set[str | None]]:
        """Functions a thread runs (only through calls made with no guard held, when
        `unguarded`), with their grad modes.

        A new thread starts with grad enabled, whatever its spawner had."""
        return self._reach_from([(target, None) for target in start.targets], unguarded=unguarded)

    def _reach_from(self, queue, *, unguarded: bool = False) -> dict[FunctionKey, set[str | None]]:
        reached: dict[FunctionKey, set[str | None]] = defaultdict(set)
        queue = deque(queue)
        while queue:
            key, grad = queue.popleft()
            grads = reached[key]
            if grad in grads:
                continue
            grads.add(grad)
            for mode, targets in self._steps(key, unguarded):
                inner = mode or grad
                queue.extend((target, inner) for target in targets)
        return reached

    def _steps(self, key: FunctionKey, unguarded: bool = False) -> list[tuple[str | None, tuple[FunctionKey, ...]]]:
        """What a function runs next (only through calls made with no guard held, when
        `unguarded`), with the grad mode it sets for them (None: its own): its lambdas, what
        its calls run. Made once a function: every walk through it asks."""
        cache = self._caches["_unguarded_steps" if unguarded else "_steps"]
        found = cache.get(key)
        if found is None:
            path, qualname = key
            function = self.modules[path].functions[qualname]
            lambdas = self.lambdas.get(key)
            found = cache[key] = [(None, tuple((path, q) for q in lambdas))] if lambdas else []
            for call in function.calls:
                if unguarded and call.held and self._guarded(path, function, call):
                    continue
                targets = self._call_targets(path, function, call)
                if targets:
                    found.append((call.grad_mode, targets))
        return found

    def _runs_compiled(self, key: FunctionKey) -> bool:
        """Whether a function, or one it runs, calls compiled code. Found for all the functions
        one runs at once, by their strongly connected components (Tarjan's algorithm), so asking
        for every function is linear in the calls: a walk for warm-ups skips the functions that
        do not (a spawner making each class of a chain of n was n walks of n functions)."""
        known = self._caches["_runs_compiled"]
        if key in known:
            return known[key]
        index: dict[FunctionKey, int] = {}
        low: dict[FunctionKey, int] = {}
        compiled: dict[FunctionKey, bool] = {}  # by itself, or by what it runs outside its component
        stack: list[FunctionKey] = []
        work: list[tuple[FunctionKey, Iterable[FunctionKey], int]] = []  # with its place on the stack

        def visit(node: FunctionKey) -> None:
            index[node] = low[node] = len(index)
            path, qualname = node
            function = self.modules[path].functions[qualname]
            compiled[node] = any(self._sites_called(path, function, call) for call in function.calls)
            work.append((node, (t for _, targets in self._steps(node) for t in targets), len(stack)))
            stack.append(node)

        visit(key)
        while work:
            node, following, place = work[-1]
            for other in following:
                if other in known:
                    compiled[node] = compiled[node] or known[other]
                elif other not in index:
                    visit(other)
                    break
                else:  # on the stack: in the component being found
                    low[node] = min(low[node], index[other])
            else:
                work.pop()
                if low[node] < index[node]:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                    compiled[parent] = compiled[parent] or compiled[node]
                    continue
                found = any(compiled[member] for member in stack[place:])
                known.update(dict.fromkeys(stack[place:], found))
                del stack[place:]
                if work:
                    parent = work[-1][0]
                    compiled[parent] = compiled[parent] or found
        return known[key]

    def _call_targets(self, path: str, function: Function, call: Call) -> tuple[FunctionKey, ...]:
        """What a call runs; asked for every call of every thread's reach, so kept by the call."""
        targets = self._targets.get(id(call))
        if targets is None:
            symbol = self._resolve(path, function.qualname, call.callee) if call.callee else None
            targets = self._runs(symbol) if symbol else ()  # most callees (libraries) are None (-9 M of 456)
            self._targets[id(call)] = targets
            if targets and call.held:
                self._holding.add((path, function.qualname))
        return targets

    def _sites_called(self, path: str, function: Function, call: Call) -> tuple[CompileSite, ...]:
        if not call.callee:  # `torch.compile(f)(x)`, or `get_fn()(x)` of a get_fn returning one
            site = self.called_sites.get(call.location)
            if site is not None:
                return (site,)
            made = self.modules[path].called_results.get(call.location)
            key = self._function_key(self._resolve(path, function.qualname, made)) if made else None
            return tuple(self.returned_sites.get(key, ())) if key else ()
        symbol = self._resolve(path, function.qualname, call.callee)
        return self._compile_sites(symbol) if symbol else ()

    # -- guards -------------------------------------------------------------------------------

    def _guarded(self, path: str, function: Function, call: Call) -> bool:
        return any(self._is_guard(path, function.qualname, held) for held in call.held)

    def _is_guard(self, path: str, function: str, held: str) -> bool:
        """Whether holding `held` serialises the threads. Unknown objects count as guards."""
        name = held.removesuffix("()")
        if name in self.lock_names or name.rpartition(".")[2] in self.lock_names:
            return True
        if held.endswith("()"):  # `with make_ctx():`: a fresh object each time, which guards
            # only when it holds a lock for the block (`@contextmanager def locked(): with LOCK: yield`)
            symbol = self._resolve(path, function, name)
            return symbol is not None and self._entered_lock(symbol) == SHARED
        kinds = self._lock_kinds_of(path, function, held)
        return not kinds or not set(kinds) <= {PER_THREAD, NOT_A_LOCK}

    def _lock_kinds_of(self, path: str, function: str, held: str) -> tuple[str, ...]:
        owner = held.rpartition(".")[0]
        if owner and self._thread_local(self._resolve(path, function, owner)):
            return (PER_THREAD,)  # `with local.lock:` of a `threading.local()`: each thread its own
        symbol = self._resolve(path, function, held)
        return self._lock_kinds(symbol) if symbol else ()

    def _semaphore_count(self, path: str, function: str, held: str) -> int | None:
        """How many threads at once a semaphore held in `function` lets in, when every value it
        may hold is one that lets in more than one (`Semaphore(4)`): what LL202's message says."""
        symbol = self._resolve(path, function, held) if not held.endswith("()") else None
        counts = [
            admits(qualified, call) if qualified in SEMAPHORES else None
            for vpath, _, value, call in (self._values(symbol) if symbol else ())
            for qualified in [self.modules[vpath].qualified(value) if call is not None else ""]
        ]
        return min(counts) if counts and None not in counts and min(counts) > 1 else None

    def _thread_local(self, symbol: Symbol | None) -> bool:
        """Whether a symbol holds a `threading.local()`, whose attributes each thread has its own of."""
        return any(
            call is not None and self.modules[vpath].qualified(value) == "threading.local"
            for vpath, _, value, call in (self._values(symbol) if symbol else ())
        )

    @_cached(())
    def _lock_kinds(self, symbol: Symbol) -> tuple[str, ...]:
        kinds = set()
        for vpath, function, value, call in self._values(symbol):
            if call is not None:
                kinds.add(self._lock_kind(symbol, vpath, function, value, call=call))
            elif value.endswith("()"):  # `Thread(target=f, args=(Lock(),))`: made for the thread
                kinds.add(self._lock_kind(symbol, vpath, function, value[:-2], fresh=True))
            else:
                resolved = self._resolve(vpath, function, value) if value else None
                kinds.update(self._lock_kinds(resolved) if resolved else (UNKNOWN,))
        return tuple(sorted(kinds))

    def _lock_kind(
        self, symbol: Symbol, path: str, function: str, constructor: str, fresh: bool = False, call: Call | None = None
    ) -> str:
        """What a lock made by calling `constructor` (by `call`, when known) is; `fresh`: made for
        each thread. A semaphore whose literal count lets several threads in at once
        (`Semaphore(4)`) is no lock; one whose count is not a literal (`Semaphore(n)`) is one."""
        qualified = self.modules[path].qualified(constructor)
        if qualified in LOCK_CONSTRUCTORS:
            if call is not None and (admits(qualified, call) or 1) > 1:
                return NOT_A_LOCK
            scope = symbol[1]
            per_instance = (  # `self.lock = Lock()` in a method of a Thread subclass, or of a
                # class whose instances are made one per thread
                scope in self.modules[path].classes
                and function.startswith(f"{scope}.")
                and (self._is_thread_class(path, scope) or (path, scope) in self._made_per_thread())
            )
            return PER_THREAD if fresh or per_instance or (path, function) in self.on_threads else SHARED
        if qualified.startswith(NOT_LOCKS) or qualified == "open":
            return NOT_A_LOCK
        made_by = self._resolve(path, function, constructor)
        return self._entered_lock(made_by) if made_by else UNKNOWN

    @_cached(UNKNOWN)
    def _entered_lock(self, symbol: Symbol) -> str:
        """What entering an object `symbol` makes holds for the `with` block: SHARED when a project
        class's `__enter__`, or a `@contextmanager` function around its `yield`, holds a guard;
        NOT_A_LOCK when that project code holds none (`with timer:` of a class that measures
        time); UNKNOWN when it is not project code (a library's, or an `__enter__` inherited from
        one)."""
        cls = self._class_of(symbol)
        if cls is not None:
            enter = self._function_key(self._attribute(*cls, "__enter__"))
            if enter is None:
                return UNKNOWN if self._library_based(*cls) else NOT_A_LOCK
        else:
            enter = self._function_key(symbol)
            if enter is None or not self._is_context_manager(*enter):
                return UNKNOWN
        path, qualname = enter
        holds = self.modules[path].functions[qualname].holds
        return SHARED if any(self._is_guard(path, qualname, held) for held in holds) else NOT_A_LOCK

    def _library_based(self, path: str, qualname: str) -> bool:
        """Whether a class, or a project base of it, derives from a class outside the project
        that may be a lock (`class Guard(threading.Condition)`)."""
        cls = self.modules[path].classes[qualname]
        for base in cls.bases:
            key = self._class_of(self._resolve(path, cls.function, base))
            if key is not None:
                if self._library_based(*key):
                    return True
            elif base != "object" and not self.modules[path].qualified(base).startswith(NOT_LOCKS):
                return True
        return False

    def _is_context_manager(self, path: str, qualname: str) -> bool:
        module = self.modules[path]
        return any(
            module.qualified(decorator) in CONTEXT_MANAGER_DECORATORS
            for decorator in module.functions[qualname].decorators
        )

    def _warmed_up(
        self, start: ThreadStart, sites: list[CompileSite], grad: str | None
    ) -> tuple[bool, tuple[Location | None, str | None]]:
        """Whether a warm-up on the spawning thread covers a worker call in grad mode `grad`: one
        in the same grad mode (any other fails a guard, and the workers compile again); else a
        warm-up that does not and its mode."""
        sites = frozenset(sites)
        warmups = self._warmups(start.path, start.function, start.started or start.location, sites)
        warmups += self._import_warmups(start.path, sites)
        for _, mode in warmups:
            if grad_state(mode) == grad_state(grad):
                return True, (None, None)
        return False, warmups[0] if warmups else (None, None)

    @_cached(())
    def _warmups(self, path: str, function: str, before: Location, sites: frozenset) -> tuple:
        """Calls of `sites`' callables on this thread before `before`: in `function`, directly or
        through the functions it calls, and in its callers before they call it."""
        found = []
        spawner = self.modules[path].functions.get(function)
        if spawner is not None:
            calls = spawner.calls
            direct, indirect = self._spawner_warmups(path, spawner)
            chosen: dict[int, set[int] | None] = {}  # by call: its inner calls that call `sites`, None for itself
            for site in sites:
                for i in direct.get(site, ()):
                    if calls[i].location < before:
                        chosen[i] = None
            for site in sites:
                for i, j in indirect.get(site, ()):
                    if calls[i].location < before and chosen.get(i, ()) is not None:
                        chosen.setdefault(i, set()).add(j)
            for i in sorted(chosen):
                call, inner = calls[i], chosen[i]
                if inner is None:
                    found.append((call.location, call.grad_mode))
                else:
                    modes = self._call_warmups(path, spawner, call)[1]
                    found += [(call.location, mode) for j in sorted(inner) for mode in modes[j]]
        for cpath, caller, call in self._callers((path, function)):
            found += self._warmups(cpath, caller.qualname, call.location, sites)
        return tuple(found)

    @_cached(())
    def _import_warmups(self, path: str, sites: frozenset) -> tuple:
        """Calls of `sites`' callables in the top-level code of the other modules the module at
        `path` imports (`step = torch.compile(f); step(x)` in model.py): they run on the main
        thread when it is imported, before its code starts a thread."""
        found: tuple = ()
        for imported in sorted(self._imported(path) - {path}):
            found += self._warmups(imported, MODULE_SCOPE, Location(imported, END_OF_FILE, 0, 0, 0), sites)
        return found

    def _spawner_warmups(self, path: str, spawner: Function) -> tuple[dict, dict]:
        """By site, the calls of `spawner` (by index) that call it, and those that run code
        calling it (by index and the index of that code's call, see `_call_warmups`): made once
        a function, a warm-up asked about for each site each of its threads calls reads only the
        calls of those sites (every call for every question was ~n^3 in a spawner's threads)."""
        cache = self._caches["_spawner_warmups"]
        found = cache.get((path, spawner.qualname))
        if found is None:
            direct: dict[CompileSite, list[int]] = defaultdict(list)
            indirect: dict[CompileSite, list[tuple[int, int]]] = defaultdict(list)
            for i, call in enumerate(spawner.calls):
                own, _, by_site = self._call_warmups(path, spawner, call)
                for site in own:
                    direct[site].append(i)
                for site, inner in by_site.items():
                    indirect[site] += [(i, j) for j in inner]
            found = cache[path, spawner.qualname] = (direct, indirect)
        return found

    def _call_warmups(self, path: str, spawner: Function, call: Call) -> tuple:
        """What a call warms up, whatever the sites asked about: the sites it calls itself; the
        grad modes of each call of compiled code in the functions it runs (in the order a walk
        of them meets them); and by site, the indexes of those calls. Made once a call: a
        spawner's earlier calls are asked about for every site each of its threads calls (a
        fresh walk each time was ~n^4 in the classes of a chain of compiled methods)."""
        cache = self._caches["_call_warmups"]
        found = cache.get(id(call))
        if found is None:
            direct = frozenset(self._sites_called(path, spawner, call))
            modes: list[tuple[str | None, ...]] = []
            by_site: dict[CompileSite, list[int]] = defaultdict(list)
            starts = [(t, call.grad_mode) for t in self._call_targets(path, spawner, call) if self._runs_compiled(t)]
            for (tpath, tname), grads in self._reach_from(starts).items():
                inner = self.modules[tpath].functions[tname]
                for inner_call in inner.calls:
                    called = self._sites_called(tpath, inner, inner_call)
                    if called:
                        for site in dict.fromkeys(called):
                            by_site[site].append(len(modes))
                        modes.append(tuple(inner_call.grad_mode or g for g in grads))
            found = cache[id(call)] = (direct, modes, by_site)
        return found

    def _callers(self, key: FunctionKey) -> list[CallRef]:
        function = self.modules[key[0]].functions.get(key[1])
        if key[1] == MODULE_SCOPE or function is None:  # None: a Thread subclass nobody starts here
            return []
        return self._calls_named(_called_as(function)).runs.get(key, [])

    @_cached(_NO_CALLS)
    def _calls_named(self, name: str) -> _Calls:
        """The calls whose callee ends in `name`, by what they run and by the project class they
        instantiate: each call is resolved once, whoever asks (callers, arguments, Thread
        subclasses), so asking for every function is linear in the calls."""
        found = _Calls(defaultdict(list), defaultdict(list))
        for cpath, caller, call in self.calls_by_name.get(name, ()):
            symbol = self._resolve(cpath, caller.qualname, call.callee)
            for key in self._runs(symbol):
                found.runs[key].append((cpath, caller, call))
            cls = self._class_of(symbol)
            if cls is not None:
                found.instantiates[cls].append((cpath, caller, call))
        return found

    @_cached({})
    def _entries_named(self, name: str) -> dict[FunctionKey, list[tuple[str, ThreadEntry]]]:
        """Thread entries whose target ends in `name`, by the functions they run."""
        found = defaultdict(list)
        for epath, entry in self.entries_by_name.get(name, ()):
            for key in self._entry_targets(epath, entry):
                found[key].append((epath, entry))
        return found

    # -- names --------------------------------------------------------------------------------

    @_cached(None)
    def _resolve(self, path: str, function: str, dotted: str) -> Symbol | None:
        """The symbol a dotted expression names in `function` of the module at `path`."""
        module = self.modules[path]
        if "<lambda" in dotted:
            scope, _, name = dotted.rpartition(".")
            return path, scope or MODULE_SCOPE, name
        made, instance, method = dotted.rpartition("().")
        if instance:  # `Worker().loop`: the method of the class, when `Worker` is one
            cls = self._class_of(self._resolve(path, function, made))
            return self._attribute(*cls, method) if cls is not None else None
        head, *rest = dotted.split(".")
        if head == "self":
            owner = module.functions.get(function)
            if owner is None or owner.class_name is None or not rest:
                return None
            symbol = self._attribute(path, owner.class_name, rest.pop(0))
        else:
            scope = module.scope_of(function, head)
            symbol = (path, scope, head) if scope != MODULE_SCOPE else self._global(path, head)
        for attr in rest:
            if symbol is None:
                return None
            symbol = self._member(symbol, attr)
        return symbol

    @_cached(None)
    def _global(self, path: str, name: str) -> Symbol | None:
        module = self.modules[path]
        symbol = path, MODULE_SCOPE, name
        if module.assigns(name) or symbol in self.bindings or symbol in self.sites:
            return symbol  # assigned at module level, or in a function that declares it `global`
        if name in module.imports:
            return self._qualified(path, module.imports[name])
        return module.from_stars(lambda star: self.index.resolve(path, star), lambda other: self._global(other, name))

    def _qualified(self, importer: str, dotted: str) -> Symbol | None:
        """A fully qualified name (`pkg.mod.f`) in the project, or None (a library)."""
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            path = self.index.resolve(importer, ".".join(parts[:end]))
            if path is not None:
                symbol: Symbol | None = (path, "", "")
                for attr in parts[end:]:
                    symbol = self._member(symbol, attr) if symbol else None
                return symbol
        return None

    def _member(self, symbol: Symbol, attr: str) -> Symbol | None:
        path, scope, name = symbol
        if scope == "":  # a module
            found = self._global(path, attr)
            submodule = f"{self.modules[path].module}.{attr}"
            return found or (self._qualified(path, submodule) if submodule in self.index.by_name else None)
        assigned = path, scope, f"{name}.{attr}"
        if assigned in self.sites:  # `model.forward = torch.compile(model.forward)`
            return assigned
        cls = self._class_of(symbol)
        if cls is not None:
            return self._attribute(*cls, attr)
        for cls in self._instance_classes(symbol):
            found = self._attribute(*cls, attr)
            if found is not None:
                return found
        if attr in MODULE_CALLS and any(s.api != MODULE_COMPILE for s in self._compile_sites(symbol)):
            # `compiled.forward` of a `compiled = torch.compile(model)`: the OptimizedModule's
            # forward is the compiled one, the module itself. Not for `model.compile()` in place,
            # which compiles `model(x)` but leaves `model.forward` the original.
            return symbol
        return None

    @_cached(None)
    def _attribute(self, path: str, cls: str, attr: str) -> Symbol | None:
        """`attr` of class `cls` or of its bases in the project."""
        symbol = path, cls, attr
        if symbol in self.bindings or symbol in self.sites or f"{cls}.{attr}" in self.modules[path].functions:
            return symbol
        definition = self.modules[path].classes[cls]
        for base in definition.bases:
            found = self._class_of(self._resolve(path, definition.function, base))
            if found is not None:
                inherited = self._attribute(*found, attr)
                if inherited is not None:
                    return inherited
        return None

    def _class_of(self, symbol: Symbol | None) -> FunctionKey | None:
        if symbol is None or symbol[1] == "":
            return None
        qualname = _join(symbol[1], symbol[2])
        return (symbol[0], qualname) if qualname in self.modules[symbol[0]].classes else None

    def _function_key(self, symbol: Symbol | None) -> FunctionKey | None:
        if symbol is None or symbol[1] == "":
            return None
        qualname = _join(symbol[1], symbol[2])
        return (symbol[0], qualname) if qualname in self.modules[symbol[0]].functions else None

    # -- values -------------------------------------------------------------------------------

    @_cached(())
    def _values(self, symbol: Symbol) -> tuple[Value, ...]:
        """What a symbol may hold: its assignments, and for a parameter the arguments passed."""
        return (*self.bindings.get(symbol, ()), *self._arguments(symbol))

    def _arguments(self, symbol: Symbol) -> list[Value]:
        path, scope, name = symbol
        function = self.modules[path].functions.get(scope) if scope else None
        if function is None or name not in function.params:
            return []
        index = function.params.index(name) - function.is_method
        key = path, scope
        values = []
        for cpath, caller, call in self._calls_named(_called_as(function)).runs.get(key, ()):
            passed = call.argument(name, index)
            values.append((cpath, caller.qualname, passed, None))
        for epath, entry in self._entries_named(function.name).get(key, ()):
            passed = next((value for word, value in entry.keywords if word == name), None)
            if passed is not None:
                values.append((epath, entry.function, passed, None))
            elif 0 <= index < len(entry.args):
                values.append((epath, entry.function, entry.args[index], None))
        return values

    @_cached(())
    def _instance_classes(self, symbol: Symbol) -> tuple[FunctionKey, ...]:
        """The project classes a symbol may hold an instance of (`m = Model(...).cuda()`)."""
        found = []
        for vpath, function, value, call in self._values(symbol):
            resolved = self._resolve(vpath, function, value) if value else None
            if resolved is None:
                continue
            if call is not None:
                cls = self._class_of(resolved)
                found += [cls] if cls else []
            else:
                found += self._instance_classes(resolved)
        return tuple(dict.fromkeys(found))

    @_cached(())
    def _compile_sites(self, symbol: Symbol | None) -> tuple[CompileSite, ...]:
        """The compile sites whose result `symbol` may hold; for an instance, those of the method
        calling it runs (`@torch.compile def forward`)."""
        if symbol is None:
            return ()
        found = list(self.sites.get(symbol, ()))
        # `model.forward = torch.compile(model.forward)`: `model(x)` runs the instance's forward
        found += self.sites.get((symbol[0], symbol[1], f"{symbol[2]}.forward"), ()) if symbol[1] else ()
        for instance in self._instance_classes(symbol):  # `net(x)` of a compiled `forward`
            method = self._attribute(*instance, "__call__") or self._attribute(*instance, "forward")
            found += self.sites.get(method, ()) if method else ()
        for vpath, function, value, call in self._values(symbol):
            resolved = self._resolve(vpath, function, value) if value else None
            if resolved is None:
                continue
            if call is None:
                found += self._compile_sites(resolved)
                continue
            key = self._function_key(resolved)
            found += self.returned_sites.get(key, ()) if key else ()
            api = self._compile_api(resolved)
            if api is not None and call.keyword("disable") != "True":  # `model = compile_fn(model)` for a
                # `compile_fn = torch.compile`; with `disable=True` it returns `model` itself
                found.append(_aliased_site(symbol, function, api, call))
        return tuple(dict.fromkeys(found))

    @_cached(None)
    def _compile_api(self, symbol: Symbol | None) -> str | None:
        """The compile API a name is bound to (`jit_fuser = torch.compile`), through aliases."""
        for vpath, function, value, call in self._values(symbol) if symbol else ():
            if call is not None or not value:
                continue
            qualified = self.modules[vpath].qualified(value)
            if qualified in COMPILE_APIS:
                return qualified
            api = self._compile_api(self._resolve(vpath, function, value))
            if api is not None:
                return api
        return None

    @_cached(())
    def _runs(self, symbol: Symbol | None) -> tuple[FunctionKey, ...]:
        """The project functions calling `symbol` runs. Compiled callables are not entered:
        what they call is traced into their graph, not a separate race. But a module compiled in
        place (`model.compile()`) or whose `forward` is compiled runs its class's own `__call__`
        first, eagerly, on the calling thread (nn.Module's call is what dynamo compiles): that one
        is entered; not under `torch.compile(model)`, whose graph traces `model.__call__`."""
        if symbol is None:
            return ()
        sites = self._compile_sites(symbol)
        if sites and any(map(_traces_call, sites)):
            return ()
        found = []
        function = self._function_key(symbol) if not sites else None
        found += [function] if function else []
        cls = self._class_of(symbol) if not sites else None
        if cls is not None:
            found += [k for k in [self._function_key(self._attribute(*cls, "__init__"))] if k]
        for instance in self._instance_classes(symbol):
            found += self._instance_runs(instance, compiled=bool(sites))
        for vpath, owner, value, call in self._values(symbol) if not sites else ():
            if call is None and value:
                found += self._runs(self._resolve(vpath, owner, value))
        return tuple(dict.fromkeys(found))

    def _instance_runs(self, cls: FunctionKey, *, compiled: bool) -> list[FunctionKey]:
        """What calling an instance of a project class runs in the project: the `__call__`s its
        class decorators install, then its own `__call__`, else its `forward` (nn.Module's
        `__call__` runs it); of a `compiled` one, only the `__call__`s (its forward is compiled)."""
        own = self._attribute(*cls, "__call__")
        method = own if own or compiled else self._attribute(*cls, "forward")
        found = [self._function_key(method)] if method else []
        return [*self._installed_calls(*cls), *filter(None, found)]

    @_cached(())
    def _installed_calls(self, path: str, qualname: str) -> tuple[FunctionKey, ...]:
        """The `__call__`s the class decorators of a class install (`cls.__call__ = wrapper` in a
        project `def decorate(cls)`, vLLM's `support_torch_compile`): what calling an instance
        runs instead of the class's own."""
        found = []
        cls = self.modules[path].classes[qualname]
        for decorator in cls.decorators:
            key = self._function_key(self._resolve(path, cls.function, decorator))
            params = self.modules[key[0]].functions[key[1]].params if key else ()
            for vpath, function, value, _ in self.bindings.get((*key, f"{params[0]}.__call__"), ()) if params else ():
                found += [k for k in [self._function_key(self._resolve(vpath, function, value))] if k]
        return tuple(found)


def _join(scope: str, name: str) -> str:
    return name if scope == MODULE_SCOPE else f"{scope}.{name}"


def _traces_call(site: CompileSite) -> bool:
    """Whether a compile site compiles calling the object itself, a project `__call__` included
    (`torch.compile(model)`: dynamo traces `model.__call__`), rather than what nn.Module's
    `__call__` runs (`model.compile()` in place, a compiled `forward`)."""
    return site.api != MODULE_COMPILE and (site.name or "").rpartition(".")[2] != "forward"


def _aliased_site(symbol: Symbol, function: str, api: str, call: Call) -> CompileSite:
    """The compile site of `name = alias(f, ...)` for an alias of a compile API."""
    mode = call.keyword("mode") or ""  # a literal argument is described by its repr: 'max-autotune'
    return CompileSite(
        call.location,
        api,
        call.args[0] if call.args else "",
        function,
        symbol[1],
        symbol[2],
        fullgraph=call.keyword("fullgraph") == "True",
        mode=mode[1:-1] if len(mode) > 1 and mode[0] == mode[-1] and mode[0] in "'\"" else None,
    )


def _called_as(function: Function) -> str:
    """The last name of the callee that runs `function`: a class's for `__init__`."""
    if function.name == "__init__" and function.class_name:
        return function.class_name.rpartition(".")[2]
    return function.name
