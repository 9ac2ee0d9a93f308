"""The pipeline: discover -> parse (front ends) -> facts -> project graph -> rules -> suppress.

Nothing here raises for bad input: an unreadable or unparseable file becomes a finding or a
warning, and a crash in one front end or rule becomes one LL003 finding.

Every rule runs on every run; `select`/`ignore` only filter what is reported. That keeps LL002
honest: a suppression is unused when no rule finds anything it covers, whatever is selected.
"""

from __future__ import annotations

import os

from .discover import decode, discover, read_text
from .model import Finding, LineIndex, Location, Severity
from .parsing import (
    BUDGET_SECONDS,
    FileFacts,
    OverBudget,
    command_lines_read,
    no_cyclic_gc,
    parse_file,
    parse_many,
    time_budget,
    traceback_text,
)
from .paths import relative_to
from .project import LazyModules, Project, Settings, SourceFile

TYPE_CHECKING = False  # as typing's, which costs 3 ms to import
if TYPE_CHECKING:
    from collections.abc import Callable

    from .cache import Cache
    from .pyfacts import PythonModule
    from .rulekit import Rule

INTERNAL_ERROR = "LL003"


class Options:
    def __init__(
        self,
        select: frozenset[str] | None = None,
        ignore: frozenset[str] = frozenset(),
        per_file_ignores: dict[str, frozenset[str]] | None = None,
        exclude: tuple[str, ...] = (),
        severity: dict[str, str] | None = None,
        base: str | None = None,
        settings: Settings | None = None,
        stdin: tuple[str, bytes] | None = None,
        jobs: int = 1,
        budget: float = BUDGET_SECONDS,
        cache: bool = False,
        debug: bool = False,
        force_exclude: bool = False,
    ) -> None:
        self.select = select  # None: every rule
        self.ignore = ignore
        self.per_file_ignores = {} if per_file_ignores is None else per_file_ignores  # glob -> codes
        self.exclude = exclude
        self.severity = {} if severity is None else severity
        self.base = base  # directory the globs are relative to (the config's)
        self.settings = Settings() if settings is None else settings
        self.stdin = stdin  # (file name, text) for `launchlint -`
        self.jobs = jobs  # processes for parsing and the rules (`_run_first`); 1: this process only
        self.budget = budget  # seconds of front-end time per file
        self.cache = cache  # read and write .launchlint_cache/
        self.debug = debug
        self.force_exclude = force_exclude  # `exclude` applies to the files named on the command line too


class Result:
    def __init__(
        self,
        findings: list[Finding],
        files: int,
        warnings: list[str],
        root: str,
        indexes: dict[str, LineIndex],
        project: Project | None = None,
        repeatable: bool = True,
    ) -> None:
        self.findings = findings
        self.files = files  # files analysed
        self.warnings = warnings
        self.root = root
        self.indexes = indexes  # the files findings point into, for source snippets
        # The facts, for callers that act on them (preflight's log watch, which never reuses a run);
        # a reused run's project holds the files' texts but no facts.
        self.project = project
        # Whether a run with the same inputs would find the same: not when an analysis stopped
        # at its time budget or crashed (LL003). Only such runs are cached or replayed.
        self.repeatable = repeatable


def _glob_matcher(patterns, base: str | None, root: str):
    """A test of project-relative paths against gitignore-style globs relative to `base` (the
    configuration file's directory, or the working directory for the command line's), as a
    `.gitignore` there would be read: from a `base` below the root, only the files under it; from
    one outside the project, the root's paths."""
    if not patterns:
        return lambda rel: False
    from .gitignore import matcher

    matches = matcher(patterns)
    base = os.path.realpath(base) if base is not None else root
    above = relative_to(root, base)  # the root seen from `base`: "." or "proj"
    below = relative_to(base, root) if above is None else None  # `base` seen from the root: "sub"
    if below is not None:
        start = below + "/"
        return lambda rel: rel.startswith(start) and matches(rel[len(start) :])
    prefix = "" if above in (None, ".") else above + "/"
    return lambda rel: matches(prefix + rel)


