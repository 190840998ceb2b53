"""Crosstalk: a chat client for language models. Plain Python; the Qt front end is ui/."""
