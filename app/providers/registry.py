"""Which provider serves a ``provider:model`` name."""

from __future__ import annotations

from collections.abc import Iterable

from app.errors import UnknownModel
from app.providers.base import Provider


class Models:
    def __init__(self, providers: Iterable[Provider]) -> None:
        self._providers = {p.name: p for p in providers}

    def available(self) -> list[str]:
        return [f"{name}:{model}" for name, p in self._providers.items() for model in p.models()]

    def resolve(self, spec: str) -> tuple[Provider, str]:
        """``provider:model`` -> (provider, model); the message lists what exists."""
        name, _, model = spec.partition(":")
        provider = self._providers.get(name)
        if provider is None or not model or model not in provider.models():
            choices = ", ".join(self.available()) or "none"
            raise UnknownModel(f"no model {spec!r}; available: {choices}")
        return provider, model

    async def aclose(self) -> None:
        for provider in self._providers.values():
            await provider.aclose()
