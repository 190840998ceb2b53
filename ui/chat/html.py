"""The chat view's HTML: one fragment per history entry, and the stylesheet they are drawn with.

Plain functions of an entry and its fold state, so a fragment is built once and cached by the
view. Links carry the entry's position in the view (``fold:3:c0``, ``copy:3.1``, ``retry:3``),
and the view interprets them; nothing here knows about widgets. Two things carry the entry's
``seq`` instead, as they outlive the view's positions: each fragment's first paragraph starts
with a named anchor (``seq-12``) to scroll to, and ends with an ``inspect:12`` link. A message
ends with its row of actions (``Actions``): ``edit:12``, ``regenerate:12``, ``sibling:14`` ...
An input's attachments link as ``attachment:12:0`` (its seq, the attachment's place): images
as thumbnails (``crosstalk-thumb:`` images the view supplies, at the size the stored pixel size
gives, so nothing is decoded to lay them out), other files as chips with name, size and pages.

Its words go through Qt's translator (context "ChatHtml"), its numbers through
``ui.common.locale_format``; what the history holds (messages, errors from app/) is shown as it is.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from html import escape

from app.attachments.files import PDF, is_image
from app.history import (
    AnyEntry,
    Attachment,
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    ToolResults,
)
from app.history.context import CONTINUES
from app.history.outline import RETRACT
from ui.chat import citations
from ui.chat.attachment_files import CHAT_BOX, ICON_SCHEME, display_size, thumb_url
from ui.chat.markdown import code_block_html, render_markdown
from ui.common import errors_text, locale_format, theme
from ui.common.i18n import Context

SHOWN = (ModelInput, ModelOutput, ToolResults, SystemInstruction, MemoryNotebook, Compression)
STOPPED = "stopped by the user"  # the error app.turn records when Stop cancels a reply


class ChatHtml(Context):
    """The translation context of every text here."""


def style_sheet() -> str:
    """The chat document's CSS, in the active theme's colours (``ui.common.theme``)."""
    c = theme.active().chat
    return f"""
