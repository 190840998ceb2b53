"""The question before an MCP tool runs, as a card between the chat and the composer.

The turn waits (``ChatController.approval_requested``) until the user picks one of the four
answers of ``app.approval.Decision``; the card only shows the call and hands the answer back.
Nothing is allowed by default: Enter does nothing until a button has focus, Esc denies, and
every button has a mnemonic. What a server sends (title, description) is shown as plain text.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, Signal
from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.approval import ApprovalRequest, Decision, arguments_lines

ARGUMENT_LINES = 10  # the box grows to this many lines, then scrolls
SHOWN_CHARS = 200_000  # of huge arguments, the start is shown and the rest counted


class ElidedLabel(QLabel):
    """One line of plain text, cut with "…" to the width it has; the whole text as tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._full = ""

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        line = " ".join(self._full.split())  # one line, whatever the server wrote
        metrics = self.fontMetrics()
        self.setText(metrics.elidedText(line, Qt.TextElideMode.ElideRight, max(self.width(), 40)))


class ApprovalCard(QFrame):
    decided = Signal(str, str, object)  # conversation id, call id, Decision

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("approvalCard")
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)
        self.conversation_id = ""
        self.request: ApprovalRequest | None = None

        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        bold = QFont(self.heading.font())
        bold.setBold(True)
        self.heading.setFont(bold)
        self.about = ElidedLabel()
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted, as themed
        self.arguments = QPlainTextEdit()
        self.arguments.setReadOnly(True)
        self.arguments.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # long values scroll
        self.arguments.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.arguments.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self.arguments.setAccessibleName(self.tr("Arguments"))

        self.once = QPushButton(self.tr("&Allow once"))
        self.once.setToolTip(self.tr("Run this call; the next call of the tool asks again"))
        self.conversation = QPushButton(self.tr("Allow for this c&onversation"))
        self.conversation.setToolTip(
            self.tr("Run this tool without asking again in this conversation")
        )
        self.always = QPushButton(self.tr("Always allow this &tool"))
        self.always.setToolTip(
            self.tr("Run this tool without asking from now on, in every conversation "
                    "(mcp.json alwaysAllow)")
        )  # fmt: skip
        self.deny = QPushButton(self.tr("&Deny"))
        self.deny.setToolTip(
            self.tr("Do not run it: the model is told, and the reply goes on (Esc)")
        )
        answers = {self.once: Decision.ONCE, self.conversation: Decision.CONVERSATION,
                   self.always: Decision.ALWAYS, self.deny: Decision.DENY}  # fmt: skip
        for button, decision in answers.items():
            button.setAutoDefault(True)  # Enter presses the button that has focus, and only it
            button.clicked.connect(lambda _=False, d=decision: self.answer(d))

        buttons = QHBoxLayout()
        buttons.addWidget(self.once)
        buttons.addWidget(self.conversation)
        buttons.addWidget(self.always)
        buttons.addStretch(1)
        buttons.addWidget(self.deny)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.heading)
        layout.addWidget(self.about)
        layout.addWidget(self.hint)
        layout.addWidget(self.arguments)
        layout.addLayout(buttons)
        for widget in (self.arguments, *answers):
            widget.installEventFilter(self)  # Esc denies wherever the focus is in the card
        self.setTabOrder(self.arguments, self.once)
        self.hide()

    def show_request(self, conversation_id: str, request: ApprovalRequest) -> None:
        """Show the call ``request`` asks about and take the focus (its arguments first, so
        that no key a user was typing presses a button)."""
        self.conversation_id, self.request = conversation_id, request
        self.heading.setText(
            self.tr("Run {tool} from {server} ({transport})?").format(
                tool=_tool_name(request), server=request.server,
                transport=request.transport or self.tr("unknown transport"),
            )
        )  # fmt: skip
        self.heading.setToolTip(request.wire_name)
        self.about.set_full_text(request.description.strip())
        self.about.setVisible(bool(request.description.strip()))
        if request.read_only is None:
            self.hint.hide()
        else:
            self.hint.setText(
                self.tr("The server says this tool only reads (a hint, not a promise).")
                if request.read_only
                else self.tr("The server says this tool may change things.")
            )
            self.hint.show()
        self._show_arguments(request)
        self.show()
        self.arguments.setFocus(Qt.FocusReason.OtherFocusReason)

    def clear(self) -> bool:
        """Hide the card; whether it had the focus (the window then gives it back)."""
        focused = QApplication.focusWidget()
        had_focus = focused is not None and (focused is self or self.isAncestorOf(focused))
        self.conversation_id, self.request = "", None
        self.hide()
        return had_focus

    def answer(self, decision: Decision) -> None:
        if self.request is None:
            return
        conversation_id, call_id = self.conversation_id, self.request.call_id
        self.clear()
        self.decided.emit(conversation_id, call_id, decision)

    def _show_arguments(self, request: ApprovalRequest) -> None:
        text = "\n".join(arguments_lines(request))
        if len(text) > SHOWN_CHARS:
            more = self.tr("… {count} more characters").format(count=len(text) - SHOWN_CHARS)
            text = f"{text[:SHOWN_CHARS]}\n{more}"
        self.arguments.setPlainText(text)
        lines = min(max(text.count("\n") + 1, 2), ARGUMENT_LINES)
        frame = 2 * self.arguments.frameWidth()
        margin = 2 * round(self.arguments.document().documentMargin())
        bar = self.arguments.horizontalScrollBar().sizeHint().height()
        spacing = self.arguments.fontMetrics().lineSpacing()
        slack = 4  # a line's layout is a pixel or two taller than the font's line spacing
        self.arguments.setFixedHeight(lines * spacing + frame + margin + bar + slack)

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        """A border in the theme's highlight colour: a question waits here."""
        super().paintEvent(event)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 1.5))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 4, 4)
        painter.end()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """Esc is Stop elsewhere in the chat pane; in the card it is Deny, taken before the
        window's shortcut sees it."""
        if isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape:
            if event.type() == QEvent.Type.ShortcutOverride:
                event.accept()
                return True
            if event.type() == QEvent.Type.KeyPress:
                self.answer(Decision.DENY)
                return True
        return super().eventFilter(watched, event)


def _tool_name(request: ApprovalRequest) -> str:
    """write_file, or "Write a file (write_file)" when the server gave it a title."""
    if request.title and request.title != request.tool:
        return f"{request.title} ({request.tool})"
    return request.tool
