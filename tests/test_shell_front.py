"""The shell front end: words, variables, streams, and commands nested in strings."""

from __future__ import annotations

import pytest
from launchlint.front import shell
from launchlint.front.shell import MAX_CALL_WALKS, MAX_WALKS, parse_shell
from launchlint.shellfacts import DETACHED, FILE, INHERIT, NULL, PIPE, PROCSUB, SUBMITTED, shell_args


def commands(src: str, name: str | None = None):
    script = parse_shell("t.sh", src)
    return [c for c in script.effective_commands() if name is None or c.name == name]


def one(src: str, name: str):
    found = commands(src, name)
    assert len(found) == 1, [c.words for c in found]
    return found[0]


def position(src: str, line: int, needle: str) -> tuple[int, int]:
    """1-based (line, column) of `needle` on `line` of `src`."""
    return line, src.splitlines()[line - 1].index(needle) + 1


# --- nested command strings: each form, with its column mapped into the real file -------------

NESTED = [
    ("bash -c 'python train.py | tee log.txt'", "python train.py", ["bash-c"]),
    ('sh -c "python train.py"', "python train.py", ["bash-c"]),
    ("bash -lc 'python train.py'", "python train.py", ["bash-c"]),
    ("bash -o pipefail -c 'python train.py'", "python train.py", ["bash-c"]),  # `-o NAME` takes a word
    ("bash -eO extglob -c 'python train.py'", "python train.py", ["bash-c"]),
    ("bash -c -x 'python train.py'", "python train.py", ["bash-c"]),  # the string: the first operand
    ("ssh -o ConnectTimeout=10 -p 22 gpu1 'python train.py'", "python train.py", ["ssh"]),
    ("ssh gpu1 python train.py --lr 1", "python train.py", ["ssh"]),
    ("ssh gpu1 -t -- 'python train.py'", "python train.py", ["ssh"]),  # options after the host too
    ("ssh gpu1 $'cd /w\\t&& python train.py'", "python train.py", ["ssh"]),  # each character where written
    ("tmux new -d -s a \\; neww -d 'python train.py'", "python train.py", ["tmux"]),  # a `;` word: tmux's next command
    ("ssh -I /usr/lib/opensc-pkcs11.so gpu1 'python train.py'", "python train.py", ["ssh"]),
    ("gcloud compute ssh vm1 --zone us-central1-a --command 'python train.py'", "python train.py", ["ssh"]),
    ('gcloud alpha compute tpus tpu-vm ssh t1 --worker=all --command="python train.py"', "python train.py", ["ssh"]),
    ("${DRY_RUN} python train.py", "python train.py", ["prefix"]),
    ("tmux respawn-pane -k -t train:0 'python train.py | tee t.log'", "python train.py", ["tmux"]),
    ("tmux respawnw -k -c /w -t train 'python train.py'", "python train.py", ["tmux"]),  # `echo` or nothing: unknown here
    ("xargs --max-procs 4 python train.py", "python train.py", ["xargs"]),
    ("pct exec 200 -- python train.py", "python train.py", ["pct"]),
    ("docker exec -w /app trainer python train.py", "python train.py", ["docker"]),
    ("docker exec --detach-keys ctrl-q trainer python train.py", "python train.py", ["docker"]),
    ("kubectl exec -it pod-0 -- python train.py", "python train.py", ["kubectl"]),
    ('tmux new-session -d -s job "python train.py"', "python train.py", ["tmux"]),
    ("tmux new-window -d 'python train.py'", "python train.py", ["tmux"]),
    ("tmux send-keys -t job 'python train.py' Enter", "python train.py", ["tmux"]),
    ("tmux send-keys -t job 'python train.py' enter", "python train.py", ["tmux"]),  # key names in any case
    ("tmux send-keys -t job 'python train.py' \\; send-keys Enter", "python train.py", ["tmux"]),  # the same pane's
    ("tmux send-keys -t job $'python train.py\\n'", "python train.py", ["tmux"]),  # a line break ends the line
    ("tmux new-session -d -X 'python train.py'", "python train.py", ["tmux"]),
    ("tmux split-window -d -l 10 'python train.py'", "python train.py", ["tmux"]),
    ("screen -dmS job python train.py", "python train.py", ["screen"]),
    ("nohup python train.py &", "python train.py", ["nohup"]),
    ("setsid python train.py", "python train.py", ["setsid"]),
    ("timeout 3600 python train.py", "python train.py", ["timeout"]),
    ("env CUDA_VISIBLE_DEVICES=0 python train.py", "python train.py", ["env"]),
    ('env "$@" python train.py', "python train.py", ["env"]),  # assignments a caller passes (sample-factory's runner)
    ('env A=1 "${EXTRA_ENV[@]}" python train.py', "python train.py", ["env"]),
    ("taskset -c 0-7 python train.py", "python train.py", ["taskset"]),
    ('xvfb-run -a -s "-screen 0 1024x768x24" python train.py', "python train.py", ["xvfb-run"]),  # cleanrl's benchmarks
    ("xvfb-run --server-args -ac -e err.log python train.py", "python train.py", ["xvfb-run"]),
    ("chrt -f 50 python train.py", "python train.py", ["chrt"]),
    ("catchsegv unbuffer python train.py", "python train.py", ["catchsegv", "unbuffer"]),
    ("sudo -u ml python train.py", "python train.py", ["sudo"]),
    ("sudo --user ml python train.py", "python train.py", ["sudo"]),
    ("nice --adjustment 5 stdbuf --output L python train.py", "python train.py", ["nice", "stdbuf"]),
    ("srun -N 2 --gres=gpu:8 python train.py", "python train.py", ["srun"]),
    ("srun --ntasks-per-node 8 --cpu-bind none --mpi pmix -l python train.py", "python train.py", ["srun"]),
    ("srun --kill-on-bad-exit --export ALL,NCCL_DEBUG=INFO -u python train.py", "python train.py", ["srun"]),
    ("srun -N 1 -r 3 --priority 10 --relative 2 python train.py", "python train.py", ["srun"]),  # MedSAM's `srun -r $i`
    ("su ml -c 'python train.py'", "python train.py", ["su"]),
    ("sbatch --wrap='python train.py'", "python train.py", ["sbatch"]),
    ("lxc exec 200 -- python train.py", "python train.py", ["pct"]),
    ("podman exec c python train.py", "python train.py", ["docker"]),
    ('CMD="python train.py"\neval "$CMD"', "python train.py", ["eval"]),
    # strings with a part this shell cannot evaluate: read as written, the part an unknown word
    ('tmux new-session -d -s job "cd \\"$PWD\\" && python train.py"', "python train.py", ["tmux"]),
    ('ssh gpu1 "cd $WORK; python train.py --out $OUT"', "python train.py", ["ssh"]),
    ('bash -c "source $VENV/bin/activate && python train.py"', "python train.py", ["bash-c"]),
    ('sbatch --wrap="python train.py --seed $SEED"', "python train.py", ["sbatch"]),
    # launchers, containers and environments around a command
    ("mpirun -np 8 --mca btl ^openib -x NCCL_DEBUG=INFO python train.py", "python train.py", ["mpirun"]),
    ("mpiexec -n 4 -genv OMP_NUM_THREADS 1 -ppn 2 python train.py", "python train.py", ["mpiexec"]),
    ("mpiexec -n 8 --ppn 4 --cpu-bind depth -d 8 --env A=1 python train.py", "python train.py", ["mpiexec"]),  # HPE Cray PALS
    ("aprun -n 8 -N 4 -cc depth -d 8 -e OMP_NUM_THREADS=8 python train.py", "python train.py", ["aprun"]),
    ("jsrun -n6 -a1 -g1 -bnone -dcyclic --smpiargs off python train.py", "python train.py", ["jsrun"]),
    ("ibrun -n 4 -o 0 python train.py", "python train.py", ["ibrun"]),
    ("flux run -N 2 -n 8 --env=A=1 -o cpu-affinity=per-task python train.py", "python train.py", ["flux"]),
    ("mpirun -n 8 -env MV2_USE_CUDA=1 -env MV2_USE_GDR=0 python train.py", "python train.py", ["mpirun"]),
    ("horovodrun -np 8 -H a:4,b:4 --verbose python train.py", "python train.py", ["horovodrun"]),
    ("horovodrun -prefix-timestamp -p 22 --blacklist-cooldown-range 60 300 python train.py", "python train.py", ["horovodrun"]),
    ("singularity exec --nv -B /data:/data img.sif python train.py", "python train.py", ["apptainer"]),
    ("apptainer exec --pwd /w img.sif python train.py", "python train.py", ["apptainer"]),
    ("shifter --image=nersc/pytorch:24.06 -V /data:/data -m gpu python train.py", "python train.py", ["shifter"]),
    ("shifter -E -- python train.py", "python train.py", ["shifter"]),
    ("docker run --rm --gpus all --shm-size 16g -v $PWD:/w img python train.py", "python train.py", ["docker"]),
    ("podman run -e A=1 img python train.py", "python train.py", ["docker"]),
    ("conda run -n train --no-capture-output python train.py", "python train.py", ["conda"]),
    ("uv run --with torch python train.py", "python train.py", ["uv"]),
    ("uv run train.py", "train.py", ["uv"]),  # uv runs a `.py` command with its Python
    ("uv run --with rich --script train.py", "train.py", ["uv"]),
    ("poetry run python train.py", "python train.py", ["poetry"]),
    ("pipenv run python train.py", "python train.py", ["pipenv"]),
    ("pdm run -p /w python train.py", "python train.py", ["pdm"]),
    ("micromamba run -n train -e A=1 python train.py", "python train.py", ["micromamba"]),
    ("mamba run -n train python train.py", "python train.py", ["mamba"]),
    ("pixi run -e cuda python train.py", "python train.py", ["pixi"]),
    # profilers: every `nsys profile` option takes a value, apart or after `=`
    ("nsys profile -t cuda,nvtx -o rep --stats true --force-overwrite=true python train.py", "python train.py", ["nsys"]),
    ("nsys launch --trace=cuda python train.py", "python train.py", ["nsys"]),
    ("py-spy record -o prof.svg --rate 50 --subprocesses -- python train.py", "python train.py", ["py-spy"]),
    ('ray job submit --address="http://head:8265" -- python train.py', "python train.py", ["ray"]),
    # Kaldi's and ESPnet's job runners: options with one value (`-V` none, `-pe` two), a `JOB=` word, the log
    ("utils/run.pl --mem 4G --gpu 1 exp/log/t.log python train.py", "python train.py", ["job-runner"]),
    ("queue.pl -V -pe smp 4 JOB=1:4 --max-jobs-run 2 exp/log/t.JOB.log python train.py", "python train.py", ["job-runner"]),
    ('${cuda_cmd} --gpu "$ngpu" JOB=1:$(cat $d/num_jobs) "$d/log/t.JOB.log" python train.py', "python train.py", ["job-runner"]),
]

NOT_THE_COMMAND = [
    "docker run -it img python train.py",  # a terminal: the program's output is line-buffered
    "docker run -d img python train.py",  # detached: its output goes to `docker logs`
    "docker run --entrypoint bash img python train.py",  # another program runs the words
    "singularity run img.sif python train.py",  # `run` starts the image's runscript
    "nsys stats --report cuda_gpu_trace python train.py",  # `stats` reads a report; it runs nothing
    "tmux send-keys -t job 'python train.py'",  # typed into the pane, not run: no Enter after it
    "tmux send-keys -l -t job 'python train.py' Enter",  # `-l`: every word is text, `Enter` too
    "tmux send-keys -t job 'python train.py' \\; send-keys -t other Enter",  # an Enter into another pane
]


@pytest.mark.parametrize("src", NOT_THE_COMMAND)
def test_words_after_an_image_or_runner_that_are_not_a_python_command(src):
    assert commands(src, "python") == []


@pytest.mark.parametrize(
    ("src", "args", "targets"),
    [
        ("python t.py --a d >log.txt --out /tmp/x 2>&1", ["t.py", "--a", "d", "--out", "/tmp/x"], ["log.txt"]),
        ('python t.py 2>/dev/null --x "$(date)" >>a.log', ["t.py", "--x", None], ["/dev/null", "a.log"]),
        ("cd /w && python t.py &> run.log --seed 1", ["t.py", "--seed", "1"], ["run.log"]),
        (">log python t.py --x", ["t.py", "--x"], ["log"]),
        ("python t.py >a.log \\\n  --seed 1", ["t.py", "--seed", "1"], ["a.log"]),
        # a word tree-sitter-bash cut after a `$` (tree-sitter-bash#315) is one word again
        ("A=x; B=y; python t.py 2>&1 ./c-$A/$B/log.txt", ["t.py", "./c-x/y/log.txt"], []),
        ("B=y; python t.py >a-$B-$B.log --out c-$B-$B.txt", ["t.py", "--out", "c-y-y.txt"], ["a-y-y.log"]),
    ],
)
def test_words_after_a_redirects_file_are_the_commands(src, args, targets):
    """bash passes them on (`cmd a >f b` runs `cmd a b`); tree-sitter-bash reads them as more
    of the redirect's destinations."""
    command = one(src, "python")
    assert [w.value for w in command.args] == args
    assert [r.target.value for r in command.redirects if r.target is not None] == targets


def test_a_redirect_tree_sitter_runs_on_into_the_next_lines_is_read_again_to_its_line_end():
    """After a continued line that starts with `|`, or a pipeline of four stages, tree-sitter-bash
    reads the next commands as more destinations of the redirect; bash ends the command at the
    line break, and the script is parsed again with that line end read as `;`."""
    src = (
        "if [ ! -f $d/text ]; then\n"
        "    gunzip -c a.gz \\\n      |jq '.text' | sed 's/\"//g' | python t.py -t \"char\" \\\n      > $d/train_text\n\n"
        "    cat $d/train_text > $d/text\n\n"
        "    gunzip -c b.gz \\\n      |jq '.text' | sed 's/\"//g' | python t.py -t \"char\" \\\n      > $d/valid_text\n"
        "fi\n"
    )
    assert [[w.value for w in c.args] for c in commands(src, "python")] == [["t.py", "-t", "char"]] * 2
    assert [c.name for c in commands(src)] == ["gunzip", "jq", "sed", "python", "cat"] + ["gunzip", "jq", "sed", "python"]
    src = (
        "#!/bin/bash\nif [ \"$1\" = big ]; then\n  gen --beam 5 2>&1 > out.txt\n"
        "  grep ^H out.txt | cut -f2 | sort -n | cut -f3 > hyp.txt\nelse\n  gen --beam 4 2>&1 > out.txt\n"
        "  grep ^H out.txt | cut -f2 | sort -n | cut -f3 > hyp.txt\nfi\n"
    )
    assert [(c.name, c.location.line, [w.value for w in c.args]) for c in commands(src) if c.name == "gen"] == [
        ("gen", 3, ["--beam", "5"]),
        ("gen", 6, ["--beam", "4"]),
    ]
    # a heredoc's `2>&1 | tee run.log`: `tee` and its file a command, not more files for the redirect
    assert [[w.value for w in c.words] for c in commands("python3 <<EOF 2>&1 | tee run.log\nprint(1)\nEOF\n")] == [
        ["python3"],
        ["tee", "run.log"],
    ]


