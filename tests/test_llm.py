"""The LLM layer through litellm to the scripted server: retries, errors, usage, cache."""

from __future__ import annotations

import asyncio
import email.utils
import time
from pathlib import Path

import pytest

from tautrait_core.errors import ContextWindowError, ProviderError
from tautrait_core.llm.client import Completion, ModelSpec, call_log, complete
from tautrait_core.llm.retries import parse_retry_after
from tautrait_core.scripted.server import Failure, ScriptedModelServer, reply_tool_call

HELLO = [{"role": "user", "content": "hello"}]
CONTEXT_OVERFLOW = Failure(
    status=400,
    body={
        "error": {
            "message": "This model's maximum context length is 8192 tokens.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    },
)


@pytest.fixture
def server():
    with ScriptedModelServer(lambda request: "hi there") as running:
        yield running


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Backoff delays the LLM layer asked for (without actually waiting)."""
    delays: list[float] = []
    real_sleep = asyncio.sleep

    async def record(seconds: float) -> None:
        delays.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", record)
    return delays


def spec(server: ScriptedModelServer, **overrides: object) -> ModelSpec:
    options: dict[str, object] = {
        "model": "openai/scripted",
        "api_base": server.base_url,
        "retry_base_s": 0.5,
    }
    options.update(overrides)
    return ModelSpec(**options)  # type: ignore[arg-type]


def call(model_spec: ModelSpec, tools: list | None = None) -> Completion:
    return asyncio.run(complete(model_spec, HELLO, tools))


def test_retry_after_header_is_honoured(server, sleeps) -> None:
    server.inject(Failure(status=429, retry_after=7))
    assert call(spec(server)).message.content == "hi there"
    assert sleeps == [7.0]


def test_backoff_grows_exponentially_with_jitter(server, sleeps) -> None:
    server.inject(Failure(status=500), Failure(status=503), Failure(status=429))
    call(spec(server))
    assert len(sleeps) == 3
    for attempt, delay in enumerate(sleeps):
        base = 0.5 * 2**attempt
        assert base <= delay <= base * 1.5


def test_timeouts_and_truncated_answers_are_retried(server, sleeps) -> None:
    server.inject(Failure(delay_s=1.5), Failure(truncated=True))
    completion = call(spec(server, timeout_s=0.5))
    assert completion.message.content == "hi there"
    assert len(sleeps) == 2


def test_retries_are_bounded_and_then_a_provider_error(server, sleeps) -> None:
    server.inject(*[Failure(status=502)] * 4)
    with pytest.raises(ProviderError, match="after 3 attempts"):
        call(spec(server, max_retries=2))
    assert len(server.requests) == 3


def test_context_overflow_is_not_retried(server, sleeps) -> None:
    server.inject(CONTEXT_OVERFLOW)
    with pytest.raises(ContextWindowError):
        call(spec(server))
    assert len(server.requests) == 1 and sleeps == []


def test_authentication_failure_is_not_retried(server, sleeps) -> None:
    server.inject(Failure(status=401))
    with pytest.raises(ProviderError, match="AuthenticationError"):
        call(spec(server))
    assert len(server.requests) == 1


def test_tool_calls_keep_their_raw_arguments(server) -> None:
    server.responder = lambda request: reply_tool_call("lookup", '{"id": 7')  # malformed JSON
    message = call(
        spec(server), tools=[{"type": "function", "function": {"name": "lookup"}}]
    ).message
    assert message.tool_calls[0].name == "lookup"
    assert message.tool_calls[0].arguments == '{"id": 7'
    with pytest.raises(ValueError):
        message.tool_calls[0].parsed_arguments()


def test_calls_are_logged_with_usage_and_cost(server) -> None:
    log: list = []
    token = call_log.set(log)
    try:
        unpriced = call(spec(server, role="agent"))
        priced = call(spec(server, model="openai/gpt-4o-mini", role="user"))
    finally:
        call_log.reset(token)
    assert unpriced.usage.cost is None  # no known price: unknown, not 0
    assert priced.usage.cost and priced.usage.cost > 0
    assert [(c.role, c.model, c.prompt_tokens, c.completion_tokens) for c in log] == [
        ("agent", "openai/scripted", 10, 5),
        ("user", "openai/gpt-4o-mini", 10, 5),
    ]


def test_cache_answers_identical_requests_without_calling(server, tmp_path: Path) -> None:
    cache = tmp_path / "cache.db"
    first = call(spec(server, cache_path=cache, cache_scope="task0"))
    server.responder = lambda request: "a different answer"
    again = call(spec(server, cache_path=cache, cache_scope="task0"))
    other_episode = call(spec(server, cache_path=cache, cache_scope="task1"))
    assert len(server.requests) == 2
    assert again.message.content == first.message.content == "hi there"
    assert again.usage.cost == 0.0
    assert other_episode.message.content == "a different answer"


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert parse_retry_after("3") == 3.0 and parse_retry_after("0.5") == 0.5
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    later = email.utils.formatdate(time.time() + 120, usegmt=True)
    assert 100 < (parse_retry_after(later) or 0) <= 120
    assert parse_retry_after(email.utils.formatdate(time.time() - 60, usegmt=True)) == 0.0
