"""Distributed launches: what a launcher command asks of the machine it starts on.

A `Launch` is torchrun (also `python -m torch.distributed.run`/`launch`, and ft_launcher, built on
it), `accelerate launch`, `deepspeed`, `colossalai run` or MindSpore's `msrun`, with the launcher's own options (the ones before the program). From it come the
processes it starts per node, the GPUs the launch can see, its rendezvous port, and the config
files a command hands to the program it starts.
"""

from __future__ import annotations

import posixpath
from bisect import bisect_left
from collections import ChainMap
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from heapq import merge
from operator import itemgetter

from .front.wrappers import slurm_export, uv_subcommand
from .graph import (
    DIRECTORY_CHANGERS,
    LAUNCHER_MODULES,
    PY_LAUNCHERS,
    SUBMITTERS,
    Resolver,
    checkout_names,
    directories_above,
    is_python,
    job_operands,
    launcher_args,
    launcher_words,
    own_path,
    project_resolver,
    python_run,
    sourced_candidates,
    value_part,
)
from .lazyre import lazy
from .model import Record, whole
from .paths import in_a_virtualenv, joined
from .pymade import python_made
from .shellfacts import ARM, CAPTURED, SOURCERS, SUBSHELL, Block, Command, Pipeline, SetBy, Word

