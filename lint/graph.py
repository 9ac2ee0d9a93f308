"""Who launches whom: an `Invocation` per command that runs a project file.

The edge keeps the calling command, so a rule can ask where the callee's output goes
(`invocation.command.stdout`), whether it runs detached or remotely, and with which flags.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property

from .discover import CI_DIRECTORIES, OTHER_SHELL_EXTENSIONS, OTHER_SHELLS, kind_by_name
from .lazyre import lazy
from .model import Location, Record, Related
from .paths import ends_in, is_url, joined, may_name, written_tail
from .replay import ROOT_MARKERS
from .shellfacts import (
    FILE,
    INHERIT,
    PIPE,
    PROCSUB,
    SOURCERS,
    Command,
    ShellArgs,
    Sink,
    Word,
    shell_args,
    split_fields,
    splits_as_written,
)

PYTHONS = ("python", "python3", "python2")
# csh, tcsh and fish run a script too (`csh job.csh`: LL303 when it is missing), though launchlint
# does not read one (`discover.other_shell`); their options are read as bash's (`-c` a string).
SHELL_RUNNERS = {"bash", "sh", "zsh", "dash", "ksh", "source", ".", *OTHER_SHELLS}
DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})
PYTHON_VALUED = {"-W", "-X", "-c", "-m", "-Q"}
EXITING_OPTIONS = {"-V", "-VV", "--version", "-h", "--help", "-?"}  # the interpreter answers and exits
# Launchers of a Python program, and their options that take a value.
TORCHRUN_OPTIONS = {
    "--nproc_per_node", "--nproc-per-node", "--nnodes", "--node_rank", "--node-rank", "--master_addr",
    "--master-addr", "--master_port", "--master-port", "--rdzv_backend", "--rdzv-backend", "--rdzv_endpoint",
    "--rdzv-endpoint", "--rdzv_id", "--rdzv-id", "--rdzv_conf", "--max_restarts", "--max-restarts",
    "--monitor_interval", "--log_dir", "--log-dir", "--redirects", "--tee", "--role", "--local_addr",
    "--start_method", "--local-ranks-filter", "--local_ranks_filter", "--logs-specs", "--logs_specs", "-r", "-t",
}  # fmt: skip
PY_LAUNCHERS = {
    "torchrun": TORCHRUN_OPTIONS,
    # nvidia-resiliency-ext's `ft_launcher` (fault_tolerance/launcher.py): torchrun's options, and its
    # own; its --ft-* options all take a value but --ft-ignore-missing-cfg (LAUNCHER_FLAGS)
    "ft_launcher": {*TORCHRUN_OPTIONS, "--term-timeout", "--term_timeout", "--workers-stop-timeout",
                    "--workers_stop_timeout", "--ft-cfg-path", "--ft-cfg_path"},
    "accelerate": {"--config_file", "--num_processes", "--num_machines", "--machine_rank",
                   "--main_process_ip", "--main_process_port", "--mixed_precision", "--gpu_ids",
                   "--deepspeed_config_file", "--dynamo_backend", "--num_cpu_threads_per_process",
                   "--zero_stage", "--gradient_accumulation_steps", "--rdzv_backend"},
    "deepspeed": {"--num_gpus", "--num_nodes", "--hostfile", "--include", "--exclude",
                  "--master_port", "--master_addr", "--launcher", "--node_rank", "--launcher_args",
                  "--ssh_port", "--bind_core_list", "--autotuning", "-H", "-i", "-e"},
    # `colossalai run` (colossalai/cli/launcher): torchrun on each host, in this directory, with
    # this environment; `--master_port` 29500 unless given
    "colossalai": {"-host", "--host", "--hostfile", "--include", "--exclude", "--num_nodes", "--nproc_per_node",
                   "--master_port", "--master_addr", "--extra_launch_args", "--ssh-port"},
    # MindSpore's `msrun` (mindspore/parallel/cluster/run.py): every option takes a value (`--join
    # True`), then the script and its arguments (REMAINDER); `--master_port` 8118 unless given
    "msrun": {"--worker_num", "--local_worker_num", "--master_addr", "--master_port", "--node_rank", "--log_dir",
              "--join", "--cluster_time_out", "--bind_core", "--sim_level", "--sim_rank_id", "--rank_table_file",
              "--worker_log_name", "--tail_worker_log"},
    # MosaicML's launcher (composer/cli/launcher.py); `-c`/`--command_mode` runs any command
    "composer": {"-n", "--nproc", "--world_size", "--base_rank", "--node_rank", "--local_world_size",
                 "--master_addr", "--master_port", "--stdout", "--stderr"},
}
# Launchers that run a program in one subcommand only (`accelerate config`, `env`, `test` run none).
LAUNCHER_SUBCOMMANDS = {"accelerate": "launch", "colossalai": "run"}
# `torchrun -m pkg.train`, `accelerate launch -m`, `deepspeed --module`: the program is a module.
# The launcher's options that make its program no Python: `--no_python`, composer's `-c`.
NOT_PYTHON = frozenset({"no_python", "c", "command_mode"})
MODULE_FLAGS = {"-m", "--module"}
# `python -m torch.distributed.run [its options] x.py` is torchrun.
# Launchers spelled as modules: `python -m torch.distributed.run` is torchrun
LAUNCHER_MODULES = {
    "torch.distributed.run": "torchrun", "torch.distributed.launch": "torchrun",
    "accelerate.commands.launch": "accelerate", "deepspeed.launcher.runner": "deepspeed",
    # ATorch's (MFTCoder's launcher): torch.distributed.launch's fork, `--local_rank` only when told
    # `--not_use_env` (launches.flags_added); its own options take values as torchrun's do
    "atorch.distributed.launch": "torchrun",
}  # fmt: skip
# Debuggers, profilers and runners run as modules, and their options that take a value: `python -m
# debugpy --listen 5678 --wait-for-client train.py --lr 1` runs train.py with its arguments, as
# `python train.py --lr 1` does (bayesian-laplace's scripts), and so do pdb, ipdb, pudb, cProfile
# and mpi4py's runner (`mpirun -n 4 python -m mpi4py train.py`, miles-credit's jobs: helper-316).
DEBUGGER_MODULES = {
    "debugpy": frozenset({"--listen", "--connect", "--log-to", "--pid"}), "pdb": frozenset({"-c", "--command"}),
    "ipdb": frozenset({"-c", "--command"}), "pudb": frozenset(), "cProfile": frozenset({"-o", "--outfile", "-s", "--sort"}),
    "profile": frozenset({"-o", "--outfile", "-s", "--sort"}), "mpi4py": frozenset({"-rc"}),
}  # fmt: skip
DEBUGGER_FLAGS = frozenset({"--wait-for-client", "--log-to-stderr", "--no-debug"})
# Commands whose output is the job's: what a caller's `| tee` is there to capture. The parallel
# launchers among them are those front/wrappers.py's LAUNCHERS reads (flux is more than `flux run`).
LONG_RUNNING = {
    *PYTHONS, "torchrun", "ft_launcher", "accelerate", "deepspeed", "colossalai", "msrun",
    "srun", "mpirun", "mpiexec", "mpiexec.hydra", "horovodrun", "aprun", "jsrun", "lrun", "ibrun",
}  # fmt: skip
# The schedulers' commands that queue a job script: SLURM's, PBS's (`qsub job.pbs`), LSF's (`bsub <
# job.lsf`). Each returns once the job is queued, printing its id.
SUBMITTERS = frozenset({"sbatch", "qsub", "bsub"})
# Their options that run the job in this terminal instead (`qsub -I`, `bsub -Is bash`): its
# output is then this command's (sbatch's `-I` is `--immediate`)
INTERACTIVE = {"sbatch": frozenset(), "qsub": frozenset({"-I"}), "bsub": frozenset({"-I", "-Ip", "-Is", "-IS", "-ISp", "-ISs", "-IX"})}


def submits_job(command: Command) -> bool:
    """`sbatch job.sh` (also `sbatch < job.sh`), `qsub job.pbs`, `bsub < job.lsf` (`bsub CMD`): it
    queues a job and returns, printing the job's id; the job runs later, its output in the file
    its scheduler opens (`#SBATCH --output`, slurm-%j.out, `#PBS -o`, `#BSUB -o`), never in this
    command's stdout; not an interactive job (`qsub -I`). (`sbatch --wrap CMD` and `bsub CMD` are
    wrappers: the commands of their string write to a `SUBMITTED` sink.)"""
    return command.name in SUBMITTERS and INTERACTIVE[command.name].isdisjoint(_job_options(command))


# setuptools' commands of `python setup.py COMMAND`: a package build, as `pip install .` is.
SETUP_COMMANDS = frozenset({"build", "build_ext", "build_py", "install", "develop", "bdist_wheel", "bdist_egg", "sdist", "egg_info", "clean"})


def runs_setuptools(script: Word, args: Sequence[Word]) -> bool:
    """`python setup.py install` (build, build_ext, develop, bdist_wheel, clean ...): setuptools'
    own idiom, a command run on the package whose `setup.py` it names. `script` is the program
    Python runs, `args` its arguments."""
    name = script.value
    return name is not None and name.rpartition("/")[2] == "setup.py" and any(a.value in SETUP_COMMANDS for a in args[:1])


def is_python(name: str | None) -> bool:
    """`python`, `python3`, `python2` and a version's (`python3.11`, `python2.7`: crosentgec's)."""
    return bool(name) and (name in PYTHONS or (name.startswith(("python3.", "python2.")) and name[8:].isdigit()))


class PythonRun(Record):
    """`python [options] script ...` or `python [options] -m module ...`."""

    options: tuple[str, ...]  # the interpreter's own options, as written
    kind: str  # "script" | "module" | "stdin"
    target: Word
    args: tuple[Word, ...] = ()  # the program's arguments

    @property
    def unbuffered(self) -> bool:
        """`-u`, alone or in a cluster (`-Bu`); a valued option's letter ends the cluster."""
        for option in self.options:
            if option.startswith("--") or not option.startswith("-"):
                continue
            for letter in option[1:]:
                if letter == "u":
                    return True
                if "-" + letter in PYTHON_VALUED:
                    break
        return False


