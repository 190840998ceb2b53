"""Real storage servers on 127.0.0.1 for the sync tests: S3 (moto's server, which speaks the S3
wire protocol to botocore as AWS would) and WebDAV (WsgiDAV over a folder, with a user and a
password), each on a free port in a thread of this process."""

from __future__ import annotations

import contextlib
import logging
import secrets
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ACCESS_KEY = "AKIASYNCTESTKEY00001"
SECRET_KEY = "sync-test-secret-0123456789abcdefghijkl"
DAV_USER = "alice"
DAV_PASSWORD = "correct-horse-battery-staple-42"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class S3Server:
    endpoint: str

    def client(self, key: str = ACCESS_KEY, secret: str = SECRET_KEY) -> Any:
        import boto3

        return boto3.client(
            "s3", endpoint_url=self.endpoint, aws_access_key_id=key,
            aws_secret_access_key=secret, region_name="us-east-1",
        )  # fmt: skip

    def make_bucket(self, name: str) -> None:
        self.client().create_bucket(Bucket=name)

    @contextlib.contextmanager
    def checking_credentials(self) -> Iterator[Credentials]:
        """moto checks signatures and policies against its IAM users in the block: a user
        allowed everything, and one allowed only to read; any other key is refused as AWS
        refuses it."""
        import boto3
        from moto import settings

        iam = boto3.client(
            "iam", endpoint_url=self.endpoint, aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY, region_name="us-east-1",
        )  # fmt: skip
        keys = []
        suffix = secrets.token_hex(4)  # the server lives for the session: new users each time
        for user, actions in (("writer", '"*"'), ("reader", '["s3:GetObject", "s3:ListBucket"]')):
            user = f"{user}-{suffix}"
            iam.create_user(UserName=user)
            policy = (
                '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
                f'"Action": {actions}, "Resource": "*"}}]}}'
            )
            iam.put_user_policy(UserName=user, PolicyName="p", PolicyDocument=policy)
            made = iam.create_access_key(UserName=user)["AccessKey"]
            keys.append((made["AccessKeyId"], made["SecretAccessKey"]))
        before = settings.INITIAL_NO_AUTH_ACTION_COUNT
        settings.INITIAL_NO_AUTH_ACTION_COUNT = 0
        try:
            yield Credentials(writer=keys[0], reader=keys[1])
        finally:
            settings.INITIAL_NO_AUTH_ACTION_COUNT = before


@dataclass(frozen=True)
class Credentials:
    writer: tuple[str, str]  # (access key id, secret access key)
    reader: tuple[str, str]


@contextlib.contextmanager
def s3_server(*, own_process: bool = False) -> Iterator[S3Server]:
    """moto's S3 on 127.0.0.1, on a thread here, or (``own_process``: benches, so that the
    server's work does not share this process's interpreter) in a process of its own."""
    if own_process:
        with _s3_process() as server:
            yield server
        return
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # a line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        yield S3Server(f"http://{host}:{port}")
    finally:
        server.stop()
        if server._server is not None:
            server._server.server_close()  # stop() leaves the socket open