DEFAULT_PORT = 29500  # torchrun's and deepspeed's --master_port when none is given
OWN_DEFAULT_PORT = {"msrun": 8118}  # its scheduler's
VISIBLE = "CUDA_VISIBLE_DEVICES"
# The device lists of other accelerators' runtimes. Ascend's (torch_npu), Habana's and Intel's
# (Level Zero: `ZE_AFFINITY_MASK`, whose `0.0,0.1` lists tiles, each a device in its default flat
# hierarchy) ignore CUDA_VISIBLE_DEVICES: one of them set decides alone, the first in this order.
OWN_VISIBLE = ("ASCEND_RT_VISIBLE_DEVICES", "HABANA_VISIBLE_MODULES", "ZE_AFFINITY_MASK")
# ROCm's HIP honours CUDA_VISIBLE_DEVICES as HIP_VISIBLE_DEVICES, and both index into the devices
# ROCR_VISIBLE_DEVICES leaves: with several of these set, at most the fewest they list are visible.
SHARED_VISIBLE = (VISIBLE, "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
VISIBILITY = (*OWN_VISIBLE, *SHARED_VISIBLE)


class Launch(Record):
    """A launcher command and its own options: name (`nproc_per_node`) -> the value's word; a
    flag (`--standalone`) maps to its own word, with the value ""."""

    command: Command
    launcher: str  # one of LAUNCHES
    options: dict[str, Word]
    program: Word | None  # the script, or the module after `-m`
    spelled: dict[str, str]  # name -> the option as written (`--nproc-per-node`)

    @property
    def all_options_known(self) -> bool:
        """False when an unknown word stands where the program is (`torchrun $ARGS x.py`,
        `"${ARGS[@]}"`): it may hold more options, so a missing option proves nothing. Not a
        path to a Python file in a directory not known (mmdetection's `$(dirname "$0")/train.py`),
        nor one of a name partly known (aps's `cmd/train_$task.py`): a Python file is no option."""
        program = self.program
        if program is None or program.value is not None:
            return True
        name = program.template.rpartition("/")[2]
        return name.endswith(".py") and "`" not in name and not any(c.isspace() for c in name)


LAUNCHES = ("torchrun", "ft_launcher", "accelerate", "deepspeed", "colossalai", "msrun")  # composer's `-n` is not read here
# The option of a launcher's processes per node, but accelerate's (`num_processes` over `num_machines`):
# `--nproc_per_node`, deepspeed's `--num_gpus`, msrun's `--local_worker_num`.
PROCESSES_OPTION = {"deepspeed": "num_gpus", "msrun": "local_worker_num"}
# torchrun and nvidia-resiliency-ext's ft_launcher, built on it: `--standalone`, and a MASTER_PORT
# in their environment not read (`--master-port` is).
TORCHRUNS = frozenset({"torchrun", "ft_launcher"})
# The rendezvous a launcher meets in with no `--rdzv-backend`: torchrun's static one binds
# `--master_port`; ft_launcher's (nvidia-resiliency-ext 0.3 and later) is a c10d store.
DEFAULT_BACKEND = {"ft_launcher": "c10d"}


def whole_number(word: Word | None) -> int | None:
    return whole(word.value) if word is not None else None


@lru_cache(maxsize=4096)  # by the command itself: the rules ask of a command ~5 times (9,520 asks a 1,000-file run)
def launch_of(command: Command) -> Launch | None:
    """The launch a command makes, or None when it runs no distributed launcher. Commands are
    facts, never changed once the front ends made them (`Command.with_words` makes another)."""
    name = command.name
    if name in LAUNCHES:
        after = launcher_words(command)
        return _parse(command, name, after) if after is not None else None
    run = python_run(command) if is_python(name) else None
    launcher = LAUNCHER_MODULES.get(run.target.value) if run is not None and run.kind == "module" else None
    return _parse(command, launcher, list(run.args)) if launcher else None


# pip by the names it is installed under, and pip-audit, which reads requirement files as pip does.
PIP_COMMANDS = frozenset({"pip", "pip3", "pip-audit"})


def runs_python_program(command: Command) -> bool:
    """The command runs a Python program, which reads the files it is handed: `python x.py`,
    `python -m pip`, a launcher's program (`torchrun x.py`), or pip by a name of its own (`pip`,
    `pip3`, `pip3.11`, `pip-audit`; `uv pip`, uv's interface to the same requirement files, also
    after uv's global options: `uv --quiet pip install -r requirements.txt`)."""
    name = command.name or ""
    if name in PIP_COMMANDS or (name.startswith("pip3.") and name[5:].isdigit()):
        return True
    if name == "uv" and [w.value for w in uv_subcommand(command.args)[:1]] == ["pip"]:
        return True
    return python_run(command) is not None or launch_of(command) is not None


LOCAL_RANK = frozenset({"--local_rank", "--local-rank"})


def flags_added(command: Command) -> frozenset[str]:
    """The options a launcher appends to its program's arguments: `deepspeed` gives each process
    `--local_rank=N` unless told `--no_local_rank` (deepspeed/launcher/launch.py), and `python -m
    torch.distributed.launch` unless told `--use_env`: `--local_rank=N` before torch 2.0,
    `--local-rank=N` since; ATorch's fork only when told `--not_use_env`. torchrun passes the
    rank in the environment only."""
    name = command.name
    if name != "deepspeed" and not is_python(name):  # torchrun, accelerate: none (and no launch read)
        return frozenset()
    launch = launch_of(command)
    if launch is None:
        return frozenset()
    if launch.launcher == "deepspeed":
        return frozenset() if "no_local_rank" in launch.options else LOCAL_RANK
    run = python_run(command) if is_python(command.name) else None
    module = run.target.value if run is not None else None
    if module == "torch.distributed.launch" and "use_env" not in launch.options:
        return LOCAL_RANK
    return LOCAL_RANK if module == "atorch.distributed.launch" and "not_use_env" in launch.options else frozenset()


def waits(launch: Launch) -> bool:
    """Whether the launcher returns only when its processes end, with their status: not `msrun`
    unless told `--join True` (it returns once it has started them, their output in `--log_dir`)."""
    if launch.launcher != "msrun":
        return True
    join = launch.options.get("join")
    return join is not None and join.value == "True"


def _parse(command: Command, launcher: str, words: list[Word]) -> Launch:
    args = launcher_args(launcher, words)
    return Launch(command, launcher, args.options, args.program, args.spelled)


# --- what a launch asks for ------------------------------------------------------------------------


class Setting(Record):
    """A launch's setting and where it is written: an option, or a key of its accelerate config."""

    word: Word
    said: str  # "--nproc_per_node 8", "num_processes: 8 in acc.yaml"


def setting(project, path: str, launch: Launch, name: str) -> Setting | None:
    """The option `name`, else (accelerate) the same key of the config it is given."""
    word = launch.options.get(name)
    if word is not None:
        return Setting(word, f"{launch.spelled[name]} {word.text}")
    config = accelerate_config(project, path, launch)
    if config is not None and name in project.launch_configs.get(config, {}):
        word = project.launch_configs[config][name]
        return Setting(word, f"{name}: {word.text} in {config}")
    return None


def accelerate_config(project, path: str, launch: Launch) -> str | None:
    """The project file `accelerate launch --config_file X` reads."""
    word = launch.options.get("config_file") if launch.launcher == "accelerate" else None
    if word is None:
        return None
    return project_resolver(project).resolve(word, path, remote=launch.command.remote)


# `accelerate launch` options that start several processes, through torchrun or deepspeed.
ACCELERATE_MULTI = frozenset({"multi_gpu", "use_deepspeed", "use_fsdp", "use_megatron_lm", "tpu"})
# Config `distributed_type`s that `accelerate launch` starts with its simple launcher.
ACCELERATE_SIMPLE = frozenset({"NO", "MULTI_CPU"})


def simple_launch(project, path: str, launch: Launch) -> str | None:
    """What shows that `accelerate launch` starts one process through its simple launcher (which
    runs the program as plain `python`: accelerate/commands/launch.py, `simple_launcher`): `--cpu`,
    a project config's `distributed_type` NO or MULTI_CPU, `--num_processes 1` with no config
    file named. None when it may start several, or the machine's own default config (outside the
    project) decides."""
    if launch.launcher != "accelerate":
        return None
    options = launch.options
    if "cpu" in options:  # every other launcher is chosen only without --cpu
        return f"`{launch.spelled['cpu']}`"
    if ACCELERATE_MULTI & options.keys() or not launch.all_options_known:
        return None
    kind = setting(project, path, launch, "distributed_type")
    if kind is not None:
        return f"`{kind.said}`" if kind.word.value in ACCELERATE_SIMPLE else None
    if "config_file" in options:  # a config launchlint cannot read, or without the key
        return None
    count = setting(project, path, launch, "num_processes")
    return f"`{count.said}`" if count is not None and whole_number(count.word) == 1 else None


def processes_per_node(project, path: str, launch: Launch) -> tuple[int, Setting] | None:
    """How many processes the launch starts on each node, when static. accelerate's
    num_processes counts every machine's: it is divided by num_machines."""
    if launch.launcher != "accelerate":
        name = PROCESSES_OPTION.get(launch.launcher, "nproc_per_node")
        found = setting(project, path, launch, name)
        count = whole_number(found.word) if found is not None else None
        return (count, found) if count else None
    total = setting(project, path, launch, "num_processes")
    machines = setting(project, path, launch, "num_machines")
    count = whole_number(total.word) if total is not None else None
    per = whole_number(machines.word) if machines is not None else 1
    if not count or not per or count % per:
        return None
    return count // per, total


class Port(Record):
    """The port a launch's rank 0 listens on for the others to rendezvous."""

    number: int | None  # None: not known here, but the value of one assignment (`drawn`)
    said: str  # "--master_port 29500", "torchrun's default", "MASTER_PORT=6000", "--master_port $PORT"
    word: Word | None  # where it is written; None for a launcher's default
    # For a port whose value is not known here, the assignment of the script it is the whole value
    # of (`PORT=$RANDOM`, then `--master_port $PORT`: `_drawn`): one value until the script sets it again.
    drawn: SetBy | None = None


def decided_by_caller(project, path: str, defaults: frozenset[str], invocation=None) -> bool:
    """Whether a caller sets what a command, one of its words or a redirect took a default for
    (`${NGPU:-8}`, `MASTER_PORT=${MASTER_PORT:-29500}`, `${1:-a.yaml}`: `Command.defaults`,
    `Command.defaults_of`): `invocation` (`NGPU=2 bash train.sh`, or an export before it; `bash
    run.sh b.yaml` for `$1`: `caller_sets`), or when none is given, any script of the project that
    runs `path`; or, in a Makefile, whoever runs make, when the default is a `?=` variable's
    (`ARGS ?= --lr 1`: `make train ARGS=...` is what `?=` is for, as is the environment). Then
    the value the script runs with is the caller's, not the default."""
    if not defaults:
        return False
    script = project.shell.get(path)
    if script is not None and not defaults.isdisjoint(script.overridable):
        return True
    callers = [invocation] if invocation is not None else project.graph.callers(path)
    return any(caller_sets(caller, name) for caller in callers for name in defaults)


def caller_sets(invocation, name: str) -> bool:
    """Whether a caller runs its script with `name` set: a variable in the environment a shell
    runs it with (`NGPU=2 bash train.sh`, an export before it), or a positional parameter (`1`
    of `${1:-a.yaml}`) given by an argument: `bash run.sh b.yaml`, `./run.sh`'s, a job's
    (`sbatch job.sh b.yaml`); also words not known here, which may be any number of arguments
    (`bash run.sh "$@"`, `$ARGS`), and a `source` with none, which leaves the sourcing script's own."""
    if not name.isdigit():
        return started_with(invocation, name)[0] is True
    if invocation.kind != "shell" and invocation.kind not in SUBMITTERS:
        return False
    args = invocation.args
    if not args and invocation.command.name in SOURCERS:
        return True
    return len(args) >= int(name) or any(a.value is None for a in args)


def started_with(invocation, name: str) -> tuple[bool | None, Word | None]:
    """Whether a caller starts its script with the variable `name` in its environment, and the
    word of its value when known. True when the calling shell gives it (`NGPU=2 bash train.sh`, an
    export before it; a `source`d file runs in that shell) or a Slurm job gets it (`sbatch job.sh`
    passes the submitting shell's variables, `--export=ALL,NGPU=2` or `--export=NGPU` names it);
    False when the script gets none of that shell's (`ssh gpu1 bash train.sh`, `env -i`, `sbatch
    --export=NONE`; a PBS or LSF job: `qsub -v` and `-V`, bsub's copy of the environment are not
    read); None when it gets them and this caller sets no such variable: whatever the calling
    script was started with, its own callers' (`Command.has_env` for the script's own)."""
    command = invocation.command
    if invocation.kind == "sbatch":
        words = command.words[1:]
        export = slurm_export(command, words[: len(words) - len(job_operands("sbatch", words))])
        if export.get("unknown_environment") or name in export.get("env", ()):
            return True, export.get("env", {}).get(name)
        if export.get("isolated"):
            return False, None
    elif invocation.kind != "shell":
        return False, None
    if command.has_env(name):
        return True, command.env_value(name) or command.environment.get(name)
    return (False if any(w.isolated or name in w.unset for w in command.wrappers) else None), None


def as_run_by(project, path: str, command: Command, invocation) -> Command:
    """The command of the script `path` as the caller's `invocation` runs it: its words, prefix
    assignments and exported device lists (`VISIBILITY`) that read the script's own positional
    parameters (`--master_port $1`, `PORT=$1` then `--master_port=$PORT`, `CUDA_VISIBLE_DEVICES=$1`:
    `ShellScript.arguments`) hold the caller's static arguments there (`bash child.sh 12345`), each
    standing where the parameter is written; its words that are its arguments (`"$@"`), the
    caller's words (`run_with`). The command itself when it reads none, or only ones not known:
    past an argument not static (`"$@"`, `$ARGS`: any number of words), one a loop gives another
    value each time round, one not given."""
    arguments = project.shell[path].arguments
    given = given_arguments(invocation) if arguments else None
    if given is None:
        return command
    values = _known_values(given)
    words = _with_arguments(command.words, arguments, given, values)
    env = {name: _given_word(w, arguments, values) or w if w is not None else w for name, w in command.env.items()}
    changed = words is not command.words or any(env[n] is not command.env[n] for n in env)
    environment = command.environment
    visible_given = {
        name: w for name in VISIBILITY if (v := environment.get(name)) is not None and (w := _given_word(v, arguments, values))
    }
    if not changed and not visible_given:
        return command
    bound = command.with_words(words)
    bound.env = env
    if visible_given:
        bound.environment = ChainMap(visible_given, environment)
    return bound


def given_arguments(invocation) -> list[Word] | None:
    """The words a caller starts its script with, which the script's `$1`.. and `"$@"` hold: a
    shell's (`bash run.sh --lr 1`, `./run.sh`, `source x.sh a`), a job's (`sbatch job.sh --lr 1`,
    `bsub ./job.lsf`); a word a loop gives another value each time round as written (`$lr`: not
    known). None for a `source` with none (the sourcing shell's own stay) and a PBS job (`qsub
    job.sh`: qsub passes its script none)."""
    kind = invocation.kind
    if kind != "shell" and kind != "sbatch" and kind != "bsub" or not invocation.args and invocation.command.name in SOURCERS:
        return None
    if not invocation.looped:
        return invocation.args
    written = dict(zip(map(id, invocation.run.words), invocation.command.words))
    return [written.get(id(w), w) if not any(w is c for c in invocation.command.words) else w for w in invocation.args]


def passes_on(project, launch) -> Word | None:
    """The word of a launch's arguments that is its script's own (`"$@"`, `${@:3}`, `$*`, `$ARGS`
    after `ARGS="$@"`: `ShellScript.arguments`), which each script that runs it gives
    (`run_with`); None when none is, or an if/case arm around the launch tests them (`if [ "$1" =
    eval ]`, `case $1 in`, `[ $# -gt 2 ]`: which arm runs is the caller's words' to say)."""
    arguments = project.shell[launch.caller].arguments
    if not arguments:
        return None
    at = next((w for w in launch.args if w.value is None and w.origin and arguments.get(w.origin[0], 1) <= 0), None)
    if at is None or any(b.kind == ARM and _tests_arguments(b) for b in launch.command.blocks):
        return None
    return at


def _tests_arguments(arm: Block) -> bool:
    """Whether the conditions that decide an if/case arm read the script's arguments (`$1`, `$#`,
    `"$@"`), or a variable set from one (`MODE=$1`, `MODE=${1:-train}`)."""
    return any(name and name[0] in _PARAMETERS for name in (*arm.reads, *(test[0] for test in arm.tests)))


_PARAMETERS = frozenset("123456789#@*")  # what the name of a positional parameter, or of all of them, starts with


def run_with(project, launch, invocation) -> list[Word] | None:
    """The arguments of a `launch` of a script (`passes_on`) as the caller's `invocation` runs
    the script: `"$@"` (`$@`, `${@:3}`, `$*`, or `$ARGS` after `ARGS="$@"`) is the caller's words
    (from the third on), each where the caller writes it, and a whole `$1` holds the caller's
    first. None when the caller's words are not known (`given_arguments`)."""
    given = given_arguments(invocation) if invocation.caller != launch.caller else None
    if given is None:
        return None
    return _with_arguments(launch.args, project.shell[launch.caller].arguments, given, _known_values(given))


def _known_values(given: list[Word]) -> list[str]:
    """The values of a caller's words up to the first not known (`"$@"`, `$X`: any number of
    words, so none after it stands where it is written)."""
    values: list[str] = []
    for arg in given:
        if arg.value is None:
            break
        values.append(arg.value)
    return values


def _with_arguments(words: list[Word], arguments: dict[int, int], given: list[Word], values: list[str]) -> list[Word]:
    """`words` with those that read the script's own positional parameters bound to the caller's
    `given` words (`values`: theirs, up to the first not known): a word that is its arguments
    (`"$@"`, from the `1 - number`th on) is those words, a static one with a blank among them
    not known (bash splits it again where `$@` is not quoted); `words` itself when none is."""
    bound: list[Word] = []
    changed = False
    for word in words:
        template, origin = word.template, word.origin
        number = arguments.get(origin[0], 1) if word.value is None and origin else 1
        if number <= 0 and len(origin) >= len(template) and origin[0] == origin[len(template) - 1]:  # the whole word
            changed = True
            bound += (w if w.value is None or not any(c.isspace() for c in w.value) else w._replace(value=None) for w in given[-number:])
            continue
        one = _given_word(word, arguments, values)
        changed = changed or one is not None
        bound.append(one or word)
    return bound if changed else words


_PARAMETER = lazy(r"\$(?:[1-9]|\{[1-9][0-9]*\})")  # a positional parameter as a word reads it whole


def _given_word(word: Word, arguments: dict[int, int], given: list[str | None]) -> Word | None:
    """`word` with the script's positional parameters it reads (`arguments`: `$1`, `${1}`) replaced
    by the values given for them; None when it reads none, or an unknown part stays."""
    template, origin = word.template, word.origin
    if word.value is not None or len(origin) < len(template) or "`" in template:
        return None
    parts: list[str] = []
    places: list[int] = []
    start, at = 0, template.find("$")
    while at != -1:
        number = arguments.get(origin[at])
        written = _PARAMETER.match(template, at)  # `$1`, also `$1` after a `shift`: the caller's second
        if number is None or number <= 0 or written is None:
            return None  # another part not known, or the arguments (`--tags=$@`)
        value = given[number - 1] if number <= len(given) else None
        if value is None:
            return None
        parts += (template[start:at], value)
        places += (*origin[start:at], *[origin[at]] * len(value))
        start = written.end()
        at = template.find("$", start)
    value = "".join((*parts, template[start:]))
    return Word(value, value, word.location, [*places, *origin[start:]]) if parts else None


def unplaced_defaults(command: Command) -> frozenset[str]:
    """The defaults a command took that reach it through its environment, not its words
    (`export MASTER_PORT=${MASTER_PORT:-29500}`, a prefix's `CUDA_VISIBLE_DEVICES=${GPUS:-0,1}`)."""
    if not command.word_defaults:
        return command.defaults
    return command.defaults.difference(*command.word_defaults.values())


def unworded_defaults(command: Command, after: Word, upto: Word | None = None) -> frozenset[str]:
    """The defaults the command took, after `after` and up to `upto` (its end when None), in an
    expansion that made no word (`${EXTRA:-}`, a Makefile's empty `ARGS ?=`): none of its words
    has them, but they stand where words could have been."""
    if not command.word_defaults:
        return frozenset()
    start, end = after.location, upto.location if upto is not None else None
    placed = {w.location for w in command.words}
    taken = [names for where, names in command.word_defaults.items() if where not in placed and start < where and (end is None or where <= end)]
    return command.defaults.intersection(frozenset().union(*taken))


def launch_defaults(command: Command) -> frozenset[str]:
    """The defaults that may decide a launch's own settings (its process count, its port), for
    `decided_by_caller`: those its words took up to its program (the options; but not its name
    alone: `$(PYTHON) -m torch.distributed.run`, `${PYTHON:-python3}` choose an interpreter),
    also in an expansion that made no word there (`torchrun $(LAUNCH_ARGS) train.py`, empty),
    not the program's arguments' (`train.py $(ARGS)`), and its environment's (`unplaced_defaults`)."""
    if not command.defaults or not command.words:
        return command.defaults
    launch = launch_of(command)
    run = python_run(command) if launch is None else None
    program = launch.program if launch is not None else run.target if run is not None else None
    end = program.location if program is not None else None
    words = [w for w in command.words[1:] if end is None or w.location <= end]
    took = frozenset().union(*map(command.defaults_of, words))
    return unplaced_defaults(command) | took | unworded_defaults(command, command.words[0], program)


def rendezvous_port(project, path: str, command: Command) -> Port | None:
    """The port, when static and bound by this launch, or when its option's value is one
    assignment's value not known here (`PORT=$(shuf -i 20000-30000 -n 1)`, then `--master_port
    $PORT`: `Port.drawn`). None when the launch picks a free one (`--standalone`, port 0), meets
    the others through a c10d store (a second launch on the same endpoint joins the first's store
    instead of failing), joins another launch's rendezvous (a node or machine rank other than 0),
    or the value is otherwise unknown."""
    launch = launch_of(command)
    if launch is None:
        return _python_port(command)
    if not launch.all_options_known:
        return None
    rank = setting(project, path, launch, "machine_rank" if launch.launcher == "accelerate" else "node_rank")
    if rank is not None and rank.word.value != "0":
        return None
    backend = launch.options.get("rdzv_backend")
    chosen = backend.value if backend is not None else DEFAULT_BACKEND.get(launch.launcher, "static")
    if {"standalone", "rdzv_endpoint"} & launch.options.keys() or chosen != "static":
        return None
    name = "main_process_port" if launch.launcher == "accelerate" else "master_port"
    found = setting(project, path, launch, name)
    if found is None:  # accelerate's default comes from a config we may not see
        default = launch.launcher != "accelerate"
        number = OWN_DEFAULT_PORT.get(launch.launcher, DEFAULT_PORT)
        return Port(number, f"{launch.launcher}'s default", None) if default else None
    number = whole_number(found.word)
    if number:
        return Port(number, found.said, found.word)
    drawn = _drawn(project, path, found.word) if found.word.value is None and name in launch.options else None
    return Port(None, f"{launch.spelled[name]} ${drawn.name}", found.word, drawn) if drawn is not None else None


def _drawn(project, path: str, word: Word) -> SetBy | None:
    """The assignment of the script at `path` whose value, not known here, the whole `word` is
    (`PORT=$RANDOM`, `MASTER_PORT=$(shuf -n 1 -i 10000-65535)`, `PORT=$1`, then `$PORT`: the
    expansion's `ShellScript.expansions`); not one in a function, which sets it anew at each call,
    nor in another file (`source port.sh` may run again)."""
    script = project.shell.get(path)
    if script is None or not script.expansions or word.location.path != path:
        return None
    places = set(script.written(word))
    drawn = places.pop() if len(places) == 1 else None
    if type(drawn) is not SetBy or drawn.location.path != path:
        return None
    return None if any(function.holds(drawn.location) for function in script.functions.values()) else drawn


def _python_port(command: Command) -> Port | None:
    """`MASTER_PORT=6000 python train.py`: a trainer that calls init_process_group itself.
    Only a prefix counts: an exported MASTER_PORT reaches every python of the script, most of
    which never open it. A RANK, LOCAL_RANK (Lightning's processes started by hand) or NODE_RANK
    other than 0 joins the port instead of binding it."""
    word = command.env_value("MASTER_PORT") if is_python(command.name) else None
    number = whole_number(word)
    if not number or any(_rank(command, name) not in (None, "0") for name in ("RANK", "LOCAL_RANK", "NODE_RANK")):
        return None
    return Port(number, f"MASTER_PORT={number}", word)


def _rank(command: Command, name: str) -> str | None:
    """The rank's value; "?" when it is set to something unknown."""
    word = command.env_value(name) or command.environment.get(name)
    if word is None:
        return "?" if command.has_env(name) else None
    return word.value if word.value is not None else "?"


# --- the GPUs a launch can see -----------------------------------------------------------------


class Devices(Record):
    """Devices made visible: how many, the word that lists them, how the user wrote it, and the
    variable that lists them (accelerate's `gpu_ids` become CUDA_VISIBLE_DEVICES)."""

    count: int
    word: Word
    said: str  # "CUDA_VISIBLE_DEVICES=0,1", "gpu_ids: 0,1 in acc.yaml"
    variable: str = VISIBLE


def device_list(word: Word | None, said: str, variable: str = VISIBLE) -> Devices | None:
    """`0,1,2,3` (or GPU UUIDs; `ZE_AFFINITY_MASK`'s tiles `0.0,0.1`) as a count; None when
    unknown, empty or `all`."""
    value = word.value.strip() if word is not None and word.value is not None else ""
    items = [item.strip() for item in value.split(",")]
    tiles = variable == "ZE_AFFINITY_MASK"
    if not value or not all(_device(item, tiles) for item in items):
        return None
    return Devices(len(items), word, said, variable)


def _device(item: str, tiles: bool) -> bool:
    if tiles and item.count(".") == 1:
        item = item.replace(".", "")
    return item.isdigit() or item.startswith(("GPU-", "MIG-"))


def visibility(command: Command) -> list[tuple[str, Word | None]]:
    """The device lists that decide what the command sees, as (variable, its word, None when set
    to something unknown): a prefix on it or on a wrapper, or exported by the script (or by a
    Compose/Kubernetes `environment`)."""

    def lookup(name: str) -> tuple[bool, Word | None]:
        word = command.env_value(name)
        if word is None:
            word = command.environment.get(name)
        return word is not None or command.has_env(name), word

    return deciding_lists(lookup)


def deciding_lists(lookup) -> list[tuple[str, Word | None]]:
    """The variables of `VISIBILITY` that `lookup` (name -> (set?, word)) finds set and that
    decide: the first of `OWN_VISIBLE` alone (a CUDA_VISIBLE_DEVICES left beside
    ASCEND_RT_VISIBLE_DEVICES changes nothing on the NPUs), else those of `SHARED_VISIBLE`."""
    found = []
    for name in VISIBILITY:
        is_set, word = lookup(name)
        if is_set:
            if name in OWN_VISIBLE:
                return [(name, word)]
            found.append((name, word))
    return found


def fewest_devices(lists: list[tuple[str, Word | None]]) -> tuple[bool, Devices | None]:
    """(set?, devices) of deciding device lists: the fewest of those known; (True, None) when
    none is known."""
    if not lists:
        return False, None
    known = [d for n, word in lists if (d := device_list(word, f"{n}={word.text}" if word is not None else "", n))]
    return True, min(known, key=lambda devices: devices.count) if known else None


def visible_devices(command: Command) -> tuple[bool, Devices | None]:
    """(set?, devices) of the device lists a command sees (`visibility`): the fewest known. Set
    to something unknown is (True, None): then nothing else decides it, not even a caller."""
    return fewest_devices(visibility(command))


# --- config files a program is given --------------------------------------------------------------

CONFIG_OPTIONS = (
    "--config", "--config_file", "--config-file", "--deepspeed", "--deepspeed_config", "--deepspeed_config_file",
    "--config_path",  # a file by its suffix (VideoX-Fun's `--config_path=config/wan2.1/x.yaml`); Hydra's is `--config-path`
    "--ft-cfg-path", "--ft-cfg_path",  # ft_launcher's fault-tolerance config (nvidia-resiliency-ext)
    "-opt",  # BasicSR's option file and its many forks' (`python basicsr/train.py -opt options/train/x.yml`)
    "--base", "--dataset_config",  # latent-diffusion's `main.py --base configs/x.yaml` (CogVideo sat, generative-models), sd-scripts' dataset TOML
    "--config_env", "--config_exp",  # SCAN's and the multi-task repos' of Vandenhende et al. (`--config_exp configs/x.yml`)
    "--cfg-path", "--cfg_path",  # LAVIS's and MiniGPT-4's, which load it themselves (OmegaConf.load); not habitat's `--cfg`
)  # fmt: skip
# `--config gpt2-small` names a preset, `--deepspeed '{...}'` is inline JSON: only file names count.
# (`.config`: AutoDL-Projects names its model and optimiser configs `x.config`; `.gin`: gin-config's, HIRID's `-c x.gin`)
CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".py", ".cfg", ".ini", ".conf", ".config", ".gin")


