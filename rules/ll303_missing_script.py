"""## What it does
Finds a launcher that runs a script that exists nowhere in the project: `bash x.sh`, `./x.sh`,
`source dir/x.sh`, `python x.py`, `torchrun ... x.py`, `deepspeed x.py`, `sbatch x`, `qsub x`, also inside
`ssh`/`tmux`/`bash -c` strings, and `python -m pkg.train` when `pkg` is the project's own package
but has no `train`. A path is looked for where it runs from (the launcher's directory, the
project root, a directory it `cd`s into) and as the project's only file of that name; the message
offers a file of a similar name ("did you mean `train.py`?").

## Why is this bad?
`python: can't open file 'trian.py': [Errno 2] No such file or directory`, or `bash:
scripts/prepare.sh: No such file or directory`, after the job waited in the queue, reserved its
nodes, and, inside a detached tmux session, with nobody watching the pane.

## Example
```bash
# launch.sh
torchrun --nproc_per_node 8 trian.py --lr 3e-4
```
```python
# train.py
print("training")
```

## Use instead
```bash
# launch.sh
torchrun --nproc_per_node 8 train.py --lr 3e-4
```
```python
# train.py
print("training")
```

## Details
The did-you-mean is the file of the closest name (difflib's ratio 0.8 or more; the one file of
that name; none when two names are as close): first a file beside the launcher whose name extends
the missing one, or is what it extends; else one at the root or in a directory that the
launcher's path or the written path names, never one elsewhere in the tree however close its
name (verl-tool's `examples/train/torl/train_drgrpo.sh` is not a vendored
`verl/recipe/char_count/train_grpo.sh`). It is written as the launcher would write it, from
where the path is read: after a `cd`, from there (`cd ../tools`, then `lib/prep.py`); a path
that only one of the directories it may run from keeps in the project, from that one
(`../proj/conf_6/x.yaml` in `sub/run.sh`: `../conf/x.yaml`); else from the root. LL304 offers a
config file so.

A quoted command (`python "$ACC"` with `ACC="tools/acc.py --dir /d"`) is one word, blanks and
all: when its first word is the file, the message says to remove the quotes.

What runs a script:
- `bash x.sh`, `./x.sh`, `source dir/x.sh`, `python x.py`, `torchrun ... x.py` (with
  `--no-python`, `./x.sh` run by its path; also `ft_launcher`, nvidia-resiliency-ext's torchrun),
  `deepspeed x.py`, MindSpore's `msrun ... x.py`, `sbatch x`;
- a batch job script a scheduler queues, after its options: `sbatch x`, PBS's `qsub x` (`qsub -l
  select=2 -v LR=1 job.pbs`; not `qsub -I`, an interactive job, nor `qsub -- CMD`), a script on
  the standard input of sbatch, qsub or LSF's bsub (`bsub < job.lsf`). bsub's operand is a
  command, which a shell runs: a script only when named by its path (`bsub -n 4 ./job.lsf`, not
  from another `-cwd`); `bsub job.lsf` is looked up in PATH (unless the cluster sets
  LSB_BSUB_PARSE_SCRIPT). Any other bsub command is run later by a shell, from this directory
  (or `-cwd`'s): `bsub -n 4 python x.py`, one string (`bsub -L /bin/bash ". env.sh && python
  x.py"`), as `sbatch --wrap "python x.py"`;
- `python -m pkg.train` (also a launcher's `-m`) whose `pkg` is the project's own package where
  the program runs (`pkg/__init__.py`: the working directory comes first in `sys.path`, before
  any installed copy; where a path is looked for, below, so a launcher of a nested project runs
  that project's `pkg`) but has no `train` in any form (`.py`, a directory, `.pyx`, a built
  extension); or, where the program runs there is no `pkg/`, the project's one `src/pkg/` (a src
  layout, which the project installs to run it: open_clip's `-m open_clip_train.main`). A module
  of a package the project does not have, or of a namespace package (no `__init__.py`), may be
  installed, and is not judged;
- `python -m pkg.train.py` or `python -m train.py` where that file is the project's where the
  program runs: the module named by its file. Python imports `pkg.train` (its top level runs),
  then stops with "__path__ attribute not found on 'pkg.train'"; the message says to drop the
  `.py`. A `-m x.py` whose `x.py` is not the project's is left alone (Python's own error names
  the fix there);
- the program a debugger, profiler or runner module runs, after its own options (`python -m debugpy
  --listen 5678 --wait-for-client train.py`, `-m pdb -c continue`, `-m ipdb`, `-m pudb`, `-m
  cProfile -o prof.out`, `-m profile`, `-m mpi4py -rc thread_level=funneled`): a script, or `-m`
  and a module, as `python` runs it (LL301 and LL302 judge its words too);
- a Python file of a static path that a variable's command runs, the variable not known here
  (`$PYTHON tools/train.py`, PYTHON=$1 or `$(which python3)`): an interpreter or a launcher runs
  it, with the words after it (LL301 and LL302 judge them too); after options of python's only
  (`$PYTHON -u tools/test.py`, `$PYTHON -m torch.distributed.launch ... x.py`), as python runs it;
- `python DIR` runs `DIR/__main__.py`, looked for as a script is (on another host: a directory of
  that name with a `__main__.py`), also from the launcher's own directory (`python "$(dirname
  "$0")/../app"`);
- a script a function's body names by its positional parameters, as each call gives them (`go() {
  python $1 --lr 1; }`, then `go train.py` and `go eval.py`: each, reported in the body; up to 4
  sets of words a function).

Where a path is looked for:
- relative to the launcher's directory; relative to the root of a project nested in this one
  that holds the launcher, before the project root (it is run from there: a vendored copy's
  recipes, and its CI files, whose steps run in the checkout holding their `.github/`; the nested
  root is the nearest directory above the launcher with a `pyproject.toml`, `setup.py`,
  `setup.cfg`, `.launchlint.yaml` or `.git`; a missing path that leads into a directory that
  root has, its package's, is reported as under the project root, whatever the launcher's own
  directory is named); relative to the project root (but a path the root has that a directory
  between it and the launcher's has too, a different file, names neither: the launcher may run
  from either, and LL301 and LL302 judge no program by it, as KernelGAT's
  `scikgat/script/inference.sh` runs `scikgat/kgat/test.py`, not the root's; or to its parent, when the
  path starts with the root's own name: `flamingo/flamingo/train/train.py` run from the directory
  holding the checkout, or, in a workflow, with the `path:` its `actions/checkout` of the project
  itself gives: `proj/scripts/x.py` after `path: proj`); under a configured `path-map` prefix;
  and finally as the project's only file of that name, when the path can name it: a relative path
  with directories names only a file whose path ends in it (`prep/new/x.py` or `../new/x.py`: `prep/new/x.py`,
  `exp/prep/new/x.py`, never `prep/old/x.py`, which no directory runs by that path), and none in a
  project nested here that does not hold the launcher (`a/run.sh` runs `scripts/prep.sh`, which
  only a vendored `b/` with its own `setup.py` has: not from where `a/run.sh` runs; a bare name,
  `python run.py`, is still any directory's, a nested project's too). Such a path is
  reported as misnamed when the directory it names has a file of a close name ("no file ends in
  that path; fix the path (did you mean `prep/new/x_v2.py`?)"), else as moved ("the project's
  only file of that name is `prep/old/x.py`", whose path from where it runs is the fix, unless
  another nested project holds it). A name that several files have is none of them:
  the path is reported when it is in none of the places above ("and 2 files have that name",
  those files its related locations; a close name beside the launcher is the did-you-mean:
  `run_fedprox.sh` for its neighbour `run_fedprox_cls.sh`), except on another host, where the
  name alone is checked;
- after a `cd` or `pushd` into a directory of the project (`cd examples/gpt`, `cd "$(dirname
  "$0")"`), there. Without one, a launcher is run from its own directory, the root, or a
  directory between them: a path whose whole directory is only in the nearest such directory
  above the launcher (`internvl_chat/shell/x/run.sh` runs `internvl/train/train_dpo.py`, and
  `internvl/train/` is `internvl_chat/internvl/train/`) is looked for there; so is one that
  starts only in a directory of such a directory, the nearest (`sub/jobs/run.sh` runs a stale
  `exp/old/x.py` where only `sub/exp/` is: "not under sub/ (above this file, and where exp/
  is)"), as a path that starts in a directory of the root is looked for there;
- a GitHub Actions step runs in its `working-directory` (the step's, else the job's or the
  workflow's `defaults.run`), so a relative path is looked for there; a directory the project
  does not have is another repository's checkout (`actions/checkout` with `path:`), and one
  given by an expression is unknown: neither is reported; nor is a path of the steps after an
  `actions/checkout` of another repository into the workspace itself (`repository:` with no
  `path:`: its files replace the project's there), until one of the project checks it out again;
- locally, an absolute path is checked only when a `path-map` prefix claims it for the project.

On another host or in a container (inside `ssh`, `pct exec`, `docker exec`, `docker run`, pyxis's
`srun --container-image`) a path is checked by its name only, and an absolute one there is never
reported: it lives on that machine or in that image. Nor is a path after a `cd` there into a
repository a script of the project clones (`git clone URL; cd repo && bash ./install.sh`), or
that an MCLI run clones before its `command:` (an `integrations:` entry with `integration_type:
git_repo` clones `git_repo: ORG/NAME` into `path:`, else into NAME), or into a directory not
known here (`cd $REMOTE_DIR`, `cd ~/other`, a bare `cd`): that is another checkout, as after a
local `cd "$WORK"`. After a static `cd /srv/job` there, or SkyPilot's `cd
~/sky_workdir` (the project, synced there), or a home's directory of the checkout's own name
(`cd ~/proj` in proj's launchers), or a `cd` into the launcher's own directory
(`DIR=$(pwd)`, `$PWD`, where the launcher's `cd`s tell where it is: `srun --container-image ...
bash -c "cd $DIR; python x.py"`), the name is checked still. Nor is a path from the shell's
own directory (`${PWD}/../Megatron-DeepSpeed/x.py`, absolute when it runs, and the same there: a
pyxis container mounts the checkout at its own path) into a directory the project does not have,
from where the launcher runs: another checkout's, as it is locally. Nor, in a container (not on
another host: `docker run`, pyxis's, and a Compose service's or a Kubernetes container's command;
not a SkyPilot task's or another launch spec's, which may run on a plain VM), a path no file of
the project is named for when a Dockerfile or
Containerfile of the project works in a repository it clones into its image (`RUN git clone URL
/opt/x`, then `WORKDIR /opt/x/ep`, quoted or not: mpi-operator's tensorflow-benchmarks MPIJob
runs `WORKDIR "/tensorflow/benchmarks"`'s scripts): which image runs is not known here, and that
one's working directory holds files the project does not.
A Compose or Kubernetes
command runs in its image and is treated like a remote one. So are keys sent to a tmux pane
(`send-keys`, `respawn-pane`) and a contained apptainer's command: they run in a directory of
their own (a pane's, which keys sent before may have changed), so a path there is checked by name
only.

Not reported, because the script may well be there when the line runs:
- paths after a `cd` to anywhere but a directory of the project (in a subshell or a `$(...)`
  too, up to its end); paths into a directory the
  project does not have (a clone, a download: unless the rest of the path, two parts or more,
  is the project's under one other directory there, and no other: LLaVA's forks renamed `llava/`
  to `moellava/` and kept `deepspeed llava/train/train_mem.py`) or into one that a script of the project clones
  (`git clone URL [DIR]`, an install script's, an MCLI run's `git_repo` integration); through a
  directory the project has too, only a clone the launcher makes itself: git clones into no
  directory that is there, so where its clone works, the directory is the clone (SkyPilot's AMD
  tasks clone pytorch/examples and `cd examples/reinforcement_learning` in a project with its own
  `examples/`), while another script's (olmocr's CI clones `olmocr`) leaves the project's own
  directory judged; paths out of the project (`../other-repo/x.py`);
- a path the same file tests for existence anywhere (`[ -f .env.local ] && source .env.local`,
  `test -e`, `[[ -r ]]`: its author knows it may be missing);
- a path built from a variable's value, in an `if`/`case` arm that cannot run with that value
  (ESPnet's `tts.sh`: `feats_type=raw`, then `elif [ "${feats_type}" = fbank ]; then
  scripts/feats/make_"${feats_type}".sh`, which never runs `make_raw.sh`), or whose conditions
  read the variable in a way not known (`[ "$m" = fbank ] || [ "$m" = stft ]`);
- a path up from where the launcher runs (`. ../../tools/activate_python.sh` in a recipe's
  `path.sh`) is never looked for from a directory above it: it names a place relative to where it
  runs (ESPnet's vendored recipes, where the repository's root has a `tools/` of its own);
- a file of a name that a script of the project writes, copies, downloads or removes (`cat > job.sh`,
  `wget .../setup.sh`, `rm preprocess.py` after an archive's `mv dataset/* .` brought it; a setup script's `> seg_my.py`, `> "$PWD/job.env"`, whose directory is
  known only at run time; the `-O`/`-o`/`--output` file of a command whose program is not known,
  `"${GET[@]}" -O installer.sh URL` with `GET` set in an `if`'s arms; a Python step's output
  option, `python gen.py --output job.sh`; a path literal that code in the command, or a program
  of the project a launcher runs, opens for writing: `open('job_gen.sh', 'w')`,
  `Path('job.sh').write_text(...)` (not a path it builds: `f"{name}.sh"`); a notebook
  converted to a script, `jupyter nbconvert --to script x.ipynb` or `jupytext --to py x.ipynb`,
  writes `x.py`, or its `--output`'s name). But a copy or a link that a `cp` or `ln` of static
  relative paths makes, in a script that says where it runs (it sources a file only its
  directory has, `. ./path.sh`, as a Kaldi recipe does), with no `cd` before it, is made in the
  directory it names from there, and a path names it only from where its own launcher runs:
  icefall's aishell recipe runs `ln -snf ../../../librispeech/ASR/local/sort_lm_training_data.py
  local/` into its own `local/`, and libritts's `prepare_lm.sh`, whose `local/` nothing links it
  into, is reported for `./local/sort_lm_training_data.py`. Of two words, the last may name the
  copy or its directory (`cp a.py local/b.py`), and both are taken. The name counts for any path
  when where the copy lands is not known: `-t DIR`, a variable (`ln -s x.py $DEST/`), an
  absolute directory, a `cd` first, or a script that does not say where it runs (a shared
  helper, run from each recipe);
- `python3 -` (the program comes on standard input);
- a default (`python ${SCRIPT:-test.py}`, or `$SCRIPT` after `SCRIPT=${SCRIPT:-test.py}` or `:
  "${SCRIPT:=test.py}"`) that a
  script of the project running the launcher sets (`SCRIPT=real.py bash launch.sh`, or an
  `export` before it), or a Makefile's `?=` one (`SCRIPT ?= pretrain.py`, then `python
  $(SCRIPT)`: `make train SCRIPT=...` is what `?=` is for, as LL302 takes it), or a justfile
  recipe parameter's (`prepare script='tools/prep.sh':`, then `bash {{script}}`: `just prepare
  other.sh`): the script that runs is the caller's. With no caller, or none that sets it, the default is what runs, and is
  judged, the message naming whose default it is ("`main.py` (`$1`'s default) is not ...");
- a URL (`s3://b/x.sh`, `https://...`: a scheme and `://`, no project path); a pattern bash
  expands (`python train_*.py`, `train_{a,b}.py`, `run[12].sh`; read after quote removal, so a
  quoted one too); `source name` without a `/` (looked up in `PATH`); a template's word, a
  `str.format` field (`main_{script}.py`) or a piece of a Jinja, Go-template or Helm expression
  that is filled in before the line runs (`{{`, as bash splits an Ansible task's `python3 {{
  fw_dir }}/parse_manifest.py`: deepops);
- paths after sourcing a file that changes directory (`source utils.sh`, whose `start` function
  does `cd "$BASE/$1"`: in a function too);
- anything not static. But a path from the launcher's own directory (`"$(dirname
  "$0")/../train.py"` or `$(cd "$(dirname "$0")" && pwd)/train.py`, or `$HERE/train.py` after
  `SCRIPT=$(readlink -f "$0")` and `HERE=$(dirname "$SCRIPT")`) is looked for there, and counts
  as leading into a directory the project lacks when neither its directory nor its first one
  below the launcher's exists (`$HERE/thirdparty/tool.py`), unless that path is the project's
  from a directory above: `$HERE/scripts/models/x.sh` from `scripts/` is reported where
  `scripts/models/x.sh` exists;
- a virtualenv's `bin/activate` (made by `python -m venv` or `uv venv`), a conda installation's
  `etc/profile.d/conda.sh` (ESPnet's `make venv` installs one in `tools/venv/`);
- a path from a launcher that sources a file only its own directory has (`. ./path.sh`, a Kaldi
  recipe's: it is run from there) into a directory that directory lacks (`utils/mkgraph.sh`, a
  link made at set-up, where the root has another `utils/`). A name with no `/` (`. parse_options.sh`)
  says nothing of where it runs (bash looks in `PATH` first);
- a path in a script of a shared library (Kaldi's `utils/`, copied or linked into each recipe beside
  its `path.sh`) that a directory holding the library has, when the script says it is one (it
  sources a file of its own directory by the path from that directory's parent:
  `utils/parse_options.sh` in `utils/data/x.sh`), or sources the path from `./` (`. ./path.sh`) with
  nothing saying where it runs. A directory holds the library when it has that sourced file, a copy
  of the script or a link to its directory, or a script there links its directory in at set-up (`ln
  -s ../../kaldi/utils .`); when no directory has the sourced file, one where the library's
  directory is a symbolic link not resolved here and a script sources the same path (ESPnet's own
  `utils/*.sh` sourcing Kaldi's `utils/parse_options.sh`, run from recipes whose `utils` links
  into a Kaldi installed later). A recipe's own script (`local/x.sh`, sourcing `./path.sh`) runs from its
  recipe, whatever copies of it other recipes have;
- a Python program when the project holds no Python at all (a checkout of launchers for code that
  lives elsewhere);
- a path a `.gitignore` of the project hides by its own name, from the launcher's directory or the root
  (`source ./.env.sh` of a developer's own credentials): each user makes it, and the repository
  never holds it; or in a directory made in one whose every entry it hides (`/outputs/*`:
  `outputs/run1/eval.sh`). A path in a directory `.gitignore` hides by name is still judged
  (`data/`, a dataset's, also covers Kaldi's `utils/data/*.sh` scripts);
- `python setup.py COMMAND` with a setuptools command (`build`, `build_ext`, `install`, `develop`,
  `bdist_wheel`, `sdist`, `clean` ...), the path written without a directory, in a shell script
  below the root, when the project has no `setup.py` anywhere: setuptools' idiom builds the
  package of the directory it runs in, and that is another package's checkout (R2E-Gym's install
  scripts, which the project copies into a clone of numpy or pandas and runs there). With a
  directory written (`python tools/setup.py build`), another command, or in a script at the
  root, a Makefile or a CI step, which run in this checkout (nanotron's release workflow runs
  `python setup.py sdist bdist_wheel` with only a `pyproject.toml`), the path is judged.

A `for` loop over static words runs the command with each (`for s in prepare.py train.py; do
python "$s"; done`, `./$s.sh`): every word is judged as if written in the command, and a
missing one is reported on its word in the list, where it is to be fixed, with the command as
the related place; one finding for each missing word. Only when every word of the list is
static (a pattern among them is a word, not judged, as above); a known array's elements count
as the list (`for s in "${SCRIPTS[@]}"`, each reported where the array writes it); a list with
`$VAR`, `$(...)` or an array not known, or a loop whose body sets the variable again, leaves it
unknown.

One finding for each written word: a missing script's path in the value of a variable the script
expands more than once (`CMD="python train.py ..."`, then `$CMD` in both arms of an `if`) is one
mistake, made in one place, and is reported once, at the first of those expansions in the file, with
the others as its related locations ("runs it here too, from the same variable's value"). The same
written word is the same characters of the same assignment, the one the variable last got its value
from before the expansion: a `CMD+=" --x 1"` between two expansions makes them two findings, as do
two lines that each write the word (each is a line to fix) and two messages that differ (a `cd`
between the expansions).

## References
- Configuration: `path-map` (remote path prefix -> project directory), e.g. `/root/: deploy/`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from functools import partial

from launchlint.discover import OTHER_SHELL_EXTENSIONS
from launchlint.graph import (
    below_checkout,
    checkout_names,
    directories_above,
    path_mapped,
    project_resolver,
    runs_setuptools,
    shares_a_directory,
)
from launchlint.launches import (
    after_cd,
    anchored,
    decided_by_caller,
    directory_changes,
    gitignored_there,
    into_the_project,
    missing_own_path,
    moved_before,
    not_ours_after_cd,
    runs_from_its_place,
    sources_of,
    start_directory,
)
from launchlint.model import Finding, Location, Related, Severity
from launchlint.paths import in_a_virtualenv, joined, may_name, names_a_path
from launchlint.rulekit import Example, arm_rules_out, listed, once_per_word
from launchlint.shellfacts import SOURCERS, Word

CODE = "LL303"
NAME = "missing-script"
SEVERITY = Severity.ERROR
SUMMARY = "A launcher runs a script that exists nowhere in the project"

NOT_STATIC = ("~", "$", "`")  # and a pattern, a URL or a template's piece: `paths.names_a_path`
MAX_LISTED = 3  # namesakes named in a message

INVALID = [
    Example(  # a SkyPilot task may run on a plain VM: a Dockerfile here that clones does not make its paths the image's
        {
            "Dockerfile": "FROM python:3.11\nRUN git clone https://github.com/x/bench.git /opt/bench\nWORKDIR /opt/bench\n",
            "task.yaml": "workdir: .\nresources:\n  accelerators: A100:8\nrun: |\n  bash scripts/bench_main.sh --steps 10\n",
        },
        ["LL303 task.yaml:5"],
    ),
    Example(  # in a container of an image whose Dockerfile clones nothing
        {
            "Dockerfile": "FROM python:3.11\nCOPY . /app\nRUN pip install -r requirements.txt\n",
            "helper.py": "print(1)\n",
            "test.sbatch": "#!/bin/bash\nsrun --container-image ./app.sqsh torchrun --nproc_per_node=8 bench/test_internode.py\n",
        },
        ["LL303 test.sbatch:2"],
    ),
    Example(  # on another host, though a Dockerfile of the project clones: the host's files are not the image's
        {
            "Dockerfile.dev": "FROM x\nRUN git clone https://github.com/x/y.git\n",
            "helper.py": "print(1)\n",
            "run.sh": "#!/bin/bash\nssh gpu1 'cd /srv/job && python tools/gone.py'\n",
        },
        ["LL303 run.sh:2"],
    ),
    Example(  # a Kubernetes container, and the Dockerfile's (quoted) WORKDIR is not in its clone
        {
            "Dockerfile": "FROM python:3.11\nRUN git clone https://github.com/x/bench.git /opt/bench\nWORKDIR \"/opt/app\"\n",
            "helper.py": "print(1)\n",
            "job.yaml": (
                "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: bench\nspec:\n  template:\n    spec:\n      containers:\n"
                "        - name: bench\n          image: bench:latest\n          command: [python, tools/run_bench.py, --steps, '10']\n"
            ),
        },
        ["LL303 job.yaml:11"],
    ),
    Example(  # an Ansible task's static script beside a Jinja expression's words (`{{`, `}}/report.json`)
        {
            "files/parse_report.py": "print(1)\n",
            "tasks.yml": '- name: Parse\n  command: "python3 files/parse_reprot.py {{ tool_dir }}/report.json"\n',
        },
        ["LL303 tasks.yml:2"],
    ),
    Example(  # a SkyPilot task `cd`s into the project's `examples/`: another script's clone of that name is no excuse
        {
            "ci/selftest.sh": "#!/bin/bash\ngit clone https://github.com/pytorch/examples.git && cd examples\n",
            "examples/gpt/train.py": "print(1)\n",
            "task.yaml": "resources:\n  accelerators: A100:1\nrun: |\n  cd examples/gpt\n  python3 trian.py\n",
        },
        ["LL303 task.yaml:5"],
    ),
    Example(  # a justfile's recipes: a line of its own shell, a `#!` recipe, a variable's value (pytorch_connectomics)
        {
            "connectomics/utils/__init__.py": "",
            "justfile": (
                "setup_script := 'connectomics/utils/prepare.sh'\n\n# set up the cluster\nsetup-slurm:\n"
                "    bash connectomics/utils/setup_slurm.sh\n\nprepare:\n    #!/usr/bin/env bash\n"
                "    set -euo pipefail\n    bash {{setup_script}} --all\n"
            ),
        },
        ["LL303 justfile:5", "LL303 justfile:10"],
    ),
    Example(  # a Python of a version (`python2.7`, crosentgec's; `python3.11`)
        {"train.py": "print(1)\n", "run.sh": "python2.7 trian.py\npython3.11 -u trian.py\n"},
        ["LL303 run.sh:1", "LL303 run.sh:2"],
    ),
    Example(  # sbatch's options in a variable a sourced file sets, then the job script (dsir's `${cluster_info}`)
        {
            "config.sh": "cluster_info='--partition gpu'\n",
            "glue/run_task.sh": "#!/bin/bash\nsrun python -u run.py\n",
            "glue/submit.sh": "#!/bin/bash\nsource config.sh\njid=$(sbatch --parsable ${cluster_info} glue/run_tsk.sh 1 2)\n",
        },
        ["LL303 glue/submit.sh:3"],
    ),
    Example(  # a checkout of this repository into the workspace again, after another's: its steps run the project's files
        {
            ".github/workflows/bench.yml": (
                "on: push\njobs:\n  bench:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n        with:\n          repository: org/benchmark-suite\n"
                "      - uses: actions/checkout@v4\n      - run: python runbench.py --fast\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL303 .github/workflows/bench.yml:10"],
    ),
    Example(  # inside the background job, after its `cd`, a path is the directory's
        {
            "run.sh": "#!/bin/bash\n(cd server && python server.py) &\ncd server && python client.py &\nwait\n",
            "server/serve.py": "print(1)\n",
            "client.py": "print(2)\n",
        },
        ["LL303 run.sh:2", "LL303 run.sh:3"],
    ),
    Example(  # a notebook converted to HTML makes no script
        {
            "ci.sh": "#!/bin/bash\njupyter nbconvert --to html tutorials/demo.ipynb\npython demo.py\n",
            "tutorials/demo.ipynb": "{}\n",
            "train.py": "print(1)\n",
        },
        ["LL303 ci.sh:3"],
    ),
    Example(  # a setup.py by a path with a directory is judged, with no setup.py in the project or not
        {
            "pyproject.toml": "[project]\nname = 'gym'\n",
            "gym/env.py": "print(1)\n",
            "tools/build.sh": "#!/bin/bash\npython tools/setup.py build_ext --inplace\n",
        },
        ["LL303 tools/build.sh:2"],
    ),
    Example(  # a script in a directory .gitignore hides (a dataset's `data/`) is still the repository's to hold (wespeaker)
        {".gitignore": "data/\n", "tools/combine.sh": "#!/bin/bash\ntools/data/get_segments.sh a b\n", "train.py": "print(1)\n"},
        ["LL303 tools/combine.sh:2"],
    ),
    Example(  # a root script and a CI step build this checkout, whose setup.py is gone (nanotron's release workflow)
        {
            "pyproject.toml": "[project]\nname = 'tron'\n",
            "tron/core.py": "print(1)\n",
            "release.sh": "#!/bin/bash\npython setup.py sdist bdist_wheel\n",
            ".github/workflows/release.yml": (
                "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: python setup.py sdist bdist_wheel\n"
            ),
        },
        ["LL303 .github/workflows/release.yml:7", "LL303 release.sh:2"],
    ),
    Example(  # an array's element set by its index; a variable's value is element 0 of the array `+=` makes
        {
            "run.sh": '#!/bin/bash\nCMD=(python train.py --lr 1)\nCMD[1]=evall.py\n"${CMD[@]}"\nPREP=python\nPREP+=(prep.py)\n"${PREP[@]}"\n',
            "train.py": "print(1)\n",
            "eval.py": "print(1)\n",
        },
        ["LL303 run.sh:3", "LL303 run.sh:6"],
    ),
    Example(  # batch job scripts named for PBS, LSF, Cobalt; an LSF one with no `#!` too (`bsub < job.lsf`: sh(1) commands)
        {
            "pbs/job.pbs": "#!/bin/bash\n#PBS -l select=1\npython trian.py\n",
            "lsf/job.lsf": "#BSUB -nnodes 1\njsrun -n1 python3 trian.py\n",
            "cobalt/job.cobalt": "#!/bin/bash\n#COBALT -n 1\naprun -n 1 python trian.py\n",
            "slurm/job.sl": "#!/bin/bash\n#SBATCH -N 1\nsrun python trian.py\n",
            "train.py": "print(1)\n",
        },
        ["LL303 pbs/job.pbs:3", "LL303 lsf/job.lsf:2", "LL303 cobalt/job.cobalt:3", "LL303 slurm/job.sl:3"],
    ),
    Example(  # the program of an HPC launcher, after its options: jsrun's short ones take their value in the same word
        {
            "job.sh": (
                "#!/bin/bash\njsrun -n6 -c7 -g1 -a1 -bnone -dcyclic python trian.py\njsrun --nrs 2 --rs_per_host 1 python3 -u trian.py\n"
                "ibrun -n 4 -o 0 python trian.py\nflux run -N 2 --env=OMP_NUM_THREADS=1 python trian.py\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL303 job.sh:2", "LL303 job.sh:3", "LL303 job.sh:4", "LL303 job.sh:5"],
    ),
    Example(  # PBS's and LSF's job scripts, after qsub's options (`-l select=2`, `-joe`, `-v K=V`) or on bsub's input
        {
            "pbs/job.pbs": "#!/bin/bash\npython train.py\n",
            "lsf/job.lsf": "#BSUB -nnodes 1\njsrun -n1 python train.py\n",
            "submit.sh": (
                "#!/bin/bash\nqsub -l select=2 -A proj -q prod pbs/jbo.pbs\nqsub -v LR=1 -joe -lwalltime=1:00:00 -F \"--lr 1\" pbs/jbo.pbs\n"
                "qsub < pbs/jbo.pbs\nbsub < lsf/jbo.lsf\nbsub -q gpu -gpu num=2 -nnodes 1 ./lsf/jbo.lsf\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL303 submit.sh:2", "LL303 submit.sh:3", "LL303 submit.sh:4", "LL303 submit.sh:5", "LL303 submit.sh:6"],
    ),
    Example(  # LSF's `bsub CMD` runs its command later, from here: its words, or one string with shell syntax (nnUNet's)
        {
            "submit.sh": (
                "#!/bin/bash\nbsub -n 4 -R \"span[hosts=1]\" -o logs/%J.out python trian.py\n"
                'bsub -q gpu -gpu num=1:j_exclusive=yes -L /bin/bash ". ./env.sh && python trian.py --fold 0"\n'
            ),
            "env.sh": "export PYTHONUNBUFFERED=1\n",
            "train.py": "print(1)\n",
        },
        ["LL303 submit.sh:2", "LL303 submit.sh:3"],
    ),
    Example(  # LLNL's lrun (jsrun's options, its own with their value in their word) and hydra's mpiexec.hydra
        {
            "job.lsf": (
                "#BSUB -nnodes 2\nlrun -T4 -N2 --smpiargs=-gpu python trian.py\n"
                "mpiexec.hydra -n 8 -ppn 4 -genv OMP_NUM_THREADS 4 -bootstrap ssh python trian.py\n"
            ),
            "train.py": "print(1)\n",
        },
        ["LL303 job.lsf:2", "LL303 job.lsf:3"],
    ),
    Example(  # a package renamed (`llava/` to `moellava/`), its old path kept
        {
            "scripts/finetune.sh": "deepspeed llava/train/train_mem.py --deepspeed ./scripts/zero2.json\n",
            "moellava/train/train_mem.py": "print(1)\n",
        },
        ["LL303 scripts/finetune.sh:1"],
    ),
    Example(  # a quoted command: one word, blanks and all, where the file is its first
        {"run.sh": 'ACC="tools/acc.py --coco-dir /data/coco"\npython "$ACC" --verbose\n', "tools/acc.py": "print(1)\n"},
        ["LL303 run.sh:2"],
    ),
    Example(  # a variable's command run in both arms of an `if` is one finding; two lines (or files) that write it are two
        {
            "other.py": "print(1)\n",
            "run.sh": (
                '#!/bin/bash\nCMD=" python gone.py"\nCMD+=" --x $X"\nif [ -z "$LOG" ]; then\n\t$CMD\nelse\n'
                '\t( $CMD ) |& tee "$LOG"\nfi\npython gone.py\npython gone.py\n'
            ),
            "copy.sh": "#!/bin/bash\n\npython gone.py\n",
            "copy2.sh": "#!/bin/bash\n\npython gone.py\n",
        },
        ["LL303 copy.sh:3", "LL303 copy2.sh:3", "LL303 run.sh:5", "LL303 run.sh:9", "LL303 run.sh:10"],
    ),
    Example(  # a module named by its file: python imports it, then stops (its top level has run)
        {
            "pkg/__init__.py": "",
            "pkg/train.py": "print('train')\n",
            "eval.py": "print('eval')\n",
            "run.sh": "python -m pkg.train.py --lr 1\npython3 -m eval.py\n",
        },
        ["LL303 run.sh:1", "LL303 run.sh:2"],
    ),
    Example(  # a script a function's body names by its positional parameters: each call's (`go eval2.py` after `go train.py`)
        {
            "train.py": "print(1)\n",
            "eval.py": "print(2)\n",
            "run.sh": "#!/bin/bash\ngo() { python $1 --lr 1; }\ngo train.py\ngo eval2.py\ngo train.py\n",
        },
        ["LL303 run.sh:2"],
    ),
    Example(  # the words a function runs as a command (its `"$@"`, after a `shift`) run at the call
        {
            "train.py": "print(1)\n",
            "run.sh": '#!/bin/bash\nin_env() {\n  local env="$1"\n  shift\n  conda activate "$env"\n  "$@"\n}\nin_env base python trian.py\n',
        },
        ["LL303 run.sh:8"],
    ),
    Example(  # so do the words it runs through a command that runs its words, or with redirects (`nohup "$@" &`)
        {
            "train.py": "print(1)\n",
            "run.sh": (
                '#!/bin/bash\nrun_bg() { nohup "$@" > /dev/null 2>&1 & }\ntimed() { shift; time "$@"; }\n'
                'logged() { "$@" >> run.log 2>&1; }\nrun_bg python trian.py\ntimed gpu0 python evl.py\nlogged python prep.py --x 1\n'
            ),
        },
        ["LL303 run.sh:5", "LL303 run.sh:6", "LL303 run.sh:7"],
    ),
    Example(  # and the words it gives a command as its arguments (`python $@`, through srun, in the background), at
        # the call (cryodrgn's sweep.sh runs `$SCRIPT`, `abinit_het.py`, which is `abinit_het_old.py`)
        {
            "cryodrgn/commands/abinit_het_old.py": "print(1)\n",
            "sweep.sh": (
                '#!/bin/bash\nfunction run {\n    SETTINGS="-t 72:00:00 -J $N"\n    OMP_NUM_THREADS=1 srun $SETTINGS -- python $@ -o out/$N &\n}\n'
                'SCRIPT="$(pwd)/cryodrgn/commands/abinit_het.py"\nN=het1 run $SCRIPT --zdim 10\n'
                'launch() { python "$@"; }\nlaunch cryodrgn/commands/train.py --x 1\n'
            ),
        },
        ["LL303 sweep.sh:7", "LL303 sweep.sh:9"],
    ),
    Example(  # a loop over static words runs each: every word judged, a missing one reported where the list has it
        {
            "prepare.py": "print('prepare')\n",
            "train.py": "print('train')\n",
            "run.sh": '#!/bin/bash\nfor s in prepare.py \\\n    trian.py; do\n  python "$s" --lr 1\ndone\nfor s in prepare train; do ./$s.sh; done\n',
        },
        ["LL303 run.sh:3", "LL303 run.sh:6", "LL303 run.sh:6"],
    ),
    Example(  # set again in an `if` arm, a loop body or a function nothing calls: its new value for the rest of it
        {
            "train.py": "print('train')\n",
            "run.sh": '#!/bin/bash\nscript=train.py\nif [ -n "$FAST" ]; then\n  script=missing_fast.py\n  python $script\nfi\n',
            "loop.sh": "#!/bin/bash\nfor seed in 1 2; do\n  script=train.py\n  python $script\n  script=eval_fast.py\n  python $script\ndone\n",
            "f.sh": "#!/bin/bash\nscript=train.py\nfast() {\n  script=missing_fast.py\n  python $script\n}\npython $script\n",
        },
        ["LL303 f.sh:5", "LL303 loop.sh:6", "LL303 run.sh:5"],
    ),
    Example(  # each arm of an `if` starts from the shell before it; a `cd` in an arm holds for the rest of that arm
        {
            "prepare.py": "print('prepare')\n",
            "exp/eval.py": "print('eval')\n",
            "arms.sh": '#!/bin/bash\ns=missing_else.py\nif [ -n "$A" ]; then\n  s=prepare.py\nelse\n  python $s\nfi\n',
            "cd.sh": '#!/bin/bash\nif [ -d exp ]; then\n  cd exp\n  python "$(pwd)/prepare.py"\n  python "$(pwd)/eval.py"\nfi\n',
        },
        ["LL303 arms.sh:6", "LL303 cd.sh:4"],
    ),
    Example(  # GNU parallel runs its command, the words before `:::`
        {"sweep.sh": "#!/bin/bash\nparallel -j 2 torchrun --nproc_per_node 1 trian.py --lr {} ::: 1e-4 3e-4\n", "train.py": "print(1)\n"},
        ["LL303 sweep.sh:2"],
    ),
    Example(  # MindSpore's msrun runs its script after its own options, each with a value (also from a static variable)
        {
            "finetune.sh": (
                '#!/bin/bash\nDISTRIBUTED_ARGS="--worker_num 8 --local_worker_num 8 --master_port 6000 --join True"\n'
                "msrun $DISTRIBUTED_ARGS pretrain_internvl.py --lr 1\nmsrun --log_dir=msrun_log --bind_core True pretrain_vlm.py\n"
            ),
            "pretrain_vlm.py": "print(1)\n",
        },
        ["LL303 finetune.sh:3"],
    ),
    Example(  # a default no caller sets (run by hand, it runs), or a default of another word on the line
        {
            "tests/launch.sh": '#!/bin/bash\nSCRIPT_NAME="${SCRIPT_NAME:-test.py}"\npython $SCRIPT_NAME 127.0.0.1:1234 0 2\n',
            "tests/real_test.py": "print(1)\n",
            "train.sh": "#!/bin/bash\ntorchrun --nproc_per_node ${NGPU:-8} trian.py\n",
            "run.sh": "#!/bin/bash\nNGPU=2 bash train.sh\n",
        },
        ["LL303 tests/launch.sh:3", "LL303 train.sh:2"],
    ),
    Example(  # run as the command itself, by a path from the launcher's own directory
        {"launch.sh": '#!/bin/bash\n"$(dirname "$0")/scripts/prepare.sh"\n', "scripts/train.sh": "echo\n"},
        ["LL303 launch.sh:2"],
    ),
    Example(  # into directories the launcher makes and back out: the last path is the root's again
        {
            "download.sh": "mkdir data/alignment\ncd data/alignment\nwget https://x/a.json\ncd ..\ncd ..\npython tools/fetch_images.py\n",
            "data/README.md": "datasets\n",
            "tools/fetch.py": "print(1)\n",
        },
        ["LL303 download.sh:6"],
    ),
    Example(  # a variable named for options among srun's holds options: the command after it runs
        {"train.py": "print('train')\n", "job.sh": '#!/bin/bash\nsrun $SRUN_ARGS -u bash -c "python trian.py"\n'},
        ["LL303 job.sh:2"],
    ),
    Example(  # sbatch's options and their values before the script
        {"jobs/train.sbatch": "#!/bin/bash\nsrun python t.py\n", "submit.sh": "sbatch -N 2 --job-name train \\\n  jobs/trian.sbatch\n"},
        ["LL303 submit.sh:2"],
    ),
    Example(  # a program that opens the script to read it makes nothing
        {
            "gen.py": "print(open('job_gen.sh').read())\n",
            "run.sh": "#!/bin/bash\npython gen.py --config job_gen.sh\nbash job_gen.sh\n",
        },
        ["LL303 run.sh:3"],
    ),
    Example(  # `torchrun --no-python` runs its program itself, by its path
        {
            "scripts/worker.sh": "#!/bin/bash\necho $LOCAL_RANK\n",
            "run.sh": (
                "#!/bin/bash\ntorchrun --nproc_per_node 2 --no-python ./scripts/wroker.sh --steps 1\n"
                "torchrun --no_python scripts/worker_2.sh\n"
            ),
        },
        ["LL303 run.sh:2", "LL303 run.sh:3"],
    ),
    Example(  # an option whose attached value is not static is still one option (a dependency chain, a sweep)
        {
            "jobs/train.sbatch": "#!/bin/bash\nsrun python t.py\n",
            "submit.sh": (
                "#!/bin/bash\nJID=$(sbatch --parsable jobs/train.sbatch)\nsbatch --dependency=afterok:$JID jobs/evl.sbatch\n"
                'sbatch -J"$NAME" --export=ALL,LR=${LR} jobs/trian.sbatch\n'
            ),
        },
        ["LL303 submit.sh:3", "LL303 submit.sh:4"],
    ),
    Example(  # back where it started after `cd -`, `cd ..` or `popd`, or a `cd` in a subshell
        {
            "data/get.sh": "echo get\n",
            "tools/prep.py": "print('prep')\n",
            "run.sh": (
                "#!/bin/bash\ncd data && bash get.sh && cd -\npython tools/prep_data.py\ncd data\ncd ..\n"
                "python tools/prep_data.py\n(cd /opt/tools && make)\npython tools/prep_data.py\n"
                'pushd "$WORK"\npopd\npython tools/prep_data.py\n'
            ),
        },
        ["LL303 run.sh:3", "LL303 run.sh:6", "LL303 run.sh:8", "LL303 run.sh:11"],
    ),
    Example(  # a recipe's own script runs from its recipe, whose copies elsewhere change nothing; a library's
        # script misses a file no directory holding the library has
        {
            "egs/a/path.sh": "export X=1\n",
            "egs/a/local/score.sh": "#!/bin/bash\n. ./path.sh\n. ./cmd.sh\n",
            "egs/b/path.sh": "export X=1\n",
            "egs/b/cmd.sh": "export Y=1\n",
            "egs/b/local/score.sh": "#!/bin/bash\n. ./path.sh\n. ./cmd.sh\n",
            "egs/c/path.sh": "export X=1\n",
            "egs/c/cmd.sh": "export Y=1\n",
            "kaldi/utils/parse_options.sh": "true\n",
            "kaldi/utils/data/fix.sh": "#!/bin/bash\n. utils/parse_options.sh\n. ./cmd.sh\n",
            "egs/a/utils/parse_options.sh": "true\n",
        },
        ["LL303 egs/a/local/score.sh:3", "LL303 kaldi/utils/data/fix.sh:3"],
    ),
    Example(  # a name two files have, neither where the launcher runs it: which one is not said
        {
            "a/train.py": "print('a')\n",
            "b/train.py": "print('b')\n",
            "scripts/run.sh": "#!/bin/bash\npython train.py\n",
        },
        ["LL303 scripts/run.sh:2"],
    ),
    Example(  # a path with directories names a file whose path ends in it, never the project's only namesake elsewhere
        {
            "prep/old/convert.py": "print('old')\n",
            "prep/new/converted.py": "print('new')\n",
            "prep/new/run.sh": "#!/bin/bash\npython prep/new/convert.py --workers 4\npython prep/legacy/split.py\n",
            "prep/old/split.py": "print('split')\n",  # moved: the message names it
            "run.sh": "#!/bin/bash\ncd prep && python new/convert.py\n",  # after a `cd` too: not `use old/convert.py`
        },
        ["LL303 prep/new/run.sh:2", "LL303 prep/new/run.sh:3", "LL303 run.sh:2"],
    ),
    Example(  # run from the directory above the launcher that has the path's directory: renamed there
        {
            "sub/pkg/train/finetune.py": "print('sft')\n",
            "sub/shell/sft/run.sh": "python pkg/train/finetune.py\npython pkg/train/dpo.py\n",
        },
        ["LL303 sub/shell/sft/run.sh:2"],
    ),
    Example(  # a typo, and a script renamed in a directory the project has
        {
            "train.py": "print('training')\n",
            "scripts/prepare.sh": "echo prepare\n",
            "launch.sh": "#!/bin/bash\nbash scripts/prepare_data.sh\ntorchrun --nproc_per_node 8 trian.py --lr 3e-4\n",
        },
        ["LL303 launch.sh:2", "LL303 launch.sh:3"],
    ),
    Example(  # nvidia-resiliency-ext's ft_launcher, torchrun's options and its own --ft-* ones before the program
        {"train.py": "print('training')\n", "launch.sh": "ft_launcher --ft-rank-heartbeat-timeout 450 --max-restarts 5 trian.py\n"},
        ["LL303 launch.sh:1"],
    ),
    Example(  # the launcher in a variable, split by the shell: `torchrun --nproc_per_node 8 trian.py`
        {"train.py": "print('training')\n", "launch.sh": 'LAUNCH="torchrun --nproc_per_node 8"\n$LAUNCH trian.py\n'},
        ["LL303 launch.sh:2"],
    ),
    Example(  # inside tmux and bash -c strings; sbatch; a deepspeed program
        {
            "jobs/eval.slurm": "#!/bin/bash\n#SBATCH --nodes=1\nsrun python eval.py\n",
            "eval.py": "print('eval')\n",
            "submit.sh": (
                "tmux new-session -d -s ev \"python tools/evaluate.py 2>&1 | tee ev.log\"\n"
                "sbatch jobs/train.slurm\nbash -c 'deepspeed --num_gpus 2 finetune.py'\n"
            ),
            "tools/convert.py": "print('convert')\n",
        },
        ["LL303 submit.sh:1", "LL303 submit.sh:2", "LL303 submit.sh:3"],
    ),
    Example(  # run on another host: checked by name, and no file has it
        {
            "deploy/launch.sh": "ssh gpu1 'cd /srv/job && bash start_training.sh > out.log 2>&1'\n",
            "deploy/start.sh": "echo start\n",
        },
        ["LL303 deploy/launch.sh:1"],
    ),
    Example(  # a Ray job's command line, which /bin/sh runs: the program after `VAR=1` words, uploaded with `--working-dir`
        {
            "submit.sh": (
                "ray job submit --working-dir . -- A=1 HF_HOME=/data/hf python3 tools/evaluate.py\n"
                "ray job submit --working-dir . -- A=1 python3 tools/eval.py\n"
            ),
            "tools/eval.py": "print('eval')\n",
        },
        ["LL303 submit.sh:1"],
    ),
    Example(  # a SkyPilot task runs in `~/sky_workdir`, where its workdir (the project) is synced
        {
            "task.yaml": "resources:\n  accelerators: A100:8\nrun: |\n  cd ~/sky_workdir\n  python trian.py\n",
            "train.py": "print('train')\n",
        },
        ["LL303 task.yaml:5"],
    ),
    Example(  # pyxis runs the command in a container: checked by name, and no file has it
        {
            "job.sbatch": "#!/bin/bash\nsrun --container-image nvcr.io/nvidia/pytorch:24.01-py3 python tools/train.py\n",
            "tools/eval.py": "print('eval')\n",
        },
        ["LL303 job.sbatch:2"],
    ),
    Example(  # in a container, a path from this shell's directory into one the project has: the name is checked
        {
            "scripts/job.sbatch": (
                "#!/bin/bash\nARGS=(--container-image /fsx/img.sqsh --container-mounts /fsx:/fsx)\n"
                'srun "${ARGS[@]}" torchrun --nproc_per_node 8 ${PWD}/tools/trian.py\n'
            ),
            "tools/train.py": "print('train')\n",
        },
        ["LL303 scripts/job.sbatch:3"],
    ),
    Example(  # a stale path that starts only in a directory between the launcher and the root (smollm's
        # `vision/experiments/.../tr_341_vsmollm2_05b/x.py`, run from `vision/`): looked for there
        {
            "pyproject.toml": "",
            "sub/exp/a/x.py": "print(1)\n",
            "sub/exp/b/x.py": "print(2)\n",
            "sub/exp/c/z.py": "print(3)\n",
            "sub/jobs/run.sh": "#!/bin/bash\npython exp/old/x.py out\npython exp/old/z.py out\npython exp/old/w.py out\n",
        },
        ["LL303 sub/jobs/run.sh:2", "LL303 sub/jobs/run.sh:3", "LL303 sub/jobs/run.sh:4"],
    ),
    Example(  # a transformers copy's research_projects/rag/ script, run as examples/rag/ from lib/ (its checkout)
        {
            "lib/examples/research/rag/run.sh": "python examples/rag/ft_rag.py\n",
            "lib/examples/research/rag/ft_rag.py": "print(1)\n",
        },
        ["LL303 lib/examples/research/rag/run.sh:1"],
    ),
    Example(  # `cd` there into this shell's own directory (`pwd`, `$PWD` where it is known): this checkout
        {
            "scripts/dit/dit_train.sh": (
                "#!/bin/bash\nDIR=`pwd`\n"
                'srun --container-image nemo:dev bash -c "cd ${DIR} ; python -u nemo/collections/diffusion/train.py $*"\n'
                'ssh gpu1 "cd $PWD/tools && python evaluate.py"\n'
            ),
            "nemo/collections/diffusion/__init__.py": "",
            "tools/eval.py": "print('eval')\n",
        },
        ["LL303 scripts/dit/dit_train.sh:3", "LL303 scripts/dit/dit_train.sh:4"],
    ),
    Example(  # a Compose service runs in its image: a relative path is checked by name only
        {
            "train.py": "print('training')\n",
            "compose.yaml": "services:\n  trainer:\n    image: trainer\n    command: python trian.py --lr 3e-4\n",
        },
        ["LL303 compose.yaml:4"],
    ),
    Example(  # a workflow step runs in its job's `working-directory`, which the project has
        {
            "scripts/train.sh": "python train.py\n",
            ".github/workflows/smoke.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n"
                "    defaults:\n      run:\n        working-directory: scripts\n"
                "    steps:\n      - run: ./trian.sh --smoke\n"
            ),
        },
        ["LL303 .github/workflows/smoke.yml:9"],
    ),
    Example(  # after a `cd` into a directory of the project, the path is looked for there
        {
            "launch.sh": "#!/bin/bash\ncd examples/gpt && torchrun --nproc_per_node 8 trian.py\n",
            "examples/gpt/train.py": "print('train')\n",
        },
        ["LL303 launch.sh:2"],
    ),
    Example(  # there only: not the launcher's directory's, the root's, nor the project's only one of the name
        {
            "launch.sh": "#!/bin/bash\ncd experiments && python train.py --lr 1\ncd ../scripts\nbash prep.sh\n",
            "train.py": "print('train')\n",
            "experiments/eval.py": "print('eval')\n",
            "scripts/setup.sh": "#!/bin/bash\necho setup\n",
            "tools/prep.sh": "#!/bin/bash\necho prep\n",
        },
        ["LL303 launch.sh:2", "LL303 launch.sh:4"],
    ),
    Example(  # the program after torchrun's options in a variable, partly unknown
        {
            "train.py": "print('train')\n",
            "run.sh": 'DIST=" --nproc_per_node 8 --nnodes $NNODES"\ntorchrun $DIST pretrain_gpt.py --lr 1\ntorchrun $DIST train.py\n',
        },
        ["LL303 run.sh:2"],
    ),
    Example(  # a path from the launcher's own directory is looked for there (unless tested first)
        {
            "scripts/train.sh": (
                '#!/bin/bash\npython "$(dirname "$0")/../tarin.py" --lr 3e-4\nD="$(cd "$(dirname "$0")" >/dev/null 2>&1 && pwd)"\n'
                '[ -f "$D/env.sh" ] && source "$D/env.sh"\nsource "$D/common.sh"\nsource "$D/../.venv/bin/activate"\n'
                'uv venv "$D/venv"\nsource "$D/venv/bin/activate"\nsource tools/venv/bin/activate && . tools/venv/etc/profile.d/conda.sh\n'
                'source "$D/scripts/models/m.sh"\npython "$D/thirdparty/tool.py"\n'
            ),
            "scripts/fp8/run.sh": 'source "$(dirname "$0")/../scripts/models/m.sh"\npython "$(dirname "$0")/../vendor/x.py"\n',
            "scripts/models/m.sh": "MODEL_ARGS=(--layers 2)\n",
            "tools/x.py": "print('x')\n",
            "train.py": "print('train')\n",
        },
        ["LL303 scripts/fp8/run.sh:1", "LL303 scripts/train.sh:2", "LL303 scripts/train.sh:5", "LL303 scripts/train.sh:10"],
    ),
    Example(  # a directory from the launcher's own one that is missing, or holds no `__main__.py` for python to run
        {
            "scripts/run.sh": '#!/bin/bash\npython "$(dirname "$0")/../ap" -i x\npython "$(dirname "$0")/../lib" -i x\n',
            "app/__main__.py": "print('app')\n",
            "lib/util.py": "print('util')\n",
        },
        ["LL303 scripts/run.sh:2", "LL303 scripts/run.sh:3"],
    ),
    Example(  # each workflow step runs in a shell of its own: an earlier step's `cd` has ended
        {
            ".github/workflows/smoke.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: cd server && make\n      - run: python main.py --smoke\n"
            ),
            "server/main.py": "print('serve')\n",
            "client/main.py": "print('ask')\n",
        },
        ["LL303 .github/workflows/smoke.yml:7"],
    ),
    Example(  # a launch spec's command list (Valohai), checked by name as in an image
        {
            "valohai.yaml": "- step:\n    name: train\n    command:\n      - pip install -e .\n      - python tools/trian.py {parameters}\n",
            "tools/train.py": "print('train')\n",
        },
        ["LL303 valohai.yaml:5"],
    ),
    Example(  # keys sent to a pane run in its directory: checked by name, and no file has it
        {
            "dev.sh": "#!/bin/bash\ntmux new-session -d -s dev\ntmux send-keys -t dev 'python -u srever.py' C-m\n",
            "server/server.py": "print('serve')\n",
        },
        ["LL303 dev.sh:3"],
    ),
    Example(  # a `cd` inside an ssh string moves the remote shell, not the launcher's
        {
            "launch.sh": "#!/bin/bash\nssh gpu1 'cd /work && nvidia-smi'\nbash scripts/prepare_data.sh\n",
            "scripts/prepare.sh": "echo prepare\n",
        },
        ["LL303 launch.sh:3"],
    ),
    Example(  # a `cd` inside `$(...)` moves only that subshell: the launcher still runs from here
        {"scripts/run.sh": '#!/bin/bash\nROOT="$(cd "$(dirname "$0")/.." && pwd)"\nbash scripts/prepare_data.sh\n'},
        ["LL303 scripts/run.sh:3"],
    ),
    Example(  # a path with directories is no file of another project nested here (its own setup.py): not from here
        {
            "a/setup.py": "",
            "a/run.sh": "bash scripts/prep.sh\n",
            "a/scripts/train.sh": "echo train\n",
            "b/setup.py": "",
            "b/scripts/prep.sh": "echo prep\n",
        },
        ["LL303 a/run.sh:1"],
    ),
    Example(  # a src layout: the project's one `src/pkg/`, installed to run, lacks the module (open_clip's `open_clip_train`)
        {
            "pyproject.toml": "[tool.setuptools.packages.find]\nwhere = ['src']\n",
            "src/mytrain/__init__.py": "",
            "src/mytrain/main.py": "print(1)\n",
            "run.sh": "torchrun --nproc_per_node 8 -m mytrain.mian --lr 1\npython -m mytrain.main --lr 1\n",
        },
        ["LL303 run.sh:1"],
    ),
    Example(  # a launcher of a project nested in this one runs from its root: a module its package lacks
        {
            "sub/pyproject.toml": "",
            "sub/pkg/__init__.py": "",
            "sub/pkg/train.py": "print(1)\n",
            "sub/scripts/run.sh": "python -m pkg.evaluate.loader --x 1\npython -m pkg.train --x 1\n",
        },
        ["LL303 sub/scripts/run.sh:1"],
    ),
    Example(  # and a path into its package that is not there, from any directory of the launcher's
        {
            "sub/setup.py": "",
            "sub/pkg/__init__.py": "",
            "sub/pkg/train.py": "print(1)\n",
            "sub/scripts/other/run.sh": "python pkg/eval/check.py --x 1\npython pkg/train.py\n",
        },
        ["LL303 sub/scripts/other/run.sh:1"],
    ),
    Example(  # a module of the project's own package that is not there (a typo): `python -m`, `torchrun -m`
        {
            "scripts/run_ppo.sh": (
                "#!/bin/bash\npython3 -m verl.trainer.main_ppoo trainer.n_gpus=8\n"
                "torchrun --nproc_per_node 8 -m verl.trainer.sft_trainer\n"
            ),
            "verl/__init__.py": "",
            "verl/trainer/__init__.py": "",
            "verl/trainer/main_ppo.py": "print('ppo')\n",
        },
        ["LL303 scripts/run_ppo.sh:2", "LL303 scripts/run_ppo.sh:3"],
    ),
    Example(  # an MCLI run's integration clones a repository, but the command does not cd into it
        {
            "finetune.yaml": (
                "name: ft\nimage: mosaicml/pytorch:latest\nintegrations:\n- integration_type: git_repo\n"
                "  git_repo: mosaicml/llm-foundry\n- integration_type: pip_packages\n  packages: [numpy]\n"
                "command: |\n  python scripts/train/train.py /mnt/config/parameters.yaml\n"
            ),
            "helper.py": "print('helper')\n",
        },
        ["LL303 finetune.yaml:9"],
    ),
    Example(  # a command kept in an array that an if's arms set differently: the words they agree on are judged
        {
            "train.py": "print('train')\n",
            "run.sh": (
                '#!/bin/bash\nif [ "$FAST" = 1 ]; then CMD=(python prep.py --fast); else CMD=(python prep.py); fi\n"${CMD[@]}"\n'
                'EVAL=(python eval.py)\nif [ -n "$CKPT" ]; then EVAL+=(--ckpt "$CKPT"); fi\n"${EVAL[@]}"\n'
            ),
        },
        ["LL303 run.sh:3", "LL303 run.sh:4"],
    ),
    Example(  # an Azure Pipelines `bash:` step runs its script from the checkout, a `$(macro)` in it unknown
        {
            "scripts/build.sh": "pip install -e .\n",
            "azure-pipelines.yml": (
                "pool:\n  vmImage: ubuntu-latest\nsteps:\n- bash: |\n    ./scripts/build.sh\n    ./build_and_test.sh\n"
                "    bash $(Build.SourcesDirectory)/scripts/test.sh\n  displayName: Run tests\n"
            ),
        },
        ["LL303 azure-pipelines.yml:6"],
    ),
    Example(  # an Azure `Bash@3` task runs the script of its `filePath`, from the checkout
        {
            "scripts/setup.sh": "pip install -e .\n",
            ".azure-pipelines/ci.yml": (
                "steps:\n- task: Bash@3\n  inputs:\n    filePath: scripts/setup.sh\n- task: Bash@3\n  inputs:\n"
                "    targetType: filePath\n    filePath: scripts/run_tests.sh\n    arguments: --fast\n"
            ),
        },
        ["LL303 .azure-pipelines/ci.yml:8"],
    ),
    Example(  # a variable holding the program and words not known, unquoted after python: bash splits it
        {
            "other.py": "print(1)\n",
            "extract.sh": '#!/bin/bash\ncmd="tkgl_wikidata.py --chunk $chunk"\npython -u $cmd\nok="other.py --chunk $chunk"\npython $ok\n',
        },
        ["LL303 extract.sh:3"],
    ),
    Example(  # `${X:=default}` sets X to its default: a later `$X` is it (unless a caller sets X)
        {
            "train.py": "print(1)\n",
            "run.sh": '#!/bin/bash\n: "${SCRIPT:=trian.py}"\npython "$SCRIPT"\n',
            "eval.sh": '#!/bin/bash\n: "${EVAL:=evl.py}"\npython "$EVAL"\n',
            "go.sh": "#!/bin/bash\nEVAL=train.py bash eval.sh\n",
        },
        ["LL303 run.sh:3"],
    ),
    Example(  # after a `cd` to the root the launcher names from its own directory (`$(cd "$(dirname "$0")/.." && pwd)`)
        {
            "scripts/copy_notebook.py": "print(1)\n",
            "scripts/gather.sh": (
                '#!/bin/bash\nROOT_DIR="$(cd "$(dirname "$0")/.." && pwd)"\ncd "$ROOT_DIR"\n'
                "python scripts/copy_notebook.py a\npython scripts/copy_notebok.py a\n"
            ),
        },
        ["LL303 scripts/gather.sh:5"],
    ),
    Example(  # a value the arm's test allows, or an arm whose test is of something else: that path runs
        {
            "scripts/make_fbank.sh": "echo fbank\n",
            "run.sh": (
                '#!/bin/bash\nfeats=raw\nif [ "$feats" = raw ]; then\n  scripts/make_"$feats".sh\nfi\n'
                'if [ -n "$DEBUG" ]; then\n  scripts/make_"$feats".sh\nfi\n'
            ),
        },
        ["LL303 run.sh:4", "LL303 run.sh:7"],
    ),
    Example(  # a Kaldi/ESPnet job runner runs the words after its log: by its name, or through cmd.sh's
        # `$train_cmd` (ibkuroyagi's BirdCLEF 2021 `job.sh`: `python split_20_5.py`, a script that exists nowhere)
        {
            "cmd.sh": 'export train_cmd="run.pl"\n',
            "job.sh": (
                "#!/bin/bash\n. ./cmd.sh\n${train_cmd} --num_threads 2 \"split_20_5.log\" \\\n    python split_20_5.py\n"
                "utils/run.pl -pe smp 4 -V JOB=1:4 exp/log/p.JOB.log python3 prep.py --part JOB\n"
            ),
            "utils/run.pl": "#!/usr/bin/env perl\n",
            "split_train_short.py": "print(1)\n",
        },
        ["LL303 job.sh:4", "LL303 job.sh:5"],
    ),
    Example(  # a script another recipe links or copies into ITS OWN `local/` (icefall's aishell and mdcc link
        # sort_lm_training_data.py; libritts's prepare_lm.sh runs `./local/sort_lm_training_data.py`, which it has not)
        {
            "lib/sortlm.py": "#!/usr/bin/env python3\nprint(1)\n",
            "a/local/prep.py": "print(2)\n",
            "a/path.sh": "export X=1\n",
            "a/run.sh": (
                "#!/bin/bash\n. ./path.sh\nln -snf ../../lib/sortlm.py local/\n./local/sortlm.py\n"
                "cp ../lib/sortlm.py local/sort2.py\npython local/sort2.py\n"
            ),
            "b/local/prep.py": "print(2)\n",
            "b/path.sh": "export X=1\n",
            "b/run.sh": "#!/bin/bash\n. ./path.sh\n./local/sortlm.py\npython local/sort2.py\n",
        },
        ["LL303 b/run.sh:3", "LL303 b/run.sh:4"],
    ),
]

VALID = [
    Example(  # a linked or copied script where its destination is not known: a variable, after a `cd`, from a script that does not say where it runs
        {
            "lib/x.py": "print(1)\n",
            "a/path.sh": "export X=1\n",
            "a/run.sh": (
                "#!/bin/bash\n. ./path.sh\nln -s ../lib/x.py $DEST/\ncd local && ln -s ../../lib/y.py .\n"
            ),
            "b/path.sh": "export X=1\n",
            "b/run.sh": "#!/bin/bash\n. ./path.sh\npython local/x.py\npython local/y.py\n",
            "c/setup.sh": "#!/bin/bash\ncp lib/x.py local/z.py\n",
            "b/local/w.py": "print(1)\n",
            "b/go.sh": "#!/bin/bash\n. ./path.sh\npython local/z.py\n",
        },
    ),
    Example(  # a container of an image a Dockerfile of the project builds with a clone (awsome-distributed-training's uccl-ep)
        {
            "app.Dockerfile": "FROM nvcr.io/nvidia/pytorch:24.05-py3\nRUN apt-get update && \\\n    git clone https://github.com/x/bench.git /opt/bench\nWORKDIR /opt/bench/ep\n",
            "helper.py": "print(1)\n",
            "test.sbatch": "#!/bin/bash\nsrun --container-image ./app.sqsh torchrun --nproc_per_node=8 bench/test_internode.py\n",
        },
    ),
    Example(  # a script a Python step writes with pathlib's `write_text`, run after it
        {
            "gen.py": "from pathlib import Path\nPath('job.sh').write_text('#!/bin/bash\\necho hi\\n')\n",
            "run.sh": "#!/bin/bash\npython gen.py\nbash job.sh\n",
        },
    ),
    Example(  # a file sourced from `$(pwd)/$(dirname $0)` whose function cds into each example's directory (pytorch/examples)
        {
            "utils.sh": "start() { cd $BASE_DIR/$1; }\nrun() { start $1 && $1; }\n",
            "run_examples.sh": (
                '#!/bin/bash\nBASE_DIR="$(pwd)/$(dirname $0)"\nsource $BASE_DIR/utils.sh\n'
                "dcgan() { python main.py --dry-run; }\nmnist() { python main.py --dry-run; }\nrun dcgan\nrun mnist\n"
            ),
            "dcgan/main.py": "print(1)\n",
            "mnist/main.py": "print(1)\n",
        },
    ),
    Example(  # the scripts a function's calls give its body (`go eval.py` after `go train.py`), and one in a loop not known
        {
            "train.py": "print(1)\n",
            "eval.py": "print(2)\n",
            "run.sh": "#!/bin/bash\ngo() { python $1 --lr 1; }\ngo train.py\ngo eval.py\nfor s in $(ls); do go $s; done\n",
        }
    ),
    Example(  # a justfile parameter's default is the caller's (`just prepare tools/other.sh`), as a Makefile's `?=`;
        # a parameter without one, a function, a Python recipe, a Windows one; a recipe in its working directory
        {
            "tools/setup.sh": "echo\n",
            "justfile": (
                "prepare script='tools/gone.sh':\n    bash {{script}}\nrun script:\n    bash {{script}}\n"
                "here:\n    bash {{justfile_directory()}}/gone.sh\npy:\n    #!/usr/bin/env python3\n    import gone\n"
                "[windows]\nwin:\n    bash gone.sh\n[working-directory('tools')]\nsetup:\n    bash setup.sh\n"
            ),
        }
    ),
    Example(  # a package of that name that is not a src layout's, or one of two: which one is installed is not known
        {
            "tools/mytrain/__init__.py": "",
            "src/other/__init__.py": "",
            "a/src/other/__init__.py": "",
            "run.sh": "python -m mytrain.mian\npython -m other.mian\n",
        }
    ),
    Example(  # after a checkout of another repository into the workspace, the steps run its files (auto-sklearn)
        {
            ".github/workflows/bench.yml": (
                "on: push\njobs:\n  bench:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - uses: actions/checkout@v4\n        with:\n          repository: org/benchmark-suite\n"
                "      - run: python runbench.py --fast\n"
            ),
            "train.py": "print(1)\n",
        }
    ),
    Example(  # a `cd` in a background job moves that job's subshell only: the client runs here
        {
            "run.sh": "#!/bin/bash\ncd server && python serve.py &\nsleep 5\npython client.py\n",
            "server/serve.py": "print(1)\n",
            "client.py": "print(2)\n",
        }
    ),
    Example(  # a script a notebook converter writes first (flare's CI runs its tutorial so)
        {
            "ci.sh": (
                "#!/bin/bash\njupyter nbconvert --to script tutorials/demo.ipynb --output-dir .\npython demo.py\n"
                "jupytext --to py:percent tutorials/demo.ipynb -o nb_out\npython nb_out.py\n"
            ),
            "tutorials/demo.ipynb": "{}\n",
            "train.py": "print(1)\n",
        }
    ),
    Example(  # `$mod\\_%A.out` and `$C\\_x.sh` are one word each, as bash reads them (Linguistic-Features)
        {
            "configs/a_x.sh": "echo x\n",
            "b/job.sh": "echo job\n",
            "submit.sh": "C=configs/a\nbash $C\\_x.sh\nmod=logs/slurm/$1\nsbatch -o $mod\\_%A.out -e $mod\\_%A.err b/job.sh\n",
        }
    ),
    Example(  # a program an archive brings (`mv dataset/* .`), which the script removes after running it (PLBART)
        {
            "data/process.py": "print(1)\n",
            "data/download.sh": (
                "#!/bin/bash\nwget https://example.org/dataset.zip\nunzip dataset.zip\nmv dataset/* .\n"
                "python preprocess.py\nrm -r dataset\nrm preprocess.py\n"
            ),
        }
    ),
    Example(  # a module in a package directory a .gitignore's `data/` also hides (AMR-gs's stog/data/)
        {
            ".gitignore": "data/\n",
            "pkg/__init__.py": "",
            "pkg/data/__init__.py": "",
            "pkg/data/prep.py": "print(1)\n",
            "run.sh": "#!/bin/bash\npython -u -m pkg.data.prep --x 1\n",
        }
    ),
    Example(  # a file a .gitignore pattern for outputs hides, in the directory above (SnapKV's `pred*`)
        {
            ".gitignore": "exp/bench/pred*\n",
            "exp/bench/pred_model.py": "print(1)\n",
            "exp/bench/eval.py": "print(2)\n",
            "exp/bench/scripts/run.sh": "CUDA_VISIBLE_DEVICES=0 python pred_model.py --model m\n",
        }
    ),
    Example(  # in a run's directory under one whose every entry .gitignore hides: a run made it
        {".gitignore": "/outputs/*\n!/outputs/README.md\n", "outputs/README.md": "runs\n", "go.sh": "bash outputs/run1/eval.sh\n"}
    ),
    Example(  # a file a .gitignore keeps out of the repository: each user makes their own (swiss-ai's credentials)
        {
            ".gitignore": ".env.sh\nscripts/local_*\n",
            "Makefile": "test:\n\tsource ./.env.sh && bash scripts/local_run.sh\n",
            "scripts/run.sh": "#!/bin/bash\nsource ../.env.sh\n",
            "train.py": "print(1)\n",
        }
    ),
    Example(  # a bare name may be run from any directory: a nested project's (`cd kit && bash ../cmds.sh`) too
        {"cmds.sh": "torchrun --nproc-per-node 4 run.py --data x\n", "kit/setup.py": "", "kit/run.py": "print(1)\n"}
    ),
    Example(  # setuptools' idiom in a project with no setup.py: another package's build recipe, run in its checkout
        {
            "pyproject.toml": "[project]\nname = 'gym'\n",
            "gym/env.py": "print(1)\n",
            "gym/install/numpy_install.sh": (
                "#!/bin/bash\nuv venv --python 3.10\nuv pip install -e .\n.venv/bin/python setup.py build_ext --inplace\n"
                "uv run python setup.py clean --all\npython3 ./setup.py develop\n"
            ),
        }
    ),
    Example(  # a job file that a program fills in with `str.format` before it submits it: its fields name no file
        {
            "job_template.sh": (
                "#!/bin/bash\n#SBATCH --output={log_dir}/slurm-%j.out\n"
                "srun python main_{script}.py --config {config_dir}/base.yaml\n"
            ),
            "main_train.py": "print('train')\n",
        }
    ),
    Example(  # the rest of the path under two other directories, or one part only: another checkout's
        {
            "scripts/a.sh": "deepspeed llava/train/train_mem.py\npython tools/eval.py\n",
            "moellava/train/train_mem.py": "print(1)\n",
            "videollava/train/train_mem.py": "print(1)\n",
            "mytools/eval.py": "print(1)\n",
        }
    ),
    Example(  # after a `cd` into a clone: the clone's
        {
            "scripts/b.sh": "git clone https://x/LLaVA.git && cd LLaVA\ndeepspeed llava/train/train_mem.py\n",
            "moellava/train/train_mem.py": "print(1)\n",
        }
    ),
    Example(  # the rest of the path is the launcher's own directory's: no one directory holds it
        {
            "lib/demos/research/rag/run.sh": "python examples/rag/finetune_rag.py\n",
            "lib/demos/research/rag/finetune_rag.py": "print(1)\n",
        }
    ),
    Example(  # the file is there, though not analysed (excluded): not a renamed package
        {
            ".launchlint.yaml": 'exclude: ["llava/"]\n',
            "scripts/ft.sh": "deepspeed llava/train/train_mem.py\n",
            "llava/train/train_mem.py": "print(1)\n",
            "moellava/train/train_mem.py": "print(1)\n",
        }
    ),
    Example(  # a `pushd` a function runs (its `"$@"`, after a `shift`) moves the script, whose function it is
        # (groundingLMM's GranD/run_pipeline.sh); after one it may run (`shift "$N"`), the directory is not known
        {
            "sub/infer.py": "print(1)\n",
            "sub2/infer.py": "print(2)\n",
            "run.sh": (
                '#!/bin/bash\nin_env() {\n  local env="$1"\n  shift\n  conda activate "$env"\n  "$@"\n}\n'
                "in_env base pushd sub\npython infer.py --x 1\npopd\n"
            ),
            "skip.sh": '#!/bin/bash\nskip() { shift "$N"; "$@"; }\nskip base cd sub\npython infer.py\n',
        }
    ),
    Example(  # the words a function prints, hands to a shell or to another host, or reads twice: no command known here
        {
            "run.sh": (
                '#!/bin/bash\nsay() { echo "$@"; }\nsay ./missing.sh python gone.py\n'
                'note() { printf "%s\\n" "$@" >> notes.txt; }\nnote bash gone.sh\n'
                'remote() { ssh gpu1 python "$@"; }\nremote /srv/gone.py\n'
                'shell() { bash -c "$@"; }\nshell "python gone.py"\n'
                'both() { python "$@" || echo "failed: $*"; }\nboth gone.py\n'
            ),
        }
    ),
    Example(  # a download by a program set in an if's arms (`GET=(wget -q)` or `GET=(wget)`): its `-O` file is made
        {
            "get.sh": (
                '#!/bin/bash\nif [ "$QUIET" = 1 ]; then GET=(wget -q); else GET=(wget); fi\n'
                '"${GET[@]}" -O installer.sh "https://example.com/installer.sh"\nbash installer.sh -b\n'
            ),
        }
    ),
    Example(  # loops over words that all exist, over words not static, a word tested first, a pattern, the variable set again
        {
            "prepare.py": "print('prepare')\n",
            "train.py": "print('train')\n",
            "run.sh": (
                '#!/bin/bash\nfor s in prepare.py train.py; do python "$s"; done\nfor s in train.py $EXTRA; do python $s; done\n'
                'for s in prepare.py eval.py; do [ -f "$s" ] && python "$s"; done\nfor s in train_*.py; do python "$s"; done\n'
                "for s in a.py b.py; do s=train.py; python $s; done\nfor s in $(ls *.py); do python $s; done\n"
            ),
        }
    ),
    Example(  # set differently in the arms of an `if` or a `case`, or in an arm that may not run: not known after it
        {
            "train.py": "print('train')\n",
            "eval.py": "print('eval')\n",
            "run.sh": (
                '#!/bin/bash\ns=train.py\nif [ -n "$A" ]; then s=eval.py; else s=missing.py; fi\npython $s\n'
                't=train.py\ncase "$M" in\n  x) t=missing.py ;;\nesac\npython $t\nif [ -n "$B" ]; then u=eval.py; else u=missing.py; fi\npython $u\n'
            ),
        }
    ),
    Example(  # a name an earlier arm set is not set in the next; after an arm's `cd`, where the shell is is not known
        {
            "exp/eval.py": "print('eval')\n",
            "run.sh": (
                '#!/bin/bash\ncase "$M" in\n  x) t=missing.py ;;\n  *) python $t ;;\nesac\n'
                'if [ -n "$A" ]; then s=missing.py; else python $s; fi\n'
                'if [ -d exp ]; then\n  cd exp\n  cd ..\nfi\npython "$(pwd)/eval.py"\n'
            ),
        }
    ),
    Example(  # a Makefile's `?=` default is whoever runs make's (`make train SCRIPT=...`), as LL302 takes it
        {"Makefile": "SCRIPT ?= pretrain.py\ntrain:\n\tpython $(SCRIPT) --lr 1\n", "tools/eval.py": "print(1)\n"}
    ),
    Example(  # written by a Python step first: a program that opens it for writing, an output option
        {
            "gen.py": "with open('job_gen.sh', 'w') as f:\n    f.write('echo')\n",
            "tools/render.py": "import argparse\n",
            "run.sh": "#!/bin/bash\npython gen.py\nbash job_gen.sh\npython tools/render.py -o run_gen.sh\nbash run_gen.sh\n",
        }
    ),
    Example(  # `torchrun --no-python`: a script of the project, or a command looked up in PATH
        {
            "train.py": "print('train')\n",
            "scripts/worker.sh": "#!/bin/bash\necho $LOCAL_RANK\n",
            "run.sh": "#!/bin/bash\ntorchrun --no-python ./scripts/worker.sh --steps 1\ntorchrun --no-python nvidia-smi -L\n",
        }
    ),
    Example(  # a `cd` inside `$(...)` moves only that subshell, its output sent to /dev/null or not
        {
            "setup.py": "print('build')\n",
            "dev/packaging/build_wheel.sh": (
                '#!/bin/bash\nscript_dir="$( cd "$( dirname "${BASH_SOURCE[0]}" )" >/dev/null 2>&1 && pwd )"\n'
                "python setup.py bdist_wheel\n"
            ),
        },
        [],
    ),
    Example(  # a default that the project's callers override: the script that runs is theirs, a Ray job's too
        {
            "tests/launch.sh": (
                '#!/bin/bash\nSCRIPT_NAME="${SCRIPT_NAME:-test.py}"\npython $SCRIPT_NAME 127.0.0.1:1234 0 2\n'
                "ray job submit --working-dir . -- A=1 python $SCRIPT_NAME 127.0.0.1:1234 0 2\n"
            ),
            "tests/eval.sh": "#!/bin/bash\npython -m ${MODULE:-pkg.evaluate} --split dev\n",
            "tests/real_test.py": "print(1)\n",
            "pkg/__init__.py": "",
            "pkg/score.py": "print(1)\n",
            "ci.sh": (
                "#!/bin/bash\nset -e\nSCRIPT_NAME=tests/real_test.py bash tests/launch.sh\n"
                "export MODULE=pkg.score\nbash tests/eval.sh\n"
            ),
        }
    ),
    Example(  # the directory python runs, from the launcher's own directory, has its `__main__.py` (MONAI's
        # research-contributions)
        {
            "scripts/run.sh": (
                '#!/bin/bash\nHERE=$(dirname "$(readlink -f "$0")")\npython $HERE/../app -i x\n'
                'python "$(dirname "$0")/../app" -i x\n'
            ),
            "app/__main__.py": "print('app')\n",
        }
    ),
    Example(  # python runs a directory's `__main__.py`; on another host, a directory of that name has one
        {
            "run.sh": (
                "#!/bin/bash\npython app --lr 1\npython ./app/ --lr 1\ntorchrun --nproc_per_node 2 app\n"
                "ssh gpu1 'cd /srv && python svc --port 80'\n"
            ),
            "app/__main__.py": "print('app')\n",
            "tools/svc/__main__.py": "print('svc')\n",
        }
    ),
    Example(  # patterns bash expands: not judged, whether or not a file matches
        {
            "run.sh": "#!/bin/bash\npython train_{a,}.py\nbash scripts/run_*.sh\npython eval_{1..3}.py\npython 'tool[12].py'\n",
            "train_a.py": "print('a')\n",
        }
    ),
    Example(  # `cd data` into the directory the launcher has just made, not the project's `data/`
        {
            "data/birds/prepare.sh": "mkdir -p data\ncd data\npython ../prepare.py --out ./images\n",
            "data/birds/prepare.py": "print(1)\n",
            "data/cats/prepare.py": "print(2)\n",  # a namesake: the name alone says nothing
        }
    ),
    Example(  # a runbook's blocks are typed into one terminal: a `cd` carries to the next block
        {
            "RUNBOOK.md": "# Serve\n\n```bash\ncd server\n```\n\n```bash\npython main.py\n```\n",
            "server/main.py": "print('serve')\n",
            "client/main.py": "print('ask')\n",
        }
    ),
    Example(  # keys sent to a pane run where keys sent before took it (`cd server`)
        {
            "dev.sh": (
                "#!/bin/bash\ntmux new-session -d -s dev\ntmux send-keys -t dev 'cd server' C-m\n"
                "tmux send-keys -t dev 'python -u main.py' C-m\n"
            ),
            "server/main.py": "print('serve')\n",
            "client/main.py": "print('ask')\n",
        }
    ),
    Example(  # an option's value is not the script: `-N 1`, `--job-name train`; a script on stdin
        {
            "job.sh": "#!/bin/bash\nsrun python t.py\n",
            "submit.sh": "sbatch -N 1 job.sh\nsbatch --job-name train --time 1:00:00 job.sh\nsbatch -N 2 <<EOF\n#!/bin/bash\nEOF\n",
        }
    ),
    Example(  # no job script: an interactive PBS job, a command (`qsub -- CMD`, bsub's, a name bsub's shell looks up in PATH)
        {
            "submit.sh": (
                "qsub -I -l select=1 -q debug -A proj\nqsub -l select=1 -- /bin/sleep 60\nbsub -n 4 python train.py\n"
                "bsub -q gpu job.lsf\nbsub -cwd /scratch/run ./job.lsf\n"
                'bsub -q gpu -L /bin/bash ". ./env.sh && python train.py"\n'
            ),
            "env.sh": "export PYTHONUNBUFFERED=1\n",
            "train.py": "print(1)\n",
        }
    ),
    Example(  # after sourcing a file that changes directory (in its function too), paths lead anywhere
        {
            "utils.sh": "start() {\n  cd \"$BASE_DIR/$1\" || return 1\n}\n",
            "run.sh": "#!/bin/bash\nsource utils.sh\nmnist() {\n  python main.py\n}\nstart mnist && mnist\n",
            "mnist/main.py": "print('mnist')\n",
            "dcgan/main.py": "print('dcgan')\n",
        }
    ),
    Example(  # written by a heredoc first; on another host, a name the project has twice
        {
            "submit.sh": "cat <<EOF > job.sh\n#!/bin/bash\npython train.py\nEOF\nsbatch job.sh\nssh gpu1 'python train.py'\n",
            "a/train.py": "print('a')\n",
            "b/train.py": "print('b')\n",
        }
    ),
    Example(  # from the parent of a checkout named otherwise (a workflow's `actions/checkout` with `path: proj`)
        {
            "proj/__init__.py": "",
            "scripts/validate.py": "print('ok')\n",
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "        with:\n          path: proj\n      - run: python proj/scripts/validate.py --strict\n"
            ),
        }
    ),
    Example(  # the path is there, from a directory above the launcher; or its directory is nowhere (a clone)
        {
            "sub/pkg/train/dpo.py": "print('dpo')\n",
            "sub/shell/dpo/run.sh": "python pkg/train/dpo.py\npython vendor/repo/train.py\n",
            "s5/conf/sad.conf": "sad_nj=4\n",  # not a file launchlint analyses, but there
            "s5/local/decode.sh": ". ./conf/sad.conf\n",
        }
    ),
    Example(  # a Kubernetes container of an image whose Dockerfile works in its clone, quoted or not (mpi-operator's `WORKDIR "..."`)
        {
            "Dockerfile": "FROM python:3.11\nRUN git clone https://github.com/x/bench.git /opt/bench\nWORKDIR \"/opt/bench\"\n",
            "helper.py": "print(1)\n",
            "job.yaml": (
                "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: bench\nspec:\n  template:\n    spec:\n      containers:\n"
                "        - name: bench\n          image: bench:latest\n          command: [python, tools/run_bench.py, --steps, '10']\n"
            ),
        }
    ),
    Example(  # `docker run` of an image whose Dockerfile works in its clone: `WORKDIR '...'`
        {
            "docker/ep.Dockerfile": "FROM x\nRUN git clone https://github.com/x/ep.git /opt/ep\nWORKDIR '/opt/ep'\n",
            "helper.py": "print(1)\n",
            "run.sh": "#!/bin/bash\ndocker run --rm ep:latest python tools/run_ep.py\n",
        }
    ),
    Example(  # an Ansible task's Jinja expression (`{{ tool_dir }}/x.py`: the word `{{`), filled in when it is rendered (deepops)
        {
            "files/parse_report.py": "print(1)\n",
            "tasks.yml": '- name: Parse\n  command: "python3 {{ tool_dir }}/parse_report.py summary {{ tool_dir }}/report.json"\n',
        }
    ),
    Example(  # a SkyPilot task clones pytorch/examples and `cd`s into it, though the project has its own `examples/`
        {
            "examples/other/tool.py": "print(1)\n",
            "task.yaml": (
                "resources:\n  accelerators: A100:1\nrun: |\n  git clone https://github.com/pytorch/examples.git\n"
                "  cd examples/reinforcement_learning\n  python3 reinforce.py\n"
            ),
        }
    ),
    Example(  # in a container, after a `cd` into the repository the same string clones
        {
            "prep.sh": (
                "srun --container-image nvcr.io/nvidia/nemo:24.01 bash -c "
                '"git clone https://github.com/NVIDIA/NeMo.git; cd NeMo && bash ./reinstall.sh"\n'
            ),
            "train.py": "print('train')\n",
        }
    ),
    Example(  # an MCLI run: its `git_repo` integrations clone before the command, into `path:` or the repository's name
        {
            "mcli/finetune.yaml": (
                "name: ft\nimage: mosaicml/pytorch:latest\nintegrations:\n- integration_type: git_repo\n"
                "  git_repo: mosaicml/llm-foundry\n  git_branch: v0.4.0\n- integration_type: git_repo\n"
                "  git_repo: EleutherAI/gpt-neox\n  path: /workspace/gpt-neox\ncommand: |\n"
                "  cd llm-foundry/scripts\n  composer train/train.py /mnt/config/parameters.yaml\n"
                "  cd /workspace/gpt-neox\n  python prepare_data.py enwik8\n  ./deepy.py train.py configs/small.yml\n"
            ),
            "helper.py": "print('helper')\n",
        }
    ),
    Example(  # on another host, after a `cd` into a directory not known here: another checkout's files
        {
            "run.sh": (
                '#!/bin/bash\nssh gpu1 "cd $REMOTE_DIR && python remote_only.py"\n'
                "ssh gpu2 'cd ~/other && bash start_remote.sh'\nssh gpu3 'cd && python home_only.py'\n"
                'docker exec c1 bash -c "cd $APP && python serve_only.py"\n'
                # `pwd` where this shell's directory is not known, or the remote shell's own
                'cd "$WORK"\nDIR=$(pwd)\nsrun --container-image img bash -c "cd $DIR && python work_only.py"\n'
                "ssh gpu4 'cd $(pwd)/jobs && python job_only.py'\n"
            ),
            "train.py": "print('train')\n",
        }
    ),
    Example(  # in a container, a path from this shell's directory into one the project lacks: a clone's
        # (awsome-distributed-training's `${PWD}/../Megatron-DeepSpeed/finetune_llama.py`, mounted by pyxis)
        {
            "case/scripts/finetune.sbatch": (
                "#!/bin/bash\nARGS=(--container-image /fsx/img.sqsh --container-mounts /fsx:/fsx)\n"
                'srun -l "${ARGS[@]}" torchrun --nproc_per_node 8 ${PWD}/../Megatron-DeepSpeed/finetune_llama.py --lr 1\n'
                "srun --container-image img python $PWD/thirdparty/tool.py\n"
            ),
            "case/train.py": "print('train')\n",
        }
    ),
    Example(  # a path a directory above the launcher has, and one into a directory none has (a clone's)
        {
            "pyproject.toml": "",
            "sub/exp/a/x.py": "print(1)\n",
            "sub/jobs/run.sh": "#!/bin/bash\npython exp/a/x.py\npython clone/exp/x.py\n",
        }
    ),
    Example(  # a command a wrapper starts (sudo) runs where the launcher's `cd` took it
        {"stop.sh": "#!/bin/bash\ncd /home/runner/actions-runner\nsudo ./svc.sh stop\n"}
    ),
    Example(  # a command held in a variable: its `cd` runs first, though both stand at `$RUN`;
        # and the space between two expansions in a string is kept (`./sweep.py --depth`)
        {
            "sweep.py": "print('sweep')\n",
            "run.sh": (
                'RUN="(cd ../Megatron-LM && python pretrain_gpt2.py)"\neval ${RUN}\n'
                'SCRIPT=./sweep.py\nOPT=--depth\neval "python ${SCRIPT} ${OPT} 8"\n'
            ),
        }
    ),
    Example(  # a file the launcher tests for first: it knows the file may be missing
        {
            "run.sh": (
                "#!/bin/bash\n[ -f ./local.env ] && . ./local.env\n"
                "if [[ -r scripts/site_hooks.sh ]]; then\n  bash scripts/site_hooks.sh\nfi\n"
                "test -e prepare.sh && bash prepare.sh\n"
            ),
        }
    ),
    Example(  # found: next to the launcher, from the root, by unique name, a project module
        {
            "scripts/launch.sh": (
                "bash prepare.sh\npython tools/convert.py\nsbatch train.slurm\n"
                "python -m torch.distributed.run --nproc_per_node 2 train.py\npython -m pip install -e .\n"
            ),
            "scripts/prepare.sh": "echo prepare\n",
            "tools/convert.py": "print('convert')\n",
            "jobs/train.slurm": "#!/bin/bash\nsrun python train.py\n",
            "train.py": "print('train')\n",
        }
    ),
    Example(  # modules: found, built from Cython, another package's, a namespace package's, after a cd elsewhere
        {
            "run.sh": (
                "#!/bin/bash\npython -m pkg.train\npython -m pkg.fast\npython -m torch.distributed.run -m pkg.train\n"
                "python -m tools.convert\n(cd /opt/other && python -m pkg.evaluate)\n"
                'out=$(export PYTHONPATH=/opt/other && cd /opt/other && python pkg/reset.py)\n'  # SkyRL's swe_entry.sh
            ),
            "pkg/__init__.py": "",
            "pkg/train.py": "print('train')\n",
            "pkg/fast.pyx": "def f(): pass\n",
            "tools/other.py": "print('other')\n",
        }
    ),
    Example(  # remote absolute paths live on that host, or in that image
        {
            "launch.sh": (
                "ssh gpu1 'bash /root/start_training.sh'\npct exec 200 -- python3 /opt/app/serve.py\n"
                "srun --container-image img --container-mounts /data:/w python /w/train.py\n"
            )
        }
    ),
    Example(  # made by the script first; looked up in PATH; not static
        {
            "submit.sh": (
                "cat > job.sh <<EOF\n#!/bin/bash\npython train.py\nEOF\nsbatch job.sh\n"
                "wget -q https://example.com/install/setup.sh && bash setup.sh\n"
                "source activate torch\n. ~/.bashrc\nsource $HOME/env.sh\nbash \"$RUNNER\"\n"
            ),
            "train.py": "print('train')\n",
        }
    ),
    Example(  # after a cd, into a clone, out of the project
        {
            "run.sh": (
                "git clone https://github.com/NVIDIA/Megatron-LM\n"
                "python Megatron-LM/tools/preprocess_data.py --input data.json\n"
                "python ../../transformers/examples/run_glue.py\n"
                "cd /workspace/other && bash run_all.sh\n"
            ),
        }
    ),
    Example(  # into a repository another script of the project clones; a file another one writes
        {
            "install.sh": (
                "git clone --depth 1 https://github.com/rsennrich/wmt16-scripts.git \"$INSTALL/wmt16-scripts\"\n"
                "git clone https://github.com/moses-smt/mosesdecoder.git\n"
            ),
            "tokenizers/tokenize_zh.py": "print('zh')\n",
            "setup_my.sh": (
                "cd tokenizers/thirdparty && sed 's/unichr/chr/g' myseg.py > seg_my.py\n"
                "python3 -m wget https://example.com/scripts/adjust-versions.py\n"
                "python3 adjust-versions.py requirements.txt\n"
            ),
            "tok.sh": (
                "python tokenizers/thirdparty/wmt16-scripts/preprocess/normalise-romanian.py < in.txt\n"
                "bash mosesdecoder/scripts/tokenizer/tokenizer.sh\npython tokenizers/thirdparty/seg_my.py\n"
            ),
        }
    ),
    Example(  # an absolute path in an image is the image's
        {
            "serve.py": "print('serve')\n",
            "compose.yaml": "services:\n  api:\n    image: api\n    command: python /app/server.py\n",
        }
    ),
    Example(  # a recipe run from its own directory (it sources ./path.sh, which only that has): its
        # utils/ is a link made at set-up, not the root's Python package of that name
        {
            "utils/__init__.py": "",
            "egs/asr/path.sh": "export KALDI_ROOT=/opt/kaldi\n",
            "egs/asr/run.sh": ". ./path.sh\nsteps/train_mono.sh data exp\nutils/mkgraph.sh data exp/graph\nlocal/decode.sh exp\n",
            "egs/asr/local/decode.sh": "utils/fix_data_dir.sh data\n",  # run from egs/asr/ too
            "egs/asr/local/score.sh": ". ./path.sh\nutils/best_wer.sh exp\n",  # sources egs/asr/path.sh
        }
    ),
    Example(  # a shared library's script (Kaldi's utils/) sourcing its own `utils/...` is run from each directory
        # that holds that file too (UniAudio's recipes, beside their path.sh), not only from the library's parent
        {
            "kaldi/utils/parse_options.sh": "true\n",
            "kaldi/utils/data/fix.sh": "#!/bin/bash\n. ./path.sh\n. utils/parse_options.sh\n",
            "egs/a/path.sh": "export PATH=$PWD/utils:$PATH\n",
            "egs/a/utils/parse_options.sh": "true\n",
            "egs/b/path.sh": "export PATH=$PWD/utils:$PATH\n",
            "egs/b/utils/parse_options.sh": "true\n",
        }
    ),
    Example(  # the library's `. ./path.sh` is the file of the recipes that hold a copy of the script
        {
            "kaldi/utils/subset.sh": "#!/bin/bash\n. ./path.sh\n",
            "egs/a/path.sh": "export X=1\n",
            "egs/a/utils/subset.sh": "#!/bin/bash\n. ./path.sh\n",
            "egs/b/path.sh": "export X=1\n",
            "egs/b/utils/subset.sh": "#!/bin/bash\n. ./path.sh\n",
        }
    ),
    Example(  # or that link its directory at set-up (`ln -s ../../kaldi/utils .`); `. parse_options.sh` (no `/`,
        # a PATH lookup) says nothing about where its caller runs
        {
            "kaldi/utils/parse_options.sh": "true\n",
            "kaldi/utils/combine.sh": '#!/bin/bash\n. parse_options.sh\nutils/data/get.sh "$1"\n',
            "kaldi/utils/data/get.sh": "#!/bin/bash\n. ./path.sh\n",
            "egs/a/path.sh": "export X=1\n",
            "egs/a/run.sh": "#!/bin/bash\n[ -d utils ] || ln -s ../../kaldi/utils utils\n. ./path.sh\n",
            "egs/b/path.sh": "export X=1\n",
            "egs/b/run.sh": "#!/bin/bash\nln -sf ../../kaldi/utils .\n. ./path.sh\n",
        }
    ),
    Example(  # a vendored project's own workflow runs in the checkout too, not in an image
        {
            "vendor/open_clip/.github/workflows/ci.yml": (
                "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: |\n          python3 -m venv .env\n          source .env/bin/activate\n"
            ),
        }
    ),
    Example(  # the program on standard input (`bash -s ARGS` too); a file a script writes into a directory known only at run time
        {
            "install.sh": (
                "#!/bin/bash\ncurl -sSL https://example.com/get-tool.py | python3 -\npython - --check < tool.py\n"
                "curl -sSL https://example.com/get.sh | bash -s -- extras.sh\n"
            ),
            "tool.py": "print('tool')\n",
            "scripts/make-env.sh": "#!/bin/bash\necho \"export NCCL_DEBUG=INFO\" > \"$PWD/job.env\"\n",
            "run.sh": "#!/bin/bash\nbash scripts/make-env.sh\n. ./job.env\n",
        }
    ),
    Example(  # a command two arms set, each `python ...`, run by `eval`: no program is known (ALCF's Unet2d.sh)
        {
            "run.sh": (
                '#!/bin/bash\nif [ -e "$UNET/compile.py" ]; then\n  COMMAND="python $UNET/compile.py --w $2"\nelse\n'
                '  COMMAND="python $UNET/unet.py -b $BS"\nfi\neval $COMMAND >> "$OUT" 2>&1\n'
            ),
            "train.py": "print(1)\n",
        }
    ),
    Example(  # an arm that cannot run with the value (ESPnet's `tts.sh`), or whose conditions read it otherwise
        {
            "scripts/make_fbank.sh": "echo fbank\n",
            "scripts/make_stft.sh": "echo stft\n",
            "run.sh": (
                '#!/bin/bash\nfeats=raw\nif [ "$feats" = fbank ]; then\n  scripts/make_"$feats".sh\n'
                'elif [ "$feats" = fbank ] || [ "$feats" = stft ]; then\n  scripts/make_"$feats".sh\nfi\n'
                'case "$feats" in fbank|stft) scripts/make_"$feats".sh ;; esac\n'
            ),
        }
    ),
    Example(  # a vendored recipe's paths up from where it runs and from the directory its `path.sh` says it runs in
        {
            "tools/setup.sh": "echo root tools\n",
            "vendor/espnet/egs/rec/path.sh": ". ../../tools/activate_python.sh\n",
            "vendor/espnet/egs/rec/run.sh": "#!/bin/bash\n. ./path.sh\nscripts/audio/fmt.sh a\n",
            "vendor/espnet/egs/rec/scripts/audio/fmt.sh": '#!/bin/bash\n. utils/parse_options.sh\necho "$1"\n',
            "vendor/espnet/egs/rec/scripts/utils/show.sh": "echo show\n",
        }
    ),
    Example(  # a step in another repository's checkout, or in a directory only an expression names
        {
            "scripts/prepare.sh": "echo prepare\n",
            ".github/workflows/sync.yml": (
                "on: push\njobs:\n  sync:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n        with:\n          repository: org/skills\n"
                "          path: skills-repo\n"
                "      - working-directory: skills-repo\n        run: ./scripts/publish.sh\n"
                "      - working-directory: ${{ matrix.dir }}\n        run: bash build_all.sh\n"
            ),
        }
    ),
    Example(  # a runner's command that exists, and words that are no runner's: no `.log` where `$train_cmd`'s log would be
        {
            "job.sh": (
                "#!/bin/bash\n${cuda_cmd} --gpu 1 JOB=1:4 exp/log/t.JOB.log python3 local/train.py\n"
                "$train_cmd exp/result.txt python3 missing.py\n"
            ),
            "local/train.py": "print(1)\n",
        }
    ),
]


def in_a_cloned_image(project, caller: str, command) -> bool:
    """The command runs in a container, not on another host (`ssh`, `pct exec`): inside `docker
    run`, pyxis's `srun --container-image` (`command.remote`), or as a Compose service's or a
    Kubernetes container's command (its file's `in_container`: not a SkyPilot task's or another
    launch spec's, which may run on a plain VM); and a Dockerfile of the project works in a
    repository it clones into its image (`_image_clones`): a name no file of the project has may
    be that clone's. LL303 asks it of a script, LL304 of a config."""
    return (
        (command.remote or project.shell[caller].in_container)
        and not any(w.kind in ("ssh", "pct") for w in command.wrappers)
        and _image_clones(project)
    )


