"""Where episodes run: in this process (``local``) or as Ray tasks on a cluster (``ray``).

The runner asks an :class:`EpisodeExecutor` for one episode at a time from its asyncio worker
loop and stores each result itself, so resume, ``--max-cost``, Ctrl-C and progress work the
same with every executor. The Ray executor sends the run configuration as JSON; each Ray
worker process rebuilds the prepared run from it once (plugins, task set, template
database), runs episodes with :func:`asyncio.run` and returns each result as JSON. Workers
read API keys from their own environment or keys file, and must have the same plugins
installed as the driver.

Ray is imported only when the ``ray`` executor is chosen.
"""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING, Any, Protocol

from tautrait_core.errors import ConfigError
from tautrait_core.models import EpisodeResult, RunConfig

if TYPE_CHECKING:
    from tautrait_core.runner import PreparedRun
    from tautrait_core.state import StateTemplate

RAY_INSTALL_HINT = "install the extra with: pip install 'tautrait-core[ray]'"


class EpisodeExecutor(Protocol):
    """Runs one (task, trial) episode of a prepared run and returns its result."""

    async def run_episode(self, task_id: int, trial: int) -> EpisodeResult: ...


class LocalExecutor:
    """Runs episodes in this process, concurrently on the running event loop."""

    def __init__(self, prepared: PreparedRun, template: StateTemplate) -> None:
        self.prepared = prepared
        self.template = template

    async def run_episode(self, task_id: int, trial: int) -> EpisodeResult:
        from tautrait_core.runner import run_prepared_episode

        return await run_prepared_episode(self.prepared, self.template, task_id, trial)


class RayExecutor:
    """Runs each episode as a Ray task; connects to ``address`` or starts a local instance.

    An already initialised Ray (e.g. by a script or a test with its own ``runtime_env``) is
    used as it is.
    """

    def __init__(self, config: RunConfig) -> None:
        ray = import_ray()
        if not ray.is_initialized():
            _connect(ray, config.ray_address)
        self._ray = ray
        self._remote = ray.remote(run_episode_in_worker)
        self._config_json = config.model_dump_json()

    async def run_episode(self, task_id: int, trial: int) -> EpisodeResult:
        reference = self._remote.remote(self._config_json, task_id, trial)
        try:
            return EpisodeResult.model_validate_json(await reference)
        except asyncio.CancelledError:  # a second Ctrl-C abandons the episode
            self._ray.cancel(reference, force=True)
            raise
        except self._ray.exceptions.RayError as exc:
            return EpisodeResult.not_run(
                task_id,
                trial,
                f"Ray task failed (re-run on resume): {type(exc).__name__}: {exc}",
            )


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`ConfigError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(
            f"--executor ray needs Ray, which is not installed: {RAY_INSTALL_HINT}"
        ) from exc
    return ray


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
    """The executor named by ``prepared.config.executor``."""
    if prepared.config.executor == "ray":
        return RayExecutor(prepared.config)
    return LocalExecutor(prepared, template)


def check_executor(config: RunConfig) -> None:
    """Fail before a run starts when its executor cannot be used (Ray not installed)."""
    if config.executor == "ray":
        import_ray()


@functools.lru_cache(maxsize=8)
def _prepared_in_worker(config_json: str) -> tuple[PreparedRun, StateTemplate]:
    from tautrait_core.runner import prepare
    from tautrait_core.task_sets import template_for

    prepared = prepare(RunConfig.model_validate_json(config_json))
    return prepared, template_for(prepared.domain, prepared.task_set)


def run_episode_in_worker(config_json: str, task_id: int, trial: int) -> str:
    """Body of the Ray task: one episode in a worker process, returned as JSON.

    The prepared run is built once per worker process and configuration.
    """
    from tautrait_core.runner import run_prepared_episode

    try:
        prepared, template = _prepared_in_worker(config_json)
    except Exception as exc:  # e.g. a plugin missing on this node: an infrastructure error
        result = EpisodeResult.not_run(
            task_id,
            trial,
            f"the Ray worker could not prepare the run ({type(exc).__name__}: {exc}); "
            "install the same plugins and keys on every node",
        )
        return result.model_dump_json()
    result = asyncio.run(run_prepared_episode(prepared, template, task_id, trial))
    return result.model_dump_json()
