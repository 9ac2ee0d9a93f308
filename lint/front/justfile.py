"""justfile front end (casey/just): recipe lines as shell, at their exact file positions.

The Makefile front end's counterpart (see front/makefile.py, whose helpers it shares), for
`justfile`, `Justfile`, `.justfile` (any case, as just looks for them) and `*.just` modules.
What just does to a recipe before a shell sees it, and what this front end therefore does:

- A recipe is a line `name param1 param2='default' *rest: dependencies` at the left margin,
  then its indented lines (one indentation, spaces or tabs: a line indented otherwise is an error
  just refuses the file for, and this front end drops the recipe). Attribute lines (`[script]`,
  `[working-directory('dir')]`, `[windows]`) come before it. Dependencies run first; which
  recipe runs before which is not modeled (as make's prerequisites are not).
- A recipe line's `{{expression}}` is replaced by its value: a string literal, a variable of the
  file (`var := "x"`, `export var := ...`) or a parameter, and `+` or `/` joining them. A
  parameter without a default, a function (`justfile_directory()`, `env_var('X')`), a backtick
  or a conditional is unknown: a shell word of the same length, so columns stay exact. A
  parameter's default (`config='a.yaml'`, `*ARGS=''`, a `*` one's empty) is what runs when the
  recipe is called without it, and its caller's to set (`just train b.yaml`), as a Makefile's
  `?=` variable is (`launches.decided_by_caller`). `{{{{` is a literal `{{`.
- A recipe whose first line is a `#!` line is one script, run by that interpreter (read when it
  is a POSIX shell), and so is one with the `[script]` attribute (`set script-interpreter`'s,
  `sh -eu` by default, or the attribute's own). Any other recipe runs line by line, each line in
  a new shell (`set shell := [...]`, `sh -cu` by default, whose `-o pipefail` puts pipefail in
  effect; a shell that is not a POSIX one is not read), with a line ending in `\\` joined to the
  next (that line's indentation dropped) and just's `@` and `-` prefixes stripped; a `-` line's
  status is ignored. A recipe only for Windows (`[windows]`) is not read.
- `$1` and `$@` (the recipe's arguments under `set positional-arguments`) are the shell's, not
  known here, as a script's are; `$` is not just's.
- A recipe runs in the justfile's directory, or `[working-directory]`'s (or `set
  working-directory`'s) below it: its lines start with a `cd` there.
- Syntax this front end does not read (an expression over several lines, an `if` at the top) is
  skipped, as the Makefile front end skips what it does not read: no LL001 but the shell's own.
  An `import`ed file may set `shell`: then pipefail is not known to be off.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..discover import SHELL_PROGRAMS, shebang_program, shebang_words
from ..model import LineIndex
from ..shellfacts import ShellScript, shell_args
from .makefile import recipe_facts
from .shell import MAX_VALUE, parse_shell, shebang_pipefail
from .textmap import MappedText, continued, line_spans, opaque, stand_ins

DEFAULT_SHELL = ("sh", "-cu")
DEFAULT_SCRIPT_INTERPRETER = ("sh", "-eu")
MAX_DEPTH = 20  # `a := b`, `b := a` loops; real variables nest a few levels

_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_ASSIGNMENT = re.compile(rf"(?:export\s+)?({_NAME})\s*:=\s*(.*)")
_SETTING = re.compile(rf"set\s+({_NAME})\s*(?::=\s*(.*))?")
_HEADER = re.compile(rf"@?({_NAME})")
_PARAMETER = re.compile(rf"\s+([*+]?)(\$?)({_NAME})")
_STRING = r"'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\""
_TOKEN = re.compile(rf"\s*(?:(?P<string>{_STRING})|(?P<name>{_NAME})|(?P<op>[+/]))\s*")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_ATTRIBUTE = re.compile(rf"({_NAME})\s*(?:\(([^)]*)\))?")
_DEFAULT = re.compile(rf"\s*=\s*({_STRING}|{_NAME}|`[^`\n]*`|\()")
_STATEMENTS = ("alias ", "mod ", "mod? ", "unexport ")


class _Recipe:
    def __init__(self, parameters: dict[str, tuple[str | None, str | None]], attributes: dict[str, str | None]):
        self.parameters = parameters  # name -> (its default's value, None: unknown; the default's name, None: none)
        self.attributes = attributes  # name -> its arguments' text (None: none)
        self.lines: list[tuple[int, int]] = []  # the file's (start, end) of each body line, after the indentation
        self.exported: set[str] = set()


class _Justfile:
    """The settings, variables and recipes of one justfile, read top to bottom."""

    def __init__(self, text: str):
        self.text = text
        self.assignments: dict[str, str] = {}  # name -> its expression's text
        self.exported: set[str] = set()
        self.settings: dict[str, str] = {}  # name -> its value's text ("true" for `set name`)
        self.imports = False
        self.recipes: list[_Recipe] = []
        self.values: dict[str, str | None] = {}  # the variables evaluated so far
        self.unchecked: list[int] = []  # where each recipe line with a `-` prefix starts
        self.overridable: dict[int, str] = {}  # the offset of an interpolation made by a default -> its name

    # --- reading -------------------------------------------------------------------------

    def read(self) -> None:
        recipe: _Recipe | None = None
        indentation = ""
        attributes: dict[str, str | None] = {}
        for start, end in line_spans(self.text):
            line = self.text[start:end]
            content = line.lstrip(" \t")
            if not content:
                continue  # a blank line ends no recipe
            if len(content) < len(line):  # indented: a recipe's line, or part of an expression
                if recipe is None:
                    continue
                indentation = indentation or line[: len(line) - len(content)]
                if not line.startswith(indentation):  # just refuses the file: its recipe is not read
                    self.recipes.remove(recipe)
                    recipe = None
                    continue
                recipe.lines.append((start + len(indentation), end))
                continue
            recipe, indentation = None, ""
            if content.startswith("#"):
                continue
            if content.startswith("["):
                attributes.update(_attributes(content))
                continue
            recipe = self._statement(content, attributes)
            if recipe is not None:
                self.recipes.append(recipe)
            attributes = {}

    def _statement(self, line: str, attributes: dict[str, str | None]) -> _Recipe | None:
        """Read one line at the left margin; the recipe it starts, if any."""
        code = line.split(" #", 1)[0].rstrip()
        setting = _SETTING.fullmatch(code)
        if setting is not None:
            self.settings[setting.group(1)] = setting.group(2) or "true"
            return None
        if code.startswith(("import ", "import? ")):
            self.imports = True
            return None
        if code.startswith(_STATEMENTS):
            return None
        assignment = _ASSIGNMENT.fullmatch(code)
        if assignment is not None:
            name, expression = assignment.groups()
            self.assignments[name] = expression
            if code.startswith("export"):
                self.exported.add(name)
            return None
        return self._header(line, attributes)

    def _header(self, line: str, attributes: dict[str, str | None]) -> _Recipe | None:
        """`@name a b='x' $c *rest: deps`; None when the line is no recipe header."""
        match = _HEADER.match(line)
        if match is None:
            return None
        parameters: dict[str, tuple[str | None, str | None]] = {}
        exported = set()
        at = match.end()
        while True:
            parameter = _PARAMETER.match(line, at)
            if parameter is None:
                break
            variadic, dollar, name = parameter.groups()
            at = parameter.end()
            default = _DEFAULT.match(line, at)
            if default is not None:
                token = default.group(1)
                if token == "(":  # an expression in parentheses: unknown
                    close = line.find(")", default.end())
                    if close < 0:
                        return None
                    at = close + 1
                    parameters[name] = (None, None)
                else:
                    at = default.end()
                    parameters[name] = self._parameter_default(name, token, parameters)
            else:
                parameters[name] = ("", f"{{{{{name}}}}}") if variadic == "*" else (None, None)
            if dollar:
                exported.add(name)
        rest = line[at:].lstrip()
        if not rest.startswith(":") or rest.startswith(":="):
            return None
        recipe = _Recipe(parameters, attributes)
        recipe.exported = exported
        return recipe

    def _parameter_default(self, name: str, token: str, earlier: dict) -> tuple[str | None, str | None]:
        if token.startswith("`"):
            return None, None
        value, _ = self.evaluate(token, earlier)
        return (value, f"{{{{{name}}}}}") if value is not None else (None, None)

    # --- evaluating ----------------------------------------------------------------------

    def value(self, name: str, depth: int = 0) -> str | None:
        """A variable's value; None when it is not known (not a literal, not of this file)."""
        if name not in self.values:
            expression = self.assignments.get(name)
            if expression is None or depth > MAX_DEPTH:
                return None
            self.values[name] = None  # a variable defined through itself: unknown
            self.values[name] = self.evaluate(expression, {}, depth + 1)[0]
        return self.values[name]

    def evaluate(self, expression: str, parameters: dict, depth: int = 0) -> tuple[str | None, str | None]:
        """An expression's value (None: unknown), and the name of the first parameter default it
        took, which the recipe's caller may set instead (None: none)."""
        pieces: list[str] = []
        took = None
        at = 0
        expect_operand = True
        while at < len(expression):
            token = _TOKEN.match(expression, at)
            if token is None or (token.group("op") is None) != expect_operand:
                return None, None  # a call, a backtick, a conditional, `x'...'`: not read
            at = token.end()
            expect_operand = not expect_operand
            if token.group("op") == "/":
                pieces.append("/")
            elif token.group("string") is not None:
                string = _string(token.group("string"))
                if string is None:
                    return None, None
                pieces.append(string)
            elif token.group("name") is not None:
                name = token.group("name")
                if name in parameters:
                    value, default = parameters[name]
                    took = took or default
                else:
                    value = self.value(name, depth)
                if value is None:
                    return None, None
                pieces.append(value)
        if expect_operand:  # empty, or ends in an operator
            return None, None
        value = "".join(pieces)
        return (value if len(value) <= MAX_VALUE else None), took

    def interpolated(self, start: int, end: int, recipe: _Recipe, result: MappedText) -> None:
        """The file's text from `start` to `end` with each `{{expression}}` replaced by its value,
        or an unknown word of its length."""
        text = self.text
        at = start
        while True:
            open_ = text.find("{{", at, end)
            if open_ < 0:
                result.copy(text[at:end], range(at, end))
                return
            result.copy(text[at:open_], range(at, open_))
            if text.startswith("{{{{", open_) and open_ + 4 <= end:
                result.copy("{{", range(open_, open_ + 2))
                at = open_ + 4
                continue
            close = text.find("}}", open_ + 2, end)
            after = end if close < 0 else close + 2
            value, took = (None, None) if close < 0 else self.evaluate(text[open_ + 2 : close], recipe.parameters)
            if value is None:
                result.copy(opaque(text[open_:after]), range(open_, after))
            else:
                result.insert(value, open_)
                if took is not None:
                    self.overridable[open_] = took
            at = after

    # --- the shells ------------------------------------------------------------------------

    def shell(self, setting: str, default: tuple[str, ...]) -> list[str] | None:
        """A setting's command (`set shell := ["bash", "-uc"]`), its words; None when not a list
        of string literals."""
        value = self.settings.get(setting)
        if value is None:
            return list(default)
        return _words(value)

    def environment(self, recipe: _Recipe) -> dict[str, str | None]:
        """The variables exported to the recipe's shell (`export`, `set export`, `$param`)."""
        everything = self.settings.get("export") == "true"
        names = set(self.assignments) if everything else set(self.exported)
        env: dict[str, str | None] = {name: self.value(name) for name in names}
        for name in recipe.parameters if everything else recipe.exported:
            env[name] = None  # its caller's
        return env

    def shell_texts(self, recipe: _Recipe) -> Iterator[tuple[str, list[int], bool | None]]:
        """What each shell of a recipe runs, and whether pipefail is in effect there (None: a
        recipe this front end does not read)."""
        if not recipe.lines or _only_windows(recipe.attributes):
            return
        directory = self._directory(recipe)
        first_start, first_end = recipe.lines[0]
        script = recipe.attributes.get("script", False)
        if self.text.startswith("#!", first_start) or script is not False:
            if script is False:
                shebang = self.text[first_start:first_end]
                words = shebang_words(shebang) or []
                if shebang_program(shebang) not in SHELL_PROGRAMS:
                    return
                pipefail = shebang_pipefail(shebang)
            else:
                words = _words(f"[{script}]") if script else self.shell("script-interpreter", DEFAULT_SCRIPT_INTERPRETER)
                if not words or words[0].rpartition("/")[2] not in SHELL_PROGRAMS:
                    return
                pipefail = shell_args(words[1:]).pipefail
            yield (*self._script(recipe, directory), pipefail)
            return
        words = self.shell("shell", DEFAULT_SHELL)
        if not words or words[0].rpartition("/")[2] not in SHELL_PROGRAMS:
            return
        pipefail = True if self.imports and "shell" not in self.settings else shell_args(words[1:]).pipefail
        for text, origin in self._lines(recipe, directory):
            yield text, origin, pipefail

    def _directory(self, recipe: _Recipe) -> tuple[str, int] | None:
        """The `cd` a recipe's shell starts with, and where it is written; None: none."""
        written = recipe.attributes.get("working-directory") or self.settings.get("working-directory")
        if not written or "no-cd" in recipe.attributes:
            return None
        at = max(self.text.find(written), 0)
        value = self.evaluate(written, {})[0]
        return (f"cd -- {_quoted(value)}\n" if value is not None else f"cd -- {opaque(written)}\n"), at

    def _script(self, recipe: _Recipe, directory: tuple[str, int] | None) -> tuple[str, list[int]]:
        """A `#!` or `[script]` recipe: its lines as one script, each newline between them (a
        blank line's too) where it is in the file."""
        result = MappedText()
        if directory is not None:
            result.insert(*directory)
        previous = None
        for start, end in recipe.lines:
            if previous is not None:
                for offset in range(previous, start):
                    if self.text[offset] == "\n":
                        result.copy("\n", [offset])
            self.interpolated(start, end, recipe, result)
            previous = end
        return result.build(previous)

    def _lines(self, recipe: _Recipe, directory: tuple[str, int] | None) -> Iterator[tuple[str, list[int]]]:
        """Each logical line of a linewise recipe: a line ending in `\\` goes on after the next
        line's indentation (just drops the backslash, the newline and that indentation); a
        comment line never does. Just's `@` and `-` prefixes stripped."""
        text = self.text
        i = 0
        while i < len(recipe.lines):
            start, end = recipe.lines[i]
            result = MappedText()
            if directory is not None:
                result.insert(*directory)
            cut = _prefix(text[start : min(start + 2, end)])
            if "-" in text[start : start + cut]:
                self.unchecked.append(start + cut)
            comment = text.startswith("#", start)
            start += cut
            while True:
                line = text[start:end]
                more = not comment and continued(line) and i + 1 < len(recipe.lines)
                self.interpolated(start, end - 1 if more else end, recipe, result)
                i += 1
                if not more:
                    break
                start, end = recipe.lines[i]
                start += _indent_of_line(text, start, end)
            yield result.build(end)


