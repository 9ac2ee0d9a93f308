"""Python trainer facts and analysis behind LL203-LL205, import resolution, and the forms of
thread starts and compiled callables added for them, at exact lines."""

from __future__ import annotations

from launchlint.front.pysource import parse_python
from launchlint.project import Project
from launchlint.pyfacts import MODULE_SCOPE
from launchlint.pyindex import ModuleIndex
from launchlint.threads import analyse

from tests.conftest import facts, py


def report(files: dict[str, str]):
    python = {path: parse_python(path, py(text)) for path, text in files.items()}
    return analyse(Project(root=".", python=python))


def at(location) -> str:
    return f"{location.path}:{location.line}"


# -- import resolution ---------------------------------------------------------------------------


def test_imports_resolve_from_the_root_and_from_directories_above_that_are_not_packages():
    index = ModuleIndex(
        [
            "socket.py",
            "trio/__init__.py",
            "trio/_socket.py",
            "trio/_core/__init__.py",
            "trio/_core/_io.py",
            "trio/_core/helpers.py",
            "exp/utils/data.py",
            "exp/train/pretrain.py",
            "exp/train/common.py",
        ]
    )
    assert index.resolve("trio/_core/_io.py", "_socket") is None  # stdlib, not trio/_socket.py
    assert index.resolve("trio/_core/_io.py", "socket") == "socket.py"  # the root's own socket.py
    assert index.resolve("trio/_core/_io.py", "helpers") is None  # a package's directory is no sys.path entry
    assert index.resolve("trio/_core/_io.py", "trio._socket") == "trio/_socket.py"
    assert index.resolve("exp/train/pretrain.py", "common") == "exp/train/common.py"  # python train/x.py
    assert index.resolve("exp/train/pretrain.py", "utils.data") == "exp/utils/data.py"  # run from exp/
    assert index.resolve("exp/train/pretrain.py", "torch") is None


def test_the_modules_importing_a_module_are_those_whose_imports_reach_it():
    """`importers` is `imported` the other way round (LL205's one program: a third module that
    imports both), through cycles and star imports, and not through a library's name."""
    files = {
        "train.py": "import model\nfrom settings import *\n",
        "model.py": "import layers\n",
        "layers.py": "import model\nimport torch\n",  # a cycle
        "settings.py": "X = 1\n",
        "bench.py": "import settings\n",
        "alone.py": "import torch\n",
    }
    modules = {path: parse_python(path, py(text)) for path, text in files.items()}
    index = ModuleIndex(modules)
    for path in files:
        expected = {m for m in files if path in index.imported(modules, m)}
        assert index.importers(modules, path) == expected, path
    assert index.importers(modules, "layers.py") == {"layers.py", "model.py", "train.py"}
    assert index.importers(modules, "settings.py") == {"settings.py", "train.py", "bench.py"}
    assert index.importers(modules, "alone.py") == {"alone.py"}


def test_a_stdlib_name_does_not_reach_a_project_module_of_that_name():
    files = {
        "net/socket.py": """
            import torch
            send = torch.compile(lambda x: x)
            """,
        "net/server.py": """
            import threading
            import socket
            threading.Thread(target=lambda: socket.send(1)).start()
            """,
    }
    assert report(files).compiled_calls == []


# -- facts ---------------------------------------------------------------------------------------


def test_stream_redirects():
    module = facts(
        """
        import contextlib, os, sys
        log = open("train.log", "w")
        sys.stdout = log
        sys.stderr = open(os.devnull, "w")
        os.dup2(log.fileno(), sys.stdout.fileno())
        os.dup2(open("err.log").fileno(), 2)
        os.dup2(log.fileno(), 7)
        with contextlib.redirect_stdout(log):
            pass
        """
    )
    found = [(r.location.line, r.stream, r.api, r.target) for r in module.redirects]
    assert found == [
        (3, "stdout", "sys.stdout =", "log"),
        (4, "stderr", "sys.stderr =", "open()"),
        (5, "stdout", "os.dup2", "log"),
        (6, "stderr", "os.dup2", "open()"),
        (8, "stdout", "contextlib.redirect_stdout", "log"),
    ]
    assert module.redirects[1].call.args == ("os.devnull", "'w'")


