"""keyring:NAME and ${...} in env and headers; a missing one says how to set it."""

from __future__ import annotations

import pytest

from app.keys import Keys
from app.mcp import ServerConfig
from app.mcp.secrets import MissingSecret, expand, secret_refs
from app.scrub import scrub
from tests.helpers.memory_keyring import memory_keyring


def test_references_expand_and_are_scrubbed() -> None:
    with memory_keyring() as backend:
        keys = Keys({})
        keys.store_secret("fs.API_TOKEN", "tok-123456789")
        assert backend.passwords == {("crosstalk", "mcp:fs.API_TOKEN"): "tok-123456789"}
        values = {
            "API_TOKEN": "keyring:fs.API_TOKEN",
            "AUTH": "Bearer ${keyring:fs.API_TOKEN}",
            "HOME_DIR": "${HOME}/x",
            "PLAIN": "1",
        }
        out = expand(values, Keys({}), {"HOME": "/home/me"}, where="fs: env")
        assert out == {
            "API_TOKEN": "tok-123456789", "AUTH": "Bearer tok-123456789",
            "HOME_DIR": "/home/me/x", "PLAIN": "1",
        }  # fmt: skip
        assert "tok-123456789" not in scrub("said tok-123456789", keys.secrets())
        assert keys.forget_secret("fs.API_TOKEN") and not keys.forget_secret("fs.API_TOKEN")


def test_a_missing_secret_says_how_to_set_it() -> None:
    with memory_keyring():
        with pytest.raises(MissingSecret) as missing:
            expand({"API_TOKEN": "keyring:fs.API_TOKEN"}, Keys({}), {}, where="fs: env")
        assert str(missing.value) == (
            "fs: env API_TOKEN: keyring:fs.API_TOKEN is not in the OS keyring; "
            "`crosstalk mcp secret set fs.API_TOKEN` stores it"
        )
        with pytest.raises(MissingSecret, match=r"\$\{NOPE\} is not set in the environment"):
            expand({"X": "${NOPE}"}, Keys({}), {}, where="fs: env")


def test_secret_refs() -> None:
    server = ServerConfig(
        url="http://x", headers={"A": "keyring:web.a", "B": "Bearer ${keyring:web.b} ${HOME}"}
    )
    assert secret_refs(server) == ["web.a", "web.b"]
