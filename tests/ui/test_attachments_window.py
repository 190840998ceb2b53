"""Attaching files in the window: the button, paste, drop on the composer and on the chat, the
chips, a refused file, sending with an image, and what the chat shows and opens."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QImage,
    QTextDocument,
)
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QWidget

from app.composition import Services
from app.history import Attachment, ModelInput
from app.keys import Keys
from app.paths import DataDir
from app.providers import Models
from app.settings import Settings
from app.store import Library
from tests.helpers.attachment_files import pdf, png
from tests.helpers.ui_driver import DEFAULT, GatedProvider, Harness, OpenWindow, reply, top_level
from ui.chat.attachment_files import CHAT_BOX, THUMB_SCHEME, thumb_id
from ui.chat.attachment_view import ImageViewer

RED = (200, 40, 40)


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    """The scripted model marked as reading images, so an attached image reaches it."""
    settings = Settings(default_model=DEFAULT, title_model=DEFAULT, vision_models=["scripted:*"])
    return Services(data_dir, settings, Keys({}), Library(data_dir), Models.of(provider))


def write(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


def choose_in_dialog(monkeypatch: pytest.MonkeyPatch, paths: list[str]) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *args, **kw: (paths, ""))


def attached(harness: Harness, count: int) -> list[Attachment]:
    """Until ``count`` chips are attached and none is still being added."""
    chips = harness.window.composer.chips
    assert chips is not None

    def done() -> bool:
        return not chips.adding() and len(chips.attachments()) == count

    harness.until(done, f"{count} attachments")
    return harness.window.composer.attachments()


def chip_names(harness: Harness) -> list[str]:
    chips = harness.window.composer.chips
    assert chips is not None
    return [chip.name for chip in chips.chips()]


def files_mime(*paths: str) -> QMimeData:
    """What a file manager puts on the clipboard or in a drag: URLs, and the same as text."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(path) for path in paths])
    mime.setText("\n".join(QUrl.fromLocalFile(path).toString() for path in paths))
    return mime


def drop(target: QWidget, mime: QMimeData) -> None:
    """A drag that enters ``target``, moves over it and drops there, as the desktop sends it."""
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    copy = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(QPoint(20, 20), copy, mime, left, none)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(target, QDragMoveEvent(QPoint(22, 22), copy, mime, left, none))
    QApplication.sendEvent(target, QDropEvent(QPointF(22, 22), copy, mime, left, none))


# --- attaching ------------------------------------------------------------------------------


def test_the_button_attaches_several_files_as_chips(
    qtbot: Any, open_window: OpenWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = open_window()
    composer = harness.window.composer
    assert "Ctrl+Shift+A" in composer.attach_button.toolTip()
    photo = write(tmp_path, "photo.png", png(640, 480))
    paper = write(tmp_path, "paper.pdf", pdf("one", "two", "three"))
    notes = write(tmp_path, "notes.md", b"# Notes\n\nsome text\n")
    choose_in_dialog(monkeypatch, [photo, paper, notes])

    composer.attach_button.click()
    assert composer.chips is not None and composer.chips.isVisible()
    found = attached(harness, 3)

    assert [a.name for a in found] == ["photo.png", "paper.pdf", "notes.md"]
    assert [a.mime_type for a in found] == ["image/png", "application/pdf", "text/markdown"]
    assert all(harness.services.library.blobs.has(a.sha256) for a in found)
    chips = composer.chips.chips()
    assert "640\N{MULTIPLICATION SIGN}480" in chips[0].detail.text()
    assert "3 pages" in chips[1].detail.text()
    harness.until(lambda: chips[0].picture.pixmap().width() >= 36, "the chip's thumbnail")
    assert composer.draft() == ""


def test_the_shortcut_is_in_the_chat_menu(open_window: OpenWindow) -> None:
    window = open_window().window
    menus = [a.menu() for a in window.menuBar().actions() if isinstance(a.menu(), QMenu)]
    assert any(window.composer.attach_action in m.actions() for m in menus)


def test_pasting_an_image_attaches_a_png(qtbot: Any, open_window: OpenWindow) -> None:
    harness = open_window()
    composer = harness.window.composer
    image = QImage(120, 80, QImage.Format.Format_RGB32)
    image.fill(QColor(*RED))
    mime = QMimeData()
    mime.setImageData(image)
    QGuiApplication.clipboard().setMimeData(mime)
    composer.edit.setFocus()
    qtbot.keyClick(composer.edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)

    [found] = attached(harness, 1)
    assert found.name.startswith("pasted image ") and found.name.endswith(".png")
    assert (found.mime_type, found.width, found.height) == ("image/png", 120, 80)
    assert composer.draft() == ""


def test_an_image_another_application_copied_is_taken_as_its_png(
    qtbot: Any, open_window: OpenWindow
) -> None:
    harness = open_window()
    composer = harness.window.composer
    mime = QMimeData()
    mime.setData("image/png", png(90, 60, RED))  # what a screenshot tool offers
    QGuiApplication.clipboard().setMimeData(mime)
    composer.edit.setFocus()
    qtbot.keyClick(composer.edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)

    [found] = attached(harness, 1)
    assert harness.services.library.blobs.read(found.sha256) == png(90, 60, RED)  # as offered
    assert (found.width, found.height) == (90, 60)


def test_pasting_copied_files_attaches_them_and_text_stays_text(
    qtbot: Any, open_window: OpenWindow, tmp_path: Path
) -> None:
    harness = open_window()
    edit = harness.window.composer.edit
    first = write(tmp_path, "a.txt", b"first file\n")
    second = write(tmp_path, "b.png", png())
    QGuiApplication.clipboard().setMimeData(files_mime(first, second))
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)

    found = attached(harness, 2)
    assert [a.name for a in found] == ["a.txt", "b.png"]
    assert "file://" not in edit.toPlainText()  # the URLs' text is not pasted as well

    QGuiApplication.clipboard().setText("just words, file:///not/a/drop")
    qtbot.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert edit.toPlainText() == "just words, file:///not/a/drop"
    assert len(harness.window.composer.attachments()) == 2


