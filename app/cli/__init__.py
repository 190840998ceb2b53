"""The command line, ``crosstalk COMMAND``: one module per group of commands.

``parser`` declares every command and its options and imports nothing heavy; ``main`` parses,
opens the library (alone for the commands that only read) or builds the services, and runs
the command's handler, named ``"module:function"`` and imported only then. The other modules
are the handlers: ``ask``, ``conversations``, ``models``, ``branches``, ``attachments``,
``context``, ``usage``, ``mcp``, ``sync``, ``transfer``; ``turn`` streams a turn to the terminal
and ``approval`` asks before a tool runs. It may import any of ``app``; nothing in ``app``
imports it.
"""
