"""Benchmark launchlint against its parse-only floor, ShellCheck and TorchFix.

    python bench/run.py [--sizes 100,1000,10000] [--runs 5] [--corpus DIR] [--out DIR]

For each generated project (bench/generate.py) or real tree (`--corpus`), prints the median wall
time of each command, each run as a subprocess and all of them in rounds (one run of each command
a round), and the ratios issue 8 targets. The files are
copied into three trees, each a project root of its own: all of them, only the shell files, only
the Python files; launchlint lints the whole project from its root, so a per-language ratio needs
a tree that holds nothing else. Copies also keep the cache out of the tree being measured. A
root `.gitignore` goes into each copy: launchlint reads it on every run, as in the user's tree.

Every tool gets the same number of processes (`--jobs`, default: the CPUs): launchlint's
`--jobs`, TorchFix's `-j`, and ShellCheck, single-threaded, on batches of files run side by
side, as pre-commit runs a hook. A tool that is not installed is reported, not fatal.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # run as a script: import the generator beside it

import generate  # noqa: E402  (needs the sys.path entry above)

SHELLCHECK_BATCH = 200  # files per shellcheck process: well under any argv limit
ROOT_MARKER = "# launchlint benchmark tree: this directory is the project root\n"
TARGETS = {"shell": 5.0, "python": 50.0, "floor": 2.0, "warm": 0.2, "growth": 11.0}


Timer = Callable[[], float]  # times one run of a command, in seconds


class Failed(Exception):
    """A measured command exited with a status that means it did not do its work."""


@dataclass
class Trees:
    """The three copies of one project, and what each kind of file is."""

    label: str
    all: Path
    shell: Path
    python: Path
    files: dict[str, list[Path]]  # kind -> files of the `all` tree


@dataclass
class Row:
    """The medians for one project: seconds, or a string saying why there is none."""

    trees: Trees
    times: dict[str, float | str] = field(default_factory=dict)


# --- preparing the trees ---------------------------------------------------------------------


def _discover(source: Path) -> dict[str, tuple[Path, str]]:
    """The files launchlint would read under `source`, with their kinds (its own discovery)."""
    from launchlint.discover import discover

    return discover([str(source)], root=source.resolve()).files


def _copy(
    files: dict[str, tuple[Path, str]], dest: Path, kinds: set[str], gitignore: Path | None = None
) -> list[tuple[str, Path]]:
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    (dest / ".launchlint.yaml").write_text(ROOT_MARKER)
    if gitignore is not None:  # launchlint reads the root's .gitignore on every run, as a user's does
        shutil.copyfile(gitignore, dest / ".gitignore")
    copied = []
    for rel, (path, kind) in sorted(files.items()):
        # The root's own .launchlint.yaml is configuration, not a source file: the copy has its own.
        if kind in kinds and not rel.startswith("/") and rel != ".launchlint.yaml":
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            copied.append((kind, target))
    return copied


def prepare(source: Path, work: Path, label: str) -> Trees:
    files = _discover(source)
    gitignore = source / ".gitignore" if (source / ".gitignore").is_file() else None
    everything = _copy(files, work / "all", {"shell", "python", "yaml"}, gitignore)
    _copy(files, work / "shell", {"shell"}, gitignore)
    _copy(files, work / "python", {"python"}, gitignore)
    by_kind: dict[str, list[Path]] = {"shell": [], "python": [], "yaml": []}
    for kind, path in everything:
        by_kind[kind].append(path)
    return Trees(label, work / "all", work / "shell", work / "python", by_kind)


# --- timing ----------------------------------------------------------------------------------


# Every tool runs as its users run it: from compiled bytecode, which pip writes at install time. A
# machine-wide PYTHONDONTWRITEBYTECODE (set on this one) would make an editable launchlint compile
# its modules on every run while TorchFix, installed from a wheel, does not.
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(commands: list[list[str]], cwd: Path, ok: tuple[int, ...], jobs: int) -> float:
    """Seconds to run `commands`, at most `jobs` at a time; raises Failed on a bad exit."""

    def one(command: list[str]) -> None:
        done = subprocess.run(
            command,
            check=False,
            cwd=cwd,
            env=ENVIRONMENT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        if done.returncode not in ok:
            tail = done.stderr.decode(errors="replace")[-500:]
            raise Failed(f"{' '.join(command[:3])} ... exited {done.returncode}: {tail}")

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:  # threads only wait on the processes
        for future in [pool.submit(one, command) for command in commands]:
            future.result()
    return time.perf_counter() - start


def tool(name: str) -> str | None:
    """The tool beside this interpreter (where pip puts the bench extra), else on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def launchlint_command() -> list[str]:
    """launchlint as its users run it, the way TorchFix is run: the command pip installed beside
    this interpreter, else `python -m launchlint` (a launchlint on PATH may be another install).
    bench/RESULTS.md says what the two cost."""
    beside = Path(sys.executable).parent / "launchlint"
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "launchlint"]


