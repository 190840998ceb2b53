"""File > Export and File > Import: pick what and where, watch the progress, read the outcome.

Thin: the work runs in a TransferRunner (a worker thread with its own Library); these dialogs
only ask, start the job as a task (``spawn``) and show its progress and report. Every dialog,
the file dialogs included, is opened non-modally: no nested event loop inside a coroutine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.errors import CrosstalkError
from app.transfer import FORMATS, SOURCES, Cancelled, ImportReport, Progress
from app.transfer.export import EXTENSIONS
from ui.common import errors_text, locale_format, notes
from ui.common.i18n import Context
from ui.inspector.wording import QT_TRANSLATE_NOOP
from ui.transfer.runner import TransferRunner

Spawn = Callable[[Coroutine[Any, Any, None]], "asyncio.Task[None]"]
FAILURES = (CrosstalkError, OSError)
STEPS = 1000  # the progress bar's range
# what the format menus say of app.transfer's FORMATS and SOURCES (source texts)
FORMAT_NAMES = {
    "json": QT_TRANSLATE_NOOP("TransferDialog", "JSON (Crosstalk, to import again)"),
    "markdown": QT_TRANSLATE_NOOP("TransferDialog", "Markdown"),
    "html": QT_TRANSLATE_NOOP("TransferDialog", "HTML"),
    "zip": QT_TRANSLATE_NOOP("TransferDialog", "ZIP archive (JSON of each)"),
}
SOURCE_NAMES = {
    "crosstalk": QT_TRANSLATE_NOOP("TransferDialog", "Crosstalk JSON or ZIP"),
    "chatgpt": QT_TRANSLATE_NOOP("TransferDialog", "ChatGPT export"),
    "claude": QT_TRANSLATE_NOOP("TransferDialog", "Claude export"),
    "openwebui": QT_TRANSLATE_NOOP("TransferDialog", "Open WebUI export"),
    "llm": QT_TRANSLATE_NOOP("TransferDialog", "llm logs database"),
}


def _said(exc: Exception) -> str:
    """A failure in the user's language (an OS error in the OS's words)."""
    return errors_text.said(exc) if isinstance(exc, CrosstalkError) else str(exc)


def _named(names: dict[str, str], key: str) -> str:
    """A format's name in the user's language (its identifier, if it has none)."""
    name = names.get(key)
    return key if name is None else QCoreApplication.translate("TransferDialog", name)


class ImportProgress(Context):
    """The translation context of the progress line both dialogs share."""


class _TransferDialog(QDialog):
    """What both dialogs share: a runner, a progress bar, a status line, Cancel/Close."""

    def __init__(self, runner: TransferRunner, spawn: Spawn, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.runner = runner
        self._spawn = spawn
        self.running = False
        self.file_dialog: QFileDialog | None = None
        self.progress = QProgressBar()
        self.progress.setRange(0, STEPS)
        self.progress.setVisible(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.start_button = QPushButton()
        self.cancel_button = QPushButton(self.tr("Close"))
        self.cancel_button.clicked.connect(self._cancel_or_close)
        runner.progressed.connect(self._on_progress)
        self.finished.connect(self._release)

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.start_button)
        row.addWidget(self.cancel_button)
        return row

    def _set_running(self, running: bool) -> None:
        self.running = running
        self.start_button.setEnabled(not running)
        self.cancel_button.setText(self.tr("Cancel") if running else self.tr("Close"))
        if running:
            self.progress.setValue(0)
            self.progress.setVisible(True)

    def _on_progress(self, progress: Progress) -> None:
        if not self.running:
            return
        self.progress.setValue(round(progress.fraction * STEPS))
        # not self.tr: PySide looks a count's text up under the instance's own class alone
        # (ImportDialog), where it is not, and it came out in English in every language
        said = ImportProgress.tr("{file}: %Ln conversation(s) so far", "", progress.conversations)
        self.status.setText(said.format(file=progress.file))

    def _cancel_or_close(self) -> None:
        if self.running:
            self.runner.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Cancelling…"))
        else:
            self.reject()

    def _job_done(self) -> None:
        self._set_running(False)
        self.cancel_button.setEnabled(True)
        if not self.isVisible():
            self.runner.close()

    def _release(self, _result: int = 0) -> None:
        """Closed: a running job is cancelled; the runner closes once it has stopped."""
        if self.running:
            self.runner.cancel()
        else:
            self.runner.close()

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        self._release()
        super().closeEvent(event)

    def _open_file_dialog(self, dialog: QFileDialog) -> None:
        self.file_dialog = dialog
        dialog.open()  # non-modal; the answer comes as a signal


class ExportDialog(_TransferDialog):
    """Export the current, the selected or all conversations as JSON, Markdown, HTML or ZIP."""

    export_finished = Signal(str)  # what the status line says at the end

    def __init__(
        self,
        runner: TransferRunner,
        spawn: Spawn,
        scopes: Mapping[str, Sequence[str] | None],
        parent: QWidget | None = None,
    ) -> None:
        """``scopes``: choices such as "All conversations" and their ids (None: all of them)."""
        super().__init__(runner, spawn, parent)
        self.setWindowTitle(self.tr("Export conversations"))
        self.scopes = scopes
        self.scope = QComboBox()
        self.scope.addItems(list(scopes))
        self.format = QComboBox()
        for fmt in FORMATS:
            self.format.addItem(_named(FORMAT_NAMES, fmt), fmt)
        self.start_button.setText(self.tr("Export…"))
        self.start_button.clicked.connect(self.choose_target)
        form = QFormLayout()
        form.addRow(self.tr("Conversations"), self.scope)
        form.addRow(self.tr("Format"), self.format)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addLayout(self._buttons())
        self.resize(460, 180)

    def chosen_ids(self) -> Sequence[str] | None:
        return self.scopes[self.scope.currentText()]

    def choose_target(self) -> None:
        """Ask where to write: a file for one conversation or a ZIP, else a folder."""
        fmt = self.format.currentData()
        ids = self.chosen_ids()
        dialog = QFileDialog(self, self.tr("Export to"))
        if fmt != "zip" and (ids is None or len(ids) > 1):
            dialog.setFileMode(QFileDialog.FileMode.Directory)
            dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        else:
            dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            dialog.setFileMode(QFileDialog.FileMode.AnyFile)
            stem = ids[0] if ids is not None and len(ids) == 1 else "crosstalk-export"
            dialog.selectFile(f"{stem}{EXTENSIONS[fmt]}")
        dialog.fileSelected.connect(self.start_export)
        self._open_file_dialog(dialog)

    def start_export(self, path: str) -> None:
        if path and not self.running:
            self._set_running(True)
            self._spawn(self._export(Path(path)))

    async def _export(self, output: Path) -> None:
        fmt = self.format.currentData()
        # a file was confirmed in the save dialog (which asks before replacing one); files in
        # a folder are never replaced unasked
        force = fmt == "zip" or not output.is_dir()
        self.status.setText(self.tr("Exporting…"))
        try:
            report = await self.runner.export(self.chosen_ids(), fmt, output, force=force)
        except Cancelled:
            text = (
                self.tr("Export cancelled. Nothing was written.")
                if fmt == "zip"
                else self.tr("Export cancelled.")
            )
        except FAILURES as exc:
            text = self.tr("Export failed: {error}").format(error=_said(exc))
        else:
            self.progress.setValue(STEPS)
            count = report.conversations
            where = report.written[0] if len(report.written) == 1 else output
            said = self.tr("Exported %Ln conversation(s) to {path}", "", count)
            text = said.format(path=where)
        self.status.setText(text)
        self._job_done()
        self.export_finished.emit(text)


class ImportDialog(_TransferDialog):
    """Import files (Crosstalk JSON or ZIP, other apps' exports), or only see what would happen."""

    import_finished = Signal(object)  # ImportReport

    def __init__(self, runner: TransferRunner, spawn: Spawn, parent: QWidget | None = None) -> None:
        super().__init__(runner, spawn, parent)
        self.setWindowTitle(self.tr("Import conversations"))
        self.paths: list[Path] = []
        self.choose_button = QPushButton(self.tr("Choose files…"))
        self.choose_button.clicked.connect(self.choose_files)
        self.files = QLabel(self.tr("No files chosen"))
        self.files.setWordWrap(True)
        self.source = QComboBox()
        self.source.addItem(self.tr("Detect automatically"), None)
        for source in SOURCES:
            self.source.addItem(_named(SOURCE_NAMES, source), source)
        self.dry_run = QCheckBox(self.tr("Dry run: only report what would be imported"))
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.setVisible(False)
        self.start_button.setText(self.tr("Import"))
        self.start_button.setEnabled(False)
        self.start_button.clicked.connect(self.start_import)
        picker = QHBoxLayout()
        picker.addWidget(self.choose_button)
        picker.addWidget(self.files, 1)
        form = QFormLayout()
        form.addRow(self.tr("Format"), self.source)
        layout = QVBoxLayout(self)
        layout.addLayout(picker)
        layout.addLayout(form)
        layout.addWidget(self.dry_run)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.summary, 1)
        layout.addLayout(self._buttons())
        self.resize(560, 380)

    def choose_files(self) -> None:
        dialog = QFileDialog(self, self.tr("Import from"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.setNameFilters(
            [self.tr("Exports ({patterns})").format(patterns="*.json *.zip *.db"),
             self.tr("All files ({patterns})").format(patterns="*")]
        )  # fmt: skip
        dialog.filesSelected.connect(self.set_paths)
        self._open_file_dialog(dialog)

    def set_paths(self, paths: Sequence[str]) -> None:
        self.paths = [Path(p) for p in paths]
        self.files.setText(", ".join(p.name for p in self.paths) or self.tr("No files chosen"))
        self.start_button.setEnabled(bool(self.paths) and not self.running)

    def start_import(self) -> None:
        if self.paths and not self.running:
            self._set_running(True)
            self.summary.setVisible(False)
            self._spawn(self._import(list(self.paths)))

    async def _import(self, paths: list[Path]) -> None:
        source = self.source.currentData()
        self.status.setText(self.tr("Reading…"))
        try:
            report = await self.runner.import_paths(
                paths, dry_run=self.dry_run.isChecked(), source_format=source
            )
        except FAILURES as exc:
            self.status.setText(self.tr("Import failed: {error}").format(error=_said(exc)))
            self._job_done()
            return
        self.progress.setValue(STEPS)
        self.status.setText(self.report_summary(report))
        self.summary.setPlainText(self.describe(report))
        self.summary.setVisible(True)
        self._job_done()
        self.import_finished.emit(report)

    def report_summary(self, report: ImportReport) -> str:
        """ "Imported 3 conversations, skipped 1, failed 0" ("Would import ...": a dry run)."""
        n = len(report.imported)
        said = (
            self.tr("Would import %Ln conversation(s), skipped {skipped}, failed {failed}", "", n)
            if report.dry_run
            else self.tr("Imported %Ln conversation(s), skipped {skipped}, failed {failed}", "", n)
        )
        count = locale_format.count
        text = said.format(skipped=count(len(report.skipped)), failed=count(len(report.failed)))
        return text + self.tr(" (cancelled)") if report.cancelled else text

    def describe(self, report: ImportReport) -> str:
        """The report as the summary box shows it: one line per conversation or problem. What
        the files say (titles, their problems) is shown as it is."""
        lines = [self.report_summary(report)]
        if report.imported:
            lines += ["", self.tr("Would import:") if report.dry_run else self.tr("Imported:")]
            for _id, title, label in report.imported:
                said = self.tr("{title}  (from {file})")
                lines.append("  " + said.format(title=title or self.tr("Untitled"), file=label))
        if report.skipped:
            lines += ["", self.tr("Skipped:")]
            lines += [f"  {label}: {notes.said(why)}" for label, why in report.skipped]
        if report.failed:
            lines += ["", self.tr("Failed:"), *(f"  {problem}" for problem in report.failed)]
        if report.notes:
            lines += ["", self.tr("Notes:")]
            lines += [f"  {label}: {notes.said(note)}" for label, note in report.notes]
        return "\n".join(lines)
