"""Small readers of Python syntax trees shared by the Python front end's modules."""

from __future__ import annotations

# The node classes, from the interpreter's built-in `_ast`, as `ast` itself imports them: the
# `ast` module adds helpers launchlint does not use (its unparser's classes and enums), 6.5 M
# instructions to import, a twelfth of an empty run's start-up. Parsing is `compile(...,
# ast.PyCF_ONLY_AST)`, which is what `ast.parse` calls.
import _ast as ast

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


def dotted_name(node: ast.expr | None, self_name: str | None = None) -> str | None:
    """`a.b.c` for a chain of attributes on a name; None for anything else. With `self_name`,
    a chain on that name is spelled on `self` (a method's first parameter, whatever its name)."""
    if type(node) is ast.Name:  # most names are plain names: no list to build
        name = node.id  # a node's field read once: each read is a lookup in its __dict__
        return "self" if name == self_name else name
    parts = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is not ast.Name:
        return None
    name = node.id
    parts.append("self" if name == self_name else name)
    parts.reverse()
    return ".".join(parts)


def argv_slice(node: ast.expr | None) -> int | None:
    """k of `sys.argv[k:]` (a literal k of at least 1): the process's arguments from the k-th on;
    None for any other expression."""
    if type(node) is not ast.Subscript or type(node.slice) is not ast.Slice or dotted_name(node.value) != "sys.argv":
        return None
    lower, upper, step = node.slice.lower, node.slice.upper, node.slice.step
    if upper is not None or step is not None or type(lower) is not ast.Constant:
        return None
    value = lower.value
    return value if type(value) is int and value >= 1 else None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    """The value of a call's `name=` argument, if given."""
    for argument in call.keywords:
        if argument.arg == name:
            return argument.value
    return None


def last_name(imports: dict[str, str], node: ast.expr) -> str | None:
    """The name a callee ends in, through the module's import aliases (`AP` of `from argparse
    import ArgumentParser as AP` is `ArgumentParser`): tested before spelling a qualified name,
    since most calls are none of the few APIs looked for."""
    kind = type(node)
    if kind is ast.Attribute:
        return node.attr
    if kind is ast.Name:
        name = node.id
        return imports.get(name, name).rpartition(".")[2]
    return None
