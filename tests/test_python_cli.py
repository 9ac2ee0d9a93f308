"""The command-line facts of the Python front end (launchlint.front.pycli)."""

from __future__ import annotations

import textwrap

import pytest
from launchlint.front import pycli, pysource
from launchlint.front.pysource import parse_python
from launchlint.parsing import command_lines_read


def facts(source: str):
    return parse_python("prog.py", textwrap.dedent(source).lstrip("\n"))


def test_argparse_parents_helpers_subcommands_and_the_parse_of_argv():
    module = facts(
        """
        import argparse
        import sys


        def common():
            p = argparse.ArgumentParser(add_help=False)
            p.add_argument("--seed", type=int)
            return p


        def add_optim(parser):
            parser.add_mutually_exclusive_group().add_argument("--adam", action="store_true")
            return parser


        def build():
            parser = add_optim(argparse.ArgumentParser(parents=[common()], allow_abbrev=False))
            parser.add_argument("--compile", action=argparse.BooleanOptionalAction)
            sub = parser.add_subparsers(dest="cmd")
            sub.add_parser("train", aliases=["fit"]).add_argument("rest", nargs=argparse.REMAINDER)
            return parser


        def main(argv=None):
            return build().parse_args(argv)


        def not_argv():
            return build().parse_args(["--seed", "1"])
        """
    )
    main = next(p for p in module.parsers if p.parsed_in)
    assert (main.function, main.parsed_in, main.allow_abbrev, main.complete) == ("build", ("main",), False, True)
    assert [o.flags for o in main.options] == [("--adam",), ("--compile",), ("--seed",)]
    assert main.options[1].action == "argparse.BooleanOptionalAction"
    assert list(main.commands) == ["train", "fit"] and main.commands["train"] is main.commands["fit"]
    assert main.commands["train"].options[0].nargs == "argparse.REMAINDER"


def test_subparsers_handed_to_code_not_read_leave_the_subcommands_open():
    """transformers' old `transformers-cli`: `DownloadCommand.register_subcommand(commands_parser)`
    adds subcommands that are not read; `add_parser` on the subparsers itself does not."""
    module = facts(
        """
        from argparse import ArgumentParser

        from pkg.commands import DownloadCommand


        def main():
            parser = ArgumentParser("pkg-cli")
            commands_parser = parser.add_subparsers(help="commands")
            commands_parser.add_parser("env")
            DownloadCommand.register_subcommand(commands_parser)
            parser.parse_args()


        def closed():
            parser = ArgumentParser()
            sub = parser.add_subparsers()
            sub.add_parser("env").add_argument("--x")
            parser.parse_args()
        """
    )
    opened, shut = (next(p for p in module.parsers if p.parsed_in == (name,)) for name in ("main", "closed"))
    assert (list(opened.commands), opened.open_commands) == (["env"], True)
    assert (list(shut.commands), shut.open_commands) == (["env"], False)


def test_a_variable_assigned_one_subcommand_after_another_adds_to_each_in_turn():
    module = facts(
        """
        import argparse

        p = argparse.ArgumentParser()
        sub = p.add_subparsers(dest="cmd", required=True)
        pa = sub.add_parser("drift")
        pa.add_argument("--notebooks-dir", required=True)
        pa = sub.add_parser("convert")
        pa.add_argument("--notebooks-dir", required=True)
        pa.add_argument("--out", required=True)
        pa = sub.add_parser("diff"); pa.add_argument("--snapshot-dir")
        p.parse_args()


        def make_argparse():
            parser = argparse.ArgumentParser(description="made twice: the second is returned")
            parser = argparse.ArgumentParser()
            parser.add_argument("--srcpath", required=True)
            return parser


        if __name__ == "__main__":
            make_argparse().parse_args()
        """
    )
    [made] = [p for p in module.parsers if p.parsed_in and not p.commands]
    assert [o.flags for o in made.options] == [("--srcpath",)]
    [main] = [p for p in module.parsers if p.parsed_in and p.commands]
    flags = {name: [o.flags for o in command.options] for name, command in main.commands.items()}
    assert flags == {
        "drift": [("--notebooks-dir",)],
        "convert": [("--notebooks-dir",), ("--out",)],
        "diff": [("--snapshot-dir",)],
    }