def launchlint_features() -> set[str]:
    """Which of --no-cache / --jobs this launchlint has (the benchmark predates neither)."""
    help_text = subprocess.run(
        [*launchlint_command(), "--help"], check=False, capture_output=True, text=True
    ).stdout
    return {flag for flag in ("--no-cache", "--jobs") if flag in help_text}


@dataclass
class Bench:
    runs: int
    peer_runs: int
    jobs: int
    skip_peers_above: int | None
    features: set[str]

    def launchlint(self, tree: Path, *, cache: bool = False) -> list[str]:
        command = [*launchlint_command(), "--quiet"]
        if "--jobs" in self.features:
            command += ["--jobs", str(self.jobs)]
        if not cache and "--no-cache" in self.features:
            command.append("--no-cache")
        return command + ["."]

    def _timer(self, commands: list[list[str]], cwd: Path, ok: tuple[int, ...], jobs: int = 1) -> Timer:
        """One timed run of `commands`, after an untimed one (it writes bytecode the first time and
        warms the disk)."""
        _wall(commands, cwd, ok, jobs)
        return lambda: _wall(commands, cwd, ok, jobs)

    def cold(self, tree: Path) -> Timer:
        return self._timer([self.launchlint(tree)], tree, (0, 1))

    def warm(self, tree: Path) -> Timer | str:
        if "--no-cache" not in self.features:
            return "no cache yet"
        shutil.rmtree(tree / ".launchlint_cache", ignore_errors=True)
        return self._timer([self.launchlint(tree, cache=True)], tree, (0, 1))  # the untimed run fills it

    def floor(self, trees: Trees) -> Timer:
        listing = trees.all.parent / "floor.list"
        listing.write_text(
            "".join(f"{kind}\t{path}\n" for kind, paths in trees.files.items() for path in paths)
        )
        return self._timer([[sys.executable, str(HERE / "parse_floor.py"), str(listing)]], trees.all, (0,))

    def shellcheck(self, trees: Trees) -> Timer | str:
        binary, files = (
            tool("shellcheck"),
            [str(p.relative_to(trees.all)) for p in trees.files["shell"]],
        )
        if binary is None:
            return "not installed"
        if not files:
            return "no files"
        batches = [
            [binary, "-f", "json", *files[i : i + SHELLCHECK_BATCH]]
            for i in range(0, len(files), SHELLCHECK_BATCH)
        ]
        # Exit 1 means findings; 2 means some file could not be checked (e.g. zsh), still timed.
        return lambda: _wall(batches, trees.all, (0, 1, 2), self.jobs)

    def torchfix(self, trees: Trees) -> Timer | str:
        binary = tool("torchfix")
        if binary is None:
            return "not installed"
        if not trees.files["python"]:
            return "no files"
        command = [binary, "-j", str(self.jobs), "."]
        return lambda: _wall([command], trees.python, (0, 1), 1)

    def measure(self, trees: Trees) -> Row:
        """Each command's median, timed in rounds: a round runs every command once (a peer only
        in its first `peer_runs` rounds), so a change of the machine's speed over the minutes a
        project takes touches all of them alike, and each ratio compares runs made side by side."""
        row, n = Row(trees), sum(len(v) for v in trees.files.values())
        steps = [
            ("cold", lambda: self.cold(trees.all)),
            ("warm", lambda: self.warm(trees.all)),
            ("floor", lambda: self.floor(trees)),
            ("ll_shell", lambda: self.cold(trees.shell)),
            ("shellcheck", lambda: self.shellcheck(trees)),
            ("ll_python", lambda: self.cold(trees.python)),
            ("torchfix", lambda: self.torchfix(trees)),
        ]
        timers: dict[str, tuple[Timer, int]] = {}
        for key, step in steps:
            peer = key in ("shellcheck", "torchfix")
            if peer and self.skip_peers_above is not None and n > self.skip_peers_above:
                row.times[key] = f"skipped (> {self.skip_peers_above:,} files)"
                continue
            if peer and self.peer_runs == 0:
                row.times[key] = "not run (--peer-runs 0)"
                continue
            timer = step()
            if isinstance(timer, str):
                row.times[key] = timer
            else:
                timers[key] = (timer, self.peer_runs if peer else self.runs)
        samples: dict[str, list[float]] = {key: [] for key in timers}
        for done in range(max((runs for _, runs in timers.values()), default=0)):
            print(f"[{trees.label}] round {done + 1} ...", file=sys.stderr, flush=True)
            for key, (timer, runs) in timers.items():
                if done < runs:
                    samples[key].append(timer())
        row.times.update((key, statistics.median(values)) for key, values in samples.items())
        return row


