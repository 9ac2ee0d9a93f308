"""cli.md in full, through the real command: config, suppressions, formats, baselines, stdin."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import threading
from pathlib import Path
from urllib.parse import quote, unquote, unquote_to_bytes, urljoin

import jsonschema
import pytest
import yaml
from launchlint import discover

REPO = Path(__file__).resolve().parent.parent
SCHEMA = REPO.parent / "shared" / "schemas" / "sarif-2.1.0.json"
# The official SARIF 2.1.0 schema is the product spec's data, beside the clone as CI has it (.ci/run).
needs_schema = pytest.mark.skipif(not SCHEMA.exists(), reason=f"no SARIF schema at {SCHEMA} (CI has it)")
LAUNCHLINT = shutil.which("launchlint") or "launchlint"

# One LL102 and nothing else: the launcher has pipefail, the trainer runs unbuffered.
STARVED = {
    "launch.sh": "#!/bin/bash\nbash job.sh | tee job.log\n".replace("\nbash", "\nset -o pipefail; bash"),
    "job.sh": "#!/bin/bash\nexec > other.log\npython -u t.py\n",
}


def make(root: Path, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(exist_ok=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def launchlint(*args: str, cwd: Path, stdin: str | None = None, env: dict | None = None):
    return subprocess.run(
        [LAUNCHLINT, *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120,
        env={**os.environ, **(env or {})},
    )


def codes(result) -> list[tuple[str, str, int]]:
    return [(f["code"], f["path"], f["line"]) for f in json.loads(result.stdout)]


# --- configuration ----------------------------------------------------------------------------


def test_pyproject_config_is_found_upward_from_the_current_directory(tmp_path):
    make(tmp_path, {**STARVED, "sub/other.sh": "echo hi\n"})
    (tmp_path / "pyproject.toml").write_text('[tool.launchlint]\nignore = ["LL102"]\n')
    result = launchlint("--format", "json", "..", cwd=tmp_path / "sub")
    assert (result.returncode, json.loads(result.stdout)) == (0, [])


def test_launchlint_yaml_config_and_command_line_override(tmp_path):
    make(tmp_path, STARVED)
    (tmp_path / ".launchlint.yaml").write_text("select: [LL101]\nfail-on: error\n")
    assert launchlint("--format", "json", ".", cwd=tmp_path).stdout == "[]\n"
    overridden = launchlint("--format", "json", "--select", "LL102", ".", cwd=tmp_path)
    assert codes(overridden) == [("LL102", "job.sh", 2)] and overridden.returncode == 1


def test_explicit_config_and_no_config(tmp_path):
    make(tmp_path, STARVED)
    (tmp_path / "quiet.yaml").write_text("ignore: [LL1]\n")
    (tmp_path / ".launchlint.yaml").write_text("ignore: [ALL]\n")
    assert launchlint("--format", "json", "--config", "quiet.yaml", ".", cwd=tmp_path).stdout == "[]\n"
    assert codes(launchlint("--format", "json", "--no-config", ".", cwd=tmp_path)) == [("LL102", "job.sh", 2)]
    (tmp_path / "ruff.toml").write_text('select = ["LL1"]\n')  # not launchlint's table: no settings silently dropped
    for config, message in (("ruff.toml", "ruff.toml: no [tool.launchlint] table"), ("vendor", "vendor is a directory")):
        (tmp_path / "vendor").mkdir(exist_ok=True)
        result = launchlint("--config", config, ".", cwd=tmp_path)
        assert result.returncode == 2 and result.stderr.startswith("launchlint: error: ") and message in result.stderr


@pytest.mark.parametrize(
    "config,message",
    [
        ("selct: [LL102]\n", "unknown key 'selct'"),
        ("select: [LL999]\n", "unknown rule code 'LL999' in select"),
        ("fail-on: sometimes\n", "fail-on must be one of error, warning"),
        ("severity: {LL102: fatal}\n", "severity of LL102 must be error or warning"),
        ("per-file-ignores: [a]\n", "per-file-ignores must be a mapping"),
        ("select: [unclosed\n", "invalid YAML"),
    ],
)
def test_config_mistakes_are_one_line_and_exit_2(tmp_path, config, message):
    make(tmp_path, STARVED)
    (tmp_path / ".launchlint.yaml").write_text(config)
    result = launchlint(".", cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


# Every shape a configuration file can take where launchlint expects another: the key it names.
TOML = "[tool.launchlint]\n"
MALFORMED_CONFIGS = [
    ("pyproject.toml", "[tool]\nlaunchlint = 3\n", "tool.launchlint must be a table of settings ([tool.launchlint]), not an integer"),
    ("pyproject.toml", '[tool]\nlaunchlint = "x"\n', "tool.launchlint must be a table of settings ([tool.launchlint]), not a string"),
    ("pyproject.toml", '[[tool.launchlint]]\nselect = ["LL1"]\n', "tool.launchlint must be a table of settings ([tool.launchlint]), not a list"),
    ("pyproject.toml", "tool = 3\n", "tool must be a table ([tool.NAME] sections), not an integer"),
    ("pyproject.toml", "tool = [1]\n", "tool must be a table ([tool.NAME] sections), not a list"),
    ("pyproject.toml", TOML + 'per-file-ignores = ["a"]\n', "per-file-ignores must be a table of globs to rule codes, not a list"),
    ("pyproject.toml", TOML + 'per-file-ignores = { "a.sh" = 3 }\n', "per-file-ignores['a.sh'] must be a list of strings, not an integer"),
    ("pyproject.toml", TOML + 'per-file-ignores = { "a.sh" = [1] }\n', "per-file-ignores['a.sh'] must be a list of strings, not a list holding an integer"),
    ("pyproject.toml", TOML + 'path-map = ["/root/"]\n', "path-map must be a table of remote path prefixes to project directories, not a list"),
    ("pyproject.toml", TOML + 'path-map = { "/root/" = 3 }\n', "path-map['/root/'] must be a project directory (a string), not an integer"),
    ("pyproject.toml", TOML + 'path-map = { "/root/" = { a = "b" } }\n', "path-map['/root/'] must be a project directory (a string), not a table"),
    ("pyproject.toml", TOML + 'severity = ["LL1"]\n', "severity must be a table of rule codes to error or warning, not a list"),
    ("pyproject.toml", TOML + "severity = { LL1 = 3 }\n", "severity of LL1 must be error or warning, not an integer"),
    ("pyproject.toml", TOML + 'severity = { LL1 = ["error"] }\n', "severity of LL1 must be error or warning, not a list"),
    ("pyproject.toml", TOML + "lock-names = [1]\n", "lock-names must be a list of strings, not a list holding an integer"),
    ("pyproject.toml", TOML + 'lock-names = [["A"]]\n', "lock-names must be a list of strings, not a list holding a list"),
    ("pyproject.toml", TOML + "select = 1979-05-27\n", "select must be a list of strings, not a date"),
    ("pyproject.toml", TOML + "exclude = { a = 1 }\n", "exclude must be a list of strings, not a table"),
    ("pyproject.toml", TOML + "fail-on = 1\n", "fail-on must be one of error, warning, not an integer"),
    ("pyproject.toml", TOML + "fail-on = true\n", "fail-on must be one of error, warning, not a boolean (true)"),
    (".launchlint.yaml", "- select\n- LL1\n", "expected a mapping of settings (key: value lines), not a list"),
    (".launchlint.yaml", "3\n", "expected a mapping of settings (key: value lines), not an integer"),
    (".launchlint.yaml", "just text\n", "expected a mapping of settings (key: value lines), not a string"),
    (".launchlint.yaml", "~: [LL1]\n", "a key must be a setting's name, not an empty value"),
    (".launchlint.yaml", "select:\n", "select must be a list of strings, not an empty value"),
    (".launchlint.yaml", "fail-on:\n", "fail-on must be one of error, warning, not an empty value"),
    (".launchlint.yaml", "fail-on: yes\n", "fail-on must be one of error, warning, not a boolean (true)"),
    (".launchlint.yaml", "select: !!set {LL1}\n", "select must be a list of strings, not a set"),
    (".launchlint.yaml", "select: !!binary aGVsbG8=\n", "select must be a list of strings, not binary data"),
    (".launchlint.yaml", "select: &a [*a]\n", "select must be a list of strings, not a list holding a list"),
    (".launchlint.yaml", "per-file-ignores: {a.sh: {LL1: x}}\n", "per-file-ignores['a.sh'] must be a list of strings, not a mapping"),
    (".launchlint.yaml", "per-file-ignores: {1: [LL1]}\n", "the keys of per-file-ignores must be globs (strings), not an integer"),
    (".launchlint.yaml", "path-map: {/root/: [deploy]}\n", "path-map['/root/'] must be a project directory (a string), not a list"),
    (".launchlint.yaml", "path-map: {~: deploy/}\n", "the keys of path-map must be remote path prefixes (strings), not an empty value"),
    (".launchlint.yaml", "severity: {LL1: [error]}\n", "severity of LL1 must be error or warning, not a list"),
    (".launchlint.yaml", "severity: {LL1: ~}\n", "severity of LL1 must be error or warning, not an empty value"),
    (".launchlint.yaml", "severity: {LL1: fatal}\n", "severity of LL1 must be error or warning, not 'fatal'"),
    (".launchlint.yaml", "lock-names: {A: 1}\n", "lock-names must be a list of strings, not a mapping"),
    (".launchlint.yaml", "a: 1\n---\nb: 2\n", ":2:1: invalid YAML: expected a single document in the stream, but found another document"),
    (".launchlint.yaml", "select: 2020-13-45\n", "invalid YAML: month must be in 1..12"),  # a date PyYAML cannot make
    # A key written twice (PyYAML kept the last in silence; tomllib refuses it in pyproject.toml).
    (".launchlint.yaml", "select: [LL1]\nignore: [LL2]\nselect: [LL102]\n", ".launchlint.yaml:3:1: duplicate key 'select'"),
    (".launchlint.yaml", "per-file-ignores:\n  job.sh: [LL1]\n  'job.sh': [LL2]\n", ".launchlint.yaml:3:3: duplicate key 'job.sh'"),
    (".launchlint.yaml", "severity: {LL102: error, LL102: warning}\n", ".launchlint.yaml:1:26: duplicate key 'LL102'"),
    ("pyproject.toml", TOML + 'select = ["LL1"]\nselect = ["LL102"]\n', "cannot read: Cannot overwrite a value"),
]


@pytest.mark.parametrize("name,text,message", MALFORMED_CONFIGS)
def test_every_malformed_config_is_one_line_naming_it_and_exit_2(tmp_path, name, text, message):
    """Never a traceback: exit 1 would tell a CI gate that the config's mistake is a finding."""
    make(tmp_path, STARVED)
    (tmp_path / name).write_text(text)
    result = launchlint("--no-cache", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr.startswith("launchlint: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert f"{name}:" in result.stderr and message in result.stderr, result.stderr


@pytest.mark.parametrize(
    "name,text,message",
    [
        ("pyproject.toml", TOML + 'select = "LL1"\n', 'select must be a list of strings, not a string: write ["LL1"]'),
        ("pyproject.toml", TOML + 'ignore = "LL101, LL102"\n', 'ignore must be a list of strings, not a string: write ["LL101", "LL102"]'),
        ("pyproject.toml", TOML + 'exclude = "third_party/"\n', 'exclude must be a list of strings, not a string: write ["third_party/"]'),
        ("pyproject.toml", TOML + 'per-file-ignores = { "legacy/*.sh" = "LL106" }\n', "per-file-ignores['legacy/*.sh'] must be a list of strings, not a string"),
        ("pyproject.toml", TOML + 'lock-names = "COMPILE_LOCK"\n', 'lock-names must be a list of strings, not a string: write ["COMPILE_LOCK"]'),
        (".launchlint.yaml", "extend-select: LL002\n", 'extend-select must be a list of strings, not a string: write ["LL002"]'),
        (".launchlint.yaml", "exclude: '*.{sh,bash}'\n", 'exclude must be a list of strings, not a string: write ["*.{sh,bash}"]'),
    ],
)
def test_a_string_where_the_key_takes_a_list_is_refused_as_ruff_refuses_it(tmp_path, name, text, message):
    """`select = "LL1"` was read as `["LL1"]` in silence; ruff says "invalid type: string, expected
    a sequence". The one line names the key and what to write instead."""
    make(tmp_path, STARVED)
    (tmp_path / name).write_text(text)
    result = launchlint("--no-cache", ".", cwd=tmp_path)
    assert (result.returncode, result.stderr.count("\n")) == (2, 1), result.stderr
    assert message in result.stderr, result.stderr


@pytest.mark.parametrize(
    "text,where",
    [
        ("select: [LL1\nignore: [LL2]\n", ".launchlint.yaml:2:7: invalid YAML: did not find expected ',' or ']'"),
        ("select: [LL1]\n  ignore: [LL2]\n", ".launchlint.yaml:2:3: invalid YAML: did not find expected key"),
        ("select: [LL1]\n\tignore: []\n", ".launchlint.yaml:2:1: invalid YAML: found character that cannot start any token"),
        ("select: [LL1]\nignore: [\x01]\n", ".launchlint.yaml:2:10: invalid YAML: unacceptable character #x0001"),
    ],
)
def test_a_yaml_config_syntax_error_says_where_as_ll001_would(tmp_path, text, where):
    make(tmp_path, STARVED)
    (tmp_path / ".launchlint.yaml").write_text(text)
    result = launchlint("--no-cache", ".", cwd=tmp_path)
    assert (result.returncode, result.stderr.count("\n")) == (2, 1), result.stderr
    assert where in result.stderr, result.stderr
    (tmp_path / "copy.yaml").write_text(text)  # the same file linted: its LL001 is at the same place
    ll001 = json.loads(launchlint("--format", "json", "--no-config", "--select", "LL001", "copy.yaml", cwd=tmp_path).stdout)
    assert [(f["line"], f["column"]) for f in ll001] == [tuple(map(int, where.split(":")[1:3]))]


def test_a_key_that_a_yaml_merge_brings_may_be_set_again_and_libyaml_still_reads_the_config(tmp_path, monkeypatch):
    """Only a key written twice is refused: one that `<<: *base` brings is overridden, as YAML
    means. The check is in the constructor, so libyaml's parser still reads the file."""
    make(tmp_path, STARVED)
    (tmp_path / ".launchlint.yaml").write_text("severity:\n  <<: {LL102: error, LL105: error}\n  LL102: warning\n")
    result = launchlint("--format", "json", "--no-cache", ".", cwd=tmp_path)
    assert [(f["code"], f["severity"]) for f in json.loads(result.stdout)] == [("LL102", "warning")], result.stderr
    from launchlint import config

    loaders = []
    real_load = yaml.load
    monkeypatch.setattr(yaml, "load", lambda text, Loader: loaders.append(Loader) or real_load(text, Loader=Loader))
    assert config.load_config(str(tmp_path / ".launchlint.yaml"), ["LL102", "LL105"]).severity == {"LL102": "warning", "LL105": "error"}
    assert [issubclass(loader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)) for loader in loaders] == [True]


@pytest.mark.parametrize("text", ["", "# nothing yet\n", "---\n", "~\n"])
def test_an_empty_launchlint_yaml_is_no_settings(tmp_path, text):
    make(tmp_path, STARVED)
    (tmp_path / ".launchlint.yaml").write_text(text)
    assert codes(launchlint("--format", "json", "--no-cache", ".", cwd=tmp_path)) == [("LL102", "job.sh", 2)]


def test_per_file_ignores_exclude_and_severity(tmp_path):
    make(tmp_path, {**STARVED, "vendor/x.sh": "set -o pipefail\nbash y.sh | tee y.log\n", "vendor/y.sh": "exec > z.log\n"})
    (tmp_path / ".launchlint.yaml").write_text(
        "per-file-ignores:\n  'job.sh': [LL102]\nexclude: ['vendor/']\nseverity: {LL101: error}\n"
    )
    assert launchlint("--format", "json", ".", cwd=tmp_path).stdout == "[]\n"
    cli = launchlint("--format", "json", "--no-config", "--per-file-ignores", "job.sh:LL1", ".", cwd=tmp_path)
    assert codes(cli) == [("LL102", "vendor/y.sh", 1)]
    pairs = launchlint("--format", "json", "--no-config", "--per-file-ignores", "job.sh:LL1,vendor/*.sh:LL002,LL102", ".", cwd=tmp_path)
    assert codes(pairs) == []  # two GLOB:CODES pairs in one value, as ruff reads them
    empty = launchlint("--no-config", "--per-file-ignores", "job.sh:", ".", cwd=tmp_path)
    assert empty.returncode == 2 and "expects GLOB:CODES, not 'job.sh:'" in empty.stderr


def test_globs_from_below_the_root_are_relative_to_their_directory(tmp_path):
    """A configuration file in a subdirectory, or command-line globs given there, name that
    directory's files, as a `.gitignore` there would: `/r.sh` is `sub/r.sh`, not the root's."""
    piped = "python t.py 2>&1 | tee a.log\n"
    make(tmp_path, {".launchlint.yaml": "", "r.sh": piped, "sub/r.sh": piped, "sub/other/r.sh": piped})
    sub = tmp_path / "sub"
    cli = launchlint("--format", "json", "--select", "LL105", "--per-file-ignores", "/r.sh:LL105", "--exclude", "other/", "..", cwd=sub)
    assert [(f["path"], f["line"]) for f in json.loads(cli.stdout)] == [(str(tmp_path / "r.sh"), 1)]
    (sub / ".launchlint.yaml").write_text("select: [LL105]\nper-file-ignores: {'/r.sh': [LL105]}\nexclude: [other/]\n")
    config = launchlint("--format", "json", "--config", "sub/.launchlint.yaml", ".", cwd=tmp_path)
    assert [(f["path"], f["line"]) for f in json.loads(config.stdout)] == [("r.sh", 1)]


def test_severity_override_changes_the_exit_status(tmp_path):
    make(tmp_path, STARVED)
    (tmp_path / ".launchlint.yaml").write_text("severity: {LL102: warning}\nfail-on: error\n")
    result = launchlint("--format", "json", ".", cwd=tmp_path)
    assert json.loads(result.stdout)[0]["severity"] == "warning" and result.returncode == 0


@pytest.mark.parametrize("table", ['{ LL1 = "error" }', '{ ALL = "error" }', '{ ll10 = "error" }'])
def test_a_severity_prefix_or_all_raises_every_code_it_covers(tmp_path, table):
    """`severity` keys are codes, prefixes or `ALL`, as in `select`: a CI gate that raises `LL1`
    to error and runs with `--fail-on error` fails on an LL105 warning."""
    make(tmp_path, {**STARVED, "r.sh": "python t.py 2>&1 | tee a.log\n"})
    (tmp_path / "pyproject.toml").write_text(f"[tool.launchlint]\nseverity = {table}\n")
    result = launchlint("--format", "json", "--fail-on", "error", "--select", "LL105", ".", cwd=tmp_path)
    assert [(f["code"], f["severity"]) for f in json.loads(result.stdout)] == [("LL105", "error")]
    assert result.returncode == 1


def test_the_most_specific_severity_key_wins_whatever_its_place(tmp_path):
    make(tmp_path, {**STARVED, "r.sh": "python t.py 2>&1 | tee a.log\n"})
    (tmp_path / ".launchlint.yaml").write_text("severity: {LL105: error, LL10: warning, ALL: warning, LL1: error}\n")
    result = launchlint("--format", "json", "--fail-on", "error", "--select", "LL102,LL105", ".", cwd=tmp_path)
    found = [(f["code"], f["severity"]) for f in json.loads(result.stdout)]
    assert found == [("LL102", "warning"), ("LL105", "error")] and result.returncode == 1  # LL10 over LL1, LL105 over LL10
    (tmp_path / ".launchlint.yaml").write_text("severity: {LL105: warning, LL10: warning, ALL: error}\nfail-on: error\n")
    assert launchlint("--select", "LL102,LL105", ".", cwd=tmp_path).returncode == 0  # neither is an error now


def test_path_map_resolves_remote_paths(tmp_path):
    files = {
        "launch.sh": "ssh gpu 'set -o pipefail; bash /root/run/job.sh | tee /root/job.log'\n",
        "deploy/job.sh": "exec > other.log\npython -u t.py\n",
        "old/job.sh": "python t.py\n",  # two job.sh: the unique-name fallback cannot decide
    }
    make(tmp_path, files)
    assert launchlint("--format", "json", ".", cwd=tmp_path).stdout == "[]\n"
    (tmp_path / ".launchlint.yaml").write_text("path-map: {'/root/run/': deploy/}\n")
    assert codes(launchlint("--format", "json", ".", cwd=tmp_path)) == [("LL102", "deploy/job.sh", 1)]


# --- suppressions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "job",
    [
        "exec > other.log  # launchlint: disable=LL102\npython -u t.py\n",
        "# launchlint: disable=LL102\nexec > other.log\npython -u t.py\n",
        "python t.py\n# launchlint: disable-file=LL1\nexec > other.log\n",
    ],
)
def test_suppression_comments(tmp_path, job):
    make(tmp_path, {**STARVED, "job.sh": job})
    assert launchlint("--format", "json", ".", cwd=tmp_path).stdout == "[]\n"