def test_a_line_end_read_as_a_semicolon_never_ends_a_comment():
    """A `;` for the line end of a comment would carry the comment on into the next line: the
    commands after a run-on pipeline and a block of comments stay commands."""
    src = (
        'python gen.py -out $OUT/gen  >> ${LOG_FILE} 2>&1\n'
        'diff ${DATA}/sol$($PYTHON -c "import torch; print(torch.__version__[0])").txt $OUT/gen\n'
        '[ "$?" -eq 0 ] || error_exit\n'
        'echo "Succeeded" | tee -a ${LOG_FILE}\n'
        'rm $OUT/gen\n'
        '\n'
        '#\n'
        '# next test\n'
        '#\n'
        'echo -n "  [+] next .."\n'
        'head ${DATA}/src.txt > $OUT/src.txt\n'
        '${PYTHON} tests/run_it.py -model m.pt \\\n'
        '            -model_task lm \\\n'
        '            -out $OUT/x  >> ${LOG_FILE} 2>&1\n'
        '[ "$?" -eq 0 ] || error_exit\n'
    )
    found = [(c.name, c.location.line) for c in commands(src)]
    assert found[-5:] == [("rm", 5), ("echo", 10), ("head", 11), (None, 12), ("error_exit", 15)]  # ${PYTHON}: unknown here


def test_where_a_wrapped_command_runs():
    """Which wrappers move the command to another directory (LL108) or another machine."""
    flags = {
        src: [(w.remote, w.cwd_changed) for w in one(src, "python").wrappers]
        for src in (
            "mpirun -np 2 python t.py",
            "mpirun -np 2 -wdir /w python t.py",
            "singularity exec img.sif python t.py",
            "singularity exec --containall img.sif python t.py",
            "docker run img python t.py",
            "srun --container-image nvcr.io/nvidia/pytorch:24.01-py3 --container-mounts /d:/d python t.py",
            "srun --container-name=job python t.py --container-image x",
            "conda run -n x --cwd /w python t.py",
            "uv run --directory=/w python t.py",
            "ray job submit --address http://head:8265 -- python t.py",
            "ray job submit --runtime-env-json '{\"working_dir\": \".\"}' -- python t.py",
        )
    }
    # A directory the user names (-wdir, --cwd, --directory) is chosen, as `docker exec -w`'s is.
    assert list(flags.values()) == [
        [(False, False)], [(False, False)], [(False, False)], [(False, True)], [(True, False)], [(True, False)], [(False, False)],
        [(False, False)], [(False, False)], [(True, True)], [(True, False)],
    ]


def test_only_the_wrappers_own_options_move_the_command():
    """`-c cfg.yaml` and `-wd 0.1` are the trainer's options, not `--contain` or `-wdir`."""
    for src in (
        "singularity exec img.sif python train.py -c cfg.yaml",
        "mpirun -np 2 python train.py -wd 0.1",
        "docker exec c python train.py -w 3",
    ):
        wrapper = one(src, "python").wrappers[-1]
        assert wrapper.cwd_changed == (wrapper.kind == "docker"), src


def test_command_v_runs_nothing():
    """`command -v NAME` (`-V`, `-pv`) says what NAME is: it runs nothing, not NAME; plain
    `command NAME` (`-p`) runs it."""
    for src in ("command -v python train.py", "command -V python train.py", "command -pv python train.py", "x=$(command -v python)"):
        assert commands(src, "python") == [], src
        assert [c.name for c in commands(src)] == ["command"], src
    assert [w.kind for w in one("command -p python train.py", "python").wrappers] == ["command"]
    assert [w.kind for w in one("command python train.py", "python").wrappers] == ["command"]


def test_screen_runs_a_command_only_detached_by_its_own_options():
    """`screen -dm` (also `-d -m`, `-dmS job`) runs the command detached; `-d -m` among the
    command's words is not screen's."""
    assert [w.kind for w in one("screen -d -m -S job python train.py", "python").wrappers] == ["screen"]
    assert commands("screen -S job python train.py -d -m", "python") == []  # attached: not read


def test_a_tmux_pane_is_detached_by_tmux_s_own_options():
    """`-d` (also in `-ds job`) before the command detaches the pane; the command's own `-d`
    does not."""
    detached = {
        src: one(src, "python").wrappers[-1].detached
        for src in (
            "tmux new-session -d -s job 'python train.py'",
            "tmux new-session -ds job 'python train.py'",
            "tmux new-window python train.py -d 3",
            "tmux split-window -c /w python train.py --dropout 0.1 -d 2",
        )
    }
    assert list(detached.values()) == [True, True, False, False]


@pytest.mark.parametrize("src,needle,kinds", NESTED, ids=[n[0].split()[0] + str(i) for i, n in enumerate(NESTED)])
def test_nested_command_found_at_its_column(src, needle, kinds):
    command = one(src, "python")
    assert [w.kind for w in command.wrappers] == kinds
    assert [w.value for w in command.words[:2]] == ["python", "train.py"]
    line = src.count("\n") + 1
    if kinds == ["eval"]:  # a variable's value is located where it is expanded
        assert (command.location.line, command.location.column) == position(src, line, '$CMD')
    else:
        assert (command.location.line, command.location.column) == position(src, line, needle)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["-o", "pipefail", "-c", "x"], (3, True, True, False)),
        (["-eo", "pipefail", "run.sh", "a"], (2, False, True, False)),
        (["+o", "pipefail", "run.sh"], (2, False, False, False)),  # turned off
        (["-O", "extglob", "-c", "x"], (3, True, False, False)),
        (["--rcfile", "rc", "--norc", "run.sh"], (3, False, False, False)),
        (["-c", "-x", "x"], (2, True, False, False)),  # the string is the first operand, after every option
        (["-"], (None, False, False, False)),  # standard input
        (["-c"], (None, True, False, False)),
        ([None, "x"], (0, False, False, False)),  # an unknown word stands where the operand is
        (["--", "-x.sh"], (1, False, False, False)),
        (["-s", "--", "extras.sh"], (None, False, False, False)),  # commands on standard input; words its arguments
        (["-es", "setup.sh"], (None, False, False, False)),
        (["-a", "run.sh"], (1, False, False, True)),  # allexport, as `set -a` turns it on
        (["-eao", "pipefail", "run.sh"], (2, False, True, True)),
        (["-o", "allexport", "+o", "allexport", "run.sh"], (4, False, False, False)),
    ],
)
def test_a_shells_arguments_read_as_bash_reads_them(values, expected):
    assert tuple(shell_args(values)) == expected


def test_uv_runs_a_module_and_a_script_with_python():
    """`uv run -m pkg` is `python -m pkg`, `uv run x.py` is `python x.py`: the words uv adds stand
    where the program is written. Any other command is run as it is."""
    src = "uv run -m pkg.train --lr 1\nuv run pytest -x tests\n"
    module = one(src, "python")
    assert [w.value for w in module.words] == ["python", "-m", "pkg.train", "--lr", "1"]
    assert (module.location.line, module.location.column) == position(src, 1, "pkg.train")
    assert [c.name for c in commands(src)] == ["python", "pytest"]
    assert module.wrappers[-1].adds_interpreter  # a fact: LL106 names `uv run`, not a `python` never written
    assert not one("uv run python x.py\n", "python").wrappers[-1].adds_interpreter


def test_a_ray_jobs_runtime_environment():
    """A runtime environment written out gives the job its `env_vars`; one in a variable or a
    file may set anything: every variable is then set to something unknown."""
    written = one("""ray job submit --runtime-env-json='{"env_vars": {"A": "1"}}' -- python t.py\n""", "python")
    assert (written.env_value("A").value, written.has_env("B")) == ("1", False)
    for src in ('ray job submit --runtime-env-json="$ENV" -- python t.py\n', "ray job submit --runtime-env e.yaml -- python t.py\n"):
        hidden = one(src, "python")
        assert (hidden.env_value("B"), hidden.has_env("B")) == (None, True)


def test_a_ray_jobs_command_line_is_read_by_sh():
    """Ray's CLI joins the words after `--` as `shlex.join` does, and its job supervisor runs the
    line with /bin/sh: a leading `NAME=value` sets a variable for the program; a quoted word stays
    one word, a whole command in one (`-- "python t.py"`) a program of that name."""
    src = 'ray job submit -- A=1 B=${B:-2} python3 t.py --name "a b" \'$X\' ""\n'
    job = one(src, "python3")
    assert (job.env_value("A").value, job.env_value("B").value) == ("1", "2")
    assert [w.value for w in job.words] == ["python3", "t.py", "--name", "a b", "$X", ""]
    assert (job.words[0].location.line, job.words[0].location.column) == position(src, 1, "python3")
    assert job.defaults == {"B"}
    assert [c.name for c in commands('ray job submit -- "python t.py --lr 1"\n')] == ["python t.py --lr 1"]


def test_a_job_runners_command_line_is_read_by_its_bash():
    """run.pl joins the words after its log, quoting only a word with a blank (in `"`, or `'` when
    it holds one), and bash reads the line: `\\|` is a pipe, a quoted word one word, a whole
    command in one word a program of that name. Where a `JOB=` word names the job, its name in
    the words is the copy's number, unknown here; the output goes to the log, a job's log."""
    src = 'utils/run.pl JOB=1:4 exp/log/t.JOB.log python3 t.py --name "a b" --part JOB \\| gzip -c \\> x.JOB.gz\n'
    job, gzip = one(src, "python3"), one(src, "gzip")
    assert [w.value for w in job.words] == ["python3", "t.py", "--name", "a b", "--part", None]
    assert job.words[-1].template == "$JOB" and job.words[-1].location.column == position(src, 1, "JOB \\|")[1]
    assert (job.location.line, job.location.column) == position(src, 1, "python3")
    assert job.stdout.kind == PIPE and gzip.stdout.kind == FILE and [w.kind for w in job.wrappers] == ["job-runner"]
    quoted_src = 'run.pl x.log python3 t.py --name "$1/x y" --lm-opts="$(grep -w "#0" w) --top=1"\n'
    quoted = one(quoted_src, "python3")  # a word not known, written in quotes: one word, where it is written
    assert [w.template for w in quoted.words[3:]] == ["$1/x y", "--lm-opts=$(grep -w '#0' w) --top=1"]
    assert quoted.words[3].location.column == position(quoted_src, 1, "$1")[1]
    plain = one("run.pl exp/log/t.log python3 t.py --config conf/JOB.yaml\n", "python3")  # no `JOB=`: plain text
    assert plain.words[-1].value == "conf/JOB.yaml" and plain.stdout.kind == SUBMITTED
    assert plain.stdout.target.value == "exp/log/t.log"
    assert [c.name for c in commands('run.pl exp/log/t.log "python t.py --lr 1"\n')] == ["python t.py --lr 1"]


@pytest.mark.parametrize(
    "src",
    [
        "$train_cmd python t.py\n",  # no log: `$train_cmd` holds something else (a prefix)
        "$train_cmd exp/result.txt python t.py\n",  # no `.log` where the runner's log would be
        "$cmd exp/log/t.log python t.py\n",  # a name cmd.sh does not give a runner, its value unknown
        "run.pl exp/log/t.log\n",  # nothing to run
    ],
)
def test_no_job_runner_without_its_name_or_shape(src):
    assert not any(w.kind == "job-runner" for c in commands(src) for w in c.wrappers)


def test_three_levels_of_quoting_map_to_the_real_column():
    src = "ssh h 'pct exec 200 -- bash -c \"tmux new-session -d \\\"bash x.sh | tee y.log\\\"\"'\n"
    bash, tee = commands(src)
    assert [w.kind for w in bash.wrappers] == ["ssh", "pct", "bash-c", "tmux"]
    assert (bash.location.line, bash.location.column) == position(src, 1, "bash x.sh")
    target = tee.args[0]
    assert target.value == "y.log"
    assert (target.location.line, target.location.column) == position(src, 1, "y.log")
    assert target.location.end_column == position(src, 1, "y.log")[1] + len("y.log")
    assert bash.stdout.kind == PIPE and bash.stdout.reader is tee
    assert tee.stdout.kind == DETACHED and bash.detached and bash.remote


@pytest.mark.parametrize(
    ("src", "words", "first", "last"),
    [
        ('BIN="python train.py"\n$BIN --lr 1\n', ["python", "train.py", "--lr", "1"], "$BIN", "1"),
        ("L='torchrun  --nproc_per_node 8'\n${L} t.py\n", ["torchrun", "--nproc_per_node", "8", "t.py"], "${L}", "t.py"),
        ("cmd=''\n${cmd} python train.py\n", ["python", "train.py"], "python", "train.py"),  # empty: no word at all
        ('A="--lr 1"\npython train.py $A\n', ["python", "train.py", "--lr", "1"], "python", "$A"),
        ('BIN="python train.py"\n"$BIN" --lr 1\n', ["python train.py", "--lr", "1"], '"$BIN"', "1"),  # quoted: one word
        ('A="--lr 1"\npython train.py "$A" x$A\n', ["python", "train.py", "--lr 1", "x--lr 1"], "python", "x$A"),
    ],
)  # fmt: skip
def test_an_unquoted_expansion_is_split_into_words(src, words, first, last):
    """bash splits an unquoted `$VAR`'s value at whitespace, and drops it when empty: `${cmd}
    python3 ...` with `cmd=''` (a dry-run switch) runs python3. Each word stands at the `$VAR`."""
    command = commands(src)[-1]
    assert [w.value for w in command.words] == words
    assert (command.words[0].location.line, command.words[0].location.column) == position(src, 2, first)
    assert (command.words[-1].location.line, command.words[-1].location.column) == position(src, 2, last)


def test_a_partly_unknown_variable_keeps_its_written_form():
    """`$OUTFILE` set to `/tmp/${RUN}/train.log` (RUN unknown) is that template, still a log by its
    name; a static value made unknown by a branch is not guessed."""
    tee = one('OUTFILE="/tmp/${RUN}/train.log"\npython3 train.py | tee -a "$OUTFILE"\n', "tee")
    assert (tee.args[-1].value, tee.args[-1].template) == (None, "/tmp/${RUN}/train.log")
    tee = one('if [ -n "$A" ]; then O=a.log; else O=b.json; fi\necho x | tee "$O"\n', "tee")
    assert (tee.args[-1].value, tee.args[-1].template) == (None, "$O")


@pytest.mark.parametrize(
    ("src", "words"),
    [
        ('CMD="python $OPTS train.py"\nCMD+=" --lr=1"\n$CMD\n', ["python", None, "train.py", "--lr=1"]),
        ('CMD="python train.py"\nCMD+=" --out $OUT"\n$CMD\n', ["python", "train.py", "--out", None]),
        ('CMD+=" --lr=1"\n$CMD\n', [None, "--lr=1"]),  # not set here: what the caller gave, then the rest
    ],
)  # fmt: skip
def test_appending_to_a_partly_unknown_string_keeps_what_it_had(src, words):
    """`CMD+=" --lr=1"` onto a value with an unknown part keeps the written command before it:
    `$CMD` still runs `python` (FasterTransformer's run_squad.sh lost its job)."""
    assert [w.value for w in commands(src)[-1].words] == words


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("time $CMD\n", ["python", "train.py", "--nproc", None]),
        ("nohup $CMD > train.log 2>&1 &\n", ["python", "train.py", "--nproc", None]),
        ("exec $CMD\n", ["python", "train.py", "--nproc", None]),
        ("timeout -s INT 2h $CMD\n", ["python", "train.py", "--nproc", None]),
        ("nohup time -p $CMD\n", ["python", "train.py", "--nproc", None]),
        ('time "$CMD"\n', [None]),  # quoted: one word
        ("echo $CMD\n", ["echo", None]),  # an argument: one word
        ("timeout 2h $X $CMD\n", [None, None]),  # `$X` is the command
    ],
)  # fmt: skip
def test_a_partly_unknown_command_after_a_wrapper_is_split_as_written(line, words):
    """`time $CMD |& tee log`, `nohup $CMD > log &`: a command that runs the rest of its words
    runs `$CMD` as the command, split as it is first on the line (DeepLearningExamples'
    run_squad.sh)."""
    src = f'CMD="python train.py --nproc $NGPU"\n{line}'
    assert [w.value for w in commands(src)[-1].words] == words


