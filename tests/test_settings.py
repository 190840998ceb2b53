from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from app.errors import CrosstalkError
from app.paths import DataDir
from app.settings import Settings, load_settings


def test_defaults_without_a_file(data_dir: DataDir) -> None:
    assert load_settings(data_dir) == Settings()
    assert Settings().default_model == "local:smollm2" and Settings().window_turns == 20


def test_values_from_the_toml_file(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text('window_turns = 3\nsome_future_setting = "kept quiet"\n')
    assert load_settings(data_dir) == Settings(window_turns=3)


@pytest.mark.parametrize("content", ["window_turns = 0\n", "window_turns = 'many'\n", "[[[\n"])
def test_a_bad_file_names_itself(data_dir: DataDir, content: str) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text(content)
    with pytest.raises(CrosstalkError, match=r"settings\.toml is not valid settings"):
        load_settings(data_dir)


def test_the_cli_reports_bad_settings_in_one_line_and_goes_on(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text("window_turns = 0\n")
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "list"], capture_output=True, text=True
    )
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert result.returncode == 0 and len(warnings) == 1
    assert "fix or delete it" in result.stderr and "default settings" in result.stderr


# --- a settings.toml that cannot be used never blocks reading or chatting ---------------


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda p: p.write_text("window_turns = \n"), "(at line 1, column 16)"),
        (lambda p: p.write_text('window_turns = "many"\n'), "not valid settings"),
        (lambda p: p.mkdir(), "is a folder, not a settings file"),
        (lambda p: p.write_bytes(b"\xff\xfe\x00"), "not valid settings"),
    ],
)
def test_a_broken_settings_file_is_reported_and_the_defaults_are_used(
    data_dir: DataDir,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Path], object],
    said: str,
) -> None:
    from app.cli import main
    from app.settings_store import save_settings

    data_dir.ensure()
    make(data_dir.settings_file)
    before = data_dir.settings_file.read_bytes() if data_dir.settings_file.is_file() else None
    assert main(["list"]) == 0
    err = capsys.readouterr().err
    assert said in err and "using the default settings meanwhile" in err
    assert str(data_dir.settings_file) in err and "Traceback" not in err
    if before is None:  # a folder is never replaced
        with pytest.raises(CrosstalkError, match="is a folder"):
            save_settings(data_dir, Settings(window_turns=3))
    else:  # saving from Settings keeps the user's broken file aside first
        save_settings(data_dir, Settings(window_turns=3))
        [kept] = data_dir.root.glob("settings.toml.broken-*")
        assert kept.read_bytes() == before
