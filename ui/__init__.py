"""The PySide6 desktop app: thin widgets, Qt models and controllers over ``app``."""
