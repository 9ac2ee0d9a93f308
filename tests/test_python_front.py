"""The Python front end's facts and the project thread analysis, at exact lines."""

from __future__ import annotations

import pickle
import sys

import pytest
from launchlint.front.pysource import parse_python
from launchlint.model import Location
from launchlint.project import Project, Settings
from launchlint.pyfacts import GRAD, INFERENCE_MODE, MODULE_SCOPE, NO_GRAD, module_name
from launchlint.threads import analyse

from tests.conftest import facts, py


def calls(module, function: str = MODULE_SCOPE) -> dict[str, object]:
    """callee -> Call of the last call with that callee in `function`."""
    return {c.callee: c for c in module.functions[function].calls}


def threads(files: dict[str, str], lock_names: tuple[str, ...] = ()):
    python = {path: parse_python(path, py(text)) for path, text in files.items()}
    return analyse(Project(root=".", python=python, settings=Settings(lock_names=lock_names)))


def lines(report) -> dict[str, list[str]]:
    return {
        "LL201": [f"{c.site.location.path}:{c.site.location.line}" for c in report.thread_compiles],
        "LL202": [f"{c.location.path}:{c.location.line}" for c in report.compiled_calls],
    }


# -- module names and imports ----------------------------------------------------------------


@pytest.mark.parametrize(
    "path,name,package",
    [
        ("train.py", "train", False),
        ("pkg/sub/mod.py", "pkg.sub.mod", False),
        ("pkg/sub/__init__.py", "pkg.sub", True),
        ("__init__.py", "", True),
    ],
)
def test_module_name(path, name, package):
    assert module_name(path) == (name, package)


def test_imports_aliases_and_relative_imports():
    module = facts(
        """
        import torch as T
        import torch.distributed
        import pkg.sub.mod as m
        from torch import compile as tc
        from . import sibling
        from .helpers import run as go
        from ..base import Base
        from .star import *


        def late():
            import numpy as np
        """,
        path="pkg/sub/mod.py",
    )
    assert module.imports == {
        "T": "torch",
        "torch": "torch",
        "m": "pkg.sub.mod",
        "tc": "torch.compile",
        "sibling": "pkg.sub.sibling",
        "go": "pkg.sub.helpers.run",
        "Base": "pkg.base.Base",
        "np": "numpy",
    }
    assert module.star_imports == ["pkg.sub.star"]
    assert module.qualified("T.compile") == "torch.compile"
    assert module.qualified("tc") == "torch.compile"
    assert module.qualified("model.forward") == "model.forward"


def test_relative_import_in_a_package_init_and_one_that_climbs_out():
    module = facts("from .core import f\nfrom ...far import g\n", path="pkg/__init__.py")
    assert module.imports == {"f": "pkg.core.f"}


# -- functions, calls, positions -------------------------------------------------------------


def test_functions_methods_lambdas_and_their_calls():
    module = facts(
        """
        class Trainer:
            def __init__(me, model):
                me.model = model

            def step(self, batch):
                return self.model(batch)

            @staticmethod
            def helper(x):
                return len(x)


        def main():
            def inner():
                return Trainer(1).step(2)
            worker = lambda: inner()
        """
    )
    functions = module.functions
    assert set(functions) == {
        MODULE_SCOPE,
        "Trainer.__init__",
        "Trainer.step",
        "Trainer.helper",
        "main",
        "main.inner",
        "main.<lambda:16:14>",
    }
    assert functions["Trainer.__init__"].params == ("me", "model")
    assert functions["Trainer.__init__"].is_method and not functions["Trainer.helper"].is_method
    assert functions["main.inner"].parent == "main" and functions["main"].parent is None
    step_call = functions["Trainer.step"].calls[0]
    assert step_call.callee == "self.model"
    assert step_call.location == Location("train.py", 6, 16, 6, 33)
    assert [c.callee for c in functions["main.inner"].calls] == ["Trainer", ""]
    assert [c.callee for c in functions["main.<lambda:16:14>"].calls] == ["inner"]
    assert functions["main"].calls == []  # the lambda's call runs in the lambda
    assert functions["main"].local_names == {"inner", "worker"}
    binding = module.bindings[0]
    assert (binding.scope, binding.name, binding.function, binding.value) == (
        "Trainer",
        "model",
        "Trainer.__init__",
        "model",
    )


