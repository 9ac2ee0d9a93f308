"""The contract between a launch and the Python program it starts (LL301, LL302).

`command_line(project, path)` is what the program in `path` accepts: the one parser that parses
the process's own arguments, found in the module or in a project function the module imports
and calls, with an HfArgumentParser's dataclasses resolved across the project. `read_launch`
reads a launch's words the way argparse (or click) reads them: `--flag=value`, unambiguous
prefixes, short clusters, values, `--`, and a subcommand that hands the rest to its own parser.
"""

from __future__ import annotations

import posixpath
from functools import cache, cached_property

from .graph import checkout_names, path_mapped, project_resolver, run_in
from .launches import after_cd, flags_added, path_there
from .lazyre import lazy
from .model import Location, Record, whole
from .paths import joined, may_name
from .pyfacts import (
    MODULE_SCOPE,
    PARSE_METHODS,
    ArgParser,
    Call,
    Dataclass,
    DataField,
    Function,
    Option,
    PythonModule,
    adds_through,
    argv_from,
    module_name,
)
from .shellfacts import Word, one_field

HELP = ("-h", "--help")
CLICK_HELP = ("--help",)  # click's default `help_option_names`: no `-h` ("No such option: -h")
BOOLEAN_OPTIONAL = "argparse.BooleanOptionalAction"
# Actions that take no value on the command line.
SWITCHES = frozenset(
    {"store_true", "store_false", "store_const", "append_const", "count", "help", "version", BOOLEAN_OPTIONAL}
)
REMAINDER = frozenset({"...", "argparse.REMAINDER"})
# Switches whose value written after them argparse leaves over (LL301's `--cpu-offload on`): not
# `-h` and `--version`, which exit 0 where they are read, nor BooleanOptionalAction's
VALUELESS = frozenset({"store_true", "store_false", "store_const", "append_const", "count"})
# Actions that take as many words as their `nargs` says (one when none): a word after them is left
# over as one after a switch is (`--seed 1 2`); a custom Action class may take what it likes
ONE_BY_ONE = frozenset({None, "store", "append", "extend"})
_WORDS = lazy(r"[^-_]+")  # a flag's words: `cfg`, `client` of `--cfg_client`
PLACE_WORDS = frozenset({"dir", "directory", "folder", "path", "file", "root"})  # what a flag's last word may name a location by
# How many words an option takes after it, beyond whole numbers.
OPTIONAL, MANY, REST = -1, -2, -3
AMBIGUOUS = object()  # a prefix of several options: argparse refuses it, but not as "unknown"
MAX_BASES = 8  # dataclass bases followed: a deeper chain, or a cycle through imports, is not known
# Calls followed from a program to the function that parses its arguments, where no other way
# finds its parser: Megatron-DeepSpeed's pretrain_gpt.py calls `pretrain`, then `initialize_megatron`,
# `set_global_variables`, `_parse_args` and `parse_args`: 5
MAX_CALLS = 6
MAX_HOPS = 3  # re-exports followed to find a dataclass (`from .args import ModelArguments`); adders a parser passes through


class CommandLine:
    """A parser as a launch meets it: its options (dataclass fields included) and subcommands."""

    def __init__(
        self,
        path: str,
        parser: ArgParser,
        options: list[Option],
        complete: bool,
        commands: dict[str, CommandLine] | None = None,
        reads_files: bool = False,
    ) -> None:
        self.path = path
        self.parser = parser
        self.options = options
        self.complete = complete  # every option it accepts is known
        self.commands = {} if commands is None else commands
        self.reads_files = reads_files  # values may come from files: its parser's or its builder's (`_reads_files`)
        self.known_args = parser.parse_known_args  # unknown flags get through (also by what the calls to its parse pass)
        self.argv_skip = parser.argv_skip  # the arguments its parse passes over (also by what the calls pass: `_skipped`)

    @property
    def location(self) -> Location:
        return self.parser.location

    @property
    def checks_flags(self) -> bool:
        """An unknown flag is an error: nothing lets unknown words through. An option with
        argparse's REMAINDER (`--set A 1 ...`) takes the words after it, where the reading stops;
        a positional one (`takes_rest`) those from where it starts, which the reading marks."""
        return self.complete and not self.known_args

    @cached_property
    def takes_rest(self) -> bool:
        """A positional has argparse's REMAINDER (detectron2's `opts`): from the first positional
        word on, any word may be its value, a flag too."""
        return any(o.nargs in REMAINDER for o in self.options if _positional(o))

    @cached_property
    def flags(self) -> dict[str, Option]:
        """Every option string it accepts, with `--no-x` of BooleanOptionalAction, and `-h` and
        `--help` unless it is built with `add_help=False` (a click command's: `--help`, or the
        `help_option_names` of its `context_settings`)."""
        found: dict[str, Option] = {}
        for option in self.options:
            for flag in option.flags:
                if flag.startswith("-"):
                    found.setdefault(flag, option)
                    if option.action == BOOLEAN_OPTIONAL and flag.startswith("--"):
                        found.setdefault("--no-" + flag[2:], option)
        for flag in self.parser.by_hand:  # the module takes it out of the arguments itself
            found.setdefault(flag, Option((flag,), flag.lstrip("-").replace("-", "_"), False, "store_true", self.location))
        helps = self.parser.help_flags if self.parser.help_flags is not None else CLICK_HELP if self.parser.kind == "click" else HELP
        for flag in helps if self.parser.add_help else ():
            found.setdefault(flag, Option((flag,), "help", False, "help", self.location))
        return found

    @cached_property  # asked for each plain word of a launch (LL304): Megatron's parser has 1,000 options
    def positionals(self) -> bool:
        return any(_positional(o) for o in self.options)

    def option(self, text: str) -> Option | object | None:
        """What `text` names here: an Option, AMBIGUOUS, or None when it names nothing."""
        flags = self.flags
        head = text.partition("=")[0]
        if text in flags or head in flags:
            return flags.get(text) or flags[head]
        if self.parser.kind in ("click", "typer"):  # no prefixes; `-x3` and `-vx` only
            return flags.get(text[:2]) if not text.startswith("--") else None
        if self.parser.kind == "fire":  # no prefixes, no clusters: a parameter's name, whole
            return None
        if text.startswith("--") and not self.parser.allow_abbrev:
            return None
        # argparse counts the option strings a prefix matches, not the options: `--learning` of
        # one option spelled `--learning-rate` and `--learning_rate` (as HfArgumentParser adds
        # every field) is ambiguous too.
        matches = self.prefixed(text)
        if len(matches) > 1 and not any(flags[m].library for m in matches):
            return AMBIGUOUS
        return flags[matches[0]] if matches else None

    def prefixed(self, text: str) -> list[str]:
        """The flags argparse may take `text` for: those it is a prefix of (`--vocab` for
        `--vocab-file`), and for `-x...` also `-x` with a value attached."""
        if text.startswith("--"):
            head = text.partition("=")[0]
            return sorted(f for f in self.flags if f.startswith(head))
        return sorted(f for f in self.flags if f == text[:2] or f.startswith(text))

    def closest(self, flag: str, passed: frozenset[str] = frozenset()) -> str | None:
        """The defined flag most like `flag`: the same but for `-`/`_` (`--warmup-steps` ->
        `--warmup_steps`), else the only one of the same words in another order (`--cfg_client`
        -> `--client_cfg`), else the only one of the same words but a last one naming a place
        otherwise (`--data_dir` -> `--data_path`, not `--log_dir`), else the closest spelling.
        Not one the launch already passes (`passed`): `--train_mode` is no fix for
        `--trainable_modules` next to it. A long name with one dash is the flag with two
        (`-dropout` -> `--dropout`, Time-Series-Library's Crossformer.sh), before any other."""
        from difflib import get_close_matches  # here: only an unknown flag asks (0.8 ms of an import)

        if len(flag) > 2 and not flag.startswith("--") and "-" + flag in self.flags and "-" + flag not in passed:
            return "-" + flag
        candidates = [f for f in self.flags if f.startswith("--") == flag.startswith("--") and f not in HELP and f not in passed]
        same = {f.replace("-", "_"): f for f in candidates}.get(flag.replace("-", "_"))
        if same:
            return same
        words = _WORDS.findall(flag)
        alike = [f for f in candidates if len(words) > 1 and sorted(_WORDS.findall(f)) == sorted(words)]
        if len(alike) != 1:
            alike = [f for f in candidates if _placed_otherwise(words, _WORDS.findall(f))]
        found = alike if len(alike) == 1 else get_close_matches(flag, candidates, n=1, cutoff=0.75)
        return found[0] if found else None


def _placed_otherwise(words: list[str], defined: list[str]) -> bool:
    """The same words but the last, and both last ones name a place (`data dir`, `data path`)."""
    return len(words) == len(defined) > 1 and words[:-1] == defined[:-1] and words[-1] != defined[-1] and {words[-1], defined[-1]} <= PLACE_WORDS


