"""The steer client against a fake service on loopback: protocol, retries and failures."""

from __future__ import annotations

import asyncio
import email.utils
import socket
import time
from typing import Any

import pytest
from tautrait_steer_user.client import SteerClient, endpoint_label
from tautrait_steer_user.errors import SteerServiceError
from tautrait_steer_user.fake_service import FakeSteerService, ServiceFailure
from tautrait_steer_user.protocol import SteerRequest

from tautrait_core import ModelCall, ProviderError, TraitMix, call_log

KEY = "sk-steer-secret-0123456789"
REQUEST = SteerRequest(
    TraitMix.parse("impatience=high,skepticism=low"),
    [
        {"role": "system", "content": "You are a customer."},
        {"role": "user", "content": "How can I help?"},
    ],
)


def ask(service: FakeSteerService, api_key: str | None = KEY, **options: Any) -> Any:
    settings: dict[str, Any] = {"timeout_s": 5.0, "max_retries": 4, "retry_base_s": 0.0}
    settings.update(options)
    steer_client = SteerClient(service.url, api_key, **settings)
    return asyncio.run(steer_client.generate(REQUEST))


def test_request_carries_key_traits_and_conversation(steer_service: FakeSteerService) -> None:
    answer = ask(steer_service)
    assert answer.text == "Please just fix it." and answer.attempts == 1
    (received,) = steer_service.requests
    assert received.headers["API-Key"] == KEY
    assert received.body == {
        "trait_dict": {"impatience": "high", "skeptical": "low"},
        "messages": REQUEST.messages,
        "temperature": 0.7,
        "max_tokens": 256,
    }
    assert answer.usage.calls == 1 and answer.usage.cost is None


def test_transient_failures_are_retried(steer_service: FakeSteerService) -> None:
    steer_service.inject(
        ServiceFailure(503),
        ServiceFailure(429, retry_after="0"),
        ServiceFailure(200, body=b"<html>gateway hiccup</html>"),
        ServiceFailure(502, body=b"bad gateway"),
    )
    answer = ask(steer_service)
    assert answer.text == "Please just fix it."
    assert answer.attempts == 5 and len(steer_service.requests) == 5


def test_timeouts_are_retried(steer_service: FakeSteerService) -> None:
    steer_service.inject(ServiceFailure(200, delay_s=1.0))
    answer = ask(steer_service, timeout_s=0.2)
    assert answer.attempts == 2


def test_retry_after_is_honoured_in_seconds_and_as_an_http_date(
    steer_service: FakeSteerService, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def record(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", record)
    later = email.utils.formatdate(time.time() + 60, usegmt=True)
    steer_service.inject(
        ServiceFailure(429, retry_after="7"),
        ServiceFailure(503, retry_after=later),
        ServiceFailure(500),
    )
    ask(steer_service, retry_base_s=0.5)
    assert waits[0] == 7.0 and 50 < waits[1] <= 60
    assert 2.0 <= waits[2] <= 3.0  # no Retry-After: the third backoff, 0.5 s x 2^2 + jitter


def test_one_connection_pool_serves_every_call_of_a_run(
    steer_service: FakeSteerService,
) -> None:
    async def episodes() -> None:
        for _ in range(3):  # a client per episode, as the trait backend makes them
            await SteerClient(steer_service.url, KEY).generate(REQUEST)

    asyncio.run(episodes())
    ports = {request.client_port for request in steer_service.requests}
    assert len(steer_service.requests) == 3 and len(ports) == 1


def test_server_errors_after_retries_are_provider_errors(steer_service: FakeSteerService) -> None:
    steer_service.responder = lambda body: ServiceFailure(500)
    with pytest.raises(SteerServiceError) as caught:
        ask(steer_service, max_retries=2)
    assert isinstance(caught.value, ProviderError)
    message = str(caught.value)
    assert "answered 500" in message and "after 3 attempts" in message
    assert len(steer_service.requests) == 3


def test_unreachable_service_is_retried_then_a_provider_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    steer_client = SteerClient(f"http://127.0.0.1:{port}/", KEY, max_retries=1, retry_base_s=0)
    with pytest.raises(ProviderError, match=r"connection failed .* after 2 attempts"):
        asyncio.run(steer_client.generate(REQUEST))


@pytest.mark.parametrize("status", [401, 403])
def test_refused_key_fails_at_once_naming_the_variable(status: int) -> None:
    with FakeSteerService() as service:
        service.inject(ServiceFailure(status, body={"detail": f"key {KEY} is not valid"}))
        with pytest.raises(SteerServiceError) as caught:
            ask(service)
        assert len(service.requests) == 1
    message = str(caught.value)
    assert "STEER_API_KEY" in message and f"({status})" in message
    assert KEY not in message


def test_missing_key_is_named() -> None:
    with FakeSteerService(api_key=KEY) as service, pytest.raises(SteerServiceError) as caught:
        ask(service, api_key=None)
    assert "needs an API key" in str(caught.value) and "STEER_API_KEY" in str(caught.value)
    assert "API-Key" not in service.requests[0].headers


def test_rejected_request_says_what_was_rejected(steer_service: FakeSteerService) -> None:
    detail = [{"loc": ["body", "trait_dict", "impatience"], "msg": "unknown intensity"}]
    steer_service.inject(ServiceFailure(422, body={"detail": detail}))
    with pytest.raises(SteerServiceError, match=r"rejected .*trait_dict.impatience: unknown"):
        ask(steer_service)
    assert len(steer_service.requests) == 1


def test_answer_without_response_fails_at_once(steer_service: FakeSteerService) -> None:
    steer_service.inject(ServiceFailure(200, body={"choices": [], "id": "x"}))
    with pytest.raises(SteerServiceError, match=r"no 'response' .*\['choices', 'id'\]"):
        ask(steer_service)
    assert len(steer_service.requests) == 1


def test_non_json_answers_fail_after_retries(steer_service: FakeSteerService) -> None:
    steer_service.responder = lambda body: ServiceFailure(200, body=b"Internal proxy page")
    with pytest.raises(SteerServiceError, match=r"not JSON: 'Internal proxy page' after 2"):
        ask(steer_service, max_retries=1)


def test_key_echoed_by_a_failing_service_is_redacted(steer_service: FakeSteerService) -> None:
    steer_service.responder = lambda body: ServiceFailure(503, body=f"bad key {KEY}".encode())
    with pytest.raises(SteerServiceError) as caught:
        ask(steer_service, max_retries=0)
    assert KEY not in str(caught.value) and "[redacted]" in str(caught.value)


def test_calls_are_recorded_in_the_episode_call_log(steer_service: FakeSteerService) -> None:
    steer_service.inject(ServiceFailure(503))
    log: list[ModelCall] = []
    token = call_log.set(log)
    try:
        ask(steer_service)
    finally:
        call_log.reset(token)
    (call,) = log
    assert call.role == "user" and call.attempts == 2 and call.cost is None
    assert call.model == f"steer:{endpoint_label(steer_service.url)}"


def test_endpoint_label_drops_credentials_and_query() -> None:
    label = endpoint_label("https://user:pw@steer.example.com:8443/v1/gen?token=abc")
    assert label == "https://steer.example.com:8443/v1/gen"
