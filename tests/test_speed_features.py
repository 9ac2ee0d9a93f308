"""Worker processes and the facts cache give the same answers as a plain in-process run."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
from pathlib import Path

from launchlint.cache import DIRECTORY, Cache
from launchlint.parsing import POOL_MIN_FILES

LAUNCHLINT = shutil.which("launchlint") or "launchlint"


def launchlint(*args: str, cwd: Path, env: dict | None = None):
    return subprocess.run(
        [LAUNCHLINT, "--format", "json", *args], cwd=cwd, capture_output=True, text=True, timeout=300,
        env={**os.environ, **(env or {})},
    )


def many_projects(root: Path, count: int) -> None:
    (root / ".launchlint.yaml").write_text("# root\n")
    for n in range(count):
        (root / f"launch{n}.sh").write_text(f"set -o pipefail\nbash job{n}.sh 2>&1 | tee run{n}.log\n")
        (root / f"job{n}.sh").write_text(f"echo {n}\nexec > other{n}.log 2>&1\npython -u t.py\n")


def test_worker_processes_find_what_one_process_finds(tmp_path):
    many_projects(tmp_path, POOL_MIN_FILES)
    one = launchlint("--jobs", "1", "--no-cache", ".", cwd=tmp_path)
    two = launchlint("--jobs", "2", "--no-cache", ".", cwd=tmp_path)
    assert one.stdout == two.stdout
    assert len(json.loads(one.stdout)) == POOL_MIN_FILES


def test_cache_is_used_kept_out_of_git_and_skipped_with_no_cache(tmp_path):
    many_projects(tmp_path, 2)
    assert launchlint("--no-cache", ".", cwd=tmp_path).returncode == 1
    assert not (tmp_path / DIRECTORY).exists()
    cold = launchlint(".", cwd=tmp_path)
    assert (tmp_path / DIRECTORY / ".gitignore").read_text().splitlines()[-1] == "*"
    entries = [p for p in (tmp_path / DIRECTORY).rglob("*") if p.is_file() and p.name != ".gitignore"]
    assert len(entries) == 5  # four scripts and the .launchlint.yaml
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
    entry = Cache(str(tmp_path))._entry("job0.sh", "shell", text)
    entry.parent.mkdir(parents=True)
    entry.write_bytes(b"\0" * 32 + pickle.dumps(_Marker(str(marker))))
    result = launchlint(".", cwd=tmp_path)
    assert not marker.exists()
    assert [f["code"] for f in json.loads(result.stdout)] == ["LL102"]
