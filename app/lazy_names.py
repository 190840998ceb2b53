"""A package whose names are loaded from their modules on first use (PEP 562): importing the
package imports none of them, and a module that needs one part does not import the rest
(``app/context/__init__.py``, ``app/mcp/__init__.py``; docs/performance.md)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, homes: Mapping[str, list[str]], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The package's ``__getattr__``: each name of ``homes`` (module: the names it gives)
    imported from its module at its first lookup, then kept in ``namespace`` (the package's
    globals) so later lookups find it there."""
    home_of = {name: module for module, names in homes.items() for name in names}

    def load(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return load
