"""One episode: the agent, the simulated user and the domain's tools exchange messages.

The conversation starts with the user's first message. Each agent step is either a tool
call (only the first call of a message runs; its observation is appended) or a message to
the user (who answers). The episode ends when the user's message contains ``###STOP###``,
when the agent calls a terminating tool, or after ``max_steps`` agent steps. Then the
reward is computed (see :mod:`tautrait_core.domain.reward`).

Failures are classified so that metrics stay honest:

* a provider that keeps failing (:class:`ProviderError`) on either side, or a user
  simulator that breaks, makes the episode an ``error`` (excluded from pass^k, re-run on
  resume);
* an agent that overflows its context window or raises makes the episode a ``fail``: that
  is the agent's own failure;
* tool-call arguments that nest deeper than :data:`MAX_ARGUMENT_DEPTH` levels or are longer
  than :data:`MAX_ARGUMENT_CHARS` characters are never run: the agent gets an ``Error: ...``
  observation (the stored call keeps at most :data:`MAX_ARGUMENT_CHARS` characters), the
  conversation goes on, and the episode is scored like any other (so it usually fails).

Text the agent, the user simulator or a tool returns is stored and shown as it is, except
for characters UTF-8 cannot encode (lone surrogates), which become U+FFFD.
"""

from __future__ import annotations

import datetime as dt
import time

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.reward import RewardInfo, compute_reward
from tautrait_core.domain.state import EpisodeDB, StateTemplate
from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.messages import STOP_TOKEN, Message, ToolCall
from tautrait_core.episode.result import FINISHED_TERMINATIONS, EpisodeResult, Outcome, Termination
from tautrait_core.episode.user import UserSimulator
from tautrait_core.errors import ContextWindowError, ProviderError
from tautrait_core.llm.client import call_log, encodable_text
from tautrait_core.llm.usage import ModelCall

MAX_ARGUMENT_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in tool-call arguments."""
MAX_ARGUMENT_CHARS = 100_000
"""Longest tool-call argument text accepted (and stored)."""


class _UserFailure(Exception):
    """The user simulator failed; wraps the original error."""


def invalid_arguments_observation(name: str, error: Exception) -> str:
    """What the agent sees when its tool-call arguments are not a JSON object."""
    return f"Error: the arguments for {name} are not a valid JSON object ({error})"


def argument_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (without parsing it)."""
    depth = deepest = 0
    in_string = escaped = False
    for character in text:
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}":
            depth -= 1
    return deepest


def bounded_call(call: ToolCall) -> ToolCall:
    """``call`` as it is stored: arguments cut to :data:`MAX_ARGUMENT_CHARS` characters."""
    if len(call.arguments) <= MAX_ARGUMENT_CHARS:
        return call
    cut = len(call.arguments) - MAX_ARGUMENT_CHARS
    kept = call.arguments[:MAX_ARGUMENT_CHARS] + f"...[{cut} more characters not stored]"
    return call.model_copy(update={"arguments": kept})


def execute_tool_call(domain: Domain, db: EpisodeDB, call: ToolCall) -> str:
    """Run one tool call as an episode does: malformed, oversized or too deeply nested
    arguments and unknown tools give an ``Error: ...`` observation, never an exception."""
    if len(call.arguments) > MAX_ARGUMENT_CHARS:
        return (
            f"Error: the arguments for {call.name} are {len(call.arguments)} characters long; "
            f"at most {MAX_ARGUMENT_CHARS} are accepted"
        )
    if argument_depth(call.arguments) > MAX_ARGUMENT_DEPTH:
        return (
            f"Error: the arguments for {call.name} nest deeper than {MAX_ARGUMENT_DEPTH} "
            "levels of arrays and objects"
        )
    try:
        arguments = call.parsed_arguments()
    except ValueError as exc:
        return invalid_arguments_observation(call.name, exc)
    return encodable_text(domain.run_tool(db, call.name, arguments))


