"""HTTP for model calls and other services: one aiohttp session per event loop, closed when
the run on that loop ends.

aiohttp's session keeps a pool of kept-alive connections per server (TLS included), costs
far less CPU per request than litellm's client, and sends each request once: it never sends
a ``POST`` again on another connection when the server drops it, so whoever calls
:func:`post_json` decides alone whether to send a request again
(:mod:`tautrait_core.llm.retries`). No cookies are kept: each request stands alone.

A server is reached through the proxy the environment names for it (``HTTP_PROXY``,
``HTTPS_PROXY``, ``NO_PROXY``) as aiohttp's ``trust_env`` would pick it, but looked up once
per server and session: ``trust_env`` looks the proxy and ``~/.netrc`` up in a thread on
every request, which costs more CPU than the request itself (and refuses a request with an
``Authorization`` header to a host ``~/.netrc`` names).

A session belongs to the event loop it was made on. :func:`session_scope` says how long it
lives: a run, an episode played alone, a judged episode each open a scope around their model
calls, and the loop's session is closed when its last scope ends. A call made outside any
scope opens the session until the loop ends (``asyncio.run`` closes it on the way out).
aiohttp is imported with the first request, so that runs without models start without it.
"""

from __future__ import annotations

import asyncio
import functools
import time
import urllib.request
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import aiohttp

KEEPALIVE_S = 4.0
"""Seconds an idle connection is kept: under the 5 s after which uvicorn (vLLM's server)
closes one, so that a request rarely meets a connection the server is closing."""

ERROR_STATUS = 400
MAX_ERROR_BODY_BYTES = 1_000_000
"""The most bytes of an error answer's body that are read: what a server says about an
error fits, and a body of megabytes would only be cut when it is stored."""


@dataclass(frozen=True)
class HttpAnswer:
    """An HTTP answer: its status, headers (names in any case) and whole body."""

    status: int
    headers: Mapping[str, str]
    body: bytes


class NoAnswer(Exception):
    """The request got no complete answer."""


class RequestTimeout(NoAnswer):
    """No complete answer within the timeout.

    Attributes:
        timeout_s: The timeout.
        waited_s: How long the request waited.
    """

    def __init__(self, timeout_s: float, waited_s: float) -> None:
        super().__init__(f"no answer within {timeout_s:g} s")
        self.timeout_s = timeout_s
        self.waited_s = waited_s


class ConnectionFailed(NoAnswer):
    """The server could not be reached, or closed the connection before its answer was
    complete. The message names aiohttp's error (``ClientConnectorError``,
    ``ServerDisconnectedError``, ``ClientPayloadError``, ...)."""


async def post_json(
    url: str, body: bytes, headers: Mapping[str, str], timeout_s: float
) -> HttpAnswer:
    """Post the JSON text ``body`` to ``url`` once, with ``headers``, on the running loop's
    session, and read the whole answer (of an error answer, status 400 or more, at most
    :data:`MAX_ERROR_BODY_BYTES`; the connection of a longer one is closed).

    Raises:
        RequestTimeout: no complete answer within ``timeout_s``.
        ConnectionFailed: the connection failed or broke off.
    """
    import aiohttp

    held = _loop_held()
    session = await held.open()
    started = time.monotonic()
    try:
        async with session.post(
            url,
            data=body,
            headers={"Content-Type": "application/json", **headers},
            timeout=aiohttp.ClientTimeout(total=timeout_s),
            proxy=held.proxy_for(url),
        ) as response:
            if response.status < ERROR_STATUS:
                return HttpAnswer(response.status, response.headers, await response.read())
            chunks = response.content.iter_chunked(64 * 1024)
            body, _longer = await read_at_most(chunks, MAX_ERROR_BODY_BYTES)
            return HttpAnswer(response.status, response.headers, body)
    except TimeoutError as error:
        raise RequestTimeout(timeout_s, time.monotonic() - started) from error
    except aiohttp.ClientError as error:
        raise ConnectionFailed(f"{type(error).__name__}: {error}") from error


