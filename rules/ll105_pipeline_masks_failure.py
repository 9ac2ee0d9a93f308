"""## What it does
Finds a pipeline whose first stage is a job (a trainer, a launcher, a script, a build or test
run, a package install) and whose last stage is `tee` or a filter, while `pipefail` is not in
effect. The message says where `set -o pipefail` goes for the shell the pipeline runs in.

## Why is this bad?
A pipeline's exit status is its last stage's. `torchrun train.py | tee train.log` exits 0 when
the training crashes, because `tee` succeeded: `set -e` carries on, `&& upload_checkpoint` runs,
the CI job is green and the SLURM job says COMPLETED. The failure is in the log, which nobody
reads until the numbers look wrong.

## Example
```bash
#!/bin/bash
set -e
torchrun --nproc_per_node 8 train.py 2>&1 | tee train.log
python upload_checkpoint.py
```

## Use instead
```bash
#!/bin/bash
set -eo pipefail
torchrun --nproc_per_node 8 train.py 2>&1 | tee train.log
python upload_checkpoint.py
```

## Details
A job, as the first stage:
- `python` running a script, a module or a program on standard input (`python3 - <<'PY' | tee
  audit.log`), not `-c` or `--version`; `torchrun` (also nvidia-resiliency-ext's `ft_launcher`),
  `accelerate`, `deepspeed`; MindSpore's `msrun` when told `--join True` (without it, msrun
  returns as soon as its workers started, exit status 0: pipefail would change nothing, their
  output and failures are in `--log_dir`'s `worker_N.log`); `srun` and `mpirun` unless all they run asks the machine a question
  (`srun hostname`, `srun nvidia-smi`); `bash x.sh`, `./x.sh`, and a shell running a script
  whose path is not known here (`bash "$TEST_SCRIPT"`, `sh "$1"`);
- builds and tests: `make`, `ninja`, `cmake`, `bazel`, `cargo`, `pytest`, `tox` (not asked only
  what they are: `bazel version`, `cmake --version`, `make help`); trainers' and harnesses'
  own commands: `lm_eval`, `lighteval`, `llamafactory-cli`, `axolotl`, `litgpt`, `composer`,
  `tune`, fairseq's (`fairseq-train`, `fairseq-hydra-train`, `fairseq-generate`,
  `fairseq-interactive`, `fairseq-eval-lm`, `fairseq-preprocess`), servers' and their
  benchmarks' (`vllm serve`, `vllm bench`, `lmdeploy serve`, `text-generation-launcher`,
  `trtllm-serve`, `trtllm-bench`, `trtllm-build`: a server that fails at start-up exits non-zero
  as a trainer does, `python -m vllm.entrypoints.openai.api_server` being python), and any console script the
  project's own packages declare (pyproject.toml, setup.cfg, setup.py: LL301 says how they are
  read); `coverage run` (or `python -m coverage run`), which exits with the status of the
  program it runs (not `coverage report`);
- into `tee`, a program run by a relative path (`./bin/bert_example config.ini 2>&1 | tee
  run.log`: the project's own, built or written), also a path made at run time that is relative
  with a `/` before its first `$`, or under a directory a variable holds, and named as a shell or
  Python script (`scripts/run_bench$len.sh $s |& tee bench.log`, `$BIN/train.py | tee log`); in a pipeline of data (`utils/filter_scp.pl a
  b | sort > c`) it is a filter, and not reported; a Python file of a static path run by a
  variable's command not known here (`$pythonExec train.py | tee run.log`, pythonExec=$1: an
  interpreter or a launcher; `$PYTHON -u train.py`, after python's own options), named by its
  file in the message;
- a package manager that installs or runs (`pip install`, `uv pip install`, `uv run`, `conda env
  create`), not one asked about the environment (`pip list | grep torch`); run as a module it is
  the same (`python3 -m pip install` is a job, `python3 -m pip list | grep torch` is not; also
  `python -m uv`, `python -m conda`). An environment runner
  (`conda run`, `mamba run`, `micromamba run`, `uv run`) is what it runs: `conda run -n env python
  train.py` is a job, and the message names `python`; `conda run -n env pip show torch | grep
  Version` and `conda run -n env nvidia-smi | tee gpus.log` are not. A runner of a command not
  known here (`conda run -n env $CMD`) is a job.

A command that prints what it knows (`nvidia-smi`, `cat`, `git log`, `echo`; `python -m
torch.utils.collect_env`, `python -m zipfile -l x.whl`) is not a job whose failure the pipeline
hides. The last stage is `tee` or a filter (`grep`, `sed`, `awk`, `tail`, `shuf`,
..., and a compressor: `python dump.py | gzip > data.gz` leaves a truncated archive and exits 0).

A pipeline a function's body writes around the words it runs (`run_log() { "$@" 2>&1 | tee
train.log; }`) is the call's: `run_log torchrun train.py` is reported at the call, with pipefail
as it is there, and the body's pipeline as a related location. A function those words name
(`run_log job_a`) runs in that pipeline, with pipefail as the body has it there.

`pipefail` is tracked as the shell does:
- on after `set -o pipefail`, `set -euo pipefail` or `set -Eeuo pipefail` (or `shopt -so
  pipefail`), off again after `set +o pipefail`;
- from the first line with `#!/usr/bin/env -S bash -euo pipefail` (env splits it; `#!/bin/bash
  -eo pipefail` hands bash a single word, which does not turn it on);
- inside a function, as it is where the function is called; also one called by a name made at
  run time (`gg_run() { ci=$1; set -o pipefail; gg_run_$ci | tee $OUT/$ci.log; }`, then `gg_run
  mnist`, `gg_run mpt`: each named function's pipelines run with it), at every call that names
  another, past the 4 sets of words a function's body is walked for otherwise (LL401). A function
  such a call may name that is not walked there (a call inside the walk of its own body, or past
  the 64 walks of function bodies a file gets) is not judged, its caller's shell not known; one
  that nothing calls is judged in the shell where it is defined;
- a `bash -c` string and an `ssh` command start a new shell without it (`bash -o pipefail -c
  '...'`, `bash -eo pipefail -c`, with it); so does a Kaldi/ESPnet job runner, whose bash reads
  its command (`run.pl x.log python t.py \\| tee t.txt`: `\\|` is a pipe there);
- a GitHub Actions step with `shell: bash` runs with `-eo pipefail`; a step with no `shell:` runs
  `bash -e {0}`, without it. A GitLab CI job's lines run with pipefail, which the runner's script
  sets. An Azure Pipelines `bash:` step (`bash <file>`) and `script:` step (`bash --noprofile
  --norc <file>`) run without it, as the inline `Bash@3` and the `CmdLine@2` tasks they stand for do;
- a file the script sources before the pipeline (`source common.env`, `. ./path.sh`, `source
  "$(dirname "$0")/env.sh"`) that turns pipefail on turns it on for the script: a project file,
  whatever its name, read as shell (never run), looked for next to the script, from the root,
  then from each directory between them (where the script may be run from);
- one that turns it off at its top level (`set +o pipefail`, `shopt -uo pipefail`: not in an
  `if`, a loop or a function, nor after `&&`/`||`) and not on again turns it off for the
  pipelines after the `source`, after a `set -o pipefail` of the script's own too: the script's
  last own setting and the files it sources after it decide, the last that sets it winning, and
  the message names the file.

The advice follows where the pipeline runs:
- `shell: bash` for a workflow step's own `run:` script; the step's own template with `-o pipefail`
  before its `{0}` when the step (or its job's `defaults`) names a bash template of options
  (`shell: bash -el {0}`, which conda's setup asks for: `shell: bash` would drop the login shell
  that activates the environment);
- `set -o pipefail` at the start of another YAML's command (a SkyPilot `run:`), in a GitLab CI
  job (whose runner sets it, so only a `set +o pipefail` gets here) or in an Azure Pipelines step
  (which names no shell);
- `set -o pipefail;` at the start of the command string for a pipeline nested in one (`bash -c`,
  `ssh`, a Compose or Kubernetes `command`), where a step's `shell:` does not reach (an `eval`
  string runs in the script's own shell, so the script's advice holds), and at the start of the
  heredoc that a shell reads (`ssh gpu1 bash -s <<'EOF'`);
- `SHELL := bash` with `.SHELLFLAGS := -eo pipefail -c` in a Makefile, whose recipe lines each
  run in a new `sh -c` (only `.SHELLFLAGS` where SHELL is bash already); and a Makefile whose
  SHELL or `.SHELLFLAGS` an `include`d makefile may set (not read: pipefail is not known to be off);
- `set shell := ["bash", "-uo", "pipefail", "-c"]` in a justfile, whose recipe lines each run in a
  new `sh -cu` (or `set shell`'s shell), or `set -o pipefail` at the start of a recipe that runs
  as one script (a `#!` line, `[script]`); and a justfile that `import`s another and sets no
  `shell` itself (the import may: pipefail is not known to be off);
- `set -o pipefail` in a script; for a script a shell without pipefail may run (dash 0.5.12:
  "Illegal option -o pipefail", which ends a non-interactive sh), `#!/bin/bash` with it when its
  own `#!` line (or `.dash`/`.posh` name) says so, or `bash` to run it when a project caller runs
  it with `sh` (also `ssh host sh -s < x.sh`), naming that shell. No fix is offered there.

Not reported:
- pipelines in a tmux pane (`new-session`, `new-window`, `split-window`, with or without `-d`:
  tmux exits 0 whatever the pane's command did) or a detached screen session (nobody reads their
  status);
- a pipeline run in the background (`python t.py | tee log &`) in a script that never waits for
  a job by its id (`wait $PID`, `wait -n`: a bare `wait` returns 0 whatever its jobs did);
- a submission that returns once the job is queued (`sbatch job.sh | tee sub.log`, `qsub job.pbs`,
  `bsub < job.lsf`, `bsub -n 4 python t.py`, `ray job submit --no-wait -- python3 train.py | tee
  run.log`: the job's status goes to its scheduler, never into the pipe; without `--no-wait`,
  `ray job submit` waits and exits 1 when the job fails, and is reported, naming the job's
  program (`ray job submit -- PYTHONUNBUFFERED=1 python3 -m pkg.main | tee run.log`: a failed
  `python3`), as is an interactive LSF job, `bsub -Is python t.py | tee run.log`, which runs into
  the pipe);
- pipelines ending in `head` or `grep -q`, which exit early on purpose;
- a program run under a debugger, `python -m pdb -c continue train.py 2>&1 | tee debug.log` (also
  `-m ipdb`, `-m pudb`): an interactive session, whose status is 0 whatever the program did (pdb
  stops at an uncaught exception for post-mortem debugging, restarts the program when it ends,
  and exits 0 when the user quits), so pipefail would show nothing;
- scripts (or workflow steps: each its own script) that read `${PIPESTATUS[...]}` to check each
  stage themselves; a `PIPESTATUS` in a comment, or in another step, checks nothing;
- a Makefile recipe line whose `-` prefix tells make to ignore its errors (`-python3 -m pytest |
  tee test.log`): make goes on whatever its status is.

## Fix safety
Safe: the fix inserts one `set -o pipefail` line where it runs once, in the script's own shell,
before its pipelines: after the script's first command when that is a `set` at the top level,
alone on its line(s) (nothing but comments and blank lines before it, nothing but a comment after
it), else after the leading comment block (the `#!` line and the comments under it, `#SBATCH`
directives among them: sbatch reads no directive after the first command), else at the top. Never
inside an `if`, a loop, a `case` arm, `( )`, `$( )` or a function, nor on a line holding other
commands or a heredoc's start.

It is offered only where it changes nothing but the pipelines this rule reports. Not for a
pipeline inside a command string (`bash -c`, `ssh`, YAML: the advice says where the line goes
there), and not when:
- a shell without pipefail may run the script: its `#!` line names none of bash, zsh, ksh, mksh,
  busybox (sh, dash, posh, yash: dash 0.5.12 stops at the option), or without one its extension
  names such a shell (`.dash`, `.posh`); a project caller names one (`sh x.sh`, `csh x.sh`,
  `ssh host sh -s < x.sh`); a script without a `#!` line is run directly by an sh script or a
  Makefile (the shell that gets ENOEXEC reads it); a file sources it whose shell is one of those;
- pipefail is turned off on purpose (`set +o pipefail`, `set +eo pipefail`, `shopt -uo
  pipefail`) in the script or in a file that shares its shell;
- the script's lines end in CRLF: the line would too (a fix does not mix line ends), and bash
  reads `set -o pipefail\r` as an option it refuses ("invalid option name"), then goes on;
- another pipeline of that shell would change meaning. The shell is the script's and that of
  every project file sourced into it, or that sources it, either way and on (its own lines,
  functions, `( )`, `$( )` and `eval` strings; not `bash -c` or `ssh` strings, shells of their
  own). Each of its pipelines must be one this rule reports (and no suppression covers), or run
  with pipefail already, or be made only of stages that read all their input (`tee`, `sort`,
  `uniq`, `wc`, `cat`, `tr`, `cut`, `jq`, a compressor, `grep` without `-q`/`-m`/`-l`, `sed` whose
  script has no `q`, `awk` whose program has no `exit`) fed by jobs or by commands that only print
  (`echo`, `printf`, `cat`, `nvidia-smi`, ...). So `python ls.py | head -n 1` (SIGPIPE: under
  `set -e` the script would stop with 141), `if ... | grep -q OK` (the other branch), `grep
  loss old.log | sort` (grep's "no match" would fail it), `yes | pip uninstall x` and any other
  command mean no fix. Conservative: a pipeline it cannot read is counted as changing. A
  reported pipeline changes more than its job's status when a stage before the last answers a
  question (`grep`, `rg`, `diff`, `cmp`: `x=$(pytest --co | grep rpc | cut -d' ' -f6)` under
  `set -e` would stop the script when no test matches; fairscale) or stops reading early, so that
  its writer dies of SIGPIPE (`python b.py | tail -n2 | head -n1 | tee -a r.txt`): no fix either.
- a `# launchlint: disable=LL105` covers one of the pipelines the fix would change.

The finding stays in all these cases; only the fix is withheld.

## References
- Bash manual, *Pipelines*: "The return status of a pipeline is the exit status of the last
  command, unless the pipefail option is enabled."
- GitHub Actions, *Workflow syntax*, `jobs.<job_id>.steps[*].shell`: `bash` runs
  `bash --noprofile --norc -eo pipefail {0}`; the unspecified default is `bash -e {0}`.
- Azure Pipelines, `steps.bash` and `steps.script` are the YAML shortcuts of the Bash and Command
  Line tasks; microsoft/azure-pipelines-tasks, `Tasks/BashV3/bash.ts` and
  `Tasks/CmdLineV2/cmdline.ts`: the script is written to a file run as `bash <file>` and `bash
  --noprofile --norc <file>` (no `-e`, no pipefail).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache

from launchlint.discover import in_circleci, kind_by_name
from launchlint.entrypoints import console_script
from launchlint.fixes import insert_after_line
from launchlint.front.wrappers import ENV_RUNNERS, LAUNCHERS
from launchlint.graph import (
    SHELL_RUNNERS,
    as_tool,
    coverage_subcommand,
    is_long_running,
    is_python,
    python_run,
    runs_by_variable,
    script_of,
    shell_script_word,
)
from launchlint.launches import launch_of, pipefail_of, sourced_script, waits
from launchlint.model import Finding, Fix, Related, Severity
from launchlint.rulekit import Example
from launchlint.shellfacts import CAPTURED, SOURCERS, Command, Pipeline, ShellScript, shell_args

CODE = "LL105"
NAME = "pipeline-masks-failure"
SEVERITY = Severity.WARNING
SUMMARY = "A job piped into tee/a filter without pipefail: its failure is masked"

# Last stages that succeed whatever the job did.
FILTERS = {
    "tee", "grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "mawk", "cut", "tr", "sort",
    "uniq", "tail", "cat", "ts", "column", "wc", "logger", "jq",
    "shuf", "tac", "nl", "rev", "paste",  # `python extract.py | shuf > train.txt`: code2seq's, helper-330
    "gzip", "pigz", "bzip2", "xz", "zstd", "lz4",  # `python dump.py | gzip > data.gz`: a truncated file
}  # fmt: skip
# `grep` options that stop reading early: the job then dies of SIGPIPE, which pipefail reports.
EARLY_EXIT = {"-q", "--quiet", "--silent", "-m", "--max-count", "-l", "--files-with-matches"}
# Jobs beyond the launchers: builds and test runs, and the command-line front doors of trainers
# and evaluation harnesses; their failure is the run's.
BUILDS = {"make", "ninja", "cmake", "bazel", "cargo", "pytest", "tox", "nox"}
# ... unless asked only what they are (`bazel version | sed "s/^/    /"`, ProGraML's whoami.sh)
BUILD_QUESTIONS = {"version", "--version", "-version", "help", "--help", "-h", "info"}
ENTRY_POINTS = {
    "lm_eval", "lighteval", "llamafactory-cli", "axolotl", "litgpt", "composer", "tune",
    "fairseq-train", "fairseq-hydra-train", "fairseq-generate", "fairseq-interactive", "fairseq-eval-lm",
    "fairseq-preprocess",
    # servers and their benchmarks: a server that dies at start-up (a model that does not fit) exits non-zero
    "vllm", "lmdeploy", "text-generation-launcher", "trtllm-serve", "trtllm-bench", "trtllm-build",
}  # fmt: skip
# Launchers of any program, jobs unless all they run asks the machine a question (`srun hostname`)
SCHEDULERS = {"srun", *LAUNCHERS}
ASKING = {
    "hostname", "nvidia-smi", "echo", "printf", "cat", "ls", "env", "printenv", "date", "uname", "pwd",
    "whoami", "id", "nproc", "lscpu", "free", "df", "true", "sleep", "scontrol", "squeue", "ibstat",
}  # fmt: skip
# Package managers are jobs when they change an environment, not when they are asked about it
# (`pip list | grep torch`): the subcommands that install, build or run.
INSTALLERS = {"pip", "pip3", "uv", "conda", "mamba", "micromamba"}
INSTALLING = {"install", "uninstall", "download", "wheel", "create", "update", "sync", "run", "build"}

INVALID = [
    Example(  # a shell running a script of a path made at run time; a server (`vllm serve`) into tee
        {
            "bisect.sh": (
                '#!/bin/bash\nMODEL="$1"\nTEST_SCRIPT="test_cases/${MODEL}/train.sh"\nbash "${TEST_SCRIPT}" 2>&1 | tee -a log.txt\n'
                'sh "$2" | tee -a log.txt\nvllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 | tee server.log\n'
            ),
        },
        ["LL105 bisect.sh:4", "LL105 bisect.sh:5", "LL105 bisect.sh:6"],
    ),
    Example(  # a variable's command not known here, python's options, then a Python file
        {"tools/test.py": "print(1)\n", "run.sh": "#!/bin/bash\nPYTHON=$1\n$PYTHON -u tools/test.py | tee test.log\n"},
        ["LL105 run.sh:3"],
    ),
    Example(  # a justfile's recipe lines each run in `sh -cu`; a `#!` recipe is a script of its own
        {
            "t.py": "print(1)\n",
            "justfile": (
                "train:\n    python -u t.py | tee train.log\nscript:\n    #!/usr/bin/env bash\n    set -e\n"
                "    python -u t.py | tee script.log\n"
            ),
        },
        ["LL105 justfile:2", "LL105 justfile:6"],
    ),
    Example(  # a console script of the project's packages is a job
        {
            "pyproject.toml": "[project]\nname = 'fq'\n\n[project.scripts]\nfq-train = 'fq.train:main'\n",
            "fq/train.py": "import argparse\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n",
            "run.sh": "#!/bin/bash\nfq-train | tee train.log\nfq-other | tee other.log\n",
        },
        ["LL105 run.sh:2"],
    ),
    Example(  # a Python file run by a command not known here (`pythonExec=$1`): the job, named by its file
        {
            "run.sh": (
                "#!/bin/bash\npythonExec=$1\n$pythonExec train.py --lr 1 2>&1 | tee run.log\n$TOOL --version | tee v.txt\n"
                "local/rm_tag.py -s 1 text | sed -e 's/ <sp>//g' > text.tmp\n"
            ),
            "train.py": "print(1)\n",
            "local/rm_tag.py": "#!/usr/bin/env python3\nprint(1)\n",
        },
        ["LL105 run.sh:3"],
    ),
    Example(  # a filter that reads all its input: shuffled, reversed or numbered, the file is the job's output
        {"prep.sh": "#!/bin/bash\npython extract.py --dir data | shuf > train.txt\npython extract.py --dir val | tac > val.txt\n"},
        ["LL105 prep.sh:2", "LL105 prep.sh:3"],
    ),
    Example(  # a module that lists an archive asks; one that writes it is a job
        {"pack.sh": "#!/bin/bash\npython -m zipfile -l dist/pkg.whl | grep libfoo\npython -m zipfile -c out.zip data | tee zip.log\n"},
        ["LL105 pack.sh:3"],
    ),
    Example(  # an interactive LSF job runs here, into this pipe; a submitted one's command string is the job's own
        {
            "submit.sh": (
                "#!/bin/bash\nbsub -Is -q interactive python -u train.py 2>&1 | tee run.log\n"
                'bsub -q gpu -o logs/%J.out "python -u train.py | tee job.log"\n'
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 submit.sh:2", "LL105 submit.sh:3"],
    ),
    Example(  # a command set in two arms, one of them run under a profiler: both run torchrun (sail-sg's zero-bubble)
        {
            "run.sh": (
                '#!/bin/bash\nif [ -n "$P" ]; then cmd="nsys profile -o prof torchrun --nproc_per_node=8 train.py"\n'
                'else cmd="torchrun --nproc_per_node=8 train.py"; fi\n$cmd 2>&1 | tee train.log\n'
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 run.sh:4"],
    ),
    Example(  # a command line a loop appends words to keeps the words it had: `python3` runs (CoFiPruning)
        {
            "run.sh": (
                '#!/bin/bash\nargs="python3 train.py --lr 1"\nfor d in a b; do\n    args="$args --data $d"\ndone\n'
                'for d in c d; do args+=" --eval $d"; done\n${args} 2>&1 | tee train.log\n'
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 run.sh:7"],
    ),
    Example(  # mpiexec is a job whatever it runs, as mpirun is (a binary in a variable)
        {"submit.sh": "#!/bin/bash -l\nmpiexec --np 8 -ppn 4 --cpu-bind $BIND $EXE 1024 2>&1 | tee run_mpi.txt\n"},
        ["LL105 submit.sh:2"],
    ),
    Example(  # the HPC launchers run their command where they are: Cray's aprun, and jsrun in one arm only
        {
            "polaris.sh": "#!/bin/bash\naprun -n 8 -N 4 python train.py 2>&1 | tee run.log\n",
            "summit.sh": (
                "#!/bin/bash\nif [ \"$NODES\" -gt 1 ]; then\n  header=\"jsrun -n $NODES -a6 -g6 -dpacked python -u -m train\"\n"
                "else\n  header=\"python -u -m train\"\nfi\n${header} --lr 1 2>&1 | tee -a log.out\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 polaris.sh:2", "LL105 summit.sh:7"],
    ),
    Example(  # LLNL's lrun and hydra's mpiexec.hydra run the job in the foreground too
        {
            "lassen.sh": "#!/bin/bash\nlrun -N 2 -T4 python -u train.py 2>&1 | tee run.log\n",
            "hydra.sh": "#!/bin/bash\nmpiexec.hydra -f hosts -n 8 -genvlist PATH python -u train.py | tee hydra.log\n",
            "train.py": "print(1)\n",
        },
        ["LL105 lassen.sh:2", "LL105 hydra.sh:2"],
    ),
    Example(  # each arm runs torchrun, one through srun: the job is torchrun either way
        {
            "train.sh": (
                "#!/bin/bash\nif [ \"$NODES\" -gt 1 ]; then\n  header=\"srun -N $NODES torchrun --nproc-per-node=8 -m train\"\n"
                "else\n  header=\"torchrun --nproc-per-node=8 -m train\"\nfi\n${header} --lr 1 2>&1 | tee -a log.out\n"
            )
        },
        ["LL105 train.sh:7"],
    ),
    Example(  # the words a function runs as a command (its `"$@"`, after a `shift`): the job is torchrun
        {
            "run.sh": (
                '#!/bin/bash\nin_env() {\n  local env="$1"\n  shift\n  conda activate "$env"\n  "$@"\n}\n'
                "in_env base torchrun --nproc-per-node=8 train.py 2>&1 | tee train.log\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 run.sh:8"],
    ),
    Example(  # a function that pipes the words it runs (`"$@" 2>&1 | tee train.log`): the call's pipeline, a job's
        {
            "run.sh": (
                '#!/bin/bash\nrun_log() { "$@" 2>&1 | tee train.log; }\nrun_log torchrun --nproc_per_node 8 train.py\n'
                "set -o pipefail\nrun_log python train.py\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 run.sh:3"],
    ),
    Example(  # a function run by the words a function pipes (`run_log job_a`), before that body turns pipefail on
        {
            "run.sh": (
                '#!/bin/bash\njob_a() {\n    python -u train.py | tee a.log\n}\nrun_log() {\n    "$@" 2>&1 | tee run.log\n}\n'
                "run_log job_a\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 run.sh:3"],
    ),
    Example(  # a function whose own pipeline is a job's, called twice: one finding, at the body (not again at each call)
        {
            "run.sh": '#!/bin/bash\nrun() {\n  python -u "$@" | tee -a log.txt\n}\nrun train.py --lr 1\nrun eval.py --lr 2\n',
            "train.py": "print(1)\n",
            "eval.py": "print(1)\n",
        },
        ["LL105 run.sh:3"],
    ),
    Example(  # a function called only by a name made at run time, where pipefail is off
        {"ci.sh": "#!/bin/bash\nrun_build() {\n    make -j 2>&1 | tee -a build.log\n}\nrun_$1 | tee step.log\n"},
        ["LL105 ci.sh:3"],
    ),
    Example(  # the same, by a function that turns it off around the call, in a script that has it on: at each of its five calls
        {
            "ci.sh": (
                "#!/bin/bash\nset -euo pipefail\nstep() {\n    set +o pipefail\n    step_$1 2>&1 | tee $1.log\n    set -o pipefail\n}\n"
                "step_a() { ./bin/a | tee a.out; }\nstep_b() { ./bin/b | tee b.out; }\nstep_c() { ./bin/c | tee c.out; }\n"
                "step_d() { ./bin/d | tee d.out; }\nstep_e() { ./bin/e | tee e.out; }\n"
                "step a\nstep b\nstep c\nstep d\nstep e\n"
            )
        },
        ["LL105 ci.sh:8", "LL105 ci.sh:9", "LL105 ci.sh:10", "LL105 ci.sh:11", "LL105 ci.sh:12"],
    ),
    Example(  # a file sourced after the script's own `set -o pipefail` turns it off at its top level
        {
            "run.sh": "#!/bin/bash\nset -euo pipefail\nsource env.sh\npython -u train.py 2>&1 | tee train.log\n",
            "env.sh": "export HF_HOME=/data/hf\nset +o pipefail\n",
        },
        ["LL105 run.sh:4"],
    ),
    Example(  # a loop piped as a whole, its redirects before the pipe
        {"run.sh": "#!/bin/bash\nfor f in a b; do python -u x.py --f $f; done 2>&1 | tee run.log\n"},
        ["LL105 run.sh:2"],
    ),
    Example(  # in the background, then waited for by its id: `wait` returns tee's status
        {"run.sh": "#!/bin/bash\nset -e\npython -u train.py 2>&1 | tee train.log &\nPID=$!\nwait $PID\n"},
        ["LL105 run.sh:3"],
    ),
    Example(  # a CircleCI step whose `shell:` drops CircleCI's pipefail
        {".circleci/config.yml": "version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/python:3.11\n    steps:\n      - checkout\n      - run: python train.py 2>&1 | tee train.log\n      - run:\n          name: eval\n          shell: /bin/sh\n          command: python eval.py | tee eval.log\n"},
        ["LL105 .circleci/config.yml:12"],
    ),
    Example(  # a script of `.azure-pipelines/`, walked as `.github/` is (auto-round keeps its CI's test runners there)
        {".azure-pipelines/scripts/ut.sh": "#!/bin/bash\nset -e\npytest -vs test/test_a.py 2>&1 | tee ut_a.log\n"},
        ["LL105 .azure-pipelines/scripts/ut.sh:3"],
    ),
    Example(  # Azure Pipelines' `bash:`, `script:` and inline `Bash@3` steps run `bash` without pipefail, a template's too
        {
            "azure-pipelines.yml": (
                "trigger: [main]\npool:\n  vmImage: ubuntu-latest\nsteps:\n- bash: |\n    pip install -e .\n"
                "    python train.py 2>&1 | tee train.log\n  displayName: train\n- script: python eval.py | tee eval.log\n"
            ),
            ".azure-pipelines/templates/ut.yml": (
                "parameters:\n- name: part\n  type: string\nsteps:\n- task: Bash@3\n  inputs:\n    targetType: inline\n"
                "    script: pytest test/ --part ${{ parameters.part }} | tee $(Build.ArtifactStagingDirectory)/ut.log\n"
            ),
        },
        ["LL105 azure-pipelines.yml:7", "LL105 azure-pipelines.yml:9", "LL105 .azure-pipelines/templates/ut.yml:8"],
    ),
    Example(  # the string `eval` runs writes into eval's pipe
        {"run.sh": '#!/bin/bash\ncmd="torchrun --nproc_per_node 8 train.py"\neval "$cmd" 2>&1 | tee run.log\n'},
        ["LL105 run.sh:3"],
    ),
    Example(  # CircleCI's reusable `commands:` and a job's `when:` steps are steps too
        {
            ".circleci/config.yml": (
                "version: 2.1\ncommands:\n  collect:\n    steps:\n      - run: |\n          set +o pipefail\n"
                "          python -m pytest --co | tee tests.txt\njobs:\n  unit:\n    docker:\n      - image: cimg/python:3.11\n"
                "    steps:\n      - collect\n      - when:\n          condition: << pipeline.git.tag >>\n          steps:\n"
                "            - run:\n                shell: /bin/sh\n                command: python train.py | tee train.log\n"
            )
        },
        ["LL105 .circleci/config.yml:7", "LL105 .circleci/config.yml:19"],
    ),
    Example(  # a command a branch only appends to is still that command
        {
            "run.sh": (
                '#!/bin/bash\nCMD="torchrun --nproc_per_node 8 train.py"\nif [ "$FP16" = 1 ]; then\n'
                '  CMD="$CMD --fp16"\nfi\n$CMD 2>&1 | tee run.log\n'
            )
        },
        ["LL105 run.sh:6"],
    ),
    Example(  # a function whose body is the job, called into the pipe
        {"run.sh": "#!/bin/bash\nstep() {\n  torchrun --nproc_per_node 8 train.py\n}\nstep 2>&1 | tee step.log\n"},
        ["LL105 run.sh:5"],
    ),
    Example(  # MindSpore's msrun told to wait for its workers (`--join True`, also from a static variable) exits with their status
        {
            "run.sh": (
                '#!/bin/bash\nDISTRIBUTED_ARGS="--local_worker_num 8 --master_port 6000 --log_dir msrun_log --join True"\n'
                "msrun $DISTRIBUTED_ARGS pretrain.py --lr 1 2>&1 | tee logs/train.log\n"
                "msrun --worker_num=2 --local_worker_num=2 --join=True train.py | tee b.log\n"
            ),
        },
        ["LL105 run.sh:3", "LL105 run.sh:4"],
    ),
    Example(  # nvidia-resiliency-ext's ft_launcher, torchrun with fault tolerance, exits 1 when its workers fail
        {"run.sh": "#!/bin/bash\nft_launcher --nproc-per-node=8 --max-restarts=3 train.py 2>&1 | tee -a log.log\n"},
        ["LL105 run.sh:2"],
    ),
    Example(  # an install, an evaluation harness, a program run under coverage (not its report)
        {
            "build.sh": (
                "#!/bin/bash\npip install -e . 2>&1 | tee build.log\nlm_eval --model hf --tasks hellaswag | tee eval.log\n"
                "coverage run -a --source=pkg tests/smoke.py \\\n    --steps=2 2>&1 | tee smoke.log\ncoverage report | tee cov.txt\n"
                "python -m coverage run -m pytest tests | tee tests.log\npython -m coverage report | tee cov.txt\n"
                "python3 -m pip install -e . 2>&1 | tail -n 3\npython3 -m pip list | grep torch\n"
                "fairseq-generate data-bin --path ckpt.pt --beam 5 | tee gen.out\n"
            )
        },
        ["LL105 build.sh:2", "LL105 build.sh:3", "LL105 build.sh:4", "LL105 build.sh:7", "LL105 build.sh:9", "LL105 build.sh:11"],
    ),
    Example(  # a program of the project, run by its path, into a log (not a helper filtering data)
        {"bench.sh": "./bin/bert_example config.ini 2>&1 | tee bench.log\nutils/filter_scp.pl keep wav.scp | sort > wav2.scp\n"},
        ["LL105 bench.sh:1"],
    ),
    Example(  # a script of the project whose name is made at run time, or under a variable's directory: one runs, into the log
        {
            "bench.sh": (
                '#!/bin/bash\nfor s in 128 384; do\n  if [ $s = 128 ]; then len="_seq128"; else len=""; fi\n'
                "  scripts/run_bench$len.sh $s |& tee bench.log\ndone\n"
            ),
            "iter.sh": "#!/bin/bash\nBIN=$ROOT/scripts\n$BIN/train.py --epochs 3 2>&1 | tee $LOG\n$BIN 2>&1 | tee b.log\n",
        },
        ["LL105 bench.sh:4", "LL105 iter.sh:3"],
    ),
    Example(  # what follows a heredoc's start on its line: a pipe, or a list with a pipeline
        {
            "ci.sh": (
                "python3 <<'PY' | tee audit.log\nprint('audit')\nPY\n"
                "cat <<EOF > cfg.json && python -u train.py --config cfg.json | tee run.log\n{}\nEOF\n"
            ),
        },
        ["LL105 ci.sh:1", "LL105 ci.sh:4"],
    ),
    Example(  # a heredoc's command redirected, then piped (tree-sitter-bash makes an error of the `|`)
        {
            "ci.sh": (
                "python3 - <<'PY' 2>&1 | tee audit.log\nprint('audit')\nPY\n"
                "bash <<EOF 2>>err.log | tee -a all.log\npython train.py\nEOF\n"
                "bash <<-EOF 2>&1 | sed 's/^/[w] /' | tee -a all.log\n\tpython train.py\n\tEOF\n"
            ),
        },
        ["LL105 ci.sh:1", "LL105 ci.sh:4", "LL105 ci.sh:7"],
    ),
    Example(  # one pipeline of three, its middle stage redirected: reported where it starts
        {
            "run.sh": (
                "#!/bin/bash\npython3 -u train.py 2>&1 \\\n  | python3 -u tag.py --prefix w0 2>&1 \\\n  | tee train.log\n"
            ),
        },
        ["LL105 run.sh:2"],
    ),
    Example(  # a shell that a wrapper runs (`stdbuf`, `numactl`) reads the heredoc as its script
        {
            "host.sh": (
                '#!/bin/bash\nstdbuf -oL bash <<-PIPE_EOF 2>&1 | sed "s/^/[worker $1] /g" | tee runlog\n'
                "\tpython3 -u train.py --steps 100\n\tPIPE_EOF\n"
                "numactl --cpunodebind=0 bash <<EOF | tee eval.log\npython3 -u eval.py\nEOF\n"
            ),
        },
        ["LL105 host.sh:2", "LL105 host.sh:5"],
    ),
    Example(
        {"train.sh": "#!/bin/bash\nset -e\ntorchrun --nproc_per_node 8 train.py 2>&1 | tee train.log\n"},
        ["LL105 train.sh:3"],
    ),
    Example(  # a launch spec's `run:` (SkyPilot) is shell; a config's `command: train` is a name
        {
            "sky.yaml": "resources:\n  accelerators: A100:8\nrun: |\n  torchrun --nproc_per_node 8 train.py | tee run.log\n",
            "cfg.yaml": "trainer:\n  command: train\n  run: fast | slow\n",
        },
        ["LL105 sky.yaml:4"],
    ),
    Example(  # a compressor masks as tee does
        {"dump.sh": "#!/bin/bash\nset -e\npython make_shards.py | gzip > shards.jsonl.gz\ngzip -c data.txt > data.gz\n"},
        ["LL105 dump.sh:3"],
    ),
    Example(  # after placeholders bash refuses (a continued one) or reads (`\\ ` escapes a blank): the rest is analysed
        {
            "gen.sh": (
                "#!/bin/bash\nA=<PATH_A> \\\n        (e.g., /a.txt)\nB=<PATH_B> \\ \n        (e.g., /b.txt)\n\n"
                "python x.py --a ${A} --b ${B} | tee x.log\n"
            )
        },
        ["LL105 gen.sh:7"],
    ),
    Example(  # a continued pipeline is reported at its first line; a filter masks as tee does
        {
            "run.sh": (
                "#!/bin/bash\npython train.py \\\n  --lr 3e-4 \\\n  2>&1 | grep -v Warning\n"
                "bash eval.sh | tee eval.log\n"
            )
        },
        ["LL105 run.sh:2", "LL105 run.sh:5"],
    ),
    Example(  # pipefail turned off again; a bash -c string does not inherit it
        {
            "run.sh": (
                "#!/bin/bash\nset -euo pipefail\nbash -c 'python a.py | tee a.log'\n"
                "set +o pipefail\nsrun python b.py | tee b.log\n"
            )
        },
        ["LL105 run.sh:3", "LL105 run.sh:5"],
    ),
    Example(  # the remote shell has no pipefail; ssh returns tee's status
        {"deploy.sh": "#!/bin/bash\nset -eo pipefail\nssh gpu1 'cd /w && python train.py | tee run.log'\n"},
        ["LL105 deploy.sh:3"],
    ),
    Example(  # eval runs in this shell: no pipefail here either
        {"run.sh": 'run_cmd="deepspeed train.py | tee -a train.log"\neval ${run_cmd}\n'},
        ["LL105 run.sh:2"],
    ),
    Example(  # a wrapper's option whose value is not known here still leaves the command to read
        {"submit.sh": 'ray job submit --runtime-env-json="$ENV_JSON" -- python rl.py 2>&1 | tee rl.log\n'},
        ["LL105 submit.sh:1"],
    ),
    Example(  # `ray job submit` streams the job's log and exits 1 when it fails, whatever its options
        {
            "submit.sh": (
                "ray job submit --address=http://head:8265 --runtime-env-json '{\"env_vars\": {\"A\": \"1\"}}' --working-dir . "
                "--entrypoint-num-gpus 1 --verify False --entrypoint-label-selector '{\"a\": \"b\"}' -- python3 train.py 2>&1 | tee rl.log\n"
            )
        },
        ["LL105 submit.sh:1"],
    ),
    Example(  # a Ray job is a /bin/sh command line: `VAR=1` before its program sets a variable (DeepMath); `--no-wait` returns
        {
            "submit.sh": (
                "#!/bin/bash\nset -e\nray job submit --address=http://head:8265 --working-dir . "
                "-- PYTHONUNBUFFERED=1 python3 -m pkg.main x=1 2>&1 | tee -a train.log\n"
                "ray job submit --no-wait --working-dir . -- A=1 python3 -m pkg.main x=2 2>&1 | tee -a sub.log\n"
            )
        },
        ["LL105 submit.sh:3"],
    ),
    Example(  # a workflow step without `shell:` runs `bash -e {0}`: no pipefail
        {
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: |\n          pip install -e .\n"
                "          python train.py --steps 10 \\\n            2>&1 | tee smoke.log\n"
            )
        },
        ["LL105 .github/workflows/ci.yml:8"],
    ),
    Example(  # an anchor defined again (YAML allows it; PyYAML alone refuses it)
        {
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: &run pip install -e .\n"
                "      - run: &run python train.py 2>&1 | tee train.log\n"
                "      - run: *run\n"
            )
        },
        ["LL105 .github/workflows/ci.yml:7"],
    ),
    Example(  # a PIPESTATUS in a comment, or in another step, checks nothing
        {
            "run.sh": "# PIPESTATUS is not read here\npython train.py | tee train.log\n",
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: |\n          python a.py | tee a.log\n          exit ${PIPESTATUS[0]}\n"
                "      - run: python b.py | tee b.log\n"
            ),
        },
        ["LL105 run.sh:2", "LL105 .github/workflows/ci.yml:9"],
    ),
    Example(  # a launcher held in a variable that is partly unknown: its known words are the command
        {
            "run.slurm": (
                '#!/bin/bash\nLAUNCHER="deepspeed --num_gpus $SLURM_GPUS_ON_NODE"\n'
                "$LAUNCHER train.py --lr 1e-4 2>&1 | tee run.log\n"
                'PY="$(which python) train.py"\n$PY | tee py.log\n'  # `$(which python)`: python
                'PY="$(pick python) train.py"\n$PY | tee pick.log\n'  # another `$(...)`: not split, not known
            )
        },
        ["LL105 run.slurm:3", "LL105 run.slurm:5"],
    ),
    Example(  # after a placeholder bash refuses: tree-sitter-bash took the next line for its file name
        {"train.sh": "#!/bin/bash\nCKPT=<Specify path>\npython train.py --ckpt $CKPT 2>&1 | tee train.log\n"},
        ["LL105 train.sh:3"],
    ),
    Example(  # a file sourced in another shell, in `$(...)`, after the pipeline, or without pipefail
        {
            "tests/run.sh": (
                "#!/bin/bash\nbash -c 'source tests/common.env'\nsrun python b.py | tee b.log\n"
                "X=$(source tests/common.env)\npython c.py | tee c.log\n"
                ". ./vars.sh\npython d.py | tee d.log\nsource tests/common.env\npython e.py | tee e.log\n"
            ),
            "tests/common.env": "set -eou pipefail\n",
            "tests/vars.sh": "LOG=run.log\n",
        },
        ["LL105 tests/run.sh:3", "LL105 tests/run.sh:5", "LL105 tests/run.sh:7"],
    ),
    Example(  # an environment runner of a job, or of a command not known here
        {
            "run.sh": (
                "#!/bin/bash\nconda run -n build python train.py | tee train.log\nuv run --with rich pytest | tee t.log\n"
                "micromamba run -n build pip install -e . | tail -n 3\nconda run -n build $CMD | tee c.log\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL105 run.sh:2", "LL105 run.sh:3", "LL105 run.sh:4", "LL105 run.sh:5"],
    ),
    Example(  # a command string built with `+=` onto a part not known here is still the job
        {"run.sh": '#!/bin/bash\nset -e\nCMD="python $LAUNCH_OPTS train.py"\nCMD+=" --lr=1"\n$CMD |& tee run.log\n'},
        ["LL105 run.sh:5"],
    ),
    Example(  # bash's `time` times the pipeline: a command held in a partly unknown variable is its first stage
        {"run.sh": '#!/bin/bash\nCMD="python -u train.py --nproc $NGPU"\ntime $CMD |& tee run.log\n'},
        ["LL105 run.sh:3"],
    ),
    Example(  # every arm of an if/else appends to the command, the space ending what it had
        {
            "run.sh": (
                '#!/bin/bash\nset -e\nCMD="python -u train.py --seed 1 "\nif [ "$MODE" = train ]; then\n'
                '  CMD+="--do_train "\nelse\n  CMD+="--do_eval "\nfi\n$CMD |& tee run.log\n'
            )
        },
        ["LL105 run.sh:9"],
    ),
    Example(  # a command kept in an array that a case's arms set differently: each runs python under srun or not
        {
            "run.sh": (
                '#!/bin/bash\ncase "$MODE" in\n  slurm) CMD=(srun -N 2 python train.py --fp16) ;;\n'
                "  *) CMD=(python train.py) ;;\nesac\n\"${CMD[@]}\" 2>&1 | tee run.log\n"
            )
        },
        ["LL105 run.sh:6"],
    ),
    Example(  # a job runner's bash reads its command without pipefail, the script's `set -o pipefail` notwithstanding
        {"run.sh": "#!/bin/bash\nset -eo pipefail\nutils/run.pl exp/log/t.log python3 train.py \\| tee exp/t.txt\n"},
        ["LL105 run.sh:3"],
    ),
]

VALID = [
    Example(  # a shell told a command string or reading its commands from stdin runs no script file of its own
        {"run.sh": '#!/bin/bash\nbash -c "$CMD" 2>&1 | tee -a log.txt\nbash -s < steps.txt | tee -a log.txt\nbash | tee b.log\n'}
    ),
    Example(  # a function run by the words a function pipes after turning pipefail on: it runs with it
        {
            "run.sh": (
                '#!/bin/bash\njob_a() {\n    python -u train.py | tee a.log\n}\nrun_log() {\n    set -o pipefail\n'
                '    "$@" 2>&1 | tee run.log\n}\nrun_log job_a\n'
            ),
            "train.py": "print(1)\n",
        }
    ),
    Example(  # msrun not told to join (its default, or `--join False`) returns 0 once its workers started: pipefail changes nothing
        {
            "run.sh": (
                "#!/bin/bash\nmsrun --worker_num 8 --local_worker_num 8 --log_dir msrun_log pretrain.py 2>&1 | tee train.log\n"
                "msrun --worker_num=8 --local_worker_num=8 --join=False pretrain.py | tee b.log\n"
            ),
        }
    ),
    Example(  # a justfile's `set shell` with pipefail, a `#!` recipe that sets it, a `-` line (just goes on anyway)
        {
            "t.py": "print(1)\n",
            "justfile": (
                'set shell := ["bash", "-euo", "pipefail", "-c"]\ntrain:\n    python -u t.py | tee train.log\n'
                "script:\n    #!/usr/bin/env bash\n    set -euo pipefail\n    python -u t.py | tee script.log\n"
            ),
            "sub/justfile": "test:\n    -python -u ../t.py | tee test.log\n",
        }
    ),
    Example(  # `command -v NAME` says what NAME is: no job runs
        {"run.sh": "#!/bin/bash\ncommand -v python train.py | tee where.txt\n", "train.py": "print(1)\n"}
    ),
    Example(  # a build tool asked what it is (ProGraML's whoami.sh), not built with
        {"whoami.sh": '#!/bin/bash\nbazel version | sed "s/^/    /"\ncmake --version | sed "s/^/    /"\nmake help | grep train\n'}
    ),
    Example(  # a Makefile line whose errors make ignores (`-`): no one reads its status (dattri)
        {"Makefile": "test:\n\t-python3 -m pytest tests/ | tee logs/pytest.log\n\t-@python3 t.py | tee t.log\n", "t.py": "print(1)\n"}
    ),
    Example(  # Windows line ends: a backslash escapes the `\r`, so the `| tee` line is a command of its own (gmflow)
        {
            "train.sh": "#!/bin/bash\r\npython -u train.py \\\r\n  --lr 1e-4 2>&1 | tee train.log\r\n",
            "train.py": "print(1)\n",
        }
    ),
    Example(  # an included makefile may set SHELL and .SHELLFLAGS: pipefail is not known to be off
        {
            "Makefile": "SHELL := /bin/bash\ninclude common.mk\n\ntrain:\n\tpython -u train.py 2>&1 | tee train.log\n",
            "common.mk": ".SHELLFLAGS := -eu -o pipefail -c\n",
            "train.py": "print(1)\n",
        }
    ),
    Example(  # a debugger's session exits 0 whatever the program did (code-act's DEBUG_MODE branch)
        {
            "debug.sh": (
                "#!/bin/bash\nset -e\npython -u -m pdb -c continue train.py 2>&1 | tee -a debug.log\n"
                "python3 -m ipdb train.py | tee ipdb.log\n.venv/bin/python -m pudb train.py |& tee pudb.log\n"
            ),
            "train.py": "print(1)\n",
        }
    ),
    Example(  # `bsub CMD` queues an LSF job and prints "Job <123> is submitted": the job's output goes to its `-o` file
        {"submit.sh": "#!/bin/bash\nbsub -n 4 -o logs/%J.out python -u train.py 2>&1 | tee sub.log\n", "train.py": "print(1)\n"}
    ),
    Example(  # `flux submit` queues the job and prints its id: the job's output goes to its log in Flux
        {"submit.sh": "#!/bin/bash\nflux submit -N 2 python train.py | tee jobid.txt\n", "train.py": "print(1)\n"}
    ),
    Example(  # a function called only by a name made at run time (`run_$step`), after `set -o pipefail`
        {
            "ci.sh": (
                "#!/bin/bash\nrun_build() {\n    (time make -j) 2>&1 | tee -a build.log\n}\n"
                "run_step() {\n    set -o pipefail\n    run_$1 | tee $1.log\n    set +o pipefail\n}\nrun_step build\n"
            )
        }
    ),
    Example(  # the same, called five times (seamless_communication's ggml/ci/run.sh): the fifth call's function too
        {
            "ci/run.sh": (
                "#!/bin/bash\ngg_run() {\n    ci=$1\n    set -o pipefail\n    gg_run_$ci | tee $OUT/$ci.log\n    set +o pipefail\n}\n"
                "gg_run_ctest_debug() { ./bin/test-debug 2>&1 | tee -a $OUT/ctest.log; }\n"
                "gg_run_ctest_release() { ./bin/test-release 2>&1 | tee -a $OUT/ctest.log; }\n"
                "gg_run_gpt_2() { ./bin/gpt-2 -s 1234 2>&1 | tee -a $OUT/gpt_2.log; }\n"
                "gg_run_mnist() { ./bin/mnist 2>&1 | tee -a $OUT/mnist.log; }\n"
                "gg_run_mpt() { (time ./bin/mpt -s 1234 -n 64) 2>&1 | tee -a $OUT/${ci}-tg.log; }\n"
                "gg_run ctest_debug\ngg_run ctest_release\ngg_run gpt_2\ngg_run mnist\ngg_run mpt\n"
            )
        }
    ),
    Example(  # a function such a call names within the walk of its own body: its caller's pipefail is not known
        {
            "ci.sh": (
                "#!/bin/bash\nrun() {\n    set -o pipefail\n    step_$1 | tee $1.log\n    set +o pipefail\n}\n"
                "step_all() { run train; }\nstep_train() { ./bin/train 2>&1 | tee train.out; }\nrun all\n"
            )
        }
    ),
    Example(  # csh is not bash (`|&` is its `2>&1 |`): a script for it is not analysed
        {"job.sh": "#!/bin/csh -f\nsetenv CUDA_VISIBLE_DEVICES 0,1\nforeach lr (1e-4 3e-4)\n    python train.py --lr $lr |& tee run.log\nend\n"}
    ),
    Example(  # a file that turns pipefail off only in a branch, after `&&` or in a function, or before the script sets it again
        {
            "run.sh": (
                "#!/bin/bash\nset -o pipefail\nsource a.sh\nsource b.sh\nsource c.sh\npython -u train.py 2>&1 | tee a.log\n"
                "source off.sh\nset -o pipefail\npython -u eval.py 2>&1 | tee b.log\n"
            ),
            "a.sh": 'if [ -n "$LOOSE" ]; then set +o pipefail; fi\n',
            "b.sh": '[ -n "$LOOSE" ] && set +o pipefail\n',
            "c.sh": "loose() { set +o pipefail; }\n",
            "off.sh": "set +o pipefail\n",
        }
    ),
    Example(  # `shopt -so pipefail` sets it as `set -o` does; a file found from `${BASH_SOURCE%/*}`;
        # a `#!` line env splits for bash
        {
            "a.sh": "#!/bin/bash\nshopt -os pipefail\npython -u train.py 2>&1 | tee a.log\n",
            "c.sh": "#!/usr/bin/env -S bash -euo pipefail\npython -u train.py 2>&1 | tee c.log\n",
            "jobs/b.sh": '#!/bin/bash\nsource "${BASH_SOURCE%/*}/env.sh"\npython -u train.py 2>&1 | tee b.log\n',
            "jobs/env.sh": "set -euo pipefail\n",
        }
    ),
    Example(  # in the background, and no one waits for its status
        {"run.sh": "#!/bin/bash\nnohup python -u train.py 2>&1 | tee train.log &\nwait\n"}
    ),
    Example(  # a function's pipeline runs where it is called: after `set -o pipefail` there
        {
            "run.sh": (
                "#!/bin/bash\nmain() {\n  python -u train.py 2>&1 | tee train.log\n}\n"
                'if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then\n  set -euo pipefail\n  main "$@"\nfi\n'
            )
        }
    ),
    Example(  # CircleCI runs a step with /bin/bash -eo pipefail, a string `run` or its `command`
        {".circleci/config.yml": "version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/python:3.11\n    steps:\n      - checkout\n      - run: python train.py 2>&1 | tee train.log\n      - run:\n          name: eval\n          command: python eval.py | tee eval.log\n"}
    ),
    Example(  # GitLab's runner sets pipefail for a job's lines
        {".gitlab-ci.yml": "train:\n  stage: train\n  script:\n    - python train.py 2>&1 | tee train.log\n"}
    ),
    Example(  # srun of a command that is no job
        {"job.sbatch": "#!/bin/bash\nsrun --nodes=1 hostname | awk '{print $1}'\nsrun --ntasks=1 nvidia-smi | tee gpus.log\n"}
    ),
    Example(  # asking a package manager about the environment, also one run as a module
        {
            "env.sh": (
                "#!/bin/bash\npip list | grep torch\nconda env list | tee envs.txt\nnvidia-smi | tee gpus.log\n"
                'if [[ `python3 -m pip list | grep "^torch "` ]]; then echo has; fi\npython3 -m pip show torch | grep Version\n'
                "python -m pip freeze | grep torch > pins.txt\npython3.12 -m uv pip list | grep torch\n"
                "python -m zipfile -l dist/pkg.whl | grep -q libfoo.so\npython -m torch.utils.collect_env | tee env.txt\n"
            )
        }
    ),
    Example(  # an environment runner is what it runs: here a question, no job
        {
            "env.sh": (
                "#!/bin/bash\nv=$(conda run -n build pip show torch | grep Version | cut -d' ' -f2)\n"
                "conda run -n build nvidia-smi | tee gpus.log\nmicromamba run -n build pip list | grep torch\n"
                "uv run pip list | grep torch\nmamba run -p ./env python -c 'import torch' | tee t.log\n"
            )
        }
    ),
    Example(
        {
            "train.sh": (
                "#!/bin/bash\nset -Eeuo pipefail\ntorchrun train.py 2>&1 | tee train.log\n"
                "bash -c 'set -o pipefail; python a.py | tee a.log'\n"
                "bash -eo pipefail -c 'python b.py | tee b.log'\n"
            )
        }
    ),
    Example(  # not a job in the first stage; a last stage whose status is the point
        {
            "run.sh": (
                "nvidia-smi | tee gpus.log\necho start | tee -a run.log\n"
                "python -c 'import torch; print(torch.__version__)' | tail -1\n"
                "python train.py | python parse_loss.py\n"
            )
        }
    ),
    Example(  # `shell: bash` is `bash -eo pipefail {0}`, per step or as the job's default
        {
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - shell: bash\n        run: python train.py --steps 10 | tee smoke.log\n"
                "  eval:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        shell: bash\n"
                "    steps:\n      - run: python eval.py | tee eval.log\n"
            )
        }
    ),
    Example(  # a file the script sources turns it on: a `.env` read as shell, found from the script's own directory, or
        # from a directory above it
        {
            "tests/llm/sft.sh": (
                '#!/bin/bash\nSCRIPT_DIR=$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd)\n'
                "source $SCRIPT_DIR/common.env\npython run_sft.py 2>&1 | tee $RUN_LOG\n"
            ),
            "tests/llm/common.env": "set -eou pipefail\nRUN_LOG=run.log\n",
            "dpo.sh": '. "$(dirname "$0")/env/common.sh"\ntorchrun dpo.py | tee dpo.log\n',
            "env/common.sh": "source env/strict.sh\n",  # which sources another, from the root
            "env/strict.sh": "set -o pipefail\n",
            # from a directory between the script's and the root, where it is run (mlcommons' minigo)
            "minigo/ml_perf/scripts/train.sh": "#!/bin/bash\nsource ml_perf/scripts/common.sh\npython3 train.py 2>&1 | tee log.txt\n",
            "minigo/ml_perf/scripts/common.sh": "set -euo pipefail\n",
        }
    ),
    Example(  # the script checks the job's own status
        {"run.sh": 'python train.py 2>&1 | tee train.log\nrc=${PIPESTATUS[0]}\n[[ $rc -eq 0 ]] || exit "$rc"\n'}
    ),
    Example(  # early exits, and a detached pane whose status nobody reads
        {
            "run.sh": (
                "python train.py --help | head -n 20\npython check.py | grep -q OK\n"
                'tmux new-session -d -s job "python train.py | tee run.log"\n'
            )
        }
    ),
    Example(  # a submission returns at once: the job's status goes to its scheduler, never into this pipe
        {
            "submit.sh": (
                "ray job submit --address=$RAY_ADDRESS --working-dir . --no-wait -- python3 -m pkg.main x=1 2>&1 | tee run.log\n"
                "sbatch job.sh | tee sub.log\n"
                "qsub -l select=1 job.pbs | tee sub.log\nbsub < job.lsf 2>&1 | tee sub.log\n"
            ),
            "job.sh": "#!/bin/bash\npython3 -u train.py\n",
        }
    ),
    Example(  # a tmux pane's status is never tmux's, attached or in a window of its own
        {
            "run.sh": (
                "#!/bin/bash\nset -e\ntmux new-window -t exp 'python -u train.py 2>&1 | tee a.log'\n"
                "tmux split-window -h 'python -u eval.py 2>&1 | tee e.log'\n"
                "tmux new-session -s t 'python -u test.py 2>&1 | tee t.log'\n"
            )
        }
    ),
    Example(  # a path made at run time: with no script's name, absolute, or into a filter of data
        {
            "bench.sh": (
                "#!/bin/bash\nscripts/$STEP 128 | tee b.log\n"
                "/opt/bench$V/run.sh 128 | tee c.log\nutils/filter_$KIND.pl keep wav.scp | sort > wav2.scp\n"
            )
        }
    ),
    Example(  # an arm that sets the command anew, before or after one that appends: what runs is not known
        {
            "a.sh": (
                '#!/bin/bash\nCMD="python -u train.py --seed 1 "\nif [ "$DRY" = 1 ]; then\n  CMD="echo dry run "\n'
                'else\n  CMD+="--do_train "\nfi\n$CMD |& tee run.log\n'
            ),
            "b.sh": (
                '#!/bin/bash\nCMD="python -u train.py --seed 1 "\nif [ "$DRY" != 1 ]; then\n  CMD+="--do_train "\n'
                'else\n  CMD="echo dry run "\nfi\n$CMD |& tee run.log\n'
            ),
        }
    ),
    Example(  # `|` binds tighter than `&&`: the list's `set -o pipefail` runs before the pipeline
        {
            "run.sh": "#!/bin/bash\nset -o pipefail && pip install -e . && python3 -u train.py 2>&1 | tee train.log\n",
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: set -o pipefail && python3 -u train.py --steps 10 2>&1 | tee smoke.log\n"
            ),
        }
    ),
    Example(  # an Azure step that sets pipefail itself; `script:` on a Windows image is cmd.exe, and `pwsh:` is PowerShell
        {
            "azure-pipelines.yml": (
                "jobs:\n- job: linux\n  pool: {vmImage: ubuntu-latest}\n  steps:\n  - bash: |\n      set -o pipefail\n"
                "      python train.py 2>&1 | tee train.log\n"
                "- job: windows\n  pool: {vmImage: windows-2022}\n  steps:\n  - script: python train.py | findstr loss\n"
                "  - pwsh: python train.py | Tee-Object train.log\n"
            )
        }
    ),
]


def check(project) -> Iterator[Finding]:
    for path, script in project.shell.items():
        # One `set -o pipefail` serves every pipeline of the script; deciding it reads the whole
        # script, so it is decided once, not once per pipeline (quadratic on a 10 MB script).
        script_fix = cache(lambda path=path, script=script: _script_fix(project, path, script))
        waits = None
        reported = set()  # the pipelines reported: a function's, before its calls'
        for pipeline in script.pipelines:
            if pipeline.written is not None and pipeline.written in reported:
                continue  # `run() { python -u "$@" | tee log; }`: the body's finding is each call's, one fix
            pipefail, sourced = pipefail_of(project, path, pipeline)
            job = None if pipefail else masked_job(pipeline, pipefail=False, project=project)
            if job is None or _status_read(script, pipeline):
                continue
            if pipeline.last.background:
                waits = _waits_for_jobs(script) if waits is None else waits
                if not waits:
                    continue  # `python t.py | tee log &`: nothing reads its status
            last = pipeline.last
            # a call of a function that pipes its arguments (`run_log torchrun t.py`): the pipeline is in its body
            written = () if pipeline.written is None else (Related(pipeline.written, f"the function pipes the words into `{last.name}` here"),)
            reported.add(pipeline.location)
            if sourced is not None:  # a file sourced after the script's own `set -o pipefail` (if any) turns it off
                found = sourced_script(project, path, sourced.words[1])
                file = found.path if found is not None else sourced.words[1].text
                yield Finding(
                    pipeline.location,
                    f"without pipefail this pipeline exits with `{last.name}`'s status, so a failed `{_named(job)}` looks like "
                    f"success: `{file}`, sourced before it, turns pipefail off; use `set -o pipefail` after the `source`",
                    (*written, Related(sourced.location, f"{file} is sourced here and turns pipefail off")),
                )
                continue
            yield Finding(
                pipeline.location,
                f"without pipefail this pipeline exits with `{last.name}`'s status, so a failed "
                f"`{_named(job)}` looks like success: use {_remedy(project, path, pipeline)}",
                written,
                fix=None if pipeline.wrappers else script_fix(),
            )


def _named(job: Command) -> str:
    """The job's name; as written when its path is partly unknown (`"$(dirname "$0")/train.sh"`
    is `train.sh`); the script's for a shell that runs or sources one (`bash scripts/test.sh`,
    `. scripts/test.sh`: `test.sh`, not `bash` or `.`: tranX's pipelines, helper-311)."""
    script = script_of(job) if job.name in SHELL_RUNNERS or job.name is None else None
    if script is not None and script[0] in ("shell", "python"):  # `$PYTHON train.py`: `train.py` too
        return os.path.basename(script[1].template)
    return job.name or os.path.basename(job.words[0].template)


