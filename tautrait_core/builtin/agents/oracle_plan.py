"""The ``oracle-plan`` agent (τ²'s ground-truth ablation): native tool calling whose system
prompt also lists the task's gold actions as numbered resolution steps, the customer's
among them as steps to ask the customer for.
"""

from __future__ import annotations

from tautrait_core.builtin.agents.tool_calling import SystemSectionAgent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.grading.gold import describe_call, gold_actions
from tautrait_core.types.task import Action

PLAN_SECTION = """## Resolution steps

This ticket is resolved by the following steps, in order:
{steps}"""


def plan_steps(actions: list[Action]) -> str:
    """One line per gold action, as τ²'s ground-truth agent writes them."""
    lines = []
    for number, action in enumerate(actions, start=1):
        verb = (
            "Instruct the user to perform the following action"
            if action.requestor == "user"
            else "Perform the following action"
        )
        lines.append(f"[Step {number}] {verb}: {describe_call(action)}.")
    return "\n".join(lines)


class OraclePlanAgent(SystemSectionAgent):
    """Tool calling with the gold plan in the system prompt (an upper bound on planning)."""

    name = "oracle-plan"
    description = "native tool calls with the task's gold actions listed in the prompt"

    def __init__(self, context: EpisodeContext) -> None:
        super().__init__(context, PLAN_SECTION.format(steps=plan_steps(gold_actions(context.task))))
