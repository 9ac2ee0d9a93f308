"""lint/gitignore.py: git's ignore rules, matched as pathspec's GitIgnoreSpec matches them (the
reference, a test dependency), without its 25 ms of imports and without its exceptions."""

from __future__ import annotations

import re
import subprocess
import sys

import pathspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from launchlint.gitignore import matcher

# Characters that mean something to a pattern, and plain ones.
PATTERN_CHARS = st.sampled_from(list("ab*?/[]!^-\\ #.") + ["**", "a/", "/b", "[a-b]", "[!a]", "[]a]", "[[:alpha:]]"])
SEGMENT = st.sampled_from(["a", "b", "ab", "ba", "a.b", "-", "!", "[", "]", "#", " ", "a b", "\\", "*", "aa"])
GLOB = st.sampled_from(["a", "b", "ab", "*", "**", "a*", "*b", "?b", "[ab]", "[!a]b", "a.b"])
# Patterns as people write them (negated, anchored, directory-only), and character soup.
WRITTEN = st.tuples(
    st.sampled_from(["", "!"]),
    st.sampled_from(["", "/"]),
    st.lists(GLOB, min_size=1, max_size=3),
    st.sampled_from(["", "/"]),
).map(lambda p: p[0] + p[1] + "/".join(p[2]) + p[3])
SOUP = st.lists(PATTERN_CHARS, min_size=1, max_size=6).map("".join)


@st.composite
def paths(draw) -> str:
    path = "/".join(draw(st.lists(SEGMENT, min_size=1, max_size=4)))
    return path + "/" if draw(st.booleans()) else path  # a directory's path ends with '/'


@pytest.mark.filterwarnings("ignore:Possible nested set:FutureWarning")  # pathspec's re.compile of `[[`
@settings(max_examples=3000, deadline=None)
@given(
    lines=st.lists(st.one_of(WRITTEN, SOUP), min_size=1, max_size=5),
    candidates=st.lists(paths(), min_size=1, max_size=8),
)
def test_matches_as_pathspec_gitignorespec_does(lines, candidates):
    try:
        reference = pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):  # a pattern pathspec refuses, which git skips: ours must not raise
        reference = None
    ours = matcher(lines)
    for path in candidates:
        if reference is not None:
            assert ours(path) == reference.match_file(path), (lines, path)
        else:
            ours(path)


def test_a_pattern_pathspec_refuses_matches_nothing_and_the_others_still_apply():
    ignored = matcher(["foo\\", "!", "[abc", "*.log", "!keep.log", "  # not a comment"])
    assert [path for path in ("foo", "foo\\", "x.log", "keep.log", "d/x.log", "run.sh") if ignored(path)] == [
        "x.log",
        "d/x.log",
    ]


@pytest.mark.parametrize("more", [[], ["*/"]], ids=["one-test", "no-one-test"])  # `*/`: no combined regex
def test_a_range_re_refuses_matches_nothing_and_the_others_still_apply(more):
    ignored = matcher(["[b-a]x", "*.log", "!keep.log", *more])
    assert [path for path in ("ax", "bx", "[b-a]x", "x.log", "keep.log", "run.sh") if ignored(path)] == ["x.log"]
    assert not matcher(["[b-a]x", "[z-y]"])("ax")


def test_each_pattern_is_compiled_only_when_a_path_needs_it(monkeypatch):
    """A path that no pattern matches is answered by the one regex of them all; a matched one
    compiles the patterns from the last back to the one that decides, once."""
    from launchlint import gitignore

    compiled = []
    real = gitignore._regex
    monkeypatch.setattr(gitignore, "_regex", lambda source: compiled.append(source) or real(source))
    ignored = matcher(["*.pyc", "build/", "wandb/", "*.log", "!keep.log"])
    assert not ignored("train.py") and not ignored("src/run.sh")
    assert len(compiled) == 1  # the combined regex
    assert ignored("logs/x.log") and ignored("logs/y.log")
    assert len(compiled) == 3  # `!keep.log`, then `*.log`, which decides; each once
    assert not ignored("keep.log") and len(compiled) == 3
    assert ignored("build/") and len(compiled) == 6  # a directory's match asks the earlier ones too


