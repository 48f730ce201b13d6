"""The oracle on τ³'s task sets (τ²-bench v1.x), through ``tautrait run``: 1.0 on every
task of airline, retail (NL assertions judged by a scripted judge model), mock and the
small telecom split, except the two mock tasks whose env assertion needs a customer
action the gold actions lack; retail's test split runs 40 tasks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.plugins import reset_plugin_manager
from tautrait_core.testing import ScriptedModelServer, cli
from tautrait_core.testing.tau3_reference import build_tau3_checkout

PLUGINS = "tau2-mock,tau2-airline,tau2-retail,telecom"
MOCK_GOLD_FAILURES = {"update_task_with_history_and_env_assertions", "update_task_with_user_tools"}


@pytest.fixture
def tau3_home(reference_material: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if not (reference_material / "tau3-bench").is_dir():
        pytest.skip("τ³ reference material (tau3-bench/) not found")
    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", PLUGINS)
    reset_plugin_manager()
    domains = ["mock", "airline", "retail", "telecom"]
    checkout = build_tau3_checkout(reference_material, tmp_path / "tau3", domains)
    result = CliRunner().invoke(cli, ["import", "tau2", str(checkout)])
    assert result.exit_code == 0, result.output
    reset_plugin_manager()
    return tmp_path


def all_met(request: dict[str, Any]) -> str:
    """A judge that finds every expected outcome met."""
    prompt = request["messages"][-1]["content"]
    outcomes = json.loads(prompt.split("<expected_outcomes>\n")[1].split("\n</expected")[0])
    results = [{"expectedOutcome": o, "reasoning": "met", "metExpectation": True} for o in outcomes]
    return json.dumps({"results": results})


def _oracle_rewards(tmp_path: Path, *arguments: str) -> dict[str, float]:
    from tautrait_core.store.results import ResultStore

    database = str(tmp_path / "results.db")
    command = ["run", *arguments, "--agent", "oracle", "--user", "scripted"]
    result = CliRunner().invoke(cli, [*command, "--results-db", database, "--json"])
    assert result.exit_code == 0, result.output
    store = ResultStore(database)
    run = store.list_runs()[0]
    tasks = {}
    from tautrait_core.interchange.run_tasks import tasks_of_run

    for index, task in enumerate(tasks_of_run(run.domain, run.task_set)):
        tasks[index] = task.id
    return {tasks[episode.task_id]: episode.reward for episode in store.episodes(run.id)}


@pytest.mark.parametrize(
    ("domain", "task_set", "size"),
    [
        ("tau2-airline", "tau2:airline", 50),
        ("tau2-mock", "tau2:mock", 10),
        ("tau2-telecom", "tau2:telecom/small", 20),
    ],
)
def test_the_oracle_scores_one(tau3_home: Path, domain: str, task_set: str, size: int) -> None:
    rewards = _oracle_rewards(tau3_home, "--domain", domain, "--task-set", task_set)
    assert len(rewards) == size
    failing = {task_id for task_id, reward in rewards.items() if reward != 1.0}
    assert failing == (MOCK_GOLD_FAILURES if domain == "tau2-mock" else set())


@pytest.mark.parametrize(("split", "size"), [(["--split", "test"], 40), ([], 114)])
def test_the_oracle_scores_one_on_retail_with_a_judge(
    tau3_home: Path, split: list[str], size: int
) -> None:
    with ScriptedModelServer(all_met) as server:
        judge = ["--judge-model", "openai/judge", "--judge-api-base", server.base_url]
        arguments = ["--task-set", "tau2:retail", *split]  # the task set names its domain
        rewards = _oracle_rewards(tau3_home, *arguments, *judge)
        assert server.requests  # the tasks with assertions were judged
    assert len(rewards) == size and set(rewards.values()) == {1.0}


def test_without_a_judge_only_retail_tasks_with_assertions_are_not_scoreable(
    tau3_home: Path,
) -> None:
    from tautrait_core.store.results import ResultStore

    database = str(tau3_home / "results.db")
    command = ["run", "--domain", "tau2-retail", "--task-set", "tau2:retail/test"]
    command += ["--agent", "oracle", "--user", "scripted", "--results-db", database, "--json"]
    result = CliRunner().invoke(cli, command)
    store = ResultStore(database)
    episodes = store.episodes(store.list_runs()[0].id)
    outcomes = {episode.outcome for episode in episodes}
    assert outcomes == {"pass", "error"}, result.output
    errors = [e for e in episodes if e.outcome == "error"]
    assert all(e.error.startswith("not scoreable: needs a judge model") for e in errors)
    report = CliRunner().invoke(cli, ["report", "latest", "--results-db", database])
    assert f"{len(errors)} episodes left out as errors; pass^k up to k=1" in report.output
    said = " ".join(report.output.split())
    assert f"{len(errors)} episodes are not scoreable without a judge model" in said
    assert "infrastructure errors; they are not counted" not in said


def test_a_not_scoreable_episode_is_exported_as_tau3_leaves_it_out_never_as_zero(
    tau3_home: Path, tmp_path: Path
) -> None:
    """In τ³'s results file an episode graded without its judge is an infrastructure error
    with no reward info (τ³ leaves those out of its metrics), and it reads back as an
    error, not as a failure scored 0."""
    database = str(tmp_path / "judgeless.db")
    run = ["run", "--task-set", "tau2:retail/test", "--agent", "oracle"]
    ran = CliRunner().invoke(cli, [*run, "--results-db", database])
    assert "not scoreable without a judge model" in ran.output, ran.output
    exported = tmp_path / "tau3.json"
    result = CliRunner().invoke(
        cli, ["export", "latest", "--format", "tau2", "-o", str(exported), "--results-db", database]
    )
    assert result.exit_code == 0, result.output
    simulations = json.loads(exported.read_text())["simulations"]
    judgeless = [s for s in simulations if s["termination_reason"] == "infrastructure_error"]
    assert judgeless and all(s["reward_info"] is None for s in judgeless)
    assert all(s["reward_info"]["reward"] == 1.0 for s in simulations if s not in judgeless)
    back = str(tmp_path / "back.db")
    imported = CliRunner().invoke(
        cli, ["import-results", str(exported), "--domain", "tau2-retail", "--results-db", back]
    )
    assert imported.exit_code == 0, imported.output
    report = CliRunner().invoke(cli, ["report", "latest", "--json", "--results-db", back])
    metrics = json.loads(report.output)["metrics"]
    assert (metrics["errors"], metrics["average_reward"]) == (len(judgeless), 1.0)


def test_check_lists_tau3_tasks_a_do_nothing_agent_passes(tau3_home: Path) -> None:
    database = str(tau3_home / "results.db")
    command = ["check", "--domain", "tau2-mock", "--task-set", "tau2:mock", "--json"]
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["splits"] == {"base": 10} and report["rules"] == "tau3"
    flagged = {r["task_name"]: [p["kind"] for p in r["problems"]] for r in report["reports"]}
    assert flagged["create_task_1_nl_eval"] == ["passes_doing_nothing"]
    noop = CliRunner().invoke(
        cli,
        [
            *["run", "--domain", "tau2-mock", "--task-set", "tau2:mock", "--agent", "noop"],
            *["--user", "scripted", "--results-db", database, "--json"],
        ],
    )
    assert noop.exit_code == 0, noop.output
    from tautrait_core.store.results import ResultStore

    store = ResultStore(database)
    [run] = store.list_runs()
    passed = [e.reward for e in store.episodes(run.id) if e.reward == 1.0]
    assert len(passed) == 1  # the noop agent itself passes the one task check listed


def test_a_chosen_reward_basis_is_reported_beside_the_official_reward(tau3_home: Path) -> None:
    from tautrait_core.store.results import ResultStore

    database = str(tau3_home / "results.db")
    common = ["--task-set", "tau2:retail/test", "--results-db", database]
    run = ["run", "--domain", "tau2-retail", *common, "--agent", "oracle", "--user", "scripted"]
    result = CliRunner().invoke(cli, [*run, "--reward-basis", "db,action", "--json"])
    assert result.exit_code == 0, result.output  # no judge needed: NL_ASSERTION not chosen
    store = ResultStore(database)
    [record] = store.list_runs()
    episodes = store.episodes(record.id)
    assert {e.outcome for e in episodes} == {"pass"}
    infos = [e.reward_info for e in episodes]
    assert {tuple(info.reward_basis) for info in infos} == {("DB", "ACTION")}
    official = [info.official_reward for info in infos]
    assert None in official and 1.0 in official  # tasks with assertions need a judge
    report = CliRunner().invoke(cli, ["report", record.id, "--results-db", database])
    judged = official.count(None)
    assert (
        "Reward on basis DB,ACTION (chosen): 1.000; official (each task's own basis): "
        f"1.000 over {40 - judged} episodes ({judged} need a judge)"
    ) in report.output
    rescored = CliRunner().invoke(
        cli,
        ["rescore", record.id, "--results-db", database, "--reward-basis", "COMMUNICATE"],
    )
    assert rescored.exit_code == 0, rescored.output
    assert "COMMUNICATE 1 (official 1)" in rescored.output
    bad = CliRunner().invoke(cli, [*run, "--reward-basis", "DB,SPEED"])
    assert bad.exit_code != 0 and "--reward-basis takes" in bad.output
