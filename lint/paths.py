"""Paths as strings: what launchlint asked of pathlib, without importing it.

pathlib, with the urllib.parse and ipaddress it imports, cost 16 M instructions (3.5 ms) of every
run's start, a twelfth of linting one script; discovery has walked with strings since the walk of
10,000 files spent 9 us of pathlib on each. These are `PurePosixPath`'s rules for the three things
launchlint needs; tests/test_paths.py compares them with pathlib's.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable

from .lazyre import lazy


def normal(name: str | os.PathLike) -> str:
    """`str(Path(name))`: no `.` components, repeated or trailing slashes (`..` stays)."""
    name = os.fspath(name)
    parts = [part for part in name.split("/") if part not in ("", ".")]
    root = "/" if name.startswith("/") else ""
    return root + "/".join(parts) if parts else root or "."


def joined(base: str, path: str) -> str:
    """`path` from the directory `base`, with `.` and `..` resolved as strings (`os.path.normpath`)."""
    return posixpath.normpath(posixpath.join(base, path))


def relative_to(path: str, base: str) -> str | None:
    """`Path(path).relative_to(base).as_posix()` of two normal paths, None where it raises."""
    if path == base:
        return "."
    prefix = base if base.endswith("/") else base + "/"
    return path[len(prefix) :] if path.startswith(prefix) else None


def in_a_virtualenv(path: str) -> bool:
    """`.venv/bin/activate`, `$HERE/env/bin/activate`: a virtualenv's script, which `python -m
    venv` or `uv venv` makes at set-up (whatever the directory's name); also a conda installation's
    `etc/profile.d/conda.sh` (`tools/venv/etc/profile.d/conda.sh`, which ESPnet's `make venv`
    installs). No repository holds one."""
    path = "/" + posixpath.normpath(path)
    return path.endswith(("/bin/activate", "/etc/profile.d/conda.sh"))


def suffix(name: str) -> str:
    """`Path(name).suffix`: from the last dot, unless the name starts or ends with it."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def is_url(text: str) -> bool:
    """`s3://bucket/x.yaml`, `https://...`, `hf://org/repo/x.yaml`, `file:///etc/x.yaml`: a scheme
    (RFC 3986: a letter, then letters, digits, `+`, `-` or `.`) and `://`. No project path: a
    launcher's script or config named so is fetched, or opened where the job runs, never looked
    for in the project (LL303, LL304 and the resolver ask here)."""
    scheme, sep, _ = text.partition("://")
    return bool(sep) and scheme[:1].isascii() and scheme[:1].isalpha() and all(c.isascii() and (c.isalnum() or c in "+-.") for c in scheme)


# What `shown` keeps as written: an expansion (`${X//a/b}`, `$(date +%F)`) and a URL's `://`.
_SLASHES = lazy(r"\$\{[^}]*\}|\$\([^)]*\)|://|//+")


def shown(path: str) -> str:
    """A written path as a message names it: repeated slashes as one (`BASE_DIR="./"`, then
    `"${BASE_DIR}/logs/run.log"` is `.//logs/run.log` to the shell, which reads it as
    `./logs/run.log`); the rest as written, an expansion not known here (`${X//a/b}`, `$(date
    +%F)`) and a URL's `://` too."""
    return _SLASHES.sub(lambda m: "/" if m.group()[0] == "/" else m.group(), path) if "//" in path else path


# `{a,b}` or `{1..3}`: bash's brace expansion (a `${...}` is no static word's)
_BRACES = lazy(r"\{[^{}]*(?:,|\.\.)[^{}]*\}")


def is_pattern(text: str) -> bool:
    """`configs/*.yaml`, `train_?.py`, `exp[12].yaml`, `exp_{1,2}.yaml`: a word bash expands into
    the names it matches or spells (glob characters, a brace expansion). A word's value is read
    after quote removal, so a quoted `"*"`, literal to bash, counts too."""
    return "*" in text or "?" in text or "[" in text or _BRACES.search(text) is not None


# A field of Python's `str.format` (`{script}`, `{0}`, `{cfg.name}`, `{n:03d}`, `{}`), not a shell
# expansion's `${name}`: a script that holds one is a template a program fills in before it runs.
_FORMAT_FIELD = lazy(r"(?<!\$)\{(?:[A-Za-z_]\w*|\d*)(?:\.\w+|\[\w+\])*(?:![rsa])?(?::[^{}]*)?\}")


def has_format_field(text: str) -> bool:
    """`main_{script}.py`, `{log_dir}/slurm-%j.out`: a word with a `str.format` field, which bash
    leaves as it is but no file is named by (a job file read and filled by `.format(...)`)."""
    return "{" in text and _FORMAT_FIELD.search(text) is not None


def in_a_template(text: str) -> bool:
    """`{{`, `}}/x.py`, `{{dir}}/x.py`: a word of a Jinja, Go-template or Helm expression, which
    the template's renderer replaces (an Ansible task's `command: python3 {{ fw_dir }}/x.py`,
    whose blanks split it into `{{`, `fw_dir` and `}}/x.py`), as a justfile's `{{dir}}` is
    replaced by its value: no file is named by it as written."""
    return "{{" in text or "}}" in text


def names_a_path(text: str) -> bool:
    """Whether a launcher's static word names one file as written, to be looked for in the
    project (LL303's script, LL304's config): no URL (`is_url`), no pattern (`is_pattern`), no
    template field (`has_format_field`, `in_a_template`)."""
    return not (is_url(text) or is_pattern(text) or has_format_field(text) or in_a_template(text))


def may_name(written: str, path: str, roots: Iterable[str] = ()) -> bool:
    """Whether the program path `written` in a launcher, relative to a directory that may be
    unknown, can name the project file `path`: `path` ends in its `written_tail`, or in what
    follows one of `roots` at its start, the names the checkout goes by from its parent
    (`graph.checkout_names`: the root's own, a workflow's checkout `path:`). An absolute path,
    mapped or remote, names the file it ends in, the project's root being mapped above it
    (`/app/tools/x.py`: `tools/x.py`), or one in a directory of its own directory's name, mounted
    under that name (`/workspace/utils/x.py`: `bench/utils/x.py`); not `bench/x.py`."""
    if written.startswith("/"):
        written = posixpath.normpath(written)
        directory, name = posixpath.split(written)
        return ends_in(written, path) or ends_in(path, posixpath.join(posixpath.basename(directory), name))
    tail = written_tail(written)
    return ends_in(path, tail) or any(tail.startswith(root + "/") and ends_in(path, tail[len(root) + 1 :]) for root in roots if root)


def written_tail(written: str) -> str | None:
    """What must end the path of a file that the program path `written` names: its normalised
    form less the `../` that climb out of the directory it is relative to. None for an absolute
    path, mapped or remote: any file of its name, to a screen (`may_name` asks more of it)."""
    if written.startswith("/"):
        return None
    tail = posixpath.normpath(written)
    while tail.startswith("../"):
        tail = tail[3:]
    return tail


def ends_in(path: str, tail: str | None) -> bool:
    """Whether `path` ends in the whole parts of `tail` (`written_tail`); any path for None."""
    return tail is None or path == tail or path.endswith("/" + tail)
