"""The two private APIs of the Qt side (listed in app/private_apis.py) still are what the
window relies on; each fails, never skips, when a release changes it."""

from __future__ import annotations

import asyncio
import inspect
import json
import subprocess
import sys

import qasync

from ui.shell import pyside_feature
from ui.shell.event_loop import asyncgen_hooks


def test_shiboken_asks_a_hook_of_that_name_whether_a_module_uses_features() -> None:
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import inspect, json, sys; import PySide6.QtCore; "
            f"hook = getattr(sys.modules[{pyside_feature.FEATURE_MODULE!r}], "
            f"{pyside_feature.HOOK!r}); "
            "print(json.dumps(list(inspect.signature(hook).parameters)))",
        ],
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, found.stderr
    assert len(json.loads(found.stdout)) == 1  # (module): what ``uses_no_feature`` takes
    assert pyside_feature.stop_source_scans()  # (done already by tests/conftest.py: again)
    feature = sys.modules[pyside_feature.FEATURE_MODULE]
    assert getattr(feature, pyside_feature.HOOK) is pyside_feature.uses_no_feature


def test_qasync_loops_have_asyncios_async_generator_hooks() -> None:
    for name in ("_asyncgen_firstiter_hook", "_asyncgen_finalizer_hook"):
        hook = getattr(qasync.QEventLoop, name)
        assert hook is getattr(asyncio.BaseEventLoop, name)
        assert list(inspect.signature(hook).parameters) == ["self", "agen"]
    loop = asyncio.new_event_loop()
    try:
        with asyncgen_hooks(loop):
            firstiter, finalizer = sys.get_asyncgen_hooks()
            assert firstiter == loop._asyncgen_firstiter_hook  # type: ignore[attr-defined]
            assert finalizer == loop._asyncgen_finalizer_hook  # type: ignore[attr-defined]
    finally:
        loop.close()
