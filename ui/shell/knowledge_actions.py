"""The knowledge base in the window (docs/knowledge.md): File > Knowledge (this chat's, the
project's or every source), the indexer's thread and its status in the status bar, watching
the attached folders while the window runs, and a citation clicked in a reply opening the
source viewer at its passage.

Made by ``ui.shell.menus.build`` with the few objects it uses; ``ui.knowledge`` is imported
when first used. The indexer starts at once only if there is a knowledge index already (to
catch up with what changed while the window was closed, and to watch it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QMainWindow

from app.errors import CrosstalkError
from app.knowledge.index import KNOWLEDGE_DB
from ui.common import errors_text

if TYPE_CHECKING:
    from app.composition import Services
    from ui.chat.view import ChatView
    from ui.knowledge.dialog import KnowledgeDialog, Scope
    from ui.knowledge.indexing import Indexer
    from ui.knowledge.viewer import SourceViewer

CLOSE_WAIT = 2.0  # seconds the window waits for the indexer to stop at the next file


class KnowledgeActions(QObject):
    """``current``: the conversation shown (None: a new chat); ``project_of``: a
    conversation's project as (id, name), or None; ``spawn``: the controller's."""

    def __init__(
        self,
        window: QMainWindow,
        services: Services,
        chat: ChatView,
        spawn: Callable[..., Any],
        current: Callable[[], str | None],
        project_of: Callable[[str | None], tuple[str, str] | None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self.services = services
        self.spawn = spawn
        self.current = current
        self.project_of = project_of
        self._indexer: Indexer | None = None
        self.watcher: Any = None
        self.status: Any = None
        self.dialogs: dict[Scope, KnowledgeDialog] = {}
        self.viewer: SourceViewer | None = None
        chat.citation_clicked.connect(self.open_citation)
        window.installEventFilter(self)
        if (services.data.root / KNOWLEDGE_DB).exists():
            QTimer.singleShot(0, self._catch_up)

    @property
    def indexer(self) -> Indexer:
        """The window's one indexer (made when first needed), its status in the status bar."""
        if self._indexer is None:
            from ui.knowledge.indexing import Indexer
            from ui.knowledge.status import IndexStatus
            from ui.knowledge.watching import Watching

            self._indexer = Indexer.for_services(self.services, self)
            self.watcher = Watching(self._indexer.make, self)
            self.status = IndexStatus([self._indexer, self.watcher])
            self.status.clicked.connect(self.open_all)
            self.window.statusBar().addPermanentWidget(self.status)
            self.watcher.finished.connect(self._refresh_dialogs)
            # a source added (and read) is watched from now on, not at the watcher's next look
            self._indexer.finished.connect(lambda *_: self.watcher.sources_changed())
        return self._indexer

    def _catch_up(self) -> None:
        """Follow the sources: the watcher first updates each (what changed while the
        window was closed), then the ones whose files change."""
        _ = self.indexer
        self.watcher.start()

    def _refresh_dialogs(self) -> None:
        for dialog in self.dialogs.values():
            if dialog.isVisible():
                dialog.refresh()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.close()
        return False

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
        if self._indexer is not None:
            self._indexer.close(CLOSE_WAIT)

    # --- the dialogs ------------------------------------------------------------------------

    def open_chat(self) -> KnowledgeDialog | None:
        """This chat's sources (a new chat has none yet: it is said)."""
        from ui.knowledge.dialog import Scope

        conversation = self.current()
        if conversation is None:
            self.window.statusBar().showMessage(
                self.tr("Send a first message, then add documents to this chat."), 10_000
            )
            return None
        return self.open(Scope(conversation=conversation))

    def open_project(self) -> KnowledgeDialog | None:
        from ui.knowledge.dialog import Scope

        project = self.project_of(self.current())
        if project is None:
            self.window.statusBar().showMessage(
                self.tr("This chat is in no project: move it to one first."), 10_000
            )
            return None
        return self.open(Scope(project=project[0], name=project[1]))

    def open_project_id(self, project_id: str, name: str) -> KnowledgeDialog:
        """A project's sources (from the Project dialog)."""
        from ui.knowledge.dialog import Scope

        return self.open(Scope(project=project_id, name=name))

    def open_all(self) -> KnowledgeDialog:
        from ui.knowledge.dialog import Scope

        return self.open(Scope())

    def open(self, scope: Scope) -> KnowledgeDialog:
        """The dialog of ``scope``, one per scope, brought to front if it is open already."""
        from ui.knowledge.dialog import KnowledgeDialog

        indexer = self.indexer
        self.watcher.start()
        dialog = self.dialogs.get(scope)
        if dialog is None:
            dialog = self.dialogs[scope] = KnowledgeDialog(indexer, self.spawn, scope, self.window)
            dialog.finished.connect(lambda _result: self.watcher.sources_changed())
        else:
            dialog.refresh()
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    # --- citations --------------------------------------------------------------------------

    def open_citation(self, seq: int, n: int) -> SourceViewer | None:
        """Passage [n] of the reply at ``seq`` of the conversation shown, in the viewer."""
        from ui.chat.citations import record_for
        from ui.knowledge.viewer import SourceViewer

        conversation = self.current()
        try:
            history = self.services.library.open(conversation).history if conversation else None
        except CrosstalkError as exc:
            self.window.statusBar().showMessage(errors_text.said(exc), 10_000)
            return None
        record = record_for(history, seq) if history is not None else None
        passage = next((p for p in record.sent if p.n == n), None) if record else None
        if passage is None:
            self.window.statusBar().showMessage(
                self.tr("Passage [{n}] is not recorded for this reply.").format(n=n), 10_000
            )
            return None
        if self.viewer is None:
            self.viewer = SourceViewer(self.spawn, self.window)
        self.viewer.show_passage(passage)
        self.viewer.show()
        self.viewer.raise_()
        return self.viewer
