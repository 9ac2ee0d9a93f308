"""## What it does
Finds a job started detached whose output nothing keeps: a `tmux new-session -d` or `screen -dm`
command that neither tees nor redirects to a file, `nohup cmd &` with no redirection (its output
goes to an implicit `nohup.out`), `setsid` or `disown`ed background jobs with no redirection, and
a `docker exec -d` (or `podman exec -d`) whose command keeps nothing.

## Why is this bad?
A detached job dies alone. The tmux pane closes with the process and its scrollback, traceback
included; `nohup.out` lands in whatever directory the job happened to start in (or `$HOME`), is
shared by every job started there, and is not where anyone looks. The question the next morning,
"why did it stop at step 41k?", has no answer left.

## Example
```bash
tmux new-session -d -s train "python -u train.py --lr 3e-4"
nohup python -u eval.py &
```

## Use instead
```bash
tmux new-session -d -s train "python -u train.py --lr 3e-4 2>&1 | tee logs/train.log"
nohup python -u eval.py > logs/eval.log 2>&1 &
```
or keep the pane when the job ends: `tmux set -g remain-on-exit on`.

## Details
- tmux and screen: `tmux new-session -d` / `new-window -d` / `split-window -d` and `screen -dm`
  running a job (not a monitor only: `tail -f logs/train.log`, `watch nvidia-smi`, `htop`, `nvtop`,
  `gpustat`, whose end loses nothing), when the script it runs does not log by itself (`exec >log`), the pane is not kept open
  (`remain-on-exit`, a trailing `; bash`) and its output is not piped (`tmux pipe-pane`, `screen
  -L`). tmux's own options come first (`tmux -L sock new -d ...`); each window of a sequence of
  tmux commands (`new -d ... \\; new-window -d ...`) is judged on its own, and keys sent to a new
  session's shell (`\\; send-keys "python t.py" Enter`) are not: that shell keeps the pane open
  when the job ends. Unless a line typed there after the job closes it (benchmarking-gnns's
  `tmux send-keys "tmux kill-session -t benchmark" C-m` after its trainers): `exit`, `logout`,
  `tmux kill-server`, and `tmux kill-session`, `kill-window` or `kill-pane` with no `-t` or with
  the `-t` of that pane (the session it names, for `kill-session`). The same pane: the same `-t`,
  or none, as the send-keys whose keys an Enter runs; with none, in the session the script last
  created (`tmux new -s job -d`). A job is a Python program, a launcher, or a script of the
  project; the typed `cd` or `conda activate` is none.
- A `new-session` without `-d` whose tmux command line ends with the client leaving it (`tmux
  new -s job "python t.py" \\; detach`, or `detach-client`) is started detached too.
- A `new-window` or `split-window` without `-d` is detached too when its `-t` names a session the
  script started detached before (`tmux new-session -d -s S`, then `tmux new-window -t S "python
  t.py"`, code-act's run_all.sh) and attaches to nowhere, before or after (no `attach-session`,
  `attach`, `a` or `switch-client` on that tmux server): no client shows that session. The same
  session is the same static name (`-t S`, `-t S:1`), or a `-t` whose characters the `-s` word's
  are, one variable's value set once (`-s $S` ... `-t $S`); a `-t` the script does not name so,
  or none, is not known to be that session.
- `setsid cmd &`, `setsid -f cmd` (which forks and returns, as `&` does) and `cmd & disown` with
  no redirection: still writing to a terminal that is about to close.
- `docker exec -d CONTAINER CMD` (and podman's): the detached exec's output is attached to
  nothing, and `docker logs` shows only the container's main process, so it is reported unless
  CMD keeps its own output (`bash -c 'python t.py > /w/logs/t.log 2>&1'`, a script that logs by
  itself). A capture around the script does not help: the exec's output never reaches it. It is
  started detached as a tmux, screen, nohup, setsid or disown job is: yolov7's `docker exec -d
  $id python utils/aws/resume.py`.
- Background jobs of a script whose launcher captures its output are not reported: their output
  goes to that capture; nor those of a batch script that `sbatch` submits (`sbatch job.sh`; PBS's
  `qsub job.pbs`, LSF's `bsub < job.lsf`): the job's output, theirs included, goes to its
  `#SBATCH --output` file (`#PBS -o`, `#BSUB -o`), never to a terminal, so `nohup` writes no
  `nohup.out` there.
- Nor is a job submitted to a scheduler that keeps its log and returns at once (`nohup ray job
  submit --no-wait -- python t.py &`, `nohup sbatch --wrap "python t.py" &`, `nohup sbatch job.sh
  &`, `sbatch job.sh & disown`, `nohup qsub job.pbs &`, `bsub < job.lsf & disown`): only the
  submission's messages (the job's id) reach the terminal; the job's output goes where its
  `#SBATCH --output` says (slurm-%j.out by default). An interactive job (`qsub -I`, `bsub -Is`)
  runs in this terminal, and is not one.
- A script launchlint cannot see (outside the project) is given the benefit of the doubt when it
  is the job (`tmux new -d 'bash /opt/run.sh'`), not when it only sets the job up before it
  (`source .venv/bin/activate && torchrun ...`, `. conda.sh; python ...`); so is a command not
  known here (`nohup $TRAIN_CMD &`) when it is the job, unless it runs a Python file of a static
  path (`nohup $pythonExec train.py &`: an interpreter or a launcher, which keeps nothing of its
  own); not one before the job (`$conda activate fs; python train.py`).
- A torchrun that writes its workers' stderr to files (`--redirects 3` or `2`, `--tee 3`, per rank
  `-r 0:3,1:3`; in `--log-dir`, or a directory of its own) keeps their tracebacks: not reported.

A `nohup` job under `ssh` with no terminal (no `-t`) writes no `nohup.out`: its stdout is the
connection, which nohup leaves alone. ssh then waits for the job, and once the connection closes
the job's next write fails (SIGPIPE; `BrokenPipeError` in Python); the message says so.

## References
- tmux(1), `remain-on-exit` and `pipe-pane`; screen(1), `-L`; nohup(1): "If standard output is
  a terminal, append output to 'nohup.out' if possible, '$HOME/nohup.out' otherwise."
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from launchlint.front.wrappers import TMUX_GLOBAL_VALUED, new_pane_detached, session_named, tmux_option, tmux_server
from launchlint.graph import SUBMITTERS, is_long_running, runs_by_variable, submits_job
from launchlint.launches import launch_of
from launchlint.logs import files_written, keeps_own_log
from launchlint.model import Finding, Location, Related, Severity
from launchlint.rulekit import Example
from launchlint.shellfacts import INHERIT, SUBMITTED, Command, ShellScript, Word

_STDERR_KEPT = re.compile(r"(?:^|:)[23](?:,|$)")  # `--redirects 3`, `-r 0:2,1:3`

CODE = "LL107"
NAME = "detached-output-lost"
SEVERITY = Severity.WARNING
SUMMARY = "A detached job (tmux -d, screen -dm, nohup &, setsid, disown, docker exec -d) whose output nothing keeps"

NEW_SESSION = {"new-session", "new"}
NEW_PANE = {*NEW_SESSION, "new-window", "neww", "split-window", "splitw"}
KEEPS_PANE = {"remain-on-exit", "pipe-pane", "pipep"}  # tmux options/commands that keep output
SCREEN_LOG = {"-L", "-Logfile"}
SHELLS = {"bash", "sh", "zsh", "fish", "dash", "ksh"}
KEEP_ALIVE = {"read", "sleep"}  # `...; read` / `; sleep infinity`: the pane stays open
SEND_KEYS = {"send-keys", "send"}
CLOSES_SHELL = {"exit", "logout"}  # typed into a pane's shell: the pane closes
# tmux commands typed into a pane's shell that close it: with no `-t`, the session, window or pane
# of that shell (`$TMUX`); `kill-server` every one.
KILLS = {"kill-session", "kill-window", "killw", "kill-pane", "killp"}

INVALID = [
    Example(  # a monitor beside a job in one detached pane: the job's output is lost
        {"run.sh": '#!/bin/bash\ntmux new -d -s job "python train.py & tail -f logs/train.log"\n', "train.py": "print(1)\n"},
        ["LL107 run.sh:2"],
    ),
    Example(  # a session the client leaves at once (`\\; detach`), as `-d` does; one it stays in is none
        {
            "train.py": "print(1)\n",
            "run.sh": (
                '#!/bin/bash\ntmux new-session -s job "python train.py" \\; detach\n'
                'tmux new -s logged "python train.py 2>&1 | tee x.log" \\; detach-client\ntmux new -s shown "python train.py"\n'
            ),
        },
        ["LL107 run.sh:2"],
    ),
    Example(  # a command not known here that sets the job up does not keep the job's output
        {"train.py": "print(1)\n", "run.sh": "#!/bin/bash\ntmux new-session -d \"$ACTIVATE fs; python train.py\"\n"},
        ["LL107 run.sh:2"],
    ),
    Example(  # a session's commands from a variable, read in their order: the job is the last (FedDecay's execute_sweep.sh)
        {
            "train.py": "print(1)\n",
            "sweep.sh": (
                '#!/bin/bash\nfor g in 0 1; do\n  cmd="source activate fs; CUDA_VISIBLE_DEVICES=$g python train.py"\n'
                "  tmux new-session -d \"bash -c '$cmd'\"\n  screen -dm bash -c \"$cmd\"\ndone\n"
            ),
        },
        ["LL107 sweep.sh:4", "LL107 sweep.sh:5"],
    ),
    Example(  # a Python file run in the background by a command not known here: nothing of its own keeps its output
        {"run.sh": "#!/bin/bash\npythonExec=$1\nnohup $pythonExec train.py --lr 1 &\nnohup $TRAIN_CMD &\n", "train.py": "print(1)\n"},
        ["LL107 run.sh:3"],
    ),
    Example(
        {"launch.sh": 'tmux new-session -d -s train "python train.py --config cfg.yaml"\n'},
        ["LL107 launch.sh:1"],
    ),
    Example(  # the second of tmux's commands, after a `;` word
        {"launch.sh": 'tmux new-session -d -s train \\; new-window -d "python train.py"\n'},
        ["LL107 launch.sh:1"],
    ),
    Example(  # the started script does not log by itself either
        {
            "launch.sh": "tmux new-window -d 'bash start.sh'\nscreen -dmS eval python eval.py\n",
            "start.sh": "cd /work\ntorchrun --nproc_per_node 8 train.py\n",
        },
        ["LL107 launch.sh:1", "LL107 launch.sh:2"],
    ),
    Example(
        {"run.sh": "nohup python train.py &\nsetsid python serve.py &\npython watch.py & disown\n"},
        ["LL107 run.sh:1", "LL107 run.sh:2", "LL107 run.sh:3"],
    ),
    Example(  # tmux's own options before its command; a second window that keeps nothing
        {
            "launch.sh": (
                'tmux -L sock -f /dev/null new -d -s a "python train.py"\n'
                'tmux new -d -s b "python train.py > b.log 2>&1" \\; new-window -d "python eval.py"\n'
            )
        },
        ["LL107 launch.sh:1", "LL107 launch.sh:2"],
    ),
    Example({"run.sh": "setsid -f python serve.py\n"}, ["LL107 run.sh:1"]),  # forks, as `&` does
    Example(  # the job after a submission is this shell's: its output reaches nohup.out
        {
            "run.sh": "nohup bash -c 'sbatch job.sh; python watch.py' &\n",
            "job.sh": "#!/bin/bash\n#SBATCH --output=slurm-%j.out\npython train.py\n",
        },
        ["LL107 run.sh:1"],
    ),
    Example(  # `disown` releases the shell's last job: not what `docker exec -d` started after it (that is lost as such)
        {"run.sh": "python watch.py &\ndocker exec -d c1 python /w/train.py\ndisown\n"},
        ["LL107 run.sh:1", "LL107 run.sh:2"],
    ),
    Example(  # a detached exec's output reaches nothing, not even a capture around the script
        {
            "run.sh": "#!/bin/bash\nfor id in $(docker ps -q); do docker exec -d \"$id\" python -u resume.py; done\n",
            "go.sh": "bash run.sh > go.log 2>&1\n",
            "serve.sh": "podman exec --detach -w /w c1 torchrun --nproc_per_node 2 serve.py\n",
        },
        ["LL107 run.sh:2", "LL107 serve.sh:1"],
    ),
    Example(  # keys typed into a pane's shell that a later line typed there closes, and a job ended by `; exit`
        {
            "launch.sh": (
                "tmux new -s job -d\n"
                'tmux send-keys "python train.py --seed 1 & python train.py --seed 2 & wait" C-m\n'
                'tmux send-keys "tmux kill-session -t job" C-m\n'
            ),
            "eval.sh": "tmux new -d -s ev\ntmux send-keys -t ev:0 'cd /w' Enter 'torchrun eval.py; exit' Enter\n",
            "serve.sh": 'tmux send-keys -t s "bash train.sh" Enter \\; send-keys -t s "tmux kill-window" Enter\n',
            "train.sh": "python train.py\n",
        },
        ["LL107 eval.sh:2", "LL107 launch.sh:2", "LL107 serve.sh:1"],
    ),
    Example(  # a window opened without -d into a session the script started detached, and never attaches to
        {
            "serve.sh": (
                '#!/bin/bash\nS="eval_${PORT}_$(hostname)"\ntmux new-session -d -s $S\n'
                'tmux new-window -t $S -n server "python serve.py --port $PORT"\ntmux kill-session -t $S\n'
            ),
            "split.sh": "tmux new -ds job\ntmux split-window -t job:0 'torchrun train.py'\n",
        },
        ["LL107 serve.sh:4", "LL107 split.sh:2"],
    ),
    Example(  # nested: a detached session on another host
        {"deploy.sh": "ssh gpu1 \"tmux new-session -d -s job 'cd /w && python train.py'\"\n"},
        ["LL107 deploy.sh:1"],
    ),
    Example(  # an environment sourced before the job, from outside the project, is not the job
        {
            "launch.sh": (
                'tmux new-session -d -s a "source .venv/bin/activate && torchrun --nproc_per_node=4 train.py"\n'
                "screen -dmS b bash -c 'cd ~/app && source venv/bin/activate && python3 -u train.py'\n"
                "nohup bash -c '. ~/miniconda3/etc/profile.d/conda.sh; conda activate llm; python -u train.py' &\n"
            )
        },
        ["LL107 launch.sh:1", "LL107 launch.sh:2", "LL107 launch.sh:3"],
    ),
]

VALID = [
    Example(  # a detached pane that only watches a log or the GPUs runs no job
        {
            "monitor.sh": (
                '#!/bin/bash\ntmux new-window -d "tail -f logs/train.log"\ntmux new-session -d -s mon "tail -F logs/train.log"\n'
                "screen -dmS mon2 tail -f logs/train.log\ntmux new -d -s gpu \"watch -n 60 'nvidia-smi --query-gpu=utilization.gpu --format=csv'\"\n"
            )
        }
    ),
    Example(  # torchrun writes its workers' output to files (LambdaLabs' 405b launch.sh), its own or per rank
        {
            "train.py": "print(1)\n",
            "run.sh": (
                "#!/bin/bash\ntmux new-session -d -s a torchrun --redirects 3 --log-dir ./logs --nproc-per-node 8 train.py\n"
                "tmux new-session -d -s b $(which python) -m torch.distributed.run -r 0:3,1:2 --master_port 29501 train.py\n"
            ),
        },
    ),
    Example(  # a detached exec whose command keeps its own log; one not detached
        {
            "run.sh": (
                "#!/bin/bash\ndocker exec -d c1 bash -c 'cd /w && python -u train.py > /w/logs/train.log 2>&1'\n"
                "docker exec c1 python -u eval.py\n"
            )
        }
    ),
    Example(
        {
            "launch.sh": (
                'tmux new-session -d -s a "python train.py 2>&1 | tee train.log"\n'
                "tmux new-session -d -s b 'python eval.py > eval.log 2>&1'\n"
                "tmux new-session -d -s c 'python train.py; bash'\n"
                "tmux new-session -s d 'python train.py'\n"
                "tmux send-keys -t a 'python more.py' Enter\n"
                "screen -L -dmS e python train.py\n"
            )
        }
    ),
    Example(  # keys typed into a new session's shell: the shell keeps the pane when the job ends
        {"launch.sh": 'tmux new -d -s a \\; send-keys "python train.py" Enter\nsetsid -f python a.py > a.log 2>&1\n'}
    ),
    Example(  # typed jobs: a pane nothing closes, a kill typed into another session, a job that logs, no job
        {
            "a.sh": 'tmux new -s job -d\ntmux send-keys "python train.py & python eval.py & wait" C-m\n',
            "b.sh": 'tmux send-keys -t a "python a.py" C-m\ntmux send-keys -t b "python b.py > b.log 2>&1; tmux kill-session" C-m\n',
            "c.sh": 'tmux send-keys -t job "python train.py > train.log 2>&1" C-m exit C-m\n',
            "d.sh": 'tmux send-keys -t job "cd /w && conda activate llm" C-m "exit" C-m\n',
            "e.sh": 'tmux send-keys -t job "python t.py" C-m "tmux kill-session -a -t job" C-m\n',
            # an unknown `-t` is not known to be that session
            "f.sh": 'tmux send-keys -t "$S" "python train.py" Enter\ntmux send-keys -t "$S" "tmux kill-session -t job" Enter\n',
        }
    ),
    Example(  # a window without -d into a session the script attaches to, did not start detached, or does not name
        {
            "a.sh": "tmux new -d -s job\ntmux new-window -t job 'python train.py'\ntmux attach -t job\n",
            "b.sh": "tmux new -d -s job\ntmux new-window -t other 'python train.py'\ntmux new-window 'python eval.py'\n",
            "c.sh": 'tmux new -d -s "$1"\nS=$1\ntmux new-window -t "$S" "python train.py"\n',
            "d.sh": "tmux new -d -s job\nssh gpu1 tmux new-window -t job 'python train.py'\n",
        }
    ),
    Example(  # the pane is kept when the job exits
        {"launch.sh": "tmux set-option -g remain-on-exit on\ntmux new-session -d -s a 'python train.py'\n"}
    ),
    Example(  # a script we cannot see, as the job, may log by itself
        {"launch.sh": "tmux new-session -d -s a 'source ~/.bashrc; bash /opt/jobs/run.sh'\n"}
    ),
    Example(  # the started script logs by itself
        {
            "launch.sh": "tmux new-session -d -s a 'bash start.sh'\n",
            "start.sh": "exec > /logs/start.log 2>&1\npython train.py\n",
        }
    ),
    Example(
        {
            "run.sh": (
                "nohup python train.py > train.log 2>&1 &\nsetsid python serve.py >> serve.log 2>&1 &\n"
                "python watch.py > watch.log 2>&1 & disown\nnohup bash -c 'python a.py | tee a.log' &\n"
            )
        }
    ),
    Example(  # the launcher captures the script's output, background jobs included
        {"launch.sh": "bash run.sh > run.log 2>&1\n", "run.sh": "nohup python train.py &\n"}
    ),
    Example(  # a batch job's output, background jobs included, goes to its log (no terminal, no nohup.out)
        {
            "submit.sh": "sbatch job.sh\n",
            "job.sh": "#!/bin/bash\n#SBATCH --output=slurm-%j.out\nnohup python monitor.py &\npython train.py & disown\nwait\n",
        }
    ),
    Example(  # so does a PBS or LSF job's, and only the submission's messages reach the terminal
        {
            "submit.sh": "qsub -l select=1 job.pbs\nnohup qsub -v LR=1 job.pbs &\nbsub < job.lsf & disown\nsetsid -f bsub -n 4 ./job.lsf\n",
            "job.pbs": "#!/bin/bash\n#PBS -o logs/\nnohup python monitor.py &\npython train.py & disown\nwait\n",
            "job.lsf": "#BSUB -o job.%J.out\nnohup python monitor.py &\npython train.py\n",
        }
    ),
    Example(  # a submitted job's output goes to the log its scheduler keeps: only the submission's reaches the terminal
        {
            "submit.sh": (
                "nohup ray job submit --no-wait --working-dir . -- python train.py &\n"
                "setsid -f ray job submit --no-wait --working-dir . -- python eval.py\n"
                'nohup sbatch --wrap "python train.py" &\n'
                "nohup sbatch --parsable -N 2 job.sh &\n"
                "setsid -f sbatch job.sh\n"
                "sbatch job.sh & disown\n"
                "nohup bash -c 'cd /work && sbatch job.sh' &\n"
            ),
            "job.sh": "#!/bin/bash\n#SBATCH --output=slurm-%j.out\npython train.py\n",
        }
    ),
]


PANE_LOST = (
    "nothing logs this detached {name} {made}: when the job dies, its {pane} closes with the "
    "traceback; end the command with `2>&1 | tee logs/job.log`, or {keep}"
)
KEEP_PANE = {"tmux": "set `remain-on-exit on`", "screen": "use `screen -L`"}
NOHUP_OUT = (
    "`nohup` with no redirection appends this job's output to a `nohup.out` in whatever "
    "directory it starts in; redirect it: `nohup cmd > logs/job.log 2>&1 &`"
)
NOHUP_OVER_SSH = (
    "`nohup` under `ssh` with no terminal sends this job's output back over the connection: ssh waits "
    "for the job, and once it closes, the job's next write fails; redirect it: `nohup cmd > logs/job.log 2>&1 &`"
)
EXEC_DETACHED = (
    "`{name} exec -d` attaches this job's output to nothing (`{name} logs` shows only the container's "
    "main process); redirect it inside: `bash -c 'cmd > /w/logs/job.log 2>&1'`"
)
TYPED_LOST = (
    "nothing logs this job typed into a tmux pane, and a line typed there after it closes the pane, "
    "traceback included; end the job with `2>&1 | tee logs/job.log`"
)
TERMINAL_GONE = (
    "{how} detaches this job from the terminal it still writes to: once the terminal closes, "
    "its output goes nowhere; redirect it to a file (`> logs/job.log 2>&1`)"
)


def check(project) -> Iterator[Finding]:
    for path, script in project.shell.items():
        # a launcher's log, or the job's log of a batch script sbatch, qsub or bsub submits (`#SBATCH --output`)
        captured = any(c.captures_output or c.kind in SUBMITTERS for c in project.graph.callers(path))
        pane_kept = _keeps_panes(script)
        for command in script.commands:
            windows = _detached_windows(script, command)
            if windows:
                lost = [
                    (window, started)
                    for window, started in windows
                    if _new_session(command, window, pane_kept) and not _kept(project, window) and not _monitor(window)
                ]
                if lost:
                    pane = "pane" if command.name == "tmux" else "window"
                    started = next((s for _, s in lost if s is not None), None)
                    related = () if started is None else (Related(started, "the script starts that session detached here, and attaches to it nowhere"),)
                    made = _made(command, lost[0][0])
                    yield Finding(command.location, PANE_LOST.format(name=command.name, made=made, pane=pane, keep=KEEP_PANE[command.name]), related)
                elif closer := next(filter(None, (_closed_after_job(project, script, command, w) for w, _ in windows)), None):
                    what = closer.name if closer.name in CLOSES_SHELL else f"tmux {closer.args[0].value}"
                    closes = Related(closer.location, f"`{what}` closes the pane here")
                    yield Finding(command.location, TYPED_LOST, (closes,))
            elif command.detaches and command.name in ("docker", "podman"):  # `exec -d`: whatever the script's capture
                if not _output_kept(project, command):
                    yield Finding(command.location, EXEC_DETACHED.format(name=command.name))
            elif command.background and not captured and _unkept_background(project, command):  # `setsid -f` too
                nohup = (NOHUP_OVER_SSH if _over_ssh(command) else NOHUP_OUT) if command.name == "nohup" else None
                yield Finding(command.location, nohup or TERMINAL_GONE.format(how="`setsid`"))
        if not captured:
            for job in _disowned(script):
                if not _output_kept(project, job):
                    yield Finding(job.location, TERMINAL_GONE.format(how="`disown`"))


# Wrappers that give the command its stdout: a connection, a pane, a container's.
_OUTPUT_WRAPPERS = frozenset({"ssh", "tmux", "screen", "docker", "podman", "kubectl", "pct", "lxc", "srun"})


def _over_ssh(command: Command) -> bool:
    """The command's stdout is an `ssh` connection with no terminal (`ssh gpu2 "nohup python t.py
    &"`): nohup(1) writes no `nohup.out` when stdout is no terminal (helper-334)."""
    outer = next((w for w in reversed(command.wrappers) if w.kind in _OUTPUT_WRAPPERS), None)
    return outer is not None and outer.kind == "ssh" and not outer.terminal


