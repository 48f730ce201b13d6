"""tautrait compare: grouping runs under no-trait bases, refusing mismatches, the table."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tautrait_core.analysis.grouping import ComparisonError, group_runs
from tautrait_core.analysis.summary import BootstrapSettings
from tautrait_core.analysis.trait_drop import trait_drop_table
from tautrait_core.cli import cli
from tests.test_reports_fixtures import results_store, store_run

BASE = {0: ["pass", "pass"], 1: ["pass", "pass"], 2: ["pass", "fail"], 3: ["fail", "fail"]}
"""pass^1 = (1 + 1 + 0.5 + 0) / 4 = 0.625."""
IMPATIENT = {0: ["pass", "fail"], 1: ["pass", "pass"], 2: ["fail", "fail"], 3: ["fail", "fail"]}
"""pass^1 = 0.375: a relative change of -40%."""
CONFUSED = {0: ["pass", "pass"], 1: ["pass", "pass"], 2: ["pass", "pass"], 3: ["fail", "fail"]}
"""pass^1 = 0.75: +20%."""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def compare_json(runner: CliRunner, *arguments: str) -> dict:
    result = runner.invoke(cli, ["compare", *arguments, "--json", "--resamples", "300"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_sweep_forms_one_row_per_agent_model(runner) -> None:
    store = results_store()
    runs = [
        store_run(store, IMPATIENT, traits="impatience=high"),
        store_run(store, BASE),
        store_run(store, CONFUSED, traits="confusion=low"),
        store_run(store, BASE, agent_model="openai/agent-b"),
        store_run(store, CONFUSED, traits="impatience=high", agent_model="openai/agent-b"),
    ]
    table = compare_json(runner, *(run.id for run in runs))
    assert table["columns"] == ["impatience=high", "confusion=low"]
    first, second = table["rows"]
    assert first["label"] == "toylib · openai/agent-a" and first["base_run_id"] == runs[1].id
    assert second["label"] == "toylib · openai/agent-b"
    impatient, confused = first["cells"]
    assert impatient["relative_change"] == pytest.approx(-0.4)
    assert (impatient["pass_hat_1"], impatient["base_pass_hat_1"]) == (0.375, 0.625)
    assert impatient["low"] <= -0.4 <= impatient["high"] and impatient["tasks"] == 4
    assert confused["relative_change"] == pytest.approx(0.2)
    assert first["average"] == pytest.approx(-0.1)
    assert first["average_low"] <= -0.1 <= first["average_high"]
    assert [c["traits"] for c in second["cells"]] == ["impatience=high"]

    text = runner.invoke(cli, ["compare", *(run.id for run in runs)]).output
    assert "-40.0%" in text and "+20.0%" in text and "percentile bootstrap" in text


def test_intervals_are_reproducible_and_follow_the_seed(runner) -> None:
    store = results_store()
    base, impatient = store_run(store, BASE), store_run(store, IMPATIENT, traits="impatience=2")
    first = compare_json(runner, base.id, impatient.id)
    assert compare_json(runner, base.id, impatient.id) == first
    assert compare_json(runner, base.id, impatient.id, "--seed", "1")["seed"] == 1


def test_runs_that_differ_in_more_than_traits_are_refused(runner) -> None:
    store = results_store()
    base = store_run(store, BASE)
    hot = store_run(store, IMPATIENT, traits="impatience=high", temperature=0.7, max_steps=10)
    result = runner.invoke(cli, ["compare", base.id, hot.id])
    assert result.exit_code != 0
    assert f"the closest, {base.id}, differs in max_steps (30 vs 10), temperature (0.0 vs 0.7)" in (
        result.output
    )
    assert "--allow-mismatch" in result.output

    table = compare_json(runner, base.id, hot.id, "--allow-mismatch")
    assert table["rows"][0]["cells"][0]["differences"] == {
        "max_steps": [30, 10],
        "temperature": [0.0, 0.7],
    }
    text = runner.invoke(cli, ["compare", base.id, hot.id, "--allow-mismatch"]).output
    assert "differs from base" in text and "temperature (0.0 vs 0.7)" in text


def test_task_selection_counts_as_a_setting(runner) -> None:
    store = results_store()
    base = store_run(store, BASE)
    fewer = store_run(store, {0: ["pass", "pass"], 1: ["fail", "fail"]}, traits="confusion=low")
    result = runner.invoke(cli, ["compare", base.id, fewer.id])
    assert result.exit_code != 0 and "task_ids ([0, 1, 2, 3] vs [0, 1])" in result.output


def test_cells_pair_tasks_both_runs_scored() -> None:
    store = results_store()
    base = store_run(store, BASE)
    # task 3 only errored: it is left out of the comparison, which is over tasks 0-2
    erratic = store_run(
        store, {**CONFUSED, 3: ["error", "error"]}, traits="confusion=low", num_trials=2
    )
    groups = group_runs([base, erratic])
    table = trait_drop_table(
        groups,
        {run.id: store.episodes(run.id) for run in (base, erratic)},
        BootstrapSettings(resamples=100),
    )
    cell = table.rows[0].cells[0]
    assert cell.tasks == 3
    assert cell.base_pass_hat_1 == pytest.approx(2.5 / 3) and cell.pass_hat_1 == 1.0
    assert cell.relative_change == pytest.approx(0.2)


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ([("impatience=high", {})], "is a no-trait run"),
        ([("", {}), ("", {}), ("impatience=high", {})], "are both no-trait runs"),
        (
            [("", {}), ("impatience=high", {}), ("impatience=high", {})],
            "both have traits 'impatience=high'",
        ),
    ],
)
def test_unusable_run_sets_are_clear_errors(layout, message) -> None:
    store = results_store()
    records = [store_run(store, BASE, traits=traits, **settings) for traits, settings in layout]
    with pytest.raises(ComparisonError, match=message):
        group_runs(records)


def test_rows_that_share_an_agent_model_are_told_apart(runner) -> None:
    store = results_store()
    runs = [
        store_run(store, BASE),
        store_run(store, IMPATIENT, traits="impatience=high"),
        store_run(store, BASE, user_model="openai/user-b"),
        store_run(store, IMPATIENT, traits="impatience=high", user_model="openai/user-b"),
    ]
    labels = [row["label"] for row in compare_json(runner, *(run.id for run in runs))["rows"]]
    assert labels == [
        "toylib · openai/agent-a (user_model=openai/user)",
        "toylib · openai/agent-a (user_model=openai/user-b)",
    ]


def test_compare_needs_two_runs(runner) -> None:
    base = store_run(results_store(), BASE)
    result = runner.invoke(cli, ["compare", base.id])
    assert result.exit_code != 0 and "at least one run with traits" in result.output
