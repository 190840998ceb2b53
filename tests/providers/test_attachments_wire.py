"""An image, a PDF and a text file reach each provider in its own protocol's format.

Each test attaches real files (stored as blobs by ``attach_bytes``), builds the request the way a
turn does (``TurnRunner.request`` with a real ``Sending``, so fitting runs for real), sends
it with the provider's real SDK to the local wire server, and reads the body it recorded.
"""

from __future__ import annotations

import asyncio
import base64
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

from app.attachments.files import attach_bytes
from app.attachments.sending import Sending
from app.errors import Unavailable
from app.history import Attachment, ModelInput
from app.notes import AttachmentLeftOut, FilesApi, Unsendable, english
from app.providers import Models, Provider, Request, StreamEvent, TextDelta
from app.providers.anthropic_messages import AnthropicProvider
from app.providers.gemini import GeminiProvider
from app.providers.local import LocalProvider
from app.providers.openai_chat import OpenAIChatProvider
from app.providers.openai_responses import OpenAIResponsesProvider
from app.store import Conversation, Library
from tests.helpers import anthropic_events as ae
from tests.helpers import gemini_events as ge
from tests.helpers.attachment_files import pdf, png
from tests.helpers.openai_events import ResponsesScript, chat_reply
from tests.helpers.turns import runner
from tests.helpers.wire_server import Recorded, Reply, WireServer

KEY = "test-key-0123456789"
GEMINI = "gemini-2.5-flash"
PAPER = "Quarterly revenue grew by twelve percent"
NOTES = "# Release notes\n\nShip on Friday; café opens at 9.\n"
KINDS = {
    "openai": "openai",
    "responses": "openai-responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "lmstudio": "openai-compatible",
    "local": "local",
}


@dataclass(frozen=True)
class Files:
    image: Attachment
    paper: Attachment
    notes: Attachment
    image_bytes: bytes
    paper_bytes: bytes


@pytest.fixture
def files(library: Library) -> Files:
    image_bytes, paper_bytes = png(640, 480), pdf(PAPER)
    return Files(
        attach_bytes(library.blobs, image_bytes, "chart.png"),
        attach_bytes(library.blobs, paper_bytes, "paper.pdf"),
        attach_bytes(library.blobs, NOTES.encode(), "notes.md"),
        image_bytes,
        paper_bytes,
    )


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as wire:
        yield wire


def asked(library: Library, text: str, *attachments: Attachment) -> Conversation:
    conversation = library.create()
    library.append(conversation, ModelInput(text=text, attachments=list(attachments)))
    return conversation


def request_for(
    library: Library,
    conversation: Conversation,
    provider: Provider,
    model: str,
    vision_models: tuple[str, ...] = (),
) -> Request:
    sending = Sending(library.blobs, KINDS, vision_models)
    return runner(library, Models.of(provider), sending=sending).request(
        conversation, provider, model, []
    )


def send(provider: Any, request: Request) -> list[StreamEvent]:
    async def run() -> list[StreamEvent]:
        try:
            return [event async for event in provider.stream(request)]
        finally:
            await provider.aclose()

    return asyncio.run(run())


def posted(server: WireServer, needle: str) -> list[Recorded]:
    return [r for r in server.requests if needle in r.path]


def decoded(data: str) -> bytes:
    return base64.b64decode(data)


