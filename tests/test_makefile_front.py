"""The Makefile front end: what make hands to the shell, at its real line and column."""

from __future__ import annotations

import pytest
from launchlint.front.makefile import parse_makefile
from launchlint.model import LineIndex


def commands(text: str):
    script = parse_makefile("Makefile", text, LineIndex(text))
    return script.effective_commands() if script else []


def words(text: str) -> list[list[str]]:
    return [[w.text for w in c.words] for c in commands(text)]


def spot(text: str, needle: str) -> tuple[int, int]:
    return LineIndex(text).position(text.index(needle))


def where(thing) -> tuple[int, int]:
    return thing.location.line, thing.location.column


def test_variables_of_every_flavour_are_resolved():
    text = (
        "OUT = $(ROOT)/$(NAME)\nROOT := /data\nNAME ?= exp7\nNAME ?= ignored\n"
        "FLAGS = --lr 3\nFLAGS += --seed 1\n"
        "run:\n\tpython t.py $(FLAGS) > ${OUT}.log\n"
    )
    [python] = commands(text)
    assert [w.text for w in python.words] == ["python", "t.py", "--lr", "3", "--seed", "1"]
    assert python.stdout.target.value == "/data/exp7.log"
    assert where(python.stdout.target) == spot(text, "${OUT}")


def test_simple_variables_expand_where_they_are_defined():
    text = "A = one\nB := $(A)\nA = two\nrun:\n\techo $(B) $(A)\n"
    assert words(text) == [["echo", "one", "two"]]


def test_double_dollar_is_the_shells_dollar():
    text = "run:\n\tfor f in *.log; do tail -n1 $$f; done > $$HOME/last.txt\n"
    [tail] = commands(text)
    assert tail.words[2].template == "$f"
    assert where(tail.words[2]) == spot(text, "$$f")


@pytest.mark.parametrize(
    "reference", ["$<", "$(@D)", "$(shell date +%s)", "$(call f,x)", "$(UNDEFINED)", "${X:.c=.o}"]
)
def test_unknown_references_are_unknown_words_and_keep_columns(reference):
    text = f"run:\n\tpython t.py {reference} --after\n"
    [python] = commands(text)
    assert python.words[2].value is None
    assert where(python.words[3]) == spot(text, "--after")


def test_the_targets_automatic_variable_is_the_rules_one_target():
    """`wget URL -O $@` downloads the file its rule names (EEND's tools/Makefile); a rule of two
    targets or a pattern leaves `$@` unknown."""
    text = "miniconda3.sh:\n\twget https://x/m.sh -O $@\na b:\n\ttouch $@\n%.done:\n\ttouch $@\n"
    assert [c.words[-1].value for c in commands(text)] == ["miniconda3.sh", None, None]


def test_prefixes_are_makes_also_when_they_come_from_a_variable():
    text = "Q := @\nrun:\n\t-@ python a.py\n\t+$(Q)python b.py\n"
    a, b = commands(text)
    assert (a.name, where(a)) == ("python", spot(text, "python a.py"))
    assert (b.name, where(b)) == ("python", spot(text, "python b.py"))


def test_each_line_is_its_own_shell_unless_oneshell():
    text = "run:\n\tcd /w && LOG=x.log\n\techo $$LOG\n"
    assert commands(text)[-1].words[1].value is None
    assert commands(".ONESHELL:\n" + text)[-1].words[1].value == "x.log"


def test_continuation_lines_reach_the_shell_with_their_positions():
    text = "run:\n\tpython t.py \\\n\t\t--lr 3 \\\n  --seed 1\n\techo next\n"
    python, echo = commands(text)
    assert [w.text for w in python.words] == ["python", "t.py", "--lr", "3", "--seed", "1"]
    assert where(python.words[2]) == spot(text, "--lr")
    assert where(python.words[4]) == spot(text, "--seed")
    assert where(echo) == spot(text, "echo")


def test_inline_recipe_after_the_semicolon():
    text = "run: deps ; python t.py | tee x.log # shell comment\n"
    python, tee = commands(text)
    assert where(python) == spot(text, "python")
    assert python.stdout.reader is tee


