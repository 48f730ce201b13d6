"""Golden agreement: every golden record of the τ²-bench reference (all five task sets, each
task's gold replay and every failing variant) is rebuilt as a trajectory, graded with
:func:`grade_criteria` on the matching tautrait τ² domain, and must get τ²'s reward and
every component of τ²'s RewardInfo, field for field.

Policy where τ²'s own evaluator raised (``evaluator_exception``: an env-assertion function
failed, so τ² produced no reward): the episode scores 0, the assertion is not met and its
check records the exception.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tautrait_core.compat.tau2.reward_info import tau2_reward_info
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.testing.reference import missing_reference_material, reference_material_dir
from tautrait_core.testing.tau2_golden import golden_trajectory
from tests.golden_sets import GoldenSet, golden_params, imported_golden_sets

TAU2 = reference_material_dir(__file__) / "tau2-bench"
SETS = {
    # golden set: (tautrait domain, task set, plugin entry point, τ² data folder)
    "mock": ("tau2-mock", "tau2:mock", "tau2-mock", "mock"),
    "airline": ("tau2-airline", "tau2:airline", "tau2-airline", "airline"),
    "retail": ("tau2-retail", "tau2:retail", "tau2-retail", "retail"),
    "telecom": ("tau2-telecom", "tau2:telecom", "telecom", "telecom"),
    "telecom_small": ("tau2-telecom", "tau2:telecom-small", "telecom", "telecom"),
}


@pytest.fixture(scope="module")
def golden_sets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, GoldenSet]]:
    """Every golden set's domain, imported once for the module from the reference's data."""
    from tautrait_core.testing.tau2_reference import build_tau2_checkout

    if not TAU2.is_dir():
        pytest.skip(missing_reference_material(TAU2))
    folders = sorted({folder for *_, folder in SETS.values()})
    with imported_golden_sets(
        tmp_path_factory.mktemp("tautrait-home"),
        sorted({entry for _, _, entry, _ in SETS.values()}),
        lambda: build_tau2_checkout(TAU2, tmp_path_factory.mktemp("tau2") / "tau2", folders),
        {name: (domain, task_set) for name, (domain, task_set, _, _) in SETS.items()},
    ) as sets:
        yield sets


@pytest.mark.parametrize("record", golden_params(TAU2, list(SETS)))
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
