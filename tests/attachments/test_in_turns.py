"""Attachments through a whole turn with a real Library: stored by reference, fitted for the
provider, refused before anything is written, found by file name."""

from __future__ import annotations

import asyncio
import base64

import pytest

from app.attachments.files import attach_bytes
from app.attachments.sending import Sending
from app.errors import AttachmentError
from app.history import ModelInput, ModelOutput
from app.providers import Finished, Models, TextDelta
from app.store import Library
from app.turn import AsStored, TurnRunner
from tests.helpers.attachment_files import pdf, png
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.turns import runner


def setup(library: Library, kind: str) -> tuple[ScriptedProvider, TurnRunner]:
    provider = ScriptedProvider()
    provider.scripts = [[TextDelta("Seen."), Finished("stop")] for _ in range(3)]
    sending = Sending(library.blobs, {"scripted": kind})
    turns = runner(library, Models.of(provider), sending=sending, title_model="scripted:echo")
    return provider, turns


def test_a_turn_stores_references_and_sends_fitted_copies(library: Library) -> None:
    provider, turns = setup(library, "anthropic")
    shot = attach_bytes(library.blobs, png(3000, 1000), "wide.png")
    conversation = library.create()
    asyncio.run(turns.run(conversation, "scripted:echo", "What is this?", attachments=[shot]))
    stored = next(e for e in conversation.history if isinstance(e, ModelInput))
    assert stored.attachments == [shot] and not stored.attachments[0].data
    assert b'"sha256"' in conversation.path.read_bytes()
    (sent,) = provider.requests[0].context.entries[0].attachments
    assert (sent.width, sent.height) == (1568, 522) and base64.b64decode(sent.data)
    reply = next(e for e in conversation.history if isinstance(e, ModelOutput))
    assert any("wide.png" in note and "downscaled" in note for note in reply.meta["replay_notes"])


def test_a_refused_send_writes_nothing(library: Library) -> None:
    provider, turns = setup(library, "anthropic")
    long_pdf = attach_bytes(library.blobs, pdf(*["page"] * 101), "long.pdf")
    conversation = library.create()
    with pytest.raises(AttachmentError, match=r"long\.pdf has 101 pages"):
        asyncio.run(turns.run(conversation, "scripted:echo", "Read it", attachments=[long_pdf]))
    assert conversation.history.version == 0 and provider.requests == []


def test_without_fitting_the_stored_reference_would_reach_the_adapter(library: Library) -> None:
    provider, turns = setup(library, "anthropic")
    plain = turns.using(sending=AsStored())
    shot = attach_bytes(library.blobs, png(), "shot.png")
    conversation = library.create()
    asyncio.run(plain.run(conversation, "scripted:echo", "", attachments=[shot]))
    assert provider.requests[0].context.entries[0].attachments[0].data == ""


def test_a_conversation_is_found_by_its_attachments_name(library: Library) -> None:
    conversation = library.create()
    invoice = attach_bytes(library.blobs, pdf("Total 42"), "invoice-2026-11.pdf")
    library.append(conversation, ModelInput(text="Please check this", attachments=[invoice]))
    (hit,) = library.search("invoice")
    assert hit.conversation["id"] == conversation.id
