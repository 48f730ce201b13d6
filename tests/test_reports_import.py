"""tautrait import-results: published upstream result lists as stored runs."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tautrait_core.cli import cli


def upstream_record(task_id: int, trial: int, reward: float, **info: object) -> dict:
    return {
        "task_id": task_id,
        "reward": reward,
        "trial": trial,
        "info": {
            "task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []},
            "reward_info": {"reward": reward, "info": {"r_actions": reward}, "actions": []},
            **info,
        },
        "traj": [
            {"role": "system", "content": "policy"},
            {"role": "user", "content": f"help with task {task_id}"},
            {"role": "assistant", "content": "done", "tool_calls": None},
        ],
    }


def write(path: Path, records: list[dict]) -> Path:
    path.write_text(json.dumps(records))
    return path


def import_json(runner: CliRunner, *arguments: str) -> dict:
    result = runner.invoke(cli, ["import-results", *arguments, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_an_exported_run_imports_and_reports_the_same(toy_plugin, tmp_path: Path) -> None:
    runner = CliRunner()
    run = ["run", "--domain", "toylib", "--agent", "oracle", "--num-trials", "2"]
    assert runner.invoke(cli, run).exit_code == 0
    exported = tmp_path / "impatience_toylib.json"
    assert runner.invoke(cli, ["export", "latest", "-o", str(exported)]).exit_code == 0

    imported = import_json(
        runner, str(exported), "--traits", "impatience=high", "--agent-model", "gpt-5"
    )
    run_record = imported["run"]
    assert imported["episodes"] == 6 and imported["duplicates"] == 0
    assert run_record["domain"] == "toylib"  # read from the file name
    assert run_record["name"] == "impatience_toylib" and run_record["status"] == "imported"
    assert run_record["traits"] == "impatience=high" and run_record["agent_model"] == "gpt-5"
    assert (run_record["num_trials"], run_record["task_ids"]) == (2, [0, 1, 2])

    report = runner.invoke(cli, ["report", run_record["id"]]).output
    assert "Average reward: 1.000" in report and "pass^2: 1.000" in report
    assert "not run yet" not in report
    shown = runner.invoke(cli, ["show", run_record["id"], "--task", "0", "--trial", "1"]).output
    assert "find_member" in shown


def test_published_runs_compare_with_each_other(tmp_path: Path) -> None:
    runner = CliRunner()
    base = write(
        tmp_path / "telecom_none.json",
        [upstream_record(t, 0, 1.0 if t < 3 else 0.0) for t in range(4)],
    )
    confused = write(
        tmp_path / "confusion_telecom.json",
        [upstream_record(t, 0, 1.0 if t < 2 else 0.0) for t in range(4)],
    )
    base_id = import_json(runner, str(base))["run"]["id"]
    confused_id = import_json(runner, str(confused), "--traits", "confusion=medium")["run"]["id"]
    table = json.loads(runner.invoke(cli, ["compare", base_id, confused_id, "--json"]).output)
    cell = table["rows"][0]["cells"][0]
    assert table["rows"][0]["label"].startswith("telecom · ")
    assert cell["traits"] == "confusion=medium"
    assert abs(cell["relative_change"] - (0.5 - 0.75) / 0.75) < 1e-9


def test_errors_duplicates_and_unknown_domains(tmp_path: Path) -> None:
    runner = CliRunner()
    records = [
        upstream_record(0, 0, 1.0),
        upstream_record(0, 0, 0.0),  # repeated pair: the later one is kept
        {"task_id": 1, "reward": 0.0, "trial": 0, "info": {"error": "boom"}, "traj": []},
        upstream_record(2, 1, 0.0),
    ]
    path = write(tmp_path / "results.json", records)
    missing = runner.invoke(cli, ["import-results", str(path)])
    assert missing.exit_code != 0 and "pass --domain" in missing.output

    imported = import_json(
        runner,
        str(path),
        "--domain",
        "retail",
        "--name",
        "published",
        "--traits",
        "none",
        "--task-set",
        "tau-trait:test",
    )
    assert (imported["episodes"], imported["duplicates"]) == (3, 1)
    run_id = imported["run"]["id"]
    report = json.loads(runner.invoke(cli, ["report", run_id, "--json"]).output)
    assert report["metrics"]["errors"] == 1 and report["metrics"]["average_reward"] == 0.0
    assert report["run"]["name"] == "published"
    text = runner.invoke(cli, ["report", run_id]).output
    assert "3 of 6 episodes absent from the imported file" in text
    assert "error (task 1 trial 0): boom" in text and "--resume" not in text

    empty = write(tmp_path / "retail.json", [])
    result = runner.invoke(cli, ["import-results", str(empty)])
    assert result.exit_code != 0 and "holds no results" in result.output
