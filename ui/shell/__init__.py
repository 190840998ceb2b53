"""The shell: the ``crosstalk`` command, starting Qt and the event loop, the main window that wires
every package together, its menus, Help, window state, and the checks and dialogs of start-up.

The top package: it may import every other ``ui`` package; none imports it.
"""
