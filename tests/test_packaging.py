"""The wheel installs `launchlint` and `launchlint.rules`, never a top-level `lint` or `rules`."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from launchlint import __version__

REPO = Path(__file__).resolve().parent.parent


def test_wheel_has_only_the_launchlint_package(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(REPO)],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("launchlint-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"launchlint", f"launchlint-{__version__}.dist-info"}
    assert "launchlint/rules/ll102_exec_redirect_starves_pipe.py" in names
    assert "launchlint/front/shell.py" in names


def test_every_module_compiles_without_a_warning():
    # An invalid escape in a docstring (`\ #` in LL001's) is a DeprecationWarning today and a
    # SyntaxError in a later Python; users of `python -W error` would see it on import.
    import warnings

    sources = sorted((REPO / "lint").rglob("*.py")) + sorted((REPO / "rules").rglob("*.py"))
    assert len(sources) > 40
    for path in sources:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
