import os
import sys

# `python -m launchlint` puts the current directory first on sys.path, so the analysed project's
# own `click.py` or `yaml.py` would be imported, that is run, in place of the library. Analysed
# code never runs: drop that entry before importing anything.
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]


def console() -> None:
    """The installed `launchlint` command and `python -m launchlint`: the last run's output when
    nothing it depended on changed (lint/replay.py), else the command line (`cli.console`)."""
    from .replay import leave, replayed

    status = replayed(sys.argv[1:])
    if status is None:
        from .cli import console as run

        run()  # never returns: it ends the process as `leave` does
    leave(status)


if __name__ == "__main__":
    console()
