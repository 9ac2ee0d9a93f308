"""Regular expressions compiled the first time they are used.

`re` compiles a pattern in Python: a module-level `re.compile` costs every run that imports the
module 0.1-1 M instructions, whether or not its files ever need the pattern. The patterns made
with `lazy` are those for what most files do not have (heredocs, `let`, crontab lines, arrays,
carriage returns, bash's error messages, suppression comments, Slurm's `--gres`, the syntax
only newer Pythons parse), 43 of them: compiled at import, they were 16.3 M instructions (3.2%)
of the 100-file benchmark's shell-only run and 7.0 M (1.5%) of its Python-only one, which need
none of them.

A `LazyPattern` answers the compiled pattern's methods and attributes (`match`, `finditer`,
`pattern`, ...) once it is asked for one: it compiles the pattern then and keeps its bound
methods as its own attributes, so a later call costs what the compiled pattern's own costs.
Pass it to nothing that wants an `re.Pattern` (`re.sub(pattern, ...)`): call its methods.
"""

from __future__ import annotations

import re

_KEPT = (
    "match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "pattern", "flags", "groups", "groupindex"
)  # fmt: skip


class LazyPattern:
    def __init__(self, pattern: str | bytes, flags: int = 0):
        self._source = (pattern, flags)

    def __getattr__(self, name: str):  # only for what the instance does not have yet
        if name.startswith("_"):  # `_source` itself, `__getstate__`, ...: no pattern's
            raise AttributeError(name)
        compiled = re.compile(*self._source)
        for kept in _KEPT:
            setattr(self, kept, getattr(compiled, kept))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r})"


def lazy(pattern: str | bytes, flags: int = 0) -> LazyPattern:
    """`re.compile(pattern, flags)`, compiled when first used."""
    return LazyPattern(pattern, flags)
