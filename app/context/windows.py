"""How many tokens a model's context window holds.

A provider that knows (the built-in model) says so through an optional ``context_window(model)``
method; otherwise the figure comes from this table of the providers' published windows, by model
name prefix; the user's ``context_windows`` setting overrides both (e.g. for a local server).
"""

from __future__ import annotations

from collections.abc import Mapping

from app.providers.local import CONTEXT_WINDOW, MODEL_NAME

# first match wins, so longer prefixes come before shorter ones
KNOWN_WINDOWS: tuple[tuple[str, int], ...] = (
    (MODEL_NAME, CONTEXT_WINDOW),  # the built-in model, when only its name is at hand
    ("gpt-4.1", 1_047_576),
    ("gpt-5", 400_000),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4", 8_192),
    ("gpt-3.5", 16_385),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4", 200_000),
    ("claude-", 200_000),
    ("gemini-1.5-pro", 2_097_152),
    ("gemini-", 1_048_576),
)
UNKNOWN_CLOUD = 128_000
UNKNOWN_SERVER = 8_192  # an OpenAI-compatible server's model: assume a small local one


def context_window(
    spec: str,
    provider: object,
    model: str,
    overrides: Mapping[str, int] = {},
    *,
    server: bool = False,
) -> int:
    if spec in overrides:
        return overrides[spec]
    told = getattr(provider, "context_window", None)
    if callable(told):
        window = told(model)
        if isinstance(window, int) and window > 0:
            return window
    bare = model.rsplit("/", 1)[-1]
    for prefix, window in KNOWN_WINDOWS:
        if bare.startswith(prefix):
            return window
    return UNKNOWN_SERVER if server else UNKNOWN_CLOUD
