"""``tautrait steer serve``: the steer protocol over HTTP, batching concurrent requests.

``POST`` (any path) takes a request of :mod:`tautrait_steer_user.protocol` and answers
``{"response": ..., "usage": {...}}``; an invalid body is answered 422 with a ``detail``, a
missing or wrong ``API-Key`` (when the server has one) 401, a body over 4 MiB 413, a failed
generation 500. ``GET /health`` describes what is served. A single worker thread
generates, so one GPU serves many runners: with a row engine (the fast path) requests join
the running batch at the next step and leave it when they stop (continuous batching); with
a generator of whole batches (the eager path) requests that arrive together form one batch,
and later ones wait for it to finish (static batching).

HTTP is served by aiohttp on one event loop: connections are kept alive and no thread is
started per connection, so the interpreter's time goes to the worker that generates.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import socket
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from aiohttp import web

from tautrait_steer_user.batching import Batcher
from tautrait_steer_user.continuous import ContinuousBatcher, RowEngine
from tautrait_steer_user.errors import InvalidSteerRequest
from tautrait_steer_user.generation import SteerReply
from tautrait_steer_user.protocol import API_KEY_HEADER, SteerRequest, parse_request

MAX_BODY_BYTES = 4 * 1024 * 1024
LISTEN_BACKLOG = 1024
"""Connections the kernel queues before they are accepted: many runners connect at once."""

Answer = tuple[int, dict[str, Any]]


class TurnGenerator(Protocol):
    """What the server needs from a generator (:class:`SteeredGenerator` is one)."""

    def check(self, request: SteerRequest) -> None: ...

    def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]: ...

    def describe(self) -> dict[str, Any]: ...


class SteerServer:
    """An HTTP server in front of a :class:`TurnGenerator`.

    The address is bound when the server is made, so :attr:`url` is known before it serves.

    Args:
        generator: Generates turns; batched continuously when it is a
            :class:`~tautrait_steer_user.continuous.RowEngine`, statically otherwise.
        host: Address to listen on (``0.0.0.0`` to serve other machines).
        port: Port (0: any free port; see :attr:`url`).
        max_batch: The most requests in one static batch (a row engine has its own bound).
        wait_s: How long a request to an idle server waits for others to join its batch.
        api_key: When set, requests must carry it in the ``API-Key`` header.
    """

    def __init__(
        self,
        generator: TurnGenerator,
        host: str = "127.0.0.1",
        port: int = 0,
        max_batch: int = 32,
        wait_s: float = 0.01,
        api_key: str | None = None,
    ) -> None:
        self.generator = generator
        self.batcher: Batcher[SteerRequest, SteerReply] | ContinuousBatcher = (
            ContinuousBatcher(generator, wait_s)
            if isinstance(generator, RowEngine)
            else Batcher(generator.generate, max_batch, wait_s)
        )
        self._api_key = api_key
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.create_server((host, port), family=family, backlog=LISTEN_BACKLOG)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The endpoint to give clients (``http://HOST:PORT/``)."""
        host, port = self._socket.getsockname()[:2]
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"

    def serve_forever(self) -> None:
        """Serve until interrupted (the CLI), then stop the worker."""
        self.batcher.start()
        try:
            asyncio.run(self._serve())
        finally:
            self._socket.close()
            self.batcher.stop()

    def __enter__(self) -> SteerServer:
        self.batcher.start()
        serving = threading.Event()
        self._thread = threading.Thread(
            target=asyncio.run, args=(self._serve(serving),), name="steer-serve", daemon=True
        )
        self._thread.start()
        serving.wait()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join()
        self._socket.close()
        self.batcher.stop()

    async def _serve(self, serving: threading.Event | None = None) -> None:
        """Serve on the bound socket until :meth:`__exit__` (or an interrupt) stops it."""
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        app = web.Application(client_max_size=MAX_BODY_BYTES)
        app.router.add_get("/{path:.*}", self._get)
        app.router.add_post("/{path:.*}", self._post)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.SockSite(runner, self._socket).start()
            if serving is not None:
                serving.set()
            await self._stop.wait()
        finally:
            if serving is not None:
                serving.set()  # a server that failed to start does not hold up __enter__
            await runner.cleanup()

    def check(self, headers: Mapping[str, str], raw: bytes) -> SteerRequest | Answer:
        """The request a ``POST`` asks for, or the status and body refusing it."""
        if self._api_key is not None and not hmac.compare_digest(
            (headers.get(API_KEY_HEADER) or "").encode(), self._api_key.encode()
        ):
            return 401, {"detail": f"missing or invalid {API_KEY_HEADER} header"}
        try:
            request = parse_request(json.loads(raw or b"null"))
            self.generator.check(request)
        except json.JSONDecodeError as exc:
            return 422, {"detail": f"the body is not valid JSON: {exc}"}
        except InvalidSteerRequest as exc:
            return 422, {"detail": str(exc)}
        return request

    async def answer(self, request: SteerRequest) -> Answer:
        """The status and body answering a checked request, once the worker generated it."""
        try:
            reply = await asyncio.wrap_future(self.batcher.submit(request))
        except InvalidSteerRequest as exc:  # e.g. longer than the engine's context
            return 422, {"detail": str(exc)}
        except Exception as exc:
            return 500, {"detail": f"generation failed: {type(exc).__name__}: {exc}"}
        usage = {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens}
        return 200, {"response": reply.text, "usage": usage}

    async def _post(self, http: web.Request) -> web.Response:
        if (http.content_length or 0) > MAX_BODY_BYTES:
            # the unread body must not be parsed as the next request
            return _json(413, {"detail": f"the body exceeds {MAX_BODY_BYTES} bytes"}, close=True)
        try:
            raw = await http.read()
        except web.HTTPRequestEntityTooLarge:  # a chunked body that grew past the bound
            return _json(413, {"detail": f"the body exceeds {MAX_BODY_BYTES} bytes"}, close=True)
        checked = self.check(http.headers, raw)
        return _json(*(checked if isinstance(checked, tuple) else await self.answer(checked)))

    async def _get(self, http: web.Request) -> web.Response:
        if http.path.rstrip("/") == "/health":
            body = {"status": "ok", **self.generator.describe()}
            body["batches"] = self.batcher.batches
            return _json(200, body)
        return _json(404, {"detail": "POST a steer request; GET /health for status"})


def _json(status: int, body: dict[str, Any], close: bool = False) -> web.Response:
    response = web.Response(
        status=status, body=json.dumps(body).encode(), content_type="application/json"
    )
    if close:
        response.force_close()
    return response
