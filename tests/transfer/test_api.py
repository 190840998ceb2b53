"""The names the window and the command line use."""

from __future__ import annotations

from pathlib import Path

import app.transfer
from app.transfer.base import Siblings


def test_all_lists_exactly_the_public_names() -> None:
    public = {name for name in vars(app.transfer) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(app.transfer, name)).__name__ == "module"}
    assert sorted(app.transfer.__all__) == sorted(public - modules)


def test_files_beside_an_export_are_found_by_the_start_of_their_name(tmp_path: Path) -> None:
    (tmp_path / "file-AAA-cat.png").write_bytes(b"cat")
    (tmp_path / "conversation-1").mkdir()
    (tmp_path / "conversation-1" / "file_BBB-dog.webp").write_bytes(b"dog")
    siblings = Siblings(tmp_path)
    assert siblings.find("file-AAA") == ("file-AAA-cat.png", b"cat")
    assert siblings.find("file_BBB") == ("file_BBB-dog.webp", b"dog")
    assert siblings.find("file-ZZZ") is None and siblings.find("") is None