def _detached_windows(script: ShellScript, command: Command) -> list[tuple[list[Command], Location | None]]:
    """The commands of each detached window a tmux or screen command opens, in order: one tmux
    command opens several when `;` words part its commands (`new -d ... \\; new-window -d ...`).
    With each, where the script started its session detached, for a window opened without `-d`
    into that session (`_started_detached`); None for one opened with `-d`."""
    if command.name not in ("tmux", "screen") or not command.inner:
        return []
    windows: dict[int, tuple[list[Command], Location | None] | None] = {}  # by wrapper; None: not detached
    for inner in _descendants(command):
        wrapper = next((w for w in inner.wrappers if w.command is command), None)
        if wrapper is None:
            continue  # a `>(tee f.log)` beside the window's command
        if id(wrapper) not in windows:
            started = None if wrapper.detached or command.name != "tmux" else _started_detached(script, command, inner)
            windows[id(wrapper)] = ([], started) if wrapper.detached or started is not None else None
        if (window := windows[id(wrapper)]) is not None:
            window[0].append(inner)
    return [window for window in windows.values() if window is not None]


def _started_detached(script: ShellScript, tmux: Command, inner: Command) -> Location | None:
    """Where the script started, detached, the session that a `new-window` or `split-window`
    without `-d` opens its pane in (`-t S`, `S:1`): `tmux new-session -d -s S` before it, on the
    same tmux server, and no `attach-session` (`attach`, `a`) or `switch-client` there after that,
    before the window or after it. No client shows that session, so the pane is as unwatched as
    with `-d` (code-act's run_all.sh). The same session: the same static name, or a target written
    from the very characters the `-s` word was (one variable's value, set once: `-s $S` ... `-t $S`)."""
    words = _tmux_words_of(tmux, inner)
    sub = words[0].value if words else None
    if sub not in NEW_PANE - NEW_SESSION:
        return None
    at = tmux_option([w.value for w in words[1:]], sub, "t")
    if at is None:
        return None
    target, server, started = words[at + 1], tmux_server(tmux), None
    for command in script.commands:
        if command.name != "tmux" or tmux_server(command) != server:
            continue
        for one in _tmux_commands(command):
            name = one[0].value or ""
            if name in NEW_SESSION and one[0].location < words[0].location and new_pane_detached(one):
                named = tmux_option([w.value for w in one[1:]], name, "s")
                if named is not None and _same_session(script, target, one[named + 1]):
                    started = one[0].location
            elif started is not None and name and ("attach-session".startswith(name) or name in ("switch-client", "switchc")):
                return None  # a client shows the session
    return started


