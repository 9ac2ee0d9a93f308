"""Commands that run other commands: `ssh host CMD`, `tmux new-session -d CMD`, `nohup CMD`, ...

Two shapes. An *argv wrapper* (`nohup`, `timeout 5`, `pct exec 200 --`, `docker exec c`) runs
the rest of its words as a command. A *string wrapper* (`bash -c STR`, `ssh host STR`,
`tmux new-session -d STR`, `eval STR`) hands a string to a new shell, which we parse again.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Collection

from ..graph import EXPANSION, INTERACTIVE, LONG_RUNNING, bsub_script, is_python, job_operands, value_part
from ..lazyre import lazy
from ..model import LineIndex, Location, Record
from ..shellfacts import DETACHED, FILE, NULL, SUBMITTED, Command, Sink, Word, Wrapper, shell_args

SHELLS = {"bash", "sh", "zsh", "dash", "ksh"}


class Spec(Record):
    """How to find the wrapped command among a wrapper's words."""

    valued: frozenset[str] = frozenset()  # options that take the next word as their value
    positional: int = 0  # words to skip after the options (timeout's DURATION, ssh's host)
    dashdash: bool = False  # the command follows `--` when present


def _words(text: str) -> frozenset[str]:
    """The set of a space-separated list of options (the long lists stay readable)."""
    return frozenset(text.split())


def _spec(valued: str = "", positional: int = 0, dashdash: bool = False) -> Spec:
    return Spec(_words(valued), positional, dashdash)


# srun's options that take the next word as their value (Slurm 24's srun(1); the older
# `--cpu_bind`, `--mem_bind`, `--checkpoint` too). Those whose value is optional
# (`--kill-on-bad-exit[=0|1]`, `--nice[=adj]`, `--exclusive[=user]`, `--immediate[=secs]`, ...)
# take one only after `=`: the next word is the command.
SRUN_VALUED = (
    "-A -B -C -D -G -J -L -M -N -S -T -W -c -d -e -i -m -n -o -p -q -r -t -w -x "
    "--account --acctg-freq --accel-bind --bb --bbf --begin --bcast-exclude --chdir --checkpoint "
    "--checkpoint-dir --cluster-constraint --clusters --comment --constraint --container "
    "--container-id --context --core-spec --cores-per-socket --cpu-bind --cpu_bind --cpu-freq "
    "--cpus-per-gpu --cpus-per-task --deadline --delay-boot --dependency --distribution --epilog "
    "--error --exclude --export --extra --extra-node-info --gid --gpu-bind --gpu-freq --gpus "
    "--gpus-per-node --gpus-per-socket --gpus-per-task --gres --gres-flags --het-group --hint "
    "--input --job-name --jobid --licenses --mail-type --mail-user --mcs-label --mem --mem-bind "
    "--mem_bind --mem-per-cpu --mem-per-gpu --mincpus --mpi --network --nodefile --nodelist "
    "--nodes --ntasks --ntasks-per-core --ntasks-per-gpu --ntasks-per-node --ntasks-per-socket "
    "--open-mode --output --partition --power --prefer --priority --profile --prolog --qos --relative --reservation "
    "--segment --signal --slurmd-debug --sockets-per-node --switches --task-epilog --task-prolog "
    "--thread-spec --threads --threads-per-core --time --time-min --tmp --tres-bind "
    "--tres-per-task --uid --wait --wckey "
    # NVIDIA pyxis, the SPANK plugin that runs the command in a container
    "--container-image --container-mounts --container-workdir --container-name --container-save "
    "--container-env --container-image-save"
)
ARGV_WRAPPERS = {
    "nohup": _spec(),
    "setsid": _spec(),
    "time": _spec("-f -o --format --output"),
    "nice": _spec("-n --adjustment"),
    "ionice": _spec("-c -n -p -P -u --class --classdata --pid --pgid --uid"),
    "timeout": _spec("-s -k --signal --kill-after", positional=1),
    "stdbuf": _spec("-i -o -e --input --output --error"),
    "sudo": _spec(
        "-u -g -C -D -h -p -r -t -U --user --group --close-from --chdir --host --prompt --role --type --other-user"
    ),
    "env": _spec("-u -C -S --unset --chdir --split-string"),
    "exec": _spec("-a"),
    "command": _spec(),
    "srun": _spec(SRUN_VALUED),
    "xargs": _spec(
        "-I -n -P -L -d -a -E -s --arg-file --delimiter --max-lines --max-args --max-procs --max-chars "
        "--process-slot-var"
    ),
    "numactl": _spec("-C -N -m -p -i --cpunodebind --membind --physcpubind --interleave --preferred"),
    "taskset": _spec(positional=1),  # `taskset [-a] [-c] MASK CMD...`: its options are flags
    "screen": _spec("-S -c -e -h -p -t -T -X -Logfile"),
    # `xvfb-run -a -s "-screen 0 1024x768x24" CMD...`: the command with a virtual X display (MuJoCo,
    # gym rendering on a headless node: cleanrl's benchmarks), its output passed through
    "xvfb-run": _spec("-e -f -n -p -s -w --error-file --auth-file --server-num --xauth-protocol --server-args --wait"),
    "unbuffer": _spec(),  # expect's: the command on a pseudo terminal, which line-buffers its stdout
    "chrt": _spec("-T -P -D --sched-runtime --sched-period --sched-deadline", positional=1),  # `chrt -f 10 CMD...`
    "catchsegv": _spec(),
}

SSH_VALUED = _words("-p -i -o -l -F -J -L -R -D -b -c -e -m -O -Q -S -W -w -E -B -I")  # OpenSSH 9's usage
# Open MPI's, MPICH's (hydra's) and MVAPICH's launchers, and HPE Cray PALS's mpiexec (Polaris,
# Aurora, Derecho: `--cpu-bind depth`, `--depth 8`, `--env K=V`): options with a value, and
# options with two (`--mca btl ^openib`, `-genv NCCL_DEBUG INFO`). A directory named with `-wdir`
# is the user's choice, as `docker exec -w`'s is: the command is not "elsewhere" for LL108.
MPI_VALUED = _words(
    "-np -n -N -c -H -host --host -hosts -hostfile --hostfile -machinefile --machinefile -f -x "
    "-map-by --map-by -bind-to --bind-to -rank-by --rank-by -npernode --npernode -ppn --ppn "
    "-rf --rankfile --prefix -wdir -wd --wdir --output-filename -iface "
    "--np --hosts --cpu-bind --mem-bind --depth --envlist -envlist --umask --pmi "
    # MPICH's hydra (`mpiexec.hydra -h`) and Intel MPI's (its Developer Reference, mpiexec.hydra)
    "-genvlist -configfile -launcher -launcher-exec -bootstrap -bootstrap-exec -bootstrap-exec-args "
    "-rmk -demux -errfile-pattern -outfile-pattern -prepend-pattern -membind -topolib -perhost "
    "-machine -path -gpath -gwdir -umask -gumask -gtool -gtoolfile -tmpdir -nameserver "
    "-gpus-per-proc -gpu-subdevs-per-proc -usize"
)
MPI_PAIRS = _words("-mca --mca -gmca --gmca -genv -env --genv --env")
MPI_WORKDIR = ("-wdir", "-wd", "--wdir")
# Horovod's `horovodrun [OPTIONS] CMD...` (horovod 0.28's runner/launch.py): options with a value,
# and the one with two (`--blacklist-cooldown-range MIN MAX`). Its command is what follows them.
HOROVOD_VALUED = _words(
    "-np --num-proc --start-timeout --network-interfaces --network-interface --output-filename "
    "--config-file -p --ssh-port -i --ssh-identity-file --fusion-threshold-mb --cycle-time-ms "
    "--cache-capacity --autotune-log-file --autotune-warmup-samples --autotune-steps-per-sample "
    "--autotune-bayes-opt-max-samples --autotune-gaussian-process-noise --min-np --min-num-proc "
    "--max-np --max-num-proc --slots-per-host --elastic-timeout --reset-limit --timeline-filename "
    "--stall-check-warning-time-seconds --stall-check-shutdown-time-seconds --mpi-args --binding-args "
    "--num-nccl-streams --thread-affinity --gloo-timeout-seconds --log-level -H --hosts -hostfile "
    "--hostfile --host-discovery-script"
)
HOROVOD_PAIRS = _words("--blacklist-cooldown-range")
# `docker run [OPTIONS] IMAGE CMD...`: its options with a value (docker 28.2's `run --help`, and
# `--net`, the old name of `--network`).
DOCKER_RUN_VALUED = _words(
    "-a --attach --add-host --annotation --blkio-weight --blkio-weight-device --cap-add --cap-drop "
    "--cgroup-parent --cgroupns --cidfile --cpu-count --cpu-percent --cpu-period --cpu-quota "
    "--cpu-rt-period --cpu-rt-runtime "
    "-c --cpu-shares --cpus --cpuset-cpus --cpuset-mems --detach-keys --device --device-cgroup-rule "
    "--device-read-bps --device-read-iops --device-write-bps --device-write-iops --dns --dns-option "
    "--dns-search --domainname --entrypoint -e --env --env-file --expose --gpus --group-add "
    "--health-cmd --health-interval --health-retries --health-start-interval --health-start-period "
    "--health-timeout -h --hostname --io-maxbandwidth --io-maxiops --ip --ip6 --ipc --isolation "
    "--kernel-memory -l --label "
    "--label-file --link --link-local-ip --log-driver --log-opt --mac-address -m --memory "
    "--memory-reservation --memory-swap --memory-swappiness --mount --name --network --net "
    "--network-alias --oom-score-adj --pid --pids-limit --platform -p --publish --pull --restart "
    "--runtime --security-opt --shm-size --stop-signal --stop-timeout --storage-opt --sysctl "
    "--tmpfs --ulimit -u --user --userns --uts -v --volume --volume-driver --volumes-from -w "
    "--workdir"
)
# `docker exec [OPTIONS] CONTAINER CMD...` (docker 28.2's `exec --help`).
DOCKER_EXEC_VALUED = _words("--detach-keys -e --env --env-file -u --user -w --workdir")
# GNU parallel's options that take the next word (parallel(1), 20240222); the others are flags,
# and `-i`, `-l`, `-e` take a value only in the same word. Its command is the words after them up
# to the first argument list (`:::`, `::::`, `:::+`, `::::+`), joined and run by a shell.
PARALLEL_VALUED = _words(
    "-a --arg-file --arg-file-sep --arg-sep --basefile --bf --bin --block --block-size --blocktimeout --bt "
    "-C --colsep --compress-program --ctag --ctagstring -d --delimiter --decompress-program --delay -E --eof "
    "--env --filter --group-by --halt --halt-on-error --header --hgrp --hostgroups -I --id -j --jobs --joblog "
    "-J --profile -L --max-lines --limit --load --match --memfree --memsuspend -n --max-args -N "
    "--max-replace-args --nice -P --max-procs --parens --process-slot-var --recend --recstart --replace "
    "--res --results --retries --return --rpl -s --max-chars -S --sshlogin --slf --sshloginfile --sql "
    "--sqlandworker --sqlmaster --sqlworker --sshdelay --ssh --st --semaphoretimeout --tag-string "
    "--tagstring --template --termseq --tf --transferfile --timeout --tmpdir --tempdir --trc --wd --workdir"
)
PARALLEL_ARGUMENTS = frozenset({":::", "::::", ":::+", "::::+"})
PARALLEL_REMOTE = ("-S", "--sshlogin", "--slf", "--sshloginfile")  # its jobs run on other hosts


