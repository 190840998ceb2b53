"""Settings > Sync: set sync up (``app.sync.setup.set_up``), see how it goes, sync now, turn it off,
and whether settings.toml travels too (``[sync] settings``, off unless asked for).

Like Settings > Tools it acts at once, never waiting for the dialog's OK: Set up tests the
remote on a worker thread and, when everything worked, has saved ``[sync]`` and the secrets;
``sync_changed`` then tells the window, which starts the background sync. A password, secret
key or passphrase typed here goes to the OS keyring (or, left empty, comes from
CROSSTALK_SYNC_SECRET / CROSSTALK_SYNC_PASSPHRASE) and is never shown again.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from msgspec.structs import replace
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.errors import CrosstalkError, InvalidValue
from app.settings_sync import SyncConfig, folder_path, kind_of
from app.sync.secrets import ENVIRONMENT
from ui.common import errors_text, locale_format
from ui.settings.key_box import MASK, error_style
from ui.sync.status import result_words

if TYPE_CHECKING:
    from app.paths import DataDir
    from app.settings import Settings
    from app.sync.background import Status
    from app.sync.setup import SetUpResult


class _Differ(Exception):
    """A new remote's passphrase was not typed the same twice."""


class _Incomplete(Exception):
    """The form says too little to set up sync: what to type, in words for the window."""


def _said(exc: Exception) -> str:
    return errors_text.said(exc) if isinstance(exc, CrosstalkError) else str(exc)


@dataclass(frozen=True)
class _Typed:
    config: SyncConfig
    secret: str | None
    keep_secret: bool
    passphrase: str | None
    keep_passphrase: bool
    again: str


def _password_field() -> QLineEdit:
    field = QLineEdit()
    field.setEchoMode(QLineEdit.EchoMode.Password)
    return field


