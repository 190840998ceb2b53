"""What every cloud adapter holds: its name, models, key, base URL and request limits.

Each adapter subclasses this and adds its own SDK client (created on first use).
"""

from __future__ import annotations

import gc
import importlib
import logging
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, ClassVar

from app.providers.failures import Where

SHARED_INTERVAL = 0.001  # seconds: the switch interval while an SDK is prepared

log = logging.getLogger(__name__)


_sharing = threading.Lock()
_sharers = 0
# before the pause: whether the collector was on, the switch interval, how many modules
_saved: tuple[bool, float, int] = (True, 0.005, 0)


@contextmanager
def sharing_the_interpreter() -> Iterator[None]:
    """While an SDK is imported on a worker thread, the window's thread gets the interpreter
    back soon: the cyclic collector is off (a full pass over all that the import makes holds
    the interpreter in one go, the longest stall ``bench/first_send.py`` found) and threads are
    switched every ``SHARED_INTERVAL`` rather than at Python's default. After, what an import
    made is frozen out of later collections (modules live as long as the process; a pass
    over them all would be that stall again) and both come back; with the collector off
    already (the command line's start-up, ``app/cli/collector.py``), it stays off. Nested and
    concurrent uses share one pause."""
    global _sharers, _saved
    with _sharing:
        if _sharers == 0:
            _saved = (gc.isenabled(), sys.getswitchinterval(), len(sys.modules))
            gc.disable()
            sys.setswitchinterval(min(_saved[1], SHARED_INTERVAL))
        _sharers += 1
    try:
        yield
    finally:
        with _sharing:
            _sharers -= 1
            if _sharers == 0:
                sys.setswitchinterval(_saved[1])
                if _saved[0]:
                    if len(sys.modules) > _saved[2]:  # an import: what it made stays
                        gc.freeze()
                    gc.enable()


class CloudAdapter:
    default_base_url: ClassVar[str | None] = None  # None: the SDK's own default
    sdk_url: ClassVar[str] = ""  # where the SDK goes without a base URL, for messages

    def __init__(
        self,
        name: str,
        models: Sequence[str],
        api_key: str,
        base_url: str | None,
        *,
        max_retries: int = 2,
        timeout: float = 600.0,
    ) -> None:
        self.name = name
        self._models = list(models)
        self._api_key = api_key
        self._base_url = base_url
        if self.default_base_url is not None:
            self._base_url = (base_url or self.default_base_url).rstrip("/")
        self._max_retries = max_retries
        self._timeout = timeout
        self._preparing = threading.Lock()
        self._prepared = 0  # 1: the SDK and client ready; 2: a request rehearsed too

    def models(self) -> Sequence[str]:
        return list(self._models)

    def _where(self, model: str) -> Where:
        """What an error message about ``model`` may name (the key only scrubs it out)."""
        url = self._base_url or self.sdk_url
        return Where(self.name, model, url, self._api_key, self._timeout)

    def prepare(self, *, rehearse: bool = False) -> None:
        """Import the SDK, build its client and load what its first request would load. It
        is slow the first time, so the window calls it on a worker thread before a
        provider's first request (``Models.ready``); otherwise that request would do it on the
        event loop's thread. ``rehearse``: also send one request through the SDK to a
        stand-in transport and read its reply (``_rehearse``), so what the SDK builds at its
        first request and first reply is built on this thread too (the window's; the command
        line's first request does that work anyway)."""
        with self._preparing, sharing_the_interpreter():  # the inspector and a send may
            if self._prepared >= (2 if rehearse else 1):  # prepare at once, on two workers
                return
            self._load_for_requests(self._sdk())
            # the HTTP client's connection pool loads anyio's asyncio backend at its first
            # request, a stall on the loop's thread otherwise (bench/session.py, "first send")
            with suppress(ImportError):
                importlib.import_module("anyio._backends._asyncio")
            self._prepared = 1
            if rehearse:
                try:
                    self._rehearse()
                except Exception:  # only a head start: the real request does it all the same
                    log.warning("rehearsing a request to %s failed", self.name, exc_info=True)
                self._prepared = 2

    def _rehearse(self) -> None:
        """One request and its streamed reply through the SDK, to a stand-in transport on
        this thread (no network): adapters whose SDK completes models, type hints and
        validators at first use override it."""

    def _load_for_requests(self, client: Any) -> None:
        """Touch the SDK's resource that requests go through: the SDKs import a resource's
        modules when it is first reached (docs/performance.md)."""

    def _sdk(self) -> object:
        """The SDK client, made on first use."""
        raise NotImplementedError
