"""The composition root: settings, keys, the library and the providers, built once, passed down."""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.keys import BASE_URL_ENVIRONMENT, KIND_FAMILY, Keys
from app.paths import DataDir
from app.providers import Models, Provider
from app.providers.registry import ProviderEntry
from app.settings import LOCAL, ProviderConfig, Settings, settings_or_defaults
from app.store import Library

if TYPE_CHECKING:  # each imported where it is first used: ``ask`` uses few of them
    from app.attachments.sending import Sending
    from app.context import Contexts
    from app.mcp import McpManager
    from app.pricing import PriceTable
    from app.tools import ToolBox
    from app.turn import TurnRunner
    from app.turn.knowledge import Searcher


@dataclass
class Services:
    data: DataDir
    settings: Settings
    keys: Keys
    library: Library
    models: Models
    _contexts: tuple[Settings, Contexts] | None = field(default=None, init=False, repr=False)
    # where base URLs may come from (``OPENAI_BASE_URL`` ...), as the models were built with
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ, repr=False)
    _prices: tuple[Settings, PriceTable] | None = field(default=None, init=False, repr=False)
    # why the defaults are in use: settings.toml exists but cannot be used (file and line)
    settings_problem: str | None = None
    _renderers: tuple[Settings, dict[str, Provider]] | None = field(
        default=None, init=False, repr=False
    )
    _mcp: McpManager | None = field(default=None, init=False, repr=False)
    _toolbox: tuple[int, ToolBox] | None = field(default=None, init=False, repr=False)
    _sending: tuple[Settings, Sending] | None = field(default=None, init=False, repr=False)
    _runner: tuple[tuple[object, ...], TurnRunner] | None = field(
        default=None, init=False, repr=False
    )
    _searcher: tuple[Settings, Searcher] | None = field(default=None, init=False, repr=False)

    @property
    def mcp(self) -> McpManager:
        """The MCP servers of this process: built on first use; no server starts until a
        tool, prompt or resource of it is needed."""
        if self._mcp is None:
            from app.mcp import McpManager

            self._mcp = McpManager(self.data, self.keys, self.environ)
        return self._mcp

    @property
    def toolbox(self) -> ToolBox:
        """The built-ins and each usable server in mcp.json, rebuilt when mcp.json changes.
        An unreadable mcp.json leaves the built-ins alone, with a warning. Without mcp.json,
        the built-ins alone, and nothing of MCP is imported."""
        from app.tools import BuiltinSource, ToolBox

        try:
            mtime_ns = self.data.mcp_file.stat().st_mtime_ns
        except OSError:
            mtime_ns = 0  # as ``McpManager.config`` reads a missing file: no servers
        if mtime_ns == 0:
            if self._toolbox is None or self._toolbox[0] != 0:
                self._toolbox = (0, ToolBox([BuiltinSource()]))  # no server of it to stop
            return self._toolbox[1]
        from app.mcp import ConfigError
        from app.mcp.source import McpSource
        from app.tools import ToolSource

        manager = self.mcp
        try:
            config = manager.config
        except ConfigError as exc:
            if str(exc) not in self.library.warnings:
                self.library.warnings.append(str(exc))
            return ToolBox([BuiltinSource()], close=manager.close)
        if self._toolbox is None or self._toolbox[0] != config.mtime_ns:
            sources: list[ToolSource] = [BuiltinSource()]
            sources += [McpSource(manager, name) for name in config.servers]
            self._toolbox = (config.mtime_ns, ToolBox(sources, close=manager.close))
        return self._toolbox[1]

    @property
    def contexts(self) -> Contexts:
        """Context policies and token counts, rebuilt when the settings object is replaced
        (the window's settings dialog does that); the counts made so far are kept."""
        if self._contexts is None or self._contexts[0] is not self.settings:
            contexts = build_contexts(self.data, self.settings, self.library)
            if self._contexts is not None:
                contexts.counter = self._contexts[1].counter
            elif contexts.store is not None and contexts.store.problem:
                self.library.warnings.append(contexts.store.problem)
            self._contexts = (self.settings, contexts)
        return self._contexts[1]

    @property
    def prices(self) -> PriceTable:
        """The price table of the current settings (the dialog replaces the settings object)."""
        if self._prices is None or self._prices[0] is not self.settings:
            from app.pricing import PriceTable

            self._prices = (self.settings, PriceTable(self.settings.prices))
        return self._prices[1]

    def renderer(self, spec: str) -> tuple[Provider, str]:
        """The adapter of ``provider:model`` built to *render* requests only, and the model.

        No key is looked up (the inspector shows the next request before one is set), so it
        must never stream; its base URL is the one the real adapter gets, since the body can
        depend on it. The adapter's module is imported here; an SDK only when its render
        needs one (``inspect.next_request.prepare`` does that off the event loop). Raises
        ``UnknownModel``, listing the models there are.
        """
        name, _, model = spec.partition(":")
        entry = next((e for e in self.models.entries() if e.name == name), None)
        if entry is None or not model or (not entry.any_model and model not in entry.models):
            self.models.resolve(spec)  # raises, listing the models there are
        if self._renderers is None or self._renderers[0] is not self.settings:
            self._renderers = (self.settings, {})
        built = self._renderers[1]
        if name not in built:
            configs = self.settings.all_providers()
            if name in configs:
                built[name] = adapter(name, configs[name], "", self.environ)
            elif name == LOCAL:
                built[name] = _local()  # it loads its model only when asked to generate
            else:  # a provider the models were given ready-made (tests, plug-ins): no key
                return self.models.resolve(spec)
        return built[name], model

    @property
    def sending(self) -> Sending:
        """Attachments fitted to each provider, by the current settings' kinds and vision
        models (rebuilt when the settings object is replaced)."""
        if self._sending is None or self._sending[0] is not self.settings:
            from app.attachments.sending import Sending

            kinds = {name: config.kind for name, config in self.settings.all_providers().items()}
            made = Sending(self.library.blobs, kinds, self.settings.vision_models)
            self._sending = (self.settings, made)
        return self._sending[1]

    @property
    def runner(self) -> TurnRunner:
        """What runs turns: built once, and again only when the settings or the models are
        replaced (the window's settings dialog does both) or mcp.json changes (the toolbox)."""
        parts = (self.library, self.settings, self.models, self.toolbox)
        built = self._runner
        if built is None or any(a is not b for a, b in zip(built[0], parts, strict=True)):
            built = self._runner = (parts, self._runner_with(self.toolbox))
        return built[1]

    def runner_for(self, enabled: Sequence[str]) -> TurnRunner:
        """The runner of a turn that enables the tools ``enabled``: when they are built-ins
        (or none), one with the built-ins alone, so the turn reads no mcp.json and imports
        nothing of MCP; else ``runner``."""
        from app.tool_names import BUILTIN_NAMES

        if not set(enabled) <= set(BUILTIN_NAMES):
            return self.runner
        from app.tools import ToolBox

        return self._runner_with(ToolBox.builtin())

    def _runner_with(self, toolbox: ToolBox) -> TurnRunner:
        from app.turn import TurnRunner, TurnSettings, recall_of
        from app.turn.knowledge import KnowledgeStep

        settings = self.settings
        rewrite = settings.recall_model or settings.title_model
        knowledge = KnowledgeStep(
            self.data, rewrite, settings.knowledge_passages, settings.knowledge_share,
            self.prices, self.searcher,
        )  # fmt: skip
        return TurnRunner.build(
            self.library, self.models, self.contexts, self.sending, toolbox,
            settings=TurnSettings.from_settings(settings),
            recall=recall_of(rewrite), knowledge=knowledge,
        )  # fmt: skip

    @property
    def searcher(self) -> Searcher:
        """The knowledge base as turns search it: one connection on a thread of its own, with
        the embedder of the settings' ``embedding_model`` (none: by words alone; one that
        cannot be made is a warning, and words alone). Made again when the settings object
        is replaced; nothing is opened until a turn searches."""
        if self._searcher is None or self._searcher[0] is not self.settings:
            from app.turn.knowledge import Searcher

            if self._searcher is not None:
                self._searcher[1].close()
            embedder = None
            if self.settings.embedding_model:
                from app.errors import CrosstalkError
                from app.providers.embeddings import embedder_for

                try:
                    embedder = embedder_for(self.settings, self.keys, self.environ)
                except CrosstalkError as exc:
                    if str(exc) not in self.library.warnings:
                        self.library.warnings.append(str(exc))
            self._searcher = (self.settings, Searcher(self.data, embedder))
        return self._searcher[1]

    def close(self) -> None:
        if self._mcp is not None:
            self._mcp.close()
        if self._searcher is not None:
            self._searcher[1].close()
        self.library.close()