def parse_justfile(path: str, text: str, index: LineIndex) -> ShellScript | None:
    """The shell of every recipe of a justfile, in one script (each line its own shell, a
    script recipe one)."""
    justfile = _Justfile(text)
    justfile.read()
    script = None
    for recipe in justfile.recipes:
        env = None
        for shell_text, origin, pipefail in justfile.shell_texts(recipe):
            if shell_text.strip():
                env = justfile.environment(recipe) if env is None else env
                script = parse_shell(path, shell_text, index, origin, pipefail=pipefail, env=env, script=script)
    if script is not None:
        recipe_facts(script, text, index, justfile.unchecked, justfile.overridable)
    return script


def script_recipe_at(text: str, line: int) -> bool:
    """Whether `line` (1-based) of a justfile is in a recipe that runs as one script (`#!` or
    `[script]`), where a `set -o pipefail` holds for its lines (LL105's advice)."""
    justfile = _Justfile(text)
    justfile.read()
    index = LineIndex(text)
    for recipe in justfile.recipes:
        if recipe.lines and index.position(recipe.lines[0][0])[0] <= line <= index.position(recipe.lines[-1][1])[0]:
            return text.startswith("#!", recipe.lines[0][0]) or "script" in recipe.attributes
    return False


def originals(text: str) -> dict[str, str]:
    """What the stand-ins of this justfile's shell stand for, by stand-in (see textmap.restore):
    its interpolations, and the `working-directory` values a `cd` was made of."""
    found = re.findall(r"\{\{(?!\{\{).*?\}\}", text)
    found += [m.group(1) for m in re.finditer(r"working-directory(?:\(|\s*:=\s*)([^)\n]*)", text)]
    return stand_ins(found, shell_dollar_underscore="$_" in text)


