"""The settings a turn of a conversation starts from: the settings, with the defaults of the
conversation's project in their place (docs/projects.md). The conversation's own choices go on
top of these (``app.tuning``: remembered with each input)."""

from __future__ import annotations

import dataclasses

from app.history import History
from app.store import Library
from app.store.projects import Projects
from app.tuning import FIELDS, applied
from app.turn.settings import TurnSettings


def with_project(library: Library, settings: TurnSettings, history: History) -> TurnSettings:
    """``settings`` with the project's tools, temperature, max tokens and thinking, where the
    project sets them; ``settings`` itself for a conversation in no project."""
    project = Projects(library).of(history)
    if project is None:
        return settings
    tuning = {k: v for k, v in project.defaults.items() if k in FIELDS}
    base = applied(settings, tuning)
    if project.tools is not None:
        base = dataclasses.replace(base, default_tools=tuple(project.tools))
    return base