def test_suppression_on_the_outer_line_covers_a_nested_string(tmp_path):
    make(tmp_path, {"launch.sh": "ssh gpu1 \\\n  'tmux new-session -d \"python t.py'  # launchlint: disable=LL001\n"})
    assert launchlint("--format", "json", "--select", "LL0", ".", cwd=tmp_path).stdout == "[]\n"
    make(tmp_path, {"launch.sh": "# launchlint: disable=LL001\nssh gpu1 \\\n  'tmux new-session -d \"python t.py'\n"})
    assert launchlint("--format", "json", "--select", "LL0", ".", cwd=tmp_path).stdout == "[]\n"


def test_a_marker_in_a_string_or_a_heredoc_is_text_not_a_suppression(tmp_path):
    make(tmp_path, {
        "run.sh": (
            'python -u t.py | tee "#launchlint: disable=LL105"\necho "x # launchlint: disable=LL105"\n'
            "cat <<EOF\n# launchlint: disable=LL105\nEOF\npython -u t.py | tee b.log  # launchlint: disable=LL105\n"
        ),
        "p.py": (
            'import sys\n\nsys.stdout = open("x.log", "w"); s = "# launchlint: disable=LL204"\n'
            'DOC = """\n# launchlint: disable=LL204\n"""\nsys.stderr = open("y.log", "w")  # launchlint: disable=LL204\n'
        ),
    })
    found = codes(launchlint("--format", "json", "--select", "LL0,LL105,LL204", ".", cwd=tmp_path))
    assert found == [("LL204", "p.py", 3), ("LL105", "run.sh", 1)]


