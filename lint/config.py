"""Configuration: `[tool.launchlint]` in pyproject.toml or `.launchlint.yaml`, found upward.

Keys use ruff's spelling. Any mistake (unknown key, bad value, unknown rule code) is a
`ConfigError` whose one-line message names the file and the key; the CLI exits 2 with it.
"""

from __future__ import annotations

import os
import sys

from .errors import UsageError
from .front import yaml_is_blank
from .paths import suffix
from .replay import read_regular, saw, upward

SEVERITIES = ("error", "warning")
_NONE = object()  # no such item
KEYS = (
    "select", "ignore", "extend-select", "per-file-ignores", "exclude", "fail-on",
    "path-map", "lock-names", "severity",
)


class ConfigError(UsageError):
    """A configuration mistake: one line naming it."""


class Config:
    def __init__(
        self,
        select: list[str] | None = None,
        ignore: list[str] | None = None,
        extend_select: list[str] | None = None,
        per_file_ignores: dict[str, list[str]] | None = None,
        exclude: list[str] | None = None,
        fail_on: str = "warning",
        path_map: dict[str, str] | None = None,
        lock_names: list[str] | None = None,
        severity: dict[str, str] | None = None,
        directory: str | None = None,
    ) -> None:
        self.select = select
        self.ignore = [] if ignore is None else ignore
        self.extend_select = [] if extend_select is None else extend_select
        self.per_file_ignores = {} if per_file_ignores is None else per_file_ignores
        self.exclude = [] if exclude is None else exclude
        self.fail_on = fail_on
        self.path_map = {} if path_map is None else path_map
        self.lock_names = [] if lock_names is None else lock_names
        self.severity = {} if severity is None else severity
        self.directory = os.getcwd() if directory is None else directory  # globs are relative to it


def find_config(start: str) -> str | None:
    """The nearest `.launchlint.yaml`, or pyproject.toml with a [tool.launchlint] table."""
    for directory in upward(os.path.realpath(start)):
        own, pyproject = os.path.join(directory, ".launchlint.yaml"), os.path.join(directory, "pyproject.toml")
        saw(own)
        saw(pyproject)
        if os.path.isfile(own):
            return own
        if os.path.isfile(pyproject) and _pyproject_table(pyproject) is not None:
            return pyproject
    return None


def _pyproject_table(path: str) -> dict | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        data = tomllib.loads(_read(path))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    except RecursionError:  # `[[[[...` 500 deep: tomllib recurses per level
        raise ConfigError(f"{path}: cannot read: nested too deeply") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):  # `tool = 3`: no tool's settings can be read (ruff refuses it too)
        raise ConfigError(f"{path}: tool must be a table ([tool.NAME] sections), not {kind(tool, toml=True)}")
    table = tool.get("launchlint")
    if table is not None and not isinstance(table, dict):  # `launchlint = 3` under [tool], `[[tool.launchlint]]`
        raise ConfigError(f"{path}: tool.launchlint must be a table of settings ([tool.launchlint]), not {kind(table, toml=True)}")
    return table


def kind(value, toml: bool = False) -> str:
    """A value's type in words, for a message that says what was expected instead (never a
    Python repr: `true` is no `True`, a YAML `key:` with no value is no `None`)."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table" if toml else "a mapping"
    if isinstance(value, (set, frozenset)):
        return "a set"
    if isinstance(value, (bytes, bytearray)):
        return "binary data"
    return {"datetime": "a date and time", "date": "a date", "time": "a time"}.get(type(value).__name__, "a value of another kind")


def _read(path: str) -> str:
    """A configuration file's text, read as the sources are (never blocking on a FIFO)."""
    return read_regular(path).decode("utf-8")


