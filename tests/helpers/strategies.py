"""Hypothesis strategies for history entries and whole conversations."""

from __future__ import annotations

from hypothesis import strategies as st

from app.history import (
    AnyEntry,
    Attachment,
    Compression,
    DebugLog,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)

text = st.text(max_size=200)
name = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-0123456789", min_size=1, max_size=20)
count = st.integers(min_value=0, max_value=2_000_000)
meta = st.dictionaries(
    name, st.one_of(st.integers(-(2**40), 2**40), st.text(max_size=20), st.booleans()), max_size=3
)

usage = st.builds(
    Usage, input=count, cached=count, cache_write=count, output=count, reasoning=count
)
reasoning = st.builds(
    Reasoning,
    provider=name,
    model=name,
    text=text,
    signature=st.none() | text,
    opaque=st.none() | text,
)
tool_call = st.builds(ToolCall, id=name, name=name, arguments=text)
tool_result = st.builds(ToolResult, call_id=name, name=name, content=text, is_error=st.booleans())
attachment = st.builds(Attachment, name=name, mime_type=name, data=text)

entry_bodies: st.SearchStrategy[AnyEntry] = st.one_of(
    st.builds(SystemInstruction, text=text, meta=meta),
    st.builds(MemoryNotebook, content=text, meta=meta),
    st.builds(ModelInput, text=text, attachments=st.lists(attachment, max_size=2), meta=meta),
    st.builds(
        ModelOutput,
        provider=name,
        model=name,
        text=text,
        reasoning=st.lists(reasoning, max_size=2),
        tool_calls=st.lists(tool_call, max_size=2),
        finish_reason=st.none() | name,
        usage=usage,
        partial=st.booleans(),
        error=st.none() | text,
        meta=meta,
    ),
    st.builds(ToolResults, results=st.lists(tool_result, max_size=3), meta=meta),
    st.builds(
        Compression,
        strategy=name,
        covers=st.tuples(st.integers(1, 100), st.integers(1, 100)),
        summary=text,
        provider=name,
        model=name,
        usage=usage,
        meta=meta,
    ),
    st.builds(Title, text=text, source=st.sampled_from(["generated", "user"]), meta=meta),
    st.builds(DebugLog, category=name, message=text, meta=meta),
)


@st.composite
def histories(draw: st.DrawFn, max_size: int = 15) -> list[AnyEntry]:
    """Entries stamped with consecutive seqs and increasing times, as a history holds them."""
    from msgspec.structs import replace

    bodies = draw(st.lists(entry_bodies, max_size=max_size))
    return [
        replace(body, seq=n, ts=f"2026-11-21T10:{n // 60:02d}:{n % 60:02d}.000Z")
        for n, body in enumerate(bodies, start=1)
    ]
