"""Reading packs (``Vault.put_pack``): many conversations' segments in one object. Several
threads take segments of the same pack at once: the first to ask fetches it, the others wait
for it, and it is let go once every segment wanted of it has been taken."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import Future

from app.sync.errors import DamagedObject
from app.sync.layout import Segment, Vault

PackKey = tuple[str, int]  # (device, pack number)


class Packs:
    def __init__(self, vault: Vault, wanted: Counter[PackKey]) -> None:
        """``wanted``: how many segments will be taken of each pack."""
        self.vault = vault
        self._left = Counter(wanted)
        self._loading: dict[PackKey, Future[dict[tuple[str, int], Segment]]] = {}
        self._lock = threading.Lock()

    def take(self, device: str, pack: int, key: str, batch: int) -> Segment:
        """The segment ``batch`` of ``key`` in ``device``'s pack ``pack``."""
        with self._lock:
            loading = self._loading.get((device, pack))
            mine = loading is None
            if loading is None:
                loading = self._loading[device, pack] = Future()
        if mine:
            try:
                loading.set_result(self.vault.get_pack(device, pack))
            except BaseException as exc:
                loading.set_exception(exc)
                raise
        found = loading.result().get((key, batch))
        with self._lock:
            self._left[device, pack] -= 1
            if self._left[device, pack] <= 0:
                self._loading.pop((device, pack), None)
        if found is None:
            name = f"packs/{device}/{pack:012d}"
            raise DamagedObject(cause="other_batch", remote=self.vault.description, name=name)
        return found
