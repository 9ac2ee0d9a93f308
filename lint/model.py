"""The values that cross every stage: where something is, and what a rule found there."""

from __future__ import annotations

import copyreg  # imported by `re` already
import enum
from bisect import bisect_right
from collections import namedtuple
from functools import partial


class _RecordType(type):
    """Makes `class Location(Record):` with annotated fields the `collections.namedtuple` that
    `typing.NamedTuple` would make of the same body (defaults, methods and docstring copied onto
    it), without evaluating the annotations: typing turns each one into a compiled `ForwardRef`,
    which made the 45 record classes cost 3 ms more to create, and `typing` 3 ms to import, in
    every run."""

    def __new__(mcs, name: str, bases: tuple, namespace: dict):
        if not bases:  # `Record` itself
            return super().__new__(mcs, name, bases, namespace)
        fields = tuple(namespace.get("__annotations__", ()))
        defaults = [namespace[field] for field in fields if field in namespace]
        if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        record = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
        record.__annotations__ = namespace.get("__annotations__", {})
        record._from_tuple = partial(tuple.__new__, record)  # in C; no field name starts with _
        copyreg.pickle(record, _reduce)
        for key, value in namespace.items():
            if key in _RECORD_OWN:
                raise AttributeError(f"{name} cannot set {key}: it is the named tuple's own")
            if key not in fields and key not in ("__module__", "__annotations__"):
                setattr(record, key, value)
        return record


def _reduce(record: tuple) -> tuple:
    """How a record pickles (registered with copyreg, which the pickler asks before it looks up
    `__reduce_ex__` and what that looks up): remade in C from its fields' tuple, where the named
    tuple's own way calls its Python `__getnewargs__` for each record saved and its Python
    `__new__` for each one loaded. The facts the workers send back are mostly records: saving the
    1,000-file benchmark project's facts took 1,243 M instructions the named tuples' way and takes
    988 M this way (1,027 M with a `__reduce__` method instead of copyreg), loading them 695 and
    644 M."""
    return type(record)._from_tuple, (tuple(record),)


_RECORD_OWN = frozenset(
    {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make", "_replace", "_asdict",
     "_from_tuple"}
)  # fmt: skip


class Record(metaclass=_RecordType):
    """The base of launchlint's named tuples (see `_RecordType`)."""


class Severity(str, enum.Enum):
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return 1 if self is Severity.WARNING else 2


class Location(Record):
    """A span in a project file; lines and columns are 1-based, end is exclusive.

    A named tuple, not a dataclass: a project's facts hold hundreds of thousands of them, and a
    tuple is built in half the time, pickles to half the bytes and loads 2.3x faster (the workers'
    facts and the cache). Ordered and hashed as the tuple of its fields."""

    path: str  # relative to the project root, '/' separators
    line: int
    column: int
    end_line: int
    end_column: int

    def point(self) -> Location:
        return Location(self.path, self.line, self.column, self.line, self.column + 1)

    def holds(self, other: Location) -> bool:
        """Whether `other` starts within this span (a word in a statement, a function's body)."""
        return other.path == self.path and (self.line, self.column) <= (other.line, other.column) < (self.end_line, self.end_column)


# `Location(...)` for the front ends' many locations: a named tuple's `__new__` only packs its
# fields into the tuple (a Record may not override it), so the tuple is built straight from
# them, without that Python-level call: `make_location((path, line, column, end_line, end_column))`.
make_location = Location._from_tuple


def whole(text: str | None) -> int | None:
    """The number a text of decimal digits (ASCII) is; None for any other text. `str.isdigit`
    alone lets `'²'` through, which `int` refuses."""
    return int(text) if text and text.isascii() and text.isdigit() else None


class Related(Record):
    location: Location
    message: str


class Edit(Record):
    """Replace the characters [start, end) of a file's text with `text`."""

    path: str
    start: int
    end: int
    text: str


class Fix(Record):
    description: str
    edits: tuple[Edit, ...]


class Finding(Record):
    """What a rule yields. The engine fills in code, name and severity from the rule."""

    location: Location
    message: str
    related: tuple[Related, ...] = ()
    fix: Fix | None = None
    code: str = ""
    name: str = ""
    severity: Severity = Severity.WARNING

    def sort_key(self) -> tuple:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.code, self.message)


class LineIndex:
    """Maps character offsets of one text to 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        find = self.text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self.starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def offset(self, line: int, column: int) -> int:
        """The character offset of a 1-based (line, column)."""
        line = max(1, min(line, len(self.starts)))
        return min(self.starts[line - 1] + column - 1, len(self.text))

    def line_text(self, line: int) -> str:
        if line < 1 or line > len(self.starts):
            return ""
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def span(self, path: str, start: int, end: int) -> Location:
        line, col = self.position(start)
        end_line, end_col = self.position(max(end, start))
        return make_location((path, line, col, end_line, end_col))
