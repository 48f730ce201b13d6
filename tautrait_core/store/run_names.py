"""What a user may name where runs are asked for: a run id, a unique prefix of one,
``latest``, a run's name, or a sweep's name, which stands for the runs of its points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tautrait_core.errors import ConfigError, RunNotFoundError

if TYPE_CHECKING:
    from tautrait_core.store.results import ResultStore
    from tautrait_core.store.tables import RunRecord


def with_sweep_runs(store: ResultStore, names: Sequence[str]) -> list[str]:
    """``names`` with each sweep name replaced by the runs of its points, in point order.

    Raises:
        ConfigError: a named sweep has no runs yet.
    """
    expanded: list[str] = []
    for name in names:
        if store.get_sweep(name) is None:
            expanded.append(name)
            continue
        runs = store.sweep_runs(name)
        if not runs:
            raise ConfigError(f"sweep {name!r} has no runs yet: tautrait sweep FILE runs it")
        expanded.extend(runs[index] for index in sorted(runs))
    return expanded


def only_run_of_sweep(store: ResultStore, name: str) -> RunRecord | None:
    """The run of sweep ``name`` when the sweep has exactly one; ``None`` when there is no
    such sweep.

    Raises:
        RunNotFoundError: the sweep has no run, or several (they are named, to pick one).
    """
    if store.get_sweep(name) is None:
        return None
    runs = store.sweep_runs(name)
    if len(runs) == 1:
        return store.get_run(next(iter(runs.values())))
    if not runs:
        raise RunNotFoundError(f"sweep {name!r} has no runs yet: tautrait sweep FILE runs it")
    named = ", ".join(f"{name}/{index}" for index in sorted(runs)[:3])
    more = ", ..." if len(runs) > 3 else ""
    raise RunNotFoundError(
        f"sweep {name!r} has {len(runs)} runs and this command takes one: "
        f"name one of them ({named}{more})"
    )
