"""Command lines a Python module defines, read from its syntax tree (the code is never run).

argparse parsers with their argument groups, `parents=[...]`, subparsers, helpers that add to a
parser or build and return one, `add_argument` bound to a name (`arg = parser.add_argument`) or to
a lambda that hands it its arguments (`lambda *a, **k: parser.add_argument(*a, **k)`);
`HfArgumentParser` over dataclasses; click commands and groups; typer apps. The facts say which
options each accepts and which functions parse the process's own arguments with it. Matching a
launcher's words against them is `launchlint.programs`' job.

Names are followed flow-insensitively inside the module: a variable holds a parser if any
assignment gives it one. Whatever hands a parser to code we cannot see (`self.parser = p`, a
library's function) or replaces its `add_argument` marks it incomplete, so an absent flag then
proves nothing. A function the module imports may be the project's: the parser keeps its name
(`handed`), and the project adds what that function adds to its parameter (`ArgParser.parameter`,
launchlint.programs); so does a function a parameter holds (`provided`: Megatron's
`extra_args_provider(parser)`), which the calls of its function pass.
"""

from __future__ import annotations

import _ast as ast  # see pyast
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from ..lazyre import lazy
from ..pyfacts import MODULE_SCOPE, PARSE_METHODS, ArgParser, Dataclass, DataField, Option, PythonModule, adds_through
from .pyast import argv_slice, child_nodes, dotted_name, keyword, last_name

Locate = Callable[[ast.AST], object]

ARGUMENT_PARSERS = frozenset({"argparse.ArgumentParser"})
# configargparse's, argparse's subclass: its options may also come from config files and the
# environment (`is_config_file`, `default_config_files`, `env_var`), so none is missing (LL302)
CONFIG_PARSERS = frozenset({"configargparse.ArgParser", "configargparse.ArgumentParser"})
HF_PARSERS = frozenset({
    "transformers.HfArgumentParser", "transformers.hf_argparser.HfArgumentParser",
    "trl.TrlParser", "trl.scripts.utils.TrlParser", "trl.commands.cli_utils.TrlParser",  # HfArgumentParser's, with `--config`
})  # fmt: skip
GROUP_METHODS = frozenset({"add_argument_group", "add_mutually_exclusive_group"})
ADDING = frozenset({"add_argument", *GROUP_METHODS})  # a parameter used so is a parser a caller gives
# a parameter a method hands to `super().__init__` after setting attributes (`_attributes_before`),
# as gaussian-splatting's ParamGroup subclasses do, in other modules than ParamGroup's too
HANDS_UP = "__init__(parser"
PARSE_KNOWN = frozenset({"parse_known_args", "parse_known_intermixed_args"})
HF_FILE_METHODS = frozenset({"parse_json_file", "parse_yaml_file", "parse_dict"})
# argparse's private methods that add options the reader does not see: `_add_action(action)` (an
# action copied from another parser, VACE's pipeline), `_add_container_actions(other)`; and
# configargparse's names for `add_argument` (`p.add("-c", is_config_file=True)`), not read.
HIDDEN_ADDERS = frozenset({"_add_action", "_add_container_actions", "add", "add_arg"})
DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "pydantic.dataclasses.dataclass"})
NOT_FIELDS = ("ClassVar", "InitVar")
# Library functions that add known options to the parser they are given, and return it.
LIBRARY_ADDERS = {
    "deepspeed.add_config_arguments": (
        ("--deepspeed", "store_true"), ("--deepspeed_config", None), ("--deepscale", "store_true"),
        ("--deepscale_config", None), ("--deepspeed_mpi", "store_true"),  # the last in old releases
    ),
}  # fmt: skip
API_NAMES = frozenset(api.rpartition(".")[2] for api in (*ARGUMENT_PARSERS, *CONFIG_PARSERS, *HF_PARSERS, *LIBRARY_ADDERS))
# what `value` can find a parser in (`self.parser`), or an adder (`lambda *a, **k: parser.add_argument(*a, **k)`)
VALUED = frozenset({ast.Name, ast.Call, ast.IfExp, ast.Attribute, ast.Lambda})
ROUNDS = 4  # helpers that return parsers to helpers that add to them: a few rounds settle it
MAX_CHAIN = 20  # `ArgumentParser().add_argument_group()...`: never longer in real code
MAX_CALLERS = 4  # calls of calls followed up from a function that adds a required option (`_unless`)
# What an action gives its dest when its flags are not passed and no `default=` is given.
UNPASSED = {
    None: None, "store": None, "store_const": None, "append": None, "append_const": None, "extend": None,
    "count": None, "argparse.BooleanOptionalAction": None, "store_true": False, "store_false": True,
}  # fmt: skip
MAX_SKIPPED = 3  # `parse_args(sys.argv[2:])`: words before the parsed ones (a mode, a config)
MAX_ROUNDS = 256  # times round the literal loops around an `add_argument` read (`_looped`)


# Every construct a reader knows names its marker in the source: argparse's and transformers'
# parser classes, the click and typer modules, the dataclass decorators. A module that spells none
# of them defines no command line (three quarters of Megatron-LM's files): the front end's walk
# records no scopes for it; one that spells only `ArgumentParser` is not searched for click or
# typer. Python folds identifiers to NFKC (`ＡrgumentParser` is `ArgumentParser`): a source that
# is not ASCII is searched folded.
DATACLASS_MARKER = "dataclass"


def extract(module: PythonModule, tree: ast.Module, locate: Locate, source: str, scopes: list[Scope] | None) -> None:
    """Fill `module.parsers` and `module.dataclasses`. `scopes` are what the front end's walk
    recorded (see `wanted`), None when no reader wants them."""
    readers = [reader for markers, reader in READERS if _spells(source, markers)]
    if readers and scopes is not None:
        parsers = [parser for reader in readers for parser in reader(module, scopes, locate).read()]
        module.parsers = sorted({id(p): p for p in parsers}.values(), key=lambda p: p.location)
        called = _called_at_top(tree) if any(p.parsed_in for p in module.parsers) else set()
        for parser in module.parsers:
            if called.intersection(parser.parsed_in):  # `args = parse_args()` at the top: importing it parses (vilio's `param.py`)
                parser.parsed_on_import = True
        if module.parsers and _spells(source, BY_HAND_MARKERS):
            flags = _by_hand(tree)
            for parser in module.parsers if flags else ():
                if parser.parsed_in or parser.parsed_on_import:
                    parser.by_hand = flags
    if spells_dataclasses(source):
        module.dataclasses = {d.qualname: d for d in _dataclasses(module, tree, locate)}
    for scope in scopes or ():  # a scope and its defs refer to each other: see `Scope`
        scope.defs = {}


BY_HAND_MARKERS = (" in sys.argv", " in argv", "argv.remove(")


def _called_at_top(tree: ast.Module) -> set[str]:
    """The module's functions its top-level statements call (`args = parse_args()`): run when it
    is imported. Not a call under an `if` (`if __name__ == "__main__":`) or in another statement."""
    found = set()
    for statement in tree.body:
        value = statement.value if type(statement) in (ast.Expr, ast.Assign, ast.AnnAssign) else None
        if type(value) is ast.Call and type(value.func) is ast.Name:
            found.add(value.func.id)
    return found


def _by_hand(tree: ast.Module) -> tuple[str, ...]:
    """The flags a module takes from the process's arguments itself (`ArgParser.by_hand`): the
    word of `"--debug" in sys.argv` (`not in`, `sys.argv[1:]`, `argv` imported from sys) or of
    `sys.argv.remove("--debug")`, written out or a module constant's (`FLAG = "--azureml"`)."""
    constants = {
        target.id: node.value.value
        for node in tree.body
        if type(node) is ast.Assign and type(node.value) is ast.Constant
        for target in node.targets
        if type(target) is ast.Name
    }
    found: list[str] = []
    for node in _nodes(tree):
        if type(node) is ast.Compare and type(node.ops[0]) in (ast.In, ast.NotIn) and _is_argv(node.comparators[0]):
            word = node.left
        elif type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "remove" and node.args and _is_argv(node.func.value):
            word = node.args[0]
        else:
            continue
        value = word.value if type(word) is ast.Constant else constants.get(word.id) if type(word) is ast.Name else None
        if type(value) is str and value.startswith("-") and value not in found:
            found.append(value)
    return tuple(found)


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """`tree` and every node below it; not recursive: expressions can nest thousands deep."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        stack += child_nodes(node)
        yield node


def _is_argv(node: ast.expr) -> bool:
    """`sys.argv`, a slice of it, or `argv` (`from sys import argv`)."""
    return dotted_name(node.value if type(node) is ast.Subscript else node) in ("sys.argv", "argv")


def wanted(source: str) -> bool:
    """Whether some reader needs the module's scopes."""
    return any(_spells(source, markers) for markers, _ in READERS)


def may_parse(source: str) -> bool:
    """Whether the module may define a parser that parses the process's arguments somewhere
    (`ArgParser.parsed_in`): argparse's and transformers' do only where a parse method is called."""
    return any(
        _spells(source, markers) and (reader is not _ArgparseReader or _spells(source, PARSE_METHODS))
        for markers, reader in READERS
    )


def may_build(source: str) -> bool:
    """Whether the module may build a parser a function of it returns."""
    return _spells(source, ("ArgumentParser",))


def may_add(source: str) -> bool:
    """Whether the module may add options to a parser a function of it is given."""
    return _spells(source, (*ADDING, HANDS_UP))


def spells_dataclasses(source: str) -> bool:
    """Whether the module may define a dataclass a command line is made of (`extract`)."""
    return _spells(source, (DATACLASS_MARKER,))


def _spells(source: str, markers: Iterable[str]) -> bool:
    """Whether the source spells one of the markers."""
    text = source if source.isascii() else _folded(source)
    return any(marker in text for marker in markers)


