"""The live progress bar of ``tautrait run`` (rich)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tautrait_core.store.tables import RunRecord
    from tautrait_core.types.result import EpisodeResult
from tautrait_core.render.console import console


class ProgressDisplay:
    """A progress bar on stderr fed by the runner's progress events."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled and sys.stderr is not None
        self.run_id: str | None = None
        self._progress: Any = None
        self._task: Any = None
        self._counts = {"pass": 0, "fail": 0, "error": 0}

    def started(self, run: RunRecord, total: int, already_done: int) -> None:
        self.run_id = run.id
        if not self.enabled:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        err = console(stderr=True)
        if already_done:
            err.print(f"Resuming run {run.id}: {already_done} of {total} episodes already finished")
        else:
            err.print(f"Run {run.id}: {total} episodes")
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            console=err,
            transient=False,
        )
        self._progress.start()
        self._task = self._progress.add_task(
            "episodes", total=total, completed=already_done, counts=""
        )

    def episode_finished(self, result: EpisodeResult) -> None:
        self._counts[result.outcome.value] += 1
        if self._progress is not None:
            counts = "pass {pass} fail {fail} error {error}".format(**self._counts)
            self._progress.update(self._task, advance=1, counts=counts)

    def notice(self, text: str) -> None:
        """A message shown above the progress bar (e.g. after Ctrl-C)."""
        target = self._progress.console if self._progress is not None else console(stderr=True)
        target.print(f"[yellow]{text}[/yellow]")

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
