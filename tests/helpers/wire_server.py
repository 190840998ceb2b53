"""A scripted HTTP/1.1 server on 127.0.0.1 that speaks provider wire formats to the real SDKs.

The SDKs ride on httpx2, which respx / pytest-httpx cannot intercept, so tests talk to this server
instead. Each request takes the next scripted `Reply`; streamed replies go out chunk by chunk
(`Transfer-Encoding: chunked`), can pause (`Delay`) and can drop the connection (`Disconnect`).
While a `Delay` runs the server watches the socket, so a test can prove a cancel closed the stream.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

_POLL = 0.02  # seconds between checks for a closed client while a Delay runs


@dataclass(frozen=True)
class Delay:
    seconds: float


@dataclass(frozen=True)
class Disconnect:
    """Drop the TCP connection mid-body (no terminating chunk): a broken stream."""


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | str | dict[str, Any] | list[Any] | None = None
    chunks: list[bytes | str | Delay | Disconnect] = field(default_factory=list)
    content_type: str | None = None


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes
    json: Any
    disconnected: bool = False  # the client closed the connection before the reply finished
    dropped: bool = False  # the server dropped it on purpose (a scripted Disconnect)
    finished: bool = False  # the whole reply was written
    connection: int = 0  # numbers the TCP connections in accept order: shows keep-alive reuse


def sse(data: dict[str, Any] | list[Any] | str, event: str | None = None) -> bytes:
    """One server-sent event: optional `event:` line, one `data: ` line, blank line."""
    payload = data if isinstance(data, str) else json.dumps(data)
    head = f"event: {event}\n" if event is not None else ""
    return f"{head}data: {payload}\n\n".encode()


def _encode(piece: bytes | str) -> bytes:
    return piece.encode() if isinstance(piece, str) else piece


class _Closed(Exception):
    """The client went away (or the server is stopping): stop writing this reply."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer
    _rec: Recorded
    _number: int

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._number = self.server.owner._track(self.connection)

    def finish(self) -> None:
        self.server.owner._untrack(self.connection)
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._serve()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    def _read_body(self) -> bytes:
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while size := int(self.rfile.readline().split(b";")[0], 16):
                parts.append(self.rfile.read(size))
                self.rfile.readline()
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass
            return b"".join(parts)
        return self.rfile.read(int(self.headers.get("content-length") or 0))

    def _serve(self) -> None:
        owner = self.server.owner
        body = self._read_body()
        url = urlsplit(self.path)
        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = None
        self._rec = rec = Recorded(
            method=self.command,
            path=url.path,
            query=parse_qs(url.query, keep_blank_values=True),
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            json=parsed,
            connection=self._number,
        )
        reply = owner._take(rec)
        if reply is None:
            problem = f"no scripted reply for {self.command} {url.path}"
            reply = Reply(500, body={"error": {"message": problem, "type": "wire_server"}})
        try:
            if reply.chunks:
                self._stream(reply)
            else:
                self._whole(reply)
        except _Closed:
            self.close_connection = True
            return
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True
            owner._update(rec, disconnected=True)
            return
        owner._update(rec, finished=True)

    def _start(self, reply: Reply, default_type: str, length: int | None) -> None:
        self.send_response(reply.status)
        names = {k.lower() for k in reply.headers}
        if "content-type" not in names:
            self.send_header("Content-Type", reply.content_type or default_type)
        if length is None:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(length))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()

    def _whole(self, reply: Reply) -> None:
        if isinstance(reply.body, dict | list):
            data, default_type = json.dumps(reply.body).encode(), "application/json"
        else:
            data, default_type = _encode(reply.body or b""), "text/plain; charset=utf-8"
        self._start(reply, default_type, len(data))
        self.wfile.write(data)

    def _stream(self, reply: Reply) -> None:
        owner = self.server.owner
        self._start(reply, "text/event-stream", None)
        for piece in reply.chunks:
            if isinstance(piece, Delay):
                self._pause(piece.seconds)
            elif isinstance(piece, Disconnect):
                owner._update(self._rec, dropped=True)
                self.connection.shutdown(socket.SHUT_RDWR)
                raise _Closed
            elif data := _encode(piece):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.write(b"0\r\n\r\n")

    def _pause(self, seconds: float) -> None:
        """Sleep, but notice within _POLL seconds if the client hangs up or the server stops."""
        owner = self.server.owner
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if owner._stopping.is_set():
                raise _Closed
            readable, _, _ = select.select([self.connection], [], [], min(left, _POLL))
            if readable and self.connection.recv(1, socket.MSG_PEEK) == b"":
                raise ConnectionResetError("client closed the connection")
            if readable:  # unexpected data from the client: avoid a busy loop
                owner._stopping.wait(min(left, _POLL))


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    owner: WireServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if error is not None and not isinstance(error, ConnectionError):
            self.owner.errors.append(error)


class WireServer:
    """`with WireServer() as server:` serve scripted replies on `server.url`."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.errors: list[BaseException] = []
        self._queue: list[Reply] = []
        self._routed: list[tuple[str, Reply]] = []
        self._responders: list[tuple[str, Callable[[Recorded], Reply]]] = []
        self._sockets: set[socket.socket] = set()
        self._accepted = 0
        self._changed = threading.Condition()
        self._stopping = threading.Event()
        self._httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def enqueue(self, reply: Reply, path_contains: str | None = None) -> None:
        with self._changed:
            if path_contains is None:
                self._queue.append(reply)
            else:
                self._routed.append((path_contains, reply))

    def respond(self, path_contains: str, responder: Callable[[Recorded], Reply]) -> None:
        """Answer every request whose path contains ``path_contains`` with ``responder(request)``
        (a stateful fake such as Gemini's Files API); scripted replies are not used for them.
        The responder runs on the server's handler thread."""
        with self._changed:
            self._responders.append((path_contains, responder))

    def wait_for_disconnect(self, timeout: float = 5.0) -> bool:
        """True once the last request's client closed the connection before the reply ended."""
        with self._changed:
            return self._changed.wait_for(
                lambda: bool(self.requests) and self.requests[-1].disconnected, timeout
            )

    def close(self) -> None:
        with self._changed:
            self._stopping.set()
            for sock in list(self._sockets):
                self._hang_up(sock)
        self._httpd.shutdown()
        self._httpd.server_close()  # joins the handler threads
        self._thread.join()

    def __enter__(self) -> WireServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
        if exc_type is None and self.errors:
            raise AssertionError(f"wire server errors: {self.errors!r}") from self.errors[0]

    # --- called from handler threads -------------------------------------------------------

    def _take(self, rec: Recorded) -> Reply | None:
        with self._changed:
            self.requests.append(rec)
            self._changed.notify_all()
            for needle, responder in self._responders:
                if needle in rec.path:
                    return responder(rec)
            for i, (needle, reply) in enumerate(self._routed):
                if needle in rec.path:
                    del self._routed[i]
                    return reply
            return self._queue.pop(0) if self._queue else None

    def _update(self, rec: Recorded, **changes: bool) -> None:
        with self._changed:
            for name, value in changes.items():
                setattr(rec, name, value)
            self._changed.notify_all()

    def _track(self, sock: socket.socket) -> int:
        with self._changed:
            self._sockets.add(sock)
            self._accepted += 1
            if self._stopping.is_set():
                self._hang_up(sock)
            return self._accepted

    def _untrack(self, sock: socket.socket) -> None:
        with self._changed:
            self._sockets.discard(sock)

    @staticmethod
    def _hang_up(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
