"""Running many episodes: task selection, trials, asyncio concurrency, resume, storage.

:func:`execute` runs a configuration to the end and returns a :class:`RunReport`;
:func:`run` is the upstream-compatible entry point (``run(RunConfig(...))`` returning the
list of episode results). Every finished episode is stored at once; ``resume`` continues a
stored run, skipping (task, trial) pairs that finished and re-running those that ended in an
infrastructure error.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import random
import signal
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError

from tautrait_core.domain import Domain, TaskSet
from tautrait_core.episode_context import EpisodeContext
from tautrait_core.errors import ConfigError, StorageError
from tautrait_core.executors import check_executor, executor_for
from tautrait_core.keys import require_keys
from tautrait_core.metrics import RunMetrics, summarize
from tautrait_core.models import EpisodeResult, RunConfig
from tautrait_core.orchestrator import run_episode
from tautrait_core.paths import default_results_db
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.state import StateTemplate
from tautrait_core.store import ResultStore, RunRecord, episode_cost
from tautrait_core.task_sets import resolve_task_set, template_for


class RunProgress(Protocol):
    """Receives progress events (the CLI shows a progress bar; the library prints nothing)."""

    def started(self, run: RunRecord, total: int, already_done: int) -> None: ...

    def episode_finished(self, result: EpisodeResult) -> None: ...


@dataclass
class RunReport:
    """The outcome of :func:`execute`."""

    run: RunRecord
    results_db: Path
    results: list[EpisodeResult]
    """Every stored episode of the run, including those finished before a resume."""
    metrics: RunMetrics
    skipped: int
    """Pairs already finished before this invocation (resume)."""
    stop_reason: str | None = None
    """Why the run stopped before finishing (e.g. ``--max-cost`` reached)."""
    warnings: list[str] = field(default_factory=list)


@dataclass
class PreparedRun:
    """A configuration resolved against the installed plugins, ready to run."""

    config: RunConfig
    domain: Domain
    task_set: TaskSet
    task_ids: list[int]
    agent_class: type
    user_class: type
    trait_backend_class: type


def prepare(config: RunConfig) -> PreparedRun:
    """Resolve names, load the task set and check the configuration before anything runs."""
    manager = get_plugin_manager()
    domain = manager.get(
        "domain", config.domain, "Install a domain plugin, e.g. pip install tautrait-telehealth"
    )
    agent_class = manager.get("agent", config.agent)
    if config.user is None:
        config = config.model_copy(
            update={"user": "llm" if agent_class.needs_model else "scripted"}
        )
    user_class = manager.get("user", config.user)
    backend_class = manager.get("trait_backend", config.trait_backend)
    if agent_class.needs_model and not config.agent_model:
        raise ConfigError(
            f"agent {config.agent!r} calls a model: pass --agent-model (e.g. gpt-4o), "
            "or use --agent oracle for an offline dry run"
        )
    if user_class.needs_model and not config.user_model:
        raise ConfigError(
            f"user simulator {config.user!r} calls a model: pass --user-model, "
            "or use --user scripted for an offline dry run"
        )
    for part in (agent_class, user_class, backend_class):
        check = getattr(part, "check_config", None)
        if check is not None:
            check(config)
    if agent_class.needs_model:
        require_keys(config.agent_model, config.agent_provider, config.agent_api_base, "agent")
    if user_class.needs_model and getattr(backend_class, "uses_user_model", True):
        require_keys(config.user_model, config.user_provider, config.user_api_base, "user")
    check_executor(config)
    task_set = resolve_task_set(domain, config.task_set)
    total = len(task_set.tasks)
    if config.task_ids:
        bad = [i for i in config.task_ids if not 0 <= i < total]
        if bad:
            raise ConfigError(
                f"task ids {bad} are out of range: task set {task_set.name!r} of domain "
                f"{domain.name!r} has tasks 0..{total - 1}"
            )
        task_ids = list(dict.fromkeys(config.task_ids))
    else:
        end = total if config.end == -1 else min(config.end, total)
        if config.start >= end:
            raise ConfigError(
                f"no tasks selected: --start {config.start} --end {config.end} on a task set "
                f"of {total} tasks"
            )
        task_ids = list(range(config.start, end))
    return PreparedRun(config, domain, task_set, task_ids, agent_class, user_class, backend_class)


def episode_seed(seed: int, task_id: int, trial: int) -> int:
    """A per-episode seed derived from the run seed."""
    return random.Random(f"{seed}:{task_id}:{trial}").getrandbits(31)


def schedule(prepared: PreparedRun) -> list[tuple[int, int]]:
    """The (task_id, trial) pairs in run order (shuffled per trial with ``--shuffle``)."""
    config = prepared.config
    rng = random.Random(config.seed)
    pairs = []
    for trial in range(config.num_trials):
        ids = list(prepared.task_ids)
        if config.shuffle:
            rng.shuffle(ids)
        pairs.extend((task_id, trial) for task_id in ids)
    return pairs


async def run_prepared_episode(
    prepared: PreparedRun, template: StateTemplate, task_id: int, trial: int
) -> EpisodeResult:
    """Run one (task, trial) episode in this process; a crash outside it becomes an error."""
    config = prepared.config
    context = EpisodeContext(
        domain=prepared.domain,
        task=prepared.task_set.tasks[task_id],
        task_id=task_id,
        trial=trial,
        config=config,
        seed=episode_seed(config.seed, task_id, trial),
    )
    try:
        agent = prepared.agent_class(context)
        user = prepared.user_class(context, prepared.trait_backend_class(context))
        return await run_episode(context, template, agent, user, dt.date.today())
    except Exception as exc:  # a bug outside the conversation: keep the run going
        return EpisodeResult.not_run(
            task_id, trial, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"
        )


async def execute_async(
    config: RunConfig,
    progress: RunProgress | None = None,
    handle_signals: bool = False,
    on_created: Callable[[RunRecord], None] | None = None,
) -> RunReport:
    """Run (or resume) a configuration to the end; see the module docstring.

    With ``handle_signals`` (the CLI), Ctrl-C is handled by :class:`StopControl`.
    ``on_created`` is called with a new run's record as soon as it is stored (a sweep links
    the run to its grid point there).
    """
    store = ResultStore(config.results_db or default_results_db())
    if config.resume:
        record = store.get_run(config.resume)
        stored = record.run_config()
        config = stored.model_copy(
            update={
                "concurrency": config.concurrency,
                "results_db": config.results_db,
                "max_retries": config.max_retries,
                "retry_base_s": config.retry_base_s,
                "timeout_s": config.timeout_s,
                "max_cost": config.max_cost,
                "cache": config.cache,
                "executor": config.executor,
                "ray_address": config.ray_address,
                "resume": record.id,
            }
        )
        prepared = prepare(config)
        prepared.task_ids = list(record.task_ids)
    else:
        prepared = prepare(config)
        config = prepared.config
    template = template_for(prepared.domain, prepared.task_set)
    executor = executor_for(prepared, template)  # e.g. connects to Ray, before a run is stored
    if not config.resume:
        record = store.create_run(
            config,
            prepared.task_set.name,
            prepared.task_ids,
            get_plugin_manager().run_plugin_set(),
        )
        if on_created is not None:
            on_created(record)
    done = store.finished_pairs(record.id)
    pending = [pair for pair in schedule(prepared) if pair not in done]
    if progress is not None:
        progress.started(record, len(pending) + len(done), len(done))
    store.set_status(record.id, "running")

    queue: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
    for pair in pending:
        queue.put_nowait(pair)
    budget = SpendTracker(config.max_cost, store.run_spend(record.id))
    control = StopControl(progress)
    running: dict[asyncio.Task[None], tuple[int, int]] = {}

    async def worker() -> None:
        while not budget.exhausted() and not control.stop_requested:
            try:
                task_id, trial = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            current = asyncio.current_task()
            assert current is not None
            running[current] = (task_id, trial)
            result = await executor.run_episode(task_id, trial)
            del running[current]
            try:
                store.save_episode(record.id, result)
            except SQLAlchemyError as exc:
                raise StorageError(
                    f"could not store task {task_id} trial {trial} in {store.path}: "
                    f"{getattr(exc, 'orig', exc)}. Nothing stored so far is lost; fix the cause "
                    f"(e.g. free disk space), then continue with: tautrait run --resume {record.id}"
                ) from exc
            budget.add(result)
            if progress is not None:
                progress.episode_finished(result)

    workers = [
        asyncio.create_task(worker()) for _ in range(min(config.concurrency, len(pending)) or 1)
    ]
    control.watch(workers, running, handle_signals)
    try:
        await asyncio.gather(*workers)
    except asyncio.CancelledError:
        if not control.cancelled:
            raise
    except BaseException:
        for task in workers:
            task.cancel()
        _set_status_quietly(store, record.id, "interrupted")
        raise
    finally:
        control.unwatch()
        executor.close()
    if control.stop_requested:
        stop_reason = control.reason()
        status = "interrupted"
    else:
        stop_reason = budget.stop_reason() if not queue.empty() else None
        status = "stopped" if stop_reason else "finished"
    store.set_status(record.id, status)
    results = store.episodes(record.id)
    record = store.get_run(record.id)
    return RunReport(
        run=record,
        results_db=store.path,
        results=results,
        metrics=summarize(results, max_k=config.num_trials),
        skipped=len(done),
        stop_reason=stop_reason,
        warnings=budget.warnings,
    )


def _set_status_quietly(store: ResultStore, run_id: str, status: str) -> None:
    with contextlib.suppress(SQLAlchemyError):  # the database itself may be what failed
        store.set_status(run_id, status)


class StopControl:
    """Ctrl-C handling: the first interrupt stops new episodes and lets running ones finish;
    a second one abandons the running episodes (they are not stored and run again on resume).
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
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self.interrupt)
            self._installed = True

    def unwatch(self) -> None:
        if self._installed:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
            self._installed = False

    def interrupt(self) -> None:
        """What a Ctrl-C does (also callable directly)."""
        if not self.stop_requested:
            self.stop_requested = True
            self._notice(
                f"Stopping: no new episodes; waiting for {len(self._running)} running episodes "
                "to finish (press Ctrl-C again to abandon them)"
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
                    f"({', '.join(unpriced) or 'unknown'}); their cost is not included"
                )
            cost = sum(c.cost for c in result.calls if c.cost is not None)
        self.spent += cost

    def exhausted(self) -> bool:
        return self.limit is not None and self.spent >= self.limit

    def stop_reason(self) -> str | None:
        if not self.exhausted():
            return None
        return f"--max-cost reached: spent ${self.spent:.4f} of ${self.limit:.4f}"


def execute(
    config: RunConfig,
    progress: RunProgress | None = None,
    handle_signals: bool = False,
    on_created: Callable[[RunRecord], None] | None = None,
) -> RunReport:
    """Synchronous wrapper of :func:`execute_async`."""
    return asyncio.run(execute_async(config, progress, handle_signals, on_created))


def run(config: RunConfig | dict[str, Any]) -> list[EpisodeResult]:
    """Upstream-compatible entry point: run ``config`` and return every episode result.

    Accepts upstream ``RunConfig`` field names (``env``, ``model``, ``model_provider``,
    ...). When ``result_fp`` or ``log_dir`` is set, the results are also written there in
    upstream's result-list JSON.
    """
    if not isinstance(config, RunConfig):
        config = RunConfig.model_validate(config)
    report = execute(config)
    if config.export_path or config.log_dir:
        from tautrait_core.upstream.results import write_result_list

        write_result_list(report, config)
    return report.results
