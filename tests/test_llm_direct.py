"""The direct path to OpenAI-compatible servers gives what litellm's path gives.

Every scenario runs twice against the scripted server, once by each transport
(``TAUTRAIT_LLM_TRANSPORT=litellm`` forces litellm's path), and the two must agree: the
request bodies the server receives, the messages, tool calls, usage and cost that come back,
the retries and their delays, the error classes, kinds and the server's words in their
texts, and the response cache.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tautrait_core.errors import ContextWindowError, ProviderError
from tautrait_core.llm import client, direct
from tautrait_core.llm.client import Completion, ModelSpec, call_log, complete
from tautrait_core.llm.failures import ModelCallFailure
from tautrait_core.llm.provider import load_litellm
from tautrait_core.scripted.server import Failure, Reply, ScriptedModelServer

TRANSPORTS = ("direct", "litellm")
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "find_member",
            "description": "Find a member by email.",
            "parameters": {
                "type": "object",
                "properties": {"email": {"type": "string", "description": "Their email."}},
                "required": ["email"],
            },
        },
    },
    {"type": "function", "function": {"name": "list_books", "description": "All books (é)."}},
]
CONVERSATION = [
    {"role": "system", "content": "You are a library assistant."},
    {"role": "user", "content": "Hi, I'm ada@example.com and want a book ✓"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "find_member", "arguments": '{"email": "ada@example.com"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "name": "find_member", "content": '{"id": "M1"}'},
    {"role": "assistant", "content": "Found you. Which book?"},
    {"role": "user", "content": ""},
]
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
def server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(lambda request: "hi there") as running:
        yield running


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Backoff delays asked for (without waiting); jitter made repeatable per transport."""
    delays: list[float] = []
    real_sleep = asyncio.sleep

    async def record(seconds: float) -> None:
        delays.append(round(seconds, 6))
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", record)
    return delays


