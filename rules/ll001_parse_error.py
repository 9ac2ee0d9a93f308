"""## What it does
Reports a file, or a command string nested inside one (`bash -c "..."`, `ssh host '...'`,
`tmux new-session -d "..."`), that cannot be parsed: one finding per unparseable region, at its
first bad position. Files that cannot be analysed at all are reported too: binary files, invalid
UTF-8 (with the byte offset) in a Python file without a coding declaration or in YAML, and files
over the size limit. The rest of the file, and of the project, is still analysed.

## Why is this bad?
A launcher with a quoting mistake in a nested string fails on the remote host, after the `ssh`
returned 0 and the tmux session was created, so nothing on your screen says it failed. A script
saved with Windows line ends looks right in your editor and stops with `syntax error near
unexpected token` on the cluster. And launchlint cannot check what it cannot parse: its other
rules are blind in that region.

## Example
```bash
ssh gpu1 'cd /work/project && tmux new-session -d "python -u train.py 2>&1 | tee log.txt'
```

## Use instead
```bash
ssh gpu1 'cd /work/project && tmux new-session -d "python -u train.py 2>&1 | tee log.txt"'
```

## Details
- Shell is parsed with tree-sitter-bash. Where it reports an error, launchlint asks `bash -n`
  (which parses without running anything) and stays silent when bash accepts the file. Where bash
  stops on an earlier line than tree-sitter-bash (which reads `--port <node1_port>` at the end of
  a line as a redirection and goes on), the finding is on bash's line, in bash's words. A file
  with `\\ #` in it is asked of `bash -n` too: tree-sitter-bash reads a comment there, bash an
  escaped blank and then the comment's words as arguments (`--name="x" \\ # the name (see
  docs)` is a syntax error at the `(`; without one the command just ends there, which no rule
  reports yet).
- The shell reads and runs a script one command at a time, so it never reads past a top-level
  `exit` (or an `exec` that runs a command and replaces it): an error on a later line is none,
  and those lines are not analysed (a self-extracting script's payload, the C source Xdummy keeps
  after its `exit $?`). An `exit` in an `if`, a function, a subshell or an `&&`/`||` list may not
  run, and one on the error's own line comes too late: bash parses the whole line first.
- A closing word with nothing to close (a second `done`, `fi`, `esac`, `}`, or a `then` outside
  an `if`) is an error too: tree-sitter-bash takes it for a command of that name, bash refuses the
  whole file ("syntax error near unexpected token `done'").
- A nested string with parts launchlint cannot evaluate (`${MAX}`, a script's argument) is read
  as written and gets no LL001: their values may complete it. But not one that an inner `"`
  ended early: a double-quoted string over several lines with an unquoted word glued to its end
  (`bash -c "` ... `echo "step one"` ... `"`, where the `"` before `step` ends the script inside
  its loop) is judged as a static one is, and the message names that quote: escape it as `\\"`.
- A variable not known spliced into the single quotes of a nested string (`ssh n "bash -c 'echo
  $HEAD'"`) stands there as `${HEAD}`, its value's text to the inner shell, when what it was set
  to holds a `'` (`HEAD=$(awk '{print $1}' hosts)`): those quotes are the assignment's, and would
  end the inner quotes. A known value is spliced as it is: `HEAD="it's"` there is an LL001.
- bash exits 0 from `-n` after a bad `[[ ... ]]` (`*"TEST"*]]`, the `]]` glued to the word) yet
  prints "syntax error in conditional expression": that counts as refusing it.
- Windows line ends (CRLF): such a script is asked of `bash -n` even though tree-sitter-bash reads
  each carriage return as a blank, because bash reads it as part of the word before it: `then\\r`
  or `fi\\r` is no keyword, and `((i++))\\r` has a stray word after it. Only a file bash refuses is
  reported (a script of plain commands still runs), at bash's line, or, when bash only says the
  file ended too soon, at the first line that ends in a keyword and a carriage return. It is one
  finding, with a `dos2unix` hint when bash accepts the file with its line ends converted (not a
  Python file saved as `.sh`), also where tree-sitter-bash finds an error of its own: every
  later `do\\r` is the same cause, not a region of its own.
- Several regions: bash stops at the first error; the line it stops at is then blanked (its bytes
  made spaces) and bash asked again, and each line it refuses in turn is one more region (up to 10
  a unit), blanked too. When bash still stops at or before a line once it is blank and the line
  belongs to a command continued by trailing backslashes (`A=<PATH> \\` then `(e.g., /a.txt)`,
  whose blank leaves a `>` with no file), the whole continued command is blanked instead. Once
  bash accepts what is left, an assignment whose value starts with a redirection that bash reads
  (`B=<PATH> \\ ` with a blank after the backslash, `C=<Specify path>/x`) is blanked as well,
  without a finding of its own: tree-sitter-bash cannot read it and would fold the lines after
  it into it. The unit is then read without those lines, so the commands after a
  placeholder (`CKPT=<path>`, which tree-sitter-bash reads as a redirection taking the next line
  for its file) are checked like any other. A line whose error is an opening or closing word
  without its other half (a stray `fi`, an unclosed quote, `for f in <files>; do`, whose blank
  would leave `done` alone) is not blanked: the regions end there.
- A shell script is read byte for byte and a declared Python encoding is honoured, as bash and
  Python run them: a Latin-1 comment is no error.
- Not bash: a zsh script (its `#!` line, or a `.zsh` file) is read for its commands, but its
  syntax is not bash's to judge: no LL001 for it (`${(kv)tasks}` is zsh). A csh, tcsh or fish
  script (its `#!` line, else a `.csh`, `.tcsh` or `.fish` name) is not analysed at all: its
  language is not bash's (`foreach`, `setenv`, `|&`, `set -x VAR`), so its commands read as
  bash's would be misread. A one-line warning on stderr says so for a file the user named, as
  ShellCheck refuses such a script (SC1071); a launcher that runs one (`csh job.csh`) still
  gets LL303 when it is missing.
- Templates: a YAML file with a Helm or Jinja action outside quotes and comments
  (`{{ .Release.Name }}`, `{{- if ... }}`, `{% set ... %}`) is YAML only once rendered: its parse
  error is no LL001. Nor is a Python file's syntax error on a line with such an action (a
  cookiecutter template's `class {{cookiecutter.model}}Config:`), nor a YAML parse that stops at a
  `%NAME%` placeholder a script fills in with `sed` (`image: %IMAGE%`: brain-tokyo-workshop's
  Kubernetes specs, weather4cast's configs), or right after a `{name}` field a program's
  `str.format` fills in (`test_path: {src_dir}/deps/test.py`: mvfst-rl's experiments.yml, which
  YAML reads as a flow mapping and then refuses); a `%` that starts no such word still is
  (`a: %x`), and so is a flow mapping of more than a name (`a: {x: 1}/y`).
- Python is parsed with the `ast` of the Python that runs launchlint. Code written for a newer
  Python is valid too, so where this interpreter stops at a newer version's syntax (PEP 695's
  `type X = ...` and `def f[T]()`, PEP 701's f-strings (a quote or a backslash in braces, a
  replacement field that goes on to the next line, comments in it; a reused quote where this
  Python stops at what follows it, with another message, when the file parses with that f-string
  in three quotes), PEP 758's `except A, B:`, PEP 750's
  `t"..."`), the file gets no LL001: a one-line warning on stderr says it was not analysed, and
  which Python would read it. Run launchlint on that Python (or later) to have it analysed.
  `except A, B:` is also Python 2's `except ValueError, err:`: the file is taken for Python
  3.14's only when it parses with those clauses parenthesized; an unterminated f-string, for
  Python 3.12's only when it parses with its replacement fields joined to its line. A Python 2
  file that has other Python 2 (`print "done"`) gets LL001 at its first error, as any Python 2
  file does.
"""

