"""τ³'s orchestration rules (τ²-bench v1.x) beside the fork's, on the toy phone domain: τ³
counts failed tool calls over the episode and ends it at 10 by default, checks the step
and error limits only once pending tool calls have their results, and grades an early end
with its plain reason; the fork's task sets never end on errors unless --max-errors is
given, and may end with a tool call unanswered."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from tautrait_core import EpisodeDB, StateTemplate, tool
from tautrait_core.compat.tau2.reward_info import tau2_reward_info
from tautrait_core.scripted.server import reply_text, reply_tool_call
from tautrait_core.types.result import Termination
from tests.plugins import toy_phone
from tests.test_dual_control import Script, run


@pytest.fixture(params=["tau2", "tau3"])
def rules(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The toy phone domain, its task set following the fork's or τ³'s rules."""
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

    build = toy_phone.build_domain

    def with_rules() -> Any:
        domain = build()
        test = domain.task_sets["test"]
        domain.task_sets["test"] = dataclasses.replace(test, rules=request.param)
        return domain

    monkeypatch.setattr(toy_phone, "build_domain", with_rules)
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(toy_phone, name="toy_phone")
    try:
        yield request.param
    finally:
        manager.unregister("toy_phone")
        reset_plugin_manager()


def test_failed_tool_calls_end_an_episode_only_under_tau3s_rules(rules: str) -> None:
    bad = reply_tool_call("get_line", {"line_id": "L9"})
    result = run(Script(agent=[bad] * 12, user=[reply_text("No signal.")]), max_steps=60)
    errors = [m for m in result.messages if m.role == "tool"]
    if rules == "tau3":
        assert result.termination is Termination.TOO_MANY_ERRORS and len(errors) == 10
        note = result.reward_info.info["note"]
        assert note == "Simulation terminated prematurely. Termination reason: too_many_errors"
        assert tau2_reward_info(result.reward_info, rules="tau3")["reward_basis"] is None
    else:  # the fork never counts: the agent gives up by itself and the customer stops
        assert result.termination is Termination.USER_STOP and len(errors) == 12


def test_the_step_limit_waits_for_pending_tool_results_under_tau3s_rules(rules: str) -> None:
    script = Script(
        agent=[reply_tool_call("get_line", {"line_id": "L1"})],
        user=[reply_text("No signal.")],
    )
    result = run(script, max_steps=2)  # the customer's message, then the agent's call
    assert result.termination is Termination.MAX_STEPS
    last = result.messages[-1]
    if rules == "tau3":
        assert last.role == "tool" and '"L1"' in (last.content or "")
        assert result.reward_info.info["note"].endswith("Termination reason: max_steps")
    else:
        assert last.role == "assistant" and last.tool_calls
        assert result.reward_info.info["note"].endswith("TerminationReason.MAX_STEPS")


@pytest.mark.parametrize(
    ("user_tools", "names"),
    [
        (None, ["check_status_bar", "toggle_airplane_mode"]),
        (["check_status_bar"], ["check_status_bar"]),
        ([], []),
    ],
)
def test_a_task_chooses_the_customers_tools(user_tools: list[str] | None, names: list) -> None:
    from tautrait_core.episode.context import EpisodeContext

    domain = toy_phone.build_domain()
    task = domain.task_sets["test"].tasks[0].model_copy(update={"user_tools": user_tools})
    context = EpisodeContext(domain=domain, task=task, task_id=0, trial=0, seed=0)
    assert [schema["function"]["name"] for schema in context.user_tool_schemas] == names


def test_the_sides_sync_after_every_call_that_did_not_raise() -> None:
    """τ² syncs the two sides after a call that did not raise, even one whose own text
    starts with ``Error``; only a call that raised is a tool error, and no sync follows it."""
    import dataclasses

    from tautrait_core.domain.tool_execution import execute_tool_call
    from tautrait_core.domain.tools import raised
    from tautrait_core.types.messages import ToolCall

    @tool(writes=True)
    def suspend_line_with_a_warning(db: EpisodeDB, line_id: str) -> str:
        """Suspend a line.

        Args:
            line_id: The line id.
        """
        line = db.get(toy_phone.Line, line_id)
        if line is None:
            raise ValueError(f"line {line_id} not found")
        line.status = "suspended"
        db.add(line)
        return "Error: the line is suspended; the customer has no service"

    base = toy_phone.build_domain()
    domain = dataclasses.replace(base, tools=[*base.tools, suspend_line_with_a_warning])
    template = StateTemplate("toyphone", domain.tables, domain.seed_data())
    with template.new_episode() as db:
        missing = ToolCall(
            id="c1", name="suspend_line_with_a_warning", arguments='{"line_id": "L9"}'
        )
        assert raised(execute_tool_call(domain, db, missing))
        call = ToolCall(id="c2", name="suspend_line_with_a_warning", arguments='{"line_id": "L1"}')
        observation = execute_tool_call(domain, db, call)
        assert observation.startswith("Error: ") and not raised(observation)
        assert db.get(toy_phone.Phone, "P1").signal == "none"  # synced with the line