def ends_episode(domain: Domain, call: ToolCall) -> bool:
    """Whether calling ``call`` ends the episode (a registered terminating tool)."""
    return call.name in domain.terminating_tools and call.name in domain.tools_by_name


async def run_episode(
    context: EpisodeContext,
    template: StateTemplate,
    agent: Agent,
    user: UserSimulator,
    today: dt.date | None = None,
) -> EpisodeResult:
    """Run one episode to its end and score it. Never raises for model or tool failures."""
    domain = context.domain
    started = time.monotonic()
    messages: list[Message] = [Message(role="system", content=domain.policy)]
    replies: list[str] = []
    steps = 0
    termination: Termination | None = None
    outcome: Outcome | None = None
    error: str | None = None
    reward_info: RewardInfo | None = None

    db = template.new_episode(today)
    calls: list[ModelCall] = []
    log_token = call_log.set(calls)
    try:
        try:
            first = await _user_turn(user.start())
            messages.append(Message(role="user", content=first))
            if STOP_TOKEN in first:
                termination = Termination.USER_STOP
            while termination is None:
                if steps >= context.config.max_steps:
                    termination = Termination.MAX_STEPS
                    break
                reply = await agent.next_message(messages)
                steps += 1
                if reply.tool_calls:
                    call = reply.tool_calls[0]
                    content = None if reply.content is None else encodable_text(reply.content)
                    messages.append(
                        Message(role="assistant", content=content, tool_calls=[bounded_call(call)])
                    )
                    observation = execute_tool_call(domain, db, call)
                    messages.append(
                        Message(
                            role="tool", content=observation, tool_call_id=call.id, name=call.name
                        )
                    )
                    if ends_episode(domain, call):
                        termination = Termination.TERMINATING_TOOL
                else:
                    content = encodable_text(reply.content or "")
                    messages.append(Message(role="assistant", content=content))
                    replies.append(content)
                    answer = await _user_turn(user.reply(content))
                    messages.append(Message(role="user", content=answer))
                    if STOP_TOKEN in answer:
                        termination = Termination.USER_STOP
        except _UserFailure as failure:
            cause = failure.__cause__ or failure
            termination = (
                Termination.PROVIDER_ERROR
                if isinstance(cause, ProviderError)
                else Termination.USER_ERROR
            )
            outcome, error = Outcome.ERROR, f"user simulator: {type(cause).__name__}: {cause}"
        except ProviderError as exc:
            termination, outcome, error = Termination.PROVIDER_ERROR, Outcome.ERROR, f"agent: {exc}"
        except ContextWindowError as exc:
            termination, outcome, error = Termination.CONTEXT_WINDOW, Outcome.FAIL, f"agent: {exc}"
        except Exception as exc:  # an agent that crashes fails its task
            termination, outcome, error = (
                Termination.AGENT_ERROR,
                Outcome.FAIL,
                f"agent: {type(exc).__name__}: {exc}",
            )

        if outcome is not Outcome.ERROR:
            reward_info = compute_reward(domain, context.task, db, replies)
            if termination not in FINISHED_TERMINATIONS:
                reward_info = reward_info.model_copy(update={"reward": 0.0})
            outcome = Outcome.PASS if reward_info.reward == 1.0 else Outcome.FAIL
    finally:
        call_log.reset(log_token)
        db.close()

    assert termination is not None and outcome is not None
    return EpisodeResult(
        task_id=context.task_id,
        trial=context.trial,
        outcome=outcome,
        reward=reward_info.reward if reward_info else 0.0,
        termination=termination,
        reward_info=reward_info,
        messages=messages,
        error=None if error is None else encodable_text(error),
        agent_usage=agent.usage,
        user_usage=user.usage,
        calls=calls,
        steps=steps,
        duration_s=round(time.monotonic() - started, 3),
        env_date=db.today,
    )


async def _user_turn(awaitable: object) -> str:
    try:
        text = await awaitable  # type: ignore[misc]
    except Exception as exc:
        raise _UserFailure(str(exc)) from exc
    return encodable_text(str(text))