def _same_session(script: ShellScript, target: Word, named: Word) -> bool:
    """Whether a `-t` (a session, or a window of it: `S:1`) names the session a `-s` word names."""
    if target.value is not None and named.value is not None:
        return _session_name(target.value) == named.value
    written, name = script.written(target), script.written(named)
    rest = target.text[len(named.text) :]
    return named.value is None and written[: len(name)] == name and target.text.startswith(named.text) and rest[:1] in ("", ":", ".")


# Programs that show what others do (a log, the GPUs): a pane of them runs no job whose reason could be lost.
MONITORS = frozenset({"tail", "watch", "nvidia-smi", "nvtop", "nvitop", "gpustat", "htop", "top", "btop", "glances", "less", "multitail"})


def _monitor(window: list[Command]) -> bool:
    """Whether a window only watches (`tmux new -d "tail -f logs/train.log"`, `watch -n 60
    nvidia-smi`): nothing it runs is a job."""
    return all(command.name in MONITORS for command in window)


def _new_session(command: Command, window: list[Command], pane_kept: bool) -> bool:
    """Whether the window is a new pane (not keys sent to one) that nothing keeps open or logs."""
    if command.name == "tmux":
        values = _tmux_command_of(command, window[0])
        every = {w.value for w in command.args}
        return bool(values) and values[0] in NEW_PANE and not pane_kept and not KEEPS_PANE & every
    return not SCREEN_LOG & {w.value for w in command.args}


