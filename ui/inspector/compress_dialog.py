"""Compress history…: pick a strategy and a model, preview the summary, then use it (or not).

Non-modal (opened with ``open()``). The preview asks the model through ``app.context.compression``
with ``preview=True`` (nothing is appended); "Use this summary" appends exactly the summaries
that were read, through ``app.context.commit_async`` (the last step of ``crosstalk compress``).
The model is asked on a background task of the ChatController; reading a long history, counting
its tokens and appending run on worker threads (``app.context.compression``), so the window never
waits on them. The dialog only shows the state: a progress bar (summaries written of how many),
Cancel while a preview runs, and what went wrong, in words.
"""

from __future__ import annotations

import asyncio
import sys

import shiboken6
from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.context import (
    Compressing,
    ContextEvent,
    NothingToCompress,
    Outcome,
    Strategy,
    commit_async,
    compress,
    parse_strategy,
    standing,
    undo_async,
)
from app.context.summaries import EXTRACTED
from app.errors import CrosstalkError, InvalidValue
from ui.chat.controller import ChatController
from ui.common import errors_text, theme
from ui.inspector.wording import QT_TRANSLATE_NOOP

_CONTEXT = "CompressDialog"
STRATEGIES = (  # kind, label, what its field holds (source texts, translated when shown)
    ("whole", QT_TRANSLATE_NOOP("CompressDialog", "Whole history into one summary"), ""),
    ("last-n", QT_TRANSLATE_NOOP("CompressDialog", "Only the last N messages"),
     QT_TRANSLATE_NOOP("CompressDialog", "N messages, e.g. 20")),
    ("chunked", QT_TRANSLATE_NOOP("CompressDialog", "In chunks of N messages (old facts survive)"),
     QT_TRANSLATE_NOOP("CompressDialog", "N messages a chunk, e.g. 10")),
    ("facts", QT_TRANSLATE_NOOP("CompressDialog", "Facts about named concepts"),
     QT_TRANSLATE_NOOP("CompressDialog", "concepts, e.g. deadline; budget")),
)  # fmt: skip


def _translated(source: str) -> str:
    """A source text marked with QT_TRANSLATE_NOOP above, in the user's language."""
    return QCoreApplication.translate(_CONTEXT, source)


