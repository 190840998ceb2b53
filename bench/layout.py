"""The house's shape, as figures: modules, packages and loose modules in ``app/`` and ``ui/``,
their lines, the largest modules, the longest chain of imports, and which ``ui/`` modules
import the main window back.

    .venv/bin/python bench/layout.py            # this checkout
    .venv/bin/python bench/layout.py /tmp/old   # another checkout, to compare
"""

from __future__ import annotations

import ast
import collections
import sys
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports(root: Path, modules: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = collections.defaultdict(set)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets += [a.name for a in node.names]
            edges[name].update(t for t in targets if t in modules and t != name)
    return edges


def longest_chain(prefix: str, modules: dict[str, Path], edges: dict[str, set[str]]) -> int:
    """The most modules one import chain inside ``prefix`` passes (a cycle counted once)."""
    memo: dict[str, int] = {}
    on_path: set[str] = set()

    def depth(name: str) -> int:
        if name in memo:
            return memo[name]
        if name in on_path:
            return 0
        on_path.add(name)
        below = [
            depth(t)
            for t in edges[name]
            if t.startswith(prefix) and modules[t].name != "__init__.py"
        ]
        on_path.discard(name)
        memo[name] = 1 + max(below, default=0)
        return memo[name]

    return max(depth(name) for name in modules if name.startswith(prefix))


def main(root: Path) -> None:
    modules = {module_name(root, p): p for top in ("app", "ui") for p in (root / top).rglob("*.py")}
    edges = imports(root, modules)
    for top in ("app", "ui"):
        files = [p for name, p in modules.items() if name.split(".")[0] == top]
        sizes = sorted(
            ((len(p.read_text(encoding="utf-8").splitlines()), str(p.relative_to(root)))
             for p in files),
            reverse=True,
        )  # fmt: skip
        packages = sum(1 for p in files if p.name == "__init__.py") - 1
        loose = sum(1 for p in files if p.parent == root / top and p.name != "__init__.py")
        print(
            f"{top}/: {len(files)} modules, {packages} packages, {loose} modules at its root, "
            f"{sum(s for s, _ in sizes):,} lines; over 600 lines: {sum(s > 600 for s, _ in sizes)}"
        )
        print("  largest:", ", ".join(f"{name} {lines}" for lines, name in sizes[:6]))
        print("  longest import chain:", longest_chain(f"{top}.", modules, edges))
    back = sorted(
        name
        for name in modules
        if name.startswith("ui.")
        and not name.endswith((".app", "ui.shell"))
        and any(t.endswith("main_window") for t in edges[name])
    )
    print("ui/ modules importing the main window:", ", ".join(back) or "none")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
