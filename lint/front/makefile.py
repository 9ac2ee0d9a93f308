"""Makefile front end: recipe lines as shell, at their exact file positions.

What GNU make does to a recipe before a shell sees it, and what this front end therefore does:

- A recipe line starts with a tab (or `.RECIPEPREFIX`) under a rule line `targets: prereqs`, or
  follows the `;` of the rule line itself. A backslash-newline continues it and reaches the shell
  as is; the continuation line's leading tab is removed.
- Make expands the line first: `$$` is `$`; `$(VAR)`, `${VAR}` and `$V` are replaced by the value
  of a variable defined in this file (`=`, `:=`, `::=`, `?=`, `+=`), `$@` by the rule's target
  when it has one, not a pattern (`wget URL -O $@`). Anything else (a function, another automatic
  variable, a variable from the environment, an include or a conditional) becomes an unknown
  shell word of the same length, so columns stay exact.
- Then the `@`, `-` and `+` prefixes are make's, not the shell's (after expansion, so the
  `Q := @` idiom is read too).
- Each logical line runs in a shell of its own, unless `.ONESHELL:` is set; `SHELL` and
  `.SHELLFLAGS` choose that shell (`-o pipefail` there puts pipefail in effect). A `SHELL` that
  is not a POSIX shell is not read.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence

from ..model import LineIndex
from ..shellfacts import ShellScript, shell_args
from .shell import MAX_VALUE, parse_shell
from .textmap import MappedText, continued, line_spans, opaque, stand_ins

POSIX_SHELLS = {"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"}
CONDITIONALS = {"ifeq", "ifneq", "ifdef", "ifndef"}
INCLUDES = {"include", "-include", "sinclude"}
# Make defines these itself (`CC` is `cc`), so `CC ?= clang` leaves them as make's default.
BUILTIN_VARIABLES = {"AR", "AS", "CC", "CPP", "CXX", "FC", "LEX", "MAKE", "RM", "YACC"}
MAX_EXPANSION_DEPTH = 20  # `A = $(A)` loops; real variables nest a few levels

_ASSIGNMENT = re.compile(r"\s*([^\s:#=?+!]+)\s*(:::=|::=|:=|\?=|\+=|!=|=)\s*(.*)", re.DOTALL)
_MODIFIERS = re.compile(r"\s*(?:(?:export|override|private)\s+)+")
_PREFIX = re.compile(r"[@+\-\s]*")  # what make strips from an expanded recipe line
_SIMPLE_NAME = re.compile(r"[^\s:=#$(){},]+")


class _Variable:
    def __init__(self, value: str, recursive: bool) -> None:
        self.value = value
        self.recursive = recursive  # `=`: expanded where it is used; `:=`: expanded once, where it is defined


class _Variables(dict):
    """The variables by name. Keeps the expansions of recursive ones until any variable changes:
    `V0 = $(V1)$(V1)`, `V1 = $(V2)$(V2)` ... re-expanded at every reference was exponential."""

    def __init__(self) -> None:
        super().__init__()
        self.expanded: dict[tuple[str, int], str | None] = {}  # (name, depth) -> value

    def __setitem__(self, name: str, variable: _Variable | None) -> None:
        self.expanded.clear()
        super().__setitem__(name, variable)

    def pop(self, name: str, *default):
        self.expanded.clear()
        return super().pop(name, *default)


Line = tuple[str, list[int]]  # text and the file offset of each character, plus one past the end


class _Makefile:
    """The variables, settings and recipes of one makefile, read top to bottom."""

    def __init__(self, text: str):
        self.text = text
        self.variables = _Variables()  # None: set, value unknown
        self.exported: set[str] = set()
        self.export_all = False
        self.oneshell = False
        self.included = False  # an include may have set any variable
        self.recipe_prefix = "\t"
        self.conditional_depth = 0
        self.recipes: list[list[Line]] = []
        self.targets: list[str | None] = []  # each recipe's rule's one target (`$@`), None: several, a pattern
        self.target: str | None = None  # the target of the recipe expanded now
        self.unchecked: list[int] = []  # where each recipe line with a `-` prefix starts (`_command`)
        # `ARGS ?= --lr 1`: make keeps the environment's or its command line's ARGS when set, so a
        # recipe's words from it are a default a caller decides (`Command.defaults`): the names of
        # such variables (and of those whose value holds one), and where a recipe refers to them.
        self.defaulted: set[str] = set()
        self.overridable: dict[int, str] = {}  # the file offset of a reference's `$` -> its variable

    # --- reading -------------------------------------------------------------------------

    def read(self) -> None:
        lines = line_spans(self.text)
        in_rule = False
        i = 0
        while i < len(lines):
            if in_rule and self.text.startswith(self.recipe_prefix, lines[i][0]):
                line, i = self._recipe_line(lines, i)
                self.recipes[-1].append(line)
                continue
            line, i = self._logical_line(lines, i)
            content = line[0].strip()
            if not content or content.startswith("#"):
                continue  # blank and comment lines do not end a recipe
            if _first_word(_without_modifiers(content)) == "define":
                i = self._define(lines, i, content)
                in_rule = False
                continue
            in_rule = self._statement(line, in_rule)

    def _recipe_line(self, lines: list[tuple[int, int]], i: int) -> tuple[Line, int]:
        """One logical recipe line: backslash-newlines stay, continuation lines lose their tab."""
        result = MappedText()
        first = True
        while True:
            start, end = lines[i]
            if first or self.text.startswith(self.recipe_prefix, start):
                start += len(self.recipe_prefix)
            result.copy(self.text[start:end], range(start, end))
            i += 1
            first = False
            if not continued(self.text[start:end]) or i >= len(lines):
                return result.build(end), i
            result.copy("\n", [end])

    def _logical_line(self, lines: list[tuple[int, int]], i: int) -> tuple[Line, int]:
        """A makefile line: backslash-newline and the next line's indentation become one space."""
        result = MappedText()
        start = lines[i][0]
        while True:
            end = lines[i][1]
            i += 1
            if not continued(self.text[start:end]) or i >= len(lines):
                result.copy(self.text[start:end], range(start, end))
                return result.build(end), i
            result.copy(self.text[start : end - 1].rstrip(), range(start, end))
            result.insert(" ", end - 1)
            start, next_end = lines[i]
            start = next_end - len(self.text[start:next_end].lstrip())

    def _define(self, lines: list[tuple[int, int]], i: int, content: str) -> int:
        """`define NAME ... endef`: a multi-line value (often a canned recipe), not read."""
        words = _without_modifiers(content).split()
        if len(words) > 1:
            self.variables[words[1]] = None
        while i < len(lines):
            start, end = lines[i]
            i += 1
            if _first_word(self.text[start:end].strip()) == "endef":
                break
        return i

    def _statement(self, line: Line, in_rule: bool) -> bool:
        """Read one non-recipe line; True when recipe lines may follow it."""
        text, origin = line
        code = text[: _comment_start(text)]
        word = _first_word(code.strip())
        if word in CONDITIONALS:
            self.conditional_depth += 1
            return in_rule
        if word == "endif":
            self.conditional_depth = max(0, self.conditional_depth - 1)
            return in_rule
        if word == "else":
            return in_rule
        if word in INCLUDES:
            self._include()
            return False
        if word in ("unexport", "undefine"):
            for name in code.split()[1:]:
                self.exported.discard(name)
                if word == "undefine":
                    self.variables.pop(name, None)
            return False
        if self._assignment(code):
            return False
        colon = _rule_colon(code)
        return colon is not None and self._rule(text, origin, colon)

    def _assignment(self, code: str) -> bool:
        if code.strip() == "export":  # alone: every variable is exported
            self.export_all = True
            return True
        modifiers = _MODIFIERS.match(code)
        rest = code[modifiers.end() :] if modifiers else code
        exported = bool(modifiers) and "export" in modifiers.group().split()
        match = _ASSIGNMENT.fullmatch(rest)
        if match is None:
            if exported:  # `export A B`
                self.exported.update(rest.split())
            return exported
        name, operator, value = match.groups()
        if exported:
            self.exported.add(name)
        self._assign(name, operator, value)
        if name == ".RECIPEPREFIX":
            self.recipe_prefix = (self.value(name) or "\t")[:1] or "\t"
        return True

    def _assign(self, name: str, operator: str, value: str) -> None:
        old = self.variables.get(name)
        if operator == "?=" and name not in self.variables or self._refers_to_defaulted(value):
            self.defaulted.add(name)
        elif operator != "+=":
            self.defaulted.discard(name)
        if self.conditional_depth or operator == "!=":
            self.variables[name] = None  # set on some paths only, or by running a command
        elif operator == "?=":
            if name not in self.variables:
                unknown = self.included or name in BUILTIN_VARIABLES
                self.variables[name] = None if unknown else _Variable(value, True)
        elif operator == "+=" and name in self.variables:
            if old is not None:
                added = value if old.recursive else self.expand(value)
                self.variables[name] = _Variable(f"{old.value} {added}".strip(), old.recursive)
        elif operator in ("=", "+="):
            self.variables[name] = _Variable(value, True)
        else:  # := ::= :::=
            self.variables[name] = _Variable(self.expand(value), False)

    def _refers_to_defaulted(self, text: str, depth: int = 0, seen: set[str] | None = None) -> bool:
        """Whether `text` refers to a `?=` variable, itself or through another's value (each
        variable read once: `W1 = $(W0)$(W0)` doubling at each level stays linear)."""
        if not self.defaulted:
            return False
        seen = set() if seen is None else seen
        dollar = text.find("$")
        while 0 <= dollar < len(text) - 1 and depth <= MAX_EXPANSION_DEPTH:
            if text[dollar + 1] == "$":
                dollar = text.find("$", dollar + 2)
                continue
            name, end = _reference(text, dollar)
            if name in self.defaulted:
                return True
            variable = self.variables.get(name) if name is not None and name not in seen else None
            if name is not None:
                seen.add(name)
            if variable is not None and variable.recursive and self._refers_to_defaulted(variable.value, depth + 1, seen):
                return True
            dollar = text.find("$", end)
        return False

    def _include(self) -> None:
        """The included file may set any variable: what is known so far no longer is."""
        self.included = True
        for name in self.variables:
            self.variables[name] = None

    def _rule(self, text: str, origin: list[int], colon: int) -> bool:
        """`targets: prereqs [; recipe]` starts a recipe; True unless it sets a target-specific
        variable (`train: LOGS = x`), whose value then depends on the target."""
        targets = text[:colon].split()
        after = text[colon:].lstrip(":")
        semicolon = _top_level(after, ";")
        comment = _comment_start(after)
        target_specific = _ASSIGNMENT.fullmatch(_without_modifiers(after[:comment]))
        if target_specific and semicolon is None:
            self.variables[target_specific.group(1)] = None
            return False
        if ".ONESHELL" in targets:
            self.oneshell = True
        if ".EXPORT_ALL_VARIABLES" in targets:
            self.export_all = True
        self.recipes.append([])
        self.targets.append(targets[0] if len(targets) == 1 and not any(c in targets[0] for c in "%$") else None)
        if semicolon is not None and semicolon < comment:
            cut = len(text) - len(after) + semicolon + 1
            self.recipes[-1].append((text[cut:], origin[cut:]))
        return True

    # --- expanding -----------------------------------------------------------------------

    def value(self, name: str, depth: int = 0) -> str | None:
        """A variable's expanded value; None when it is not known, or longer than MAX_VALUE (as
        the shell front end does: `V = $(W)$(W)` doubling at each level is no real value)."""
        if name == "":
            return ""
        if name == "@":  # the automatic variable: the rule's target, in its recipe
            return self.target
        variable = self.variables.get(name)
        if variable is None or depth > MAX_EXPANSION_DEPTH:
            return None
        if not variable.recursive:
            return variable.value if len(variable.value) <= MAX_VALUE else None
        expanded = self.variables.expanded
        key = (name, depth)
        if key not in expanded:
            value = self.expand(variable.value, depth + 1)
            expanded[key] = value if len(value) <= MAX_VALUE else None
        return expanded[key]

    def expand(self, text: str, depth: int = 0) -> str:
        return self.expand_mapped(text, [0] * (len(text) + 1), depth)[0]

    def expand_mapped(self, text: str, origin: Sequence[int], depth: int = 0, *, recipe: bool = False) -> Line:
        """Make's expansion of `text`; a value stands at its reference's `$` (a recipe's
        references to `?=` variables are kept in `overridable`)."""
        result = MappedText()
        i = 0
        while True:
            dollar = text.find("$", i)
            if dollar < 0 or dollar + 1 >= len(text):
                result.copy(text[i:], origin[i : len(text)])
                return result.build(origin[len(text)])
            result.copy(text[i:dollar], origin[i:dollar])
            if text[dollar + 1] == "$":
                result.copy("$", origin[dollar : dollar + 1])
                i = dollar + 2
                continue
            name, end = _reference(text, dollar)
            value = None if name is None else self.value(name, depth)
            if value is None:
                result.copy(opaque(text[dollar:end]), origin[dollar:end])
            else:
                result.insert(value, origin[dollar])
                if recipe and self._refers_to_defaulted(text[dollar:end]):
                    self.overridable[origin[dollar]] = name
            i = end

    # --- the shell -----------------------------------------------------------------------

    def shell(self) -> list[str]:
        """SHELL's words, its program first (`env`'s argument); make's `/bin/sh` when not known."""
        words = (self.value("SHELL") or "/bin/sh").split()  # unknown (set in a conditional): make's default
        return words[1:] if words and posixpath.basename(words[0]) == "env" else words

    def pipefail(self) -> bool | None:
        """Whether recipes run with pipefail; None when SHELL is not a POSIX shell. True when an
        included makefile may have set SHELL or `.SHELLFLAGS` (`.SHELLFLAGS := -eu -o pipefail -c`
        in a `common.mk`, which this front end does not read): not known to be off."""
        words = self.shell()
        if not words or posixpath.basename(words[0]) not in POSIX_SHELLS:
            return None
        if self.included and (self.variables.get("SHELL") is None or self.variables.get(".SHELLFLAGS") is None):
            return True
        return shell_args(words[1:] + (self.value(".SHELLFLAGS") or "").split()).pipefail

    def environment(self) -> dict[str, str | None]:
        """Exported variables: the recipes' shells see them as environment variables."""
        names = self.variables if self.export_all else self.exported
        env: dict[str, str | None] = {}
        for name in names:
            value = self.value(name)
            env[name] = None if value is None or "$" in value else value
        return env

    def shell_texts(self) -> Iterator[Line]:
        """What each shell runs: a logical recipe line, or with `.ONESHELL` a whole recipe."""
        for recipe, target in zip(self.recipes, self.targets):
            self.target = target
            commands = [self._command(text, origin) for text, origin in recipe]
            if self.oneshell and commands:
                yield _joined(commands)
            else:
                yield from commands

    def _command(self, text: str, origin: list[int]) -> Line:
        expanded, mapped = self.expand_mapped(text, origin, recipe=True)
        cut = _PREFIX.match(expanded).end()
        if "-" in expanded[:cut] and mapped[cut:]:  # `-python t.py | tee log`: make goes on whatever it exits with
            self.unchecked.append(mapped[cut])
        return expanded[cut:], mapped[cut:]