@pytest.mark.parametrize(
    ("patterns", "path", "expected"),
    [
        (["build/"], "build/", True),  # a directory pattern: the directory
        (["build/"], "build", False),  # ... not a file of that name
        (["build/"], "src/build/x.py", True),  # at any depth, and below it
        (["/build"], "src/build", False),  # a leading slash anchors it at the root
        (["docs/*.md"], "docs/a/b.md", False),  # `*` stops at a slash
        (["docs/**/*.md"], "docs/a/b.md", True),
        (["**/logs"], "a/b/logs/x", True),
        (["*.log", "!keep.log"], "keep.log", False),  # the last pattern that matches decides
        (["logs/", "!logs/keep.txt"], "logs/", True),  # the walk skips the directory, as git does...
        (["logs/", "!logs/keep.txt"], "logs/x", True),
        (["logs/", "!logs/keep.txt"], "logs/keep.txt", False),  # ...whose file alone pathspec re-includes
        (
            ["!logs/keep.txt", "logs/"],
            "logs/keep.txt",
            False,
        ),  # a pattern naming the path beats one naming its directory, before or after it
        (["\\#notes"], "#notes", True),
        (["\\!x"], "!x", True),
        (["a[!b]c"], "abc", False),
        (["a[!b]c"], "axc", True),
        (["trailing\\ "], "trailing ", True),
        (["*/"], "a", False),  # the patterns that match everything below the root...
        (["*/"], "a/b", True),
        (["**/*/**"], "a", False),  # ...or everything with a directory above it
        (["**/*/**"], "a/", True),
        (["**"], "a", True),
        (["a/**/b"], "a/x/y/b", True),
        (["a/**/b"], "a/", False),
    ],
)
def test_git_semantics(patterns, path, expected):
    assert matcher(patterns)(path) is expected


