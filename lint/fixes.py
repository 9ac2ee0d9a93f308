"""Safe fixes: apply findings' edits to a file's text, write it back atomically, or show a diff.

Edit offsets are character offsets into the text the engine analysed (a UTF-8 file without its
byte order mark; a shell script or makefile that is not UTF-8 read byte for byte, one character
a byte), so a fix is planned against that text, written back in the same encoding (every byte
the fix does not change stays as it was) and refused when the file changed since.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections import defaultdict
from collections.abc import Callable, Iterable

from .discover import MAX_BYTES, outside, read_text
from .model import Edit, Finding, Fix, LineIndex, Location, Record

BOM = b"\xef\xbb\xbf"


class FileFix(Record):
    """One file's text before and after its findings' edits."""

    path: str  # relative to the project root, as in findings
    absolute: str
    before: str
    after: str
    fixed: int = 0  # the findings whose edits were all applied
    worst: int = 0  # the highest severity rank among them (`Severity.rank`): what `--diff` fails on
    encoding: str = "utf-8"  # as it was read and is written: "latin-1" for a script read byte for byte


# --- building edits (rules) -------------------------------------------------------------------


def span(project, location: Location) -> tuple[int, int]:
    """The character offsets of a location in its file's text."""
    index = project.index(location.path)
    return index.offset(location.line, location.column), index.offset(location.end_line, location.end_column)


def source(project, location: Location) -> str:
    """The file's characters at a location: a fix only rewrites what is literally there."""
    start, end = span(project, location)
    return project.index(location.path).text[start:end]


def insert_after_line(project, path: str, line: int, text: str) -> Edit:
    """An edit inserting `text` as a line of its own after line `line` (0: at the top), ended
    as the file's first line is (CRLF or LF): a fix does not mix line endings."""
    index = project.index(path)
    newline = "\r\n" if index.text.partition("\n")[0].endswith("\r") else "\n"
    if line < 1:
        return Edit(path, 0, 0, text + newline)
    if line >= len(index.starts):  # the last line: it may lack its newline
        end = len(index.text)
        return Edit(path, end, end, ("" if index.text.endswith("\n") else newline) + text + newline)
    at = index.starts[line]
    return Edit(path, at, at, text + newline)


# --- applying them (the command line) ------------------------------------------------------------


def apply_fixes(text: str, edits: Iterable[Edit]) -> str:
    """`text` with the edits applied (see `chosen_edits`), in one pass over it: the pieces
    between the edits and their new texts, joined once (rebuilding the text at each edit was
    quadratic: 10,000 fixes in a 10 MB script took 15 s)."""
    pieces = []
    at = 0
    for edit in chosen_edits(edits):  # in order, none overlapping: each starts where one before ends or later
        pieces.append(text[at : edit.start])
        pieces.append(edit.text)
        at = edit.end
    if not pieces:
        return text
    pieces.append(text[at:])
    return "".join(pieces)


def chosen_edits(edits: Iterable[Edit]) -> list[Edit]:
    """The edits that are applied, in order. An edit that overlaps one before it, or inserts where
    another inserts, is skipped, so two findings never garble the same characters; the same edit
    twice (two findings, one `set -o pipefail`) is applied once. An insertion and a replacement
    that starts there are both applied, the insertion first: they touch no common character."""
    chosen: list[Edit] = []
    for edit in sorted(set(edits), key=lambda e: (e.start, e.end, e.text)):
        if chosen and (edit.start < chosen[-1].end or (edit.start == chosen[-1].start and (edit.start == edit.end or chosen[-1].start != chosen[-1].end))):
            continue
        chosen.append(edit)
    return chosen


