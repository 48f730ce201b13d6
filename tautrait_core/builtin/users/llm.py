"""The ``llm`` user simulator: a model plays the customer described by the task instruction,
through the run's trait backend, and stops with ``###STOP###``.

In a dual-control domain (τ² protocol) the model also gets the customer's tools: a turn may
be a tool call on the customer's own device instead of a message, and its results come back
to the customer alone. The model sees the conversation from the customer's side: the
agent's messages as ``user`` turns, its own as ``assistant`` turns with its tool calls and
their results; the agent's tool calls never.
"""

from __future__ import annotations

from typing import Any

from tautrait_core.episode.trait_backend import Generation
from tautrait_core.episode.user import UserSimulator, UserTurn
from tautrait_core.types.messages import (
    OUT_OF_SCOPE_TOKEN,
    STOP_TOKEN,
    TAU2_GREETING,
    TRANSFER_TOKEN,
    Message,
)

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

TAU2_SIGNALS = f"""
- When the agent has transferred you to a human, answer with {TRANSFER_TOKEN} alone.
- When your situation does not give you what the conversation needs, answer with \
{OUT_OF_SCOPE_TOKEN} alone."""

USER_TOOL_RULES = """

Your device: you can act on your own phone or account with the tools you have.
- Use a tool only when the agent asks you to do or check something (or to answer its \
question); never act on your own initiative.
- Make one tool call at a time, and each turn either write a message or call a tool, not \
both. If the agent asks for several actions, do them one by one.
- The agent cannot see your tool calls or their results: tell the agent what you did and \
what you saw, in your own words. Never invent a result you did not get.
- If a tool call fails because of your own mistake, correct it and try again."""


def user_system_prompt(instruction: str, tau2: bool = False, with_tools: bool = False) -> str:
    """The simulated user's base system prompt; identical whether traits are on or off.

    With the τ² protocol the customer may also ask for a transfer or declare the request
    out of scope; with tools the prompt says how to use them.
    """
    prompt = USER_RULES.format(instruction=instruction.strip())
    if tau2:
        prompt += TAU2_SIGNALS
    if with_tools:
        prompt += USER_TOOL_RULES
    return prompt


def customer_view(history: list[Message]) -> list[dict[str, Any]]:
    """A prior conversation as the customer's model sees it: roles flipped, the agent's
    tool calls and their results left out."""
    view: list[dict[str, Any]] = []
    for message in history:
        if message.requestor == "user":
            item = message.to_openai()
            if message.role == "user":
                item["role"] = "assistant"
            view.append(item)
        elif message.role == "assistant" and not message.tool_calls:
            view.append({"role": "user", "content": message.content or ""})
        elif message.role == "user":
            view.append({"role": "assistant", "content": message.content or ""})
    return view


class LLMUser(UserSimulator):
    """A model plays the customer; the trait backend renders the trait mix."""

    name = "llm"
    description = "a model plays the customer (litellm); stop token ###STOP###"

    def __init__(self, context: Any, traits: Any) -> None:
        super().__init__(context, traits)
        self.tools: list[dict[str, Any]] = context.user_tool_schemas
        system = user_system_prompt(context.task.instruction, context.tau2, bool(self.tools))
        greeting = TAU2_GREETING if context.tau2 else AGENT_GREETING
        self.messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": greeting},
        ]

    async def start(self) -> UserTurn:
        return await self._next()

    async def reply(self, agent_message: str) -> UserTurn:
        self.messages.append({"role": "user", "content": agent_message})
        return await self._next()

    async def observe_tool_results(self, results: list[Message]) -> UserTurn:
        self.messages.extend(result.to_openai() for result in results)
        return await self._next()

    def load_history(self, history: list[Message]) -> None:
        self.messages = [self.messages[0], *customer_view(history)]

    async def _next(self) -> UserTurn:
        return self._record(await self._generate(self.messages))

    async def _generate(self, messages: list[dict[str, Any]]) -> Generation:
        """One generation through the trait backend (with the customer's tools, if any),
        counted in the user's usage."""
        if self.tools:
            generation = await self.traits.generate(messages, tools=self.tools)
        else:
            generation = await self.traits.generate(messages)
        self.usage.add(generation.usage)
        return generation

    def _record(self, generation: Generation, shown: str | None = None) -> UserTurn:
        """Keep ``generation`` in the customer's own history and return the turn: the text
        the agent sees (``shown``, default the whole text), or a message with tool calls."""
        text = generation.text if shown is None else shown
        if not generation.tool_calls:
            self.messages.append({"role": "assistant", "content": generation.text})
            return text
        turn = Message(
            role="user",
            content=text or None,
            tool_calls=generation.tool_calls,
            requestor="user",
        )
        self.messages.append(
            {**turn.to_openai(), "role": "assistant", "content": generation.text or None}
        )
        return turn
