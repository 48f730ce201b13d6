"""Continuous batching: requests join the running batch between steps and leave it when
they stop, instead of waiting for a whole batch to finish.

One worker thread owns a row engine (:class:`~.fast_generation.FastSteeredGenerator`).
Between two rounds of steps it admits the queued requests that fit in the free rows and
resolves each finished request's future at once. When the engine is idle, the first request
waits ``wait_s`` for others, so requests sent together are prefilled together.
"""

from __future__ import annotations

import queue
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any, Protocol, runtime_checkable

from tautrait_steer_user.generation import SteerReply
from tautrait_steer_user.protocol import SteerRequest
from tautrait_steer_user.worker import RequestWorker

Waiting = tuple[SteerRequest, "Future[SteerReply]"]
RECENT_ROUNDS = 4096


@runtime_checkable
class RowEngine(Protocol):
    """What continuous batching needs from a generator (see
    :class:`~.fast_generation.FastSteeredGenerator`, which documents each method)."""

    @property
    def free_rows(self) -> int: ...

    def prepare(self, request: SteerRequest) -> Any: ...

    def admit(self, turns: Sequence[Any]) -> list[int]: ...

    def advance(self) -> list[tuple[int, SteerReply]]: ...

    def drop_all(self) -> list[int]: ...


class ContinuousBatcher(RequestWorker[SteerRequest, SteerReply]):
    """Runs a :class:`RowEngine` on submitted requests in a background thread.

    Args:
        engine: Generates rows; used by the worker thread only.
        wait_s: How long the first request to an idle engine waits for others.
    """

    thread_name = "steer-continuous"

    def __init__(self, engine: RowEngine, wait_s: float = 0.01) -> None:
        super().__init__()
        self.engine = engine
        self.wait_s = wait_s
        self.batches = 0
        """Rounds of steps run so far."""
        self.batch_sizes: deque[int] = deque(maxlen=RECENT_ROUNDS)
        """Rows generating in each of the most recent rounds, in order."""
        self._waiting: deque[Waiting] = deque()
        """Requests taken from the queue that have no free row yet (worker only)."""
        self._running: dict[int, Future[SteerReply]] = {}
        """The future of each row the engine generates (worker only)."""

    def pending(self) -> int:
        """Requests waiting for a row."""
        return self._queue.qsize() + len(self._waiting)

    def _work(self) -> None:
        stopping = False
        while not (stopping and not self._running and not self._waiting):
            idle = not self._running and not self._waiting
            stopping = self._take(block=idle and not stopping) or stopping
            self._admit()
            if self._running:
                self._advance()

    def _take(self, block: bool) -> bool:
        """Move queued requests to the waiting line; ``block``: wait for the first one, then
        ``wait_s`` for others. Whether a stop was asked for."""
        deadline = None
        while True:
            try:
                if block and deadline is None:
                    item = self._queue.get()
                    deadline = time.monotonic() + self.wait_s
                elif deadline is not None and len(self._waiting) < self.engine.free_rows:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                else:
                    item = self._queue.get_nowait()
            except queue.Empty:
                return False
            if item is None:
                return True
            self._waiting.append(item)

    def _admit(self) -> None:
        """Start as many waiting requests as there are free rows."""
        turns, futures = [], []
        while self._waiting and len(turns) < self.engine.free_rows:
            request, future = self._waiting.popleft()
            try:
                turns.append(self.engine.prepare(request))
            except Exception as exc:  # this request is invalid; the others go on
                future.set_exception(exc)
                continue
            futures.append(future)
        if not turns:
            return
        try:
            row_ids = self.engine.admit(turns)
        except Exception as exc:  # the prefill failed: these requests fail, rows go on
            for future in futures:
                future.set_exception(exc)
            return
        self._running.update(zip(row_ids, futures, strict=True))

    def _advance(self) -> None:
        """One round of steps; resolve the rows that stopped."""
        self.batches += 1
        self.batch_sizes.append(len(self._running))
        try:
            finished = self.engine.advance()
        except Exception as exc:  # every running row fails; the server keeps serving
            for row_id in self.engine.drop_all():
                self._running.pop(row_id).set_exception(exc)
            return
        for row_id, reply in finished:
            self._running.pop(row_id).set_result(reply)
