"""## What it does
Finds a launcher that passes `--flag` to a Python program of the project whose command line does
not define it: an argparse parser, an `HfArgumentParser` over the project's dataclasses (and
transformers' `TrainingArguments`), a click command or a typer app. A flag counts as defined when
the parser would accept it, prefixes included; the launcher's own options (torchrun's
`--nproc_per_node`) are never taken as the program's.

## Why is this bad?
argparse stops the program with `error: unrecognized arguments: --warmup-steps 500` in its
first second. Under torchrun every rank dies the same way, the job is torn down, and a SLURM
job has spent its queue time for nothing. A typo in a rarely used flag is found only when the
job is finally scheduled.

## Example
```bash
# launch.sh
torchrun --nproc_per_node 8 train.py --warmup-steps 500
```
```python
# train.py
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--warmup_steps", type=int)
args = parser.parse_args()
```

## Use instead
```bash
# launch.sh
torchrun --nproc_per_node 8 train.py --warmup_steps 500
```
```python
# train.py
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--warmup_steps", type=int)
args = parser.parse_args()
```

## Details
The program is what `python x.py`, `python -m pkg.mod`, `python DIR` (its `__main__.py`, also
for a DIR from the launcher's own directory: `python "$(dirname "$0")/../app"`),
`torchrun` (and nvidia-resiliency-ext's `ft_launcher`, built on it), `accelerate launch`,
`deepspeed`, MindSpore's `msrun`, `composer` and `srun` start, or `./x.py` and
`./train` (a file with no extension that is Python by its `#!` line) run by their path or given
to a launcher (`torchrun train`), also inside `ssh`/`tmux`/`bash -c` strings, `eval` of a
known string, a command line `read` takes from a heredoc or a here-string (OpenRLHF's `read -r
-d '' CMD <<EOF ... EOF`, then `deepspeed --module $CMD`) and a Ray job's command line, which Ray's job supervisor runs with /bin/sh: `ray
job submit -- A=1 python3 train.py` runs `train.py` with A set, and `ray job submit -- "python3
train.py --lr 1"`, one quoted word, a program of that name, which sh does not find (the Ray docs'
warning), so nothing in it is judged.

A console script of the project's own packages, run by its name (`fairseq-train data --arch x`,
also after `nohup`, `srun`, an assignment or in a `bash -c` string), is its function's program:
the scripts pyproject.toml's `[project.scripts]` and `[tool.poetry.scripts]`, setup.cfg's
`console_scripts` and setup.py's `setup(entry_points={"console_scripts": [...]})` (a literal)
declare, read and never run, each for the package rooted at its file's directory (its `src/`, or
the directory its `package-dir`/`where` names). Its command line is the click command or typer app
of the function's name; else the module's own program when the function reaches where that parser
is made or parsed (itself, or the functions it calls, in its module or imported), or the module
parses on import; else the one parser the function parses, in up to 6 calls. A name two packages
declare otherwise, or whose module or function is not found, is no program; `command -v NAME`,
`type NAME` and `which NAME` run nothing.

A flag whose value is not known here is judged by the flag as written (`--run_name=$RUN`,
`--run_name=$(date +%s)`): argparse reads the word as that flag whatever the value, unless a value
with a blank in it makes an unknown flag's word a positional, which a parser without positional
arguments refuses as well.

A launcher that appends the local rank to its program's arguments, `deepspeed` (`--local_rank=N`,
unless told `--no_local_rank`) and `python -m torch.distributed.launch` (unless told `--use_env`:
`--local-rank=N` since torch 2.0, `--local_rank=N` before; ATorch's fork only when told
`--not_use_env`), runs a program whose parser defines neither spelling into argparse's
"unrecognized arguments" in every process: reported at the program's word (the torch release is
not known here, so a parser with one spelling is taken as made for it). torchrun and `accelerate
launch` give the rank in the environment (LOCAL_RANK).

A word written right after a switch of an argparse parser (`store_true`, `store_false`,
`store_const`, `append_const`, `count`) that defines no positional argument, nor the subcommand's
parser the launch runs, is one argparse leaves over, as it leaves an unknown flag: `--cpu-offload
on`, `--fp16 True` (HfArgumentParser's bools take a value; plain argparse's do not) exit with
"unrecognized arguments". It is reported at the word; where the word asks for what the switch
does not set (`--fp16 False` of a `store_true`), the fix removes the switch too. So is a word
after the values of an option that takes a fixed number of them (`store` or `append`, `nargs`
none or a number: `--batch-size 8 16`, `--batch-size=8 16`), and a value written on such a
switch (`--fp16=True`: argparse's "ignored explicit argument 'True'"), at the `--flag=value` word.
Not judged: a word after `--`, not static, starting with `-`, or after a BooleanOptionalAction's
flag, an option's of `nargs='?'`, `'+'` or `'*'`, or a custom action's; one that
may name a file of arguments where a parser has `fromfile_prefix_chars` (`@args.txt`); a launch
with `-h` or `--version` (argparse prints it and exits 0 where it reads it, first); a flag the
module takes out of `sys.argv` itself; HfArgumentParser, click, typer and fire programs.

A parser whose subparsers are handed to code that is not read (transformers' old
`transformers-cli`: `DownloadCommand.register_subcommand(commands_parser)`) has subcommands not
known: no flag of its command lines is judged.

The message names the program as written, or by its file's path where that does not say which
file runs: a path the launcher builds (`"$HERE/train.py"`), or one that names another file from
where the launcher started than where a `cd` runs it (`train.py` after `cd autoencoder` is
autoencoder/train.py). LL302's messages name it so too.

Its file is one the written path can name, looked for where LL303 looks (a launcher of a
project nested in this one, a vendored copy with its own `pyproject.toml`, `setup.py` or CI
files, names that project's `tools/x.py`, and runs its `-m pkg.train`, before the outer root's).
A relative path names a file whose path ends in it (`../train/x.py`: `train/x.py` or
`exp/train/x.py`, not `other/x.py`), or in what follows the name the checkout goes by from its parent: the root's
own, or in a workflow the `path:` of its
`actions/checkout` of the project itself (`proj/tools/x.py` after `path: proj` is `tools/x.py`;
not after a checkout of another `repository:` there). An absolute one, mapped
into a container or on another host, names a file whose path it ends in (the project mounted
above it: `/app/tools/x.py` is `tools/x.py`), one in a directory of its directory's name (mounted
under that name: `/workspace/utils/x.py` is `bench/utils/x.py`), or the file a `path-map` prefix
maps it to; never the project's only `x.py` in another directory. On another host or in a
container, a relative path is read where the `cd`s there take it: after a static absolute one,
as the absolute path it makes (`ssh gpu1 "cd /opt/other && python launch.py"` runs
`/opt/other/launch.py`, which is not `tool/launch.py`; after `cd /opt/proj/tool` it is); after
one into a directory not known here (`cd $REMOTE_DIR`, `cd ~/other`, a bare `cd`) or into a
repository a script of the project clones, it is another checkout's program, whose flags are not
judged (LL303 takes it so too); a home's directory of the checkout's own name (`cd ~/proj` in
proj's launchers) is the project. A relative `cd` there (`cd proj/tool`) keeps the path read by
name. The launcher's own shell reads it so too after a static absolute `cd` (`cd /opt/other &&
python launch.py`, `(cd /opt/other && ...)` in a subshell, `pushd /opt/other`) or one into a
home's directory (`cd ~/other`: another checkout's; `cd ~/proj`, `cd ~ && cd proj`: the
project), and relative ones after it (`cd /opt/proj && cd tool`), until it goes back (`cd -`,
`popd`, the subshell's end) or into a directory known here (`cd "$(dirname "$0")"`); after a `cd`
not known here (`cd $ROOT`, often the project's root), or a static absolute one followed by one
not known, the path is read by name, as with no `cd`. A module is the file of its path there (`-m
tool.launch` is `tool/launch.py`): after `cd /opt/proj`, `/opt/proj/tool/launch.py`, the
project's `tool/launch.py` mounted there; after `cd ~/other`, or `cd $REMOTE_DIR` on another
host, another checkout's.

Its command line is the one parser that parses the process's arguments:
- an argparse parser, with argument groups, `parents=[...]`, subparsers, its `add_argument`
  bound to a name (`arg = parser.add_argument`, then `arg('--lr')`), or to a lambda that hands it
  its arguments as it takes them (`lambda *a, **k: parser.add_argument(*a, **k)`; handed to a
  library, as `functools.partial(parser.add_argument, type=int)`, kept on `self`, replaced
  (`parser.add_argument = wrapper`), or in a lambda that adds otherwise, it leaves the parser
  unknown), and helpers that add to it or build it, in the module or in a project function it
  imports and calls: `add_data_args(parser)` from another module, which may hand it on to
  helpers of its own (all its options may come from them), or `parser = get_parser()` whose
  name says it builds one; a helper whose name is imported from two modules (in an if's arms, a
  `try:` and its `except:`) adds their options when they add the same, else the parser is unknown
  (and a builder so imported builds none that is read); argparse's private `_add_action(action)`
  or `_add_container_actions(other)` adds options not read, so the parser is unknown (VACE copies
  other parsers' actions into its pipeline's so); configargparse's `ArgParser`/`ArgumentParser`
  is one too (its `-c/--config` file LL304's), but one that adds through its own `add`/`add_arg`
  is unknown. Options a `for` loop over a literal list (or `range()` of literal numbers; loops
  nested in it too) adds are read each time round, their flags, `dest` and `required` made of
  the loop's variables as a literal, an f-string, `+`, `%` or `.format` would make them
  (OpenRLHF's `for prefix in ("actor", "critic"): parser.add_argument(f"--{prefix}.adam.lr")`
  is `--actor.adam.lr` and `--critic.adam.lr`; `for name, kind in (("lr", float), ...)` gives
  `name` its strings); a flag made of anything else (a module constant, a loop over a variable,
  a loop variable the body assigns, a format spec) leaves the parser unknown;
- a parser the program makes and hands to an imported helper that parses it (`return
  parse_args(parser)`) is the program's, whatever other parser that helper's module passes it;
- a parser parsed only in a plain function that nothing in the module calls or names (`def
  eval_args()`) is not, when the module calls an imported function that parses: that one's is;
  when that call too is only in uncalled code, nothing is reported; nor beside one of its own
  parsed in code that runs (`main()`, and a `def debug()` nothing calls that builds it again);
- the parser of a project module the program imports that parses at its top level (`from config
  import args`), not under `if __name__ == "__main__":`;
- a parser another project module makes at its top level, which the program imports and parses
  (`from opts import parser`, then `parser.parse_args()`, once or more: one parser);
- a parser an options class builds and parses in a method (`opt = TrainOptions().parse()` as in
  pix2pix), with the options its methods add: `self.initialize(parser)` looked up in the class of
  the instance the program makes, `BaseOptions.initialize(self, parser)` or
  `super().initialize(parser)` in its bases, or those its methods add through `self.parser`, its
  subclasses' in other modules too (vid2vid's `TrainOptions.initialize`); not when a method hands
  `self.parser` on (`setter(self.parser)`) or adds what is not static;
- a parser handed to a project class (`ModelParams(parser)`) is handed to the `__init__` its
  instances run. gaussian-splatting's `ParamGroup.__init__` (and its forks') adds an option for
  each attribute the instance has as it runs (`for key, value in vars(self).items():
  group.add_argument("--" + key, ...)`): those a subclass's `__init__` sets before
  `super().__init__(parser, ...)` (not after) to a literal or to one set before
  (`self.max_steps = self.iterations`), each as `--name`, `_name` as `--name` and `-n` too, a
  bool as a switch; the parser is unknown when an attribute is set otherwise before it (to what
  is no literal, in an `if` or a loop, by a call given `self`), when the loop adds otherwise
  (`nargs="+"` for a list), or when two options share a flag (`-s` of `_source_path` and
  `_scale`: argparse raises at start-up);
- where none of those is found, the parser a project function parses that the program's code
  reaches in up to 6 calls of the project's functions, its own module's or imported, as every
  Megatron-LM fork's launchers do: `pretrain_gpt.py` calls `pretrain(...)`, which calls
  `initialize_megatron(...)`, which calls (through `set_global_variables` and `_parse_args` in
  Megatron-DeepSpeed) `parse_args(extra_args_provider, ignore_unknown_args)`. A call that passes
  an argument written out (a list of words, a dict) is not followed; one that passes the
  process's arguments (`get_args(sys.argv[1:])`, aster.pytorch's, or `sys.argv[2:]`) is, and a
  function that parses the parameter they come to parses them. What the parsing function
  calls a parameter of with the parser (`parser = extra_args_provider(parser)`) adds what the
  function the calls pass to it adds (`extra_args_provider=get_tasks_args`, by keyword or
  position, through each call, or the parameter's default), nothing for None; anything else (a
  lambda, `add_args if HAVE_MODELOPT else None`, a local variable, arguments unpacked into a call)
  leaves the parser unknown. Where the calls from the program pass different functions, it has
  the options of each, and none of them is required (LL302). A parse that a parameter's truth
  picks (`if ignore_unknown_args: parser.parse_known_args()`, `else: parser.parse_args()`) lets
  unknown flags through where a call passes what may be true (`ignore_unknown_args=True`, or a
  value not known), and Megatron's `args_defaults` are no options;
- the function a python-fire program runs (`fire.Fire(train)`, `train` defined in the module):
  its parameters, as `--name` (with any number of leading dashes, `-` for `_`), `--noname`, and
  a parameter's first letter (one that several start with is not judged: fire stops on it at
  start-up with its own "ambiguous" error); fire calls the function without a flag that
  names none of them, and exits with "Could not consume arguments" only once it has run, which
  the message says. Not a function that returns a value (fire goes on with the result, whose
  members may take the flag), takes `**kwargs` or is decorated; nor a class, a dict or
  `fire.Fire()` of the whole module;
- an `HfArgumentParser` over the project's dataclasses (a field a class defines again replaces
  its base's: with a default of False it has no `--no_name`), a click command or a typer app; a click
  group made with `chain=True` runs several of its commands, each taking the words up to the
  next one's name (`main.py net --depth 3 dataset --batch_size 8`), and after a command with
  positional arguments (which click gives the words before the next command) nothing is judged;
- an `HfArgumentParser` over transformers' `TrainingArguments`, `Seq2SeqTrainingArguments` or
  `TFTrainingArguments` (and its old examples' `GlueDataTrainingArguments` and
  `SquadDataTrainingArguments`), or a project dataclass built on one (`class
  TrainingArguments(transformers.TrainingArguments)`): their fields are the union over every
  release from 2.9 to 5.25 (lint/hfargs.py, made from the released wheels by tools/hfargs.py), so
  only a flag that no release had is reported, whichever version the project pins
  (`--evaluate_during_training` went in 4.0, `--overwrite_output_dir` in 5.0); a copy of
  transformers in the project is read as its own source, and where it holds several copies (which
  one runs is not known), nothing is judged. A prefix that such fields share is not called
  ambiguous (`--lr_scheduler` of `--lr_scheduler_type` and, since 4.36, `--lr_scheduler_kwargs`):
  an earlier release took it for the one it had. Its `parse_args_into_dataclasses`
  raises "Some specified arguments are not used by the HfArgumentParser" where argparse would
  exit with "unrecognized arguments", and the message says so;
- trl's `TrlParser` over trl's configs and script arguments (`SFTConfig`, `GRPOConfig`,
  `ModelConfig`, `ScriptArguments` ...), or project dataclasses built on them, as
  transformers' above: their fields are the union over every trl release from 0.0.3 to 1.16
  (with TrainingArguments' where a config is built on it), and its `parse_args_and_config` takes
  `--config FILE` first (the file's values may give a required field);

A project function, class or dataclass the program uses is found where it imports it from
(`from opts import add_args`; `from pkg import add_args` also when `pkg/__init__.py` re-exports it),
or, for a name nothing in the module binds, through its `from m import *` (`from pkg import *`,
whose `__init__.py` may `from .parsers import *` in turn): in the last project module they name
that defines it (a later star import binds the name again), following their own imports and star
imports, up to three modules on (a cycle of star imports ends there). A module outside the
project (`from torch import *`) defines nothing known: a name that no project module brings
leaves the parser unknown, and nothing is reported. `__all__` is not read.

A flag counts as defined when argparse would accept it:
- `--flag=value`, `--no-x` of `BooleanOptionalAction`; a typer boolean has `--no-x` only under
  typer's own name, not under names it is given;
- `-h` and `--help` unless the parser is built with `add_help=False`; a click command's help
  option is `--help` alone, unless `context_settings` names others in `help_option_names` (its
  group's too);
- an unambiguous prefix unless `allow_abbrev=False` (given to the constructor, or set later as
  `parser.allow_abbrev = False`). A prefix of several flags (`--vocab` where `--vocab-file` and
  `--vocab-size` are defined) is reported: argparse refuses it ("ambiguous option: --vocab could
  match --vocab-file, --vocab-size"), also when both are spellings of one option (`--learning` of
  `--learning-rate`/`--learning_rate`, as HfArgumentParser adds every field): argparse counts the
  spellings;
- switches grouped in one word are read letter by letter (`-vd DIR` is `-v -d DIR`); an unknown
  letter among them is reported ("ignored explicit argument");
- a parser that parses `sys.argv[2:]` reads the words after the first (a mode word, `python
  train.py fit --lr 1`), also where the calls to the function that parses pass it `sys.argv[2:]`
  (`get_args(sys.argv[2:])`, then `parser.parse_args(argv)`; where they pass different slices,
  nothing is judged); when that word is not static, nothing is judged;
- the options of a first parser whose `parse_known_args` remainder the program's parser parses in
  the same function (timm's `args_config, remaining = config_parser.parse_known_args()`, then
  `parser.parse_args(remaining)`): the second parser decides, with the first's options too; where
  a parser parses its own remainder so (RecAI's `args, rest = parser.parse_known_args()`, options
  added, then `parser.parse_args(rest, args)`), it decides with its options of both parses;
- a flag the program's module takes from `sys.argv` itself before its parser runs (`if "--remote"
  in sys.argv: ...`, `sys.argv.remove("--debug")`, written out or a module constant's);
- the flag an HfArgumentParser's `parse_args_into_dataclasses(args_file_flag="--config")` names
  (a parser of its own takes it, with a file of more options).

Arguments are read where the shell puts them: continuation lines, quotes, arrays expanded as
`"${ARGS[@]}"`, and variables whose value is a static string of flags; a function's arguments
where its body gives them to the program (`train() { python train.py --lr 1 "$@"; }`, after
`shift`s it counts): each call launches the program with its words there (`train --seed 2`), a
flag of the call reported at the call, one of the body at the body. Not when the body reads its
arguments elsewhere too (`echo "$@"`), hands them to a shell (`bash -c "$@"`, `ssh`, `eval`), or
they are in a string with other text (`"--tags $@"`).

A script's own arguments likewise, where it gives them to the program (`python train.py --lr 1
"$@"` in run.sh; `${@:3}`, from the third; `$*` or `$ARGS` after `ARGS="$@"`, not quoted; past
the `shift`s of a static count before it): each script of the project that runs it (`bash run.sh
--num_workers 8`, `./run.sh`, `sbatch run.sh ...`, `bsub ./run.sh ...`, `source run.sh ...`)
launches the program with its words there, and a flag among them is reported at that script's
word, the `"$@"` a related location ("which run.sh runs with its arguments"). Not where the script
reads them in its own way before (a `getopts`, `shift $N`, a `shift` in an arm or a loop: `while
[[ $# -gt 0 ]]; do case $1 in ...`, `set -- ...`), in a function or a loop of its own, in an
if/case arm that they decide (`if [ "$1" = eval ]`, `case $MODE in` after `MODE=${1:-train}`, `[ $#
-gt 2 ] &&`), nor quoted as one word (`"$*"`, `"$ARGS"`); a caller's word not known (`bash run.sh
$EXTRA --bogus`) is read as such a word of a launch is; a word a caller's loop gives is not known.

Nothing is reported:
- when the program uses `parse_known_args` (or click's `ignore_unknown_options`); not where the
  function that calls it also parses the arguments strictly (`early, _ =
  parser.parse_known_args()` and then `parser.parse_args()`, or `parser.parse_args(rest)` of the
  words it left, which exits on an unknown flag);
- when its parser cannot be found statically or is handed to a library function that adds
  options launchlint does not know (`deepspeed.add_config_arguments` is known: its options,
  `--deepspeed` and `--deepspeed_config` among them, are the parser's, and other flags are still
  judged), or when an `HfArgumentParser` includes a library's dataclass other than transformers'
  training arguments and trl's configs (peft's `LoraConfig`, for one);
- for words that are not static (`"$@"`, an unknown variable);
- for the words after an option with argparse's REMAINDER (`--set A 1 --bogus 2`, as OpenPCDet's
  `--set` takes them): they are its value; the flags before it are judged, and those after
  `--set=A`, which takes only `A`;
- for the words from the first positional word on, when a positional has argparse's REMAINDER
  (detectron2's `opts`): only the flags before that word are judged (`python train_net.py
  --bogus MODEL.X 1`). argparse starts on the positionals only at a word that is neither an
  option nor an option's value, so every flag before the first such word is parsed as an option;
  an unknown flag takes no value, so the word after it is that first positional (`--bogus s.py
  --fp16`: `--fp16` is the REMAINDER's). Where the REMAINDER starts from there depends on the
  other positionals (with `script` before it, one word later; with one after it, `s.py --bogus`
  gives that one `s.py`, and `--bogus` is unrecognized). Checked with Python 3.11; CPython's
  current argparse has the same loop, but refuses an ambiguous prefix only where it parses it as
  an option (gh-58573), not inside a REMAINDER as 3.11 does; neither is judged here.

A program a `for` loop runs from a static list (`for s in prepare.py train.py; do python "$s"
--data d; done`) is each of them in turn: each one's parser judges the flags. A flag the command
writes before the loop's variable (`--seed=$s` in `for s in 1 2`) is one finding, at its
characters; one a word of the list holds (`for f in --bogus; do python t.py $f`), at that word.

A variable that each arm of an if/case before the launch sets to a static string of its own
(`if [ "$SIZE" = big ]; then EXTRA="--layers 32"; else EXTRA=""; fi`, then `torchrun train.py
$EXTRA --lr 1e-4`), expanded whole and unquoted, takes each arm's value in turn, and where no arm
may run (an `if` without `else`, a `case` without `*)`) the value it had before: each way runs
the launch, as each time round a loop does. A flag of an arm's value is reported at that arm's
assignment; one of the command's own that only some ways make wrong (`python main.py $MODE
--beam 4`, where `MODE=train` names a subcommand without `--beam`) at the command, where the
value was set related. Up to 8 arms. Not judged: an arm that does not set the variable (`*)
usage;;`), sets it to a value not known or to a default a caller may replace (`${EXTRA:---x}`),
or may not go on to the launch (it holds `exit`, `return`, `break`, `continue`, `exec` or a call
of one of the script's functions); an arm that a value the script sets rules out (`SIZE=small`,
then `[ "$SIZE" = big ]`); a statement whose conditions read such a value in another way
(`NODES=1`, then `[ "$NODES" -gt 1 ]`: which arm runs is decided, not known here), or a `case`
one arm of which goes on into the next (`;&`, `;;&`); a launch in an arm of another if/case whose
condition reads a variable that the statement's conditions read, or none (`[ -f ckpt ]`): the two
may be decided alike; the variable quoted (`"$EXTRA"`), in a longer word (`--size=$SIZE`), or as
the program (`python $SCRIPT`). Where a launch passes variables of two such statements, only the
first one's take their arms' values.

A program the path leads to nowhere the launcher runs, found as the only file of its name
elsewhere (as LL303 finds it), is judged only when it takes one of the launch's flags: one that
takes none of two or more is not the program meant (OpenNMT-kpg's tests run the root's
`preprocess.py`, long gone, with `-train_src` and `-save_data`, not the unrelated
`onmt/keyphrase/preprocess.py`); LL302 leaves it too.

After a `cd` into another directory of the project (`cd autoencoder`, then `python train.py`),
the program is that directory's file, which the message names by its path (autoencoder/train.py),
and the file the path names from where the launcher started (the root's `train.py`) may be the
one meant, as LL303 offers `../render.py` for a script missing there. When that file takes the
launch's whole command line (it defines every flag, requires nothing the launch leaves out, and
reads no word it cannot see), the launch is one finding, at the program's path, whose fix is
that file's path from there ("`-s` and `--iters` are not options of sub/train.py (the launcher
cds into sub/): ...; `../train.py` defines them: use that path"). When its options are not all
known (added in a loop, as gaussian-splatting's `ParamGroup` adds them) but it defines one of the
flags, each flag is still reported, and its fix offers that path among the choices.

One finding for each written word: an unknown flag in the value of a variable the script expands
more than once (`CMD="python train.py ..."`, then `$CMD` in both arms of an `if`) is one mistake,
made in one place, and is reported once, at the first of those expansions in the file, with the
others as its related locations ("passed here too, from the same variable's value"). The same
written word is the same characters of the same assignment, the one the variable last got its value
from before the expansion: a `CMD+=" --x 1"` between two expansions makes them two findings, as do
two lines that each write the word (each is a line to fix) and two messages that differ (a `cd`
between the expansions).

## References
- Python `argparse`: *Partial parsing* (`parse_known_args`), *allow_abbrev*,
  `BooleanOptionalAction`.
- `transformers.HfArgumentParser`: each dataclass field is the option `--field_name`.
"""

