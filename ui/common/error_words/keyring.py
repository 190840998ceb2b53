"""The window's sentences for errors about the OS keyring (app/keys.py, app/sync/secrets.py)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
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
}
