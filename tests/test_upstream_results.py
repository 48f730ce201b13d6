"""Upstream result-list JSON: written by export, read back for reports and rescoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.errors import TaskSetError
from tautrait_core.interchange.result_files import read_result_list
from tautrait_core.types.result import Outcome, Termination


def test_exported_run_reads_back(toy_plugin, tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["run", "--domain", "toylib", "--agent", "oracle"]).exit_code == 0
    path = tmp_path / "results.json"
    assert runner.invoke(cli, ["export", "latest", "-o", str(path)]).exit_code == 0
    episodes = read_result_list(path)
    assert [e.result.task_id for e in episodes] == [0, 1, 2]
    assert all(e.result.outcome is Outcome.PASS for e in episodes)
    first = episodes[0]
    assert first.task is not None and first.task.user_id == "ann_1"
    calls = [m.tool_calls[0] for m in first.result.messages if m.tool_calls]
    assert [c.name for c in calls] == ["find_member", "borrow_book"]
    assert json.loads(calls[1].arguments) == {"member_id": "ann_1", "book_id": "B1", "days": 7}
    assert first.result.termination is Termination.USER_STOP


def test_export_of_a_model_run_needs_no_api_key(toy_plugin, tmp_path: Path, monkeypatch) -> None:
    from tests.test_reports_fixtures import results_store, store_run

    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    store_run(results_store(), {0: ["pass"], 1: ["fail"]}, agent_model="gpt-4o")
    path = tmp_path / "results.json"
    result = CliRunner().invoke(cli, ["export", "latest", "-o", str(path)])
    assert result.exit_code == 0, result.output
    records = json.loads(path.read_text())
    assert [(r["task_id"], r["reward"]) for r in records] == [(0, 1.0), (1, 0.0)]
    assert records[0]["info"]["task"]["user_id"] == "ann_1"
    episode = read_result_list(path)[1]
    assert episode.reward_info is not None and episode.reward_info["reward"] == 0.0


def test_upstream_shapes_are_understood(tmp_path: Path) -> None:
    records = [
        {  # hit the step limit: no reward info
            "task_id": 4,
            "reward": 0.0,
            "trial": 1,
            "info": {
                "task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []},
                "reward_info": None,
            },
            "traj": [
                {"role": "system", "content": "policy"},
                {
                    "role": "assistant",
                    "content": None,
                    "function_call": None,
                    "annotations": [],
                    "tool_calls": [
                        {
                            "id": "c",
                            "type": "function",
                            "function": {"name": "think", "arguments": "{}"},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "c", "name": "think", "content": ""},
            ],
        },
        {
            "task_id": 5,
            "reward": 0.0,
            "trial": 0,
            "info": {"error": "boom", "traceback": "..."},
            "traj": [],
        },
    ]
    path = tmp_path / "upstream.json"
    path.write_text(json.dumps(records))
    step_limit, crashed = read_result_list(path)
    assert step_limit.result.termination is Termination.MAX_STEPS and step_limit.result.trial == 1
    assert step_limit.result.messages[1].tool_calls[0].name == "think"
    assert crashed.result.outcome is Outcome.ERROR and crashed.task is None


def test_files_that_are_not_result_lists_are_clear_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"results": []}))
    with pytest.raises(TaskSetError, match="expected a JSON list"):
        read_result_list(path)
