"""The YAML front end: shell in workflows and Compose files, at its real line and column."""

from __future__ import annotations

import time

import pytest
from launchlint.front.yamldoc import MAX_NESTING, parse_yaml
from launchlint.model import LineIndex
from launchlint.shellfacts import PIPE, SUBSHELL

WORKFLOW = ".github/workflows/train.yml"


def facts(text: str, path: str = WORKFLOW):
    return parse_yaml(path, text, LineIndex(text))


def commands(text: str, path: str = WORKFLOW):
    shell = facts(text, path).shell
    return shell.effective_commands() if shell else []


def one(text: str, name: str, path: str = WORKFLOW):
    found = [c for c in commands(text, path) if c.name == name]
    assert len(found) == 1, [c.words for c in found]
    return found[0]


def where(thing) -> tuple[int, int]:
    return thing.location.line, thing.location.column


def spot(text: str, needle: str) -> tuple[int, int]:
    """1-based (line, column) of the first `needle` in the YAML source itself."""
    return LineIndex(text).position(text.index(needle))


def steps(*lines: str) -> str:
    return "on: push\njobs:\n  train:\n    runs-on: ubuntu-latest\n    steps:\n" + "".join(
        f"      {line}\n" for line in lines
    )


# --- positions: every scalar style points at the file ------------------------------------------

STYLES = {  # continuation lines are indented past the step's `run` key
    "literal": "run: |\n    echo start\n    python t.py --lr 3 | tee x.log",
    "literal-strip": "run: |-\n    echo start\n\n    python t.py | tee x.log",
    "literal-indicator": "run: |2  # keeps two spaces\n      python t.py | tee x.log",
    "folded": "run: >\n    echo start &&\n    python t.py\n    --lr 3 | tee x.log",
    "plain": "run: python t.py | tee x.log",
    "plain-multiline": "run: echo start &&\n    python t.py | tee x.log",
    "double-quoted": 'run: "echo \\"go\\" \\t&& python t.py | tee x.log"',
    "double-quoted-continued": 'run: "echo go && \\\n    python t.py | tee x.log"',
    "single-quoted": "run: 'echo ''go'' && python t.py | tee x.log'",
    "expression-before": "run: echo ${{ matrix.x }} && python t.py | tee x.log",
}


@pytest.mark.parametrize("style", STYLES)
def test_command_and_words_at_their_file_position(style):
    text = steps(*("- " + STYLES[style]).split("\n"))
    python = one(text, "python")
    assert where(python) == spot(text, "python t.py")
    assert where(python.words[1]) == spot(text, "t.py")
    assert python.words[1].value == "t.py"
    tee = one(text, "tee")
    assert where(tee) == spot(text, "tee x.log")
    assert python.stdout.kind == PIPE


def test_literal_block_second_line_and_more_indented_continuation():
    text = steps("- run: |", "    echo start", "    python t.py \\", "      --lr 3 | tee x.log")
    python = one(text, "python")
    assert where(python) == (8, 11)
    assert [w.value for w in python.words] == ["python", "t.py", "--lr", "3"]
    assert where(python.words[2]) == (9, 13)


def test_folded_block_joins_lines_but_words_keep_their_lines():
    text = steps("- run: >", "    python t.py", "    --lr 3", "", "    echo done")
    python = one(text, "python")
    assert [w.value for w in python.words] == ["python", "t.py", "--lr", "3"]
    assert where(python.words[2]) == (8, 11)
    assert where(one(text, "echo")) == (10, 11)


def test_expression_becomes_an_unknown_word_of_the_same_length():
    text = steps(
        "- run: CUDA_VISIBLE_DEVICES=${{ matrix.gpus }} python t.py ${{ inputs.args }} --x"
    )
    python = one(text, "python")
    assert where(python) == spot(text, "CUDA")  # a command starts at its prefix assignments
    assert where(python.words[0]) == spot(text, "python")
    assert python.words[2].value is None
    assert where(python.words[3]) == spot(text, "--x")
    assert python.env_value("CUDA_VISIBLE_DEVICES").value is None


def test_crlf_and_unicode_keep_columns():
    text = steps("- run: |", "    echo é😀 | tee a.log", "    python t.py").replace("\n", "\r\n")
    assert where(one(text, "tee")) == spot(text, "tee")
    assert where(one(text, "python")) == spot(text, "python")


def test_byte_order_mark_is_not_a_column():
    text = "\ufeff" + steps("- run: python t.py")
    assert where(one(text, "python")) == spot(text, "python")


def test_syntax_error_in_a_run_block_is_reported_at_its_line():
    text = steps("- run: |", "    echo ok", "    python t.py )")
    errors = facts(text).shell.parse_errors
    assert [(loc.line, loc.column) for loc, _ in errors] == [spot(text, ")")]


