"""## What it does
Finds a launcher that hands a Python program a config file that exists nowhere in the project:
`--config x.yaml`, `--config_file`/`--config-file`, `--deepspeed ds.json`, `--deepspeed_config`,
accelerate's `launch --config_file`, the program's own spellings of those options, and Hydra's
`--config-path`/`--config-name`. The file is looked for as LL303 looks for a script, and the
message offers a file of a similar name ("did you mean `configs/llama7b.yaml`?") where LL303
offers a script's: at the root or in a directory the launcher's path or the written path names.

## Why is this bad?
The program opens its config only after the job has waited in the queue, the container has
started and every rank has imported torch: minutes later, each rank dies with
`FileNotFoundError: [Errno 2] No such file or directory: 'configs/llama7b.yml'` (Hydra:
`MissingConfigException: Cannot find primary config 'ppo_trainer'`), and a renamed or
never-committed config is the usual reason.

## Example
```bash
# launch.sh
torchrun --nproc_per_node 8 train.py --config configs/llama7b.yml
```
```yaml
# configs/llama7b.yaml
lr: 3.0e-4
```

## Use instead
```bash
# launch.sh
torchrun --nproc_per_node 8 train.py --config configs/llama7b.yaml
```
```yaml
# configs/llama7b.yaml
lr: 3.0e-4
```

## Details
The programs: a Python program or a launcher's (`python`, `torchrun`, `./x.py`, ...), and a console
script the project's own packages declare, run by its name (`fq-train --config x.yaml`: LL301 says
how they are read); not another command (`prep-features --config conf/b.yaml`), nor `command -v`.

The options:
- `--config`, `--config_file`/`--config-file`, `--config_path` (a file by its suffix, as every
  one of these: `.yaml`, `.yml`, `.json`, `.toml`, `.py`, `.cfg`, `.ini`, `.conf`, `.config`, `.gin`;
  Hydra's is `--config-path`), `--deepspeed`, `--deepspeed_config`, accelerate's
  `launch --config_file`, ft_launcher's `--ft-cfg-path` (nvidia-resiliency-ext's fault-tolerance
  config, which the launcher reads before it starts a rank), BasicSR's `-opt` (`python
  basicsr/train.py -opt options/train/x.yml`, its forks' in low-level vision too: DAPS's vendored
  `bkse/train_script.sh` names a file it lacks), `--config_env`/`--config_exp` (SCAN's and
  Multi-Task-Transformer's), `--base` (latent-diffusion's `main.py --base configs/x.yaml` and its
  family's: generative-models, CogVideo's `sat`, VideoCrafter), `--dataset_config` (sd-scripts'
  dataset TOML), `--cfg-path`/`--cfg_path` (LAVIS's and MiniGPT-4's, which open it themselves:
  `OmegaConf.load(args.cfg_path)`). Not `--cfg`: habitat's
  `--cfg benchmark/rearrange/demo/idle.yaml` is looked up by `habitat.get_config` in the
  installed package's config directory, a search path no launcher shows;
- the program's own spellings of those options when its parser is known (`-c x.yaml` for a
  `-c/--config`, argparse's unambiguous prefix `--conf x.yaml`); and when it declares one that
  takes several values (`nargs='+'`, `'*'` or a number), each of them (OpenOOD's `--config
  a.yml b.yml c.yml`), up to the next word that starts with `-`;
- Hydra's `--config-path`/`--config-name` (or `-cp`/`-cn`): the name is looked up inside the
  config path, `.yaml` added, and a relative config path is relative to the Python file that
  declares `@hydra.main`, not to the working directory. Without `--config-path`, the name is
  looked up in the literal `config_path` that `@hydra.main(...)` declares, unless a module
  registers a config of that name in code with `ConfigStore.store`; when that directory is gone
  from a project directory that is there (lama's `config_path='../configs/data_gen/whydra'`),
  the `--config-name` is reported: Hydra stops with 'Primary config directory not found'. A thin entry point that
  calls, at its top level, an imported function of one project module declaring `@hydra.main`
  (rl4co's `run.py`) is that module's program: its config path is relative to that file. Any
  other program that does not import hydra has options of those names of its own, which this
  rule leaves alone. A config
  path from `pwd` (`--config-path $(pwd)/conf`, `$PWD/conf`, or a variable set from one) is
  absolute when it runs, relative to no file: also through a wrapper (`nohup`, `timeout`, `ray
  job submit --`) and in a string the outer shell expands first (`bash -c "... $(pwd)/conf"`).
  A config path that does not exist has, as a related location, the project's one config of the
  name `--config-name` gives, where a "did you mean" looks, with the `--config-path` that finds
  it from the program (`--config-path=${BASEDIR}/recipe/x/configs` with a placeholder
  `BASEDIR=base_dir`: `../../recipe/x/configs`). `--config-dir DIR` (`-cd`) with no
  `--config-path` adds DIR, relative to where the command runs: the name is looked up there and
  in `@hydra.main`'s config path (ONE-PEACE's run scripts); not judged after a `cd`, or when DIR
  is no directory of the project.

The arguments of code written in the command itself (`python -c CODE --config x.yaml`, `python -
<<EOF`) are not read: no program file says it opens them.

Where a path is looked for, as LL303 finds a script:
- next to the launcher, at the project root, under a configured `path-map` prefix, or as the
  project's unique file of that name (a bare name that several files have, none in those places,
  is reported: the name does not say which); a path with directories, also as a file whose path
  ends in it (the launcher may `cd` first), but never one in a project nested here (its own
  `pyproject.toml`, `setup.py`, `setup.cfg`, `.launchlint.yaml` or `.git`) that does not hold the
  launcher: `scripts/train.sh` running the root's `./train.py --deepspeed scripts/zero2.json`
  where only a vendored `llava/scripts/zero2.json` exists is reported, and its did-you-mean is
  that file;
- locally, an absolute path is checked only when a `path-map` prefix claims it for the project
  (`/root/c.yaml` with `/root/: deploy/` is `deploy/c.yaml`); else it lives on the machine that
  runs the job;
- a path from the launcher's own directory (`--deepspeed_config "$(dirname "$0")/ds.json"`,
  `"$HERE/ds.json"`) names one place, and is looked for there alone;
- a path up (`../`) that leaves the project from a directory the launcher may run from (its own,
  one above it) or from the program's is not judged: `../../conf/x.yaml` in `egs/b/s0/run.sh`,
  run from `egs/`, is another checkout's. Unless the launcher says where it runs (it sources a
  file only its own directory has, `. ./path.sh`, as LL303 reads a Kaldi recipe) and the path
  leads from there into a directory the project has: then it names that place, and is reported
  when missing there and in the places above (wenet's recipes pass `--deepspeed_config
  ../../aishell/s0/conf/ds_stage2.json`, which from `examples/librispeech/s0/` is
  `examples/aishell/s0/conf/`, a directory without that file);
- a workflow step's path is also looked for in its `working-directory`, and not judged when that
  directory is not the project's (another repository's checkout) or is an expression;
- after a `cd` or `pushd` into a directory of the project (`cd examples/gpt`, `cd "$(dirname
  "$0")"`) the path is looked for there too; after one to anywhere else (`cd /opt/harness`, `cd
  "$WORK"`) a relative path is not judged;
- on a remote host (inside `ssh`, `pct exec`, `docker exec`) a path is checked by name only, and
  an absolute path is never reported there, nor a relative one after a `cd` there into a
  directory not known here (`cd $REMOTE_DIR`, `cd ~/other`: another checkout; not `cd ~/proj` in
  proj's launchers, the project) or into a
  repository a script clones (`git clone URL bench && cd bench`: the clone's, as LL303 reads the
  script). A Compose service's or a Kubernetes container's command runs in its image, and is read
  as a remote host's: a relative path by name only, an absolute one the image's. In a container
  (not on another host), a name no file of the project has is not reported when a Dockerfile of
  the project works in a repository it clones into its image, as LL303 leaves a script there
  (skypilot's detectron2 task: `docker run detectron2:v0 ... python3 demo/demo.py --config-file
  configs/COCO-InstanceSegmentation/x.yaml`, its Dockerfile's `WORKDIR` in its detectron2 clone).

Not missing:
- a file that a script of the project makes, by this launcher or by a setup script: written (`cat
  > ds_config.json <<EOF`, `sed ... > cfg.yaml`), copied (`cp a.yaml b.yaml`) or downloaded;
- a path into a repository a script clones (through a directory the project has too, only the
  launcher's own clone, as LL303 reads a script's path), or inside a directory the launcher names as an
  option's value that the project does not have (`--output_dir outputs/run1` to training, then
  `--config outputs/run1/config.yaml` to evaluation: an earlier step writes it);
- a file a Python step makes: the value of an option whose name says it writes (`python
  tools/gen_ds_config.py --output ds_config.json`: `-o`, `--out*`, `--output*`, `--save*`,
  `--dump*`, `--write*`), a path literal that code written in the command opens for writing
  (`python -c "json.dump(c, open('ds.json', 'w'))"`, or a `python - <<'EOF'` heredoc's, also
  behind a wrapper that hands it on: `nice -n 5 python - <<'EOF'`), or that
  a program of the project a launcher runs opens so (`open('job.sh', 'w')`). Reading is not
  writing: `--config a.yaml` to one step does not make it for the next, nor does a command that
  only reads or prints a path (`echo $CFG`, `RUN=$(basename $CFG .yaml)`: `READ_ONLY`);
- a path the same file tests for existence anywhere (`[ -f local.yaml ] && ...`);
- a path built from a variable's value, in an `if`/`case` arm that cannot run with that value
  (`m=a`, then `if [ "$m" = b ]; then python t.py --config configs/$m.yaml; fi`), or whose
  conditions read the variable in a way not known (`[ "$m" = b ] || [ "$m" = c ]`), as in LL303;
- a path a `.gitignore` of the project hides by its own name, from the launcher's directory or the root
  (`configs/local*.yaml`): each user writes their own, and the repository never holds it; or in a
  directory made in one whose every entry it hides (`/checkpoints/*` and
  `!/checkpoints/.gitkeep`: `checkpoints/May/run/config.yaml`, which a training run writes). A
  path in a directory `.gitignore` hides by name is still judged (`data/`);
- a default (`--config ${CFG:-a.yaml}`, or `$CFG` after `CFG=${CFG:-a.yaml}`; Hydra's
  `--config-name` too) that a script of the project running the launcher sets (`CFG=b.yaml bash
  run.sh`, or an `export` before it), or a Makefile's `?=` one or a justfile recipe parameter's
  (`train config='a.yaml':`, then `--config {{config}}`): the file that runs is the
  caller's, as LL303 takes a script's. So is the default of the script's argument
  (`${1:-a.yaml}`, `if [ -n "$1" ]; then CFG=$1; else CFG=a.yaml; fi`, or `CFG=$1`, then `if [
  "$CFG" == "" ]; then CFG=a.yaml; fi`) when a caller passes
  that argument (`bash run.sh b.yaml`, a job's `sbatch job.sh b.yaml`, or words not known here:
  `"$@"`). With no caller, or none that sets it, the default is what runs, and is judged;
- a path given to a program that is not the project's: a module from an installed package
  (`python -m lm_eval --config tasks/mmlu.yaml`: it may ship its configs), or a script in a
  directory the project does not have where it runs, which LL303 leaves alone too (`deepspeed
  llava/train/train_mem.py --deepspeed ./scripts/zero3.json` with no `llava/`: run in another
  checkout, whose config that is). A launcher's own option is judged still (`accelerate launch
  --config_file`, `ft_launcher --ft-cfg-path`): the launcher reads it where it runs; not when it
  is under the same missing directory as that script (`accelerate launch --config_file
  examples/accelerate_configs/zero3.yaml examples/scripts/prm.py` with no `examples/`: TRL's).

Only file names are checked: `--config gpt2-small` names a preset, not a file. ml_collections'
`--config=configs/vit.py:runlocal` (big_vision, scenic) names `configs/vit.py`: config_flags hands
the text after the `:` to its `get_config`. A URL is not one
of the project's (`--config s3://bucket/x.yaml`, `https://`, `gs://`, `hf://`, `file:///etc/x.yaml`:
a scheme and `://`), and is never reported. A pattern bash expands is not judged either
(`--config configs/*.yaml`, `configs/exp_{1,2}.yaml`, `exp[12].yaml`): launchlint reads a word
after quote removal, so a quoted `"configs/*.yaml"`, which bash passes as it is, is skipped too.
Nor is a template's word, which is filled in before the line runs: a `str.format` field
(`{config_dir}/base.yaml`) or a Jinja, Go-template or Helm expression (an Ansible task's `--config
'{{ cfg_dir }}/base.yaml'`).

Each word of a `for` loop's static list is judged where the command's option expands the loop's
variable (`for cfg in a.yaml b.yaml; do python train.py --config "$cfg"; done`, also
`--config configs/$size.yaml`), and a missing one is reported on its word in the list, as LL303
reports a script.

One finding for each written word: a missing config file's path in the value of a variable the
script expands more than once (`CMD="python train.py ..."`, then `$CMD` in both arms of an `if`) is
one mistake, made in one place, and is reported once, at the first of those expansions in the file,
with the others as its related locations ("passed here too, from the same variable's value"). The
same written word is the same characters of the same assignment, the one the variable last got its
value from before the expansion: a `CMD+=" --x 1"` between two expansions makes them two findings,
as do two lines that each write the word (each is a line to fix) and two messages that differ (a
`cd` between the expansions).

## References
- Hydra, *command line flags*: "--config-path,-cp : Overrides the config_path specified in
  hydra.main(). The config_path is relative to the Python file declaring @hydra.main()".
- `accelerate launch --config_file`; HF `TrainingArguments.deepspeed`; DeepSpeed
  `--deepspeed_config`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator
from functools import partial

from launchlint.graph import path_mapped, python_run, value_part, variants
from launchlint.launches import (
    CONFIG_OPTIONS,
    anchored,
    config_file,
    config_files,
    decided_by_caller,
    directory_changes,
    gitignored_there,
    into_the_project,
    launch_of,
    missing_own_path,
    moved_before,
    not_ours_after_cd,
    option_values,
    project_files,
    runs_python,
    start_directory,
)
from launchlint.logs import written_paths
from launchlint.model import Finding, Location, Related, Severity
from launchlint.paths import joined, names_a_path
from launchlint.programs import launched, locate_import
from launchlint.pyfacts import MODULE_SCOPE, Option
from launchlint.rulekit import Example, arm_rules_out, once_per_word
from launchlint.rules.ll303_missing_script import in_a_cloned_image, not_the_projects, run_directory
from launchlint.shellfacts import Command, ShellScript, Word

CODE = "LL304"
NAME = "missing-config-file"
SEVERITY = Severity.ERROR
SUMMARY = "A launcher passes a config file (--config, --deepspeed, Hydra's --config-name) that does not exist"

HYDRA = {"-cp": "--config-path", "-cn": "--config-name", "-cd": "--config-dir"}  # short -> long
HYDRA.update({long: long for long in HYDRA.values()})
PATH_OPTIONS = ("--config-path", "-cp", "--config-dir", "-cd")
FAILURE = "the job fails after start-up with FileNotFoundError"
FIX = "fix the path, or create it"

INVALID = [
    Example(  # `CFG=$1`, then a default when it is empty (DeepSpeed-Chat's launchers): `${1:-...}`, the default missing
        {
            "train.py": "print(1)\n",
            "configs/small.yaml": "a: 1\n",
            "run.sh": (
                '#!/bin/bash\nCFG=$1\nif [ "$CFG" == "" ]; then\n    CFG=configs/big.yaml\nfi\npython train.py --config $CFG\n'
                'DS=$2\nif [[ -z $DS ]]; then DS=configs/ds.json; fi\ndeepspeed train.py --deepspeed "$DS"\n'
            ),
        },
        ["LL304 run.sh:6", "LL304 run.sh:9"],
    ),
    Example(  # a console script of the project's packages is told to read a config
        {
            "pyproject.toml": "[project]\nname = 'fq'\n\n[project.scripts]\nfq-train = 'fq.train:main'\n",
            "fq/train.py": "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument('-c', '--config')\n    p.parse_args()\n",
            "configs/a.yaml": "lr: 1\n",
            "run.sh": "#!/bin/bash\nfq-train --config configs/b.yaml\nfq-train -c configs/c.yaml\nfq-train --config configs/a.yaml\n",
        },
        ["LL304 run.sh:2", "LL304 run.sh:3"],
    ),
    Example(  # latent-diffusion's `--base`, each of its values; sd-scripts' `--dataset_config`; LAVIS's `--cfg-path`
        {
            "configs/base.yaml": "model: x\n",
            "main.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--base', nargs='*')\np.parse_args()\n",
            "train.py": "print(1)\n",
            "finetune.sh": (
                "python main.py --base configs/base.yaml configs/sft.yaml\npython main.py --base configs/base.yaml\n"
                "accelerate launch train.py --dataset_config configs/dataset.toml\n"
                "python -m torch.distributed.run --nproc_per_node=8 train.py --cfg-path configs/blip/vqa_ft.yaml\n"
                "python train.py --cfg-path configs/base.yaml\n"
            ),
        },
        ["LL304 finetune.sh:1", "LL304 finetune.sh:3", "LL304 finetune.sh:4"],
    ),
    Example(  # BasicSR's option file, `-opt`; SCAN's `--config_exp`
        {
            "options/REDS/wsharp.yml": "name: x\n",
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('-opt', required=True)\np.parse_args()\n",
            "train_script.sh": (
                "python train.py -opt options/REDS/wsharp_woVAE.yml\npython train.py -opt options/REDS/wsharp.yml\n"
                "python main.py --config_env configs/env.yml --config_exp configs/pascal/hrnet.yml\n"
            ),
            "main.py": "print(1)\n",
            "configs/env.yml": "root: /data\n",
        },
        ["LL304 train_script.sh:1", "LL304 train_script.sh:3"],
    ),
    Example(  # a project program run by its path, by its shebang (`./main_supervised.py`: ssl_tools)
        {
            "main.py": "#!/usr/bin/env python3\nimport argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "configs/a.yaml": "lr: 1\n",
            "run.sh": "#!/bin/bash\n./main.py --config configs/b.yaml\n./main.py --config configs/a.yaml\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a .gitignore that hides every file of the kind (LLaVA's `*.json`) kept the config out of the commit
        {
            "llava/.gitignore": "*.json\n",
            "llava/train.py": "print(1)\n",
            "llava/scripts/finetune.sh": "#!/bin/bash\ndeepspeed llava/train.py --deepspeed ./scripts/zero3.json\n",
        },
        ["LL304 llava/scripts/finetune.sh:2"],
    ),
    Example(  # a loop over a known array of configs: each element, where the array writes it (helper-305's plant)
        {
            "run.sh": '#!/bin/bash\nCFGS=( configs/a.yaml configs/b_typo.yaml )\nfor cfg in "${CFGS[@]}"; do\n  python train.py --config "$cfg"\ndone\n',
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "configs/a.yaml": "a: 1\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # Hydra's --config-dir with no --config-path: the name in that directory (or the program's config path)
        {
            "run.sh": "#!/bin/bash\npython train.py --config-dir=./conf --config-name=bsae\npython train.py -cd conf -cn base\n",
            "train.py": "import hydra\n\n\n@hydra.main(config_path=None, config_name=None, version_base=None)\ndef main(cfg):\n    print(cfg)\n",
            "conf/base.yaml": "a: 1\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # every file of an option that takes several (`nargs='+'`, OpenOOD's `--config`), up to the next flag
        {
            "configs/base.yml": "lr: 1\n",
            "main.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--config', nargs='+')\n"
                "p.add_argument('--seed')\nargs = p.parse_args()\n"
            ),
            "run.sh": (
                "#!/bin/bash\npython main.py --config configs/base.yml configs/base.yml \\\n"
                "    configs/osr_ood.yml --seed 1 extra.yml\n"
            ),
        },
        ["LL304 run.sh:3"],
    ),
    Example(  # a config in a directory .gitignore hides by name is still the repository's to hold
        {
            ".gitignore": "data/\n",
            "train.py": "print(1)\n",
            "configs/base.yaml": "lr: 1\n",
            "run.sh": "#!/bin/bash\npython train.py --config configs/data/cifar.yaml\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a `.config` file is a config file by its suffix too (AutoDL-Projects' `configs/x.config`)
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config_path')\np.parse_args()\n",
            "configs/SETN.config": "{}\n",
            "run.sh": "python train.py --config_path configs/SETN.config\npython train.py --config_path configs/NASNet.config\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a path with directories that only a project nested here has (its own pyproject.toml), the launcher not in it
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--deepspeed')\np.parse_args()\n",
            "vendored/pyproject.toml": "",
            "vendored/scripts/zero2.json": "{}\n",
            "scripts/train.sh": "deepspeed --num_gpus 8 ./train.py --deepspeed scripts/zero2.json\n",
        },
        ["LL304 scripts/train.sh:1"],
    ),
    Example(  # a relative config path in a string that holds a path from `pwd` elsewhere stays relative
        {
            "trainer/main_ppo.py": "import hydra\n",
            "examples/config/gsm8k.yaml": "a: 1\n",
            "run.sh": (
                '#!/bin/bash\nCMD="python3 -m trainer.main_ppo --config-path examples/config --config-name=gsm8k hydra.run.dir=$(pwd)/out"\n'
                'eval "$CMD"\nbash -c "python3 -m trainer.main_ppo --config-path=examples/config --config-name=gsm8k hydra.run.dir=$PWD/out"\n'
            ),
        },
        ["LL304 run.sh:3", "LL304 run.sh:4"],
    ),
    Example(  # `--config_path` naming a file (VideoX-Fun's trainers): not Hydra's `--config-path`, a directory
        {
            "train.py": "print(1)\n",
            "config/wan2.1/wan_civitai.yaml": "lr: 1\n",
            "run.sh": "#!/bin/bash\npython train.py --config_path=config/wan2.1/wan_civitai.yaml\npython train.py --config_path config/wan2.2/wan_civitai.yaml\n",
        },
        ["LL304 run.sh:3"],
    ),
    Example(  # a variable's config passed in both arms of an `if` is one finding, at the first expansion
        {
            "train.py": "print(1)\n",
            "run.sh": '#!/bin/bash\nCMD="python train.py --bs $BS --config configs/gone.yaml"\nif [ -n "$A" ]; then\n  $CMD\nelse\n  $CMD --fp16\nfi\n',
        },
        ["LL304 run.sh:4"],
    ),
    Example(  # ml_collections' `--config=FILE.py:ARG`: the file is what comes before the `:`
        {
            "train.py": (
                "from absl import app\nfrom ml_collections import config_flags\n\n"
                "CONFIG = config_flags.DEFINE_config_file('config')\napp.run(lambda argv: print(CONFIG.value))\n"
            ),
            "configs/vit.py": "def get_config(arg=None):\n    return None\n",
            "run.sh": "python3 train.py --config=configs/vit.py:runlocal\npython3 train.py --config=configs/vitx.py:runlocal\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # each word of a static loop's list the command passes: the missing one, on its word of the list
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "configs/small.yaml": "lr: 1\n",
            "sweep.sh": (
                '#!/bin/bash\nfor cfg in configs/small.yaml configs/large.yaml; do\n  python train.py --config "$cfg"\ndone\n'
                "for size in small base; do python train.py --config configs/$size.yaml; done\n"
            ),
        },
        ["LL304 sweep.sh:2", "LL304 sweep.sh:5"],
    ),
    Example(  # reading is not writing: an earlier step's --config (a tool's too), or inline code that opens it to read
        {
            "train.py": "print('train')\n",
            "eval.py": "print('eval')\n",
            "run.sh": (
                "#!/bin/bash\npython train.py --config a.yaml\npython eval.py --config a.yaml\n"
                "python -c \"import json; json.load(open('r.json'))\"\npython eval.py --config r.json\n"
                "prep-features --config conf/b.yaml\npython train.py --config conf/b.yaml\n"
            ),
        },
        ["LL304 run.sh:2", "LL304 run.sh:3", "LL304 run.sh:5", "LL304 run.sh:7"],
    ),
    Example(  # the program's own spellings of its --config: a short alias, an unambiguous prefix
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('-c', '--config')\n"
                "p.add_argument('--lr')\np.parse_args()\n"
            ),
            "configs/base.yaml": "a: 1\n",
            "run.sh": "#!/bin/bash\npython train.py -c configs/missing.yaml\npython train.py --lr 1 --conf=configs/gone.yaml\n",
        },
        ["LL304 run.sh:2", "LL304 run.sh:3"],
    ),
    Example(  # a script's config; not the arguments of code written in the command (`-c`, a heredoc)
        {
            "train.py": "import argparse\n",
            "run.sh": (
                "#!/bin/bash\npython -c 'import train' --config missing.yaml\npython train.py --config missing.yaml\n"
                "python - --config missing.yaml <<'PY'\nimport sys\nprint(sys.argv)\nPY\n"
            ),
        },
        ["LL304 run.sh:3"],
    ),
    Example(  # back where it started after `cd -`: the config is looked for there again
        {
            "data/download.sh": "echo get\n",
            "configs/ds_z3.json": "{}\n",
            "train.py": "import argparse\n",
            "run.sh": "#!/bin/bash\ncd data && ./download.sh && cd -\ndeepspeed train.py --deepspeed configs/ds_zero3.json\n",
        },
        ["LL304 run.sh:3"],
    ),
    Example(  # a bare name that several files have, none next to the launcher or at the root
        {
            "scripts/run.sh": "deepspeed train.py --deepspeed ds_config.json\n",
            "scripts/train.py": "import argparse\n",
            "examples/a/ds_config.json": "{}\n",
            "examples/b/ds_config.json": "{}\n",
        },
        ["LL304 scripts/run.sh:1"],
    ),
    Example(
        {
            "train.sh": "#!/bin/bash\ndeepspeed train.py --deepspeed configs/ds_zero3.json --config=configs/exp.yaml\n",
            "train.py": "print('train')\n",
            "configs/ds_z3.json": "{}\n",
        },
        ["LL304 train.sh:2", "LL304 train.sh:2"],
    ),
    Example(  # a directory of the project named as an option's value is no output directory
        {
            "train.sh": "#!/bin/bash\npython train.py --config_dir configs --config configs/exp2.yaml\n",
            "train.py": "print('train')\n",
            "configs/exp1.yaml": "a: 1\n",
        },
        ["LL304 train.sh:2"],
    ),
    Example(  # a launcher's own config, though the script it runs is another checkout's; a script of
        # a directory the project has, which LL303 reports missing: its config is judged too
        {
            "launch.sh": (
                "#!/bin/bash\naccelerate launch --config_file acc/8gpu.yaml llava/train.py\n"
                "deepspeed pkg/train_mem.py --deepspeed ./scripts/zero3.json\n"
            ),
            "pkg/train.py": "print('train')\n",
            # a script from home says nothing of where it runs: here, by its config's directory
            "hf/gpt2/tune.sh": "HF=~/hf\ndeepspeed $HF/transformers/run_clm.py --deepspeed ../dsconfigs/tune_test.json\n",
            "hf/dsconfigs/tune.json": "{}\n",
        },
        ["LL304 hf/gpt2/tune.sh:2", "LL304 launch.sh:2", "LL304 launch.sh:3"],
    ),
    Example(  # accelerate's own config, and a remote relative path whose name is nowhere
        {
            "launch.sh": (
                "#!/bin/bash\naccelerate launch --config_file acc/8gpu.yaml train.py\n"
                "ssh gpu1 'cd /work && python eval.py --config_file eval_cfg.yaml'\n"
            ),
            "acc/4gpu.yaml": "num_processes: 4\n",
        },
        ["LL304 launch.sh:2", "LL304 launch.sh:3"],
    ),
    Example(  # ft_launcher's fault-tolerance config, in both of its spellings
        {
            "launch.sh": (
                "#!/bin/bash\nft_launcher --ft-cfg-path cfg/ft_config.yaml --nproc-per-node 2 train.py\n"
                "ft_launcher --ft-cfg_path=cfg/ft.yml --nproc-per-node 2 train.py\n"
            ),
            "train.py": "print('train')\n",
        },
        ["LL304 launch.sh:2", "LL304 launch.sh:3"],
    ),
    Example(  # Hydra: the name inside --config-path, which is relative to the Python file
        {
            "run_ppo.sh": (
                "#!/bin/bash\npython3 -m trainer.main_ppo --config-path=config --config-name=ppo_megatron\n"
                "python3 -m trainer.main_ppo -cp config -cn ppo_megatron\n"
            ),
            "trainer/main_ppo.py": "import hydra\n",
            "trainer/config/ppo_trainer.yaml": "a: 1\n",
        },
        ["LL304 run_ppo.sh:2", "LL304 run_ppo.sh:3"],
    ),
    Example(  # Hydra without --config-path: the name inside the config path @hydra.main declares
        {
            "run_ppo.sh": "#!/bin/bash\npython3 -m trainer.main_ppo --config-name=ppo_megatron trainer.n_gpus=8\n",
            "trainer/main_ppo.py": (
                "import hydra\n\n\n@hydra.main(config_path='config', config_name='ppo_trainer', version_base=None)\n"
                "def main(config):\n    print(config)\n"
            ),
            "trainer/config/ppo_trainer.yaml": "a: 1\n",
        },
        ["LL304 run_ppo.sh:2"],
    ),
    Example(  # the config path @hydra.main declares is gone (lama's `whydra/`): not one outside the project
        {
            "run.sh": "#!/bin/bash\nbin/gen.py -cn random_thin_256 datadir=test\nbin/out.py -cn x\n",
            "bin/gen.py": (
                "#!/usr/bin/env python3\nimport hydra\n\n\n@hydra.main(config_path='../configs/data_gen/whydra', config_name=None)\n"
                "def main(config):\n    print(config)\n"
            ),
            "bin/out.py": (
                "#!/usr/bin/env python3\nimport hydra\n\n\n@hydra.main(config_path='../../other/conf', config_name=None)\n"
                "def main(config):\n    print(config)\n"
            ),
            "configs/data_gen/random_thin_256.yaml": "a: 1\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a workflow step's `working-directory` is where the relative path starts
        {
            "examples/gpt/train.py": "print('train')\n",
            "examples/gpt/cfg/small.yaml": "a: 1\n",
            ".github/workflows/smoke.yml": (
                "on: push\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - working-directory: examples/gpt\n        run: python train.py --config cfg/smal.yaml\n"
            ),
        },
        ["LL304 .github/workflows/smoke.yml:7"],
    ),
    Example(  # a Compose service runs in its image: its working_dir is the image's, the name is checked
        {
            "configs/small.yaml": "a: 1\n",
            "compose.yaml": (
                "services:\n  trainer:\n    image: trainer\n    working_dir: /app\n"
                "    command: python train.py --config configs/smal.yaml\n"
            ),
        },
        ["LL304 compose.yaml:5"],
    ),
    Example(  # a container that clones a repository but runs from where it starts: the config is looked for by name
        {
            "pod.yaml": (
                "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: bench\n    image: python:3.12\n"
                "    command: [bash, -c, 'git clone https://github.com/org/bench.git && python bench/run.py --config configs/a.yaml']\n"
            ),
            "configs/b.yaml": "a: 1\n",
        },
        ["LL304 pod.yaml:7"],
    ),
    Example(  # on another host, though a Dockerfile of the project works in its clone: the host's files are not the image's
        {
            "docker/Dockerfile": "FROM python:3.11\nRUN git clone https://github.com/x/detector.git /opt/detector\nWORKDIR /opt/detector\n",
            "helper.py": "print(1)\n",
            "run.sh": "#!/bin/bash\nssh gpu1 'cd /srv/job && python3 demo/demo.py --config-file configs/mask_rcnn.yaml'\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a `cd` inside an ssh string moves the remote shell, not the launcher's
        {
            "launch.sh": "#!/bin/bash\nssh gpu1 'cd /work && nvidia-smi'\npython train.py --config cfgs/smal.yaml\n",
            "train.py": "print('train')\n",
            "cfgs/small.yaml": "a: 1\n",
        },
        ["LL304 launch.sh:3"],
    ),
    Example(  # `cd "$(dirname "$0")"` goes to the launcher's own directory, and a `cd` inside `$(...)`
        # moves only that subshell: the path is still judged
        {
            "scripts/train.sh": (
                '#!/bin/bash\nROOT="$(cd "$(dirname "$0")/.." && pwd)"\ncd "$(dirname "$0")"\n'
                "python train.py --config cfg/smal.yaml\n"
            ),
            "scripts/train.py": "print('train')\n",
            "scripts/cfg/small.yaml": "a: 1\n",
        },
        ["LL304 scripts/train.sh:4"],
    ),
    Example(  # a default no caller sets (run by hand, it runs), or another word's default that a caller sets
        {
            "train.py": "print(1)\n",
            "run.sh": "#!/bin/bash\nCFG=${CFG:-configs/small.yaml}\npython train.py --config $CFG\n",
            "eval.sh": "#!/bin/bash\npython train.py --lr ${LR:-1} --config configs/eval.yaml\n",
            "sweep.sh": "#!/bin/bash\nLR=2 bash eval.sh\n",
        },
        ["LL304 eval.sh:2", "LL304 run.sh:3"],
    ),
    Example(  # the script's argument's default, when no caller gives that argument (run by hand, it runs)
        {
            "train.py": "print(1)\n",
            "run.sh": "#!/bin/bash\nCFG=${1:-configs/small.yaml}\npython train.py --config $CFG\n",
            "eval.sh": "#!/bin/bash\npython train.py --config ${2-configs/eval.yaml}\n",
            "sweep.sh": "#!/bin/bash\nbash eval.sh ckpt/last.pt\n",
        },
        ["LL304 eval.sh:2", "LL304 run.sh:3"],
    ),
    Example(  # the same default chosen by an `if` on the argument (aigc3d/LAM's run scripts), with or without `else`
        {
            "train.py": "print(1)\n",
            "run.sh": (
                '#!/bin/bash\nif [ -n "$1" ]; then\n  CFG=$1\nelse\n  CFG=./configs/small.yaml\nfi\n'
                "python train.py --config $CFG\nDS=configs/ds.json\nif [ $# -ge 2 ]; then DS=$2; fi\n"
                "python train.py --config $DS\n"
            ),
        },
        ["LL304 run.sh:7", "LL304 run.sh:10"],
    ),
    Example(  # a thin entry point calling an imported `@hydra.main` function: the config path is that file's
        {
            "pkg/__init__.py": "",
            "pkg/tasks/__init__.py": "",
            "pkg/tasks/train.py": (
                "import hydra\n\n\n@hydra.main(version_base='1.3', config_path='../../configs', config_name='main')\n"
                "def train(cfg):\n    print(cfg)\n"
            ),
            "run.py": "from pkg.tasks.train import train\n\nif __name__ == '__main__':\n    train()\n",
            "configs/main.yaml": "a: 1\n",
            "launch.sh": "python run.py --config-name main a=2\npython run.py --config-name mian a=2\n",
        },
        ["LL304 launch.sh:2"],
    ),
    Example(  # a gin-config file (HIRID's `-c configs/x.gin`)
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('-c', '--config')\np.parse_args()\n",
            "configs/gru.gin": "train.epochs = 3\n",
            "run.sh": "python train.py -c configs/gru.gin\npython train.py -c configs/lstm.gin\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a subcommand's own `-c` (its parser's, from a parent parser)
        {
            "pkg/__init__.py": "",
            "pkg/run.py": (
                "import argparse\nparser = argparse.ArgumentParser()\ncommon = argparse.ArgumentParser(add_help=False)\n"
                "common.add_argument('-c', '--config', nargs='+')\nsub = parser.add_subparsers(dest='cmd', required=True)\n"
                "train = sub.add_parser('train', parents=[common])\nparser.parse_args()\n"
            ),
            "configs/a.yaml": "lr: 1\n",
            "run.sh": "python -m pkg.run train -c configs/a.yaml\npython -m pkg.run train -c configs/b.yaml\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a path a command only prints or reads makes no config (`echo $CFG`, `basename $CFG .yaml`)
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.add_argument('--name')\np.parse_args()\n",
            "run.sh": "#!/bin/bash\nCFG=configs/trian.yaml\necho $CFG\nRUN=$(basename $CFG .yaml)\npython train.py --config $CFG --name $RUN\n",
        },
        ["LL304 run.sh:5"],
    ),
    Example(  # in an image, a path ending in a file's whole path is that file, a name several directories have too
        {
            "main.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "config/a/x.json": "{}\n",
            "config/b/x.json": "{}\n",
            "jobs/a/job.yaml": (
                "protocolVersion: 2\nname: j\ntype: job\ntaskRoles:\n  train:\n    instances: 1\n    commands:\n"
                "      - python3 proj/main.py --config proj/config/a/x.json\n      - python3 proj/main.py --config proj/config/a/z.json\n"
            ),
        },
        ["LL304 jobs/a/job.yaml:9"],
    ),
    Example(  # an arm whose test allows the value runs with it
        {"train.py": "print(1)\n", "run.sh": '#!/bin/bash\nm=small\nif [ "$m" = small ]; then\n  python train.py --config configs/$m.yaml\nfi\n'},
        ["LL304 run.sh:4"],
    ),
    Example(  # a job runner with no `JOB=` word puts no number in its command: `JOB` is plain text there
        {
            "run.sh": "#!/bin/bash\n$decode_cmd exp/log/d.log python3 decode.py --config conf/JOB.yaml\n",
            "conf/1.yaml": "a: 1\n",
        },
        ["LL304 run.sh:2"],
    ),
    Example(  # a recipe run from its own directory (it sources `./path.sh`) names another recipe's config two levels up (wenet's 15 recipes)
        {
            "bin/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.add_argument('--deepspeed_config')\np.parse_args()\n",
            "egs/a/s0/conf/train.yaml": "a: 1\n",
            "egs/a/s0/conf/ds_stage1.json": "{}\n",
            "egs/b/s0/path.sh": "export X=1\n",
            "egs/b/s0/run.sh": (
                "#!/bin/bash\n. ./path.sh || exit 1\n"
                "python ../../../bin/train.py --config ../../a/s0/conf/train.yml\n"
                "ds=../../a/s0/conf/ds_stage2.json\n"
                "python ../../../bin/train.py --deepspeed_config $ds\n"
                "python ../../../bin/train.py --deepspeed_config ../a/s0/conf/ds_stage2.json\n"
                "python ../../../bin/train.py --config ../../a/s0/conf/train.yaml --deepspeed_config ../../a/s0/conf/ds_stage1.json\n"
            ),
        },
        ["LL304 egs/b/s0/run.sh:3", "LL304 egs/b/s0/run.sh:5", "LL304 egs/b/s0/run.sh:6"],
    ),
]

VALID = [
    Example(  # the default exists; a value tested the other way round, or unquoted in `[`, sets no default
        {
            "train.py": "print(1)\n",
            "configs/small.yaml": "a: 1\n",
            "run.sh": (
                '#!/bin/bash\nCFG=$1\nif [ "$CFG" = "" ]; then CFG=configs/small.yaml; fi\npython train.py --config $CFG\n'
                'B=$2\nif [ -n "$B" ]; then B=configs/b.yaml; fi\npython train.py --config $B\n'
                'C=$3\nif [ $C == "" ]; then C=configs/c.yaml; fi\npython train.py --config $C\n'
            ),
        }
    ),
    Example(  # a path up out of the project from a directory the launcher may run from, one up into a directory the project lacks
        {
            "bin/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "egs/a/s0/conf/train.yaml": "a: 1\n",
            "egs/b/s0/run.sh": "#!/bin/bash\npython ../../../bin/train.py --config ../../a/s0/conf/train.yml\n",
            "egs/c/s0/path.sh": "export X=1\n",
            "egs/c/s0/run.sh": (
                "#!/bin/bash\n. ./path.sh\npython ../../../bin/train.py --config ../../tools/conf/train.yaml\n"
                "python ../../../bin/train.py --config ../../../../other/conf/train.yml\n"
                "cd /opt/recipe && python ../../../bin/train.py --config ../../a/s0/conf/train.yml\n"
            ),
        },
    ),
    Example(  # a config an earlier step's `--output_dir=DIR` writes (lerobot's Makefile: train, then resume from its checkpoint)
        {
            "pyproject.toml": "[project]\nname = 'fq'\n\n[project.scripts]\nfq-train = 'fq.train:main'\n",
            "fq/train.py": "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument('--config_path')\n    p.parse_args()\n",
            "train.py": "print(1)\n",
            "Makefile": (
                "train:\n\tfq-train --output_dir=out/act/\n\nresume:\n\tfq-train --config_path=out/act/ckpt/train_config.json\n\n"
                "again:\n\tpython train.py --output_dir=out/b/\n\tpython train.py --config_path=out/b/ckpt/train_config.json\n"
            ),
        }
    ),
    Example(  # `command -v python` runs no program, which would read the config
        {"run.sh": "#!/bin/bash\ncommand -v python train.py --config configs/b.yaml\n", "train.py": "print(1)\n"}
    ),
    Example(  # a nested project's launcher passes its own file; a bare name is any directory's, a nested project's too
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--deepspeed')\np.parse_args()\n",
            "vendored/pyproject.toml": "",
            "vendored/zero3.json": "{}\n",
            "vendored/scripts/zero2.json": "{}\n",
            "vendored/scripts/train.sh": "deepspeed ../train.py --deepspeed scripts/zero2.json\n",
            "run.sh": "deepspeed train.py --deepspeed zero3.json\n",
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
    Example(  # ft_launcher's config where it is, and an ft_launcher run from elsewhere by its cd
        {
            "cfg/ft.yaml": "workload_check_interval: 5\n",
            "launch.sh": "#!/bin/bash\nft_launcher --ft-cfg-path cfg/ft.yaml --nproc-per-node 2 train.py\n",
            "jobs/run.sh": "#!/bin/bash\ncd ..\nft_launcher --ft-cfg-path=cfg/ft.yaml --nproc-per-node 2 train.py\n",
            "train.py": "print('train')\n",
        }
    ),
    Example(  # a loop whose every word is a config the project has, or whose list is not static
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "configs/small.yaml": "lr: 1\n",
            "configs/large.yaml": "lr: 2\n",
            "sweep.sh": (
                '#!/bin/bash\nfor cfg in configs/small.yaml configs/large.yaml; do python train.py --config "$cfg"; done\n'
                'for cfg in configs/*.yaml $MORE; do python train.py --config "$cfg"; done\n'
            ),
        }
    ),
    Example(  # written by an earlier Python step: an output option's value, code in the command
        {
            "tools/gen_ds_config.py": "import argparse, json\np = argparse.ArgumentParser()\np.add_argument('--output')\n",
            "train.py": "print('train')\n",
            "configs/base.yaml": "a: 1\n",
            "run.sh": (
                "#!/bin/bash\npython tools/gen_ds_config.py --output ds_config.json\n"
                "deepspeed train.py --deepspeed ds_config.json\n"
                "python tools/gen_ds_config.py --out=configs/gen.yaml\npython train.py --config configs/gen.yaml\n"
                "python -c \"import json; json.dump({}, open('ds_c.json', 'w'))\"\n"
                "deepspeed train.py --deepspeed ds_c.json\n"
                "python - <<'EOF'\nimport json\njson.dump({}, open('ds_py.json', 'w'))\nEOF\n"
                "deepspeed train.py --deepspeed ds_py.json\n"
            ),
        }
    ),
    Example(  # a program on standard input behind a wrapper that hands it on (`nice`, `stdbuf`, ...)
        {
            "train.py": "print('train')\n",
            "run.sh": (
                "#!/bin/bash\nnice -n 5 python - <<'EOF'\nimport json\njson.dump({}, open('ds_a.json', 'w'))\nEOF\n"
                "deepspeed train.py --deepspeed ds_a.json\n"
                "stdbuf -oL python3 - <<EOF\nimport json\njson.dump({}, open('ds_b.json', 'w'))\nEOF\n"
                "deepspeed train.py --deepspeed ds_b.json\n"
            ),
        }
    ),
    Example(  # `-c` of a program whose `-c` is no config; a prefix of two options (argparse refuses it: LL301's)
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('-c', '--cache')\n"
                "p.add_argument('--config')\np.add_argument('--config_file')\np.parse_args()\n"
            ),
            "eval.py": "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('-c', '--config')\np.parse_args()\n",
            "configs/base.yaml": "a: 1\n",
            "run.sh": (
                "#!/bin/bash\npython train.py -c cache/x.json\npython train.py --conf missing.yaml\n"
                "python eval.py -c configs/base.yaml\n"
            ),
        }
    ),
    Example(  # a config a .gitignore keeps out of the repository: each user writes their own
        {
            ".gitignore": "configs/local*.yaml\n",
            "train.py": "print(1)\n",
            "run.sh": "#!/bin/bash\npython train.py --config configs/local_8gpu.yaml\n",
        }
    ),
    Example(  # a launcher's config in the same directory the project lacks as the script it runs: another checkout's
        {
            "recipes/train.py": "print(1)\n",
            "scripts/prm.sh": (
                "#!/bin/bash\naccelerate launch --config_file examples/accelerate_configs/zero3.yaml examples/scripts/prm.py\n"
            ),
        }
    ),
    Example(  # in a run's directory under one whose every entry .gitignore hides (GeneFace's kept, empty `checkpoints/`)
        {
            ".gitignore": "/checkpoints/*\n!/checkpoints/.gitkeep\n",
            "checkpoints/.gitkeep": "",
            "train.py": "print(1)\n",
            "scripts/infer.sh": "#!/bin/bash\npython train.py --config checkpoints/May/run/config.yaml\n",
        }
    ),
    Example(  # on disk where the launcher is run from (above it), though .gitignore hides it
        {
            ".gitignore": "*.json\n",
            "owl/scripts/zero3.json": "{}\n",
            "owl/pkg/train.py": "import argparse\n",
            "owl/scripts/finetune.sh": "deepspeed pkg/train.py --deepspeed ./scripts/zero3.json\n",
        }
    ),
    Example(  # written by a heredoc first; a name several files have, one of them next to the launcher
        {
            "run.sh": "cat <<EOF > ds.json\n{}\nEOF\ndeepspeed train.py --deepspeed ds.json\n",
            "train.py": "import argparse\n",
            "scripts/launch.sh": "deepspeed ../train.py --deepspeed zero2.json\n",
            "scripts/zero2.json": "{}\n",
            "examples/zero2.json": "{}\n",
        }
    ),
    Example(  # argparse's own `--config-path`, a file: not Hydra's (the program does not import hydra)
        {
            "runner/main.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--config-path')\n"
                "args = parser.parse_args()\n"
            ),
            "runner/config_a30.yaml": "batch: 8\n",
            "start.sh": "python3 runner/main.py --config-path runner/config_a30.yaml\n",
        }
    ),
    Example(  # next to the launcher, at the root, in the directory the launcher cds into
        {
            "scripts/train.sh": (
                "#!/bin/bash\ntorchrun --nproc_per_node 8 train.py --config ../configs/a.yaml\n"
                "python train.py --deepspeed ds.json\ncd examples/gpt && python train.py --config cfg/small.yaml\n"
            ),
            "scripts/ds.json": "{}\n",
            "configs/a.yaml": "a: 1\n",
            "examples/gpt/cfg/small.yaml": "a: 1\n",
            "train.py": "print('train')\n",
        }
    ),
    Example(  # remote absolute, a preset name, inline JSON, an unknown value, a file written first,
        # and a module from an installed package (it may ship the config)
        {
            "remote.sh": (
                "#!/bin/bash\nssh gpu1 'python /srv/train.py --config /srv/configs/a.yaml'\n"
                "python train.py --config gpt2-small --deepspeed '{\"train_batch_size\": 8}'\n"
                "python train.py --config \"$CONFIG\"\n"
                "cat > ds_generated.json <<EOF\n{}\nEOF\ndeepspeed train.py --deepspeed ds_generated.json\n"
                "python -m lm_eval --config tasks/mmlu.yaml\n"
            ),
        }
    ),
    Example(  # given to a script in a directory the project does not have (another checkout's, LL303
        # leaves it alone): its config; a launcher's own config file is there
        {
            "scripts/pre.sh": (
                "deepspeed llava/train/train_mem.py --deepspeed ./scripts/zero2.json --lr 1\n"
                "accelerate launch --config_file scripts/acc.yaml llava/train/train.py --config ./scripts/t.yaml\n"
            ),
            "scripts/acc.yaml": "num_processes: 8\n",
            "scripts/merge.py": "print('merge')\n",
        }
    ),
    Example(  # on another host, after a `cd` into a directory not known here: another checkout's config
        {
            "run.sh": (
                '#!/bin/bash\nssh gpu1 "cd $REMOTE_DIR && python eval.py --config_file remote_cfg.yaml"\n'
                "ssh gpu2 'cd ~/other && python eval.py --config_file remote_cfg.yaml'\n"
            ),
            "eval.py": "print('eval')\n",
        }
    ),
    Example(  # after a `cd` into a repository the same command clones (a Kubernetes container's,
        # inside `ssh`, a `docker run ... bash -c`), a relative path is that clone's
        {
            "pod.yaml": (
                "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: bench\n    image: python:3.12\n"
                "    command: [bash, -c]\n    args:\n    - |\n      git clone https://github.com/org/bench.git\n"
                "      cd bench\n      python src/run.py --config=configs/a.yaml\n"
            ),
            "run.sh": (
                "#!/bin/bash\nssh gpu1 'git clone https://github.com/org/bench.git && cd bench && python src/run.py --config configs/a.yaml'\n"
                "docker run img bash -c 'git clone https://github.com/org/tools.git tl && cd tl && python run.py --config cfg/b.yaml'\n"
            ),
        }
    ),
    Example(  # Hydra: the config path next to the module, the name with .yaml added
        {
            "run.sh": "#!/bin/bash\npython3 -m trainer.main_ppo --config-path=config --config-name='ppo_trainer'\n",
            "trainer/main_ppo.py": "import hydra\n",
            "trainer/config/ppo_trainer.yaml": "a: 1\n",
        }
    ),
    Example(  # a config path from `pwd` is absolute when it runs (verl's examples): not relative to the program
        {
            "run.sh": (
                '#!/bin/bash\nPROJECT_DIR="$(pwd)"\nCONFIG_PATH="$PROJECT_DIR/examples/config"\n'
                'python3 -m trainer.main_ppo --config-path="$CONFIG_PATH" --config-name=gsm8k\n'
                "python3 -m trainer.main_ppo --config-path $PWD/examples/config --config-name=gsm8k\n"
            ),
            "trainer/main_ppo.py": "import hydra\n",
            "examples/config/gsm8k.yaml": "a: 1\n",
        }
    ),
    Example(  # the same through a wrapper (verl's recipes under `ray job submit`)
        {
            "run.sh": (
                '#!/bin/bash\nPROJECT_DIR="$(pwd)"\nCONFIG_PATH="$PROJECT_DIR/examples/config"\n'
                "ray job submit --address=http://127.0.0.1:8265 -- python3 -m trainer.main_ppo --config-path $CONFIG_PATH --config-name=gsm8k\n"
                "nohup python3 -m trainer.main_ppo --config-path $(pwd)/examples/config --config-name=gsm8k > a.log 2>&1 &\n"
            ),
            "trainer/main_ppo.py": "import hydra\n",
            "examples/config/gsm8k.yaml": "a: 1\n",
        }
    ),
    Example(  # in a string the outer shell expands first, from a variable too; in single quotes, the inner shell's `pwd`
        {
            "run.sh": (
                '#!/bin/bash\nbash -c "python3 -m trainer.main_ppo --config-path $(pwd)/examples/config --config-name=gsm8k"\n'
                'CONF="$PWD/examples/config"\nbash -c "python3 -m trainer.main_ppo --config-path=$CONF --config-name=gsm8k"\n'
                "bash -c 'python3 -m trainer.main_ppo --config-path $(pwd)/examples/config --config-name=gsm8k'\n"
            ),
            "trainer/main_ppo.py": "import hydra\n",
            "examples/config/gsm8k.yaml": "a: 1\n",
        }
    ),
    Example(  # Hydra without --config-path: a name in @hydra.main's config path, or one stored in code
        {
            "run.sh": (
                "#!/bin/bash\npython3 -m trainer.main_ppo --config-name=ppo_trainer\n"
                "python3 -m trainer.main_ppo --config-name=ppo_structured\n"
                "python3 -m trainer.main_ppo --config-path=\"$CONFIG_DIR\" --config-name=gsm8k_grpo\n"
                "python3 -m trainer.main_ppo -cd /data/configs -cn gsm8k_grpo\n"
            ),
            "trainer/main_ppo.py": (
                "import hydra\nfrom hydra.core.config_store import ConfigStore\n\n"
                "ConfigStore.instance().store(name='ppo_structured', node={'a': 1})\n\n\n"
                "@hydra.main(config_path='config', version_base=None)\ndef main(config):\n    print(config)\n"
            ),
            "trainer/config/ppo_trainer.yaml": "a: 1\n",
        }
    ),
    Example(  # in a container of an image whose Dockerfile works in its clone, with `docker run` or in a Kubernetes container (skypilot's detectron2)
        {
            "docker/Dockerfile": "FROM python:3.11\nRUN git clone https://github.com/x/detector.git /opt/detector\nWORKDIR /opt/detector\n",
            "helper.py": "print(1)\n",
            "run.sh": "#!/bin/bash\ndocker run --rm detector:v0 python3 demo/demo.py --config-file configs/mask_rcnn.yaml\n",
            "pod.yaml": (
                "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: demo\n    image: detector:v0\n"
                "    command: [python3, demo/demo.py, --config-file, configs/cascade.yaml]\n"
            ),
        }
    ),
    Example(  # after a `cd` into a repository the task clones itself, though the project has a directory of its name; a Jinja expression's words
        {
            "tool/__init__.py": "",
            "task.yaml": (
                "run: |\n  git clone https://github.com/org/tool.git\n  cd tool\n"
                "  python train.py --config configs/base.yaml\n"
            ),
            "tasks.yml": "- name: Train\n  command: python3 train.py --config '{{ cfg_dir }}/base.yaml'\n",
            "train.py": "print(1)\n",
        }
    ),
    Example(  # made by a setup script, or in a repository one clones; in an image, found by name
        {
            "setup.sh": (
                "#!/bin/bash\ncat > configs/ds_generated.json <<EOF\n{}\nEOF\n"
                "git clone https://github.com/org/harness.git\n"
            ),
            "train.sh": (
                "#!/bin/bash\ndeepspeed train.py --deepspeed configs/ds_generated.json\n"
                "python harness/run.py --config harness/configs/mmlu.yaml\n"
            ),
            "train.py": "print('train')\n",
            "configs/small.yaml": "a: 1\n",
            "compose.yaml": (
                "services:\n  trainer:\n    image: trainer\n    working_dir: /app\n"
                "    command: python train.py --config configs/small.yaml\n"
            ),
        }
    ),
    Example(  # a config an earlier step writes into the output directory the launcher names
        {
            "eval.sh": (
                "#!/bin/bash\npython train.py --output_dir outputs/run1\n"
                "python eval.py --config outputs/run1/config.yaml\n"
            ),
            "train.py": "print('train')\n",
            "eval.py": "print('eval')\n",
        }
    ),
    Example(  # URLs, fetched or opened where the job runs: no project paths, even when a file has the name
        {
            "run.sh": (
                "#!/bin/bash\npython train.py --config s3://bucket/x.yaml\npython train.py --config https://example.com/x.yaml\n"
                "python train.py --config gs://b/x.yaml --deepspeed hf://org/repo/ds.json\n"
                "python train.py --config=file:///etc/x.yaml\n"
            ),
            "train.py": "print('train')\n",
            "configs/x.yaml": "a: 1\n",
        }
    ),
    Example(  # patterns bash expands (into files that exist, or not): not judged, quoted or not
        {
            "run.sh": (
                "#!/bin/bash\npython train.py --config configs/*.yaml\npython train.py --config configs/exp_{1,2}.yaml\n"
                "python train.py --config \"configs/exp[12].yaml\" --deepspeed ds_?.json\n"
            ),
            "train.py": "print('train')\n",
            "configs/a.yaml": "a: 1\n",
            "configs/exp_1.yaml": "a: 1\n",
        }
    ),
    Example(  # absolute, and no `path-map` prefix claims it (tests/test_launcher_contracts.py has one):
        # on the machine that runs the job
        {
            "run.sh": "#!/bin/bash\npython train.py --config /opt/x.yaml\nssh gpu1 'python /srv/t.py --config /root/gone.yaml'\n",
            "train.py": "print('train')\n",
        }
    ),
    Example(  # a config the launcher tests for first
        {"train.sh": "#!/bin/bash\nif [ -f configs/local.yaml ]; then\n  python train.py --config configs/local.yaml\nfi\n"}
    ),
    Example(  # after a `cd` out of the project, the path starts in a directory the project may not have
        {"eval.sh": "#!/bin/bash\ncd /opt/harness && python3 main.py --config config-report.py\n"}
    ),
    Example(  # a step in another repository's checkout: its files are not the project's
        {
            "configs/base.yaml": "a: 1\n",
            ".github/workflows/eval.yml": (
                "on: push\njobs:\n  eval:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n        with:\n          repository: org/harness\n"
                "          path: harness\n"
                "      - working-directory: harness\n        run: python run.py --config configs/run.yaml\n"
            ),
        }
    ),
    Example(  # a default that the project's callers set: the file that runs is theirs (also Hydra's name)
        {
            "train.py": "print(1)\n",
            "main.py": "import hydra\n",
            "conf/base.yaml": "a: 1\n",
            "run.sh": (
                "#!/bin/bash\nCFG=${CFG:-configs/small.yaml}\npython train.py --config $CFG\n"
                "python train.py --config=${CFG2:-configs/b.yaml}\npython main.py --config-path conf --config-name ${NAME:-gsm8k}\n"
            ),
            "sweep.sh": "#!/bin/bash\nCFG=configs/big.yaml bash run.sh\nexport CFG2=configs/c.yaml NAME=base\nbash run.sh\n",
        }
    ),
    Example(  # a Makefile's `?=` default is whoever runs make's (`make train CFG=configs/big.yaml`), as for LL302, LL303, LL401
        {"train.py": "print(1)\n", "Makefile": "CFG ?= configs/small.yaml\ntrain:\n\tpython train.py --config $(CFG)\n"}
    ),
    Example(  # an argument's default that the project's callers give: the file that runs is theirs
        # (an argument, words not known here, a job's argument)
        {
            "train.py": "print(1)\n",
            "run.sh": "#!/bin/bash\nCFG=${1:-configs/small.yaml}\npython train.py --config $CFG\n",
            "eval.sh": "#!/bin/bash\npython train.py --config ${2:-configs/eval.yaml}\n",
            "job.sh": "#!/bin/bash\nsrun python train.py --config ${1:-configs/job.yaml}\n",
            "sweep.sh": "#!/bin/bash\nbash run.sh configs/big.yaml\n./eval.sh \"$@\"\nsbatch -N 2 job.sh configs/big.yaml\n",
        }
    ),
    Example(  # an `if` on the argument that a caller gives; an `if` on something else, or whose arm does more, is no default
        {
            "train.py": "print(1)\n",
            "configs/big.yaml": "a: 1\n",
            "run.sh": '#!/bin/bash\nif [ -z "$1" ]; then CFG=configs/small.yaml; else CFG="$1"; fi\npython train.py --config $CFG\n',
            "eval.sh": (
                '#!/bin/bash\nif [ -n "$FAST" ]; then CFG=$1; else CFG=configs/small.yaml; fi\npython train.py --config $CFG\n'
                'if [ -n "$1" ]; then C=$1; else echo "usage: eval.sh CFG"; exit 1; fi\npython train.py --config $C\n'
                'if [ -n $2 ]; then C2=$2; else C2=configs/small.yaml; fi\npython train.py --config $C2\n'
            ),
            "sweep.sh": "#!/bin/bash\nbash run.sh configs/big.yaml\n",
        }
    ),
    Example(  # an arm that cannot run with the value, or whose conditions read it otherwise
        {
            "train.py": "print(1)\n",
            "configs/big.yaml": "lr: 1\n",
            "run.sh": (
                '#!/bin/bash\nm=small\nif [ "$m" = big ]; then\n  python train.py --config configs/$m.yaml\nfi\n'
                'if [ "$m" = big ] || [ "$m" = huge ]; then python train.py --config configs/$m.yaml; fi\n'
            ),
        }
    ),
    Example(  # not the arguments the script was started with: a function's, after `shift` or `set --`, another shell's
        {
            "train.py": "print(1)\n",
            "run.sh": (
                "#!/bin/bash\ntrain() {\n  python train.py --config ${1:-configs/a.yaml}\n}\ntrain configs/big.yaml\n"
                "bash -c 'python train.py --config ${1:-configs/b.yaml}' _ configs/big.yaml\n"
                "shift\npython train.py --config ${1:-configs/c.yaml}\n"
            ),
            "eval.sh": "#!/bin/bash\nset -- configs/big.yaml\npython train.py --config ${1:-configs/d.yaml}\n",
        }
    ),
    Example(  # `JOB=1:4`: the runner puts each copy's number where its command says `JOB`
        {
            "run.sh": "#!/bin/bash\n$decode_cmd JOB=1:4 exp/log/d.JOB.log python3 decode.py --config conf/JOB.yaml\n",
            "conf/1.yaml": "a: 1\n",
        }
    ),
]


def check(project) -> list[Finding]:
    found: list[tuple[Word, Finding]] = []  # each missing config file, with the word that names it
    changes = partial(directory_changes, project)  # a launcher's cds, read when a config path asks
    for path, script in project.shell.items():
        made: set[str] | None = None
        for command in script.effective_commands():
            for run in variants(project, path, command) if script.loop_values else (command,):  # each time round a loop (`--config "$cfg"`)
                for option, word in _config_files(project, run):
                    if run.word_defaults and _caller_decides(project, path, run, word):
                        continue  # `--config ${CFG:-a.yaml}`, and a caller sets CFG: the default is not what runs
                    if word.value is None:  # only a path from the launcher's own directory is known
                        found += ((word, f) for f in _own_config(project, path, command, option, word))
                        continue
                    if not _found(project, path, command, word, changes, run):
                        made = _made(project, script) if made is None else made
                        value = posixpath.normpath(word.value or "")
                        if value in script.tested or arm_rules_out(project, command, word):
                            continue  # `[ -f local.yaml ] && python ...`; `if [ "$m" = b ]; then ... --config $m.yaml` after `m=a`
                        if value in made or project.made.holds(value, project, by=path) or gitignored_there(project, path, value):
                            continue  # made here, or a local file .gitignore keeps out of the repository
                        if not _into_made_directory(project, path, value, made):
                            finding = _missing(project, path, word, f"`{option} {word.value}`: no such file, so {FAILURE}")
                            found.append((word, finding._replace(related=finding.related + _looped(path, command, run, word))))
                found += ((w, f) for w, f in _hydra(project, path, run) if not (run.word_defaults and _caller_decides(project, path, run, w)))
    return once_per_word(project, found, "passed here too, from the same variable's value")


def _caller_decides(project, path: str, command: Command, word: Word) -> bool:
    """The path took a default that a caller of the script sets (`--config ${CFG:-a.yaml}`, run as
    `CFG=b.yaml bash run.sh`), or a Makefile's `?=` one: the file that runs is the caller's
    (`decided_by_caller`, as LL303 asks of a script)."""
    took = frozenset().union(*(command.defaults_of(w) for w in command.words if w.location.holds(word.location)))
    return decided_by_caller(project, path, took)


def _config_files(project, command: Command) -> list[tuple[str, Word]]:
    """The config files the command passes (`config_files`), and those it passes in its program's
    own spellings of those options, when the program's parser is known: `-c x.yaml` to a parser
    with `-c/--config`, or argparse's unambiguous prefix `--conf x.yaml` of its `--config`; and
    every value of such an option that takes several (`nargs='+'`: OpenOOD's `--config a.yml
    b.yml`), not only the first; after a subcommand's name, in its parser's spellings."""
    invocation = project.graph.invocation(command)
    if _runs_console_script(project, command):
        # the project's console script by its name (`fq-train --config x.yaml`): a Python program of its own
        found = [(o, f) for o, w in option_values(command, CONFIG_OPTIONS) if (f := config_file(w)) is not None]
    else:
        found = config_files(command)
    program = launched(project, invocation) if invocation is not None and invocation.kind in ("python", "module", "console") else None
    if program is None:
        return found
    args = invocation.args
    for i, word in enumerate(args):
        head, equals, _ = (word.value or "").partition("=")
        if not head.startswith("-"):  # a subcommand's name: its parser's options from there (`run.py train -c x.yaml`)
            if not program.positionals:
                program = program.commands.get(head, program)
            continue
        option = program.option(head)
        if not isinstance(option, Option) or not any(flag in CONFIG_OPTIONS for flag in option.flags):
            continue
        values = [value_part(word, len(head) + 1)] if equals else _taken(args, i + 1, option.nargs)
        if head in CONFIG_OPTIONS:
            values = values[1:]  # the first is `config_files`'
        found += [(head, file) for value in values if (file := config_file(value)) is not None]
    return found


def _taken(args: list[Word], start: int, nargs: str | None) -> list[Word]:
    """The words from `start` that argparse gives an option of `nargs` as its value: one, a number
    of them, or (`+`, `*`) every word up to the next that starts with `-`."""
    if nargs in ("+", "*"):
        end = next((j for j in range(start, len(args)) if (args[j].value or args[j].template).startswith("-")), len(args))
        return args[start:end]
    return args[start : start + (int(nargs) if nargs and nargs.isdigit() else 1)]


def _looped(path: str, command: Command, run: Command, word: Word) -> tuple[Related, ...]:
    """Where the command runs with the value, when it is a word of its loop's list (`for cfg in
    a.yaml b.yaml; do python train.py --config "$cfg"`): the finding is on that word. Not for a
    word the command writes itself, though it runs round a loop (`--dev $CVD` beside it)."""
    if run is command or command.location.holds(word.location):
        return ()
    return (Related(command.location, f"{path} passes it here, the loop's variable taking each word of the list"),)


def _found(project, path: str, command: Command, word: Word, changes: Callable[[str], list], run: Command) -> bool:
    """Found as LL303 finds a script, or next to the program, or in a project directory the
    launcher `cd`s into first; or not ours to judge: an absolute path no `path-map` prefix claims
    for the project, a URL (`s3://b/x.yaml`, `file:///etc/x.yaml`) or a pattern (`configs/*.yaml`,
    `exp_{1,2}.yaml`), the argument of a module from outside the project (it may ship its
    configs) or of a script in a directory the project lacks (LL303's `not_the_projects`), or a
    local relative path after a `cd` to anywhere else. `run` is the command as it runs one time
    round its loop (`graph.variants`), `word` one of its words."""
    value = word.value or ""
    if value.startswith("~") or not names_a_path(value):
        return True
    # A Compose service's or Kubernetes container's command runs in its image: by name, as remote.
    remote = command.remote or project.shell[path].in_image
    if value.startswith("/"):
        return remote or _found_mapped(project, path, word)
    program = _program_file(project, run)
    if program is None and not _launcher_option(run, word) and (_runs_module(run) or not remote and _not_ours(project, run, changes)):
        return True  # a module from outside the project (it may ship its configs), a script of another checkout
    if program is None and not remote and _beside_script(project, run, value) and _not_ours(project, run, changes):
        return True  # the launcher's config in the same missing directory as that checkout's script
    near = (posixpath.dirname(program),) if program else ()
    if remote and not_ours_after_cd(project, path, command, value):
        return True  # `ssh gpu1 "cd $REMOTE_DIR && python eval.py -c x.yaml"`: another checkout there; a clone's
    before: list[str | None] = []  # the `cd`s that ran first (none on another host: its own)
    if not remote:
        before = moved_before(changes(path), command)
        if None in before:
            return True  # a `cd`/`pushd` to somewhere we may not know ran first
        near += tuple(before)
    declared, start = start_directory(command)
    if declared and not remote:  # a step's `working-directory`: one the project lacks is another checkout's
        if start is None or not project.on_disk(start, directory=True):
            return True
        near += (start,)
    placed = not (remote or before or declared) and _up_from_run_directory(project, path, value, changes)
    files = project_files(project)
    if files.holds(word, path, remote=remote, near=near, placed=placed):
        return True
    # in a container, a name no file of the project has may be a file of a repository the image clones, as LL303's script
    return remote and not files.resolver.by_name.get(posixpath.basename(value)) and in_a_cloned_image(project, path, command)


def _up_from_run_directory(project, launcher: str, value: str, changes: Callable[[str], list]) -> bool:
    """The path climbs up (`../`) from the directory the launcher says it is run from (it sources
    `./path.sh`, which only that one has: LL303's `run_directory`) into a directory the project has:
    it names that one place, though from a directory above the launcher it would leave the
    project (wenet's recipes pass `--deepspeed_config ../../aishell/s0/conf/ds_stage2.json`)."""
    if not posixpath.normpath(value).startswith("../"):
        return False
    run = run_directory(project, launcher, changes)
    return run is not None and into_the_project(project, run, value)


def _found_mapped(project, path: str, word: Word) -> bool:
    """A local absolute path, as LL303 finds one: judged only when a `path-map` prefix claims it
    for the project (`/root/c.yaml` with `/root/: deploy/`), and found there, or as the project's
    only file of its name; or in a directory the project does not have (made at set-up)."""
    mapped = path_mapped(project, word.value or "")
    if not mapped or project_files(project).resolver.resolve(word, path) is not None:
        return True
    return any(project.on_disk(joined(d, p)) for d, p in mapped) or not any(into_the_project(project, d, p) for d, p in mapped)


def _own_config(project, path: str, command: Command, option: str, word: Word) -> Iterator[Finding]:
    """`--deepspeed_config "$(dirname "$0")/ds.json"`: the one place the file can be, as LL303
    reads a script's path from the launcher's own directory (not on a remote host or in an image)."""
    if command.remote or project.shell[path].in_image:
        return
    own = missing_own_path(project, path, word)
    if own is not None:
        yield Finding(word.location, f"`{option} {word.text}` leads to {own}, which does not exist, so {FAILURE}; {FIX}")


def _missing(project, launcher: str, word: Word, message: str) -> Finding:
    """The finding, its fix offering the file of the project whose name is most like the missing
    one's (`configs/llama7b.yaml` for `configs/llama7b.yml`), as LL303 offers a script."""
    resolver = project_files(project).resolver
    near = resolver.near(word.value or "", launcher)
    if not near or near == launcher:
        return Finding(word.location, f"{message}; {FIX}")
    return Finding(
        word.location,
        f"{message}; fix the path (did you mean `{resolver.as_written(near, word.value or '', launcher)}`?), or create it",
        (Related(Location(near, 1, 1, 1, 1), f"{near} is a file of the project"),),
    )


# Commands that only read or print the paths they are given: `echo $CFG`, `RUN=$(basename $CFG
# .yaml)` make no config (helper-320: either one hid a missing config of the same script).
READ_ONLY = frozenset({
    "echo", "printf", "basename", "dirname", "realpath", "readlink", "ls", "cat", "test", "[", "[[", "grep",
    "head", "tail", "wc", "stat", "file", "md5sum", "sha1sum", "sha256sum", "diff", "cmp", "du",
})  # fmt: skip


def _made(project, script: ShellScript) -> set[str]:
    """Paths the script makes itself: redirected or teed into, or named as an argument of a
    command that is not told to read it as a config and does more than read or print it (`cp
    template.json ds.json`, `sed`; not `echo`, `basename`: `READ_ONLY`); and the directories it
    hands a program as values of its options (`--output_dir out/run1`, `--output_dir=out/run1/`),
    which an earlier step may write a config into."""
    made = {posixpath.normpath(w.value) for w in written_paths(script) if w.value}
    for command in script.effective_commands():
        if command.name in READ_ONLY:
            continue
        if not runs_python(command) and not _runs_console_script(project, command):  # not a config it is told to read (`prep-features --config conf/b.yaml`)
            read = {id(word) for _, word in option_values(command, CONFIG_OPTIONS)}
            made.update(posixpath.normpath(w.value) for w in command.args if w.value and id(w) not in read)
        else:
            values = (_option_value(w.value) for w in command.args if w.value)
            made.update(posixpath.normpath(v) for v in values if v and "." not in posixpath.basename(v))
    return made


def _option_value(text: str) -> str:
    """The value of `--opt=value` (lerobot's `--output_dir=tests/outputs/act/`), else the word."""
    head, equals, value = text.partition("=")
    return value if equals and head.startswith("-") else text


def _runs_console_script(project, command: Command) -> bool:
    """The command runs a console script of the project's packages by its name (`fq-train -c x.yaml`)."""
    invocation = project.graph.invocation(command)
    return invocation is not None and invocation.kind == "console" and invocation.target is command.words[0]


def _into_made_directory(project, launcher: str, value: str, made: set[str]) -> bool:
    """`--output_dir out/run1` to one program, then `--config out/run1/config.yaml` to the next:
    the path is inside a directory the launcher names and the project does not have, which an
    earlier step writes (a config an output directory holds)."""
    here = posixpath.dirname(launcher)
    while "/" in value and value != "/":  # `/root/c.yaml`, a path-map's, stops at `/`
        value = posixpath.dirname(value)
        if value in made:
            return not any(project.on_disk(joined(base, value), directory=True) for base in (here, ""))
    return False


def _hydra(project, launcher: str, command: Command) -> Iterator[tuple[Word, Finding]]:
    """`--config-path DIR --config-name NAME`: DIR relative to the program's file, NAME.yaml in it."""
    # The program first: most commands run none, and their words need no search for the options
    # (-22 M instructions of 520 on the 1,000-file benchmark).
    program = _program_file(project, command)
    if program is None:
        return
    given = {HYDRA[option]: word for option, word in option_values(command, tuple(HYDRA))}
    if not given:
        return
    module = project.python.get(program)
    if module is not None and not _imports_hydra(module):
        hydra = _hydra_entry(project, module)
        if hydra is None:
            return  # its own `--config-path` (argparse's, a file): not Hydra's, relative to no file
        module = hydra  # a thin entry point calling an imported `@hydra.main` function: its file's config path
        program = module.path
    directory, name = given.get("--config-path"), given.get("--config-name")
    if directory is None and "--config-dir" in given and not any(_spelled(word, PATH_OPTIONS[:2]) for word in command.words):
        yield from _in_config_dir(project, launcher, command, program, module, given["--config-dir"], name)
        return
    if directory is None:  # the config path `@hydra.main` declares, unless one is given in any spelling
        if any(_spelled(word, PATH_OPTIONS) for word in command.words):
            return
        decorator = _declared_config_path(module) if module is not None else None
        if decorator is None or name is None or not name.value or decorator[0].startswith(("/", "~", "pkg:")):
            return
        declared, where = decorator
        config_dir = joined(posixpath.dirname(program), declared)
        related = Related(where, f"config_path={declared!r}, relative to {program}")
        if _stored(project, name.value):
            return
        if project_files(project).on_disk(config_dir, directory=True):
            yield from _missing_name(project, program, config_dir, name, given, related)
        elif not config_dir.startswith("../") and into_the_project(project, "", posixpath.join(config_dir, "x")):
            yield name, Finding(  # lama's `whydra/`, removed while bin/gen_mask_dataset_hydra.py still declares it
                name.location,
                f"`--config-name {name.value}`: the config path {program} declares, `{config_dir}/`, does not exist: "
                f"Hydra stops at start-up with 'Primary config directory not found'; {FIX}",
                (related,),
            )
        return
    if not directory.value or directory.value.startswith(("/", "~", "pkg:")) or anchored(command, directory):
        return  # absolute (`--config-path="$(pwd)/conf"` too, once it runs): relative to no file
    config_dir = joined(posixpath.dirname(program), directory.value)
    files = project_files(project)
    if not files.on_disk(config_dir, directory=True):
        yield directory, Finding(
            directory.location,
            f"`--config-path {directory.value}` is relative to {program}, and `{config_dir}/` does not exist: "
            f"Hydra stops at start-up with 'Primary config directory not found'; {FIX}",
            _config_elsewhere(project, launcher, program, directory.value, name),
        )
    elif name is not None:
        yield from _missing_name(project, program, config_dir, name, given, Related(directory.location, f"--config-path is relative to {program}"))


def _config_elsewhere(project, launcher: str, program: str, directory: str, name: Word | None) -> tuple[Related, ...]:
    """Where the config `--config-name` names is, when the config path is missing: the project's
    one file of that name placed where the launcher's path or the written path says
    (`Resolver.near`, a missing script's "did you mean"), and the config path that finds it.
    verl-tool's `--config-path=${BASEDIR}/recipe/deepeyes/configs`, with a placeholder
    `BASEDIR=base_dir`, means the `verl/recipe/deepeyes/configs/` that holds its config."""
    if name is None or not name.value:
        return ()
    file = _config_name_file(name.value)
    home = project_files(project).resolver.near(posixpath.join(directory, file), launcher)
    if home is None or posixpath.basename(home) != file:
        return ()
    there = posixpath.relpath(posixpath.dirname(home), posixpath.dirname(program))
    return (Related(Location(home, 1, 1, 1, 1), f"`--config-name {name.value}` is here: `--config-path {there}` finds it"),)


def _missing_name(project, program: str, config_dir: str, name: Word, given: dict, where: Related) -> Iterator[tuple[Word, Finding]]:
    """`--config-name NAME` when NAME(.yaml) is not in the primary config directory (and no
    `--config-dir` adds another); `where` says what that directory is relative to."""
    if not name.value or "--config-dir" in given:
        return
    file = posixpath.join(config_dir, _config_name_file(name.value))
    if not project_files(project).on_disk(file):
        yield name, Finding(
            name.location,
            f"`--config-name {name.value}`: `{file}` does not exist, so Hydra stops at start-up with "
            f"MissingConfigException; fix the name, or create it",
            (where,),
        )


def _in_config_dir(project, launcher: str, command: Command, program: str, module, added: Word, name: Word | None) -> Iterator[tuple[Word, Finding]]:
    """`--config-dir DIR --config-name NAME` with no `--config-path` (ONE-PEACE's run scripts):
    NAME.yaml in DIR, which is relative to where the command runs (the launcher's directory or
    the root), or in the config path `@hydra.main` declares, or registered in code; else missing.
    Not judged when DIR is not a directory of the project there, or a `cd` comes first."""
    if name is None or not name.value or not added.value or added.value.startswith(("/", "~")) or anchored(command, added):
        return
    if moved_before(directory_changes(project, launcher), command):
        return
    file = _config_name_file(name.value)
    files = project_files(project)
    places = {joined(base, added.value) for base in (posixpath.dirname(launcher), "")}
    if not any(files.on_disk(place, directory=True) for place in places):
        return
    declared = _declared_config_path(module) if module is not None else None
    if declared is not None and not declared[0].startswith(("/", "~", "pkg:")):
        places.add(joined(posixpath.dirname(program), declared[0]))
    if any(files.on_disk(posixpath.join(place, file)) for place in places) or _stored(project, name.value):
        return
    yield name, Finding(
        name.location,
        f"`--config-name {name.value}`: no `{file}` in `--config-dir {added.value}` (nor in the program's config path), so "
        f"Hydra stops at start-up with MissingConfigException; fix the name, or create it",
        (Related(added.location, "--config-dir adds this directory, relative to where the command runs"),),
    )


def _config_name_file(name: str) -> str:
    """The file Hydra reads for `--config-name NAME`: NAME.yaml, or NAME as written with its suffix."""
    return name if name.endswith((".yaml", ".yml")) else name + ".yaml"


def _spelled(word: Word, options: tuple[str, ...]) -> bool:
    """`--config-path DIR`, `--config-path="$DIR"` or `-cp DIR`, as written."""
    text = word.value if word.value is not None else word.template
    return text.partition("=")[0] in options


def _imports_hydra(module) -> bool:
    return any(q == "hydra" or q.startswith("hydra.") for q in module.imports.values())


def _hydra_entry(project, module):
    """The project module whose `@hydra.main` function a thin entry point calls at its top level
    (rl4co's `run.py`: `from rl4co.tasks.train import train`, then `train()` under `__main__`): the
    config path is that module's file's (helper-332). None when there is not exactly one."""
    found = set()
    for call in module.functions[MODULE_SCOPE].calls if MODULE_SCOPE in module.functions else ():
        located = locate_import(project, module, module.qualified(call.callee))
        if located is not None and _imports_hydra(located[0]) and _declared_config_path(located[0]) is not None:
            found.add(located[0])
    return found.pop() if len(found) == 1 else None


def _declared_config_path(module) -> tuple[str, Location] | None:
    """The literal `config_path` of the module's `@hydra.main(...)` (its keyword or first argument),
    and where that decorator is; None when it has none, several, or one that is not a string literal."""
    found = {
        dict(call.keywords).get("config_path") or (call.args[0] if call.args else ""): call.location
        for call in reversed(module.functions[MODULE_SCOPE].calls)  # the first call of a value wins
        if module.qualified(call.callee) == "hydra.main"
    } if MODULE_SCOPE in module.functions else {}
    value, where = found.popitem() if len(found) == 1 else ("", None)
    return (value[1:-1], where) if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else None


def _stored(project, name: str) -> bool:
    """Whether a module of the project registers a config of that name in code
    (`cs.store(name="ppo", node=PPOConfig)`; facts do not spell the method of a call's result,
    `ConfigStore.instance().store(...)`, so any such call naming it counts): Hydra finds it there."""
    wanted = repr(name)
    return any(
        call.callee.rpartition(".")[2] in ("store", "")
        and wanted in (dict(call.keywords).get("name"), *call.args[:1])
        for module in project.python.values()
        for function in module.functions.values()
        for call in function.calls
    )


def _program_file(project, command: Command) -> str | None:
    """The project file of the Python program the command runs: its script, or its `-m` module."""
    invocation = project.graph.invocation(command)
    return invocation.callee if invocation is not None else None


def _not_ours(project, command: Command, changes: Callable[[str], list]) -> bool:
    """The command runs a script by a relative path into a directory the project does not have,
    which LL303 leaves alone: it runs in another checkout (LLaVA-pp's `deepspeed
    llava/train/train_mem.py`, run in LLaVA's)."""
    invocation = project.graph.invocation(command)
    if invocation is None or invocation.kind != "python" or (invocation.target.value or "").startswith(("/", "~")):
        return False  # `~/hf/transformers/run_clm.py` says nothing of where it runs: the config may be ours
    return not_the_projects(project, invocation, changes)


def _beside_script(project, command: Command, value: str) -> bool:
    """Whether a config path starts with the directory the script the command runs is written
    under (`examples/accelerate_configs/zero3.yaml` for `examples/scripts/prm.py`)."""
    invocation = project.graph.invocation(command)
    target = posixpath.normpath(invocation.target.value or ".") if invocation is not None else "."
    return "/" in target and posixpath.normpath(value).partition("/")[0] == target.partition("/")[0]


def _runs_module(command: Command) -> bool:
    """`python -m pkg.train`, `torchrun -m pkg.train`: a module rather than a script path."""
    launch = launch_of(command)
    run = python_run(command) if launch is None else None
    target = launch.program if launch is not None else (run.target if run is not None else None)
    return target is not None and target.value is not None and not target.value.endswith(".py")


def _launcher_option(command: Command, word: Word) -> bool:
    """`accelerate launch --config_file x.yaml`: read by the launcher itself, from where it runs."""
    launch = launch_of(command)
    return launch is not None and any(word.location == w.location for w in launch.options.values())