@pytest.mark.parametrize(
    ("arms", "words"),
    [
        ('  CMD+="--do_train "\n', ["python", "train.py", "--seed", "1", None]),
        ('  CMD+="--do_train "\nelif [ "$1" = b ]; then\n  CMD+=" --do_eval"\nelse\n  CMD+="--predict "\n', ["python", "train.py", "--seed", "1", None]),
        ('  CMD+="--do_train "\nelse\n  CMD="echo dry run "\n', [None]),
        ('  CMD="echo dry run "\nelse\n  CMD+="--do_train "\n', [None]),
    ],
)  # fmt: skip
def test_a_command_every_arm_appends_to_keeps_what_it_had(arms, words):
    """Arms that append to `CMD` (its value ends in a space, or the text added starts with one)
    leave what it had, then words unknown here; an arm that sets it anew leaves it unknown
    (DeepLearningExamples' run_squad.sh)."""
    src = f'CMD="python train.py --seed 1 "\nif [ "$1" = a ]; then\n{arms}fi\n$CMD\n'
    assert [w.value for w in commands(src)[-1].words] == words


@pytest.mark.parametrize(
    ("first", "arms", "words"),
    [
        ("", '  CMD="python a.py --lr $LR"\nelse\n  CMD="python b.py --bogus $LR"\n', ["python", None]),
        ("", '  CMD="python b.py --lr $LR"\nelse\n  CMD="python b.py --lr $LR"\n', ["python", "b.py", "--lr", None]),
        ("", '  CMD="python  b.py --a"\nelse\n  CMD="python b.py --b"\n', ["python", "b.py", None]),  # by words: blanks between them are one
        ('CMD="python a.py"\n', '  CMD="$CMD --lr $LR"\n', ["python", "a.py", None]),
        ('CMD="python a.py"\n', '  CMD="deepspeed --num_gpus $N b.py"\n', [None]),
        ('CMD="python a.py"\n', '  CMD="deepspeed --num_gpus $N b.py"\n  CMD+=" --fp16"\nelse\n  CMD+=" --lr $LR"\n', [None]),
        ('CMD="python $L t.py "\n', '  CMD+="--do_train "\n', ["python", None, "t.py", None]),  # appended: what it had stays
        ('if [ "$2" = x ]; then CMD="python a.py"; else CMD="python b.py"; fi\n', '  CMD+=" --x"\n', ["python", None]),  # no guess
        ('if [ "$2" = x ]; then CMD="a.py"; else CMD="b.py"; fi\n', '  CMD+=" --x"\n', [None]),
        # an if with an else runs one arm: what the arms agree on, not what it had before
        ('CMD=" t.py"\n', '  CMD="python3 -m torch.distributed.launch $CMD"\nelse\n  CMD="python3  $CMD"\n', ["python3", None]),
        ('CMD=" t.py"\n', '  CMD="python3 -m torch.distributed.launch $CMD"\n', [None]),  # or it had ` t.py`
        ("CMD=a\n", '  CMD="python t.py"\nelse\n  CMD="python t.py"\n', ["python", "t.py"]),
        ("CMD=a\n", '  CMD="python t.py"\nelif [ "$2" ]; then\n  CMD="python t.py"\n', [None]),  # no else: maybe `a`
        # a launcher that runs its command where it is, in one arm: what each arm runs
        ("", '  CMD="srun -N 2 torchrun t.py --lr $LR"\nelse\n  CMD="torchrun t.py --lr $LR"\n', ["torchrun", "t.py", "--lr", None, None]),
        ("", '  CMD="mpirun -np $N -x A python3 a.py"\nelse\n  CMD="python3 b.py"\n', ["python3", None]),
        ("", '  CMD="srun python t.py"\nelse\n  CMD="srun -N 2 python t.py"\n', ["python", "t.py", None]),
        ('CMD="python t.py"\n', '  CMD="srun python t.py"\n', ["python", "t.py", None]),
        # the same job but for options' values (ProLong's `--nnodes=$num_nodes` and `--nnodes=1`): those unknown
        ("", '  CMD="srun torchrun --nnodes=$N -m m"\nelse\n  CMD="torchrun --nnodes=1 -m m"\n', ["torchrun", None, "-m", "m", None]),
        ("", '  CMD="torchrun --nproc_per_node 8 t.py"\nelse\n  CMD="torchrun --nproc_per_node 4 t.py"\n', ["torchrun", "--nproc_per_node", None, "t.py", None]),
        ("", '  CMD="torchrun --nproc_per_node 8 a.py"\nelse\n  CMD="torchrun --nproc_per_node 8 b.py"\n', ["torchrun", "--nproc_per_node", "8", None]),
        ("", '  CMD="torchrun --nnodes=2 a.py"\nelse\n  CMD="torchrun --nnodes=1 b.py"\n', ["torchrun", None]),
        # not where it is: another host, a detached screen
        ("", '  CMD="ssh h python t.py"\nelse\n  CMD="python t.py"\n', [None]),
        ("", '  CMD="screen -dm python t.py"\nelse\n  CMD="python t.py"\n', [None]),
    ],
)  # fmt: skip
def test_arms_setting_different_values_keep_the_words_they_start_with(first, arms, words):
    """A value partly unknown is compared by its words as written: after arms that set two
    different ones (or one, where it had another) neither is a guess, but the words both start
    with stand, then words unknown here (DeepLearningExamples' run_squad.sh: the `else` arm's
    launcher stood); after an if with an else, what it had before is not one of them (mlcommons'
    rnnt scripts: `python3 -m torch.distributed.launch $CMD` or `python3 $CMD`). Past a launcher
    that runs its command where it is (srun, mpirun, nohup, ...), an arm's value is what it runs:
    `srun torchrun t.py` or `torchrun t.py` runs `torchrun t.py` (ProLong's train scripts,
    DeepLearningExamples' `mpirun ... python3` or `python3`), and when they run it word for word
    but for options' values, those values are not known (ProLong's `--nnodes=$num_nodes`)."""
    src = f'{first}if [ "$1" = a ]; then\n{arms}fi\n$CMD\n'
    assert [w.value for w in commands(src)[-1].words] == words


@pytest.mark.parametrize(
    ("first", "arms", "words", "lines"),  # `lines`: where each word stands
    [
        ("", "  A=(python t.py)\nelse\n  A=(python t.py --fast)\n", ["python", "t.py", None], ["here"] * 3),
        ("", "  A=(python a.py --lr 1)\nelse\n  A=(python b.py --lr 1)\n", ["python", None], ["here"] * 2),
        ("", "  A=(python t.py)\nelse\n  A=(python t.py)\n", ["python", "t.py"], [4, 4]),  # the same: the last arm's
        ("", "  A=(srun -N 2 torchrun t.py)\nelse\n  A=(torchrun t.py --x)\n", ["torchrun", "t.py", None], ["here"] * 3),
        ("", "  A=(echo dry run)\nelse\n  A=(python t.py)\n", [None], ["here"]),
        ("", "  A=(python t.py)\n", ["python", "t.py"], [2, 2]),  # new in the arm: its value, as a variable's
        # set before: what an arm appends is not known, what it had is, where it was written
        ("A=(python t.py)\n", "  A+=(--fast)\n", ["python", "t.py", None], [1, 1, "here"]),
        ("A=(python t.py)\n", "  A+=(--fast)\nelse\n  A+=(--lr 1)\n", ["python", "t.py", None], [1, 1, "here"]),
        ("A=(python t.py)\n", "  A=(echo dry run)\n", [None], ["here"]),
        ('if [ "$2" ]; then A=(python t.py); else A=(python t.py --x); fi\n', "  A+=(--fast)\n", ["python", "t.py", None], ["here"] * 3),
        ('if [ "$2" ]; then A=(python t.py); else A=(python t.py --x); fi\n', "  A=(python t.py --y)\n", ["python", "t.py", None], ["here"] * 3),
        # an elif and an else: each arm compared with what the ones before agree on
        ("", '  A=(python t.py --a)\nelif [ "$2" ]; then\n  A=(python t.py --b)\nelse\n  A=(python t.py)\n', ["python", "t.py", None], ["here"] * 3),
        # a function called again in an arm does what its first call did
        ("f() { A=(python t.py --fast); }\nf\nA=(python t.py)\n", "  f\n", ["python", "t.py", None], ["here"] * 3),
        # a loop that appends: what it had, then elements not known, as after an arm that appends
        ("A=(python t.py)\n", "  for i in 1 2; do A+=(--x); done\n", ["python", "t.py", None], [1, 1, "here"]),
    ],
)  # fmt: skip
def test_arms_setting_different_arrays_keep_the_elements_they_start_with(first, arms, words, lines):
    """Arrays set in an if's arms join as a variable's value does (`State.settle`): the elements
    the arms' arrays start with (past a launcher that runs its command where it is), then
    elements not known, which stand at `"${A[@]}"` with those written in the arms (no fix edits
    one arm); those written before the arms stay where they are (cambrian's sbatch arguments,
    `sbatch_args+=(--dependency=...)` in an `if`)."""
    src = f'{first}if [ "$1" = a ]; then\n{arms}fi\n"${{A[@]}}"\n'
    words_of = commands(src)[-1].words
    assert [w.value for w in words_of] == words
    here = src.count("\n")  # the line of `"${A[@]}"`
    assert [w.location.line if w.location.line < here else "here" for w in words_of] == lines


@pytest.mark.parametrize(
    ("src", "words", "lines"),  # `lines`: where each word stands
    [
        # a variable's value is element 0 of the array `+=` makes
        ("A=python\nA+=(t.py)\n", ["python", "t.py"], [1, 2]),
        ('A="$PY"\nA+=(t.py)\n', [None, "t.py"], ["here", 2]),
        # an element set by its index: replaced, or added after the last
        ("A=(python t.py --lr 1)\nA[3]=2\nA[4]=--fast\n", ["python", "t.py", "--lr", "2", "--fast"], [1, 1, 1, 2, 3]),
        ("A=(python t.py --lr 1)\nA[-1]=2\n", ["python", "t.py", "--lr", "2"], [1, 1, 1, 2]),
        ("A[0]=python\nA[1]=t.py\n", ["python", "t.py"], [1, 2]),
        ("A=python\nA[1]=t.py\n", ["python", "t.py"], [1, 2]),
        ("A=(python t.py)\nA[0]+=3\n", [None, "t.py"], ["here", 1]),
        ('A=(python t.py)\nif [ "$1" ]; then A[1]=u.py; fi\n', ["python", None], [1, "here"]),
        # where each element is is not known: an index not a number, past the last, an element unset
        ("A=(python t.py)\nA[$i]=u.py\n", [None], ["here"]),
        ("A=(python t.py)\nA[3]=u.py\n", [None], ["here"]),
        ("A=(python t.py)\nunset 'A[1]'\n", [None], ["here"]),
        ("A=(python t.py)\nunset A[1]\nA+=(u.py)\n", [None], ["here"]),  # not `unset A`
        ('A=(python "$@")\nA[2]=t.py\n', [None], ["here"]),
        ("A=(python t.py)\nfor i in 1 2; do A[1]=u.py; done\n", [None], ["here"]),
        ("A=([0]=python [1]=t.py)\n", [None], ["here"]),
        ("declare -A A\nA[0]=python\nA[1]=t.py\n", [None], ["here"]),  # associative: in bash's order
        # a loop that only appends: what it had, then elements not known
        ('A=(python t.py)\nfor f in a b; do A+=(--x "$f"); done\n', ["python", "t.py", None], [1, 1, "here"]),
        ('A=(python t.py)\nwhile read -r f; do A+=(--x "$f"); done < list\n', ["python", "t.py", None], [1, 1, "here"]),
        # set otherwise there too: not known
        ('A=(python t.py)\nfor f in a b; do A+=(--x "$f"); A=(python u.py); done\n', [None], ["here"]),
        ('A=(python t.py)\nfor f in a b; do A+=(--x "$f"); read -ra A < f; done\n', [None], ["here"]),
    ],
)  # fmt: skip
def test_an_array_set_by_element_or_appended_to_in_a_loop_holds_what_bash_makes(src, words, lines):
    """`X=foo; X+=(bar)` keeps `foo` as element 0; `A[1]=x` sets an element, and makes the
    array unknown where bash's index is not known here (or the array is associative); a loop
    that only appends to an array leaves what it had, then elements not known (as an if's arm
    that appends does)."""
    src += '"${A[@]}"\n'
    words_of = commands(src)[-1].words
    assert [w.value for w in words_of] == words
    here = src.count("\n")
    assert [w.location.line if w.location.line < here else "here" for w in words_of] == lines


def test_an_array_a_loop_appends_to_holds_what_it_had_then_unknown_elements_then_the_appended_ones():
    """Inside the loop, the earlier rounds' elements are not known, but what it had before and
    what this round appended are, where they are written."""
    src = 'A=(python t.py)\nfor f in a b; do\n  A+=(--x "$f")\n  "${A[@]}" --lr 1\ndone\n'
    words_of = commands(src)[-1].words
    assert [(w.value, w.passthrough, w.location.line) for w in words_of] == [
        ("python", False, 1), ("t.py", False, 1), (None, True, 4), ("--x", False, 3), (None, False, 3), ("--lr", False, 4), ("1", False, 4)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("src", "template"),
    [
        ("TAG=run_$DEV\necho logs/${TAG}_a.log\n", "logs/run_${DEV}_a.log"),  # not `$DEV_a`, another name
        ("TAG=run_$DEV\necho logs/$TAG\n", "logs/run_$DEV"),  # as written
        ('TAG=run_$DEV\necho "logs/$TAG"_b.log\n', "logs/run_${DEV}_b.log"),
        ('D=logs\nif [ -n "$2" ]; then D=$OPTARG; fi\necho $D/a.log\n', "$D/a.log"),  # not the arm's `$OPTARG`
    ],
)  # fmt: skip
def test_a_partly_unknown_value_is_spliced_as_bash_would_read_it(src, template):
    """A word that splices a variable written partly unknown shows it as written, its last bare
    name braced where a name could go on; one an arm set to another value is unknown (EasyRec's LL106 notes named
    `$OPTARG_$OPTARG_ps`)."""
    assert one(src, "echo").args[0].template == template


@pytest.mark.parametrize(
    ("arms", "words"),
    [
        ('  a) CMD="torchrun $CMD";;\n  *) CMD="torchrun --standalone $CMD";;\n', ["torchrun", None]),
        ('  a) CMD="torchrun $CMD";;\n  b) CMD="torchrun --standalone $CMD";;\n', [None]),  # no `*)`: maybe ` t.py`
    ],
)  # fmt: skip
def test_a_case_with_a_catch_all_arm_runs_one_of_its_arms(arms, words):
    """A `case` with a `*)` arm runs one arm, as an if with an else: what the variable had before
    is not one of its values."""
    src = f'CMD=" t.py"\ncase "$1" in\n{arms}esac\n$CMD\n'
    assert [w.value for w in commands(src)[-1].words] == words


def test_the_space_before_a_second_expansion_in_a_string_is_kept():
    """tree-sitter-bash starts `${B}` in `"${A} ${B}"` at the space before it: the space is the
    string's (it was lost: `./train.py--depth`), at its own offset."""
    src = 'A=./train.py\nB=--depth\necho "python ${A} ${B} 8" "$A $B"\n'
    first, second = one(src, "echo").args
    assert (first.value, second.value) == ("python ./train.py --depth 8", "./train.py --depth")
    line = src.index("echo")
    assert first.origin[first.value.index(" --")] == line + src[line:].index("} ${B}") + 1