def _waits_for_jobs(script: ShellScript) -> bool:
    """`wait $PID`, `wait -n`: a background job's status is read (a bare `wait` returns 0)."""
    return any(c.name == "wait" and c.args for c in script.effective_commands())


def _status_read(script: ShellScript, pipeline: Pipeline) -> bool:
    """The unit (the file, or the workflow step) that runs the pipeline reads `${PIPESTATUS[...]}`:
    it checks the stages itself."""
    return any(first <= pipeline.location.line <= last for first, last in script.status_read)


def _remedy(project, path: str, pipeline: Pipeline) -> str:
    """Where pipefail goes: the nested string's own shell, else the step's or the script's."""
    nested = [w for w in pipeline.wrappers if w.kind != "eval"]  # `eval` runs its string in this shell
    if nested:
        return "`set -o pipefail` at the start of the heredoc" if nested[-1].heredoc else (
            "`set -o pipefail;` at the start of the command string"
        )
    kind = project.files[path].kind
    if kind == "yaml" and project.shell[path].in_image:  # a launch spec's `run:`/`command:` (SkyPilot, Valohai)
        return "`set -o pipefail` at the start of the command"
    if kind == "yaml" and in_circleci(path):  # a step's `shell:` that drops pipefail
        return "CircleCI's default shell (`/bin/bash -eo pipefail`), or `set -o pipefail` at the start"
    if kind == "yaml" and (path.startswith(".github/") or "/.github/" in path or path.endswith(("action.yml", "action.yaml"))):
        line = pipeline.location.line
        template = next((t for first, last, t in project.shell[path].shell_templates if first <= line <= last), None)
        if template is not None:  # `shell: bash` would drop its options (`-l`, for conda's activation)
            return f"`shell: {_with_pipefail(template)}`, which keeps its options and sets pipefail"
        return "`shell: bash`, which sets pipefail"  # a workflow step's own `run:` script
    if kind == "yaml":  # a GitLab CI job's, whose runner set it: `set +o pipefail` turned it off
        return "`set -o pipefail`"
    if kind == "makefile":  # each recipe line runs in a new `sh -c`, or SHELL's
        if project.shell[path].make_shell == "bash":  # `SHELL = /bin/bash` already (envpool's)
            return "`.SHELLFLAGS := -eo pipefail -c`"
        return "`SHELL := bash` and `.SHELLFLAGS := -eo pipefail -c`"
    if kind == "justfile":  # each line of a recipe runs in a new `sh -cu`, or `set shell`'s
        from launchlint.front.justfile import script_recipe_at

        if script_recipe_at(project.files[path].text, pipeline.location.line):  # one script: a `#!` recipe
            return "`set -o pipefail` at the start of the recipe"
        return '`set shell := ["bash", "-uo", "pipefail", "-c"]`'
    lacking = _lacking_pipefail(project, path, project.shell[path])
    if lacking is not None:  # `set -o pipefail` there is "Illegal option", and ends the script
        shell, own = lacking
        return f"{'`#!/bin/bash`' if own else '`bash` to run it'} and `set -o pipefail` (`{shell}` has no pipefail)"
    return "`set -o pipefail`"