def _made(command: Command, window: list[Command]) -> str:
    """What the command makes to run the job in: a tmux session, window or pane; screen's session."""
    if command.name != "tmux":
        return "session"
    values = _tmux_command_of(command, window[0])
    return "session" if values[0] in NEW_SESSION else "pane" if values[0] in ("split-window", "splitw") else "window"


def _tmux_command_of(tmux: Command, inner: Command) -> list[str | None]:
    """The words' values, from its name on, of the one of tmux's commands that runs `inner`."""
    return [w.value for w in _tmux_words_of(tmux, inner)]


def _tmux_words_of(tmux: Command, inner: Command) -> list[Word]:
    """The words, from its name on, of the one of tmux's commands that runs `inner`."""
    start = (inner.location.line, inner.location.column)
    opening = [c for c in _tmux_commands(tmux) if (c[0].location.line, c[0].location.column) <= start]
    return opening[-1] if opening else []


def _tmux_commands(tmux: Command) -> list[list[Word]]:
    """The words of each of tmux's commands: tmux's own options (`-L sock`) come first, `;` words
    part its commands."""
    words = tmux.args
    i = 0
    while i < len(words) and (words[i].value or "").startswith("-"):
        i += 2 if words[i].value in TMUX_GLOBAL_VALUED else 1
    commands: list[list[Word]] = [[]]
    for word in words[i:]:
        if word.value == ";":
            commands.append([])
        else:
            commands[-1].append(word)
    return [c for c in commands if c]


