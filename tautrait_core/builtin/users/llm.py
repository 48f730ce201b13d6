"""The ``llm`` user simulator: a model plays the customer described by the task instruction,
through the run's trait backend, and stops with ``###STOP###``.
"""

from __future__ import annotations

from typing import Any

from tautrait_core.episode.messages import STOP_TOKEN
from tautrait_core.episode.user import UserSimulator

AGENT_GREETING = "Hello, how can I help you today?"
"""The agent's opening line as the simulated user sees it (the agent never says it)."""


USER_RULES = f"""You are playing a customer who has contacted a customer-service agent. Stay in \
this role for the whole conversation; the agent is the other party.

Your situation:
{{instruction}}

How to behave:
- Write only your next message to the agent: one turn, as a real customer would write it.
- Give details only when the current step needs them; do not recite your whole situation at once.
- Use only facts from your situation. If the agent asks for something you were not given \
(an id, a number, a date), say you do not have it; never invent it.
- Say things in your own words rather than copying the text of your situation.
- When your goal has been handled, or clearly cannot be, answer with {STOP_TOKEN} alone."""


def user_system_prompt(instruction: str) -> str:
    """The simulated user's base system prompt; identical whether traits are on or off."""
    return USER_RULES.format(instruction=instruction.strip())


class LLMUser(UserSimulator):
    """A model plays the customer; the trait backend renders the trait mix."""

    name = "llm"
    description = "a model plays the customer (litellm); stop token ###STOP###"

    def __init__(self, context: Any, traits: Any) -> None:
        super().__init__(context, traits)
        self.messages: list[dict[str, Any]] = [
            {"role": "system", "content": user_system_prompt(context.task.instruction)},
            {"role": "user", "content": AGENT_GREETING},
        ]

    async def start(self) -> str:
        return await self._next()

    async def reply(self, agent_message: str) -> str:
        self.messages.append({"role": "user", "content": agent_message})
        return await self._next()

    async def _next(self) -> str:
        generation = await self.traits.generate(self.messages)
        self.usage.add(generation.usage)
        self.messages.append({"role": "assistant", "content": generation.text})
        return generation.text