def test_unused_suppression_is_reported_even_when_its_rule_is_not_selected(tmp_path):
    make(tmp_path, {"run.sh": "python t.py  # launchlint: disable=LL102\n"})
    result = launchlint("--format", "json", "--select", "LL002", ".", cwd=tmp_path)
    assert codes(result) == [("LL002", "run.sh", 1)]


# A command built once in a variable and expanded in both arms of an `if` (mlcommons' rnnt
# scripts): its missing script, unknown flag and missing config are each one mistake.
EXPANDED_TWICE = {
    "run.sh": (
        '#!/bin/bash\nCMD=" python other.py --config=missing.yaml"\nCMD+=" --bogus 1"\nif [ -z "$LOG" ]; then\n'
        '\t$CMD\nelse\n\t( $CMD ) |& tee "$LOG"\nfi\n'
    ),
    "other.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
    "gone.sh": 'CMD="python gone.py"\nif [ -n "$A" ]; then $CMD; else $CMD --config other.py; fi\n',
}


def test_a_word_expanded_twice_is_one_finding_with_the_other_expansion_related(tmp_path):
    make(tmp_path, EXPANDED_TWICE)
    found = json.loads(launchlint("--format", "json", "--select", "LL3", ".", cwd=tmp_path).stdout)
    assert [(f["code"], f["path"], f["line"]) for f in found] == [
        ("LL303", "gone.sh", 2), ("LL301", "run.sh", 5), ("LL304", "run.sh", 5)
    ]
    again = {"LL301": "passed here too", "LL303": "runs it here too", "LL304": "passed here too"}
    for finding in found:
        where = (2, 33) if finding["path"] == "gone.sh" else (7, 4)
        note = f"{again[finding['code']]}, from the same variable's value"
        assert {"path": finding["path"], "line": where[0], "column": where[1], "message": note} in finding["related"]
    # `--config=missing.yaml` comes from the value: its part after `=` is located at the expansion, not past it
    assert (found[2]["column"], found[2]["end_column"]) == (2, 6)