def anchored(command: Command, word: Word) -> bool:
    """Whether `word`, or the word of the command it is a part of (`--config-path=...`), starts at
    the shell's directory (`Command.anchored`): `$(pwd)/conf` is "./conf" here, but absolute when it
    runs, so not relative to anything but where the shell is (Hydra's `--config-path`)."""
    at = word.location
    return any(a.holds(at) for a in command.anchored)


def option_values(command: Command, names: tuple[str, ...]) -> list[tuple[str, Word]]:
    """(option, value word) of every `--opt v` and `--opt=v` of the command, for opt in names."""
    found = []
    words = command.words
    for i, word in enumerate(words):
        text = word.value or ""
        if text in names and i + 1 < len(words):
            found.append((text, words[i + 1]))
        elif "=" in text and text.partition("=")[0] in names:
            found.append((text.partition("=")[0], value_part(word, text.index("=") + 1)))
    return found


def config_files(command: Command) -> list[tuple[str, Word]]:
    """(option, file) a Python program or launcher is told to read at start-up: `--config x.yaml`,
    `--deepspeed ds.json`, accelerate's `--config_file`, in either spelling; a file whose path is
    not static is one by its template's suffix (`"$HERE/ds.json"`). Not the arguments of code
    written in the command (`python -c CODE`, `python - <<EOF`): no program file opens them."""
    if not runs_python(command) or is_python(command.name) and python_run(command) is None:
        return []
    return [(o, f) for o, w in option_values(command, CONFIG_OPTIONS) if (f := config_file(w)) is not None]


