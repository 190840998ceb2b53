"""Which provider serves a ``provider:model`` name, built on first use.

Cloud SDKs take a second or two to import, so a provider is constructed (and its SDK imported)
only when a model of it is first resolved; ``crosstalk list`` never pays for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from app.errors import UnknownModel
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

    @classmethod
    def of(cls, *providers: Provider) -> Models:
        """Providers that are already built, serving exactly the models they list."""
        return cls(
            ProviderEntry(p.name, list(p.models()), lambda p=p: p, any_model=False)  # type: ignore[misc]
            for p in providers
        )

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
            raise UnknownModel(f"no model {spec!r}; available: {choices}")
        if name not in self._built:
            self._built[name] = entry.build()
        return self._built[name], model

    async def aclose(self) -> None:
        built, self._built = self._built, {}
        for provider in built.values():
            await provider.aclose()