def image_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def data_url(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


# --- each protocol's own format --------------------------------------------------------------


def test_openai_chat_sends_image_url_file_and_text_parts(
    library: Library, files: Files, server: WireServer
) -> None:
    conversation = asked(library, "Compare these", files.image, files.paper, files.notes)
    provider = OpenAIChatProvider("openai", ["gpt-4.1"], KEY, server.url + "/v1", max_retries=0)
    request = request_for(library, conversation, provider, "gpt-4.1")
    server.enqueue(Reply(chunks=chat_reply("Seen.", prompt=900, completion=2)))

    assert TextDelta("Seen.") in send(provider, request)

    (sent,) = posted(server, "/chat/completions")
    assert sent.json["messages"][0]["content"] == [
        {"type": "text", "text": "Compare these"},
        {"type": "image_url", "image_url": {"url": data_url("image/png", files.image_bytes)}},
        {
            "type": "file",
            "file": {
                "filename": "paper.pdf",
                "file_data": data_url("application/pdf", files.paper_bytes),
            },
        },
        {"type": "text", "text": f"[notes.md]\n{NOTES}"},
    ]


def test_openai_responses_sends_input_image_input_file_and_input_text(
    library: Library, files: Files, server: WireServer
) -> None:
    conversation = asked(library, "Compare these", files.image, files.paper, files.notes)
    provider = OpenAIResponsesProvider(
        "responses", ["gpt-5"], KEY, server.url + "/v1", max_retries=0
    )
    request = request_for(library, conversation, provider, "gpt-5")
    server.enqueue(Reply(chunks=ResponsesScript().message("msg_1", "Seen.").completed()))

    assert TextDelta("Seen.") in send(provider, request)

    (sent,) = posted(server, "/responses")
    assert sent.json["input"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "Compare these"},
                {"type": "input_image", "image_url": data_url("image/png", files.image_bytes)},
                {
                    "type": "input_file",
                    "filename": "paper.pdf",
                    "file_data": data_url("application/pdf", files.paper_bytes),
                },
                {"type": "input_text", "text": f"[notes.md]\n{NOTES}"},
            ],
        }
    ]


def test_anthropic_sends_image_and_document_blocks(
    library: Library, files: Files, server: WireServer
) -> None:
    conversation = asked(library, "Compare these", files.image, files.paper, files.notes)
    provider = AnthropicProvider("anthropic", ["claude-test"], KEY, server.url, max_retries=0)
    request = request_for(library, conversation, provider, "claude-test")
    server.enqueue(Reply(chunks=ae.reply(ae.text(0, "Seen."))))

    assert TextDelta("Seen.") in send(provider, request)

    (sent,) = posted(server, "/messages")
    image, paper, notes, question = sent.json["messages"][0]["content"]
    assert image == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": b64(files.image_bytes)},
    }
    assert paper == {
        "type": "document",
        "source": {
            "type": "base64",
            "media_type": "application/pdf",
            "data": b64(files.paper_bytes),
        },
        "title": "paper.pdf",
    }
    assert notes == {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": NOTES},
        "title": "notes.md",
    }
    assert question == {"type": "text", "text": "Compare these"}


def test_gemini_sends_inline_data_and_text_parts(
    library: Library, files: Files, server: WireServer
) -> None:
    conversation = asked(library, "Compare these", files.image, files.paper, files.notes)
    provider = GeminiProvider("gemini", [GEMINI], KEY, server.url, max_retries=0)
    request = request_for(library, conversation, provider, GEMINI)
    server.enqueue(Reply(chunks=[ge.chunk(ge.text("Seen."), finish="STOP")]))

    assert TextDelta("Seen.") in send(provider, request)

    (sent,) = posted(server, ":streamGenerateContent")
    question, image, paper, notes = sent.json["contents"][0]["parts"]
    assert question == {"text": "Compare these"}
    assert image["inlineData"]["mime_type"] == "image/png"
    assert base64.urlsafe_b64decode(image["inlineData"]["data"]) == files.image_bytes
    assert paper["inlineData"]["mime_type"] == "application/pdf"
    assert base64.urlsafe_b64decode(paper["inlineData"]["data"]) == files.paper_bytes
    assert notes == {"text": f"[notes.md]\n{NOTES}"}  # text, not inline_data
    assert sent.json == provider.render(request).body  # the inspector shows what was sent


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# --- fitted where the model or its limits demand ---------------------------------------------


