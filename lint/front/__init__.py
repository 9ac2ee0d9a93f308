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
    binding = _compiled("tree_sitter_bash")
    if binding is None:  # laid out otherwise: the package's own import
        import tree_sitter_bash

        return tree_sitter_bash.language()
    return binding.language()


def tree_sitter() -> object:
    """tree-sitter's classes (`Language`, `Parser`, ...) from its compiled module alone: the
    package's `__init__` imports `typing` (2 ms of a run's start) for a `Protocol` of query
    predicates launchlint never writes. bench/ loads it here too."""
    binding = _compiled("tree_sitter")
    if binding is None:
        import tree_sitter

        return tree_sitter
    return binding


def _compiled(package: str) -> object | None:
    """`package._binding`, an extension module, loaded without running the package's `__init__`
    (the one already loaded, if any); None when the package is laid out otherwise."""
    import sys
    from importlib.machinery import PathFinder  # as lint/cache.py finds the parsers: no importlib.util

    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    found = PathFinder.find_spec(package)
    binding = PathFinder.find_spec(name, found.submodule_search_locations) if found else None
    if binding is None or binding.loader is None:
        return None
    module = binding.loader.create_module(binding)  # an extension module: created, then run
    binding.loader.exec_module(module)
    return module
