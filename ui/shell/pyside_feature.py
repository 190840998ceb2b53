"""PySide6's ``__feature__`` hook, told that no module uses it.

After PySide6 is imported, shiboken looks at every module imported next to learn whether it
may switch PySide's features on (``from __feature__ import snake_case``): it reads the module's
whole source (``shibokensupport.feature._mod_uses_pyside``: ``inspect.getsource``), and the
lines stay in ``linecache``. Crosstalk never uses ``__feature__``. Measured on the 2-core
machine: importing ``ui.shell.app`` took 714-806 ms with the scans and 573-616 ms without; importing
the OpenAI and Anthropic SDKs in the window's process 3.8 s instead of 3.1 s, with the lines of
3,980 modules kept in memory (32 MB).

Without the hook PySide6 treats each module as one that does not use features, which is
what Crosstalk's modules are. If a PySide6 release renames the function, nothing changes but
the speed (``tests/ui/test_pyside_feature.py`` says so).
"""

from __future__ import annotations

import sys
from types import ModuleType


def stop_source_scans() -> None:
    """From now on, modules imported are not read for ``__feature__`` (call it early: what is
    imported before it is read)."""
    import PySide6.QtCore  # noqa: F401  (shiboken's support modules come with it)

    feature = sys.modules.get("shibokensupport.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _uses_no_feature  # type: ignore[attr-defined]


def _uses_no_feature(module: ModuleType) -> bool:
    return False
