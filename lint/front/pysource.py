"""Python front end: the stdlib `ast` to `PythonModule` facts.

The analysed code is parsed, never imported or run. One `ast.parse` per file, one walk over the
tree in source order, so that each call knows the `with` blocks, acquired locks, grad mode and
`range(N)` loops it sits in. Expressions become dotted strings; resolving them across scopes and
modules is left to the project analysis.
"""

from __future__ import annotations

import _ast as ast  # see pyast
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator

from ..lazyre import lazy
from ..model import LineIndex, Location, make_location
from ..pyfacts import (
    ARGV_SLICE,
    COMPILE_APIS,
    CONTEXT_MANAGER_DECORATORS,
    GRAD,
    INFERENCE_MODE,
    MODULE_COMPILE,
    MODULE_SCOPE,
    NO_GRAD,
    PATH_OPEN,
    PROCESS_KINDS,
    Binding,
    Call,
    Class,
    CompileSite,
    ConfigOverride,
    Function,
    PythonModule,
    StreamRedirect,
    ThreadEntry,
    module_name,
)
from .pyast import argv_slice, child_nodes, dotted_name, keyword, last_name
from .textmap import template_action

TYPE_CHECKING = False  # as typing's
if TYPE_CHECKING:
    from . import pycli  # imported by `parse_python` only when it reads a command line

OPTIMIZE_API = "torch._dynamo.optimize"  # always a factory: optimize(...)(f)
COMPILE_NAMES = frozenset({"compile", "optimize"})  # the last names of the compile APIs
THREAD_NAMES = frozenset({"Thread", "Timer", "to_thread"})  # of the thread-starting functions
PROCESS_NAMES = frozenset({"Process", "Pool", "ProcessPoolExecutor"})  # of the process-starting ones
START_NAMES = THREAD_NAMES | PROCESS_NAMES
# `ray.remote`: a class it makes an actor of, or a function it makes a task of, runs in a Ray worker process
RAY_REMOTE = "ray.remote"
RAY_NAMES = frozenset({"remote"})
# The calls handing a callable over as an argument: (the entry's kind, the callable's parameter
# and position, its arguments' parameter and position, its keyword arguments' parameter).
_THREAD = ("thread", "target", 1, "args", 3, "kwargs")  # Thread(group, target, name, args, kwargs)
_PROCESS = ("process", *_THREAD[1:])  # Process takes Thread's parameters
_POOL = ("initializer", "initializer", 1, "initargs", 2, None)  # Pool(processes, initializer, initargs)
_EXECUTOR = ("initializer", "initializer", 2, "initargs", 3, None)  # (max_workers, mp_context, initializer, initargs)
HANDOFFS = {
    "threading.Thread": _THREAD,
    "threading.Timer": ("timer", "function", 1, "args", 2, "kwargs"),  # Timer(interval, function, args, kwargs)
    "multiprocessing.Process": _PROCESS,
    "torch.multiprocessing.Process": _PROCESS,
    "multiprocessing.Pool": _POOL,
    "multiprocessing.pool.Pool": _POOL,
    "torch.multiprocessing.Pool": _POOL,
    "concurrent.futures.ProcessPoolExecutor": _EXECUTOR,
    "concurrent.futures.process.ProcessPoolExecutor": _EXECUTOR,
}
# A context has the module's API: `ctx.Process` of a `ctx = multiprocessing.get_context("spawn")`.
CONTEXTS = frozenset({"multiprocessing.get_context", "torch.multiprocessing.get_context"})
# nn.Module.compile(**kwargs) takes torch.compile's options and nothing positional; Keras'
# `model.compile(optimizer, loss)` and `re.compile(pattern)` do not fit.
MODULE_COMPILE_OPTIONS = frozenset({"fullgraph", "dynamic", "backend", "mode", "options", "disable"})
COPY_CONTEXT = "contextvars.copy_context"
STREAMS = {"stdout": "stdout", "stderr": "stderr", "__stdout__": "stdout", "__stderr__": "stderr"}
FD_STREAMS = {1: "stdout", 2: "stderr"}
REDIRECTORS = {"contextlib.redirect_stdout": "stdout", "contextlib.redirect_stderr": "stderr"}
COMPILE_CONFIGS = frozenset({"torch._dynamo.config", "torch._inductor.config"})
PATH_CLASSES = frozenset({"pathlib.Path", "pathlib.PosixPath", "pathlib.WindowsPath"})
EFFECT_NAMES = frozenset({"dup2", "redirect_stdout", "redirect_stderr", "patch", "setattr", "enter_context"})
GRAD_CONTEXTS = {
    "torch.no_grad": NO_GRAD,
    "torch.autograd.no_grad": NO_GRAD,
    "torch.autograd.grad_mode.no_grad": NO_GRAD,
    "torch.inference_mode": INFERENCE_MODE,
    "torch.autograd.grad_mode.inference_mode": INFERENCE_MODE,
    "torch.enable_grad": GRAD,
    "torch.autograd.enable_grad": GRAD,
}
SET_GRAD_ENABLED = "torch.set_grad_enabled"
PARTIAL = frozenset({"functools.partial"})
PARTIAL_NAMES = frozenset({"partial"})
POOL_MAP = frozenset({"map", "imap", "imap_unordered", "starmap", "map_async", "starmap_async"})
POOL_METHODS = POOL_MAP | {"submit", "apply", "apply_async"}
# nn.Module methods that return the module itself: `Model().to(dev)` is still a `Model`.
RETURNS_SELF = frozenset({"to", "cuda", "cpu", "eval", "train", "half", "float", "bfloat16", "requires_grad_"})
LOCK_METHODS = frozenset({"acquire", "release"})
EXECUTOR_METHOD = "run_in_executor"
# The last names of the calls `_called` looks into (compile sites, thread entries, locks, output
# redirects, config patches, in-place compiles); a call by any other name is only recorded.
RUN_NAMES = COMPILE_NAMES | START_NAMES | RAY_NAMES | EFFECT_NAMES | POOL_METHODS | LOCK_METHODS | {EXECUTOR_METHOD}
LEAVES = frozenset({ast.Name, ast.Constant})  # expressions whose walk does nothing when loaded
DESCRIBED_CONSTANTS = frozenset({int, float, str, bool, type(None)})  # spelled by their repr
_NEWLINE = lazy(r"\r\n|\r|\n")
_LONE_CR = re.compile(r"\r(?!\n)")


