"""What every cloud adapter holds: its name, models, key, base URL and request limits.

Each adapter subclasses this and adds its own SDK client (created on first use).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from contextlib import suppress
from typing import Any, ClassVar

from app.providers.failures import Where


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

    def models(self) -> Sequence[str]:
        return list(self._models)

    def _where(self, model: str) -> Where:
        """What an error message about ``model`` may name (the key only scrubs it out)."""
        url = self._base_url or self.sdk_url
        return Where(self.name, model, url, self._api_key, self._timeout)

    def prepare(self) -> None:
        """Import the SDK, build its client and load what its first request would load. It
        is slow the first time, so the window calls it on a worker thread before a
        provider's first request (``Models.ready``); otherwise that request would do it on the
        event loop's thread."""
        self._load_for_requests(self._sdk())
        # the HTTP client's connection pool loads anyio's asyncio backend at its first
        # request, a stall on the loop's thread otherwise (bench/session.py, "first send")
        with suppress(ImportError):
            importlib.import_module("anyio._backends._asyncio")

    def _load_for_requests(self, client: Any) -> None:
        """Touch the SDK's resource that requests go through: the SDKs import a resource's
        modules when it is first reached (docs/performance.md)."""

    def _sdk(self) -> object:
        """The SDK client, made on first use."""
        raise NotImplementedError