from __future__ import annotations

from collections.abc import Iterator

from launchlint.model import Finding, Severity
from launchlint.rulekit import Example

CODE = "LL001"
NAME = "parse-error"
SEVERITY = Severity.ERROR
SUMMARY = "A file or a nested command string cannot be parsed"

INVALID = [
    Example(  # `\ #` escapes a blank, not a comment: bash reads the note's words and refuses its `(`
        {"ft.sh": '#!/bin/bash\npython t.py --dataset_name="cv" \\ # the dataset (match it)\n  --lr 1\n', "t.py": "print(1)\n"},
        ["LL001 ft.sh:2"],
    ),
    Example(  # an `exit` that may not run does not end what the shell reads; nor one on the error's line
        {
            "run.sh": '#!/bin/bash\nif [ -z "$X" ]; then exit 1; fi\nthis is ( not shell\n',
            "go.sh": "#!/bin/bash\ntrue || exit 1\nbash -c 'echo hi; exit 0; int main( { }'\n",
        },
        ["LL001 go.sh:3", "LL001 run.sh:3"],
    ),
    Example({"run.sh": "#!/bin/bash\necho start\nif [ -f x ]; then\n  echo y\n"}, ["LL001 run.sh:5"]),
    Example(
        {"launch.sh": "#!/bin/bash\nssh gpu1 'tmux new-session -d \"python t.py | tee log.txt'\n"},
        ["LL001 launch.sh:2"],
    ),
    Example(  # two regions, valid commands between: one finding each, where bash stops at the first
        {"setup.sh": "#!/bin/bash\nexport HF_TOKEN=<hf_token>\necho one\necho two\nexport BUCKET=<your_bucket>\necho three\necho four (\n"},
        ["LL001 setup.sh:2", "LL001 setup.sh:5", "LL001 setup.sh:7"],
    ),
    Example(  # placeholders on consecutive lines, each a region; a loop's opening line ends them
        {"pretrain.sh": "CKPT=<Specify path>\nVOCAB=<vocab file>\npython t.py\nfor f in <files>; do\n  echo $f\ndone\nX=<y>\n"},
        ["LL001 pretrain.sh:1", "LL001 pretrain.sh:2", "LL001 pretrain.sh:4"],
    ),
    Example(  # placeholders continued onto a line bash refuses: each continued command is a region
        {"gen.sh": "#!/bin/bash\nA=<PATH_A> \\\n        (e.g., /a.txt)\nB=<PATH_B> \\\n        (e.g., /b.txt)\n\npython x.py --a ${A} --b ${B}\n"},
        ["LL001 gen.sh:3", "LL001 gen.sh:5"],
    ),
    Example(  # `\\ ` with a blank after it ends a loop's list; the continued words bash then refuses are one region (gft)
        {"run.sh": "#!/bin/bash\nfor m in a \\\nb \\ \nc \\\nd \\\ne\ndo\n  echo $m\ndone\n"},
        ["LL001 run.sh:4"],
    ),
    Example(  # a placeholder on each of two lines of one continued command: two (ms-swift's server_multi_node.sh)
        {"go.sh": "#!/bin/bash\nswift rlhf \\\n  --host <node1_ip> <node2_ip> \\\n  --port <p1> <p2> \\\n  --lr 1\n"},
        ["LL001 go.sh:3", "LL001 go.sh:4"],
    ),
    Example(  # a stray `fi` (for `done`): blanking it would leave the loop open, a second error of bash's making
        {"align.sh": "for f in a b; do\n  echo $f\nfi\necho end\n"},
        ["LL001 align.sh:3"],
    ),
    Example({"train.py": "def main(:\n    pass\n"}, ["LL001 train.py:1"]),
    Example(  # an f-string left open, a `{` in it on its line: Python 3.12 refuses it too
        {"train.py": "name = 1\nx = f\"a {\nname} and\ny = 2\n", "eval.py": "name = 1\nx = f\"a {name\n"},
        ["LL001 train.py:2", "LL001 eval.py:2"],
    ),
    # Parenthesis-less `except` is Python 3.14's, but not with `as`: no Python parses this.
    Example({"train.py": "try:\n    run()\nexcept OSError, ValueError as error:\n    pass\n"}, ["LL001 train.py:3"]),
    # Python 2: `except ValueError, err:` is no Python 3.14 where the file has other Python 2
    Example(
        {"old.py": 'def main():\n    try:\n        run()\n    except ValueError, err:\n        log(str(err))\n    print "done"\n'},
        ["LL001 old.py:4"],
    ),
    Example({"ci.yaml": "jobs:\n  a: [1, 2\n"}, ["LL001 ci.yaml:3"]),
    Example(  # a line with no colon where a key is scanned (a merge's conflict marker): that line, not the next
        {"cfg.yaml": "lr: 0.03\n<<<<<<< HEAD\nnet: a\n=======\nnet: b\n>>>>>>> branch\n"}, ["LL001 cfg.yaml:2"]
    ),
    # a template's text in quotes does not make a file a template: the error is the file's
    Example({"eval.yaml": 'prompt: "Q: {{ question }}"\ntasks: [a, b\n'}, ["LL001 eval.yaml:3"]),
    Example({"sub.yaml": "out: %notaplaceholder\n"}, ["LL001 sub.yaml:1"]),
    Example({"sub.yaml": "a: 1\nout: {x: 1}/y\n"}, ["LL001 sub.yaml:2"]),
    Example({"render.py": 'template = "{{ name }}"\nprint(template.format(name=1)\n'}, ["LL001 render.py:2"]),
    # `]]` glued to the word: bash -n exits 0 here, but says "syntax error in conditional expression"
    Example({"eval.sh": '#!/bin/bash\nif [[ "$DS" == *"TEST"*]]; then\n  echo skip\nfi\n'}, ["LL001 eval.sh:2"]),
    Example(  # an inner `"` ends the string (`"...echo "step`): bash -c's script stops in the loop, whatever ${MAX} is
        {"job.sh": '#!/bin/bash\nsrun bash -c "\nwhile [ \\$i -le ${MAX} ]; do\n  echo "step one"\n  python t.py\n'
                   'done\n"\n'},
        ["LL001 job.sh:4"],
    ),
    Example(  # a known value is its text in the inner string's quotes: its own `'` ends them, as it does at run time
        {"head.sh": "#!/bin/bash\nHEAD=\"it's\"\nssh node1 \"bash -c 'echo ${HEAD}'\"\n"},
        ["LL001 head.sh:3"],
    ),
    Example(  # Windows line ends: `then\r` is no keyword to bash, nor is `((...))\r` a whole command
        {
            "cond.sh": '#!/bin/bash\r\nif [ -n "$X" ]; then\r\n  python train.py\r\nfi\r\n',
            "port.sh": "#!/bin/bash\r\nPORT=1\r\n((PORT=RANDOM%10000+40000))\r\necho $PORT\r\n",
            # one finding also where tree-sitter-bash errs too (the line after `--mu=0.01`, no `\`, is a command of its own)
            "sweep.sh": (
                "for alg in fedavg fedprox\r\ndo\r\n  python main.py --alg=$alg \\\r\n    --mu=0.01\r\n"
                "    --lr=0.1 --beta=0.5\\\r\n    --seed=$alg \r\ndone\r\n"
            ),
        },
        ["LL001 cond.sh:2", "LL001 port.sh:3", "LL001 sweep.sh:2"],
    ),
]