# --- GitHub Actions shells ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "shell,pipefail",
    [
        (None, False),  # the default is `bash -e {0}`
        ("bash", True),  # `bash --noprofile --norc -eo pipefail {0}`
        ("sh", False),
        ("bash -e {0}", False),
        ("bash -euo pipefail {0}", True),
        ("/usr/bin/bash --noprofile -o pipefail {0}", True),
        ("bash -e +o pipefail {0}", False),  # read as bash reads its options (shellfacts.shell_args)
    ],
)
def test_step_shell_decides_pipefail(shell, pipefail):
    lines = ["- run: python t.py | tee x.log"] + ([f"  shell: {shell}"] if shell else [])
    assert one(steps(*lines), "python").pipefail is pipefail


def test_defaults_run_shell_of_workflow_and_job():
    text = (
        "defaults:\n  run:\n    shell: bash\n"
        "jobs:\n"
        "  a:\n    steps:\n      - run: python a.py | tee a.log\n"
        "  b:\n    defaults: {run: {shell: 'bash -e {0}'}}\n"
        "    steps:\n      - run: python b.py | tee b.log\n"
        "      - run: python c.py | tee c.log\n        shell: bash\n"
    )
    found = {c.words[1].value: c.pipefail for c in commands(text) if c.name == "python"}
    assert found == {"a.py": True, "b.py": False, "c.py": True}


def test_working_directory_of_step_job_and_workflow_is_the_shells_pwd():
    text = (
        "defaults:\n  run:\n    working-directory: tools\n"
        "jobs:\n"
        "  a:\n    steps:\n      - run: python a.py | tee $PWD/a.log\n"
        "      - run: python b.py | tee $PWD/b.log\n        working-directory: ./examples/gpt/\n"
        "  b:\n    defaults: {run: {working-directory: '${{ matrix.dir }}'}}\n"
        "    steps:\n      - run: python c.py | tee $PWD/c.log\n"
    )
    found = {c.words[1].value: c.environment["PWD"].value for c in commands(text) if c.name == "python"}
    assert found == {"a.py": "tools", "b.py": "./examples/gpt/", "c.py": None}  # an expression: unknown
    assert [c.words[1].value for c in commands(text) if c.name == "tee"] == ["tools/a.log", "./examples/gpt//b.log", None]
    composite = "runs:\n  using: composite\n  steps:\n    - run: python d.py | tee $PWD/d.log\n      shell: bash\n"
    assert [c.environment.get("PWD") for c in commands(composite, "action.yml")] == [None, None]


@pytest.mark.parametrize("shell", ["pwsh", "powershell", "python", "cmd", "python {0}"])
def test_steps_in_other_languages_are_skipped(shell):
    text = steps("- run: python t.py | tee x.log", f"  shell: {shell}", "- run: echo kept")
    assert [c.name for c in commands(text)] == ["echo"]


def test_windows_runner_defaults_to_pwsh():
    text = (
        "jobs:\n  w:\n    runs-on: windows-latest\n    steps:\n"
        "      - run: Get-ChildItem | Select-Object Name\n"
        "      - run: python t.py | tee x.log\n        shell: bash\n"
    )
    assert [c.name for c in commands(text)] == ["python", "tee"]


def test_a_matrix_of_systems_runs_its_windows_only_steps_in_pwsh():
    # omnipose's build.yml: `runs-on: ${{ matrix.os }}`, a step `if: runner.os == 'Windows'`
    text = (
        "jobs:\n  b:\n    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n"
        "        os: [ubuntu-latest, windows-latest]\n    steps:\n"
        "      - run: if (Test-Path r.txt) { pip install -r r.txt }\n        if: runner.os == 'Windows'\n"
        "      - run: Get-ChildItem\n        if: startsWith(matrix.os, 'windows') && github.event_name == 'push'\n"
        "      - run: python t.py | tee x.log\n        if: runner.os != 'Windows'\n"
        "      - run: python u.py\n        if: runner.os == 'Windows' || runner.os == 'Linux'\n"
        "      - run: python v.py\n        if: runner.os == 'Windows'\n        shell: bash\n"
    )
    assert [c.name for c in commands(text)] == ["python", "tee", "python", "python"]


def test_a_matrix_of_windows_runners_defaults_to_pwsh_unless_the_defaults_name_a_shell():
    windows = "jobs:\n  w:\n    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [windows-2022]\n"
    windows += "        include:\n          - os: windows-latest\n"
    assert commands(windows + "    steps:\n      - run: Get-ChildItem | Select-Object Name\n") == []
    mixed = windows.replace("include:\n          - os: windows-latest", "include:\n          - os: ubuntu-latest")
    assert [c.name for c in commands(mixed + "    steps:\n      - run: echo a\n")] == ["echo"]
    named = windows + "    defaults:\n      run:\n        shell: bash\n    steps:\n      - run: echo b\n        if: runner.os == 'Windows'\n"
    assert [c.name for c in commands(named)] == ["echo"]


def test_env_of_workflow_job_and_step():
    text = (
        "env:\n  LEVEL: workflow\n  TOP: 1\n"
        "jobs:\n  train:\n    env:\n      LEVEL: job\n    steps:\n"
        "      - run: python t.py \"$LEVEL\" \"$TOKEN\"\n        env:\n          PYTHONUNBUFFERED: 1\n          LEVEL: step\n"
        "          TOKEN: ${{ secrets.TOKEN }}\n"
        "      - run: python u.py \"$LEVEL\"\n"
    )
    t, u = commands(text)
    assert t.has_env("PYTHONUNBUFFERED") and t.has_env("TOP") and t.has_env("TOKEN")
    assert t.words[2].value == "step"
    assert t.words[3].value is None
    assert not u.has_env("PYTHONUNBUFFERED")
    assert u.words[2].value == "job"