def plan_fixes(
    findings: Iterable[Finding],
    root: str,
    texts: dict[str, LineIndex] | None = None,
    warn: Callable[[str], None] = lambda message: None,
) -> list[FileFix]:
    """The files the findings' fixes change. `texts` are the analysed texts (the engine's
    `Result.indexes`); a file whose text on disk differs from them (or is gone) is left alone,
    and so is a file outside the project, named by its path or through a symbolic link (`warn`
    says each): a fix never writes outside the project, whatever links a repository ships. A
    file named twice (a symbolic link to another project file) is planned once, under its own
    name."""
    findings = [f for f in findings if f.fix is not None]
    real_root = os.path.realpath(root)
    names: dict[str, str] = {}  # each path with edits -> the name its real file is planned under
    by_real: dict[str, list[str]] = defaultdict(list)
    for path in sorted({edit.path for finding in findings for edit in finding.fix.edits}):
        by_real[os.path.realpath(os.path.join(root, path))].append(path)
    for real, paths in by_real.items():
        own = [p for p in paths if os.path.join(real_root, p) == real]
        for path in paths:
            names[path] = (own or paths)[0]
    edits: dict[str, list[Edit]] = defaultdict(list)
    for finding in findings:
        for edit in finding.fix.edits:
            edits[names[edit.path]].append(edit._replace(path=names[edit.path]))
    planned = []
    for path in sorted(edits):
        absolute = os.path.join(root, path)
        if outside(absolute, real_root):
            warn(f"{path}: outside the project; not fixed")
            continue
        analysed = texts[path].text if texts and path in texts else None
        try:
            before, why = read_text(absolute)
            encoding = "utf-8"
            if before is None and analysed is not None and read_in(absolute, "latin-1") == analysed:
                before, encoding = analysed, "latin-1"  # a script read byte for byte (a Latin-1 comment)
        except OSError as error:  # gone since it was analysed
            warn(f"{path}: cannot read: {error.strerror or error}; not fixed")
            continue
        if before is None:
            warn(f"{path}: {why}; not fixed")
            continue
        if analysed is not None and analysed != before:  # an editor saved it meanwhile: the edits are for the old text
            warn(f"{path}: changed while launchlint ran; not fixed")
            continue
        chosen = set(chosen_edits(edits[path]))
        if encoding != "utf-8" and _foreign(chosen, before):
            warn(f"{path}: the fix writes characters that are not in this {encoding} file; not fixed")
            continue
        after = apply_fixes(before, chosen)
        if after != before:
            applied = [f for f in findings if _applied(f.fix, path, names, chosen)]
            worst = max((f.severity.rank for f in applied), default=0)
            planned.append(FileFix(path, absolute, before, after, len(applied), worst, encoding))
    return planned


def read_in(path: str, encoding: str) -> str | None:
    """The file's text in `encoding` (a byte order mark skipped); None when it is not that: a
    UTF-8 one that does not decode, or too large to have been analysed. Raises OSError."""
    if encoding == "utf-8":
        return read_text(path)[0]
    from .replay import TooLarge, read_regular

    try:
        data = read_regular(path, limit=MAX_BYTES)
    except TooLarge:
        return None
    return data.removeprefix(BOM).decode(encoding)


def _foreign(edits: Iterable[Edit], text: str) -> bool:
    """Whether the edits write a character that is neither ASCII nor one of the file's own: a file
    not read as UTF-8 gets only ASCII and what its fixes copy from it (a moved `>log`), so each
    byte keeps its meaning. No fix writes other characters, but one never would here unnoticed."""
    new = {c for edit in edits for c in edit.text if not c.isascii()}
    return bool(new) and not new <= set(text)


def _applied(fix: Fix, path: str, names: dict[str, str], chosen: set[Edit]) -> bool:
    """Whether the fix is counted in `path`'s file (that of its first edit) with all its edits
    there applied: one skipped for another's is not, and is reported again after `--fix`."""
    here = [edit._replace(path=path) for edit in fix.edits if names[edit.path] == path]
    return names[fix.edits[0].path] == path and all(edit in chosen for edit in here)


def write_fixes(fixes: Iterable[FileFix], warn: Callable[[str], None] = lambda message: None) -> list[FileFix]:
    """Write the fixes; the files written. A file that changed since it was planned (an editor
    saved it meanwhile), is read-only (`read_only`) or cannot be written is left as it is, and
    `warn` says so."""
    written = []
    for fix in fixes:
        try:
            why = read_only(fix.absolute)
            if why:
                warn(f"{fix.path}: {why}; not fixed")
                continue
            write_atomic(fix.absolute, fix.after, expected=fix.before, encoding=fix.encoding)
        except ChangedMeanwhile:
            warn(f"{fix.path}: changed while launchlint ran; not fixed")
        except OSError as error:
            warn(f"{fix.path}: cannot write the fix: {error.strerror or error}")
        else:
            written.append(fix)
    return written


