"""``app.context`` loads its names on first use (PEP 562): each resolves to its module's own
object, and the package lists every one."""

from __future__ import annotations

import importlib
import subprocess
import sys

import app.context as context


def test_every_name_of_the_package_is_its_modules_own() -> None:
    homes = {name: module for module, names in context._HOMES.items() for name in names}
    assert sorted(context.__all__) == sorted(homes)
    for name, module in homes.items():
        own = getattr(importlib.import_module(module), name)
        assert getattr(context, name) is own, name


def test_the_policy_alone_does_not_load_compression() -> None:
    code = (
        "import sys; from app.context.policy import ContextPolicy; "
        "print(sorted(m for m in sys.modules if m.startswith('app.context')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['app.context', 'app.context.policy', 'app.context.strategies']"
