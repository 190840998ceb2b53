"""Typeset math and drawn SVG in the chat: the pictures, made off the window's thread and kept.

A formula is typeset by ziamath (LaTeX to SVG, with its own STIX math font) at the chat
font's pixel size, drawn by Qt's SVG renderer into a QImage at the screen's device pixel
ratio, in the text's colour; a fenced ``svg`` block (``ui.chat.svg_blocks``) is drawn the same
way. Both happen on one worker thread (``_Worker``), or on the pool thread that makes a
reply's markdown ahead of drawing it (``ui.chat.markdown.prerender``); the window's thread
only looks pictures up. ziamath is imported there too, never on the window's thread.

The markdown's HTML names a picture ``crosstalk-math:<key>`` (``crosstalk-svg:<key>``) with
its size, so the document lays it out before the picture exists: until it is made the
browser (``ui.chat.browser``) is given a transparent stand-in of that size, then the picture
replaces it (``MathPictures``: nothing moves). A formula's size and its place on the line
(``Placed``) are known once it has been typeset at that font size, whatever the colour: a
theme switch draws the same layout, only the pictures are made again. Only a formula never
typeset at that size, met by markdown made on the window's thread, is drawn at a guessed size
first; the document draws its entry again once it is typeset (``MathPictures.placed``).

An inline formula sits on the text's baseline: Qt puts an image with ``vertical-align:
bottom`` at the bottom of its line, and counts it as reaching ``height / 2 - middle`` below
the baseline, where ``middle`` is the font's ``height / 2 - descent`` (QTextDocumentLayout's
inline objects). The picture is padded so that this is exactly the formula's depth: then the
formula's baseline is the line's. Every inline formula is given at least the depth of a
subscript (``LEAST_DEPTH``), so that those sharing a line share its bottom too; a deeper one
(a fraction) lowers the others on its line by the difference.

Pictures are kept by bytes (``CACHE_BYTES``, least recently used first), sizes by count. A
formula too long or nested too deeply for the typesetter, or a picture too big, is refused
(``ui.chat.math_limits``). An svg picture is drawn on a light card (the light theme's Base
colour, as the HTML export draws it): drawings assume a white page.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
import time
import warnings
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from PySide6.QtCore import QByteArray, QObject, QRectF, QUrl, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QTextDocument
from PySide6.QtWidgets import QTextBrowser

from ui.chat import math_limits
from ui.common import theme

log = logging.getLogger(__name__)

MATH_SCHEME = "crosstalk-math"  # a formula's picture in the chat: crosstalk-math:<key>
SVG_SCHEME = "crosstalk-svg"  # an svg block's picture: crosstalk-svg:<key>
CACHE_BYTES = 32 * 1024 * 1024  # the pictures kept
SIZES_KEPT = 50_000  # formulas whose size is known (a few numbers each)
# ziamath's size for a chat font of one pixel: STIX's letters are smaller than a sans-serif
# font's at the same size (its x-height is lower); this brings them level
SCALE = 1.12
# the depth every inline formula is given at least, in ems (plus ziamath's margin of 1): that
# of a subscript, a parenthesis or a "y", so that formulas sharing a line share their baseline
# (Qt puts each at the bottom of the line, which the deepest one sets)
LEAST_DEPTH = 0.3
NOTIFY_S = 0.03  # the worker says what it made at least this often while busy


@dataclass(frozen=True)
class Style:
    """What a picture depends on besides its source: the chat font's pixel size, height and
    descent, the text's colour, the screen's device pixel ratio, and the widest a picture
    may be (the chat's width)."""

    px: float = 16.0
    height: float = 19.0
    descent: float = 4.0
    colour: str = ""  # the view's text colour (ziamath's own black until it is set)
    ratio: float = 1.0
    width: int = 640

    def sizes(self) -> tuple[float, float, float]:
        """What a formula's size depends on (not the colour, not the ratio)."""
        return (self.px, self.height, self.descent)


@dataclass(frozen=True)
class Placed:
    """A formula's picture: its size in logical pixels and where the formula's box starts in
    it (``top``, ``left``); ``ok`` False when it could not be typeset."""

    width: int = 0
    height: int = 0
    top: float = 0.0
    ok: bool = True


@dataclass(frozen=True)
class _Job:
    """What a picture is made from."""

    kind: str  # "math" or "svg"
    text: str  # the LaTeX, or the sanitised SVG
    display: bool
    style: Style
    width: int = 0  # an svg picture's size
    height: int = 0


_style = Style()
_lock = threading.Lock()
_sizes: OrderedDict[tuple[Any, ...], Placed] = OrderedDict()
_images: OrderedDict[str, QImage] = OrderedDict()
_image_bytes = 0
_jobs: OrderedDict[str, _Job] = OrderedDict()  # by key: what the document may ask for
_awaiting: set[str] = set()  # formulas drawn at a guessed size on the window's thread


def set_style(style: Style) -> bool:
    """The chat's font, colour, ratio and width (the view's); True if they changed."""
    global _style
    changed, _style = style != _style, style
    return changed


def style() -> Style:
    return _style


def cache_bytes() -> int:
    """The bytes of the pictures kept."""
    with _lock:
        return _image_bytes


def formula_html(latex: str, display: bool, source: str, env: dict[str, Any]) -> str:
    """The HTML of a formula: its picture (sized, on the baseline), or its source as code if
    it cannot be typeset. On a worker thread it is typeset now; on the window's thread, a
    formula never typeset at this size is drawn at a guessed size (``env["math_pending"]``
    is set: the render is not to be kept) and typeset on the worker."""
    style = _style
    if math_limits.too_hard(latex):
        return _source_html(source, display)
    job = _Job("math", latex, display, style)
    key = _key(job)
    with _lock:
        placed = _sizes.get(_size_key(job))
        _remember(key, job)
    if placed is None and not _on_window_thread():
        placed, _ = _make(key, job)
    if placed is None:
        env["math_pending"] = True
        with _lock:
            _awaiting.add(key)
        worker().want([key])
        guess = Placed(max(8, round(len(latex) * style.px * 0.45)), math.ceil(style.height))
        return _img(MATH_SCHEME, key, guess, display)
    if not placed.ok:
        return _source_html(source, display)
    return _img(MATH_SCHEME, key, placed, display)


def _source_html(source: str, display: bool) -> str:
    code = f"<code>{escape(source)}</code>"
    return f'<p align="center">{code}</p>' if display else code


def picture_html(svg: str, width: float, height: float) -> str | None:
    """The HTML of a sanitised SVG's picture, at most the chat's width (``Style.width``), and
    smaller if it would be too big (``math_limits``); None if it would be too small then."""
    style = _style
    scale = min(1.0, style.width / width) if width > 0 else 1.0
    bounded = math_limits.fitted(width * scale, height * scale, style.ratio)
    if bounded < math_limits.LEAST_SCALE:
        return None
    scale *= bounded
    w, h = max(1, math.floor(width * scale)), max(1, math.floor(height * scale))
    card = theme.load("light").palette["Base"]
    job = _Job("svg", svg, True, replace(style, colour=card, px=0, height=0, descent=0), w, h)
    key = _key(job)
    with _lock:
        _remember(key, job)
        made = key in _images
    if not made and not _on_window_thread():
        _make(key, job)
    return f'<img src="{SVG_SCHEME}:{key}" width="{w}" height="{h}" />'


def _img(scheme: str, key: str, placed: Placed, display: bool) -> str:
    size = f'width="{placed.width}" height="{placed.height}"'
    if display:
        return f'<p align="center"><img src="{scheme}:{key}" {size} /></p>'
    return f'<img src="{scheme}:{key}" {size} style="vertical-align: bottom" />'


def _on_window_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _key(job: _Job) -> str:
    s = job.style
    said = f"{job.kind}\0{job.text}\0{job.display}\0{s.px}\0{s.height}\0{s.descent}\0"
    said += f"{s.colour}\0{s.ratio}\0{job.width}\0{job.height}"
    # a lone surrogate (a model's broken text) is hashed as it is
    return hashlib.blake2b(said.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _size_key(job: _Job) -> tuple[Any, ...]:
    return (job.text, job.display, *job.style.sizes())


def _remember(key: str, job: _Job) -> None:
    """Keep what ``key`` is made from (the lock held)."""
    _jobs[key] = job
    _jobs.move_to_end(key)
    while len(_jobs) > SIZES_KEPT:
        _jobs.popitem(last=False)


# --- making pictures (never on the window's thread) ------------------------------------------


def _make(key: str, job: _Job) -> tuple[Placed, QImage | None]:
    """Make ``key``'s picture and keep it (and a formula's size); its size and picture."""
    if job.kind == "svg":
        image = _draw_svg(job)
        placed = Placed(job.width, job.height)
    else:
        placed, image = _typeset(job)
        with _lock:
            _sizes[_size_key(job)] = placed
            while len(_sizes) > SIZES_KEPT:
                _sizes.popitem(last=False)
    if image is not None:
        _keep(key, image)
    return placed, image


def _keep(key: str, image: QImage) -> None:
    global _image_bytes
    with _lock:
        old = _images.pop(key, None)
        if old is not None:
            _image_bytes -= old.sizeInBytes()
        _images[key] = image
        _image_bytes += image.sizeInBytes()
        while _image_bytes > CACHE_BYTES and len(_images) > 1:
            _, dropped = _images.popitem(last=False)
            _image_bytes -= dropped.sizeInBytes()


_ziamath: Any = None


def _typesetter() -> Any:
    """ziamath, imported on first use (on a worker thread: it takes a while)."""
    global _ziamath
    if _ziamath is None:
        with warnings.catch_warnings():  # ziamath 0.13 reads its font with a deprecated call
            warnings.simplefilter("ignore", DeprecationWarning)
            import ziamath

        _ziamath = ziamath
        _ziamath.config.svg2 = False  # plain paths: Qt's renderer draws SVG 1.1
    return _ziamath


def _typeset(job: _Job) -> tuple[Placed, QImage | None]:
    from PySide6.QtSvg import QSvgRenderer

    style = job.style
    if math_limits.too_hard(job.text):
        return Placed(ok=False), None
    try:
        formula = _typesetter().Latex(
            job.text, size=style.px * SCALE, inline=not job.display, color=style.colour or None
        )
        svg = formula.svg()
    except Exception:  # ziamath's errors are of many kinds; the source is shown instead
        log.info("could not typeset %r", job.text, exc_info=True)
        return Placed(ok=False), None
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8", "replace")))
    box = renderer.viewBoxF()
    if not renderer.isValid() or box.isEmpty():
        return Placed(ok=False), None
    ascent, depth = -box.y(), box.height() + box.y()
    width, height = box.width(), box.height()
    if job.display:
        bound = math_limits.fitted(width, height, style.ratio)
        if bound < 1:  # too big: drawn to the chat's width if not too small, else its source
            scale = min(bound, style.width / width)
            if scale < math_limits.LEAST_SCALE:
                return Placed(ok=False), None
            width, height = width * scale, height * scale
        placed = Placed(math.ceil(width), math.ceil(height), 0.0)
        return placed, _draw(renderer, placed, width, height, style.ratio)
    else:  # padded so that Qt's bottom alignment puts its baseline on the text's
        middle = style.height / 2 - style.descent
        least = LEAST_DEPTH * style.px * SCALE + 1
        below = max(depth, style.descent, least, ascent - 2 * middle)
        height = math.ceil(2 * (below + middle) - 1e-6)
        below = height / 2 - middle
        placed = Placed(math.ceil(box.width()), height, height - below - ascent)
    if math_limits.fitted(placed.width, placed.height, style.ratio) < 1:
        return Placed(ok=False), None  # too big for a line
    return placed, _draw(renderer, placed, box.width(), box.height(), style.ratio)


def _draw(
    renderer: Any, placed: Placed, width: float, height: float, ratio: float, card: str = ""
) -> QImage:
    image = QImage(
        max(1, math.ceil(placed.width * ratio)),
        max(1, math.ceil(placed.height * ratio)),
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    image.setDevicePixelRatio(ratio)
    if card:
        image.fill(QColor(card))
    else:
        image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, placed.top, width, height))
    painter.end()
    return image


def _draw_svg(job: _Job) -> QImage | None:
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(QByteArray(job.text.encode("utf-8", "replace")))
    if not renderer.isValid():
        return None
    placed = Placed(job.width, job.height)
    return _draw(renderer, placed, job.width, job.height, job.style.ratio, job.style.colour)


# --- the worker -------------------------------------------------------------------------------


class _Notifier(QObject):
    # the pictures made (or made before, or that cannot be): a list of (key, QImage or None);
    # the picture goes with its key, as the cache may have dropped it by the time it arrives
    made = Signal(object)


class _Worker:
    """One thread making pictures asked for, in order, and typesetting the formulas of a reply
    as it streams (``streamed``): by its end they are ready."""

    def __init__(self) -> None:
        self.notifier = _Notifier()  # made on the window's thread (see ``worker``)
        self.scan: Callable[[str], list[tuple[str, bool]]] | None = None  # the formulas in text
        self._wanted: deque[str] = deque()
        self._queued: set[str] = set()
        self._stream: list[str] = []
        self._scanned = 0  # how many parts of the stream were scanned
        self._text = ""  # those parts
        self._from = 0  # where in it the next scan starts: what is before is scanned whole
        self._changed = threading.Condition()
        self.idle = threading.Event()
        self.idle.set()
        threading.Thread(target=self._run, name="crosstalk-math", daemon=True).start()

    def want(self, keys: list[str]) -> None:
        with self._changed:
            for key in keys:
                if key not in self._queued:
                    self._queued.add(key)
                    self._wanted.append(key)
            self.idle.clear()
            self._changed.notify()

    def streamed(self, text: str) -> None:
        """More of a reply's text; formulas complete in it are typeset (window's thread: cheap)."""
        with self._changed:
            self._stream.append(text)
            if self.scan is not None and any(c in text for c in "$)]}"):
                self.idle.clear()
                self._changed.notify()

    def stream_ended(self) -> None:
        with self._changed:
            self._stream = []
            self._scanned = 0
            self._text, self._from = "", 0

    def _scan_due(self) -> bool:
        return self.scan is not None and self._scanned < len(self._stream)

    def _run(self) -> None:
        made: list[tuple[str, QImage | None]] = []
        told = time.monotonic()
        while True:
            key = text = None
            with self._changed:
                while not made and not self._wanted and not self._scan_due():
                    self.idle.set()
                    self._changed.wait()
                if self._wanted:
                    key = self._wanted.popleft()
                    self._queued.discard(key)
                elif self._scan_due():
                    text = self._tail()
            try:
                if key is not None:
                    made.append((key, self._make_wanted(key)))
                elif text is not None:
                    self._typeset_streamed(text)
            except Exception:
                log.warning("making a picture failed", exc_info=True)
            if made and (not self._wanted or time.monotonic() - told > NOTIFY_S):
                self.notifier.made.emit(made)
                made, told = [], time.monotonic()

    def _tail(self) -> str:
        """The stream's text not scanned whole yet (the lock held): from the last blank line
        outside a code fence before this scan, as no formula holds a blank line. A long reply
        is not parsed whole again for each piece of it."""
        self._text += "".join(self._stream[self._scanned :])
        self._scanned = len(self._stream)
        text = self._text[self._from :]
        cut = text.rfind("\n\n")
        if cut > 0 and len(_FENCE.findall(text, 0, cut)) % 2 == 0:
            self._from += cut + 2
        return text

    @staticmethod
    def _make_wanted(key: str) -> QImage | None:
        """``key``'s picture, made now unless it was made before; None if it cannot be
        (either way it is reported: whoever waits for it stops waiting)."""
        with _lock:
            job = _jobs.get(key)
            image = _images.get(key)
            placed = _sizes.get(_size_key(job)) if job is not None else None
            if job is None or image is not None or (placed is not None and not placed.ok):
                return image
        _, image = _make(key, job)
        time.sleep(0.0005)  # the window's thread takes the interpreter meanwhile
        return image

    def _typeset_streamed(self, text: str) -> None:
        scan = self.scan
        if scan is None:
            return
        keys = []
        for latex, display in scan(text):
            job = _Job("math", latex, display, _style)
            key = _key(job)
            with _lock:
                _remember(key, job)
                done = key in _images or _size_key(job) in _sizes
            if not done:
                keys.append(key)
        if keys:
            self.want(keys)


_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})", re.MULTILINE)  # a code fence's line
_worker: _Worker | None = None