def _image_clones(project) -> bool:
    """A Dockerfile (Containerfile) of the project works in a repository it clones into its image
    (`RUN git clone https://.../uccl /opt/uccl`, then `WORKDIR /opt/uccl/ep`): a container's
    working directory holds files that are not the project's, so a script there that no file of
    the project is named for may be one of the clone's. Read once a run."""
    found = project.__dict__.get("_image_clones")
    if found is None:
        images = [p for p in project.listing() if _DOCKERFILE.fullmatch(posixpath.basename(p))]
        found = project.__dict__["_image_clones"] = any(_works_in_a_clone(project.text(p) or "") for p in images)
    return found


def _works_in_a_clone(text: str) -> bool:
    """A `WORKDIR` in a directory a `git clone` of the Dockerfile's made (its destination, else
    the repository's name); quoted or not (`WORKDIR "/tensorflow/benchmarks"`, mpi-operator's)."""
    clones = {posixpath.basename((m["dest"] or m["url"].removesuffix(".git")).rstrip("/")) for m in _CLONE.finditer(text)}
    return any(clones.intersection(w.split("/")) for w in _WORKDIR.findall(text))


_DOCKERFILE = re.compile(r"(?:Dockerfile|Containerfile)(?:\..*)?|.*\.[Dd]ockerfile")
_CLONE = re.compile(r"\bgit\s+clone\s+(?:-\S+\s+(?:\d+\s+|[\w.-]+\s+(?=\S+://|git@))?)*(?P<url>\S+)(?:[ \t]+(?P<dest>[^\s&;|\\]+))?")
_WORKDIR = re.compile(r"^\s*WORKDIR\s+[\"']?([^\s\"']+)", re.MULTILINE | re.IGNORECASE)