def test_a_line_continuation_before_a_second_expansion_in_a_string_is_removed():
    """`"... --output_dir $OUTPUT \\<newline>   $OFFLOAD"` (DeepSpeed-Chat's sweep scripts): the
    second expansion's node starts at the space before the backslash; bash removes the backslash
    and the line break inside double quotes, so splitting the value leaves no `\\` word."""
    src = 'OUTPUT=./output\ncmd="deepspeed main.py \\\n   --output_dir $OUTPUT \\\n   $OFFLOAD"\n$cmd\n'
    words = commands(src)[-1].words
    assert [w.template for w in words] == ["deepspeed", "main.py", "--output_dir", "./output", "$OFFLOAD"]


@pytest.mark.parametrize(
    "src",
    [
        "cat words | cut -f2 | sort\npython train.py > train.log\n",
        "cat words | cut -f2 | sort\n\npython train.py && echo done\n",
        "cat words | cut -f2 | python3 g2p.py\npython train.py | sort > train.log\n",  # not the last stage
    ],
)
def test_the_line_after_a_pipeline_is_a_command_of_its_own(src):
    """tree-sitter-bash 0.25 reads on past the end of a line after a pipeline when the next line
    goes on with `&&`, `||` or a redirect (its issue #347): `sort python train.py > train.log`.
    The unit is parsed again with that line end read as bash reads it."""
    python = one(src, "python")
    assert [w.value for w in python.words] == ["python", "train.py"]
    line = src.count("\n", 0, src.index("python train.py")) + 1
    assert (python.location.line, python.location.column) == (line, 1)
    assert [w.value for w in commands(src)[2].words][-1] in ("sort", "g2p.py")


def test_a_second_parse_that_reads_on_elsewhere_is_parsed_again():
    """The first parse swallowed lines 1-5 into `tee`; parsed again, it reads on at line 5
    (`error_exit echo Succeeded`): a third parse reads every line as bash does."""
    src = (
        'echo ok | tee -a log*\n\necho -n x\npython3 t.py >> log 2>&1\n[ "$?" -eq 0 ] || error_exit\n'
        'echo "Succeeded" | tee -a log\n\necho -n y\npython3 u.py >> log 2>&1\n'
    )
    assert [(c.name, c.location.line) for c in commands(src)] == [
        ("echo", 1), ("tee", 1), ("echo", 3), ("python3", 4), ("error_exit", 5),
        ("echo", 6), ("tee", 6), ("echo", 8), ("python3", 9),
    ]  # fmt: skip


def test_a_word_whose_name_is_no_identifier_is_no_assignment():
    """bash assigns only to a name (`A=1`): `--lr=1e-4` at a command's start, a line cut off from
    its command, is a command of that name, which tree-sitter-bash takes for an assignment (also
    after `A=1`, whose environment it then has)."""
    src = 'python t.py \\\n  --a=1 \\  # note\n  --lr="o/x.pt" \\\n  --n=25  # c\nA=1 --b=2 --c\nX=1 Y_2=3\n'
    found = commands(src)
    assert [([w.value for w in c.words], sorted(c.env), c.location.line) for c in found] == [
        (["python", "t.py", "--a=1"], [], 1),
        (["--lr=o/x.pt", "--n=25"], [], 3),
        (["--b=2", "--c"], ["A"], 5),
    ]
    assert parse_shell("t.sh", src).final_variables == {"X", "Y_2"}


@pytest.mark.parametrize(
    ("ending", "how", "line"),
    [
        ("\\ # tune", "comment", 2),
        ("\\  # tune", "comment", 2),
        ("\\\t#tune", "comment", 2),
        ("\\  ", "space", 2),
        ("", "line", 2),
        ("\\\n  # --seed 1 \\", "commented", 3),
    ],
)
def test_the_lines_a_broken_continuation_cuts_off_are_the_commands_words(ending, how, line):
    """`CutOff`: the lines after a command that start with an option, each run on its own, and
    why the command ends where it does; read by the front end, for LL302's message."""
    src = f"python t.py \\\n  --lr 1 {ending}\n  --data=/d \\\n  --out o\necho done\n  --x 1\n"
    python, *rest = commands(src)
    assert (python.cut_off.how, python.cut_off.line) == (how, line)
    assert [w.value for w in python.cut_off.words] == ["--data=/d", "--out", "o"]
    assert [c.cut_off is None for c in rest] == [True, False, True]  # `--x 1` is echo's cut-off line
    assert commands(src.replace("\necho done", ""))[0].cut_off.words[-1].value == "1"  # a line after the next


def test_a_continued_line_after_a_pipe_stays_one_command():
    """Not after a backslash before a Windows line end: it escapes the `\\r`, which bash passes
    to `c` as an argument, and the newline ends the pipeline (`d` is a command of its own)."""
    assert [c.name for c in commands("a | b | c \\\n  d > f\n")] == ["a", "b", "c"]
    crlf = commands("a | b | c \\\r\n  d > f\n")
    assert [(c.name, [w.value for w in c.words]) for c in crlf[2:]] == [("c", ["c", "\r"]), ("d", ["d"])]


def test_an_unknown_program_in_a_variable_is_not_guessed():
    """`$PYTHON train.py` runs an unknown program (train.py is its argument); only a known
    program after an unknown word is read as the command (`${cmd} python3 ...`)."""
    assert [c.words[0].template for c in commands("$PYTHON train.py > t.log\n")] == ["$PYTHON"]
    assert [c.name for c in commands("$A $B python train.py\n")] == [None]


def test_nested_string_on_a_continued_line():
    src = "ssh gpu1 \\\n  'cd /w && python train.py \\\n     --lr 1 | tee run.log'\n"
    python = one(src, "python")
    assert (python.location.line, python.location.column) == position(src, 2, "python")
    tee = one(src, "tee")
    assert (tee.args[0].location.line, tee.args[0].location.column) == position(src, 3, "run.log")


WORDS = ["python", "tr\\ain.py", "--out=x\\ y.log", '"a b"', '"c"d', "7", '"q\\w\\$e\\\\r"']


@pytest.mark.parametrize(
    "src",
    [
        " ".join(WORDS) + "\n",
        " ".join(WORDS) + " é.py\n",  # not ASCII: byte offsets are no longer columns
        "ssh h '" + " ".join(WORDS) + "'\n",  # nested: offsets map through the string's origin
        "ssh h '" + " ".join(WORDS) + " é.py'\n",
    ],
    ids=["file", "file-utf8", "nested", "nested-utf8"],
)
def test_each_character_of_a_word_maps_to_its_place_in_the_file(src):
    python = one(src, "python")
    raws = WORDS + ["é.py"] * ("é" in src)
    assert [w.value for w in python.words] == ["python", "train.py", "--out=x y.log", "a b", "cd", "7", "q\\w$e\\r", "é.py"][: len(raws)]
    start = 0
    for word, raw in zip(python.words, raws, strict=True):
        start = src.index(raw, start)
        end = start + len(raw)
        assert tuple(word.location)[1:] == (1, start + 1, 1, end + 1), raw
        assert "".join(src[i] for i in word.origin[:-1]) == word.value and word.origin[-1] == end, raw
        start = end


def test_multibyte_characters_keep_columns_exact():
    src = "echo 'é ü' && bash -c 'echo ✓; python t.py > out.log'\n"
    python = one(src, "python")
    assert (python.location.line, python.location.column) == position(src, 1, "python")
    target = python.stdout.target
    assert (target.location.line, target.location.column) == position(src, 1, "out.log")


# --- text that is not a command ---------------------------------------------------------------


def test_heredoc_comment_and_string_text_are_not_commands():
    src = (
        "cat <<EOF > notes.txt\npython not_run.py\nEOF\n"
        "# python commented.py\n"
        'echo "python quoted.py | tee x.log"\n'
        "printf '%s\\n' 'bash not_a_script.sh'\n"
    )
    names = [c.name for c in commands(src)]
    assert names == ["cat", "echo", "printf"]


def test_a_function_called_into_a_pipe_or_file_runs_its_body_there():
    script = parse_shell(
        "t.sh", "step() {\n  python t.py\n  step\n}\nstep\nstep | tee s.log\nstep > s.out\n"
    )
    pythons = [c for c in script.commands if c.name == "python"]
    assert [(c.location.line, c.stdout.kind) for c in pythons] == [(2, "inherit"), (2, "pipe"), (2, "file")]
    assert [c.name for c in script.pipelines[0].stages[0]] == ["step", "python", "step"]  # not into itself


def test_functions_that_call_each_other_twice_are_walked_a_bounded_number_of_times():
    chain = "".join(f"f{i}() {{\n  f{i + 1} | tee a.log\n  f{i + 1} > b.log\n}}\n" for i in range(30))
    script = parse_shell("t.sh", chain + "f30() { python t.py; }\nf0 | tee top.log\n")
    assert 1 < sum(c.name == "python" for c in script.commands) <= shell.MAX_CALL_WALKS + 1


def test_the_words_a_function_runs_as_a_command_run_at_the_call():
    # `"$@"` after a `shift` the walk counts (groundingLMM's run_in_env): the words after the first
    # are a command of this shell at the call, where they are written, with the call's streams
    src = (
        'in_env() {\n  local env="$1"\n  shift\n  conda activate "$env"\n  "$@"\n}\n'
        "in_env base cd /srv/job\n"
        'in_env base python "$(pwd)/t.py" --lr 1 | tee run.log\n'
        'rest() { "${@:2}"; }\nrest base python b.py\n'
        'unsure() { shift "$N"; "$@"; }\nunsure base cd /opt\npython "$(pwd)/c.py"\n'
    )
    script = parse_shell("t.sh", src)
    cd, python, b, c = (c for c in script.commands if c.name in ("cd", "python"))
    assert (cd.location.line, cd.location.column, cd.location.end_column) == (*position(src, 7, "cd"), 24)
    assert [w.value for w in python.words] == ["python", "/srv/job/t.py", "--lr", "1"]
    assert (python.location.line, python.location.column) == position(src, 8, "python")
    assert python.stdout.kind == PIPE and python in script.pipelines[0].stages[0]
    assert (b.location.line, b.location.column, [w.value for w in b.words]) == (*position(src, 10, "python"), ["python", "b.py"])
    # `shift "$N"`: which words run is not known; a `cd` among them leaves the directory unknown
    unsure = next(c for c in script.commands if c.name == "unsure")
    assert unsure.moves and c.location.line == 13 and c.words[1].value is None


def test_the_words_a_function_runs_through_a_command_or_in_a_pipeline_run_so_at_the_call():
    # `nohup "$@" &`, `"$@" 2>&1 | tee log`: the call's words run as the body runs its arguments,
    # in the body's wrapper, streams, background and pipeline (one of the call's, written in the body)
    src = (
        'run_bg() { nohup "$@" > /dev/null 2>&1 & }\n'
        "run_bg python a.py\n"
        'run_log() { "$@" 2>&1 | tee train.log; }\n'
        "run_log torchrun b.py\n"
        "set -o pipefail\nrun_log torchrun c.py\n"
        "cd /w\nrun_log cd /srv\nrun_bg cd /opt\n"
        'python "$(pwd)/d.py"\n'
    )
    script = parse_shell("t.sh", src)
    a = next(c for c in script.commands if c.name == "python")
    assert (a.location.line, a.location.column) == position(src, 2, "python")
    assert a.background and a.stdout.kind == NULL and [w.kind for w in a.wrappers] == ["nohup"]
    body, b, c, cd = script.pipelines
    assert [[x.name for x in stage] for stage in b.stages] == [["torchrun"], ["tee"]] and b.stages[0][0].stdout.kind == PIPE
    assert (b.location.line, b.location.column) == position(src, 4, "torchrun") and b.written == body.location
    assert body.location.line == 3 and not b.pipefail and c.pipefail and c.location.line == 6
    # neither moves this shell: a pipeline's stage and a job run in shells of their own
    d = [c for c in script.commands if c.name == "python"][-1]
    assert cd.stages[0][0].name == "cd" and d.words[1].value == "/w/d.py"
    # the body pipes nothing and runs nothing in the background: a call in a pipeline or with `&` is its own
    script = parse_shell("t.sh", 'f() { "$@"; }\nf python a.py | tee log\nf python b.py > b.log &\ncd /w\nf cd /srv\npython "$(pwd)/d.py"\n')
    assert len(script.pipelines) == 1 and [c.words[1].value for c in script.commands if c.name == "python"][-1] == "/srv/d.py"
    # words a command takes as its own options or variables, as it would at the call: not a command
    # (`env "$@" python b.py` is the body's own `python b.py`, the words it is given its variables)
    script = parse_shell("t.sh", 'sr() { srun "$@"; }\nsr --ntasks 8 python a.py\nev() { env "$@" python b.py; }\nev A=1\n')
    assert [[w.value for w in c.words] for c in script.commands if c.wrappers and c.words[0].value] == [["python", "b.py"]]


def _values(script, line: int) -> list:
    return [[w.value for w in c.words] for c in script.commands if c.location.line == line]


def test_a_function_walked_at_its_first_call_has_that_calls_positional_parameters():
    # the call's words, one per argument, as `$1`, `${1}`, `${3:-d}`, `${1:+x}`, `$#` read them; after
    # a `shift`, those left; past the last, unset (empty); `$10` is `${1}0`, not read
    src = (
        'f() {\n  local x=$1\n  shift\n  echo "$x" $1 ${2} "${3:-d}" $# ${1:+alt} ${4+set} "$3" $10\n}\n'
        "f a b c\n"
        'echo $1 ${1:-top}\n'
    )
    script = parse_shell("t.sh", src)
    assert _values(script, 4) == [["echo", "a", "b", "c", "d", "2", "alt", "", None]]
    # the script's own arguments are not the function's: not known, and their defaults as before
    assert _values(script, 7) == [["echo", None, "top"]]
    # an argument not known, and those after one that may be several words or none, are not known
    script = parse_shell("t.sh", 'f() { echo $1 $2 $3; }\nf "a b" $X c\ng() { echo $1 $2; }\ng a "$@"\n')
    assert _values(script, 1) == [["echo", "a", "b", None, None]]
    assert _values(script, 3) == [["echo", "a", None]]
    # in a loop of the body (a `shift` there moves them for the next round), after a `shift` in a
    # branch, `shift $N` or `set --`: not known
    for body in (
        'while [ $# -gt 0 ]; do case $1 in --gpus) G=$2; shift 2;; *) shift;; esac; done; echo $G',
        '[ "$1" = -v ] && shift; echo $1',
        'shift $N; echo $1',
        'set -- x y; echo $1',
    ):
        script = parse_shell("t.sh", f"f() {{\n  {body}\n}}\nf --name x,y --gpus 0\n")
        assert [c.words[1:] for c in script.commands if c.name == "echo"][0][0].value is None, body
    # nor in a body no call with known arguments walks: never called, or walked again for a
    # redirected call with the words of a walk before (it read them: `varies` below); one with
    # others is walked for them (`Command.walk`)
    script = parse_shell("t.sh", "f() {\n  echo $1\n}\ng() {\n  echo $1\n}\nf a\nf b > f.log\nf a > g.log\n")
    assert [[w.value for w in c.words] for c in script.commands if c.name == "echo"] == [["echo", "a"], ["echo", "b"], ["echo", None], ["echo", None]]