def _with_pipefail(template: str) -> str:
    """A step's shell template with `-o pipefail` before the script's `{0}` (or after its options)."""
    return template.replace("{0}", "-o pipefail {0}", 1) if "{0}" in template else f"{template} -o pipefail"


def masked_job(pipeline: Pipeline, pipefail: bool | None = None, project=None) -> Command | None:
    """The job in the first stage whose failure the last stage hides, if any: none when pipefail
    is in effect (`pipefail`, else as the pipeline's shell set it: see `launches.pipefail_of`).
    `project`: its console scripts are jobs too (`is_job`)."""
    last = pipeline.last
    if (pipeline.pipefail if pipefail is None else pipefail) or last is None or last.name not in FILTERS or _exits_early(last):
        return None
    if any(w.detached or w.kind == "tmux" for w in pipeline.wrappers):
        return None  # tmux returns no pane's status, `-d` or not: `tmux new 'exit 123'` exits 0
    tee = last.name == "tee"
    return next((c for c in pipeline.feeders(0) if not _debugged(c) and (is_job(c, project) or (tee and _logged_program(c)))), None)


# Modules run to print what they know, as `nvidia-smi` is (ASKING): the environment's, or an
# archive's listing (hivemind's release check `python -m zipfile -l dist/*.whl | grep ...`), with
# the options that make them only ask (none: any run of them asks).
ASKING_MODULES = {
    "site": (), "sysconfig": (), "platform": (), "torch.utils.collect_env": (),
    "zipfile": ("-l", "--list"), "tarfile": ("-l", "--list"),
}  # fmt: skip
# Debuggers run as a module: `python -m pdb train.py` exits 0 whatever the program does.
DEBUGGERS = frozenset({"pdb", "ipdb", "pudb"})


