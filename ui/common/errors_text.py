"""The window's words for an error from ``app/``, in the user's language, by its type.

An error of app/ says what it is about as values (``CrosstalkError.cause`` and ``data``, see
``app/errors.py``) beside its English sentence. Here each class's causes have the window's
own sentence, marked for the translator (context "ErrorsText") and filled in with the data:
the same as the command line's, but pointing at the window (Settings) where the command line
names a command. An error made from a message alone is said as it came, after its class's
translated headline when the window speaks another language ("Sync failed: <the English>").
A class is looked up by its name, as a stored error names it (``app.errors.stored``).

Anything that is not a CrosstalkError is a bug: it is reported (Help > Report a problem),
never worded here.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from app.errors import CrosstalkError, Datum
from app.history import ModelOutput
from ui.common import error_words
from ui.common.error_words.marks import QT_TRANSLATE_NOOP

CONTEXT = "ErrorsText"


def _tr(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


TEMPLATES = error_words.TEMPLATES

# What each class of error is, said before its English message when the window speaks
# another language and the error has no sentence of its own here. Every class has one.
HEADLINES: dict[str, str] = {
    "CrosstalkError": QT_TRANSLATE_NOOP("ErrorsText", "Something went wrong"),
    "NotFound": QT_TRANSLATE_NOOP("ErrorsText", "Not found"),
    "InvalidId": QT_TRANSLATE_NOOP("ErrorsText", "Not a conversation id"),
    "TranscriptError": QT_TRANSLATE_NOOP("ErrorsText", "A conversation's file cannot be read"),
    "NewerFormat": QT_TRANSLATE_NOOP("ErrorsText", "Written by a newer Crosstalk"),
    "KnowledgeError": QT_TRANSLATE_NOOP("ErrorsText", "Your documents (knowledge)"),
    "IndexUnusable": QT_TRANSLATE_NOOP("ErrorsText", "The search index cannot be used"),
    "StorageError": QT_TRANSLATE_NOOP("ErrorsText", "A problem with Crosstalk's data folder"),
    "DamagedReference": QT_TRANSLATE_NOOP("ErrorsText", "An attachment's reference is damaged"),
    "AttachmentError": QT_TRANSLATE_NOOP("ErrorsText", "The file cannot be attached or sent"),
    "ProviderError": QT_TRANSLATE_NOOP("ErrorsText", "The model call failed"),
    "UnknownModel": QT_TRANSLATE_NOOP("ErrorsText", "No such model"),
    "AuthFailed": QT_TRANSLATE_NOOP("ErrorsText", "The provider refused the API key"),
    "RateLimited": QT_TRANSLATE_NOOP("ErrorsText", "Rate limited"),
    "Unavailable": QT_TRANSLATE_NOOP("ErrorsText", "The model is unavailable"),
    "BadRequest": QT_TRANSLATE_NOOP("ErrorsText", "The provider rejected the request"),
    "InvalidValue": QT_TRANSLATE_NOOP("ErrorsText", "A value that cannot be used"),
    "EmptyValue": QT_TRANSLATE_NOOP("ErrorsText", "Nothing was given"),
    "UsageError": QT_TRANSLATE_NOOP("ErrorsText", "The command cannot run as given"),
    "TurnRefused": QT_TRANSLATE_NOOP("ErrorsText", "The reply cannot start"),
    "SettingsError": QT_TRANSLATE_NOOP("ErrorsText", "settings.toml cannot be used"),
    "ServerListError": QT_TRANSLATE_NOOP(
        "ErrorsText", "The server's list of models could not be read"
    ),
    "QueryError": QT_TRANSLATE_NOOP("ErrorsText", "The search cannot be read"),
    "KeyringUnavailable": QT_TRANSLATE_NOOP("ErrorsText", "The OS keyring is unavailable"),
    "CompressionError": QT_TRANSLATE_NOOP("ErrorsText", "Compression failed"),
    "NothingToCompress": QT_TRANSLATE_NOOP("ErrorsText", "Nothing to compress"),
    "SummaryFailed": QT_TRANSLATE_NOOP("ErrorsText", "The summary failed"),
    "Cancelled": QT_TRANSLATE_NOOP("ErrorsText", "Stopped before it finished"),
    "ConfigError": QT_TRANSLATE_NOOP("ErrorsText", "mcp.json cannot be used"),
    "MissingSecret": QT_TRANSLATE_NOOP("ErrorsText", "A secret of an MCP server is missing"),
    "CommandNotFound": QT_TRANSLATE_NOOP("ErrorsText", "An MCP server's command was not found"),
    "McpError": QT_TRANSLATE_NOOP("ErrorsText", "An MCP server cannot be used"),
    "ServerFailed": QT_TRANSLATE_NOOP("ErrorsText", "An MCP server failed"),
    "NoSuchServer": QT_TRANSLATE_NOOP("ErrorsText", "No such MCP server"),
    "SyncBusy": QT_TRANSLATE_NOOP("ErrorsText", "Another sync is running"),
    "RemoteError": QT_TRANSLATE_NOOP("ErrorsText", "Sync failed"),
    "WrongCredentials": QT_TRANSLATE_NOOP("ErrorsText", "The sync remote refused the credentials"),
    "NoCredentials": QT_TRANSLATE_NOOP("ErrorsText", "No credentials for the sync remote"),
    "NoSuchPlace": QT_TRANSLATE_NOOP("ErrorsText", "The sync remote's folder is not there"),
    "PermissionDenied": QT_TRANSLATE_NOOP("ErrorsText", "Permission denied on the sync remote"),
    "Unreachable": QT_TRANSLATE_NOOP("ErrorsText", "The sync remote cannot be reached"),
    "Throttled": QT_TRANSLATE_NOOP("ErrorsText", "The sync remote asks to slow down"),
    "RemoteFull": QT_TRANSLATE_NOOP("ErrorsText", "The sync remote is full"),
    "ObjectMissing": QT_TRANSLATE_NOOP("ErrorsText", "Missing on the sync remote"),
    "DamagedObject": QT_TRANSLATE_NOOP("ErrorsText", "Damaged on the sync remote"),
    "Unexplained": QT_TRANSLATE_NOOP("ErrorsText", "Sync failed"),
    "WrongPassphrase": QT_TRANSLATE_NOOP("ErrorsText", "Wrong sync passphrase"),
    "NewerRemote": QT_TRANSLATE_NOOP(
        "ErrorsText", "The sync remote was set up by a newer Crosstalk"
    ),
}

# Words inside a sentence: what was being done on a sync remote (app/sync/errors.py DOING),
# to a file (StorageError.ACTIONS), what was given empty (EmptyValue.WHAT), and a provider's
# part reply kept
DOING = {
    "writing": QT_TRANSLATE_NOOP("ErrorsText", "writing {name}"),
    "reading": QT_TRANSLATE_NOOP("ErrorsText", "reading {name}"),
    "listing": QT_TRANSLATE_NOOP("ErrorsText", "listing {name}"),
    "listing_all": QT_TRANSLATE_NOOP("ErrorsText", "listing the remote"),
    "deleting": QT_TRANSLATE_NOOP("ErrorsText", "deleting {name}"),
    "looking_for": QT_TRANSLATE_NOOP("ErrorsText", "looking for {name}"),
    "opening": QT_TRANSLATE_NOOP("ErrorsText", "opening the remote"),
}
ACTIONS = {
    "create": QT_TRANSLATE_NOOP("ErrorsText", "create"),
    "create the folder": QT_TRANSLATE_NOOP("ErrorsText", "create the folder"),
    "open": QT_TRANSLATE_NOOP("ErrorsText", "open"),
    "open for writing": QT_TRANSLATE_NOOP("ErrorsText", "open for writing"),
    "open the index": QT_TRANSLATE_NOOP("ErrorsText", "open the index"),
    "update the index": QT_TRANSLATE_NOOP("ErrorsText", "update the index"),
    "write": QT_TRANSLATE_NOOP("ErrorsText", "write"),
    "append to": QT_TRANSLATE_NOOP("ErrorsText", "append to"),
    "save": QT_TRANSLATE_NOOP("ErrorsText", "save"),
    "move": QT_TRANSLATE_NOOP("ErrorsText", "move"),
    "move aside": QT_TRANSLATE_NOOP("ErrorsText", "move aside"),
    "put in place": QT_TRANSLATE_NOOP("ErrorsText", "put in place"),
    "remove": QT_TRANSLATE_NOOP("ErrorsText", "remove"),
    "set aside the torn last line of": QT_TRANSLATE_NOOP(
        "ErrorsText", "set aside the torn last line of"
    ),
}
WHAT = {
    "key": QT_TRANSLATE_NOOP("ErrorsText", "key"),
    "secret": QT_TRANSLATE_NOOP("ErrorsText", "secret"),
    "passphrase": QT_TRANSLATE_NOOP("ErrorsText", "passphrase"),
}
KEPT = QT_TRANSLATE_NOOP("ErrorsText", "; what arrived was kept")
WITH_DETAIL = QT_TRANSLATE_NOOP("ErrorsText", "{headline}: {detail}")


def said(exc: CrosstalkError) -> str:
    """``exc`` as the window says it, in the user's language (see the module's docstring)."""
    names = [cls.__name__ for cls in type(exc).__mro__ if issubclass(cls, CrosstalkError)]
    return _worded(names, exc.cause, exc.data, str(exc))


def said_stored(record: object, english: str) -> str:
    """An error kept as ``app.errors.stored`` wrote it, beside its ``english`` (a failed
    sync, a failed reply): in the user's language when the record is one this version
    words, else the English as it was kept."""
    if not isinstance(record, Mapping):
        return english
    name, cause, data = record.get("error"), record.get("cause"), record.get("data")
    if not (isinstance(name, str) and isinstance(cause, str) and isinstance(data, Mapping)):
        return english
    values = {k: v for k, v in data.items() if isinstance(v, str | int | float)}
    return _worded([name], cause, values, english)


def failure(reply: ModelOutput) -> str:
    """Why a reply failed, as its transcript keeps it (``error``, and the values in
    ``meta["failure"]`` a reply failed since this version has), in the user's language;
    "" for a reply that did not fail."""
    return said_stored(reply.meta.get("failure"), reply.error) if reply.error else ""


def _worded(names: list[str], cause: str, data: Mapping[str, Datum], english: str) -> str:
    template = TEMPLATES.get((names[0], cause)) if cause else None
    if template is not None:
        try:
            return _tr(template).format_map(_shown(data))
        except (KeyError, IndexError, ValueError):  # a translation that names another field
            return english
    if names[0] == "CrosstalkError":  # the window's own words (already translated) or app's
        return english
    headline = next((HEADLINES[name] for name in names if name in HEADLINES), "")
    translated = _tr(headline) if headline else ""
    if not translated or translated == headline:  # English: the message says it all
        return english
    return _tr(WITH_DETAIL).format(headline=translated, detail=english)


def _shown(data: Mapping[str, Datum]) -> dict[str, object]:
    """``data`` as the window's sentences write it: the kept part reply, what a sync was
    doing, what was done to a file and what was empty in the user's language, everything
    else as it is."""
    shown: dict[str, object] = dict(data)
    shown["kept"] = _tr(KEPT) if data.get("kept") else ""
    doing = DOING.get(str(data.get("doing", "")))
    if doing is not None:
        shown["doing"] = _tr(doing).format(name=data.get("name", ""))
    action = ACTIONS.get(str(data.get("action", "")))
    if action is not None:
        shown["action"] = _tr(action)
    what = WHAT.get(str(data.get("what", "")))
    if what is not None:
        shown["what"] = _tr(what)
    return shown
