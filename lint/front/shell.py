"""Shell front end: tree-sitter-bash to `ShellScript` facts.

A *unit* is a piece of shell text with an origin map back to the real file: the file itself, or
a command string nested in `ssh`/`tmux`/`bash -c`, or the `run:` block of a workflow. Nested
strings are unquoted, parsed again and walked with the same code, so a finding three quoting
levels deep points at the right line and column of the file.
"""

from __future__ import annotations

import posixpath
import re
import weakref
from array import array
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import partial

from ..discover import SHELL_PROGRAMS, shebang_program, shebang_words
from ..graph import DIRECTORY_CHANGERS, PYTHON_VALUED, is_python, sourced_candidates
from ..lazyre import lazy
from ..model import LineIndex, Location, Record, make_location, whole
from ..paths import in_a_virtualenv
from ..shellfacts import (
    ARM,
    CAPTURED,
    FILE,
    FUNCTION,
    IFS_WHITESPACE,
    INHERIT,
    LOOP,
    NULL,
    PIPE,
    POSITIONAL,
    PROCSUB,
    SOURCERS,
    SUBSHELL,
    ArmWays,
    Block,
    Command,
    CutOff,
    Directive,
    ExportedEnvironment,
    ExportedNames,
    ExportHistory,
    Pipeline,
    Redirect,
    SetBy,
    ShellScript,
    Sink,
    Word,
    Wrapper,
    joined_fields,
    read_fields,
    shell_args,
    split_fields,
    splits_as_written,
)
from . import wrappers

LOOPS = ("for_statement", "c_style_for_statement", "while_statement")
CONDITIONALS = ("if_statement", "case_statement")
FILE_TESTS = frozenset({"-e", "-f", "-r", "-s", "-x"})  # test operators that ask whether a file exists
# Builtins that set variables from their input (`read -rp "GPUs? " NGPU`), with their options that
# take a value, and the variable they set when none is named.
READERS = {"read": ("adinNptu", "REPLY"), "mapfile": ("dnOsuCc", "MAPFILE"), "readarray": ("dnOsuCc", "MAPFILE")}
MAX_DEPTH = 12  # nested command strings deeper than this are not parsed again
MAX_LOOP_WORDS = 100  # a `for` list longer than this leaves its variable unknown: each word is a launch to judge
MAX_ARMS = 8  # an if/case of more arms keeps no values for them (`Walker._arm_sets`): each is a launch to judge
_LEAVING = frozenset({"exit", "return", "break", "continue", "exec"})  # commands after which an arm may not go on
_PLAIN_EXPANSION = lazy(r"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})")  # `$EXTRA`, `${EXTRA}`: the variable whole
# `#SBATCH --output=x`: the scheduler reads the script's leading comment lines that start so.
_DIRECTIVE = re.compile(r"#(SBATCH)\b")
_FROM_HERE = re.compile(r"\.\.?(/\S*)?")  # a path `pwd` made: `.`, `./logs`, `../..` (after a `cd`)
_PWD = re.compile(r"\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`")  # `$(pwd)`, `` `pwd` ``, `$(pwd -P)`
_PARENT_OF_PWD = re.compile(r'(?:\$\(|`)\s*dirname\s+(?:--\s+)?"?(?:\$\{?PWD\}?|\$\(\s*pwd\s*\))"?\s*(?:\)|`)')
_WHICH = re.compile(r"(?:\$\(|`)\s*(?:which|command\s+-v|type\s+-P)\s+([A-Za-z_][\w.+-]*)\s*(?:\)|`)")  # `$(which python3)`
_DIRNAME_OF = re.compile(r'(?:\$\(|`)\s*dirname\s+(?:--\s+)?"?\$\{?([A-Za-z_]\w*)\}?"?\s*(?:\)|`)')  # `$(dirname "$SCRIPT")`
_DIRECTIVE_WORD = re.compile(r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'])+")
_PARSER = None
# Set with the parser (no node exists before it): the ids of the fields the walk asks for most,
# as `child_by_field_id` skips `child_by_field_name`'s search of the grammar's field names by
# string; and of the node kinds it tests most, as a node's `kind_id` is an int where its `type`
# is a new string at each ask (a kind may have several ids: all the ids of its name).
_NAME = _VALUE = _OPERATOR = _ARGUMENT = 0
# The nested strings of a file or a YAML script hold at most this many characters per character
# of its own, and this many more: as much as nesting without variables makes, never what evals
# of evals multiply.
NESTED_PER_CHAR, NESTED_FLOOR = 4, 100_000
MAX_VALUE = 65_536  # the longest value of a variable the shell keeps; longer is unknown
_READ = lazy(r"\$\{?[#!]?([A-Za-z_]\w*|[0-9#@*])")  # the variables (and positional parameters) an assignment's value reads, as written
# A lone variable in a test (`$X`, `"${X}"`, `"${X:-}"`), and the parts of a static pattern.
_LONE = re.compile(r'("?)\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)(?::-)?\})\1')
_ONE_ARGUMENT = lazy(r'("?)\$(?:([1-9])|\{([1-9])\})\1')  # `$1`, `"${1}"`: one of the script's arguments
_BLANKS_AHEAD = lazy(r"(?:\s|\\\n)+")  # blanks and line continuations, at the start of a text
_COUNT = re.compile(r'("?)\$(?:#|\{#\})\1')  # `$#`, `"$#"`: how many there are
_ONE_VARIABLE_WORD = lazy(r'("?)\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})\1')  # `$CFG`, `"${CFG}"`
_PATTERN_PART = lazy(r'"([^"$`\\]*)"|\'([^\']*)\'|([^"\'$`\\\[\]()|@!+?*\s]+)|([*?])')
_EXPANSION_AT = lazy(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[^{}\n]*\})")  # `$CMD`, `${CMD}`, as written in the file
_GLUED_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]")  # what follows a `$` tree-sitter-bash cut a word at
_QUOTING = lazy(r"""\\.|"(?:[^"\\]|\\.)*"?|'[^']*('?)""", re.S)  # a quoted part or escape: `_in_single_quotes`
_LAST_NAME = lazy(r"\$([A-Za-z_][A-Za-z0-9_]*)\Z")  # `run_$DEV`: braced where a name may follow (`_name_goes_on`)
_STDIN_REDIRECT = lazy(r"0?<")  # a redirect of the standard input: `<f`, `<<EOF`, `<<<"$X"`, `0<&3`
_EXPANSION_MARK = lazy(r"[$`]")  # what starts an expansion or a command substitution
_LEADING_TABS = lazy(r"^\t+", re.MULTILINE)  # what `<<-EOF` drops from each line of its heredoc
_PLAIN_IDS = _COMMAND_NAME_IDS = _AMPERSAND_IDS = _ASSIGNMENT_IDS = _REDIRECT_IDS = _ARRAYS_IDS = frozenset()
_EXPANSION_IDS = _CONCATENATION_IDS = frozenset()


def _parser():
    global _PARSER, _NAME, _VALUE, _OPERATOR, _ARGUMENT
    global _PLAIN_IDS, _COMMAND_NAME_IDS, _AMPERSAND_IDS, _ASSIGNMENT_IDS, _REDIRECT_IDS, _ARRAYS_IDS
    global _EXPANSION_IDS, _CONCATENATION_IDS
    if _PARSER is None:
        from . import bash_language, tree_sitter

        binding = tree_sitter()
        language = binding.Language(bash_language())
        _NAME, _VALUE, _OPERATOR, _ARGUMENT = map(language.field_id_for_name, ("name", "value", "operator", "argument"))
        ids: dict[str, set[int]] = {}
        for kind_id in range(language.node_kind_count):
            ids.setdefault(language.node_kind_for_id(kind_id), set()).add(kind_id)
        _PLAIN_IDS, _REDIRECT_IDS, _ARRAYS_IDS = (
            frozenset().union(*(ids[kind] for kind in kinds)) for kinds in (_PLAIN, _REDIRECTS, _ARRAYS)
        )
        _COMMAND_NAME_IDS, _AMPERSAND_IDS = frozenset(ids["command_name"]), frozenset(ids["&"])
        _ASSIGNMENT_IDS = frozenset(ids["variable_assignment"])
        _EXPANSION_IDS = frozenset(ids["simple_expansion"] | ids["expansion"])
        _CONCATENATION_IDS = frozenset(ids["concatenation"])
        _PARSER = binding.Parser(language)
    return _PARSER


_ABSENT = object()  # in a `Journal` entry: the key was not there
_INDEX = lazy(r"0|-?[1-9][0-9]*")  # an array's index written as a number: `A[1]=x`, `A[-1]=x`
_ELEMENT = lazy(r"([A-Za-z_][A-Za-z0-9_]*)\[[^\]]*\]")  # `A[1]` of `unset 'A[1]'`
_KEYED = lazy(r"\[[^\]]*\]\+?=")  # an element of `A=([0]=x [k]=y)`, set by index or key


class ArmSet(Record):
    """A variable an if/case left unknown though its arms set it to static strings (`Walker._arm_sets`)."""

    word: Word  # what it holds after the statement (`State.assigned`): the set stands while it holds that
    # the statement's node, its arms' ends, the values before it, its ways' tests, the values they
    # read, and the state's containers the ends name
    ways: tuple
    values: tuple | None  # `Walker._arm_values` of it, once a command asked
    names: frozenset[str]  # the variables the statement's conditions read
    blocks: tuple[Block, ...]  # the blocks around the statement


class Journal:
    """The changes to a shell state's variables, arrays, exports, defaults and jobs while a
    checkpoint of it is open (`State.checkpoint`): each an entry (container, key, what it held
    then), so that the state of the checkpoint can be had back (a subshell's end), told from the
    state now (what a function's call did: `Effect.since`) or copied later (a function nothing
    calls, walked at the end in the shell of its definition). A checkpoint costs what changes
    after it, not the size of the state: copying every variable at each function, subshell and
    `$(...)` made a script of many blocks, each setting variables of new names, quadratic."""

    __slots__ = ("entries", "marks")

    def __init__(self) -> None:
        self.entries: list[tuple] = []
        self.marks = 0  # checkpoints open; none: nothing is logged, and the entries are dropped


class _Watch:
    """What a state's commands and new shells get of its exports, kept as they change:
    `State.exported` records each change here, `State.variables`, `State.assigned` and
    `State.defaulted` those of exported names. The history of the exported names and their words
    (`ExportHistory`), and the exported variables' values, words and defaults (`State.defaulted`):
    a command reads those, and a new shell copies them, not all the variables. Held by the
    exported set, which the dicts hold: they are held weakly (the collector is off)."""

    __slots__ = ("history", "containers", "values", "words", "defaults", "views")

    def __init__(self, state: State, parent: ExportedNames | None = None, exported_only: bool = False) -> None:
        # `parent`: the exports the state's were copied from, the same (a new shell's, a function's
        # definition's); `exported_only`: its dicts hold exported names only (`State.child_shell`)
        self.history = ExportHistory(parent=parent)
        exported, variables, assigned, defaulted = state.exported, state.variables, state.assigned, state.defaulted
        self.containers = weakref.ref(variables), weakref.ref(assigned), weakref.ref(defaulted)
        self.views: tuple[ExportedNames, ExportedEnvironment] | None = None  # of the last version, while it holds
        if parent is None:
            for name in exported:
                self.history.record(name, assigned.get(name, True))
        if exported_only:
            self.values, self.words, self.defaults = dict(variables), dict(assigned), dict(defaulted)
            return
        self.values = {name: variables[name] for name in exported if name in variables}
        self.words = {name: assigned[name] for name in exported if name in assigned}
        self.defaults = {name: defaulted[name] for name in exported if name in defaulted}

    def exported(self, name: str) -> None:
        self.views = None
        for container, kept in zip(self.containers, (self.values, self.words, self.defaults)):
            held = container()
            if held is not None and name in held:
                kept[name] = held[name]
        self.history.record(name, self.words.get(name, True))

    def unexported(self, name: str) -> None:
        self.views = None
        self.history.record(name, False)
        self.values.pop(name, None)
        self.words.pop(name, None)
        self.defaults.pop(name, None)

    def changed(self, container: _Names, name: str) -> None:
        """`name`, exported, changed in `container`."""
        kept = self.values if container.role == "variables" else self.words if container.role == "assigned" else self.defaults
        if name in container:
            kept[name] = container[name]
        else:
            kept.pop(name, None)
        if kept is self.words:
            self.history.record(name, self.words.get(name, True))
            self.views = None


class _Names(dict):
    """A dict of a shell state (`State.variables`, ...) that logs its changes in the state's
    journal (and, `State.variables`, `State.assigned` and `State.defaulted`, those of exported
    names in its `_Watch`). Reads are the dict's own; a pickle of one is a plain dict."""

    __slots__ = ("journal", "exported", "role", "__weakref__")

    def __init__(self, journal: Journal, items=()) -> None:
        dict.__init__(self, items)
        self.journal = journal
        self.exported: _NameSet | None = None  # the exported names, whose changes here its watch records
        self.role = ""  # which of the state's containers when watched: "variables", "assigned", "defaulted"

    def __reduce__(self):
        return dict, (dict(self),)

    def __setitem__(self, key, value) -> None:
        journal, exported = self.journal, self.exported
        if journal.marks:
            journal.entries.append((self, key, dict.get(self, key, _ABSENT)))
        dict.__setitem__(self, key, value)
        if exported is not None and key in exported:
            exported.watch.changed(self, key)

    def __delitem__(self, key) -> None:
        self.pop(key)

    def pop(self, key, *default):
        if key not in self:
            return dict.pop(self, key, *default)
        if self.journal.marks:
            self.journal.entries.append((self, key, dict.__getitem__(self, key)))
        value = dict.pop(self, key)
        if self.exported is not None and key in self.exported:
            self.exported.watch.changed(self, key)
        return value

    def _unsupported(self, *args, **kwargs):
        raise TypeError("a shell state's dict changes key by key (logged in its journal)")

    update = setdefault = popitem = clear = __ior__ = _unsupported  # type: ignore[assignment]


class _NameSet(set):
    """`State.exported`: a set that logs its changes in the state's journal."""

    __slots__ = ("journal", "watch")

    def __init__(self, journal: Journal, items=()) -> None:
        set.__init__(self, items)
        self.journal = journal
        self.watch: _Watch | None = None

    def __reduce__(self):
        return set, (set(self),)

    def add(self, name) -> None:
        if name in self:
            return
        if self.journal.marks:
            self.journal.entries.append((self, name, _ABSENT))
        set.add(self, name)
        if self.watch is not None:
            self.watch.exported(name)

    def discard(self, name) -> None:
        if name not in self:
            return
        if self.journal.marks:
            self.journal.entries.append((self, name, True))
        set.discard(self, name)
        if self.watch is not None:
            self.watch.unexported(name)

    def __ior__(self, names):
        for name in names:
            self.add(name)
        return self

    def _unsupported(self, *args, **kwargs):
        raise TypeError("a shell state's set changes name by name (logged in its journal)")

    update = remove = pop = clear = difference_update = intersection_update = symmetric_difference_update = _unsupported  # type: ignore[assignment]
    __isub__ = __iand__ = __ixor__ = _unsupported  # type: ignore[assignment]


def _as_written(word, name: str) -> str | None:
    """What a variable `name` partly unknown was set to, as written (`/tmp/${RUN}/train.log`):
    the template of its word. None for a known value, for one made unknown by arms that set
    different values (its template is a guess: a static one, or `${NAME}`: `State.settle`)."""
    if not isinstance(word, Word) or word.value is not None or "$" not in word.template or word.template == f"${{{name}}}":
        return None
    return word.template


def _kept(word, name: str) -> str | None:
    """What a variable unknown had, as written, before an arm appended to it: the start `P` of
    `P ${NAME}` (an earlier arm only appended to it: `State.settle`), else its whole written
    value (`python ${LAUNCH} t.py `, without the blanks ending it); None when not written."""
    written = _as_written(word, name)
    suffix = f" ${{{name}}}"
    if written is None or not written.endswith(suffix):
        return written and written.rstrip()
    return written[: -len(suffix)]


# The wrappers that run their command in the foreground with their own streams: what a value
# starting with one runs is its command (`_job_at`), as it is for the parallel launchers
# (`wrappers.LAUNCHERS`, but not `flux submit`, which queues it). Not screen, setsid or xargs,
# which run it elsewhere or feed it another input.
_FOREGROUND = {name: spec for name, spec in wrappers.ARGV_WRAPPERS.items() if name not in ("screen", "setsid", "xargs")}
_WORDS = lazy(r"\S+")


def _job_at(words: Sequence[Word]) -> int:
    """Where a command's job starts among its words, past the wrappers, launchers and profilers
    that run it where it is, with their options: `torchrun` of `srun -N 2 torchrun t.py` (a word with an
    unknown part is an option's value or an options variable); the number of words when none."""
    at = 0
    while at < len(words):
        name = words[at].value
        spec = _FOREGROUND.get(name)
        if spec is not None:
            rest = wrappers.after_options(words[at + 1 :], spec.valued, spec.positional, spec.dashdash)
        elif (launcher := wrappers.LAUNCHERS.get(name)) is not None and (start := launcher.start(words[at + 1 :])) is not None:
            if launcher.queues(words[at + 1 :]):
                return at  # `flux submit`: the job runs later, elsewhere
            rest = wrappers.launcher_command(launcher, words[at + 1 + start :])
        elif (profiled := wrappers.profiled_command(name, list(words[at + 1 :]))) is not None:
            rest = profiled  # `nsys profile -o prof torchrun t.py`
        else:
            return at
        at = len(words) - len(rest)
    return at


def _same_start(a: Sequence[Word], b: Sequence[Word]) -> int:
    """How many words, as written, both start with."""
    n = 0
    for x, y in zip(a, b):
        if x.text != y.text:
            break
        n += 1
    return n


def _agreed(had: Sequence[Word], now: Sequence[Word]) -> tuple[int, int]:
    """The words `had[a:b]` that the values an arm joins agree on (`State.settle`): those both
    start with (`python3` of `python3 -m x t.py` and `python3 t.py`; all of `python t.py` and
    `python t.py --fp16`), else, when those are only launchers that run their command where it
    is, with their options, those both start with from their jobs on (`_job_at`: `srun torchrun
    t.py` and `torchrun t.py` agree on `torchrun t.py`)."""
    n = _same_start(had, now)
    if _job_at(had[:n]) < n:
        return 0, n
    a, b = _job_at(had), _job_at(now)
    m = _same_start(had[a:], now[b:])
    return (a, a + m) if m else (0, n)


def _agreed_but_values(had: Sequence[Word], now: Sequence[Word]) -> tuple[int, set[int]] | None:
    """Where `had`'s job starts when the values an arm joins run the same job word for word
    from their jobs on (`_job_at`) but for options' values, and the words of `had` that hold
    those: `--nnodes=$N` and `--nnodes=1` (`torchrun --nnodes=$N -m m` and `srun torchrun
    --nnodes=1 -m m`), or a word after the same option (`--nproc_per_node 8` and `4`)."""
    a, b = _job_at(had), _job_at(now)
    if len(had) - a != len(now) - b or a == len(had):
        return None
    values = set()
    for i, (x, y) in enumerate(zip(had[a:], now[b:]), a):
        if x.text == y.text:
            continue
        flag = x.text.partition("=")[0]
        if not (flag.startswith("-") and flag != x.text and y.text.startswith(flag + "=")) and not (
            i > a and had[i - 1].text.startswith("-") and had[i - 1].text == now[i - a + b - 1].text
        ):
            return None
        values.add(i)
    return a, values


def _tail(name: str) -> Word:
    """The elements of an array `name` not known after those an arm's values agree on (`_joined`):
    no location, as it stands where the array is expanded (`Walker.array_words`)."""
    return Word(None, f"${{{name}[@]}}", None, (), True)


def _is_tail(word: Word, name: str) -> bool:
    """`word` is the `_tail` of the array `name`."""
    return word.passthrough and word.value is None and word.template == f"${{{name}[@]}}"


def _then_unknown(name: str, words: list[Word]) -> list[Word]:
    """`words`, then the elements of the array `name` not known (`_tail`), unless they end in them."""
    return words if words and _is_tail(words[-1], name) else [*words, _tail(name)]


def _joined(name: str, had, now: list[Word] | None) -> list[Word] | None:
    """What an array holds after an arm that set it to `now` when it held `had` (`State.settle`):
    the elements both start with (`_agreed`: `python t.py` of `(python t.py)` and `(python t.py
    --fp16)`), then unknown ones (`_tail`); unknown when they agree on none. An element written
    in one arm only, not before (`CMD+=(--fp16)` in each keeps those of `CMD=(python t.py)`),
    has no location: it stands where the array is expanded, as a variable's words do."""
    if had is now or now is None:
        return now
    if had is _ABSENT or had is None:
        return None
    if [w.text for w in had] == [w.text for w in now]:
        return now
    a, b = _agreed(had, now)
    if a == b:
        return None
    shared = {id(w) for w in now}
    kept = [w if id(w) in shared else w._replace(location=None) for w in had[a:b]]
    return _then_unknown(name, kept)


def _written_words(text: str) -> tuple[list[re.Match], list[Word]]:
    """The words of a value as written, split at its blanks: where each is, and each as a word (one
    with a `$` unknown)."""
    found = list(_WORDS.finditer(text))
    return found, [Word(None if "$" in m.group() else m.group(), m.group(), None, ()) for m in found]


def _name_goes_on(text: str, end: int) -> bool:
    """What follows an expansion ending at `end` could go on with a name (`${TAG}_a`, `"$TAG"_a`):
    a bare `$NAME` put before it would read as another name."""
    following = text[end : end + 1]
    if following in ("'", '"'):
        following = text[end + 1 : end + 2]
    return following.isalnum() or following == "_"


def _in_single_quotes(text: str) -> bool:
    """Whether `text`, read as a shell reads a command line, ends inside single quotes it opened
    (`bash -c 'echo `). The quotes in a `$(...)` count as any others: they pair up."""
    quoted = False
    for part in _QUOTING.finditer(text):
        quoted = part.group(1) == ""  # a `'` with no closing one: to the end
    return quoted


def _commands_next(words: list[Word]) -> bool:
    """The next word of a command is its command: it is the first, or follows a command that runs
    the rest of its words (`nohup $CMD > log &`, `exec $CMD`, `timeout 2h $CMD`, bash's `time $CMD
    |& tee log`) and its options."""
    if not words:
        return True
    spec = wrappers.ARGV_WRAPPERS.get(words[0].value)
    return spec is not None and _commands_next(wrappers.after_options(words[1:], spec.valued, spec.positional, spec.dashdash))


def _program_next(words: list[Word], template: str) -> bool:
    """The next word of a python command is its program, and the partly known value there starts
    with a Python file (`python -u $cmd`, cmd="train.py --chunk $chunk": TGB's extract.sh): after
    the interpreter and its switches, not after `-m`, `-c`, `-W`, `-X`, whose value comes next. Not
    another value (`python ${COMMAND}` of a COMMAND that two arms set, `python ...` each: a summary
    of them, no program)."""
    first = template.split(None, 1)[0] if template.strip() else ""
    return bool(words) and first.endswith(".py") and "$" not in first and is_python(words[0].value) and all(
        w.value is not None and w.value[:1] == "-" and w.value[1:2] not in ("-", "") and w.value[:2] not in PYTHON_VALUED for w in words[1:]
    )


def _undo(container, key, old) -> None:
    """Put back what a journal entry says `container` held at `key` (logged in turn when a
    checkpoint is still open)."""
    if isinstance(container, set):
        if old is _ABSENT:
            container.discard(key)
        else:
            container.add(key)
    elif old is _ABSENT:
        container.pop(key, None)
    else:
        container[key] = old


_NO_EXPORTS: tuple[frozenset[str], dict[str, Word]] = (frozenset(), {})  # read only, as every command's environment
FEW_EXPORTS = 16  # up to this many, a command's exports and environment are copies (`State.exports`)
_CONTAINERS = ("variables", "assigned", "arrays", "exported", "defaulted", "jobs")
# What else an arm of an if/case may change that the shell keeps after it (`State.leave`)
_ARM_FIELDS = ("pipefail", "stdout", "stderr", "allexport", "cwd", "previous_cwd", "directories", "cwd_bound", "pipefail_at", "pipefail_sure")
ArmEnd = tuple[list[tuple[object, object, object]], dict[str, object]]


class Checkpoint:
    """A state as it was (`State.checkpoint`): its attributes then, and where its journal was.
    Open until `close` (or `State.rollback`): the journal keeps what changes meanwhile."""

    __slots__ = ("state", "fields", "position", "exports")

    def __init__(self, state: State) -> None:
        self.state = state
        self.exports: ExportedNames | None = None  # its exports then, when a copy may be made (`copies_at`)
        self.fields = dict(state.__dict__)  # its attributes then; the containers are the same objects, changed since
        self.position = len(state.journal.entries)
        state.journal.marks += 1

    def close(self) -> None:
        journal = self.state.journal
        journal.marks -= 1
        if not journal.marks:
            journal.entries.clear()

    def changes(self) -> dict[tuple[int, object], object]:
        """(id of a container, key) -> what it held at the checkpoint, for each key changed since."""
        first: dict[tuple[int, object], object] = {}
        for container, key, old in self.state.journal.entries[self.position :]:
            first.setdefault((id(container), key), old)
        return first


def copies_at(checkpoints) -> dict[Checkpoint, State]:
    """Each checkpoint -> a state of its own as the checkpoint's state was then (a function
    nothing calls is walked in the shell of its definition). Those of one state are undone from
    its present in one pass, latest first: each copy costs the state's size."""
    found: dict[Checkpoint, State] = {}  # by the checkpoint itself: an id may be another's once it is gone
    by_state: dict[int, list[Checkpoint]] = {}
    for checkpoint in checkpoints:
        by_state.setdefault(id(checkpoint.state), []).append(checkpoint)
    for group in by_state.values():
        group.sort(key=lambda c: c.position, reverse=True)
        state = group[0].state
        entries = state.journal.entries
        cursor = {id(getattr(state, name)): (set if name == "exported" else dict)(getattr(state, name)) for name in _CONTAINERS}
        end = len(entries)
        for checkpoint in group:
            for i in range(end - 1, checkpoint.position - 1, -1):
                container, key, old = entries[i]
                now = cursor.get(id(container))
                if now is not None:
                    _undo(now, key, old)
            end = checkpoint.position
            copy = State.__new__(State)
            copy.__dict__.update(checkpoint.fields)
            copy.journal = journal = Journal()
            for name in _CONTAINERS:
                held = cursor[id(checkpoint.fields[name])]
                setattr(copy, name, (_NameSet if name == "exported" else _Names)(journal, held))
            copy.watch = copy.watched(checkpoint.exports) if checkpoint.exports is not None else None
            found[checkpoint] = copy
    return found


