"""Projects and tags from the window: New project, a project's instructions and defaults, its
rename, archive and delete (with Undo), New chat in a project, Move to project, Tags.

Each change is a write of ``Projects`` (``app/store/projects.py``), run on a worker thread
through the controller's ``spawn``, never on the window's; the window hears of it when it is
done, as with ``ui.shell.conversation_actions``: the list is refreshed, a failure is said in
the banner ("Could not …") or in the dialog that asked, a delete offers Undo there. The
dialogs are ``ui.projects``'s, imported when first opened.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMainWindow, QVBoxLayout, QWidget

from app.errors import CrosstalkError, NotFound
from app.store import project_state
from app.store.projects import Projects
from ui.common import errors_text

if TYPE_CHECKING:
    from app.store.project_state import Project
    from ui.chat.controller import ChatController
    from ui.composer.composer import Composer
    from ui.conversations.pane import ConversationList
    from ui.shell.conversation_actions import Shown
    from ui.shell.error_banner import ErrorBanner

T = TypeVar("T")
UNDO = "undo_project"  # the banner's action after a project was deleted


class ProjectActions(QObject):
    def __init__(
        self,
        controller: ChatController,
        shown: Shown,
        banner: ErrorBanner,
        conversations: ConversationList,
        composer: Composer,
        builtins: Sequence[tuple[str, str]],
        parent: QMainWindow,
    ) -> None:
        """``builtins``: the built-in tools and their descriptions (the Tools menu's)."""
        super().__init__(parent)
        self.controller = controller
        self.shown = shown
        self.banner = banner
        self.conversations = conversations
        self.composer = composer
        self.builtins = list(builtins)
        self.parent_widget = parent
        self.projects = Projects(controller.services.library)
        self.deleted: tuple[str, str] | None = None  # the last project trashed: id, name
        self._known: dict[str, Project] = {}  # read once each, forgotten at each change
        # opens a project's documents (id, name): set once File > Knowledge is built
        self.documents: Callable[[str, str], object] | None = None
        self.label = QLabel()  # the project's name before the conversation's, muted
        self.label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.label.hide()
        # the projects read anew (a change here, in another process or from another device):
        # what was read of them may be old
        conversations.projects.loaded.connect(self._read_anew)

    # --- what is shown --------------------------------------------------------------------

    def place_label(self, column: QVBoxLayout, heading: QLabel) -> None:
        """The project's name in the heading's row, before it; hidden, the heading is where
        it was (nothing moves while the window fills)."""
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        column.replaceWidget(heading, row)
        line.addWidget(self.label)
        line.addWidget(heading, 1)

    def project_of(self, conversation_id: str | None) -> Project | None:
        """The project the conversation is in (None: none, or one not here)."""
        if not conversation_id:
            return None
        try:
            history = self.controller.conversation(conversation_id).history
        except CrosstalkError:
            return None
        project_id = project_state.project_of(history)
        if project_id is None:
            return None
        if project_id not in self._known:
            try:  # one small transcript, read once
                self._known[project_id] = self.projects.get(project_id)
            except NotFound:  # deleted, or not synced here yet
                return None
            except CrosstalkError as exc:
                self.banner.show_error(exc)
                return None
        return self._known[project_id]

    def show_project(self, conversation_id: str | None) -> Project | None:
        """The heading names the conversation's project (hidden for none)."""
        project = self.project_of(conversation_id)
        name = project.name if project else ""
        self.label.setText(self.tr("{project} ›").format(project=name))  # noqa: RUF001
        self.label.setToolTip(self.tr("In the project {project}").format(project=name))
        self.label.setVisible(project is not None)
        return project

    def model_for(self, conversation_id: str) -> str | None:
        """The project's default model, for a conversation with no reply yet to go on from."""
        project = self.project_of(conversation_id)
        return project.model if project else None

    def _read_anew(self) -> None:
        self._known.clear()
        self.show_project(self.shown.current)

    def _changed(self) -> None:
        """A project or a conversation's project changed: read again when next needed."""
        self._known.clear()
        self.conversations.refresh()  # the rows and the projects section
        self.show_project(self.shown.current)

    # --- projects -------------------------------------------------------------------------

    def new_project(self, name: str = "") -> asyncio.Task[None] | None:
        """A project named ``name`` (typed in the list), or the Project dialog for a new one
        (File > Project > New project…)."""
        if not name:
            self._open_project(None)
            return None
        failed = self.tr("Could not make the project: {error}")
        return self._write(lambda: self.projects.create(name), failed)

    def edit_project(self, project_id: str) -> asyncio.Task[None]:
        """The project's instructions and defaults (the list's Project settings…)."""
        failed = self.tr("Could not open the project: {error}")
        return self._write(lambda: self.projects.get(project_id), failed, self._open_project,
                           refresh=False)  # fmt: skip

    def edit_current(self) -> None:
        """Project > Instructions and defaults…: of the shown conversation's project, else of
        the project the list shows."""
        project = self.project_of(self.shown.current)
        chosen = project.id if project else self.conversations.project_filter()
        if isinstance(chosen, str) and chosen:
            self.edit_project(chosen)
        else:
            self.banner.show_message(self.tr(
                "This chat is in no project: move it to one first (Move to project…), or "
                "choose a project in the list."
            ))  # fmt: skip

    def _open_project(self, project: Project | None) -> None:
        from ui.projects.project_dialog import ProjectDialog

        tools = [(name, tip, True) for name, tip in self.builtins]
        tools += [(i.selector, i.tip, i.usable) for i in self.composer.tools_menu.server_items()]
        documents = self.documents
        knowledge = (lambda p: documents(p.id, p.name)) if documents is not None else None
        dialog = ProjectDialog(self.projects, self.controller.spawn, self.composer.models(),
                               tools, project, self.parent_widget,
                               knowledge=knowledge)  # fmt: skip
        dialog.saved.connect(lambda _project: self._changed())
        dialog.open()  # non-modal: never a nested event loop inside a coroutine

    def rename(self, project_id: str, name: str) -> asyncio.Task[None]:
        failed = self.tr("Could not rename the project: {error}")
        return self._write(lambda: self.projects.rename(project_id, name), failed)

    def archive(self, project_id: str, archived: bool) -> asyncio.Task[None]:
        failed = self.tr("Could not archive the project: {error}") if archived else self.tr(
            "Could not take the project out of the archive: {error}"
        )  # fmt: skip
        return self._write(lambda: self.projects.archive(project_id, archived), failed)

    def delete(self, project_id: str) -> asyncio.Task[None]:
        """The project and its conversations to the trash, with Undo in the banner (not
        while a reply streams in one of them)."""

        def read() -> tuple[str, list[str]]:
            return self.projects.get(project_id).name, self.projects.members(project_id)

        failed = self.tr("Could not move the project to the trash: {error}")
        return self._write(read, failed, lambda found: self._delete(project_id, *found),
                           refresh=False)  # fmt: skip

    def _delete(self, project_id: str, name: str, members: list[str]) -> None:
        if any(self.controller.is_streaming(member) for member in members):
            self.banner.show_message(
                self.tr("A reply is still streaming in that project: stop it first (Esc).")
            )
            return

        def deleted(trashed: list[str]) -> None:
            self.deleted = (project_id, name)
            for member in trashed:
                self.controller.forget(member)
            if {self.shown.current, self.shown.opening} & set(trashed):
                self.shown.new_chat()
            said = self.tr("Moved the project “{name}” and %n conversation(s) to the trash.",
                           "", len(trashed))  # fmt: skip
            self.banner.show_message(said.format(name=name), UNDO)

        failed = self.tr("Could not move the project to the trash: {error}")
        self._write(lambda: self.projects.delete(project_id), failed, deleted)

    def undo(self) -> asyncio.Task[None] | None:
        """The banner's Undo: the project last moved to the trash back, with its
        conversations."""
        if self.deleted is None:
            return None
        project_id, name = self.deleted
        failed = self.tr("Could not bring the project back: {error}")

        def restored(members: list[str]) -> None:
            self.deleted = None
            said = self.tr("Brought back the project “{name}” and %n conversation(s).",
                           "", len(members))  # fmt: skip
            self.parent_widget.statusBar().showMessage(said.format(name=name), 10_000)

        return self._write(lambda: self.projects.restore(project_id), failed, restored)

    # --- conversations --------------------------------------------------------------------

    def new_chat_in(self, project_id: str) -> asyncio.Task[None]:
        """A new conversation in the project, before its first turn (so the project's
        instructions and defaults apply from the first request), shown with the project's
        model picked."""
        library = self.projects.library

        def made() -> str:  # on a worker, as every write of the window
            conversation = library.create()
            self.projects.move([conversation.id], project_id)
            return conversation.id

        failed = self.tr("Could not start a chat in the project: {error}")
        return self._write(made, failed, lambda made_id: self._show_moved([made_id], made_id))

    def _show_moved(self, moved: list[str], conversation_id: str) -> None:
        self._catch_up(moved)
        self.shown.show_conversation(conversation_id)

    def choose_project(self, conversation_ids: Sequence[str] = ()) -> asyncio.Task[None] | None:
        """Move to project…: for the conversations chosen in the list (or the one shown)."""
        ids = list(conversation_ids) or self.conversations.selected_ids()
        if not ids and self.shown.current:
            ids = [self.shown.current]
        if not ids:
            self.banner.show_message(self.tr("Choose conversations in the list to move first."))
            return None
        project = self.project_of(ids[0]) if len(ids) == 1 else None
        failed = self.tr("Could not list the projects: {error}")
        then = lambda rows: self._open_move(ids, rows, project)  # noqa: E731
        return self._write(self.projects.rows, failed, then, refresh=False)

    def _open_move(self, ids: list[str], rows: list[dict[str, Any]], now: Project | None) -> None:
        from ui.projects.move_dialog import MoveDialog

        dialog = MoveDialog(self.projects, self.controller.spawn, ids, rows,
                            now.id if now else "", self.parent_widget)  # fmt: skip
        dialog.moved.connect(lambda moved, _project: self._after_move(moved))
        dialog.open()

    def move_to(self, conversation_ids: Sequence[str], project_id: str) -> asyncio.Task[None]:
        """Conversations into a project ("": out of any), e.g. dropped on it in the list."""
        ids = list(conversation_ids)
        failed = self.tr("Could not move the conversations: {error}")
        return self._write(lambda: self.projects.move(ids, project_id or None), failed,
                           self._after_move)  # fmt: skip

    def _after_move(self, moved: list[str]) -> None:
        self._catch_up(moved)
        current = self.shown.current
        self.show_project(current)  # read from the copy caught up
        if current in moved and self.controller.last_model(current) is None:
            project = self.project_of(current)
            settings = self.controller.services.settings
            self.composer.set_model(project.model if project and project.model
                                    else settings.default_model)  # fmt: skip
            self.composer.set_tools(self.controller.tools(current))

    def _catch_up(self, moved: list[str]) -> None:
        """The copies open here read the move (written through another copy), so the next
        turn starts from the project's defaults."""
        library = self.controller.services.library
        for conversation_id in moved:
            if self.controller.is_open(conversation_id):
                library.refresh(self.controller.conversation(conversation_id))

    def edit_tags(self, conversation_id: str | None = None) -> asyncio.Task[None] | None:
        """Tags…: of that conversation (by default the one shown, or the one chosen)."""
        chosen = conversation_id or self.shown.current or next(
            iter(self.conversations.selected_ids()), None
        )  # fmt: skip
        if not chosen:
            self.banner.show_message(self.tr("Open a conversation to give it tags."))
            return None

        def read() -> tuple[str, list[str], list[tuple[str, int]]]:
            history = self.controller.services.library.open(chosen).history
            return history.title or "", project_state.tags_of(history), self.projects.tags()

        failed = self.tr("Could not read the tags: {error}")
        return self._write(read, failed, lambda found: self._open_tags(chosen, *found),
                           refresh=False)  # fmt: skip

    def _open_tags(
        self, conversation_id: str, title: str, tags: list[str], in_use: list[tuple[str, int]]
    ) -> None:
        from ui.projects.tags_dialog import TagsDialog

        title = title or self.tr("Untitled")
        dialog = TagsDialog(self.projects, self.controller.spawn, conversation_id, title, tags,
                            in_use, self.parent_widget)  # fmt: skip
        dialog.saved.connect(lambda _id, _tags: self._after_tags(conversation_id))
        dialog.open()

    def _after_tags(self, conversation_id: str) -> None:
        self._catch_up([conversation_id])
        self.conversations.refresh()

    # --- running a write ------------------------------------------------------------------

    def _write(
        self,
        job: Callable[[], T],
        failed: str,
        then: Callable[[T], None] | None = None,
        *,
        refresh: bool = True,
    ) -> asyncio.Task[None]:
        """Run ``job`` (a Projects call) on a worker thread; once it is done the list is
        refreshed (unless ``refresh`` is False: a read) and ``then`` runs; a failure is shown
        (in ``failed``, a translated "Could not …: {error}")."""

        async def run() -> None:
            try:
                result = await asyncio.to_thread(job)
            except CrosstalkError as exc:
                self.banner.show_message(failed.format(error=errors_text.said(exc)))
                return
            except Exception as exc:  # a bug: as an exception in a slot would be
                sys.excepthook(type(exc), exc, exc.__traceback__)
                return
            if refresh:
                self._changed()
            if then is not None:
                then(result)

        return self.controller.spawn(run())
