"""End-to-end encryption: sealed objects open only under their own name and key; a wrong
passphrase is told apart from damage."""

from __future__ import annotations

import base64

import pytest

from app.sync import marker as markers
from app.sync.crypto import KdfParams, Sealer
from app.sync.errors import DamagedObject, NewerRemote, WrongPassphrase
from app.sync.remote import Remote

PARAMS = KdfParams(salt=b"0123456789abcdef")


@pytest.fixture(scope="module")
def sealer() -> Sealer:
    return Sealer.from_passphrase("correct horse battery staple", PARAMS)


def test_round_trip_with_a_fresh_nonce_each_time(sealer: Sealer) -> None:
    data = b"\x00entry line\n" * 100
    first, second = sealer.seal("devices/d1/c/x/1", data), sealer.seal("devices/d1/c/x/1", data)
    assert first != second  # a random nonce per object
    assert data not in first and b"entry line" not in first
    assert len(first) == len(data) + 1 + 12 + 16
    assert sealer.open("devices/d1/c/x/1", first) == data
    assert sealer.open("devices/d1/c/x/1", second) == data


def test_a_changed_cut_or_moved_object_is_damage(sealer: Sealer) -> None:
    blob = sealer.seal("devices/d1/c/x/1", b"the reply")
    flipped = bytearray(blob)
    flipped[-5] ^= 1
    for bad in (bytes(flipped), blob[:-1], blob[:10]):
        with pytest.raises(DamagedObject, match="damaged"):
            sealer.open("devices/d1/c/x/1", bad)
    # swapped: the same bytes under another name do not open
    with pytest.raises(DamagedObject, match="moved from another name"):
        sealer.open("devices/d1/c/x/2", blob)


def test_a_newer_format_is_refused_not_called_damage(sealer: Sealer) -> None:
    blob = bytes([2]) + sealer.seal("a", b"x")[1:]
    with pytest.raises(NewerRemote, match="newer Crosstalk"):
        sealer.open("a", blob)


def test_names_are_hidden_stably_per_key(sealer: Sealer) -> None:
    conversation = "01JB8ZQ3X4K7M2N5P6R8S9T0VW"
    hidden = sealer.hide(conversation)
    assert hidden == sealer.hide(conversation) and len(hidden) == 32
    assert conversation not in hidden and hidden != sealer.hide("01JB8ZQ3X4K7M2N5P6R8S9T0VX")
    other = Sealer.from_passphrase("another passphrase", PARAMS)
    assert other.hide(conversation) != hidden
    salted = Sealer.from_passphrase("correct horse battery staple", KdfParams(salt=b"x" * 16))
    assert salted.hide(conversation) != hidden


def test_wrong_passphrase_is_not_damage(sealer: Sealer) -> None:
    check = sealer.check_object()
    sealer.verify(check)
    wrong = Sealer.from_passphrase("correct horse battery stapler", PARAMS)
    with pytest.raises(WrongPassphrase, match="the passphrase is wrong"):
        wrong.verify(check)
    # with the right passphrase, a damaged object is damage, not a wrong passphrase
    with pytest.raises(DamagedObject):
        sealer.open("a", wrong.seal("a", b"x"))


def test_the_marker_on_a_remote(remote: Remote) -> None:
    assert markers.read_marker(remote) is None
    marker, sealer = markers.new_marker("a passphrase of some length")
    assert sealer is not None and marker.encryption is not None
    markers.write_marker(remote, marker)
    read = markers.read_marker(remote)
    assert read == marker
    assert b"a passphrase" not in remote.get(markers.NAME)
    unlocked = markers.unlock(read, "a passphrase of some length")
    assert unlocked.hide("x") == sealer.hide("x")  # the same key from the same passphrase
    with pytest.raises(WrongPassphrase):
        markers.unlock(read, "another passphrase")
    assert base64.b64decode(read.encryption.salt) != base64.b64decode(
        markers.new_marker("a passphrase of some length")[0].encryption.salt  # type: ignore[union-attr]
    )


def test_a_newer_remote_is_refused_whole(remote: Remote) -> None:
    remote.put(markers.NAME, b'{"format": "crosstalk-sync", "version": 2, "future": {}}')
    with pytest.raises(NewerRemote, match=r"set up by a newer Crosstalk.*update Crosstalk"):
        markers.read_marker(remote)
    remote.put(markers.NAME, b"{not json")
    with pytest.raises(DamagedObject, match=r"crosstalk-sync\.json is damaged"):
        markers.read_marker(remote)