def test_a_variable_given_a_parser_in_each_branch_is_each_of_them_after_the_branches():
    module = facts(
        """
        import argparse
        from opts import add_args


        def local(parser):
            parser.add_argument("--seed")


        p = argparse.ArgumentParser()
        sub = p.add_subparsers(dest="cmd")
        if p.prog:
            sp = sub.add_parser("a")
            sp.add_argument("--a-only")
        elif p.description:
            sp = sub.add_parser("b")
        else:
            sp = sub.add_parser("c")
        add_args(sp)
        sp.add_argument("--lr")
        sd = sub.add_parser("d")
        if p.prog:
            sd = sub.add_parser("e")
        local(sd)
        sg = sub.add_parser("f")
        try:
            sg = sub.add_parser("g")
        except ValueError:
            pass
        sg.add_argument_group("x").add_argument("--x")
        p.parse_args()
        """
    )
    [main] = [p for p in module.parsers if p.parsed_in]
    commands = main.commands
    assert {name: [o.flags[0] for o in c.options] for name, c in commands.items()} == {
        "a": ["--a-only", "--lr"], "b": ["--lr"], "c": ["--lr"], "d": [], "e": ["--seed"], "f": [], "g": ["--x"],
    }  # fmt: skip
    assert {name for name, c in commands.items() if c.handed == (("opts.add_args", 0),)} == {"a", "b", "c"}
    # a local helper (or a group) is read as adding to the one parser the variable holds last:
    # to the other, it may add what is not known
    assert {name for name, c in commands.items() if not c.complete} == {"d", "f"}


def test_add_argument_read_as_a_value_adds_where_it_is_called():
    module = facts(
        """
        import argparse


        def common(add):
            add("--seed", type=int)


        def adder(parser):
            return parser.add_argument


        a = argparse.ArgumentParser()
        b = argparse.ArgumentParser()
        if a.prog:
            add = a.add_argument
        else:
            add = b.add_argument
        add("--lr")
        common(a.add_argument)
        adder(b)("--epochs")
        more = adder(b)
        more("--steps")
        c = argparse.ArgumentParser()
        common(c.add_argument)
        """
    )
    a, b, c = module.parsers
    assert [o.flags[0] for o in a.options] == ["--lr", "--seed"] and a.complete
    assert [o.flags[0] for o in b.options] == ["--lr", "--epochs", "--steps"] and b.complete
    # `common` is read as adding to the first parser it is given: to `c`, it may add what is not known
    assert not c.options and not c.complete


def test_parsers_handed_away_are_incomplete_and_known_args_are_noted():
    module = facts(
        """
        import argparse
        import deepspeed

        class Config:
            def __init__(self):
                self.parser = argparse.ArgumentParser()

        a = argparse.ArgumentParser()
        a = deepspeed.add_config_arguments(a)
        b = argparse.ArgumentParser()
        register(b)
        b.parse_known_args()
        """
    )
    held, added, handed = module.parsers
    # `self.parser = ...`: the project checks that the instance's classes add nothing through it
    assert held.kept_on == ("parser",) and added.complete and not handed.complete and handed.parse_known_args
    assert [o.flags[0] for o in added.options][:2] == ["--deepspeed", "--deepspeed_config"]


def test_a_parser_a_parameter_adds_to_and_a_parameter_that_picks_the_parse():
    """Megatron's `parse_args(extra_args_provider, ignore_unknown_args)`: what its callers pass
    decides (launchlint.programs); not a parameter assigned first, nor a parse outside the `if`."""
    module = facts(
        """
        import argparse

        def parse_args(extra_args_provider=None, ignore_unknown_args=False):
            parser = argparse.ArgumentParser()
            if extra_args_provider is not None:
                parser = extra_args_provider(parser)
            if not ignore_unknown_args:
                args = parser.parse_args()
            else:
                args, _ = parser.parse_known_args()
            return args

        def other(provider=None, known=False):
            parser = argparse.ArgumentParser()
            provider = provider or default_provider
            provider(parser)
            if known:
                parser.parse_known_args()
            parser.parse_args()
        """
    )
    megatron, other = module.parsers
    assert megatron.complete and megatron.provided == (("parse_args", "extra_args_provider", 0),)
    assert megatron.known_if == (("parse_args", "ignore_unknown_args"),) and not megatron.parse_known_args
    assert not other.complete and not other.provided and not other.known_if
    function = module.functions["parse_args"]
    assert function.defaults == ("None", "False") and function.position("ignore_unknown_args") == 1