@lru_cache(maxsize=1)  # asked of one source for several markers in a row
def _folded(source: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", source)


# -- scopes ---------------------------------------------------------------------------------------


class Scope:
    """A function (or the module's top level) and the nodes that run in it, in the order the
    front end's walk meets them: calls, assignments, walrus targets, returns, `with` items.
    Names bound in it are `local` (but a class body's, which is no scope: its nodes run in the
    enclosing function); a lambda's body is no part of any scope (it runs later, if ever).

    A scope and the defs in it refer to each other (`parent`, `defs`): `extract` empties `defs`
    once read, or, with the cyclic collector off for the run (cli.console), the scopes and the
    syntax tree they hold would stay in memory to the end."""

    def __init__(
        self,
        qualname: str,
        node: ast.AST,
        parent: Scope | None = None,
        params: tuple[str, ...] = (),
        local: set[str] | None = None,
        defs: dict[str, Scope] | None = None,
        nodes: list[ast.AST] | None = None,
    ) -> None:
        self.qualname = qualname
        self.node = node
        self.parent = parent  # the enclosing function; class bodies are not scopes
        self.params = params
        self.local = set() if local is None else local
        self.defs = {} if defs is None else defs  # functions defined right here
        self.nodes = [] if nodes is None else nodes


def enter_def(
    found: list[Scope],
    scope: Scope,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    params: tuple[str, ...],
    prefix: str,
    *,
    in_class: bool,
) -> Scope:
    """The scope of a def met in `scope` (in a class body of it when `in_class`), in `found`;
    `params` are its parameters that take an argument by position or keyword (the front end's
    walk has them already)."""
    child = Scope(_qualname(prefix, node.name), node, scope, params, set(params))
    found.append(child)
    if not in_class:
        scope.defs[node.name] = child
        scope.local.add(node.name)
    return child


def _qualname(scope: str, name: str) -> str:
    return name if scope == MODULE_SCOPE else f"{scope}.{name}"


# -- argparse and HfArgumentParser ----------------------------------------------------------------


class _Subparsers:
    """What `parser.add_subparsers()` returns: `add_parser` makes its parser's subcommands."""

    def __init__(self, parser: ArgParser) -> None:
        self.parser = parser


class _Adder:
    """What `parser.add_argument` is, read and not called (`add_arg = parser.add_argument`, as
    cosmoflow's and nnU-Net's trainers write it): a call of it adds an option to the parser, in
    `group` (the required exclusive group the receiver held, see `_ArgparseReader.groups`)."""

    def __init__(self, parser: ArgParser, group: str) -> None:
        self.parser = parser
        self.group = group


class _Rest:
    """What `parser.parse_known_args()` of the process's arguments leaves (`_, rest = ...`): the
    words it did not know, which timm's trainer (and its many copies) hands to its main parser
    (`config_parser.parse_known_args()`, then `parser.parse_args(rest)`). `skip`: `_argv_skip`."""

    def __init__(self, parser: ArgParser, skip: int | None) -> None:
        self.parser = parser
        self.skip = skip


def _parser_of(found: object) -> ArgParser | None:
    """The parser a value adds to: itself, or an adder's; None for subparsers."""
    return found.parser if type(found) is _Adder else found if type(found) is ArgParser else None


class _ArgparseReader:
    def __init__(self, module: PythonModule, scopes: list[Scope], locate: Locate) -> None:
        self.module = module
        self.scopes = scopes
        self.locate = locate
        self.values: dict[tuple[int, str], object] = {}  # (scope, variable) -> parser or subparsers
        self.named: set[str] = set()  # the variables of `values`, whatever their scope (a `self.` one by its attribute)
        self.returns: dict[int, object] = {}  # scope -> the parser it returns
        self.made: dict[int, object] = {}  # constructor call -> what it made, made once
        self.parents: list[tuple[Scope, ArgParser, ast.expr]] = []
        self.missed: set = set()  # variables (and helpers' returns) looked up unbound, this round
        # A variable assigned several parsers (`pa = sub.add_parser("drift")`, then `pa =
        # sub.add_parser("convert")`; `parser` made twice, then returned): each with where it was
        # assigned (and the node assigning it), so that a node reads the one assigned last before
        # it, and those of other branches (`_reaching`). The nodes come in the order of the
        # source, so a straight-line function's are all known when its return is read.
        self.assigned: dict[tuple[int, str], dict[int, tuple[tuple[int, int], object, ast.AST | None]]] = {}
        self.blocks: dict[int, tuple[int, ...]] | None = None  # node -> its statement lists (`_blocks`)
        self.reading: ast.AST | None = None  # the node being read
        self.parses: dict[tuple[int, str], set[str]] = {}  # (parser, scope) -> how it parses there
        self.groups: dict[tuple[int, str], str] = {}  # variable -> the required exclusive group it holds
        self.group_sites: dict[str, tuple[Scope, ast.AST]] = {}  # such a group -> where it is made
        self.adders: dict[tuple[int, str], _Adder] = {}  # (parser, group) -> its adder, one for each
        self.aliases: set[str] = set()  # the names of variables (and `self.` attributes) holding adders
        self.patched: set[int] = set()  # parsers whose `add_argument` the module replaced (`_effect`)
        # the statement lists that run on some paths only (`_blocks`), with the statement and its field
        self.guards: dict[int, tuple[ast.AST, str]] = {}
        self.calls: list[tuple[Scope, ast.Call, Scope]] | None = None  # calls of the module's functions (`_calls`)
        self.defaulted: set[str | None] = set()  # the dests a `set_defaults` names (None: `**kwargs`)
        # (front, parser, scope): `parser` parses in `scope` what `front` left of the arguments (`_Rest`)
        self.fronts: list[tuple[ArgParser, ArgParser, Scope]] = []
        # (parser, scope) -> its parses of the process's arguments there: (known, scope, the call)
        self.parse_calls: dict[tuple[int, str], list[tuple[bool, Scope, ast.Call]]] = {}
        # (a call's own parser, the parser the helper it calls returns) when the helper is called
        # at two places or more (`_derived`), in the order made: a helper's before its callers'
        self.derived: list[tuple[ArgParser, ArgParser]] = []
        self.attribute_loops: dict[int, tuple | None] = {}  # `for key, value in vars(self).items():` -> `_attribute_adds`
        self.for_loops: dict[int, list[ast.For]] = {}  # scope -> its `for` loops, once one adds what is not static
        self.literal_loops: dict[int, list[dict[str, object]]] = {}  # a `for` loop around an `add_argument` -> `_bound_rounds`

    def read(self) -> list[ArgParser]:
        self._settle()
        if self._parameters():  # their flow: assigned, handed to the module's own helpers
            self._settle()
        for scope in self.scopes:
            for node in scope.nodes:
                self.reading = node
                self._effect(scope, node)
        self.reading = None
        for derived, base in self.derived:
            _derive(derived, base)
            self.parents += [(at, derived, parents) for at, parser, parents in self.parents if parser is base]
        self._inherit_parents()
        for front, parser, scope in self.fronts:
            _take_front(front, parser, scope.qualname, scope is self.scopes[0])
        parsers = list({id(p): p for p in self.made.values() if isinstance(p, ArgParser)}.values())
        for parser in parsers:
            for function in parser.parsed_in if not parser.parse_known_args else ():
                picked = self._picked_by(self.parse_calls.get((id(parser), function), ()))
                if picked is not None:
                    parser.known_if += ((function, picked),)
        if self.defaulted:
            _set_defaults(parsers, self.defaulted)
        return parsers

    def _picked_by(self, parses: list[tuple[bool, Scope, ast.Call]]) -> str | None:
        """The parameter of a function whose truth picks its known parse or its strict one
        (`ArgParser.known_if`): each known one in the branch of `if P:` (`if not P:`) that runs
        where P is true, each strict one in the other; None when they are not so, or of one kind."""
        if len({known for known, _, _ in parses}) != 2:
            return None
        picked = {self._arm(scope, call, known) for known, scope, call in parses}
        return picked.pop() if len(picked) == 1 and None not in picked else None

    def _arm(self, scope: Scope, call: ast.Call, truth: bool) -> str | None:
        """The parameter P of `scope` when the innermost branch `call` is in is one of `if P:` (`if
        not P:`) that runs where P's truth is `truth`."""
        path = self._blocks().get(id(call), ())
        block = next((b for b in reversed(path) if b in self.guards), None)
        node, field = self.guards[block] if block is not None else (None, "")
        if type(node) is not ast.If:
            return None
        test, negated = node.test, False
        if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
            test, negated = test.operand, True
        if type(test) is not ast.Name or test.id not in scope.params:
            return None
        return test.id if ((field == "body") != negated) == truth else None

    def _settle(self) -> None:
        """The flow's rounds, until nothing a round looked up is bound by it."""
        for _ in range(ROUNDS):
            known, returned = set(self.values), set(self.returns)
            self.missed = set()
            for scope in self.scopes:
                for node in scope.nodes:
                    self.reading = node
                    self._flow(scope, node)
            # Another round can only differ where a name was looked up before this round bound
            # it (values are never overwritten): usually nowhere, and one round is enough. A
            # variable is compared by its name alone: at worst that costs a round in which every
            # lookup finds what it found before, which binds nothing.
            added = {name for _, name in self.values.keys() - known}
            added.update(("return", k) for k in self.returns.keys() - returned)
            if not added & self.missed:
                break

    def _parameters(self) -> bool:
        """A parser for each parameter a function adds options to (`parser.add_argument(...)`)
        that no call in the module gives a parser: another module may (`handed`). Not for a
        function the module calls itself: what its caller holds flows in (`add_all(parser)` calls
        `_add_model(parser)`). True when one was made."""
        wanted = []  # (scope, parameter): most modules have none, and ask nothing more
        attributes: dict[tuple[int, str], tuple | None] = {}  # (scope, parameter) -> `_attributes_before`
        for scope in self.scopes[1:]:  # the functions: the first is the module's top level
            for node in scope.nodes if scope.params else ():
                # a call `parser.add_argument(...)`, or `arg = parser.add_argument` (`_Adder`)
                func = node.func if type(node) is ast.Call else node.value if type(node) is ast.Assign else None
                if type(func) is ast.Attribute and func.attr in ADDING and type(func.value) is ast.Name:
                    name = func.value.id
                    if name in scope.params and (id(scope), name) not in self.values and (scope, name) not in wanted:
                        wanted.append((scope, name))
                elif type(func) is ast.Attribute and func.attr == "__init__" and type(node) is ast.Call and _is_super(func.value):
                    # `super().__init__(parser, ...)` after `self.x = 1`: gaussian-splatting's ParamGroup subclasses
                    for argument in node.args:
                        key = (id(scope), argument.id if type(argument) is ast.Name else "")
                        found = _attributes_before(scope, node, self.locate) if key[1] in scope.params[1:] and key not in self.values else ()
                        if found != ():
                            attributes[key] = found
                            if (scope, key[1]) not in wanted:
                                wanted.append((scope, key[1]))
        if not wanted:
            return False
        calls = self._calls()
        # and for a parameter a function only hands on to such a parameter (DiffSynth-Studio's
        # `def add_general_config(parser): parser = add_model_config(parser) ...`)
        found = {(id(scope), name) for scope, name in wanted}
        adders = {id(scope) for scope, _ in wanted}
        grown = True
        while grown:
            grown = False
            for scope, call, helper in calls:
                if id(helper) not in adders or not scope.params:
                    continue
                for param, argument in _bound_arguments(helper, call):
                    key = id(scope), argument.id if type(argument) is ast.Name else ""
                    if key[1] in scope.params and (id(helper), param) in found and key not in found and key not in self.values:
                        wanted.append((scope, key[1]))
                        found.add(key)
                        adders.add(id(scope))
                        grown = True
        called = {id(helper) for _, _, helper in calls}
        made = False
        for scope, name in wanted:
            if id(scope) not in called:
                parser = ArgParser("", scope.qualname, self.locate(scope.node), parameter=(scope.params.index(name), name))
                parser.attributes = attributes.get((id(scope), name))
                self._bind((id(scope), name), parser)
                self.made[id(parser)] = parser  # its own key: `made` is by constructor call
                made = True
        return made

    def _calls(self) -> list[tuple[Scope, ast.Call, Scope]]:
        """Each call of a function of the module: the scope it is in, the call, that function."""
        if self.calls is None:
            self.calls = []
            for each in self.scopes:
                for node in each.nodes:
                    helper = _local_def(each, node.func) if type(node) is ast.Call else None
                    if helper is not None:
                        self.calls.append((each, node, helper))
        return self.calls

    def _unless(self, scope: Scope, node: ast.AST, parser: ArgParser, depth: int = 0) -> tuple[str, ...] | None:
        """Whether `node` (adding a required option to `parser`, or making a required group) runs
        wherever the parser is made and parsed: None when it runs on some paths only, else the
        flags of the parser whose passing may skip it (`_read_by`; () for none). Some paths only:
        - in a statement list of `guards` below where its function (or the parser's construction)
          is, that parses it nowhere (`if not args.skip: add; parse` requires it where it parses);
        - after a `return` of its function in such a list (`if mode == "eval": return parser.parse_args()`);
        - in a function of the module each call of which is so (`if mode == "train": parser =
          add_training_args(parser)`), when the parser is not made in it."""
        blocks = self._blocks()
        path = blocks.get(id(node), ())
        start = len(blocks.get(id(scope.node), ()))
        built = next((blocks.get(key) for key, made in self.made.items() if made is parser), None)
        if built is not None:  # a branch the construction is in too runs with it
            start = max(start, next((i for i, (a, b) in enumerate(zip(path, built)) if a != b), min(len(path), len(built))))
        unless: tuple[str, ...] = ()
        for each in path[start:]:
            if each in self.guards:
                read = self._read_by(each, parser) if self._parses_in(scope, each, parser) else None
                if read is None:
                    return None
                unless += read
        if self._returned_before(scope, node, parser, path):
            return None
        if parser.function == scope.qualname or scope is self.scopes[0] or depth >= MAX_CALLERS:
            return unless
        calls = [self._unless(each, call, parser, depth + 1) for each, call, helper in self._calls() if helper is scope]
        if calls and all(each is None for each in calls):
            return None
        return tuple(dict.fromkeys(unless + tuple(flag for each in calls if each for flag in each)))

    def _read_by(self, block: int, parser: ArgParser) -> tuple[str, ...] | None:
        """For a statement list of `guards` that parses `parser` too: when it is an if's branch
        whose test reads the parser's own options (`if not args.skip_training:`), their flags,
        where the test holds with none of them passed (switches read as their defaults), None
        where it does not or cannot be told; () for any other."""
        node, field = self.guards[block]
        if type(node) is not ast.If:
            return ()
        options = {option.dest: option for option in parser.options}
        read = _reads(node.test, options)
        if not read:
            return ()
        holds = _by_default(node.test, options, 0)
        if field == "orelse" and holds is not None:
            holds = not holds
        return tuple(option.flags[0] for option in read) if holds else None

    def _returned_before(self, scope: Scope, node: ast.AST, parser: ArgParser, path: tuple[int, ...]) -> bool:
        """Whether its function may return before `node` runs, after the parser is made: a `return`
        before it in a statement list of `guards` that `node` is not in."""
        at = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        made = parser.location.line if parser.function == scope.qualname else 0
        blocks = self._blocks()
        return any(
            type(each) is ast.Return
            and made < each.lineno
            and (each.lineno, each.col_offset) < at
            and any(block in self.guards and block not in path for block in blocks.get(id(each), ()))
            for each in scope.nodes
        )

    def _parses_in(self, scope: Scope, block: int, parser: ArgParser) -> bool:
        """Whether a statement list of `scope` (an id) has a call parsing `parser`, by the variable
        holding it (`parser.parse_args()`)."""
        blocks = self._blocks()
        return any(
            type(node) is ast.Call
            and type(node.func) is ast.Attribute
            and node.func.attr in PARSE_METHODS
            and type(node.func.value) is ast.Name
            and block in blocks.get(id(node), ())
            and self.values.get(self._variable(scope, node.func.value.id)) is parser
            for node in scope.nodes
        )

    # values

    def value(self, scope: Scope, expr: ast.expr | None, depth: int = 0) -> object:
        """The parser (or subparsers) an expression evaluates to, if any. `depth` bounds the
        walk down `a.b().c()` chains, which valid code can nest thousands deep."""
        kind = type(expr)
        if depth > MAX_CHAIN:
            return None
        if kind is ast.Name:  # the most lookups, and most find nothing: no scope to look up then
            name = expr.id  # read once: a node's field is a lookup in its __dict__
            if name not in self.named:
                self.missed.add(name)
                return None
            key = self._variable(scope, name)
            found = self.values.get(key)
            if found is None:
                self.missed.add(name)
            elif self.reading is not None and len(self.assigned.get(key, ())) > 1:
                reaching = self._reaching(key)
                found = reaching[0] if reaching else found
                for other in reaching[1:]:  # what reads the variable here sees the first only
                    parser = _parser_of(other)
                    if parser is not None:
                        parser.complete = False
            return found
        if kind is ast.Call:
            return self.made.get(id(expr)) or self._call_value(scope, expr, depth)
        if kind is ast.Attribute:  # `self.parser` in a method: the one its class's methods assign
            if expr.attr == "add_argument":
                return self._adder(scope, expr.value, depth)
            key = self._held_on_self(scope, expr)
            found = self.values.get(key) if key is not None else None
            if key is not None and found is None:
                self.missed.add(key[1])
            return found
        if kind is ast.IfExp:
            return self.value(scope, expr.body, depth + 1) or self.value(scope, expr.orelse, depth + 1)
        if kind is ast.Lambda:  # its body runs where it is called, which no scope's nodes show
            return self._lambda_adder(scope, expr, depth)
        return None

    def _adder(self, scope: Scope, receiver: ast.expr, depth: int) -> _Adder | None:
        """`parser.add_argument` (`group.add_argument`), not called: the adder of its parser."""
        owner = self.value(scope, receiver, depth + 1)
        if type(owner) is not ArgParser:
            return None
        group = self._group(scope, receiver)
        return self.adders.setdefault((id(owner), group), _Adder(owner, group))

    def _lambda_adder(self, scope: Scope, expr: ast.Lambda, depth: int) -> _Adder | None:
        """`lambda *a, **k: parser.add_argument(*a, **k)`: the parser's adder, what a call of it adds
        read as a call of `add_argument`; a lambda adding to a parser otherwise makes it
        incomplete (`lambda name: parser.add_argument("--" + name)`)."""
        call = expr.body
        if type(call) is not ast.Call or type(call.func) is not ast.Attribute or call.func.attr != "add_argument":
            return None
        adder = self._adder(scope, call.func.value, depth)
        if adder is not None and not _forwards(expr.args, call):
            adder.parser.complete = False
            return None
        return adder

    def held(self, scope: Scope, expr: ast.expr | None) -> list[object]:
        """What `value` finds, and with it (after it) what else a variable bound in branches before
        the node read may hold (`if ...: sp = sub.add_parser("a")`, `else: sp =
        sub.add_parser("b")`), for what the node does to each; `value` marks those parsers
        incomplete, as what reads the variable there sees the first only."""
        if type(expr) is ast.Name and self.reading is not None:  # the variable looked up once, not again by `value`
            name = expr.id
            key = self._variable(scope, name) if name in self.named else None
            found = self.values.get(key)
            if found is None:
                return []
            return (len(self.assigned.get(key, ())) > 1 and self._reaching(key)) or [found]
        found = self.value(scope, expr) if type(expr) in VALUED else None
        return [] if found is None else [found]

    def _reaching(self, key: tuple[int, str]) -> list[object]:
        """What a variable assigned several times may hold at the node read, last assigned first:
        the last assignment before it, and each before that back to one in a statement list the
        node is in too, which every later one the node may see overwrites (`pa = ...` twice in a
        row; one before an `if` that assigns another). None when none is before it."""
        reading = self.reading
        at = (getattr(reading, "lineno", 0), getattr(reading, "col_offset", 0))
        before = sorted((each for each in self.assigned[key].values() if each[0] <= at), key=lambda each: each[0], reverse=True)
        if len(before) < 2:
            return [found for _, found, _ in before]
        blocks = self._blocks()
        path = blocks.get(id(reading))
        reaching: list[object] = []
        for _, found, node in before:
            if all(other is not found for other in reaching):
                reaching.append(found)
            lists = blocks.get(id(node))
            if path is None or lists is None or path[: len(lists)] == lists:
                break
        return reaching

    def _blocks(self) -> dict[int, tuple[int, ...]]:
        """For each node of the module, the statement lists it is in, outermost first (a body, an
        `else:`, a handler's): made when a variable is first read that was assigned parsers twice,
        or a required option is added. With them, the `guards`: the lists that may not run when
        the code around them does (`_guard`)."""
        if self.blocks is None:
            self.blocks = {}
            stack: list[tuple[ast.AST, tuple[int, ...]]] = [(self.scopes[0].node, ())]
            while stack:  # not recursive: expressions can nest thousands deep
                node, path = stack.pop()
                self.blocks[id(node)] = path
                for field in node._fields:
                    child = getattr(node, field, None)
                    if type(child) is list:
                        inner = path + (id(child),) if child and isinstance(child[0], ast.stmt) else path
                        if inner is not path and _guard(node, field):
                            self.guards[id(child)] = node, field
                        stack.extend((each, inner) for each in child if isinstance(each, ast.AST))
                    elif isinstance(child, ast.AST) and field != "ctx":
                        stack.append((child, path))
        return self.blocks

    def _call_value(self, scope: Scope, call: ast.Call, depth: int) -> object:
        api = self._api(call)
        if api in ARGUMENT_PARSERS or api in HF_PARSERS or api in CONFIG_PARSERS:
            made = self._constructed(scope, call, "hf" if api in HF_PARSERS else "argparse")
            made.reads_files = made.reads_files or api in CONFIG_PARSERS
            return self._make(call, made)
        if api in LIBRARY_ADDERS and call.args:
            return self.value(scope, call.args[0], depth + 1)
        built = self._built(scope, call, depth)
        if built is not None:
            return built
        if isinstance(call.func, ast.Attribute):
            method = call.func.attr
            if method not in GROUP_METHODS and method != "add_subparsers" and method != "add_parser":
                return None  # no parser: its owner is not read (`args = parser.parse_args()`)
            owner = self.value(scope, call.func.value, depth + 1)
            if isinstance(owner, ArgParser) and method in GROUP_METHODS:
                return owner  # a group adds to its parser
            if isinstance(owner, ArgParser) and method == "add_subparsers":
                return self._make(call, _Subparsers(owner))
            if isinstance(owner, _Subparsers) and method == "add_parser":
                return self._make(call, self._subcommand(scope, call, owner.parser))
            return None
        helper = _local_def(scope, call.func)
        given = _returned_argument(helper, call) if helper is not None else None
        if given is not None:  # `parser = add_base_args(parser)`: the helper hands back the parser it is given
            return self.value(scope, given, depth + 1)
        found = self.returns.get(id(helper)) if helper is not None else None
        if helper is not None and found is None:
            self.missed.add(("return", id(helper)))
        if type(found) is ArgParser and self._called_twice(helper):
            return self._make(call, self._derived(scope, call, found))
        return found

    def _called_twice(self, helper: Scope) -> bool:
        """Whether the module calls its function `helper` at two places or more."""
        return sum(1 for _, _, each in self._calls() if each is helper) > 1

    def _derived(self, scope: Scope, call: ast.Call, base: ArgParser) -> ArgParser:
        """The parser a call of a helper called elsewhere too gets: a new one each call, what the
        helper adds (`base`'s) and what the caller adds to it on its own (`_derive`, once the
        module is read). fairseq's `get_parser()`: `get_training_parser` adds the required
        `--arch` to its parser, which `get_preprocessing_parser`'s does not have."""
        derived = ArgParser("", scope.qualname, self.locate(call))
        self.derived.append((derived, base))
        return derived

    def _built(self, scope: Scope, call: ast.Call, depth: int) -> ArgParser | None:
        """`parser = get_parser()` (`options.get_training_parser()`) with the function imported and
        named for a parser: the parser a project module builds and returns, which the project
        finds (`ArgParser.built_by`, launchlint.programs); what this module adds comes on top.
        Not when the call is given a parser (BigGAN's `parser = utils.add_sample_parser(parser)`):
        the function adds to that one, as any imported function a parser is handed to (`handed`)."""
        func = call.func
        name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
        if "parser" not in name.lower() or name[0].isupper():  # not a class: `FlexibleArgumentParser()`
            return None
        if any(isinstance(self.value(scope, argument, depth + 1), ArgParser) for argument in _arguments(call, self.named)):
            return None
        imported = self._imported(scope, func)
        if imported is None or type(imported) is tuple:  # imported from two modules: which one runs is not known
            return None
        return self._make(call, ArgParser("", scope.qualname, self.locate(call), built_by=imported))

    def _api(self, call: ast.Call) -> str | None:
        """The qualified name of a call that can be a parser's constructor or a library adder."""
        return _qualified(self.module, call.func) if last_name(self.module.imports, call.func) in API_NAMES else None

    def _make(self, call: ast.Call, made: object) -> object:
        self.made[id(call)] = made
        return made

    def _constructed(self, scope: Scope, call: ast.Call, kind: str) -> ArgParser:
        parser = ArgParser("", scope.qualname, self.locate(call), kind=kind)
        self._options_of_constructor(scope, call, parser)
        if kind == "hf":
            types = call.args[0] if call.args else keyword(call, "dataclass_types")
            elements = types.elts if isinstance(types, (ast.Tuple, ast.List)) else [types]
            names = tuple(dotted_name(e) or "" for e in elements if e is not None)
            parser.dataclasses = names
            parser.complete = parser.complete and bool(names) and all(names)
        return parser

    def _options_of_constructor(self, scope: Scope, call: ast.Call, parser: ArgParser) -> None:
        """`allow_abbrev`, `add_help`, `prefix_chars`, `fromfile_prefix_chars` and `parents` of a parser."""
        _allow_abbrev(parser, keyword(call, "allow_abbrev"))
        parser.add_help = _literal(keyword(call, "add_help")) is not False
        prefix = keyword(call, "prefix_chars")
        if prefix is not None and _literal(prefix) != "-":
            parser.complete = False  # `+x` options: not the flags a launcher writes
        parser.reads_files = keyword(call, "fromfile_prefix_chars") is not None
        parents = keyword(call, "parents")
        if parents is not None:
            self.parents.append((scope, parser, parents))

    def _subcommand(self, scope: Scope, call: ast.Call, owner: ArgParser) -> ArgParser:
        name = _literal(call.args[0]) if call.args else _literal(keyword(call, "name"))
        parser = ArgParser("", scope.qualname, self.locate(call), subcommand=name if isinstance(name, str) else None)
        self._options_of_constructor(scope, call, parser)
        aliases = _literal(keyword(call, "aliases")) or ()
        names = [name, *aliases] if isinstance(aliases, (list, tuple)) else [name]
        for each in names:
            if isinstance(each, str):
                owner.commands[each] = parser
            else:
                owner.open_commands = True
        return parser

    def _on_self(self, scope: Scope, attribute: str, call: ast.Call) -> ArgParser:
        """The stand-in for the parser a method adds to through `self.<attribute>` when no code of
        the module makes it (`ArgParser.on_self`): one for each method and attribute."""
        key = ("self", scope.qualname, attribute)
        if key not in self.made:
            self.made[key] = ArgParser("", scope.qualname, self.locate(call), on_self=attribute)
        return self.made[key]

    def _held_on_self(self, scope: Scope, expr: ast.Attribute) -> tuple[int, str] | None:
        """`self.parser` in a method of a class: a variable of the class (`Options::parser`)."""
        if type(expr.value) is not ast.Name:
            return None
        function = self.module.functions.get(scope.qualname)
        if function is None or not function.is_method or not function.params or expr.value.id != function.params[0]:
            return None
        return 0, f"{function.class_name}::{expr.attr}"

    def _variable(self, scope: Scope, name: str) -> tuple[int, str]:
        current: Scope | None = scope
        while current is not None:
            if name in current.local:
                return id(current), name
            current = current.parent
        return id(self.scopes[0]), name

    # data flow: assignments, returns, arguments bound to a helper's parameters

    def _flow(self, scope: Scope, node: ast.AST) -> None:
        kind = type(node)
        if kind is ast.Call:  # the most nodes; only a plain name calls a helper (`_local_def`)
            func = node.func
            if type(func) is ast.Attribute and func.attr == "add_parser":
                self.value(scope, node)  # `sub.add_parser("train", parents=[common])`, not assigned: a subcommand still
                return
            helper = _local_def(scope, func) if type(func) is ast.Name else None
            if helper is not None:
                for param, argument in _bound_arguments(helper, node):
                    found = self.value(scope, argument)
                    if found is not None:
                        held = self.values.get((id(helper), param))
                        parser = _parser_of(found)
                        if held is not None and held is not found and parser is not None:
                            parser.complete = False  # the helper is read as adding to the first it is given
                        self._bind((id(helper), param), found)
        elif kind is ast.Assign or kind is ast.AnnAssign or kind is ast.NamedExpr:
            targets = node.targets if kind is ast.Assign else [node.target]
            self._assign(scope, targets, node.value)
        elif kind is ast.withitem and node.optional_vars is not None:
            self._assign(scope, [node.optional_vars], node.context_expr)
        elif kind is ast.For or kind is ast.AsyncFor:  # `for p in (base_parser, parser): p.add_argument(...)`:
            for element in node.iter.elts:  # what the loop adds to each is not read
                parser = _parser_of(self.value(scope, element))
                if parser is not None:
                    parser.complete = False
        elif kind is ast.Return:
            found = self.value(scope, node.value)
            if found is not None:
                self.returns.setdefault(id(scope), found)
                if type(found) is ArgParser and scope.qualname not in found.returned_in:
                    found.returned_in += (scope.qualname,)

    def _bind(self, key: tuple[int, str], found: object) -> None:
        """A variable holds `found`, unless it holds something already (the first binding wins)."""
        self.values.setdefault(key, found)
        name = key[1].rpartition("::")[2]  # `Options::parser` is read as `self.parser`
        self.named.add(name)
        if type(found) is _Adder:  # `Options::add` is called as `self.add`
            self.aliases.add(name)

    def _assign(self, scope: Scope, targets: list[ast.expr], value: ast.expr | None) -> None:
        found = self.value(scope, value)
        if found is None:
            if type(value) is ast.Call and type(value.func) is ast.Attribute and value.func.attr in PARSE_KNOWN:
                self._rest(scope, targets, value)
            parsed = type(value) is ast.Call and type(value.func) is ast.Attribute and value.func.attr in PARSE_METHODS
            for target in targets if parsed else ():  # `args = get_args_parser()`, then `args = args.parse_args()`
                # (MAE's idiom): from there on the name holds the parse's result, not the parser
                key = self._variable(scope, target.id) if type(target) is ast.Name and target.id in self.named else None
                if key is not None and key in self.values:
                    end = (value.end_lineno or value.lineno, value.end_col_offset or 0)  # not the reads in the value
                    self.assigned.setdefault(key, {})[id(value)] = (end, None, self.reading)
            return
        group = _required_group(value)
        if group:
            self.group_sites.setdefault(group, (scope, value))
        for target in targets:
            if type(target) is ast.Attribute:  # `self.parser = argparse.ArgumentParser()`
                key = self._held_on_self(scope, target)
                if key is not None:
                    self._bind(key, found)
                    if group:
                        self.groups.setdefault(key, group)
            if isinstance(target, ast.Name):
                key = self._variable(scope, target.id)
                if group:  # `g = parser.add_mutually_exclusive_group(required=True)`
                    self.groups.setdefault(key, group)
                self._bind(key, found)
                self.assigned.setdefault(key, {})[id(found)] = ((value.lineno, value.col_offset), found, self.reading)
                if isinstance(found, ArgParser) and not found.name:
                    found.name = target.id

    def _rest(self, scope: Scope, targets: list[ast.expr], call: ast.Call) -> None:
        """`_, rest = parser.parse_known_args()` of the process's arguments: `rest` holds what the
        parser did not know (`_Rest`)."""
        owner = self.value(scope, call.func.value)
        if type(owner) is not ArgParser or not _parses_argv(scope, call):
            return
        for target in targets:
            if type(target) is ast.Tuple and len(target.elts) == 2 and type(target.elts[1]) is ast.Name:
                self._bind(self._variable(scope, target.elts[1].id), self.made.get(id(call)) or self._make(call, _Rest(owner, _argv_skip(call))))

    # effects: options added, parses, parsers handed to code we cannot see

    def _effect(self, scope: Scope, node: ast.AST) -> None:
        # Every node is asked, most of them calls that touch no parser: the cheap tests come first.
        # `value` is asked again of what `_flow` asked it already: the same answer, its parsers made.
        kind = type(node)
        if kind is ast.Assign or kind is ast.AnnAssign:
            targets = node.targets if kind is ast.Assign else [node.target]
            if all(type(t) is ast.Name for t in targets):
                return
            for target in targets:  # `parser.allow_abbrev = False`: read when it parses, as the keyword is
                if type(target) is ast.Attribute and target.attr == "allow_abbrev":
                    for owner in self.held(scope, target.value):
                        if type(owner) is ArgParser:
                            _allow_abbrev(owner, node.value)
                elif type(target) is ast.Attribute and target.attr in ADDING:  # `parser.add_argument = prefixed`
                    for owner in self.held(scope, target.value):
                        if type(owner) is ArgParser:  # what it adds from here on is the wrapper's
                            owner.complete = False
                            self.patched.add(id(owner))
            for found in self.held(scope, node.value):
                if isinstance(found, ArgParser):
                    kept = [self._kept(scope, t) for t in targets]
                    if all(kept):  # `self.parser = parser` in an options class: the project checks its subclasses
                        found.kept_on += tuple(k for k in kept if k not in found.kept_on)
                    else:
                        found.complete = False  # other methods may add to it
                elif type(found) is _Adder:
                    found.parser.complete = False  # `self.add = parser.add_argument`: so may they, through it
            return
        if kind is not ast.Call:
            return
        func = node.func  # read once: a node's field is a lookup in its __dict__
        if self.adders:  # `add_argument` read and not called (`_Adder`): in few modules
            name = func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else None
            if name in self.aliases or type(func) is ast.Call:  # `add_arg("--lr")`, `adder(parser)("--lr")`
                adders = [each for each in self.held(scope, func) if type(each) is _Adder]
                for adder in adders:
                    self._add(scope, adder.parser, node, adder.group)
                if adders:
                    return
        receiver = func.value if type(func) is ast.Attribute else None
        owners = self.held(scope, receiver) if _may_hold(receiver, self.named) else ()  # not `LOG` of `LOG.info`
        for owner in owners:
            if type(owner) is ArgParser:  # `value` finds a parser, subparsers or nothing
                self._method(scope, owner, func.attr, node)
        if not owners and type(receiver) is ast.Attribute and func.attr == "add_argument" and self._held_on_self(scope, receiver):
            self._method(scope, self._on_self(scope, receiver.attr, node), func.attr, node)  # `self.parser.add_argument` of a parser made elsewhere
        if not owners and type(receiver) is ast.Name and func.attr in PARSE_METHODS:
            imported = self._imported_object(scope, receiver)
            if imported is not None:  # `from opts import parser`, then `parser.parse_args()`: one stand-in a name,
                # however often it is parsed (Side-output_U2's train.py parses it twice: two had made the program unknown)
                made = self.made.get(id(node)) or self._make(
                    node, next(iter(p for p in self.made.values() if type(p) is ArgParser and p.built_by == imported and not p.name), None)
                    or ArgParser("", scope.qualname, self.locate(node), built_by=imported)
                )
                self._method(scope, made, func.attr, node)
        arguments = _arguments(node, self.named)
        if not arguments:  # nothing it passes holds a parser: nor the first, to a library adder
            return
        api = self._api(node)
        if api is not None:  # most calls are none of the APIs: spare them the lookups
            held = self.held(scope, node.args[0]) if api in LIBRARY_ADDERS and node.args else ()
            added = [each for each in held if type(each) is ArgParser]
            if added:
                location = self.locate(node)
                for each in added:
                    each.options += [Option((flag,), flag[2:], False, action, location) for flag, action in LIBRARY_ADDERS[api]]
                return
        if owners or api in ARGUMENT_PARSERS or api in HF_PARSERS or api in CONFIG_PARSERS:
            return  # its own methods (and `parents=`) do not hand the parser away
        helper = _local_def(scope, func)
        bound = {id(a) for _, a in _bound_arguments(helper, node)} if helper is not None else ()
        for argument in arguments:
            held = self.held(scope, argument) if id(argument) not in bound else ()
            for adder in held:  # `functools.partial(parser.add_argument, type=int)`: what it adds is not read
                if type(adder) is _Adder:
                    adder.parser.complete = False
                elif type(adder) is _Subparsers:  # `DownloadCommand.register_subcommand(commands_parser)`: its commands are not read
                    adder.parser.open_commands = True
            found = [p for p in held if isinstance(p, ArgParser)]
            if not found:
                continue
            imported = None if helper is not None else self._imported(scope, func) or self._class_method(func)
            method = None if helper is not None or imported is not None else self._instance_method(scope, func)
            provider = None if helper is not None or imported is not None or method is not None else _provider(scope, func)
            at = None if imported is None and method is None and provider is None else _position(node, argument)
            for parser in found:
                if at is None:
                    parser.complete = False
                elif provider is not None:  # `extra_args_provider(parser)`: what its callers pass (programs)
                    parser.provided += ((scope.qualname, provider, at),)
                elif method is not None:  # `self.initialize(parser)`: the instance's class says which
                    name, after_super = method
                    parser.methods += ((name, at + 1 if isinstance(at, int) else at, after_super),)
                elif type(imported) is tuple:  # imported in an if's arms: one of them adds to it
                    parser.handed_either += ((imported, at),)
                else:  # a project module's function may add to it: the project reads it (programs)
                    parser.handed += ((imported, at),)

    def _imported(self, scope: Scope, func: ast.expr) -> str | tuple[str, ...] | None:
        """The qualified name of an imported function a call calls (`add_args`, `opts.add_args`);
        each, when its name is imported from several modules (`reimports`); the name itself when
        it is a global that nothing in the module binds, in a module with a `from m import *`,
        which may bring it (launchlint.programs looks for it there)."""
        qualified = _qualified(self.module, func)
        dotted = dotted_name(func)
        # `import forest.options` binds `forest` to itself: `forest.options.get_parser` is imported
        if qualified != dotted or dotted and "." in dotted and dotted.partition(".")[0] in self.module.imports:
            head, dot, rest = dotted.partition(".")
            targets = self.module.reimports.get(head)
            return qualified if targets is None else tuple(f"{target}{dot}{rest}" for target in targets)
        module = self.module
        if type(func) is not ast.Name or not module.star_imports or module.assigns(func.id):
            return None
        return func.id if module.scope_of(scope.qualname, func.id) == MODULE_SCOPE else None

    def _imported_object(self, scope: Scope, name: ast.Name) -> str | None:
        """The qualified name of a module-level name the module imports from one place and does
        not bind itself (`from opts import parser`: `opts.parser`), else None."""
        imported = self._imported(scope, name)
        if type(imported) is not str or "." not in imported or self.module.assigns(name.id):
            return None
        return imported if self.module.scope_of(scope.qualname, name.id) == MODULE_SCOPE else None

    def _class_method(self, func: ast.expr) -> str | None:
        """`BaseOptions.initialize(self, parser)` with the class defined at the module's top level:
        its method, qualified as an imported one is (`pkg.opts.BaseOptions.initialize`); and
        `ModelParams(parser)`: the class, whose `__init__` its instance runs."""
        dotted = dotted_name(func) if type(func) in (ast.Attribute, ast.Name) else None
        owner, _, method = (dotted or "").rpartition(".")
        found = self.module.classes.get(owner or method)
        if found is None or found.function != MODULE_SCOPE or not method:
            return None
        self.module.own_name_used = True
        return f"{self.module.module}.{dotted}" if self.module.module else dotted

    def _instance_method(self, scope: Scope, func: ast.expr) -> tuple[str, bool] | None:
        """`self.initialize` (False) or `super().initialize` (True) called in a method: the
        instance's method, which its class decides."""
        function = self.module.functions.get(scope.qualname)
        if type(func) is not ast.Attribute or function is None or not function.is_method or not function.params:
            return None
        value = func.value
        if type(value) is ast.Name and value.id == function.params[0]:
            return func.attr, False
        if _is_super(value):
            return func.attr, True
        return None

    def _kept(self, scope: Scope, target: ast.expr) -> str | None:
        """`self.parser = parser` in a method (`parser`), with no code of the module adding options
        through that attribute or handing it on (`self.parser.add_argument`, `setter(self.parser)`)."""
        function = self.module.functions.get(scope.qualname)
        if type(target) is not ast.Attribute or function is None or not function.is_method or not function.params:
            return None
        if type(target.value) is not ast.Name or target.value.id != function.params[0]:
            return None
        # the class's own methods are read here (`self.parser.add_argument` is an option of it)
        others = [f for f in self.module.functions.values() if f.class_name != function.class_name]
        return None if adds_through(others, target.attr) else target.attr

    def _main_only(self, call: ast.Call) -> bool:
        """Whether a top-level call runs only under `if __name__ == "__main__":` (not on import),
        also one that asks more (`if __name__ == "__main__" and "ipykernel" not in sys.argv[0]:`)."""
        tree = self.scopes[0].node
        line = getattr(call, "lineno", 0)
        return type(tree) is ast.Module and any(
            type(statement) is ast.If and _requires_main(statement.test) and statement.body[0].lineno <= line <= (statement.body[-1].end_lineno or 0)
            for statement in tree.body
        )

    def _method(self, scope: Scope, parser: ArgParser, method: str, call: ast.Call) -> None:
        if method == "add_argument" and id(parser) not in self.patched:
            self._add(scope, parser, call, self._group(scope, call.func.value))
        elif method in PARSE_METHODS:
            known = method in PARSE_KNOWN or _literal(keyword(call, "return_remaining_strings")) is True
            if method == "parse_args_and_config":  # TrlParser: `--config FILE` taken out first, the file's values
                known = known or _literal(keyword(call, "fail_with_unknown_args")) is False
                parser.reads_files = True
                if not any("--config" in o.flags for o in parser.options):
                    parser.options.append(Option(("--config",), "config", False, None, self.locate(call)))
            if keyword(call, "args_filename") is not None or _literal(keyword(call, "look_for_args_file")):
                parser.reads_files = True
            flag = keyword(call, "args_file_flag")
            if flag is not None:  # `args_file_flag="--config"`: a parser of its own takes it, each file's options first
                parser.reads_files = True
                flag = _literal(flag)
                if isinstance(flag, str) and flag.startswith("-"):
                    parser.options.append(Option((flag,), flag.lstrip("-"), False, "append", self.locate(call)))
                elif flag is not None:
                    parser.complete = False
            argv = _parses_argv(scope, call)
            rest = None if argv else self._rest_of(scope, call, parser)
            argv = argv or rest is not None
            if argv and scope.qualname not in parser.parsed_in:
                parser.parsed_in += (scope.qualname,)
            if argv:
                _skips(parser, _argv_skip(call) if rest is None else rest.skip)
                given = call.args[0] if call.args else keyword(call, "args")
                if type(given) is ast.Name and given.id in scope.params and (scope.qualname, given.id) not in parser.argv_in:
                    parser.argv_in += ((scope.qualname, given.id),)
            if argv and scope is self.scopes[0] and not self._main_only(call):
                parser.parsed_on_import = True
            # Unknown flags get through where a function only parses the arguments known: not
            # where it parses them strictly too (`early, _ = p.parse_known_args()`, options added,
            # then `p.parse_args()`), which exits on them.
            kinds = self.parses.setdefault((id(parser), scope.qualname), set())
            kinds.add("known" if known else "strict" if argv else "other")
            if known or argv:
                self.parse_calls.setdefault((id(parser), scope.qualname), []).append((known, scope, call))
                parser.parse_known_args = any(
                    "known" in k and "strict" not in k for (owner, _), k in self.parses.items() if owner == id(parser)
                )
        elif method in HF_FILE_METHODS:
            if _one_argument_arm(scope.node, call):
                parser.reads_one_file = True
            else:
                parser.reads_files = True
        elif method == "set_defaults":
            self.defaulted.update(k.arg for k in call.keywords)
        elif method in HIDDEN_ADDERS:
            parser.complete = False

    def _rest_of(self, scope: Scope, call: ast.Call, parser: ArgParser) -> _Rest | None:
        """What a parser's known parse left of the process's arguments, when the call parses that
        (`parser.parse_args(rest)`). Another parser's: the pair is recorded, its options merged
        when all are read. The same parser's (RecAI's `args, rest = parser.parse_known_args()`,
        options added, then `parser.parse_args(rest, args)`): it parses the arguments strictly."""
        given = call.args[0] if call.args else keyword(call, "args")
        rest = self.value(scope, given) if type(given) is ast.Name else None
        if type(rest) is not _Rest:
            return None
        if rest.parser is not parser and all(front is not rest.parser or each is not parser for front, each, _ in self.fronts):
            self.fronts.append((rest.parser, parser, scope))
        return rest

    def _add(self, scope: Scope, parser: ArgParser, call: ast.Call, group: str) -> None:
        """`add_argument` called: its option, or the parser incomplete when its flags are not static."""
        option = _option(self.module, call, self.locate, group)
        options = [option] if option is not None else self._looped(scope, call, group)
        if not options and not self._attribute_loop(scope, parser, call):
            parser.complete = False
        for option in options:
            # a required option where it is added; a required group's where the group is made
            site = (scope, call) if option.required else self.group_sites[option.group] if option.group else None
            unless = self._unless(*site, parser) if site is not None else ()
            if unless is None:  # required on some paths only: `if mode == "train":`
                option = option._replace(required=False, group="")
            elif unless:
                option = option._replace(unless=unless)  # `if not args.skip_training:`
            parser.options.append(option)

    def _looped(self, scope: Scope, call: ast.Call, group: str) -> list[Option]:
        """An option for each time round the `for` loops over literal lists around `call`, its
        flags (and `dest`, `required`) made of their variables (`_formed`): ECG-Bench's `for flag
        in ("--a", "--b"): parser.add_argument(flag)`, OpenRLHF's `for prefix in ("actor",
        "critic"): parser.add_argument(f"--{prefix}.adam.lr")`; none when they are not static."""
        if not call.args or any(type(a) is ast.Starred for a in call.args):
            return []
        if id(scope) not in self.for_loops:
            self.for_loops[id(scope)] = [n for n in _nodes(scope.node) if type(n) is ast.For]
        line = getattr(call, "lineno", 0)
        loops = [n for n in self.for_loops[id(scope)] if n.body[0].lineno <= line <= (n.body[-1].end_lineno or 0)]
        rounds: list[dict[str, object]] = [{}]
        for loop in sorted(loops, key=lambda n: (n.lineno, n.col_offset)):  # the outermost first
            if id(loop) not in self.literal_loops:
                self.literal_loops[id(loop)] = _bound_rounds(loop)
            inner = self.literal_loops[id(loop)]
            rounds = [{**outer, **names} for outer in rounds for names in inner]
            if len(rounds) > MAX_ROUNDS:
                return []
        options = []
        for names in rounds:
            option = _option(self.module, call, self.locate, group, lambda node, names=names: _formed(node, names))
            if option is None:
                return []
            options.append(option)
        return options

    def _attribute_loop(self, scope: Scope, parser: ArgParser, call: ast.Call) -> bool:
        """Whether `call` adds to `parser` in gaussian-splatting's `ParamGroup.__init__` loop, an
        option for each attribute of `self` (`for key, value in vars(self).items():
        group.add_argument("--" + key, ...)`), read (`ArgParser.from_attributes`): the loop a
        statement of the method's own, after statements that do not touch `self`."""
        function = self.module.functions.get(scope.qualname)
        if function is None or not function.is_method or not scope.params:
            return False
        line, body, me = getattr(call, "lineno", 0), scope.node.body, scope.params[0]
        loop = next((s for s in body if type(s) is ast.For and s.lineno <= line <= (s.end_lineno or 0)), None)
        if loop is None or not _vars_items(loop.iter, me):
            return False
        if id(loop) not in self.attribute_loops:
            touched = any(type(n) is ast.Name and n.id == me for s in body[: body.index(loop)] for n in _nodes(s))
            adds = lambda receiver: _parser_of(self.value(scope, receiver)) is parser  # noqa: E731
            self.attribute_loops[id(loop)] = None if touched else _attribute_adds(loop, adds)
        read = self.attribute_loops[id(loop)]
        if read is None:
            return False
        if parser.from_attributes is not None and parser.from_attributes is not read:  # two loops: each adds them all
            parser.complete = False
        parser.from_attributes = read
        return True

    def _group(self, scope: Scope, receiver: ast.expr) -> str:
        """The required exclusive group a receiver of `add_argument` holds (`groups`), or ""."""
        key = self._variable(scope, receiver.id) if type(receiver) is ast.Name else None
        key = self._held_on_self(scope, receiver) if type(receiver) is ast.Attribute else key
        return self.groups.get(key, "") if key is not None else ""

    def _inherit_parents(self) -> None:
        """`ArgumentParser(parents=[common])` copies the options of `common` (and of its parents)."""
        links: dict[int, tuple[ArgParser, list[ArgParser]]] = {}
        for scope, parser, parents in self.parents:
            elements = parents.elts if isinstance(parents, (ast.List, ast.Tuple)) else [parents]
            found = [self.value(scope, element) for element in elements]
            known = [p for p in found if isinstance(p, ArgParser) and p is not parser]
            parser.complete = parser.complete and len(known) == len(found)
            links.setdefault(id(parser), (parser, []))[1].extend(known)
        done: set[int] = set()
        for parser, _ in links.values():
            _inherit(parser, set(), links, done)


def _derive(derived: ArgParser, base: ArgParser) -> None:
    """`derived`, made where a helper's parser was returned to a caller (`_derived`), gets what the
    helper made: the base's kind, construction, options (first), dataclasses and commands, what it
    was handed to; its name, parses and returns stay the caller's."""
    own = dict(vars(derived))
    vars(derived).update(vars(base))
    for field in ("parsed_in", "returned_in", "parsed_on_import", "known_if", "argv_skip", "argv_in"):
        setattr(derived, field, own[field])
    derived.name = own["name"] or base.name
    derived.options = base.options + [o for o in own["options"] if o not in base.options]
    derived.commands = {**base.commands, **own["commands"]}
    for field in ("complete", "allow_abbrev"):
        setattr(derived, field, getattr(base, field) and own[field])
    for field in ("parse_known_args", "open_commands", "reads_files", "reads_one_file"):
        setattr(derived, field, getattr(base, field) or own[field])
    for field in ("handed", "handed_either", "built_parents", "methods", "kept_on", "provided", "by_hand"):
        setattr(derived, field, getattr(base, field) + tuple(each for each in own[field] if each not in getattr(base, field)))


def _take_front(front: ArgParser, parser: ArgParser, function: str, on_import: bool) -> None:
    """`front.parse_known_args()`, then `parser.parse_args(rest)` in `function`: the program's
    command line is `parser`'s with `front`'s options too (a flag neither knows stops it), and
    `front` is no parser of the program's own there. `on_import`: `function` is the top level."""
    flags = {flag for option in parser.options for flag in option.flags}
    parser.options += [option for option in front.options if not flags.intersection(option.flags)]
    parser.complete = parser.complete and front.complete
    parser.reads_files = parser.reads_files or front.reads_files
    parser.reads_one_file = parser.reads_one_file or front.reads_one_file
    front.parsed_in = tuple(each for each in front.parsed_in if each != function)
    if on_import:
        front.parsed_on_import = False


def _inherit(parser: ArgParser, path: set[int], links: dict[int, tuple[ArgParser, list]], done: set[int]) -> None:
    """Copy the options of `parser`'s parents (theirs first), once per parser; `path` breaks a
    cycle of parents. A function of the module, not a closure calling itself (a cycle the
    collector, off for the run, would never free)."""
    if id(parser) in done or id(parser) in path:
        return
    for parent in links.get(id(parser), (parser, []))[1]:
        _inherit(parent, path | {id(parser)}, links, done)
        parser.options.extend(o for o in parent.options if o not in parser.options)
        parser.complete = parser.complete and parent.complete
        # a parent another module builds (`parents=[make_parser()]`, imported): its options are
        # that function's, which launchlint.programs reads as it reads `built_by`'s
        built = parent.built_parents + ((parent.built_by,) if parent.built_by is not None else ())
        parser.built_parents += tuple(b for b in built if b not in parser.built_parents)
    done.add(id(parser))


def _is_main_test(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round)."""
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.Eq:
        return False
    sides = [test.left, test.comparators[0]]
    return any(type(s) is ast.Name and s.id == "__name__" for s in sides) and any(
        type(s) is ast.Constant and s.value == "__main__" for s in sides
    )


def _requires_main(test: ast.expr) -> bool:
    """The test holds only when the module runs as the program: `__name__ == "__main__"`, or an
    `and` of it with other conditions (AnyLoc's, which imported modules skip); not an `or`."""
    if type(test) is ast.BoolOp and type(test.op) is ast.And:
        return any(_requires_main(value) for value in test.values)
    return _is_main_test(test)


def _guard(node: ast.AST, field: str) -> bool:
    """Whether a statement list of `node` may not run when `node` does: an `if`'s branches (but
    the body of `if __name__ == "__main__":`, where a program's code runs when it is launched), a
    loop's body (but a `for` one over a literal list, `_iterated`, with no `break`, `continue` or
    `return` of its own) and `else:`, an `except:`'s body, a `case`'s. Not a `try:` body, its `else:` or
    `finally:`, nor a `with` body: those run when no error stops the program."""
    kind = type(node)
    if kind is ast.If:
        return field == "orelse" or not _is_main_test(node.test)
    if kind is ast.For and field == "body" and _iterated(node.iter) and not _leaves_early(node.body):
        return False  # a body run for each of a literal list, which does not skip its rest
    return kind is ast.For or kind is ast.AsyncFor or kind is ast.While or kind is ast.ExceptHandler or kind is ast.match_case


def _reads(test: ast.expr, options: dict[str, Option]) -> list[Option]:
    """The options (by their dest) whose values a test reads as an attribute of a name
    (`args.skip_training`)."""
    found: list[Option] = []
    stack = [test]
    while stack:  # not recursive: expressions can nest thousands deep
        node = stack.pop()
        if type(node) is ast.Attribute and type(node.value) is ast.Name and node.attr in options:
            if options[node.attr] not in found:
                found.append(options[node.attr])
            continue
        for field in node._fields:
            child = getattr(node, field, None)
            if type(child) is list:
                stack.extend(each for each in child if isinstance(each, ast.AST))
            elif isinstance(child, ast.AST):
                stack.append(child)
    return found


def _set_defaults(parsers: list[ArgParser], dests: set[str | None]) -> None:
    """`parser.set_defaults(redirect=True)` somewhere in the module: what an option of any of its
    parsers with such a dest (any, for a `**kwargs`) has when not passed is no longer known."""
    for parser in parsers:
        parser.options = [o._replace(default=()) if o.dest in dests or None in dests else o for o in parser.options]


def _by_default(test: ast.expr, options: dict[str, Option], depth: int) -> bool | None:
    """A test of switches (`not args.skip_training or not args.skip_rendering`) where the launch
    passes none of them: a `store_true` is False, a `store_false` True; None for anything else."""
    kind = type(test)
    if depth > MAX_CHAIN:
        return None
    if kind is ast.Attribute and type(test.value) is ast.Name and test.attr in options:
        action = options[test.attr].action
        return action == "store_false" if action in ("store_true", "store_false") else None
    if kind is ast.UnaryOp and type(test.op) is ast.Not:
        held = _by_default(test.operand, options, depth + 1)
        return None if held is None else not held
    if kind is ast.BoolOp:
        values = [_by_default(each, options, depth + 1) for each in test.values]
        decides = type(test.op) is ast.Or  # a True decides an `or`, a False an `and`
        return decides if decides in values else None if None in values else not decides
    return None


def _allow_abbrev(parser: ArgParser, value: ast.expr | None) -> None:
    """`allow_abbrev=value` given to the constructor, or `parser.allow_abbrev = value` (argparse
    reads it when it parses; where the module sets it is not compared with where it parses):
    prefixes are refused only when it is literally False (None: not given)."""
    parser.allow_abbrev = _literal(value) is not False


def _required_group(value: ast.expr | None) -> str:
    """`parser.add_mutually_exclusive_group(required=True)`: the group, named by where it is
    made; "" for anything else."""
    if type(value) is not ast.Call or type(value.func) is not ast.Attribute or value.func.attr != "add_mutually_exclusive_group":
        return ""
    return f"{value.lineno}:{value.col_offset}" if _literal(keyword(value, "required")) is True else ""


def _option(
    module: PythonModule, call: ast.Call, locate: Locate, group: str = "", value: Callable[[ast.expr | None], object] | None = None
) -> Option | None:
    """One `add_argument`, or None when its option strings are not static; `value` reads its
    flags, `dest` and `required` (one time round the loops around it: `_looped`), else `_literal`."""
    value = _literal if value is None else value
    flags = tuple([value(a) for a in call.args])  # a list: no generator (a function call) to make
    if not flags or not all(isinstance(f, str) and f for f in flags):
        return None
    given = {k.arg: k.value for k in call.keywords}  # read once for the four names, not a search each
    dest = value(given.get("dest"))
    if not isinstance(dest, str):
        long_flags = [f for f in flags if f.startswith("--")]
        dest = (long_flags or list(flags))[0].lstrip("-").replace("-", "_")
    nargs = _spelled(module, given.get("nargs"))
    positional = not flags[0].startswith("-")
    required = nargs not in ("?", "*") if positional else value(given.get("required")) is True
    action = _spelled(module, given.get("action"))
    default = () if positional else _unpassed(given, action)
    return Option(flags, dest, required, action, locate(call), nargs, group if not positional else "", default=default)


def _unpassed(given: dict[str | None, ast.expr], action: str | None) -> tuple:
    """What argparse gives an option's dest when none of its flags is passed (`Option.default`):
    its `default=` when a constant, else its action's (False for `store_true`, True for
    `store_false`, None for one that stores values); () when not known (`argparse.SUPPRESS`, a
    name, a list, `**kwargs`, another action)."""
    if None in given:
        return ()
    node = given.get("default")
    if node is None:
        return (UNPASSED[action],) if action in UNPASSED else ()
    if type(node) is not ast.Constant:  # not `_literal`: what is not a constant asks it nothing
        return ()
    value = node.value
    if type(value) is str and given.get("type") is not None and dotted_name(given["type"]) != "str":
        return ()  # argparse converts a string default with `type=`: `type=bool, default="False"` is True
    return (value,)


def _parses_argv(scope: Scope, call: ast.Call) -> bool:
    """`parse_args()` on the process's arguments: nothing, None, `sys.argv[1:]` (or `[2:]` after
    a mode word, `_argv_skip`), or the enclosing function's own parameter (`def main(argv=None)`)."""
    given = call.args[0] if call.args else keyword(call, "args")
    if given is None or (isinstance(given, ast.Constant) and given.value is None):
        return True
    if isinstance(given, ast.Name):
        return given.id in scope.params
    return _argv_skip(call) is not None


def _skips(parser: ArgParser, skip: int | None) -> None:
    """A parse of the process's arguments from after the first `skip` of them: two parses that
    skip differently leave where its words start unknown (-1)."""
    if skip is None:
        return
    parser.argv_skip = skip if parser.argv_skip in (None, skip) else -1


def _argv_skip(call: ast.Call) -> int | None:
    """How many of the program's arguments a parse passes over: 0 for `sys.argv[1:]` (and for
    nothing given), 1 for `sys.argv[2:]` after a mode word (`python train.py fit --lr 1`); None
    for any other slice or value."""
    given = call.args[0] if call.args else keyword(call, "args")
    if given is None or (isinstance(given, ast.Constant) and given.value is None):
        return 0
    lower = argv_slice(given)
    return lower - 1 if lower is not None and lower <= MAX_SKIPPED + 1 else None


# -- click ----------------------------------------------------------------------------------------

CLICK_OPTIONS = {
    "click.option": None,
    "click.argument": None,
    "click.version_option": ("--version",),
    "click.help_option": ("--help",),
    "click.confirmation_option": ("--yes",),
}
CLICK_HARMLESS = frozenset({"click.pass_context", "click.pass_obj"})
CLICK_COMMANDS = frozenset({"click.command", "click.group"})
# click names a command after its function: `train_cmd` is `train-cmd` (and `train` since 8.2).
CLICK_SUFFIXES = ("_command", "_cmd", "_group", "_grp")


class _ClickReader:
    def __init__(self, module: PythonModule, scopes: list[Scope], locate: Locate) -> None:
        self.module = module
        self.scopes = scopes
        self.locate = locate
        self.commands: dict[str, ArgParser] = {}  # function name -> its command
        self.attached: set[str] = set()  # commands that are some group's subcommand

    def read(self) -> list[ArgParser]:
        for scope in self.scopes[1:]:
            self._command(scope)
        for scope in self.scopes:
            for node in scope.nodes:
                if isinstance(node, ast.Call):
                    self._add_command(node)
                    self._entry(scope, node)
        for command in self.commands.values():  # a group's context settings are its commands' too
            _inherit_help(command, 0)
        return list(self.commands.values())

    def _command(self, scope: Scope) -> None:
        node = scope.node
        decorators = node.decorator_list
        declared = [(d, group) for d in decorators if (group := self._command_group(d)) is not None]
        if not declared:
            return
        decorator, group = declared[0]
        parser = ArgParser(node.name, scope.qualname, self.locate(node), kind="click", allow_abbrev=False)
        parser.add_help = not (isinstance(decorator, ast.Call) and _literal(keyword(decorator, "add_help_option")) is False)
        _context_settings(decorator, parser)
        parser.chain = isinstance(decorator, ast.Call) and _literal(keyword(decorator, "chain")) is True
        options: list[Option] = []
        for other in decorators:
            if other is not decorator:
                self._decorator(other, parser, options)
        parser.options = options
        self.commands[node.name] = parser
        if group:
            self._attach(self.commands.get(group), _command_names(decorator, node.name), node.name)

    def _command_group(self, decorator: ast.expr) -> str | None:
        """"" for `@click.command()`, the group's name for `@cli.command()`, None otherwise."""
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _qualified(self.module, func) in CLICK_COMMANDS:
            return ""
        if isinstance(func, ast.Attribute) and func.attr in ("command", "group") and isinstance(func.value, ast.Name):
            return func.value.id if func.value.id in self.commands else None
        return None

    def _decorator(self, decorator: ast.expr, parser: ArgParser, options: list[Option]) -> None:
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        api = _qualified(self.module, func)
        if api in CLICK_HARMLESS:
            return
        if api not in CLICK_OPTIONS or not isinstance(decorator, ast.Call):
            parser.complete = False  # a decorator of the project's own may add options
            return
        option = _click_option(decorator, api, self.locate)
        if option is None:
            parser.complete = False
        else:
            options.append(option)

    def _attach(self, group: ArgParser | None, names: list[str], function: str) -> None:
        if group is None:
            return
        for name in names:
            group.commands[name] = self.commands[function]
        self.attached.add(function)

    def _add_command(self, call: ast.Call) -> None:
        """`cli.add_command(train)` or `cli.add_command(train, name="fit")`."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "add_command" and isinstance(func.value, ast.Name)):
            return
        group = self.commands.get(func.value.id)
        added = call.args[0] if call.args else None
        if group is None or not isinstance(added, ast.Name) or added.id not in self.commands:
            if group is not None:
                group.open_commands = True
            return
        name = _literal(call.args[1]) if len(call.args) > 1 else _literal(keyword(call, "name"))
        names = [name] if isinstance(name, str) else _default_names(added.id)
        self._attach(group, names, added.id)

    def _entry(self, scope: Scope, call: ast.Call) -> None:
        """`cli()` or `cli.main()` on the process's arguments runs that command."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "main":
            func = func.value
        if not isinstance(func, ast.Name) or func.id not in self.commands or func.id in self.attached:
            return
        if _parses_argv(scope, call):
            self.commands[func.id].parsed_in += (scope.qualname,)
            _skips(self.commands[func.id], _argv_skip(call))


def _inherit_help(group: ArgParser, depth: int) -> None:
    """A group's `help_option_names` for its commands that name none of their own."""
    if group.help_flags is None or depth > MAX_CHAIN:
        return
    for command in group.commands.values():
        if command.help_flags is None and command is not group:
            command.help_flags = group.help_flags
            _inherit_help(command, depth + 1)


def _click_option(call: ast.Call, api: str, locate: Locate) -> Option | None:
    decls = [_literal(a) for a in call.args] or list(CLICK_OPTIONS[api] or ())
    if not decls or not all(isinstance(d, str) for d in decls):
        return None
    if api == "click.argument":
        required = _literal(keyword(call, "required")) is not False and keyword(call, "default") is None
        return Option((decls[0],), decls[0], required, None, locate(call), _spelled_literal(call, "nargs"))
    flags = tuple(part.strip() for d in decls for part in d.split("/") if part.strip().startswith("-"))
    if not flags:
        return None
    names = [d for d in decls if not d.startswith("-") and "/" not in d]
    primary = [d.split("/")[0].strip() for d in decls if d.startswith("-")] or list(flags)
    dest = names[0] if names else max(primary, key=len).lstrip("-").replace("-", "_")
    switch = api != "click.option" or any("/" in d for d in decls) or any(
        _literal(keyword(call, k)) is True for k in ("is_flag", "count")
    )
    # A prompt, an environment variable or a default satisfies `required` without the flag.
    satisfied = any(keyword(call, k) is not None for k in ("prompt", "envvar", "default"))
    required = _literal(keyword(call, "required")) is True and not satisfied
    return Option(flags, dest, required, "store_true" if switch else None, locate(call), _spelled_literal(call, "nargs"))


def _context_settings(decorator: ast.expr, parser: ArgParser) -> None:
    """`context_settings={"ignore_unknown_options": True}` lets unknown flags through."""
    settings = keyword(decorator, "context_settings") if isinstance(decorator, ast.Call) else None
    if settings is not None:
        value = _literal(settings)
        if type(settings) is ast.Call and dotted_name(settings.func) == "dict" and not settings.args:
            value = {k.arg: _literal(k.value) for k in settings.keywords} if all(k.arg for k in settings.keywords) else None
        lenient = ("ignore_unknown_options", "allow_extra_args")
        if not isinstance(value, dict) or any(value.get(k) for k in lenient):
            parser.parse_known_args = True
        elif "help_option_names" in value:  # `help_option_names=["-h", "--help"]`
            names = value["help_option_names"]
            if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
                parser.help_flags = tuple(names)
            else:
                parser.parse_known_args = True  # not known: nothing is judged


def _command_names(decorator: ast.expr, function: str) -> list[str]:
    if isinstance(decorator, ast.Call):
        name = _literal(decorator.args[0]) if decorator.args else _literal(keyword(decorator, "name"))
        if isinstance(name, str):
            return [name]
    return _default_names(function)


def _default_names(function: str) -> list[str]:
    name = function.lower().replace("_", "-")
    short = next((function[: -len(s)] for s in CLICK_SUFFIXES if function.endswith(s)), None)
    return [name] + ([short.lower().replace("_", "-")] if short else [])


# -- typer ----------------------------------------------------------------------------------------

TYPER_APPS = frozenset({"typer.Typer"})
TYPER_PARAMS = {"typer.Option": "option", "typer.Argument": "argument"}
TYPER_RUN = "typer.run"
# Options every typer app has besides `--help`.
TYPER_APP_OPTIONS = ("--install-completion", "--show-completion")


class _TyperReader:
    def __init__(self, module: PythonModule, scopes: list[Scope], locate: Locate) -> None:
        self.module = module
        self.scopes = scopes
        self.locate = locate
        self.apps: dict[str, ArgParser] = {}  # variable -> app
        self.commands: dict[str, list[ArgParser]] = {}  # variable -> its commands
        self.callbacks: set[str] = set()  # apps with `@app.callback()`: commands are then named

    def read(self) -> list[ArgParser]:
        for node in self.scopes[0].nodes:
            if _assigns_call(node, self.module, TYPER_APPS):
                name = node.targets[0].id
                self.apps[name] = ArgParser(name, MODULE_SCOPE, self.locate(node.value), kind="typer", allow_abbrev=False)
                self.commands[name] = []
        for scope in self.scopes[1:]:
            for decorator in scope.node.decorator_list:
                self._decorator(scope, decorator)
        runs = [
            program
            for scope in self.scopes
            for node in scope.nodes
            if isinstance(node, ast.Call)
            for program in self._call(scope, node)
        ]
        for name, app in self.apps.items():
            self._assemble(name, app)
        return list(self.apps.values()) + runs

    def _decorator(self, scope: Scope, decorator: ast.expr) -> None:
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.apps):
            return
        name = func.value.id
        if func.attr == "callback":
            self.apps[name].options += self._parameters(scope).options
            self.callbacks.add(name)
            _context_settings(decorator, self.apps[name])
        elif func.attr == "command":
            command = self._parameters(scope)
            command.subcommand = _typer_name(decorator, scope.node.name)
            _context_settings(decorator, command)
            self.commands[name].append(command)

    def _call(self, scope: Scope, call: ast.Call) -> list[ArgParser]:
        """`app()` runs the app; `typer.run(main)` makes `main` a one-command program."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "add_typer" and isinstance(func.value, ast.Name):
            if func.value.id in self.apps:
                self.apps[func.value.id].open_commands = True
        elif isinstance(func, ast.Name) and func.id in self.apps and _parses_argv(scope, call):
            self.apps[func.id].parsed_in += (scope.qualname,)
            _skips(self.apps[func.id], _argv_skip(call))
        elif _qualified(self.module, func) == TYPER_RUN and call.args:
            target = _local_def(scope, call.args[0])
            if target is not None:
                program = self._parameters(target)
                program.parsed_in = (scope.qualname,)
                program.options += _switches(TYPER_APP_OPTIONS, program.location)
                return [program]
        return []

    def _assemble(self, name: str, app: ArgParser) -> None:
        """An app with one command and no callback runs it directly; otherwise commands are named."""
        commands = self.commands[name]
        app.options += _switches(TYPER_APP_OPTIONS, app.location)
        if len(commands) == 1 and name not in self.callbacks and not app.open_commands:
            only = commands[0]
            app.options += only.options
            app.complete = only.complete
            app.parse_known_args = app.parse_known_args or only.parse_known_args
            return
        for command in commands:
            app.commands[command.subcommand or command.name] = command

    def _parameters(self, scope: Scope) -> ArgParser:
        node = scope.node
        parser = ArgParser(node.name, scope.qualname, self.locate(node), kind="typer", allow_abbrev=False)
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        for arg, default in [*zip(positional, defaults), *zip(args.kwonlyargs, args.kw_defaults)]:
            option = self._parameter(arg, default)
            if option is None:
                parser.complete = False
            elif option.flags:
                parser.options.append(option)
        return parser

    def _parameter(self, arg: ast.arg, default: ast.expr | None) -> Option | None:
        """A typer parameter as an Option (flags () for a context); None when its names are unknown."""
        annotation, info, decls = arg.annotation, None, []
        if isinstance(annotation, ast.Subscript) and dotted_name(annotation.value) in ("Annotated", "typing.Annotated"):
            parts = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else []
            annotation = parts[0] if parts else None
            info = next((p for p in parts[1:] if isinstance(p, ast.Call) and self._kind(p)), None)
            decls = info.args if info is not None else []
        elif isinstance(default, ast.Call) and self._kind(default):
            # typer.Option(DEFAULT, "--name", "-n"): the first argument is the default
            info, default = default, (default.args[0] if default.args else keyword(default, "default"))
            decls = info.args[1:]
        if (dotted_name(annotation) or "").endswith("Context"):
            return Option((), arg.arg, False, None, self.locate(arg))
        kind = self._kind(info) if info is not None else ("option" if default is not None else "argument")
        if kind == "argument":
            return Option((arg.arg,), arg.arg, default is None, None, self.locate(arg))
        names = [_literal(d) for d in decls]
        if not all(isinstance(n, str) for n in names):
            return None
        declared = [part.strip() for n in names for part in n.split("/") if part.strip()]
        flags = declared or ["--" + arg.arg.replace("_", "-")]
        boolean = _is_bool(annotation)
        if boolean and not declared:  # typer's own `--force/--no-force`; named ones have what they say
            flags.append("--no-" + flags[0][2:])
        required = default is None or (isinstance(default, ast.Constant) and default.value is Ellipsis)
        return Option(tuple(flags), arg.arg, required, "store_true" if boolean else None, self.locate(arg))

    def _kind(self, call: ast.Call) -> str | None:
        return TYPER_PARAMS.get(_qualified(self.module, call.func) or "")


def _assigns_call(node: ast.AST, module: PythonModule, apis: frozenset[str]) -> bool:
    """`name = api(...)`."""
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and _qualified(module, node.value.func) in apis
    )


def _typer_name(decorator: ast.expr, function: str) -> str:
    if isinstance(decorator, ast.Call):
        name = _literal(decorator.args[0]) if decorator.args else _literal(keyword(decorator, "name"))
        if isinstance(name, str):
            return name
    return function.lower().replace("_", "-")


def _switches(flags: tuple[str, ...], location) -> list[Option]:
    return [Option((flag,), flag.lstrip("-").replace("-", "_"), False, "store_true", location) for flag in flags]


def _is_bool(annotation: ast.expr | None) -> bool:
    """`bool`, `Optional[bool]`, `bool | None`, `"bool"`."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.replace(" ", "") in ("bool", "Optional[bool]", "bool|None")
    if isinstance(annotation, ast.BinOp):
        return _is_bool(annotation.left) or _is_bool(annotation.right)
    if isinstance(annotation, ast.Subscript) and (dotted_name(annotation.value) or "").endswith("Optional"):
        return _is_bool(annotation.slice)
    return isinstance(annotation, ast.Name) and annotation.id == "bool"


# -- dataclasses (for HfArgumentParser) -----------------------------------------------------------


def _dataclasses(module: PythonModule, tree: ast.Module, locate: Locate) -> Iterator[Dataclass]:
    stack: list[tuple[str, ast.AST]] = [(MODULE_SCOPE, node) for node in tree.body]
    while stack:
        prefix, node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack += [(_qualname(prefix, node.name), child) for child in node.body]
        if not isinstance(node, ast.ClassDef):
            continue
        qualname = _qualname(prefix, node.name)
        stack += [(qualname, child) for child in node.body]
        decorators = [d.func if isinstance(d, ast.Call) else d for d in node.decorator_list]
        if not any(_qualified(module, d) in DATACLASS_DECORATORS for d in decorators):
            continue
        fields = [_field(statement, locate) for statement in node.body]
        known = tuple(f for f in fields if isinstance(f, DataField))
        bases = tuple(dotted_name(b) or "?" for b in node.bases)
        yield Dataclass(qualname, bases, known, complete=False not in fields)


def _field(statement: ast.stmt, locate: Locate) -> DataField | bool | None:
    """A field of a dataclass body; None for other statements, False when its flags are unknown."""
    if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
        return None
    annotation = statement.annotation
    outer = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    if (dotted_name(outer) or "").endswith(NOT_FIELDS):
        return None
    value = statement.value
    default, has_default, aliases = value, value is not None, ()
    if isinstance(value, ast.Call) and (dotted_name(value.func) or "").split(".")[-1] == "field":
        if _literal(keyword(value, "init")) is False:
            return None
        default = keyword(value, "default")
        has_default = default is not None or keyword(value, "default_factory") is not None
        aliases = _aliases(keyword(value, "metadata"))
        if aliases is None:
            return False
    default_true = isinstance(default, ast.Constant) and default.value is True
    boolean = _is_bool(statement.annotation)
    return DataField(statement.target.id, locate(statement), not has_default, boolean, default_true, aliases)


def _aliases(metadata: ast.expr | None) -> tuple[str, ...] | None:
    """The flags a field's `metadata={"aliases": ...}` adds, the only key HfArgumentParser makes a
    flag of (a computed `help` does not matter); None when they cannot be known: metadata that is
    not a dict display, a `**spread` in it, or aliases that are not a literal."""
    if metadata is None:
        return ()
    if type(metadata) is not ast.Dict:
        return None
    aliases: object = ()
    for key, value in zip(metadata.keys, metadata.values):
        if key is None:
            return None
        if type(key) is ast.Constant and key.value == "aliases":
            aliases = _literal(value)
    if isinstance(aliases, str):
        return (aliases,)
    if not isinstance(aliases, (list, tuple)):
        return None
    return tuple(a for a in aliases if isinstance(a, str))


# -- helpers --------------------------------------------------------------------------------------


def _vars_items(node: ast.expr, me: str) -> bool:
    """`vars(self).items()`."""
    if type(node) is not ast.Call or node.args or type(node.func) is not ast.Attribute or node.func.attr != "items":
        return False
    inner = node.func.value
    return (
        type(inner) is ast.Call and type(inner.func) is ast.Name and inner.func.id == "vars"
        and len(inner.args) == 1 and type(inner.args[0]) is ast.Name and inner.args[0].id == me
    )  # fmt: skip


# What an `add_argument` call of an attribute loop may pass besides its flags: nothing that
# changes which flags it has or how many words they take
ATTRIBUTE_KEYWORDS = frozenset({"default", "type", "help", "action", "metavar", "choices", "dest"})
_UNKNOWN = object()  # a value `_evaluate` (or a loop's variable `_bound_rounds`) cannot tell
# The fields a loop's flag fills by `%` or `.format` (`_formed`): no width, no attribute, no index
PERCENT_FIELDS = lazy(r"(?:[^%]|%[sd%])*")
BRACE_FIELDS = lazy(r"(?:[^{}]|\{\{|\}\}|\{\w*\})*")


def _attribute_adds(loop: ast.For, adds: Callable[[ast.expr], bool]) -> tuple | None:
    """`ArgParser.from_attributes` of a loop `for key, value in vars(self).items():`, its body
    run for each kind of attribute (named `_x` or not, a bool or not): what it adds to the parser
    (`adds`: whether a receiver is the parser). None where the body does what is not read: only
    assignments to names, `if`s whose test can be told (`key.startswith("_")`, `t == bool` of `t =
    type(value)`, `isinstance(value, bool)`), and `add_argument` calls of flags made of the key
    (`"--" + key`, `"-" + key[0:1]` of `key = key[1:]`) with a literal switch action or none are."""
    target = loop.target
    if loop.orelse or type(target) is not ast.Tuple or len(target.elts) != 2 or any(type(e) is not ast.Name for e in target.elts):
        return None
    key, value = (element.id for element in target.elts)
    table = []
    for private in (False, True):
        for boolean in (False, True):
            made: list[tuple] = []
            if not _run(loop.body, {key: ("key", 0), value: ("value",)}, (private, boolean), made, adds):
                return None
            table.append((private, boolean, tuple(made)))
    return tuple(table)


def _run(body: list[ast.stmt], names: dict[str, object], kind: tuple[bool, bool], made: list[tuple], adds: Callable[[ast.expr], bool]) -> bool:
    """Run an attribute loop's statements for an attribute of `kind` (`_attribute_adds`), the
    calls it makes in `made`; False where a statement is not read."""
    for statement in body:
        form = type(statement)
        if form is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name:
            names[statement.targets[0].id] = _evaluate(statement.value, names, kind)
        elif form is ast.If:
            test = _evaluate(statement.test, names, kind)
            if type(test) is not bool or not _run(statement.body if test else statement.orelse, names, kind, made, adds):
                return False
        elif form is ast.Expr and type(statement.value) is ast.Call:
            call = statement.value
            if type(call.func) is not ast.Attribute or call.func.attr != "add_argument" or not adds(call.func.value):
                return False
            flags = [_evaluate(argument, names, kind) for argument in call.args]
            given = keyword(call, "action")
            action = _literal(given) if given is not None else None
            if not flags or any(type(f) is not tuple or f[0] != "flag" for f in flags) or any(k.arg not in ATTRIBUTE_KEYWORDS for k in call.keywords):
                return False
            if given is not None and action not in ("store_true", "store_false"):
                return False
            made.append((tuple(f[1:] for f in flags), action))
        elif form is not ast.Pass:
            return False
    return True


def _evaluate(node: ast.expr, names: dict[str, object], kind: tuple[bool, bool]) -> object:
    """What an expression of an attribute loop's body is for an attribute of `kind`: a literal, a
    truth, ("key", letters skipped), ("letter", letters skipped) of the key's next letter,
    ("flag", dashes, letters skipped, the rest or one letter), ("value",) and ("type",) of it;
    else `_UNKNOWN`."""
    form = type(node)
    if form is ast.Constant:
        return node.value
    if form is ast.Name:
        return names.get(node.id, _UNKNOWN)
    if form is ast.UnaryOp and type(node.op) is ast.Not:
        operand = _evaluate(node.operand, names, kind)
        return not operand if type(operand) is bool else _UNKNOWN
    if form is ast.BoolOp:
        values = [_evaluate(each, names, kind) for each in node.values]
        if any(type(v) is not bool for v in values):
            return _UNKNOWN
        return all(values) if type(node.op) is ast.And else any(values)
    if form is ast.IfExp:
        test = _evaluate(node.test, names, kind)
        return _evaluate(node.body if test else node.orelse, names, kind) if type(test) is bool else _UNKNOWN
    if form is ast.Compare and len(node.ops) == 1 and type(node.ops[0]) in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot):
        sides = (node.left, node.comparators[0])
        if any(type(s) is ast.Name and s.id == "bool" for s in sides) and any(_evaluate(s, names, kind) == ("type",) for s in sides):
            return kind[1] == (type(node.ops[0]) in (ast.Eq, ast.Is))
        return _UNKNOWN
    if form is ast.Call:
        func, args = node.func, node.args
        if node.keywords or type(func) not in (ast.Name, ast.Attribute):
            return _UNKNOWN
        if type(func) is ast.Name and func.id == "type" and len(args) == 1 and _evaluate(args[0], names, kind) == ("value",):
            return ("type",)
        if type(func) is ast.Name and func.id == "isinstance" and len(args) == 2 and _evaluate(args[0], names, kind) == ("value",):
            return kind[1] if type(args[1]) is ast.Name and args[1].id == "bool" else _UNKNOWN
        if type(func) is ast.Attribute and func.attr == "startswith" and len(args) == 1 and _literal(args[0]) == "_":
            return kind[0] if _evaluate(func.value, names, kind) == ("key", 0) else _UNKNOWN
        return _UNKNOWN
    if form is ast.Subscript:
        held, index = _evaluate(node.value, names, kind), node.slice
        if type(held) is not tuple or held[0] != "key":
            return _UNKNOWN
        if type(index) is ast.Slice and index.step is None and index.upper is None and type(_literal(index.lower)) is int:
            return ("key", held[1] + _literal(index.lower)) if _literal(index.lower) >= 0 else _UNKNOWN
        if type(index) is ast.Slice and index.step is None and _literal(index.lower) in (None, 0) and _literal(index.upper) == 1:
            return ("letter", held[1])
        return ("letter", held[1]) if type(index) is ast.Constant and index.value == 0 else _UNKNOWN
    if form is ast.BinOp and type(node.op) is ast.Add:
        left, right = _evaluate(node.left, names, kind), _evaluate(node.right, names, kind)
        if left in ("-", "--") and type(right) is tuple and right[0] in ("key", "letter"):
            return ("flag", left, right[1], right[0] == "key")
    return _UNKNOWN


