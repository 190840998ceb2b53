"""The composer's meter gives way as its room shrinks, never showing a clipped fragment."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLabel

from ui.common.elided_label import ElidedLabel

TEXT = "next request ≈ 1,116 tokens"


def test_cut_short_with_an_ellipsis_then_blank(qapp: QApplication) -> None:
    label = ElidedLabel()
    label.show()  # a hidden widget hears of its size only once shown
    label.setText(TEXT)
    whole = label.fontMetrics().horizontalAdvance(TEXT)
    label.resize(whole + 20, 20)
    assert label.text() == TEXT
    assert QLabelText(label) == TEXT
    label.resize(whole // 2, 20)
    shown = QLabelText(label)
    assert shown.endswith("…") and TEXT.startswith(shown[:-1]) and len(shown) > 2
    assert label.text() == TEXT  # the whole text is kept for when there is room again
    label.resize(label.fontMetrics().horizontalAdvance("n…") - 1, 20)
    assert QLabelText(label) == ""
    label.resize(whole + 20, 20)
    assert QLabelText(label) == TEXT
    label.close()


def QLabelText(label: ElidedLabel) -> str:
    """What the label draws (QLabel's own text, not the whole one ``text`` returns)."""
    return QLabel.text(label)
