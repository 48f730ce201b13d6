"""The direct path's HTTP against servers that break HTTP/1.1, and the session's lifetime.

Each request is sent at most once per attempt: a body reaches the server at most
``1 + max_retries`` times whatever the server does, and what comes back is the answer to
that request or a clear error. One session per event loop, closed when its scope (a run)
or its loop ends: ``asyncio.run`` after ``asyncio.run`` leaves no socket open.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tautrait_core.errors import ProviderError
from tautrait_core.llm import direct
from tautrait_core.llm.client import ModelSpec, complete
from tautrait_core.llm.http_session import session_scope
from tautrait_core.testing.misbehaving_server import UNSOLICITED, Act, MisbehavingServer

RETRIES = 2


@pytest.fixture(autouse=True)
def direct_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(direct.TRANSPORT_VARIABLE, raising=False)


@pytest.fixture
def server() -> Iterator[MisbehavingServer]:
    with MisbehavingServer() as running:
        yield running


def spec(server: MisbehavingServer, **overrides: Any) -> ModelSpec:
    options: dict[str, Any] = {
        "model": "openai/scripted",
        "api_base": server.base_url,
        "max_retries": RETRIES,
        "retry_base_s": 0.0,
        "timeout_s": 5.0,
    }
    options.update(overrides)
    return ModelSpec(**options)


def ask(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def answer(model_spec: ModelSpec, text: str) -> str | None:
    return asyncio.run(complete(model_spec, ask(text))).message.content


def times_received(server: MisbehavingServer, text: str) -> int:
    return sum(1 for body in server.bodies if body["messages"] == ask(text))


@pytest.mark.parametrize("act", [Act.ANSWER, Act.INFORMATIONAL, Act.GZIP, Act.CLOSE])
def test_well_formed_answers_are_read_once(server, act) -> None:
    server.inject(act, act)
    assert answer(spec(server), "first") == "answer 1"
    assert answer(spec(server), "second") == "answer 2"
    assert times_received(server, "first") == times_received(server, "second") == 1


def test_a_connection_closed_after_each_answer_is_never_reused(server) -> None:
    async def three_calls() -> list[str | None]:
        calls = [complete(spec(server), ask(f"call {n}")) for n in range(3)]
        return [(await call).message.content for call in calls]

    server.default = Act.CLOSE
    assert asyncio.run(three_calls()) == ["answer 1", "answer 2", "answer 3"]
    assert len(server.bodies) == 3 and server.connections == 3


@pytest.mark.parametrize("act", [Act.DROP, Act.HALF, Act.NO_CONTENT])
def test_a_request_without_a_usable_answer_is_sent_once_per_attempt(server, act) -> None:
    server.default = act
    with pytest.raises(ProviderError) as raised:
        answer(spec(server), "dropped")
    assert times_received(server, "dropped") == 1 + RETRIES
    assert f"after {1 + RETRIES} attempts" in str(raised.value)


def test_an_answer_without_a_body_says_so(server) -> None:
    server.default = Act.NO_CONTENT
    with pytest.raises(ProviderError, match="answered 204 without a body"):
        answer(spec(server, max_retries=0), "no content")


def test_a_dropped_request_is_not_resent_on_other_pooled_connections() -> None:
    pooled = 8
    with MisbehavingServer(latency_s=0.05) as server:

        async def fill_the_pool_then_drop() -> None:
            async with session_scope():
                await asyncio.gather(*(complete(spec(server), ask(f"{n}")) for n in range(pooled)))
                assert server.connections == pooled
                server.default = Act.DROP
                with pytest.raises(ProviderError):
                    await complete(spec(server), ask("dropped"))

        asyncio.run(fill_the_pool_then_drop())
    assert times_received(server, "dropped") == 1 + RETRIES


def test_an_unsolicited_answer_on_an_idle_connection_is_not_taken(server) -> None:
    async def two_calls() -> list[str | None]:
        first = await complete(spec(server), ask("first"))
        while server.unsolicited == 0:  # the extra answer is on the idle connection
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.05)
        second = await complete(spec(server), ask("second"))
        return [first.message.content, second.message.content]

    server.inject(Act.EXTRA)
    assert asyncio.run(two_calls()) == ["answer 1", "answer 2"]
    assert UNSOLICITED not in str(server.bodies)
    assert times_received(server, "second") == 1


def test_an_ipv6_server_is_called_with_its_bracketed_host() -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    try:
        server = MisbehavingServer(host="::1").start()
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    try:
        assert answer(spec(server), "over IPv6") == "answer 1"
        port = server.base_url.rsplit(":", 1)[1].split("/")[0]
    finally:
        server.stop()
    assert server.hosts == [f"[::1]:{port}"]


@pytest.mark.parametrize("exempt", [False, True], ids=["proxied", "no-proxy"])
def test_the_proxy_the_environment_names_is_used(server, monkeypatch, exempt) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", server.base_url.removesuffix("/v1"))
    if exempt:
        monkeypatch.setenv("NO_PROXY", "models.invalid")
    unreachable = spec(server, api_base="http://models.invalid:9/v1", max_retries=0)
    if exempt:  # straight to a host that does not exist
        with pytest.raises(ProviderError, match="Connection error"):
            answer(unreachable, "hello")
        assert server.targets == []
    else:
        assert answer(unreachable, "hello") == "answer 1"
        assert server.targets == ["http://models.invalid:9/v1/chat/completions"]


def open_sockets(server: MisbehavingServer) -> int:
    """Sockets this process has open to or from ``server`` (its own ends included: it runs
    in a thread), whatever other tests left open elsewhere."""
    port = int(server.base_url.rsplit(":", 1)[1].split("/")[0])
    count = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            if not stat.S_ISSOCK(os.stat(f"/proc/self/fd/{name}").st_mode):
                continue
            with socket.socket(fileno=os.dup(int(name))) as found:
                ends = [found.getsockname()]
                with contextlib.suppress(OSError):  # not connected: a listening socket
                    ends.append(found.getpeername())
        except OSError:  # closed meanwhile, or not an internet socket
            continue
        if any(isinstance(end, tuple) and end[1] == port for end in ends):
            count += 1
    return count


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_event_loop_after_event_loop_leaves_no_socket_open(server) -> None:
    model_spec = spec(server)
    before = open_sockets(server)
    for n in range(100):
        assert answer(model_spec, f"loop {n}") == f"answer {n + 1}"
    assert sockets_settle_at(server, before)


def sockets_settle_at(server: MisbehavingServer, expected: int) -> bool:
    """Whether the sockets of ``server`` come down to ``expected`` within a second (the
    server's thread closes its ends once it sees the client's close)."""
    for _ in range(100):
        if open_sockets(server) == expected:
            return True
        time.sleep(0.01)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_a_session_scope_closes_its_connections_when_it_ends(server) -> None:
    async def scoped_calls() -> tuple[int, int, bool]:
        before = open_sockets(server)
        async with session_scope():
            await asyncio.gather(*(complete(spec(server), ask(f"{n}")) for n in range(4)))
            inside = open_sockets(server)
        return before, inside, await asyncio.to_thread(sockets_settle_at, server, before)

    server.latency_s = 0.05  # the four calls overlap: four connections
    before, inside, settled = asyncio.run(scoped_calls())
    assert inside == before + 8 and settled  # both ends of four connections, then none
