"""PySide6's ``__feature__`` hook, told that no module uses it (a private API: listed, with
its test, in ``app/private_apis.py``).

After PySide6 is imported, shiboken looks at every module imported next to learn whether it
may switch PySide's features on (``from __feature__ import snake_case``): it reads the module's
whole source (``shibokensupport.feature._mod_uses_pyside``: ``inspect.getsource``), and the
lines stay in ``linecache``. Crosstalk never uses ``__feature__``, and the scans slow the
window's start (and the SDKs' imports in its process) and keep the source of thousands of
modules in memory.

Without the hook PySide6 treats each module as one that does not use features, which is
what Crosstalk's modules are. If a PySide6 release renames the function, nothing changes but
the speed, and ``tests/ui/test_private_apis_qt.py`` fails.
"""

from __future__ import annotations

import sys
from types import ModuleType

FEATURE_MODULE = "shibokensupport.feature"
HOOK = "_mod_uses_pyside"


def stop_source_scans() -> bool:
    """From now on, modules imported are not read for ``__feature__`` (call it early: what is
    imported before it is read). False if this PySide6 has no such hook."""
    import PySide6.QtCore  # noqa: F401  (shiboken's support modules come with it)

    feature = sys.modules.get(FEATURE_MODULE)
    if feature is None or not callable(getattr(feature, HOOK, None)):
        return False
    setattr(feature, HOOK, uses_no_feature)
    return True


def uses_no_feature(module: ModuleType) -> bool:
    return False
