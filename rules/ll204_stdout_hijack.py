"""## What it does
Finds a Python program that sends its own stdout or stderr into a file for good: `sys.stdout =
open("train.log", "w")`, `os.dup2(log.fileno(), 1)`, or a module-level
`contextlib.redirect_stdout(file)`. It is the Python twin of a script's `exec >file` (LL102).
When a launcher in the project runs the program with its output captured (`python train.py |
tee run.log`, `> run.log`), the finding points at that capture too.

## Why is this bad?
Whoever started the program expects its output where they sent it: the caller's `| tee run.log`,
`> run.log`, the terminal, `kubectl logs`, the Slurm `--output` file. After the hijack they stay
empty, or stop at the last line printed before it, while the run goes on; a crash's traceback
lands in a file nobody is watching. `os.dup2` is worse than reassigning `sys.stdout`: it moves the
file descriptor itself, so the output of C extensions, NCCL and subprocesses goes too.

## Example
```python
# train.py
import sys

sys.stdout = open("logs/train.log", "w")
print("step 1 loss 2.31")
```
```bash
# run.sh
set -o pipefail
python -u train.py 2>&1 | tee run.log           # run.log stays empty
```

## Use instead
Log to the file *and* keep the stream: a `logging.FileHandler` next to the console handler, or
let the launcher choose the file (`| tee logs/train.log`):
```python
# train.py
import logging
import sys

logging.basicConfig(level=logging.INFO, handlers=[
    logging.StreamHandler(sys.stdout), logging.FileHandler("logs/train.log")])
logging.info("step 1 loss 2.31")
```
```bash
# run.sh
set -o pipefail
python -u train.py 2>&1 | tee run.log
```

## Details
- The replacements: `sys.stdout = open(...)` (also `Path("train.log").open("w")`, through a name
  bound to `open(...)`, `os.open`, `os.fdopen` of an `os.open`ed file, also inline:
  `os.fdopen(os.open(path, flags))`; `sys.stdout, sys.stderr = log, log`), `os.dup2(log.fileno(),
  1)` (or `2`, `sys.stdout.fileno()`), and a module-level `contextlib.redirect_stdout(file)` (or
  `redirect_stderr`).
- The capture is found also when the replacement is in a module the launched program imports
  itself (`from pkg.log import setup`).
- Not reported: a target that is not a file the program opens (`io.StringIO()`, a `Tee`-like
  object that also writes to the terminal, a stream rewrapped on a descriptor it already has:
  `open(1, "w", closefd=False)`, `open(sys.stdout.fileno(), "w", buffering=1)`, `os.fdopen(fd)`
  of an `fd = os.dup(1)` or of a descriptor passed in, `open("/dev/stdout")`; anything unknown),
  `os.devnull` (silencing non-zero ranks is deliberate), and a redirect that the same function
  undoes later (`sys.stdout = sys.__stdout__`, `os.dup2(saved, 1)`): that captures one step's
  output, not the run's. So is a context manager's `__enter__` whose class's `__exit__` gives
  the stream back (`sys.stdout = self.saved`), the class form of `contextlib.redirect_stdout`
  (AgentTuning's episode logs), and a capturing function that every call of it in its module is
  followed, in the calling function, by a call of the module's function that gives the stream
  back (`capture(path)`, then `release()` in a `finally`: opencompass' task runner; a method
  and `self.release()` too). A caller in the module that leaves it captured, or a capture only
  other modules call, is still reported.
- Not reported either: a redirect in a function that runs only in a process the program starts,
  the target of `multiprocessing.Process(target=f)` (also a context's,
  `multiprocessing.get_context("spawn").Process`, and `torch.multiprocessing.Process`) or a
  process pool's `initializer=f` or what its `submit`/`map` run (`multiprocessing.Pool`,
  `ProcessPoolExecutor`, also held in a name or a `with`), or a function
  only such functions call, when the program does not call it itself: it moves the child's
  descriptors, and the program's own output still goes where its caller sent it (a server's
  log, SkyRL's router). Still reported: such a function the program calls too, one a thread runs
  (a thread shares its process's descriptors), and the workers of
  `torch.multiprocessing.spawn(f)`: the parent only waits for them, they are the run.
- Not reported either, for the same reason: a redirect in a function only Ray's worker processes
  run: a method (`__init__` too) of a class made an actor (`@ray.remote`, `@ray.remote(num_gpus=1)`,
  `ray.remote(Cls)`, `ray.remote(num_gpus=1)(Cls)`, also through `import ray as r`, `from ray
  import remote` or a helper's parameter), or of a project base class of one (the actor's
  `__init__` runs it through `super().__init__()`), a task's function (`@ray.remote def f`,
  `ray.remote(f)`), or a function only these call (SkyRL's `redirect_actor_output_to_file`, which
  its actors' `__init__` call): it moves the actor's descriptors, and the driver's output still
  goes to the caller's `| tee`. Still reported: such a function the driver calls too (at module
  level, from `main`, from a test), the `__init__` of an actor's class the program also
  instantiates itself (`Critic()` beside `ray.remote(Critic)`) and the methods it calls on that
  instance, the methods of a base class of which the program instantiates a plain subclass
  (`Local()` of a `class Local(Base)` runs `Base.__init__` in the driver), and the callees of an
  actor made of a class the analysis cannot name (`ray.remote(self.actor_cls)` of a
  `self.actor_cls = actor_cls or Default`).
- Not reported either: a redirect the user asks for by name, which runs only in the body of an
  `if` testing an option of the program's own argparse parser (`if args.redirect:`, `if args.out
  is not None:`, `if args.log != "":`, a part of an `and`) that fails when the option is not
  passed (a `store_true`, no default, `default=None`, `False` or `""`): whoever passes
  `--redirect` chose the file, and a caller that does not pass it keeps the output (torchmd-net's
  `--redirect`, Vision-RWKV's `--out FILE`). Still reported, with the launch as the related
  location: a launcher of the project that passes the option, or may (`"$@"`, a variable), while
  it pipes or redirects the output. Still reported too: a test of anything else (an environment
  variable, the rank, `if not debug:`, an `or`), an option on by default (`default="train.log"`,
  `default=True`, `set_defaults`), a parser or default not known statically.
- Another file or `os.devnull` later is no undoing: `sys.stdout = open("train.log", "w")` then
  `if rank != 0: sys.stdout = open(os.devnull, "w")` leaves rank 0 writing to the file.

## References
- Python: `os.dup2(fd, fd2)` duplicates `fd` onto `fd2`, closing `fd2` first;
  `contextlib.redirect_stdout` changes `sys.stdout` until its `with` block ends.
- LL102 reports the shell form, `exec > file`.
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Severity
from launchlint.pyfacts import MODULE_SCOPE, PATH_OPEN, Option, PythonModule, StreamRedirect
from launchlint.rulekit import Example, dedented
from launchlint.threads import in_child_process_only

CODE = "LL204"
NAME = "stdout-hijack"
SEVERITY = Severity.WARNING
SUMMARY = "A Python program sends its own stdout or stderr into a file"

OPENERS = frozenset({"open", "io.open", "codecs.open", "os.open", "os.fdopen", "builtins.open", PATH_OPEN})
DESCRIPTORS = frozenset({"os.dup"})  # calls returning a copy of a descriptor the program has
NOT_FILES = ("devnull", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/")
SCOPED = frozenset({"contextlib.redirect_stdout", "contextlib.redirect_stderr"})  # with-block only


def check(project) -> Iterator[Finding]:
    processes = None  # whether the project starts processes, found when a redirect in a function asks
    for path, module in project.redirecting_modules():
        launches = None  # found when a redirect of the module asks
        for redirect in module.redirects:
            if redirect.api in SCOPED and redirect.function != MODULE_SCOPE:
                continue
            file = _file(module, redirect)
            if file is None or _undone(module, redirect):
                continue
            if redirect.function != MODULE_SCOPE:
                processes = project.starts_processes() if processes is None else processes
                if processes and in_child_process_only(project, path, redirect.function):
                    continue  # the child's own streams: the program's stay where its caller sent them
            launches = _launches(project, path) if launches is None else launches
            callers = [c for c in launches if c.kind == "python" and _captures(c, redirect.stream)]
            chosen = _chosen(project, path, redirect) if redirect.guards else None
            if chosen is not None:
                callers = [c for c in callers if _may_pass(project, path, c, chosen)]
                if not callers:
                    continue  # only when the user asks for it by name: the stream goes where they chose
            related = tuple(c.capture_note() for c in callers)
            yield Finding(redirect.location, _message(redirect, file, bool(callers)), related)


def _launches(project, path: str) -> list:
    """The launches of the program in `path`, or of a program that imports it (`from pkg.log
    import setup` in the trainer a script runs): whose output the replaced stream takes."""
    from launchlint.programs import imports_module  # here, as `_captures` imports the graph

    graph = project.graph
    launched = {i.callee for i in graph.invocations if i.kind == "python" and i.callee not in (None, path)}
    importers = [p for p in sorted(launched) if (m := project.python.get(p)) is not None and imports_module(project, m, path)]
    return [*graph.callers(path), *(c for p in importers for c in graph.callers(p))]


def _chosen(project, path: str, redirect: StreamRedirect) -> list[Option] | None:
    """The options of the program in `path` (argparse's) that the redirect runs only when passed:
    an `if` around it tests one (`if args.out is not None:`) where what it has when not passed
    fails the test (`--out` with no default, a `store_true`). None when there is none: it runs
    by default, the test is of something else, or the parser or a default is not known."""
    from launchlint.programs import command_line  # here: only a redirect under a test asks

    program = command_line(project, path)
    if program is None or not program.complete:
        return None
    for attribute, operator, literal in redirect.guards:
        options = [o for o in program.options if o.dest == attribute]
        if options and all(o.default and not _holds(o.default[0], operator, literal) for o in options):
            return options
    return None


def _holds(value: object, operator: str, literal: object) -> bool:
    """Whether a guard (`StreamRedirect.guards`) holds for an option's `value`."""
    if operator == "is not":
        return value is not None
    if operator == "!=":
        return value != literal
    if operator == "==":
        return value == literal
    return bool(value)


def _may_pass(project, path: str, caller, options: list[Option]) -> bool:
    """Whether a launch may pass one of `options`: it does, or some of its words are not known
    (`"$@"`, a variable, xargs' input), or it runs another program that imports this one."""
    from launchlint.programs import launched, read_launch

    program = launched(project, caller)
    if program is None or program.path != path or any(w.appended(caller.command) for w in caller.command.wrappers):
        return True
    reading = read_launch(program, caller.args)
    return reading.open or any(o in options for o in reading.passed)


def _file(module: PythonModule, redirect: StreamRedirect) -> str | None:
    """The path argument of the file the stream now goes to (as written), or None when the
    target is not a file the program opens, or is /dev/null or the stream itself."""
    if redirect.call is not None:
        return _opened(module, redirect.function, redirect.call, redirect.opens)
    calls = _bound_calls(module, redirect.function, redirect.target)
    at = redirect.location.line, redirect.location.column
    before = [call for call in calls if (call.location.line, call.location.column) < at]
    # the name's last value before the redirect first (`with open("dets.pkl") as f:`, later `f = open("summary.txt")`)
    for call in [*reversed(before), *calls]:
        where = _opened(module, redirect.function, call)
        if where is not None:
            return where
    return None


def _opened(module: PythonModule, function: str, call, opens=None, *, follow: bool = True) -> str | None:
    """What an opener call opens, as written ("a file" when it is not spelled); None when it is
    not an opener, opens /dev/null or a standard stream, or re-opens a descriptor the program
    already has: `open(1, "w")`, `open(sys.stdout.fileno())`, `os.fdopen(fd)` of a `fd =
    os.dup(1)`. A descriptor of `fd = os.open("x.log", ...)`, or of an `os.open("x.log", ...)`
    made on the spot (`opens`, the call making the first argument), opens that file."""
    opener = module.qualified(call.callee)
    if opener not in OPENERS:
        return None
    where = call.args[0] if call.args else call.keyword("file") or ""
    if where.isdigit() or where.startswith("sys.") or any(name in where for name in NOT_FILES):
        return None
    if opens is not None:
        bound = [opens]
    elif follow and where.isidentifier():
        bound = _bound_calls(module, function, where)
    else:
        bound = []
    if any(module.qualified(b.callee) in DESCRIPTORS or b.callee.endswith(".fileno") for b in bound):
        return None
    opened = [o for b in bound if (o := _opened(module, function, b, follow=False)) is not None]
    if opened:
        return opened[0]
    if opener == "os.fdopen":
        return None  # a descriptor from elsewhere (a parameter): most often a standard stream's
    return where or "a file"


def _bound_calls(module: PythonModule, function_name: str, target: str):
    """The calls a name was bound to in its scope (`log = open(...)`, `self.log = ...`)."""
    function = module.functions.get(function_name)
    if function is None or not target:
        return []
    if target.startswith("self.") and target.count(".") == 1 and function.class_name:
        scope, name = function.class_name, target[5:]
    elif "." not in target:
        scope, name = module.scope_of(function.qualname, target), target
    else:
        return []
    return [b.call for b in module.bindings if (b.scope, b.name) == (scope, name) and b.call is not None]


def _captures(caller, stream: str) -> bool:
    """The caller sends the program's `stream` into a pipe or a file."""
    from launchlint.graph import captures  # here: a run where no module writes its output to a file needs no graph

    return captures(caller.command.stdout if stream == "stdout" else caller.command.stderr)


def _undone(module: PythonModule, redirect: StreamRedirect) -> bool:
    """The same function gives the stream back later: a temporary capture (`sys.stdout = saved`,
    `sys.stdout = sys.__stdout__`, `os.dup2(saved_fd, 1)`). Another file or /dev/null after it
    (`if rank != 0: sys.stdout = open(os.devnull, "w")`, the other arm of an `if`) is no
    restore: the first file keeps the stream where that does not run. A context manager's
    `__enter__` is given it back by its class's `__exit__`, as `contextlib.redirect_stdout` is."""
    exit_ = _exit_of(redirect.function)
    restorers = {
        other.function
        for other in module.redirects
        if other.stream == redirect.stream and other.api not in SCOPED and _restores(module, other)
        and (other.function != redirect.function or other.location > redirect.location)
    }
    return redirect.function in restorers or exit_ in restorers or _released_by_callers(module, redirect.function, restorers)


def _released_by_callers(module: PythonModule, function: str, restorers: set[str]) -> bool:
    """Every call of the capturing `function` in its module is followed, in the calling function,
    by a call of a function of the module that gives the stream back (opencompass' runner:
    `capture(path)`, then `release()` in a `finally`). A function no code of the module calls, or
    one a caller leaves captured, is not."""
    restorers = restorers - {MODULE_SCOPE, function}
    if not restorers or function == MODULE_SCOPE:
        return False
    released = False
    for caller in module.functions.values():
        calls = caller.calls
        for i, call in enumerate(calls):
            if _calls(caller, call.callee, function):
                if not any(_calls(caller, later.callee, r) and later.location > call.location for later in calls[i + 1 :] for r in restorers):
                    return False
                released = True
    return released


def _calls(caller, callee: str, function: str) -> bool:
    """`callee`, as written in `caller`, names the module's `function`: a module-level function by
    its name, a method of the caller's own class as `self.name`."""
    if callee == function:
        return "." not in function
    return bool(caller.class_name) and callee.startswith("self.") and function == f"{caller.class_name}.{callee[5:]}"


def _exit_of(function: str | None) -> str | None:
    """`Log.__exit__` for `Log.__enter__` (`__aexit__` for `__aenter__`): where a context manager
    undoes what its entry did; None for any other function."""
    for enter, exit_ in (("__enter__", "__exit__"), ("__aenter__", "__aexit__")):
        if function and function.endswith(f".{enter}"):
            return function[: -len(enter)] + exit_
    return None


def _restores(module: PythonModule, redirect: StreamRedirect) -> bool:
    """The redirect sends the stream back to what it was: a name not bound to an opener (`saved =
    sys.stdout`, `sys.__stdout__`) or to a copy of a descriptor (`saved = os.dup(1)`)."""
    if redirect.call is not None:
        return False
    bound = _bound_calls(module, redirect.function, redirect.target)
    return all(module.qualified(b.callee) in DESCRIPTORS or b.callee.endswith(".fileno") for b in bound)


def _message(redirect: StreamRedirect, file: str, captured: bool) -> str:
    """What moves which stream where, who loses it, what to do; the capturing callers are the
    related locations."""
    how = f"`{redirect.api}`" if not redirect.api.endswith("=") else f"assigning `sys.{redirect.stream}`"
    quote = file[:1]
    if quote in ("'", '"') and len(file) > 1 and file.endswith(quote) and quote not in file[1:-1]:
        named = f"`{file[1:-1]}`"  # a plain literal: the path it names
    elif file == "a file":
        named = file
    else:
        named = f"the file `{file}`"  # an expression, as written
    who = "the caller capturing it" if captured else "a caller's `| tee` or terminal"
    return (
        f"{how} sends {redirect.stream} into {named} for good: {who} gets nothing more; keep "
        f"{redirect.stream} and add a `logging.FileHandler`"
    )


INVALID = [
    Example(  # a thread pool's worker shares the process's stdout, whoever holds the pool; so does a function the
        # program also calls itself after a process pool's submit
        {
            "grid.py": dedented(
                """
                import sys
                from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor


                def work(i):
                    sys.stdout = open(f"run{i}.log", "w")


                def both(i):
                    sys.stdout = open(f"both{i}.log", "w")


                if __name__ == "__main__":
                    with ThreadPoolExecutor(2) as ex:
                        ex.submit(work, 1)
                    ProcessPoolExecutor(2).submit(both, 2)
                    both(3)
                    print("done")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u grid.py 2>&1 | tee grid.log\n",
        },
        ["LL204 grid.py:6", "LL204 grid.py:10"],
    ),
    Example(  # the module's release, but a caller that never calls it: that caller's capture is for good
        {
            "runner.py": dedented(
                """
                import sys

                saved_out = sys.stdout


                def capture(path):
                    sys.stdout = open(path, "w")


                def release():
                    sys.stdout = saved_out


                def run_task(name):
                    capture(f"{name}.out")
                    print("working on", name)
                    release()


                def main():
                    capture("main.out")
                    print("training")
                """
            ),
            "run.sh": "set -o pipefail\npython runner.py | tee run.log\n",
        },
        ["LL204 runner.py:7"],
    ),
    Example(  # an `__exit__` that does not give the stream back: another file is no restore
        {
            "train.py": dedented(
                """
                import os
                import sys


                class Quiet:
                    def __enter__(self):
                        sys.stdout = open("episode.log", "w")

                    def __exit__(self, *exc):
                        sys.stdout = open(os.devnull, "w")


                with Quiet():
                    print("step")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u train.py 2>&1 | tee run.log\n",
        },
        ["LL204 train.py:7"],
    ),
    Example(  # the launcher pipes the trainer into tee; the trainer takes stdout for itself
        {
            "run.sh": "#!/bin/bash\npython train.py --epochs 3 2>&1 | tee logs/run.log\n",
            "train.py": dedented(
                """
                import sys

                log = open("logs/train.log", "a")
                sys.stdout = log
                sys.stderr = log
                print("epoch 1")
                """
            ),
        },
        ["LL204 train.py:4", "LL204 train.py:5"],
    ),
    Example(  # os.dup2 moves the file descriptors; redirect_stdout around the whole module's run
        {
            "tools/serve.py": dedented(
                """
                import contextlib
                import os
                import sys

                from tools.main import main

                fd = os.open("serve.log", os.O_WRONLY | os.O_CREAT)
                os.dup2(fd, 1)
                with open("errors.log", "w") as errors:
                    os.dup2(errors.fileno(), sys.stderr.fileno())
                with open("out.log", "w") as out, contextlib.redirect_stdout(out):
                    main()
                """
            ),
            "tools/main.py": "def main():\n    print('serving')\n",
        },
        ["LL204 tools/serve.py:8", "LL204 tools/serve.py:10", "LL204 tools/serve.py:11"],
    ),
    Example(  # a method keeps the file on self
        {
            "trainer.py": dedented(
                """
                import sys


                class Trainer:
                    def __init__(self, out_dir):
                        self.log_file = open(f"{out_dir}/stdout.txt", "w")
                        sys.stdout = self.log_file
                """
            )
        },
        ["LL204 trainer.py:7"],
    ),
    Example(  # both streams in one assignment; a file opened as a descriptor
        {
            "train.py": dedented(
                """
                import os
                import sys
                from pathlib import Path

                log = open("run.log", "w")
                sys.stdout, sys.stderr = log, log


                def to_file():
                    fd = os.open("train.out", os.O_WRONLY | os.O_CREAT)
                    sys.stdout = os.fdopen(fd, "w")


                def errors_to_file():
                    sys.stderr = os.fdopen(os.open("train.err", os.O_WRONLY | os.O_CREAT), "w")


                def to_path(out_dir):
                    sys.stdout = Path("train.log").open("w")
                    sys.stderr = (Path(out_dir) / "err.log").open("a")
                """
            )
        },
        [
            "LL204 train.py:6",
            "LL204 train.py:6",
            "LL204 train.py:11",
            "LL204 train.py:15",
            "LL204 train.py:19",
            "LL204 train.py:20",
        ],
    ),
    Example(  # a file, then /dev/null on the other ranks: rank 0 keeps the file; either arm's file
        {
            "train.py": dedented(
                """
                import os
                import sys

                sys.stdout = open("train.log", "w")
                if int(os.environ.get("RANK", 0)) != 0:
                    sys.stdout = open(os.devnull, "w")


                def setup(resume):
                    if resume:
                        sys.stderr = open("err.log", "a")
                    else:
                        sys.stderr = open("err.log", "w")
                """
            )
        },
        ["LL204 train.py:4", "LL204 train.py:11", "LL204 train.py:13"],
    ),
    Example(  # a thread's target; spawn's workers, which are the run; a process target called directly too
        {
            "train.py": dedented(
                """
                import os
                import sys
                import threading

                import torch.multiprocessing as mp

                log = open("train.log", "a")
                os.dup2(log.fileno(), 2)


                def tail(path):
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
                    os.dup2(fd, 1)


                def worker(rank, log_dir):
                    sys.stdout = open(f"{log_dir}/rank{rank}.log", "w")


                def serve(path):
                    sys.stderr = open(path, "a")


                def main(world_size):
                    threading.Thread(target=tail, args=("tail.log",)).start()
                    mp.spawn(worker, args=("logs",), nprocs=world_size)
                    if world_size > 1:
                        mp.Process(target=serve, args=("serve.err",)).start()
                    else:
                        serve("serve.err")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u train.py 2>&1 | tee run.log\n",
        },
        ["LL204 train.py:8", "LL204 train.py:13", "LL204 train.py:17", "LL204 train.py:21"],
    ),
    Example(  # Ray: a function an actor runs that the driver calls too, an actor's class the driver also makes
        # itself, a base class's `__init__` a plain subclass runs in the driver, a task's function called directly
        {
            "log.py": dedented(
                """
                import os
                import sys


                def to_file(path):
                    f = open(path, "a", buffering=1)
                    os.dup2(f.fileno(), sys.stdout.fileno())


                def quiet(path):
                    sys.stdout = open(path, "w")
                """
            ),
            "workers.py": dedented(
                """
                import sys

                import ray

                from log import quiet, to_file


                @ray.remote
                class Learner:
                    def __init__(self):
                        to_file("learner.log")


                class Critic:
                    def __init__(self):
                        quiet("critic.log")


                class Base:
                    def __init__(self):
                        sys.stderr = open("base.err", "a")


                class Policy(Base):
                    def __init__(self):
                        super().__init__()


                class Local(Base):
                    def __init__(self):
                        super().__init__()


                def evaluate(path):
                    sys.stderr = open(path, "a")


                CriticActor = ray.remote(Critic)
                PolicyActor = ray.remote(num_gpus=1)(Policy)
                evaluate_task = ray.remote(evaluate)
                """
            ),
            "train.py": dedented(
                """
                import ray

                from log import to_file
                from workers import Critic, CriticActor, Learner, Local, PolicyActor, evaluate, evaluate_task

                ray.init()
                learner, critic, policy = Learner.remote(), CriticActor.remote(), PolicyActor.remote()
                ray.get(evaluate_task.remote("eval.err"))
                to_file("driver.log")
                Critic()
                Local()
                evaluate("eval.err")
                print("step 1")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u train.py 2>&1 | tee run.log\n",
        },
        ["LL204 log.py:7", "LL204 log.py:11", "LL204 workers.py:21", "LL204 workers.py:35"],
    ),
    Example(  # an option on by default: a default file, `default=True`, `set_defaults`, a test None passes
        {
            "train.py": dedented(
                """
                import argparse
                import sys

                parser = argparse.ArgumentParser()
                parser.add_argument("--log_file", default="logs/train.log")
                parser.add_argument("--to_file", action="store_true", default=True)
                parser.add_argument("--err_file", action="store_true")
                parser.add_argument("--out", default=None)
                parser.set_defaults(err_file=True)
                args = parser.parse_args()
                if args.log_file:
                    sys.stdout = open(args.log_file, "w")
                if args.to_file:
                    sys.stdout = open("out.log", "w")
                if args.err_file:
                    sys.stderr = open("err.log", "w")
                if args.out != "":
                    sys.stdout = open(f"{args.out}.log", "w")
                """
            )
        },
        ["LL204 train.py:12", "LL204 train.py:14", "LL204 train.py:16", "LL204 train.py:18"],
    ),
    Example(  # an opt-in option that a launcher passes while it pipes the output, or may pass (`"$@"`)
        {
            "train.py": dedented(
                """
                import argparse
                import sys

                parser = argparse.ArgumentParser()
                parser.add_argument("--redirect", action="store_true")
                parser.add_argument("--errors", default=None)
                args = parser.parse_args()
                if args.redirect:
                    sys.stdout = open("train.log", "w")
                if args.errors is not None:
                    sys.stderr = open(args.errors, "w")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython train.py --redirect 2>&1 | tee run.log\n",
            "debug.sh": '#!/bin/bash\nset -o pipefail\npython train.py "$@" 2>&1 | tee debug.log\n',
        },
        ["LL204 train.py:9", "LL204 train.py:11"],
    ),
    Example(  # a test of something else: an environment variable, the rank, a local flag, an `or`
        {
            "train.py": dedented(
                """
                import argparse
                import os
                import sys

                parser = argparse.ArgumentParser()
                parser.add_argument("--quiet", action="store_true")
                args = parser.parse_args()
                debug = os.environ.get("DEBUG") == "1"
                if os.environ.get("LOG_TO_FILE"):
                    sys.stdout = open("env.log", "w")
                if int(os.environ.get("RANK", 0)) == 0:
                    sys.stdout = open("rank0.log", "w")
                if not debug:
                    sys.stderr = open("err.log", "w")
                if args.quiet or os.environ.get("CI"):
                    sys.stdout = open("quiet.log", "w")
                """
            )
        },
        ["LL204 train.py:10", "LL204 train.py:12", "LL204 train.py:14", "LL204 train.py:16"],
    ),
]

VALID = [
    Example(  # only when the user asks for it by name (torchmd-net's `--redirect`, Vision-RWKV's `--out FILE`)
        {
            "train.py": dedented(
                """
                import argparse
                import os
                import sys


                def get_parser():
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--log_dir", default="logs")
                    parser.add_argument("--redirect", type=bool, default=False)
                    return parser


                def get_args():
                    parser = get_parser()
                    args = parser.parse_args()
                    if args.redirect:
                        sys.stdout = open(os.path.join(args.log_dir, "log"), "w")
                        sys.stderr = sys.stdout
                    return args


                if __name__ == "__main__":
                    get_args()
                """
            ),
            "tools/flops.py": dedented(
                """
                import argparse
                import os
                import sys


                def parse_args():
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--out", type=str)
                    parser.add_argument("--errors", action="store_true")
                    parser.add_argument("--log", default="")
                    return parser.parse_args()


                def main():
                    args = parse_args()
                    if args.out is not None:
                        f = open(args.out, "w")
                        sys.stdout = f
                    if os.environ.get("RANK", "0") == "0" and args.errors:
                        sys.stderr = open("errors.log", "w")
                    elif args.log != "":
                        sys.stderr = open(args.log, "a")


                main()
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython train.py 2>&1 | tee run.log\npython tools/flops.py --out flops.txt\n",
        }
    ),
    Example(  # a capture that every caller in the module ends with the module's release (opencompass' task runner)
        {
            "runner.py": dedented(
                """
                import sys

                saved_out = sys.stdout


                def capture(path):
                    sys.stdout = open(path, "w")


                def release():
                    sys.stdout.close()
                    sys.stdout = saved_out


                def run_task(name):
                    capture(f"{name}.out")
                    try:
                        print("working on", name)
                    finally:
                        release()


                class Runner:
                    def __init__(self):
                        self.saved = sys.stdout

                    def capture(self, path):
                        sys.stdout = open(path, "w")

                    def release(self):
                        sys.stdout = self.saved

                    def run(self, name):
                        self.capture(name)
                        print(name)
                        self.release()
                """
            ),
            "run.sh": "set -o pipefail\npython runner.py | tee run.log\n",
        }
    ),
    Example(  # redirects in processes the program starts: their own logs (SkyRL's router and render server)
        {
            "serving.py": dedented(
                """
                import multiprocessing
                import os
                import sys
                from concurrent.futures import ProcessPoolExecutor
                from functools import partial

                import torch.multiprocessing as tmp


                def _route(log_file):
                    fd = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                    os.dup2(fd, sys.stdout.fileno())
                    os.dup2(fd, sys.stderr.fileno())


                def _to_file(path):
                    sys.stdout = open(path, "a")


                def _render(port, log_file):
                    _to_file(log_file)
                    print("rendering on", port)


                def _init_worker(log_dir):
                    sys.stderr = open(f"{log_dir}/worker.err", "a")


                def _init_loader(log_dir):
                    sys.stdout = open(f"{log_dir}/loader.out", "a")


                def _evaluate(path):
                    sys.stdout = open(path, "w")


                def start(log_dir):
                    multiprocessing.Process(target=_route, args=(f"{log_dir}/router.log",), daemon=True).start()
                    ctx = multiprocessing.get_context("spawn")
                    ctx.Process(target=_render, args=(8801, f"{log_dir}/render.log"), daemon=True).start()
                    tmp.Process(target=_evaluate, args=("eval.log",)).start()
                    loaders = multiprocessing.Pool(4, _init_loader, (log_dir,))
                    return loaders, ProcessPoolExecutor(4, initializer=partial(_init_worker, log_dir))


                if __name__ == "__main__":
                    start("logs")
                    print("training")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u serving.py 2>&1 | tee run.log\n",
        }
    ),
    Example(  # a function only a process pool's workers run, by `submit` or `map` (omnisafe's experiment grid)
        {
            "grid.py": dedented(
                """
                import multiprocessing as mp
                import sys
                from concurrent.futures import ProcessPoolExecutor


                def work(i):
                    sys.stdout = open(f"run{i}.log", "w")
                    print("training", i)


                def score(i):
                    sys.stderr = open(f"score{i}.err", "w")


                if __name__ == "__main__":
                    with ProcessPoolExecutor(2) as ex:
                        for i in range(4):
                            ex.submit(work, i)
                    ProcessPoolExecutor(2).submit(work, 9)
                    pool = mp.Pool(2)
                    pool.map(score, range(4))
                    print("done")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u grid.py 2>&1 | tee grid.log\n",
        }
    ),
    Example(  # what Ray actors and tasks run: the actor's process's streams (SkyRL's `redirect_actor_output_to_file`)
        {
            "log.py": dedented(
                """
                import os
                import sys


                def to_file(path):
                    f = open(path, "a", buffering=1)
                    os.dup2(f.fileno(), sys.stdout.fileno())
                    os.dup2(f.fileno(), sys.stderr.fileno())


                def quiet(path):
                    sys.stdout = open(path, "w")
                """
            ),
            "workers.py": dedented(
                """
                import sys

                import ray
                import ray as r
                from ray import remote

                from log import quiet, to_file


                @ray.remote(num_gpus=1)
                class Learner:
                    def __init__(self, log_file):
                        to_file(log_file)


                @remote
                class Rollout:
                    def __init__(self):
                        self.start("rollout.log")

                    def start(self, path):
                        quiet(path)


                class Base:
                    def __init__(self, log_file):
                        to_file(log_file)


                class Worker(Base):
                    def __init__(self, log_file):
                        super().__init__(log_file)


                class PolicyWorker(Worker):
                    def __init__(self, log_file):
                        super().__init__(log_file)


                class Critic:
                    def setup(self):
                        sys.stderr = open("critic.err", "a")


                def actor_of(cls, **options):
                    return ray.remote(**options)(cls)


                PolicyActor = r.remote(num_gpus=1)(PolicyWorker)
                CriticActor = actor_of(Critic, num_cpus=1)


                @ray.remote
                def evaluate(path):
                    quiet(path)


                def score(path):
                    sys.stderr = open(path, "a")


                score_task = ray.remote(score)
                """
            ),
            "train.py": dedented(
                """
                import ray

                from workers import CriticActor, Learner, PolicyActor, Rollout, evaluate, score_task

                ray.init()
                learner = Learner.remote("learner.log")
                rollout = Rollout.options(num_cpus=2).remote()
                policy = PolicyActor.remote("policy.log")
                critic = CriticActor.remote()
                ray.get([critic.setup.remote(), evaluate.remote("eval.log"), score_task.remote("score.err")])
                print("step 1", flush=True)
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u train.py 2>&1 | tee run.log\n",
        }
    ),
    Example(  # a context manager whose `__exit__` gives back what its `__enter__` took (AgentTuning's)
        {
            "train.py": dedented(
                """
                import sys


                class EpisodeLog:
                    def __init__(self, path):
                        self.path = path

                    def __enter__(self):
                        self.saved, self.file = sys.stdout, open(self.path, "w")
                        sys.stdout = self.file

                    def __exit__(self, *exc):
                        sys.stdout = self.saved
                        self.file.close()


                with EpisodeLog("episode.log"):
                    print("step")
                """
            ),
            "run.sh": "#!/bin/bash\nset -o pipefail\npython -u train.py 2>&1 | tee run.log\n",
        }
    ),
    Example(  # a Tee that also writes to the terminal, a temporary capture, silenced ranks
        {
            "train.py": dedented(
                """
                import contextlib
                import io
                import os
                import sys


                class Tee:
                    def __init__(self, path):
                        self.terminal, self.file = sys.stdout, open(path, "a")

                    def write(self, text):
                        self.terminal.write(text)
                        self.file.write(text)


                def summary(model):
                    saved = sys.stdout
                    sys.stdout = open("summary.txt", "w")
                    print(model)
                    sys.stdout = saved


                def quiet(fn):
                    with contextlib.redirect_stdout(open("quiet.log", "w")):
                        fn()


                def capture(fn):
                    saved = os.dup(1)
                    os.dup2(open("cap.log", "w").fileno(), 1)
                    fn()
                    os.dup2(saved, 1)


                sys.stdout = Tee("train.log")
                if int(os.environ.get("RANK", 0)) != 0:
                    sys.stdout = open(os.devnull, "w")
                with contextlib.redirect_stderr(io.StringIO()):
                    pass
                """
            )
        }
    ),
    Example(  # a stream rewrapped on the descriptor it already writes to (after a dup2 of devnull)
        {
            "worker.py": dedented(
                """
                import os
                import sys
                from pathlib import Path


                def silence_rank(rank):
                    devnull = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(devnull, 1)
                    sys.stdout = open(1, "w", closefd=False)
                    sys.stderr = os.fdopen(sys.stderr.fileno(), "w", buffering=1)


                def line_buffered():
                    sys.stdout = open(sys.stdout.fileno(), "w", buffering=1)


                def line_buffered_stderr(fd=None):
                    copy = sys.stderr.fileno()
                    sys.stderr = open(copy, "w", buffering=1)
                    if fd is not None:
                        sys.stdout = os.fdopen(fd, "w", 1)


                def reopened():
                    sys.stdout = os.fdopen(os.dup(1), "w", 1)
                    sys.stderr = open("/dev/stderr", "w", buffering=1)


                def quiet():
                    sys.stdout = Path(os.devnull).open("w")
                """
            )
        }
    ),
]
