"""Facts the shell front end extracts: what rules read instead of a syntax tree.

Every command, including the ones nested in `ssh`, `tmux` and `bash -c` strings, becomes one
`Command` with its words' static values, its environment, and where its stdout and stderr go.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import cached_property

from .lazyre import lazy
from .model import Location, Record

# Stream destinations (Sink.kind).
INHERIT = "inherit"  # whatever the script's caller gave it
PIPE = "pipe"  # the next stage of a pipeline
FILE = "file"  # a file named by a redirect
NULL = "null"  # /dev/null
PROCSUB = "procsub"  # a process substitution >(...)
DETACHED = "detached"  # the pane of a detached tmux/screen session: gone when it dies
# The log of a job a scheduler runs after the submission returned (`sbatch --wrap`'s slurm-%j.out,
# Ray's job log after `ray job submit --no-wait`): kept, but not by this script's pipes or files.
SUBMITTED = "submitted"
CAPTURED = "captured"  # the output of $(...): read by the shell, never reaches a log


class ShellArgs(Record):
    """What `bash [options] [operand ...]` is given (see `shell_args`)."""

    operand: int | None  # index of the script, or with `-c` of the command string (its value may be unknown)
    command_string: bool  # `-c`: the operand is a command string, not a script
    pipefail: bool  # `-o pipefail` (also in a cluster: `-eo pipefail`)
    allexport: bool = False  # `-a`, `-o allexport`: every variable set from then on is exported


SOURCERS = frozenset({"source", "."})  # `source FILE ARGS`: no options, the first word is the file

# bash's long options that take the next word (`--rcfile FILE`); the others take none.
_SHELL_LONG_VALUED = frozenset({"--rcfile", "--init-file"})


def shell_args(values: Sequence[str | None], pipefail: bool = False, allexport: bool = False) -> ShellArgs:
    """Read a shell's arguments (`values`, the words after its name) as bash does: options first,
    `-c` among them a flag, `-o NAME` and `-O NAME` (also ending a cluster: `-eo pipefail`,
    `+O extglob`) each taking the next word; then the first operand is the script, or with `-c`
    the command string. A word whose value is unknown stands where the operand is; `-` (standard
    input) is no operand, nor is any word after `-s` (the commands come from standard input, the
    words are its arguments: `curl URL | bash -s -- --prefix /opt`). `pipefail`: in effect before
    these options (`set`'s are read so too: `-o pipefail` turns it on, `+o pipefail` off), and
    `allexport` likewise (`set -a`, `set +a`, `-o allexport`)."""
    command_string = stdin = False
    i = 0
    while i < len(values):
        value = values[i]
        if value is None:
            break
        if value == "-":
            return ShellArgs(None, command_string, pipefail)
        if value == "--":
            i += 1
            break
        if value.startswith("--"):
            i += 2 if value in _SHELL_LONG_VALUED else 1
            continue
        if len(value) < 2 or value[0] not in "-+":
            break
        named = [letter for letter in value[1:] if letter in "oO"]  # each takes a word, in order
        command_string = command_string or "c" in value[1:]
        stdin = stdin or (value[0] == "-" and "s" in value[1:])
        given = [values[i + 1 + k] if i + 1 + k < len(values) else None for k, n in enumerate(named) if n == "o"]
        if "pipefail" in given:
            pipefail = value[0] == "-"
        if "allexport" in given or "a" in value[1:]:
            allexport = value[0] == "-"
        i += 1 + len(named)
    return ShellArgs(i if i < len(values) and (command_string or not stdin) else None, command_string, pipefail, allexport)


class Word(Record):
    """One shell word after quote removal.

    `value` is None when the word is not static (it expands an unknown variable, a command
    substitution, ...). `template` always exists: unknown parts are kept as written (`$RUN`).
    `origin[i]` is the file offset of `value[i]`/`template[i]` (static words only need it for
    nested parsing); its last element is the offset just past the word.
    """

    value: str | None
    template: str
    location: Location
    origin: Sequence[int] = ()  # an array('i') from the parser
    passthrough: bool = False  # "$@", $*, or an array/variable whose value is unknown

    @property
    def text(self) -> str:
        return self.value if self.value is not None else self.template


_FIELD = lazy(r"[^ \t\n]+")  # what bash's default IFS splits an expansion's value into
_NAMES = lazy(r"[A-Za-z_][\w:.-]*")  # what a function's name may be, in a string
POSITIONAL = re.compile(r'"?\$(?:[@*1-9]|\{[@*1-9])')  # a word that starts with the script's arguments


def split_fields(word: Word) -> list[Word]:
    """The words bash makes of `word`'s value, split at whitespace; none when it is empty. Each
    stands where `word` does, with the origin of its own characters. A partly unknown value is
    split as written (`deepspeed --num_gpus $NGPU`, see `splits_as_written`): a field that holds
    an expansion is unknown (it may be several words, or none)."""
    origin = word.origin
    if word.value is None:
        template = word.template
        spans = _template_fields(template)
        if spans is None:
            spans = [field.span() for field in _FIELD.finditer(template)]
        kept = len(origin) > len(template)  # the origin of each character as written
        return [
            Word(None if "$" in f or "`" in f else f, f, word.location, origin[a : b + 1] if kept else ())
            for a, b in spans
            for f in (template[a:b],)
        ]
    return [
        Word(field.group(), field.group(), word.location, origin[field.start() : field.end() + 1])
        for field in _FIELD.finditer(word.value)
    ]


IFS_WHITESPACE = " \t\n"  # bash's default IFS: runs of these split, and leading and trailing ones go


def read_fields(text: str, names: int, *, raw: bool, delimiter: str, ifs: str) -> list[list[int]] | None:
    """What bash's `read` takes from its input `text` into each of its `names` names (0: the
    elements of `read -a`'s array), as the indices of the characters of `text` each holds:
    `read -r -d '' CMD <<EOF` (OpenRLHF's launchers) holds the whole text, the blanks that start
    and end it dropped. The input ends at `delimiter` (NUL for `-d ''`: a heredoc's end); without
    `-r` (`raw`) a backslash-newline joins two lines and a backslash keeps the next character, one
    that no IFS character then splits at (nor drops, but at the end of a rest of more than one
    field). Each name takes one field, the last the rest; None where `ifs` holds other
    characters than blanks and newlines (`IFS=,`: not modelled)."""
    if ifs.strip(IFS_WHITESPACE):
        return None
    kept: list[int] = []
    escaped: set[int] = set()
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "\\" and not raw:
            if i + 1 < n and text[i + 1] != "\n":
                kept.append(i + 1)
                escaped.add(i + 1)
            i += 2
            continue
        if char == delimiter:
            break
        kept.append(i)
        i += 1
    runs: list[list[int]] = []  # the fields: runs of characters that do not split
    run: list[int] = []
    for k in kept:
        if text[k] in ifs and k not in escaped:
            if run:
                runs.append(run)
                run = []
        else:
            run.append(k)
    if run:
        runs.append(run)
    if not names:
        return runs
    fields = runs[: names - 1]
    if len(runs) == names:
        fields.append(runs[-1])
    elif len(runs) > names:  # the last name: the rest, without the IFS characters that end it, escaped ones too (bash's read.def)
        first, last = kept.index(runs[names - 1][0]), len(kept)
        while text[kept[last - 1]] in ifs:
            last -= 1
        fields.append(kept[first:last])
    return fields + [[] for _ in range(names - len(fields))]


def joined_fields(word: Word) -> Word:
    """The string `eval $cmd` reads when `$cmd` is partly unknown: bash splits the value at its
    whitespace, newlines too, and eval joins the fields with one space, so a line break in the
    value ends no command there (`eval "$cmd"` keeps it, and it does). Fields as written (see
    `_template_fields`), each character where it was."""
    template, origin = word.template, word.origin
    spans = _template_fields(template)
    if spans is None or len(origin) <= len(template) or not spans:
        return word
    text, places = [], array("i")
    for n, (start, end) in enumerate(spans):
        if n:
            text.append(" ")
            places.append(origin[start - 1])
        text.append(template[start:end])
        places.extend(origin[start:end])
    places.append(origin[len(template)])
    return word._replace(template="".join(text), origin=places)


def _template_fields(template: str) -> list[tuple[int, int]] | None:
    """The spans of a partly unknown value's fields as written, split at its own whitespace: an
    unknown part (`$NGPU`, `${X:-a b}`, `$(scontrol show hostnames | head -n 1)`, a backquoted
    command) whole, one part of a word (the hostname a command prints is one). None when a
    substitution is not closed, whose words would be cut. One pass: a template may nest deep."""
    if "(" not in template and "{" not in template and "`" not in template:
        return [field.span() for field in _FIELD.finditer(template)]
    fields: list[tuple[int, int]] = []
    start, depth, quoted = None, 0, False
    for i, c in enumerate(template):
        if not quoted and not depth and c in " \t\n":
            if start is not None:
                fields.append((start, i))
                start = None
            continue
        start = i if start is None else start
        if c == "`":
            quoted = not quoted
        elif quoted:
            continue
        elif c in "({" and (depth or template[i - 1 : i] == "$"):
            depth += 1
        elif c in ")}" and depth:
            depth -= 1
    if depth or quoted:
        return None
    return fields if start is None else [*fields, (start, len(template))]


def one_field(template: str) -> bool:
    """Whether a partly unknown value's template is one word as written: no blank outside its
    unknown parts (`--name=$(date +%s)`, `--dir=${X:-a b}`; not `--a=1 $B`)."""
    return _template_fields(template) == [(0, len(template))]


def splits_as_written(template: str) -> bool:
    """Whether a partly unknown value's template can be split into bash's words at its spaces:
    it has whitespace between its fields (`torchrun --master_addr $(hostname) --nnodes $N`)."""
    fields = _template_fields(template)
    return fields is not None and fields != [(0, len(template))] and any(c in template for c in " \t\n")


class Sink:
    def __init__(
        self,
        kind: str,
        target: Word | None = None,
        location: Location | None = None,
        reader: Command | None = None,
        procsub: list[Command] | None = None,
    ) -> None:
        self.kind = kind
        self.target = target  # FILE: the path
        self.location = location  # the redirect or pipe that set it up
        self.reader = reader  # PIPE: the next stage
        self.procsub = [] if procsub is None else procsub  # PROCSUB

    @property
    def keeps_output(self) -> bool:
        """True when the stream is written somewhere that outlives the process."""
        if self.kind == FILE:
            return True
        if self.kind == PIPE and self.reader is not None:
            return self.reader.writes_files
        if self.kind == PROCSUB:
            return any(c.writes_files for c in self.procsub)
        return False

    def file_targets(self) -> list[Word]:
        """The files this stream ends up in (the file itself, or what a tee writes)."""
        if self.kind == FILE and self.target is not None:
            return [self.target]
        if self.kind == PIPE and self.reader is not None:
            return self.reader.tee_targets()
        if self.kind == PROCSUB:
            return [w for c in self.procsub for w in c.tee_targets()]
        return []


class Redirect(Record):
    op: str  # '>', '>>', '&>', '&>>', '>&', '<', ...
    fd: int | None  # the descriptor written before the operator, if any
    target: Word | None  # file target (None for a dup like 2>&1)
    dup: int | None  # 2>&1 -> 1
    location: Location
    procsub: bool = False

    @property
    def writes_stdout(self) -> bool:
        return self.op.startswith("&") or (self.fd in (None, 1) and self.op.startswith(">"))

    @property
    def writes_stderr(self) -> bool:
        return self.op.startswith("&") or self.fd == 2


class Wrapper(Record):
    """A command that runs another: the nesting context of an inner command."""

    kind: str  # ssh, tmux, screen, bash-c, pct, docker, kubectl, eval, nohup, setsid, env, ...
    command: Command
    detached: bool = False
    remote: bool = False  # runs on another host or inside a container
    cwd_changed: bool = False  # runs in another working directory than the script's
    chdir: bool = False  # starts the command in a directory its options name (`docker exec -w`, `tmux new -c`)
    adds_interpreter: bool = False  # put `python` before the program (`uv run x.py`): not written
    unknown_environment: bool = False  # sets variables not known here (a Ray runtime env in `$ENV`)
    terminal: bool = False  # runs the command on a pseudo terminal (`srun -u`): Python line-buffers
    heredoc: bool = False  # its shell reads the commands from a heredoc (`bash -s <<'EOF'`, `ssh gpu1 <<EOF`)
    parallel: bool = False  # runs the command several copies at a time (`xargs -P 4`, `-P 0`, `parallel -j 4`)
    # reads its own standard input, for the command's arguments: the command gets none of it
    # (`xargs`, GNU `parallel` without `--pipe`)
    reads_input: bool = False
    # The variables its options or words give the command (`docker exec -e K=V`, `env K=V`,
    # `mpirun -x K=V`, `tmux new -e K=V`), their values None when not static.
    env: dict[str, Word | None] | None = None
    # The command starts without this shell's environment: on another host (ssh), in a container
    # (`docker exec`, `kubectl exec`, `apptainer exec --cleanenv`), or cleared (`env -i`, `sudo`'s
    # env_reset, `srun`/`sbatch --export=NONE`, the login shell of `su - user`).
    isolated: bool = False
    unset: frozenset[str] = frozenset()  # the variables it removes for the command (`env -u NAME`)
    # It appends words it reads to the command's (`xargs python t.py`, not `xargs -I{}`): the
    # command gets more arguments than written. `appended` asks whether they reach a command.
    appends: bool = False
    # The pane a `tmux send-keys` types into, as its resolution of `-t` keys the typed lines: the
    # `-t` as written, or the pane the send-keys before typed into; None when none named one.
    pane: str | None = None

    def appended(self, command: Command) -> bool:
        """Whether the words this wrapper appends end up among `command`'s: its words end where
        the wrapper's do (`xargs srun python t.py`, not `xargs bash -c 'python t.py'`)."""
        return self.appends and bool(command.words) and command.words[-1].location == self.command.words[-1].location


# Block.kind: the compound statement a command sits in.
LOOP = "loop"  # the body (or condition) of a for/while/until loop: may run many times
ARM = "arm"  # one branch of an if/case (or the command after a test's `&&`/`||`): arms of one statement never both run
SUBSHELL = "subshell"  # `( ... )`: its `cd`s and variables end with it
FUNCTION = "function"  # a function's body: it runs where the function is called (ShellScript.functions)


class Block(Record):
    """A loop, a branch of an `if`/`case`, a subshell or a function's body around a command, in
    the shell that runs it."""

    kind: str  # LOOP | ARM | SUBSHELL | FUNCTION
    statement: Location  # the whole if/case/loop: arms of one statement share it
    arm: int = 0  # which branch: 0 is `then` (or a case's word), then each elif/else/case item;
    # for a FUNCTION, 0 in its first walk (at its first call, or at the unit's end when nothing calls
    # it), 1 in a walk again for a later call that redirects its output, 2 and up in one for a later
    # call whose positional parameters differ from those of the walks before (`Command.walk`)
    # For an ARM, what the conditions that decide it (the `if`'s and each `elif`'s up to it, the
    # `case` word, a test before `&&`/`||`) say of the variables as they were before them. `tests`:
    # (name, regex, whether its value matches) for it to run, from a test of one variable against a
    # static pattern (`[[ $X != *","* ]]`, `[ -z "$X" ]`, `case $X in *,*)`). `reads`: the variables
    # the other conditions read, and those their values were computed from (`N=$(echo $X | wc -l)`).
    tests: tuple[tuple[str, str, bool], ...] = ()
    reads: frozenset[str] = frozenset()
    # For an ARM of an if/case one of whose arms always runs (an `else`, a `*)`), how many arms it
    # has; 0 where none may run (`if A; then ...; elif B; then ...; fi`, `[ ... ] && cmd`)
    arms: int = 0

    def allows(self, name: str, value: str) -> bool:
        """Whether no test of the variable `name` rules the arm out when it holds `value`."""
        return all(bool(re.fullmatch(regex, value, re.S)) is matches for n, regex, matches in self.tests if n == name)


class ExportHistory:
    """The exported variables of one shell over its walk, for its commands (`Command.exported`,
    `Command.environment` are views of it at one version): name -> the versions at which it
    changed, and what it was from each on: False (not exported), True (exported, its value's
    origin not known) or the Word that gave its value. A command holds a view, not a copy: a
    script whose blocks each export a new name kept a copy per command (quadratic memory). Each
    name's changes are one list, [version, value, version, value, ...], and the views hold that
    dict, not this: small pickles."""

    __slots__ = ("names", "version", "parent")

    def __init__(self, parent: ExportedNames | None = None) -> None:
        self.names: dict[str, list] = {}
        self.version = 0  # what the next change is recorded at
        # The exports it started with, another shell's (a wrapper's new shell: `bash -c`, `nohup`):
        # a name not changed here since is as it was there.
        self.parent = parent

    def record(self, name: str, value) -> None:
        entry = self.names.get(name)
        if entry is None:
            self.names[name] = [self.version, value]
        elif entry[-2] == self.version:  # no view sees the one before
            entry[-1] = value
        else:
            entry += (self.version, value)

    def view(self) -> ExportedNames:
        """The exports as they are now; changes from now on are of the next version."""
        self.version += 1
        return ExportedNames(self.names, self.version - 1, self.parent)


class ExportedNames(AbstractSet):
    """`Command.exported` from the shell front end: the names exported at one version of an
    `ExportHistory`, a set (operators give frozensets)."""

    __slots__ = ("names", "version", "parent")

    def __init__(self, names: dict[str, list], version: int, parent: ExportedNames | None) -> None:
        self.names, self.version, self.parent = names, version, parent

    def __reduce__(self):
        return ExportedNames, (self.names, self.version, self.parent)

    def at(self, name: str):
        """What `name` was (`ExportHistory`): None when never exported before."""
        entry = self.names.get(name)
        if entry is not None:
            if entry[-2] <= self.version:
                return entry[-1]
            low, high = 0, len(entry) // 2  # the first change after the version, by halves
            while low < high:
                middle = (low + high) // 2
                if entry[2 * middle] <= self.version:
                    low = middle + 1
                else:
                    high = middle
            if low:
                return entry[2 * low - 1]
        return None if self.parent is None else self.parent.at(name)

    def every_name(self) -> list[str]:
        """Each name ever exported in its shell, or in the parent before."""
        if self.parent is None:
            return list(self.names)
        return list(dict.fromkeys([*self.parent.every_name(), *self.names]))

    def __contains__(self, name) -> bool:
        value = self.at(name)
        return value is not None and value is not False

    def __iter__(self) -> Iterator[str]:
        return iter([name for name in self.every_name() if name in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    @classmethod
    def _from_iterable(cls, names) -> frozenset[str]:
        return frozenset(names)

    def __hash__(self) -> int:
        return self._hash()


class ExportedEnvironment(Mapping):
    """`Command.environment` from the shell front end: each exported name whose value's origin is
    known -> that Word, at the version of `exported` (`ExportedNames`)."""

    __slots__ = ("exported",)

    def __init__(self, exported: ExportedNames) -> None:
        self.exported = exported

    def __reduce__(self):
        return ExportedEnvironment, (self.exported,)

    def get(self, name, default=None):
        value = self.exported.at(name)
        return value if isinstance(value, Word) else default

    def __getitem__(self, name) -> Word:
        value = self.exported.at(name)
        if isinstance(value, Word):
            return value
        raise KeyError(name)

    def __contains__(self, name) -> bool:
        return isinstance(self.exported.at(name), Word)

    def __iter__(self) -> Iterator[str]:
        return iter([name for name in self.exported.every_name() if name in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Command:
    # The variables whose default (`${NGPU:-8}`) this command's words or exported environment took
    # because the script never set them: a caller that sets them decides those values. Set on the
    # few commands that have any.
    defaults: frozenset[str] = frozenset()
    # Of those, the ones each word took, by the word's location (`python ${SCRIPT:-test.py}`), or
    # an expansion that made no word, by its own (`${EXTRA:-}`, a Makefile's empty `ARGS ?=`), and
    # those a redirect's target took (`> "logs/${RUN:-run7}.log"`, not in `defaults`); a dict of its
    # own is set on the commands that have any, this shared one is never written to.
    word_defaults: dict[Location, frozenset[str]] = {}
    # It returns while what it starts runs on outside this shell's jobs (`setsid -f`, `docker exec
    # -d`): `background` too, but `wait` does not wait for it, nor does `disown` release it.
    detaches: bool = False
    # A call of a function of the script that may run a `cd`, `pushd` or `popd` among its words
    # (`in_env base pushd sub`, the function's `"$@"` after `shift $N`): the shell is somewhere not
    # known after it (see `Walker._run_arguments`).
    moves: bool = False
    # A later call of a function of the script whose positional parameters differ from its first
    # call's: the walk of the body that has them (its FUNCTION block's `arm`, 2 and up), made at
    # the first call that gives them (see `Walker._again`); 0, the first call's walk.
    walk: int = 0
    # Where its words are whose value starts at the shell's directory, from `pwd` or `$PWD`
    # (`--config-path=$(pwd)/conf`, "./conf"): an absolute path at run time, written relative to where
    # the shell started. Set on the few commands that have any (`launches.anchored`).
    anchored: frozenset[Location] = frozenset()
    # A `wait` given process ids that name known background jobs (`wait $A`, `A=$!`): the
    # commands of the jobs it waits for (see `Walker._jobs_of`); None, every job of the shell.
    waits_for: tuple[Command, ...] | None = None
    # The text of the heredoc a Python command reads its program from (`python - <<'EOF'`), as
    # written: code the shell hands the interpreter, read for the files it writes (lint/pymade.py).
    stdin_text: str | None = None
    # The `#SBATCH` lines of the job script an `sbatch` reads from a heredoc (`sbatch <<EOF`), after
    # this shell expanded them: SLURM reads them as it reads a job file's header.
    job_directives: tuple[Directive, ...] = ()
    # The lines right after it that bash runs as commands of their own, written as more of its
    # words: set on the few commands a broken continuation ends (`CutOff`).
    cut_off: CutOff | None = None

    def __init__(
        self,
        words: list[Word],
        location: Location,
        env: dict[str, Word | None] | None = None,
        redirects: list[Redirect] | None = None,
        stdout: Sink | None = None,
        stderr: Sink | None = None,
        background: bool = False,
        pipefail: bool = False,
        wrappers: tuple[Wrapper, ...] = (),
        inner: list[Command] | None = None,
        exported: AbstractSet[str] = frozenset(),
        pipeline: list[Command] | None = None,
        is_exec_redirect: bool = False,
        blocks: tuple[Block, ...] = (),
        environment: Mapping[str, Word] | None = None,
    ) -> None:
        self.words = words
        self.location = location
        self.env = {} if env is None else env
        self.redirects = [] if redirects is None else redirects
        self.stdout = Sink(INHERIT) if stdout is None else stdout
        self.stderr = Sink(INHERIT) if stderr is None else stderr
        self.background = background
        self.pipefail = pipefail
        self.wrappers = wrappers
        self.inner = [] if inner is None else inner  # set on wrappers
        self.exported = exported  # names exported by the script at this point
        self.pipeline = [] if pipeline is None else pipeline  # all stages, if piped
        self.is_exec_redirect = is_exec_redirect  # `exec >file` with no command: changes the script's streams
        self.blocks = blocks  # the loops and branches around it, outermost first
        # The exported variables whose value the shell knows the origin of: the Word of their last
        # assignment (its value None when no longer static), or of the environment it was given.
        self.environment = {} if environment is None else environment
        # The front end and the rules ask every command its name, many times, and words never
        # change: an attribute set once costs less than a cached_property (a lock per first ask).
        # Set last, after the fields, where the cached_property put it: the pickles keep their bytes.
        value = self.words[0].value if self.words else None
        self.name: str | None = value.rsplit("/", 1)[-1] if value else value

    @property
    def args(self) -> list[Word]:
        return self.words[1:]

    def with_words(self, words: list[Word]) -> Command:
        """The command with other words (one time round a loop: `ShellScript.variants`; the words
        a function's call runs: `Walker._run_arguments`), all else shared."""
        variant = Command.__new__(Command)
        variant.__dict__.update(self.__dict__)
        variant.words = words
        value = words[0].value if words else None
        variant.name = value.rsplit("/", 1)[-1] if value else value
        return variant

    @property
    def is_wrapper(self) -> bool:
        return bool(self.inner)

    def own_words(self) -> list[Word]:
        """A wrapper's words before the command it runs: its name, its options and the host,
        container or subcommand it names (`ssh -p 22 gpu1`, `setsid -f`, `docker exec c1`). All its
        words when it runs none."""
        if not self.inner:
            return self.words
        start = min((c.location.line, c.location.column) for c in self.inner)
        return [w for w in self.words if (w.location.end_line, w.location.end_column) <= start]

    @property
    def writes_files(self) -> bool:
        return bool(self.tee_targets()) or self.stdout.kind == FILE

    def tee_targets(self) -> list[Word]:
        if self.name != "tee":
            return []
        return [w for w in self.args if w.value is None or not w.value.startswith("-")]

    @property
    def detached(self) -> bool:
        return any(w.detached for w in self.wrappers)

    @property
    def remote(self) -> bool:
        return any(w.remote for w in self.wrappers)

    def env_value(self, name: str) -> Word | None:
        if name in self.env:
            return self.env[name]
        for wrapper in reversed(self.wrappers):
            if wrapper.env and name in wrapper.env:
                return wrapper.env[name]
            if wrapper.isolated or name in wrapper.unset:
                return None  # `MASTER_PORT=1 ssh host ...`: ssh's own, not the remote command's
            if name in wrapper.command.env:
                return wrapper.command.env[name]
        return None

    def defaults_of(self, word: Word) -> frozenset[str]:
        """The variables whose default `word` took (a part of `defaults`)."""
        return self.word_defaults.get(word.location, frozenset())

    def ruled_out(self, name: str, value: str | None, at: Location) -> bool:
        """Whether an arm around the command cannot run with the variable `name` holding `value`,
        set at `at` before the arm's statement: a test of its conditions rules the value out
        (`mode=raw`, then `if [ "$mode" = fbank ]; then scripts/make_$mode.sh`), or they read the
        variable in another way (`[ "$mode" = a ] || [ "$mode" = b ]`: what they decide is not known)."""
        for block in self.blocks:
            if block.kind != ARM or block.statement.holds(at):
                continue  # set in the arm, after its condition was tested
            if name in block.reads or value is not None and not block.allows(name, value):
                return True
        return False

    def has_env(self, name: str) -> bool:
        """Whether `name` is (or, under a wrapper whose environment is not known, may be) set for
        this command; `env_value` has its value when known. The shell's exports stop at a wrapper
        that isolates its command (`exported` is then the inner shell's)."""
        if name in self.exported or name in self.env:
            return True
        for wrapper in reversed(self.wrappers):
            if wrapper.env and name in wrapper.env or wrapper.unknown_environment:
                return True
            if wrapper.isolated or name in wrapper.unset:
                return False
            if name in wrapper.command.env:
                return True
        return False


class CutOff(Record):
    """The lines right after a command that bash runs as commands of their own, each named after
    its first option (ShellCheck's SC2215: `--data-path /data: command not found`), written as
    more of the command's words. The command ends on `line`, as it does not end with `\\`
    (`how`: "line"), or a blank and a `#` follow its `\\` ("comment": in `--lr 1 \\ # note` the `\\`
    escapes the blank, not the line end), or a blank does ("space"), or a Windows line end's `\\r`
    ("crlf"); or the line after it, `line`
    then, is commented out ("commented": `# --seed 1 \\`). `words`: those lines' words, in order.
    The front end reads the lines (`shell.cut_off`); LL302 names a required option among the
    words, and the line to mend."""

    how: str
    line: int
    words: tuple[Word, ...]


class Pipeline(Record):
    """`a | b | c`, as one fact: its status is the last stage's unless pipefail is in effect."""

    location: Location  # from the first stage to the last: `.line` is the pipeline's first line
    stages: list[list[Command]]  # each stage's commands, nested ones included
    pipes: list[Sink]  # pipes[i] connects stage i to stage i + 1
    pipefail: bool  # in effect in the shell that runs the pipeline, as the shell itself set it
    wrappers: tuple[Wrapper, ...] = ()  # the nesting context of the shell that runs it
    # Where that shell last set pipefail itself, or started: the number of the script's commands
    # then. A file it sources after that and before the pipeline may set it again
    # (`launches.pipefail_of`): this front end reads no other file.
    pipefail_at: int = 0
    # Where the pipeline is written when that is not where it runs: in a function's body that pipes
    # its arguments (`run_log() { "$@" 2>&1 | tee train.log; }`), for the pipeline a call's words
    # run in (`run_log torchrun t.py`, `location`: see `Walker._piped`).
    written: Location | None = None

    def feeders(self, stage: int) -> list[Command]:
        """The commands of a stage that write into its pipe (not into $(...) or a file)."""
        pipe = self.pipes[stage]
        return [c for c in self.stages[stage] if c.stdout is pipe]

    @property
    def last(self) -> Command | None:
        """The command reading the last pipe: the one whose status the pipeline returns."""
        return self.pipes[-1].reader if self.pipes else None


class Directive(Record):
    """A `#SBATCH` (or `#PBS`, `#$`) line of the script's header: the scheduler reads these
    before the script runs. `words` are split as the scheduler splits them, quotes removed."""

    prefix: str  # "SBATCH"
    words: list[Word]
    location: Location


class SetBy(Record):
    """Where an expansion's variable got its value (`ShellScript.expansions`)."""

    location: Location  # the word it was set to
    name: str  # the variable's: `LOG_FILE` of `LOG_FILE=$7`, whose value has no name of its own


# What each way through an if/case gives a variable it sets (`ShellScript.arm_values`): where the
# value was set and the words it makes, or None where not known.
ArmWays = tuple[tuple[Location, tuple[Word, ...]] | None, ...]


class ArmVariant(Record):
    """A command's words as one way through an if/case before it gives them (`ShellScript.arm_variants`)."""

    words: list[Word]
    set_at: Location  # where the first value that varies was set there (the statement: nowhere)
    expansion: str  # its expansion, as the command writes it: `$EXTRA`
    statement: Location


class ShellScript:
    """The facts of one shell file (or of the shell embedded in a YAML or other file)."""

    # The values a word takes that expands the variable of a `for` loop over static words (`for s
    # in prepare.py train.py; do python "$s"; done`; a prefix's value too: `CUDA_VISIBLE_DEVICES=$i
    # torchrun ...`), by the word's location: the loop (where its
    # variable is named) and one Word per word of its list, in order, located at that word. Only
    # for a list of static words (no `$VAR`, no `$(...)`; a pattern stays one value, as written),
    # and a word that reads no other unknown part. A dict of its own on the scripts that have any.
    loop_values: dict[Location, tuple[Location, tuple[Word, ...]]] = {}
    # The values a command's word takes that expands, whole and unquoted, a variable an if/case
    # before it set to a different static string in each arm (`if ...; then EXTRA="--layers 32";
    # else EXTRA=""; fi`, then `python t.py $EXTRA`), by the location of the word (of each word
    # it makes: `State.settle` may keep the words the arms' values start with): the statement;
    # for each way through it (each arm, then where none runs when none may) where the value was
    # set (the statement when nowhere) and the words it makes, each located at its characters in
    # the assignment, or None where it is not known (see `Walker._arm_values`); how many words
    # the expansion makes in the command; and the command's blocks (`Command.blocks`), which tell
    # a walk of a function's body from another. None for a word walked again after another
    # statement. A dict of its own on the scripts that have any.
    arm_values: dict[Location, tuple[Location, ArmWays, int, tuple] | None] = {}
    # The assignment each expansion of a known variable read its value from (the location of the
    # word it was set to: `CMD+=" --x 1"` for a `$CMD` after it, and the variable's name), by the
    # file offsets of the expansion's first and last characters, where `Word.origin` puts the
    # value's characters (see `written`). An expansion walked more than once with values set in
    # different places (a function called twice; a later call that is not walked again counts as
    # a walk of what the body read from its caller) has none. A dict of its own on the scripts that have any.
    expansions: dict[int, SetBy | None] = {}
    # By the location of a later call of one of its functions, the file offsets of the characters
    # of the function's words, as the walk it repeats made them (its first call's, or one for its
    # positional parameters: `Command.walk`), whose value that call may not give
    # (`Walker._called_again`): read from a variable the call finds with another value or one not
    # known here (`PORT=29502` before it; `PORT=29501` before each call is one value), from a
    # default the first call took and this one does not (`${PORT:-29500}`), or from a variable
    # the body set from those (`local P=$BASE`). A dict of its own on the scripts that have any.
    varies: dict[Location, frozenset[int]] = {}
    # The script's own positional parameters its words read whole, where they are those it was
    # started with (`Walker._own_arguments`): `$1` or `${1}` by the file offset of its `$`, which
    # `Word.origin` puts at each character of the word's template, and so is a variable's expansion
    # whose value is one (`PORT=$1`, then `$PORT`). A caller's argument decides its value
    # (`launches.as_run_by`). A word that is its arguments from the Nth on is `1 - N` (`"$@"` 0,
    # `${@:3}` -2; `$*`, or `$ARGS` after `ARGS="$@"`, not quoted): the caller's words there
    # (`launches.run_with`). Each past the static `shift`s before it (`Walker._shifted`: `$1` after
    # `shift` is 2). A dict of its own on the scripts that have any.
    arguments: dict[int, int] = {}

    def __init__(
        self,
        path: str,
        commands: list[Command] | None = None,
        parse_errors: list[tuple[Location, str]] | None = None,
        pipelines: list[Pipeline] | None = None,
        directives: list[Directive] | None = None,
        status_read: list[tuple[int, int]] | None = None,
        interpreter: str | None = None,
        in_image: bool = False,
        tested: set[str] | None = None,
    ) -> None:
        self.path = path
        self.commands = [] if commands is None else commands  # in source order, nested included
        self.parse_errors = [] if parse_errors is None else parse_errors
        self.pipelines = [] if pipelines is None else pipelines  # in source order, nested included
        self.directives = [] if directives is None else directives  # header comments, file only
        # The lines (first, last) of each unit, a file or a workflow step, that reads
        # `${PIPESTATUS[...]}` outside comments: it checks its pipelines' stages itself; and each
        # Makefile recipe line whose `-` prefix has make ignore its status (LL105 judges neither).
        self.status_read = [] if status_read is None else status_read
        self.interpreter = interpreter  # the program of the file's `#!` line (`env`'s argument); None: no such line
        # a Compose service's or a Kubernetes container's: it runs in the image, not the checkout
        self.in_image = in_image
        # a Compose service's or a Kubernetes container's only (not a SkyPilot task's or another
        # launch spec's, which may run on a plain VM): its image may be one a Dockerfile here builds
        self.in_container = False
        # Paths an existence test names (`[ -f x ]`, `[[ -e x ]]`, `test -r x`), normalised: the script
        # expects that file may be missing (`[ -f .env ] && source .env`).
        self.tested = set() if tested is None else tested
        # The directories its file says are cloned before its commands run (an MCLI run's `git_repo`
        # integrations), by last part, as `launches.Made` keeps a `git clone`'s.
        self.clones: set[str] = set()
        # The directories its workflow checks the project itself out into (`actions/checkout` with
        # `path: proj` and no other `repository:`): `proj/tools/x.py` is the project's `tools/x.py`.
        self.checkouts: set[str] = set()
        # The lines (first, last) of each workflow step whose shell is a bash template of its own
        # without pipefail (`shell: bash -el {0}`, the step's or its job's default), and that template:
        # LL105 says to add `-o pipefail` to it, where `shell: bash` would drop its options.
        self.shell_templates: list[tuple[int, int, str]] = []
        # Name -> where each function is defined (the statement of its FUNCTION blocks); the last
        # definition of a name wins, as in the shell.
        self.functions: dict[str, Location] = {}
        # What a shell that sources the file (`source common.env`) has in effect after it, by the
        # file's own commands: pipefail, and the names it exported. See `launches.sourced_before`.
        self.final_pipefail = False
        # What its own last top-level, unconditional `set -o pipefail` / `set +o pipefail` (or
        # `shopt -s/-u -o pipefail`) leaves in effect, when no other setting comes after it (in an
        # `if`, a loop, a function's call); None when none does. And where its last setting of
        # any kind is (`State.pipefail_at`): a file it sources before that decides nothing.
        self.pipefail_set: bool | None = None
        self.final_pipefail_at = 0
        self.final_exported: frozenset[str] = frozenset()
        # The names it sets: a shell that sources it under `set -a` exports them all.
        self.final_variables: frozenset[str] = frozenset()
        # The word each variable it leaves set got its value from (`export CUDA_VISIBLE_DEVICES=0,1`).
        self.final_assigned: dict[str, Word] = {}
        # Its `source` commands run under `set -a` (`set -a; source .env; set +a`), by location.
        self.exporting_sources: set[Location] = set()
        # The redirects written after a group, a subshell or a loop (`{ ...; } 2>&1 > log`,
        # `done > log`), with where its stderr ends up: they belong to no one command.
        self.compound_redirects: list[tuple[list[Redirect], Sink]] = []
        # Where the file's comments are, [start, end) offsets, when it has a suppression's marker
        # (`# launchlint:`) somewhere: one in a string or a heredoc is text, not a suppression.
        self.comments: list[tuple[int, int]] | None = None
        # The variables whoever runs the file sets at will, which its commands' `defaults` name
        # where they took one: a Makefile's `?=` ones (`make train ARGS=...`, or the environment).
        self.overridable: frozenset[str] = frozenset()
        # A Makefile's recipes' shell, SHELL's program (`bash` of `SHELL = /bin/bash`; make's `sh`
        # by default); None for a file that is no Makefile.
        self.make_shell: str | None = None

    def written(self, word: Word) -> tuple:
        """Where the characters of `word` were written: each one's file offset, or, for one of a
        variable's value, the assignment it came from (`expansions`). The words that two
        expansions of one `$CMD` make are written in the same place; two lines that each write
        `python gone.py` are not. The word's location when its characters' places are not known."""
        text, origin, expansions = word.text, word.origin, self.expansions
        if not text or len(origin) < len(text):
            return (word.location,)
        return tuple(where if (where := expansions.get(o)) is not None else o for o in origin[: len(text)])

    def variants(self, command: Command) -> list[Command]:
        """The command as each time round its loop runs it, its words that expand the loop's
        variable replaced by the value they take then (see `loop_values`); the command alone when
        none does. Words of a second loop around it keep their unknown values."""
        if not self.loop_values:
            return [command]
        looped = [(i, self.loop_values[w.location]) for i, w in enumerate(command.words) if w.value is None and w.location in self.loop_values]
        if not looped:
            return [command]
        loop = looped[0][1][0]
        places = [(i, values) for i, (other, values) in looped if other == loop]
        variants = []
        for n in range(len(places[0][1])):
            words = list(command.words)
            for i, values in places:
                words[i] = values[n]
            variants.append(command.with_words(words))
        return variants

    def arm_variants(self, command: Command, words: Sequence[Word]) -> tuple[list[ArmVariant], bool]:
        """`words` (of `command`) as each way through an if/case before them runs them: the words
        that expand the variables it set replaced by the values it gives them there (see
        `arm_values`), for the ways where one of them is known; and whether every way is (the
        words stay unknown in none). Only the first such statement's words vary: others keep
        their unknown values; and only an expansion whose words are all among `words` (not
        `$LAUNCH t.py`'s of a launch's arguments), in the walk that made `command`."""
        places = [self.arm_values.get(w.location) for w in words]
        counts = Counter(w.location for w, p in zip(words, places) if p is not None)
        blocks = command.blocks
        places = [
            p if p is not None and counts[w.location] == p[2] and p[3] == blocks else None
            for w, p in zip(words, places)
        ]
        statement = next((p[0] for p in places if p is not None), None)
        if statement is None:
            return [], False
        ways = len(next(p for p in places if p is not None)[1])
        variants, complete = [], True
        for n in range(ways):
            variant: list[Word] = []
            varied: dict[Location, tuple] = {}  # the words of an expansion stand at one location: its value once
            for word, place in zip(words, places):
                if place is None or place[0] != statement or place[1][n] is None:
                    complete = complete and (place is None or place[0] != statement)
                    variant.append(word)
                elif word.location not in varied:
                    varied[word.location] = (place[1][n][0], word.template)
                    variant.extend(place[1][n][1])
                elif word.value is None:  # `${EXTRA}` after the words the arms' values start with
                    varied[word.location] = (varied[word.location][0], word.template)
            if varied:
                variants.append(ArmVariant(variant, *next(iter(varied.values())), statement))
        return variants, complete

    def effective_commands(self) -> list[Command]:
        """Commands that do the work: not wrappers, not bare `exec` redirections."""
        return self._effective_commands

    @cached_property  # asked for by most rules, after the front end has added every command
    def _effective_commands(self) -> list[Command]:
        return [c for c in self.commands if not c.inner and not c.is_exec_redirect and c.words]

    def exec_redirects(self) -> list[Command]:
        return [c for c in self.commands if c.is_exec_redirect]

    def call_walked(self, command: Command) -> Command | None:
        """The call whose positional parameters the walk of a function's body that made `command`
        had, when that walk is one again for a later call (`Command.walk`): the first call that gave
        them (`launch 0 4` after `launch 0,1,2,3 4`). None in a first walk."""
        block = next((b for b in reversed(command.blocks) if b.kind == FUNCTION), None)
        if block is None or block.arm < 2:
            return None
        return next((c for c in self.commands if c.walk == block.arm and self.functions.get(c.name or "") == block.statement), None)

    def in_uncalled_function(self, where: Location) -> bool:
        """Whether `where` is in the body of a function this script never calls. The front end
        walks such a body too, at the script's end, so its commands are there even though nothing
        runs them (what it would do to the shell is not applied). A call is a command
        of that name anywhere, or a word of a `trap` or `eval`; a command named by the script's
        arguments (`"$@"`, `$1`) may call any of them."""
        inside = [
            (order, name)
            for order, name, defined in self._functions_by_line.get((where.path, where.line), ())
            if defined.holds(where)
        ]
        if not inside:
            return False
        name = min(inside)[1]  # the first of them in `functions`, as a walk of it would find
        return self._called is not None and name not in self._called

    @cached_property
    def _functions_by_line(self) -> dict[tuple[str, int], list[tuple[int, str, Location]]]:
        """Each line's functions (their order in `functions`, name and definition), for
        `in_uncalled_function`: reading every function for each command asked about was
        quadratic in a script of many functions."""
        lines: dict[tuple[str, int], list[tuple[int, str, Location]]] = {}
        for order, (name, defined) in enumerate(self.functions.items()):
            for line in range(defined.line, defined.end_line + 1):
                lines.setdefault((defined.path, line), []).append((order, name, defined))
        return lines

    @cached_property
    def _called(self) -> frozenset[str] | None:
        """The names the script calls; None when it may call any."""
        names = set()
        for command in self.effective_commands():
            if command.name is None and POSITIONAL.match(command.words[0].template):
                return None  # dispatch: `"$@"`, `$1 "${@:2}"`
            names.add(command.name)
            if command.name in ("trap", "eval"):
                for word in command.args:
                    if word.value is None:
                        return None
                    names.update(_NAMES.findall(word.value))
        return frozenset(names)
