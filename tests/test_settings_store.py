from __future__ import annotations

import os
import stat

import msgspec
import pytest

from app.errors import StorageError
from app.paths import DataDir
from app.settings import DEFAULT_PROVIDERS, ProviderConfig, Settings, SettingsError, load_settings
from app.settings_store import save_settings

EDITED = Settings(
    default_model="ollama:llama3.2",
    title_model="openai:gpt-4.1-mini",
    window_turns=7,
    max_tool_rounds=3,
    providers={
        "ollama": ProviderConfig(
            kind="openai-compatible", base_url="http://127.0.0.1:11434/v1", models=["llama3.2"]
        ),
        "keyed_box": ProviderConfig(
            kind="openai-compatible", base_url="https://x.example/v1", needs_key=True
        ),
        "openai": ProviderConfig(kind="openai", models=["gpt-5"]),  # overrides a built-in
    },
)


@pytest.mark.parametrize("settings", [Settings(), EDITED], ids=["defaults", "edited"])
def test_load_reads_back_exactly_what_was_saved(data_dir: DataDir, settings: Settings) -> None:
    save_settings(data_dir, settings)
    assert load_settings(data_dir) == settings


def test_the_file_is_private_and_no_temp_file_is_left(data_dir: DataDir) -> None:
    save_settings(data_dir, EDITED)
    save_settings(data_dir, Settings(window_turns=2))  # replaces, never appends
    assert stat.S_IMODE(os.stat(data_dir.settings_file).st_mode) == 0o600
    assert [p.name for p in data_dir.root.iterdir() if p.is_file()] == ["settings.toml"]
    assert load_settings(data_dir) == Settings(window_turns=2)


def test_only_changes_are_written_so_better_defaults_reach_everyone(data_dir: DataDir) -> None:
    save_settings(data_dir, Settings(window_turns=5))
    assert data_dir.settings_file.read_text() == "window_turns = 5\n"
    save_settings(data_dir, Settings(providers={"openai": DEFAULT_PROVIDERS["openai"]}))
    text = data_dir.settings_file.read_text()
    assert "null" not in text and "base_url" not in text and "window_turns" not in text


def test_keys_a_newer_version_wrote_are_kept(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text('window_turns = 3\nfuture_theme = "dark"\n')
    save_settings(data_dir, Settings(window_turns=4))
    assert msgspec.toml.decode(data_dir.settings_file.read_bytes()) == {
        "future_theme": "dark",
        "window_turns": 4,
    }


def test_a_broken_old_file_is_never_replaced(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text("window_turns = 3\n[[[\n")
    with pytest.raises(SettingsError) as raised:
        save_settings(data_dir, EDITED)
    assert str(raised.value) == (
        f"settings not saved: {data_dir.settings_file}, line 2: Invalid initial character for "
        "a key part; fix it or move it away, then save again"
    )
    assert data_dir.settings_file.read_text() == "window_turns = 3\n[[[\n"  # the user's edit
    assert [p.name for p in data_dir.root.glob("settings*")] == ["settings.toml"]


def test_a_failed_save_says_where_and_leaves_the_old_file(
    data_dir: DataDir, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_settings(data_dir, Settings(window_turns=9))

    def full_disk(src: str, dst: str) -> None:  # the rename is where a crash would land
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(StorageError, match=r"could not save .*settings\.toml \(No space left"):
        save_settings(data_dir, EDITED)
    monkeypatch.undo()
    assert load_settings(data_dir) == Settings(window_turns=9)
    assert [p.name for p in data_dir.root.iterdir() if p.is_file()] == ["settings.toml"]
