"""Worker processes and the facts cache give the same answers as a plain in-process run."""

from __future__ import annotations

import importlib
import inspect
import json
import math
import os
import pickle
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from launchlint import engine, parsing, replay, rulekit, threads
from launchlint.cache import DIRECTORY, RUNS, THREAD_ENTRIES, Cache
from launchlint.model import Finding, Location, Severity
from launchlint.parsing import POOL_MIN_FILES
from launchlint.project import LazyModules, Settings
from launchlint.pyfacts import PythonModule
from launchlint.rulekit import Rule, all_rules

from tests.conftest import imports_of_a_run

LAUNCHLINT = shutil.which("launchlint") or "launchlint"


def launchlint(*args: str, cwd: Path, env: dict | None = None):
    return subprocess.run(
        [LAUNCHLINT, "--format", "json", *args], cwd=cwd, capture_output=True, text=True, timeout=120,
        env={**os.environ, **(env or {})},
    )


def many_projects(root: Path, count: int) -> None:
    (root / ".launchlint.yaml").write_text("# root\n")
    for n in range(count):
        (root / f"launch{n}.sh").write_text(f"set -o pipefail\nbash job{n}.sh 2>&1 | tee run{n}.log\n")
        (root / f"job{n}.sh").write_text(f"echo {n}\nexec > other{n}.log 2>&1\npython -u t.py\n{PADDING}")


PADDING = "# " + "words of a long comment " * 200 + "\n"  # enough work for two processes


def _sources(root: Path) -> list[tuple[str, str, str]]:
    return [(p.name, "shell", p.read_text()) for p in sorted(root.glob("*.sh"))]


def test_worker_processes_find_what_one_process_finds(tmp_path):
    many_projects(tmp_path, POOL_MIN_FILES)
    assert parsing.processes_for(_sources(tmp_path), 2) == 2  # the second run has a worker
    one = launchlint("--jobs", "1", "--no-cache", ".", cwd=tmp_path)
    two = launchlint("--jobs", "2", "--no-cache", ".", cwd=tmp_path)
    assert one.stdout == two.stdout
    assert len(json.loads(one.stdout)) == POOL_MIN_FILES


SCRIPTS = [(f"s{n}.sh", "shell", "echo " + "x" * (n * 37 % 500) + "\n" + PADDING * 2) for n in range(60)]


def test_the_scripts_are_work_for_three_processes_and_few_small_files_for_one():
    assert parsing.processes_for(SCRIPTS, 8) >= 3  # the tests below run workers
    small = [(f"s{n}.sh", "shell", "set -euo pipefail\npython t.py | tee log\n") for n in range(60)]
    assert parsing.processes_for(small, 16) == 1  # 27 ms of work: a worker would cost more
    assert parsing.processes_for(SCRIPTS[:10], 8) == 1  # under POOL_MIN_FILES


def test_a_small_run_takes_a_worker_for_its_python_files_only():
    """Under POOL_MIN_FILES, Python files whose facts are cheap to move make a worker pay off;
    scripts, whose facts cost half their parse to move, never do, nor go to a worker."""
    trainer = "x = 1\n" * 2000  # 12,000 bytes: 3,700 of estimated work
    enough = math.ceil(parsing.SMALL_RUN_PYTHON / parsing._cost(("t.py", "python", trainer)))
    assert enough < parsing.POOL_MIN_FILES
    trainers = [(f"t{n}.py", "python", trainer) for n in range(enough)]
    assert parsing.processes_for(trainers, 2) == 2
    assert parsing.processes_for(trainers[:-1], 2) == 1
    assert parsing.processes_for([(f"s{n}.sh", "shell", trainer * 2) for n in range(enough)], 2) == 1
    assert parsing.processes_for(trainers, 1) == 1
    scripts = [(f"s{n}.sh", "shell", "echo x\n" * 100) for n in range(5)]
    assert parsing.processes_for(trainers + scripts, 2) == 1  # the worker would get the scripts
    assert parsing.processes_for(trainers + [(".launchlint.yaml", "yaml", "# root\n")], 2) == 2


def test_shares_cover_every_file_once_and_weigh_about_the_same():
    shares = parsing._shares(SCRIPTS, 3)
    assert sorted(i for share in shares for i in share) == list(range(len(SCRIPTS)))
    loads = [sum(parsing._cost(SCRIPTS[i]) for i in share) for share in shares]
    assert max(loads[1:]) - min(loads[1:]) <= max(parsing._cost(item) for item in SCRIPTS)
    assert loads[0] > loads[1]  # this process's share is the heavier (PARENT_LOAD < 1)


def test_this_process_takes_the_lighter_share_when_it_pickles_for_the_cache():
    assert parsing.PARENT_LOAD < 1 < parsing.PARENT_LOAD_CACHING
    many = [(f"s{n}.sh", "shell", "echo x\n" * 140) for n in range(400)]
    for weight in (parsing.PARENT_LOAD, parsing.PARENT_LOAD_CACHING):
        loads = [sum(parsing._cost(many[i]) for i in share) for share in parsing._shares(many, 2, weight)]
        assert (loads[0] > loads[1]) == (weight < 1)
        assert abs(loads[0] * weight - loads[1]) <= parsing.COST_PER_KIND["shell"] + parsing._cost(many[0])


def test_kinds_stay_whole_until_splitting_one_pays_for_its_start():
    """A process pays a kind's start (its parser's import) at its first file of that kind: few
    files of two kinds go one kind to a process; many of one kind are split all the same."""
    mixed = [(f"t{n}.py", "python", "x = 1\n" * 170) for n in range(20)]
    mixed += [(f"s{n}.sh", "shell", "echo x\n" * 140) for n in range(20)]
    kinds = [{mixed[i][1] for i in share} for share in parsing._shares(mixed, 2)]
    assert sorted(kinds, key=sorted) == [{"python"}, {"shell"}]
    many = [(f"s{n}.sh", "shell", "echo x\n" * 140) for n in range(400)]
    shares = parsing._shares(many, 2)
    loads = [sum(parsing._cost(many[i]) for i in share) for share in shares]
    start = parsing.COST_PER_KIND["shell"]
    assert all(shares) and abs(loads[0] * parsing.PARENT_LOAD - loads[1]) <= start + parsing._cost(many[0])