def _closed_after_job(project, script: ShellScript, tmux: Command, window: list[Command]) -> Command | None:
    """The line typed later into the pane's shell that closes it (`exit`, `tmux kill-session`),
    when the window is keys `send-keys` typed there that run a job keeping no output: the shell
    would have kept the pane open when the job ended. The same pane: the same `-t` as the front
    end resolves it (`Wrapper.pane`), on the same tmux server."""
    if not _sends_keys(tmux, window[0]):
        return None
    jobs = [c for c in window if is_long_running(c) or project.graph.invocation(c) is not None]
    if not jobs or _kept(project, window):
        return None
    pane = next(w for w in window[0].wrappers if w.command is tmux).pane
    server = tmux_server(tmux)
    session = _session_of(script, pane, server, jobs[0])
    for typed in script.commands:
        into = typed.wrappers[-1] if typed.wrappers else None
        if (
            into is not None
            and into.kind == "tmux"
            and into.pane == pane
            and typed.location > jobs[0].location
            and _sends_keys(into.command, typed)
            and tmux_server(into.command) == server
            and _closes(typed, pane, session)
        ):
            return typed
    return None


def _sends_keys(tmux: Command, inner: Command) -> bool:
    return (_tmux_command_of(tmux, inner) or [None])[0] in SEND_KEYS


