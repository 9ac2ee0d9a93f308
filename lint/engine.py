"""The pipeline: discover -> parse (front ends) -> facts -> project graph -> rules -> report.

Nothing here raises for bad input: an unreadable or unparseable file becomes a finding or a
warning, and a crash in one front end or rule becomes one LL003 finding.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field, replace

from .discover import discover, read_text
from .model import Finding, LineIndex, Location
from .project import Project, Settings, SourceFile
from .rulekit import Rule, all_rules

INTERNAL_ERROR = "LL003"


@dataclass
class Options:
    select: frozenset[str] | None = None  # None: every rule
    ignore: frozenset[str] = frozenset()
    settings: Settings = field(default_factory=Settings)
    debug: bool = False


@dataclass
class Result:
    findings: list[Finding]
    files: int  # files analysed
    warnings: list[str]
    root: str
    indexes: dict[str, LineIndex]  # the files findings point into, for source snippets


def _parse(project: Project, source: SourceFile) -> None:
    """Run the front end for one file's kind, storing its facts on the project."""
    path, text = source.path, source.text
    if source.kind == "shell":
        from .front.shell import parse_shell

        script = parse_shell(path, text, project.index(path))
        project.shell[path] = script
        project.errors.extend(script.parse_errors)
    elif source.kind == "python":
        from .front.pysource import parse_python

        module = parse_python(path, text)
        project.python[path] = module
        project.errors.extend(module.parse_errors)
    elif source.kind == "yaml":
        from .front.yamldoc import parse_yaml

        facts = parse_yaml(path, text, project.index(path))
        if facts.shell is not None:
            project.shell[path] = facts.shell
            project.errors.extend(facts.shell.parse_errors)
        project.errors.extend(facts.errors)


def build_project(paths: list[str], options: Options) -> tuple[Project, set[str], list[str], list[Finding]]:
    found = discover(paths)
    project = Project(root=str(found.root), settings=options.settings)
    internal: list[Finding] = []
    for rel, (abs_path, kind) in found.files.items():
        try:
            text, problem = read_text(abs_path)
        except OSError as error:
            found.warnings.append(f"{rel}: cannot read: {error.strerror or error}")
            continue
        if text is None:
            project.files[rel] = SourceFile(rel, kind, "")
            project.errors.append((Location(rel, 1, 1, 1, 1), problem or "cannot analyse"))
            continue
        source = SourceFile(rel, kind, text)
        project.files[rel] = source
        try:
            _parse(project, source)
        except Exception as error:  # a launchlint bug: report it, analyse the rest
            internal.append(_internal(rel, f"{kind} front end", error, options.debug))
    return project, found.named, found.warnings, internal


def _internal(path: str, where: str, error: BaseException, debug: bool) -> Finding:
    message = f"internal error in the {where}: {type(error).__name__}: {error}"
    if debug:
        message += "\n" + "".join(traceback.format_exception(error))
    return Finding(Location(path, 1, 1, 1, 1), message)


def selected_rules(options: Options) -> list[Rule]:
    rules = all_rules()
    chosen = [r for r in rules if options.select is None or _matches(r.code, options.select)]
    return [r for r in chosen if not _matches(r.code, options.ignore)]


def _matches(code: str, patterns: frozenset[str]) -> bool:
    """`LL1` selects LL101..LL109, `ALL` everything, as ruff's prefixes do."""
    return any(p == "ALL" or code.startswith(p) for p in patterns)


def _reported(finding: Finding, named: set[str]) -> bool:
    paths = [finding.location.path, *(r.location.path for r in finding.related)]
    return any(p in named for p in paths)


def run(paths: list[str], options: Options) -> Result:
    project, named, warnings, internal = build_project(paths, options)
    rules = selected_rules(options)
    findings: list[Finding] = []
    by_code = {r.code: r for r in all_rules()}
    for rule in rules:
        try:
            produced = list(rule.check(project))
        except Exception as error:
            crash = _internal(_first(named), f"rule {rule.code} {rule.name}", error, options.debug)
            internal.append(replace(crash, message=crash.message + " (the other rules still ran)"))
            continue
        findings.extend(replace(f, code=rule.code, name=rule.name, severity=rule.severity) for f in produced)
    if INTERNAL_ERROR in {r.code for r in rules}:
        meta = by_code[INTERNAL_ERROR]
        findings.extend(replace(f, code=meta.code, name=meta.name, severity=meta.severity) for f in internal)
    unique = {(f.code, f.location, f.message): f for f in findings if _reported(f, named)}
    ordered = sorted(unique.values(), key=Finding.sort_key)
    shown = {f.location.path for f in ordered if f.location.path in project.files}
    return Result(ordered, len(project.files), warnings, project.root, {p: project.index(p) for p in shown})


def _first(named: set[str]) -> str:
    return min(named) if named else "."