def test_columns_are_characters_not_utf8_bytes():
    module = parse_python("t.py", "é = 'ü'; x = f(é)\n")
    assert module.functions[MODULE_SCOPE].calls[0].location == Location("t.py", 1, 14, 1, 18)
    with_bom = parse_python("t.py", "\ufeffé = 'ü'; x = f(é)\n")
    assert with_bom.parse_errors == []
    assert with_bom.functions[MODULE_SCOPE].calls[0].location == Location("t.py", 1, 15, 1, 19)


def test_call_arguments_are_described():
    module = facts(
        """
        import functools
        run(model, 8, "x", None, lambda: 1, functools.partial(step, 2), f(), key=self_model.fc)
        """
    )
    call = calls(module)["run"]
    assert call.args == ("model", "8", "'x'", "None", "<lambda:2:26>", "step", "")
    assert call.keyword("key") == "self_model.fc"


def test_locks_held_by_with_and_acquire_release():
    module = facts(
        """
        import threading
        LOCK = threading.Lock()


        def work(lock):
            with LOCK:
                a()
            lock.acquire()
            try:
                b()
            finally:
                lock.release()
            c()
            with open("f") as fh, make_guard():
                d()
        """
    )
    held = {c.callee: c.held for c in module.functions["work"].calls}
    assert held["a"] == ("LOCK",)
    assert held["b"] == ("lock",)
    assert held["c"] == ()
    assert held["d"] == ("open()", "make_guard()")
    assert [(b.name, b.value) for b in module.locks] == [("LOCK", "threading.Lock")]


def test_grad_modes_from_contexts_and_decorators():
    module = facts(
        """
        import torch


        @torch.no_grad()
        def evaluate():
            a()
            with torch.enable_grad():
                b()


        def train():
            with torch.inference_mode():
                c()
            with torch.set_grad_enabled(False):
                d()
            e()
        """
    )
    modes = {c.callee: c.grad_mode for f in module.functions.values() for c in f.calls}
    assert modes["a"] == NO_GRAD
    assert modes["b"] == GRAD
    assert modes["c"] == INFERENCE_MODE
    assert modes["d"] == NO_GRAD
    assert modes["e"] is None


def test_static_loop_counts():
    module = facts(
        """
        N = 3
        for i in range(8):
            a()
            for j in range(2, 5):
                b()
        for g in (0, 1):
            c()
        for k in range(N):
            d()
        while True:
            e()
        threads = [f() for _ in range(12)]
        for x in items:
            h()
        """
    )
    loops = {c.callee: c.loops for c in module.functions[MODULE_SCOPE].calls}
    assert loops == {"a": 8, "b": 24, "c": 2, "d": 3, "e": None, "f": 12, "h": None, "range": 1}


# -- torch.compile ---------------------------------------------------------------------------