# Tools that are commands of their own and modules alike: `python -m pip list` is `pip list`;
# `python -m ruff` replaces the interpreter with ruff's own binary (`os.execvp`).
TOOL_MODULES = frozenset({"pip", "uv", "conda", "coverage", "ruff"})


def as_tool(command: Command, run: PythonRun | None) -> tuple[str | None, Sequence[Word]]:
    """The command's name and arguments, a tool run as a module (`run` its python_run) read as
    the tool: `python3 -m pip list` is ("pip", `list`), `python train.py` ("python", ...)."""
    if run is not None and run.kind == "module" and run.target.value in TOOL_MODULES:
        return run.target.value, run.args
    return command.name, command.args


def coverage_subcommand(command: Command, run: PythonRun | None) -> str | None:
    """What `coverage SUB ...` or `python -m coverage SUB ...` (`run` its python_run) does:
    `run`, which runs a program and exits with its status, `report`, ... ("" with none); None
    for any other command."""
    name, args = as_tool(command, run)
    if name != "coverage":
        return None
    return (args[0].value or "") if args else ""


def python_run(command: Command, *, stdin: bool = False) -> PythonRun | None:
    """What a python command runs; None for `-c CODE`, `--version`, or not python. A program on
    standard input (`python - <<'PY'`, `curl ... | python3 -`, a bare `python`) is a run of kind
    "stdin" when asked for (a process whose output and status count), else None: it has no file."""
    return _python_words(command.words, stdin) if is_python(command.name) else None


def _python_words(command: list[Word], stdin: bool) -> PythonRun | None:
    """`python_run` of a command's words, the interpreter first."""
    words = command[1:]
    i = 0
    while i < len(words):
        value = words[i].value
        if value is None or not value.startswith("-") or value == "-":
            break
        # A cluster's first valued letter takes the rest of the word, else the next word:
        # `-m pkg`, `-msphinx`, `-um pkg`, `-Werror`, `-X dev`.
        at = next((j for j, letter in enumerate(value[1:], 1) if "-" + letter in PYTHON_VALUED), None)
        if at is not None and not value.startswith("--"):
            attached = at + 1 < len(value)
            if value[at] == "c":
                return None
            if value[at] == "m":
                options = tuple(w.value or "" for w in words[:i]) + ((value[:at],) if at > 1 else ())
                if attached:
                    return PythonRun(options, "module", value_part(words[i], at + 1), tuple(words[i + 1 :]))
                if i + 1 == len(words):
                    return None
                return PythonRun(options, "module", words[i + 1], tuple(words[i + 2 :]))
            i += 0 if attached else 1
        i += 1
    if i >= len(words) or words[i].value == "-":  # `python -W` ends the command: the option's value missing
        options = tuple(w.value or "" for w in words[:i])
        if not stdin or any(o in EXITING_OPTIONS for o in options):
            return None
        return PythonRun(options, "stdin", words[i] if i < len(words) else command[0], tuple(words[i + 1 :]))
    return PythonRun(tuple(w.value or "" for w in words[:i]), "script", words[i], tuple(words[i + 1 :]))


def is_long_running(command: Command) -> bool:
    return is_python(command.name) or command.name in LONG_RUNNING


class Invocation:
    def __init__(
        self,
        caller: str,
        command: Command,
        kind: str,
        target: Word,
        callee: str | None,
        args: list[Word] | None = None,
        run: Command | None = None,
        function: str | None = None,
    ) -> None:
        self.caller = caller  # the file holding the command
        self.command = command
        self.kind = kind  # shell | python | module | sbatch | console (a console script of the project's: `function` of `callee`)
        self.function = function
        self.target = target  # the script as written
        self.callee = callee  # the project file it resolves to
        self.args = [] if args is None else args
        # The command as it runs the script: `command` itself, or one time round a `for` loop
        # whose variable its words expand (`for s in prep.py train.py; do python "$s"`), its words
        # then the values (`variants`): one invocation for each word of the loop's list.
        self.run = command if run is None else run

    @property
    def looped(self) -> bool:
        """The command runs it one time round a loop: `target` may be a word of the loop's list,
        located there."""
        return self.run is not self.command

    @property
    def captures_output(self) -> bool:
        """The caller sends the callee's stdout into a pipe or a file (a log it expects)."""
        return captures(self.command.stdout)

    @property
    def merges_stderr(self) -> bool:
        return self.command.stderr is self.command.stdout or self.command.stderr == self.command.stdout

    def capture_location(self):
        """Where the caller captures the output: the tee command or the redirect."""
        sink = self.command.stdout
        if sink.kind == PIPE and sink.reader is not None:
            return sink.reader.location
        return sink.location or self.command.location

    def capture_note(self) -> Related:
        """A related location for a finding in the callee: "the caller captures it here"."""
        return Related(self.capture_location(), f"{self.caller} captures {self.callee}'s output here")


def captures(sink: Sink) -> bool:
    return sink.kind in (PIPE, FILE, PROCSUB)


def shell_script_word(command: Command) -> tuple[Word, list[Word]] | None:
    """The script a shell (`bash x.sh a b`) or `source` runs and its arguments, its path known here
    or not; None for a command string (`bash -c`), commands on stdin (`bash -s`, a bare `bash`)."""
    words = command.words
    args = shell_args([w.value for w in words[1:]]) if command.name not in SOURCERS else ShellArgs(0, False, False)
    if args.command_string or args.operand is None or args.operand + 1 >= len(words):
        return None
    return words[args.operand + 1], words[args.operand + 2 :]


def script_of(command: Command) -> tuple[str, Word, list[Word]] | None:
    """(kind, script word, its arguments) when the command runs a script file."""
    name, words = command.name, command.words
    if name is None:  # run by a path from its own directory: `"$(dirname "$0")/train.sh"`, `$DIR/run.sh`
        return _run_by_path(words) or _unknown_interpreter(words)
    if name in SHELL_RUNNERS:
        found = shell_script_word(command)
        if found is None:
            return None
        script, rest = found
        return ("shell", script, rest) if script.value is not None or _own(script) else None
    if name in SUBMITTERS:
        return _job_script(command)
    if is_python(name):
        return _python_script(python_run(command))
    if name in PY_LAUNCHERS:
        after = launcher_words(command)
        return launched_program(name, after) if after is not None else None
    return _run_by_path(words)


_PYTHON_OPTION = re.compile(r"-[bBdEiIOPqsSuv]*(?:[WX].*)?|-[bBdEiIOPqsSuvWX]+|[^-].*")  # `-u`, `-Bu`, `-W`, `-Wignore`, a `-W`'s value
_ONE_VARIABLE = re.compile(r"\$(?:\{?[A-Za-z_]\w*\}?|\{?[0-9]\}?)")  # `$PYTHON`, `${PY}`, `$1`