from __future__ import annotations

from functools import cache, partial

from launchlint.graph import python_run
from launchlint.launches import directory_changes, flags_added, passes_on, run_with
from launchlint.model import Finding, Related, Severity, whole
from launchlint.programs import (
    VALUELESS,
    ExtraWord,
    Meant,
    UnknownFlag,
    fits_none,
    launched,
    meant_before_cd,
    read_launch,
    shown,
)
from launchlint.rulekit import Example, dedented, either, listed, once_per_word
from launchlint.shellfacts import Word

CODE = "LL301"
NAME = "unknown-cli-flag"
SEVERITY = Severity.ERROR
SUMMARY = "A launcher passes a flag the Python program's parser does not define"

ARGPARSE_TRAIN = (
    "import argparse\n\n\ndef get_args():\n    parser = argparse.ArgumentParser()\n"
    '    parser.add_argument("--num-layers", type=int)\n'
    '    parser.add_argument("--warmup_steps", type=int)\n'
    '    parser.add_argument("--lr", type=float, default=3e-4)\n'
    '    parser.add_argument("--compile", action=argparse.BooleanOptionalAction)\n'
    "    return parser.parse_args()\n\n\nargs = get_args()\n"
)

TYPER_CLI = (
    "import typer\n\napp = typer.Typer()\n\n\n@app.command()\n"
    "def train(epochs: int = 3, use_amp: bool = False):\n    pass\n\n\n@app.command()\n"
    'def export(out: str = typer.Option(..., "--out", "-o")):\n    pass\n\n\n'
    'if __name__ == "__main__":\n    app()\n'
)

# a module-level parser that a function parses with the words it is given (aster.pytorch's config.py)
GET_ARGS_OF_ARGV = (
    "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--height', type=int)\n\n\n"
    "def get_args(sys_args):\n    return parser.parse_args(sys_args)\n"
)

# Megatron-LM's idiom (and its forks'): the program calls `pretrain(...)`, which calls
# `initialize_megatron(...)`, which calls `parse_args(...)`, which builds the parser, lets the
# program's `extra_args_provider` add to it, and parses known or strict as `ignore_unknown_args` says
MEGATRON = {
    "megatron/arguments.py": (
        "import argparse\n\n\ndef _add_training_args(parser):\n    group = parser.add_argument_group(title='training')\n"
        "    group.add_argument('--lr', type=float)\n    group.add_argument('--recompute-method', type=str)\n    return parser\n\n\n"
        "def parse_args(extra_args_provider=None, ignore_unknown_args=False):\n"
        "    parser = argparse.ArgumentParser(allow_abbrev=False)\n    parser = _add_training_args(parser)\n"
        "    if extra_args_provider is not None:\n        parser = extra_args_provider(parser)\n"
        "    if ignore_unknown_args:\n        args, _ = parser.parse_known_args()\n    else:\n"
        "        args = parser.parse_args()\n    return args\n"
    ),
    "megatron/initialize.py": (
        "from megatron.arguments import parse_args\n\n\n"
        "def initialize_megatron(extra_args_provider=None, args_defaults={}, ignore_unknown_args=False):\n"
        "    args = parse_args(extra_args_provider, ignore_unknown_args)\n    return args\n"
    ),
    "megatron/training.py": (
        "from megatron.initialize import initialize_megatron\n\n\n"
        "def pretrain(dataset_provider, model_provider, extra_args_provider=None, args_defaults={}):\n"
        "    initialize_megatron(extra_args_provider=extra_args_provider, args_defaults=args_defaults)\n"
    ),
}

OPTIONS_BASE = (
    "import argparse\n\n\nclass BaseOptions:\n    def initialize(self, parser):\n"
    "        parser.add_argument('--dataroot', required=True)\n        parser.add_argument('--name', default='exp')\n"
    "        return parser\n\n    def gather_options(self):\n        parser = argparse.ArgumentParser()\n"
    "        parser = self.initialize(parser)\n        self.parser = parser\n        return parser.parse_args()\n\n"
    "    def parse(self):\n        self.opt = self.gather_options()\n        return self.opt\n"
)

CONSOLE = {  # a project's console scripts, declared in each of the three ways (a monorepo's package in packages/beta)
    "setup.py": (
        "from setuptools import setup\n\nSCRIPTS = ['fq-train = fq_cli.train:cli_main']\n\n\n"
        "def do_setup():\n    setup(name='fq', entry_points={'console_scripts': SCRIPTS})\n\n\nif __name__ == '__main__':\n    do_setup()\n"
    ),
    "fq_cli/train.py": (
        "import argparse\n\n\ndef cli_main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument('data')\n"
        "    parser.add_argument('--arch', required=True)\n    parser.add_argument('--lr', type=float)\n    parser.parse_args()\n\n\n"
        "if __name__ == '__main__':\n    cli_main()\n"
    ),
    "packages/alpha/pyproject.toml": "[project]\nname = 'alpha'\n\n[project.scripts]\nalpha-train = 'alpha.cli:main'\n",
    "packages/alpha/src/alpha/__init__.py": "",
    "packages/alpha/src/alpha/cli.py": (
        "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--config')\nparser.add_argument('--steps', type=int)\n\n\n"
        "def main():\n    parser.parse_args()\n"
    ),
    "packages/beta/setup.cfg": "[metadata]\nname = beta\n\n[options.entry_points]\nconsole_scripts =\n    beta-run = beta.run:cli\n",
    "packages/beta/beta/run.py": "import click\n\n\n@click.command()\n@click.option('--epochs', type=int)\ndef cli(epochs):\n    print(epochs)\n",
}
# gaussian-splatting's `arguments/__init__.py`: an option for each attribute a subclass sets before
# `super().__init__(parser, ...)`; `_x` is `--x` and `-x`, a bool a switch
GS_PARAM_GROUP = (
    "from argparse import ArgumentParser\n\n\nclass ParamGroup:\n"
    "    def __init__(self, parser: ArgumentParser, name: str, fill_none=False):\n"
    "        group = parser.add_argument_group(name)\n        for key, value in vars(self).items():\n"
    "            shorthand = False\n            if key.startswith('_'):\n                shorthand = True\n"
    "                key = key[1:]\n            t = type(value)\n            value = value if not fill_none else None\n"
    "            if shorthand:\n                if t == bool:\n"
    "                    group.add_argument('--' + key, ('-' + key[0:1]), default=value, action='store_true')\n"
    "                else:\n                    group.add_argument('--' + key, ('-' + key[0:1]), default=value, type=t)\n"
    "            else:\n                if t == bool:\n"
    "                    group.add_argument('--' + key, default=value, action='store_true')\n"
    "                else:\n                    group.add_argument('--' + key, default=value, type=t)\n\n\n"
)
GS_PARAMS = GS_PARAM_GROUP + (
    "class ModelParams(ParamGroup):\n    def __init__(self, parser, sentinel=False):\n        self.sh_degree = 3\n"
    "        self._source_path = ''\n        self._model_path = ''\n        self._resolution = -1\n"
    "        self._white_background = False\n        self.eval = False\n"
    "        super().__init__(parser, 'Loading Parameters', sentinel)\n        self.late = 1\n\n\n"
    "class OptimizationParams(ParamGroup):\n    def __init__(self, parser):\n        self.iterations = 30_000\n"
    "        self.max_steps = self.iterations\n"
    "        self.kplanes_config = {'resolution': [64, 64]}\n        super().__init__(parser, 'Optimization Parameters')\n"
)
GS_TRAIN = (
    "import sys\nfrom argparse import ArgumentParser\nfrom arguments import ModelParams, OptimizationParams\n\n"
    "if __name__ == '__main__':\n    parser = ArgumentParser(description='Training script parameters')\n"
    "    lp = ModelParams(parser)\n    op = OptimizationParams(parser)\n    parser.add_argument('--port', type=int, default=6009)\n"
    "    args = parser.parse_args(sys.argv[1:])\n"
)

# a plain argparse parser of switches and no positional (LambdaLabs' train_llm.py), and one with subcommands
SWITCHED = {
    "train.py": (
        "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--batch-size', type=int)\n"
        "p.add_argument('--cpu-offload', action='store_true')\np.add_argument('--fp16', action='store_true')\n"
        "p.add_argument('--no-eval', dest='eval', action='store_false')\np.add_argument('-v', action='count')\n"
        "p.add_argument('--bf16', dest='dtype', action='store_const', const='bf16')\n"
        "p.add_argument('--compile', action=argparse.BooleanOptionalAction)\np.add_argument('--resume', nargs='?', const='last')\n"
        "p.add_argument('--set', nargs=argparse.REMAINDER)\np.parse_args()\n"
    ),
    "cli.py": (
        "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--verbose', action='store_true')\n"
        "sub = p.add_subparsers(dest='cmd')\nt = sub.add_parser('train')\nt.add_argument('--fp16', action='store_true')\n"
        "e = sub.add_parser('eval')\ne.add_argument('--fp16', action='store_true')\ne.add_argument('ckpt')\np.parse_args()\n"
    ),
}

