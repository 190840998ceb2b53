"""The turn runner: built once (``app.composition``) with the services a turn uses, it runs a
turn, a compare, a continuation and a regenerated answer, in the order that keeps them safe:

1. the user's input is appended (durable before any model is called);
2. the tools are declared, once per model, and the context of the first call rendered by the
   conversation's context policy (window, token budget, compression summaries), compressing
   first if the policy says so;
3. the chosen provider streams its reply, each event handed to the caller as it arrives;
4. the reply is appended with usage, latency and finish reason, marked partial on cancel or
   error (what arrived is kept); tool calls are run and their results appended, and the model
   is asked again, for a bounded number of rounds (``app.turn.call``);
5. on the first turn, a title is generated (the first words of the input if that fails).

Between 1 and 2, a conversation with knowledge sources (or a turn asked to use them) has its
question rewritten and the user's documents searched, and the passages recorded: the requests
of that turn carry them (``app.turn.knowledge``, docs/knowledge-answers.md).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from app.approval import Approve, deny_all
from app.context import OnContext
from app.context.events import ignore
from app.context.service import ContextSource, Named
from app.errors import TurnRefused
from app.history import Attachment, Context, History, ModelInput, ModelOutput, SystemInstruction
from app.history.context import CONTINUES
from app.notes import Note
from app.providers import Models, Provider, Request, StreamEvent
from app.store import Conversation, Library
from app.titles import Titles
from app.tools import ToolBox, ToolContext
from app.tuning import applied, merged, remembered
from app.turn.call import Exchange, OnEvent, ignore_event, respond
from app.turn.defaults import with_project
from app.turn.knowledge import KnowledgeStep, OnKnowledge, ignore_knowledge
from app.turn.points import (
    CONTINUE_PROMPT,
    answer_point,
    continue_point,
    edit_point,
    enabled_tools,
    new_input,
    turn_tools,
)
from app.turn.recall import AS_WRITTEN, Recall
from app.turn.requests import Fitting, Requests
from app.turn.settings import TurnSettings


def ignore_pair(spec: str, event: StreamEvent) -> None:
    return None


@dataclass(frozen=True)
class TurnRunner:
    library: Library
    models: Models
    requests: Requests  # the context source, the attachments' fitting and the toolbox
    settings: TurnSettings
    approve: Approve = deny_all  # asks before an MCP tool runs
    recall: Recall = AS_WRITTEN  # rewrites the searches a model writes
    knowledge: KnowledgeStep | None = None  # answers from the user's documents (None: never)

    @classmethod
    def build(
        cls,
        library: Library,
        models: Models,
        contexts: ContextSource,
        sending: Fitting,
        toolbox: ToolBox,
        *,
        settings: TurnSettings,
        approve: Approve = deny_all,
        recall: Recall = AS_WRITTEN,
        knowledge: KnowledgeStep | None = None,
    ) -> TurnRunner:
        """A runner of these services, with these knobs."""
        requests = Requests(contexts, sending, toolbox)
        return cls(library, models, requests, settings, approve, recall, knowledge)

    @property
    def titles(self) -> Titles:
        """Naming new conversations, by this runner's models."""
        return Titles(self.library, self.models)

    @property
    def contexts(self) -> ContextSource:
        return self.requests.contexts

    @property
    def sending(self) -> Fitting:
        return self.requests.sending

    @property
    def toolbox(self) -> ToolBox:
        return self.requests.toolbox

    def using(self, **changes: Any) -> TurnRunner:
        """This runner with other fields (``approve=``, ``settings=``, ``models=``) or
        services (``contexts=``, ``sending=``, ``toolbox=``)."""
        services = {k: changes.pop(k) for k in ("contexts", "sending", "toolbox") if k in changes}
        if services:
            changes["requests"] = dataclasses.replace(self.requests, **services)
        return dataclasses.replace(self, **changes)

    # --- the turns --------------------------------------------------------------------------

    def defaults(self, history: History) -> TurnSettings:
        """The settings a turn of this conversation starts from (its project's defaults in
        place of the settings': ``app.turn.defaults``)."""
        return with_project(self.library, self.settings, history)

    async def run(
        self,
        conversation: Conversation,
        spec: str,
        text: str,
        *,
        system: str | None = None,
        tools: Sequence[str] | None = None,
        on_event: OnEvent = ignore_event,
        on_context: OnContext = ignore,
        edit: int | None = None,
        tuning: Mapping[str, Any] | None = None,
        attachments: Sequence[Attachment] = (),
        knowledge: bool | None = None,
        on_knowledge: OnKnowledge = ignore_knowledge,
    ) -> ModelOutput:
        """One turn: the input, the reply (with any tool rounds), and a title on the first turn.

        ``knowledge``: answer from the user's documents (None: when the conversation or its
        project has sources; True: every source if it has none; False: not); ``on_knowledge``
        hears what was searched and found.

        ``attachments`` (stored with ``app.attachments.files``) go with the input; they are
        checked against the provider's limits before anything is appended, so a refused send
        leaves the conversation as it was.

        ``tuning`` changes the conversation's own temperature, max tokens or thinking
        (remembered with the input, ``app.tuning``).

        With ``edit`` (the seq of an earlier input), the input is that one edited: it follows
        the same message, so it and its reply start a new branch and the edited one stays as it
        was. Before the first request, the context is compressed if the conversation's policy
        says so (``on_context`` hears about it)."""
        provider, model = self.models.resolve(spec)
        history = conversation.history
        after = edit_point(history, edit) if edit is not None else None
        base = self.defaults(history)
        enabled = turn_tools(history, self.toolbox, base.default_tools, tools)
        chosen = merged(history, tuning)
        settings = applied(base, chosen)
        entry = new_input(text, enabled, chosen, attachments)
        if attachments:  # before anything is written
            self.sending.check(entry, provider, model)
        await self._system(conversation, system)
        if edit is not None:
            entry = msgspec.structs.replace(
                entry, meta={**entry.meta, "edit_of": history.id_of(edit)}
            )
        stamped = await self.library.append_async(conversation, entry, after=after)
        assert isinstance(stamped, ModelInput)
        await self._retrieve(conversation, stamped, provider, model, settings, knowledge,
                             on_knowledge)  # fmt: skip
        prepared = await self._prepared(enabled)
        exchange = self._exchange(conversation, provider, model, settings, enabled, prepared,
                                  on_event, at=stamped.seq)  # fmt: skip
        context = await self._first_context(exchange, stamped.seq, on_context)
        output = await respond(exchange, stamped.seq, context)
        if settings.make_title and conversation.history.title is None:
            await self.titles.name(conversation, settings.title_model or spec, text, output.text)
        return output

    async def compare(
        self,
        conversation: Conversation,
        specs: Sequence[str],
        text: str,
        *,
        system: str | None = None,
        tools: Sequence[str] | None = None,
        on_event: Callable[[str, StreamEvent], None] = ignore_pair,
        on_context: OnContext = ignore,
        tuning: Mapping[str, Any] | None = None,
        knowledge: bool | None = None,
        on_knowledge: OnKnowledge = ignore_knowledge,
    ) -> list[ModelOutput | BaseException]:
        """One input answered by several models at once: each reply follows the input, so they
        are siblings (the last to finish is active; the others are a switch away), each with
        its own usage and latency. Returns each model's reply, or what stopped it, in ``specs``
        order. Compression, if the policy asks for it, is judged by the first model's window."""
        if len(set(specs)) < 2:
            raise TurnRefused(cause="compare_needs_two")
        resolved = [self.models.resolve(spec) for spec in specs]  # fails before writing
        history = conversation.history
        base = self.defaults(history)
        enabled = turn_tools(history, self.toolbox, base.default_tools, tools)
        chosen = merged(history, tuning)
        settings = applied(base, chosen)
        await self._system(conversation, system)
        stamped = await self.library.append_async(conversation, new_input(text, enabled, chosen))
        at = stamped.seq  # every reply answers this input, whatever else was appended meanwhile
        assert isinstance(stamped, ModelInput)  # the passages fit the first model's budget
        await self._retrieve(conversation, stamped, *resolved[0], settings, knowledge,
                             on_knowledge)  # fmt: skip
        prepared = await self._prepared(enabled)

        def exchange(spec: str, provider: Provider, model: str) -> Exchange:
            def heard(event: StreamEvent) -> None:
                on_event(spec, event)

            return self._exchange(conversation, provider, model, settings, enabled, prepared,
                                  heard, at=at)  # fmt: skip

        exchanges = [exchange(spec, *found) for spec, found in zip(specs, resolved, strict=True)]
        first = await self._first_context(exchanges[0], at, on_context)
        meta: dict[str, object] = {"compare": list(specs)}
        jobs = [respond(e, at, first if i == 0 else None, meta) for i, e in enumerate(exchanges)]
        results: list[ModelOutput | BaseException] = await asyncio.gather(
            *jobs, return_exceptions=True
        )
        answered = next((r for r in results if isinstance(r, ModelOutput)), None)
        if settings.make_title and conversation.history.title is None and answered is not None:
            spec = settings.title_model or f"{answered.provider}:{answered.model}"
            await self.titles.name(conversation, spec, text, answered.text)
        return results

    async def continue_reply(
        self,
        conversation: Conversation,
        spec: str,
        *,
        reply: int | None = None,
        on_event: OnEvent = ignore_event,
    ) -> ModelOutput:
        """Go on with reply ``reply`` (by default the active path's last), cut at its length
        limit: the model is asked to continue, and its reply follows the cut one
        (``continues``). The history keeps both parts; the context and the window show them
        as one reply. Nothing is compressed before it."""
        history = conversation.history
        cut = continue_point(history, reply)
        provider, model = self.models.resolve(spec)
        enabled = enabled_tools(history)
        settings = applied(self.defaults(history), remembered(history))
        prepared = await self._prepared(enabled)
        exchange = self._exchange(conversation, provider, model, settings, enabled, prepared,
                                  on_event, at=cut.seq)  # fmt: skip
        meta: dict[str, object] = {CONTINUES: history.id_of(cut.seq)}
        return await respond(exchange, cut.seq, None, meta, CONTINUE_PROMPT)

    async def regenerate(
        self,
        conversation: Conversation,
        spec: str,
        *,
        reply: int | None = None,
        on_event: OnEvent = ignore_event,
        on_context: OnContext = ignore,
    ) -> ModelOutput:
        """Answer again what reply ``reply`` answered (by default the active path's last
        reply), as its sibling: a new branch, active now; the earlier answer stays, one switch
        away. An input never answered (e.g. after a crash) is answered instead."""
        provider, model = self.models.resolve(spec)
        history = conversation.history
        if history.turn_count == 0:
            raise TurnRefused(cause="nothing_to_retry", conversation=conversation.id)
        at, replaced = answer_point(history, reply)
        enabled = enabled_tools(history)
        settings = applied(self.defaults(history), remembered(history))
        prepared = await self._prepared(enabled)
        exchange = self._exchange(conversation, provider, model, settings, enabled, prepared,
                                  on_event, at=at)  # fmt: skip
        context = await self._first_context(exchange, at, on_context)
        meta: dict[str, object] = {}
        if replaced is not None:
            meta["regenerates"] = history.id_of(replaced)
        output = await respond(exchange, at, context, meta)
        if settings.make_title and conversation.history.title is None:
            question = next(e.text for e in conversation.history if isinstance(e, ModelInput))
            await self.titles.name(conversation, settings.title_model or spec, question,
                                   output.text)  # fmt: skip
        return output

    def request(
        self,
        conversation: Conversation,
        provider: Named,
        model: str,
        enabled: Sequence[str],
        *,
        at: int | None = None,
        fit: bool = True,
    ) -> Request:
        """What a call to ``provider:model`` would send now for the path to ``at`` (the
        active path by default): the inspector's preview, by the same code a turn sends with."""
        return self.requests.request(
            conversation, provider, model, enabled, self.settings, at=at, fit=fit
        )

    # --- the steps they share ---------------------------------------------------------------

    async def _system(self, conversation: Conversation, system: str | None) -> None:
        """Append a system instruction that changes the conversation's."""
        if system is not None and system != (conversation.history.system_instruction or ""):
            await self.library.append_async(conversation, SystemInstruction(text=system))

    async def _retrieve(
        self,
        conversation: Conversation,
        question: ModelInput,
        provider: Provider,
        model: str,
        settings: TurnSettings,
        use: bool | None,
        on_knowledge: OnKnowledge,
    ) -> None:
        """The knowledge step for the input just appended, if this runner has one."""
        if self.knowledge is None:
            return
        await self.knowledge.retrieve(
            self.library, self.models, conversation, question, self.contexts, provider, model,
            settings.max_tokens, use=use, on_knowledge=on_knowledge,
        )  # fmt: skip

    async def _prepared(self, enabled: Sequence[str]) -> tuple[Note, ...]:
        """Start the MCP servers the tools name (a server that cannot is a note)."""
        return tuple(await self.toolbox.prepare(enabled))

    def _exchange(
        self,
        conversation: Conversation,
        provider: Provider,
        model: str,
        settings: TurnSettings,
        enabled: Sequence[str],
        prepared: tuple[Note, ...],
        on_event: OnEvent,
        *,
        at: int,
    ) -> Exchange:
        """One model's part of the turn, its tools declared for the path to ``at``."""
        chosen = self.requests.declare(conversation, provider, model, enabled, settings, at=at)
        rewrite = self.recall.rewriter(self.models, conversation)
        tools = ToolContext(self.library, conversation, rewrite=rewrite, approve=self.approve)
        return Exchange(self.library, self.requests, conversation, provider, model, settings,
                        tuple(enabled), chosen, prepared, tools, on_event)  # fmt: skip

    async def _first_context(self, exchange: Exchange, at: int, on_context: OnContext) -> Context:
        """The context of the exchange's first call, compressed first if the policy says so
        (``on_context`` hears about it)."""
        settings = exchange.settings
        return await self.contexts.prepare(
            self.library, exchange.conversation, self.models, exchange.provider, exchange.model,
            tools=exchange.chosen.specs, max_tokens=settings.max_tokens, at=at,
            result_chars=settings.tool_result_chars, on_context=on_context,
            exact=settings.exact_counts,
        )  # fmt: skip