class Inputs:
    """What a run reads before any analysis: the files' texts, and what discovery said."""

    def __init__(
        self,
        project: Project,
        named: set[str],
        warnings: list[str],
        sources: list[tuple[str, str, str]],
        stdin_path: str | None,
        cache: Cache | None,
    ) -> None:
        self.project = project
        self.named = named
        self.warnings = warnings
        self.sources = sources  # (path, kind, text) of the files to analyse
        self.stdin_path = stdin_path
        self.cache = cache
        self.threads: ThreadEntry | None = None  # set by add_facts when the cache is on


class ThreadEntry:
    """The thread analysis's part of the cache (lint/cache.py, thread entries), for one run:
    `known`, the findings of a run with the same Python files, when there was one (this run then
    neither loads the modules' facts up front nor runs the thread rules); else `found`, this run's,
    to store with `modules`: each module's path -> (its file's errors, its warnings, whether it
    replaces a standard stream, whether it starts processes), what the run needs of a module
    without its facts."""

    def __init__(self, key: str, known: list[Finding] | None, modules: dict | None) -> None:
        self.key = key
        self.known = known
        self.modules = {} if modules is None else modules
        self.found: list[Finding] | None = None


def read_inputs(paths: list[str], options: Options, root: str | None = None) -> Inputs:
    """`root`: the project's (default: the first PATH's, `project_roots`)."""
    if root is None:
        root = project_roots(paths, options)[0][0]
    excludes = _glob_matcher(options.exclude, options.base, root)
    named = [p for p in paths if p != "-"] or ([] if options.stdin else ["."])
    found = discover(named, excludes, root=root, force_exclude=options.force_exclude)
    if options.stdin:
        found.add_stdin(*options.stdin)
    project = Project(root=found.root, settings=options.settings)
    sources = []
    for rel, (abs_path, kind) in found.files.items():
        try:
            text, problem = decode(options.stdin[1], kind) if rel == found.stdin_path else read_text(abs_path, kind)
        except OSError as error:
            found.warnings.append(f"{rel}: cannot read: {error.strerror or error}")
            continue
        project.files[rel] = SourceFile(rel, kind, text if text is not None else getattr(problem, "shown", ""))
        if text is None:
            line, column = (problem.line, problem.column) if problem else (1, 1)
            project.errors.append((Location(rel, line, column, line, column), problem or "cannot analyse"))
        else:
            sources.append((rel, kind, text))
    cache = None
    if options.cache:  # imported here: `--no-cache` (CI) needs neither it nor pickle
        from .cache import Cache

        cache = Cache(project.root)
    return Inputs(project, found.named, found.warnings, sources, found.stdin_path, cache)


def add_facts(inputs: Inputs, options: Options) -> list[Finding]:
    """Parse (or load from the cache) every file's facts onto the project; front-end crashes
    come back as LL003 findings."""
    project, cache = inputs.project, inputs.cache
    parsed: list[FileFacts] = []
    pending: list[tuple[str, str, str]] = []
    lazy: dict[str, str] = {}  # path -> text of the Python files whose facts load when asked
    threads = inputs.threads = _thread_entry(inputs)
    cli = command_lines_read(inputs.sources)
    for rel, kind, text in inputs.sources:
        from_disk = rel != inputs.stdin_path  # standard input and --command strings are one-offs
        if threads is not None and threads.known is not None and kind == "python":
            lazy[rel] = text
            continue
        hit = cache.get(rel, kind, text) if cache and from_disk else None
        if hit is not None:  # facts stored without the command line read it when asked (programs.py)
            parsed.append(hit)
        else:
            pending.append((rel, kind, text))
    def keep(facts: FileFacts, text: str, payload: bytes | None) -> None:  # where the file was parsed
        if facts.path != inputs.stdin_path:
            cache.put(text, facts, payload)

    parsed += parse_many(pending, options.jobs, options.debug, options.budget, keep if cache else None, cli, _import_rules(inputs.sources))
    project.stopped = any(facts.stopped for facts in parsed)
    warnings = [w for facts in parsed if facts.path in inputs.named for w in facts.warnings]
    if lazy:
        summaries = threads.modules
        redirecting = frozenset(p for p in lazy if summaries[p][2])
        project.python = LazyModules(lazy, _loader(cache, options), redirecting, any(summaries[p][3] for p in lazy))
        for path in lazy:
            errors, module_warnings, *_ = summaries[path]
            project.errors.extend(errors)
            if path in inputs.named:
                warnings.extend(module_warnings)
    elif threads is not None:
        threads.modules = {
            f.path: (tuple(f.errors), tuple(f.warnings), bool(f.python.redirects), f.python.may_start_processes)
            for f in parsed if f.kind == "python" and f.python is not None
        }
    # As discovery's: about the files the user named, not the rest of the project (a pre-commit
    # hook names the staged files only).
    inputs.warnings.extend(sorted(warnings))
    internal = [_store(project, facts) for facts in parsed]
    return [f for f in internal if f is not None]


