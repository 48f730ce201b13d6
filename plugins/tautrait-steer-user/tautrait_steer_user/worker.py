"""A worker thread fed by a queue of requests, each answered through a future: what the
static and the continuous batcher share."""

from __future__ import annotations

import queue
import threading
from abc import ABC, abstractmethod
from concurrent.futures import Future
from typing import ClassVar, Generic, TypeVar

RequestT = TypeVar("RequestT")
ReplyT = TypeVar("ReplyT")


class RequestWorker(ABC, Generic[RequestT, ReplyT]):
    """One background thread takes ``(request, future)`` pairs from a queue and resolves
    each future; ``None`` in the queue tells it to stop once the requests before it are done.
    Subclasses say how requests are generated (:meth:`_work`)."""

    thread_name: ClassVar[str] = "steer-worker"

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[RequestT, Future[ReplyT]] | None] = queue.Queue()
        """Requests with their futures; ``None`` tells the worker to stop."""
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the worker thread."""
        self._thread = threading.Thread(target=self._work, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Let the worker finish the requests queued so far, then end it."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    def submit(self, request: RequestT) -> Future[ReplyT]:
        """Queue ``request``; its future holds the reply or the error."""
        future: Future[ReplyT] = Future()
        self._queue.put((request, future))
        return future

    @abstractmethod
    def _work(self) -> None:
        """The worker thread's loop."""
