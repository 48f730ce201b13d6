"""The direct path's HTTP client: answer framing, kept-alive connections, broken answers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from tautrait_core.llm.http_client import ConnectionLost, Endpoint, KeepAlivePool

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter, int], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )
    return await reader.readexactly(length)


async def exchange(handler: Handler, bodies: list[bytes]) -> tuple[list, list[int]]:
    """Post ``bodies`` one after another to a server run by ``handler`` (called with each
    connection's number); the answers (or errors) and the connection each request used."""
    connections: list[int] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        number = len(connections)
        connections.append(number)
        try:
            await handler(reader, writer, number)
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    pool = KeepAlivePool()
    endpoint = Endpoint.from_url(f"http://127.0.0.1:{port}/v1/chat/completions")
    answers: list = []
    for body in bodies:
        try:
            answers.append(await pool.post(endpoint, {"X-Test": "1"}, body, timeout=5))
        except (ConnectionError, TimeoutError) as error:
            answers.append(error)
    server.close()
    return answers, connections


def test_connections_are_kept_alive_and_content_length_frames_the_body() -> None:
    async def echo(reader, writer, number) -> None:
        while True:
            try:
                body = await read_request(reader)
            except asyncio.IncompleteReadError:
                return
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()

    answers, connections = asyncio.run(exchange(echo, [b'{"a": 1}', b'{"b": 2}', b"{}"]))
    assert [a.body for a in answers] == [b'{"a": 1}', b'{"b": 2}', b"{}"]
    assert [a.status for a in answers] == [200, 200, 200]
    assert connections == [0]  # one connection for all three


def test_chunked_answers_and_headers_are_read() -> None:
    async def chunked(reader, writer, number) -> None:
        await read_request(reader)
        writer.write(
            b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\n"
            b'Transfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n5;x=y\r\n: 12}\r\n0\r\n\r\n'
        )
        await writer.drain()
        await reader.read()

    answers, _ = asyncio.run(exchange(chunked, [b"{}"]))
    assert (answers[0].status, answers[0].body) == (429, b'{"a": 12}')
    assert answers[0].headers["retry-after"] == "7"


def test_a_connection_the_server_closed_is_replaced_without_resending_twice() -> None:
    requests: list[bytes] = []

    async def one_answer_per_connection(reader, writer, number) -> None:
        requests.append(await read_request(reader))
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()  # then closes, as an idle timeout would

    async def run() -> tuple[list, list[int]]:
        return await exchange(one_answer_per_connection, [b"1", b"2"])

    answers, connections = asyncio.run(run())
    assert [a.body for a in answers] == [b"ok", b"ok"]
    assert requests == [b"1", b"2"] and connections == [0, 1]


def test_connection_close_and_end_of_stream_framing() -> None:
    async def close_after(reader, writer, number) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end")
        await writer.drain()

    answers, connections = asyncio.run(exchange(close_after, [b"1", b"2"]))
    assert [a.body for a in answers] == [b"until the end"] * 2
    assert connections == [0, 1]


@pytest.mark.parametrize(
    "answer",
    [b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\ncut", b"HTTP/1.1 20", b"SSH-2.0\r\n\r\n"],
    ids=["body-cut", "head-cut", "not-http"],
)
def test_a_broken_answer_is_a_connection_error(answer: bytes) -> None:
    async def broken(reader, writer, number) -> None:
        await read_request(reader)
        writer.write(answer)
        await writer.drain()

    answers, _ = asyncio.run(exchange(broken, [b"1"]))
    assert isinstance(answers[0], ConnectionLost)


def test_a_slow_server_times_out() -> None:
    async def slow(reader, writer, number) -> None:
        await read_request(reader)
        await asyncio.sleep(10)

    async def run() -> object:
        server = await asyncio.start_server(lambda r, w: slow(r, w, 0), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        endpoint = Endpoint.from_url(f"http://127.0.0.1:{port}/v1")
        try:
            await KeepAlivePool().post(endpoint, {}, b"{}", timeout=0.2)
        except TimeoutError as error:
            return error
        finally:
            server.close()
        return None

    assert isinstance(asyncio.run(run()), TimeoutError)


def test_only_plain_http_urls_are_endpoints() -> None:
    assert Endpoint.from_url("http://localhost:8000/v1/chat/completions?x=1") == Endpoint(
        "localhost", 8000, "/v1/chat/completions?x=1"
    )
    with pytest.raises(ValueError):
        Endpoint.from_url("https://api.openai.com/v1/chat/completions")