def _iterated(node: ast.expr) -> list[ast.expr] | range | None:
    """What `for ... in node` takes each time round, when static: the elements of a literal
    tuple or list (no `*rest`), the numbers of `range()` of literal ints; at most `MAX_ROUNDS`."""
    if type(node) in (ast.Tuple, ast.List):
        elements = node.elts
        return elements if len(elements) <= MAX_ROUNDS and all(type(e) is not ast.Starred for e in elements) else None
    if type(node) is not ast.Call or type(node.func) is not ast.Name or node.func.id != "range" or node.keywords:
        return None
    bounds = [_literal(a) for a in node.args]
    if not 1 <= len(bounds) <= 3 or any(type(b) is not int for b in bounds) or bounds[2:] == [0]:
        return None
    numbers = range(*bounds)
    return numbers if len(numbers) <= MAX_ROUNDS else None


def _leaves_early(body: list[ast.stmt]) -> bool:
    """Whether a loop's body has a `break`, `continue` or `return` of its own (not of a loop or a
    function in it)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Break or kind is ast.Continue or kind is ast.Return:
            return True
        if kind not in (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            stack += child_nodes(node)
    return False


def _bound_rounds(loop: ast.For) -> list[dict[str, object]]:
    """The values of a `for` loop's variables each time round (`_looped`): a string, number or
    bool of a literal list (`for prefix in ("actor", "critic")`, `for name, kind in (("lr",
    float), ...)`: `kind` not known) or of `range()`; one round with them all `_UNKNOWN` for
    any other loop, or one whose body assigns them."""
    names = [n.id for n in _nodes(loop.target) if type(n) is ast.Name]
    items = _iterated(loop.iter)
    if items is None or any(
        type(n) is ast.Name and n.id in names and type(n.ctx) is not ast.Load for statement in loop.body for n in _nodes(statement)
    ):
        return [dict.fromkeys(names, _UNKNOWN)]
    return [_bound(loop.target, item) for item in items]


def _bound(target: ast.expr, item: ast.expr | int) -> dict[str, object]:
    """What a loop's target takes from one item of its literal list (`_bound_rounds`)."""
    if type(target) is ast.Name:
        value = item if type(item) is int else _literal(item)
        return {target.id: value if type(value) in (str, int, float, bool) else _UNKNOWN}
    if (
        type(target) in (ast.Tuple, ast.List) and type(item) in (ast.Tuple, ast.List) and len(item.elts) == len(target.elts)
        and all(type(e) is not ast.Starred for e in (*target.elts, *item.elts))
    ):  # fmt: skip
        return {name: value for each, element in zip(target.elts, item.elts) for name, value in _bound(each, element).items()}
    return dict.fromkeys((n.id for n in _nodes(target) if type(n) is ast.Name), _UNKNOWN)