INVALID = [
    Example(  # a flag written before a command substitution's value: the flag is static, whatever the command prints
        {
            "train.py": 'import argparse\n\np = argparse.ArgumentParser()\np.add_argument("--run-name")\np.parse_args()\n',
            "run.sh": (
                "#!/bin/bash\npython train.py --run-name=$(date +%s)\npython train.py --run_name=$(date +%s)\n"
                'python train.py --run-name="$(hostname) $(date)" --seed=`date`\n'
            ),
        },
        ["LL301 run.sh:3", "LL301 run.sh:4"],
    ),
    Example(  # programs found past an unknown interpreter's options, `$(dirname "$PWD")`, and arms that differ in options' values only
        {
            "tools/test.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--num-gpus')\np.parse_args()\n",
            "ddp.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--use_mlflow')\np.parse_args()\n",
            "slurm/train.sbatch": '#!/bin/bash\nsrun torchrun --nproc_per_node=4 $(dirname "$PWD")/ddp.py --use-mlflow\n',
            "run.sh": (
                "#!/bin/bash\nPYTHON=$1\n$PYTHON -u tools/test.py --num_gpus 2 | tee test.log\n"
                "$PYTHON -W ignore -m torch.distributed.launch --use_env tools/test.py --num_gpus 2\n"
            ),
            "which.sh": "#!/bin/bash\n$(which python) tools/test.py --num_gpus 1\nPY=`command -v python3`\n$PY tools/test.py --num_gpus 2\n",
            "train.sh": (  # ProLong's
                '#!/bin/bash\nif [ "$NODES" -gt 1 ]; then\n  header="srun torchrun --nnodes=$NODES -m tools.test"\n'
                'else\n  header="torchrun --nnodes=1 -m tools.test"\nfi\n${header} --num-gpus 8 --bogus 1\n'
            ),
        },
        ["LL301 run.sh:3", "LL301 run.sh:4", "LL301 slurm/train.sbatch:2", "LL301 train.sh:7", "LL301 which.sh:2", "LL301 which.sh:4"],
    ),
    Example(  # a value written after an argparse switch, where no positional takes it: "unrecognized arguments"
        {
            **SWITCHED,
            "run.sh": (
                "#!/bin/bash\ntorchrun --nproc-per-node 8 train.py --batch-size 1 --cpu-offload on\npython train.py --fp16 False\n"
                "python train.py --no-eval True --bf16 1\npython train.py -v 3 --cpu on\npython cli.py --verbose train --fp16 True\n"
                "python train.py --fp16=True --cpu-offload=no\npython train.py --batch-size 8 16\npython train.py --batch-size=8 16\n"
            ),
        },
        [
            "LL301 run.sh:2", "LL301 run.sh:3", "LL301 run.sh:4", "LL301 run.sh:4", "LL301 run.sh:5", "LL301 run.sh:5",
            "LL301 run.sh:6", "LL301 run.sh:7", "LL301 run.sh:7", "LL301 run.sh:8", "LL301 run.sh:9",
        ],  # fmt: skip
    ),
    Example(  # a justfile recipe: a variable's value, a parameter's default (what runs without one), `@` and `-` lines
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs')\np.parse_args()\n",
            "justfile": (
                'python := "python3"\nepochs := "3"\n\ntrain *ARGS="--lr 1":\n    @{{python}} train.py {{ARGS}}\n'
                "    -python train.py --epochz {{epochs}}\n"
            ),
        },
        ["LL301 justfile:5", "LL301 justfile:6"],
    ),
    Example(  # a launcher that appends the local rank (torch.distributed.launch, deepspeed) to a program whose parser lacks it
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": (
                "#!/bin/bash\npython -m torch.distributed.launch --nproc_per_node=8 train.py --lr 1\n"
                "deepspeed --num_gpus 8 train.py --lr 1\npython -m atorch.distributed.launch --not_use_env train.py\n"
            ),
        },
        ["LL301 run.sh:2", "LL301 run.sh:3", "LL301 run.sh:4"],
    ),
    Example(  # a console script of the project's packages, run by its name, is its function's program
        {
            **CONSOLE,
            "scripts/train.sh": (
                "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 fq-train data --arch x --warmup 3\nnohup alpha-train --steps 3 --bad > a.log 2>&1 &\n"
                "bash -c 'beta-run --epochs 3 --lr 1'\nsrun -N1 fq-train data --arch x --bogus\n"
            ),
        },
        ["LL301 scripts/train.sh:2", "LL301 scripts/train.sh:3", "LL301 scripts/train.sh:4", "LL301 scripts/train.sh:5"],
    ),
    Example(  # a console script's function that makes an options class's instance, which parses (lm-evaluation-harness's `HarnessCLI()`)
        {
            "pyproject.toml": "[project.scripts]\npkg-train = 'pkg.cli:main'\n",
            "pkg/cli.py": "from pkg.opts import Options\n\n\ndef main():\n    opts = Options()\n    opts.parse()\n",
            "pkg/opts.py": (
                "import argparse\n\n\nclass Options:\n    def parse(self):\n        parser = argparse.ArgumentParser()\n"
                "        parser.add_argument('--lr')\n        return parser.parse_args()\n"
            ),
            "run.sh": "#!/bin/bash\npkg-train --lr 1 --bad\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a namesake elsewhere that takes one of the launch's flags is the program: the other is unknown
        {
            "onmt/keyphrase/preprocess.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lang')\np.parse_args()\n",
            "onmt/tests/test_models.sh": "#!/bin/bash\npython preprocess.py --lang en -save_data /tmp/q\n",
        },
        ["LL301 onmt/tests/test_models.sh:2"],
    ),
    Example(  # Megatron's: the parse three calls deep, and the options of the `extra_args_provider` the program passes
        {
            **MEGATRON,
            "pretrain_gpt.py": (
                "from megatron.training import pretrain\n\n\ndef add_gpt_args(parser):\n"
                "    group = parser.add_argument_group(title='gpt')\n    group.add_argument('--rope-scaling', type=float)\n"
                "    return parser\n\n\nif __name__ == '__main__':\n"
                "    pretrain(None, None, extra_args_provider=add_gpt_args, args_defaults={'tokenizer_type': 'GPT2BPETokenizer'})\n"
            ),
            "finetune.py": (  # the provider passed by position; Megatron-LLM's `initialize_megatron(extra_args, args_defaults)`
                "from megatron.initialize import initialize_megatron\nfrom megatron.arguments import parse_args\n\n"
                "DEFAULTS = {}\n\n\ndef extra_args(parser):\n    parser.add_argument('--model_name')\n    return parser\n\n\n"
                "if __name__ == '__main__':\n    initialize_megatron(extra_args, DEFAULTS)\n"
            ),
            "run.sh": (
                "torchrun --nproc_per_node 8 pretrain_gpt.py --lr 1e-4 --rope-scaling 2 --recompute-method uniform\n"
                "torchrun --nproc_per_node 8 pretrain_gpt.py --lr 1e-4 --activations-checkpoint-method uniform\n"
                "python finetune.py --model_name llama --lr 1e-4\npython finetune.py --model_name llama --rope-scaling 2\n"
            ),
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # a function's arguments are the program's at each call (cryodrgn's sweep.sh `run`), after a counted
        # `shift`, through a wrapper and into a pipeline; the body's own flags are judged at the body, once
        {
            "train.py": ARGPARSE_TRAIN,
            "run.sh": (
                '#!/bin/bash\ntrain() { python train.py --lr 1 "$@"; }\ntrain --warmup_steps 2\ntrain --warmup-steps 2\n'
                't2() {\n  local x=$1\n  shift\n  OMP_NUM_THREADS=1 nohup torchrun --nproc_per_node 2 train.py --lr $x "$@" 2>&1 | tee log &\n}\n'
                "t2 3 --num-layers 4\nt2 3 --num_layers 4\n"
                'body() { python train.py --seeds 1 "$@"; }\nbody --lr 1\nbody --lr 2\n'
            ),
        },
        ["LL301 run.sh:4", "LL301 run.sh:11", "LL301 run.sh:12"],
    ),
    Example(  # a script's own arguments are the program's as each script that runs it gives them: `bash run.sh`, `sbatch`,
        # after a counted `shift`, from the third on (`${@:3}`, mmdetection's dist_train.sh), through `ARGS="${@}"` (helper-395, helper-396)
        {
            "train.py": ARGPARSE_TRAIN,
            "run.sh": '#!/bin/bash\npython -u train.py --lr 1 "$@"\n',
            "submit.sh": '#!/bin/bash\n#SBATCH -o %x-%j.out\nargs="${@}"\nsrun python -u train.py ${args}\n',
            "dist.sh": '#!/bin/bash\nGPUS=$1\nshift\ntorchrun --nproc_per_node $GPUS train.py "$@"\n',
            "dist_train.sh": "#!/bin/bash\nLR=$1\nGPUS=$2\ntorchrun --nproc_per_node $GPUS train.py --lr $LR ${@:3}\n",
            "go.sh": (
                "#!/bin/bash\nbash run.sh --lr 2 --num_workers 8\nsbatch -n 1 ./submit.sh --compile --warmup-steps 5\n"
                "bash dist.sh 2 --num-layers 4 --seeds 1\nbash run.sh --warmup_steps 5 --num-layers 2\nbash run.sh $EXTRA --bogus 1\n"
                "bash dist_train.sh 0.1 2 --compile --epochs 3\n"
            ),
        },
        ["LL301 go.sh:2", "LL301 go.sh:3", "LL301 go.sh:4", "LL301 go.sh:6", "LL301 go.sh:7"],
    ),
    Example(  # configargparse's parser, argparse's subclass; one whose options come through its `add` is not read
        {
            "main.py": (
                "import configargparse\n\np = configargparse.ArgParser()\np.add_argument('-c', '--config', is_config_file=True)\n"
                "p.add_argument('--n_chunks', type=int, required=True)\np.parse_args()\n"
            ),
            "other.py": "import configargparse\n\np = configargparse.ArgumentParser()\np.add('--lr')\np.parse_args()\n",
            "run.sh": "python main.py --n_chunks 5\npython main.py --nchunks 5\npython other.py --lr 1 --seed 2\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # options a loop adds from a literal list of flags (ECG-Bench's `for flag in ("--use_signal", ...)`)
        {
            "config.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nfor flag in ('--use_signal', '--no_signal'):\n"
                "    parser.add_argument(flag, action='store_true')\nparser.add_argument('--weight_decay')\nparser.parse_args()\n"
            ),
            "run.sh": "python config.py --use_signal --weight_decay 1\npython config.py --no_signl\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # options a loop over a literal list adds with flags made of its variables (OpenRLHF's `f"--{prefix}.adam.lr"`
        # for "actor" and "critic"), nested loops, pairs, `"--" + name`, `%` and `.format` of them, `range()`
        {
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--data.max_len', type=int)\n"
                "for prefix in ('actor', 'critic'):\n    parser.add_argument(f'--{prefix}.adam.lr', type=float)\n"
                "    parser.add_argument(f'--{prefix}.no_nesterov', dest=f'{prefix}.nesterov', action='store_false')\n"
                "    for part in ['a', 'b']:\n        parser.add_argument('--%s_%s' % (prefix, part))\n"
                "for name, kind in (('lr', float), ('bs', int)):\n    parser.add_argument('--' + name, type=kind)\n"
                "for i in range(2):\n    parser.add_argument('--gpu{}'.format(i))\nargs = parser.parse_args()\n"
            ),
            "run.sh": (
                "python3 train.py --data.max_len 1024 --actor.adam.lr 5e-7 --critic.no_nesterov --critic_b 1 --bs 2 --gpu1 0\n"
                "python3 train.py --critc.adam.lr 9e-6\npython3 train.py --actor_c 1\npython3 train.py --gpu2 0\n"
            ),
        },
        ["LL301 run.sh:2", "LL301 run.sh:3", "LL301 run.sh:4"],
    ),
    Example(  # a module whose top level calls its parsing function parses when imported (vilio's `from param import args`)
        {
            "param.py": (
                "import argparse\n\n\ndef parse_args():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--batchSize', type=int)\n    return parser.parse_args()\n\n\nargs = parse_args()\n"
            ),
            "hm.py": "from param import args\n\nprint(args.batchSize)\n",
            "run.sh": "python hm.py --batchSize 8\npython hm.py --batchsize 8\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a here-string a shell reads as its script (`bash -s <<< "..."`, over ssh too); a heredoc sbatch queues
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\nbash -s <<< "python train.py --bogus 3"\nssh gpu1 bash -s <<< "python train.py --lr $LR --lrr 1"\n',
            "submit.sh": "#!/bin/bash\nsbatch <<EOF\n#!/bin/bash\n#SBATCH --output=%j.out\nsrun python -u train.py --lrr 1\nEOF\n",
        },
        ["LL301 run.sh:2", "LL301 run.sh:3", "LL301 submit.sh:5"],
    ),
    Example(  # a command line `read` takes from a heredoc or a here-string (each OpenRLHF launcher: `read -r -d '' CMD <<EOF`, then `deepspeed --module $CMD`)
        {
            "pkg/__init__.py": "",
            "pkg/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--local_rank')\np.parse_args()\n",
            "run.sh": (
                "LR=5e-6\nread -r -d '' cmd <<EOF\npkg.train \\\n   --lr $LR \\\n   --learning_rate 1\nEOF\ndeepspeed --module $cmd\n"
                "read -d '' cmd <<'EOF'\npkg.train \\\n   --lrr 1\nEOF\ndeepspeed --module $cmd\n"
                "read -r -d '' cmd <<-EOF\n\tpkg.train\n\t--lrr 2\n\tEOF\ndeepspeed --module $cmd\n"
                "read -r cmd <<EOF\npkg.train --lrr 3\n--lr 1\nEOF\ndeepspeed --module $cmd\n"
                "read -r mod args <<< 'pkg.train --lrr 4'\ndeepspeed --module $mod $args\n"
            ),
        },
        ["LL301 run.sh:7", "LL301 run.sh:12", "LL301 run.sh:17", "LL301 run.sh:22", "LL301 run.sh:24"],
    ),
    Example(  # a parsing function of a module imported whole (`import options`, then `options.read_command_line()`)
        {
            "main.py": "import options\n\nif __name__ == '__main__':\n    configs, parser = options.read_command_line()\n",
            "options.py": (
                "import argparse\n\ndef read_command_line():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--mode', default='train')\n    return parser.parse_args(), parser\n"
            ),
            "run.sh": "#!/bin/bash\npython main.py --mdoe train\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a program run under a debugger, profiler or runner module takes the words after its options (bayesian-laplace's debugpy)
        {
            "run.sh": (
                "#!/bin/bash\npython3 -m debugpy --listen 0.0.0.0:5678 --wait-for-client train.py --embeding_size 16\n"
                "python3 -m cProfile -o prof.out train.py --embedding_size 16\npython3 -m pdb -c continue train.py --seed 1\n"
                "mpirun -n 4 python -m mpi4py -rc thread_level=funneled train.py --embedding-size 16\n"
            ),
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--embedding_size')\np.parse_args()\n",
        },
        ["LL301 run.sh:2", "LL301 run.sh:4", "LL301 run.sh:5"],
    ),
    Example(  # a function that runs its arguments through an array of them (`local command=("${@:2}")`: mllm-uncertainty)
        {
            "run.sh": (
                '#!/bin/bash\nrun_task() {\n    local name="$1"\n    local command=("${@:2}")\n    echo "Running $name"\n'
                '    "${command[@]}"\n}\nrun_task count python vanilla.py --task count --csv-path data/count.csv\n'
            ),
            "vanilla.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--task')\np.add_argument('--csv_path')\n"
                "p.parse_args()\n"
            ),
        },
        ["LL301 run.sh:8"],
    ),
    Example(  # the flags after a placeholder left in the line (`<p>`, which bash reads as redirections) are judged as meant
        {
            "run.sh": "python t.py --partition <p> --config c.yaml --bogus\npython t.py --partition <in.txt> out.log --bogus\n",
            "t.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--partition')\np.add_argument('--config')\np.parse_args()\n",
            "c.yaml": "a: 1\n",
        },
        ["LL301 run.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # a command line a loop appends words to: the words it had are judged, and in the loop those appended too
        {
            "run.sh": (
                '#!/bin/bash\nargs="python3 train.py --lr 1 --warmup 5"\nfor d in a b; do\n    args="$args --data $d"\n'
                '    $args --evl\ndone\n$args\n'
            ),
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--data')\n"
                "p.add_argument('--eval', action='store_true')\nprint(p.parse_args())\n"
            ),
        },
        ["LL301 run.sh:5", "LL301 run.sh:5"],  # at the expansion: the words had and appended are one value there
    ),
    Example(  # trl's TrlParser over its configs: a flag no release of trl or transformers had
        {
            "grpo.py": (
                "from dataclasses import dataclass, field\n\nfrom trl import GRPOConfig, ModelConfig, ScriptArguments, TrlParser\n\n\n"
                "@dataclass\nclass GRPOScriptArguments(ScriptArguments):\n    reward_funcs: list = field(default_factory=list)\n\n\n"
                "parser = TrlParser((GRPOScriptArguments, GRPOConfig, ModelConfig))\n"
                "script_args, training_args, model_args = parser.parse_args_and_config()\n"
            ),
            "run.sh": "accelerate launch grpo.py --config c.yaml --max_completion_lenght 512\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # python-fire's function: a flag that names no parameter is ignored, and fire exits after the run
        {
            "finetune.py": (
                "import fire\n\n\ndef train(base_model: str = '', data_path: str = 'd.json', lora_r: int = 8, use_wandb: bool = False):\n"
                "    print(base_model, data_path, lora_r, use_wandb)\n\n\nif __name__ == '__main__':\n    fire.Fire(train)\n"
            ),
            "run.sh": "python finetune.py --base_model llama --deepspeed ds.json\npython finetune.py --lora_rank 4\n",
        },
        ["LL301 run.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # a field defined again with a default of False has no `--no_` (LLaVA's `remove_unused_columns`)
        {
            "train.py": (
                "from dataclasses import dataclass\n\nimport transformers\n\n\n"
                "@dataclass\nclass TrainingArguments(transformers.TrainingArguments):\n    remove_unused_columns: bool = False\n\n\n"
                "(args,) = transformers.HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n"
            ),
            "run.sh": "python train.py --output_dir out --remove_unused_columns True\npython train.py --no_remove_unused_columns\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a parser another module makes at its top level, imported and parsed by the program
        {
            "opts.py": "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr', type=float)\n",
            "train.py": "from opts import parser\n\nargs = parser.parse_args()\n",
            "run.sh": "python train.py --lr 1\npython train.py --lr 1 --epochs 2\n",
            "eval.py": "from opts import parser\n\n\ndef main():\n    args = parser.parse_args()\n    print(vars(parser.parse_args()))\n",
            "eval.sh": "python eval.py --lr 1 --batchsize 2\n",
        },
        ["LL301 eval.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # the parser built again in a plain function nothing calls (`def debug(args)`): the running one decides
        {
            "train.py": (
                "import argparse\n\n\ndef build():\n    p = argparse.ArgumentParser()\n    p.add_argument('--lr')\n    return p\n\n\n"
                "def main():\n    args = build().parse_args()\n\n\ndef debug():\n    p = argparse.ArgumentParser()\n"
                "    p.add_argument('--lr')\n    p.add_argument('--bos')\n    p.parse_args()\n\n\n"
                "if __name__ == '__main__':\n    main()\n"
            ),
            "run.sh": "python train.py --lr 1 --bos\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # a builder reached through `import pkg.mod` (which binds `pkg`): `pkg.mod.get_parser()`
        {
            "forest/__init__.py": "",
            "forest/options.py": (
                "import argparse\n\n\ndef get_parser():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--vruns', type=int)\n    return parser\n"
            ),
            "brew.py": "import forest.options\n\nargs = forest.options.get_parser().parse_args()\n",
            "run.sh": "python brew.py --vruns 2\npython brew.py --vrunz 8\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a click group with `chain=True`: the next command's words are its own, judged against it
        {
            "main.py": (
                "import click\n\n\n@click.group(chain=True)\n@click.option('--seed', type=int)\ndef main(seed):\n    pass\n\n\n"
                "@main.command('net')\n@click.option('--depth', type=int)\ndef net(depth):\n    pass\n\n\n"
                "@main.command('dataset')\n@click.argument('root')\n@click.option('--batch_size', type=int)\n"
                "def dataset(root, batch_size):\n    pass\n\n\nif __name__ == '__main__':\n    main()\n"
            ),
            "run.sh": "python main.py net --dpeth 3 dataset --batch_size 8 /data\npython main.py net dataset --bach_size 8 /data\n",
        },
        ["LL301 run.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # after `cd sub`, the root's train.py takes the launch whole: one finding, at the program
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('-s')\np.add_argument('--iters')\np.parse_args()\n",
            "sub/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data')\np.parse_args()\n",
            "run.sh": "#!/bin/bash\ncd sub\npython train.py --data d\npython train.py -s d --iters 3\n",
        },
        ["LL301 run.sh:4"],
    ),
    Example(  # a variable's flag passed in both arms of an `if` is one finding, at the first expansion
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\nCMD="python train.py --bogus 1"\nif [ -n "$DEBUG" ]; then\n  $CMD --lr 1\nelse\n  $CMD\nfi\n',
        },
        ["LL301 run.sh:4"],
    ),
    Example(  # a parser deepspeed.add_config_arguments adds to: its options pass, a typo does not
        {
            "ds_train.py": (
                "import argparse\nimport deepspeed\n\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('--epochs', type=int)\nparser.add_argument('--local_rank', type=int)\nparser = deepspeed.add_config_arguments(parser)\n"
                "args = parser.parse_args()\n"
            ),
            "run.sh": "deepspeed ds_train.py --epocs 1 --deepspeed --deepspeed_config ds.json\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # a loop over static words runs each program with the flags: each one's parser judges them
        {
            "prepare.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data')\np.parse_args()\n",
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--data')\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\nfor s in prepare.py train.py; do\n  python "$s" --data d --lr 1\ndone\n',
        },
        ["LL301 run.sh:3"],
    ),
    Example(  # a flag written before the loop's variable: once, on the command's line; one from the list: at the list
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": "for s in 1 2; do\n  python train.py --lr 1 --seed=$s\ndone\nfor f in --lr --bogus\ndo python train.py $f 1\ndone\n",
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # an array a loop appends to: what it had, the earlier rounds' elements, then this round's
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--seed')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\nARGS=(python train.py --lr 1 --epochz 3)\nfor s in 1 2; do\n  ARGS+=(--seed "$s" --fp16)\n  "${ARGS[@]}"\ndone\n"${ARGS[@]}"\n',
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # a profiler or an environment runner around the program: its options, then the program's
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "prof.sh": (
                "nsys profile -t cuda,nvtx -o rep --stats true python train.py --lr 1 --bogus 2\n"
                "py-spy record -o p.svg --subprocesses -- python train.py --lr 1\n"
                "micromamba run -n train python train.py --lrr 1\n"
                "colossalai run --nproc_per_node 4 --master_port 29501 train.py --lr 1 --bogus\n"
                "ft_launcher --ft-cfg-path ft.yaml --ft-ignore-missing-cfg --nproc-per-node 2 train.py --lr 1 --bogus\n"
                "msrun --worker_num 8 --local_worker_num 8 --join True --log_dir msrun_log train.py --lr 1 --bogus 2\n"
            ),
        },
        ["LL301 prof.sh:1", "LL301 prof.sh:3", "LL301 prof.sh:4", "LL301 prof.sh:5", "LL301 prof.sh:6"],
    ),
    Example(  # GNU parallel's command, up to its argument list (`:::`), as words or one string
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "sweep.sh": (
                "parallel -j 2 python train.py --lr {} --bogus ::: 1e-4 3e-4\n"
                "parallel --jobs 2 'python train.py --lrr {} > run_{}.log' ::: 1e-4 3e-4\n"
            ),
        },
        ["LL301 sweep.sh:1", "LL301 sweep.sh:2"],
    ),
    Example(  # the program the shell runs after its `cd`, not the launcher's namesake
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "sub/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--steps')\np.parse_args()\n",
            "run.sh": "cd sub && python train.py --lr 1\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # the parser the imported main() builds is checked, not the one of an uncalled eval_args()
        {
            "lib.py": "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument('--lr')\n    p.parse_args()\n",
            "train.py": (
                "import argparse\n\nfrom lib import main\n\n\ndef eval_args():\n    q = argparse.ArgumentParser()\n"
                "    q.add_argument('--ckpt')\n    return q.parse_args()\n\n\nif __name__ == '__main__':\n    main()\n"
            ),
            "run.sh": "python train.py --lr 1\npython train.py --ckpt c\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a first look with parse_known_args, then the strict parse of the same arguments
        {
            "train.py": (
                "import argparse\n\n\ndef get_args():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--fast', action='store_true')\n    early, _ = parser.parse_known_args()\n"
                "    if early.fast:\n        parser.add_argument('--extra', type=int)\n    return parser.parse_args()\n"
            ),
            "run.sh": "python train.py --fast --warmup 5\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # MosaicML's `composer` launcher, whose `-c` runs a command that is not Python
        {
            "train/fit.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "launch.sh": "composer -n 8 train/fit.py --lr 1e-4 --bogus 1\ncomposer -c nvidia-smi --bogus\n",
        },
        ["LL301 launch.sh:1"],
    ),
    Example(  # a workflow that checks the project out into `proj/` runs `proj/tools/x.py`: the project's `tools/x.py`
        {
            "tools/x.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n"
                "        with:\n          path: proj\n      - run: python proj/tools/x.py --lr 1 --bogus 2\n"
            ),
        },
        ["LL301 .github/workflows/ci.yml:9"],
    ),
    Example(  # a script of a vendored copy's `.azure-pipelines/` runs in the copy's checkout: its `tools/prep.py`, not the outer one
        {
            "tools/prep.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "ci/tools/prep.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--src')\np.parse_args()\n",
            "ci/.azure-pipelines/scripts/prep.sh": "#!/bin/bash\npython tools/prep.py --src data\npython tools/prep.py --lr 1\n",
        },
        ["LL301 ci/.azure-pipelines/scripts/prep.sh:3"],
    ),
    Example(  # a positional REMAINDER takes the words from the first positional on: the flags before it are the parser's
        {
            "train_net.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config-file')\n"
                "p.add_argument('--fp16', action='store_true')\np.add_argument('opts', nargs=argparse.REMAINDER)\np.parse_args()\n"
            ),
            "run.sh": (
                "python train_net.py --config-file c.yaml --bogus MODEL.X 1 --other\n"
                "python train_net.py --bogus s.py --fp16 --other 2\npython train_net.py --fp16 MODEL.X 1 --bogus\n"
            ),
        },
        ["LL301 run.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # the parser an imported `get_parser()` builds, with what this module adds to it
        {
            "pkg/options.py": (
                "import argparse\n\n\ndef get_parser():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--lr')\n    return parser\n"
            ),
            "train.py": "from pkg import options\n\nparser = options.get_parser()\nparser.add_argument('--epochs')\nparser.parse_args()\n",
            "run.sh": "python train.py --lr 1 --epochs 2 --bogus 3\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # an imported parser function handed the parser adds to it (BigGAN's `parser = utils.add_sample_parser(parser)`)
        {
            "utils.py": (
                "from argparse import ArgumentParser\n\n\ndef prepare_parser():\n    parser = ArgumentParser()\n"
                "    parser.add_argument('--seed')\n    return parser\n\n\ndef add_sample_parser(parser):\n"
                "    parser.add_argument('--n')\n    return parser\n"
            ),
            "sample.py": "import utils\n\nparser = utils.prepare_parser()\nparser = utils.add_sample_parser(parser)\nparser.parse_args()\n",
            "run.sh": "python sample.py --seed 1 --n 2\npython sample.py --seed 1 --n 2 --num 3\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a directory `pwd` named is the same one after a `cd` (Point-BERT's `ROOT=$(pwd)`, `cd $ROOT/ext/a`, `cd $ROOT/ext/b`)
        {
            "ext/a/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "ext/b/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": "#!/bin/bash\nROOT=$(pwd)\ncd $ROOT/ext/a\npython train.py --bogus\ncd $ROOT/ext/b\npython train.py --bogus2\n",
        },
        ["LL301 run.sh:4", "LL301 run.sh:6"],
    ),
    Example(  # `xvfb-run` runs its command with a virtual display (cleanrl's benchmarks), after its options
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--seed')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\nxvfb-run -a -s "-screen 0 1024x768x24" python train.py --seed 1 --sede 2\n',
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a subpackage or another directory's module named `transformers` is no copy of the library
        # (LLaVA-NeXT's vendored `verl/models/transformers/`): transformers' TrainingArguments are read
        {
            "vendor/verl/__init__.py": "",
            "vendor/verl/models/__init__.py": "",
            "vendor/verl/models/transformers/__init__.py": "",
            "utils/__init__.py": "",
            "utils/transformers.py": "x = 1\n",
            "train.py": (
                "import transformers\n\nparser = transformers.HfArgumentParser((transformers.TrainingArguments,))\n"
                "parser.parse_args_into_dataclasses()\n"
            ),
            "run.sh": "deepspeed train.py --output_dir out --no_such_flag 1\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # a subclass of a dataclass without `@dataclass` of its own is one with its bases' fields only
        # (InternVL's `class DPOConfig(DPOConfigTRL):`); a class over a plain or unknown base is not judged
        {
            "train.py": (
                "from dataclasses import dataclass\nfrom transformers import HfArgumentParser\n\n\n@dataclass\nclass C:\n"
                "    seed: int = 0\n\n\nclass D(C):\n    extra: int = 2\n\n\nHfArgumentParser((D,)).parse_args_into_dataclasses()\n"
            ),
            "plain.py": (
                "from transformers import HfArgumentParser\n\n\nclass Plain:\n    lr: float = 0.1\n\n\nclass A(Plain):\n    x: int = 1\n\n\n"
                "HfArgumentParser((A,)).parse_args_into_dataclasses()\n"
            ),
            "run.sh": "python train.py --seed 1 --bogus 1\npython train.py --extra 2\npython plain.py --bogus 1\n",
        },
        ["LL301 run.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # NERSC's `shifter` runs its command in this directory (FourCastNet's `srun shifter bash -c "..."`)
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\np.parse_args()\n",
            "submit.sh": (
                '#!/bin/bash\nsrun -u shifter bash -c "\n  python train.py --config afno --enable_amp\n  "\n'
                "shifter --image=nersc/pytorch:24.06 --module=gpu python train.py --bogus\n"
            ),
        },
        ["LL301 submit.sh:3", "LL301 submit.sh:5"],
    ),
    Example(  # a helper called twice gives each caller a parser of its own (fairseq's `get_parser()`: the
        # training parser's `--arch` is not the preprocessing parser's)
        {
            "options.py": (
                "import argparse\n\n\ndef get_parser(desc):\n    parser = argparse.ArgumentParser(description=desc)\n"
                "    parser.add_argument('--seed')\n    return parser\n\n\ndef get_training_parser():\n"
                "    parser = get_parser('Trainer')\n    parser.add_argument('--arch')\n    return parser\n\n\n"
                "def get_preprocessing_parser():\n    parser = get_parser('Preprocessing')\n"
                "    parser.add_argument('--destdir')\n    return parser\n"
            ),
            "preprocess.py": "import options\n\noptions.get_preprocessing_parser().parse_args()\n",
            "train.py": "import options\n\noptions.get_training_parser().parse_args()\n",
            "run.sh": "python preprocess.py --seed 1 --destdir d\npython train.py --seed 1 --arch a\npython preprocess.py --arch a\n",
        },
        ["LL301 run.sh:3"],
    ),
    Example(  # of two star imports that define an adder, the later one's binds it, as Python runs them in order
        {
            "a.py": "def add_common(parser):\n    parser.add_argument('--lr')\n",
            "b.py": "def add_common(parser):\n    parser.add_argument('--seed')\n",
            "train.py": "import argparse\nfrom a import *\nfrom b import *\n\np = argparse.ArgumentParser()\nadd_common(p)\np.parse_args()\n",
            "run.sh": "python train.py --lr 1\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # an adder that `from pkg import *` brings, from the package's `from .parsers import *`
        {
            "pkg/__init__.py": "from .parsers import *\n",
            "pkg/parsers.py": "def add_common(parser):\n    parser.add_argument('--lr')\n    return parser\n",
            "train.py": "import argparse\nfrom pkg import *\n\np = argparse.ArgumentParser()\np = add_common(p)\np.parse_args()\n",
            "tune.py": "import argparse\nfrom pkg.parsers import *\n\np = argparse.ArgumentParser()\np = add_common(p)\np.parse_args()\n",
            "eval.py": "import argparse\nfrom pkg import add_common\n\np = argparse.ArgumentParser()\nadd_common(p)\np.parse_args()\n",
            "run.sh": "python train.py --lr 1 --bogus 2\npython tune.py --lr 1 --bogus 2\npython eval.py --lr 1 --bogus 2\n",
        },
        ["LL301 run.sh:1", "LL301 run.sh:2", "LL301 run.sh:3"],
    ),
    Example(  # a builder, a parsing function, a dataclass, an options class through `from m import *`
        {
            "opts/__init__.py": "from .build import *\nfrom .data import add_data\n",
            "opts/build.py": (
                "import argparse\n\n\ndef get_parser():\n    p = argparse.ArgumentParser()\n    p.add_argument('--steps')\n"
                "    return p\n\n\ndef get_args():\n    p = argparse.ArgumentParser()\n    p.add_argument('--epochs')\n"
                "    return p.parse_args()\n\n\nclass TrainOptions:\n    def parse(self):\n"
                "        p = argparse.ArgumentParser()\n        p.add_argument('--dataroot')\n        return p.parse_args()\n"
            ),
            "opts/data.py": "def add_data(parser):\n    parser.add_argument('--data')\n",
            "args.py": "from dataclasses import dataclass\n\n\n@dataclass\nclass ModelArguments:\n    model: str = 'm'\n",
            "build.py": "from opts import *\n\np = get_parser()\np.add_argument('--seed')\np.parse_args()\n",
            "fit.py": "from opts import *\n\nargs = get_args()\n",
            "data.py": "import argparse\nfrom opts import add_data\n\np = argparse.ArgumentParser()\nadd_data(p)\np.parse_args()\n",
            "hf.py": (
                "from transformers import HfArgumentParser\n\nfrom args import *\n\n"
                "parser = HfArgumentParser((ModelArguments,))\n(model_args,) = parser.parse_args_into_dataclasses()\n"
            ),
            "opt.py": "from opts import *\n\nopt = TrainOptions().parse()\n",
            "run.sh": (
                "python build.py --steps 1 --seed 2 --bogus\npython fit.py --epochs 1 --bogus\npython data.py --data d --bogus\n"
                "python hf.py --model m --bogus\npython opt.py --dataroot d --bogus\n"
            ),
        },
        ["LL301 run.sh:1", "LL301 run.sh:2", "LL301 run.sh:3", "LL301 run.sh:4", "LL301 run.sh:5"],
    ),
    Example(  # transformers' TrainingArguments (and Seq2Seq's), alone or as a project dataclass's base: a flag no release had
        {
            "run_clm.py": (
                "from dataclasses import dataclass\nfrom transformers import HfArgumentParser, TrainingArguments\n\n\n"
                "@dataclass\nclass ModelArguments:\n    model: str = 'gpt2'\n\n\n"
                "parser = HfArgumentParser((ModelArguments, TrainingArguments))\n"
                "model_args, training_args = parser.parse_args_into_dataclasses()\n"
            ),
            "finetune.py": (
                "from dataclasses import dataclass\n\nimport transformers\n\n\n"
                "@dataclass\nclass LoraArguments(transformers.TrainingArguments):\n    lora_rank: int = 8\n\n\n"
                "(args,) = transformers.HfArgumentParser(LoraArguments).parse_args_into_dataclasses()\n"
            ),
            "seq.py": (
                "from transformers import HfArgumentParser, Seq2SeqTrainingArguments\n\n"
                "(args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()\n"
            ),
            "glue.py": (
                "from dataclasses import dataclass\n\nfrom transformers import GlueDataTrainingArguments, HfArgumentParser\n\n\n"
                "@dataclass\nclass DynamicDataTrainingArguments(GlueDataTrainingArguments):\n    num_sample: int = 16\n\n\n"
                "(data_args,) = HfArgumentParser(DynamicDataTrainingArguments).parse_args_into_dataclasses()\n"
            ),
            "run.sh": (
                "python run_clm.py --model gpt2 --output_dir out --lerning_rate 1e-4\n"
                "python finetune.py --lora_rank 4 --learning_rate 1e-4 --lora_alpha 8\n"
                "python seq.py --predict_with_generate --num_beams 4\n"
                "python glue.py --task_name sst-2 --num_sample 8 --second_sent_limit 2\n"
            ),
        },
        ["LL301 run.sh:1", "LL301 run.sh:2", "LL301 run.sh:3", "LL301 run.sh:4"],
    ),
    Example(  # an imported adder's own helper adds to the same parser
        {
            "opts.py": "def add_all(parser):\n    parser.add_argument('--lr')\n    _add_model(parser)\n\n\n"
            "def _add_model(parser):\n    parser.add_argument('--model')\n",
            "train.py": "import argparse\nfrom opts import add_all\n\np = argparse.ArgumentParser()\nadd_all(p)\np.parse_args()\n",
            "run.sh": "python train.py --lr 1 --model m --bogus\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # an imported adder that adds nothing itself, only through its module's own helpers
        {
            "opts.py": (
                "def add_general(parser):\n    parser = add_data(parser)\n    return add_model(parser)\n\n\n"
                "def add_data(parser):\n    parser.add_argument('--data')\n    return parser\n\n\n"
                "def add_model(parser):\n    parser.add_argument('--model')\n    return parser\n"
            ),
            "train.py": "import argparse\nfrom opts import add_general\n\np = argparse.ArgumentParser()\np = add_general(p)\np.parse_args()\n",
            "run.sh": "python train.py --data d --model m --bogus\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # options a function of another module adds to the parser it is given
        {
            "opts/common.py": (
                "def add_data_args(parser):\n    parser.add_argument('--data')\n\n\n"
                "def add_model_args(group_of, parser):\n    g = parser.add_argument_group('model')\n    g.add_argument('--model')\n"
            ),
            "train.py": (
                "import argparse\nimport opts.common as common\nfrom opts.common import add_data_args\n\n"
                "parser = argparse.ArgumentParser()\nadd_data_args(parser)\ncommon.add_model_args(None, parser=parser)\n"
                "parser.parse_args()\n"
            ),
            "run.sh": "python train.py --data d --model m\npython train.py --data d --modle m\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # the program from the launcher's own directory, through a variable too
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "scripts/run.sh": (
                '#!/bin/bash\nHERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)\n'
                'python "$HERE/../train.py" --lrr 3\ntorchrun --nproc_per_node 2 "$(dirname "$0")/../train.py" --lrr 3\n'
                'python "$(dirname "$(realpath "$0")")/../train.py" --lrr 3\n'
            ),
        },
        ["LL301 scripts/run.sh:3", "LL301 scripts/run.sh:4", "LL301 scripts/run.sh:5"],
    ),
    Example(  # other spellings of the own directory: backticks, a variable's dirname, and its parents
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "egs/tts/run.sh": (
                "#!/bin/bash\nexp_dir=$(cd `dirname $0`; pwd)\npython $exp_dir/../../train.py --lrr 1\n"
                "work_dir=$(dirname $(dirname $exp_dir))\npython $work_dir/train.py --lrr 2\n"
                'SOURCE="${BASH_SOURCE[0]}"\nhere="$(cd -P "$(dirname "$SOURCE")" >/dev/null 2>&1 && pwd)"\n'
                "python $here/../../train.py --lrr 3\n"
                'S="$0"\nd=$( dirname "$S" )\npython $d/../../train.py --lrr 4\n'
                'R=$(readlink -f "$0")\nD=$(cd "$(dirname "$R")" && pwd)\npython "$(dirname "$(dirname "$D")")/train.py" --lrr 5\n'
            ),
        },
        [
            "LL301 egs/tts/run.sh:3",
            "LL301 egs/tts/run.sh:5",
            "LL301 egs/tts/run.sh:8",
            "LL301 egs/tts/run.sh:11",
            "LL301 egs/tts/run.sh:14",
        ],
    ),
    Example(  # accelerate's launcher spelled as a module
        {
            "eval.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--logdir')\np.parse_args()\n",
            "eval.sh": "python -m accelerate.commands.launch --num_processes 1 eval.py --logdir out --language py\n",
        },
        ["LL301 eval.sh:1"],
    ),
    Example(  # a prefix of two flags: argparse cannot tell which (a unique prefix is fine)
        {
            "tools/prep.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--input')\n"
                "p.add_argument('--vocab-file')\np.add_argument('--vocab-size', type=int)\np.parse_args()\n"
            ),
            "prep.sh": "python tools/prep.py --inp a.json \\\n  --vocab v.txt\n",
        },
        ["LL301 prep.sh:2"],
    ),
    Example(  # a Megatron-style array, expanded after torchrun's own options
        {
            "train.py": ARGPARSE_TRAIN,
            "launch.sh": (
                "#!/bin/bash\nDIST=(--nproc_per_node 8 --master_port 29501)\nMODEL_ARGS=(\n"
                "    --num-layers 24\n    --warmup-steps 500\n)\n"
                'torchrun "${DIST[@]}" train.py "${MODEL_ARGS[@]}"\n'
            ),
        },
        ["LL301 launch.sh:5"],
    ),
    Example(  # continuation lines, `--flag=value`, and a prefix when allow_abbrev=False
        {
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser(allow_abbrev=False)\n"
                'parser.add_argument("--epochs", type=int)\nparser.add_argument("--lr", type=float)\n'
                "args = parser.parse_args()\n"
            ),
            "run.sh": "python train.py \\\n    --lr=3e-4 \\\n    --epoch 3 \\\n    --fp16\n",
        },
        ["LL301 run.sh:3", "LL301 run.sh:4"],
    ),
    Example(  # options in a variable partly known (`COMMON="--seed 1 --val_num $VAL"`), unquoted: bash splits them
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--seed')\np.add_argument('--val_num')\np.parse_args()\n",
            "run.sh": (
                '#!/bin/bash\nVAL=$1\nOK="--seed 1 --val_num $VAL"\npython train.py $OK\n'
                'COMMON="--seed 1 --val_nun $VAL"\npython train.py $COMMON\npython train.py "$COMMON"\n'
            ),
        },
        ["LL301 run.sh:6"],
    ),
    Example(  # an interpreter not known here (`pythonExec=$1`) running a Python file: its words are the file's
        {
            "tools/main.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\npythonExec=$1\n$pythonExec tools/main.py --lr 0.1\n"$pythonExec" tools/main.py --lrr 0.1\n$CMD --lrr 1\n',
        },
        ["LL301 run.sh:4"],
    ),
    Example(  # a program by an absolute path, of a name two files have: the one whose whole path it ends in
        {
            "prep/quant.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--model_path')\np.parse_args()\n",
            "vendor/deep/quant.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--model_pth')\np.parse_args()\n",
            "run.sh": "#!/bin/bash\nROOT=/data/me/proj\npython $ROOT/prep/quant.py --model_path x\npython $ROOT/prep/quant.py --model_pth x\n",
        },
        ["LL301 run.sh:4"],
    ),
    Example(  # an array set anew each time round a loop holds its words; one set from itself is not known
        {
            "sel.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--temp')\np.add_argument('--size')\np.parse_args()\n",
            "run.sh": (
                '#!/bin/bash\nfor g in 0.1 0.5; do\n  args=(--temp "$g" --sise 5)\n  python sel.py "${args[@]}"\n'
                '  more=("${more[@]}" --bogus)\n  python sel.py "${more[@]}"\ndone\n'
            ),
        },
        ["LL301 run.sh:3"],
    ),
    Example(  # flags after a subcommand belong to its parser; a variable holding flags
        {
            "cli.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nsub = parser.add_subparsers(dest='cmd')\n"
                "train = sub.add_parser('train')\ntrain.add_argument('--steps', type=int)\n"
                "evaluate = sub.add_parser('eval')\nevaluate.add_argument('--split')\n"
                "args = parser.parse_args()\n"
            ),
            "run.sh": 'EXTRA="--steps 100 --split val"\npython cli.py train $EXTRA\n',
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a name that held the parser and then the parse's result (MAE's `args = get_args_parser()`, `args = args.parse_args()`)
        {
            "main_finetune.py": (
                "import argparse\n\n\ndef get_args_parser():\n    parser = argparse.ArgumentParser(add_help=False)\n"
                "    parser.add_argument('--blr', type=float)\n    return parser\n\n\ndef main(args):\n    print(args.blr)\n\n\n"
                "if __name__ == '__main__':\n    args = get_args_parser()\n    args = args.parse_args()\n    main(args)\n"
            ),
            "run.sh": "python main_finetune.py --blr 5e-4\npython main_finetune.py --blrr 5e-4\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a subcommand made and not assigned (`sub.add_parser("train", parents=[common])`) has its parents' options
        {
            "cli.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\ncommon = argparse.ArgumentParser(add_help=False)\n"
                "common.add_argument('--lr', type=float)\nsub = parser.add_subparsers(dest='cmd', required=True)\n"
                "sub.add_parser('train', parents=[common])\nparser.parse_args()\n"
            ),
            "run.sh": "python cli.py train --lr 0.1\npython cli.py train --lrr 0.1\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a variable given a subcommand in each branch of an `if`: what is done to it after is done to each
        {
            "configs/__init__.py": "",
            "configs/common.py": "def add_args(parser):\n    parser.add_argument('--lr', type=float)\n",
            "main.py": (
                "import argparse\n\nfrom configs.common import add_args\n\nparser = argparse.ArgumentParser()\n"
                "sub = parser.add_subparsers(dest='cmd')\nif len(sub.choices) == 0:\n    sp = sub.add_parser('cifar')\n"
                "else:\n    sp = sub.add_parser('imagenet')\nadd_args(sp)\nsp.add_argument('--epochs', type=int)\n"
                "parser.parse_args()\n"
            ),
            "run.sh": "python main.py cifar --lr 0.1 --epochs 2\npython main.py imagenet --lr 0.1 --epochs 2\npython main.py cifar --bogus 1\n",
        },
        ["LL301 run.sh:3"],
    ),
    Example(  # HfArgumentParser over a dataclass of the project, imported; `python -m`
        {
            "pkg/__init__.py": "",
            "pkg/args.py": (
                "from dataclasses import dataclass, field\n\n\n@dataclass\nclass ModelArguments:\n"
                "    model_name_or_path: str\n    use_fast: bool = field(default=True)\n"
            ),
            "pkg/run.py": (
                "from transformers import HfArgumentParser\n\nfrom pkg.args import ModelArguments\n\n"
                "(model_args,) = HfArgumentParser(ModelArguments).parse_args_into_dataclasses()\n"
            ),
            "finetune.sh": "python -m pkg.run --model_name_or_path gpt2 --no_use_fast --learning_rate 1e-4\n",
        },
        ["LL301 finetune.sh:1"],
    ),
    Example(  # a dataclass named as the imported one it extends: its base is the imported class
        {
            "args.py": "from dataclasses import dataclass\n\n\n@dataclass\nclass GenArgs:\n    max_new_tokens: int = 8\n",
            "eval_qa.py": (
                "from dataclasses import dataclass\nfrom transformers import HfArgumentParser\n\n"
                "from args import GenArgs\n\n\n@dataclass\nclass GenArgs(GenArgs):\n    eval_data: str = 'qa'\n\n\n"
                "(gen_args,) = HfArgumentParser(GenArgs).parse_args_into_dataclasses()\n"
            ),
            "eval.sh": "python eval_qa.py --max_new_tokens 16 --eval_data nq\npython eval_qa.py --max_tokens 16\n",
        },
        ["LL301 eval.sh:2"],
    ),
    Example(  # bash passes the words after a redirect's file to the command
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out')\np.parse_args()\n",
            "run.sh": "python -u train.py >train.log --out ckpt --bogus 1\npython -u train.py 2>&1 --out ckpt >>train.log\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # a click command; inside ssh and tmux strings, at a remote absolute path
        {
            "tools/export.py": (
                "import click\n\n\n@click.command()\n@click.option('--dryrun', is_flag=True)\n"
                "@click.option('--out', required=True)\ndef main(dryrun, out):\n    pass\n\n\n"
                "if __name__ == '__main__':\n    main()\n"
            ),
            "deploy.sh": (
                "ssh gpu1 \"tmux new -d -s export 'python /srv/app/tools/export.py --out /tmp/m --dry-run'\"\n"
            ),
        },
        ["LL301 deploy.sh:1"],
    ),
    Example(  # a Ray job's command line, which /bin/sh runs: `VAR=1` sets a variable; one quoted word is a program sh does not find
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "submit.sh": (
                "ray job submit --working-dir . -- CUDA_VISIBLE_DEVICES=0,1 python3 train.py --lr 1 --bogus 1\n"
                "ray job submit --working-dir . -- \"python3 train.py --bogus 1\"\n"
                'while [ $# -gt 0 ]; do\n  case $1 in\n    --lr) LR="$2"; shift 2 ;;\n    *) shift ;;\n  esac\ndone\n'
                'LR=${LR:-"1 2"}\nray job submit -- python3 train.py --lr "$LR"\n'  # shlex.join quotes it: one word
            ),
        },
        ["LL301 submit.sh:1"],
    ),
    Example(  # an absolute path in the project mounted above it, or in a directory of its directory's name
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "bench/utils/convert.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--src')\np.parse_args()\n",
            "run.sh": (
                'docker run --gpus all -v "$PWD":/app img python /app/train.py --lr 1 --bogus 2\n'
                "srun --container-image=img python3 /workspace/utils/convert.py --source /in\n"
            ),
        },
        ["LL301 run.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # a typer app: commands by name, no prefixes, `--no-x` for a bool
        {"cli.py": TYPER_CLI, "run.sh": "python cli.py train --no-use-amp --epoch 3\npython cli.py export -o m.pt\n"},
        ["LL301 run.sh:1"],
    ),
    Example(  # a flag written with `=` and a value not known here is still that flag
        {"train.py": ARGPARSE_TRAIN, "run.sh": "python train.py --lr=$LR --warmup-step=$WARMUP\n"},
        ["LL301 run.sh:1"],
    ),
    Example(  # before an option with argparse's REMAINDER, and after `--set=A`, which takes only `A`
        {
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--launcher')\n"
                "p.add_argument('--set', dest='set_cfgs', nargs=argparse.REMAINDER)\np.parse_args()\n"
            ),
            "run.sh": "python train.py --launcher pytorch --bogus 2 --set A 1\npython train.py --set=A --bogus 2\n",
        },
        ["LL301 run.sh:1", "LL301 run.sh:2"],
    ),
    Example(  # torchrun drops a `--` after the program (argparse's REMAINDER): the flags are read
        {"train.py": ARGPARSE_TRAIN, "run.sh": "torchrun --nproc_per_node 2 train.py -- --lr 1e-4 --bogus 1\n"},
        ["LL301 run.sh:1"],
    ),
    Example(  # a parent parser another module of the project builds: its options and no others
        {
            "common.py": "import argparse\n\n\ndef make_parser():\n    p = argparse.ArgumentParser(add_help=False)\n    p.add_argument('--width')\n    return p\n",
            "submit.py": (
                "import argparse\n\nimport common as cm\n\n\ndef main():\n    base = cm.make_parser()\n"
                "    parser = argparse.ArgumentParser(parents=[base])\n    parser.add_argument('--nodes')\n    parser.parse_args()\n\n\nmain()\n"
            ),
            "run.sh": "python submit.py --nodes 2 --width 480 --height 640\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # a prefix of two spellings of one option: argparse counts spellings (HfArgumentParser adds both)
        {
            "run.sh": "#!/bin/bash\npython train.py --learning 3e-4 --epochs 2\npython sft.py --learning 2e-5 --num_epochs 3\n",
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('--learning-rate', '--learning_rate', type=float)\n"
                "parser.add_argument('--epochs', type=int)\nargs = parser.parse_args()\n"
            ),
            "sft.py": dedented(
                """
                from dataclasses import dataclass

                from transformers import HfArgumentParser


                @dataclass
                class ScriptArguments:
                    learning_rate: float = 1e-4
                    num_epochs: int = 1


                (args,) = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()
                """
            ),
        },
        ["LL301 run.sh:2", "LL301 run.sh:3"],
    ),
    Example(  # a parser built with add_help=False has no `-h`/`--help`, unless it defines its own
        {
            "train.py": "import argparse\np = argparse.ArgumentParser(add_help=False)\np.add_argument('--lr')\np.parse_args()\n",
            "resize.py": (
                "import argparse\np = argparse.ArgumentParser(add_help=False)\n"
                "p.add_argument('-h', '--height', type=int)\np.parse_args()\n"
            ),
            "run.sh": "#!/bin/bash\npython train.py --lr 1 -h\npython resize.py -h 256\npython train.py --help\n",
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # allow_abbrev set as the parser's attribute, not given to its constructor
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser()\np.allow_abbrev = False\n"
                "p.add_argument('--learning_rate')\np.parse_args()\n"
            ),
            "run.sh": "#!/bin/bash\npython train.py --learning_rate 1\npython train.py --learn 1\n",
        },
        ["LL301 run.sh:3"],
    ),
    Example(  # a script with no extension, Python by its shebang, run by its path; a shell one has no parser
        {
            "train": "#!/usr/bin/env python3\nimport argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "tools/prep": "#!/bin/bash\necho \"$@\"\n",
            "run.sh": "#!/bin/bash\n./train --lr 1\n./train --bogus 1\n./tools/prep --bogus 1\n./configure --bogus\n",
        },
        ["LL301 run.sh:3"],
    ),
    Example(  # a launcher's program with no extension, Python by its shebang; a shell script is not read
        {
            "train": "#!/usr/bin/env python\nimport argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--local_rank')\np.parse_args()\n",
            "prep": "#!/bin/bash\necho \"$@\"\n",
            "run.sh": (
                "#!/bin/bash\ntorchrun --nproc_per_node 2 train --lr 1\ntorchrun --nproc_per_node 2 train --bogus 1\n"
                "deepspeed --num_gpus 2 train --bogus 1\naccelerate launch --num_processes 2 train --bogus 1\n"
                "python -m torch.distributed.run --nproc_per_node 2 train --bogus 1\ntorchrun prep --bogus 1\n"
            ),
        },
        ["LL301 run.sh:3", "LL301 run.sh:4", "LL301 run.sh:5", "LL301 run.sh:6"],
    ),
    Example(  # `python DIR` runs DIR/__main__.py: its parser reads the flags (DIR from the launcher's own directory too)
        {
            "app/__main__.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": "#!/bin/bash\npython app --lr 1\npython app --bogus 1\npython ./app/ --bogus 1\n",
            "scripts/run.sh": '#!/bin/bash\npython "$(dirname "$0")/../app" --lr 1\npython "$(dirname "$0")/../app" --bogus 1\n',
        },
        ["LL301 run.sh:3", "LL301 run.sh:4", "LL301 scripts/run.sh:3"],
    ),
    Example(  # switches grouped in one word: `-vd DIR` is `-v -d DIR`; `-vq` holds an unknown `-q`
        {
            "run.sh": "#!/bin/bash\npython train.py -vd /data/tokens -v=1\npython train.py -vq -d /data/tokens\n",
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('-v', '--verbose', action='store_true')\n"
                "parser.add_argument('-d', '--data-dir', required=True)\nargs = parser.parse_args()\n"
            ),
        },
        ["LL301 run.sh:3"],
    ),
    Example(  # a typer boolean with names of its own has no `--no-` form (typer adds one only to its default name)
        {
            "run.sh": "#!/bin/bash\npython cli.py --no-amp --no-compile --epochs 5\n",
            "cli.py": (
                "import typer\n\n\ndef main(amp: bool = typer.Option(False, '--amp'), compile: bool = False, epochs: int = 3):\n"
                "    pass\n\n\nif __name__ == '__main__':\n    typer.run(main)\n"
            ),
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # `parse_args(sys.argv[2:])`: the parser reads the words after the mode word
        {
            "train.py": (
                "import argparse\nimport sys\n\nmode = sys.argv[1]\np = argparse.ArgumentParser()\n"
                "p.add_argument('--lr')\nargs = p.parse_args(sys.argv[2:])\n"
            ),
            "run.sh": "python train.py fit --lr 1\npython train.py fit --bogus 1\npython train.py $MODE --lr 1 --bogus\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # an imported function that parses its parameter, called with the process's arguments (aster.pytorch's)
        {
            "config.py": GET_ARGS_OF_ARGV,
            "main.py": "import sys\n\nfrom config import get_args\n\nif __name__ == '__main__':\n    args = get_args(sys.argv[1:])\n",
            "run.sh": "python main.py --height 32 --heigth 48\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # `sys.argv[2:]` handed on to the function that parses it: the words after the mode word
        {
            "config.py": GET_ARGS_OF_ARGV,
            "app.py": "from config import get_args\n\n\ndef run(argv):\n    return get_args(argv)\n",
            "cli.py": "import sys\n\nfrom app import run\n\nif __name__ == '__main__':\n    run(sys.argv[2:])\n",
            "run.sh": "python cli.py fit --height 1\npython cli.py fit --heigth 1\npython cli.py --heigth 1\npython cli.py $MODE --heigth 1\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # one parser's known parse, options added, then its strict parse of what it left (RecAI's param.py)
        {
            "param.py": (
                "import argparse\n\n\ndef add_sft(parser):\n    parser.add_argument('--lora_r', type=int)\n    return parser\n\n\n"
                "def get_args():\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--seed', type=int)\n"
                "    args, rest = parser.parse_known_args()\n    parser = add_sft(parser)\n    return parser.parse_args(rest, args)\n"
            ),
            "main.py": "from param import get_args\n\nargs = get_args()\n",
            "run.sh": "python main.py --seed 1 --lora_r 16\npython main.py --seed 1 --lora_rank 16\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # click's help option is `--help` alone: "No such option: -h"
        {
            "cli.py": (
                "import click\n\n\n@click.command()\n@click.option('--lr')\ndef main(lr):\n    pass\n\n\n"
                "if __name__ == '__main__':\n    main()\n"
            ),
            "run.sh": "python cli.py --help\npython cli.py -h\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # an options class that keeps its parser in `self.parser` (pix2pixHD's); a subclass elsewhere
        # that adds through it adds its options (vid2vid's `TrainOptions.initialize`, helper-356)
        {
            "opts.py": (
                "import argparse\n\n\nclass Options:\n    def __init__(self):\n        self.parser = argparse.ArgumentParser()\n"
                "        self.parser.add_argument('--lr')\n\n    def parse(self):\n        return self.parser.parse_args()\n"
            ),
            "more_opts.py": (
                "from opts import Options\n\n\nclass MoreOptions(Options):\n    def __init__(self):\n"
                "        super().__init__()\n        self.parser.add_argument('--steps')\n"
            ),
            "train.py": "from opts import Options\n\nopt = Options().parse()\n",
            "train_more.py": "from more_opts import MoreOptions\n\nopt = MoreOptions().parse()\n",
            "run.sh": (
                "python train.py --lr 1\npython train.py --lr 1 --bogus\npython train_more.py --steps 1 --lr 1\n"
                "python train_more.py --stpes 1\n"
            ),
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # the parser of a module the program imports, which parses when it is imported
        {
            "config.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr', type=float)\n"
                "args = parser.parse_args()\n"
            ),
            "train.py": "from config import args\n\nprint(args.lr)\n",
            "utils/__init__.py": "",
            "utils/opts.py": "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--steps')\nopt = p.parse_args()\n",
            "eval.py": "import utils.opts as opts\n\nprint(opts.opt.steps)\n",
            "run.sh": "python train.py --lr 1\npython train.py --lrr 1\npython eval.py --steps 2\npython eval.py --step 2 --lr 1\n",
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # an options class (pix2pix's): built and parsed in its methods, options added by the
        # instance's class and its bases (`BaseOptions.initialize(self, parser)`, `super().initialize`)
        {
            "options/__init__.py": "",
            "options/base_options.py": OPTIONS_BASE,
            "options/train_options.py": (
                "from .base_options import BaseOptions\n\n\nclass TrainOptions(BaseOptions):\n"
                "    def initialize(self, parser):\n        parser = BaseOptions.initialize(self, parser)\n"
                "        parser.add_argument('--lr', type=float)\n        return parser\n"
            ),
            "options/test_options.py": (
                "from .base_options import BaseOptions\n\n\nclass TestOptions(BaseOptions):\n"
                "    def initialize(self, parser):\n        parser = super().initialize(parser)\n"
                "        parser.add_argument('--results_dir')\n        return parser\n"
            ),
            "train.py": "from options.train_options import TrainOptions\n\nopt = TrainOptions().parse()\n",
            "test.py": "from options.test_options import TestOptions\n\noptions = TestOptions()\nopt = options.parse()\n",
            "run.sh": (
                "python train.py --dataroot d --name maps --lr 1\npython train.py --dataroot d --lrr 1\n"
                "python test.py --dataroot d --results_dir r\npython test.py --dataroot d --lr 1\n"
            ),
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # an array set before an if whose arms append to it: what it had is still checked, where it is written
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": (
                '#!/bin/bash\nARGS=(python train.py --lr 1 --epochz 3)\nif [ "$1" = a ]; then ARGS+=(--lr 2); else ARGS+=(--lr 3); fi\n'
                '"${ARGS[@]}"\n'
            ),
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # options added through `add_arg = parser.add_argument` (cosmoflow's), here or in an imported helper
        {
            "train.py": (
                "import argparse\n\n\ndef parse_args():\n    parser = argparse.ArgumentParser()\n    add_arg = parser.add_argument\n"
                "    add_arg('-d', '--distributed', action='store_true')\n    add_arg('--rank-gpu', action='store_true')\n"
                "    return parser.parse_args()\n\n\nparse_args()\n"
            ),
            "opts.py": "def add_model(parser):\n    arg = parser.add_argument\n    arg('--hidden', type=int)\n",
            "eval.py": "import argparse\n\nfrom opts import add_model\n\np = argparse.ArgumentParser()\nadd_model(p)\np.parse_args()\n",
            "run.sh": "python -u train.py -d --rank-gpu\npython -u train.py -d --rank-gpus\npython eval.py --hidden 8\npython eval.py --hiden 8\n",
        },
        ["LL301 run.sh:2", "LL301 run.sh:4"],
    ),
    Example(  # a launcher of a project nested in this one (its own pyproject.toml) runs that project's `tools/prep.py`
        {
            "tools/prep.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--src')\np.parse_args()\n",
            "sub/pyproject.toml": "",
            "sub/tools/prep.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out')\np.parse_args()\n",
            "sub/recipe/x/run.sh": "python tools/prep.py --src data\n",
        },
        ["LL301 sub/recipe/x/run.sh:1"],
    ),
    Example(  # and its `python -m pkg.train`, from that project's root (the working directory comes first in sys.path)
        {
            "pkg/__init__.py": "",
            "pkg/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--src')\np.parse_args()\n",
            "sub/setup.py": "",
            "sub/pkg/__init__.py": "",
            "sub/pkg/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out')\np.parse_args()\n",
            "sub/scripts/run.sh": "python -m pkg.train --src data\n",
        },
        ["LL301 sub/scripts/run.sh:1"],
    ),
    Example(  # the launcher's own shell, back from an absolute `cd` (`cd -`, `popd`, a subshell's end), or moved into a
        # directory known here or not known (`cd $ROOT`); a module or a path after one that is the project's mounted there
        {
            "tool/launch.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--nstages')\np.parse_args()\n",
            "run.sh": (
                "#!/bin/bash\ncd /tmp && cd -\npython3 launch.py --node_rank 0\n"
                "(cd /opt/other_checkout && python3 launch.py --node_rank 1)\npython3 launch.py --node_rank 2\n"
                "pushd /opt/x\npopd\npython3 launch.py --node_rank 3\n"
                "cd /opt/proj && python3 -m tool.launch --node_rank 4\n"
                "cd /opt/proj && cd tool && python3 launch.py --node_rank 5\n"
                'cd /opt/x && cd "$(dirname "$0")" && python3 tool/launch.py --node_rank 6\n'
                "cd $ROOT && python3 launch.py --node_rank 7\n"
            ),
        },
        ["LL301 run.sh:3", "LL301 run.sh:5", "LL301 run.sh:8", "LL301 run.sh:9", "LL301 run.sh:10", "LL301 run.sh:11", "LL301 run.sh:12"],
    ),
    Example(  # on another host, after a relative `cd`, or one to a directory that is the project's mounted there;
        # an absolute path, wherever a `cd` went
        {
            "tool/launch.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--nstages')\np.parse_args()\n",
            "run.sh": (
                '#!/bin/bash\nssh gpu1 "cd proj/tool; python3 launch.py --node_rank 0"\n'
                'ssh gpu2 "cd /opt/proj/tool && python3 launch.py --node_rank 1"\n'
                'ssh gpu3 "cd $REMOTE_DIR && python3 /opt/proj/tool/launch.py --node_rank 2"\n'
            ),
        },
        ["LL301 run.sh:2", "LL301 run.sh:3", "LL301 run.sh:4"],
    ),
    Example(  # options added through a lambda that hands its arguments to `add_argument` as it takes them
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nadd = lambda *a, **k: p.add_argument(*a, **k)\n"
                "add('--epochs', type=int)\np.parse_args()\n"
            ),
            "run.sh": "python train.py --epochs 1\npython train.py --epohcs 1\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a helper imported in an if's arms from two modules that add the same options: those
        {
            "a.py": "def add_args(parser):\n    parser.add_argument('--alpha')\n",
            "b.py": "def add_args(parser):\n    parser.add_argument('--alpha', default='1')\n",
            "main.py": (
                "import argparse\nimport sys\n\np = argparse.ArgumentParser()\nif 'a' in sys.argv:\n    from a import add_args\n"
                "else:\n    from b import add_args\nadd_args(p)\np.parse_args()\n"
            ),
            "run.sh": "python main.py --alpha 1 --beta 2\n",
        },
        ["LL301 run.sh:1"],
    ),
    Example(  # a flag the program checks in sys.argv is known; another is not
        {
            "run.py": (
                "import argparse\nimport sys\n\nif '--remote' in sys.argv:\n    sys.exit(0)\n"
                "parser = argparse.ArgumentParser()\nparser.add_argument('--message')\nparser.parse_args()\n"
            ),
            "launch.sh": "python run.py --remote --message hi\npython run.py --local --message hi\n",
        },
        ["LL301 launch.sh:2"],
    ),
    Example(  # timm's two parsers: the config parser's known words, then the main one parses the rest
        {
            "train.py": (
                "import argparse\n\nconfig_parser = parser = argparse.ArgumentParser(add_help=False)\n"
                "parser.add_argument('-c', '--config', default='')\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('--epochs', type=int)\n\n\ndef _parse_args():\n"
                "    args_config, remaining = config_parser.parse_known_args()\n    return parser.parse_args(remaining)\n\n\n"
                "if __name__ == '__main__':\n    _parse_args()\n"
            ),
            "run.sh": "python train.py -c a.yaml --epochs 3\npython train.py --config a.yaml --epocs 3\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # gaussian-splatting's ParamGroup: an option for each attribute its subclass sets before
        # `super().__init__(parser, ...)` (not after: `--late`), `-s` of `_source_path`, `--eval` a switch
        {
            "arguments/__init__.py": GS_PARAMS,
            "train.py": GS_TRAIN,
            "run.sh": (
                "python train.py -s data/garden -m out/garden -r 2 --white_background --eval --iterations 7000\n"
                "python train.py --source_path data --sh_degree 1 --max_steps 10 --port 6010\n"
                "python train.py -s data/garden --eval --iteratons 7000\n"
                "python train.py -s data/garden --late 2\n"
            ),
        },
        ["LL301 run.sh:3", "LL301 run.sh:4"],
    ),
    Example(  # a ParamGroup subclass in another module than ParamGroup's, and one in the program's module
        {
            "arguments/__init__.py": GS_PARAM_GROUP,
            "arguments/extra.py": (
                "from arguments import ParamGroup\n\n\nclass DeformParams(ParamGroup):\n    def __init__(self, parser):\n"
                "        self.net_width = 64\n        self.no_dx = False\n        super().__init__(parser, 'Deform')\n"
            ),
            "train.py": (
                "from argparse import ArgumentParser\nfrom arguments import ParamGroup\nfrom arguments.extra import DeformParams\n\n\n"
                "class PipelineParams(ParamGroup):\n    def __init__(self, parser):\n        self.debug = False\n"
                "        super().__init__(parser, 'Pipeline')\n\n\nparser = ArgumentParser()\nDeformParams(parser)\n"
                "PipelineParams(parser)\nargs = parser.parse_args()\n"
            ),
            "run.sh": "python train.py --net_width 32 --no_dx --debug\npython train.py --net_widht 32\n",
        },
        ["LL301 run.sh:2"],
    ),
    Example(  # a variable each arm of an if/case sets to a static string: each arm's value in turn (a flag of one at
        # its arm), and where no arm runs, the value before; a word of the command that a way's value makes wrong
        {
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--hidden_size')\np.add_argument('--layers')\n"
                "p.add_argument('--lr')\np.parse_args()\n"
            ),
            "main.py": (
                "import argparse\np = argparse.ArgumentParser()\nsub = p.add_subparsers()\ntrain = sub.add_parser('train')\n"
                "train.add_argument('--lr')\nbeam = sub.add_parser('eval')\nbeam.add_argument('--beam')\np.parse_args()\n"
            ),
            "launch.sh": (
                'if [ "$SIZE" = big ]; then\n  EXTRA="--hiden_size 4096 --layers 32"\nelif [ "$SIZE" = small ]; then\n'
                '  EXTRA="--hidden_size 1024"\nelse\n  EXTRA=""\nfi\ntorchrun --nproc_per_node 8 train.py $EXTRA --lr 1e-4\n'
                'python train.py $EXTRA\nMORE="--lr 1"\nif [ "$2" = fast ]; then MORE="--lr 2 --layer_count 2"; fi\n'
                "python train.py ${MORE}\n"
            ),
            "modes.sh": (
                'case "$1" in\n  train) MODE=train;;\n  eval) MODE=eval;;\n  *) echo "usage: $0 train|eval"; exit 1;;\nesac\n'
                "python main.py $MODE --beam 4\n"
            ),
        },
        ["LL301 launch.sh:2", "LL301 launch.sh:11", "LL301 modes.sh:6"],
    ),
    Example(  # behind a Kaldi/ESPnet job runner, after its options and log (`run.pl --mem 4G LOG CMD`)
        {
            "run.sh": "#!/bin/bash\nutils/run.pl --mem 4G --gpu 1 exp/log/train.log python train.py --lr 1 --epohcs 3\n",
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--epochs')\np.parse_args()\n",
        },
        ["LL301 run.sh:2"],
    ),
]

VALID = [
    Example(  # arms that may not go on to the launch or leave the variable unknown, ruled out by a value the script
        # sets or decided by one in a way not read, a `case` arm that goes on into the next, conditions read alike
        {
            "t.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "u.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--x')\np.parse_args()\n",
            "main.py": (
                "import argparse\np = argparse.ArgumentParser()\nsub = p.add_subparsers()\ntrain = sub.add_parser('train')\n"
                "train.add_argument('--lr')\nevaluate = sub.add_parser('eval')\nevaluate.add_argument('--lr')\np.parse_args()\n"
            ),
            "exits.sh": 'case "$1" in\n  train) MODE=train;;\n  eval) MODE=eval;;\n  *) MODE=""; echo "no mode: $1"; exit 1;;\nesac\npython main.py $MODE --lr 1\n',
            "usage.sh": (
                'usage() { echo "usage: $0 train|eval"; exit 1; }\ncase "$1" in\n  train) MODE=train;;\n  eval) MODE=eval;;\n'
                '  *) MODE=""; usage;;\nesac\npython main.py $MODE --lr 1\n'
            ),
            "unset.sh": 'case "$1" in\n  train) MODE=train;;\n  eval) MODE=eval;;\n  *) echo "no mode";;\nesac\npython main.py $MODE --lr 1\n',
            "decided.sh": 'SIZE=small\nif [ "$SIZE" = big ]; then EXTRA="--bogus 1"; else EXTRA="--lr 1"; fi\npython t.py $EXTRA\n',
            "nodes.sh": 'NODES=1\nif [ "$NODES" -gt 1 ]; then EXTRA="--bogus 1"; else EXTRA=""; fi\npython t.py $EXTRA\n',
            "default.sh": 'if [ "$A" = 1 ]; then EXTRA=${EXTRA:---bogus}; else EXTRA=""; fi\npython t.py $EXTRA\n',
            "falls.sh": 'case "$1" in\n  a) EXTRA="--bogus";&\n  b) EXTRA="--lr 1";;\n  *) EXTRA="";;\nesac\npython t.py $EXTRA\n',
            "alike.sh": (
                'if [ "$M" = a ]; then EXTRA="--x 1"; else EXTRA=""; fi\nif [ "$M" = a ]; then python u.py $EXTRA; else python t.py $EXTRA; fi\n'
                'if [ -f ckpt ]; then RESUME="--x 2"; else RESUME=""; fi\nif [ -f ckpt ]; then python u.py $RESUME; fi\n'
                "[ -f ckpt ] || python t.py $RESUME\n"
            ),
        }
    ),
    Example(  # a variable's command whose options are not python's, and arms that run other programs
        {
            "x.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": (
                '#!/bin/bash\nL=$1\n$L --num_gpus 2 x.py --bogus\nif [ "$2" ]; then C="torchrun --nnodes=2 x.py"\n'
                'else C="torchrun --nnodes=1 y.py"; fi\n$C --bogus\n'
            ),
        },
    ),
    Example(  # words after a switch that argparse takes, or does not leave over as the launch is written: a
        # BooleanOptionalAction's (not judged), an option's of `nargs='?'`, a REMAINDER's, a subcommand's name, a
        # positional's; after `--`, not static, a negative number; with `-h` (it exits 0 first); where unknown
        # words get through, the parser is not all known, the module reads the flag itself, or the word may be a
        # file of arguments; HfArgumentParser's bools take `True`, click's and typer's are not judged
        {
            **SWITCHED,
            "known.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--fp16', action='store_true')\np.parse_known_args()\n",
            "open.py": (
                "import argparse\nfrom names import NAMES\n\np = argparse.ArgumentParser()\np.add_argument('--fp16', action='store_true')\n"
                "for n in NAMES:\n    p.add_argument(n)\np.parse_args()\n"
            ),
            "hand.py": (
                "import argparse\nimport sys\n\nif '--remote' in sys.argv:\n    host = sys.argv[sys.argv.index('--remote') + 1]\n"
                "p = argparse.ArgumentParser()\np.add_argument('--remote', action='store_true')\np.parse_args()\n"
            ),
            "files.py": (
                "import argparse\np = argparse.ArgumentParser(fromfile_prefix_chars='@')\np.add_argument('--fp16', action='store_true')\n"
                "p.parse_args()\n"
            ),
            "hf.py": (
                "from dataclasses import dataclass\n\nfrom transformers import HfArgumentParser\n\n\n@dataclass\nclass Args:\n"
                "    fp16: bool = False\n\n\nHfArgumentParser(Args).parse_args_into_dataclasses()\n"
            ),
            "cl.py": "import click\n\n\n@click.command()\n@click.option('--fp16', is_flag=True)\ndef main(fp16):\n    pass\n\n\nmain()\n",
            "run.sh": (
                "#!/bin/bash\npython train.py --compile True --resume on --set --fp16 on\npython cli.py --verbose train --fp16\n"
                'python cli.py eval --fp16 ckpt.pt\npython train.py --fp16 -- on\npython train.py --fp16 "$MODE" --cpu-offload $OFF\n'
                "python train.py --fp16 -1\npython train.py --fp16 on -h\npython known.py --fp16 on\npython open.py --fp16 on\n"
                "python hand.py --remote gpu1\npython files.py --fp16 @more.txt\npython hf.py --fp16 True\npython cl.py --fp16 True\n"
                "python known.py --fp16=on\npython hf.py --fp16=True\npython hand.py --remote=gpu1\npython train.py --compile=True\n"
                "python train.py --batch-size $BS 16\npython train.py --resume last 16\npython cli.py eval --fp16 ckpt.pt --fp16\n"
            ),
        },
    ),
    Example(  # a quoted value with spaces attached to its option is one argument under a launcher too (`"$DIST"` is split)
        {
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--prompt')\np.add_argument('--seed')\n"
                "p.add_argument('--local_rank')\np.parse_args()\n"
            ),
            "run.sh": (
                '#!/bin/bash\nPROMPT="a photo of sks dog"\ntorchrun --nproc_per_node 2 train.py --prompt="$PROMPT" --seed 1\n'
                'CLASS="a photo of $TOKEN"\ndeepspeed train.py --prompt="$CLASS" --seed 1\n'
                'accelerate launch train.py --prompt="a photo of dog" --seed=1\nDIST="--nproc_per_node=2 --nnodes=1"\n'
                'torchrun "$DIST" train.py --seed 1\n'
            ),
        }
    ),
    Example(  # a justfile recipe's flag from a parameter without a default, or `{{{{`, just's literal `{{`
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs')\np.parse_args()\n",
            "justfile": "train flag *ARGS:\n    python train.py {{flag}} 3 {{ARGS}}\n    echo '{{{{--epochz}}'\n",
        }
    ),
    Example(  # the local rank in the environment (torchrun, `--use_env`, `--no_local_rank`), or a parser that takes it
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "old.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--local_rank', type=int)\np.parse_args()\n",
            "new.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--local-rank', type=int)\np.parse_args()\n",
            "known.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_known_args()\n",
            "run.sh": (
                "#!/bin/bash\ntorchrun --nproc_per_node=8 train.py --lr 1\npython -m torch.distributed.launch --use_env train.py\n"
                "deepspeed --no_local_rank train.py\npython -m atorch.distributed.launch train.py\n"
                "python -m torch.distributed.launch old.py\ndeepspeed new.py\ndeepspeed known.py --x 1\n"
            ),
        },
    ),
    Example(  # console scripts' flags all defined; a name two packages declare otherwise, one whose function is not
        # found, or in a malformed pyproject.toml, is no program; `command -v`, `type`, `which` run nothing
        {
            **CONSOLE,
            "tools/one/pyproject.toml": "[project.scripts]\ndup = 'one.cli:main'\ngone = 'one.cli:missing'\n",
            "tools/one/one/cli.py": "import argparse\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n",
            "tools/two/pyproject.toml": "[project.scripts]\ndup = 'two.cli:main'\n",
            "tools/two/two/cli.py": "import argparse\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n",
            "tools/three/pyproject.toml": "[project.scripts]\nbroken = 'three.cli:main'\n[project\n",
            "tools/three/three/cli.py": "import argparse\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n",
            "run.sh": (
                "#!/bin/bash\nfq-train data --arch x --lr 1\nalpha-train --config c.yaml --step 3\nbeta-run --epochs 2\n"
                "dup --x\ngone --x\nbroken --x\ncommand -v fq-train --x\ntype fq-train\nwhich fq-train\ncommand -v python fq_cli/train.py --x\n"
            ),
            "c.yaml": "",
        }
    ),
    Example(  # subparsers handed to code not read (transformers' old `transformers-cli`): its subcommands are not known
        {
            "pkg/cli.py": (
                "from argparse import ArgumentParser\n\nfrom pkg.commands import DownloadCommand\n\n\ndef main():\n"
                "    parser = ArgumentParser('pkg-cli')\n    commands_parser = parser.add_subparsers(help='commands')\n"
                "    DownloadCommand.register_subcommand(commands_parser)\n    args = parser.parse_args()\n    args.func(args)\n\n\n"
                "if __name__ == '__main__':\n    main()\n"
            ),
            "pkg/commands.py": (
                "class DownloadCommand:\n    @staticmethod\n    def register_subcommand(parser):\n"
                "        download = parser.add_parser('download')\n        download.add_argument('--cache-dir')\n"
            ),
            "setup.py": "from setuptools import setup\nsetup(name='pkg', entry_points={'console_scripts': ['pkg-cli=pkg.cli:main']})\n",
            "run.sh": "#!/bin/bash\npython pkg/cli.py download --cache-dir /tmp bert\npkg-cli download --cache-dir /tmp bert\n",
        }
    ),
    Example(  # a namesake elsewhere that takes none of the launch's flags is not the program meant (OpenNMT-kpg's tests)
        {
            "onmt/keyphrase/preprocess.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lang')\np.parse_args()\n",
            "onmt/tests/test_models.sh": "#!/bin/bash\npython preprocess.py -train_src data/src-train.txt -save_data /tmp/q\n",
        }
    ),
    Example(  # Megatron's parse, where what the calls pass is not known or lets unknown flags through
        {
            **MEGATRON,
            "tools/server.py": (  # `ignore_unknown_args=True`: `parse_known_args`
                "from megatron.initialize import initialize_megatron\n\n\ndef add_server_args(parser):\n"
                "    parser.add_argument('--port', type=int)\n    return parser\n\n\n"
                "initialize_megatron(extra_args_provider=add_server_args, ignore_unknown_args=True)\n"
            ),
            "pretrain_gpt.py": (  # a provider only where a library is installed
                "from megatron.training import pretrain\n\ntry:\n    from modelopt_args import add_modelopt_args\n"
                "    HAVE_MODELOPT = True\nexcept ImportError:\n    HAVE_MODELOPT = False\n\n"
                "pretrain(None, None, extra_args_provider=add_modelopt_args if HAVE_MODELOPT else None)\n"
            ),
            "pretrain_bert.py": (  # the provider a local variable holds; a library's adder
                "import somelib\nfrom megatron.training import pretrain\n\n\ndef main():\n"
                "    provider = somelib.add_args\n    pretrain(None, None, extra_args_provider=provider)\n\n\nmain()\n"
            ),
            "pretrain_t5.py": (  # the arguments unpacked into the call
                "from megatron.training import pretrain\n\nKWARGS = {}\npretrain(None, None, **KWARGS)\n"
            ),
            "run.sh": (
                "python tools/server.py --port 5000 --temperature 0.7\npython pretrain_gpt.py --lr 1 --quant-cfg fp8\n"
                "python pretrain_bert.py --lr 1 --bert-binary-head\npython pretrain_t5.py --lr 1 --encoder-seq-length 512\n"
            ),
        }
    ),
    Example(  # what `read` does not take from its heredoc: the lines after the first (no `-d ''`); a file's (the last of its inputs), another descriptor's
        {
            "pkg/__init__.py": "",
            "pkg/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.add_argument('--local_rank')\np.parse_args()\n",
            "run.sh": (
                "read -r cmd <<EOF\npkg.train --lr 1\n--lrr 2\nEOF\ndeepspeed --module $cmd\n"
                "read -r -d '' cmd <<EOF < args.txt\npkg.train --lrr 2\nEOF\ndeepspeed --module $cmd\n"
                "read -r -u 3 -d '' cmd <<EOF\npkg.train --lrr 2\nEOF\ndeepspeed --module $cmd\n"
                "read -r mod args <<< 'pkg.train --lr 1 --lrr 4'\ndeepspeed --module $mod\n"
                "IFS=, read -r mod args <<< 'pkg.train,--lrr 4'\ndeepspeed --module $mod $args\n"
            ),
        }
    ),
    Example(  # a flag made of what is no variable of a literal loop (a constant, a loop over a name, one assigned in
        # the loop, a format spec): the parser not known
        {
            "a.py": "import argparse\n\nNAME = 'x'\np = argparse.ArgumentParser()\np.add_argument(f'--{NAME}')\np.parse_args()\n",
            "b.py": "import argparse\n\np = argparse.ArgumentParser()\nfor name in NAMES:\n    p.add_argument(f'--{name}')\np.parse_args()\n",
            "c.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nfor name in ('a', 'b'):\n    name = name.upper()\n"
                "    p.add_argument(f'--{name}')\np.parse_args()\n"
            ),
            "d.py": "import argparse\n\np = argparse.ArgumentParser()\nfor i in (1, 2):\n    p.add_argument(f'--l{i:02d}')\np.parse_args()\n",
            "run.sh": "python a.py --y 1\npython b.py --y 1\npython c.py --a 1\npython d.py --l1 1\n",
        }
    ),
    Example(  # options added in a loop over parsers (`for p in (base_parser, parser):`): not read, the parser not known (storm)
        {
            "enhance.py": (
                "from argparse import ArgumentParser\nbase_parser = ArgumentParser(add_help=False)\nparser = ArgumentParser()\n"
                "for p in (base_parser, parser):\n    p.add_argument('--ckpt', required=True)\nargs = parser.parse_args()\n"
            ),
            "eval.sh": "python enhance.py --ckpt a.ckpt\n",
        }
    ),
    Example(  # a backquoted default (`${n:-`nvidia-smi -L | wc -l`}`): its words are nvidia-smi's, not the program's (devit)
        {
            "run.sh": 'n="${n:-`nvidia-smi -L | wc -l`}"\npython3 train.py --num-gpus $n\npython3 train.py --num-gpus ${m:-`nproc --all`}\n',
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--num-gpus')\np.parse_args()\n",
        }
    ),
    Example(  # trl's TrlParser: `--config` (its file's values), trl's configs and script arguments over every release
        {
            "grpo.py": (
                "from dataclasses import dataclass, field\n\nfrom trl import GRPOConfig, ModelConfig, ScriptArguments, TrlParser\n\n\n"
                "@dataclass\nclass GRPOScriptArguments(ScriptArguments):\n    reward_funcs: list = field(default_factory=list)\n\n\n"
                "parser = TrlParser((GRPOScriptArguments, GRPOConfig, ModelConfig))\n"
                "script_args, training_args, model_args = parser.parse_args_and_config()\n"
            ),
            "run.sh": "accelerate launch grpo.py --config c.yaml --num_generations 8 --vllm_device auto --lora_r 16 --reward_funcs a\n",
        }
    ),
    Example(  # python-fire's function: `--name`, `-name`, `--name-with-dashes`, `--noname`, a unique first letter;
        # not a function that returns a value (fire goes on with it), nor one with `**kwargs`
        {
            "finetune.py": (
                "import fire\n\n\ndef train(base_model: str = '', data_path: str = 'd.json', lora_r: int = 8, use_wandb: bool = False):\n"
                "    print(base_model, data_path, lora_r, use_wandb)\n\n\nif __name__ == '__main__':\n    fire.Fire(train)\n"
            ),
            "build.py": "import fire\n\n\ndef build(n=1):\n    return {'n': n}\n\n\nfire.Fire(build)\n",
            "any.py": "from fire import Fire\n\n\ndef main(lr=1, **extra):\n    print(lr, extra)\n\n\nFire(main)\n",
            "run.sh": (
                "python finetune.py --base_model llama -data-path d.json -lora_r 16 --nouse_wandb -b x data2.json\n"
                "python build.py --n 2 --keys\npython any.py --lr 2 --seed 3\n"
            ),
        }
    ),
    Example(  # a click group with `chain=True` runs its commands one after another: each takes its own options
        {
            "main.py": (
                "import click\n\n\n@click.group(chain=True)\n@click.option('--seed', type=int)\ndef main(seed):\n    pass\n\n\n"
                "@main.command('net')\n@click.option('--depth', type=int)\ndef net(depth):\n    pass\n\n\n"
                "@main.command('dataset')\n@click.argument('root')\n@click.option('--batch_size', type=int)\n"
                "def dataset(root, batch_size):\n    pass\n\n\nif __name__ == '__main__':\n    main()\n"
            ),
            "run.sh": "python main.py --seed 1 net --depth 3 dataset --batch_size 8 /data\n",
        }
    ),
    Example(  # `parse_args_into_dataclasses(args_file_flag="--args")`: its own parser takes the flag, not a prefix of a field's
        {
            "train.py": (
                "from dataclasses import dataclass\n\nfrom transformers import HfArgumentParser\n\n\n"
                "@dataclass\nclass Args:\n    model: str = 'gpt2'\n    args_dir: str = ''\n\n\n"
                "(args,) = HfArgumentParser(Args).parse_args_into_dataclasses(args_file_flag='--args')\n"
            ),
            "run.sh": "python train.py --args base.args --args run.args --model t5\n",
        }
    ),
    Example(  # flags the program takes out of sys.argv itself, before its parser sees the rest
        {
            "run.py": (
                "import argparse\nimport sys\n\nREMOTE = '--remote'\nif REMOTE in sys.argv[1:]:\n    sys.exit(0)\n"
                "if '--debug' in sys.argv:\n    sys.argv.remove('--debug')\n"
                "parser = argparse.ArgumentParser()\nparser.add_argument('--message')\nparser.parse_args()\n"
            ),
            "launch.sh": "python run.py --remote --message hi\npython run.py --debug --message hi\n",
        }
    ),
    Example(  # what the first of two parsers leaves goes to the second: the program takes both's options
        {
            "train.py": (
                "import argparse\n\nearly = argparse.ArgumentParser(add_help=False)\nearly.add_argument('--config')\n"
                "late = argparse.ArgumentParser()\nlate.add_argument('--lr')\n"
                "known, rest = early.parse_known_args()\nargs = late.parse_args(rest)\n"
            ),
            "run.sh": "python train.py --config a.yaml --lr 1\npython train.py --conf a.yaml --lr 1\n",
        }
    ),
    Example(  # a command set in each arm of an `if`, partly unknown: not known after it, neither arm's a guess
        {
            "a.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "b.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": (
                'if [ "$2" = a ]; then\n  CMD="python a.py --lr $1"\nelse\n  CMD="python b.py --bogus $1"\nfi\n$CMD\n'
            ),
        }
    ),
    Example(  # `colossalai run` (click) reads its own options after the script too, up to a `--`
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": (
                "colossalai run --hostfile ./hostfile --nproc_per_node=8 train.py --master_addr gpu7 --master_port 20024 \\\n"
                "    --lr 2e-4\ncolossalai run --nproc_per_node 8 train.py -- --lr 1\n"
            ),
        },
    ),
    Example(  # click's `help_option_names`, in a command's context settings or its group's
        {
            "cli.py": (
                "import click\n\n\n@click.group(context_settings=dict(help_option_names=['-h', '--help']))\ndef cli():\n"
                "    pass\n\n\n@cli.command()\n@click.option('--lr')\ndef train(lr):\n    pass\n\n\n"
                "if __name__ == '__main__':\n    cli()\n"
            ),
            "one.py": (
                "import click\n\n\n@click.command(context_settings={'help_option_names': ['-h']})\ndef main():\n    pass\n\n\n"
                "main()\n"
            ),
            "run.sh": "python cli.py -h\npython cli.py train -h\npython one.py -h\n",
        }
    ),
    Example(  # an imported module that parses only when run itself (`if __name__ == "__main__":`)
        {
            "config.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr', type=float)\n"
                "LR = 1.0\n\nif __name__ == '__main__':\n    print(parser.parse_args())\n"
            ),
            "train.py": "import sys\n\nfrom config import LR\n\nprint(sys.argv, LR)\n",
            "run.sh": "python train.py --epochs 3\n",
        }
    ),
    Example(  # an options class whose parser a method hands to what is not known: an instance made nowhere,
        # a method that is not the class's
        {
            "options.py": OPTIONS_BASE,
            "train.py": "from options import BaseOptions\n\nopt = BaseOptions().gather_options()\n",
            "other.py": (
                "import argparse\n\n\nclass Runner:\n    def parse(self):\n        parser = argparse.ArgumentParser()\n"
                "        self.add_model_args(parser)\n        return parser.parse_args()\n\n\nRunner().parse()\n"
            ),
            "eval_options.py": (
                "from options import BaseOptions\n\n\nclass EvalOptions(BaseOptions):\n    def parse(self):\n"
                "        self.parser.add_argument('--split')\n        return super().parse()\n"
            ),
            "eval.py": "from eval_options import EvalOptions\n\nopt = EvalOptions().parse()\n",
            "run.sh": "python train.py --dataroot d --name x\npython other.py --model x\npython eval.py --dataroot d --split val\n",
        }
    ),
    Example(  # only `accelerate launch` runs a program: `accelerate test` is accelerate's own check
        {
            "test": "#!/usr/bin/env python\nimport argparse\np = argparse.ArgumentParser()\np.parse_args()\n",
            "run.sh": "accelerate test --config_file acc.yaml\n",
        }
    ),
    Example(  # scripts/run.sh moves to the root first: the root's train.py runs, with `--lr`
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "scripts/train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--steps')\np.parse_args()\n",
            "scripts/run.sh": 'cd "$(dirname "$0")/.."\npython train.py --lr 1\n',
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: python train.py --steps 2\n"
                "        working-directory: scripts\n"
            ),
        }
    ),
    Example(  # the module's eval_args() and the imported main() both only in uncalled code: which runs is unknown
        {
            "lib.py": "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument('--lr')\n    p.parse_args()\n",
            "train.py": (
                "import argparse\n\nfrom lib import main\n\n\ndef eval_args():\n    q = argparse.ArgumentParser()\n"
                "    q.add_argument('--ckpt')\n    return q.parse_args()\n\n\ndef run():\n    main()\n"
            ),
            "run.sh": "python train.py --lr 1\npython train.py --ckpt c --bogus 2\n",
        }
    ),
    Example(  # an imported builder's parser with subcommands: their options are not this parser's
        {
            "opts.py": (
                "import argparse\n\n\ndef get_parser():\n    parser = argparse.ArgumentParser()\n"
                "    sub = parser.add_subparsers()\n    sub.add_parser('train').add_argument('--epochs')\n    return parser\n"
            ),
            "main.py": "from opts import get_parser\n\np = get_parser()\np.add_argument('--seed')\np.parse_args()\n",
            "run.sh": "python main.py train --epochs 3 --seed 1\n",
        }
    ),
    Example(  # an imported adder that only hands the parser to a helper, which hands it to code we cannot see
        {
            "opts.py": (
                "import extlib\n\n\ndef add_general(parser):\n    add_ext(parser)\n\n\n"
                "def add_ext(parser):\n    parser.add_argument('--seed')\n    extlib.register(parser)\n"
            ),
            "train.py": "import argparse\nfrom opts import add_general\n\np = argparse.ArgumentParser()\nadd_general(p)\np.parse_args()\n",
            "run.sh": "python train.py --seed 1 --ext_flag 2\n",
        }
    ),
    Example(  # star imports: a name none of them brings, a cycle, a package importing itself, a name bound here
        {
            "pkg/__init__.py": "from pkg import *\nfrom .a import *\n",
            "pkg/a.py": "from pkg.b import *\n\n\ndef add_lr(parser):\n    parser.add_argument('--lr')\n",
            "pkg/b.py": "from pkg.a import *\n",
            "train.py": "import argparse\nfrom torch import *\nfrom pkg import *\n\np = argparse.ArgumentParser()\nadd_model(p)\np.parse_args()\n",
            "cycle.py": "import argparse\nfrom pkg.b import *\n\np = argparse.ArgumentParser()\nadd_other(p)\np.parse_args()\n",
            "local.py": (
                "import argparse\nfrom pkg import *\n\n\ndef build(add_lr):\n    p = argparse.ArgumentParser()\n"
                "    add_lr(p)\n    return p.parse_args()\n\n\nbuild(lambda p: p.add_argument('--seed'))\n"
            ),
            "bound.py": (
                "import argparse\nfrom pkg import *\nfrom extlib import make_adder\n\nadd_lr = make_adder()\n"
                "p = argparse.ArgumentParser()\nadd_lr(p)\np.parse_args()\n"
            ),
            "run.sh": (
                "python train.py --model m\npython cycle.py --other 1\npython local.py --seed 1\npython bound.py --lr 1 --seed 2\n"
            ),
        }
    ),
    Example(  # an imported adder that hands the parser to its own helpers, or to one we cannot see
        {
            "opts.py": (
                "import extlib\n\n\ndef add_all(parser):\n    parser.add_argument('--lr')\n    _add_model(parser)\n\n\n"
                "def _add_model(parser):\n    parser.add_argument('--model')\n\n\n"
                "def add_ext(parser):\n    parser.add_argument('--seed')\n    extlib.register(parser)\n"
            ),
            "train.py": "import argparse\nfrom opts import add_all\n\np = argparse.ArgumentParser()\nadd_all(p)\np.parse_args()\n",
            "eval.py": "import argparse\nfrom opts import add_ext\n\np = argparse.ArgumentParser()\nadd_ext(p)\np.parse_args()\n",
            "run.sh": "python train.py --lr 1 --model m\npython eval.py --seed 1 --ext_flag 2\n",
        }
    ),
    Example(  # a quoted "$VAR" is one argument, however many spaces its value holds
        {
            "make_configs.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('--splice-indexes')\nparser.add_argument('dir')\nargs = parser.parse_args()\n"
            ),
            "train.sh": 'splice="-4,-3,-2  0  -2,2 0"\npython make_configs.py --splice-indexes "$splice" exp/configs\n',
        }
    ),
    Example(  # Megatron-style: every flag is defined (prefixes, `=`, --no-x); launcher options
        {
            "train.py": ARGPARSE_TRAIN,
            "pretrain.sh": (
                "#!/bin/bash\nGPUS=8\nDISTRIBUTED_ARGS=(\n    --nproc_per_node $GPUS\n    --nnodes 1\n"
                "    --master_addr localhost\n)\nMODEL_ARGS=(\n    --num-layers 24\n    --warmup 500\n)\n"
                'OPTIM_ARGS="--lr=1e-4 --no-compile"\n'
                'torchrun ${DISTRIBUTED_ARGS[@]} train.py \\\n    "${MODEL_ARGS[@]}" \\\n    $OPTIM_ARGS\n'
            ),
        }
    ),
    Example(  # what a parser's known parse left, handed on and not parsed strictly: unknown flags get through
        {
            "train.py": (
                "import argparse\nimport sys\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr')\n"
                "args, rest = parser.parse_known_args()\nparser.add_argument('--seed')\nsys.argv[1:] = rest\n"
            ),
            "run.sh": "python train.py --lr 1 --anything 2\n",
        }
    ),
    Example(  # parse_known_args lets unknown flags through, where the other parse is another function's
        {
            "train.py": (
                "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr')\n"
                "args, rest = parser.parse_known_args()\n\n\ndef strict():\n    return parser.parse_args()\n"
            ),
            "run.sh": "python train.py --lr 1 --anything 2\n",
        }
    ),
    Example(  # pass-through and unknown values are never flagged
        {
            "train.py": ARGPARSE_TRAIN,
            "run.sh": 'python train.py "$@"\npython train.py $EXTRA_ARGS --lr "$LR"\npython train.py "${UNSET[@]}"\n',
        }
    ),
    Example(  # a function's arguments that may be other words than the call's, or no program's: not judged
        {
            "train.py": ARGPARSE_TRAIN,
            "run.sh": (
                '#!/bin/bash\nsay() { echo "$@"; }\nsay python train.py --bogus 1\n'
                'both() { echo "running $*"; python train.py "$@"; }\nboth --bogus 2\n'
                'tagged() { python train.py "--lr $@"; }\ntagged --bogus 3\n'
                'some() { shift "$N"; python train.py "$@"; }\nsome x --bogus 4\n'
                'remote() { ssh gpu1 python train.py "$@"; }\nremote --bogus 5\n'
                'shell() { bash -c "$@"; }\nshell python train.py --bogus 6\n'
                'later() { python train.py "$@"; cd -; }\nlater --bogus 7\n'
            ),
        }
    ),
    Example(  # a script's arguments that are not the caller's words as written, an arm they decide, a caller's words not known
        {
            "train.py": ARGPARSE_TRAIN,
            "opts.sh": '#!/bin/bash\nwhile getopts "g:" o; do case $o in g) G=$OPTARG;; esac; done\npython train.py "$@"\n',
            "loop.sh": (
                '#!/bin/bash\nwhile [[ $# -gt 0 ]]; do\n  case $1 in\n    --gpus) G=$2; shift 2;;\n    *) break;;\n  esac\ndone\n'
                'python train.py "$@"\n'
            ),
            "branch.sh": '#!/bin/bash\nif [ "$1" = x ]; then shift; fi\npython train.py "$@"\n',
            "moved.sh": '#!/bin/bash\nshift $N\npython train.py "$@"\n',
            "joined.sh": '#!/bin/bash\nARGS="$@"\npython train.py "$*"\npython train.py "$ARGS"\n',
            "each.sh": '#!/bin/bash\nfor s in 1 2; do python train.py --lr $s "$@"; done\nf() { python train.py "$@"; }\nf --lr 1\n',
            "arm.sh": (
                '#!/bin/bash\nMODE=${1:-train}\nif [ "$MODE" = eval ]; then python train.py --lr 0 "$@"; fi\n'
                'case $1 in x) python train.py "$@";; esac\n[ $# -gt 2 ] && python train.py "$@"\n'
            ),
            "run.sh": '#!/bin/bash\npython train.py "$@"\n',
            "go.sh": (
                "#!/bin/bash\nbash opts.sh -g 2 --lr 1\nbash loop.sh --gpus 2 --lr 1\nbash branch.sh x --lr 1\nbash moved.sh a --lr 1\n"
                "bash joined.sh --bogus 1\nbash each.sh --bogus 1\nbash run.sh $EXTRA\nbash run.sh \"$@\"\nbash arm.sh x --bogus 1\n"
                "bash run.sh --lr 1 --compile\nsource run.sh\n"
            ),
        }
    ),
    Example(  # the parser comes from a helper and from `parents=`; an imported get_args
        {
            "common.py": (
                "import argparse\n\n\ndef base():\n    p = argparse.ArgumentParser(add_help=False)\n"
                "    p.add_argument('--seed', type=int)\n    p.add_argument('--local_rank', type=int)\n    one = p.add_mutually_exclusive_group()\n"
                "    one.add_argument('--bf16', action='store_true')\n    return p\n\n\n"
                "def add_data(parser):\n    group = parser.add_argument_group('data')\n"
                "    group.add_argument('--data-path')\n    return parser\n\n\n"
                "def get_args():\n    parser = argparse.ArgumentParser(parents=[base()])\n"
                "    parser = add_data(parser)\n    return parser.parse_args()\n"
            ),
            "train.py": "from common import get_args\n\nargs = get_args()\n",
            "run.sh": "deepspeed --num_gpus 2 train.py --seed 1 --bf16 --data-path /data --help\n",
        }
    ),
    Example(  # options copied from other parsers through argparse's private `_add_action` (VACE's pipeline)
        {
            "stage.py": "import argparse\n\n\ndef get_parser():\n    p = argparse.ArgumentParser()\n    p.add_argument('--prompt')\n    return p\n",
            "gen.py": (
                "import argparse\nimport importlib\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--seed')\n"
                "for action in importlib.import_module('stage').get_parser()._actions:\n    parser._add_action(action)\n"
                "parser.parse_args()\n"
            ),
            "run.sh": "python gen.py --seed 1 --prompt x\n",
        }
    ),
    Example(  # a parent parser another module of the project builds
        {
            "common.py": "import argparse\n\n\ndef make_parser():\n    p = argparse.ArgumentParser(add_help=False)\n    p.add_argument('--width')\n    return p\n",
            "submit.py": (
                "import argparse\n\nfrom common import make_parser\n\n"
                "parser = argparse.ArgumentParser(parents=[make_parser()])\nparser.add_argument('--nodes')\nparser.parse_args()\n"
            ),
            "run.sh": "python submit.py --nodes 2 --width 480\n",
        }
    ),
    Example(  # its own parser, handed to an imported helper that parses it: not that module's other parser
        {
            "common.py": (
                "import argparse\n\n\ndef add_common(parser):\n    parser.add_argument('--lr')\n    return parser.parse_args()\n\n\n"
                "def main():\n    print(add_common(argparse.ArgumentParser()))\n"
            ),
            "evaluate.py": (
                "import argparse\n\nfrom common import add_common\n\n\ndef build():\n    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--tasks', nargs='+')\n    return add_common(parser)\n\n\nbuild()\n"
            ),
            "run.sh": "python evaluate.py --tasks a b --lr 0.2\n",
        }
    ),
    Example(  # allow_abbrev=False, then set back to True as an attribute: prefixes are accepted
        {
            "train.py": (
                "import argparse\n\np = argparse.ArgumentParser(allow_abbrev=False)\np.allow_abbrev = True\n"
                "p.add_argument('--learning_rate')\np.parse_args()\n"
            ),
            "run.sh": "#!/bin/bash\npython train.py --learn 1\n",
        }
    ),
    Example(  # a directory above the root is no project directory: a checkout next to the project's
        {
            "train.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": '#!/bin/bash\nHERE=$(cd "$(dirname "$0")" && pwd)\npython "$(dirname "$HERE")/train.py" --other 1\n',
            "tools/run.sh": "#!/bin/bash\nhere=$(cd `dirname $0`; pwd)\npython $(dirname $(dirname $here))/train.py --other 2\n",
        }
    ),
    Example(  # `proj/` is another repository's checkout: its `tools/x.py` is not the project's
        {
            "tools/x.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            ".github/workflows/ci.yml": (
                "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n"
                "        with:\n          repository: org/other\n          path: proj\n"
                "      - run: python proj/tools/x.py --bogus 2\n"
            ),
        }
    ),
    Example(  # `python other/app` names no directory of the project: its namesake's `__main__.py` is not read
        {
            "app/__main__.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n",
            "run.sh": "#!/bin/bash\npython other/app --bogus 1\n",
        }
    ),
    Example(  # an absolute path whose directory is not the namesake's: a mounted `utils/`, another machine's `tools/`
        {
            "bench_b/convert.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--threshold')\np.parse_args()\n",
            "bench_a/utils/launch.sh": (
                '#!/bin/bash\nhere=$(dirname -- "${BASH_SOURCE[0]}")\n'
                'srun --container-image=img --container-mounts "${here}:/workspace/utils" \\\n'
                "  python3 /workspace/utils/convert.py --source /in --destination /out\n"
            ),
            "tools/run.sh": "#!/bin/bash\npython3 /opt/app/tools/convert.py --source /in\n",
        }
    ),
    Example(  # on another host, after a `cd` to another checkout there: its `launch.py` runs, not the project's `tool/launch.py`
        {
            "tool/launch.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--nstages')\np.parse_args()\n",
            "run.sh": (
                '#!/bin/bash\nssh gpu1 "cd /opt/other_checkout; python3 launch.py --node_rank 0"\n'
                'ssh gpu2 "cd $REMOTE_DIR && python3 launch.py --node_rank 1"\n'
                "docker exec c1 bash -c 'cd ~/old && python3 launch.py --node_rank 2'\n"
            ),
        }
    ),
    Example(  # here too, after a static absolute `cd` (or into another home's directory), until the shell is back:
        # another checkout's `launch.py` runs, not the project's `tool/launch.py`; a module, after one not known on another host
        {
            "tool/launch.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--nstages')\np.parse_args()\n",
            "run.sh": (
                "#!/bin/bash\ncd /opt/other_checkout; python3 launch.py --node_rank 0\n"
                "cd /opt/other_checkout && python3 launch.py --node_rank 1\n"
                "(cd /opt/x && python3 launch.py --node_rank 2)\n"
                "pushd /opt/x && python3 launch.py --node_rank 3\n"
                "cd /opt/x && cd sub && python3 launch.py --node_rank 4\n"
                "cd ~/old && python3 launch.py --node_rank 5\n"
                'ssh gpu1 "cd $REMOTE_DIR && python3 -m tool.launch --node_rank 6"\n'
            ),
        }
    ),
    Example(  # two copies of transformers in the project (AdaLoRA's): which one the program imports is not known
        {
            "nlu/src/transformers/__init__.py": "from .training_args import TrainingArguments\n",
            "nlu/src/transformers/training_args.py": (
                "from dataclasses import dataclass\n\n\n@dataclass\nclass TrainingArguments:\n    root_output_dir: str = ''\n"
            ),
            "qa/src/transformers/__init__.py": "from .training_args import TrainingArguments\n",
            "qa/src/transformers/training_args.py": (
                "from dataclasses import dataclass\n\n\n@dataclass\nclass TrainingArguments:\n    root_output_dir: str = ''\n"
            ),
            "nlu/run_glue.py": (
                "from transformers import HfArgumentParser, TrainingArguments\n\n"
                "(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n"
            ),
            "nlu/run.sh": "python run_glue.py --root_output_dir out\n",
        }
    ),
    Example(  # a copy of transformers in the project: its TrainingArguments' own fields, not the table's
        {
            "transformers/__init__.py": "from .training_args import TrainingArguments\n",
            "transformers/training_args.py": (
                "from dataclasses import dataclass\n\n\n@dataclass\nclass TrainingArguments:\n    shards: int = 1\n"
            ),
            "train.py": (
                "from transformers import HfArgumentParser, TrainingArguments\n\n"
                "(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n"
            ),
            "run.sh": "python train.py --shards 2\n",
        }
    ),
    Example(  # transformers' TrainingArguments: a field of any release (`--evaluate_during_training`,
        # gone in 4.0), dashed, `--no_` of a switch that defaults to True; a parser handed to a
        # library; a program with no parser
        {
            "run_clm.py": (
                "from dataclasses import dataclass\nfrom transformers import HfArgumentParser, TrainingArguments\n\n\n"
                "@dataclass\nclass ModelArguments:\n    model: str = 'gpt2'\n\n\n"
                "parser = HfArgumentParser((ModelArguments, TrainingArguments))\n"
                "model_args, training_args = parser.parse_args_into_dataclasses()\n"
            ),
            "ds_train.py": (
                "import argparse\nimport deepspeed\n\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('--epochs', type=int)\nparser.add_argument('--local_rank', type=int)\nparser = deepspeed.add_config_arguments(parser)\n"
                "args = parser.parse_args()\n"
            ),
            "finetune.py": (
                "from dataclasses import dataclass\nfrom transformers import HfArgumentParser, TrainingArguments\n\n\n"
                "@dataclass\nclass TrainingArguments(TrainingArguments):\n    lora_rank: int = 8\n\n\n"
                "(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n"
            ),
            "main_ppo.py": "import hydra\n\n\n@hydra.main(config_path='config')\ndef main(cfg):\n    pass\n",
            "run.sh": (
                "python run_clm.py --model gpt2 --output_dir out --evaluate_during_training --fp16 --lr_scheduler cosine\n"
                "deepspeed ds_train.py --epochs 1 --deepspeed --deepspeed_config ds.json\n"
                "python main_ppo.py --config-name ppo trainer.n_gpus=8\n"
                "python finetune.py --lora_rank 4 --learning_rate 1e-4 --per-device-train-batch-size 2 --no_remove_unused_columns\n"
            ),
        }
    ),
    Example(  # the words after an option with argparse's REMAINDER are its value; a positional one's, from the first positional on
        {
            "train.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--launcher')\n"
                "p.add_argument('--set', dest='set_cfgs', nargs=argparse.REMAINDER)\np.parse_args()\n"
            ),
            "run.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--launcher')\np.add_argument('script')\n"
                "p.add_argument('rest', nargs='...')\np.parse_args()\n"
            ),
            "run.sh": (
                "python train.py --launcher pytorch --set A 1 --bogus 2\npython train.py --se --fp16\npython run.py s.py --bogus 1\n"
                "python run.py --launcher x s.py --bogus 1\n"
            ),
        }
    ),
    Example(  # `add_argument` handed away (`functools.partial`) or kept on `self`: what is added through it is not known
        {
            "a.py": (
                "import argparse\nimport functools\n\np = argparse.ArgumentParser()\n"
                "add_int = functools.partial(p.add_argument, type=int)\nadd_int('--epochs')\np.parse_args()\n"
            ),
            "b.py": (
                "import argparse\n\n\nclass Options:\n    def __init__(self):\n        self.parser = argparse.ArgumentParser()\n"
                "        self.add = self.parser.add_argument\n\n    def parse(self):\n        return self.parser.parse_args()\n\n\n"
                "Options().parse()\n"
            ),
            "run.sh": "python a.py --epochs 1\npython b.py --lr 1\n",
        }
    ),
    Example(  # a vendored copy's workflow runs in its own checkout, and its recipes from its root (a setup.py there):
        # `tools/prep.py` is the copy's, not the outer project's older namesake (verl-tool's verl/)
        {
            "tools/prep.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out')\np.parse_args()\n",
            "vendor/setup.py": "",
            "vendor/tools/prep.py": (
                "import argparse\np = argparse.ArgumentParser()\np.add_argument('--out')\np.add_argument('--src')\np.parse_args()\n"
            ),
            "vendor/recipe/x/run.sh": "python tools/prep.py --src data --out out\n",
            "ci/tools/prep.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--src')\np.parse_args()\n",
            "ci/.github/workflows/ci.yml": (
                "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: python tools/prep.py --src data\n"
            ),
        }
    ),
    Example(  # a lambda that adds otherwise, or `add_argument` replaced: what is added through them is not known
        {
            "a.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nadd = lambda name: p.add_argument('--' + name)\n"
                "add('lr')\np.parse_args()\n"
            ),
            "b.py": (
                "import argparse\n\np = argparse.ArgumentParser()\nold = p.add_argument\n"
                "p.add_argument = lambda *a, **k: old(*[f.replace('--', '--model-') for f in a], **k)\n"
                "p.add_argument('--lr')\np.parse_args()\n"
            ),
            "run.sh": "python a.py --lr 1\npython b.py --model-lr 1\n",
        }
    ),
    Example(  # ParamGroup subclasses whose options are not all known: an attribute set to what is no literal, or
        # in an `if`; two attributes of one letter (`-s` twice: argparse raises at start-up), or `-h`; a loop that
        # adds otherwise (`nargs='+'` for a list)
        {
            "arguments/__init__.py": GS_PARAM_GROUP + (
                "class Computed(ParamGroup):\n    def __init__(self, parser):\n        self.iterations = 30_000\n"
                "        self.device = 'cuda' if FAST else 'cpu'\n        super().__init__(parser, 'c')\n\n\n"
                "class Branched(ParamGroup):\n    def __init__(self, parser):\n        self.iterations = 30_000\n"
                "        if FAST:\n            self.fast = True\n        super().__init__(parser, 'b')\n\n\n"
                "class Twice(ParamGroup):\n    def __init__(self, parser):\n        self._source_path = ''\n"
                "        self._scale = 1.0\n        super().__init__(parser, 't')\n\n\n"
                "class Helped(ParamGroup):\n    def __init__(self, parser):\n        self._height = 1\n"
                "        super().__init__(parser, 'h')\n"
            ),
            "listed.py": (
                "from argparse import ArgumentParser\n\n\nclass Group:\n    def __init__(self, parser):\n"
                "        for key, value in vars(self).items():\n            if type(value) == list:\n"
                "                parser.add_argument('--' + key, nargs='+')\n            else:\n"
                "                parser.add_argument('--' + key)\n\n\nclass Grid(Group):\n    def __init__(self, parser):\n"
                "        self.multires = [1, 2]\n        super().__init__(parser)\n\n\n"
                "parser = ArgumentParser()\nGrid(parser)\nparser.parse_args()\n"
            ),
            "a.py": "from argparse import ArgumentParser\nfrom arguments import Computed\n\np = ArgumentParser()\nComputed(p)\np.parse_args()\n",
            "b.py": "from argparse import ArgumentParser\nfrom arguments import Branched\n\np = ArgumentParser()\nBranched(p)\np.parse_args()\n",
            "c.py": "from argparse import ArgumentParser\nfrom arguments import Twice\n\np = ArgumentParser()\nTwice(p)\np.parse_args()\n",
            "d.py": "from argparse import ArgumentParser\nfrom arguments import Helped\n\np = ArgumentParser()\nHelped(p)\np.parse_args()\n",
            "run.sh": (
                "python a.py --iteratons 1\npython b.py --iteratons 1\npython c.py --bogus 1\npython d.py --bogus 1\n"
                "python listed.py --multires 1 2 --bogus 1\n"
            ),
        }
    ),
    Example(  # a helper imported in an if's arms from two modules that add different options: either may add them
        {
            "a.py": "def add_args(parser):\n    parser.add_argument('--alpha')\n",
            "b.py": "def add_args(parser):\n    parser.add_argument('--beta')\n",
            "main.py": (
                "import argparse\nimport sys\n\np = argparse.ArgumentParser()\nif 'a' in sys.argv:\n    from a import add_args\n"
                "else:\n    from b import add_args\nadd_args(p)\np.parse_args()\n"
            ),
            "run.sh": "python main.py --alpha 1\npython main.py --beta 1\n",
        }
    ),
]


