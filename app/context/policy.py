"""A conversation's context policy: defaults from settings, the conversation's own choices on top.

A conversation's choices are entries in its transcript, so they go wherever it goes: sync
(another device renders with the same policy), export and import, forks, the trash. Each
change is a ``debug_log`` of category ``context_policy`` whose ``meta`` holds the fields it set
(an empty set forgets every choice before it). It is a debug log, not a kind of its own,
because a Crosstalk that does not know a kind refuses the whole transcript, and an older one
must go on syncing it; a debug log is never sent to a model and never drawn in the chat, and
the inspector's history shows it. Changing the policy needs no turn; the changes apply in
order of time, as titles do, so devices that received each other's changes in different
orders agree. A field a conversation never set follows the settings, so a changed default
reaches it.

Older releases kept the choices in ``context.json`` beside the transcripts: it is read on
open, each conversation's choices are written into its transcript once, and the file is then
renamed ``context.json.migrated`` (choices of conversations in the trash stay in it until they
are restored). Until a conversation's choices are moved, they are read from the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from app.atomic import replace_file
from app.context.strategies import parse_strategy
from app.errors import InvalidId, InvalidValue, NotFound, StorageError, TranscriptError
from app.history import DebugLog, History

if TYPE_CHECKING:
    from app.store import Library

POLICY_FILE = "context.json"  # where older releases kept each conversation's choices
CATEGORY = "context_policy"  # the debug logs that carry a conversation's choices


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
    """Each conversation's own choices, kept in its transcript through the library."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.path = library.data.root / POLICY_FILE  # where older releases kept the choices
        self.problem: str | None = None
        self._legacy: dict[str, dict[str, Any]] = {}
        try:
            self._legacy = msgspec.json.decode(
                self.path.read_bytes(), type=dict[str, dict[str, Any]]
            )
        except FileNotFoundError:
            pass
        except (OSError, msgspec.DecodeError) as exc:
            # kept as it is, and said: the choices in it cannot be moved into the transcripts
            self.problem = (
                f"{self.path} cannot be read ({exc}); the context choices in it are not "
                "used: fix or delete it"
            )
        if self._legacy:
            self._migrate()

    def choices(self, conversation_id: str) -> dict[str, Any]:
        """The fields the conversation set itself (the rest follow the settings)."""
        try:
            conversation = self.library.open(conversation_id)
        except (NotFound, InvalidId, TranscriptError):
            return dict(self._legacy.get(conversation_id, {}))
        return self._choices_of(conversation_id, conversation.history)

    def policy(self, conversation_id: str, defaults: ContextPolicy) -> ContextPolicy:
        known = {k: v for k, v in self.choices(conversation_id).items() if k in POLICY_FIELDS}
        try:
            return defaults.changed(**known)
        except ValueError:
            return defaults  # a choice that no longer validates (hand-edited): the defaults

    def set(self, conversation_id: str, changes: dict[str, Any], defaults: ContextPolicy) -> None:
        """Record ``changes`` (checked first) in the conversation's transcript; an empty dict
        forgets the conversation's choices."""
        conversation = self.library.open(conversation_id)
        choices = self._choices_of(conversation.id, conversation.history)
        if changes:
            defaults.changed(**(choices | changes))  # raises InvalidValue before any writing
        if changes and not _entries(conversation.history):
            changes = choices | changes  # the first in the transcript: with those in the file
        self.library.append(conversation, _entry(changes))

    def _choices_of(self, conversation_id: str, history: History) -> dict[str, Any]:
        entries = _entries(history)
        if not entries:  # not moved from context.json yet (the file could not be written)
            return dict(self._legacy.get(conversation_id, {}))
        choices: dict[str, Any] = {}
        for entry in entries:
            changes = entry.meta[CATEGORY]
            choices = choices | changes if changes else {}
        return choices

    def _migrate(self) -> None:
        """Write each conversation's choices from context.json into its transcript, once;
        those of conversations in the trash stay in the file until they are restored."""
        left: dict[str, dict[str, Any]] = {}
        for conversation_id, choices in self._legacy.items():
            try:
                conversation = self.library.open(conversation_id)
            except NotFound:
                if self.library.in_trash(conversation_id):
                    left[conversation_id] = choices
                continue  # (removed for good: its choices with it)
            except (InvalidId, TranscriptError):
                continue
            history = conversation.history
            if choices and not _entries(history):
                # dated as the conversation's newest entry: the list keeps its order, and any
                # change made since, on any device, comes after it
                newest = max(
                    (entry.ts for entry in history), default=conversation.header.created_at
                )
                moved = _entry(choices, ts=newest, meta={"from": POLICY_FILE})
                try:
                    self.library.append(conversation, moved)
                except StorageError:
                    left[conversation_id] = choices  # read from the file until it can be moved
        try:
            if left:
                if left != self._legacy:
                    replace_file(self.path, msgspec.json.encode(left))
            else:
                self.path.rename(self.path.with_name(f"{POLICY_FILE}.migrated"))
        except OSError:
            pass  # moved again (to no effect) by the next process, which tries the same
        self._legacy = left


def _entries(history: History) -> list[DebugLog]:
    """The conversation's policy changes, oldest first by time (then by id)."""
    found = [
        entry
        for entry in history
        if isinstance(entry, DebugLog)
        and entry.category == CATEGORY
        and isinstance(entry.meta.get(CATEGORY), dict)
    ]
    return sorted(found, key=lambda entry: (entry.ts, entry.id))


def _entry(changes: dict[str, Any], ts: str = "", meta: dict[str, Any] | None = None) -> DebugLog:
    said = ", ".join(f"{key}={_spelled(value)}" for key, value in changes.items())
    message = f"set {said}" if changes else "back to the settings' defaults"
    return DebugLog(
        category=CATEGORY, message=message, ts=ts, meta={CATEGORY: changes, **(meta or {})}
    )


def _spelled(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)
