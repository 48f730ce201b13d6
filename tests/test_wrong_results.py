"""Results a user would not notice were wrong (issue 14, items 8-14 and 20-22).

Upstream files and command lines use upstream's tasks, resume keeps the run's settings,
unknown models fail before a run, pass^k over nothing is n/a, contradictory options are
refused or warned about, sweeps compare by name and report every problem at once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core import ConfigError, RunConfig, TaskSet, prepare
from tautrait_core.cli import cli
from tautrait_core.domain import task_sets
from tautrait_core.grading.metrics import pass_hat_k
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import Failure, ScriptedModelServer
from tautrait_core.store.results import ResultStore


def invoke(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


def as_json(*arguments: str, exit_code: int = 0) -> Any:
    result = invoke(*arguments, "--json")
    assert result.exit_code == exit_code, result.output
    return json.loads(result.stdout)


@pytest.fixture
def imported_upstream(upstream_domain: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tau-trait:test`` imported for toyup: its first two tasks."""
    from tests.plugins.toy_library import TASKS

    upstream = TaskSet(name="tau-trait:test", load_tasks=lambda: TASKS[:2])
    monkeypatch.setattr(
        task_sets,
        "imported_task_sets",
        lambda domain: {"tau-trait:test": upstream} if domain.name == "toyup" else {},
    )


def exported_file(tmp_path: Path, name: str, domain: str = "toyup") -> Path:
    """An upstream result-list file of an oracle run on ``domain`` (tasks 0 and 1)."""
    as_json("run", "--domain", domain, "--agent", "oracle", "--task-ids", "0,1")
    path = tmp_path / name
    assert invoke("export", "latest", "-o", str(path)).exit_code == 0
    return path


# -- item 8: an upstream result file is scored against upstream's tasks ----------------


def test_upstream_file_is_refused_until_upstream_tasks_are_imported(
    upstream_domain: None, tmp_path: Path
) -> None:
    path = exported_file(tmp_path, "impatience-high_toyup.json")
    records = json.loads(path.read_text())
    for record in records:  # upstream's tasks, which tautrait's own set does not hold
        record["info"]["task"]["instruction"] += " (as upstream words it)"
    path.write_text(json.dumps(records))
    for command in (["rescore", str(path)], ["import-results", str(path)]):
        result = invoke(*command)
        assert result.exit_code != 0, result.output
        assert "tautrait import tau-trait" in result.output and "--task-set" in result.output


def test_upstream_file_defaults_to_the_imported_upstream_set(
    imported_upstream: None, tmp_path: Path
) -> None:
    path = exported_file(tmp_path, "impatience-high_toyup.json")
    assert as_json("rescore", str(path))["task_set"] == "tau-trait:test"
    assert as_json("import-results", str(path))["run"]["task_set"] == "tau-trait:test"


# -- item 9: the trait is read from the file name, or --traits is required --------------


def test_import_reads_the_trait_from_the_file_name(toy_plugin: object, tmp_path: Path) -> None:
    with_level = exported_file(tmp_path, "impatience-high_toylib.json", "toylib")
    assert as_json("import-results", str(with_level))["run"]["traits"] == "impatience=high"

    without_level = with_level.rename(tmp_path / "impatience_toylib.json")
    result = invoke("import-results", str(without_level))
    assert result.exit_code != 0 and "--traits impatience=high" in result.output
    nothing = without_level.rename(tmp_path / "published_toylib.json")
    result = invoke("import-results", str(nothing))
    assert result.exit_code != 0 and "--traits none" in result.output
    base = as_json("import-results", str(nothing), "--traits", "none")
    assert base["run"]["traits"] == "none"


# -- item 10: resume applies execution options and refuses defining ones ---------------


def model_run(server: ScriptedModelServer, *extra: str) -> list[str]:
    return [
        "run",
        "--domain",
        "toylib",
        "--agent-model",
        "openai/scripted-agent",
        "--agent-api-base",
        server.base_url,
        "--user",
        "llm",
        "--user-model",
        "openai/scripted-user",
        "--user-api-base",
        server.base_url,
        "--max-retries",
        "0",
        "--retry-base-s",
        "0.01",
        *extra,
    ]


def test_resume_uses_new_servers_and_keeps_stored_execution_settings(toy_plugin: Any) -> None:
    from tautrait_core.run.runner import resumed_config

    with ScriptedModelServer(lambda request: Failure(status=500)) as broken:
        command = model_run(broken, "--task-ids", "0,1", "--concurrency", "2", "--max-cost", "5")
        first = as_json(*command, exit_code=1)  # item 13: every episode errored
    assert first["metrics"]["errors"] == 2
    assert [entry["value"] for entry in first["metrics"]["pass_hat_k"]] == [None]

    record = ResultStore(first["results_db"]).get_run(first["run_id"])
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS)) as working:
        given = RunConfig(resume=record.id, agent_api_base=working.base_url)
        config = resumed_config(record, given)
        assert (config.executor.concurrency, config.limits.max_cost) == (2, 5.0)
        assert config.agent.api_base == working.base_url
        assert config.task_ids == [0, 1]

        resumed = as_json(
            "run",
            "--resume",
            record.id,
            "--agent-api-base",
            working.base_url,
            "--user-api-base",
            working.base_url,
        )
    assert resumed["run_id"] == record.id and resumed["metrics"]["errors"] == 0
    assert resumed["metrics"]["average_reward"] == 1.0

    refused = invoke("run", "--resume", record.id, "--agent-model", "openai/other")
    assert refused.exit_code != 0
    assert "--agent-model openai/other" in refused.output and "new run" in refused.output


