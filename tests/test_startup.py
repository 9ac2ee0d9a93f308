"""What every run pays before it reads a file: the records the facts are made of, the rule
modules' examples, and the modules a run imports."""

from __future__ import annotations

import pickle
import re
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from launchlint import discover
from launchlint.model import Location, Record
from launchlint.rulekit import all_rules, dedented

from tests.conftest import imports_of_a_run


class Point(Record):
    """A point."""

    x: int
    y: int = 0
    label: str = ""

    def moved(self, dx: int) -> Point:
        return self._replace(x=self.x + dx)


def test_a_record_is_the_named_tuple_its_class_body_describes():
    point = Point(1, label="a")
    assert point == (1, 0, "a") and point.y == 0 and Point._fields == ("x", "y", "label")
    assert point.moved(2) == Point(3, 0, "a") and Point._make((4, 5, "b")).label == "b"
    assert Point.__doc__ == "A point." and Point.__qualname__ == "Point" and Point.__module__ == __name__
    assert Point.__annotations__ == {"x": "int", "y": "int", "label": "str"}  # never evaluated
    assert pickle.loads(pickle.dumps(point)) == point and type(pickle.loads(pickle.dumps(point))) is Point
    assert pickle.dumps(point).count(b"__new__") == 1  # remade by tuple.__new__, in C
    location = Location("a.sh", 1, 2, 3, 4)
    assert pickle.loads(pickle.dumps(location)) == location and location.point() == ("a.sh", 1, 2, 1, 3)


def test_a_record_refuses_what_typing_named_tuple_refuses():
    with pytest.raises(TypeError, match="without a default follows"):

        class Bad(Record):
            x: int = 0
            y: int

    with pytest.raises(AttributeError, match="_replace"):

        class Overrides(Record):
            x: int

            def _replace(self, **changes):
                return self


_LINE = st.text(alphabet=" \t\rab#", max_size=12)


@given(st.lists(_LINE, max_size=8), st.sampled_from(["", "    ", "\t", "  \t"]))
def test_examples_are_dedented_as_textwrap_would(lines, margin):
    text = "\n".join(margin + line if line else line for line in lines)
    assert dedented(text) == textwrap.dedent(text).lstrip("\n")


def test_every_rule_example_is_written_at_column_one():
    for rule in all_rules():
        for example in (*rule.valid, *rule.invalid):
            for name, text in example.files.items():
                lines = [line for line in text.splitlines() if line.strip()]
                assert not lines or min(len(x) - len(x.lstrip()) for x in lines) == 0, (rule.code, name)


def test_a_lazy_pattern_is_compiled_when_first_used_and_answers_as_the_compiled_one():
    from launchlint.lazyre import lazy

    pattern = lazy(r"(\w+)=(\d+)", re.ASCII)
    assert "match" not in vars(pattern)
    assert pattern.pattern == r"(\w+)=(\d+)" and pattern.flags & re.ASCII and "match" in vars(pattern)
    assert [m.groups() for m in pattern.finditer("a=1 b=2")] == [("a", "1"), ("b", "2")]
    assert pattern.sub(r"\2", "a=1") == "1" and pattern.fullmatch("a=") is None and pattern.groups == 2
    with pytest.raises(AttributeError):
        pattern._hidden  # noqa: B018  no pattern has it: not compiled for it


def test_a_python_only_run_imports_no_module_it_does_not_need(tmp_path):
    """typing (3 ms, and 0.14 ms for each named tuple it made), textwrap (1 ms) and threading
    (1 ms) were imported by every run, and the `ast` module (its node classes are `_ast`'s) by
    every run with Python files, and `signal` (its enums; the budget needs `_signal` alone); now
    by none. Checked in a fresh interpreter."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "train.py").write_text(
        "import threading\nimport torch\nstep = torch.compile(lambda x: x)\n"
        "def work():\n    step(1)\nthreading.Thread(target=work).start()\n"
    )
    printed, imported = imports_of_a_run(["--no-cache", "train.py"], ("typing", "textwrap", "threading", "ast", "signal"), cwd=tmp_path)
    assert "LL202" in printed and imported == []


def test_rules_imported_while_workers_parse_are_not_asked_for_by_a_blank_yaml_file():
    """`engine._import_rules` imports the rules of the kinds of facts the files will give; a
    commented `.launchlint.yaml` (a root marker) gives none, so a Python project asks for no shell
    rule (they were 42 M instructions of the 100-file Python-only benchmark run's parent)."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom launchlint.engine import _import_rules\n"
        "_import_rules([('t.py', 'python', 'x = 1\\n'), ('.launchlint.yaml', 'yaml', '# root\\n')])()\n"
        "print(sorted(m.rsplit('.', 1)[1][:5] for m in sys.modules if m.startswith('launchlint.rules.')))\n"
        "_import_rules([('ci.yaml', 'yaml', 'jobs: {}\\n')])()\n"
        "print('launchlint.rules.ll101_log_path_drift' in sys.modules)\n"
    )
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert printed.split("\n")[:2] == ["['ll001', 'll002', 'll003', 'll201', 'll202', 'll203', 'll204', 'll205']", "True"]


def test_a_shell_run_starts_bash_only_for_a_file_with_a_syntax_error(tmp_path):
    """`subprocess` (18.6 M instructions to import) is for `bash -n`, which confirms LL001 where
    tree-sitter finds an error: a run whose scripts parse never imports it."""
    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "job.sh").write_text("python train.py | tee log.txt\n")
    printed, imported = imports_of_a_run(["--no-cache", "job.sh"], ("subprocess",), cwd=tmp_path)
    assert "LL105" in printed and imported == []
    (tmp_path / "broken.sh").write_text("if true; then\n  echo\n")
    printed, imported = imports_of_a_run(["--no-cache", "broken.sh"], ("subprocess",), cwd=tmp_path)
    assert "LL001" in printed and imported == ["subprocess"]


def test_every_discovered_file_is_a_path_string_walked_named_or_standard_input(tmp_path, monkeypatch):
    (tmp_path / ".launchlint.yaml").write_text("")
    (tmp_path / "run.sh").write_text("python t.py\n")
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "train.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    found = discover.discover(["run.sh", "."])
    found.add_stdin("jobs/new.sh", "echo\n")
    assert {rel: kind for rel, (_, kind) in found.files.items()} == {
        ".launchlint.yaml": "yaml", "run.sh": "shell", "jobs/train.py": "python", "jobs/new.sh": "shell"
    }
    assert all(type(path) is str for path, _ in found.files.values())
