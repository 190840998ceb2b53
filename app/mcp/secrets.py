"""Secrets in a server's ``env`` and ``headers``: ``keyring:NAME`` as a whole value, and
``${keyring:NAME}`` or ``${ENV_VAR}`` inside one (as Claude Code's .mcp.json allows).

NAME is kept in the OS keyring (``Keys.secret``: service "crosstalk", user "mcp:NAME"), so
mcp.json never holds the value; every value looked up is scrubbed from logs and messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from app.errors import CrosstalkError
from app.keys import Keys
from app.mcp.config import ServerConfig

WHOLE = "keyring:"
INSIDE = re.compile(r"\$\{(keyring:)?([A-Za-z0-9_.\-]+)\}")


class MissingSecret(CrosstalkError):
    """A secret the config names is not there: ``written`` is the reference as mcp.json
    writes it, for ``key`` of ``where`` (e.g. "fs: env"), ``name`` the keyring's name."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "not_in_keyring": (
            "{where} {key}: {written} is not in the OS keyring; `crosstalk mcp secret set {name}` "
            "stores it"
        ),
        "not_in_environment": (
            "{where} {key}: {written} is not set in the environment; set it or store the value "
            "with `crosstalk mcp secret set`"
        ),
    }


def expand(
    values: Mapping[str, str], keys: Keys, environ: Mapping[str, str], *, where: str
) -> dict[str, str]:
    """``values`` with every reference replaced; MissingSecret names the first missing one
    (``where`` is e.g. "fs: env")."""

    def secret(name: str, key: str, written: str) -> str:
        value = keys.secret(name)
        if value is None:
            raise MissingSecret(
                cause="not_in_keyring", where=where, key=key, written=written, name=name
            )
        return value

    out: dict[str, str] = {}
    for key, value in values.items():
        if value.startswith(WHOLE):
            out[key] = secret(value[len(WHOLE) :], key, value)
            continue

        def one(match: re.Match[str], key: str = key) -> str:
            name = match.group(2)
            if match.group(1):
                return secret(name, key, match.group(0))
            if name not in environ:
                raise MissingSecret(
                    cause="not_in_environment", where=where, key=key, written=match.group(0)
                )
            return environ[name]

        out[key] = INSIDE.sub(one, value)
    return out


def secret_refs(server: ServerConfig) -> list[str]:
    """The keyring names ``server`` refers to (for ``mcp remove --forget-secrets``)."""
    names: list[str] = []
    for value in (*server.env.values(), *server.headers.values()):
        if value.startswith(WHOLE):
            names.append(value[len(WHOLE) :])
        names += [m.group(2) for m in INSIDE.finditer(value) if m.group(1)]
    return list(dict.fromkeys(names))