def runs_python(command: Command) -> bool:
    """Whether the command runs a Python program: a launcher's, python's, or a `.py` file run by
    its path, by its shebang (`./main.py --config x.yaml`: helper-349)."""
    name = command.name or ""
    return name in PY_LAUNCHERS or is_python(name) or name.endswith(".py")


def config_file(word: Word) -> Word | None:
    """The file a config option's value names, when it names one by its suffix: the word, or, for
    ml_collections' `--config=configs/vit.py:runlocal` (the text after the `:` is the argument
    config_flags hands its `get_config`), the static part before the `:`."""
    text = word.value if word.value is not None else word.template
    if text.endswith(CONFIG_SUFFIXES):
        return word
    cut = text.find(".py:") + 3
    return value_part(word, 0, cut) if cut >= 3 and word.value is not None else None


def start_directory(command: Command) -> tuple[bool, str | None]:
    """Whether the command's shell starts in a directory its file declares (a workflow step's
    `working-directory`, a service's `working_dir`: `$PWD` as the YAML front end sets it), and
    that directory relative to the project root; None when it is not one of the project's
    paths (an expression, or absolute: the runner's or the image's)."""
    word = command.environment.get("PWD")
    if word is None:
        return False, None
    if word.value is None or word.value.startswith(("/", "~")):
        return True, None
    return True, posixpath.normpath(word.value)


# Commands whose arguments may be the file a launcher runs or the config it passes: a script of the
# project makes it first.
CREATORS = frozenset(
    {"cp", "mv", "ln", "wget", "curl", "touch", "install", "rsync", "scp", "tar", "unzip", "envsubst", "gsutil", "aws"}
    | {"rm"}  # what a script removes it had (PLBART's `mv dataset/* .` from an archive, then `rm preprocess.py`)
)


class Made(Record):
    """What the project's scripts make: the names of the files they write, copy or download (`cat
    > job.sh <<EOF`, an install script's `wget`) or remove (what an archive brought), and of the directories they clone (`git clone
    URL [DIR]`: DIR's last part, else the URL's without `.git`; an MCLI run's `git_repo`
    integration: its `path:`'s, else the repository's name), also by each script that clones
    (`cloned_by`); and the project directories each script's directory links in at set-up (`ln
    -s ../../kaldi/utils .` in `egs/a/run.sh`: `kaldi/utils`, by `egs/a`). `placed`: the names of `files` that scripts make only by a `cp`
    or `ln` into a directory they name, each with the scripts and those directories as written
    (`_copied_into`), from where the script runs."""

    files: frozenset[str]
    clones: frozenset[str]
    links: dict[str, frozenset[str]] = {}
    placed: dict[str, frozenset[tuple[str, str]]] = {}
    cloned_by: dict[str, frozenset[str]] = {}

    def holds(
        self, path: str, project, made_in: Callable[[frozenset[tuple[str, str]]], bool] | None = None, by: str | None = None
    ) -> bool:
        """A file of that name is made, or the path leads into a cloned repository: through a
        directory of a clone's name that the project does not have there (olmocr's CI clones
        `olmocr` into its checkout, whose own `olmocr/` is no clone), or of one that `by`, the
        launcher the path is read in, clones itself (SkyPilot's AMD tasks clone pytorch/examples,
        then `cd examples/reinforcement_learning`, in a project with its own `examples/`: git
        clones into no directory that is there, so where the launcher's clone works, that
        directory is the clone). `made_in`, when given, says whether a name made only into known
        directories (`placed`) is made in one the path names (LL303's `_made_there`); else a file
        of the name anywhere counts."""
        parts = posixpath.normpath(path).split("/")
        name = parts[-1]
        if name in self.files and (made_in is None or name not in self.placed or made_in(self.placed[name])):
            return True
        own = self.cloned_by.get(by, ())
        return any(
            part in self.clones and (part in own or not project.on_disk("/".join(parts[: i + 1]), directory=True))
            for i, part in enumerate(parts[:-1])
        )


def made_by(project) -> Made:
    """What the project's scripts make; `Project.made` reads it once, for LL303 and LL304."""
    files, clones, links = set(), set(), {}
    placed: dict[str, set[tuple[str, str]]] = {}
    cloned_by: dict[str, frozenset[str]] = {}
    for path, script in project.shell.items():
        own = set(script.clones)  # declared by its file: an MCLI run's `git_repo` integrations
        for command in script.effective_commands():
            # Most commands redirect nothing and make nothing: no list or generator made for
            # them (`tee`, the CREATORS and `git` are distinct names).
            if command.redirects:
                files.update(
                    [_made_name(r.target) for r in command.redirects if r.target is not None and not r.op.startswith("<")]
                )
            name = command.name
            if name == "tee":
                files.update(map(_made_name, command.tee_targets()))
            elif name in CREATORS:
                copied = _copied_into(command) if name in ("cp", "ln") else None
                if copied is None or not runs_from_its_place(project, path, command):
                    files.update(_made_names(command.args))  # where is not known: by name
                else:
                    for made, directory in copied:
                        placed.setdefault(made, set()).add((path, directory))
                if name == "ln" and (linked := _linked(command)) is not None:
                    here = posixpath.dirname(path)
                    links[here] = links.get(here, frozenset()) | {joined(here, linked)}
            elif name == "git":
                own.add(_cloned(command))
            elif name in NOTEBOOK_CONVERTERS:
                files.update(_converted(command))
            elif name is None and command.words:  # `"${GET[@]}" -O installer.sh URL`, GET set in an if's arms
                files.update(_made_name(w) for _, w in option_values(command, OUTPUT_OPTIONS))
        own.discard("")
        if own:
            clones.update(own)
            cloned_by[path] = frozenset(own)
    for invocation in project.graph.invocations:  # `python -m wget URL`
        if invocation.kind == "module" and invocation.target.value in CREATORS:
            files.update(_made_names(invocation.args))
    files.update(python_made(project))  # `python gen.py --output ds.json`, `open('job.sh', 'w')`
    files.discard("")
    only_placed = {made: frozenset(places) for made, places in placed.items() if made not in files}
    return Made(frozenset(files | placed.keys()), frozenset(clones), links, only_placed, cloned_by)


