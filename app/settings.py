"""User settings: ``settings.toml`` in the data dir; every field optional, with a default."""

from __future__ import annotations

import msgspec

from app.errors import CrosstalkError
from app.history.context import DEFAULT_WINDOW_TURNS
from app.paths import DataDir


class Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=False):
    default_model: str = "local:smollm2"
    title_model: str = "local:smollm2"
    window_turns: int = DEFAULT_WINDOW_TURNS

    def __post_init__(self) -> None:
        if self.window_turns < 1:
            raise ValueError("window_turns must be at least 1")


def load_settings(data: DataDir) -> Settings:
    path = data.settings_file
    try:
        return msgspec.toml.decode(path.read_bytes(), type=Settings)
    except FileNotFoundError:
        return Settings()
    except (msgspec.DecodeError, ValueError) as exc:
        raise CrosstalkError(f"{path} is not valid settings ({exc}); fix or delete it") from exc