a {{ color: {c["link"]}; text-decoration: none; }}
p {{ margin-top: 6px; margin-bottom: 6px; }}
h1, h2, h3, h4, h5, h6 {{ margin-top: 10px; margin-bottom: 6px; }}
h1 {{ font-size: x-large; }} h2 {{ font-size: large; }} h3 {{ font-size: medium; }}
pre {{ margin-top: 0px; margin-bottom: 0px; white-space: pre-wrap; }}
code {{ background-color: {c["inline_code"]}; }}
blockquote {{ color: {c["quote"]}; }}
table.user {{ margin-top: 16px; margin-bottom: 4px; }}
p.who {{ color: {c["who"]}; font-size: small; font-weight: bold; margin: 0px; }}
p.user {{ margin: 0px; white-space: pre-wrap; }}
p.meta {{ color: {c["muted"]}; font-size: small; margin-top: 16px; margin-bottom: 2px; }}
p.note {{ color: {c["muted"]}; font-size: small; }}
p.fold {{ margin-top: 2px; margin-bottom: 2px; }}
a.fold {{ color: {c["quote"]}; }}
a.inspect {{ color: {c["faint"]}; font-size: small; font-weight: normal; }}
p.thinking {{ color: {c["quote"]}; font-style: italic; white-space: pre-wrap; }}
p.codebar {{ color: {c["muted"]}; font-size: small; margin-top: 8px; margin-bottom: 2px; }}
p.stopped {{ color: {c["stopped"]}; font-weight: bold; }}
p.failed {{ color: {c["failed"]}; font-weight: bold; }}
p.earlier {{ margin-bottom: 12px; }}
p.continued {{ color: {c["faint"]}; font-size: small; margin-top: 0px; margin-bottom: 0px; }}
p.actions {{ color: {c["faint"]}; font-size: small; margin-top: 2px; margin-bottom: 4px; }}
a.action {{ color: {c["quote"]}; }}
p.attached {{ margin-top: 4px; margin-bottom: 4px; }}
a.file {{ color: {c["link"]}; }}
span.file {{ color: {c["muted"]}; font-size: small; }}
p.picture {{ margin-top: 8px; margin-bottom: 2px; }}
p.sources {{ color: {c["muted"]}; font-size: small; margin-top: 4px; margin-bottom: 2px; }}
a.cite {{ color: {c["link"]}; }}
"""


@dataclass(frozen=True)
class Actions:
    """The row under a message: what can be done with it, and what it is (the marks)."""

    labels: Mapping[str, str]  # action or mark name -> the words shown (translated)
    previous: int | None = None  # the sibling before it (its seq), for the switcher
    following: int | None = None
    position: int = 1
    siblings: int = 1
    marks: tuple[str, ...] = ()  # e.g. "edited", "regenerated", "excluded"
    names: tuple[str, ...] = ()  # the actions offered, in order: "copy", "edit", ...


def actions_html(seq: int, actions: Actions) -> str:
    """``< 2/3 >  Copy · Copy text · Edit · … (edited)`` as one small paragraph of links."""
    labels = actions.labels
    parts: list[str] = []
    if actions.siblings > 1:
        back, on = "&lsaquo;", "&rsaquo;"
        if actions.previous:
            back = f'<a class="action" href="sibling:{actions.previous}">&lsaquo;</a>'
        if actions.following:
            on = f'<a class="action" href="sibling:{actions.following}">&rsaquo;</a>'
        parts.append(f"{back} {actions.position}/{actions.siblings} {on}")
    parts += [
        f'<a class="action" href="{name}:{seq}">{escape(labels.get(name, name))}</a>'
        for name in actions.names
    ]
    marks = ", ".join(escape(labels.get(mark, mark)) for mark in actions.marks)
    tail = f" &nbsp;({marks})" if marks else ""
    return f'<p class="actions">{" &nbsp;·&nbsp; ".join(parts)}{tail}</p>\n'


def copy_prefix(index: int) -> str:
    """Where the Copy links of entry ``index``'s code blocks point: ``copy:<index>.<block>``."""
    return f"copy:{index}."


def is_shown(entry: AnyEntry) -> bool:
    """Titles and debug logs are not drawn: the list shows titles, logs are for developers."""
    return isinstance(entry, SHOWN)


def shown_chars(entry: AnyEntry) -> int:
    """About how much text an entry puts in the document while folded: its rendering cost."""
    if isinstance(entry, ModelInput | ModelOutput):
        return len(entry.text) + 100
    return 100


def anchor_name(seq: int) -> str:
    """The named anchor at the start of the entry with this seq (QTextBrowser.scrollToAnchor)."""
    return f"seq-{seq}"


def is_failed(entry: AnyEntry) -> bool:
    return isinstance(entry, ModelOutput) and (entry.partial or entry.error is not None)


def entry_html(
    entry: AnyEntry,
    index: int,
    expanded: Collection[str] = (),
    retry: bool = False,
    actions: Actions | None = None,
) -> tuple[str, list[str]]:
    """The fragment of one entry and the code blocks its Copy links index.

    ``expanded`` holds the fold keys of this entry that are open; ``retry`` adds a Retry link
    to a failed reply (only the latest one can usefully be retried); ``actions`` ends it with
    the row of a message's actions.
    """
    fragment = _Fragment(index, expanded, entry.seq)
    match entry:
        case ModelInput():
            fragment.user(entry)
        case ModelOutput():
            fragment.reply(entry, retry)
        case ToolResults(results=results):
            for n, result in enumerate(results):
                if result.is_error:
                    said = ChatHtml.tr("Result of {name} (error)")
                else:
                    said = ChatHtml.tr("Result of {name}")
                fragment.fold(f"t{n}", said.format(name=result.name), result.content, code=True)
            if not results:
                fragment.note(ChatHtml.tr("No tool results"))
        case SystemInstruction(text=text):
            if text:
                summary = ChatHtml.tr("System instruction")
            else:
                summary = ChatHtml.tr("System instruction cleared")
            fragment.fold("s", summary, text) if text else fragment.note(summary)
        case MemoryNotebook(content=content):
            fragment.fold("s", ChatHtml.tr("Memory notebook updated"), content)
        case Compression(strategy=strategy, covers=(first, last)) if strategy == RETRACT:
            if first == last:  # covers the compressions' own seqs
                fragment.note(ChatHtml.tr("Summary at seq {seq} undone").format(seq=first))
            else:
                said = ChatHtml.tr("Summaries at seq {first} to {last} undone")
                fragment.note(said.format(first=first, last=last))
        case Compression(covers=(first, last), summary=summary):
            said = ChatHtml.tr("Entries {first} to {last} summarised")
            fragment.fold("s", said.format(first=first, last=last), summary)
        case _:
            pass
    if actions is not None:
        fragment.parts.append(actions_html(entry.seq, actions))
    return "".join(fragment.parts), fragment.code


