"""Settings' API key box: the key of the provider selected in the Providers table.

A key typed here goes to the OS keyring, or, where there is no usable keyring and the user asks
for it, into this process's memory until Crosstalk quits (``Keys.keep_for_session``, the same
``Keys`` the app's providers read). It is never shown again: the box says where the key in use
comes from, masked. Where there is no keyring it says so once, above the field, not at each
Save. Test tries the key in the field without saving it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app.errors import EmptyValue
from app.keys import SESSION, KeyringUnavailable, Keys, env_names
from app.settings import ProviderConfig
from ui.common import errors_text, theme

MASK = "••••••••"  # stands for a key, whose value is never shown
KEYRING = "keyring"  # a Key's source when it is stored in the OS keyring


def error_style() -> str:
    """How a message that something went wrong looks, in the active theme's colours."""
    return f"color: {theme.colour('error')};"


def key_status(source: str | None, required: bool) -> str:
    """For the table's Key column: where the key comes from, never what it is."""
    if source is None:
        return KeyBox.tr("missing") if required else KeyBox.tr("not needed")
    if source == KEYRING:
        return KeyBox.tr("from keyring")
    if source == SESSION:
        return KeyBox.tr("this session only")
    return KeyBox.tr("from {variable}").format(variable=source)


def _key_in_use(source: str | None, required: bool) -> str:
    if source == KEYRING:
        return KeyBox.tr("Key in use: {mask} stored in the OS keyring").format(mask=MASK)
    if source == SESSION:
        text = KeyBox.tr("Key in use: {mask} kept for this session only (until Crosstalk quits)")
        return text.format(mask=MASK)
    if source:
        text = KeyBox.tr("Key in use: {mask} from {variable} in the environment")
        return text.format(mask=MASK, variable=source)
    return KeyBox.tr("No key yet") if required else KeyBox.tr("No key needed")


