"""Branches of a message tree (ChatGPT, Open WebUI, Claude): the current path and the others.

Apps that let a person edit a message or regenerate a reply keep every version as a tree of
messages linked by parent. The current branch becomes the imported conversation; every other
leaf becomes a fork of it. Parent links are taken as the truth (children lists may disagree);
a cycle is reported as a malformed file, not followed forever.
"""

from __future__ import annotations

from app.transfer.base import Malformed


def paths(
    parents: dict[str, str | None], order: list[str], current: str | None, where: str
) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The path root -> current, and (leaf, root -> leaf) for every other leaf.

    ``order`` lists the nodes oldest first; without a usable ``current`` the newest leaf is the
    current one. A parent that is not a node makes its child a root.
    """
    if not order:
        return [], []
    has_children = {p for p in parents.values() if p is not None and p in parents}
    leaves = [n for n in order if n not in has_children]
    if current not in parents:
        current = leaves[-1] if leaves else order[-1]
    main = _path(parents, current, where)
    on_main = set(main)
    others = [(leaf, _path(parents, leaf, where)) for leaf in leaves if leaf not in on_main]
    return main, others


def _path(parents: dict[str, str | None], node: str, where: str) -> list[str]:
    path: list[str] = []
    seen: set[str] = set()
    cursor: str | None = node
    while cursor is not None and cursor in parents:
        if cursor in seen:
            raise Malformed(
                f"at {where}", f"expected a tree of messages, found a cycle at {cursor!r}"
            )
        seen.add(cursor)
        path.append(cursor)
        cursor = parents[cursor]
    path.reverse()
    return path