class EnvOptions(Record):
    """A wrapper's options that give its command variables."""

    single: frozenset[str]  # `-e NAME=VALUE`, `--env=NAME=VALUE`; `-e NAME` passes this shell's
    pairs: frozenset[str] = frozenset()  # `-genv NAME VALUE` (MVAPICH's `-env NAME=VALUE` too)
    files: frozenset[str] = frozenset()  # `--env-file F`: variables not known here


DOCKER_ENV = EnvOptions(_words("-e --env"), files=_words("--env-file"))
TMUX_ENV = EnvOptions(_words("-e"))
MPI_ENV = EnvOptions(_words("-x"), pairs=_words("-genv -env --genv --env"))  # Open MPI's `-x`, MPICH's `-genv`


class Launcher(Record):
    """A parallel launcher that runs its command where it is, in the foreground with its streams: a
    copy per task, on the hosts it is given or the nodes of the job's allocation."""

    valued: frozenset[str]  # options that take the next word as their value
    pairs: frozenset[str] = frozenset()  # options that take two (`--mca btl ^openib`)
    env: EnvOptions | None = None  # options that give the command variables
    workdir: tuple[str, ...] = ()  # options naming the directory the command starts in
    # Its subcommands that launch (`flux run`), when it has any: the words after `flux`
    subcommands: frozenset[str] = frozenset()
    submits: frozenset[str] = frozenset()  # of those, the ones that queue the job and return (`flux submit`)
    # Whether a short option's value may follow it in the same word only (jsrun's `-dpacked`,
    # `-bnone`): then no word is a cluster of short flags (`after_options`).
    attached: bool = False

    def start(self, words: list[Word]) -> int | None:
        """Where its options start among the words after its name: 0, or 1 past a subcommand that
        launches (`flux run`, `flux submit`); None when the words launch nothing (`flux jobs`)."""
        if not self.subcommands:
            return 0
        return 1 if words and words[0].value in self.subcommands else None

    def queues(self, words: list[Word]) -> bool:
        """The words after its name queue the job and return (`flux submit`)."""
        return bool(words) and words[0].value in self.submits


# Cray ALPS's `aprun [options] CMD...` (HPE's aprun(1), global and command options; PALS's aprun
# on Polaris takes `--cc` too): its options with a value; `-b`, `-B`, `-C`, `-q`, `-T`, `-ss`
# are flags.
APRUN_VALUED = _words(
    "-a -cc --cc -cp -D -d -E -e -F -j -L -l -m -N -n -P -p -R -r -S -sl -sn -t "
    "--architecture --cpu-binding --cpu-binding-file --debug --cpus-per-pe --exclude-node-list "
    "--exclude-node-list-file --environment-override --access-mode --cpus-per-cu --node-list "
    "--node-list-file --memory-per-pe --pes-per-node --pes --relaunch --specialized-cpus "
    "--pes-per-numa-node --numa-node-list --numa-nodes-per-node --cpu-time-limit --p-governor --p-state"
)
# IBM JSM's `jsrun [options] CMD...` (Summit, Sierra, Lassen): its options with a value; `-i`
# (`--immediate`) is a flag. Its short options take their value in the same word too (`-n6 -a1
# -g1 -bpacked:7 -dpacked`), which is no cluster of flags.
JSRUN_VALUED = _words(
    "-a -b -c -d -D -e -E -f -F -g -h -k -K -l -m -M -n -o -p -r -t -U -X "
    "--tasks_per_rs --bind --cpu_per_rs --launch_distribution --env_no_propagate --stdio_mode --env "
    "--appfile --env_eval --gpu_per_rs --chdir --stdio_stderr --rs_per_socket --latency_priority "
    "--memory_per_rs --smpiargs --nrs --stdio_stdout --np --rs_per_host --stdio_input --erf_input "
    "--erf_output --exit_on_error --progress"
)
# `flux run [options] CMD...` and `flux submit` (flux-core's cli/base.py: MiniCmd, SubmitBaseCmd,
# SubmitBulkCmd): their options with a value; `-u`, `-l`, `-x`, `-v`, `--wait`, `--watch`,
# `--dry-run`, `--quiet`, `--progress`, `--jps` are flags.
FLUX_VALUED = _words(
    "-B --bank -q --queue -t --time-limit --urgency --job-name -o --setopt -S --setattr --add-file "
    "--dependency --requires --begin-time --env --env-remove --env-file --rlimit --input --output "
    "--error --cwd --flags --signal --taskmap -N --nodes -n --ntasks -c --cores-per-task -g "
    "--gpus-per-task --cores --tasks-per-node --tasks-per-core --gpus-per-node --cc --bcc "
    "--wait-event --log --log-stderr"
)
# The parallel launchers, by name: Open MPI's, MPICH's and MVAPICH's (hydra's `mpiexec.hydra`, Intel
# MPI's too), Horovod's, Cray's `aprun`, IBM's `jsrun` (and LLNL's `lrun` around it, which takes
# jsrun's options and its own, `-N` nodes, `-T` tasks per node, `-p` tasks, `-M` jsrun's
# `--smpiargs`, `-W` time limit, their value in their word, `-T4 -N2`, LLNL's page says; `-N 2` is
# read too), TACC's `ibrun` (`-n` tasks at offset `-o`), and Flux's `flux run` (`flux submit`
# queues the job: its output goes to the job's log, `flux job attach`).
MPI = Launcher(MPI_VALUED, MPI_PAIRS, MPI_ENV, MPI_WORKDIR)
JSRUN = Launcher(JSRUN_VALUED, env=EnvOptions(_words("-E --env")), workdir=("-h", "--chdir"), attached=True)
LAUNCHERS = {
    "mpirun": MPI,
    "mpiexec.hydra": MPI,
    # PALS's `-d` is `--depth` (Open MPI's mpirun `-d`, a debug flag, is hardly ever written)
    "mpiexec": Launcher(MPI_VALUED | {"-d"}, MPI_PAIRS, MPI_ENV, MPI_WORKDIR),
    "horovodrun": Launcher(HOROVOD_VALUED, HOROVOD_PAIRS),
    "aprun": Launcher(APRUN_VALUED, env=EnvOptions(_words("-e --environment-override"))),
    "jsrun": JSRUN,
    "lrun": JSRUN._replace(valued=JSRUN_VALUED | {"-N", "-T", "-p", "-M", "-W"}),
    "ibrun": Launcher(_words("-n -np -o")),
    "flux": Launcher(
        FLUX_VALUED, env=EnvOptions(_words("--env"), files=_words("--env-file")), workdir=("--cwd",),
        subcommands=frozenset({"run", "submit"}), submits=frozenset({"submit"}),
    ),
}
ENV_CLEARS = _words("-i --ignore-environment")  # `env -i CMD`: CMD gets only the variables env sets
# `singularity exec [OPTIONS] IMAGE CMD...` (apptainer's the same): options with a value, and
# those that leave the current directory (bound by default) behind, unless `--pwd` names one.
APPTAINER_VALUED = _words(
    "-B --bind --mount --env --env-file --pwd -H --home --overlay -o -W --workdir --security --app "
    "--network --network-args --hostname --dns -S --scratch --apply-cgroups --fusemount"
)
APPTAINER_CONTAINED = _words("-c --contain -C --containall")
# `-e`/`--cleanenv` (and `-C`/`--containall`) start the command without the host's environment;
# it gets variables from `--env K=V`, `--env-file F`, and `APPTAINERENV_K` (`SINGULARITYENV_K`,
# which apptainer reads too) in this shell's environment, which is K in the container.
APPTAINER_ENV = EnvOptions(_words("--env"), files=_words("--env-file"))
APPTAINER_ENV_PREFIXES = ("APPTAINERENV_", "SINGULARITYENV_")
# NERSC's `shifter [--image=IMG] [-V SRC:DST] [-m MODULE] [-e K=V] [--] CMD...`: the command in the
# image, in this directory and environment (`--workdir=DIR` moves it; `-E`/`--clearenv` clears it).
SHIFTER_VALUED = _words("-i --image -V --volume -m --module -e --env --env-file")
SHIFTER_ENV = DOCKER_ENV
# `conda run [-n ENV] CMD...`, `uv run [--with PKG] CMD...`, `poetry run CMD...`: the project's
# environment around a command, in this directory or the one `--cwd`/`--directory` names.
ENV_RUNNERS = {
    "conda": _spec("-n --name -p --prefix --cwd"),
    "uv": _spec(
        "--with --with-editable --with-requirements -p --python --project --directory --extra --group "
        "--only-group --no-group --env-file --index --default-index --index-url --extra-index-url -f "
        "--find-links --package"
    ),
    "poetry": _spec("-C --directory -P --project"),
    "pipenv": _spec(),
    "pdm": _spec("-p --project"),
}
# uv's global options that take the next word (uv 0.8's `uv help`), written before its subcommand
# (`uv --directory app run x.py`, `uv --quiet pip install -r requirements.txt`); its other global
# options are flags (`-q`, `-v`, `--no-cache`, `--offline`, `--native-tls`).
UV_GLOBAL_VALUED = _words(
    "--allow-insecure-host --cache-dir --color --config-file --directory --project -p --python --python-preference"
)
# `micromamba run -n ENV CMD...` (mamba's the same as conda's); `pixi run [-e ENV] CMD...`.
ENV_RUNNERS |= {
    "mamba": ENV_RUNNERS["conda"],
    "micromamba": _spec("-n --name -p --prefix --cwd -r --root-prefix -a --attach -e --env --label"),
    "pixi": _spec("-e --environment --manifest-path --color"),
}


