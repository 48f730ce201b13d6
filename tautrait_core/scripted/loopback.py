"""The HTTP plumbing of the fake services tests run on loopback: a quiet JSON request
handler that knows the service it answers for, and a server that serves it from a
background thread, with failures injected ahead of its normal answers.

:class:`~tautrait_core.scripted.server.ScriptedModelServer` is built on these, and so can be a
plugin's fake of the service it calls (the steer plugin's fake hosted service is).
"""

from __future__ import annotations

import threading
from collections import deque
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Generic, Self, TypeVar

FailureT = TypeVar("FailureT")
RequestT = TypeVar("RequestT")
ServiceT = TypeVar("ServiceT", bound="LoopbackService[Any]")


class JSONRequestHandler(BaseHTTPRequestHandler, Generic[ServiceT]):
    """An HTTP/1.1 handler that logs nothing and answers with JSON bodies, for the
    :class:`LoopbackService` it is made by (:attr:`service`)."""

    protocol_version = "HTTP/1.1"

    def __init__(self, *args: Any, service: ServiceT, **kwargs: Any) -> None:
        self.service = service
        super().__init__(*args, **kwargs)  # answers the request

    def log_message(self, format: str, *args: Any) -> None:
        return

    def read_body(self) -> bytes:
        """The request body (``Content-Length`` bytes)."""
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def send_body(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        """Answer ``status`` with the JSON ``data`` and extra ``headers``; a client that
        gave up (its timeout fired) is not an error."""
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


class LoopbackHTTPServer(ThreadingHTTPServer):
    """A server answering each connection in a thread that ends with the process, whose
    listen queue holds hundreds of clients connecting at once (a benchmark or a run at
    concurrency 256): with the default queue of 5, the kernel drops the connections beyond
    it and a client retries after 1, 3, 7, ... seconds, stalling an episode for a minute.
    The queue is a class attribute because the constructor already listens."""

    daemon_threads = True
    request_queue_size = 1024


class LoopbackService(Generic[RequestT, FailureT]):
    """An HTTP server on ``127.0.0.1`` answering from a background thread, started by
    :meth:`start` or ``with``; a subclass says how it answers with its
    :attr:`handler_class`, keeps each request it is handed (of its own request type) in
    :attr:`requests` and serves the failures :meth:`inject` queued (of its own failure type)
    before normal answers.

    Args:
        port: The port to listen on (0: any free port).
    """

    thread_name = "loopback-service"
    """The name of the serving thread."""

    handler_class: ClassVar[type[JSONRequestHandler[Any]]]
    """The handler of each request; it is made with ``service=`` this service."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._httpd: ThreadingHTTPServer | None = None
        self._lock = threading.Lock()
        self._failures: deque[FailureT] = deque()
        self.requests: list[RequestT] = []
        """Every request the handler received, in order."""

    def inject(self, *failures: FailureT) -> None:
        """Serve these failures, in order, to the next requests."""
        with self._lock:
            self._failures.extend(failures)

    def receive(self, request: RequestT) -> FailureT | None:
        """Keep ``request`` in :attr:`requests` and take the injected failure it is answered
        with, if any (safe from the handler's threads)."""
        with self._lock:
            self.requests.append(request)
            return self._failures.popleft() if self._failures else None

    def root_url(self) -> str:
        """``http://127.0.0.1:PORT``, with the port the server listens on."""
        if self._httpd is None:
            raise RuntimeError(f"{self.thread_name} not started")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def start(self) -> Self:
        """Listen and serve in a daemon thread."""
        httpd = LoopbackHTTPServer(
            ("127.0.0.1", self.port), partial(self.handler_class, service=self)
        )
        self._httpd = httpd
        threading.Thread(target=httpd.serve_forever, name=self.thread_name, daemon=True).start()
        return self

    def stop(self) -> None:
        """Shut the server down."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
