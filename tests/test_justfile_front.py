"""The justfile front end: what just hands to the shell, at its real line and column."""

from __future__ import annotations

import pytest
from launchlint.front.justfile import originals, parse_justfile
from launchlint.front.textmap import opaque
from launchlint.model import LineIndex

from tests.conftest import imports_of_a_run
from tests.test_embedded import launchlint, project
from tests.test_embedded import where as finding_at


def script(text: str, path: str = "justfile"):
    return parse_justfile(path, text, LineIndex(text))


def commands(text: str):
    found = script(text)
    return found.effective_commands() if found else []


def words(text: str) -> list[list[str | None]]:
    return [[w.value for w in c.words] for c in commands(text)]


def spot(text: str, needle: str) -> tuple[int, int]:
    return LineIndex(text).position(text.index(needle))


def where(thing) -> tuple[int, int]:
    return thing.location.line, thing.location.column


def test_recipes_with_parameters_dependencies_comments_and_attributes():
    text = (
        "# build things\nset positional-arguments\n\n[group('ml')]\n[private]\n"
        "@train model epochs='3' *rest: (build model) && after # trailing\n"
        "    python t.py --model {{model}} --epochs {{epochs}} {{rest}}\n\n"
        "build name:\n\techo {{ name }}\nafter:\n  echo done\n"
    )
    python, echo, done = commands(text)
    assert [w.value for w in python.words] == ["python", "t.py", "--model", None, "--epochs", "3"]
    assert where(python.words[3]) == spot(text, "{{model}}")
    assert where(python.words[5]) == spot(text, "{{epochs}}")
    assert [w.value for w in echo.words] == ["echo", None]
    assert where(done) == spot(text, "echo done")


def test_variables_string_literals_joins_and_what_is_unknown():
    text = (
        "root := '/data'\nexport RUN := \"exp\\t7\"\nlog := root / RUN + '.log'\nlater := early\nearly := 'e'\n"
        "loop := loop\nhome := env_var('HOME')\ncmd := `date`\nchoice := if os() == 'linux' { 'a' } else { 'b' }\n"
        "run:\n    echo {{log}} {{later}} {{loop}} {{home}} {{cmd}} {{choice}} {{nowhere}} {{'lit'}}\n"
    )
    assert words(text) == [["echo", "/data/exp", "7.log", "e", None, None, None, None, None, "lit"]]  # a tab splits


def test_an_unknown_interpolation_keeps_the_columns_after_it_and_messages_show_it():
    text = "run:\n    python {{ justfile_directory() }}/t.py --after\n"
    [python] = commands(text)
    assert python.words[1].value is None
    assert where(python.words[2]) == spot(text, "--after")
    assert originals(text) == {opaque("{{ justfile_directory() }}"): "{{ justfile_directory() }}"}


def test_four_braces_are_a_literal_pair():
    text = "run:\n    echo '{{{{x}}' {{{{ y\n"
    assert words(text) == [["echo", "{{x}}", "{{", "y"]]
    [echo] = commands(text)
    assert where(echo.words[2]) == spot(text, "{{{{ y")


def test_prefixes_are_just_s_and_a_dash_line_s_status_is_not_read():
    text = "run:\n    @echo a\n    -python b.py | tee b.log\n    @-echo c\n    -@echo d\n    echo @e\n"
    found = script(text)
    assert [[w.value for w in c.words] for c in found.effective_commands()] == [
        ["echo", "a"], ["python", "b.py"], ["tee", "b.log"], ["echo", "c"], ["echo", "d"], ["echo", "@e"],
    ]
    assert where(found.effective_commands()[1]) == spot(text, "python")
    assert [first for first, _ in found.status_read] == [3, 4, 5]


def test_each_line_is_its_own_shell_and_a_continuation_joins_after_the_indentation():
    text = "run:\n    cd sub && LOG=x.log\n    echo $LOG\n    python t.py \\\n        --lr 3 \\\n      --seed 1\n    # a comment \\\n    echo next\n"
    cd, echo, python, nxt = commands(text)
    assert echo.words[1].value is None
    assert [w.value for w in python.words] == ["python", "t.py", "--lr", "3", "--seed", "1"]
    assert where(python.words[2]) == spot(text, "--lr")
    assert where(python.words[4]) == spot(text, "--seed")
    assert where(nxt) == spot(text, "echo next")