class _EveryOption(frozenset):
    """The options of a tool every one of whose options takes a value (`nsys profile -t cuda -o
    rep --stats true`): all of them but one written with its value after `=`."""

    def __contains__(self, option: object) -> bool:
        return isinstance(option, str) and "=" not in option


# Profilers that run a command and pass its output on: `nsys profile [OPTIONS] CMD...` (Nsight
# Systems' `profile` and `launch`), `py-spy record [OPTIONS] -- CMD...` (and `top`).
PROFILERS = {
    "nsys": (frozenset({"profile", "launch"}), Spec(valued=_EveryOption())),
    "py-spy": (frozenset({"record", "top"}), _spec("-p --pid -o --output -f --format -d --duration -r --rate", dashdash=True)),
}


def profiled_command(name: str | None, args: list[Word]) -> list[Word] | None:
    """The words of the command a profiler runs, past its subcommand and options (`torchrun t.py`
    of `nsys profile -o prof torchrun t.py`, `args` being the words after `nsys`); None when the
    command profiles nothing."""
    profiler = PROFILERS.get(name)
    if profiler is None or not args or args[0].value not in profiler[0]:
        return None
    spec = profiler[1]
    return after_options(args[1:], spec.valued, spec.positional, spec.dashdash)


# `uv run -m pkg` runs `python -m pkg`; `uv run x.py` and `uv run --script x` run `python x.py`
# (uv's `run` reference: a `.py` command is run with the project's Python).
UV_MODULE = frozenset({"-m", "--module"})
UV_SCRIPT = frozenset({"-s", "--script"})
# `ray job submit [OPTIONS] -- ENTRYPOINT`: a job on the cluster, which starts in the uploaded
# working directory when the options give one (`--working-dir`, or a runtime environment's).
# Its options with a value (ray 2.49's job/cli.py and cli_utils.py: `--verify BOOL|PATH` too);
# `--no-wait` and `-v` are flags.
RAY_SUBMIT_VALUED = _words(
    "--address --job-id --submission-id --runtime-env --runtime-env-json --working-dir --metadata-json "
    "--entrypoint-num-cpus --entrypoint-num-gpus --entrypoint-memory --entrypoint-resources "
    "--entrypoint-label-selector --log-style --log-color --headers --verify"
)
RAY_WORKING_DIR = ("--working-dir", "--runtime-env")  # `--runtime-env-json` too: a prefix
_SHLEX_UNSAFE = lazy(r"[^\w@%+=:,./-]", re.ASCII)  # a character `shlex.quote` quotes a word for
# The options with a value of the tmux commands that run a shell command (tmux 3.3a's
# `list-commands`; the others, `-d`, `-X`, `-S`, `-l` of send-keys, ... are flags).
_TMUX_VALUED = {
    ("new-session", "new"): "-c -e -F -f -n -s -t -x -y",
    ("new-window", "neww"): "-c -e -F -n -t",
    ("split-window", "splitw"): "-c -e -F -l -t",
    ("send-keys", "send"): "-c -N -t",
    ("respawn-pane", "respawnp", "respawn-window", "respawnw"): "-c -e -t",
}
TMUX_VALUED = {name: _words(valued) for names, valued in _TMUX_VALUED.items() for name in names}
# tmux's own options, before its subcommand: `tmux -L sock -f conf new-session ...`.
TMUX_GLOBAL_VALUED = frozenset({"-L", "-S", "-f", "-T"})


# Kaldi's job runners and ESPnet's (`utils/run.pl`, `queue.pl`, ...; the recipes' cmd.sh picks one
# into `$train_cmd`): `run.pl [OPTIONS] [JOB=1:N] LOG CMD...` runs CMD with its output in LOG (the
# runner's own header and accounting lines around it), on this host or as a job of the named
# scheduler, in this directory. Their interface is one: every option takes one value (`--mem 4G`,
# `--gpu 1`, `--max-jobs-run 8`, `--config conf/queue.conf`, qsub's `-l ...`) but `-V` (none) and
# `-pe` (two: `-pe smp 5`); a `NAME=N:M` or `NAME=N` word may come before or after the options.
JOB_RUNNERS = frozenset({"run.pl", "queue.pl", "slurm.pl", "ssh.pl", "pbs.pl", "stdout.pl"})
RUNNER_FLAGS = frozenset({"-V"})
RUNNER_PAIRS = frozenset({"-pe"})
RUNNER_LIMITS = frozenset({"--max-jobs-run", "-tc"})  # how many copies run at a time (run.pl: one per CPU or GPU)
# The variables every Kaldi and ESPnet recipe's cmd.sh sets to a runner (`export
# train_cmd="queue.pl --mem 2G"`), in a file the shell sources, not read here: their command is a
# runner's by the shape of its words (`RunnerLine`), its log a `.log`.
RUNNER_VARIABLES = frozenset({"train_cmd", "cuda_cmd", "decode_cmd"})
# `JOB=1:4`, `JOB=1`, and its numbers made at run time: `JOB=1:$nj`, `JOB=1:$(cat $dir/num_jobs)`
_JOB_RANGE = lazy(r"([A-Za-z_]\w*)=(\d+|[$`][^:]*)(?::(\d+|[$`].*))?")
_LONE_EXPANSION = lazy(r"\$\{?(\w+)\}?")  # `$train_cmd`, `${cuda_cmd}`


class RunnerLine(Record):
    """The parts of a job runner's words (those after its name): `JOB=1:$nj exp/log/x.JOB.log
    python3 t.py`."""

    job: str | None  # the name its `NAME=N:M` word gives the job's number (`JOB`): the runner puts the number there
    several: bool  # `JOB=1:4`, `JOB=1:$nj`: several copies at a time (not with `--max-jobs-run 1`), each with its number
    log: Word  # where the command's output goes
    command: list[Word]


def runner_line(words: list[Word]) -> RunnerLine | None:
    """What a job runner's words say, read as run.pl reads them (utils/parallel/run.pl: its
    options, a `NAME=N:M` word, once more options and such a word, then the log); None when no
    command follows the log."""
    i, job, several, one_at_a_time = 0, None, False, False
    for _ in range(2):
        while i < len(words) and words[i].template.startswith("-"):
            option = words[i].template
            if option in RUNNER_LIMITS and i + 1 < len(words):
                one_at_a_time = words[i + 1].value == "1"
            i += 1 if option in RUNNER_FLAGS else 3 if option in RUNNER_PAIRS else 2
        match = _JOB_RANGE.fullmatch(words[i].template) if i < len(words) else None
        if match is not None:
            job, several = match.group(1), match.group(3) not in (None, match.group(2))
            i += 1
    if i + 1 >= len(words):
        return None
    return RunnerLine(job, several and not one_at_a_time, words[i], words[i + 1 :])


_QUOTES = lazy("[\"']")


def _runner_part(index: LineIndex, word: Word, job: str | None) -> Word:
    """A word of a job runner's command as the runner hands it to bash, for `_join`: numbered
    (`_numbered`), one word as written (`_as_one_word`)."""
    return _as_one_word(index, _numbered(word, job))


def _as_one_word(index: LineIndex, word: Word) -> Word:
    """A word of a command a tool joins for another shell, each argument quoted as it needs
    (a job runner; `ray job submit`'s `shlex.join`), as that shell reads it: a word not known here
    is its template, shell as written, bare when written without quotes (`${train}`, which bash
    splits; `$dir` holding a `$(perl -e '...')`), as the inner shell then reads it as this one did,
    and in `"` when written with them (`"$opts"`, `"ark:gunzip -c $dir/ali.JOB.gz|"`, `"$PROMPT"`
    with the default `{{ instruction }}`), one word, its own `"` read as `'` (`"$(grep -w "#0"
    w)"`): the word is not known either way, and stays one."""
    if word.value is not None or not _BLANK.search(word.template):
        return word
    at = word.location
    if not _QUOTES.search(index.text[index.offset(at.line, at.column) : index.offset(at.end_line, at.end_column)]):
        return word
    size, origin = len(word.template), word.origin
    if len(origin) > size:  # the quotes stand at the first character and the last
        origin = array("i", [origin[0], *origin[:size], origin[size - 1], origin[size]])
    return Word(None, '"' + word.template.replace('"', "'") + '"', at, origin)


