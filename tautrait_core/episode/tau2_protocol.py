"""An episode with τ²-bench's protocol (dual control, domain-spec §1).

The conversation is a sequence of hops, each counted as one step: an agent message, a user
message, or one batch of tool results. The agent greets first with
:data:`~tautrait_core.types.messages.TAU2_GREETING` (unless the task starts from a message
history, or the agent works alone). Every tool call of a message runs, in list order,
against the same state, on the side that made it; the results go back to the caller only:
the agent never sees the customer's tool calls or their results, and the customer never
sees the agent's. The episode ends on the customer's ``###STOP###``, ``###TRANSFER###`` or
``###OUT-OF-SCOPE###`` (in a message without tool calls), on the solo agent's stop, when
``max_errors`` tool calls have failed, or after ``max_steps`` hops. As in τ²-bench, a
transfer is an ordinary tool call here (the domain's terminating tools do not end the
episode): the conversation goes on until the customer says they were transferred.

The tool-error limit follows the task set's rules: the fork counts no errors (its
``max_errors`` is never reached), so there is no limit unless ``--max-errors`` is given;
τ³ (τ²-bench v1.x) counts every failed call over the whole episode (a task's message
history aside) and ends it at 10 by default. Under τ³'s rules the step and error limits
are checked only when no tool call waits for its result, so a message with tool calls
always gets its results before the episode ends.

Two of τ³'s options, off by default: ``--episode-timeout-s`` ends an episode that has run
that long (``timeout``; checked after the limits above, and winning over them), and
``--enforce-communication-protocol`` ends one at a message that carries both text and tool
calls (``agent_error`` or ``user_error``, the calls not run).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from tautrait_core.domain.tool_execution import bounded_call, execute_tool_call
from tautrait_core.domain.tools import raised
from tautrait_core.episode.conversation import EpisodeProtocol, user_turn
from tautrait_core.episode.user import UserTurn
from tautrait_core.llm.client import encodable_text
from tautrait_core.types.criteria import Side
from tautrait_core.types.messages import (
    OUT_OF_SCOPE_TOKEN,
    STOP_TOKEN,
    TAU2_GREETING,
    TRANSFER_TOKEN,
    Message,
    error_flag,
)
from tautrait_core.types.result import Termination

DEFAULT_MAX_ERRORS = 10
"""The error limit under τ³'s rules when ``--max-errors`` is not given (τ³'s default)."""

USER_SIGNALS = {
    STOP_TOKEN: Termination.USER_STOP,
    TRANSFER_TOKEN: Termination.USER_TRANSFER,
    OUT_OF_SCOPE_TOKEN: Termination.USER_OUT_OF_SCOPE,
}
"""The tokens a customer ends the conversation with, and the termination each gives."""

Speaker = Literal["agent", "user", "environment"]
UserInput = Callable[[], Awaitable[UserTurn]]


def user_signal(message: Message) -> Termination | None:
    """How a customer's message ends the conversation, or ``None`` when it goes on (a
    message with tool calls never ends it)."""
    if message.tool_calls:
        return None
    for token, termination in USER_SIGNALS.items():
        if token in (message.content or ""):
            return termination
    return None


def agent_view(messages: list[Message]) -> list[Message]:
    """The conversation as the agent sees it: without the customer's tool calls and results."""
    return [message for message in messages if message.requestor != "user"]