class State:
    """What the shell knows while it runs a unit top to bottom."""

    def __init__(
        self,
        variables: dict[str, str | None] | None = None,
        assigned: dict[str, Word] | None = None,
        arrays: dict[str, list[Word] | None] | None = None,
        exported: set[str] | None = None,
        pipefail: bool = False,
        stdout: Sink | None = None,
        stderr: Sink | None = None,
        branch_depth: int = 0,
        assignments: int = 0,
        exported_environment: tuple[tuple[int, int], dict[str, Word]] | None = None,
        allexport: bool = False,
        defaulted: dict[str, frozenset[str]] | None = None,
        jobs: dict[str, tuple[Command, ...]] | None = None,
        cwd: str | None = ".",
        pipefail_at: int = 0,
        *,
        parent: ExportedNames | None = None,
        exported_only: bool = False,
    ) -> None:
        """`parent`: the exports `exported` and `assigned` were copied from, and `exported_only`:
        its dicts hold exported names only (`child_shell`)."""
        # Changes to the containers are logged here while a checkpoint is open (`Journal`).
        self.journal = journal = Journal()
        self.variables = _Names(journal, variables or ())
        self.assigned = _Names(journal, assigned or ())  # where each variable got its value
        self.arrays = _Names(journal, arrays or ())
        self.exported = _NameSet(journal, exported or ())
        # Its exports as they change, for its commands and new shells: made when first asked for
        # with a name exported (`exports`), and kept; never for a state that shares its dicts
        # with another's (`_procsub_sinks`), which is not `watchable`.
        self.watch: _Watch | None = None
        self.watchable = True
        self.pipefail = pipefail
        self.stdout = Sink(INHERIT) if stdout is None else stdout
        self.stderr = Sink(INHERIT) if stderr is None else stderr
        self.branch_depth = branch_depth
        self.assignments = assignments  # how many assign() calls so far: with len(exported), what keys the cache
        self.exported_environment = exported_environment  # shared by commands
        self.allexport = allexport  # `set -a`: each variable set is exported
        # Variables whose value came from the default of a variable the script never set
        # (`NGPU=${NGPU:-8}`), with the names whose defaults it took: a caller may set those.
        self.defaulted = _Names(journal, defaulted or ())
        # The background jobs whose process ids a variable holds (`A=$!`, `pids+=($!)`,
        # `PIDS="$PIDS $!"`): each job the commands of its `... &` statement. Any other assignment
        # of the name forgets it.
        self.jobs = _Names(journal, jobs or ())
        # The directory the shell is in, as far as `cd`s tell: "." where the shell started, a path
        # from there (`cd data`: "data") or an absolute one (`cd /w`); None when not known (`cd
        # $WORK`, a bare `cd`, a `cd` in a branch, another host's shell). `pwd` and `$PWD` are "."
        # while it is known and relative (paths are read from where the shell is), else the path.
        self.cwd = cwd
        self.previous_cwd: str | None = None  # `cd -` goes back there
        self.directories: tuple[str | None, ...] = ()  # `pushd`'s stack, which `popd` pops
        # The variables (and arrays) holding a relative path that `pwd` made (`DIR=$(pwd)` is "."):
        # right only until the shell moves, which makes them unknown.
        self.cwd_bound: frozenset[str] = frozenset()
        # Where the shell last set pipefail itself (`set`, `shopt`, a function that does): the
        # number of the script's commands then. A file sourced later may set it again (`Pipeline`).
        self.pipefail_at = pipefail_at
        # That setting was a top-level statement of the file, run whatever happens (not in an
        # `if`, a loop, a function, `( )`, after `&&`/`||` or in a pipeline): what a shell that
        # sources the file surely has after it (`ShellScript.pipefail_set`).
        self.pipefail_sure = False
        if self.exported and exported_only:  # a new shell: what it copied from its parent's
            self.watch = self.watched(parent, exported_only)

    def watched(self, parent: ExportedNames | None = None, exported_only: bool = False) -> _Watch:
        """A new `_Watch` of this state's exports, from what they are now (`parent`'s, when given)."""
        watch = self.exported.watch = _Watch(self, parent, exported_only)
        self.variables.exported = self.assigned.exported = self.defaulted.exported = self.exported
        self.variables.role, self.assigned.role, self.defaulted.role = "variables", "assigned", "defaulted"
        return watch

    def exports(self) -> tuple[AbstractSet[str], Mapping[str, Word]]:
        """What a command started now gets: the exported names, and the words their values come
        from (`environment`). Views of this state's `ExportHistory`, the same objects until an
        export changes; without one (`_procsub_sinks`), copies."""
        watch = self.watch
        if watch is None:
            if not self.exported:  # most shells
                return _NO_EXPORTS
            if not self.watchable:
                return frozenset(self.exported), self.environment()
            watch = self.watch = self.watched()
        if watch.views is None:
            if not self.exported:
                watch.views = _NO_EXPORTS
            elif len(self.exported) <= FEW_EXPORTS:  # copies pickle smaller than views
                watch.views = frozenset(self.exported), dict(watch.words)
            else:
                exported = watch.history.view()
                watch.views = exported, ExportedEnvironment(exported)
        return watch.views

    def replace(self, **changes) -> State:
        """A copy with `changes`; the containers not changed are shared with this state."""
        state = State.__new__(State)
        state.__dict__.update(self.__dict__, **changes)
        return state

    def checkpoint(self) -> Checkpoint:
        """The state as it is now, to come back to (`rollback`), compare with (`Effect.since`) or
        copy later (`copies_at`): a subshell, a function's walk, a function's definition."""
        return Checkpoint(self)

    def rollback(self, checkpoint: Checkpoint) -> None:
        """Back to the state of `checkpoint`, which closes (a subshell's end)."""
        undone = self.journal.entries[checkpoint.position :]
        checkpoint.close()
        for container, key, old in reversed(undone):  # logged in turn while another checkpoint is open
            _undo(container, key, old)
        self.__dict__.update(checkpoint.fields)

    def child_shell(self, stdout: Sink, stderr: Sink, *, remote: bool, moved: bool = False) -> State:
        """A new shell started by a wrapper: no pipefail, only exported variables (none remotely),
        in this shell's directory unless the wrapper starts it elsewhere (`moved`)."""
        cwd = None if remote or moved else self.cwd
        if remote:
            return State(stdout=stdout, stderr=stderr, cwd=cwd)
        exported = self.exports()[0]  # the same exports: its history goes on from there
        watch, parent = self.watch, exported if isinstance(exported, ExportedNames) else None
        if watch is not None:  # kept as they change: the variables set but not exported may be many more
            keep, origins, defaulted = watch.values, watch.words, watch.defaults
        else:
            variables, assigned, defaulted = self.variables, self.assigned, self.defaulted
            keep = {k: variables[k] for k in self.exported if k in variables}
            origins = {k: assigned[k] for k in self.exported if k in assigned}
            defaulted = {k: defaulted[k] for k in self.exported if k in defaulted}
        state = State(
            variables=keep, assigned=origins, exported=self.exported, stdout=stdout, stderr=stderr, defaulted=defaulted, cwd=cwd,
            parent=parent, exported_only=True,
        )
        state.cwd_bound = self.cwd_bound & keep.keys()
        return state

    def chdir(self, cwd: str | None) -> None:
        """The shell moves to `cwd` (in a branch, for the rest of its arm: `settle`): a path `pwd`
        made relative to the start is the same directory seen from there (`ROOT=$(pwd)`, `cd
        ext/a`: `ROOT` is `../..`, Point-BERT's install.sh), when both places are known; else it
        becomes unknown."""
        self.previous_cwd = before = self.cwd
        if cwd == before:
            return
        self.cwd = cwd
        if self.cwd_bound:
            self.forget([name for name in self.cwd_bound if not self._rebased(name, before, cwd)])

    def _rebased(self, name: str, before: str | None, after: str | None) -> bool:
        """Whether the path `name` holds, relative to `before`, is now the same one relative to
        `after` (both relative to the start): a path alone, not an array or a command line."""
        value = self.variables.get(name)
        if before is None or after is None or before.startswith("/") or after.startswith("/") or name in self.arrays:
            return False
        if value is None or not _FROM_HERE.fullmatch(value):
            return False
        path, there = posixpath.normpath(posixpath.join(before, value)), posixpath.normpath(after)
        if path.startswith("..") or there.startswith(".."):  # above the start: its name is not known here
            return False
        rebased = posixpath.relpath(path, there)
        self.assign(name, rebased if rebased.startswith(".") else f"./{rebased}", self.assigned.get(name))
        return True

    def forget(self, names) -> None:
        """Make variables and arrays unknown (`chdir`, a function's `pwd` at a later call)."""
        for name in names:
            array = name in self.arrays
            self.assign(name, None)
            if array:
                self.arrays[name] = None
        self.cwd_bound = self.cwd_bound.difference(names)

    def unset(self, name: str) -> None:
        """`unset NAME`: gone, and no longer exported; in a branch, only unknown."""
        if self.branch_depth:
            self.assign(name, None)
            return
        self.variables.pop(name, None)
        self.arrays.pop(name, None)
        self.assigned.pop(name, None)
        self.jobs.pop(name, None)
        self.exported.discard(name)
        self.assignments += 1  # the exported environment changed: its cache key too

    def elements(self, name: str) -> list[Word] | None:
        """What `NAME+=(...)` or `NAME[1]=...` changes: the array's elements (None: not known); a
        variable's value as its one element (`X=foo; X+=(bar)` holds `foo bar`), an unknown
        one where the value is not known; none when the name is not set."""
        if name in self.arrays:
            return self.arrays[name]
        if name not in self.variables:
            return []
        value, word = self.variables[name], self.assigned.get(name)
        if value is not None and word is not None and word.value == value:
            return [word]
        return [Word(value, f"${{{name}}}" if value is None else value, None, ())]  # `None`: it stands where the array is expanded

    def assign(self, name: str, value: str | None, word: Word | None = None) -> None:
        if value is not None and len(value) > MAX_VALUE:
            value = None  # `V2="$V1$V1"` doubling twenty times: no script's command needs such a value
        self.variables[name] = value
        if name in self.arrays:
            self.arrays.pop(name)
        if name in self.jobs:
            self.jobs.pop(name)
        if self.allexport:
            self.exported.add(name)
        self.assignments += 1
        if word is not None:  # the word with the value the variable got (not `replace`: 5x the time)
            self.assigned[name] = Word(value, word.template, word.location, word.origin, word.passthrough)
        elif name in self.assigned:
            self.assigned.pop(name)

    def settle(self, view: Checkpoint, chosen: AbstractSet[str] = frozenset()) -> None:
        """The end of an arm of a branch or loop, or of a function walked again, begun at `view`
        (which closes): inside it a variable has the value it was last set to (`cmd=...; eval
        $cmd` in an `if`), and the shell is where its last `cd` left it; after it, a variable it
        set to another value than it had at `view` is not known, as the arm may not have run, or
        another did, nor the directory when it changed directory (`cd`, `cd -`, `pushd`, `popd`)
        at all. Its word keeps what the arm wrote: `CMD="$CMD --fp16"`, what it had, then words
        unknown here, when every arm so far only appended to it (a space ending what it had or
        starting what was added), or the words it starts with that what it had starts with too
        (`python3 ${CMD}` for `python3 -m torch.distributed.launch $CMD` after `$CMD`'s `python3
        x.py`). A name new in the arm keeps its value, and so does one in `chosen`, which every
        arm of a branch that runs one of them sets (its first arm's values, then compared with
        the next's). A partly unknown value (`CMD="python a.py --lr $LR"`) is compared by its
        words as written: another arm's are not a guess either. Values that start with nothing
        in common but launchers that run their command where it is are compared by what they
        run (`_agreed`: `srun torchrun t.py` and `torchrun t.py` leave `torchrun t.py`), and those
        that run one job word for word but for options' values by it with those values not known
        (`_agreed_but_values`: `torchrun --nnodes=${CMD} -m m` of `--nnodes=$N` and `--nnodes=1`). An array
        is compared element by element, and keeps the elements they agree on (`_joined`)."""
        fields = view.fields
        if (self.cwd, self.previous_cwd, self.directories) != (fields["cwd"], fields["previous_cwd"], fields["directories"]):
            self.chdir(None)
            self.previous_cwd = None
            if self.directories != fields["directories"]:
                self.directories = ()
        variables, assigned, arrays = self.variables, self.assigned, self.arrays
        held, words, listed = id(variables), id(assigned), id(arrays)
        changes = view.changes()
        for (container, name), old in changes.items():
            if container != held or old is _ABSENT or name not in variables or name in chosen:
                continue
            if name in arrays:  # `CMD=(python t.py)`: compared element by element
                now = arrays[name]
                joined = _joined(name, changes.get((listed, name), now), now)
                if joined is not now:
                    arrays[name] = joined
                continue
            value, word = variables[name], assigned.get(name)
            before = changes.get((words, name))  # its word at `view`, when the arm set another
            if value is None:  # partly unknown (`CMD="python a.py --lr $LR"`): compared as written
                if word is None or before is None or (old is None and isinstance(before, Word) and before.template == word.template):
                    continue
            elif value == old:
                continue
            if word is not None:
                text = value if value is not None else word.template  # partly unknown: as written
                had = old if old is not None else _kept(before, name)
                kept = ""
                if had:
                    spans, written = _written_words(had)
                    other = _written_words(text)[1]
                    a, b = _agreed(written, other)
                    kept = had[spans[a].start() : spans[b - 1].end()] if b > a else ""
                    if b < len(written) and (loose := _agreed_but_values(written, other)) is not None:
                        start, values = loose  # each value unknown: `torchrun --nnodes=${CMD} -m m`
                        kept = " ".join(
                            f"{w.text.partition('=')[0]}=${{{name}}}" if i in values and "=" in w.text
                            else f"${{{name}}}" if i in values else w.text
                            for i, w in enumerate(written[start:], start)
                        )
                if kept:
                    word = Word(None, f"{kept} ${{{name}}}", word.location, ())
                elif value is not None:
                    word = Word(None, word.template, word.location, word.origin, word.passthrough)
                else:  # another arm's words may stand there: none of them is a guess (`_template_of`)
                    word = Word(None, f"${{{name}}}", word.location, ())
                assigned[name] = word
            variables[name] = None
            self.assignments += 1
        view.close()

    def leave(self, view: Checkpoint) -> ArmEnd:
        """The end of an arm of an if/case that the next arm does not see, begun at `view`: what
        it changed (`resume` applies it once every arm has run), then back to the shell of
        `view`, which closes."""
        held = {id(container): container for container in (getattr(self, name) for name in _CONTAINERS)}
        keys = view.changes().keys()
        variables, jobs = id(self.variables), id(self.jobs)
        # a variable set holds the jobs it holds at the end, or none (`resume` adds them up)
        keys = [*keys, *((jobs, key) for held_id, key in keys if held_id == variables and (jobs, key) not in keys)]
        changed = []
        for container_id, key in keys:
            container = held[container_id]
            if isinstance(container, set):
                changed.append((container, key, True if key in container else _ABSENT))
            else:
                changed.append((container, key, container.get(key, _ABSENT)))
        before = view.fields
        fields = {name: getattr(self, name) for name in _ARM_FIELDS if getattr(self, name) != before[name]}
        assignments = self.assignments
        self.rollback(view)
        self.assignments = assignments + 1  # the exported environment cached in the arm is not this one
        return changed, fields

    def resume(self, end: ArmEnd) -> None:
        """Apply what an arm changed (`leave`): the jobs a variable may hold are those of every
        arm that set it to process ids (`P=$!` in each)."""
        changed, fields = end
        jobs = self.jobs
        for container, key, now in changed:
            if container is jobs and now is not _ABSENT and key in jobs:
                now = (*jobs[key], *(c for c in now if c not in jobs[key]))
            _undo(container, key, now)
        self.__dict__.update(fields)
        self.assignments += 1

    def environment(self) -> dict[str, Word]:
        """The exported variables a command started now gets, where their values come from.
        One dict serves every command until an assignment or export changes it (read-only)."""
        key = (self.assignments, len(self.exported))  # names are only added to `exported`, but by `unset`, which counts as an assignment
        if self.exported_environment is None or self.exported_environment[0] != key:
            environment = {name: self.assigned[name] for name in self.exported if name in self.assigned}
            self.exported_environment = (key, environment)
        return self.exported_environment[1]


class Effect(Record):
    """What running a function's body does to the shell that calls it, from its one walk (see
    `Walker._first_call`): the variables it sets (with the words that set them), the names it
    exports, and the streams and pipefail it leaves. Later calls repeat it."""

    variables: dict[str, tuple[str | None, Word | None]]
    arrays: dict[str, list[Word] | None]
    exported: frozenset[str]
    stdout: Sink | None  # None: as it was
    stderr: Sink | None
    pipefail: bool | None
    moves: bool = False  # it changes directory (`cd`): where to, at a later call, is not known
    bound: frozenset[str] = frozenset()  # what it set from `pwd`: at a later call, not known either

    @classmethod
    def since(cls, checkpoint: Checkpoint) -> Effect:
        """What the state of `checkpoint` did since: its journal tells what changed."""
        after, before = checkpoint.state, checkpoint.fields
        variables, assigned, arrays, exported = after.variables, after.assigned, after.arrays, after.exported
        changes = checkpoint.changes()
        ids = id(variables), id(assigned)
        changed = {}
        for name in dict.fromkeys(name for (held, name) in changes if held in ids):
            if name not in variables:
                continue
            value, word = variables[name], assigned.get(name)
            old = changes.get((ids[0], name), value)
            old_word = changes.get((ids[1], name), word)
            if old is _ABSENT or old != value or (None if old_word is _ABSENT else old_word) is not word:
                changed[name] = (value, word)
        held_arrays = {}
        for (held, name), old in changes.items():
            if held == id(arrays) and name in arrays and (() if old is _ABSENT else old) is not arrays[name]:
                held_arrays[name] = arrays[name]
        new_exports = frozenset(name for (held, name), old in changes.items() if held == id(exported) and old is _ABSENT and name in exported)
        return cls(
            changed,
            held_arrays,
            new_exports,
            after.stdout if after.stdout is not before["stdout"] else None,
            after.stderr if after.stderr is not before["stderr"] else None,
            after.pipefail if after.pipefail_at != before["pipefail_at"] else None,
            after.cwd != before["cwd"] or after.directories != before["directories"],
            after.cwd_bound & changed.keys(),
        )

    def apply(self, state: State, place: int, looping: bool, varies: AbstractSet[int] = frozenset()) -> None:
        """Call the function again: `place`, the number of the script's commands then; `looping`,
        in a loop, where the arrays it sets are not known (`Walker._looping`); `varies`, the
        characters of its walk this call may not give (`Walker._called_again`): a variable or
        an array set from them is not known (`setup() { EXP=$1; }`, then `setup b`)."""
        if self.moves:
            state.chdir(None)
        for name, (value, word) in self.variables.items():
            if varies and word is not None and not varies.isdisjoint(word.origin):
                state.assign(name, None, Word(None, f"${{{name}}}", word.location, ()))
            else:
                state.assign(name, value, word)
        if self.bound:
            state.forget(self.bound)
        for name, words in self.arrays.items():
            if varies and words and any(not varies.isdisjoint(w.origin) for w in words):
                words = None
            state.arrays[name] = None if looping else words
        state.exported |= self.exported
        if self.stdout is not None:
            state.stdout = self.stdout
        if self.stderr is not None:
            state.stderr = self.stderr
        if self.pipefail is not None:
            state.pipefail, state.pipefail_at, state.pipefail_sure = self.pipefail, place, False


class BodyWalk:
    """A function body's last walk (`Walker.walked`): the number of the script's commands before
    it, the streams it began with, and the script's pipelines it made (a slice of them)."""

    __slots__ = ("start", "stdout", "stderr", "pipelines", "_template")

    def __init__(self, start: int, stdout: Sink, stderr: Sink, pipelines: slice) -> None:
        self.start, self.stdout, self.stderr, self.pipelines = start, stdout, stderr, pipelines
        self._template: Command | None | object = _ABSENT

    def template(self, commands: list[Command], where: Location, among: bool) -> tuple[Command, int] | None:
        """The command of the walk that holds the body's arguments, written at `where`, and the
        index of their word in it: the one they start (`"$@" 2>&1 | tee log`'s, `nohup "$@"`'s
        command), else, `among` its words, the last that holds them, the command a wrapper runs
        (`srun -- python "$@"`'s `python`): found once a walk."""
        if self._template is _ABSENT:
            walked = commands[self.start :]
            found = next(((c, 0) for c in walked if c.words and c.words[0].location == where), None)
            if found is None and among:
                found = next(((c, at) for c in reversed(walked) for at, w in enumerate(c.words) if at and w.location == where), None)
            self._template = found
        return self._template


class Pending(Record):
    """A function defined and not yet walked (see `Walker.finish`)."""

    body: object  # its body's node
    block: Block  # its FUNCTION block
    blocks: tuple[Block, ...]  # the loops and branches around its definition
    state: Checkpoint  # the shell where it is defined
    stdout: Sink | None
    stderr: Sink | None


class Read(Record):
    """What a walk of a function's body for a call read from a variable (`Walker._called_again`), or from one of
    its positional parameters (`$1`, `${2:-x}`, `$#`: the name `1`, `2`, `#0`, counted from the
    call's first word: `$1` after a `shift` is `2`, `$#` `#1`; one of a function called in its
    body, the name "": `Walker._walk_call`)."""

    name: str
    value: object  # the variable's value then: None not known here, `_ABSENT` not set
    word: Word | None  # the word it was set to (`State.assigned`); the call's word for a positional parameter
    offsets: tuple[int, ...]  # the file offsets of the characters read: the expansion's first and last, or a default's


class Again:
    """The walks of a function's body whose first walk read its positional parameters
    (`Walker._again`): the body, its FUNCTION block and the blocks around its definition; the
    names of the parameters its first walk read (`Read`), in turn; and by the values a call gives
    them, the walk made for the first call that gave them: its arm (0, the first walk; then 2 and
    up), what it read (`Walker.reads`), its effect on the shell and its commands (`BodyWalk`)."""

    __slots__ = ("body", "block", "blocks", "names", "first", "walks")

    def __init__(self, body, block: Block, blocks: tuple[Block, ...], read: tuple[Location, list[Read]], effect: Effect, walk: BodyWalk) -> None:
        self.body, self.block, self.blocks = body, block, blocks
        given: dict[str, object] = {}
        for r in read[1]:
            if r.name[:1] in _POSITIONAL_NAMES:
                given.setdefault(r.name, r.value)
        self.names = tuple(given)
        self.first = tuple(given.values())
        self.walks: dict[tuple, tuple[int, tuple[Location, list[Read]], Effect, BodyWalk]] = {self.first: (0, read, effect, walk)}


class Arguments:
    """A function's positional parameters while its body is walked for a call (`Walker.arguments`):
    the call and its argument nodes, their words found when the body first reads one (`bound`),
    less those a `shift` of the body dropped; `depth`, the number of blocks around the body's
    walk, its FUNCTION block's index."""

    __slots__ = ("call", "nodes", "depth", "shifted", "lost", "_bound")

    def __init__(self, call: Command, nodes: list, depth: int) -> None:
        self.call, self.nodes, self.depth = call, nodes, depth
        self.shifted = 0  # how many a `shift` of the body dropped
        self.lost = False  # not known since: a `shift` in a branch, a loop or a subshell, `shift $N`, `set -- ...`
        self._bound: tuple[list[Word], bool] | None = None

    def bound(self, unit: Unit) -> tuple[list[Word], bool]:
        """The words `$1`, `$2`, ... hold (`_bound`), and whether they are all: past them, unset."""
        if self._bound is None:
            self._bound = _bound(unit, self.call, self.nodes)
        words, complete = self._bound
        return words[self.shifted :], complete


class Unit:
    """Shell text plus where each of its characters is in the real file."""

    def __init__(self, path: str, text: str, index: LineIndex, origin: Sequence[int] | None, depth: int, nested: list[int] | None = None):
        self.path = path
        self.text = text
        # The characters its nested strings may still hold in all, shared with them (`parse_nested`)
        self.nested = [NESTED_PER_CHAR * len(text) + NESTED_FLOOR] if nested is None else nested
        self.index = index
        self.origin = origin  # None: the unit is the file itself
        self.depth = depth
        self.data = text.encode("utf-8", "surrogatepass")
        if len(self.data) == len(text):
            self._chars = None
        else:
            chars = []
            for i, ch in enumerate(text):
                chars.extend([i] * len(ch.encode("utf-8", "surrogatepass")))
            chars.append(len(text))
            self._chars = chars
        # The file itself, in ASCII: tree-sitter's rows and byte columns are our lines and columns.
        self._points = origin is None and self._chars is None
        self.checked = False  # `bash -n` has judged this unit (its first region; see `_later_errors`)
        self.verdict: tuple[int, str] | None = None  # bash's first error, once judged
        # A command string's: where the `"` is that likely ended it early (`Walker.closed_early`)
        self.closed_at: str | None = None
        # Byte spans blanked for the walk: the lines bash refuses, heredocs no command reads
        self.blanked: list[tuple[int, int]] = []

    def char(self, byte: int) -> int:
        return byte if self._chars is None else self._chars[min(byte, len(self._chars) - 1)]

    def file_offset(self, char: int) -> int:
        if self.origin is None:
            return char
        return self.origin[min(char, len(self.origin) - 1)]

    def file_offsets(self, start: int, end: int) -> Sequence[int]:
        if self.origin is None:
            return _offsets(start, end)  # an array: a word's origin takes it in one copy
        return self.origin[start:end]

    def chars_of(self, node) -> tuple[int, int]:
        """The characters [start, end) of `node` in `text`: tree-sitter counts bytes."""
        chars = self._chars
        if chars is None:
            return node.start_byte, node.end_byte
        return chars[node.start_byte], chars[node.end_byte]

    def node_text(self, node) -> str:
        chars = self._chars
        if chars is None:
            return self.text[node.start_byte : node.end_byte]
        return self.text[chars[node.start_byte] : chars[node.end_byte]]

    def location(self, node, last=None) -> Location:
        """The span of `node`, or from `node` to the end of `last`."""
        if self._points:  # a fifth of the shell front end's time went to the general case
            line, column = node.start_point
            end = last or node
            end_line, end_column = end.end_point if end.end_byte > node.start_byte else (line, column)
            return make_location((self.path, line + 1, column + 1, end_line + 1, end_column + 1))
        start_char, end_char = self.chars_of(node)
        if last is not None:
            end_char = self.chars_of(last)[1]
        start = self.file_offset(start_char)
        end = self.file_offset(end_char - 1) + 1 if end_char > start_char else start
        if end == start + 1 and end_char - start_char > 1:  # characters all from one `$CMD` (`eval "$CMD"`)
            written = _EXPANSION_AT.match(self.index.text, start)
            end = written.end() if written is not None else end
        return self.index.span(self.path, start, end)

    def line_span(self, line: int, said: str = "") -> Location:
        """Line `line` (1-based) of the unit, from its first non-blank character to its end; the
        unit's end when it has fewer lines (bash counts one more at the end of the input). With
        bash's words `said` about the line, the token they name when the line has it: "near
        unexpected token `('" is the line's first `(`, `newline` its last `<` or `>` (a
        redirection left without its file: `CKPT=<Specify path>`)."""
        start, end = _line_bounds(self.text, line)
        token = _UNEXPECTED.search(said)
        if token is not None:
            text = self.text[start:end]
            at = max(text.rfind("<"), text.rfind(">")) if token.group(1) == "newline" else text.find(token.group(1))
            if at >= 0:
                length = 1 if token.group(1) == "newline" else len(token.group(1))
                first = self.file_offset(start + at)
                return self.index.span(self.path, first, self.file_offset(start + at + length - 1) + 1)
        first = start + len(self.text[start:end]) - len(self.text[start:end].lstrip())
        last = self.file_offset(end - 1) + 1 if end > first else self.file_offset(first)
        return self.index.span(self.path, self.file_offset(first), last)


class Piece:
    """A partly evaluated word: its text (what is not static kept as written, so the text is
    also the word's template), where each character is in the file, and whether all of it was
    static.

    `origin` is the array the word keeps: an array takes another array's items in one copy, but
    converts a list's or a range's one by one (array("i", list) cost 3% of the front end)."""

    __slots__ = ("text", "origin", "static", "passthrough")

    def __init__(self) -> None:
        self.text = ""
        self.origin = array("i")
        self.static = True
        self.passthrough = False

    def add(self, text: str, origin: Sequence[int] | int) -> None:
        self.text += text
        self.origin.extend(array("i", (origin,)) * len(text) if isinstance(origin, int) else origin)

    def expanded(self, value: str, at: int, last: int) -> None:
        """A variable's value in place of its expansion, whose first and last characters are at
        `at` and `last`: each character stands at the `$` but the last of two or more, at the
        expansion's end, so a word of the value spans the whole `$LOG` as written (a nested
        string's words too)."""
        self.text += value
        if len(value) > 1:
            self.origin.extend(array("i", (at,)) * (len(value) - 1))
            self.origin.append(last)
        elif value:  # one character: it stands at the `$`
            self.origin.append(at)

    def dynamic(self, raw: str, at: int, passthrough: bool = False) -> None:
        self.static = False
        self.passthrough = self.passthrough or passthrough
        self.text += raw
        self.origin.extend(array("i", (at,)) * len(raw))


DOUBLE_QUOTED = '$`"\\'  # what a backslash escapes in double quotes (it stays before anything else)
IN_HEREDOC = "$`\\"  # and in a heredoc whose delimiter is not quoted: not `"`
_PLAIN = ("word", "number")  # a token whose text is its value, but for backslashes
_ANSI_C_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\'": "'", "\\\\": "\\"}  # those `$'...'` strings hold most
_ARRAYS = ("string", "expansion")  # the words `array_words` may splice: `"${ARR[@]}"`, `${ARR[@]}`
_REDIRECTS = ("file_redirect", "heredoc_redirect", "herestring_redirect")
_LITERALS = ("word", "number", "command_name", "file_descriptor", "regex", "extglob_pattern")
_RANGE = array("i")  # 0, 1, 2, ...: slices of it are the origins of plain words in a file


def _offsets(start: int, stop: int) -> array:
    """array("i", range(start, stop)), a tenth of the time: a copy of a slice of `_RANGE`."""
    global _RANGE
    if stop > len(_RANGE):
        _RANGE = array("i", range(max(2 * stop, 1 << 14)))
    return _RANGE[start:stop]


