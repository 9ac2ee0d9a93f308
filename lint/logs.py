"""Log sinks: where a script's output ends up, and when two log paths are one path drifted."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from .graph import Resolver, is_long_running
from .launches import option_values, runs_python
from .lazyre import lazy
from .model import Location, Record
from .paths import shown
from .shellfacts import FILE, INHERIT, PIPE, PROCSUB, SUBSHELL, Command, Redirect, ShellScript, Sink, Word

# Digits are tokens of their own, so flex4/flex5, v2/v3, run7/run8 and dates differ in one.
_TOKENS = lazy(r"\d+|[A-Za-z]+|[^A-Za-z\d]+")


class LogSink(Record):
    """A file a script writes its output to, and the command or `exec` that writes it."""

    path: Word
    command: Command
    how: str  # "exec", "redirect" or "option" (a wrapper's: `srun -o train.log`)
    redirect: Redirect | None = None

    @property
    def defaults(self) -> frozenset[str]:
        """The names whose defaults the path was made from, which a caller may set instead."""
        return self.command.defaults_of(self.path)


def own_redirect(command: Command, sink: Sink) -> Redirect | None:
    """The redirect, written on this command or a wrapper around it, that set up `sink`."""
    for scope in (command, *(w.command for w in reversed(command.wrappers))):
        for redirect in scope.redirects:
            if redirect.location == sink.location:
                return redirect
    return None


def exec_sinks(script: ShellScript) -> list[LogSink]:
    """`exec >file` (and `exec 2>file`) in the script itself, not in a nested string."""
    return [
        LogSink(redirect.target, command, "exec", redirect)
        for command, redirect in _own_exec_redirects(script)
        if not redirect.procsub and redirect.op.startswith((">", "&")) and redirect.target.value != "/dev/null"
    ]


def exec_teed(script: ShellScript) -> list[LogSink]:
    """The files the process substitution of an `exec > >(tee -a train.log) 2>&1` writes (LL102's
    own advice): the script's logs, as `exec > train.log`'s file is, though its output also goes on."""
    sinks = []
    for command, redirect in _own_exec_redirects(script):
        if redirect.procsub and redirect.op.startswith((">", "&")):
            sink = _procsub_of(command, redirect)
            sinks += [LogSink(word, command, "exec", redirect) for word in (sink.file_targets() if sink is not None else ())]
    return sinks


# Programs that take their input away from the terminal (to syslog, the journal) and print nothing.
SWALLOWERS = frozenset({"logger", "systemd-cat"})


def exec_swallowed(script: ShellScript) -> list[LogSink]:
    """`exec >/dev/null`, and `exec > >(...)` into a process substitution that does not pass the
    output on to the script's own stdout: `>(tee -a log > /dev/null)`, `>(cat >> log)`,
    `>(logger -t train)`. No log of the script's, but nothing reaches its caller either."""
    sinks = []
    for command, redirect in _own_exec_redirects(script):
        sink = _procsub_of(command, redirect)
        if (redirect.op.startswith((">", "&")) and redirect.target.value == "/dev/null") or (
            redirect.procsub and sink is not None and sink.procsub and all(
                c.stdout.kind != INHERIT or c.name in SWALLOWERS for c in sink.procsub
            )
        ):
            sinks.append(LogSink(redirect.target, command, "exec", redirect))
    return sinks


def _procsub_of(command: Command, redirect: Redirect) -> Sink | None:
    """The stream of an `exec` that its redirect sends into a process substitution (`> >(tee log)`)."""
    return next((s for s in (command.stdout, command.stderr) if s.kind == PROCSUB and s.location == redirect.location), None)


def _own_exec_redirects(script: ShellScript) -> Iterator[tuple[Command, Redirect]]:
    """The redirects with a target of the `exec` commands the script itself runs: not in a
    nested string, not in a function nothing calls, and not one the script undoes before its job
    runs: `( exec > setup.log 2>&1; pip install . )` ends with its subshell, and `exec 3>&1; exec
    > setup.log; ...; exec 1>&3` restores the stream. Undone after a long-running command ran
    with it, it still took that command's output from the caller."""
    shell = [c for c in script.exec_redirects() if not c.wrappers and not script.in_uncalled_function(c.location)]
    for command in shell:
        for redirect in command.redirects:
            if redirect.target is not None and (
                not _undone(shell, command, redirect) or _job_under(script, redirect.location)
            ):
                yield command, redirect


