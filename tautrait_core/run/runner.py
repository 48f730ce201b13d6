"""Running many episodes: trials, asyncio concurrency, resume and storage.

:func:`execute` runs a configuration to the end and returns a :class:`RunReport`;
:func:`run` is the upstream-compatible entry point (``run(RunConfig(...))`` returning the
list of episode results). Every finished episode is stored at once; ``resume`` continues a
stored run, skipping (task, trial) pairs that finished and re-running those that ended in an
infrastructure error. One process at a time writes a run: it holds the run's lease (see
:mod:`tautrait_core.store.leases`), and a second live writer is refused with
:class:`~tautrait_core.errors.RunBusyError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from tautrait_core.config.run_config import RESUME_SETTINGS, RunConfig
from tautrait_core.domain.task_sets import template_for
from tautrait_core.errors import ConfigError, StorageError
from tautrait_core.grading.metrics import RunMetrics, summarize
from tautrait_core.llm.http_session import session_scope
from tautrait_core.paths import default_results_db
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.run.control import RunProgress, SpendTracker, StopControl
from tautrait_core.run.executors import EpisodeExecutor, executor_for
from tautrait_core.run.plugin_options import checked_plugin_options, declared_run_options
from tautrait_core.run.prepared import PreparedRun, prepare
from tautrait_core.store.housekeeping import add_trials
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import RunRecord
from tautrait_core.types.result import EpisodeResult


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


UNUSED_WHEN_NONE = ("agent_model", "user_model")
"""Settings a run stores as ``None`` when it calls no such model: given on resume, they
change nothing."""
ADDED_ON_RESUME = ("judge_model",)
"""Settings a run without them may gain on resume: a judge model scores the episodes that
were not scoreable without one, and changes no other grade."""


def resumed_config(record: RunRecord, given: RunConfig) -> RunConfig:
    """The configuration that continues ``record``: the stored one, with the
    :data:`~tautrait_core.config.RESUME_SETTINGS` that ``given`` sets explicitly, and its
    ``num_trials`` when that adds trials to the run.

    Raises:
        ConfigError: ``given`` sets a field that defines the run (model, traits, tasks, ...)
            or a plugin option to a value other than the stored one.
    """
    stored = record.run_config()
    explicit = given.given() - {"resume"}
    given_values, stored_values = given.model_dump(), stored.model_dump()
    unused = {name for name in UNUSED_WHEN_NONE if stored_values[name] is None}
    added = {name for name in ADDED_ON_RESUME if stored_values[name] is None} & explicit
    changed = [
        f"--{name.replace('_', '-')} {given_values[name]} (the run has {stored_values[name]})"
        for name in sorted(explicit - RESUME_SETTINGS - unused - added - {"num_trials"})
        if given_values[name] != stored_values[name]
    ]
    if given.num_trials < stored.num_trials and "num_trials" in explicit:
        changed.append(
            f"--num-trials {given.num_trials} (the run has {stored.num_trials}; trials can be "
            "added, never taken away)"
        )
    declared = declared_run_options()
    movable = {
        name: value
        for name, value in given.plugin_options.items()
        if name in declared and declared[name].resumable
    }
    changed += [
        f"--{name.replace('_', '-')} {value} (the run has "
        f"{stored.plugin_options.get(name, 'the default')})"
        for name, value in sorted(given.plugin_options.items())
        if stored.plugin_options.get(name) != value and name not in movable
    ]
    if changed:
        raise ConfigError(
            f"run {record.id} cannot be resumed with different settings: "
            f"{'; '.join(changed)}. Leave those options out to resume it, or start a new run "
            "without --resume. (Servers, concurrency, limits and timeouts may change on resume, "
            "and --num-trials may grow.)"
        )
    growing = RESUME_SETTINGS | {"num_trials"} | added
    update = {name: given_values[name] for name in explicit & growing} | movable
    update.update(resume=record.id, results_db=given.storage.results_db)
    return stored.with_settings(**update)


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
    # checked first (a damaged file is one StorageError); a run to resume must be there
    store = ResultStore(
        config.storage.results_db or default_results_db(),
        must_exist=bool(config.storage.resume and config.storage.results_db),
    )
    if config.storage.resume:
        record = store.get_run(config.storage.resume)
        config = resumed_config(record, checked_plugin_options(config))
        prepared = prepare(config)
        prepared.task_ids = list(record.task_ids)
    else:
        prepared = prepare(config)
        config = prepared.config
    template = template_for(prepared.domain, prepared.task_set)
    executor = executor_for(prepared, template)  # e.g. connects to Ray, before a run is stored
    if not config.storage.resume:
        record = store.create_run(
            config,
            prepared.task_set.name,
            prepared.task_ids,
            get_plugin_manager().run_plugin_set(),
        )
        if on_created is not None:
            on_created(record)
    lease = store.lease(record.id)
    try:
        lease.acquire()  # refuses a second live writer of the run
        if config.num_trials > record.num_trials:  # a resume that adds trials
            record = add_trials(store, record, config.num_trials)
    except BaseException:
        lease.release()  # a lease never taken is released quietly
        executor.close()
        raise
    try:
        async with session_scope():  # the run's model connections end with it
            return await _run_pending(
                store, record, config, prepared, executor, progress, handle_signals
            )
    finally:
        lease.release()


async def _run_pending(
    store: ResultStore,
    record: RunRecord,
    config: RunConfig,
    prepared: PreparedRun,
    executor: EpisodeExecutor,
    progress: RunProgress | None,
    handle_signals: bool,
) -> RunReport:
    """Run the episodes of ``record`` not finished yet, storing each one at once."""
    done = store.finished_pairs(record.id)
    pending = [pair for pair in schedule(prepared) if pair not in done]
    if progress is not None:
        progress.started(record, len(pending) + len(done), len(done))
    store.set_status(record.id, "running")

    queue: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
    for pair in pending:
        queue.put_nowait(pair)
    budget = SpendTracker(config.limits.max_cost, store.run_spend(record.id))
    control = StopControl(progress)
    running: dict[asyncio.Task[None], tuple[int, int]] = {}

    async def worker() -> None:
        while True:
            # Offline episodes (oracle agent, scripted user) never wait on anything: yield
            # to the loop between episodes so that Ctrl-C / SIGTERM handlers run promptly.
            await asyncio.sleep(0)
            if budget.exhausted() or control.stop_requested:
                return
            try:
                task_id, trial = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            current = asyncio.current_task()
            assert current is not None
            running[current] = (task_id, trial)
            try:
                result = await executor.run_episode(task_id, trial)
            except StorageError as exc:  # e.g. the disk under the response cache is full
                raise StorageError(
                    f"{exc}; fix that (e.g. free disk space), then continue with: "
                    f"tautrait run --resume {record.id}"
                ) from exc
            del running[current]
            try:
                store.save_episode(record.id, result)
            except SQLAlchemyError as exc:
                raise StorageError(
                    f"could not store task {task_id} trial {trial} in {store.path}: "
                    f"{getattr(exc, 'orig', exc)}. Nothing stored so far is lost; fix the cause "
                    f"(e.g. free disk space), then continue with: tautrait run --resume {record.id}"
                ) from exc
            except StorageError as exc:  # e.g. the database is locked by another program
                raise StorageError(
                    f"could not store task {task_id} trial {trial}: {exc}. Nothing stored so "
                    f"far is lost; continue afterwards with: tautrait run --resume {record.id}"
                ) from exc
            budget.add(result)
            if progress is not None:
                progress.episode_finished(result)

    workers = [
        asyncio.create_task(worker())
        for _ in range(min(config.executor.concurrency, len(pending)) or 1)
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
        metrics=summarize(results, max_k=config.num_trials, rules=prepared.task_set.rules),
        skipped=len(done),
        stop_reason=stop_reason,
        warnings=[*prepared.warnings, *budget.warnings],
    )


def _set_status_quietly(store: ResultStore, run_id: str, status: str) -> None:
    with contextlib.suppress(SQLAlchemyError, StorageError):  # the database may have failed
        store.set_status(run_id, status)


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
    if config.storage.export_path or config.storage.log_dir:
        from tautrait_core.interchange.result_files import write_result_list

        write_result_list(report.run, report.results, config)
    return report.results
