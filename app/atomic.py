"""Writing small files so that a crash leaves either the old file or the new one, never half."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from app.paths import FILE_MODE


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_file(path: Path, content: bytes) -> None:
    """Write ``content`` beside ``path`` (0600), fsync it, and rename it over ``path``.

    Raises OSError; the temporary file never outlives a failure.
    """
    staging: str | None = None
    try:
        import tempfile  # here: reading commands never write, and must start quickly

        fd, staging = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
        with os.fdopen(fd, "wb") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(staging, FILE_MODE)
        os.replace(staging, path)
        staging = None
        fsync_dir(path.parent)
    finally:
        if staging is not None:
            with contextlib.suppress(OSError):
                os.unlink(staging)