class KeyBox(QGroupBox):
    key_changed = Signal(str)  # a provider's name: its key was saved, kept or removed
    test_clicked = Signal()  # Test, or Enter in the key field: the dialog has the settings

    def __init__(self, keys: Keys, parent: QWidget | None = None) -> None:
        super().__init__(KeyBox.tr("API key"), parent)
        self._keys = keys
        self._provider: tuple[str, ProviderConfig] | None = None  # the one shown
        self._source: str | None = None  # where its key comes from
        self._notes: dict[str, tuple[bool, str]] = {}  # last message per provider
        self._keyring_usable = keys.keyring_usable()
        self._keyring_refusal: str | None = None  # why the keyring refused a key, if it did
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.save_key_button = QPushButton(KeyBox.tr("Save key"))
        self.session_key_button = QPushButton(KeyBox.tr("Keep for this session only"))
        self.session_key_button.setToolTip(
            KeyBox.tr("Use this key until Crosstalk quits; it is not written anywhere")
        )
        self.remove_key_button = QPushButton(KeyBox.tr("Remove key"))
        self.test_button = QPushButton(KeyBox.tr("Test"))
        self.test_button.setToolTip(
            KeyBox.tr("Send one tiny request with what is shown here, saved or not (Enter)")
        )
        self.key_in_use = QLabel()
        self.key_message = QLabel()
        self.key_message.setWordWrap(True)
        self.key_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._connect()
        self._layout()

    def _connect(self) -> None:
        self.key_edit.textChanged.connect(self._typed)
        # Enter tries the key rather than saving it: harmless when pressed by accident, and
        # "does it work?" is the question right after pasting one; saving stays a click
        self.key_edit.returnPressed.connect(self.test_clicked)
        self.save_key_button.clicked.connect(self.save_key)
        self.session_key_button.clicked.connect(self.keep_key_for_session)
        self.remove_key_button.clicked.connect(self.remove_key)
        self.test_button.clicked.connect(self.test_clicked)
        self._typed("")

    def _layout(self) -> None:
        row = QHBoxLayout()
        for widget in (self.key_edit, self.save_key_button, self.session_key_button):
            row.addWidget(widget)
        row.addWidget(self.remove_key_button)
        row.addWidget(self.test_button)
        column = QVBoxLayout(self)
        column.addWidget(self._keyring_notice())
        column.addLayout(row)
        column.addWidget(self.key_in_use)
        column.addWidget(self.key_message)

    def _keyring_notice(self) -> QWidget:
        self.keyring_notice = QLabel()
        self.keyring_notice.setWordWrap(True)
        icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        info = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation)
        icon.setPixmap(info.pixmap(size, size))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.keyring_notice_box = QWidget()
        row = QHBoxLayout(self.keyring_notice_box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(icon)
        row.addWidget(self.keyring_notice, 1)
        return self.keyring_notice_box

    # --- what is shown -------------------------------------------------------------------

    def show_provider(
        self, name: str | None, config: ProviderConfig | None, source: str | None
    ) -> None:
        """Another provider (None: none selected): the field is emptied, so a key typed for
        one provider never goes to another."""
        self.key_edit.clear()
        self._provider = (name, config) if name is not None and config is not None else None
        self.update_source(source)

    def update_source(self, source: str | None) -> None:
        """The shown provider's key now comes from ``source``; what is typed stays."""
        self._source = source
        self.setEnabled(self._provider is not None)
        if self._provider is None:
            return
        name, config = self._provider
        self.setTitle(KeyBox.tr("API key for {name}").format(name=name))
        self.key_in_use.setText(_key_in_use(source, config.key_required))
        self.keyring_notice_box.setVisible(not self._keyring_usable)
        self.keyring_notice.setText(self._no_keyring_text(name, config.kind))
        self.save_key_button.setVisible(self._keyring_usable)
        self.session_key_button.setVisible(not self._keyring_usable)
        if self._keyring_usable:
            self.key_edit.setPlaceholderText(
                KeyBox.tr("Paste an API key to save it in the OS keyring")
            )
        else:
            self.key_edit.setPlaceholderText(KeyBox.tr("Paste an API key to use for this session"))
        self.remove_key_button.setEnabled(source in (KEYRING, SESSION))
        ok, text = self._notes.get(name, (True, ""))
        self._show_message(ok, text)

    def _no_keyring_text(self, name: str, kind: str) -> str:
        variables = KeyBox.tr(" or ").join(env_names(name, kind))
        if self._keyring_refusal:
            text = KeyBox.tr(
                "The OS keyring could not save the key ({reason}). You can keep it for this "
                "session only (it is forgotten when Crosstalk quits), or set {variables} in the "
                "environment before starting Crosstalk."
            )
            return text.format(reason=self._keyring_refusal, variables=variables)
        text = KeyBox.tr(
            "Keys cannot be saved on this computer: there is no OS keyring (such as GNOME "
            "Keyring or KWallet) for Crosstalk to use. You can keep a key for this session only "
            "(it is forgotten when Crosstalk quits), or set {variables} in the environment "
            "before starting Crosstalk."
        )
        return text.format(variables=variables)

    def _typed(self, text: str) -> None:
        for button in (self.save_key_button, self.session_key_button):
            button.setEnabled(bool(text.strip()))

    def _show_message(self, ok: bool, text: str) -> None:
        self.key_message.setText(text)
        self.key_message.setStyleSheet("" if ok else error_style())
        self.key_message.setVisible(bool(text))  # no empty line at the bottom of the box

    def note(self, name: str, ok: bool, text: str) -> None:
        """A message about ``name``'s key or test, shown whenever that provider is."""
        self._notes[name] = (ok, text)
        if self._provider is not None and self._provider[0] == name:
            self._show_message(ok, text)

    def typed_keys(self, name: str) -> Keys:
        """Keys that answer ``name`` with the key in the field, if one is typed (for Test: it
        is saved nowhere), else the app's keys."""
        typed = self.key_edit.text()
        return self._keys.trial(name, typed) if typed.strip() else self._keys

    # --- actions -------------------------------------------------------------------------

    def save_key(self) -> None:
        value = self.key_edit.text()
        if self._provider is None or not value.strip():
            return
        name = self._provider[0]
        try:
            self._keys.store(name, value)
        except KeyringUnavailable:
            self._keyring_refused(name)
            return  # the key stays in the (masked) field, for "Keep for this session only"
        except EmptyValue as exc:
            self.key_edit.clear()
            self.note(name, False, errors_text.said(exc))
            return
        self.key_edit.clear()  # the widget never holds a key longer than this
        self.note(
            name, True, KeyBox.tr("Saved the key for {name} in the OS keyring.").format(name=name)
        )
        self.key_changed.emit(name)

    def _keyring_refused(self, name: str) -> None:
        """The keyring looked usable but would not store the key (locked, no collection): from
        now on the box says so once, above the field, and offers the session instead."""
        self._keyring_usable, self._keyring_refusal = False, self._keys.problem
        self.note(name, True, "")
        self.update_source(self._source)

    def keep_key_for_session(self) -> None:
        """In this process's memory, through the same Keys the app's providers read, until
        Crosstalk quits; written nowhere."""
        value = self.key_edit.text()
        self.key_edit.clear()
        if self._provider is None or not value.strip():
            return
        name = self._provider[0]
        self._keys.keep_for_session(name, value)
        text = KeyBox.tr("Keeping the key for {name} for this session only.").format(name=name)
        self.note(name, True, text)
        self.key_changed.emit(name)

    def remove_key(self) -> None:
        if self._provider is None:
            return
        name = self._provider[0]
        if self._source == SESSION:
            self._keys.forget_session(name)
            self.note(name, True, KeyBox.tr("Forgot the session key for {name}.").format(name=name))
            self.key_changed.emit(name)
            return
        try:
            removed = self._keys.forget(name)
        except KeyringUnavailable as exc:
            self.note(name, False, errors_text.said(exc))
            return
        if removed:
            text = KeyBox.tr("Removed the key for {name} in the OS keyring.")
        else:
            text = KeyBox.tr("There was no key for {name} in the OS keyring.")
        self.note(name, True, text.format(name=name))
        self.key_changed.emit(name)