def test_env_reaches_a_nested_bash_c():
    text = steps("- run: bash -c 'python t.py | tee x.log'", "  env: {PYTHONUNBUFFERED: '1'}")
    assert one(text, "python").has_env("PYTHONUNBUFFERED")


def test_composite_action_steps():
    text = (
        "name: train\nruns:\n  using: composite\n  steps:\n"
        "    - run: python t.py | tee x.log\n      shell: bash\n"
    )
    python = one(text, "python", "action.yml")
    assert python.pipefail is True
    assert where(python) == spot(text, "python")


def test_steps_shared_through_an_alias_are_read_once():
    text = "jobs:\n  a:\n    steps: &steps\n      - run: python t.py\n  b:\n    steps: *steps\n"
    assert len(commands(text)) == 1


# --- Compose -----------------------------------------------------------------------------------


def test_compose_string_command():
    text = "services:\n  train:\n    image: x\n    command: python t.py --lr 3\n"
    python = one(text, "python", "docker-compose.yml")
    assert where(python) == spot(text, "python")
    assert [w.value for w in python.words] == ["python", "t.py", "--lr", "3"]


def test_a_container_command_runs_in_its_image_a_workflow_step_in_the_checkout():
    compose = "services:\n  trainer:\n    image: t\n    command: python train.py\n"
    assert facts(compose, "compose.yaml").shell.in_image is True
    assert facts(steps("- run: python train.py")).shell.in_image is False


def test_compose_list_command_through_bash_c():
    text = 'services:\n  train:\n    command: ["bash", "-c", "python t.py | tee /logs/x.log"]\n'
    python = one(text, "python", "compose.yaml")
    assert where(python) == spot(text, "python")
    assert where(python.words[1]) == spot(text, "t.py")
    assert python.stdout.kind == PIPE
    tee = one(text, "tee", "compose.yaml")
    assert tee.words[1].value == "/logs/x.log"
    assert where(tee.words[1]) == spot(text, "/logs/x.log")


def test_compose_list_items_keep_quotes_and_spaces():
    text = (
        "services:\n  s:\n    command:\n      - python\n      - it's here.py\n      - '--a=b c'\n"
    )
    python = one(text, "python", "compose.yaml")
    assert [w.value for w in python.words] == ["python", "it's here.py", "--a=b c"]
    assert where(python.words[1]) == spot(text, "it's")


def test_a_flow_list_items_span_ends_at_its_last_character_not_the_comma():
    text = "services:\n  s:\n    command: [python, t.py, --k6, \"1\", '2']\n"
    words = one(text, "python", "compose.yaml").words
    spans = [(w.location.column, w.location.end_column) for w in words[2:]]
    assert spans == [(spot(text, "--k6")[1], spot(text, ", \"1")[1]), (spot(text, '"1"')[1], spot(text, ", '2")[1]),
                     (spot(text, "'2'")[1], spot(text, "]")[1])]  # end columns are exclusive


def test_compose_entrypoint_then_command():
    text = (
        "services:\n  train:\n    entrypoint: [/bin/bash, -c]\n"
        "    command:\n      - |\n        python t.py 2>&1 | tee $$LOGS/x.log\n"
    )
    python = one(text, "python", "compose.yaml")
    assert where(python) == spot(text, "python")
    assert one(text, "tee", "compose.yaml").words[1].template == "$LOGS/x.log"


@pytest.mark.parametrize(
    "environment",
    [
        "    environment:\n      - PYTHONUNBUFFERED=1\n      - HOST_VAR\n",
        "    environment:\n      PYTHONUNBUFFERED: 1\n      HOST_VAR:\n",
    ],
    ids=["list", "map"],
)
def test_compose_environment(environment):
    text = 'services:\n  train:\n    command: python t.py "$PYTHONUNBUFFERED" "$HOST_VAR"\n' + environment
    python = one(text, "python", "compose.yaml")
    assert python.has_env("PYTHONUNBUFFERED") and python.words[2].value == "1"
    assert python.has_env("HOST_VAR") and python.words[3].value is None


def test_compose_environment_through_a_merge_key():
    text = (
        "x-common: &common\n  environment:\n    PYTHONUNBUFFERED: '1'\n"
        "services:\n  train:\n    <<: *common\n    command: python t.py\n"
    )
    assert one(text, "python", "compose.yaml").has_env("PYTHONUNBUFFERED")


def test_other_yaml_has_no_shell():
    assert facts("lr: 3\nlog_file: logs/x.log\n", "config.yaml").shell is None


# --- invalid and hostile files -----------------------------------------------------------------