def _formed(node: ast.expr | None, names: dict[str, object]) -> object:
    """A value an `add_argument` call in loops passes, their variables given (`_bound_rounds`): a
    variable, a string made of them (`f"--{prefix}.lr"` with no format spec, `"--" + name`,
    `"--%s" % name`, `"--{}".format(name)`), else a literal; None when not static."""
    kind = type(node)
    if kind is ast.Name:
        value = names.get(node.id, _UNKNOWN)
        return None if value is _UNKNOWN else value
    if kind is ast.JoinedStr:
        parts = [
            part.value if type(part) is ast.Constant
            else _formed(part.value, names) if part.format_spec is None and part.conversion in (-1, ord("s"))
            else None
            for part in node.values
        ]  # fmt: skip
        return "".join(map(str, parts)) if None not in parts else None
    if kind is ast.BinOp and type(node.op) in (ast.Add, ast.Mod):
        left = _formed(node.left, names)
        right = node.right.elts if type(node.op) is ast.Mod and type(node.right) is ast.Tuple else [node.right]
        values = tuple(_formed(each, names) for each in right)
        if type(left) is not str or None in values:
            return None
        if type(node.op) is ast.Add:
            return left + values[0] if type(values[0]) is str else None
        if not PERCENT_FIELDS.fullmatch(left):
            return None
        try:
            return left % values
        except (TypeError, ValueError):
            return None
    if kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "format":
        template = _literal(node.func.value)
        values = tuple(_formed(each, names) for each in node.args)
        given = {k.arg: _formed(k.value, names) for k in node.keywords}
        if type(template) is not str or not BRACE_FIELDS.fullmatch(template) or None in values or None in given or None in given.values():
            return None
        try:
            return template.format(*values, **given)
        except (IndexError, KeyError):
            return None
    return _literal(node)


