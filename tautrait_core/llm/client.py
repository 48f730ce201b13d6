"""Model calls.

:func:`complete` sends one chat completion and returns the assistant message with its token
usage and cost. An OpenAI-compatible server is called by the direct path of
:mod:`tautrait_core.llm.direct` (aiohttp, without importing litellm); everything else goes
through litellm (:mod:`tautrait_core.llm.provider`); both give the same result. Transient
failures are retried (see :mod:`tautrait_core.llm.retries`); when the retries are spent it
raises :class:`ProviderError`, which the runner records as an infrastructure error. A
context-window overflow is never retried: it raises :class:`ContextWindowError` at once.
"""

from __future__ import annotations

import contextvars
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from tautrait_core.errors import ContextWindowError, ProviderError
from tautrait_core.llm.direct import direct_route
from tautrait_core.llm.failures import ModelCallFailure
from tautrait_core.llm.keys import server_key
from tautrait_core.llm.provider import send_through_litellm
from tautrait_core.llm.retries import RetriesExhausted, send_with_retries
from tautrait_core.llm.server_keys import LOCAL_KEY
from tautrait_core.types.messages import Message, ToolCall
from tautrait_core.types.usage import ModelCall, Usage

_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable_text(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode (a lone UTF-16 surrogate, which
    valid JSON such as ``"\\udcff"`` can carry) replaced by U+FFFD, so that it can be stored,
    shown and sent back to a model."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


@dataclass(frozen=True)
class ModelSpec:
    """Which model to call and how.

    Attributes:
        model: litellm model name (``gpt-4o``, ``anthropic/claude-...``, ``openai/local``).
        provider: litellm provider (``custom_llm_provider``), when not part of ``model``.
        api_base: Base URL of an OpenAI-compatible server (local models, tests).
        temperature: Sampling temperature (``None``: the provider's default).
        max_retries: Retries after the first attempt for retryable failures.
        retry_base_s: First backoff delay; doubles on each retry (plus jitter).
        timeout_s: Per-request timeout.
        role: Who calls (``agent``, ``user``, ...), recorded with each call.
        cache_path: Response cache to read and fill (``None``: no cache).
        cache_scope: What else identifies a request for the cache (the episode).
    """

    model: str
    provider: str | None = None
    api_base: str | None = None
    temperature: float | None = 0.0
    max_retries: int = 4
    retry_base_s: float = 1.0
    timeout_s: float = 120.0
    role: str = "other"
    cache_path: Path | None = None
    cache_scope: str = ""


call_log: contextvars.ContextVar[list[ModelCall] | None] = contextvars.ContextVar(
    "tautrait_call_log", default=None
)
"""Calls made in the current episode; the orchestrator sets a fresh list per episode."""


@dataclass
class Completion:
    """An assistant message with its usage."""

    message: Message
    usage: Usage
    finish_reason: str | None = None


def _request_arguments(spec: ModelSpec) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "model": spec.model,
        "timeout": spec.timeout_s,
        "num_retries": 0,
        "max_retries": 0,
    }
    if spec.temperature is not None:
        arguments["temperature"] = spec.temperature
    provider = spec.provider
    if spec.api_base:
        arguments["api_base"] = spec.api_base
        if provider is None and "/" not in spec.model:
            provider = "openai"
        key = server_key(spec.api_base)  # never a key stored for a provider
        if key is not None:
            arguments["api_key"] = key
        elif provider in (None, "openai") or spec.model.startswith("openai/"):
            arguments["api_key"] = LOCAL_KEY
    if provider:
        arguments["custom_llm_provider"] = provider
    return arguments


async def complete(
    spec: ModelSpec, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
) -> Completion:
    """One chat completion, retried on transient failures, recorded in :data:`call_log`.

    Raises:
        ContextWindowError: the messages do not fit the model (not retried).
        ProviderError: the provider kept failing, or refused the request.
    """
    arguments = _request_arguments(spec)
    arguments["messages"] = messages
    if tools:
        arguments["tools"] = tools
    started = time.monotonic()
    cache, key = _cache_for(spec, arguments)
    stored = cache.get(key) if cache is not None else None
    if stored is not None:
        completion = _completion(stored, cost=0.0)
        _record(spec, completion, attempts=0, started=started, cached=True)
        return completion
    route = direct_route(arguments)

    async def attempt() -> tuple[dict[str, Any], float | None]:
        if route is not None:
            return await route.send(arguments)
        return await send_through_litellm(arguments)

    try:
        (answer, cost), attempts = await send_with_retries(
            attempt, spec.max_retries, spec.retry_base_s
        )
    except ModelCallFailure as failure:
        if failure.context_window:
            raise ContextWindowError(f"{spec.model}: {failure}") from failure
        raise ProviderError(f"{spec.model}: {failure.kind}: {failure}") from failure
    except RetriesExhausted as spent:
        failure = cast(ModelCallFailure, spent.failure)  # what attempt() raises
        raise ProviderError(
            f"{spec.model}: {failure.kind} after {spent.attempts} attempts: {failure}"
        ) from failure
    completion = _completion(answer, cost)
    if cache is not None:
        cache.put(key, answer)
    _record(spec, completion, attempts=attempts, started=started, cached=False)
    return completion


def _cache_for(spec: ModelSpec, arguments: dict[str, Any]) -> tuple[Any, str]:
    if spec.cache_path is None:
        return None, ""
    from tautrait_core.llm.cache import open_cache, request_key

    return open_cache(spec.cache_path), request_key(arguments, spec.cache_scope)


def _record(
    spec: ModelSpec, completion: Completion, attempts: int, started: float, cached: bool
) -> None:
    log = call_log.get()
    if log is None:
        return
    log.append(
        ModelCall(
            role=spec.role,
            model=spec.model,
            prompt_tokens=completion.usage.prompt_tokens,
            completion_tokens=completion.usage.completion_tokens,
            cost=completion.usage.cost,
            attempts=attempts,
            duration_s=round(time.monotonic() - started, 4),
            cached=cached,
            finish_reason=completion.finish_reason,
        )
    )


def _completion(answer: dict[str, Any], cost: float | None) -> Completion:
    """The completion of an OpenAI-style answer (as either transport gives it, or as the
    cache stored it)."""
    choice = answer["choices"][0]
    raw = choice["message"]
    tool_calls = [
        ToolCall(
            id=encodable_text(call.get("id") or f"call_{index}"),
            name=encodable_text(call["function"].get("name") or ""),
            arguments=encodable_text(call["function"].get("arguments") or ""),
        )
        for index, call in enumerate(raw.get("tool_calls") or [])
    ]
    content = raw.get("content")
    message = Message(
        role="assistant",
        content=None if content is None else encodable_text(content),
        tool_calls=tool_calls or None,
    )
    usage_info = answer.get("usage") or {}
    usage = Usage(
        calls=1,
        prompt_tokens=usage_info.get("prompt_tokens") or 0,
        completion_tokens=usage_info.get("completion_tokens") or 0,
        cost=cost,
    )
    return Completion(message=message, usage=usage, finish_reason=choice.get("finish_reason"))