def use(transport: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if transport == "litellm":
        monkeypatch.setenv(direct.TRANSPORT_VARIABLE, "litellm")
    else:
        monkeypatch.delenv(direct.TRANSPORT_VARIABLE, raising=False)


def spec(server: ScriptedModelServer, **overrides: Any) -> ModelSpec:
    options: dict[str, Any] = {
        "model": "openai/scripted",
        "api_base": server.base_url,
        "retry_base_s": 0.5,
    }
    options.update(overrides)
    return ModelSpec(**options)


def call(
    model_spec: ModelSpec, messages: list[dict[str, Any]] | None = None, tools: Any = None
) -> Completion:
    return asyncio.run(complete(model_spec, messages or CONVERSATION, tools))


def by_each_transport(
    monkeypatch: pytest.MonkeyPatch,
    scenario: Callable[[ScriptedModelServer], Any],
    responder: Callable[[dict[str, Any]], Any] = lambda request: "hi there",
) -> dict[str, Any]:
    """What ``scenario`` gives by each transport, each against a fresh scripted server (a
    litellm spy tells which transport ran)."""
    litellm = load_litellm()
    real = litellm.acompletion
    through_litellm: list[str] = []

    async def spy(**arguments: Any) -> Any:
        through_litellm.append(arguments["model"])
        return await real(**arguments)

    monkeypatch.setattr(litellm, "acompletion", spy)
    outcomes = {}
    for transport in TRANSPORTS:
        use(transport, monkeypatch)
        random.seed(7)
        del through_litellm[:]
        with ScriptedModelServer(responder) as server:
            outcomes[transport] = scenario(server)
        assert bool(through_litellm) == (transport == "litellm"), transport
    return outcomes


def test_same_request_body_and_answer(monkeypatch) -> None:
    def scenario(server: ScriptedModelServer) -> tuple[Any, ...]:
        completion = call(spec(server), tools=TOOLS)
        again = call(spec(server), tools=list(TOOLS))  # the encoded tools are reused
        return server.requests, completion, again.message

    outcomes = by_each_transport(
        monkeypatch,
        scenario,
        lambda request: Reply(
            content="Checking.", tool_calls=[("list_books", {})], prompt_tokens=321
        ),
    )
    assert outcomes["direct"] == outcomes["litellm"]
    requests, completion, _ = outcomes["direct"]
    assert requests[0]["model"] == "scripted" and requests[0]["tools"] == TOOLS
    assert requests[0]["messages"][2] == {k: v for k, v in CONVERSATION[2].items() if v}
    assert completion.message.tool_calls[0].name == "list_books"
    assert (completion.usage.prompt_tokens, completion.finish_reason) == (321, "tool_calls")


@pytest.mark.parametrize(
    "reply",
    [
        Reply(content="<think>the member first</think>Your email, please?"),
        Reply(content=None, tool_calls=[("find_member", '{"email": "a@b')]),  # malformed
        Reply(content="cut off", finish_reason="length", completion_tokens=4096),
        Reply(content="", tool_calls=[("a", {}), ("b", {"x": 1})], finish_reason="eos"),
    ],
    ids=["reasoning", "malformed-arguments", "length", "two-calls"],
)
def test_same_completion_for_every_kind_of_answer(monkeypatch, reply) -> None:
    outcomes = by_each_transport(
        monkeypatch, lambda server: call(spec(server), tools=TOOLS), lambda request: reply
    )
    assert outcomes["direct"] == outcomes["litellm"]


def test_same_usage_and_cost_in_the_call_log(monkeypatch) -> None:
    def scenario(server: ScriptedModelServer) -> list[tuple[Any, ...]]:
        log: list = []
        token = call_log.set(log)
        try:
            call(spec(server, role="agent"))
            call(spec(server, model="openai/gpt-4o-mini", role="user"))
            call(spec(server, model="gpt-4o-mini", role="judge"))  # provider from api_base
        finally:
            call_log.reset(token)
        return [
            (c.role, c.model, c.prompt_tokens, c.completion_tokens, c.cost, c.attempts) for c in log
        ]

    outcomes = by_each_transport(monkeypatch, scenario)
    assert outcomes["direct"] == outcomes["litellm"]
    costs = [entry[4] for entry in outcomes["direct"]]
    assert costs[0] is None and costs[1] and costs[1] > 0 and costs[2] == costs[1]


def failure_of(error: BaseException) -> tuple[type, str, str]:
    """An error of :func:`complete`: its class, the kind of failure behind it and the
    words of that failure (the server's, on the direct path; litellm's, ending with the
    server's, on litellm's)."""
    cause = error.__cause__
    assert isinstance(cause, ModelCallFailure), cause
    return type(error), cause.kind, str(cause)


def assert_same_failure(outcomes: dict[str, Any]) -> None:
    """Both transports failed alike: same class and kind, and litellm's text ends with
    the direct path's words."""
    (direct_class, direct_kind, words), rest_direct = outcomes["direct"][0], outcomes["direct"][1:]
    (litellm_class, litellm_kind, litellm_words), rest = (
        outcomes["litellm"][0],
        outcomes["litellm"][1:],
    )
    assert (direct_class, direct_kind, rest_direct) == (litellm_class, litellm_kind, rest)
    assert litellm_words.endswith(words), (litellm_words, words)


@pytest.mark.parametrize(
    "failure",
    [
        Failure(status=400),
        Failure(status=403),
        Failure(status=404, body={"detail": "no such model"}),
        CONTEXT_OVERFLOW,
    ],
    ids=["bad-request", "forbidden", "not-found", "context-window"],
)
def test_same_error_for_a_refused_request(monkeypatch, sleeps, failure) -> None:
    def scenario(server: ScriptedModelServer) -> tuple[Any, ...]:
        server.inject(failure)
        with pytest.raises((ProviderError, ContextWindowError)) as raised:
            call(spec(server))
        return failure_of(raised.value), len(server.requests)

    outcomes = by_each_transport(monkeypatch, scenario)
    assert_same_failure(outcomes)
    assert outcomes["direct"][1] == 1 and sleeps == []  # never retried


def test_error_texts_name_the_model_the_kind_and_the_servers_words(server, sleeps) -> None:
    server.inject(Failure(status=400), CONTEXT_OVERFLOW, *[Failure(status=503)] * 2)
    server.inject(*[Failure(status=429, retry_after=2)] * 2)
    with pytest.raises(ProviderError) as bad_request:
        call(spec(server))
    with pytest.raises(ContextWindowError) as overflow:
        call(spec(server))
    with pytest.raises(ProviderError) as unavailable:
        call(spec(server, max_retries=1))
    with pytest.raises(ProviderError) as rate_limited:
        call(spec(server, max_retries=1))
    assert str(bad_request.value) == "openai/scripted: BadRequestError: injected failure 400"
    assert str(overflow.value) == (
        "openai/scripted: This model's maximum context length is 8192 tokens."
    )
    assert str(unavailable.value) == (
        "openai/scripted: ServiceUnavailableError after 2 attempts: injected failure 503"
    )
    assert str(rate_limited.value) == (
        "openai/scripted: RateLimitError after 2 attempts: injected failure 429"
    )
    assert sleeps[-1] == 2.0  # as the Retry-After said


@pytest.mark.parametrize("key", [None, "sk-wrong-key-123456"], ids=["no-key", "wrong-key"])
def test_a_refused_key_says_how_to_bind_one_and_is_not_retried(
    server, sleeps, monkeypatch, key
) -> None:
    from tautrait_core.llm.keys import set_key

    monkeypatch.setenv("OPENAI_API_KEY", "sk-provider-key-0123456789")  # never sent here
    if key is not None:
        set_key("LOCAL_SERVER_KEY", key, server.base_url)
    server.inject(Failure(status=401))
    with pytest.raises(ProviderError) as raised:
        call(spec(server))
    text = str(raised.value)
    assert text.startswith("openai/scripted: AuthenticationError: injected failure 401 (")
    assert f"tautrait keys set NAME --api-base {server.base_url}" in text
    assert ("no key is bound to this server" in text) == (key is None)
    assert key is None or key not in text
    assert len(server.requests) == 1 and sleeps == []


def test_same_retries_and_delays_on_transient_failures(monkeypatch, sleeps) -> None:
    failures = [
        Failure(status=429, retry_after=7),
        Failure(status=500),
        Failure(status=503, body={"detail": "overloaded"}),
        Failure(status=502),
        Failure(truncated=True),
    ]

    def scenario(server: ScriptedModelServer) -> tuple[Any, ...]:
        del sleeps[:]
        server.inject(*failures)
        completion = call(spec(server, max_retries=5))
        return completion.message, list(sleeps)

    outcomes = by_each_transport(monkeypatch, scenario)
    assert outcomes["direct"] == outcomes["litellm"]
    assert outcomes["direct"][1][0] == 7.0 and len(outcomes["direct"][1]) == len(failures)


def test_retry_after_as_an_http_date_is_honoured_alike(monkeypatch, sleeps) -> None:
    def scenario(server: ScriptedModelServer) -> bool:
        del sleeps[:]
        later = email.utils.formatdate(time.time() + 30, usegmt=True)
        server.inject(Failure(status=503, retry_after=later))
        call(spec(server))
        return 25 < sleeps[0] <= 30

    outcomes = by_each_transport(monkeypatch, scenario)
    assert outcomes == {"direct": True, "litellm": True}


def test_same_error_once_retries_are_spent(monkeypatch, sleeps) -> None:
    def scenario(server: ScriptedModelServer) -> tuple[Any, ...]:
        server.inject(*[Failure(status=502)] * 3)
        with pytest.raises(ProviderError) as raised:
            call(spec(server, max_retries=2))
        return failure_of(raised.value), "after 3 attempts" in str(raised.value)

    outcomes = by_each_transport(monkeypatch, scenario)
    assert_same_failure(outcomes)
    assert outcomes["direct"][1]


def test_timeouts_and_lost_servers_are_retried_alike(monkeypatch, sleeps) -> None:
    def scenario(server: ScriptedModelServer) -> tuple[Any, ...]:
        del sleeps[:]
        server.inject(Failure(delay_s=1.5))
        completion = call(spec(server, timeout_s=0.5))
        with pytest.raises(ProviderError) as raised:
            call(spec(server, api_base="http://127.0.0.1:9/v1", max_retries=1))
        return failure_of(raised.value), completion.message, len(sleeps)

    outcomes = by_each_transport(monkeypatch, scenario)
    assert_same_failure(outcomes)
    assert outcomes["direct"][0][1:] == ("InternalServerError", "Connection error.")
    assert outcomes["direct"][2] == 2


def test_text_that_cannot_be_sent_fails_alike_without_retrying(monkeypatch) -> None:
    broken = [{"role": "user", "content": "half a character: \ud800"}]

    def scenario(server: ScriptedModelServer) -> tuple[Any, ...]:
        with pytest.raises(ProviderError) as raised:
            call(spec(server), messages=broken)
        unsent = "codec can't encode" in str(raised.value)
        return failure_of(raised.value)[:2], unsent, server.requests

    outcomes = by_each_transport(monkeypatch, scenario)
    assert outcomes["direct"] == outcomes["litellm"]
    assert outcomes["direct"][1] and outcomes["direct"][2] == []


def test_cache_entries_are_shared_by_both_transports(server, monkeypatch, tmp_path) -> None:
    cache = tmp_path / "cache.db"
    for transport in TRANSPORTS:  # each transport answers from what the other stored
        use(transport, monkeypatch)
        scope = f"stored-by-{transport}"
        stored = call(spec(server, cache_path=cache, cache_scope=scope), tools=TOOLS)
        use(TRANSPORTS[transport == "direct"], monkeypatch)
        server.responder = lambda request: "a different answer"
        replayed = call(spec(server, cache_path=cache, cache_scope=scope), tools=TOOLS)
        server.responder = lambda request: "hi there"
        assert replayed.message == stored.message
        assert replayed.usage.cost == 0.0
    assert len(server.requests) == 2


def test_an_unprocessable_request_is_a_bad_request_sent_once(server, sleeps, monkeypatch) -> None:
    server.inject(Failure(status=422, body={"detail": "unsupported parameter"}))
    use("direct", monkeypatch)
    with pytest.raises(ProviderError) as raised:
        call(spec(server))
    assert str(raised.value).startswith("openai/scripted: BadRequestError: Error code: 422 (")
    assert "TAUTRAIT_LLM_TRANSPORT=litellm" in str(raised.value)
    assert len(server.requests) == 1 and sleeps == []


def test_what_the_direct_path_does_not_cover_goes_through_litellm(
    server, monkeypatch: pytest.MonkeyPatch
) -> None:
    base: dict[str, Any] = {
        "model": "openai/scripted",
        "api_base": server.base_url,
        "messages": [{"role": "user", "content": "hi"}],
        "timeout": 5,
    }
    use("direct", monkeypatch)
    assert direct.direct_route(base) is not None
    image = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]
    assert direct.direct_route({**base, "messages": image}) is None
    assert direct.direct_route({**base, "max_tokens": 10}) is None
    assert direct.direct_route({**base, "api_base": None}) is None
    assert direct.direct_route({**base, "model": "anthropic/claude-3-5-sonnet"}) is None
    monkeypatch.setattr(load_litellm(), "success_callback", ["langfuse"])
    assert direct.direct_route(base) is None
    monkeypatch.undo()
    use("litellm", monkeypatch)
    assert direct.direct_route(base) is None