def runs_from_its_place(project, path: str, command: Command) -> bool:
    """Whether the command runs where its script runs, its relative paths from there: not on
    another host or in an image, nor after a `cd` or in a step's working-directory. Where a
    `cp` or `ln` makes its copy (`made_by`), and where LL303 looks for one, is known only then."""
    return not (
        command.remote
        or project.shell[path].in_image
        or any(w.cwd_changed for w in command.wrappers)
        or start_directory(command)[0]
        or moved_before(directory_changes(project, path), command)
    )


# Options of `cp` and `ln` that take the next word (`-t DIR`, `-S SUFFIX`) or put the copy elsewhere
_ELSEWHERE = ("--target-directory", "--suffix", "--parents")


def _copied_into(command: Command) -> list[tuple[str, str]] | None:
    """The files a `cp` or `ln` makes, each a name and the directory it is made in as written,
    when its words are all static and its paths relative: `ln -snf
    ../../../librispeech/ASR/local/sort_lm_training_data.py local/` makes
    `sort_lm_training_data.py` in `local/`, one operand in `.`; the last of two may name the copy
    (`cp a.yaml conf/b.yaml`: `b.yaml` in `conf`) or its directory (`a.yaml` in `conf/b.yaml`),
    and both are taken. None when not known (`-t DIR`, `$DIR/`, `/opt/x/`): the names count
    wherever a path names them."""
    if any(w.value is None for w in command.args):
        return None
    words = [w.value or "" for w in command.args]
    options = [w for w in words if w.startswith("-")]
    if any(w.startswith(_ELSEWHERE) or not w.startswith("--") and ("t" in w or "S" in w) for w in options):
        return None
    operands = [w for w in words if not w.startswith("-")]
    if not operands or any(w.startswith(("/", "~")) for w in operands):
        return None
    *sources, destination = operands if len(operands) > 1 else (*operands, ".")
    made = [(posixpath.basename(posixpath.normpath(source)), destination) for source in sources]
    if len(sources) == 1 and not destination.endswith("/"):
        made.append((posixpath.basename(destination), posixpath.dirname(destination) or "."))
    return [(name, directory) for name, directory in made if name not in ("", ".", "..")]


# Converters of notebooks into scripts: `jupyter nbconvert --to script x.ipynb`, `jupytext --to py x.ipynb`
NOTEBOOK_CONVERTERS = frozenset({"jupyter", "jupyter-nbconvert", "jupytext"})
SCRIPT_FORMATS = ("script", "python", "py", ".py")  # `--to` values that make a Python script (`py:percent` too)


def _converted(command: Command) -> Iterator[str]:
    """The names of the scripts a notebook converter writes: `jupyter nbconvert --to script
    x.ipynb` (or `--to python`) writes `x.py`, or `NAME.py` with `--output NAME`; `jupytext --to
    py x.ipynb` likewise (flare's CI converts its tutorial, then runs `python tutorial.py`). None
    when the output's name is not known."""
    if command.name == "jupyter" and (not command.args or command.args[0].value != "nbconvert"):
        return
    to = [word.value for _, word in option_values(command, ("--to",))]
    if not to or to[-1] is None or not to[-1].startswith(SCRIPT_FORMATS):
        return
    output = [word.value for _, word in option_values(command, ("--output", "-o"))]
    if output:
        name = posixpath.basename(output[-1] or "")
        if name:
            yield name if name.endswith(".py") else f"{name}.py"
        return
    for word in command.args:
        if word.value is not None and word.value.endswith(".ipynb") and not word.value.startswith("-"):
            yield posixpath.basename(word.value)[: -len(".ipynb")] + ".py"


def _linked(command: Command) -> str | None:
    """The relative path an `ln` links to (`ln -s ../../kaldi/utils .`, `ln -sf ../x utils`), when
    its words are all known and it names one or two paths."""
    words = [w.value for w in command.args]
    targets = [w for w in words if w is not None and not w.startswith("-")]
    if len(targets) in (1, 2) and None not in words and not targets[0].startswith(("/", "~")):
        return targets[0]
    return None


def _made_names(args: Iterable[Word]) -> Iterator[str]:
    """The files a copying or downloading command's arguments may make: every argument but its
    options (`wget -q URL`, `curl -o - URL`), whose words name no file."""
    for word in args:
        if not (word.value if word.value is not None else word.template).startswith("-"):
            yield _made_name(word)


# The options that name the file a download writes (wget's, curl's): what a command whose program
# is not known makes, when it names one (the program may well be wget: LL303 and LL304 stay silent)
OUTPUT_OPTIONS = ("-O", "-o", "--output-document", "--output")


def _made_name(word: Word) -> str:
    """The name of the file a word makes: its value's last part, or its template's when only the
    directory is unknown (`"$PWD/job.env"`, `"$OUT_DIR/config.yaml"`); "" when the name is unknown."""
    name = posixpath.basename(word.value if word.value is not None else word.template)
    return "" if word.value is None and any(mark in name for mark in "$`*?[") else name


START = "<start>"  # where a launcher starts: its own directory, the root, or one between (`cd -` back there)


def directory_changes(project, path: str) -> DirectoryChanges:
    """The `cd`s, `pushd`s and `popd`s of a launcher, in the order the shell runs them: its place
    among the launcher's commands, the project directory the shell is in after it, when it is
    one (a static relative path that is a directory next to the launcher or under the root,
    START when back where it started: `cd data && ./get.sh && cd -`, or `cd ..`; None for
    anywhere else: absolute, computed, outside the project), the shell it moves, as its
    `wrappers` (`ssh host 'cd /w && ...'` moves the remote shell, not the launcher's), and the
    target as written, and the subshell it is in (`(cd data && make)` moves only that one); and
    each command's place. Places, not locations: the commands of `eval $CMD` all stand at `$CMD`.
    Sourcing a file that changes directory (`source utils.sh`, whose `start` function does `cd
    $BASE/$EXAMPLE`) goes anywhere, and so does a call of a function that may run a `cd` among
    its words (`Command.moves`). A `cd` into a directory the launcher makes (`mkdir -p data &&
    cd data`) is no project directory (not the project's `data/`), though where it leads is still
    followed (`cd ..` comes back). See `moved_before` and `cds_before`. Read once per launcher in
    a run (the graph, LL109, LL301's `path_there`, LL303 and LL304 ask it one launch at a time:
    once per launch was quadratic, minutes for a 10 MB launcher)."""
    known = project.__dict__.setdefault("_directory_changes", {})
    if path not in known:
        known[path] = _directory_changes(project, path)
    return known[path]


def _directory_changes(project, path: str) -> DirectoryChanges:
    commands = project.shell[path].commands
    changes = []
    shells: dict[tuple, tuple] = {}  # a shell's (where, where before), where: START, ("rel", path), ("dir", path) or None
    made: set[str] = set()  # the directories the launcher makes (`mkdir -p data/raw`: data and data/raw)
    for place, command in enumerate(commands):
        # one inside `$(...)` moves only that subshell (its block), as one in `( ... )` does:
        # `DIR=$(cd "$(dirname "$0")" && pwd)`, `out=$(cd /opt/other && python run.py)`
        name = command.name
        if name == "mkdir":
            made.update(d for w in command.args if w.value and not w.value.startswith("-") for d in _with_parents(w.value))
            continue
        anywhere = command.moves or name in SOURCERS and _effect(project, path, command, MAX_SOURCE_DEPTH).moves
        if not anywhere and name not in DIRECTORY_CHANGERS:
            continue
        subshell = next((b for b in reversed(command.blocks) if b.kind == SUBSHELL), None)
        key = (tuple(map(id, command.wrappers)), subshell)
        outer = (key[0], next((b for b in reversed(command.blocks) if b.kind == SUBSHELL and b is not subshell), None))
        here, before = shells.get(key) or shells.get(outer) or (START, START)
        word = None if anywhere else next((w for w in command.args if not (w.value or "").startswith("-") or w.value == "-"), None)
        target = None if word is None else word.value
        if anywhere:
            where = None
        elif name == "popd" or target == "-":  # back (`popd` as if the stack were one deep)
            where = before
        else:
            where = _moved_to(here, word, path)
        shells[key] = (where, here)
        # `mkdir -p data && cd data`: a directory of the launcher's own, not the project's `data/`
        # (where it goes is followed still: `cd ..` comes back)
        made_here = bool(target) and not target.startswith("/") and posixpath.normpath(target) in made
        changes.append((place, None if made_here else _directory(project, path, where), command.wrappers, target, subshell))
    return DirectoryChanges(changes, {id(command): place for place, command in enumerate(commands)})


