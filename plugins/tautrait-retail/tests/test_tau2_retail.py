"""τ²-bench's retail variant (``tau2-retail``) against τ²'s own golden records: every gold
call's output byte-identical, the database hashes before and after equal to τ²'s."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tautrait_retail.tau2.domain import build_domain
from tautrait_retail.tau2.records import agent_db_hash

from tautrait_core import resolve_task_set, template_for
from tautrait_core.testing import golden_records, run_side_call, tau2_schema_differences

FRESH_RETAIL_HASH = "b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c"


@pytest.fixture
def retail(tau2_imported: Callable[..., Path]):
    tau2_imported("retail")
    domain = build_domain()
    task_set = resolve_task_set(domain, "tau2:retail")
    return domain, task_set, template_for(domain, task_set)


def test_fresh_database_has_tau2s_hash(retail) -> None:
    _, _, template = retail
    with template.new_episode() as db:
        assert agent_db_hash(db) == FRESH_RETAIL_HASH


def test_every_gold_replay_matches_tau2(retail, tau2_reference: Path) -> None:
    domain, task_set, template = retail
    records = golden_records(tau2_reference, "retail")
    assert len(records) == len(task_set.tasks) == 114
    # no retail task has an initial state: every replay starts from the fresh database
    assert {record["initial_agent_db_hash"] for record in records} == {FRESH_RETAIL_HASH}
    mismatches = []
    for record in records:
        with template.new_episode() as db:
            for call in record["calls"]:
                output = run_side_call(
                    domain, db, call["requestor"], call["name"], call["arguments"]
                )
                if output != call["output"]:
                    mismatches.append((record["task_id"], call["name"], output, call["output"]))
            if agent_db_hash(db) != record["final_agent_db_hash"]:
                mismatches.append((record["task_id"], "final hash"))
    assert not mismatches, mismatches[:3]


def test_tau2_rules_differ_from_tau_trait(retail) -> None:
    domain, _, template = retail
    with template.new_episode() as db:
        assert domain.run_tool(db, "get_order_details", {"order_id": "#nope"}) == (
            "Error: Order not found"
        )
        assert domain.run_tool(db, "find_user_id_by_email", {"email": "x@y"}) == (
            "Error: User not found"
        )
        assert domain.run_tool(db, "calculate", {"expression": "2 ** 3; x"}) == (
            "Error: Invalid characters in expression"
        )
        assert "think" not in domain.tools_by_name


def test_tool_schemas_match_tau2s(tau2_reference: Path) -> None:
    assert tau2_schema_differences(build_domain(), tau2_reference, "retail") == []