def test_invalid_yaml_is_one_error_at_its_line():
    text = "jobs:\n  a:\n    steps: [\n      run: x\n  b: 1\n"
    errors = facts(text).errors
    assert len(errors) == 1
    location, message = errors[0]
    assert location.line == 5 and "\n" not in message and message


def test_documents_before_an_error_are_still_read():
    text = "jobs: {a: {steps: [{run: python t.py}]}}\n---\nkey: *undefined\n"
    result = facts(text)
    assert [c.name for c in result.shell.commands] == ["python"]
    [(location, message)] = result.errors
    assert location.line == 3 and message == "found undefined alias 'undefined'"  # named, as the Python loader names it


def test_an_anchor_defined_again_is_no_error_and_aliases_name_the_latest():
    # YAML lets an anchor be reused (GitLab reads such a file); PyYAML alone refuses it.
    text = (
        "jobs: {a: {steps: [{run: echo setup}]}}\n---\n"
        "jobs:\n  a:\n    steps:\n      - run: &s echo hi\n      - run: *s\n"
        "      - run: &s python t.py | tee x.log\n      - run: *s\n"
    )
    result = facts(text)
    assert result.errors == []
    assert [c.name for c in result.shell.commands] == ["echo", "echo", "python", "tee"]
    assert where(one(text, "python")) == spot(text, "python")


def test_an_error_after_a_redefined_anchor_is_still_one_error_at_its_line():
    text = "a: &s 1\nb: &s 2\nc: *s\nd: *nowhere\n"
    [(location, message)] = facts(text).errors
    assert location.line == 4 and message == "found undefined alias 'nowhere'"


def test_an_undefined_alias_in_a_flow_sequence_is_named_to_its_end():
    [(location, message)] = facts("steps: [*setup, {run: x}]\n").errors
    assert (location.line, location.column, message) == (1, 9, "found undefined alias 'setup'")


def test_alias_bomb_is_cheap():
    lines = ['a0: &a0 {run: "python t.py | tee x.log"}']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    lines += ["jobs:", "  j: {steps: *a9, env: *a9}", "  k: {steps: [*a0, *a0], <<: [*a9, *a9]}"]
    lines += ["services:", "  s: {command: *a9, environment: *a9, <<: *a8}"]
    text = "\n".join(lines) + "\n"
    start = time.perf_counter()
    result = facts(text)
    assert time.perf_counter() - start < 1
    assert result.errors == []
    assert [c.name for c in result.shell.commands] == ["python", "tee"]


@pytest.mark.parametrize("text", ["[" * 50000 + "]" * 50000, "- " * 50000 + "x\n"])
def test_deep_nesting_is_an_error_not_a_crash(text):
    start = time.perf_counter()
    errors = facts(text).errors
    assert time.perf_counter() - start < 1
    assert len(errors) == 1 and "nesting" in errors[0][1]


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("[" * MAX_NESTING + "]" * MAX_NESTING, False),
        ("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1), True),
        ("".join(" " * i + f"k{i}:\n" for i in range(MAX_NESTING)) + " " * MAX_NESTING + "run: x\n", True),
        ("".join(f"- run: echo {i}\n" for i in range(3 * MAX_NESTING)), False),  # many indicators, shallow
    ],
)
def test_nesting_is_refused_one_level_past_the_limit(text, refused):
    assert any("nesting" in message for _, message in facts(text).errors) == refused


def test_python_tags_build_nothing(tmp_path):
    marker = tmp_path / "pwned"
    text = (
        f'x: !!python/object/apply:os.system ["touch {marker}"]\n'
        f'jobs: {{a: {{steps: [{{run: !!python/object/apply:os.system ["touch {marker}"]}}]}}}}\n'
    )
    result = facts(text)
    assert result.errors == [] and result.shell is None
    assert not marker.exists()


def test_control_character_is_an_error_not_an_exception():
    errors = facts("a: 1\nb: \x01\n").errors
    assert [(loc.line, loc.column) for loc, _ in errors] == [(2, 4)]


# --- GitLab CI ---------------------------------------------------------------------------------

GITLAB = ".gitlab-ci.yml"


def test_gitlab_before_script_and_script_run_in_one_shell_after_script_in_another():
    text = (
        "train:\n  before_script:\n    - export PYTHONUNBUFFERED=1\n    - cd examples\n"
        "  script:\n    - python t.py | tee x.log\n  after_script:\n    - python u.py | tee y.log\n"
    )
    t, u = [c for c in commands(text, GITLAB) if c.name == "python"]
    assert where(t) == spot(text, "python t.py") and where(u) == spot(text, "python u.py")
    assert t.has_env("PYTHONUNBUFFERED") and not u.has_env("PYTHONUNBUFFERED")
    assert t.pipefail is True and u.pipefail is True  # the runner's bash sets it