def _is_super(node: ast.expr) -> bool:
    """`super()`."""
    return type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == "super" and not node.args


def _attributes_before(scope: Scope, call: ast.Call, locate: Locate) -> tuple[tuple[str, bool, object], ...] | None:
    """The attributes of `self` a method sets before its statement `super().__init__(...)`
    (`ArgParser.attributes`): (name, whether a bool, where), in the order `vars(self)` has them.
    () when it sets none; None when it sets one and the set cannot all be told: a value that is
    no literal (nor an attribute set before: `self.max_steps = self.iterations`), a statement
    that may set others (a loop, an `if`, a call given `self`), or the call in a block of its own."""
    body = scope.node.body
    at = next((i for i, statement in enumerate(body) if type(statement) is ast.Expr and statement.value is call), None)
    found: dict[str, tuple[str, bool, object]] = {}
    known = at is not None
    for statement in body[:at]:
        kind = type(statement)
        targets = statement.targets if kind is ast.Assign else [statement.target] if kind is ast.AnnAssign else []
        target = targets[0] if len(targets) == 1 else None
        if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == scope.params[0]:
            value = statement.value  # a literal, or an attribute set before (`self.max_steps = self.iterations`)
            copied = found.get(value.attr) if type(value) is ast.Attribute and type(value.value) is ast.Name and value.value.id == target.value.id else None
            boolean = copied[1] if copied is not None else _literal_bool(value)
            if boolean is None:
                known = False
            else:  # set again: its place is the first's, its value the last's
                found[target.attr] = (target.attr, boolean, found[target.attr][2] if target.attr in found else locate(statement))
        elif kind is not ast.Pass and not (kind is ast.Expr and type(statement.value) is ast.Constant):
            known = known and not any(type(n) is ast.Name and n.id == scope.params[0] for n in _nodes(statement)) and kind in (ast.Assign, ast.Expr)
    if not found:
        return ()
    return tuple(found.values()) if known else None