def test_a_large_image_reaches_anthropic_within_its_limits(
    library: Library, server: WireServer
) -> None:
    photo = attach_bytes(library.blobs, png(4000, 3000), "photo.png")
    conversation = asked(library, "What is this?", photo)
    provider = AnthropicProvider("anthropic", ["claude-test"], KEY, server.url, max_retries=0)
    request = request_for(library, conversation, provider, "claude-test")
    server.enqueue(Reply(chunks=ae.reply(ae.text(0, "A red square."))))

    send(provider, request)

    (sent,) = posted(server, "/messages")
    block = sent.json["messages"][0]["content"][0]
    width, height = image_size(decoded(block["source"]["data"]))
    assert max(width, height) <= 1568 and abs(width / height - 4 / 3) < 0.01
    assert width * height < 1_151_000  # about 1.15 megapixels, Anthropic's optimum
    said = [english(note) for note in request.notes]
    assert any("photo.png" in n and "downscaled from 4,000x3,000" in n for n in said)
    assert library.blobs.read(photo.sha256) == png(4000, 3000)  # the original is kept


def test_a_text_only_compatible_model_gets_the_pdfs_text_and_no_image(
    library: Library, files: Files, server: WireServer
) -> None:
    conversation = asked(library, "Compare these", files.image, files.paper, files.notes)
    provider = OpenAIChatProvider(
        "lmstudio", ["qwen"], "not-needed", server.url + "/v1", max_retries=0
    )
    request = request_for(library, conversation, provider, "qwen")
    server.enqueue(Reply(chunks=chat_reply("Seen.")))

    send(provider, request)

    (sent,) = posted(server, "/chat/completions")
    question, paper, notes = sent.json["messages"][0]["content"]
    assert question == {"type": "text", "text": "Compare these"}
    assert paper == {
        "type": "text",
        "text": f"[paper.pdf (text extracted from the PDF)]\n[page 1]\n{PAPER}",
    }
    assert notes == {"type": "text", "text": f"[notes.md]\n{NOTES}"}
    assert "image_url" not in sent.body.decode() and "application/pdf" not in sent.body.decode()
    not_vision = Unsendable(cause="not_vision", model="qwen")
    assert AttachmentLeftOut(name="chart.png", seq=1, why=not_vision) in request.notes
    said = [english(note) for note in request.notes]
    assert any(n.startswith("paper.pdf (seq 1): openai-compatible reads no PDFs") for n in said)


def test_a_compatible_model_marked_as_seeing_gets_the_image_and_still_the_pdfs_text(
    library: Library, files: Files, server: WireServer
) -> None:
    conversation = asked(library, "Compare these", files.image, files.paper)
    provider = OpenAIChatProvider(
        "lmstudio", ["qwen-vl"], "not-needed", server.url + "/v1", max_retries=0
    )
    request = request_for(library, conversation, provider, "qwen-vl", ("lmstudio:qwen-vl*",))
    server.enqueue(Reply(chunks=chat_reply("Seen.")))

    send(provider, request)

    (sent,) = posted(server, "/chat/completions")
    kinds = [part["type"] for part in sent.json["messages"][0]["content"]]
    assert kinds == ["text", "image_url", "text"]


def test_the_built_in_model_reads_text_attachments_in_its_message(
    library: Library, files: Files
) -> None:
    conversation = asked(library, "Compare these", files.image, files.paper, files.notes)
    provider = LocalProvider()
    request = request_for(library, conversation, provider, "smollm2")

    rendered = provider.render(request)  # what the model's process is given (no process here)

    (message,) = rendered.body["messages"]
    assert message == {
        "role": "user",
        "content": (
            "Compare these\n\n"
            f"[paper.pdf (text extracted from the PDF)]\n[page 1]\n{PAPER}\n\n"
            f"[notes.md]\n{NOTES}"
        ),
    }
    local = Unsendable(cause="no_images_local")
    assert AttachmentLeftOut(name="chart.png", seq=1, why=local) in request.notes


# --- Gemini's Files API above its inline limit ----------------------------------------------

BIG_PAGE = "All work and no play. " * 750_000  # a PDF of about 16 MB: 22 MB as base64


@pytest.fixture(scope="module")
def big_pdf() -> bytes:
    return pdf(BIG_PAGE)


