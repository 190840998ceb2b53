"""Math in the chat: a reply with 50 formulas streamed into the real chat view, and pictures.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/math_typeset.py            # the figures
    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/math_typeset.py --rate 400  # a slower model
    xvfb-run -a .venv/bin/python bench/math_typeset.py --shots /tmp/shots        # screenshots

The reply (inline and display formulas mixed, 50 in all) streams at ``--rate`` characters a
second into a ``ChatView`` (offscreen), then is saved as a model's reply is. Printed: the time
from the end of the stream (the saved reply handed to the view) until every formula is drawn
as its picture and painted; the longest stall of the window's thread meanwhile and during the
stream (how late a precise 5 ms timer fired: ``bench.ui_stream.LagMeter``, as
``bench/session.py`` measures); the pictures' cache after 500 formulas; and how long a formula
nested too deeply takes to refuse, and the deepest let through to typeset.
Targets: painted within 100 ms of the end, no stall over 16 ms.

``--shots DIR`` writes ``math-light.png`` and ``math-dark.png``: the real window with a chat
of formulas (inline, display, a matrix, an aligned derivation) and an SVG chart.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from ui.shell.pyside_feature import stop_source_scans

stop_source_scans()

from PySide6.QtCore import QEvent, QObject, QUrl  # noqa: E402
from PySide6.QtGui import QImage, QTextDocument  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

INLINE = [
    r"$x^2 + y^2 = r^2$", r"$E = mc^2$", r"$\alpha + \beta = \gamma$", r"$f'(x) = 2x$",
    r"$\sqrt{2} \approx 1.414$", r"$a_n = a_{n-1} + a_{n-2}$", r"$\pi r^2$",
    r"$\sin^2\theta + \cos^2\theta = 1$", r"$\frac{1}{2}$", r"$e^{i\pi} + 1 = 0$",
]  # fmt: skip
DISPLAY = [
    r"$$\int_0^1 x^{N}\,dx = \frac{1}{N+1}$$",
    r"$$\sum_{k=1}^{N} k = \frac{N(N+1)}{2}$$",
    "\\[\n\\begin{pmatrix} N & 0 \\\\ 0 & 1 \\end{pmatrix}\n\\]",
]
SVG_CHART = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="360" height="160" viewBox="0 0 360 160">'
    '<rect width="360" height="160" fill="#f6f8fa" stroke="#d0d7de"/>'
    '<rect x="30" y="90" width="50" height="50" fill="#4c8dd6"/>'
    '<rect x="110" y="60" width="50" height="80" fill="#4c8dd6"/>'
    '<rect x="190" y="30" width="50" height="110" fill="#4c8dd6"/>'
    '<rect x="270" y="45" width="50" height="95" fill="#e36f4c"/>'
    '<text x="30" y="20" font-size="13" fill="#57606a">Revenue by quarter</text></svg>'
)


def reply(formulas: int = 50, salt: str = "") -> str:
    """A reply with ``formulas`` formulas, about one display formula for two inline ones."""
    parts, n = [], 0
    while n < formulas:
        k = n // 3
        inline = INLINE[k % len(INLINE)].replace("2", str(k + 2)) + salt
        second = INLINE[(k + 3) % len(INLINE)]
        parts.append(f"Step {k}: consider {inline} and also {second}, which holds here.")
        n += 2
        if n < formulas:
            parts.append(DISPLAY[k % len(DISPLAY)].replace("N", f"n_{{{k}}}{salt}"))
            n += 1
    return "\n\n".join(parts) + "\n"


class PaintTimes(QObject):
    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.times: list[float] = []
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint:
            self.times.append(time.monotonic())
        return False


def drawn(view: object) -> bool:
    """Whether every formula in the view's document is its picture (no stand-in)."""
    from ui.chat.math_images import MATH_SCHEME

    browser = view.browser  # type: ignore[attr-defined]
    document = browser.document()
    names = []
    block = document.begin()
    while block.isValid():
        for part in block.textFormats():
            if part.format.isImageFormat():
                name = part.format.toImageFormat().name()
                if name.startswith(MATH_SCHEME):
                    names.append(name)
        block = block.next()
    kind = QTextDocument.ResourceType.ImageResource
    found = [document.resource(kind, QUrl(name)) for name in names]
    return bool(names) and all(isinstance(i, QImage) and i.width() > 1 for i in found)


