"""Gitignore patterns, as git reads them: the project's `.gitignore` files (each directory's, and
`.git/info/exclude`: `discover.Gitignored` decides between them), and the `exclude` and
`per-file-ignores` globs of the configuration.

Each pattern becomes the regular expression pathspec's `GitIgnoreSpec` (1.1) makes of it, and a
path is matched as it matches it (pathspec replicates git, including git's edge cases:
tests/test_gitignore.py checks that the two agree on generated patterns and paths). launchlint
does not import pathspec because the import took 25 ms of every run in a repository with a
`.gitignore`, more than half of a one-file run (it imports typing, dataclasses, inspect and
pathlib, and looks for its optional regex backends); and because pathspec raises on a pattern git
only skips (a trailing backslash, `!` alone), which stopped the run with a traceback. Here such a
pattern matches nothing, as one with an unclosed `[` does in git.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable

# A pattern that names a directory matches the paths below it through this group: such a match
# loses to any pattern, earlier or later, that matches the path itself, as in pathspec. Git
# ignores `dir/keep.txt` under `dir/` and `!dir/keep.txt` all the same, since its directory is
# ignored; the walk agrees, as it never enters an ignored directory to ask about its files.
_BELOW = "(?P<below>/)"
_FILE_OR_BELOW = f"(?:{_BELOW}|$)"
_ANYWHERE = "^(?:.+/)?"  # a pattern's regex that starts so matches below any directory


class _Discarded(ValueError):
    """A pattern git discards: an unclosed `[`, a trailing backslash, nothing left to match."""


def matcher(lines: Iterable[str]) -> Callable[[str], bool]:
    """Whether a relative path ('/'-separated; a directory's ends with '/') is matched by the
    last pattern of `lines` that matches it; `!pattern` unmatches."""
    verdict = verdicts(lines)
    return lambda path: bool(verdict(path))


def verdicts(lines: Iterable[str]) -> Callable[[str], bool | None]:
    """`matcher`'s answer, None when no pattern of `lines` matches the path: of a project's
    `.gitignore` files, a deeper one decides only a path one of its patterns matches.

    Each pattern's own regex is compiled when a path first needs it: `re` compiles in Python, and
    compiling the 93 patterns of a 183-line `.gitignore` (GitHub's Python template is as long)
    took 15 ms, where the one regex of them all (`_any_of`) takes 5 and answers alone for every
    path that no pattern matches, most paths."""
    regexes = [pattern for pattern in map(_translated, lines) if pattern is not None]
    if not regexes:
        return lambda path: None
    searches: dict[str, Callable] = {}  # a pattern's regex -> its search, once compiled
    try:
        anything = _any_of([regex for regex, _ in regexes])
    except re.error:  # a pattern `re` refuses (the range `[b-a]`), which matches nothing: drop it
        regexes = [(regex, include) for regex, include in regexes if _search(regex, searches) is not _never]
        anything = _any_of([regex for regex, _ in regexes]) if regexes else _never
    patterns = [(regex, _BELOW in regex, include) for regex, include in reversed(regexes)]

    def matches(path: str) -> bool | None:
        if anything is not None and anything(path) is None:
            return None
        below = None  # the last pattern that matched only a directory above the path
        for regex, has_below, include in patterns:
            found = (searches.get(regex) or _search(regex, searches))(path)
            if found is None:
                continue
            if not (has_below and found.group("below")):
                return include
            if below is None:
                below = include
        return below

    return matches


def _search(regex: str, searches: dict[str, Callable]) -> Callable:
    """`regex`'s search, compiled into `searches`; `_never` when `re` refuses it."""
    try:
        search = _regex(regex).search
    except re.error:
        search = _never
    searches[regex] = search
    return search


def _never(path: str) -> None:
    """The search of a pattern that matches nothing."""
    return None


def _any_of(regexes: list[str]) -> Callable | None:
    """One test of whether any of `regexes` matches, or None when it would not be quicker.

    Most paths match no pattern, and asking each pattern in turn took 40 ms of a walk of
    Megatron-LM (3,800 paths, 27 patterns). Every pattern but `*`, `**` and `*/` is anchored at
    the root (`^`) or at any directory (`^(?:.+/)?`): one regex with the directories matched once,
    then each pattern's rest, answers for them all. The directory mark becomes a plain slash:
    `_BELOW` is only ever text of ours (a pattern's characters are escaped; no segment holds a
    slash)."""
    anywhere, rooted = [], []
    for regex in regexes:
        if regex.startswith(_ANYWHERE):
            anywhere.append(regex[len(_ANYWHERE) :].replace(_BELOW, "/"))
        elif regex.startswith("^"):
            rooted.append(regex[1:].replace(_BELOW, "/"))
        else:
            return None  # matches everything or everything below the root: nothing to gain
    branches = []
    if anywhere:
        branches.append(f"(?:.+/)?(?:{'|'.join(anywhere)})")
    if rooted:
        branches.append(f"(?:{'|'.join(rooted)})")
    return _regex("|".join(branches)).match


def _translated(line: str) -> tuple[str, bool] | None:
    """(the regex, whether it matches or unmatches), or None for a blank line, a comment or a
    pattern git discards."""
    pattern = line if line.endswith("\\ ") else line.rstrip()  # an escaped trailing space stays
    if not pattern or pattern.startswith("#") or pattern == "/":
        return None
    include = not pattern.startswith("!")
    if not include:
        pattern = pattern[1:]
    segments = pattern.split("/")
    directory = not segments[-1]
    try:
        return _special(directory, segments) or "".join(_translate(directory, segments)), include
    except _Discarded:
        return None


def _regex(source: str) -> re.Pattern:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `[[:alpha:]]` is a "possible nested set" to re
        return re.compile(source)


def _special(directory: bool, segments: list[str]) -> str | None:
    """Normalise `segments` in place (as pathspec does) and return the regex of the patterns that
    match every path (`*`, `**`) or every path below a directory (`*/`, `**/`), else None."""
    if not segments[0]:  # `/x`: relative to the root
        del segments[0]
    elif (len(segments) == 1 or (len(segments) == 2 and not segments[1])) and segments[0] != "**":
        segments.insert(0, "**")  # `x`, `x/`: at any depth
    if not segments:
        raise _Discarded
    if not segments[-1]:  # `x/`: the directory and everything below it
        segments[-1] = "**"
    for i in range(len(segments) - 1, 0, -1):
        if segments[i - 1] == segments[i] == "**":
            del segments[i]
    if segments == ["**"]:
        return _BELOW if directory else "."
    if segments == ["**", "*"]:
        return "."
    if segments == ["**", "*", "**"]:
        return _BELOW if directory else "/"
    return None


def _translate(directory: bool, segments: list[str]) -> Iterable[str]:
    need_slash = False
    end = len(segments) - 1
    for i, segment in enumerate(segments):
        if segment == "**":
            if i == 0:
                yield _ANYWHERE  # any leading directories
            elif i < end:
                yield "(?:/.+)?"  # any directories between
                need_slash = True
            else:
                yield _BELOW if directory else "/"
            continue
        if i == 0:
            yield "^"
        if need_slash:
            yield "/"
        yield "[^/]+" if segment == "*" else _glob(segment)
        if i == end:
            yield _FILE_OR_BELOW
        need_slash = True


def _glob(segment: str) -> str:
    """One path segment's `*`, `?`, `[...]` and backslash escapes, as a regex."""
    out = []
    i, end = 0, len(segment)
    while i < end:
        char = segment[i]
        i += 1
        if char == "\\":
            if i == end:
                raise _Discarded  # nothing to escape
            out.append(re.escape(segment[i]))
            i += 1
        elif char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            j = i
            if j < end and segment[j] in "!^":
                j += 1
            if j < end and segment[j] == "]":  # `[]...]`: a first `]` is a member
                j += 1
            while j < end and segment[j] != "]":
                j += 1
            if j == end:
                raise _Discarded  # no closing bracket
            negated = segment[i] in "!^"
            members = segment[i + 1 if negated else i : j]
            out.append(("[^" if negated else "[") + members.replace("\\", "\\\\") + "]")
            i = j + 1
        else:
            out.append(re.escape(char))
    return "".join(out)