def _thread_entry(inputs: Inputs) -> ThreadEntry | None:
    """The run's thread entry (None without the cache, or with standard input): with the known
    findings when a run with the same Python files stored them and each module's summary."""
    cache = inputs.cache
    if cache is None or inputs.stdin_path is not None:
        return None
    key = cache.threads_key(inputs.sources, inputs.project.settings.lock_names)
    known = cache.get_threads(key)
    if known is None or set(known[1]) != {path for path, kind, _ in inputs.sources if kind == "python"}:
        return ThreadEntry(key, None, None)
    return ThreadEntry(key, known[0], known[1])


def _loader(cache: Cache, options: Options) -> Callable[[str, str], PythonModule | None]:
    """How `LazyModules` loads a module's facts: from its facts entry, or (gone since the thread
    entry was made) by parsing it again."""

    def load(path: str, text: str) -> PythonModule | None:
        facts = cache.get(path, "python", text)
        if facts is None:
            facts = parse_file(path, "python", text, options.debug, options.budget, cli=False)
        return facts.python

    return load


def _import_rules(sources: list[tuple[str, str, str]]):
    """Imports the modules of the rules the run will likely need (`_findings` imports any other),
    for `parse_many` to do while the workers parse. Done after the parsing, it was 19 ms between
    the parsing and the rules on the 1,000-file benchmark project, this process alone at work;
    done meanwhile, 1 ms, and the run 1,451 -> 1,404 ms (interleaved medians of 41).

    A YAML file that is blank or comments gives no facts (`parsing._front_end`), so it asks for
    no shell rule: a project of Python files marked by a commented `.launchlint.yaml` imported
    every shell rule and the shell's facts here for rules `_findings` then did not run: 42 M of
    this process's 384 M instructions in the 100-file benchmark's Python-only run (`--jobs 2`)."""
    from .front import yaml_is_blank
    from .rules import PYTHON, SHELL

    present = {
        PYTHON if kind == "python" else SHELL for _, kind, text in sources if kind != "yaml" or not yaml_is_blank(text)
    }

    def imported() -> None:
        from .rulekit import rules_for

        rules_for(present)

    return imported


def build_project(paths: list[str], options: Options) -> tuple[Project, set[str], list[str], list[Finding]]:
    inputs = read_inputs(paths, options)
    return inputs.project, inputs.named, inputs.warnings, add_facts(inputs, options)


def _store(project: Project, facts: FileFacts) -> Finding | None:
    """Put one file's facts on the project; a front-end crash becomes an LL003 finding."""
    if facts.shell is not None:
        project.shell[facts.path] = facts.shell
    if facts.python is not None:
        project.python[facts.path] = facts.python
    if facts.log_settings:
        project.configs[facts.path] = facts.log_settings
    if facts.launch_settings:
        project.launch_configs[facts.path] = facts.launch_settings
    project.errors.extend(facts.errors)
    if facts.crash:
        return Finding(Location(facts.path, 1, 1, 1, 1), f"internal error in the {facts.kind} front end: {facts.crash}")
    return None


def _internal(path: str, where: str, error: BaseException, debug: bool) -> Finding:
    message = f"internal error in the {where}: {type(error).__name__}: {error}"
    if debug:
        message += "\n" + traceback_text(error)
    return Finding(Location(path, 1, 1, 1, 1), message)