class Walker:
    def __init__(self, script: ShellScript, unit: Unit, state: State, wrappers_: tuple[Wrapper, ...]):
        self.script = script
        self.unit = unit
        self.state = state
        self.wrappers = wrappers_
        self.blocks: list[Block] = []  # the loops and if/case arms being walked, outermost first
        self.trailing: dict[int, list] = {}  # command node id -> redirects written after its list
        # A stage before `|&` (its node id) -> its stderr before the pipe: bash adds the `2>&1`
        # after the stage's own redirects (`cmd 2>/dev/null |& tee log` logs cmd's stderr).
        self.merged: dict[int, Sink] = {}
        # Line ends tree-sitter-bash 0.25 read past after a pipeline, taking the next line's
        # command for arguments of the pipeline's last one (`a | b | c` then `d > f` is `c d >
        # f`): its issue #347, open, with `&&`, `||` or a redirect on the next line, and no error;
        # and the `=` of a word it took for an assignment that bash does not make (`_no_assignment`).
        self.read_on: list[int] = []
        self.functions: dict[str, tuple] = {}  # name -> (body node, its FUNCTION block), of the functions defined so far
        self.calling: set[str] = set()  # the functions whose body is being walked for a call
        self.calls = 0  # bodies walked for calls: functions that call each other twice each double it
        self.effects: dict[str, Effect] = {}  # name -> what calling the function does to the shell
        self.pending: dict[str, Pending] = {}  # the functions defined but not walked yet
        self.runs: dict[int, tuple[int, Location, bool, bool, bool] | int | None] = {}  # a function's body node id -> `_arguments_run` of it
        self.walked: dict[int, BodyWalk] = {}  # a function's body node id -> its last walk
        self.repairs = 0  # statements parsed again alone (`_piped_after_redirects`): each parses the unit's length
        self.called_bodies: set[int] = set()  # ids of the commands of bodies walked at a first call
        # name -> where the function is defined and what its first call's walk read from variables,
        # in order (`Read`), which a later call's `_called_again` checks; `reading`, what the first
        # calls being walked read.
        self.reads: dict[str, tuple[Location, list[Read]]] = {}
        self.reading: list[Read] | None = None
        # name -> the walks of its body for the positional parameters of its calls, when its first
        # call's walk read them (`_again`)
        self.again: dict[str, Again] = {}
        # name -> the static starts of the names made at run time that its walks called functions
        # by (`gg_run_$ci` in `gg_run`: "gg_run_"; `$1`: ""): a later call with other words may
        # call another (`_unwalked_callees`); `unjudged`, the functions a call not walked may have
        # called so, in a shell not known here (see `_again`)
        self.dispatching: dict[str, set[str]] = {}
        self.unjudged: set[str] = set()
        # The keys tmux commands sent to each pane (`-t`) of each tmux server that no Enter ran yet:
        # `tmux send-keys -t job "python t.py"`, then `sleep 1; tmux send-keys -t job Enter` runs
        # them. The panes are the server's, not a shell's: one dict for the file's top shell and
        # the strings nested in it (`bash -c`, `eval`, `ssh`), keyed by server (`wrappers.tmux_server`).
        self.typed_keys: dict[tuple, dict[str | None, list]] = {}
        # The variables whose default (`${NAME:-8}`) the words being read took, directly or through
        # a variable set from one (`State.defaulted`); None when no one asks.
        self.read_defaults: set[str] | None = None
        self.last_job: tuple[Command, ...] = ()  # the commands of the last `... &` statement: what `$!` names
        # Whether the words being read took a path relative to the start from `pwd` (`State.cwd_bound`).
        self.read_cwd = False
        # The file offsets of the expansions that did (`$(pwd)`, `$PWD`, `$DIR` set to a path from one): one
        # set for the file's top shell and the strings nested in it, where a word made of such an
        # expansion is anchored too (`bash -c "python t.py --config-path $(pwd)/conf"`).
        self.cwd_read_at: set[int] = set()
        # The words that are a string an inner `"` likely ended early (`_closed_early`), by
        # location: where that quote is (`` `step` on line 4 ``, the word after it). A command
        # string among them is judged as written.
        self.closed_early: dict[Location, str] = {}
        # The variables of the `for` loops over static words being walked: name -> (where the loop
        # names it, the words of its list). See `_loop_word`.
        self.loops: dict[str, tuple[Location, tuple[Word, ...]]] = {}
        # The variables an if/case left unknown whose arms set them to static strings: name ->
        # what each way through it gives (`_arm_values`), while the variable holds what it left.
        self.arm_sets: dict[str, ArmSet] = {}
        # The arrays the loops being walked only append to (`ARGS+=(--x "$f")`): what they had
        # before, then elements not known (`compound`).
        self.grown: frozenset[str] = frozenset()
        # The script's positional parameters are no longer those it was started with: a `shift` or
        # `set -- ...` of its own (not a function's) came before (`_own_arguments`).
        self.arguments_moved = False
        # How many static `shift`s of its own dropped them; None when not known (`_shifted`).
        self.arguments_shifted: int | None = 0
        # The positional parameters of the function whose body is walked for a call, when it is
        # the call's (`Arguments`); None elsewhere: the script's own, not known here.
        self.arguments: Arguments | None = None

    # --- words ---------------------------------------------------------------------------

    def word(self, node) -> Word:
        unit = self.unit
        kind = node.kind_id
        if kind in _COMMAND_NAME_IDS and node.named_child_count == 1:
            kind = node.named_child(0).kind_id  # not named_children: a list of nodes, 5x the time
        start, end = node.start_byte, node.end_byte
        if kind in _PLAIN_IDS and end > start and unit._chars is None:
            # Most words are plain ASCII text: with no backslash to remove, the value is the text
            # and each character maps to its own offset, as `_eval` would find one by one.
            text = unit.text[start:end]
            if "\\" not in text:
                if unit.origin is None:  # made in C (`Word(...)` is a Python-level call), as most words are
                    return Word._from_tuple((text, text, unit.location(node), _offsets(start, end + 1), False))
                if end < len(unit.origin):  # a map with an entry past each character, as they all have
                    origin = array("i", unit.origin[start:end])  # one copy from a nested unit's array
                    origin.append(origin[-1] + 1)
                    return Word._from_tuple((text, text, unit.location(node), origin, False))
        piece = Piece()
        self._eval(node, piece)
        origin = piece.origin  # an array, compact: facts cross process boundaries and the cache
        origin.append(unit.file_offset(unit.char(end) - 1) + 1 if end > start else 0)
        value = piece.text if piece.static else None
        return Word._from_tuple((value, piece.text, unit.location(node), origin, piece.passthrough))

    def _eval(self, node, piece: Piece) -> None:
        kind = node.type  # the kinds most frequent first
        unit = self.unit
        if kind == "string_content":
            start, end = unit.chars_of(node)
            self._literal(unit.text[start:end], start, piece, quoted=DOUBLE_QUOTED)
        elif kind == "simple_expansion" or kind == "expansion":
            self._expansion(node, piece, *unit.chars_of(node))
        elif kind == "string" or kind == "translated_string":
            self._string(node, piece)
        elif kind in _LITERALS:
            if node.named_child_count and kind == "command_name":
                for child in node.named_children:
                    self._eval(child, piece)
                return
            start, end = unit.chars_of(node)
            self._literal(unit.text[start:end], start, piece, quoted=None)
        elif kind == "raw_string":
            start, end = unit.chars_of(node)
            piece.add(unit.text[start + 1 : end - 1], unit.file_offsets(start + 1, end - 1))
        elif kind == "ansi_c_string":  # `$'...'`: each character where it is written, escapes read
            start, end = unit.chars_of(node)
            raw, offsets = unit.text[start + 2 : end - 1], unit.file_offsets(start + 2, end - 1)
            i = 0
            while i < len(raw):
                pair = raw[i : i + 2]
                escaped = _ANSI_C_ESCAPES.get(pair) if len(pair) == 2 else None
                piece.add(escaped or raw[i], (offsets[i],))
                i += 2 if escaped else 1
        elif kind == "concatenation":
            for child in node.children:
                self._eval(child, piece)
        elif not node.is_named:
            self._literal(unit.node_text(node), unit.char(node.start_byte), piece, quoted=None)
        else:  # command/arithmetic/process substitution, brace expansion, ...
            raw = unit.node_text(node)
            if kind == "command_substitution":
                up = _PARENT_OF_PWD.fullmatch(raw) is not None  # `$(dirname "$PWD")`
                if up or _PWD.fullmatch(raw):  # `$(pwd)`, `` `pwd` ``
                    start, end = unit.chars_of(node)
                    if self._here(piece, unit.file_offset(start), unit.file_offset(end - 1), up=up):
                        return
                elif "dirname" in raw:
                    raw = _DIRNAME_OF.sub(self._dirname_of, raw)
                elif (found := _WHICH.fullmatch(raw)) is not None:  # `$(which python)`: the command of that name
                    start, end = unit.chars_of(node)
                    piece.expanded(found.group(1), unit.file_offset(start), unit.file_offset(end - 1))
                    return
            piece.dynamic(raw, unit.file_offset(unit.char(node.start_byte)))

    def _made_of_cwd(self, words: list[Word]) -> bool:
        """Words of a nested string that hold an expansion the outer shell made from `pwd` (their
        characters stand at it: `Piece.expanded`): `bash -c "... $(pwd)/conf"` is absolute when it runs."""
        return bool(self.cwd_read_at) and any(not self.cwd_read_at.isdisjoint(w.origin) for w in words)

    def _here(self, piece: Piece, at: int, last: int, *, up: bool = False) -> bool:
        """`pwd` or `$PWD` in a word: the directory the shell is in, when known (`State.cwd`), as
        "." (paths are read from there, as they are at the start) or its absolute path; `up`, the
        one above it (`$(dirname "$PWD")`: ".." or the absolute path's)."""
        cwd = self.state.cwd
        if cwd is None:
            return False
        absolute = cwd.startswith("/")
        piece.expanded((posixpath.dirname(cwd) if up else cwd) if absolute else ".." if up else ".", at, last)
        if not absolute:
            self.read_cwd = True
            self.cwd_read_at.add(at)
        return True

    def _dirname_of(self, named: re.Match) -> str:
        """`$(dirname "$SCRIPT")` as written with SCRIPT's template in it, when SCRIPT is partly
        unknown (`SCRIPT=$(readlink -f "$0")`): `$(dirname $(readlink -f "$0"))`, the launcher's
        own directory (`graph.own_path`), as `$SCRIPT/x` alone reads as SCRIPT's template; in a
        command substitution too (`$(cd "$(dirname "$SOURCE")" && pwd)`, `$(dirname $(dirname
        $HERE))`), with `` `dirname $SCRIPT` `` as `$(dirname ...)`."""
        template = self._template_of(named.group(1))
        return named.group(0) if template is None else f"$(dirname {template})"

    def _literal(self, text: str, start: int, piece: Piece, *, quoted: str | None) -> None:
        """Copy text, removing the backslashes the shell removes: before any character (`quoted`
        None), else only before one of `quoted` (DOUBLE_QUOTED, IN_HEREDOC) or a line break."""
        unit = self.unit
        if "\\" not in text:
            piece.add(text, unit.file_offsets(start, start + len(text)))
            return
        kept: list[int] = []  # the indices of the characters the shell keeps
        i, n = 0, len(text)
        while i < n:
            escape = text.find("\\", i, n - 1)  # a backslash ending the text is kept
            if escape < 0:
                kept.extend(range(i, n))
                break
            kept.extend(range(i, escape))
            nxt = text[escape + 1]
            if nxt == "\n":  # a line continuation: both go
                i = escape + 2
            elif quoted is None or nxt in quoted:  # the backslash goes, the next character stays
                kept.append(escape + 1)
                i = escape + 2
            else:  # in double quotes before another character: both stay
                kept.append(escape)
                i = escape + 1
        piece.add("".join([text[k] for k in kept]), [unit.file_offset(start + k) for k in kept])

    def _string(self, node, piece: Piece) -> None:
        pos, end = self.unit.chars_of(node)
        self._expanded_text(node, piece, pos + 1, end - 1, DOUBLE_QUOTED)  # inside the quotes

    def _expanded_text(self, node, piece: Piece, pos: int, end: int, quoted: str) -> None:
        """The characters [pos, end) of a double-quoted string or an unquoted heredoc's body, with
        their expansions: what the shell makes of them."""
        unit = self.unit
        text, chars_of, literal = unit.text, unit.chars_of, self._literal
        for child in node.named_children:
            c_start, c_end = chars_of(child)
            kind = child.type  # string_content and expansions as `_eval` does them, one call less
            if (kind == "simple_expansion" or kind == "expansion") and text[c_start : c_start + 1].isspace():
                # tree-sitter-bash starts an expansion that follows another after a space at that
                # space (`"${A} ${B}"`, also past a line continuation: `"$A \<newline> $B"`): the
                # space is the string's, and the expansion is `${B}`.
                c_start = c_end - len(_BLANKS_AHEAD.sub("", text[c_start:c_end], count=1))
            if c_start > pos:
                literal(text[pos:c_start], pos, piece, quoted=quoted)
            if kind == "string_content" or kind == "heredoc_content":
                literal(text[c_start:c_end], c_start, piece, quoted=quoted)
            elif kind == "simple_expansion" or kind == "expansion":
                self._expansion(child, piece, c_start, c_end)
            else:
                self._eval(child, piece)
            if c_end > pos:
                pos = c_end
        if end > pos:
            literal(text[pos:end], pos, piece, quoted=quoted)

    def _expansion(self, node, piece: Piece, start: int, end: int) -> None:
        """`$NAME` or `${...}`, its characters [start, end) in the unit."""
        unit = self.unit
        raw = unit.text[start:end]
        at = unit.file_offset(start)
        variables = self.state.variables
        # `$NAME` and `${NAME}`, most expansions, hold a variable's name and nothing else: read
        # from the text, not the tree (`$_` is a special parameter, to tree-sitter-bash as to bash).
        name = raw[2:-1] if raw[1:2] == "{" and raw[-1] == "}" else raw[1:]
        if not (name.isidentifier() and name.isascii() and name != "_"):
            named = node.named_children
            for name_node in named:
                name_kind = name_node.type
                if name_kind == "variable_name" or name_kind == "special_variable_name":
                    break
            else:
                name_kind = None
            if name_kind != "variable_name":
                if self.arguments is not None and (raw == "$#" or raw == "${#}") and self._positional(node, piece, "#", raw, at, end):
                    return
                every = _EVERY_ARGUMENT.fullmatch(raw)
                if every is not None and ("@" in raw or not _quoted(node)):
                    shifted = self._shifted()
                    if shifted is not None:  # `"$@"`, `${@:3}`, `$*`: all from the first (the third) on
                        self._own_argument(at, -shifted - max(int(every.group(1) or 1) - 1, 0))
                piece.dynamic(raw, at, passthrough=raw.strip('"{}$') in ("@", "*"))
                return
            name = unit.node_text(name_node)
            operator = node.child_by_field_id(_OPERATOR)
            if self.arguments is not None and name.isdigit() and self._positional(node, piece, name, raw, at, end):
                return
            if name.isdigit() and not (operator is not None and unit.node_text(operator) in (":-", "-") and self._own_arguments()):
                shifted = self._shifted() if (raw == f"${name}" or raw == f"${{{name}}}") and name != "0" else None
                if shifted is not None:
                    self._own_argument(at, int(name) + shifted)
                piece.dynamic(raw, at, passthrough=True)
                return
            if operator is not None or len(named) != 1:
                op = unit.node_text(operator) if operator is not None else ""
                if op in (":-", "-", ":=", "="):
                    known = variables.get(name, "")
                    if name in variables and known is None:
                        piece.dynamic(raw, at)
                    elif name in variables and (known or op in ("-", "=")):
                        self._read_variable(name, at, unit.file_offset(end - 1))
                        piece.expanded(known, at, unit.file_offset(end - 1))
                    else:
                        if name not in variables and self.read_defaults is not None:
                            self.read_defaults.add(name)
                        default = [c for c in named if c is not name_node]
                        if not default:
                            piece.add("", at)
                        start, begun, static = len(piece.origin), len(piece.text), piece.static
                        piece.static = True
                        for child in default:
                            if child.type == "word" and "`" in unit.node_text(child):
                                # `${N:-`nvidia-smi -L | wc -l`}`: tree-sitter-bash reads the
                                # substitution as a word, whose words are not N's (devit)
                                piece.dynamic(unit.node_text(child), at)
                            else:
                                self._eval(child, piece)
                        if self.reading is not None:  # the default's characters: a later call may find the variable set
                            self.reading.append(Read(name, variables.get(name, _ABSENT), self.state.assigned.get(name), tuple(piece.origin[start:])))
                        if op in (":=", "="):  # `: "${SCRIPT:=train.py}"` sets SCRIPT to its default too
                            given = piece.text[begun:]
                            value = given if piece.static else None
                            unset = name not in variables
                            self.state.assign(name, value, Word(value, given, unit.location(node), piece.origin[start:]))
                            if unset:
                                self._defaulted(name, {name})
                        piece.static = static and piece.static
                    return
                if op in (":+", "+") and name in variables and variables[name] is not None:
                    # `${ckpt:+--checkpoint $ckpt}` of a known value: its word when set (not empty, for `:+`), else nothing
                    self._read_variable(name, at, unit.file_offset(end - 1))
                    if variables[name] == "" and op == ":+":
                        piece.add("", at)
                        return
                    alternate = [c for c in named if c is not name_node]
                    if not alternate:
                        piece.add("", at)
                    for child in alternate:
                        self._eval(child, piece)
                    return
                piece.dynamic(raw, at)
                return
        value = variables.get(name)
        if value is not None:
            self._read_variable(name, at, unit.file_offset(end - 1))
            piece.expanded(value, at, unit.file_offset(end - 1))
        elif name != "PWD" or name in variables or not self._here(piece, at, unit.file_offset(end - 1)):
            written = self._template_of(name)
            if written is not None and "'" in written and _in_single_quotes(piece.text):
                # A string parsed again takes the value as its text there (`ssh n "bash -c 'echo
                # $HEAD'"`): the quotes of HEAD=$(awk '{print $1}' f) as written would end them.
                written = None
            if written is not None and _name_goes_on(unit.text, end):  # `${TAG}_a.log`, TAG=run_$DEV: `run_${DEV}_a.log`
                written = _LAST_NAME.sub(r"${\1}", written)
            if written is not None:
                self._set_by(name, at, at)
                if self.script.arguments:  # `PORT=$1`, then `$PORT`: the script's argument too
                    word = self.state.assigned[name]
                    number = self.script.arguments.get(word.origin[0]) if word.origin else None
                    # `ARGS="$@"`, then `$ARGS`: the arguments joined, split again where not quoted
                    if number is not None and written == word.template and (number > 0 or not _quoted(node)):
                        self._own_argument(at, number)
            piece.dynamic(written or raw, at)

    def _positional(self, node, piece: Piece, name: str, raw: str, at: int, end: int) -> bool:
        """`$1`, `${2}`, `${3:-x}`, `${1:+x}`, `$#` in a function's body walked for a call whose
        arguments are known (`Arguments`): the call's word (`launch 0,1 29500` gives `$2` 29500), or
        nothing past its last (`$3` unset), as a variable's value is read, each character standing
        at the expansion; what a later call of the function finds there is compared with it
        (`Read`, `_called_again`, `_again`). False: not known here, and read so (an argument not
        known itself, `$ENVS` or `"$@"` before it); not known and not read (a `shift` in a branch),
        in a loop of the body (a `shift` there moves them for the next round: `while [ $# -gt 0 ];
        do case $1 in ...`), and any other form (`$10` is `${1}0`, `${1#x}`, `${#1}`), as the
        script's own arguments are."""
        arguments, unit = self.arguments, self.unit
        if arguments.lost or name == "0" or not name.isascii() or any(b.kind == LOOP for b in self.blocks[arguments.depth :]):
            return False
        words, complete = arguments.bound(unit)
        last = unit.file_offset(end - 1)
        begun = len(piece.origin)
        held = f"#{arguments.shifted}" if name == "#" else str(int(name) + arguments.shifted)  # by the call's word it is, past those shifted
        if name == "#":
            word, value = None, str(len(words)) if complete else None
        else:
            number = int(name)
            plain = raw == f"${{{name}}}" or raw == f"${name}" and number < 10
            operator = node.child_by_field_id(_OPERATOR)
            op = unit.node_text(operator) if operator is not None else None
            if not plain and op not in (":-", "-", ":+", "+"):
                return False
            word = words[number - 1] if number <= len(words) else None
            value = word.value if word is not None else _ABSENT if complete else None
        if value is None:  # `launch $X`, `launch "$@"`: not known here, as it is today
            if self.reading is not None:
                self.reading.append(Read(held, None, word, (at, last)))
            return False
        if name == "#":
            piece.expanded(value, at, last)
        else:
            given = value is not _ABSENT and (value != "" or op == "-" or op == "+")
            if op is None or given and op in (":-", "-"):
                piece.expanded(value if value is not _ABSENT else "", at, last)
            elif given or op in (":-", "-"):  # the default when not given (empty, for `:-`), the alternate when given
                for child in node.named_children[1:]:
                    self._eval(child, piece)
        if self.reading is not None:  # `$1` after `shift` is the second
            self.reading.append(Read(held, value, word, (at, last, *piece.origin[begun:])))
        return True

    def _read_variable(self, name: str, at: int | None = None, last: int = 0) -> None:
        """A known variable's value is read: the defaults it came from are read with it; by an
        expansion whose first and last characters are at `at` and `last`: see `_set_by`."""
        state = self.state
        if self.read_defaults is not None and name in state.defaulted:
            self.read_defaults |= state.defaulted[name]
        if state.cwd_bound and name in state.cwd_bound:
            self.read_cwd = True
            value = state.variables.get(name)
            if at is not None and value is not None and _FROM_HERE.fullmatch(value):  # a path, not a command line
                self.cwd_read_at.add(at)
        if at is not None:
            self._set_by(name, at, last)

    def _set_by(self, name: str, at: int, last: int) -> None:
        """The assignment `name` got its value (or its template) from is where the characters of
        its expansion at `at`..`last` were written (`ShellScript.expansions`)."""
        word = self.state.assigned.get(name)
        set_by = SetBy(word.location, name) if word is not None else None
        if not self.script.expansions:
            self.script.expansions = {}
        expansions = self.script.expansions
        for offset in (at, last):
            if expansions.setdefault(offset, set_by) != set_by:  # walked again after another assignment
                expansions[offset] = None
        if self.reading is not None:
            self.reading.append(Read(name, self.state.variables.get(name, _ABSENT), word, (at, last)))

    def _own_argument(self, at: int, number: int) -> None:
        """The expansion at `at` is the script's own positional parameter `number`, whole, or
        its arguments from the `1 - number`th on (`ShellScript.arguments`)."""
        if not self.script.arguments:
            self.script.arguments = {}
        self.script.arguments[at] = number

    def _template_of(self, name: str) -> str | None:
        """What an unknown variable was set to, as written, when only a part of it is unknown:
        `OUTFILE="/tmp/${RUN}/train.log"` is `/tmp/${RUN}/train.log`, still a log by its name. Not
        a value made unknown by setting it differently in a branch: any arm's is a guess; but the
        words every arm starts with stay (`State.settle`)."""
        return _as_written(self.state.assigned.get(name), name)

    def array_words(self, node) -> list[Word] | None:
        """The words of `"${ARR[@]}"` when ARR is a known array; one unknown word here when it is
        not known, or after the words arms that set it differently agree on (`_joined`), those
        not written before the arms standing here too; None when not an array."""
        inner, kind = node, node.type
        if kind == "string" and node.named_child_count == 1:
            inner = node.named_child(0)
            kind = inner.type
        if kind != "expansion" or inner.named_child_count != 1:
            return None
        sub = inner.named_child(0)
        if sub.type != "subscript":
            return None
        index = sub.child_by_field_name("index")
        name = sub.child_by_field_name("name")
        if index is None or name is None or self.unit.node_text(index) not in ("@", "*"):
            return None
        named = self.unit.node_text(name)
        values = self.state.arrays.get(named)
        if values is None:
            return [self.word(node)._replace(passthrough=True)]
        words, here = [], None
        for value in values:
            if value.location is None:  # one that arms agree on, or not (`_joined`): here, and no fix edits one arm
                if here is None:
                    here = self.word(node)._replace(passthrough=True)
                    at = here.origin[0]
                    self._set_by(named, at, at)  # its characters are the assignment's that last set the array
                value = here if _is_tail(value, named) else value._replace(location=here.location, origin=array("i", (at,)) * (len(value.text) + 1))
            words.append(value)
        return words

    def _own_arguments(self) -> bool:
        """Whether `$1`..`$9` here are the arguments the script was started with, so that a default
        of one (`${1:-configs/a.yaml}`) is what runs when the script is started without it, as a
        variable's is (`launches.decided_by_caller` asks the callers): in the file's own shell, not
        in a function (its own arguments), a loop (a `shift` later in it moves them for the next
        round) or a string run by another shell (`bash -c '...' _ a`), and after no `shift` or `set
        -- ...` of the script's."""
        return self.unit.origin is None and not self.arguments_moved and not any(b.kind == FUNCTION or b.kind == LOOP for b in self.blocks)

    def _shifted(self) -> int | None:
        """How many of the arguments the script was started with its own `shift`s dropped before
        here, where `$1`.. and `"$@"` are those past them (`ShellScript.arguments`): in the file's
        own shell, not in a function or a loop (`_own_arguments`), after only `shift`s of a static
        count, each run whenever the script runs to it (not in an if's arm or after `&&`); None
        after any other `shift`, a `set -- ...` or a `getopts` (which reads them: those a loop of
        it takes are not known here)."""
        if self.unit.origin is not None or self.arguments_shifted is None or any(b.kind == FUNCTION or b.kind == LOOP for b in self.blocks):
            return None
        return self.arguments_shifted

    def _looping(self) -> bool:
        """In a loop: what an array is appended to there is not known (an arm of an if/case keeps
        it until the arms are joined: `State.settle`)."""
        return any(block.kind == LOOP for block in self.blocks)

    # --- statements ------------------------------------------------------------------------

    def walk(self, node, stdout: Sink | None, stderr: Sink | None) -> None:
        kind = node.type
        if kind in ("comment", "heredoc_body"):
            return
        if kind == "command":
            self.command(node, stdout, stderr, self.trailing.pop(node.id, []))
        elif kind == "redirected_statement":
            self.redirected_with_heredoc(node, stdout, stderr)
        elif kind == "pipeline":
            self.pipeline(node, node.named_children, [c for c in node.children if c.type in ("|", "|&")], stdout, stderr)
        elif kind == "variable_assignment":
            if not self._no_assignment(node):
                self.assignment(node, export=False)
        elif kind == "variable_assignments":
            for child in node.named_children:
                if not self._no_assignment(child):
                    self.assignment(child, export=False)
        elif kind == "declaration_command":
            self.declaration(node)
        elif kind == "unset_command":  # `unset NAME`; not `unset -f NAME`, a function
            names = node.named_children
            if not any(c.type == "word" and self.unit.node_text(c) in ("-f", "-n") for c in names):
                for child, after in zip(names, [*names[1:], None]):
                    if child.type == "variable_name":
                        if after is not None and after.start_byte == child.end_byte:  # `unset A[1]`: an element
                            self.state.forget((self.unit.node_text(child),))
                        else:
                            self.state.unset(self.unit.node_text(child))
                    elif child.type in ("raw_string", "string") and (element := _ELEMENT.fullmatch(self.unit.node_text(child)[1:-1])):
                        self.state.forget((element.group(1),))  # `unset 'A[1]'`: where each element is is not known after it
        elif kind == "function_definition":
            body = node.child_by_field_name("body")
            name = node.child_by_field_name("name")
            if name is not None and body is not None:
                # Walked at its first call, in the shell as it is there (`set -o pipefail` and
                # `export`s made after the definition count), or at the unit's end, as it was
                # here, when nothing calls it: its commands are seen once either way.
                block = Block(FUNCTION, self.unit.location(node))
                called = self.unit.node_text(name)
                if called in self.pending:  # defined again before any call: the first body is seen as never called
                    self._uncalled(called)
                self.functions[called] = body, block
                self.script.functions[called] = block.statement
                defined = self.state.checkpoint()
                exported = self.state.exports()[0]  # a copy made later goes on from its exports here
                defined.exports = exported if isinstance(exported, ExportedNames) else None
                self.pending[called] = Pending(body, block, tuple(self.blocks), defined, stdout, stderr)
        elif kind in LOOPS or kind in CONDITIONALS:
            self.compound(node, stdout, stderr)
        elif kind == "list" and node.named_child_count == 2 and node.named_child(0).type == "test_command":
            # `[[ ... ]] && cmd`, `[ ... ] || cmd`: cmd runs as an arm of the test would
            test, second = node.named_children
            self.walk(test, stdout, stderr)
            held, reads = self._condition([test])
            if held is not None and any(c.type == "||" for c in node.children):
                held = (held[0], held[1], not held[2])
            self.blocks.append(Block(ARM, self.unit.location(node), 0, (held,) if held is not None else (), reads))
            self.walk(second, stdout, stderr)
            self.blocks.pop()
        elif kind == "unary_expression":  # in `[ ... ]` or `[[ ... ]]`
            operator = node.child_by_field_id(_OPERATOR)
            operand = node.named_child(node.named_child_count - 1) if node.named_child_count else None
            if operator is not None and operand is not None and self.unit.node_text(operator) in FILE_TESTS:
                tested = self.word(operand)
                if self.loops and tested.value is None:
                    self._loop_word(operand, tested)
                self._tested(tested)
            self._children(node, stdout, stderr)
        elif kind == "subshell":
            self._subshell(self.unit.location(node), lambda: self._children(node, stdout, stderr))
        else:
            self._children(node, stdout, stderr)

    def compound(self, node, stdout: Sink | None, stderr: Sink | None) -> None:
        """A loop or an if/case: its commands know which loop body or which branch they are in,
        so a rule can tell jobs started many times, or never both, from a plain sequence."""
        self.state.branch_depth += 1
        kind = LOOP if node.type in LOOPS else ARM
        statement = self.unit.location(node)
        loops, outer = self.loops, self.grown
        if kind == LOOP:  # the first time round is not the others: `PORT=$((PORT + 1))` later
            carried, grown, appended = _loop_carried(self.unit, node)
            for name in carried | grown:
                held = self._jobs_of([f"${name}"], name)  # `PIDS="$PIDS $!"`: the jobs it holds, round after round
                words = self.state.elements(name) if name in grown else None
                self.state.assign(name, None, self._grown_word(name) if name in appended else None)
                if name in grown:  # `ARGS+=(--x "$f")`: what it had, then elements not known
                    self.state.arrays[name] = None if words is None else _then_unknown(name, words)
                if held is not None:
                    self.state.jobs[name] = held
            self.grown = self.grown | grown
            if node.type == "for_statement":
                self._static_loop(node)
        # Each arm of an if/case starts from the shell as it was after the `if`'s condition or the
        # `case` word (`base`): it is walked, what it changed kept (`State.leave`), and the shell
        # put back for the next. Then the arms' changes are applied one after another, each
        # settled (`State.settle`), and what the condition changed too (`start`).
        choice = self._argument_choice(node) if node.type == "if_statement" and self._own_arguments() else None
        kept = self._kept(choice[0]) if choice is not None and choice[2] < 0 else None  # its value before the `if`
        arm, start, base, ends, every, before = 0, self.state.checkpoint(), None, [], frozenset(), None
        children = node.children
        decided = self._arms_decided(node) if kind == ARM else None
        exhaustive = kind == ARM and self._exhaustive(node)  # one arm always runs: an `else`, a `*)`
        count = self._arm_count(node) if exhaustive else 0
        block = Block(kind, statement, 0, *decided[0], arms=count) if decided else Block(kind, statement, arms=count)
        for i, child in enumerate(children):
            if child.type in ("elif_clause", "else_clause", "case_item"):
                arm += 1
                tests, reads = decided[arm] if decided and arm < len(decided) else ((), frozenset())
                block = Block(kind, statement, arm, tests, reads, count)
                if base is not None:
                    self.state = base.state
                    if choice is not None and choice[2] == len(ends):
                        kept = self._kept(choice[0])
                    ends.append(self.state.leave(base))
            if kind == ARM and child.type in ("then", "elif_clause", "else_clause", "case_item"):
                base = self.state.checkpoint()
            if child.is_named:
                self.blocks.append(block)
                self._child(children, i, stdout, stderr)
                self.blocks.pop()
        if base is not None:
            self.state = base.state
            if choice is not None and choice[2] == len(ends):
                kept = self._kept(choice[0])
            if ends:
                ends.append(self.state.leave(base))
                # One arm runs, whatever the condition: a variable every arm sets has one of their
                # values, not the one before (`if ...; then CMD="torchrun $CMD"; else CMD="python $CMD"; fi`)
                variables = self.state.variables
                if exhaustive:
                    every = frozenset.intersection(*(frozenset(k for c, k, _ in end[0] if c is variables) for end in ends))
                before = self._before_arms(ends) if kind == ARM else None
                for i, end in enumerate(ends):
                    view = self.state.checkpoint()
                    self.state.resume(end)
                    self.state.settle(view, every if i == 0 else frozenset())
            else:  # one arm, walked in this shell: what it changed stays for `settle`
                if kind == ARM:
                    ends, before = self._one_arm(base)
                base.close()
        self.state.settle(start, every)
        if kept is not None:  # `if [ -n "$1" ]; then CFG=$1; else CFG=a.yaml; fi`: CFG is `${1:-a.yaml}`
            name, value, word, defaults = kept
            self.state.assign(name, value, word)
            self._defaulted(name, {choice[1], *defaults})
        if before:
            self._arm_sets(node, ends, before, decided, exhaustive)
        self.loops, self.grown = loops, outer
        self.state.branch_depth -= 1

    def _grown_word(self, name: str) -> Word | None:
        """A variable a loop only appends words to (`ARGS="$ARGS --x $f"`, `ARGS+=" --x"`): what it
        had, as written, then words not known here (`P ${NAME}`, as `State.settle` keeps after an
        arm that appends); None when nothing of it is known."""
        word = self.state.assigned.get(name)
        value = self.state.variables.get(name)
        had = value if value is not None else _kept(word, name)
        if word is None or not had or not had.strip():
            return None
        return Word(None, f"{had.rstrip()} ${{{name}}}", word.location, ())

    def _argument_choice(self, node) -> tuple[str, str, int] | None:
        """An `if` that sets a variable to one of the script's arguments when it is given, else to
        a default, as `${1:-a.yaml}` does: `if [ -n "$1" ]; then CFG=$1; else CFG=a.yaml; fi`,
        `-z` with the arms the other way round, `[ $# -ge 1 ]`, or no `else` after `CFG=a.yaml`.
        Each arm is that one assignment. The variable, the argument (`1`), and where the default
        is: the arm that sets it (0, 1), or -1 for the value the variable had before the `if`."""
        unit, children = self.unit, node.children
        then = next((i for i, c in enumerate(children) if c.type == "then"), None)
        if then is None or any(c.type == "elif_clause" for c in children):
            return None
        condition = [c for c in children[1:then] if c.is_named and c.type != "comment"]
        tested = _argument_test(unit, condition)
        otherwise = next((c for c in children if c.type == "else_clause"), None)
        if tested is None:
            return None if otherwise is not None else self._default_of_argument(condition, children[then + 1 :])
        number, given = tested
        arms = [[c for c in children[then + 1 :] if c.type != "else_clause"]] + ([otherwise.children] if otherwise is not None else [])
        assigned = [_lone_assignment(unit, arm) for arm in arms]
        if None in assigned or len({name for name, _ in assigned}) != 1:
            return None
        argument = 0 if given else 1
        if argument >= len(arms) or assigned[argument][1] != number:
            return None
        name = assigned[0][0]
        if otherwise is None and self.state.variables.get(name, _ABSENT) is _ABSENT:
            return None  # `if [ -n "$1" ]; then CFG=$1; fi` with no CFG before: no default
        return name, number, 1 - argument if otherwise is not None else -1

    def _default_of_argument(self, condition, arm) -> tuple[str, str, int] | None:
        """`CFG=$1`, then `if [ "$CFG" == "" ]; then CFG=a.yaml; fi` (or `-z "$CFG"`): CFG is
        `${1:-a.yaml}`, as every DeepSpeed-Chat launcher writes its `OUTPUT` and `ZERO_STAGE`. The
        variable, the argument it holds, and 0: the `then` arm sets the default."""
        emptiness = _emptiness_test(self.unit, condition)
        variable = None if emptiness is None or emptiness[1] else _ONE_VARIABLE_WORD.fullmatch(emptiness[0])
        name = variable and (variable.group(2) or variable.group(3))
        assigned = _lone_assignment(self.unit, arm)
        if not name or assigned is None or assigned != (name, None):
            return None
        holds = self.state.assigned.get(name)
        argument = _ONE_ARGUMENT.fullmatch(holds.template) if holds is not None and holds.value is None else None
        return None if argument is None else (name, argument.group(2) or argument.group(3), 0)

    def _kept(self, name: str) -> tuple:
        """A variable's value, word and defaults now (`_argument_choice`'s default)."""
        state = self.state
        return name, state.variables.get(name), state.assigned.get(name), state.defaulted.get(name, frozenset())

    def _arms_decided(self, node) -> list[tuple[tuple[tuple[str, str, bool], ...], frozenset[str]]]:
        """(tests, reads) of each arm of an if/case (`Block`): an arm runs when its own condition
        holds and those before fail, a `case` arm when the word matches its patterns and none
        before (after a `;&` or `;;&`, the word is only read). Then, for an `if` without `else`
        and a `case`, what holds when no arm runs (`_arm_values`)."""
        arms, tests, reads = [], (), frozenset()
        if node.type == "if_statement":
            for clause in (node, *(c for c in node.children if c.type in ("elif_clause", "else_clause"))):
                if clause.type == "else_clause":
                    arms.append((tests, reads))
                    return arms
                then = next((i for i, c in enumerate(clause.children) if c.type == "then"), len(clause.children))
                test, read = self._condition([c for c in clause.children[1:then] if c.is_named])
                own = (test,) if test is not None else ()
                arms.append((tests + own, reads | read))
                tests, reads = tests + tuple((n, r, not m) for n, r, m in own), reads | read
            arms.append((tests, reads))
            return arms
        word = node.child_by_field_name("value")
        if word is None:
            return []
        name, read = _lone_variable(self.unit.node_text(word)), self._read([word])
        arms, tests, reads = [((), frozenset())], (), self._computed_from({name}) if name is not None else read
        for item in (c for c in node.children if c.type == "case_item"):
            patterns = [_pattern(self.unit.node_text(v), glob=True) for v in item.children_by_field_name("value")]
            regex = "|".join(f"(?:{p})" for p in patterns) if name is not None and patterns and None not in patterns else None
            if regex is None:
                name, tests, reads = None, (), read
            arms.append(((*tests, (name, regex, True)) if regex is not None else (), reads))
            tests += ((name, regex, False),) if regex is not None else ()
            if item.child_by_field_name("fallthrough") is not None:  # `;&`, `;;&`: the next arm runs too
                name, tests, reads = None, (), read
        arms.append((tests, reads))
        return arms

    def _condition(self, nodes) -> tuple[tuple[str, str, bool] | None, frozenset[str]]:
        """What the condition of an `if`/`elif` or before `&&` (its statements, `nodes`) says of
        the variables: one test of a variable against a static pattern as (name, regex, whether the
        value matches when the condition holds), else None; and the variables it reads otherwise."""
        test = nodes[0].named_child(0) if len(nodes) == 1 and nodes[0].type == "test_command" and nodes[0].named_child_count == 1 else None
        double = test is not None and nodes[0].children[0].type == "[["
        if test is not None and test.type == "unary_expression" and test.named_child_count == 2:
            operator, operand = (self.unit.node_text(c) for c in test.children)
            name = _lone_variable(operand)
            if operator in ("-z", "-n") and name is not None and (double or operand.startswith('"')):
                return (name, "", operator == "-z"), self._computed_from({name})
        elif test is not None and test.type == "binary_expression":
            operator, left = test.child_by_field_id(_OPERATOR), test.child_by_field_name("left")
            name = _lone_variable(self.unit.node_text(left)) if left is not None else None
            right = "".join(self.unit.node_text(c) for c in test.children_by_field_name("right"))
            regex = _pattern(right, glob=double) if name is not None and right else None
            if regex is not None and operator is not None and self.unit.node_text(operator) in ("=", "==", "!="):
                return (name, regex, self.unit.node_text(operator) != "!="), self._computed_from({name})
        return None, self._read(nodes)

    def _read(self, nodes) -> frozenset[str]:
        """The variables `nodes` read (not those they assign: `if CUDA_VISIBLE_DEVICES=0 cmd`), with
        those their values were computed from; the positional parameters too (`1`, `#`, `@`)."""
        names, stack = set(), list(nodes)
        while stack:
            node = stack.pop()
            kind = node.type
            if kind == "variable_name" or kind == "special_variable_name":
                if node.parent is None or node.parent.type != "variable_assignment":
                    names.add(self.unit.node_text(node))
            else:
                stack.extend(node.named_children)
        return frozenset(names) | self._computed_from(names)

    def _computed_from(self, names) -> frozenset[str]:
        """The variables the last assignments of `names` read (`N=$(echo $CUDA_VISIBLE_DEVICES | wc -l)`),
        and the script's arguments whose default they took (`MODE=${1:-train}`: `1`)."""
        found = set()
        defaulted = self.state.defaulted
        for name in names:
            word = self.state.assigned.get(name)
            if word is not None:
                found.update(m.group(1) for m in _READ.finditer(word.template))
            if defaulted and name in defaulted:
                found.update(n for n in defaulted[name] if n.isdigit())
        return frozenset(found)

    @staticmethod
    def _arm_count(node) -> int:
        """The arms of an if (`then`, each `elif`, the `else`) or a case (each item)."""
        items = sum(c.type in ("elif_clause", "else_clause", "case_item") for c in node.children)
        return items + (node.type == "if_statement")

    def _exhaustive(self, node) -> bool:
        """An `if` with an `else`, or a `case` with a `*)` arm: one of its arms runs."""
        if node.type == "if_statement":
            return any(c.type == "else_clause" for c in node.children)
        return node.type == "case_statement" and any(
            self.unit.node_text(v) == "*" for c in node.children if c.type == "case_item" for v in c.children_by_field_name("value")
        )

    def _before_arms(self, ends: list[ArmEnd]) -> dict[str, tuple] | None:
        """The variables the arms of an if/case (`ends`, at most `MAX_ARMS`) set to a static
        string, with their values and words before the statement, and whether the value is a
        default a caller may replace (`_arm_sets`)."""
        if len(ends) > MAX_ARMS:
            return None
        variables, assigned, defaulted = self.state.variables, self.state.assigned, self.state.defaulted
        names = {k for end in ends for c, k, now in end[0] if c is variables and type(now) is str}
        return {k: (variables.get(k, _ABSENT), assigned.get(k), k in defaulted) for k in names}

    def _one_arm(self, view: Checkpoint) -> tuple[list[ArmEnd], dict[str, tuple] | None]:
        """What the only arm of an if/case, begun at `view`, changed (as `State.leave` tells it)
        of the variables it set to a static string, and `_before_arms` of them."""
        state = self.state
        variables, assigned, defaulted = state.variables, state.assigned, state.defaulted
        entries = state.journal.entries[view.position :]
        names = {k for c, k, _ in entries if c is variables and type(variables.get(k)) is str}
        if not names:  # most: an arm that sets nothing (`echo ...; exit 1`)
            return [], None
        changes = view.changes()

        def then(container, name: str):  # at `view`
            return changes.get((id(container), name), container.get(name, _ABSENT))

        before = {}
        for k in names:
            word = then(assigned, k)
            before[k] = (then(variables, k), word if word is not _ABSENT else None, then(defaulted, k) is not _ABSENT)
        return [([(c, k, c.get(k, _ABSENT)) for k in names for c in (variables, assigned, defaulted)], {})], before

    def _arm_sets(self, node, ends: list[ArmEnd], before: dict[str, tuple], decided, exhaustive: bool) -> None:
        """Keep, for each variable an if/case leaves unknown (`State.settle`) though its arms set it
        to static strings (`EXTRA="--layers 32"` in one, `EXTRA=""` in another), what its ways
        through the statement are made of (`ArmSet`), for a command that expands it whole and
        unquoted later (`_arm_word`): what each way gives it is read then (`_arm_values`), so that
        only such commands pay. Nothing for a `case` one arm of which goes on into the next (`;&`,
        `;;&`), nor where a condition reads a value known here in a way not decided (`[ $NODES
        -gt 1 ]` after `NODES=1`: which arm runs is not known)."""
        state = self.state
        variables, assigned = state.variables, state.assigned
        names = [k for k in before if variables.get(k, _ABSENT) is None and k not in state.arrays and k in assigned]
        if not names:
            return
        ways = decided[1:] if node.type == "case_statement" else decided
        ways = ways[: len(ends) + (not exhaustive)]
        if len(ways) != len(ends) + (not exhaustive):
            return
        items = node.named_children if node.type == "case_statement" else ()
        if any(c.child_by_field_name("fallthrough") is not None for c in items):
            return
        deps = frozenset(n for tests, _ in ways for n, _, _ in tests).union(*(reads for _, reads in ways))
        known = {}  # the values the conditions read, before the statement, that are no defaults a caller may replace
        for n in deps:
            value, _, default = before[n] if n in before else (variables.get(n), None, n in state.defaulted)
            if type(value) is str and not default:
                known[n] = value
        if any(n in known for _, reads in ways for n in reads):
            return
        made = (node, ends, before, ways, known, (variables, assigned, state.defaulted))
        blocks = tuple(self.blocks)
        for name in names:
            self.arm_sets[name] = ArmSet(assigned[name], made, None, deps, blocks)

    def _arm_values(self, found: ArmSet, name: str) -> tuple[Location, ArmWays]:
        """The statement of `found` and what each way through it gives the variable `name`: for
        each arm, then, where none may run (an `if` without `else`, a `case` without `*)`), the
        value before it, where it was set (the statement: nowhere) and the words an unquoted
        `$EXTRA` makes of it (`_fields`); None where not known: an arm that does not set it (it
        may `exit`, or call a function that does), sets it to a value not known or to a default
        a caller may replace (`${EXTRA:---x}`), or may leave the statement (`exit`, `return`,
        `break`, `continue`, `exec`, a call of the script's functions). A way that cannot run with
        the values its tests read (`SIZE=big`, then `[ "$SIZE" = small ]`) is not one."""
        # the containers are those the arms' ends name
        node, ends, before, ways, known, (variables, assigned, defaulted) = found.ways
        statement = self.unit.location(node)
        arms = _arm_nodes(node)
        values = []
        for i, (tests, _) in enumerate(ways):
            if not all(Block(ARM, statement, i, tests).allows(n, known[n]) for n, _, _ in tests if n in known):
                continue
            if i == len(ends):  # where no arm runs: the value before
                value, word, default = before[name]
            else:
                value = word = None  # not set in the arm: not known
                default = False
                for c, k, now in ends[i][0]:
                    if k == name and (c is variables or c is assigned):
                        value, word = (now, word) if c is variables else (value, now)
                    default = default or k == name and c is defaulted and type(now) is frozenset
                if value is not None and self._may_leave(arms[i]):
                    value = None
            value = None if default else value  # `EXTRA=${EXTRA:---x}`: the caller's to say
            fields = None if value is None else () if value is _ABSENT else self._fields(value, word)
            values.append(None if fields is None else (word.location if type(word) is Word else statement, fields))
        return statement, tuple(values)

    def _fields(self, value: str, word) -> tuple[Word, ...] | None:
        """The words an unquoted expansion of a variable holding `value`, set by `word`, makes, each
        located at its characters when they are written in a row (`--layers` of
        `EXTRA="--layers 32"`), else at the word; none for a blank value; None when the word does
        not hold the value as written (`EXTRA+=" --x"`)."""
        if not value.strip(IFS_WHITESPACE):
            return ()
        if type(word) is not Word or word.value != value or word.template != value or len(word.origin) <= len(value):
            return None
        index, path = self.unit.index, self.unit.path
        fields = []
        for field in split_fields(word):
            origin, n = field.origin, len(field.template)
            if origin[n - 1] - origin[0] == n - 1:
                field = field._replace(location=index.span(path, origin[0], origin[n - 1] + 1))
            fields.append(field)
        return tuple(fields)

    def _may_leave(self, nodes) -> bool:
        """Whether the statements `nodes` of an arm hold a command that may leave it for good: `exit`,
        `return`, `break`, `continue`, `exec`, or a call of a function of the script (`usage`)."""
        stack, unit = list(nodes), self.unit
        while stack:
            node = stack.pop()
            if node.type == "command":
                name = node.child_by_field_name("name")
                text = unit.node_text(name) if name is not None else ""
                if text in _LEAVING or text in self.functions:
                    return True
            stack.extend(node.named_children)
        return False

    def _static_loop(self, node) -> None:
        """`for s in prepare.py "train.py"; do ...`: each word of the list static (a pattern too,
        kept as written: no rule judges one), none empty or holding a blank (the body may split
        it): while its body is walked, `$s` takes each of them (`_loop_word`). The variable's
        value there is unknown, and marked as the loop's by where the loop names it."""
        variable = node.child_by_field_name("variable")
        items = node.children_by_field_name("value")
        if variable is None or not items or len(items) > MAX_LOOP_WORDS:  # `for s; do`: the script's arguments
            return
        # `for cfg in "${CFGS[@]}"`: a known array's elements, each where the array's assignment wrote
        # it, when they name files (a loop over seeds or names would cost each command a variant
        # per element for no path to judge: +2.5% on the 1,000-file benchmark)
        spliced = self.array_words(items[0]) if len(items) == 1 and items[0].kind_id in _ARRAYS_IDS else None
        if spliced and len(spliced) <= MAX_LOOP_WORDS and any(w.value and _FILE_NAMED.search(w.value) for w in spliced):
            words = tuple(spliced)
        else:
            words = tuple(self.word(item) for item in items)
        if any(not w.value or " " in w.value or "\t" in w.value or "\n" in w.value for w in words):
            return
        name, where = self.unit.node_text(variable), self.unit.location(variable)
        self.state.assign(name, None, Word(None, "", where))
        self.loops = {**self.loops, name: (where, words)}

    def _loop_word(self, node, word: Word) -> None:
        """Record the values `word` (read from `node`) takes when its one unknown part is the
        variable of a static loop being walked (`python "$s"`, `--config configs/$s.yaml`), one
        per word of the loop's list, located there (`ShellScript.loop_values`)."""
        names = {found[1:].strip("{}") for found in _EXPANSION_AT.findall(word.template)}
        assigned = self.state.assigned
        looped = [n for n in names if n in self.loops and (a := assigned.get(n)) is not None and a.value is None and a.location == self.loops[n][0]]
        if len(looped) != 1:
            return
        name = looped[0]
        where, items = self.loops[name]
        variables, read, read_cwd = self.state.variables, self.read_defaults, self.read_cwd
        self.read_defaults = None
        values = []
        for item in items:
            variables[name] = item.value
            value = self.word(node).value
            if value is None:  # another part is unknown
                break
            values.append(Word(value, value, item.location))
        variables[name], self.read_defaults, self.read_cwd = None, read, read_cwd
        if len(values) == len(items):
            if not self.script.loop_values:
                self.script.loop_values = {}
            self.script.loop_values[word.location] = (where, tuple(values))

    def _arm_word(self, node, words: list[Word]) -> None:
        """Record the words `words` (all made by `node`) take on each way through the if/case that
        left the variable `node` expands, whole and unquoted (`$EXTRA`), with static values in its
        arms (`_arm_values`), when it holds what that statement left (`ShellScript.arm_values`).
        Not for a command outside a block around the statement, nor in an arm of another if/case
        whose condition reads a variable the statement's conditions read, or none (`[ -f x ]`):
        the two may be decided alike (`if [ "$M" = a ]; then python a.py $EXTRA; else python b.py
        $EXTRA; fi` after `if [ "$M" = a ]; then EXTRA=--x; fi`)."""
        match = _PLAIN_EXPANSION.fullmatch(self.unit.node_text(node)) if _unquoted_expansion(node) else None
        name = (match.group(1) or match.group(2)) if match is not None else ""
        found = self.arm_sets.get(name)
        if found is None or self.state.assigned.get(name) is not found.word:
            return
        around = len(found.blocks)
        if tuple(self.blocks[:around]) != found.blocks:
            return
        for block in self.blocks[around:]:
            if block.kind == ARM and (not block.tests and not block.reads or not found.names.isdisjoint(block.reads)):
                return
            if block.kind == ARM and any(n in found.names for n, _, _ in block.tests):
                return
        if found.values is None:  # read once, at the first command that expands it
            found = self.arm_sets[name] = found._replace(values=self._arm_values(found, name))
        statement, values = found.values
        if not any(values):
            return
        if not self.script.arm_values:
            self.script.arm_values = {}
        entry = (statement, values, len(words), tuple(self.blocks))
        where = words[0].location
        if self.script.arm_values.setdefault(where, entry) != entry:  # walked again after another statement
            self.script.arm_values[where] = None

    def _children(self, node, stdout: Sink | None, stderr: Sink | None) -> None:
        children = node.children
        for i, child in enumerate(children):
            if child.is_named:
                self._child(children, i, stdout, stderr)

    def _child(self, children: list, i: int, stdout: Sink | None, stderr: Sink | None) -> None:
        """Walk one statement of a list (a named child: `;`, `&&`, `do`, `fi` hold nothing to
        walk, and the callers pass them over before a call); `&` after it puts all its commands
        in the background, in a subshell of their own: a `cd` or an assignment there ends with
        the job (`cd server && python serve.py &`, then `python client.py` runs here)."""
        child = children[i]
        background = i + 1 < len(children) and children[i + 1].kind_id in _AMPERSAND_IDS
        before = len(self.script.commands)
        if not background:
            self.walk(child, stdout, stderr)
        else:
            self._subshell(self.unit.location(child), lambda: self.walk(child, stdout, stderr))
            self.last_job = tuple(self.script.commands[before:])
            for command in self.script.commands[before:]:
                if id(command) not in self.called_bodies:  # `run 1e-4 &`: the call is the job
                    command.background = True

    def _subshell(self, where: Location, walk: Callable[[], object]) -> None:
        """`walk` in a subshell at `where` (`( )`, `$( )`, a job's `&`, a pipeline's stage that is
        a function): a `cd` or an assignment there ends with it."""
        saved = self.state.checkpoint()
        self.blocks.append(Block(SUBSHELL, where))
        walk()
        self.blocks.pop()
        self.state = saved.state
        self.state.rollback(saved)

    def redirected_with_heredoc(self, node, stdout: Sink | None, stderr: Sink | None) -> None:
        """tree-sitter-bash puts what follows a heredoc's start on its line inside the heredoc
        redirect: `python - <<'PY' | tee log` is a pipeline, `cat <<EOF > ds.json && deepspeed
        ...` a list, and they are walked as such."""
        heredoc = node.named_child(node.named_child_count - 1)
        if heredoc is None or heredoc.type != "heredoc_redirect":
            self.redirected(node, stdout, stderr)
            return
        repaired = None
        if heredoc.has_error and self.repairs < MAX_REPAIRS:
            self.repairs += 1
            repaired = _piped_after_redirects(self.unit, node, heredoc)
        if repaired is not None:  # `python - <<'PY' 2>&1 | tee log`
            node, pipe = repaired
        else:  # `| cmd` is a pipeline that starts with its `|`; `&& a | b` has a pipeline on its right
            pipe = next((c for c in heredoc.named_children if c.type == "pipeline" and c.children[0].type in ("|", "|&")), None)
        if pipe is not None and pipe.named_child_count:
            rest = pipe.named_child(0)
            stages = [node, *(rest.named_children if rest.type == "pipeline" else [rest])]
            operators = [c for part in (pipe, rest) for c in part.children if c.type in ("|", "|&")]
            self.pipeline(node, stages, operators, stdout, stderr, last=pipe)
            return
        self.redirected(node, stdout, stderr)
        right = heredoc.child_by_field_name("right")
        if right is not None:  # `&& cmd`, `|| cmd`
            self.walk(right, stdout, stderr)

    def redirected(self, node, stdout: Sink | None, stderr: Sink | None) -> None:
        body = node.child_by_field_name("body")
        redirect_nodes = _redirect_nodes(node)
        if body is not None and body.type == "command":
            self.command(body, stdout, stderr, redirect_nodes, statement=node)
            return
        last = _last_simple_command(body)
        if last is not None:  # `cd /w && python t.py > log`: the redirects are python's alone
            self.trailing[last.id] = redirect_nodes
            self.walk(body, stdout, stderr)
            return
        redirects = [r for r in (self.redirect(n) for n in redirect_nodes) if r is not None]
        out, err = self._apply(redirects, stdout or self.state.stdout, stderr or self.state.stderr, node.id)
        if redirects:  # `{ ...; } 2>&1 > log`, `( ... ) > log`, `done > log`
            self.script.compound_redirects.append((redirects, err))
        if body is not None:
            self.walk(body, out, err)

    def pipeline(self, node, stages: list, operators: list, stdout: Sink | None, stderr: Sink | None, last=None) -> None:
        """`stages` joined by `operators`; `node` is the pipeline, or the first stage when a
        heredoc holds the rest, which ends at `last`."""
        whole = last is not None  # stage 0 is the statement that holds the heredoc
        spliced = False
        while stages[0].type == "redirected_statement":
            body = stages[0].child_by_field_name("body")
            tail = _last_simple_command(body) if body is not None and body.type in ("list", "pipeline") else None
            if tail is None:
                break
            # `set -o pipefail && python t.py 2>&1 | tee log`: tree-sitter-bash pipes the
            # redirected list (tree-sitter/tree-sitter-bash#345), bash only its last pipeline,
            # after the list's earlier commands ran in this shell (a `set` there counts). It
            # nests `a 2>&1 | b 2>&1 | c` the same way: bash's one pipeline, `2>&1` b's.
            self.trailing[tail.id] = _redirect_nodes(stages[0])
            right = body
            if body.type == "list":
                *earlier, right = body.named_children
                for child in earlier:
                    self.walk(child, stdout, stderr)
            if right.type == "pipeline":  # `a && b | c 2>&1 | d`: `b | c 2>&1 | d`
                operators = [*(c for c in right.children if c.type in ("|", "|&")), *operators]
                stages = [*right.named_children, *stages[1:]]
            else:
                stages = [right, *stages[1:]]
            whole, spliced = False, True
        if node.end_point.row != node.start_point.row and last is None:  # most pipelines are on one line
            for stage in stages:
                if stage.end_point.row != stage.start_point.row and stage.type == "command":
                    self._read_on(stage)
        before = len(self.script.commands)
        pipefail, pipefail_at = self.state.pipefail, self.state.pipefail_at  # as the pipeline starts: a stage's `set` cannot change it
        # Walk the last stage first so that each earlier stage can point at its reader.
        sinks_out: list[Sink] = []
        sinks_err: list[Sink] = []
        for i in range(len(stages)):
            if i == len(stages) - 1:
                sinks_out.append(stdout)
                sinks_err.append(stderr)
            else:
                pipe = Sink(PIPE, location=self.unit.location(operators[i]) if i < len(operators) else None)
                sinks_out.append(pipe)
                merged = i < len(operators) and operators[i].type == "|&"
                sinks_err.append(pipe if merged else (stderr or self.state.stderr))
                if merged and stages[i].type in ("command", "redirected_statement"):  # its redirects, then `2>&1`
                    self.merged[stages[i].id] = stderr or self.state.stderr
        stage_commands: list[list[Command]] = []
        for i, stage in enumerate(stages):
            start = len(self.script.commands)
            (self.redirected if whole and i == 0 else self.walk)(stage, sinks_out[i], sinks_err[i])
            if self.merged:  # a stage with no redirects of its own left its entry
                self.merged.pop(stage.id, None)
            stage_commands.append(self.script.commands[start:])
        for i in range(len(stages) - 1):
            sinks_out[i].reader = _reader(stage_commands[i + 1])
        flat = [c for group in stage_commands for c in group if c.words]
        for command in self.script.commands[before:]:
            command.pipeline = flat
        self.script.pipelines.append(
            Pipeline(self.unit.location(stages[0] if spliced else node, last or node), stage_commands, sinks_out[:-1], pipefail, self.wrappers, pipefail_at)
        )
        if stage_commands[-1] and wrappers.installs_crontab(stage_commands[-1][0]):  # `echo "* * * * * cmd" | crontab -`
            for command in (c for group in stage_commands[:-1] for c in group):
                if command.name in ("echo", "printf") and command.wrappers == self.wrappers:
                    wrappers.cron(self, command)

    def _read_on(self, command) -> None:
        """Record the line ends between two parts of `command` that no backslash escapes."""
        end = None
        for part in command.children:
            if part.type == "comment":  # a line of its own among the parts: the line end before it counts
                continue
            if end is not None:
                self._line_end(end, part.start_byte)
            end = part.end_byte

    def _no_assignment(self, node) -> bool:
        """Whether `node` is what tree-sitter-bash takes for an assignment but bash does not, its
        name being no identifier: `--lr=1e-4` at a command's start (a line cut off from its
        command by a `\\` that a blank or a comment follows), which bash runs as a command of that
        name. Its `=` is recorded to be read as `.` (`read_on`): parsed again, it is the command's
        word, whose value is still read from the unit."""
        name = node.child_by_field_id(_NAME)
        if name is None or name.type != "variable_name":
            return False
        text, at = self.unit.node_text(name), name.end_byte
        if text.isidentifier() and text.isascii() or self.unit.data[at : at + 1] != b"=":
            return False
        self.read_on.append(at)
        return True

    def _line_end(self, start: int, stop: int) -> bool:
        """Record the first line end between `start` and `stop` (a command's part and the next
        that tree-sitter-bash read on to) that no backslash escapes, to be read as `;`. When a
        comment ends that line, a `;` there would be the comment's: the blank before the comment
        is read as `;` instead (`NPROC=4 PORT=29501 # 4 GPUs`)."""
        data = self.unit.data
        newline = data.find(b"\n", start, stop)
        while newline >= 0:
            # escaped by a backslash right before it; one before a `\r` escapes that (`_parsed_text`)
            if data[newline - 1 : newline] != b"\\":
                comment = data.find(b"#", start, newline)
                if comment >= 0:  # only blanks and continued lines lie between two parts: a comment
                    if data[comment - 1 : comment] not in (b" ", b"\t") or data[comment - 2 : comment - 1] == b"\\":
                        return False  # after a continued line (or an escaped blank): no blank of this line to take
                    newline = comment - 1
                self.read_on.append(newline)
                return True
            newline = data.find(b"\n", newline + 1, stop)
        return False

    def _apply(self, redirects: list[Redirect], stdout: Sink, stderr: Sink, stage: int) -> tuple[Sink, Sink]:
        """`apply_redirects` for the command or statement whose node id is `stage`. Before a `|&`
        (`pipeline` keeps its stderr before the pipe in `merged`) bash applies its redirects to
        that stderr and the pipe's `2>&1` last: `cmd >o |& tee log` writes both streams to `o`."""
        before = self.merged.pop(stage, None) if self.merged else None
        if before is None:
            return apply_redirects(redirects, stdout, stderr)
        stdout, _ = apply_redirects(redirects, stdout, before)
        return stdout, stdout

    def redirect(self, node) -> Redirect | None:
        if node.type != "file_redirect":
            return None
        fd_node = node.child_by_field_name("descriptor")
        dest = node.child_by_field_name("destination")
        op_node = next((c for c in node.children if not c.is_named), None)
        op = ">" if op_node is None else self.unit.node_text(op_node)
        fd = whole(self.unit.node_text(fd_node)) if fd_node is not None else None
        location = self.unit.location(node)
        if dest is None:
            return Redirect(op, fd, None, None, location)
        if op_node is not None and dest.start_point.row != op_node.start_point.row:
            # `--port <node1_port>` ending a line: tree-sitter-bash takes the next line's words
            # for the file name; bash wants one before the newline (unless a `\` continues it)
            _syntax_error(self, op_node)
        dest_text = self.unit.node_text(dest)
        # To its destination: the words tree-sitter-bash takes for more destinations are the
        # command's (`tee 2>&1 log`: `2>&1`, then tee's file; `_words_after`)
        if op in (">&", "<&") and (whole(dest_text) is not None or dest_text == "-"):
            return Redirect(op, fd, None, whole(dest_text), self.unit.location(node, dest))
        if dest.type == "process_substitution":
            redirect = Redirect(op, fd, self.word(dest), None, location, procsub=True)
            return redirect
        if op == ">&":  # `>&file` is `&>file`
            op = "&>"
        target = self.word(dest)
        for extra in node.children_by_field_name("destination")[1:]:
            if extra.start_byte != self._cut_at(dest):
                break
            target, dest = self._glued(target, extra), extra
        return Redirect(op, fd, target, None, self.unit.location(node, dest))

    def value_word(self, value_node, assignment) -> Word:
        """An assignment's value: `NAME=` (`NAME= python t.py` too) sets the empty string."""
        return self.word(value_node) if value_node is not None else Word("", "", self.unit.location(assignment), [])

    def assignment(self, node, *, export: bool) -> tuple[str, Word | None] | None:
        name_node = node.child_by_field_id(_NAME)
        value_node = node.child_by_field_id(_VALUE)
        if name_node is None:
            return None
        if name_node.type == "subscript":
            self._element(node, name_node, value_node)
            return None
        name = self.unit.node_text(name_node)
        self.read_cwd = False
        if value_node is not None and value_node.type == "array":
            words: list[Word] | None = []
            for element in value_node.named_children:
                spliced = self.array_words(element) if element.kind_id in _ARRAYS_IDS else None
                words.extend(spliced if spliced is not None else [self.word(element)])
                if element.kind_id in _CONCATENATION_IDS and _KEYED.match(self.unit.node_text(element)):
                    words = None  # `A=([0]=python [1]=t.py)`: elements by index, or an associative array's by key
                    break
            appends = "+=" in self.unit.node_text(node)[: len(name) + 2]
            self._bind(name, self.read_cwd, appends)
            if appends:  # `ARGS+=(--fp16)` appends
                before = self.state.elements(name)
                words = None if before is None or words is None else before + words
            held = self._jobs_held(name, [self.unit.node_text(e) for e in value_node.named_children], appends)
            # In a loop, an array set anew each time round (`args=(--temp "$g" --size 5)`) is what it is
            # set to: not one appended to, nor one set from itself (`A=("${A[@]}" --x)`), round after round
            renewed = not appends and re.search(rf"\$\{{?!?{re.escape(name)}\b", self.unit.node_text(value_node)) is None
            self._set_array(name, words if not self._looping() or renewed or appends and name in self.grown else None, value_node)
            if held is not None:
                self.state.jobs[name] = held
            return name, None
        outer, self.read_defaults = self.read_defaults, set()
        word = self.value_word(value_node, node)
        rest = node.next_sibling  # `export LOG=$a-$b.log`, cut by tree-sitter-bash (`_glued`)
        if rest is not None and rest.start_byte == self._cut_at(value_node):
            word = self._glued(word, rest)
        read, self.read_defaults = self.read_defaults, outer
        self._defaulted(name, read)
        bound = self.read_cwd
        if value_node is not None:
            self._nested_substitutions(value_node)
        appends = "+=" in self.unit.node_text(node)[: len(name) + 2]
        held = self._jobs_held(name, [self.unit.node_text(value_node)] if value_node is not None else [], appends)
        if appends:
            old = self.state.variables.get(name)  # not set here: the caller's, unknown
            if old is not None and word.value is not None:
                self.state.assign(name, old + word.value, word)
            else:  # `CMD="python $OPTS t.py"; CMD+=" --lr=1"`: what it had as written, then the rest
                before = self.state.assigned.get(name)
                written = old if old is not None else before.template if before is not None else f"${{{name}}}"
                self.state.assign(name, None, Word(None, written + word.template, word.location, ()))
        else:
            self.state.assign(name, word.value, word)
        self._bind(name, bound, appends)
        if held is not None:
            self.state.jobs[name] = held
        if export:
            self.state.exported.add(name)
            if self.loops and word.value is None:  # `export CUDA_VISIBLE_DEVICES=$i` round a loop: each value
                self._loop_word(value_node, word)
        return name, word

    def _set_array(self, name: str, words: list[Word] | None, value_node) -> None:
        """`name` holds the array `words` (None: not known), set by `value_node`: there its value
        is last set (`_set_by`; `$NAME` itself stays unknown)."""
        self.state.assign(name, None, Word(None, f"${{{name}}}", self.unit.location(value_node), ()))
        self.state.arrays[name] = words

    def _element(self, node, subscript, value_node) -> None:
        """`A[1]=x` (or `A[-1]=x`, `A[1]+=x`): the array takes `x` as that element, or after its
        last (`A[3]=x` of four), as bash does; not known after one at another index, or at an index
        not written as a number, or in an array holding elements not known (`"$@"`, `_tail`): where
        each element is is not known there. A variable's value is its element 0 (`State.elements`)."""
        unit = self.unit
        name_node, index = subscript.child_by_field_name("name"), subscript.child_by_field_name("index")
        if name_node is None or index is None:
            return
        name = unit.node_text(name_node)
        self.read_cwd = False
        word = self.value_word(value_node, node)
        if value_node is not None:
            self._nested_substitutions(value_node)
        words, at = self.state.elements(name), unit.node_text(index)
        if words is None or self._looping() or not _INDEX.fullmatch(at) or any(w.passthrough for w in words) or value_node is not None and value_node.type == "array":
            words = None
        else:
            i = int(at) + len(words) if at.startswith("-") else int(at)
            if not 0 <= i <= len(words):
                words = None
            else:
                if i < len(words) and unit.node_text(node)[len(unit.node_text(subscript)) :].startswith("+="):  # `A[1]+=x`: one word, not known
                    word = Word(None, words[i].template + word.template, None, ())
                words = [*words[:i], word, *words[i + 1 :]]
        self._bind(name, self.read_cwd, True)
        self._set_array(name, words, value_node if value_node is not None else node)

    def _bind(self, name: str, bound: bool, appends: bool = False) -> None:
        """Record whether `name` now holds a path from `pwd` relative to the start (`State.cwd_bound`)."""
        state = self.state
        if bound:
            state.cwd_bound = state.cwd_bound | {name}
        elif not appends and state.cwd_bound and name in state.cwd_bound:
            state.cwd_bound = state.cwd_bound - {name}

    def _jobs_held(self, name: str, parts: list[str], appends: bool = False) -> tuple[Command, ...] | None:
        """The background jobs `name` holds after it is set to `parts` (as written), when it holds
        process ids only: `$!`, or variables that hold jobs (itself too: `PIDS="$PIDS $!"`,
        `pids+=($!)`, `pids=("${pids[@]}" $!)`); None when it may hold anything else. Set in a
        branch or a loop, it may still hold what it held."""
        held = self._jobs_of(parts, name)
        if held is not None and (appends or self.state.branch_depth):
            before = self._jobs_of([f"${name}"], name)
            held = None if before is None else (*before, *(c for c in held if c not in before))
        return held

    def _jobs_of(self, parts: list[str], itself: str | None = None) -> tuple[Command, ...] | None:
        """The background jobs whose process ids `parts` (words as written) name: `$!` the last
        one started, `$A`, `"${pids[@]}"` those a variable holds (`itself`, being set, holds none
        unless it did: an unset or empty variable, or an empty array). None when a word may
        name anything else."""
        jobs: list[Command] = []
        for part in parts:
            for token in part.replace('"', " ").split():
                if token in ("$!", "${!}"):
                    jobs.extend(c for c in self.last_job if c not in jobs)
                    continue
                held = _JOB_VARIABLE.fullmatch(token)
                if held is None:
                    return None
                variable = held.group(1) or held.group(2)
                if variable in self.state.jobs:
                    jobs.extend(c for c in self.state.jobs[variable] if c not in jobs)
                elif variable != itself or self.state.variables.get(variable, "") != "" and self.state.arrays.get(variable) != []:
                    return None
        return tuple(jobs)

    def _defaulted(self, name: str, read: set[str]) -> None:
        """Record that `name` was set from the defaults of `read` (none: no longer)."""
        if read:
            self.state.defaulted[name] = frozenset(read)
        elif self.state.defaulted:
            self.state.defaulted.pop(name, None)

    def declaration(self, node) -> None:
        """`export`, `declare`, `local`, ...: what they set and export. An associative array
        (`declare -A M`) is not known: bash lists its elements in an order of its own."""
        keyword = node.children[0].type if node.children else ""
        flags = [self.unit.node_text(c) for c in node.named_children if c.type == "word"]
        export = keyword == "export" or any(flag in ("-x", "-gx") for flag in flags)
        keyed = any(flag.startswith("-") and "A" in flag for flag in flags)
        for child in node.named_children:
            if child.type == "variable_assignment":
                named = self.assignment(child, export=export)
                if keyed and named is not None:
                    self._set_array(named[0], None, child)
            elif child.type == "variable_name":
                if export:
                    self.state.exported.add(self.unit.node_text(child))
                if keyed:
                    self._set_array(self.unit.node_text(child), None, child)

    # --- commands --------------------------------------------------------------------------

    def _argument(self, node, array: bool, words: list[Word]) -> None:
        """Add the words an argument `node` makes to `words`."""
        spliced = self.array_words(node) if array else None
        if spliced is not None:
            words.extend(spliced)
            return
        word = self.word(node)
        value = word.value
        if (
            (not value or " " in value or "\t" in value or "\n" in value) and _unquoted_expansion(node)
            if value is not None  # most words: a plain one, asked nothing more
            else (_commands_next(words) or _program_next(words, word.template) or word.template.lstrip().startswith("-"))
            and _unquoted_expansion(node)
            and splits_as_written(word.template)
        ):
            # `$LAUNCH train.py`, LAUNCH="torchrun --nproc_per_node 8": torchrun runs;
            # LAUNCH="deepspeed --num_gpus $NGPU" too, as the command; and options
            # partly unknown (`python x.py $COMMON`, COMMON="--seed 1 --val_num $VAL":
            # freeshap's scripts, helper-333); another argument partly unknown stays one
            # word (`eval $cmd` reads its string). Each word stands at `$LAUNCH` (so no
            # fix edits it: the text is `$LAUNCH`).
            words.extend(split_fields(word))
        elif value is None and words and words[0].value == "eval" and _unquoted_expansion(node):
            words.append(joined_fields(word))
        else:
            words.append(word)

    def _cut_at(self, node) -> int:
        """Where `node` ends when tree-sitter-bash cut a word after it: it ends with a `$` that a
        name follows, `$a-$` of `$a-$b.txt` (tree-sitter/tree-sitter-bash#315); else -1."""
        if node is None:
            return -1
        end = node.end_byte
        data = self.unit.data
        return end if 0 < end < len(data) and data[end - 1] == 36 and data[end : end + 1].isalnum() else -1  # 36: `$`

    def _glued(self, word: Word, node) -> Word:
        """`word`, cut after its last `$`, joined to the rest, `node`: `$b.txt`, the variable
        expanded as bash does (unknown when it is)."""
        rest = self.word(node)
        match = _GLUED_NAME.match(rest.template)
        n = match.end() if match else 0
        name = rest.template[:n]
        known = self.state.variables.get(name) if n and not name.isdigit() else None
        if known is not None:
            self._read_variable(name)
        middle = known if known is not None else "$" + name
        head = len(word.template) - 1
        value = None
        if word.value is not None and known is not None and rest.value is not None:
            value = word.value[:-1] + known + rest.value[n:]
        origin = array("i", word.origin[:head])
        origin.extend(array("i", (word.origin[head] if len(word.origin) > head else 0,)) * len(middle))
        origin.extend(rest.origin[n:])
        start, end = word.location, rest.location
        location = Location(start.path, start.line, start.column, end.end_line, end.end_column)
        return Word(value, word.template[:head] + middle + rest.template[n:], location, origin, word.passthrough or rest.passthrough)

    def _words_after(self, redirect_node, words: list[Word]) -> None:
        """`python t.py >log.txt --out /tmp/x`: bash passes the words after a redirect's file to
        the command, where tree-sitter-bash reads them as more of its destinations. Only words
        apart by blanks and continued lines: past a line break, tree-sitter-bash has run on into
        the next commands (after a continued line that starts with `|jq`, or a pipeline of four
        stages), and the unit is parsed again with that line end read as `;` (`read_on`); past
        anything else it has recovered from an error (`python - <<EOF 2>&1 | tee log`)."""
        destinations = redirect_node.children_by_field_name("destination")
        data = self.unit.data
        argument = -1  # where the last destination read as a word of the command starts
        for before, extra in zip(destinations, destinations[1:]):
            if extra.start_byte == self._cut_at(before):
                if before.start_byte == argument:  # the rest of that word (`tee 2>&1 ./c-$A/$B/log.txt`)
                    words[-1] = self._glued(words[-1], extra)
                    argument = extra.start_byte
                continue  # else the rest of the file's name (`redirect`)
            if data[before.end_byte : extra.start_byte].replace(b"\\\n", b"").strip(b" \t"):
                self._line_end(before.end_byte, extra.start_byte)
                return
            self._argument(extra, extra.kind_id in _ARRAYS_IDS, words)
            argument = extra.start_byte
            if _holds_substitution(self.unit, extra):
                self._nested_substitutions(extra)

    def command(self, node, stdout: Sink | None, stderr: Sink | None, redirect_nodes: list, statement=None) -> None:
        """One simple command; `statement` is the redirected statement around it, if any."""
        env: dict[str, Word | None] = {}
        words: list[Word] = []
        inline_redirects = []
        substitutes = _holds_substitution(self.unit, node)  # most commands hold none in any word
        # A cursor reads each child's field as an int, where `field_name_for_child(i)` made a
        # string and counted the children up to i again: quadratic in a command's words.
        cursor = node.walk()
        more = cursor.goto_first_child()
        outer, self.read_defaults = self.read_defaults, set()
        self.read_cwd = False
        anchored: set[Location] = set()
        by_word: dict[Location, frozenset[str]] = {}
        cut = -1  # where a word tree-sitter-bash cut after a `$` ends (`_glued`)
        cut_assignment = -1  # where the last leading assignment ends (`A=1 B=2` read on into the next line)
        name = None
        data = self.unit.data
        end = -1
        while more:
            child = cursor.node
            kind = child.kind_id
            if kind in _ASSIGNMENT_IDS and not words:
                self._no_assignment(child)
                name_node = child.child_by_field_id(_NAME)
                value_node = child.child_by_field_id(_VALUE)
                if name_node is not None:
                    name = self.unit.node_text(name_node)
                    env[name] = set_to = self.value_word(value_node, child)
                    if self.loops and set_to.value is None:  # `CUDA_VISIBLE_DEVICES=$i torchrun ...`: each value
                        self._loop_word(value_node, set_to)
                    cut = self._cut_at(value_node)
                cut_assignment = child.end_byte
            elif kind in _REDIRECT_IDS:
                inline_redirects.append(child)
            elif (field := cursor.field_id) == _NAME or field == _ARGUMENT:
                if cut >= 0 and child.start_byte == cut:  # the rest of the word before it
                    if words:
                        words[-1] = self._glued(words[-1], child)
                    elif env.get(name) is not None:
                        env[name] = self._glued(env[name], child)
                else:
                    if field == _NAME:
                        if env and child.start_point.row != node.start_point.row:
                            # `A=1 B=2`, then a command on a later line: tree-sitter-bash takes the
                            # two assignments for that command's environment, where bash ends the
                            # line there; parsed again with that line end read as `;`.
                            self._line_end(cut_assignment, child.start_byte)
                        if self.unit.node_text(child) in _CLOSERS:
                            _syntax_error(self, child)
                        if child.named_child_count == 1 and child.named_child(0).kind_id in _ARRAYS_IDS:
                            child = child.named_child(0)  # `"${cmd[@]}" > log`: the array's words are the command
                            kind = child.kind_id
                    taken, self.read_defaults = self.read_defaults, set()  # the defaults this word takes
                    mark = len(words)
                    read_cwd, self.read_cwd = self.read_cwd, False
                    self._argument(child, kind in _ARRAYS_IDS, words)
                    if mark and len(words) == mark + 1 and end >= 0 and data[end : end + 1] == b"\\":
                        gap = data[end : child.start_byte]  # `$C\\_x.sh` cut at the `\\`; `$C\\ x.sh` without its `\\ `
                        if not gap or gap in (b"\\ ", b"\\\t"):
                            words[mark - 1 : mark + 1] = [_one_word_of(words[mark - 1], words[mark], gap[1:].decode(), end + 1)]
                            mark -= 1
                    if kind in _CONCATENATION_IDS and len(words) == mark + 1:
                        closed_at = _closed_early(self.unit, child)
                        if closed_at is not None:
                            self.closed_early[words[mark].location] = closed_at
                    if self.read_cwd or self.unit.origin is not None and self._made_of_cwd(words[mark:]):  # `--config-path=$(pwd)/conf`
                        anchored.update(w.location for w in words[mark:])
                    self.read_cwd = self.read_cwd or read_cwd
                    if self.loops and len(words) == mark + 1 and words[mark].value is None:
                        self._loop_word(child, words[mark])
                    if self.arm_sets and len(words) > mark and words[-1].value is None:
                        self._arm_word(child, words[mark:])
                    if self.read_defaults:
                        by_word.update((w.location, frozenset(self.read_defaults)) for w in words[mark:])
                        if len(words) == mark:  # `${EXTRA:-}`: no word, but where it stands
                            by_word[self.unit.location(child)] = frozenset(self.read_defaults)
                        taken |= self.read_defaults
                    self.read_defaults = taken
                if substitutes:
                    self._nested_substitutions(child)
                end = child.end_byte  # `_cut_at`, inline: once per word of every command
                cut = end if data[end - 1] == 36 and end < len(data) and data[end : end + 1].isalnum() else -1
            more = cursor.goto_next_sibling()
        read, self.read_defaults = self.read_defaults, outer
        if outer is not None:  # `X=$(torchrun ... ${N:-8})`: what X is set from
            outer |= read
        redirects = []
        nodes = inline_redirects + list(redirect_nodes)
        opens, closes = _placeholders(self.unit, nodes) if len(nodes) > 1 else ((), ())
        for i, redirect_node in enumerate(nodes):
            if i in opens:  # `<partition_name>` left unfilled: a word not known here, not two files
                words.append(Word(None, self.unit.node_text(redirect_node) + ">", self.unit.location(redirect_node), ()))
                continue
            if i in closes:  # its `>`: the file bash would write is the word after the placeholder (`--config`)
                first = redirect_node.child_by_field_name("destination")
                self._argument(first, first.kind_id in _ARRAYS_IDS, words)
                self._words_after(redirect_node, words)
                continue
            self.read_defaults = set()
            redirect = self.redirect(redirect_node)
            if redirect is not None:
                if self.read_defaults and redirect.target is not None:  # `> "logs/${RUN:-run7}.log"`
                    by_word[redirect.target.location] = frozenset(self.read_defaults)  # not the command's
                redirects.append(redirect)
                if redirect_node.named_child_count > 1 + (redirect.fd is not None):
                    self._words_after(redirect_node, words)
        self.read_defaults = outer
        if not words and env:  # `A=1 B=2` with no command: plain assignments
            for name, word in env.items():
                self.state.assign(name, word.value if word is not None else "", word)
                self._defaulted(name, read)
                self._bind(name, self.read_cwd)
            return
        out, err = stdout or self.state.stdout, stderr or self.state.stderr
        if redirects:  # most commands have none
            out, err = self._apply(redirects, out, err, (statement or node).id)
        out, err = self._procsub_sinks(redirects, out, err)  # also a >(...) the streams came with
        exported, environment = self.state.exports()
        command = Command(  # positional, in the order of the fields: twice as quick as by keyword
            words,
            self.unit.location(node, redirect_nodes[-1] if redirect_nodes else node),
            env,
            redirects,
            out,
            err,
            False,  # background: `_child` sets it when `&` follows
            self.state.pipefail,
            self.wrappers,
            [],  # inner: `unwrap` sets it
            exported,
            [],  # pipeline: `pipeline` sets it
            False,  # is_exec_redirect
            tuple(self.blocks),
            environment,
        )
        defaulted = self.state.defaulted
        if read or defaulted:  # and an exported variable set from a default reaches the command
            watch = self.state.watch  # which has those of the exported variables: there may be many of both
            for variable in defaulted.keys() & self.state.exported if watch is None else watch.defaults:
                read |= defaulted[variable]
            if read:
                command.defaults = frozenset(read)
        if by_word:
            command.word_defaults = by_word
        if anchored:
            command.anchored = frozenset(anchored)
        name = command.name
        if name == "exec" and len(words) == 1:
            command.is_exec_redirect = True
            self.script.commands.append(command)
            self.state.stdout, self.state.stderr = apply_redirects(redirects, self.state.stdout, self.state.stderr)
            self.state.stdout, self.state.stderr = self._procsub_sinks(redirects, self.state.stdout, self.state.stderr)
            return
        self.script.commands.append(command)
        if (name == "shift" or name == "set" and _sets_arguments(self.unit, node) or name == "getopts") and not any(b.kind == FUNCTION for b in self.blocks):
            self.arguments_moved = self.arguments_moved or name != "getopts"
            count = (1 if len(words) == 1 else whole(words[1].value) if len(words) == 2 else None) if name == "shift" else None
            if count is None or self.arguments_shifted is None or self.blocks or self.unit.origin is not None or not _unconditional(node):
                self.arguments_shifted = None
            else:  # `shift`, `shift 2`: `"$@"` after it is the caller's arguments past the first (two)
                self.arguments_shifted += count
        elif self.arguments is not None and (name == "shift" or name == "set" and _sets_arguments(self.unit, node)):
            self._shift(command, node)
        if name == "set":
            self._set_options(words, node)
        elif name == "shopt":
            self._shopt(words, node)
        elif name in SOURCERS:
            if self.state.allexport:
                self.script.exporting_sources.add(command.location)
            if len(words) > 1 and self._may_move(words[1]):
                self.state.chdir(None)
        elif name == "test":
            for operator, operand in zip(words[1:], words[2:]):
                if operator.value in FILE_TESTS:
                    self._tested(operand)
        elif name in ("export", "declare", "typeset", "local", "readonly"):
            for word in words[1:]:
                if word.value and "=" in word.value:
                    key, _, value = word.value.partition("=")
                    self.state.assign(key, value, word)
                    self._bind(key, self.read_cwd)
                    if name == "export":
                        self.state.exported.add(key)
                elif word.value and name == "export":
                    self.state.exported.add(word.value)
        elif name in READERS or name == "getopts" or name == "printf":
            self._read_into(name, words, env, nodes)
        elif name in DIRECTORY_CHANGERS:
            self._chdir(name, words)
        elif name == "wait" and len(words) > 1:  # `wait $A`: that job only; `-n`, `%1`, `$X` not known: every job
            waited = self._jobs_of([self.unit.node_text(a) for a in node.children_by_field_name("argument")])
            if waited:
                command.waits_for = waited
        elif name in self.functions or name in self.effects:
            if self.calling:
                self._dispatching(words[0])
            self._function_call(command, node.children_by_field_name("argument"))
        elif name is None and self.pending:
            self._dynamic_call(words[0], out, err)
        wrappers.unwrap(self, command)
        if (redirect_nodes or inline_redirects) and (command.name in wrappers.STDIN_READERS or is_python(command.name)):  # most: neither
            heredoc = next((n for n in redirect_nodes if n.type == "heredoc_redirect"), None)
            herestring = next((n for n in (*inline_redirects, *redirect_nodes) if n.type == "herestring_redirect"), None)
            reader = wrappers.stdin_reader(command) if heredoc is not None or herestring is not None else None
            if reader is None:
                pass
            elif heredoc is None:  # `bash -s <<< "python train.py ..."`: the string is the shell's script
                if not is_python(reader.name) and herestring.named_children:
                    word = self.word(herestring.named_children[-1])
                    text = word.value if word.value is not None else word.template
                    wrappers.stdin_script(self, reader, text, word.origin, exact=word.value is not None)
            elif is_python(reader.name):  # `python - <<'EOF'`, `nice -n 5 python - <<'EOF'`: the program, as written
                body = next((c for c in heredoc.named_children if c.type == "heredoc_body"), None)
                reader.stdin_text = self.unit.node_text(body) if body is not None else None
            else:
                self._stdin_script(reader, heredoc)

    def _shift(self, command: Command, node) -> None:
        """A `shift` (`shift 2`) in a function's body walked for a call: its positional parameters
        are those after the first (two) from here on; not known after any other (`shift $N`, in a
        branch, a loop or a subshell, after `&&`, past the last), nor after a `set -- ...`."""
        arguments, words = self.arguments, command.words
        count = (1 if len(words) == 1 else whole(words[1].value) if len(words) == 2 else None) if command.name == "shift" else None
        if count is not None and len(self.blocks) == arguments.depth + 1 and _unconditional(node):
            held, complete = arguments.bound(self.unit)
            if count <= len(held) or not complete:
                arguments.shifted += count
                return
        arguments.lost = True

    def _function_call(self, call: Command, arguments: list) -> None:
        """A call of a function of the script, `arguments` its argument nodes: its body walked here
        at the first call, and at a later one that gives its positional parameters other values
        (`_again`); again when the call has streams of its own, else what the walk with its values
        did repeated; then the call's words it runs as a command (`_run_arguments`)."""
        name, out, err = call.name, call.stdout, call.stderr
        redirected = out is not self.state.stdout or err is not self.state.stderr
        if name in self.pending:
            self._first_call(name, out if redirected else None, err if redirected else None, (call, arguments))
        else:
            again = self.again.get(name)
            if again is None:
                walk = (0, self.reads.get(name), self.effects.get(name))
                if name in self.calling:  # in its own first walk: as `_again` past its bounds
                    self.unjudged.update(self._unwalked_callees(call))
            else:
                walk = self._again(again, call, arguments, out if redirected else None, err if redirected else None)
            if walk is not None and call.walk != walk[0]:  # a copy of another call's (`_run_arguments`) may have its walk
                call.walk = walk[0]
            if walk is None:  # walked here for this call
                pass
            elif name in self.functions and redirected:
                self._called_again(call, walk[1], arguments, walked=True)
                self._call(name, out, err)
            elif walk[2] is not None:
                varies = self._called_again(call, walk[1], arguments)
                walk[2].apply(self.state, len(self.script.commands), self._looping(), varies)
        if name in self.functions:
            self._run_arguments(call, arguments)

    def _again(self, again: Again, call: Command, arguments: list, stdout: Sink | None, stderr: Sink | None) -> tuple | None:
        """A later call of a function whose first walk read its positional parameters: the walk of
        its body (`Again.walks`) that had the values this call gives them, or the first when it
        gives one not known here (`launch $GPUS 4`), or the function has had `MAX_WALKS` (a call
        in a loop is walked once, `$i` not known), or is being walked; None when none had them and
        the body is walked here for them, as at a first call, with the blocks around its
        definition (`launch 0,1,2,3 4`, then `launch 0 4`). A call of a walk again is marked with
        it (`Command.walk`), here or by the caller. A call that may run a function no walk ran
        yet, by a name made of its words (`_unwalked_callees`), is walked past `MAX_WALKS` and
        with words not known: `gg_run mpt`, the fifth call of seamless_communication's
        ggml/ci/run.sh's `gg_run() { ci=$1; set -o pipefail; gg_run_$ci | tee $OUT/$ci.log; }`,
        which would else leave `gg_run_mpt` to be judged as never called, without pipefail."""
        given = tuple(_given(name, _bound(self.unit, call, arguments)) for name in again.names)
        walk = again.walks.get(given)
        if walk is None and (None in given or len(again.walks) >= MAX_WALKS) and not self._unwalked_callees(call):
            walk = again.walks[again.first]
        elif walk is None and (call.name in self.calling or self.calls >= MAX_CALL_WALKS):
            # not walked here: a function the call may run that no walk ran yet is not judged
            # (`finish`), as never called, without the pipefail, exports and directory it gets
            self.unjudged.update(self._unwalked_callees(call))
            walk = again.walks[again.first]
        if walk is not None:
            self.walked[again.body.id] = walk[3]  # the words it runs (`_run_arguments`) are that walk's
            return walk
        self.calls += 1
        call.walk = len(again.walks) + 1  # 1 is `_call`'s
        read, effect = self._walk_call(call.name, again.body, again.block._replace(arm=call.walk), again.blocks, stdout, stderr, (call, arguments))
        again.walks[given] = (call.walk, read, effect, self.walked[again.body.id])
        return None

    def _called_again(self, call: Command, read: tuple[Location, list[Read]] | None, arguments: list, walked: bool = False) -> frozenset[int]:
        """A later call of a function. The characters of the words of the walk it repeats (`read`:
        where the function is defined and what the walk read) whose value this
        call may not give (`ShellScript.varies`): of an expansion of a variable its caller set, when
        the variable now has another value or one not known here; of a default the first call took
        (`${PORT:-29500}`), when the variable is now set; of an expansion of a variable the body
        set from those (`local P=$BASE`). Values, not places: `PORT=29501` before each call is one
        port. When the body is not walked again (`walked`), an expansion of a variable its caller
        set also has no one assignment (`ShellScript.expansions`) when the variable is now set
        elsewhere, as a walk would find (`PORT=29501; run &`, then `PORT=29502; run &`). One the
        body set before reading it (`local PORT=29500`) is set there at each call. A positional
        parameter (`$2`) is compared with this call's word (`launch 0,1 29500`, then `launch 2,3
        29500`: `$1` differs, not `$2`), one of a function the body called (the name "") by the
        characters of its word there (`g "$1"`). Returns the characters found."""
        if read is None:
            return frozenset()
        body, reads = read
        expansions, assigned, variables = self.script.expansions, self.state.assigned, self.state.variables
        varies: set[int] = set()
        bound = None
        for variable, value, word, offsets in reads:
            if not variable or word is not None and body.holds(word.location):
                if word is not None and not varies.isdisjoint(word.origin):
                    varies.update(offsets)
                continue
            if variable[0] in _POSITIONAL_NAMES:
                if bound is None:
                    bound = _bound(self.unit, call, arguments)
                now = _given(variable, bound)
                if now is None or now != value:
                    varies.update(offsets)
                continue
            now = variables.get(variable, _ABSENT)
            if now is None or now != value:
                varies.update(offsets)
            for offset in () if walked else offsets:
                set_by = expansions.get(offset)
                if set_by is not None and not body.holds(set_by.location):
                    now_set = assigned.get(set_by.name)
                    if now_set is None or now_set.location != set_by.location:
                        expansions[offset] = None
        if varies:
            if not self.script.varies:
                self.script.varies = {}
            self.script.varies[call.location] = self.script.varies.get(call.location, frozenset()) | varies
        return frozenset(varies)

    def _run_arguments(self, call: Command, arguments: list) -> None:
        """The words of a call that the function runs as a command (`in_env() { local env="$1";
        shift; conda activate "$env"; "$@"; }`, then `in_env base pushd sub`, groundingLMM's
        GranD/run_pipeline.sh): a command of this shell, after the body's, standing at those words,
        with the call's environment: a `cd` there moves this shell (a function runs in its
        caller's), a `python t.py` there is a job. It is the body's command of its arguments (its
        `template`) with those words: with that command's wrappers (`nohup "$@" &`), streams
        where the body sends them (`"$@" >> log`), else the call's, in the background when it is,
        and in its pipeline (`"$@" 2>&1 | tee train.log`: one of this call, `_piped`). When which
        words those are is not certain (`_arguments_run`), no command, and a `cd`, `pushd` or
        `popd` among the words leaves the directory unknown (`Command.moves`)."""
        body = self.functions[call.name][0]
        runs = self.runs.get(body.id, _ABSENT)
        if runs is _ABSENT:
            runs = self.runs[body.id] = _arguments_run(self.unit, body)
        if runs is None:
            return
        dropped = runs[0] if isinstance(runs, tuple) else UNSURE
        # a word each before the command: not `$ENVS`, which may be several or none
        if dropped == UNSURE or dropped > len(arguments) or not all(_one_word(self.unit, a) for a in arguments[:dropped]):
            if any(w.value in DIRECTORY_CHANGERS for w in call.args):
                call.moves = True
                self.state.directories = ()
                self.state.chdir(None)
            return
        rest = call.args[dropped:]
        _, where, piped, background, among = runs
        walk = self.walked.get(body.id)
        found = None if walk is None else walk.template(self.script.commands, where, among)
        if found is None or not rest and not found[1]:  # not walked yet: called from its own body before its `"$@"`
            return
        template, at = found  # `train() { python train.py "$@"; }`, then `train`: `python train.py`
        if at and (not template.name or template.inner or template.name in self.functions or template.name in self.effects):
            # `env "PATH=$P" "$@"`: no program known; `env "$@" python b.py`: a wrapper's own options or
            # variables, its command the body's; `wrap() { helper --x "$@"; }`, and `helper` runs
            # no command of them known here
            return
        out, err = walk.stdout, walk.stderr
        wrapped = len(template.wrappers) > len(call.wrappers)
        if not at and wrapped and (not rest[0].value or rest[0].value.startswith("-") or "=" in rest[0].value):
            return  # `srun "$@"`, `env "$@" cmd`: an option of the command they are given to (`--ntasks 8`, `A=1`), or may be
        own_words = template.words[:at] + template.words[at + 1 :]
        varies = self.script.varies.get(call.location) if self.script.varies else None
        if varies:  # `python $1.py "${@:2}"`: its first call's script, not this one's
            own_words = [self._as_written(w) if not varies.isdisjoint(w.origin) else w for w in own_words]
        run = call.with_words(own_words[:at] + rest + own_words[at:])
        first = call.location if at else rest[0].location  # `python "$@"`: the call runs it
        run.location = Location(first.path, first.line, first.column, call.location.end_line, call.location.end_column)
        run.redirects, run.inner = [], []  # the call's redirects are the call's, the body's the body's: judged there
        run.stdout = call.stdout if template.stdout is out else template.stdout
        run.stderr = call.stderr if template.stderr is err else template.stderr
        if template.env:  # `CUDA_VISIBLE_DEVICES=0 "$@"`
            run.env = {**call.env, **template.env}
        own = not (wrapped or piped or background)
        if own:  # this shell's command, with what the body exported
            run.exported, run.environment = self.state.exports()
        else:  # another process's: `nohup`'s, a pipeline's, a job's
            run.wrappers, run.exported, run.environment = template.wrappers, template.exported, template.environment
            run.background = run.background or background
        start = len(self.script.commands)
        self.script.commands.append(run)
        if own and run.name in DIRECTORY_CHANGERS:
            self._chdir(run.name, run.words)
        elif (own or piped and not wrapped) and (run.name in self.functions or run.name in self.effects):
            named = arguments[dropped : dropped + 1]
            given = arguments[dropped + 1 :] if named and _one_word(self.unit, named[0]) else []
            if own:
                self._function_call(run, given)
            else:  # `run_log job_a`, `run_log() { set -o pipefail; "$@" | tee log; }`: a stage of the body's pipeline
                self._subshell(run.location, lambda: self._function_call(run, given))
        wrappers.unwrap(self, run)
        if piped:
            self._piped(template, self.script.pipelines[walk.pipelines], self.script.commands[start:], call)

    def _as_written(self, word: Word) -> Word:
        """A word of a function's walk whose value a later call may not give (`_called_again`), not
        known: as written in the file, as a walk without its first call's values would make it."""
        index, where = self.unit.index, word.location
        written = index.text[index.offset(where.line, where.column) : index.offset(where.end_line, where.end_column)]
        if len(written) > 1 and written[0] == written[-1] == '"':
            written = written[1:-1]
        return Word(None, written, where, word.origin, True)

    def _piped(self, template: Command, pipelines: list[Pipeline], made: list[Command], call: Command) -> None:
        """The pipeline a call's words run in when the body pipes its arguments (`run_log() { "$@"
        2>&1 | tee train.log; }`): the body's, with `made` (the command and those it runs) where
        the body has its arguments, standing at the call, the body's pipeline its `written`, and
        pipefail as the call has it, or as the body set it there."""
        piped = next((p for p in pipelines if any(c is template for c in p.stages[0])), None)
        if piped is None:
            return
        stages = [[m for c in piped.stages[0] for m in (made if c is template else [c])], *piped.stages[1:]]
        flat = [c for stage in stages for c in stage if c.words]
        for command in made:
            command.pipeline = flat
        pipefail, at = (piped.pipefail, piped.pipefail_at) if piped.pipefail else (call.pipefail, self.state.pipefail_at)
        self.script.pipelines.append(Pipeline(made[0].location, stages, piped.pipes, pipefail, piped.wrappers, at, piped.location))

    def _stdin_script(self, reader: Command, heredoc) -> None:
        """The heredoc a shell (`reader`) reads its commands from (`ssh gpu1 <<EOF`, `bash -s <<'EOF'`,
        `docker exec -i c1 bash <<EOF`): its text (`_heredoc_text`)."""
        body = next((c for c in heredoc.named_children if c.type == "heredoc_body"), None)
        if body is None or body.end_byte <= body.start_byte:
            return
        read = self._heredoc_text(heredoc, body)
        if read is not None:
            text, origin, exact = read
            wrappers.stdin_script(self, reader, text, origin, exact=exact)

    def _heredoc_text(self, heredoc, body) -> tuple[str, Sequence[int], bool] | None:
        """A heredoc's text, each character where it is written (the origin of a word), and whether
        it is exact: a quoted delimiter (`<<'EOF'`) keeps the text as written; else this shell
        expands it first (`$LOG` is this shell's LOG, a backslash-newline joins two lines), and
        what it does not know stays as written, the text then not exact. The text runs from the
        line after the delimiter's to the end line: tree-sitter-bash starts `body` past the blank
        lines and blanks that start it. None where it starts past more (another heredoc's text,
        `cat <<A <<B`, or a line it read as words)."""
        unit = self.unit
        start = next((c for c in heredoc.named_children if c.type == "heredoc_start"), None)
        end = next((c for c in heredoc.named_children if c.type == "heredoc_end"), None)
        if start is None or end is None:
            return None
        first, last = unit.text.find("\n", unit.chars_of(start)[1]) + 1, unit.chars_of(end)[0]
        begun = unit.chars_of(body)[0] if body is not None else last
        if not 0 < first <= begun <= last or unit.text[first:begun].strip():
            return None
        if any(mark in unit.node_text(start) for mark in "'\"\\"):
            text, origin, exact = unit.text[first:last], unit.file_offsets(first, last + 1), True
        else:
            piece = Piece()
            if body is not None:
                self._expanded_text(body, piece, first, last, IN_HEREDOC)
            else:
                piece.add(unit.text[first:last], unit.file_offsets(first, last))
            piece.origin.append(unit.file_offset(last))
            text, origin, exact = piece.text, piece.origin, piece.static and not self._misread_expansion(body, first, last)
        if heredoc.child_count and heredoc.children[0].type == "<<-":  # `<<-EOF`: the tabs that start its lines go
            text, origin = _tabs_dropped(text, origin)
        return text, origin, exact

    def _misread_expansion(self, body, first: int, last: int) -> bool:
        """Whether tree-sitter-bash misread an expansion of an unquoted heredoc's text [first,
        last) in the nodes it made of its `body`: a `$` or a backquote no backslash escapes that
        starts none of them (it misses one that starts a line after blanks: `<<-EOF`, then
        `\\t${X}`, whose text the heredoc's then holds as written), or one escaped that does
        (`\\${X}`). One pass over the text and the nodes, in order."""
        text = self.unit.text
        spans = []  # the expansions' and substitutions' (start, end), each start past a blank it may start at (`_expanded_text`)
        for child in body.named_children if body is not None else ():
            if child.type != "heredoc_content":
                c_start, c_end = self.unit.chars_of(child)
                spans.append((c_end - len(text[c_start:c_end].lstrip()), c_end))
        spans.append((last, last))
        k = 0
        for mark in _EXPANSION_MARK.finditer(text, first, last):
            at = n = mark.start()
            while n > first and text[n - 1] == "\\":
                n -= 1
            escaped = (at - n) % 2 == 1
            while spans[k][1] <= at:
                k += 1
            start = spans[k][0]
            if at == start and escaped or at < start and not escaped:
                return True
        return False

    def _first_call(self, name: str, stdout: Sink | None, stderr: Sink | None, call: tuple[Command, list] | None = None) -> None:
        """The function's first walk, at its first call, with the blocks around its definition:
        what it does to the shell stays, and later calls repeat it (`Effect`), but those that give
        the positional parameters it read other values (`_again`). `call`: the call and its
        argument nodes, which give the body's positional parameters (`Arguments`)."""
        pending = self.pending.pop(name)
        pending.state.close()  # walked here, not where it is defined
        read, effect = self._walk_call(name, pending.body, pending.block, pending.blocks, stdout, stderr, call)
        self.reads[name], self.effects[name] = read, effect
        if call is not None and any(r.name[:1] in _POSITIONAL_NAMES for r in read[1]):
            self.again[name] = Again(pending.body, pending.block, pending.blocks, read, effect, self.walked[pending.body.id])
        else:
            self.again.pop(name, None)  # of a definition before

    def _walk_call(self, name: str, body, block: Block, blocks: tuple[Block, ...], stdout: Sink | None, stderr: Sink | None, call: tuple[Command, list] | None):
        """A walk of a function's body for a call (`_first_call`, `_again`), in `blocks`: where
        the function is defined and what the walk read from variables (`Read`), and what it did
        to the shell (`Effect`), which stays."""
        before, outer_blocks = self.state.checkpoint(), self.blocks
        self.blocks = list(blocks)
        self.calling.add(name)
        start = len(self.script.commands)
        outer, self.reading = self.reading, []
        arguments, self.arguments = self.arguments, Arguments(*call, len(self.blocks)) if call is not None else None
        self._in_function(body, block, stdout, stderr)
        self.arguments = arguments
        read, self.reading = (block.statement, self.reading), outer
        if outer is not None:  # a call inside another's walk: read at that one's calls too
            # its positional parameters are its call's words, which that one's calls decide as they do any word
            outer += (r if not r.name or r.name[0] not in _POSITIONAL_NAMES else r._replace(name="") for r in read[1])
        self.called_bodies.update(id(c) for c in self.script.commands[start:])
        self.calling.discard(name)
        self.blocks = outer_blocks
        effect = Effect.since(before)
        before.close()
        return read, effect

    def _dynamic_call(self, called: Word, stdout: Sink, stderr: Sink) -> None:
        """A command named by a word not known here that starts with a static part (`gg_run_$ci
        | tee $OUT/$ci.log`, seamless_communication's ggml/ci/run.sh, after `set -o pipefail`):
        a first call of each function not yet walked whose name starts so, each walked here, in
        the shell as it is there, rather than at the unit's end in the shell of its definition
        (without that pipefail). Which one runs is not known, so none leaves its effect on the
        shell (each is undone, as a subshell is); a later call by its name repeats its own."""
        start = called.template.partition("$")[0]
        if not start or "`" in start:
            return
        redirected = stdout is not self.state.stdout or stderr is not self.state.stderr
        for name in [name for name in self.pending if name.startswith(start)]:
            saved = self.state.checkpoint()
            self._first_call(name, stdout if redirected else None, stderr if redirected else None)
            self.state = saved.state
            self.state.rollback(saved)

    def _dispatching(self, called: Word) -> None:
        """A function called in a walk of another's body by a name made at run time (`gg_run_$ci |
        tee $OUT/$ci.log` in `gg_run`, ci=$1): that name's static start, as written, is kept for
        the functions being walked, whose later calls may call another (`_unwalked_callees`)."""
        written = self._as_written(called).template
        if "$" not in written:
            return
        start = written.partition("$")[0].replace('"', "").replace("'", "")
        if "`" not in start:
            for name in self.calling:
                self.dispatching.setdefault(name, set()).add(start)

    def _unwalked_callees(self, call: Command) -> list[str]:
        """The functions not walked yet that a call of a function may run by a name its walks made
        at run time (`dispatching`): one whose name starts as that name does and goes on with one
        of the call's words (`gg_run mpt`: `gg_run_mpt`), or with anything when one is not known
        here (`gg_run "$STEP"`); for a name with no static start (`$1 | tee log`), one the call
        names (`run job_e`)."""
        starts = self.dispatching.get(call.name)
        if not starts or not self.pending:
            return []
        given = [w.value for w in call.words[1:]]
        unknown = None in given

        def may_run(name: str) -> bool:
            for start in starts:
                if not start and name in given:
                    return True
                if start and name.startswith(start) and (unknown or any(g and g in name[len(start) :] for g in given)):
                    return True
            return False

        return [name for name in self.pending if may_run(name)]

    def finish(self) -> None:
        """Walk the functions nothing called, in the shell as it was where each is defined, as a
        branch: their commands are facts too (a script that sources this one may call them), but
        what they would do to the shell is only kept in `effects`. Not those a call not walked
        may run (`unjudged`: see `_again`), whose shell is not known."""
        for name in [name for name in self.pending if name in self.unjudged]:  # see `_again`
            self.pending.pop(name).state.close()
        copies = copies_at([pending.state for pending in self.pending.values()])  # any defined by these walks: one by one
        while self.pending:
            self._uncalled(next(iter(self.pending)), copies)

    def _uncalled(self, name: str, copies: dict[Checkpoint, State] | None = None) -> None:
        """Walk a function's body that no call has walked, in the shell of its definition (a copy
        of it in `copies`, else made here)."""
        pending = self.pending.pop(name)
        defined = pending.state
        copy = copies.pop(defined, None) if copies else None
        if copy is None:
            copy = copies_at([defined])[defined]
        defined.close()
        state, blocks, arguments = self.state, self.blocks, self.arguments
        self.state, self.blocks, self.arguments = copy, list(pending.blocks), None
        before = self.state.checkpoint()
        self.state.branch_depth += 1
        self._in_function(pending.body, pending.block, pending.stdout, pending.stderr)
        self.effects[name] = Effect.since(before)
        before.close()
        self.state, self.blocks, self.arguments = state, blocks, arguments

    def _call(self, name: str, stdout: Sink, stderr: Sink) -> None:
        """A function called again with its output piped or redirected (`train | tee run.log`):
        its body is walked again with those streams, its commands after the call's (its first walk,
        `_first_call`, gave them that call's). Not into itself."""
        if name in self.calling or self.calls >= MAX_CALL_WALKS:
            return
        self.calls += 1
        self.calling.add(name)
        self.state.branch_depth += 1
        view = self.state.checkpoint()
        body, block = self.functions[name]
        arguments, self.arguments = self.arguments, None  # its first walk's are read: see `_called_again`
        self._in_function(body, block._replace(arm=1), stdout, stderr)
        self.arguments = arguments
        self.state.settle(view)
        self.state.branch_depth -= 1
        self.calling.discard(name)

    def _in_function(self, body, block: Block, stdout: Sink | None, stderr: Sink | None) -> None:
        start, out, err = len(self.script.commands), stdout or self.state.stdout, stderr or self.state.stderr
        piped = len(self.script.pipelines)
        self.blocks.append(block)
        self.walk(body, stdout, stderr)
        self.blocks.pop()
        self.walked[body.id] = BodyWalk(start, out, err, slice(piped, len(self.script.pipelines)))

    def _tested(self, word: Word) -> None:
        if word.value:
            self.script.tested.add(posixpath.normpath(word.value))
        elif word.value is None:  # as written: `[ -f "${SCRIPT_DIR}/env.sh" ] && source "${SCRIPT_DIR}/env.sh"`
            self.script.tested.add(word.template)
            looped = self.script.loop_values.get(word.location)  # `[ -f "$s" ]` in the loop: each value
            if looped is not None:
                self.script.tested.update(posixpath.normpath(value.value) for value in looped[1])

    def _procsub_sinks(self, redirects: list[Redirect], out: Sink, err: Sink) -> tuple[Sink, Sink]:
        """Give PROCSUB sinks the commands inside `>(...)`: a subshell writing to the old stdout."""
        if out.kind != PROCSUB and err.kind != PROCSUB:
            return out, err
        for sink in {id(out): out, id(err): err}.values():
            if sink.kind == PROCSUB and not sink.procsub and sink.target is not None:
                text = sink.target.template
                inner_text = text[2:-1] if text.startswith(">(") and text.endswith(")") else text
                origin = sink.target.origin[2:] if len(sink.target.origin) > 2 else sink.target.origin
                state = self.state.replace(  # the same journal: it shares the variables
                    arrays=_Names(self.state.journal, self.state.arrays),
                    exported=_NameSet(self.state.journal, self.state.exported),
                    watch=None,  # its exports are its own, its assigned the shell's: its commands get copies
                    watchable=False,
                    stdout=Sink(INHERIT),
                    stderr=Sink(INHERIT),
                )
                sink.procsub = parse_nested(self, inner_text, origin, state, ())
        return out, err

    def _nested_substitutions(self, node) -> None:
        """Commands inside $(...) run too, in a subshell: their output is captured, not logged, and
        their `cd`s and variables end with it (`DIR=$(cd "$(dirname "$0")" >/dev/null && pwd)`)."""
        if not _holds_substitution(self.unit, node):
            return  # most words hold none
        read_cwd = self.read_cwd  # of the words around: the commands inside read their own
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type == "command_substitution":
                self._subshell(self.unit.location(current), partial(self._captured, current))
            else:
                stack.extend(current.named_children)
        self.read_cwd = read_cwd

    def _captured(self, substitution) -> None:
        """The commands of a `$( )`, their output captured."""
        for child in substitution.named_children:
            self.walk(child, Sink(CAPTURED), self.state.stderr)

    def _may_move(self, sourced: Word) -> bool:
        """Whether sourcing this file may leave the shell elsewhere than a directory known only as
        an absolute path (`cd /work/proj`): the file may `cd` (`Sourced.moves`), which this file's
        facts cannot see, so `pwd` after it is no longer known, not a stale `/work/proj`. A
        directory known relative to the start stays: a path from `pwd` is then read from where
        the shell is (`$(pwd)/train.py` is `./train.py`), which the project's reading of the
        launcher's `cd`s and sourced files decides (`launches.directory_changes`). A file that
        is none of the project's never moves it, as `launches.sourced_script` reads it: an
        absolute or home path (`/opt/conda/etc/profile.d/conda.sh`, `~/.bashrc`), a virtualenv's
        `bin/activate`, a path not known here."""
        cwd = self.state.cwd
        if cwd is None or not cwd.startswith("/"):
            return False
        return bool(sourced_candidates(sourced, self.script.path)) and not in_a_virtualenv(sourced.value or "")

    def _chdir(self, name: str, words: list[Word]) -> None:
        """Where `cd DIR`, `cd -`, `pushd DIR` and `popd` leave the shell (`State.cwd`): a static
        path from where it is, an absolute one, back; not known after `cd $WORK`, `cd ~/x`, a
        bare `cd` (home), `pushd`/`popd` with options or an index."""
        state = self.state
        values = [w.value for w in words[1:]]
        options = [v for v in values if v is not None and v.startswith("-") and v != "-"]
        operands = [v for v in values if v is None or not v.startswith("-") or v == "-"]
        if name == "popd":
            known = bool(state.directories) and not values
            to = state.directories[-1] if known else None
            state.directories = state.directories[:-1] if known else ()
            state.chdir(to)
            return
        if name == "pushd" and (options or not operands):
            state.directories = ()
            state.chdir(None)
            return
        target = operands[0] if operands else None
        if target == "-":
            to = state.previous_cwd
        elif not target or target.startswith("~"):
            to = None
        elif target.startswith("/"):
            to = posixpath.normpath(target)
        else:
            to = None if state.cwd is None else posixpath.normpath(posixpath.join(state.cwd, target))
        if name == "pushd":
            state.directories = (*state.directories, state.cwd)
        state.chdir(to)

    def _set_options(self, words: list[Word], node) -> None:
        """`set -euo pipefail`, `set +o pipefail`, `set -a`: `set` takes bash's options, read as
        bash's are."""
        args = shell_args([w.value for w in words[1:]], None, self.state.allexport)  # type: ignore[arg-type]
        if args.pipefail is not None:  # named: on, or off
            self._pipefail(args.pipefail, node)
        self.state.allexport = args.allexport

    def _pipefail(self, on: bool, node) -> None:
        """The shell sets pipefail itself (`set`, `shopt`), with the command `node`."""
        state = self.state
        state.pipefail, state.pipefail_at = on, len(self.script.commands)
        state.pipefail_sure = not self.blocks and not state.branch_depth and _unconditional(node)

    def _read_into(self, name: str, words: list[Word], env: dict[str, Word | None], redirects: list) -> None:
        """What `read`, `mapfile`, `getopts` and `printf -v` set is not known after them: the
        value a variable had before (`NGPU=8; read -p "GPUs? " NGPU`) is not its value now; but
        what `read` takes from a heredoc or here-string (`redirects`, the command's) is (`_read_text`)."""
        values = [w.value for w in words[1:]]
        options: dict[str, str | None] = {}
        operands: list[str | None] = []
        if name == "getopts":
            names, arrays = values[1:2] + ["OPTARG", "OPTIND"], []
        elif name == "printf":
            names, arrays = [v for flag, v in zip(values, values[1:]) if flag == "-v"][:1], []
        else:
            takes, default = READERS[name]
            arrays, skip = [], False
            for n, value in enumerate(values):
                if skip or value is None:
                    skip = False
                    continue
                if value == "--":
                    operands += values[n + 1 :]
                    break
                if not value.startswith("-") or value == "-":
                    operands.append(value)
                    continue
                for i, flag in enumerate(value[1:], 1):  # `-rp PROMPT`, `-p"> "`, `-ra ARGS`, `-d ''`
                    if flag in takes:
                        attached = value[i + 1 :]
                        options[flag] = attached or (values[n + 1] if n + 1 < len(values) else None)
                        if name == "read" and flag == "a":
                            arrays.append(options[flag])
                        skip = not attached
                        break
                    options[flag] = ""
            if name == "read":
                names = operands or ([] if arrays else [default])
            else:
                names, arrays = [], operands[:1] or [default]
        for variable in names + arrays:
            if variable and variable.isidentifier():
                self.state.assign(variable, None)
        for variable in arrays:
            if variable and variable.isidentifier():
                self.state.arrays[variable] = None
        if name == "read" and redirects and len(arrays) <= 1 and all(v and v.isidentifier() for v in names + arrays):
            given = env.get("IFS")  # `IFS= read -r LINE`
            ifs = given.value if given is not None else self.state.variables.get("IFS", IFS_WHITESPACE)
            whole = not operands and not arrays  # REPLY: the line as read, no blanks dropped
            self._read_text(redirects, options, names, arrays, "" if whole else ifs)

    def _read_text(self, redirects: list, options: dict[str, str | None], names: list[str], arrays: list[str], ifs: str | None) -> None:
        """`read -r -d '' CMD <<EOF` (each of OpenRLHF's launchers, then `deepspeed --module
        $CMD`): CMD holds the heredoc's text, as bash reads it (`read_fields`); `read A B <<<
        "$X"` the words of X, `read -a ARGS <<< "$X"` its elements. Its input is the last of the
        command's `redirects` that gives it one: a file's, another descriptor's (`-u 3`), a
        given number of characters (`-n 8`) or another IFS than blanks (`IFS=,`) are not known,
        nor is a partly unknown text split in more than one name."""
        stdin = next((r for r in reversed(redirects) if _STDIN_REDIRECT.match(self.unit.node_text(r))), None)
        delimiter = options.get("d", "\n")
        if stdin is None or stdin.type == "file_redirect" or ifs is None or delimiter is None or not {"u", "n", "N"}.isdisjoint(options):
            return
        if stdin.type == "herestring_redirect":
            if not stdin.named_children:
                return
            word = self.word(stdin.named_children[-1])
            if len(word.origin) != len(word.text) + 1:
                return
            end = word.origin[-1]  # bash ends the string with a newline, which stands past it
            text, origin, exact, where = word.text + "\n", array("i", (*word.origin, end)), word.value is not None, word.location
        else:
            body = next((c for c in stdin.named_children if c.type == "heredoc_body"), None)
            read = self._heredoc_text(stdin, body)
            if read is None:
                return
            (text, origin, exact), where = read, self.unit.location(body if body is not None else stdin)
        fields = read_fields(text, len(names), raw="r" in options, delimiter=delimiter[:1] or "\0", ifs=ifs)
        if fields is None or not exact and (len(names) + len(arrays) > 1 or "r" not in options and "\\" in text):
            return
        made = [_field_word(text, origin, kept, where) for kept in fields]
        if arrays:
            self._set_array(arrays[0], made if exact else None, stdin)
            return
        for variable, word in zip(names, made):
            self.state.assign(variable, word.value if exact else None, word)

    def _shopt(self, words: list[Word], node) -> None:
        """`shopt -so pipefail` (`-os`, `-s -o`) sets `set -o`'s options too, `-uo` unsets them."""
        flags = "".join(w.value[1:] for w in words[1:] if w.value and w.value.startswith("-"))
        names = {w.value for w in words[1:] if w.value and not w.value.startswith("-")}
        if "o" in flags and ("s" in flags) != ("u" in flags):
            if "pipefail" in names:
                self._pipefail("s" in flags, node)
            if "allexport" in names:
                self.state.allexport = "s" in flags



