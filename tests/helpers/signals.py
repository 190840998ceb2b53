"""Children that Ctrl-C reaches as it reaches a command typed at a terminal."""

from __future__ import annotations

import signal


def interruptible() -> None:
    """A ``preexec_fn``: SIGINT back to its default in the child, so Python there turns it
    into KeyboardInterrupt. A test run in a background job (``./scripts/check &``) starts its
    children with SIGINT ignored, and Python keeps an ignored SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