def _python_script(run: PythonRun | None) -> tuple[str, Word, list[Word]] | None:
    """`script_of` a python command's run: its script, its module, or what the launcher or
    debugger it runs as a module runs."""
    if run is None or not (run.target.value if run.kind == "module" else _written(run.target)):
        return None
    if run.kind == "module":  # `python -m pkg.train`, or a launcher spelled as a module
        launcher = LAUNCHER_MODULES.get(run.target.value)
        if launcher:
            return launched_program(launcher, list(run.args))
        if run.target.value in DEBUGGER_MODULES:
            return _debugged(DEBUGGER_MODULES[run.target.value], list(run.args))
        return "module", run.target, list(run.args)
    return "python", run.target, list(run.args)


def _unknown_interpreter(words: list[Word]) -> tuple[str, Word, list[Word]] | None:
    """`$PYTHON tools/train.py --lr 1` with PYTHON not known here (`pythonExec=$1`, `$(which
    python3)`): a variable's command whose first word is a Python file of a static path runs it,
    as an interpreter or a launcher does, with the words after it (TorchAL's launcher, helper-333);
    after python's own options, as python runs it (`$PYTHON -u tools/test.py`, `$PYTHON -m
    torch.distributed.launch ... x.py`: Pointcept's, helper-398)."""
    if len(words) < 2 or words[0].value is not None or not _ONE_VARIABLE.fullmatch(words[0].template):
        return None
    program = words[1].value or ""
    if program.startswith("-") and program != "-":  # python's options only: `$LAUNCHER --num_gpus 2 x.py` is not one
        run = _python_words(words, False)
        if run is None or not all(map(_PYTHON_OPTION.fullmatch, run.options)):
            return None
        return _python_script(run) if run.kind == "module" or (run.target.value or "").endswith(".py") else None
    return ("python", words[1], words[2:]) if program.endswith(".py") else None


def runs_by_variable(command: Command) -> bool:
    """A variable's command not known here runs a Python file (`$pythonExec train.py`,
    `_unknown_interpreter`): a job, an interpreter's or a launcher's, that keeps no output of its
    own (LL105's and LL107's)."""
    return command.name is None and _unknown_interpreter(command.words) is not None


def _debugged(valued: frozenset[str], words: list[Word]) -> tuple[str, Word, list[Word]] | None:
    """The program a debugger or profiler module runs (`DEBUGGER_MODULES`): after its options,
    a script, or `-m` and a module; None when a word is not known or an option is not its."""
    i = 0
    while i < len(words):
        text = words[i].value
        if text is None:
            return None
        if text == "-m":
            return ("module", words[i + 1], words[i + 2 :]) if i + 1 < len(words) and words[i + 1].value else None
        if not text.startswith("-"):
            kind = _python_kind(text)
            return (kind, words[i], words[i + 1 :]) if kind else None
        name = text.partition("=")[0]
        if name in DEBUGGER_FLAGS or "=" in text:
            i += 1
        elif name in valued or name.startswith("--configure-"):  # debugpy's `--configure-subProcess false`
            i += 2
        else:
            return None
    return None


def launcher_words(command: Command) -> list[Word] | None:
    """The words after a launcher's name, and after its subcommand (`accelerate launch`,
    `colossalai run`); None for a subcommand that runs no program (`accelerate config`)."""
    sub = LAUNCHER_SUBCOMMANDS.get(command.name)
    if sub is None:
        return command.words[1:]
    return command.words[2:] if command.words[1:2] and command.words[1].value == sub else None


def _run_by_path(words: list[Word]) -> tuple[str, Word, list[Word]] | None:
    """A script run as the command itself, by a path (`./run.sh`, `tools/train.py`), its kind by
    its name as discovery reads it; a path with no extension (`./train`) is an "executable", run
    by its `#!` line: the launch graph keeps it when the file it names is one the project reads
    as Python or shell (discover: by that line)."""
    first = _written(words[0])
    if "/" not in first:
        return None
    kind = "shell" if kind_by_name(first) == "shell" or first.lower().endswith(OTHER_SHELL_EXTENSIONS) else _python_kind(first)
    if kind == "program":
        kind = "executable"
    return (kind, words[0], words[1:]) if kind else None


# The kinds of file a path with no extension may name, by who runs it: python runs a launcher's
# program (`torchrun train`) whatever its `#!` line says; the kernel runs `./train` by that line.
RUN_BY_SHEBANG = {"program": frozenset({"python"}), "executable": frozenset({"python", "shell"})}


def _python_kind(written: str) -> str | None:
    """How a program path that python may run is launched: "python" for `x.py`, "program" for a
    name with no extension (`train`), Python when its `#!` line says so (the graph keeps only
    those), None for another extension."""
    if written.endswith(".py"):
        return "python"
    return "program" if "." not in posixpath.basename(written) else None


def launched_program(launcher: str, words: list[Word]) -> tuple[str, Word, list[Word]] | None:
    """("python", x.py, its arguments), ("program", train, ...) or ("module", pkg.train, ...)
    after a launcher's own options; None when the program is not static or not Python
    (composer's `-c`). `torchrun --no-python ./run.sh` runs its program itself, as the command
    `./run.sh` would be run: by a path, a script of the project (a name is looked up in PATH)."""
    args = launcher_args(launcher, words)
    program = args.program
    written = "" if program is None else _written(program)
    if written and "no_python" in args.options:
        return _run_by_path([program, *args.rest])
    if not written or not args.options.keys().isdisjoint(NOT_PYTHON):
        return None
    if args.module:
        return "module", program, args.rest
    kind = _python_kind(written)  # `torchrun train`: python runs it, a Python file by its shebang
    return (kind, program, args.rest) if kind else None


def _names(options: set[str]) -> frozenset[str]:
    """`--nproc-per-node` and `--nproc_per_node` are one option: `nproc_per_node`."""
    return frozenset(option.lstrip("-").replace("-", "_") for option in options)


VALUED = {launcher: _names(options) for launcher, options in PY_LAUNCHERS.items()}
# Never take a value: `accelerate launch --multi_gpu $SCRIPT` runs $SCRIPT.
LAUNCHER_FLAGS = _names(
    {"--no_python", "--no-python", "--standalone", "--cpu", "--multi_gpu", "--tpu", "--use_deepspeed", "--use_fsdp",
     "--use_megatron_lm", "--run-path", "--run_path", "--ft-ignore-missing-cfg", "--use_env", "--use-env",
     "--not_use_env", "--use_elastic_dataloader"}
)  # fmt: skip


class LauncherArgs(Record):
    """A launcher's own options (the words before its program) and the program: the one reader
    of launcher command lines, for the graph's edges and the launch rules alike."""

    options: dict[str, Word]  # `nproc_per_node` -> the value's word; a flag -> an empty Word
    spelled: dict[str, str]  # name -> the option as written (`--nproc-per-node`)
    program: Word | None  # the script, or the module after `-m`
    rest: list[Word]  # the program's arguments
    module: bool


def launcher_args(launcher: str, words: list[Word]) -> LauncherArgs:
    """Options up to the program. An option not in the table takes the next word as its value
    unless that word is an option or the program (`x.py`): launchers' option lists grow faster
    than ours. An unknown word (`$ARGS`) where an option could be stands as the program.

    torchrun, deepspeed and accelerate read the program's arguments with argparse's REMAINDER,
    which drops a `--` that comes first (`torchrun -m pkg -- -i sft` gives the program `-i
    sft`), as it drops one before the program: the program never sees it."""
    words = _split(words)
    options: dict[str, Word] = {}
    spelled: dict[str, str] = {}
    i = 0
    while i < len(words):
        text = words[i].template
        if text == "--":
            return LauncherArgs(options, spelled, *_after_dashes(words[i + 1 :]), False)
        if not text.startswith("-") or text == "-":
            program, rest = _after_dashes(words[i:])
            if launcher in INTERSPERSED:
                rest = _own_options_after(launcher, rest, options, spelled)
            return LauncherArgs(options, spelled, program, rest, False)
        if text in MODULE_FLAGS:
            return LauncherArgs(options, spelled, *_after_dashes(words[i + 1 :]), True)
        i = _read_option(launcher, words, i, options, spelled)
    return LauncherArgs(options, spelled, None, [], False)