def _numbered(word: Word, job: str | None) -> Word:
    """The word as the runner's shell reads it: each `JOB` in it (the name of `JOB=1:4`) an
    expansion of that name, which it does not know, since the runner puts each copy's number
    there (`exp/split4/JOB/feats.scp`)."""
    if job is None or job not in word.template:
        return word
    template = word.template.replace(job, "$" + job)
    origin = word.origin
    if len(origin) > len(word.template):  # each character's place: the `$` stands at its name's
        places = array("i")
        start = 0
        for at in [m.start() for m in re.finditer(re.escape(job), word.template)] + [len(origin)]:
            places.extend(origin[start:at])
            if at < len(word.template):
                places.append(origin[at])
            start = at
        origin = places
    return Word(None, template, word.location, origin)


def runner_variable(words: list[Word]) -> bool:
    """`${train_cmd} --gpu 1 exp/log/train.log python3 t.py`: a command whose first word is one of
    the variables a recipe's cmd.sh sets to a runner (`RUNNER_VARIABLES`), its value not known
    here (also through a variable the script set to it: ESPnet's `_cmd=${decode_cmd}` leaves
    `${_cmd}` that template), and whose words after it are a runner's, with a `.log` for the log."""
    expansion = _LONE_EXPANSION.fullmatch(words[0].template) if words[0].value is None else None
    if expansion is None or expansion.group(1) not in RUNNER_VARIABLES:
        return False
    line = runner_line(words[1:])
    return line is not None and line.log.template.endswith(".log")


SU_LOGIN = frozenset({"-", "-l", "--login"})  # `su - user -c CMD`: CMD runs in a login shell


# Every name `unwrap` tests for: any other command wraps nothing.
WRAPPER_NAMES = (
    SHELLS
    | ARGV_WRAPPERS.keys()
    | ENV_RUNNERS.keys()
    | PROFILERS.keys()
    | {"su", "eval", "sbatch", "bsub", "ssh", "tmux", "pct", "lxc", "docker", "podman", "kubectl"}
    | LAUNCHERS.keys()
    | {"singularity", "apptainer", "shifter", "ray", "gcloud", "parallel"}
)


