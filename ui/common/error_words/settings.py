"""The window's sentences for errors about settings.toml (app/settings.py) and mcp.json
(app/mcp/config.py)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
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
}
