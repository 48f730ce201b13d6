"""The ``tool-calling`` agent: the model calls tools natively; the domain policy is its
system prompt.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.llm.client import ModelSpec, complete
from tautrait_core.types.messages import Message


class ToolCallingAgent(Agent):
    """Native tool calling through litellm, with the domain policy as system prompt.

    What every request of the episode shares (the model settings, the tool schemas) is
    built once, and each message is put in OpenAI form once: a request re-sends the whole
    conversation, so converting it afresh would cost more with every turn.
    """

    name = "tool-calling"
    description = "native tool calls through litellm; policy as system prompt"

    async def next_message(self, conversation: list[Message]) -> Message:
        completion = await complete(
            self._model, self._openai_messages(conversation), tools=self._tools
        )
        self.usage.add(completion.usage)
        return completion.message

    @cached_property
    def _model(self) -> ModelSpec:
        return self.context.agent_model()

    @cached_property
    def _tools(self) -> list[dict[str, Any]]:
        return list(self.context.domain.tool_schemas)

    @cached_property
    def _converted(self) -> list[tuple[Message, dict[str, Any]]]:
        """Messages already converted, with their OpenAI form."""
        return []

    def _openai_messages(self, conversation: list[Message]) -> list[dict[str, Any]]:
        converted = self._converted
        kept = 0
        for message, (seen, _) in zip(conversation, converted, strict=False):
            if message is not seen:
                break
            kept += 1
        del converted[kept:]
        converted.extend((message, message.to_openai()) for message in conversation[kept:])
        return [dict(openai) for _, openai in converted]


class SystemSectionAgent(ToolCallingAgent):
    """Tool calling whose system prompt is the policy followed by a section of the agent's
    own (example conversations, a plan), given when the agent is made."""

    def __init__(self, context: EpisodeContext, section: str) -> None:
        super().__init__(context)
        self.section = section

    async def next_message(self, conversation: list[Message]) -> Message:
        if conversation and conversation[0].role == "system":
            policy = conversation[0].content or ""
            system = Message(role="system", content=f"{policy}\n\n{self.section}")
            conversation = [system, *conversation[1:]]
        return await super().next_message(conversation)
