"""The Knowledge dialog: the sources of a project, of a conversation, or every source, with
Add folder…, Add file…, Remove and Reindex, the indexer's progress with Stop, and the files
that could not be read with why (docs/knowledge.md).

Every read and write of ``knowledge.db`` runs off the window's thread: a listing or an add
through ``spawn`` (a worker, each with its own ``Knowledge``), the reading of files on the
window's one ``Indexer`` thread. A failure is said in the dialog in the user's language.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any, NamedTuple, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.errors import CrosstalkError
from app.knowledge.service import Knowledge, Source, UpdateReport
from ui.common import errors_text, locale_format, theme
from ui.common.elided_label import ElidedLabel
from ui.knowledge.indexing import Indexer, close

T = TypeVar("T")
Spawn = Callable[[Coroutine[Any, Any, None]], "asyncio.Task[None]"]
ID_ROLE = Qt.ItemDataRole.UserRole


class Scope(NamedTuple):
    """Whose sources: a project's, a conversation's, or (neither) every source."""

    project: str | None = None
    conversation: str | None = None
    name: str = ""  # the project's name or the conversation's title

    def holds(self, source: Source) -> bool:
        if self.project is not None:
            return source.project == self.project
        if self.conversation is not None:
            return source.conversation == self.conversation
        return True


def vectors_of(source: Source) -> int:
    """The chunks embedded, by the model that embedded the most of them."""
    return max(source.vectors.values(), default=0)


class KnowledgeDialog(QDialog):
    def __init__(
        self, indexer: Indexer, spawn: Spawn, scope: Scope, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.indexer = indexer
        self.spawn = spawn
        self.scope = scope
        self.closed = False
        self.reading = 0  # reads and writes under way (tests wait for none)
        self.sources: list[Source] = []
        self.setWindowTitle(self.tr("Knowledge"))
        self.heading = QLabel(self._heading())
        self.heading.setWordWrap(True)
        self.table = self._sources_table()
        self.add_folder_button = QPushButton(self.tr("Add folder…"))
        self.add_file_button = QPushButton(self.tr("Add file…"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.reindex_button = QPushButton(self.tr("Reindex"))
        for button in (self.add_folder_button, self.add_file_button, self.remove_button,
                       self.reindex_button):  # fmt: skip
            button.setAutoDefault(False)
        self.add_folder_button.clicked.connect(self.choose_folder)
        self.add_file_button.clicked.connect(self.choose_file)
        self.remove_button.clicked.connect(self.remove_selected)
        self.reindex_button.clicked.connect(self.reindex_selected)
        self.bar = QProgressBar()
        self.bar.setTextVisible(True)
        # one line whatever the path: a new file every few ms never lays the dialog out again
        self.reading_label = ElidedLabel()
        self.reading_label.setTextFormat(Qt.TextFormat.PlainText)
        self.reading_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.clicked.connect(self.stop)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.hide()
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setStyleSheet(f"color: {theme.colour('error')}")
        self.problem.hide()
        self.problems_label = QLabel(self.tr("Files that could not be read"))
        self.problems = QTreeWidget()
        self.problems.setHeaderLabels([self.tr("File"), self.tr("Why")])
        self.problems.setRootIsDecorated(False)
        self.problems.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.problems.header().setStretchLastSection(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        self._lay_out()
        indexer.started.connect(self._on_started)
        indexer.progress.connect(self._on_progress)
        indexer.finished.connect(self._on_finished)
        indexer.idle.connect(self._show_busy)
        self.table.itemSelectionChanged.connect(self._on_selection)
        self._show_busy()
        self.refresh()

    def _heading(self) -> str:
        if self.scope.project is not None:
            said = self.tr("The documents of the project “{name}”: its chats search them.")
            return said.format(name=self.scope.name)
        if self.scope.conversation is not None:
            return self.tr("The documents of this chat: its questions search them.")
        return self.tr("Every source of every project and chat.")

    def _sources_table(self) -> QTreeWidget:
        table = QTreeWidget()
        table.setHeaderLabels([self.tr("Source"), self.tr("Files"), self.tr("Chunks"),
                               self.tr("Problems"), self.tr("Vectors")])  # fmt: skip
        table.setRootIsDecorated(False)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = table.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        table.setColumnHidden(4, True)  # shown once a source has vectors (an embedding model)
        return table

    def _lay_out(self) -> None:
        actions = QHBoxLayout()
        for button in (self.add_folder_button, self.add_file_button, self.remove_button,
                       self.reindex_button):  # fmt: skip
            actions.addWidget(button)
        actions.addStretch(1)
        progress = QHBoxLayout()
        progress.addWidget(self.bar, 1)
        progress.addWidget(self.stop_button)
        column = QVBoxLayout(self)
        column.addWidget(self.heading)
        column.addWidget(self.table, 2)
        column.addLayout(actions)
        column.addLayout(progress)
        column.addWidget(self.reading_label)
        column.addWidget(self.summary)
        column.addWidget(self.problem)
        column.addWidget(self.problems_label)
        column.addWidget(self.problems, 1)
        column.addWidget(self.buttons)
        self.resize(720, 560)

    # --- reading and writing off the window's thread ----------------------------------------

    def run(self, job: Callable[[Knowledge], T], then: Callable[[T], None]) -> asyncio.Task[None]:
        """``job`` with a ``Knowledge`` of its own on a worker thread; then ``then`` here, or
        the dialog says why it failed."""
        make = self.indexer.make
        self.reading += 1
        # the loop now, not when the job's first step runs: a test's click (QTest) can run
        # that step from Qt's events while no loop runs, and ``asyncio.to_thread`` then found
        # none ("no running event loop", twice in CI)
        loop = asyncio.get_event_loop()

        def work() -> T:
            knowledge = make()
            try:
                return job(knowledge)
            finally:
                close(knowledge)

        async def go() -> None:
            try:
                result = await loop.run_in_executor(None, work)
            except CrosstalkError as exc:
                if not self.closed:
                    self.say(errors_text.said(exc))
                return
            except Exception as exc:  # a bug: as an exception in a slot would be
                sys.excepthook(type(exc), exc, exc.__traceback__)
                return
            finally:
                self.reading -= 1
            if not self.closed:
                then(result)

        return self.spawn(go())

    def say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    # --- the sources ------------------------------------------------------------------------

    def refresh(self) -> None:
        scope = self.scope
        self.run(lambda k: [s for s in k.sources() if scope.holds(s)], self._show_sources)

    def _show_sources(self, sources: list[Source]) -> None:
        chosen = self.selected()
        self.sources = sources
        self.table.clear()
        for source in sources:
            item = QTreeWidgetItem([
                source.path, locale_format.count(source.files), locale_format.count(source.chunks),
                locale_format.count(source.problems), locale_format.count(vectors_of(source)),
            ])  # fmt: skip
            item.setData(0, ID_ROLE, source.id)
            item.setToolTip(0, source.path)
            if source.vectors:
                models = ", ".join(f"{model}: {locale_format.count(n)}"
                                   for model, n in sorted(source.vectors.items()))  # fmt: skip
                item.setToolTip(4, models)
            for column in (1, 2, 3, 4):
                item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight)
            self.table.addTopLevelItem(item)
            if source.id == chosen:
                item.setSelected(True)
        empty = self.tr("No sources yet: add a folder or a file.")
        self.table.setColumnHidden(4, not any(s.vectors for s in sources))
        if not sources:
            self.show_summary(empty)
        elif self.summary.text() == empty:
            self.show_summary("")
        self._on_selection()

    def selected(self) -> int | None:
        items = self.table.selectedItems()
        return int(items[0].data(0, ID_ROLE)) if items else None

    def _on_selection(self) -> None:
        self._show_busy()
        chosen = self.selected()
        ids = [chosen] if chosen is not None else [s.id for s in self.sources if s.problems]

        def read(knowledge: Knowledge) -> list[tuple[str, str]]:
            return [found for source in ids for found in knowledge.problems(source)]

        self.run(read, self._show_problems)

    def _show_problems(self, problems: list[tuple[str, str]]) -> None:
        self.problems.clear()
        for path, why in problems:
            item = QTreeWidgetItem([path, why])
            item.setToolTip(0, path)
            item.setToolTip(1, why)
            self.problems.addTopLevelItem(item)
        self.problems.resizeColumnToContents(0)
        shown = bool(problems)
        self.problems_label.setVisible(shown)
        self.problems.setVisible(shown)

    # --- what the user does -----------------------------------------------------------------

    def choose_folder(self) -> None:
        chooser = QFileDialog(self, self.tr("Add a folder of documents"))
        chooser.setFileMode(QFileDialog.FileMode.Directory)
        chooser.setOption(QFileDialog.Option.ShowDirsOnly, True)
        chooser.fileSelected.connect(self.add)
        chooser.open()  # not modal: never a nested event loop

    def choose_file(self) -> None:
        chooser = QFileDialog(self, self.tr("Add a document"))
        chooser.setFileMode(QFileDialog.FileMode.ExistingFile)
        chooser.fileSelected.connect(self.add)
        chooser.open()

    def add(self, path: str) -> asyncio.Task[None]:
        """``path`` as a source of the scope, then read in the background."""
        scope = self.scope
        self.say("")

        def added(source: Source) -> None:
            self.indexer.index(source.id)
            self.refresh()

        return self.run(lambda k: k.add(path, scope.project, scope.conversation), added)

    def remove_selected(self) -> asyncio.Task[None] | None:
        chosen = self.selected()
        if chosen is None:
            self.say(self.tr("Choose a source in the list first."))
            return None
        self.say("")
        return self.run(lambda k: k.remove(chosen), lambda _source: self.refresh())

    def reindex_selected(self) -> None:
        """Read every file of the chosen source again (none chosen: of every source listed)."""
        chosen = self.selected()
        self.say("")
        for source in [chosen] if chosen is not None else [s.id for s in self.sources]:
            self.indexer.index(source, full=True)

    def stop(self) -> None:
        self.indexer.stop()
        self.stop_button.setEnabled(False)

    # --- the indexer's progress -------------------------------------------------------------

    def _show_busy(self) -> None:
        busy = self.indexer.busy()
        self.bar.setVisible(busy)
        self.stop_button.setVisible(busy)
        self.stop_button.setEnabled(busy)
        self.reading_label.setVisible(busy)
        # a source is not taken away while its files are being written
        self.remove_button.setEnabled(not busy and self.selected() is not None)
        self.remove_button.setToolTip(
            self.tr("Wait for the indexing to end, or stop it, to remove a source.")
            if busy else ""
        )  # fmt: skip
        self.reindex_button.setEnabled(bool(self.sources))

    def _on_started(self, _source: int | None) -> None:
        self.bar.setRange(0, 0)  # busy until the files are counted
        self.bar.setFormat("")
        self.reading_label.setText(self.tr("Looking for files…"))
        self._show_busy()

    def _on_progress(self, done: int, total: int, file: str) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        self.bar.setFormat(self.tr("{done} / {total} files").format(
            done=locale_format.count(done), total=locale_format.count(total)
        ))  # fmt: skip
        if file:
            self.reading_label.setText(self.tr("Reading {file}").format(file=file))
        self._show_busy()

    def _on_finished(
        self, _source: int | None, report: UpdateReport | None, error: CrosstalkError | None
    ) -> None:
        if report is not None:
            self.show_summary(self.finished_text(report))
        if error is not None:  # failed, or read by words only: said with what to do
            self.say(errors_text.said(error))
        self._show_busy()
        self.refresh()

    def show_summary(self, text: str) -> None:
        self.summary.setText(text)
        self.summary.setVisible(bool(text))

    def finished_text(self, report: UpdateReport) -> str:
        read = self.tr("%n file(s) read", "", report.files_read)
        if report.stopped:
            said = self.tr("Stopped: {read}. Reindex or a change in the folder goes on from there.")
        elif report.problems:
            said = self.tr("{read}, {chunks} passages; {problems}: see below.")
        else:
            said = self.tr("{read}, {chunks} passages.")
        problems = self.tr("%n could not be read", "", len(report.problems))
        text = said.format(read=read, chunks=locale_format.count(report.chunks), problems=problems)
        if report.vector_problem:
            text += " " + self.tr(
                "The passages could not be embedded ({why}): they are found by their words, "
                "and the next update embeds them."
            ).format(why=report.vector_problem)
        return text
