"""LL301-LL304 through the real command: exact positions, related locations, path-map."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

LAUNCHLINT = shutil.which("launchlint") or "launchlint"

TRAIN = (
    "import argparse\n"
    "\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--warmup_steps", type=int)\n'
    'parser.add_argument("--lr", type=float)\n'
    'parser.add_argument("--data-path", required=True)\n'
    "args = parser.parse_args()\n"
)


def lint(root: Path, files: dict[str, str], *options: str) -> list[dict]:
    (root / ".git").mkdir(exist_ok=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    chosen = () if "--select" in options else ("--select", "LL301,LL302,LL303")  # a repeated --select adds up
    result = subprocess.run(
        [LAUNCHLINT, "--no-cache", "--format", "json", *chosen, *options, "."],
        cwd=root, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def where(finding: dict) -> tuple:
    return finding["code"], finding["path"], finding["line"], finding["column"], finding["end_column"]


def test_array_element_on_a_continued_command(tmp_path):
    launch = (
        "#!/bin/bash\n"
        "ARGS=(\n"
        "    --data-path /data\n"
        "    --warmup-steps 500\n"
        ")\n"
        "torchrun --nproc_per_node 8 --master_port 29501 \\\n"
        '    train.py "${ARGS[@]}"\n'
    )
    (finding,) = lint(tmp_path, {"train.py": TRAIN, "launch.sh": launch})
    assert where(finding) == ("LL301", "launch.sh", 4, 5, 19)
    assert finding["message"] == (
        "`--warmup-steps` is not an option of train.py: it exits at start-up with 'unrecognized arguments'; "
        "fix it (did you mean `--warmup_steps`?), or add it to the parser"
    )
    (related,) = finding["related"]
    assert (related["path"], related["line"], related["column"]) == ("train.py", 4, 1)


def test_the_flag_of_an_equals_form_and_a_missing_required_option(tmp_path):
    findings = lint(tmp_path, {"train.py": TRAIN, "run.sh": "python -u train.py --lr=3e-4 --warmup_step=5 --epochs 3\n"})
    assert [where(f) for f in findings] == [
        ("LL302", "run.sh", 1, 11, 19),  # the program word
        ("LL301", "run.sh", 1, 46, 54),  # `--epochs`; `--warmup_step` is a prefix of `--warmup_steps`
    ]
    assert findings[0]["related"][0]["line"] == 6


def test_the_words_a_function_gives_a_program_are_judged_where_each_is_written(tmp_path):
    # `run() { python "$@"; }` (cryodrgn's sweep.sh): a flag or a path of the call at the call, a flag
    # of the body at the body; a required option no call passes at the program, with the call
    launch = (
        "#!/bin/bash\n"
        'train() { python train.py --warmup-steps 5 "$@"; }\n'
        "train --data-path /d --epochs 3\n"
        "train --lr 1\n"
        'run() { python "$@"; }\n'
        "run trian.py --lr 1\n"
    )
    findings = lint(tmp_path, {"train.py": TRAIN, "run.sh": launch})
    assert [where(f) for f in findings] == [
        ("LL302", "run.sh", 2, 18, 26),  # the body's program word
        ("LL301", "run.sh", 2, 27, 41),  # the body's `--warmup-steps`, once
        ("LL301", "run.sh", 3, 22, 30),  # the call's `--epochs`
        ("LL303", "run.sh", 6, 5, 13),  # the call's `trian.py`
    ]
    call = findings[0]["related"][-1]
    assert (call["line"], call["column"], call["message"]) == (4, 1, "the call of the function that launches it so")


def test_a_required_flag_cut_off_by_a_broken_continuation_is_pointed_at(tmp_path):
    launch = "python train.py \\\n    --lr 1e-4 \\ # tune\n    --warmup_steps 5 \\\n    --data-path /data\n"
    (finding,) = lint(tmp_path, {"train.py": TRAIN, "run.sh": launch})
    assert where(finding) == ("LL302", "run.sh", 1, 8, 16)
    assert finding["message"].endswith("; `--data-path` on line 4 is cut off from it: delete what follows the `\\` on line 2")
    stranded = finding["related"][1]
    assert (stranded["path"], stranded["line"], stranded["column"]) == ("run.sh", 4, 5)
    assert stranded["message"] == "a command of its own: line 2 ends the launch, as its `\\` escapes the blank after it, not the line end"
    (finding,) = lint(tmp_path, {"run.sh": "python train.py --lr 1e-4\n    --data-path /data\n"})
    assert finding["related"][1]["message"] == "a command of its own: line 1 ends the launch, as it does not end with `\\`"
    assert finding["message"].endswith("; `--data-path` on line 2 is cut off from it: end line 1 with `\\`")
    (finding,) = lint(tmp_path, {"run.sh": "python train.py --lr 1e-4 \\ \n    --data-path /data\n"})
    assert finding["related"][1]["message"] == "a command of its own: line 1 ends the launch, as a space follows its `\\`"
    assert finding["message"].endswith("; `--data-path` on line 2 is cut off from it: delete the blanks after the `\\` of line 1")
    (finding,) = lint(tmp_path, {"run.sh": "python train.py \\\n    --lr 1e-4 \\\n    # --foo 2 \\\n    --data-path /data\n"})
    assert finding["message"].endswith("; `--data-path` on line 4 is cut off from it: uncomment or delete line 3")
    assert finding["related"][1]["message"] == "a command of its own: line 2 ends the launch, as the comment on line 3 ends it"
    # a flag after a line that starts a command of another name is not the launch's
    (finding,) = lint(tmp_path, {"run.sh": "python train.py \\\n    --lr 1e-4 \\ # tune\necho x\n    --data-path /data\n"})
    assert len(finding["related"]) == 1


def test_nested_ssh_and_tmux_strings_with_a_path_map(tmp_path):
    files = {
        ".launchlint.yaml": "path-map:\n  /srv/app/: deploy/\n",
        "deploy/train.py": TRAIN,
        "old/train.py": "print('an older copy: the name alone cannot decide')\n",
        "launch.sh": (
            "ssh gpu1 \"tmux new-session -d -s job "
            "'python /srv/app/train.py --data-path /d --lr-rate 1 2>&1 | tee /srv/app/run.log'\"\n"
            "ssh gpu1 'bash /srv/app/missing.sh'\n"
            "bash /srv/app/also_missing.sh\n"
        ),
    }
    findings = lint(tmp_path, files)
    assert [where(f) for f in findings] == [
        ("LL301", "launch.sh", 1, 79, 88),
        ("LL303", "launch.sh", 3, 6, 30),  # local and mapped; the remote absolute path is not reported
    ]
    assert findings[0]["related"][0]["path"] == "deploy/train.py"
    assert "not under the path-map directory deploy" in findings[1]["message"]


def test_a_path_map_claims_a_local_absolute_config_as_it_claims_a_script(tmp_path):
    """LL304 resolves an absolute path as LL303 does: a local one that a prefix claims is the
    project's; found under the directory or by its unique name, or in a directory it lacks."""
    files = {
        ".launchlint.yaml": "path-map:\n  /root/: deploy/\n",
        "deploy/c.yaml": "a: 1\n",
        "deploy/x.sh": "echo\n",
        "uniq.yaml": "a: 1\n",
        "train.py": TRAIN,
        "run.sh": (
            "python train.py --data-path d --config /root/c.yaml\n"
            "python train.py --data-path d --config /root/missing.yaml\n"
            "bash /root/x.sh\nbash /root/missing.sh\n"
            "python train.py --data-path d --config /root/made/x.yaml\n"
            "python train.py --data-path d --config /root/other/uniq.yaml\n"
            "python train.py --data-path d --config /opt/x.yaml\n"
            "ssh gpu1 'python /srv/t.py --config /root/gone.yaml'\n"
        ),
    }
    findings = lint(tmp_path, files, "--select", "LL303,LL304")
    assert [where(f)[:3] for f in findings] == [("LL304", "run.sh", 2), ("LL303", "run.sh", 4)]


