"""Output formats: text (for people) and json (for tools), as cli.md specifies."""

from __future__ import annotations

import os
from collections import Counter

from .model import Finding, LineIndex, Location, Severity
from .paths import normal, relative_to


class Paths:
    """Shows project paths relative to the current directory when inside it."""

    def __init__(self, root: str):
        self.root = root
        self.cwd = os.path.realpath(os.getcwd())
        self.shown: dict[str, str] = {}  # a report names few files, each once per finding and note

    def show(self, path: str) -> str:
        shown = self.shown.get(path)
        if shown is None:
            absolute = normal(os.path.join(self.root, path))  # an absolute `path` stays itself
            rel = relative_to(absolute, self.cwd)
            shown = self.shown[path] = absolute if rel is None else rel
        return shown


def to_json(findings: list[Finding], paths: Paths, indexes: dict[str, LineIndex]) -> str:
    """The findings as `json.dumps([...], indent=2)` writes them, each encoded as it comes
    (`_indented`): json's encoder runs in Python once given an indent, and kept every piece of the
    whole report until its end (147,000 findings: 6.9 s, and 770 MB over the text report's peak)."""
    import json  # here, not at the top: the text report, the common one, does without it

    from .fixes import fix_json

    def item(f: Finding) -> dict:
        return {
            "code": f.code,
            "name": f.name,
            "severity": f.severity.value,
            "message": f.message,
            "path": paths.show(f.location.path),
            "line": f.location.line,
            "column": f.location.column,
            "end_line": f.location.end_line,
            "end_column": f.location.end_column,
            "related": [
                {
                    "path": paths.show(r.location.path),
                    "line": r.location.line,
                    "column": r.location.column,
                    "message": r.message,
                }
                for r in f.related
            ],
            "fix": fix_json(f.fix, indexes, paths.show),
        }

    string = json.encoder.encode_basestring_ascii
    fixes: dict[int, str] = {}  # findings share a fix (one `set -o pipefail` a script): encoded once

    def fix(f: Finding) -> str:
        encoded = fixes.get(id(f.fix))
        if encoded is None:
            encoded = fixes[id(f.fix)] = _indented(fix_json(f.fix, indexes, paths.show), "    ", string)
        return encoded

    try:
        encoded = [_finding(f, paths.show, fix(f), string) for f in findings]
    except _NotPlain:
        return json.dumps([item(f) for f in findings], indent=2) + "\n"
    return "[\n  " + ",\n  ".join(encoded) + "\n]\n" if encoded else "[]\n"


def _finding(f: Finding, show, fix: str, string) -> str:
    """`item(f)` of `to_json` as json writes it in the report's list, with its fix encoded."""
    loc = f.location
    texts = (f.code, f.name, f.severity.value, f.message, loc.path)
    if not all(type(t) is str for t in texts) or not all(type(n) is int for n in loc[1:]):
        raise _NotPlain
    related = [{"path": show(r.location.path), "line": r.location.line, "column": r.location.column, "message": r.message} for r in f.related]
    return (
        f'{{\n    "code": {string(f.code)},\n    "name": {string(f.name)},\n    "severity": {string(f.severity.value)},\n'
        f'    "message": {string(f.message)},\n    "path": {string(show(loc.path))},\n    "line": {loc.line},\n'
        f'    "column": {loc.column},\n    "end_line": {loc.end_line},\n    "end_column": {loc.end_column},\n'
        f'    "related": {_indented(related, "    ", string)},\n    "fix": {fix}\n  }}'
    )


class _NotPlain(Exception):
    """A value `_indented` leaves to json itself."""


def json_text(value) -> str:
    """`json.dumps(value, indent=2) + "\n"`, the same bytes, through `_indented` (the SARIF log,
    the baseline file): json's encoder with an indent runs in Python and keeps every piece of
    the whole text to its end (the SARIF log of 100,000 findings: 6.4 s of CPU and 1.1 GB over
    the log's own memory to encode; this way 3.7 s and 380 MB)."""
    import json

    try:
        return f'{_indented(value, "", json.encoder.encode_basestring_ascii)}\n'
    except _NotPlain:
        return json.dumps(value, indent=2) + "\n"


