"""## What it does
Finds a relative script or log path in a command that runs in another working directory than
the script that starts it: a command run over `ssh` (the remote home), in a container with
`docker exec`, `kubectl exec` or `pct exec` (the container's directory), typed into an existing
tmux pane, submitted to Ray without `--working-dir`, or put into a crontab.

## Why is this bad?
`ssh gpu1 'python train.py > train.log'` works from the directory you tested it in, and from
nowhere else: on the remote side `train.py` is looked up in the home directory, where it does
not exist (the job dies at once, silently, since its error went to `train.log`), or where an
old copy does exist and runs instead of the one you just edited.

## Example
```bash
ssh gpu1 'nohup python -u train.py > train.log 2>&1 &'
```

## Use instead
```bash
ssh gpu1 'cd /work/project && nohup python -u train.py > train.log 2>&1 &'
```

## Details
Where the command runs:
- `ssh host 'cmd'`, or a heredoc the remote shell reads (`ssh host <<'EOF'`, `ssh host bash -s
  <<EOF`): the remote login directory (usually `$HOME`); also gcloud's ssh (`gcloud compute ssh
  VM --command CMD`, `gcloud compute tpus tpu-vm ssh TPU --worker=all --command CMD`);
- `pct exec`, `docker exec` without `-w`, `kubectl exec`: the container's working directory;
- `tmux send-keys` into a pane this script did not create, or `tmux respawn-pane`/`respawn-window`
  there without `-c`: whatever directory that pane is in (each Enter ends a line the pane's shell
  runs: `send-keys 'cd /w' Enter 'python t.py' Enter` runs `python t.py` in `/w`);
- `ray job submit -- CMD` with no `--working-dir` (nor a runtime environment, which may name
  one): the job's directory on the cluster, where the script's files were never uploaded (CMD is
  a command line /bin/sh runs there: `-- OMP_NUM_THREADS=8 python train.py` runs `train.py`);
- crontab lines that an `echo` or `printf` pipes into `crontab -` (`(crontab -l; echo "*/5 * * *
  * bash watch.sh") | crontab -`): cron runs each line's command from the home directory. A
  crontab given as a file, or as a heredoc, is not read.

A log is a file LL106 takes for one by its name, or a job's stdout and stderr kept apart in two
files named alike but for the stream's word (`> my_out_1 2> my_err_1`).

Not reported:
- paths after a `cd` in the same command string;
- files that are not logs, by LL106's names: a result (`> scores.json`, `> eval_results.txt`);
- paths into a repository a script of the project clones (`git clone URL proj` on the host, then
  `bash proj/infra/run.sh`);
- paths the same script copied to that host before, with `scp` or `rsync` to a directory under
  the remote home (`scp x.py gpu1:proj/tools/`, `rsync -a ./ gpu1:~/job/`, then `ssh gpu1
  'python proj/tools/x.py'`; Google Cloud's `gcloud compute scp` and `gcloud compute tpus tpu-vm
  scp x.py vm:proj/ --worker=all`, then its `ssh vm --command "..."`): a path under that directory, or, for a copy into the home itself
  (`scp train.py gpu1:`), under what it copies (`train.py`). The host is the same word in both
  (`gpu1`, `ubuntu@gpu1`), or the same variable in the same time round a loop (`for h in ...; do
  scp x.py $h:proj/; ssh $h ...`; the ssh may be in a loop inside it, not in one over the
  variable's own values). A copy to an absolute directory (`gpu1:/opt/proj/`) leaves the home's
  paths reported;
- `docker exec` in a script that starts its container with `docker run -w DIR`;
- `send-keys` into panes the script creates itself, and a local `tmux new-session` without `-c`,
  which starts in the caller's directory;
- the command of a `docker run`, which starts in the image's working directory, made for it;
- a directory the user names (`mpirun -wdir`, `conda run --cwd`, `singularity exec --pwd`), also
  inside the remote command (`ssh gpu1 'docker exec -w /w c1 ...'`, `ssh gpu1 "tmux new-session
  -c /w ..."`).

## References
- ssh(1): the command runs in the user's login shell, in their home directory; docker exec(1),
  `--workdir`; tmux(1), `send-keys`; Ray's job submission guide: local files reach the cluster
  through `--working-dir` (`runtime_env.working_dir`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from launchlint.front.wrappers import SSH_VALUED, after_options
from launchlint.graph import DIRECTORY_CHANGERS, script_of
from launchlint.logs import looks_like_log, split_logs
from launchlint.model import Finding, Location, Record, Severity
from launchlint.rulekit import Example
from launchlint.shellfacts import LOOP, Command, ShellScript, Word, Wrapper

CODE = "LL108"
NAME = "remote-relative-path"
SEVERITY = Severity.WARNING
SUMMARY = "A relative path in a command that runs in another directory (ssh, docker/pct/kubectl exec)"

WHERE = {
    "ssh": "on the remote host, in the login directory",
    "pct": "inside the container, in its working directory",
    "docker": "inside the container, in its working directory",
    "kubectl": "inside the pod, in its working directory",
    "tmux": "in whatever directory the existing tmux pane is in",
    "ray": "on the Ray cluster, where no `--working-dir` was uploaded",
    "cron": "from cron, in the home directory",
}
NEW_PANE = {"new-session", "new", "new-window", "neww", "split-window", "splitw"}

INVALID = [
    Example(  # a job's stdout and stderr kept apart, in files named alike but for the stream's word: logs
        {"deploy.sh": "ssh gpu1 'python3 /w/train.py > my_out_1 2> my_err_1'\n"},
        ["LL108 deploy.sh:1", "LL108 deploy.sh:1"],
    ),
    Example(  # ssh's options in a variable named for them: the host, then the command
        {"deploy.sh": "ssh $SSH_OPTS gpu1 'python3 -u train.py'\n"},
        ["LL108 deploy.sh:1"],
    ),
    Example(  # crontab lines: cron runs them from the home directory
        {
            "install_cron.sh": (
                '(crontab -l; echo "*/5 * * * * bash scripts/watch.sh >> /var/log/watch.log 2>&1") | crontab -\n'
                "printf '%s\\n' '@reboot /opt/venv/bin/python -u serve.py' | crontab -u ml -\n"
            )
        },
        ["LL108 install_cron.sh:1", "LL108 install_cron.sh:2"],
    ),
    Example(  # options after the host are ssh's, not the command's first words
        {"deploy.sh": "ssh gpu1 -p 2222 -t 'python3 -u train.py'\n"},
        ["LL108 deploy.sh:1"],
    ),
    Example(
        {"deploy.sh": "ssh gpu1 'nohup python train.py > train.log 2>&1 &'\n"},
        ["LL108 deploy.sh:1", "LL108 deploy.sh:1"],
    ),
    Example(  # containers, without a working directory
        {
            "deploy.sh": (
                "pct exec 200 -- bash start.sh\ndocker exec trainer python train.py\n"
                "kubectl exec -it pod-0 -- bash -c 'python /w/train.py | tee run.log'\n"
            )
        },
        ["LL108 deploy.sh:1", "LL108 deploy.sh:2", "LL108 deploy.sh:3"],
    ),
    Example(  # keys typed into a pane this script did not start, a command restarted in one
        {"attach.sh": "tmux send-keys -t train 'bash start.sh' Enter\ntmux respawn-pane -k -t train 'bash start.sh'\n"},
        ["LL108 attach.sh:1", "LL108 attach.sh:2"],
    ),
    Example(  # gcloud's ssh to a TPU VM's workers
        {"tpu.sh": 'gcloud compute tpus tpu-vm ssh tpu1 --zone us-east5-a --worker=all \\\n  --command="python3 train.py"\n'},
        ["LL108 tpu.sh:2"],
    ),
    Example(  # a Ray job with no working directory uploaded; its command line is /bin/sh's, `VAR=1` a variable
        {
            "submit.sh": (
                "ray job submit --address http://head:8265 -- python train.py --epochs 3\n"
                "ray job submit --address http://head:8265 -- OMP_NUM_THREADS=8 python train.py --epochs 3\n"
            )
        },
        ["LL108 submit.sh:1", "LL108 submit.sh:2"],
    ),
    Example(  # a heredoc the remote shell reads as its script
        {"remote.sh": "ssh gpu1 <<'EOF'\npython -u train.py > t.log 2>&1\nEOF\nssh gpu1 bash -s <<EOF\nbash run.sh\nEOF\n"},
        ["LL108 remote.sh:2", "LL108 remote.sh:2", "LL108 remote.sh:5"],
    ),
    Example(  # the second line typed into a pane: each Enter runs one
        {"keys.sh": "tmux send-keys -t job 'echo start' Enter \\\n  'python -u train.py > /w/t.log' Enter\n"},
        ["LL108 keys.sh:2"],
    ),
    Example(  # copied to another directory, under the root, to another host, or in another loop than the ssh's
        {
            "probe.sh": (
                "scp tools/probe.py gpu1:proj/other/\nssh gpu1 'python3 -u proj/tools/probe.py'\n"
                "scp tools/probe.py gpu2:/opt/proj/tools/\nssh gpu2 'python3 -u proj/tools/probe.py'\n"
                "rsync -a tools gpu3:proj/\nssh gpu4 'python3 -u proj/tools/probe.py'\n"
                "for h in $(cat a.txt); do scp tools/probe.py $h:proj/tools/; done\n"
                "for h in $(cat b.txt); do ssh $h 'python3 -u proj/tools/probe.py'; done\n"
                "scp tools/probe.py $h:proj/tools/\nfor h in gpu1 gpu2; do ssh $h 'python3 -u proj/tools/probe.py'; done\n"
                "gcloud compute scp tools/probe.py vm1:proj/other/ --zone z\n"
                "gcloud compute ssh vm1 --zone z --command 'python3 -u proj/tools/probe.py'\n"
            )
        },
        ["LL108 probe.sh:2", "LL108 probe.sh:4", "LL108 probe.sh:6", "LL108 probe.sh:8", "LL108 probe.sh:10", "LL108 probe.sh:12"],
    ),
    Example(  # keys typed into a pane by a nested shell (or a function), run by a later Enter: the pane is tmux's, not a shell's
        {
            "nested.sh": "bash -c \"tmux send-keys -t a 'python a.py'\"\ntmux send-keys -t a Enter\n",
            "remote.sh": "ssh gpu1 \"tmux send-keys -t b 'python b.py'\"\nsleep 1\nssh gpu1 'tmux send-keys -t b C-m'\n",
            "function.sh": "start() { tmux send-keys -t c 'python c.py'; }\nstart\ntmux send-keys -t c Enter\n",
        },
        ["LL108 function.sh:1", "LL108 nested.sh:1", "LL108 remote.sh:1"],
    ),
]

VALID = [
    Example(  # a result the remote command writes is no log, a `.json` or a `.txt` its name calls one
        {"eval.sh": "ssh gpu1 'python /w/eval.py > scores.json'\nssh gpu1 'python /w/eval.py > eval_results.txt'\n"}
    ),
    Example(  # keys typed into a pane on one host, an Enter sent to a pane of that name on another
        {"hosts.sh": "ssh gpu1 \"tmux send-keys -t b 'python b.py'\"\nssh gpu2 'tmux send-keys -t b Enter'\n"}
    ),
    Example(  # crontab lines that `cd` first or name absolute paths; a comment, a setting, a file
        {
            "install_cron.sh": (
                'echo "SHELL=/bin/bash\n# nightly\n0 3 * * * cd /w && bash scripts/nightly.sh > logs/n.log 2>&1" | crontab -\n'
                'echo "@daily /w/scripts/clean.sh" | crontab -\ncrontab crontab.txt\necho "0 1 * * * bash x.sh" > jobs.txt\n'
            )
        }
    ),
    Example(  # OpenSSH reads options after the host too: the command is the `cd ... &&` string
        {"deploy.sh": 'ssh gpu1 -t "cd /w && python -u train.py > train.log 2>&1"\nssh gpu2 -- "cd /w && bash run.sh"\n'}
    ),
    Example(  # what the script copied to that host's home just before: the same host word, or the same loop variable
        {
            "probe.sh": (
                "for h in gpu1 gpu2; do\n  scp ~/proj/tools/probe.py $h:proj/tools/\n"
                '  ssh $h "python3 -u proj/tools/probe.py" > probe_$h.log 2>&1 &\ndone\nwait\n'
                "scp train.py ubuntu@gpu3:\nssh ubuntu@gpu3 'python3 -u train.py'\n"
                "gcloud compute tpus tpu-vm scp train.py tpu1:proj/ --worker=all --zone z\n"
                'gcloud compute tpus tpu-vm ssh tpu1 --worker=all --zone z --command "python3 -u proj/train.py"\n'
                'gcloud compute scp --recurse tools vm2:~ && gcloud compute ssh vm2 --command="python3 -u tools/probe.py"\n'
                "rsync -az --delete ./ gpu4:~/job/\nssh -p 22 gpu4 'bash job/run.sh > job/logs/run.log 2>&1'\n"
                # the same host each time round the copy's loop, in a loop inside it
                "hosts=($(cat hosts.txt)); i=0\nwhile [ $i -lt ${#hosts[@]} ]; do\n"
                "  scp -i k.pem tools/probe.py u@${hosts[i]}:proj/tools/\n"
                "  for j in 0 1; do ssh -i k.pem u@${hosts[i]} \"CUDA_VISIBLE_DEVICES=$j python3 proj/tools/probe.py\" & done\n"
                "  i=$((i+1))\ndone\n"
            )
        }
    ),
    Example(  # into the repository the project's setup script clones in the remote home
        {
            "infra/setup.sh": "git clone https://example.org/acme/proj.git\ngit clone --depth 1 \"$REPO\" lev\n",
            "deploy.sh": (
                "ssh gpu1 'bash -s' < infra/setup.sh\nssh gpu1 'bash proj/infra/train.sh > /tmp/train.log'\n"
                "ssh gpu1 'bash lev/infra/run.sh'\n"
            ),
        }
    ),
    Example(
        {
            "deploy.sh": (
                "ssh gpu1 'cd /w && nohup python train.py > train.log 2>&1 &'\n"
                "ssh gpu1 'python /w/train.py > /w/train.log 2>&1'\n"
                "docker exec -w /app trainer python train.py\n"
                "ssh gpu1 nvidia-smi > gpus.log\n"
                "pct exec 200 -- bash -c 'cd /root && bash start.sh'\n"
                'docker exec box bash -o pipefail -c "echo hi"\n'  # `pipefail` is the option's name
                'gcloud compute ssh vm1 --command="cd ~/w && python3 train.py"\n'
                "gcloud compute scp train.py vm1:~/w/\n"
                "tmux respawn-pane -k -c /w -t train 'python train.py > train.log 2>&1'\n"  # `-c`: a known directory
            )
        }
    ),
    Example(  # the script starts the container in a known working directory
        {"ci.sh": "docker run -d --name t -w /workdir img sleep infinity\ndocker exec t python tests/run.py\n"}
    ),
    Example(  # an image's command, and a Ray job that uploads this directory
        {
            "run.sh": (
                "docker run --rm --gpus all img python train.py > train.log\n"
                "ray job submit --address http://head:8265 --working-dir . -- python train.py\n"
            )
        }
    ),
    Example(  # local tmux starts in this script's directory
        {
            "launch.sh": (
                "tmux new-session -d -s train 'python train.py 2>&1 | tee train.log'\n"
                "tmux send-keys -t train 'python eval.py' Enter\n"
            )
        }
    ),
    Example(  # the remote script `cd`s first; a heredoc that is data, not a script
        {
            "remote.sh": (
                "ssh gpu1 <<'EOF'\ncd /w && python -u train.py > t.log 2>&1\nEOF\n"
                "ssh gpu1 'cat > /w/notes' <<'EOF'\npython train.py > t.log\nEOF\n"
            )
        }
    ),
    Example(  # a wrapper on the remote host names the directory: the container's `-w`, the pane's `-c`
        {
            "remote.sh": (
                "ssh gpu1 'docker exec -w /w c1 python -u train.py > /w/t.log'\n"
                "ssh gpu1 \"tmux new-session -d -s n -c /w 'python -u eval.py > e.log 2>&1'\"\n"
                "tmux send-keys -t n 'cd /w' Enter 'python -u test.py > t.log 2>&1' Enter\n"
            )
        }
    ),
]


def check(project) -> Iterator[Finding]:
    for script in project.shell.values():
        # Read when a command first runs elsewhere: most scripts have none (-28 M instructions of 520 on
        # the 1,000-file benchmark, with the loop of _elsewhere).
        known: dict[str, bool] | None = None
        # The remote commands in which a `cd` already ran, kept as the script is read: looking
        # back over every earlier command was quadratic.
        moved: set[int] = set()
        copies: list[Copy] = []  # what the script copied to another host so far (`scp x.py gpu1:proj/`)
        for command in script.commands:
            if (command.name in COPIERS or _gcloud(command, "scp") is not None) and (copy := _copy(command, script)) is not None:
                copies.append(copy)
            elsewhere = _elsewhere(command)
            changed = elsewhere is not None and id(elsewhere.command) in moved
            if command.name in DIRECTORY_CHANGERS:
                moved.update(id(w.command) for w in command.wrappers)
            if elsewhere is None or changed:
                continue
            if known is None:
                known = {"tmux": _creates_panes(script), "docker": _starts_container_in_workdir(script)}
            if known.get(elsewhere.kind):
                continue
            for word in relative_paths(command):
                if word.value.split("/", 1)[0] in project.made.clones:
                    continue  # into the repository a script of the project clones there: `git clone URL proj`
                if copies and elsewhere.command.name in ("ssh", "gcloud") and any(
                    c.made(word.value) and c.to(elsewhere.command, script) for c in copies
                ):
                    continue  # what the script copied there: `scp x.py gpu1:proj/`, then `ssh gpu1 'python proj/x.py'`
                yield Finding(
                    word.location,
                    f"`{word.value}` is relative, but this runs {WHERE.get(elsewhere.kind, 'elsewhere')}, "
                    f"not in this script's directory: use an absolute path or `cd` first",
                )


COPIERS = frozenset({"scp", "rsync"})


def _gcloud(command: Command, sub: str) -> list[Word] | None:
    """The words after `gcloud compute [tpus tpu-vm] SUB` (`scp`, `ssh`: Google Cloud's VMs and
    TPU VMs), options among them; None for another command."""
    if command.name != "gcloud":
        return None
    values = [w.value for w in command.words]
    if sub not in values or "compute" not in values[: values.index(sub)]:
        return None
    return command.words[values.index(sub) + 1 :]


class Copy(Record):
    """A copy to a directory under another host's home (`scp x.py gpu1:proj/tools/`, `rsync -a
    data gpu1:`): the host as written, the directory ("" for the home itself), the names of its
    other words that are not options (what it copies); for a host not static (`$h`), the loops
    around it, and the static loop whose variable's words it takes, if one does."""

    host: str
    directory: str
    names: frozenset[str]
    loops: tuple[Location, ...] | None  # None: a static host
    loop: Location | None = None  # of `loop_values`: where the loop names its variable

    def made(self, path: str) -> bool:
        """The relative remote path is the copy's or lies under it: under its directory, or in
        the home, under what it copies (`x.py`, `data/` of `rsync -a data gpu1:`)."""
        path = posixpath.normpath(path)
        if self.directory:
            return path == self.directory or path.startswith(self.directory + "/")
        return path.split("/", 1)[0] in self.names

    def to(self, ssh: Command, script: ShellScript) -> bool:
        """`ssh` logs into the host the copy went to: the same word (`gpu1`, `u@gpu1`), or, for
        one not static (`$h`, `${hosts[i]}`), the same, in the same time round the copy's loops
        (in them, or in a loop inside them: not one over the host's own values)."""
        gcloud = _gcloud(ssh, "ssh")  # `gcloud compute tpus tpu-vm ssh VM --worker=all --command CMD`
        host = [w for w in gcloud if not w.text.startswith("-")][:1] if gcloud is not None else after_options(ssh.args, SSH_VALUED)[:1]
        if not host or host[0].text != self.host:
            return False
        if self.loops is None:
            return True
        loop = script.loop_values.get(host[0].location, (None,))[0]
        return loop == self.loop and _loops(ssh)[: len(self.loops)] == self.loops


def _copy(command: Command, script: ShellScript) -> Copy | None:
    """The copy an `scp` or `rsync` makes to a directory under another host's home: its last
    word `HOST:DIR`, DIR static and relative to the home (`proj/tools/`, `~/proj`, or none);
    not `HOST:/abs`, rsync's `HOST::module` or a URL. gcloud's (`gcloud compute scp x.py vm:proj/
    --zone z`) is its last word with a `:` that is no option's."""
    words = command.args
    gcloud = _gcloud(command, "scp")
    if gcloud is not None:
        plain = [w for w in gcloud if not w.text.startswith("-")]
        at = max((i for i, w in enumerate(plain) if ":" in w.text), default=None)
        words = plain[: at + 1] if at is not None else []
    if not words:
        return None
    *sources, last = words
    host, colon, directory = last.text.partition(":")
    if not colon or not host or "/" in host or any(mark in directory for mark in "$`"):
        return None
    if directory == "~" or directory.startswith("~/"):
        directory = directory[1:].lstrip("/")
    if directory.startswith(("/", "~", ":")):
        return None
    names = frozenset(posixpath.basename(w.text.rstrip("/")) for w in sources if not w.text.startswith("-"))
    directory = "" if posixpath.normpath(directory or ".") == "." else posixpath.normpath(directory)
    if last.value is not None:
        return Copy(host, directory, names, None)
    return Copy(host, directory, names, _loops(command), script.loop_values.get(last.location, (None,))[0])