def _crash_site(error: BaseException, check, named: set[str]) -> Location | None:
    """Where a rule was when it failed, when its `check` was on a named file: the command of its
    `invocation` (or `command`) in `path`, or that file. The LL003 then names the file that set the
    bug off, to report it or to leave it out (`--per-file-ignores`), not the project's first."""
    import traceback

    for frame, _ in traceback.walk_tb(error.__traceback__):
        if frame.f_code is not getattr(check, "__code__", None):
            continue
        places = frame.f_locals
        invocation = places.get("invocation")
        path = getattr(invocation, "caller", places.get("path"))
        command = getattr(invocation, "command", places.get("command"))
        if not isinstance(path, str) or path not in named:
            return None
        line = getattr(getattr(command, "location", None), "line", 1)
        return Location(path, line, 1, line, 1)
    return None


def matches(code: str, patterns) -> bool:
    """`LL1` selects LL101..LL109, `ALL` everything, as ruff's prefixes do."""
    return any(p == "ALL" or code.startswith(p) for p in patterns)


def rule_budget(per_file: float, files: int) -> float:
    """Seconds a rule may take over the whole project: the per-file budget (LAUNCHLINT_BUDGET)
    for each 1,000 files, at least once. The slowest rule on the largest real tree here (7,091
    files) takes a few seconds; an input that makes one walk without end (a sweep of scripts each
    calling the next 80 times was 80^4 walks) gets an LL003 instead of a run that never ends."""
    return per_file * max(1.0, files / 1000)


def _run_rules(project: Project, rules: list[Rule], named: set[str], options: Options) -> tuple[list[Finding], list[Finding]]:
    """Each rule's findings, and an LL003 for each rule that failed. Every rule runs (see the
    module's docstring), but a failed rule's LL003 is reported only when that rule, or LL003, is
    selected: a `--select LL301` gate must not pass because LL301 failed, nor fail because a rule
    it did not ask for did. A front end's LL003 is reported whatever is selected: every rule lost
    that file."""
    findings, crashes = [], []
    budget = rule_budget(options.budget, len(project.files))
    for rule in rules:
        try:
            with time_budget(budget):
                produced = list(rule.check(project))
        except Exception as error:  # noqa: BLE001  a rule's bug is one LL003, the other rules still run
            if options.select is None or matches(rule.code, options.select) or matches(INTERNAL_ERROR, options.select):
                if isinstance(error, OverBudget):  # a pathological input for this rule: a bug all the same
                    error = OverBudget(f"stopped after {budget:g} s; its findings are missing")
                crash = _internal(min(named) if named else ".", f"rule {rule.code} {rule.name}", error, options.debug)
                where = _crash_site(error, rule.check, named)
                crash = crash._replace(location=where or crash.location)
                crashes.append(crash._replace(message=crash.message + " (the other rules still ran)"))
            continue
        # A related location is listed once: a caller that runs the script round a loop is one
        # invocation a value (`for lane in a b; do bash lane.sh "$lane" > "lane-$lane.log"; done`),
        # each with the same note at the same place.
        findings.extend(
            f._replace(code=rule.code, name=rule.name, severity=rule.severity, related=tuple(dict.fromkeys(f.related)))
            for f in produced
        )
    return findings, crashes


# The thread analysis (the rules of `analysis` THREADS) runs in a process of its own, beside the
# other rules, when both halves have this much to do. On two cores, the generated 1,000-file project
# (450 modules, 4,400 commands) ran 1,757 -> 1,602 ms, DeepSpeedExamples (272, 1,158) 2,005 ->
# 1,898; the 100-file one (45, 440) the same either way, and a run of 45 modules alone (no
# command) 176 -> 203 ms: a fork costs its page tables (15 ms at Megatron-LM's 400 MB) and the pages
# both processes write to after it.
APART_MIN_MODULES = 100
APART_MIN_COMMANDS = 800


