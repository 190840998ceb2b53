"""The welcome page in the chat area: what works now, how to add a key or bring chats over.

Shown on the first run (a library with no conversations) and from Help > Welcome; it gives way
to the chat as soon as a conversation opens or a message is sent. Its links are actions
(``add-key:openai``, ``import:``) or a provider's page where keys are issued.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices, QKeySequence
from PySide6.QtWidgets import QTextBrowser, QWidget

from ui.common import theme

KEY_PAGES = {  # where each provider issues API keys
    "openai": ("OpenAI", "https://platform.openai.com/api-keys"),
    "anthropic": ("Anthropic", "https://console.anthropic.com/settings/keys"),
    "gemini": ("Google Gemini", "https://aistudio.google.com/apikey"),
}


class WelcomeView(QTextBrowser):
    add_key_requested = Signal(str)  # a provider's name
    import_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._on_link)
        self.document().setDocumentMargin(24)
        self._model = ""
        self._enter_sends = True

    def show_for(self, default_model: str, enter_sends: bool = True) -> None:
        """Fill the page for the model a new chat uses and the send key set, and show it."""
        self._model = default_model
        self._enter_sends = enter_sends
        self.restyle()
        self.show()

    def restyle(self) -> None:
        colours = theme.active().chat
        self.document().setDefaultStyleSheet(
            f"a {{ color: {colours['link']}; text-decoration: none; }}"
            f"p.muted, td.muted {{ color: {colours['muted']}; }}"
            "h1 { font-size: x-large; margin-bottom: 4px; } h3 { margin-top: 18px; }"
        )
        self.setHtml(self._html())

    def _html(self) -> str:
        local = self._model.startswith("local:")
        if local:
            ready = self.tr(
                "The built-in model (%1) is ready: it runs on this computer, works offline "
                "and needs no key. Type below and press Enter."
            )
        else:
            ready = self.tr("New chats use %1. Type below and press Enter.")
        add, where = self.tr("Add a key for %1…"), escape(self.tr("where to get one"))
        keys = "".join(
            f'<li><a href="add-key:{name}">{escape(add.replace("%1", shown))}</a> &nbsp; '
            f'<span class="muted">(<a href="{url}">{where}</a>)</span></li>'
            for name, (shown, url) in KEY_PAGES.items()
        )
        native = QKeySequence.SequenceFormat.NativeText  # key names in the user's language
        if self._enter_sends:
            send_keys = ("Enter", self.tr("send (Shift+Enter: new line)"))
        else:
            send_keys = ("Ctrl+Enter", self.tr("send (Enter: new line)"))
        shortcuts = "".join(
            f"<tr><td><b>{escape(QKeySequence(keys_).toString(native))}</b></td>"
            f'<td>&nbsp;&nbsp;</td><td class="muted">{escape(what)}</td></tr>'
            for keys_, what in (
                send_keys,
                ("Ctrl+N", self.tr("new chat")),
                ("Ctrl+Shift+F", self.tr("find in all conversations")),
                ("Ctrl+R", self.tr("answer the last message again")),
                ("Up", self.tr("edit your last message")),
                ("Ctrl+I", self.tr("the inspector: what is sent, and what it costs")),
                ("Ctrl+/", self.tr("every keyboard shortcut")),
            )
        )
        # each text through self.tr outside the f-string: pyside6-lupdate does not look inside
        welcome = escape(self.tr("Welcome to Crosstalk"))
        cloud = escape(self.tr("Cloud models"))
        kept = escape(self.tr("Keys are kept in your system keyring, never in a file."))
        elsewhere = escape(self.tr("Your chats from elsewhere"))
        bring = escape(self.tr("Import from ChatGPT, Claude, Open WebUI or llm…"))
        keys_heading = escape(self.tr("Keys"))
        return (
            f"<h1>{welcome}</h1><p>{escape(ready.replace('%1', self._model))}</p>"
            f"<h3>{cloud}</h3><p>{kept}</p><ul>{keys}</ul>"
            f'<h3>{elsewhere}</h3><p><a href="import:">{bring}</a></p>'
            f"<h3>{keys_heading}</h3><table>{shortcuts}</table>"
        )

    def _on_link(self, url: QUrl) -> None:
        scheme = url.scheme()
        if scheme == "add-key":
            self.add_key_requested.emit(url.path())
        elif scheme == "import":
            self.import_requested.emit()
        elif scheme == "https":
            QDesktopServices.openUrl(url)