def _literal_bool(node: ast.expr | None) -> bool | None:
    """Whether a literal is a bool (`type(value) == bool`): False for any other (a number, a
    string, None, a list, dict, tuple or set display, `-1`); None for what is no literal."""
    kind = type(node)
    if kind is ast.Constant:
        return type(node.value) is bool
    if kind is ast.UnaryOp and type(node.operand) is ast.Constant and type(node.op) in (ast.USub, ast.UAdd):
        return False
    return False if kind in (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.JoinedStr) else None


def _local_def(scope: Scope, func: ast.expr) -> Scope | None:
    """The module's own function a plain name calls, looked up through enclosing functions."""
    if type(func) is not ast.Name:
        return None
    name = func.id
    current: Scope | None = scope
    while current is not None:
        if name in current.defs:
            return current.defs[name]
        current = current.parent
    return None


def _returned_argument(helper: Scope, call: ast.Call) -> ast.expr | None:
    """The argument of the call that the helper returns, when each of its `return`s hands back
    the same parameter (mLoRA's `_add_base_cmd(parser)`, called with two parsers: the second
    call's value is its own parser, not the first's)."""
    returned = {
        node.value.id if type(node.value) is ast.Name else None for node in helper.nodes or () if type(node) is ast.Return
    }
    if len(returned) != 1 or None in returned:
        return None
    (name,) = returned
    return next((argument for param, argument in _bound_arguments(helper, call) if param == name), None)


