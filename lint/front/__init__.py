"""The front ends: one per kind of file, each turning a text into facts (no syntax tree leaves them)."""

import re

_YAML_CONTENT = re.compile(r"^[ \t]*[^ \t\r\n#]", re.MULTILINE)  # a line that is not blank or a comment


def yaml_is_blank(text: str) -> bool:
    """Only comments and blank lines: a YAML text with no document in it, which needs no parser
    (a project root marked by a commented `.launchlint.yaml` then never imports PyYAML)."""
    return _YAML_CONTENT.search(text) is None


def bash_language() -> object:
    """tree-sitter-bash's grammar, read from its compiled module alone. The package's own
    `__init__` imports `importlib.resources` for highlight queries that launchlint never reads,
    which cost 11 ms of the 25 that loading the parser took (medians of 5 runs). The parse floor
    of bench/ loads the grammar here too, so both sides pay the same."""
    from importlib.machinery import PathFinder  # as lint/cache.py finds the parsers: no importlib.util

    package = PathFinder.find_spec("tree_sitter_bash")
    binding = PathFinder.find_spec("tree_sitter_bash._binding", package.submodule_search_locations) if package else None
    if binding is None or binding.loader is None:  # laid out otherwise: the package's own import
        import tree_sitter_bash

        return tree_sitter_bash.language()
    module = binding.loader.create_module(binding)  # an extension module: created, then run
    binding.loader.exec_module(module)
    return module.language()
