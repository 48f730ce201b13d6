"""τ³'s orchestration rules (τ²-bench v1.x) beside the fork's, on the toy phone domain: τ³
counts failed tool calls over the episode and ends it at 10 by default, checks the step
and error limits only once pending tool calls have their results, and grades an early end
with its plain reason; the fork's task sets never end on errors unless --max-errors is
given, and may end with a tool call unanswered."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tautrait_core import EpisodeDB, StateTemplate, tool
from tautrait_core.compat.tau2.reward_info import tau2_reward_info
from tautrait_core.scripted.server import Reply, reply_text, reply_tool_call
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


class SlowAgent(Script):
    """A :class:`Script` whose agent takes ``delay_s`` to answer each request."""

    def __init__(self, delay_s: float, agent: list[Any], user: list[Any]) -> None:
        super().__init__(agent=agent, user=user)
        self.delay_s = delay_s

    def __call__(self, request: dict[str, Any]) -> Any:
        if request["model"] == "scripted-agent":
            time.sleep(self.delay_s)
        return super().__call__(request)


def test_the_episode_timeout_waits_for_pending_tool_results_under_tau3s_rules(rules: str) -> None:
    script = SlowAgent(
        2.5,
        agent=[reply_tool_call("get_line", {"line_id": "L1"}), reply_text("Done.")],
        user=[reply_text("No signal.")],
    )
    result = run(script, episode_timeout_s=2.0)  # out of time during the agent's first turn
    assert result.termination is Termination.TIMEOUT and result.reward == 0.0
    last = result.messages[-1]
    if rules == "tau3":
        assert last.role == "tool" and '"L1"' in (last.content or "")
        note = result.reward_info.info["note"]
        assert note == "Simulation terminated prematurely. Termination reason: timeout"
    else:
        assert last.role == "assistant" and last.tool_calls


def test_without_an_episode_timeout_the_slow_agent_finishes(rules: str) -> None:
    script = SlowAgent(0.0, agent=[reply_tool_call("get_line", {"line_id": "L1"})], user=[])
    result = run(script)
    assert result.termination is Termination.USER_STOP


MIXED = Reply(content="Let me look.", tool_calls=[("get_line", {"line_id": "L1"})])
"""A message with both text and a tool call."""


@pytest.mark.parametrize("side", ["agent", "user"])
def test_the_communication_protocol_is_enforced_only_when_asked(rules: str, side: str) -> None:
    def script() -> Script:
        if side == "agent":
            return Script(agent=[MIXED], user=[reply_text("No signal.")])
        mixed_user = Reply(content="Looking.", tool_calls=[("check_status_bar", {})])
        return Script(agent=[reply_text("Please look at your phone.")], user=[mixed_user])

    enforced = run(script(), enforce_communication_protocol=True)
    expected = Termination.AGENT_ERROR if side == "agent" else Termination.USER_ERROR
    assert enforced.termination is expected and enforced.reward == 0.0
    last = enforced.messages[-1]
    assert last.content and last.tool_calls  # the mixed message is kept, its call not run
    assert not any(m.role == "tool" for m in enforced.messages)
    relaxed = run(script())
    assert relaxed.termination is Termination.USER_STOP
    assert any(m.role == "tool" for m in relaxed.messages)
