"""The console scripts a project's packages declare (lint/entrypoints.py): pyproject.toml, setup.cfg
and setup.py read statically, whatever they hold; a launch of one by its name judged as its
function's program, and the run cache keyed on what declares them."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from launchlint.entrypoints import MAX_TEXT, Declared, from_pyproject, from_setup_cfg, from_setup_py

from tests.conftest import py, write_project

LAUNCHLINT = shutil.which("launchlint") or "launchlint"


def test_pyproject_scripts_poetry_and_package_directories():
    text = py(
        """
        [project]
        name = "a"

        [project.scripts]
        a-train = "a.train:main"
        a-eval = "a.eval:main [gpu]"
        bad = 3

        [tool.poetry.scripts]
        p-run = "a.run:cli"
        p-new = { callable = "a.new:main" }
        p-ref = { reference = "a.ref:main", type = "console" }
        p-file = { reference = "bin/x", type = "file" }

        [tool.setuptools.packages.find]
        where = ["src"]
        """
    )
    found = from_pyproject(text)
    assert dict(found.scripts) == {
        "a-train": "a.train:main", "a-eval": "a.eval:main [gpu]", "p-run": "a.run:cli", "p-new": "a.new:main", "p-ref": "a.ref:main",
    }  # fmt: skip
    assert found.roots == ("src",)
    assert from_pyproject('[tool.setuptools]\npackage-dir = {"" = "./lib"}\n[project.scripts]\nx = "m:f"\n').roots == ("lib",)
    assert from_pyproject('[tool.setuptools]\npackage-dir = {"" = "/abs"}\n').roots == ("<unknown>",)  # not below it: resolves nothing


@pytest.mark.parametrize(
    "text",
    [
        "[project.scripts]\nx = 'm:f'\n[project\n",  # malformed
        "project = 3\n",  # not a table
        "[project]\nscripts = ['m:f']\n",  # a list, not a table
        "a = " + "[" * 5000 + "]" * 5000 + "\n[project.scripts]\nx = 'm:f'\n",  # nested too deeply for tomllib
        "[project.scripts]\nx = 'm:f'\n" + "#" * (MAX_TEXT + 1),  # too large to read
        "\x00\x01\x02[project.scripts]\n",
        "[tool.setuptools.packages.find]\nwhere = 3\n[tool.poetry]\npackages = 'x'\n",
    ],
)
def test_a_pyproject_that_is_not_readable_declares_nothing(text):
    found = from_pyproject(text)
    assert isinstance(found, Declared) and not found.scripts


def test_setup_cfg_console_scripts():
    text = py(
        """
        [metadata]
        name = b

        [options]
        package_dir =
            =src

        [options.entry_points]
        console_scripts =
            b-run = b.run:cli
            # b-old = b.old:main
            b-eval=b.eval:main
        gui_scripts =
            b-gui = b.gui:main
        """
    )
    found = from_setup_cfg(text)
    assert dict(found.scripts) == {"b-run": "b.run:cli", "b-eval": "b.eval:main"}
    assert found.roots == ("src",)


@pytest.mark.parametrize(
    "text",
    [
        "console_scripts = a = m:f\n",  # no section header
        "[options.entry_points\nconsole_scripts =\n    a = m:f\n",  # an unclosed one
        "[options.entry_points]\nconsole_scripts =\n    a = m:f\n[options.entry_points]\nconsole_scripts = b = m:g\n  %(x)s\n",
        "[options.entry_points]\nconsole_scripts\n" + "x" * (MAX_TEXT + 1),
        "[options.entry_points]\n\x00console_scripts = \x00\n",
    ],
)
def test_a_setup_cfg_that_is_not_readable_gives_no_traceback(text):
    assert isinstance(from_setup_cfg(text), Declared)


def test_setup_py_literal_entry_points():
    text = py(
        """
        from setuptools import find_packages, setup

        SCRIPTS = ["fq-train = fq_cli.train:cli_main", "fq-prep=fq_cli.prep:main"]


        def do_setup():
            setup(
                name="fq",
                packages=find_packages(where="src"),
                entry_points={"console_scripts": SCRIPTS, "fq.plugins": ["x = y:z"]},
            )


        if __name__ == "__main__":
            do_setup()
        """
    )
    found = from_setup_py(text)
    assert dict(found.scripts) == {"fq-train": "fq_cli.train:cli_main", "fq-prep": "fq_cli.prep:main"}
    assert found.roots == ("src",)
    ini = 'import setuptools\nsetuptools.setup(entry_points="""\n[console_scripts]\nc-run = c.run:main\n[other]\nd = e:f\n""")\n'
    assert dict(from_setup_py(ini).scripts) == {"c-run": "c.run:main"}


@pytest.mark.parametrize(
    "text",
    [
        "setup(entry_points={'console_scripts': [",  # a syntax error
        "setup(entry_points={'console_scripts': make_scripts()})\n",  # not a literal
        "S = ['a = m:f']\nS = ['b = m:g']\nsetup(entry_points={'console_scripts': S})\n",  # bound twice: which one is not known
        "setup(entry_points=EP)\nEP = EP\n# console_scripts\n",  # a name bound to itself
        "x = " + "(" * 100_000 + "1" + ")" * 100_000 + "\n# console_scripts\n",  # nested too deeply for ast
        "x = 1 + " * 200_000 + "1\n# console_scripts\n",
        "setup(entry_points={'console_scripts': ['a = m:f']})\n#" + "x" * (MAX_TEXT + 1),  # too large to read
        "\x00console_scripts\x00",
    ],
)
def test_a_setup_py_that_declares_nothing_literal_gives_no_traceback(text):
    found = from_setup_py(text)
    assert isinstance(found, Declared) and not found.scripts


TRAIN = "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument('--lr')\n    p.parse_args()\n"


def test_each_packaging_file_counts_for_the_package_at_its_directory(project):
    files = {
        "packages/a/pyproject.toml": "[project.scripts]\na-train = 'a.train:main'\n",
        "packages/a/src/a/train.py": TRAIN,
        "packages/b/setup.cfg": "[options.entry_points]\nconsole_scripts =\n    b-train = b.train:main\n",
        "packages/b/b/train.py": TRAIN,
        "packages/c/setup.py": "from setuptools import setup\nsetup(entry_points={'console_scripts': ['c-train = c.train:main']})\n",
        "packages/c/c/train.py": TRAIN,
        # declared where its module is not: `d.train` is packages/d's, not the root's d/
        "pyproject.toml": "[project.scripts]\nd-train = 'd.train:main'\n",
        "packages/d/d/train.py": TRAIN,
        "run.sh": "#!/bin/bash\na-train --lr 1 --x\nb-train --x\nc-train --x\nd-train --x\n",
    }
    assert project(files, select=["LL301"]) == ["LL301 run.sh:2", "LL301 run.sh:3", "LL301 run.sh:4"]


def test_a_project_whose_packaging_files_are_broken_is_linted_all_the_same(tmp_path):
    """Binary, huge and malformed pyproject.toml, setup.cfg and setup.py: no traceback, no
    internal error; the launches are read as any other command's."""
    write_project(tmp_path, {"run.sh": "#!/bin/bash\nx-train --lr 1 | tee log\n", "pkg/setup.py": "x = " + "[" * 100_000 + "\n"})
    (tmp_path / "pyproject.toml").write_bytes(b"[project.scripts]\nx-train = 'x:main'\n\x00\xff\xfe")
    (tmp_path / "setup.cfg").write_bytes(b"\xff\xfe[options.entry_points]\nconsole_scripts =\n  x-train = x:main\n" * 3)
    (tmp_path / "setup.py").write_text("setup(entry_points={'console_scripts': ['x-train = x:main']})\n#" + "x" * (MAX_TEXT + 10))
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project.scripts\n")
    result = subprocess.run([LAUNCHLINT, "--no-cache", "--format", "json", "."], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr and result.returncode in (0, 1), result.stderr
    assert {f["code"] for f in json.loads(result.stdout)} <= {"LL001"}


def test_the_run_cache_keys_on_the_packaging_files(tmp_path):
    """A run reused from the cache (or a replayed record) is not reused once a pyproject.toml
    declares the script otherwise, or a new one declares it."""
    write_project(tmp_path, {"run.sh": "#!/bin/bash\nfq-train --lr 1 --x\n", "fq/train.py": TRAIN, "fq/other.py": TRAIN.replace("p.parse_args()", "p.add_argument('--x')\n    p.parse_args()")})

    def findings() -> list[str]:
        result = subprocess.run([LAUNCHLINT, "--format", "json", "--select", "LL301", "."], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        return [f"{f['code']} {f['path']}:{f['line']}" for f in json.loads(result.stdout)]

    assert findings() == []
    (tmp_path / "pyproject.toml").write_text("[project.scripts]\nfq-train = 'fq.train:main'\n")
    assert findings() == ["LL301 run.sh:2"]
    assert findings() == ["LL301 run.sh:2"]  # from the cache
    (tmp_path / "pyproject.toml").write_text("[project.scripts]\nfq-train = 'fq.other:main'\n")
    assert findings() == []