def test_a_shebang_recipe_is_one_script_of_its_interpreter():
    text = (
        "run:\n    #!/usr/bin/env bash\n    set -euo pipefail\n    LOG={{'x.log'}}\n\n    cd sub\n"
        "    python t.py | tee $LOG\npy:\n    #!/usr/bin/env python3\n    print('| tee')\n"
        "later:\n    #!/usr/bin/env -S bash -o pipefail\n    python t.py | tee y.log\n"
    )
    found = script(text)
    python, tee, python2, tee2 = [c for c in found.effective_commands() if c.name in ("python", "tee")]
    assert tee.words[1].value == "x.log"
    assert where(python) == spot(text, "python t.py | tee $LOG")
    assert python.pipefail is True and python2.pipefail is True
    assert [c.name for c in found.effective_commands()].count("print") == 0


def test_the_script_attribute_and_its_interpreter():
    text = (
        "set script-interpreter := ['bash', '-euo', 'pipefail']\n"
        "[script]\na:\n    X=1\n    python t.py | tee $X.log\n"
        "[script('sh', '-eu')]\nb:\n    python t.py | tee b.log\n"
        "[script('python3')]\nc:\n    echo not shell\n"
    )
    found = [c for c in commands(text) if c.name == "tee"]
    assert [(c.words[1].value, c.pipefail) for c in found] == [("1.log", True), ("b.log", False)]
    assert "echo" not in [c.name for c in commands(text)]


def test_set_shell_decides_pipefail_and_an_other_shell_is_not_read():
    recipe = "run:\n    python t.py | tee x.log\n"
    assert commands(recipe)[0].pipefail is False
    assert commands('set shell := ["bash", "-euo", "pipefail", "-c"]\n' + recipe)[0].pipefail is True
    assert commands("set shell := ['bash', '-uc']\n" + recipe)[0].pipefail is False
    assert commands("import 'common.just'\n" + recipe)[0].pipefail is True  # it may set `shell`
    assert commands('set shell := ["python3", "-c"]\n' + recipe) == []
    assert commands('set shell := ["pwsh", "-c"]\n' + "[script('bash')]\n" + recipe)[0].name == "python"


def test_a_parameter_s_default_is_its_callers_to_set():
    text = "train config='a.yaml' *ARGS:\n    python t.py --config {{config}} -v {{ARGS}}\nother:\n    python t.py --config a.yaml\n"
    found = script(text)
    train, other = found.effective_commands()
    assert [w.value for w in train.words] == ["python", "t.py", "--config", "a.yaml", "-v"]
    assert train.defaults == {"{{config}}", "{{ARGS}}"}
    assert train.word_defaults[train.words[3].location] == {"{{config}}"}
    assert other.defaults == frozenset()
    assert found.overridable == {"{{config}}", "{{ARGS}}"}


def test_exported_variables_and_parameters_reach_the_shell():
    text = "export LOGS := 'logs'\nplain := 'p'\nrun $RUN:\n    echo $LOGS $plain $RUN\n"
    assert words(text) == [["echo", "logs", None, None]]
    assert words("set export\n" + text)[0][:3] == ["echo", "logs", "p"]


def test_working_directory_starts_the_recipe_there():
    text = "[working-directory('sub')]\nrun:\n    python t.py\nhere:\n    python t.py\n"
    cd, python, here = commands(text)
    assert (cd.name, cd.words[-1].value) == ("cd", "sub")
    assert python.name == here.name == "python"


@pytest.mark.parametrize(
    "text",
    [
        "run:\n    echo a\n\techo b\n",  # spaces, then a tab: just refuses the file
        "run\n    echo a\n",  # no colon
        "x := (\n    'a'\n)\n",  # an expression over lines
        "run a=(b:\n    echo a\n",
        "run:\n    echo {{ unclosed\n",
        "run:\n    echo '\n",  # the shell's own error
        "\ufeff\r\nrun:\r\n    echo a\r\n",
    ],
)
def test_what_it_cannot_read_raises_nothing(text):
    script(text)


