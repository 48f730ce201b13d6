"""A τ² results file as recorded episodes to rescore (``tautrait rescore FILE``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tautrait_core.analysis.recorded_episodes import LoadedSource, RecordedEpisode
from tautrait_core.compat.tau2.results import DEFAULT_TAU2_TASK_SET, read_tau2_results
from tautrait_core.errors import ConfigError


def load_tau2_file(path: Path, domain: str | None, task_set: str | None) -> LoadedSource:
    """The episodes of a τ² results file, numbered by their task's position in the task set
    they are scored with (the file names its domain; the task set defaults to
    ``tau2:<domain>``).

    Raises:
        ConfigError: the domain is neither given nor in the file.
        UnknownNameError, TaskSetError: the domain or task set is unknown, or a simulation
            names a task the task set does not have.
    """
    from tautrait_core.domain.task_sets import resolve_task_set
    from tautrait_core.plugins import lookup

    domain = domain or read_tau2_results(path).domain
    if domain is None:
        raise ConfigError(f"{path.name} does not name its domain: pass --domain")
    task_set = task_set or DEFAULT_TAU2_TASK_SET.format(domain=domain)
    tasks = resolve_task_set(lookup("domain", domain), task_set).tasks
    read = read_tau2_results(path, tasks)
    recorded_tasks = {task.id: task for task in read.tasks}
    episodes = [
        RecordedEpisode(result=result, task=recorded_tasks.get(task_id))
        for result, task_id in zip(read.results, read.task_ids, strict=True)
    ]
    return LoadedSource(str(path), domain, task_set, episodes, dt.date.today())