def test_gitlab_default_before_script_extends_and_variables():
    text = (
        "variables:\n  TOP: 1\n  DIR: $CI_PROJECT_DIR/x\n"
        "default:\n  before_script: [echo default]\n"
        ".base:\n  before_script: [echo base]\n  variables:\n    LEVEL: base\n"
        "train:\n  extends: .base\n  variables:\n    LEVEL: {value: job, description: d}\n"
        "  script: [python t.py \"$LEVEL\" \"$DIR\"]\n"
        "lint:\n  stage: test\n  script: [python u.py]\n"
    )
    found = commands(text, GITLAB)
    assert [(c.name, c.words[1].value) for c in found] == [
        ("echo", "base"), ("python", "t.py"), ("echo", "default"), ("python", "u.py")
    ]  # the hidden `.base` is read in the job that extends it, not on its own
    t = found[1]
    assert t.has_env("TOP") and [w.value for w in t.words[2:]] == ["job", None]


def test_gitlab_reference_tags_and_nested_lists():
    text = (
        ".setup:\n  script:\n    - &install pip install -e .\n    - [echo one, echo two]\n"
        "train:\n  stage: train\n  script:\n    - !reference [.setup, script]\n    - python t.py\n"
    )
    assert [c.name for c in commands(text, "ci/train.yml")] == ["pip", "echo", "echo", "python"]


def test_gitlab_jobs_that_only_extend_run_their_templates_script_with_their_variables():
    text = (
        ".base:\n  script: [python $ENTRY | tee x.log]\n.gpu:\n  extends: .base\n  tags: [gpu]\n"
        "a:\n  extends: .gpu\n  variables: {ENTRY: a.py, PYTHONUNBUFFERED: '1'}\n"
        "b:\n  extends: .gpu\n  variables: {ENTRY: b.py}\n"
    )
    found = [c for c in commands(text, "ci/jobs.yml") if c.name == "python"]  # `extends:` says it is GitLab CI
    assert [(c.words[1].value, c.has_env("PYTHONUNBUFFERED")) for c in found] == [("a.py", True), ("b.py", False)]


def test_gitlab_inherit_and_variables_by_reference():
    text = (
        "variables: {PYTHONUNBUFFERED: '1'}\ndefault:\n  before_script: [export MODE=fast]\n"
        ".vars:\n  variables: {LEVEL: referenced}\n"
        "a:\n  inherit: {default: false, variables: false}\n  variables: !reference [.vars, variables]\n"
        "  script: [python a.py \"$MODE\" \"$LEVEL\"]\n"
        "b:\n  inherit: {variables: [OTHER]}\n  script: [python b.py \"$MODE\"]\n"
    )
    a, b = [c for c in commands(text, GITLAB) if c.name == "python"]
    assert [w.value for w in a.words[2:]] == [None, "referenced"] and not a.has_env("PYTHONUNBUFFERED")
    assert b.words[2].value == "fast" and not b.has_env("PYTHONUNBUFFERED")


def test_gitlab_inputs_are_unknown_words_of_the_same_length():
    text = 'train:\n  script:\n    - python t.py $[[ inputs.flags ]] | tee "l/$[[ inputs.run ]].log"\n    - python u.py\n'
    t, u = [c for c in commands(text, GITLAB) if c.name == "python"]
    assert t.words[2].value is None and where(u) == spot(text, "python u.py")


@pytest.mark.parametrize("prefix", ["&run ", "!!str ", "&a !!str ", "!custom "])
def test_a_scalar_with_an_anchor_or_a_tag_keeps_its_columns(prefix):
    second = prefix.replace("&", "&other_")  # an anchor is named once
    text = f"train:\n  script:\n    - {prefix}python t.py --lr 3 | tee x.log\n    - {second}\"python u.py\"\n"
    t, u = [c for c in commands(text, GITLAB) if c.name == "python"]
    assert where(t) == spot(text, "python t.py") and where(t.words[2]) == spot(text, "--lr")
    assert where(u) == spot(text, "python u.py")


def test_gitlab_large_files_are_read_whole():
    default = "default:\n  before_script:\n" + "".join(f"    - echo {i}\n" for i in range(10))
    jobs = "".join(f"j{i}:\n  script:\n" + "".join(f"    - echo {i} {k}\n" for k in range(6)) for i in range(600))
    text = default + jobs + "last:\n  script: [python last.py]\n"
    assert one(text, "python", GITLAB).words[1].value == "last.py"


def test_other_yaml_lists_run_in_one_shell():
    text = "commands:\n  - set -o pipefail\n  - export PYTHONUNBUFFERED=1\n  - python t.py | tee d.log\n"
    python = one(text, "python", "dstack.yml")
    assert python.pipefail is True and python.has_env("PYTHONUNBUFFERED")
    assert where(python) == spot(text, "python")


def test_valohai_parameters_are_unknown_words_of_the_same_length():
    text = "- step:\n    name: train\n    command:\n      - python t.py {parameters} --seed {parameter:seed} | tee x.log\n"
    python = one(text, "python", "valohai.yaml")
    assert [w.value for w in python.words[2:5]] == [None, "--seed", None]
    assert where(python.words[3]) == spot(text, "--seed")


def test_a_script_key_outside_gitlab_ci_is_not_read():
    text = "train:\n  script: python t.py | tee x.log\n"
    assert commands(text, "configs/exp.yaml") == []
    assert [c.name for c in commands(text, ".gitlab/ci/train.yml")] == ["python", "tee"]


