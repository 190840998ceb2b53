"""The user's documents in the window (docs/knowledge.md): the Knowledge dialog (a project's,
a conversation's or every source, with indexing in the background), the indexer's thread and
its status line, watching attached folders, and the source viewer a citation opens.

May import ``ui.common`` (and ``app``); the shell opens the dialog and the viewer and wires
them, the project dialog offers the project's sources.
"""