def test_compile_sites():
    module = facts(
        """
        import torch as T
        from torch import compile as tc
        import torch._dynamo


        fast = T.compile(f, fullgraph=True)


        @tc
        def g(x):
            return x


        @T.compile(mode="reduce-overhead")
        def h(x):
            return x


        class M:
            def __init__(self, model):
                self.model = tc(model) if flag else model


        def build(model):
            global shared
            shared = torch._dynamo.optimize("inductor", nopython=True)(model)
            return T.compiler.compile(model)


        T.compile(f)(1)
        models.append(T.compile(f))
        models.append(T.compile(mode="max-autotune")(f))
        """
    )
    sites = [
        (s.location.line, s.api, s.compiled, s.function, s.scope, s.name, s.returned, s.fullgraph, s.mode)
        for s in module.compile_sites
    ]
    assert sites == [
        (6, "torch.compile", "f", MODULE_SCOPE, MODULE_SCOPE, "fast", False, True, None),
        (9, "torch.compile", "g", MODULE_SCOPE, MODULE_SCOPE, "g", False, False, None),
        (14, "torch.compile", "h", MODULE_SCOPE, MODULE_SCOPE, "h", False, False, "reduce-overhead"),
        (21, "torch.compile", "model", "M.__init__", "M", "model", False, False, None),
        (26, "torch._dynamo.optimize", "model", "build", MODULE_SCOPE, "shared", False, True, None),
        (27, "torch.compiler.compile", "model", "build", None, None, True, False, None),
        (30, "torch.compile", "f", MODULE_SCOPE, None, None, False, False, None),
        (31, "torch.compile", "f", MODULE_SCOPE, None, None, False, False, None),
        (32, "torch.compile", "f", MODULE_SCOPE, None, None, False, False, "max-autotune"),
    ]
    immediate = module.compile_sites[6].call
    assert immediate is not None and immediate.location.line == 30 and immediate.args == ("1",)


# -- thread entries --------------------------------------------------------------------------


def test_thread_entries():
    module = facts(
        """
        import asyncio
        import functools
        import threading
        from concurrent.futures import ThreadPoolExecutor
        from multiprocessing.dummy import Pool


        class Runner:
            def start(self):
                threading.Thread(target=self.loop, args=(1, 2), daemon=True).start()


        def main(loop):
            threading.Thread(None, work, "name", (3,)).start()
            threading.Timer(5.0, work, args=(4,)).start()
            threading.Thread(target=functools.partial(work, 5), args=(6,)).start()
            with ThreadPoolExecutor(max_workers=4) as ex:
                ex.submit(work, 7)
                ex.map(work, range(8))
            ThreadPoolExecutor(2).submit(work)
            Pool(4).apply_async(work, (9,))
            loop.run_in_executor(None, work, 10)
            asyncio.to_thread(work, 11)
            threading.Thread(target=jobs[0]).start()
        """
    )
    entries = [(e.location.line, e.kind, e.target, e.function, e.args, e.pool) for e in module.thread_entries]
    assert entries == [
        (10, "thread", "self.loop", "Runner.start", ("1", "2"), None),
        (14, "thread", "work", "main", ("3",), None),
        (15, "timer", "work", "main", ("4",), None),
        (16, "thread", "work", "main", ("5", "6"), None),
        (18, "submit", "work", "main", ("7",), "ex"),
        (19, "map", "work", "main", (), "ex"),
        (20, "submit", "work", "main", (), "ThreadPoolExecutor()"),
        (21, "submit", "work", "main", ("9",), "Pool()"),
        (22, "executor", "work", "main", ("10",), "None"),
        (23, "to_thread", "work", "main", ("11",), None),
    ]


# -- argparse --------------------------------------------------------------------------------


def test_argparse_parsers_and_options():
    module = facts(
        """
        import argparse


        def add_model_args(parser):
            group = parser.add_argument_group("model")
            group.add_argument("--hidden-size", type=int, required=True)


        def get_args():
            parser = argparse.ArgumentParser(allow_abbrev=False)
            parser.add_argument("data")
            parser.add_argument("-l", "--lr", dest="learning_rate", default=1e-3)
            parser.add_argument("--fp16", action="store_true")
            add_model_args(parser)
            sub = parser.add_subparsers()
            evaluate = sub.add_parser("eval")
            evaluate.add_argument("--split")
            return parser.parse_known_args()


        def other():
            p = argparse.ArgumentParser()
            p.add_argument(*FLAGS)
            external.register(p)
        """
    )
    main, sub, other = module.parsers
    assert (main.name, main.function, main.location.line) == ("parser", "get_args", 10)
    assert not main.allow_abbrev and main.parse_known_args and main.complete
    options = [(o.flags, o.dest, o.required, o.action, o.location.line) for o in main.options]
    assert options == [
        (("--hidden-size",), "hidden_size", True, None, 6),
        (("data",), "data", True, None, 11),
        (("-l", "--lr"), "learning_rate", False, None, 12),
        (("--fp16",), "fp16", False, "store_true", 13),
    ]
    assert sub.subcommand == "eval" and [o.flags for o in sub.options] == [("--split",)]
    assert other.options == [] and not other.complete and other.allow_abbrev


