"""What a model picker shows: every provider's models with where its key comes from, the
models used lately, each model's context window and price, and what servers list.

The picker (``ui/composer/model_picker.py``) and ``crosstalk models`` read the same ``Snapshot``, so
the two never disagree. A snapshot is made once per opening: the key statuses read the OS keyring,
which can be slow or ask to be unlocked, so they are read once (off the UI thread in the window),
never per keystroke; the filtering per keystroke (``arrange``) is pure.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

from app.composition import Services
from app.context.windows import KNOWN_WINDOWS, context_window
from app.errors import CrosstalkError
from app.fuzzy import fuzzy_rank
from app.keys import BASE_URL_ENVIRONMENT, KIND_FAMILY, env_names
from app.pricing import Price
from app.server_models import ServerList, ServerModels
from app.settings import LOCAL

RECENT = 8  # models in the Recent group
SERVER_KIND = "openai-compatible"  # the providers whose server can say what it serves

KeyState = Literal["keyring", "environment", "not needed", "missing", "other"]


@dataclass(frozen=True)
class KeyStatus:
    """Where a provider's key comes from, safe to show (never the key)."""

    state: KeyState
    source: str | None = None  # the environment variable, or a source shown as it is named

    def label(self) -> str:
        """``keyring``, ``environment (OPENAI_API_KEY)``, ``not needed``, ``missing``, or a
        source this module does not know of (a newer ``Keys``) by its own name."""
        if self.state == "environment":
            return f"environment ({self.source})"
        if self.state == "other":
            return self.source or "unknown"
        return self.state


@dataclass(frozen=True)
class ProviderModels:
    """One provider's group in the picker."""

    name: str
    kind: str  # a ``ProviderKind``; "local" for the built-in model, "" for one made in code
    configured: tuple[str, ...]  # provider:model, as the settings list them
    key: KeyStatus | None = None  # None: not looked up yet
    any_model: bool = True  # it serves models it does not list (the built-in one does not)
    base_url: str | None = None
    server: ServerList | None = None  # what the server listed when last asked; None: never

    @property
    def lists_server(self) -> bool:
        """Its server can be asked what it serves (Refresh)."""
        return self.kind == SERVER_KIND

    @property
    def specs(self) -> tuple[str, ...]:
        """The configured models, then those only the server listed."""
        served = (f"{self.name}:{m}" for m in (self.server.models if self.server else ()))
        return tuple(dict.fromkeys((*self.configured, *served)))


@dataclass(frozen=True)
class Snapshot:
    providers: tuple[ProviderModels, ...]
    recent: tuple[str, ...] = ()

    def provider(self, name: str) -> ProviderModels | None:
        return next((p for p in self.providers if p.name == name), None)

    def with_keys(self, keys: Mapping[str, KeyStatus]) -> Snapshot:
        providers = tuple(replace(p, key=keys.get(p.name, p.key)) for p in self.providers)
        return replace(self, providers=providers)

    def with_server(self, name: str, server: ServerList) -> Snapshot:
        providers = tuple(
            replace(p, server=server) if p.name == name else p for p in self.providers
        )
        return replace(self, providers=providers)

    @classmethod
    def of_specs(cls, specs: Sequence[str]) -> Snapshot:
        """Groups made from bare ``provider:model`` names, for a picker given nothing else."""
        names = dict.fromkeys(spec.partition(":")[0] for spec in specs)
        return cls(
            tuple(
                ProviderModels(name, "", tuple(s for s in specs if s.partition(":")[0] == name))
                for name in names
            )
        )


@dataclass(frozen=True)
class ModelFacts:
    window: int  # tokens
    window_known: bool  # False: Crosstalk's guess for an unknown model (settings can say)
    price: Price | None  # None: no price known


def key_status(source: str | None, provider: str, kind: str | None, required: bool) -> KeyStatus:
    """The status of a provider whose key lookup found ``source`` (None: no key)."""
    if source is None:
        return KeyStatus("missing" if required else "not needed")
    if source == "keyring":
        return KeyStatus("keyring")
    if source in env_names(provider, kind):
        return KeyStatus("environment", source)
    return KeyStatus("other", source)