@pytest.mark.parametrize(
    ("model", "provider"),
    [
        ("openai/scripted", None),
        ("openai/Qwen/Qwen2.5-7B-Instruct", None),
        ("gpt-4o-mini", "openai"),
        ("Qwen/Qwen2.5-7B-Instruct", "openai"),
        ("openai/x", "openai"),
        ("anthropic/claude-3-5-sonnet", None),
        ("hosted_vllm/x", None),
        ("x", "hosted_vllm"),
        ("Qwen/Qwen2.5-7B-Instruct", None),
    ],
)
def test_the_direct_path_takes_exactly_what_litellm_sends_to_openai(model, provider) -> None:
    base = "http://127.0.0.1:8000/v1"
    try:
        sent, resolved, _, _ = load_litellm().get_llm_provider(
            model=model, custom_llm_provider=provider, api_base=base
        )
    except Exception:  # litellm knows no provider for it: its own path reports that
        sent, resolved = None, None
    arguments = {"model": model, "api_base": base, "messages": [], "timeout": 5}
    if provider:
        arguments["custom_llm_provider"] = provider
    route = direct.direct_route(arguments)
    if resolved == "openai":
        assert route is not None and route.sent_model == sent
    else:
        assert route is None


def test_https_servers_take_the_direct_path(monkeypatch) -> None:
    use("direct", monkeypatch)
    route = direct.direct_route(
        {"model": "openai/m", "api_base": "https://models.example.com/v1/", "messages": []}
    )
    assert route is not None and route.url == "https://models.example.com/v1/chat/completions"


def test_a_cache_filled_by_earlier_versions_is_still_read(server, monkeypatch, tmp_path) -> None:
    """Earlier versions stored litellm's whole ``ModelResponse`` (``model_dump()``)."""
    from tautrait_core.llm.cache import open_cache, request_key

    litellm = load_litellm()
    stored = litellm.completion(
        model="openai/scripted",
        api_base=server.base_url,
        api_key="sk-local",
        messages=CONVERSATION,
        tools=TOOLS,
    ).model_dump()
    model_spec = spec(server, cache_path=tmp_path / "cache.db", cache_scope="old")
    arguments = {**client._request_arguments(model_spec), "messages": CONVERSATION, "tools": TOOLS}
    open_cache(model_spec.cache_path).put(request_key(arguments, "old"), stored)
    for transport in TRANSPORTS:
        use(transport, monkeypatch)
        replayed = call(model_spec, tools=TOOLS)
        assert replayed.message.content == "hi there" and replayed.usage.cost == 0.0
        assert (replayed.usage.prompt_tokens, replayed.finish_reason) == (10, "stop")
    assert len(server.requests) == 1  # only the call that filled the cache
