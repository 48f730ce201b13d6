"""``tautrait steer serve``: the steer protocol over HTTP, batching concurrent requests.

``POST`` (any path) takes a request of :mod:`tautrait_steer_user.protocol` and answers
``{"response": ..., "usage": {...}}``; an invalid body is answered 422 with a ``detail``, a
missing or wrong ``API-Key`` (when the server has one) 401, a failed generation 500.
``GET /health`` describes what is served. A single worker thread generates, so one GPU
serves many runners: with a row engine (the fast path) requests join the running batch at
the next step and leave it when they stop (continuous batching); with a generator of whole
batches (the eager path) requests that arrive together form one batch, and later ones wait
for it to finish (static batching).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from tautrait_steer_user.batching import Batcher
from tautrait_steer_user.continuous import ContinuousBatcher, RowEngine
from tautrait_steer_user.errors import InvalidSteerRequest
from tautrait_steer_user.generation import SteerReply
from tautrait_steer_user.protocol import API_KEY_HEADER, SteerRequest, parse_request

MAX_BODY_BYTES = 4 * 1024 * 1024


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # the listen backlog: many runners connect at once


class TurnGenerator(Protocol):
    """What the server needs from a generator (:class:`SteeredGenerator` is one)."""

    def check(self, request: SteerRequest) -> None: ...

    def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]: ...

    def describe(self) -> dict[str, Any]: ...


class SteerServer:
    """An HTTP server in front of a :class:`TurnGenerator`.

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
        self._httpd = _HTTPServer((host, port), self._handler())

    @property
    def url(self) -> str:
        """The endpoint to give clients (``http://HOST:PORT/``)."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def serve_forever(self) -> None:
        """Serve until interrupted (the CLI), then stop the worker."""
        self.batcher.start()
        try:
            self._httpd.serve_forever()
        finally:
            self._httpd.server_close()
            self.batcher.stop()

    def __enter__(self) -> SteerServer:
        import threading

        self.batcher.start()
        threading.Thread(target=self._httpd.serve_forever, name="steer-serve", daemon=True).start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self.batcher.stop()

    def answer(self, headers: Any, raw: bytes) -> tuple[int, dict[str, Any]]:
        """The status and JSON body for one ``POST`` (the handler only does the I/O)."""
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
        try:
            reply = self.batcher.submit(request).result()
        except InvalidSteerRequest as exc:  # e.g. longer than the engine's context
            return 422, {"detail": str(exc)}
        except Exception as exc:
            return 500, {"detail": f"generation failed: {type(exc).__name__}: {exc}"}
        usage = {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens}
        return 200, {"response": reply.text, "usage": usage}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                if self.path.rstrip("/") == "/health":
                    body = {"status": "ok", **server.generator.describe()}
                    body["batches"] = server.batcher.batches
                    self._send(200, body)
                else:
                    self._send(404, {"detail": "POST a steer request; GET /health for status"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length > MAX_BODY_BYTES:
                    self.close_connection = True  # the unread body must not be parsed
                    self._send(413, {"detail": f"the body exceeds {MAX_BODY_BYTES} bytes"})
                    return
                self._send(*server.answer(self.headers, self.rfile.read(length)))

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up

        return Handler