def check(project) -> list[Finding]:
    found: list[tuple[Word, Finding]] = []  # each missing script, with the word that names it
    names = project_resolver(project).by_name  # the analysed files of each name
    changes = partial(directory_changes, project)  # each launcher's cds, read once in a run
    has_python = any(f.kind == "python" for f in project.files.values())
    made = project.made
    for invocation in project.graph.invocations:
        if invocation.callee is not None:
            continue
        if decided_by_caller(project, invocation.caller, invocation.command.defaults_of(invocation.target)):
            continue  # `python ${SCRIPT:-test.py}`, and a caller sets SCRIPT: the default is not what runs
        if invocation.kind == "module":
            found += ((invocation.target, f) for f in _missing_module(project, invocation, changes))
            continue
        if invocation.kind == "python" and not has_python:
            continue  # a checkout of launchers only: the programs they start live elsewhere
        written = invocation.target.value
        if written is None:
            own = None if invocation.command.remote else missing_own_path(project, invocation.caller, invocation.target)
            if own is not None:
                found.append((invocation.target, _finding(project, invocation, f"leads to {own}, which does not exist")))
            continue
        if not written or any(mark in written for mark in NOT_STATIC) or not names_a_path(written) or in_a_virtualenv(written):
            continue
        namesakes = names.get(posixpath.basename(written), [])
        made_in = partial(_made_there, project, invocation, written, changes)
        if _looked_up_in_path(invocation) or made.holds(written, project, made_in, invocation.caller) or gitignored_there(project, invocation.caller, written):
            continue  # a file the project makes, or one .gitignore keeps out of it (`source ./.env.sh`)
        if not namesakes and _setuptools_elsewhere(project, invocation, written):
            continue  # `python setup.py build_ext`, and the project has no setup.py: another package's build
        if posixpath.normpath(written) in project.shell[invocation.caller].tested:
            continue  # `[ -f x.sh ] && bash x.sh`: the launcher knows it may be missing
        command = invocation.command
        if arm_rules_out(project, command, invocation.target):
            continue  # `mode=raw`, then `if [ "$mode" = fbank ]; then scripts/make_$mode.sh`: never runs so
        remote = command.remote or project.shell[invocation.caller].in_image
        if remote or any(w.cwd_changed for w in command.wrappers):
            # There, after a `cd` into a repository a script clones, the path is that clone's; after
            # one somewhere not known (`ssh gpu1 "cd $REMOTE_DIR && python x.py"`), another checkout's.
            elsewhere = not_ours_after_cd(project, invocation.caller, command, written)
            if not written.startswith("/") and not namesakes and not elsewhere and not _mounted_elsewhere(project, invocation, changes):
                if in_a_cloned_image(project, invocation.caller, command):
                    continue  # a container of an image the project builds with another repository's files
                where = (
                    "on another host or in a container" if command.remote
                    else "where this launch spec starts it" if remote  # a YAML spec's (an NNI trial may run here, in its codeDir)
                    else "in another directory (a tmux pane's, a container's)"
                )  # fmt: skip
                found.append((invocation.target, _finding(project, invocation, f"runs {where}, and no file of the project has that name")))
            continue
        looked = _looked_in(project, invocation, written, changes)
        places, base = _places(project, invocation, written, looked)
        head = written.split()[0] if places and " " in written.strip() else None
        quoted = _looked_in(project, invocation, head, changes) if head is not None else None
        if quoted is not None and any(project.on_disk(joined(base, path)) for base, path in quoted[1]):  # `python "$CMD"`
            program = invocation.command.name or "the program"
            why = f"is one quoted word: {program} looks for a file of that whole name, and `{head}` is the file"
            found.append((invocation.target, _finding(project, invocation, why, fix="remove the quotes, or keep the words in an array", near="")))
            continue
        others = namesakes  # a local relative path names only a file its path ends in: `prep/new/x.py` is not `prep/old/x.py`
        roots = checkout_names(project, invocation.caller)
        namesakes = namesakes if written.startswith("/") else [p for p in others if may_name(written, p, roots)]
        namesakes, whose = _own_project(project, invocation.caller, written, namesakes)
        if places and len(namesakes) == 1:  # where it runs, the project's only file of the name is not
            found.append((invocation.target, _elsewhere(project, invocation, written, places, base, namesakes[0], whose)))
        elif places and namesakes:
            found.append((invocation.target, _finding(project, invocation, f"is not {places}, and {len(namesakes)} files have that name", namesakes, base=base)))
        elif places and others:  # its name's files are all in directories the path cannot name
            found.append((invocation.target, _misnamed_or_moved(project, invocation, written, places, base, others)))
        elif places:
            if not _above_unread(project, invocation.caller, written):
                found.append((invocation.target, _finding(project, invocation, f"is not {places}, and no file has that name", base=base)))
        elif (renamed := _renamed(project, invocation, written, looked)) is not None:
            first, (shown, other) = posixpath.normpath(written).split("/")[0], renamed
            why = f"leads into `{first}/`, which the project does not have, and `{other}/` holds the rest of that path (renamed?)"
            found.append((invocation.target, _finding(project, invocation, why, fix=f"use `{shown}`", near="")))
    return once_per_word(project, found, "runs it here too, from the same variable's value")