def test_arguments_unpacked_into_a_call_and_keyword_only_parameters():
    module = facts("def f(a, *rest, b=None, **kw):\n    pass\n\nf(1, *xs, b=2, **more)\nf(1, 2)\n")
    unpacked, plain = module.functions["<module>"].calls
    assert unpacked.unpacks and unpacked.passed("b", -1) == "2" and unpacked.passed("a", 0) is None
    assert not plain.unpacks and plain.passed("a", 0) == "1" and plain.passed("b", -1) is None
    assert module.functions["f"].position("b") == -1 and module.functions["f"].defaults == ("", "None")


def test_hf_dataclasses_click_and_typer():
    module = facts(
        """
        from dataclasses import dataclass, field
        from typing import Annotated, Optional

        import click
        import typer
        from transformers import HfArgumentParser


        @dataclass
        class Args:
            model: str
            fp16: Optional[bool] = field(default=True, metadata={"aliases": ["--half"]})


        hf = HfArgumentParser((Args,))
        (args,) = hf.parse_args_into_dataclasses(return_remaining_strings=True)


        @click.group(context_settings={"ignore_unknown_options": True})
        def cli():
            pass


        @cli.command("fit")
        @click.option("--shout/--no-shout")
        @click.option("--out", required=True, envvar="OUT")
        def train(shout, out):
            pass


        app = typer.Typer()


        @app.command()
        def run(steps: Annotated[int, typer.Option("--steps", "-s")], dry: bool = False):
            pass


        if __name__ == "__main__":
            cli()
            app()
        """
    )
    (field_model, field_fp16) = module.dataclasses["Args"].fields
    assert (field_model.required, field_fp16.boolean, field_fp16.default_true, field_fp16.aliases) == (
        True, True, True, ("--half",)
    )  # fmt: skip
    hf, cli, train, app = module.parsers
    assert (hf.kind, hf.dataclasses, hf.parse_known_args, hf.parsed_in) == ("hf", ("Args",), True, ("<module>",))
    assert (cli.parse_known_args, list(cli.commands), cli.parsed_in) == (True, ["fit"], ("<module>",))
    shout, out = train.options
    assert (shout.flags, shout.dest, shout.action) == (("--shout", "--no-shout"), "shout", "store_true")
    assert not out.required  # an environment variable can give it
    assert [o.flags for o in app.options][-2:] == [("--steps", "-s"), ("--dry", "--no-dry")]
    assert app.options[-2].required and not app.commands  # one command: it runs without its name


def test_the_marker_screen_skips_only_modules_that_cannot_define_a_command_line():
    # No marker word: no command line, and the screen says so without walking the tree again.
    assert facts("import os\n\ndef main():\n    return os.environ['RANK']\n").parsers == []
    # Python folds identifiers to NFKC: a fullwidth `Ａ` still spells argparse.ArgumentParser, so a
    # source that is not ASCII is searched folded to NFKC.
    module = facts("import argparse\np = argparse.\uff21rgumentParser()\np.add_argument('--lr')\np.parse_args()\n")
    assert [o.flags for p in module.parsers for o in p.options] == [("--lr",)]
    module = facts("from argparse import ArgumentParser as P\np = P()\np.add_argument('--lr')\np.parse_args()\n")
    assert [o.flags for p in module.parsers for o in p.options] == [("--lr",)]


COMMON = "import argparse\n\n\ndef get_args():\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--lr')\n    return parser.parse_args()\n"
TRAIN = "from pkg.common import get_args\n\nargs = get_args()\n"


def test_an_imported_module_is_found_by_the_one_module_whose_name_ends_as_it(project):
    """`pkg.common` is `src/pkg/common.py` when no other module's dotted name ends in `pkg.common`."""
    files = {".launchlint.yaml": "# root\n", "src/pkg/common.py": COMMON, "train.py": TRAIN, "launch.sh": "python train.py --lrr 1\n"}
    assert project(files, ["LL301"]) == ["LL301 launch.sh:1"]
    files["lib/pkg/common.py"] = COMMON  # two modules end in pkg.common: which one is unknown
    assert project(files, ["LL301"]) == []
    files["pkg/common.py"] = COMMON  # the name itself beats its endings
    assert project(files, ["LL301"]) == ["LL301 launch.sh:1"]


BUILDER = "import argparse\n\n\ndef build_parser():\n    p = argparse.ArgumentParser()\n    p.add_argument('--lr')\n    return p\n"


