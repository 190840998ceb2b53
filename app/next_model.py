"""Which model a conversation goes on with when nobody picks one: the CLI's ``ask -c`` and the
window's model picker both ask here, so they cannot disagree."""

from __future__ import annotations

from app.history import ModelOutput
from app.providers import Models


def model_to_continue(last: ModelOutput | None, models: Models) -> str | None:
    """The ``provider:model`` of the last reply, if its provider is one this app can call;
    None (the caller then takes the default model) otherwise, or when there is no reply yet.

    An imported conversation's replies name the app that wrote them ("chatgpt:gpt-4o"), not a
    provider configured here, and a provider removed from the settings leaves its
    conversations the same way: going on with them would only fail. ``models`` is built from
    the settings' providers and the built-in one (``composition.build_models``), so it is
    exactly what a turn can resolve. The replies themselves keep their own model.
    """
    if last is None:
        return None
    if last.provider not in {entry.name for entry in models.entries()}:
        return None
    return f"{last.provider}:{last.model}"
