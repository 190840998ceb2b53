from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli import output as cli_output
from app.cli.main import main
from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.settings import Settings, SettingsError, load_settings
from app.settings_store import save_settings
from app.store import Library
from tests.helpers.unprivileged import CLI, run_unprivileged, shared_root


def test_defaults_without_a_file(data_dir: DataDir) -> None:
    assert load_settings(data_dir) == Settings()
    assert (
        Settings().default_model == "local:smollm2" and Settings().window_turns is None
    )  # the budget decides


def test_values_from_the_toml_file(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text('window_turns = 3\nsome_future_setting = "kept quiet"\n')
    assert load_settings(data_dir) == Settings(window_turns=3)


@pytest.mark.parametrize("content", ["window_turns = 0\n", "window_turns = 'many'\n", "[[[\n"])
def test_a_bad_file_names_itself_and_its_line(data_dir: DataDir, content: str) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text(content)
    with pytest.raises(SettingsError, match=r"settings\.toml, line 1: .*; fix it or move it away$"):
        load_settings(data_dir)


def test_the_cli_reports_bad_settings_in_one_line_and_goes_on(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text("window_turns = 0\n")
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "list"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stderr.splitlines(keepends=True)[0] == (
        f"crosstalk: warning: {data_dir.settings_file}, line 1: window_turns must be at least 1; "
        "fix it or move it away (the default settings are used until then)\n"
    )


# --- a settings.toml that cannot be used never blocks reading or chatting ---------------


@pytest.fixture(autouse=True)
def _each_command_warns_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line warns once per process; here one process runs many commands."""
    monkeypatch.setattr("app.cli.output._warned", set())


BROKEN: list[tuple[str, str, str]] = [  # content, what is said, where
    ("window_turns = \n", "Invalid value", ", line 1"),
    (
        'default_model = "local:smollm2"\nwindow_turns = "many"\n',
        "Expected `int | null`",
        ", line 2",
    ),
    ("\n\n[providers.Ollama]\nkind = 'openai-compatible'\n", "provider name 'Ollama'", ", line 3"),
    ('[providers.a]\nkind = "openai"\n[providers.b]\nkind = "nope"\n', "'nope'", ""),
    ('[context_windows]\n"ollama:x" = 0\n', "context_windows: 'ollama:x' = 0", ", line 2"),
    ('title_model = "local:smollm2"\nx = "\xff"\n', "byte 0xff is not UTF-8", ", line 2"),
]


@pytest.mark.parametrize(("content", "said", "where"), BROKEN)
def test_a_broken_settings_file_is_reported_with_its_line(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], content: str, said: str, where: str
) -> None:
    """Where the file names no single line (two providers, either may be the one), none is
    guessed."""
    data_dir.ensure()
    data_dir.settings_file.write_bytes(content.encode("latin-1"))
    assert main(["list"]) == 0
    [line] = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert line.startswith(f"crosstalk: warning: {data_dir.settings_file}{where}: "), line
    assert said in line and line.endswith("(the default settings are used until then)")


def broken_toml(path: Path) -> None:
    path.write_text('window_turns = 3\n[providers.ollama\nkind = "openai-compatible"\n')


def folder(path: Path) -> None:
    path.mkdir()
    (path / "settings.toml").write_text("window_turns = 3\n")


def pipe(path: Path) -> None:
    os.mkfifo(path)


def dangling_link(path: Path) -> None:
    path.symlink_to(path.with_name("dotfiles") / "settings.toml")


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (broken_toml, ", line 2: "),
        (folder, " is a folder, not a settings file; move it away"),
        (pipe, " is not a regular file; move it away"),
        (dangling_link, " links to "),
    ],
    ids=lambda v: v.__name__ if callable(v) else "",
)
def test_reading_commands_work_on_the_defaults_and_saving_refuses(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], make: Callable[[Path], None], said: str
) -> None:
    conversation_id = seeded(data_dir)
    make(data_dir.settings_file)
    snapshot = tree(data_dir.settings_file)
    for command in READING:
        cli_output._warned.clear()  # each command as its own process: it warns once
        code = main([a.format(id=conversation_id) for a in command])
        out, err = capsys.readouterr()
        assert code == 0, (command, err)
        assert f"{data_dir.settings_file}{said}" in err and "Traceback" not in err, err
        if command[0] in ("show", "export", "search"):
            assert "quokka" in out, (command, out)

    with pytest.raises(SettingsError, match=r"^settings not saved: .*, then save again$"):
        save_settings(data_dir, Settings(window_turns=3))
    assert tree(data_dir.settings_file) == snapshot  # the user's file is theirs to fix
    assert [p.name for p in data_dir.root.glob("settings*")] == ["settings.toml"]


def test_an_unreadable_settings_file_is_reported_and_reading_goes_on() -> None:
    """Permission bits, for real: as a user they apply to (root reads any file)."""
    with shared_root() as root:
        data = DataDir(root / "home")
        conversation_id = seeded(data)
        data.settings_file.write_text("window_turns = 3\n")
        data.settings_file.chmod(0)

        listed = run_unprivileged(CLI, "list", home=data.root)
        shown = run_unprivileged(CLI, "show", conversation_id, home=data.root)

        assert listed.returncode == 0 and conversation_id in listed.stdout, listed.stderr
        assert shown.returncode == 0 and "quokka" in shown.stdout, shown.stderr
        for done in (listed, shown):
            assert done.stderr == (
                f"crosstalk: warning: {data.settings_file} cannot be read (Permission denied); "
                f"fix its permissions (chmod 600 {data.settings_file}) "
                "(the default settings are used until then)\n"
            )
        assert data.settings_file.read_bytes() == b"window_turns = 3\n"  # as root, again


READING = [
    ["list"], ["list", "--json"], ["show", "{id}"], ["show", "{id}", "--entries"],
    ["search", "quokka"], ["usage"], ["models"], ["export", "{id}"], ["trash"],
]  # fmt: skip


def seeded(data: DataDir) -> str:
    library = Library(data)
    try:
        conversation = library.create()
        library.append(conversation, ModelInput(text="Where does the quokka live?"))
        library.append(conversation, ModelOutput(provider="p", model="m", text="Rottnest"))
        return conversation.id
    finally:
        library.close()


def tree(path: Path) -> object:
    """What is at ``path``: where a link points, a folder's names and bytes, a file's bytes,
    or what else it is (never read: a pipe would block)."""
    if path.is_symlink():
        return os.readlink(path)
    if path.is_dir():
        return {p.name: p.read_bytes() for p in path.iterdir()}
    if path.is_file():
        return path.read_bytes()
    return stat.S_IFMT(path.stat().st_mode)
