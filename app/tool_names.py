"""The names of the built-in tools and the default tool-round limit: what settings check
against without loading the tools themselves (``app/tools.py`` holds the tools; a test keeps
the two in step), so the reading commands start without them."""

from __future__ import annotations

BUILTIN_NAMES = ("search_conversations", "read_notebook", "update_notebook", "current_time")
DEFAULT_MAX_ROUNDS = 8