def check(project) -> list[Finding]:
    found: list[tuple[Word, Finding]] = []  # each unknown flag, with the word that holds it
    changes = cache(partial(directory_changes, project))  # each launcher's `cd`s, read when asked
    for invocation in project.graph.invocations:
        program = launched(project, invocation)
        if program is None or not program.checks_flags:
            continue
        # A word one time round a loop is its value there (`--y=1` of `--y=$a`), located at the
        # loop's word of it: a flag the command's own word spells out is that word's, one finding.
        written = dict(zip(map(id, invocation.run.words), invocation.command.words)) if invocation.looped else {}
        added = flags_added(invocation.command)  # `deepspeed train.py`: `--local_rank=N` comes first
        if added and not program.argv_skip and not program.commands and all(program.option(f) is None for f in added):
            found.append((invocation.target, _appended(project, invocation, program)))
        judged = _read(project, invocation, program, invocation.args, written, changes)
        found += judged
        script = project.shell.get(invocation.caller)
        if script is not None and script.arm_values:  # `$EXTRA` of an if whose arms set it: each arm's value
            found += _in_each_arm(project, invocation, program, judged, written, changes)
        if script is not None and script.arguments:
            found += _passed_on(project, invocation, program, changes)
    return once_per_word(project, found, "passed here too, from the same variable's value", flag=True)