class UnknownFlag:
    def __init__(self, word: Word, flag: str, program: CommandLine, ambiguous: bool = False, clustered: bool = False) -> None:
        self.word = word
        self.flag = flag
        self.program = program  # the parser that does not know it
        self.ambiguous = ambiguous  # a prefix of several of its flags: argparse refuses it too
        self.clustered = clustered  # a letter after a switch in one word (`-q` of `-vq`)
        self.passed: frozenset[str] = frozenset()  # the flags of the options the launch passes (`read_launch`)

    @property
    def meant(self) -> str | None:
        """The defined flag it is likely a misspelling of (`--warmup-steps` of `--warmup_steps`,
        `--result_file` of `--result_dir`): not for a prefix of several flags or a letter after a switch."""
        return None if self.ambiguous or self.clustered else self.program.closest(self.flag, self.passed)

    def located(self, project) -> Location:
        """The flag's own characters in `--flag=value`, when the word spells them out in the file."""
        word = self.word
        span = self.spelled_in(word)
        return word.location if span is None else project.index(word.location.path).span(word.location.path, *span)

    def spelled_in(self, word: Word) -> tuple[int, int] | None:
        """The file offsets [start, end) of the flag's characters in `word` (`--flag=value`, also
        `--flag=$DIR` as written), when the word spells them out in the file."""
        text, origin = word.text, word.origin
        length = len(self.flag)
        if not text.startswith(self.flag) or length == len(text) or len(origin) <= length:
            return None
        start, end = origin[0], origin[length - 1] + 1
        return (start, end) if end - start == length else None  # else the characters come from an expansion


class ExtraWord(Record):
    """A word argparse takes for no option's value and no positional (`_Reader.take`), in a
    parser with no positional: written right after a switch (`--cpu-offload on`) or after an
    option's values (`--seed 1 2`); or a value written on a switch (`--fp16=True`: `attached`)."""

    word: Word
    switch: str  # the option as written: `--cpu-offload`
    option: Option
    program: CommandLine
    attached: bool = False  # `--fp16=True`: argparse's "ignored explicit argument"


class Reading:
    """What a launch passes, read against a command line."""

    def __init__(
        self,
        chain: list[CommandLine],
        unknown: list[UnknownFlag] | None = None,
        passed: list[Option] | None = None,
        open: bool = False,
    ) -> None:
        self.chain = chain  # the program's parser, then the subcommands' parsers
        self.unknown = [] if unknown is None else unknown
        self.passed = [] if passed is None else passed  # the options given
        self.open = open  # some word may hold more flags (`"$@"`, an unknown array or variable)
        self.extra: list[ExtraWord] = []  # words given to a switch, where nothing takes them

    @property
    def asks_for_help(self) -> bool:
        """A `-h`/`--help` or `--version` anywhere: argparse prints it and exits 0 where it reads it,
        before it checks for required options or words left over."""
        return any(o.action in ("help", "version") for o in self.passed)


def read_launch(program: CommandLine, words: list[Word]) -> Reading:
    reader = _Reader(program)
    skip = program.argv_skip or 0  # `parse_args(sys.argv[2:])`: a mode word first
    if skip < 0 or any(w.value is None for w in words[:skip]):
        reader.reading.open = True  # where the parsed words start is not known
        return reader.reading
    for word in words[skip:]:  # as the shell split them: a quoted "$VAR" is one argument
        if not reader.take(word, word.value):
            break
    reading = reader.reading
    if reading.unknown:
        passed = frozenset(flag for option in reading.passed for flag in option.flags)
        for unknown in reading.unknown:
            unknown.passed = passed
    return reading


class _Reader:
    """argparse's (and click's) reading of a command line, one word at a time."""

    def __init__(self, program: CommandLine) -> None:
        self.reading = Reading([program])
        self.current = program
        self.pending = 0  # values the last option still takes (OPTIONAL, MANY: as many as follow)
        self.guessed = False  # `pending` is a guess: the option is not known (its next plain word likely its value)
        # Past the first positional word of a parser with a positional REMAINDER (`takes_rest`):
        # argparse may give it every word from there on, so no flag after it is judged unknown.
        self.rest = False
        self.group: CommandLine | None = None  # a click group with `chain=True` whose command is read
        # The last word's switch (VALUELESS), or the option whose values it ended (`--seed 1`), as written
        self.switch: tuple[str, Option] | None = None
        self.valued: tuple[str, Option] | None = None  # the option whose values the words being read are

    def take(self, word: Word, text: str | None) -> bool:
        """Read one word; False when the rest cannot be read (`--`, a subcommand we cannot tell)."""
        switch, self.switch = self.switch, None  # the switch written right before this word
        if not self.pending:
            self.valued = None
        static = text is not None
        if not static:
            flag, equals, _ = word.template.partition("=")
            single = one_field(word.template)  # not a variable's several words (a substitution's blanks are its own)
            if not (equals and single and _looks_like_flag(flag) and "$" not in flag and "`" not in flag):
                return self._not_static()
            text = word.template  # `--dir=$DIR`: the flag is written, only its value is unknown
        if text == "--":
            return False  # the rest is positional
        if _looks_like_flag(text):
            option = self.current.option(text)
            if option is not None or not static or not any(ch.isspace() for ch in text):
                return self._flag(word, text, option)
            # argparse takes an unknown `-x y` with a space in it for a positional
        return self._plain(word, text, switch)

    def _not_static(self) -> bool:
        if self.pending:
            if self.pending in (OPTIONAL, MANY) and not self.guessed:  # `--multistep $1`: its words may end the values, then be flags (diffai's)
                self.reading.open = True
            self.pending = _after_value(self.pending)
            return True
        self.reading.open = True  # it may hold flags, or be the subcommand
        self.rest = self.rest or self.current.takes_rest  # or a positional word
        return not self.current.commands

    def _flag(self, word: Word, text: str, option: Option | object | None) -> bool:
        if option is None:
            self._unknown(UnknownFlag(word, text.partition("=")[0], self.current))
            if self.current.commands:
                self.reading.open = True
                return False  # where the subcommand starts is now anyone's guess
            # The next plain word is most likely its value; argparse gives it none, so in a parser
            # with a positional REMAINDER that word is where the REMAINDER may start.
            self.pending = 0 if "=" in text or self.current.takes_rest else OPTIONAL
            self.guessed = True
        elif option is AMBIGUOUS:
            self._unknown(UnknownFlag(word, text.partition("=")[0], self.current, ambiguous=True))
            self.pending = MANY
            self.guessed = True
        else:
            self.reading.passed.append(option)
            self.pending = _arity(option, text, self.current)
            self.guessed = False
            if option.action in SWITCHES and _attached(text, self.current) and text[2] != "=":
                self._cluster(word, text[2:])  # `-vd DIR`: `-v`, then `-d DIR` (`-v=1` is a value)
            elif option.action in VALUELESS and "=" not in text:
                self.switch = (text, option)
            elif option.action in VALUELESS and text.startswith("--") and self._judged(option):
                self.reading.extra.append(ExtraWord(word, text.partition("=")[0], option, self.current, attached=True))
            elif option.action in ONE_BY_ONE and whole(option.nargs or "1") is not None:
                self.valued = (text.partition("=")[0], option)  # `--seed 1`: what follows its values is left over
                if not self.pending:
                    self.switch = self.valued  # `--seed=1`
        return self.pending != REST

    def _cluster(self, word: Word, rest: str) -> None:
        """The options after a switch in one word, as argparse reads them: each letter an option,
        until one that takes a value, which takes the rest of the word or else what follows."""
        for i, letter in enumerate(rest):
            option = self.current.flags.get("-" + letter)
            if option is None:  # argparse: "ignored explicit argument"
                self._unknown(UnknownFlag(word, "-" + letter, self.current, clustered=True))
                return
            self.reading.passed.append(option)
            if option.action not in SWITCHES:
                self.pending = 0 if i + 1 < len(rest) else _arity(option, "-" + letter, self.current)
                self.guessed = False
                return

    def _unknown(self, flag: UnknownFlag) -> None:
        if not self.rest:  # after that, it may be the positional REMAINDER's word
            self.reading.unknown.append(flag)

    def _plain(self, word: Word, text: str, switch: tuple[str, Option] | None) -> bool:
        if self.pending:
            self.pending = _after_value(self.pending)
            if not self.pending and self.valued is not None:
                self.switch = self.valued  # the option's last value: a plain word after it is left over
            return True
        if not self.current.commands and self.group is None:
            if switch is not None and _leaves_over(text, self.reading.chain) and self._judged(switch[1]):
                self.reading.extra.append(ExtraWord(word, switch[0], switch[1], self.current))
            self.rest = self.rest or self.current.takes_rest
            return True  # a positional of the program
        if self.group is not None:  # a chained group's next command, after one without positionals
            sub = None if self.current.positionals else self.group.commands.get(text)
        else:
            sub = None if self.current.positionals else self.current.commands.get(text)
            if self.current.parser.chain:
                self.group = self.current
        if sub is None:
            self.reading.open = True  # a positional first, or a subcommand we do not know
            return False
        self.current = sub
        self.reading.chain.append(sub)
        return True

    def _judged(self, option: Option) -> bool:
        """Whether argparse refuses what is written on or after `option`, as LL301 reports it:
        the parsers read (the subcommand's and its parent's) are argparse's, with no positional,
        and the option is no flag the module takes out of `sys.argv` itself (`by_hand`), which
        may take the words too."""
        return all(
            p.parser.kind == "argparse" and not p.positionals and not set(option.flags).intersection(p.parser.by_hand)
            for p in self.reading.chain
        )