def test_comments_and_blank_lines_do_not_end_a_recipe_but_a_variable_does():
    text = "run:\n\techo a\n\n# note\n\techo b\nX = 1\n\techo c\n"
    assert words(text) == [["echo", "a"], ["echo", "b"]]


def test_conditionals_include_and_target_variables_make_values_unknown():
    text = (
        "ifeq ($(DEBUG),1)\nA = debug\nendif\n"
        "B = before\n-include local.mk\nC ?= after-include\nD = after\n"
        "run: E = per-target\nrun:\n\techo $(A) $(B) $(C) $(D) $(E)\n"
    )
    [echo] = commands(text)
    assert [w.value for w in echo.words] == ["echo", None, None, None, "after", None]


def test_define_blocks_are_not_recipes():
    text = "define RUN\n\tpython t.py | tee x.log\nendef\nrun:\n\t$(RUN)\n"
    [command] = commands(text)
    assert command.words[0].value is None


def test_shell_and_shellflags_decide_pipefail():
    recipe = "run:\n\tpython t.py | tee x.log\n"
    assert commands(recipe)[0].pipefail is False
    assert commands("SHELL := /bin/bash\n.SHELLFLAGS := -eu -o pipefail -c\n" + recipe)[0].pipefail
    assert commands("SHELL = /usr/bin/env bash -o pipefail\n" + recipe)[0].pipefail
    assert commands("SHELL := python3\n" + recipe) == []


def test_exported_variables_are_the_recipes_environment():
    text = "export PYTHONUNBUFFERED = 1\nOTHER = 2\nrun:\n\tpython t.py\n"
    [python] = commands(text)
    assert python.has_env("PYTHONUNBUFFERED") and not python.has_env("OTHER")
    assert commands("export\n" + text)[0].has_env("OTHER")


def test_builtin_variables_keep_makes_default():
    assert words("CC ?= clang\nrun:\n\t$(CC) x.c\n")[0][0] == "${__}"


def test_crlf_lines():
    text = "LOG := x.log\r\nrun:\r\n\tpython t.py > $(LOG)\r\n"
    [python] = commands(text)
    assert python.stdout.target.value == "x.log"


def test_recipe_prefix_can_be_changed():
    text = ".RECIPEPREFIX := >\nrun:\n> python t.py\n"
    assert words(text) == [["python", "t.py"]]


def test_messages_quote_the_reference_not_its_stand_in(tmp_path):
    from launchlint.engine import Options, run

    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "Makefile").write_text("train:\n\tpython t.py > logs/$(RUN_ID).log\n")
    [finding] = run([str(tmp_path)], Options(select=frozenset({"LL106"}))).findings
    assert (finding.code, finding.location.path, finding.location.line) == ("LL106", "Makefile", 2)
    assert [r.message for r in finding.related] == ["its stdout goes to logs/$(RUN_ID).log here"]


@pytest.mark.parametrize(
    ("recipe", "shown"),
    [
        ("python t.py > $(OUT)/train.log", "$(OUT)/train.log"),  # a short stand-in that stands for one text
        ("python t.py > $<.log", "$<.log"),
        ("python t.py > $(OUT)/train.log\n\techo $(DIR)", "${___}/train.log"),  # for two: left as it is
        ("python t.py > $<.log\n\techo $$_", "$_.log"),  # the shell's own `$_` is written in the file
    ],
)
def test_messages_quote_a_short_reference_when_only_one_text_has_its_stand_in(tmp_path, recipe, shown):
    from launchlint.engine import Options, run

    (tmp_path / ".launchlint.yaml").write_text("# root\n")
    (tmp_path / "Makefile").write_text(f"gen:\n\t{recipe}\n")
    [finding] = run([str(tmp_path)], Options(select=frozenset({"LL106"}))).findings
    assert (finding.code, finding.location.path, finding.location.line) == ("LL106", "Makefile", 2)
    assert [r.message for r in finding.related] == [f"its stdout goes to {shown} here"]
