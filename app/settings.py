"""User settings: ``settings.toml`` in the data dir; every field optional, with a default.

```toml
default_model = "anthropic:claude-sonnet-4-5"
title_model = "local:smollm2"
window_turns = 40             # a fixed number of recent turns; default: the token budget alone
auto_compress = true          # long conversations: see app/context/policy.py

[providers.ollama]            # any OpenAI-compatible server, by base URL
kind = "openai-compatible"
base_url = "http://127.0.0.1:11434/v1"
models = ["llama3.2"]
```
Keys never live here: they are in the OS keyring (``crosstalk key set NAME``) or the
environment.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Literal

import msgspec

from app.errors import CrosstalkError, InvalidValue
from app.paths import DataDir
from app.pricing import Price
from app.settings_sync import SyncConfig
from app.tool_names import BUILTIN_NAMES, DEFAULT_MAX_ROUNDS

if TYPE_CHECKING:
    from app.context.policy import ContextPolicy

ProviderKind = Literal["openai", "openai-responses", "anthropic", "gemini", "openai-compatible"]
LOCAL = "local"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


class ProviderConfig(msgspec.Struct, frozen=True, kw_only=True):
    kind: ProviderKind
    base_url: str | None = None
    models: list[str] = []
    needs_key: bool | None = None  # default: yes, except for OpenAI-compatible servers

    @property
    def key_required(self) -> bool:
        return self.kind != "openai-compatible" if self.needs_key is None else self.needs_key


DEFAULT_PROVIDERS: dict[str, ProviderConfig] = {
    "openai": ProviderConfig(kind="openai", models=["gpt-4.1", "gpt-4.1-mini", "gpt-5", "o4-mini"]),
    "anthropic": ProviderConfig(
        kind="anthropic",
        models=["claude-sonnet-5-5", "claude-haiku-5-5", "claude-opus-5-5", "claude-sonnet-4-6"],
    ),
    "gemini": ProviderConfig(kind="gemini", models=["gemini-2.5-flash", "gemini-2.5-pro"]),
}


class Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=False):
    default_model: str = "local:smollm2"
    title_model: str = "local:smollm2"
    window_turns: int | None = None  # recent turns sent at most; None: the token budget decides
    max_tool_rounds: int = DEFAULT_MAX_ROUNDS
    reasoning: Literal["low", "medium", "high"] | None = None  # thinking, where a model can
    default_tools: list[str] = []  # tools a new conversation starts with
    enter_sends: bool = True  # False: Enter starts a new line and Ctrl+Enter sends
    recall_model: str | None = None  # rewrites recall queries; default: the title model
    providers: dict[str, ProviderConfig] = {}
    # long conversations: the context policy every conversation starts with (each can change
    # it: app/context/policy.py); window_turns above is part of it
    budget_share: float = 0.75  # of the model's context window a request may use
    reply_tokens: int = 4096  # kept free for the reply
    auto_compress: bool = False  # compress before a request that would pass the threshold
    compress_strategy: str = "chunked:10"  # whole | last-n:N | chunked:N | facts:CONCEPTS
    compress_threshold: float = 0.8  # of the budget
    compression_model: str = "local:smollm2"
    keep_first_input: bool = True  # the first user message is always carried
    keep_recent_turns: int = 2  # automatic compression leaves the newest turns as they are
    context_windows: dict[str, int] = {}  # "provider:model" -> tokens, for models not known
    prices: dict[str, Price] = {}  # pattern -> USD per million tokens, before the defaults
    # "provider:model" patterns of models that read images, for OpenAI-compatible servers
    # (cloud providers' own models are known; app/attachments/profiles.py)
    vision_models: list[str] = []
    tool_share: float = 0.1  # of the token budget tool definitions may take; 0: no limit
    tool_result_chars: int = 24_000  # a tool result longer than this is cut for the model
    sync: SyncConfig | None = None  # the sync remote: `crosstalk sync setup` (app/sync/)
    # the user's documents (app/knowledge/, docs/knowledge.md)
    embedding_model: str | None = None  # "provider:model" that embeds passages; None: words only
    knowledge_passages: int = 6  # passages sent with a question, at most
    knowledge_share: float = 0.25  # of the token budget the passages may take

    def __post_init__(self) -> None:
        if self.window_turns is not None and self.window_turns < 1:
            raise InvalidValue(cause="at_least", field="window_turns", bound=1)
        if self.max_tool_rounds < 1:
            raise InvalidValue(cause="at_least", field="max_tool_rounds", bound=1)
        # MCP servers' selectors ("mcp:fs", "mcp:fs/read_file") are checked when used: mcp.json
        # is not read here
        unknown = [
            n for n in self.default_tools if n not in BUILTIN_NAMES and not n.startswith("mcp:")
        ]
        if unknown:
            raise InvalidValue(
                cause="default_tool", given=unknown[0], choices=", ".join(BUILTIN_NAMES)
            )
        if not 0 <= self.tool_share <= 1:
            raise InvalidValue(cause="share_or_off", field="tool_share")
        if self.knowledge_passages < 1:
            raise InvalidValue(cause="at_least", field="knowledge_passages", bound=1)
        if not 0 < self.knowledge_share <= 1:
            raise InvalidValue(cause="share", field="knowledge_share")
        if self.tool_result_chars < 100:
            raise InvalidValue(cause="at_least", field="tool_result_chars", bound=100)
        self.context_policy()  # raises ValueError naming the field
        for spec, window in self.context_windows.items():
            if window < 1 or ":" not in spec:
                raise InvalidValue(cause="context_window", given=spec, bound=window)
        for name in self.providers:
            if name == LOCAL or not _NAME.fullmatch(name):
                raise InvalidValue(cause="provider_name", given=name)

    def context_policy(self) -> ContextPolicy:
        """The policy of a conversation that has chosen nothing of its own."""
        # here: importing the context package would slow a command that only reads the library
        from app.context.policy import POLICY_FIELDS, ContextPolicy

        return ContextPolicy(**{name: getattr(self, name) for name in POLICY_FIELDS})

    def all_providers(self) -> dict[str, ProviderConfig]:
        """The built-in cloud providers, with the user's own added or overriding them."""
        return DEFAULT_PROVIDERS | self.providers


