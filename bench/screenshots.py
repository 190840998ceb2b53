"""Screenshots of the real window to look at: first run, a chat in light and dark, the picker.

    xvfb-run -a .venv/bin/python bench/screenshots.py /tmp/shots
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


def main(out: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="crosstalk-shots-"))
    os.environ["CROSSTALK_HOME"] = str(home)
    import qasync
    from PySide6.QtWidgets import QApplication

    from app import composition
    from app.history import ModelInput, ModelOutput, Title, Usage
    from ui.chat_controller import ChatController
    from ui.library_reader import LibraryReader
    from ui.main_window import MainWindow
    from ui.window_state import WindowState

    app = QApplication(sys.argv[:1])
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
        window = MainWindow(*opened[-1], WindowState(services.data))
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
    for controller, reader in opened:
        loop.run_until_complete(controller.shutdown())
        reader.close()
    services.close()
    loop.close()  # and its thread pool (qasync's), as ui.app.run's ``with loop`` does


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots"))