def _run_first(
    project: Project, rules: list[Rule], named: set[str], options: Options, threads: ThreadEntry | None = None
) -> tuple[list[Finding], list[Finding]]:
    """`_run_rules`, with the thread analysis's rules in a forked child when it pays (see
    APART_MIN_MODULES), or their findings from `threads` when it knows them. The child sees every
    fact; only its findings come back."""
    from .rulekit import THREADS  # imported already: the rules come from it

    apart = [r for r in rules if r.analysis == THREADS]
    rest = [r for r in rules if r not in apart]
    if threads is not None and threads.known is not None:
        findings, crashes = _run_rules(project, rest, named, options)
        return findings + threads.known, crashes
    if not apart or options.jobs <= 1 or not _worth_apart(project):
        findings, crashes = _run_rules(project, rules, named, options)
        codes = {r.code for r in apart}
        theirs = ([f for f in findings if f.code in codes], crashes)
    else:
        from .parsing import in_child

        try:
            result = in_child(lambda: _run_rules(project, apart, named, options))
        except OSError:  # no process to be had: run them here, after the others
            result = None
        findings, crashes = _run_rules(project, rest, named, options)
        theirs = result() if result is not None else None
        if theirs is None:  # the child died (or never was): run them here
            theirs = _run_rules(project, apart, named, options)
        findings, crashes = findings + theirs[0], crashes + theirs[1]
    if threads is not None and not theirs[1]:
        threads.found = theirs[0]
    return findings, crashes


def _worth_apart(project: Project) -> bool:
    if not hasattr(os, "fork") or len(project.python) < APART_MIN_MODULES:
        return False
    commands = 0
    for script in project.shell.values():
        commands += len(script.commands)
        if commands >= APART_MIN_COMMANDS:
            return True
    return False


def _comments(project: Project, path: str) -> list[tuple[int, int]] | None:
    """Where a shell or Python file's comments are (None: anywhere a marker is, as in YAML, whose
    `run:` blocks are shell with comments of their own)."""
    from .suppress import python_comments

    if path in project.shell:
        return project.shell[path].comments
    return python_comments(project.files[path].text, project.index(path)) if project.files[path].kind == "python" else None


def _statement_spans(project: Project, path: str) -> list[tuple[int, int]]:
    script = project.shell.get(path)
    if script is None:
        return []
    spans = [(c.location.line, c.location.end_line) for c in script.commands if not c.wrappers]
    # A `for` loop's list, from `for` to its last word: a finding on one of its words (LL303,
    # LL304) is covered by a comment at the end of the `for` line or alone above it.
    spans += [(where.line, values[-1].location.end_line) for where, values in script.loop_values.values()]
    return spans


def run(paths: list[str], options: Options) -> Result:
    with no_cyclic_gc():
        runs = [_run(group, options, root) for root, group in project_roots(paths, options)]
        return runs[0] if len(runs) == 1 else _merged(runs)


def project_roots(paths: list[str], options: Options) -> list[tuple[str, list[str]]]:
    """The PATHs by the project they are linted in, as (root, paths) in the order they were given.

    cli.md finds the root from the first PATH. A PATH outside that root, in another project of a
    monorepo whose files a pre-commit hook names together, is linted in its own project (its own
    nearest marker), with that project's whole context, so the order of the PATHs changes nothing.
    A root inside another PATH's root belongs to the outer one: staging `tools/x.sh` (a nested
    `pyproject.toml`) with `train.sh` lints both in the repository's project. Standard input and
    `--command` are one project, the first PATH's."""
    from .discover import find_root

    if options.stdin or len(paths) < 2:
        first = paths[0] if paths and paths[0] != "-" else (options.stdin[0] if options.stdin else ".")
        return [(find_root(first), paths)]
    found: dict[str, str] = {}  # directory -> its root: a pre-commit run over every file names thousands

    def root_of(path: str) -> str:
        directory = path if os.path.isdir(path) else os.path.dirname(path) or "."
        if directory not in found:
            found[directory] = find_root(directory)
        return found[directory]

    roots = {path: root_of(path) for path in paths}
    unique = list(dict.fromkeys(roots.values()))
    outer = [r for r in unique if not any(r != o and _within(r, o) for o in unique)]
    groups: dict[str, list[str]] = {root: [] for root in outer}
    for path in paths:
        groups[next(o for o in outer if _within(roots[path], o))].append(path)
    return list(groups.items())


def _within(directory: str, root: str) -> bool:
    return relative_to(directory, root) is not None


def _merged(runs: list[Result]) -> Result:
    """One result of runs over several projects: their paths made relative to the directory that
    holds every root, so one report shows them all (JSON sorted as cli.md says)."""
    base = os.path.commonpath([r.root for r in runs])
    findings: list[Finding] = []
    indexes: dict[str, LineIndex] = {}
    for result in runs:
        prefix = relative_to(result.root, base)
        findings += (_moved(f, prefix) for f in result.findings)
        indexes.update((_moved_path(path, prefix), index) for path, index in result.indexes.items())
    findings.sort(key=Finding.sort_key)
    warnings = [warning for r in runs for warning in r.warnings]
    repeatable = all(r.repeatable for r in runs)
    return Result(findings, sum(r.files for r in runs), warnings, base, indexes, None, repeatable)


