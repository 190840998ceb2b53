"""What a call cost: a price table per model, in US dollars per million tokens.

The table ships with defaults (list prices at the time of writing; see ``DEFAULT_PRICES``) and
the user's own prices in ``settings.toml`` come first::

    [prices."gpt-4.1"]          # a model name, "provider:model", or a glob of either
    input = 2.0                 # per million input tokens that were not cached
    cached = 0.5                # per million cached input tokens (default: as input)
    output = 8.0                # per million output tokens (reasoning included)

A model no pattern matches has no price: its cost is ``None`` (shown as "no price"), never a
made-up zero. ``Usage.input`` includes the cached and cache-written tokens, and ``output``
includes reasoning, as every adapter reports them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Literal

import msgspec

from app.errors import InvalidValue
from app.history.entries import Usage

PER = 1_000_000


class Price(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """US dollars per million tokens."""

    input: float
    output: float
    cached: float | None = None  # cached input; None: the input price
    cache_write: float | None = None  # input written to a cache; None: the input price

    def __post_init__(self) -> None:
        for name in ("input", "output", "cached", "cache_write"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise InvalidValue(cause="negative_price", field=name, given=value)

    def cost(self, usage: Usage) -> float:
        cached = self.input if self.cached is None else self.cached
        written = self.input if self.cache_write is None else self.cache_write
        fresh = max(usage.input - usage.cached - usage.cache_write, 0)
        dollars = (
            fresh * self.input
            + usage.cached * cached
            + usage.cache_write * written
            + usage.output * self.output
        )
        return dollars / PER


def _p(input: float, cached: float, output: float, cache_write: float | None = None) -> Price:
    return Price(input=input, cached=cached, output=output, cache_write=cache_write)


# First match wins, so the more specific patterns come first. List prices, USD per million.
DEFAULT_PRICES: dict[str, Price] = {
    "local:*": _p(0, 0, 0),  # the built-in model runs on this computer
    # OpenAI
    "gpt-5-nano*": _p(0.05, 0.005, 0.40),
    "gpt-5-mini*": _p(0.25, 0.025, 2.00),
    "gpt-5*": _p(1.25, 0.125, 10.00),
    "gpt-4.1-nano*": _p(0.10, 0.025, 0.40),
    "gpt-4.1-mini*": _p(0.40, 0.10, 1.60),
    "gpt-4.1*": _p(2.00, 0.50, 8.00),
    "gpt-4o-mini*": _p(0.15, 0.075, 0.60),
    "gpt-4o*": _p(2.50, 1.25, 10.00),
    "o4-mini*": _p(1.10, 0.275, 4.40),
    "o3-mini*": _p(1.10, 0.55, 4.40),
    "o3*": _p(2.00, 0.50, 8.00),
    # Anthropic: cache reads cost a tenth of input, 5-minute cache writes a quarter more
    "claude-opus-4-0*": _p(15.00, 1.50, 75.00, 18.75),
    "claude-opus-4-1*": _p(15.00, 1.50, 75.00, 18.75),
    "claude-opus-4-2025*": _p(15.00, 1.50, 75.00, 18.75),
    "claude-opus-*": _p(5.00, 0.50, 25.00, 6.25),
    "claude-sonnet-*": _p(3.00, 0.30, 15.00, 3.75),
    "claude-3-7-sonnet*": _p(3.00, 0.30, 15.00, 3.75),
    "claude-3-5-haiku*": _p(0.80, 0.08, 4.00, 1.00),
    "claude-haiku-*": _p(1.00, 0.10, 5.00, 1.25),
    # Google (prompts up to 200k tokens)
    "gemini-2.5-pro*": _p(1.25, 0.31, 10.00),
    "gemini-2.5-flash-lite*": _p(0.10, 0.025, 0.40),
    "gemini-2.5-flash*": _p(0.30, 0.075, 2.50),
    "gemini-2.0-flash*": _p(0.10, 0.025, 0.40),
}

Source = Literal["settings", "default"]


@dataclass(frozen=True)
class Match:
    pattern: str
    price: Price
    source: Source


class PriceTable:
    """The user's prices, then the defaults; lookups are cached per ``provider:model``."""

    def __init__(self, user: Mapping[str, Price] | None = None) -> None:
        self.user = dict(user or {})
        self._found: dict[tuple[str, str], Match | None] = {}

    def rows(self) -> Iterator[Match]:
        """Every pattern in the order they are tried."""
        for pattern, price in self.user.items():
            yield Match(pattern, price, "settings")
        for pattern, price in DEFAULT_PRICES.items():
            if pattern not in self.user:
                yield Match(pattern, price, "default")

    def match(self, provider: str, model: str) -> Match | None:
        key = (provider, model)
        if key not in self._found:
            spec = f"{provider}:{model}"
            self._found[key] = next(
                (m for m in self.rows() if fnmatchcase(spec, m.pattern)
                 or fnmatchcase(model, m.pattern)),
                None,
            )  # fmt: skip
        return self._found[key]

    def cost(self, provider: str, model: str, usage: Usage) -> float | None:
        """Dollars, or None when no price is known for the model."""
        found = self.match(provider, model)
        return None if found is None else found.price.cost(usage)


def format_cost(dollars: float | None) -> str:
    """``$0.0123``-style: enough digits to tell small calls apart; "no price" when unknown."""
    if dollars is None:
        return "no price"
    if dollars == 0:
        return "$0"
    if dollars < 0.01:
        return f"${dollars:.4f}"
    return f"${dollars:.2f}" if dollars >= 1 else f"${dollars:.3f}"