def _yaml_table(path: str) -> dict:
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    if yaml_is_blank(text):
        return {}
    import yaml

    try:
        data = yaml.load(text, Loader=_unique_keys(getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    except (yaml.YAMLError, ValueError) as error:  # ValueError: `select: 2020-13-45`, a date PyYAML cannot make
        raise ConfigError(_yaml_error(path, text, error)) from None
    except RecursionError:  # the pure-Python loader, nested too deeply (libyaml stops at 1,000 levels)
        raise ConfigError(f"{path}: invalid YAML: nested too deeply") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings (key: value lines), not {kind(data)}")
    return data


def _unique_keys(loader: type) -> type:
    """PyYAML's safe `loader` (libyaml's parser where there is one), refusing a key written twice
    in a mapping, where it kept the last in silence (`select:` twice: the first list ignored):
    tomllib refuses it in pyproject.toml. A key that a merge (`<<: *base`) brings is no duplicate:
    the mapping's own key overrides it, as YAML means."""
    import yaml

    class UniqueKeys(loader):
        def construct_mapping(self, node, deep=False):
            if isinstance(node, yaml.MappingNode):
                seen = set()
                for key_node, _ in node.value:
                    if key_node.tag == "tag:yaml.org,2002:merge":
                        continue
                    key = self.construct_object(key_node)
                    try:
                        if key in seen:
                            error = yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
                            error.duplicate = True  # said as it is, not as invalid YAML (`_yaml_error`)
                            raise error
                        seen.add(key)
                    except TypeError:  # a list as a key: the loader's own error says so
                        pass
            return super().construct_mapping(node, deep)

    return UniqueKeys


def _list(items: list[str]) -> str:
    """A list as the user would write it in either file: `["LL1", "LL2"]`."""
    import json

    return json.dumps(items, ensure_ascii=False)


def _yaml_error(path: str, text: str, error: Exception) -> str:
    """`path:line:col: invalid YAML: problem`, where LL001 would put it, in its words."""
    import yaml

    marked = isinstance(error, yaml.MarkedYAMLError) and (error.problem_mark or error.context_mark)
    if not (marked or isinstance(error, yaml.reader.ReaderError)):
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return f"{path}: invalid YAML: {first}"
    from .front.yamldoc import error_position

    line, column, problem = error_position(text, error)
    if getattr(error, "duplicate", False):  # YAML that PyYAML reads, keeping the last
        return f"{path}:{line}:{column}: {problem}"
    context = getattr(error, "context", None)
    if context and getattr(error, "problem", None) and not context.startswith("while "):
        problem = f"{' '.join(context.split())}, {problem}"  # "expected a single document in the stream, but found another document"
    return f"{path}:{line}:{column}: invalid YAML: {problem}"


def load_config(path: str, known_codes: list[str]) -> Config:
    toml = suffix(os.path.basename(path)) not in (".yaml", ".yml")
    if not toml:
        table = _yaml_table(path)
    else:  # a TOML file named with --config (one that was found has the table)
        table = _pyproject_table(path)
        if table is None:
            raise ConfigError(f"{path}: no [tool.launchlint] table (launchlint's settings go there)")
    config = Config(directory=os.path.dirname(os.path.realpath(path)))
    for key, value in table.items():
        if not isinstance(key, str):  # YAML `1: x` or `~: x`
            raise ConfigError(f"{path}: a key must be a setting's name, not {kind(key)} (known: {', '.join(KEYS)})")
        if key not in KEYS:
            raise ConfigError(f"{path}: unknown key {key!r} (known: {', '.join(KEYS)})")
        setattr(config, key.replace("-", "_"), _value(path, key, value, known_codes, toml))
    return config


def _value(where: str, key: str, value, known_codes: list[str], toml: bool):
    """The setting's value, checked; a mistake is one line naming the key and what it takes."""

    def shown(item) -> str:  # the user's own word, or what the item is instead of one
        return repr(item) if isinstance(item, str) else kind(item, toml)

    def strings(item, what: str, split: bool = False) -> list[str]:
        if isinstance(item, str):  # as ruff: "invalid type: string, expected a sequence"
            parts = [part.strip() for part in item.split(",") if part.strip()] if split else [item]
            raise ConfigError(f"{where}: {what} must be a list of strings, not a string: write {_list(parts)}")
        if not isinstance(item, list):
            raise ConfigError(f"{where}: {what} must be a list of strings, not {kind(item, toml)}")
        wrong = next((x for x in item if not isinstance(x, str)), _NONE)
        if wrong is not _NONE:
            raise ConfigError(f"{where}: {what} must be a list of strings, not a list holding {kind(wrong, toml)}")
        return item

    def known(code, what: str) -> str:
        if not isinstance(code, str):
            raise ConfigError(f"{where}: {what} must name rule codes (strings), not {kind(code, toml)}")
        code = code.upper()
        if code != "ALL" and not any(k.startswith(code) for k in known_codes):
            raise ConfigError(f"{where}: unknown rule code {code!r} in {what}")
        return code

    def codes(item, what: str) -> list[str]:
        return [known(code, what) for code in strings(item, what, split=True)]

    def mapping(item, what: str, keys: str, values: str) -> dict:
        table = "table" if toml else "mapping"
        if not isinstance(item, dict):
            raise ConfigError(f"{where}: {what} must be a {table} of {keys} to {values}, not {kind(item, toml)}")
        wrong = next((k for k in item if not isinstance(k, str)), _NONE)
        if wrong is not _NONE:  # YAML `1: [LL101]`
            raise ConfigError(f"{where}: the keys of {what} must be {keys} (strings), not {kind(wrong, toml)}")
        return item

    if key in ("select", "ignore", "extend-select"):
        return codes(value, key)
    if key in ("exclude", "lock-names"):
        return strings(value, key)
    if key == "fail-on":
        if not isinstance(value, str) or value not in SEVERITIES:
            raise ConfigError(f"{where}: fail-on must be one of {', '.join(SEVERITIES)}, not {shown(value)}")
        return value
    if key == "per-file-ignores":
        globs = mapping(value, key, "globs", "rule codes")
        return {glob: codes(v, f"per-file-ignores[{glob!r}]") for glob, v in globs.items()}
    if key == "path-map":
        prefixes = mapping(value, key, "remote path prefixes", "project directories")
        for prefix, directory in prefixes.items():
            if not isinstance(directory, str):
                raise ConfigError(f"{where}: path-map[{prefix!r}] must be a project directory (a string), not {kind(directory, toml)}")
        return prefixes
    # severity
    table = mapping(value, key, "rule codes", "error or warning")
    for code, level in table.items():
        known(code, "severity")
        if not isinstance(level, str) or level not in SEVERITIES:
            raise ConfigError(f"{where}: severity of {code} must be error or warning, not {shown(level)}")
    return {code.upper(): level for code, level in table.items()}
