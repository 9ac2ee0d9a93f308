"""Markdown front end: the shell in a runbook's fenced code blocks, at exact file positions.

A block tagged `bash`, `sh` or `shell` is a script. Its variables are its own (sections of a
runbook are often alternatives, so no value carries from one block to the next), but a `cd`
carries: the blocks are typed into one terminal, and a path after `cd examples/gpt` in an
earlier block is looked for there (after a `cd` elsewhere, not judged). A `console`
block is a terminal transcript: only what follows a `$ ` prompt is a command, with its backslash
continuations (a `> ` secondary prompt dropped); the other lines are output. A `bash` block whose
first line starts with `$ ` is written as a transcript, and is read as one.

Which Markdown files are read at all is discover.py's decision (a README is not a runbook).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..model import LineIndex
from ..shellfacts import ShellScript
from .shell import parse_shell
from .textmap import MappedText, continued, line_spans

SCRIPT_LANGUAGES = {"bash", "sh", "shell"}
TRANSCRIPT_LANGUAGES = {"console"}
PROMPT = "$ "
SECONDARY_PROMPT = "> "

_FENCE = re.compile(r"( *)(`{3,}|~{3,})(.*)")
_LANGUAGE = re.compile(r"[\s{.]*([\w+-]*)")

Span = tuple[int, int]  # a line's start and end of content in the file


def parse_markdown(path: str, text: str, index: LineIndex) -> ShellScript | None:
    """The shell of every `bash`/`sh`/`shell`/`console` block of a Markdown file."""
    script = None
    for language, lines in _code_blocks(text):
        if language in TRANSCRIPT_LANGUAGES or (
            language in SCRIPT_LANGUAGES and _starts_with_prompt(text, lines)
        ):
            shell_text, origin = _transcript(text, lines)
        elif language in SCRIPT_LANGUAGES:
            shell_text, origin = _script(text, lines)
        else:
            continue
        if shell_text.strip():
            script = parse_shell(path, shell_text, index, origin, script=script, own_shell=False)
    return script


def _code_blocks(text: str) -> Iterator[tuple[str, list[Span]]]:
    """(language, content lines) of each fenced block. A fence may be indented (inside a list
    item); its content lines lose up to as much indentation. An unclosed block runs to the end."""
    lines = line_spans(text)
    i = 0
    while i < len(lines):
        start, end = lines[i]
        opening = _FENCE.fullmatch(text, start, end)
        i += 1
        if opening is None or (opening.group(2)[0] == "`" and "`" in opening.group(3)):
            continue
        indent, fence = len(opening.group(1)), opening.group(2)
        content: list[Span] = []
        while i < len(lines) and not _closes(text, lines[i], fence):
            line_start, line_end = lines[i]
            spaces = len(text[line_start:line_end]) - len(text[line_start:line_end].lstrip(" "))
            content.append((line_start + min(spaces, indent), line_end))
            i += 1
        i += 1  # the closing fence
        yield _LANGUAGE.match(opening.group(3)).group(1).lower(), content


def _closes(text: str, span: Span, fence: str) -> bool:
    """The same fence character, at least as many times, and nothing else on the line."""
    line = text[span[0] : span[1]].strip()
    return len(line) >= len(fence) and line == fence[0] * len(line)


def _script(text: str, lines: list[Span]) -> tuple[str, list[int]]:
    result = MappedText()
    for start, end in lines:
        result.copy(text[start:end], range(start, end))
        result.insert("\n", end)
    return result.build(lines[-1][1] if lines else 0)


def _starts_with_prompt(text: str, lines: list[Span]) -> bool:
    first = next((text[s:e] for s, e in lines if text[s:e].strip()), "")
    return first.startswith(PROMPT)


def _transcript(text: str, lines: list[Span]) -> tuple[str, list[int]]:
    """The commands typed after `$ ` prompts, one per line, continuations kept."""
    result = MappedText()
    i = 0
    while i < len(lines):
        start, end = lines[i]
        i += 1
        if not text.startswith(PROMPT, start, end):
            continue  # output
        start += len(PROMPT)
        result.copy(text[start:end], range(start, end))
        while continued(text[start:end]) and i < len(lines):
            result.insert("\n", end)
            start, end = lines[i]
            i += 1
            if text.startswith(SECONDARY_PROMPT, start, end):
                start += len(SECONDARY_PROMPT)
            result.copy(text[start:end], range(start, end))
        result.insert("\n", end)
    return result.build(lines[-1][1] if lines else 0)