def _in_each_arm(project, invocation, program, judged, written: dict[int, Word], changes) -> list[tuple[Word, Finding]]:
    """The launch as each way through an if/case before it runs it, where it passes a variable the
    statement sets to a static string in each arm (`python train.py $EXTRA`: `ShellScript.arm_variants`).
    A word of the value is reported at the arm's assignment; one of the command's own that only a
    way makes wrong (`python main.py $MODE --lr 1` with `MODE=""`: no subcommand), at the command,
    where the value was set related."""
    own = {id(w) for w in invocation.args}
    said = {(id(word), finding.message) for word, finding in judged}
    found = []
    for way in project.shell[invocation.caller].arm_variants(invocation.command, invocation.args)[0]:
        value = "as set here" if way.set_at != way.statement else "where no arm here runs"
        for word, finding in _read(project, invocation, program, way.words, written, changes):
            if id(word) in own and (id(word), finding.message) not in said:
                finding = finding._replace(
                    related=(*finding.related, Related(way.set_at, f"with `{way.expansion}` {value}"))
                )
            found.append((word, finding))
    return found


def _read(
    project, invocation, program, args: list[Word], written: dict[int, Word], changes
) -> list[tuple[Word, Finding]]:
    """The unknown flags and left-over words of the launch with its arguments `args`, each with the
    word that holds it (`written`: a loop's value's word as the command writes it)."""
    reading = read_launch(program, args)
    unknowns = [u for u in reading.unknown if u.program.checks_flags]
    if unknowns and fits_none(project, invocation, reading):
        return []  # a namesake elsewhere that takes none of its flags: not the program meant
    for unknown in unknowns:
        word = written.get(id(unknown.word))
        if word is not None and unknown.spelled_in(word) is not None:
            unknown.word = word
    found = []
    meant = meant_before_cd(project, invocation, reading, changes) if unknowns else None
    if meant is not None and meant.whole:  # `cd sub`, then `python train.py -s d`: the root's train.py takes them all
        found.append((invocation.target, _run_elsewhere(project, invocation, unknowns, meant)))
    else:
        found += ((u.word, _finding(project, shown(project, invocation), u, meant)) for u in unknowns)
    if reading.extra and not reading.asks_for_help:  # `-h` exits 0 before argparse looks for words left over
        found += (
            (e.word, _extra(project, shown(project, invocation), e)) for e in reading.extra if e.program.checks_flags
        )
    return found