def _leaves_over(text: str, chain: list[CommandLine]) -> bool:
    """A plain word no option takes is left over: not a negative number (`-1`), nor one that may
    name a file of more arguments (`@args.txt`, where a parser has `fromfile_prefix_chars`)."""
    return text[:1].isalnum() or text[:1] not in ("", "-") and not any(p.reads_files for p in chain)


def missing_required(reading: Reading) -> list[tuple[CommandLine, Option]]:
    """Required options of the parsers read that the launch never passes."""
    passed = {id(o) for o in reading.passed}
    flags = {o.flags[0] for o in reading.passed}  # `unless`: a flag whose passing may skip where it is added
    # HF's `if len(sys.argv) == 2 and ...endswith(".json")` reads the one file a launch passing no option names
    one_file = not reading.passed
    if reading.open or reading.asks_for_help or any(p.reads_files or one_file and p.parser.reads_one_file for p in reading.chain):
        return []
    missing = [
        (program, option)
        for program in reading.chain
        for option in program.options
        if option.required and option.flags[0].startswith("-") and id(option) not in passed and not flags.intersection(option.unless)
    ]
    for program in reading.chain:  # a required mutually exclusive group: one of its options
        groups: dict[str, list[Option]] = {}
        for option in program.options:
            if option.group:
                groups.setdefault(option.group, []).append(option)
        missing += [
            (program, group[0]) for group in groups.values() if not any(id(o) in passed for o in group) and not flags.intersection(group[0].unless)
        ]
    return missing


def group_of(program: CommandLine, option: Option) -> list[Option]:
    """The options of the required mutually exclusive group `option` is in (just it, if none)."""
    return [o for o in program.options if o.group == option.group] if option.group else [option]


def _positional(option: Option) -> bool:
    return bool(option.flags) and not option.flags[0].startswith("-")


def _looks_like_flag(text: str) -> bool:
    """argparse's test: a leading `-`, and not a negative number."""
    if not text.startswith("-") or text == "-":
        return False
    try:
        float(text)
    except ValueError:
        return True
    return False


def _attached(text: str, program: CommandLine) -> bool:
    """`-l3e-4`, `-vd`: a short option with more of the word after it."""
    return not text.startswith("--") and text not in program.flags and text[:2] in program.flags


def _arity(option: Option, text: str, program: CommandLine) -> int:
    if "=" in text or _attached(text, program):
        return 0  # `--lr=3e-4`, `-l3e-4`: the value is attached
    if option.action in SWITCHES:
        return 0
    nargs = option.nargs
    if nargs is None:
        return 1
    if nargs in REMAINDER:
        return REST
    count = whole(nargs)
    if count is not None:
        return count
    return OPTIONAL if nargs == "?" else MANY


def _after_value(pending: int) -> int:
    return pending - 1 if pending > 0 else (0 if pending == OPTIONAL else pending)


# -- finding the program's parser -----------------------------------------------------------------


def command_line(project, path: str) -> CommandLine | None:
    """The command line of the program in `path`; None when no one parser is found statically."""
    cache = project.__dict__.setdefault("_command_lines", {})
    if path not in cache:
        cache[path] = _find(project, path)
    return cache[path]


def _find(project, path: str) -> CommandLine | None:
    module = project.python.get(path)
    if module is None:
        return None
    parsers = [p for p in _parsers(project, module) if p.subcommand is None and p.parameter is None]
    found = [(module, p) for p in parsers if p.parsed_in]
    if len(found) > 1:  # the parser built again in a `def debug(args)` nothing calls: the running one's
        found = [(m, p) for m, p in found if any(_called(module, f) for f in p.parsed_in)] or found
    chains: list[Chain] = []  # the calls to another module's function that parses, where that is the program's parser
    if found and not any(_called(module, f) for _, p in found for f in p.parsed_in) and _chains(project, module):
        # Its own parsers are parsed only in functions it never calls (`def eval_args()` beside an
        # imported `main()` that parses): the one an imported function parses, called from code
        # that runs, is the program's; called only from uncalled code too, which runs is unknown.
        chains = _chains(project, module, [f for f in module.functions.values() if _called(module, f.qualname)])
        found = _ends(chains)
        if not found:
            return None
    if not found:  # its own parser handed to an imported helper that parses it (`return parse(parser)`)
        # (made here: one another module builds is as precise as that module's reading of who
        # adds what to the parsers its helpers return, too coarse to say what is required)
        found = [(module, p) for p in parsers if (p.handed or p.handed_either) and p.built_by is None]
    if not found:
        chains = _chains(project, module)
        found = _ends(chains)
    if not found:  # `from config import args`: config.py parses when it is imported
        found = _parsed_on_import(project, module)
    if not found:  # `opt = TrainOptions().parse()`: an options class parses in one of its methods
        found = _class_parsers(project, module)
    if not found:  # Megatron's `pretrain(...)` -> `initialize_megatron(...)` -> `parse_args(...)`
        chains = _chains(project, module, calls=MAX_CALLS)
        found = _ends(chains)
    if len({id(p) for _, p in found}) != 1:
        return None
    owner, parser = found[0]
    if parser.built_by is not None and _built(project, owner, parser.built_by) is None:
        return None  # another module's parser we cannot find: not even its kind of parsing is known
    classes = _dispatch(project, module, owner, parser) if parser.methods or parser.kept_on else None
    return _resolved(project, owner, parser, classes, chains)


MAX_REACHED = 200  # functions followed from a console script's function to see what it runs


def entry_command_line(project, path: str, name: str | None) -> CommandLine | None:
    """The command line of the console script whose function is `name` of the module in `path`
    (`fairseq-train = fairseq_cli.train:cli_main`): the click command or typer app of that name;
    else the module's own program (`command_line`), when the function reaches where its parser is
    made or parsed (itself, or a function it calls, in its module or imported), or its module
    parses on import; else the one parser the function parses (`_parses_from`), or builds and
    hands to a project function that parses it. None when none is found, or several are."""
    cache = project.__dict__.setdefault("_entry_lines", {})
    key = (path, name)
    if key not in cache:
        cache[key] = _entry(project, path, name) if name else None
    return cache[key]


def _entry(project, path: str, name: str) -> CommandLine | None:
    module = project.python.get(path)
    if module is None:
        return None
    parsers = _parsers(project, module)
    commands = [p for p in parsers if p.kind in ("click", "typer") and p.name == name and p.parameter is None and p.subcommand is None]
    if commands:
        return _resolved(project, module, commands[0]) if len(commands) == 1 else None
    function = module.functions.get(name)
    if function is None or function.parent is not None or function.class_name:
        return None  # not a function the module defines at its top level (an assigned callable: not known)
    reached = _reached(project, module, function)
    program = command_line(project, path)
    if program is not None and _reaches(program.parser, program.path, reached):
        return program
    own = [p for p in parsers if p.function == name and (p.handed or p.handed_either) and p.built_by is None and p.subcommand is None and p.parameter is None]
    found = [(module, p) for p in parsers if name in p.parsed_in and p.subcommand is None and p.parameter is None] or [(module, p) for p in own]
    chains: list[Chain] = []
    for calls in (1, MAX_CALLS):
        if found:
            break
        chains = _parses_from(project, module, function, calls, True)
        found = _ends(chains)
    if len({id(p) for _, p in found}) != 1:
        return None
    owner, parser = found[0]
    if parser.built_by is not None and _built(project, owner, parser.built_by) is None:
        return None
    classes = _dispatch(project, module, owner, parser) if parser.methods or parser.kept_on else None
    return _resolved(project, owner, parser, classes, chains)


def _reached(project, module: PythonModule, function: Function) -> set[tuple[str, str]]:
    """The functions (path, qualname) a call of `function` may run: it, and those its calls name
    (its module's, or imported), MAX_CALLS deep, at most MAX_REACHED of them; for a call of a
    project class (`parser = HarnessCLI()`, lm-evaluation-harness's `cli_evaluate`), every method
    of it and its bases: which the instance's calls run is not followed."""
    reached = {(module.path, function.qualname)}
    todo = [(module, function, 0)]
    while todo and len(reached) < MAX_REACHED:
        owner, current, depth = todo.pop()
        if depth >= MAX_CALLS:
            continue
        for call in current.calls:
            if not _follows(owner, current, call):
                continue
            callee = _defined(project, owner, call.callee, _function_named, 0)
            located = _class_named(project, owner, call.callee, 0) if callee is None else None
            methods = [callee] if callee is not None else [] if located is None else [
                (m, f) for m, cls in _bases(project, *located, 0) for f in m.functions.values() if f.class_name == cls
            ]
            for found in methods:
                if (found[0].path, found[1].qualname) not in reached:
                    reached.add((found[0].path, found[1].qualname))
                    todo.append((*found, depth + 1))
    return reached