def test_a_recipe_indented_two_ways_is_not_read_but_the_others_are():
    text = "run:\n    echo a\n\techo b\nok:\n    echo c\n"
    assert words(text) == [["echo", "c"]]


def test_a_shell_syntax_error_in_a_recipe_line_is_an_ll001_at_its_place(tmp_path):
    root = project(tmp_path, {"justfile": "ok:\n    echo fine\nbroken:\n    echo $(oops\n"})
    assert [finding_at(f)[:3] for f in launchlint("--select", "LL001", ".", cwd=root)] == [("LL001", "justfile", 4)]


def test_discovery_reads_every_spelling_and_modules(tmp_path):
    train = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n"
    files = {
        "a/justfile": "run:\n    python ../train.py --lx 1\n",
        "b/Justfile": "run:\n    python ../train.py --lx 1\n",
        "c/.justfile": "run:\n    python ../train.py --lx 1\n",
        "d/JUSTFILE": "run:\n    python ../train.py --lx 1\n",
        "e/train.just": "run:\n    python ../train.py --lx 1\n",
        "train.py": train,
    }
    root = project(tmp_path, files)
    found = sorted(finding_at(f)[:3] for f in launchlint(".", cwd=root))
    assert found == [("LL301", p, 2) for p in ("a/justfile", "b/Justfile", "c/.justfile", "d/JUSTFILE", "e/train.just")]


def test_suppressions_at_the_end_of_the_line_and_above_it(tmp_path):
    text = (
        "run:\n    bash tools/gone.sh  # launchlint: disable=LL303\n"
        "other:\n    # launchlint: disable=LL303\n    bash tools/gone2.sh\n"
    )
    root = project(tmp_path, {"justfile": text, "tools/x.sh": "echo\n"})
    assert launchlint(".", cwd=root) == []
    (root / "justfile").write_text(text.replace("    # launchlint: disable=LL303\n", "").replace("  # launchlint: disable=LL303", ""))
    assert [finding_at(f)[:3] for f in launchlint(".", cwd=root)] == [("LL303", "justfile", 2), ("LL303", "justfile", 4)]


def test_fix_adds_u_to_a_literal_python_and_refuses_an_interpolated_one(tmp_path):
    text = "py := 'python'\nrun:\n    @python t.py | tee a.log\n    {{py}} t.py > b.log\n"
    root = project(tmp_path, {"justfile": text, "t.py": "print(1)\n"})
    before = sorted(finding_at(f)[:3] for f in launchlint("--select", "LL106", ".", cwd=root))
    assert before == [("LL106", "justfile", 3), ("LL106", "justfile", 4)]
    launchlint("--select", "LL106", "--fix", ".", cwd=root)
    assert (root / "justfile").read_text() == text.replace("@python t.py", "@python -u t.py")


def test_ll105_advises_the_shell_setting_or_the_recipe_s_own_pipefail(tmp_path):
    text = "run:\n    python t.py | tee a.log\nscript:\n    #!/usr/bin/env bash\n    python t.py | tee b.log\n"
    root = project(tmp_path, {"justfile": text, "t.py": "print(1)\n"})
    messages = [f["message"] for f in launchlint("--select", "LL105", ".", cwd=root)]
    assert 'set shell := ["bash", "-uo", "pipefail", "-c"]' in messages[0]
    assert "`set -o pipefail` at the start of the recipe" in messages[1]


def test_a_run_without_justfiles_does_not_import_the_justfile_front_end(tmp_path):
    (tmp_path / "job.sh").write_text("#!/bin/bash\npython t.py | tee x.log\n")
    (tmp_path / "Makefile").write_text("run:\n\tpython t.py | tee y.log\n")
    printed, imported = imports_of_a_run(["--no-cache", "."], ("launchlint.front.justfile",), cwd=tmp_path)
    assert "LL105" in printed and imported == []
    (tmp_path / "justfile").write_text("run:\n    python t.py | tee z.log\n")
    printed, imported = imports_of_a_run(["--no-cache", "."], ("launchlint.front.justfile",), cwd=tmp_path)
    assert "justfile:2" in printed and imported == ["launchlint.front.justfile"]
