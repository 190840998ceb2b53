# Crosstalk's override of PyInstaller's QtGui hook: the same collection, minus the Qt plugins the
# app does not use. Filtering here (rather than after Analysis in the spec) matters: the libraries
# those plugins link (GTK for the gtk3 platform theme, Wayland, EGLFS/KMS) are then never pulled
# in either. Other platforms keep PyInstaller's default selection.
import sys

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

hiddenimports, binaries, datas = add_qt6_dependencies(__file__)

if sys.platform.startswith("linux"):
    # X11 (Wayland sessions run it through XWayland) plus offscreen for headless runs and tests.
    KEEP = {
        "platforms": {"libqxcb.so", "libqoffscreen.so"},
        # the XDG desktop portal theme needs only D-Bus; the gtk3 one would drag in all of GTK
        "platformthemes": {"libqxdgdesktopportal.so"},
        "imageformats": {"libqsvg.so", "libqjpeg.so", "libqgif.so", "libqico.so"},
    }
    DROP = {
        "egldeviceintegrations",
        "generic",
        "wayland-decoration-client",
        "wayland-graphics-integration-client",
        "wayland-shell-integration",
        "networkinformation",
        "tls",
    }
    # kept whole: iconengines (SVG icons), xcbglintegrations (GL on X11), platforminputcontexts
    # (compose key and IBus input methods)

    def _keep(src):
        parts = src.replace("\\", "/").split("/")
        if "plugins" not in parts:
            return True
        rest = parts[parts.index("plugins") + 1 :]
        if len(rest) < 2:
            return True
        if rest[0] in KEEP:
            return rest[-1] in KEEP[rest[0]]
        return rest[0] not in DROP

    binaries = [(src, dest) for src, dest in binaries if _keep(src)]
