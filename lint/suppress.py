"""Inline suppressions: `# launchlint: disable=LL102,LL105` and `# launchlint: disable-file=...`.

A comment at the end of a line covers the statement on that line; alone on a line it covers the
statement on the next line. A statement is the whole top-level shell command, so a finding inside
a nested command string (or on a continuation line) is suppressed by a comment on the outer line.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate

from .lazyre import lazy
from .model import Finding, LineIndex

MARKER = "launchlint:"  # in every suppression: a text without it has none (the engine skips it)
PATTERN = lazy(r"#\s*launchlint:\s*(disable|disable-file)\s*=\s*([A-Za-z0-9_, ]+)")


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
    in_comment = None if comments is None else _Intervals(comments)
    statements = _Statements(spans)
    for match in PATTERN.finditer(text):
        if in_comment is not None and not in_comment.holds(match.start()):
            continue
        line, column = index.position(match.start())
        codes = tuple(c.strip().upper() for c in match.group(2).split(",") if c.strip())
        whole_file = match.group(1) == "disable-file"
        alone = not index.line_text(line)[: column - 1].strip()
        target = _next_code_line(index, line) if alone else line
        first, last = statements.of(target)
        found.append(Suppression(path, line, column, codes, whole_file, first, last))
    return found


class _Intervals:
    """[start, end) intervals, to ask whether any holds an offset without reading them all (a
    file of thousands of suppressions read every comment for each)."""

    def __init__(self, intervals: list[tuple[int, int]]) -> None:
        ordered = sorted(intervals)
        self.starts = [start for start, _ in ordered]
        self.reach = list(accumulate((end for _, end in ordered), max))  # the furthest end so far

    def holds(self, offset: int) -> bool:
        before = bisect_right(self.starts, offset)  # those that start at or before it
        return before > 0 and self.reach[before - 1] > offset


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


class _Statements:
    """The lines of the top-level statement that starts or ends on a line (or contains it): the
    first of `spans` that does, by line, made when first asked."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.by_line: dict[int, tuple[int, int]] | None = None

    def of(self, line: int) -> tuple[int, int]:
        if self.by_line is None:
            self.by_line = {}
            for first, last in self.spans:
                for covered in range(first, last + 1):
                    self.by_line.setdefault(covered, (first, last))
        return self.by_line.get(line, (line, line))


def _suppresses(codes: set[str], code: str) -> bool:
    """Whether a suppression of `codes` (prefixes, or ALL) covers a finding's `code`."""
    return any(code.startswith(c) or c == "ALL" for c in codes)


class Coverage:
    """The suppressions by the lines they cover, to ask whether any covers a finding: one of its
    file that names its code (a prefix of it, or ALL) and covers its line, or the whole file.
    Asking each suppression for each finding was quadratic (a 4,000-line script with a
    suppression on each line: 30 s)."""

    def __init__(self, suppressions: list[Suppression]) -> None:
        self.whole: dict[str, set[str]] = {}  # path -> the codes of its `disable-file`s
        spans: dict[tuple[str, int, int], set[str]] = {}  # (path, first, last) -> codes
        for s in suppressions:
            codes = self.whole.setdefault(s.path, set()) if s.whole_file else spans.setdefault((s.path, s.first, s.last), set())
            codes.update(s.codes)
        self.lines: dict[tuple[str, int], list[set[str]]] = {}
        for (path, first, last), codes in spans.items():
            for line in range(first, last + 1):
                self.lines.setdefault((path, line), []).append(codes)

    def covered(self, finding: Finding) -> bool:
        path, line, code = finding.location.path, finding.location.line, finding.code
        whole = self.whole.get(path)
        if whole is not None and _suppresses(whole, code):
            return True
        return any(_suppresses(codes, code) for codes in self.lines.get((path, line), ()))


class FoundCodes:
    """The codes of findings by file and line, to ask which codes a suppression's lines hold
    (LL002: reading every finding for each suppression was quadratic)."""

    def __init__(self, findings: list[Finding]) -> None:
        self.by_path: dict[str, list[tuple[int, str]]] = {}
        for f in findings:
            self.by_path.setdefault(f.location.path, []).append((f.location.line, f.code))
        for found in self.by_path.values():
            found.sort()
        self.known: dict[tuple, set[str]] = {}

    def under(self, suppression: Suppression) -> set[str]:
        """The codes of the findings `suppression` is placed to cover: in its whole file, or on
        its lines."""
        path = suppression.path
        key = (path,) if suppression.whole_file else (path, suppression.first, suppression.last)
        codes = self.known.get(key)
        if codes is None:
            found = self.by_path.get(path, [])
            if not suppression.whole_file:
                found = found[bisect_left(found, (suppression.first, "")) : bisect_right(found, (suppression.last, "\uffff"))]
            codes = self.known[key] = {code for _, code in found}
        return codes