class CompressDialog(QDialog):
    history_changed = Signal(str)  # conversation id: a compression was appended or undone

    def __init__(
        self, controller: ChatController, conversation_id: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Compress history"))
        self.controller = controller
        self.conversation_id = conversation_id
        self.outcome: Outcome | None = None  # the previewed summaries, not yet used
        self.task: asyncio.Task[None] | None = None  # the preview: Cancel cancels it
        self.writing: asyncio.Task[None] | None = None  # an append (use, undo): runs to its end
        # whether a compression stands that Undo would retract: found on a worker thread, as
        # a long history's outline takes a while to build (``_check_undoable``)
        self._undoable = False
        services = controller.services
        policy = services.contexts.policy(conversation_id)

        self.strategy = QComboBox()
        for kind, label, _ in STRATEGIES:
            self.strategy.addItem(_translated(label), kind)
        self.argument = QLineEdit()
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.addItems(services.models.available())
        self.model.setCurrentText(policy.compression_model or services.settings.default_model)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # busy: how long a summary takes is not known
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.setPlaceholderText(self.tr("Preview to read the summary before it is used."))
        self.preview_button = QPushButton(self.tr("Preview"))
        self.use_button = QPushButton(self.tr("Use this summary"))
        self.undo_button = QPushButton(self.tr("Undo last compression"))
        self.cancel_button = QPushButton(self.tr("&Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the preview; nothing is appended"))
        close = QPushButton(self.tr("Close"))
        self._layout(close)

        self.strategy.currentIndexChanged.connect(self._on_strategy)
        self.argument.textChanged.connect(self._forget_preview)
        self.model.currentTextChanged.connect(self._forget_preview)
        self.preview_button.clicked.connect(self.preview)
        self.use_button.clicked.connect(self.use)
        self.undo_button.clicked.connect(self.undo_last)
        self.cancel_button.clicked.connect(self.cancel)
        close.clicked.connect(self.reject)
        self.finished.connect(self._cancel)
        self._select(policy.compress_strategy)
        self._set_busy(False)
        self.resize(620, 460)

    def _layout(self, close: QPushButton) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Strategy"), self.strategy)
        form.addRow("", self.argument)
        form.addRow(self.tr("Model"), self.model)
        buttons = QHBoxLayout()
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        for button in (self.preview_button, self.cancel_button, self.use_button, close):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.summary, 1)
        layout.addLayout(buttons)

    # --- choices --------------------------------------------------------------------------

    def _select(self, spec: str) -> None:
        kind, _, argument = spec.partition(":")
        index = self.strategy.findData(kind)
        self.strategy.setCurrentIndex(max(index, 0))
        self.argument.setText(argument)
        self._on_strategy()

    def _on_strategy(self) -> None:
        hint = STRATEGIES[self.strategy.currentIndex()][2]
        self.argument.setPlaceholderText(_translated(hint) if hint else "")
        self.argument.setEnabled(bool(hint))
        self._forget_preview()

    def spec(self) -> str:
        kind = str(self.strategy.currentData())
        argument = self.argument.text().strip()
        return kind if kind == "whole" else f"{kind}:{argument}"

    def _forget_preview(self) -> None:
        """A changed choice makes the preview stale: it can no longer be used."""
        self.outcome = None
        self.use_button.setEnabled(False)

    # --- actions --------------------------------------------------------------------------

    def busy(self) -> bool:
        return any(task is not None and not task.done() for task in (self.task, self.writing))

    def preview(self) -> None:
        """Ask the model for the summaries, appending nothing."""
        if self.busy():
            return
        try:
            strategy = parse_strategy(self.spec())
        except InvalidValue as exc:
            self._show_error(errors_text.said(exc))
            return
        spec = self.model.currentText()
        self._forget_preview()
        self.summary.clear()
        self._set_busy(True, self.tr("Asking {model} for a summary…").format(model=spec))
        self.task = self.controller.spawn(self._preview(strategy, spec))

    async def _preview(self, strategy: Strategy, spec: str) -> None:
        services = self.controller.services
        conversation = self.controller.conversation(self.conversation_id)
        policy = services.contexts.policy(self.conversation_id)
        try:
            provider, model = await services.models.ready(spec)  # its key, its SDK: off the loop
            outcome = await compress(
                services.library, conversation, provider, model, strategy,
                keep_first_input=policy.keep_first_input,
                limit=services.contexts.window(provider, model),
                preview=True, on_context=self._on_context, on_summary=self._on_summary,
            )  # fmt: skip
        except NothingToCompress:
            self._set_busy(False)
            self._show_error(
                self.tr("Nothing to compress: the messages not yet summarised are too few.")
            )
            return
        except CrosstalkError as exc:
            self._set_busy(False)
            self._show_error(self.tr("Not used: {error}").format(error=errors_text.said(exc)))
            return
        except Exception as exc:  # a bug: reported, and the dialog not left busy for ever
            self._set_busy(False)
            sys.excepthook(type(exc), exc, exc.__traceback__)
            return
        self._set_busy(False)
        self.outcome = outcome
        self.summary.setPlainText(_summaries_text(outcome))
        status = self.tr("Preview by {model}: nothing was appended yet.").format(model=outcome.spec)
        if any(summary.method == EXTRACTED for summary in outcome.summaries):
            status += " " + self.tr(
                "The model's summary was not usable, so this one is extractive: the first "
                "sentence of each message."
            )
        self._show_status(status)
        self.use_button.setEnabled(True)

    def cancel(self) -> None:
        """Stop the preview: the model is no longer waited for, nothing is appended."""
        if self.task is None or self.task.done():
            return
        self.task.cancel()
        self._set_busy(False, self.tr("Cancelled: nothing was appended."))

    def use(self) -> None:
        """Append the previewed summaries as they were read (on a worker thread)."""
        if self.outcome is None or self.busy():
            return
        outcome = self.outcome
        self._forget_preview()
        self._set_busy(True, self.tr("Appending the summary…"), cancellable=False)
        self.writing = self.controller.spawn(self._use(outcome))

    async def _use(self, outcome: Outcome) -> None:
        conversation = self.controller.conversation(self.conversation_id)
        try:
            done = await commit_async(self.controller.services.library, conversation, outcome)
        except Exception as exc:  # the disk, the index: said, and the preview kept
            self.outcome = outcome
            self._set_busy(False)
            if not isinstance(exc, CrosstalkError):  # a bug: reported as one
                sys.excepthook(type(exc), exc, exc.__traceback__)
                return
            self._show_error(self.tr("Not appended: {error}").format(error=errors_text.said(exc)))
            return
        seqs = ", ".join(str(entry.seq) for entry in done.appended)
        self._show_status(
            self.tr("Appended compression seq {seqs}; nothing was deleted.").format(seqs=seqs)
        )
        self._set_busy(False)
        self.history_changed.emit(self.conversation_id)

    def undo_last(self) -> None:
        """Retract the newest standing compression: the entries it covered come back."""
        conversation = self.controller.conversation(self.conversation_id)
        compressions = standing(conversation.history)
        if not compressions or self.busy():
            return
        seq = max(entry.seq for entry in compressions)
        self._set_busy(True, self.tr("Undoing the compression…"), cancellable=False)
        self.writing = self.controller.spawn(self._undo(seq))

    async def _undo(self, seq: int) -> None:
        conversation = self.controller.conversation(self.conversation_id)
        try:
            retraction = await undo_async(self.controller.services.library, conversation, seq)
        except Exception as exc:
            self._set_busy(False)
            if not isinstance(exc, CrosstalkError):  # a bug: reported as one
                sys.excepthook(type(exc), exc, exc.__traceback__)
                return
            self._show_error(self.tr("Not undone: {error}").format(error=errors_text.said(exc)))
            return
        first, last = retraction.covers
        self._show_status(
            self.tr("Undid the compression at seq {first}-{last}.").format(first=first, last=last)
        )
        self._set_busy(False)
        self.history_changed.emit(self.conversation_id)

    # --- state ----------------------------------------------------------------------------

    def _on_context(self, event: ContextEvent) -> None:
        if isinstance(event, Compressing):
            first, last = event.covers
            said = self.tr("Summarising seq {first}-{last} with {model} (%n summary(s))…", "",
                           event.parts)  # fmt: skip
            self.status.setText(said.format(first=first, last=last, model=event.model))
            if event.parts > 1:
                self._on_summary(0, event.parts)

    def _on_summary(self, done: int, total: int) -> None:
        """Chunked: ``done`` summaries of ``total`` written (one alone stays a busy bar)."""
        if total > 1:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            self.progress.setFormat(self.tr("%v of %m summaries"))
            self.progress.setTextVisible(True)

    def _set_busy(self, busy: bool, message: str | None = None, cancellable: bool = True) -> None:
        self.progress.setVisible(busy)
        self.progress.setRange(0, 0)  # busy: how long a summary takes is not known
        self.progress.setTextVisible(False)
        self.cancel_button.setEnabled(busy and cancellable)
        for widget in (self.preview_button, self.strategy, self.argument, self.model):
            widget.setEnabled(not busy)
        if not busy:
            self.argument.setEnabled(bool(STRATEGIES[self.strategy.currentIndex()][2]))
        self.use_button.setEnabled(not busy and self.outcome is not None)
        self._undoable = False  # until found again: a use or an undo changed it
        self.undo_button.setEnabled(False)
        if not busy:
            self._check_undoable()
        if message is not None:
            self._show_status(message)

    def _check_undoable(self) -> None:
        """Enable Undo once a worker thread has found a standing compression (the history's
        outline is kept, so Undo's own look at it is quick then)."""
        history = self.controller.conversation(self.conversation_id).history

        async def check() -> None:
            undoable = bool(await asyncio.to_thread(standing, history))
            if shiboken6.isValid(self.undo_button):  # else the dialog was closed meanwhile
                self._undoable = undoable
                self.undo_button.setEnabled(undoable and not self.busy())

        self.controller.spawn(check())

    def _show_status(self, message: str) -> None:
        self.status.setStyleSheet("")
        self.status.setText(message)

    def _show_error(self, message: str) -> None:
        self.status.setStyleSheet(f"color: {theme.colour('error')};")
        self.status.setText(message)

    def _cancel(self) -> None:
        """Closed: the preview is no longer waited for (an append under way still ends)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()


def _summaries_text(outcome: Outcome) -> str:
    if len(outcome.summaries) == 1:
        return outcome.summaries[0].text
    return "\n\n".join(
        QCoreApplication.translate("CompressDialog", "seq {first}-{last}:").format(
            first=s.job.covers[0], last=s.job.covers[1]
        )
        + f"\n{s.text}"
        for s in outcome.summaries
    )