def test_gemini_over_20_mb_uploads_through_the_files_api(
    library: Library, files: Files, server: WireServer, big_pdf: bytes
) -> None:
    report = attach_bytes(library.blobs, big_pdf, "report.pdf")
    conversation = asked(library, "Summarise", files.image, report, files.notes)
    api = ge.FilesApi(server)
    provider = GeminiProvider("gemini", [GEMINI], KEY, server.url, max_retries=0)
    request = request_for(library, conversation, provider, GEMINI)

    before = provider.render(request)  # the inspector: no upload, a placeholder
    assert server.requests == []
    assert before.body["contents"][0]["parts"][2] == {
        "fileData": {"file_uri": "upload: report.pdf", "mime_type": "application/pdf"}
    }
    assert FilesApi(name="report.pdf", seq=1, provider="gemini", limit_mb=20) in before.notes

    server.enqueue(Reply(chunks=[ge.chunk(ge.text("A long report."), finish="STOP")]))
    assert TextDelta("A long report.") in send(provider, request)

    assert api.problems == []
    (start,) = api.starts
    assert start["x-goog-upload-protocol"] == "resumable"
    assert start["x-goog-upload-header-content-length"] == str(len(big_pdf))
    assert start["x-goog-upload-header-content-type"] == "application/pdf"
    assert api.display_names == ["report.pdf"]
    assert api.uploaded == {"files/f1": big_pdf}
    assert len(posted(server, "/upload/")) == 1 + 2  # start, then 8 MB pieces, the last final
    (sent,) = posted(server, ":streamGenerateContent")
    question, image, paper, notes = sent.json["contents"][0]["parts"]
    assert question == {"text": "Summarise"}
    assert paper == {"fileData": {"file_uri": api.uri("files/f1"), "mime_type": "application/pdf"}}
    assert base64.urlsafe_b64decode(image["inlineData"]["data"]) == files.image_bytes
    assert notes == {"text": f"[notes.md]\n{NOTES}"}
    assert len(sent.body) < 20 * 1024 * 1024


def test_gemini_uploads_a_file_once_per_process_and_again_when_it_is_gone(
    library: Library, server: WireServer, big_pdf: bytes
) -> None:
    report = attach_bytes(library.blobs, big_pdf, "report.pdf")
    conversation = asked(library, "Summarise", report)
    api = ge.FilesApi(server, processing_polls=1)
    provider = GeminiProvider("gemini", [GEMINI], KEY, server.url, max_retries=0)
    request = request_for(library, conversation, provider, GEMINI)
    done = [ge.chunk(ge.text("Done."), finish="STOP")]
    server.enqueue(Reply(chunks=done))
    server.enqueue(Reply(chunks=done))
    server.enqueue(Reply(403, body=ge.file_gone("files/f1")))  # Google deleted it (48 h)
    server.enqueue(Reply(chunks=done))

    async def three_turns() -> None:
        try:
            for _ in range(3):
                assert TextDelta("Done.") in [e async for e in provider.stream(request)]
                if len(api.starts) == 1:  # once uploaded, the inspector shows its uri
                    body = provider.render(request).body
                    assert api.uri("files/f1") in str(body)
        finally:
            await provider.aclose()

    asyncio.run(three_turns())

    assert api.problems == [] and len(api.starts) == 2
    assert len(posted(server, "/files/f1")) == 2  # processed: asked until ACTIVE
    uris = [
        r.json["contents"][0]["parts"][1]["fileData"]["file_uri"]
        for r in posted(server, ":streamGenerateContent")
    ]
    assert uris == [api.uri("files/f1")] * 3 + [api.uri("files/f2")]
    assert api.uploaded["files/f2"] == big_pdf


def test_a_failed_upload_says_which_file_and_sends_nothing(
    library: Library, server: WireServer, big_pdf: bytes
) -> None:
    report = attach_bytes(library.blobs, big_pdf, "report.pdf")
    conversation = asked(library, "Summarise", report)
    server.enqueue(Reply(503, body=ge.error_body(503, "UNAVAILABLE", "Try later.")), "/upload/")
    provider = GeminiProvider("gemini", [GEMINI], KEY, server.url, max_retries=0)
    request = request_for(library, conversation, provider, GEMINI)

    with pytest.raises(Unavailable) as caught:
        send(provider, request)

    assert str(caught.value) == (
        "uploading report.pdf to gemini's Files API failed: gemini is unavailable (503): "
        "try again later"
    )
    assert posted(server, ":streamGenerateContent") == []