# --- lexical helpers ---------------------------------------------------------------------------


def _string(token: str) -> str | None:
    """A string literal's value: `'...'` as written, `"..."` with its escapes (None for one
    this front end does not read)."""
    if token.startswith("'"):
        return token[1:-1]
    body = token[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        if body[i] == "\\":
            escaped = _ESCAPES.get(body[i + 1 : i + 2])
            if escaped is None:
                return None
            out.append(escaped)
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def _words(value: str) -> list[str] | None:
    """`["bash", "-uc"]`: its strings; None when it is not a list of string literals."""
    value = value.strip()
    if not (value.startswith("[") and value.endswith("]")):
        return None
    items = [item.strip() for item in value[1:-1].split(",") if item.strip()]
    words = [_string(item) if re.fullmatch(_STRING, item) else None for item in items]
    return None if None in words else words


def _attributes(line: str) -> dict[str, str | None]:
    """`[private, script('bash'), working-directory('sub')]`: each attribute's arguments."""
    inside = line.strip()[1 : line.strip().find("]")] if "]" in line else ""
    return {m.group(1): m.group(2) for m in _ATTRIBUTE.finditer(inside)}


def _only_windows(attributes: dict[str, str | None]) -> bool:
    return "windows" in attributes and not {"linux", "macos", "unix", "openbsd"} & set(attributes)


def _prefix(start: str) -> int:
    """How many characters of a line just takes for its `@` and `-` prefixes (each once)."""
    if start[:2] in ("@-", "-@"):
        return 2
    return 1 if start[:1] in ("@", "-") else 0


def _indent_of_line(text: str, start: int, end: int) -> int:
    """How much indentation a line from `start` has (of its own: the recipe's is gone)."""
    line = text[start:end]
    return len(line) - len(line.lstrip(" \t"))


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"