def _debugged(command: Command) -> bool:
    """`python -m pdb -c continue train.py`: an interactive session at the terminal, whose status
    says nothing of the program's. pdb stops in post-mortem debugging at an uncaught exception and
    restarts the program when it ends (ipdb and pudb alike), then exits 0 once the user quits."""
    run = python_run(command) if is_python(command.name) else None
    return run is not None and run.kind == "module" and run.target.value in DEBUGGERS


def is_job(command: Command, project=None) -> bool:
    """A command whose failure is the run's: python, a launcher, a build, a trainer's command-line
    front door (ENTRY_POINTS), a script of the project, or (`project` given) a console script the
    project's packages declare (`fq-train data --arch x`, entrypoints.console_script)."""
    run = python_run(command, stdin=True) if is_python(command.name) else None
    covers = coverage_subcommand(command, run)
    if covers is not None:  # `coverage run [options] x.py`: the program runs in it; not `coverage report`
        return covers == "run"
    if _runs_known(command):
        return False  # `conda run -n e pip list | grep torch`: the command it runs is judged, a feeder of its own
    name, args = as_tool(command, run)  # `python3 -m pip list` is `pip list`
    if name in INSTALLERS:
        return any(w.value in INSTALLING for w in args[:3])  # `uv pip install`, `conda env create`
    if is_python(command.name):
        return run is not None and not _asks(run)  # not `python -c`, `python --version`
    if command.inner and name in SCHEDULERS and all(inner.name in ASKING for inner in command.inner):
        return False  # `$(srun --nodes=1 hostname | awk ...)`: srun of a question is one
    if name == "msrun" and (launch := launch_of(command)) is not None and not waits(launch):
        return False  # it returns once its workers started, whatever they do, unless told `--join True`
    found = script_of(command)
    return (
        is_long_running(command)
        or (name in BUILDS and not (args and args[0].value in BUILD_QUESTIONS))
        or name in ENTRY_POINTS
        or (found is not None and found[0] == "shell")
        or _runs_a_script(command)
        or runs_by_variable(command)
        or (project is not None and console_script(project, command.name) is not None)
    )