def build_contexts(data: DataDir, settings: Settings, library: Library | None = None) -> Contexts:
    """Context policies (defaults from settings; each conversation's own, kept in its
    transcript, where the library is given), the models' windows and the token counts,
    shared by every turn."""
    from app.context import Contexts, PolicyStore

    store = PolicyStore(library) if library is not None else None
    kinds = {name: config.kind for name, config in settings.all_providers().items()}
    return Contexts(settings.context_policy(), store, settings.context_windows, kinds)


def _local() -> Provider:
    from app.providers.local import LocalProvider

    return LocalProvider()


# One adapter per wire protocol, imported on first use (each SDK is slow to import).
ADAPTERS: dict[str, tuple[str, str]] = {
    "openai": ("app.providers.openai_chat", "OpenAIChatProvider"),
    "openai-compatible": ("app.providers.openai_chat", "OpenAIChatProvider"),
    "openai-responses": ("app.providers.openai_responses", "OpenAIResponsesProvider"),
    "anthropic": ("app.providers.anthropic_messages", "AnthropicProvider"),
    "gemini": ("app.providers.gemini", "GeminiProvider"),
}


def cloud_provider(
    name: str, config: ProviderConfig, keys: Keys, environ: Mapping[str, str]
) -> Provider:
    """Construct one cloud adapter; its SDK is imported here, on first use."""
    key = keys.lookup(name, config.kind)
    if key is None and config.key_required:
        raise keys.missing(name, config.kind)
    return adapter(name, config, key.value if key else "not-needed", environ)


