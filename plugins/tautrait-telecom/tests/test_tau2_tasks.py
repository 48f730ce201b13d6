"""tau2-telecom's own dual-control task set and how the domain is registered: each task's
gold replay (both sides) fixes what its initial state broke; τ²-bench's telecom takes
over the database and policy once imported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tautrait_telecom.tau2.database import side_hashes
from tautrait_telecom.tau2.domain import build_domain

from tautrait_core import (
    ConfigError,
    Domain,
    EnvFunctionCall,
    EpisodeDB,
    Task,
    resolve_task_set,
    template_for,
)
from tautrait_core.testing import (
    apply_initial_state_for_test,
    call_function,
    oracle_average_reward,
    registered_domain,
    run_side_call,
)

DOMAIN = build_domain()
TASKS = DOMAIN.task_sets["test"].tasks


def assertions_met(domain: Domain, db: EpisodeDB, task: Task) -> list[bool]:
    criteria = task.evaluation_criteria
    assert criteria is not None and criteria.env_assertions
    return [
        call_function(domain, db, a.env_type, a.func_name, a.arguments) == a.assert_value
        for a in criteria.env_assertions
    ]


def test_the_task_set_covers_the_fault_families_and_both_sides() -> None:
    assert 6 <= len(TASKS) <= 10
    assert len({task.id for task in TASKS}) == len(TASKS)
    families = {task.id.split("]")[0] + "]" for task in TASKS if task.id}
    assert families == {"[service]", "[mobile_data]", "[mms]"}
    sides = {action.requestor for task in TASKS for action in task.actions}
    assert sides == {"assistant", "user"}
    written = {a.name for task in TASKS for a in task.actions if a.name in DOMAIN.write_tools}
    assert written >= {"refuel_data", "enable_roaming", "send_payment_request", "resume_line"}


@pytest.mark.parametrize("task", TASKS, ids=[task.id or "" for task in TASKS])
def test_each_gold_replay_fixes_what_the_task_broke(task: Task) -> None:
    criteria = task.evaluation_criteria
    assert criteria is not None and "ENV_ASSERTION" in criteria.reward_basis
    template = template_for(DOMAIN, DOMAIN.task_sets["test"])
    with template.new_episode() as db:
        apply_initial_state_for_test(DOMAIN, db, task)
        if "ACTION" not in criteria.reward_basis:  # a transfer task is graded on the transfer
            assert not all(assertions_met(DOMAIN, db, task)), "the initial state breaks nothing"
        for action in task.actions:
            tools = (
                DOMAIN.user_tools_by_name if action.requestor == "user" else DOMAIN.tools_by_name
            )
            assert action.name in tools, f"{action.name} is not a {action.requestor} tool"
            output = run_side_call(DOMAIN, db, action.requestor, action.name, action.kwargs)
            db.flush()
            assert not output.startswith("Error"), output
        assert all(assertions_met(DOMAIN, db, task))


def test_a_transfer_task_is_graded_on_the_action_too() -> None:
    transfers = [t for t in TASKS if any(a.name == "transfer_to_human_agents" for a in t.actions)]
    assert transfers
    for task in transfers:
        assert task.evaluation_criteria is not None
        assert "ACTION" in task.evaluation_criteria.reward_basis
        assert [a.compare_args for a in task.actions] == [[]]


def test_assertions_name_existing_functions() -> None:
    for task in TASKS:
        assert task.initial_state is not None and task.evaluation_criteria is not None
        calls: list[EnvFunctionCall] = list(task.initial_state.initialization_actions or [])
        calls += task.evaluation_criteria.env_assertions or []
        for call in calls:
            functions = DOMAIN.user_functions if call.env_type == "user" else DOMAIN.agent_functions
            tools = DOMAIN.user_tools_by_name if call.env_type == "user" else DOMAIN.tools_by_name
            assert call.func_name in functions or call.func_name in tools, call.func_name


def test_the_plugin_registers_both_policy_variants(tautrait_home: Path) -> None:
    for name in ("tau2-telecom", "tau2-telecom-workflow"):
        domain, provenance = registered_domain(name)
        assert provenance.distribution == "tautrait-telecom"
        assert domain.dual_control and domain.default_task_set == "test"
        assert "Mobile support policy" in domain.policy  # the plugin's own, before an import
        assert domain.solo_policy and "`done`" in domain.solo_policy
    assert registered_domain("telecom")[0].user_tools == ()


def test_an_imported_tau2_bench_brings_its_database_policies_and_task_sets(
    tau2_imported: Callable[..., Path],
) -> None:
    tau2_imported("telecom")
    manual, workflow = build_domain(), build_domain("workflow")
    assert manual.policy.startswith("<main_policy>\n")
    assert "</tech_support_policy>" in manual.policy
    assert manual.policy != workflow.policy
    assert manual.solo_policy is not None and manual.solo_policy != manual.policy
    domain, _ = registered_domain("tau2-telecom")
    small = resolve_task_set(domain, "tau2:telecom-small")
    assert len(small.tasks) == 20 and small.protocol == "tau2"
    assert len(resolve_task_set(domain, "tau2:telecom").tasks) == 114
    with template_for(domain, small).new_episode() as db:
        assert side_hashes(db) == (
            "304cf5ef059852e117ea801ab9a5efc24c9713ec887679dc2e30acceb4b6742d",
            "e1f3a8637388808221228ff3f87294444e6b64caf721f5eb243a85d0a9380b28",
        )
    own = resolve_task_set(domain, "test")
    with template_for(domain, own).new_episode() as db:
        customer = call_function(
            domain, db, "assistant", "get_customer_by_id", {"customer_id": "C2001"}
        )
        assert customer.root["full_name"] == "Ana Ortiz"


def test_tau2s_small_telecom_set_passes_an_offline_oracle_run(
    tau2_imported: Callable[..., Path],
) -> None:
    """The oracle agent and the scripted user replay both sides of τ²'s gold actions;
    graded τ²'s way, every task earns 1.0 (as in τ²'s golden records)."""
    tau2_imported("telecom")
    assert oracle_average_reward("tau2-telecom", "tau2:telecom-small") == 1.0


def test_a_damaged_imported_database_is_one_error_naming_it(
    tau2_imported: Callable[..., Path], tautrait_home: Path
) -> None:
    """A ``db.toml`` damaged after the import fails ``run`` and ``check`` with one line
    naming it and how to import again, never a TOML traceback."""
    tau2_imported("telecom")
    db_file = tautrait_home / "imports" / "tau2" / "telecom" / "db.toml"
    db_file.write_text(db_file.read_text() + "[oops\n")
    domain, _ = registered_domain("tau2-telecom")
    small = resolve_task_set(domain, "tau2:telecom-small")
    with pytest.raises(ConfigError) as raised:
        template_for(domain, small)
    assert str(raised.value).startswith(f"{db_file}: not valid TOML (")
    assert "tautrait import tau2" in str(raised.value)
