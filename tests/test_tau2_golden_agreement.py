"""Golden agreement: every golden record of the τ²-bench reference (all five task sets, each
task's gold replay and every failing variant) is rebuilt as a trajectory, graded with
:func:`grade_criteria` on the matching tautrait τ² domain, and must get τ²'s reward and
every component of τ²'s RewardInfo, field for field.

Policy where τ²'s own evaluator raised (``evaluator_exception``: an env-assertion function
failed, so τ² produced no reward): the episode scores 0, the assertion is not met and its
check records the exception.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tautrait_core.compat.tau2.reward_info import tau2_reward_info
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.testing.reference import missing_reference_material, reference_material_dir
from tautrait_core.testing.tau2_golden import golden_trajectory, read_golden_records

TAU2 = reference_material_dir(__file__) / "tau2-bench"
SETS = {
    # golden set: (tautrait domain, task set, plugin entry point, τ² data folder)
    "mock": ("tau2-mock", "tau2:mock", "tau2-mock", "mock"),
    "airline": ("tau2-airline", "tau2:airline", "tau2-airline", "airline"),
    "retail": ("tau2-retail", "tau2:retail", "tau2-retail", "retail"),
    "telecom": ("tau2-telecom", "tau2:telecom", "telecom", "telecom"),
    "telecom_small": ("tau2-telecom", "tau2:telecom-small", "telecom", "telecom"),
}


def _records() -> list[Any]:
    if not TAU2.is_dir():
        reason = missing_reference_material(TAU2)
        return [pytest.param(None, id="absent", marks=pytest.mark.skip(reason=reason))]
    return [
        pytest.param(record, id=f"{name}-{index}-{record['variant']}")
        for name in SETS
        for index, record in enumerate(read_golden_records(TAU2 / "golden" / f"{name}.jsonl"))
    ]


class GoldenSet:
    """A τ² task set imported and ready to grade: its domain, template and tasks by id."""

    def __init__(self, domain: Any, template: Any, tasks: dict[str, Any]) -> None:
        self.domain, self.template, self.tasks = domain, template, tasks


@pytest.fixture(scope="module")
def golden_sets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, GoldenSet]]:
    """Every golden set's domain, imported once for the module from the reference's data."""
    from tautrait_core.domain.task_sets import resolve_task_set, template_for
    from tautrait_core.interchange.tau2_import import import_tau2
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
    from tautrait_core.testing.tau2_reference import build_tau2_checkout

    if not TAU2.is_dir():
        pytest.skip(missing_reference_material(TAU2))
    entry_points = sorted({entry for _, _, entry, _ in SETS.values()})
    home = tmp_path_factory.mktemp("tautrait-home")
    saved = {key: os.environ.get(key) for key in ("TAUTRAIT_HOME", "TAUTRAIT_LOAD_PLUGINS")}
    os.environ.update(TAUTRAIT_HOME=str(home), TAUTRAIT_LOAD_PLUGINS=",".join(entry_points))
    reset_plugin_manager()
    try:
        folders = sorted({folder for *_, folder in SETS.values()})
        checkout = build_tau2_checkout(TAU2, tmp_path_factory.mktemp("tau2") / "tau2", folders)
        import_tau2(checkout)
        reset_plugin_manager()  # domains read the imported data when they are built
        manager = get_plugin_manager()
        missing = [domain for domain, *_ in SETS.values() if domain not in manager.names("domain")]
        if missing:
            pytest.skip(f"τ² domain plugins not installed: {', '.join(sorted(set(missing)))}")
        sets = {}
        for name, (domain_name, task_set_name, _, _) in SETS.items():
            domain = manager.get("domain", domain_name)
            task_set = resolve_task_set(domain, task_set_name)
            tasks = {task.id: task for task in task_set.tasks}
            sets[name] = GoldenSet(domain, template_for(domain, task_set), tasks)
        yield sets
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        reset_plugin_manager()


@pytest.mark.parametrize("record", _records())
def test_the_grade_equals_tau2s(record: dict[str, Any], golden_sets: dict[str, GoldenSet]) -> None:
    golden = golden_sets[record["task_set"]]
    task = golden.tasks[record["task_id"]]
    messages = golden_trajectory(record, task)
    info = grade_criteria(
        golden.domain, task, golden.template, messages, record["termination_reason"], None
    )
    if record["evaluator_exception"] is not None:
        assert info.reward == 0.0
        errors = [check.get("error") for check in info.env_assertions or []]
        expected = record["evaluator_exception"].partition(": ")[2]
        assert any(error and expected in error for error in errors), errors
        return
    assert info.reward == record["reward"]
    assert tau2_reward_info(info) == record["reward_info"]


def test_every_golden_set_is_covered(golden_sets: dict[str, GoldenSet]) -> None:
    files = sorted(path.stem for path in Path(TAU2 / "golden").glob("*.jsonl"))
    assert files == sorted(SETS)