def unwrap(walker, command: Command) -> None:
    """Find and walk the command(s) a wrapper runs, marking `command.inner`."""
    name = command.name
    runner = name in JOB_RUNNERS or (name is None and bool(command.words) and runner_variable(command.words))
    if name not in WRAPPER_NAMES and not runner:  # None too: no words, or a first word that is not static
        if name is None and _unknown_prefix(command.words):
            command.inner = _argv(walker, command, command.words[1:], "prefix")
        return
    from .shell import parse_nested

    words = command.args
    values = [w.value for w in words]
    inner: list[Command] = []

    def wrap(kind: str, **flags) -> tuple[Wrapper, ...]:
        return command.wrappers + (Wrapper(kind, command, **flags),)

    def run_string(kind: str, parts: list[Word], *, stdout: Sink, stderr: Sink, new_shell=True, pipefail=False, lines=(), quoting=None, **flags):
        """`lines`: the parts that start a line of their own (keys after an Enter); `quoting`: how
        the tool quotes each part (`_join`)."""
        if not parts:
            return []
        text, origin = _join(parts, lines, quoting)
        # a string an inner `"` ended early is judged as written, whatever its unknown parts hold
        closed_at = next((walker.closed_early[p.location] for p in parts if p.location in walker.closed_early), None)
        exact = closed_at is not None or all(p.value is not None for p in parts)
        if new_shell:
            wrappers_ = wrap(kind, **flags)
            state = _child_state(walker, wrappers_, stdout, stderr)
            state.pipefail = pipefail
            return parse_nested(walker, text, origin, state, wrappers_, exact=exact, closed_at=closed_at)
        # `eval`: this shell runs the string, its variables and `cd`s stay, but its output goes
        # where eval's goes (`eval "$cmd" | tee run.log`); an `exec >` in the string stays too
        state = walker.state
        before = state.stdout, state.stderr
        state.stdout, state.stderr = stdout, stderr
        try:
            return parse_nested(walker, text, origin, state, wrap(kind, **flags), exact=exact, closed_at=closed_at)
        finally:
            if state.stdout is stdout:
                state.stdout = before[0]
            if state.stderr is stderr:
                state.stderr = before[1]

    if runner:
        line = runner_line(words)
        if line is not None:
            # The runner's shell reads the words, joined as run.pl joins them, with the job's
            # number where they say its name; the output goes to the log, which the runner keeps
            # as a scheduler keeps a job's (its own header and accounting lines around it).
            log = Sink(SUBMITTED, line.log, line.log.location)
            inner = run_string(
                "job-runner",
                [_runner_part(walker.unit.index, w, line.job) for w in line.command],
                stdout=log,
                stderr=log,
                quoting=_runner_mark,
                parallel=line.several and name == "run.pl",
            )
    elif name in SHELLS:
        args = shell_args(values)
        if args.command_string and args.operand is not None:
            inner = run_string(
                "bash-c", [words[args.operand]], stdout=command.stdout, stderr=command.stderr, pipefail=args.pipefail
            )
    elif name == "su":
        if "-c" in values[:-1]:
            at = values.index("-c")
            # a login shell (`su - user`, `-l`, `--login`) starts with a cleared environment;
            # plain `su user` keeps this shell's variables
            login = not SU_LOGIN.isdisjoint(values[:at] + values[at + 2 :])
            inner = run_string("su", [words[at + 1]], stdout=command.stdout, stderr=command.stderr, isolated=login)
    elif name == "eval":
        inner = run_string("eval", words, stdout=command.stdout, stderr=command.stderr, new_shell=False)
    elif name == "sbatch":
        wrap_word = _option_value(words, "--wrap")
        if wrap_word is not None:
            inner = run_string(
                "sbatch", [wrap_word], stdout=Sink(SUBMITTED, location=command.location), stderr=Sink(SUBMITTED),
                **slurm_export(command, words),
            )
    elif name == "bsub" and (rest := job_operands(name, words)) and bsub_script(rest) is None:
        # LSF's `bsub [options] CMD ARGS`: a shell runs the words later, on the job's host, in
        # this directory unless `-cwd` names one; the output goes to the job's `-o` file (or is
        # mailed), this command's prints the job's id. A job script by its path (`bsub
        # ./job.lsf`) is the launch graph's (graph.py: `_job_script`). An interactive job (`-I`,
        # `-Is`) runs in this terminal, with this command's streams.
        options = _option_words(words, 0, rest)
        interactive = not INTERACTIVE[name].isdisjoint(options)
        submitted = Sink(SUBMITTED, location=command.location)
        inner = run_string(
            "bsub", rest, stdout=command.stdout if interactive else submitted, stderr=command.stderr if interactive else submitted,
            chdir=_names(options, BSUB_CWD), terminal=not BSUB_TERMINAL.isdisjoint(options),
        )
    elif name == "ssh":
        rest = _ssh_command(words)
        if rest:
            terminal = _ssh_terminal(words[: len(words) - len(rest)])
            inner = run_string(
                "ssh", rest, stdout=command.stdout, stderr=command.stderr, remote=True, cwd_changed=True, isolated=True, terminal=terminal
            )
    elif name == "gcloud" and "ssh" in values and "compute" in values[: values.index("ssh")]:
        # `gcloud compute ssh VM --command=CMD`, `gcloud compute tpus tpu-vm ssh TPU --worker=all
        # --command CMD`: ssh, run by gcloud, with the remote command in an option.
        remote_command = _option_value(words, "--command")
        if remote_command is not None:
            inner = run_string(
                "ssh", [remote_command], stdout=command.stdout, stderr=command.stderr, remote=True, cwd_changed=True, isolated=True
            )
    elif name == "tmux":
        inner = _tmux(words, command, run_string, walker.typed_keys.setdefault(tmux_server(command), {}))
    elif name in ("pct", "lxc") and values[:1] == ["exec"]:
        rest = after_options(words[1:], frozenset(), positional=1, dashdash=True)
        inner = _argv(walker, command, rest, "pct", remote=True, cwd_changed=True)
    elif name in ("docker", "podman") and values[:1] == ["run"]:
        sub = words[1:]
        rest = after_options(sub, DOCKER_RUN_VALUED, positional=1)
        options = _option_words(words, 1, rest)
        # A terminal (`-t`) line-buffers the program; `-d` leaves its output to `docker logs`;
        # `--entrypoint` runs something else first: the words after the image are not the command.
        if not any(_short_flag(o, "t") or _short_flag(o, "d") or o in ("--tty", "--detach") for o in options) and not any(
            o.startswith("--entrypoint") for o in options
        ):
            # In the image's working directory, made for its command (unlike `docker exec`'s):
            # a relative path there is the image's business (LL108 stays silent).
            env, unknown = _given(command, words[1 : len(words) - len(rest)], DOCKER_ENV)
            inner = _argv(
                walker, command, rest, "docker", remote=True, isolated=True, env=env, unknown_environment=unknown,
                chdir=_names(options, DOCKER_WORKDIR),
            )
    elif name in ("docker", "podman") and values[:1] == ["exec"]:
        sub = words[1:]
        rest = after_options(sub, DOCKER_EXEC_VALUED, positional=1)
        options = _option_words(words, 1, rest)
        workdir = _names(options, DOCKER_WORKDIR)
        if any(_short_flag(o, "d") or o == "--detach" for o in options):
            command.background = True  # `docker exec -d c CMD` returns at once, CMD still running, as `&` would
            command.detaches = True
        env, unknown = _given(command, words[1 : len(words) - len(rest)], DOCKER_ENV)
        inner = _argv(
            walker, command, rest, "docker", remote=True, cwd_changed=not workdir, chdir=workdir, isolated=True, env=env,
            unknown_environment=unknown, terminal=any(_short_flag(o, "t") or o == "--tty" for o in options),
        )
    elif name in LAUNCHERS and (start := LAUNCHERS[name].start(words)) is not None:
        launcher = LAUNCHERS[name]
        rest = launcher_command(launcher, words[start:])
        env, unknown = _given(command, words[start : len(words) - len(rest)], launcher.env) if launcher.env else ({}, False)
        sink = Sink(SUBMITTED, location=command.location) if launcher.queues(words) else None
        options = _option_words(words, start, rest)
        inner = _argv(
            walker, command, rest, name, stdout=sink, stderr=sink, env=env, unknown_environment=unknown,
            chdir=_names(options, launcher.workdir),
            terminal=name in ("mpirun", "mpiexec") and not OPEN_MPI_OWN.isdisjoint(options),
        )
    elif name in ("singularity", "apptainer") and values[:1] == ["exec"]:
        rest = after_options(words[1:], APPTAINER_VALUED, positional=1)
        options = _option_words(words, 1, rest)
        contained = not APPTAINER_CONTAINED.isdisjoint(options) and "--pwd" not in options
        clean = any(o in ("--cleanenv", "--containall") or _short_flag(o, "e") or _short_flag(o, "C") for o in options)
        env, unknown = _given(command, words[1 : len(words) - len(rest)], APPTAINER_ENV)
        given = {k for w in command.wrappers if w.env for k in w.env}
        for variable in sorted(command.exported | command.env.keys() | given):
            if variable.startswith(APPTAINER_ENV_PREFIXES) and command.has_env(variable):  # `APPTAINERENV_K`: K inside
                value = command.env_value(variable) or command.environment.get(variable)
                env.setdefault(variable.split("ENV_", 1)[1], value)  # `--env K=V` comes first
        inner = _argv(walker, command, rest, "apptainer", cwd_changed=contained, isolated=clean, env=env, unknown_environment=unknown)
    elif name == "shifter":
        rest = after_options(words, SHIFTER_VALUED, dashdash=True)
        options = _option_words(words, 0, rest)
        env, unknown = _given(command, words[: len(words) - len(rest)], SHIFTER_ENV)
        moved = any(o.startswith("--workdir=") for o in options)
        clean = any(o == "--clearenv" or _short_flag(o, "E") for o in options)
        inner = _argv(walker, command, rest, "shifter", cwd_changed=moved, isolated=clean, env=env, unknown_environment=unknown)
    elif name in ENV_RUNNERS and (values[:1] == ["run"] or name == "uv" and _subcommand_value(uv_subcommand(words)) == "run"):
        words = uv_subcommand(words) if name == "uv" else words  # `uv --quiet run x.py`: from `run` on
        rest = after_options(words[1:], ENV_RUNNERS[name].valued)
        program = _uv_python(_option_words(words, 1, rest), rest) if name == "uv" else rest
        inner = _argv(walker, command, program, name, adds_interpreter=program is not rest)
    elif (profiled := profiled_command(name, words)) is not None:
        inner = _argv(walker, command, profiled, name)
    elif name == "ray" and values[:2] == ["job", "submit"]:
        rest = after_options(words[2:], RAY_SUBMIT_VALUED, dashdash=True)
        options = _option_words(words, 2, rest)
        uploaded = any(o.startswith(RAY_WORKING_DIR) for o in options)
        env: dict[str, Word | None] = {}
        known = _runtime_env(words[2 : len(words) - len(rest)], env)
        # Ray's job supervisor starts the program with PYTHONUNBUFFERED=1, over the runtime env's
        # own (ray/dashboard/modules/job/job_supervisor.py, `_get_driver_env_vars`; ray#21659, 2022).
        env["PYTHONUNBUFFERED"] = Word("1", "1", command.location)
        # `--no-wait` submits and returns: the job's output goes to Ray's job log (`ray job logs`)
        # and its status to `ray job status`, as an sbatch job's to its slurm-%j.out; without it,
        # ray streams the log to its stdout and exits 1 when the job fails.
        sink = Sink(SUBMITTED, location=command.location) if "--no-wait" in options else None
        # The job is a command line: ray's CLI joins the words after its options (`shlex.join`;
        # `subprocess.list2cmdline` before ray-project/ray#63797, 2026: the same for words of
        # plain characters, a word with a blank quoted whole) and the supervisor runs it with
        # /bin/sh (`subprocess.Popen(entrypoint, shell=True)`). So `-- A=1 python3 t.py` sets A
        # for python3, and `-- "python t.py"` runs a program named `python t.py`, which sh does
        # not find. Not isolated: the job gets the cluster's environment, which a `ray start` in
        # this shell took from it (xtuner's RL scripts export their variables, then start and
        # submit to it).
        inner = run_string(
            "ray", [_as_one_word(walker.unit.index, w) for w in rest], stdout=sink or command.stdout, stderr=sink or command.stderr, quoting=_shlex_mark, remote=True,
            cwd_changed=not uploaded, unknown_environment=not known, env=env,
        )
        _keep_defaults(command, rest, inner)
    elif name == "kubectl" and values[:1] == ["exec"]:
        if "--" in values:
            at = values.index("--")
            terminal = any(_short_flag(v, "t") or v == "--tty" for v in values[1:at] if v)
            inner = _argv(walker, command, words[at + 1 :], "kubectl", remote=True, cwd_changed=True, isolated=True, terminal=terminal)
    elif name == "parallel":  # GNU parallel: a shell runs its command, N at a time
        rest = after_options(words, PARALLEL_VALUED)
        options = _option_words(words, 0, rest)
        end = next((i for i, w in enumerate(rest) if w.value in PARALLEL_ARGUMENTS), len(rest))
        several = _several_at_a_time(options, ("-j", "--jobs", "-P", "--max-procs"), default=True) and not any(
            o.startswith(PARALLEL_REMOTE) for o in options
        )
        inner = run_string(
            "parallel", rest[:end], stdout=command.stdout, stderr=command.stderr, parallel=several,
            reads_input="--pipe" not in options and "--pipepart" not in options,
        )
    elif name == "screen":  # read only detached (`-dm`, `-d -m`, `-dmS job`), by its own options
        rest = after_options(words, ARGV_WRAPPERS["screen"].valued)
        options = _option_words(words, 0, rest)
        if any(_short_flag(o, "d") for o in options) and any(_short_flag(o, "m") for o in options):
            sink = Sink(DETACHED, location=command.location)
            inner = _argv(walker, command, rest, "screen", detached=True, stdout=sink, stderr=sink)
    elif name == "command" and any(_short_flag(o, "v") or _short_flag(o, "V") for o in _option_words(words, 0, after_options(words, frozenset()))):
        pass  # `command -v NAME` (`-V`) says what NAME is, and runs nothing
    elif name in ARGV_WRAPPERS:
        spec = ARGV_WRAPPERS[name]
        rest = after_options(words, spec.valued, spec.positional, spec.dashdash)
        env: dict[str, Word | None] = {}
        cleared = name == "env" and bool(rest) and rest[0].value == "-"  # `env - CMD`: POSIX's `env -i`
        rest = rest[1:] if cleared else rest
        unknown = False  # `env "$@" bash job.sh`: assignments a caller passes, not known here
        while name in ("env", "sudo") and rest:
            if rest[0].value and "=" in rest[0].value and not rest[0].value.startswith("-"):
                key, _, value = rest[0].value.partition("=")
                env[key] = Word(value, value, rest[0].location, [])
            elif rest[0].value is None and len(rest) > 1 and _MANY_WORDS.fullmatch(rest[0].template):
                unknown = True
            else:
                break
            rest = rest[1:]
        options = _option_words(words, 0, rest)
        if name == "setsid" and any(o == "--fork" or _short_flag(o, "f") for o in options):
            command.background = True  # `setsid -f CMD` forks and returns at once, as `&` would
            command.detaches = True
        if name == "srun":
            stdout, stderr = _srun_streams(words[: len(words) - len(rest)])
            inner = _argv(
                walker,
                command,
                rest,
                name,
                stdout=stdout,
                stderr=stderr,
                # pyxis's `srun --container-image IMG CMD` runs CMD in a container, as `docker run` does
                remote=any(o.startswith("--container-image") for o in options),
                terminal=not SRUN_TERMINAL.isdisjoint(options),
                chdir=_names(options, CHDIR["srun"]),
                **slurm_export(command, words[: len(words) - len(rest)]),
            )
        else:
            isolated = cleared or (name == "env" and not ENV_CLEARS.isdisjoint(options)) or (
                name == "sudo" and not any(o.startswith("--preserve-env") or _short_flag(o, "E") for o in options)
            )
            unset = _env_unset(options) if name == "env" else frozenset()
            inner = _argv(
                walker, command, rest, name, env=env, isolated=isolated, unset=unset, chdir=_names(options, CHDIR.get(name, ())),
                unknown_environment=unknown,
                parallel=name == "xargs" and _several_at_a_time(options, ("-P", "--max-procs")), reads_input=name == "xargs",
                appends=name == "xargs" and not any(o.startswith(("-I", "-i", "--replace")) for o in options),
                terminal=name == "unbuffer",
            )
    command.inner = inner