# -- robustness ------------------------------------------------------------------------------


def test_syntax_error_is_a_parse_error_at_its_position():
    module = parse_python("bad.py", "x = 1\ndef f(:\n    pass\n")
    assert len(module.parse_errors) == 1
    location, message = module.parse_errors[0]
    assert (location.path, location.line, location.column) == ("bad.py", 2, 7)
    assert message == "invalid syntax"


def test_an_unindent_that_matches_no_level_is_at_the_statement_not_past_the_line():
    """CPython's offset of this IndentationError is past the line's end: the bad indent's end,
    where the statement starts, is the place to change."""
    module = parse_python("bad.py", "class A:\n    def f(self):\n        return 1\n\n     def g(self):\n        pass\n")
    (location, message), = module.parse_errors
    assert (location.line, location.column, location.end_column) == (5, 6, 7)
    assert message == "unindent does not match any outer indentation level"


PYTHON_2_EXCEPT = "try:\n    run()\nexcept ValueError, err:\n    log(err)\n"


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="Python 3.14 parses `except A, B:`")
@pytest.mark.parametrize(
    ("source", "error_line"),
    [
        (PYTHON_2_EXCEPT + 'print "done"\n', 3),  # Python 2's other syntax: its first error
        (PYTHON_2_EXCEPT + "exec code in scope\n" + PYTHON_2_EXCEPT, 3),
        (PYTHON_2_EXCEPT, None),  # nothing else: Python 3.14 parses it
        (PYTHON_2_EXCEPT + "type Batch = list[int]\n", None),  # and another newer form
        ("try:\n    run()\nexcept errors[0], errors[1]:\n    pass\n", None),  # not rewritten: taken as 3.14's
    ],
)
def test_an_except_of_two_names_is_python_3_14_only_where_the_file_parses_with_them_parenthesized(source, error_line):
    module = parse_python("old.py", source)
    assert [(location.line, message) for location, message in module.parse_errors] == (
        [(error_line, "multiple exception types must be parenthesized")] if error_line else []
    )
    assert (module.newer_syntax is None) == bool(error_line)


def test_nul_byte_is_a_parse_error():
    module = parse_python("nul.py", "x = 1\ny = 'a\0b'\n")
    (location, message), = module.parse_errors
    assert (location.line, location.column) == (2, 7)
    assert "null bytes" in message


@pytest.mark.parametrize(
    "source",
    [
        "x = " + "(" * 3000 + "1" + ")" * 3000,  # the parser refuses it
        "x = " + "+".join(["1"] * 3000),  # ast construction overflows
        "x = " + "-" * 3000 + "1",
    ],
)
def test_absurdly_nested_code_is_a_parse_error_not_a_crash(source):
    module = parse_python("deep.py", source + "\n")
    assert len(module.parse_errors) == 1


def test_deep_but_valid_expressions_are_analysed():
    chain = "x = a" + ".b()" * 1200 + "\n"
    total = "y = " + "+".join(["f(1)"] * 2500) + "\n"
    module = parse_python("deep.py", chain + total)
    assert module.parse_errors == []
    assert len(module.functions[MODULE_SCOPE].calls) == 1200 + 2500


def test_facts_pickle():
    module = facts(
        """
        import threading, torch
        fast = torch.compile(f)
        threading.Thread(target=lambda: fast(1)).start()
        """
    )
    data = pickle.dumps(module)  # the facts are plain objects, no __eq__: a round trip keeps every byte
    assert pickle.dumps(pickle.loads(data)) == data and pickle.loads(data).compile_sites == module.compile_sites


# -- the thread analysis ---------------------------------------------------------------------