def short_tokens(tokens: int) -> str:
    """``128k``, ``1M``: a window as people say it. Windows that are multiples of 8,192 are
    binary sizes (131,072 is "128k"); others decimal (128,000 is "128k" too)."""
    base = 1024 if tokens % 8192 == 0 else 1000
    if tokens >= base * base:
        millions = round(tokens / (base * base), 1)
        return f"{millions:g}M"
    if tokens >= base:
        return f"{tokens // base}k"
    return str(tokens)


def short_dollars(dollars: float) -> str:
    """``$10``, ``$2.50``, ``$0.075``: as few digits as say the price exactly."""
    text = f"{dollars:.3f}".rstrip("0")
    if text.endswith("."):
        return f"${text[:-1]}"
    whole, _, cents = text.partition(".")
    return f"${whole}.{cents.ljust(2, '0')}"


@dataclass(frozen=True)
class Group:
    """A header and its rows: ``provider`` None is the Recent group."""

    provider: ProviderModels | None
    specs: tuple[str, ...]


@dataclass(frozen=True)
class Arrangement:
    groups: tuple[Group, ...]
    best: str | None = None  # the row to select first: the best match (or the current model)
    typed: str | None = None  # a provider:model typed in full that no row is
    typed_first: bool = False  # nothing listed begins with it: taking it as typed is likely


def arrange(query: str, snapshot: Snapshot, current: str = "") -> Arrangement:
    """The groups the picker shows for ``query``: Recent first, then each provider, each
    with the models the query fuzzily matches (best first; all of them, in their own order,
    when it is empty). Groups with nothing to show are left out, except a provider's while
    the query is empty (its header offers a key or a refresh)."""
    query = query.strip()
    lists = [(None, snapshot.recent), *((p, p.specs) for p in snapshot.providers)]
    groups: list[Group] = []
    top: list[tuple[int, str]] = []  # each group's best row
    for provider, specs in lists:
        ranked = fuzzy_rank(query, specs) if query else [(spec, 0) for spec in specs]
        if ranked or (provider is not None and not query):
            groups.append(Group(provider, tuple(spec for spec, _ in ranked)))
        top.extend((score, spec) for spec, score in ranked[:1])
    listed = {spec for _, specs in lists for spec in specs}
    if query:  # the best match; of equals, the first shown (Recent's, the likelier wish)
        best = max(top, key=lambda pair: pair[0], default=(0, None))[1]
    else:
        best = current if current in listed else next((s for _, s in top), None)
    typed = typed_spec(query, [p.name for p in snapshot.providers], listed)
    first = typed is not None and not any(s.lower().startswith(query.lower()) for s in listed)
    return Arrangement(tuple(groups), best, typed, first)


def typed_spec(query: str, providers: Sequence[str], listed: set[str]) -> str | None:
    """``query`` when it names a model in full (``provider:model`` of a provider there is)
    that is not listed: any model a provider serves can be picked by typing its name."""
    name, colon, model = query.partition(":")
    if colon and name in providers and model.strip() and query not in listed:
        return query
    return None


