"""PySide6 reads the source of every module imported after it, unless told not to
(ui/shell/pyside_feature.py): the window is told so before its modules are imported."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import linecache, sys
import PySide6.QtCore
if {stop}:
    from ui.shell.pyside_feature import stop_source_scans
    stop_source_scans()
import colorsys  # a module nothing here has imported yet
print(any(name.endswith("colorsys.py") for name in linecache.cache))
"""


def read_after_import(stop: bool) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(stop=stop)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip() == "True"


def test_modules_imported_after_pyside_are_not_read_once_told() -> None:
    # if this fails, PySide6 no longer reads them and ui/shell/pyside_feature.py can go
    assert read_after_import(stop=False), "PySide6 read the module's source"
    assert not read_after_import(stop=True)


def test_the_window_is_started_with_the_scans_stopped() -> None:
    """``crosstalk`` with no arguments stops them before it imports the window (``ui.shell.app``,
    here a stand-in that imports a module and says whether PySide6 read it)."""
    script = """
import linecache, sys, types
stand_in = types.ModuleType("ui.shell.app")
def run():
    import colorsys
    print(any(name.endswith("colorsys.py") for name in linecache.cache))
    return 0
stand_in.run = run
sys.modules["ui.shell.app"] = stand_in
import PySide6.QtCore
from ui.shell.main import main
sys.argv = ["crosstalk"]
sys.exit(main())
"""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
