"""## What it does
Finds `torch.compile(...)` (also `torch.compiler.compile`, `torch._dynamo.optimize(...)(f)`)
executed on worker threads whose result is then called on those threads with no shared lock
held: each thread compiles for itself.

## Why is this bad?
`torch.compile` only wraps the function; dynamo compiles on the first call, and the compiled
code is cached on the function's code object, which every thread shares. PyTorch maintainers:
"torch.compile is not thread safe overall (neither dynamo, nor inductor)" (pytorch/pytorch#168042).
Measured on torch 2.13 with 4 to 12 threads: every thread whose first call races compiles
again, in 100% of runs ("Unexpected recompilation"); past `recompile_limit` (8) the remaining
threads run *uncompiled, silently*, or raise `FailOnRecompileLimitHit` with `fullgraph=True`;
the polluted cache then makes a legitimate new input shape run uncompiled too.

## Example
```python
import threading

import torch
from torch.nn.attention.flex_attention import flex_attention

q = k = v = torch.randn(1, 8, 128, 64, device="cuda")

def worker(rank):
    attention = torch.compile(flex_attention)   # compiled again on every thread
    return attention(q, k, v)

for rank in range(4):
    threading.Thread(target=worker, args=(rank,)).start()
```

## Use instead
Compile once on the main thread and warm it up before starting the threads (or hold one lock
shared by all threads around the call):
```python
import threading

import torch
from torch.nn.attention.flex_attention import flex_attention

q = k = v = torch.randn(1, 8, 128, 64, device="cuda")
attention = torch.compile(flex_attention)
attention(q, k, v)                              # warm-up on the main thread

def worker(rank):
    return attention(q, k, v)

for rank in range(4):
    threading.Thread(target=worker, args=(rank,)).start()
```

## Details
- Worker threads are the targets of `threading.Thread` (also `self.method`, `Worker(cfg).loop`,
  lambdas, `functools.partial`), the `run` of `Thread` subclasses, `ThreadPoolExecutor`
  `submit`/`map`, `asyncio.to_thread`, `run_in_executor` and `ThreadPool`, followed through the
  functions, methods and modules they call.
- Names resolve through aliases (`import torch as T`, `from torch import compile as tc`) and
  imports of project modules, so a factory in another module that returns `torch.compile(model)`
  is found too.
- The call is guarded when it runs inside `with LOCK:` (or between `LOCK.acquire()` and
  `LOCK.release()`) where every thread holds the *same* lock (module level, class attribute,
  closure variable, or passed in by the spawning code). A `Lock()` created inside the thread
  function, or per `Thread` instance, guards nothing. Names in the `lock-names` setting count as
  shared locks.
- A warm-up inside the thread does not help: every thread races on its own first call.

## References
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Related, Severity
from launchlint.rulekit import THREADS, Example, dedented
from launchlint.threads import COMPILE_RACE_REFERENCES, ThreadCompile, consequence, threads_of

__doc__ += COMPILE_RACE_REFERENCES  # shared with the other compile-race rule

CODE = "LL201"
NAME = "compile-in-thread"
SEVERITY = Severity.ERROR
SUMMARY = "torch.compile runs on worker threads and its result is called there without a shared lock"
ANALYSIS = THREADS  # reads Project.threads: see rulekit.Rule.analysis


def check(project) -> Iterator[Finding]:
    for found in project.threads.thread_compiles:
        yield Finding(found.site.location, _message(found), _related(found))


def _message(found: ThreadCompile) -> str:
    what = f"`{found.site.compiled}`" if found.site.compiled else "a callable"
    return (
        f"{threads_of(found.start)} compile and call {what} with no shared lock: {consequence(found.site)}; "
        "compile and call it once on the main thread first"
    )


def _related(found: ThreadCompile) -> tuple[Related, ...]:
    return (
        found.start.related(),
        Related(found.call, "the compiled result is called here, on the worker thread"),
    )


INVALID = [
    Example(  # every worker compiles flex_attention for itself
        {
            "train.py": dedented(
                """
                import threading
                import torch
                from torch.nn.attention.flex_attention import flex_attention


                def worker(rank):
                    attention = torch.compile(flex_attention)
                    q = k = v = torch.randn(1, 8, 128, 64, device=f"cuda:{rank}")
                    return attention(q, k, v)


                for rank in range(4):
                    threading.Thread(target=worker, args=(rank,)).start()
                """
            )
        },
        ["LL201 train.py:7"],
    ),
    Example(  # cross-module: a factory in the model module, called by the workers
        {
            "model.py": dedented(
                """
                import torch


                def compiled_block(block):
                    return torch.compile(block, fullgraph=True)
                """
            ),
            "train.py": dedented(
                """
                import threading
                import torch
                from model import compiled_block


                def worker(block):
                    fn = compiled_block(block)
                    fn(torch.ones(8))


                for _ in range(12):
                    threading.Thread(target=worker, args=(torch.nn.Linear(8, 8),)).start()
                """
            ),
        },
        ["LL201 model.py:5"],
    ),
    Example(  # aliases; compiled and called on the spot
        {
            "train.py": dedented(
                """
                import threading
                from torch import compile as tc
                import torch as T


                def worker(model):
                    tc(model)(T.ones(8))
                    fast = T.compile(model, mode="max-autotune")
                    fast(T.ones(8))


                threading.Thread(target=worker, args=(T.nn.Linear(8, 8),)).start()
                """
            )
        },
        ["LL201 train.py:7", "LL201 train.py:8"],
    ),
    Example(  # a Thread subclass compiling its model in run
        {
            "train.py": dedented(
                """
                import threading
                import torch


                class Worker(threading.Thread):
                    def __init__(self, model):
                        super().__init__()
                        self.model = model

                    def run(self):
                        self.model = torch.compile(self.model)
                        self.model(torch.ones(8))


                Worker(torch.nn.Linear(8, 8)).start()
                """
            )
        },
        ["LL201 train.py:11"],
    ),
    Example(  # an executor's submit, and a functools.partial thread target
        {
            "train.py": dedented(
                """
                import functools
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch


                def job(model, x):
                    return torch.compile(model)(x)


                def worker(model, steps):
                    compiled = torch.compile(model)
                    for _ in range(steps):
                        compiled(torch.ones(8))


                model = torch.nn.Linear(8, 8)
                with ThreadPoolExecutor(max_workers=4) as pool:
                    for x in torch.randn(16, 8):
                        pool.submit(job, model, x)
                threading.Thread(target=functools.partial(worker, model), args=(10,)).start()
                """
            )
        },
        ["LL201 train.py:8", "LL201 train.py:12"],
    ),
    Example(  # nn.Module.compile() in place, optimize(...)(f) on the spot, torch.compiler.compile;
        # started by asyncio.to_thread, run_in_executor and a ThreadPool's apply_async
        {
            "jobs.py": dedented(
                """
                import torch
                from torch import _dynamo


                def build(model):
                    model.compile()
                    return model(torch.ones(8))


                def fuse(fn, x):
                    return _dynamo.optimize("inductor")(fn)(x)


                def export(model, x):
                    fast = torch.compiler.compile(model)
                    return fast(x)
                """
            ),
            "serve.py": dedented(
                """
                import asyncio
                from multiprocessing.pool import ThreadPool
                import torch
                from jobs import build, export, fuse


                async def main():
                    await asyncio.to_thread(build, torch.nn.Linear(8, 8))
                    loop = asyncio.get_running_loop()
                    await loop.run_in_executor(None, fuse, torch.sin, 1)
                    with ThreadPool(4) as pool:
                        pool.apply_async(export, (torch.nn.Linear(8, 8), 1))
                """
            ),
        },
        ["LL201 jobs.py:6", "LL201 jobs.py:11", "LL201 jobs.py:15"],
    ),
    Example(  # a lock made per thread serialises nothing
        {
            "train.py": dedented(
                """
                import threading
                import torch


                def worker(model):
                    lock = threading.Lock()
                    with lock:
                        compiled = torch.compile(model)
                        compiled(torch.ones(8))


                for _ in range(4):
                    threading.Thread(target=worker, args=(torch.nn.Linear(8, 8),)).start()
                """
            )
        },
        ["LL201 train.py:8"],
    ),
    Example(  # a no_grad warm-up in the thread: the grad-mode call compiles (and races) again
        {
            "train.py": dedented(
                """
                import threading
                import torch


                def worker(model):
                    compiled = torch.compile(model)
                    with torch.no_grad():
                        compiled(torch.ones(8))
                    compiled(torch.ones(8)).sum().backward()


                threading.Thread(target=worker, args=(torch.nn.Linear(8, 8),)).start()
                """
            )
        },
        ["LL201 train.py:6"],
    ),
    Example(  # the target is a method of an instance made for each thread
        {
            "train.py": dedented(
                """
                import threading
                import torch


                class Worker:
                    def __init__(self, model):
                        self.model = model

                    def loop(self):
                        fast = torch.compile(self.model)
                        fast(torch.ones(8))


                for _ in range(4):
                    threading.Thread(target=Worker(torch.nn.Linear(8, 8)).loop).start()
                """
            )
        },
        ["LL201 train.py:10"],
    ),
    Example(  # a factory's result called at once: `get_fn()(x)`, also behind functools.lru_cache
        {
            "train.py": dedented(
                """
                import functools
                import threading
                import torch


                def get_fn():
                    return torch.compile(torch.sin)


                @functools.lru_cache(maxsize=None)
                def cached_fn():
                    return torch.compile(torch.cos)


                def worker():
                    get_fn()(torch.ones(2))
                    cached_fn()(torch.ones(2))


                for _ in range(4):
                    threading.Thread(target=worker).start()
                """
            )
        },
        ["LL201 train.py:7", "LL201 train.py:12"],
    ),
    Example(  # compiled into an attribute of a `threading.local()` by the pool's initializer
        {
            "train.py": dedented(
                """
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch

                local = threading.local()


                def init():
                    local.fn = torch.compile(torch.nn.Linear(8, 8))


                def job(x):
                    return local.fn(x)


                with ThreadPoolExecutor(4, initializer=init) as ex:
                    ex.map(job, [torch.ones(8)] * 8)
                """
            )
        },
        ["LL201 train.py:9"],
    ),
]

VALID = [
    Example(  # one lock shared by every worker
        {
            "train.py": dedented(
                """
                import threading
                import torch

                COMPILE_LOCK = threading.Lock()


                def worker(model):
                    with COMPILE_LOCK:
                        compiled = torch.compile(model)
                        compiled(torch.ones(8))


                for _ in range(4):
                    threading.Thread(target=worker, args=(torch.nn.Linear(8, 8),)).start()
                """
            )
        }
    ),
    Example(  # the spawner hands one lock to every worker, which compiles under it
        {
            "train.py": dedented(
                """
                import threading
                import torch


                def worker(lock, model):
                    with lock:
                        torch.compile(model)(torch.ones(8))


                def main():
                    lock = threading.Lock()
                    for _ in range(4):
                        threading.Thread(target=worker, args=(lock, torch.nn.Linear(8, 8))).start()
                """
            )
        }
    ),
    Example(  # compiled and warmed up on the main thread, handed to the workers
        {
            "train.py": dedented(
                """
                import threading
                import torch

                model = torch.nn.Linear(8, 8)


                def worker(compiled):
                    compiled(torch.ones(8)).sum().backward()


                def main():
                    compiled = torch.compile(model)
                    compiled(torch.ones(8))
                    for _ in range(4):
                        threading.Thread(target=worker, args=(compiled,)).start()


                main()
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

                batches = queue.Queue(maxsize=8)


                def load():
                    for i in range(100):
                        batches.put(torch.randn(8))


                threading.Thread(target=load, daemon=True).start()
                model = torch.compile(torch.nn.Linear(8, 8))
                for _ in range(100):
                    model(batches.get()).sum().backward()
                """
            )
        }
    ),
    Example(  # compiled on a background thread but only ever called by the main thread
        {
            "train.py": dedented(
                """
                import threading
                import torch

                compiled = {}


                def build(model):
                    compiled["model"] = torch.compile(model)


                t = threading.Thread(target=build, args=(torch.nn.Linear(8, 8),))
                t.start()
                t.join()
                compiled["model"](torch.ones(8))
                """
            )
        }
    ),
]