_MANY_WORDS = lazy(r'"?\$(?:@|\{@\}|\{\w+\[@\]\})"?')  # `"$@"`, `"${EXTRA_ENV[@]}"`: words a caller or an array gives
_OPTIONS_VARIABLE = re.compile(r"\$\{?\w*(?:ARGS|OPTS|OPTIONS|FLAGS)\}?", re.IGNORECASE)  # `$SRUN_ARGS`


SRUN_TERMINAL = frozenset(("-u", "--unbuffered", "--pty"))  # the tasks run on a pseudo terminal
# Options only Open MPI's mpirun/mpiexec has (not MPICH's or Intel MPI's hydra): it starts each local
# rank with its stdout on a pseudo terminal, whatever its own stdout is (open-mpi/ompi#7868), so
# Python line-buffers there. An `mpirun` without one of them may be hydra's, which gives pipes.
OPEN_MPI_OWN = _words(
    "--allow-run-as-root -allow-run-as-root --oversubscribe -oversubscribe -mca --mca -gmca --gmca -x "
    "-npernode --npernode --report-bindings -report-bindings --tag-output -tag-output --timestamp-output"
)


def _srun_streams(options: list[Word]) -> tuple[Sink | None, Sink | None]:
    """Where `srun -o FILE` / `-e FILE` sends its tasks' stdout and stderr: srun writes them there
    itself, and `-o` alone takes stderr too (srun(1)). None for a stream srun passes on."""
    output = _option_value(options, "--output") or _option_value(options, "-o")
    error = _option_value(options, "--error") or _option_value(options, "-e")
    stdout = _file_sink(output) if output is not None else None
    stderr = _file_sink(error) if error is not None else stdout
    return stdout, stderr


def _file_sink(target: Word) -> Sink:
    discarded = target.value in ("/dev/null", "none")
    return Sink(NULL if discarded else FILE, target, target.location)


def _unknown_prefix(words: list[Word]) -> bool:
    """`${cmd} python3 x.py` with `cmd` unknown here (`echo` for a dry run, else empty; `sudo`, a
    launcher): whatever `$cmd` holds, the job the script is for is the python3 command after it."""
    return (
        len(words) > 1
        and EXPANSION.fullmatch(words[0].template) is not None
        and (is_python(words[1].value) or words[1].value in LONG_RUNNING)
    )


def tmux_server(command: Command) -> tuple:
    """Which tmux server a tmux command talks to: this host's, or that of each host or container
    it runs in, named by the words of its remote wrappers before it, as written (`ssh gpu1`,
    `docker exec c1`): keys typed by one `ssh gpu1 '...'` and an Enter sent by the next reach one
    pane. (tmux's `-L`/`-S` sockets are not told apart.)"""
    start = (command.location.line, command.location.column)
    return tuple(
        tuple(w.template for w in wrapper.command.words if (w.location.end_line, w.location.end_column) <= start)
        for wrapper in command.wrappers
        if wrapper.remote
    )


def _tmux(words: list[Word], command: Command, run_string, typed: dict[str | None, list[Word]]) -> list[Command]:
    """tmux's commands: a sequence of them when words `;` (written `\\;` or `';'`) part them,
    `tmux new-session -d -s job \\; send-keys "python train.py" Enter`. `typed`: the keys each
    pane (`-t`) was sent by this shell's tmux commands that no Enter ran yet."""
    sequence: list[list[Word]] = [[]]
    for word in after_options(words, TMUX_GLOBAL_VALUED):
        if word.value != ";":
            sequence[-1].append(word)
        elif sequence[-1]:
            sequence.append([])
    # `tmux new-session -s job "python t.py" \; detach`: the client leaves the new session at once
    detaching = any(one and one[0].value in TMUX_DETACH for one in sequence[1:])
    inner: list[Command] = []
    for one in sequence:
        if one:
            inner += _tmux_command(one, command, run_string, typed, detaching)
    return inner


TMUX_DETACH = frozenset({"detach", "detach-client"})


def _tmux_command(
    words: list[Word], command: Command, run_string, typed: dict[str | None, list[Word]], detaching: bool = False
) -> list[Command]:
    sub = words[0].value
    if sub in ("new-session", "new", "new-window", "neww", "split-window", "splitw"):
        rest = after_options(words[1:], TMUX_VALUED[sub])
        # A new pane starts in this directory, or in the one `-c` names: never "elsewhere".
        detached = new_pane_detached(words) or detaching and sub in ("new-session", "new")
        sink = Sink(DETACHED, location=command.location)
        env, _ = _given(command, words[1 : len(words) - len(rest)], TMUX_ENV)
        chosen = "-c" in _option_words(words, 1, rest)
        return run_string("tmux", rest, stdout=sink, stderr=sink, detached=detached, env=env, chdir=chosen)
    if sub in ("respawn-pane", "respawnp", "respawn-window", "respawnw"):
        # The command restarts in an existing pane, in the directory that pane started in unless
        # `-c` names one, as keys sent to it run.
        rest = after_options(words[1:], TMUX_VALUED[sub])
        chosen = "-c" in _option_words(words, 1, rest)
        sink = Sink(DETACHED, location=command.location)
        env, _ = _given(command, words[1 : len(words) - len(rest)], TMUX_ENV)
        return run_string("tmux", rest, stdout=sink, stderr=sink, detached=True, cwd_changed=not chosen, chdir=chosen, env=env)
    if sub in ("send-keys", "send"):
        # Each Enter ends a line the pane's shell runs: `send-keys "cd /w" Enter "python train.py"
        # Enter` types two, in that shell. Keys after the last line end are only typed, not run,
        # unless a later send-keys to that pane (the same `-t`, or none: the pane the one before
        # sent to), in this tmux command or a later one of this shell, sends an Enter (`send-keys
        # -t job "python t.py" \; send-keys Enter`; `sleep 1; tmux send-keys -t job C-m`). With
        # `-l` every word is text, `Enter` too: only a line break in it ends a line.
        rest = after_options(words[1:], TMUX_VALUED[sub])
        options = _option_words(words, 1, rest)
        literal = any(_short_flag(o, "l") for o in options)
        target = options[options.index("-t") + 1] if "-t" in options[:-1] else next(reversed(typed), None)
        keys, lines, run = typed.pop(target, []), set(), 0
        for word in rest:
            enter = not literal and (word.value or "").lower() in TMUX_ENTER
            if enter:
                lines.add(len(keys))
            else:
                keys.append(word)
            if enter or (word.value or "").endswith(("\n", "\r")):
                run = len(keys)
        typed[target] = keys[run:]
        sink = Sink(DETACHED, location=command.location)
        return run_string("tmux", keys[:run], stdout=sink, stderr=sink, detached=True, cwd_changed=True, lines=lines, pane=target)
    return []


TMUX_ENTER = frozenset({"enter", "c-m", "kpenter"})  # tmux reads key names in any case


def session_named(options: list[str | None]) -> str | None:
    """The session a `tmux new-session` names: the value of its `-s NAME`, also at the end of a
    cluster (`-ds NAME`), among its options."""
    at = tmux_option(options, "new-session", "s")
    return None if at is None else options[at]


def tmux_option(options: list[str | None], sub: str, letter: str) -> int | None:
    """Where the value of a tmux command's option `-LETTER` is, also at the end of a cluster
    (`-ds NAME`), among the options (`options`: the command's words after its name, as values)
    of `sub` (`new-session`, `new-window` ...); None when it has none."""
    valued = TMUX_VALUED[sub]
    i = 0
    while i < len(options) and (options[i] or "").startswith("-") and options[i] != "--":
        option = options[i]
        takes_value = option in valued or (len(option) > 2 and "-" + option[-1] in valued)
        if takes_value and option.endswith(letter) and i + 1 < len(options):
            return i + 1
        i += 2 if takes_value else 1
    return None


def new_pane_detached(words: list[Word]) -> bool:
    """`-d`, also in a cluster (`-ds job`), among the options of a tmux command that opens a pane
    (`new-session`, `new-window`, `split-window`: `words` from its name on), not the words of the
    command it runs."""
    rest = after_options(words[1:], TMUX_VALUED[words[0].value])
    return any(_short_flag(o, "d") for o in _option_words(words, 1, rest))


def _argv(walker, command: Command, rest: list[Word], kind: str, stdout: Sink | None = None, stderr: Sink | None = None, **flags) -> list[Command]:
    """Run the remaining words as a command of their own, itself possibly a wrapper."""
    if not rest:
        return []
    isolated, unset = flags.get("isolated"), flags.get("unset", frozenset())
    environment = {} if isolated else command.environment
    if unset:  # `env -u NAME CMD`: this shell's NAME does not reach CMD
        environment = {k: v for k, v in environment.items() if k not in unset}
    first = rest[0].location
    location = Location(first.path, first.line, first.column, command.location.end_line, command.location.end_column)
    inner = Command(
        words=list(rest),
        location=location,
        stdout=stdout or command.stdout,
        stderr=stderr or command.stderr,
        background=command.background,
        pipefail=command.pipefail,
        wrappers=command.wrappers + (Wrapper(kind, command, **flags),),
        exported=frozenset() if isolated else command.exported - unset if unset else command.exported,
        pipeline=command.pipeline,
        blocks=command.blocks,
        environment=environment,
    )
    if command.defaults or command.word_defaults:  # also a redirect's target's (`> ${RUN:-a}.log`)
        inner.defaults, inner.word_defaults = command.defaults, command.word_defaults
    if command.anchored:  # `nohup python t.py --config-path $(pwd)/conf`: the same words, absolute
        inner.anchored = command.anchored
    walker.script.commands.append(inner)
    unwrap(walker, inner)
    return [inner]


