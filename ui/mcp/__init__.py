"""MCP in the window: the approval card before a tool runs, prompts as /commands, and attaching
a server's resources.

May import ``ui.composer.composer``, ``ui.chat`` and ``ui.common``.
"""