def _made_there(project, invocation, written: str, changes, places: frozenset[tuple[str, str]]) -> bool:
    """Whether a script that the project's scripts make only by a `cp` or `ln` into directories
    they name (`places`: each script, and the directory as it writes it: `Made.placed`) is made
    in the directory `written` names: one of those, from the one directory its script says it
    runs from (`run_directory`), is the path's directory from where the launcher runs. icefall's
    aishell recipe (it sources `shared/parse_options.sh`, which only its directory has) links
    `sort_lm_training_data.py` into its own `local/`, not libritts's, whose `prepare_lm.sh` runs
    `./local/sort_lm_training_data.py`. Any may be when a script that makes it does not say
    where it runs (a shared helper, run from each recipe), or where the launcher runs is not known
    (after a `cd`, on another host, in a step's working-directory), or the path is absolute."""
    if written.startswith("/") or not runs_from_its_place(project, invocation.caller, invocation.command):
        return True
    caller = invocation.caller
    run = run_directory(project, caller, changes)
    bases = (run,) if run is not None else (posixpath.dirname(caller), *directories_above(caller), "")
    named = {joined(base, posixpath.dirname(written)) for base in bases}
    for script, directory in places:
        there = run_directory(project, script, changes)
        if there is None or joined(there, directory) in named:
            return True
    return False


