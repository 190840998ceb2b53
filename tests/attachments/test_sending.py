"""Fitting attachments to each provider: what goes, in what size, what is left out and why,
what it costs, and what is refused before anything is written."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from app.attachments.files import attach_bytes
from app.attachments.profiles import OPENAI_TYPES, profile_for
from app.attachments.sending import Sending, _fit_image
from app.composition import Services, build_models
from app.context.tokens import attachment_tokens, method_for
from app.errors import AttachmentError
from app.history import Context, ModelInput
from app.inspect.next_request import next_request
from app.keys import Keys
from app.notes import (
    AttachmentLeftOut,
    ImageChange,
    ImageSent,
    PdfAsText,
    Unsendable,
    english,
)
from app.paths import DataDir
from app.settings import ProviderConfig, Settings
from app.store import Library
from app.store.blobs import Blobs
from tests.helpers.attachment_files import gif_animated, noisy_png, pdf, png

KINDS = {
    "openai": "openai",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "srv": "openai-compatible",
    "local": "local",
}


def provider(name: str) -> SimpleNamespace:
    return SimpleNamespace(name=name)


@pytest.fixture
def blobs(tmp_path: Path) -> Blobs:
    return Blobs(tmp_path / "blobs")


def sent(context: Context) -> list:
    return [a for e in context.entries for a in e.attachments]


def pixels(attachment) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    with Image.open(io.BytesIO(base64.b64decode(attachment.data))) as image:
        return image.size


def test_images_are_downscaled_to_each_providers_limit_and_the_original_kept(
    blobs: Blobs,
) -> None:
    original = png(4000, 3000)
    shot = attach_bytes(blobs, original, "shot.png")
    sending = Sending(blobs, KINDS)
    context = Context(None, None, (ModelInput(seq=1, text="look", attachments=[shot]),))
    expected = {"anthropic": (1238, 928), "openai": (1024, 768), "gemini": (3072, 2304)}
    for name, size in expected.items():
        fitted, notes = sending.prepare(context, provider(name), "model-x")
        (image,) = sent(fitted)
        assert pixels(image) == size == (image.width, image.height), name
        (note,) = notes
        assert isinstance(note, ImageSent) and note.changes[0] == ImageChange(
            cause="downscaled", width=4000, height=3000, to_width=size[0], to_height=size[1],
            profile=name,
        )  # fmt: skip
        assert f"downscaled from 4,000x3,000 to {size[0]:,}x{size[1]:,}" in english(note)
        assert english(note).endswith("tokens (estimate)")
    assert blobs.read(shot.sha256) == original  # the original is kept


TOKENS_80 = ImageChange(cause="tokens", tokens=80)


def test_a_small_image_goes_as_it_is(blobs: Blobs) -> None:
    data = png(300, 200)
    shot = attach_bytes(blobs, data, "small.png")
    context = Context(None, None, (ModelInput(seq=3, text="", attachments=[shot]),))
    fitted, notes = Sending(blobs, KINDS).prepare(context, provider("anthropic"), "m")
    assert base64.b64decode(sent(fitted)[0].data) == data
    assert notes == (ImageSent(name="small.png", seq=3, changes=(TOKENS_80,)),)
    assert english(notes[0]) == "small.png (seq 3): about 80 tokens (estimate)"


def test_an_image_over_the_byte_limit_is_made_smaller() -> None:
    big = noisy_png(300, 300)  # a photo saved as PNG: ~270 KB; the limit here is 100 KB
    mime, out, size = _fit_image(big, "image/png", OPENAI_TYPES, 2048, None, None, 100_000)
    assert mime == "image/jpeg" and out is not None and len(out) <= 100_000
    mime, out, size = _fit_image(big, "image/png", OPENAI_TYPES, 2048, None, None, 300)
    assert out == b"" and size[0] < 300  # cannot be made small enough: left out


def test_an_animated_gif_goes_as_its_first_frame(blobs: Blobs) -> None:
    gif = attach_bytes(blobs, gif_animated(), "dance.gif")
    context = Context(None, None, (ModelInput(seq=1, text="", attachments=[gif]),))
    for name in ("gemini", "openai"):
        fitted, notes = Sending(blobs, KINDS).prepare(context, provider(name), "m")
        assert sent(fitted)[0].mime_type == "image/png"
        (note,) = notes
        assert isinstance(note, ImageSent)
        assert ImageChange(cause="converted", format="PNG") in note.changes


def test_a_text_only_model_gets_the_pdfs_text_and_leaves_images_out(blobs: Blobs) -> None:
    paper = attach_bytes(blobs, pdf("Tokyo has 14 million people", "Page two"), "paper.pdf")
    shot = attach_bytes(blobs, png(), "shot.png")
    notes_file = attach_bytes(blobs, b"remember the milk", "todo.txt")
    entry = ModelInput(seq=1, text="summarise", attachments=[paper, shot, notes_file])
    context = Context(None, None, (entry,))
    fitted, notes = Sending(blobs, KINDS).prepare(context, provider("srv"), "llama3.2")
    extracted, text_file = sent(fitted)
    body = base64.b64decode(extracted.data).decode()
    assert extracted.mime_type == "text/plain"
    assert extracted.name == "paper.pdf (text extracted from the PDF)"
    assert body.startswith("[page 1]\nTokyo")
    assert "Tokyo has 14 million people" in body and "[page 2]\nPage two" in body
    assert base64.b64decode(text_file.data) == b"remember the milk"
    assert notes[0] == PdfAsText(name="paper.pdf", seq=1, profile="openai-compatible", pages=2)
    assert english(notes[1]) == (
        "shot.png (seq 1) left out: llama3.2 is not marked as reading images (settings: "
        "vision_models)"
    )
    # marked as reading images in the settings: the image goes
    vision = Sending(blobs, KINDS, vision_models=["srv:llava*"])
    fitted, _ = vision.prepare(context, provider("srv"), "llava-13b")
    assert [a.mime_type for a in sent(fitted)] == ["text/plain", "image/png", "text/plain"]


def test_models_that_read_pdfs_get_them_whole(blobs: Blobs) -> None:
    data = pdf("one page")
    paper = attach_bytes(blobs, data, "paper.pdf")
    context = Context(None, None, (ModelInput(seq=1, text="", attachments=[paper]),))
    for name in ("openai", "anthropic", "gemini"):
        fitted, notes = Sending(blobs, KINDS).prepare(context, provider(name), "m")
        assert base64.b64decode(sent(fitted)[0].data) == data and notes == (), name


def test_a_scanned_pdf_without_text_is_left_out_for_a_text_only_model(blobs: Blobs) -> None:
    scan = attach_bytes(blobs, pdf(""), "scan.pdf")
    context = Context(None, None, (ModelInput(seq=2, text="", attachments=[scan]),))
    fitted, notes = Sending(blobs, KINDS).prepare(context, provider("local"), "smollm2")
    assert sent(fitted) == []
    scan_note = AttachmentLeftOut(name="scan.pdf", seq=2, why=Unsendable(cause="pdf_no_text"))
    assert notes == (scan_note,)


def test_a_missing_blob_is_refused_before_sending_and_noted_in_history(blobs: Blobs) -> None:
    shot = attach_bytes(blobs, png(), "shot.png")
    blobs.path(shot.sha256).unlink()
    entry = ModelInput(text="", attachments=[shot])
    with pytest.raises(AttachmentError, match=r"shot\.png is no longer stored"):
        Sending(blobs, KINDS).check(entry, provider("openai"), "gpt-4.1")
    context = Context(None, None, (ModelInput(seq=1, text="", attachments=[shot]),))
    fitted, notes = Sending(blobs, KINDS).prepare(context, provider("openai"), "gpt-4.1")
    assert sent(fitted) == [] and english(notes[0]).startswith("shot.png (seq 1) left out: ")


def test_limits_are_checked_by_name_before_sending(blobs: Blobs) -> None:
    pages = attach_bytes(blobs, pdf(*["p"] * 101), "long.pdf")
    entry = ModelInput(text="", attachments=[pages])
    with pytest.raises(AttachmentError, match=r"long\.pdf has 101 pages; anthropic reads at most"):
        Sending(blobs, KINDS).check(entry, provider("anthropic"), "m")
    Sending(blobs, KINDS).check(entry, provider("gemini"), "m")  # Gemini reads 1,000
    many = ModelInput(text="", attachments=[attach_bytes(blobs, png(), "x.png")] * 101)
    with pytest.raises(AttachmentError, match="101 images in one message; anthropic takes at"):
        Sending(blobs, KINDS).check(many, provider("anthropic"), "m")


def test_old_inline_attachments_still_go(blobs: Blobs) -> None:
    from app.history import Attachment

    data = png(10, 10)
    old = Attachment(name="a.png", mime_type="image/png", data=base64.b64encode(data).decode())
    context = Context(None, None, (ModelInput(seq=1, text="", attachments=[old]),))
    fitted, _ = Sending(blobs, KINDS).prepare(context, provider("anthropic"), "m")
    assert base64.b64decode(sent(fitted)[0].data) == data


def test_each_provider_estimates_images_by_its_published_rule(blobs: Blobs) -> None:
    shot = attach_bytes(blobs, png(1024, 1024), "square.png")
    # Anthropic: w*h/750; Gemini: 768 px tiles of 258; OpenAI: 85 + 170 per 512 px tile
    assert attachment_tokens(shot, media=method_for("anthropic", "m").media) == 1399
    assert attachment_tokens(shot, media=method_for("gemini", "m").media) == 4 * 258
    assert attachment_tokens(shot, media=method_for("openai", "gpt-4.1").media) == 85 + 170 * 4
    # a large photo counts as the provider will see it: scaled to its limits first
    photo = attach_bytes(blobs, png(4000, 3000), "photo.png")
    assert attachment_tokens(photo, media="anthropic") == 1532  # 1238 x 928 / 750
    assert attachment_tokens(photo, media="gemini") == 4 * 3 * 258  # 3072 x 2304
    paper = attach_bytes(blobs, pdf("a", "b"), "p.pdf")
    assert attachment_tokens(paper, media="gemini") == 2 * 258
    assert profile_for("openai", "gpt-3.5-turbo").images is False


def test_the_inspector_lists_what_was_converted_or_left_out(
    data_dir: DataDir, library: Library
) -> None:
    chosen = Settings(providers={"srv": ProviderConfig(kind="openai-compatible",
                      base_url="http://127.0.0.1:9/v1", models=["llama3.2"])})  # fmt: skip
    keys = Keys({})
    services = Services(data_dir, chosen, keys, library, build_models(chosen, keys, {}),
                        environ={})  # fmt: skip
    shot = attach_bytes(library.blobs, png(2000, 1000), "wide.png")
    paper = attach_bytes(library.blobs, pdf("The answer is 42"), "answer.pdf")
    conversation = library.create()
    library.append(conversation, ModelInput(text="look", attachments=[shot]))
    upcoming = next_request(services, conversation, "anthropic:claude-sonnet-4-6",
                            draft="and this", attachments=[paper])  # fmt: skip
    assert any(
        isinstance(note, ImageSent)
        and note.name == "wide.png"
        and note.changes[0].cause == "downscaled"
        for note in upcoming.attachments
    )
    assert "answer.pdf" in json.dumps(upcoming.body)
    text_only = next_request(services, conversation, "srv:llama3.2", draft="and this",
                             attachments=[paper])  # fmt: skip
    assert any(
        isinstance(note, AttachmentLeftOut) and note.name == "wide.png"
        for note in text_only.attachments
    )
    assert "The answer is 42" in json.dumps(text_only.body)
    assert conversation.history.version == 1  # the preview wrote nothing


def test_a_phone_photo_goes_upright(blobs: Blobs) -> None:
    from PIL import Image

    stored = Image.new("RGB", (80, 40), (255, 0, 0))
    exif = stored.getexif()
    exif[0x0112] = 6  # shown turned 90 degrees clockwise: 40 wide, 80 tall
    out = io.BytesIO()
    stored.save(out, "JPEG", exif=exif)
    photo = attach_bytes(blobs, out.getvalue(), "portrait.jpg")
    assert (photo.width, photo.height) == (40, 80)
    context = Context(None, None, (ModelInput(seq=1, text="", attachments=[photo]),))
    fitted, _ = Sending(blobs, KINDS).prepare(context, provider("anthropic"), "m")
    assert pixels(sent(fitted)[0]) == (40, 80)