@pytest.mark.parametrize(
    "train",
    [
        "from pkg.opts import build_parser\n\nargs = build_parser().parse_args()\n",
        "from pkg.opts import build_parser\n\n\ndef main():\n    parser = build_parser()\n    return parser.parse_args()\n",
        "from pkg import opts\n\nparser = opts.build_parser()\nparser.parse_args()\n",
    ],
)
def test_a_parser_an_imported_function_builds_is_read_where_only_its_call_names_it(project, train):
    """The trainer spells neither `ArgumentParser` nor `add_argument`: the builder's call is the
    argparse reader's marker (`parser(`), so its parse is found and the builder's options read."""
    files = {".launchlint.yaml": "# root\n", "pkg/__init__.py": "", "pkg/opts.py": BUILDER, "train.py": train}
    assert project({**files, "launch.sh": "python train.py --lr 1 --bogus 2\n"}, ["LL301"]) == ["LL301 launch.sh:1"]
    assert project({**files, "launch.sh": "python train.py --lr 1\n"}, ["LL301"]) == []


# -- command lines read while parsing, or when a launch asks ---------------------------------------

LAUNCHED = {"train.py": "", "jobs/train.py": "", "pkg/__main__.py": "", "tools/run.py": "print('python train.py')\n"}


@pytest.mark.parametrize(
    ("launch", "read"),
    [
        ("python train.py --lr 1\n", ["jobs/train.py", "train.py"]),  # the written path ends both
        ("torchrun ./train.py\n", ["jobs/train.py", "train.py"]),
        ("cd sub && python ../jobs/train.py\n", ["jobs/train.py"]),
        ("python other/train.py\n", []),  # a namesake in another directory
        ("python jobs/./train.py\n", ["jobs/train.py"]),
        ("python /workspace/train.py\n", ["jobs/train.py", "train.py"]),  # absolute: mapped, any of them
        ('python "$DIR/train.py"\n', ["jobs/train.py", "train.py"]),  # by what follows the variable
        ('python "${NAME}.py"\n', []),  # nothing static: read when asked
        ("python {{ dir }}/train.py\n", ["jobs/train.py", "train.py"]),  # a justfile's: what follows its interpolation
        ("python {{name}}.py\n", []),
        ("python -m jobs.train\n", ["jobs/train.py", "train.py"]),
        ("deepspeed --module=jobs.train x\n", ["jobs/train.py", "train.py"]),
        ("python -m pkg\n", ["pkg/__main__.py"]),
        ("ls train.pyc --model x\n", []),
    ],
)
def test_the_command_lines_read_while_parsing_are_of_the_programs_launches_name(launch, read):
    files = {**LAUNCHED, "launch.sh": launch}  # tools/run.py names train.py too: Python is no launcher
    items = [(path, "python" if path.endswith(".py") else "shell", text) for path, text in files.items()]
    assert sorted(command_lines_read(items)) == read


ARGPARSE_TRAIN = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr')\np.parse_args()\n"


def test_a_command_line_not_read_while_parsing_is_read_when_a_launch_asks(project):
    launch = 'NAME=train\npython "${NAME}.py" --lrr 1\n'  # static once NAME is known, not in the text
    files = {".launchlint.yaml": "# root\n", "train.py": ARGPARSE_TRAIN, "launch.sh": launch}
    assert command_lines_read([("train.py", "python", ARGPARSE_TRAIN), ("launch.sh", "shell", launch)]) == set()
    assert project(files, ["LL301"]) == ["LL301 launch.sh:2"]


def test_a_module_asked_for_is_parsed_again_only_when_it_may_parse_the_arguments(project, monkeypatch):
    parsed_again: list[str] = []
    parse_python = pysource.parse_python

    def parsed(path, text, cli=True):  # helpers.py is parsed without its command line first: no launch names it
        if cli and path == "helpers.py":
            parsed_again.append(path)
        return parse_python(path, text, cli)

    monkeypatch.setattr(pysource, "parse_python", parsed)
    helpers = "from dataclasses import dataclass\n\n\ndef get():\n    return 1\n"
    files = {".launchlint.yaml": "# root\n", "helpers.py": helpers, "train.py": "from helpers import get\n\nget()\n",
             "launch.sh": "python train.py --lrr 1\n"}  # fmt: skip
    assert project(files, ["LL301"]) == [] and parsed_again == []  # helpers.py may hold a dataclass, not a parse
    files["helpers.py"] = COMMON.replace("get_args", "get")
    assert project(files, ["LL301"]) == ["LL301 launch.sh:1"] and parsed_again == ["helpers.py"]


@pytest.mark.parametrize(
    ("source", "parses"),
    [
        ("import argparse\np = argparse.ArgumentParser()\n", False),  # made, never parsed here
        ("import argparse\nargparse.ArgumentParser().parse_known_args()\n", True),
        ("import click\n", True),
        ("import argparse\np = argparse.\uff21rgumentParser()\np.parse_args()\n", True),  # NFKC
        ("from dataclasses import dataclass\n", False),
    ],
)
def test_a_module_may_parse_the_arguments_where_it_spells_a_parse(source, parses):
    assert pycli.may_parse(source) == parses