def _closes(typed: Command, pane: str | None, session: str | None) -> bool:
    """Whether a line typed into the shell of `pane` (in `session`, None when not known) closes it."""
    if typed.name in CLOSES_SHELL:
        return True
    values = [w.value for w in typed.args]
    if typed.name != "tmux" or not values:
        return False
    sub, options = values[0], values[1:]
    if sub == "kill-server":
        return True
    if sub not in KILLS or "-a" in options:  # `-a`: every other one
        return False
    if "-t" not in options[:-1]:
        return True  # the shell's own session, window or pane
    target = options[options.index("-t") + 1]
    if target is None:
        return False
    if sub == "kill-session":
        return session is not None and _session_name(target) == session
    return target == pane


def _session_of(script: ShellScript, pane: str | None, server: tuple, job: Command) -> str | None:
    """The session of the pane keys are typed into: the one its `-t` names, or, with none, the one
    the script last created before (`tmux new -s job -d`), where tmux sends keys with no target."""
    if pane is not None:
        return _session_name(pane)
    created = [
        (words[0].location, name)
        for c in script.commands
        if c.name == "tmux" and c.location <= job.location and tmux_server(c) == server
        for words in _tmux_commands(c)
        if words[0].value in ("new-session", "new") and (name := session_named([w.value for w in words[1:]])) is not None
    ]
    named = [name for where, name in sorted(created) if where < job.location]
    return named[-1] if named else None