def test_eval_of_a_command_string_and_a_variable_holding_flags(tmp_path):
    launch = (
        'FLAGS="--data-path /data --lr 1e-4 --warmup 10 --fp16"\n'
        'run_cmd="deepspeed --no_local_rank --num_gpus 2 train.py $FLAGS"\n'
        "echo $run_cmd\n"
        "eval ${run_cmd}\n"
    )
    (finding,) = lint(tmp_path, {"train.py": TRAIN, "run.sh": launch})
    assert finding["code"] == "LL301" and finding["line"] == 4
    assert finding["message"].startswith("`--fp16` is not an option of train.py")


def test_click_group_subcommand_and_a_namesake_that_is_not_checked(tmp_path):
    tool = (
        "import click\n\n\n@click.group()\ndef cli():\n    pass\n\n\n"
        "@cli.command()\n@click.option('--steps', type=int, required=True)\ndef train(steps):\n    pass\n\n\n"
        "if __name__ == '__main__':\n    cli()\n"
    )
    # `tools/tool.py` is not in the project: the root's tool.py has its name but not its path
    # (its flags are not checked against the root's, and LL303 says it is missing)
    run = "python tool.py train --step 3\npython tool.py train --steps 3\npython tools/tool.py train\n"
    findings = lint(tmp_path, {"tool.py": tool, "tools/other.py": "", "run.sh": run})
    assert [where(f) for f in findings] == [
        ("LL302", "run.sh", 1, 8, 15),
        ("LL301", "run.sh", 1, 22, 28),  # click accepts no prefixes
        ("LL303", "run.sh", 3, 8, 21),
    ]


def test_launcher_options_the_graph_reads_like_the_launch_rules(tmp_path):
    """One reader of launcher command lines for the graph and the launch rules: options inside a
    variable (`$DISTRIBUTED_ARGS`) are split as the shell splits them, and an option whose value is
    unknown (`--nproc_per_node=$N`) no longer hides the program from the graph (it did), so LL301
    checks the flags the module is given."""
    found = lint(tmp_path, {
        "train.py": TRAIN,
        "pkg/__init__.py": "",
        "pkg/train.py": TRAIN,
        "run.sh": (
            'DISTRIBUTED_ARGS="--nproc_per_node 8 --nnodes 1"\n'
            "torchrun $DISTRIBUTED_ARGS train.py --lr 0.1 --bogus 10 --data-path d\n"
            "torchrun --standalone --nproc_per_node=$N -m pkg.train --lr 0.1 --epochs 3 --data-path d\n"
        ),
    })
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("LL301", 2, 46), ("LL301", 3, 65)]


def test_python_option_clusters_and_an_attached_module(tmp_path):
    """`python -msphinx -M help`: the module is sphinx, `help` is its argument, not a script;
    `-um pkg.train` runs the project's module, whose flags are checked."""
    files = {
        "pkg/__init__.py": "",
        "pkg/train.py": TRAIN,
        "docs.sh": "python -msphinx -M help . _build\n",
        "run.sh": "python -um pkg.train --data-path /d --warmup-step 5\npython -Werror -X dev pkg/train.py --data-path /d --lr=1\n",
    }
    assert [where(f) for f in lint(tmp_path, files)] == [("LL301", "run.sh", 1, 37, 50)]


