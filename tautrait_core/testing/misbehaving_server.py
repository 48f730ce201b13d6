"""An OpenAI-compatible server on loopback that breaks HTTP/1.1 the ways real servers do.

:class:`~tautrait_core.scripted.server.ScriptedModelServer` answers like a well-behaved
server; this one speaks HTTP on raw sockets so that a test can make it drop a request
without answering, cut an answer off after its headers, answer 204, send interim 1xx
answers, gzip its body, close the connection after each answer, or put an unsolicited
second answer on a kept-alive connection, on IPv4 or IPv6 loopback. It keeps every request
body it receives, so a test can check how often a client sent the same request.

    with MisbehavingServer() as server:
        server.inject(Act.DROP, Act.HALF)   # the next two requests; then answers
        ...  # point the client at server.base_url
        assert server.bodies.count(body) <= 1 + max_retries
"""

from __future__ import annotations

import asyncio
import gzip
import json
import threading
from collections import deque
from enum import Enum
from typing import Any, Self

from tautrait_core.scripted.server import Reply, chat_completion

UNSOLICITED = "an answer nobody asked for"
"""The text of the extra answer :attr:`Act.EXTRA` leaves on the connection."""
EXTRA_DELAY_S = 0.02
"""How long after its answer :attr:`Act.EXTRA` sends the unsolicited one."""
TRICKLE_INTERVAL_S = 0.25
"""How long :attr:`Act.TRICKLE` waits between the bytes of its answer."""
HUGE_ERROR_BYTES = 50_000_000
"""The length of the error message :attr:`Act.HUGE_ERROR` answers with."""


class Act(Enum):
    """How the server treats one request."""

    ANSWER = "answer"
    """A chat completion whose text is ``answer N`` (N: the request's number, from 1)."""
    DROP = "drop"
    """Close the connection without answering."""
    HALF = "half"
    """Send the headers of an answer, then close the connection."""
    NO_CONTENT = "no-content"
    """Answer ``204 No Content``."""
    INFORMATIONAL = "informational"
    """Send ``100 Continue`` and ``103 Early Hints``, then the answer."""
    GZIP = "gzip"
    """The answer with a gzip-compressed body (``Content-Encoding: gzip``)."""
    CLOSE = "close"
    """The answer with ``Connection: close, x-trace``, then close the connection."""
    EXTRA = "extra"
    """The answer, then, once the client has had it, a second complete answer
    (:data:`UNSOLICITED`) on the now idle connection."""
    TRICKLE = "trickle"
    """The answer's headers, then its body one byte every :data:`TRICKLE_INTERVAL_S`."""
    HUGE_ERROR = "huge-error"
    """A ``500`` answer whose error message is :data:`HUGE_ERROR_BYTES` long."""


class MisbehavingServer:
    """A chat-completions server on ``host`` (``127.0.0.1`` or ``::1``), answering from a
    background thread; requests are treated as :meth:`inject` queued, then by ``default``.

    Args:
        default: How requests are treated once the injected acts are used up.
        host: The loopback address to listen on.
        latency_s: Seconds each request waits before it is treated.

    Attributes:
        bodies: Every request body received (parsed JSON), in order.
        hosts: The ``Host`` header of every request, in order.
        authorizations: The ``Authorization`` header of every request ("" when it has
            none), in order.
        targets: The target of every request (its path, or its whole URL when the server
            is used as a proxy), in order.
        connections: How many connections clients opened.
        unsolicited: How many unsolicited answers (:attr:`Act.EXTRA`) were sent.
    """

    def __init__(
        self, default: Act = Act.ANSWER, host: str = "127.0.0.1", latency_s: float = 0.0
    ) -> None:
        self.default = default
        self.host = host
        self.latency_s = latency_s
        self.bodies: list[Any] = []
        self.hosts: list[str] = []
        self.authorizations: list[str] = []
        self.targets: list[str] = []
        self.connections = 0
        self.unsolicited = 0
        self._acts: deque[Act] = deque()
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    def inject(self, *acts: Act) -> None:
        """Treat the next requests with these acts, in order."""
        with self._lock:
            self._acts.extend(acts)

    @property
    def base_url(self) -> str:
        """The ``api_base`` to give a client (``http://127.0.0.1:PORT/v1``, or with the
        IPv6 address in brackets)."""
        if self._server is None:
            raise RuntimeError("the misbehaving server is not started")
        port = self._server.sockets[0].getsockname()[1]
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{port}/v1"

    def start(self) -> Self:
        """Listen and serve in a daemon thread."""
        self._thread.start()
        started = asyncio.start_server(self._serve, self.host, 0)
        self._server = asyncio.run_coroutine_threadsafe(started, self._loop).result(10)
        return self

    def stop(self) -> None:
        """Close the server and every connection, and end the thread."""
        asyncio.run_coroutine_threadsafe(self._shut_down(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    async def _shut_down(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self._writers.add(writer)
        try:
            while await self._treat_one(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _treat_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Read one request and treat it; whether the connection stays open."""
        head = await reader.readuntil(b"\r\n\r\n")
        headers = _headers(head)
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        with self._lock:
            self.bodies.append(json.loads(body or b"null"))
            self.hosts.append(headers.get("host", ""))
            self.authorizations.append(headers.get("authorization", ""))
            self.targets.append(head.decode("latin-1").split(" ")[1])
            number = len(self.bodies)
            act = self._acts.popleft() if self._acts else self.default
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        answer = json.dumps(chat_completion({}, Reply(content=f"answer {number}"), number))
        data = answer.encode()
        if act is Act.DROP:
            return False
        if act is Act.HALF:
            writer.write(_answer_head(200, len(data)))
            await writer.drain()
            return False
        if act is Act.TRICKLE:
            writer.write(_answer_head(200, len(data)))
            for byte in data:
                await writer.drain()
                await asyncio.sleep(TRICKLE_INTERVAL_S)
                writer.write(bytes([byte]))
        elif act is Act.HUGE_ERROR:
            huge = json.dumps({"error": {"message": "e" * HUGE_ERROR_BYTES}}).encode()
            writer.write(_answer_head(500, len(huge)) + huge)
        elif act is Act.NO_CONTENT:
            writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        elif act is Act.INFORMATIONAL:
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            writer.write(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
            writer.write(_answer_head(200, len(data)) + data)
        elif act is Act.GZIP:
            packed = gzip.compress(data)
            writer.write(_answer_head(200, len(packed), "Content-Encoding: gzip") + packed)
        elif act is Act.CLOSE:
            writer.write(_answer_head(200, len(data), "Connection: close, x-trace") + data)
            await writer.drain()
            return False
        else:
            writer.write(_answer_head(200, len(data)) + data)
        await writer.drain()
        if act is Act.EXTRA:
            await asyncio.sleep(EXTRA_DELAY_S)
            extra = json.dumps(chat_completion({}, Reply(content=UNSOLICITED), 0)).encode()
            writer.write(_answer_head(200, len(extra)) + extra)
            await writer.drain()
            self.unsolicited += 1
        return True


def _headers(head: bytes) -> dict[str, str]:
    lines = head.decode("latin-1").split("\r\n")[1:]
    pairs = (line.partition(":") for line in lines if ":" in line)
    return {name.strip().lower(): value.strip() for name, _, value in pairs}


def _answer_head(status: int, length: int, *extra: str) -> bytes:
    lines = [
        f"HTTP/1.1 {status} OK",
        "Content-Type: application/json",
        f"Content-Length: {length}",
        *extra,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