def _loops(command: Command) -> tuple[Location, ...]:
    return tuple(b.statement for b in command.blocks if b.kind == LOOP)


def relative_paths(command: Command) -> list[Word]:
    """The script a command runs and the logs it writes, where written as relative paths."""
    found = script_of(command)
    paths = [found[1]] if found is not None and found[0] in ("shell", "python") else []
    paths += [r.target for r in command.redirects if r.target is not None and not r.op.startswith("<")]
    paths += command.tee_targets()
    split = split_logs(command)  # `> my_out_7 2> my_err_7`: logs by their pair of names
    return [
        w for w in paths
        if _relative(w.value) and (found is not None and w is found[1] or looks_like_log(w.value) or w in split)
    ]  # fmt: skip


def _relative(value: str | None) -> bool:
    return bool(value) and not value.startswith(("/", "~", "-")) and not value.startswith(">(")


def _elsewhere(command: Command) -> Wrapper | None:
    """The innermost wrapper that moves the command to another working directory; None when a
    wrapper inside it names the directory (`ssh gpu1 "docker exec -w /w c1 ..."`)."""
    for wrapper in reversed(command.wrappers):  # a loop, not a generator: most commands have no wrapper
        if wrapper.cwd_changed:
            return wrapper
        if wrapper.chdir:
            return None
    return None


def _starts_container_in_workdir(script: ShellScript) -> bool:
    """`docker run -w /app ...` in the script: its `docker exec`s start in that directory."""
    for command in script.commands:
        values = [w.value or "" for w in command.args]
        starts = command.name in ("docker", "podman") and values[:1] in (["run"], ["create"])
        if starts and any(v in ("-w", "--workdir") or v.startswith("--workdir=") for v in values):
            return True
    return False


def _creates_panes(script: ShellScript) -> bool:
    """The script starts its own tmux session or window: its panes start in a known place."""
    return any(c.name == "tmux" and c.args and c.args[0].value in NEW_PANE for c in script.commands)
