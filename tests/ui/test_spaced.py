"""Parts of a line joined as the language writes them (``locale_format.spaced``)."""

from __future__ import annotations

import pytest

from ui.common.locale_format import spaced


@pytest.mark.parametrize(
    ("parts", "line"),
    [
        (("Turn 1.", "Failed: no key."), "Turn 1. Failed: no key."),
        (("Sync failed", "(retrying in 4 min)"), "Sync failed (retrying in 4 min)"),
        (("ターン 1。", "失敗: キーがありません"), "ターン 1。失敗: キーがありません"),
        (("同期に失敗しました", "（4 分後に再試行）"), "同期に失敗しました（4 分後に再試行）"),  # noqa: RUF001
        (("第 1 轮。", "失败：没有密钥"), "第 1 轮。失败：没有密钥"),  # noqa: RUF001
        (("Synced", ""), "Synced"),
        (("", "Synced"), "Synced"),
        ((), ""),
    ],
)
def test_a_space_between_parts_except_where_the_script_writes_none(
    parts: tuple[str, ...], line: str
) -> None:
    assert spaced(*parts) == line
