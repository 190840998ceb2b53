"""The window's sentences for errors about turns (app/turn)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
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