VALID = [
    Example(  # never read: what follows a top-level `exit` (a payload, C source) or `exec` of a command
        {
            "vendor/Xdummy": "#!/bin/sh\necho 'setting up'\nexit $?\n\ncode() {\nint main(void) { return 0; }\n}\n",
            "run.sh": '#!/bin/bash\nexec python -u train.py "$@"\nthis is ( not shell\n',
        }
    ),
    Example({"run.sh": "#!/bin/bash\r\nset -e\r\npython train.py --lr 3e-4\r\n"}),  # CRLF, yet bash runs it
    Example(  # CircleCI's `<< parameters.x >>` is a value CircleCI puts in, not a heredoc
        {
            ".circleci/config.yml": (
                "version: 2.1\njobs:\n  build:\n    parameters:\n      cuda:\n        type: string\n"
                "    machine: true\n    steps:\n      - run:\n          command: |\n"
                "            docker build . --build-arg CUDA=<< parameters.cuda >>\n            docker run img:gpu\n"
            )
        }
    ),
    Example({"run.sh": "#!/bin/bash\nfor ((i=0; i<3; i++)); do\n  [[ $i -gt 1 ]] && echo \"$((i * 2))\"\ndone\n"}),
    Example({"launch.sh": "#!/bin/bash\nssh gpu1 'tmux new-session -d \"python t.py | tee log.txt\"'\n"}),
    Example(  # unknown parts and no word glued to a string's end: the values may complete it (README)
        {"job.sh": '#!/bin/bash\nsrun bash -c "\nwhile [ \\$i -le ${MAX} ]; do\n  echo \\"step one\\"\n"\n'}
    ),
    Example(  # a value not known stands in an inner string's single quotes as `${HEAD}`, not as the quotes it was set with
        {
            "ray.sh": "#!/bin/bash\nHEAD=$(awk '{print $1}' hosts)\nssh node1 \"bash -c 'echo ${HEAD}'\"\n",
            "sub.sh": "#!/bin/bash\nHEAD=`awk '{print $1}' hosts`\nbash -c \"sh -c 'echo $HEAD'\"\n",
        }
    ),
    Example(  # a word glued to a string on one line, or to a multi-line string that parses, is a plain word
        {
            "one.sh": '#!/bin/bash\nbash -c "if [ -n ${X} ]; then echo "yes\n',
            "tag.sh": '#!/bin/bash\nbash -c "\ncd ${DIR}\npython t.py --tag "v1\n',
        }
    ),
    Example(  # `;` words part tmux's commands: no shell string of their own
        {"tmux.sh": "#!/bin/bash\ntmux new -d -s job \\; send-keys 'python -u t.py' Enter\ntmux new -d ';' splitw -h ';' selectp -t 0\n"}
    ),
    # Python 3.12: valid, whichever Python runs launchlint (an older one warns it did not analyse it)
    Example({"buffer.py": "type Batch = dict[str, list[int]]\n\ndef first[T](items: list[T]) -> T:\n    return items[0]\n"}),
    Example({"log.py": "row = {\"loss\": 0.5}\nprint(f\"{row[\"loss\"]:.3f}\")\n"}),
    Example(  # a reused quote where Python 3.11 stops at what follows it, with another message (bsl1k's `%04d`)
        {
            "frames.py": "import os\n\nd = 'x'\nprint(f\"{os.path.join(d, \"img%04d.png\")}\")\n",
            "msg.py": "n = {}\nprint(f\"{n.get(\"it's\")}\")\n",
        }
    ),
    Example(  # a replacement field that goes on to the next line (PEP 701), in a `"` and a `'` f-string
        {"log.py": "name = 'x'\nprint(f\"value: {\n    name}\")\nprint(f'{name} and {\n    \"g\" if name else \"t\"} {{x}}')\n"}
    ),
    Example(  # and a comment in such a field, to its line's end
        {"log.py": "steps = 10\nprint(f\"done: {\n    steps  # the optimizer's\n    * 2}\")\n"}
    ),
    # Python 3.14: `except` with exception types not in parentheses (PEP 758)
    Example(
        {
            "retry.py": (
                "import os\n\ntry:\n    os.remove('x')\nexcept FileNotFoundError, os.error:\n    pass\n\n"
                "try:\n    raise ExceptionGroup('g', [OSError()])\nexcept* OSError, ValueError:\n    print('done')\n"
            )
        }
    ),
    # Helm and Jinja templates are YAML once rendered, not before
    Example(
        {
            "chart/templates/job.yaml": (
                "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}-train\n"
                "spec:\n  template:\n    spec:\n      containers:\n      - name: train\n"
                "        {{- with .Values.resources }}\n        resources:\n          {{- toYaml . | nindent 10 }}\n"
                "        {{- end }}\n"
            ),
            "recipe/meta.yaml": '{% set version = "1.0" %}\npackage:\n  version: {{ version }}\n',
            "{{cookiecutter.slug}}/configuration.py": "class {{cookiecutter.model}}Config:\n    pass\n",
            "k8s/deploy_master.yaml": "spec:\n  containers:\n  - image: %IMAGE%\n    replicas: %REPLICA%\n",
            "train/experiments.yml": "meta:\n  base_dir: {src_dir}\n  test_path: {src_dir}/deps/test.py\n",
        }
    ),
]


def check(project) -> Iterator[Finding]:
    for location, message in project.errors:
        yield Finding(location, message)