def _mounted_elsewhere(project, invocation, changes) -> bool:
    """A path from this shell's directory (`${PWD}/../Megatron-DeepSpeed/x.py`, absolute when it
    runs) into a directory the project does not have, from where the launcher runs
    (`not_the_projects`): in a container that mounts the checkout at its own path (pyxis's
    `srun --container-image ... --container-mounts /fsx:/fsx`), or on a host that shares it,
    another checkout's, as it is here (awsome-distributed-training's `finetune_llama.sbatch`)."""
    return anchored(invocation.command, invocation.target) and not_the_projects(project, invocation, changes)


def _above_unread(project, caller: str, written: str) -> bool:
    """A file of the relative path `written` under a directory between the launcher's and the
    root, which launchlint does not read (one an analysed file would be the project's only file
    of that name, found by it): SnapKV's `.gitignore` line `experiments/LongBench/pred*`, meant
    for prediction folders, hides the committed `pred_snap.py` that its `scripts/` run from there."""
    return not written.startswith(("/", "~")) and any(project.on_disk(joined(d, written)) for d in directories_above(caller))


def _looked_up_in_path(invocation) -> bool:
    """`source activate`, `bash mytool`: a name with no `/` that may be found in PATH."""
    written = invocation.target.value or ""
    if "/" in written or invocation.kind != "shell":
        return False
    return invocation.command.name in ("source", ".") or not written.endswith((".sh", ".bash", *OTHER_SHELL_EXTENSIONS))