def test_what_the_scripts_make_for_ll303_and_ll304(tmp_path, monkeypatch):
    """`made_by`: a redirect's file (not a `<` input), a `tee`'s, the arguments of a command that
    copies or downloads (not its options: `-q`, `-o -`), a clone's directory; a command that makes
    nothing adds nothing."""
    from launchlint.engine import Options, build_project
    from launchlint.launches import made_by

    (tmp_path / ".git").mkdir()
    (tmp_path / "setup.sh").write_text(
        "cat > job.sh <<EOF\necho hi\nEOF\n"
        "python train.py 2>&1 | tee logs/run.log\n"
        "wget -q https://example.com/install/setup_env.sh\n"
        "curl -fsSL -o - https://example.com/get.sh\n"
        "git clone https://github.com/org/harness.git tools/harness\n"
        "git pull\n"
        "sort < input.txt > sorted.txt\n"
        "echo done.txt\n"
    )
    monkeypatch.chdir(tmp_path)
    project = build_project(["."], Options(jobs=1, cache=False))[0]
    made = made_by(project)
    assert made.files == {"job.sh", "run.log", "setup_env.sh", "get.sh", "sorted.txt"}
    assert made.clones == {"harness"}


def test_accelerate_flags_take_no_value(tmp_path, monkeypatch):
    """A flag of `accelerate launch` (`--multi_gpu`, `--cpu`, `--use_deepspeed`, ...) never takes
    the next word as its value: in `accelerate launch --multi_gpu "$SCRIPT" --main_process_port
    6000` the program is $SCRIPT and the port option is the program's, not the launcher's."""
    from launchlint.engine import Options, build_project
    from launchlint.launches import launch_of

    (tmp_path / ".git").mkdir()
    (tmp_path / "run.sh").write_text('accelerate launch --multi_gpu --cpu "$SCRIPT" --main_process_port 6000\n')
    monkeypatch.chdir(tmp_path)
    project = build_project(["."], Options(jobs=1, cache=False))[0]
    [command] = project.shell["run.sh"].commands
    launch = launch_of(command)
    assert set(launch.options) == {"multi_gpu", "cpu"}
    assert launch.program.template == "$SCRIPT" and not launch.all_options_known


def test_a_shells_option_names_are_not_its_script(tmp_path):
    """`bash -eo pipefail x.sh` runs x.sh (`pipefail` is the name `-o` takes), and `bash -O
    extglob -c '...'` runs a string, no script at all."""
    found = lint(tmp_path, {"run.sh": "bash -eo pipefail prep.sh\nbash -O extglob -c 'echo hi'\n"})
    assert [where(f) for f in found] == [("LL303", "run.sh", 1, 19, 26)]


@pytest.mark.parametrize(
    "template,expected",
    [
        ('$(dirname "$0")/common.env', "tests/llm/common.env"),
        ('$(dirname "${BASH_SOURCE[0]}")/../env.sh', "tests/env.sh"),
        ('$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd)/common.env', "tests/llm/common.env"),
        ('$(cd "$(dirname "$0")"; pwd -P)', "tests/llm"),
        ("$(dirname $0)", "tests/llm"),
        ("$(pwd)/common.env", None),
        ('$(dirname "$1")/x.sh', None),
        ('$(dirname "$0")/$NAME.sh', None),
        # each form closes as it opened (the pattern's conditions on `tick` and `cd`)
        ("`dirname $0`/x.sh", "tests/llm/x.sh"),
        ("$(cd `dirname $0`; pwd)/x", "tests/llm/x"),
        ("`dirname $0)/x.sh", None),
        ("$(dirname $0`/x.sh", None),
        ("$(cd $(dirname $0))/x", None),
        ('$(cd "$(dirname "$(realpath "$0")")" && pwd)/x', "tests/llm/x"),
        ("$(cd $(dirname $0) >/dev/null 2>&1 && pwd -P)/../x.sh", "tests/x.sh"),
        ("${BASH_SOURCE%/*}/x.sh", "tests/llm/x.sh"),
        # a path inside the `cd` (`ROOT=$(cd "$(dirname "$0")/.." && pwd)`: HashNet, helper-327)
        ('$(cd "$(dirname "$0")/.." && pwd)', "tests"),
        ('$(cd "$(dirname "$0")/../.." && pwd)/train.py', "train.py"),
        ('$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../tools" &> /dev/null && pwd)/x.sh', "tests/tools/x.sh"),
        ('$(cd "$(dirname "$0")/$SUB" && pwd)/x.sh', None),
        # the directory resolved (`BINDIR=$(realpath "$(dirname $0)")`: DiffIR's, helper-357)
        ('$(realpath "$(dirname $0)")/x.py', "tests/llm/x.py"),
        ('$(readlink -f "$(dirname "${BASH_SOURCE[0]}")")/../x.sh', "tests/x.sh"),
        ('$(realpath "$(dirname $0)"/x.py', None),
    ],
)
def test_own_path_is_a_path_from_the_scripts_own_directory(template, expected):
    from launchlint.graph import own_path
    from launchlint.model import Location
    from launchlint.shellfacts import Word

    word = Word(None, template, Location("tests/llm/run.sh", 1, 1, 1, 2), ())
    assert own_path(word, "tests/llm/run.sh") == expected


@pytest.mark.parametrize(
    "resolve",
    ['SCRIPT=$(readlink -f "$0")\nHERE=$(dirname "$SCRIPT")\n', "script_path=$(realpath $0)\nHERE=$(dirname $script_path)\n"],
)
def test_the_launchers_directory_found_in_two_steps_is_its_own(tmp_path, resolve):
    """The resolved path first, its directory next: `$HERE/x.py` is a path from the launcher's own
    directory, as `$(dirname "$(readlink -f "$0")")/x.py` is (SwissArmyTransformer's launchers)."""
    launch = resolve + 'python "$HERE/trian.py"\npython "$HERE/train.py"\nOTHER=$(dirname "$DATA")\npython "$OTHER/x.py"\n'
    found = lint(tmp_path, {"scripts/train.py": "print(1)\n", "scripts/launch.sh": launch})
    assert [(f["code"], f["path"], f["line"]) for f in found] == [("LL303", "scripts/launch.sh", 3)]
    assert "leads to scripts/trian.py, which does not exist" in found[0]["message"]


