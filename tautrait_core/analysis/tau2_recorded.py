"""A τ² results file as recorded episodes to rescore (``tautrait rescore FILE``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tautrait_core.analysis.recorded_episodes import LoadedSource, RecordedEpisode
from tautrait_core.errors import ConfigError
from tautrait_core.interchange.tau2_results import read_tau2_results, task_set_holding, tau2_domain


def load_tau2_file(path: Path, domain: str | None, task_set: str | None) -> LoadedSource:
    """The episodes of a τ² results file, numbered by their task's position in the task set
    they are scored with: the one given, else τ²'s own set of the file's domain that holds
    its tasks (domain ``telecom`` in the file: ``tau2-telecom``, ``tau2:telecom`` or
    ``tau2:telecom-small``).

    Raises:
        ConfigError: the domain is neither given nor in the file, or no task set holds the
            file's tasks.
        UnknownNameError, TaskSetError: the domain or task set is unknown, or a simulation
            names a task the given task set does not have.
    """
    from tautrait_core.plugins import lookup

    read = read_tau2_results(path)
    if domain is None and read.domain is None:
        raise ConfigError(f"{path.name} does not name its domain: pass --domain")
    found = lookup("domain", domain or tau2_domain(str(read.domain)))
    holding = task_set_holding(found, read.simulated_task_ids, task_set)
    if holding is None:
        raise ConfigError(
            f"no τ² task set of domain {found.name!r} holds every task of {path.name}: import "
            f"τ²'s tasks (tautrait import tau2 PATH) or pass --task-set"
        )
    task_set, tasks = holding
    read = read_tau2_results(path, tasks)
    recorded_tasks = {task.id: task for task in read.tasks}
    episodes = [
        RecordedEpisode(result=result, task=recorded_tasks.get(task_id))
        for result, task_id in zip(read.results, read.task_ids, strict=True)
    ]
    return LoadedSource(str(path), found.name, task_set, episodes, dt.date.today())