def test_a_later_call_marks_the_positional_parameters_it_gives_otherwise():
    # as a variable its caller sets (`ShellScript.varies`), when no walk had its values: one not
    # known (`$X` differs from `a`, not `29500` from `29500`); or the function had `MAX_WALKS`
    src = "run() {\n  torchrun --master_port $2 train.py > log_$1.txt &\n}\nrun a 29500\nrun \"$X\" 29500\nrun a $P\nrun a 29500\n"
    src += "".join(f"run {i} 29500\n" for i in range(1, 5))
    script = parse_shell("t.sh", src)
    torchrun = next(c for c in script.commands if c.name == "torchrun")
    port, log = torchrun.words[2], torchrun.redirects[0].target
    varies = {at.line: v for at, v in script.varies.items()}
    assert set(varies) == {5, 6, 11}
    assert varies[5].isdisjoint(port.origin) and not varies[5].isdisjoint(log.origin)
    assert not varies[6].isdisjoint(port.origin) and varies[6].isdisjoint(log.origin)
    assert varies[11].isdisjoint(port.origin) and not varies[11].isdisjoint(log.origin)
    # through a function the body calls with them (`g "$1"`), and after a `shift` by the word it is
    src = 'g() {\n  echo g $1\n}\nf() {\n  shift\n  g "$1"\n  g x\n}\nf a 1\nf b $X\nf c 1\n'
    script = parse_shell("t.sh", src)
    echo = next(c for c in script.commands if c.name == "echo")
    varies = {at.line: v for at, v in script.varies.items()}
    assert not varies[10].isdisjoint(echo.words[2].origin) and 11 not in varies
    # what the body sets from them is not known after a call that gives one not known
    src = 'setup() { EXP=$1; ARGS=(x "$1"); }\nsetup a\necho $EXP "${ARGS[@]}"\nsetup $X\necho $EXP "${ARGS[@]}"\n'
    script = parse_shell("t.sh", src)
    assert _values(script, 3) == [["echo", "a", "x", "a"]] and _values(script, 5) == [["echo", None, None]]
    # the body's words around the arguments it runs (`python $1 "${@:2}"`): not known at a call that gives them so
    script = parse_shell("t.sh", 'f() {\n  python $1 "${@:2}"\n}\nf a.py --x 1\nf \"$S\" --y 2\nf a.py --z\n')
    runs = [[w.value for w in c.words] for c in script.commands if c.name == "python" and c.location.line > 2]
    assert runs == [["python", "a.py", "--x", "1"], ["python", None, "--y", "2"], ["python", "a.py", "--z"]]


def test_a_later_call_that_gives_other_positional_parameters_walks_the_body_for_them():
    # as at a first call, once for each set of values (`Command.walk`: the arm of its FUNCTION
    # block); a call with the values of a walk before repeats that walk, its words and its effect
    src = 'f() {\n  python $1 "${@:2}"\n  OUT=$1\n}\nf a.py --x 1\nf b.py --y 2\nf a.py --z\necho $OUT\nf b.py --w\necho $OUT\n'
    script = parse_shell("t.sh", src)
    body = [(c.words[1].value, c.blocks[-1].arm) for c in script.commands if c.name == "python" and c.location.line == 2]
    assert body == [("a.py", 0), ("b.py", 2)]
    calls = [(c.location.line, c.walk) for c in script.commands if c.name == "f"]
    assert calls == [(5, 0), (6, 2), (7, 0), (9, 2)]
    runs = [[w.value for w in c.words] for c in script.commands if c.name == "python" and c.location.line > 2]
    assert runs == [["python", "a.py", "--x", "1"], ["python", "b.py", "--y", "2"], ["python", "a.py", "--z"], ["python", "b.py", "--w"]]
    assert _values(script, 8) == [["echo", "a.py"]] and _values(script, 10) == [["echo", "b.py"]]
    assert not script.varies
    assert script.call_walked(next(c for c in script.commands if c.name == "python" and c.blocks and c.blocks[-1].arm == 2)).location.line == 6
    # bounded: `MAX_WALKS` sets of values of a function; in a loop (`$i` not known), the same words,
    # a body that reads no positional parameter: walked once
    src = "f() {\n  echo $1\n}\n" + "".join(f"f {i}\n" for i in range(10))
    assert len(_values(parse_shell("t.sh", src), 2)) == MAX_WALKS
    src = "f() {\n  echo $1\n}\ng() {\n  echo g\n}\nfor i in $(seq 50); do f $i; g $i; done\nf a\nf a\ng b\n"
    script = parse_shell("t.sh", src)
    assert _values(script, 2) == [["echo", None], ["echo", "a"]] and _values(script, 5) == [["echo", "g"]]


def _job_pipefail(script) -> dict[str, bool]:
    """The pipefail of each `./bin/NAME | tee` pipeline of the jobs below, by NAME, walk after walk."""
    found: dict[str, list[bool]] = {}
    for pipeline in script.pipelines:
        first = pipeline.stages[0][0].words[0].value or ""
        if first.startswith("./bin/"):
            found.setdefault(first[6:], []).append(pipeline.pipefail)
    return {name: all(values) for name, values in found.items()}


_JOBS = "".join(f"job_{c}() {{\n  ./bin/{c} | tee {c}.out\n}}\n" for c in "abcdef")


def test_a_later_call_that_may_run_a_function_no_walk_ran_is_walked_past_the_bound():
    # a body that calls a function by a name made of its words (seamless_communication's ggml/ci/run.sh,
    # `gg_run() { ci=$1; set -o pipefail; gg_run_$ci | tee $OUT/$ci.log; }`, called five times): past
    # `MAX_WALKS` sets of words, a call that may run one no walk ran is walked, which runs it where the
    # body calls it (pipefail on), not as never called (the shell of its definition: off)
    run = "run() {\n  ci=$1\n  set -o pipefail\n  job_$ci | tee $1.log\n  set +o pipefail\n}\n"
    script = parse_shell("t.sh", run + _JOBS + "".join(f"run {c}\n" for c in "abcde"))
    assert _job_pipefail(script) == {"a": True, "b": True, "c": True, "d": True, "e": True, "f": False}
    assert [c.walk for c in script.commands if c.name == "run"] == [0, 2, 3, 4, 5]
    # one with the words of a walk before repeats it, as does one whose words name no function not run yet
    script = parse_shell("t.sh", run + _JOBS + "".join(f"run {c}\n" for c in "abcdeaxf"))
    assert [c.walk for c in script.commands if c.name == "run"] == [0, 2, 3, 4, 5, 0, 0, 6]
    # one that gives words not known here: the name is not known there either, each function it may name is run
    script = parse_shell("t.sh", run + _JOBS + 'run a\nrun "$STEP"\n')
    assert _job_pipefail(script) == dict.fromkeys("abcdef", True)
    # a name of nothing but the words (`$1 | tee`): the function the call names
    run = "run() {\n  set -o pipefail\n  $1 | tee $1.log\n  set +o pipefail\n}\n"
    script = parse_shell("t.sh", run + _JOBS + "".join(f"run job_{c}\n" for c in "abcde"))
    assert _job_pipefail(script) == {"a": True, "b": True, "c": True, "d": True, "e": True, "f": False}
    # a body that names its functions as written walks its calls `MAX_WALKS` times
    run = "run() {\n  set -o pipefail\n  job_a | tee $1.log\n}\n"
    script = parse_shell("t.sh", run + _JOBS + "".join(f"run {c}\n" for c in "abcde"))
    assert [c.walk for c in script.commands if c.name == "run"] == [0, 2, 3, 4, 0]
    # a call in the walk of its own body is not walked: a function it may run that no walk ran is not
    # judged (its caller's pipefail, exports and directory are not known); one called by its name is
    run = "run() {\n  set -o pipefail\n  job_$1 | tee $1.log\n  set +o pipefail\n}\n"
    script = parse_shell("t.sh", run + _JOBS + "job_z() {\n  run b\n}\nrun z\njob_c\n")
    assert _job_pipefail(script) == {"a": False, "c": False, "d": False, "e": False, "f": False}
    script = parse_shell("t.sh", run + _JOBS + "job_z() {\n  run b\n}\nrun a\nrun z\njob_c\n")
    assert _job_pipefail(script) == {"a": True, "c": False, "d": False, "e": False, "f": False}
    # nor past the walks a unit gets (`MAX_CALL_WALKS`)
    count = MAX_CALL_WALKS + 3
    jobs = "".join(f"job_{i}() {{\n  ./bin/{i} | tee {i}.out\n}}\n" for i in range(count))
    script = parse_shell("t.sh", run + jobs + "".join(f"run {i}\n" for i in range(count)))
    assert _job_pipefail(script) == {str(i): True for i in range(MAX_CALL_WALKS + 1)}


def test_a_cd_among_the_words_a_function_evals_leaves_the_directory_unknown():
    # `eval "$@"` reads the words again, joined: which commands they make is not read, and a `cd`
    # among them leaves the directory unknown
    script = parse_shell("t.sh", 'ev() { eval "$@"; }\ncd /w\nev cd /srv\npython "$(pwd)/d.py"\n')
    ev, d = (c for c in script.commands if c.name in ("ev", "python"))
    assert ev.moves and d.words[1].value is None


@pytest.mark.parametrize(
    "body, runs",
    [
        ('shift 2; "$@"', True),
        ('shift; shift; conda activate x; "$@" || exit 1', True),
        ('"${@:3}"', True),
        ('set -euo pipefail; shift 2; $@; conda deactivate', True),
        ('shift 2; "$@" | tee f.log', True),  # a pipeline's command: no cd of it moves the script
        ('shift 2; "$@" 2>&1 | tee f.log &', True),
        ('shift 2; nohup "$@" > /dev/null 2>&1 &', True),  # run by a command that runs its words
        ('shift 2; time "$@"', True),
        ('timeout 1h "${@:3}" >> run.log', True),
        ('shift 2; srun --ntasks 8 "$@"', True),
        ('shift 2; exec "$@"', True),
        ('shift 2; "$@" --more', True),
        ('shift 2; if [ -n "$DRY" ]; then echo "$@"; else "$@"; fi', False),
        ('set -- "${@:3}"; "$@"', False),
        ('shift "$N"; "$@"', False),
        ('shift 2; "$@"; cd -', False),  # the `cd -` runs after the command
        ('$3 "${@:4}"', False),
        ('shift 2; eval "$@"', False),  # a string this shell reads again: the words joined and split anew
        ('shift 2; bash -c "$@"', False),
        ('shift 2; cat in.txt | "$@"', False),  # not first in its pipeline
        ('shift 2; nohup "$@" "$@"', False),
    ],
)
def test_which_words_of_a_call_a_function_runs_is_read_from_its_body(body, runs):
    script = parse_shell("t.sh", f"f() {{\n  {body}\n}}\nf a b python t.py\n")
    # at the call (the body's `$3 "${@:4}"` is its walk's `python`, with words not known there)
    assert [c.words[1].value for c in script.commands if c.name == "python" and c.location.line == 4] == (["t.py"] if runs else [])


@pytest.mark.parametrize(
    "body, words",
    [
        ('shift; python "$@"', ["python", "t.py", "--x", "1"]),
        ('python "${@:2}" --y 2', ["python", "t.py", "--x", "1", "--y", "2"]),
        ('local a=$1; shift; nohup python -u "$@" > o.log 2>&1 &', ["python", "-u", "t.py", "--x", "1"]),
        ('shift; OMP_NUM_THREADS=1 srun -N 1 -- python "$@" 2>&1 | tee l.log', ["python", "t.py", "--x", "1"]),
        ('local cmd=("${@:2}"); python "${cmd[@]}"', ["python", "t.py", "--x", "1"]),
        ('shift; cd sub && python "$@"', ["python", "t.py", "--x", "1"]),
        ('shift; python "$@"; echo "done: $@"', None),  # its arguments read twice: not sure which words are whose
        ('shift; python "$*"', None),  # one word of them all
        ('shift; python "x $@"', None),  # in a string with other text
        ('shift "$N"; python "$@"', None),
        ('shift; eval python "$@"', None),  # read again by a shell
        ('shift; ssh gpu1 python "$@"', None),
        ('shift; $PY "$@"', None),  # a program not written
        ('shift; python "$@"; cd -', None),  # the `cd -` runs after the command
        ('if true; then shift; python "$@"; fi', None),
    ],
)
def test_a_call_runs_the_command_its_function_gives_its_arguments(body, words):
    # `run() { python "$@"; }` (cryodrgn's sweep.sh): at each call, that command with the call's
    # words where the body has `"$@"`, standing at the call
    src = f"f() {{\n  {body}\n}}\nf a t.py --x 1\n"
    script = parse_shell("t.sh", src)
    runs = [c for c in script.commands if c.name == "python" and any(w.location.line == 4 for w in c.words)]
    assert [[w.value for w in c.words] for c in runs] == ([words] if words else [])
    if runs:
        run = runs[0]
        assert (run.location.line, run.location.column) == (4, 1)
        assert [w.location.line for w in run.words] == [2 if w.value not in ("t.py", "--x", "1") else 4 for w in run.words]


def test_a_call_whose_function_gives_its_arguments_to_a_command_keeps_its_streams_and_moves():
    src = (
        'bg() { nohup python "$@" > o.log 2>&1 & }\nbg a.py\n'
        'lg() { torchrun --nproc_per_node 2 "$@" 2>&1 | tee l.log; }\nlg b.py\n'
        'go() { cd "$@"; }\ngo /srv\npython "$(pwd)/c.py"\n'
        'say() { echo "$@"; }\nsay python d.py\n'
        'plain() { python e.py "$@"; }\nplain\n'
        'ce() { env "PATH=$P" "$@"; }\nce python g.py\n'
    )
    script = parse_shell("t.sh", src)
    a = next(c for c in script.commands if c.name == "python" and c.location.line == 2)
    assert a.background and a.stdout.kind == FILE and [w.kind for w in a.wrappers] == ["nohup"]
    b = next(c for c in script.commands if c.name == "torchrun" and c.location.line == 4)
    assert b.stdout.kind == PIPE and b in script.pipelines[-1].stages[0] and script.pipelines[-1].stages[1][0].name == "tee"
    c = next(c for c in script.commands if c.name == "python" and c.location.line == 7)
    assert c.words[1].value == "/srv/c.py"
    # an echo's words run nothing: only the echo; a call without words runs the body's command as written
    assert [c.name for c in script.commands if c.location.line == 9] == ["say", "echo"]
    assert [[w.value for w in c.words] for c in script.commands if c.location.line == 11] == [["plain"], ["python", "e.py"]]
    # a command whose name is not known (`"PATH=$P"`, which env does not take for a variable here): none
    assert [c.words[0].template for c in script.commands if c.location.line == 13] == ["ce"]
    # a function that gives them to another that gives them to a program: that program, at the call
    script = parse_shell("t.sh", 'inner() { python t.py "$@"; }\nouter() { inner --lr 1 "$@"; }\nouter --x 2\n')
    assert [[w.value for w in c.words] for c in script.commands if c.location.line == 3][-1] == ["python", "t.py", "--lr", "1", "--x", "2"]
    # a `cd` among the words a program takes is no `cd`, also where which words those are is not sure
    script = parse_shell("t.sh", 'f() { python t.py "$@"; cd /w; }\ncd /w\nf cd /srv\npython "$(pwd)/d.py"\n')
    assert [c.words[1].value for c in script.commands if c.name == "python"][-1] == "/w/d.py"


def test_a_heredoc_no_command_reads_is_a_comment():
    # tree-sitter-bash has no heredoc without a command, and read its text as commands
    script = parse_shell("t.sh", "<<note\nset -o pipefail\npython old.py | tee old.log\nnote\npython t.py | tee t.log\n")
    assert [(c.name, c.location.line) for c in script.commands] == [("python", 5), ("tee", 5)]
    assert not script.pipelines[0].pipefail and script.parse_errors == []
    tabbed = parse_shell("t.sh", "\t<<-'END'\n\tpython old.py\n\tEND\necho done\n")
    assert [c.name for c in tabbed.commands] == ["echo"]
    # a continued line's heredoc is its command's, in a file tree-sitter-bash errs on elsewhere
    continued = parse_shell("t.sh", "<<note\nold\nnote\npython - \\\n  <<'PY' | tee a.log\nprint(1)\nPY\n")
    assert [c.name for c in continued.commands] == ["python", "tee"]


