"""``tautrait report --tasks``: which tasks failed, on which trials, and why."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.types.reward import RewardInfo
from tests.test_reports_fixtures import episode, results_store, store_run


def tau2_failure(task_id: int, trial: int) -> object:
    """A τ²-graded failure that missed the COMMUNICATE component only."""
    failed = episode(task_id, trial, "fail")
    failed.reward_info = RewardInfo(
        reward=0.0,
        r_actions=True,
        data_hash="a",
        gt_data_hash="a",
        reward_basis=["DB", "COMMUNICATE"],
        reward_breakdown={"DB": 1.0, "COMMUNICATE": 0.0},
        communicate_checks=[{"info": "CL-4", "met": False}],
    )
    return failed


def test_report_tasks_lists_failed_tasks_trials_and_missed_parts() -> None:
    store = results_store()
    run = store_run(store, {0: ["pass", "pass"], 1: ["pass", "fail"], 2: ["error", "fail"]})
    store.save_episode(run.id, tau2_failure(3, 0))
    store.save_episode(run.id, episode(3, 1, "pass"))
    result = CliRunner().invoke(cli, ["report", run.id, "--tasks"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Tasks: 4; 1 passed every trial, 3 failed or errored in some" in lines
    rows = {line.split()[0]: line.split() for line in lines if line[:6].strip().isdigit()}
    assert set(rows) == {"1", "2", "3"}
    assert rows["1"] == ["1", "1/2", "1", "-", "database", "1,", "outputs", "1"]
    assert rows["2"] == ["2", "0/2", "1", "0", "database", "1,", "outputs", "1"]
    assert rows["3"] == ["3", "1/2", "0", "-", "COMMUNICATE", "1"]
    table = lines[lines.index("Tasks: 4; 1 passed every trial, 3 failed or errored in some") :]
    assert max(map(len, table)) <= 80
    plain = CliRunner().invoke(cli, ["report", run.id])
    assert "Tasks:" not in plain.output


def test_report_tasks_json_adds_each_tasks_trials() -> None:
    run = store_run(results_store(), {0: ["pass", "fail"], 1: ["pass", "pass"]})
    result = CliRunner().invoke(cli, ["report", run.id, "--tasks", "--json"])
    assert result.exit_code == 0, result.output
    tasks = json.loads(result.output)["tasks"]
    assert tasks[0] == {
        "task_id": 0,
        "trials": 2,
        "passed": [0],
        "failed": [1],
        "errored": [],
        "failing_parts": {"database": 1, "outputs": 1},
    }
    assert tasks[1]["failed"] == [] and tasks[1]["passed"] == [0, 1]


def test_a_real_run_names_what_each_failed_task_missed(toy_plugin) -> None:
    run = ["run", "--domain", "toylib", "--agent", "oracle", "--max-steps", "1"]
    assert CliRunner().invoke(cli, run).exit_code == 0
    result = CliRunner().invoke(cli, ["report", "latest", "--tasks"])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if line[:6].strip().isdigit()]
    assert [" ".join(row[4:]) for row in rows] == [  # cut short: the ending comes first
        "max_steps 1, database 1",
        "max_steps 1, outputs 1",
        "max_steps 1",
    ]