class DirectoryChanges:
    """A launcher's `cd`s (of `directory_changes`): each (its place, the project directory after
    it, the wrappers of the shell it moves, the target as written, its subshell), and each
    command's place. They are kept by the shell they move, each shell's in order, so the changes
    before a command are looked for only in the shells it inherits from (`before`): reading all
    of a launcher's `cd`s for each of its commands was quadratic (a launcher of 2,000 `ssh host
    'cd /work && ...'` blocks spent most of its run there)."""

    def __init__(self, changes: list[tuple[int, str | None, tuple, str | None, Block | None]], places: dict[int, int]) -> None:
        self.places = places
        self.by_shell: dict[tuple, list[tuple]] = {}  # (ids of its wrappers, its subshell or None) -> changes
        for change in changes:
            self.by_shell.setdefault((tuple(map(id, change[2])), change[4]), []).append(change)
        self.at = {shell: [change[0] for change in made] for shell, made in self.by_shell.items()}

    def before(self, command: Command) -> Iterator[tuple]:
        """The changes that run before `command`, the last first: those of the shell it runs in
        or one it inherits its directory from (a `cd` whose wrappers begin the command's), not
        in a subshell it is outside of."""
        here = self.places.get(id(command), len(self.places))
        wrappers, subshells = command.wrappers, dict.fromkeys((None, *command.blocks))
        shells = []
        for depth in range(len(wrappers) + 1):
            ids = tuple(map(id, wrappers[:depth]))
            for subshell in subshells:
                made = self.by_shell.get((ids, subshell))
                if made is not None:
                    shell = (ids, subshell)
                    shells.append(map(made.__getitem__, range(bisect_left(self.at[shell], here) - 1, -1, -1)))
        if len(shells) < 2:
            return shells[0] if shells else iter(())
        return merge(*shells, key=itemgetter(0), reverse=True)


def _with_parents(path: str) -> list[str]:
    """`data/raw` and `data`: the directories `mkdir -p data/raw` makes."""
    parts = posixpath.normpath(path).split("/")
    return ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]


def _moved_to(here, word: Word | None, path: str):
    """Where a `cd WORD` from `here` goes: relative to where the launcher started while it
    stays so, a project directory after `cd "$(dirname "$0")"`, else None (unknown)."""
    own = None if word is None else own_path(word, path)
    if own is not None:  # `cd "$(dirname "$0")"`: the launcher's own directory (and a path from there)
        return ("dir", own)
    target = None if word is None else word.value
    if not target or target.startswith(("/", "~", "$")) or here is None:
        return None
    base = "." if here == START else here[1]
    there = joined(base, target)
    if there == ".":
        return START if here == START or here[0] == "rel" else ("dir", there)
    return (here[0] if here != START else "rel", there)


def _directory(project, path: str, where) -> str | None:
    """The project directory a place is (START as it is; None when it is not one, or is empty:
    `cd third_party/pygloo` into a submodule a clone leaves empty, `Project.filled`). A place
    named after the checkout (`cd proj` in proj's README, after its `git clone`) is the project's."""
    if where is None or where == START:
        return where
    kind, target = where
    first, _, rest = target.partition("/")
    if kind == "rel" and first in checkout_names(project, path) and not project.on_disk(first, directory=True):
        # `git clone https://github.com/me/proj.git`, `cd proj`: a README's install steps, into
        # the project itself (its checkout's name, where the project has no directory of it)
        if not rest:
            return START
        target = rest
    for base in ("",) if kind == "dir" else (posixpath.dirname(path), ""):
        candidate = joined(base, target)
        if candidate != ".." and not candidate.startswith("../") and project.filled(candidate):
            return candidate
    return None


def moved_before(changes: DirectoryChanges, command: Command) -> list[str | None]:
    """Where the `changes` (of `directory_changes`) moved, before `command` runs, the shell that
    runs it or one it inherits its directory from: a `cd` whose wrappers begin the command's
    (`cd /opt/runner` then `sudo ./svc.sh`), not one in a string the command is outside of, nor
    in a subshell it is outside of; since the shell was last back where it started, or since
    the last that went somewhere not known (None), which begins the list then: callers ask
    whether one did (`None in`), for the last, and for all of them when each is known."""
    moved = []
    for change in changes.before(command):
        if change[1] == START:
            break
        moved.append(change[1])
        if change[1] is None:
            break  # somewhere not known: what came before it no longer matters
    return moved[::-1]


def gitignored_there(project, launcher: str, written: str) -> bool:
    """A relative path that a .gitignore of the project hides as a file each user makes and the
    repository never holds, from the launcher's directory or from the root (`_user_made`), which
    LL303 and LL304 do not call missing."""
    if not written or written.startswith(("/", "~")):
        return False
    places = {joined(posixpath.dirname(launcher), written), posixpath.normpath(written)}
    return any(_user_made(project, place) for place in places if place != "." and not place.startswith("../"))


def _user_made(project, place: str) -> bool:
    """Whether .gitignore hides `place` by its own name (swiss-ai's Makefile sources a developer's
    own `.test.sh` of credentials; `configs/local*.yaml`), or in a directory made in one whose
    every entry it hides (`/checkpoints/*` with `!/checkpoints/.gitkeep`: GeneFace's runs write
    `checkpoints/May/run/config.yaml`). Not a path in a directory it hides by name (`data/`, a
    dataset's, hides WenetSpeech's and wespeaker's `utils/data/*.sh` scripts too), nor one it hides
    by its kind, as it would any file of its suffix there (LLaVA's `*.json` kept DoRA's copy from
    committing its `scripts/zero3.json`: 13 LL304 true)."""
    if not project.gitignored(place):
        return False
    parts = place.split("/")
    for cut in range(1, len(parts)):
        if project.gitignored("/".join(parts[:cut]) + "/"):  # the topmost hidden directory
            parent = "/".join(parts[: cut - 1])
            return bool(parent) and project.gitignored(f"{parent}/{UNNAMED}/")
    suffix = posixpath.splitext(parts[-1])[1]
    return not (suffix and project.gitignored(joined(posixpath.dirname(place), UNNAMED + suffix)))


UNNAMED = "launchlint-any-name"  # a directory or file name no .gitignore pattern names


def after_cd(changes: DirectoryChanges, command: Command) -> str | None:
    """The project directory the `changes` (of `directory_changes`) move the shell that runs
    `command` into, when each of them is known (the last of `moved_before`; "." the root): a
    relative path the command writes is that directory's (LL303's "under autoencoder/, where the
    launcher cds"), and the program it names from where the launcher started may be the one
    meant (`programs.meant_before_cd`, LL301's and LL302's). None when no `cd` runs first, or one
    goes somewhere not known."""
    moved = moved_before(changes, command)
    return moved[-1] if moved and None not in moved else None


def cds_before(changes: DirectoryChanges, command: Command, within: int) -> list[str | None]:
    """The `cd`s' targets as written (None when not static) that run before `command` inside
    `within` of its wrappers: a remote shell inherits nothing from the launcher's."""
    return [change[3] for change in changes.before(command) if len(change[2]) >= within][::-1]


def cds_there(changes: DirectoryChanges, command: Command) -> list[str | None]:
    """`cds_before` within the shell `command` runs in (`own_shell`), after where its file starts
    that shell when that may be elsewhere, as if a `cd` there ran first: a home's directory, or
    one not known (a SkyPilot task's `workdir: ~/transformers`, or its git repository: `$PWD` as
    the YAML front end sets it). A static absolute one (a Compose service's `working_dir: /app`)
    is left out: there the paths are read by name."""
    within = own_shell(command)
    cds = cds_before(changes, command, within)
    start = None if within else command.environment.get("PWD")
    if start is not None and (start.value is None or start.value.startswith("~")):
        return [start.value, *cds]
    return cds


def own_shell(command: Command) -> int:
    """How many of the command's wrappers come before the shell it runs in, when that is not the
    launcher's (`ssh host '...'`, a container's, a tmux pane's): `cds_before`'s `within`."""
    return next((i for i, w in enumerate(command.wrappers) if w.remote or w.cwd_changed), -1) + 1


SKY_WORKDIR = "~/sky_workdir"  # where SkyPilot syncs a task's `workdir:`: the project, unless it names another (`cds_there`)


def into_elsewhere(target: str | None, names: tuple[str, ...] = ()) -> bool:
    """A `cd` target (of `cds_before`) that is no directory known here: given by a variable or
    computed (None), or a home's (`~/other`, a bare `cd`); there, another checkout. A static
    absolute one (`cd /srv/job`) is known: its paths are checked by name; so is SkyPilot's
    `~/sky_workdir`, the project synced, and a home's directory of a name the checkout goes by,
    or one below it (`names`: `ssh gpu1 "cd ~/proj && python train.py"` in proj's launcher,
    helpers 319, 320, 332; `cd ~/proj/scripts`, helpers 341, 342)."""
    if target is not None and (target == SKY_WORKDIR or target.startswith(SKY_WORKDIR + "/")):
        return False
    if target is not None and home_checkout(target, names) is not None:
        return False
    return target is None or target.startswith("~")


def home_checkout(target: str, names: tuple[str, ...]) -> str | None:
    """The project's directory a home's path leads into, through a directory of a name the
    checkout goes by (`~/proj` the root: "."; `~/code/proj/scripts`: "scripts"), else None."""
    if not target.startswith("~/"):
        return None
    parts = posixpath.normpath(target[2:]).split("/")
    found = next((i for i, part in enumerate(parts) if part in names), None)
    return None if found is None else "/".join(parts[found + 1 :]) or "."