def _undone(shell: list[Command], command: Command, redirect: Redirect) -> bool:
    """The script's shell ends with the stream elsewhere: the `exec` is in a subshell, or the
    last `exec` of the shell leaves neither stream where this redirect sent it."""
    if any(block.kind == SUBSHELL for block in command.blocks):
        return True
    last = next(c for c in reversed(shell) if not any(block.kind == SUBSHELL for block in c.blocks))
    return redirect.location not in (last.stdout.location, last.stderr.location)


def _job_under(script: ShellScript, where: Location) -> bool:
    """A long-running command writes to the stream that the redirect at `where` set up."""
    return any(
        is_long_running(c) and where in (c.stdout.location, c.stderr.location) for c in script.effective_commands()
    )


def redirected_long_runners(script: ShellScript) -> list[LogSink]:
    """Long-running commands (python, torchrun, ...) whose own redirect, or a wrapper's option
    (`srun -o`), sends stdout to a file."""
    sinks = []
    around: dict[Location, Redirect] | None = None
    for command in script.effective_commands():
        if command.wrappers and any(w.kind in ("tmux", "screen", "ssh", "pct", "docker", "kubectl") for w in command.wrappers):
            continue
        long_running = is_long_running(command) or runs_python(command)  # `./train.py > log`: by its shebang too
        if not long_running or command.stdout.kind != FILE or script.in_uncalled_function(command.location):
            continue
        redirect = own_redirect(command, command.stdout)
        if redirect is None:  # `{ python t.py; } > log`, `done > log`, `train > log` calling a function
            if around is None:
                around = _around(script)
            redirect = around.get(command.stdout.location)
        if redirect is not None and redirect.target is not None:
            sinks.append(LogSink(redirect.target, command, "redirect", redirect))
        elif any(w.location == command.stdout.location for wrapper in command.wrappers for w in wrapper.command.words):
            sinks.append(LogSink(command.stdout.target, command, "option"))  # `srun -o train.log python t.py`
    return sinks


def _around(script: ShellScript) -> dict[Location, Redirect]:
    """The redirects around commands, by location: after a group, a subshell or a loop, and on
    the calls of the script's functions."""
    found = {r.location: r for redirects, _ in script.compound_redirects for r in redirects}
    for command in script.commands:
        if command.redirects and command.name in script.functions:
            found.update((r.location, r) for r in command.redirects)
    return found


def downstream(sink: Sink) -> tuple[list[Command], Sink]:
    """The later stages of the pipeline a stream goes through, and where the last one's output
    goes (`python t.py | grep -v warn > run.log`: `grep`, and run.log)."""
    readers: list[Command] = []
    seen: set[int] = set()
    while sink.kind == PIPE and sink.reader is not None and id(sink) not in seen:
        seen.add(id(sink))
        readers.append(sink.reader)
        sink = sink.reader.stdout
    return readers, sink


def files_written(sink: Sink) -> list[Word]:
    """The files a stream ends up in: its redirect's file, or, down the pipeline, what `tee`
    writes and where the last stage's output goes (`python t.py | grep -v warn > run.log`)."""
    readers, end = downstream(sink)
    files = [word for reader in readers for word in reader.tee_targets()]
    if end.kind == FILE and end.target is not None:
        files.append(end.target)
    elif end.kind == PROCSUB:
        files.extend(end.file_targets())
    return files


def is_log_capture(project, command: Command) -> bool:
    """The command's stdout is kept in a file named like a log, not like a result (`> hosts.json`),
    or split from its stderr into a file named alike (`split_logs`). A file whose template is one
    expansion and nothing else, no name of its own, is named by the variable the script expanded
    there: `> $LOG_FILE` is a log by the variable's name whether LOG_FILE is never set (its
    template is `$LOG_FILE`) or set to the script's argument (`LOG_FILE=$7`: `$7`, set by LOG_FILE:
    `ShellScript.expansions`)."""
    return any(
        looks_like_log(w.text) or looks_like_log(_expanded_name(project, w)) for w in files_written(command.stdout)
    ) or bool(split_logs(command))


# The words that tell a command's stdout file from its stderr file, as written in their names.
_STREAM_WORDS = ([("out", "err")], [("stdout", "stderr")])


