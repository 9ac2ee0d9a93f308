"""## What it does
Finds CUDA graph capture on worker threads with no shared lock held: `torch.cuda.graph(g)`,
`torch.cuda.CUDAGraph().capture_begin()`, `torch.cuda.make_graphed_callables(...)`, and calls of
a callable compiled with `torch.compile(mode="reduce-overhead")` or `mode="max-autotune"` (both
capture CUDA graphs on their first calls). A warm-up on the main thread does not count.

## Why is this bad?
CUDA graph trees are kept per thread (measured on torch 2.13): a warm-up or capture on the main
thread does not cover the workers, so each worker captures its own graphs on its first calls,
with its own memory pool. While a capture runs, the default `capture_error_mode="global"` makes
potentially unsafe CUDA calls from *any other thread* fail, so the other workers' allocations and
synchronisations break the capture or raise ("operation not permitted when stream is capturing").
The compile modes also race in dynamo itself: "torch.compile is not thread safe overall (neither
dynamo, nor inductor)" (pytorch/pytorch#168042).

## Example
```python
from concurrent.futures import ThreadPoolExecutor

import torch

net = torch.nn.Linear(64, 64).cuda()
batches = [torch.randn(32, 64, device="cuda") for _ in range(8)]
model = torch.compile(net, mode="reduce-overhead")
model(batches[0])                     # warm-up on the main thread: does not cover the workers

def worker(batch):
    return model(batch)               # each worker captures its own CUDA graphs

with ThreadPoolExecutor(4) as pool:
    results = list(pool.map(worker, batches))
```

## Use instead
Run captured graphs from one thread (the main thread, or one thread that owns the model), or
compile without CUDA graphs (`mode="max-autotune-no-cudagraphs"`, `mode="default"`) when the
calls must come from several threads; if they must capture on workers, hold one lock shared by all
threads around the capture and around every other CUDA call:
```python
from concurrent.futures import ThreadPoolExecutor

import torch

net = torch.nn.Linear(64, 64).cuda()
batches = [torch.randn(32, 64, device="cuda") for _ in range(8)]
model = torch.compile(net, mode="max-autotune-no-cudagraphs")
model(batches[0])                     # warm-up on the main thread

def worker(batch):
    return model(batch)

with ThreadPoolExecutor(4) as pool:
    results = list(pool.map(worker, batches))
```

## Details
- The mode counts when it is a literal, or a name the module binds exactly once, at its top
  level, to a literal (`MODE = "reduce-overhead"`, then `mode=MODE`); a name bound again anywhere
  in the module (a second assignment, a loop, a parameter of that name), computed
  (`os.environ.get(...)`) or imported from another module is not static, and such a compile is
  not reported.
- Worker threads and reachability are those of LL201 and LL202: `threading.Thread` targets
  (functions, `self.method`, lambdas, `functools.partial`), the `run` of `Thread` subclasses,
  `ThreadPoolExecutor` `submit`/`map`, `asyncio.to_thread`, `run_in_executor`,
  `multiprocessing.dummy.Pool`/`ThreadPool`, followed through functions, methods and modules.
- A call inside `with LOCK:` where every thread holds the *same* lock (module level, class
  attribute, closure variable, passed in by the spawner, or a `lock-names` setting) is not
  reported; a lock made per thread guards nothing, nor does a semaphore whose literal count lets
  more than one thread in (`Semaphore(4)`; see LL202).

## References
- Measured on torch 2.13: CUDA graph trees are kept per thread, so a main-thread warm-up does not
  cover workers.
- `torch.cuda.graph(capture_error_mode=...)`: "global" errors on potentially unsafe actions in
  other threads during capture.
- pytorch/pytorch#168042: "torch.compile is not thread safe overall (neither dynamo, nor inductor)".
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Related, Severity
from launchlint.rulekit import THREADS, Example, dedented
from launchlint.threads import GraphCapture

CODE = "LL203"
NAME = "cuda-graph-in-thread"
SEVERITY = Severity.WARNING
SUMMARY = "A CUDA graph is captured on worker threads without a shared lock"
ANALYSIS = THREADS  # reads Project.threads: see rulekit.Rule.analysis


def check(project) -> Iterator[Finding]:
    for found in project.threads.graph_captures:
        yield Finding(found.location, _message(found), _related(found))


def _message(found: GraphCapture) -> str:
    """What captures on the threads, why it fails, what to do; the thread start and the compile
    site (with its mode) are the related locations."""
    if found.site is None:
        return (
            f"threads run `{found.api}` with no shared lock: other threads' CUDA calls break a capture; "
            f"capture on one thread, or hold one shared lock around it"
        )
    named = f"`{found.callee}`" if found.callee.replace(".", "").replace("_", "").isalnum() else "a compiled callable"
    mode = found.site.mode
    instead = f'drop `mode="{mode}"`' if mode == "reduce-overhead" else f'use `mode="{mode}-no-cudagraphs"`'
    return (
        f"threads call {named} with no shared lock: each captures its own CUDA graphs, which others' CUDA "
        f"calls break; call it from one thread, or {instead}"
    )


def _related(found: GraphCapture) -> tuple[Related, ...]:
    related = [found.start.related()]
    if found.site is not None:
        related.append(Related(found.site.location, f'compiled here with mode="{found.site.mode}"'))
    return tuple(related)


INVALID = [
    Example(  # cross-module: the workers call a capture helper of another module
        {
            "graphs.py": dedented(
                """
                import torch


                def capture(model, x):
                    graph = torch.cuda.CUDAGraph()
                    with torch.cuda.graph(graph):
                        y = model(x)
                    return graph, y


                def capture_by_hand(model, x):
                    graph = torch.cuda.CUDAGraph()
                    graph.capture_begin()
                    y = model(x)
                    graph.capture_end()
                    return graph, y
                """
            ),
            "train.py": dedented(
                """
                import threading
                import torch
                import graphs


                def worker(rank):
                    model = torch.nn.Linear(8, 8).cuda(rank)
                    graphs.capture(model, torch.ones(8, device=rank))
                    graphs.capture_by_hand(model, torch.ones(8, device=rank))


                for rank in range(4):
                    threading.Thread(target=worker, args=(rank,)).start()
                """
            ),
        },
        ["LL203 graphs.py:6", "LL203 graphs.py:13"],
    ),
    Example(  # mode="reduce-overhead": the main thread's warm-up does not cover the pool's workers
        {
            "serve.py": dedented(
                """
                from concurrent.futures import ThreadPoolExecutor
                import torch as T

                model = T.compile(T.nn.Linear(8, 8).cuda(), mode="reduce-overhead")
                model(T.ones(8, device="cuda"))


                def predict(x):
                    return model(x)


                with ThreadPoolExecutor(max_workers=4) as pool:
                    results = list(pool.map(predict, [T.ones(8, device="cuda")] * 16))
                """
            )
        },
        ["LL203 serve.py:9"],
    ),
    Example(  # a Thread subclass with an attribute-stored model; make_graphed_callables via partial
        {
            "workers.py": dedented(
                """
                import functools
                import threading
                import torch
                from torch.cuda import make_graphed_callables


                class Replica(threading.Thread):
                    def __init__(self, net):
                        super().__init__()
                        self.model = torch.compile(net, mode="max-autotune")
                        self.lock = threading.Lock()

                    def run(self):
                        with self.lock:
                            self.step()

                    def step(self):
                        return self.model(torch.ones(8, device="cuda"))


                def graphed(net, sample):
                    return make_graphed_callables(net, (sample,))


                Replica(torch.nn.Linear(8, 8)).start()
                threading.Thread(target=functools.partial(graphed, torch.nn.Linear(8, 8)), args=(1,)).start()
                """
            )
        },
        ["LL203 workers.py:18", "LL203 workers.py:22"],
    ),
    Example(  # the mode spelled by a module constant bound once to a literal
        {
            "train.py": dedented(
                """
                import threading
                import torch

                MODE = "reduce-overhead"
                AUTOTUNE: str = "max-autotune"
                model = torch.compile(torch.nn.Linear(8, 8), mode=MODE)
                model(torch.ones(8))


                @torch.compile(mode=AUTOTUNE)
                def step(x):
                    return x * 2


                def worker():
                    model(torch.ones(8))
                    step(torch.ones(8))


                threading.Thread(target=worker).start()
                """
            )
        },
        ["LL203 train.py:16", "LL203 train.py:17"],
    ),
]

VALID = [
    Example(  # one lock shared by every worker around the capture
        {
            "train.py": dedented(
                """
                import threading
                import torch

                CAPTURE_LOCK = threading.Lock()


                def worker(model, x):
                    graph = torch.cuda.CUDAGraph()
                    with CAPTURE_LOCK:
                        with torch.cuda.graph(graph):
                            model(x)
                    graph.replay()


                for _ in range(4):
                    threading.Thread(target=worker, args=(torch.nn.Linear(8, 8), torch.ones(8))).start()
                """
            )
        }
    ),
    Example(  # graphs captured and replayed on the main thread; threads only load data
        {
            "train.py": dedented(
                """
                import queue
                import threading
                import torch

                batches = queue.Queue(maxsize=8)
                model = torch.compile(torch.nn.Linear(8, 8).cuda(), mode="reduce-overhead")


                def load():
                    for _ in range(100):
                        batches.put(torch.randn(8))


                threading.Thread(target=load, daemon=True).start()
                for _ in range(100):
                    model(batches.get().cuda())
                """
            )
        }
    ),
    Example(  # modes without CUDA graphs on the workers
        {
            "serve.py": dedented(
                """
                from concurrent.futures import ThreadPoolExecutor
                import torch

                fast = torch.compile(torch.nn.Linear(8, 8), mode="max-autotune-no-cudagraphs")
                fast(torch.ones(8))

                with ThreadPoolExecutor(4) as pool:
                    pool.submit(fast, torch.ones(8))
                """
            )
        }
    ),
    Example(  # a mode name that is not a constant: bound twice, from the environment, a parameter
        {
            "train.py": dedented(
                """
                import os
                import threading
                import torch

                MODE = "reduce-overhead"
                if os.environ.get("NO_GRAPHS"):
                    MODE = "default"
                ENV_MODE = os.environ.get("MODE", "max-autotune")
                FAST = "max-autotune"
                model = torch.compile(torch.nn.Linear(8, 8), mode=MODE)
                other = torch.compile(torch.nn.Linear(8, 8), mode=ENV_MODE)


                def build(FAST):
                    return torch.compile(torch.nn.Linear(8, 8), mode=FAST)


                built = build("default")


                def worker():
                    model(torch.ones(8))
                    other(torch.ones(8))
                    built(torch.ones(8))


                threading.Thread(target=worker).start()
                """
            )
        }
    ),
]
