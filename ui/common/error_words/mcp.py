"""The window's sentences for errors about MCP servers (app/mcp)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
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
}
