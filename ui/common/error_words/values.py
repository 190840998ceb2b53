"""The window's sentences for errors about values a person gave (app/errors.py InvalidValue,
EmptyValue)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
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
    ("InvalidValue", "tag"): QT_TRANSLATE_NOOP(
        "ErrorsText", "“{given}” is not a usable tag: use 1 to {bound} characters, without commas"
    ),
    ("InvalidValue", "project_name"): QT_TRANSLATE_NOOP(
        "ErrorsText", "A project's name needs 1 to {bound} characters, not “{given}”"
    ),
    ("InvalidValue", "project_field"): QT_TRANSLATE_NOOP(
        "ErrorsText", "A project has no setting “{given}”; its settings are: {choices}"
    ),
    ("InvalidValue", "project_value"): QT_TRANSLATE_NOOP(
        "ErrorsText", "That project setting cannot be used ({detail})"
    ),
    ("InvalidValue", "project_in_project"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{project} is a project: only conversations go into projects"
    ),
    ("InvalidValue", "svg_unsafe"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The drawing is not shown: it holds {detail}; a drawing may hold shapes, text and "
        "gradients only",
    ),
    ("InvalidValue", "svg_too_large"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The drawing is not shown: {detail} is more than {bound}"
    ),
    ("InvalidValue", "svg_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "The drawing is not shown: it is not SVG that can be read ({detail})"
    ),
    ("InvalidValue", "project_tags"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{project} is a project: only conversations have tags"
    ),
    ("InvalidValue", "project_exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "A project named “{name}” exists: choose another name"
    ),
    ("InvalidValue", "ambiguous_project"): QT_TRANSLATE_NOOP(
        "ErrorsText", "“{given}” names several projects ({choices}): give more of the name"
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
}