def split_logs(command: Command) -> list[Word]:
    """The two files the command's stdout and stderr go to when their names differ only by a word
    saying which stream each holds (`> outs/my_out_$i 2> outs/my_err_$i`, `stdout_7`/`stderr_7`):
    a program's streams kept apart are its logs, whatever else the names say. Else none."""
    out, err = command.stdout.target, command.stderr.target
    if command.stdout.kind != FILE or command.stderr.kind != FILE or out is None or err is None:
        return []
    a, b = out.text.lower(), err.text.lower()
    if posixpath.dirname(a) != posixpath.dirname(b):
        return []
    left, right = _TOKENS.findall(posixpath.basename(a)), _TOKENS.findall(posixpath.basename(b))
    differing = [(x, y) for x, y in zip(left, right) if x != y]
    return [out, err] if len(left) == len(right) and differing in _STREAM_WORDS else []


def file_name(project, word: Word) -> str:
    """How a message names a file a stream goes to: as written, or by the variable the script
    expanded there when the value has no name of its own (`$LOG_FILE`, not the `$7` it was set to)
    or is too long to read in a message (`> ${LOGFILE}` set to a template of five `$(...)`)."""
    name = _expanded_name(project, word) or (_whole_expansion(project, word) if len(word.text) > LONG_NAME else "")
    return f"${name}" if name else shown(_as_written(project, word) or word.text)


def _as_written(project, word: Word) -> str:
    """The word as the line writes it, quotes removed, when its value holds arithmetic a variable
    was set to (`> work_logs/train_$PORT.log` with PORT=${PORT:-$((RANDOM % 40000 + 20000))}: the
    message names `train_$PORT.log`, and a fix that pastes it rolls no other number), or a script
    argument (`> $task.log` with task=$1: not `$1.log`, which the line does not say); else "". A
    command's output stays as the value has it (`logs/$(date +%F)/run.log` says what the name is)."""
    at = word.location
    if word.value is not None or not ("$((" in word.template or _ARGUMENT.search(word.template)) or at.line != at.end_line:
        return ""
    index = project.index(at.path)
    start = index.offset(at.line, at.column)
    written = index.text[start : start + at.end_column - at.column].replace('"', "").replace("'", "")
    # not a lone expansion (`eval $cmd`'s words stand at `$cmd`, where the line says nothing of them)
    return written if "$" in written and "$(" not in written and "`" not in written and not _NAMELESS.fullmatch(written) else ""


LONG_NAME = 60  # characters: a longer file name is named by the variable it is the value of
_ARGUMENT = lazy(r"\$\{?[0-9]")  # a script argument in a word's template: `$1`, `${2}`


def _expanded_name(project, word: Word) -> str:
    """The name of the variable whose value the word is, when that value has no name of its own
    (`LOG_FILE` for the `$7` of `LOG_FILE=$7`), else ""."""
    if word.value is not None or not _NAMELESS.fullmatch(word.template) or not word.origin:
        return ""
    return _set_by_name(project, word, word.origin[0])


def _whole_expansion(project, word: Word) -> str:
    """The name of the variable whose whole value the word is, written as one expansion (`$LOG`,
    `"${LOG}"`), else "": every character comes from that expansion, and it spans the word as
    written, not one of the words `eval $cmd` splits a value into."""
    text, origin, at = word.text, word.origin, word.location
    if len(origin) <= len(text) or at.end_line != at.line or any(o != origin[0] for o in origin[1 : len(text)]):
        return ""
    width = at.end_column - at.column  # past the word: its closing quote, or the expansion's end
    return _set_by_name(project, word, origin[0]) if origin[len(text)] - origin[0] in (width, width - 1) else ""


def _set_by_name(project, word: Word, offset: int) -> str:
    script = project.shell.get(word.location.path)
    set_by = script.expansions.get(offset) if script is not None else None
    return set_by.name if set_by is not None else ""


# A template with no name of its own: one expansion, with no default (`$7`, `${1}`, `$@`, `$(mktemp)`).
_NAMELESS = re.compile(r"\$(?:[A-Za-z_]\w*|[0-9@*]|\{[A-Za-z_0-9@*]\w*\}|\([^()]*\))")


def keeps_own_log(script: ShellScript) -> bool:
    """The script sends its job's output to a file itself: `exec >log`, or its long-running
    command redirects or tees."""
    return bool(exec_sinks(script)) or any(
        is_long_running(c) and files_written(c.stdout) for c in script.effective_commands()
    )