@dataclass(eq=False)
class Tau2Episode(EpisodeProtocol):
    """Runs one conversation with the τ² protocol, filling in ``conversation``."""

    def __post_init__(self) -> None:
        limits, tau3 = self.context.limits, self.context.rules == "tau3"
        self.max_errors = limits.max_errors or (DEFAULT_MAX_ERRORS if tau3 else None)
        self.pending_user: UserInput = self.user.start
        self.pending_calls: tuple[Message, Side] | None = None

    async def run(self, history: list[Message]) -> None:
        """Play the conversation to its end, from ``history`` (a task's prior messages)."""
        conversation = self.conversation
        speaker = self.opening(history)
        while conversation.termination is None:
            if speaker == "agent":
                speaker = await self.agent_hop()
            elif speaker == "user":
                speaker = await self.user_hop()
            else:
                speaker = self.environment_hop()
            conversation.steps += 1
            if conversation.termination is not None:
                break
            tau3 = self.context.rules == "tau3"
            if speaker == "environment" and tau3:
                continue  # τ³: tool calls get their results before any limit ends the episode
            out_of_steps = conversation.steps >= self.context.limits.step_limit(tau2=True)
            errors = self.max_errors is not None and conversation.tool_errors >= self.max_errors
            if errors and (tau3 or not out_of_steps):  # τ³'s error check comes second, and wins
                conversation.termination = Termination.TOO_MANY_ERRORS
            elif out_of_steps:
                conversation.termination = Termination.MAX_STEPS
            if self.out_of_time():  # τ³'s last check, which wins over both
                conversation.termination = Termination.TIMEOUT

    def opening(self, history: list[Message]) -> Speaker:
        """Who speaks first: the customer after the greeting, the agent alone in solo mode,
        or whoever the last message of a history hands over to."""
        messages = self.conversation.messages
        if not history:
            if self.context.solo:
                return "agent"
            messages.append(Message(role="assistant", content=TAU2_GREETING))
            return "user"
        messages.extend(history)
        last = history[-1]
        if last.role == "tool" and last.requestor == "user":
            results = trailing_results(history)
            self.user.load_history(history[: -len(results)])  # the results come next
            self.pending_user = lambda: self.user.observe_tool_results(results)
            return "user"
        if last.role == "assistant" and not last.tool_calls:
            self.user.load_history(history[:-1])  # the agent's last message comes next
            text = last.content or ""
            self.pending_user = lambda: self.user.reply(text)
            return "user"
        self.user.load_history(history)  # (a history never ends with unanswered calls)
        if last.role == "user":
            self.conversation.termination = user_signal(last)
        return "agent"

    async def agent_hop(self) -> Speaker:
        conversation = self.conversation
        view = conversation.messages if self.context.solo else agent_view(conversation.messages)
        reply = await self.agent.next_message(view)
        content = None if reply.content is None else encodable_text(reply.content)
        if reply.tool_calls:
            message = Message(
                role="assistant",
                content=content,
                tool_calls=[bounded_call(call) for call in reply.tool_calls],
            )
            conversation.messages.append(message)
            if self.breaks_protocol(message):
                conversation.termination = Termination.AGENT_ERROR
            self.pending_calls = (reply, "assistant")
            return "environment"
        text = content or ""
        conversation.messages.append(Message(role="assistant", content=text))
        conversation.replies.append(text)
        if self.context.solo:
            if STOP_TOKEN in text:
                conversation.termination = Termination.AGENT_STOP
            return "agent"  # nobody answers: the agent goes on
        self.pending_user = lambda: self.user.reply(text)
        return "user"

    async def user_hop(self) -> Speaker:
        message = await user_turn(self.pending_user())
        self.conversation.messages.append(message)
        if self.breaks_protocol(message):
            self.conversation.termination = Termination.USER_ERROR
        if message.tool_calls:
            self.pending_calls = (message, "user")
            return "environment"
        self.conversation.termination = user_signal(message)
        return "agent"

    def breaks_protocol(self, message: Message) -> bool:
        """Whether ``message`` carries both text and tool calls while
        ``--enforce-communication-protocol`` forbids it (the episode then ends)."""
        enforced = self.context.limits.enforce_communication_protocol
        return enforced and bool(message.tool_calls) and bool((message.content or "").strip())

    def environment_hop(self) -> Speaker:
        """Run every tool call of the pending message, in order; the results go back to
        the side that made the calls."""
        assert self.pending_calls is not None
        message, side = self.pending_calls
        self.pending_calls = None
        conversation = self.conversation
        domain = self.context.domain
        requestor = "user" if side == "user" else None
        results = []
        for call in message.tool_calls or []:
            observation = execute_tool_call(domain, self.db, call, side, self.context.solo)
            failed = raised(observation)  # τ² counts the calls that raised
            if failed:
                conversation.tool_errors += 1
            result = Message(
                role="tool",
                content=observation,
                tool_call_id=call.id,
                name=call.name,
                requestor=requestor,
                error=error_flag(observation, failed),
            )
            conversation.messages.append(result)
            results.append(result)
        if side == "assistant":
            return "agent"
        self.pending_user = lambda: self.user.observe_tool_results(results)
        return "user"


def trailing_results(history: list[Message]) -> list[Message]:
    """The tool messages at the end of ``history`` (the results of its last tool calls)."""
    results: list[Message] = []
    for message in reversed(history):
        if message.role != "tool":
            break
        results.insert(0, message)
    return results