# Launchers whose parser (click's, which intersperses options and arguments) reads their own options
# after the program too, up to a `--`: `colossalai run --nproc_per_node 8 train.py --master_port
# 20024 --lr 1` gives train.py `--lr 1` alone (ColossalAI's roberta pretraining scripts).
INTERSPERSED = frozenset({"colossalai"})


def _read_option(launcher: str, words: list[Word], i: int, options: dict[str, Word], spelled: dict[str, str]) -> int:
    """Read the option at `words[i]`, and its value, into `options`; the index of the word after them."""
    text = words[i].template
    option, equals, value = text.partition("=")
    name = option.lstrip("-").replace("-", "_")
    spelled[name] = option
    following = words[i + 1] if i + 1 < len(words) else None
    if equals:
        options[name] = value_part(words[i], len(text) - len(value))
    elif following is not None and _takes_value(launcher, name, following):
        options[name] = following
        i += 1
    else:
        options[name] = Word("", "", words[i].location)
    return i + 1


def _own_options_after(launcher: str, rest: list[Word], options: dict[str, Word], spelled: dict[str, str]) -> list[Word]:
    """The program's arguments without the launcher's own options among them (INTERSPERSED),
    which are read into `options`; a `--` ends them, and is dropped, as click drops it."""
    kept: list[Word] = []
    i = 0
    while i < len(rest):
        text = rest[i].template
        if text == "--":
            return kept + rest[i + 1 :]
        if text.startswith("-") and text.partition("=")[0].lstrip("-").replace("-", "_") in VALUED[launcher]:
            i = _read_option(launcher, rest, i, options, spelled)
        else:
            kept.append(rest[i])
            i += 1
    return kept


def _after_dashes(words: list[Word]) -> tuple[Word | None, list[Word]]:
    """The program and its arguments, without a `--` the launcher's REMAINDER drops."""
    if not words:
        return None, []
    rest = words[1:]
    return words[0], rest[1:] if rest and rest[0].value == "--" else rest


def _split(words: list[Word]) -> list[Word]:
    """`torchrun "$DISTRIBUTED_ARGS" x.py`: a variable holding options, split as if unquoted
    (the shell front end splits an unquoted one; a quoted one is most often a slip, read kindly);
    the pieces are located at the variable. One loop, not a call a word: a launcher's
    words are mostly its program's arguments (-30 M instructions of 520 on the 1,000-file benchmark)."""
    pieces = []
    for word in words:
        value = word.value
        if value is None:  # partly unknown: `DIST=" --nproc_per_node 4 --nnodes $NODES"`, as written
            template = word.template
            splits = template.lstrip().startswith("-") and splits_as_written(template) and not _valued_as_written(word)
        else:
            splits = value.lstrip().startswith("-") and len(value.split()) > 1 and not _valued_as_written(word)
        if splits:
            pieces += split_fields(word)
        else:
            pieces.append(word)
    return pieces


def _valued_as_written(word: Word) -> bool:
    """`--prompt="$PROMPT"`, `--prompt="a photo of sks"`: an option the file spells out with its
    value attached, a value with spaces the quotes keep one argument (the characters up to the `=`
    are the file's own, not an expansion's, as they are in `"$DIST_ARGS"`)."""
    text, origin = word.template if word.value is None else word.value, word.origin
    cut = text.find("=")
    return cut > 0 and len(origin) > cut and not any(c.isspace() for c in text[:cut]) and origin[cut] - origin[0] == cut


def _takes_value(launcher: str, name: str, following: Word) -> bool:
    if name in VALUED[launcher]:
        return True
    text = following.template
    return name not in LAUNCHER_FLAGS and not (text.startswith("-") or text.endswith(".py"))


def value_part(word: Word, cut: int, stop: int | None = None) -> Word:
    """The `x` of `--opt=x` (unknown when x is), located on its own characters when it can be;
    with `stop`, only its characters before that (a static word's: `configs/vit.py` of
    `configs/vit.py:runlocal`)."""
    template = word.template[cut:stop]
    value = word.value[cut:stop] if word.value is not None else None
    origin = word.origin[cut:stop]
    location = word.location
    n = len(template)
    # Not inside a variable's value, whose characters all stand at its expansion (`$CMD`)
    written = len(origin) >= n and (not n or origin[n - 1] - origin[0] == n - 1)
    if origin and len(word.origin) > cut and location.line == location.end_line and written:
        start = location.column + (origin[0] - word.origin[0])
        location = Location(location.path, location.line, start, location.line, start + len(template))
    return Word(value, template, location, origin)


# The options of the schedulers' submit commands that take no value; every other option takes one.
# sbatch's and PBS qsub's (PBS Pro's and OpenPBS's qsub(1B), Torque's qsub: `-l select=2`, `-v
# VAR=1`, `-W block=true`, `-joe`) take it in their word (`-N1`, `--nodes=2`) or the next (`-N 1`,
# `--job-name train`). LSF bsub's options are words of their own, several letters long (`-gpu
# num=2`, `-app`, `-cwd`, `-nnodes`), their value in the next word.
SBATCH_FLAGS = {
    "-h", "-H", "-I", "-k", "-O", "-Q", "-s", "-v", "-V", "-W", "--contiguous", "--exclusive", "--help",
    "--hold", "--ignore-pbs", "--no-kill", "--no-requeue", "--overcommit", "--oversubscribe", "--parsable",
    "--quiet", "--reboot", "--requeue", "--spread-job", "--test-only", "--usage", "--use-min-nodes",
    "--verbose", "--version", "--wait", "--get-user-env",
}  # fmt: skip
QSUB_FLAGS = {"-f", "-G", "-h", "-I", "-n", "-V", "-x", "-X", "-z", "--version"}  # Torque's `-F "ARGS"` takes one
BSUB_FLAGS = {
    "-ar", "-B", "-datachk", "-H", "-h", "-hl", "-I", "-Ip", "-Is", "-IS", "-ISp", "-ISs", "-IX", "-K", "-N", "-Ne",
    "-r", "-rn", "-ti", "-tty", "-ul", "-V", "-x", "-XF", "-Zs",
}  # fmt: skip
JOB_FLAGS = {"sbatch": SBATCH_FLAGS, "qsub": QSUB_FLAGS, "bsub": BSUB_FLAGS}


def job_operands(name: str, words: list[Word]) -> list[Word]:
    """The words after a submit command's leading options and their values (`sbatch --exclusive
    -N 2 --job-name train job.sh`, `qsub -l select=2 -A proj job.pbs`: `job.sh`, `job.pbs`; bsub's
    command), from a `--` on (`qsub -- CMD`). An option whose attached value is not static is still
    one word (`--dependency=afterok:$JID`, `-J$NAME`); a word not static otherwise ends them."""
    flags, i = JOB_FLAGS[name], 0
    while i < len(words) and (value := _option_text(words[i])) is not None and value.startswith("-") and value not in ("-", "--"):
        attached = "=" in value if value.startswith("--") else len(value) > 2 and name != "bsub"
        i += 1 if attached or value in flags else 2
    return words[i:]


def _job_script(command: Command) -> tuple[str, Word, list[Word]] | None:
    """The job script a submit command queues: its operand (`sbatch job.sh`, `qsub -v LR=1
    job.pbs`), else the file on its standard input (`bsub < job.lsf`). bsub's operand is a command
    (a shell runs it): a script only when run by its path (`bsub ./job.lsf`), and not from another
    directory (`-cwd`); not an interactive PBS job (`qsub -I`), nor `qsub -- CMD`."""
    name, words = command.name, command.words[1:]
    rest = job_operands(name, words)
    options = _job_options(command)
    if rest and rest[0].value == "--" or name == "qsub" and not INTERACTIVE[name].isdisjoint(options):
        return None
    if name == "bsub" and rest:
        found = None if "-cwd" in options else bsub_script(rest)
        return (name, found[1], found[2]) if found is not None else None
    if rest and rest[0].value is None and EXPANSION.fullmatch(rest[0].template):
        # `sbatch ${cluster_info} job.sh`: options a sourced file or the environment sets, then the script
        later = next((i for i, w in enumerate(rest) if w.value and kind_by_name(w.value) == "shell"), None)
        rest = rest[later:] if later is not None else rest
    if rest:
        return name, rest[0], rest[1:]
    read = next((r.target for r in command.redirects if r.op == "<" and r.fd in (None, 0) and r.target is not None), None)
    return (name, read, []) if read is not None else None


EXPANSION = lazy(r"\$(?:\{\w+\}|\w+)")  # a word that is one variable's value: `${cluster_info}`