UNSURE = -1  # of `_arguments_run`
# A command of a function's body that is its arguments (`"$@"`, `$@`, `"${@:2}"`): group 2, the
# first of them it runs (`${@:2}`: from the second).
_ARGUMENTS = re.compile(r'("?)\$(?:@|\{@(?::(\d+))?\})\1\Z')
_MANY_WORDS = lazy(r"\$\{?@|\[[@*]\]")  # in a double-quoted string: `"$@"`, `"${opts[@]}"`
# The script's arguments, all of them or from the Nth on (group 1): `$@`, `${@:3}`, `$*`
_EVERY_ARGUMENT = re.compile(r"\$(?:[@*]|\{[@*](?::([1-9][0-9]*))?\})")
_POSITIONAL_NAMES = frozenset("123456789#")  # what a `Read` of a positional parameter's name starts with
_ALL_ARGUMENTS = lazy(r"\$\{?[@*]")  # `$@`, `"${@:2}"`, `$*`, anywhere in a body's text
# The commands that run their words as a command of its own (not as a string a shell reads again:
# `eval`, `bash -c`, `ssh`), which a function's body may run its arguments through (`nohup "$@" &`)
_ARGV_RUNNERS = wrappers.ARGV_WRAPPERS.keys() | wrappers.ENV_RUNNERS.keys()
# The other commands a wrapper walk reads (`wrappers.unwrap`) that take a function's arguments as
# anything but a command's words: a string a shell reads again (`bash -c "$@"`, `ssh gpu1 "$@"`,
# `eval`), a job's or a container's command (`sbatch`, `docker run`). A body that hands its
# arguments to one (`remote() { ssh gpu1 "$@"; }`) runs no command known here at a call.
_STRING_RUNNERS = wrappers.WRAPPER_NAMES - _ARGV_RUNNERS - wrappers.LAUNCHERS.keys() - wrappers.PROFILERS.keys()


