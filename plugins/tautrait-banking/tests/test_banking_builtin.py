"""The built-in bank (``--domain banking``): runs offline on BM25 with the oracle, its gold
calls all succeed, and the discoverable-tool rules decide its grades as in τ³."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from tautrait_banking.builtin import build_domain

from tautrait_core import Domain, Message, RunConfig, Task, execute, resolve_task_set, template_for
from tautrait_core.testing import (
    ScriptedModelServer,
    apply_initial_state_for_test,
    cli,
    golden_trajectory,
    grade_criteria,
    oracle_average_reward,
    reply_text,
    reply_tool_call,
    run_side_call,
)


def _tasks(domain: Domain) -> dict[str, Task]:
    return {task.id: task for task in resolve_task_set(domain, "test").tasks}


def _trajectory(task: Task, calls: list[tuple[str, str, dict[str, Any]]]) -> list[Message]:
    record = {
        "calls": [
            {"requestor": side, "name": name, "arguments": arguments, "output": ""}
            for side, name, arguments in calls
        ],
        "final_assistant_text": "Done.",
    }
    return golden_trajectory(record, task)


def _gold_calls(task: Task) -> list[tuple[str, str, dict[str, Any]]]:
    return [(action.requestor, action.name, dict(action.kwargs)) for action in task.actions]


def _grade(domain: Domain, task: Task, calls: list[tuple[str, str, dict[str, Any]]]) -> float:
    template = template_for(domain, resolve_task_set(domain, "test"))
    return grade_criteria(
        domain, task, template, _trajectory(task, calls), "user_stop", None
    ).reward


def test_oracle_scores_one_on_every_builtin_task(tautrait_home: Path) -> None:
    assert oracle_average_reward("banking") == 1.0


def test_run_with_bm25_and_the_oracle_from_the_command_line(tautrait_home: Path) -> None:
    result = CliRunner().invoke(
        cli, ["run", "--domain", "banking", "--retrieval", "bm25", "--agent", "oracle"]
    )
    assert result.exit_code == 0, result.output
    assert "Average reward: 1.000" in result.output


def test_every_gold_call_of_the_builtin_tasks_succeeds(tautrait_home: Path) -> None:
    domain = build_domain()
    template = template_for(domain, resolve_task_set(domain, "test"))
    tasks = _tasks(domain)
    assert len(tasks) == 9
    for task in tasks.values():
        with template.new_episode() as db:
            apply_initial_state_for_test(domain, db, task)
            for requestor, name, arguments in _gold_calls(task):
                output = run_side_call(domain, db, requestor, name, arguments)
                assert not output.startswith(("Error", "Failed")), (task.id, name, output)


def test_a_read_the_gold_makes_is_required_and_an_extra_read_is_harmless(
    tautrait_home: Path,
) -> None:
    domain = build_domain()
    task = _tasks(domain)["bank_007"]  # statement credit after an accounts look-up
    gold = _gold_calls(task)
    assert _grade(domain, task, gold) == 1.0
    without_read = [call for call in gold if "get_all_user_accounts" not in json.dumps(call)]
    assert _grade(domain, task, without_read) == 0.0
    extra = [
        (
            "assistant",
            "unlock_discoverable_agent_tool",
            {"agent_tool_name": "get_payment_history_6183"},
        ),
        (
            "assistant",
            "call_discoverable_agent_tool",
            {
                "agent_tool_name": "get_payment_history_6183",
                "arguments": json.dumps({"credit_card_account_id": "cc_mensah_gold", "months": 2}),
            },
        ),
    ]
    assert _grade(domain, task, gold + extra) == 1.0


def test_integers_and_floats_in_discoverable_arguments_are_the_same_call(
    tautrait_home: Path,
) -> None:
    domain = build_domain()
    task = _tasks(domain)["bank_006"]  # a transfer of 500
    spelled = [
        (side, name, {**args, "arguments": args["arguments"].replace("500", "500.0")})
        if name == "call_discoverable_agent_tool"
        else (side, name, args)
        for side, name, args in _gold_calls(task)
    ]
    assert _grade(domain, task, spelled) == 1.0
    changed = [
        (side, name, {**args, "arguments": args["arguments"].replace("500", "50")})
        if name == "call_discoverable_agent_tool"
        else (side, name, args)
        for side, name, args in _gold_calls(task)
    ]
    assert _grade(domain, task, changed) == 0.0


def test_discoverable_tools_need_an_unlock_and_are_not_listed(tautrait_home: Path) -> None:
    domain = build_domain()
    listed = {schema["function"]["name"] for schema in domain.tool_schemas}
    assert "freeze_debit_card_3892" not in listed
    assert "unlock_discoverable_agent_tool" in listed
    template = template_for(domain, resolve_task_set(domain, "test"))
    arguments = {"agent_tool_name": "freeze_debit_card_3892", "arguments": '{"card_id": "x"}'}
    with template.new_episode() as db:
        assert domain.run_tool(db, "call_discoverable_agent_tool", arguments).startswith(
            "Error: Tool 'freeze_debit_card_3892' has not been unlocked."
        )
        domain.run_tool(
            db, "unlock_discoverable_agent_tool", {"agent_tool_name": "freeze_debit_card_3892"}
        )
        assert domain.run_tool(db, "call_discoverable_agent_tool", arguments) == (
            "Error: Debit card 'x' not found."
        )
    with template.new_episode() as db:  # an unlock lasts one episode
        assert "has not been unlocked" in domain.run_tool(
            db, "call_discoverable_agent_tool", arguments
        )


def test_running_tau3_banking_before_the_import_says_how_to_import(tautrait_home: Path) -> None:
    result = CliRunner().invoke(
        cli, ["run", "--domain", "tau2-banking_knowledge", "--agent", "oracle"]
    )
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert lines == [
        "Error: τ³'s banking tasks are not imported: tautrait import tau2 TAU3_CHECKOUT"
    ]
    assert len(lines[0]) <= 80


def test_a_broken_tau3_task_file_is_named_in_one_line(imported_banking: Path) -> None:
    (imported_banking / "tasks" / "task_001.json").write_text("{not json")
    result = CliRunner().invoke(
        cli, ["run", "--domain", "tau2-banking_knowledge", "--agent", "oracle"]
    )
    assert result.exit_code != 0
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: ") and line.endswith(
        "task_001.json: the τ³ task file is not valid JSON (line 1 column 2)"
    )  # the core's reader, as `tautrait import tau2` reads the folder


def test_a_model_agent_searches_unlocks_and_calls_a_discoverable_tool(
    tautrait_home: Path,
) -> None:
    task = _tasks(build_domain())["bank_005"]  # freeze a misplaced debit card
    script = [("KB_search", {"query": "misplaced debit card freeze"})] + [
        (name, arguments) for _, name, arguments in _gold_calls(task)
    ]
    user_turns = iter(["I misplaced my debit card.", "###STOP###"])

    def responder(request: dict[str, Any]) -> object:
        if "Rho-Bank customer service" not in request["messages"][0]["content"]:
            return reply_text(next(user_turns))
        done = sum(1 for message in request["messages"] if message["role"] == "tool")
        if done < len(script):
            return reply_tool_call(*script[done])
        return reply_text("Your card is frozen.")

    with ScriptedModelServer(responder) as server:
        config = RunConfig(
            domain="banking",
            retrieval="bm25",
            task_ids=[4],
            agent_model="openai/agent",
            agent_api_base=server.base_url,
            user="llm",
            user_model="openai/user",
            user_api_base=server.base_url,
        )
        (result,) = execute(config).results
        agent_request = next(
            r for r in server.requests if "Rho-Bank" in r["messages"][0]["content"]
        )
    names = [schema["function"]["name"] for schema in agent_request["tools"]]
    assert names[:2] == ["KB_search", "transfer_to_human_agents"]
    assert "freeze_debit_card_3892" not in names
    observations = [m.content for m in result.messages if m.role == "tool"]
    assert "Freezing a debit card" in observations[0]
    assert observations[-1].startswith("Debit Card Frozen Successfully")
    assert result.reward == 1.0


def test_the_order_records_were_added_in_does_not_change_the_grade(tautrait_home: Path) -> None:
    domain = build_domain()
    task = _tasks(domain)["bank_007"]
    verify, unlock_read, read, unlock_credit, credit = _gold_calls(task)
    # the credit is logged before the look-up: the same records, added in another order
    assert _grade(domain, task, [unlock_credit, credit, unlock_read, read, verify]) == 1.0