def test_the_kind_dearest_to_move_is_dealt_to_this_process():
    """Kinds are dealt whole, the one whose facts cost most to send over a pipe (TRANSFER) first,
    to this process: the scripts stay here, the trainers go, though they cost more to parse."""
    trainers = [(f"t{n}.py", "python", "x = 1\n" * 400) for n in range(20)]
    scripts = [(f"s{n}.sh", "shell", "echo x\n" * 300) for n in range(20)]
    items = trainers + scripts
    assert sum(map(parsing._cost, trainers)) > sum(map(parsing._cost, scripts))
    assert parsing.TRANSFER["shell"] > parsing.TRANSFER["python"]
    mine, theirs = parsing._shares(items, 2)
    assert {items[i][1] for i in mine} == {"shell"}
    assert {items[i][1] for i in theirs} == {"python"}


def _dies(*args):
    os._exit(3)  # a crash in a parser's C code, as far as the parent can tell


def test_a_worker_that_dies_costs_its_share_a_second_parse_not_the_files(monkeypatch):
    monkeypatch.setattr(parsing, "_work", _dies)  # forked workers inherit it
    results = list(parsing.parse_many(SCRIPTS, 3))
    assert sorted(f.path for f in results) == sorted(path for path, _, _ in SCRIPTS)
    assert all(not f.errors and f.shell.commands for f in results)


def _in_a_worker(after: int, then):
    """A `parse_file` that, in a forked worker only, does `then(facts)` from its `after`-th file
    on (this process's own files parse as usual)."""
    parent, real, count = os.getpid(), parsing.parse_file, [0]

    def parse_file(*args):
        facts = real(*args)
        if os.getpid() != parent:
            count[0] += 1
            if count[0] > after:
                return then(facts)
        return facts

    return parse_file


def _unpicklable(facts):
    facts.shell.note = lambda: None  # pickle refuses a lambda
    return facts


@pytest.mark.parametrize(
    "then", [lambda facts: os._exit(3), _unpicklable], ids=["the worker dies", "facts it cannot pickle"]
)
def test_what_a_worker_sent_is_used_and_the_rest_parsed_here(monkeypatch, then):
    """A worker sends each file's facts when they are made: if it dies halfway, the files it sent
    are not parsed twice, the others are parsed here; facts it cannot pickle are parsed here."""
    monkeypatch.setattr(parsing, "parse_file", _in_a_worker(5, then))
    share = parsing._shares(SCRIPTS, 2)[1]
    parsed_here = []
    real_parsed = parsing._parsed
    monkeypatch.setattr(parsing, "_parsed", lambda item, *rest: parsed_here.append(item[0]) or real_parsed(item, *rest))
    results = list(parsing.parse_many(SCRIPTS, 2))
    assert sorted(f.path for f in results) == sorted(path for path, _, _ in SCRIPTS)
    assert all(not f.errors and f.shell.commands and not hasattr(f.shell, "note") for f in results)
    worker_files = {SCRIPTS[i][0] for i in share}
    assert sorted(worker_files & set(parsed_here)) == sorted(SCRIPTS[i][0] for i in share[5:])


def _kept_by(log: Path):
    """A `keep` that records, in `log`, which process kept which file and whether with a pickle
    (a worker's calls happen in the worker: only a file can tell the test about them)."""

    def keep(facts, text, payload):
        loaded = pickle.loads(payload) if payload is not None else None
        made = loaded is not None and (loaded.path, len(loaded.shell.commands)) == (facts.path, len(facts.shell.commands))
        with open(log, "a") as out:
            out.write(f"{os.getpid()} {facts.path} {made} {text == dict((p, t) for p, _, t in SCRIPTS)[facts.path]}\n")

    return keep


def test_each_process_keeps_the_facts_it_parsed_a_worker_with_their_pickle(tmp_path):
    log = tmp_path / "kept"
    results = list(parsing.parse_many(SCRIPTS, 2, keep=_kept_by(log)))
    kept = [line.split() for line in log.read_text().splitlines()]
    assert sorted(path for _, path, _, _ in kept) == sorted(f.path for f in results) == sorted(p for p, _, _ in SCRIPTS)
    here = {pid == str(os.getpid()) for pid, *_ in kept}
    assert here == {True, False}  # some in this process, the rest in the worker
    for pid, _, made, same_text in kept:
        assert same_text == "True" and made == ("False" if pid == str(os.getpid()) else "True")


def test_without_fork_every_file_is_parsed_in_this_process(monkeypatch, tmp_path):
    monkeypatch.delattr(os, "fork")  # as on Windows
    log = tmp_path / "kept"
    results = list(parsing.parse_many(SCRIPTS, 2, keep=_kept_by(log)))
    assert [facts.path for facts in results] == [path for path, _, _ in SCRIPTS]
    assert {line.split()[0] for line in log.read_text().splitlines()} == {str(os.getpid())}


def test_no_worker_is_started_for_an_empty_share(monkeypatch):
    started = []
    fork = parsing._fork
    monkeypatch.setattr(parsing, "_fork", lambda work, items, *rest: started.append(len(items)) or fork(work, items, *rest))
    monkeypatch.setattr(parsing, "MIN_SHARE", 1)  # every job allowed, as on a machine with 64 CPUs
    scripts = SCRIPTS[: parsing.POOL_MIN_FILES]
    shares = parsing._shares(scripts, 64)
    assert any(not share for share in shares[1:])  # more jobs than the files need
    results = list(parsing.parse_many(scripts, 64))
    assert sorted(f.path for f in results) == sorted(path for path, _, _ in scripts)
    assert len(started) == sum(1 for share in shares[1:] if share) and all(started)