def test_a_missing_script_between_two_names_as_close_gets_no_guess(tmp_path):
    """`pretrain_model.py` is as close to the llama trainer as to the mamba one: naming either
    would send the user to the wrong model (fms-fsdp); one close name is still offered."""
    trainers = {"pretrain_model_llama.py": "print(1)\n", "pretrain_model_mamba.py": "print(2)\n"}
    [finding] = lint(tmp_path, {**trainers, "launch.sh": "torchrun --nproc_per_node=8 pretrain_model.py\n"})
    assert finding["code"] == "LL303" and "did you mean" not in finding["message"]
    (tmp_path / "pretrain_model_mamba.py").unlink()
    [finding] = lint(tmp_path, {})
    assert "(did you mean `pretrain_model_llama.py`?)" in finding["message"]


def test_a_missing_scripts_guess_is_of_its_kind_and_never_the_launcher(tmp_path):
    """`python run_analysis.py` in `scripts/run_analysis.sh`: the launcher's own name is the
    closest, and no answer; a `.py` of a close name is (esvit)."""
    files = {"scripts/run_analysis.sh": "python run_analysis.py --seed 1\n", "analyze.py": "print(1)\n"}
    [finding] = lint(tmp_path, files)
    assert finding["code"] == "LL303" and "did you mean" not in finding["message"]
    [finding] = lint(tmp_path, {"scripts/run_analysis.sh": "python run_analysys.py --seed 1\n", "run_analysis.py": "print(1)\n"})
    assert "(did you mean `run_analysis.py`?)" in finding["message"]


def test_a_missing_scripts_guess_looks_next_to_the_launcher_first(tmp_path):
    """`aquila_code.py` beside `aquila_code_pretrain.py`: the neighbour whose name extends it,
    less alike than a distant `aquila_model.py`, is the one meant (FlagAI), as a dated name's
    undated neighbour is (Pai-Megatron-Patch); a neighbour that merely looks alike is not."""
    files = {
        "examples/code/run.sh": "python aquila_code.py --seed 1\n",
        "examples/code/aquila_code_pretrain.py": "print(1)\n",
        "examples/code/generate_code.py": "print(2)\n",
        "examples/model/aquila_model.py": "print(3)\n",
    }
    [finding] = lint(tmp_path, files)
    assert "(did you mean `aquila_code_pretrain.py`?)" in finding["message"]  # beside the launcher: as it runs it
    (tmp_path / "examples/code/aquila_code_pretrain.py").unlink()
    [finding] = lint(tmp_path, {})
    assert "(did you mean `examples/model/aquila_model.py`?)" in finding["message"]
    dated = {"examples/ds/run.sh": "python pretrain_ds_250624.py\n", "examples/ds/pretrain_ds.py": "print(1)\n"}
    (tmp_path / "dated").mkdir()
    [finding] = lint(tmp_path / "dated", dated)
    assert "(did you mean `pretrain_ds.py`?)" in finding["message"]


def test_a_missing_scripts_guess_is_at_the_root_or_in_a_directory_its_paths_name(tmp_path):
    """`examples/train/b/train_drgrpo.sh` is the `examples/train/a/train_1.5b_drgrpo.sh` there, not
    the closer name in a vendored copy, in no directory the launcher's path or the written path
    names (verl-tool's `verl/recipe/char_count/train_grpo.sh`); with none there, there is no guess.
    A file at the root, where launchers are run from, is one."""
    files = {
        "launch.sh": "bash examples/train/b/train_drgrpo.sh\n",
        "examples/train/a/train_1.5b_drgrpo.sh": "echo a\n",
        "vendor/recipe/x/train_grpo.sh": "echo v\n",
        "scripts/run.sh": "python trian.py\n",
        "train.py": "print(1)\n",
    }
    first, second = lint(tmp_path, files)
    assert "(did you mean `examples/train/a/train_1.5b_drgrpo.sh`?)" in first["message"]
    assert "(did you mean `train.py`?)" in second["message"]
    (tmp_path / "examples/train/a/train_1.5b_drgrpo.sh").unlink()
    first, _ = lint(tmp_path, {})
    assert first["code"] == "LL303" and "did you mean" not in first["message"]


