"""Python's cyclic garbage collector, off while a command starts.

Starting a command is importing modules and building services: many objects that live as long
as the process, little garbage, and the collector walking all of them again and again as they
are made (the OpenAI SDK's import builds hundreds of pydantic models). So ``main`` turns it off
first, and turns it back on for the command's own work (``resume``), with what start-up made
frozen: kept out of every later collection, as the window does after its first paint
(docs/performance.md). A turn resumes it once its reply starts to arrive (``app.cli.turn``).
"""

from __future__ import annotations

import gc


def pause() -> None:
    gc.disable()


def resume() -> None:
    """Collect again, never looking at what exists now (it lives as long as the command).
    Frozen once a process: a test that runs many commands in one freezes only at its first."""
    if gc.isenabled():
        return
    if not gc.get_freeze_count():
        gc.freeze()
    gc.enable()
