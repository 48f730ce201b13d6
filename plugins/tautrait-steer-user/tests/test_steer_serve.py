"""``tautrait steer serve``'s server: the protocol, batching of concurrent requests, failures."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from conftest import require_local_extra

require_local_extra()

import httpx  # noqa: E402
from tautrait_steer_user.batching import Batcher  # noqa: E402
from tautrait_steer_user.client import SteerClient  # noqa: E402
from tautrait_steer_user.errors import SteerServiceError  # noqa: E402
from tautrait_steer_user.generation import SteeredGenerator, SteerReply  # noqa: E402
from tautrait_steer_user.protocol import SteerRequest  # noqa: E402
from tautrait_steer_user.server import SteerServer  # noqa: E402

from tautrait_core import TraitMix  # noqa: E402

CHAT = [
    {"role": "system", "content": "You are a customer writing to a customer-service agent."},
    {"role": "user", "content": "Hello, how can I help you today?"},
]
MIXES = [
    {},
    {"impatience": "high"},
    {"confusion": "low"},
    {"skepticism": "medium"},
    {"incoherence": 2, "impatience": 1},
    {"confusion": "high"},
]
LIMIT_S = 60


class GatedGenerator:
    """A generator whose first batch waits until the test opens the gate, so the requests
    that arrive meanwhile queue up and form the next batch."""

    def __init__(self, inner: SteeredGenerator) -> None:
        self.inner = inner
        self.first_batch_started = threading.Event()
        self.gate = threading.Event()

    def check(self, request: SteerRequest) -> None:
        self.inner.check(request)

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]:
        if not self.first_batch_started.is_set():
            self.first_batch_started.set()
            assert self.gate.wait(LIMIT_S)
        return self.inner.generate(requests)


@pytest.fixture(scope="module")
def generator(tiny: tuple, tiny_vectors: Any) -> SteeredGenerator:
    model, tokenizer = tiny
    return SteeredGenerator(model, tokenizer, tiny_vectors)


@pytest.fixture
def server(generator: SteeredGenerator) -> Iterator[SteerServer]:
    with SteerServer(generator, max_batch=8) as running:
        yield running


def body(trait_dict: dict[str, Any], max_tokens: int = 5) -> dict[str, Any]:
    return {"trait_dict": trait_dict, "messages": CHAT, "temperature": 0, "max_tokens": max_tokens}


def post_all(
    url: str, bodies: list[dict[str, Any]], gated: GatedGenerator
) -> tuple[list[threading.Thread], list[Any]]:
    """Send the first body, wait until it is being generated, then send the rest together."""
    answers: list[Any] = [None] * len(bodies)

    def send(index: int) -> None:
        answers[index] = httpx.post(url, json=bodies[index], timeout=LIMIT_S)

    first = threading.Thread(target=send, args=(0,))
    first.start()
    assert gated.first_batch_started.wait(LIMIT_S)
    rest = [threading.Thread(target=send, args=(i,)) for i in range(1, len(bodies))]
    for thread in rest:
        thread.start()
    return [first, *rest], answers


def wait_for_queue(server: SteerServer, count: int) -> None:
    for _ in range(LIMIT_S * 100):
        if server.batcher.pending() == count:
            return
        time.sleep(0.01)
    raise AssertionError(f"{count} requests never queued")


def test_concurrent_requests_are_answered_in_batches(generator: SteeredGenerator) -> None:
    gated = GatedGenerator(generator)
    with SteerServer(gated, max_batch=8) as server:
        bodies = [body(mix) for mix in MIXES]
        threads, answers = post_all(server.url, bodies, gated)
        wait_for_queue(server, len(bodies) - 1)
        gated.gate.set()
        for thread in threads:
            thread.join(LIMIT_S)
        assert server.batcher.batch_sizes == [1, len(bodies) - 1]
    assert [answer.status_code for answer in answers] == [200] * len(bodies)
    for mix, answer in zip(MIXES, answers, strict=True):
        payload = answer.json()
        alone = generator.generate(
            [SteerRequest(TraitMix.from_trait_dict(mix), CHAT, 0.0, max_tokens=5)]
        )[0]
        assert payload["response"] == alone.text
        assert payload["usage"] == {
            "prompt_tokens": alone.prompt_tokens,
            "completion_tokens": alone.completion_tokens,
        }


def test_batches_are_capped(generator: SteeredGenerator) -> None:
    gated = GatedGenerator(generator)
    with SteerServer(gated, max_batch=2) as server:
        threads, answers = post_all(server.url, [body({}, 2)] * 5, gated)
        wait_for_queue(server, 4)
        gated.gate.set()
        for thread in threads:
            thread.join(LIMIT_S)
        assert server.batcher.batch_sizes == [1, 2, 2]
    assert all(answer.status_code == 200 for answer in answers)


def test_the_client_works_unchanged_against_the_local_server(server: SteerServer) -> None:
    client = SteerClient(server.url, api_key=None, timeout_s=LIMIT_S, max_retries=0)

    async def ask_many() -> list[Any]:
        requests = [
            SteerRequest(TraitMix.from_trait_dict(mix), CHAT, temperature=0.7, max_tokens=4)
            for mix in MIXES
        ]
        return await asyncio.gather(*(client.generate(request) for request in requests))

    answers = asyncio.run(ask_many())
    assert all(answer.text for answer in answers)
    assert all(answer.usage.completion_tokens <= 4 for answer in answers)
    assert all(answer.usage.prompt_tokens > 0 for answer in answers)


@pytest.mark.parametrize(
    ("payload", "complaint"),
    [
        (b"{not json", "not valid JSON"),
        (b'{"messages": []}', "messages"),
        (b'{"trait_dict": {"grumpy": "high"}, "messages": [{"role": "user"}]}', "unknown trait"),
    ],
)
def test_invalid_requests_are_answered_422(
    server: SteerServer, payload: bytes, complaint: str
) -> None:
    answer = httpx.post(server.url, content=payload, timeout=LIMIT_S)
    assert answer.status_code == 422 and complaint in answer.json()["detail"]


def test_trait_without_a_vector_is_answered_422(tiny: tuple, tiny_vectors: Any) -> None:
    model, tokenizer = tiny
    partial = type(tiny_vectors)(
        "tiny", tiny_vectors.layers, {"impatience": tiny_vectors.vectors["impatience"]}, "x"
    )
    with SteerServer(SteeredGenerator(model, tokenizer, partial)) as server:
        answer = httpx.post(server.url, json=body({"confusion": "high"}), timeout=LIMIT_S)
    assert answer.status_code == 422 and "no vector" in answer.json()["detail"]


def test_key_is_required_when_the_server_has_one(generator: SteeredGenerator) -> None:
    with SteerServer(generator, api_key="local-secret-123") as server:
        assert httpx.post(server.url, json=body({}), timeout=LIMIT_S).status_code == 401
        good = httpx.post(
            server.url, json=body({}), headers={"API-Key": "local-secret-123"}, timeout=LIMIT_S
        )
        assert good.status_code == 200
        client = SteerClient(server.url, api_key="wrong-key-456", max_retries=0)
        with pytest.raises(SteerServiceError, match="refused the API key"):
            asyncio.run(client.generate(SteerRequest(TraitMix(), CHAT)))


def test_health_describes_what_is_served(server: SteerServer, tiny_vectors: Any) -> None:
    health = httpx.get(server.url + "health", timeout=LIMIT_S).json()
    assert health["status"] == "ok" and health["layers"] == "1:3"
    assert health["vectors"] == tiny_vectors.content_hash()
    assert health["traits"] == sorted(tiny_vectors.vectors)


def test_a_failed_batch_is_a_500_and_the_server_keeps_serving(
    generator: SteeredGenerator,
) -> None:
    calls = {"count": 0}

    class FlakyGenerator(GatedGenerator):
        def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]:
            calls["count"] += 1
            if calls["count"] == 1:
                raise RuntimeError("CUDA out of memory")
            return self.inner.generate(requests)

    with SteerServer(FlakyGenerator(generator)) as server:
        failed = httpx.post(server.url, json=body({}), timeout=LIMIT_S)
        assert failed.status_code == 500 and "out of memory" in failed.json()["detail"]
        assert httpx.post(server.url, json=body({}), timeout=LIMIT_S).status_code == 200


def test_batcher_runs_every_request_once() -> None:
    seen: list[list[int]] = []

    def double(batch: Sequence[int]) -> list[int]:
        seen.append(list(batch))
        return [2 * value for value in batch]

    batcher: Batcher[int, int] = Batcher(double, max_batch=4, wait_s=0.0)
    futures = [batcher.submit(value) for value in range(10)]
    batcher.start()
    assert [future.result(LIMIT_S) for future in futures] == [2 * v for v in range(10)]
    batcher.stop()
    assert sorted(v for batch in seen for v in batch) == list(range(10))
    assert seen[0] == [0, 1, 2, 3] and max(len(batch) for batch in seen) <= 4
