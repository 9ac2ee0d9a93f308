"""Property tests per front end: whatever the input, no exception escapes, no internal error
(LL003), every position is inside its file, and the JSON report is valid JSON (issue 9).

Inputs are assembled from grammar fragments (shell, Python, YAML) or are raw bytes. CI runs a
short profile; `LAUNCHLINT_FUZZ_EXAMPLES=100000 pytest tests/test_fuzz.py` runs the long one.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from launchlint.engine import Options, run
from launchlint.model import LineIndex, Location
from launchlint.report import Paths, to_json

EXAMPLES = int(os.environ.get("LAUNCHLINT_FUZZ_EXAMPLES", "50"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # one example is a whole run of the engine, bash -n included
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
# A launcher's neighbours, so that invocations resolve and cross-file rules have work to do.
NEIGHBOURS = {
    "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr', type=float)\np.parse_args()\n",
    "job.sh": "#!/bin/bash\nexec > job.log 2>&1\npython train.py --lr 0.1\n",
}


# --- the check ---------------------------------------------------------------------------------


def check_project(files: dict[str, bytes]) -> None:
    """Write the files into a fresh project, run the engine, check every invariant."""
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / ".launchlint.yaml").write_text("")
        for name, data in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        previous = os.getcwd()
        os.chdir(root)  # report paths relative to the project, as the CLI prints them
        try:
            result = run(["."], Options(budget=10.0))
            report = json.loads(to_json(result.findings, Paths(result.root), result.indexes))
        finally:
            os.chdir(previous)
        assert isinstance(report, list) and len(report) == len(result.findings)
        texts = {name: source.text for name, source in result.project.files.items()}  # as analysed
        for finding in result.findings:
            assert finding.code != "LL003", finding.message
            _inside(finding.location, texts, end=True)
            for related in finding.related:
                _inside(related.location, texts)


def _inside(location: Location, texts: dict[str, str | None], end: bool = False) -> None:
    """The start at most one past its line's last character; the end (exclusive) at most one
    further: a one-character caret on the end of a line (`missing fi`, a bad dedent)."""
    index = LineIndex(texts.get(location.path) or "")  # not analysed (binary, not UTF-8): 1:1
    positions = [(location.line, location.column, 1)]
    if end:
        positions.append((location.end_line, location.end_column, 2))
        assert (location.line, location.column) <= (location.end_line, location.end_column), location
    for line, column, past in positions:
        assert 1 <= line <= len(index.starts), (location, len(index.starts))
        width = len(index.text[index.starts[line - 1] :].partition("\n")[0])
        assert 1 <= column <= width + past, (location, width)


# --- shell -------------------------------------------------------------------------------------

WORDS = st.sampled_from([
    "python", "python3", "train.py", "-u", "-m", "pkg.train", "torchrun", "--nproc_per_node", "8", "deepspeed",
    "accelerate", "launch", "srun", "bash", "job.sh", "tee", "-a", "a.log", "$LOG", "${LOG_DIR:-/tmp}/x.log",
    '"$@"', "'single quoted'", '"double $X"', "$(date)", "`hostname`", "$((1 + 2))", "~/x", "*.log", "{a,b}",
    "x=1", "LOG=run.log", "é", "日本", '\\"', "''", '""', "\\\n", "--lr=0.1", "--config", "cfg.yaml", "grep",
    "-v", "warn", "head", "cd", "/w", "wait", "disown", "nohup", "setsid", "exec", "set", "-euo", "pipefail",
    "+o", "${PIPESTATUS[0]}", "$!", "$?", "${arr[@]}", "$'\\t'", "\t", "#", "&&", ";", "|", "(", ")", "{", "}",
])  # fmt: skip
REDIRECTS = st.sampled_from([
    "> a.log", "2>&1", ">> b.log", "&> c.log", "2> /dev/null", "< in.txt", ">&2", "1>&2", "&>> d.log",
    ">| e.log", "2>>err.log", "> >(tee f.log)", "<<< word", "3>&1", ">&-",
])  # fmt: skip


def _quoted(inner: str, style: int) -> str:
    if style == 0:
        return shlex.quote(inner)
    if style == 1:
        return '"' + inner.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'
    if style == 2:
        return '"' + inner + '"'  # unescaped: may break, as hand-written nesting does
    return "'" + inner  # unbalanced


@st.composite
def simple_command(draw) -> str:
    words = draw(st.lists(WORDS, min_size=1, max_size=6))
    redirects = draw(st.lists(REDIRECTS, max_size=3))
    return " ".join(words + redirects)


def _wrap(inner: str, wrapper: int, style: int) -> str:
    quoted = _quoted(inner, style)
    return [
        f"bash -c {quoted}", f"sh -c {quoted}", f"ssh gpu1 {quoted}", f"tmux new-session -d -s s {quoted}",
        f"nohup {inner} &", f"setsid {inner} > s.log 2>&1 &", f"sbatch --wrap={quoted}",
        f"docker exec c bash -c {quoted}", f"eval {quoted}", f"timeout 10 {inner}", f"env X=1 {inner}",
        f"sudo -u me {inner}", f"exec {inner}", f"srun --ntasks=8 {inner}", f"pct exec 101 -- bash -c {quoted}",
    ][wrapper]  # fmt: skip


def shell_statement(depth: int = 3) -> st.SearchStrategy[str]:
    if depth == 0:
        return simple_command()
    inner = st.deferred(lambda: shell_statement(depth - 1))
    return st.one_of(
        simple_command(),
        st.builds(lambda a, b, op: f"{a} {op} {b}", inner, inner, st.sampled_from(["|", "|&", "&&", "||", ";", "&"])),
        st.builds(_wrap, inner, st.integers(0, 14), st.integers(0, 3)),
        st.builds(lambda a: f"( {a} )", inner),
        st.builds(lambda a: f"{{ {a}; }}", inner),
        st.builds(lambda a, b: f"if {a}; then\n  {b}\nfi", inner, inner),
        st.builds(lambda a: f"for i in 1 2 3; do\n  {a}\ndone", inner),
        st.builds(lambda a: f"while true; do {a}; done", inner),
        st.builds(lambda a: f'case "$x" in\n  a) {a} ;;\n  *) echo ;;\nesac', inner),
        st.builds(lambda a: f"f() {{\n  {a}\n}}\nf", inner),
        st.builds(lambda a, tag: f"cat <<{tag} > gen.sh\n{a}\n{tag.strip(chr(39))}", inner, st.sampled_from(["EOF", "'EOF'"])),
        st.builds(lambda a: f"x=$( {a} )", inner),
        st.builds(lambda a: f'CMD="{a}"\neval "$CMD"', inner),
    )


GARBAGE = st.text(alphabet=st.sampled_from(list("'\"`$(){}[]|&;<>\\#!\n\r\t =*?~é")), max_size=20)


@st.composite
def shell_script(draw) -> bytes:
    lines = []
    lines.append(draw(st.sampled_from(["", "#!/bin/bash", "#!/bin/sh", "#!/usr/bin/env zsh", "#!/bin/bash -e"])))
    lines += draw(st.lists(st.sampled_from(["#SBATCH --output=logs/%j.out", "#SBATCH -N 2", "#SBATCH --gres=gpu:8"]), max_size=2))
    lines += draw(st.lists(st.sampled_from(["set -euo pipefail", "set -e", "set +o pipefail", "# launchlint: disable=LL104"]), max_size=2))
    for statement in draw(st.lists(shell_statement(), min_size=1, max_size=6)):
        lines.append(statement)
        if draw(st.booleans()):
            lines.append(draw(GARBAGE))
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    data = text.encode()
    return b"\xef\xbb\xbf" + data if draw(st.integers(0, 9)) == 0 else data


@FUZZ
@given(shell_script())
def test_shell(script):
    check_project({"run.sh": script, **{k: v.encode() for k, v in NEIGHBOURS.items()}})


# --- Python ------------------------------------------------------------------------------------

PY_IMPORTS = st.lists(st.sampled_from([
    "import torch", "import threading", "from concurrent.futures import ThreadPoolExecutor", "import argparse",
    "import sys", "from torch import compile as tc", "import functools", "import torch._dynamo",
    "from threading import Thread, Lock", "import multiprocessing as mp", "from . import sibling",
    "import contextvars",
]), max_size=6)  # fmt: skip
PY_STATEMENTS = st.sampled_from([
    "model = torch.compile(model)", "step = tc(step, mode='max-autotune')", "@torch.compile\ndef f(x):\n    return x",
    "t = threading.Thread(target=f, args=(1,), daemon=True)", "t.start()", "t.join()",
    "with ThreadPoolExecutor(4) as ex:\n    list(ex.map(f, range(3)))", "parser = argparse.ArgumentParser()",
    "parser.add_argument('--lr', type=float, required=True)", "parser.add_argument('-c', '--config')",
    "sub = parser.add_subparsers(dest='cmd')", "args = parser.parse_args()", "sys.stdout = open('log.txt', 'w')",
    "with torch.no_grad():\n    y = f(x)", "lock = threading.Lock()", "with lock:\n    out = model(x)",
    "class Worker(threading.Thread):\n    def run(self):\n        step(1)", "print('x', flush=True)",
    "if __name__ == '__main__':\n    main()", "torch._dynamo.config.cache_size_limit = 8",
    "g = functools.partial(f, 1)", "h = lambda x: model(x)", "Thread(target=lambda: model(x)).start()",
    "ctx = contextvars.copy_context()\nctx.run(model, x)", "model.compile()", "global model",
    "async def a():\n    await b()", "x: int = 1", "del x", "raise SystemExit(1)", "yield x", "return",
    "f'{x!r:>{width}}'", "match x:\n    case [a, *rest]:\n        pass", "x = (yield)", "try:\n    pass\nfinally:\n    pass",
])  # fmt: skip
PY_HEADERS = st.sampled_from([
    "def main():", "def worker(i):", "class Trainer:", "if rank == 0:", "for i in range(8):", "while True:",
    "with torch.inference_mode():", "try:", "async def serve():", "with lock:", "else:",
])  # fmt: skip


@st.composite
def python_block(draw, depth: int) -> list[str]:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        if depth > 0 and draw(st.integers(0, 2)) == 0:
            header = draw(PY_HEADERS)
            lines.append(header)
            lines += ["    " + line for line in draw(python_block(depth - 1))]
            if header == "try:":
                lines += ["except Exception:", "    pass"]
        else:
            lines += draw(PY_STATEMENTS).split("\n")
    return lines


@st.composite
def python_source(draw) -> bytes:
    lines = draw(st.sampled_from(["", "#!/usr/bin/env python3", "# -*- coding: utf-8 -*-"])).split("\n")
    lines += draw(PY_IMPORTS)
    lines += draw(python_block(draw(st.integers(0, 12))))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(GARBAGE))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\x0c"]))
    text = newline.join(lines) + draw(st.sampled_from(["\n", ""]))
    if draw(st.integers(0, 4)) == 0:
        text = text.replace("    ", "\t")
    return text.encode()


@FUZZ
@given(python_source(), st.sampled_from(["train.py", "pkg/__init__.py", "tools/launch.py"]))
def test_python(source, name):
    files = {name: source, "run.sh": b"python train.py --lr 0.1 | tee a.log\npython tools/launch.py\n"}
    check_project(files)


# --- YAML --------------------------------------------------------------------------------------


@st.composite
def run_block(draw) -> str:
    """A shell piece as a YAML scalar, in one of the styles that map characters differently."""
    body = "\n".join(draw(st.lists(shell_statement(2), min_size=1, max_size=3)))
    style = draw(st.integers(0, 4))
    if style == 0:
        return "|\n" + "".join(f"        {line}\n" for line in body.split("\n"))
    if style == 1:
        return ">-\n" + "".join(f"        {line}\n" for line in body.split("\n"))
    if style == 2:
        return json.dumps(body)  # a double-quoted scalar with escapes
    if style == 3:
        return "'" + body.replace("'", "''").replace("\n", "\n\n        ") + "'"
    return body.split("\n")[0]  # plain


@st.composite
def workflow(draw) -> str:
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        shell = draw(st.sampled_from(["", "        shell: bash\n", "        shell: sh\n", "        shell: pwsh\n"]))
        env = draw(st.sampled_from(["", "        env:\n          PYTHONUNBUFFERED: '1'\n", "        env: *env\n"]))
        steps.append(f"      - name: step\n{shell}{env}        run: {draw(run_block())}")
        if draw(st.booleans()):
            steps.append("      - uses: actions/checkout@v4\n")
    anchor = "x-env: &env\n  A: 1\n"
    head = draw(st.sampled_from(["on: push\n", "on: [push, pull_request]\n", ""]))
    defaults = draw(st.sampled_from(["", "    defaults:\n      run:\n        shell: bash\n"]))
    return f"{anchor}{head}jobs:\n  train:\n    runs-on: ubuntu-latest\n{defaults}    steps:\n" + "".join(
        s if s.endswith("\n") else s + "\n" for s in steps
    )


@st.composite
def compose(draw) -> str:
    command = draw(st.one_of(
        run_block(),
        st.lists(WORDS, min_size=1, max_size=4).map(lambda w: json.dumps(w)),
    ))  # fmt: skip
    environment = draw(st.sampled_from(["", "    environment:\n      - LOG=/x.log\n", "    environment:\n      LOG: a\n"]))
    entrypoint = draw(st.sampled_from(["", '    entrypoint: ["bash", "-c"]\n', "    entrypoint: /bin/sh -c\n"]))
    return f"services:\n  train:\n    image: x\n{environment}{entrypoint}    command: {command}\n"


@st.composite
def kubernetes(draw) -> str:
    command = json.dumps(draw(st.lists(WORDS, min_size=1, max_size=3)))
    args = json.dumps(draw(st.lists(st.one_of(WORDS, shell_statement(1)), max_size=3)))
    return (
        "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n"
        f"        - name: t\n          image: x\n          command: {command}\n          args: {args}\n"
    )


@st.composite
def config(draw) -> str:
    data = draw(st.dictionaries(
        st.sampled_from(["log_dir", "output_dir", "log_file", "stdout", "num_processes", "gpu_ids", "main_process_port",
                         "model", "lr", "<<", "save_dir", "num_machines"]),
        st.one_of(st.text(max_size=10), st.integers(), st.floats(allow_nan=True), st.none(), st.lists(st.integers(), max_size=3)),
        max_size=6,
    ))  # fmt: skip
    return yaml.safe_dump(data, default_flow_style=draw(st.booleans()), allow_unicode=draw(st.booleans()))


YAML_NOISE = st.sampled_from([
    "", "---\n", "...\n", "--- !!map\n", "x-tag: !!python/object/apply:os.system ['true']\n",
    "x-custom: !Ref thing\n", "a: &a [1, *a]\n", "b: *missing\n", "<<: {m: 1}\n", "\t- tab\n", "key: [unclosed\n",
    "%YAML 1.1\n---\n", "? complex\n: key\n", "x: \u2028y\n", "z: \x85\n", "w: 'it''s'\n", "v: \"\\x41\\u00e9\"\n",
])  # fmt: skip


@st.composite
def yaml_document(draw) -> bytes:
    parts = draw(st.lists(st.one_of(workflow(), compose(), kubernetes(), config()), min_size=1, max_size=3))
    text = ""
    for part in parts:
        text += draw(YAML_NOISE) + part + "---\n"
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text.encode()


@FUZZ
@given(yaml_document(), st.sampled_from([".github/workflows/ci.yml", "compose.yaml", "k8s/job.yaml", "configs/a.yaml"]))
def test_yaml(document, name):
    files = {name: document, "run.sh": b"accelerate launch --config_file configs/a.yaml train.py\n"}
    check_project({**files, **{k: v.encode() for k, v in NEIGHBOURS.items()}})


# --- raw bytes ---------------------------------------------------------------------------------

NAMES = ["run.sh", "train.py", "ci.yaml", "Makefile", "RUNBOOK.md", "launch"]


@FUZZ
@given(st.binary(max_size=2048), st.sampled_from(NAMES), st.sampled_from([b"", b"#!/bin/bash\n", b"\xef\xbb\xbf"]))
def test_raw_bytes(data, name, prefix):
    check_project({name: prefix + data, **{k: v.encode() for k, v in NEIGHBOURS.items()}})


@FUZZ
@given(st.text(max_size=400), st.sampled_from(NAMES))
def test_raw_text(text, name):
    """Any Unicode, surrogates aside: separators and control characters included."""
    data = text.encode("utf-8", "replace")
    check_project({name: data, **{k: v.encode() for k, v in NEIGHBOURS.items()}})