def test_gitlab_alias_bomb_is_cheap():
    lines = ["a0: &a0 [python t.py]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    lines += [f"j{i}: {{script: *a9, before_script: *a8}}" for i in range(50)]
    text = "\n".join(lines) + "\n"
    start = time.perf_counter()
    result = facts(text, GITLAB)
    assert time.perf_counter() - start < 5
    assert result.errors == [] and result.shell is not None


# --- Azure Pipelines ---------------------------------------------------------------------------

AZURE = "azure-pipelines.yml"


def test_azure_bash_and_script_steps_run_bash_without_pipefail_at_their_file_position():
    text = (
        "trigger: none\npool:\n  vmImage: ubuntu-latest\nsteps:\n"
        "- bash: |\n    echo start\n    python t.py --lr 3 2>&1 | tee t.log\n  displayName: train\n"
        "- script: python u.py | tee u.log\n"
        "- task: Bash@3\n  inputs:\n    targetType: inline\n    script: python v.py | tee v.log\n"
        "- task: CmdLine@2\n  inputs:\n    script: python w.py | tee w.log\n"
        "- pwsh: python x.py | Tee-Object x.log\n- powershell: python y.py\n- task: PythonScript@0\n  inputs: {script: print(1)}\n"
    )
    found = [c for c in commands(text, AZURE) if c.name == "python"]
    assert [c.words[1].value for c in found] == ["t.py", "u.py", "v.py", "w.py"]
    assert [where(c) for c in found] == [spot(text, f"python {n}.py") for n in "tuvw"]
    assert {c.pipefail for c in found} == {False}  # `bash <file>` and `bash --noprofile --norc <file>`


def test_azure_steps_of_stages_jobs_deployments_and_inserted_by_expressions():
    text = (
        "stages:\n- stage: build\n  jobs:\n  - job: a\n    steps:\n    - bash: python a.py\n"
        "  - deployment: d\n    environment: prod\n    strategy:\n      runOnce:\n        deploy:\n"
        "          steps:\n          - bash: python d.py\n        on:\n          failure:\n            steps:\n"
        "            - bash: python f.py\n"
        "- template: stages.yml\n"
        "- stage: test\n  jobs:\n  - job:\n    steps:\n    - ${{ if eq(parameters.gpu, true) }}:\n"
        "      - bash: python g.py\n    - ${{ else }}:\n      - bash: python c.py\n    - template: steps.yml\n"
    )
    assert [c.words[1].value for c in commands(text, "ci/build.yml")] == ["a.py", "d.py", "f.py", "g.py", "c.py"]
    template = "parameters:\n- name: gpu\n  type: boolean\nsteps:\n- script: python t.py ${{ parameters.gpu }}\n"
    [python] = commands(template, ".azure-pipelines/templates/train.yml")
    assert python.words[2].value is None  # an expression: unknown


def test_azure_script_on_a_windows_image_is_cmd_and_bash_is_still_bash():
    text = (
        "pool:\n  vmImage: windows-latest\njobs:\n- job: w\n  steps:\n"
        "  - script: dir | findstr x\n  - bash: python w.py | tee w.log\n"
        "- job: l\n  pool: {vmImage: ubuntu-22.04}\n  steps:\n  - script: python l.py | tee l.log\n"
        "- job: s\n  pool: gpu-pool\n  steps:\n  - script: python s.py\n"
    )
    assert [c.words[1].value for c in commands(text, AZURE) if c.name == "python"] == ["w.py", "l.py", "s.py"]
    assert "dir" not in [c.name for c in commands(text, AZURE)]


def test_azure_macros_are_unknown_words_of_the_same_length_and_bash_command_substitutions_stay():
    text = (
        "variables:\n  config: a.yaml\nsteps:\n"
        "- bash: python $(Build.SourcesDirectory)/t.py -c $(config) --part $(PART) -j $(nproc) -o out/$(date) | tee l.log\n"
    )
    python = one(text, "python", AZURE)
    assert [w.value for w in python.words[1:5]] == [None, "-c", None, "--part"]
    assert where(python.words[4]) == spot(text, "--part")
    assert [c.name for c in commands(text, AZURE)] == ["nproc", "date", "python", "tee"]


def test_azure_variables_env_and_working_directory():
    text = (
        "variables:\n  python.version: '3.10'\n  MODE: top\n  OUT: $(Build.ArtifactStagingDirectory)\n"
        "stages:\n- stage: s\n  variables:\n  - name: MODE\n    value: stage\n  - group: secrets\n  jobs:\n"
        "  - job: j\n    strategy:\n      matrix:\n        one: {SEED: 1}\n        two: {SEED: 2}\n    steps:\n"
        '    - bash: python t.py "$MODE" "$PYTHON_VERSION" "$OUT" "$SEED" "$TOKEN" | tee $PWD/t.log\n'
        "      workingDirectory: examples\n      env:\n        TOKEN: $(token)\n        PYTHONUNBUFFERED: 1\n"
        "    - task: Bash@3\n      inputs:\n        targetType: INLINE\n        script: python u.py | tee $PWD/u.log\n"
        "        workingDirectory: $(Build.SourcesDirectory)/tools\n"
    )
    t, u = [c for c in commands(text, AZURE) if c.name == "python"]
    assert [w.value for w in t.words[2:]] == ["stage", "3.10", None, None, None]
    assert t.has_env("PYTHONUNBUFFERED") and not u.has_env("PYTHONUNBUFFERED")
    assert [c.words[1].value for c in commands(text, AZURE) if c.name == "tee"] == ["examples/t.log", None]


def test_only_azure_lists_make_an_azure_pipeline():
    github = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: python t.py\n        shell: bash\n"
    assert one(github, "python", "azure-pipelines.yml").pipefail is True  # a workflow, whatever its name
    gitlab = "stages: [test]\ntrain:\n  stage: test\n  script:\n    - python t.py | tee x.log\n"
    assert one(gitlab, "python", "ci/train.yml").pipefail is True  # GitLab's `stages:` is a list of names
    cloudbuild = "steps:\n- name: ubuntu\n  script: python t.py | tee x.log\n"  # a step named first: not Azure's
    assert commands(cloudbuild, "cloudbuild.yaml") == []


# --- Kubernetes --------------------------------------------------------------------------------

POD = """\
apiVersion: v1
kind: Pod
metadata: {name: train}
spec:
  initContainers:
    - name: prepare
      image: busybox
      command: [sh, -c, "mkdir -p /logs"]
  containers:
    - name: trainer
      image: trainer
      workingDir: /workspace
      env:
        - {name: LOGS, value: /logs}
        - {name: TOKEN, valueFrom: {secretKeyRef: {name: s, key: t}}}
      command: ["torchrun", "--nproc_per_node=8", "train.py"]
      args: ["--out", "$(LOGS)/run7", "--token=$(TOKEN)", "$$(LOGS)", "$(NOT_IN_ENV)"]
"""


def test_kubernetes_command_and_args_are_one_argv():
    torchrun = one(POD, "torchrun", "pod.yaml")
    values = [w.value for w in torchrun.words]
    assert values[:5] == ["torchrun", "--nproc_per_node=8", "train.py", "--out", "/logs/run7"]
    assert values[5] is None  # a secret: unknown, not the text `$(TOKEN)`
    assert values[6:] == ["$(LOGS)", "$(NOT_IN_ENV)"]  # `$$` escapes; an unknown name stays
    assert where(torchrun.words[4]) == spot(POD, "\"$(LOGS)/run7")  # the item, quote included
    assert where(torchrun.words[7]) == spot(POD, '"$(NOT_IN_ENV)')
    assert [c.name for c in commands(POD, "pod.yaml")] == ["mkdir", "torchrun"]


def test_kubernetes_env_and_working_directory():
    torchrun = one(POD, "torchrun", "pod.yaml")
    assert torchrun.has_env("LOGS") and torchrun.has_env("TOKEN")
    assert torchrun.env_value("LOGS") is None  # the container's env, not a prefix assignment
    text = POD.replace('["torchrun", "--nproc_per_node=8", "train.py"]', '["bash", "-c"]').replace(
        '["--out", "$(LOGS)/run7", "--token=$(TOKEN)", "$$(LOGS)", "$(NOT_IN_ENV)"]',
        '["python t.py | tee $PWD/x.log"]',
    )
    assert one(text, "tee", "pod.yaml").words[1].value == "/workspace/x.log"


@pytest.mark.parametrize(
    "kind,path",
    [
        ("Job", ["spec", "template", "spec"]),
        ("Deployment", ["spec", "template", "spec"]),
        ("StatefulSet", ["spec", "template", "spec"]),
        ("CronJob", ["spec", "jobTemplate", "spec", "template", "spec"]),
        ("PyTorchJob", ["spec", "pytorchReplicaSpecs", "Worker", "template", "spec"]),
    ],
)
def test_kubernetes_pod_specs_wherever_the_kind_nests_them(kind, path):
    lines = ["apiVersion: v1", "kind: Service", "---", "apiVersion: x/v1", f"kind: {kind}"]
    for depth, key in enumerate(path):
        lines.append("  " * depth + f"{key}:")
    indent = "  " * len(path)
    lines += [f"{indent}containers:", f"{indent}  - name: c", f"{indent}    command: [python, t.py]"]
    text = "\n".join(lines) + "\n"
    assert where(one(text, "python", "k8s.yaml")) == spot(text, "python")


def test_containers_outside_a_kubernetes_resource_are_not_read():
    assert commands("spec:\n  containers:\n    - command: [python, t.py]\n", "values.yaml") == []


# --- log paths in configs ----------------------------------------------------------------------


def test_log_settings_of_a_config_at_any_depth():
    text = (
        "trainer:\n  logging_dir: runs/exp7\n  output_dir: 'ckpt/exp7'\n"
        "log_file: logs/exp7.log\nstdout: true\nsave_dir: ${oc.env:OUT}/x\nlog_dir: ''\n"
    )
    found = [(s.key, s.path.value, where(s.path), s.is_directory) for s in facts(text).log_settings]
    assert found == [
        ("logging_dir", "runs/exp7", spot(text, "runs/exp7"), True),
        ("output_dir", "ckpt/exp7", spot(text, "ckpt/exp7"), True),
        ("log_file", "logs/exp7.log", spot(text, "logs/exp7.log"), False),
    ]


@pytest.mark.parametrize(
    "text,blank",
    [
        ("", True),
        ("# a comment\n\n  # indented, after a blank line\r\n", True),
        ("---\n", False),  # an empty document is a document
        ("key: value\n", False),
        ("# x\n\u00a0key: value\n", False),  # a no-break space is not YAML blank: the parser says what it is
        ("\t- item\n", False),
    ],
)
def test_only_a_text_of_comments_and_blank_lines_skips_the_parser(text, blank):
    from launchlint.front import yaml_is_blank
    from launchlint.parsing import parse_file

    assert yaml_is_blank(text) is blank
    facts = parse_file("conf.yaml", "yaml", text)
    assert (facts.shell, facts.errors, facts.log_settings) == (None, [], []) or not blank


def test_stand_ins_are_drawn_from_the_text_they_stand_for():
    from launchlint.front.textmap import opaque, restore

    expression = "${{ matrix.name }}"
    stand_in = opaque(expression)
    assert len(stand_in) == len(expression) and stand_in.startswith("${_") and stand_in.endswith("}")
    assert opaque(expression) == stand_in  # the same text, the same stand-in (in any process)
    assert opaque("${{ matrix.path }}") != stand_in
    assert opaque("${{x}}") == "${___}" and opaque("$@") == "$_"  # too short to name: left as they are
    assert restore(f"goes to logs/{stand_in}.log", {stand_in: expression}) == "goes to logs/${{ matrix.name }}.log"
    assert restore(f"goes to {stand_in}", {}) == f"goes to {stand_in}"  # unknown: left alone


def test_messages_quote_the_expression_not_its_stand_in(tmp_path):
    from launchlint.engine import Options, run

    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    workflow = tmp_path / ".github" / "workflows" / "ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(steps("- run: python t.py > logs/${{ matrix.name }}.log"))
    [finding] = run([str(tmp_path)], Options(select=frozenset({"LL106"}))).findings
    assert (finding.code, finding.location.path, finding.location.line) == ("LL106", ".github/workflows/ci.yml", 6)
    assert [r.message for r in finding.related] == ["its stdout goes to logs/${{ matrix.name }}.log here"]


def test_skypilot_setup_is_read_first_in_a_shell_of_its_own_with_the_tasks_environment():
    text = "run: |\n  python t.py | tee x.log\nenvs:\n  LR: 3e-4\nworkdir: ~/other\nsetup: |\n  cd src\n  pip install -e .\n"
    assert [c.name for c in commands(text, "sky.yaml")] == ["cd", "pip", "python", "tee"]
    pip, python = one(text, "pip", "sky.yaml"), one(text, "python", "sky.yaml")
    assert [b.kind for b in pip.blocks] == [SUBSHELL] and not python.blocks  # setup's `cd` ends with it
    assert {name: python.environment[name].value for name in ("PYTHONUNBUFFERED", "LR", "PWD")} == {
        "PYTHONUNBUFFERED": "1", "LR": "3e-4", "PWD": "~/other",
    }


@pytest.mark.parametrize(
    ("workdir", "pwd"),
    [("~/x/../tpu", "~/tpu"), ("/data/tpu", None), ("../tpu", None), ("$HOME/tpu", None), ("{url: u, ref: main}", None)],
)
def test_a_skypilot_workdir_elsewhere_is_where_its_shell_starts(workdir, pwd):
    python = one(f"workdir: {workdir}\nrun: python t.py\n", "python", "sky.yaml")
    assert python.environment["PWD"].value == pwd


@pytest.mark.parametrize("workdir", [".", "examples/app", "./app/", "null"])
def test_a_skypilot_workdir_in_the_project_sets_no_start(workdir):
    python = one(f"workdir: {workdir}\nrun: python t.py\n", "python", "sky.yaml")
    assert "PWD" not in python.environment


def test_a_document_with_a_key_no_skypilot_task_has_is_no_task():
    text = "image: pytorch\nenvs:\n  LR: '3'\nsetup: pip install -e .\nrun: python t.py | tee x.log\n"
    python = one(text, "python", "job.yaml")
    assert [c.name for c in commands(text, "job.yaml")] == ["python", "tee"] and not python.has_env("PYTHONUNBUFFERED")


def test_dstack_env_list_and_map():
    listed = one("type: task\nenv:\n  - A=1\n  - TOKEN\ncommands:\n  - python t.py\n", "python", ".dstack.yml")
    assert listed.environment["A"].value == "1" and listed.environment["TOKEN"].value is None  # the user's
    mapped = one("type: service\nenv:\n  A: 1\ncommands:\n  - python t.py\n", "python", "serve.dstack.yml")
    assert mapped.environment["A"].value == "1"
    other = one("type: fleet\nenv:\n  A: 1\ncommands:\n  - python t.py\n", "python", "fleet.dstack.yml")
    assert "A" not in other.environment
