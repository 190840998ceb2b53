"""Where Crosstalk keeps its files.

The data dir comes from platformdirs and ``CROSSTALK_HOME`` moves it (tests use it). Folders are
created 0700 and files 0600: transcripts are private conversations.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from app.errors import StorageError

DIR_MODE = 0o700
FILE_MODE = 0o600


@dataclass(frozen=True)
class DataDir:
    root: Path

    @classmethod
    def default(cls) -> DataDir:
        home = os.environ.get("CROSSTALK_HOME")
        root = Path(home) if home else Path(platformdirs.user_data_dir("crosstalk", "crosstalk"))
        return cls(root.expanduser())

    @property
    def conversations(self) -> Path:
        return self.root / "conversations"

    @property
    def trash(self) -> Path:
        return self.root / "trash"

    @property
    def blobs(self) -> Path:
        """Attachments, stored once by content hash (``app/store/blobs.py``)."""
        return self.root / "blobs"

    @property
    def writers(self) -> Path:
        """The leases of processes writing the library (``app/store/writers.py``)."""
        return self.root / "writers"

    @property
    def sync_dir(self) -> Path:
        """What sync knows of the remote, and its lock (``app/sync/state.py``)."""
        return self.root / "sync"

    @property
    def index_db(self) -> Path:
        return self.root / "index.db"

    @property
    def pins_file(self) -> Path:
        return self.root / "pins.json"

    @property
    def settings_file(self) -> Path:
        return self.root / "settings.toml"

    @property
    def log_file(self) -> Path:
        return self.root / "crosstalk.log"

    @property
    def mcp_file(self) -> Path:
        """The MCP servers (``app/mcp/config.py``)."""
        return self.root / "mcp.json"

    @property
    def mcp_dir(self) -> Path:
        """MCP servers' last listings (``state/``) and stderr logs (``logs/``)."""
        return self.root / "mcp"

    def ensure(self) -> None:
        """Create the folders (0700) if missing, and make them private again if something
        opened them up (a copy, a sync tool, a umask); say plainly when that is impossible."""
        for folder in (self.root, self.conversations, self.trash):
            try:
                folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(
                    cause="no_folder", path=str(folder), reason=str(exc.strerror)
                ) from exc
            with contextlib.suppress(OSError):  # not ours to change (read-only): reading goes on
                if folder.stat().st_mode & 0o077:
                    folder.chmod(DIR_MODE)


def private_file(path: Path) -> None:
    """Create ``path`` 0600 if it is missing, and make it 0600 again if something opened it
    up. Not ours to change (another owner, a read-only disk): left as it is."""
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE))
    with contextlib.suppress(OSError):
        mode = path.lstat().st_mode
        if stat.S_ISREG(mode) and mode & 0o077:
            path.chmod(FILE_MODE)
