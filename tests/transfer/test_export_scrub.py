"""An export carries no key: a reply's error saved before errors were scrubbed (a provider's
401 echoing the key) is scrubbed on the way out, in every format; what was written is kept."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from app.history import ModelInput, ModelOutput
from app.store import Library
from app.transfer import export

KEY = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345"


@pytest.mark.parametrize("fmt", ["json", "markdown", "html", "zip"])
def test_an_old_error_echoing_a_key_is_not_exported(
    library: Library, tmp_path: Path, fmt: str
) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="my own note: keep this text"))
    error = f"anthropic rejected the API key (401: invalid x-api-key {KEY})"
    library.append(conversation, ModelOutput(provider="anthropic", model="m", error=error))
    target = tmp_path / f"out.{fmt}"
    export(library, [conversation.id], fmt, target)
    if fmt == "zip":
        with zipfile.ZipFile(target) as zf:
            data = b"".join(zf.read(name) for name in zf.namelist())
    else:
        data = target.read_bytes()
    assert KEY.encode() not in data and b"keep this text" in data
    assert KEY in (library.data.conversations / f"{conversation.id}.jsonl").read_text()
