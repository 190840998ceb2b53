"""Crosstalk's own modules run as processes of their own (the built-in model's worker, an
import's indexer): how to start one, and how its end is said.

From a checkout or an installed package, ``python -m module``; in the bundle (one executable,
no ``-m``), that executable with a flag that ``ui/shell/main.py`` turns into the module's
``main``.
"""

from __future__ import annotations

import signal
import sys


def python_command(module: str, bundle_flag: str) -> list[str]:
    """The command that runs ``module``'s ``main`` (its arguments to follow)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, bundle_flag]
    # -P: not the working folder first on the path, where a user's own ``app`` package
    # (a common layout) would be imported in place of Crosstalk's
    return [sys.executable, "-P", "-m", module]


def describe_exit(returncode: int) -> str:
    """A process's end as a person reads it: "exit status 3", "signal 9, SIGKILL"."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "unknown"
        return f"signal {-returncode}, {name}"
    return f"exit status {returncode}"
