"""The parse-only floor: parse every file once with the parsers launchlint uses, and nothing else.

`python bench/parse_floor.py LIST` reads LIST, one `kind<TAB>path` a line, and parses each file:
tree-sitter-bash for shell, `compile(..., PyCF_ONLY_AST)` for Python (what `ast.parse` calls, and
how launchlint calls it, without importing the `ast` module), `yaml.compose_all` with the C safe
loader for YAML. bench/run.py times it as a subprocess, like launchlint, so interpreter start-up
and parser imports count on both sides. A file that does not parse is skipped, as launchlint
reports it and goes on.
"""

from __future__ import annotations

import _ast
import contextlib
import sys
from pathlib import Path


def _shell_parser():
    from launchlint.front import bash_language, tree_sitter  # as launchlint loads them

    binding = tree_sitter()
    parser = binding.Parser(binding.Language(bash_language()))
    return lambda data: parser.parse(data)


def _python_parser():
    def parse(data: bytes) -> None:
        with contextlib.suppress(SyntaxError, ValueError):  # the floor times parsing, valid or not
            compile(data, "<floor>", "exec", _ast.PyCF_ONLY_AST)

    return parse


def _yaml_parser():
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def parse(data: bytes) -> None:
        try:
            for _ in yaml.compose_all(data.decode("utf-8", "replace"), Loader=loader):
                pass
        except (yaml.YAMLError, RecursionError, ValueError):
            pass

    return parse


FACTORIES = {"shell": _shell_parser, "python": _python_parser, "yaml": _yaml_parser}


def main(list_file: str) -> int:
    entries = [line.split("\t", 1) for line in Path(list_file).read_text().splitlines() if line]
    # Import a parser only when a file of its kind is present, as launchlint does.
    parsers = {kind: FACTORIES[kind]() for kind in sorted({kind for kind, _ in entries})}
    for kind, path in entries:
        parsers[kind](Path(path).read_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