def test_what_follows_a_heredoc_start_on_its_line_is_walked():
    # tree-sitter-bash nests `| tee`, `> file` and `&& cmd` inside the heredoc redirect
    script = parse_shell(
        "t.sh",
        "python3 - <<'PY' | grep -v x | tee audit.log\nprint(1)\nPY\n"
        "cat <<EOF > job.sh && python train.py |& tee run.log\n#!/bin/bash\nEOF\n",
    )
    assert [c.name for c in script.commands] == ["python3", "grep", "tee", "cat", "python", "tee"]
    first, second = script.pipelines
    assert [[c.name for c in stage] for stage in first.stages] == [["python3"], ["grep"], ["tee"]]
    assert (first.location.line, first.location.column, first.location.end_line) == (1, 1, 1)
    assert script.commands[0].stdout.kind == "pipe" and script.commands[0].stdout.reader.name == "grep"
    cat = script.commands[3]
    assert [(r.op, r.target.value) for r in cat.redirects] == [(">", "job.sh")]
    assert [[c.name for c in stage] for stage in second.stages] == [["python"], ["tee"]]
    assert script.commands[4].stderr.kind == "pipe"


def test_command_substitution_runs_but_its_output_is_captured():
    python = one("PORT=$(python find_port.py)\n", "python")
    assert python.stdout.kind == "captured"
    for src in ("PORT=`python find_port.py`\n", 'echo "port `python find_port.py`"\n', "echo :$(python find_port.py)\n"):
        assert one(src, "python").stdout.kind == "captured", src


# --- variables --------------------------------------------------------------------------------


def test_variables_propagate_into_log_paths():
    src = 'LOG_DIR=/workspace/logs\nRUN=flex5\npython t.py | tee "$LOG_DIR/${RUN}.log"\n'
    tee = one(src, "tee")
    assert tee.args[0].value == "/workspace/logs/flex5.log"


def test_default_expansion_and_unknown_variables():
    src = 'OUT=${OUT_DIR:-/tmp/out}\npython t.py > "$OUT/a.log"\npython t.py > "$UNSET/b.log"\n'
    first, second = commands(src, "python")
    assert first.stdout.target.value == "/tmp/out/a.log"
    assert second.stdout.target.value is None
    assert second.stdout.target.template == "$UNSET/b.log"


@pytest.mark.parametrize(
    ("src", "words"),
    [
        ("ck=m.pt\npython t.py ${ck:+--checkpoint $ck} -x\n", ["--checkpoint", "m.pt", "-x"]),
        ("ck=\npython t.py ${ck:+--checkpoint $ck} -x\n", ["-x"]),  # set, empty: `:+` gives nothing
        ("ck=\npython t.py ${ck+--checkpoint} -x\n", ["--checkpoint", "-x"]),  # `+`: set at all
        ('ck=m.pt\npython t.py "${ck:+--checkpoint $ck}" -x\n', ["--checkpoint m.pt", "-x"]),  # quoted: one word
        ("python t.py ${ck:+--checkpoint $ck} -x\n", [None, "-x"]),  # not set here: a caller may set it
    ],
)
def test_an_alternate_value_of_a_known_variable_is_its_words_or_none(src, words):
    assert [w.value for w in one(src, "python").words[2:]] == words


def test_assignment_in_a_branch_makes_a_known_variable_unknown():
    src = "LOG=a.log\nif [ -n \"$X\" ]; then LOG=b.log; fi\npython t.py > \"$LOG\"\n"
    assert one(src, "python").stdout.target.value is None


@pytest.mark.parametrize(
    "reader",
    [
        "read -r -p 'GPUs? ' N",
        'read -rp"GPUs? " N',
        "read -t 5 -- N",
        "IFS=, read -ra N <<< \"$LIST\"",
        "mapfile -t N < gpus.txt",
        "readarray -n 2 N < gpus.txt",
        "getopts 'n:' N",
        "printf -v N '%d' 4",
    ],
)
def test_what_a_reader_sets_is_unknown_after_it(reader):
    src = f"N=8\nM=8\n{reader}\ntorchrun --nproc_per_node $N --nnodes $M t.py\n"
    assert [w.value for w in one(src, "torchrun").words[1:5]] == ["--nproc_per_node", None, "--nnodes", "8"]


@pytest.mark.parametrize(
    "reader, words",
    [
        # OpenRLHF's launchers: the whole heredoc, its blanks at both ends dropped; `<<EOF` joins lines at a backslash-newline
        ("read -r -d '' A <<EOF\npkg.train \\\n   --lr $LR\nEOF\n", ["pkg.train    --lr 5e-6", None]),
        ("read -rd '' A <<EOF || true\n  p --a\n  x  \nEOF\n", ["p --a\n  x", None]),
        # `<<'EOF'` keeps them, and so does `-r`: `$A` unquoted then holds a word `\`; without `-r` read joins them
        ("read -r -d '' A <<'EOF'\npkg.train \\\n   --lr $LR\nEOF\n", ["pkg.train \\\n   --lr $LR", None]),
        ("read -d \"\" A <<'EOF'\npkg.train \\\n   --lr $LR\nEOF\n", ["pkg.train    --lr $LR", None]),
        # `<<-`: the tabs that start its lines go (not one a backslash-newline joined to the line before)
        ("read -r -d '' A <<-EOF\n\tpkg.train \\\n\t--lr 1\n\t\t--b\n\tEOF\n", ["pkg.train \t--lr 1\n--b", None]),
        ("read -r A <<EOF\n first line \nsecond\nEOF\n", ["first line", None]),  # no `-d`: the first line
        ("read A <<'EOF'\nfirst \\\nline\nsecond\nEOF\n", ["first line", None]),
        ("read -r A B <<< '  one two  three '\n", ["one", "two  three"]),  # the last name takes the rest
        ("read -r A B C <<< \"$LR\"\n", ["5e-6", ""]),
        ("read A B <<< '  a\\ b   c\\ d\\ '\n", ["a b", "c d "]),  # a backslash keeps a blank
        ("read A B <<< 'a c d\\ '\n", ["a", "c d"]),  # but one that ends a rest of more than one field
        ("IFS= read -r A <<< '  a b '\n", ["  a b ", None]),
        ("read <<< '  a b '\nA=$REPLY\n", ["  a b ", None]),
        ("read -d , A <<< 'a b,c'\n", ["a b", None]),
        ("IFS=$'\\n' read -r -d '' A B <<EOF\none two\nthree\nfour\nEOF\n", ["one two", "three\nfour"]),
        # partly unknown: as written, in one name only
        ("read -r -d '' A <<EOF\np --m $M\nEOF\n", [None, None]),
        ("read -r A B <<< \"p $M\"\n", [None, None]),
        # not known: another IFS, another input, a count of characters
        ("IFS=, read -r A B <<< 'a,b'\n", [None, None]),
        ("read -r -d '' A <<EOF < f\np\nEOF\n", [None, None]),
        ("read -r -u 3 A <<< p\n", [None, None]),
        ("read -r -n 2 A <<< p\n", [None, None]),
    ],
)  # fmt: skip
def test_what_read_takes_from_a_heredoc_or_here_string(reader, words):
    """What bash's `read` sets from a heredoc or a here-string (each case checked with bash 5)."""
    src = f"LR=5e-6\n{reader}python t.py \"$A\" \"$B\"\n"
    assert [w.value for w in one(src, "python").words[2:]] == words


def test_a_partly_unknown_heredoc_read_keeps_its_written_form():
    src = "read -r -d '' A <<EOF\np --m $M\nEOF\npython t.py \"$A\"\n"
    assert one(src, "python").words[2].template == "p --m $M"


@pytest.mark.parametrize(
    "reader, elements",
    [
        ("read -ra A <<< '  p   --a  b '\n", ["p", "--a", "b"]),
        ("IFS=$'\\n' read -r -d '' -a A <<EOF\none two\nthree\nEOF\n", ["one two", "three"]),
        ("IFS= read -a A <<< 'x y'\n", ["x y"]),
        ("read -a A <<< ''\n", []),
        ("IFS=, read -ra A <<< 'x,y'\n", [None]),
    ],
)
def test_what_read_a_takes_from_a_here_string(reader, elements):
    assert [w.value for w in one(f'{reader}python t.py "${{A[@]}}"\n', "python").words[2:]] == elements


def test_a_command_knows_the_defaults_it_took():
    src = (
        "MASTER_PORT=${MASTER_PORT:-29500}\nPORT=$MASTER_PORT\ntorchrun --master_port $PORT t.py\n"
        "export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0,1}\nnohup torchrun --nproc_per_node ${NGPU:-8} t.py &\n"
        "unset CUDA_VISIBLE_DEVICES\nN=4\nX=${X:-1}\ntorchrun --nproc_per_node $N t.py\n"
    )
    first, wrapped, second = commands(src, "torchrun")
    assert first.defaults == {"MASTER_PORT"}  # through two variables
    assert wrapped.defaults == {"CUDA_VISIBLE_DEVICES", "NGPU"}  # an exported one reaches it
    assert second.defaults == frozenset()  # X is not read, CUDA_VISIBLE_DEVICES no longer exported


def test_read_with_no_name_sets_reply_and_its_prompt_is_no_name():
    src = "N=8\nREPLY=1\nread -p N\ntorchrun --nproc_per_node $N --nnodes $REPLY t.py\n"
    assert [w.value for w in one(src, "torchrun").words[1:5]] == ["--nproc_per_node", "8", "--nnodes", None]


def test_arrays_are_spliced_and_unknown_ones_pass_through():
    src = 'ARGS=( --num-layers 24 --lr "3e-4" )\ntorchrun --nproc_per_node 8 pretrain.py "${ARGS[@]}" "${OTHER[@]}" "$@"\n'
    torchrun = one(src, "torchrun")
    values = [w.value for w in torchrun.words]
    assert values[:7] == ["torchrun", "--nproc_per_node", "8", "pretrain.py", "--num-layers", "24", "--lr"]
    assert values[7] == "3e-4"
    assert [w.passthrough for w in torchrun.words[8:]] == [True, True]
    # spliced words keep the location of the array element
    assert torchrun.words[4].location.line == 1


# `pwd` and `$PWD` are the directory the shell is in, when its `cd`s tell: "." (a path from
# there is read from where the shell is) or its absolute path
PWD_CASES = [
    ("DIR=`pwd`\necho $DIR\n", "."),
    ('DIR="$(pwd)"\necho "$DIR/train.py"\n', "./train.py"),
    ("DIR=$PWD\necho ${DIR}\n", "."),
    ("cd data/raw && cd ..\necho ${PWD}/x\n", "./x"),
    ("cd /srv/job\necho $(pwd -P)\n", "/srv/job"),
    ("cd data\ncd -\necho $(pwd)\n", "."),
    ("cd data\necho $(pwd)/x\n", "./x"),  # data/x, from the start
    ("cd data\nDIR=$(pwd)\ncd -\necho $DIR\n", "./data"),  # the same directory, from where the shell is now
    ("pushd /w\npushd data\npopd\necho $PWD\n", "/w"),
    ("f() { cd /w/data; }\nf\necho $PWD\n", "/w/data"),
    ("DIR=$(pwd)\necho $DIR\ncd data/raw\necho $DIR\n", "../.."),  # Point-BERT's `ROOT=$(pwd)`, then `cd $ROOT/ext/a`
    ("DIR=$(pwd)\nOUT=$DIR/out\ncd data\necho $OUT\n", "../out"),  # through another variable too
    ("DIR=$(pwd)\ncd data\ncd $DIR/b\necho $DIR\n", ".."),  # and after the next cd, which it led to (b/)
    ("DIR=$(pwd)\ncd ..\necho $DIR\n", None),  # above the start: its name is not known here
    ("DIR=$(pwd)\ncd $WORK\necho $DIR\n", None),  # somewhere not known
    ("DIRS=($(pwd) x)\ncd data\necho ${DIRS[0]}\n", None),  # an array: not rebased
    ("cd /w\nDIR=$(pwd)\ncd data\necho $DIR\n", "/w"),  # an absolute one stays
    ("cd $WORK\necho $(pwd)\n", None),
    ("cd\necho $PWD\n", None),  # home
    ("cd ~/repo\necho $PWD\n", None),
    ('if [ -n "$X" ]; then cd data; fi\necho $PWD\n', None),
    ("f() { cd data; }\nf\nf\necho $PWD\n", None),  # a later call moves from where it is
    ("PWD=/x\necho $PWD\n", "/x"),  # set by the script
    ("ssh gpu1 'echo $PWD'\n", None),  # the remote shell's
    ("docker run -w /app img bash -c 'echo $(pwd)'\n", None),
    ("bash -c 'echo $(pwd)'\n", "."),  # a new shell here starts where this one is
]


@pytest.mark.parametrize("src,value", PWD_CASES)
def test_pwd_is_the_directory_the_shell_is_in_when_known(src, value):
    echo = commands(src, "echo")[-1]
    assert echo.args[0].value == value


def test_exported_and_prefix_environment():
    src = "export PYTHONUNBUFFERED=1\nNCCL_DEBUG=INFO python t.py\n"
    python = one(src, "python")
    assert python.has_env("PYTHONUNBUFFERED") and python.has_env("NCCL_DEBUG")
    assert python.env["NCCL_DEBUG"].value == "INFO"


# --- streams ----------------------------------------------------------------------------------


def test_exec_redirect_changes_the_streams_of_later_commands():
    src = "echo before\nexec > /logs/run.log 2>&1\npython t.py\n"
    echo, python = commands(src)
    assert echo.stdout.kind == INHERIT
    assert python.stdout.kind == FILE and python.stdout.target.value == "/logs/run.log"
    assert python.stderr is python.stdout


def test_exec_into_process_substitution_keeps_a_tee():
    src = "exec > >(tee -a run.log) 2>&1\npython t.py\n"
    python = one(src, "python")
    assert python.stdout.kind == PROCSUB
    assert [w.value for w in python.stdout.file_targets()] == ["run.log"]


@pytest.mark.parametrize(
    "src,out,err",
    [
        ("python t.py > a.log 2>&1", FILE, FILE),
        ("python t.py 2>&1 > a.log", FILE, INHERIT),
        ("python t.py &> a.log", FILE, FILE),
        ("python t.py &>> a.log", FILE, FILE),
        ("python t.py > /dev/null", NULL, INHERIT),
        ("python t.py |& tee a.log", PIPE, PIPE),
        # `|&` adds its `2>&1` after the command's own redirects, as bash does
        ("python t.py 2>/dev/null |& tee a.log", PIPE, PIPE),
        ("python t.py > o.log |& tee a.log", FILE, FILE),
        ("python t.py 2>&1 > o.log |& tee a.log", FILE, FILE),
        ("{ python t.py; } 2>/dev/null |& tee a.log", PIPE, PIPE),
        ("echo go | python t.py 2>/dev/null |& tee a.log", PIPE, PIPE),
        ("python t.py >&2 |& tee a.log", INHERIT, INHERIT),
        ("python t.py 2>&1 | tee a.log", PIPE, PIPE),
        ("{ python t.py; } > a.log 2>&1", FILE, FILE),
    ],
)
def test_redirections(src, out, err):
    python = one(src + "\n", "python")
    assert (python.stdout.kind, python.stderr.kind) == (out, err)


def test_pipefail_state_follows_set():
    src = (
        "python a.py | tee a.log\nset -euo pipefail\npython b.py | tee b.log\n"
        "bash -c 'python c.py | tee c.log'\nset +o pipefail\npython d.py | tee d.log\n"
        "set -Eeuo pipefail\npython e.py | tee e.log\n"
    )
    assert [c.pipefail for c in commands(src, "python")] == [False, True, False, False, True]
    # `set` reads its options as bash does (`shell_args`): words after `--` are positional
    # parameters, and a cluster's `o` takes its name in order
    src = "set -e -- -o pipefail\npython a.py | tee a.log\nset -oe pipefail\npython b.py | tee b.log\n"
    assert [c.pipefail for c in commands(src, "python")] == [False, True]


