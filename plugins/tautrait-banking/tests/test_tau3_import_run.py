"""τ³'s banking_knowledge through the core's τ³ import and rules: a checkout holding only
banking_knowledge imports; the imported task set and the plugin's own read the same 97
tasks; the oracle scores 1.0 with BM25; task_102 needs a judge; each task's ``user_tools``
choose the customer's tools; replay keeps only τ³'s mutating tools; only calls that raised
count as tool errors (a tool's own ``Error: ...`` text does not, as in τ³'s exports)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tautrait_banking.tau3 import TASK_SET, build_domain

from tautrait_core import resolve_task_set
from tautrait_core.testing import (
    Reply,
    ScriptedModelServer,
    build_tau3_checkout,
    cli,
    reply_text,
    reply_tool_call,
    reset_plugin_manager,
)

RUN = ["run", "--task-set", TASK_SET, "--retrieval", "bm25"]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def banking_import(tau3_reference: Path, tautrait_home: Path, tmp_path: Path) -> Path:
    """``tautrait import tau2`` of a τ³ checkout holding only banking_knowledge."""
    checkout = build_tau3_checkout(tau3_reference.parent, tmp_path / "ck", ["banking_knowledge"])
    result = invoke("import", "tau2", str(checkout))
    assert result.exit_code == 0, result.output
    assert "τ³ checkout" in result.output
    assert "tau2:banking_knowledge (97 tasks)" in result.output
    reset_plugin_manager()
    return tautrait_home


def indices(*task_ids: str) -> str:
    """``--task-ids`` of τ³ task ids (the option takes indices into the task set)."""
    tasks = [task.id for task in resolve_task_set(build_domain(), TASK_SET).tasks]
    return ",".join(str(tasks.index(task_id)) for task_id in task_ids)


def _report(database: Path, *arguments: str) -> dict[str, Any]:
    """``tautrait report --json`` of a run of ``tau2:banking_knowledge`` with BM25."""
    result = invoke(*RUN, *arguments, "--results-db", str(database))
    assert result.exit_code in (0, 1), result.output
    report = invoke("report", "latest", "--json", "--results-db", str(database))
    assert report.exit_code == 0, report.output
    return json.loads(report.output)


def test_the_imported_and_the_plugins_task_set_are_the_same_97_tasks(
    banking_import: Path,
) -> None:
    domain = build_domain()
    imported = resolve_task_set(domain, TASK_SET)  # task_sets/banking_knowledge.json
    own = domain.task_sets[TASK_SET]  # the plugin's, on the copied tasks/ folder
    assert imported.rules == own.rules == "tau3"
    dumped = [task.model_dump() for task in imported.tasks]
    assert len(dumped) == 97 and dumped == [task.model_dump() for task in own.tasks]
    first = imported.tasks[0]
    assert (first.id, first.user_tools) == ("task_001", ["apply_for_credit_card"])
    assert sum(bool(task.required_documents) for task in imported.tasks) > 90


def test_the_oracle_scores_one_with_bm25_after_the_import(banking_import: Path) -> None:
    ids = indices("task_001", "task_003", "task_010", "task_050")
    metrics = _report(banking_import / "results.db", "--agent", "oracle", "--task-ids", ids)
    assert metrics["metrics"]["scored"] == 4 and metrics["metrics"]["average_reward"] == 1.0
    assert metrics["metrics"]["rules"] == "tau3"


def all_met(request: dict[str, Any]) -> str:
    """A judge that finds every expected outcome met (τ³'s golden stub)."""
    prompt = request["messages"][-1]["content"]
    outcomes = json.loads(prompt.split("<expected_outcomes>\n")[1].split("\n</expected")[0])
    results = [{"expectedOutcome": o, "reasoning": "met", "metExpectation": True} for o in outcomes]
    return json.dumps({"results": results})


def test_task_102_needs_a_judge_and_with_one_scores_as_tau3(
    banking_import: Path, tau3_golden: Any
) -> None:
    oracle = ["--agent", "oracle", "--task-ids", indices("task_102")]
    unjudged = _report(banking_import / "unjudged.db", *oracle)
    assert unjudged["metrics"]["scored"] == 0
    (error,) = unjudged["errors"]
    assert error["error"].startswith("not scoreable: needs a judge model")
    (gold,) = [
        r
        for r in tau3_golden("banking_knowledge")
        if (r["task_id"], r["variant"]) == ("task_102", "gold")
    ]
    with ScriptedModelServer(all_met) as server:
        judge = ["--judge-model", "openai/judge", "--judge-api-base", server.base_url]
        judged = _report(banking_import / "judged.db", *oracle, *judge)
        assert server.requests  # the judge was asked
    assert (judged["metrics"]["scored"], judged["errors"]) == (1, [])
    assert judged["metrics"]["average_reward"] == gold["reward_info"]["reward"] == 1.0


def test_each_banking_task_chooses_the_customers_tools(imported_banking: Path) -> None:
    from tautrait_core import EpisodeContext

    domain = build_domain()
    tasks = resolve_task_set(domain, TASK_SET).tasks
    offered = [schema["function"]["name"] for schema in domain.user_tool_schemas]
    assert len(offered) == 6  # the domain offers every customer tool
    for index, task in enumerate(tasks):
        context = EpisodeContext(domain=domain, task=task, task_id=index, trial=0, seed=0)
        names = [schema["function"]["name"] for schema in context.user_tool_schemas]
        assert sorted(names) == sorted(task.user_tools), task.id
    assert any(task.user_tools == [] for task in tasks)


def test_replay_keeps_tau3s_mutating_tools(imported_banking: Path, tau3_reference: Path) -> None:
    domain = build_domain()
    tools = {"assistant": domain.tools_by_name, "user": domain.user_tools_by_name}
    schemas = json.loads((tau3_reference / "tool_schemas.json").read_text())["banking_knowledge"]
    for side, key in (("assistant", "agent_common"), ("user", "user")):
        for schema in schemas[key]:
            name = schema.get("function", schema).get("name") or schema["name"]
            assert tools[side][name].mutates_state is schema["mutates_state"], name


def test_only_calls_that_raised_count_as_tool_errors(
    imported_banking: Path, tautrait_home: Path, tmp_path: Path
) -> None:
    own_error = reply_tool_call("get_user_information_by_id", {"user_id": 'a"b'})
    raising = reply_tool_call("no_such_tool", {})
    replies = {"scripted-agent": [own_error] * 11 + [raising] * 12}
    user_tools: list[list[str]] = []

    def script(request: dict[str, Any]) -> Reply:
        if request["model"] == "scripted-user":
            user_tools.append([tool["function"]["name"] for tool in request.get("tools") or []])
        pending = replies.get(request["model"], [])
        return pending.pop(0) if pending else reply_text("Hello, I need help.")

    database = str(tmp_path / "results.db")
    with ScriptedModelServer(script) as server:
        models = ["--agent", "tool-calling", "--agent-model", "openai/scripted-agent"]
        models += ["--agent-api-base", server.base_url, "--user", "llm"]
        models += ["--user-model", "openai/scripted-user", "--user-api-base", server.base_url]
        result = invoke(*RUN, *models, "--task-ids", "0", "--results-db", database)
    assert result.exit_code in (0, 1), result.output
    assert user_tools == [["apply_for_credit_card"]]  # task_001's user_tools, not all six
    exported = tmp_path / "results.json"
    result = invoke(
        "export", "latest", "--format", "tau2", "-o", str(exported), "--results-db", database
    )
    assert result.exit_code == 0, result.output
    (simulation,) = json.loads(exported.read_text())["simulations"]
    assert simulation["termination_reason"] == "too_many_errors"
    tools = [m for m in simulation["messages"] if m["role"] == "tool"]
    assert all(m["content"].startswith("Error: ") for m in tools)
    assert [m["error"] for m in tools] == [False] * 11 + [True] * 10
    assert tools[0]["content"].startswith("Error: Invalid JSON: ")
    assert tools[-1]["content"] == "Error: Tool 'no_such_tool' not found."

    # read back (import-results), the flags are τ³'s again
    result = invoke("import-results", str(exported), "--results-db", database)
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.json"
    result = invoke(
        "export", "latest", "--format", "tau2", "-o", str(again), "--results-db", database
    )
    assert result.exit_code == 0, result.output
    (reread,) = json.loads(again.read_text())["simulations"]
    assert [m["error"] for m in reread["messages"] if m["role"] == "tool"] == [
        m["error"] for m in tools
    ]


def test_a_run_without_a_judge_says_how_to_score_task_102_and_resume_does(
    banking_import: Path,
) -> None:
    """Not "re-run by --resume" (which, without a judge, scores nothing): the run names the
    judge model it lacks, and resuming with one scores the episode in the same run."""
    database = str(banking_import / "resumed.db")
    ran = invoke(
        *RUN, "--agent", "oracle", "--task-ids", indices("task_102"), "--results-db", database
    )
    printed = " ".join(ran.output.split())
    assert "1 episodes are not scoreable without a judge model; score them with" in printed
    assert "infrastructure errors; they are not counted" not in printed
    run_id = json.loads(invoke("runs", "list", "--json", "--results-db", database).output)[0]["id"]
    assert f"tautrait run --resume {run_id} --judge-model M" in printed
    with ScriptedModelServer(all_met) as server:
        judge = ["--judge-model", "openai/judge", "--judge-api-base", server.base_url]
        resumed = invoke("run", "--resume", run_id, *judge, "--results-db", database)
        assert resumed.exit_code == 0, resumed.output
    report = json.loads(invoke("report", run_id, "--json", "--results-db", database).output)
    assert (report["metrics"]["scored"], report["errors"]) == (1, [])
    assert report["metrics"]["not_scoreable"] == 0
