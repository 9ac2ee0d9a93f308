"""The front ends: one per kind of file, each turning a text into facts (no syntax tree leaves them)."""

import re

_YAML_CONTENT = re.compile(r"^[ \t]*[^ \t\r\n#]", re.MULTILINE)  # a line that is not blank or a comment


def yaml_is_blank(text: str) -> bool:
    """Only comments and blank lines: a YAML text with no document in it, which needs no parser
    (a project root marked by a commented `.launchlint.yaml` then never imports PyYAML)."""
    return _YAML_CONTENT.search(text) is None
