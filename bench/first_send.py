"""The window's longest stall during the first send to a cloud provider (target: under 16 ms).

A benchmark, not a test: it prints figures and always exits 0.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/first_send.py [openai|anthropic|gemini]
    CROSSTALK_STALL_STACKS=1 ...     # and the threads' stacks in each stall over 16 ms

The first send to a provider imports its SDK (1-2 s of Python). The real window (offscreen)
sends one message to an OpenAI-compatible server on 127.0.0.1 (or Anthropic's or Gemini's
wire protocol, each spoken by the test suite's scripted server), while a 5 ms timer on the
window's thread records the longest gap between its ticks: that gap is how long the window
could not paint or take input. "before" resolves the provider on the window's thread, as
Crosstalk did; "now" is the window's own send. Each runs in a fresh process, so the SDK is not
imported yet.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# where a thread that waits for work sits: left out of the stacks printed
IDLE = frozenset({"wait", "acquire", "get", "select", "poll", "_worker"})
PROVIDERS = {
    "openai": ("openai-compatible", "/v1"),
    "anthropic": ("anthropic", ""),
    "gemini": ("gemini", ""),
}


def measure(kind: str, mode: str) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import qasync
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app import composition
    from app.paths import DataDir
    from tests.helpers import anthropic_events as ae
    from tests.helpers import gemini_events as ge
    from tests.helpers import openai_events as oe
    from tests.helpers.wire_server import Reply, WireServer
    from ui.chat.controller import ChatController
    from ui.conversations.reader import LibraryReader
    from ui.shell.main_window import MainWindow
    from ui.shell.window_state import WindowState

    wire_kind, suffix = PROVIDERS[kind]
    server = WireServer()
    for _ in range(3):  # the reply, its title, the second reply
        if kind == "openai":
            server.enqueue(Reply(chunks=oe.chat_reply("Hello there.")))
        elif kind == "anthropic":
            server.enqueue(Reply(chunks=ae.reply(ae.text(0, "Hello there."))))
        else:
            server.enqueue(Reply(chunks=[ge.chunk(ge.text("Hello there."), finish="STOP")]))
    home = Path(tempfile.mkdtemp(prefix="crosstalk-first-send-"))
    data = DataDir(home)
    data.ensure()
    data.settings_file.write_text(
        f'title_model = "fake:m"\n[providers.fake]\nkind = "{wire_kind}"\n'
        f'base_url = "{server.url}{suffix}"\nmodels = ["m"]\n'
    )
    os.environ.update(OPENAI_API_KEY="sk-bench", ANTHROPIC_API_KEY="sk-ant-bench",
                      GEMINI_API_KEY="bench")  # fmt: skip
    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    services = composition.build(data, environ=os.environ)
    controller = ChatController(services)
    reader = LibraryReader(services.library)
    window = MainWindow.open(controller, reader, WindowState(data))
    window.show()
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    # a watchdog thread samples the window thread's stack while it is stalled
    import threading
    import traceback

    main_id = threading.get_ident()
    stalls: list[tuple[float, str]] = []

    watching = threading.Event()  # set while the heartbeat runs

    def watch() -> None:
        while True:
            time.sleep(0.004)
            age = time.perf_counter() - last[0]
            if watching.is_set() and age > 0.016:
                me = threading.get_ident()
                stack = "".join(
                    f"-- thread {'window' if ident == main_id else ident}:\n"
                    + "".join(traceback.format_stack(frame, limit=8))
                    for ident, frame in sys._current_frames().items()
                    if ident != me and (ident == main_id or frame.f_code.co_name not in IDLE)
                )
                stalls.append((age, stack))

    threading.Thread(target=watch, daemon=True).start()
    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(tick)

    async def run() -> None:
        if os.environ.get("CROSSTALK_BENCH_WARM_CHAT"):  # fonts and layout used once already
            from app.history import ModelInput, ModelOutput

            seeded = services.library.create()
            services.library.append(seeded, ModelInput(text="Hi"))
            services.library.append(seeded, ModelOutput(provider="p", model="m",
                                                        text="**Hello** `there`."))  # fmt: skip
            window.show_conversation(seeded.id)
        await asyncio.sleep(0.5)  # the window settles (first paint, list)
        last[0] = time.perf_counter()
        heartbeat.start()
        watching.set()
        await asyncio.sleep(0.1)
        gaps.clear()
        started = time.perf_counter()
        if mode == "before":
            services.models.resolve("fake:m")  # what the send did first, on this thread
        conversation = controller.new_conversation()
        task = controller.send(conversation.id, "Hi", "fake:m")
        await task
        took = time.perf_counter() - started
        print(f"{kind:10} {mode:7} longest stall {max(gaps) * 1000:7.1f} ms   "
              f"send to reply {took * 1000:7.1f} ms   "
              f"stalls over 16 ms: {sum(g > 0.016 for g in gaps)}")  # fmt: skip
        if stalls and os.environ.get("CROSSTALK_STALL_STACKS"):
            _print_stalls(stalls)
        gaps.clear()
        stalls.clear()
        started = time.perf_counter()
        await controller.send(conversation.id, "Again", "fake:m")
        took = time.perf_counter() - started
        watching.clear()
        heartbeat.stop()
        print(f"{kind:10} {'2nd send':7} longest stall {max(gaps) * 1000:7.1f} ms   "
              f"send to reply {took * 1000:7.1f} ms")  # fmt: skip
        if stalls and os.environ.get("CROSSTALK_STALL_STACKS"):
            _print_stalls(stalls)
        await controller.shutdown()

    with loop:
        loop.run_until_complete(run())
    reader.close()
    services.close()
    server.close()


def _print_stalls(stalls: list[tuple[float, str]]) -> None:
    """Each stall over 16 ms once, at its deepest sample: the threads' stacks then."""
    deepest: list[tuple[float, str]] = []
    for age, stack in stalls:  # samples of one stall have rising ages
        if deepest and age > deepest[-1][0]:
            deepest[-1] = (age, stack)
        else:
            deepest.append((age, stack))
    for age, stack in sorted(deepest, reverse=True)[:4]:
        print(f"  the threads, {age * 1000:.0f} ms into a stall of the window's:\n{stack}")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--measure":
        measure(sys.argv[2], sys.argv[3])
        return
    kinds = sys.argv[1:] or list(PROVIDERS)
    for kind in kinds:
        for mode in ("before", "now"):
            subprocess.run([sys.executable, __file__, "--measure", kind, mode], check=False)


if __name__ == "__main__":
    main()
