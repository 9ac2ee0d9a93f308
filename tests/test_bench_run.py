"""bench/run.py: every command is timed in rounds, side by side, and each median is of its own runs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

RUNNER = Path(__file__).resolve().parent.parent / "bench" / "run.py"


def _runner():
    spec = importlib.util.spec_from_file_location("bench_run", RUNNER)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_commands_are_timed_in_rounds_and_peers_in_their_first_rounds(monkeypatch, tmp_path):
    run = _runner()
    bench = run.Bench(runs=3, peer_runs=2, jobs=1, skip_peers_above=None, features=set())
    order: list[str] = []
    seconds = iter(range(1, 100))

    def timer(name: str):
        return lambda: order.append(name) or float(next(seconds))

    trees = run.Trees("p", tmp_path / "all", tmp_path / "shell", tmp_path / "python", {"shell": [], "python": []})
    monkeypatch.setattr(bench, "cold", lambda tree: timer(f"launchlint {tree.name}"))
    monkeypatch.setattr(bench, "warm", lambda tree: timer("warm"))
    monkeypatch.setattr(bench, "floor", lambda trees: timer("floor"))
    monkeypatch.setattr(bench, "shellcheck", lambda trees: timer("shellcheck"))
    monkeypatch.setattr(bench, "torchfix", lambda trees: "not installed")
    row = bench.measure(trees)
    one_round = ["launchlint all", "warm", "floor", "launchlint shell", "shellcheck", "launchlint python"]
    assert order == one_round * 2 + [name for name in one_round if name != "shellcheck"]
    # seconds 1..6 in the first round, 7..12 in the second, 13..17 in the third
    assert row.times == {
        "cold": 7.0, "warm": 8.0, "floor": 9.0, "ll_shell": 10.0, "shellcheck": (5.0 + 11.0) / 2,
        "ll_python": 12.0, "torchfix": "not installed",
    }


def test_no_peer_runs_leaves_the_peers_out_and_times_the_rest(monkeypatch, tmp_path):
    run = _runner()
    bench = run.Bench(runs=2, peer_runs=0, jobs=1, skip_peers_above=None, features=set())
    order: list[str] = []
    trees = run.Trees("p", tmp_path / "all", tmp_path / "shell", tmp_path / "python", {"shell": [], "python": []})
    for name in ("cold", "warm", "floor", "shellcheck", "torchfix"):
        monkeypatch.setattr(bench, name, lambda *_, name=name: lambda: order.append(name) or 1.0)
    row = bench.measure(trees)
    assert "shellcheck" not in order and "torchfix" not in order
    assert row.times["shellcheck"] == row.times["torchfix"] == "not run (--peer-runs 0)"
    assert row.times["cold"] == row.times["floor"] == 1.0


def test_counts_of_runs_are_checked(capsys):
    run = _runner()
    assert run.parse_args(["--runs", "1", "--peer-runs", "0"]).peer_runs == 0
    for argv in (["--runs", "0"], ["--peer-runs", "-1"]):
        try:
            run.parse_args(argv)
        except SystemExit as stop:
            assert stop.code == 2
        else:
            raise AssertionError(f"{argv} was accepted")
    assert "must be 0 or more, not -1" in capsys.readouterr().err


def test_launchlint_runs_as_the_command_installed_beside_the_interpreter(monkeypatch, tmp_path):
    """As its users run it, and as TorchFix is run; `python -m launchlint` where there is none."""
    run = _runner()
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    monkeypatch.setattr(sys, "executable", str(python))
    assert run.launchlint_command() == [str(python), "-m", "launchlint"]
    (tmp_path / "bin" / "launchlint").write_text("#!/bin/sh\n")
    assert run.launchlint_command() == [str(tmp_path / "bin" / "launchlint")]
    bench = run.Bench(runs=1, peer_runs=1, jobs=2, skip_peers_above=None, features={"--jobs", "--no-cache"})
    assert bench.launchlint(tmp_path) == [str(tmp_path / "bin" / "launchlint"), "--quiet", "--jobs", "2", "--no-cache", "."]


def test_the_header_names_the_pip_that_wrote_the_wrappers(monkeypatch):
    """An old pip's wrapper imports `re` and compiles a pattern at every start (a replayed run
    17.9 against 12.3 ms): runs are comparable only with the same pip."""
    import importlib.metadata

    run = _runner()
    assert run._pip() == f"pip {importlib.metadata.version('pip')}"

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert run._pip() == "no pip"


def test_the_copies_keep_the_roots_gitignore(tmp_path):
    """launchlint reads the root's .gitignore on every run (matching it is part of a user's run);
    the copies are measured with it."""
    run = _runner()
    source = tmp_path / "repo"
    (source / "scripts").mkdir(parents=True)
    (source / ".git").mkdir()
    (source / ".gitignore").write_text("logs/\n*.log\n")
    (source / "scripts" / "job.sh").write_text("python train.py | tee train.log\n")
    (source / "train.py").write_text("print(1)\n")
    trees = run.prepare(source, tmp_path / "work", "repo")
    for tree in (trees.all, trees.shell, trees.python):
        assert (tree / ".gitignore").read_text() == "logs/\n*.log\n"
    assert (trees.shell / "scripts" / "job.sh").is_file() and not (trees.shell / "train.py").exists()
