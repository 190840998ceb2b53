"""The window starts light (docs/architecture.md, "The light shell"): the frame paints from the
few modules listed here, and the rest of the window is built into it in place, with nothing
moved and nothing typed meanwhile lost."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QPoint, QRect, Qt
from PySide6.QtWidgets import QWidget

from app.composition import Services
from app.paths import DataDir
from app.providers import Models
from app.store import Library
from tests.helpers.ui_driver import GatedProvider, reply, seed, services_for
from ui.chat.controller import ChatController
from ui.conversations.pane import ID_ROLE
from ui.conversations.reader import LibraryReader
from ui.shell.main_window import MainWindow
from ui.shell.window_state import WindowState

ROOT = Path(__file__).resolve().parents[2]

# what the first paint may import of Crosstalk's own modules (a name, or a package and all in it)
LIGHT = (
    "app", "app.atomic", "app.errors", "app.ids", "app.keys", "app.lazy_names", "app.paths",
    "app.pricing", "app.scrub", "app.settings", "app.settings_sync", "app.tool_names",
    "app.context", "app.context.policy", "app.context.strategies",  # the settings' policy
    "app.history.*", "app.notes.*", "app.store.*",
    "ui", "ui.common.*", "ui.conversations.*", "ui.composer", "ui.composer.message_edit",
    "ui.shell", "ui.shell.app", "ui.shell.event_loop", "ui.shell.filling", "ui.shell.frame",
    "ui.shell.index_upgrade", "ui.shell.launch_check", "ui.shell.log_file", "ui.shell.main",
    "ui.shell.main_window", "ui.shell.menus", "ui.shell.pyside_feature",
    "ui.shell.window_state",
)  # fmt: skip
# and of other packages than Python's own
THIRD_PARTY = (
    "PySide6", "PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets",
    "PySide6.QtSvg",  # the list's icons (ui/common/icons.py)
    "PySide6.support.*", "shiboken6.*", "shibokensupport.*", "signature_bootstrap", "qasync.*",
    "msgspec.*", "platformdirs.*", "typing_extensions",
)  # fmt: skip

# the real `crosstalk` window, noting what was imported at the frame's first paint and once
# the window is filled, then closed
CHILD = r"""
import json, sys
import ui.shell.frame as frame
from PySide6.QtCore import QEvent, QObject, QTimer

seen = {}