def test_a_fork_that_fails_leaves_its_share_to_this_process(monkeypatch):
    def no_process():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_process)
    results = list(parsing.parse_many(SCRIPTS, 3))
    assert sorted(facts.path for facts in results) == sorted(path for path, _, _ in SCRIPTS)


def test_cache_is_used_kept_out_of_git_and_skipped_with_no_cache(tmp_path):
    many_projects(tmp_path, 2)
    assert launchlint("--no-cache", ".", cwd=tmp_path).returncode == 1
    assert not (tmp_path / DIRECTORY).exists()
    cold = launchlint(".", cwd=tmp_path)
    assert (tmp_path / DIRECTORY / ".gitignore").read_text().splitlines()[-1] == "*"
    entries = [p for p in (tmp_path / DIRECTORY).rglob("*") if p.is_file() and p.name != ".gitignore"]
    runs = [p for p in entries if p.parent.name == RUNS]
    assert len(entries) - len(runs) == 5  # facts: four scripts and the .launchlint.yaml
    assert len(runs) == 1  # and the run
    assert launchlint(".", cwd=tmp_path).stdout == cold.stdout
    for entry in entries:  # corrupt every entry: they are misses, not errors
        entry.write_bytes(b"garbage")
    assert launchlint(".", cwd=tmp_path).stdout == cold.stdout


class _Marker:
    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_cache_shipped_in_a_repository_is_never_unpickled(tmp_path):
    """Entries are signed with a key in the user's cache directory: forged ones are ignored."""
    many_projects(tmp_path, 1)
    marker = tmp_path / "pwned"
    text = (tmp_path / "job0.sh").read_text()
    entry = Path(Cache(str(tmp_path))._entry("job0.sh", "shell", text))
    entry.parent.mkdir(parents=True)
    entry.write_bytes(b"\0" * 32 + pickle.dumps(_Marker(str(marker))))
    result = launchlint(".", cwd=tmp_path)
    assert not marker.exists()
    assert [f["code"] for f in json.loads(result.stdout)] == ["LL102"]


@pytest.mark.parametrize("shipped", ["fifo", "link"])
def test_a_fifo_or_link_in_place_of_an_entry_or_record_is_a_miss(tmp_path, shipped):
    """A repository can ship `.launchlint_cache/` with a FIFO (which would block a read for ever)
    or a link to /dev/zero where an entry or a replay's record is: each is a miss."""
    many_projects(tmp_path, 1)
    env = {"XDG_CACHE_HOME": str(tmp_path / "home")}
    first = launchlint(".", cwd=tmp_path, env=env)
    time.sleep(replay.RACY_SECONDS + 0.2)
    launchlint(".", cwd=tmp_path, env=env)  # records the command
    entries = [p for p in (tmp_path / DIRECTORY).rglob("*") if p.is_file() and p.name != ".gitignore"]
    assert {p.parent.name for p in entries} >= {RUNS, replay.RECORDS}
    for entry in entries:
        entry.unlink()
        os.mkfifo(entry) if shipped == "fifo" else entry.symlink_to("/dev/zero")
    again = launchlint(".", cwd=tmp_path, env=env)
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)


# -- run entries ---------------------------------------------------------------------------------


def _run_twice_then_change(tmp_path, change, *args):
    """(findings of a run that filled the cache, findings of the run after `change`)."""
    many_projects(tmp_path, 1)
    launchlint(*args, ".", cwd=tmp_path)  # fills the cache
    before = json.loads(launchlint(*args, ".", cwd=tmp_path).stdout)  # reuses the run
    change()
    return before, json.loads(launchlint(*args, ".", cwd=tmp_path).stdout)


def test_a_reused_run_is_the_run_and_nothing_is_analysed(tmp_path, monkeypatch):
    from launchlint import engine

    many_projects(tmp_path, 1)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    first = engine.run(["."], engine.Options(cache=True))

    def no_analysis(*args):
        raise AssertionError("a reused run parses nothing")

    monkeypatch.setattr(engine, "add_facts", no_analysis)
    again = engine.run(["."], engine.Options(cache=True))
    assert again.findings == first.findings and [f.code for f in again.findings] == ["LL102"]
    assert again.indexes.keys() == first.indexes.keys() and again.files == first.files
    with pytest.raises(AssertionError, match="parses nothing"):  # other options: another run
        engine.run(["."], engine.Options(cache=True, ignore=frozenset({"LL1"})))


def test_a_changed_text_is_a_new_run(tmp_path):
    job = tmp_path / "job0.sh"
    before, after = _run_twice_then_change(tmp_path, lambda: job.write_text("echo fixed\npython -u t.py\n"))
    assert [f["code"] for f in before] == ["LL102"] and after == []


def test_a_file_the_rules_asked_about_is_a_new_run(tmp_path):
    """LL303 asked whether run.sh exists; creating it (not a file launchlint reads) changes that."""

    def create():
        (tmp_path / "run.sh").write_text("echo hi\n")

    def project():
        (tmp_path / "launch0.sh").write_text("bash run.sh\n")

    many_projects(tmp_path, 1)
    project()
    hidden = ("--exclude", "run.sh")  # not walked: only the question sees it (a .gitignore'd path is no one's to judge)
    launchlint(*hidden, ".", cwd=tmp_path)
    before = [f["code"] for f in json.loads(launchlint(*hidden, ".", cwd=tmp_path).stdout)]
    create()
    after = [f["code"] for f in json.loads(launchlint(*hidden, ".", cwd=tmp_path).stdout)]
    assert "LL303" in before and "LL303" not in after


def test_a_gitignore_that_stops_hiding_a_missing_file_is_a_new_run(tmp_path):
    """LL303 leaves a path .gitignore hides (each user's own file); when .gitignore no longer
    hides it, the replayed run is not reused: the missing file is reported."""
    (tmp_path / "launch0.sh").write_text("source ./.env.sh\n")
    (tmp_path / ".gitignore").write_text(".env.sh\n")
    launchlint("--select", "LL303", ".", cwd=tmp_path)
    assert json.loads(launchlint("--select", "LL303", ".", cwd=tmp_path).stdout) == []
    (tmp_path / ".gitignore").write_text("*.log\n")
    assert [f["code"] for f in json.loads(launchlint("--select", "LL303", ".", cwd=tmp_path).stdout)] == ["LL303"]


