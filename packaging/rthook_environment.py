# PyInstaller runtime hook (runs before Crosstalk's own code, frozen builds only).
#
# On Linux the bootloader puts the bundle's _internal/ on LD_LIBRARY_PATH so that the dynamic
# loader prefers the bundled libraries; the loader has read it by now, and it does not read it
# again. Left in os.environ it would leak into every program Crosstalk starts (xdg-open for a
# link, a browser, a tool's subprocess), which would then load the bundle's OpenSSL, GLib or
# libstdc++ instead of their own. Put back what the user had.
import os
import sys

if sys.platform.startswith("linux") and getattr(sys, "frozen", False):
    original = os.environ.pop("LD_LIBRARY_PATH_ORIG", None)
    if original is not None:
        os.environ["LD_LIBRARY_PATH"] = original
    else:
        os.environ.pop("LD_LIBRARY_PATH", None)
