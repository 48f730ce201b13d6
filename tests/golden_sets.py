"""What the golden-agreement tests share: their golden records as test parameters, and
the reference's task sets imported into a temporary tautrait home, ready to grade."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tautrait_core.testing.reference import missing_reference_material
from tautrait_core.testing.tau2_golden import read_golden_records


def golden_params(folder: Path, names: Sequence[str], gold_only: bool = False) -> list[Any]:
    """One test parameter per record of ``folder/golden/<name>.jsonl`` for each of
    ``names`` (``gold_only``: the gold replays only, leaving out the failing variants); one
    skipped parameter, saying why, when ``folder`` is absent."""
    if not folder.is_dir():
        reason = missing_reference_material(folder)
        return [pytest.param(None, id="absent", marks=pytest.mark.skip(reason=reason))]
    return [
        pytest.param(record, id=f"{name}-{index}-{record.get('variant')}")
        for name in names
        for index, record in enumerate(read_golden_records(folder / "golden" / f"{name}.jsonl"))
        if not gold_only or record.get("variant") == "gold"
    ]


class GoldenSet:
    """A task set imported and ready to grade: its domain, task set, template and tasks by
    id."""

    def __init__(self, domain: Any, task_set: Any, template: Any) -> None:
        self.domain, self.task_set, self.template = domain, task_set, template
        self.tasks = {task.id: task for task in task_set.tasks}


@contextlib.contextmanager
def imported_golden_sets(
    home: Path,
    entry_points: Sequence[str],
    checkout: Callable[[], Path],
    sets: dict[str, tuple[str, str]],
) -> Iterator[dict[str, GoldenSet]]:
    """The task sets ``sets`` names (``{golden set: (tautrait domain, task set)}``), from
    the τ² checkout ``checkout()`` builds, imported into ``home`` with only the plugins
    ``entry_points`` loaded (skipped when a domain is not installed); the environment and
    the plugin manager are restored on leaving."""
    from tautrait_core.domain.task_sets import resolve_task_set, template_for
    from tautrait_core.interchange.tau2_import import import_tau2
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

    saved = {key: os.environ.get(key) for key in ("TAUTRAIT_HOME", "TAUTRAIT_LOAD_PLUGINS")}
    os.environ.update(TAUTRAIT_HOME=str(home), TAUTRAIT_LOAD_PLUGINS=",".join(entry_points))
    reset_plugin_manager()
    try:
        import_tau2(checkout())
        reset_plugin_manager()  # domains read the imported data when they are built
        manager = get_plugin_manager()
        missing = [domain for domain, _ in sets.values() if domain not in manager.names("domain")]
        if missing:
            pytest.skip(f"τ² domain plugins not installed: {', '.join(sorted(set(missing)))}")
        imported = {}
        for name, (domain_name, task_set_name) in sets.items():
            domain = manager.get("domain", domain_name)
            task_set = resolve_task_set(domain, task_set_name)
            imported[name] = GoldenSet(domain, task_set, template_for(domain, task_set))
        yield imported
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        reset_plugin_manager()
