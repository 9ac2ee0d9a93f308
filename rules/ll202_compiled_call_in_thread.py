"""## What it does
Finds calls of a compiled callable (the result of `torch.compile`, a function decorated with
`@torch.compile`, an attribute assigned from it) made on worker threads with no guard: no lock
shared by all the threads held around the call, and no warm-up call on the spawning thread before
the threads start. The message says when it is worse: `fullgraph=True`, or more than 8 threads
(`max_workers=N`, `for _ in range(N)`) known statically.

## Why is this bad?
`torch.compile` is not thread safe: "torch.compile is not thread safe overall (neither dynamo,
nor inductor)" (PyTorch maintainers, pytorch/pytorch#168042). Measured on torch 2.13 with 4 to 12
threads: every thread whose first call races compiles the function again, in 100% of runs
("Unexpected recompilation"). Past `recompile_limit` (8) the remaining threads run the function
*uncompiled, silently*, or raise `FailOnRecompileLimitHit` when it was compiled with
`fullgraph=True`; and the polluted cache then makes a legitimate new input shape run uncompiled
too.

## Example
```python
import threading

import torch
from torch.nn.attention.flex_attention import flex_attention

attention = torch.compile(flex_attention)
q = k = v = torch.randn(1, 8, 128, 64, device="cuda")

def worker(rank):
    lock = threading.Lock()          # one lock per thread: serialises nothing
    with lock:
        return attention(q, k, v)

for rank in range(4):
    threading.Thread(target=worker, args=(rank,)).start()
```

## Use instead
Share one lock between all threads, or call it once on the main thread (a warm-up) before
starting them:
```python
import threading

import torch
from torch.nn.attention.flex_attention import flex_attention

attention = torch.compile(flex_attention)
q = k = v = torch.randn(1, 8, 128, 64, device="cuda")
COMPILE_LOCK = threading.Lock()

def worker(rank):
    with COMPILE_LOCK:
        return attention(q, k, v)

for rank in range(4):
    threading.Thread(target=worker, args=(rank,)).start()
```

## Details
Compiled callables:
- the result of `torch.compile(...)` (also `torch.compiler.compile`,
  `torch._dynamo.optimize(...)(f)`), a function decorated with `@torch.compile`, or an attribute
  assigned from it (`self.model = torch.compile(model)`); names resolve through aliases (`import
  torch as T`, `from torch import compile as tc`) and imports from other modules of the project;
- a compile made a no-op (`torch.compile(f, disable=True)`, also as a decorator or
  `model.compile(disable=True)`) compiles nothing: its callable is not a compiled one.
  `disable=` and `fullgraph=` are read as LL203 reads `mode=`: a literal, or a module constant
  bound once to one (`DISABLE = True`, then `disable=DISABLE`);
- the forward of a compiled module is the compiled one: `Thread(target=compiled.forward)` and
  `compiled.forward(x)` of a `compiled = torch.compile(model)` run it; after `model.forward =
  torch.compile(model.forward)` (or `self.model.forward = ...`), `model(x)` does (that name or
  attribute only: another instance of the class is not compiled). `model.compile()` in place
  compiles `model(x)` but leaves `model.forward` the original;
- methods that return the module itself keep it compiled: `torch.compile(net).to("cuda")`,
  `.cuda()`, `.eval()`.

Worker threads are the targets of `threading.Thread` (also `self.method`, lambdas,
`functools.partial`), the `run` of `Thread` subclasses, `ThreadPoolExecutor` `submit`/`map`,
`asyncio.to_thread`, `run_in_executor` and `ThreadPool`, followed through the functions, methods
and modules they call. A thread pool passed to a helper or renamed (`run_all(pool, xs)`, `ex =
pool`) is the same pool.

A lock guards the call when every thread holds the *same* lock around it (`with LOCK:`, or
between `LOCK.acquire()` and `LOCK.release()`): a module-level lock, a class attribute, a closure
variable, or one passed in by the spawning code. Names listed in the `lock-names` setting count
as shared locks. These guard nothing:
- a `Lock()` created inside the thread function, or per `Thread` instance in its `__init__`;
  one the spawner makes for each thread (`args=(threading.Lock(),)`, `locks[i]` of a list of
  locks); one on a `threading.local()`; `self.lock` of a class whose instances are made one per
  thread (`Thread(target=Worker().loop)` in a loop, `for r in [Replica() for ...]:
  ex.submit(r.run_once)`);
- a semaphore that lets more than one thread in: it is a lock only as `Semaphore()` or
  `BoundedSemaphore(1)`; `Semaphore(4)` lets 4 threads race at once. A count that is not a
  literal (`Semaphore(n)`, `Semaphore(int(os.environ["SLOTS"]))`) is taken for a lock:
  launchlint cannot tell its value, and reports nothing it cannot show;
- a context manager of the project that holds no such lock for its block: `with timer:` of a
  class that measures time, or `with self.profiler():`. One whose `__enter__` acquires a shared
  lock, or a `@contextmanager` function that yields inside `with LOCK:`, guards.

A warm-up guards the call when the spawning thread calls the compiled callable once before it
starts the threads:
- for a thread bound to a name, before its `t.start()`, even when it was made earlier; for
  threads held in a list (`threads = [Thread(...) for ...]` or `threads.append(...)`), before the
  `for t in threads: t.start()` loop;
- also at import time: a module the spawning module imports (directly or through others) calls
  the compiled callable in its top-level code;
- in the grad mode the workers call it in: grad mode is one of dynamo's guards, so after a
  warm-up with grad enabled (a training step) the first workers calling under `torch.no_grad()`
  compile again, and race, as do workers calling with grad enabled after a warm-up under
  `torch.no_grad()`. `torch.inference_mode()` is a mode of its own (it changes the dispatch keys
  dynamo's tensor guards check): a warm-up under `torch.no_grad()` does not cover it. Workers
  that call in several modes need a warm-up in each (a training step, then `with
  torch.no_grad(): model(x)`).

## References
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Related, Severity
from launchlint.pyfacts import GRAD, INFERENCE_MODE, NO_GRAD
from launchlint.rulekit import THREADS, Example, dedented
from launchlint.threads import COMPILE_RACE_REFERENCES, CompiledCall, consequence, grad_state, threads_of

__doc__ += COMPILE_RACE_REFERENCES  # shared with the other compile-race rule

CODE = "LL202"
NAME = "compiled-call-in-thread"
SEVERITY = Severity.ERROR
SUMMARY = "A torch.compile'd callable is called on worker threads without a shared lock or warm-up"
ANALYSIS = THREADS  # reads Project.threads: see rulekit.Rule.analysis

GRAD_CONTEXTS = {
    GRAD: "with grad enabled",
    NO_GRAD: "under torch.no_grad()",
    INFERENCE_MODE: "under torch.inference_mode()",
}


def check(project) -> Iterator[Finding]:
    for found in project.threads.compiled_calls:
        yield Finding(found.location, _message(found), _related(found))


def _message(found: CompiledCall) -> str:
    """What is called where, what the race does, what to do: the thread start and the compile
    site are the related locations."""
    name = f"compiled `{found.callee}`" if found.callee else "a compiled callable"
    text = f"{threads_of(found.start)} call {name} with no shared lock"
    if found.own_lock:
        text += f" (`{found.own_lock}` is made per thread)"
    elif found.wide_lock:
        held, count = found.wide_lock
        text += f" (`{held}` lets {count} threads in at once)"
    if found.warmup is not None:  # the fix says the workers' mode
        warmup, workers = (GRAD_CONTEXTS[grad_state(mode)] for mode in (found.warmup_mode, found.grad_mode))
        text += f", warmed up only {warmup}"
    text += f": {consequence(found.site)}"
    if found.warmup is not None:
        return text + f"; warm it up {workers} too"
    return text + "; share a lock, or call it once before they start"


def _related(found: CompiledCall) -> tuple[Related, ...]:
    related = [
        found.start.related(),
        Related(found.site.location, f"compiled here ({found.site.api})"),
    ]
    if found.warmup is not None:
        related.append(Related(found.warmup, "warm-up in another grad mode: it does not cover the workers"))
    return tuple(related)


INCIDENT = dedented(
    """
    import threading

    import torch
    from torch.nn.attention.flex_attention import flex_attention

    flex_attention_compiled = torch.compile(flex_attention)


    def worker(rank):
        q = k = v = torch.randn(1, 8, 128, 64, device=f"cuda:{rank}")
        return flex_attention_compiled(q, k, v)


    threads = [threading.Thread(target=worker, args=(r,)) for r in range(4)]
    for t in threads:
        t.start()
    """
)

INVALID = [
    Example({"train.py": INCIDENT}, ["LL202 train.py:11"]),
    Example(  # cross-module: the trainer imports the compiled function from another module
        {
            "model/attention.py": dedented(
                """
                import torch
                from torch.nn.attention.flex_attention import flex_attention

                attention = torch.compile(flex_attention, fullgraph=True)
                """
            ),
            "train.py": dedented(
                """
                import threading
                from model.attention import attention
                import model.attention as attn_mod


                def worker(q):
                    attention(q, q, q)
                    attn_mod.attention(q, q, q)


                for rank in range(12):
                    threading.Thread(target=worker, args=(rank,)).start()
                """
            ),
        },
        ["LL202 train.py:7", "LL202 train.py:8"],
    ),
    Example(  # aliases, and a module whose forward calls the compiled function
        {
            "blocks.py": dedented(
                """
                import torch as T
                from torch import compile as tc
                from torch import nn


                @tc
                def gelu(x):
                    return x * T.sigmoid(1.702 * x)


                class Block(nn.Module):
                    def forward(self, x):
                        return gelu(x)
                """
            ),
            "train.py": dedented(
                """
                import threading
                from blocks import Block


                def worker(model, x):
                    model(x)


                block = Block().cuda()
                threading.Thread(target=worker, args=(block, 1)).start()
                """
            ),
        },
        ["LL202 blocks.py:13"],
    ),
    Example(  # a Thread subclass compiling its model in __init__ (on the spawning thread)
        {
            "train.py": dedented(
                """
                import threading
                import torch


                class Worker(threading.Thread):
                    def __init__(self, model):
                        super().__init__()
                        self.model = torch.compile(model)

                    def run(self):
                        self.model(torch.ones(8))


                workers = [Worker(torch.nn.Linear(8, 8)) for _ in range(4)]
                """
            )
        },
        ["LL202 train.py:11"],
    ),
    Example(  # an executor's submit, and a functools.partial thread target
        {
            "train.py": dedented(
                """
                import functools
                import threading
                from concurrent.futures import ThreadPoolExecutor

                import torch

                step = torch.compile(lambda x: x * 2)


                def job(x):
                    return step(x)


                def loop(scale, n):
                    for i in range(n):
                        step(i * scale)


                with ThreadPoolExecutor(max_workers=16) as pool:
                    futures = [pool.submit(job, i) for i in range(64)]
                threading.Thread(target=functools.partial(loop, 2), args=(10,)).start()
                """
            )
        },
        ["LL202 train.py:11", "LL202 train.py:16"],
    ),
    Example(  # the incident's "fix": a lock per thread serialises nothing
        {
            "train.py": dedented(
                """
                import threading
                import torch

                attention = torch.compile(torch.nn.functional.scaled_dot_product_attention)


                class Worker(threading.Thread):
                    def __init__(self):
                        super().__init__()
                        self.lock = threading.Lock()

                    def run(self):
                        with self.lock:
                            attention(1, 2, 3)


                def worker():
                    exec_lock = threading.Lock()
                    with exec_lock:
                        attention(1, 2, 3)


                Worker().start()
                threading.Thread(target=worker).start()
                """
            )
        },
        ["LL202 train.py:14", "LL202 train.py:20"],
    ),
    Example(  # locks the spawner makes one per thread, or each thread's own object holds:
        # passed in (`args=(threading.Lock(),)`, `locks[i]`), on a `threading.local()`, on an
        # instance made for each thread; one instance all the threads share guards (Trainer)
        {
            "train.py": dedented(
                """
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch

                step = torch.compile(torch.sin)
                local = threading.local()


                def passed(lock, x):
                    with lock:
                        step(x)


                def indexed(lock, x):
                    with lock:
                        step(x)


                def on_local():
                    local.lock = threading.Lock()
                    with local.lock:
                        step(1)


                class Worker:
                    def __init__(self):
                        self.lock = threading.Lock()

                    def loop(self):
                        with self.lock:
                            step(1)


                class Replica:
                    def __init__(self):
                        self.lock = threading.Lock()

                    def run_once(self):
                        with self.lock:
                            step(1)


                class Trainer:
                    def __init__(self):
                        self.lock = threading.Lock()

                    def work(self):
                        with self.lock:
                            step(1)

                    def fit(self):
                        for _ in range(4):
                            threading.Thread(target=self.work).start()


                def main(n):
                    locks = [threading.Lock() for _ in range(n)]
                    for i in range(n):
                        threading.Thread(target=passed, args=(threading.Lock(), i)).start()
                        threading.Thread(target=indexed, args=(locks[i], i)).start()
                        threading.Thread(target=on_local).start()
                        threading.Thread(target=Worker().loop).start()
                    replicas = [Replica() for _ in range(n)]
                    with ThreadPoolExecutor(n) as ex:
                        for r in replicas:
                            ex.submit(r.run_once)
                    Trainer().fit()
                """
            )
        },
        ["LL202 train.py:11", "LL202 train.py:16", "LL202 train.py:22", "LL202 train.py:31", "LL202 train.py:40"],
    ),
    Example(  # every compiled form and start form: decorators with and without arguments,
        # optimize(...)(f), torch.compiler.compile; to_thread, run_in_executor, ThreadPool, dummy.Pool
        {
            "pkg/__init__.py": "",
            "pkg/model.py": dedented(
                """
                import torch
                from torch._dynamo import optimize


                @torch.compile
                def plain(x):
                    return x + 1


                @torch.compile(dynamic=True)
                def dynamic(x):
                    return x * 2


                fused = optimize("inductor")(lambda x: x - 1)
                exported = torch.compiler.compile(torch.nn.Linear(8, 8))
                """
            ),
            "pkg/serve.py": dedented(
                """
                import asyncio
                from multiprocessing.dummy import Pool
                from multiprocessing.pool import ThreadPool

                from . import model
                from .model import dynamic, plain


                async def handle(x):
                    loop = asyncio.get_running_loop()
                    await asyncio.to_thread(plain, x)
                    await loop.run_in_executor(None, lambda: dynamic(x))


                def batch(xs):
                    with Pool(4) as pool:
                        pool.map(model.fused, xs)
                    with ThreadPool(4) as pool:
                        pool.imap(lambda x: model.exported(x), xs)
                        pool.apply_async(model.plain, (1,))
                """
            ),
        },
        ["LL202 pkg/serve.py:11", "LL202 pkg/serve.py:12", "LL202 pkg/serve.py:17", "LL202 pkg/serve.py:19",
         "LL202 pkg/serve.py:20"],
    ),
    Example(  # nn.Module.compile() in place; a Thread subclass's run calls through self.; an
        # executor stored on self (16 workers, fullgraph=True: the message says both)
        {
            "trainer.py": dedented(
                """
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch


                class Net(torch.nn.Module):
                    def forward(self, x):
                        return x


                class Replica(threading.Thread):
                    def __init__(self, model):
                        super().__init__()
                        self.model = model

                    def run(self):
                        for _ in range(10):
                            self.step()

                    def step(self):
                        return self.model(torch.ones(8))


                class Trainer:
                    def __init__(self):
                        self.net = Net()
                        self.net.compile(fullgraph=True)
                        self.pool = ThreadPoolExecutor(max_workers=16)

                    def _step(self, batch):
                        return self.net(batch)

                    def fit(self, batches):
                        for batch in batches:
                            self.pool.submit(self._step, batch)


                net = Net()
                net.compile()
                for _ in range(2):
                    Replica(net).start()
                """
            )
        },
        ["LL202 trainer.py:21", "LL202 trainer.py:31"],
    ),
    Example(  # a warm-up under no_grad does not cover workers that call with grad enabled
        {
            "train.py": dedented(
                """
                import threading
                import torch

                model = torch.compile(torch.nn.Linear(8, 8))


                def worker():
                    model(torch.ones(8)).sum().backward()


                with torch.no_grad():
                    model(torch.ones(8))
                threading.Thread(target=worker).start()
                """
            )
        },
        ["LL202 train.py:8"],
    ),
    Example(  # a training loop's warm-up (grad enabled) does not cover evaluation workers under
        # no_grad or inference_mode; nor does a no_grad one cover inference_mode workers
        {
            "bench.py": dedented(
                """
                from concurrent.futures import ThreadPoolExecutor
                import threading
                import torch

                model = torch.compile(torch.nn.Linear(4, 4))
                head = torch.compile(torch.nn.Linear(4, 4))
                X = torch.randn(2, 4)


                def eval_batch(_):
                    with torch.no_grad():
                        return model(X).sum().item()


                @torch.inference_mode()
                def serve():
                    model(X)
                    head(X)


                for _ in range(3):
                    model(X).sum().backward()
                with torch.no_grad():
                    head(X)
                with ThreadPoolExecutor(max_workers=4) as ex:
                    print(list(ex.map(eval_batch, range(8))))
                threading.Thread(target=serve).start()
                """
            )
        },
        ["LL202 bench.py:12", "LL202 bench.py:17", "LL202 bench.py:18"],
    ),
    Example(  # a thread pool handed to a helper, or renamed: its workers still race
        {
            "train.py": dedented(
                """
                from concurrent.futures import ThreadPoolExecutor
                import torch

                step = torch.compile(lambda x: x * 2)


                def job(x):
                    return step(x)


                def warm(x):
                    return step(x)


                def run_all(pool, xs):
                    return [pool.submit(job, x) for x in xs]


                with ThreadPoolExecutor(4) as executor:
                    run_all(executor, range(8))
                    ex = executor
                    ex.submit(warm, 1)
                """
            )
        },
        ["LL202 train.py:8", "LL202 train.py:12"],
    ),
    Example(  # the warm-up runs after the thread starts: the thread's first call races it
        {
            "train.py": dedented(
                """
                import threading
                import torch

                step = torch.compile(lambda x: x * 2)


                def job():
                    return step(1)


                t = threading.Thread(target=job)
                t.start()
                step(0)
                """
            )
        },
        ["LL202 train.py:8"],
    ),
    Example(  # the compiled callable passed by keyword: Thread's `kwargs=`, submit's and
        # to_thread's keyword arguments; a shared lock passed by keyword guards (`guarded`)
        {
            "serve.py": dedented(
                """
                import asyncio
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch

                fast = torch.compile(torch.nn.Linear(8, 8))
                LOCK = threading.Lock()


                def worker(x, fn=None):
                    fn(x)


                def submitted(x, fn=None):
                    fn(x)


                def awaited(x, fn=None):
                    fn(x)


                def guarded(x, fn=None, lock=None):
                    with lock:
                        fn(x)


                async def main():
                    threading.Thread(target=worker, args=(1,), kwargs={"fn": fast}).start()
                    threading.Thread(target=guarded, args=(1,), kwargs={"fn": fast, "lock": LOCK}).start()
                    with ThreadPoolExecutor(4) as ex:
                        ex.submit(submitted, 1, fn=fast)
                    await asyncio.to_thread(awaited, 1, fn=fast)
                """
            )
        },
        ["LL202 serve.py:11", "LL202 serve.py:15", "LL202 serve.py:19"],
    ),
    Example(  # a Thread subclass with no `run` of its own runs the `target=` it is made with
        {
            "train.py": dedented(
                """
                import threading
                import torch

                step = torch.compile(torch.sin)


                class NamedThread(threading.Thread):
                    pass


                def worker():
                    step(1)


                NamedThread(target=worker, name="w").start()
                NamedThread(name="idle").start()
                """
            )
        },
        ["LL202 train.py:12"],
    ),
    Example(  # a compiled forward: `@torch.compile` on the method `net(x)` runs, and
        # `model.forward = torch.compile(model.forward)` called as `model.forward(x)`
        {
            "train.py": dedented(
                """
                import threading
                import torch


                class Net(torch.nn.Module):
                    @torch.compile
                    def forward(self, x):
                        return x * 2


                net = Net()
                model = torch.nn.Linear(8, 8)
                model.forward = torch.compile(model.forward)


                def worker():
                    net(torch.ones(2))
                    model.forward(torch.ones(8))


                for _ in range(4):
                    threading.Thread(target=worker).start()
                """
            )
        },
        ["LL202 train.py:17", "LL202 train.py:18"],
    ),
    Example(  # threads held in a list: the warm-up runs after the loop that starts them
        {
            "train.py": dedented(
                """
                import threading
                import torch

                step = torch.compile(lambda x: x * 2)


                def job():
                    return step(1)


                threads = [threading.Thread(target=job) for _ in range(4)]
                for t in threads:
                    t.start()
                step(0)
                """
            )
        },
        ["LL202 train.py:8"],
    ),
    Example(  # a context manager of the project that holds no lock guards nothing
        {
            "train.py": dedented(
                """
                import threading
                import time
                from contextlib import contextmanager
                import torch

                step = torch.compile(torch.sin)


                class Timer:
                    def __enter__(self):
                        self.t = time.time()

                    def __exit__(self, *exc):
                        print(time.time() - self.t)


                class Runner:
                    @contextmanager
                    def profiler(self):
                        t = time.time()
                        yield
                        print(time.time() - t)

                    def work(self):
                        with self.profiler():
                            step(1)


                timer = Timer()


                def worker():
                    with timer:
                        step(2)


                for _ in range(4):
                    threading.Thread(target=worker).start()
                    threading.Thread(target=Runner().work).start()
                """
            )
        },
        ["LL202 train.py:26", "LL202 train.py:34"],
    ),
    Example(  # `.to(device)`, `.cuda()`, `.eval()` of a compiled module return it: still compiled
        {
            "train.py": dedented(
                """
                import threading
                import torch

                model = torch.compile(torch.nn.Linear(8, 8)).to("cuda")


                def make_head():
                    return torch.compile(torch.nn.Linear(8, 8)).cuda().eval()


                head = make_head()


                def worker(x):
                    model(x)
                    head(x)


                for _ in range(4):
                    threading.Thread(target=worker, args=(torch.ones(8),)).start()
                """
            )
        },
        ["LL202 train.py:15", "LL202 train.py:16"],
    ),
    Example(  # an import-time warm-up in a module the spawner does not import, or under no_grad
        {
            "model.py": dedented(
                """
                import torch

                step = torch.compile(torch.sin)
                head = torch.compile(torch.nn.Linear(8, 8))
                with torch.no_grad():
                    head(torch.ones(8))
                """
            ),
            "bench.py": dedented(
                """
                from model import step

                step(1)
                """
            ),
            "train.py": dedented(
                """
                import threading
                from model import head, step


                def worker():
                    step(1)
                    head(1)


                for _ in range(4):
                    threading.Thread(target=worker).start()
                """
            ),
        },
        ["LL202 train.py:6", "LL202 train.py:7"],
    ),
    Example(  # a semaphore whose literal count is above 1 lets that many threads race at once
        {
            "train.py": dedented(
                """
                import threading
                import torch

                step = torch.compile(torch.sin)
                sem = threading.BoundedSemaphore(4)
                pair = threading.Semaphore(value=2)


                def worker():
                    with sem:
                        step(1)
                    pair.acquire()
                    step(2)
                    pair.release()


                for _ in range(4):
                    threading.Thread(target=worker).start()
                """
            )
        },
        ["LL202 train.py:11", "LL202 train.py:13"],
    ),
    Example(  # the forward of a compiled module is the compiled one: `compiled.forward` as a
        # thread's target, a pool's, or called on a thread
        {
            "train.py": dedented(
                """
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch

                compiled = torch.compile(torch.nn.Linear(8, 8))


                def worker():
                    compiled.forward(torch.ones(8))


                threading.Thread(target=compiled.forward, args=(torch.ones(8),)).start()
                with ThreadPoolExecutor(4) as pool:
                    pool.submit(compiled.__call__, torch.ones(8))
                    pool.submit(worker)
                """
            )
        },
        ["LL202 train.py:9", "LL202 train.py:12", "LL202 train.py:14"],
    ),
    Example(  # `model.forward = torch.compile(model.forward)` (or `self.net.forward = ...`):
        # calling the instance, `model(x)`, runs its compiled forward
        {
            "train.py": dedented(
                """
                import threading
                import torch

                model = torch.nn.Linear(8, 8)
                model.forward = torch.compile(model.forward)


                class Trainer:
                    def __init__(self):
                        self.net = torch.nn.Linear(8, 8)
                        self.net.forward = torch.compile(self.net.forward)

                    def run(self):
                        self.net(torch.ones(8))


                def worker():
                    model(torch.ones(8))


                trainer = Trainer()
                for _ in range(4):
                    threading.Thread(target=worker).start()
                    threading.Thread(target=trainer.run).start()
                """
            )
        },
        ["LL202 train.py:14", "LL202 train.py:18"],
    ),
]

VALID = [
    Example(  # one lock shared by all workers (module level, passed in, class attribute)
        {
            "train.py": dedented(
                """
                import threading
                import torch

                attention = torch.compile(torch.nn.functional.scaled_dot_product_attention)
                COMPILE_LOCK = threading.Lock()


                def worker():
                    with COMPILE_LOCK:
                        attention(1, 2, 3)


                def guarded(lock):
                    lock.acquire()
                    try:
                        attention(1, 2, 3)
                    finally:
                        lock.release()


                class Worker(threading.Thread):
                    lock = threading.Lock()

                    def run(self):
                        with self.lock:
                            attention(1, 2, 3)


                def main():
                    lock = threading.Lock()
                    for _ in range(4):
                        threading.Thread(target=guarded, args=(lock,)).start()
                        threading.Thread(target=worker).start()
                        Worker().start()
                """
            )
        }
    ),
    Example(  # a correctly locked pipeline: the spawner hands one lock to every worker
        {
            "pipeline.py": dedented(
                """
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch

                model = torch.compile(torch.nn.Linear(8, 8))


                class Stage(threading.Thread):
                    def __init__(self, lock, batches):
                        super().__init__()
                        self.lock, self.batches = lock, batches

                    def run(self):
                        for batch in self.batches:
                            with self.lock:
                                model(batch)


                def work(lock, batch):
                    with lock:
                        return model(batch)


                def main(batches):
                    lock = threading.Lock()
                    stages = [Stage(lock, batches) for _ in range(4)]
                    for stage in stages:
                        stage.start()
                    with ThreadPoolExecutor(4) as pool:
                        for batch in batches:
                            pool.submit(work, lock, batch)
                """
            )
        }
    ),
    Example(  # nn.Module.compile() used on the main thread; Keras-style compile() is not torch's
        {
            "train.py": dedented(
                """
                import threading
                import torch

                net = torch.nn.Linear(8, 8)
                net.compile()


                def fit(model):
                    model.compile(optimizer="adam", loss="mse")
                    model(torch.ones(8))


                threading.Thread(target=fit, args=(object(),)).start()
                net(torch.ones(8))
                """
            )
        }
    ),
    Example(  # compiled and warmed up on the main thread before any thread starts
        {
            "train.py": dedented(
                """
                import threading
                import torch

                model = torch.compile(torch.nn.Linear(8, 8))


                def worker():
                    model(torch.ones(8)).sum().backward()


                def main():
                    model(torch.ones(8))
                    threads = [threading.Thread(target=worker) for _ in range(4)]
                    for t in threads:
                        t.start()


                main()
                """
            )
        }
    ),
    Example(  # warmed up after the threads are made but before they start
        {
            "train.py": dedented(
                """
                import threading
                import torch

                step = torch.compile(lambda x: x * 2)


                class Worker(threading.Thread):
                    def run(self):
                        step(1)


                class Trainer:
                    def go(self):
                        self.worker = threading.Thread(target=lambda: step(2))
                        step(0)
                        self.worker.start()


                t = threading.Thread(target=lambda: step(3))
                w = Worker()
                step(0)
                t.start()
                w.start()
                """
            )
        }
    ),
    Example(  # threads held in a list, warmed up before the loop that starts them
        {
            "train.py": dedented(
                """
                import threading
                import torch

                step = torch.compile(lambda x: x * 2)


                class Worker(threading.Thread):
                    def run(self):
                        step(1)


                def job():
                    step(2)


                threads = [threading.Thread(target=job) for _ in range(4)]
                workers = []
                for _ in range(4):
                    workers.append(Worker())
                step(0)
                for t in threads:
                    t.start()
                for w in workers:
                    w.start()
                """
            )
        }
    ),
    Example(  # a no_grad warm-up covers workers that also run under no_grad
        {
            "serve.py": dedented(
                """
                from concurrent.futures import ThreadPoolExecutor
                import torch

                model = torch.compile(torch.nn.Linear(8, 8))


                @torch.no_grad()
                def predict(x):
                    return model(x)


                with torch.no_grad():
                    model(torch.ones(8))
                with ThreadPoolExecutor(4) as pool:
                    results = list(pool.map(predict, [torch.ones(8)] * 10))
                """
            )
        }
    ),
    Example(  # warmed up in both grad modes the workers call it in: a training step, then
        # an evaluation under no_grad
        {
            "bench.py": dedented(
                """
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch

                model = torch.compile(torch.nn.Linear(4, 4))
                X = torch.randn(2, 4)


                def eval_batch(_):
                    with torch.no_grad():
                        return model(X).sum().item()


                def train_step():
                    with torch.enable_grad():
                        model(X).sum().backward()


                model(X).sum().backward()
                with torch.no_grad():
                    model(X)
                with ThreadPoolExecutor(max_workers=4) as ex:
                    print(list(ex.map(eval_batch, range(8))))
                threading.Thread(target=train_step).start()
                """
            )
        }
    ),
    Example(  # the compiled model runs on the main thread; threads only load data
        {
            "train.py": dedented(
                """
                import queue
                import threading
                import torch

                model = torch.compile(torch.nn.Linear(8, 8))
                batches = queue.Queue(maxsize=8)


                def load():
                    for i in range(100):
                        batches.put(torch.randn(8))


                threading.Thread(target=load, daemon=True).start()
                for _ in range(100):
                    model(batches.get()).sum().backward()
                """
            )
        }
    ),
    Example(  # processes do not share dynamo's caches; a dynamic target proves nothing
        {
            "train.py": dedented(
                """
                import threading
                from concurrent.futures import ProcessPoolExecutor
                import torch

                step = torch.compile(lambda x: x * 2)
                with ProcessPoolExecutor(4) as pool:
                    pool.submit(step, 1)
                jobs = {"step": step}
                threading.Thread(target=jobs["step"], args=(1,)).start()
                """
            )
        }
    ),
    Example(  # a context manager of the project that holds a shared lock for its block
        {
            "train.py": dedented(
                """
                import threading
                from contextlib import contextmanager
                import torch

                step = torch.compile(torch.sin)
                LOCK = threading.Lock()


                class Guard:
                    def __init__(self):
                        self._lock = threading.Lock()

                    def __enter__(self):
                        self._lock.acquire()

                    def __exit__(self, *exc):
                        self._lock.release()


                @contextmanager
                def compiling():
                    with LOCK:
                        yield


                guard = Guard()


                def worker():
                    with guard:
                        step(1)
                    with compiling():
                        step(2)


                for _ in range(4):
                    threading.Thread(target=worker).start()
                """
            )
        }
    ),
    Example(  # compiles made no-ops with disable=True: what runs is the function itself
        {
            "train.py": dedented(
                """
                import threading
                import torch

                compile_fn = torch.compile
                step = torch.compile(torch.sin, disable=True)
                head = compile_fn(torch.nn.Linear(8, 8), disable=True)
                net = torch.nn.Linear(8, 8)
                net.compile(disable=True)


                @torch.compile(disable=True)
                def loss(x):
                    return x.sum()


                def worker(x):
                    step(x)
                    head(x)
                    net(x)
                    loss(x)


                for _ in range(4):
                    threading.Thread(target=worker, args=(torch.ones(8),)).start()
                """
            )
        }
    ),
    Example(  # warmed up when its module is imported, on the main thread, before threads start
        {
            "model.py": dedented(
                """
                import torch

                step = torch.compile(torch.sin)
                step(torch.ones(2))
                """
            ),
            "warm.py": dedented(
                """
                import torch
                from layers import head

                head(torch.ones(8))
                """
            ),
            "layers.py": dedented(
                """
                import torch

                head = torch.compile(torch.nn.Linear(8, 8))
                """
            ),
            "train.py": dedented(
                """
                import threading
                import warm
                from layers import head
                from model import step


                def worker():
                    step(1)
                    head(1)


                def main():
                    for _ in range(4):
                        threading.Thread(target=worker).start()
                """
            ),
        }
    ),
    Example(  # a semaphore of count 1 (or the default, 1) is a lock; a count that is not a
        # literal (`Semaphore(n)`) is taken for one: launchlint cannot tell it lets in several
        {
            "train.py": dedented(
                """
                import os
                import threading
                import torch

                step = torch.compile(torch.sin)
                one = threading.BoundedSemaphore(1)
                default = threading.Semaphore()
                slots = threading.Semaphore(int(os.environ.get("SLOTS", "1")))


                def worker():
                    with one:
                        step(1)
                    with default:
                        step(2)
                    with slots:
                        step(3)


                for _ in range(4):
                    threading.Thread(target=worker).start()
                """
            )
        }
    ),
    Example(  # `compiled.forward(x)` on the main thread warms up `compiled`; `m.compile()` in
        # place leaves `m.forward` the original
        {
            "train.py": dedented(
                """
                import threading
                import torch

                compiled = torch.compile(torch.nn.Linear(8, 8))
                in_place = torch.nn.Linear(8, 8)
                in_place.compile()
                compiled.forward(torch.ones(8))


                def worker():
                    compiled(torch.ones(8))


                threading.Thread(target=worker).start()
                threading.Thread(target=in_place.forward, args=(torch.ones(8),)).start()
                """
            )
        }
    ),
    Example(  # `model(x)` on the main thread warms up `model.forward = torch.compile(model.forward)`;
        # another instance of the class is not compiled
        {
            "train.py": dedented(
                """
                import threading
                import torch

                model = torch.nn.Linear(8, 8)
                model.forward = torch.compile(model.forward)
                other = torch.nn.Linear(8, 8)
                model(torch.ones(8))


                def worker():
                    model.forward(torch.ones(8))
                    other(torch.ones(8))


                threading.Thread(target=worker).start()
                """
            )
        }
    ),
    Example(  # a compile disabled by a module constant bound once to True is a no-op
        {
            "train.py": dedented(
                """
                import threading
                import torch

                NO_COMPILE = True
                step = torch.compile(torch.sin, disable=NO_COMPILE)


                def worker():
                    step(torch.ones(8))


                threading.Thread(target=worker).start()
                """
            )
        }
    ),
]