def test_an_edit_to_a_file_a_script_sources_is_a_new_run(tmp_path):
    """LL105 reads the pipefail of `common.env`, which launchlint does not analyse: its text is
    one of the disk's answers a run is reused on."""
    (tmp_path / "common.env").write_text("set -o pipefail\n")
    before, after = _run_twice_then_change(
        tmp_path, lambda: (tmp_path / "common.env").write_text("set +o pipefail\n"), "--select", "LL105"
    )
    (tmp_path / "launch0.sh").write_text("source common.env\npython -u t.py | tee run0.log\n")
    assert before == after == []
    assert [f["code"] for f in json.loads(launchlint("--select", "LL105", ".", cwd=tmp_path).stdout)] == ["LL105"]
    (tmp_path / "common.env").write_text("set -euo pipefail\n")
    assert json.loads(launchlint("--select", "LL105", ".", cwd=tmp_path).stdout) == []


def test_a_new_file_of_any_kind_is_a_new_run(tmp_path):
    """LL304 looks for a config among all files under the root, JSON included."""

    def create():
        (tmp_path / "ds.json").write_text("{}")

    before, after = _run_twice_then_change(tmp_path, create)
    assert before == after  # the project does not name ds.json yet
    (tmp_path / "launch0.sh").write_text("set -o pipefail\ndeepspeed t.py --deepspeed ds2.json 2>&1 | tee run0.log\n")
    launchlint(".", cwd=tmp_path)
    assert "LL304" in [f["code"] for f in json.loads(launchlint(".", cwd=tmp_path).stdout)]
    (tmp_path / "ds2.json").write_text("{}")
    assert "LL304" not in [f["code"] for f in json.loads(launchlint(".", cwd=tmp_path).stdout)]


def test_the_parser_loads_without_the_packages_imports(tmp_path):
    """tree-sitter-bash's `__init__` imports `importlib.resources` (11 ms of start-up) for
    queries launchlint never reads, and tree-sitter's imports `typing` (2 ms) for a Protocol: the
    grammar and the parser are loaded from their compiled modules alone, and a shell script is
    still analysed with them."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "job.sh").write_text("exec > a.log 2>&1\npython train.py\n")
    modules = ("tree_sitter", "tree_sitter._binding", "tree_sitter_bash", "typing", "importlib.resources")
    printed, imported = imports_of_a_run(["--no-cache", "--format", "json", "job.sh"], modules, cwd=tmp_path)
    assert imported == ["tree_sitter._binding"]
    assert [(f["code"], f["line"]) for f in json.loads(printed)] == [("LL106", 2)]


def test_the_code_fingerprint_changes_with_the_code(tmp_path):
    """Entries made by other code are never reused: an edit to a module (its size or its time)
    is another fingerprint, as for Python's bytecode cache."""
    from launchlint.cache import _code_fingerprint

    module = tmp_path / "front.py"
    module.write_text("A = 1\n")
    first = _code_fingerprint([str(module)])
    assert _code_fingerprint([str(module)]) == first
    os.utime(module, ns=(1, 1))
    touched = _code_fingerprint([str(module)])
    module.write_text("A = 22\n")
    os.utime(module, ns=(1, 1))
    assert len({first, touched, _code_fingerprint([str(module)])}) == 3


def test_another_bash_is_another_cache(tmp_path, monkeypatch):
    """LL001 is confirmed by `bash -n`: facts that another bash judged are not reused. Two
    directories of PATH each with a bash (here links to this one): the first found keys it."""
    from launchlint import cache

    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "bash").symlink_to(os.path.realpath(cache.parser_files()[-1]))
    directories = {}
    for order in (("a", "b"), ("b", "a"), ("a", "b")):
        monkeypatch.setenv("PATH", os.pathsep.join(str(tmp_path / name) for name in order))
        monkeypatch.setattr(cache, "_parser_files", [])
        directories[order] = Cache(str(tmp_path)).directory
        assert cache.parser_files()[-1] == str(tmp_path / order[0] / "bash")
    assert len(set(directories.values())) == 2
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    monkeypatch.setattr(cache, "_parser_files", [])
    assert Cache(str(tmp_path)).directory not in directories.values()  # no bash: LL001 unconfirmed


def test_another_release_of_a_parser_is_another_cache(tmp_path, monkeypatch):
    """Facts that another tree-sitter-bash or PyYAML made are not reused: each parser package's
    `__init__` is part of the facts' and the runs' fingerprints."""
    from launchlint import cache

    *packages, bash = cache.parser_files()
    assert {Path(p).parent.name for p in packages} == set(cache.PARSERS) and Path(bash).name == "bash"
    installed = tmp_path / "site-packages" / "tree_sitter_bash" / "__init__.py"
    installed.parent.mkdir(parents=True)
    installed.write_text("# 0.23\n")
    monkeypatch.setattr(cache, "_parser_files", [str(installed)])
    before = (Cache(str(tmp_path)).directory, Cache(str(tmp_path)).run_key([], [], (), []))
    installed.write_text("# 0.25.0\n")  # pip install -U
    after = (Cache(str(tmp_path)).directory, Cache(str(tmp_path)).run_key([], [], (), []))
    assert before[0] != after[0] and before[1] != after[1]


TRAINER = """import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float)
args = parser.parse_args()
"""