def _passed_on(project, invocation, program, changes) -> list[tuple[Word, Finding]]:
    """The flags each script that runs the launch's script passes to the program through the
    script's own arguments (`python train.py "$@"` in run.sh, `bash run.sh --lr 1`:
    `launches.run_with`), reported at the caller's word, with the script's `"$@"` as related."""
    at = passes_on(project, invocation)
    if at is None:
        return []
    path = invocation.caller
    found = []
    own = {id(w) for w in invocation.args}
    name = shown(project, invocation)
    for caller in project.graph.callers(path):
        words = run_with(project, invocation, caller)
        if words is None:
            continue
        reading = read_launch(program, words)
        unknowns = [u for u in reading.unknown if u.program.checks_flags and id(u.word) not in own and u.word.location.path != path]
        if not unknowns or fits_none(project, invocation, reading):
            continue
        meant = meant_before_cd(project, invocation, reading, changes)
        meant = meant if meant is not None and not meant.whole else None
        passes = Related(at.location, f"{path} passes its arguments to {name} here")
        for unknown in unknowns:
            finding = _finding(project, name, unknown, meant, path)
            found.append((unknown.word, finding._replace(related=(*finding.related, passes))))
    return found


def _exits(parser) -> str:
    """What the program does with an unknown flag: click's and argparse's exit at start-up (an
    HfArgumentParser's `parse_args_into_dataclasses` raises a ValueError for what argparse
    leaves); python-fire calls the function without it, and only then stops on the flag it could
    not give to anything."""
    if parser.kind == "fire":
        return "fire runs it without the flag, then exits with 'Could not consume arguments'"
    if parser.kind in ("click", "typer"):
        error = "No such option"
    else:  # the end of HF's "Some specified arguments are not used by the HfArgumentParser: [...]"
        error = "not used by the HfArgumentParser" if parser.kind == "hf" else "unrecognized arguments"
    return f"it exits at start-up with '{error}'"