def parse_python(path: str, text: str, cli: bool = True) -> PythonModule:
    """The facts of one Python file. Never raises: unparseable input becomes `parse_errors`.
    Without `cli`, the command line the module defines is not read (`command_line_read` False):
    only LL301 and LL302 read it, of the programs launches run (see `read_command_line`)."""
    name, is_package = module_name(path)
    module = PythonModule(path=path, module=name, is_package=is_package, command_line_read=cli)
    positions = _Positions(path, text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for "\d" in the analysed code
            # Not the real path: for a syntax error CPython would re-read that line from the file,
            # relative to the working directory, and count the column differently from the text.
            tree = compile(positions.source, f"<{path}>", "exec", ast.PyCF_ONLY_AST)  # ast.parse
    except SyntaxError as error:
        newer = newer_syntax(error, positions.source)
        if newer is not None:
            module.newer_syntax = (positions.syntax_error(error), newer)
        elif not template_action(error.text or ""):  # a cookiecutter or Jinja template is Python once rendered
            module.parse_errors.append((positions.syntax_error(error), error.msg))
        return module
    except ValueError as error:  # NUL bytes (Python < 3.12)
        module.parse_errors.append((positions.syntax_error(None), str(error)))
        return module
    except (RecursionError, MemoryError):
        module.parse_errors.append((positions.at(1, 0), "code nested too deeply to parse"))
        return module
    walker = _Walker(module, positions)
    if not cli:  # nor is the command-line reader imported (a run of Python files alone)
        walker.run(tree, reader=None)
        return module
    from . import pycli

    scopes = walker.run(tree, reader=pycli if pycli.wanted(positions.source) else None)
    pycli.extract(module, tree, positions.of, positions.source, scopes)  # argparse, HF, click, typer
    return module


def read_command_line(module: PythonModule, text: str, what: str) -> bool:
    """Whether `module`'s `what` (`parsers` that parse the process's arguments, `adders`, the
    functions that add options to a parser they are given, `builders`, those that return one, or
    `dataclasses`)
    are in its facts; where they were made without its command line (`command_line_read` False;
    see launchlint.programs), they are read from its file's `text`, parsed again, unless the text
    cannot define any (False: it has none). Spelling `dataclass` is no reason to read parsers: on
    verl, 15 modules parsed again for that alone made a run 16% slower."""
    if module.command_line_read:
        return True
    from . import pycli

    may = {
        "parsers": pycli.may_parse, "adders": pycli.may_add, "builders": pycli.may_build,
        "dataclasses": pycli.spells_dataclasses,
    }[what]  # fmt: skip
    if not may(text):
        return False
    read = parse_python(module.path, text, cli=True)
    module.parsers, module.dataclasses = read.parsers, read.dataclasses
    module.command_line_read = True
    return True


# Syntax a newer Python accepts, as this one's parser refuses it: (the first version that has it,
# what it is, a test of the SyntaxError and the text of its line). rules.md: valid Python never gets
# LL001, and a trainer written for Python 3.12 is valid. Only forms that say so by themselves are
# here; a file that has one is reported as not analysed (a warning), on any interpreter older than
# the version. On that version or later the file parses, or gets its LL001 from that parser.
_TYPE_STATEMENT = lazy(r"\s*type\s+[^\W\d]\w*\s*[\[=]")
_TYPE_PARAMETERS = lazy(r"\s*(?:async\s+def|def|class)\s+[^\W\d]\w*\s*\[")
_FSTRING_START = lazy(r"(?<!\w)(?:[fF][rR]?|[rR][fF])('''|\"\"\"|'|\")")
_TSTRING_PREFIX = lazy(r"(?<!\w)(?:[tT][rR]?|[rR][tT])$")
_UNPARENTHESIZED_EXCEPT = "`except` with exception types not in parentheses, PEP 758"
# Python 3.11 reads a reused quote as the f-string's end and may stop at what follows it, with
# another message ("leading zeros in decimal integer literals" for `f"{p("img%04d.png")}"`)
_QUOTE_REUSED = "an f-string with its quote in braces, PEP 701"
_FIELD_ACROSS_LINES = "an f-string whose replacement field goes on to the next line, PEP 701"
# `except A, B:` (`except* A, b.C:`) of names, on a line of its own: `\1(\2)` parenthesizes them
_EXCEPT_NAMES = lazy(r"^([ \t]*except[ \t]*(?:\*[ \t]*)?)([\w.]+(?:[ \t]*,[ \t]*[\w.]+)+)(?=[ \t]*:)", re.M)


def _fstrings(line: str) -> Iterator[tuple[re.Match, int, bool]]:
    """Each f-string that starts on `line`, not inside another: its start, where its closing quote
    is (the line's length when it does not close there), and whether a replacement field reuses
    its quote (PEP 701)."""
    cut = 0
    for start in _FSTRING_START.finditer(line):
        if start.start() < cut:
            continue
        quote, depth, i, reused = start.group(1), 0, start.end(), False
        while i < len(line):
            if line.startswith(quote, i):
                if not depth:
                    break  # the end of this f-string
                reused = True
            if line.startswith("{{", i) and not depth:  # a literal brace
                i += 1
            elif line[i] == "{":
                depth += 1
            elif line[i] == "}" and depth:
                depth -= 1
            i += 1
        cut = i + len(quote)
        yield start, i, reused


def _quote_in_braces(line: str) -> bool:
    """Whether an f-string on `line` reuses its own quote inside a replacement field (PEP 701)."""
    return any(reused for _, _, reused in _fstrings(line))


def _requoted(line: str) -> str:
    """`line` with each one-quote f-string that reuses its quote inside a replacement field
    (`f"{d["a"]}"`) delimited by three of its quotes instead, which Python 3.11 reads."""
    found = [(start.end() - 1, end) for start, end, reused in _fstrings(line) if reused and len(start.group(1)) == 1 and end < len(line)]
    for opening, closing in reversed(found):
        line = line[:opening] + line[opening] * 3 + line[opening + 1 : closing] + line[closing] * 3 + line[closing + 1 :]
    return line


def _tstring(error: SyntaxError, line: str) -> bool:
    column = (error.offset or 1) - 1
    return error.msg == "invalid syntax" and line[column : column + 1] in ("'", '"') and bool(
        _TSTRING_PREFIX.search(line[:column])
    )


_NEWER_SYNTAX: tuple[tuple[tuple[int, int], str, Callable[[SyntaxError, str], bool]], ...] = (
    ((3, 12), "a `type` statement, PEP 695", lambda error, line: bool(_TYPE_STATEMENT.match(line))),
    ((3, 12), "type parameters, PEP 695", lambda error, line: bool(_TYPE_PARAMETERS.match(line))),
    (
        (3, 12),
        "an f-string with its quote or a backslash in braces, PEP 701",
        lambda error, line: error.msg.startswith("f-string")
        and ("backslash" in error.msg or _quote_in_braces(line)),
    ),
    (
        (3, 12),
        _FIELD_ACROSS_LINES,
        lambda error, line: error.msg.startswith("unterminated string literal") and _field_start(error, line) is not None,
    ),
    ((3, 12), _QUOTE_REUSED, lambda error, line: _quote_in_braces(line)),
    ((3, 14), _UNPARENTHESIZED_EXCEPT, lambda error, line: error.msg == "multiple exception types must be parenthesized" and " as " not in line),
    ((3, 14), "a template string, PEP 750", _tstring),
)


def newer_syntax(error: SyntaxError, source: str, *, confirm: bool = True) -> str | None:
    """'Python 3.12 syntax (a `type` statement, PEP 695)' when `error` is this interpreter
    refusing a newer Python's syntax, else None. An `except A, B:` is also Python 2's `except
    ValueError, err:`: Python 3.14's only when the file parses once such clauses are parenthesized
    (`_parenthesized_parses`); a line's unterminated f-string is Python 3.12's only when the file
    parses once its replacement fields are joined to its line (`_joined_parses`). Without
    `confirm`, both are taken on their looks."""
    lines = _NEWLINE.split(source)  # Python's line ends, which `lineno` counts
    line = lines[error.lineno - 1] if error.lineno and error.lineno <= len(lines) else ""
    for version, what, test in _NEWER_SYNTAX:
        if sys.version_info < version and test(error, line):
            if what is _UNPARENTHESIZED_EXCEPT and confirm and not _parenthesized_parses(source):
                return None
            if what is _FIELD_ACROSS_LINES and confirm and not _joined_parses(lines, error):
                return None
            if what is _QUOTE_REUSED and confirm and not _reparses("\n".join([*lines[: error.lineno - 1], _requoted(line), *lines[error.lineno :]])):
                return None
            return f"Python {version[0]}.{version[1]} syntax ({what})"
    return None


def _parenthesized_parses(source: str) -> bool:
    """Whether a source refused at an `except A, B:` parses with every such clause of names
    parenthesized (`except (A, B):`), or stops at another newer form: one rewrite and one parse,
    on this rare path. A Python 2 file stops at its other Python 2 (`print "done"`); one with no
    other looks like Python 3.14's, and is taken for it. A clause of other expressions is left as
    it is: where the parse stops at it again, it is taken for 3.14's."""
    return _reparses(_EXCEPT_NAMES.sub(r"\1(\2)", source))


def _field_start(error: SyntaxError, line: str) -> re.Match | None:
    """The f-string with one quote (`f"`, `rf'`) that starts where an "unterminated string
    literal" error is, if one does and a `{` follows its start on the line."""
    start = _FSTRING_START.match(line, max((error.offset or 1) - 1, 0))
    return start if start is not None and len(start.group(1)) == 1 and "{" in line[start.end() :] else None


def _joined_parses(lines: list[str], error: SyntaxError) -> bool:
    """Whether a source refused at an f-string that does not end on its line parses with that
    f-string's replacement fields joined to its line (Python 3.12's `f"{\n x}"`, PEP 701): its
    line breaks in braces made spaces, up to its closing quote. Not when a line ends outside its
    braces (a string left unterminated) or inside a string in them."""
    start = _field_start(error, lines[error.lineno - 1])
    text = "\n".join(lines[error.lineno - 1 :])
    quote, depth, i, joined, spans = start.group(1), 0, start.end(), [], False
    while i < len(text):
        char = text[i]
        if char == "\n" and not depth:
            return False
        if char == quote and not depth:
            break
        if depth and char in "'\"":  # a string in braces, on this line: to its end
            end = text.find(char, i + 1)
            if end < 0 or "\n" in text[i:end]:
                return False
            char, i = text[i : end + 1], end
        elif char == "\\" and not depth or char == "{" and not depth and text.startswith("{{", i):  # `\"`, `{{`
            char, i = text[i : i + 2], i + 1
        elif char == "#" and depth:  # a comment in braces, to its line's end: dropped
            end = text.find("\n", i)
            if end < 0:
                return False
            char, i = "", end - 1
        elif char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        elif char == "\n":
            char, spans = " ", True
        joined.append(char)
        i += 1
    else:
        return False
    if not spans:
        return False  # no line break in braces: another error
    rewritten = "\n".join(lines[: error.lineno - 1]) + "\n" + text[: start.end()] + "".join(joined) + text[i:]
    return _reparses(rewritten)


def _reparses(rewritten: str) -> bool:
    """Whether a rewritten source parses, or stops at another newer form: one parse, on the rare
    paths that confirm a newer form by rewriting it (`newer_syntax`)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(rewritten, "<rewritten>", "exec", ast.PyCF_ONLY_AST)
    except SyntaxError as error:
        return newer_syntax(error, rewritten, confirm=False) is not None
    except (ValueError, RecursionError, MemoryError):  # as `parse_python` reports the file
        return False
    return True


_PATH_OPENERS = frozenset({"open", "write_text", "write_bytes"})  # `Path(p).open("w")`, `Path(p).write_text(s)`


class _Positions:
    """ast positions (1-based lines, UTF-8 byte columns) to `Location`s in characters.

    Python ends a line at a lone CR too; launchlint's lines (LineIndex, snippets, fixes) end at
    LF only. In a file with a lone CR, positions therefore go through character offsets."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.bom = text.startswith("\ufeff")
        self.source = text[1:] if self.bom else text
        self.ascii = self.source.isascii()  # then byte columns are character columns
        self.lines = [] if self.ascii else _NEWLINE.split(self.source)  # `point` reads them only then
        self.remap: tuple[list[int], LineIndex] | None = None
        if _LONE_CR.search(self.source):
            starts = [0] + [match.end() for match in _NEWLINE.finditer(self.source)]
            self.remap = (starts, LineIndex(text))
        self.plain = self.ascii and self.remap is None and not self.bom  # ast's positions are ours

    def point(self, line: int, byte_col: int) -> tuple[int, int]:
        """(line, column) in launchlint's terms of an ast (line, byte column)."""
        if self.ascii:
            chars = byte_col
        else:
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            chars = byte_col if text.isascii() else len(text.encode()[:byte_col].decode(errors="replace"))
        return self._char_point(line, chars)

    def _char_point(self, line: int, chars: int) -> tuple[int, int]:
        if self.remap is None:
            return line, chars + 1 + (self.bom and line == 1)
        starts, index = self.remap
        return index.position(starts[min(max(line, 1), len(starts)) - 1] + chars + self.bom)

    def at(self, line: int, byte_col: int) -> Location:
        line, col = self.point(line, byte_col)
        return Location(self.path, line, col, line, col + 1)

    def of(self, node: ast.AST) -> Location:
        # Each field read once: a node's fields are in its __dict__, each read a lookup of the
        # type's and the instance's dicts (~280 instructions), here and in the walk's hot paths and the
        # command-line reader's (-11 M instructions of 1,005 on a third of the 1,000-file benchmark).
        line, col, end_line, end_col = node.lineno, node.col_offset, node.end_lineno, node.end_col_offset
        end_line = end_line or line
        if end_col is None:
            end_col = col
        if self.plain:
            return make_location((self.path, line, col + 1, end_line, end_col + 1))
        return Location(self.path, *self.point(line, col), *self.point(end_line, end_col))

    def syntax_error(self, error: SyntaxError | None) -> Location:
        if error is None or not error.lineno:
            offset = self.source.find("\0")
            line = self.source.count("\n", 0, max(offset, 0)) + 1
            col = offset - (self.source.rfind("\n", 0, max(offset, 0)) + 1) + 1
            return Location(self.path, line, col, line, col + 1)
        chars = max(error.offset or 1, 1) - 1  # already in characters
        if error.msg.startswith("unindent does not match"):  # CPython's offset is past the line's end
            chars = len(error.text or "") - len((error.text or "").lstrip(" \t\f"))  # the statement, after the bad indent
        before = (error.text or "")[:chars]
        if "\n" in before:  # after a backslash continuation the offset counts from the logical
            chars = len(before) - before.rfind("\n") - 1  # line's start; `lineno` is the error's
        line, col = self._char_point(error.lineno, chars)
        return Location(self.path, line, col, line, col + 1)


class _Frame:
    """What the walker knows about the code it is in."""

    def __init__(
        self,
        function: Function,
        scope: str,
        self_name: str | None = None,
        names: set[str] | None = None,
        globals: set[str] | None = None,
        nonlocals: set[str] | None = None,
        held: list[str] | None = None,
        grad: list[str | None] | None = None,
        loops: list[int | None] | None = None,
        cli: pycli.Scope | None = None,
        cli_locals: set[str] | None = None,
    ) -> None:
        self.function = function  # where calls run
        self.scope = scope  # where plain names are bound: the function, or a class body
        self.self_name = self_name  # the parameter spelled `self` in facts
        self.names = set() if names is None else names  # bound in this scope so far
        self.globals = set() if globals is None else globals
        self.nonlocals = set() if nonlocals is None else nonlocals
        self.held = [] if held is None else held
        # Grad modes entered, innermost last; only the first (a def's decorator's) may be None.
        self.grad = [None] if grad is None else grad
        self.loops = [] if loops is None else loops  # None: not static
        # The command-line reader's scope the code runs in (pycli.Scope; None: not recorded, or a
        # lambda's body), and where a name stored here is local to it (None in a class body).
        self.cli = cli
        self.cli_locals = cli_locals


class _Walker:
    def __init__(self, module: PythonModule, positions: _Positions) -> None:
        self.module = module
        self.pos = positions
        self.frames: list[_Frame] = []
        self.frame: _Frame  # the innermost of `frames`
        self.calls: dict[int, Call] = {}  # id(ast.Call) -> its fact, for bindings and sites
        self.handled: set[int] = set()  # compile expressions already turned into sites
        self.constants: dict[str, int] = {}  # module-level `N = 8`, for range(N)
        self.tree: ast.Module | None = None
        self.literals: dict[str, ast.Constant] | None = None  # `_literal`'s, made when first asked
        self.scopes: list[pycli.Scope] = []  # for the command-line reader, when recorded
        self.reader = None  # the reader's module (pycli) while the walk records its scopes
        # By (scope, name), the calls whose results a list holds: `threads = [Thread(...) for ...]`,
        # `threads.append(Thread(...))`.
        self.collections: dict[tuple[str, str], list[Call]] = {}
        self.ray = False  # whether the module imports `ray` or `ray.remote`: only then are Ray actors looked for
        # Config patches, for the `with` that enters them (`ConfigOverride.scope`): by id(ast.Call),
        # the index of each one's override; by (scope, name), those bound to a name; the `with X as
        # name:` blocks being walked, by that name (an ExitStack's `enter_context`); by function,
        # where it yields (a `@contextmanager`'s block).
        self.patches: dict[int, int] = {}
        self.patch_names: dict[tuple[str, str], list[int]] = {}
        self.withs: list[tuple[str, ast.With | ast.AsyncWith]] = []
        self.yields: dict[str, list[Location]] = {}

    # -- entry --------------------------------------------------------------------------------

    def run(self, tree: ast.Module, *, reader) -> list[pycli.Scope] | None:
        """Walk the module; with a `reader` (the pycli module), also record its scopes for the
        command-line reader (one walk for both: a second one cost a third of the Python front end)."""
        self.reader = reader
        self._collect_imports(tree.body)
        imported = self.module.imports.values()  # a search in C, as most modules import no Ray
        self.ray = "ray" in imported or RAY_REMOTE in imported
        self.tree = tree
        self.constants = _int_constants(tree.body)
        top = Function(MODULE_SCOPE, self.pos.at(1, 0), None, None)
        self.module.functions[MODULE_SCOPE] = top
        module = _Frame(top, MODULE_SCOPE)
        if reader is not None:
            module.cli = reader.Scope(MODULE_SCOPE, tree)
            module.cli_locals = module.cli.local
            self.scopes = [module.cli]
        for statement in tree.body:
            self.frames = [module]
            self.frame = module
            try:
                self.statement(statement)
            except RecursionError:  # statements nest at most 100 deep: this is a safety net
                self.module.parse_errors.append(
                    (self.pos.of(statement).point(), "code nested too deeply to analyse")
                )
                module.held, module.grad, module.loops = [], [None], []
                self.withs.clear()
        top.local_names = frozenset(module.names)
        return self.scopes if reader is not None else None

    def _collect_imports(self, body: list[ast.stmt]) -> None:
        """Imports anywhere, before the walk: a function may use a name imported below it."""
        top = [node for node in body if type(node) is ast.Import or type(node) is ast.ImportFrom]
        # Each import statement spells the keyword `import` (in ASCII: `ｉｍｐｏｒｔ` is a name), a word
        # that cannot overlap itself: a source that spells it no more often than its top level has
        # import statements has none nested, and its bodies need no search (every module of the
        # 1,000-file benchmark, half of Megatron-LM's: -11 M instructions of 1,024 on a third of the former).
        nested = self.pos.source.count("import") > len(top)
        at_start = {id(node) for node in (_imports(body, functions=False) if nested else top)}
        for node in _imports(body) if nested else top:
            started = self.module.top_imports if id(node) in at_start else []
            if type(node) is ast.Import:
                for alias in node.names:
                    started.append(alias.name)
                    if alias.asname:
                        self._import(alias.asname, alias.name)
                    else:
                        head = alias.name.split(".")[0]
                        self._import(head, head)
            else:
                base = self._absolute(node.module, node.level)
                if base is None:
                    continue
                for alias in node.names:
                    if alias.name == "*":
                        self.module.star_imports.append(base)
                        started.append(base)
                    else:
                        target = f"{base}.{alias.name}" if base else alias.name
                        self._import(alias.asname or alias.name, target)
                        started.append(target)

    def _import(self, name: str, target: str) -> None:
        """`name` imported as `target`; a name imported from another target before (`if c: from a
        import add_args`, `else: from b import add_args`) keeps each in `reimports`."""
        imports = self.module.imports
        before = imports.get(name)
        if before is not None and before != target:
            known = self.module.reimports.get(name, (before,))
            self.module.reimports[name] = known if target in known else (*known, target)
        imports[name] = target

    def _absolute(self, name: str | None, level: int) -> str | None:
        """`from ..x import y` in pkg/sub/mod.py -> `pkg.x`; None when it climbs out."""
        if level == 0:
            return name
        self.module.own_name_used = True
        package = self.module.module.split(".") if self.module.module else []
        if not self.module.is_package:
            package = package[:-1]
        if level - 1 > len(package):
            return None
        package = package[: len(package) - (level - 1)]
        return ".".join(package + ([name] if name else []))

    # -- statements ---------------------------------------------------------------------------

    def statements(self, body: Iterable[ast.stmt]) -> None:
        for node in body:
            self.statement(node)

    def statement(self, node: ast.stmt) -> None:
        _BY_STATEMENT.get(type(node), _Walker._children)(self, node)

    def _assign(self, node: ast.Assign | ast.AnnAssign) -> None:
        self._record(node)
        targets = node.targets if type(node) is ast.Assign else [node.target]
        value = node.value
        if value is not None:
            # Most values compile nothing: their targets need no spelling for a site, nor a call to
            # look (with `_target`'s name read once, -9 M instructions of 994 on a third of the
            # 1,000-file benchmark).
            compiled = _unwrap_returns_self(value)  # `torch.compile(net).to("cuda")` is the compiled module
            if self._may_compile(compiled):
                for symbol in filter(None, map(self._site_target, targets)):
                    self._compile_sites_in(compiled, scope=symbol[0], name=symbol[1])
            self.expression(value)
        for target in targets:
            self.expression(target)
            if value is not None:
                self._bind(target, value)

    def _return(self, node: ast.Return) -> None:
        self._record(node)
        if node.value is not None:
            self._compile_sites_in(_unwrap_returns_self(node.value), returned=True)
            self.expression(node.value)

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        if type(node.iter) in (ast.Tuple, ast.List):  # `for p in (base_parser, parser):` (pycli's `_flow`)
            self._record(node)
        self.expression(node.iter)
        self.expression(node.target)
        target, over = node.target, node.iter
        if self.collections and type(target) is ast.Name and type(over) in (ast.Name, ast.Attribute):
            # `for t in threads:` over a list of calls' results: `t` holds what each call made
            symbol = self._target(target)
            location, function = self.pos.of(target), self.frame.function.qualname
            for call in self.collections.get(self._target(over), ()):
                self.module.bindings.append(Binding(*symbol, function, location, call.callee, call))
        self.frame.loops.append(_iterations(node.iter, self.constants))
        self.statements(node.body)
        self.frame.loops.pop()
        self.statements(node.orelse)

    def _while(self, node: ast.While) -> None:
        self.expression(node.test)
        self.frame.loops.append(None)
        self.statements(node.body)
        self.frame.loops.pop()
        self.statements(node.orelse)

    def _global(self, node: ast.Global) -> None:
        self.frame.globals.update(node.names)
        if self.frame.cli is not None:
            self.frame.cli.local.difference_update(node.names)

    def _nonlocal(self, node: ast.Nonlocal) -> None:
        self.frame.nonlocals.update(node.names)

    def _enter(self, frame: _Frame) -> None:
        self.frames.append(frame)
        self.frame = frame

    def _leave(self) -> None:
        self.frames.pop()
        self.frame = self.frames[-1]

    def _children(self, node: ast.AST) -> None:
        for child in child_nodes(node):
            if isinstance(child, ast.stmt):
                self.statement(child)
            elif isinstance(child, ast.expr):
                self.expression(child)
            else:  # except handlers, match cases, keywords, arguments
                if isinstance(child, ast.ExceptHandler) and child.name:
                    self.frame.names.add(child.name)
                self._children(child)

    def _def(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        frame = self.frame
        name, args, decorators = node.name, node.args, node.decorator_list  # each field read once (see `of`)
        frame.names.add(name)
        params = _params(args)
        cli = frame.cli and self.reader.enter_def(
            self.scopes, frame.cli, node, params, frame.scope, in_class=frame.cli_locals is None
        )
        overrides = self.module.config_overrides
        before = len(overrides)
        for expr in [*decorators, *_parameter_steps(args)]:  # defaults run where the def is
            self.expression(expr)
        for expr in decorators:
            site = self._compile_decorator(expr)
            if site is not None:
                self.module.compile_sites.append(site._replace(scope=frame.scope, name=name, compiled=name))
            if self.ray:
                self._ray_decorator(expr, name)
        if node.returns is not None:
            self.expression(node.returns)
        # Most defs have no decorator: no generator (a function call) is made to look at none (with
        # the parameters' lists below, -9 M instructions of 1,033 on a third of the 1,000-file benchmark).
        in_class = frame.scope != frame.function.qualname
        is_method = in_class and not (decorators and any(_is_name(d, "staticmethod") for d in decorators))
        self_name = params[0] if is_method and params else (None if in_class else frame.self_name)
        class_name = frame.scope if in_class else frame.function.class_name
        grad = next(filter(None, (self._grad_mode(d) for d in decorators)), None) if decorators else None
        function = self._function(
            _qualname(frame.scope, name),
            node,
            class_name=class_name,
            params=params,
            is_method=is_method,
            decorators=tuple(filter(None, map(self._dotted, decorators))) if decorators else (),
            defaults=self._defaults(args, len(params)) if args.defaults or args.kw_defaults else (),
            keyword_only=len(args.kwonlyargs),
        )
        # `@torch._dynamo.config.patch(...)` changes the setting while the function runs
        if len(overrides) > before:
            scope = self.pos.of(node)
            overrides[before:] = [o._replace(function=function.qualname, scope=scope) for o in overrides[before:]]
        body = _Frame(function, function.qualname, self_name, _param_names(args, params), grad=[grad])
        body.cli, body.cli_locals = cli, cli.local if cli else None
        self._enter(body)
        made = len(overrides)
        self.statements(node.body)
        self._leave()
        if len(overrides) > made and function.qualname in self.yields:
            self._restored(node, function.qualname, made)
        function.local_names = frozenset(body.names - body.globals - body.nonlocals)

    def _restored(self, node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str, made: int) -> None:
        """In a `@contextmanager` generator: each setting set, then yielded for, then set again
        (restored, vLLM's save-set-yield-restore in `try`/`finally`) lasts over the `with` blocks
        entering it, as a patch would; its settings are scoped to the def (`ConfigOverride.scope`)."""
        if not any(self._qualified(d) in CONTEXT_MANAGER_DECORATORS for d in node.decorator_list):
            return
        overrides = self.module.config_overrides
        own = [i for i in range(made, len(overrides)) if overrides[i].function == qualname and overrides[i].scope is None]
        first: dict[str, Location] = {}
        last: dict[str, Location] = {}
        for index in own:
            for key in overrides[index].keys:
                first.setdefault(key, overrides[index].location)
                last[key] = overrides[index].location
        yields = self.yields[qualname]
        restored = {key for key, set_at in first.items() if any(set_at < y < last[key] for y in yields)}
        scope = self.pos.of(node)
        for index in own:
            if restored.intersection(overrides[index].keys):
                overrides[index] = overrides[index]._replace(scope=scope)

    def _defaults(self, args: ast.arguments, count: int) -> tuple[str, ...]:
        """Each parameter's default, described (`Function.defaults`): `args.defaults` are those of
        the last positional ones, `kw_defaults` the keyword-only ones' (None: no default)."""
        kw_defaults = args.kw_defaults
        positional = [""] * (count - len(kw_defaults) - len(args.defaults)) + [self.describe(d) for d in args.defaults]
        return tuple(positional + ["" if d is None else self.describe(d) for d in kw_defaults])

    def _function(self, qualname: str, node: ast.AST, **facts) -> Function:
        parent = self.frame.function.qualname
        function = Function(
            qualname,
            self.pos.of(node),
            parent=None if parent == MODULE_SCOPE else parent,
            **facts,
        )
        self.module.functions[qualname] = function
        return function

    def _class(self, node: ast.ClassDef) -> None:
        frame = self.frame
        frame.names.add(node.name)
        for child in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            self.expression(child)
        for decorator in node.decorator_list if self.ray else ():
            self._ray_decorator(decorator, node.name)
        qualname = _qualname(frame.scope, node.name)
        bases = tuple(filter(None, (self._dotted(b) for b in node.bases)))
        decorators = tuple(filter(None, map(self._dotted, node.decorator_list))) if node.decorator_list else ()
        self.module.classes[qualname] = Class(qualname, self.pos.of(node), bases, frame.function.qualname, decorators)
        inherited = _Frame(frame.function, qualname, None, held=frame.held, grad=frame.grad, loops=frame.loops)
        inherited.cli = frame.cli  # a class body runs in its function: names bound there are not local
        self._enter(inherited)  # a class body runs right here, in the same context
        self.statements(node.body)
        self._leave()

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        frame = self.frame
        entered: list[tuple[list, str]] = []
        withs = len(self.withs)
        for item in node.items:
            self._record(item)
            expr, target = item.context_expr, item.optional_vars
            self.expression(expr)
            if self.patches:  # `with config.patch(...):`, `with ctx:` of a `ctx = config.patch(...)`
                named = self.patch_names.get(self._target(expr)) if type(expr) is ast.Name else None
                for index in named or [self.patches.get(id(expr))]:
                    self._scoped(index, node)
            if target is not None:
                self.expression(target)
                self._bind(target, expr)
                if type(target) is ast.Name:
                    self.withs.append((target.id, node))
            grad = self._grad_mode(item.context_expr)
            if grad is not None:
                stack, value = frame.grad, grad
            else:
                stack, value = frame.held, self._held(item.context_expr)
            if value is not None:
                stack.append(value)
                entered.append((stack, value))
                if stack is frame.held:
                    _note_held(frame.function, value)
        self.statements(node.body)
        del self.withs[withs:]
        for stack, value in reversed(entered):
            _remove_last(stack, value)

    def _scoped(self, index: int | None, scope: ast.AST) -> None:
        """The setting of a config patch (`self.patches`' `index`) lasts only over `scope`; over
        the span of both, for a patch a second `with` enters too."""
        if index is None:
            return
        overrides = self.module.config_overrides
        override, where = overrides[index], self.pos.of(scope)
        if override.scope is not None:
            end = max(override.scope[3:], where[3:])  # (end_line, end_column)
            where = min(override.scope, where)._replace(end_line=end[0], end_column=end[1])
        overrides[index] = override._replace(scope=where)

    def _held(self, expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Call):
            callee = self._dotted(expr.func)
            return f"{callee}()" if callee else None
        return self._dotted(expr)

    # -- bindings -----------------------------------------------------------------------------

    def _bind(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            values = _element_nodes(value)
            paired = len(values) == len(target.elts) and not any(isinstance(v, ast.Starred) for v in values)
            for i, element in enumerate(target.elts):  # `a, b = x, y` pairs; else unpacked: unknown
                self._bind(element, values[i] if paired else ast.Constant(None))
            return
        symbol = self._target(target)
        if symbol is None:
            for branch in _branches(value):
                self._store(target, branch)
            return
        scope, name = symbol
        for branch in _branches(value):
            self.module.bindings.append(self._binding(scope, name, target, branch))
            if self.patches and id(branch) in self.patches:  # `ctx = config.patch(...)`, for a later `with ctx:`
                self.patch_names.setdefault(symbol, []).append(self.patches[id(branch)])
            if type(branch) is ast.ListComp and type(branch.elt) is ast.Call:
                self._hold(scope, name, branch.elt)

    def _hold(self, scope: str, name: str, element: ast.Call) -> None:
        """`name = [f(...) for ...]`, `name.append(f(...))`: the list `name` holds what the call
        makes, which a loop over it binds (`_for`)."""
        call = self.calls.get(id(element))
        if call is not None and call.callee:
            self.collections.setdefault((scope, name), []).append(call)

    def _binding(self, scope: str, name: str, target: ast.expr, value: ast.expr) -> Binding:
        value = _unwrap_returns_self(value)
        if type(value) is ast.Call and self._is_partial(value):
            value = value.args[0]  # `step = functools.partial(f, a)`: calling `step` runs `f`
        location = self.pos.of(target)
        function = self.frame.function.qualname
        if isinstance(value, ast.Call):
            call = self.calls.get(id(value))
            return Binding(scope, name, function, location, call.callee if call else "", call)
        if isinstance(value, ast.Lambda):  # `step = lambda x: ...`: calling `step` runs the lambda
            return Binding(scope, name, function, location, self._lambda_qualname(value))
        return Binding(scope, name, function, location, self._dotted(value) or "")

    def _target(self, target: ast.expr) -> tuple[str, str] | None:
        """The (scope, name) an assignment target binds, or None if it is not a plain name, a
        `self.` attribute or a `__call__` a class decorator installs (`Binding`)."""
        frame = self.frame
        if isinstance(target, ast.Name):
            name = target.id  # read once (see `_Positions.of`)
            if name in frame.globals:
                return MODULE_SCOPE, name
            if name in frame.nonlocals:
                return self._enclosing_scope(name), name
            return frame.scope, name
        dotted = self._dotted(target)
        function = frame.function
        class_name = function.class_name
        if dotted and class_name and dotted.count(".") == 1 and dotted.startswith("self."):
            return class_name, dotted[5:]
        if dotted and dotted.endswith(".__call__") and function.params[:1] == (dotted[:-9],) and not function.is_method:
            return frame.scope, dotted  # `cls.__call__ = wrapper` in a `def decorate(cls)`
        return None

    def _enclosing_scope(self, name: str) -> str:
        """The function a `nonlocal name` refers to."""
        functions = [f for f in reversed(self.frames[:-1]) if f.scope == f.function.qualname != MODULE_SCOPE]
        chosen = next((f for f in functions if name in f.names), functions[0] if functions else None)
        return chosen.scope if chosen else MODULE_SCOPE

    # -- expressions --------------------------------------------------------------------------

    def expression(self, root: ast.AST) -> None:
        """Walk an expression in evaluation order. Iterative: valid code can nest a `+` or
        `.method()` chain thousands deep, far past Python's recursion limit. The hottest loop of
        the front end: leaves are handled inline, the few nodes that need more by `special`."""
        work: list = [root]
        special = _SPECIAL
        while work:
            item = work.pop()
            kind = type(item)
            if kind is ast.Name:
                if type(item.ctx) is ast.Store:
                    frame = self.frame
                    frame.names.add(item.id)
                    if frame.cli_locals is not None:
                        frame.cli_locals.add(item.id)
            elif kind is ast.Attribute or kind is ast.keyword:
                value = item.value
                if type(value) not in LEAVES:  # `a.b`'s `a` is loaded, never stored
                    work.append(value)
            elif kind is ast.Constant:
                continue
            elif kind is ast.Call:  # the callee, the arguments, then the call runs
                call = self._call_fact(item)
                # An argument is never a store: its names and constants need no visit. No
                # comprehension (a function call) for keywords or arguments a call does not have
                # (-19 M instructions of 1,052 on a third of the 1,000-file benchmark).
                inner = []
                keywords, args = item.keywords, item.args  # each field read once (see `_Positions.of`)
                if keywords:
                    inner += [k.value for k in reversed(keywords) if type(k.value) not in LEAVES]
                if args:
                    inner += [argument for argument in reversed(args) if type(argument) not in LEAVES]
                if not call.callee:  # a dotted callee (`a.b.f`) holds nothing to walk
                    inner.append(item.func)
                if inner:
                    work.append((item, call))
                    work.extend(inner)
                else:  # nothing runs before it: the call runs now (most calls)
                    self._called(item, call)
            elif kind is tuple:
                self._called(*item)
            elif kind in special:
                work.extend(reversed(special[kind](self, item)))
            elif isinstance(item, ast.AST):
                work.extend(reversed(child_nodes(item)))
            else:
                item()  # an action that must come after the steps pushed before it

    def _lambda_steps(self, node: ast.Lambda) -> list:
        return [*_parameter_steps(node.args), lambda: self._enter_lambda(node), node.body, self._leave]

    def _yield_steps(self, node: ast.Yield | ast.YieldFrom) -> list:
        self.yields.setdefault(self.frame.function.qualname, []).append(self.pos.of(node))
        return [node.value] if node.value is not None else []

    def _walrus_steps(self, node: ast.NamedExpr) -> list:
        self._record(node)
        if self.frame.cli_locals is not None:
            self.frame.cli_locals.add(node.target.id)
        return [node.value, lambda: self._bind(node.target, node.value)]

    def _record(self, node: ast.AST) -> None:
        """A node the command-line reader reads, in the scope it runs in."""
        if self.frame.cli is not None:
            self.frame.cli.nodes.append(node)

    def _call_fact(self, node: ast.Call) -> Call:
        frame = self.frame
        if frame.cli is not None:  # what `_record` does, inline: every call is recorded
            frame.cli.nodes.append(node)
        describe = self.describe
        func, args, keywords = node.func, node.args, node.keywords  # each field read once (see `_Positions.of`)
        # A tuple in the order of the fields, made in C (`Call(...)` is a Python-level call). A
        # comprehension is a function call: none for what a call does not have (most have no
        # keywords, and run under no lock).
        described = tuple([describe(a) for a in args]) if args else ()
        starred = "" in described and any(type(a) is ast.Starred for a in args)
        call = Call._from_tuple((
            dotted_name(func, frame.self_name) or "",
            self.pos.of(node),
            described,
            _call_keywords(keywords, describe, starred) if keywords or starred else (),
            tuple(frame.held) if frame.held else (),
            frame.grad[-1],
            _product(frame.loops) if frame.loops else 1,
        ))
        self.calls[id(node)] = call
        if not call.callee:  # torch.compile(f)(x): compiled and called here (never a dotted callee)
            self._compile_sites_in(func, call=call)
            if type(func) is ast.Call:  # get_fn()(x): what get_fn returns is called
                made = dotted_name(func.func, frame.self_name)
                if made:
                    self.module.called_results[call.location] = made
            elif type(func) is ast.Attribute and type(func.value) is ast.Call:  # Options().parse()
                made = dotted_name(func.value.func, frame.self_name)
                if made:
                    self.module.result_methods.append((frame.function.qualname, made, func.attr))
        return call

    def _called(self, node: ast.Call, call: Call) -> None:
        """After the arguments are evaluated: the call runs."""
        func = node.func
        opens = not call.callee and type(func) is ast.Attribute and func.attr in _PATH_OPENERS
        # `Path("job.sh").write_text(...)`, a file it writes (pymade), as `Path(p).open("w")`
        self.frame.function.calls.append(self._path_open(node, call) if opens else call)
        # Each check below looks at a call by its last name (or at a call of a call's result:
        # `torch.compile(...)(f)`); most calls are none of them.
        name = last_name(self.module.imports, func)
        if name in RUN_NAMES or type(func) is ast.Call:
            self._compile_sites_in(node)
            self._thread_entry(node, call)
            self._acquire_or_release(call)
            self._effect(node)
        elif name == "append" and type(func) is ast.Attribute and node.args and type(node.args[0]) is ast.Call:
            held = self._target(func.value)
            if held is not None:
                self._hold(*held, node.args[0])

    def _acquire_or_release(self, call: Call) -> None:
        receiver, _, method = call.callee.rpartition(".")
        if not receiver or method not in LOCK_METHODS:
            return
        if method == "acquire":
            self.frame.held.append(receiver)
            _note_held(self.frame.function, receiver)
        elif method == "release":
            _remove_last(self.frame.held, receiver)

    def _enter_lambda(self, node: ast.Lambda) -> None:
        frame = self.frame
        params = _params(node.args)
        function = self._function(
            self._lambda_qualname(node),
            node,
            class_name=frame.function.class_name,
            params=params,
            local_names=frozenset(_param_names(node.args, params)),
        )
        self._enter(_Frame(function, function.qualname, frame.self_name))

    def _lambda_qualname(self, node: ast.Lambda) -> str:
        loc = self.pos.of(node)
        return _qualname(self.frame.function.qualname, f"<lambda:{loc.line}:{loc.column}>")

    def _comprehension_steps(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> list:
        loops = self.frame.loops
        steps: list = []
        cli_locals = self.frame.cli_locals
        for generator in node.generators:
            count = _iterations(generator.iter, self.constants)
            steps += [generator.iter, lambda count=count: loops.append(count), *generator.ifs]
            if cli_locals is not None:  # the reader takes a comprehension's names as the function's
                cli_locals.update(_stored_names(generator.target))
        steps += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        steps.append(lambda: loops.__delitem__(slice(len(loops) - len(node.generators), None)))
        return steps

    def describe(self, node: ast.expr) -> str:
        """An argument as facts spell it: dotted name, literal repr, lambda qualname, argv slice, or ""."""
        kind = type(node)
        if kind is ast.Name or kind is ast.Attribute:
            return dotted_name(node, self.frame.self_name) or ""
        if kind is ast.Constant:
            value = node.value
            return repr(value) if type(value) in DESCRIBED_CONSTANTS else ""
        if kind is ast.Lambda:
            return self._lambda_qualname(node)
        if kind is ast.Call:
            if _is_fileno(node):  # `f.fileno()` as `f`, as a redirect's target is
                return self.describe(node.func.value)
            return self.describe(node.args[0]) if self._is_partial(node) else ""
        if kind is ast.Subscript:  # `main(sys.argv[1:])`: the process's arguments
            lower = argv_slice(node)
            return ARGV_SLICE.format(lower) if lower is not None else ""
        return ""

    def _dotted(self, node: ast.expr) -> str | None:
        """`a.b.c` for a chain of attributes on a name, with the method's self spelled `self`."""
        return dotted_name(node, self.frame.self_name)

    def _qualified(self, node: ast.expr) -> str | None:
        dotted = self._dotted(node)
        return self.module.qualified(dotted) if dotted else None

    def _is_partial(self, node: ast.Call) -> bool:
        """`functools.partial(f, ...)`."""
        return bool(node.args) and self._qualified_if(node.func, PARTIAL_NAMES) in PARTIAL

    def _qualified_if(self, node: ast.expr, last: frozenset[str]) -> str | None:
        """`_qualified(node)` when its last name can be one of `last` (aliases followed), else
        None: most calls are none of the few APIs looked for, and this spares spelling them."""
        return self._qualified(node) if last_name(self.module.imports, node) in last else None

    # -- torch ---------------------------------------------------------------------------------

    def _grad_mode(self, expr: ast.expr) -> str | None:
        """The grad mode a `with` item or decorator sets, if it is one of torch's."""
        call = expr if isinstance(expr, ast.Call) else None
        api = self._qualified(call.func if call else expr)
        if api in GRAD_CONTEXTS:
            if call and call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False:
                return GRAD  # inference_mode(False)
            return GRAD_CONTEXTS[api]
        if api == SET_GRAD_ENABLED and call and call.args and isinstance(call.args[0], ast.Constant):
            return GRAD if call.args[0].value else NO_GRAD
        return None

    def _compile_expression(self, node: ast.expr) -> tuple[str, ast.Call, ast.expr | None] | None:
        """(api, the call carrying the options, what is compiled) if `node` compiles a callable."""
        if not isinstance(node, ast.Call):
            return None
        api = self._qualified_if(node.func, COMPILE_NAMES)
        if api in COMPILE_APIS:
            compiled = node.args[0] if node.args else keyword(node, "model")
            return (api, node, compiled) if compiled is not None else None
        if isinstance(node.func, ast.Call):  # torch.compile(mode=...)(f), optimize(...)(f)
            factory = self._qualified_if(node.func.func, COMPILE_NAMES)
            if factory == OPTIMIZE_API or (factory in COMPILE_APIS and not node.func.args):
                return factory, node.func, node.args[0] if node.args else None
        return None

    def _compile_decorator(self, node: ast.expr) -> CompileSite | None:
        if isinstance(node, ast.Call):
            api = self._qualified(node.func)
            if api == OPTIMIZE_API or (api in COMPILE_APIS and not node.args):
                return self._site(api, node, node, None)
            return None
        api = self._qualified(node)
        return self._site(api, node, None, None) if api in COMPILE_APIS else None

    def _site(self, api: str, node: ast.expr, options: ast.Call | None, compiled: ast.expr | None) -> CompileSite | None:
        """The compile site, or None for one made a no-op (`disable=True`: torch.compile and
        optimize then return what they were given, and no thread races to compile it)."""
        if options is not None and _is_true(self._literal(keyword(options, "disable"))):
            return None
        fullgraph = options is not None and any(
            _is_true(self._literal(keyword(options, name))) for name in ("fullgraph", "nopython")
        )
        mode = self._literal(keyword(options, "mode")) if options is not None else None
        backend = keyword(options, "backend") if options is not None else None
        if backend is None and api == OPTIMIZE_API and options is not None and options.args:
            backend = options.args[0]  # optimize(backend)
        return CompileSite(
            location=self.pos.of(node),
            api=api,
            compiled=(self._dotted(compiled) or "") if compiled is not None else "",
            function=self.frame.function.qualname,
            fullgraph=fullgraph,
            mode=mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else None,
            backend=self.describe(backend) if backend is not None else "",
        )

    def _literal(self, node: ast.expr | None) -> ast.expr | None:
        """`node`, but for a name of the module bound exactly once in it, at its top level, to a
        literal (`MODE = "reduce-overhead"`, then `mode=MODE`), that literal. A name bound again
        anywhere (`MODE = ...` twice, a `global MODE` assigned, a loop or a parameter of that
        name) or imported is not folded: its value is not static."""
        if type(node) is not ast.Name or self._bound_scope(node.id) != MODULE_SCOPE:
            return node
        if self.literals is None:  # rare (an option spelled by a name): no walk for most modules
            self.literals = _literals_bound_once(self.tree) if self.tree is not None else {}
        return self.literals.get(node.id, node)

    def _compile_sites_in(
        self,
        value: ast.expr,
        *,
        scope: str | None = None,
        name: str | None = None,
        returned: bool = False,
        call: Call | None = None,
    ) -> None:
        """Turn the compile expressions `value` evaluates to into sites, once each."""
        if not self._may_compile(value):
            return
        for branch in _branches(value):
            found = self._compile_expression(branch)
            if found is None or id(branch) in self.handled:
                continue
            self.handled.add(id(branch))
            site = self._site(found[0], branch, found[1], found[2])
            if site is not None:
                self.module.compile_sites.append(site._replace(scope=scope, name=name, returned=returned, call=call))

    def _site_target(self, target: ast.expr) -> tuple[str, str] | None:
        """The (scope, name) a compile site assigned to `target` is found by: `_target`'s, and
        for an attribute of a name, `model.forward = torch.compile(model.forward)`, the name's
        scope and `model.forward` (the thread analysis looks it up as a member of `model`); of
        `self.model.forward`, the class and `model.forward`."""
        found = self._target(target)
        if found is None and type(target) is ast.Attribute:
            owner = target.value
            if type(owner) is ast.Name:
                return self._bound_scope(owner.id), f"{owner.id}.{target.attr}"
            held = self._target(owner)  # `self.model`
            return (held[0], f"{held[1]}.{target.attr}") if held is not None else None
        return found

    def _may_compile(self, value: ast.expr) -> bool:
        """Whether `value` can evaluate to a compiled callable: most calls compile nothing, told by
        the last name (see _compile_expression) before their branches are listed and looked at."""
        kind = type(value)
        if kind is ast.Call:
            func = value.func
            return type(func) is ast.Call or last_name(self.module.imports, func) in COMPILE_NAMES
        return kind is ast.IfExp

    def _thread_entry(self, node: ast.Call, call: Call) -> None:
        entry = self._entry(node, call)
        if entry is not None and entry.target:
            (self.module.process_entries if entry.kind in PROCESS_KINDS else self.module.thread_entries).append(entry)

    def _entry(self, node: ast.Call, call: Call) -> ThreadEntry | None:
        found = self._entry_parts(node)
        if found is None:
            return None
        kind, target, passed, named, pool = found
        context = self._copies_context(target)
        if context:  # Thread(target=ctx.run, args=(f, x)): the thread runs f(x)
            elements = _element_nodes(passed)
            if not elements:
                return None
            target, passed = elements[0], elements[1:]
        bound = ()  # functools.partial(f, a)'s own arguments come before the ones passed
        if isinstance(target, ast.Call) and self._is_partial(target):
            bound = tuple(self.describe(a) for a in target.args[1:])
            target = target.args[0]
        args = bound + tuple(self._passed(e) for e in _element_nodes(passed))
        keywords = tuple((name, self._passed(value)) for name, value in named)
        function = self.frame.function.qualname
        return ThreadEntry(kind, self._runnable(target), function, call, args, pool, context, keywords)

    def _passed(self, node: ast.expr) -> str:
        """An argument handed to a thread (see ThreadEntry.args): `describe`, but an object made
        for the thread as its constructor's call, `threading.Lock()` for `threading.Lock()` or for
        `locks[i]` of a `locks = [threading.Lock() for ...]` (each thread its own element)."""
        kind = type(node)
        if kind is ast.Subscript and type(node.slice) is not ast.Constant and type(node.value) in (ast.Name, ast.Attribute):
            made = {call.callee for call in self.collections.get(self._target(node.value), ())}
            return f"{made.pop()}()" if len(made) == 1 else ""
        if kind is ast.Call and not self._is_partial(node) and not _is_fileno(node):
            call = self.calls.get(id(node))
            return f"{call.callee}()" if call is not None and call.callee else ""
        return self.describe(node)

    def _runnable(self, node: ast.expr) -> str:
        """A thread's target as facts spell it: `describe`, and `Worker(cfg).loop` (a method of
        an instance made for the thread) as `Worker().loop`, which `threads` resolves as the
        class's method."""
        if type(node) is ast.Attribute and type(node.value) is ast.Call:
            made = self._dotted(node.value.func)
            return f"{made}().{node.attr}" if made else ""
        return self.describe(node)

    def _ray_remote(self, node: ast.expr) -> bool:
        """`ray.remote`, or `ray.remote(num_gpus=1)` (options only, which returns a decorator):
        what makes a Ray actor of a class or a Ray task of a function, applied to it."""
        if type(node) is ast.Call:
            if node.args:
                return False
            node = node.func
        return self._qualified_if(node, RAY_NAMES) == RAY_REMOTE

    def _ray_decorator(self, decorator: ast.expr, name: str) -> None:
        """`@ray.remote` or `@ray.remote(...)` on the def or class `name`: what it defines runs in
        a Ray worker process, a process entry as `ray.remote(name)` is."""
        if self._ray_remote(decorator):
            call = self.calls.get(id(decorator)) or Call(RAY_REMOTE, self.pos.of(decorator))
            self.module.process_entries.append(ThreadEntry("ray", name, self.frame.function.qualname, call))

    def _copies_context(self, target: ast.expr) -> bool:
        """`contextvars.copy_context().run`, or `ctx.run` for a `ctx = contextvars.copy_context()`."""
        return isinstance(target, ast.Attribute) and target.attr == "run" and self._made_by(target.value, COPY_CONTEXT)

    def _made_by(self, node: ast.expr, *apis: str) -> bool:
        """`node` is a call of one of `apis` (qualified), or a name last bound to one (`ctx =
        contextvars.copy_context()`, then `ctx`)."""
        if isinstance(node, ast.Call):
            return self._qualified(node.func) in apis
        if not isinstance(node, ast.Name):
            return False
        scope = self._bound_scope(node.id)
        binding = next((b for b in reversed(self.module.bindings) if (b.scope, b.name) == (scope, node.id)), None)
        return binding is not None and binding.call is not None and self.module.qualified(binding.value) in apis

    def _start_api(self, func: ast.expr) -> str | None:
        """`_qualified_if` for the calls starting threads or processes, but a context's `Process`
        or `Pool` (`ctx.Process` of a `ctx = multiprocessing.get_context("spawn")`, also made on
        the spot) as the module's: `multiprocessing.Process`."""
        if type(func) is ast.Attribute and func.attr in PROCESS_NAMES and self._made_by(func.value, *CONTEXTS):
            return f"multiprocessing.{func.attr}"
        return self._qualified_if(func, START_NAMES)

    def _entry_parts(self, node: ast.Call):
        """(kind, target, its arguments, its keyword arguments as (name, node) pairs, pool) if
        `node` hands a callable to another thread or process."""
        api = self._start_api(node.func)
        args = node.args
        handoff = HANDOFFS.get(api)
        if handoff is not None:
            kind, word, index, passed_word, at, named_word = handoff
            target = keyword(node, word) or (args[index] if len(args) > index else None)
            passed = keyword(node, passed_word) or (args[at] if len(args) > at else None)
            named = _named(keyword(node, named_word)) if named_word else []
            return (kind, target, passed, named, None) if target is not None else None
        if api == "asyncio.to_thread" and args:
            return "to_thread", args[0], args[1:], _keywords(node), None
        if self.ray and args and self._ray_remote(node.func):  # `ray.remote(Cls)`, `ray.remote(num_gpus=1)(f)`
            return "ray", args[0], None, (), None
        if not isinstance(node.func, ast.Attribute) or not args:
            return None
        method, receiver = node.func.attr, node.func.value
        if method == EXECUTOR_METHOD and len(args) >= 2:
            return "executor", args[1], args[2:], (), self.describe(args[0])
        if method not in POOL_METHODS:  # most calls: spare spelling the receiver
            return None
        # ThreadPoolExecutor(4).submit(f): the pool is spelled by its constructor
        pool = self.calls[id(receiver)].callee + "()" if isinstance(receiver, ast.Call) else self._dotted(receiver)
        if pool is None:
            return None
        if method == "submit":
            return "submit", args[0], args[1:], _keywords(node), pool
        if method in ("apply", "apply_async"):  # multiprocessing pools take an args tuple and a kwds dict
            passed = keyword(node, "args") or (args[1] if len(args) > 1 else None)
            return "submit", args[0], passed, _named(keyword(node, "kwds") or (args[2] if len(args) > 2 else None)), pool
        if method in POOL_MAP:
            return "map", args[0], None, (), pool
        return None

    # -- where output goes, compile settings, in-place compiles --------------------------------

    def _effect(self, node: ast.Call) -> None:
        """`os.dup2(fd, 1)`, `contextlib.redirect_stdout(f)`, `torch._dynamo.config.patch(...)`,
        `model.compile()`: calls whose facts LL204, LL205 and the compile analysis read."""
        api = self._qualified_if(node.func, EFFECT_NAMES)
        if api == "os.dup2" and len(node.args) == 2:
            stream = self._fd_stream(node.args[1])
            if stream is not None:
                self._redirect(stream, api, node, node.args[0])
        elif api in REDIRECTORS and node.args:
            self._redirect(REDIRECTORS[api], api, node, node.args[0])
        elif api is not None and api.rpartition(".")[0] in COMPILE_CONFIGS and api.endswith(".patch"):
            config = api.rpartition(".")[0]
            self.patches[id(node)] = len(self.module.config_overrides)
            self._override(config, _patched_keys(node), node)
        elif api is not None and api.endswith(".enter_context") and node.args and id(node.args[0]) in self.patches:
            # `stack.enter_context(config.patch(...))` in a `with ExitStack() as stack:`: for its block
            stack = node.func.value
            block = next((w for name, w in reversed(self.withs) if name == stack.id), None) if type(stack) is ast.Name else None
            if block is not None:
                self._scoped(self.patches[id(node.args[0])], block)
        elif api == "setattr" and len(node.args) == 3:  # setattr(torch._dynamo.config, "x", v)
            owner, key = self._qualified(node.args[0]), node.args[1]
            if owner is not None:
                static = type(key) is ast.Constant and type(key.value) is str
                self._config_setting(owner, key.value if static else None, node)
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
            self._compile_in_place(node)

    def _store(self, target: ast.expr, value: ast.expr | None) -> None:
        """`sys.stdout = f`, `torch._dynamo.config.X = v`: an assignment to a module's attribute
        (`value` None for an augmented one, `config.X *= 4`)."""
        if not isinstance(target, ast.Attribute):
            return
        owner = self._qualified(target.value)
        if owner is None:
            return
        if owner == "sys" and target.attr in ("stdout", "stderr"):
            if value is not None:
                self._redirect(target.attr, f"sys.{target.attr} =", target, value)
            return
        self._config_setting(owner, target.attr, target)

    def _config_setting(self, owner: str, attr: str | None, node: ast.AST) -> None:
        """`owner.attr = v` (or `setattr(owner, attr, v)`; `attr` None when not static) for a
        qualified `owner`: an override when it is a compile config or a group of one."""
        for config in COMPILE_CONFIGS:  # a setting of the config, or of its group (`config.triton.X`)
            if owner == config or owner.startswith(config + "."):
                keys = (f"{owner}.{attr}"[len(config) + 1 :],) if attr is not None else ()
                self._override(config, keys, node)

    def _path_open(self, node: ast.Call, call: Call) -> Call:
        """`Path(p).open("w")` as the opener it is, `pathlib.Path.open(p, "w")`, and `(Path(d) /
        name).open("w")` as one of a path not spelled; `Path(p).write_text(s)` (`write_bytes`) as
        `Path(p).open("w")`; another call as it is."""
        func = node.func
        if type(func) is not ast.Attribute or func.attr not in _PATH_OPENERS:
            return call
        made, where = func.value, ""
        if type(made) is ast.BinOp and type(made.op) is ast.Div:
            made = made.left
        elif type(made) is ast.Call and made.args:
            where = self.describe(made.args[0])
        if type(made) is not ast.Call or self._qualified(made.func) not in PATH_CLASSES:
            return call
        return call._replace(callee=PATH_OPEN, args=(where, *(call.args if func.attr == "open" else ("'w'",))))

    def _aug_assign(self, node: ast.AugAssign) -> None:
        self._children(node)
        self._store(node.target, None)

    def _redirect(self, stream: str, api: str, node: ast.AST, target: ast.expr) -> None:
        if isinstance(target, ast.Call) and _is_fileno(target):
            target = target.func.value
        call = opens = None
        if isinstance(target, ast.Call):
            call = self.calls.get(id(target))
            opens = self.calls.get(id(target.args[0])) if target.args else None
            if call is not None and not call.callee:
                call = self._path_open(target, call)
        described = f"{call.callee}()" if call is not None else self.describe(target)
        function = self.frame.function.qualname
        guards = _guards(self.tree, node, self.frame.self_name) if self.tree is not None and "<lambda" not in function else ()
        redirect = StreamRedirect(stream, api, function, self.pos.of(node), described, call, opens, guards)
        self.module.redirects.append(redirect)

    def _fd_stream(self, node: ast.expr) -> str | None:
        """The stream a file descriptor argument names: `1`, `2`, `sys.stdout.fileno()`."""
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return FD_STREAMS.get(node.value)
        if isinstance(node, ast.Call) and _is_fileno(node):
            owner, _, attr = (self._qualified(node.func.value) or "").rpartition(".")
            return STREAMS.get(attr) if owner == "sys" else None
        return None

    def _override(self, config: str, keys: tuple[str, ...], node: ast.AST) -> None:
        function = self.frame.function.qualname
        self.module.config_overrides.append(ConfigOverride(config, keys, function, self.pos.of(node)))

    def _compile_in_place(self, node: ast.Call) -> None:
        """`model.compile()` (nn.Module.compile): later calls of `model` run compiled code."""
        receiver = node.func.value
        dotted = self._dotted(receiver)
        if dotted is None or node.args or dotted.partition(".")[0] in self.module.imports:
            return
        if any(k.arg not in MODULE_COMPILE_OPTIONS for k in node.keywords):
            return
        if isinstance(receiver, ast.Name):
            symbol: tuple[str, str] | None = (self._bound_scope(receiver.id), receiver.id)
        else:
            symbol = self._target(receiver)  # self.model
        if symbol is not None:
            site = self._site(MODULE_COMPILE, node, node, receiver)
            if site is not None:
                self.module.compile_sites.append(site._replace(scope=symbol[0], name=symbol[1]))

    def _bound_scope(self, name: str) -> str:
        """Where a name read here was bound, as far as the walk has seen: the innermost function
        that assigned it (or has it as a parameter), else the module."""
        for frame in reversed(self.frames):
            if frame.scope == frame.function.qualname and name in frame.names and name not in frame.globals:
                return frame.scope
        return MODULE_SCOPE


# What the walk does with a node, by its type: functions of (walker, node), not the walker's bound
# methods, which would make each walker refer to itself. With the cyclic collector off for the run
# (cli.console), a walker in a cycle and the syntax tree it holds stayed in memory to the end: on
# the 10,000-file benchmark project, 790 MB of a one-process run instead of 360.
# Statements that do more than visit their children (imports: done before the walk).
_BY_STATEMENT: dict[type, Callable[[_Walker, ast.AST], None]] = {
    ast.FunctionDef: _Walker._def,
    ast.AsyncFunctionDef: _Walker._def,
    ast.ClassDef: _Walker._class,
    ast.Assign: _Walker._assign,
    ast.AnnAssign: _Walker._assign,
    ast.AugAssign: _Walker._aug_assign,
    ast.Return: _Walker._return,
    ast.With: _Walker._with,
    ast.AsyncWith: _Walker._with,
    ast.For: _Walker._for,
    ast.AsyncFor: _Walker._for,
    ast.While: _Walker._while,
    ast.Global: _Walker._global,
    ast.Nonlocal: _Walker._nonlocal,
    ast.Expr: lambda walker, node: walker.expression(node.value),  # what _children would do, quicker
    **dict.fromkeys((ast.Import, ast.ImportFrom), lambda walker, node: None),  # read before the walk
}
# Expression nodes that do more than visit their children: the steps that walk them (sub-nodes and
# the actions between them, in order).
_SPECIAL: dict[type, Callable[[_Walker, ast.AST], list]] = {
    ast.Lambda: _Walker._lambda_steps,
    ast.NamedExpr: _Walker._walrus_steps,
    ast.Yield: _Walker._yield_steps,
    ast.YieldFrom: _Walker._yield_steps,
    **dict.fromkeys((ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp), _Walker._comprehension_steps),
}


# -- helpers that need no walker state ----------------------------------------------------------


def _qualname(scope: str, name: str) -> str:
    return name if scope == MODULE_SCOPE else f"{scope}.{name}"


def _call_keywords(keywords: list[ast.keyword], describe: Callable[[ast.expr], str], starred: bool) -> tuple[tuple[str, str], ...]:
    """A call's keywords as `Call.keywords` has them: `**kwargs` as `**` (`UNPACKED`), and `*`
    for a `*rest` among its positional arguments (`starred`)."""
    found = [(k.arg or "**", describe(k.value)) for k in keywords]
    return tuple(found + [("*", "")]) if starred else tuple(found)


def _params(args: ast.arguments) -> tuple[str, ...]:
    """Parameters an argument can be passed to by position or keyword."""
    return tuple([a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]])  # a list: no generator


def _parameter_steps(args: ast.arguments) -> list[ast.expr]:
    """The expressions in a def's or lambda's parameters, annotations and defaults, in the order
    of the fields of `ast.arguments` (the walk's order for every node), without a visit of the
    `ast.arguments` and of each `ast.arg`."""
    steps = [
        arg.annotation
        for arg in [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs]
        if arg is not None and arg.annotation is not None
    ]
    if args.kw_defaults:
        steps += [default for default in args.kw_defaults if default is not None]
    if args.kwarg is not None and args.kwarg.annotation is not None:
        steps.append(args.kwarg.annotation)
    return steps + args.defaults


def _param_names(args: ast.arguments, params: tuple[str, ...]) -> set[str]:
    """Every name the parameters bind: `params` (what `_params` found) and `*args`, `**kwargs`."""
    return set(params) | {a.arg for a in (args.vararg, args.kwarg) if a is not None}


def _named(node: ast.expr | None) -> list[tuple[str, ast.expr]]:
    """The (name, value) pairs of a `kwargs={"fn": f}` dict with literal string keys."""
    if type(node) is not ast.Dict:
        return []
    return [(k.value, v) for k, v in zip(node.keys, node.values) if type(k) is ast.Constant and type(k.value) is str]


def _keywords(node: ast.Call) -> list[tuple[str, ast.expr]]:
    """The (name, value) pairs of a call's keyword arguments (`submit(f, fn=c)`), but `**extra`."""
    return [(k.arg, k.value) for k in node.keywords if k.arg]


def _element_nodes(node: ast.expr | list[ast.expr] | None) -> list[ast.expr]:
    """The arguments a thread target gets: a tuple or list display, or a list of call arguments."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return node.elts
    return node if isinstance(node, list) else []


def _is_fileno(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr == "fileno" and not node.args


def _guards(tree: ast.Module, node: ast.AST, self_name: str | None) -> tuple[tuple[str, str, object], ...]:
    """The tests `node` runs under (`StreamRedirect.guards`): those of the `if`s of its function
    whose body holds it, read by `_option_tests` (not of the method's `self`: `self.redirect` is
    the instance's). Found from the top down by position, for the few nodes that ask (a
    redirect), not kept for every `if` the walk passes."""
    at = (node.lineno, node.col_offset)
    tests: list[ast.expr] = []
    statements: list[tuple[ast.stmt, ast.expr | None]] = [(each, None) for each in tree.body]
    while statements:
        found = next(((s, t) for s, t in statements if (s.lineno, s.col_offset) <= at < (s.end_lineno, s.end_col_offset)), None)
        if found is None:
            break
        statement, test = found
        if test is not None:
            tests.append(test)
        kind = type(statement)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            tests = []  # its body runs when it is called, not where it is defined
        if kind is ast.If:
            statements = [(each, statement.test) for each in statement.body] + [(each, None) for each in statement.orelse]
            continue
        lists = [getattr(statement, name, None) or [] for name in ("body", "orelse", "finalbody")]
        lists += [part.body for part in (getattr(statement, "handlers", None) or getattr(statement, "cases", None) or [])]
        statements = [(each, None) for body in lists for each in body]
    return tuple(found for test in tests for found in _option_tests(test, self_name))


def _option_tests(test: ast.expr, self_name: str | None) -> Iterator[tuple[str, str, object]]:
    """The parts of an `if` test (each of an `and`'s) that read an attribute of a name other than
    `self_name`, as (attribute, operator, literal): `args.redirect` ("", None), `args.out is not
    None` ("is not", None), `args.out != ""` ("!=", ""), `args.log == "file"` ("==", "file")."""
    parts = test.values if type(test) is ast.BoolOp and type(test.op) is ast.And else [test]
    for part in parts:
        read = part.left if type(part) is ast.Compare and len(part.ops) == 1 else part
        if type(read) is not ast.Attribute or type(read.value) is not ast.Name or read.value.id == self_name:
            continue
        if read is part:
            yield read.attr, "", None
            continue
        op, value = type(part.ops[0]), part.comparators[0]
        if type(value) is not ast.Constant:
            continue
        if op is ast.IsNot and value.value is None:
            yield read.attr, "is not", None
        elif op is ast.NotEq or op is ast.Eq:
            yield read.attr, "!=" if op is ast.NotEq else "==", value.value


def _patched_keys(node: ast.Call) -> tuple[str, ...]:
    """The settings `config.patch(...)` changes: `patch(x=1)`, `patch("x", 1)`, `patch({"x": 1})`;
    () when they are not static (`patch(**overrides)`)."""
    keys = [k.arg for k in node.keywords]
    if node.args:
        first = node.args[0]
        if isinstance(first, ast.Dict):
            keys += [k.value if isinstance(k, ast.Constant) else None for k in first.keys]
        else:
            keys.append(first.value if isinstance(first, ast.Constant) else None)
    return tuple(keys) if all(isinstance(k, str) for k in keys) and keys else ()


def _is_true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _branches(value: ast.expr) -> list[ast.expr]:
    """The values an expression may evaluate to: both arms of `a if c else b`."""
    branches = []
    while type(value) is ast.IfExp:
        branches.append(value.body)
        value = value.orelse
    branches.append(value)
    return branches


def _unwrap_returns_self(value: ast.expr) -> ast.expr:
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in RETURNS_SELF
        and isinstance(value.func.value, ast.Call)
    ):
        value = value.func.value
    return value


def _note_held(function: Function, held: str) -> None:
    if held not in function.holds:
        function.holds = (*function.holds, held)


def _remove_last(stack: list, value: object) -> None:
    for index in range(len(stack) - 1, -1, -1):
        if stack[index] == value:
            del stack[index]
            return


def _product(numbers: list[int | None]) -> int | None:
    result = 1
    for number in numbers:
        if number is None:
            return None
        result *= number
    return result


def _int_constants(body: list[ast.stmt]) -> dict[str, int]:
    constants = {}
    for node in body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and type(node.value.value) is int
        ):
            constants[node.targets[0].id] = node.value.value
    return constants


def _literals_bound_once(tree: ast.Module) -> dict[str, ast.Constant]:
    """The names a module binds exactly once, at its top level to a literal (`MODE =
    "reduce-overhead"`, `FULLGRAPH: bool = True`), with that literal."""
    candidates = {}
    for node in tree.body:
        kind = type(node)
        if kind is ast.Assign and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif kind is ast.AnnAssign:
            target, value = node.target, node.value
        else:
            continue
        if type(target) is ast.Name and type(value) is ast.Constant:
            candidates[target.id] = value
    if not candidates:
        return {}
    bound: dict[str, int] = dict.fromkeys(candidates, 0)  # every binding of those names, anywhere
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            name = node.id if type(node.ctx) is not ast.Load else None
        elif kind is ast.arg:
            name = node.arg
        elif kind is ast.alias:
            name = (node.asname or node.name).partition(".")[0]
        elif kind in _NAMED_BINDINGS:  # defs, classes, `except E as name`, `case [*name]`, `case x as name`
            name = node.name
        elif kind is ast.MatchMapping:
            name = node.rest
        else:
            name = None
        if name in bound:
            bound[name] += 1
        stack += child_nodes(node)
    return {name: value for name, value in candidates.items() if bound[name] == 1}


_NAMED_BINDINGS = frozenset(
    {ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchStar, ast.MatchAs}
)


def _iterations(node: ast.expr, constants: dict[str, int]) -> int | None:
    """How many times `for _ in node` runs, when that is static."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return len(node.elts)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"):
        return None
    bounds = [_int_value(a, constants) for a in node.args[:2]]
    if None in bounds or not bounds:
        return None
    start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds
    return max(stop - start, 0)


def _int_value(node: ast.expr, constants: dict[str, int]) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _stored_names(target: ast.expr) -> list[str]:
    """The names an assignment target binds: `x`, `(a, [b, *c])`."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return _stored_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _stored_names(element)]
    return []


def _imports(body: list[ast.stmt], functions: bool = True) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements in a body and in the bodies nested in it, in source order, without
    looking into expressions; not those in a function's body unless `functions`. Only imports
    and the statements that hold statements are stacked: most statements are neither."""
    stack = [node for node in reversed(body) if type(node) in _IMPORTS_OR_BODIES]
    while stack:
        node = stack.pop()
        fields = _BODIES.get(type(node))
        if fields is None:
            yield node
            continue
        if not functions and type(node) in _FUNCTION_DEFS:
            continue
        for name in fields:
            stack += [child for child in reversed(getattr(node, name)) if type(child) in _IMPORTS_OR_BODIES]


_BODY_FIELDS = ("handlers", "cases", "finalbody", "orelse", "body")  # in reverse source order
# The statements that hold statements (and except handlers and match cases, which do too), with
# the fields that hold them.
_BODIES: dict[type, tuple[str, ...]] = {
    kind: fields
    for kind in (*ast.stmt.__subclasses__(), ast.ExceptHandler, ast.match_case)
    if (fields := tuple(f for f in _BODY_FIELDS if f in kind._fields))
}
_IMPORTS_OR_BODIES = frozenset({ast.Import, ast.ImportFrom, *_BODIES})
_FUNCTION_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