def test_a_run_of_python_files_only_does_not_read_their_command_lines(tmp_path, monkeypatch):
    """Only LL301 and LL302 read a module's parser, and they need shell facts: a run with Python
    files alone (and a commented .launchlint.yaml) skips the reading; one shell script brings it."""
    from launchlint.engine import Options, run

    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "train.py").write_text(TRAINER)
    monkeypatch.chdir(tmp_path)
    module = run(["."], Options(cache=False)).project.python["train.py"]
    assert (module.command_line_read, module.parsers) == (False, [])
    (tmp_path / "launch.sh").write_text("python train.py --lr 1\n")
    module = run(["."], Options(cache=False)).project.python["train.py"]
    assert module.command_line_read
    assert [option.flags for option in module.parsers[0].options] == [("--lr",)]


def test_facts_cached_without_the_command_line_are_parsed_again_when_a_launcher_appears(tmp_path):
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "train.py").write_text(TRAINER)
    assert json.loads(launchlint(".", cwd=tmp_path).stdout) == []  # cached, without the parser
    (tmp_path / "launch.sh").write_text("python train.py --learning-rate 1\n")
    found = json.loads(launchlint("--select", "LL301", ".", cwd=tmp_path).stdout)
    assert [(f["code"], f["path"], f["line"], f["column"]) for f in found] == [("LL301", "launch.sh", 1, 17)]


# -- the thread analysis beside the other rules --------------------------------------------------

RACE = """import threading
import torch

step = torch.compile(lambda x: x)


def worker():
    step(1)


threading.Thread(target=worker).start()
"""


def thread_race_projects(root: Path, count: int) -> None:
    """`count` trainers that race to compile, each launched by a script of nine commands."""
    (root / ".launchlint.yaml").write_text("# root\n")
    for n in range(count):
        (root / f"train{n}.py").write_text(RACE)
        lines = [f"mkdir -p out{n}_{k}" for k in range(7)] + [f"python train{n}.py | tee run{n}.log"]
        (root / f"launch{n}.sh").write_text("\n".join(lines) + "\n")


def test_the_thread_analysis_beside_the_other_rules_finds_what_one_process_finds(tmp_path):
    thread_race_projects(tmp_path, engine.APART_MIN_MODULES)
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        project, *_ = engine.build_project(["."], engine.Options(jobs=1))
    finally:
        os.chdir(cwd)
    assert engine._worth_apart(project)  # the second run forks for the thread analysis
    one = launchlint("--jobs", "1", "--no-cache", ".", cwd=tmp_path)
    two = launchlint("--jobs", "2", "--no-cache", ".", cwd=tmp_path)
    assert one.stdout == two.stdout
    found = {(f["code"], f["path"], f["line"]) for f in json.loads(two.stdout)}
    assert ("LL202", "train7.py", 8) in found  # from the thread analysis
    assert ("LL105", "launch7.sh", 8) in found  # from this process's rules


def _rule(code: str, analysis: str | None, check) -> Rule:
    return Rule(code, code.lower(), Severity.ERROR, "", "", check, (), (), False, analysis)


def _where_it_ran(project):
    yield Finding(Location("t.py", 1, 1, 1, 2), f"ran in {os.getpid()}")


def _apart_project(monkeypatch, tmp_path):
    monkeypatch.setattr(engine, "APART_MIN_MODULES", 1)
    monkeypatch.setattr(engine, "APART_MIN_COMMANDS", 1)
    thread_race_projects(tmp_path, 1)
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        return engine.build_project(["."], engine.Options(jobs=1))[0]
    finally:
        os.chdir(cwd)


def test_the_rules_of_the_thread_analysis_run_in_a_child_and_their_findings_come_back(monkeypatch, tmp_path):
    project = _apart_project(monkeypatch, tmp_path)

    def crashes(project):
        raise ValueError("a bug")

    rules = [_rule("LL901", None, _where_it_ran), _rule("LL902", "threads", _where_it_ran), _rule("LL903", "threads", crashes)]
    findings, crashed = engine._run_first(project, rules, {"t.py"}, engine.Options(jobs=2))
    ran = {f.code: f.message for f in findings}
    assert ran["LL901"] == f"ran in {os.getpid()}"
    assert ran["LL902"].startswith("ran in ") and ran["LL902"] != f"ran in {os.getpid()}"
    assert [c.message for c in crashed] == [
        "internal error in the rule LL903 ll903: ValueError: a bug (the other rules still ran)"
    ]
    findings, _ = engine._run_first(project, rules, {"t.py"}, engine.Options(jobs=1))
    assert {f.message for f in findings} == {f"ran in {os.getpid()}"}  # --jobs 1: one process


def test_a_small_project_runs_every_rule_in_this_process(tmp_path):
    thread_race_projects(tmp_path, 3)
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        project = engine.build_project(["."], engine.Options(jobs=1))[0]
    finally:
        os.chdir(cwd)
    assert not engine._worth_apart(project)
    findings, _ = engine._run_first(project, [_rule("LL902", "threads", _where_it_ran)], {"t.py"}, engine.Options(jobs=2))
    assert [f.message for f in findings] == [f"ran in {os.getpid()}"]


def test_a_child_that_dies_leaves_its_rules_to_this_process(monkeypatch, tmp_path):
    project, parent = _apart_project(monkeypatch, tmp_path), os.getpid()

    def dies_in_a_child(project):
        if os.getpid() != parent:
            os._exit(3)
        yield from _where_it_ran(project)

    rules = [_rule("LL901", None, _where_it_ran), _rule("LL902", "threads", dies_in_a_child)]
    findings, _ = engine._run_first(project, rules, {"t.py"}, engine.Options(jobs=2))
    assert sorted(f.code for f in findings) == ["LL901", "LL902"]
    assert {f.message for f in findings} == {f"ran in {parent}"}


# -- after an edit: the thread analysis's findings, and the modules' facts as rules ask -------------

ARGS = """import argparse


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr")
    return parser.parse_args()
"""


def edited_project(root: Path) -> None:
    """A race (LL202), a module that replaces its stdout (LL204), a launched module whose parser
    is another module's (LL301), and a module nothing asks about."""
    (root / ".launchlint.yaml").write_text("# root\n")
    (root / "race.py").write_text(RACE)
    (root / "helper.py").write_text("def unused():\n    return 1\n")
    (root / "hijack.py").write_text("import sys\n\nsys.stdout = open('out.log', 'w')\n")
    (root / "args.py").write_text(ARGS)
    (root / "main.py").write_text("from args import get_args\n\nargs = get_args()\n")
    (root / "launch.sh").write_text("python hijack.py | tee hijack.log\npython main.py --learning-rate 1\n")


