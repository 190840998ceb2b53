"""The knobs of a turn: plain values the settings give and a conversation may change
(temperature, max tokens, thinking: ``app.tuning``). The services a turn uses are the
runner's (``app.turn.runner``), never these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.history.context import TOOL_RESULT_CHARS
from app.tool_names import DEFAULT_MAX_ROUNDS

if TYPE_CHECKING:
    from app.settings import Settings


@dataclass(frozen=True)
class TurnSettings:
    title_model: str | None = None  # names a new conversation; None: the model of its reply
    max_tokens: int | None = None
    temperature: float | None = None
    max_tool_rounds: int = DEFAULT_MAX_ROUNDS
    reasoning: str | None = None  # "low" | "medium" | "high": ask the model to think; None: off
    default_tools: tuple[str, ...] = ()  # for a conversation's first turn, unless told otherwise
    tool_share: float = 0.1  # of the token budget the tool definitions may take; 0: no limit
    tool_result_chars: int = TOOL_RESULT_CHARS  # a longer result is cut for the model
    # False: count tokens only when bounds do not show that everything fits (the command line:
    # the provider's usage is the count, and a tokenizer is not worth loading for one turn);
    # the window counts exactly, its tokenizer loaded in the background
    exact_counts: bool = True
    # False: a new conversation is left untitled for the caller to name (the command line does
    # it in a process of its own, so the title request never delays its exit: ``name_later``)
    make_title: bool = True

    @classmethod
    def from_settings(cls, settings: Settings) -> TurnSettings:
        return cls(
            title_model=settings.title_model,
            max_tool_rounds=settings.max_tool_rounds,
            reasoning=settings.reasoning,
            default_tools=tuple(settings.default_tools),
            tool_share=settings.tool_share,
            tool_result_chars=settings.tool_result_chars,
        )