def _reaches(parser: ArgParser, path: str, reached: set[tuple[str, str]]) -> bool:
    """Whether the parser of the module's program is made or parsed where a console script's
    function reaches (`_reached`), or parsed when its module is imported."""
    if parser.parsed_on_import:
        return True
    return any((path, f) in reached for f in parser.parsed_in) if parser.parsed_in else (path, parser.function) in reached


def _parsed_on_import(project, module: PythonModule) -> list[tuple[PythonModule, ArgParser]]:
    """The parsers of the project modules the module imports as it runs (`from config import
    args`, `import opts`) that parse the process's arguments at their top level."""
    found = []
    for dotted in module.top_imports:
        owner = _module_named(project, module, dotted)
        located = locate_import(project, module, dotted) if owner is None else None
        owner = located[0] if located is not None else owner
        if owner is not None and owner is not module:
            found += [(owner, p) for p in _parsers(project, owner) if p.parsed_on_import and p.subcommand is None and p.parameter is None]
    return found


Classes = list[tuple[PythonModule, str]]  # a class's method resolution order: (its module, qualname)


def _instances(project, module: PythonModule) -> list[tuple[Classes, str]]:
    """The project classes the module makes an instance of and calls a method of, each as its
    bases in resolution order, with the method: `TrainOptions().parse()`, or `o = TrainOptions()`
    then `o.parse()`."""
    made = [(callee, method) for _, callee, method in module.result_methods]
    bound = {(b.scope, b.name): b.value for b in module.bindings if b.call is not None}
    for function in module.functions.values():
        for call in function.calls:
            head, dot, method = call.callee.rpartition(".")
            value = bound.get((module.scope_of(function.qualname, head), head)) if dot and "." not in head else None
            if value:
                made.append((value, method))
    found = []
    for callee, method in made:
        located = _class_named(project, module, callee, 0)
        if located is not None:
            found.append((_bases(project, *located, 0), method))
    return found


def _class_named(project, module: PythonModule, dotted: str, hops: int) -> tuple[PythonModule, str] | None:
    """The project class `dotted` names in `module`: its own (at its top level), or an imported
    one, through re-exports (`from .train_options import TrainOptions` in a package's `__init__`)."""

    def own(owner: PythonModule, name: str):
        found = owner.classes.get(name)
        return None if found is None else (owner, name) if found.function == MODULE_SCOPE else False

    return _defined(project, module, dotted, own, hops)


def _bases(project, module: PythonModule, name: str, depth: int) -> Classes:
    """A class and its project bases, depth first, left to right (C3 for the single
    inheritance of options classes); a base we cannot find is left out."""
    found = [(module, name)]
    for base in module.classes[name].bases if depth < MAX_BASES else ():
        located = _class_named(project, module, base, 0)
        if located is not None:
            found += [c for c in _bases(project, *located, depth + 1) if not any(c[0] is m and c[1] == n for m, n in found)]
    return found


def _class_parsers(project, module: PythonModule) -> list[tuple[PythonModule, ArgParser]]:
    """The parsers that parse the process's arguments in a method of a class the module makes
    an instance of, that the method it calls runs (itself, or what it calls on `self`)."""
    found = []
    for classes, method in _instances(project, module):
        done: set[tuple[str, str]] = set()
        waiting = [(method, 0)]  # a method's name, and the first of `classes` to look for it in
        while waiting and len(done) < MAX_BASES * 4:
            name, start = waiting.pop()
            resolved = _resolve_method(classes, name, start)
            if resolved is None or (resolved[0].path, resolved[1]) in done:
                continue
            owner, qualname = resolved
            done.add((owner.path, qualname))
            found += [(owner, p) for p in _parsers(project, owner) if qualname in p.parsed_in and p.subcommand is None and p.parameter is None]
            waiting += [(c.callee[5:], 0) for c in owner.functions[qualname].calls if c.callee.startswith("self.") and c.callee.count(".") == 1]
            here = next(i for i, (m, c) in enumerate(classes) if m is owner and qualname == f"{c}.{name}")
            waiting += [(m, here + 1) for f, made, m in owner.result_methods if f == qualname and made == "super"]
    return found


def _resolve_method(classes: Classes, name: str, start: int) -> tuple[PythonModule, str] | None:
    """The function `name` of the first class from `start` that defines it."""
    for owner, cls in classes[start:]:
        if f"{cls}.{name}" in owner.functions:
            return owner, f"{cls}.{name}"
    return None


def _dispatch(project, module: PythonModule, owner: PythonModule, parser: ArgParser) -> Classes | None:
    """The classes a method handed the parser on `self` is looked up in: those of the instance
    the program makes of the class (or a subclass) whose method builds the parser; None when no one
    instance says."""
    function = owner.functions.get(parser.function)
    cls = function.class_name if function is not None else None
    orders = [classes for classes, _ in _instances(project, module) if any(m is owner and c == cls for m, c in classes)]
    if not orders or any([(m.path, c) for m, c in o] != [(m.path, c) for m, c in orders[0]] for o in orders):
        return None
    return orders[0]


def _added_on_self(project, module: PythonModule, parser: ArgParser, classes: Classes) -> tuple[list[Option], bool]:
    """What the methods of the instance's other classes add to `parser` through an attribute of
    `self` it is kept on (pix2pixHD's `TrainOptions.initialize`, `self.parser.add_argument(...)`,
    its base class's `__init__` making the parser): each one's stand-in (`ArgParser.on_self`). The
    class whose method made `parser` is not asked: the front end read what it adds. False when a
    method hands the parser on instead (`setter(self.parser)`), or adds what is not static. What a
    method that does not run adds (an override's base, one nothing calls: `_running`) is known, but
    required by no launch."""
    function = module.functions.get(parser.function)
    own = function.class_name if function is not None else None
    running = _running(classes, ("__init__", *(q.rpartition(".")[2] for q in parser.parsed_in)))
    options, complete = [], True
    for owner, cls in classes:
        if owner is module and cls == own:
            continue
        for method in (f for f in owner.functions.values() if f.class_name == cls):
            for attribute in parser.kept_on:
                if not adds_through([method], attribute):
                    continue
                read = _read(project, owner, "adders")
                found = [p for p in owner.parsers if p.on_self == attribute and p.function == method.qualname] if read else []
                complete = complete and len(found) == 1 and found[0].complete and not found[0].handed
                added = [o if id(method) in running else o._replace(required=False, group="") for p in found[:1] for o in p.options]
                options += [o for o in added if o not in options]
    return options, complete


def _running(classes: Classes, entries: tuple[str, ...]) -> set[int]:
    """The ids of the instance's methods that run, from the `entries` (its `__init__`, the methods
    that parse): a name's first definer in the classes' order, then what each calls on `self`
    (`self.initialize()`, the instance's own override), by a class (`BaseOptions.initialize(self)`),
    or through `super()` (the next definer of its own name)."""
    definers: dict[str, list[tuple[int, Function]]] = {}
    for at, (owner, cls) in enumerate(classes):
        for function in owner.functions.values():
            if function.class_name == cls:
                definers.setdefault(function.qualname.rpartition(".")[2], []).append((at, function))
    order = {cls.rpartition(".")[2]: at for at, (_, cls) in enumerate(classes)}
    running: set[int] = set()
    todo = [(name, -1) for name in entries]
    while todo:
        name, after = todo.pop()
        found = next(((at, f) for at, f in definers.get(name, ()) if at > after), None)
        if found is None or id(found[1]) in running:
            continue
        at, function = found
        running.add(id(function))
        for call in function.calls:
            head, _, called = call.callee.rpartition(".")
            if head == "self":
                todo.append((called, -1))
            elif head in order:
                todo.append((called, order[head] - 1))
            elif call.callee == "super":
                todo.append((name, at))
    return running


def _method_adder(project, module: PythonModule, parser: ArgParser | None, method: tuple[str, int | str, bool], classes: Classes):
    """The parser that stands for the parameter of the instance's method a method hands `parser`
    to (`self.initialize(parser)`, `super().initialize(parser)`), in the instance's classes (no
    `parser` for a method no other hands it to: the `__init__` of `_constructor`)."""
    name, at, after_super = method
    start = 0
    if after_super and parser is not None:  # (`_constructor`'s is not after `super()`)
        function = module.functions.get(parser.function)
        here = next((i for i, (m, c) in enumerate(classes) if m is module and function is not None and c == function.class_name), None)
        if here is None:
            return None
        start = here + 1
    resolved = _resolve_method(classes, name, start)
    if resolved is None or not _read(project, resolved[0], "adders"):
        return None
    owner, qualname = resolved
    index = 1 if isinstance(at, str) else 0
    found = [p for p in owner.parsers if p.function == qualname and p.parameter is not None and p.parameter[index] == at]
    return (owner, found[0]) if len(found) == 1 else None


