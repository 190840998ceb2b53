"""Window geometry, splitter sizes, docks, the last conversation and the language, restored on
the next start."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, QSize

from app.paths import DataDir


class WindowState:
    def __init__(self, data: DataDir) -> None:
        self._settings = QSettings(str(data.root / "window.ini"), QSettings.Format.IniFormat)

    def geometry(self) -> QByteArray | None:
        value = self._settings.value("geometry")
        return value if isinstance(value, QByteArray) else None

    def minimum_size(self, part: str) -> QSize | None:
        """The smallest ``part`` ("window", "chat side") of the filled window was last time,
        for its frame to keep before it is filled again (``ui/shell/frame.py``), so filling
        it moves nothing."""
        value = self._settings.value(f"minimum_size/{part}")
        return value if isinstance(value, QSize) and value.isValid() else None

    def save_minimum_size(self, part: str, size: QSize) -> None:
        self._settings.setValue(f"minimum_size/{part}", size)

    def splitter(self) -> QByteArray | None:
        value = self._settings.value("splitter")
        return value if isinstance(value, QByteArray) else None

    def layout(self) -> QByteArray | None:
        """``QMainWindow.saveState``: which docks (the inspector) are shown, and where."""
        value = self._settings.value("layout")
        return value if isinstance(value, QByteArray) else None

    def inspector(self) -> tuple[int, QByteArray | None]:
        """The inspector's tab in front, and its History columns (order, widths, hidden)."""
        tab = self._settings.value("inspector_tab")
        columns = self._settings.value("history_columns")
        return (
            int(tab) if isinstance(tab, int | str) and str(tab).isdigit() else 0,
            columns if isinstance(columns, QByteArray) else None,
        )

    def save_inspector(self, tab: int, columns: QByteArray) -> None:
        self._settings.setValue("inspector_tab", tab)
        self._settings.setValue("history_columns", columns)
        self._settings.sync()

    def theme(self) -> str:
        """ "system", "light" or "dark" (View > Theme)."""
        value = self._settings.value("theme")
        return value if value in ("system", "light", "dark") else "system"

    def language(self) -> str:
        """Settings > Language: "system", or a language code ("en", "ja", "zh_CN" ...)."""
        value = self._settings.value("language")
        return value if isinstance(value, str) and value else "system"

    def save_language(self, code: str) -> None:
        self._settings.setValue("language", code)
        self._settings.sync()

    def stall_logging(self) -> bool:
        """Settings > Advanced: log the window's stalls (ui/shell/stall_monitor.py)."""
        return str(self._settings.value("advanced/stall_logging", "false")).lower() == "true"

    def save_stall_logging(self, on: bool) -> None:
        self._settings.setValue("advanced/stall_logging", "true" if on else "false")
        self._settings.sync()

    def chat_font_size(self) -> float | None:
        """The chat's font size in points, if the user zoomed it (View > Zoom)."""
        try:
            value = float(self._settings.value("chat_font_size") or 0)
        except (TypeError, ValueError):  # a hand-edited file
            return None
        return value if 4 <= value <= 72 else None

    def save_look(self, theme: str, chat_font_size: float | None) -> None:
        self._settings.setValue("theme", theme)
        self._settings.setValue("chat_font_size", chat_font_size or "")
        self._settings.sync()

    def projects_collapsed(self) -> bool:
        """Whether the list's projects section was left folded to its header."""
        return self._settings.value("projects_collapsed") == "true"

    def save_projects_collapsed(self, collapsed: bool) -> None:
        self._settings.setValue("projects_collapsed", "true" if collapsed else "false")

    def last_conversation(self) -> str | None:
        value = self._settings.value("last_conversation")
        return value if isinstance(value, str) and value else None

    def save(
        self,
        geometry: QByteArray,
        splitter: QByteArray,
        conversation_id: str | None,
        layout: QByteArray | None = None,
    ) -> None:
        self._settings.setValue("geometry", geometry)
        self._settings.setValue("splitter", splitter)
        if layout is not None:
            self._settings.setValue("layout", layout)
        self._settings.setValue("last_conversation", conversation_id or "")
        self._settings.sync()