def _arguments_run(unit: Unit, body) -> tuple[int, Location, bool, bool, bool] | int | None:
    """How many of its arguments a function's `body` drops before it runs the rest as a command,
    or as a command's words, where the arguments it runs are written, whether it pipes them and
    runs them in the background, and whether they may stand after a command's first word: 1 for
    `in_env() { local env="$1"; shift; conda activate "$env"; "$@"; }`, 0 for `train() { python
    train.py "$@"; }`. The body is a `{ ...; }` list with one of its commands run by a `"$@"`
    (`$@`, `"${@:N}"`) of its own, or holding one among its arguments when the body reads its
    arguments nowhere else (`_runner`: maybe with words and redirects, through a command that runs
    its words, `&` after it, or first in a pipeline), not in an `if`, a loop or a subshell, after
    `shift`s of a known count and no `set -- ...`; no `cd`, `pushd`, `popd`, `source` or other
    such command after it, which would run after the command, where this reading puts them
    before. UNSURE when a command of the body starts with its arguments in any other way (`$1
    "${@:2}"`, `cat x | "$@"`, after `shift $N`) or `eval` reads them (`eval "$@"`, `eval "$*"`:
    the words joined and split again, into any commands); None when none does (most functions:
    `POSITIONAL`, which a body without them does not hold, is all they cost), and when a command's
    words that hold them are not sure to be the call's (`python "$@"; cd -`): a `cd` among them is
    no `cd`."""
    text = unit.node_text(body)
    if not POSITIONAL.search(text):
        return None
    among = len(_ALL_ARGUMENTS.findall(text)) == 1  # not `echo "$@"; python "$@"`, nor `python "$@" "$*"`
    statements = _in_turn(body.named_children) if body.type == "compound_statement" else [body]
    dropped = 0
    copies: dict[str, tuple] = {}  # `local cmd=("${@:2}")`: an array of the arguments: how many it drops, its `"${@:2}"`
    for i, statement in enumerate(statements):
        copied = _arguments_copied(unit, statement)
        if copied is not None:
            name, first, element = copied
            copies[name] = dropped + max(int(first or 1) - 1, 0), element
            continue
        if copies and statement.type in ("variable_assignment", "declaration_command"):  # `cmd=(other words)`
            for name in _NAME_IN.findall(unit.node_text(statement).partition("=")[0]):
                copies.pop(name, None)
        commands = [statement] if statement.type == "command" else list(_commands_in(statement))
        names = [_command_word(unit, c) for c in commands]
        runs = _runner(unit, statement, copies, among)
        if runs is not None:
            command, arguments, first, taken = runs
            if first == "0" or any(
                POSITIONAL.match(name) for c, name in zip(commands, names) if c.id != command.id
            ) or any(
                _command_word(unit, c) in _MOVERS or POSITIONAL.match(_command_word(unit, c))
                for later in statements[i + 1 :]
                for c in ([later] if later.type == "command" else _commands_in(later))
            ):
                return None if taken else UNSURE
            # a pipeline's command, or a job's (`"$@" &`, `a && "$@" &`): not this shell's
            outer = statement
            while outer.parent is not None and outer.parent.type == "list":
                outer = outer.parent
            background = outer.next_sibling is not None and outer.next_sibling.type == "&"
            piped = command.parent.type == "pipeline" or command.parent.parent.type == "pipeline"
            skipped = first if type(first) is int else dropped + max(int(first or 1) - 1, 0)
            return skipped, unit.location(arguments), piped, background, among
        if any(POSITIONAL.match(name) for name in names) or any(
            name == "eval" and any(POSITIONAL.match(unit.node_text(a)) for a in c.children_by_field_name("argument"))
            for name, c in zip(names, commands)
        ):  # `eval "$@"`: this shell reads the words again, joined, which may be any commands
            return UNSURE
        if statement.type == "command" and names[0] == "shift":
            count = [unit.node_text(c) for c in statement.named_children[1:]]
            if count and not (len(count) == 1 and count[0].isdigit()):
                return UNSURE
            dropped += int(count[0]) if count else 1
        elif any(name == "shift" or name == "set" and _sets_arguments(unit, c) for name, c in zip(names, commands)):
            return UNSURE
    return None