def written_paths(script: ShellScript) -> list[Word]:
    """Every file the script writes output to: redirect targets and tee arguments."""
    words = []
    for command in script.commands:
        for redirect in command.redirects:
            if redirect.target is not None and not redirect.procsub and not redirect.op.startswith("<"):
                words.append(redirect.target)
        words.extend(command.tee_targets())
    return words


def handed_logs(script: ShellScript) -> list[Word]:
    """Log files the script names to a long-running program as an option's value
    (`python train.py --log_file logs/run2.log`, `--log-path=...`): the program may write them."""
    words = []
    for command in script.effective_commands():
        if not is_long_running(command):
            continue
        args = command.args
        for i, word in enumerate(args):
            text = word.value or ""
            if text.startswith("--") and "=" in text:
                value = text.partition("=")[2]
                if looks_like_log(value):
                    words.append(Word(value, value, word.location))
            elif text.startswith("-") and i + 1 < len(args) and args[i + 1].value and looks_like_log(args[i + 1].value):
                words.append(args[i + 1])
    return words


def normalise(path: str) -> str:
    return posixpath.normpath(path) if path else path


def drifted(a: str, b: str) -> bool:
    """Same directory, same name but for run/version tokens (flex4/flex5, v2/v3, a date)."""
    a, b = normalise(a), normalise(b)
    if a == b or posixpath.dirname(a) != posixpath.dirname(b):
        return False
    left = _TOKENS.findall(posixpath.basename(a))
    right = _TOKENS.findall(posixpath.basename(b))
    if len(left) != len(right):
        return False
    differing = [i for i, (x, y) in enumerate(zip(left, right)) if x != y]
    return bool(differing) and all(
        left[i].isdigit() and right[i].isdigit() and left[i + 1 : i + 2] not in _SIZES for i in differing
    )


# A number with one of these after it is a size (`llama2-7b`/`-70b`, `resnet-50m`), not a run: two
# models' logs, not two runs of one.
_SIZES = [[unit] for unit in ("b", "B", "m", "M", "k", "K")]


# `G_3_gram.fst.txt`, `words.csv.txt`: the text form of another format, data rather than a log
# (`train.out.txt` is still one).
_RENDERED = lazy(r"\.(?!(?:out|err)\.)[a-z]{2,5}\.txt$")


# "log" as a word of a name (`train.log`, `log_7.json`, `trainlog`, `logs`, `logfile`), not in a
# word that merely holds the letters: `catalog.csv`, `dialog.json`, `changelog`, `blog`,
# `login.sh`, `logits.npy`, `topology.json`; nor the logarithm of a quantity (`log_probs.json`,
# `log_likelihood.csv`, HurtfulWords' `..._log_score_significance.txt`: a statistics table).
_LOG_WORD = re.compile(
    r"(?<!cata)(?<!dia)(?<!change)(?<!back)(?<!b)(?<!ana)(?<!pro)(?<!epi)(?<!mono)"
    r"log(?:(?:s|ging|files?)(?![a-z])|(?![a-z]|[_-](?:prob|likelihood|lik(?![a-z])|softmax|odds|densit|ratio|score)))"
)


# A word of a name that calls the file a program's result, read after the run (`ifeval_res_result.txt`,
# `scores.txt`, `eval_res/`'s `res.txt`, `accuracy.txt`, `pairwise_acc.txt`, `${model}_auc.txt`),
# not a word that holds the letters (`resultant.txt`, `scoreboard.txt`, `res50_train.txt`: ResNet-50);
# a program's answers or predictions too (a challenge entry's `answers.txt`, `preds.txt`: awni/ecg).
_RESULT_WORD = lazy(r"(?<![a-z])(?:results?|scores?|metrics?|accuracy|accs?|auc|res(?!\d)|answers?|preds?|predictions?|avg|average|means?|stats?|statistics)(?![a-z])")


# A directory of scores: what goes in is one (`scores/$MODEL.txt`); a `results/` directory holds
# logs as often as tables (`results/train.txt`), so it says nothing
_SCORES_DIRECTORY = lazy(r"(?<![a-z])(?:scores?|metrics?|accuracy|answers?|preds?|predictions?)(?![a-z])")


