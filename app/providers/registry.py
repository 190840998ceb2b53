"""Which provider serves a ``provider:model`` name, built on first use.

Cloud SDKs take a second or two to import, so a provider is constructed (and its SDK imported)
only when a model of it is first resolved; ``crosstalk list`` never pays for them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from app.errors import UnknownModel
from app.providers.adapter import CloudAdapter
from app.providers.base import Provider


@dataclass(frozen=True)
class ProviderEntry:
    name: str
    models: Sequence[str]
    build: Callable[[], Provider]  # may raise, e.g. AuthFailed for a missing key
    any_model: bool = True  # cloud APIs serve models we don't list; the built-in one does not


class Models:
    def __init__(self, entries: Iterable[ProviderEntry]) -> None:
        self._entries = {e.name: e for e in entries}
        self._built: dict[str, Provider] = {}
        self._building = threading.Lock()  # the window builds on a worker thread (is_built)

    @classmethod
    def of(cls, *providers: Provider) -> Models:
        """Providers that are already built, serving exactly the models they list."""
        models = cls(
            ProviderEntry(p.name, list(p.models()), lambda p=p: p, any_model=False)  # type: ignore[misc]
            for p in providers
        )
        models._built = {p.name: p for p in providers}
        return models

    def available(self) -> list[str]:
        return [f"{e.name}:{model}" for e in self._entries.values() for model in e.models]

    def entries(self) -> list[ProviderEntry]:
        return list(self._entries.values())

    def resolve(self, spec: str) -> tuple[Provider, str]:
        """``provider:model`` -> (provider, model); the message lists what exists."""
        name, _, model = spec.partition(":")
        entry = self._entries.get(name)
        if entry is None or not model or (not entry.any_model and model not in entry.models):
            choices = ", ".join(self.available()) or "none"
            raise UnknownModel(cause="no_such_model", model=spec, choices=choices)
        with self._building:
            if name not in self._built:
                self._built[name] = entry.build()
            return self._built[name], model

    async def ready(self, spec: str) -> tuple[Provider, str]:
        """``resolve`` on a worker thread, with a cloud provider's SDK imported there too and
        a request rehearsed (``CloudAdapter.prepare``). The first import of an SDK is slow
        (docs/performance.md); on an event loop's thread it would freeze the window for as
        long, whichever asks first: a send, a compression's preview, a test."""
        return await asyncio.to_thread(self._ready, spec)

    def _ready(self, spec: str) -> tuple[Provider, str]:
        provider, model = self.resolve(spec)
        if isinstance(provider, CloudAdapter):
            provider.prepare(rehearse=True)
        return provider, model

    def is_built(self, spec: str) -> bool:
        """Whether resolving ``spec`` is only a lookup. Building a provider reads its key
        from the OS keyring, which can take a while (or ask to be unlocked): the window does
        that on a worker thread."""
        return spec.partition(":")[0] in self._built

    async def aclose(self) -> None:
        built, self._built = self._built, {}
        for provider in built.values():
            await provider.aclose()
