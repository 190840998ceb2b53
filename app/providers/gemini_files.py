"""Gemini's Files API: the files a request sends by uri instead of inline.

Gemini takes about 20 MB of inline data per request (``gemini_replay.INLINE_LIMIT``); above it
the largest files are uploaded with google-genai's ``client.aio.files.upload`` (a resumable
upload) and sent as ``file_data``. Each upload's uri is kept for this process, by the bytes it
holds (``gemini_replay.file_key``), until shortly before Google deletes the file (48 h after
the upload), so a conversation with a large PDF uploads it once, not at every turn.
"""

from __future__ import annotations

import asyncio
import io
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.errors import BadRequest, ProviderError, RateLimited, Unavailable, UnknownModel
from app.history import Attachment
from app.providers.attached import raw

if TYPE_CHECKING:
    from google import genai
    from google.genai import types

FILE_LIFETIME = 48 * 3600.0  # how long Google keeps an uploaded file
FILE_MARGIN = 3600.0  # an upload this close to being deleted is made again
PROCESSING_WAIT = 300.0  # seconds a file may stay PROCESSING before the request gives up
# how Gemini refuses a file_data uri whose file is gone: "You do not have permission to access
# the File x or it may not exist." (403), or not found / expired
_GONE = re.compile(r"\bfile\b.*\b(not exist|not found|expired)", re.IGNORECASE | re.DOTALL)

Failure = Callable[[Exception, str, bool], ProviderError]  # (exc, model, started)


class FilesGone(Exception):
    """A request named an uploaded file that Gemini no longer has."""


def file_gone(exc: Exception) -> bool:
    errors = sys.modules.get("google.genai.errors")
    if errors is None or not isinstance(exc, errors.APIError):
        return False
    return exc.code in (400, 403, 404) and bool(_GONE.search(str(exc.message or "")))


@dataclass(frozen=True)
class _Uploaded:
    uri: str
    expires: float  # time.time() when Google deletes it


class UploadedFiles:
    """One provider's uploads in this process."""

    def __init__(
        self, provider: str, base_url: str, client: Callable[[], genai.Client], failure: Failure
    ) -> None:
        self.provider = provider
        self.base_url = base_url
        self._client = client
        self._failure = failure
        self._files: dict[str, _Uploaded] = {}  # file_key -> upload
        self._lock = threading.Lock()  # the inspector renders on a thread of its own

    def uris(self) -> dict[str, str]:
        """The uris of the uploads Google still keeps for a while, by ``file_key``."""
        now = time.time()
        with self._lock:
            return {k: f.uri for k, f in self._files.items() if f.expires - FILE_MARGIN > now}

    def forget(self, keys: frozenset[str]) -> None:
        with self._lock:
            for key in keys:
                self._files.pop(key, None)

    async def upload(self, files: Mapping[str, Attachment], model: str) -> None:
        """Upload ``files`` (by ``file_key``), all at once, and keep their uris."""
        done = await asyncio.gather(*(self._upload(a, model) for a in files.values()))
        with self._lock:
            self._files.update(zip(files, done, strict=True))

    async def _upload(self, attachment: Attachment, model: str) -> _Uploaded:
        from google.genai import types

        data = await asyncio.to_thread(raw, attachment)  # tens of MB: off the event loop
        config = types.UploadFileConfig(
            mime_type=attachment.mime_type, display_name=attachment.name
        )
        try:
            file = await self._client().aio.files.upload(file=io.BytesIO(data), config=config)
            file = await self._active(file, attachment.name)
        except ProviderError:
            raise
        except Exception as exc:
            raise self._refused(exc, attachment.name, model) from exc
        if not file.uri:
            raise Unavailable(
                f"{self.provider}'s Files API gave no uri for {attachment.name}: try again later"
            )
        expires = file.expiration_time.timestamp() if file.expiration_time else 0.0
        return _Uploaded(file.uri, expires or time.time() + FILE_LIFETIME)

    async def _active(self, file: types.File, name: str) -> types.File:
        """The file once Gemini has processed it (images and PDFs are usually ready at once)."""
        from google.genai import types

        deadline = time.monotonic() + PROCESSING_WAIT
        while file.state == types.FileState.PROCESSING and file.name:
            if time.monotonic() > deadline:
                raise Unavailable(
                    f"{self.provider} is still processing {name} after {PROCESSING_WAIT:g} s: "
                    "try again later"
                )
            await asyncio.sleep(0.5)
            file = await self._client().aio.files.get(name=file.name)
        if file.state == types.FileState.FAILED:
            why = file.error.message if file.error and file.error.message else "no reason given"
            raise BadRequest(f"{self.provider} could not process {name}: {why}")
        return file

    def _refused(self, exc: Exception, name: str, model: str) -> ProviderError:
        error = self._failure(exc, model, False)
        what = f"uploading {name} to {self.provider}'s Files API failed"
        if isinstance(error, UnknownModel):  # a 404 here is about the URL, not the model
            return BadRequest(f"{what}: {self.base_url} has no Files API; check the base URL")
        if isinstance(error, RateLimited):
            return RateLimited(f"{what}: {error}", error.retry_after)
        return type(error)(f"{what}: {error}")