def _keep_defaults(command: Command, words: list[Word], inner: list[Command]) -> None:
    """The defaults `words` took (`ray job submit -- python3 ${SCRIPT:-t.py}`: `Command.defaults`)
    stay theirs in the commands a shell reads them into again (`_join`, `_shlex_mark`), as they do in a
    wrapper's argv (`_argv`): a word there starts at the same character. An expansion that made no
    word (`${EXTRA:-}`) and a redirect's target keep their own place."""
    if not command.defaults and not command.word_defaults:
        return
    written = {w.location for w in words}
    placed = {w.origin[0]: command.word_defaults[w.location] for w in words if w.origin and w.location in command.word_defaults}
    unplaced = {at: names for at, names in command.word_defaults.items() if at not in written}
    for job in inner:
        took = unplaced | {w.location: placed[w.origin[0]] for w in job.words if w.origin and w.origin[0] in placed}
        job.defaults = job.defaults | command.defaults
        if took:
            job.word_defaults = took


def uv_subcommand(words: list[Word]) -> list[Word]:
    """uv's words (those after `uv`) from its subcommand on, past its global options: `uv --quiet
    pip install -r requirements.txt` is `pip install -r requirements.txt`."""
    return after_options(words, UV_GLOBAL_VALUED)


def _subcommand_value(words: list[Word]) -> str | None:
    return words[0].value if words else None


def _option_value(words: list[Word], option: str) -> Word | None:
    for i, word in enumerate(words):
        if word.value == option and i + 1 < len(words):
            return words[i + 1]
        if word.template.startswith(option + "="):  # a word's template is its value when it has one
            return value_part(word, len(option) + 1)
    return None


def _several_at_a_time(options: list[str], spelled: tuple[str, ...], default: bool = False) -> bool:
    """Whether a tool runs its command several copies at a time, by the last of its options
    `spelled` (`xargs -P N`, `parallel -j N`; also `-PN`, `--max-procs=N`): N a number other than 1
    (0: as many as it can), GNU parallel's `+N` (N more than the CPU cores) or `N%` of at least
    100; with none of them, `default` (GNU parallel's, one per CPU core). A number not known here
    (`-P "$JOBS"`), or fewer jobs than cores (`-j -1`, `-j 50%`: on a small machine, one), is not
    taken to."""
    value = None
    for i, option in enumerate(options):
        if option in spelled:
            value = options[i + 1] if i + 1 < len(options) else ""
            continue
        for spelling in spelled:
            attached = spelling + "=" if spelling.startswith("--") else spelling  # `--jobs=4`, `-j4`
            if option.startswith(attached):
                value = option[len(attached) :]
    if value is None:
        return default
    if value.endswith("%") and value[:-1].isdigit():
        return int(value[:-1]) >= 100
    return value[1:].isdigit() if value.startswith("+") else value.isdigit() and int(value) != 1


def _env_unset(options: list[str]) -> frozenset[str]:
    """The names `env -u NAME` (`-uNAME`, `--unset NAME`, `--unset=NAME`) removes from the
    environment of the command it runs."""
    names = set()
    for i, option in enumerate(options):
        if option in ("-u", "--unset") and i + 1 < len(options):
            names.add(options[i + 1])
        elif option.startswith("--unset="):
            names.add(option[len("--unset=") :])
        elif option.startswith("-u") and len(option) > 2:
            names.add(option[2:])
    return frozenset(names)


def _given(command: Command, options: list[Word], spec: EnvOptions) -> tuple[dict[str, Word | None], bool]:
    """The variables a wrapper's options give the command it runs (`docker exec -e K=V`,
    `--env=K=V`, `-e K` with this shell's K, `mpirun -x K=V`, `-genv K V`), and whether they
    give some not known here (`--env-file`, `-e "$VARS"`)."""
    env: dict[str, Word | None] = {}
    unknown = False
    i = 0
    while i < len(options):
        text = options[i].template  # the value, when it is static
        option, eq, _ = text.partition("=")
        unknown = unknown or option in spec.files
        given = None
        if eq and option in spec.single:
            given = value_part(options[i], len(option) + 1)
        elif (text in spec.single or text in spec.pairs) and i + 1 < len(options):
            i += 1
            if text in spec.pairs and "=" not in options[i].template and i + 1 < len(options):
                if options[i].value:
                    env[options[i].value] = options[i + 1]
                i += 1
            else:
                given = options[i]
        if given is not None:
            name, eq, _ = given.template.partition("=")
            if not name.isidentifier():
                unknown = True  # `-e "$VARS"`: any
            elif eq:
                env[name] = value_part(given, len(name) + 1)
            elif command.has_env(name):  # `-e NAME`: the value this shell has, if it has one
                env[name] = command.env_value(name)
        i += 1
    return env, unknown


def _ssh_terminal(options: list[Word]) -> bool:
    """`ssh -t`, `-tt`, `-o RequestTTY=yes`: the remote command runs on a pseudo terminal."""
    texts = [w.value or "" for w in options]
    for i, text in enumerate(texts):
        if text.startswith("-o"):
            key, _, answer = (text[2:] or (texts[i + 1] if i + 1 < len(texts) else "")).partition("=")
            if key.strip().lower() == "requesttty" and answer.lower() in ("yes", "force"):
                return True
            continue
        for letter in text[1:] if text.startswith("-") and not text.startswith("--") else "":
            if letter == "t":
                return True
            if "-" + letter in SSH_VALUED:
                break  # the rest is its value (`-ppt`)
    return False


# What may read a script from its standard input, itself or through the command it runs.
STDIN_READERS = SHELLS | {"ssh", "docker", "podman", "kubectl", "pct", "lxc", "sudo", "su", "env", "srun", "sbatch"} | {
    "nohup", "setsid", "timeout", "stdbuf", "nice", "ionice", "numactl", "taskset", "exec", "command"
}


def stdin_reader(command: Command) -> Command | None:
    """The command that reads the standard input `command` is given: itself, or down the commands
    it runs, one each (`ssh gpu1 bash -s`, `nice -n 5 python -`); None when it runs several."""
    target = command
    while len(target.inner) == 1:
        target = target.inner[0]
    return None if target.inner else target


def stdin_script(walker, target: Command, text: str, origin, *, exact: bool) -> None:
    """The commands of a heredoc that a shell (`target`, its `stdin_reader`) reads as its script:
    `bash -s <<'EOF'` (a new shell here), `ssh gpu1 <<EOF` and `ssh gpu1 bash -s <<EOF` (the
    remote login shell), `docker exec -i c1 bash <<EOF` (a shell in the container); none when the
    shell has a script or a command string of its own."""
    from .shell import parse_nested

    stdout, stderr = target.stdout, target.stderr
    if target.name in SHELLS:
        args = shell_args([w.value for w in target.args])
        if args.command_string or args.operand is not None:
            return
        wrapper = Wrapper("bash-c", target, heredoc=True)
    elif target.name == "ssh" and not _ssh_command(target.args):
        wrapper = Wrapper("ssh", target, remote=True, cwd_changed=True, isolated=True, heredoc=True)
    elif target.name == "sbatch" and _option_value(target.args, "--wrap") is None and not job_operands("sbatch", target.args):
        # `sbatch <<EOF`: the job script, which a shell runs later in this directory, its output
        # the job's log, as `sbatch --wrap CMD`'s; its `#SBATCH` lines are the command's `job_directives`
        wrapper = Wrapper("sbatch", target, heredoc=True, **slurm_export(target, target.args))
        stdout = stderr = Sink(SUBMITTED, location=target.location)
    else:
        return
    wrappers_ = target.wrappers + (wrapper,)
    state = _child_state(walker, wrappers_, stdout, stderr)
    target.inner = parse_nested(walker, text, origin, state, wrappers_, exact=exact)


def _child_state(walker, wrappers: tuple[Wrapper, ...], stdout: Sink, stderr: Sink):
    """The state of a new shell the last of `wrappers` starts: a shell on another host, or
    started through a wrapper of this shell's that isolates it (`docker exec c bash -c ...`), has
    none of this shell's variables; one started through `env -u NAME` has all but NAME."""
    own = wrappers[len(walker.wrappers) :]
    moved = any(w.remote or w.cwd_changed or w.chdir for w in own)  # not in this shell's directory
    state = walker.state.child_shell(stdout, stderr, remote=any(w.isolated for w in own), moved=moved)
    for name in {name for w in own for name in w.unset}:
        state.unset(name)
    return state


def slurm_export(command: Command, options: list[Word]) -> dict:
    """What `srun --export=...` gives its tasks, and `sbatch --export=...` its job (among the
    command's `options`): with `ALL` (the default of both) this shell's variables and those it
    names, else (`NONE`, a list) only those it names: `NAME=VALUE`, or `NAME` with this shell's
    value. Wrapper fields: `env`, `isolated`, `unknown_environment`."""
    word = _option_value(options, "--export")
    if word is None:
        return {}
    if word.value is None:
        return {"unknown_environment": True}
    items = word.value.split(",")
    env: dict[str, Word | None] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if eq:
            env[name] = Word(value, value, word.location)
        elif name not in ("ALL", "NONE", "NIL") and command.has_env(name):
            env[name] = command.env_value(name)
    return {"env": env, "isolated": "ALL" not in items}


def _uv_python(options: list[str], rest: list[Word]) -> list[Word]:
    """What `uv run [options] REST` runs: REST (the same list), or a new list with the `python`
    (and `-m`) uv puts before a module or a script. The words uv adds stand where the program is
    written."""
    if not rest:
        return rest
    at = rest[0].location
    if not UV_MODULE.isdisjoint(options):
        return [Word("python", "python", at), Word("-m", "-m", at), *rest]
    if not UV_SCRIPT.isdisjoint(options) or (rest[0].value or "").endswith(".py"):
        return [Word("python", "python", at), *rest]
    return rest