def test_a_stream_replaced_in_an_imported_module_names_the_launch_of_its_importer(tmp_path):
    """`setup()` of `pkg/log.py` replaces stdout for the trainer that imports it: the launch that
    pipes the trainer is the capture LL204 names, and the file is the one `path` names."""
    files = {
        ".launchlint.yaml": "# root\n",
        "run.sh": "#!/bin/bash\nset -o pipefail\npython -u train.py 2>&1 | tee out.log\n",
        "train.py": "from pkg.log import setup\n\nsetup('run/train.log')\nprint('training')\n",
        "pkg/__init__.py": "",
        "pkg/log.py": "import sys\n\n\ndef setup(path):\n    sys.stdout = open(path, 'a')\n",
        "other.py": "import pkg\n",  # imports the package, not its log module
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    result = subprocess.run(
        [LAUNCHLINT, "--no-cache", "--format", "json", "--select", "LL204", "."], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    [finding] = json.loads(result.stdout)
    assert (finding["path"], finding["line"], finding["column"]) == ("pkg/log.py", 5, 5)
    assert [(r["path"], r["line"]) for r in finding["related"]] == [("run.sh", 3)]
    assert "into the file `path`" in finding["message"] and "the caller capturing it gets nothing more" in finding["message"]


def test_a_redirect_the_user_asks_for_names_only_the_launch_that_asks_for_it(tmp_path):
    """`if args.redirect:` of a `store_true`: of the launches that pipe the trainer, only the one
    that passes `--redirect` loses its output, and LL204 names that one; with it gone, none."""
    files = {
        ".launchlint.yaml": "# root\n",
        "train.py": (
            "import argparse\nimport sys\n\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--redirect', action='store_true')\nargs = parser.parse_args()\n"
            "if args.redirect:\n    sys.stdout = open('train.log', 'w')\n"
        ),
        "eval.sh": "#!/bin/bash\nset -o pipefail\npython train.py | tee eval.log\n",
        "run.sh": "#!/bin/bash\nset -o pipefail\npython train.py --redirect | tee run.log\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    command = [LAUNCHLINT, "--no-cache", "--format", "json", "--select", "LL204", "."]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    [finding] = json.loads(result.stdout)
    assert (finding["path"], finding["line"]) == ("train.py", 8)
    assert [(r["path"], r["line"]) for r in finding["related"]] == [("run.sh", 3)]
    (tmp_path / "run.sh").unlink()
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert json.loads(result.stdout) == []


@pytest.mark.parametrize("here", ["`pwd`", "$(pwd)", '"$(pwd)"', "$PWD", '"${PWD}"'])
def test_a_cd_in_a_container_into_the_launchers_own_directory_is_this_checkout(tmp_path, here):
    """NeMo's scripts/dit/dit_train.sh: `DIR=`pwd``, then the container's shell does `cd ${DIR}`
    and runs a trainer the project does not have (nemo/collections/diffusion/ has no train.py):
    the directory is the launcher's own (no `cd` before), not another checkout. The same
    trainer present, or a `cd` to a directory not known here before the `pwd`, is silent."""
    launch = (
        "#!/bin/bash\nDIR={here}\nsrun -l --container-image nvcr.io/nvidia/nemo:dev --container-mounts /home:/home "
        'bash -c "cd ${{DIR}} ; python -u nemo/collections/diffusion/train.py --yes $*"\n'
    )
    files = {"scripts/dit/dit_train.sh": launch.format(here=here), "nemo/collections/diffusion/__init__.py": ""}
    findings = lint(tmp_path, files)
    column = files["scripts/dit/dit_train.sh"].splitlines()[2].index("nemo/collections/diffusion/train.py") + 1
    assert [where(f) for f in findings] == [("LL303", "scripts/dit/dit_train.sh", 3, column, column + 35)]
    assert "in a container, and no file of the project has that name" in findings[0]["message"]
    (tmp_path / "nemo/collections/diffusion/train.py").write_text("print('train')\n")
    assert lint(tmp_path, {}) == []
    (tmp_path / "nemo/collections/diffusion/train.py").unlink()
    assert lint(tmp_path, {"scripts/dit/dit_train.sh": launch.format(here=f'"$WORK"\ncd $DIR\nDIR={here}')}) == []


def test_a_path_from_pwd_is_where_the_shell_is_and_absolute_when_it_runs(tmp_path):
    """After `cd data`, `$(pwd)/train.py` is data/train.py; verl's `PROJECT_DIR="$(pwd)"` then
    `--config-path="$PROJECT_DIR/examples/config"` is an absolute config path when it runs, not
    one relative to the Hydra program (18 false LL304s on verl while pwd was "." with no more)."""
    files = {
        "data/train.py": "print('train')\n",
        "trainer/main_ppo.py": "import hydra\n",
        "examples/config/gsm8k.yaml": "a: 1\n",
        "run.sh": (
            '#!/bin/bash\nPROJECT_DIR="$(pwd)"\nCONFIG_PATH="$PROJECT_DIR/examples/config"\n'
            'python3 -m trainer.main_ppo --config-path="$CONFIG_PATH" --config-name=gsm8k\n'
            "cd data\npython $(pwd)/train.py\npython $PWD/evaluate.py\n"
        ),
    }
    findings = lint(tmp_path, files, "--select", "LL303,LL304")
    assert [(f["code"], f["path"], f["line"]) for f in findings] == [("LL303", "run.sh", 7)]
    assert findings[0]["message"].startswith("`./evaluate.py` is not under data/, where the launcher cds")


def test_a_makefile_default_its_caller_decides_is_judged_alike_by_every_rule(tmp_path):
    """`?=` is whoever runs make's (`make train NGPU=2`), for LL302, LL303, LL401 and LL402 alike
    (`launches.decided_by_caller`), as a shell default a calling script sets is; but only for the
    value it gives: not a count or a port when it names the interpreter or the program's
    arguments, and two launches that take it share it, whatever it is."""
    files = {
        "train.py": TRAIN,
        "Makefile": (
            "SCRIPT ?= pretrain.py\nNGPU ?= 8\nPYTHON ?= python3\nARGS ?=\nPORT ?= 29500\n"
            "train:\n"
            "\tpython $(SCRIPT) --lr 1\n"  # 7: LL303 silent: `make train SCRIPT=...`
            "\tCUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node $(NGPU) train.py $(ARGS)\n"  # 8: LL401/LL302 silent
            "\tCUDA_VISIBLE_DEVICES=0,1 $(PYTHON) -m torch.distributed.run --nproc_per_node 8 train.py --data-path /d $(ARGS)\n"
            "\ttorchrun --master_port $(PORT) train.py --data-path /d & torchrun --master_port $(PORT) train.py --data-path /e & wait\n"
        ),
        "run.sh": "#!/bin/bash\npython train.py ${EXTRA:-}\n",  # LL302: the caller passes it
        "sweep.sh": "#!/bin/bash\nEXTRA='--data-path /d' bash run.sh\n",
    }
    findings = lint(tmp_path, files, "--select", "LL302,LL303,LL401,LL402")
    assert [(f["code"], f["path"], f["line"]) for f in findings] == [
        ("LL401", "Makefile", 9),
        ("LL402", "Makefile", 10),
    ]
    assert "(--master_port 29500, or whatever `PORT` is set to)" in findings[1]["message"]


def test_a_loop_over_static_words_judges_each_word_on_its_place_in_the_list(tmp_path):
    """`for s in prepare.py trian.py; do python "$s"; done` runs each word: the missing one is
    reported where the list has it (one finding each), the command related; each program's own
    parser judges the flags (LL301), and each config the option takes (LL304)."""
    prepare = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data')\np.parse_args()\n"
    launch = (
        "#!/bin/bash\n"
        "for s in prepare.py trian.py eval.py; do\n"
        '  python "$s" --data d\n'
        "done\n"
        "for s in prepare.py train.py; do python $s --data d --lr 1; done\n"
        'for cfg in a.yaml b.yaml; do python train.py --data d --config "$cfg"; done\n'
    )
    train = TRAIN + "parser.add_argument('--config')\n"
    files = {"prepare.py": prepare, "train.py": train, "a.yaml": "lr: 1\n", "launch.sh": launch}
    found = lint(tmp_path, files, "--select", "LL301,LL302,LL303,LL304")
    assert [where(f) for f in found] == [
        ("LL303", "launch.sh", 2, 21, 29),  # `trian.py` in the list
        ("LL303", "launch.sh", 2, 30, 37),  # `eval.py`
        ("LL301", "launch.sh", 5, 53, 57),  # `--lr`: not prepare.py's; train.py has it
        ("LL304", "launch.sh", 6, 19, 25),  # `b.yaml`
    ]
    assert found[0]["message"].startswith("`trian.py` is not next to this file or under the project root")
    assert [(r["path"], r["line"], r["column"]) for r in found[0]["related"]][-1] == ("launch.sh", 3, 3)
    assert "not an option of prepare.py" in found[2]["message"]
    assert found[3]["message"].startswith("`--config b.yaml`: no such file")
    # a word of the list not static leaves the variable unknown: nothing is judged
    found = lint(tmp_path, {"launch.sh": 'for s in prepare.py trian.py $MORE; do python "$s" --lr 1; done\n'})
    assert found == []
    # the `for` line's comment, or one above it, covers its list, continued lines too
    for launch in ("# launchlint: disable=LL303\nfor s in prepare.py \\\n  trian.py; do\n", "for s in prepare.py \\\n  trian.py; do  # launchlint: disable=LL303\n"):
        assert lint(tmp_path, {"launch.sh": launch + '  python "$s"\ndone\n'}, "--select", "LL002,LL303") == []


def test_a_flag_written_before_a_loop_variable_is_one_finding_on_its_characters(tmp_path):
    """`--y=$a` in `for a in 1 2`: the flag is the command's, written once, not the list's `1`
    and `2` (one finding each, there, as it was); a flag a word of the list holds is at that word,
    and one the loop's value completes (`--y$a=0`) at each word, as each is another flag. A flag
    before an unknown value (`--bogus=$X`) is located on its own characters too."""
    launch = (
        "for a in 1 2; do\n"
        "  python train.py --data-path d --y=$a\n"
        '  python train.py --data-path d "--z=$a"\n'
        "done\n"
        "for f in --lr --bogus; do python train.py --data-path d $f 1; done\n"
        "for a in 1 2; do python train.py --data-path d --y$a=0; done\n"
        "python train.py --data-path d --bogus=$X\n"
    )
    found = lint(tmp_path, {"train.py": TRAIN, "run.sh": launch})
    assert [where(f) for f in found] == [
        ("LL301", "run.sh", 2, 33, 36),  # `--y`
        ("LL301", "run.sh", 3, 34, 37),  # `--z`, inside the quotes
        ("LL301", "run.sh", 5, 15, 22),  # `--bogus` in the list
        ("LL301", "run.sh", 6, 10, 11),  # `--y1`: the list's `1`
        ("LL301", "run.sh", 6, 12, 13),  # `--y2`
        ("LL301", "run.sh", 7, 31, 38),  # `--bogus` of `--bogus=$X`
    ]
    assert [f["message"].split("`")[1] for f in found] == ["--y", "--z", "--bogus", "--y1", "--y2", "--bogus"]


def test_an_mcli_runs_git_repo_integration_is_a_clone_its_command_may_cd_into(tmp_path):
    """MosaicML's examples: `integrations: [{integration_type: git_repo, git_repo: mosaicml/llm-foundry}]`
    clones llm-foundry (or into `path:`) before `command:` runs, as `git clone URL [DIR]` would; a
    script after a `cd` into it is the clone's. One the command runs before any `cd` is still reported."""
    run = (
        "name: ft\nimage: mosaicml/pytorch:latest\nintegrations:\n- integration_type: git_repo\n"
        "  git_repo: mosaicml/llm-foundry\n- integration_type: git_repo\n  git_repo: EleutherAI/gpt-neox\n"
        "  path: /workspace/gpt-neox\n  git_commit: 1a2b3c\ncommand: |\n  python tools/missing.py\n  cd llm-foundry/scripts\n"
        "  composer train/train.py /mnt/config/parameters.yaml\n  cd /workspace/gpt-neox\n"
        "  python prepare_data.py enwik8 -d ./data\n  ./deepy.py train.py configs/small.yml\n"
    )
    found = lint(tmp_path, {"mcli/finetune.yaml": run, "helper.py": "print(1)\n"}, "--select", "LL303")
    assert [(f["code"], f["path"], f["line"]) for f in found] == [("LL303", "mcli/finetune.yaml", 11)]


def test_a_script_the_project_holds_as_a_link_is_there_whatever_its_target(tmp_path):
    # A recipe's link into a toolkit checkout not on this machine (WenetSpeech's espnet recipe):
    # the launcher runs what the repository holds, so LL303 has nothing to say; a missing name still counts.
    (tmp_path / "recipe").mkdir()
    (tmp_path / "recipe" / "asr.sh").symlink_to("../../../espnet/egs2/TEMPLATE/asr1/asr.sh")
    findings = lint(tmp_path, {"recipe/run.sh": "#!/bin/bash\n./asr.sh --stage 1\n./asr2.sh --stage 1\n"})
    assert [where(f) for f in findings] == [("LL303", "recipe/run.sh", 3, 1, 10)]


def test_a_script_in_an_empty_directory_is_another_checkouts(tmp_path):
    """git keeps no empty directory: an empty one is a submodule a clone without `--recursive`
    left empty (meditron's `Megatron-LLM/`), whose scripts are another checkout's; once it holds
    files, a path into it that none of them is is missing."""
    files = {
        ".gitmodules": '[submodule "ext"]\n\tpath = ext\n\turl = https://example.com/ext.git\n',
        "train.py": "print(1)\n",
        "scripts/run.sh": "torchrun --nproc_per_node 2 ext/finetune.py --lr 1\n",
    }
    (tmp_path / "ext").mkdir()
    assert lint(tmp_path, files) == []
    (tmp_path / "ext" / "README.md").write_text("the submodule, checked out\n")
    [finding] = lint(tmp_path, {})
    assert (finding["code"], finding["path"], finding["line"]) == ("LL303", "scripts/run.sh", 1)


def test_a_script_deeper_in_an_empty_directory_is_another_checkouts(tmp_path):
    """tenset's `python3 3rdparty/dmlc-core/scripts/lint.py`: the submodule is empty, in a
    directory (`3rdparty/`) that holds others; once it holds files, a path into it is judged."""
    files = {
        "3rdparty/libcrc/crc.c": "int crc;\n",
        "train.py": "print(1)\n",
        "tests/lint/cpplint.sh": "#!/bin/bash\npython3 3rdparty/dmlc-core/scripts/lint.py tvm cpp src\n",
    }
    (tmp_path / "3rdparty" / "dmlc-core").mkdir(parents=True)
    assert lint(tmp_path, files) == []
    (tmp_path / "3rdparty" / "dmlc-core" / "README.md").write_text("the submodule, checked out\n")
    [finding] = lint(tmp_path, {})
    assert (finding["code"], finding["path"], finding["line"]) == ("LL303", "tests/lint/cpplint.sh", 2)


def test_a_cd_into_an_empty_directory_goes_somewhere_not_known(tmp_path):
    """`cd third_party/pygloo` into a submodule a clone left empty (llumnix): where the shell is
    then is that checkout's, and `python setup.py install` there is not the root's setup.py."""
    files = {"setup.py": "print(1)\n", "tools/install.sh": "#!/bin/bash\ncd third_party/pygloo\npython setup.py install\n"}
    (tmp_path / "third_party" / "pygloo").mkdir(parents=True)
    assert lint(tmp_path, files) == []
    (tmp_path / "third_party" / "pygloo" / "README.md").write_text("checked out, without its setup.py\n")
    [finding] = lint(tmp_path, {})
    assert (finding["code"], finding["path"], finding["line"]) == ("LL303", "tools/install.sh", 3)


def test_a_missing_path_written_from_the_checkouts_parent_is_reported(tmp_path):
    """`base_file=NASLib/naslib`, then `python $base_file/benchmarks/x.py` (NASLib's scripts, run
    from the directory holding the clone): the path is the root's `naslib/benchmarks/x.py`, which
    the package no longer has; one that is there is found the same way."""
    name = tmp_path.name
    files = {
        "pkg/__init__.py": "print(1)\n",
        "pkg/tools/make_cfg.py": "print(2)\n",
        "scripts/run.sh": f"base={name}/pkg\npython $base/old/make_cfg.py\npython $base/tools/make_cfg.py\n",
    }
    [finding] = lint(tmp_path, files)
    assert (finding["code"], finding["path"], finding["line"]) == ("LL303", "scripts/run.sh", 2)


def test_a_shared_librarys_script_runs_where_its_library_is_a_link_not_resolved_here(tmp_path):
    """ESPnet's own `utils/show.sh` sources `utils/parse_options.sh`, Kaldi's, which no directory
    here has: it runs from a recipe whose `utils` is a link into Kaldi, valid once Kaldi is
    installed, where the recipe's run.sh sources the same path (helper-318's 24 false LL303). With
    no such link, the path is judged where the script is."""
    files = {
        "utils/show.sh": "#!/bin/bash\n. utils/parse_options.sh\nutils/validate_data_dir.sh data\n",
        "egs/a/st1/path.sh": "export PATH=$PWD/../../../utils:$PATH\n",
        "egs/a/st1/run.sh": "#!/bin/bash\n. ./path.sh\n. utils/parse_options.sh\nshow.sh data\n",
    }
    unlinked, linked = _without_and_with_a_kaldi_link(tmp_path, files, "egs/a/st1")
    assert unlinked == [("LL303", "utils/show.sh", 2), ("LL303", "utils/show.sh", 3)]
    assert linked == []


def _without_and_with_a_kaldi_link(tmp_path, files: dict[str, str], recipe: str) -> tuple[list, list]:
    """The findings of `files` (code, path, line), then with the recipe's `utils` a link into a
    Kaldi not installed here, as each ESPnet or EEND recipe has."""
    unlinked = tmp_path / "unlinked"
    unlinked.mkdir()
    linked = tmp_path / "linked"
    (linked / recipe).mkdir(parents=True)
    (linked / recipe / "utils").symlink_to("../../../tools/kaldi/egs/wsj/s5/utils", target_is_directory=True)
    return [where(f)[:3] for f in lint(unlinked, files)], [where(f)[:3] for f in lint(linked, files)]


def test_a_path_through_a_recipes_link_not_resolved_here_is_not_judged_against_the_roots_namesake(tmp_path):
    """EEND's recipes run Kaldi's `utils/fix_data_dir.sh` through their `utils` link (installed
    later), from the recipe and from its `local/` scripts; the root's own unrelated `utils/` made it
    missing (49 false LL303, helper-336). Without the link, the path is judged."""
    files = {
        "utils/best_score.sh": "echo best\n",
        "egs/a/v1/path.sh": "export PATH=$PWD/utils:$PATH\n",
        "egs/a/v1/run.sh": "#!/bin/bash\n. path.sh\nlocal/prep.sh data\nutils/fix_data_dir.sh data/train\n",
        "egs/a/v1/local/prep.sh": "#!/bin/bash\nutils/fix_data_dir.sh data/y\n",
    }
    unlinked, linked = _without_and_with_a_kaldi_link(tmp_path, files, "egs/a/v1")
    assert unlinked == [("LL303", "egs/a/v1/local/prep.sh", 2), ("LL303", "egs/a/v1/run.sh", 4)]
    assert linked == []


def test_a_path_both_the_root_and_a_directory_above_the_launcher_have_names_neither_program(tmp_path):
    """KernelGAT's `scikgat/script/inference.sh` runs `python ./kgat/test.py` from `scikgat/`,
    whose own `kgat/test.py` differs from the root's: the root's was judged (6 false, helper-343).
    With the root's only, it is the root's."""
    parser = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--dataset')\n{more}p.parse_args()\n"
    files = {
        "kgat/test.py": parser.format(more="p.add_argument('--bert_pretrain', required=True)\n"),
        "sub/kgat/test.py": parser.format(more="p.add_argument('--pretrain')\n"),
        "sub/script/run.sh": "python ./kgat/test.py --dataset dev.jsonl --pretrain m\n",
    }
    both = tmp_path / "both"
    both.mkdir()
    assert lint(both, files) == []
    root_only = tmp_path / "root_only"
    root_only.mkdir()
    del files["sub/kgat/test.py"]
    assert sorted(where(f)[:3] for f in lint(root_only, files)) == [("LL301", "sub/script/run.sh", 1), ("LL302", "sub/script/run.sh", 1)]


def test_a_remote_cd_into_a_homes_directory_of_the_checkouts_name_is_the_project(tmp_path):
    """`ssh gpu1 "cd ~/proj && python scripts/train.py ..."` in proj's own launcher runs proj's
    trainer (helpers 319, 320, 332), and `cd ~/proj/scripts` its directory (helpers 341, 342);
    `cd ~/other` there is another checkout, not judged."""
    launcher = (
        '#!/bin/bash\nssh gpu1 "cd ~/proj && python scripts/train.py --lrr 1"\n'
        'ssh gpu1 "cd ~/other && python scripts/train.py --lrr 1"\n'
        'ssh gpu1 "cd ~/code/proj/scripts && python train.py --lrr 1"\n'  # a directory of the checkout
        'ssh gpu1 "cd ~/proj/scripts && bash tset.sh"\n'
        'ssh gpu1 "cd ~/other/scripts && bash tset.sh"\n'
    )
    assert _in_proj(tmp_path, launcher) == [("LL301", "run.sh", 2), ("LL301", "run.sh", 4), ("LL303", "run.sh", 5)]


def _in_proj(tmp_path, launcher: str) -> list[tuple]:
    """(code, path, line) of the findings of a checkout named `proj` with `scripts/train.py` and
    the launcher `run.sh`."""
    root = tmp_path / "proj"
    root.mkdir()
    files = {"scripts/train.py": TRAIN.replace('parser.add_argument("--data-path", required=True)\n', ""), "run.sh": launcher}
    return [where(f)[:3] for f in lint(root, files)]


def test_a_local_cd_into_a_homes_directory_is_the_project_by_the_checkouts_name(tmp_path):
    """In the launcher's own shell as on another host: `cd ~/proj`, `cd ~ && cd proj/scripts` and
    `cd /workspace/proj` in proj's launcher run proj's trainer; `cd ~/other` and `cd /opt/other`
    another checkout's, whose flags are not judged (`cd /opt/other_checkout; python3 launch.py`
    runs its own launch.py, not the project's: helper-417)."""
    launcher = (
        "#!/bin/bash\ncd ~/proj && python scripts/train.py --lrr 1\n"
        "cd ~/other && python scripts/train.py --lrr 1\n"
        "cd ~ && cd proj/scripts && python train.py --lrr 1\n"
        "cd ~ && cd other/scripts && python train.py --lrr 1\n"
        "cd /workspace/proj && python scripts/train.py --lrr 1\n"
        "cd /opt/other && python train.py --lrr 1\n"
    )
    assert _in_proj(tmp_path, launcher) == [("LL301", "run.sh", 2), ("LL301", "run.sh", 4), ("LL301", "run.sh", 6)]


def test_a_program_run_through_a_linked_directory_is_the_file_the_link_leads_to(tmp_path):
    """FunASR's aishell recipes link `utils` to ../paraformer/utils, while other recipes hold a
    `utils/text2token.py` of their own: the walk names a linked directory's files by their own
    paths, so the program a recipe ran through its link was none of the project's (no LL106 for
    its `> run.log`, nor LL301 for its flags: helper-413's miss 5); after a `cd` into the recipe
    too. Without the link nothing is run, and nothing is said."""
    program = "#!/usr/bin/env python3\nimport argparse\n\nargparse.ArgumentParser().parse_args()\nprint(1)\n"
    files = {
        "a/utils/t.py": program,
        "c/utils/t.py": program,
        "b/run.sh": "#!/bin/bash\nutils/t.py --bad > run.log\n",
        "run.sh": "#!/bin/bash\ncd b && utils/t.py > ../b.log\n",
    }
    unlinked = tmp_path / "unlinked"
    unlinked.mkdir()
    assert lint(unlinked, files, "--select", "LL106,LL301") == []
    linked = tmp_path / "linked"
    (linked / "b").mkdir(parents=True)
    (linked / "b" / "utils").symlink_to("../a/utils", target_is_directory=True)
    assert [where(f)[:3] for f in lint(linked, files, "--select", "LL106,LL301")] == [
        ("LL106", "b/run.sh", 2), ("LL301", "b/run.sh", 2), ("LL106", "run.sh", 2),
    ]
