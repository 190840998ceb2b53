"""The window's translations for a while in a test (the tests run in English)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from ui.common import i18n


@contextmanager
def language(qapp: QApplication, code: str) -> Iterator[None]:
    """The window's translations for ``code`` while inside, English (as tests run) after."""
    before = QLocale()
    installed = i18n.install(qapp, code, system=QLocale(code))
    try:
        yield
    finally:
        for translator in installed.translators:
            qapp.removeTranslator(translator)
        QLocale.setDefault(before)