def load_settings(data: DataDir) -> Settings:
    """The settings in ``settings.toml`` (defaults if there is none); ``SettingsError`` says
    what is wrong with a file that cannot be used, and where (its line, where there is one)."""
    path = data.settings_file
    try:
        kind = path.stat().st_mode
        if stat.S_ISDIR(kind):
            raise SettingsError(cause="folder", path=str(path))
        if not stat.S_ISREG(kind):  # a pipe or a device: reading it may never end
            raise SettingsError(cause="not_a_file", path=str(path))
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        if path.is_symlink():  # the settings are somewhere the user meant: not the defaults
            raise SettingsError(cause="dangling", path=str(path), target=os.readlink(path)) from exc
        return Settings()
    except PermissionError as exc:
        raise SettingsError(
            cause="no_permission", path=str(path), reason=str(exc.strerror)
        ) from exc
    except OSError as exc:
        raise SettingsError(
            cause="unreadable", path=str(path), reason=exc.strerror or str(exc)
        ) from exc
    try:
        return msgspec.toml.decode(raw, type=Settings)
    except (msgspec.DecodeError, ValueError) as exc:
        detail, line = _located(raw, exc)
        if line:
            raise SettingsError(
                cause="invalid_at", path=str(path), line=line, detail=detail
            ) from exc
        raise SettingsError(cause="invalid", path=str(path), detail=detail) from exc


def settings_or_defaults(data: DataDir) -> tuple[Settings, str | None]:
    """The settings, or the defaults and why, when ``settings.toml`` cannot be used: reading
    and chatting go on, and ``save_settings`` refuses to replace the broken file."""
    try:
        return load_settings(data), None
    except SettingsError as exc:
        return Settings(), f"{exc} (the default settings are used until then)"


def _not_saved(prefix: str, problems: Mapping[str, str]) -> dict[str, str]:
    return {
        prefix + cause: f"settings not saved: {problem}, then save again"
        for cause, problem in problems.items()
    }


class SettingsError(CrosstalkError):
    """settings.toml exists but cannot be used as it stands: the sentence says what and where,
    then what to do. ``reason`` is the OS's words, ``detail`` the TOML reader's; a cause of
    ``NOT_SAVED`` is the same refusing to save over it."""

    PROBLEMS: ClassVar[Mapping[str, str]] = {
        "folder": "{path} is a folder, not a settings file; move it away",
        "not_a_file": "{path} is not a regular file; move it away",
        "dangling": (
            "{path} links to {target}, which does not exist; restore that file or remove the link"
        ),
        "no_permission": "{path} cannot be read ({reason}); fix its permissions (chmod 600 {path})",
        "unreadable": "{path} cannot be read ({reason}); check the file and its disk",
        "invalid": "{path}: {detail}; fix it or move it away",
        "invalid_at": "{path}, line {line}: {detail}; fix it or move it away",
    }
    NOT_SAVED = "not_saved_"  # + a cause of PROBLEMS
    TEMPLATES: ClassVar[Mapping[str, str]] = {**PROBLEMS, **_not_saved(NOT_SAVED, PROBLEMS)}

    def not_saved(self) -> SettingsError:
        """This refusal as a save of the settings says it."""
        return SettingsError(cause=self.NOT_SAVED + self.cause, **self.data)


_TOML_AT = re.compile(r"\s*\(at line (\d+), column \d+\)")
_MSGSPEC_AT = re.compile(r" - at `\$(.*)`$")


def _located(raw: bytes, exc: Exception) -> tuple[str, int | None]:
    """The error's text without its position, and the line of the file it is about (None when
    it names no single line)."""
    if isinstance(exc, UnicodeDecodeError):
        line = raw[: exc.start].count(b"\n") + 1
        return f"byte {raw[exc.start]:#04x} is not UTF-8 (save the file as UTF-8)", line
    text = str(exc)
    if match := _TOML_AT.search(text):  # a TOML syntax error: the parser knows the line
        return (text[: match.start()] + text[match.end() :]).strip(), int(match.group(1))
    if match := _MSGSPEC_AT.search(text):  # a wrong value: at `$.providers[...].kind`
        keys = [k for k in re.split(r"\[\.\.\.\]|\[\d+\]|\.", match.group(1)) if k]
        return f"{text[: match.start()]} ({'.'.join(keys)})", _line_of_key(raw, keys[::-1])
    # a rule of Settings itself: its message names the field, and maybe a quoted key
    quoted = re.findall(r"'([^']+)'", text)
    fields = sorted(
        (f for f in Settings.__struct_fields__ if re.search(rf"\b{f}\b", text)), key=text.find
    )
    return text, _line_of_key(raw, [*quoted, *fields])


def _line_of_key(raw: bytes, keys: list[str]) -> int | None:
    """The line that sets (or opens the table of) the first of ``keys`` set on exactly one
    line; a key set in several places names no line rather than a wrong one."""
    lines = raw.decode(errors="replace").splitlines()
    for key in keys:
        name = rf"(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')"
        pattern = re.compile(rf"^\s*\[*\s*(?:[\w\"'.:*-]+\s*\.\s*)*{name}\s*(?:=|\]|\.)")
        found = [n for n, line in enumerate(lines, 1) if pattern.match(line)]
        if len(found) == 1:
            return found[0]
    return None
