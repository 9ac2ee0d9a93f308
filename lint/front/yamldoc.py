"""YAML front end: the shell embedded in GitHub Actions workflows, CircleCI, GitLab CI and Azure
Pipelines configs, Compose files and Kubernetes manifests, and the log paths a trainer's config names.

Safety first: the file is only *composed* (`yaml.compose_all`, safe loader), never constructed,
so tags such as `!!python/object/apply` build nothing, and the node graph is read without
expanding aliases (each step, service and scalar is visited once), so an alias bomb stays cheap.

Every shell piece (`steps[].run`, a service's `entrypoint` + `command`, a container's `command`
+ `args`) is parsed into one `ShellScript` with an origin map: each character of the scalar's *value* is mapped back to its
character in the file, through block indentation, folding, quotes and escapes, so a finding in
a `run: |` block points at the real line and column.

GitLab CI configs are recognised by their name (`.gitlab-ci.yml`, `.gitlab/*.yml`) or by a job's
`stage:` (an included file); workflows, Azure Pipelines, Compose files and manifests are recognised
by their structure (`jobs.<id>.steps`, a composite action's `runs.steps`, a top-level `stages`,
`jobs` or `steps` list of `- stage:`, `- job:` or `- script:`/`- bash:`/`- task:` items, a top-level
`services` mapping, `apiVersion` + `kind` with pod specs); the usual file names
(`.github/workflows/*.yml`, `azure-pipelines.yml`, `compose.yaml`) carry nothing else for this
front end to read. A SkyPilot task (a document of its schema's keys) has its `setup:` and `run:`
read as shell, with the environment SkyPilot gives them; any other YAML's `run:`, `command:` or
`commands:` is read when it reads as a command line. Any YAML file may be a trainer's config: its
log keys (`log_dir`, ...) are kept, and matter when a launcher passes the file with `--config`.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from bisect import bisect_right
from collections.abc import Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..discover import in_circleci
from ..graph import LONG_RUNNING, is_python
from ..lazyre import lazy
from ..model import LineIndex, Location
from ..shellfacts import ShellScript, Word, shell_args
from .shell import parse_shell
from .textmap import MappedText, opaque, stand_ins, template_action

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Deeper nesting is refused before composing: libyaml's composer recurses in C (a stack overflow
# kills the process at a few ten thousand levels), its scanner is quadratic in flow nesting, and
# the pure-Python loader hits the recursion limit near 400. Real configs stay under 30.
MAX_NESTING = 200

MERGE_TAG = "tag:yaml.org,2002:merge"
NULL_TAG = "tag:yaml.org,2002:null"

# YAML's line breaks (LineIndex only knows '\n'): marks count lines this way.
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
# GitHub's `${{ expr }}`; CircleCI's `<< parameters.x >>` and `<< pipeline.x >>`, not a heredoc;
# GitLab's `$[[ inputs.x ]]`; Valohai's `{parameters}` (every parameter as options) and
# `{parameter:name}`, `{parameter-value:name}`
_EXPRESSION = re.compile(
    r"\$\{\{.*?\}\}|<<\s*(?:parameters|pipeline)\.[\w.-]+\s*>>|\$\[\[.*?\]\]|\{parameters\}|\{parameter(?:-value)?:[\w.-]+\}",
    re.DOTALL,
)
# Any other YAML (`Extractor.commands`): the keys whose value is a command line, and its first words.
_STRUCTURES = {"jobs", "runs", "services", "apiVersion"}  # a workflow, an action, Compose, Kubernetes
COMMAND_KEYS = {"run", "command", "commands"}
# A SkyPilot task's keys (sky/utils/schemas.py, `get_task_schema`, which allows no others), and what
# its job script exports before `setup:` and `run:` (sky/skylet/log_lib.py, `make_task_bash_script`).
SKYPILOT_KEYS = frozenset(
    {"name", "workdir", "event_callback", "num_nodes", "resources", "file_mounts", "service", "pool", "setup", "run", "envs"}
    | {"secrets", "managed_secrets", "inputs", "outputs", "file_mounts_mapping", "config", "volumes", "volume_mounts"}
    | {"api_server_access", "_metadata"}
)
SKYPILOT_ENV = {"PYTHONUNBUFFERED": "1"}
DSTACK_RUNS = frozenset({"task", "service", "dev-environment"})  # dstack's `type:`s that run `commands:`
COMMAND_STARTS = {*LONG_RUNNING, "bash", "sh", "cd", "pip", "pip3", "uv", "conda", "export", "source", "make"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")  # a word that assigns a variable, not a command
MAX_COMMAND_DEPTH = 8
# `$(NAME)` in a container's command and args: Kubernetes replaces it with the env var's value; an
# Azure Pipelines macro, which Azure replaces with a variable's (`_azure_macros`).
_REFERENCE = re.compile(r"\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)")

# GitLab CI: top-level keys that are not jobs, the keys of a job that hold its shell lines, keys
# only a GitLab job has, how deep `extends:`/`!reference` chains go (GitLab's own limit is 11 and
# 10), and bounds on the lines of one list and on the characters of shell one file's jobs have
# parsed, all its documents together (an alias of an alias of a list, read again by each job with
# its own `variables:`, could otherwise be parsed without end; the largest real file's jobs parse
# 38,000 characters, Megatron-DeepSpeed's 552 lines, with `extends:` and matrices).
GITLAB_KEYWORDS = frozenset(
    {"default", "include", "stages", "variables", "workflow", "image", "services", "cache", "before_script", "after_script", "spec"}
)
GITLAB_SCRIPTS = frozenset({"script", "before_script", "after_script"})
GITLAB_JOB_KEYS = frozenset({"stage", "extends", "needs", "rules", "only", "except", "tags", "artifacts", "dependencies"})
GITLAB_MAX_DEPTH = 11
GITLAB_MAX_LINES = 5_000
GITLAB_MAX_FLATTENED = 1_000_000
GITLAB_MAX_PARSED = 200_000

# Azure Pipelines: the first key of an item of a `steps`, `jobs` or `stages` list, which tells
# Azure what the item is (a step's keyword is "required as first property"), and the pool images
# of Windows agents, where a `script:` step runs in cmd.exe (`windows-latest`, `vs2017-win2016`).
AZURE_STEPS = frozenset(
    {"script", "bash", "pwsh", "powershell", "task", "checkout", "template", "download", "downloadBuild", "publish", "getPackage", "reviewApp"}
)
AZURE_JOBS = frozenset({"job", "deployment", "template"})
AZURE_STAGES = frozenset({"stage", "template"})
AZURE_WINDOWS_IMAGES = ("win", "vs20")

# A GitHub Actions step's default shell on Linux and macOS runners is `bash -e {0}`.
DEFAULT_SHELL = "bash -e {0}"
CIRCLECI_SHELL = "/bin/bash -eo pipefail"  # CircleCI's default for a Linux job's `run` steps
WINDOWS_DEFAULT_SHELL = "pwsh"

_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
    "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_SKIPPABLE = " \t\n"  # source characters a scalar's value may drop: indentation, folded breaks

# Keys of a trainer's config that say where its logs go: a file, or a directory it writes into.
LOG_FILE_KEYS = frozenset({"log_file", "stdout"})
LOG_DIRECTORY_KEYS = frozenset({"log_dir", "logging_dir", "output_dir", "save_dir"})
STRING_TAG = "tag:yaml.org,2002:str"
# Top-level keys of an accelerate config that `accelerate launch --config_file` starts processes
# by: how many, on how many machines (and which one this is), on which GPUs, on which port, and
# with which launcher (`distributed_type`).
LAUNCH_KEYS = frozenset(
    {"num_processes", "num_machines", "machine_rank", "gpu_ids", "main_process_port", "distributed_type"}
)

Stream = list[tuple[str, int]]  # a scalar's source characters (breaks as '\n') and their offsets
# An argv item: its value, origin map, where the item starts and ends (quotes included), and its
# unknown parts' spans.
_ArgvItem = tuple[str, list[int], int, int, list[tuple[int, int]]]


class LogSetting:
    """`log_dir: runs/exp7` in a YAML file, at any depth: where a trainer reading it logs."""

    def __init__(self, key: str, path: Word) -> None:
        self.key = key
        self.path = path

    @property
    def is_directory(self) -> bool:
        return self.key in LOG_DIRECTORY_KEYS


class YamlFacts:
    """What the YAML front end found in one file."""

    def __init__(
        self,
        shell: ShellScript | None = None,
        errors: list[tuple[Location, str]] | None = None,
        log_settings: list[LogSetting] | None = None,
        launch_settings: dict[str, Word] | None = None,
    ) -> None:
        self.shell = shell  # every shell piece of the file, in one script
        self.errors = [] if errors is None else errors  # invalid YAML
        self.log_settings = [] if log_settings is None else log_settings
        self.launch_settings = {} if launch_settings is None else launch_settings  # LAUNCH_KEYS at the top
        self.warnings: list[str] = []  # for stderr: what was not analysed, and why


def parse_yaml(path: str, text: str, index: LineIndex) -> YamlFacts:
    """The shell embedded in a YAML file, and where the file is not valid YAML."""
    source = _Source(path, text, index)
    facts = YamlFacts()
    extractor = _Extractor(source, facts)
    for root in _documents(source, facts.errors):
        extractor.document(root)
    extractor.gitlab_warning()
    return facts


def _documents(source: _Source, errors: list[tuple[Location, str]]) -> Iterator[Node]:
    """The composed documents up to the first error, which is recorded."""
    try:
        too_deep = _too_deep(source.text)
        if too_deep is not None:
            errors.append(source.error_at(too_deep, f"nesting deeper than {MAX_NESTING} levels"))
            return
        composed = 0
        try:
            for root in yaml.compose_all(source.text, Loader=_LOADER):
                composed += 1
                yield root
        except yaml.composer.ComposerError as error:
            if "duplicate anchor" not in (error.context or ""):
                raise
            # Only PyYAML refuses it (yaml/pyyaml#100): the documents after those composed, again
            # by the Python loader (the C one cannot be told), which lets the anchor be redefined.
            yield from itertools.islice(yaml.compose_all(source.text, Loader=_AnchorsRedefined), composed, None)
    except (yaml.YAMLError, RecursionError, ValueError) as error:
        # A Helm chart's or a Jinja template's file (`name: {{ .Release.Name }}-job`, `{{- if
        # .Values.gpus }}`) is YAML only once rendered: its parse error is none. A `"{{ question
        # }}"` in a valid config raises no error to ask about.
        if not (isinstance(error, yaml.MarkedYAMLError) and (any(map(template_action, source.text.splitlines())) or _placeholder_at(error, source.text))):
            errors.append(_error_entry(error, source))


_PLACEHOLDER = lazy(r"%[A-Za-z_]\w*%")  # a value a script's `sed` fills in: `image: %IMAGE%`
_FORMAT_FIELD = lazy(r"\{[A-Za-z_]\w*\}$")  # one `str.format` fills in: `path: {src_dir}/test.py`


def _placeholder_at(error: yaml.MarkedYAMLError, text: str) -> bool:
    """Whether the parse stopped at a `%NAME%` placeholder (`image: %IMAGE%`, `out: %SDIR%`): a
    template a script fills in with `sed` before it is read, YAML only once filled (brain-tokyo-
    workshop's Kubernetes specs, weather4cast's configs). A `%` cannot start a plain value. Or
    right after a `{name}` field `str.format` fills in (`test_path: {src_dir}/deps/test.py`,
    mvfst-rl's experiments.yml): YAML reads a flow mapping, then refuses what follows it."""
    mark = error.problem_mark
    if mark is None:
        return False
    return _PLACEHOLDER.match(text, mark.index) is not None or _FORMAT_FIELD.search(text, max(0, mark.index - 80), mark.index) is not None


class _AnchorsRedefined(yaml.SafeLoader):
    """The safe loader, where an anchor may be defined again: "an anchor need not be unique" (YAML
    1.2, 3.2.2.2; 1.1 said the same), an alias names the latest node before it with that anchor,
    and GitLab's Ruby and Go's YAML libraries read such a file (a `.gitlab-ci.yml` repeating
    `&script`). PyYAML's refusal was an LL001 and a file with nothing analysed."""

    def compose_node(self, parent, index):
        if not self.check_event(yaml.AliasEvent):
            self.anchors.pop(self.peek_event().anchor, None)
        return super().compose_node(parent, index)


def _too_deep(text: str) -> yaml.Mark | None:
    """Where nesting first gets too deep. Events come from an iterative parser and stop there;
    a syntax error is left for the composer to report, after the documents before it.

    Every collection has an indicator of its own: a flow one opens with `[` or `{`, a block
    sequence's entries start with `-`, a block mapping's keys end with `:` or follow `?`. A text
    with no more of those characters than MAX_NESTING cannot nest deeper, and is not parsed
    twice (most files: the events were a sixth of the YAML front end's time)."""
    if sum(text.count(indicator) for indicator in "[{-?:") <= MAX_NESTING:
        return None
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_NESTING:
                    return event.start_mark
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except (yaml.YAMLError, ValueError):
        return None
    return None


def error_position(text: str, error: Exception) -> tuple[int, int, str]:
    """(line, column, one-line problem) of a YAML error in `text`, as LL001 reports it (for a
    configuration file's error, which is no finding)."""
    location, message = _error_entry(error, _Source("", text, LineIndex(text)))
    return location.line, location.column, message


def _error_entry(error: Exception, source: _Source) -> tuple[Location, str]:
    if isinstance(error, yaml.MarkedYAMLError):
        # "could not find expected ':'" while scanning a simple key: the line with no colon (a
        # merge's `<<<<<<< HEAD`, `foo bar`) is the context's; the problem's is the line after it
        simple_key = error.context == "while scanning a simple key" and error.context_mark is not None
        mark = error.context_mark if simple_key else error.problem_mark or error.context_mark
        message = error.problem or error.context or str(error)
        if mark is not None:
            if message == "found undefined alias":  # libyaml's words lack the name the Python loader's give
                alias = _ALIAS.match(source.text, source.offset(mark))
                message += f" {alias.group(1)!r}" if alias else ""
            return source.error_at(mark, message)
        return source.error_at_offset(0, message)
    if isinstance(error, yaml.reader.ReaderError):
        # The C reader reports a byte position; the offending character is its first occurrence.
        offset = max(source.text.find(chr(error.character)), 0)
        return source.error_at_offset(offset, str(error).splitlines()[0])
    if isinstance(error, RecursionError):
        return source.error_at_offset(0, "nesting too deep")
    return source.error_at_offset(0, str(error))


_ALIAS = re.compile(r"\*([^\s,\[\]{}]+)")  # `*name`: an alias, up to a blank or a flow indicator


class _Source:
    """The file's text and its offsets, as YAML marks count them."""

    def __init__(self, path: str, text: str, index: LineIndex):
        self.path = path
        self.text = text
        self.index = index
        self.line_starts = [0] + [m.end() for m in _BREAK.finditer(text)]
        # Both loaders skip a byte order mark without counting it in the first line's columns.
        self.bom = 1 if text.startswith("\ufeff") else 0

    def offset(self, mark: yaml.Mark) -> int:
        line = min(max(mark.line, 0), len(self.line_starts) - 1)
        start = self.line_starts[line] + (self.bom if line == 0 else 0)
        return min(start + mark.column, len(self.text))

    def error_at(self, mark: yaml.Mark, message: str) -> tuple[Location, str]:
        return self.error_at_offset(self.offset(mark), message)

    def error_at_offset(self, offset: int, message: str) -> tuple[Location, str]:
        one_line = " ".join(message.split()) or "invalid YAML"
        return self.index.span(self.path, offset, offset + 1), one_line

    def line_end(self, offset: int, end: int) -> tuple[int, int]:
        """(end of the line's content, start of the next line), both at most `end`."""
        match = _BREAK.search(self.text, offset, end)
        return (match.start(), match.end()) if match else (end, end)

    def next_line(self, offset: int) -> int:
        line = bisect_right(self.line_starts, offset)
        return self.line_starts[line] if line < len(self.line_starts) else len(self.text)


# --- nodes -------------------------------------------------------------------------------------


def _key_mark(mapping: Node, value: Node) -> yaml.Mark:
    """Where a value's key is written in a mapping (where the value is, if merged into it)."""
    keys = [key for key, item in mapping.value if item is value] if isinstance(mapping, MappingNode) else []
    return (keys[0] if keys else value).start_mark


def _mapping(node: Node | None) -> dict[str, Node]:
    """A mapping's scalar keys, with `<<` merge keys applied; each merged mapping is read once."""
    result: dict[str, Node] = {}
    stack, seen = [node], set()
    while stack:
        current = stack.pop()
        if not isinstance(current, MappingNode) or id(current) in seen:
            continue
        seen.add(id(current))
        merged: list[Node] = []
        own: dict[str, Node] = {}
        for key, value in current.value:
            if isinstance(key, ScalarNode) and key.tag == MERGE_TAG:
                merged.extend(value.value if isinstance(value, SequenceNode) else [value])
            elif isinstance(key, ScalarNode):
                own[key.value] = value
        for key, value in own.items():
            result.setdefault(key, value)  # what the first mapping read says wins
        stack.extend(reversed(merged))  # then the merged ones, the first listed first
    return result


def _text(node: Node | None) -> str | None:
    return node.value if isinstance(node, ScalarNode) else None


def _sequence(node: Node | None) -> list[Node]:
    return list(node.value) if isinstance(node, SequenceNode) else []


# --- scalars to text with an origin map --------------------------------------------------------


def _scalar(node: ScalarNode, source: _Source) -> tuple[str, list[int]]:
    """The scalar's value and the file offset of each of its characters (plus one past the end)."""
    start, end = source.offset(node.start_mark), source.offset(node.end_mark)
    style = node.style or ""
    text = source.text
    while start < end and text[start] in "&!":  # the mark is at the node's anchor or tag: skip them
        while start < end and text[start] not in " \t\r\n":
            start += 1
        while start < end and text[start] in " \t\r\n":
            start += 1
    if style in ("|", ">"):
        stream = _block_stream(source, start, end, node.value)
    elif style == "'":
        stream = _single_quoted(_raw_stream(source.text, start + 1, end - 1))
    elif style == '"':
        stream = _double_quoted(_raw_stream(source.text, start + 1, end - 1))
    else:
        stream = _raw_stream(source.text, start, end)
    return node.value, _align(node.value, stream, end)


def _raw_stream(text: str, start: int, end: int) -> Stream:
    stream: Stream = []
    i = start
    while i < end:
        ch = text[i]
        if ch == "\r" and text.startswith("\n", i + 1):
            stream.append(("\n", i))
            i += 2
            continue
        stream.append(("\n" if ch in "\r\x85" else ch, i))
        i += 1
    return stream


def _single_quoted(stream: Stream) -> Stream:
    """'' is one quote."""
    result: Stream = []
    i = 0
    while i < len(stream):
        result.append(stream[i])
        i += 2 if stream[i][0] == "'" and i + 1 < len(stream) and stream[i + 1][0] == "'" else 1
    return result


def _double_quoted(stream: Stream) -> Stream:
    """Escapes become the character they stand for, at the backslash; `\\` + break joins lines."""
    result: Stream = []
    i = 0
    while i < len(stream):
        ch, at = stream[i]
        nxt = stream[i + 1][0] if i + 1 < len(stream) else ""
        if ch != "\\" or not nxt:
            result.append((ch, at))
            i += 1
        elif nxt == "\n":
            i += 2
        elif nxt in _HEX_ESCAPES:
            width = _HEX_ESCAPES[nxt]
            digits = "".join(c for c, _ in stream[i + 2 : i + 2 + width])
            result.append((_hex_char(digits), at))
            i += 2 + width
        else:
            result.append((_ESCAPES.get(nxt, nxt), at))
            i += 2
    return result


def _hex_char(digits: str) -> str:
    try:
        return chr(int(digits, 16))
    except ValueError:  # the scanner rejects these; keep a placeholder rather than fail
        return "?"


def _block_stream(source: _Source, start: int, end: int, value: str) -> Stream:
    """The content lines of a `|` or `>` scalar after its header, without their indentation."""
    lines = []
    line_start = source.next_line(start)  # skip the header: `|-`, `>2`, a comment
    while line_start < end:
        content_end, next_start = source.line_end(line_start, end)
        lines.append((line_start, content_end, next_start))
        if next_start == line_start:
            break
        line_start = next_start
    indent = _block_indent(source.text, lines, value)
    stream: Stream = []
    for line_start, content_end, next_start in lines:
        first = min(line_start + indent, content_end)
        stream.extend((source.text[i], i) for i in range(first, content_end))
        if next_start > content_end:
            stream.append(("\n", content_end))
    return stream


def _block_indent(text: str, lines: list[tuple[int, int, int]], value: str) -> int:
    """The block's indentation: the one that makes its first content line start the value.

    Without an indentation indicator it is the first content line's indentation; with one
    (`|2`), the value may keep some of that line's leading spaces.
    """
    head = value.lstrip("\n")
    for line_start, content_end, _ in lines:
        line = text[line_start:content_end]
        if line.strip():
            lead = len(line) - len(line.lstrip(" "))
            fits = (k for k in range(lead + 1) if head.startswith(line[k:]))
            return next(fits, lead)
    return 0


def _align(value: str, stream: Stream, end: int) -> list[int]:
    """Map each character of `value` onto the stream, skipping what YAML dropped.

    A folded line break becomes a space in the value: it maps to the end of its line. When YAML
    dropped nothing (a plain scalar, most `|` blocks), each character is where the stream has it.
    """
    if len(stream) == len(value) and "".join([ch for ch, _ in stream]) == value:
        origin = [at for _, at in stream]
        origin.append(origin[-1] + 1 if origin else end)
        return origin
    origin: list[int] = []
    at = stream[0][1] if stream else end
    j = 0
    for ch in value:
        k = j
        while k < len(stream) and not _same(ch, stream[k][0]) and stream[k][0] in _SKIPPABLE:
            k += 1
        if k < len(stream) and _same(ch, stream[k][0]):
            at, j = stream[k][1], k + 1
        origin.append(at)  # unmatched (never for valid YAML): the last known position
    origin.append(origin[-1] + 1 if origin else end)
    return origin


def _same(value_char: str, source_char: str) -> bool:
    return value_char == source_char or (value_char == " " and source_char == "\n")


# --- extraction --------------------------------------------------------------------------------


class _Extractor:
    """Finds the shell pieces of each document and parses them into one script."""

    def __init__(self, source: _Source, facts: YamlFacts):
        self.source = source
        self.facts = facts
        self.seen: set[int] = set()  # ids of nodes already read: aliases are visited once
        self.circleci = in_circleci(source.path)
        self.circleci_commands: dict[str, Node] = {}  # a CircleCI document's reusable `commands:`
        self.gitlab_flat: dict[int, tuple[ScalarNode, ...]] = {}  # a GitLab CI node's lines, by its id
        self.gitlab_joins: dict[tuple[int, ...], tuple[int, int]] = {}  # see gitlab_joined
        self.gitlab_numbers: dict[tuple[int, ...], int] = {}  # a number for each sequence of lines
        self.gitlab_flattened_left = GITLAB_MAX_FLATTENED  # the lines its lists may still have listed
        self.gitlab_parsed_left = GITLAB_MAX_PARSED  # the characters its jobs may still have parsed
        self.gitlab_cut = False  # lines were left out of the last job flattened
        self.gitlab_cut_nodes: set[int] = set()  # ids of the nodes whose lines were cut
        self.gitlab_left_out: dict[str, int] = {}  # the jobs a budget cut, and their lines

    def first_visit(self, node: Node) -> bool:
        if id(node) in self.seen:
            return False
        self.seen.add(id(node))
        return True

    def document(self, root: Node) -> None:
        self.seen = set()  # aliases never cross documents
        self.gitlab_flat, self.gitlab_joins, self.gitlab_numbers, self.gitlab_cut_nodes = {}, {}, {}, set()
        top = _mapping(root)
        if not (self.gitlab(root, top) or self.azure(top)):  # their keys (`services:`, `script:`) mean nothing else there
            self.workflow(top)
            self.compose(top)
            self.kubernetes(root, top)
            if not top.keys() & _STRUCTURES:
                self.skypilot(top)
                self.commands(root, 0, _dstack_env(top))
        self.facts.log_settings.extend(self.log_settings(root))
        self.facts.launch_settings.update(self.launch_settings(top))

    # GitHub Actions ------------------------------------------------------------------------

    def workflow(self, top: dict[str, Node]) -> None:
        self.circleci_commands = _mapping(top.get("commands")) if self.circleci else {}
        env = _workflow_env(top.get("env"))
        shell = _run_default(top, "shell")
        directory = _run_default(top, "working-directory")
        for job_node in _mapping(top.get("jobs")).values():
            if not self.first_visit(job_node):
                continue
            job = _mapping(job_node)
            if self.circleci:  # a job's (or its executor's) `shell:`, else CircleCI's `/bin/bash -eo pipefail`
                executor = _circleci_executor(top, job)
                job_shell = _text(job.get("shell")) or _text(executor.get("shell")) or CIRCLECI_SHELL
                job_env = _circleci_env(executor) | _circleci_env(job)
            else:
                job_shell = _run_default(job, "shell") or shell or _runner_default_shell(job)
                job_env = _workflow_env(job.get("env"))
            job_directory = _run_default(job, "working-directory") or directory
            by_runner = not (self.circleci or _run_default(job, "shell") or shell)
            self.steps(job.get("steps"), job_shell, job_directory, env | job_env, by_runner=by_runner)
        runs = _mapping(top.get("runs"))  # a composite action: every step names its shell
        if "steps" in runs:
            self.steps(runs.get("steps"), DEFAULT_SHELL, None, env)
        # CircleCI's reusable `commands:` run in the job that names one (`steps()`), as the first
        # such job runs them; one no job names, with CircleCI's defaults
        for command in self.circleci_commands.values():
            self.steps(_mapping(command).get("steps"), CIRCLECI_SHELL, None, env)
        if self.facts.shell is not None:
            self.facts.shell.checkouts.update(_own_checkouts(top))

    def steps(
        self, steps: Node | None, shell: str, directory: str | None, env: dict[str, str | None], *, by_runner: bool = False
    ) -> None:
        """Each `run:` step, in its `working-directory` (the step's, else the defaults'): a shell
        started there finds it in `$PWD`, relative to the checkout, unknown if it is an expression.
        Where the runner's default gives `shell` (`by_runner`), a step whose `if:` runs it only on
        Windows (`runner.os == 'Windows'`, in a job of a matrix of systems) runs in pwsh."""
        elsewhere = False  # the workspace holds another repository's checkout
        for step_node in _sequence(steps):
            if not self.first_visit(step_node):
                continue
            step = _mapping(step_node)
            elsewhere = _workspace_checkout(step, elsewhere)
            run = step.get("run")
            step_env = "env"
            if self.circleci:
                for branch in ("when", "unless"):  # `when: {condition: ..., steps: [...]}`
                    self.steps(_mapping(step.get(branch)).get("steps"), shell, directory, env)
                # a reusable command, named alone (`- collect`) or with its parameters (`- collect: {...}`)
                named = _text(step_node) if isinstance(step_node, ScalarNode) else next(iter(step), None) if len(step) == 1 else None
                if named in self.circleci_commands:
                    self.steps(_mapping(self.circleci_commands[named]).get("steps"), shell, directory, env)
                if isinstance(run, MappingNode):  # `run: {command: ..., shell: ..., environment: ...}`
                    step = _mapping(run)
                    run = step.get("command")
                    step_env = "environment"
            if not isinstance(run, ScalarNode) or not self.first_visit(run):
                continue
            step_shell = _text(step.get("shell")) or (WINDOWS_DEFAULT_SHELL if by_runner and _on_windows(step.get("if")) else shell)
            pipefail = _pipefail(step_shell)
            if pipefail is None:  # pwsh, python, cmd, ...: not shell this front end reads
                continue
            text, origin = _scalar(run, self.source)
            start = _text(step.get("working-directory")) or directory
            started = {} if start is None else {"PWD": None if _EXPRESSION.search(start) else start}
            if elsewhere and not (start or "").startswith("/"):
                started = {"PWD": None}  # in another repository's files (auto-sklearn's benchmark job)
            self.parse(_hide_expressions(text), origin, pipefail, started | env | _workflow_env(step.get(step_env)))
            if not (pipefail or self.circleci or self.facts.shell is None) and _own_bash_template(step_shell):
                lines = self.source.index.span(self.source.path, origin[0], origin[-1])
                self.facts.shell.shell_templates.append((lines.line, lines.end_line, step_shell))

    # GitLab CI -----------------------------------------------------------------------------

    def gitlab(self, root: Node, top: dict[str, Node]) -> bool:
        """A GitLab CI document's jobs, if it is one (`.gitlab-ci.yml`, a file under `.gitlab/`, or
        an included file whose jobs say they are: `stage:`, `extends:`, `needs:`...).

        A job's `before_script` (its own, else the `default:` one) and `script` lines run one
        after another in one shell, `after_script` in another, from the checkout, under the
        runner's bash with pipefail (its script starts `if set -o | grep pipefail ...; then set -o
        pipefail; fi`). `extends:` (at any depth), `inherit:` and `!reference [job, key]` are
        followed; `variables:` (the document's, the templates', the job's) are the environment;
        `$[[ inputs.x ]]` is unknown, as `${{ }}` is. A hidden job (`.name`) is read on its own
        only when no job extends or references it."""
        candidates = [name for name, node in top.items() if name not in GITLAB_KEYWORDS and isinstance(node, MappingNode)]
        chains = {name: _extends_chain(name, top) for name in candidates}
        jobs = {name: chain for name, chain in chains.items() if any(job.keys() & GITLAB_SCRIPTS for _, job in chain)}
        path = self.source.path
        named = path.rpartition("/")[2] in (".gitlab-ci.yml", ".gitlab-ci.yaml") or path.startswith(".gitlab/")
        if not jobs or not (named or any(job.keys() & GITLAB_JOB_KEYS for chain in jobs.values() for _, job in chain)):
            return False
        templates = {base for chain in jobs.values() for base, _ in chain[1:]}  # and what `!reference` names
        default = _mapping(top.get("default"))
        variables = self.gitlab_env(top.get("variables"), top)
        parsed: set[tuple] = set()  # the lines and environments read: jobs that share both are read once
        for name in sorted(jobs, key=lambda name: name.startswith(".")):  # templates known first
            if name.startswith(".") and name in templates:
                continue
            chain = [job for _, job in jobs[name]]
            inherit = _mapping(_inherited(chain, "inherit"))
            env = {k: v for k, v in variables.items() if _inherits(inherit.get("variables"), k)}
            for ancestor in reversed(chain):
                env = env | self.gitlab_env(ancestor.get("variables"), top)
            shells = []
            for key in ("before_script", "after_script"):
                inherited = default.get(key) or top.get(key) if _inherits(inherit.get("default"), key) else None
                shells.append(_inherited(chain, key) or inherited)
            for lines in ([shells[0], _inherited(chain, "script")], [shells[1]]):
                self.gitlab_cut = False
                flat = [self.gitlab_lines(node, top, templates) for node in lines]
                size, same_lines = self.gitlab_joined(flat)
                key = (same_lines, *sorted(env.items(), key=str))
                if (self.gitlab_cut or size > self.gitlab_parsed_left) and name not in self.gitlab_left_out:
                    self.gitlab_left_out[name] = self.source.index.position(_key_mark(root, top[name]).index)[0]
                if size and key not in parsed and self.gitlab_parsed_left >= size:
                    parsed.add(key)
                    self.gitlab_parsed_left -= size
                    items = [item for node_lines in flat for item in node_lines]
                    text, origin = _join([_scalar(item, self.source) for item in items], "\n")
                    self.parse(_hide_expressions(text), origin, True, dict(env))
        return True

    def gitlab_warning(self) -> None:
        """One line for stderr on the jobs the file's budgets left out: their findings are missing."""
        if self.gitlab_left_out:
            (name, line), *more = self.gitlab_left_out.items()
            others = f" (and {len(more)} more)" if more else ""
            self.facts.warnings.append(
                f"{self.source.path}:{line}: GitLab job `{name}`{others} not analysed in full: past launchlint's "
                f"limits ({GITLAB_MAX_LINES:,} lines a list, {GITLAB_MAX_FLATTENED:,} in a file, "
                f"{GITLAB_MAX_PARSED:,} characters of shell in a file)"
            )

    def gitlab_lines(self, node: Node | None, top: dict[str, Node], referenced: set[str], depth: int = 0) -> tuple[ScalarNode, ...]:
        """A `script:`'s lines: a string, or a list of strings, nested lists (an anchor's lines) and
        `!reference [job, key]` items (whose job goes into `referenced`), flattened as GitLab does.
        Each node is flattened once a document and holds at most GITLAB_MAX_LINES lines, and a
        file's lists at most GITLAB_MAX_FLATTENED in all: an alias of an alias of a list stays
        cheap, whatever it holds."""
        if node is None or depth > GITLAB_MAX_DEPTH:
            return ()
        found = self.gitlab_flat.get(id(node))
        if found is not None:
            self.gitlab_cut = self.gitlab_cut or id(node) in self.gitlab_cut_nodes
            return found
        self.gitlab_flat[id(node)] = ()  # a cycle of references reads nothing
        outer, self.gitlab_cut = self.gitlab_cut, False
        if isinstance(node, ScalarNode):
            lines: tuple[ScalarNode, ...] = (node,) if node.tag != NULL_TAG and node.value.strip() else ()
        elif node.tag == "!reference":
            lines = self.gitlab_lines(_referenced(node, top, referenced), top, referenced, depth + 1)
        else:
            collected: list[ScalarNode] = []
            for item in _sequence(node):
                collected += self.gitlab_lines(item, top, referenced, depth + 1)
                if len(collected) > GITLAB_MAX_LINES:
                    self.gitlab_cut = True
                    break
            lines = tuple(collected[:GITLAB_MAX_LINES])
            self.gitlab_flattened_left -= len(lines)
            if self.gitlab_flattened_left < 0:  # a list of an alias of a long list in each job
                lines = ()
                self.gitlab_cut = True
        self.gitlab_flat[id(node)] = lines
        if self.gitlab_cut:  # and for each job that reads these lines again
            self.gitlab_cut_nodes.add(id(node))
        self.gitlab_cut = self.gitlab_cut or outer
        return lines

    def gitlab_joined(self, flat: list[tuple[ScalarNode, ...]]) -> tuple[int, int]:
        """The characters of a job's flattened lines joined by newlines (what it would parse), and
        a number standing for those lines (the same for the same nodes in the same order). Made
        once for each combination of flattenings (which `gitlab_flat` keeps): many jobs can share
        a long aliased list."""
        combination = tuple(map(id, flat))
        found = self.gitlab_joins.get(combination)
        if found is None:
            items = tuple(itertools.chain.from_iterable(flat))
            size = sum(len(item.value) for item in items) + len(items)
            same = self.gitlab_numbers.setdefault(tuple(map(id, items)), len(self.gitlab_numbers))
            found = self.gitlab_joins[combination] = (size, same)
        return found

    def gitlab_env(self, node: Node | None, top: dict[str, Node]) -> dict[str, str | None]:
        """GitLab's `variables:` (or a `!reference` to another job's): a value, or `{value: ...,
        description: ...}`; GitLab expands a `$` in it, so such a value is unknown."""
        if node is not None and node.tag == "!reference":
            node = _referenced(node, top, set())
        env: dict[str, str | None] = {}
        for name, value in _mapping(node).items():
            text = _text(_mapping(value).get("value")) if isinstance(value, MappingNode) else _text(value)
            env[name] = None if text is None or "$" in text else text
        return env

    # Azure Pipelines -----------------------------------------------------------------------

    def azure(self, top: dict[str, Node]) -> bool:
        """An Azure Pipelines document's steps, if it is one: its top-level `stages`, `jobs` or
        `steps` list holds what Azure reads there (`- stage:`; `- job:`, `- deployment:`; `- script:`,
        `- bash:`, `- task:`...), a template's list too.

        A `bash:` step runs `bash <file>`, a `script:` step `bash --noprofile --norc <file>` (in
        cmd.exe on a Windows image), both without pipefail, as `task: Bash@3` (inline) and `task:
        CmdLine@2`, which they stand for, do; a Bash task of a `filePath` runs that file with bash
        (`azure_file`); `pwsh:`, `powershell:` and other tasks are not shell.
        A step runs in its `workingDirectory` (else the checkout) with its `env:`, and the
        `variables:` of the pipeline, its stage and its job (a matrix's, unknown) under the names
        Azure gives them (`build.dir` is `BUILD_DIR`). Macros (`_azure_macros`) and `${{ }}` are
        unknown words of the same length."""
        stages = _azure_items(top.get("stages"), AZURE_STAGES)
        jobs = _azure_items(top.get("jobs"), AZURE_JOBS)
        steps = _azure_items(top.get("steps"), AZURE_STEPS)
        if not (stages or jobs or steps):
            return False
        variables = _azure_variables(top.get("variables"))
        windows = _azure_windows(top.get("pool"), False)
        self.azure_steps(steps, variables, windows)
        for job in jobs:
            self.azure_job(job, variables, windows)
        for stage in map(_mapping, stages):
            stage_variables = variables | _azure_variables(stage.get("variables"))
            for job in _azure_items(stage.get("jobs"), AZURE_JOBS):
                self.azure_job(job, stage_variables, _azure_windows(stage.get("pool"), windows))
        return True

    def azure_job(self, node: MappingNode, variables: dict[str, str | None], windows: bool) -> None:
        """A job's steps, and a deployment job's: those of each hook of its `strategy` (`deploy`,
        `on.failure`...)."""
        if not self.first_visit(node):
            return
        job = _mapping(node)
        strategy = job.get("strategy")
        matrix = {_azure_name(name): None for leg in _mapping(_mapping(strategy).get("matrix")).values() for name in _mapping(leg)}
        variables = variables | _azure_variables(job.get("variables")) | matrix
        windows = _azure_windows(job.get("pool"), windows)
        for spec in [node, *(_mappings(strategy) if strategy is not None else ())]:
            self.azure_steps(_azure_items(_mapping(spec).get("steps"), AZURE_STEPS), variables, windows)

    def azure_steps(self, steps: list[MappingNode], variables: dict[str, str | None], windows: bool) -> None:
        for node in steps:
            step = _mapping(node)
            kind = _text(node.value[0][0])
            inputs = _mapping(step.get("inputs"))
            task = (_text(step.get("task")) or "").lower() if kind == "task" else ""
            inline = (_text(inputs.get("targetType")) or "").lower() == "inline"
            bash = kind == "bash" or task.startswith("bash@") and inline
            env = variables | _compose_env(step.get("env"))
            if task.startswith("bash@") and not inline:  # `targetType: filePath`, the default
                self.azure_file(inputs, variables, env)
                continue
            if not (bash or (kind == "script" or task.startswith("cmdline@")) and not windows):
                continue
            run = step.get(kind) if kind in ("bash", "script") else inputs.get("script")
            if not isinstance(run, ScalarNode) or not self.first_visit(run):
                continue
            text, origin = _scalar(run, self.source)
            start = _text(step.get("workingDirectory")) or _text(inputs.get("workingDirectory"))
            started = {} if not start else {"PWD": None if "$" in start else start}
            self.parse(_azure_macros(_hide_expressions(text), variables), origin, False, started | env)

    def azure_file(self, inputs: dict[str, Node], variables: dict[str, str | None], env: dict[str, str | None]) -> None:
        """A Bash task's script file: it runs `exec bash '<filePath>' <arguments>`, the path from
        the checkout (read here unquoted)."""
        path, arguments = inputs.get("filePath"), inputs.get("arguments")
        if not isinstance(path, ScalarNode) or not self.first_visit(path):
            return
        parts = [_scalar(path, self.source)]
        if isinstance(arguments, ScalarNode) and arguments.tag != NULL_TAG:
            parts.append(_scalar(arguments, self.source))
        text, origin = _join([("bash", [parts[0][1][0]] * 5), *parts])
        self.parse(_azure_macros(_hide_expressions(text), variables), origin, False, env)

    # Compose -------------------------------------------------------------------------------

    def compose(self, top: dict[str, Node]) -> None:
        for service_node in _mapping(top.get("services")).values():
            if not self.first_visit(service_node):
                continue
            service = _mapping(service_node)
            env = _compose_env(service.get("environment"))
            self.launch(service, ("entrypoint", "command"), env, service.get("working_dir"), {})

    # Kubernetes ----------------------------------------------------------------------------

    def kubernetes(self, root: Node, top: dict[str, Node]) -> None:
        """Every container of a resource: Pod, Job, Deployment, CronJob, a `List` of them..."""
        if _text(top.get("apiVersion")) is None or _text(top.get("kind")) is None:
            return
        for pod in _pod_specs(root):
            for key in ("initContainers", "containers"):
                for container_node in _sequence(pod.get(key)):
                    if self.first_visit(container_node):
                        container = _mapping(container_node)
                        env = _kubernetes_env(container.get("env"))
                        self.launch(container, ("command", "args"), env, container.get("workingDir"), env)

    # Any other YAML ------------------------------------------------------------------------

    def skypilot(self, top: dict[str, Node]) -> None:
        """A SkyPilot task's shell, if the document is one (its keys only, with `setup:` or `run:`):
        SkyPilot runs `setup:` then `run:`, each as a bash script of its own, in the same directory
        (the synced `workdir:`, `_skypilot_workdir`), after exporting `PYTHONUNBUFFERED=1`
        (`SKYPILOT_ENV`) and the task's `envs:` and `secrets:` maps. Both are shell, read as such
        (no command line is looked for), `setup:` first and in a shell of its own (its `cd`s end
        with it), so that what it makes (a `git clone`, a file) is known when `run:` uses it."""
        if not (top.keys() <= SKYPILOT_KEYS and top.keys() & {"setup", "run"}):
            return
        env = SKYPILOT_ENV | _compose_env(top.get("envs")) | _compose_env(top.get("secrets")) | _skypilot_workdir(top.get("workdir"))
        for key, own_shell in (("setup", True), ("run", False)):
            script = top.get(key)
            if isinstance(script, ScalarNode) and script.tag != NULL_TAG and self.first_visit(script):
                text, origin = _scalar(script, self.source)
                self.parse(_hide_expressions(text), origin, False, env, own_shell=own_shell)
                if self.facts.shell is not None:
                    self.facts.shell.in_image = True

    def commands(self, node: Node | None, depth: int, env: dict[str, str | None]) -> None:
        """rules.md: a YAML `run:`/`command:` value is shell, in any YAML: a launch spec's (Valohai's
        `command:` list, dstack's `commands:`; a SkyPilot task's, `skypilot`'s). A value is read when it reads
        as a command line: one of its lines starts with a launcher, Python, a shell, `cd`, `pip`...
        (after `set -o pipefail`, `echo` or `NODES=...` lines); a config's `command: train` is a name. The items of a list run one after another in one shell, on
        the machine the spec starts (a path is checked as in an image: by name), with `env`
        (`_dstack_env`)."""
        if depth > MAX_COMMAND_DEPTH or node is None or not self.first_visit(node):
            return
        if isinstance(node, SequenceNode):
            for item in node.value:
                self.commands(item, depth + 1, env)
            return
        if not isinstance(node, MappingNode):
            return
        for key, value in node.value:
            if _text(key) not in COMMAND_KEYS:
                self.commands(value, depth + 1, env)
                continue
            # A list of lines, run in one shell; not an argv (`command: [python, t.py]`, a
            # container's outside a manifest), whose words have no spaces
            lines = [i for i in _sequence(value) if isinstance(i, ScalarNode) and i.tag != NULL_TAG] or [value]
            if not isinstance(value, SequenceNode) and not isinstance(value, ScalarNode):
                continue
            if not any(" " in str(i.value) for i in lines) or not any(_command_like(str(i.value)) for i in lines):
                continue
            lines = [line for line in lines if self.first_visit(line)]
            if lines:
                text, origin = _join([_scalar(line, self.source) for line in lines], "\n")
                self.parse(_hide_expressions(text), origin, False, env, own_shell=False)
                self.facts.shell.in_image = True
                self.facts.shell.clones.update(_git_repo_clones(_mapping(node).get("integrations")))

    # Compose and Kubernetes ----------------------------------------------------------------

    def launch(
        self,
        spec: dict[str, Node],
        keys: tuple[str, str],
        env: dict[str, str | None],
        working_dir: Node | None,
        references: dict[str, str | None],
    ) -> None:
        """The program (`entrypoint`, `command`) then its arguments (`command`, `args`), as one
        command line, run in `working_dir` (a shell started there finds it in `$PWD`)."""
        parts = [self.launch_part(spec.get(key), references) for key in keys]
        text, origin = _join([part for part in parts if part is not None and part[0].strip()])
        directory = _text(working_dir)
        self.parse(text, origin, False, ({"PWD": directory} if directory else {}) | env)
        if self.facts.shell is not None:
            self.facts.shell.in_image = self.facts.shell.in_container = True

    def launch_part(
        self, node: Node | None, references: dict[str, str | None]
    ) -> tuple[str, list[int]] | None:
        """A string is shell text; a list is an argv, quoted word by word."""
        if node is None or not self.first_visit(node):
            return None
        if isinstance(node, ScalarNode) and node.tag != NULL_TAG:
            text, origin, _ = _resolve_dollars(*_scalar(node, self.source), references)
            return text, origin
        items = _sequence(node)
        if not items or not all(isinstance(item, ScalarNode) for item in items):
            return None
        return _argv([self.argv_item(item, references) for item in items])

    def argv_item(self, item: ScalarNode, references: dict[str, str | None]) -> _ArgvItem:
        value, origin, unknown = _resolve_dollars(*_scalar(item, self.source), references)
        return value, origin, self.source.offset(item.start_mark), self.source.offset(item.end_mark), unknown

    # Configs -------------------------------------------------------------------------------

    def log_settings(self, root: Node) -> list[LogSetting]:
        """String values of the log keys, at any depth (`trainer: {log_dir: ...}` too), in the
        order of the file."""
        found = []
        for mapping in _mappings(root):
            for key_node, value in mapping.value:  # its own keys: a merged mapping is visited too
                key = _text(key_node)
                if (key in LOG_FILE_KEYS or key in LOG_DIRECTORY_KEYS) and _is_path(value):
                    text, origin = _scalar(value, self.source)
                    location = self.source.index.span(self.source.path, origin[0], origin[-2] + 1)
                    found.append(LogSetting(key, Word(text, text, location, origin)))
        return sorted(found, key=lambda setting: setting.path.origin[0])

    def launch_settings(self, top: dict[str, Node]) -> dict[str, Word]:
        """Scalar values of the launch keys at the top of the document, as written (`8`, `0,1`)."""
        found = {}
        for key in LAUNCH_KEYS & top.keys():
            if isinstance(top[key], ScalarNode) and top[key].tag != NULL_TAG:
                text, origin = _scalar(top[key], self.source)
                location = self.source.index.span(self.source.path, origin[0], origin[-1])
                found[key] = Word(text, text, location, origin)
        return found

    def parse(
        self, text: str, origin: list[int], pipefail: bool, env: dict[str, str | None], own_shell: bool = True
    ) -> None:
        if not text.strip():
            return
        source = self.source
        self.facts.shell = parse_shell(
            source.path,
            text,
            source.index,
            origin,
            pipefail=pipefail,
            env=env,
            script=self.facts.shell,
            own_shell=own_shell,
        )


def _command_like(value: str) -> bool:
    """Whether one of a string's lines starts a command, after its assignments (`CUDA_VISIBLE_DEVICES=0
    python t.py`): the lines before it (`set -o pipefail`, `echo`, `NODES=$(...)`, comments) decide nothing."""
    for line in value.splitlines():
        words = list(itertools.dropwhile(_ASSIGNMENT.match, line.split()))
        if words and (words[0] in COMMAND_STARTS or is_python(words[0])):
            return True
    return False


def _workspace_checkout(step: dict[str, Node], elsewhere: bool) -> bool:
    """Whether the workspace holds another repository after `step`, given whether it did before:
    an `actions/checkout` into the workspace itself (no `path:`) replaces what it held, with
    another repository's files when it names one (`repository: automl/automlbenchmark`)."""
    if not (_text(step.get("uses")) or "").startswith("actions/checkout@"):
        return elsewhere
    given = _mapping(step.get("with"))
    path = (_text(given.get("path")) or "").strip("/").removeprefix("./")
    if path not in ("", "."):
        return elsewhere
    return _text(given.get("repository")) not in (None, "", "${{ github.repository }}")


def _own_checkouts(top: dict[str, Node]) -> Iterator[str]:
    """The directories a workflow's `actions/checkout` steps check the project itself out into:
    a static `path:`, with no `repository:` but this one (`${{ github.repository }}`)."""
    for job in _mapping(top.get("jobs")).values():
        for step in map(_mapping, _sequence(_mapping(job).get("steps"))):
            if not (_text(step.get("uses")) or "").startswith("actions/checkout@"):
                continue
            given = _mapping(step.get("with"))
            path, repository = _text(given.get("path")), _text(given.get("repository"))
            path = (path or "").strip("/").removeprefix("./")
            if path and path != "." and "$" not in path and repository in (None, "", "${{ github.repository }}"):
                yield path


def _git_repo_clones(node: Node | None) -> Iterator[str]:
    """The directories an MCLI run's `git_repo` integrations clone into its working directory before
    its `command:` runs (`integration_type: git_repo`, `git_repo: mosaicml/llm-foundry`): `path:`,
    "equivalent to `git clone <repo url> <path>`", else the repository's name (`llm-foundry`); each
    by its last part, as `launches.Made` keeps a `git clone`'s."""
    for item in _sequence(node):
        integration = _mapping(item)
        if _text(integration.get("integration_type")) != "git_repo":
            continue
        path, repository = _text(integration.get("path")), _text(integration.get("git_repo"))
        directory = path if path and path.strip("/") else (repository or "").removesuffix(".git")
        name = directory.rstrip("/").rpartition("/")[2]
        if name and "$" not in name:
            yield name


def _run_default(spec: dict[str, Node], key: str) -> str | None:
    """`defaults.run.<key>` of a workflow or a job: `shell` or `working-directory`."""
    return _text(_mapping(_mapping(spec.get("defaults")).get("run")).get(key))


def _runner_default_shell(job: dict[str, Node]) -> str:
    """A job's steps' default shell: pwsh on a Windows runner, also one a matrix names
    (`runs-on: ${{ matrix.os }}` where every `os` of the matrix is Windows)."""
    runs_on = job.get("runs-on")
    labels = [_text(runs_on)] + [_text(label) for label in _sequence(runs_on)]
    matrix = _mapping(_mapping(job.get("strategy")).get("matrix"))
    systems = []
    for label in filter(None, labels):
        named = _MATRIX_LABEL.fullmatch(label)
        if named is None:
            systems.append(label)
            continue
        key = named.group(1)
        included = [_mapping(entry).get(key) for entry in _sequence(matrix.get("include"))]
        systems += [_text(value) or "" for value in _sequence(matrix.get(key)) + [v for v in included if v is not None]]
    windows = bool(systems) and all(label.lower().startswith("windows") for label in systems)
    return WINDOWS_DEFAULT_SHELL if windows else DEFAULT_SHELL


_MATRIX_LABEL = lazy(r"\$\{\{\s*matrix\.([\w-]+)\s*\}\}")
_WINDOWS_ONLY = lazy(
    r"runner\.os\s*==\s*'windows'|matrix\.[\w-]+\s*==\s*'windows[^']*'"
    r"|startswith\(\s*matrix\.[\w-]+\s*,\s*'windows'\s*\)",
    re.IGNORECASE,
)


def _on_windows(condition: Node | None) -> bool:
    """A step's `if:` that runs it only on a Windows runner: `runner.os == 'Windows'`,
    `matrix.os == 'windows-latest'`, `startsWith(matrix.os, 'windows')`, alone or with `&&`."""
    text = _text(condition)
    return text is not None and "||" not in text and "!" not in text and _WINDOWS_ONLY.search(text) is not None


def _pipefail(shell: str) -> bool | None:
    """Whether a step's shell runs with pipefail; None when it is not bash or sh.

    `shell: bash` is `bash --noprofile --norc -eo pipefail {0}`; the implicit default and any
    custom template (`bash -e {0}`) have pipefail only when they ask for it.
    """
    words = shell.split()
    if not words or words[0].rsplit("/", 1)[-1] not in ("bash", "sh"):
        return None
    return len(words) == 1 and words[0] == "bash" or shell_args(words[1:]).pipefail


def _own_bash_template(shell: str) -> bool:
    """A step's shell is bash with options of its own (`bash -el {0}`, for conda's login shell),
    not the implicit default `bash -e {0}` that `shell: bash` replaces with the same and pipefail."""
    words = shell.split()
    return len(words) > 1 and words[0].rsplit("/", 1)[-1] == "bash" and shell != DEFAULT_SHELL


def _hide_expressions(text: str) -> str:
    """`${{ expr }}` (or CircleCI's `<< parameters.x >>`) becomes `${___}` of the same length: columns stay exact, and the word stays
    unknown (a literal placeholder would read as a static path, a missing script)."""
    return _EXPRESSION.sub(lambda m: opaque(m.group()), text)


def originals(text: str) -> dict[str, str]:
    """What the stand-ins of this file's shell stand for, by stand-in (see textmap.restore):
    its `${{ expressions }}` and its containers' `$(NAME)` references."""
    found = (m.group() for pattern in (_EXPRESSION, _REFERENCE) for m in pattern.finditer(text))
    return stand_ins(found, shell_dollar_underscore="$_" in text)


def _workflow_env(node: Node | None) -> dict[str, str | None]:
    """A workflow's `env:` (CircleCI's `environment:`): an expression's value is unknown."""
    env: dict[str, str | None] = {}
    for name, value in _mapping(node).items():
        text = _text(value)
        if isinstance(value, ScalarNode) and value.tag == NULL_TAG:
            text = ""
        env[name] = None if text is None or _EXPRESSION.search(text) else text
    return env


def _circleci_executor(top: dict[str, Node], job: dict[str, Node]) -> dict[str, Node]:
    """The top-level executor a CircleCI job names (`executor: cpu`, `executor: {name: cpu}`);
    empty for an orb's (`python/default`) or none."""
    named = job.get("executor")
    name = _text(_mapping(named).get("name")) if isinstance(named, MappingNode) else _text(named)
    return _mapping(_mapping(top.get("executors")).get(name)) if name else {}


def _circleci_env(spec: dict[str, Node]) -> dict[str, str | None]:
    """What a CircleCI job or executor sets for its steps: its primary container's `environment`
    (the first `docker:` image, where the steps run), then its own."""
    images = _sequence(spec.get("docker"))
    primary = _workflow_env(_mapping(images[0]).get("environment")) if images else {}
    return primary | _workflow_env(spec.get("environment"))


def _dstack_env(top: dict[str, Node]) -> dict[str, str | None]:
    """A dstack run's (`type: task`, `service`, `dev-environment`) `env:` for its `commands:`: a
    list of `NAME=value` (a bare `NAME` is the user's, not known) or a map."""
    return _compose_env(top.get("env")) if _text(top.get("type")) in DSTACK_RUNS else {}


def _skypilot_workdir(node: Node | None) -> dict[str, str | None]:
    """`$PWD` where a SkyPilot task's `setup:` and `run:` start, when its `workdir:` (synced to
    ~/sky_workdir, where both run) is not the project's: a home's directory as written
    (`~/transformers`: `launches.into_elsewhere` judges it; one of the checkout's name is the
    project), not known (None) for an absolute path, a relative one that climbs out (`../other`),
    one not static, or a git repository's (`{url: ..., ref: ...}`). A relative path in the
    project (`.`, `examples/app`) sets nothing: SkyPilot reads it from where `sky` is called,
    which the file does not say, so its paths are the project's, by name."""
    if node is None or node.tag == NULL_TAG:
        return {}
    text = _text(node)
    if text is None:
        return {"PWD": None}
    path = posixpath.normpath(text.strip())
    if path.startswith("~"):
        return {"PWD": path}
    return {"PWD": None} if path.startswith(("/", "../")) or path == ".." or "$" in path else {}


def _compose_env(node: Node | None) -> dict[str, str | None]:
    """`environment:` as a map or as `- KEY=value`; no value, or an interpolation, is unknown."""
    pairs: list[tuple[str, str | None]] = []
    for name, value in _mapping(node).items():
        pairs.append((name, None if value.tag == NULL_TAG else _text(value)))
    for item in _sequence(node):
        name, equals, value = (_text(item) or "").partition("=")
        pairs.append((name, value if equals else None))
    return {name: None if value is None or "$" in value else value for name, value in pairs if name}


def _resolve_dollars(
    text: str, origin: list[int], references: dict[str, str | None]
) -> tuple[str, list[int], list[tuple[int, int]]]:
    """What the shell gets after Compose or Kubernetes read a command: `$$` is a literal `$`.

    Kubernetes also replaces `$(NAME)` of a variable in the container's `env` by its value; an
    undefined one stays as it is. An unknown value (`valueFrom` a secret) becomes an unknown
    shell expansion of the same length, whose (start, end) in the result is also returned.
    """
    unknown: list[tuple[int, int]] = []
    if "$" not in text:
        return text, origin, unknown
    result = MappedText()
    i = 0
    while i < len(text):
        match = _REFERENCE.match(text, i)
        if text.startswith("$$", i):
            result.copy("$", origin[i : i + 1])
            i += 2
        elif match and match.group(1) in references:
            value = references[match.group(1)]
            if value is None:
                unknown.append((len(result.origin), len(result.origin) + match.end() - i))
                result.copy(opaque(text[i : match.end()]), origin[i : match.end()])
            else:
                result.insert(value, origin[i])
            i = match.end()
        else:
            result.copy(text[i], origin[i : i + 1])
            i += 1
    return (*result.build(origin[-1]), unknown)


def _extends(job: dict[str, Node]) -> list[str]:
    extends = job.get("extends")
    return [_text(extends)] if _text(extends) else [t for t in map(_text, _sequence(extends)) if t]


def _extends_chain(name: str, top: dict[str, Node]) -> list[tuple[str, dict[str, Node]]]:
    """A GitLab job, then what it `extends:` (the last listed wins, as GitLab merges), then what
    those extend, by name; GitLab's limit is 11 levels."""
    chain: list[tuple[str, dict[str, Node]]] = []
    pending, seen = [name], set()
    while pending and len(chain) < GITLAB_MAX_DEPTH:
        current = pending.pop(0)
        if current in seen or current not in top:
            continue
        seen.add(current)
        job = _mapping(top[current])
        chain.append((current, job))
        pending.extend(reversed(_extends(job)))
    return chain


def _inherited(chain: list[dict[str, Node]], key: str) -> Node | None:
    return next((job[key] for job in chain if key in job), None)


def _inherits(node: Node | None, key: str) -> bool:
    """Whether a job's `inherit: {default: ..., variables: ...}` lets `key` through: absent or
    true, or a list that names it."""
    if node is None:
        return True
    if isinstance(node, ScalarNode):
        return node.value.lower() != "false"
    return key in {_text(item) for item in _sequence(node)}


def _referenced(node: Node, top: dict[str, Node], referenced: set[str]) -> Node | None:
    """What `!reference [job, key, ...]` names (its job goes into `referenced`)."""
    path = [_text(part) or "" for part in _sequence(node)]
    referenced.update(path[:1])
    target: Node | None = top.get(path[0]) if path else None
    for key in path[1:]:
        target = _mapping(target).get(key)
    return target


def _azure_items(node: Node | None, kinds: frozenset[str]) -> list[MappingNode]:
    """The items of an Azure Pipelines list whose first key is one of `kinds`, with those a
    template expression inserts (each branch's of `- ${{ if ... }}:`, `${{ else }}:`; `${{ each
    }}:`'s as written)."""
    found: list[MappingNode] = []
    stack, seen = list(reversed(_sequence(node))), set()
    while stack:
        item = stack.pop()
        if not isinstance(item, MappingNode) or not item.value or id(item) in seen:
            continue
        seen.add(id(item))
        first = _text(item.value[0][0]) or ""
        if first in kinds:
            found.append(item)
        elif first.startswith("${{"):
            for _, value in reversed(item.value):
                stack.extend(reversed(value.value if isinstance(value, SequenceNode) else [value]))
    return found


def _azure_name(name: str) -> str:
    """The environment variable Azure makes of a pipeline variable: `python.version` is `PYTHON_VERSION`."""
    return name.upper().replace(".", "_")


def _azure_variables(node: Node | None) -> dict[str, str | None]:
    """`variables:` as a map or as a list (`- name: x` with `value:`; a `group:` or a `template:`
    names none here), by their environment names; a value with a `$` (a macro, an expression)
    is unknown."""
    pairs = [*_mapping(node).items(), *((_text(item.get("name")), item.get("value")) for item in map(_mapping, _sequence(node)))]
    found: dict[str, str | None] = {}
    for name, value in pairs:
        text = _text(value)
        if name:
            found[_azure_name(name)] = None if text is None or "$" in text else text
    return found


def _azure_windows(pool: Node | None, inherited: bool) -> bool:
    """Whether a job's pool (else its stage's, else the pipeline's) is a Windows image, whose
    `script:` steps run in cmd.exe; a pool named, or of an image not known here, is taken for Linux."""
    if pool is None:
        return inherited
    return (_text(_mapping(pool).get("vmImage")) or "").lower().startswith(AZURE_WINDOWS_IMAGES)


def _azure_macros(text: str, variables: dict[str, str | None]) -> str:
    """Azure's `$(name)` macros, which it replaces before bash reads the script, as unknown words
    of the same length: a name with a dot (`$(Build.SourcesDirectory)`) or a capital (`$(PART)`),
    or one of the pipeline's variables. Azure leaves a macro of no variable as written, so a
    lowercase word (`$(nproc)`, `$(pwd)`) is bash's command substitution."""

    def macro(match: re.Match) -> str:
        name = match.group(1)
        replaced = "." in name or not name.islower() or _azure_name(name) in variables
        return opaque(match.group()) if replaced else match.group()

    return _REFERENCE.sub(macro, text)


def _kubernetes_env(node: Node | None) -> dict[str, str | None]:
    """A container's `env` list; `valueFrom` or a `$(OTHER)` reference in a value is unknown."""
    env: dict[str, str | None] = {}
    for item in _sequence(node):
        entry = _mapping(item)
        name = _text(entry.get("name"))
        if not name:
            continue
        value = _text(entry.get("value")) if "value" in entry else (None if "valueFrom" in entry else "")
        env[name] = None if value is None or "$(" in value else value
    return env


def _pod_specs(root: Node) -> Iterator[dict[str, Node]]:
    """Mappings with a `containers` list, wherever the resource's kind nests them: a Pod's `spec`,
    a Job's `spec.template.spec`, a CronJob's `spec.jobTemplate.spec.template.spec`, a Kubeflow
    PyTorchJob's `pytorchReplicaSpecs.Worker.template.spec`, the `items` of a `List`."""
    for mapping in _mappings(root):
        spec = _mapping(mapping)
        if isinstance(spec.get("containers"), SequenceNode):
            yield spec


def _mappings(root: Node) -> Iterator[MappingNode]:
    """Every mapping of a document, each once (an alias is not followed twice)."""
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, MappingNode):
            yield node
            stack.extend(reversed([value for _, value in node.value]))
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))