def _moved(finding: Finding, prefix: str) -> Finding:
    """`finding` with its project-relative paths made relative to the root's parent `prefix` up."""
    if prefix == ".":
        return finding

    def place(location: Location) -> Location:
        return location._replace(path=_moved_path(location.path, prefix))

    fix = finding.fix
    if fix is not None:
        fix = fix._replace(edits=tuple(e._replace(path=_moved_path(e.path, prefix)) for e in fix.edits))
    related = tuple(r._replace(location=place(r.location)) for r in finding.related)
    return finding._replace(location=place(finding.location), related=related, fix=fix)


def _moved_path(path: str, prefix: str) -> str:
    return path if prefix == "." or os.path.isabs(path) else f"{prefix}/{path}"


def _run(paths: list[str], options: Options, root: str) -> Result:
    inputs = read_inputs(paths, options, root)
    project = inputs.project
    # A run over the same texts, options and code whose questions to the disk get the same
    # answers has the same findings: reuse them (lint/cache.py, "Run entries").
    key = None
    if inputs.cache and inputs.stdin_path is None:
        key = inputs.cache.run_key(inputs.sources, project.errors, _canonical(options), sorted(inputs.named))
        reused = inputs.cache.get_run(key)
        if reused is not None:
            findings, file_warnings = reused
            inputs.warnings.extend(file_warnings)
            return _result(findings, inputs)
    read_warnings = len(inputs.warnings)
    internal = add_facts(inputs, options)
    threads = inputs.threads
    ordered = _findings(project, inputs.named, internal, options, threads)
    repeatable = not project.stopped and not any(f.code == INTERNAL_ERROR for f in ordered)
    if key is not None and repeatable:
        inputs.cache.put_run(key, project.root, ordered, inputs.warnings[read_warnings:], project.disk)
    if threads is not None and threads.found is not None and repeatable and threads.modules:
        inputs.cache.put_threads(threads.key, threads.found, threads.modules)
    return _result(ordered, inputs, repeatable)


def _result(findings: list[Finding], inputs: Inputs, repeatable: bool = True) -> Result:
    project = inputs.project
    shown = {f.location.path for f in findings if f.location.path in project.files}
    indexes = {p: project.index(p) for p in shown}
    return Result(findings, len(project.files), inputs.warnings, project.root, indexes, project, repeatable)


def _canonical(options: Options) -> tuple:
    """The options that change findings, in an order that does not depend on hashing."""
    return (
        sorted(options.select) if options.select is not None else None,
        sorted(options.ignore),
        sorted((glob, sorted(codes)) for glob, codes in options.per_file_ignores.items()),
        options.exclude,
        sorted(options.severity.items()),
        str(options.base),
        options.settings,
    )


def _findings(
    project: Project, named: set[str], internal: list[Finding], options: Options, threads: ThreadEntry | None = None
) -> list[Finding]:
    from .rulekit import rules_for  # here, not at the top: a reused run needs neither rules nor suppressions
    from .suppress import MARKER, Coverage, find_suppressions

    rules = rules_for({kind for kind in ("shell", "python") if getattr(project, kind)})
    first = [r for r in rules if not r.after_other_rules]
    raw, crashes = _run_first(project, first, named, options, threads)
    internal_rule = next(r for r in rules if r.code == INTERNAL_ERROR)
    raw += [f._replace(code=internal_rule.code, name=internal_rule.name, severity=internal_rule.severity) for f in internal + crashes]

    project.suppressions = [
        s
        for path, source in project.files.items()
        if MARKER in source.text  # most files have none: spare them a line index
        for s in find_suppressions(path, source.text, project.index(path), _statement_spans(project, path), _comments(project, path))
    ]
    project.raw_findings = raw
    late, late_crashes = _run_rules(project, [r for r in rules if r.after_other_rules], named, options)
    findings, suppressed = [], set()
    coverage = Coverage(project.suppressions)
    for f in raw + late:
        if coverage.covered(f):
            suppressed.add(f.fix)
        else:
            findings.append(f)
    if suppressed - {None}:  # a fix shared with a suppressed finding (one `set -o pipefail`) would change what it covers
        findings = [f._replace(fix=None) if f.fix in suppressed else f for f in findings]
    findings = _fixable_here(findings, project.root)
    findings += [f._replace(code=internal_rule.code, name=internal_rule.name, severity=internal_rule.severity) for f in late_crashes]

    per_file = [(codes, _glob_matcher([glob], options.base, project.root)) for glob, codes in options.per_file_ignores.items()]
    findings = [_with_originals(f, project) for f in findings if _selected(f, options, per_file)]
    findings = [_with_severity(f, options.severity) for f in findings]
    unique: dict[tuple, Finding] = {}
    for f in findings:  # the first of those alike: a function's first walk's, not a walk again's (its notes name the first call's values)
        if _reported(f, named):
            unique.setdefault((f.code, f.location, f.message), f)
    return sorted(unique.values(), key=Finding.sort_key)


