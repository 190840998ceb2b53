"""Screenshots of the real window to look at: first run, a chat in light and dark, the picker,
and attachments (an image and a PDF in the chat, files attached in the composer) in both.

    xvfb-run -a .venv/bin/python bench/screenshots.py /tmp/shots
    xvfb-run -a .venv/bin/python bench/screenshots.py /tmp/shots-ja ja     # in Japanese
    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/screenshots.py /tmp/shots

The window is the app's own (``composition.build`` over a throw-away data dir, the real
MainWindow, its menus and themes); conversations are written through the library. Nothing is
sent to a model. It prints each file it saved.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

CHAT = [
    ("How do I read a file line by line in Python?", """\
Open it with a `with` block and iterate over the file object: it yields one line at a time,
so even a large file is never read into memory at once.

```python
from pathlib import Path

def count_words(path: Path) -> int:
    total = 0
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            total += len(line.split())
    return total
```

> Each line keeps its trailing newline; use `line.rstrip("\\n")` if you need it gone.

| way | memory |
| --- | --- |
| `for line in file` | one line |
| `file.read()` | the whole file |
"""),
    ("And in Rust?", "Use `BufReader::lines()`:\n\n```rust\nfor line in reader.lines() {\n"
     "    println!(\"{}\", line?);\n}\n```"),
]  # fmt: skip


def main(out: Path, language: str) -> None:
    home = Path(tempfile.mkdtemp(prefix="crosstalk-shots-"))
    os.environ["CROSSTALK_HOME"] = str(home)
    import qasync
    from PySide6.QtWidgets import QApplication

    from app import composition
    from app.history import ModelInput, ModelOutput, Title, Usage
    from ui.chat.controller import ChatController
    from ui.conversations.reader import LibraryReader
    from ui.shell.main_window import MainWindow
    from ui.shell.window_state import WindowState

    app = QApplication(sys.argv[:1])
    from ui.common import i18n

    i18n.install(app, language)  # as ui/shell/app.py does (English: its plurals, "3 pages")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    services = composition.build(reconcile=False)
    out.mkdir(parents=True, exist_ok=True)

    def settle(seconds: float = 0.4) -> None:
        loop.run_until_complete(asyncio.sleep(seconds))

    def shot(widget: object, name: str) -> None:
        settle()
        path = out / f"{name}.png"
        widget.grab().save(str(path))  # type: ignore[attr-defined]
        print(path)

    opened: list[tuple[ChatController, LibraryReader]] = []

    def open_window() -> MainWindow:
        opened.append((ChatController(services), LibraryReader(services.library)))
        window = MainWindow.open(*opened[-1], WindowState(services.data))
        window.resize(1200, 780)
        window.show()
        return window

    window = open_window()
    shot(window, "first-run")
    window.close()

    conversation = services.library.create()
    for question, answer in CHAT:
        services.library.append(conversation, ModelInput(text=question))
        services.library.append(
            conversation,
            ModelOutput(provider="openai", model="gpt-4.1-mini", text=answer,
                        usage=Usage(input=812, output=164), meta={"latency_ms": 2140}),
        )  # fmt: skip
    services.library.append(conversation, Title(text="Reading files line by line", source="user"))
    pinned = services.library.create()
    services.library.append(pinned, ModelInput(text="Plan the week"))
    services.library.append(pinned, Title(text="Weekly plan", source="user"))
    services.library.pin(pinned.id, True)

    window = open_window()
    window.show_conversation(conversation.id)
    for mode in ("light", "dark"):
        window.set_theme(mode)
        shot(window, f"chat-{mode}")
    window.show_welcome()
    shot(window, "welcome-dark")
    window.show_conversation(conversation.id)
    picker = getattr(window.composer, "model_picker", None)
    popup = getattr(picker, "showPopup", None)
    if callable(popup):
        popup()
        settle()
        shown = [w for w in QApplication.topLevelWidgets() if w.isVisible() and w is not window]
        for n, widget in enumerate(shown):
            shot(widget, f"picker-dark-{n}")
    window.set_theme("system")
    window.close()

    window = open_window()
    attachments_scene(services, window, shot, loop)
    window.set_theme("system")
    window.close()

    window = open_window()
    mcp_scene(services, window, shot, loop)
    window.set_theme("system")
    window.close()
    for controller, reader in opened:
        loop.run_until_complete(controller.shutdown())
        reader.close()
    services.close()
    loop.close()  # and its thread pool (qasync's), as ui.shell.app.run's ``with loop`` does


REPORT_PAGES = (
    "Q3 report. Revenue grew 14 percent over the quarter, led by the north region.",
    "Costs. Shipping rose with fuel prices; staff costs were flat.",
    "Outlook. The fourth quarter is expected to be slower.",
)


def chart_png(width: int = 1200, height: int = 800) -> bytes:
    """A bar chart to attach: something a person would screenshot and ask about."""
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), (250, 250, 252))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 90), fill=(36, 41, 47))
    bars = [(310, (84, 160, 230)), (420, (84, 160, 230)), (380, (84, 160, 230)),
            (560, (240, 136, 62))]  # fmt: skip
    step = width // (len(bars) + 1)
    for n, (value, colour) in enumerate(bars, start=1):
        x = n * step
        draw.rectangle((x - 70, height - 60 - value, x + 70, height - 60), fill=colour)
    draw.line((60, height - 60, width - 60, height - 60), fill=(90, 90, 90), width=4)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def photo_png(width: int = 900, height: int = 1200) -> bytes:
    """A tall picture (a phone screenshot's shape), a soft gradient with a sun."""
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(height):
        shade = y / height
        draw.line((0, y, width, y), fill=(int(90 + 120 * shade), int(150 + 60 * shade), 220))
    draw.ellipse((width // 2 - 120, 260, width // 2 + 120, 500), fill=(255, 214, 102))
    draw.rectangle((0, height * 3 // 4, width, height), fill=(70, 130, 80))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def attachments_scene(services: Any, window: Any, shot: Any, loop: Any) -> None:
    """A question about a chart and a report (a thumbnail and a PDF chip in the chat), and
    the next message being written with a picture, a PDF and a text file attached.

    What asks for thumbnails runs inside the loop, as in the app (whose loop always runs):
    their jobs start on the loop's worker threads."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from app.attachments.files import attach_bytes
    from app.history import ModelInput, ModelOutput, Title, Usage
    from tests.helpers.attachment_files import pdf

    blobs = services.library.blobs
    chart = attach_bytes(blobs, chart_png(), "sales-by-quarter.png")
    report = attach_bytes(blobs, pdf(*REPORT_PAGES), "q3-report.pdf")
    conversation = services.library.create()
    services.library.append(
        conversation,
        ModelInput(text="What stands out in this chart? The report has the numbers.",
                   attachments=[chart, report]),
    )  # fmt: skip
    services.library.append(
        conversation,
        ModelOutput(provider="anthropic", model="claude-sonnet-4-5",
                    text="The fourth bar stands out: Q4 is the highest quarter, about **45%** "
                         "above Q1. The report puts it down to the north region; note that it "
                         "expects the next quarter to be slower.",
                    usage=Usage(input=2310, output=61), meta={"latency_ms": 3120}),
    )  # fmt: skip
    services.library.append(conversation, Title(text="Quarterly sales chart", source="user"))
    folder = Path(tempfile.mkdtemp(prefix="crosstalk-shots-files-"))
    files = {
        "beach.png": photo_png(),
        "meeting-notes.md": b"# Notes\n\n- ship the report\n- ask about Q4\n",
        "contract-draft.pdf": pdf("Draft", "Terms", "Signatures", "Annex", "Annex 2"),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    strip = window.composer.chips

    async def attach() -> None:
        window.show_conversation(conversation.id)
        strip.add_paths([str(folder / name) for name in files])
        while strip.adding():
            await asyncio.sleep(0.05)
        window.composer.set_draft("And how does this compare with last year?")

    async def look(mode: str) -> None:
        window.set_theme(mode)
        await asyncio.sleep(0.6)  # the thumbnails are made on worker threads

    loop.run_until_complete(attach())
    for mode in ("light", "dark"):
        loop.run_until_complete(look(mode))
        shot(window, f"attachments-{mode}")


MEETING = (
    "# Meeting 2026-11-26\n\n## Decisions\n- Ship 0.9 on Friday; the release notes are in the "
    "wiki.\n- Maria owns the migration guide.\n\n## Follow-ups\n- Check the Windows installer "
    "on a clean VM.\n"
)


def mcp_scene(services: Any, window: Any, shot: Any, loop: Any) -> None:
    """The approval card asking before a filesystem server writes a file, and Settings > Tools
    with the test suite's demo server tested (its tools listed), one that cannot start and one
    disabled."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from PySide6.QtWidgets import QApplication

    from app.approval import ApprovalRequest
    from app.history import ModelInput, Title
    from tests.helpers.mcp_servers import demo_stdio, write_config
    from ui.settings.dialog import SettingsDialog

    write_config(services.data, {
        "demo": demo_stdio(),
        "notes": {"command": "/opt/notes/bin/notes-mcp"},
        "remote": {"url": "https://mcp.example.com/mcp", "disabled": True},
    })  # fmt: skip
    conversation = services.library.create()
    services.library.append(
        conversation,
        ModelInput(text="Save a summary of today's meeting to my notes, as meeting-2026-11-26.md."),
    )
    services.library.append(conversation, Title(text="Meeting notes", source="user"))
    window.show_conversation(conversation.id)
    request = ApprovalRequest(
        conversation_id=conversation.id, call_id="call_1", wire_name="mcp__fs__write_file",
        server="fs", tool="write_file", title="write_file",
        description="Create a new file or completely overwrite an existing file with new content.",
        transport="stdio", arguments={"path": "/home/me/notes/meeting-2026-11-26.md",
                                      "content": MEETING},
        arguments_text="", read_only=False,
    )  # fmt: skip
    window.approval_card.show_request(conversation.id, request)
    window.composer.set_streaming(True)
    for mode in ("light", "dark"):
        window.set_theme(mode)
        shot(window, f"mcp-approval-{mode}")
    window.approval_card.hide()
    window.composer.set_streaming(False)
    window.open_settings()
    (dialog,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, SettingsDialog)]
    page = dialog.mcp_page
    assert page is not None
    dialog.tabs.setCurrentWidget(dialog.tabs.widget(2))  # Tools
    page.select("demo")
    page.test()

    async def tested() -> None:
        while page.testing is not None:
            await asyncio.sleep(0.05)

    loop.run_until_complete(asyncio.wait_for(tested(), 60))
    for mode in ("light", "dark"):
        window.set_theme(mode)
        shot(dialog, f"mcp-settings-{mode}")
    dialog.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots"),
         sys.argv[2] if len(sys.argv) > 2 else "en")  # fmt: skip