def looks_like_log(path: str) -> bool:
    """A file named like a log: one its name calls a log (`named_log`), or a `.txt` unless it
    renders another format (`P.fst.txt`, which `kaldilm` writes to its stdout) or its name calls
    it a result (`ifeval_res_result.txt`, `scores.txt`: `_RESULT_WORD`), or its directory's a
    directory of scores (Bunny's `eval/seed-bench/scores/$MODEL.txt`: `_SCORES_DIRECTORY`)."""
    directory, name = posixpath.split(path.lower())
    return named_log(path) or (
        name.endswith(".txt")
        and _RENDERED.search(name) is None
        and _RESULT_WORD.search(name) is None
        and _SCORES_DIRECTORY.search(posixpath.basename(directory)) is None
    )


def named_log(path: str) -> bool:
    """A file its name calls a log: `.log`, `.out`, `.err`, `.stdout`, `.stderr`, `.nohup` (xLAM's
    `nohup_files/$env.nohup`, what `nohup` would have written to `nohup.out`), the word `log` in
    its name, or a name with no extension in a directory of logs (`logs/run_$DESC`). A `.txt`
    (`train.txt`) is taken for a log only when nothing says it is data."""
    directory, name = posixpath.split(path.lower())
    if name.endswith((".out", ".err", ".stdout", ".stderr", ".nohup")) or ("log" in name and _LOG_WORD.search(name)):
        return True
    return "." not in name and "log" in directory and _LOG_WORD.search(posixpath.basename(directory)) is not None


# --- log paths a trainer takes from its config ------------------------------------------------

CONFIG_FLAGS = ("--config", "--config-file", "--config_file")


class LogPlace(Record):
    """Where a program's log goes, as one side of a drift: a file, or the directory a trainer
    writes its logs into (a config's `log_dir`). `said` names it in a message."""

    path: Word
    said: str  # "start.sh writes x.log", "exp.yaml's log_dir is runs/exp7"
    directory: bool = False

    def holds(self, path: str) -> bool:
        """`path` is this log, or a file under this log directory."""
        mine, other = normalise(self.path.text), normalise(path)
        return other == mine or (self.directory and other.startswith(mine.rstrip("/") + "/"))

    def drifted_from(self, path: str) -> bool:
        """`path` names this log (or a file in this directory) with another run/version token."""
        return drifted(posixpath.dirname(normalise(path)) if self.directory else path, self.path.text)


def _shape(path: str) -> tuple[str, str]:
    """Directory and name with digit runs blanked: two paths can only be drifted copies of each
    other when their shapes are equal (see `drifted`)."""
    path = normalise(path)
    return posixpath.dirname(path), re.sub(r"\d+", "#", posixpath.basename(path))


class LogPlaces:
    """Log places indexed by name and by shape, so a lookup costs the same in a project of 10 or
    10,000 logs (`holds` and `drifted_from` of every place, without trying every place)."""

    def __init__(self, places: list[LogPlace]):
        self.names = {normalise(place.path.text) for place in places}
        self.directories = {normalise(place.path.text) for place in places if place.directory}
        self.by_shape: dict[tuple[str, str], list[LogPlace]] = {}
        for place in places:
            self.by_shape.setdefault(_shape(place.path.text), []).append(place)

    def holds(self, path: str) -> bool:
        path = normalise(path)
        if path in self.names:
            return True
        ancestor = posixpath.dirname(path)  # a directory place holding this file, at any depth
        while ancestor not in ("", "/", "."):
            if ancestor in self.directories:
                return True
            ancestor = posixpath.dirname(ancestor)
        return False

    def drifted_from(self, path: str) -> LogPlace | None:
        files = self.by_shape.get(_shape(path), [])
        directories = [p for p in self.by_shape.get(_shape(posixpath.dirname(normalise(path))), []) if p.directory]
        return next((p for p in files + directories if p.drifted_from(path)), None)


def config_places(project, resolver: Resolver, caller: str, command: Command) -> list[LogPlace]:
    """The log paths of the YAML config a trainer is started with (`--config x.yaml`)."""
    if not is_long_running(command):
        return []
    places = []
    for word in _config_arguments(command):
        config = resolver.resolve(word, caller, remote=command.remote)
        for setting in project.configs.get(config or "", []):
            said = f"{config}'s {setting.key} is `{setting.path.text}`"
            places.append(LogPlace(setting.path, said, setting.is_directory))
    return places


def _config_arguments(command: Command) -> list[Word]:
    """The values of `--config x.yaml` and `--config=x.yaml`."""
    return [word for _, word in option_values(command, CONFIG_FLAGS)]
