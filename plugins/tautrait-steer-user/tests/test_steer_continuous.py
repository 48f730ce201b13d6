"""Continuous batching through ``tautrait steer serve``'s server with the fast path: requests
join the running batch, leave it when they stop, within ``max_batch`` rows."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from conftest import require_local_extra

require_local_extra()

import httpx  # noqa: E402
from tautrait_steer_user.fast_generation import FastSteeredGenerator  # noqa: E402
from tautrait_steer_user.generation import SteeredGenerator, SteerReply  # noqa: E402
from tautrait_steer_user.protocol import SteerRequest, parse_request  # noqa: E402
from tautrait_steer_user.server import SteerServer  # noqa: E402

CHAT = [
    {"role": "system", "content": "You are a customer writing to a customer-service agent."},
    {"role": "user", "content": "Hello, how can I help you today?"},
]
LIMIT_S = 60


class SteppedEngine:
    """A fast generator whose every round of steps waits for the test's go-ahead."""

    def __init__(self, inner: FastSteeredGenerator) -> None:
        self.inner = inner
        self.rounds = threading.Semaphore(0)

    @property
    def free_rows(self) -> int:
        return self.inner.free_rows

    def check(self, request: SteerRequest) -> None:
        self.inner.check(request)

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def prepare(self, request: SteerRequest) -> Any:
        return self.inner.prepare(request)

    def admit(self, turns: Sequence[Any]) -> list[int]:
        return self.inner.admit(turns)

    def advance(self) -> list[tuple[int, SteerReply]]:
        assert self.rounds.acquire(timeout=LIMIT_S)
        return self.inner.advance()

    def drop_all(self) -> list[int]:
        return self.inner.drop_all()

    def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]:
        raise AssertionError("a row engine is batched continuously, never by whole batches")


@pytest.fixture(scope="module")
def eager(tiny: tuple, tiny_vectors: Any) -> SteeredGenerator:
    model, tokenizer = tiny
    return SteeredGenerator(model, tokenizer, tiny_vectors)


def body(trait_dict: dict[str, Any], max_tokens: int) -> dict[str, Any]:
    return {"trait_dict": trait_dict, "messages": CHAT, "temperature": 0, "max_tokens": max_tokens}


def alone(eager: SteeredGenerator, payload: dict[str, Any]) -> str:
    return eager.generate([parse_request(payload)])[0].text


def send(url: str, payload: dict[str, Any], answers: dict[int, Any], key: int) -> threading.Thread:
    def post() -> None:
        answers[key] = httpx.post(url, json=payload, timeout=LIMIT_S)

    thread = threading.Thread(target=post)
    thread.start()
    return thread


def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + LIMIT_S
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_a_request_joins_the_running_batch_and_leaves_before_it(
    eager: SteeredGenerator,
) -> None:
    engine = SteppedEngine(FastSteeredGenerator(eager, max_batch=4, sync_every=2))
    long, short = body({"impatience": "high"}, 100), body({"confusion": "low"}, 3)
    answers: dict[int, Any] = {}
    with SteerServer(engine) as server:
        batcher = server.batcher
        first = send(server.url, long, answers, 0)
        wait_until(lambda: list(batcher.batch_sizes) == [1])  # the long turn is generating
        second = send(server.url, short, answers, 1)
        wait_until(lambda: batcher.pending() == 1)
        while second.is_alive():  # one round at a time until the short turn is answered
            rounds = len(batcher.batch_sizes)
            engine.rounds.release()
            wait_until(lambda n=rounds: len(batcher.batch_sizes) > n or not second.is_alive())
        assert first.is_alive() and 0 not in answers  # the long turn is still generating
        assert 2 in batcher.batch_sizes  # the short one ran beside it
        engine.rounds.release(100)
        first.join(LIMIT_S)
    assert [answers[i].status_code for i in (0, 1)] == [200, 200]
    assert answers[0].json()["response"] == alone(eager, long)
    assert answers[1].json()["response"] == alone(eager, short)
    assert answers[1].json()["usage"]["completion_tokens"] == 3


def test_rows_are_bounded_by_max_batch(eager: SteeredGenerator) -> None:
    engine = SteppedEngine(FastSteeredGenerator(eager, max_batch=2, sync_every=2))
    payloads = [body({"skeptical": "medium"} if i % 2 else {}, 2 + i) for i in range(5)]
    answers: dict[int, Any] = {}
    with SteerServer(engine, max_batch=32, wait_s=LIMIT_S) as server:
        threads = [send(server.url, payload, answers, i) for i, payload in enumerate(payloads)]
        wait_until(
            lambda: server.batcher.pending() == 3 and list(server.batcher.batch_sizes) == [2]
        )
        engine.rounds.release(100)
        for thread in threads:
            thread.join(LIMIT_S)
        assert max(server.batcher.batch_sizes) == 2
    for index, payload in enumerate(payloads):
        assert answers[index].status_code == 200
        assert answers[index].json()["response"] == alone(eager, payload)


def test_a_request_longer_than_the_context_is_answered_422(eager: SteeredGenerator) -> None:
    with SteerServer(FastSteeredGenerator(eager, max_context=64)) as server:
        refused = httpx.post(server.url, json=body({}, 60), timeout=LIMIT_S)
        assert refused.status_code == 422 and "--max-context" in refused.json()["detail"]
        assert httpx.post(server.url, json=body({}, 3), timeout=LIMIT_S).status_code == 200
        health = httpx.get(server.url + "health", timeout=LIMIT_S).json()
    assert health["engine"] == "fast" and health["max_context"] == 64
    assert health["batches"] == 1  # one round of steps: the accepted request's


def test_a_failed_step_fails_its_rows_and_the_server_keeps_serving(
    eager: SteeredGenerator,
) -> None:
    class FlakyEngine(SteppedEngine):
        failed = False

        def advance(self) -> list[tuple[int, SteerReply]]:
            if not self.failed:
                self.failed = True
                raise RuntimeError("CUDA out of memory")
            return self.inner.advance()

    with SteerServer(FlakyEngine(FastSteeredGenerator(eager))) as server:
        failed = httpx.post(server.url, json=body({}, 3), timeout=LIMIT_S)
        assert failed.status_code == 500 and "out of memory" in failed.json()["detail"]
        again = httpx.post(server.url, json=body({}, 3), timeout=LIMIT_S)
    assert again.status_code == 200 and again.json()["response"] == alone(eager, body({}, 3))