def test_config_overrides_with_their_thread_function():
    module = facts(
        """
        import torch
        import torch._inductor.config as inductor
        from torch._dynamo import config

        torch._dynamo.config.recompile_limit = 64
        inductor.max_autotune = True


        @config.patch(cache_size_limit=32)
        def worker():
            with inductor.patch({"coordinate_descent_tuning": True}):
                pass
            with config.patch(**options):
                pass
        """
    )
    found = [(o.location.line, o.config, o.keys, o.function) for o in module.config_overrides]
    assert found == [
        (5, "torch._dynamo.config", ("recompile_limit",), MODULE_SCOPE),
        (6, "torch._inductor.config", ("max_autotune",), MODULE_SCOPE),
        (9, "torch._dynamo.config", ("cache_size_limit",), "worker"),
        (11, "torch._inductor.config", ("coordinate_descent_tuning",), "worker"),
        (13, "torch._dynamo.config", (), "worker"),
    ]


def test_config_override_scopes():
    module = facts(
        """
        import contextlib
        import torch
        from torch._dynamo import config


        @config.patch(cache_size_limit=32)
        def warm_up():
            with config.patch(recompile_limit=16), open("log"):
                pass
            ctx = config.patch(automatic_dynamic_shapes=False)
            with ctx:
                pass
            with ctx:
                pass
            with contextlib.ExitStack() as stack:
                stack.enter_context(config.patch(verbose=True))
            stack.enter_context(config.patch(verbose=False))
            self.stack.enter_context(config.patch(verbose=True))
            config.patch(verbose=True).__enter__()
            config.cache_size_limit = 8


        @contextlib.contextmanager
        def restored():
            before = config.recompile_limit
            config.recompile_limit = 64
            config.verbose = True
            try:
                yield
            finally:
                config.recompile_limit = before


        def generator():
            config.recompile_limit = 64
            yield
            config.recompile_limit = 8
        """
    )
    found = [
        (o.location.line, o.keys[0], o.scope and (o.scope.line, o.scope.end_line)) for o in module.config_overrides
    ]
    assert found == [
        (6, "cache_size_limit", (7, 20)),  # the decorated def
        (8, "recompile_limit", (8, 9)),
        (10, "automatic_dynamic_shapes", (11, 14)),  # the span of both `with ctx:`
        (16, "verbose", (15, 16)),  # the ExitStack's block
        (17, "verbose", None),  # after it
        (18, "verbose", None),  # an ExitStack not entered here
        (19, "verbose", None),
        (20, "cache_size_limit", None),
        (26, "recompile_limit", (24, 31)),  # set, yielded for, restored: the context manager's def
        (27, "verbose", None),  # not restored
        (31, "recompile_limit", (24, 31)),
        (35, "recompile_limit", None),  # a generator, not a context manager
        (37, "recompile_limit", None),
    ]


def test_module_compile_in_place_and_lookalikes():
    module = facts(
        """
        import re
        net = Net()


        def main(model):
            net.compile(mode="reduce-overhead")
            model.compile()
            model.compile(optimizer="adam", loss="mse")
            re.compile("x")


        class Trainer:
            def setup(self):
                self.model.compile(fullgraph=True)
        """
    )
    sites = [(s.location.line, s.api, s.scope, s.name, s.mode, s.fullgraph) for s in module.compile_sites]
    assert sites == [
        (6, "nn.Module.compile", MODULE_SCOPE, "net", "reduce-overhead", False),
        (7, "nn.Module.compile", "main", "model", None, False),
        (14, "nn.Module.compile", "Trainer", "model", None, True),
    ]


def test_compile_backends_class_decorators_and_installed_calls():
    module = facts(
        """
        import functools
        import torch


        def install(cls, other):
            cls.__call__ = wrapper
            other.__call__ = wrapper
            return cls


        class Patched:
            def setup(self):
                self.__call__ = wrapper


        @install
        @functools.total_ordering
        class Net:
            pass


        a = torch.compile(f, backend=my_backend)
        b = torch.compile(f, backend=functools.partial(my_backend, mode="max"))
        c = torch._dynamo.optimize(eager_backend)(f)
        d = torch.compile(f, backend="inductor")
        e = torch.compile(f)
        net.compile(backend=backend)
        """
    )
    assert [s.backend for s in module.compile_sites] == [
        "my_backend", "my_backend", "eager_backend", "'inductor'", "", "backend"
    ]
    assert module.classes["Net"].decorators == ("install", "functools.total_ordering")
    assert module.classes["Patched"].decorators == ()
    bound = [(b.scope, b.name, b.value) for b in module.bindings if b.name.endswith("__call__")]
    assert bound == [("install", "cls.__call__", "wrapper"), ("Patched", "__call__", "wrapper")]


