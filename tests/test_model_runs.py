"""Runs with model-backed agents and users, through litellm to the scripted server."""

from __future__ import annotations

from tautrait_core.run.runner import execute
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import Failure, ScriptedModelServer
from tautrait_core.types.result import Outcome, Termination
from tests.scripted_runs import scripted_config


def test_tool_calling_agent_and_llm_user_pass_every_task(toy_plugin) -> None:
    tasks = toy_plugin.TASKS
    with ScriptedModelServer(GoldScript(tasks, ["transfer_to_librarian"])) as server:
        report = execute(scripted_config(server, num_trials=2, concurrency=4))
    assert report.metrics.average_reward == 1.0
    assert [p.value for p in report.metrics.pass_hat_k] == [1.0, 1.0]
    assert {r.termination for r in report.results} == {Termination.USER_STOP}
    first = next(r for r in report.results if r.task_id == 0)
    # the agent's tool calls went through litellm and came back as tool messages
    assert [m.name for m in first.messages if m.role == "tool"] == ["find_member", "borrow_book"]
    assert first.agent_usage.calls == 3 and first.user_usage.calls == 2
    # the scripted model has no price: cost is unknown, never 0
    assert report.metrics.cost is None


def test_agent_requests_carry_policy_and_tool_schemas(toy_plugin) -> None:
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS)) as server:
        execute(scripted_config(server, task_ids=[1]))
        agent_requests = [r for r in server.requests if r.get("tools")]
    first = agent_requests[0]
    assert first["messages"][0] == {
        "role": "system",
        "content": "You are a library assistant. Identify the member by email before lending.",
    }
    names = [tool["function"]["name"] for tool in first["tools"]]
    assert names[:3] == ["find_member", "get_book", "borrow_book"]
    borrow = first["tools"][2]["function"]["parameters"]
    assert borrow["required"] == ["member_id", "book_id"]
    assert borrow["properties"]["days"] == {
        "type": "integer",
        "description": "Loan length in days.",
        "default": 14,
    }


def test_transient_failures_are_retried_and_invisible(toy_plugin) -> None:
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS)) as server:
        server.inject(
            Failure(status=503), Failure(status=429, retry_after=0.05), Failure(truncated=True)
        )
        report = execute(scripted_config(server, task_ids=[0]))
        attempts = len(server.requests)
    assert report.results[0].outcome is Outcome.PASS
    assert attempts == 5 + 3  # 3 agent + 2 user calls, plus the 3 failed attempts


def test_persistent_provider_failure_is_an_error_and_resume_reruns_it(toy_plugin) -> None:
    script = GoldScript(toy_plugin.TASKS)
    broken = {"agent": True}

    def responder(request: dict) -> object:
        if request.get("tools") and broken["agent"]:
            return Failure(status=500)
        return script(request)

    with ScriptedModelServer(responder) as server:
        report = execute(scripted_config(server, task_ids=[0, 1], max_retries=2))
        assert {r.outcome for r in report.results} == {Outcome.ERROR}
        assert {r.termination for r in report.results} == {Termination.PROVIDER_ERROR}
        assert "after 3 attempts" in (report.results[0].error or "")
        assert report.metrics.errors == 2 and report.metrics.scored == 0
        assert report.metrics.average_reward is None

        broken["agent"] = False
        resumed = execute(scripted_config(server, resume=report.run.id))
    assert resumed.run.id == report.run.id
    assert resumed.skipped == 0
    assert [r.outcome for r in resumed.results] == [Outcome.PASS, Outcome.PASS]
    assert resumed.metrics.errors == 0


def test_max_cost_stops_starting_episodes_and_resume_continues(toy_plugin) -> None:
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])) as server:
        priced = {"agent_model": "openai/gpt-4o-mini", "user_model": "openai/gpt-4o-mini"}
        report = execute(scripted_config(server, max_cost=0.00001, **priced))
        assert report.stop_reason and "--max-cost reached" in report.stop_reason
        assert report.run.status == "stopped"
        assert len(report.results) == 1  # the first episode spent more than the limit
        assert report.metrics.cost and report.metrics.cost > 0.00001
        resumed = execute(scripted_config(server, resume=report.run.id, max_cost=1.0, **priced))
    assert resumed.stop_reason is None and resumed.run.status == "finished"
    assert sorted(r.task_id for r in resumed.results) == [0, 1, 2]
    assert all(call.cost for r in resumed.results for call in r.calls)


def test_model_calls_are_recorded_per_episode(toy_plugin) -> None:
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS)) as server:
        report = execute(scripted_config(server, task_ids=[0]))
    calls = report.results[0].calls
    assert [c.role for c in calls] == ["user", "agent", "agent", "agent", "user"]
    assert all(c.model.startswith("openai/scripted") and c.attempts == 1 for c in calls)


def test_a_server_scripted_for_other_tasks_refuses_at_once_and_says_why(toy_plugin) -> None:
    script = GoldScript(toy_plugin.TASKS[1:])  # plays every task but the first
    with ScriptedModelServer(script) as server:
        report = execute(scripted_config(server, task_ids=[0], max_retries=4))
        agent_requests = [r for r in server.requests if r.get("tools")]
    (result,) = report.results
    assert result.outcome is Outcome.ERROR
    error = result.error or ""
    assert "this conversation opens with none of them" in error
    assert "--domain and --task-set" in error
    assert len(agent_requests) == 1  # a 400: not retried