def test_background_jobs_are_marked():
    src = "python a.py > a.log 2>&1 &\npython b.py\n"
    assert [c.background for c in commands(src, "python")] == [True, False]


# --- errors -----------------------------------------------------------------------------------


def test_unterminated_nested_string_is_a_parse_error_at_its_position():
    src = "echo ok\nssh gpu1 'tmux new-session -d \"python t.py'\n"
    script = parse_shell("t.sh", src)
    assert [(loc.line, message) for loc, message in script.parse_errors] == [
        (2, 'missing " in a nested command string')
    ]


def test_valid_bash_that_tree_sitter_misreads_is_not_an_error():
    src = "case $x in\n  a) echo a;;\n  *) echo b;;\nesac\necho $(( 1 + 2 ))\n[[ $a =~ ^x ]] && echo y\n"
    assert parse_shell("t.sh", src).parse_errors == []


PLACEHOLDERS = [
    # tree-sitter-bash's ERROR node starts on line 1; bash stops on line 2, at the newline: the
    # finding is at the `>` left without its file, as where tree-sitter-bash's error is that `>`
    ("echo start\nDATA_FOLDER=<PATH_OF_THE_DATA>\n", 2, 30, "syntax error near unexpected token `newline'"),
    ("echo start\nX=(a b\nfor f in a (b); do :; done\n", 3, 12, "syntax error near unexpected token `('"),
    # tree-sitter-bash takes the next lines' words for the file name of `>`: no ERROR at all
    ("swift rollout \\\n    --port <node1_port>\n\nNPROC=4 \\\nswift rlhf\n", 2, 23, "syntax error near unexpected token `newline'"),
    ('ssh gpu1 "echo a\n  --port <p>\necho b"\n', 2, 12, "syntax error near unexpected token `newline' in a nested command string"),
    # an unclosed block: where bash reaches the end of the input, in its words
    ("train() {\n  python t.py\n", 3, 1, "syntax error: unexpected end of file"),
    # tree-sitter-bash finds a `;` missing; bash's unexpected token is the fault (a `;` there is no fix)
    ("echo hi a(x)\n", 1, 10, "syntax error near unexpected token `('"),
]


@pytest.mark.parametrize(("src", "line", "column", "message"), PLACEHOLDERS)
def test_an_error_is_reported_on_the_line_where_bash_stops_in_its_words(src, line, column, message):
    errors = parse_shell("t.sh", src).parse_errors
    assert [(loc.line, loc.column, text) for loc, text in errors] == [(line, column, message)]


def test_an_extended_glob_is_not_an_error():
    """`bash -n` runs no `shopt -s extglob`: asked plainly, it refuses the line the shopt allows."""
    src = "set -euo pipefail; shopt -s extglob\nrm -rf -- !(.|..|.git|_import_release.sh)\n"
    assert parse_shell("t.sh", src).parse_errors == []


def test_an_unknown_part_of_a_nested_string_is_one_unknown_word():
    src = 'tmux new-session -d "cd $DIR && python train.py --out $OUT/run | tee t.log"\n'
    command = one(src, "python")
    assert [(w.value, w.template) for w in command.words] == [
        ("python", "python"), ("train.py", "train.py"), ("--out", "--out"), (None, "$OUT/run")
    ]
    assert command.stdout.kind == PIPE
    assert [w.value for w in one(src, "tee").words] == ["tee", "t.log"]
    assert [w.template for w in one(src, "cd").words] == ["cd", "$DIR"]


def test_a_nested_string_with_unknown_parts_is_never_a_syntax_error(monkeypatch):
    """Its unknown parts are read as written; their values, not what is written, make the
    command bash will read (`$OPEN` may hold `(`): no LL001, and bash -n is not asked."""
    monkeypatch.setattr(shell, "_bash_error", lambda data: pytest.fail("bash -n was run"))
    script = parse_shell("t.sh", 'tmux new -d "python t.py $OPEN x"\n')
    assert script.parse_errors == []
    monkeypatch.undo()
    script = parse_shell("t.sh", 'OPEN="("\ntmux new -d "python t.py $OPEN x"\n')
    assert [(loc.line, text) for loc, text in script.parse_errors] == [
        (2, "syntax error near unexpected token `(' in a nested command string")
    ]


def test_a_string_an_inner_quote_ended_early_is_judged_as_written():
    """`"...echo "step`: the inner `"` ends the string with the loop open, whatever `${N}` holds;
    ssh joins the words after the host, so the remote shell reads the whole loop and runs it."""
    loop = '"\nfor i in ${N}; do\n  echo "step one"\ndone\n"\n'
    said = "syntax error: unexpected end of file in a nested command string"
    said += ': the `"` before `step` on line 3 ends it early; escape it as `\\"`'
    for src in ("bash -c " + loop, "sbatch --wrap=" + loop):
        assert [(loc.line, text) for loc, text in parse_shell("t.sh", src).parse_errors] == [(3, said)]
    assert parse_shell("t.sh", "ssh gpu1 " + loop).parse_errors == []


CONTINUED_TO_THE_END = [
    # a command pasted with its last continuation: bash ends it at the end of the text
    ("CUDA_VISIBLE_DEVICES=0 swift deploy \\\n    --port 8000 \\\n", ["swift", "deploy", "--port", "8000"]),
    ("python t.py --x 1\\\n", ["python", "t.py", "--x", "1"]),
    ("ssh gpu1 'python t.py \\\n'\n", ["ssh", "gpu1", "python t.py \\\n", "python", "t.py"]),
]


@pytest.mark.parametrize(("src", "words"), CONTINUED_TO_THE_END)
def test_a_continuation_at_the_end_of_the_text_is_no_error_and_asks_no_bash(monkeypatch, src, words):
    """tree-sitter-bash reports an error there; bash -n, which clears it, is not run at all."""
    monkeypatch.setattr(shell, "_bash_error", lambda data: pytest.fail("bash -n was run"))
    script = parse_shell("t.sh", src)
    assert script.parse_errors == []
    assert [w.value for c in script.commands for w in c.words] == words


def test_an_escaped_backslash_at_the_end_of_the_text_stays_in_its_word():
    """Two backslashes are one literal backslash, not a continuation: the word keeps it."""
    assert [w.value for w in parse_shell("t.sh", "echo a\\\\\n").commands[0].words] == ["echo", "a\\"]


def test_an_error_before_a_continuation_at_the_end_is_still_reported():
    errors = parse_shell("t.sh", "train() {\n  python t.py \\\n").parse_errors
    assert [(loc.line, text) for loc, text in errors] == [(3, "syntax error: unexpected end of file")]


def test_a_redirect_continued_onto_the_next_line_is_not_an_error():
    assert parse_shell("t.sh", "python t.py > \\\n  log.txt\ncat <<EOF\n<x>\nEOF\n").parse_errors == []


@pytest.mark.parametrize(
    ("first_line", "program"),
    [
        ("#!/bin/bash", "bash"),
        ("#! /bin/sh -e", "sh"),
        ("#!/usr/bin/env zsh", "zsh"),
        ("#!/usr/bin/env -S PATH=/opt/bin bash -eu", "bash"),
        ("#!", ""),
        ("echo no shebang", None),
    ],
)
def test_the_interpreter_of_the_shebang_line(first_line, program):
    assert parse_shell("t.sh", first_line + "\necho ok\n").interpreter == program


ZSH_ONLY = "tasks[qnli]=/data/QNLI\nfor task data_path in ${(kv)tasks}; do\n  python t.py $task\ndone\n"


@pytest.mark.parametrize(("path", "first_line"), [("t.sh", "#!/usr/bin/env zsh\n"), ("t.zsh", ""), ("t.sh", "#!/bin/csh\n")])
def test_a_script_for_a_shell_other_than_bash_is_not_judged_by_bash(path, first_line):
    script = parse_shell(path, first_line + ZSH_ONLY)
    assert script.parse_errors == [] and [c.name for c in script.commands] == ["python"]


def test_the_same_script_for_bash_is_a_syntax_error():
    errors = parse_shell("t.sh", "#!/bin/bash\n" + ZSH_ONLY).parse_errors
    assert [(loc.line, message) for loc, message in errors] == [(3, "syntax error near unexpected token `data_path'")]


def test_a_placeholder_region_is_one_line_at_the_token_bash_names():
    """tree-sitter-bash's error node for `A=<first thing>` runs on into the lines after it."""
    src = "#!/bin/bash\nA=<first thing>\nB=<second thing>\n\npython t.py \\\n  --load ${B}\n"
    errors = parse_shell("t.sh", src).parse_errors
    spans = [(loc.line, loc.column, loc.end_line, loc.end_column) for loc, _ in errors]
    assert spans == [(2, 15, 2, 16), (3, 16, 3, 17)]


STRAY_CLOSERS = [
    ("for x in a b; do\n  echo $x\ndone\ndone\n", 4, 1, "done"),
    ("if true; then echo a; fi; fi\n", 1, 27, "fi"),
    ("echo a; then echo b\nfi\n", 1, 9, "then"),  # one finding per unit: the first bad word
    ("train() { python t.py; }\n}\n", 2, 1, "}"),
    ("case $1 in\n  a) echo;;\nesac\nesac\n", 4, 1, "esac"),
]


@pytest.mark.parametrize(("src", "line", "column", "word"), STRAY_CLOSERS)
def test_a_stray_closing_word_is_the_syntax_error_bash_reports(src, line, column, word):
    """tree-sitter-bash reads a stray `done` as a command of that name; bash refuses the file."""
    errors = parse_shell("t.sh", src).parse_errors
    assert [(loc.line, loc.column, message) for loc, message in errors] == [
        (line, column, f"syntax error near unexpected token `{word}'")
    ]


def test_a_stray_closing_word_in_a_nested_string():
    src = 'echo start\nssh gpu1 "cd /w; python t.py; done"\n'
    errors = parse_shell("t.sh", src).parse_errors
    assert [(loc.line, loc.column, message) for loc, message in errors] == [
        (2, *position(src, 2, "done")[1:], "syntax error near unexpected token `done' in a nested command string")
    ]


@pytest.mark.parametrize(
    "src",
    [
        'echo "done" fi \'esac\'\nx=done\ncase a in a) echo then;; esac\n',
        "for x in a; do echo; done\nif a; then b; elif c; then d; else e; fi\n{ echo; }\n",
        "\\done\n\"fi\"\n",  # quoted: a command named done, not the keyword
    ],
)
def test_closing_words_in_place_or_quoted_are_not_errors(src):
    assert parse_shell("t.sh", src).parse_errors == []


# --- pipelines and scheduler directives -------------------------------------------------------


def test_pipeline_fact_starts_at_its_first_line_with_the_pipefail_of_its_shell():
    src = (
        "set -o pipefail\npython train.py \\\n  --lr 1 2>&1 \\\n  | tee run.log\n"
        "bash -c 'python c.py | grep loss'\n"
    )
    outer, inner = parse_shell("t.sh", src).pipelines
    assert (outer.location.line, outer.location.end_line, outer.pipefail) == (2, 4, True)
    assert [c.name for c in outer.feeders(0)] == ["python"] and outer.last.name == "tee"
    assert (inner.location.line, inner.pipefail, [w.kind for w in inner.wrappers]) == (5, False, ["bash-c"])


def test_feeders_are_the_commands_writing_into_the_pipe():
    src = "echo $(python -c 'print(1)') | tee a.log\ntimeout 60 python t.py | tee b.log\n"
    first, second = parse_shell("t.sh", src).pipelines
    assert [c.name for c in first.feeders(0)] == ["echo"]
    assert [c.name for c in second.feeders(0)] == ["timeout", "python"]


def test_sbatch_directives_of_the_header_only():
    src = (
        "#!/bin/bash\n#SBATCH -o logs/%x.out  # trailing comment\n"
        '#SBATCH --error="err dir/%j.err"\necho start\n#SBATCH --output=ignored.out\n'
    )
    directives = parse_shell("t.sh", src).directives
    assert [[w.value for w in d.words] for d in directives] == [["-o", "logs/%x.out"], ["--error=err dir/%j.err"]]
    word = directives[0].words[1]
    assert (word.location.line, word.location.column) == position(src, 2, "logs/%x.out")


def test_redirects_after_a_list_or_pipeline_belong_to_its_last_command():
    src = "cd /w && python t.py 2>&1 > run.log\npython a.py | tee a.log > /dev/null\n"
    cd, python, first, tee = commands(src)
    assert (cd.redirects, cd.stdout.kind) == ([], INHERIT)
    assert [r.op for r in python.redirects] == [">&", ">"] and python.stdout.kind == FILE
    assert python.location.column == position(src, 1, "python")[1]
    assert python.location.end_column == len(src.splitlines()[0]) + 1
    assert first.stdout.kind == PIPE and first.stderr.kind == INHERIT and tee.stdout.kind == NULL


def test_the_pipe_reader_is_the_stage_command_not_one_nested_in_its_words():
    src = 'python t.py 2>&1 | tee "logs/$(date +%F).log"\npython t.py | tee a.log > >(grep -i error > e.log)\n'
    first, second = parse_shell("t.sh", src).pipelines
    assert first.last.name == "tee" and second.last.name == "tee"


def test_reading_pipestatus_is_a_fact():
    assert parse_shell("t.sh", "python t.py | tee a.log\nexit ${PIPESTATUS[0]}\n").status_read == [(1, 2)]
    assert parse_shell("t.sh", "python t.py | tee a.log\n# no PIPESTATUS read\n").status_read == []


@pytest.mark.parametrize(
    "template,split",
    [
        ("deepspeed --num_gpus $NGPU", True),
        ("python -u -m torch.distributed.run --nnodes ${NNODES} --node_rank $SLURM_PROCID", True),
        ("$(which python) train.py", True),  # a substitution's own spaces are not the value's
        ("`which python` train.py", True),
        ("${PY:-python -u} train.py", True),
        ("$(scontrol show hostnames | head -n 1", False),  # not closed: its words would be cut
        ("`which python train.py", False),
        ("$LAUNCHER", False),  # nothing to split
        ("$(which python)", False),
    ],
)
def test_a_partly_unknown_value_splits_as_written_around_its_unknown_parts(template, split):
    from launchlint.shellfacts import splits_as_written

    assert splits_as_written(template) is split


def test_a_launcher_variable_holding_a_substitution_is_split_around_it():
    src = (
        'ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)\n'
        'L="torchrun --nproc_per_node 8 --rdzv_endpoint $ADDR:29500"\n$L train.py\n'
    )
    [command] = [c for c in parse_shell("run.sh", src).commands if c.words and c.name != "scontrol" and c.name != "head"]
    assert [w.value for w in command.words] == ["torchrun", "--nproc_per_node", "8", "--rdzv_endpoint", None, "train.py"]
    assert command.words[4].template == '$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1):29500'