def bsub_script(rest: list[Word]) -> tuple[str, Word, list[Word]] | None:
    """bsub's command (`rest`, its words after bsub's options) when it is a shell script run by its
    path (`bsub ./job.lsf`): a job script, read as one, not as a command string (front/wrappers.py)."""
    found = _run_by_path(rest)
    return found if found is not None and found[0] == "shell" else None


def _job_options(command: Command) -> set[str | None]:
    """A submit command's options, their values among them."""
    words = command.words[1:]
    return {w.value for w in words[: len(words) - len(job_operands(command.name, words))]}


_ATTACHED = lazy(r"--[A-Za-z][\w-]*=|-[A-Za-z][^-]")  # an option spelled before its value


def _option_text(word: Word) -> str | None:
    """A word's value; for one not static, its template when it is an option with its value
    attached (`--dependency=afterok:$JID`), else None."""
    if word.value is not None or not _ATTACHED.match(word.template):
        return word.value
    return word.template


# The script's own directory, and the path after it: `$(dirname "$0")/run.sh`, `$(dirname
# "${BASH_SOURCE[0]}")`, `` `dirname $0` ``, `${BASH_SOURCE%/*}` and `${0%/*}`, of the script's resolved path too (`$(dirname "$(realpath "$0")")`,
# `readlink -f`), or any of them inside `$(cd ... && pwd)` (`SCRIPT_DIR=$( cd -- "$( dirname --
# "${BASH_SOURCE[0]}" )" &> /dev/null && pwd)`, `$(cd "$(dirname "$0")/.." && pwd)`) or resolved
# (`$(realpath "$(dirname $0)")`: DiffIR's, LaMa's), read from a word's template; and the directories
# above it, by `$(dirname ...)` of it (`_PARENT`: `$(dirname $(dirname "$SCRIPT_DIR"))/train.py`).
_SELF = r'"?\$(?:0|\{0\}|BASH_SOURCE|\{BASH_SOURCE(?:\[0\])?\})"?'
_RESOLVED = rf'"?\$\(\s*(?:realpath(?:\s+-\w+)*|readlink\s+-[fem])\s+(?:--\s+)?{_SELF}\s*\)"?'
_DIRNAME_ARGUMENT = rf'dirname\s+(?:--\s+)?(?:{_SELF}|{_RESOLVED})\s*'
# Each part is written once, its closing asked for by a condition on how it opened (`(?(tick)`:
# the backtick that opened it, else the `)`; `(?(cd)`: the rest of `$(cd ... && pwd)`): spelled
# as alternatives, the `cd` form and the bare one, `$(...)` and `` `...` ``, the dirname's
# argument came four times, and compiling the pattern, in Python, took 12 M instructions of
# every run that reads a script (2.3% of the 100-file shell-only benchmark run), now 4 M.
_DIRNAME = rf'(?:(?:\$\(|(?P<tick>`))\s*{_DIRNAME_ARGUMENT}(?(tick)`|\))|\$\{{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\}})'
_OWN_DIRECTORY = re.compile(
    rf'(?P<cd>\$\(\s*cd\s+(?:-P\s+)?(?:--\s+)?"?)?'
    rf'(?P<real>\$\(\s*(?:realpath(?:\s+-\w+)*|readlink\s+-[fem])\s+(?:--\s+)?"?)?{_DIRNAME}(?(real)"?\s*\))'
    rf'(?(cd)(?P<inner>/[^"$`\s&;|)]*)?"?(?:\s*(?:&>|[12]?>)\s*/dev/null(?:\s*2>&1)?)*\s*(?:&&|;)\s*pwd(?:\s+-P)?\s*\))(?P<path>/[^$`]*)?$'
)
_PARENT = re.compile(r'\$\(\s*dirname\s+(?:--\s+)?"?(.+?)"?\s*\)(/[^$`)]*)?$')  # `$(dirname X)/path`
# `$(pwd)/$(dirname $0)` (`./$(dirname $0)` where the walk knows the directory): the directory a
# relative `$0` names from where the script is run (pytorch/examples')
_HERE_THEN = re.compile(r'(?:\$\(\s*pwd\s*\)|\$\{?PWD\}?|\.)/(?=\$\(\s*dirname\s)')


def _from_own_directory(template: str) -> tuple[int, str] | None:
    """How many directories above the script's own a template starts, and the path after it:
    `$(dirname "$0")/train.py` is (0, "/train.py"), `$(dirname $(dirname $(cd `dirname $0`;
    pwd)))/bin` (2, "/bin"), also after the directory the script runs from (`$(pwd)/$(dirname $0)`,
    as a relative `$0` names it from there); None for a template that is no path from there
    (`_OWN_DIRECTORY`)."""
    own = _OWN_DIRECTORY.match(_HERE_THEN.sub("", template, count=1))
    if own is not None:  # `$(cd "$(dirname "$0")/.." && pwd)/x`: the path inside the `cd`, then the one after
        return 0, (own.group("inner") or "") + (own.group("path") or "")
    parent = _PARENT.match(template)
    inner = None if parent is None else _from_own_directory(parent.group(1))
    if inner is None:
        return None
    above, path = inner
    path = path.rstrip("/")  # dirname reads the text: `$(dirname "$HERE/sub")` is $HERE
    above, path = (above, posixpath.dirname(path).rstrip("/")) if path else (above + 1, "")
    return above, path + (parent.group(2) or "")


def _own(word: Word) -> bool:
    """Whether a word is a path from its script's own directory (`own_path`)."""
    return word.value is None and _from_own_directory(word.template) is not None


def _written(word: Word) -> str:
    """A program's path as written: its value, or a path from the script's own directory as its
    template (`$(dirname "$0")/../train.py`); "" for anything else not static."""
    return word.value or (word.template if _own(word) else "")


def own_path(word: Word, script: str) -> str | None:
    """The path a word names from its script's own directory or one above it (see
    `_from_own_directory`), relative to the root; None for any other word, and for one that
    starts above the root (`$(dirname $HERE)` of a launcher at the root: not the project's)."""
    own = _from_own_directory(word.template) if word.value is None else None
    if own is None:
        return None
    above, path = own
    directory = posixpath.dirname(script)
    for _ in range(above):
        if directory in ("", "/") or directory.startswith(".."):
            return None
        directory = posixpath.dirname(directory)
    return joined(directory, path.lstrip("/"))


def local_candidates(value: str, caller: str) -> list[str]:
    """Where a relative path a script names may be: next to the script, then from the root."""
    return [joined(posixpath.dirname(caller), value), posixpath.normpath(value)]


def sourced_candidates(word: Word, script: str) -> list[str]:
    """The project paths a `source` word may name, in bash's order: from the script's own
    directory (`$(dirname "$0")/common.env`), else a static relative path next to the script or
    from the root (bash looks in the working directory); none for an absolute or home path
    (`/opt/conda/etc/profile.d/conda.sh`, `~/.bashrc`) or a word not known here."""
    own = own_path(word, script)
    if own is not None:
        return [own]
    value = word.value
    return local_candidates(value, script) if value and not value.startswith(("/", "~")) else []


def directories_above(path: str) -> Iterator[str]:
    """The directories above a file's own, nearest first, the root not included: where a launcher
    may be run from (`cd step1 && bash training_scripts/run.sh`)."""
    directory = posixpath.dirname(posixpath.dirname(path))
    while directory:
        yield directory
        parent = posixpath.dirname(directory)
        if parent == directory:  # "/": a file outside the project, named by its absolute path
            return
        directory = parent


# What makes a directory below the root a project of its own: a root marker, or a package's
# setup file (`.git` a directory, a clone's, or a file, a submodule's).
NESTED_MARKERS = (*ROOT_MARKERS, "setup.py", "setup.cfg")
NEAR_CUTOFF = 0.8  # how alike (difflib's ratio) a name must be to be offered for a missing one
SLIP_CUTOFF = 0.95  # a slip of the keys (`train_owt_duo_fintune.sh` for `..._finetune.sh`): before a neighbour it extends
SWAP_CUTOFF = 0.9  # two letters off (`main_supervised_analisys.py` for `..._analysis.py`), beside the launcher: the same
MIN_STEM = 5  # the shortest name a neighbour's may extend (`_extends`)
SAME_KIND = {".yml": ".yaml"}  # suffixes of one kind of file, for `Resolver.near`


