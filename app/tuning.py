"""A conversation's own sampling settings: temperature, maximum reply tokens, thinking effort.

Chosen for a turn (``crosstalk ask --temperature 0.2 --max-tokens 800 --think high``, the
window's "This chat" panel) and remembered like the tools: each input records the
conversation's choices in ``meta["tuning"]``, and a turn without new choices keeps the latest
input's. What is not chosen comes from the settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from app.errors import InvalidValue
from app.history import History, ModelInput

FIELDS = ("temperature", "max_tokens", "reasoning")
EFFORTS = ("off", "low", "medium", "high")  # "off": no thinking, whatever the settings say


class Tunable(Protocol):
    @property
    def temperature(self) -> float | None: ...
    @property
    def max_tokens(self) -> int | None: ...
    @property
    def reasoning(self) -> str | None: ...


T = TypeVar("T", bound=Tunable)


def remembered(history: History) -> dict[str, Any]:
    """The choices recorded with the latest input of the active branch."""
    for seq in reversed(history.active_path()):
        entry = history.at(seq)
        if isinstance(entry, ModelInput):
            return dict(entry.meta.get("tuning", {}))
    return {}


def merged(history: History, changes: Mapping[str, Any] | None) -> dict[str, Any]:
    """The remembered choices with ``changes`` (checked); a change to None forgets a choice
    (the settings' value applies again)."""
    tuning = remembered(history)
    for key, value in (changes or {}).items():
        check(key, value)
        if value is None:
            tuning.pop(key, None)
        else:
            tuning[key] = value
    return tuning


def check(key: str, value: Any) -> None:
    """ValueError saying what is accepted."""
    if key not in FIELDS:
        raise InvalidValue(cause="no_tuning", given=key, choices=", ".join(FIELDS))
    if value is None:
        return
    if key == "temperature" and not (isinstance(value, int | float) and 0 <= value <= 2):
        raise InvalidValue(cause="temperature", given=repr(value))
    if key == "max_tokens" and not (isinstance(value, int) and value >= 1):
        raise InvalidValue(cause="max_tokens", given=repr(value))
    if key == "reasoning" and value not in EFFORTS:
        raise InvalidValue(cause="thinking", given=repr(value), choices=", ".join(EFFORTS))


def applied(settings: T, tuning: Mapping[str, Any]) -> T:
    """``settings`` with the conversation's choices in place of the defaults."""
    reasoning = tuning.get("reasoning", settings.reasoning)
    return replace(  # type: ignore[type-var]  # T is a dataclass: TurnSettings
        settings,
        temperature=tuning.get("temperature", settings.temperature),
        max_tokens=tuning.get("max_tokens", settings.max_tokens),
        reasoning=None if reasoning == "off" else reasoning,
    )
