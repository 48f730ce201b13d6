"""The ``tool-calling`` agent: the model calls tools natively; the domain policy is its
system prompt.
"""

from __future__ import annotations

from tautrait_core.episode.agent import Agent
from tautrait_core.episode.messages import Message
from tautrait_core.llm.client import complete


class ToolCallingAgent(Agent):
    """Native tool calling through litellm, with the domain policy as system prompt."""

    name = "tool-calling"
    description = "native tool calls through litellm; policy as system prompt"

    async def next_message(self, conversation: list[Message]) -> Message:
        completion = await complete(
            self.context.agent_model(),
            [message.to_openai() for message in conversation],
            tools=list(self.context.domain.tool_schemas),
        )
        self.usage.add(completion.usage)
        return completion.message