def _field_word(text: str, origin: Sequence[int], kept: list[int], where: Location) -> Word:
    """The word `read` makes of the characters `kept` of its input `text` (`read_fields`), each
    where it is written, the last origin just past the last of them; at `where`, the input."""
    places = array("i", [origin[k] for k in kept])
    places.append(origin[kept[-1] + 1] if kept else origin[0])
    value = "".join([text[k] for k in kept])
    return Word(value, value, where, places)


def _tabs_dropped(text: str, origin: Sequence[int]) -> tuple[str, array]:
    """`text` (each character's origin) without the tabs that start its lines, as bash reads a
    `<<-EOF` heredoc (a line joined to the one before by a backslash-newline keeps them)."""
    kept: list[int] = []
    at = 0
    for tabs in _LEADING_TABS.finditer(text):
        kept.extend(range(at, tabs.start()))
        at = tabs.end()
    kept.extend(range(at, len(text)))
    return "".join([text[k] for k in kept]), array("i", [origin[k] for k in kept] + [origin[len(text)]])


def _arguments_copied(unit: Unit, statement) -> tuple[str, str | None, object] | None:
    """`local cmd=("${@:2}")` (or `cmd=("$@")`, `declare -a cmd=(...)`): the array's name, the
    first argument it holds (`_ARGUMENTS`' group 2) and its element, when it holds the arguments
    and nothing else. `"${cmd[@]}"` then stands where that element is written."""
    node = statement
    if node.type == "declaration_command":
        assignments = [c for c in node.named_children if c.type == "variable_assignment"]
        node = assignments[0] if len(assignments) == 1 else None
    if node is None or node.type != "variable_assignment":
        return None
    name, value = node.child_by_field_id(_NAME), node.child_by_field_id(_VALUE)
    if name is None or value is None or value.type != "array" or value.named_child_count != 1:
        return None
    element = value.named_child(0)
    runs = _ARGUMENTS.match(unit.node_text(element))
    return (unit.node_text(name), runs.group(2), element) if runs is not None and runs.group(1) else None


