"""Attachments benchmark: attach-and-send of a 10 MB image, and opening a conversation with
200 images (100 MB of them).

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/attachments.py [--images 200]

1. A 10 MB photo (noise saved as PNG: it does not compress) is attached with ``attach_path``
   (read, checked with Pillow, stored by hash) and sent with ``TurnRunner.run`` through the real SDK
   to each wire protocol's scripted server on 127.0.0.1 (``tests/helpers/wire_server.py``).
   "to request start" is from the attach to the moment the server has the whole request;
   the image is downscaled to each provider's limits on the way (``app/attachments``).
2. A conversation of N inputs with one distinct ~0.5 MB image each is written, then opened
   by a fresh ``Library`` as the window opens one: the transcript read, the active path, the
   context the next request would count. No attachment is decoded for that (the targets:
   open-chat under 100 ms); then the first request to Anthropic is built (which reads and
   scales every image on the path, once).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import composition  # noqa: E402
from app.attachments.files import attach_bytes, attach_path, size_text  # noqa: E402
from app.context.tokens import load_encoding  # noqa: E402
from app.history import ModelInput, ModelOutput, render_context  # noqa: E402
from app.paths import DataDir  # noqa: E402
from app.store import Library  # noqa: E402
from tests.helpers import anthropic_events as ae  # noqa: E402
from tests.helpers import gemini_events as ge  # noqa: E402
from tests.helpers import openai_events as oe  # noqa: E402
from tests.helpers.attachment_files import noisy_png  # noqa: E402
from tests.helpers.wire_server import Reply, WireServer  # noqa: E402

KINDS = {"openai": "/v1", "anthropic": "", "gemini": ""}


def reply_for(kind: str) -> Reply:
    if kind == "openai":
        return Reply(chunks=oe.chat_reply("A red square."))
    if kind == "anthropic":
        return Reply(chunks=ae.reply(ae.text(0, "A red square.")))
    return Reply(chunks=[ge.chunk(ge.text("A red square."), finish="STOP")])


def first_request_at(server: WireServer, stamp: list[float]) -> None:
    while not server.requests:
        time.sleep(0.0005)
    stamp.append(time.perf_counter())


def attach_and_send(photo: Path) -> None:
    print(f"attach and send a {size_text(photo.stat().st_size)} image")
    print(f"{'provider':10} {'attach':>9} {'to request start':>17} {'reply':>9}  sent as")
    for kind, suffix in KINDS.items():
        with WireServer() as server:
            server.enqueue(reply_for(kind))
            server.enqueue(reply_for(kind))  # the title
            home = Path(tempfile.mkdtemp(prefix="crosstalk-bench-attach-"))
            data = DataDir(home)
            data.ensure()
            data.settings_file.write_text(
                f'title_model = "fake:m"\n[providers.fake]\nkind = "{kind}"\n'
                f'base_url = "{server.url}{suffix}"\nmodels = ["m"]\n'
            )
            os.environ.update(OPENAI_API_KEY="sk-bench", ANTHROPIC_API_KEY="sk-ant-bench",
                              GEMINI_API_KEY="bench")  # fmt: skip
            services = composition.build(data, environ=os.environ)
            # the SDK import and the token vocabulary are loaded beforehand, as the window does
            services.models.resolve("fake:m")[0].prepare()
            asyncio.run(load_encoding())
            runner = services.runner
            stamp: list[float] = []
            watcher = threading.Thread(target=first_request_at, args=(server, stamp))
            watcher.start()
            started = time.perf_counter()
            attachment = attach_path(services.library.blobs, photo)
            attached = time.perf_counter()
            conversation = services.library.create()
            asyncio.run(runner.run(conversation, "fake:m", "What is it?", attachments=[attachment]))
            done = time.perf_counter()
            watcher.join()
            body = server.requests[0].body
            services.close()
            attach, start = (attached - started) * 1000, (stamp[0] - started) * 1000
            print(f"{kind:10} {attach:7.0f} ms {start:14.0f} ms {(done - started) * 1000:6.0f} ms"
                  f"  {size_text(len(body))} request")  # fmt: skip


def open_with_images(count: int) -> None:
    home = Path(tempfile.mkdtemp(prefix="crosstalk-bench-images-"))
    data = DataDir(home)
    library = Library(data)
    conversation = library.create()
    total = 0
    for n in range(count):
        image = noisy_png(420 + n % 7, 400)  # distinct bytes, ~0.5 MB each
        total += len(image)
        attachment = attach_bytes(library.blobs, image, f"screenshot {n}.png")
        library.append(conversation, ModelInput(text=f"What is in picture {n}?",
                                                attachments=[attachment]))  # fmt: skip
        library.append(conversation, ModelOutput(provider="p", model="m", text=f"Picture {n}."))
    transcript = conversation.path.stat().st_size
    library.close()
    print(
        f"\nopen a conversation with {count} images ({size_text(total)} of images, "
        f"transcript {size_text(transcript)})"
    )
    started = time.perf_counter()
    fresh = Library(data, reconcile=False)
    opened = fresh.open(conversation.id)
    took_open = time.perf_counter() - started
    started = time.perf_counter()
    render_context(opened.history, None)
    took_context = time.perf_counter() - started
    print(f"  Library.open         {took_open * 1000:8.1f} ms   (target: open-chat under 100 ms)")
    print(f"  the path's context   {took_context * 1000:8.1f} ms")
    window_open(data, conversation.id)
    services = composition.build(data, environ={"ANTHROPIC_API_KEY": "x"})
    runner = services.runner
    provider, model = services.renderer("anthropic:claude-sonnet-4-6")
    for label in ("first request built", "next request built"):
        started = time.perf_counter()
        request = runner.request(opened, provider, model, [])
        took = time.perf_counter() - started
        print(f"  {label:20} {took * 1000:8.1f} ms   ({len(request.notes)} notes)")
    services.close()


def window_open(data: DataDir, conversation_id: str) -> None:
    """The real window (offscreen) opens the conversation: the time until it is shown, and the
    longest stall of the window's thread while the thumbnails are made (on worker threads)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import qasync
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.chat.controller import ChatController
    from ui.conversations.reader import LibraryReader
    from ui.shell.main_window import MainWindow
    from ui.shell.window_state import WindowState

    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    services = composition.build(data, environ={})
    controller = ChatController(services)
    reader = LibraryReader(services.library)
    window = MainWindow.open(controller, reader, WindowState(data))
    window.resize(1200, 800)
    window.show()
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(tick)

    async def run() -> None:
        await asyncio.sleep(0.5)  # first paint, the list
        started = time.perf_counter()
        window.show_conversation(conversation_id)
        shown = time.perf_counter() - started
        last[0] = time.perf_counter()
        gaps.clear()
        heartbeat.start()
        await asyncio.sleep(3.0)  # the thumbnails of what is on screen come in meanwhile
        heartbeat.stop()
        print(f"  window: shown in     {shown * 1000:8.1f} ms")
        print(f"  window: longest stall while thumbnails load {max(gaps) * 1000:.1f} ms")

    loop.run_until_complete(run())
    loop.run_until_complete(controller.shutdown())
    reader.close()
    window.close()
    services.close()
    loop.close()  # and its worker threads (qasync's), as ui.shell.app.run does
    asyncio.set_event_loop(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=200)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="crosstalk-bench-photo-"))
    photo = folder / "photo.png"
    photo.write_bytes(noisy_png(2100, 1700))  # ~10 MB
    attach_and_send(photo)
    open_with_images(args.images)


if __name__ == "__main__":
    main()
