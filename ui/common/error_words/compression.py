"""The window's sentences for errors about compression (app/context)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
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
}