async def read_at_most(chunks: AsyncIterable[bytes], limit: int) -> tuple[bytes, bool]:
    """The first ``limit`` bytes of a body read as ``chunks``, and whether it was longer
    (reading stops past the limit, so a body of gigabytes costs no more than ``limit``)."""
    kept = bytearray()
    async for chunk in chunks:
        kept += chunk
        if len(kept) > limit:
            return bytes(kept[:limit]), True
    return bytes(kept), False


@asynccontextmanager
async def session_scope() -> AsyncIterator[None]:
    """Keep the running loop's session for what runs inside; close it when the last scope
    open on this loop ends (a later call opens a new one)."""
    held = _loop_held()
    held.scopes += 1
    try:
        yield
    finally:
        held.scopes -= 1
        if not held.scopes:
            await held.close()


@functools.cache
def _clean_connector() -> type[aiohttp.TCPConnector]:
    import aiohttp

    class CleanConnections(aiohttp.TCPConnector):
        """A connector that never hands out a kept-alive connection holding bytes that
        arrived while it was idle (an answer nobody asked for): the next request would take
        them for its own answer. Such a connection is closed and another one taken."""

        async def connect(self, req: Any, traces: Any, timeout: Any) -> Any:
            while True:
                connection = await super().connect(req, traces, timeout)
                protocol = connection.protocol
                if protocol is None or not protocol.should_close:
                    return connection
                connection.close()

    return CleanConnections


class _LoopSession:
    """The session of one event loop, made on first use, and how many scopes hold it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.session: aiohttp.ClientSession | None = None
        self.scopes = 0
        self._closer: AsyncGenerator[None, None] | None = None
        self._proxies: dict[str, str | None] = {}

    def proxy_for(self, url: str) -> str | None:
        """The proxy the environment names for ``url`` (``None``: none), looked up once."""
        if url not in self._proxies:
            self._proxies[url] = environment_proxy(url)
        return self._proxies[url]

    async def open(self) -> aiohttp.ClientSession:
        """The session, made on first use."""
        if self.session is None:
            import aiohttp

            self.session = aiohttp.ClientSession(
                connector=_clean_connector()(limit=0, keepalive_timeout=KEEPALIVE_S),
                cookie_jar=aiohttp.DummyCookieJar(),
            )
            self._closer = self._close_at_loop_end()
            await anext(self._closer)
        return self.session

    async def close(self) -> None:
        """Close the session (if one was made) and forget this loop."""
        if self._closer is not None:
            await self._closer.aclose()
        if _held.get(self.loop) is self:
            _held.pop(self.loop, None)

    async def _close_at_loop_end(self) -> AsyncGenerator[None, None]:
        """Suspended until the loop shuts its async generators down (``asyncio.run`` does
        on the way out) or :meth:`close` ends it: then closes the session."""
        try:
            yield
        finally:
            session, self.session, self._closer = self.session, None, None
            if _held.get(self.loop) is self:
                _held.pop(self.loop, None)
            if session is not None:
                await session.close()


_held: dict[asyncio.AbstractEventLoop, _LoopSession] = {}


def _loop_held() -> _LoopSession:
    loop = asyncio.get_running_loop()
    held = _held.get(loop)
    if held is None:
        for other in list(_held):  # other threads run loops of their own (the τ² judge's)
            if other.is_closed():  # closed without shutting down its async generators
                _held.pop(other, None)
        held = _held[loop] = _LoopSession(loop)
    return held


def environment_proxy(url: str) -> str | None:
    """The proxy for ``url`` from ``http_proxy``/``https_proxy`` unless ``no_proxy`` exempts
    its host, as aiohttp's ``trust_env`` picks it (which skips proxies spoken to in TLS)."""
    parts = urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    proxy = urllib.request.getproxies().get(parts.scheme)
    return proxy if proxy and urlsplit(proxy).scheme == "http" else None