def _extends(one: str, other: str) -> bool:
    """One name is the other with more after it (`aquila_code` and `aquila_code_pretrain`), the
    shorter one no mere prefix (MIN_STEM characters at least)."""
    shorter, longer = sorted((one, other), key=len)
    return len(shorter) >= MIN_STEM and shorter != longer and longer.startswith(shorter)


def _closest(name: str, names: list[str], cutoff: float, keep: Callable[[str], bool] | None = None) -> str | None:
    """The one of `names` most like `name`, at least `cutoff` alike, of those `keep` keeps; None
    when two are as close."""
    from difflib import SequenceMatcher, get_close_matches  # here: only a missing path asks

    close = get_close_matches(name, names, n=2 if keep is None else max(len(names), 1), cutoff=cutoff)
    close = close if keep is None else [n for n in close if keep(n)][:2]
    if not close or len(close) == 2 and SequenceMatcher(None, close[1], name).ratio() == SequenceMatcher(None, close[0], name).ratio():
        return None
    return close[0]


def _other_word(name: str, close: str) -> bool:
    """Whether two alike names differ by a word of their own, not by a slip of the keys: past
    what they start and end with alike, both keep three letters or more, and those are not
    alike (T2I-CompBench's `generate_depth.py` is no `generate_objdet.py`, nor `vit_base.yaml` a
    `vit_large.yaml`; `trian.py` is `train.py`, and `analisys` `analysis`: the same letters)."""
    from difflib import SequenceMatcher  # here: only a missing path asks

    start = len(posixpath.commonprefix([name, close]))
    end = len(posixpath.commonprefix([name[start:][::-1], close[start:][::-1]]))
    a, b = name[start : len(name) - end], close[start : len(close) - end]
    # the same letters in another order are a slip too (`analisys` for `analysis`: `isy`, `ysi`)
    return min(len(a), len(b)) >= 3 and sorted(a) != sorted(b) and SequenceMatcher(None, a, b).ratio() < 0.6


def shares_a_directory(caller: str, written: str, paths: Iterable[str]) -> bool:
    """Some of `paths` is in a directory that the launcher's path or the path it writes names
    (`examples/gpt/train.py` for `examples/bert/run.sh`), or those name none (`python main.py`
    in the root's `run.sh`: the whole project is its)."""
    directories = {*posixpath.dirname(caller).split("/"), *posixpath.dirname(posixpath.normpath(written)).split("/")} - {"", ".", ".."}
    return not directories or any(directories.intersection(posixpath.dirname(p).split("/")) for p in paths)


def _placed_alike(caller: str, written: str, paths: Sequence[str]) -> bool:
    """A file of `paths` may be what a launcher meant by a missing path of a like name: one at
    the root (where launchers are run from), or in a directory that the launcher's path or the
    written path names (`shares_a_directory`)."""
    return any("/" not in p for p in paths) or shares_a_directory(caller, written, paths)


def project_resolver(project) -> Resolver:
    """One resolver of analysed files per project (building one indexes every file name): the
    graph's, the rules' and the launches' own."""
    cache = project.__dict__
    if "_resolver" not in cache:
        cache["_resolver"] = Resolver(project)
    return cache["_resolver"]


class LaunchGraph:
    def __init__(self, invocations: list[Invocation], by_callee: dict[str, list[Invocation]]) -> None:
        self.invocations = invocations
        self.by_callee = by_callee

    @classmethod
    def build(cls, project) -> LaunchGraph:
        from .entrypoints import console_script

        resolver = project_resolver(project)
        invocations = []
        for path, script in project.shell.items():
            for command in script.effective_commands():
                for variant in variants(project, path, command) if script.loop_values else (command,):  # each time round a loop
                    found = script_of(variant)
                    if found is None:
                        entry = console_script(project, variant.name) if variant.words and variant.name not in script.functions else None
                        if entry is not None:  # `fairseq-train data --arch x`: the project's console script
                            invocations.append(Invocation(path, command, "console", variant.words[0], entry.path, variant.words[1:], variant, entry.function))
                        continue
                    kind, target, args = found
                    runs = RUN_BY_SHEBANG.get(kind)
                    if runs and not resolver.named(project, target, runs):
                        continue  # most `./configure`, `./bin/bert_example`: no such file of the project has its name
                    if kind == "module":
                        callee = resolver.resolve_module(target, path)
                    else:
                        start = run_in(project, path, command, target)
                        callee = resolver.resolve(target, path, remote=command.remote, start=start)
                        if callee is None and kind == "python":  # `python app`: its `app/__main__.py`
                            callee = resolver.resolve_main(target, path, remote=command.remote, start=start)
                    if runs:  # `./train`, a Python file by its shebang, runs as `python train` does; a shell one as `bash train`
                        if callee is None or project.files[callee].kind not in runs:
                            continue
                        kind = project.files[callee].kind
                    invocations.append(Invocation(path, command, kind, target, callee, args, variant))
        by_callee: dict[str, list[Invocation]] = defaultdict(list)
        for invocation in invocations:
            if invocation.callee is not None:
                by_callee[invocation.callee].append(invocation)
        return cls(invocations, dict(by_callee))

    def callers(self, path: str) -> list[Invocation]:
        return self.by_callee.get(path, [])

    def capturing_callers(self, path: str, seen: frozenset[str] = frozenset()) -> list[Invocation]:
        """The shell callers that pipe or redirect this script's output into a log. A file sourced
        in a script's own shell (`source ./logging.sh`, not in `$(...)` or `bash -c`) writes that
        script's output, and so does one it runs with its output left as it is (`bash inner.sh` in
        an `outer.sh` a launcher runs as `nohup bash outer.sh > outer.log 2>&1 &`: helper-333):
        their capturing callers are the script's too. Each script is asked once a run, and each
        caller once however often it runs the script (l0.sh runs l1.sh 80 times, ... : 80^4 walks)."""
        known = self.__dict__.setdefault("_capturing", {})
        if path in known:
            return known[path]
        found = []
        seen, asked = seen | {path}, set()
        for caller in self.callers(path):
            command = caller.command
            if caller.kind != "shell":
                continue
            if caller.captures_output:
                found.append(caller)
            elif command.stdout.kind == INHERIT and not command.wrappers and caller.caller not in seen | asked:
                asked.add(caller.caller)
                found += self.capturing_callers(caller.caller, seen)
        known[path] = found
        return found

    def invocation(self, command: Command) -> Invocation | None:
        """The edge a command makes, if it runs a script."""
        by_command = self.__dict__.get("_by_command")
        if by_command is None:  # built once: setdefault() would build the dict on every call
            by_command = self.__dict__["_by_command"] = {}
            for i in self.invocations:
                by_command[id(i.command)] = by_command[id(i.run)] = i  # and one time round its loop (`variants`)
        return by_command.get(id(command))


def variants(project, path: str, command: Command) -> list[Command]:
    """The command as each time round its loop runs it (`ShellScript.variants`), made once a run:
    the graph's invocations hold these commands, and `LaunchGraph.invocation` finds them."""
    script = project.shell[path]
    if not script.loop_values:
        return [command]
    known = project.__dict__.setdefault("_variants", {})
    found = known.get(id(command))
    if found is None:
        found = known[id(command)] = script.variants(command)
    return found


def run_in(project, path: str, command: Command, target: Word) -> str | None:
    """The project directory a launch runs in when the launcher says so, for a relative path:
    a `cd` into one before it (`cd "$(dirname "$0")/.."`, `cd sub && python train.py`), else
    its step's `working-directory`; None when nothing says, or it is not known."""
    value = target.value
    if not value or value.startswith(("/", "~")) or command.remote:
        return None
    from .launches import directory_changes, moved_before, start_directory  # launches imports this module

    moved = moved_before(directory_changes(project, path), command)
    if moved:
        return moved[-1]
    declared, start = start_directory(command)
    return start if declared else None


def path_mapped(project, written: str) -> list[tuple[str, str]]:
    """(project directory, path under it) for each configured `path-map` prefix that claims the
    absolute path `written` (`/root/x.sh` with `/root/: deploy/` is deploy's `x.sh`); none when no
    prefix claims it: it lives on the machine that runs the job. The resolver's, LL303's and LL304's."""
    return [(directory, written[len(prefix) :]) for prefix, directory in project.settings.path_map if written.startswith(prefix)]