def run_in(root: Path, **options) -> engine.Result:
    cwd = os.getcwd()
    try:
        os.chdir(root)
        return engine.run(["."], engine.Options(jobs=1, **options))
    finally:
        os.chdir(cwd)


def loaded(python: dict) -> set[str]:
    return {path for path in python if isinstance(dict.__getitem__(python, path), PythonModule)}


def test_a_module_that_fails_to_load_is_not_loaded_again():
    """A module whose facts cannot be had (its parse over the time budget) is asked for once:
    every rule that asks again gets the same None, not another parse."""
    calls = []
    modules = LazyModules({"a.py": "x = 1\n"}, lambda path, text: calls.append(path), frozenset(), False)
    assert [modules["a.py"], modules.get("a.py"), *modules.values()] == [None, None, None]
    assert calls == ["a.py"]


def test_after_an_edit_to_a_script_the_modules_load_as_rules_ask_and_the_findings_stay(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    edited_project(tmp_path)
    assert type(run_in(tmp_path, cache=True).project.python) is dict  # the first run stores the entry
    with (tmp_path / "launch.sh").open("a") as script:
        script.write("echo edited\n")
    again = run_in(tmp_path, cache=True)
    assert again.findings == run_in(tmp_path, cache=False).findings
    assert {("LL202", "race.py", 8), ("LL204", "hijack.py", 3), ("LL301", "launch.sh", 2)} <= {
        (f.code, f.location.path, f.location.line) for f in again.findings
    }
    assert isinstance(again.project.python, LazyModules)
    assert loaded(again.project.python) == {"hijack.py", "main.py", "args.py"}  # not race.py, helper.py


TO_FILE = "import sys\n\n\ndef to_file():\n    sys.stdout = open('out.log', 'w')\n"
SERVER = TO_FILE + "\n\ndef start():\n    import multiprocessing\n\n    multiprocessing.Process(target=to_file).start()\n"


@pytest.mark.parametrize("starts_process", [False, True])
def test_after_an_edit_to_a_script_ll204_asks_every_module_only_when_one_starts_a_process(tmp_path, monkeypatch, starts_process):
    """Whether a redirect runs only in a child process is a question about every module's calls;
    the thread entry remembers whether some module starts a process, so that only then it is asked."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    edited_project(tmp_path)
    (tmp_path / "logs.py").write_text(SERVER if starts_process else TO_FILE)
    run_in(tmp_path, cache=True)
    with (tmp_path / "launch.sh").open("a") as script:
        script.write("echo edited\n")
    again = run_in(tmp_path, cache=True)
    assert isinstance(again.project.python, LazyModules)
    assert again.findings == run_in(tmp_path, cache=False).findings
    assert (("LL204", "logs.py", 5) in {(f.code, f.location.path, f.location.line) for f in again.findings}) is not starts_process
    every = {"hijack.py", "main.py", "args.py", "logs.py", "race.py", "helper.py"}
    assert loaded(again.project.python) == (every if starts_process else {"hijack.py", "main.py", "args.py", "logs.py"})


def test_a_module_whose_facts_entry_is_gone_is_parsed_again_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    edited_project(tmp_path)
    run_in(tmp_path, cache=True)
    facts = [p for p in (tmp_path / DIRECTORY).iterdir() if p.is_dir() and p.name not in (RUNS, THREAD_ENTRIES)]
    for entry in facts[0].iterdir():  # every file's facts entry, the thread entry kept
        entry.unlink()
    with (tmp_path / "launch.sh").open("a") as script:
        script.write("echo edited\n")
    again = run_in(tmp_path, cache=True)
    assert isinstance(again.project.python, LazyModules)
    assert again.findings == run_in(tmp_path, cache=False).findings
    assert loaded(again.project.python) == {"hijack.py", "main.py", "args.py"}


def test_an_edit_to_a_python_file_or_to_the_lock_names_runs_the_thread_analysis_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    edited_project(tmp_path)
    run_in(tmp_path, cache=True)
    (tmp_path / "race.py").write_text(RACE.replace("    step(1)", "    pass"))
    fixed = run_in(tmp_path, cache=True)
    assert type(fixed.project.python) is dict
    assert "LL202" not in {f.code for f in fixed.findings}
    (tmp_path / "race.py").write_text(RACE)  # the first run's Python files again: its entry
    with (tmp_path / "launch.sh").open("a") as script:  # and not the first run again
        script.write("echo edited\n")
    raced = run_in(tmp_path, cache=True)
    assert isinstance(raced.project.python, LazyModules)
    assert ("LL202", "race.py", 8) in {(f.code, f.location.path, f.location.line) for f in raced.findings}
    other_locks = run_in(tmp_path, cache=True, settings=Settings(lock_names=("GUARD",)))
    assert type(other_locks.project.python) is dict


def test_the_command_after_an_edit_prints_what_it_prints_without_the_cache(tmp_path):
    edited_project(tmp_path)
    launchlint(".", cwd=tmp_path)
    assert len(list((tmp_path / DIRECTORY / THREAD_ENTRIES).iterdir())) == 1
    with (tmp_path / "launch.sh").open("a") as script:
        script.write("echo edited\n")
    after = launchlint(".", cwd=tmp_path)
    assert after.stdout == launchlint("--no-cache", ".", cwd=tmp_path).stdout
    assert {f["code"] for f in json.loads(after.stdout)} >= {"LL202", "LL204", "LL301"}


def test_the_rules_that_read_the_thread_analysis_say_so():
    """The engine runs a rule beside the others by its ANALYSIS: a rule that reads
    `project.threads` without saying so would run the analysis a second time in this process.
    Such a rule asks the disk nothing: a child's questions are not recorded for the run's cache."""
    disk = ("on_disk", "listing", "_ask", "ask_disk")  # what a child asks is not kept for the run's cache
    for rule in all_rules():
        source = inspect.getsource(importlib.import_module(rule.check.__module__))
        assert (rule.analysis == "threads") == ("project.threads" in source), rule.code
        if rule.analysis == "threads":
            assert not any(ask in source for ask in disk), rule.code
    assert not any(ask in inspect.getsource(threads) for ask in disk)


# -- an idle worker takes part of this process's files -------------------------------------------


def _lopsided(monkeypatch, slow: str) -> None:
    """Shares where one process has five files and the other the rest, whose files take 5 ms
    more each: the `slow` one ("here" or "worker") is done long after the other."""
    few, rest = list(range(5)), list(range(5, len(SCRIPTS)))
    shares = [rest, few] if slow == "here" else [few, rest]
    monkeypatch.setattr(parsing, "_shares", lambda items, jobs, load: shares)
    parent, real = os.getpid(), parsing.parse_file

    def parse_file(*args):
        if (os.getpid() == parent) == (slow == "here"):
            time.sleep(0.005)
        return real(*args)

    monkeypatch.setattr(parsing, "parse_file", parse_file)


@pytest.mark.parametrize(
    "slow", ["here", "worker"], ids=["an idle worker is handed this process's last files", "this process claims back a worker's last files"]
)
def test_whichever_process_is_done_first_takes_the_last_files_of_the_other(monkeypatch, tmp_path, slow):
    _lopsided(monkeypatch, slow)
    log = tmp_path / "kept"
    results = list(parsing.parse_many(SCRIPTS, 2, keep=_kept_by(log)))
    assert [f.path for f in results] == [path for path, _, _ in SCRIPTS]  # in the items' order
    assert all(not f.errors and f.shell.commands for f in results)
    kept = [line.split() for line in log.read_text().splitlines()]
    assert sorted(path for _, path, _, _ in kept) == sorted(path for path, _, _ in SCRIPTS)  # each once
    by_the_fast_one = [path for pid, path, _, _ in kept if (pid == str(os.getpid())) == (slow == "worker")]
    moved = [path for path in by_the_fast_one if path not in {SCRIPTS[i][0] for i in range(5)}]
    assert moved and sorted(moved) == sorted(SCRIPTS[i][0] for i in range(60 - len(moved), 60))  # the last ones


def test_files_handed_to_a_worker_that_dies_are_parsed_here(monkeypatch):
    _lopsided(monkeypatch, "here")
    monkeypatch.setattr(parsing, "parse_file", _in_a_worker(7, lambda facts: os._exit(3)))  # in its first batch
    results = list(parsing.parse_many(SCRIPTS, 2))
    assert [f.path for f in results] == [path for path, _, _ in SCRIPTS]
    assert all(not f.errors and f.shell.commands for f in results)


def test_facts_come_in_the_order_of_the_items_however_the_work_went():
    assert [f.path for f in parsing.parse_many(SCRIPTS, 3)] == [path for path, _, _ in SCRIPTS]


# -- a module whose text another file has too: a symbolic link to it, a copy -------------------

RELATIVE = """import threading

from .factory import make

step = make(lambda x: x)


def worker():
    step(1)


threading.Thread(target=worker).start()
"""

HANDED = """import argparse


class Options:
    @staticmethod
    def add_args(parser):
        parser.add_argument("--lr")


parser = argparse.ArgumentParser()
Options.add_args(parser)
args = parser.parse_args()
"""


def _fields(value):
    """Facts as nested built-in values, to compare two of them: their pickles' bytes differ with
    the order a set keeps and with which equal strings are one object."""
    if hasattr(value, "__dict__"):
        return type(value).__name__, _fields(vars(value))
    if isinstance(value, dict):
        return [(_fields(key), _fields(item)) for key, item in value.items()]
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_fields(item) for item in value]
    return value


@pytest.mark.parametrize(
    ("text", "moved"),
    [(RACE, True), (TRAINER, True), ("def f(:\n", True), (RELATIVE, False), (HANDED, False), ("type P = int\n", False)],
)
def test_a_module_of_an_earlier_ones_text_gets_its_facts_moved_as_its_own_parse_makes_them(monkeypatch, text, moved):
    """Parsed once, unless the facts spell the module's own name (a relative import, a class's
    method handed the parser) or say something of its path (a warning): then parsed at each."""
    paths = ["shared/train.py", "egs/a/train.py", "egs/b/__init__.py", "train.py"]
    real, parsed = parsing.parse_file, []
    monkeypatch.setattr(parsing, "parse_file", lambda path, *rest: parsed.append(path) or real(path, *rest))
    facts = list(parsing.parse_many([(path, "python", text) for path in paths], 1))
    assert _fields(facts) == _fields([real(path, "python", text) for path in paths])
    assert parsed == (paths[:1] if moved else paths)


def test_a_link_to_a_module_is_reported_at_its_own_path_and_imports_from_there(tmp_path):
    """icefall's recipes link shared modules: each link has the findings of its own path; one
    whose relative import names a module of its own directory gets that module's."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    for directory in ("shared", "recipe", "pkg_a", "pkg_b"):
        (tmp_path / directory).mkdir()
    (tmp_path / "shared" / "race.py").write_text(RACE)
    (tmp_path / "recipe" / "race.py").symlink_to("../shared/race.py")
    (tmp_path / "pkg_a" / "factory.py").write_text("import torch\n\n\ndef make(model):\n    return torch.compile(model)\n")
    (tmp_path / "pkg_b" / "factory.py").write_text("def make(model):\n    return model\n")
    (tmp_path / "pkg_a" / "train.py").write_text(RELATIVE)
    (tmp_path / "pkg_b" / "train.py").symlink_to("../pkg_a/train.py")
    found = json.loads(launchlint("--no-cache", ".", cwd=tmp_path).stdout)
    assert [(f["code"], f["path"], f["line"]) for f in found] == [
        ("LL202", "pkg_a/train.py", 9), ("LL202", "recipe/race.py", 8), ("LL202", "shared/race.py", 8)
    ]


