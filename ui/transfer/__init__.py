"""File > Export and File > Import: the dialogs and the worker thread that runs them.

May import ``ui.inspector`` (its wording), ``ui.chat`` and ``ui.common``.
"""