def test_a_compiled_modules_own_call_runs_eagerly_on_the_calling_thread():
    found = report(
        {
            "train.py": """
                import threading
                import torch

                helper = torch.compile(torch.sin)


                def install(cls):
                    def __call__(self, x):
                        return helper(x)

                    cls.__call__ = __call__
                    return cls


                class Net(torch.nn.Module):
                    def __call__(self, x):
                        return helper(x) + super().__call__(x)


                class Whole(torch.nn.Module):
                    def __call__(self, x):
                        return helper(x) + super().__call__(x)


                @install
                class Plain(torch.nn.Module):
                    def forward(self, x):
                        return helper(x)


                net = Net()
                net.compile()
                whole = Whole()
                whole = torch.compile(whole)
                plain = Plain()


                def worker(x):
                    y = net(x)
                    return whole(x) + plain(y)


                threading.Thread(target=worker, args=(1,)).start()
            """
        }
    )
    # Net.__call__ runs on the worker (a module compiled in place); Whole.__call__ is traced into
    # torch.compile(whole)'s graph; Plain's installed `__call__` and its forward both run
    assert sorted(at(c.location) for c in found.compiled_calls) == [
        "train.py:17", "train.py:28", "train.py:39", "train.py:40", "train.py:9"
    ]


def test_threads_started_through_a_copied_context():
    module = facts(
        """
        import contextvars, threading
        ctx = contextvars.copy_context()
        threading.Thread(target=ctx.run, args=(work, 1)).start()
        threading.Thread(target=contextvars.copy_context().run, args=(work,)).start()
        threading.Thread(target=other.run, args=(work,)).start()
        """
    )
    entries = [(e.target, e.args, e.context) for e in module.thread_entries]
    assert entries == [("work", ("1",), True), ("work", (), True), ("other.run", ("work",), False)]


# -- analysis ------------------------------------------------------------------------------------


def test_partial_and_lambda_bound_to_names_are_followed():
    files = {
        "train.py": """
            import functools
            import threading
            import torch

            fast = torch.compile(lambda x: x)


            def work(scale, x):
                return fast(x * scale)


            job = functools.partial(work, 2)
            step = lambda: fast(1)
            threading.Thread(target=job, args=(1,)).start()
            threading.Thread(target=step).start()
            """
    }
    assert [at(c.location) for c in report(files).compiled_calls] == ["train.py:9", "train.py:13"]


def test_an_executor_initializer_runs_on_the_workers():
    files = {
        "train.py": """
            from concurrent.futures import ThreadPoolExecutor
            import torch


            def setup():
                global fast
                fast = torch.compile(torch.nn.Linear(8, 8))
                fast(torch.ones(8))


            with ThreadPoolExecutor(4, initializer=setup) as pool:
                pool.submit(print, 1)
            """
    }
    assert [at(c.site.location) for c in report(files).thread_compiles] == ["train.py:7"]


def test_copied_context_still_races_but_carries_the_settings():
    files = {
        "train.py": """
            import contextvars
            import threading
            import torch

            torch._dynamo.config.recompile_limit = 64
            fast = torch.compile(lambda x: x)


            def work():
                fast(1)


            threading.Thread(target=contextvars.copy_context().run, args=(work,)).start()
            """
    }
    found = report(files)
    assert [at(c.location) for c in found.compiled_calls] == ["train.py:10"]
    assert found.starts[0].label == "threading.Thread(target=copy_context().run, work)"
    assert found.config_overrides == []


