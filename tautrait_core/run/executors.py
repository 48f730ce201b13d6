"""Where episodes run: in this process (``local``) or on Ray actors across a cluster (``ray``).

The runner asks an :class:`EpisodeExecutor` for one episode at a time from its asyncio worker
loop and stores each result itself, so resume, ``--max-cost``, Ctrl-C and progress work the
same with every executor. The Ray executor starts a pool of :class:`EpisodeWorker` actors, one
per CPU of the cluster (never more than the run's concurrency). Each actor rebuilds the
prepared run once from the configuration sent as JSON (plugins, task set, template database)
and runs the episodes it is given concurrently on its own event loop, so the model waits of
many episodes overlap inside one worker process, as they do locally, while the CPU work of
the episodes spreads over the cluster. Results come back as JSON. Workers read API keys from
their own environment or keys file, and must have the same plugins installed as the driver.

Ray is imported only when the ``ray`` executor is chosen.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.run.prepared import import_ray
from tautrait_core.types.result import EpisodeResult

if TYPE_CHECKING:
    from tautrait_core.domain.state import StateTemplate
    from tautrait_core.run.prepared import PreparedRun


class EpisodeExecutor(Protocol):
    """Runs one (task, trial) episode of a prepared run and returns its result."""

    async def run_episode(self, task_id: int, trial: int) -> EpisodeResult: ...

    def close(self) -> None:
        """Release what the executor holds (worker processes); called once, at the end."""


class LocalExecutor:
    """Runs episodes in this process, concurrently on the running event loop."""

    def __init__(self, prepared: PreparedRun, template: StateTemplate) -> None:
        self.prepared = prepared
        self.template = template

    async def run_episode(self, task_id: int, trial: int) -> EpisodeResult:
        from tautrait_core.run.prepared import run_prepared_episode

        return await run_prepared_episode(self.prepared, self.template, task_id, trial)

    def close(self) -> None:
        """Nothing to release."""


class RayExecutor:
    """Runs episodes on a pool of :class:`EpisodeWorker` Ray actors.

    Connects to ``config.executor.ray_address`` or starts a local instance; an already
    initialised Ray (e.g. by a script or a test with its own ``runtime_env``) is used as it is.
    The pool has one actor per CPU the cluster has free when the run starts (at least one, at
    most ``config.executor.concurrency``); each episode goes to the actor with the fewest
    running. An actor that dies (its node lost, killed for memory) is replaced, and its running
    episodes come back as infrastructure errors that a resume runs again.
    """

    def __init__(self, config: RunConfig) -> None:
        ray = import_ray()
        if not ray.is_initialized():
            _connect(ray, config.executor.ray_address)
        self._ray = ray
        self._worker_class = ray.remote(num_cpus=1, scheduling_strategy="SPREAD")(EpisodeWorker)
        self._config_json = config.model_dump_json()
        free_cpus = int(ray.available_resources().get("CPU", 0))
        size = max(1, min(config.executor.concurrency, free_cpus))
        self._actors = [self._start_actor() for _ in range(size)]
        self._running = [0] * size

    def _start_actor(self) -> Any:
        return self._worker_class.remote(self._config_json)

    async def run_episode(self, task_id: int, trial: int) -> EpisodeResult:
        slot = min(range(len(self._actors)), key=self._running.__getitem__)
        actor = self._actors[slot]
        reference = actor.run.remote(task_id, trial)
        self._running[slot] += 1
        try:
            return EpisodeResult.model_validate_json(await reference)
        except asyncio.CancelledError:  # a second Ctrl-C abandons the episode
            self._ray.cancel(reference, force=False)
            raise
        except self._ray.exceptions.RayError as exc:
            if isinstance(exc, self._ray.exceptions.RayActorError) and self._actors[slot] is actor:
                self._actors[slot] = self._start_actor()
            return EpisodeResult.not_run(
                task_id,
                trial,
                f"Ray worker failed (re-run on resume): {type(exc).__name__}: {exc}",
            )
        finally:
            self._running[slot] -= 1

    def close(self) -> None:
        """Stop the actors, freeing their CPUs for the next run (e.g. a sweep's next point)."""
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors = []


def _connect(ray: Any, address: str | None) -> None:
    options: dict[str, Any] = {"log_to_driver": False}
    if address is None:
        options["include_dashboard"] = False
    try:
        ray.init(address=address, **options)
    except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError, ...
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise ConfigError(
            f"could not start or reach {where}: {type(exc).__name__}: {exc}. Check --ray-address "
            "(e.g. ray://head:10001, or auto for a cluster started with `ray start --head`)"
        ) from exc


def executor_for(prepared: PreparedRun, template: StateTemplate) -> EpisodeExecutor:
    """The executor named by ``prepared.config.executor.kind``."""
    if prepared.config.executor.kind == "ray":
        return RayExecutor(prepared.config)
    return LocalExecutor(prepared, template)


class EpisodeWorker:
    """A Ray actor's body: one prepared run, whose episodes it runs concurrently.

    ``run`` is a coroutine, so Ray runs the calls it receives side by side on the actor's
    event loop. A run that cannot be prepared here (a plugin missing on this node) is not
    raised: each episode sent to this worker comes back as an infrastructure error naming
    the cause.
    """

    def __init__(self, config_json: str) -> None:
        from tautrait_core.domain.task_sets import template_for
        from tautrait_core.run.prepared import prepare

        self.prepared: PreparedRun | None = None
        self.template: StateTemplate | None = None
        self.problem = ""
        try:
            self.prepared = prepare(RunConfig.model_validate_json(config_json))
            self.template = template_for(self.prepared.domain, self.prepared.task_set)
        except Exception as exc:
            self.problem = (
                f"the Ray worker could not prepare the run ({type(exc).__name__}: {exc}); "
                "install the same plugins and keys on every node"
            )

    async def run(self, task_id: int, trial: int) -> str:
        """One episode, returned as the JSON of its :class:`EpisodeResult`."""
        from tautrait_core.run.prepared import run_prepared_episode

        if self.prepared is None or self.template is None:
            result = EpisodeResult.not_run(task_id, trial, self.problem)
        else:
            result = await run_prepared_episode(self.prepared, self.template, task_id, trial)
        return result.model_dump_json()
