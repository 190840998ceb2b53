"""Simulated devices for sync tests and benches: each a data dir with its own library, syncing
through one real remote (a folder, moto's S3 or WsgiDAV) with the real engine."""

from __future__ import annotations

import secrets
from pathlib import Path

from app.history import AnyEntry, ModelInput, ModelOutput, Select, entry_id
from app.paths import DataDir
from app.store.library import Conversation, Library
from app.sync import engine
from app.sync import marker as markers
from app.sync.config import SyncConfig
from app.sync.layout import Vault
from app.sync.remote import open_remote


def folder_config(folder: Path, device: str | None = None, encrypt: bool = False) -> SyncConfig:
    folder.mkdir(parents=True, exist_ok=True)
    return SyncConfig(url=folder.as_uri(), device=device or secrets.token_hex(8), encrypt=encrypt)


def set_up_remote(
    config: SyncConfig, secret: str | None = None, passphrase: str | None = None
) -> None:
    """Write the remote's marker, as `crosstalk sync setup` does for the first device."""
    remote = open_remote(config, secret)
    if markers.read_marker(remote) is None:
        markers.write_marker(remote, markers.new_marker(passphrase)[0])


class Device:
    def __init__(
        self, root: Path, config: SyncConfig, environ: dict[str, str] | None = None
    ) -> None:
        self.data = DataDir(root)
        self.library = Library(self.data)
        self.config = config
        self.environ = environ or {}

    def vault(self) -> Vault:
        return engine.open_vault(self.config, self.environ)

    def sync(self, **options: object) -> engine.SyncReport:
        return engine.sync(self.library, self.vault(), **options)  # type: ignore[arg-type]

    def say(self, conversation: Conversation, text: str) -> AnyEntry:
        """A turn: an input and its reply, on the active branch."""
        self.library.append(conversation, ModelInput(text=text))
        return self.library.append(
            conversation, ModelOutput(provider="fake", model="m", text=f"reply to {text}")
        )

    def ids(self, conversation_id: str) -> set[str]:
        """The ids of a conversation's entries that every device must hold alike (the select
        that keeps a device's own branch active is the device's own)."""
        history = self.library.open(conversation_id).history
        return {
            entry_id(e)
            for e in history
            if not (isinstance(e, Select) and e.meta.get("kept_by") == engine.KEPT_BY_SYNC)
        }

    def close(self) -> None:
        self.library.close()
