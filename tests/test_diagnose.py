"""tautrait diagnose: prompts, robust answer parsing, storage; through the scripted server."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tautrait_core.analysis.diagnose import DiagnosisParseError, ParsedDiagnosis, parse_diagnosis
from tautrait_core.cli import cli
from tautrait_core.scripted.server import Failure, ScriptedModelServer
from tests.test_reports_fixtures import results_store, store_run

OUTCOMES = {0: ["pass", "fail"], 1: ["fail", "error"], 2: ["fail", "pass"]}
"""Failed episodes: task 0 trial 1, task 1 trial 0, task 2 trial 0."""


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            '{"fault": "agent", "fault_type": "wrong_tool", "explanation": "Called X."}',
            ParsedDiagnosis("agent", "wrong_tool", "Called X."),
        ),
        (
            'Sure.\n```json\n{"Fault": "The User", "Fault Type": "Goal partially completed",'
            ' "explanation": " Left early. "}\n```',
            ParsedDiagnosis("user", "goal_partially_completed", "Left early."),
        ),
        (
            '{"verdict": {"responsible": "env", "type": "used_wrong_tool_argument", '
            '"reason": "Tool broke."}}',
            ParsedDiagnosis("environment", "wrong_argument", "Tool broke."),
        ),
        (
            '{"note": "{not json"} then {"fault": "agent", "fault_type": "policy breach"}',
            ParsedDiagnosis("agent", "other", ""),
        ),
    ],
)
def test_answers_are_read_robustly(answer: str, expected: ParsedDiagnosis) -> None:
    assert parse_diagnosis(answer) == expected


@pytest.mark.parametrize(
    "answer", ["I cannot tell.", '{"fault": "the weather"}', "[1, 2]", '{"fault": ']
)
def test_answers_without_a_diagnosis_are_errors(answer: str) -> None:
    with pytest.raises(DiagnosisParseError, match="no diagnosis in the answer"):
        parse_diagnosis(answer)


def judge(request: dict) -> object:
    prompt = request["messages"][-1]["content"]
    if "Please lend me book B0." in prompt:
        return (
            '```json\n{"fault": "The Agent", "fault_type": "Wrong argument", '
            '"explanation": "Lent for 7 days."}\n```'
        )
    if "Please lend me book B1." in prompt:
        return 'Verdict: {"Fault": "user", "type": "called_wrong_tool", "reason": "Asked twice."}'
    return "I am not sure."


def diagnose(server: ScriptedModelServer, run_id: str, *extra: str) -> dict:
    arguments = ["diagnose", run_id, "--model", "openai/judge", "--api-base", server.base_url]
    result = CliRunner().invoke(cli, [*arguments, "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_failed_episodes_are_diagnosed_stored_and_reported(toy_plugin) -> None:
    record = store_run(results_store(), OUTCOMES)
    runner = CliRunner()
    with ScriptedModelServer(judge) as server:
        first = diagnose(server, record.id, "--concurrency", "2")
        assert len(server.requests) == 3  # one call per failed episode; passes, errors skipped
        request = next(r for r in server.requests if "book B1." in r["messages"][-1]["content"])
        prompt = request["messages"][-1]["content"]
        # the task comes from the installed domain: instruction, gold actions, outputs
        assert "You are Bo Chan. Ask which shelf Emma (B2) is on." in prompt
        assert '"name": "get_book"' in prompt and "CL-4" in prompt
        assert 'Database differs from the gold replay in: toylib_books["B1"]' in prompt
        assert '[agent calls borrow_book] {"member_id": "ann_1", "days": 7}' in prompt
        assert "You are a library assistant." not in prompt  # the policy is left out
        assert request["model"] == "judge" and request["temperature"] == 0.0

        assert first["tasks_known"] is True and first["skipped"] == 0
        assert {
            (d["task_id"], d["trial"], d["fault"], d["fault_type"]) for d in first["diagnosed"]
        } == {
            (0, 1, "agent", "wrong_argument"),
            (1, 0, "user", "wrong_tool"),
        }
        assert [item[:2] for item in first["unreadable"]] == [[2, 0]]

        # running again retries only what has no diagnosis
        again = diagnose(server, record.id)
        assert len(server.requests) == 4 and again["skipped"] == 2 and not again["diagnosed"]
        redone = diagnose(server, record.id, "--redo", "--limit", "1")
        assert len(server.requests) == 5 and len(redone["diagnosed"]) == 1

    report = runner.invoke(cli, ["report", record.id]).output
    assert (
        "Diagnoses: 2 of 3 failed episodes; fault: agent 1, user 1; "
        "type: wrong_argument 1, wrong_tool 1" in report
    )
    shown = runner.invoke(cli, ["show", record.id, "--task", "0", "--trial", "1"]).output
    assert "Fault: agent; type: wrong_argument (by openai/judge). Lent for 7 days." in shown


def test_failed_calls_are_reported_and_not_stored(toy_plugin) -> None:
    record = store_run(results_store(), {0: ["fail"]})
    with ScriptedModelServer(judge) as server:
        server.inject(Failure(status=400))
        outcome = diagnose(server, record.id)
    assert outcome["diagnosed"] == [] and outcome["failed"][0][:2] == [0, 0]
    assert "BadRequestError" in outcome["failed"][0][2]
    assert results_store().diagnoses(record.id) == []


def test_runs_of_unknown_domains_are_judged_without_the_task() -> None:
    record = store_run(results_store(), {0: ["fail"]}, domain="nowhere")
    with ScriptedModelServer(judge) as server:
        outcome = diagnose(server, record.id)
        prompt = server.requests[0]["messages"][-1]["content"]
    assert outcome["tasks_known"] is False and outcome["diagnosed"][0]["fault"] == "agent"
    assert "The task is not available" in prompt