def reply_header(entry: ModelOutput) -> str:
    """``provider:model · N in / M out tokens · 1.2 s``, leaving out what is unknown."""
    parts = [f"{entry.provider}:{entry.model}"]
    usage = entry.usage
    if usage.input or usage.output:
        said = ChatHtml.tr("{input} in / {output} out tokens")
        parts.append(
            said.format(
                input=locale_format.count(usage.input), output=locale_format.count(usage.output)
            )
        )
    latency = entry.meta.get("latency_ms")
    if isinstance(latency, int | float):
        seconds = locale_format.number(latency / 1000)
        parts.append(ChatHtml.tr("{seconds} s").format(seconds=seconds))
    return " · ".join(parts)


class _Fragment:
    def __init__(self, index: int, expanded: Collection[str], seq: int) -> None:
        self.index = index
        self.expanded = expanded
        self.seq = seq
        self.parts: list[str] = []
        self.code: list[str] = []

    def _lead(self) -> tuple[str, str]:
        """The anchor and the Inspect link, for the first paragraph only (empty after it)."""
        if self.parts:
            return "", ""
        inspect = escape(ChatHtml.tr("Inspect"))
        link = f' &nbsp;<a class="inspect" href="inspect:{self.seq}">{inspect}</a>'
        return f'<a name="{anchor_name(self.seq)}"></a>', link

    def user(self, entry: ModelInput) -> None:
        anchor, inspect = self._lead()
        you = escape(ChatHtml.tr("You"))
        text = f'<p class="user">{_text(entry.text)}</p>' if entry.text else ""
        self.parts.append(
            f'<table class="user" width="100%" cellspacing="0" cellpadding="10" '
            f'bgcolor="{theme.colour("user_background")}">'
            f'<tr><td><p class="who">{anchor}{you}{inspect}</p>'
            f"{attachments_html(entry.seq, entry.attachments)}{text}</td></tr></table>\n"
        )

    def reply(self, entry: ModelOutput, retry: bool) -> None:
        anchor, inspect = self._lead()
        header = escape(reply_header(entry))
        if CONTINUES in entry.meta:  # the rest of the reply above it: one reply, two entries
            header = f"&#8627; {header}"
            self.parts.append(f'<p class="continued">{anchor}{header}{inspect}</p>\n')
        else:
            self.parts.append(f'<p class="meta">{anchor}{header}{inspect}</p>\n')
        for n, item in enumerate(entry.reasoning):
            if item.text:
                self.fold(f"r{n}", ChatHtml.tr("Thinking"), item.text, css="thinking")
            elif item.opaque:
                self.note(ChatHtml.tr("Thinking (not shown by the provider)"))
        if entry.text:
            # first to collect code blocks, so its Copy links index self.code from 0
            sources = frozenset(  # the svg blocks showing their source (ui.chat.svg_blocks)
                int(key[1:]) for key in self.expanded if key[:1] == "g" and key[1:].isdigit()
            )
            prefix = copy_prefix(self.index)
            rendered = render_markdown(entry.text, copy_prefix=prefix, sources=sources)
            # each [n] naming a passage sent links to it, the Sources line after (citations)
            self.parts.append(citations.cited(rendered.html, entry))
            self.code += rendered.code_blocks
        elif not entry.tool_calls and not is_failed(entry):
            self.note(ChatHtml.tr("(empty reply)"))
        for n, call in enumerate(entry.tool_calls):
            said = ChatHtml.tr("Called {name}({arguments})")
            summary = said.format(name=call.name, arguments=_shorten(call.arguments, 60))
            self.fold(f"c{n}", summary, _pretty_json(call.arguments), code=True)
        if is_failed(entry):
            self.status(entry, retry)

    def status(self, entry: ModelOutput, retry: bool) -> None:
        if entry.error == STOPPED:
            css, message = "stopped", ChatHtml.tr("Stopped — partial reply")
        else:
            kept = entry.partial and (entry.text or entry.tool_calls)
            if kept:
                said = ChatHtml.tr("Failed: {error} — partial reply kept")
            else:
                said = ChatHtml.tr("Failed: {error}")
            css = "failed"
            error = errors_text.failure(entry) or ChatHtml.tr("the reply was cut short")
            message = said.format(error=error)
        again = escape(ChatHtml.tr("Retry"))
        link = f' &nbsp;·&nbsp; <a href="retry:{self.index}">{again}</a>' if retry else ""
        self.parts.append(f'<p class="{css}">{escape(message)}{link}</p>\n')

    def fold(self, key: str, summary: str, body: str, css: str = "", code: bool = False) -> None:
        is_open = key in self.expanded
        arrow = "▾" if is_open else "▸"
        anchor, inspect = self._lead()
        self.parts.append(
            f'<p class="fold">{anchor}<a class="fold" href="fold:{self.index}:{key}">'
            f"{arrow} {escape(summary)}</a>{inspect}</p>\n"
        )
        if not is_open:
            return
        if code:
            href = f"copy:{self.index}.{len(self.code)}"
            self.code.append(body)
            self.parts.append(code_block_html(body, copy_href=href))
        else:
            self.parts.append(f'<p class="{css or "user"}">{_text(body)}</p>\n')

    def note(self, text: str) -> None:
        anchor, inspect = self._lead()
        self.parts.append(f'<p class="note">{anchor}{escape(text)}{inspect}</p>\n')