def not_ours_after_cd(project, caller: str, command: Command, path: str) -> bool:
    """Whether a `cd` that runs before `command` in its own shell (`ssh host '...'`, a container's,
    a tmux pane's), or where its file starts that shell (`cds_there`), takes a relative `path` out
    of the project's hands (`_not_ours`). LL303 asks it of a script, LL304 of a config file,
    `path_there` of LL301's and LL302's program."""
    return _not_ours(project, cds_there(directory_changes(project, caller), command), path, caller)


def _not_ours(project, targets: list[str | None], path: str, caller: str) -> bool:
    """Whether one of the `cd` targets (as written) takes a relative `path` out of the project's
    hands: it goes somewhere not known here (`into_elsewhere`), or into a repository a script
    clones that the path then leads into (`git clone URL bench && cd bench && python src/run.py
    --config configs/x.yaml`: the clone's files; `Made.holds`, the launcher `caller`'s own clone
    whatever directories the project has)."""
    names = (project.directory_name,) if project.directory_name else ()
    return any(
        into_elsewhere(t, names) or (t and project.made.holds(posixpath.join(t, path), project, by=caller))
        for t in targets
    )


def path_there(project, caller: str, command: Command, path: str) -> str | None:
    """The relative program `path` as the shell that runs `command` finds it after its `cd`s:
    from the last absolute one, that directory's file (`cd /opt/job && python x.py`:
    `/opt/job/x.py`, which names the project's file only as an absolute path does,
    `paths.may_name`); None when a `cd` takes it out of the project's hands (`_not_ours`: `cd
    ~/other`, and on another host `cd $REMOTE_DIR` too); `path` itself with no absolute `cd`
    before it, and an absolute or home path as it is. In a shell of its own (`ssh host '...'`, a
    container's, a tmux pane's) every `cd` there counts (`not_ours_after_cd`); in the launcher's
    own, where those from the last absolute one on lead (`_absolute_directory`), while they say
    where: after one not known (`cd $ROOT`), the path is as it is. LL301's and LL302's program
    (`programs.launched`)."""
    if path.startswith(("/", "~")):
        return path
    changes = directory_changes(project, caller)
    if command.remote or project.shell[caller].in_image or any(w.cwd_changed for w in command.wrappers):
        targets = cds_there(changes, command)
    else:
        directory = _absolute_directory(changes, command)
        targets = [] if directory is None else [directory]
    if _not_ours(project, targets, path, caller):
        return None
    last = next((i for i in range(len(targets) - 1, -1, -1) if targets[i].startswith(("/", "~"))), None)
    if last is None:
        return path
    if targets[last].startswith("~"):  # SkyPilot's `~/sky_workdir`, or the checkout's name in a home: the project
        names = (project.directory_name,) if project.directory_name else ()
        below = home_checkout(targets[last], names) or "."
        return posixpath.normpath(posixpath.join(below, *targets[last + 1 :], path))
    return posixpath.normpath(posixpath.join(*targets[last:], path))


def _absolute_directory(changes: DirectoryChanges, command: Command) -> str | None:
    """The directory the `cd`s moved the launcher's own shell into where it runs `command`, as
    written from the last static absolute (or home) one on (`cd /opt/other && cd tool`:
    `/opt/other/tool`; `cd ~ && cd proj`: `~/proj`), when they say where it is: none after it is
    back (`cd -`, `popd`), into a directory known here (`cd "$(dirname "$0")"`) or not static
    (`cd $ROOT`). None with no `cd`, or one into a project directory or somewhere not known, from
    where the path is read as written (`after_cd`)."""
    since: list[str] = []
    for change in changes.before(command):  # the last first
        target = change[3]
        if change[1] is not None or target is None or target == "-":
            return None
        since.append(target)
        if target.startswith(("/", "~")):
            return posixpath.join(*reversed(since))
    return None


# `git clone` options that take the next word for their value
_CLONE_VALUED = {
    "-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "--reference", "-j", "--jobs",
    "--separate-git-dir", "-u", "--upload-pack", "--template", "--shallow-since", "--shallow-exclude",
    "--filter", "--server-option",
}  # fmt: skip


def _cloned(command: Command) -> str:
    """The name of the directory a `git clone` makes: its second operand, else the repository's
    last part without `.git` (`git clone $REPO levanter` makes `levanter` whatever `$REPO` is);
    "" for any other git command, or when neither is known."""
    words = command.args
    values = [w.value for w in words]
    if "clone" not in values:
        return ""
    operands: list[str | None] = []
    after = values[values.index("clone") + 1 :]
    i = 0
    while i < len(after) and len(operands) < 2:
        value = after[i]
        if value is not None and value.startswith("-") and value != "-":
            i += 2 if value in _CLONE_VALUED else 1
            continue
        operands.append(value)
        i += 1
    if len(operands) == 2 and operands[1]:
        directory = operands[1]
    elif operands and operands[0]:
        directory = operands[0].rstrip("/").removesuffix(".git")
    else:
        return ""
    return directory.rstrip("/").rpartition("/")[2]


class ProjectFiles:
    """Every file under the project root, not only the ones launchlint reads (a config is
    JSON or TOML as often as YAML), for asking whether a path a launcher names exists."""

    def __init__(self, project):
        self.project = project
        self.resolver = Resolver(project, files=project.listing())

    def on_disk(self, path: str, *, directory: bool = False) -> bool:
        """Also true for a file .gitignore hides from the walk (a config made by a setup step)."""
        return self.project.on_disk(path, directory=directory)

    def holds(self, word: Word, caller: str, *, remote: bool, near: tuple[str, ...] = (), placed: bool = False) -> bool:
        """The path resolves as a script path does (next to the caller, at the root, a path-map
        prefix, a unique name; remote paths by name only); or is on disk next to the caller, at
        the root, in a `near` directory or one above the caller; or leads out of the project from one of those
        directories (not ours to judge), unless `placed`: the launcher says where it runs, and the
        path leads into the project from there (wenet's recipes source `./path.sh`, and their
        `../../aishell/s0/conf/ds_stage2.json` leaves the project only from `examples/`, where they
        never run); or some project file ends with it when it has a
        directory (the launcher `cd`s first: `configs/ds.json` is `examples/configs/ds.json`), but
        not one of a project nested here that does not hold the launcher (`Resolver.answers_for`).
        A bare local name that several files have is none of them: the name does not say which."""
        value = word.value or ""
        if self.resolver.resolve(word, caller, remote=remote) is not None:
            return True
        # On disk (a file .gitignore hides too: `*.json` with a committed `scripts/zero3.json`),
        # from the launcher's directory, `near` ones and those above the launcher, where it is run.
        for place in () if remote else (posixpath.dirname(caller), *near, *directories_above(caller)):
            candidate = joined(place, value)
            if candidate.startswith("../"):
                if not placed:
                    return True
            elif self.on_disk(candidate):
                return True
        if not remote and self.on_disk(posixpath.normpath(value)):
            return True
        tail = posixpath.normpath(value)
        if "/" not in tail and not remote:
            return False
        return any(
            (p == tail or p.endswith("/" + tail)) and (remote or self.resolver.answers_for(p, caller, value))
            for p in self.resolver.by_name.get(posixpath.basename(tail), [])
        )


def missing_own_path(project, caller: str, word: Word) -> str | None:
    """The path from the launcher's own directory that `word` names (`"$(dirname "$0")/train.py"`,
    see `graph.own_path`) when no file is there: none on disk or made by a script, not tested for
    by the launcher, not a virtualenv's, and leading into the project (`into_own_directory`); None
    for any other word. LL303's test for a script, LL304's for a config file."""
    own = own_path(word, caller)
    if (
        own is None
        or own.startswith("../")
        or word.template in project.shell[caller].tested
        or project.on_disk(own)
        or project.made.holds(own, project, by=caller)
        or not into_own_directory(project, caller, own)
        or in_a_virtualenv(own)
    ):
        return None
    return own


def into_own_directory(project, caller: str, own: str) -> bool:
    """A path from the launcher's own directory leads into the project: its directory is one the
    project has, or starts in one below the launcher's (not `$HERE/../tools/x.py` or
    `$HERE/thirdparty/x.py` where neither exists: a directory made at set-up), or the same path
    is the project's from a directory above (`$HERE/scripts/models/x.sh` from `scripts/`, or
    `$HERE/../scripts/models/x.sh` from `scripts/fp8/`, where `scripts/models/x.sh` is: written
    from the root's view)."""
    base = posixpath.dirname(caller)
    below = posixpath.relpath(own, base or ".")
    if into_the_project(project, base, below):
        return True
    tail = below
    while tail.startswith("../"):
        tail = tail[3:]
    return any(project.on_disk(posixpath.join(p, tail)) for p in (*directories_above(caller), ""))


def into_the_project(project, base: str, path: str) -> bool:
    """The path's directory (from `base`) is one the project has, or starts in one (`tasks/` of a
    stale `tasks/msdp/main.py`); not a directory a clone or a download makes, nor an empty one
    (`Project.filled`: meditron's `Megatron-LLM/` submodule, empty in a clone without it), nor
    one inside an empty one (tenset's `3rdparty/dmlc-core/scripts/lint.py`)."""
    if project.filled(posixpath.dirname(joined(base, path))):
        return True
    first, *between = posixpath.normpath(path).split("/")[:-1] or [""]
    here = posixpath.join(base, first)
    if first == ".." or not project.filled(here):
        return False
    for part in between:  # down to the last directory of the path's the project has
        here = posixpath.join(here, part)
        if not project.on_disk(here, directory=True):
            return True
        if not project.filled(here):
            return False
    return True