def test_this_process_does_its_own_work_while_the_workers_parse():
    ran: list[int] = []
    facts = list(parsing.parse_many(SCRIPTS, 2, meanwhile=lambda: ran.append(os.getpid())))
    assert [f.path for f in facts] == [path for path, _, _ in SCRIPTS]
    assert ran == [os.getpid()]  # once, here: not in a worker, which could not give it back


def test_a_run_imports_its_rules_while_the_workers_parse(monkeypatch, tmp_path):
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    for n in range(60):
        (tmp_path / f"s{n}.sh").write_text("echo hi\n" + PADDING * 2)
    parsing_now, asked = [False], []
    parse_many, rules_for = parsing.parse_many, rulekit.rules_for

    def watched(*args):
        parsing_now[0] = True
        yield from parse_many(*args)
        parsing_now[0] = False

    def recorded(present):
        asked.append((set(present), parsing_now[0]))
        return rules_for(present)

    monkeypatch.setattr(engine, "parse_many", watched)
    monkeypatch.setattr(rulekit, "rules_for", recorded)
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        engine.run(["."], engine.Options(jobs=2, cache=False))
    finally:
        os.chdir(cwd)
    assert asked == [({"shell"}, True), ({"shell"}, False)]  # the second: the rules run (imported already)


def test_a_worker_is_handed_the_last_files_worth_the_hand_over():
    items = [(f"s{n}.sh", "shell", "x" * 20000) for n in range(10)] + [("t.py", "python", "x" * 20000)]
    mine = list(range(10))[::-1]  # parsed from the end of the list: 0 first
    given = parsing._given(items, mine, {"shell"})
    assert given == [6, 7, 8, 9] and mine == [5, 4, 3, 2, 1, 0]  # 40% of the cost left, the last files
    assert parsing._given(items, [1, 0], {"shell"}) == []  # 5 ms: cheaper parsed here
    assert parsing._given(items, [10, 9, 8], {"shell"}) == []  # the Python front end's start outweighs it
    assert parsing._given(items, [10, 9, 8], {"shell", "python"}) == [9, 10]


