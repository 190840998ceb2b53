"""Sync in the window: the status bar's line and the background sync it shows.

May import ``ui.common`` only.
"""
