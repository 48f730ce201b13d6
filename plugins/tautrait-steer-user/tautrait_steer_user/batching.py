"""Collecting concurrent generation requests into batches for one worker thread.

A request waits in a queue; the worker takes the oldest, then whatever else arrives within
``wait_s`` (up to ``max_batch`` requests), generates them as one batch and resolves each
request's future. A failed batch fails each of its requests with the same error.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future

from tautrait_steer_user.worker import ReplyT, RequestT, RequestWorker


class Batcher(RequestWorker[RequestT, ReplyT]):
    thread_name = "steer-batcher"

    """Runs ``generate`` on batches of submitted requests in a background thread.

    Args:
        generate: Turns a batch of requests into one reply per request, in order.
        max_batch: The most requests in one batch.
        wait_s: How long the first request of a batch waits for others to join it.
    """

    def __init__(
        self,
        generate: Callable[[Sequence[RequestT]], Sequence[ReplyT]],
        max_batch: int = 32,
        wait_s: float = 0.01,
    ) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        super().__init__()
        self.generate = generate
        self.max_batch = max_batch
        self.wait_s = wait_s
        self.batch_sizes: list[int] = []
        """Size of every batch generated so far, in order."""

    @property
    def batches(self) -> int:
        """Batches generated so far."""
        return len(self.batch_sizes)

    def pending(self) -> int:
        """Requests waiting for a batch."""
        return self._queue.qsize()

    def _collect(
        self, first: tuple[RequestT, Future[ReplyT]]
    ) -> tuple[list[tuple[RequestT, Future[ReplyT]]], bool]:
        """The batch led by ``first``, and whether a stop was asked for meanwhile."""
        batch = [first]
        deadline = time.monotonic() + self.wait_s
        while len(batch) < self.max_batch:
            try:
                item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if item is None:
                return batch, True
            batch.append(item)
        return batch, False

    def _work(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            batch, stopping = self._collect(first)
            self.batch_sizes.append(len(batch))
            try:
                replies = self.generate([request for request, _ in batch])
            except Exception as exc:  # the batch fails; the server keeps serving
                for _, future in batch:
                    future.set_exception(exc)
                continue
            for (_, future), reply in zip(batch, replies, strict=True):
                future.set_result(reply)
