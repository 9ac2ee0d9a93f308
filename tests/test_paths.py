"""lint/paths.py: pathlib's spelling of a path and its `relative_to`, without importing pathlib."""

from __future__ import annotations

from pathlib import PurePosixPath

from hypothesis import given
from hypothesis import strategies as st
from launchlint.paths import (
    ends_in,
    has_format_field,
    in_a_template,
    is_pattern,
    is_url,
    may_name,
    names_a_path,
    normal,
    relative_to,
    shown,
    suffix,
    written_tail,
)

NAMES = st.lists(st.sampled_from(["", ".", "..", "a", "b", "a.b", " ", "x y"]), max_size=5).map("/".join)
ABSOLUTE = st.lists(st.sampled_from(["a", "b", "ab", "a.b"]), max_size=4).map(lambda parts: "/" + "/".join(parts))


@given(NAMES, st.sampled_from(["", "/"]))
def test_normal_spells_a_path_as_pathlib_does(name, lead):
    name = lead + name
    if name.startswith("//") and not name.startswith("///"):
        return  # POSIX leaves exactly two leading slashes to the system; pathlib keeps them
    assert normal(name) == str(PurePosixPath(name))


@given(ABSOLUTE, ABSOLUTE)
def test_relative_to_is_pathlibs(path, base):
    try:
        expected = PurePosixPath(path).relative_to(base).as_posix()
    except ValueError:
        expected = None
    assert relative_to(path, base) == expected


@given(st.lists(st.sampled_from(["a", "b", ".", "sh", "md", "Makefile", "yml"]), min_size=1, max_size=6))
def test_a_walked_files_suffix_is_the_one_pathlib_gives(parts):
    """The walk makes no Path per file (9 us each): its suffix decides its kind alike."""
    name = "".join(parts)
    if name not in (".", ".."):
        assert suffix(name) == PurePosixPath(name).suffix


def test_examples():
    assert normal("./scripts//run.sh") == "scripts/run.sh"
    assert normal("dir/") == "dir" and normal("") == "." and normal("/") == "/"
    assert relative_to("/repo/a/b.sh", "/repo") == "a/b.sh"
    assert relative_to("/repo", "/repo") == "."
    assert relative_to("/repository/x", "/repo") is None  # a sibling that shares the prefix
    assert relative_to("/a", "/") == "a"


def test_a_written_program_path_names_the_files_it_can_reach():
    assert may_name("../train/x.py", "exp/train/x.py") and may_name("./train/./x.py", "train/x.py")
    # absolute, mapped or remote: the project's root mapped above it, or its directory's namesake mounted
    assert may_name("/app/tools/x.py", "tools/x.py") and may_name("/app/x.py", "x.py")
    assert may_name("/workspace/utils/../utils/x.py", "bench/utils/x.py") and not may_name("/workspace/utils/x.py", "bench/x.py")
    assert not may_name("/opt/app/tools/x.py", "app/x.py") and not may_name("/srv/x.py", "srv2/x.py")
    assert not may_name("other/x.py", "train/x.py") and not may_name("x.py", "train/ax.py")
    # from the checkout's parent, by the names it goes by there (`graph.checkout_names`)
    assert may_name("proj/tools/x.py", "tools/x.py", ("repo", "proj")) and not may_name("proj/tools/x.py", "tools/x.py", ("repo",))


def test_a_written_path_is_normalised_once_then_matched_by_whole_parts():
    """`may_name` in two steps, for a screen that matches one written path with many files."""
    assert written_tail("./train/../train/x.py") == "train/x.py"
    assert written_tail("../../x.py") == "x.py" and written_tail("/workspace/x.py") is None
    assert ends_in("exp/train/x.py", "train/x.py") and ends_in("train/x.py", "train/x.py")
    assert not ends_in("exp/atrain/x.py", "train/x.py") and ends_in("any/where.py", None)


def test_a_url_is_a_scheme_and_two_slashes():
    """LL303, LL304 and the resolver judge no URL as a project path."""
    for url in ("s3://b/x.yaml", "https://e.com/x.yaml", "gs://b/x", "hf://org/repo/x.yaml", "file:///etc/x.yaml", "git+ssh://h/r"):
        assert is_url(url), url
    for path in ("configs/x.yaml", "/root/x.yaml", "a:b/x.yaml", "://x", "1s3://b", "$S3://b", "dir/s3://b"):
        assert not is_url(path), path


def test_a_pattern_is_a_glob_or_a_brace_expansion():
    """LL303 and LL304 judge no word bash expands; a quoted one too (words are read unquoted)."""
    for pattern in ("configs/*.yaml", "train_?.py", "exp[12].yaml", "exp_{1,2}.yaml", "train_{a,}.py", "e{1..3}.py"):
        assert is_pattern(pattern) and not names_a_path(pattern), pattern
    for path in ("configs/x.yaml", "a{b.py", "a{b c}.py", "/root/x.yaml"):
        assert not is_pattern(path) and names_a_path(path), path
    assert not names_a_path("s3://b/x.yaml")


def test_a_format_field_is_a_template_not_a_path():
    """A brace with no `,` or `..` is literal to bash, but a word holding a field of Python's
    `str.format` is a template a program fills in (ml-jku UPT's `main_{script}.py`)."""
    for template in ("main_{script}.py", "a{b}.py", "{}.json", "{0}/x.yaml", "{cfg.name}.yaml", "run_{n:03d}.sh"):
        assert not is_pattern(template) and not names_a_path(template), template
    assert names_a_path("${HOME}/x.yaml") and not has_format_field("{{ cfg }}.yaml")  # str.format's `{{` is a brace


def test_a_template_expressions_word_is_not_a_path():
    """Jinja's, Go templates' and Helm's `{{ ... }}` is replaced when the template is rendered: an
    Ansible task's `python3 {{ fw_dir }}/x.py` splits into `{{`, `fw_dir`, `}}/x.py` (deepops)."""
    for template in ("{{", "}}/parse_manifest.py", "{{fw_dir}}/x.py", "{{ cfg }}.yaml", "{{.Values.dir}}/run.sh"):
        assert in_a_template(template) and not names_a_path(template), template
    for path in ("configs/x.yaml", "a{b.py", "a}b.py"):
        assert not in_a_template(path) and names_a_path(path), path


def test_a_shown_path_has_one_slash_where_it_was_joined_with_two():
    assert shown(".//logs/run.log") == "./logs/run.log" and shown("/a//b///c.log") == "/a/b/c.log"
    assert shown("${X//a/b}//x.log") == "${X//a/b}/x.log" and shown("$(date +%F)//x") == "$(date +%F)/x"
    assert shown("s3://bucket//x.log") == "s3://bucket/x.log" and shown("logs/run.log") == "logs/run.log"
