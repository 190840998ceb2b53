"""Simulated devices for sync tests and benches: each a data dir with its own library, syncing
through one real remote (a folder, moto's S3 or WsgiDAV) with the real engine."""

from __future__ import annotations

import secrets
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.history import AnyEntry, History, ModelInput, ModelOutput, Select, entry_id
from app.paths import DataDir
from app.settings_sync import SyncConfig
from app.store import transcript
from app.store.library import Conversation, Library
from app.store.pins import Pins
from app.store.transcript import SUFFIX
from app.sync import engine
from app.sync import marker as markers
from app.sync.layout import Vault
from app.sync.remote import Remote, RemoteObject, open_remote


class Killed(BaseException):
    """A kill as far as the engine can tell: no ``except Exception`` of its runs, so nothing
    it would do on its way out (save its state, note the error) happens."""


class FaultyRemote:
    """A real remote behind a counter: calls and bytes each way, and a fault on call number
    ``fail_at`` (1-based; that call and every later one raise ``fault()`` until ``heal``)."""

    def __init__(
        self,
        inner: Remote,
        fail_at: int | None = None,
        fault: Callable[[], BaseException] = lambda: Killed("killed"),
    ) -> None:
        self.inner = inner
        self.description = inner.description
        self.fail_at = fail_at
        self.fault = fault
        self.calls: Counter[str] = Counter()
        self.sent = 0  # bytes put
        self.received = 0  # bytes got
        self._lock = threading.Lock()  # (a pull fetches on several threads)

    @property
    def total(self) -> int:
        return sum(self.calls.values())

    def heal(self) -> None:
        self.fail_at = None

    def _call(self, kind: str) -> None:
        with self._lock:
            if self.fail_at is not None and self.total + 1 >= self.fail_at:
                raise self.fault()
            self.calls[kind] += 1

    def put(self, name: str, data: bytes) -> None:
        self._call("put")
        self.inner.put(name, data)
        with self._lock:
            self.sent += len(data)

    def get(self, name: str) -> bytes:
        self._call("get")
        data = self.inner.get(name)
        with self._lock:
            self.received += len(data)
        return data

    def list(self, prefix: str = "") -> list[RemoteObject]:
        self._call("list")
        return self.inner.list(prefix)

    def delete(self, name: str) -> None:
        self._call("delete")
        self.inner.delete(name)

    def exists(self, name: str) -> bool:
        self._call("exists")
        return self.inner.exists(name)


@dataclass(frozen=True)
class Held:
    """One conversation as a device holds it, in the parts every device must agree on."""

    in_trash: bool
    ids: frozenset[str]
    title: str | None
    pinned: bool


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
        self.wrap: Callable[[Remote], Any] | None = None  # e.g. a FaultyRemote around it
        self.last_remote: Any = None

    def vault(self) -> Vault:
        vault = engine.open_vault(self.config, self.environ)
        if self.wrap is not None:
            vault.remote = self.wrap(vault.remote)
        self.last_remote = vault.remote
        return vault

    def sync(self, **options: object) -> engine.SyncReport:
        return engine.sync(self.library, self.vault(), **options)  # type: ignore[arg-type]

    def sync_v1(self) -> Any:
        """A sync as a Crosstalk from before heads and changes makes it (remote layout 1:
        ``tests/helpers/sync_v1``), through the same remote and state."""
        from tests.helpers.sync_v1 import engine as v1

        vault = v1.open_vault(self.config, self.environ)
        if self.wrap is not None:
            vault.remote = self.wrap(vault.remote)
        self.last_remote = vault.remote
        return v1.sync(self.library, vault)

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

    def all_ids(self, conversation_id: str) -> list[str]:
        """Every entry id in the conversation's file, live or in the trash, in file order."""
        path = self.library.trashed_file(conversation_id)
        if not path.exists():
            path = self.library.open(conversation_id).path
        return [entry_id(e) for e in transcript.load(path).entries]

    def held(self) -> dict[str, Held]:
        """Every conversation here, live and in the trash, read fresh from disk."""
        pins = Pins(self.data.pins_file).ids
        found: dict[str, Held] = {}
        folders = ((self.data.conversations, False), (self.data.trash, True))
        for folder, in_trash in folders:
            for path in sorted(folder.glob(f"*{SUFFIX}")):
                cid = path.stem
                entries = transcript.load(path).entries
                found[cid] = Held(
                    in_trash=in_trash,
                    ids=frozenset(entry_id(e) for e in entries if not _kept_here(e)),
                    title=History(entries).title,
                    pinned=cid in pins,  # in the trash too: a restore brings it back
                )
        return found

    def close(self) -> None:
        self.library.close()


def _kept_here(entry: AnyEntry) -> bool:
    """The select that keeps a device's own branch active: never sent, the device's own."""
    return isinstance(entry, Select) and entry.meta.get("kept_by") == engine.KEPT_BY_SYNC
