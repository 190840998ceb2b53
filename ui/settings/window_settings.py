"""Settings as the window opens them: the dialog wired to the services, the sync runner and the
Test button (``ui.settings.provider_test``), and what the user changed saved onto settings.toml
as it is now. The window's widgets follow through ``applied``; the window keeps the language and
the stall log (``language_chosen``, ``stall_logging_chosen``) and restarts (``restart_requested``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import msgspec
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app.composition import build_models
from app.errors import CrosstalkError
from app.settings import Settings
from ui.common import errors_text
from ui.settings.provider_test import try_provider

if TYPE_CHECKING:
    from ui.chat.controller import ChatController
    from ui.settings.dialog import ProviderTrial, SettingsDialog
    from ui.sync.status import SyncRunner


class WindowSettings(QObject):
    applied = Signal(object)  # the Settings saved; the services' settings and models are new
    failed = Signal(str)  # why they could not be saved, for the window's banner
    language_chosen = Signal(str)  # "system" or a code, to keep in window.ini
    stall_logging_chosen = Signal(bool)
    restart_requested = Signal()  # Restart now: saved; the window closes and starts again
    sync_now_requested = Signal()

    def __init__(
        self,
        controller: ChatController,
        sync: SyncRunner,
        parent: QWidget,
        *,
        running_language: str,
    ) -> None:
        """``running_language``: the language this process shows (chosen at start)."""
        super().__init__(parent)
        self.controller = controller
        self.services = controller.services
        self.sync = sync
        self.running_language = running_language
        self._parent = parent

    def open(
        self,
        provider: str | None = None,
        *,
        sync: bool = False,
        language: str,
        stall_logging: bool,
    ) -> SettingsDialog:
        """Settings, non-modal; with ``provider``, at that provider's key (the welcome's Add a
        key); with ``sync``, at Sync. ``language``: the language setting, ``stall_logging``:
        whether the stall log is on."""
        from ui.settings.dialog import SettingsDialog

        services = self.services
        dialog = SettingsDialog(
            services.settings, services.keys, services.models.available(), self._parent,
            language=language, running_language=self.running_language,
            stall_logging=stall_logging, mcp=services.mcp, data=services.data,
        )  # fmt: skip
        if (tab := dialog.sync_tab) is not None:  # set up or off at once: sync follows
            tab.sync_changed.connect(
                lambda config: self.controller.spawn(self.sync.restart(config))
            )
            tab.sync_now_requested.connect(self.sync_now_requested)
            self.sync.status_changed.connect(tab.show_status)
            tab.show_status(self.sync.status)
            if sync:
                dialog.tabs.setCurrentWidget(tab)
        dialog.settings_saved.connect(self.apply)
        dialog.language_chosen.connect(self.language_chosen)
        dialog.stall_logging_chosen.connect(self.stall_logging_chosen)
        dialog.restart_requested.connect(self.restart_requested)
        dialog.test_requested.connect(
            lambda trial: self.controller.spawn(self._test_provider(dialog, trial))
        )
        dialog.open()  # non-modal
        if provider:
            dialog.show_key_for(provider)
        return dialog

    def apply(self, edited: Settings) -> None:
        """Save what the user changed in the dialog, onto settings.toml as it is now: what a
        command or a sync saved meanwhile is kept, unless the user changed that too."""
        from app.settings_store import update_settings

        services = self.services
        shown = services.settings
        changes = {
            name: getattr(edited, name)
            for name in Settings.__struct_fields__
            if getattr(edited, name) != getattr(shown, name)
        }

        def changed(now: Settings) -> Settings:  # Settings' own checks run on the whole
            return Settings(**(msgspec.structs.asdict(now) | changes))

        try:
            settings = update_settings(services.data, changed)
        except CrosstalkError as exc:
            said = self.tr("Could not save the settings: {error}")
            self.failed.emit(said.format(error=errors_text.said(exc)))
            return
        self.controller.retire(services.models)  # a running reply may still use it
        services.settings = settings
        services.models = build_models(settings, services.keys, os.environ)
        self.applied.emit(settings)

    async def _test_provider(self, dialog: SettingsDialog, trial: ProviderTrial) -> None:
        name = trial.name
        ok, text = await try_provider(trial)
        dialog.show_test_result(name, ok, text)