# -- item 11: upstream flags select the upstream task set or say which set runs -----------


def test_upstream_flags_say_which_task_set_runs(upstream_domain: None) -> None:
    result = invoke(
        "run", "--env", "toyup", "--agent-strategy", "oracle", "--task-split", "test", "--json"
    )
    assert result.exit_code == 0, result.output
    assert "own toyup task set 'test' (3 tasks), not upstream" in result.stderr
    assert "tautrait import tau-trait" in result.stderr


def test_upstream_flags_run_the_imported_upstream_set(imported_upstream: None) -> None:
    result = invoke(
        "run", "--env", "toyup", "--agent-strategy", "oracle", "--task-split", "test", "--json"
    )
    assert result.exit_code == 0, result.output
    run_id = json.loads(result.stdout)["run_id"]
    report = as_json("report", run_id)
    assert report["run"]["task_set"] == "tau-trait:test"
    assert report["metrics"]["tasks"] == 2


# -- item 12: unknown providers fail before the run ------------------------------------


def test_unknown_provider_is_refused_before_the_run(toy_plugin: object) -> None:
    config = RunConfig(domain="toylib", agent_model="notaprovider/x", user="scripted")
    with pytest.raises(ConfigError, match="names no provider litellm knows"):
        prepare(config)
    result = invoke("run", "--domain", "toylib", "--agent-model", "notaprovider/x")
    assert result.exit_code != 0 and "--agent-provider" in result.output
    assert not ResultStore(Path(get_home_db())).list_runs()


def get_home_db() -> str:
    from tautrait_core.paths import default_results_db

    return str(default_results_db())


# -- item 13: pass^k over no task is n/a -------------------------------------------------


def test_pass_hat_k_over_no_task_is_none() -> None:
    entry = pass_hat_k({0: (1, 1)}, 2)
    assert (entry.value, entry.tasks) == (None, 0)


def test_report_of_an_all_error_run_says_n_a(toy_plugin: Any) -> None:
    with ScriptedModelServer(lambda request: Failure(status=500)) as broken:
        result = invoke(*model_run(broken, "--task-ids", "0"))
    assert result.exit_code == 1, result.output
    assert "pass^1: n/a" in result.output and "pass^1: 0.000" not in result.output
    assert "Every episode (1) ended in an infrastructure error" in result.output
    assert "pass^1: n/a" in invoke("report", "latest").output


# -- item 14: contradictory options are refused or warned about --------------------------


def test_traits_with_a_scripted_user_are_warned_about(toy_plugin: object) -> None:
    document = as_json(
        "run", "--domain", "toylib", "--agent", "oracle", "--traits", "impatience=high"
    )
    assert any("ignores traits" in warning for warning in document["warnings"])


def test_a_trait_given_twice_is_refused() -> None:
    with pytest.raises(ConfigError, match="impatience more than once"):
        RunConfig(domain="toylib", traits="impatience=high,impatience=low")
    with pytest.raises(ConfigError, match="skeptical more than once"):
        RunConfig(domain="toylib", traits="skepticism=1,skeptical=2")


def test_empty_task_ids_are_refused(toy_plugin: object) -> None:
    result = invoke("run", "--domain", "toylib", "--agent", "oracle", "--task-ids", "")
    assert result.exit_code != 0 and "--task-ids is empty" in result.output


# -- items 20-22: sweeps by name, every sweep problem at once, --timeout -----------------

GRID = """
name = "mini-grid"

[base]
agent = "oracle"
domain = "toylib"

[grid]
traits = ["", "impatience=high"]
"""


def test_compare_takes_a_sweep_and_reports_take_run_names(
    toy_plugin: object, tmp_path: Path
) -> None:
    path = tmp_path / "grid.toml"
    path.write_text(GRID)
    assert invoke("sweep", str(path)).exit_code == 0
    table = as_json("compare", "mini-grid")
    assert table["rows"][0]["cells"][0]["traits"] == "impatience=high"
    report = as_json("report", "mini-grid/1")
    assert report["run"]["name"] == "mini-grid/1" and report["run"]["traits"] == "impatience=high"


def test_sweep_validation_reports_every_problem(toy_plugin: object, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        'name = "bad"\nextra = 1\n[base]\nagnet = "oracle"\ndomain = "toylib"\n'
        "[grid]\nseed = 3\nnum_trials = [0]\n"
    )
    result = invoke("sweep", str(path))
    assert result.exit_code != 0
    # the point is prepared without its bad num_trials: without agnet, its agent needs a model
    assert "5 problem(s)" in result.output, result.output
    problems = ("unknown top-level key(s) extra", "agnet", "seed must be", "num_trials", "--agent")
    for problem in problems:
        assert problem in result.output


def test_run_takes_the_request_timeout(toy_plugin: object) -> None:
    run_id = as_json("run", "--domain", "toylib", "--agent", "oracle", "--timeout", "7")["run_id"]
    assert as_json("report", run_id)["config"]["timeout_s"] == 7.0