def _indented(value, indent: str, string) -> str:
    """`value` (dicts with string keys, lists, strings, ints, None, booleans) as `json.dumps(...,
    indent=2)` writes it at `indent`, its strings by json's own `string` (encode_basestring_ascii)."""
    if isinstance(value, str):
        return string(value)
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return int.__repr__(value)
    inner = indent + "  "
    if type(value) is dict:
        if not value:
            return "{}"
        if not all(type(key) is str for key in value):
            raise _NotPlain
        members = f",\n{inner}".join([f"{string(key)}: {_indented(item, inner, string)}" for key, item in value.items()])
        return f"{{\n{inner}{members}\n{indent}}}"  # one copy of the members (a `+` chain made three)
    if type(value) in (list, tuple):
        if not value:
            return "[]"
        items = f",\n{inner}".join([_indented(item, inner, string) for item in value])
        return f"[\n{inner}{items}\n{indent}]"
    raise _NotPlain


# Control characters (ESC, CR, ...) and bidi overrides from an analysed file would act on the
# terminal or CI log that shows the report: erase the line above, reorder text. Each becomes one
# "?", so carets stay aligned. Newlines stay: `--debug` messages carry a traceback.
_UNPRINTABLE = dict.fromkeys(
    [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)],
    "?",
)


def _printable(text: str) -> str:
    return text.translate(_UNPRINTABLE)


def _snippet(index: LineIndex | None, location: Location) -> list[str]:
    if index is None:
        return []
    text = _printable(index.line_text(location.line).expandtabs(1))
    if not text.strip():
        return []
    end = location.end_column if location.end_line == location.line else len(text) + 1
    width = max(1, min(end, len(text) + 1) - location.column)
    gutter = " " * len(str(location.line))
    return [
        f" {location.line} | {text}",
        f" {gutter} | {' ' * (location.column - 1)}{'^' * width}",
    ]


def to_text(
    findings: list[Finding],
    paths: Paths,
    indexes: dict[str, LineIndex],
    files: int,
    *,
    color: bool,
    quiet: bool = False,
    counts: bool = False,
) -> str:
    """cli.md's text: each finding, its source line and notes; then (`counts`, `--statistics`)
    the findings per rule and how many are fixable; the summary line last, for the scripts that
    read it."""
    def paint(text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if color else text

    lines = []
    for f in findings:
        loc = f.location
        severity = paint(f.severity.value, "31" if f.severity is Severity.ERROR else "33")
        head = _printable(f"{paths.show(loc.path)}:{loc.line}:{loc.column}:")
        fixable = " [*]" if f.fix is not None else ""
        lines.append(f"{paint(head, '1')} {paint(f.code, '1')} [{severity}]{fixable} {_printable(f.message)}")
        lines.extend(_snippet(indexes.get(loc.path), loc))
        for r in f.related:
            rl = r.location
            lines.append(_printable(f"  = note: {paths.show(rl.path)}:{rl.line}:{rl.column}: {r.message}"))
    if counts and findings:
        lines.append(statistics(findings).rstrip("\n"))
    fixable = sum(f.fix is not None for f in findings)
    if not quiet:
        if fixable:
            lines.append(f"{fixable} fixable with --fix ([*])")
        lines.append(summary(findings, files))
    return "".join(line + "\n" for line in lines)


def summary(findings: list[Finding], files: int) -> str:
    errors = sum(f.severity is Severity.ERROR for f in findings)
    warnings = len(findings) - errors
    return f"{counted(len(findings), 'finding')} ({errors} errors, {warnings} warnings) in {files} files"


def counted(number: int, noun: str) -> str:
    """`1 finding`, `2 findings`, `0 files`: a count and its noun (each of ours takes an s)."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def statistics(findings: list[Finding]) -> str:
    counts = Counter((f.code, f.name) for f in findings)
    return "".join(f"{n:5d}  {code}  {name}\n" for (code, name), n in sorted(counts.items()))


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def to_github(findings: list[Finding], paths: Paths) -> str:
    """GitHub Actions workflow commands: annotations on the pull request's diff."""
    lines = []
    for f in findings:
        loc = f.location
        kind = "error" if f.severity is Severity.ERROR else "warning"
        props = (
            f"file={_escape_property(paths.show(loc.path))},line={loc.line},col={loc.column},"
            f"endLine={loc.end_line},endColumn={loc.end_column},title={_escape_property(f'{f.code} {f.name}')}"
        )
        lines.append(f"::{kind} {props}::{_escape_data(f.message)}")
    return "".join(line + "\n" for line in lines)
