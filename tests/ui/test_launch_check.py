"""A window that cannot open says why and what to install, instead of Qt's bare abort (134).

The end-to-end cases start the real ``crosstalk`` entry point with a plugin Qt genuinely cannot
load or a display that does not exist; the rest test the pure parts on ldd's real text.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLibraryInfo

from ui.shell.launch_check import (
    PACKAGES,
    explanation,
    failed_platform,
    install_commands,
    is_qt_own,
    missing_libraries,
    plugin_dirs,
    plugin_file,
)

REPO = Path(__file__).resolve().parents[2]
PLUGINS = QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)
XCB_PLUGIN = Path(PLUGINS) / "platforms" / "libqxcb.so"
QT_ABORT = 134

# ldd on PySide6 6.11's libqxcb.so on a minimal Debian 12, where the window would not open
DEBIAN_12_LDD = f"""\
\tlinux-vdso.so.1 (0x00007ffd5b1f2000)
\tlibQt6XcbQpa.so.6 => {PLUGINS}/../lib/libQt6XcbQpa.so.6 (0x00007f2a1c600000)
\tlibQt6Gui.so.6 => {PLUGINS}/../lib/libQt6Gui.so.6 (0x00007f2a1bc00000)
\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x00007f2a1c578000)
\tlibQt6Core.so.6 => {PLUGINS}/../lib/libQt6Core.so.6 (0x00007f2a1b400000)
\tlibxkbcommon.so.0 => /lib/x86_64-linux-gnu/libxkbcommon.so.0 (0x00007f2a1c531000)
\tlibxkbcommon-x11.so.0 => not found
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f2a1c529000)
\tlibxcb-image.so.0 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-randr.so.0 => not found
\tlibxcb-render-util.so.0 => not found
\tlibxcb-shm.so.0 => /lib/x86_64-linux-gnu/libxcb-shm.so.0 (0x00007f2a1c524000)
\tlibxcb-sync.so.1 => /lib/x86_64-linux-gnu/libxcb-sync.so.1 (0x00007f2a1c51b000)
\tlibxcb-xfixes.so.0 => /lib/x86_64-linux-gnu/libxcb-xfixes.so.0 (0x00007f2a1c512000)
\tlibxcb-render.so.0 => /lib/x86_64-linux-gnu/libxcb-render.so.0 (0x00007f2a1c503000)
\tlibxcb-shape.so.0 => not found
\tlibxcb-xkb.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f2a1c4d8000)
\tlibX11-xcb.so.1 => /lib/x86_64-linux-gnu/libX11-xcb.so.1 (0x00007f2a1c4d3000)
\tlibX11.so.6 => /lib/x86_64-linux-gnu/libX11.so.6 (0x00007f2a1b2bd000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f2a1b000000)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f2a1ae1f000)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f2a1c6b4000)
"""
DEBIAN_12_MISSING = [
    "libxkbcommon-x11.so.0",
    "libxcb-cursor.so.0",
    "libxcb-icccm.so.4",
    "libxcb-image.so.0",
    "libxcb-keysyms.so.1",
    "libxcb-randr.so.0",
    "libxcb-render-util.so.0",
    "libxcb-shape.so.0",
    "libxcb-xkb.so.1",
]
DEBIAN_12_APT = (
    "sudo apt install libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 "
    "libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1"
)
DEBIAN_12_DNF = (
    "sudo dnf install libxkbcommon-x11 xcb-util-cursor xcb-util-wm xcb-util-image "
    "xcb-util-keysyms libxcb xcb-util-renderutil"
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the check is for Linux")


# --- the real entry point -------------------------------------------------------------------


def absent_display() -> str:
    number = next(n for n in range(4000, 5000) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    return f":{number}"


def launch(**changes: str | None) -> subprocess.CompletedProcess[str]:
    """``crosstalk`` with no arguments, as a person starts it, on xcb and a display that is
    not there (tests/conftest.py has set CROSSTALK_HOME to this test's own)."""
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", DISPLAY=absent_display())
    for name in ("WAYLAND_DISPLAY", "QT_PLUGIN_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH"):
        env.pop(name, None)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(
        [sys.executable, "-m", "ui.shell.main"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def assert_explained_exit(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode not in (0, QT_ABORT, -6), result.stderr  # -6: killed by SIGABRT
    assert "crosstalk: the window cannot open" in result.stderr
    assert result.stderr.rstrip().endswith(
        "The command line works without a window: crosstalk --help"
    )


def test_a_plugin_whose_libraries_are_missing_names_them(tmp_path: Path) -> None:
    """A copy of libqxcb.so away from PySide6 cannot find its $ORIGIN-relative Qt libraries:
    QT_PLUGIN_PATH puts it ahead of PySide6's own, so Qt tries it and fails to load it."""
    (tmp_path / "platforms").mkdir()
    shutil.copy(XCB_PLUGIN, tmp_path / "platforms" / "libqxcb.so")

    result = launch(QT_PLUGIN_PATH=str(tmp_path))

    assert_explained_exit(result)
    assert f"plugin: {tmp_path / 'platforms' / 'libqxcb.so'}" in result.stderr
    assert "  libQt6XcbQpa.so.6\n" in result.stderr
    assert "It is not PySide6's own: QT_PLUGIN_PATH" in result.stderr
    assert "Debian/Ubuntu: sudo apt install libxcb-cursor0 " in result.stderr
    assert "Fedora:        sudo dnf install xcb-util-cursor " in result.stderr


def test_the_debian_12_case_gives_one_command_for_the_missing_packages(tmp_path: Path) -> None:
    """A minimal Debian 12 machine, by an ``ldd`` that reports what Debian 12's reported."""
    fake_ldd = tmp_path / "bin" / "ldd"
    fake_ldd.parent.mkdir()
    (tmp_path / "ldd.txt").write_text(DEBIAN_12_LDD)
    fake_ldd.write_text(f'#!/bin/sh\n[ "$1" = "{XCB_PLUGIN}" ] && cat "{tmp_path}/ldd.txt"\n')
    fake_ldd.chmod(0o755)

    result = launch(PATH=f"{fake_ldd.parent}{os.pathsep}{os.environ['PATH']}")

    assert_explained_exit(result)
    assert f"plugin: {XCB_PLUGIN}" in result.stderr
    assert "\n".join(f"  {name}" for name in DEBIAN_12_MISSING) in result.stderr
    assert f"Debian/Ubuntu: {DEBIAN_12_APT}\n" in result.stderr
    assert f"Fedora:        {DEBIAN_12_DNF}\n" in result.stderr


def test_a_display_that_cannot_be_reached_is_named(tmp_path: Path) -> None:
    """QT_QPA_PLATFORM_PLUGIN_PATH on an empty dir: Qt falls back on PySide6's own plugin,
    whose libraries are all here, and fails on the display."""
    (tmp_path / "plugins").mkdir()
    display = absent_display()

    result = launch(QT_QPA_PLATFORM_PLUGIN_PATH=str(tmp_path / "plugins"), DISPLAY=display)

    assert_explained_exit(result)
    assert f"plugin: {XCB_PLUGIN}" in result.stderr
    assert f'the display that could not be reached: DISPLAY="{display}"' in result.stderr
    assert "QT_QPA_PLATFORM=wayland crosstalk" in result.stderr
    assert "missing" not in result.stderr.split("crosstalk: the window")[1]


def test_a_platform_qt_does_not_have_is_named(tmp_path: Path) -> None:
    result = launch(QT_QPA_PLATFORM="nosuch", QT_QPA_PLATFORM_PLUGIN_PATH=str(tmp_path))

    assert_explained_exit(result)
    assert 'Qt\'s "nosuch" platform plugin failed' in result.stderr
    assert f"looked in {Path(PLUGINS) / 'platforms'}, {tmp_path})" in result.stderr
    assert 'QT_QPA_PLATFORM is "nosuch"' in result.stderr


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_other_messages_pass_through_and_other_fatals_still_abort() -> None:
    result = run_python(
        "from ui.shell import launch_check\n"
        "from PySide6.QtCore import qWarning, qFatal\n"
        "launch_check.install()\n"
        "qWarning('an ordinary warning')\n"
        "qFatal('some other fatal')\n"
    )
    assert result.stderr.splitlines()[:2] == ["an ordinary warning", "some other fatal"]
    assert result.returncode in (-6, QT_ABORT)
    assert "crosstalk: the window cannot open" not in result.stderr


def test_a_good_start_says_nothing() -> None:
    result = run_python(
        "from ui.shell import launch_check\n"
        "from PySide6.QtWidgets import QApplication\n"
        "launch_check.install()\n"
        "app = QApplication([])\n"
        "print(app.platformName())\n"
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "offscreen\n", "")


# --- the pure parts -------------------------------------------------------------------------


def test_the_missing_libraries_are_read_from_ldd_once_each_in_order() -> None:
    assert missing_libraries(DEBIAN_12_LDD) == DEBIAN_12_MISSING
    assert missing_libraries("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []
    assert missing_libraries("\tnot a dynamic executable\n") == []


def test_the_packages_of_the_missing_libraries_make_one_command_each() -> None:
    assert install_commands(DEBIAN_12_MISSING) == (DEBIAN_12_APT, DEBIAN_12_DNF)


def test_every_library_has_a_package_on_both_and_none_is_qt_own() -> None:
    for soname, package in PACKAGES.items():
        assert ".so." in soname and package.debian and package.fedora, soname
        assert not is_qt_own(soname)
        assert " " not in package.debian + package.fedora
    assert is_qt_own("libQt6XcbQpa.so.6") and is_qt_own("libicuuc.so.73")


def test_qt_names_the_platform_it_could_not_load_or_find() -> None:
    loaded = 'Could not load the Qt platform plugin "xcb" in "" even though it was found.'
    assert failed_platform(loaded) == "xcb"
    assert failed_platform('Could not find the Qt platform plugin "wayland" in ""') == "wayland"
    assert failed_platform("qt.qpa.xcb: could not connect to display :99") is None


def explain(missing_lines: str, plugin: Path = XCB_PLUGIN, **environ: str) -> str:
    return explanation("xcb", plugin, missing_lines, environ, PLUGINS)


def test_missing_system_libraries_get_exactly_their_packages() -> None:
    text = explain(DEBIAN_12_LDD)
    assert f"  Debian/Ubuntu: {DEBIAN_12_APT}\n  Fedora:        {DEBIAN_12_DNF}" in text
    assert "reinstall" not in text and "PySide6's own" not in text


def test_missing_qt_libraries_mean_a_broken_install_and_the_whole_set() -> None:
    text = explain("\tlibQt6Gui.so.6 => not found\n")
    assert "so its install is broken:\n  reinstall with ./scripts/install" in text
    assert install_commands(PACKAGES)[0] in text and install_commands(PACKAGES)[1] in text


def test_a_library_of_no_known_package_gives_the_whole_set() -> None:
    text = explain("\tlibxcb-cursor.so.0 => not found\n\tlibweird.so.3 => not found\n")
    assert "No package is known here for libweird.so.3." in text
    assert install_commands(PACKAGES)[0] in text


def test_without_ldd_the_whole_set_is_given() -> None:
    text = explanation("xcb", XCB_PLUGIN, None, {}, PLUGINS)
    assert "ldd could not be run" in text and install_commands(PACKAGES)[1] in text


def test_nothing_missing_names_the_display() -> None:
    text = explain("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n", WAYLAND_DISPLAY="wayland-0")
    assert 'DISPLAY is not set, WAYLAND_DISPLAY="wayland-0"' in text
    assert "QT_QPA_PLATFORM=xcb crosstalk" in text and "apt" not in text


def test_plugins_are_looked_for_in_qt_order(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    environ = {
        "QT_PLUGIN_PATH": f"{first}{os.pathsep}{second}",
        "QT_QPA_PLATFORM_PLUGIN_PATH": str(tmp_path / "qpa"),
    }
    dirs = plugin_dirs(environ, str(tmp_path / "pyside"))
    assert dirs == [
        first / "platforms",
        second / "platforms",
        tmp_path / "pyside" / "platforms",
        tmp_path / "qpa",
    ]
    (tmp_path / "qpa").mkdir()
    (tmp_path / "qpa" / "libqwayland.so").touch()
    assert plugin_file("wayland-egl", dirs) == tmp_path / "qpa" / "libqwayland.so"
    assert plugin_file("xcb", dirs) is None
