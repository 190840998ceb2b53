"""Context policy, token counting and compression: what a long conversation sends, and why.

Names are loaded from their modules on first use (PEP 562): a module that needs one part
(``app.settings`` checks the policy) does not import the rest, which would slow down a command
that only reads the library (docs/performance.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.context.compression import (
        CompressionError,
        NothingToCompress,
        Outcome,
        commit,
        commit_async,
        compress,
        compressible,
        standing,
        undo,
        undo_async,
    )
    from app.context.events import (
        Compressed,
        Compressing,
        CompressionFailed,
        ContextEvent,
        OnContext,
    )
    from app.context.policy import POLICY_FIELDS, ContextPolicy, PolicyStore, parse_assignment
    from app.context.service import Contexts
    from app.context.strategies import Strategy, parse_strategy
    from app.context.tokens import Method, TokenCounter, count_entry, count_text, method_for

_HOMES = {  # module: the names it gives
    "compression": ["CompressionError", "NothingToCompress", "Outcome", "commit", "commit_async",
                    "compress", "compressible", "standing", "undo", "undo_async"],
    "events": ["Compressed", "Compressing", "CompressionFailed", "ContextEvent", "OnContext"],
    "policy": ["POLICY_FIELDS", "ContextPolicy", "PolicyStore", "parse_assignment"],
    "service": ["Contexts"],
    "strategies": ["Strategy", "parse_strategy"],
    "tokens": ["Method", "TokenCounter", "count_entry", "count_text", "method_for"],
}  # fmt: skip
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # once: later lookups find it
    return value


__all__ = [
    "POLICY_FIELDS",
    "Compressed",
    "Compressing",
    "CompressionError",
    "CompressionFailed",
    "ContextEvent",
    "ContextPolicy",
    "Contexts",
    "Method",
    "NothingToCompress",
    "OnContext",
    "Outcome",
    "PolicyStore",
    "Strategy",
    "TokenCounter",
    "commit",
    "commit_async",
    "compress",
    "compressible",
    "count_entry",
    "count_text",
    "method_for",
    "parse_assignment",
    "parse_strategy",
    "standing",
    "undo",
    "undo_async",
]
