"""What a run says about itself: the oracle is an upper bound in solo mode too, solo mode and
the trait backend show in the run header and `runs list`, and only models a run called are
recorded (never the default user model of a scripted user)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager


@pytest.fixture
def tau2_mock(tau2_imported: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """τ²'s mock tasks imported; the domain's name."""
    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", "tau2-mock")
    reset_plugin_manager()
    if "tau2-mock" not in get_plugin_manager().names("domain"):
        pytest.skip("the τ² mock domain plugin is not installed")
    tau2_imported("mock")
    reset_plugin_manager()
    return "tau2-mock"


def oracle_run(domain: str, *extra: str) -> tuple[dict[str, Any], str]:
    """``tautrait run --agent oracle`` on ``domain``: its metrics and its printed summary."""
    runner = CliRunner()
    arguments = ["run", "--domain", domain, "--agent", "oracle", *extra]
    ran = runner.invoke(cli, [*arguments, "--json"])
    assert ran.exit_code == 0, ran.output
    run_id = json.loads(ran.output)["run_id"]
    printed = runner.invoke(cli, ["report", run_id], env={"COLUMNS": "200"}).output
    return json.loads(ran.output)["metrics"], printed


def test_the_solo_oracle_scores_as_the_oracle_in_dialogue(tau2_mock: str) -> None:
    task_set = ("--task-set", "tau2:mock")
    dialogue, _ = oracle_run(tau2_mock, *task_set)
    solo, printed = oracle_run(tau2_mock, *task_set, "--solo")
    assert solo["average_reward"] == dialogue["average_reward"] > 0.8
    assert "agent oracle  user none (solo)" in printed and "traits none" in printed


def test_a_scripted_user_records_no_model(toy_plugin: object, tmp_path: Path) -> None:
    runner = CliRunner()
    ran = runner.invoke(cli, ["run", "--domain", "toylib", "--agent", "oracle", "--json"])
    assert ran.exit_code == 0, ran.output
    run_id = json.loads(ran.output)["run_id"]
    report = json.loads(runner.invoke(cli, ["report", run_id, "--json"]).output)
    assert (report["run"]["agent_model"], report["run"]["user_model"]) == (None, None)
    page = tmp_path / "report.html"
    assert runner.invoke(cli, ["report", run_id, "--html", str(page)]).exit_code == 0
    assert "gpt-4o" not in page.read_text()
    listed = json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output)
    assert listed[0]["user_model"] is None and listed[0]["solo"] is False


def test_resuming_with_the_unused_default_model_given_again(toy_plugin: object) -> None:
    runner = CliRunner()
    command = ["run", "--domain", "toylib", "--agent", "oracle", "--user-model", "gpt-4o"]
    ran = runner.invoke(cli, [*command, "--json"])
    run_id = json.loads(ran.output)["run_id"]
    resumed = runner.invoke(cli, [*command, "--resume", run_id])
    assert resumed.exit_code == 0, resumed.output