# --- the table -------------------------------------------------------------------------------


def _seconds(value: float | str | None) -> str:
    if value is None:
        return "-"
    return value if isinstance(value, str) else f"{value:.2f} s"


def _ratio(top, bottom, target: float, at_least: bool) -> str:
    if not isinstance(top, float) or not isinstance(bottom, float) or bottom <= 0:
        return "-"
    value = top / bottom
    met = value >= target if at_least else value <= target
    return f"{value:.2f}x {'✓' if met else '✗'}"


def times_table(rows: list[Row]) -> str:
    head = (
        "| project | files (sh/py/yaml) | launchlint cold | launchlint warm | parse floor "
        "| launchlint, shell only | ShellCheck | launchlint, Python only | TorchFix |"
    )
    lines = [head, "|" + "---|" * 9]
    for row in rows:
        f, t = row.trees.files, row.times
        counts = f"{len(f['shell'])}/{len(f['python'])}/{len(f['yaml'])}"
        cells = [row.trees.label, counts] + [
            _seconds(t.get(k))
            for k in ("cold", "warm", "floor", "ll_shell", "shellcheck", "ll_python", "torchfix")
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ratios_table(rows: list[Row]) -> str:
    head = (
        "| project | ShellCheck / launchlint (>= 5x) | TorchFix / launchlint (>= 50x) "
        "| cold / parse floor (<= 2x) | warm / cold (<= 0.2x) | cold vs the size 10x smaller (<= 11x) |"
    )
    lines = [head, "|" + "---|" * 6]
    by_size = {len_files(r): r for r in rows}
    for row in rows:
        t = row.times
        smaller = by_size.get(len_files(row) // 10)
        cells = [
            row.trees.label,
            _ratio(t.get("shellcheck"), t.get("ll_shell"), TARGETS["shell"], True),
            _ratio(t.get("torchfix"), t.get("ll_python"), TARGETS["python"], True),
            _ratio(t.get("cold"), t.get("floor"), TARGETS["floor"], False),
            _ratio(t.get("warm"), t.get("cold"), TARGETS["warm"], False),
            _ratio(
                t.get("cold"),
                smaller.times.get("cold") if smaller else None,
                TARGETS["growth"],
                False,
            ),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def len_files(row: Row) -> int:
    return sum(len(v) for v in row.trees.files.values())


# A fixed amount of pure-Python work: what a front end does, without its files.
CPU_LOOP = "total = 0\nfor i in range(3_000_000):\n    total += i % 7\n"


def parallel_capacity(jobs: int, runs: int = 3) -> float:
    """How many times one process's work `jobs` processes do in the same time on this machine: up
    to `jobs` on idle cores, less where the CPUs share a physical core or a busy host. Every
    `--jobs` figure is bounded by it."""
    loop = [sys.executable, "-c", CPU_LOOP]
    alone, together = [], []
    for _ in range(runs):  # side by side, as the tools are timed
        alone.append(_wall([loop], HERE, (0,), 1))
        together.append(_wall([loop] * jobs, HERE, (0,), jobs))
    return jobs * statistics.median(alone) / statistics.median(together)


def _pip() -> str:
    """The pip of this interpreter, which wrote the tools' wrappers (an old one's wrapper imports
    `re` and compiles a pattern at every start: the README's performance section)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"pip {version('pip')}"
    except PackageNotFoundError:
        return "no pip"


def header(bench: Bench) -> str:
    version = subprocess.run(
        [*launchlint_command(), "--version"],
        check=False,
        capture_output=True,
        text=True,
    ).stdout
    cold = (
        "`--no-cache`"
        if "--no-cache" in bench.features
        else "plain runs (this launchlint has no cache)"
    )
    return (
        f"{version.strip()}, Python {sys.version.split()[0]}, {_pip()}, {os.cpu_count()} CPUs, {bench.jobs} processes "
        f"per tool ({bench.jobs} processes of a pure-Python loop run {parallel_capacity(bench.jobs):.2f} times "
        f"as fast as one); median wall time of {bench.runs} runs ({bench.peer_runs} for ShellCheck and TorchFix); "
        f"cold = {cold}, warm = with the cache filled by a previous run."
    )


# --- main ------------------------------------------------------------------------------------


def _projects(args, work: Path):
    """(label, source directory, work directory) for each project to measure."""
    if args.corpus:
        for corpus in args.corpus:
            yield corpus.name, corpus, work / corpus.name
        return
    for size in args.sizes:
        source = work / f"generated-{size}" / "source"
        print(f"generating {size} files ...", file=sys.stderr, flush=True)
        generate.generate(source, size, args.seed)
        yield f"generated, {size:,} files", source, work / f"generated-{size}"


def _at_least(lowest: int):
    def count(text: str) -> int:
        value = int(text)
        if value < lowest:
            raise argparse.ArgumentTypeError(f"must be {lowest} or more, not {value}")
        return value

    return count


def parse_args(argv: list[str] | None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="100,1000,10000", type=lambda s: [int(x) for x in s.split(",") if x]
    )
    parser.add_argument(
        "--runs", type=_at_least(1), default=5, help="runs per launchlint and floor median"
    )
    parser.add_argument(
        "--peer-runs",
        type=_at_least(0),
        default=3,
        help="runs per ShellCheck and TorchFix median (0: do not run them)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes per tool")
    parser.add_argument(
        "--corpus", type=Path, action="append", help="measure this real tree instead"
    )
    parser.add_argument(
        "--out", type=Path, help="keep generated projects and copies here (default: a temp dir)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--skip-peers-above",
        type=int,
        default=1000,
        help="skip ShellCheck and TorchFix on projects of more files (TorchFix takes minutes per 1,000)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    bench = Bench(
        args.runs, args.peer_runs, args.jobs, args.skip_peers_above, launchlint_features()
    )
    with tempfile.TemporaryDirectory(prefix="launchlint-bench-") as scratch:
        work = (args.out or Path(scratch)).resolve()
        rows = []
        try:
            for label, source, directory in _projects(args, work):
                rows.append(bench.measure(prepare(source.resolve(), directory, label)))
        except Failed as error:
            print(f"bench: {error}", file=sys.stderr)
            return 1
    print(header(bench), end="\n\n")
    print(times_table(rows), end="\n\n")
    print(ratios_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
