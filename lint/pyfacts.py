"""Facts the Python front end extracts from one module: what rules read instead of a syntax tree.

Everything here is plain data (no ast nodes), so facts can cross process boundaries and be cached.
Expressions are kept as *dotted strings* as written (`self.model`, `m.f`, `compile_fn`); inside a
method the first parameter is spelled `self` whatever its name. Names are resolved against the
module's imports by `PythonModule.qualified`; resolving them across scopes and modules is the
project analysis' job (`launchlint.threads`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .model import Location, Record

MODULE_SCOPE = "<module>"  # the qualname of a module's top-level code

TYPE_CHECKING = False  # as typing's, which costs 3 ms to import
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

# Grad modes of a call (Call.grad_mode); None means "whatever the caller had".
NO_GRAD = "no_grad"
INFERENCE_MODE = "inference_mode"
GRAD = "grad"  # explicitly enabled: torch.enable_grad(), set_grad_enabled(True)

COMPILE_APIS = frozenset({"torch.compile", "torch.compiler.compile"})  # (f, **options) -> compiled f
MODULE_COMPILE = "nn.Module.compile"  # the api of `model.compile()`, which compiles `model(x)` in place
PATH_OPEN = "pathlib.Path.open"  # the callee of `Path(p).open(mode)`, whose arguments are `(p, mode)`

LOCK_CONSTRUCTORS = frozenset(
    {
        "threading.Lock",
        "threading.RLock",
        "threading.Semaphore",
        "threading.BoundedSemaphore",
        "threading.Condition",
        "_thread.allocate_lock",
        "multiprocessing.Lock",
        "multiprocessing.RLock",
    }
)
# Counting locks: `Semaphore(n)` lets n threads hold it at once (`value`, its first parameter; 1
# when not given). Only a count of 1 serialises the threads, as a lock does.
SEMAPHORES = frozenset({"threading.Semaphore", "threading.BoundedSemaphore"})


UNPACKED = ("*", "**")  # the keywords `Call` gives an argument unpacked into it
ARGV_SLICE = "sys.argv[{}:]"  # how `Call` describes the process's arguments from the k-th on


def argv_from(described: str) -> int | None:
    """k of an argument `Call` describes as `sys.argv[k:]`, else None."""
    if not described.startswith("sys.argv[") or not described.endswith(":]"):
        return None
    lower = described[9:-2]
    return int(lower) if lower.isdigit() else None


class Call(Record):
    """One call expression and the context it runs in.

    `args` and `keywords` describe each argument: a dotted name, a literal's repr (`8`, `True`,
    `'store_true'`), a lambda's qualname, the function of a `functools.partial(f, ...)`, a slice
    of the process's arguments as written (`sys.argv[1:]`, `sys.argv[2:]`: `argv_from`), or "".
    An argument unpacked into the call is a keyword named `*` (`f(*rest)`; its place in `args`
    is "") or `**` (`f(**kwargs)`): which parameters it binds is not known.
    `held` lists what the call runs under, innermost last: `with X:` items and objects whose
    `.acquire()` came earlier in the function without a `.release()`; a `with f(...):` item is
    spelled `f()`. `loops` is how many times the enclosing `for ... in range(N)` loops and
    comprehensions run it (1 outside loops), None when some loop's length is not static.
    """

    callee: str  # "" when the called expression is not a dotted name
    location: Location
    args: tuple[str, ...] = ()
    keywords: tuple[tuple[str, str], ...] = ()
    held: tuple[str, ...] = ()
    grad_mode: str | None = None
    loops: int | None = 1

    def keyword(self, name: str) -> str | None:
        return next((value for key, value in self.keywords if key == name), None)

    @property
    def unpacks(self) -> bool:
        """Whether an argument is unpacked into it (`f(*rest)`, `f(**kwargs)`)."""
        return any(key in UNPACKED for key, _ in self.keywords)

    def passed(self, name: str, index: int) -> str | None:
        """What the call passes to the parameter `name` at position `index` (-1: keyword-only),
        described as `args` are; None when it passes none, or an unpacked argument may hold it."""
        found = self.keyword(name)
        if found is not None:
            return found
        if self.unpacks:
            return None
        return self.args[index] if 0 <= index < len(self.args) else None

    def argument(self, name: str, index: int) -> str:
        """The argument passed to parameter `name`, by keyword or at position `index`; "" when
        none is (or `index` is negative: a parameter that cannot be passed by position)."""
        found = self.keyword(name)
        if found is not None:
            return found
        return self.args[index] if 0 <= index < len(self.args) else ""


def admits(constructor: str, call: Call) -> int | None:
    """How many threads at once can hold a lock made by `call` of `constructor` (qualified, one
    of LOCK_CONSTRUCTORS): a semaphore's count when it is an int literal (`Semaphore(4)`: 4; 1
    when not given), None when it is not one (`Semaphore(n)`); 1 for every other lock."""
    if constructor not in SEMAPHORES:
        return 1
    count = call.argument("value", 0)
    if not count:
        return 1
    return int(count) if count.isdigit() else None


class Function:
    """A def, a lambda, or the module's top-level code (qualname `<module>`).

    Calls made in a class body belong to the function (or module) the class is defined in.
    """

    def __init__(
        self,
        qualname: str,
        location: Location,
        parent: str | None,
        class_name: str | None,
        params: tuple[str, ...] = (),
        local_names: frozenset[str] = frozenset(),
        is_method: bool = False,
        calls: list[Call] | None = None,
        decorators: tuple[str, ...] = (),
        holds: tuple[str, ...] = (),
        defaults: tuple[str, ...] = (),
        keyword_only: int = 0,
    ) -> None:
        self.qualname = qualname  # "train", "Trainer.run", "main.worker", "main.<lambda:12:30>"
        self.location = location
        self.parent = parent  # the enclosing function (closures), None at module or class level
        self.class_name = class_name  # the class `self` refers to in this function, if any
        self.params = params  # positional then keyword-only (no *args, **kwargs)
        self.local_names = local_names  # assigned here (not global/nonlocal) + params
        self.is_method = is_method  # defined in a class body and not a staticmethod
        self.calls = [] if calls is None else calls
        self.decorators = decorators  # the dotted ones, as written (`jit_fuser`, `torch.no_grad`)
        # Everything it holds at some point, spelled as in `Call.held` (`with self._lock:`, an
        # `.acquire()`), even with no call under it: what a context manager's `__enter__` or a
        # `@contextmanager` around its `yield` holds for the caller's block.
        self.holds = holds
        # each parameter's default as `Call.args` describes an argument (`None`, `False`, a name),
        # "" where it has none or another; () when none of them has one
        self.defaults = defaults
        self.keyword_only = keyword_only  # how many of the last of `params` only a keyword can pass

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]

    def position(self, param: str) -> int:
        """The position a call passes `param` at; -1 when only a keyword can pass it."""
        index = self.params.index(param)
        return index if index < len(self.params) - self.keyword_only else -1

    def default(self, param: str) -> str:
        """The default of `param`, described (`defaults`); "" when it has none or another."""
        return self.defaults[self.params.index(param)] if self.defaults else ""


class Class(Record):
    qualname: str
    location: Location
    bases: tuple[str, ...]  # dotted, as written
    function: str  # where the class statement runs
    decorators: tuple[str, ...] = ()  # the dotted ones, as written (`support_torch_compile`)


class Binding(Record):
    """`name = value` (or `self.name = value`, `with value as name`; `cls.__call__ = value` of a
    function's first parameter, a class decorator installing a `__call__`, named `cls.__call__`):
    one assignment.

    A binding lives in a *scope*: a function's qualname, `<module>`, or a class qualname for class
    attributes and `self.` attributes assigned in its methods. `function` is where it executes.
    `value` is the dotted value, or for a call its callee (then `call` is set); "" when unknown.
    """

    scope: str
    name: str
    function: str
    location: Location
    value: str
    call: Call | None = None


class CompileSite(Record):
    """Where `torch.compile` (or `torch.compiler.compile`, `torch._dynamo.optimize`,
    `nn.Module.compile()`) runs.

    The result is bound to `scope`/`name` (a decorated def, `x = torch.compile(f)`,
    `self.model = torch.compile(model)`, `model.compile()` in place), returned from `function`
    (`returned`), or called on the spot (`call`, for `torch.compile(f)(x)`).
    """

    location: Location
    api: str  # "torch.compile", "torch.compiler.compile", "torch._dynamo.optimize", "nn.Module.compile"
    compiled: str  # what is compiled, as written ("" when not a dotted name)
    function: str  # where the compile call executes
    scope: str | None = None
    name: str | None = None
    returned: bool = False
    call: Call | None = None
    fullgraph: bool = False
    mode: str | None = None
    backend: str = ""  # the `backend=` passed (`optimize`'s first argument), described as `Call.args`


class ThreadEntry(Record):
    """A place that hands a callable to another thread, or to another process.

    kind: `thread` (threading.Thread), `timer` (threading.Timer), `to_thread` (asyncio.to_thread),
    `executor` (loop.run_in_executor), `submit` / `map` (a method of `pool`, which the project
    analysis must confirm is a thread pool); for a process (PROCESS_KINDS, kept apart in
    `PythonModule.process_entries`): `process` (`multiprocessing.Process`, also a context's, of
    `multiprocessing.get_context(...)`, and torch.multiprocessing's), `initializer` (what a
    process pool's workers run first: `multiprocessing.Pool`, `ProcessPoolExecutor`) and `ray`
    (`ray.remote(target)`, `ray.remote(num_gpus=1)(target)` or a def or class decorated with
    either: a Ray task's function, or an actor's class, whose methods all run in the actor).

    `target` is described like a call argument (a method of an instance made on the spot as
    `Worker().loop`); `args` are the arguments passed to it, described the same way, except that
    an object made for the thread is spelled as its constructor's call: `Lock()` as
    `threading.Lock()`, and so is `locks[i]` of a list made of them. `call` is the spawning call
    itself.
    """

    kind: str
    target: str
    function: str
    call: Call
    args: tuple[str, ...] = ()
    pool: str | None = None
    context: bool = False  # started through `contextvars.copy_context().run`: the target is its first argument
    keywords: tuple[tuple[str, str], ...] = ()  # `kwargs={"fn": f}`, `submit(g, fn=f)`: (name, as `args`)

    @property
    def location(self) -> Location:
        return self.call.location


PROCESS_KINDS = frozenset({"process", "initializer", "ray"})  # the ThreadEntry kinds that start processes


class StreamRedirect(Record):
    """The program sends its own stdout or stderr elsewhere: `sys.stdout = x`, `os.dup2(fd, 1)`,
    `contextlib.redirect_stdout(x)`.

    `target` is where the stream goes, described like a call argument (`f.fileno()` as `f`); when
    it is a call (`open("train.log", "w")`), `call` is its fact, and `opens` the fact of a call
    that makes its first argument (`os.open(...)` of `os.fdopen(os.open("o.log", flags))`).
    """

    stream: str  # "stdout" | "stderr"
    api: str  # "sys.stdout =", "os.dup2", "contextlib.redirect_stdout", ...
    function: str
    location: Location
    target: str
    call: Call | None = None
    opens: Call | None = None
    # the tests of the `if`s of its function it runs in the body of (an `and`'s parts each) that
    # read an attribute of a name (not a method's `self`), as (attribute, operator, literal):
    # operator "" for the truth of `args.redirect`, "is not" (with None), "!=" or "==" with a
    # constant (`args.out != ""`)
    guards: tuple[tuple[str, str, object], ...] = ()


class ConfigOverride(Record):
    """A dynamo/inductor setting changed for the thread that runs `function`:
    `torch._dynamo.config.X = v`, `with torch._inductor.config.patch(X=v):`, and for
    `@torch._dynamo.config.patch(...)` the decorated function.

    `scope` is where a setting made only for a while lasts: the `with` statement that enters the
    patch (as its item, as a name bound to it, or through `s.enter_context(...)` of the `with
    ExitStack() as s:` around it), the def a patch decorates, or the def of a `@contextmanager`
    that sets the setting, yields and sets it again (restores it): there it lasts over the `with`
    blocks that enter it. None: the setting lasts (an assignment, a patch entered otherwise)."""

    config: str  # "torch._dynamo.config" | "torch._inductor.config"
    keys: tuple[str, ...]  # the settings changed; () when they are not static
    function: str
    location: Location
    scope: Location | None = None


# The decorators making a generator function a context manager (its `yield` is the `with` block)
CONTEXT_MANAGER_DECORATORS = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})

# The methods of a parser (argparse's, HfArgumentParser's, TrlParser's) that parse a command line
PARSE_METHODS = frozenset(
    {"parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args",
     "parse_args_into_dataclasses", "parse_args_and_config"}
)  # fmt: skip


class Option(Record):
    """One `add_argument` of an argparse parser (or a click/typer parameter, an HF dataclass field)."""

    flags: tuple[str, ...]  # ("--lr", "-l"), or ("lr",) for a positional
    dest: str
    required: bool
    action: str | None  # a literal action ('store_true'), else its qualified name
    location: Location
    nargs: str | None = None  # "?", "+", "*", "2", "argparse.REMAINDER"; None: what the action takes
    group: str = ""  # the required mutually exclusive group it is in (where it is made), "" for none
    # required (or its group) where the launch passes none of these flags of its parser: it is added
    # in an `if` whose test reads them (`if not args.skip_training:`), true when they are not passed
    unless: tuple[str, ...] = ()
    # what argparse gives its dest when none of its flags is passed, as a 1-tuple (`(None,)`,
    # `(False,)` of a `store_true`, a constant `default=`); () when that is not known
    default: tuple = ()
    # a field of a library's dataclass known from a table of every release (lint/hfargs.py): a
    # prefix it shares with another flag is one some release took for the other alone
    library: bool = False


# A flag an `add_argument` call makes of an attribute's name: its dashes, the letters of the name
# it skips, and the rest (True) or the next letter alone (False): `_x` gives `--x` with ("--", 1,
# True), `-x` with ("-", 1, False)
AttributeFlag = tuple[str, int, bool]
AttributeAdd = tuple[tuple[AttributeFlag, ...], str | None]  # a call's flags and action (None: it takes a value)


class ArgParser:
    """An `argparse.ArgumentParser` and what the module adds to it; also an `HfArgumentParser`
    (its dataclasses' fields are resolved by the project), a click command or group, a typer app.

    `complete` is False when some option strings are not static or the parser is handed to code
    outside the module (but a project function it imports: `handed`), so an absent flag proves
    nothing. A `parameter` parser is a function's parameter it adds options to (`def
    add_args(parser): parser.add_argument(...)`): what another module hands it gets them. A
    `built_by` parser is what an imported `get_parser()` returned: that function's (`returned_in`);
    `built_parents` name the imported functions whose parsers it copies (`parents=[make_parser()]`).
    An imported function is named qualified (`pkg.opts.add_args`), or as called when a `from m
    import *` may have brought it (a bare name: qualified names have a dot).
    `provided` names a function's parameter it is handed to, called (Megatron's
    `extra_args_provider(parser)`): the project follows the calls of that function to what they
    pass (launchlint.programs).
    `methods` are the methods of `self` a method hands it to (`self.initialize(parser)` in an
    options class, pix2pix's `BaseOptions`): the project resolves them in the class of the instance
    the program makes (`TrainOptions().parse()`, launchlint.programs).
    """

    def __init__(
        self,
        name: str,
        function: str,
        location: Location,
        options: list[Option] | None = None,
        allow_abbrev: bool = True,
        add_help: bool = True,
        parse_known_args: bool = False,
        complete: bool = True,
        subcommand: str | None = None,
        kind: str = "argparse",
        parsed_in: tuple[str, ...] = (),
        commands: dict[str, ArgParser] | None = None,
        open_commands: bool = False,
        dataclasses: tuple[str, ...] = (),
        reads_files: bool = False,
        reads_one_file: bool = False,
        parameter: tuple[int, str] | None = None,
        handed: tuple[tuple[str, int | str], ...] = (),
        handed_either: tuple[tuple[tuple[str, ...], int | str], ...] = (),
        built_by: str | None = None,
        returned_in: tuple[str, ...] = (),
        built_parents: tuple[str, ...] = (),
        methods: tuple[tuple[str, int | str, bool], ...] = (),
        kept_on: tuple[str, ...] = (),
        parsed_on_import: bool = False,
        help_flags: tuple[str, ...] | None = None,
        argv_skip: int | None = None,
        by_hand: tuple[str, ...] = (),
        chain: bool = False,
        on_self: str | None = None,
        provided: tuple[tuple[str, str, int | str], ...] = (),
        known_if: tuple[tuple[str, str], ...] = (),
        from_attributes: tuple[tuple[bool, bool, tuple[AttributeAdd, ...]], ...] | None = None,
        attributes: tuple[tuple[str, bool, Location], ...] | None = None,
        argv_in: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.name = name  # the variable it is bound to
        self.function = function
        self.location = location
        self.options = [] if options is None else options
        self.allow_abbrev = allow_abbrev
        self.add_help = add_help  # `-h`/`--help`: False for `ArgumentParser(add_help=False)`
        self.parse_known_args = parse_known_args
        self.complete = complete
        self.subcommand = subcommand  # for `subparsers.add_parser("train")`
        self.kind = kind  # argparse | hf | click | typer
        self.parsed_in = parsed_in  # functions that parse the process's own arguments with it
        self.commands = {} if commands is None else commands  # subcommand -> its parser
        self.open_commands = open_commands  # some subcommand's name is not static
        self.dataclasses = dataclasses  # HfArgumentParser: its dataclasses, dotted as written
        self.reads_files = reads_files  # values can also come from files (`@args.txt`, HF's parse_json_file)
        # from a file only when it is the command line's one argument: HF's examples' `if
        # len(sys.argv) == 2 and sys.argv[1].endswith(".json"): parser.parse_json_file(...)`
        self.reads_one_file = reads_one_file
        self.parameter = parameter  # (position, name) of the parameter of `function` it stands for
        self.handed = handed  # (imported function, qualified; the position or keyword it is passed at)
        # as `handed`, to a function whose name is imported from two modules (in an if's arms, a
        # `try:` and its `except:`): one of them, whichever import ran
        self.handed_either = handed_either
        self.built_by = built_by  # the imported function (qualified) that returned it: `get_parser()`
        self.returned_in = returned_in  # the functions of its module that return it
        self.built_parents = built_parents  # imported functions (qualified) that built its parents
        # (method, the parameter's position or keyword, after `super()`) of the instance a method
        # hands it to (`self.initialize(parser)`): which method runs is the instance's class's
        self.methods = methods
        # attributes of `self` a method keeps it in (`self.parser = parser`), with no code of the
        # module adding to it through them: the project checks the instance's other classes
        self.kept_on = kept_on
        # parsed at the module's top level, not under `if __name__ == "__main__":`: importing the
        # module parses the process's arguments (`from config import args`)
        self.parsed_on_import = parsed_on_import
        # a click command's help options as its `context_settings` name them (`help_option_names`,
        # its group's too); None: the default of its kind (argparse `-h`/`--help`, click `--help`)
        self.help_flags = help_flags
        # the arguments its parse passes over: 1 for `parse_args(sys.argv[2:])` (a mode word
        # first); None when it parses none of the process's, -1 when its parses differ
        self.argv_skip = argv_skip
        # flags its module takes from the process's arguments itself, before this parser sees them
        # (`if "--remote" in sys.argv: submit(); sys.exit()`, `sys.argv.remove("--debug")`)
        self.by_hand = by_hand
        # a click group made with `chain=True`: its command line runs several of its commands,
        # each one's words after the last's (`main.py net --depth 3 dataset --batch_size 8`)
        self.chain = chain
        # a stand-in for the parser a method's class keeps in `self.<on_self>`, made elsewhere, that
        # the method (`function`) adds to: pix2pixHD's `TrainOptions.initialize` adds through
        # `self.parser`, which its base class's `__init__` makes in another module
        self.on_self = on_self
        # (function, its parameter, the position or keyword the parser is passed at) where the
        # function calls what a parameter holds with it: Megatron's `parse_args(extra_args_provider)`,
        # `parser = extra_args_provider(parser)`; what adds to it is what its callers pass
        self.provided = provided
        # (function, its parameter) where a parameter's truth picks the parse: Megatron's `if
        # ignore_unknown_args: parser.parse_known_args()`, `else: parser.parse_args()`
        self.known_if = known_if
        # a method's parameter that adds an option for each attribute of `self` (`vars(self)`):
        # for an attribute whose name starts with `_` or not, whose value is a bool or not, the
        # `add_argument` calls its loop makes (`AttributeAdd`)
        self.from_attributes = from_attributes
        # the attributes of `self` (name, whether a bool, where set) that its method sets, to
        # literals, before it hands the parser to `super().__init__`; None where not known
        self.attributes = attributes
        # (function, its parameter) where it parses the words a parameter holds (`def
        # get_args(argv): return parser.parse_args(argv)`): which of the process's arguments they
        # are is what the calls pass (`get_args(sys.argv[2:])`, after a mode word)
        self.argv_in = argv_in


class DataField(Record):
    """One field of a dataclass: an `HfArgumentParser` makes it the option `--name`."""

    name: str
    location: Location
    required: bool  # no default and no default_factory
    boolean: bool  # annotated `bool` (or Optional[bool]): `--name` alone means True
    default_true: bool  # HfArgumentParser adds `--no_name` for these
    aliases: tuple[str, ...] = ()  # `metadata={"aliases": [...]}`


class Dataclass(Record):
    qualname: str
    bases: tuple[str, ...]  # dotted, as written
    fields: tuple[DataField, ...]
    complete: bool = True  # False when some field's flags are not static
    library: bool = False  # transformers' own, from lint/hfargs.py


class PythonModule:
    def __init__(
        self,
        path: str,
        module: str,
        is_package: bool = False,
        parse_errors: list[tuple[Location, str]] | None = None,
        newer_syntax: tuple[Location, str] | None = None,
        imports: dict[str, str] | None = None,
        star_imports: list[str] | None = None,
        functions: dict[str, Function] | None = None,
        classes: dict[str, Class] | None = None,
        bindings: list[Binding] | None = None,
        compile_sites: list[CompileSite] | None = None,
        thread_entries: list[ThreadEntry] | None = None,
        process_entries: list[ThreadEntry] | None = None,
        called_results: dict[Location, str] | None = None,
        redirects: list[StreamRedirect] | None = None,
        config_overrides: list[ConfigOverride] | None = None,
        parsers: list[ArgParser] | None = None,
        dataclasses: dict[str, Dataclass] | None = None,
        command_line_read: bool = True,
        top_imports: list[str] | None = None,
        result_methods: list[tuple[str, str, str]] | None = None,
    ) -> None:
        self.path = path  # relative to the project root, '/' separators
        self.module = module  # dotted name: pkg/sub/mod.py -> pkg.sub.mod, pkg/__init__.py -> pkg
        self.is_package = is_package
        self.parse_errors = [] if parse_errors is None else parse_errors
        # Where a newer Python's syntax stopped this interpreter's parser, and what it is ("Python 3.12
        # syntax (a `type` statement, PEP 695)"): valid code that was not analysed, not an LL001.
        self.newer_syntax = newer_syntax
        self.imports = {} if imports is None else imports  # local name -> dotted target
        # a local name imported from several targets (in an if's arms): all of them; `imports` has the last
        self.reimports: dict[str, tuple[str, ...]] = {}
        self.star_imports = [] if star_imports is None else star_imports  # modules of `from m import *`
        # The dotted targets of the imports its code makes when the module runs (at the top level,
        # also in an `if`, a `try` or a class body; not in a function's body): what importing it
        # imports, `from m import *`'s `m` too.
        self.top_imports = [] if top_imports is None else top_imports
        self.functions = {} if functions is None else functions
        self.classes = {} if classes is None else classes
        self.bindings = [] if bindings is None else bindings
        self.compile_sites = [] if compile_sites is None else compile_sites
        self.thread_entries = [] if thread_entries is None else thread_entries
        self.process_entries = [] if process_entries is None else process_entries
        # `get_fn()(x)`: by the location of the call of a call's result, the inner call's callee
        self.called_results = {} if called_results is None else called_results
        # `TrainOptions().parse()`: (the function it runs in, the inner call's callee, the method)
        self.result_methods = [] if result_methods is None else result_methods
        self.redirects = [] if redirects is None else redirects
        self.config_overrides = [] if config_overrides is None else config_overrides
        self.parsers = [] if parsers is None else parsers
        self.dataclasses = {} if dataclasses is None else dataclasses  # qualname -> its fields
        # Whether `parsers` and `dataclasses` were read: the front end reads them only for the
        # modules a launch names (launchlint.parsing.command_lines_read), LL301 the others' when
        # it asks (launchlint.programs).
        self.command_line_read = command_line_read
        # Whether the front end made names of the module's own dotted name (a relative import, a
        # top-level class's method a parser is handed to): the same text at another path has other
        # facts, not these moved there (`parsing.parse_many`).
        self.own_name_used = False

    def qualified(self, dotted: str) -> str:
        """`dotted` with its first name replaced by what it was imported as (`T.compile` ->
        `torch.compile`); unchanged when the first name is not an import."""
        head, dot, rest = dotted.partition(".")
        target = self.imports.get(head)
        if target is None:
            return dotted
        return f"{target}.{rest}" if dot else target

    def assigns(self, name: str) -> bool:
        """Whether the module's top-level code binds `name` itself: assigns it, or defines a
        function or class of that name (an import is not counted)."""
        top = self.functions.get(MODULE_SCOPE)
        return top is not None and name in top.local_names

    def from_stars(self, resolve: Callable[[str], str | None], find: Callable[[str], T | None]) -> T | None:
        """What a name the module neither binds nor imports means through its `from m import *`:
        `find(path)` of the last module `m` names that has it (a later star import binds the name
        again, as Python runs them in order), `resolve(m)` giving that path, or None for a module
        outside the project (`from torch import *` defines nothing known here). The module itself
        is skipped (a package's `from . import *`); `find` must stop on a cycle."""
        for star in reversed(self.star_imports):
            other = resolve(star)
            if other is not None and other != self.path:
                found = find(other)
                if found is not None:
                    return found
        return None

    def scope_of(self, function: str, name: str) -> str:
        """The qualname of the function whose local `name` is visible in `function` (closures
        included), or `<module>` when it is a global there."""
        current = self.functions.get(function)
        while current is not None and current.qualname != MODULE_SCOPE:
            if name in current.local_names:
                return current.qualname
            current = self.functions.get(current.parent) if current.parent else None
        return MODULE_SCOPE

    @property
    def may_start_processes(self) -> bool:
        """Whether it hands a callable to another process (`process_entries`), or to a pool's
        `submit`/`map`, which the thread analysis finds to be a process pool's or not (LL204)."""
        return bool(self.process_entries) or any(e.kind in ("submit", "map") for e in self.thread_entries)

    @property
    def locks(self) -> list[Binding]:
        """Bindings of lock objects (`LOCK = threading.Lock()`, `self.lock = RLock()`)."""
        return [
            b for b in self.bindings if b.call is not None and self.qualified(b.value) in LOCK_CONSTRUCTORS
        ]


def module_name(path: str) -> tuple[str, bool]:
    """The dotted module name of a file path and whether it is a package's `__init__`."""
    parts = path.removesuffix(".py").split("/")
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(p for p in parts if p not in ("", ".")), is_package


# What adds options to a parser kept in `self.parser` (see `adds_through`)
KEPT_ADDERS = frozenset({"add_argument", "add_argument_group", "add_mutually_exclusive_group", "add_subparsers"})


def adds_through(functions: Iterable[Function], attribute: str) -> bool:
    """Whether some of the functions may add options to a parser kept in `self.<attribute>`: they
    call a method of it (`self.parser.add_argument`) or hand it on (`setter(self.parser)`)."""
    held = f"self.{attribute}"
    return any(
        call.callee.rpartition(".")[0] == held and call.callee.rpartition(".")[2] in KEPT_ADDERS
        or held in call.args
        or any(v == held for _, v in call.keywords)
        for function in functions
        for call in function.calls
    )
