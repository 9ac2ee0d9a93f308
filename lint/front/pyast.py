"""Small readers of Python syntax trees shared by the Python front end's modules."""

from __future__ import annotations

import ast

_FIELDS: dict[type, tuple[str, ...]] = {}
# Fields that hold names, flags, operators and contexts, never a node worth walking.
_NOT_NODES = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "kind", "type_comment", "conversion", "is_async", "level"}
)


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes` without the Load/Store context nodes, as a list: the walk's
    hottest function."""
    fields = _FIELDS.get(type(node))
    if fields is None:
        fields = _FIELDS[type(node)] = tuple(f for f in node._fields if f not in _NOT_NODES)
    children = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            children.append(value)
        elif isinstance(value, list):
            children += [item for item in value if isinstance(item, ast.AST)]
    return children


def dotted_name(node: ast.expr | None) -> str | None:
    """`a.b.c` for a chain of attributes on a name; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])