def test_what_an_option_has_when_not_passed():
    """`Option.default`: a constant `default=`, else the action's; () when not known (LL204 reads
    it for a redirect under a test of an option)."""
    module = facts(
        """
        import argparse

        parser = argparse.ArgumentParser()
        parser.add_argument("--out")
        parser.add_argument("--redirect", action="store_true")
        parser.add_argument("--keep", action="store_false")
        parser.add_argument("--on", action="store_true", default=True)
        parser.add_argument("--steps", type=int, default=-1)
        parser.add_argument("--flag", type=bool, default="False")
        parser.add_argument("--name", type=str, default="")
        parser.add_argument("--suppressed", default=argparse.SUPPRESS)
        parser.add_argument("--shape", nargs="+", default=[224, 224])
        parser.add_argument("--pin_mem", action="store_true")
        parser.add_argument("--more", **extra)
        parser.add_argument("path", nargs="?")
        parser.set_defaults(pin_mem=True)
        parser.parse_args()
        """
    )
    [parser] = module.parsers
    assert [(o.dest, o.default) for o in parser.options] == [
        ("out", (None,)),
        ("redirect", (False,)),
        ("keep", (True,)),
        ("on", (True,)),
        ("steps", ()),  # not a constant: `-1` is an operation on one
        ("flag", ()),  # `type=bool` makes "False" True: not read
        ("name", ("",)),
        ("suppressed", ()),
        ("shape", ()),
        ("pin_mem", ()),  # `set_defaults`
        ("more", ()),
        ("path", ()),
    ]


def test_options_a_loop_over_a_literal_list_adds_with_flags_made_of_its_variables():
    """`_looped`: an option for each time round (OpenRLHF's `for prefix in ("actor", "critic"):`),
    its flags, `dest` and `required` read there; required where the body runs each time round."""
    module = facts(
        """
        import argparse

        parser = argparse.ArgumentParser()
        for prefix in ("actor", "critic"):
            parser.add_argument(f"--{prefix}.muon.no_nesterov", dest=f"{prefix}.muon.nesterov", action="store_false")
            for split, needed in (("train", True), ("val", False)):
                parser.add_argument("--{}_{}".format(prefix, split), required=needed)
        for i in range(2):
            if i:
                break
            parser.add_argument("--gpu%d" % i, required=True)
        parser.parse_args()
        """
    )
    [parser] = module.parsers
    assert parser.complete
    assert [(o.flags, o.dest, o.required) for o in parser.options] == [
        (("--actor.muon.no_nesterov",), "actor.muon.nesterov", False),
        (("--critic.muon.no_nesterov",), "critic.muon.nesterov", False),
        (("--actor_train",), "actor_train", True),
        (("--actor_val",), "actor_val", False),
        (("--critic_train",), "critic_train", True),
        (("--critic_val",), "critic_val", False),
        (("--gpu0",), "gpu0", False),  # after a `break`: the rounds are not all run
        (("--gpu1",), "gpu1", False),
    ]


def test_the_option_tests_a_redirect_runs_under():
    """`StreamRedirect.guards`: the tests of the `if`s of its function whose body holds it (each
    part of an `and`) that read an attribute of a name, not of the method's `self`; not an
    `else`'s, not a test around the def, not one of an `or`."""
    module = facts(
        """
        import os
        import sys

        if args.redirect:
            def setup():
                sys.stdout = open("a.log", "w")

        if args.out is not None and os.environ.get("RANK") == "0":
            with open(args.out, "w") as f:
                try:
                    os.dup2(f.fileno(), 1)
                finally:
                    pass
        elif args.log != "":
            sys.stderr = open(args.log, "w")
        else:
            sys.stdout = open("b.log", "w")
        if args.quiet or args.ci:
            if args.mode == "file":
                sys.stdout = open("c.log", "w")


        class Trainer:
            def setup(self, args):
                if self.redirect and args.redirect:
                    sys.stdout = open("d.log", "w")
        """
    )
    assert [(r.location.line, r.guards) for r in module.redirects] == [
        (6, ()),
        (11, (("out", "is not", None),)),
        (15, (("log", "!=", ""),)),
        (17, ()),
        (20, (("mode", "==", "file"),)),
        (26, (("redirect", "", None),)),
    ]
