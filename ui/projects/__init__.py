"""Projects and tags in the window: the Project dialog (a project's name, instructions and
defaults), Move to project, and a conversation's tags. Each dialog writes through
``app.store.projects.Projects`` off the window's thread and says a failure in itself.

May import ``ui.common`` (and ``app``); the shell opens these dialogs and wires them.
"""