def _runs_a_script(command: Command) -> bool:
    """A shell running a script file, its path known here or not (`bash "$TEST_SCRIPT"`, `sh
    "$1"`): it exits with the script's status."""
    return command.name in SHELL_RUNNERS and command.name not in SOURCERS and shell_script_word(command) is not None


def _asks(run) -> bool:
    """`python -m torch.utils.collect_env`, `python -m zipfile -l x.whl`: a module run to print
    what it knows (ASKING_MODULES)."""
    if run.kind != "module" or run.target.value not in ASKING_MODULES:
        return False
    options = ASKING_MODULES[run.target.value]
    return not options or any(word.value in options for word in run.args)


def _runs_known(command: Command) -> bool:
    """An environment runner (`conda run -n e CMD`, `uv run CMD`) of a command known here: what it
    runs is a feeder of the pipe too, and is what counts."""
    return command.name in ENV_RUNNERS and bool(command.inner) and all(inner.name is not None for inner in command.inner)


def _logged_program(command: Command) -> bool:
    """A program run by a relative path (`./bin/bert_example config.ini 2>&1 | tee run.log`):
    the project's own, built or written, whose output is kept as a log. Not in a pipeline of
    data (`utils/filter_scp.pl a b | sort > c`): a helper there is a filter of the data. A path
    partly unknown is one when it is relative with a `/` before its first expansion, or starts
    with one and has a `/` after it, and is named as a shell or Python script
    (`scripts/run_bench$len.sh`, deep-quant's `$BIN/deep_quant.py`): which script runs is not
    known, but one does."""
    word = command.words[0]
    path = word.value
    if path is None:
        path = word.template.partition("$")[0]
        if "`" in path or kind_by_name(word.template) not in ("shell", "python"):
            return False
        if not path:  # `$BIN/train.py`: a script under a directory a variable holds
            return "/" in word.template
    return "/" in path and not path.startswith(("/", "~"))