def test_starts_targets_and_counts():
    report = threads(
        {
            "train.py": """
                import threading
                from concurrent.futures import ThreadPoolExecutor


                class Loader(threading.Thread):
                    def run(self):
                        pass


                def work():
                    pass


                def main():
                    for _ in range(12):
                        threading.Thread(target=work).start()
                    with ThreadPoolExecutor(max_workers=16) as pool:
                        pool.map(work, range(100))
                    loaders = [Loader() for _ in range(2)]
                """
        }
    )
    starts = [(s.location.line, s.label, s.targets, s.count) for s in report.starts]
    assert starts == [
        (16, "threading.Thread(target=work)", (("train.py", "work"),), 12),
        (18, "pool.map(work)", (("train.py", "work"),), 16),
        (19, "Loader() (a threading.Thread subclass)", (("train.py", "Loader.run"),), 2),
    ]


def test_process_pools_and_unknown_pools_are_not_threads():
    report = threads(
        {
            "train.py": """
                from concurrent.futures import ProcessPoolExecutor
                with ProcessPoolExecutor(4) as pool:
                    pool.submit(work)
                df.map(work)
                """
        }
    )
    assert report.starts == []


def test_reachability_across_modules_methods_and_instances():
    files = {
        "pkg/__init__.py": "",
        "pkg/attention.py": """
            import torch
            attend = torch.compile(lambda q: q)
            """,
        "pkg/model.py": """
            from torch import nn
            from .attention import attend


            class Base(nn.Module):
                def mix(self, x):
                    return attend(x)


            class Model(Base):
                def forward(self, x):
                    return self.mix(x)
            """,
        "scripts/train.py": """
            import threading
            import pkg.model as models


            class Trainer:
                def __init__(self):
                    self.model = models.Model().cuda()

                def step(self, batch):
                    return self.model(batch)


            trainer = Trainer()
            threading.Thread(target=trainer.step, args=(1,)).start()
            """,
    }
    report = threads(files)
    assert lines(report) == {"LL201": [], "LL202": ["pkg/model.py:7"]}
    (found,) = report.compiled_calls
    assert found.start.location.path == "scripts/train.py" and found.start.location.line == 14
    assert (found.site.location.path, found.site.location.line) == ("pkg/attention.py", 2)


def test_sibling_module_of_a_script_resolves_by_name():
    files = {
        "scripts/helpers.py": """
            import torch
            step = torch.compile(lambda x: x)
            """,
        "scripts/train.py": """
            import threading
            from helpers import step
            threading.Thread(target=lambda: step(1)).start()
            """,
    }
    assert lines(threads(files))["LL202"] == ["scripts/train.py:3"]


def test_compiled_callable_as_the_thread_target():
    files = {
        "serve.py": """
            import threading
            import torch
            model = torch.compile(torch.nn.Linear(8, 8))
            threading.Thread(target=model, args=(1,)).start()
            """
    }
    assert lines(threads(files))["LL202"] == ["serve.py:4"]


# The second: `step` runs under the lock alone, so the walk that skips guarded calls never reaches it.
@pytest.mark.parametrize(("after", "expected"), [("step()", ["train.py:8"]), ("pass", [])])
def test_a_lock_held_by_a_caller_guards_the_callee(after, expected):
    files = {
        "train.py": f"""
            import threading
            import torch
            fast = torch.compile(lambda x: x)
            LOCK = threading.Lock()


            def step():
                return fast(1)


            def worker():
                with LOCK:
                    step()
                {after}


            threading.Thread(target=worker).start()
            """
    }
    report = threads(files)
    assert lines(report)["LL202"] == expected


def test_lock_kinds():
    files = {
        "train.py": """
            import threading
            import torch
            fast = torch.compile(lambda x: x)
            amp = torch.autocast("cuda")


            class Worker(threading.Thread):
                shared = threading.Lock()

                def __init__(self, lock):
                    super().__init__()
                    self.own = threading.Lock()
                    self.given = lock

                def run(self):
                    with self.own:
                        fast(1)
                    with self.shared:
                        fast(2)
                    with self.given:
                        fast(3)
                    with amp:
                        fast(4)
                    with self.unknown:
                        fast(5)


            def main():
                lock = threading.Lock()

                def closure():
                    with lock:
                        fast(6)

                Worker(lock).start()
                threading.Thread(target=closure).start()
            """
    }
    assert lines(threads(files))["LL202"] == ["train.py:17", "train.py:23"]


