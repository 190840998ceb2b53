"""Where sync's two secrets live: the OS keyring, or else the environment; never a file.

- ``secret``: the WebDAV password, or the S3 secret access key of ``[sync] user``
  (keyring user ``sync:secret``; environment ``CROSSTALK_SYNC_SECRET``). Without a user, S3
  takes botocore's usual sources (AWS_ACCESS_KEY_ID..., ~/.aws, SSO) and this is unused.
- ``passphrase``: the encryption passphrase (``sync:passphrase``;
  ``CROSSTALK_SYNC_PASSPHRASE``).

Same keyring service as API keys and MCP secrets (``app/keys.py``), under names of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from app.errors import EmptyValue
from app.keys import SERVICE, KeyringUnavailable

Secret = Literal["secret", "passphrase"]
ENVIRONMENT: dict[Secret, str] = {
    "secret": "CROSSTALK_SYNC_SECRET",
    "passphrase": "CROSSTALK_SYNC_PASSPHRASE",
}


def _first_sentence(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.split(". ")[0].rstrip(".")


def _user(which: Secret) -> str:
    return f"sync:{which}"


def lookup(which: Secret, environ: Mapping[str, str]) -> tuple[str, str] | None:
    """(value, where it came from: "keyring" or the variable's name), or None."""
    import keyring
    import keyring.errors

    try:
        stored = keyring.get_password(SERVICE, _user(which))
    except keyring.errors.KeyringError:
        stored = None  # no usable keyring: the environment may still have it
    if stored:
        return stored, "keyring"
    variable = ENVIRONMENT[which]
    if environ.get(variable):
        return environ[variable], variable
    return None


def store(which: Secret, value: str) -> None:
    """Keep ``value`` in the OS keyring; KeyringUnavailable says where else it can live."""
    import keyring
    import keyring.errors

    if not value:
        raise EmptyValue(cause="not_stored", what=which)
    try:
        keyring.set_password(SERVICE, _user(which), value)
    except keyring.errors.KeyringError as exc:
        raise KeyringUnavailable(
            cause="sync_not_kept",
            what=which,
            problem=_first_sentence(exc),
            variable=ENVIRONMENT[which],
        ) from exc


def forget(which: Secret) -> bool:
    import keyring
    import keyring.errors

    try:
        keyring.delete_password(SERVICE, _user(which))
    except keyring.errors.KeyringError:
        return False
    return True