def _session_name(target: str) -> str | None:
    """The session a static target names (`job`, `=job`, `job:0.1`); None for ids and unknown words."""
    name = re.split(r"[:.]", target.removeprefix("="), maxsplit=1)[0]
    return name if name and not set(name) & set("$`%@") else None


def _keeps_panes(script: ShellScript) -> bool:
    """`tmux set -g remain-on-exit on`, `tmux pipe-pane ...` anywhere in the script."""
    return any(c.name == "tmux" and KEEPS_PANE & {w.value for w in c.args} for c in script.commands)


def _unkept_background(project, command: Command) -> bool:
    """`nohup cmd &` / `setsid cmd &` writing to the terminal it came from."""
    if command.name not in ("nohup", "setsid") or command.stdout.kind != INHERIT:
        return False
    if command.name == "setsid" and any(c.name == "nohup" for c in _descendants(command)):
        return False  # reported as the nohup it runs
    return not _output_kept(project, command)


def _disowned(script: ShellScript) -> Iterator[Command]:
    """The background job each `disown` releases: the most recent one in the same shell (not one
    `setsid -f` or `docker exec -d` starts: no job of the shell's)."""
    last: Command | None = None
    for command in script.commands:
        if command.background and not command.detaches and not any(w.command.background for w in command.wrappers):
            last = command
        elif command.name == "disown" and last is not None and last.wrappers == command.wrappers:
            if last.name not in ("nohup", "setsid") and last.stdout.kind == INHERIT:
                yield last  # nohup and setsid jobs are reported as such
            last = None