def _setuptools_elsewhere(project, invocation, written: str) -> bool:
    """`python setup.py build_ext --inplace` (a setuptools command on the `setup.py` of the
    working directory, no directory written) in a shell script below the root, in a project with
    no `setup.py` anywhere: the build recipe of another package, run in its checkout (R2E-Gym's
    install scripts, which the project copies into a clone of numpy or pandas). Not in a script
    at the root, a Makefile or a CI step, which run in this checkout: nanotron's release workflow
    runs `python setup.py sdist bdist_wheel` where only a pyproject.toml is."""
    caller = invocation.caller
    return (
        invocation.kind == "python"
        and "/" in caller
        and project.files[caller].kind == "shell"
        and posixpath.normpath(written) == "setup.py"
        and runs_setuptools(invocation.target, invocation.args)
    )


def _missing_module(project, invocation, changes) -> Iterator[Finding]:
    """`python -m pkg.train` where the working directory's `pkg` is the project's own package
    (`pkg/__init__.py`: it comes first in `sys.path`, before any installed one) and has no
    `train` in any form (`train.py`, `train/`, `train.pyx`, a built `train.*.so`)."""
    value = invocation.target.value or ""
    parts = value.split(".")
    command = invocation.command
    if len(parts) < 2 or not all(part.isidentifier() for part in parts):
        return
    if command.remote or project.shell[invocation.caller].in_image or any(w.cwd_changed for w in command.wrappers):
        return
    module = "/".join(parts)
    looked = _looked_in(project, invocation, module + ".py", changes)
    if looked is None:
        return
    _, inside, _ = looked
    if parts[-1] == "py":  # `-m pkg.train.py`, `-m train.py`: the module named by its file
        stem = ".".join(parts[:-1])
        found = next((p for base, _ in inside if project.on_disk(p := joined(base, "/".join(parts[:-1]) + ".py"))), None)
        if found is not None:
            yield Finding(
                invocation.target.location,
                f"`{value}` names the module by its file: python imports {stem}, then stops with \"__path__ attribute "
                f"not found on '{stem}'\"; drop the `.py`",
                (Related(Location(found, 1, 1, 1, 1), f"{found} is the module {stem}"),),
            )
            return
    package = parts[0] + "/__init__.py"
    bases = [base for base, _ in inside if project.on_disk(joined(base, package))] or _source_roots(project, package)
    if not bases:
        return  # not the project's package there: an installed one, or a namespace package
    stems = {joined(base, module): base for base in bases}
    if any(project.on_disk(stem, directory=True) or project.on_disk(stem + ".py") for stem in stems):
        return  # on disk, even where a .gitignore's `data/` hides it from the listing (AMR-gs's stog/data/)
    if any(path.startswith(tuple(stem + "." for stem in stems)) for path in project.listing()):
        return
    init = joined(bases[0], package)
    rest = "/".join(parts[1:])
    related = (Related(Location(init, 1, 1, 1, 1), f"python imports this package first, and it has no {rest}.py or {rest}/"),)
    fix = "fix the name, or create it"
    near = project_resolver(project).near(module + ".py", invocation.caller)
    base = next((b for stem, b in stems.items() if near and posixpath.dirname(near) == posixpath.dirname(stem)), None)
    if base is not None:  # a module of the same package
        fix = f"fix the name (did you mean `{posixpath.relpath(near, base or '.')[:-3].replace('/', '.')}`?), or create it"
    message = f"`{value}` is no module of the project's {posixpath.dirname(init)}/ package: python stops with 'No module named {value}'; {fix}"
    yield Finding(invocation.target.location, message, related)