def _runtime_env(options: list[Word], env: dict[str, Word | None]) -> bool:
    """Add the `env_vars` of a Ray job's runtime environment written in its options
    (`--runtime-env-json JSON`, `=JSON`) to `env`; False when the job gets variables not known
    here: its JSON is not static (`"$ENV_JSON"`, but an unknown string in it is only that
    string) or not an object, or it comes from a file
    (`--runtime-env env.yaml`), which ray reads, not launchlint."""
    if _option_value(options, "--runtime-env") is not None:
        return False
    spec = _option_value(options, "--runtime-env-json")
    if spec is None:
        return True
    import json  # only for a runtime environment written out: no other run needs it

    try:  # an unknown part inside a JSON string (`"working_dir": "'$WD'"`) is that string's only
        variables = json.loads(spec.text).get("env_vars", {})
    except (ValueError, AttributeError):
        return False
    if not isinstance(variables, dict):
        return False
    for name, value in variables.items():
        if spec.value is None and "$" in str(name):
            return False
        known = str(value) if spec.value is not None or "$" not in str(value) else None
        env[str(name)] = Word(known, str(value), spec.location)
    return True


def _option_words(words: list[Word], start: int, rest: list[Word]) -> list[str]:
    """A wrapper's words from `start` up to the command it runs (its options, and the image or
    host it names): where its flags are, never the command's own (`python t.py -c cfg`). A word
    with an unknown part reads as written (`--runtime-env-json=$ENV`)."""
    return [w.value if w.value is not None else w.template for w in words[start : len(words) - len(rest)]]


DOCKER_WORKDIR = ("-w", "--workdir")
BSUB_CWD = ("-cwd",)
BSUB_TERMINAL = frozenset({"-Ip", "-Is", "-ISp", "-ISs"})  # interactive on a pseudo terminal (IBM's bsub -Ip, -Is)
CHDIR = {"srun": ("-D", "--chdir"), "env": ("-C", "--chdir"), "sudo": ("-D", "--chdir")}


def _names(options: list[str], spelled: tuple[str, ...]) -> bool:
    """Whether the options hold one of `spelled` (with its value apart or after `=`)."""
    return any(o in spelled or o.startswith(tuple(f"{s}=" for s in spelled if s.startswith("--"))) for o in options)


def _short_flag(option: str, letter: str) -> bool:
    """`-it` sets `-t`: a cluster of short flags."""
    return option.startswith("-") and not option.startswith("--") and letter in option[1:]


def launcher_command(launcher: Launcher, words: list[Word]) -> list[Word]:
    """The command a parallel launcher runs: its words after the launcher's options (`words`, past
    its name and subcommand)."""
    return after_options(words, launcher.valued, pairs=launcher.pairs, clusters=not launcher.attached)


def after_options(
    words: list[Word],
    valued: frozenset[str],
    positional: int = 0,
    dashdash: bool = False,
    pairs: frozenset[str] = frozenset(),
    clusters: bool = True,
) -> list[Word]:
    i = 0
    while i < len(words):
        # A word with an unknown part is an option when it starts with one (`--runtime-env-json=$ENV`)
        value = words[i].value if words[i].value is not None else words[i].template
        if value == "--":
            i += 1
            break
        if not value.startswith("-") or value == "-":
            if words[i].value is None and _OPTIONS_VARIABLE.fullmatch(value):
                i += 1  # `srun $SRUN_ARGS -u bash -c ...`, `ssh $SSH_OPTS host`: named for options, it holds them
                continue
            break
        # `-dmS name`: a cluster of short flags whose last one takes a value
        # (not horovodrun's `-prefix-timestamp`, a single-dash long flag)
        cluster_valued = clusters and len(value) > 2 and value[1:].isalnum() and "-" + value[-1] in valued
        if value in pairs:  # `-genv NAME VALUE`, but one word in MVAPICH's `-env NAME=VALUE`
            i += 2 if i + 1 < len(words) and "=" in (words[i + 1].value or "") else 3
        elif value in valued or cluster_valued:
            i += 2
        else:
            i += 1
    rest = words[i:]
    if dashdash and "--" in [w.value for w in rest[: positional + 1]]:
        rest = rest[[w.value for w in rest].index("--") + 1 :]
        return rest
    rest = rest[positional:]
    if dashdash and rest and rest[0].value == "--":
        rest = rest[1:]
    return rest


def _ssh_command(words: list[Word]) -> list[Word]:
    """The remote command's words of `ssh [options] host [options] command`: OpenSSH reads options
    after the host too (`ssh gpu1 -t "cmd"`, `ssh gpu1 -- "cmd"`), unless a `--` came before it."""
    host = after_options(words, SSH_VALUED)
    if not host:
        return []
    terminated = len(host) < len(words) and words[len(words) - len(host) - 1].value == "--"
    return host[1:] if terminated else after_options(host[1:], SSH_VALUED)


# A crontab line: five time fields, or a nickname (`@reboot`, `@daily`), then the command.
_CRON_SCHEDULE = lazy(r"[ \t]*(?:@\w+|(?:[^ \t\n]+[ \t]+){4}[^ \t\n]+)[ \t]+(?=[^ \t\n])")
_CRON_OTHER = lazy(r"[ \t]*(?:#|[A-Za-z_]\w*[ \t]*=)")  # a comment, a setting (`SHELL=/bin/bash`)
_CRON_LINE_END = lazy(r"\n|\\n")  # a newline, or `\n` for `echo -e` and printf


def installs_crontab(command: Command) -> bool:
    """`crontab -` or `crontab` (also `-u user`): a new crontab from standard input."""
    if command.name != "crontab":
        return False
    rest = after_options(command.args, frozenset({"-u"}))
    return not rest or (len(rest) == 1 and rest[0].value == "-")


def cron(walker, command: Command) -> None:
    """The crontab lines an `echo`/`printf` writes into `crontab -`: each line's command runs
    from the user's home directory (LL108's "crontab lines"), in a shell of its own."""
    from .shell import parse_nested

    words = [w for w in command.args if w.value is not None and not w.value.startswith("-")]
    if command.name == "printf" and words and "%" in (words[0].value or ""):
        words = words[1:]  # the format: its arguments are the lines
    inner: list[Command] = []
    for word in words:
        value, origin, start = word.value or "", word.origin, 0
        for end in [m.start() for m in _CRON_LINE_END.finditer(value)] + [len(value)]:
            line = value[start:end]
            schedule = _CRON_SCHEDULE.match(line)
            if schedule is not None and not _CRON_OTHER.match(line) and len(origin) > end:
                at = start + schedule.end()
                state = walker.state.child_shell(Sink(NULL), Sink(NULL), remote=False, moved=True)
                inner += parse_nested(
                    walker, value[at:end], origin[at : end + 1], state, command.wrappers + (Wrapper("cron", command, cwd_changed=True),)
                )
            start = end + (2 if value[end : end + 2] == "\\n" else 1)
    command.inner = inner


_BLANK = lazy(r"\s")


def _shlex_mark(word: Word, value: str) -> str | None:
    """Python's `shlex.join` (`ray job submit`'s entrypoint) quotes a known word that is empty or
    has a character the shell would read, so the shell reads it back as one word, unchanged; a
    leading `NAME=value` stays an assignment."""
    return "'" if word.value is not None and (not value or _SHLEX_UNSAFE.search(value)) else None


def _runner_mark(word: Word, value: str) -> str | None:
    """A job runner (utils/parallel/run.pl) quotes only a word that is empty or has a blank, in
    `"`, or in `'` when it holds a `"`, and leaves the rest bare: `\\|` is a pipe to its shell
    (`run.pl x.log prog ark:- \\| copy-feats ...`), and a whole command in one quoted word
    (`run.pl x.log "python t.py"`) a program of that name. A word not known here comes quoted as
    it needs (`_runner_part`)."""
    if word.value is None or (value and not _BLANK.search(value)):
        return None
    return "'" if '"' in value else '"'


def _join(
    parts: list[Word], lines: Collection[int] = (), quoting: Callable[[Word, str], str | None] | None = None
) -> tuple[str, array]:
    """Words a wrapper joins with spaces before a shell reads them (ssh, eval, tmux), or with a
    line break before each part `lines` holds the index of (tmux's keys after an Enter). A word
    this shell cannot evaluate (`"cd $DIR && ..."` with DIR unknown) gives its template, its
    unknown parts as written: the inner shell reads `$DIR` as one unknown word, as the value
    would most often be. `quoting`: the quote the tool puts around a word (its value, or the
    template), None when it leaves it bare (`_shlex_mark`, `_runner_mark`)."""
    text = ""
    origin = array("i")  # takes the words' origins (arrays) in one copy each
    for n, word in enumerate(parts):
        if n:
            text += "\n" if n in lines else " "
            origin.append(word.origin[0] if word.origin else 0)
        value = word.template if word.value is None else word.value
        at = word.origin[: len(value)] or [word.origin[0] if word.origin else 0] * len(value)
        mark = quoting(word, value) if quoting is not None else None
        if mark is not None:
            first, last = (at[0], at[-1]) if value else (word.origin[0] if word.origin else 0,) * 2
            escaped = quoting is _shlex_mark  # shlex.quote ends and reopens its quotes around a `'`
            text += mark + (value.replace("'", "'\"'\"'") if escaped else value) + mark
            origin.append(first)
            for ch, offset in zip(value, at):
                origin.extend([offset] * (5 if escaped and ch == "'" else 1))
            origin.append(last)
            continue
        text += value
        origin.extend(at)
    origin.append(parts[-1].origin[-1] if parts[-1].origin else 0)
    return text, origin