def test_configured_lock_names_count_as_guards():
    files = {
        "train.py": """
            import threading
            import torch
            fast = torch.compile(lambda x: x)


            def worker():
                with compile_guard():
                    fast(1)


            threading.Thread(target=worker).start()
            """
    }
    assert lines(threads(files))["LL202"] == ["train.py:8"]
    assert lines(threads(files, lock_names=("compile_guard",)))["LL202"] == []


def test_warm_up_in_a_caller_of_the_spawning_function():
    files = {
        "train.py": """
            import threading
            import torch
            fast = torch.compile(lambda x: x)


            def worker():
                fast(1)


            def spawn():
                threading.Thread(target=worker).start()


            def warm_up():
                fast(0)


            def main():
                warm_up()
                spawn()
            """
    }
    assert lines(threads(files))["LL202"] == []


def test_warm_up_after_the_start_does_not_count():
    files = {
        "train.py": """
            import threading
            import torch
            fast = torch.compile(lambda x: x)


            def worker():
                fast(1)


            threading.Thread(target=worker).start()
            fast(0)
            """
    }
    assert lines(threads(files))["LL202"] == ["train.py:7"]


def test_inference_mode_warm_up_covers_only_inference_mode_workers():
    files = {
        "serve.py": """
            import threading
            import torch
            model = torch.compile(torch.nn.Linear(8, 8))


            def infer():
                with torch.inference_mode():
                    model(1)


            def train():
                model(2)


            with torch.inference_mode():
                model(0)
            threading.Thread(target=infer).start()
            threading.Thread(target=train).start()
            """
    }
    report = threads(files)
    assert lines(report)["LL202"] == ["serve.py:12"]
    (found,) = report.compiled_calls
    assert found.warmup is not None and found.warmup.line == 16 and found.warmup_mode == INFERENCE_MODE


def test_compile_in_thread_reports_the_compile_site_once():
    files = {
        "train.py": """
            import threading
            import torch


            def worker(model):
                fast = torch.compile(model)
                fast(1)
                fast(2)


            for _ in range(4):
                threading.Thread(target=worker, args=(torch.nn.Linear(8, 8),)).start()
            """
    }
    report = threads(files)
    assert lines(report) == {"LL201": ["train.py:6"], "LL202": []}
    (found,) = report.thread_compiles
    assert found.call.line == 7 and found.start.location.line == 12


def test_the_incident_fixture():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "fixtures"
    for name, expected in (("incident", ["train_dflash_pipeline.py:19"]), ("incident-fixed", [])):
        path = root / name / "train_dflash_pipeline.py"
        report = threads({"train_dflash_pipeline.py": path.read_text()})
        assert lines(report)["LL202"] == expected


def test_executor_stored_on_self_and_a_compiled_attribute():
    files = {
        "trainer.py": """
            from concurrent.futures import ThreadPoolExecutor, ProcessPoolExecutor
            import torch


            class Trainer:
                def __init__(self, model, gpus):
                    self.model = torch.compile(model, fullgraph=True)
                    self.pool = ThreadPoolExecutor(max_workers=len(gpus))
                    self.procs = ProcessPoolExecutor(4)

                def _step(self, batch):
                    return self.model(batch)

                def train(self, batches):
                    for batch in batches:
                        self.procs.submit(self._step, batch)
                        self.pool.submit(self._step, batch)
            """
    }
    report = threads(files)
    assert [(s.location.line, s.label, s.count) for s in report.starts] == [
        (17, "self.pool.submit(self._step)", None)
    ]
    assert lines(report)["LL202"] == ["trainer.py:12"]
    assert report.compiled_calls[0].site.fullgraph
