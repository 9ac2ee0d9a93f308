"""What a rule module is made of, and the registry that finds them all.

A rule is one module in `launchlint.rules`:

    CODE = "LL102"
    NAME = "exec-redirect-starves-pipe"
    SEVERITY = Severity.ERROR
    SUMMARY = "one line for --list-rules"
    ANALYSIS = THREADS  # optional: the project-wide analysis it reads (Rule.analysis)
    INVALID = [Example({...files...}, ["LL102 start.sh:3"])]
    VALID = [Example({...files...})]

    def check(project) -> Iterator[Finding]: ...

Its docstring carries the sections *What it does* (a few sentences), *Why is this bad?* (the
user's harm), *Example*, *Use instead*, then *Details* (every case decided, and what is not
reported), *Fix safety* and *References* where they apply. *Example* and *Use instead* hold whole
small projects, true when copied: a `# name` line in a code block starts a file (a block without
one is `run.sh`, `train.py` or `config.yaml` by its language); tests/test_explain.py checks that
the *Example* gives this rule's findings and the *Use instead* none at all. The VALID and INVALID
examples are its tests.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from os.path import commonprefix
from types import ModuleType

from .lazyre import lazy
from .model import Finding, Record, Related, Severity

TYPE_CHECKING = False  # as typing's, which costs 3 ms to import
if TYPE_CHECKING:
    from .shellfacts import Word

__all__ = ["CR_MARK", "Example", "Rule", "Severity", "all_rules", "once_per_word", "rule_by_code", "rules_for"]


class Example(Record):
    """A small project (file name -> text) and the `CODE path:line` findings it must produce."""

    files: dict[str, str]
    expect: Sequence[str] = ()


# What --explain prints under an example whose files have Windows line ends (`Rule.explain`).
CR_MARK = "(Windows line ends: each `^M` is a carriage return, `\\r`, in the file.)"

# The one analysis so far: `Project.threads` (launchlint/threads.py), from the Python facts alone.
THREADS = "threads"


class Rule(Record):
    code: str
    name: str
    severity: Severity
    summary: str
    docstring: str  # the module's, as written: `doc` is its text
    check: Callable[..., Iterator[Finding]]
    valid: tuple[Example, ...]
    invalid: tuple[Example, ...]
    after_other_rules: bool = False  # reads the others' findings (LL002)
    # The project-wide analysis the rule reads, when it reads one that dominates its cost
    # (`threads`: Project.threads, from the Python facts alone): the engine may run the rules of
    # that analysis in a process of their own beside the others (engine._run_first), so such a
    # rule asks the disk nothing (`Project.on_disk`, `listing`): what a child asks is not
    # recorded for the run's cache entry.
    analysis: str | None = None  # THREADS or None

    @classmethod
    def from_module(cls, module: ModuleType) -> Rule:
        return cls(
            code=module.CODE,
            name=module.NAME,
            severity=module.SEVERITY,
            summary=module.SUMMARY,
            docstring=module.__doc__ or "",
            check=module.check,
            valid=tuple(getattr(module, "VALID", ())),
            invalid=tuple(getattr(module, "INVALID", ())),
            after_other_rules=getattr(module, "AFTER_OTHER_RULES", False),
            analysis=getattr(module, "ANALYSIS", None),
        )

    @property
    def doc(self) -> str:
        """The rule's documentation. Dedented when asked for (--explain, SARIF, the docs), not for
        every rule of every run: textwrap's import and 23 dedents were 1.4 ms of each run."""
        import textwrap

        return textwrap.dedent(self.docstring).strip()

    def explain(self) -> str:
        """`launchlint --explain`: the documentation, then each example as the files it is made
        of, each line indented under a `# name` line. A carriage return, which a terminal does not
        show, is printed as `^M` (as `cat -v` shows it), and the example says so."""
        parts = [f"{self.code} {self.name} ({self.severity.value})", "", self.doc]
        for title, examples in (("Flagged", self.invalid), ("Not flagged", self.valid)):
            for example in examples:
                parts += ["", f"## {title}" + (f": {', '.join(example.expect)}" if example.expect else "")]
                if any("\r" in text for text in example.files.values()):
                    parts.append(CR_MARK)
                for name, text in example.files.items():
                    lines = text.replace("\r", "^M").rstrip().split("\n")
                    parts += ["", f"    # {name}"] + ["    " + line for line in lines if text.strip()]
        return "\n".join(parts) + "\n"


def dedented(text: str) -> str:
    """An example file written indented in a rule module: its text as the file holds it. What
    `textwrap.dedent(text).lstrip("\\n")` gives, without textwrap: every rule module dedents its
    examples when it is imported, and textwrap's import compiles regular expressions (1 ms of
    each run). Its lines are not taken one by one in Python where the first line's margin is
    every line's: the Python rules dedent 102 examples in every run with Python files, 13 M
    instructions line by line, 6.8 M fewer this way (1.5% of the 100-file Python-only run)."""
    text = _BLANK_LINE.sub("\n", "\n" + text)  # a line of spaces and tabs alone: empty
    lines = text.split("\n")
    first = next(filter(None, lines), "")
    margin = first[: len(first) - len(first.lstrip(" \t"))]
    if margin and text.count("\n" + margin) != len(lines) - lines.count(""):  # a line without it
        margin = commonprefix([line[: len(line) - len(line.lstrip(" \t"))] for line in lines if line])
    return (text.replace("\n" + margin, "\n") if margin else text).lstrip("\n")


