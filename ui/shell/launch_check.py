"""Say why the window cannot open, where Qt would only abort.

When Qt cannot start its platform plugin (on Linux ``libqxcb.so``, which needs a dozen xcb
libraries a minimal system lacks), it names at most the first missing library, in a hint it
prints whatever the cause, and aborts (exit 134). ``install()``, called before the
``QApplication`` is made, puts a Qt message handler in place that passes every message on as
before and only notes which platform plugins Qt reports as failed: a good start runs nothing.

On the fatal "no Qt platform plugin could be initialized" it finds the plugin file Qt tried,
in Qt's own search order, and runs ``ldd`` on it. ``ldd`` resolves recursively, so a library
missing for one of Qt's own libraries (libxcb-cursor for libQt6XcbQpa) shows too. It prints
what is missing, one install command for Debian/Ubuntu and one for Fedora, or, when nothing
is missing, that the display could not be reached. Then it exits with status 1, not Qt's
abort. Everything but the running of ``ldd`` is a pure function, tested on ldd's text.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import (
    QLibraryInfo,
    QMessageLogContext,
    QtMsgType,
    qFormatLogMessage,
    qInstallMessageHandler,
)

LAUNCH_FAILED = 1  # the exit status; Qt's own abort would give 134
WITHOUT_A_WINDOW = "The command line works without a window: crosstalk --help"


class Package(NamedTuple):
    debian: str  # also Ubuntu's name
    fedora: str


# The system libraries of Qt's xcb and wayland plugins (their ELF NEEDED, and those of
# libQt6XcbQpa, libQt6Gui, libQt6DBus), by soname.
PACKAGES: dict[str, Package] = {
    "libxcb-cursor.so.0": Package("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": Package("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-image.so.0": Package("libxcb-image0", "xcb-util-image"),
    "libxcb-keysyms.so.1": Package("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-randr.so.0": Package("libxcb-randr0", "libxcb"),
    "libxcb-render-util.so.0": Package("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-shape.so.0": Package("libxcb-shape0", "libxcb"),
    "libxcb-xkb.so.1": Package("libxcb-xkb1", "libxcb"),
    "libxkbcommon-x11.so.0": Package("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": Package("libxkbcommon0", "libxkbcommon"),
    "libxcb-util.so.1": Package("libxcb-util1", "xcb-util"),
    "libxcb-shm.so.0": Package("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": Package("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": Package("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": Package("libxcb-render0", "libxcb"),
    "libxcb.so.1": Package("libxcb1", "libxcb"),
    "libX11-xcb.so.1": Package("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": Package("libx11-6", "libX11"),
    "libXau.so.6": Package("libxau6", "libXau"),
    "libXdmcp.so.6": Package("libxdmcp6", "libXdmcp"),
    "libGL.so.1": Package("libgl1", "libglvnd-glx"),
    "libGLX.so.0": Package("libglx0", "libglvnd-glx"),
    "libGLdispatch.so.0": Package("libglvnd0", "libglvnd"),
    "libEGL.so.1": Package("libegl1", "libglvnd-egl"),
    "libfontconfig.so.1": Package("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": Package("libfreetype6", "freetype"),
    "libdbus-1.so.3": Package("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": Package("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": Package("libglib2.0-0", "glib2"),
    "libwayland-client.so.0": Package("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": Package("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": Package("libwayland-egl1", "libwayland-egl"),
}

_FAILED_PLUGIN = re.compile(r'Could not (?:load|find) the Qt platform plugin "([^"]+)"')
_NOT_FOUND = re.compile(r"^\s*(\S+) => not found\s*$", re.MULTILINE)


def failed_platform(message: str) -> str | None:
    """The platform Qt's message says it could not load or find, if it says so."""
    found = _FAILED_PLUGIN.search(message)
    return found.group(1) if found else None


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` could not resolve, in its order, once each."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def is_qt_own(soname: str) -> bool:
    """Qt's libraries (and the ICU it bundles) come in the PySide6 wheel, not from the system."""
    return soname.startswith(("libQt6", "libicu"))


def install_commands(sonames: Iterable[str]) -> tuple[str, str]:
    """One ``apt`` and one ``dnf`` command for the known sonames, each package once."""
    packages = [PACKAGES[name] for name in sonames if name in PACKAGES]
    debian = " ".join(dict.fromkeys(package.debian for package in packages))
    fedora = " ".join(dict.fromkeys(package.fedora for package in packages))
    return f"sudo apt install {debian}", f"sudo dnf install {fedora}"


def _commands_for(sonames: Iterable[str]) -> list[str]:
    apt, dnf = install_commands(sonames)
    return [f"  Debian/Ubuntu: {apt}", f"  Fedora:        {dnf}"]


def _plugin_file_names(platform: str) -> list[str]:
    """``wayland-egl`` and ``wayland-brcm`` are keys of ``libqwayland.so``."""
    return list(dict.fromkeys([f"libq{platform}.so", f"libq{platform.split('-')[0]}.so"]))


def plugin_dirs(environ: Mapping[str, str], plugins_path: str) -> list[Path]:
    """Where Qt looks for platform plugins, in its order (the first file found is the one it
    tries): QT_PLUGIN_PATH, PySide6's plugins, then QT_QPA_PLATFORM_PLUGIN_PATH."""
    extra = environ.get("QT_PLUGIN_PATH", "").split(os.pathsep)
    dirs = [*(Path(d) / "platforms" for d in extra if d), Path(plugins_path) / "platforms"]
    if environ.get("QT_QPA_PLATFORM_PLUGIN_PATH"):
        dirs.append(Path(environ["QT_QPA_PLATFORM_PLUGIN_PATH"]))
    return dirs


def plugin_file(platform: str, dirs: Iterable[Path]) -> Path | None:
    for directory in dirs:
        for name in _plugin_file_names(platform):
            if (directory / name).is_file():
                return directory / name
    return None


def _display_named(environ: Mapping[str, str]) -> str:
    return ", ".join(
        f'{name}="{environ[name]}"' if environ.get(name) else f"{name} is not set"
        for name in ("DISPLAY", "WAYLAND_DISPLAY")
    )


def _not_found(dirs: Iterable[Path], environ: Mapping[str, str]) -> list[str]:
    looked = ", ".join(str(d) for d in dirs)
    lines = [f"No plugin file for it was found (looked in {looked})."]
    if environ.get("QT_QPA_PLATFORM"):
        lines.append(
            f'QT_QPA_PLATFORM is "{environ["QT_QPA_PLATFORM"]}": set it to xcb (X11) or '
            "wayland, or unset it."
        )
    lines.append("Else the PySide6 install is broken: reinstall with ./scripts/install")
    return lines


def _display_unreachable(environ: Mapping[str, str]) -> list[str]:
    return [
        "It has every library it needs, so it is the display that could not be reached: "
        f"{_display_named(environ)}.",
        "Start crosstalk inside a desktop session, or choose its window system yourself:",
        "  QT_QPA_PLATFORM=wayland crosstalk    (Wayland)",
        "  QT_QPA_PLATFORM=xcb crosstalk        (X11)",
    ]


def _libraries_missing(missing: list[str], foreign: bool) -> list[str]:
    lines = ["These libraries are missing (from ldd):", *(f"  {name}" for name in missing)]
    qt_own = [name for name in missing if is_qt_own(name)]
    unknown = [name for name in missing if not is_qt_own(name) and name not in PACKAGES]
    if qt_own and not foreign:
        lines.append("Qt's own libraries come with PySide6, so its install is broken:")
        lines.append("  reinstall with ./scripts/install")
    if unknown:
        lines.append(f"No package is known here for {', '.join(unknown)}.")
    if qt_own or unknown:  # what Qt's own libraries need could not be checked, or is unknown
        lines.append("If the window still does not open, install the whole set Qt needs:")
        lines.extend(_commands_for(PACKAGES))
    else:
        lines.append("Install them, then start crosstalk again:")
        lines.extend(_commands_for(missing))
    return lines


def explanation(
    platform: str,
    plugin: Path | None,
    ldd_output: str | None,
    environ: Mapping[str, str],
    plugins_path: str,
) -> str:
    """What failed, why (as far as ``ldd`` tells) and what to run.

    ``plugin`` is the file Qt tried, None when there was none; ``ldd_output`` is None when
    ``ldd`` could not be run; ``plugins_path`` is PySide6's plugin directory.
    """
    lines = [f'crosstalk: the window cannot open: Qt\'s "{platform}" platform plugin failed.']
    if plugin is None:
        return "\n".join([*lines, *_not_found(plugin_dirs(environ, plugins_path), environ)])
    lines.append(f"  plugin: {plugin}")
    foreign = plugin.parent != Path(plugins_path) / "platforms"
    if foreign:
        lines.append("It is not PySide6's own: QT_PLUGIN_PATH or QT_QPA_PLATFORM_PLUGIN_PATH puts")
        lines.append("  it first; unset them and start crosstalk again.")
    if ldd_output is None:
        lines.append("ldd could not be run, so the missing libraries are unknown.")
        lines.append("Install the whole set Qt needs:")
        lines.extend(_commands_for(PACKAGES))
    elif missing := missing_libraries(ldd_output):
        lines.extend(_libraries_missing(missing, foreign))
    else:
        lines.extend(_display_unreachable(environ))
    return "\n".join(lines)


def run_ldd(plugin: Path) -> str | None:
    """``ldd``'s report on the plugin, or None when there is no ``ldd`` or it failed."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        result = subprocess.run(
            [ldd, str(plugin)], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout if result.returncode == 0 else None


def report(platforms: Iterable[str], environ: Mapping[str, str]) -> str:
    """The explanation for every platform Qt tried, then the way that needs no window."""
    plugins_path = QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)
    parts = []
    for platform in platforms:
        plugin = plugin_file(platform, plugin_dirs(environ, plugins_path))
        ldd_output = run_ldd(plugin) if plugin is not None else None
        parts.append(explanation(platform, plugin, ldd_output, environ, plugins_path))
    return "\n\n".join([*parts, WITHOUT_A_WINDOW])


Handler = Callable[[QtMsgType, QMessageLogContext, str], object]


class _LaunchCheck:
    """The message handler: notes failed platform plugins, explains the fatal that follows."""

    def __init__(self) -> None:
        self.previous: Handler | None = None  # None: Qt's default
        self._failed: list[str] = []

    def __call__(self, kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if platform := failed_platform(message):
            self._failed.append(platform)
        self._pass_on(kind, context, message)
        # Qt 6: "...because no Qt platform plugin could be initialized"; Qt 5: "...could
        # not find or load the Qt platform plugin"
        if kind == QtMsgType.QtFatalMsg and "Qt platform plugin" in message:
            self._explain_and_exit()

    def _pass_on(self, kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        """As Qt's default handler would: its format, to stderr."""
        if self.previous is not None:
            self.previous(kind, context, message)
        elif sys.stderr is not None:
            sys.stderr.write(qFormatLogMessage(kind, context, message).rstrip("\n") + "\n")
            sys.stderr.flush()

    def _explain_and_exit(self) -> None:
        platforms = list(dict.fromkeys(self._failed)) or [
            os.environ.get("QT_QPA_PLATFORM", "xcb").split(";")[0]
        ]
        if sys.stderr is not None:
            sys.stderr.write("\n" + report(platforms, os.environ) + "\n")
            sys.stderr.flush()
        os._exit(LAUNCH_FAILED)  # a Qt fatal must not return: Qt would abort


def install() -> None:
    """Explain a failed platform plugin instead of aborting; call before the QApplication.

    Only on Linux, where ``ldd`` and the packages named here apply. The handler stays for the
    process's life: it passes every message on unchanged, and only notes plugin failures.
    """
    if sys.platform != "linux":
        return
    check = _LaunchCheck()
    check.previous = qInstallMessageHandler(check)