# Words that say a truth: `--fp16 False` to a store_true switch asks for what it is without the switch
TRUTHS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}


def _extra(project, program_word: str, extra: ExtraWord) -> Finding:
    """A word argparse leaves over in a parser that takes no positional (`programs.ExtraWord`):
    given to a switch, at the word, whose removal is the fix, or the switch's too where the word
    asks for the truth the switch does not set (`--fp16 False` of a store_true); written after an
    option's values (`--seed 1 2`); or a value written on a switch (`--fp16=True`)."""
    value, switch, program, option = extra.word.value, extra.switch, extra.program, extra.option
    name = program_word + (f" {program.parser.subcommand}" if program.parser.subcommand else "")
    if extra.attached:
        value = value.partition("=")[2]
    sets = {"store_true": True, "store_false": False}.get(option.action)
    asked = TRUTHS.get(value.lower())
    unasked = sets is not None and asked is not None and asked != sets
    if extra.attached:
        fix = f"remove `{extra.word.value}`" if unasked else f"write `{switch}` alone"
        message = (
            f"`{switch}` of {name} is a switch, which takes no value: it exits at start-up with "
            f"'ignored explicit argument {value!r}'; {fix}"
        )
    elif option.action in VALUELESS:
        fix = f"remove `{switch} {value}`" if unasked else f"remove `{value}`"
        message = (
            f"`{value}` is not an argument of {name} (`{switch}` takes no value, and no positional is defined): "
            f"{_exits(program.parser)}; {fix}"
        )
    else:
        count = whole(option.nargs or "1")
        takes = "one value" if count == 1 else f"{count} values"
        message = (
            f"`{value}` is not an argument of {name} (`{switch}` takes {takes}, and no positional is defined): "
            f"{_exits(program.parser)}; remove `{value}`, or let `{switch}` take more (`nargs`)"
        )
    kind = f"a `{option.action}` switch" if option.action in VALUELESS else f"taking {takes}"
    related = Related(option.location, f"`{switch}` is defined here, {kind}")
    return Finding(extra.word.location, message, (related,))