def _is_path(node: Node | None) -> bool:
    """A string scalar a trainer could open as is: not `true`, not `${oc.env:LOGS}/x`."""
    return (
        isinstance(node, ScalarNode)
        and node.tag == STRING_TAG
        and bool(node.value.strip())
        and "${" not in node.value
    )


def _argv(items: list[_ArgvItem]) -> tuple[str, list[int]]:
    """Single-quote each argument so the shell reads it back unchanged, keeping positions. Its
    unknown parts stand in double quotes instead, so that the shell finds them unknown."""
    result = MappedText()
    for n, (value, value_origin, start, end, unknown) in enumerate(items):
        if n:
            result.insert(" ", start)
        result.insert("'", start)  # the word starts where the item starts, quote or not
        starts, ends = {s for s, _ in unknown}, {e for _, e in unknown}
        for i, (ch, at) in enumerate(zip(value, value_origin)):
            if i in ends:
                result.insert("\"'", at)
            if i in starts:
                result.insert("'\"", at)
            result.insert("'\\''" if ch == "'" else ch, at)
        last = max(end - 1, start)  # the item's last character (a closing quote), not the `,` after it
        result.insert("\"'" if len(value) in ends else "", last)
        result.insert("'", last)
    return result.build(result.origin[-1])


def _join(parts: list[tuple[str, list[int]]], separator: str = " ") -> tuple[str, list[int]]:
    """Entrypoint then command, as one command line (the command's words are its arguments); with
    a line end as the separator, lines run one after another. `separator` is one character."""
    if not parts:
        return "", [0]
    texts: list[str] = []
    origin: list[int] = []
    last = len(parts) - 1
    for n, (part_text, part_origin) in enumerate(parts):
        if n:
            texts.append(separator)
            origin.append(part_origin[0])
        kept = part_text if n == last else part_text.rstrip()
        texts.append(kept)
        origin.extend(part_origin if n == last else part_origin[: len(kept)])
    return "".join(texts), origin