def worker() -> _Worker:
    """The one worker, started on first use (first from the window's thread: its notifier
    lives there)."""
    global _worker
    if _worker is None:
        _worker = _Worker()
    return _worker


def settle(timeout: float) -> bool:
    """Wait (on a worker thread) until what the worker was asked is made; False on timeout."""
    return _worker is None or _worker.idle.wait(timeout)


def busy() -> bool:
    return _worker is not None and not _worker.idle.is_set()


# --- the window's side ------------------------------------------------------------------------


class MathPictures(QObject):
    """The pictures of one chat's document: looked up when the document asks, given a
    stand-in until made, put in place when made."""

    placed = Signal(object)  # formulas drawn at a guessed size now typeset (a set of keys)

    def __init__(self, browser: QTextBrowser) -> None:
        super().__init__(browser)
        self._browser = browser
        self._asked: set[str] = set()  # keys the document was given a stand-in for
        worker().notifier.made.connect(self._on_made)

    def image(self, url: QUrl) -> QImage | None:
        """The picture ``url`` names, or a transparent stand-in until it is made."""
        key = url.path()
        with _lock:
            image = _images.get(key)
            if image is not None:
                _images.move_to_end(key)
                return image
            known = key in _jobs
        if not known:
            return None
        self._asked.add(key)
        worker().want([key])
        stand_in = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
        stand_in.fill(0)
        return stand_in

    def forget(self) -> None:
        self._asked.clear()

    def _on_made(self, made: list[tuple[str, QImage | None]]) -> None:
        document = self._browser.document()
        kind = QTextDocument.ResourceType.ImageResource
        shown = False
        keys = [key for key, _ in made]
        for key, image in made:
            if key in self._asked:
                with _lock:
                    scheme = MATH_SCHEME if _jobs.get(key, _SVG_JOB).kind == "math" else SVG_SCHEME
                if image is not None:
                    document.addResource(kind, QUrl(f"{scheme}:{key}"), image)
                    shown = True
                self._asked.discard(key)
        if shown:
            self._browser.viewport().update()
        with _lock:
            typeset = _awaiting.intersection(keys)
            _awaiting.difference_update(typeset)
        if typeset:
            self.placed.emit(typeset)


_SVG_JOB = _Job("svg", "", True, Style())
