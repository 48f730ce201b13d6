"""A τ² results file as recorded episodes to rescore (``tautrait rescore FILE``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tautrait_core.analysis.recorded_episodes import LoadedSource, RecordedEpisode
from tautrait_core.compat.tau2.tasks import task_from_tau2
from tautrait_core.errors import ConfigError
from tautrait_core.interchange.tau2_file_domain import file_domain, task_set_holding
from tautrait_core.interchange.tau2_results import read_tau2_results, task_to_tau2, tau2_task_id
from tautrait_core.types.task import Task


def load_tau2_file(path: Path, domain: str | None, task_set: str | None) -> LoadedSource:
    """The episodes of a τ² results file, numbered by their task's position in the task set
    they are scored with: the one given, else the run's own for an export of a tautrait run
    (``info.tautrait``), else τ²'s own set of the file's domain that holds its tasks
    (domain ``telecom`` in the file: ``tau2-telecom``, ``tau2:telecom`` or
    ``tau2:telecom-small``).

    Raises:
        ConfigError: the domain is neither given nor in the file, or no task set holds the
            file's tasks.
        UnknownNameError, TaskSetError: the domain or task set is unknown, or a simulation
            names a task the given task set does not have.
    """
    from tautrait_core.plugins import lookup

    read = read_tau2_results(path)
    own = read.tautrait_settings  # a tautrait export names its run's domain and task set
    found = lookup("domain", file_domain(read, path, domain))
    if task_set is None and found.name == own.get("domain"):
        task_set = own.get("task_set")
    holding = task_set_holding(found, read.simulated_task_ids, task_set)
    if holding is None:
        raise ConfigError(
            f"no τ² task set of domain {found.name!r} holds every task of {path.name}: import "
            f"τ²'s tasks (tautrait import tau2 PATH) or pass --task-set"
        )
    task_set, tasks = holding
    read = read.numbered_by(tasks, path)
    current = {
        tau2_task_id(task, position): (task, position) for position, task in enumerate(tasks)
    }
    recorded_tasks = {
        task.id: as_recorded(task, *current[task.id]) if task.id in current else task
        for task in read.tasks
    }
    episodes = [
        RecordedEpisode(result=result, task=recorded_tasks.get(task_id))
        for result, task_id in zip(read.results, read.task_ids, strict=True)
    ]
    return LoadedSource(str(path), found.name, task_set, episodes, dt.date.today())


def as_recorded(recorded: Task, task: Task, position: int) -> Task:
    """The file's task ``recorded``, with each field that τ²'s form of the current ``task``
    would also have written as it is taken from ``task``: τ²'s shape keeps no user id and
    renders the instruction as text, so a task read back differs from the one written even
    when nothing changed, and only a real change may show as "task changed"."""
    written = task_from_tau2(task_to_tau2(task, position))
    same = {
        name: getattr(task, name)
        for name in type(task).model_fields
        if getattr(written, name) == getattr(recorded, name)
    }
    return recorded.model_copy(update=same)
