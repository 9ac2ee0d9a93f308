"""Hostile inputs: launchlint finishes, reports, and leaves everything as it was (issue 9)."""

from __future__ import annotations

import launchlint.rules.ll105_pipeline_masks_failure as ll105
from launchlint.engine import Options, build_project, run

from tests.conftest import write_project

# --- a big file cannot stall the rules ----------------------------------------------------------


def test_ll105_decides_its_fix_once_per_script(tmp_path, monkeypatch):
    """Deciding the pipefail fix reads the whole script: once per pipeline made a 10 MB script
    quadratic (minutes at 8,000 lines)."""
    calls = []
    original = ll105._turns_pipefail_off
    monkeypatch.setattr(ll105, "_turns_pipefail_off", lambda script: calls.append(1) or original(script))
    write_project(tmp_path, {"run.sh": "#!/bin/bash\n" + "python t.py | tee a.log\n" * 40})
    result = run([str(tmp_path)], Options(select=frozenset({"LL105"})))
    assert [f.location.line for f in result.findings] == list(range(2, 42))
    assert all(f.fix is not None for f in result.findings)
    assert len(calls) == 1


def test_the_launch_graph_indexes_commands_once(tmp_path):
    """`invocation()` is asked once per command; building its table each time was quadratic."""
    write_project(tmp_path, {"run.sh": "bash job.sh\n" * 30, "job.sh": "echo\n"})
    project = build_project([str(tmp_path)], Options())[0]
    graph = project.graph
    passes = []

    class Counted(list):
        def __iter__(self):
            passes.append(1)
            return super().__iter__()

    graph.invocations = Counted(graph.invocations)
    commands = project.shell["run.sh"].commands
    assert [graph.invocation(c).callee for c in commands] == ["job.sh"] * 30
    assert len(passes) == 1
