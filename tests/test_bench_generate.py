"""bench/generate.py: the benchmark's projects are the same bytes on every run, in the stated mix."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import yaml

GENERATOR = Path(__file__).resolve().parent.parent / "bench" / "generate.py"
KINDS = {".sh": "shell", ".sbatch": "shell", ".py": "python", ".yml": "yaml", ".yaml": "yaml"}


def _generator():
    spec = importlib.util.spec_from_file_location("bench_generate", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_two_generations_are_byte_identical(tmp_path):
    generate = _generator().generate
    generate(tmp_path / "a", 100, seed=7)
    generate(tmp_path / "b", 100, seed=7)
    assert _snapshot(tmp_path / "a") == _snapshot(tmp_path / "b")


def test_another_seed_gives_other_bytes(tmp_path):
    generate = _generator().generate
    generate(tmp_path / "a", 100, seed=0)
    generate(tmp_path / "b", 100, seed=1)
    assert _snapshot(tmp_path / "a") != _snapshot(tmp_path / "b")


def test_the_mix_is_45_45_10_in_subdirectories_under_a_root_marker(tmp_path):
    counts = _generator().generate(tmp_path, 100)
    files = _snapshot(tmp_path)
    assert files.pop(".launchlint.yaml").startswith(b"#")
    kinds = [KINDS[Path(name).suffix] for name in files]
    assert (kinds.count("shell"), kinds.count("python"), kinds.count("yaml")) == (45, 45, 10)
    assert dict(counts) == {"shell": 45, "python": 45, "yaml": 10}
    assert all("/" in name for name in files)
    assert any(name.startswith(".github/workflows/") for name in files)


def test_the_files_parse(tmp_path):
    """Broken templates would measure error paths, not the analysis."""
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    bash = Parser(Language(tree_sitter_bash.language()))
    _generator().generate(tmp_path, 100)
    for name, data in _snapshot(tmp_path).items():
        kind = KINDS[Path(name).suffix]
        if kind == "python":
            ast.parse(data)
        elif kind == "yaml":
            list(yaml.compose_all(data.decode(), Loader=yaml.SafeLoader))
        else:
            assert not bash.parse(data).root_node.has_error, name


def test_the_launchers_use_the_shapes_the_benchmark_promises(tmp_path):
    _generator().generate(tmp_path, 100)
    text = b"\n".join(_snapshot(tmp_path).values())
    for shape in (
        b"set -euo pipefail",
        b"MODEL_ARGS=(",
        b" \\\n",
        b"tmux new-session -d",
        b"ssh ",
        b'| tee "$LOG_DIR/',
        b"exec > ",
        b"threading.Thread",
        b"ThreadPoolExecutor",
        b"torch.compile",
        b"argparse.ArgumentParser",
        b"run: |",
    ):
        assert shape in text, shape
