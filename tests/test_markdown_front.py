"""The Markdown front end: shell in fenced blocks, console transcripts after their prompts."""

from __future__ import annotations

import pytest
from launchlint.front.markdown import parse_markdown
from launchlint.model import LineIndex


def commands(text: str):
    script = parse_markdown("RUNBOOK.md", text, LineIndex(text))
    return script.effective_commands() if script else []


def spot(text: str, needle: str) -> tuple[int, int]:
    return LineIndex(text).position(text.index(needle))


def where(thing) -> tuple[int, int]:
    return thing.location.line, thing.location.column


@pytest.mark.parametrize("fence", ["```bash", "```sh", "```shell", "~~~bash", "````Bash {title=run}"])
def test_script_blocks(fence):
    closing = fence[0] * (len(fence) - len(fence.lstrip(fence[0])))
    text = f"Intro\n\n{fence}\nRUN=exp7\npython t.py | tee logs/$RUN.log\n{closing}\n"
    python, tee = commands(text)
    assert where(python) == spot(text, "python")
    assert tee.words[1].value == "logs/exp7.log"


@pytest.mark.parametrize("fence", ["```python", "```", "```text", "```bash-session"])
def test_other_blocks_are_not_shell(fence):
    assert commands(f"{fence}\npython t.py | tee x.log\n```\n") == []


def test_console_block_only_reads_commands_after_prompts():
    text = (
        "```console\n$ python t.py \\\n>   --lr 3 | tee x.log\nstep 1 loss 2.3\n"
        "$ tail x.log\n# not a prompt\n```\n"
    )
    python, tee, tail = commands(text)
    assert [w.text for w in python.words] == ["python", "t.py", "--lr", "3"]
    assert where(python.words[2]) == spot(text, "--lr")
    assert where(tee) == spot(text, "tee")
    assert where(tail) == spot(text, "tail")


def test_a_bash_block_written_as_a_transcript_is_read_as_one():
    text = "```bash\n$ python t.py\nTraceback (most recent call last):\n```\n"
    [python] = commands(text)
    assert where(python) == spot(text, "python")


def test_blocks_in_list_items_lose_the_fences_indentation():
    text = "1. Run:\n\n   ```bash\n   python t.py\n     --x\n   ```\n"
    [python, option] = commands(text)
    assert where(python) == spot(text, "python")
    assert where(option) == spot(text, "--x")


def test_blocks_are_separate_shells():
    text = "```bash\nRUN=7\n```\n\n```bash\ntail logs/$RUN.log\n```\n"
    [tail] = commands(text)
    assert tail.words[1].value is None


def test_an_unclosed_block_runs_to_the_end_and_a_longer_fence_nests():
    text = "````bash\necho '```'\n```\npython t.py\n"
    assert [c.name for c in commands(text)] == ["echo", "python"]


def test_syntax_error_points_into_the_block():
    text = "# Runbook\n\n```console\n$ python t.py <path>\n```\n"
    script = parse_markdown("RUNBOOK.md", text, LineIndex(text))
    [(location, _)] = script.parse_errors
    assert location.line == 4