def _runner(unit: Unit, statement, copies: dict[str, tuple] | None = None, among: bool = False):
    """The simple command of a statement of a function's body that runs the function's arguments,
    the word that holds them, the first of them it runs (`_ARGUMENTS`' group 2; for an array of
    them, `copies`, how many it drops) and whether they are that command's arguments: the command
    is the statement (`"$@" --seed 1`), redirected (`"$@" >> log 2>&1`) or the first stage of a
    pipeline (`"$@" 2>&1 | tee train.log`), and its first word is them (or `"${cmd[@]}"`), or it
    runs its words as a command (`_ARGV_RUNNERS`: `nohup "$@"`, `timeout 1h "$@"`) and one of them
    is, or, `among` other words, a program named as written (`python train.py "$@"`, not `$1
    "${@:2}"`, nor `ssh gpu1 "$@"`: `_STRING_RUNNERS`) is given them."""
    node = statement
    for kind in ("redirected_statement", "pipeline", "redirected_statement"):
        if node is not None and node.type == kind:
            node = node.child_by_field_name("body") if kind == "redirected_statement" else node.named_child(0)
    if node is None or node.type != "command":
        return None
    name = node.child_by_field_name("name")
    if name is None:
        return None
    program = unit.node_text(name)
    written = name.named_child_count == 1 and name.named_child(0).type == "word"  # not `$1`, `"$@"`, `$CMD`
    taken = among and written and program not in _ARGV_RUNNERS and program not in _STRING_RUNNERS
    words = node.children_by_field_name("argument") if program in _ARGV_RUNNERS or taken else [name]
    found = [(word, runs) for word in words if (runs := _ARGUMENTS.match(unit.node_text(word)))]
    if copies:  # `"${cmd[@]}"`: its words stand where the copy's `"$@"` is written
        found += [copies[name][::-1] for word in words if (name := _array_expanded(unit.node_text(word))) in copies]
    if len(found) != 1:
        return None
    word, runs = found[0]
    return node, word, runs if type(runs) is int else runs.group(2), taken


def _array_expanded(text: str) -> str:
    """`NAME` of `"${NAME[@]}"`, else ""."""
    return text[3:-5] if text.startswith('"${') and text.endswith('[@]}"') else ""


_MOVERS = DIRECTORY_CHANGERS | SOURCERS
_TAKES_NAME = re.compile(r"[-+][A-Za-z]*o")  # `set -o`, `-euo`: an option's name follows


def _in_turn(nodes) -> list:
    """The statements of a list in the order they run, `&&` and `||` lists taken apart."""
    flat = []
    for node in nodes:
        if node.type == "list":
            flat.extend(_in_turn(node.named_children))
        elif node.type != "comment":
            flat.append(node)
    return flat


def _commands_in(node):
    """The simple commands in `node`, at any depth."""
    stack = [node]
    while stack:
        node = stack.pop()
        if node.type == "command":
            yield node
        stack.extend(node.named_children)


def _command_word(unit: Unit, command) -> str:
    name = command.child_by_field_name("name")
    return "" if name is None else unit.node_text(name)


def _sets_arguments(unit: Unit, command) -> bool:
    """Whether a `set` command gives the shell new positional parameters (`set -- a b`)."""
    words = [unit.node_text(c) for c in command.named_children[1:]]
    for i, word in enumerate(words):
        if word == "--" or not word.startswith(("-", "+")) and not (i and _TAKES_NAME.fullmatch(words[i - 1])):
            return True
    return False


def _one_word(unit: Unit, node) -> bool:
    """Whether an argument node is one word, whatever its value: not an unquoted `$ENVS`, which
    may be several or none, nor `"$@"` or `"${opts[@]}"`."""
    kind = node.type
    return kind in ("word", "number", "raw_string") or kind == "string" and not _MANY_WORDS.search(unit.node_text(node))


def _bound(unit: Unit, call: Command, nodes: list) -> tuple[list[Word], bool]:
    """The words a call of a function gives its `$1`, `$2`, ... (`Arguments`): its words in turn,
    one per argument node, while each is its node's one word (a `"$X"`, `a.py`, a known `$X` that
    split into no other word), and whether they are all of them. Not past a node that may make
    several or none: `"$@"`, `"${A[@]}"`, an unquoted `$X` not known here, a word glued to the next
    (`_glued`)."""
    words, bound = call.words[1:], []
    for i, node in enumerate(nodes):
        if i >= len(words) or words[i].location != unit.location(node):
            return bound, False
        word = words[i]
        if not _one_word(unit, node) and (
            word.value is None or word.passthrough or _MANY_WORDS.search(unit.node_text(node)) or i + 1 < len(words) and words[i + 1].location == word.location
        ):
            return bound, False
        bound.append(word)
    return bound, len(words) == len(nodes)


def _given(name: str, bound: tuple[list[Word], bool]) -> object:
    """The value a call's words (`_bound`) give the positional parameter a `Read` names (`2`,
    `#1`: `$#` after a `shift`): None when not known here, `_ABSENT` when not set."""
    words, complete = bound
    if name[0] == "#":
        left = len(words) - int(name[1:])
        return str(left) if complete and left >= 0 else None
    number = int(name)
    return words[number - 1].value if number <= len(words) else _ABSENT if complete else None


def _quoted(node) -> bool:
    """Whether an expansion is in a double-quoted word of a command (`"$*"`, `"$ARGS"`: one word,
    whatever its value), not in a variable's value, which bash does not split either way."""
    parent = node.parent
    return parent is not None and parent.type == "string" and (parent.parent is None or parent.parent.type != "variable_assignment")


def _unconditional(node) -> bool:
    """Whether the simple command `node` runs whenever its statement does: not after `&&` or
    `||` (`[ -n "$X" ] && set +o pipefail`), nor in a pipeline's subshell."""
    parent = node.parent
    while parent is not None and parent.type in ("redirected_statement", "negated_command", "list", "pipeline"):
        if parent.type == "pipeline" or parent.type == "list" and parent.named_child(0) != node:
            return False
        node, parent = parent, parent.parent
    return True


def _unquoted_expansion(node) -> bool:
    """`$VAR` or `${...}` as a whole word, outside quotes: bash splits its value into words."""
    if node.kind_id in _COMMAND_NAME_IDS and node.named_child_count == 1:
        node = node.named_child(0)
    return node.kind_id in _EXPANSION_IDS


def _holds_substitution(unit: Unit, node) -> bool:
    """Whether `node` may hold a command substitution: one starts with `$(` or a backtick."""
    data, start, end = unit.data, node.start_byte, node.end_byte
    return data.find(b"$(", start, end) >= 0 or data.find(b"`", start, end) >= 0


# `$A`, `${A}`, `${pids[@]}`: a variable that may hold process ids (`Walker._jobs_of`)
_JOB_VARIABLE = re.compile(r"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)(?:\[[@*]\])?\})")
_NAME_IN = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_FILE_NAMED = lazy(r"/|\.[A-Za-z]\w*\Z")  # `configs/a.yaml`, `train.py`: not `1e-4`, `0.1`, `llama` (`_static_loop`)
# `<partition_name> --qos`, `<your path> --qos`, `<o> \` then `--model m` on the next line (`_placeholders`)
_PLACEHOLDER = lazy(rb"<[A-Za-z_][\w./ -]*>(?:[ \t]+|[ \t]*\\\r?\n[ \t]*)-")


def _placeholders(unit: Unit, nodes: list) -> tuple[set[int], set[int]]:
    """The redirections a placeholder left in a command line makes (`--partition <partition_name>
    --config c.yaml`: bash reads `<partition_name`, then `> --config`, stdout into a file named
    `--config`; `<your path>` too): the indexes of the `<` ones and of the `>` ones right after
    them. Only before an option (no one means a file named `--config`; `<in.txt> out.txt` may well
    be meant), on the same line or the next one a `\\` continues to (ClinicalTransformerNER's
    `--output_dir <o> \\`, then `--model m`), not a `>` whose file is on a line of its own
    (`_syntax_error`: `--port <node1_port>` ending a line)."""
    opens: set[int] = set()
    closes: set[int] = set()
    data = unit.data
    for i in range(len(nodes) - 1):
        a, b = nodes[i], nodes[i + 1]
        if b.start_byte != a.end_byte or a.type != "file_redirect" or b.type != "file_redirect" or data[a.start_byte] != 60:
            continue
        first = b.child_by_field_name("destination")
        if first is not None and _PLACEHOLDER.match(data, a.start_byte, first.start_byte + 1):
            opens.add(i)
            closes.add(i + 1)
    return opens, closes


def _one_word_of(first: Word, rest: Word, escaped: str, at: int) -> Word:
    """One word of two that tree-sitter-bash cut where an escape follows an expansion
    (`$mod\\_%A.out`: Linguistic-Features' sbatch lines), which bash reads as one; an escaped
    blank (`$C\\ x.sh`), which tree-sitter-bash drops, is the character `escaped` at offset `at`."""
    value = first.value + escaped + rest.value if first.value is not None and rest.value is not None else None
    origin = array("i", first.origin[:-1])
    origin.extend(array("i", (at,)) * len(escaped))
    origin.extend(rest.origin)
    start, end = first.location, rest.location
    location = Location(start.path, start.line, start.column, end.end_line, end.end_column)
    return Word(value, first.template + escaped + rest.template, location, origin, first.passthrough or rest.passthrough)


_APPENDS = lazy(r'"?\$(\w+|\{\w+\})"?"?[ \t]')  # `"$ARGS --x`, `${ARGS}" --x"` (`_appends_words`)
_SETS_NAMED = re.compile(r"(?:read|mapfile|readarray|printf)\s")  # commands that set the variables they name (`_loop_carried`)
_UPDATES = {"++", "--", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}
_LET_UPDATE = lazy(r"\s*(?:\+\+|--)?([A-Za-z_]\w*)\s*(?:\+\+|--|[-+*/%&|^]?=|<<=|>>=)")


def _loop_carried(unit: Unit, loop) -> tuple[set[str], set[str], set[str]]:
    """Variables a loop changes from one time round to the next: a `for` variable, one updated
    by arithmetic (`((PORT++))`, `let PORT+=2`), or assigned from arithmetic, a command, or a
    variable the loop changes (`PORT=$((PORT + 1))`, `X=$X.a`). `LOG=$DIR/run.log` is not.
    Then the arrays it only appends to (`ARGS+=(--x "$f")`), which grow round after round: not
    set there otherwise (`ARGS=(...)`, `ARGS[0]=x`, `unset ARGS`, `read -a ARGS`). Then the
    variables of the first set that every assignment of the loop appends words to (`ARGS="$ARGS
    --x $f"`, `ARGS+=" --x $f"`)."""
    assigned: dict[str, list] = {}
    appends: dict[str, bool] = {}  # by name: every assignment appends words to it
    appended: set[str] = set()
    variable = loop.child_by_field_name("variable") if loop.type == "for_statement" else None
    updated = {unit.node_text(variable)} if variable is not None else set()
    other = set(updated)  # names set otherwise than by appending to an array
    stack = list(loop.named_children)
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        kind = node.type  # asked once: each ask builds a new string
        if kind == "variable_assignment":
            name, value = node.child_by_field_id(_NAME), node.child_by_field_id(_VALUE)
            if name is not None:
                text = unit.node_text(name)
                if name.type == "subscript":
                    other.add(text.partition("[")[0])
                elif value is not None and value.type == "array" and unit.node_text(node)[len(text) : len(text) + 2] == "+=":
                    appended.add(text)
                else:
                    other.add(text)
                if value is not None:
                    assigned.setdefault(text, []).append(value)
                    appends[text] = appends.get(text, True) and _appends_words(unit, node, text, value)
        elif kind.endswith("_expression") and _updates(unit, node):
            updated.update(unit.node_text(c) for c in node.named_children[:1] if c.type == "variable_name")
            other.update(unit.node_text(c).partition("[")[0] for c in node.named_children[:1] if c.type == "subscript")
        elif kind == "unset_command":
            other.update(_NAME_IN.findall(unit.node_text(node)))
        elif kind == "command":
            text = unit.node_text(node)
            if text.startswith("let "):
                for word in node.named_children[1:]:
                    update = _LET_UPDATE.match(unit.node_text(word).strip("\"'"))
                    if update:
                        updated.add(update.group(1))
            elif _SETS_NAMED.match(text):  # `read -ra ARGS`, `mapfile -t ARGS`, `printf -v ARGS`
                other.update(_NAME_IN.findall(text))
    changing = updated | assigned.keys()
    carried = updated | {name for name, values in assigned.items() if any(_varies(unit, v, changing) for v in values)}
    return carried, appended - other - updated, {name for name in carried - updated if appends.get(name)}


def _appends_words(unit: Unit, assignment, name: str, value) -> bool:
    """`NAME="$NAME --x"`, `NAME=${NAME}" --x"` or `NAME+=" --x"`: the assignment keeps the
    variable's words and adds others after a blank."""
    if unit.node_text(assignment)[len(name) : len(name) + 2] == "+=":
        return unit.node_text(value).lstrip("\"'")[:1] in (" ", "\t")
    found = _APPENDS.match(unit.node_text(value))
    return found is not None and found.group(1).strip("{}") == name


def _updates(unit: Unit, expression) -> bool:
    """`x++`, `x += 2`, `x = 1` inside arithmetic: the operator assigns."""
    return any(unit.node_text(c) in _UPDATES for c in expression.children if not c.is_named)