def test_a_word_from_a_variables_value_names_the_assignment_that_wrote_it(tmp_path):
    """The finding stands at the expansion; the line to change is an assignment: a related
    location at the one that last set the value (the `+=`, for `--bogus` and `missing.yaml`;
    `CMD=` for `gone.py`)."""
    make(tmp_path, EXPANDED_TWICE)
    found = json.loads(launchlint("--format", "json", "--select", "LL3", ".", cwd=tmp_path).stdout)
    set_here = {(f["code"], r["line"], r["column"]) for f in found for r in f["related"] if r["message"] == "the value is last set here"}
    assert set_here == {("LL303", 1, 5), ("LL301", 3, 6), ("LL304", 3, 6)}
    (tmp_path / "plain").mkdir()
    make(tmp_path / "plain", {"run.sh": "python gone.py\n", "x.py": "print(1)\n"})
    plain = json.loads(launchlint("--format", "json", "--select", "LL303", ".", cwd=tmp_path / "plain").stdout)
    assert [f["related"] for f in plain] == [[]]  # written where it runs: nothing to name
    # a flag written here, its value from a variable: the flag is the mistake, not the assignment (helper-276)
    (tmp_path / "valued").mkdir()
    make(tmp_path / "valued", {"run.sh": "DATA=./imagenet\npython v.py --data_dir=$DATA\n", "v.py": EXPANDED_TWICE["other.py"]})
    valued = json.loads(launchlint("--format", "json", "--select", "LL301", ".", cwd=tmp_path / "valued").stdout)
    assert [(f["line"], [r["message"] for r in f["related"]]) for f in valued] == [(2, ["the parser of v.py"])]


def test_a_word_of_an_array_standing_at_its_expansion_names_the_assignment_that_last_set_it(tmp_path):
    """The words an if's arms agree on stand at `"${CMD[@]}"` (no one arm wrote them): the
    related location is the `CMD+=(...)` that last set the array, as for a variable's value; a
    word that stands where it is written names nothing more."""
    arms = 'if [ -n "$A" ]; then CMD=(python {0} --bogus 1 --fp16); else CMD=(python {0} --bogus 1); fi\n'
    make(tmp_path, {
        "run.sh": "#!/bin/bash\n" + arms.format("other.py") + 'CMD+=(--config "$CFG")\n"${CMD[@]}"\n',
        "gone.sh": arms.format("gone.py") + "CMD+=(--lr 2)\n\n\"${CMD[@]}\"\n",
        "plain.sh": "CMD=(python other.py --bogus 1)\nCMD+=(--config c.yaml)\n\"${CMD[@]}\"\n",
        "other.py": EXPANDED_TWICE["other.py"],
    })  # fmt: skip
    found = json.loads(launchlint("--format", "json", "--select", "LL301,LL303", ".", cwd=tmp_path).stdout)
    assert [(f["code"], f["path"], f["line"], [(r["line"], r["column"]) for r in f["related"] if r["message"] == "the value is last set here"]) for f in found] == [
        ("LL303", "gone.sh", 4, [(2, 6)]), ("LL301", "plain.sh", 1, []), ("LL301", "run.sh", 4, [(3, 6)])
    ]  # fmt: skip


