"""Which task set a result-list file came from, read from the tasks its records embed.

A τ-bench result list names no task set, but every record embeds its task (upstream's files
and this project's exports alike). Rescoring such a file against a set whose task at the
same id has another instruction grades other tasks; the set is therefore chosen among the
domain's sets by the embedded instructions, and a file whose tasks no set holds is refused.
"""

from __future__ import annotations

from collections.abc import Mapping

from tautrait_core.domain.domain import Domain, TaskSet
from tautrait_core.domain.task_sets import all_task_sets, upstream_task_set
from tautrait_core.errors import ConfigError, TaskSetError


def file_task_set(domain: Domain, embedded: Mapping[int, str], file_name: str) -> str:
    """The name of the task set of ``domain`` whose tasks the file's records embed
    (``embedded``: task id -> instruction, of the records that embed their task): of the
    domain's sets, the one holding the most of the embedded instructions at their task ids;
    on a tie the set upstream files default to (the imported ``tau-trait:test``), then the
    domain's default. A few instructions that differ (a task reworded since) keep the set.

    Raises:
        ConfigError: no set holds any of the embedded instructions, or the upstream set
            is not imported and the file embeds no task or tasks no other set holds; the
            message says to choose one with --task-set (and how to import upstream's).
    """
    what = f"the upstream result file {file_name}"
    instructions = {task_id: _words(text) for task_id, text in embedded.items()}
    if not instructions:
        return upstream_task_set(domain, None, what) or domain.default_task_set
    try:
        default, not_imported = upstream_task_set(domain, None, what), None
    except ConfigError as error:  # upstream's set is not imported: the domain's own may fit
        default, not_imported = None, error
    sets = all_task_sets(domain)
    order = [default, domain.default_task_set, *sorted(sets)]
    names = list(dict.fromkeys(name for name in order if name in sets))
    held = {name: _held(sets[name], instructions) for name in names}
    best = max(names, key=lambda name: held[name])  # the first of the most
    if held[best] == 0:
        if not_imported is not None:  # says how to import upstream's tasks
            raise not_imported
        raise ConfigError(
            f"{file_name} holds tasks of no task set of {domain.name} "
            f"({', '.join(sorted(sets))}): choose the one to score with --task-set"
        )
    return best


def _held(task_set: TaskSet, instructions: dict[int, str]) -> int:
    """How many embedded instructions are those of the set's task with the same id."""
    try:
        tasks = task_set.tasks
    except TaskSetError:
        return 0
    return sum(
        1
        for task_id, instruction in instructions.items()
        if 0 <= task_id < len(tasks) and _words(tasks[task_id].instruction) == instruction
    )


def _words(text: str) -> str:
    return " ".join(text.split())
