"""What the model picker and ``crosstalk models`` show: key statuses, recent models, each
model's window and price, and the groups a query arranges."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend

from app.composition import Services, build
from app.history import ModelInput, ModelOutput
from app.model_catalog import (
    KeyStatus,
    ModelCatalog,
    ProviderModels,
    Snapshot,
    arrange,
    describe,
    key_status,
    short_dollars,
    short_tokens,
)
from app.paths import DataDir
from app.server_models import ServerList

SETTINGS = """
[providers.ollama]
kind = "openai-compatible"
base_url = "http://127.0.0.1:11434/v1"
models = ["llama3.2"]

[providers.gateway]
kind = "openai-compatible"
base_url = "http://127.0.0.1:8000/v1"
needs_key = true
"""


@pytest.fixture
def services(data_dir: DataDir) -> Iterator[Services]:
    data_dir.ensure()
    data_dir.settings_file.write_text(SETTINGS)
    built = build(data_dir, {"OPENAI_API_KEY": "sk-test-0123456789abcdef"})
    yield built
    built.close()


class MemoryKeyring(KeyringBackend):
    """A keyring that keeps passwords in a dict: keyring's own plug-in interface, so
    ``Keys`` reads it exactly as it reads the Secret Service."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        del self.passwords[(service, username)]


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    before = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    yield memory
    keyring.set_keyring(before)


# --- key statuses --------------------------------------------------------------------------


def test_each_provider_says_where_its_key_comes_from(
    services: Services, memory_keyring: MemoryKeyring
) -> None:
    memory_keyring.set_password("crosstalk", "anthropic", "sk-ant-kept-in-the-keyring-0123")
    statuses = ModelCatalog(services).key_statuses()
    assert {name: status.label() for name, status in statuses.items()} == {
        "local": "not needed",  # the built-in model
        "openai": "environment (OPENAI_API_KEY)",
        "anthropic": "keyring",
        "gemini": "missing",
        "ollama": "not needed",  # an OpenAI-compatible server needs none unless it says so
        "gateway": "missing",  # ... and this one says so
    }


def test_a_source_keys_does_not_name_is_shown_as_it_is() -> None:
    assert key_status("session", "openai", "openai", True) == KeyStatus("other", "session")
    assert KeyStatus("other", "session").label() == "session"
    assert key_status("GOOGLE_API_KEY", "gemini", "gemini", True).label() == (
        "environment (GOOGLE_API_KEY)"
    )
    assert key_status(None, "ollama", "openai-compatible", False).label() == "not needed"


def test_the_keyring_is_read_once_per_snapshot_not_per_query(
    services: Services, memory_keyring: MemoryKeyring
) -> None:
    reads: list[str] = []
    original = memory_keyring.get_password

    def counted(service: str, username: str) -> str | None:
        reads.append(username)
        return original(service, username)

    memory_keyring.get_password = counted  # type: ignore[method-assign]
    catalog = ModelCatalog(services)
    snapshot = catalog.snapshot(catalog.key_statuses())
    assert sorted(reads) == sorted(["openai", "anthropic", "gemini", "ollama", "gateway"])
    for query in ("g", "gp", "gpt", "gpt4", ""):
        arrange(query, snapshot)
    assert len(reads) == 5


# --- recent models -------------------------------------------------------------------------


def reply(services: Services, provider: str, model: str, day: int) -> str:
    library = services.library
    conversation = library.create()
    ts = f"2030-01-{day:02d}T00:00:00+00:00"  # after the conversation's creation
    library.append(conversation, ModelInput(text="question", ts=ts))
    library.append(conversation, ModelOutput(provider=provider, model=model, text="a", ts=ts))
    return conversation.id


def test_recent_models_are_distinct_newest_first_and_still_pickable(services: Services) -> None:
    reply(services, "openai", "gpt-4.1", 1)
    pinned = reply(services, "anthropic", "claude-sonnet-5-5", 2)
    reply(services, "openai", "gpt-5", 3)
    reply(services, "gone", "model", 4)  # a provider since removed from the settings
    reply(services, "local", "not-the-built-in-one", 5)  # the built-in serves only its own
    reply(services, "ollama", "qwen3:8b", 6)  # not listed, but a server serves what it has
    reply(services, "openai", "gpt-4.1", 7)
    services.library.pin(pinned)  # pinned conversations count by when they were used too

    snapshot = ModelCatalog(services).snapshot()

    assert snapshot.recent == (
        "openai:gpt-4.1",
        "ollama:qwen3:8b",
        "openai:gpt-5",
        "anthropic:claude-sonnet-5-5",
    )


