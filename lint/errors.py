"""The errors a user causes: a bad command line, configuration or baseline. The command prints
the one line and exits 2."""

from __future__ import annotations


class UsageError(Exception):
    """A problem with the command line (and the base of the configuration's and the baseline's)."""
