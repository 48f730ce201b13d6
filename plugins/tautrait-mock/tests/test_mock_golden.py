"""τ²-bench's mock domain against τ²'s own golden records: every gold call's output is
byte-identical, and the database hashes before and after are τ²'s."""

from __future__ import annotations

from pathlib import Path

import pytest
from tautrait_mock.data import agent_db_hash
from tautrait_mock.domain import build_domain

from tautrait_core import resolve_task_set, template_for
from tautrait_core.testing import (
    apply_initial_state_for_test,
    call_function,
    golden_records,
    run_side_call,
    tau2_schema_differences,
)

FRESH_MOCK_HASH = "107f83a70b7bf4f616e283b0b0b8451346fe7681173398d4498a1ec15c5fdfc6"


def test_fresh_database_has_tau2s_hash(imported_mock: Path) -> None:
    domain = build_domain()
    template = template_for(domain, resolve_task_set(domain, "tau2:mock"))
    with template.new_episode() as db:
        assert agent_db_hash(db) == FRESH_MOCK_HASH


def test_every_gold_replay_matches_tau2(imported_mock: Path, tau2_reference: Path) -> None:
    domain = build_domain()
    task_set = resolve_task_set(domain, "tau2:mock")
    tasks = {task.id: task for task in task_set.tasks}
    records = golden_records(tau2_reference, "mock")
    assert len(records) == len(tasks) == 9
    template = template_for(domain, task_set)
    for record in records:
        task = tasks[record["task_id"]]
        with template.new_episode() as db:
            apply_initial_state_for_test(domain, db, task)
            assert agent_db_hash(db) == record["initial_agent_db_hash"], record["task_id"]
            for call in record["calls"]:
                output = run_side_call(
                    domain, db, call["requestor"], call["name"], call["arguments"]
                )
                assert output == call["output"], (record["task_id"], call["name"])
            assert agent_db_hash(db) == record["final_agent_db_hash"], record["task_id"]
            for assertion in record["env_assertions"]:
                result = call_function(
                    domain,
                    db,
                    assertion["env_type"],
                    assertion["func_name"],
                    assertion["arguments"],
                )
                assert (result == assertion["assert_value"]) == assertion["met"]


def test_errors_read_as_tau2s(imported_mock: Path) -> None:
    domain = build_domain()
    template = template_for(domain, resolve_task_set(domain, "tau2:mock"))
    with template.new_episode() as db:
        assert domain.run_tool(db, "create_task", {"user_id": "user_1"}) == (
            "Error: MockTools.create_task() missing 1 required positional argument: 'title'"
        )
        assert domain.run_tool(db, "update_task_status", {"task_id": "x", "status": "done"}) == (
            "Error: Task x not found"
        )
        assert domain.run_tool(db, "create_task", {"user_id": "u9", "title": "t"}) == (
            "Error: User u9 not found"
        )
        # τ² stores any status text
        assert '"status": "weird"' in domain.run_tool(
            db, "update_task_status", {"task_id": "task_1", "status": "weird"}
        )


def test_not_imported_names_the_import_command(tautrait_home: Path) -> None:
    from tautrait_core import UnknownNameError

    domain = build_domain()
    with pytest.raises(UnknownNameError, match="tautrait import tau2"):
        resolve_task_set(domain, "tau2:mock")


def test_tool_schemas_match_tau2s(tau2_reference: Path) -> None:
    assert tau2_schema_differences(build_domain(), tau2_reference, "mock") == []