def run(rate: float) -> None:
    from app.history import ModelInput, ModelOutput, Usage
    from app.paths import DataDir
    from app.store import Library
    from bench.ui_stream import LagMeter
    from ui.chat import math_images
    from ui.chat.view import ChatView

    app = QApplication.instance() or QApplication(sys.argv[:1])
    library = Library(DataDir(Path(tempfile.mkdtemp(prefix="crosstalk-math-")) / "home"))
    view = ChatView()
    view.resize(900, 800)
    view.show()
    paints = PaintTimes(view.browser.viewport())
    lag = LagMeter()
    lag.start()

    def spin(until: float) -> None:
        while time.monotonic() < until:
            app.processEvents()
            time.sleep(0.001)

    for round_, salt in enumerate(("", r"\,")):  # the first pays ziamath's import
        conversation = library.create()
        library.append(conversation, ModelInput(text="warm up"))
        view.show_conversation(conversation)
        spin(time.monotonic() + 0.2)
        text = reply(50, salt)
        view.begin_stream()
        view.append_entry(library.append(conversation, ModelInput(text="derive it")))
        began = time.monotonic()
        chunk = 12
        for n in range(0, len(text), chunk):
            view.append_stream_text(text[n : n + chunk])
            spin(began + (n + chunk) / rate)
        streamed = time.monotonic()
        saved = library.append(
            conversation, ModelOutput(provider="bench", model="m", text=text, usage=Usage())
        )
        end = time.monotonic()
        view.append_entry(saved)
        view.end_stream()
        while not (drawn(view) and not view.still_drawing()):
            app.processEvents()
            time.sleep(0.0005)
            if time.monotonic() - end > 30:
                raise TimeoutError("the formulas were not drawn")
        ready = time.monotonic()
        view.browser.viewport().update()
        while not any(t > ready for t in paints.times):
            app.processEvents()
        painted = next(t for t in paints.times if t > ready)
        spin(painted + 0.05)
        during = max(lag.between(began, streamed), default=0.0)
        after = max(lag.between(end, painted + 0.05), default=0.0)
        print(
            f"round {round_ + 1}{' (ziamath imported in it)' if round_ == 0 else ''}: "
            f"{len(text)} characters streamed at {rate:.0f}/s; 50 formulas painted "
            f"{(painted - end) * 1000:.0f} ms after the end; longest stall after the end "
            f"{after:.1f} ms, during the stream {during:.1f} ms"
        )
    many = " ".join(f"$y_{{{n}}} = x^{{{n}}} + {n}$" for n in range(500))
    conversation = library.create()
    library.append(conversation, ModelInput(text="many"))
    library.append(conversation, ModelOutput(provider="b", model="m", text=many, usage=Usage()))
    started = time.monotonic()
    view.show_conversation(conversation)
    while view.still_drawing() or not drawn(view) or math_images.busy():
        app.processEvents()
        time.sleep(0.001)
    took = time.monotonic() - started
    print(
        f"500 formulas: drawn in {took:.2f} s; pictures kept "
        f"{math_images.cache_bytes() / 1e6:.2f} MB (bound {math_images.CACHE_BYTES / 1e6:.0f} MB)"
    )
    lag.stop()
    library.close()


CHAT = [
    (
        "What is the derivative of x squared, and why?",
        "For $f(x) = x^2$ the derivative is $f'(x) = 2x$: from the definition,\n\n"
        "$$f'(x) = \\lim_{h \\to 0} \\frac{(x+h)^2 - x^2}{h}"
        " = \\lim_{h \\to 0} (2x + h) = 2x.$$\n\n"
        "So at $x = 3$ the slope is $6$, and the tangent there is $y = 6x - 9$. "
        "It costs $5 to print this, not $10.\n",
    ),
    (
        "Solve the system and show the matrix.",
        "Write it as $A\\mathbf{x} = \\mathbf{b}$ with\n\n"
        "\\[\nA = \\begin{pmatrix} 2 & 1 \\\\ 1 & 3 \\end{pmatrix}, \\quad "
        "\\mathbf{b} = \\begin{pmatrix} 3 \\\\ 5 \\end{pmatrix}\n\\]\n\n"
        "Then, step by step:\n\n"
        "\\begin{align}\n\\det A &= 2 \\cdot 3 - 1 \\cdot 1 = 5 \\\\\n"
        "x_1 &= \\frac{3 \\cdot 3 - 1 \\cdot 5}{5} = \\frac{4}{5} \\\\\n"
        "x_2 &= \\frac{2 \\cdot 5 - 1 \\cdot 3}{5} = \\frac{7}{5}\n\\end{align}\n\n"
        "A broken one stays as written: $\\frac{a}$.\n",
    ),
    ("Draw the quarters as a chart.", f"Here it is:\n\n```svg\n{SVG_CHART}\n```\n"),
]


