"""## What it does
Finds dynamo and inductor settings (`torch._dynamo.config.X = ...`, `torch._inductor.config.X =
...`, their `.patch(...)`) changed at module level or on the spawning thread, while compiled
callables run on worker threads that do not set them themselves.

## Why is this bad?
Since PyTorch 2.12, config overrides are thread-local (pytorch/pytorch#186537): a worker thread
starts from the defaults and never sees what the main thread set. Measured on torch 2.13:
`torch._dynamo.config.recompile_limit = 64` set on the main thread, a worker thread read 8. The
typical case is exactly the one that needs the setting: raising `recompile_limit` (or
`cache_size_limit`) because many threads recompile; the workers still hit 8, past which they run
the function *uncompiled, silently* (or raise `FailOnRecompileLimitHit` with `fullgraph=True`).
Inductor options (`max_autotune`, `coordinate_descent_tuning`, ...) are silently off in the
workers too.

## Example
```python
from concurrent.futures import ThreadPoolExecutor

import torch

torch._dynamo.config.recompile_limit = 64    # the workers still read 8

def train_step(batch):
    return batch.relu().sum()

batches = [torch.randn(32, 64, device="cuda") for _ in range(64)]
step = torch.compile(train_step)
step(batches[0])                             # warm-up on the main thread

def worker(batch):
    return step(batch)

with ThreadPoolExecutor(16) as pool:
    results = list(pool.map(worker, batches))
```

## Use instead
Set it on each worker thread: in the thread's function, or once per worker through the executor's
`initializer`; or start the threads with `contextvars.copy_context().run`:
```python
from concurrent.futures import ThreadPoolExecutor

import torch

def configure():
    torch._dynamo.config.recompile_limit = 64

def train_step(batch):
    return batch.relu().sum()

batches = [torch.randn(32, 64, device="cuda") for _ in range(64)]
step = torch.compile(train_step)
step(batches[0])                             # warm-up on the main thread

def worker(batch):
    return step(batch)

with ThreadPoolExecutor(16, initializer=configure) as pool:
    results = list(pool.map(worker, batches))
```

## Details
- The settings: `torch._dynamo.config.X = ...`, `torch._inductor.config.X = ...` or `.triton.X =
  ...`, `X *= 4`, `setattr(torch._dynamo.config, "X", ...)` (where a name that is not static
  stands for any setting), `with ....config.patch(...)`, and a function decorated with
  `@....config.patch(...)` that is not a thread's.
- A setting made only for a while counts only when the threads start, or are waited for, while
  it lasts: a `with ....patch(...)` block (also `with ctx:` of a `ctx = ....patch(...)`, and
  `stack.enter_context(....patch(...))` in `with ExitStack() as stack:`), a function decorated
  with `@....patch(...)`, or the `with` blocks entering a `@contextmanager` that sets a setting,
  yields, then sets it again (restores it). It counts when that block starts the threads
  (`Thread(...)`, its `.start()`, `pool.submit`/`map`) or waits for them (`t.join()`,
  `future.result()`, `pool.shutdown()`), itself or in the project code it calls. Otherwise the
  setting is over before the threads start, or made after they end: vLLM patches dynamo and
  inductor settings around a compile or a warm-up on the main thread, not for its threads. An
  assignment, or a patch entered otherwise (`.__enter__()`), lasts: reported as before.
- Worker threads and compiled callables are those of LL201 and LL202, across modules; the setting
  counts when one program runs it and the compiled callable: their modules import one another,
  directly or not, or a third imports both. A library both import is not enough: a benchmark
  that sets a config and imports the library whose threads a test script hands its compiled
  function is another program than the test (pytorch/xla).
- A lock does not help here.
- Not reported: threads started with `contextvars.copy_context().run`, which carry the spawner's
  settings, and threads that set the same settings (in their target, in a function they call, or
  in the executor's `initializer`, by keyword or by position; a pool reached through an alias or
  a parameter is the same pool).
- A thread's call of a module compiled in place (`model.compile()`), or whose `forward` is
  compiled, runs the class's own `__call__` eagerly on that thread, before the compiled graph: a
  setting it makes is the thread's. So is one in a `__call__` a class decorator installs
  (`cls.__call__ = wrapper`: vLLM's `support_torch_compile` patches dynamo and inductor settings
  there, around the compiled call). Not under `torch.compile(model)`, whose graph traces
  `model.__call__`; nor the compiled `forward` itself.
- Not reported either: settings made in a compile backend (`backend=f`, a `functools.partial` of
  one, `torch._dynamo.optimize(f)`, an instance whose `__call__` is one) or in the project code it
  runs: dynamo calls it on the thread that compiles, a worker that recompiles included, and the
  setting matters only while it runs (vLLM's backend patches inductor settings around its compile).

## References
- pytorch/pytorch#186537: config overrides are thread-local since PyTorch 2.12.
- Measured on torch 2.13: `recompile_limit=64` set on the main thread, a worker read 8; past
  `recompile_limit` threads run uncompiled, silently.
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Related, Severity
from launchlint.pyfacts import MODULE_SCOPE
from launchlint.rulekit import THREADS, Example, dedented
from launchlint.threads import ConfigNotInherited

CODE = "LL205"
NAME = "compile-config-not-inherited"
SEVERITY = Severity.WARNING
SUMMARY = "A dynamo/inductor setting is changed off the worker threads that run compiled code"
ANALYSIS = THREADS  # reads Project.threads: see rulekit.Rule.analysis


def check(project) -> Iterator[Finding]:
    for found in project.threads.config_overrides:
        yield Finding(found.override.location, _message(found), _related(found))


def _message(found: ConfigNotInherited) -> str:
    override = found.override
    if override.keys:
        what = ", ".join(f"`{override.config}.{key}`" for key in override.keys) + " set"
    else:
        what = f"the `{override.config}` settings patched"
    where = "at module level" if override.function == MODULE_SCOPE else f"in `{override.function}`"
    them = "it" if len(override.keys) == 1 else "them"
    return (
        f"worker threads ignore {what} {where} (thread-local since PyTorch 2.12); set {them} in each "
        f"thread or the executor's `initializer`"
    )


def _related(found: ConfigNotInherited) -> tuple[Related, ...]:
    return (
        found.start.related(),
        Related(found.site.location, f"compiled here ({found.site.api})"),
        Related(found.call, "compiled code runs here, on the worker thread, with the default settings"),
    )


INVALID = [
    Example(  # module-level settings in the model module; the trainer's pool runs the model
        {
            "model.py": dedented(
                """
                import torch
                import torch._inductor.config as inductor_config

                torch._dynamo.config.recompile_limit = 64
                inductor_config.coordinate_descent_tuning = True
                step = torch.compile(torch.nn.Linear(8, 8))
                """
            ),
            "train.py": dedented(
                """
                from concurrent.futures import ThreadPoolExecutor
                from model import step


                def job(x):
                    return step(x)


                with ThreadPoolExecutor(max_workers=16) as pool:
                    pool.map(job, range(64))
                """
            ),
        },
        ["LL205 model.py:4", "LL205 model.py:5"],
    ),
    Example(  # patched on the spawning thread (with and decorator); a locked call still runs uncovered
        {
            "serve.py": dedented(
                """
                import threading
                import torch
                from torch._dynamo import config as dynamo_config

                LOCK = threading.Lock()


                class Server:
                    def __init__(self, model):
                        self.model = torch.compile(model, fullgraph=True)

                    def handle(self, x):
                        with LOCK:
                            return self.model(x)

                    @dynamo_config.patch(cache_size_limit=32)
                    def serve(self, requests):
                        with torch._dynamo.config.patch("automatic_dynamic_shapes", False):
                            for request in requests:
                                threading.Thread(target=self.handle, args=(request,)).start()
                """
            )
        },
        ["LL205 serve.py:16", "LL205 serve.py:18"],
    ),
    Example(  # an augmented assignment, and a setting of a config's group
        {
            "train.py": dedented(
                """
                import threading
                import torch
                from torch._inductor import config as inductor_config

                torch._dynamo.config.recompile_limit *= 4
                torch._inductor.config.triton.cudagraphs = False
                inductor_config.triton.unique_kernel_names = True
                step = torch.compile(lambda x: x * 2)


                def job(x):
                    return step(x)


                threading.Thread(target=job, args=(1,)).start()
                """
            )
        },
        ["LL205 train.py:5", "LL205 train.py:6", "LL205 train.py:7"],
    ),
    Example(  # setattr(config, "name", value) sets a setting as the assignment does (a group of
        # the config too; a name that is not static stands for any setting)
        {
            "train.py": dedented(
                """
                import threading
                import torch
                import torch._inductor.config as inductor_config

                KEY = "recompile_limit"
                setattr(torch._dynamo.config, "cache_size_limit", 64)
                setattr(inductor_config.triton, "cudagraphs", False)
                setattr(torch._dynamo.config, KEY.lower(), 64)
                step = torch.compile(torch.sin)
                LOCK = threading.Lock()


                def worker():
                    with LOCK:
                        step(1)


                threading.Thread(target=worker).start()
                """
            )
        },
        ["LL205 train.py:6", "LL205 train.py:7", "LL205 train.py:8"],
    ),
    Example(  # a compiled module's own `__call__` sets its setting on the worker; not the module-level one
        {
            "train.py": dedented(
                """
                import threading
                import torch

                torch._dynamo.config.recompile_limit = 64


                class Net(torch.nn.Module):
                    def forward(self, x):
                        return x * 2

                    def __call__(self, *args):
                        with torch._dynamo.config.patch(cache_size_limit=64):
                            return super().__call__(*args)


                net = Net()
                net.compile()


                def worker(x):
                    return net(x)


                threading.Thread(target=worker, args=(1,)).start()
                """
            )
        },
        ["LL205 train.py:4"],
    ),
    Example(  # the backend's setting is made where it compiles; `configure` runs on the main thread
        {
            "train.py": dedented(
                """
                import threading
                import torch


                def my_backend(gm, example_inputs):
                    with torch._inductor.config.patch(fx_graph_remote_cache=False):
                        return gm.forward


                def configure():
                    torch._inductor.config.max_autotune = True


                configure()
                step = torch.compile(torch.sin, backend=my_backend)


                def worker(x):
                    return step(x)


                threading.Thread(target=worker, args=(1,)).start()
                """
            )
        },
        ["LL205 train.py:11"],
    ),
    Example(  # patched for a block that starts the threads (itself, through a call, an ExitStack),
        # waits for them, or enters a context manager that sets and restores a setting around them
        {
            "train.py": dedented(
                """
                import contextlib
                import threading
                from concurrent.futures import ThreadPoolExecutor

                import torch

                step = torch.compile(torch.sin)


                def job(x):
                    return step(x)


                def run_all(xs):
                    with ThreadPoolExecutor(16) as pool:
                        return list(pool.map(job, xs))


                @contextlib.contextmanager
                def tuned():
                    before = torch._dynamo.config.recompile_limit
                    torch._dynamo.config.recompile_limit = 64
                    try:
                        yield
                    finally:
                        torch._dynamo.config.recompile_limit = before


                with torch._dynamo.config.patch(cache_size_limit=64):
                    with ThreadPoolExecutor(16) as pool:
                        pool.map(job, range(64))

                with contextlib.ExitStack() as stack:
                    stack.enter_context(torch._inductor.config.patch(max_autotune=True))
                    run_all(range(64))

                with tuned():
                    run_all(range(64))

                worker = threading.Thread(target=job, args=(1,))
                worker.start()
                joining = torch._inductor.config.patch(coordinate_descent_tuning=True)
                with joining:
                    worker.join()
                """
            )
        },
        ["LL205 train.py:22", "LL205 train.py:26", "LL205 train.py:29", "LL205 train.py:34",
         "LL205 train.py:42"],
    ),
    Example(  # a context manager that sets a setting and does not restore it: it lasts
        {
            "train.py": dedented(
                """
                import contextlib
                import threading
                import torch

                step = torch.compile(torch.sin)


                @contextlib.contextmanager
                def tuned():
                    torch._dynamo.config.recompile_limit = 64
                    yield


                with tuned():
                    step(1)
                threading.Thread(target=step, args=(2,)).start()
                """
            )
        },
        ["LL205 train.py:10"],
    ),
]

VALID = [
    Example(  # patched for a while on the main thread only: a compile there, a `@patch` warm-up,
        # a context manager that restores; the threads start after (vLLM's compile-time patches)
        {
            "train.py": dedented(
                """
                import contextlib
                import threading
                import torch

                step = torch.compile(torch.sin)


                def job(x):
                    return step(x)


                @torch._dynamo.config.patch(cache_size_limit=64)
                def warm_up():
                    step(1)


                @contextlib.contextmanager
                def tuned():
                    before = torch._inductor.config.max_autotune
                    torch._inductor.config.max_autotune = True
                    try:
                        yield
                    finally:
                        torch._inductor.config.max_autotune = before


                warm_up()
                with torch._dynamo.config.patch(recompile_limit=64):
                    step(2)
                with tuned():
                    step(3)
                with contextlib.ExitStack() as stack:
                    stack.enter_context(torch._dynamo.config.patch(cache_size_limit=64))
                    step(4)
                threads = [threading.Thread(target=job, args=(i,)) for i in range(4)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                """
            )
        }
    ),
    Example(  # a class decorator installs a `__call__` that patches the settings around the compiled call (vLLM)
        {
            "deco.py": dedented(
                """
                import torch


                def support_compile(cls):
                    def __call__(self, *args):
                        with torch._dynamo.config.patch(cache_size_limit=64):
                            return torch.nn.Module.__call__(self, *args)

                    cls.__call__ = __call__
                    return cls
                """
            ),
            "run.py": dedented(
                """
                import threading
                import torch
                from deco import support_compile


                @support_compile
                class Net(torch.nn.Module):
                    def forward(self, x):
                        return x * 2


                net = Net()
                net.compile()


                def worker(x):
                    return net(x)


                threading.Thread(target=worker, args=(1,)).start()
                """
            ),
        }
    ),
    Example(  # backends: a partial of one, optimize's, an instance's `__call__`, and what they call
        {
            "train.py": dedented(
                """
                import functools
                import threading
                import torch


                def compile_graph(gm, example_inputs):
                    torch._inductor.config.fx_graph_remote_cache = False
                    return gm.forward


                def my_backend(gm, example_inputs, mode):
                    with torch._dynamo.config.patch(cache_size_limit=64):
                        return compile_graph(gm, example_inputs)


                class Backend:
                    def __call__(self, gm, example_inputs):
                        torch._inductor.config.max_autotune = True
                        return gm.forward


                def eager_backend(gm, example_inputs):
                    torch._dynamo.config.recompile_limit = 64
                    return gm.forward


                backend = Backend()
                step = torch.compile(torch.sin, backend=functools.partial(my_backend, mode="max"))
                cos = torch._dynamo.optimize(eager_backend)(torch.cos)
                tan = torch.compile(torch.tan, backend=backend)


                def worker(x):
                    return step(x) + cos(x) + tan(x)


                threading.Thread(target=worker, args=(1,)).start()
                """
            )
        }
    ),
    Example(  # a script's sibling module shadows the root's of that name (`python moe/serve.py`: moe/ first on sys.path)
        {
            "settings.py": "import torch._inductor.config\ntorch._inductor.config.coordinate_descent_tuning = True\n",
            "helpers.py": "import settings\n\n\ndef prep(x):\n    return x\n",
            "moe/helpers.py": "def prep(x):\n    return x\n",
            "moe/serve.py": (
                "import threading\n\nimport torch\nfrom helpers import prep\n\n\ndef step(x):\n    return x * 2\n\n\n"
                "def worker(x):\n    with lock:\n        f = torch.compile(step)\n        return f(prep(x))\n\n\n"
                "lock = threading.Lock()\nthreads = [threading.Thread(target=worker, args=(1,)) for _ in range(4)]\n"
            ),
        },
    ),
    Example(  # a setting in a program that imports the threads' library, whose threads only another program hands compiled code
        {
            "lib/__init__.py": "from lib import pool\n",
            "lib/pool.py": (
                "from concurrent.futures import ThreadPoolExecutor\n\ndef run_per_device(fn, n):\n"
                "    def _thread_fn(i):\n        return fn(i)\n"
                "    with ThreadPoolExecutor(max_workers=n) as ex:\n        return list(ex.map(_thread_fn, range(n)))\n"
            ),
            "test_compiled.py": (
                "import torch\nimport lib.pool\n\ndef double(x):\n    return x * 2\n\ndef _mp_fn(i):\n"
                "    return torch.compile(double)(torch.ones(2) * i)\n\nlib.pool.run_per_device(_mp_fn, 4)\n"
            ),
            "bench.py": (
                "import torch\nimport lib\n\ndef run_config():\n    from torch._inductor import config as inductor_config\n"
                "    inductor_config.triton.cudagraphs = True\n    return torch.compile(torch.nn.Linear(2, 2))(torch.ones(2))\n"
            ),
        }
    ),
    Example(  # set by each worker: in the thread, in the executor's initializer; copied context
        {
            "train.py": dedented(
                """
                import contextvars
                import threading
                from concurrent.futures import ThreadPoolExecutor
                import torch

                torch._dynamo.config.recompile_limit = 64
                step = torch.compile(lambda x: x * 2)


                def configure():
                    torch._dynamo.config.recompile_limit = 64


                def worker(x):
                    torch._dynamo.config.recompile_limit = 64
                    return step(x)


                def job(x):
                    return step(x)


                threading.Thread(target=worker, args=(1,)).start()
                with ThreadPoolExecutor(4, initializer=configure) as pool:
                    pool.map(job, range(8))
                ctx = contextvars.copy_context()
                threading.Thread(target=ctx.run, args=(job, 1)).start()
                """
            )
        }
    ),
    Example(  # the initializer passed by position sets it on every worker
        {
            "train.py": dedented(
                """
                from concurrent.futures import ThreadPoolExecutor
                from multiprocessing.pool import ThreadPool
                import torch

                step = torch.compile(lambda x: x * 2)


                def configure():
                    torch._dynamo.config.recompile_limit = 64


                def job(x):
                    return step(x)


                with ThreadPoolExecutor(4, "worker", configure) as pool:
                    pool.map(job, range(8))
                with ThreadPool(4, configure) as threads:
                    threads.map(job, range(8))
                """
            )
        }
    ),
    Example(  # settings, but the threads only load data; compiled code runs on the main thread
        {
            "train.py": dedented(
                """
                import queue
                import threading
                import torch

                torch._inductor.config.max_autotune = True
                model = torch.compile(torch.nn.Linear(8, 8))
                batches = queue.Queue()


                def load():
                    for _ in range(10):
                        batches.put(torch.randn(8))


                threading.Thread(target=load).start()
                model(batches.get())
                """
            )
        }
    ),
    Example(  # an evaluation script sets it in its own program, unrelated to the threaded trainer
        {
            "eval.py": "import torch\n\ntorch._dynamo.config.recompile_limit = 64\n",
            "train.py": dedented(
                """
                import threading
                import torch

                step = torch.compile(lambda x: x)
                threading.Thread(target=lambda: step(1)).start()
                """
            ),
        }
    ),
    Example(  # the worker sets the setting itself with setattr; setattr of another object
        {
            "train.py": dedented(
                """
                import argparse
                import threading
                import torch

                args = argparse.Namespace()
                setattr(args, "recompile_limit", 64)
                torch._dynamo.config.recompile_limit = 64
                step = torch.compile(torch.sin)


                def worker():
                    setattr(torch._dynamo.config, "recompile_limit", args.recompile_limit)
                    step(1)


                threading.Thread(target=worker).start()
                """
            )
        }
    ),
]
