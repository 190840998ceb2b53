"""Where the user writes: the message box, the per-turn model picker, the Tools menu, the chips of
attached files, This chat…, and the prompt shown when a message is too long for the model.

May import ``ui.chat`` (the controller and attachment files) and ``ui.common``.
"""