def adapter(
    name: str, config: ProviderConfig, api_key: str, environ: Mapping[str, str]
) -> Provider:
    """The adapter of ``config.kind`` with its base URL from the config or the environment."""
    family = KIND_FAMILY.get(config.kind, name)
    base_url = config.base_url or environ.get(BASE_URL_ENVIRONMENT.get(family, "")) or None
    module_name, class_name = ADAPTERS[config.kind]
    made = getattr(importlib.import_module(module_name), class_name)
    provider: Provider = made(name, config.models, api_key, base_url)
    return provider


def build_models(settings: Settings, keys: Keys, environ: Mapping[str, str]) -> Models:
    from app.providers.local import MODEL_NAME

    entries = [ProviderEntry(LOCAL, [MODEL_NAME], _local, any_model=False)]
    for name, config in settings.all_providers().items():

        def build(name: str = name, config: ProviderConfig = config) -> Provider:
            return cloud_provider(name, config, keys, environ)

        entries.append(ProviderEntry(name, config.models, build))
    return Models(entries)


def build(
    data: DataDir | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    reconcile: bool = True,
    library: Library | None = None,
    environment_first: bool = False,
) -> Services:
    """Everything the CLI or the window needs; the window reconciles later, off its UI thread.
    The window opens its ``library`` before its first paint (``ui/shell/app.py``) and passes
    it here after. ``environment_first``: keys from the environment before the keyring's (the
    command line's order, ``Keys``)."""
    environ = os.environ if environ is None else environ
    data = data or DataDir.default()
    settings, problem = settings_or_defaults(data)
    keys = Keys(environ, environment_first=environment_first)
    library = library or Library(data, reconcile=reconcile)
    if problem:
        library.warnings.append(problem)
    models = build_models(settings, keys, environ)
    services = Services(data, settings, keys, library, models, environ=environ)
    services.settings_problem = problem
    return services