class Watch(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and "at_paint" not in seen:
            seen["at_paint"] = sorted(sys.modules)
            QTimer.singleShot(50, self.when_filled)
        return False

    def when_filled(self):
        if not self.window.filled:
            QTimer.singleShot(50, self.when_filled)
            return
        seen["filled"] = sorted(sys.modules)
        self.window.close()

made = frame.Frame.__init__

def watched(self, *args, **kwargs):
    made(self, *args, **kwargs)
    self._watch = Watch()
    self._watch.window = self
    self.installEventFilter(self._watch)

frame.Frame.__init__ = watched
from ui.shell.main import main
sys.argv = ["crosstalk"]
code = main()
print("SEEN " + json.dumps(seen))
sys.exit(code)
"""


def allowed(module: str, names: tuple[str, ...]) -> bool:
    for name in names:
        if name.endswith(".*"):
            package = name[:-2]
            if module == package or module.startswith(package + "."):
                return True
        elif module == name:
            return True
    return False


def outside_the_shell(modules: list[str]) -> list[str]:
    found = []
    for module in modules:
        top = module.split(".")[0]
        if top in ("app", "ui"):
            names = LIGHT
        elif top in sys.stdlib_module_names or top.startswith("_"):
            continue
        else:
            names = THIRD_PARTY
        if not allowed(module, names):
            found.append(module)
    return found


def test_the_first_paint_imports_only_the_light_shell(tmp_path: Path) -> None:
    home = DataDir(tmp_path / "home")
    library = Library(home)  # an index to open: the first run makes one first, with more
    seed(library, "a title", "a question", "an answer")
    library.close()
    env = dict(os.environ, CROSSTALK_HOME=str(home.root), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    line = next((s for s in done.stdout.splitlines() if s.startswith("SEEN ")), None)
    assert line is not None, done.stdout + done.stderr
    seen = json.loads(line.removeprefix("SEEN "))
    assert outside_the_shell(seen["at_paint"]) == []
    # the list is not empty by accident: once filled, the window has what the paint had not
    later = outside_the_shell(seen["filled"])
    for heavy in ("ui.shell.window_parts", "ui.chat.view", "app.composition", "markdown_it"):
        assert heavy in later
    assert done.returncode == 0, done.stderr


def test_the_list_of_the_shell_is_checked() -> None:
    """The check itself: a module outside the lists is reported, one inside is not."""
    assert outside_the_shell(["ui.chat.view", "markdown_it", "app.mcp"]) == [
        "ui.chat.view", "markdown_it", "app.mcp",
    ]  # fmt: skip
    assert outside_the_shell(["ui.conversations.pane", "app.store.index", "json"]) == []


@pytest.fixture
def services(data_dir: Any) -> Services:
    return services_for(data_dir, Models.of(GatedProvider()))


def place(widget: QWidget) -> QRect:
    """Where the widget is in its window."""
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


@pytest.mark.parametrize("inspector", [False, True], ids=["inspector-hidden", "inspector-shown"])
def test_the_frame_is_filled_in_place_keeping_what_was_typed(
    qtbot: Any, services: Services, qasync_loop: Any, inspector: bool
) -> None:
    seed(services.library, "earlier", "an earlier question", "an earlier answer")
    state = WindowState(services.data)
    if inspector:  # as a session that left the inspector open saved it
        last = MainWindow.open(ChatController(services), LibraryReader(services.library), state)
        last.show()
        last.inspector.show()
        qtbot.waitUntil(last.inspector.isVisible)
        last.close()
    reader = LibraryReader(services.library)
    frame = MainWindow(reader, state, prices=services.prices)
    frame.show()
    qasync_loop.run_until_complete(frame.painted())
    assert frame.conversations.model.rowCount() == 1
    assert frame.inspector_slot.isVisible() == inspector
    qtbot.keyClicks(frame.edit, "typed while the rest loads")
    before = {
        "list": place(frame.conversations),
        "box": place(frame.edit),
        "heading": place(frame.heading),
        "chat": place(frame.chat_pane),
        "inspector": place(frame.inspector_slot),
        "window": frame.geometry(),
    }
    edit = frame.edit

    controller = ChatController(services)
    qasync_loop.run_until_complete(frame.complete(controller))
    window = frame
    try:
        assert window.filled
        assert window.composer.edit is edit
        assert edit.toPlainText() == "typed while the rest loads"
        assert window.inspector.isVisible() == inspector
        after = {
            "list": place(window.conversations),
            "box": place(window.composer.edit),
            "heading": place(window.heading),
            "chat": place(window.chat_pane),
            "inspector": place(window.inspector) if inspector else before["inspector"],
            "window": window.geometry(),
        }
        assert after == before
        qtbot.keyClick(edit, Qt.Key.Key_Return)  # the filled window sends what was typed
        qtbot.waitUntil(lambda: window.current is not None)
    finally:
        window.close()
        qasync_loop.run_until_complete(controller.shutdown())
        reader.close()


def test_the_frame_names_the_conversation_the_window_will_show(
    qtbot: Any, services: Services, qasync_loop: Any
) -> None:
    conversation_id = seed(services.library, "earlier", "an earlier question", "an answer")
    state = WindowState(services.data)
    state.save(QByteArray(), QByteArray(), conversation_id)  # as the last session left it
    reader = LibraryReader(services.library)
    frame = MainWindow(reader, state, prices=services.prices, shown=(conversation_id, "earlier"))
    frame.show()
    qasync_loop.run_until_complete(frame.painted())
    assert frame.heading.text() == "earlier"
    assert frame.conversations.view.currentIndex().data(ID_ROLE) == conversation_id
    controller = ChatController(services)
    qasync_loop.run_until_complete(frame.complete(controller))
    try:
        qtbot.waitUntil(lambda: frame.current == conversation_id)
        assert frame.heading.text() == "earlier"
        assert frame.conversations.view.currentIndex().data(ID_ROLE) == conversation_id
    finally:
        frame.close()
        qasync_loop.run_until_complete(controller.shutdown())
        reader.close()


def test_an_enter_pressed_before_the_window_is_filled_sends_once_it_is(
    qtbot: Any, data_dir: Any, qasync_loop: Any
) -> None:
    # a reply for the turn the held Enter starts, and one for its title
    provider = GatedProvider(scripts=[reply("ok"), reply("A title")])
    services = services_for(data_dir, Models.of(provider))
    reader = LibraryReader(services.library)
    frame = MainWindow(reader, WindowState(services.data), prices=services.prices)
    frame.show()
    qasync_loop.run_until_complete(frame.painted())
    qtbot.keyClicks(frame.edit, "sent before the rest was there")
    qtbot.keyClick(frame.edit, Qt.Key.Key_Return)  # nothing can send yet: kept
    controller = ChatController(services)
    qasync_loop.run_until_complete(frame.complete(controller))
    try:
        assert frame.current is not None  # sent at once when the window was filled
        conversation_id = frame.current

        def inputs() -> list[str]:
            history = controller.conversation(conversation_id).history
            return [e.text for e in history if e.kind == "model_input"]

        async def answered() -> None:
            while not inputs() or controller.is_streaming(conversation_id):
                await asyncio.sleep(0.01)

        qasync_loop.run_until_complete(asyncio.wait_for(answered(), 10))
        assert inputs() == ["sent before the rest was there"]
        assert frame.composer.edit.toPlainText() == ""
    finally:
        frame.close()
        qasync_loop.run_until_complete(controller.shutdown())
        reader.close()
