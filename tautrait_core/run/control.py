"""What watches and stops a run: progress events, Ctrl-C and SIGTERM handling and the
``--max-cost`` spend limit.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import TYPE_CHECKING, Protocol

from tautrait_core.store.rows import episode_cost
from tautrait_core.types.result import EpisodeResult

if TYPE_CHECKING:
    from tautrait_core.store.tables import RunRecord


class RunProgress(Protocol):
    """Receives progress events (the CLI shows a progress bar; the library prints nothing)."""

    def started(self, run: RunRecord, total: int, already_done: int) -> None: ...

    def episode_finished(self, result: EpisodeResult) -> None: ...


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""Signals that stop a run; SIGTERM (``kill``, a scheduler ending a job) acts as Ctrl-C."""


class StopControl:
    """Ctrl-C (or SIGTERM) handling: the first interrupt stops new episodes and lets running
    ones finish; a second one abandons the running episodes (they are not stored and run
    again on resume).
    """

    def __init__(self, progress: RunProgress | None) -> None:
        self.progress = progress
        self.stop_requested = False
        self.cancelled = False
        self.abandoned: list[tuple[int, int]] = []
        self._workers: list[asyncio.Task[None]] = []
        self._running: dict[asyncio.Task[None], tuple[int, int]] = {}
        self._installed = False

    def watch(
        self,
        workers: list[asyncio.Task[None]],
        running: dict[asyncio.Task[None], tuple[int, int]],
        handle_signals: bool,
    ) -> None:
        self._workers, self._running = workers, running
        if handle_signals and threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()
            for number in STOP_SIGNALS:
                loop.add_signal_handler(number, self.interrupt, number.name)
            self._installed = True

    def unwatch(self) -> None:
        if self._installed:
            for number in STOP_SIGNALS:
                asyncio.get_running_loop().remove_signal_handler(number)
            self._installed = False

    def interrupt(self, signal_name: str = "SIGINT") -> None:
        """What a Ctrl-C or SIGTERM does (also callable directly)."""
        if not self.stop_requested:
            self.stop_requested = True
            received = "" if signal_name == "SIGINT" else f"{signal_name} received. "
            self._notice(
                f"{received}Stopping: no new episodes; waiting for {len(self._running)} running "
                "episodes to finish (press Ctrl-C again to abandon them)"
            )
            return
        self.cancelled = True
        self.abandoned = sorted(self._running.values())
        for task in self._workers:
            task.cancel()

    def reason(self) -> str:
        if self.abandoned:
            pairs = ", ".join(f"task {t} trial {r}" for t, r in self.abandoned)
            return f"interrupted; abandoned running episodes ({pairs}) run again on resume"
        return "interrupted; running episodes finished and were stored"

    def _notice(self, text: str) -> None:
        notice = getattr(self.progress, "notice", None)
        if notice is not None:
            notice(text)


class SpendTracker:
    """The run's spend against ``--max-cost``."""

    def __init__(self, limit: float | None, spent: float) -> None:
        self.limit = limit
        self.spent = spent
        self.warnings: list[str] = []

    def add(self, result: EpisodeResult) -> None:
        cost = episode_cost(result)
        if cost is None:
            if self.limit is not None and not self.warnings:
                unpriced = sorted({c.model for c in result.calls if c.cost is None})
                self.warnings.append(
                    f"--max-cost cannot count calls to models without a known price "
                    f"({', '.join(unpriced)}); their cost is not included"
                    if unpriced
                    else "--max-cost cannot count a remote agent's model calls: not included"
                )
            cost = sum(c.cost for c in result.calls if c.cost is not None)
        self.spent += cost

    def exhausted(self) -> bool:
        return self.limit is not None and self.spent >= self.limit

    def stop_reason(self) -> str | None:
        if not self.exhausted():
            return None
        from tautrait_core.money import format_costs

        spent, limit = format_costs(self.spent, self.limit)
        return f"--max-cost reached: spent {spent} of {limit}"
