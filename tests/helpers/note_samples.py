"""One note of each kind and variant, with the English the command line says for it (as app/
said it before notes were values). tests/notes and tests/ui/test_notes.py go through them all,
and fail for a kind or a variant with no sample here."""

from __future__ import annotations

from app.errors import DamagedReference
from app.notes import (
    ArgumentsMended,
    AttachmentLeftOut,
    CallIds,
    CompressionUnused,
    Counting,
    Covered,
    DropReason,
    Failed,
    Failure,
    FilesApi,
    FirstInputCut,
    ImageChange,
    ImageSent,
    ImportNote,
    ImportSkipped,
    LeftOut,
    NoResult,
    Note,
    NotSent,
    OrphanResult,
    OutsideWindow,
    OverBudget,
    PdfAsText,
    ReasoningDropped,
    ReplyLeftOut,
    RequestChanged,
    RowStatus,
    Sampling,
    ServerNotStarted,
    StandInSignature,
    SyncWarning,
    Text,
    ThinkingOff,
    ToolNameRewritten,
    ToolsLeftOut,
    ToolsNotOffered,
    Unsendable,
    renaming,
)

MB = 1024 * 1024
MADE = DropReason(cause="made_by", makers=("openai:o3", "gemini:gemini-3-pro"))

SAMPLES: list[tuple[Note, str]] = [
    # why an entry is left out of the next request
    (LeftOut(cause="failed_empty"), "failed reply with no content"),
    (LeftOut(cause="superseded"), "superseded by a retry"),
    (LeftOut(cause="broken_calls"), "tool calls of a broken reply, never run"),
    (LeftOut(cause="removed"), "removed from context by the user"),
    (LeftOut(cause="before_first_input"), "before the first input: a reply must answer something"),
    (OutsideWindow(turns=20), "window: older than the last 20 turns"),
    (OverBudget(tokens=12000), "budget: over 12,000 tokens (older turns fall out first)"),
    (Covered(cause="covered", seq=9, strategy="whole"), "covered by compression seq 9 (whole)"),
    (
        Covered(cause="left_out", seq=9, strategy="last-n:4"),
        "left out by compression seq 9 (last-n:4): only the last are summarised",
    ),
    (
        FirstInputCut(tokens=150000),
        "first input: only its first part is carried (150,000 tokens, over half the budget)",
    ),
    (CompressionUnused(cause="undone", by=12), "compression undone by seq 12"),
    (CompressionUnused(cause="superseded", by=14), "compression superseded by seq 14"),
    (CompressionUnused(cause="empty"), "compression not used: its summary is empty"),
    (
        CompressionUnused(cause="out_of_range", first=3, last=9),
        "compression not used: it covers seq 3-9, not entries before it",
    ),
    # a ledger row's status
    (RowStatus(cause="partial"), "partial"),
    (RowStatus(cause="stopped"), "partial: stopped by the user"),
    (RowStatus(cause="other_branch"), "other branch"),
    (RowStatus(cause="retried", seq=7), "retried at seq 7"),
    (RowStatus(cause="replaced", seq=5), "replaced by seq 5"),
    (RowStatus(cause="undoes", first=3, last=6), "undoes 3-6"),
    (RowStatus(cause="retracted", seq=11), "retracted by seq 11"),
    (RowStatus(cause="superseded", seq=11), "superseded by seq 11"),
    (RowStatus(cause="empty"), "not used: its summary is empty"),
    (
        RowStatus(cause="out_of_range", first=2, last=8),
        "not used: it covers seq 2-8, not entries before it",
    ),
    (
        Failed(error=Failure(text="rate limited by openai: retry later")),
        "failed: rate limited by openai: retry later",
    ),
    # how a request is counted, what it sets
    (
        Counting(cause="estimated", encoding="o200k_base", who="Gemini"),
        "estimated with o200k_base (Gemini counts differently)",
    ),
    (
        Counting(cause="estimated_local", encoding="o200k_base"),
        "estimated with o200k_base (the local model counts differently)",
    ),
    (Counting(cause="exact", encoding="o200k_base"), "exact (OpenAI's own tokenizer, o200k_base)"),
    (Sampling(cause="temperature", temperature=0.2), "temperature 0.2"),
    (Sampling(cause="max_tokens", tokens=8000), "at most 8,000 tokens"),
    (Sampling(cause="thinking", effort="low"), "thinking low"),
    (Sampling(cause="thinking", effort="medium"), "thinking medium"),
    (Sampling(cause="thinking", effort="high"), "thinking high"),
    (Sampling(cause="thinking", effort="max"), "thinking max"),
    # replay
    (
        NotSent(
            cause="refused", names=("clip.mp4",), seq=3, provider="anthropic", mime="video/mp4"
        ),
        "clip.mp4 (seq 3) not sent: anthropic does not take video/mp4",
    ),
    (
        NotSent(cause="no_bytes", names=("shot.png",), seq=3),
        "shot.png (seq 3) not sent: its bytes were not put in the request",
    ),
    (
        NotSent(cause="tool_images", names=("a.png", "b.png"), seq=6, model="gemini-2.5-pro"),
        "a.png, b.png (seq 6) not sent: gemini-2.5-pro takes no images in a tool's result "
        "(Gemini 3 models do); the result's text says what it was",
    ),
    (ReplyLeftOut(seq=4), "reply left out (seq 4): nothing in it can be sent"),
    (
        ReasoningDropped(seq=2, reasons=(MADE,)),
        "reasoning dropped (seq 2): made by openai:o3, gemini:gemini-3-pro",
    ),
    (
        ReasoningDropped(reasons=(DropReason(cause="other_providers"),)),
        "reasoning dropped: it came from other providers",
    ),
    (
        ReasoningDropped(seq=2, reasons=(DropReason(cause="not_stored", makers=("gemini:x",)),)),
        "reasoning dropped (seq 2): made by gemini:x (its parts were not stored: a partial reply)",
    ),
    (
        ReasoningDropped(
            seq=2,
            reasons=(
                DropReason(cause="other_model", makers=("openai:o3",), model="o4-mini"),
                DropReason(cause="not_encrypted", makers=("openai:o4-mini",)),
            ),
        ),
        "reasoning dropped (seq 2): made by openai:o3, not o4-mini; made by openai:o4-mini "
        "without encrypted content",
    ),
    (
        ReasoningDropped(seq=2, reasons=(DropReason(cause="chat_completions", makers=("a:b",)),)),
        "reasoning dropped (seq 2): made by a:b; Chat Completions cannot carry it",
    ),
    (
        ReasoningDropped(seq=2, reasons=(DropReason(cause="unsigned", count=2),)),
        "reasoning dropped (seq 2): 2 thinking block(s) without a signature (the reply broke off "
        "before it was signed)",
    ),
    (
        ReasoningDropped(seq=2, reasons=(DropReason(cause="parts_mismatch"),)),
        "reasoning dropped (seq 2): its stored parts do not match its tool calls, so the reply "
        "was rebuilt from its text",
    ),
    (
        ReasoningDropped(seq=2, reasons=(DropReason(cause="not_replayed", count=3),)),
        "reasoning dropped (seq 2): 3 item(s) whose reply is not replayed",
    ),
    (
        ArgumentsMended(cause="raw", seq=2, tools=("search",)),
        'arguments of search (seq 2) are not a JSON object: sent as {"_raw_arguments": <the text>}',
    ),
    (
        ArgumentsMended(cause="raw_call", seq=2, tools=("search",), call_id="c1"),
        "arguments of search (seq 2, call c1) are not a JSON object: sent as "
        '{"_raw_arguments": <the text>}',
    ),
    (
        ArgumentsMended(cause="stand_in", seq=2, tools=("search", "fetch"), maker="local:x"),
        "tool call arguments that do not parse as a JSON object sent as a stand-in (seq 2, "
        "local:x): search, fetch",
    ),
    (
        CallIds(cause="rewritten", seq=2, renamed=(renaming("call.1", "call_1"),)),
        "tool call id rewritten (seq 2): 'call.1' -> 'call_1'",
    ),
    (
        CallIds(
            cause="rewritten_by",
            seq=2,
            maker="gemini:g",
            renamed=(renaming("a", "call_x"), renaming("a", "call_y")),
        ),
        "tool call ids rewritten (seq 2, gemini:g): 'a' -> 'call_x', 'a' -> 'call_y'",
    ),
    (
        CallIds(cause="not_sent", seq=2, maker="openai:o3", ids=("c1", "c2")),
        "tool call ids not sent (seq 2, made by openai:o3): c1, c2; calls and responses pair by "
        "order",
    ),
    (
        ToolNameRewritten(seq=2, renamed=renaming("my tool", "my_tool")),
        "tool name rewritten (seq 2): 'my tool' -> 'my_tool'",
    ),
    (
        OrphanResult(cause="as_text", seq=3, call_id="c9"),
        "tool result sent as text (seq 3): no call 'c9' precedes it",
    ),
    (
        OrphanResult(cause="dropped_all", seq=3),
        "tool results at seq 3 dropped: no tool call before them",
    ),
    (
        OrphanResult(cause="dropped", seq=2, call_id="c9"),
        "tool result for 'c9' dropped: no such call at seq 2",
    ),
    (
        OrphanResult(cause="left_out", seq=3, call_id="c9"),
        "tool result left out (seq 3): no call 'c9' before it",
    ),
    (
        OrphanResult(cause="by_position", seq=3),
        "tool results at seq 3 paired with calls by position",
    ),
    (
        NoResult(cause="as_error", seq=2, tools=("search", "fetch")),
        "no result recorded for search, fetch (seq 2): sent as error",
    ),
    (
        NoResult(cause="as_error_call", seq=2, tools=("search",), call_id="c1"),
        "no result recorded for search (seq 2, call c1): sent as an error",
    ),
    (
        NoResult(cause="stand_in", call_id="c1"),
        "no result recorded for tool call 'c1': stand-in sent",
    ),
    (
        ToolsNotOffered(cause="from_history", names=("search", "fetch")),
        "tools declared from the history, not offered (tool_choice none): search, fetch",
    ),
    (
        ToolsNotOffered(cause="cannot_call", model="local:smollm2"),
        "tools not offered: local:smollm2 cannot call tools",
    ),
    (
        ThinkingOff(maker="openai:o3", seq=4),
        "thinking off: the pending tool call from openai:o3 (seq 4) has no signed thinking to "
        "continue from",
    ),
    (
        ThinkingOff(),
        "thinking off: the pending tool call has no signed thinking to continue from",
    ),
    (
        RequestChanged(cause="max_tokens_raised", tokens=10240, budget=8192),
        "max_tokens raised to 10240: it must exceed the thinking budget of 8192",
    ),
    (
        RequestChanged(cause="temperature_not_sent", temperature=0.7, provider="anthropic"),
        "temperature 0.7 not sent: anthropic takes none",
    ),
    (
        RequestChanged(cause="deprecated", model="claude-2", date="2025-07-21"),
        "claude-2 is deprecated: end of life 2025-07-21",
    ),
    (
        StandInSignature(seq=4, maker="openai:o3"),
        "stand-in thought signature (seq 4): calls made by openai:o3",
    ),
    (
        FilesApi(name="big.pdf", seq=3, provider="gemini", limit_mb=20, uri="files/abc"),
        "big.pdf (seq 3): sent through gemini's Files API, as the request's inline data would "
        "be over 20 MB; uploaded as files/abc",
    ),
    (
        FilesApi(name="big.pdf", seq=3, provider="gemini", limit_mb=20),
        "big.pdf (seq 3): sent through gemini's Files API, as the request's inline data would "
        "be over 20 MB; uploaded when the request is sent",
    ),
    # attachments
    (
        AttachmentLeftOut(
            name="a.png", seq=3, why=Unsendable(cause="too_many", profile="anthropic", most=100)
        ),
        "a.png (seq 3) left out: anthropic takes at most 100 images per request; the newest are "
        "sent",
    ),
    (
        AttachmentLeftOut(name="a.png", seq=3, why=Unsendable(cause="no_images", model="o3-mini")),
        "a.png (seq 3) left out: o3-mini reads no images",
    ),
    (
        AttachmentLeftOut(name="a.png", seq=3, why=Unsendable(cause="no_images_local")),
        "a.png (seq 3) left out: the built-in model reads no images",
    ),
    (
        AttachmentLeftOut(name="a.png", seq=3, why=Unsendable(cause="not_vision", model="llama3")),
        "a.png (seq 3) left out: llama3 is not marked as reading images (settings: vision_models)",
    ),
    (
        AttachmentLeftOut(
            name="a.png", seq=3, why=Failure.of(DamagedReference(cause="not_base64"))
        ),
        "a.png (seq 3) left out: its inline data is not base64",
    ),
    (
        AttachmentLeftOut(name="a.bin", seq=3, why=Unsendable(cause="mime", mime="audio/ogg")),
        "a.bin (seq 3) left out: audio/ogg cannot be sent",
    ),
    (
        AttachmentLeftOut(
            name="a.png", seq=3, why=Unsendable(cause="image_unreadable", detail="truncated")
        ),
        "a.png (seq 3) left out: the image cannot be read (truncated)",
    ),
    (
        AttachmentLeftOut(
            name="a.png",
            seq=3,
            why=Unsendable(cause="image_too_big", profile="anthropic", limit=5 * MB),
        ),
        "a.png (seq 3) left out: over anthropic's limit of 5.0 MB per image even when made smaller",
    ),
    (
        AttachmentLeftOut(
            name="a.pdf", seq=3, why=Unsendable(cause="pdf_unreadable", detail="PdfReadError")
        ),
        "a.pdf (seq 3) left out: its text cannot be extracted (PdfReadError)",
    ),
    (
        AttachmentLeftOut(name="a.pdf", seq=3, why=Unsendable(cause="pdf_no_text")),
        "a.pdf (seq 3) left out: it has no text to extract (a scan?)",
    ),
    (
        AttachmentLeftOut(
            name="a.png", seq=3, why=Failure(text="the stored file is gone", error="StorageError")
        ),
        "a.png (seq 3) left out: the stored file is gone",
    ),
    (
        PdfAsText(name="a.pdf", seq=3, profile="openai-compatible", pages=12),
        "a.pdf (seq 3): openai-compatible reads no PDFs; its text was extracted (12 pages) and "
        "sent as text",
    ),
    (
        PdfAsText(name="a.pdf", seq=3, profile="openai-compatible", pages=1200, cut_at=400000),
        "a.pdf (seq 3): openai-compatible reads no PDFs; its text was extracted (1,200 pages) and "
        "sent as text, cut at 400,000 characters",
    ),
    (
        PdfAsText(name="a.pdf", seq=3, profile="local", pages=2, local=True),
        "a.pdf (seq 3): local (the built-in model) reads no PDFs; its text was extracted (2 pages) "
        "and sent as text",
    ),
    (
        PdfAsText(name="a.pdf", seq=3, profile="local", pages=2, cut_at=400000, local=True),
        "a.pdf (seq 3): local (the built-in model) reads no PDFs; its text was extracted (2 pages) "
        "and sent as text, cut at 400,000 characters",
    ),
    (
        ImageSent(
            name="a.png",
            seq=3,
            changes=(
                ImageChange(
                    cause="downscaled",
                    width=4000,
                    height=3000,
                    to_width=1568,
                    to_height=1176,
                    profile="anthropic",
                ),
                ImageChange(cause="converted", format="PNG"),
                ImageChange(cause="tokens", tokens=1229),
            ),
        ),
        "a.png (seq 3): downscaled from 4,000x3,000 to 1,568x1,176 for anthropic's limits; sent "
        "as PNG; about 1,229 tokens (estimate)",
    ),
    # tools
    (
        ToolsLeftOut(
            count=3, share=0.1, names=("mcp__fs__read", "mcp__fs__write", "mcp__git__log")
        ),
        "3 MCP tools not declared (over 10% of the budget): mcp__fs__read, mcp__fs__write, "
        "mcp__git__log",
    ),
    (
        ToolsLeftOut(count=7, share=0.25, names=("a", "b", "c", "d", "e"), more=True),
        "7 MCP tools not declared (over 25% of the budget): a, b, c, d, e, …",
    ),
    (
        ServerNotStarted(cause="not_configured", selector="mcp:fs", server="fs"),
        "mcp:fs: no server fs in mcp.json; its tools were not sent",
    ),
    (
        ServerNotStarted(cause="disabled", selector="mcp:fs"),
        "mcp:fs: the server is disabled in mcp.json; its tools were not sent",
    ),
    (
        ServerNotStarted(
            cause="failed", error=Failure(text="fs: the server exited (status 1)", error="McpError")
        ),
        "fs: the server exited (status 1); its tools were not sent",
    ),
    # import
    (ImportSkipped(cause="no_messages"), "it has no messages"),
    (ImportSkipped(cause="twice", id="c1"), "appears twice; imported once as c1"),
    (ImportSkipped(cause="already", id="c1"), "already in the library as c1"),
    (
        ImportSkipped(cause="in_trash", id="c1"),
        "already in the library as c1 (in the trash: `crosstalk restore` brings it back)",
    ),
    (ImportNote(cause="new_id", taken="c1"), "c1 is another conversation here, so it got a new id"),
    (
        ImportNote(cause="files_missing", names=("a.png", "b.pdf")),
        "imported without the files of a.png, b.pdf (not in the export, nor in this library)",
    ),
    # sync
    (
        SyncWarning(cause="remote_reset", remote="s3://bucket/crosstalk"),
        "s3://bucket/crosstalk no longer holds what this device sent; sending everything again",
    ),
    (
        SyncWarning(cause="purged", conversation="c1"),
        "conversation c1 was purged here; what other devices add to it is not brought back",
    ),
    (
        SyncWarning(cause="attachment_later", sha="0123456789ab"),
        "attachment 0123456789ab is not on the remote yet; the next sync fetches it",
    ),
    (
        SyncWarning(cause="not_sent", conversation="c1", error=Failure(text="the disk is full")),
        "conversation c1 was not sent: the disk is full",
    ),
    (
        SyncWarning(cause="attachment_not_sent", error=Failure(text="the disk is full")),
        "an attachment was not sent: the disk is full",
    ),
    (
        SyncWarning(cause="settings_not_taken", error=Failure(text="no such provider")),
        "another device's settings were not taken: no such provider",
    ),
    # words that are not ours
    (Text(text="Server said: nope"), "Server said: nope"),
]
