"""Driving the whole window in tests: a provider that waits on gates, and a window harness.

The tests are synchronous; the qasync loop runs only inside ``Harness.until`` (Qt events
included), so every wait is a poll of a condition with a deadline, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget

from app.composition import Services, build_models
from app.history import AnyEntry, ModelInput, ModelOutput, Title
from app.keys import Keys
from app.paths import DataDir
from app.providers import Finished, Models, Request, StreamEvent, TextDelta
from app.settings import Settings
from app.store import Library
from tests.helpers.scripted_provider import Pause, ScriptedProvider, Step
from ui.chat.controller import ChatController
from ui.conversations.model import ROW_ROLE
from ui.conversations.pane import ID_ROLE
from ui.conversations.reader import LibraryReader
from ui.conversations.search_results import CONVERSATION
from ui.shell.main_window import MainWindow
from ui.shell.window_state import WindowState

DEFAULT = "scripted:echo"
E = TypeVar("E", bound=AnyEntry)
W = TypeVar("W", bound=QWidget)


@dataclass
class Gate:
    """A step that holds the stream until the test opens it."""

    opened: asyncio.Event = field(default_factory=asyncio.Event)
    reached: bool = False

    def open(self) -> None:
        self.opened.set()


@dataclass
class GatedProvider(ScriptedProvider):
    """ScriptedProvider whose scripts may also hold ``Gate`` steps."""

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        for step in self.scripts.pop(0):
            if isinstance(step, Gate):
                step.reached = True
                await step.opened.wait()
            elif isinstance(step, Pause):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, BaseException):
                raise step
            else:
                yield step


def services_for(data: DataDir, models: Models) -> Services:
    settings = Settings(default_model=DEFAULT, title_model=DEFAULT)
    return Services(data, settings, Keys({}), Library(data), models)


@dataclass
class Harness:
    """One MainWindow over real services, and the loop that runs its tasks."""

    loop: asyncio.AbstractEventLoop
    services: Services
    controller: ChatController
    reader: LibraryReader
    window: MainWindow
    closed: bool = False

    @classmethod
    def open(cls, loop: asyncio.AbstractEventLoop, services: Services) -> Harness:
        reader = LibraryReader(services.library)
        controller = ChatController(services)
        window = MainWindow.open(controller, reader, WindowState(services.data))
        window.show()
        harness = cls(loop, services, controller, reader, window)
        harness.until(lambda: not window.conversations.model.loading, "the list to load")
        return harness

    def until(self, check: Callable[[], object], what: str = "", timeout: float = 5) -> None:
        """Run the loop (Qt events included) until ``check`` holds."""

        async def poll() -> None:
            while not check():
                await asyncio.sleep(0.005)

        try:
            self.loop.run_until_complete(asyncio.wait_for(poll(), timeout))
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}") from None

    def finish(self, conversation_id: str) -> None:
        """Until the turn in that conversation has ended and the list has reloaded."""
        self.until(lambda: not self.controller.is_streaming(conversation_id), "the turn to end")
        self.until(lambda: not self.window.conversations.model.loading, "the list to load")

    def close(self) -> None:
        """Close the window (it saves its state), stop the turns and close the reader; once."""
        if self.closed:
            return
        self.closed = True
        self.window.close()
        self.loop.run_until_complete(self.controller.shutdown())
        self.reader.close()

    # --- acting and reading ---------------------------------------------------------------

    def type_and_enter(self, qtbot: Any, text: str) -> None:
        edit = self.window.composer.edit
        edit.setFocus()
        qtbot.keyClicks(edit, text)
        qtbot.keyClick(edit, Qt.Key.Key_Return)

    def send(self, qtbot: Any, text: str) -> str:
        """Type into the composer and press Enter; the id of the conversation it went to."""
        self.type_and_enter(qtbot, text)
        assert self.window.current is not None, "nothing was sent"
        return self.window.current

    def saved(self, conversation_id: str, kind: type[E]) -> list[E]:
        """The entries of that kind as saved, read back from the transcript."""
        history = self.services.library.open(conversation_id).history
        return [entry for entry in history if isinstance(entry, kind)]

    def chat_text(self) -> str:
        return self.window.chat.browser.toPlainText()

    def _conversation_rows(self) -> list[QModelIndex]:
        """The list's conversation rows (search results also have a row per matching message)."""
        model = self.window.conversations.model
        rows = (model.index(row) for row in range(model.rowCount()))
        return [index for index in rows if index.data(ROW_ROLE) == CONVERSATION]

    def listed_ids(self) -> list[str]:
        return [index.data(ID_ROLE) for index in self._conversation_rows()]

    def listed_titles(self) -> list[str]:
        return [index.data() for index in self._conversation_rows()]

    def row_index(self, conversation_id: str) -> QModelIndex:
        model = self.window.conversations.model
        row = model.row_of(conversation_id)
        assert row is not None, f"{conversation_id} is not in the list"
        return model.index(row)


def reply(*parts: str) -> list[Step]:
    return [*(TextDelta(part) for part in parts), Finished("stop")]


def seed(library: Library, title: str, question: str, answer: str) -> str:
    """A conversation with one turn and a title, made before the window opens."""
    conversation = library.create()
    library.append(conversation, ModelInput(text=question))
    library.append(conversation, ModelOutput(provider="scripted", model="echo", text=answer))
    library.append(conversation, Title(text=title, source="generated"))
    return conversation.id


def missing_key_models(provider: ScriptedProvider) -> Models:
    """The scripted provider, and OpenAI as configured by default with no key anywhere."""
    settings = Settings(default_model=DEFAULT, title_model=DEFAULT)
    openai = [e for e in build_models(settings, Keys({}), {}).entries() if e.name == "openai"]
    return Models([*Models.of(provider).entries(), *openai])


def click_row(qtbot: object, harness: Harness, conversation_id: str) -> None:
    """Click a conversation in the list, as a person would."""
    view = harness.window.conversations.view
    index = harness.row_index(conversation_id)
    view.scrollTo(index)
    point: QPoint = view.visualRect(index).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)  # type: ignore[attr-defined]
    # a conversation not in memory yet is read off the window's thread, then shown
    harness.until(lambda: harness.window.opening is None, "the conversation read")


def top_level(kind: type[W]) -> list[W]:
    """The visible windows (dialogs included) of a kind."""
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]


OpenWindow = Callable[..., Harness]  # the ``open_window`` fixture (tests/ui/conftest.py)
