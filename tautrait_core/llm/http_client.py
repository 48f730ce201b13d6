"""A small HTTP/1.1 client for posting JSON to plain-HTTP model servers, with keep-alive.

The direct path (:mod:`tautrait_core.llm.direct`) sends hundreds of requests at once to one
server. httpx's connection pool checks every pooled connection on each request (a system
call each), which at a few hundred connections costs more CPU than the request itself. This
client keeps idle connections per server on a stack and takes the top one: constant work
per request. It speaks only what a chat-completions call needs: ``POST`` with a body, and
answers framed by ``Content-Length``, chunked transfer encoding or the end of the connection.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_IDLE_PER_SERVER = 256
"""Idle connections kept per server; more are closed once their answer is read."""


class ConnectionLost(ConnectionError):
    """The server broke off its answer or sent something that is not an HTTP answer."""


class StaleConnection(ConnectionError):
    """A kept-alive connection the server had closed before this request was answered."""


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, headers (names lower-cased) and body."""

    status: int
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Endpoint:
    """Where a request goes: host, port and the request target (path and query)."""

    host: str
    port: int
    target: str

    @classmethod
    def from_url(cls, url: str) -> Endpoint:
        """The endpoint of an ``http://`` URL.

        Raises:
            ValueError: not a plain-HTTP URL.
        """
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"not a plain-HTTP URL: {url}")
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return cls(parts.hostname, parts.port or 80, target)


_Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class KeepAlivePool:
    """Open connections of one event loop, reused request after request."""

    def __init__(self) -> None:
        self._idle: dict[tuple[str, int], list[_Stream]] = {}

    async def post(
        self, endpoint: Endpoint, headers: dict[str, str], body: bytes, timeout: float
    ) -> Answer:
        """Send ``body`` and return the answer; a connection the server had closed while
        idle is replaced once.

        Raises:
            TimeoutError: no complete answer within ``timeout`` seconds.
            ConnectionError: the server could not be reached or broke the connection.
        """
        request = _request_head(endpoint, headers, len(body)) + body
        async with asyncio.timeout(timeout):
            idle = self._idle.setdefault((endpoint.host, endpoint.port), [])
            while idle:
                stream = idle.pop()
                if stream[0].at_eof() or stream[1].is_closing():
                    stream[1].close()
                    continue
                try:
                    return await self._exchange(stream, request, idle)
                except StaleConnection:
                    continue
            stream = await asyncio.open_connection(endpoint.host, endpoint.port)
            return await self._exchange(stream, request, idle)

    async def _exchange(self, stream: _Stream, request: bytes, idle: list[_Stream]) -> Answer:
        reader, writer = stream
        try:
            try:
                writer.write(request)
                await writer.drain()
            except (BrokenPipeError, ConnectionResetError) as error:
                raise StaleConnection() from error
            answer, keep = await _read_answer(reader)
        except BaseException:
            writer.close()
            raise
        if keep and len(idle) < MAX_IDLE_PER_SERVER:
            idle.append(stream)
        else:
            writer.close()
        return answer


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, KeepAlivePool] = (
    weakref.WeakKeyDictionary()
)


def loop_pool() -> KeepAlivePool:
    """The connection pool of the running event loop (connections belong to their loop)."""
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = KeepAlivePool()
    return pool


def _request_head(endpoint: Endpoint, headers: dict[str, str], length: int) -> bytes:
    host = endpoint.host if endpoint.port == 80 else f"{endpoint.host}:{endpoint.port}"
    lines = [f"POST {endpoint.target} HTTP/1.1", f"Host: {host}", f"Content-Length: {length}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _read_answer(reader: asyncio.StreamReader) -> tuple[Answer, bool]:
    """The answer on ``reader`` and whether the connection stays open after it."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as error:
        if error.partial:
            raise ConnectionLost("the answer broke off in its headers") from error
        raise StaleConnection() from error
    except ConnectionResetError as error:
        raise StaleConnection() from error
    except asyncio.LimitOverrunError as error:
        raise ConnectionLost("the answer's headers are too long") from error
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    version, _, rest = status_line.partition(" ")
    if not version.startswith("HTTP/") or not rest[:3].isdigit():
        raise ConnectionLost(f"not an HTTP answer: {status_line[:80]!r}")
    headers: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    try:
        body, framed = await _read_body(reader, headers)
    except (asyncio.IncompleteReadError, ValueError) as error:
        raise ConnectionLost("the answer broke off in its body") from error
    closing = headers.get("connection", "").lower() == "close" or version == "HTTP/1.0"
    return Answer(int(rest[:3]), headers, body), framed and not closing


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> tuple[bytes, bool]:
    """The body and whether its end was marked (else it ran to the end of the connection)."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        chunks = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await _skip_trailer(reader)
                return b"".join(chunks), True
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"])), True
    return await reader.read(), False


async def _skip_trailer(reader: asyncio.StreamReader) -> None:
    while (await reader.readuntil(b"\r\n")) != b"\r\n":
        pass
