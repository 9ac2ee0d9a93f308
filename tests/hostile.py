"""The hostile inputs of fixtures/hostile/, generated (most cannot be committed as they are:
FIFOs, device links, symlink loops, 10 MB of shell, bytes git would normalise).

`build(root)` writes the tree and returns what each entry must produce; `python tests/hostile.py
DIR` writes it for a manual run (`launchlint DIR`). Not a test module: pytest collects test_*.py.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

BOM = b"\xef\xbb\xbf"
TEN_MB = 10 * 1024 * 1024

# A finding that proves a file was analysed to its end: `2>&1` before the file (LL104).
REDIRECT = "python t.py 2>&1 > a.log"
REDIRECT_COLUMN = REDIRECT.index("2>&1") + 1
RUN_COLUMN = len("      - run: ") + REDIRECT_COLUMN  # the same, in a workflow step (below)


# Every entry `build` can make (some need Linux, /proc or mknod): the tests' parameters.
ENTRIES = (
    "binary.sh", "nul_early.py", "nul_late.py", "invalid_utf8.py", "invalid_utf8.yaml", "unknown_codec.py",
    "wrong_codec.py", "latin1.sh", "bom_latin1.sh", "declared_gbk.py", "bom.sh", "crlf.sh",
    "crlf.py", "big.sh", "nested_substitution.sh", "nested_parens.py", "nested_blocks.py", "nested_operators.py",
    "alias_bomb.yaml", "stream.yaml", "object_tags.yaml", "x.sh/inner.sh", "loop_a.sh", "loop_b.sh",
    "dangling.sh", "fifo.sh", "zero.sh", "null_device.sh", "unreadable.sh", "host",
)  # fmt: skip


@dataclass(frozen=True)
class Expect:
    """What one hostile entry must produce: a finding (code, message fragment, line, column;
    None where any position will do) or a warning line on stderr (its fragment)."""

    path: str
    code: str | None = None
    message: str = ""
    line: int | None = None
    column: int | None = None
    warning: str | None = None


def workflow(run: str, extra: str = "") -> str:
    """A GitHub Actions workflow whose one step runs `run`; its `run:` is on line 6 + extra's lines."""
    return f"on: push\n{extra}jobs:\n  train:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {run}\n"


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """"Billion laughs": expanded, the last anchor is width**levels strings (9**9 = 387 million)."""
    lines = ["x-lol:", '  a0: &a0 ["lol"]']
    for i in range(1, levels + 1):
        lines.append(f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def nested_substitution(depth: int) -> str:
    return "echo " + "$( " * depth + "x" + " )" * depth + "\n"


def nested_blocks(depth: int) -> str:
    """Alternating `def` and `if`, one indentation level each."""
    lines = [" " * i + ("def f():" if i % 2 == 0 else "if x:") for i in range(depth)]
    return "\n".join(lines) + "\n" + " " * depth + "pass\n"


def big_script(size: int = TEN_MB) -> str:
    line = 'python train.py --lr 0.1 --epochs 3 2>&1 | tee -a "$LOG_DIR/train.log"\n'
    return "#!/bin/bash\n" + line * (size // len(line) + 1)


def build(root: Path, *, big: bool = True) -> list[Expect]:
    """Write the hostile tree under `root` (a project root); what each entry must produce."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".launchlint.yaml").write_text("# the hostile tree is a project of its own\n")
    expect: list[Expect] = []

    def write(name: str, data: bytes | str, *entries: Expect) -> None:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        expect.extend(entries)

    # Not text.
    write("binary.sh", b"\x7fELF\x02\x01\x01\x00" + bytes(4088),
          Expect("binary.sh", "LL001", "binary file (NUL byte); not analysed", 1, 1))
    write("nul_early.py", b"import os\nx = '\x00'\n",
          Expect("nul_early.py", "LL001", "binary file (NUL byte); not analysed", 1, 1))
    # Past the first 8 KiB the file is text with a NUL in it: Python's own error, at the NUL.
    write("nul_late.py", b"x = 1\n" * 2000 + b"y = '\x00'\n", Expect("nul_late.py", "LL001", "null bytes", 2001, 6))
    write("invalid_utf8.py", b"#!/usr/bin/env python\nx = 'caf\xe9'\n",
          Expect("invalid_utf8.py", "LL001", "not valid UTF-8 at byte 30", 2, 9))
    write("invalid_utf8.yaml", b"name: caf\xe9\n", Expect("invalid_utf8.yaml", "LL001", "not valid UTF-8 at byte 9", 1, 10))
    write("unknown_codec.py", b"# coding: klingon\nx = 'caf\xe9'\n",
          Expect("unknown_codec.py", "LL001", "unknown encoding: klingon; not analysed", 1, 1))
    write("wrong_codec.py", b"# -*- coding: ascii -*-\nx = 'caf\xe9'\n",
          Expect("wrong_codec.py", "LL001", "not valid ascii (its coding declaration) at byte 32", 1, 1))
    # Bytes its program reads: a Latin-1 script, a GBK trainer that says so (PEP 263). Each is
    # read to its end, where its finding is.
    write("latin1.sh", b"#!/bin/bash\necho caf\xe9\n" + f"{REDIRECT}\n".encode(),
          Expect("latin1.sh", "LL104", "", 3, REDIRECT_COLUMN))
    write("bom_latin1.sh", BOM + b"echo \xff\n" + f"{REDIRECT}\n".encode(),
          Expect("bom_latin1.sh", "LL104", "", 2, REDIRECT_COLUMN))
    write("declared_gbk.py", "# -*- coding: gbk -*-\nx = '训练'\ndef f(:\n    pass\n".encode("gbk"),
          Expect("declared_gbk.py", "LL001", "", 3, 7))

    # Text with unusual framing: positions stay exact.
    write("bom.sh", BOM + f"{REDIRECT}\n".encode(), Expect("bom.sh", "LL104", "", 1, REDIRECT_COLUMN))
    write("crlf.sh", f"#!/bin/bash\r\necho start\r\n{REDIRECT}\r\n".encode(),
          Expect("crlf.sh", "LL104", "", 3, REDIRECT_COLUMN))
    write("crlf.py", b"import os\r\nx = 1\r\ndef f(:\r\n    pass\r\n", Expect("crlf.py", "LL001", "", 3, 7))
    if big:
        write("big.sh", big_script(), Expect("big.sh", "LL001", "analysis stopped after"))

    # Nesting past every recursion limit.
    write("nested_substitution.sh", nested_substitution(5000),
          Expect("nested_substitution.sh", "LL001", "nesting too deep to analyse", 1, 1))
    write("nested_parens.py", "x = " + "(" * 3000 + "1" + ")" * 3000 + "\n",
          Expect("nested_parens.py", "LL001", "too many nested parentheses", 1))
    write("nested_blocks.py", nested_blocks(3000),
          Expect("nested_blocks.py", "LL001", "too many levels of indentation"))
    write("nested_operators.py", "x = " + " + ".join(["1"] * 30000) + "\n",
          Expect("nested_operators.py", "LL001", "code nested too deeply to parse", 1, 1))

    # YAML that would hurt if it were loaded rather than composed; each file's workflow finding
    # proves the file was read to its end.
    bomb = alias_bomb()
    write("alias_bomb.yaml", workflow(REDIRECT, bomb),
          Expect("alias_bomb.yaml", "LL104", "", 6 + bomb.count("\n"), RUN_COLUMN))
    stream = "".join(f"---\nkey{i}: value\n" for i in range(9999)) + "---\n"
    write("stream.yaml", stream + workflow(REDIRECT),
          Expect("stream.yaml", "LL104", "", 6 + stream.count("\n"), RUN_COLUMN))
    tags = (
        "x-apply: !!python/object/apply:os.system ['touch OBJECT_TAG_RAN']\n"
        "x-new: !!python/object/new:subprocess.Popen [['touch', 'OBJECT_TAG_RAN']]\n"
        "x-name: !!python/name:os.system\n"
    )
    write("object_tags.yaml", workflow(REDIRECT, tags),
          Expect("object_tags.yaml", "LL104", "", 9, RUN_COLUMN))

    # A directory with a script's name is walked, not read.
    write("x.sh/inner.sh", f"{REDIRECT}\n", Expect("x.sh/inner.sh", "LL104", "", 1, REDIRECT_COLUMN))

    # Files that are not files: stat'ed, never opened.
    os.symlink("loop_b.sh", root / "loop_a.sh")
    os.symlink("loop_a.sh", root / "loop_b.sh")
    expect += [Expect("loop_a.sh", warning="loop_a.sh: symbolic link loop, skipped"),
               Expect("loop_b.sh", warning="loop_b.sh: symbolic link loop, skipped")]
    (root / "dir_loop").mkdir()
    os.symlink("..", root / "dir_loop" / "up")  # walked once, not forever
    os.symlink("missing.sh", root / "dangling.sh")
    expect.append(Expect("dangling.sh", warning="dangling.sh: dangling symbolic link, skipped"))
    os.mkfifo(root / "fifo.sh")
    expect.append(Expect("fifo.sh", warning="fifo.sh: a FIFO (named pipe), not read"))
    if os.path.exists("/dev/zero"):
        os.symlink("/dev/zero", root / "zero.sh")
        expect.append(Expect("zero.sh", warning="zero.sh: a character device, not read"))
    try:  # a device node of our own, where mknod is allowed (root outside a restricted container)
        os.mknod(root / "null_device.sh", stat.S_IFCHR | 0o600, os.makedev(1, 3))
        expect.append(Expect("null_device.sh", warning="null_device.sh: a character device, not read"))
    except (OSError, AttributeError):
        pass
    # A regular file by stat that reading fails on (offset 0 of a process's own memory: EIO, even
    # for root), and outside the project: the walk never opens it.
    if os.path.exists("/proc/self/mem"):
        os.symlink("/proc/self/mem", root / "unreadable.sh")
        expect.append(Expect("unreadable.sh", warning="unreadable.sh: symbolic link to a file outside the project, not read"))
    os.symlink("/", root / "host")  # the whole machine, /proc included: not walked
    expect.append(Expect("host", warning="host: symbolic link to a directory outside the project, not followed"))
    return expect


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "fixtures/hostile")
    for entry in build(target):
        print(entry)