def _exits_early(command: Command) -> bool:
    return command.name == "head" or (
        command.name in ("grep", "egrep", "fgrep", "rg") and any(w.value in EARLY_EXIT for w in command.args)
    )


def _script_fix(project, path: str, script: ShellScript) -> Fix | None:
    """`set -o pipefail` where it runs once, in the script's own shell, before its pipelines; None
    when pipefail there would change more than the pipelines this rule reports (see *Fix safety*)."""
    if project.files[path].kind != "shell":
        return None
    if not all(_safe_in(project, other, facts) for other, facts in _sharing_shell(project, path).items()):
        return None
    edit = insert_after_line(project, path, _insertion_line(project, path, script), "set -o pipefail")
    if edit.text.endswith("\r\n"):
        return None  # Windows line ends: bash reads `pipefail\r`, an option it refuses, and goes on without it
    return Fix("add `set -o pipefail`", (edit,))


_COMMENT_OR_BLANK = re.compile(r"[ \t\r]*(?:#.*)?")


def _insertion_line(project, path: str, script: ShellScript) -> int:
    """The line after which the new line goes: the script's first command when that is a `set`
    alone on its line(s) at the top level (nothing but comments and blank lines before it, nothing
    but a comment after it on its last line), else the end of the leading comment block (the
    shebang, `#SBATCH` directives: sbatch stops reading them at the first command), else 0."""
    index = project.index(path)
    lines = index.text.split("\n")
    header = first_code = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#"):
            header = number
        elif stripped:
            first_code = number
            break
    own = [c for c in script.commands if not c.wrappers and c.words]
    first = min(own, key=lambda c: (c.location.line, c.location.column), default=None)
    if first is None or first.name != "set" or first.redirects or first.location.line != first_code:
        return header
    before = index.line_text(first.location.line)[: first.location.column - 1]
    end = index.offset(first.location.end_line, first.location.end_column)
    after = index.text[end : index.starts[first.location.end_line] if first.location.end_line < len(index.starts) else len(index.text)]
    if before.strip() or not _COMMENT_OR_BLANK.fullmatch(after.rstrip("\n")):
        return header  # `set -e; cat <<EOF`, `set -e; python t.py | tee log`: the line holds more
    return first.location.end_line