def parse_makefile(path: str, text: str, index: LineIndex) -> ShellScript | None:
    """The shell of every recipe of a makefile, in one script (each line its own shell)."""
    makefile = _Makefile(text)
    makefile.read()
    pipefail = makefile.pipefail()
    if pipefail is None:
        return None
    env = makefile.environment()
    script = None
    for shell_text, origin in makefile.shell_texts():
        if shell_text.strip():
            script = parse_shell(
                path, shell_text, index, origin, pipefail=pipefail, env=env, script=script
            )
    if script is not None:
        script.make_shell = posixpath.basename(makefile.shell()[0])  # `bash` of `SHELL = /bin/bash`
        recipe_facts(script, text, index, makefile.unchecked, makefile.overridable)
    return script


def recipe_facts(script: ShellScript, text: str, index: LineIndex, unchecked: list[int], overridable: dict[int, str]) -> None:
    """What a command runner (make, just) tells of the shell it ran: the lines it ignores the
    errors of (`unchecked`, where each starts: make's and just's `-` prefix), which no one reads
    the status of (LL105, as for PIPESTATUS); and the defaults its caller decides (`overridable`,
    the file offset of each reference to one -> its name: see `_mark_defaults`)."""
    script.status_read += [(line, line) for line in (index.position(offset)[0] for offset in unchecked)]
    if overridable:
        _mark_defaults(script, overridable, text, index)
        script.overridable = frozenset(overridable.values())