def _varies(unit: Unit, value, changing) -> bool:
    """The value computes (`$((..))`, `$(..)`), reads a variable in `changing`, or one bash gives
    another value at each read (`$RANDOM`)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if node.type in ("arithmetic_expansion", "command_substitution"):
            return True
        if node.type == "variable_name" and ((text := unit.node_text(node)) in changing or text in _FRESH):
            return True
        stack.extend(node.named_children)
    return False


_FRESH = frozenset({"RANDOM", "SRANDOM"})  # bash's variables read anew each time


def _reader(stage: list[Command]) -> Command | None:
    """The command of a pipeline stage that reads the pipe: not a wrapper, and not a command
    nested in its words (`tee "$(date +%F).log"` walks `date` first) or in its `>(...)`."""
    nested = {id(c) for command in stage for sink in (command.stdout, command.stderr) for c in sink.procsub}
    readers = [c for c in stage if not c.is_wrapper and c.stdout.kind != CAPTURED and id(c) not in nested]
    return next(iter(readers or stage), None)


def _redirect_nodes(node) -> list:
    """The redirects of the redirected statement `node`, with those written after a heredoc's
    start (`cat <<EOF > ds.json`)."""
    redirect_nodes = node.children_by_field_name("redirect")
    if redirect_nodes and redirect_nodes[-1].type == "heredoc_redirect":
        redirect_nodes += redirect_nodes[-1].children_by_field_name("redirect")
    return redirect_nodes


def _piped_after_redirects(unit: Unit, node, heredoc):
    """`python - <<'PY' 2>&1 | tee log`, `bash <<EOF 2>&1 | sed ... | tee log`: bash pipes the
    command, its redirects written after the heredoc's start. tree-sitter-bash makes an error of
    the `|` (in the redirect, the next command's words taken for more files) or of the redirect
    (then a pipeline starting with `|`). The statement is parsed again alone (the same bytes at
    the same offsets, the rest blanked): once without the pipe, for the statement with its
    redirects, and once without the redirects, for the pipe as in `<<'PY' | tee log`. Returns the
    two, or None when the shape is another."""
    start = None
    at = -1  # where the `|` is
    for child in heredoc.children:
        kind = child.type
        if kind == "heredoc_start":
            start = child
        elif start is None or kind in ("heredoc_body", "heredoc_end"):
            continue
        elif kind == "file_redirect" and child.has_error:
            bar = next(c for c in child.children if c.type == "ERROR")
            if bar.child_count != 1 or bar.children[0].type not in ("|", "|&"):
                return None
            at = bar.start_byte
            break
        elif kind == "ERROR" and child.named_child_count == 1 and child.named_children[0].type == "file_redirect":
            continue
        elif kind == "pipeline" and child.children[0].type in ("|", "|&") and child.prev_sibling.type == "ERROR":
            at = child.start_byte
            break
        elif kind != "file_redirect":
            return None
    if start is None or at < 0:
        return None
    text = _parsed_text(unit.data)
    line_end = text.find(b"\n", at)
    if line_end < 0:
        return None
    outside = [(0, node.start_byte), (node.end_byte, len(text))]
    redirected = _alone(_repaired(text, (), [*outside, (at, line_end)]), node)
    piped = _alone(_repaired(text, (), [*outside, (start.end_byte, at)]), node)
    if redirected is None or piped is None:
        return None
    last = piped.named_child(piped.named_child_count - 1)
    pipe = next((c for c in last.named_children if c.type == "pipeline" and c.start_byte == at), None)
    if pipe is None or redirected.named_child(redirected.named_child_count - 1).has_error:
        return None
    return redirected, pipe


def _alone(text: bytes, node):
    """The statement `node` parsed from `text`, where it stands alone, or None if it parses as
    another."""
    statement = _parser().parse(text).root_node.named_child(0)
    if statement is None or statement.type != "redirected_statement" or (statement.start_byte, statement.end_byte) != (node.start_byte, node.end_byte):
        return None
    return statement


def _argument_test(unit: Unit, nodes) -> tuple[str, bool] | None:
    """What an `if`'s condition (its statements, `nodes`) says of one of the script's arguments:
    (its number, True) when it holds if the argument is given (`[ -n "$1" ]`, `[[ -n $1 ]]`, `[ $#
    -ge 1 ]`, `[ $# -gt 0 ]`, `[ "$1" != "" ]`), (its number, False) when it holds if it is not
    (`-z`, `[ "$1" == "" ]`, `[ $# -lt 1 ]`); else None. `[ -n $1 ]` unquoted holds when $1 is
    empty too."""
    emptiness = _emptiness_test(unit, nodes)
    if emptiness is not None:
        operand = _ONE_ARGUMENT.fullmatch(emptiness[0])
        return None if operand is None else (operand.group(2) or operand.group(3), emptiness[1])
    if len(nodes) != 1 or nodes[0].type != "test_command" or nodes[0].named_child_count != 1:
        return None
    test = nodes[0].named_child(0)
    texts = [unit.node_text(c) for c in test.children]
    if test.type == "binary_expression" and len(texts) == 3 and _COUNT.fullmatch(texts[0]) and texts[2].isdigit():
        bound = int(texts[2]) + (texts[1] in ("-gt", "-le"))  # `-gt 0` is `-ge 1`, `-le 0` is `-lt 1`
        if texts[1] in ("-ge", "-gt", "-lt", "-le") and 1 <= bound <= 9:
            return str(bound), texts[1] in ("-ge", "-gt")
    return None


def _emptiness_test(unit: Unit, nodes) -> tuple[str, bool] | None:
    """(the operand as written, True) of a condition that holds when a word is not empty (`[ -n
    "$X" ]`, `[[ -n $X ]]`, `[ "$X" != "" ]`), (it, False) of one that holds when it is (`-z`,
    `[ "$X" == "" ]`, `[ "$X" = '' ]`); else None. Unquoted in `[`, `-n $X` holds when X is empty
    too, and `$X == ""` is an error then: neither tells."""
    if len(nodes) != 1 or nodes[0].type != "test_command" or nodes[0].named_child_count != 1:
        return None
    test, double = nodes[0].named_child(0), nodes[0].children[0].type == "[["
    texts = [unit.node_text(c) for c in test.children]
    if test.type == "unary_expression" and len(texts) == 2 and texts[0] in ("-n", "-z"):
        operand, holds = texts[1], texts[0] == "-n"
    elif test.type == "binary_expression" and len(texts) == 3 and texts[1] in ("=", "==", "!=") and texts[2] in ('""', "''"):
        operand, holds = texts[0], texts[1] == "!="
    else:
        return None
    return (operand, holds) if double or operand.startswith('"') else None


def _lone_assignment(unit: Unit, nodes) -> tuple[str, str | None] | None:
    """(name, the argument it takes) when the statements of an arm (`nodes`, its children) are one
    assignment: `CFG=$1` gives ("CFG", "1"), `CFG=a.yaml` ("CFG", None); else None."""
    statements = [c for c in nodes if c.is_named and c.type != "comment"]
    if len(statements) != 1 or statements[0].type != "variable_assignment":
        return None
    name, value = statements[0].child_by_field_name("name"), statements[0].child_by_field_name("value")
    if name is None or value is None:
        return None
    argument = _ONE_ARGUMENT.fullmatch(unit.node_text(value))
    return unit.node_text(name), (argument.group(2) or argument.group(3)) if argument is not None else None


def _arm_nodes(node) -> list[list]:
    """The statements of each arm of an if/case, in the order `Walker.compound` walks them (an
    `elif` or `else` clause, or a `case` item, whole)."""
    arms: list[list] = []
    for child in node.children:
        if child.type in ("elif_clause", "else_clause", "case_item"):
            arms.append([child])
        elif child.type == "then":
            arms.append([])
        elif arms and child.is_named:
            arms[-1].append(child)
    return arms


def _lone_variable(text: str) -> str | None:
    """The variable a test's operand is the value of (`$X`, `"${X}"`, `"${X:-}"`), else None."""
    match = _LONE.fullmatch(text)
    return None if match is None else match.group(2) or match.group(3)


def _pattern(text: str, glob: bool) -> str | None:
    """A regex for what a static operand matches: a pattern of `*`, `?`, quoted and plain text in
    `[[ ]]` and `case` (`glob`), a string in `[ ]`; None for anything else (`$X`, `[a-z]`, extglob)."""
    parts, at = [], 0
    for match in _PATTERN_PART.finditer(text):
        if match.start() != at:
            return None
        at, wild = match.end(), match.group(4)
        if wild is not None and not glob:
            return None
        parts.append((".*" if wild == "*" else ".") if wild else re.escape(next(g for g in match.groups() if g is not None)))
    return "".join(parts) if at == len(text) else None


def _last_simple_command(node):
    """The command that redirects written after a list or pipeline belong to. tree-sitter-bash
    attaches `a && b >log` and `a | b >log` to the whole list; bash binds them to `b`."""
    while node is not None and node.type in ("list", "pipeline") and node.named_children:
        node = node.named_children[-1]
    return node if node is not None and node.type == "command" else None


def apply_redirects(redirects: list[Redirect], stdout: Sink, stderr: Sink) -> tuple[Sink, Sink]:
    """Where stdout and stderr go after the redirects, applied left to right as the shell does."""
    fds = {1: stdout, 2: stderr}
    for r in redirects:
        if r.op.startswith("<"):
            continue
        if r.dup is not None:
            fd = r.fd if r.fd is not None else 1
            fds[fd] = fds.get(r.dup, Sink(INHERIT))
            continue
        if r.target is None:
            continue
        if r.procsub:
            sink = Sink(PROCSUB, r.target, r.location)
        elif r.target.value in ("/dev/null",):
            sink = Sink(NULL, r.target, r.location)
        elif r.target.value in ("/dev/stdout", "/dev/fd/1"):
            sink = fds[1]
        elif r.target.value in ("/dev/stderr", "/dev/fd/2"):
            sink = fds[2]
        else:
            sink = Sink(FILE, r.target, r.location)
        if r.op.startswith("&"):
            fds[1] = fds[2] = sink
        else:
            fds[r.fd if r.fd is not None else 1] = sink
    return fds[1], fds[2]


def parse_nested(
    walker: Walker,
    text: str,
    origin: Sequence[int],
    state: State,
    wrappers_: tuple[Wrapper, ...],
    *,
    exact: bool = True,
    closed_at: str | None = None,
) -> list[Command]:
    """Parse a command string found in a word, with its characters mapped back to the file.
    Not `exact`: the string holds parts this shell cannot evaluate, as written; their values may
    make a valid command of what does not parse here, so the string gets no LL001. `closed_at`:
    where an inner `"` is that likely ended the string early (`Walker.closed_early`), for its LL001."""
    unit = walker.unit
    if unit.depth >= MAX_DEPTH:
        return []
    origin = array("i", origin)  # a copy, as an array: its slices go into words' origins in one copy
    if len(origin) < len(text) + 1:
        origin.extend([origin[-1] if origin else 0] * (len(text) + 1 - len(origin)))
    unit.nested[0] -= len(text)
    if unit.nested[0] < 0:
        return []  # `c1="eval \"$c0\"; eval \"$c0\""` eight levels deep: 4^8 strings from 560 bytes
    inner_unit = Unit(unit.path, text, unit.index, origin, unit.depth + 1, unit.nested)
    inner_unit.checked = not exact  # "judged" already: no LL001
    inner_unit.closed_at = closed_at
    inner = Walker(walker.script, inner_unit, state, wrappers_)
    inner.typed_keys, inner.cwd_read_at = walker.typed_keys, walker.cwd_read_at
    before = len(walker.script.commands)
    run_unit(inner)
    return walker.script.commands[before:]


# tree-sitter-bash's scanner hands the next character to isdigit()/isalpha(), whose table has
# 256 entries: a character far past U+00FF after `{` reads outside it and kills the process
# (tree-sitter/tree-sitter-bash#337). So the parser sees each non-ASCII byte as `%`, a plain word
# character as the original is to bash; offsets are bytes and stay exact, and node texts come
# from the unit, never from the tree.
_ASCII_ONLY = bytes(range(128)) + b"%" * 128


def _parsed_text(data: bytes) -> bytes:
    """What tree-sitter-bash is given for `data`: the same bytes at the same offsets, but for
    non-ASCII bytes (above) and a line continuation that ends the text. bash reads a backslash
    and newline as nothing, so a last line that ends in one (a command pasted with its last
    backslash: 7 of ms-swift's 405 scripts) ends its command there; tree-sitter-bash waits for
    more and reports an error, which `bash -n` (3-4 ms a file) then has to clear. The parser
    sees a space. A backslash before a Windows line end escapes the `\r`, which bash keeps in the
    word, and the newline ends the command: tree-sitter-bash, which reads the `\r` as a blank and
    the lines as one command, sees another character there (gmflow's scripts: the `| tee` of the
    last line is not the launch's)."""
    if not data.isascii():
        data = data.translate(_ASCII_ONLY)
    if b"\\\r\n" in data:
        data = data.replace(b"\\\r\n", b"\\_\n")
    if data.endswith(b"\\\n"):
        first = len(data) - 2  # the first of the backslashes before the newline
        while first and data[first - 1] == 0x5C:
            first -= 1
        if (len(data) - 1 - first) % 2:  # an odd run: the last one escapes the newline
            data = data[:-2] + b" \n"
    return data


def run_unit(walker: Walker, line_ends: Sequence[int] = ()) -> bool:
    """Parse and walk the unit; `line_ends`: line ends (or the blank before a line's comment) to
    read as `;` (see `Walker.read_on`), and the lines bash refuses and heredocs no command reads
    blanked (`Unit.blanked`, found on the first parse). True when the walk found the first syntax
    error (a redirection without its file before the line's end, a stray `done`), and lines are
    now blanked: the unit is to be walked again."""
    unit = walker.unit
    text = _parsed_text(unit.data)
    if line_ends:  # the same bytes at the same offsets, but rows that no longer count lines
        unit._points = False  # locations from offsets
    tree = _parser().parse(_repaired(text, line_ends, unit.blanked))
    root = tree.root_node
    if root.has_error and not line_ends and (stop := _read_up_to(unit, root)) is not None:
        # Never read, let alone run: a self-extracting script's payload, the C source Xdummy keeps
        # after its `exit $?`. The unit's bytes are the ones the shell reads (those after, blanked:
        # the same offsets and lines), for tree-sitter-bash and for `bash -n` alike.
        unit.data = _repaired(unit.data, (), [(stop, len(unit.data))])
        text = _parsed_text(unit.data)
        tree = _parser().parse(text)
        root = tree.root_node
    # Windows line ends bash refuses: one LL001 with the hint, whatever tree-sitter-bash makes of
    # the `\r`s; every `do\r` or `then\r` after the first is the same cause, no region of its own.
    windows = not line_ends and unit.origin is None and unit.depth == 0 and b"\r\n" in unit.data
    refused = windows and _carriage_returns(walker, root)
    if not root.has_error and not line_ends and not refused and b"\\ #" in unit.data:
        # `--name="x" \ # note (y)`: tree-sitter-bash reads a comment, bash an escaped blank and
        # then the words `#`, `note`, and a `(` it refuses (wav2vec2-w-T5-cs's finetune.sh)
        _syntax_error(walker, root)
    if root.has_error and not line_ends and not refused:  # judged on the first parse
        error = _first_error(root)
        verdict = _syntax_error(walker, error, error.type if error.is_missing else None) if error is not None else None
        if verdict is not None and verdict[0]:
            unit.blanked = _later_errors(walker, verdict)
        elif verdict is None and b"<<" in text:  # bash reads it: a heredoc no command reads?
            unit.blanked = _bare_heredocs(text)
        if unit.blanked:
            tree = _parser().parse(_repaired(text, (), unit.blanked))
            root = tree.root_node
    if unit.origin is None:
        walker.script.directives.extend(_directives(walker.unit, root))
        if b"launchlint:" in unit.data and not line_ends:
            walker.script.comments = _comments(unit, root)
    elif walker.wrappers and walker.wrappers[-1].kind == "sbatch" and walker.wrappers[-1].heredoc:
        walker.wrappers[-1].command.job_directives = tuple(_directives(unit, root))
    if b"PIPESTATUS" in unit.data and _reads_status(unit.data):
        last = max(len(unit.text.rstrip()) - 1, 0)  # its last character: not the next line's start
        lines = unit.index.span(unit.path, unit.file_offset(0), unit.file_offset(last))
        walker.script.status_read.append((lines.line, lines.end_line))
    judged = unit.checked
    walker.walk(root, None, None)  # None: the script's streams at that point (see `exec`)
    walker.finish()
    if judged or line_ends or unit.verdict is None or not unit.verdict[0]:
        return False
    unit.blanked = _later_errors(walker, unit.verdict)
    return bool(unit.blanked)


def _closed_early(unit: Unit, node) -> str | None:
    """Where an inner `"` likely ended a string in the concatenation `node` (`` `step` on line 4 ``,
    the word after it), else None: an unquoted word is glued to the end of a double-quoted string
    that runs over more than one line. In `bash -c "` ... `echo "step one"` ... `"` the `"` before
    `step` ends the string, and bash -c's script is the text up to `echo ` with `step` glued to it."""
    children = node.children
    for string, after in zip(children, children[1:]):
        if after.kind_id in _PLAIN_IDS and string.type == "string" and string.end_point.row > string.start_point.row:
            return f"`{unit.node_text(after)[:20]}` on line {unit.location(after).line}"
    return None


def _comments(unit: Unit, root) -> list[tuple[int, int]]:
    """The [start, end) offsets of the unit's comments (it is a file)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            found.append(unit.chars_of(node))
        elif node.type != "heredoc_body":
            stack.extend(node.children)
    return sorted(found)


def _directives(unit: Unit, root) -> list[Directive]:
    """`#SBATCH` lines before the first command: where the scheduler stops reading them; before
    a line bash refuses too, which the parse read blanked (PELICAN's `<<<<<<< Updated upstream`
    left by a merge: no comment line)."""
    found = []
    refused = min((start for start, _ in unit.blanked), default=len(unit.data))
    for node in root.named_children:
        if node.type != "comment" or node.start_byte >= refused:
            break
        text = unit.node_text(node)
        match = _DIRECTIVE.match(text)
        if match is None:
            continue
        start = unit.char(node.start_byte)
        words = []
        for token in _DIRECTIVE_WORD.finditer(text, match.end()):
            if token.group().startswith("#"):  # the rest of the line is a comment
                break
            words.append(_directive_word(unit, token, start))
        found.append(Directive(match.group(1), words, unit.location(node)))
    return found


def _directive_word(unit: Unit, token: re.Match, line_start: int) -> Word:
    """One word of a directive, its quotes removed (`--output="logs/x.out"`)."""
    text, start = token.group(), line_start + token.start()
    end = start + len(text)
    if '"' not in text and "'" not in text:  # most are unquoted: each character stays where it is
        value, origin = text, list(unit.file_offsets(start, end))
    else:
        value, origin, quote = "", [], None
        for i, ch in enumerate(text, start):
            if quote is None and ch in "\"'":
                quote = ch
            elif ch == quote:
                quote = None
            else:
                value += ch
                origin.append(unit.file_offset(i))
    return Word(value, value, unit.index.span(unit.path, unit.file_offset(start), unit.file_offset(end)), origin + [unit.file_offset(end)])


# Words that only close or continue a compound command. tree-sitter-bash takes a stray one for a
# command name (`done` after a loop already closed); bash refuses the whole script.
_CLOSERS = frozenset(("done", "fi", "esac", "then", "else", "elif", "do", "}"))


def _reads_status(data: bytes) -> bool:
    """`PIPESTATUS` on a line that is not a comment (`# no PIPESTATUS here` reads nothing)."""
    at = data.find(b"PIPESTATUS")
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        if not data[start:at].lstrip().startswith(b"#"):
            return True
        at = data.find(b"PIPESTATUS", at + 1)
    return False


_BARE_HEREDOC = lazy(rb"^[ \t]*<<(-?)[ \t]*(['\"]?)(\w+)\2[ \t]*$", re.MULTILINE)


def _bare_heredocs(text: bytes) -> list[tuple[int, int]]:
    """The byte spans of heredocs with no command (`<<note`, its text, `note`): a block comment
    to bash, which reads the text and throws it away. tree-sitter-bash has no heredoc without a
    command and reads the text as commands."""
    spans: list[tuple[int, int]] = []
    for start in _BARE_HEREDOC.finditer(text):
        if spans and start.start() < spans[-1][1]:
            continue  # inside the one before
        if text[max(start.start() - 3, 0) : start.start()].rstrip(b"\r\n").endswith(b"\\"):
            continue  # `python - \` then `<<'PY'`: the command's, on a continued line
        tabs = rb"\t*" if start.group(1) else b""
        end = re.compile(rb"^" + tabs + re.escape(start.group(3)) + rb"$", re.MULTILINE).search(text, start.end())
        spans.append((start.start(), end.end() if end is not None else len(text)))
    return spans


def _repaired(text: bytes, line_ends: Sequence[int], blanked: Sequence[tuple[int, int]]) -> bytes:
    """`text` with `line_ends` read as `;` (an `=` among them, of a word that is no assignment,
    as `.`, a word's character: `Walker._no_assignment`) and the `blanked` spans blanked (their
    line ends kept): the same bytes at the same offsets otherwise."""
    if not line_ends and not blanked:
        return text
    repaired = bytearray(text)
    for newline in line_ends:
        repaired[newline] = 0x2E if repaired[newline] == 0x3D else 0x3B
    for start, end in blanked:  # the line ends kept: tree-sitter's rows are the file's lines
        repaired[start:end] = _NOT_A_LINE_END.sub(b" ", repaired[start:end])
    return bytes(repaired)


_NOT_A_LINE_END = lazy(rb"[^\n]")


def _syntax_error(walker: Walker, node, missing: str | None = None) -> tuple[int, str] | None:
    """LL001 in bash's words, unless this unit already has one or bash parses it after all: at
    `node` when it is on the line where bash stopped, else at that line (tree-sitter-bash takes
    `--port <node1_port>` at the end of a line for a redirection and reads on; its ERROR node
    may start lines before the fault). `missing`: the token tree-sitter-bash found missing, which
    says more than bash's 'unexpected EOF'. Returns bash's verdict when one is reported."""
    unit = walker.unit
    if unit.checked:
        return None
    unit.checked = True
    if unit.depth == 0 and not _bash_syntax(walker.script):
        return None
    verdict = unit.verdict = _bash_error(unit.data)
    if verdict is not None:
        _report(walker, node, verdict, missing)
    return verdict


def _carriage_returns(walker: Walker, root) -> bool:
    """A script saved with Windows line ends: tree-sitter-bash reads each carriage return as a
    blank, bash as part of the word before it, so `then\r` and `fi\r` are no keywords and
    `((i++))\r` is followed by a word. Only `bash -n` can tell whether it refuses the file: a
    script of plain commands runs (with a `\r` at the end of each last argument). True when it
    refuses it, and the LL001 is reported."""
    unit = walker.unit
    if not _bash_syntax(walker.script):
        return False
    verdict = _bash_error(unit.data)
    if verdict is None or not verdict[0]:
        unit.checked = verdict is None  # bash accepts it: not asked again for tree-sitter-bash's error
        return False  # or is not here to say
    unit.checked, unit.verdict = True, verdict
    keyword = _KEYWORD_AT_CR.search(unit.text)
    if keyword is not None and verdict[1].endswith("unexpected end of file"):  # where it went wrong, not the end
        line = unit.text.count("\n", 0, keyword.start(1)) + 1
        verdict = line, f"{verdict[1]}: `{keyword.group(1)}\\r` on this line is no keyword to bash"
    _report(walker, root, verdict)
    converted = _bash_error(unit.data.replace(b"\r\n", b"\n"))
    if converted is not None and converted[0]:
        return True  # refused without them too (TIGERScore's Python saved as `.sh`): no hint
    where, message = walker.script.parse_errors[-1]
    walker.script.parse_errors[-1] = (where, f"{message} (Windows line ends: bash reads each `\\r` as part of a word; `dos2unix` converts them)")
    return True


_KEYWORD_AT_CR = lazy(r"(?:^|[\s;&|])(then|do|else|elif|fi|done|esac|\{|\})\r$", re.MULTILINE)


def _report(walker: Walker, node, verdict: tuple[int, str], missing: str | None = None) -> None:
    unit = walker.unit
    line, said = verdict
    if line and (line != node.start_point.row + 1 or node.end_point.row != node.start_point.row):
        # tree-sitter's error starts on another line, or runs on past it: at the token bash names
        where, message = unit.line_span(line, said), said
    else:
        # tree-sitter-bash's missing token says more than bash's end of the text, not than its
        # unexpected token (`echo a(x)`: "near unexpected token `('", not "missing ;")
        eof = not said or "unexpected end of file" in said or "unexpected EOF" in said
        where, message = unit.location(node), f"missing {missing}" if missing and eof else said or "syntax error"
    if unit.depth:
        message += " in a nested command string"
    if unit.closed_at is not None:
        message += f': the `"` before {unit.closed_at} ends it early; escape it as `\\"`'
    walker.script.parse_errors.append((where, message))


MAX_CALL_WALKS = 64  # of a unit: see `Walker._call`
MAX_WALKS = 4  # of a function, for the positional parameters of its calls (but a dispatcher's): see `Walker._again`
MAX_REGIONS = 10  # LL001s per unit: each past the first costs a `bash -n`


def _later_errors(walker: Walker, verdict: tuple[int, str]) -> list[tuple[int, int]]:
    """One LL001 per unparseable region (rules.md), where bash stops at the first (`verdict`):
    the line bash refuses is blanked (its bytes made spaces, the offsets kept) and bash asked
    again; each line it refuses then is a region of its own, blanked in turn. Returns the blanked
    lines' byte spans, which the walk then leaves out, so that the rest of the unit is analysed,
    as rules.md says: tree-sitter-bash reads a placeholder's `<` at a line's end as a redirection
    and takes the next line for its file, so `CKPT=<path>` then `python t.py | tee t.log` lost the
    job to every rule. When bash still stops at or before that line once it is blank, and the line
    is part of a command continued by trailing backslashes (`A=<PATH> \\` then `(e.g., /a.txt)`:
    the blank leaves `A=<PATH>` with no file after its `>`), the whole continued command is blanked
    instead: tree-sitter-bash otherwise folds the lines after it into one bad region, and a later
    `python x.py --a ${A} | tee x.log` was lost. The whole continued command first when bash
    refuses its line's first word (`_misplaced`: `for m in a \\ `, a blank after the `\\`, ends
    the list, and bash refuses the next line `c \\`, then `d \\`: one region, not one a line,
    gft's `squad.sh`); a placeholder on each of two continued lines (`--host <ip1> <ip2> \\`, then
    `--port <p1> <p2> \\`) is two. Not blanked: a line whose error is an opening or
    closing word without its other half (a stray `fi`, an unclosed quote: bash reads the rest into
    it), nor one after whose blank (or its command's) bash stops at or before it, or at such a word
    (`for f in <files>; do` leaves `done`): the error is not the line's alone, and blanking it
    would make errors of lines bash accepts."""
    data = bytearray(walker.unit.data)
    spans: list[tuple[int, int]] = []
    for found in range(1, MAX_REGIONS + 1):
        line, said = verdict
        if _unbalanced(said):
            return spans
        command = _continued(data, line)
        tried = (command,) if _misplaced(data, line, said) else ((line, line), command)  # the line, else its command
        for first, last in dict.fromkeys(tried):
            start, end = _line_bounds(data, first)[0], _line_bounds(data, last)[1]
            kept = bytes(data[start:end])
            data[start:end] = _NOT_A_LINE_END.sub(b" ", kept)
            after = _bash_error(bytes(data))
            if after is None or (after[0] > last and not _unbalanced(after[1])):
                break
            data[start:end] = kept
        else:
            return spans
        spans.append((start, end))
        if after is None:
            return spans + _unread_assignments(data)
        if found == MAX_REGIONS:
            return spans
        tree = _parser().parse(_parsed_text(bytes(data)))
        error = _first_error(tree.root_node)
        _report(walker, error if error is not None else tree.root_node, after)
        verdict = after
    return spans


_ASSIGNED_REDIRECTION = lazy(rb"[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*=)<(?![(<])")


def _assigns_redirection(data: bytearray, at: int) -> bool:
    """tree-sitter-bash's error at `at` is the `NAME=` or the `<` of a `NAME=<...` assignment
    that starts a line (not an argument, `python t.py model=<MODEL>`, nor a continued line)."""
    start = data.rfind(b"\n", 0, at) + 1
    match = _ASSIGNED_REDIRECTION.match(data, start)
    line = data.count(b"\n", 0, start) + 1
    return match is not None and at in (match.start(1), match.end(1)) and _continued(data, line)[0] == line


def _unread_assignments(data: bytearray) -> list[tuple[int, int]]:
    """The spans of the commands, once bash accepts the unit (`data`, its refused lines blank),
    that tree-sitter-bash cannot read: an assignment whose value starts with a redirection
    (`A=<PATH> \\ ` with a blank after the backslash, which bash reads as `A=` with `<PATH` and
    `> ' '`; `B=<Specify path>/x`, a command `path` with B= in its environment). Its recovery
    folds the lines after the `=<` into the assignment, up to the next `$V`, so a later launch
    lost its first words (Megatron-LLaMA's examples/msdp: `python -m torch.distributed.launch
    $DISTRIBUTED_ARGS` went, `./tasks/msdp/main.py` became the command). Bash sets no variable
    there that holds more than nothing, so the commands are blanked too, without an LL001 of
    their own, when bash still accepts the unit without them. One such error can hide the next:
    the unit is parsed again after each blank, at most MAX_REGIONS times."""
    blanked = bytearray(data)
    spans: list[tuple[int, int]] = []
    for _ in range(MAX_REGIONS):
        tree = _parser().parse(_parsed_text(bytes(blanked)))
        error = _first_error(tree.root_node)
        if error is None or error.is_missing or not _assigns_redirection(blanked, error.start_byte):
            break
        first, last = _continued(blanked, blanked.count(b"\n", 0, error.start_byte) + 1)
        start, end = _line_bounds(blanked, first)[0], _line_bounds(blanked, last)[1]
        blanked[start:end] = _NOT_A_LINE_END.sub(b" ", blanked[start:end])
        spans.append((start, end))
    return spans if spans and _bash_error(bytes(blanked)) is None else []


def _continued(data: bytes | bytearray, line: int) -> tuple[int, int]:
    """The first and last lines (1-based) of the command line `line` is part of: the lines before
    it that end in a backslash that continues them (an odd run; not a comment's), and it and the
    lines after it while they end in one."""
    lines = bytes(data).split(b"\n")

    def continues(n: int) -> bool:
        text = lines[n - 1] if 0 < n <= len(lines) else b""
        return (len(text) - len(text.rstrip(b"\\"))) % 2 == 1 and not text.lstrip().startswith(b"#")

    first, last = line, line
    while first > 1 and continues(first - 1):
        first -= 1
    while last < len(lines) and continues(last):
        last += 1
    return first, last


def _line_bounds(text, line: int) -> tuple[int, int]:
    """Where line `line` (1-based) of `text` (str or bytes) starts and ends, its newline left
    out; the text's end when it has fewer lines."""
    newline = "\n" if isinstance(text, str) else b"\n"
    start = 0
    for _ in range(line - 1):
        start = text.find(newline, start) + 1
        if start == 0:
            return len(text), len(text)
    end = text.find(newline, start)
    return start, len(text) if end < 0 else end


def _misplaced(data: bytearray, line: int, said: str) -> bool:
    """bash refuses the first word of the line (`unexpected token `c'` on `c \\`): the line is
    not wrong itself, the command it starts is out of place, as a whole."""
    start, end = _line_bounds(data, line)
    words = bytes(data[start:end]).split()
    return bool(words) and said.endswith(f"`{words[0].decode(errors='replace')}'")


def _unbalanced(said: str) -> bool:
    """bash's error is an opening or closing word without its other half (a stray `fi`, an
    unclosed quote or `do`): blanking the line it is on would unbalance the lines around it."""
    return said.endswith(_UNEXPECTED_CLOSERS) or "EOF" in said or "end of file" in said


_UNEXPECTED_CLOSERS = tuple(f"`{word}'" for word in ("done", "fi", "esac", "}", ")", "then", "do", "else", "elif", ";;"))


def _read_up_to(unit: Unit, root) -> int | None:
    """Where the shell stops reading, when nothing before is in error: the start of the line after
    a top-level `exit` (or `exec` of a command, which replaces the shell). bash and dash parse and
    run a script a line (a complete command) at a time, so what follows is never read. Not an
    `exit` in an `if`, a function, a subshell or an `&&`/`||` list: those may not run."""
    for child in root.children:
        if child.has_error or child.is_missing:
            return None  # an error first: bash's to judge
        name = child.child_by_field_name("name") if child.type == "command" else None
        word = unit.node_text(name) if name is not None else None
        if word == "exit" or word == "exec" and child.child_by_field_name("argument") is not None:
            end = unit.data.find(b"\n", child.end_byte)
            return None if end < 0 else end + 1
    return None


def _first_error(node):
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "ERROR" or current.is_missing:
            return current
        if current.has_error:
            stack.extend(reversed(current.children))
    return None


# Shells whose syntax is bash's to judge: POSIX sh and its kin. A zsh script is read as bash for
# its commands, but `${(kv)tasks}` is not an error there (a csh or fish one is not read at all:
# `discover.other_shell`).
_BASH_SYNTAX = frozenset(SHELL_PROGRAMS - {"zsh"} | {"busybox"})


def _bash_syntax(script: ShellScript) -> bool:
    """Whether the file's own shell (its `#!` line, else a `.zsh` name) parses as bash does."""
    shell = script.interpreter or ("zsh" if script.path.endswith(".zsh") else "bash")
    return shell in _BASH_SYNTAX


_UNEXPECTED = lazy(r"near unexpected token `(.+)'$")  # bash's words for the token it stopped at
_BASH_ERROR = lazy(r"^bash: line (\d+): (?!warning: )(.+)$", re.MULTILINE)


def _bash_error(data: bytes) -> tuple[int, str] | None:
    """None when `bash -n` (it only parses, runs nothing) accepts `data` (exits 0 and reports no
    syntax error: for `[[ "$x" == *a*]]` it exits 0 yet prints one), else the line of its
    first error and its words ((0, "") when it says neither: no bash, or a timeout). With
    extglob on: `-n` runs no `shopt -s extglob`, so it would refuse the `!(a|b)` that the
    script's own shopt line allows."""
    import subprocess  # here: only a file tree-sitter finds an error in needs it (18.6 M instructions)

    try:
        result = subprocess.run(["bash", "-O", "extglob", "-n"], input=data, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return 0, ""
    match = _BASH_ERROR.search(result.stderr.decode("utf-8", "replace"))
    if result.returncode == 0 and (match is None or "syntax error" not in match.group(2)):
        return None  # `bash -n` exits 0 after a bad `[[ ... ]]`, but says "syntax error" all the same
    return (int(match.group(1)), match.group(2)) if match else (0, "")


def shebang_pipefail(text: str) -> bool:
    """`#!/usr/bin/env -S bash -euo pipefail`: env splits the line, so bash gets its options (a
    `#!/bin/bash -eo pipefail` line hands bash one word, which it does not read as two)."""
    words = shebang_words(text) or []
    if len(words) < 3 or words[0].rpartition("/")[2] != "env" or not words[1].startswith("-S"):
        return False
    rest = ([words[1][2:]] if len(words[1]) > 2 else []) + words[2:]
    return bool(rest) and rest[0].rpartition("/")[2] in SHELL_PROGRAMS and shell_args(rest[1:]).pipefail


def parse_shell(
    path: str,
    text: str,
    index: LineIndex | None = None,
    origin: list[int] | None = None,
    *,
    pipefail: bool = False,
    env: dict[str, str | None] | None = None,
    script: ShellScript | None = None,
    own_shell: bool = True,
) -> ShellScript:
    """Extract the facts of one piece of shell. `origin` maps `text` into a larger file, whose
    pieces (a workflow's steps, a makefile's recipe lines) each run in a shell of their own, a
    `cd` ending with it, unless not `own_shell`."""
    index = index or LineIndex(text)
    script = script or ShellScript(path, interpreter=shebang_program(text) if origin is None else None)
    if origin is None:
        pipefail = pipefail or shebang_pipefail(text)
    unit = Unit(path, text, index, origin, 0)
    given = index.span(path, unit.file_offset(0), unit.file_offset(0))  # where the text starts

    def walker() -> Walker:
        state = State(pipefail=pipefail, pipefail_at=commands)  # a workflow's step: its own shell
        for name, value in (env or {}).items():
            state.variables[name] = value
            state.assigned[name] = Word(value, "" if value is None else value, given)
            state.exported.add(name)
        walker = Walker(script, unit, state, ())
        if origin is not None and own_shell:
            walker.blocks.append(Block(SUBSHELL, given))
        return walker

    commands, pipelines, directives = len(script.commands), len(script.pipelines), len(script.directives)
    current, line_ends = walker(), []
    again = run_unit(current)
    for _ in range(MAX_REPARSES):
        if not current.read_on and not again:
            break
        # Walked again, parsed as bash reads it (or without the lines it refuses), the first
        # walk's facts dropped; the new parse may read on elsewhere, in lines the first had swallowed.
        del script.commands[commands:], script.pipelines[pipelines:], script.directives[directives:]
        line_ends += current.read_on
        current = walker()
        again = run_unit(current, line_ends)
    if origin is None:  # a file: what a shell that sources it keeps
        # A function it defines may be called by the script that sources it: what that does too.
        effects = current.effects.values()
        script.final_pipefail = current.state.pipefail or any(e.pipefail for e in effects)
        script.pipefail_set = current.state.pipefail if current.state.pipefail_sure else None
        script.final_pipefail_at = current.state.pipefail_at
        script.final_exported = frozenset(current.state.exported).union(*(e.exported for e in effects))
        script.final_variables = frozenset(current.state.variables).union(current.state.arrays)
        script.final_assigned = dict(current.state.assigned)
    cut_off(script.commands, commands, index)
    return script


def cut_off(commands: list[Command], first: int, index: LineIndex) -> None:
    """Set `Command.cut_off` on each of `commands` (from `first` on: one unit's, nested ones
    included) whose next lines start with an option, each a command of its own: those lines are
    the command's words cut off by a broken continuation (a line without its `\\`, a blank or a
    comment after it, a line commented out in the middle; `CutOff`). Each line is read once: a
    command that starts with an option is another's cut-off line, not a command cut off itself."""
    at, count = first, len(commands)
    while at < count:
        command = commands[at]
        at += 1
        if _an_option(command):
            continue
        end, stranded = command.location.end_line, at
        while stranded < count:
            after = commands[stranded]
            while end + 1 < after.location.line and index.line_text(end + 1).lstrip(" \t").startswith("#"):
                end += 1  # a commented-out line between them
            if after.location.line != end + 1 or not _an_option(after):
                break
            end = after.location.end_line
            stranded += 1
        if stranded > at:
            words = tuple(w for c in commands[at:stranded] for w in c.words)
            command.cut_off = CutOff(*_ended(index, command.location.end_line), words)
            at = stranded


def _an_option(command: Command) -> bool:
    return bool(command.words) and command.words[0].text.startswith("-")


def _ended(index: LineIndex, end: int) -> tuple[str, int]:
    """Why a command that ends on line `end` does not go on into the next line (`CutOff.how`),
    and the line that says so."""
    if index.line_text(end + 1).lstrip(" \t").startswith("#"):
        return "commented", end + 1
    _, backslash, tail = index.line_text(end).rpartition("\\")
    rest = tail.strip(" \t")
    if not backslash or rest and not rest.startswith("#"):
        return "line", end
    if not tail and index.text[index.offset(end + 1, 1) - 2 : index.offset(end + 1, 1)] == "\r\n":
        return "crlf", end  # a Windows line end: the `\\` escapes its `\r` (`_parsed_text`)
    return "comment" if rest else "space", end


MAX_REPARSES = 8  # of a unit, for tree-sitter-bash's reading on (`Walker.read_on`)
# Heredoc statements redirected then piped that a walk parses again alone: each parse is of the
# whole unit's length (blanked around it), so a hostile file of thousands would be quadratic.
MAX_REPAIRS = 32
