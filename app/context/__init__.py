"""Context policy, token counting and compression: what a long conversation sends, and why."""

from app.context.compress import (
    CompressionError,
    NothingToCompress,
    Outcome,
    commit,
    compress,
    compressible,
    standing,
    undo,
)
from app.context.events import Compressed, Compressing, CompressionFailed, ContextEvent, OnContext
from app.context.policy import POLICY_FIELDS, ContextPolicy, PolicyStore, parse_assignment
from app.context.service import Contexts
from app.context.strategies import Strategy, parse_strategy
from app.context.tokens import Method, TokenCounter, count_entry, count_text, method_for

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
    "compress",
    "compressible",
    "count_entry",
    "count_text",
    "method_for",
    "parse_assignment",
    "parse_strategy",
    "standing",
    "undo",
]