# Shells with `set -o pipefail`; sh (dash 0.5.12: "Illegal option -o pipefail", and an error in a
# special builtin ends a non-interactive sh), posh, csh, tcsh, fish and yash are not among them.
PIPEFAIL_SHELLS = {"bash", "zsh", "ksh", "ksh93", "mksh", "busybox"}
KNOWN_SHELLS = PIPEFAIL_SHELLS | {"sh", "dash", "ash", "posh", "csh", "tcsh", "fish", "yash", "pdksh"}
NO_PIPEFAIL_EXTENSIONS = (".posh", ".dash")  # csh, tcsh and fish scripts are not analysed (`discover.other_shell`)


def _safe_in(project, path: str, facts: ShellScript | None) -> bool:
    """Whether pipefail in the shell running `path` changes nothing there but what this rule
    reports, found once a run for each file: the scripts that source one `common.sh` share one
    shell with it, and each of their findings asks about all of them."""
    known = project.__dict__.setdefault("_ll105_safe", {})
    found = known.get(path)
    if found is None:
        found = known[path] = (
            facts is not None
            and _lacking_pipefail(project, path, facts) is None
            and not _turns_pipefail_off(facts)
            and _keeps_meaning(project, path, facts)
        )
    return found


def _lacking_pipefail(project, path: str, script: ShellScript) -> tuple[str, bool] | None:
    """A shell without pipefail that may run the file, and whether the file names it itself (its
    `#!` line or extension) rather than a caller; None when every shell known to run it has
    pipefail: its `#!` line (bash when it has none, unless its extension names a shell without
    it), each project caller that names a shell (`sh x.sh`, `ssh host sh -s < x.sh`), and for a
    file without a `#!` line the shell of a caller that runs it directly (a shell that gets ENOEXEC
    reads the file itself; make's is sh)."""
    known = project.__dict__.setdefault("_ll105_lacking", {})  # asked by each finding's advice and by the fix
    if path not in known:
        known[path] = _shell_without_pipefail(project, path, script)
    return known[path]


