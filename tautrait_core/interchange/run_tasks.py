"""The tasks a stored run was graded against, looked up by its domain and task set names."""

from __future__ import annotations

from tautrait_core.domain.task_sets import resolve_task_set
from tautrait_core.plugins import lookup
from tautrait_core.types.task import Task


def tasks_of_run(domain_name: str, task_set: str) -> list[Task]:
    """The current tasks of a stored run's domain and task set (no model or key checks)."""
    domain = lookup("domain", domain_name, "Install the domain plugin the run used")
    return resolve_task_set(domain, task_set).tasks
