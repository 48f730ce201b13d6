"""Which tautrait domain and task set the episodes of a τ² results file belong to."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tautrait_core.errors import ConfigError
from tautrait_core.interchange.tau2_results import Tau2Results, tau2_positions
from tautrait_core.types.task import Task

if TYPE_CHECKING:
    from tautrait_core.domain.domain import Domain


def tau2_domain(name: str) -> str:
    """The tautrait domain of τ²'s domain ``name`` (``telecom`` -> ``tau2-telecom``)."""
    return name if name.startswith("tau2-") else f"tau2-{name}"


def default_tau2_task_set(domain: str) -> str:
    """τ²'s own task set of a τ² domain (``tau2-telecom`` or ``telecom`` -> ``tau2:telecom``)."""
    return f"tau2:{domain.removeprefix('tau2-')}"


def file_domain(read: Tau2Results, path: Path, given: str | None) -> str:
    """The domain of the file ``read`` from ``path``: ``given``, else the run's own for an
    export of a tautrait run (``info.tautrait``), else the tautrait domain of the τ²
    domain the file names.

    Raises:
        ConfigError: none of the three names one.
    """
    own = read.tautrait_settings.get("domain")
    if given is None and own is None and read.domain is None:
        raise ConfigError(f"{path.name} does not name its domain: pass --domain")
    return given or own or tau2_domain(str(read.domain))


def task_set_holding(
    domain: Domain, task_ids: set[str], given: str | None = None
) -> tuple[str, list[Task]] | None:
    """The task set ``given``, else the first of τ²'s own sets of ``domain``
    (``tau2:telecom``, ``tau2:telecom-small``, ...) that holds every task of ``task_ids``;
    ``None`` when none does.

    Raises:
        UnknownNameError: ``given`` is not a task set of ``domain``.
    """
    from tautrait_core.domain.task_sets import all_task_sets, resolve_task_set

    if given is not None:
        return given, resolve_task_set(domain, given).tasks
    own = default_tau2_task_set(domain.name)
    for name in sorted(name for name in all_task_sets(domain) if name.startswith(own)):
        tasks = resolve_task_set(domain, name).tasks
        if task_ids <= tau2_positions(tasks).keys():
            return name, tasks
    return None
