"""The files a launcher's Python steps make, for `made_by` (LL303, LL304): `python
tools/gen_ds_config.py --output ds_config.json`, code written in the command that opens a path
for writing (`python -c "json.dump(c, open('ds.json', 'w'))"`, `python - <<'EOF'`), and a
program of the project that a launcher runs and that opens a path literal for writing
(`open('job_gen.sh', 'w')`). Reading is not writing: `--config a.yaml` makes nothing."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from .graph import PY_LAUNCHERS, is_python, python_run
from .pyfacts import PATH_OPEN
from .shellfacts import Command

# Options whose name says the program writes its value: `-o`, `--out`, `--output_file`,
# `--output-path`, `--save_config`, `--dump`, `--write-to` (the word before the first `_`/`-`).
OUTPUT_WORDS = frozenset({"out", "output", "outfile", "outpath", "save", "dump", "write"})
OPENERS = frozenset({"open", "io.open", "codecs.open", "builtins.open", PATH_OPEN})


def python_made(project) -> Iterator[str]:
    """The names of the files the launchers' Python steps write (see the module's docstring)."""
    for script in project.shell.values():
        for command in script.effective_commands():
            name = command.name
            if not (is_python(name) or name in PY_LAUNCHERS):
                continue
            yield from _output_values(command)
            if is_python(name):
                yield from _code_writes(command)
    seen = set()
    for invocation in project.graph.invocations:
        callee = invocation.callee
        if invocation.kind in ("python", "module") and callee is not None and callee not in seen:
            seen.add(callee)
            module = project.python.get(callee)
            if module is not None:
                yield from _opened_for_writing(module)


def _output_values(command: Command) -> Iterator[str]:
    """The values of the command's output-named options (`--output ds.json`, `-o=x.yaml`)."""
    words = command.words
    for i, word in enumerate(words[1:], 1):
        head, equals, value = (word.value or "").partition("=")
        if not head.startswith("-") or not _says_output(head):
            continue
        if not equals:
            value = words[i + 1].value or "" if i + 1 < len(words) else ""
        if value and not value.startswith("-"):
            yield posixpath.basename(posixpath.normpath(value))


def _says_output(option: str) -> bool:
    if option == "-o":
        return True
    name = option.lstrip("-").lower().replace("-", "_")
    return option.startswith("--") and name.split("_", 1)[0] in OUTPUT_WORDS


def _code_writes(command: Command) -> Iterator[str]:
    """Paths that code written in the command opens for writing: `-c CODE`'s word, or the
    heredoc a program on standard input comes from (`python - <<'EOF'`), read by the Python
    front end as a module of its own (parsed, never run)."""
    words = command.words
    code = next((words[i + 1].value for i in range(1, len(words) - 1) if words[i].value == "-c"), None)
    if code is None:
        run = python_run(command, stdin=True)
        code = command.stdin_text if run is not None and run.kind == "stdin" else None
    if code:
        from .front.pysource import parse_python  # here: a project of shell alone never imports it

        yield from _opened_for_writing(parse_python(command.location.path, code, cli=False))


def _opened_for_writing(module) -> Iterator[str]:
    """The string literals a module opens for writing (`open('job_gen.sh', 'w')`,
    `Path('x.json').open('w')`): its calls' arguments as written."""
    for function in module.functions.values():
        for call in function.calls:
            if not call.args or module.qualified(call.callee) not in OPENERS:
                continue
            path = _literal(call.args[0])
            mode = _literal(call.args[1] if len(call.args) > 1 else dict(call.keywords).get("mode", ""))
            if path and mode and any(letter in mode for letter in "wax"):
                yield posixpath.basename(posixpath.normpath(path))


def _literal(text: str) -> str:
    """A string literal's value as its repr spells it; "" for anything else."""
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"" else ""
