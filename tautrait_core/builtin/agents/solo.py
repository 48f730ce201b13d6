"""The ``solo`` agent (τ²'s solo ablation, ``--solo``): no customer; a model gets the task's
ticket, the agent tools, the customer's tools and a ``done`` tool, and works the ticket
alone. Calling ``done`` ends the episode (termination ``agent_stop``).
"""

from __future__ import annotations

from typing import Any

from tautrait_core.builtin.agents.tool_calling import ToolCallingAgent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.llm.client import complete
from tautrait_core.types.messages import STOP_TOKEN, Message

DONE_TOOL = "done"
DONE_SCHEMA: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": DONE_TOOL,
        "description": "Call this when the ticket is resolved, or cannot be; it ends the work.",
        "parameters": {"type": "object", "properties": {}, "required": []},
    },
}

SOLO_INSTRUCTIONS = """You are a customer-service agent working a support ticket on your own: \
there is no customer to talk to. You can act both on the company's systems and on the \
customer's side (their device) with the tools you have. Follow the policy. Each turn, make \
tool calls; do not write messages. When the ticket is resolved, or cannot be, call \
done."""


def solo_system_prompt(policy: str, ticket: str) -> str:
    """The solo agent's system prompt: its instructions, the solo policy and the ticket."""
    return (
        f"<instructions>\n{SOLO_INSTRUCTIONS}\n</instructions>\n"
        f"<policy>\n{policy}\n</policy>\n<ticket>\n{ticket}\n</ticket>"
    )


class SoloAgent(ToolCallingAgent):
    """Native tool calling on both sides' tools, with the ticket instead of a customer."""

    name = "solo"
    description = "works the task's ticket alone with both sides' tools (needs --solo)"
    works_solo = True
    solo_only = True
    """Without ``--solo`` it is refused before the run (it has no way to talk to a customer)."""

    def __init__(self, context: EpisodeContext) -> None:
        super().__init__(context)
        domain = context.domain
        ticket = context.task.ticket or context.task.instruction
        self.system = solo_system_prompt(domain.solo_policy or domain.policy, ticket.strip())
        self.tools = [*domain.tool_schemas, *domain.user_tool_schemas, DONE_SCHEMA]

    async def next_message(self, conversation: list[Message]) -> Message:
        messages = [{"role": "system", "content": self.system}]
        messages += [message.to_openai() for message in conversation if message.role != "system"]
        completion = await complete(self.context.agent_model(), messages, tools=self.tools)
        self.usage.add(completion.usage)
        reply = completion.message
        if any(call.name == DONE_TOOL for call in reply.tool_calls or []):
            return Message(role="assistant", content=STOP_TOKEN)
        return reply