@contextlib.contextmanager
def _s3_process() -> Iterator[S3Server]:
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.1)
        yield S3Server(f"http://127.0.0.1:{port}")
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def webdav_server(root: Path) -> Iterator[str]:
    """WsgiDAV serving ``root`` at ``http://127.0.0.1:PORT/dav`` (and read-only at ``/ro``);
    DAV_USER/DAV_PASSWORD only (HTTP Basic)."""
    from werkzeug.serving import make_server
    from werkzeug.wsgi import LimitedStream
    from wsgidav.wsgidav_app import WsgiDAVApp

    config = {
        "provider_mapping": {
            "/dav": str(root),
            "/ro": {"root": str(root), "readonly": True},  # PUT: 403 Forbidden
        },
        "simple_dc": {"user_mapping": {"*": {DAV_USER: {"password": DAV_PASSWORD}}}},
        "http_authenticator": {
            "accept_basic": True,
            "accept_digest": False,
            "default_to_digest": False,
            "trusted_auth_header": None,
        },
        "verbose": 1,
        "logging": {"enable": False, "enable_loggers": []},
        "lock_storage": True,
        "property_manager": True,
    }
    dav = WsgiDAVApp(config)

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        # werkzeug's development server hands over the socket itself: WsgiDAV reads a PUT's
        # body in blocks, and a read past its end would wait for bytes that never come
        length = int(environ.get("CONTENT_LENGTH") or 0)
        environ["wsgi.input"] = LimitedStream(environ["wsgi.input"], length)
        return dav(environ, start_response)

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/dav"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextlib.contextmanager
def answering(
    status: int, body: bytes = b"", headers: dict[str, str] | None = None
) -> Iterator[str]:
    """An HTTP server that answers every request with ``status`` and ``body``: a WebDAV or S3
    service that is full, throttling or failing, as far as a client can tell."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length and "100-continue" not in self.headers.get("Expect", ""):
                self.rfile.read(length)  # else the client waits for a go-ahead: answer now
            self.close_connection = True
            self.send_response(status)
            self.send_header("Connection", "close")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = do_PROPFIND = do_MKCOL = _answer
        do_MOVE = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class Proxy:
    """A forwarding HTTP proxy in front of a real server (moto's S3, WsgiDAV) that fails on
    request: from request number ``fail_from`` on (1-based, counted from the last ``plan``),
    for ``fail_count`` requests (None: all), it answers ``status`` with ``body`` instead, or
    with ``status`` 0 closes the connection without a word (a dropped network)."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.url = ""
        self.requests = 0  # forwarded or failed since the last plan
        self.failed = 0
        self._plan: tuple[int, int | None, int, bytes] | None = None
        self._lock = threading.Lock()

    def plan(
        self, fail_from: int, status: int = 0, body: bytes = b"", fail_count: int | None = None
    ) -> None:
        with self._lock:
            self.requests = self.failed = 0
            self._plan = (fail_from, fail_count, status, body)

    def heal(self) -> None:
        with self._lock:
            self._plan = None

    def _failure(self) -> tuple[int, bytes] | None:
        """What this request gets instead of an answer, if anything."""
        with self._lock:
            self.requests += 1
            if self._plan is None:
                return None
            fail_from, fail_count, status, body = self._plan
            if self.requests < fail_from or (fail_count is not None and self.failed >= fail_count):
                return None
            self.failed += 1
            return status, body


def s3_error(code: str, message: str = "") -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code>'
        f"<Message>{message or code}</Message><RequestId>1</RequestId></Error>"
    ).encode()


@contextlib.contextmanager
def proxy(upstream: str) -> Iterator[Proxy]:
    """A ``Proxy`` to ``upstream`` (``http://host:port``) on a free port of 127.0.0.1."""
    import http.client
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import urlsplit

    target = urlsplit(upstream)
    state = Proxy(upstream)
    hop = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade"}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            failure = state._failure()
            if failure is not None:
                status, text = failure
                self.close_connection = True
                if status == 0:  # the network drops: no answer at all
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.send_response(status)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(text)))
                self.send_header("Connection", "close")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(text)
                return
            upstream_connection = http.client.HTTPConnection(
                target.hostname, target.port, timeout=30
            )
            try:
                headers = {k: v for k, v in self.headers.items() if k.lower() not in hop}
                headers.pop("Expect", None)
                upstream_connection.request(self.command, self.path, body, headers)
                answer = upstream_connection.getresponse()
                data = answer.read()
            finally:
                upstream_connection.close()
            self.send_response(answer.status, answer.reason)
            for name, value in answer.getheaders():
                if name.lower() not in hop and name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = do_PROPFIND = _forward
        do_MKCOL = do_MOVE = do_COPY = do_OPTIONS = do_PROPPATCH = do_LOCK = do_UNLOCK = _forward

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_port}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