def attachments_html(seq: int, attachments: list[Attachment]) -> str:
    """An input's images as thumbnails in a row, then each other file as a chip; each links
    ``attachment:<seq>:<n>`` (the view opens it). Nothing here reads the files."""
    images, files = [], []
    for n, attachment in enumerate(attachments):
        href = f"attachment:{seq}:{n}"
        name = escape(attachment.name, quote=True)
        if is_image(attachment):
            size = display_size(attachment, CHAT_BOX)
            images.append(
                f'<a href="{href}"><img src="{thumb_url(attachment)}" width="{size.width()}" '
                f'height="{size.height()}" alt="{name}" title="{name}" /></a>'
            )
        else:
            icon = "pdf" if attachment.mime_type == PDF else "document"
            details = escape(file_details(attachment))
            files.append(
                f'<a class="file" href="{href}" title="{name}">'
                f'<img src="{ICON_SCHEME}:{theme.active().name}/{icon}" width="16" height="16" '
                f'style="vertical-align: middle" />&nbsp;{name}</a>'
                f'&nbsp;<span class="file">{details}</span>'
            )
    parts = []
    if images:
        parts.append(f'<p class="attached">{" &nbsp;".join(images)}</p>')
    if files:
        parts.append(f'<p class="attached">{" &nbsp; &nbsp;".join(files)}</p>')
    return "".join(parts)


def file_details(attachment: Attachment) -> str:
    """ "1.2 MiB · 3 pages": the size, and a PDF's page count."""
    parts = [locale_format.size(attachment.size)] if attachment.size else []
    if attachment.mime_type == PDF and attachment.pages:
        parts.append(ChatHtml.tr("%n page(s)", None, attachment.pages))
    return " · ".join(parts)


def _text(text: str) -> str:
    return escape(text).replace("\n", "<br />")


def _shorten(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _pretty_json(text: str) -> str:
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:  # the model's arguments may not parse; show them as they came
        return text
