from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import msgspec
import pytest

from app.errors import StorageError
from app.paths import DataDir
from app.pricing import Price
from app.settings import DEFAULT_PROVIDERS, ProviderConfig, Settings, SettingsError, load_settings
from app.settings_store import save_settings, update_settings

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


def test_an_update_changes_the_file_as_it_is_now_not_a_copy_read_before(data_dir: DataDir) -> None:
    opened = load_settings(data_dir)  # e.g. when the Settings dialog opened
    save_settings(data_dir, Settings(window_turns=5))  # another process, meanwhile
    after = update_settings(data_dir, lambda now: msgspec.structs.replace(now, enter_sends=False))
    assert after == load_settings(data_dir) == Settings(window_turns=5, enter_sends=False)
    assert opened == Settings()
    before = data_dir.settings_file.stat().st_mtime_ns
    assert update_settings(data_dir, lambda now: now) == after  # no change: not written
    assert data_dir.settings_file.stat().st_mtime_ns == before


def test_an_update_to_a_broken_file_changes_nothing(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text("window_turns = 3\n[[[\n")
    with pytest.raises(SettingsError, match=r"settings not saved: .*line 2"):
        update_settings(data_dir, lambda now: msgspec.structs.replace(now, window_turns=4))
    assert data_dir.settings_file.read_text() == "window_turns = 3\n[[[\n"


def _add_prices(root: str, writer: int, count: int) -> None:
    data = DataDir(Path(root))
    for n in range(count):
        pattern = f"w{writer}-{n}:*"
        update_settings(
            data,
            lambda now, p=pattern: msgspec.structs.replace(  # type: ignore[misc]
                now, prices={**now.prices, p: Price(input=1.0, output=2.0)}
            ),
        )


def test_processes_updating_at_once_each_keep_what_the_others_saved(data_dir: DataDir) -> None:
    """Four processes add 25 prices each, every one a read-change-write of the whole file:
    without the lock, a write from a copy read before another's write drops that one."""
    context = multiprocessing.get_context("spawn")
    writers = [
        context.Process(target=_add_prices, args=(str(data_dir.root), w, 25)) for w in range(4)
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    prices = load_settings(data_dir).prices
    assert sorted(prices) == sorted(f"w{w}-{n}:*" for w in range(4) for n in range(25))
