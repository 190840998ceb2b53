"""The Settings dialog and its tabs: providers and keys, models, sync, tools (MCP servers), prices.

May import ``ui.sync``, ``ui.common`` and the packages below them.
"""