def _parsers(project, module: PythonModule) -> list[ArgParser]:
    """The parsers `module` defines, or none when none can parse the process's arguments (all the
    callers look for). The front end reads them only for the modules a launch names
    (parsing.command_lines_read): any other's are read the first time they are asked for."""
    return module.parsers if _read(project, module, "parsers") else []


def _dataclasses(project, module: PythonModule) -> dict[str, Dataclass]:
    """The dataclasses `module` defines, read as `_parsers` reads its parsers."""
    return module.dataclasses if _read(project, module, "dataclasses") else {}


def _read(project, module: PythonModule, what: str) -> bool:
    """`pysource.read_command_line` of `module`, from its file's text. It asks `command_line_read`
    too; asked here first, a run whose Python facts all come from the cache never imports the
    Python front end (checked: a cached run of the 1,000-file project with a YAML file changed)."""
    if module.command_line_read:
        return True
    from .front.pysource import read_command_line

    source = project.files.get(module.path)
    return read_command_line(module, source.text if source is not None else "", what)


class Chain(Record):
    """The calls from a program's code to the project function that parses its arguments:
    Megatron-DeepSpeed's `pretrain_gpt.py` calls `pretrain(...)`, which calls
    `initialize_megatron(...)`, which calls ... `parse_args(extra_args_provider, ...)`. Each call
    with its module and the function that makes it; the last calls `function` of `owner`."""

    calls: tuple[tuple[PythonModule, Function, Call], ...]
    owner: PythonModule
    function: Function
    parser: ArgParser


def _ends(chains: list[Chain]) -> list[tuple[PythonModule, ArgParser]]:
    return [(chain.owner, chain.parser) for chain in chains]


def _chains(project, module: PythonModule, functions: list[Function] | None = None, calls: int = 1) -> list[Chain]:
    """`args = get_args()` with `get_args` imported from a project module that parses there,
    called in `functions` (default: any of the module's); with `calls` > 1, also a function it
    calls (its module's own, or imported) that parses there, and so on, `calls` calls deep in all.
    A call that hands a function an argument written out (`sync.main(["--check", "--dir", d])`, a
    test driving the other module's `main(argv)`) may give that parse its words, not the
    process's: it is not the program's command line."""
    found = []
    for function in module.functions.values() if functions is None else functions:
        for call in function.calls:
            if not _follows(module, function, call):
                continue
            callee = _imported_as(project, module, call.callee, _function_named, 0)
            for chain in _parses_from(project, *callee, calls - 1, True) if callee is not None else ():
                found.append(chain._replace(calls=((module, function, call), *chain.calls)))
    return found


def _follows(module: PythonModule, function: Function, call: Call) -> bool:
    """Whether the call may lead to the program's parse: its arguments are not written out (see
    `_chains`), and it calls no local name (a parameter `run(argv)`)."""
    return "" not in call.args and module.scope_of(function.qualname, call.callee) == MODULE_SCOPE


def _function_named(owner: PythonModule, name: str):
    """`_defined`'s `own` for a function: the module's own of that name, not in another function;
    False for a name it binds otherwise (a class, an assignment)."""
    if not _defines(owner, name):
        return None
    function = owner.functions.get(name)  # a method too, called by its class's name (`Options.parse()`)
    return (owner, function) if function is not None and function.parent is None else False


def _parses_from(project, owner: PythonModule, function: Function, calls: int, first: bool) -> list[Chain]:
    """Each way `function` of `owner` parses the process's arguments (its own parse; else, `calls`
    more calls deep, one its own module's or an imported function makes), as a Chain of the calls
    after it. Made once a run for each function and depth, as every program launched asks. Beyond
    the `first` function, a module's parsers are read only for a function that calls a parse
    method (`parser.parse_args()`)."""
    memo = project.__dict__.setdefault("_parses_from", {})
    key = (owner.path, function.qualname, calls, first)
    if key in memo:
        return memo[key]
    parses = first or any(call.callee.rpartition(".")[2] in PARSE_METHODS for call in function.calls)
    parsers = [p for p in _parsers(project, owner) if function.qualname in p.parsed_in and p.subcommand is None and p.parameter is None] if parses else []
    found = [Chain((), owner, function, p) for p in parsers]
    for call in function.calls if calls and not found else ():
        if _follows(owner, function, call):
            callee = _defined(project, owner, call.callee, _function_named, 0)
            for chain in _parses_from(project, *callee, calls - 1, False) if callee is not None else ():
                found.append(chain._replace(calls=((owner, function, call), *chain.calls)))
    memo[key] = found
    return found


def _called(module: PythonModule, qualname: str) -> bool:
    """Whether the module's own code may run the function: its top level; a function that another
    of its functions calls or hands on by name (`main()`, `fire.Fire(main)`, `Thread(target=main)`);
    one that is decorated (a framework calls it), a method, a lambda, or unknown. False only for a
    plain function that nothing in the module names: if it runs, another module calls it."""
    function = module.functions.get(qualname)
    if qualname == MODULE_SCOPE or function is None or function.decorators or function.class_name or "<" in qualname:
        return True
    name = qualname.rpartition(".")[2]
    return any(
        call.callee == name or call.callee.endswith("." + name) or name in call.args or any(v == name for _, v in call.keywords)
        for other in module.functions.values()
        if other is not function
        for call in other.calls
    )


def _resolved(project, module: PythonModule, parser: ArgParser, classes: Classes | None = None, chains: list[Chain] | None = None) -> CommandLine:
    """The command line of `parser`; `chains`: the calls from the program to its parse, where
    they are another module's (what they pass decides what the parser has: `ArgParser.provided`,
    `known_if`)."""
    options, complete = _added(project, module, parser, 0, classes, chains)
    for name in parser.dataclasses:
        fields, known = _dataclass_options(project, module, name, 0, parser.location)
        options += fields
        complete = complete and known
    commands = {name: _resolved(project, module, sub) for name, sub in parser.commands.items()}
    reads = _reads_files(project, module, parser, 0)
    program = CommandLine(module.path, parser, options, complete and not parser.open_commands, commands, reads)
    if parser.known_if and chains:
        program.known_args = any(_known_args(parser, chain, _bindings(chain)) for chain in chains)
    if parser.argv_in and chains:
        program.argv_skip = _skipped(parser, chains)
    return program


def _skipped(parser: ArgParser, chains: list[Chain]) -> int:
    """The arguments the parse the chains reach passes over, where it parses a parameter
    (`ArgParser.argv_in`): 1 where the calls pass it `sys.argv[2:]` (a mode word first), 0 for
    `sys.argv[1:]`; else the parser's own (`argv_skip`); -1 when the chains differ."""
    skips = set()
    for chain in chains:
        bound = _bindings(chain)
        given = [bound.get(p) for function, p in parser.argv_in if function == chain.function.qualname]
        lower = {argv_from(value[1]) if value is not None else None for value in given}
        skips |= {k - 1 if k is not None else parser.argv_skip or 0 for k in lower or {None}}
    return skips.pop() if len(skips) == 1 else -1


