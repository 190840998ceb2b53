"""The composition root: settings, the library and the providers, built once and passed down."""

from __future__ import annotations

from dataclasses import dataclass

from app.paths import DataDir
from app.providers import Models
from app.providers.local import LocalProvider
from app.settings import Settings, load_settings
from app.store import Library
from app.turn import TurnSettings


@dataclass
class Services:
    data: DataDir
    settings: Settings
    library: Library
    models: Models

    def turn_settings(self) -> TurnSettings:
        return TurnSettings(
            window_turns=self.settings.window_turns, title_model=self.settings.title_model
        )

    def close(self) -> None:
        self.library.close()


def build(data: DataDir | None = None, library: Library | None = None) -> Services:
    data = data or DataDir.default()
    settings = load_settings(data)
    library = library or Library(data)
    models = Models([LocalProvider()])
    return Services(data, settings, library, models)