class SyncTab(QWidget):
    sync_changed = Signal(object)  # the SyncConfig as saved, or None: turned off (saved)
    sync_now_requested = Signal()

    def __init__(
        self,
        data: DataDir,
        settings: Settings,
        parent: QWidget | None = None,
        *,
        environ: Mapping[str, str] = os.environ,
    ) -> None:
        super().__init__(parent)
        self._data = data
        self._settings = settings  # as saved: what set_up and forget save from
        self._environ = environ
        self._task: asyncio.Task[None] | None = None
        self.description = ""  # the remote in words, once set up here
        self.pages = QStackedWidget()
        self.pages.addWidget(self._setup_page())
        self.pages.addWidget(self._active_page())
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(error_style())
        self.error.hide()
        self.busy = QLabel()
        self.busy.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        layout.addWidget(self.busy)
        layout.addWidget(self.error)
        layout.addStretch(1)
        self._show_config(settings.sync)

    # --- building ------------------------------------------------------------------------

    def _setup_page(self) -> QWidget:
        intro = QLabel(
            self.tr(
                "Keep this library the same on your devices through storage you already "
                "have: an S3 bucket (AWS, MinIO, R2, B2, Wasabi), a WebDAV folder (Nextcloud, "
                "a NAS) or a folder that Syncthing, Dropbox or a network share carries. "
                "Nothing goes to a server of ours."
            )
        )
        intro.setWordWrap(True)
        self.url = QLineEdit()
        self.url.setPlaceholderText(self.tr("s3://bucket/folder, https://… (WebDAV) or a folder"))
        self.choose_button = QPushButton(self.tr("C&hoose folder…"))
        self.choose_button.clicked.connect(self.choose_folder)
        url_row = QHBoxLayout()
        url_row.addWidget(self.url, 1)
        url_row.addWidget(self.choose_button)
        self.endpoint = QLineEdit()
        self.endpoint.setPlaceholderText(self.tr("empty for AWS; e.g. https://s3.example.com"))
        self.region = QLineEdit()
        self.region.setPlaceholderText(self.tr("e.g. eu-central-1 (optional)"))
        self.user = QLineEdit()
        self.secret = _password_field()
        self.encrypt = QCheckBox(self.tr("&Encrypt everything with a passphrase"))
        self.encrypt.setToolTip(
            self.tr(
                "The storage then sees only how many objects there are, their sizes and "
                "times. Every device needs the passphrase; it cannot be recovered."
            )
        )
        self.passphrase = _password_field()
        self.again = _password_field()
        self.again.setPlaceholderText(self.tr("asked for a new remote only"))
        self.also_settings = QCheckBox(
            self.tr("Also sync se&ttings (models, providers, context; never keys)")
        )
        self.also_settings.setToolTip(self._settings_tip())
        self.set_up_button = QPushButton(self.tr("&Set up"))
        self.set_up_button.setDefault(False)
        self.set_up_button.setAutoDefault(False)
        self.set_up_button.clicked.connect(self.set_up)
        for field in (self.url, self.endpoint, self.region, self.user, self.secret,
                      self.passphrase, self.again):  # fmt: skip
            field.returnPressed.connect(self.set_up)
        page = QWidget()
        form = self.setup_form = QFormLayout(page)
        form.addRow(intro)
        remote = QLabel(self.tr("&Remote:"))
        remote.setBuddy(self.url)  # (a row of two widgets has no buddy of its own)
        form.addRow(remote, url_row)
        form.addRow(self.tr("E&ndpoint URL:"), self.endpoint)
        form.addRow(self.tr("Re&gion:"), self.region)
        form.addRow(self.tr("&User:"), self.user)
        form.addRow(self.tr("Pass&word:"), self.secret)
        form.addRow(self.encrypt)
        form.addRow(self.tr("&Passphrase:"), self.passphrase)
        form.addRow(self.tr("Passphrase &again:"), self.again)
        form.addRow(self.also_settings)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.set_up_button)
        form.addRow(buttons)
        self.url.textChanged.connect(self._fit_fields)
        self.encrypt.toggled.connect(self._fit_fields)
        self._fit_fields()
        return page

    def _active_page(self) -> QWidget:
        self.remote_label = QLabel()
        self.remote_label.setWordWrap(True)
        self.encrypted_label = QLabel()
        self.device_label = QLabel()
        self.settings_label = QLabel()
        self.settings_button = QPushButton(self.tr("Sync se&ttings too"))
        self.settings_button.setToolTip(self._settings_tip())
        self.settings_button.clicked.connect(self.switch_settings)
        settings_row = QHBoxLayout()
        settings_row.addWidget(self.settings_label)
        settings_row.addStretch(1)
        settings_row.addWidget(self.settings_button)
        self.last_label = QLabel()
        self.pending_label = QLabel()
        self.last_error = QLabel()
        self.last_error.setWordWrap(True)
        self.last_error.setStyleSheet(error_style())
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.sync_now_button = QPushButton(self.tr("Sync &now"))
        self.sync_now_button.clicked.connect(self.sync_now_requested)
        self.turn_off_button = QPushButton(self.tr("Turn &off"))
        self.turn_off_button.setToolTip(
            self.tr(
                "This device forgets the remote and its secrets; the remote and your "
                "conversations are not touched, and Set up joins it again."
            )
        )
        self.turn_off_button.clicked.connect(self.turn_off)
        buttons = QHBoxLayout()
        buttons.addWidget(self.sync_now_button)
        buttons.addStretch(1)
        buttons.addWidget(self.turn_off_button)
        page = QWidget()
        form = self.active_form = QFormLayout(page)
        form.addRow(self.tr("Remote:"), self.remote_label)
        form.addRow(self.tr("Encrypted:"), self.encrypted_label)
        form.addRow(self.tr("This device:"), self.device_label)
        form.addRow(self.tr("Settings:"), settings_row)
        form.addRow(self.tr("Last synced:"), self.last_label)
        form.addRow(self.tr("Not sent yet:"), self.pending_label)
        form.addRow(self.tr("Last error:"), self.last_error)
        form.addRow(self.tr("Last result:"), self.summary_label)
        form.addRow(buttons)
        return page

    def _settings_tip(self) -> str:
        return self.tr(
            "settings.toml travels between the devices that sync settings; the newest change "
            "wins. Keys never do (they stay in this device's keyring), nor this remote and "
            "device: each device keeps its own."
        )

    def _fit_fields(self) -> None:
        """Only the fields the remote's kind takes: endpoint and region for S3, a user and
        its secret for S3 and WebDAV; the passphrase when encrypting."""
        try:
            kind = kind_of(self.url.text().strip()) if self.url.text().strip() else "folder"
        except InvalidValue:
            kind = "folder"
        form = self.setup_form
        for field in (self.endpoint, self.region):
            form.setRowVisible(field, kind == "s3")
        for field in (self.user, self.secret):
            form.setRowVisible(field, kind != "folder")
        for field in (self.passphrase, self.again):
            form.setRowVisible(field, self.encrypt.isChecked())
        user, secret = form.labelForField(self.user), form.labelForField(self.secret)
        if isinstance(user, QLabel) and isinstance(secret, QLabel):
            s3 = kind == "s3"
            user.setText(self.tr("Access key &ID:") if s3 else self.tr("&User:"))
            secret.setText(self.tr("Secret access &key:") if s3 else self.tr("Pass&word:"))
        variable = ENVIRONMENT["secret"]
        self.secret.setPlaceholderText(
            self.tr("empty: {mask} from {variable}").format(mask=MASK, variable=variable)
            if self._environ.get(variable)
            else ""
        )
        variable = ENVIRONMENT["passphrase"]
        self.passphrase.setPlaceholderText(
            self.tr("empty: {mask} from {variable}").format(mask=MASK, variable=variable)
            if self._environ.get(variable)
            else ""
        )

    # --- showing -------------------------------------------------------------------------

    def _show_config(self, config: SyncConfig | None) -> None:
        if config is None:
            self.pages.setCurrentIndex(0)
            return
        self.pages.setCurrentIndex(1)
        where = folder_path(config.url) if config.kind == "folder" else config.url
        self.remote_label.setText(self.description or where)
        self.encrypted_label.setText(self.tr("Yes") if config.encrypt else self.tr("No"))
        self.device_label.setText(config.device)
        self.settings_label.setText(
            self.tr("Synced too") if config.settings else self.tr("Not synced")
        )
        self.settings_button.setText(
            self.tr("Stop syncing se&ttings") if config.settings else self.tr("Sync se&ttings too")
        )
        from app.sync.state import last_sync  # a small file

        last = last_sync(self._data)
        error = errors_text.said_stored(last.failure, last.error) if last.error else None
        self._show_last(last.at, error, result_words(last.counts, last.summary))
        self.pending_label.setText("")

    def _show_last(self, at: str | None, error: str | None, summary: str | None) -> None:
        self.last_label.setText(locale_format.when(at) if at else self.tr("Never"))
        self.last_error.setText(error or self.tr("None"))
        self.last_error.setStyleSheet(error_style() if error else "")
        self.summary_label.setText(summary or "")

    def show_status(self, status: Status | None) -> None:
        """The background sync's status (the window passes each one on while this is open)."""
        if status is None or self.pages.currentIndex() != 1:
            return
        error = errors_text.said_stored(status.failure, status.error) if status.error else None
        self._show_last(status.last_at, error, result_words(status.counts, status.summary))
        self.pending_label.setText(
            self.tr("%n conversation(s)", "", status.pending)
            if status.pending
            else self.tr("Nothing")
        )
        self.sync_now_button.setEnabled(not status.syncing)
        self.sync_now_button.setText(
            self.tr("Syncing…") if status.syncing else self.tr("Sync &now")
        )

    def _set_busy(self, text: str | None) -> None:
        buttons = (self.set_up_button, self.sync_now_button, self.turn_off_button,
                   self.settings_button)  # fmt: skip
        for widget in buttons:
            widget.setEnabled(text is None)
        self.busy.setText(text or "")
        self.busy.setVisible(text is not None)
        if text is not None:
            self.error.hide()

    def _fail(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    # --- acting --------------------------------------------------------------------------

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("A folder to sync through"))
        if folder:
            self.url.setText(folder)

    def _typed(self) -> _Typed:
        """What the form says; _Incomplete in words when it says too little, InvalidValue
        for a URL that names no remote."""
        url = self.url.text().strip()
        if not url:
            raise _Incomplete(
                self.tr("Type where to sync through: a bucket, a WebDAV URL or a folder.")
            )
        kind = kind_of(url)
        config = SyncConfig(
            url=url,
            endpoint_url=(self.endpoint.text().strip() or None) if kind == "s3" else None,
            region=(self.region.text().strip() or None) if kind == "s3" else None,
            user=(self.user.text().strip() or None) if kind != "folder" else None,
            encrypt=self.encrypt.isChecked(),
            settings=self.also_settings.isChecked(),
        )
        secret, keep_secret = self.secret.text(), True
        if config.user and not secret:
            secret, keep_secret = self._environ.get(ENVIRONMENT["secret"], ""), False
            if not secret:
                word = self.tr("secret access key") if kind == "s3" else self.tr("password")
                raise _Incomplete(self.tr("Type the {what} for {user}.").format(
                    what=word, user=config.user))  # fmt: skip
        passphrase, keep_passphrase = self.passphrase.text(), True
        if config.encrypt and not passphrase:
            passphrase, keep_passphrase = self._environ.get(ENVIRONMENT["passphrase"], ""), False
            if not passphrase:
                raise _Incomplete(self.tr("Type the passphrase to encrypt with."))
        return _Typed(
            config, secret or None, keep_secret, passphrase or None, keep_passphrase,
            self.again.text() if keep_passphrase else passphrase,
        )  # fmt: skip

    def set_up(self) -> None:
        """Test the remote and keep it, on a worker thread; the window goes on meanwhile."""
        if self._task is not None and not self._task.done():
            return
        try:
            typed = self._typed()
        except (_Incomplete, CrosstalkError) as exc:
            self._fail(_said(exc))
            return
        self._set_busy(self.tr("Testing {url}…").format(url=typed.config.url))
        self._task = asyncio.ensure_future(self._set_up(typed))

    async def _set_up(self, typed: _Typed) -> None:
        try:
            result = await asyncio.to_thread(self._set_up_blocking, typed)
        except _Differ:
            self._fail(
                self.tr(
                    "This remote is new: type the same passphrase twice (Passphrase and "
                    "Passphrase again). Nothing was changed."
                )
            )
            self.again.setFocus()
            return
        except CrosstalkError as exc:
            self._fail(errors_text.said(exc))
            return
        except Exception as exc:  # a bug: reported as one (ui/shell/unexpected.py), not said
            sys.excepthook(type(exc), exc, exc.__traceback__)
            return
        finally:
            self._set_busy(None)
        self._settings = replace(self._settings, sync=result.config)
        self.description = result.description
        for field in (self.secret, self.passphrase, self.again):
            field.clear()
        self._show_config(result.config)
        self.busy.setText(
            self.tr("Joined the remote another device set up.")
            if result.joined
            else self.tr("Set up: this is the first device on the remote.")
        )
        self.busy.show()
        self.sync_changed.emit(result.config)

    def _set_up_blocking(self, typed: _Typed) -> SetUpResult:
        from app.sync.setup import existing_marker, set_up

        if typed.config.encrypt:
            found = existing_marker(typed.config, typed.secret)
            if found is None and typed.again != typed.passphrase:
                raise _Differ
        return set_up(
            self._data, self._settings, typed.config, typed.secret, typed.passphrase,
            keep_secret=typed.keep_secret, keep_passphrase=typed.keep_passphrase,
        )  # fmt: skip

    def turn_off(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._set_busy(self.tr("Turning sync off…"))
        self._task = asyncio.ensure_future(self._turn_off())

    async def _turn_off(self) -> None:
        from app.sync.setup import forget

        url = self._settings.sync.url if self._settings.sync else ""
        settings = self._settings.sync.settings if self._settings.sync else False
        try:
            self._settings = await asyncio.to_thread(forget, self._data, self._settings)
        except CrosstalkError as exc:
            self._fail(errors_text.said(exc))
            return
        finally:
            self._set_busy(None)
        self.description = ""
        self.url.setText(url)
        self.also_settings.setChecked(settings)
        self._show_config(None)
        self.busy.setText(self.tr("Sync is off on this device."))
        self.busy.show()
        self.sync_changed.emit(None)

    def switch_settings(self) -> None:
        """Sync settings.toml too, or stop: saved at once (``[sync] settings``), like Set up
        and Turn off; ``sync_changed`` tells the dialog (whose OK keeps it) and the window."""
        config = self._settings.sync
        if config is None or (self._task is not None and not self._task.done()):
            return
        from app.settings_store import update_settings

        config = replace(config, settings=not config.settings)
        try:  # [sync] alone changes: what else was saved since this tab opened stays
            self._settings = update_settings(self._data, lambda now: replace(now, sync=config))
        except CrosstalkError as exc:
            self._fail(errors_text.said(exc))
            return
        self.error.hide()
        self._show_config(config)
        self.busy.setText(
            self.tr("Settings go with each sync from now on.")
            if config.settings
            else self.tr("Settings stay on this device from now on.")
        )
        self.busy.show()
        self.sync_changed.emit(config)