def _added(
    project,
    module: PythonModule,
    parser: ArgParser,
    hops: int,
    classes: Classes | None = None,
    chains: list[Chain] | None = None,
    attributes: tuple[tuple[str, bool, Location], ...] | None = None,
) -> tuple[list[Option], bool]:
    """The options of `parser` and those the project functions it is handed to add (`def
    add_args(parser)` in another module), the methods of the instance (`classes`) it is handed
    to (`self.initialize(parser)`), the `__init__` of a class it is handed to (`ModelParams(parser)`),
    and the functions the `chains` to its parse pass to a parameter it is handed to (`_provided`);
    False when some of them cannot be known. `attributes`: those of the instance of `classes` as
    its method starts (`ArgParser.attributes`), for a parser that adds an option for each
    (`from_attributes`); None where not known."""
    options, complete = list(parser.options), parser.complete
    if parser.from_attributes is not None:  # gaussian-splatting's ParamGroup
        added, known = _attribute_options(parser, attributes) if attributes is not None else ([], False)
        options += [o for o in added if o not in options]
        complete = complete and known
    if parser.provided:  # Megatron's `parser = extra_args_provider(parser)`
        added, known = _provided(project, parser, chains) if chains else ([], False)
        options += [o for o in added if o not in options]
        complete = complete and known
    if parser.built_by is not None:  # `parser = get_parser()` from another module: its options first
        added, known = _built_options(project, module, parser.built_by, hops)
        options = added + [o for o in options if o not in added]
        complete = complete and known
    for function in parser.built_parents:  # `parents=[make_parser()]`: theirs too
        added, known = _built_options(project, module, function, hops)
        options += [o for o in added if o not in options]
        complete = complete and known
    if parser.kept_on:  # `self.parser = parser`: a subclass's method may add to it
        added, known = _added_on_self(project, module, parser, classes) if classes else ([], False)
        options += [o for o in added if o not in options]
        complete = complete and known
    # each with the classes of the instance its methods are looked up in, and the attributes it has
    adders: list[tuple[tuple[PythonModule, ArgParser] | None, Classes | None, tuple | None]] = []
    for function, at in parser.handed:
        adder = _adder(project, module, function, at) if hops < MAX_HOPS else None
        made = _constructor(project, module, function, at) if adder is None and hops < MAX_HOPS else None
        adders.append((adder, classes, None) if made is None else (made[0], made[1], ()))  # a new instance: no attributes yet
    for method in parser.methods:
        adder = _method_adder(project, module, parser, method, classes) if classes and hops < MAX_HOPS else None
        # `super().__init__(parser, ...)`: what the instance had, and what this `__init__` set before
        up = method[0] == "__init__" and method[2] and attributes is not None and parser.attributes is not None
        adders.append((adder, classes, attributes + parser.attributes if up else None))
    for adder, order, given in adders:
        if adder is None:
            complete = False
            continue
        owner, found = adder
        added, known = _added(project, owner, found, hops + 1, order, attributes=given)
        if given is not None and _clash(parser, options, added):  # argparse raises at start-up: no option is judged
            complete = False
        options += [o for o in added if o not in options]
        complete = complete and known
    for functions, at in parser.handed_either:  # `if c: from a import add_args`, `else: from b import ...`
        # whichever import ran: the options all of them add, all of its options when they add the same
        found = [_adder(project, module, function, at) if hops < MAX_HOPS else None for function in functions]
        each = [_added(project, *adder, hops + 1, classes) if adder is not None else ([], False) for adder in found]
        # where each is aside; what it has when not passed too, which is then not known
        kinds = [{o._replace(location=None, default=()) for o in added} for added, _ in each]
        options += [
            o._replace(default=()) for o in each[0][0] if o not in options and all(o._replace(location=None, default=()) in k for k in kinds[1:])
        ]
        complete = complete and all(known and k == kinds[0] for (_, known), k in zip(each, kinds))
    return options, complete


def _constructor(project, module: PythonModule, function: str, at: int | str) -> tuple[tuple[PythonModule, ArgParser] | None, Classes] | None:
    """For a parser handed to the project class `function` names (as `ArgParser.handed` does),
    at `at` of its construction (`ModelParams(parser)`): the parser standing for that parameter of
    the `__init__` its instances run (None: none found), with the instance's classes; None when
    `function` names no project class."""
    located = locate_import(project, module, function) if "." in function else (module, function)
    found = _class_named(project, *located, 1 if "." in function else 0) if located is not None else None
    if found is None:
        return None
    classes = _bases(project, *found, 0)
    return _method_adder(project, module, None, ("__init__", at + 1 if isinstance(at, int) else at, False), classes), classes


def _attribute_options(parser: ArgParser, attributes: tuple[tuple[str, bool, Location], ...]) -> tuple[list[Option], bool]:
    """The options a `from_attributes` parser adds for the instance's `attributes`; False when
    two of them share a flag (argparse raises at start-up) or a name gives no flag (`_`)."""
    table = {(private, boolean): calls for private, boolean, calls in parser.from_attributes or ()}
    options: list[Option] = []
    for name, boolean, location in attributes:
        for flags, action in table.get((name.startswith("_"), boolean), ()):
            made = tuple(dashes + (name[skip:] if rest else name[skip : skip + 1]) for dashes, skip, rest in flags)
            if any(flag.strip("-") == "" for flag in made):
                return options, False
            long = next((flag for flag in made if flag.startswith("--")), made[0])
            options.append(Option(made, long.lstrip("-").replace("-", "_"), False, action, location))
    return options, not _clash(None, [], options)


def _clash(parser: ArgParser | None, options: list[Option], added: list[Option]) -> bool:
    """Whether options added to `options` (of `parser`, with its help unless it stands for a
    parameter) or among themselves, share a flag: argparse's "conflicting option string"."""
    seen = {flag for option in options for flag in option.flags}
    if parser is not None and parser.add_help and parser.parameter is None and parser.on_self is None:
        seen.update(HELP)
    for option in added:
        if option in options:
            continue
        if seen.intersection(option.flags):
            return True
        seen.update(option.flags)
    return False


Bound = tuple[PythonModule, str] | None  # what a parameter holds: an argument as the module spells it; None: not known
FALSE = frozenset({"None", "False", "0", "0.0", "''", '""'})  # the literals `if x:` takes for false


def _provided(project, parser: ArgParser, chains: list[Chain]) -> tuple[list[Option], bool]:
    """What the functions the calls of each chain pass to the parameters the parser is handed to
    add (`ArgParser.provided`): Megatron-LLM's `finetune.py` calls `initialize_megatron(extra_args,
    ...)`, whose `parse_args(extra_args_provider)` calls `extra_args_provider(parser)`; nothing for
    None (`extra_args_provider=None`, or not passed: its default). False when a chain passes what
    is not a project function adding to its parameter. Where the chains pass different functions,
    the options of each, but required by none: which chain runs is not known."""
    each: list[tuple[list[Option], bool]] = []
    for chain in chains:
        bound = _bindings(chain)
        options, complete = [], True
        for function, parameter, at in parser.provided:
            value = bound.get(parameter) if function == chain.function.qualname else None
            if value is None or value[1] in FALSE:
                complete = complete and value is not None and value[1] == "None"
                continue
            adder = _adder(project, *value, at, written=True)
            added, known = _added(project, *adder, 1) if adder is not None else ([], False)
            options += [o for o in added if o not in options]
            complete = complete and known
        each.append((options, complete))
    complete = all(known for _, known in each)
    if all(options == each[0][0] for options, _ in each):
        return each[0][0], complete
    merged = [o._replace(required=False, group="") for options, _ in each for o in options]
    return [o for i, o in enumerate(merged) if o not in merged[:i]], complete


def _known_args(parser: ArgParser, chain: Chain, bound: dict[str, Bound]) -> bool:
    """Whether the parse a chain reaches lets unknown flags through: a `known_if` parameter is
    passed what may be true (`ignore_unknown_args=True`, or not known)."""
    return parser.parse_known_args or any(
        function == chain.function.qualname and (bound.get(parameter) is None or bound[parameter][1] not in FALSE)
        for function, parameter in parser.known_if
    )


def _bindings(chain: Chain) -> dict[str, Bound]:
    """What each parameter of the chain's parsing function holds, by what each call passes (or a
    parameter's default, where none is passed): a literal, or a name in the module whose code
    spells it (a parameter passed on as it was given is what its own caller passed). The
    program's own function's parameters are not known."""
    bound: dict[str, Bound] = {}
    callees = [(m, f) for m, f, _ in chain.calls[1:]] + [(chain.owner, chain.function)]
    for (module, function, call), (owner, callee) in zip(chain.calls, callees):
        bound = {p: _passed(module, function, call, owner, callee, p, bound) for p in callee.params} if not callee.class_name else {}
    return bound


def _passed(module: PythonModule, function: Function, call: Call, owner: PythonModule, callee: Function, parameter: str, bound: dict[str, Bound]) -> Bound:
    """What `call` in `function` of `module` gives `parameter` of `callee` (in `owner`), `bound`
    what `function`'s own parameters hold."""
    text = call.passed(parameter, callee.position(parameter))
    if text is None:  # its default, unless an unpacked argument may hold it
        return None if call.unpacks else _value(owner, None, callee.default(parameter), {})
    return _value(module, function, text, bound)


def _value(module: PythonModule, function: Function | None, text: str, bound: dict[str, Bound]) -> Bound:
    """An argument `text` as `function` of `module` passes it (None: as a default, at the top level)."""
    if not text:
        return None
    head = text.partition(".")[0]
    if text[0] in "'\"-0123456789" or text in ("None", "True", "False") or function is None or argv_from(text) is not None:
        return module, text
    if module.scope_of(function.qualname, head) == MODULE_SCOPE:
        return module, text
    reassigned = any(b.scope == function.qualname and b.name == text for b in module.bindings)
    return None if reassigned else bound.get(text)  # a local name, or an attribute of one: not known


def _reads_files(project, module: PythonModule, parser: ArgParser, hops: int) -> bool:
    """Whether the parser's values may also come from files: its own (`ArgParser.reads_files`), or
    those of the parser an imported function built for it (HAT's fairseq fork: `parser =
    options.get_preprocessing_parser()`, a configargparse parser, whose config file may give
    `--arch`)."""
    if parser.reads_files:
        return True
    built = _built(project, module, parser.built_by) if parser.built_by is not None and hops < MAX_HOPS else None
    return built is not None and _reads_files(project, *built, hops + 1)


