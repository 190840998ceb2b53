"""What an OpenAI-compatible server says it serves, asked on demand and remembered per provider.

Ollama, LM Studio, vLLM and llama.cpp's server all answer ``GET {base_url}/models`` in OpenAI's
form (``{"data": [{"id": ...}]}``), so the picker can offer the models a server has rather than
only those typed into ``settings.toml``. Asking happens only when the user says so (Refresh in
the window, ``crosstalk models --refresh``): a server is often a laptop's, off half the time,
and opening the picker must never wait on it. The answer is kept in
``server-models/<provider>.json`` (written atomically) with when it was read and the last
error, and is what the picker shows until the next refresh.

Failures come back as a sentence to show where the list would be, never as an exception, and
never with the key in them (``app.scrub``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from app.atomic import replace_file
from app.errors import CrosstalkError
from app.paths import DIR_MODE, DataDir
from app.scrub import scrub

FOLDER = "server-models"
FORMAT = "crosstalk.server-models"
VERSION = 1
TIMEOUT = 5.0  # seconds: a server on this computer or the LAN answers at once, or is not there


@dataclass(frozen=True)
class ServerList:
    """A provider's server as last asked: the models it listed (kept when a later refresh
    fails, so a server that is off for a while keeps its list), and the last refresh's error."""

    base_url: str
    models: tuple[str, ...] = ()
    fetched_at: str | None = None  # when ``models`` was read (UTC, ISO 8601); None: never
    error: str | None = None  # why the last refresh failed; None: it worked
    error_at: str | None = None


class _Cached(msgspec.Struct, kw_only=True):
    format: str
    version: int
    base_url: str
    models: list[str] = []
    fetched_at: str | None = None
    error: str | None = None
    error_at: str | None = None


class ServerListError(CrosstalkError):
    """A server could not be asked, or did not answer with a model list."""


def models_url(base_url: str) -> str:
    return base_url.rstrip("/") + "/models"


def fetch_models(base_url: str, key: str | None, timeout: float = TIMEOUT) -> list[str]:
    """The ids the server at ``base_url`` lists, sorted; blocking (run it off the UI thread).

    Raises ``ServerListError`` saying what went wrong in words a user can act on.
    """
    import httpx2 as httpx  # the SDKs' own HTTP client, imported only when a list is asked for

    url = models_url(base_url)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        response = httpx.get(url, headers=headers, timeout=timeout, follow_redirects=True)
    except httpx.TimeoutException as exc:
        raise ServerListError(
            f"{base_url} did not answer within {timeout:g} s: is the server busy, or is this "
            "its address?"
        ) from exc
    except httpx.ConnectError as exc:
        raise ServerListError(
            f"cannot reach {base_url}: {_reason(exc)} — is the server running?"
        ) from exc
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise ServerListError(f"cannot ask {url}: {_reason(exc)}") from exc
    if response.status_code in (401, 403):
        raise ServerListError(
            f"{url} refused the request (HTTP {response.status_code}): it wants a key, or "
            "another one"
        )
    if response.status_code == 404:
        raise ServerListError(
            f"{url} does not exist (HTTP 404): the base URL should be the server's "
            "OpenAI-compatible one, often ending in /v1"
        )
    if response.status_code >= 400:
        said = " ".join(response.text.split())[:200]
        raise ServerListError(f"{url} answered HTTP {response.status_code}: {said}")
    try:
        return _ids(response.json())
    except ValueError as exc:
        raise ServerListError(
            f"{url} answered, but not with a model list in OpenAI's form "
            '({"data": [{"id": ...}]})'
        ) from exc


def _ids(body: Any) -> list[str]:
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        raise ValueError("no data list")
    ids = {item.get("id") for item in data if isinstance(item, dict)}
    return sorted((i for i in ids if isinstance(i, str) and i), key=str.lower)


def _reason(exc: Exception) -> str:
    """The cause in a few words: "connection refused" rather than "[Errno 111] Connection
    refused" wrapped in the library's own text."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    lowered = text.lower()
    for said, meaning in (
        ("refused", "connection refused"),
        ("name or service not known", "no such host"),
        ("nodename nor servname", "no such host"),
        ("no route to host", "no route to the host"),
        ("network is unreachable", "the network is unreachable"),
    ):
        if said in lowered:
            return meaning
    return re.sub(r"^\[Errno -?\d+\]\s*", "", text).split(". ")[0].rstrip(".")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ServerModels:
    """The lists of each provider's server, kept in the data dir."""

    def __init__(self, data: DataDir) -> None:
        self.folder = data.root / FOLDER

    def _path(self, provider: str) -> Path:
        return self.folder / f"{provider}.json"  # provider names are [a-z0-9_-]: safe here

    def cached(self, provider: str, base_url: str) -> ServerList | None:
        """What the server at ``base_url`` listed when last asked, or None if it never was.

        A list of another base URL (the settings changed) is not this server's; a file that
        cannot be read is as good as none: it is only a cache, and the next refresh rewrites
        it."""
        try:
            raw = self._path(provider).read_bytes()
            cached = msgspec.json.decode(raw, type=_Cached)
        except (OSError, msgspec.DecodeError):
            return None
        if cached.format != FORMAT or cached.version != VERSION or cached.base_url != base_url:
            return None
        return ServerList(
            base_url=cached.base_url,
            models=tuple(cached.models),
            fetched_at=cached.fetched_at,
            error=cached.error,
            error_at=cached.error_at,
        )

    def refresh(
        self, provider: str, base_url: str, key: str | None, secrets: Iterable[str] = ()
    ) -> ServerList:
        """Ask the server now and remember its answer; blocking (run it off the UI thread).

        Never raises: a failure is the returned list's ``error`` (the previous list kept),
        scrubbed of ``key`` and ``secrets``."""
        previous = self.cached(provider, base_url) or ServerList(base_url)
        try:
            listed = ServerList(base_url, tuple(fetch_models(base_url, key)), _now())
        except ServerListError as exc:
            hidden = {*secrets, *([key] if key else [])}
            listed = replace(previous, error=scrub(str(exc), hidden), error_at=_now())
        try:
            self._save(provider, listed)
        except OSError as exc:
            problem = f"the list could not be kept in {self.folder} ({exc.strerror or exc})"
            listed = replace(listed, error=listed.error or problem, error_at=_now())
        return listed

    def _save(self, provider: str, listed: ServerList) -> None:
        self.folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        with contextlib.suppress(OSError):  # made by someone else, more open: ours to close
            if self.folder.stat().st_mode & 0o077:
                self.folder.chmod(DIR_MODE)
        record = _Cached(
            format=FORMAT,
            version=VERSION,
            base_url=listed.base_url,
            models=list(listed.models),
            fetched_at=listed.fetched_at,
            error=listed.error,
            error_at=listed.error_at,
        )
        replace_file(self._path(provider), msgspec.json.format(msgspec.json.encode(record)))