def test_recent_models_read_the_index_through_its_index(services: Services) -> None:
    """With 100k conversations a scan of them all would show on every opening."""
    index = services.library.index
    sql = (
        "EXPLAIN QUERY PLAN SELECT provider, model, updated_at FROM conversations "
        "WHERE pinned = 0 AND model IS NOT NULL ORDER BY updated_at DESC LIMIT 10"
    )
    plan = " ".join(str(row[-1]) for row in index.conn.execute(sql).fetchall())
    assert "USING INDEX" in plan and "TEMP B-TREE" not in plan
    assert index.recent_models() == []


# --- windows and prices --------------------------------------------------------------------


def test_window_and_price_read_as_people_say_them(services: Services) -> None:
    catalog = ModelCatalog(services)
    assert describe(catalog.facts("openai:gpt-4o")) == "128k ctx · $2.50/$10 per M"
    assert describe(catalog.facts("openai:gpt-4.1")) == "1M ctx · $2/$8 per M"
    assert describe(catalog.facts("local:smollm2")) == "8k ctx · free"
    assert describe(catalog.facts("ollama:llama3.2")) == "≈8k ctx"  # a guess, and no price
    assert [short_tokens(n) for n in (500, 8_192, 16_385, 131_072, 128_000, 2_097_152)] == [
        "500", "8k", "16k", "128k", "128k", "2M",
    ]  # fmt: skip
    assert [short_dollars(d) for d in (10, 2.5, 0.075, 1.25, 0.4)] == [
        "$10", "$2.50", "$0.075", "$1.25", "$0.40",
    ]  # fmt: skip


# --- arranging for a query -----------------------------------------------------------------

SNAPSHOT = Snapshot(
    providers=(
        ProviderModels("openai", "openai", ("openai:gpt-4.1", "openai:gpt-4o-mini")),
        ProviderModels(
            "ollama",
            "openai-compatible",
            ("ollama:llama3.2",),
            server=ServerList("http://x/v1", ("llama3.2", "qwen3:8b"), "2030-01-01T00:00:00"),
        ),
    ),
    recent=("ollama:qwen3:8b", "openai:gpt-4.1"),
)


def shown(query: str, current: str = "") -> list[tuple[str, list[str]]]:
    found = arrange(query, SNAPSHOT, current)
    return [(g.provider.name if g.provider else "Recent", list(g.specs)) for g in found.groups]


def test_recent_comes_first_and_a_server_adds_what_it_serves() -> None:
    assert shown("") == [
        ("Recent", ["ollama:qwen3:8b", "openai:gpt-4.1"]),
        ("openai", ["openai:gpt-4.1", "openai:gpt-4o-mini"]),
        ("ollama", ["ollama:llama3.2", "ollama:qwen3:8b"]),  # llama3.2 once
    ]
    assert arrange("", SNAPSHOT, "openai:gpt-4o-mini").best == "openai:gpt-4o-mini"


def test_a_query_keeps_the_groups_with_matches_and_selects_the_best() -> None:
    assert shown("qw") == [("Recent", ["ollama:qwen3:8b"]), ("ollama", ["ollama:qwen3:8b"])]
    assert shown("4o") == [("openai", ["openai:gpt-4o-mini"])]
    assert arrange("mini", SNAPSHOT).best == "openai:gpt-4o-mini"
    assert shown("zzz") == []


def test_a_model_typed_in_full_can_be_picked_as_typed() -> None:
    typed = arrange("ollama:qwen3:32b", SNAPSHOT)
    assert typed.typed == "ollama:qwen3:32b" and typed.typed_first  # nothing begins so
    partial = arrange("openai:gpt-4", SNAPSHOT)  # a listed name begins so: that is likelier
    assert partial.typed == "openai:gpt-4" and not partial.typed_first
    assert partial.best == "openai:gpt-4.1"
    assert arrange("openai:gpt-4.1", SNAPSHOT).typed is None  # listed
    assert arrange("nowhere:model", SNAPSHOT).typed is None  # no such provider
    assert arrange("qwen3:8b", SNAPSHOT).typed is None  # no provider named "qwen3"