def _fixable_here(findings: list[Finding], root: str) -> list[Finding]:
    """The findings, without the fix of one whose edits reach a file outside the project (named
    by its path, or through a link that leaves it): `--fix` never writes there (fixes.plan_fixes),
    so neither `[*]` nor the json's `fix` offers it."""
    if not any(f.fix for f in findings):
        return findings
    from .discover import outside

    real_root = os.path.realpath(root)
    edited = {edit.path for f in findings if f.fix for edit in f.fix.edits}
    away = {path for path in edited if outside(os.path.join(root, path), real_root)}
    if not away:
        return findings
    return [f._replace(fix=None) if f.fix and any(e.path in away for e in f.fix.edits) else f for f in findings]


def _with_originals(finding: Finding, project: Project) -> Finding:
    """A message that quotes a word of YAML, Makefile or justfile shell shows the file's `${{ expr }}`,
    `$(fn)` or `{{ fn() }}`, not the stand-in the shell front end read in its place (see front/textmap.py)."""
    paths = {finding.location.path, *(r.location.path for r in finding.related)}
    sources = [s for s in map(project.files.get, paths) if s is not None and s.kind in ("yaml", "makefile", "justfile")]
    if not sources:  # most findings: the stand-ins' module is not imported for them
        return finding
    from .front.textmap import may_quote_stand_in, restore

    if not may_quote_stand_in(finding.message) and not any(may_quote_stand_in(r.message) for r in finding.related):
        return finding
    originals: dict[str, str] = {}
    for source in sources:
        if source.kind == "yaml":
            from .front.yamldoc import originals as found
        elif source.kind == "justfile":
            from .front.justfile import originals as found
        else:
            from .front.makefile import originals as found
        originals.update(found(source.text))
    related = tuple(r._replace(message=restore(r.message, originals)) for r in finding.related)
    return finding._replace(message=restore(finding.message, originals), related=related)


def _selected(finding: Finding, options: Options, per_file) -> bool:
    """Whether the options report `finding`; `per_file` pairs each `per-file-ignores` glob's codes
    with its matcher, made once a run (not once a finding)."""
    if options.select is not None and finding.code != INTERNAL_ERROR and not matches(finding.code, options.select):
        return False  # an LL003 was selected when it was made (`_run_rules`)
    if matches(finding.code, options.ignore):
        return False
    return not any(matches(finding.code, codes) and ignores(finding.location.path) for codes, ignores in per_file)


def _with_severity(finding: Finding, overrides: dict[str, str]) -> Finding:
    """The configuration's `severity` for the finding's code: its keys are codes, prefixes or
    `ALL`, matched as `select` matches them, and the most specific key that matches wins
    (`ALL` < `LL1` < `LL10` < `LL101`), whatever their order in the file."""
    keys = [key for key in overrides if matches(finding.code, (key,))]
    if not keys:
        return finding
    level = overrides[max(keys, key=lambda key: 0 if key == "ALL" else len(key))]
    return finding._replace(severity=Severity(level))


def _reported(finding: Finding, named: set[str]) -> bool:
    paths = [finding.location.path, *(r.location.path for r in finding.related)]
    return any(p in named for p in paths)