def _built_options(project, module: PythonModule, function: str, hops: int) -> tuple[list[Option], bool]:
    """The options of the parser the imported `function` builds; False when they cannot all be
    known (not found, or with subcommands: an option of one would look unknown here)."""
    built = _built(project, module, function) if hops < MAX_HOPS else None
    if built is None:
        return [], False
    owner, found = built
    added, known = _added(project, owner, found, hops + 1)
    return added, known and not found.commands and not found.open_commands


def _built(project, module: PythonModule, function: str) -> tuple[PythonModule, ArgParser] | None:
    """The parser the imported `function` builds and returns (`parser = get_parser()`), or the
    one an imported name holds, made at its module's top level (`from opts import parser`)."""
    return _imported_parser(project, module, function, "builders", _builds)


def _builds(parser: ArgParser, name: str) -> bool:
    held = parser.name == name and parser.function == MODULE_SCOPE and parser.parameter is None
    return (name in parser.returned_in or held) and parser.subcommand is None


def _adder(project, module: PythonModule, function: str, at: int | str, written: bool = False) -> tuple[PythonModule, ArgParser] | None:
    """The parser that stands for the parameter of the imported `function` that a call passes at
    `at` (its position or keyword); with `written`, of `function` as `module` spells it."""
    index = 1 if isinstance(at, str) else 0
    return _imported_parser(
        project, module, function, "adders", lambda p, name: p.function == name and p.parameter is not None and p.parameter[index] == at, written
    )


def _imported_parser(
    project, module: PythonModule, function: str, what: str, chosen, written: bool = False
) -> tuple[PythonModule, ArgParser] | None:
    """The one parser that `chosen(parser, name in its module)` picks in the project module that
    defines `function`, an imported function as the front end names it (ArgParser): qualified, or
    a bare name a `from m import *` may bring; re-exports followed. With `written`, `function` as
    `module`'s code spells it: its own function, or an imported one. `what` of its command line is
    read (`read_command_line`)."""

    def own(owner: PythonModule, name: str):
        if not _defines(owner, name):
            return None
        found = [p for p in owner.parsers if chosen(p, name)] if _read(project, owner, what) else []
        return (owner, found[0]) if len(found) == 1 else False

    if written:
        return _defined(project, module, function, own, 0)
    if "." not in function:
        return _imported_as(project, module, function, own, 0)
    located = locate_import(project, module, function)
    return None if located is None else _defined(project, *located, own, 1)


def _defines(module: PythonModule, name: str) -> bool:
    """Whether the module's top level defines the function `name` (`Cls.method`: the class), or
    binds it otherwise: not when it is imported into it, or not there at all."""
    return module.assigns(name.partition(".")[0])


def _dataclass_options(
    project, module: PythonModule, name: str, hops: int, at: Location, imported: bool = False
) -> tuple[list[Option], bool]:
    """The options HfArgumentParser makes of a dataclass (and its bases); False when some of
    them cannot be known: a library's dataclass not in lint/hfargs.py, a base we cannot find.
    `at` is where the parser is made: a library field's place."""
    found = _dataclass(project, module, name, hops, at, imported) if hops <= MAX_BASES else None
    if found is None:
        return [], False
    owner, dataclass = found
    options, complete = [], dataclass.complete
    for base in dataclass.bases:
        # `class GenerationArgs(GenerationArgs)`: the base is the name bound before the class
        # statement, the imported class, not the class itself
        inherited, known = _dataclass_options(project, owner, base, hops + 1, at, base == dataclass.qualname)
        options += inherited
        complete = complete and known
    own = [o for f in dataclass.fields for o in _field_options(f)]
    # a field the class defines again replaces its base's (`dataclasses.fields` has it once): its
    # default decides whether it is required, and whether `--no_name` exists
    redefined = {f.name for f in dataclass.fields}
    options = [o for o in options if o.dest not in redefined]
    return options + ([o._replace(library=True) for o in own] if dataclass.library else own), complete


def _field_options(data: DataField) -> list[Option]:
    """`--name` (and `--name-with-dashes`), `--no_name` for a bool that defaults to True."""
    dashed = data.name.replace("_", "-")
    flags = (f"--{data.name}", *((f"--{dashed}",) if dashed != data.name else ()), *data.aliases)
    nargs = "?" if data.boolean else None  # `--fp16` alone means True; `--fp16 false` too
    # A bool field is never required: with no default, HfArgumentParser gives `bool` False and
    # `Optional[bool]` None.
    required = data.required and not data.boolean
    options = [Option(flags, data.name, required, None, data.location, nargs)]
    if data.boolean and data.default_true:
        negative = (f"--no_{data.name}", f"--no-{dashed}")
        options.append(Option(negative, data.name, False, "store_false", data.location))
    return options


def _dataclass(
    project, module: PythonModule, name: str, hops: int, at: Location, imported: bool = False
) -> tuple[PythonModule, Dataclass] | None:
    """The dataclass `name` means in `module`: its own, or one imported (only that, when
    `imported`), from the project or transformers' (`_library_dataclass`)."""

    def own(owner: PythonModule, name: str):
        found = None if owner is module and imported else _dataclasses(project, owner).get(name) or _subclass(owner, name)
        found = found or _library_dataclass(project, owner, name, at)
        return None if found is None else (owner, found)

    return _defined(project, module, name, own, hops)


def _subclass(module: PythonModule, name: str) -> Dataclass | None:
    """A class of the module's top level with no `@dataclass` of its own that subclasses others
    (InternVL's `class DPOConfig(DPOConfigTRL):`): a dataclass still, with its bases' fields and
    none of its own (its annotations are no fields without the decorator)."""
    found = module.classes.get(name)
    if found is None or found.function != MODULE_SCOPE or not found.bases:
        return None
    return Dataclass(name, found.bases, ())


def _library_dataclass(project, module: PythonModule, name: str, at: Location) -> Dataclass | None:
    """transformers' `TrainingArguments` (and its Seq2Seq and TF kinds), or one of trl's configs
    and script arguments, as `module` imports it, with the fields of lint/hfargs.py placed `at`;
    None for any other name, and for a copy of the library in the project (its own source is
    read)."""
    qualified = module.qualified(name)
    library = qualified.partition(".")[0]
    if library not in ("transformers", "trl") or _copied(project, module, library):
        return None  # copies of the library in the project (AdaLoRA's two): its own source is read, or which one runs is not known
    from .hfargs import DATACLASSES

    table = DATACLASSES.get(qualified)
    if table is None:
        return None
    fields = tuple(DataField(field, at, False, kind != "", kind == "!") for field, kind in _library_table(table).items())
    return Dataclass(name, (), fields, library=True)


def _copied(project, module: PythonModule, library: str) -> bool:
    """Whether the project holds a copy of the library importable by its name: a package
    `transformers/` in a directory that is no package (a source root: AdaLoRA's `NLU/src/transformers`),
    or a `transformers.py` beside the program. Not a subpackage (LLaVA-NeXT's vendored
    `verl/models/transformers/`, which is `verl.models.transformers`) nor another directory's module."""
    cache = project.__dict__.setdefault("_library_copies", {})
    if library not in cache:
        packages = [path for path in project.python if path == f"{library}/__init__.py" or path.endswith(f"/{library}/__init__.py")]
        cache[library] = any(posixpath.join(posixpath.dirname(posixpath.dirname(p)), "__init__.py") not in project.python for p in packages)
    return cache[library] or posixpath.join(posixpath.dirname(module.path), f"{library}.py") in project.python


@cache  # a few tables a run, each read once (callers only read the dict)
def _library_table(table: str) -> dict[str, str]:
    """The fields of one of lint/hfargs.py's tables, its bases' first: `name` takes a value,
    `name?` is a switch, `name!` a switch that defaults to True."""
    from .hfargs import TABLES

    bases, words = TABLES[table]
    fields: dict[str, str] = {}
    for base in bases:
        fields.update(_library_table(base))
    for word in words.split():
        field = word.rstrip("?!")
        fields[field] = word[len(field) :]
    return fields


def _defined(project, module: PythonModule, name: str, own, hops: int):
    """What `name` means in `module`: `own(module, name)` (False: nothing, and no import either),
    else `_imported_as`."""
    found = own(module, name)
    if found is not None:
        return found or None
    return _imported_as(project, module, name, own, hops)


def _imported_as(project, module: PythonModule, name: str, own, hops: int):
    """What `name`, which `module` does not define, means there: `_defined` in the project module
    it is imported from; when no import binds it and the module does not either, in the last
    project module a `from m import *` of it brings it from (PythonModule.from_stars). Through
    re-exports, at most MAX_HOPS modules on (a cycle of star imports included)."""
    if hops >= MAX_HOPS:
        return None
    qualified = module.qualified(name)
    # `pkg.opts.x` of `import pkg.opts as opts`; `options.x` of a plain `import options` spells it already
    if qualified != name or "." in name and name.partition(".")[0] in module.imports:
        located = locate_import(project, module, qualified)
        return None if located is None else _defined(project, *located, own, hops + 1)
    if "." in name or module.assigns(name):
        return None

    def find(path: str):
        other = project.python.get(path)
        return None if other is None else _defined(project, other, name, own, hops + 1)

    return module.from_stars(lambda star: _module_path(project, module.path, star), find)