def _mark_defaults(script: ShellScript, overridable: dict[int, str], text: str, index: LineIndex) -> None:
    """The words a `?=` variable's value made (`python train.py $(ARGS)` with `ARGS ?= --lr 1`)
    took a default, as the shell's `${ARGS:---lr 1}` does: `make train ARGS=...` decides them
    (as `just train --lr 2` does a recipe parameter's default, `train *ARGS='--lr 1'`).
    A reference among a command's words or right after them that made none (`ARGS ?=`, empty)
    is a default of the command's (`Command.defaults`), taken where the reference is (as the
    shell's `${ARGS:-}`)."""
    for command in script.commands:
        if not command.words:
            continue
        took = {}
        for word in command.words:
            names = frozenset(overridable[o] for o in word.origin[:-1] if o in overridable)
            if names:
                took[word.location] = names
        start, end = command.words[0].origin[0], command.words[-1].origin[-1]
        empty = {
            o: name for o, name in overridable.items() if start <= o and (o <= end or not text[end:o].strip(" \t\\\n"))
        }
        for o, name in empty.items():
            if not any(o in word.origin[:-1] for word in command.words):
                took[index.span(script.path, o, o + 1)] = frozenset((name,))
        empty = frozenset(empty.values())
        if took or empty:
            command.word_defaults = {**command.word_defaults, **took}
            command.defaults = command.defaults.union(empty, *took.values())