def test_a_partly_unknown_launcher_in_a_variable_is_split_into_its_words():
    script = parse_shell("run.sh", 'L="deepspeed --num_gpus $NGPU"\n$L train.py\n')
    [command] = [c for c in script.commands if c.words]
    assert [(w.value, w.template) for w in command.words] == [
        ("deepspeed", "deepspeed"), ("--num_gpus", "--num_gpus"), (None, "$NGPU"), ("train.py", "train.py"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "src",
    [
        "cd /w && python t.py 2>&1 | tee log\n",  # tree-sitter-bash pipes the redirected list
        'ssh gpu1 "bash -c \'cd /w && python t.py 2>&1 | tee x.log\'"\n',
        "cd /w && python t.py | tee log\n",
    ],
)
def test_a_pipeline_starts_at_its_first_command_not_at_the_list(src):
    script = parse_shell("run.sh", src)
    location = script.pipelines[-1].location
    assert (location.line, location.column) == position(src, 1, "python t.py")


@pytest.mark.parametrize(
    "src, stages, pipefail, needle",
    [
        ("set -o pipefail && python t.py 2>&1 | tee log\n", [["python"], ["tee"]], True, "python"),
        ("set -o pipefail || python t.py 2>&1 |& tee log\n", [["python"], ["tee"]], True, "python"),
        ("set -o pipefail && pip install x && python t.py >o | tee log\n", [["python"], ["tee"]], True, "python"),
        ("set -o pipefail && echo a | tee b 2>&1 | tee log\n", [["echo"], ["tee"], ["tee"]], True, "echo"),
        ("bash -c 'set -o pipefail && python t.py 2>&1 | tee log'\n", [["python"], ["tee"]], True, "python"),
        ("set -o pipefail && python - <<'PY' | tee log\nprint(1)\nPY\n", [["python"], ["tee"]], True, "python"),
        ("set -o pipefail && python t.py 2>&1 | grep x 2>&1 | tee log\n", [["python"], ["grep"], ["tee"]], True, "python"),
        ("set -o pipefail && pip install x && cat a | python - <<'PY' 2>&1 | tee log\nprint(1)\nPY\n", [["cat"], ["python"], ["tee"]], True, "cat"),
    ],
)
def test_a_redirected_list_piped_on_is_its_earlier_commands_then_a_pipeline(src, stages, pipefail, needle):
    """tree-sitter-bash pipes `a && b 2>&1` as a whole (its issue #345); bash runs `a`, then the
    pipeline `b 2>&1 | c`: `a`'s `set` counts for it, and `a` writes to the terminal."""
    script = parse_shell("run.sh", src)
    pipeline = script.pipelines[-1]
    assert [[c.name for c in stage] for stage in pipeline.stages] == stages
    assert pipeline.pipefail is pipefail
    assert (pipeline.location.line, pipeline.location.column) == position(src, 1, needle)
    assert all(c.stdout.kind == INHERIT for c in script.commands if c.name in ("set", "pip"))

@pytest.mark.parametrize(
    "src, stages, err",
    [
        ("python - <<'PY' 2>&1 | tee log\nprint(1)\nPY\n", [["python"], ["tee"]], PIPE),
        ("python - <<PY 2>&1 |& tee -a log\nprint(1)\nPY\n", [["python"], ["tee"]], PIPE),
        ("python - <<PY 2>/dev/null |& tee -a log\nprint(1)\nPY\n", [["python"], ["tee"]], PIPE),
        ("python - <<PY 2>err.log | tee \"$LOG\" && echo done\nprint(1)\nPY\n", [["python"], ["tee", "echo"]], FILE),
        ("bash <<EOF 2>&1 | sed 's/^/[w] /' | tee run.log\npython t.py\nEOF\n", [["bash", "python"], ["sed"], ["tee"]], PIPE),
        ("bash <<-EOF >o 2>&1 |& tee log\n\tpython t.py\n\tEOF\n", [["bash", "python"], ["tee"]], FILE),
        ("set -o pipefail && python - <<'PY' 2>&1 | tee log\nprint(1)\nPY\n", [["python"], ["tee"]], PIPE),
        ('bash -c "python - <<PY 2>&1 | tee log\nprint(1)\nPY\n"\n', [["python"], ["tee"]], PIPE),
    ],
)
def test_a_heredocs_command_redirected_then_piped_is_a_pipeline(src, stages, err):
    """tree-sitter-bash makes an error of `<<'PY' 2>&1 | tee log` (the `|`, the next words taken
    for files of the redirect) or of its redirect (`<<EOF 2>&1 | sed ... | tee`): bash pipes the
    command, its redirects applied, as it does `<<'PY' | tee log`."""
    script = parse_shell("run.sh", src)
    pipeline = script.pipelines[-1]
    assert [[c.name for c in stage] for stage in pipeline.stages] == stages
    assert pipeline.stages[0][-1].stderr.kind == err and pipeline.stages[0][-1].stdout.kind in (PIPE, FILE)
    line = src.splitlines()[0]
    assert (pipeline.location.line, pipeline.location.column) == position(src, 1, "python" if "-c" in src else stages[0][0])
    assert (pipeline.location.end_line, pipeline.location.end_column) == (1, len(line) + 1)
    assert all(w.value not in ("|", "|&", "2>&1") for c in pipeline.stages[-1] for w in c.words)


def test_a_groups_redirects_are_kept_where_they_are_written():
    src = "{\n  echo start\n  python t.py\n} 2>&1 > all.log\nfor s in 1 2; do python t.py; done >> runs.log\n"
    script = parse_shell("run.sh", src)
    kept = script.compound_redirects
    assert all(c.words for c in script.commands)  # no command stands for them
    assert [(r[0].location.line, r[0].location.column, r[-1].location.end_column) for r, _ in kept] == [(4, 3, 17), (5, 36, 47)]
    assert [[r.op for r in redirects] for redirects, _ in kept] == [[">&", ">"], [">>"]]
    assert [stderr.kind for _, stderr in kept] == [INHERIT, INHERIT]  # `2>&1` first: stderr stays on the old stdout



@pytest.mark.parametrize(
    "src, value, template, columns",
    [
        ("srun -o logs/$i-$n.txt python gone.py\n", None, "logs/$i-$n.txt", (9, 23)),
        ("N=4\necho $N-$N.txt\n", "4-4.txt", "4-4.txt", (6, 15)),
        ("N=4\necho a/$N-$1/b\n", None, "a/4-$1/b", (6, 15)),
        ("N=4\necho ${N}.$N.$N.c\n", "4.4.4.c", "4.4.4.c", (6, 18)),
    ],
)
def test_a_word_tree_sitter_bash_cuts_after_a_dollar_is_one_word(src, value, template, columns):
    """tree-sitter-bash reads `$a-$b.txt` as two words, `$a-$` and `b.txt` (its issue #315):
    bash's one word, with `$b` expanded, spanning what is written."""
    command = parse_shell("t.sh", src).commands[0]
    word = command.words[2] if command.name == "srun" else command.words[-1]
    assert (word.value, word.template) == (value, template)
    assert (word.location.column, word.location.end_column) == columns
    line_start = sum(len(line) + 1 for line in src.split("\n")[: word.location.line - 1])
    assert word.origin[len(template)] == line_start + columns[1] - 1  # just past the word
    if command.name == "srun":  # the command srun runs is found again
        assert [w.value for w in one(src, "python").words] == ["python", "gone.py"]


@pytest.mark.parametrize(
    "src, value, template, columns",
    [
        ("C=cfg/a\nbash $C\\_x.sh\n", "cfg/a_x.sh", "cfg/a_x.sh", (6, 14)),
        ("mod=logs/$1\nsbatch -o $mod\\_%A.out job.sh\n", None, "logs/$1_%A.out", (11, 23)),
        ("C=cfg/a\necho $C\\ y.sh\n", "cfg/a y.sh", "cfg/a y.sh", (6, 14)),
    ],
)
def test_a_word_tree_sitter_bash_cuts_at_an_escape_after_an_expansion_is_one_word(src, value, template, columns):
    """tree-sitter-bash reads `$mod\\_%A.out` as `$mod` and `\\_%A.out`, and drops the `\\ ` of
    `$C\\ y.sh` (Linguistic-Features' sbatch lines): bash's one word, spanning what is written."""
    command = parse_shell("t.sh", src).commands[-1]
    word = command.words[2] if command.name == "sbatch" else command.words[1]
    assert (word.value, word.template) == (value, template)
    assert (word.location.column, word.location.end_column) == columns
    assert len(command.words) == (4 if command.name == "sbatch" else 2)


def test_an_assignment_or_redirect_tree_sitter_bash_cuts_after_a_dollar_is_whole():
    script = parse_shell("t.sh", "N=4\nLOG=$N-$N.log\nexport OUT=$N-$N.out\necho hi > r/$N-$N.txt\n")
    assert [c.name for c in script.effective_commands()] == ["echo"]  # no command named `N.log`
    echo = script.effective_commands()[0]
    assert [w.value for w in echo.words] == ["echo", "hi"] and echo.redirects[0].target.value == "r/4-4.txt"
    assert script.final_assigned["LOG"].value == "4-4.log" and script.final_assigned["OUT"].value == "4-4.out"


@pytest.mark.parametrize("expansion", ["$LOG", "${LOG}"])
def test_a_known_variable_in_a_nested_string_spans_its_expansion(expansion):
    """The tee's file in `tmux new ... "... | tee $LOG"` is `$LOG`'s value: its word covers the
    whole expansion as written (it covered the `$` alone)."""
    src = f'LOG=/w/train_v5.log\ntmux new -d -s n "bash start.sh 2>&1 | tee {expansion}"\n'
    tee = one(src, "tee")
    target = tee.tee_targets()[0]
    assert target.value == "/w/train_v5.log"
    line, column = position(src, 2, expansion)
    assert (target.location.line, target.location.column, target.location.end_column) == (line, column, column + len(expansion))


@pytest.mark.parametrize("expansion", ['"$CMD"', "${CMD}"])
def test_a_word_of_an_evaluated_variable_spans_the_expansion(expansion):
    """`eval "$CMD"`: every word of CMD's value stands at `$CMD`; a word at its start or middle
    covered the `$` alone."""
    src = f'CMD="python train.py > t.log"\neval {expansion}\n'
    python = one(src, "python")
    line, column = position(src, 2, expansion.strip('"'))
    width = len(expansion.strip('"'))
    assert [(w.location.line, w.location.column, w.location.end_column) for w in python.words] == [(line, column, column + width)] * 2


def test_a_heredoc_a_shell_reads_is_expanded_here_first_unless_its_delimiter_is_quoted():
    """`ssh gpu1 <<EOF`: this shell expands `$LOG` before ssh sends the text (bash's here-document
    rules: `\\$` is a `$`, `\\"` stays as written); with `<<'EOF'` the remote shell reads `$LOG`."""
    src = (
        "LOG=train.log\nssh gpu1 <<EOF\npython t.py > $LOG 2>&1\necho \"\\$HOME \\\"q\\\"\"\nEOF\n"
        "ssh gpu1 <<'EOF'\npython t.py > $LOG\nEOF\n"
    )
    expanded, written = commands(src, "python")
    assert expanded.stdout.kind == FILE and expanded.stdout.target.value == "train.log"
    target = expanded.stdout.target.location
    assert (target.line, target.column, target.end_column) == (3, 15, 19)  # all of `$LOG`
    assert [w.template for w in one(src, "echo").args] == ['$HOME "q"']  # the remote shell's HOME
    assert written.stdout.target.text == "$LOG" and written.stdout.target.value is None


def test_heredocs_redirected_then_piped_are_parsed_again_a_bounded_number_of_times():
    """Each repair parses the whole unit again (blanked around the statement): past
    MAX_REPAIRS of them a file of thousands is read as tree-sitter-bash reads it (20 s for
    3,000 in one file, unbounded; 1.6 s bounded)."""
    src = "python - <<'PY' 2>&1 | tee log\nprint(1)\nPY\n" * (shell.MAX_REPAIRS + 5)
    piped = [p for p in parse_shell("run.sh", src).pipelines if p.last is not None and p.last.name == "tee"]
    assert len(piped) == shell.MAX_REPAIRS


@pytest.mark.parametrize(
    ("src", "spans"),
    [
        ("python t.py | tee 2>&1 logs/a.log\n", [(1, 19, 1, 23)]),  # `2>&1`, not the file after it
        ("python t.py >a.log --seed 1 2>&1\n", [(1, 13, 1, 19), (1, 29, 1, 33)]),
        ("A=x; python t.py >a-$A-$A.log --out c\n", [(1, 18, 1, 30)]),  # the glued file's end
    ],
)  # fmt: skip
def test_a_redirect_ends_at_its_own_destination(src, spans):
    """tree-sitter-bash takes the words after a redirect's file for more destinations; they are
    the command's (`_words_after`), so the redirect ends where its own file (or `&1`) does."""
    redirects = [r for c in commands(src) for r in c.redirects]
    assert [(r.location.line, r.location.column, r.location.end_line, r.location.end_column) for r in redirects] == spans


def test_long_running_names_every_parallel_launcher():
    """graph.LONG_RUNNING lists the parallel launchers by name (graph cannot import the front end,
    which imports it): every one of wrappers.LAUNCHERS but flux, which runs more than `flux run`."""
    from launchlint.front.wrappers import LAUNCHERS
    from launchlint.graph import LONG_RUNNING

    assert set(LAUNCHERS) - {"flux"} <= LONG_RUNNING


def test_the_scripts_own_arguments_are_recorded_where_they_are_its_own():
    """`ShellScript.arguments`: `$1`, `${2}` and a variable set to one (`PORT=$1`, then `$PORT`),
    by the offset of the expansion; not a default's (`${1:-x}`), nor in a function, a loop, a
    string another shell runs, or after the script's `shift $N` (a count not known)."""
    src = (
        'PORT=$1\ntorchrun --master_port $PORT --x "${2}" a.py\nf() { echo $1; }\nfor i in 1; do echo $1; done\n'
        "bash -c 'echo $1' _ z\necho ${1:-x}\nshift $N\necho $1\n"
    )
    script = parse_shell("t.sh", src)
    assert {src[at : at + 5]: number for at, number in script.arguments.items()} == {"$1\nto": 1, "$PORT": 1, '${2}"': 2}
    assert parse_shell("u.sh", "echo $X\n").arguments == {}


def test_the_scripts_arguments_passed_on_are_recorded_past_its_counted_shifts():
    """`ShellScript.arguments` of `"$@"` (all: 0), `${@:3}` (from the third: -2), `$*` not quoted
    and a variable set to them expanded not quoted (`ARGS="${@}"`, then `$ARGS`), each less the
    static `shift`s before it, as `$1` is; not `"$*"` or `"$ARGS"` (one word), nor after `shift $N`,
    a `shift` in an arm, or a `getopts`, nor in a function or a loop."""
    src = (
        'ARGS="${@}"\npython a.py "$@" ${@:3} $* "$*" $ARGS "$ARGS"\nshift\nshift 2\npython a.py "$@" $1\n'
        'f() { python a.py "$@"; }\nfor i in 1; do python a.py "$@"; done\nif [ -n "$1" ]; then shift; fi\npython a.py "$@" $1\n'
    )
    script = parse_shell("t.sh", src)
    found = sorted((src.count("\n", 0, at) + 1, src[at : at + 5], number) for at, number in script.arguments.items())
    assert found == [(1, '${@}"', 0), (2, '$* "$', 0), (2, '$@" $', 0), (2, "$ARGS", 0), (2, "${@:3", -2), (5, "$1\nf(", 4), (5, '$@" $', -3)]
    for moved in ("shift $N\n", "while getopts a: o; do :; done\n"):
        assert parse_shell("u.sh", moved + 'python a.py "$@" $1\n').arguments == {}


def test_an_arms_conditions_read_the_scripts_arguments():
    """`Block.reads` holds the positional parameters a condition reads (`$1`, `$#`, `"$*"`), also
    through a variable set from one (`MODE=$1`) or from its default (`M=${1:-train}`)."""
    src = (
        'MODE=$1\nM=${1:-train}\nif [ "$MODE" = a ]; then echo 1; fi\nif [ "$M" = a ]; then echo 2; fi\n'
        '[ $# -gt 2 ] && echo 3\nif [[ "$*" == *x* ]]; then echo 4; fi\nif [ -n "$X" ]; then echo 5; fi\n'
    )
    script = parse_shell("t.sh", src)
    reads = [set().union(*(b.reads | {t[0] for t in b.tests} for b in c.blocks)) for c in script.commands if c.name == "echo"]
    assert reads == [{"MODE", "1"}, {"M", "1"}, {"#"}, {"*"}, {"X"}]
