"""A conversation's context policy: defaults from settings, the conversation's own choices on top.

The choices live in ``context.json`` beside the transcripts (as pins live in ``pins.json``): a
map from conversation id to the fields it sets, nothing else. A policy says how future requests
are built, not something that happened in the conversation, so it is not an entry in the
append-only history; changing it never needs a turn. The index never holds it, so a reindex
leaves it alone; a conversation restored from the trash finds its policy where it left it. A
field a conversation never set follows the settings, so a changed default reaches it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from app.atomic import replace_file
from app.context.strategies import parse_strategy
from app.errors import InvalidValue, StorageError

POLICY_FILE = "context.json"


class ContextPolicy(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    window_turns: int | None = None  # recent turns a request carries at most; None: budget
    budget_share: float = 0.75  # of the model's context window a request may use
    reply_tokens: int = 4096  # kept free for the reply (at most a quarter of a small window)
    auto_compress: bool = False  # compress before a request that would pass the threshold
    compress_strategy: str = "chunked:10"  # what automatic compression runs
    compress_threshold: float = 0.8  # of the budget: compress before passing it
    compression_model: str = "local:smollm2"
    keep_first_input: bool = True  # the first user message is always carried
    keep_recent_turns: int = 2  # automatic compression leaves the newest turns as they are

    def __post_init__(self) -> None:
        if self.window_turns is not None and self.window_turns < 1:
            raise InvalidValue(cause="at_least_or_none", field="window_turns")
        if not 0 < self.budget_share <= 1:
            raise InvalidValue(cause="share", field="budget_share")
        if not 0 < self.compress_threshold <= 1:
            raise InvalidValue(cause="share", field="compress_threshold")
        if self.reply_tokens < 0:
            raise InvalidValue(cause="negative", field="reply_tokens")
        if self.keep_recent_turns < 1:
            raise InvalidValue(cause="at_least_one_turn", field="keep_recent_turns")
        parse_strategy(self.compress_strategy)

    def budget(self, window: int, max_tokens: int | None = None, reserved: int = 0) -> int:
        """Tokens the context may use: a share of the window, the reply's room left free."""
        # a small window cannot spare 4k for a reply: a quarter of it is room enough
        reply = max_tokens if max_tokens is not None else min(self.reply_tokens, window // 4)
        return max(min(int(window * self.budget_share), window - reply) - reserved, 0)

    def changed(self, **changes: Any) -> ContextPolicy:
        """This policy with ``changes``, each checked (types and ranges) as settings are."""
        try:
            return msgspec.convert(msgspec.to_builtins(self) | changes, ContextPolicy)
        except msgspec.ValidationError as exc:
            raise InvalidValue(cause="policy", detail=str(exc)) from exc


POLICY_FIELDS = tuple(ContextPolicy.__struct_fields__)


def parse_assignment(text: str) -> tuple[str, Any]:
    """``auto_compress=on`` -> ("auto_compress", True); values are TOML-ish: on/off, numbers."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or key not in POLICY_FIELDS:
        raise InvalidValue(cause="policy_assignment", choices=", ".join(POLICY_FIELDS), given=text)
    raw = raw.strip()
    if key == "window_turns" and raw.lower() in ("none", "off", "budget"):
        return key, None  # no fixed number of turns: the token budget decides
    words = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}
    if raw.lower() in words:
        return key, words[raw.lower()]
    for kind in (int, float):
        try:
            return key, kind(raw)
        except ValueError:
            pass
    return key, raw


class PolicyStore:
    """Per-conversation choices in ``context.json``, written atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.choices: dict[str, dict[str, Any]] = {}
        self.problem: str | None = None
        try:
            self.choices = msgspec.json.decode(path.read_bytes(), type=dict[str, dict[str, Any]])
        except FileNotFoundError:
            pass
        except (OSError, msgspec.DecodeError) as exc:
            # kept as it is: changing a policy is refused rather than overwriting the user's file
            self.problem = f"{path} cannot be read ({exc}); fix or delete it"

    def policy(self, conversation_id: str, defaults: ContextPolicy) -> ContextPolicy:
        choices = self.choices.get(conversation_id, {})
        known = {k: v for k, v in choices.items() if k in POLICY_FIELDS}
        try:
            return defaults.changed(**known)
        except ValueError:
            return defaults  # a hand-edited choice that no longer validates: the defaults

    def set(self, conversation_id: str, changes: dict[str, Any], defaults: ContextPolicy) -> None:
        """Record ``changes`` (checked first); an empty dict forgets the conversation's choices."""
        if self.problem:
            raise StorageError(self.problem)
        mine = dict(self.choices.get(conversation_id, {}))
        mine.update(changes)
        defaults.changed(**mine)  # raises ValueError before anything is written
        choices = dict(self.choices)
        if changes:
            choices[conversation_id] = mine
        else:
            choices.pop(conversation_id, None)
        try:
            replace_file(self.path, msgspec.json.encode(choices))
        except OSError as exc:
            raise StorageError(f"could not save {self.path} ({exc.strerror or exc})") from exc
        self.choices = choices