def _appended(project, invocation, program) -> Finding:
    """A launcher that appends the local rank to its program's arguments (`launches.flags_added`),
    which the program's parser does not define under either spelling."""
    name = shown(project, invocation)
    run = python_run(invocation.command)
    if run is None:  # `deepspeed train.py`
        launcher, flag, fix = "`deepspeed`", "--local_rank", "add it to the parser, or pass `--no_local_rank` to deepspeed"
    else:  # `python -m torch.distributed.launch` (ATorch's fork when told `--not_use_env`): `--local_rank` before torch 2.0
        launcher, flag, fix = f"`python -m {run.target.value}`", "--local-rank", "use `torchrun`, or add it to the parser"
    message = f"{launcher} passes `{flag}=N` to {name}, which does not define it: {_exits(program.parser)}; {fix}"
    related = Related(program.location, f"the parser of {name}, with neither `--local-rank` nor `--local_rank`")
    return Finding(invocation.target.location, message, (related,))


def _run_elsewhere(project, invocation, unknowns: list[UnknownFlag], meant: Meant) -> Finding:
    """One finding for a launch that a `cd` runs away from the program its path names from
    where the launcher started, which takes its whole command line (`programs.meant_before_cd`):
    at the program's word, its fix that program's path."""
    flags = list(dict.fromkeys(u.flag for u in unknowns))
    are, them = ("is not an option", "it") if len(flags) == 1 else ("are not options", "them")
    exits = _exits(unknowns[0].program.parser)
    name = shown(project, invocation)
    message = (
        f"{listed([f'`{f}`' for f in flags])} {are} of {name} (the launcher cds into {meant.directory}/): "
        f"{exits}; `{meant.path}` defines {them}: use that path"
    )
    related = [Related(u.located(project), f"`{u.flag}` is passed here") for u in unknowns]
    related += [Related(unknowns[0].program.location, f"the parser of {name}")]
    related += [Related(meant.program.location, f"the parser of {meant.file}, which defines {them}")]
    return Finding(invocation.target.location, message, tuple(dict.fromkeys(related)))


def _finding(project, program_word: str, unknown: UnknownFlag, meant: Meant | None = None, via: str = "") -> Finding:
    """What the flag is to the program, what argparse (click) says at start-up, and the fix last.
    After a `cd` that may have taken the launch away from the program meant (`meant`, whose
    options are not all known), the message says where the launcher cds, and the fix offers that
    program's path. A flag passed through the script `via`'s own arguments says so."""
    program = unknown.program
    name = program_word + (f" {program.parser.subcommand}" if program.parser.subcommand else "")
    passed = f" (which {via} runs with its arguments)" if via else ""  # `bash run.sh --bogus`: its `python train.py "$@"`
    click = program.parser.kind in ("click", "typer")
    moved, instead = (f" (the launcher cds into {meant.directory}/)", (f"use `{meant.path}`",)) if meant else ("", ())
    add = "add a parameter of that name" if program.parser.kind == "fire" else "add it to the parser"
    fix = either("remove it", add, *instead)
    if unknown.ambiguous:
        matches = program.prefixed(unknown.flag)
        message = (
            f"`{unknown.flag}` is ambiguous for {name}{passed} ({', '.join(f'`{m}`' for m in matches)}): "
            "it exits at start-up with 'ambiguous option'; write the option in full"
        )
        related = Related(program.flags[matches[0]].location, f"`{matches[0]}` is defined here")
    elif unknown.clustered:  # `-vq`: `-v`, then `-q`
        error = "No such option" if click else "ignored explicit argument"
        message = (
            f"`{unknown.flag}` (in `{unknown.word.value}`, after a switch) is not an option of {name}{passed}{moved}: "
            f"it exits at start-up with '{error}'; {fix}"
        )
        related = Related(program.location, f"the parser of {name}")
    else:
        closest = unknown.meant
        if closest is not None:
            fix = either(f"fix it (did you mean `{closest}`?)", add, *instead)
        message = f"`{unknown.flag}` is not an option of {name}{passed}{moved}: {_exits(program.parser)}; {fix}"
        if closest is None:
            parser = program.parser
            said = f"`{parser.name}`, the function fire runs" if parser.kind == "fire" else f"the parser of {name}"
            related = Related(program.location, said)
        else:
            related = Related(program.flags[closest].location, f"`{closest}` is defined here")
    others = (Related(meant.program.location, f"the parser of {meant.file}"),) if moved else ()
    return Finding(unknown.located(project), message, (related, *others))
