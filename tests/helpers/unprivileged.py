"""Permission bits, for real: a child process that runs as a user they apply to.

Tests often run as root, whom ``chmod 000`` does not stop. The child imports what it needs
first and only then drops to ``nobody``: the interpreter may live under /root (mode 0700), so a
``setuid`` before exec would leave it unable to start Python at all. Where privileges cannot be
dropped, the test is skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

NOBODY = 65534
SKIP = 77  # a child's exit status when it cannot drop root privileges

# Put after the child's imports: with ``--as-uid N`` first in argv it becomes user N.
DROP_PRIVILEGES = r"""
import app.store.index_schema  # imported on the first write (with sqlite-utils): load it now
# the command line imports each command's module when it runs, ULIDs on the first write
import app.composition, app.cli.attachments, app.cli.branches, app.cli.context, app.cli.mcp
import app.cli.transfer, app.cli.turn, app.cli.usage, ulid
if sys.argv[1:2] == ["--as-uid"]:
    uid = int(sys.argv[2])
    del sys.argv[1:3]
    try:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    except OSError as exc:
        print(f"cannot drop root privileges: {exc}", file=sys.stderr)
        sys.exit(77)
"""

# The command line itself, as an unprivileged user.
CLI = (
    "import os, sys\n"
    "import app.cli.main\n"
    "import app.providers.local  # imported lazily: load it while the stdlib is readable\n"
    + DROP_PRIVILEGES
    + "sys.exit(app.cli.main.main(sys.argv[1:]))\n"
)


@contextmanager
def shared_root() -> Iterator[Path]:
    """A folder another user can reach (pytest's tmp dirs are private to root)."""
    root = Path(tempfile.mkdtemp(prefix="crosstalk-unprivileged-"))
    root.chmod(0o755)
    try:
        yield root
    finally:
        for folder, _, _ in os.walk(root):
            os.chmod(folder, 0o700)
        shutil.rmtree(root)


def give_to(uid: int, top: Path) -> None:
    for folder, folders, files in os.walk(top):
        for name in [folder, *(os.path.join(folder, n) for n in folders + files)]:
            os.chown(name, uid, uid)


def run_unprivileged(
    script: str,
    *args: str,
    home: Path,
    preexec: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (which must include ``DROP_PRIVILEGES``) with ``CROSSTALK_HOME=home`` as
    ``nobody`` when this is root (everything under ``home``'s parent is given to nobody
    first), else as this user; skips the test if privileges cannot be dropped."""
    drop = ["--as-uid", str(NOBODY)] if os.geteuid() == 0 else []
    if drop:
        give_to(NOBODY, home.parent)
    done = subprocess.run(
        [sys.executable, "-c", script, *drop, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, CROSSTALK_HOME=str(home)),
        preexec_fn=preexec,
        timeout=120,
        check=False,
    )
    if done.returncode == SKIP:
        pytest.skip(f"permission bits cannot be tested as root here: {done.stderr.strip()}")
    return done
