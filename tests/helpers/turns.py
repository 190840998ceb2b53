"""Turn runners for tests: a library and models with the simplest of every other service (the
last 20 turns with no budget, attachments sent as stored, the built-in tools, calls that need
approval denied, searches as written), each replaceable, and the knobs as given."""

from __future__ import annotations

from typing import Any

from app.approval import Approve, deny_all
from app.context.service import ContextSource, FixedWindow
from app.providers import Models
from app.store import Library
from app.tools import ToolBox
from app.turn import AsStored, Fitting, TurnRunner, TurnSettings, recall_of


def runner(
    library: Library,
    models: Models,
    *,
    contexts: ContextSource | None = None,
    sending: Fitting | None = None,
    toolbox: ToolBox | None = None,
    approve: Approve = deny_all,
    recall_model: str | None = None,
    **knobs: Any,
) -> TurnRunner:
    """A runner of ``library`` and ``models``; ``knobs`` are ``TurnSettings`` fields."""
    return TurnRunner.build(
        library,
        models,
        contexts or FixedWindow(20),
        sending or AsStored(),
        toolbox or ToolBox.builtin(),
        settings=TurnSettings(**knobs),
        approve=approve,
        recall=recall_of(recall_model),
    )