def test_a_file_reincluded_under_an_ignored_directory_stays_unread_as_git_leaves_it(tmp_path):
    """git ignores `logs/keep.txt` under `logs/` and `!logs/keep.txt` (its directory is ignored:
    `git check-ignore` names `logs/`); the walk never enters `logs/`, so it is not read either."""
    from launchlint.discover import discover

    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("!logs/keep.sh\nlogs/\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "keep.sh").write_text("echo kept\n")
    (tmp_path / "run.sh").write_text("echo run\n")
    assert sorted(discover([str(tmp_path)]).files) == ["run.sh"]


def test_a_gitignore_pathspec_refused_no_longer_stops_the_run(tmp_path):
    """`foo\\` (a trailing backslash) made pathspec raise, and the run ended in a traceback."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("foo\\\n!\nignored/\n")
    (tmp_path / "ignored").mkdir()
    (tmp_path / "ignored" / "job.sh").write_text("python t.py | tee a.log\n")
    (tmp_path / "run.sh").write_text("python t.py | tee b.log\n")
    result = subprocess.run(
        [sys.executable, "-m", "launchlint", "--no-cache", "--select", "LL105", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "Traceback" not in result.stderr
    assert result.returncode == 1 and "run.sh:1:" in result.stdout and "job.sh" not in result.stdout


# A project with a .gitignore at several depths, git's info/exclude, and paths each level decides.
NESTED = {
    ".gitignore": "*.log\n!keep.log\nbuild/\nout/\n",
    "a/.gitignore": "!*.log\n*.tmp\n/local.sh\n",
    "a/b/.gitignore": "keep.log\nsub/\n",
    "c/.gitignore": "*\n!.gitignore\n!run.sh\n",
    "build/.gitignore": "!x.sh\n",  # under an ignored directory: git never reads it
    "d/.gitignore": "!out/\n",  # a deeper `!` brings back a directory the root's pattern hides
    ".git/info/exclude": "mine.sh\n",
}
NESTED_PATHS = [
    "x.log", "keep.log", "a/x.log", "a/keep.log", "a/b/keep.log", "a/b/x.log", "a/y.tmp", "a/b/y.tmp",
    "a/local.sh", "a/b/local.sh", "local.sh", "a/b/sub/run.sh", "a/sub/run.sh", "c/run.sh", "c/other.sh",
    "c/d/run.sh", "build/x.sh", "mine.sh", "a/mine.sh", "d/out/x.sh", "e/out/x.sh", "a/", "a/b/sub/",
    "build/", "c/", "c/d/",
]  # fmt: skip


def _nested_project(root) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for rel, text in NESTED.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    for rel in NESTED_PATHS:
        if not rel.endswith("/"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("echo hi\n")


def _git(root, *args: str, stdin: str = "") -> list[str]:
    """git's own answer, with no user's global excludes (an empty home)."""
    env = {"HOME": str(root / ".git"), "XDG_CONFIG_HOME": str(root / ".git"), "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True, text=True, env=env)
    return result.stdout.splitlines()


def test_nested_gitignores_and_info_exclude_decide_as_git_decides(tmp_path):
    """Each path of a project with .gitignore files at three depths, `.git/info/exclude`, a
    deeper `!` and one under an ignored directory is ignored exactly when `git check-ignore` says so."""
    from launchlint.discover import Gitignored

    _nested_project(tmp_path)
    # A directory is asked without its slash: given `c/`, check-ignore matches c/.gitignore's `*`
    # against it, where git status (and the walk) read c/ and list c/run.sh.
    asked = {path.rstrip("/"): path for path in NESTED_PATHS}
    expected = {asked[path] for path in _git(tmp_path, "check-ignore", "--no-index", "--stdin", stdin="\n".join(asked) + "\n")}
    assert {"a/y.tmp", "a/b/keep.log", "c/other.sh", "build/x.sh", "mine.sh", "e/out/x.sh"} <= expected  # the cases meant
    assert not {"a/x.log", "d/out/x.sh", "a/b/local.sh", "c/run.sh"} & expected
    ignored = Gitignored(str(tmp_path))
    assert {path for path in NESTED_PATHS if ignored(path)} == expected


def test_the_walk_reads_the_files_git_does_not_ignore(tmp_path):
    """`discover` of the project lists the scripts `git ls-files --others --exclude-standard` lists."""
    from launchlint.discover import discover

    _nested_project(tmp_path)
    listed = {path for path in _git(tmp_path, "ls-files", "--others", "--exclude-standard") if path.endswith(".sh")}
    assert "a/b/local.sh" in listed and "a/local.sh" not in listed
    assert set(discover([str(tmp_path)]).files) == listed


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_a_file_git_tracks_is_read_though_a_pattern_matches_it(tmp_path, version):
    """`git add -f` of launchers a pattern matches (MeZO's `*.sh`, OpenPCDet's): git never ignores a
    file its index holds, in an ignored directory too; the walk reads what `git ls-files` and `git
    ls-files --others --exclude-standard` list together, whatever the index's version."""
    from launchlint.discover import discover

    _nested_project(tmp_path)
    _git(tmp_path, "add", "-f", "a/local.sh", "build/x.sh", "c/other.sh", "e/out/x.sh", "a/b/sub/run.sh")
    _git(tmp_path, "update-index", "--index-version", version)
    tracked = set(_git(tmp_path, "ls-files"))
    others = set(_git(tmp_path, "ls-files", "--others", "--exclude-standard"))
    assert {"a/local.sh", "build/x.sh", "e/out/x.sh"} <= tracked and "build/x.sh" not in others
    assert set(discover([str(tmp_path)]).files) == {path for path in tracked | others if path.endswith(".sh")}
