"""Shell text assembled from pieces of a file, with the file offset of every character.

Front ends that find shell inside another language (YAML scalars, Makefile recipes, Markdown
code blocks) rewrite it before the shell front end reads it: a Makefile's `$(VAR)` becomes its
value, a prompt is dropped, two lines are joined. `MappedText` keeps, for each character of the
result, where it came from, so that findings point at the real line and column.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..digest import blake2b
from ..lazyre import lazy


class MappedText:
    """Text built piece by piece, with the file offset of each of its characters."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self.origin: list[int] = []

    def copy(self, text: str, origin: Sequence[int]) -> None:
        """Characters that are in the file, each at its own offset."""
        self._parts.append(text)
        self.origin.extend(origin[: len(text)])

    def insert(self, text: str, at: int) -> None:
        """Characters that stand for something at `at` (a variable's value at its reference)."""
        self._parts.append(text)
        self.origin.extend([at] * len(text))

    def build(self, end: int) -> tuple[str, list[int]]:
        """The text and its origin map, with `end` (the offset just past it) appended."""
        return "".join(self._parts), self.origin + [end]


_TEMPLATE_ACTION = lazy(r"(?<!\$)\{\{|\{%")


def template_action(line: str) -> bool:
    """Whether a line has a Jinja, Helm or cookiecutter action (`{{ .Release.Name }}`, `{%
    set v = 1 %}`, `class {{cookiecutter.name}}Config:`) outside quotes and comments: a template's
    line, in its language only once rendered. GitHub's `${{ }}` is no such action."""
    for match in _TEMPLATE_ACTION.finditer(line):
        before = line[: match.start()]
        if "#" not in before and before.count('"') % 2 == 0 and before.count("'") % 2 == 0:
            return True
    return False


def line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end of content) of each line; a CRLF's `\\r` is not content."""
    spans = []
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        spans.append((start, end - 1 if line.endswith("\r") else end))
        start = end + 1
    return spans


def continued(line: str) -> bool:
    """The line ends in an odd number of backslashes: the next line continues it."""
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def opaque(original: str) -> str:
    """A shell expansion of an unset variable as long as `original` (at least 2 characters).

    Something whose value is unknown before the shell runs (`${{ expr }}`, a Makefile function)
    becomes this: a word the shell front end reads as unknown, so no literal stand-in is mistaken
    for a static path, and the columns after it stay exact. From 7 characters on, the variable's
    name is drawn from `original` (`${_k3x9q___}`): the same text always gets the same stand-in,
    so `restore` can put the original back into a message that quotes the word.
    """
    length = len(original)
    if length < 4:
        return "$" + "_" * (length - 1)
    if length < 7:
        return "${" + "_" * (length - 3) + "}"
    digest = int.from_bytes(blake2b(original.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")
    name = ""
    while digest and len(name) < min(length - 4, 12):
        digest, digit = divmod(digest, 36)
        name += _DIGITS[digit]
    return "${_" + name.ljust(length - 4, "_") + "}"


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
# a named stand-in (7 characters on), a short one (`${___}`), or one of 2-3 (`$_`, `$__`, not `$_x`)
_STAND_IN = lazy(r"\$\{_[0-9a-z]{3,}_*\}|\$\{_{1,3}\}|\$__?(?!\w)")


def may_quote_stand_in(text: str) -> bool:
    """Whether a message may quote a stand-in (`restore` has something to do)."""
    return "$_" in text or "${_" in text


def stand_ins(found: Iterable[str], shell_dollar_underscore: bool = False) -> dict[str, str]:
    """stand-in -> original for the originals `found` in one file, leaving out a stand-in that
    stands for two different texts there (a short one stands for any text of its length: `${___}`
    for `$(OUT)` and `$(DIR)`), or that the file's own shell may write (`$_`, bash's last argument,
    where `shell_dollar_underscore`)."""
    originals: dict[str, str] = {}
    ambiguous: set[str] = {"$_", "$__"} if shell_dollar_underscore else set()
    for original in found:
        stand_in = opaque(original)
        if originals.setdefault(stand_in, original) != original:
            ambiguous.add(stand_in)
    return {k: v for k, v in originals.items() if k not in ambiguous}


def restore(text: str, originals: dict[str, str]) -> str:
    """`text` (a message) with each stand-in of `originals` (stand-in -> original) replaced by
    the original it stands for."""
    if not may_quote_stand_in(text):
        return text
    return _STAND_IN.sub(lambda m: originals.get(m.group(), m.group()), text)
