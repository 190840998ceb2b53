from __future__ import annotations

import subprocess
import sys

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


def test_the_cli_reports_bad_settings_in_one_line(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text("window_turns = 0\n")
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "list"], capture_output=True, text=True
    )
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "fix or delete it" in result.stderr