def test_a_worker_reads_what_it_is_handed_and_what_is_claimed_and_leaves_on_nothing_or_a_closed_pipe():
    read, write = os.pipe()
    os.write(write, (2).to_bytes(4, "little") + (7).to_bytes(4, "little") + (300).to_bytes(4, "little"))
    os.write(write, parsing.CLAIM.to_bytes(4, "little") + (12).to_bytes(4, "little"))
    os.write(write, (0).to_bytes(4, "little"))
    assert parsing._message(read) == [7, 300]
    assert parsing._message(read) == 12
    assert parsing._message(read) == []
    os.close(write)
    assert parsing._message(read) is None
    os.close(read)


def test_a_worker_that_dies_before_it_answers_a_claim_costs_only_a_second_parse(monkeypatch):
    _lopsided(monkeypatch, "worker")
    monkeypatch.setattr(parsing, "_returned", lambda out, count: os._exit(3))
    results = list(parsing.parse_many(SCRIPTS, 2))
    assert [f.path for f in results] == [path for path, _, _ in SCRIPTS]
    assert all(not f.errors and f.shell.commands for f in results)


def test_a_worker_waits_on_a_descriptor_past_1023():
    """`select` refuses descriptors past 1023; a process with many files open has such pipes."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 1100:
        pytest.skip(f"this system allows {hard} open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1100), hard))
    read, write = os.pipe()
    try:
        high = os.dup2(read, 1050)
        assert not parsing._wait_readable(high, 0)
        os.write(write, (0).to_bytes(4, "little"))
        assert parsing._wait_readable(high, 0) and parsing._message(high) == []
        os.close(high)
    finally:
        os.close(read)
        os.close(write)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# A trainer with what makes the front ends' records of a module: defs, a class, lambdas,
# comprehensions, a walrus, a `with`, and parsers with parents (the reader's scopes and links).
TRAINER_FOR_CYCLES = '''
import argparse
import threading
import torch

common = argparse.ArgumentParser(add_help=False)
common.add_argument("--seed", type=int, default=0)


def get_args():
    parser = argparse.ArgumentParser(parents=[common])
    parser.add_argument("--lr", type=float, required=True)
    return parser.parse_args()


class Worker(threading.Thread):
    def run(self):
        step = torch.compile(lambda x: x * 2)
        with LOCK:
            total = sum(step(i) for i in range(8) if (n := i) > 1)
        return [total for _ in range(2)]


LOCK = threading.Lock()
if __name__ == "__main__":
    args = get_args()
    Worker().start()
'''


@pytest.mark.parametrize(
    ("path", "kind", "text"),
    [
        ("train.py", "python", TRAINER_FOR_CYCLES),
        ("launch.sh", "shell", "ssh gpu1 'tmux new-session -d \"bash -c \\\"python t.py | tee log\\\"\"'\n"),
        (".github/workflows/ci.yml", "yaml", "jobs:\n  t:\n    steps:\n      - run: python t.py | tee log\n"),
    ],
)
def test_a_front_end_leaves_no_cycles_for_the_collector_it_runs_without(path, kind, text):
    """A run keeps the cyclic collector off (cli.console): a front end's objects that refer to
    each other (a walker through its own bound methods, the reader's scopes through their defs)
    would stay in memory to the end with the syntax tree they hold. One-process runs of the
    10,000-file benchmark project took 790 MB with the Python front end's cycles, 360 without."""
    import gc

    parsing.parse_file(path, kind, text)  # first: what importing the front end leaves is not its doing
    collecting = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        facts = parsing.parse_file(path, kind, text)
        assert gc.collect() == 0
    finally:
        if collecting:
            gc.enable()
    assert not facts.errors and facts.crash is None
    assert (facts.python.parsers if kind == "python" else facts.shell.commands)
