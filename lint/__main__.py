import os
import sys

# `python -m launchlint` puts the current directory first on sys.path, so the analysed project's
# own `click.py` or `yaml.py` would be imported, that is run, in place of the library. Analysed
# code never runs: drop that entry before importing anything.
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from .cli import console

if __name__ == "__main__":  # a spawned worker (macOS, Windows) imports this module as __mp_main__
    console()