def _source_roots(project, package: str) -> list[str]:
    """The `src/` directory that holds the package (`src/pkg/__init__.py`), when it is the project's
    one package of that name: a src layout, which the project installs to run it (open_clip's
    `src/open_clip_train`). The listing's packages are indexed once a run (`pkg/__init__.py` ->
    their paths): most `-m` launches name a library's package (`torch.distributed.run`)."""
    index = project.__dict__.get("_packages_by_init")
    if index is None:
        index = project.__dict__["_packages_by_init"] = {}
        for path in project.listing():
            if path.endswith("/__init__.py"):
                index.setdefault("/".join(path.split("/")[-2:]), []).append(path)
    found = index.get(package, [])
    if len(found) != 1 or posixpath.basename(posixpath.dirname(posixpath.dirname(found[0]))) != "src":
        return []
    return [posixpath.dirname(posixpath.dirname(found[0]))]


def _places(project, invocation, written: str, looked) -> tuple[str, str | None]:
    """Where the path was looked for (`looked`: `_looked_in`), when all of them are places the
    project has, and the directory it was looked for in when that is one, or the root of the
    project nested here that holds the launcher when that is among them (it is run from there);
    "" when the path may resolve somewhere we cannot see (another directory, a clone, outside the
    root)."""
    if looked is None:
        return "", None
    described, inside, placed = looked
    if any(project.on_disk(joined(base, path)) for base, path in inside):
        return "", None
    above = _outside(project, invocation.caller, written, inside, placed)
    if above is not None:  # "": a directory the project does not have: made at run time, or another checkout
        if not above:
            return "", None
        there = posixpath.dirname(written)  # the part of its directory that is there (`exp/` of a stale `exp/old/`)
        while there and not project.on_disk(joined(above, there), directory=True):
            there = posixpath.dirname(there)
        return f"under {above}/ (above this file, and where {there}/ is)", above
    if len(inside) == 1:
        return described, inside[0][0]
    nested = project_resolver(project).nested_root(invocation.caller)
    return described, nested if any(base == nested for base, _ in inside) else None


def _renamed(project, invocation, written: str, looked) -> tuple[str, str] | None:
    """A path into a directory the project does not have whose rest, two parts or more, is the
    project's under one other directory there, and under no other (LLaVA's forks renamed its
    `llava/` package `moellava/`, `videollava/`, `llamavid/`, and kept scripts that run
    `llava/train/train_mem.py`): that file's path from where the path was looked for, and the
    directory (`looked`: where it was looked for, `_looked_in`). Not after a `cd` or in a step's
    working-directory (another checkout's, there)."""
    parts = posixpath.normpath(written).split("/")
    if len(parts) < 3 or parts[0] in ("..", ".") or written.startswith(("/", "~")):
        return None
    if looked is None or looked[2] or _outside(project, invocation.caller, written, looked[1], False) != "":
        return None  # placed, or into a directory the project has (where the file may be, not analysed)
    rest = "/" + "/".join(parts[1:])
    found = {
        (shown, shown[: -len(rest)])
        for path in project_resolver(project).by_name.get(parts[-1], [])
        for base, _ in looked[1]
        if (not base or path.startswith(base + "/")) and path.endswith(rest)
        for shown in (path[len(base) + 1 :] if base else path,)
        if len(shown) > len(rest) and "/" not in shown[: -len(rest)]  # one directory, then the rest
    }
    return found.pop() if len(found) == 1 else None


def _outside(project, caller: str, written: str, inside: list[tuple[str, str]], placed: bool) -> str | None:
    """Where a path that leads, from every place it is looked for, into a directory the project
    does not have is the project's: the directory above the launcher that has it, which the
    launcher is run from (unless a `cd` or a working-directory placed it), else "" (a clone, a
    download, another checkout). None when it leads into the project."""
    if any(into_the_project(project, base, path) for base, path in inside):
        return None
    return "" if placed else _run_from_above(project, caller, written) or ""


def not_the_projects(project, invocation, changes) -> bool:
    """The script an invocation runs is in a directory the project does not have, from where it
    runs (`deepspeed llava/train/train_mem.py` with no `llava/`: another checkout's): LL303 leaves
    it alone, and LL304 the config files given to it. `changes` is `directory_changes` by launcher."""
    written = invocation.target.value
    looked = _looked_in(project, invocation, written, changes) if written else None
    return looked is not None and _outside(project, invocation.caller, written, looked[1], looked[2]) == ""