def checkout_names(project, caller: str) -> tuple[str, ...]:
    """The names the project's checkout goes by from the directory above it, for a launch in
    `caller`: the root's own (`repo/train.py`), and the `path:` its workflow's `actions/checkout`
    checks the project itself out into (`ShellScript.checkouts`: `proj/tools/x.py` is
    `tools/x.py`). The resolver's, and `paths.may_name`'s for LL301, LL302 and LL303."""
    shell = project.shell.get(caller)
    if shell is None or not shell.checkouts:  # most launchers
        return (project.directory_name,) if project.directory_name else ()
    return tuple(name for name in (project.directory_name, *sorted(shell.checkouts)) if name)


def below_checkout(project, caller: str, value: str) -> list[str]:
    """The project paths a relative path names from the checkout's parent, by each name the
    checkout goes by there (`checkout_names`): `repo/train.py` is `train.py`. The resolver's, and
    LL303's places for a missing path (NASLib's `base_file=NASLib/naslib`)."""
    return [
        posixpath.normpath(value[len(root) + 1 :])
        for root in checkout_names(project, caller)
        if value.startswith(root + "/") and len(value) > len(root) + 1
    ]


class Resolver:
    """Where a script path written in a launcher is in the project.

    In order: relative to the launcher's directory, relative to the root of a project nested
    in this one that holds the launcher (`nested_root`: a vendored verl's CI and recipes run
    `examples/x.py` from verl's root, not the outer project's namesake), relative to the project
    root (or its parent, by the root's own name or a workflow's `actions/checkout` `path:`), under a
    configured `path-map` prefix, and finally the project's unique file of that name (a remote
    `/root/start_training.sh` is the project's only `start_training.sh`), when a local relative
    path can name it (`paths.may_name`: `python train.py` run from anywhere, not `prep/new/x.py`
    as `prep/old/x.py`). A URL (`paths.is_url`) is none of the project's files. Where a `cd`
    before the launch (or its step's `working-directory`) says which directory it runs in, a
    relative path is that directory's file or none. A path through a symbolic link to a directory
    of the project is the file the link leads to (`_linked`: a recipe's `utils -> ../a/utils`).
    """

    def __init__(self, project, files: Iterable[str] | None = None):
        """`files`: the paths that count as existing (default: the files launchlint analyses)."""
        self.files = set(project.files if files is None else files)
        self.project = project
        names: dict[str, list[str]] = defaultdict(list)
        for path in self.files:
            names[posixpath.basename(path)].append(path)
        self.by_name = names
        self.roots: dict[str, str | None] = {}  # directory -> its nested project's root (`nested_root`)

    def resolve(self, word: Word, caller: str, *, remote: bool = False, start: str | None = None) -> str | None:
        """`start`: the directory the launch runs in, when a `cd` before it (or its step's
        `working-directory`) says so; a relative path is looked for there only."""
        value = word.value
        if not value:  # `"$(dirname "$0")/../train.py"`: from the launcher's own directory
            return self._own(word, caller, remote)
        if is_url(value):  # `s3://b/train.py` is no project file, not even the one of its name
            return None
        return self._find(value, caller, remote, self.by_name.get(posixpath.basename(value), []), start)

    def near(self, written: str, caller: str, *, namesakes: bool = True) -> str | None:
        """The file whose name is most like the missing path `written`'s (`trian.py` ->
        `train.py`), of its kind, if unique: a missing path's "did you mean"; for a name with no
        suffix, the only file of the name with one (`python sample_QOCS`: `sample_QOCS.py`,
        placed as below) first. Not when two names
        are as close (`pretrain_model.py` between `pretrain_model_llama.py` and
        `pretrain_model_mamba.py`), nor when two files have the name. A file next to the launcher
        whose name extends the missing one, or is what it extends, comes first, however unlike, but
        after a name a slip of the keys away (`SLIP_CUTOFF`: `train_owt_duo_fintune.sh` is the
        `train_owt_duo_finetune.sh` beside it, not the `train_owt_duo.sh` it extends), or two
        letters off beside the launcher (`SWAP_CUTOFF`: ssl_tools' `main_supervised_analisys.py`
        is `main_supervised_analysis.py`, not `main_supervised.py`)
        (FlagAI's `aquila_code.py` is the neighbour `aquila_code_pretrain.py`, not a distant
        `flagai/model/aquila_model.py`; Pai-Megatron-Patch's `pretrain_deepseek_250624.py` is
        `pretrain_deepseek.py`); of several, the one named as the launcher is (the_well's
        `upload_dataset.sh` runs a renamed `upload.py`: `upload_dataset.py`, not the closer name
        `upload_model.py`). Else only a file at the root or in a directory the launcher's
        path or the written path names (`_placed_alike`): verl-tool's
        `examples/train/b/train_drgrpo.sh` is `examples/train/a/train_1.5b_drgrpo.sh`, not the
        closer name `verl/recipe/x/train_grpo.sh` of a vendored copy. Not a file of the name
        itself when `namesakes` is false: the path has directories none of them ends in
        (Pointcept's `.../concerto/hm3d/preprocess_hm3d.py` is the `preprocessed_hm3d.py` there,
        not the older pipeline's `.../hm3d/preprocess_hm3d.py`)."""
        by_name = self.by_name
        name = posixpath.basename(written)
        stem, suffix = posixpath.splitext(name)  # a typo keeps the kind: `trian.py` is a `.py`
        if not suffix:  # `python sample_QOCS`: the one file of that name with a suffix (`sample_QOCS.py`)
            suffixed = [p for n in by_name if posixpath.splitext(n)[0] == name for p in by_name[n]]
            if len(suffixed) == 1 and _placed_alike(caller, written, suffixed):
                return suffixed[0]
        kind = SAME_KIND.get(suffix, suffix)  # and `x.yml` may be the `x.yaml` next to it
        names = [n for n in by_name if (namesakes or n != name) and SAME_KIND.get(ext := posixpath.splitext(n)[1], ext) == kind]
        placed = lambda n: _placed_alike(caller, written, by_name[n])  # noqa: E731
        slip = _closest(name, names, SLIP_CUTOFF, placed)
        if slip is not None and len(by_name[slip]) == 1:  # a letter off: that file, not the neighbour it extends
            return by_name[slip][0]
        here = posixpath.dirname(caller)
        beside = {n: p for n in names for p in by_name[n] if posixpath.dirname(p) == here and p != caller}
        swapped = _closest(name, list(beside), SWAP_CUTOFF)
        if swapped is not None and not _other_word(name, swapped):  # two letters off, beside the launcher (`..._analisys.py`)
            return beside[swapped]
        neighbours = {n: p for n, p in beside.items() if _extends(posixpath.splitext(n)[0], stem)}
        own = posixpath.splitext(posixpath.basename(caller))[0] + suffix  # `upload_dataset.sh` runs `upload_dataset.py`
        close = own if own in neighbours else _closest(name, list(neighbours), 0.0)
        if close is not None:
            return neighbours[close]
        close = _closest(name, names, NEAR_CUTOFF, placed)
        if close is None or _other_word(name, close):
            return None
        if len(by_name[close]) == 1:
            return by_name[close][0]
        # of several files of that name, the one where the written path leads from where the launcher runs
        there = self._folders(written, caller)
        placed_there = [p for p in by_name[close] if (posixpath.dirname(p) or ".") in there]
        return placed_there[0] if len(placed_there) == 1 else None

    def named(self, project, word: Word, kinds: frozenset[str]) -> bool:
        """Whether a file of the project of one of these kinds has the name of the path `word` is
        written as."""
        name = posixpath.basename(_written(word))
        files = project.files
        return any(path in files and files[path].kind in kinds for path in self.by_name.get(name, ()))

    def resolve_main(self, word: Word, caller: str, *, remote: bool = False, start: str | None = None) -> str | None:
        """`python DIR`: the `DIR/__main__.py` python runs for a directory, looked for where
        `resolve` looks for a script; by name, the project's only `__main__.py` in a directory
        of DIR's name (every package's `__main__.py` has that name)."""
        value = word.value
        if not value:  # `"$(dirname "$0")/../app"`
            return self._own(word, caller, remote, "__main__.py")
        if is_url(value):
            return None
        name = posixpath.basename(posixpath.normpath(value))
        tail = f"{name}/__main__.py"
        same = [p for p in self.by_name.get("__main__.py", []) if ends_in(p, tail)] if name not in ("", ".", "..") else []
        return self._find(posixpath.join(value, "__main__.py"), caller, remote, same, start)

    def _own(self, word: Word, caller: str, remote: bool, below: str = "") -> str | None:
        """The file a path from the launcher's own directory names (`own_path`), or `below` it."""
        own = None if remote or word.value is not None else own_path(word, caller)
        found = posixpath.join(own, below) if own is not None and below else own
        return found if found in self.files else None

    def _find(self, value: str, caller: str, remote: bool, same_name: list[str], start: str | None) -> str | None:
        if start is not None:  # where the launch runs is known: a file elsewhere is not the one it runs
            there = joined(start, value)
            return there if there in self.files else self._linked(there, same_name)
        candidates = [] if value.startswith("/") or remote else self.local(value, caller)
        if not remote:  # from the checkout's parent: `repo/train.py`, `proj/tools/x.py`
            candidates.extend(below_checkout(self.project, caller, value))
        roots = checkout_names(self.project, caller)
        candidates.extend(joined(directory, rest) for directory, rest in path_mapped(self.project, value))
        for candidate in candidates:
            found = candidate if candidate in self.files else self._linked(candidate, same_name)
            if found is not None:
                if candidate == joined("", value) and "/" in caller and self._above(value, caller) not in (None, candidate):
                    return None  # the root's, or a directory's between it and the launcher's: run from either (KernelGAT's scikgat/)
                return found
        only = same_name[0] if len(same_name) == 1 else None
        # On another host, in an image or by an absolute path, the checkout may be anywhere: of several
        # files of the name, the one whose whole path the path ends in (`$ROOT/prep/quant.py`; STSGCN's
        # job unpacks the project into `STSGCN/` and passes `STSGCN/config/PEMS03/x.json`)
        if only is None and (remote or value.startswith(("/", "~"))):
            tails = [p for p in same_name if value.endswith("/" + p)]
            only = tails[0] if len(tails) == 1 else None
        if only and (remote or value.startswith(("/", "~")) or may_name(value, only, roots) and self.answers_for(only, caller, value)):
            return only  # not `prep/old/x.py` for a local `prep/new/x.py`, nor a vendored copy's: no directory runs that one by it
        return None if value.startswith("/") or remote else self._above(value, caller)

    def _linked(self, candidate: str, same_name: list[str]) -> str | None:
        """The file of the project a path reaches through a symbolic link to a directory: the walk
        names each file by its own path (`discover.walk`), so `b/utils/t.py` through `b/utils ->
        ../a/utils` is `a/utils/t.py` (FunASR's recipes link `utils` to ../paraformer/utils, and
        other recipes have a `utils/text2token.py` of their own). The disk is asked only for a
        path in a directory that holds none of the project's files, when a file has its name."""
        directory, name = posixpath.split(candidate)
        if not same_name or directory in self._directories:
            return None
        real = self.project.real_directory(directory)  # one question for every file asked for there
        found = None if real is None else joined(real, name)
        return found if found in same_name else None

    @cached_property
    def _directories(self) -> frozenset[str]:
        """The directories that hold the project's files, by the walk's names."""
        return frozenset(posixpath.dirname(path) for path in self.files)

    def local(self, value: str, caller: str) -> list[str]:
        """`value` from each directory the launcher is run from (`run_from`)."""
        return [joined(directory, value) for directory in self.run_from(caller)]

    def as_written(self, near: str, written: str, caller: str, base: str | None = None) -> str:
        """A project file offered for the missing path `written` (`near`), as the launcher would
        write it: the written path's directory and the file's name when the file is in that
        directory from one the launcher runs from (`run_from`: SGPT's `beir/` scripts' bare names;
        `conf/train.yaml` beside `sub/run.sh`; `scripts/avg.py` from a nested project's root), else
        its path from the root; a relative path's from where it is read: `base` when known (after
        a `cd`), else the one directory it runs from where the path stays in the project
        (`read_from`: Show-o's `show-o2/x.sh` passes `../show-o/accelerate_configs/...`, so
        `../accelerate_configs/...`)."""
        folder = posixpath.dirname(written)
        there = self._folders(written, caller)
        if (posixpath.dirname(near) or ".") in there:
            return posixpath.join(folder, posixpath.basename(near))
        if written.startswith(("/", "~")):
            return near
        base = self.read_from(written, caller) if base is None else base
        return posixpath.relpath(near, base) if base else near

    def read_from(self, written: str, caller: str) -> str | None:
        """The one directory the launcher runs from (`run_from`) from which the relative path
        `written` stays in the project (`../configs/x.yaml` from `sub/run.sh`: `sub`, not the root);
        None when several or none are."""
        bases = {base for base in self.run_from(caller) if not (joined(base, written) + "/").startswith("../")}
        return bases.pop() if len(bases) == 1 else None

    def _folders(self, written: str, caller: str) -> set[str]:
        """The directories the written path's directory is from each one the launcher runs from
        (`run_from`), "." for the root."""
        folder = posixpath.dirname(written)
        return {posixpath.normpath(posixpath.join(base, folder)) for base in self.run_from(caller)}

    def run_from(self, caller: str) -> list[str]:
        """The directories a launcher's relative path is looked for from, nearest first: its own,
        the root of the project nested here that holds it (`nested_root`: its launchers are run
        from there), and the project root (""). LL303's places for a missing path too."""
        own, nested = posixpath.dirname(caller), self.nested_root(caller)
        return [own, *([nested] if nested not in (None, own) else []), ""]

    def answers_for(self, path: str, caller: str, written: str) -> bool:
        """Whether `path`, a file whose path ends in the local path `written`, may be what the
        launcher `caller` names by it, from a directory not known: a bare name, an absolute or a
        home path may name any file (a bare name is run from any directory, one in a project
        nested here too: MMaDA's `commands.sh` runs `run.py` from its VLMEvalKit/); a path with
        directories, relative to where the launcher runs (`run_from`), names no file of a project
        nested here that does not hold the launcher (TinyVLA's `scripts/train.sh` passes
        `scripts/zero2.json`, which only its nested llava-pythia/ has)."""
        if written.startswith(("/", "~")) or "/" not in written_tail(written):
            return True
        nested = self.nested_root(path)
        return nested is None or caller.startswith(nested + "/")

    def nested_root(self, caller: str) -> str | None:
        """The root of the project nested in this one (a vendored or sub-project checkout) that
        holds `caller`: for a CI file, the directory that holds its `.github/`, `.circleci/`,
        `.gitlab/` or `.azure-pipelines/` (whose checkout its steps run in); else the nearest directory above it, below
        the root, with a project marker (`NESTED_MARKERS`). None when that is the root itself.
        Asked once per directory; none for a file outside the project (`/abs/x.sh`, `../x.sh`)."""
        if caller.startswith(("/", "../")):
            return None
        directory = posixpath.dirname(caller)
        parts = directory.split("/")
        ci = next((i for i, part in enumerate(parts) if part in CI_DIRECTORIES), None)
        if ci is not None:
            return "/".join(parts[:ci]) or None
        return self._marked(directory)

    def _marked(self, directory: str) -> str | None:
        """The nearest directory at or above `directory`, below the root, that holds a marker."""
        if not directory:
            return None
        known = self.roots
        if directory not in known:
            on_disk = self.project.on_disk
            marked = on_disk(posixpath.join(directory, ".git"), directory=True) or any(
                on_disk(posixpath.join(directory, marker)) for marker in NESTED_MARKERS
            )
            known[directory] = directory if marked else self._marked(posixpath.dirname(directory))
        return known[directory]

    def _above(self, value: str, caller: str) -> str | None:
        """Run from a directory above the launcher's own, the nearest that has the path: the
        usual `cd step1 && bash training_scripts/run.sh` whose script says `python main.py`."""
        for directory in directories_above(caller):
            candidate = joined(directory, value)
            if candidate in self.files:
                return candidate
        return None

    def resolve_module(self, word: Word, caller: str) -> str | None:
        """`python -m pkg.train`: pkg/train.py (or pkg/train/__main__.py) from each directory
        the launcher is run from (`run_from`: its own, its nested project's root, the project
        root), else the project's only file that ends so. A bare name
        (`-m pytest`) is never matched by name alone: it is a library's as often as not."""
        value = word.value or ""
        if not value or not all(part.isidentifier() for part in value.split(".")):
            return None
        base = value.replace(".", "/")
        tails = (base + ".py", base + "/__main__.py")
        for tail in tails:
            for candidate in self.local(tail, caller):
                if candidate in self.files:
                    return candidate
        if "." not in value:
            return None
        ending = [p for t in tails for p in self.by_name.get(posixpath.basename(t), []) if p.endswith("/" + t)]
        return ending[0] if len(ending) == 1 else None