# A line of spaces and tabs alone, after its newline. They are taken in a lookahead and matched
# again by reference, which no backtracking enters: `\n[ \t]+(?=\n|\Z)` gave back an indented
# line's spaces one by one to try the lookahead after each, 4 times as slow over the examples.
_BLANK_LINE = lazy(r"\n(?=([ \t]+))\1(?=\n|\Z)")


def listed(items: Sequence[str], most: int = 2) -> str:
    """Items for a message, the first `most` of them named: "`-s`", "`-s` and `-m`", "`-s`, `-m`
    and 2 more"."""
    named = list(items[:most])
    rest = len(items) - len(named)
    if rest:
        return f"{', '.join(named)} and {rest} more"
    return f"{', '.join(named[:-1])} and {named[-1]}" if len(named) > 1 else named[0]


def either(*choices: str) -> str:
    """A fix of several choices: "remove it, or add it to the parser", "remove it, add it to the
    parser, or use `../train.py`"."""
    return f"{', '.join(choices[:-1])}, or {choices[-1]}" if len(choices) > 1 else choices[0]


def rules_for(present: set[str] | frozenset[str]) -> tuple[Rule, ...]:
    """The rules that can find something in a project with facts of the `present` kinds
    (`shell`, `python`; see launchlint.rules), importing only their modules."""
    from . import rules as package

    return tuple(
        Rule.from_module(importlib.import_module(f"{package.__name__}.{module}"))
        for _, module, reads in package.CATALOGUE
        if present.issuperset(reads)
    )


def all_rules() -> tuple[Rule, ...]:
    from .rules import PYTHON, SHELL

    return rules_for({SHELL, PYTHON})


def rule_by_code() -> dict[str, Rule]:
    return {rule.code: rule for rule in all_rules()}


def once_per_word(project, found: Iterable[tuple[Word, Finding]], again: str, flag: bool = False) -> list[Finding]:
    """One finding for each written word and message: a word of a variable's value that the
    script expands several times (`$CMD` in both arms of an `if`) is one mistake, written once.
    The findings on words of one file written in the same place (`ShellScript.written`: the same
    assignment, for a word from a value) with the same message become the one at the first place,
    the others' places its related locations, each with the note `again`, after its own related
    ones. Words written in different places (two lines that each run `python gone.py`) stay
    findings of their own: each is a line to fix. A word from a variable's value (the finding is
    at its expansion) names the assignment that last set the value, where the fix starts ("the
    value is last set here": a `CMD+=` after the assignment that wrote the word is that one). With
    `flag`, the findings are of a flag's name: only the characters before a word's `=` count
    (`--data_dir=$DATA_PATH` names no assignment; `$ARGS` holding `--bogus` does)."""
    from .shellfacts import SetBy  # the rules that call it have the shell's facts loaded

    kept: dict[tuple, tuple[Finding, list[Finding]]] = {}
    for word, finding in found:
        script = project.shell.get(word.location.path)
        written = script.written(word) if script is not None else (word.location,)
        if flag and word.text.startswith("-") and "=" in word.text and len(written) == len(word.text):
            written = written[: word.text.index("=")]
        key = (finding.message, word.location.path, word.text, written)  # offsets are the file's
        first, others = kept.setdefault(key, (finding, []))
        if first is not finding:
            others.append(finding)
    merged = []
    for (_, _, _, written), (first, others) in kept.items():
        first, *later = sorted((first, *others), key=lambda f: f.location)
        related = [*first.related]
        for other in later:
            if other.location != first.location:
                related.append(Related(other.location, again))
            related += other.related
        related += (Related(at.location, SET_HERE) for at in written if type(at) is SetBy and at.location.line != first.location.line)
        merged.append(first._replace(related=tuple(dict.fromkeys(related))) if len(related) > len(first.related) else first)
    return merged


def arm_rules_out(project, command, word) -> bool:
    """Whether an if/case arm around `command` cannot run with the value a variable of the script
    gave part of `word` (`Command.ruled_out`): `feats_type=raw`, then `elif [ "${feats_type}" =
    fbank ]; then scripts/make_"${feats_type}".sh` never runs `make_raw.sh` (ESPnet's `tts.sh`)."""
    script = project.shell.get(word.location.path) if command.blocks else None
    if script is None:
        return False
    from .shellfacts import SetBy  # the rules that call it have the shell's facts loaded

    values: dict = {}  # each assignment a part of the word came from: the characters of its value
    for character, at in zip(word.text, script.written(word)):
        if type(at) is SetBy:
            values[at] = values.get(at, "") + character
    return any(command.ruled_out(at.name, value, at.location) for at, value in values.items())


SET_HERE = "the value is last set here"  # the assignment a word of a finding came from (`once_per_word`)