def test_dropping_files_on_the_composer_and_on_the_chat_attaches_them(
    open_window: OpenWindow, tmp_path: Path
) -> None:
    harness = open_window()
    window = harness.window
    one = write(tmp_path, "one.png", png())
    two = write(tmp_path, "two.pdf", pdf("page"))

    drop(window.composer.edit.viewport(), files_mime(one))
    attached(harness, 1)
    drop(window.chat.browser.viewport(), files_mime(two))
    found = attached(harness, 2)

    assert [a.name for a in found] == ["one.png", "two.pdf"]
    assert window.composer.draft() == ""


def test_the_same_file_twice_is_one_chip(open_window: OpenWindow, tmp_path: Path) -> None:
    harness = open_window()
    path = write(tmp_path, "same.png", png())
    drop(harness.window.composer.edit.viewport(), files_mime(path, path))
    attached(harness, 1)
    assert chip_names(harness) == ["same.png"]


def test_chips_come_off_by_their_cross_and_by_delete(
    qtbot: Any, open_window: OpenWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = open_window()
    composer = harness.window.composer
    paths = [write(tmp_path, f"{n}.txt", f"file {n}\n".encode()) for n in range(3)]
    choose_in_dialog(monkeypatch, paths)
    composer.attach_button.click()
    attached(harness, 3)
    assert composer.chips is not None

    qtbot.mouseClick(composer.chips.chips()[1].remove_button, Qt.MouseButton.LeftButton)
    assert chip_names(harness) == ["0.txt", "2.txt"]
    first = composer.chips.chips()[0]
    qtbot.mouseClick(first, Qt.MouseButton.LeftButton)
    assert first.hasFocus()
    qtbot.keyClick(first, Qt.Key.Key_Delete)
    assert chip_names(harness) == ["2.txt"]
    last = composer.chips.chips()[0]
    assert last.hasFocus()  # the focus moves on to the next chip
    qtbot.keyClick(last, Qt.Key.Key_Backspace)
    assert chip_names(harness) == [] and not composer.chips.isVisible()


def test_a_refused_file_says_why_and_attaches_nothing(
    open_window: OpenWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = open_window()
    window = harness.window
    fake = write(tmp_path, "holiday.png", b"this is not a picture at all, only words\x00\x01")
    empty = write(tmp_path, "empty.txt", b"")
    good = write(tmp_path, "fine.txt", b"fine\n")
    choose_in_dialog(monkeypatch, [fake, empty, good])
    window.composer.attach_button.click()

    harness.until(lambda: window.banner.isVisible(), "the banner")
    said = window.banner.message.text()
    assert "holiday.png" in said and "not" in said
    assert "1 more file refused" in said  # the empty one
    assert "Traceback" not in said and "\n" not in said
    attached(harness, 1)
    assert chip_names(harness) == ["fine.txt"]


# --- sending --------------------------------------------------------------------------------


def test_an_image_is_sent_as_a_blob_and_the_chat_shows_its_thumbnail(
    qtbot: Any,
    open_window: OpenWindow,
    provider: GatedProvider,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    provider.scripts = [reply("A red square."), reply("Red square")]
    harness = open_window()
    window = harness.window
    choose_in_dialog(monkeypatch, [write(tmp_path, "square.png", png(400, 300, RED))])
    window.composer.attach_button.click()
    [chip] = attached(harness, 1)

    conversation_id = harness.send(qtbot, "What is this?")
    harness.finish(conversation_id)

    [saved] = harness.saved(conversation_id, ModelInput)
    [attachment] = saved.attachments
    assert attachment == chip
    assert attachment.sha256 and not attachment.data and not attachment.inline
    transcript = harness.services.data.root.rglob(f"{conversation_id}.jsonl")
    assert attachment.sha256 in next(iter(transcript)).read_text(encoding="utf-8")
    sent = [a for e in provider.requests[0].context.entries for a in getattr(e, "attachments", [])]
    assert [(a.name, a.mime_type) for a in sent] == [("square.png", "image/png")]
    assert window.composer.attachments() == [] and window.composer.draft() == ""

    url = QUrl(f"{THUMB_SCHEME}:{thumb_id(attachment, CHAT_BOX)}")
    assert url.toString() in window.chat.browser.toHtml()
    document = window.chat.browser.document()

    def thumbnail_red() -> bool:
        image = document.resource(QTextDocument.ResourceType.ImageResource, url)
        return isinstance(image, QImage) and image.pixelColor(200, 150) == QColor(*RED)

    harness.until(thumbnail_red, "the thumbnail in the chat")
    image = document.resource(QTextDocument.ResourceType.ImageResource, url)
    assert (image.width(), image.height()) == (400, 300)  # 200 x 150, drawn at twice the size


def test_a_message_of_only_files_can_be_sent(
    qtbot: Any,
    open_window: OpenWindow,
    provider: GatedProvider,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    provider.scripts = [reply("Read it."), reply("A file")]
    harness = open_window()
    window = harness.window
    choose_in_dialog(monkeypatch, [write(tmp_path, "data.csv", b"a,b\n1,2\n")])
    window.composer.attach_button.click()
    attached(harness, 1)
    window.composer.edit.setFocus()
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)
    assert window.current is not None
    harness.finish(window.current)
    [saved] = harness.saved(window.current, ModelInput)
    assert saved.text == "" and [a.name for a in saved.attachments] == ["data.csv"]


def test_a_refused_send_keeps_the_text_and_the_chips(
    qtbot: Any,
    open_window: OpenWindow,
    provider: GatedProvider,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = open_window()
    window = harness.window
    choose_in_dialog(monkeypatch, [write(tmp_path, "gone.png", png())])
    window.composer.attach_button.click()
    [attachment] = attached(harness, 1)
    harness.services.library.blobs.path(attachment.sha256).unlink()  # removed before the send

    harness.type_and_enter(qtbot, "Look at this")

    assert window.banner.isVisible()
    assert "gone.png" in window.banner.message.text()
    assert "attach it again" in window.banner.message.text()
    assert window.composer.draft() == "Look at this"
    assert window.composer.attachments() == [attachment]
    assert window.current is None  # nothing was written: not even a conversation
    assert provider.requests == []


def test_a_send_that_fails_before_its_input_is_saved_comes_back(
    qtbot: Any,
    open_window: OpenWindow,
    provider: GatedProvider,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Refused inside the turn (its own check), after the composer was emptied."""
    provider.scripts = [reply("Hello."), reply("Greeting")]
    harness = open_window()
    window = harness.window
    conversation_id = harness.send(qtbot, "Hello")
    harness.finish(conversation_id)
    missing = Attachment(name="lost.png", mime_type="image/png", sha256="0" * 64, size=10)
    refused: list[str] = []
    harness.controller.input_refused.connect(lambda cid, text, files: refused.append(text))

    harness.controller.send(conversation_id, "Again, with a file", DEFAULT, attachments=[missing])
    harness.finish(conversation_id)

    assert refused == ["Again, with a file"]
    assert window.composer.draft() == "Again, with a file"
    assert window.composer.attachments() == [missing]
    assert "lost.png" in window.banner.message.text()
    assert len(harness.saved(conversation_id, ModelInput)) == 1


def test_an_edited_message_keeps_its_files(
    qtbot: Any,
    open_window: OpenWindow,
    provider: GatedProvider,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    provider.scripts = [reply("A square."), reply("Square"), reply("Still a square.")]
    harness = open_window()
    window = harness.window
    choose_in_dialog(monkeypatch, [write(tmp_path, "square.png", png())])
    window.composer.attach_button.click()
    [picture] = attached(harness, 1)
    conversation_id = harness.send(qtbot, "What is it?")
    harness.finish(conversation_id)
    [first] = harness.saved(conversation_id, ModelInput)

    harness.controller.edit(conversation_id, first.seq, "What shape is it?", DEFAULT, None)
    harness.finish(conversation_id)

    edited = harness.saved(conversation_id, ModelInput)[-1]
    assert edited.text == "What shape is it?" and edited.attachments == [picture]


def test_each_conversation_keeps_its_own_unsent_files(
    qtbot: Any,
    open_window: OpenWindow,
    provider: GatedProvider,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    provider.scripts = [reply("One."), reply("First")]
    harness = open_window()
    window = harness.window
    first = harness.send(qtbot, "One")
    harness.finish(first)
    choose_in_dialog(monkeypatch, [write(tmp_path, "for-first.txt", b"first\n")])
    window.composer.attach_button.click()
    attached(harness, 1)

    window.new_chat()
    assert window.composer.attachments() == []
    window.show_conversation(first)
    assert chip_names(harness) == ["for-first.txt"]


# --- the chat -------------------------------------------------------------------------------


def seed_with_files(library: Library, inline: bool = False) -> tuple[str, list[Attachment]]:
    """A conversation whose input has an image and a PDF (stored, or inline as older
    transcripts have them)."""
    from app.attachments.files import attach_bytes

    image = attach_bytes(library.blobs, png(300, 200, RED), "chart.png")
    paper = attach_bytes(library.blobs, pdf("one", "two"), "paper.pdf")
    if inline:
        data = base64.b64encode(png(300, 200, RED)).decode()
        image = Attachment(name="chart.png", mime_type="image/png", data=data)
    conversation = library.create()
    library.append(conversation, ModelInput(text="Here they are", attachments=[image, paper]))
    return conversation.id, [image, paper]


@pytest.mark.parametrize("inline", [False, True], ids=["blob", "inline"])
def test_the_chat_shows_thumbnails_and_file_chips(
    open_window: OpenWindow, services: Services, inline: bool
) -> None:
    conversation_id, (image, _paper) = seed_with_files(services.library, inline)
    harness = open_window()
    window = harness.window
    window.show_conversation(conversation_id)

    shown = harness.chat_text()
    assert "paper.pdf" in shown and "2 pages" in shown
    url = QUrl(f"{THUMB_SCHEME}:{thumb_id(image, CHAT_BOX)}")
    document = window.chat.browser.document()

    def drawn() -> bool:
        found = document.resource(QTextDocument.ResourceType.ImageResource, url)
        return isinstance(found, QImage) and found.pixelColor(150, 100) == QColor(*RED)

    harness.until(drawn, "the thumbnail")


def test_clicking_opens_an_image_in_the_viewer_and_a_file_in_its_application(
    open_window: OpenWindow, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation_id, (_image, paper) = seed_with_files(services.library)
    opened: list[str] = []
    monkeypatch.setattr(
        QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True
    )
    harness = open_window()
    window = harness.window
    window.show_conversation(conversation_id)
    seq = harness.saved(conversation_id, ModelInput)[0].seq

    window.chat.browser.anchorClicked.emit(QUrl(f"attachment:{seq}:0"))
    harness.until(lambda: top_level(ImageViewer), "the image viewer")
    [viewer] = top_level(ImageViewer)
    harness.until(lambda: not viewer.image.isNull(), "the image to load")
    assert (viewer.image.width(), viewer.image.height()) == (300, 200)
    viewer.close()

    window.chat.browser.anchorClicked.emit(QUrl(f"attachment:{seq}:1"))
    harness.until(lambda: opened, "the file to open")
    assert Path(opened[0]).name == "paper.pdf"
    assert Path(opened[0]).read_bytes() == services.library.blobs.read(paper.sha256)


def test_save_as_writes_a_copy(
    open_window: OpenWindow, services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation_id, (_image, paper) = seed_with_files(services.library)
    target = tmp_path / "saved" / "copy.pdf"
    target.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    harness = open_window()
    window = harness.window
    window.show_conversation(conversation_id)
    seq = harness.saved(conversation_id, ModelInput)[0].seq

    window.chat._attachment_menu(f"attachment:{seq}:1", QPoint(10, 10))
    [menu] = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible()]
    [save] = [a for a in menu.actions() if a.text() == "Save As…"]
    save.trigger()
    harness.until(target.exists, "the copy")
    assert target.read_bytes() == services.library.blobs.read(paper.sha256)
