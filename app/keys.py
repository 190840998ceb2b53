"""API keys: one kept for this session, the OS keyring, then the standard environment variables
(the command line asks the environment before the keyring: ``Keys.environment_first``).

A key is only ever handed to a provider's constructor. It is never written to a file, a
transcript, the index, a log or an error message; messages name where a key can come from.
Where there is no usable OS keyring (no Secret Service on a bare Linux desktop), the window can
keep a key in this process's memory for the session instead of writing it anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from app.errors import AuthFailed, CrosstalkError, EmptyValue

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

SERVICE = "crosstalk"
MCP_USER = "mcp:"  # keyring user of an MCP secret: "mcp:fs.API_TOKEN"
SESSION = "session"  # the source of a key kept in memory for this session only

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


def base_url_variable(provider: str, kind: str) -> str | None:
    """The environment variable a provider's base URL comes from when its settings give none
    (as ``composition.adapter`` reads it), or None: OpenAI-compatible servers have none."""
    return BASE_URL_ENVIRONMENT.get(KIND_FAMILY.get(kind, provider))


@dataclass(frozen=True)
class Key:
    value: str
    source: str  # "session", "keyring" or the environment variable's name: safe to show

    def __repr__(self) -> str:  # a key must not leak through a log of its holder
        return f"Key(source={self.source!r})"


def _first_sentence(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.split(". ")[0].rstrip(".")


class KeyringUnavailable(CrosstalkError):
    """No usable OS keyring (e.g. no Secret Service running): ``problem`` is the keyring's
    own first sentence, ``what`` the sync's secret or passphrase (``EmptyValue.WHAT``)."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "keys": (
            "the OS keyring cannot store keys here ({problem}); set {variables} in the "
            "environment instead"
        ),
        "secrets": (
            "the OS keyring cannot store secrets here ({problem}); put the value in the "
            "environment and write ${{VARIABLE}} in mcp.json instead"
        ),
        "unavailable": "the OS keyring is unavailable ({problem})",
        "sync_none": (
            "there is no usable OS keyring here to keep the sync {what} in: set {variable} in "
            "the environment instead"
        ),
        "sync_not_kept": (
            "the OS keyring cannot keep the sync {what} here ({problem}); set {variable} in the "
            "environment instead"
        ),
    }


def _can_keep_keys(backend: KeyringBackend) -> bool:
    """False for keyring's stand-ins: the fail backend it falls back to when nothing else is
    there, the null backend that drops what it is given, and a chainer with nothing to chain."""
    from keyring.backends import chainer, fail, null

    if isinstance(backend, chainer.ChainerBackend):
        return any(_can_keep_keys(chained) for chained in backend.backends)
    return not isinstance(backend, (fail.Keyring, null.Keyring))