def _output_kept(project, command: Command) -> bool:
    return _kept(project, [command, *command.pipeline, *_descendants(command)])


def _kept(project, commands: list[Command]) -> bool:
    """Something keeps what the job (these commands) prints: a file, a tee, the script's own log,
    a live pane. A command or script we cannot see counts as keeping it (precision over recall),
    a script only as the last job: one before it (`source .venv/bin/activate && torchrun ...`,
    `. conda.sh`) sets the job up, and is not the job."""
    group = list({id(c): c for c in commands}.values())
    if any(files_written(c.stdout) or c.stdout.kind == SUBMITTED for c in group):  # a job's log its scheduler keeps
        return True
    jobs = [c for c in group if not c.is_wrapper]
    for job in jobs:
        # `nohup sbatch job.sh &`: its log is the scheduler's; a command not known here, the job's
        # last (not `$conda activate fs` before it)
        if job is jobs[-1] and (job.name is None and not runs_by_variable(job) or submits_job(job)):
            return True
        if _logs_workers(job):
            return True
        invocation = project.graph.invocation(job)
        if invocation is not None and invocation.kind == "shell":
            callee = project.shell.get(invocation.callee or "")
            if (callee is None and job is jobs[-1]) or (callee is not None and keeps_own_log(callee)):
                return True
    return bool(jobs) and _keeps_pane_alive(jobs[-1])


def _logs_workers(command: Command) -> bool:
    """torchrun writes its workers' stderr to files (`--redirects 3`/`2`, `--tee`, per rank `0:3`),
    in `--log-dir` or a directory of its own: their tracebacks are kept."""
    launch = launch_of(command)
    if launch is None or launch.launcher != "torchrun":
        return False
    return any(_STDERR_KEPT.search(word.value or "") for name in ("redirects", "r", "tee", "t") if (word := launch.options.get(name)))


def _keeps_pane_alive(command: Command) -> bool:
    """`...; bash`, `...; read`, `...; sleep infinity`: the pane outlives the job."""
    return command.name in KEEP_ALIVE or (command.name in SHELLS and not command.args)


def _descendants(command: Command) -> list[Command]:
    """The commands nested in `command`, in the order they run: by where they are written, and
    those written at one place (a variable's commands, `bash -c "$cmd"`) in their order there."""
    found: dict[int, Command] = {}
    stack = command.inner[::-1]
    while stack:
        current = stack.pop()
        if id(current) not in found:
            found[id(current)] = current
            stack.extend(current.inner[::-1])
    return sorted(found.values(), key=lambda c: (c.location.line, c.location.column))