@dataclass
class ModelCatalog:
    """The models of the current settings (``services.settings`` and ``models`` are replaced
    when the settings change: they are read anew each time)."""

    services: Services
    servers: ServerModels = field(init=False)

    def __post_init__(self) -> None:
        self.servers = ServerModels(self.services.data)

    def snapshot(self, keys: Mapping[str, KeyStatus] | None = None) -> Snapshot:
        """Every provider with its models and cached server list, and the recent models;
        the key statuses given (or none yet: ``key_statuses`` reads them)."""
        configs = self.services.settings.all_providers()
        providers = []
        for entry in self.services.models.entries():
            config = configs.get(entry.name)
            kind = config.kind if config else (LOCAL if entry.name == LOCAL else "")
            base_url = self.base_url(entry.name)
            server = None
            if base_url is not None and kind == SERVER_KIND:
                server = self.servers.cached(entry.name, base_url)
            providers.append(
                ProviderModels(
                    entry.name,
                    kind,
                    tuple(f"{entry.name}:{model}" for model in entry.models),
                    (keys or {}).get(entry.name),
                    entry.any_model,
                    base_url,
                    server,
                )
            )
        return Snapshot(tuple(providers), tuple(self.recent(providers)))

    def key_statuses(self) -> dict[str, KeyStatus]:
        """Where each provider's key comes from. Reads the OS keyring, which may be slow or
        ask to be unlocked: once per opening of a picker, off the UI thread."""
        configs = self.services.settings.all_providers()
        statuses = {}
        for entry in self.services.models.entries():
            config = configs.get(entry.name)
            if config is None:  # the built-in model, or one a test or plug-in made
                statuses[entry.name] = KeyStatus("not needed")
                continue
            key = self.services.keys.lookup(entry.name, config.kind)
            source = key.source if key else None
            statuses[entry.name] = key_status(source, entry.name, config.kind, config.key_required)
        return statuses

    def recent(self, providers: Sequence[ProviderModels], limit: int = RECENT) -> list[str]:
        """The models that replied last, newest first, that can still be picked: of providers
        there still are, and listed where a provider serves only what it lists."""
        try:
            used = self.services.library.index.recent_models(limit * 3)
        except (CrosstalkError, sqlite3.DatabaseError):  # a damaged index: no recents, no fall
            return []
        by_name = {p.name: p for p in providers}
        specs = []
        for name, model in used:
            provider = by_name.get(name)
            spec = f"{name}:{model}"
            if provider and (provider.any_model or spec in provider.configured):
                specs.append(spec)
        return specs[:limit]

    def base_url(self, name: str) -> str | None:
        """The base URL the provider's adapter uses (settings, else the environment)."""
        config = self.services.settings.all_providers().get(name)
        if config is None:
            return None
        family = KIND_FAMILY.get(config.kind, name)
        environ = self.services.environ
        return config.base_url or environ.get(BASE_URL_ENVIRONMENT.get(family, "")) or None

    def facts(self, spec: str) -> ModelFacts:
        name, _, model = spec.partition(":")
        settings = self.services.settings
        config = settings.all_providers().get(name)
        server = config is not None and config.kind == SERVER_KIND
        overrides = settings.context_windows
        window = context_window(spec, None, model, overrides, server=server)
        bare = model.rsplit("/", 1)[-1]
        known = spec in overrides or any(bare.startswith(prefix) for prefix, _ in KNOWN_WINDOWS)
        found = self.services.prices.match(name, model)
        return ModelFacts(window, known, found.price if found else None)

    def refresh(self, name: str) -> ServerList:
        """Ask the provider's server what it serves, with its key if it has one; blocking
        (run it off the UI thread). Never raises: errors are the list's ``error``."""
        base_url = self.base_url(name)
        if base_url is None:
            return ServerList(
                "",
                error=f"{name} has no base_url in the settings: nothing to ask",
            )
        config = self.services.settings.all_providers().get(name)
        keys = self.services.keys
        key = keys.lookup(name, config.kind if config else None)
        return self.servers.refresh(name, base_url, key.value if key else None, keys.secrets())


def provider_line(provider: ProviderModels) -> str:
    """``openai  (openai, key from keyring, BASE_URL)``: a provider in ``crosstalk models``."""
    if provider.kind in (LOCAL, ""):
        return f"{provider.name}  (built in, offline)"
    status = provider.key
    if status is None or status.state == "missing":
        where = f"no key: crosstalk key set {provider.name}"
    elif status.state == "not needed":
        where = "no key needed"
    else:
        where = f"key from {status.source or status.state}"
    url = f", {provider.base_url}" if provider.base_url else ""
    return f"{provider.name}  ({provider.kind}, {where}{url})"


def local_time(iso: str) -> str:
    """``2026-11-27 11:02``: a stored UTC time as the user's clock shows it."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def describe(facts: ModelFacts) -> str:
    """``128k ctx · $2.50/$10 per M``, in English (the window translates its own)."""
    window = ("" if facts.window_known else "≈") + f"{short_tokens(facts.window)} ctx"
    if facts.price is None:
        return window
    if facts.price.input == facts.price.output == 0:
        return f"{window} · free"
    price = f"{short_dollars(facts.price.input)}/{short_dollars(facts.price.output)}"
    return f"{window} · {price} per M"