def locate_import(project, importer: PythonModule, dotted: str) -> tuple[PythonModule, str] | None:
    """The project module a dotted import names, and the rest of the name (`pkg.args.Model` ->
    (pkg/args.py, `Model`)). A script's own directory comes first: it is sys.path[0]."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = _module_named(project, importer, ".".join(parts[:cut]))
        if module is not None:
            return module, ".".join(parts[cut:])
    return None


def _module_named(project, importer: PythonModule, name: str) -> PythonModule | None:
    path = _module_path(project, importer.path, name)
    return None if path is None else project.python.get(path)


def _module_path(project, importer: str, name: str) -> str | None:
    """The file of the project module `name` as `importer` imports it (a sibling of its file
    first), without loading any module's facts."""
    here = posixpath.dirname(importer)
    relative = name.replace(".", "/")
    for candidate in (f"{relative}.py", f"{relative}/__init__.py"):
        sibling = posixpath.join(here, candidate)
        if sibling in project.python:
            return sibling
    by_name, by_ending = _modules(project)
    return by_name[name] if name in by_name else by_ending.get(name)


def imports_module(project, importer: PythonModule, path: str) -> bool:
    """Whether `importer` imports the project module in `path` itself (`import pkg.log`, `from
    pkg.log import setup`, `from pkg import log`)."""
    for dotted in importer.imports.values():
        parts = dotted.split(".")
        if any(_module_path(project, importer.path, ".".join(parts[:cut])) == path for cut in range(len(parts), 0, -1)):
            return True
    return False


def _modules(project) -> tuple[dict[str, str], dict[str, str | None]]:
    """The paths of the project's modules by dotted name, and by the endings of their names
    (`args` and `pkg.args` for `src.pkg.args`): None where two modules end alike. Made once a
    run: a scan of every name per lookup was 30 ms of DeepSpeedExamples' LL301. From the paths
    (a module's name is its path's): the modules' facts may load lazily (`LazyModules`)."""
    cache = project.__dict__
    if "_modules_by_name" not in cache:
        by_name = {module_name(path)[0]: path for path in project.python}
        by_ending: dict[str, str | None] = {}
        for name, path in by_name.items():
            parts = name.split(".")
            for cut in range(1, len(parts)):
                ending = ".".join(parts[cut:])
                by_ending[ending] = None if ending in by_ending else path
        cache["_modules_by_name"] = by_name, by_ending
    return cache["_modules_by_name"]


def launched(project, invocation) -> CommandLine | None:
    """The command line of the Python program an invocation starts, when the path written in
    the launcher names that file, or the directory whose `__main__.py` it is (`python app`), not
    a namesake the resolver found elsewhere by name; after a static absolute `cd`, or on another
    host or in a container after any, as the path (a module's file: `-m pkg.train` is
    `pkg/train.py`) is after the `cd`s there (`path_there`: `cd /opt/other && python x.py` is
    `/opt/other/x.py`, and none after `cd ~/other`, or a `cd $REMOTE_DIR` there: another
    checkout's)."""
    callee = invocation.callee
    if invocation.kind == "console" and callee is not None:
        return entry_command_line(project, callee, invocation.function)
    if invocation.kind not in ("python", "module") or callee is None:
        return None
    written = invocation.target.value  # None: from the launcher's own directory, as resolved
    if invocation.kind == "python" and written is not None:
        there = path_there(project, invocation.caller, invocation.command, written)
        if there is None or not _names_program(project, there, callee, invocation.caller) or _made_instead(project, invocation, written):
            return None
    elif invocation.kind == "module" and written is not None:  # `-m pkg.train`: pkg/train.py from where python starts
        file = _module_file(written, callee)
        there = path_there(project, invocation.caller, invocation.command, file)
        if there is None or not _names_program(project, there, callee, invocation.caller):
            return None
    return command_line(project, callee)


def _module_file(module: str, callee: str) -> str:
    """The path of the file that runs as the module `-m pkg.train`, relative to the directory
    python starts in (`sys.path[0]`): `pkg/train.py`, or `pkg/train/__main__.py` where that is the
    program (`Resolver.resolve_module`)."""
    base = module.replace(".", "/")
    return base + ".py" if callee.endswith(base + ".py") else base + "/__main__.py"


def _made_instead(project, invocation, written: str) -> bool:
    """The program is a namesake found elsewhere by name (`_by_name`), and a script makes a file
    of the written name: that is the program (context-debias's `wget .../scripts/preprocess.py`,
    then `python3 preprocess.py`, is not `src/preprocess.py`)."""
    return _by_name(project, invocation, written) and project.made.holds(written, project, by=invocation.caller)


def _by_name(project, invocation, written: str) -> bool:
    """The written path leads to no file of the project from where the launcher runs (no `cd`
    says where: `run_in`): the resolver found the program elsewhere, as the only file of its name."""
    return invocation.callee not in project_resolver(project).local(written, invocation.caller) and run_in(project, invocation.caller, invocation.command, invocation.target) is None


def fits_none(project, invocation, reading: Reading) -> bool:
    """A program found elsewhere by its name alone (`_by_name`) that defines none of the two or
    more flags the launch passes is not the one meant (OpenNMT-kpg's `onmt/tests/test_models.sh`
    runs the root's `preprocess.py`, long gone, with `-train_src`, `-save_data`: not the unrelated
    `onmt/keyphrase/preprocess.py`): LL301 and LL302 leave it, as LL303 leaves a name one file has."""
    written = invocation.target.value
    return (
        invocation.kind == "python"
        and written is not None
        and not reading.passed
        and len({u.flag for u in reading.unknown}) >= 2
        and _by_name(project, invocation, written)
    )


def shown(project, invocation) -> str:
    """The program as LL301's and LL302's messages name it: as written, or the project file it
    resolves to when the written path does not say which: built by the launcher
    (`$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../train.py` is train.py), or naming another
    file from where the launcher started, where a `cd` (or a step's working-directory) runs it
    elsewhere (`train.py` after `cd autoencoder` is autoencoder/train.py, not the root's)."""
    written, callee = invocation.target.text, invocation.callee
    if invocation.kind != "python" or callee is None:
        return written
    if "$" in written:
        return callee
    started = project_resolver(project).resolve(invocation.target, invocation.caller, remote=invocation.command.remote)
    return callee if started is not None and started != callee else written


class Meant(Record):
    """The program a launch that a `cd` moved may have been meant to run (`meant_before_cd`)."""

    directory: str  # where the `cd` leads: `autoencoder`
    file: str  # the program: `train.py`
    path: str  # its path from there: `../train.py`
    program: CommandLine
    whole: bool  # it takes the launch's whole command line; else it defines some of what the moved one does not


def meant_before_cd(project, invocation, reading: Reading, changes) -> Meant | None:
    """When a `cd` before a launch runs its program in another directory of the project
    (`after_cd`: `cd autoencoder`, then `python train.py` runs autoencoder/train.py), the program
    its path names from where the launcher started (the root's `train.py`), if the launch may be
    meant for it: it takes the launch's whole command line (`whole`: every flag is defined, none
    it requires is missing, no word is unknown), or, its parser not all known (options added in a
    loop: gaussian-splatting's `ParamGroup`), it defines a flag that the moved program, read as
    `reading`, does not, and requires nothing the launch does not pass. What LL301 and LL302
    offer as the fix. `changes`: the launcher's `directory_changes`, by path."""
    if invocation.kind != "python" or invocation.callee is None or invocation.command.remote:
        return None
    directory = after_cd(changes(invocation.caller), invocation.command)
    if directory is None:
        return None
    other = project_resolver(project).resolve(invocation.target, invocation.caller)
    program = command_line(project, other) if other is not None and other != invocation.callee else None
    if program is None:
        return None
    taken = read_launch(program, invocation.args)
    added = flags_added(invocation.command)  # `deepspeed x.py`: it passes `--local_rank` itself
    if any(not added.intersection(o.flags) for _, o in missing_required(taken)):
        return None
    path = posixpath.relpath(other, directory)
    if program.complete:
        return Meant(directory, other, path, program, True) if not taken.open and not taken.unknown else None
    if any(program.option(u.flag) not in (None, AMBIGUOUS) for u in reading.unknown):
        return Meant(directory, other, path, program, False)
    return None


def _names_program(project, written: str, callee: str, caller: str) -> bool:
    """Whether the program path `written` in `caller` names the file `callee`: as that file
    (`may_name`, from the checkout's parent too: `proj/tools/x.py` after a workflow's checkout into
    `proj`), or as the directory python runs the `__main__.py` of; or as the file a `path-map`
    prefix maps it to."""
    roots = checkout_names(project, caller)
    return any(
        may_name(path, callee, roots) or any(joined(d, rest) == callee for d, rest in path_mapped(project, path))
        for path in (written, posixpath.join(written, "__main__.py"))
    )
