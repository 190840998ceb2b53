"""API keys: the OS keyring first, then the standard environment variables.

A key is only ever handed to a provider's constructor. It is never written to a file, a
transcript, the index, a log or an error message; messages name where a key can come from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.errors import CrosstalkError

SERVICE = "crosstalk"

ENVIRONMENT = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}
BASE_URL_ENVIRONMENT = {
    "openai": "OPENAI_BASE_URL",
    "anthropic": "ANTHROPIC_BASE_URL",
    "gemini": "GOOGLE_GEMINI_BASE_URL",
}

# environment variables whose values are secrets, by the end of their name
SECRET_NAMES = ("_API_KEY", "_KEY", "_TOKEN", "_SECRET", "_PASSWORD")

# a provider named differently but speaking a known API falls back to that API's variables
KIND_FAMILY = {"openai": "openai", "openai-responses": "openai", "anthropic": "anthropic",
               "gemini": "gemini"}  # fmt: skip


def env_names(provider: str, kind: str | None = None) -> tuple[str, ...]:
    own = ENVIRONMENT.get(provider, (f"{provider.upper().replace('-', '_')}_API_KEY",))
    family = ENVIRONMENT.get(KIND_FAMILY.get(kind or "", ""), ())
    return tuple(dict.fromkeys((*own, *family)))


@dataclass(frozen=True)
class Key:
    value: str
    source: str  # "keyring" or the environment variable's name: safe to show

    def __repr__(self) -> str:  # a key must not leak through a log of its holder
        return f"Key(source={self.source!r})"


def _first_sentence(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.split(". ")[0].rstrip(".")


class KeyringUnavailable(CrosstalkError):
    """No usable OS keyring (e.g. no Secret Service running)."""


class Keys:
    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ
        self.problem: str | None = None  # why the keyring could not be read, if it could not
        self._handed_out: set[str] = set()  # every key value looked up, for ``secrets``

    def lookup(self, provider: str, kind: str | None = None) -> Key | None:
        stored = self._from_keyring(provider)
        if stored:
            self._handed_out.add(stored)
            return Key(stored, "keyring")
        for name in env_names(provider, kind):
            if self._environ.get(name):
                self._handed_out.add(self._environ[name])
                return Key(self._environ[name], name)
        return None

    def secrets(self) -> set[str]:
        """The key values this process knows of, for ``app.scrub`` to take out of logs and
        messages: every one in the environment under a credential's name, and every one it
        read from or stored in the keyring. (A keyring key never read here was never sent,
        so nothing can echo it; asking the keyring for more could prompt to unlock it.)"""
        known = {v for k, v in self._environ.items() if k.endswith(SECRET_NAMES) and v}
        return known | self._handed_out

    def missing_message(self, provider: str, kind: str | None = None) -> str:
        names = " or ".join(env_names(provider, kind))
        why = f" (the OS keyring is unavailable: {self.problem})" if self.problem else ""
        return (
            f"no API key for {provider}: run `crosstalk key set {provider}` to keep one in the "
            f"OS keyring, or set {names}{why}"
        )

    def _from_keyring(self, provider: str) -> str | None:
        import keyring
        import keyring.errors

        try:
            return keyring.get_password(SERVICE, provider)
        except keyring.errors.KeyringError as exc:
            self.problem = _first_sentence(exc)
            return None

    def store(self, provider: str, value: str) -> None:
        import keyring
        import keyring.errors

        value = value.strip()
        if not value:
            raise ValueError("the key is empty; nothing was stored")
        self._handed_out.add(value)  # scrubbed from now on, even if storing fails
        try:
            keyring.set_password(SERVICE, provider, value)
        except keyring.errors.KeyringError as exc:
            raise KeyringUnavailable(
                f"the OS keyring cannot store keys here ({_first_sentence(exc)}); set "
                f"{' or '.join(env_names(provider))} in the environment instead"
            ) from exc

    def forget(self, provider: str) -> bool:
        import keyring
        import keyring.errors

        try:
            keyring.delete_password(SERVICE, provider)
        except keyring.errors.PasswordDeleteError:
            return False
        except keyring.errors.KeyringError as exc:
            raise KeyringUnavailable(
                f"the OS keyring is unavailable ({_first_sentence(exc)})"
            ) from exc
        return True
