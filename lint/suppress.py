"""Inline suppressions: `# launchlint: disable=LL102,LL105` and `# launchlint: disable-file=...`.

A comment at the end of a line covers the statement on that line; alone on a line it covers the
statement on the next line. A statement is the whole top-level shell command, so a finding inside
a nested command string (or on a continuation line) is suppressed by a comment on the outer line.
"""

from __future__ import annotations

import re

from .model import Finding, LineIndex

MARKER = "launchlint:"  # in every suppression: a text without it has none (the engine skips it)
PATTERN = re.compile(r"#\s*launchlint:\s*(disable|disable-file)\s*=\s*([A-Za-z0-9_, ]+)")


class Suppression:
    def __init__(
        self,
        path: str,
        line: int,
        column: int,
        codes: tuple[str, ...],
        whole_file: bool,
        first: int,
        last: int,
    ) -> None:
        self.path = path
        self.line = line  # where the comment is
        self.column = column
        self.codes = codes
        self.whole_file = whole_file
        self.first = first  # the lines it covers
        self.last = last


def find_suppressions(
    path: str, text: str, index: LineIndex, spans: list[tuple[int, int]], comments: list[tuple[int, int]] | None = None
) -> list[Suppression]:
    """`spans` are the (first, last) lines of the file's top-level statements; `comments` the
    [start, end) offsets of its comments, when known: a marker outside them (in a string, a
    heredoc) is text, not a suppression."""
    found = []
    for match in PATTERN.finditer(text):
        if comments is not None and not any(start <= match.start() < end for start, end in comments):
            continue
        line, column = index.position(match.start())
        codes = tuple(c.strip().upper() for c in match.group(2).split(",") if c.strip())
        whole_file = match.group(1) == "disable-file"
        alone = not index.line_text(line)[: column - 1].strip()
        target = _next_code_line(index, line) if alone else line
        first, last = _statement(spans, target)
        found.append(Suppression(path, line, column, codes, whole_file, first, last))
    return found


def python_comments(text: str, index: LineIndex) -> list[tuple[int, int]] | None:
    """The [start, end) offsets of a Python text's comments; None when it does not tokenize."""
    import io
    import tokenize

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    return [(index.offset(t.start[0], t.start[1] + 1), index.offset(t.end[0], t.end[1] + 1)) for t in tokens if t.type == tokenize.COMMENT]


def _next_code_line(index: LineIndex, line: int) -> int:
    total = len(index.starts)
    for candidate in range(line + 1, total + 1):
        text = index.line_text(candidate).strip()
        if text and not text.startswith("#"):
            return candidate
    return line + 1


def _statement(spans: list[tuple[int, int]], line: int) -> tuple[int, int]:
    """The lines of the top-level statement that starts or ends on `line` (or contains it)."""
    for first, last in spans:
        if first <= line <= last:
            return first, last
    return line, line


def covers(suppression: Suppression, finding: Finding) -> bool:
    if finding.location.path != suppression.path:
        return False
    if not any(finding.code.startswith(code) or code == "ALL" for code in suppression.codes):
        return False
    return suppression.whole_file or suppression.first <= finding.location.line <= suppression.last