def _shell_without_pipefail(project, path: str, script: ShellScript) -> tuple[str, bool] | None:
    """`_lacking_pipefail`'s answer, found."""
    if script.interpreter is not None and script.interpreter not in PIPEFAIL_SHELLS:
        return script.interpreter, True
    if script.interpreter is None and path.endswith(NO_PIPEFAIL_EXTENSIONS):
        return path.rpartition(".")[2], True
    if path in _stdin_of_shells(project):
        return "sh", False
    for caller in project.graph.callers(path):
        name = caller.command.name
        if name in SOURCERS:
            continue  # the caller's own shell: it shares this one (_sharing_shell)
        if name in KNOWN_SHELLS and name not in PIPEFAIL_SHELLS:
            return name, False
        if name not in KNOWN_SHELLS and script.interpreter is None:
            runner = project.shell.get(caller.caller) if project.files[caller.caller].kind == "shell" else None
            if runner is None or (runner.interpreter is not None and runner.interpreter not in PIPEFAIL_SHELLS):
                return ("sh" if runner is None else runner.interpreter), False
    return None


def _stdin_of_shells(project) -> frozenset[str]:
    """The project files a shell without pipefail reads on its standard input
    (`ssh gpu1 sh -s < run.sh`, `sh < run.sh`), found once a run."""
    found = project.__dict__.get("_ll105_stdin")
    if found is None:
        paths = set()
        for caller, script in project.shell.items():
            for command in script.commands:
                names = {w.value.rsplit("/", 1)[-1] for w in command.words if w.value}
                if not names & (KNOWN_SHELLS - PIPEFAIL_SHELLS):
                    continue
                for redirect in command.redirects:
                    value = redirect.target.value if redirect.op == "<" and redirect.target is not None else None
                    if value:
                        paths.add(os.path.normpath(value))
                        paths.add(os.path.normpath(os.path.join(os.path.dirname(caller), value)))
        found = project.__dict__["_ll105_stdin"] = frozenset(paths)
    return found


def _sharing_shell(project, path: str) -> dict[str, ShellScript | None]:
    """The file and the files that run in its shell, with their facts (None: not known): those
    that source it, those it sources, and so on both ways (a pipefail turned on in one is on in
    all of them after). A sourced file need not be analysed as shell (`source common.env`)."""
    graph = project.__dict__.get("_ll105_sourcing")
    if graph is None:
        graph = project.__dict__["_ll105_sourcing"] = {}
        for invocation in project.graph.invocations:
            if invocation.callee and _sources(invocation.command):
                graph.setdefault(invocation.caller, set()).add(invocation.callee)
                graph.setdefault(invocation.callee, set()).add(invocation.caller)
    seen: dict[str, ShellScript | None] = {path: project.shell.get(path)}
    todo = [path]
    while todo:
        current = todo.pop()
        facts = seen[current]
        found = [(other, project.shell.get(other)) for other in sorted(graph.get(current, ()))]
        for command in facts.commands if facts is not None else ():
            sourced = sourced_script(project, current, command.words[1]) if _sources(command) and len(command.words) > 1 else None
            if sourced is not None:
                found.append((sourced.path, sourced))
        for other, its in found:
            if other not in seen:
                seen[other] = its
                todo.append(other)
    return seen


def _sources(command: Command) -> bool:
    """`source FILE` or `. FILE` in the shell of the script (not in `$(...)`, `bash -c`, ssh)."""
    return command.name in SOURCERS and not _other_shell(command.wrappers) and command.stdout.kind != CAPTURED


def _other_shell(wrappers) -> bool:
    """Whether a command with these wrappers runs in a shell of its own (`bash -c`, ssh), not in
    the script's (an `eval` string runs in it)."""
    return any(w.kind != "eval" for w in wrappers)


# Readers that read all their input, and writers whose status is no answer: a pipeline made only of
# them changes nothing under pipefail but a failure's status.
READS_ALL = {
    "tee", "sort", "uniq", "wc", "tr", "cut", "cat", "tac", "tail", "column", "ts", "logger", "jq", "nl", "rev",
    "paste", "md5sum", "sha1sum", "sha256sum", "base64", "gzip", "pigz", "bzip2", "xz", "zstd", "lz4",
    "grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "mawk",
}  # fmt: skip
PRINTERS = {
    "echo", "printf", "cat", "tac", "date", "hostname", "env", "printenv", "pwd", "uname", "whoami",
    "id", "nproc", "lscpu", "free", "nvidia-smi", "sort", "uniq", "tr", "cut", "sed", "awk", "gawk",
    "mawk", "tee", "jq", "wc", "column", "ts", "tail",
}  # fmt: skip


def _keeps_meaning(project, path: str, script: ShellScript) -> bool:
    """Whether pipefail in the file's own shell changes no pipeline this rule leaves alone: each of
    its pipelines (not in a `bash -c`/ssh string) is reported by the rule, or runs with pipefail
    already, or is made of readers that read all their input and writers whose status is no answer."""
    waits = None
    for pipeline in script.pipelines:
        if _other_shell(pipeline.wrappers) or not pipeline.stages[0]:
            continue
        if pipefail_of(project, path, pipeline)[0] if path in project.shell else pipeline.pipefail:
            continue
        job = masked_job(pipeline, pipefail=False, project=project)
        if job is not None and not _status_read(script, pipeline):
            if not pipeline.last.background:
                if _fails_otherwise(pipeline):
                    return False  # `pytest --co | grep rpc | cut ...`: grep's "no match" would fail it too
                continue
            waits = _waits_for_jobs(script) if waits is None else waits
            if waits:
                continue
        if not _plain(pipeline):
            return False
    return True


# Commands whose status 1 answers a question on ordinary data: "no match", "the files differ".
ANSWERING = frozenset({"grep", "egrep", "fgrep", "rg", "diff", "cmp"})


def _fails_otherwise(pipeline: Pipeline) -> bool:
    """Whether pipefail would fail a reported pipeline for more than its job's failure: a stage
    before the last that answers a question (`pytest --co | grep rpc | cut -d' ' -f6`: grep's "no
    match"), or one that stops reading early, whose writer then dies of SIGPIPE (`python b.py |
    tail -n2 | head -n1 | tee -a r.txt`)."""
    readers = [pipe.reader for pipe in pipeline.pipes[:-1]]
    return any(r is not None and (r.name in ANSWERING or _exits_early(r)) for r in readers)


def _plain(pipeline: Pipeline) -> bool:
    """Readers that read everything (`grep` without `-q`/`-m`, `sed` without `q`, `awk` without
    `exit`), and before the last stage only jobs whose failure is one and commands that print."""
    for stage, pipe in enumerate(pipeline.pipes):
        reader = pipe.reader
        if reader is None or reader.name not in READS_ALL or _exits_early(reader):
            return False
        words = [w.value for w in reader.args]
        if reader.name in ("sed", "awk", "gawk", "mawk") and any(  # a program read from a file: unknown
            v is None or v.startswith(("-f", "--file")) or ("q" in v.lower() if reader.name == "sed" else "exit" in v) for v in words
        ):
            return False
        for writer in pipeline.feeders(stage):
            if not (is_job(writer) or writer.name in PRINTERS or _runs_known(writer)):
                return False  # `grep x log | sort`: grep's "no match" would fail the pipeline
    return True


def _turns_pipefail_off(script: ShellScript) -> bool:
    """`set +o pipefail`, `set +eo pipefail`, `shopt -uo pipefail` somewhere: the author wants it
    off there, so adding it is not safe."""
    for command in script.commands:
        if command.name not in ("set", "shopt"):
            continue
        values = [w.value for w in command.args]
        if command.name == "set" and "pipefail" in values and not shell_args(values, pipefail=True).pipefail:
            return True
        flags = "".join(v[1:] for v in values if v and v.startswith("-"))
        if command.name == "shopt" and "pipefail" in values and "u" in flags and "o" in flags:
            return True
    return False