# --- lexical helpers ---------------------------------------------------------------------------


def _first_word(text: str) -> str:
    return text.split(None, 1)[0] if text.split() else ""


def _without_modifiers(text: str) -> str:
    match = _MODIFIERS.match(text)
    return text[match.end() :] if match else text


def _comment_start(text: str) -> int:
    """Where a make comment starts (`\\#` is a literal `#`); the length when there is none."""
    for match in re.finditer("#", text):
        backslashes = len(text[: match.start()]) - len(text[: match.start()].rstrip("\\"))
        if backslashes % 2 == 0:
            return match.start()
    return len(text)


def _top_level(text: str, char: str) -> int | None:
    """The first `char` outside `$(...)`/`${...}` references."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "({" and (depth or text[i - 1 : i] == "$"):
            depth += 1
        elif ch in ")}" and depth:
            depth -= 1
        elif ch == char and not depth:
            return i
    return None


def _rule_colon(code: str) -> int | None:
    """The colon of a rule line `targets: prereqs`; None when the line is no rule."""
    colon = _top_level(code, ":")
    return colon if colon is not None and code[:colon].strip() else None


def originals(text: str) -> dict[str, str]:
    """What the stand-ins of this Makefile's shell stand for, by stand-in (see textmap.restore):
    its variable and function references, read line by line as recipes are."""
    found = []
    for line in text.splitlines():
        dollar = line.find("$")
        while 0 <= dollar < len(line) - 1:
            end = dollar + 2  # `$$`: a `$` for the shell, not a reference
            if line[end - 1] != "$":
                end = _reference(line, dollar)[1]
                found.append(line[dollar:end])
            dollar = line.find("$", end)
    return stand_ins(found, shell_dollar_underscore="$$_" in text)


def _reference(text: str, dollar: int) -> tuple[str | None, int]:
    """The variable name a `$` refers to (None for a function or a computed name), and the end
    of the reference. An unterminated `$(` refers to the rest of the line."""
    opener = text[dollar + 1]
    if opener not in "({":
        return opener, dollar + 2
    closer = ")" if opener == "(" else "}"
    depth = 0
    for i in range(dollar + 1, len(text)):
        if text[i] == opener:
            depth += 1
        elif text[i] == closer:
            depth -= 1
            if depth == 0:
                inner = text[dollar + 2 : i]
                simple = inner == "" or _SIMPLE_NAME.fullmatch(inner)
                return (inner if simple else None), i + 1
    return None, len(text)


def _joined(commands: list[Line]) -> Line:
    """`.ONESHELL`: the recipe's lines as one script, each newline at its line's end."""
    result = MappedText()
    for n, (text, origin) in enumerate(commands):
        if n:
            result.insert("\n", commands[n - 1][1][-1])
        result.copy(text, origin)
    return result.build(commands[-1][1][-1])