def _bound_arguments(helper: Scope, call: ast.Call) -> Iterator[tuple[str, ast.expr]]:
    """(parameter, argument) pairs a call binds; `*args` and `**kw` bind nothing we can name."""
    for position, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred) or position >= len(helper.params):
            return
        yield helper.params[position], argument
    for named in call.keywords:
        if named.arg in helper.params:
            yield named.arg, named.value


def _forwards(params: ast.arguments, call: ast.Call) -> bool:
    """Whether a call passes a lambda's parameters as it takes them: its positional ones in their
    order, then `*args`, and `**kwargs` (`lambda *a, **k: parser.add_argument(*a, **k)`); none
    with a default (`lambda flag, required=False:` would take what its callers' words say)."""
    names = [p.arg for p in (*params.posonlyargs, *params.args)]
    given = [a.id if type(a) is ast.Name else None for a in call.args]
    if params.vararg is not None:
        last = call.args[-1] if call.args else None
        names.append(params.vararg.arg)
        given[-1:] = [last.value.id] if type(last) is ast.Starred and type(last.value) is ast.Name else [None]
    kwargs = [params.kwarg.arg] if params.kwarg is not None else []
    spread = [k.value.id if k.arg is None and type(k.value) is ast.Name else None for k in call.keywords]
    return not params.kwonlyargs and not params.defaults and given == names and spread == kwargs