def shots(out: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="crosstalk-shots-"))
    os.environ["CROSSTALK_HOME"] = str(home)
    import asyncio

    import qasync

    from app import composition
    from app.history import ModelInput, ModelOutput, Title, Usage
    from ui.chat import math_images
    from ui.chat.controller import ChatController
    from ui.common import i18n
    from ui.conversations.reader import LibraryReader
    from ui.shell.main_window import MainWindow
    from ui.shell.window_state import WindowState

    app = QApplication(sys.argv[:1])
    i18n.install(app, i18n.SOURCE)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    services = composition.build(reconcile=False)
    out.mkdir(parents=True, exist_ok=True)
    conversation = services.library.create()
    for question, answer in CHAT:
        services.library.append(conversation, ModelInput(text=question))
        services.library.append(
            conversation,
            ModelOutput(
                provider="openai", model="gpt-4.1", text=answer, usage=Usage(input=90, output=160)
            ),
        )
    services.library.append(conversation, Title(text="Derivatives and matrices", source="user"))
    controller, reader = ChatController(services), LibraryReader(services.library)
    window = MainWindow.open(controller, reader, WindowState(services.data))
    window.resize(1100, 1000)
    window.show()
    loop.run_until_complete(asyncio.sleep(1.0))
    window.show_conversation(conversation.id)
    for mode in ("light", "dark"):
        window.set_theme(mode)
        for _ in range(100):
            loop.run_until_complete(asyncio.sleep(0.1))
            if not math_images.busy() and drawn(window.chat):
                break
        loop.run_until_complete(asyncio.sleep(0.5))
        window.chat.browser.verticalScrollBar().setValue(0)
        loop.run_until_complete(asyncio.sleep(0.3))
        for part, at in (("top", 0), ("end", None)):
            bar = window.chat.browser.verticalScrollBar()
            bar.setValue(bar.maximum() if at is None else at)
            loop.run_until_complete(asyncio.sleep(0.3))
            path = out / f"math-{mode}-{part}.png"
            window.grab().save(str(path))
            print(path)
    window.set_theme("system")
    window.close()
    loop.run_until_complete(controller.shutdown())
    reader.close()
    services.close()
    loop.close()


def limits() -> None:
    """How long refusing a formula nested too deeply takes, and typesetting the deepest let
    through (``ui.chat.math_limits``), on this thread."""
    import warnings

    from ui.chat import math_images
    from ui.chat.math_limits import MAX_NESTED, too_hard

    refused = {
        "\\frac 14 deep": "\\frac{1}{" * 14 + "x" + "}" * 14,
        "\\sqrt 12 deep": "\\sqrt{" * 12 + "x" + "}" * 12,
        "\\cfrac 10 deep": "\\cfrac{1}{2+" * 10 + "x" + "}" * 10,
    }
    for name, latex in refused.items():
        started = time.perf_counter()
        assert too_hard(latex)
        print(f"{name}: refused in {(time.perf_counter() - started) * 1000:.2f} ms")
    n = MAX_NESTED
    allowed = {
        f"\\frac {n} deep": "\\frac{1}{" * n + "x" + "}" * n,
        f"\\cfrac {n} deep": "\\cfrac{1}{2+" * n + "x" + "}" * n,
        f"\\left( {n} deep": "\\left(" * n + "x" + "\\right)" * n,
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        typesetter = math_images._typesetter()
    for name, latex in allowed.items():
        assert not too_hard(latex)
        started = time.perf_counter()
        typesetter.Latex(latex, size=18).svg()
        print(f"{name}: typeset in {(time.perf_counter() - started) * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=1500, help="characters streamed a second")
    parser.add_argument("--shots", type=Path, help="write screenshots to this folder instead")
    args = parser.parse_args()
    if args.shots:
        shots(args.shots)
    else:
        run(args.rate)
        limits()
    return 0


if __name__ == "__main__":
    sys.exit(main())
