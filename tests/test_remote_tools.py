"""The episodes' tool endpoints over MCP: each episode reaches only its own tools, through
an unguessable path, and an ended episode's endpoint refuses every request."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

import httpx
import pytest

from tautrait_core.remote.mcp_server import tool_server
from tautrait_core.remote.tool_channel import ToolChannel

mcp_client = pytest.importorskip("mcp.client.streamable_http")
mcp_session = pytest.importorskip("mcp.client.session")


def schema(name: str) -> dict[str, Any]:
    parameters = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}
    return {
        "type": "function",
        "function": {"name": name, "description": name, "parameters": parameters},
    }


@contextlib.asynccontextmanager
async def mcp(url: str):
    async with (
        mcp_client.streamable_http_client(url) as (read, write),
        mcp_session.ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def serve_one_call(channel: ToolChannel, observation: str) -> str:
    """Play the episode loop once: take the call, answer it, return its arguments."""
    call = await channel.next_call()
    channel.answer(call.id, observation)
    return f"{call.name} {call.arguments}"


def test_each_endpoint_serves_its_own_episode_and_closes_with_it() -> None:
    async def scenario() -> None:
        server = tool_server("127.0.0.1")
        first, second = ToolChannel([schema("alpha")]), ToolChannel([schema("beta")])
        first_url, second_url = await server.open(first), await server.open(second)
        assert first_url.startswith("http://127.0.0.1:") and first_url != second_url
        assert len(first_url.rsplit("/", 1)[-1]) >= 32  # not guessable
        async with mcp(first_url) as session:
            tools = await session.list_tools()
            assert [(t.name, t.input_schema["required"]) for t in tools.tools] == [("alpha", ["x"])]
            episode = asyncio.create_task(serve_one_call(first, "alpha says 1"))
            result = await session.call_tool("alpha", {"x": 1})
            assert result.content[0].text == "alpha says 1" and not result.is_error
            assert await episode == 'alpha {"x": 1}'
        async with mcp(second_url) as session:
            assert [t.name for t in (await session.list_tools()).tools] == ["beta"]
        server.close(first_url)
        async with httpx.AsyncClient() as client:
            for url in (first_url, first_url[:-4] + "abcd", first_url.rsplit("/", 1)[0]):
                answer = await client.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
                assert answer.status_code == 404, url
        assert first.closed and not second.closed
        server.close(second_url)

    asyncio.run(scenario())


def test_a_call_waiting_when_its_episode_ends_is_refused() -> None:
    async def scenario() -> None:
        server = tool_server("127.0.0.1")
        channel = ToolChannel([schema("alpha")])
        url = await server.open(channel)
        async with mcp(url) as session:
            waiting = asyncio.create_task(session.call_tool("alpha", {"x": 2}))
            await channel.next_call()  # the episode took it, then ended before answering
            server.close(url)
            result = await waiting
        assert result.is_error and "has ended" in result.content[0].text

    asyncio.run(scenario())


def test_listening_on_every_interface_hands_out_the_host_name() -> None:
    async def scenario() -> None:
        server = tool_server("0.0.0.0")
        channel = ToolChannel([schema("alpha")])
        url = await server.open(channel)
        assert url.startswith(f"http://{socket.getfqdn()}:")
        local = "http://127.0.0.1:" + url.split(":", 2)[2]  # reachable on loopback too
        async with mcp(local) as session:
            assert [t.name for t in (await session.list_tools()).tools] == ["alpha"]
        server.close(url)

    asyncio.run(scenario())