def read_only(path: str | os.PathLike) -> str | None:
    """Why a fix must not replace the file (its symlink's target) although a rename over it
    could: the user made it read-only. That is a file or a directory that the user cannot write
    (`os.access`: its mode, a read-only mount) or that has no write permission for anyone, which
    binds root too, whom modes do not stop (`chmod a-w`, a checkout made read-only)."""
    target = os.path.realpath(path)
    for name, why in ((target, "read-only"), (os.path.dirname(target), "in a read-only directory")):
        if not os.stat(name).st_mode & 0o222 or not os.access(name, os.W_OK):
            return why
    return None


class ChangedMeanwhile(Exception):
    """The file no longer holds the text a fix was planned against."""


def write_atomic(path: str | os.PathLike, text: str, expected: str | None = None, encoding: str = "utf-8") -> None:
    """Replace a file's content all at once: a temporary file in the same directory, renamed
    over it, so a crash leaves the old file or the new one, never half of each. A symlink is
    followed (its target is rewritten, the link stays); the file's mode, owner (where allowed)
    and byte order mark are kept. With `expected`, a file whose text (in `encoding`) is no longer
    that is left alone (ChangedMeanwhile), checked as late as possible: just before the rename."""
    target = os.path.realpath(path)
    with open(target, "rb") as handle:
        bom = BOM if handle.read(len(BOM)) == BOM else b""
    info = os.stat(target)
    directory, name = os.path.split(target)
    import tempfile  # with shutil, bz2 and lzma: 3 ms a run that writes nothing would pay

    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(bom + text.encode(encoding))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        with contextlib.suppress(OSError):  # only root may give a file away; others keep theirs
            os.chown(temporary, info.st_uid, info.st_gid)
        if expected is not None:
            now = read_in(target, encoding)
            if now == text:  # fixed already: the same file named twice, through a symlink
                os.unlink(temporary)
                return
            if now != expected:
                raise ChangedMeanwhile(target)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def fix_json(fix: Fix | None, indexes: dict[str, LineIndex], show=str) -> dict | None:
    """A finding's fix for the json report: what it does and each edit's span and new text
    (1-based lines and columns, end exclusive, as finding locations)."""
    if fix is None:
        return None
    edits = []
    for edit in fix.edits:
        index = indexes[edit.path]
        (line, column), (end_line, end_column) = index.position(edit.start), index.position(edit.end)
        edits.append({"path": show(edit.path), "line": line, "column": column,
                      "end_line": end_line, "end_column": end_column, "text": edit.text})  # fmt: skip
    return {"description": fix.description, "edits": edits}


def unified_diff(fixes: Iterable[FileFix], show=str) -> str:
    """The fixes as one unified diff; `show` turns a project path into the path to print. A file
    not read as UTF-8 is shown as its bytes (`as_bytes`), so that patch(1) applies the diff."""
    import difflib

    parts = []
    for fix in fixes:
        name = show(fix.path)
        before, after = as_bytes(fix.before, fix.encoding), as_bytes(fix.after, fix.encoding)
        lines = difflib.unified_diff(_lines(before), _lines(after), f"a/{name}", f"b/{name}")
        # A last line without a newline gets diff's marker, so that patch(1) reads it back.
        parts.extend(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    return "".join(parts)


def as_bytes(text: str, encoding: str) -> str:
    """`text` as the bytes it is written as, each byte that is not UTF-8 a lone surrogate (PEP
    383): written out with `errors="surrogateescape"` they are exactly the file's bytes."""
    return text if encoding == "utf-8" else text.encode(encoding).decode("utf-8", "surrogateescape")


def _lines(text: str) -> list[str]:
    """Lines as diff and patch see them: split at `\n` only (not at form feeds or `\r`)."""
    pieces = text.split("\n")
    return [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