class Keys:
    def __init__(self, environ: Mapping[str, str], *, environment_first: bool = False) -> None:
        """``environment_first``: a key in the environment is used before the keyring's, which
        is then not asked at all (its backend is not even loaded). The command line does that:
        its environment is what the user set for the commands they run, so it is the more
        particular choice; the window's is the login's, and a key typed in its Settings (kept
        in the keyring) is the more particular one there."""
        self._environ = environ
        self.environment_first = environment_first
        self.problem: str | None = None  # why the keyring could not be used, if it could not
        self._handed_out: set[str] = set()  # every key value looked up, for ``secrets``
        self._session: dict[str, str] = {}  # provider -> key, in this process's memory only
        self._usable: tuple[KeyringBackend, bool] | None = None  # per backend: keyring_usable

    def __repr__(self) -> str:  # names the providers with a session key, never a key
        return f"Keys(session={sorted(self._session)!r})"

    def lookup(self, provider: str, kind: str | None = None) -> Key | None:
        # A session key comes first: it is the key the user gave most recently, and it is only
        # kept because the keyring could not take it, so a keyring key would be an older one;
        # asked first, it also spares a keyring that is slow or prompts to be unlocked.
        kept = self._session.get(provider)
        if kept:
            return Key(kept, SESSION)
        if self.environment_first and (found := self._from_environment(provider, kind)):
            return found
        stored = self._from_keyring(provider)
        if stored:
            self._handed_out.add(stored)
            return Key(stored, "keyring")
        return self._from_environment(provider, kind)

    def _from_environment(self, provider: str, kind: str | None) -> Key | None:
        for name in env_names(provider, kind):
            if self._environ.get(name):
                self._handed_out.add(self._environ[name])
                return Key(self._environ[name], name)
        return None

    def shadowing(self, provider: str, kind: str | None = None) -> str | None:
        """The environment variable whose key these keys use before the keyring's, if any:
        a key stored in the keyring is then not the one used (``environment_first``)."""
        if not self.environment_first:
            return None
        return next((n for n in env_names(provider, kind) if self._environ.get(n)), None)

    def secrets(self) -> set[str]:
        """The key values this process knows of, for ``app.scrub`` to take out of logs and
        messages: every one in the environment under a credential's name, every one it read
        from or stored in the keyring, and every one kept for the session or tried. (A keyring
        key never read here was never sent, so nothing can echo it; asking the keyring for more
        could prompt to unlock it.)"""
        known = {v for k, v in self._environ.items() if k.endswith(SECRET_NAMES) and v}
        return known | self._handed_out

    def keep_for_session(self, provider: str, value: str) -> None:
        """Keep ``provider``'s key in memory until the process ends: for when the OS keyring
        cannot store it. It is written nowhere, and scrubbed like every other key."""
        value = value.strip()
        if not value:
            raise EmptyValue(cause="not_kept", what="key")
        self._handed_out.add(value)
        self._session[provider] = value

    def forget_session(self, provider: str) -> bool:
        """Drop ``provider``'s session key; whether there was one. It stays in ``secrets``:
        text it was sent with may still come back."""
        return self._session.pop(provider, None) is not None

    def trial(self, provider: str, value: str) -> Keys:
        """Keys that answer ``provider`` with ``value`` (a key typed but not saved, to try it)
        and everything else as these do. ``value`` is kept nowhere else, and is scrubbed as a
        key handed out by these keys is: the trial shares their ``secrets``."""
        value = value.strip()
        if not value:
            raise EmptyValue(cause="not_tried", what="key")
        tried = Keys(self._environ, environment_first=self.environment_first)
        tried._session = {**self._session, provider: value}
        tried._handed_out = self._handed_out  # the same set, not a copy
        tried._usable = self._usable
        self._handed_out.add(value)
        return tried

    def keyring_usable(self) -> bool:
        """Whether the OS keyring can keep keys here, so the window can say once that it cannot
        rather than fail at each Save. Cheap: keyring picks its backend once, when first asked
        (that is when it looks for a Secret Service); this only looks at which one it picked.
        A backend that looks usable may still refuse (a locked keyring): ``store`` says so."""
        import keyring

        backend = keyring.get_keyring()
        if self._usable is None or self._usable[0] is not backend:
            self._usable = (backend, _can_keep_keys(backend))
        return self._usable[1]

    def base_url_from_environment(self, provider: str, kind: str) -> tuple[str, str] | None:
        """(variable, URL) when the environment these keys read gives ``provider`` its base URL
        (settings that name none), for the window to show where it comes from; else None."""
        variable = base_url_variable(provider, kind)
        url = self._environ.get(variable) if variable else None
        return (variable, url) if variable and url else None

    def missing(self, provider: str, kind: str | None = None) -> AuthFailed:
        """The error for a call to ``provider`` with no key: where one can be kept."""
        names = " or ".join(env_names(provider, kind))
        if self.problem:
            return AuthFailed(cause="missing_key_no_keyring", provider=provider,
                              variables=names, problem=self.problem)  # fmt: skip
        return AuthFailed(cause="missing_key", provider=provider, variables=names)

    def missing_message(self, provider: str, kind: str | None = None) -> str:
        return str(self.missing(provider, kind))

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
            raise EmptyValue(cause="not_stored", what="key")
        self._handed_out.add(value)  # scrubbed from now on, even if storing fails
        try:
            keyring.set_password(SERVICE, provider, value)
        except keyring.errors.KeyringError as exc:
            self.problem = _first_sentence(exc)
            raise KeyringUnavailable(
                cause="keys",
                problem=_first_sentence(exc),
                variables=" or ".join(env_names(provider)),
            ) from exc
        self._session.pop(provider, None)  # the stored key is the one to use from now on

    # MCP servers' secrets (``app/mcp/secrets.py``): the same keyring service, under "mcp:NAME",
    # so they never collide with a provider's key

    def secret(self, name: str) -> str | None:
        """The keyring's value for MCP secret ``name``, or None; scrubbed from then on."""
        value = self._from_keyring(MCP_USER + name)
        if value:
            self._handed_out.add(value)
        return value or None

    def store_secret(self, name: str, value: str) -> None:
        """Keep MCP secret ``name`` in the OS keyring; KeyringUnavailable when it cannot."""
        import keyring
        import keyring.errors

        value = value.strip()
        if not value:
            raise EmptyValue(cause="not_stored", what="secret")
        self._handed_out.add(value)
        try:
            keyring.set_password(SERVICE, MCP_USER + name, value)
        except keyring.errors.KeyringError as exc:
            self.problem = _first_sentence(exc)
            raise KeyringUnavailable(cause="secrets", problem=_first_sentence(exc)) from exc

    def forget_secret(self, name: str) -> bool:
        return self.forget(MCP_USER + name)

    def forget(self, provider: str) -> bool:
        import keyring
        import keyring.errors

        try:
            keyring.delete_password(SERVICE, provider)
        except keyring.errors.PasswordDeleteError:
            return False
        except keyring.errors.KeyringError as exc:
            raise KeyringUnavailable(cause="unavailable", problem=_first_sentence(exc)) from exc
        return True
