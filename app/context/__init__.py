"""Context policy, token counting and compression: what a long conversation sends, and why.

Names are loaded from their modules on first use (PEP 562): a module that needs one part
(``app.settings`` checks the policy) does not import the rest, which would slow down a command
that only reads the library (docs/performance.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_names import lazy_names

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
    "app.context.compression": ["CompressionError", "NothingToCompress", "Outcome", "commit",
                                "commit_async", "compress", "compressible", "standing", "undo",
                                "undo_async"],
    "app.context.events": ["Compressed", "Compressing", "CompressionFailed", "ContextEvent",
                           "OnContext"],
    "app.context.policy": ["POLICY_FIELDS", "ContextPolicy", "PolicyStore", "parse_assignment"],
    "app.context.service": ["Contexts"],
    "app.context.strategies": ["Strategy", "parse_strategy"],
    "app.context.tokens": ["Method", "TokenCounter", "count_entry", "count_text", "method_for"],
}  # fmt: skip
__getattr__ = lazy_names(__name__, _HOMES, globals())


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