def test_graph_captures_through_attributes_and_compile_modes():
    files = {
        "graphs.py": """
            import torch


            class Runner:
                def __init__(self):
                    self.graph = torch.cuda.CUDAGraph()
                    self.fast = torch.compile(torch.nn.Linear(8, 8), mode="max-autotune")

                def capture(self):
                    self.graph.capture_begin()
                    self.graph.capture_end()
                    return self.fast(1)
            """,
        "train.py": """
            import threading
            from graphs import Runner

            runner = Runner()
            threading.Thread(target=runner.capture).start()
            """,
    }
    captures = [(at(c.location), c.api) for c in report(files).graph_captures]
    assert captures == [
        ("graphs.py:10", "torch.cuda.CUDAGraph.capture_begin"),
        ("graphs.py:12", 'torch.compile(mode="max-autotune")'),
    ]


def test_a_setting_the_threads_change_only_in_part_is_reported():
    files = {
        "train.py": """
            import threading
            import torch

            torch._dynamo.config.patch(recompile_limit=64, cache_size_limit=64).__enter__()
            fast = torch.compile(lambda x: x)


            def work():
                torch._dynamo.config.recompile_limit = 64
                fast(1)


            threading.Thread(target=work).start()
            """
    }
    (found,) = report(files).config_overrides
    assert at(found.override.location) == "train.py:4" and at(found.call) == "train.py:10"


def test_compile_aliased_by_assignment_as_a_decorator_and_as_a_call():
    files = {
        "core/jit.py": """
            import torch

            jit_fuser = torch.jit.script


            def enable_jit_fuser():
                global jit_fuser
                jit_fuser = torch.compile
            """,
        "core/ops.py": """
            from core.jit import jit_fuser


            @jit_fuser
            def bias_gelu(x):
                return x
            """,
        "train.py": """
            import threading
            import torch
            from core.ops import bias_gelu

            compile_fn = torch.compile if torch.cuda.is_available() else None


            def work(model):
                fast = compile_fn(model, mode="reduce-overhead")
                fast(1)
                bias_gelu(2)


            threading.Thread(target=work, args=(torch.nn.Linear(8, 8),)).start()
            """,
    }
    found = report(files)
    assert [at(c.site.location) for c in found.thread_compiles] == ["train.py:9"]
    assert [(at(c.location), at(c.site.location)) for c in found.compiled_calls] == [("train.py:11", "core/ops.py:5")]
    assert [c.api for c in found.graph_captures] == ['torch.compile(mode="reduce-overhead")']


def test_ll205_says_it_for_one_setting_and_them_for_several(tmp_path):
    from launchlint.engine import Options, run

    from tests.conftest import write_project

    worker = "import threading\nimport torch\nstep = torch.compile(torch.sin)\ndef work():\n    step(1)\n"
    write_project(tmp_path, {
        ".launchlint.yaml": "",
        "one.py": worker + "torch._dynamo.config.cache_size_limit = 64\nthreading.Thread(target=work).start()\n",
        "two.py": worker + "with torch._dynamo.config.patch(cache_size_limit=64, verbose=True):\n"
        "    threading.Thread(target=work).start()\n",
        "some.py": worker + "keys = {}\nwith torch._dynamo.config.patch(**keys):\n    threading.Thread(target=work).start()\n",
    })
    found = {f.location.path: f.message for f in run([str(tmp_path)], Options(select=frozenset({"LL205"}))).findings}
    assert found["one.py"].startswith("worker threads ignore `torch._dynamo.config.cache_size_limit` set at module level")
    assert found["two.py"].startswith(
        "worker threads ignore `torch._dynamo.config.cache_size_limit`, `torch._dynamo.config.verbose` set at module level"
    )
    assert found["some.py"].startswith("worker threads ignore the `torch._dynamo.config` settings patched at module level")
    assert [m.partition("; ")[2].split(" in ")[0] for m in (found["one.py"], found["two.py"], found["some.py"])] == [
        "set it",
        "set them",
        "set them",
    ]


def test_a_compiled_call_names_the_start_of_the_most_threads_reaching_it():
    files = {
        "train.py": """
            import threading
            from concurrent.futures import ThreadPoolExecutor
            import torch

            step = torch.compile(torch.sin)


            def worker(x):
                step(x)


            threading.Thread(target=worker, args=(1,)).start()
            with ThreadPoolExecutor(max_workers=32) as ex:
                ex.map(worker, range(100))
            threading.Thread(target=worker, args=(2,)).start()
            """
    }
    (found,) = report(files).compiled_calls
    assert at(found.location) == "train.py:9"
    assert (at(found.start.location), found.start.count) == ("train.py:14", 32)