def test_a_suppression_at_the_first_expansion_covers_the_finding_a_baseline_keeps_its_print(tmp_path):
    """The finding is at the first expansion, where a comment suppresses it; a baseline entry
    for the finding at that line matches it (the line's text is what the fingerprint hashes)."""
    make(tmp_path, EXPANDED_TWICE)
    assert launchlint("--write-baseline", "base.json", "--select", "LL3", ".", cwd=tmp_path).returncode == 0
    assert launchlint("--format", "json", "--baseline", "base.json", "--select", "LL3", ".", cwd=tmp_path).stdout == "[]\n"
    text = EXPANDED_TWICE["run.sh"].replace("\t$CMD\n", "\t$CMD  # launchlint: disable=LL301,LL304\n", 1)
    make(tmp_path, {"run.sh": text, "gone.sh": EXPANDED_TWICE["gone.sh"].replace("fi\n", "fi  # launchlint: disable=LL303\n")})
    assert launchlint("--format", "json", "--select", "LL0,LL3", ".", cwd=tmp_path).stdout == "[]\n"


# --- formats ----------------------------------------------------------------------------------


@needs_schema
def test_sarif_of_the_incident_validates_against_the_official_schema():
    result = launchlint("--format", "sarif", "fixtures/incident", cwd=REPO)
    log = json.loads(result.stdout)
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert {"id", "name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"} <= set(rules[0])
    by_rule = {r["ruleId"]: r for r in run["results"]}
    starve = by_rule["LL102"]
    assert starve["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "fixtures/incident/start_training.sh"
    assert starve["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "fixtures/incident/launch.sh"
    assert rules[starve["ruleIndex"]]["id"] == "LL102"
    assert result.returncode == 1
    # the descriptions are the rule's documentation, without the name again on a line of its own
    described = rules[starve["ruleIndex"]]
    assert described["fullDescription"]["text"].startswith("Finds a script that permanently redirects")
    assert described["help"]["text"].startswith("## What it does\n")


def test_sarif_fingerprints_survive_edits_elsewhere(tmp_path):
    make(tmp_path, STARVED)
    first = json.loads(launchlint("--format", "sarif", ".", cwd=tmp_path).stdout)
    (tmp_path / "job.sh").write_text("#!/bin/bash\n# a new comment\n\nexec > other.log\npython -u t.py\n")
    second = json.loads(launchlint("--format", "sarif", ".", cwd=tmp_path).stdout)
    prints = [[r["partialFingerprints"] for r in log["runs"][0]["results"]] for log in (first, second)]
    assert prints[0] == prints[1] and prints[0]


# RFC 3986 (Appendix A) for the URI references launchlint writes: a relative path whose first
# segment has no `:` (path-noscheme), or a `file:` URI with an empty authority; no query, no fragment.
_UNRESERVED, _PCT, _SUB_DELIMS = r"[A-Za-z0-9._~-]", r"%[0-9A-F]{2}", r"[!$&'()*+,;=]"
_PCHAR = rf"(?:{_UNRESERVED}|{_PCT}|{_SUB_DELIMS}|[:@])"
_SEGMENT_NZ_NC = rf"(?:{_UNRESERVED}|{_PCT}|{_SUB_DELIMS}|@)+"
RELATIVE_REF = re.compile(rf"{_SEGMENT_NZ_NC}(?:/{_PCHAR}*)*")
FILE_URI = re.compile(rf"file://(?:/{_PCHAR}*)+")


def artifact_locations(node):
    """Every `artifactLocation` in a SARIF log, wherever it is (results, related, fixes)."""
    if isinstance(node, dict):
        yield from ([node["artifactLocation"]] if "artifactLocation" in node else [])
        for value in node.values():
            yield from artifact_locations(value)
    elif isinstance(node, list):
        for value in node:
            yield from artifact_locations(value)


@needs_schema
def test_sarif_uris_are_uri_references_that_decode_to_the_file_names(tmp_path):
    """SARIF's `artifactLocation.uri` is a URI reference (§3.10, the schema's `uri-reference`):
    a space, `#`, `%`, `:`, a newline or a byte that is not UTF-8 in a file name is percent-encoded,
    a relative URI has the base `%SRCROOT%` (the current directory, in `originalUriBaseIds`), and
    a file outside it is an absolute `file:` URI."""
    piped = "python t.py 2>&1 | tee a.log\n"
    names = ["sp ace#1.sh", "job,a:b%25.sbatch", "nl\nname.sh", "q?x.sh", "d\u00e9j\u00e0.sh", "sub dir/a b.sh"]
    make(tmp_path, {name: piped for name in names})
    (tmp_path / os.fsdecode(b"lat\xe9.sh")).write_text(piped)  # a Latin-1 name, not UTF-8
    names.append(os.fsdecode(b"lat\xe9.sh"))
    root = os.path.realpath(tmp_path)
    for cwd, named in ((tmp_path, "."), (tmp_path / "sub dir", "..")):
        result = launchlint("--format", "sarif", "--select", "LL105", "--no-cache", named, cwd=cwd)
        log = json.loads(result.stdout)
        jsonschema.validate(log, json.loads(SCHEMA.read_text()))
        run = log["runs"][0]
        locations = list(artifact_locations(run["results"]))
        for location in locations:
            pattern = RELATIVE_REF if location.get("uriBaseId") == "%SRCROOT%" else FILE_URI
            assert pattern.fullmatch(location["uri"]), location
        base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        assert base == "file://" + quote(os.path.realpath(cwd) + "/") and FILE_URI.fullmatch(base)
        found = {}
        for location in locations:
            uri = location["uri"]
            absolute = urljoin(base, uri) if "uriBaseId" in location else uri
            assert absolute.startswith("file:///")
            found[uri] = os.fsdecode(unquote_to_bytes(absolute[len("file://"):]))
        assert set(found.values()) >= {os.path.join(root, name) for name in names}, sorted(found.values())
        if cwd == tmp_path:  # relative to the current directory, as the other formats show them
            assert {unquote(uri) for uri in found if not uri.startswith("file:")} >= set(names) - {names[-1]}
        else:  # all outside `sub dir/` but its own file
            assert "a%20b.sh" in found and all(uri.startswith("file:///") for uri in found if uri != "a%20b.sh")
        assert result.returncode == 1


def test_github_format_and_its_escaping(tmp_path):
    make(tmp_path, {"run,1.sh": "set -o pipefail\nbash job.sh | tee job.log\n", "job.sh": "exec > a:b%.log\n"})
    lines = launchlint("--format", "github", ".", cwd=tmp_path).stdout.splitlines()
    assert lines == [
        "::error file=job.sh,line=1,col=1,endLine=1,endColumn=16,title=LL102 exec-redirect-starves-pipe::"
        "`exec` sends this script's stdout to `a:b%25.log`, so the caller's pipe/log gets nothing; drop the `exec`, "
        "or keep both with `exec > >(tee -a a:b%25.log) 2>&1`"
    ]
    make(tmp_path, {"x.sh": "echo 'unterminated\n"})
    warning = launchlint("--format", "github", "--select", "LL001", "x.sh", cwd=tmp_path).stdout
    assert warning.startswith("::error file=x.sh,line=1,")


def test_github_property_escaping():
    from launchlint.report import _escape_data, _escape_property

    assert _escape_property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A"
    assert _escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"


def test_output_statistics_quiet_and_color(tmp_path):
    make(tmp_path, STARVED)
    result = launchlint("--output", "report.txt", "--statistics", ".", cwd=tmp_path)
    report = (tmp_path / "report.txt").read_text()
    assert result.stdout == "" and result.returncode == 1
    assert "\033[" not in report  # cli.md: the summary line comes last, after the counts
    assert report.endswith("    1  LL102  exec-redirect-starves-pipe\n1 finding (1 errors, 0 warnings) in 2 files\n")
    as_json = launchlint("--format", "json", "--statistics", ".", cwd=tmp_path)
    assert len(json.loads(as_json.stdout)) == 1 and as_json.stderr == "    1  LL102  exec-redirect-starves-pipe\n"
    quiet = launchlint("--quiet", ".", cwd=tmp_path).stdout
    assert "finding" not in quiet.splitlines()[-1] and quiet.startswith("job.sh:2:1: LL102")
    assert launchlint("-q", ".", cwd=tmp_path).stdout == quiet  # ruff's short spelling, which ruff users type
    assert "\033[" in launchlint("--color", "always", ".", cwd=tmp_path).stdout
    assert "\033[" not in launchlint("--color", "auto", ".", cwd=tmp_path).stdout  # not a TTY
    assert "\033[" not in launchlint("--color", "never", ".", cwd=tmp_path).stdout


def test_auto_color_needs_a_tty_and_no_NO_COLOR(monkeypatch):
    """no-color.org: NO_COLOR turns off automatic color; an explicit --color always still wins."""
    from launchlint import cli

    monkeypatch.setattr(cli.sys.stdout, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert cli._color("auto") is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert (cli._color("auto"), cli._color("always"), cli._color("never")) == (False, True, False)


def test_exit_zero(tmp_path):
    make(tmp_path, STARVED)
    assert launchlint("--exit-zero", ".", cwd=tmp_path).returncode == 0


# --- baselines --------------------------------------------------------------------------------


def test_baseline_hides_old_findings_but_not_new_ones(tmp_path):
    make(tmp_path, STARVED)
    written = launchlint("--write-baseline", "base.json", ".", cwd=tmp_path)
    assert written.returncode == 0 and (tmp_path / "base.json").exists()
    assert written.stderr == "launchlint: wrote 1 finding to base.json\n"
    assert launchlint("--format", "json", "--baseline", "base.json", ".", cwd=tmp_path).stdout == "[]\n"
    # lines inserted above the old finding do not resurrect it; a new problem is reported
    (tmp_path / "job.sh").write_text("#!/bin/bash\necho one\necho two\nexec > other.log\npython -u t.py\n")
    (tmp_path / "launch2.sh").write_text("set -o pipefail\nbash job2.sh | tee j2.log\n")
    (tmp_path / "job2.sh").write_text("exec 1> new.log\n")
    result = launchlint("--format", "json", "--baseline", "base.json", ".", cwd=tmp_path)
    assert codes(result) == [("LL102", "job2.sh", 1)] and result.returncode == 1


def test_a_baseline_written_at_the_top_of_a_monorepo_matches_a_run_in_a_sub_project(tmp_path):
    """Its paths are relative to the baseline's own project: a pre-commit run naming a file of
    svc/a (whose pyproject.toml makes it the run's root) used to see `run.sh` where the baseline
    said `svc/a/run.sh`, and every old finding came back."""
    make(tmp_path, {".git/HEAD": "", "svc/a/pyproject.toml": "", "svc/a/run.sh": "python -u t.py | tee t.log\n"})
    assert launchlint("--write-baseline", "base.json", ".", cwd=tmp_path).returncode == 0
    assert '"path": "svc/a/run.sh"' in (tmp_path / "base.json").read_text()
    for paths in (["svc/a/run.sh"], ["svc/a"], ["."]):
        result = launchlint("--format", "json", "--baseline", "base.json", *paths, cwd=tmp_path)
        assert (result.returncode, result.stdout) == (0, "[]\n"), (paths, result.stdout)
    inside = launchlint("--format", "json", "--baseline", "../../base.json", "run.sh", cwd=tmp_path / "svc" / "a")
    assert (inside.returncode, inside.stdout) == (0, "[]\n")


def test_unreadable_baseline_is_a_usage_error(tmp_path):
    make(tmp_path, STARVED)
    (tmp_path / "base.json").write_text("{not json")
    result = launchlint("--baseline", "base.json", ".", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("launchlint: error: cannot read baseline")


@pytest.mark.parametrize(
    "text",
    [
        '{"version": 1, "findings": {}}',  # read as no findings: every old one came back
        '{"version": 1, "findings": ""}',
        '{"version": 1, "findings": [{"code": 102, "path": "job.sh", "fingerprint": "0"}]}',  # never matched
        '{"version": 1, "findings": [["LL102", "job.sh", "0"]]}',
        '[{"code": "LL102", "path": "job.sh", "fingerprint": "0"}]',
    ],
)
def test_a_baseline_of_another_shape_is_a_usage_error(tmp_path, text):
    make(tmp_path, STARVED)
    (tmp_path / "base.json").write_text(text)
    result = launchlint("--baseline", "base.json", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, ""), result.stdout
    assert result.stderr == (
        'launchlint: error: cannot read baseline base.json: not a launchlint baseline (an object with a "findings" list, '
        'each finding an object with "code", "path" and "fingerprint" strings; --write-baseline makes one)\n'
    )


@pytest.mark.parametrize("version", ["2", '"1"', "true", "null"])
def test_a_baseline_of_another_format_version_is_a_usage_error(tmp_path, version):
    """A baseline a newer launchlint wrote (or one whose version is not the number 1) is not read
    as if its entries meant what this version's do; one without a version, written by hand, is."""
    make(tmp_path, STARVED)
    assert launchlint("--write-baseline", "base.json", ".", cwd=tmp_path).returncode == 0
    written = json.loads((tmp_path / "base.json").read_text())
    assert written["version"] == 1
    (tmp_path / "base.json").write_text(json.dumps({"findings": written["findings"]}))
    assert launchlint("--format", "json", "--baseline", "base.json", ".", cwd=tmp_path).stdout == "[]\n"
    (tmp_path / "base.json").write_text(json.dumps(written).replace('"version": 1', f'"version": {version}'))
    result = launchlint("--baseline", "base.json", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, ""), result.stdout
    assert result.stderr == (
        f"launchlint: error: cannot read baseline base.json: its format is version {version}, this launchlint reads "
        "version 1; upgrade launchlint, or write the baseline again with --write-baseline\n"
    )


@pytest.mark.parametrize("option", ["--output", "--write-baseline"])
def test_a_report_or_baseline_replaces_a_link_and_never_writes_through_it(tmp_path, option):
    """The CI example writes `--output launchlint.sarif` in the checkout: a repository that ships
    that name as a link to the user's file gets the link replaced by the report, and the file
    kept. A directory that is not there is a usage error, not a traceback."""
    project = tmp_path / "project"
    project.mkdir()
    make(project, STARVED)
    secret = tmp_path / "secret"
    secret.write_text("precious\n")
    (project / "out.json").symlink_to("../secret")
    result = launchlint(option, "out.json", "--format", "json", "--exit-zero", ".", cwd=project)
    assert result.returncode == 0 and secret.read_text() == "precious\n"
    assert not (project / "out.json").is_symlink() and '"LL102"' in (project / "out.json").read_text()
    assert [p.name for p in project.iterdir() if p.name.endswith(".tmp")] == []
    missing = launchlint(option, str(tmp_path / "nowhere" / "out.json"), ".", cwd=project)
    assert missing.returncode == 2
    assert missing.stderr == f"launchlint: error: cannot write {tmp_path / 'nowhere' / 'out.json'}: No such file or directory\n"


def test_a_report_to_a_device_or_a_pipe_is_written_where_it_is(tmp_path):
    """`--output /dev/null`, `/dev/stdout` or a FIFO is written as a shell redirection writes it.
    Renamed over, as a file is, a device became a regular file: run as root, `--output /dev/null`
    replaced the system's /dev/null (and tmux could no longer start). A path under /dev that is
    not there is an error, not a file made in /dev."""
    make(tmp_path, STARVED)
    null, stdout = os.stat("/dev/null"), os.lstat("/dev/stdout")
    result = launchlint("--output", "/dev/null", ".", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == "", result.stderr
    after = os.lstat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (null.st_ino, null.st_rdev)
    piped = launchlint("--output", "/dev/stdout", "--format", "json", ".", cwd=tmp_path)
    assert codes(piped) == [("LL102", "job.sh", 2)]
    assert (os.lstat("/dev/stdout").st_ino, os.lstat("/dev/stdout").st_mode) == (stdout.st_ino, stdout.st_mode)
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    through = launchlint("--output", str(fifo), "--format", "json", ".", cwd=tmp_path)
    reader.join(timeout=60)
    assert through.returncode == 1 and [f["code"] for f in json.loads(received[0])] == ["LL102"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    typo = "/dev/launchlint-no-such-device"
    missing = launchlint("--output", typo, ".", cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr == f"launchlint: error: cannot write {typo}: No such file or directory\n"
    assert not os.path.lexists(typo)


# --- stdin ------------------------------------------------------------------------------------


def test_stdin_is_linted_as_the_named_file_with_project_context(tmp_path):
    make(tmp_path, {"launch.sh": STARVED["launch.sh"], "job.sh": "python -u t.py\n"})
    text = "#!/bin/bash\nexec > other.log\npython -u t.py\n"
    result = launchlint("--format", "json", "-", "--stdin-filename", "job.sh", cwd=tmp_path, stdin=text)
    assert codes(result) == [("LL102", "job.sh", 2)]
    assert (tmp_path / "job.sh").read_text() == "python -u t.py\n"
    missing = launchlint("-", cwd=tmp_path, stdin=text)
    assert missing.returncode == 2 and "--stdin-filename" in missing.stderr


def test_stdin_filename_without_a_dash_reads_standard_input_as_ruff_does(tmp_path):
    """`--stdin-filename NAME` with no PATH reads standard input, as `-` would; with PATHs but no
    `-`, ruff reads standard input and says it ignores the files: so does launchlint. It linted
    `.` and read nothing from standard input, in silence."""
    make(tmp_path, {"launch.sh": STARVED["launch.sh"], "job.sh": "python -u t.py\n"})
    text = "#!/bin/bash\nexec > other.log\npython -u t.py\n"
    alone = launchlint("--format", "json", "--stdin-filename", "job.sh", cwd=tmp_path, stdin=text)
    assert (codes(alone), alone.stderr) == ([("LL102", "job.sh", 2)], "")
    with_paths = launchlint("--format", "json", "--stdin-filename", "job.sh", "launch.sh", ".", cwd=tmp_path, stdin=text)
    assert codes(with_paths) == [("LL102", "job.sh", 2)]
    assert with_paths.stderr == (
        "launchlint: warning: ignoring launch.sh, . in favor of standard input (--stdin-filename); add `-` to lint both\n"
    )
    for args in (["--fix", "--stdin-filename", "job.sh", "."], ["--command", "bash job.sh", "--stdin-filename", "job.sh"]):
        refused = launchlint(*args, cwd=tmp_path, stdin=text)
        assert (refused.returncode, refused.stderr.count("\n")) == (2, 1) and "launchlint: error: " in refused.stderr
    assert (tmp_path / "job.sh").read_text() == "python -u t.py\n"


@needs_schema
def test_stdin_that_is_not_utf8_is_one_ll001_where_it_stops_being_utf8(tmp_path):
    make(tmp_path, {"run.sh": "echo ok\n"})
    result = subprocess.run(
        [LAUNCHLINT, "--format", "sarif", "-", "--stdin-filename", "a.py"], cwd=tmp_path,
        input=b"x = 1\ny = '\xff\xfe'\n", capture_output=True, timeout=120, check=False,
    )
    log = json.loads(result.stdout)
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    (found,) = log["runs"][0]["results"]
    region = found["locations"][0]["physicalLocation"]["region"]
    assert (found["ruleId"], found["message"]["text"]) == ("LL001", "not valid UTF-8 at byte 11")
    assert (region["startLine"], region["startColumn"]) == (2, 6)


# --- pre-commit -------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit is a test extra")
def test_pre_commit_hook_with_staged_files_keeps_project_context(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, text in STARVED.items():
        (repo / name).write_text(text)
    (repo / "README.md").write_text("x\n")
    (repo / "job.sbatch").write_text(SBATCH)  # identify tags it only `text`: `types_or: [shell, ...]` never passed it
    (repo / ".launchlint.yaml").write_text("exclude: [vendor/]\n")  # the hook passes --force-exclude, as ruff's
    (repo / "vendor").mkdir()
    (repo / "vendor" / "run.sh").write_text("python -u t.py | tee v.log\n")  # LL105, were it read
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    run = subprocess.run(
        ["pre-commit", "try-repo", str(REPO), "launchlint", "--files", "job.sh", "job.sbatch", "vendor/run.sh", "--verbose"],
        cwd=repo, capture_output=True, text=True, timeout=600, env=env,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "job.sh:2:1: LL102" in run.stdout
    assert "job.sbatch:2:9: LL109" in run.stdout, run.stdout
    assert "vendor/" not in run.stdout, run.stdout
    clean = subprocess.run(
        ["pre-commit", "try-repo", str(REPO), "launchlint", "--files", "README.md"],
        cwd=repo, capture_output=True, text=True, timeout=600, env=env,
    )
    assert clean.returncode == 0, clean.stdout + clean.stderr


SBATCH = "#!/bin/bash\n#SBATCH --output=logs/%x-%j.out\npython -u t.py\n"  # one LL109: no logs/


def test_the_pre_commit_hook_passes_exactly_the_names_launchlint_recognises():
    """The hook's `files` is built from discover.py's sets (one source of truth): a file it passes
    that launchlint does not recognise is linted as shell (LL001 on a staged LICENSE), and one it
    recognises but the hook does not pass is never checked (`.sbatch`, `.slurm`, `.ksh`)."""
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    extensions = (
        discover.SHELL_EXTENSIONS | discover.PYTHON_EXTENSIONS | discover.YAML_EXTENSIONS | discover.MAKEFILE_EXTENSIONS
        | discover.JUSTFILE_EXTENSIONS
    )
    assert all(e.startswith(".") and e[1:].isalnum() for e in extensions)
    names = "|".join(sorted(discover.MAKEFILE_NAMES))
    just = "|".join(sorted(map(re.escape, discover.JUSTFILE_NAMES)))  # just's own names, in any case
    assert hook["files"] == f"(^|/)({names}|(?i:{just}))$|[^/]\\.(?i:{'|'.join(sorted(e[1:] for e in extensions))})$"
    assert (hook["types"], "types_or" in hook) == (["text"], False)
    files = re.compile(hook["files"])
    samples = [f"d/job{e}" for e in extensions] + [f"JOB{e.upper()}" for e in extensions] + [*discover.MAKEFILE_NAMES]
    samples += ["MAKEFILE", "Makefile.am", "LICENSE", "requirements.txt", "README.md", "RUNBOOK.md", ".sh", "d/.sh", "job.sh.bak", "start"]
    samples += ["justfile", "d/Justfile", ".justfile", "JUSTFILE", "d/.JustFile", "myjustfile", "justfile.bak", "d/.just"]
    for name in samples:
        assert bool(files.search(name)) == (discover.kind_by_name(name) not in (None, "markdown")), name


@pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit is a test extra")
def test_a_second_hook_entry_passes_extensionless_scripts(tmp_path):
    """The entry README-DECISIONS gives for scripts known only by their shebang: the same id
    under an alias, with identify's tags for the shells and Python launchlint reads and a name
    without a dot. The first entry passes neither `start` nor the LICENSE."""
    hooks = tmp_path / "hooks"  # this checkout as a hook repository at one commit, as try-repo makes it
    for part in ("lint", "rules"):
        shutil.copytree(REPO / part, hooks / part, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy(REPO / name, hooks / name)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=hooks, check=True)
    subprocess.run([*git, "add", "."], cwd=hooks, check=True)
    subprocess.run([*git, "commit", "-qm", "hooks"], cwd=hooks, check=True)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, capture_output=True, text=True, check=True).stdout.strip()
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "job.sbatch").write_text(SBATCH)
    (repo / "start").write_text("#!/usr/bin/env bash\npython -u train.py | tee run.log\n")
    (repo / "start").chmod(0o755)
    (repo / "LICENSE").write_text('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND (EXPRESS OR IMPLIED)\n')
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: launchlint\n"
        "      - id: launchlint\n        alias: launchlint-scripts\n        name: launchlint (scripts without an extension)\n"
        "        types_or: [ash, bash, dash, ksh, sh, zsh, python]\n        files: '(^|/)[^/.]+$'\n"
    )
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    run = subprocess.run(
        ["pre-commit", "run", "--all-files", "--verbose"], cwd=repo, capture_output=True, text=True, timeout=600, env=env
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "job.sbatch:2:9: LL109" in run.stdout and "start:2:1: LL105" in run.stdout, run.stdout
    assert "LL001" not in run.stdout and run.stdout.count("LL105") == 1, run.stdout
    alone = subprocess.run(
        ["pre-commit", "run", "launchlint-scripts", "--files", "start", "job.sbatch", "LICENSE"],
        cwd=repo, capture_output=True, text=True, timeout=600, env=env,
    )
    assert "start:2:1: LL105" in alone.stdout and "LL109" not in alone.stdout, alone.stdout


def test_exclude_and_extend_select_on_the_command_line(tmp_path):
    make(tmp_path, {**STARVED, "vendor/x.sh": "set -o pipefail\nbash y.sh | tee y.log\n", "vendor/y.sh": "exec > z.log\n"})
    assert codes(launchlint("--format", "json", "--exclude", "vendor/", ".", cwd=tmp_path)) == [("LL102", "job.sh", 2)]
    (tmp_path / "run.sh").write_text("python -u t.py  # launchlint: disable=LL102\n")
    narrow = launchlint("--format", "json", "--select", "LL101", "--extend-select", "LL002", ".", cwd=tmp_path)
    assert codes(narrow) == [("LL002", "run.sh", 1)]


def test_repeated_select_ignore_and_extend_select_add_up(tmp_path):
    """As in ruff: `--ignore LL102 --ignore LL105` ignores both, not only the last one."""
    make(tmp_path, {**STARVED, "r.sh": "python t.py 2>&1 | tee a.log\n"})
    found = lambda *args: sorted({f["code"] for f in json.loads(launchlint("--format", "json", *args, ".", cwd=tmp_path).stdout)})  # noqa: E731
    assert found() == ["LL102", "LL105", "LL106"]
    ignored = launchlint("--ignore", "LL102", "--ignore", "LL105,LL106", ".", cwd=tmp_path)
    assert ignored.returncode == 0 and "0 findings" in ignored.stdout
    assert found("--select", "LL102", "--select", "LL105") == ["LL102", "LL105"]
    assert found("--select", "LL101", "--extend-select", "LL102", "--extend-select", "LL106") == ["LL102", "LL106"]
    bad = launchlint("--ignore", "LL999", "--ignore", "LL102", ".", cwd=tmp_path)  # every value is checked
    assert bad.returncode == 2 and "unknown rule code 'LL999' in --ignore" in bad.stderr