def _position(call: ast.Call, argument: ast.expr) -> int | str | None:
    """Where a call passes `argument`: its position, or its keyword; None inside `*args`, a list."""
    for position, given in enumerate(call.args):
        if type(given) is ast.Starred:
            return None
        if given is argument:
            return position
    return next((k.arg for k in call.keywords if k.value is argument and k.arg), None)


def _provider(scope: Scope, func: ast.expr) -> str | None:
    """The parameter of the function a call calls, when it calls what the parameter holds as it
    was given (Megatron's `parser = extra_args_provider(parser)`), not another value assigned to it."""
    name = func.id if type(func) is ast.Name and func.id in scope.params else None
    if name is None or any(type(node) is ast.NamedExpr and node.target.id == name for node in scope.nodes):
        return None
    assigned = (
        target for node in scope.nodes if type(node) in (ast.Assign, ast.AnnAssign, ast.AugAssign)
        for target in (node.targets if type(node) is ast.Assign else [node.target])
    )  # fmt: skip
    return None if any(type(target) is ast.Name and target.id == name for target in assigned) else name


def _one_argument_arm(node: ast.AST, call: ast.Call) -> bool:
    """Whether the call is in the body of an `if` of `node` that asks for one argument:
    `if len(sys.argv) == 2 and sys.argv[1].endswith(".json"):`, as HF's example trainers do
    before `parse_json_file`, whose `else:` parses the command line."""
    line = getattr(call, "lineno", 0)
    return any(
        type(statement) is ast.If
        and statement.body[0].lineno <= line <= (statement.body[-1].end_lineno or 0)
        and any(_counts_one_argument(each) for each in _nodes(statement.test))
        for statement in _nodes(node)
    )


def _counts_one_argument(node: ast.AST) -> bool:
    """`len(sys.argv) == 2`."""
    if type(node) is not ast.Compare or len(node.ops) != 1 or type(node.ops[0]) is not ast.Eq:
        return False
    left, right = node.left, node.comparators[0]
    return (
        type(left) is ast.Call
        and dotted_name(left.func) == "len"
        and len(left.args) == 1
        and dotted_name(left.args[0]) in ("sys.argv", "argv")
        and type(right) is ast.Constant
        and right.value == 2
    )


def _arguments(call: ast.Call, named: set[str]) -> list[ast.expr]:
    """What a call passes that may be a parser, the flow settled: its arguments (a starred one's
    value, a list or tuple display's elements) that `_may_hold` one; the others need no lookup."""
    args, keywords = call.args, call.keywords  # each field read once: a lookup in the node's __dict__
    if not args and not keywords:
        return []
    found = []
    # No comprehension (a function call) for a call without keywords: with `_option`'s lists, -8 M
    # instructions of 1,013 on a third of the 1,000-file benchmark.
    for argument in [*args, *[k.value for k in keywords]] if keywords else args:
        if type(argument) is ast.Starred:
            argument = argument.value
        if type(argument) is ast.List or type(argument) is ast.Tuple:
            found += [element for element in argument.elts if _may_hold(element, named)]
        elif _may_hold(argument, named):
            found.append(argument)
    return found


def _may_hold(expr: ast.expr | None, named: set[str]) -> bool:
    """Whether `value` may find a parser (or an adder) in an expression once the flow is settled:
    it is of a kind `value` finds one in, and not a name, nor an attribute (but `add_argument`),
    that no variable holding one has (not in `named`: `LOG`, `args.lr`); the others need no lookup."""
    kind = type(expr)
    if kind is ast.Name:  # the most, and most hold nothing
        return expr.id in named
    if kind is ast.Attribute:  # `self.parser`, not `args.lr` nor `torch.nn`
        attr = expr.attr
        return attr == "add_argument" or attr in named
    return kind in VALUED


def _literal(node: ast.expr | None) -> object:
    if node is None:
        return None
    if type(node) is ast.Constant:  # the most literals: what literal_eval returns for them
        return node.value
    import ast as full  # the module: rare, for a list or a negative number

    try:
        return full.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None


def _spelled(module: PythonModule, node: ast.expr | None) -> str | None:
    """A literal as its string (`'?'` -> `?`, `2` -> `2`), else the qualified name, else None."""
    value = _literal(node)
    if isinstance(value, (str, int)):
        return str(value)
    dotted = dotted_name(node) if node is not None else None
    return module.qualified(dotted) if dotted else None


def _spelled_literal(call: ast.Call, name: str) -> str | None:
    value = _literal(keyword(call, name))
    return str(value) if isinstance(value, (str, int)) else None


def _qualified(module: PythonModule, node: ast.expr) -> str | None:
    dotted = dotted_name(node)
    return module.qualified(dotted) if dotted else None


# A module that only adds to a parser it is given (`def add_args(parser)`) spells `add_argument`;
# one that parses with a parser an imported function builds (`build_parser().parse_args()`, see
# `_built`) spells that function's call.
class _FireReader:
    """`fire.Fire(main)` of a function the module defines (python-fire): its parameters are the
    program's flags, `--name` with any number of leading dashes and `-` for `_`, `--noname`, and
    a parameter's first letter. Not a function that returns a value (fire
    goes on with it: `--epochs 2` may be a member's), takes `**kwargs`, or is decorated; nor a
    class, a dict or `fire.Fire()` of the whole module."""

    def __init__(self, module: PythonModule, scopes: list[Scope], locate: Locate) -> None:
        self.module = module
        self.scopes = scopes
        self.locate = locate

    def read(self) -> list[ArgParser]:
        return [
            program
            for scope in self.scopes
            for node in scope.nodes
            if type(node) is ast.Call and _qualified(self.module, node.func) == FIRE and len(node.args) == 1 and not node.keywords
            for program in [self._program(scope, node)]
            if program is not None
        ]

    def _program(self, scope: Scope, call: ast.Call) -> ArgParser | None:
        target = _local_def(scope, call.args[0])
        node = target.node if target is not None else None
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        where = self.locate(node)
        parser = ArgParser(node.name, target.qualname, where, kind="fire", allow_abbrev=False, parsed_in=(scope.qualname,))
        args = node.args
        names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        returns = any(type(n) is ast.Return and n.value is not None and not _is_none(n.value) for n in target.nodes)
        parser.complete = not (args.kwarg or node.decorator_list or returns)
        for name in names:
            spellings = {name, name.replace("_", "-")}
            flags = (*(f"--{s}" for s in spellings), *(f"-{s}" for s in spellings), f"--no{name}")
            parser.options.append(Option(tuple(sorted(flags)), name, False, None, where, "?"))
        for letter in {n[0] for n in names}:  # one several start with: fire's own start-up error, not judged
            parser.options.append(Option((f"-{letter}",), letter, False, None, where, "?"))
        return parser


FIRE = "fire.Fire"


def _is_none(node: ast.expr) -> bool:
    return type(node) is ast.Constant and node.value is None


READERS = (
    # `.parse_args(`: a parser another module made (`from opts import parser`), parsed here
    (("ArgumentParser", "add_argument", "parser(", "Parser(", ".parse_args(", ".parse_known_args(", HANDS_UP), _ArgparseReader),
    (("click",), _ClickReader),
    (("typer",), _TyperReader),
    (("fire",), _FireReader),
)