def project_files(project) -> ProjectFiles:
    """Walked once per project, when a rule first asks."""
    cache = project.__dict__
    if "_project_files" not in cache:
        cache["_project_files"] = ProjectFiles(project)
    return cache["_project_files"]


class Sourced(Record):
    """What the files a shell sourced leave in effect for the commands after them."""

    pipefail: bool | None  # what they leave it: on (one turned it on), off (`set +o pipefail`), None: as it was
    exported: frozenset[str]  # the names they exported
    moves: bool = False  # one of them has a `cd`/`pushd`, in a function too: where the shell is is not known
    values: tuple[tuple[str, Word], ...] = ()  # where the exported ones got their values, the last file's, once a name

    def value(self, name: str) -> Word | None:
        """The word an exported variable got its value from in the files sourced."""
        return next((word for found, word in reversed(self.values) if found == name), None)


NOTHING_SOURCED = Sourced(None, frozenset())
MAX_SOURCE_DEPTH = 4  # files sourcing files: `source common.sh`, which sources `env.sh`, ...


def sourced_before(project, path: str, command: Command) -> Sourced:
    """What the files sourced (`source common.env`, `. ./path.sh`) by the shell that runs
    `command`, before it, leave in effect: `set -o pipefail`, `export PYTHONUNBUFFERED=1`. A file
    in a `$(...)` or in another shell (`bash -c`, ssh) does not count, nor one after the command.
    Read from the file's facts when launchlint analyses it as shell, else from its text: a
    `common.env` is shell to the `source` that reads it, whatever its name."""
    sources, places = sources_of(project, path)
    if not sources:
        return NOTHING_SOURCED
    here = places.get(id(command), 0)
    in_order = _sources_in_order(project, path, sources)
    if command.wrappers == ():  # the script's own shell: what its sources up to here left, merged once
        return in_order.before(here)
    sourced = NOTHING_SOURCED
    for place, other in in_order.wrapped.get(tuple(id(w.command) for w in command.wrappers), ()):
        if place >= here:
            break
        if other.wrappers == command.wrappers:
            sourced = _merged(sourced, _effect(project, path, other, MAX_SOURCE_DEPTH))
    return sourced


def pipefail_of(project, path: str, pipeline: Pipeline) -> tuple[bool, Command | None]:
    """Whether pipefail is in effect for the pipeline, and the `source` command that decided it,
    if one did: as its shell last set it itself (`Pipeline.pipefail`), unless a file sourced in
    that shell after that, and before the pipeline, sets it again (`set -o pipefail` on, a
    top-level `set +o pipefail` off: `ShellScript.pipefail_set`); the last such file decides."""
    pipefail, decided = pipeline.pipefail, None
    sources, places = sources_of(project, path)
    if not sources or not pipeline.stages[0]:
        return pipefail, decided
    at = places.get(id(pipeline.stages[0][0]), 0)
    in_order = _sources_in_order(project, path, sources)
    if pipeline.wrappers == ():  # the last file of the script's own shell to set it, found once
        last = in_order.last_setting(at)
        if last is not None and in_order.places[last] >= pipeline.pipefail_at:
            return in_order.effect(last).pipefail, in_order.commands[last]
        return pipefail, decided
    for place, other in in_order.wrapped.get(tuple(id(w.command) for w in pipeline.wrappers), ()):
        if place >= at:
            break
        if place >= pipeline.pipefail_at and other.wrappers == pipeline.wrappers:
            effect = _effect(project, path, other, MAX_SOURCE_DEPTH).pipefail
            if effect is not None:
                pipefail, decided = effect, other
    return pipefail, decided


class _SourcedInOrder:
    """A script's `source` commands in its own shell (no wrappers), in order, and what those up
    to each one leave, merged as `sourced_before` merges them, as far as any command asked:
    merging every earlier one again for each command asking was quadratic (a launcher of 1,000
    blocks that each `source env.sh`), and the last of them to set pipefail (`pipefail_of`). The
    others by the commands of their wrappers (the same wrappers have the same commands): a
    command in `eval` or `bash -c` reads only those of its own string."""

    def __init__(self, project, path: str, sources: list[tuple[int, Command]]) -> None:
        self.project, self.path = project, path
        own = [(place, c) for place, c in sources if c.wrappers == ()]
        self.places = [place for place, _ in own]
        self.commands = [c for _, c in own]
        self.merged = [NOTHING_SOURCED]  # merged[k]: the first k of them
        self.setting: list[int | None] = [None]  # setting[k]: the last of the first k to set pipefail
        self.wrapped: dict[tuple[int, ...], list[tuple[int, Command]]] = {}
        for place, c in sources:
            if c.wrappers != ():
                self.wrapped.setdefault(tuple(id(w.command) for w in c.wrappers), []).append((place, c))

    def before(self, here: int) -> Sourced:
        """What those before the place `here` leave, merged in order."""
        return self.merged[self._read(here)]

    def last_setting(self, here: int) -> int | None:
        """The last of those before the place `here` whose file sets pipefail (on or off)."""
        return self.setting[self._read(here)]

    def effect(self, index: int) -> Sourced:
        return _effect(self.project, self.path, self.commands[index], MAX_SOURCE_DEPTH)

    def _read(self, here: int) -> int:
        """How many come before the place `here`, their effects read."""
        count = bisect_left(self.places, here)
        while len(self.merged) <= count:
            index = len(self.merged) - 1
            effect = self.effect(index)
            self.merged.append(_merged(self.merged[-1], effect))
            self.setting.append(index if effect.pipefail is not None else self.setting[-1])
        return count


def _sources_in_order(project, path: str, sources: list[tuple[int, Command]]) -> _SourcedInOrder:
    found = project.__dict__.setdefault("_sources_in_order", {})
    if path not in found:
        found[path] = _SourcedInOrder(project, path, sources)
    return found[path]


def sources_of(project, path: str) -> tuple[list[tuple[int, Command]], dict[int, int]]:
    """The script's `source` commands (not in `$(...)`) with their places among its commands,
    and each command's place (none when it sources nothing: most scripts), found once a run."""
    found = project.__dict__.setdefault("_sources", {})
    if path not in found:
        commands = project.shell[path].commands
        sources = [
            (place, c) for place, c in enumerate(commands) if c.name in SOURCERS and c.stdout.kind != CAPTURED
        ]  # fmt: skip
        found[path] = sources, {id(c): place for place, c in enumerate(commands)} if sources else {}
    return found[path]


def _effect(project, path: str, command: Command, depth: int) -> Sourced:
    """What sourcing the file `command` names leaves in effect, with the files it sources; made
    once a run for each `source` command and depth (a file sourcing the next 16 times, four
    deep, was 16^4 walks for each command asking)."""
    known = project.__dict__.setdefault("_effects", {})
    key = (path, command.location, depth)
    found = known.get(key)
    if found is None:
        found = known[key] = _new_effect(project, path, command, depth)
    return found


def _new_effect(project, path: str, command: Command, depth: int) -> Sourced:
    script = sourced_script(project, path, command.words[1]) if len(command.words) > 1 and depth else None
    if script is None:
        return NOTHING_SOURCED
    moves = any(c.name in DIRECTORY_CHANGERS and c.stdout.kind != CAPTURED for c in script.commands)
    exported = script.final_exported
    if command.location in project.shell[path].exporting_sources:  # `set -a; source .env; set +a`
        exported = exported | script.final_variables
    values = tuple((name, word) for name, word in script.final_assigned.items() if name in exported)
    # Turned on anywhere (a function it defines too), else its last top-level `set +o pipefail`.
    pipefail = True if script.final_pipefail else script.pipefail_set
    effect = Sourced(pipefail, exported, moves, values)
    for place, inner in enumerate(script.commands):
        if inner.name in SOURCERS and not inner.wrappers and inner.stdout.kind != CAPTURED:
            sourced = _effect(project, script.path, inner, depth - 1)
            if pipefail is not None and place < script.final_pipefail_at:
                sourced = sourced._replace(pipefail=None)  # the file sets it again after this one
            effect = _merged(effect, sourced)
    return effect


def _merged(a: Sourced, b: Sourced) -> Sourced:
    """`a`, then `b` sourced after it: a name's value is the last file's (each name kept once,
    so a file sourced many times does not grow the values), and pipefail the last that sets it."""
    later = {name for name, _ in b.values}
    values = tuple(item for item in a.values if item[0] not in later) + b.values
    pipefail = a.pipefail if b.pipefail is None else b.pipefail
    return Sourced(pipefail, a.exported | b.exported, a.moves or b.moves, values)


def sourced_script(project, path: str, word: Word):
    """The facts of the project file a `source` word names: next to the script that sources it,
    else from the root (bash looks in the working directory), or from the script's own directory
    (`$(dirname "$0")/common.env`)."""
    candidates = sourced_candidates(word, path)
    for candidate in candidates:
        if candidate == ".." or candidate.startswith("../"):
            continue
        if candidate in project.files:
            return project.shell.get(candidate) if project.files[candidate].kind == "shell" else None
        script = project.sourced_script(candidate)
        if script is not None:
            return script
    # From a directory between the script's and the root, where it may be run (minigo's
    # `ml_perf/scripts/train.sh`, run from `minigo/`, sources `ml_perf/scripts/common.sh`): a
    # project file there, the disk not asked
    for directory in directories_above(path) if len(candidates) > 1 else ():
        candidate = joined(directory, word.value)
        if candidate in project.files:
            return project.shell.get(candidate) if project.files[candidate].kind == "shell" else None
    return None