def _looked_in(project, invocation, written: str, changes) -> tuple[str, list[tuple[str, str]], bool] | None:
    """How and where (base, path) a path is looked for in the project, and whether a `cd`, a
    step's working-directory or a path map says where (rather than the launcher's place); None
    when it may resolve somewhere we cannot see (after a `cd` to an unknown place, outside the root)."""
    caller = invocation.caller
    declared, start = start_directory(invocation.command)
    cd = after_cd(changes(caller), invocation.command)
    run = None  # where it is run from, when it says so (`_run_directory`)
    if written.startswith("/"):
        mapped = path_mapped(project, written)
        described = f"under the path-map directory {', '.join(d for d, _ in mapped)}"
    elif cd is not None:  # into a directory of the project (`cd examples/gpt`, `cd "$(dirname "$0")"`)
        mapped = [(cd, written)]
        described = "under the project root" if cd == "." else f"under {cd}/, where the launcher cds"
    elif moved_before(changes(caller), invocation.command):
        return None  # a `cd`/`pushd` to somewhere we may not know runs first
    elif declared:  # the step's `working-directory`: another checkout's, often
        if start is None:
            return None
        mapped = [(start, written)]
        described = "under the project root" if start == "." else f"under {start}/, the step's working-directory"
    elif (run := _run_directory(project, caller, changes, MAX_CALLERS_UP)) is not None:  # it says where: placed
        directory, library = run
        mapped = [(directory, written)]
        described = f"under {directory}/, where this file is run from (it sources a file only that directory has)"
        if library is not None:  # a shared library's script (Kaldi's `utils/`): also run from each directory holding it
            mapped += [(d, written) for d in _holding(project, caller, written, library)]
            described = f"under {directory}/ or another directory with the `{library}` it sources"
    else:  # where the resolver looks: its own directory, its nested project's root, the root
        _, *nested, _ = directories = project_resolver(project).run_from(caller)
        mapped = [(directory, written) for directory in directories]
        # and the root's parent, by the name the checkout goes by there (NASLib's `base_file=NASLib/naslib`)
        mapped += [("", rest) for rest in below_checkout(project, caller, written)]
        described = "next to this file or under the project root"
        if nested:
            described = f"next to this file, under {nested[0]}/ (its own project's root) or under the project root"
        if invocation.command.name in SOURCERS and "/" not in posixpath.normpath(written):  # `. ./path.sh`
            mapped += [(d, written) for d in _holding(project, caller, written)]
        elif _through_a_link(project, caller, written):
            return None
    inside = [(base, path) for base, path in mapped if not joined(base, path).startswith("../")]
    return (described, inside, bool(declared or cd is not None or run or written.startswith("/"))) if inside else None


MAX_CALLERS_UP = 3  # scripts run by scripts run by a recipe's run.sh


def run_directory(project, caller: str, changes) -> str | None:
    """The one directory a launcher says it is run from (`_run_directory`: a Kaldi recipe's
    `run.sh` sources `./path.sh`, which only its own directory has); None when nothing says, or
    for a shared library's script, run from every directory that holds the library. LL304 asks
    it of a config path that climbs up from there, `_made_there` where a `cp` or `ln` copies."""
    run = _run_directory(project, caller, changes, MAX_CALLERS_UP)
    return run[0] if run is not None and run[1] is None else None


def _run_directory(project, caller: str, changes, hops: int) -> tuple[str, str | None] | None:
    """Where a launcher is run from when it says so: it sources a file by a relative path that only
    its own directory, or one above it, has (`. ./path.sh` in a Kaldi recipe, run as `cd egs/x &&
    ./run.sh`; its `local/x.sh` sources the same `./path.sh`), or a launcher run from such a
    directory runs it without a `cd` first (the recipe's `local/decode.sh`). A path it names is
    then not the root's (`utils/mkgraph.sh`, Kaldi's link, where the root has a Python `utils/`).
    With it, the sourced path when it leads into the launcher's own directory (`utils/parse_options.sh`
    from Kaldi's `utils/data/x.sh`): a shared library's script, run as well from every directory
    that holds the library (`_holding`). None when nothing says; a name with no `/` says nothing
    (bash looks it up in PATH: Kaldi's `path.sh` puts `utils/` there)."""
    if "/" not in caller:
        return None
    for _, command in sources_of(project, caller)[0]:
        value = command.words[1].value if len(command.words) > 1 and not command.wrappers else None
        if value and "/" in value and not value.startswith(("/", "~", "../")) and not project.on_disk(posixpath.normpath(value)):
            for base in (posixpath.dirname(caller), *directories_above(caller)):
                if project.on_disk(joined(base, value)):
                    first = posixpath.normpath(value).split("/")[0]
                    return base, value if caller.startswith(joined(base, first) + "/") else None
            linked = _linked_library(project, caller, value)
            if linked is not None:
                return linked, value
    asked = set()  # a script that runs the launcher many times is asked once (80 calls, 3 hops deep: 80^3)
    for invocation in project.graph.callers(caller) if hops else ():
        other = invocation.caller
        if invocation.kind == "shell" and other in project.shell and other not in asked and not moved_before(
            changes(other), invocation.command
        ):
            asked.add(other)
            run = _run_directory(project, other, changes, hops - 1)
            if run is not None:
                return run
    return None


def _linked_library(project, caller: str, sourced: str) -> str | None:
    """Where a script of a shared library that sources a file of the library by the path from its
    directory's parent (`utils/parse_options.sh` in ESPnet's own `utils/show.sh`), a file no
    directory of the project has, is run from: a directory where another script sources that path
    too and the library's directory is a symbolic link not resolved here (each ESPnet recipe's
    `utils`, a link into Kaldi, valid once Kaldi is installed under `tools/`). None when none is."""
    first = posixpath.normpath(sourced).split("/")[0]
    if first in ("..", ".") or not (caller.startswith(first + "/") or f"/{first}/" in caller):
        return None
    known = project.__dict__.setdefault("_sourcing", {})  # asked once a run for each path sourced
    if sourced not in known:
        known[sourced] = [
            path for path in project.shell if any(len(c.words) > 1 and c.words[1].value == sourced for _, c in sources_of(project, path)[0])
        ]
    for path in known[sourced]:
        link = joined(posixpath.dirname(path), first)
        if path != caller and _link_not_here(project, link):
            return posixpath.dirname(path)
    return None


def _link_not_here(project, path: str) -> bool:
    """Whether `path` is a symbolic link the project holds to no directory here (a recipe's
    `utils`, a link into a Kaldi installed later)."""
    return project.on_disk(path) and not project.on_disk(path, directory=True)


def _through_a_link(project, caller: str, written: str) -> bool:
    """Whether a path leads, from the launcher's directory or one above it (where it may be run
    from), through such a link: EEND's recipes run Kaldi's `utils/fix_data_dir.sh` through their
    `utils` link, which a root's own unrelated `utils/` does not make missing (hitachi-speech/EEND,
    49 findings, helper-336)."""
    first, _, rest = posixpath.normpath(written).partition("/")
    if not rest or first in ("..", ".", "~") or written.startswith("/"):
        return False
    return any(_link_not_here(project, joined(base, first)) for base in (posixpath.dirname(caller), *directories_above(caller)))


def _holding(project, caller: str, written: str, sourced: str | None = None) -> list[str]:
    """The directories of the files `written` names (the project's files of its name ending in its
    path) that hold the launcher's library, from which the launcher, a script of a shared library
    (Kaldi's `utils/`, copied or linked into each recipe beside its `path.sh`), may be run: they have
    the library's file it sources (`sourced`: `utils/parse_options.sh`), or the launcher at its path
    from one of its directories (a copy, or a link to that directory: `utils/data/x.sh`), or a script
    there links one of its directories into it (`ln -s ../tools/kaldi/utils .`)."""
    tail = posixpath.normpath(written)
    if tail.startswith("../"):
        return []
    ancestors = [posixpath.dirname(caller), *directories_above(caller)]
    own = [caller[len(posixpath.dirname(d)) :].lstrip("/") for d in ancestors]  # `utils/data/x.sh`, `data/x.sh`
    found = []
    for path in project_resolver(project).by_name.get(posixpath.basename(tail), []):
        directory = path[: -len(tail) - 1] if path.endswith("/" + tail) else None
        if directory is None or directory in ancestors:
            continue
        if (
            sourced is not None and project.on_disk(joined(directory, sourced))
            or any(project.on_disk(joined(directory, rest)) for rest in own)
            or not project.made.links.get(directory, frozenset()).isdisjoint(ancestors)
        ):
            found.append(directory)
    return found


def _run_from_above(project, caller: str, written: str) -> str | None:
    """The nearest directory above the launcher's own (not the root) that has the path's whole
    directory, where the launcher is run from (`internvl_chat/shell/x/run.sh` runs
    `internvl/train/train.py`, which is `internvl_chat/internvl/train/`): as the resolver looks
    for a path that exists (`Resolver._above`); else the nearest one the path starts in a
    directory of, as the root and the launcher's own directory are judged (`into_the_project`:
    smollm's `vision/experiments/.../tr_341_smolvlm_025b_1st_stage/x.slurm` runs a stale
    `experiments/pretraining/vloom/tr_341_vsmollm2_05b/x.py` from `vision/`). None when none has
    it, or when the file itself is under one of them (through a link to a directory, which
    discovery does not follow). Not a path up from where it runs (`../../tools/activate_python.sh`
    in a recipe's `path.sh`): from a directory above, it would name another place (easyrobust's
    root `tools/`)."""
    directory, found = posixpath.dirname(written), None
    if posixpath.normpath(written).startswith("../"):
        return None
    parents = list(directories_above(caller)) if directory else []
    for parent in parents:
        if project.on_disk(posixpath.join(parent, written)):
            return None
        if found is None and project.on_disk(posixpath.join(parent, directory), directory=True):
            found = parent
    return found if found is not None else next((parent for parent in parents if into_the_project(project, parent, written)), None)


def _finding(
    project, invocation, why: str, namesakes: Sequence[str] = (), fix: str | None = None, near: str | None = None, base: str | None = None
) -> Finding:
    """`written` and why it is missing; then the fix: the file of the nearest name as a
    did-you-mean (`near`, else `Resolver.near`'s), or the path of one of the files that have its
    name (related locations), from `base`, the directory the path is read from, when known."""
    written = invocation.target.text
    # those ending in most of the written path first (`nas/runner.py`: `runners/nas/runner.py`, not `evaluators/runner.py`)
    parts = posixpath.normpath(written).split("/")[::-1]
    ranked = sorted(namesakes, key=lambda p: (-_shared_tail(p.split("/")[::-1], parts), p))
    related = tuple(Related(Location(p, 1, 1, 1, 1), f"{p} has that name") for p in ranked[:MAX_LISTED])
    if fix is None:
        fix = "fix the path, or create it"
        if namesakes:
            fix = "use the path of the one meant" if _akin(invocation, written, namesakes) else "fix the path, or run it from the checkout it belongs to"
            tails = [_shared_tail(p.split("/")[::-1], parts) for p in ranked[:2]]
            here = posixpath.dirname(invocation.caller) if base is None else base  # where it runs, after a `cd` too
            below = [p for p in ranked if here and p.startswith(here + "/")]
            if len(ranked) > 1 and tails[0] > max(tails[1], 1) and _akin(invocation, written, namesakes):
                # only one ends in the path's directory too (ParroT's `examples/seq2seq/run_eval.py`:
                # `examples/legacy/seq2seq/run_eval.py`, not `examples/rag/run_eval.py`)
                fix = f"use the path of the one meant (`{_from(project, invocation, written, ranked[0], base) or ranked[0]}`?)"
            elif len(ranked) > 1 and len(below) == 1 and "/" not in written:
                # a bare name, and only one is under the launcher's directory (mllm-uncertainty's
                # `lvlm/run_*_all_tasks.sh` running `gemma3_vanilla.py` of `lvlm/model_scripts/`)
                fix = f"use the path of the one meant (`{below[0][len(here) + 1 :]}`?)"
    if near is None and not namesakes:
        near = project_resolver(project).near(written, invocation.caller)
    elif near is None:  # namesakes elsewhere: a close name beside the launcher comes first (`x.sh` for its `x_cls.sh`)
        close = project_resolver(project).near(written, invocation.caller, namesakes=False)
        near = close if close and posixpath.dirname(close) == posixpath.dirname(invocation.caller) else None
    if near and near != invocation.caller:  # never the launcher itself (`run_analysis.sh` for `run_analysis.py`)
        fix = f"fix the path (did you mean `{project_resolver(project).as_written(near, written, invocation.caller, base)}`?), or create it"
        related = (Related(Location(near, 1, 1, 1, 1), f"{near} is a file of the project"), *related)
    if invocation.looped and not invocation.command.location.holds(invocation.target.location):  # the word of the loop's list: where the command runs it
        related += (Related(invocation.command.location, f"{invocation.caller} runs it here, the loop's variable taking each word of the list"),)
    taken = invocation.command.defaults_of(invocation.target)  # `${1:-main.py}`: what runs when no caller passes it
    shown = f"`{written}` ({listed([f'`${name}`' for name in sorted(taken)])}'s default)" if taken else f"`{written}`"
    return Finding(invocation.target.location, f"{shown} {why}; {fix}", related)


def _shared_tail(path: list[str], written: list[str]) -> int:
    """How many last parts two paths (their parts, last first) have in common."""
    return next((i for i, (a, b) in enumerate(zip(path, written)) if a != b), min(len(path), len(written)))


def _akin(invocation, written: str, namesakes: Sequence[str]) -> bool:
    """Some file of the name may be the one meant (`shares_a_directory`). None is for
    `detection/run.sh` running yolov5's `train.py` in a clone, the project's trainers of the name
    in `seg/` and `cls/`: they are no fix (MONAI's tutorials have that shape, but a sibling
    `classification_files/train.py` shares their directories)."""
    return shares_a_directory(invocation.caller, written, namesakes)


def _misnamed_or_moved(project, invocation, written: str, places: str, base: str | None, others: list[str]) -> Finding:
    """A relative path with directories that no file of its name ends in. Misnamed, when the
    directory it names has a file of a close name (Pointcept's `.../concerto/hm3d/preprocess_hm3d.py`
    is the `preprocessed_hm3d.py` there, not the older pipeline's `.../hm3d/preprocess_hm3d.py`);
    else moved, to where its namesakes are (Megatron-LM's `examples/detxoify_lm/x.py`, now under
    `examples/academic_paper_scripts/`)."""
    near = project_resolver(project).near(written, invocation.caller, namesakes=False)
    roots = checkout_names(project, invocation.caller)
    if near and may_name(posixpath.join(posixpath.dirname(written), posixpath.basename(near)), near, roots) and _closer(near, written, others):
        return _finding(project, invocation, f"is not {places}, and no file ends in that path", near=near, base=base)
    others, whose = _own_project(project, invocation.caller, written, others)
    if len(others) == 1:
        return _elsewhere(project, invocation, written, places, base, others[0], whose)
    return _finding(project, invocation, f"is not {places}, and {len(others)} files have that name", others, base=base)


NEARLY_THE_NAME = 0.9  # how alike a close name must be to win over the one file of the very name


def _closer(near: str, written: str, others: list[str]) -> bool:
    """Whether the close name in the directory the path names is the fix rather than the
    project's one file of the very name elsewhere: only when it is nearly the name (Pointcept's
    `preprocessed_hm3d.py` for `preprocess_hm3d.py`, 0.95 alike), not another program of a like
    name (DMD2's `main/train_sd.py` for `main/train_edm.py`, 0.87, where `main/edm/train_edm.py`
    is); with several files of the name, any close name there is."""
    from difflib import SequenceMatcher  # here: only a missing path asks

    return len(others) != 1 or SequenceMatcher(None, posixpath.basename(near), posixpath.basename(written)).ratio() >= NEARLY_THE_NAME


def _own_project(project, caller: str, written: str, files: list[str]) -> tuple[list[str], str]:
    """The files of a missing path's name that the launcher's own nested project holds, when
    other nested projects hold some too (a vendored copy's scripts name its own files, not its
    sibling copies': KVQuant holds three checkouts of transformers), with "its own project's";
    else all of them, with "the project's". A bare name may be any directory's: all of them."""
    if len(files) > 1:
        answers_for = project_resolver(project).answers_for
        own = [path for path in files if answers_for(path, caller, written)]
        if own and len(own) < len(files):
            return own, "its own project's"
    return files, "the project's"


def _elsewhere(project, invocation, written: str, places: str, base: str | None, namesake: str, whose: str = "the project's") -> Finding:
    """`train.py` after `cd experiments`, where the project's only train.py is at the root: not
    missing from the project, but from where it runs; the path from there, when it is relative,
    and the file is one the path may name from there (not another nested project's:
    `Resolver.answers_for`). `whose`: "the project's", or "its own project's" (nested) when other
    nested projects have files of the name too."""
    said = f"is not {places}: {whose} only file of that name is `{namesake}`"
    # the file of that name is the fix, not one of a close name beside the launcher (`near=""`):
    # deita's `examples/scoring/x_dataset.py` is its `examples/pipelines/x_dataset.py`, not the `x.py` there
    shown = _from(project, invocation, written, namesake, base)
    return _finding(project, invocation, said, (namesake,), "fix the path" if shown is None else f"use `{shown}`", near="")


def _from(project, invocation, written: str, namesake: str, base: str | None) -> str | None:
    """How the launcher would write the path of `namesake`: from `base`, the directory it reads a
    relative path from, when known and the file is one the path may name from there (not another
    nested project's: `Resolver.answers_for`); else None."""
    if base is None or written.startswith("/") or not project_resolver(project).answers_for(namesake, invocation.caller, written):
        return None
    return posixpath.relpath(namesake, base or ".")
