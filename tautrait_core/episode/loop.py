"""One episode: the agent, the simulated user and the domain's tools exchange messages.

The episode database starts from the task's initial state, if it has one
(:func:`tautrait_core.domain.initial_state.apply_initial_state`). Then one of two protocols
runs the conversation:

* τ-bench's (single-control domains, unless their task set says ``"tau2"``): the
  conversation starts with the user's first message. Each agent step is either a tool call
  (only the first call of a message runs; its observation is appended) or a message to the
  user (who answers). The episode ends when the user's message contains ``###STOP###``,
  when the agent calls a terminating tool, after ``max_steps`` agent steps, or (only when
  ``max_errors`` is given) after that many failed tool calls.
* τ²-bench's (dual-control domains, and task sets that ask for it): see
  :mod:`tautrait_core.episode.tau2_protocol`.

Then the reward is computed: on the basis a τ²-style task declares
(:mod:`tautrait_core.grading.criteria_reward`), else with τ-bench's semantics
(:mod:`tautrait_core.grading.reward`).

Failures are classified so that metrics stay honest:

* a provider that keeps failing (:class:`ProviderError`) on either side, or a user
  simulator that breaks, makes the episode an ``error`` (excluded from pass^k, re-run on
  resume);
* an agent that overflows its context window or raises makes the episode a ``fail``: that
  is the agent's own failure;
* a storage fault on either side (:class:`StorageError`, e.g. a full disk under the
  response cache) is nobody's failure: it propagates and stops the run;
* tool-call arguments that nest deeper than :data:`MAX_ARGUMENT_DEPTH` levels or are longer
  than :data:`MAX_ARGUMENT_CHARS` characters are never run: the agent gets an ``Error: ...``
  observation (the stored call keeps at most :data:`MAX_ARGUMENT_CHARS` characters), the
  conversation goes on, and the episode is scored like any other (so it usually fails).

Text the agent, the user simulator or a tool returns is stored and shown as it is, except
for characters UTF-8 cannot encode (lone surrogates), which become U+FFFD. An episode's
error keeps at most :data:`~tautrait_core.llm.failures.MAX_ERROR_CHARS` characters.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import functools
import time

from tautrait_core.domain.initial_state import apply_initial_state
from tautrait_core.domain.state import EpisodeDB, StateTemplate
from tautrait_core.domain.tool_execution import (
    MAX_ARGUMENT_CHARS,
    MAX_ARGUMENT_DEPTH,
    argument_depth,
    bounded_call,
    ends_episode,
    execute_tool_call,
    invalid_arguments_observation,
)
from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.conversation import (
    Conversation,
    EpisodeProtocol,
    UserFailure,
    user_turn,
)
from tautrait_core.episode.tau2_protocol import Tau2Episode
from tautrait_core.episode.user import UserSimulator
from tautrait_core.errors import ContextWindowError, ProviderError, StorageError
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.grading.reward import compute_reward
from tautrait_core.llm.client import call_log, encodable_text
from tautrait_core.llm.failures import capped_text
from tautrait_core.types.messages import STOP_TOKEN, Message
from tautrait_core.types.result import FINISHED_TERMINATIONS, EpisodeResult, Outcome, Termination
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.usage import ModelCall

__all__ = [
    "MAX_ARGUMENT_CHARS",
    "MAX_ARGUMENT_DEPTH",
    "argument_depth",
    "bounded_call",
    "ends_episode",
    "execute_tool_call",
    "invalid_arguments_observation",
    "run_episode",
]


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
    policy = domain.solo_policy if context.solo and domain.solo_policy else domain.policy
    conversation = Conversation(messages=[Message(role="system", content=policy)])
    outcome: Outcome | None = None
    error: str | None = None
    reward_info: RewardInfo | None = None

    db = template.new_episode(today)
    calls: list[ModelCall] = []
    log_token = call_log.set(calls)
    try:
        # a task whose initial state cannot be applied is unusable: the error propagates
        # and the episode is recorded as not run
        history = apply_initial_state(domain, db, context.task)
        try:
            if context.tau2:
                await Tau2Episode(context, db, agent, user, conversation).run(history)
            else:
                await TauBenchEpisode(context, db, agent, user, conversation).run()
        except UserFailure as failure:
            cause = failure.__cause__ or failure
            conversation.termination = (
                Termination.PROVIDER_ERROR
                if isinstance(cause, ProviderError)
                else Termination.USER_ERROR
            )
            outcome, error = Outcome.ERROR, f"user simulator: {type(cause).__name__}: {cause}"
        except ProviderError as exc:
            conversation.termination = Termination.PROVIDER_ERROR
            outcome, error = Outcome.ERROR, f"agent: {exc}"
        except ContextWindowError as exc:
            conversation.termination = Termination.CONTEXT_WINDOW
            outcome, error = Outcome.FAIL, f"agent: {exc}"
        except StorageError:  # a full disk is nobody's score: the run stops
            raise
        except Exception as exc:  # an agent that crashes fails its task
            conversation.termination = Termination.AGENT_ERROR
            outcome, error = Outcome.FAIL, f"agent: {type(exc).__name__}: {exc}"

        termination = conversation.termination
        if outcome is not Outcome.ERROR:
            assert termination is not None
            reward_info = await _score(context, template, db, conversation, termination)
            if termination not in FINISHED_TERMINATIONS:
                reward_info = reward_info.model_copy(update={"reward": 0.0})
            outcome = Outcome.PASS if reward_info.reward == 1.0 else Outcome.FAIL
            if reward_info.not_scoreable is not None:  # never a silent 0: re-run on resume
                outcome, error = Outcome.ERROR, f"not scoreable: {reward_info.not_scoreable}"
    finally:
        await agent.close()
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
        messages=conversation.messages,
        error=None if error is None else encodable_text(capped_text(error)),
        agent_usage=agent.usage,
        user_usage=user.usage,
        calls=calls,
        steps=conversation.steps,
        duration_s=round(time.monotonic() - started, 3),
        env_date=db.today,
    )


async def _score(
    context: EpisodeContext,
    template: StateTemplate,
    db: EpisodeDB,
    conversation: Conversation,
    termination: Termination,
) -> RewardInfo:
    """The episode's reward: on the basis a τ²-style task declares (its evaluation
    criteria), else with τ-bench's semantics."""
    task = context.task
    if task.evaluation_criteria is None:
        return compute_reward(context.domain, task, db, conversation.replies)
    domain = context.domain
    if context.solo:  # as the episode did, the agent's calls of user tools run them
        domain = dataclasses.replace(domain, tools=[*domain.tools, *domain.user_tools])
    judge = None
    if context.judge.model is not None:
        from tautrait_core.grading.nl_judge import ModelJudge
        from tautrait_core.llm.client import ModelSpec

        spec = ModelSpec(
            model=context.judge.model,
            api_base=context.judge.api_base,
            temperature=0.0,
            role="judge",
        )
        judge = ModelJudge(spec)
    grade = functools.partial(
        grade_criteria,
        domain,
        task,
        template,
        conversation.messages,
        termination.value,
        db.today,
        judge,
        context.rules,
        context.judge.reward_basis,
    )
    # the grader is synchronous and a judge runs its own event loop: off this one
    return grade() if judge is None else await asyncio.to_thread(grade)


class TauBenchEpisode(EpisodeProtocol):
    """Runs one conversation with τ-bench's protocol, filling in ``conversation``: the
    customer opens; of an agent message with tool calls only the first call runs;
    ``max_steps`` counts agent steps."""

    async def run(self) -> None:
        """Play the conversation to its end."""
        domain, limits = self.context.domain, self.context.limits
        db, agent, user, conversation = self.db, self.agent, self.user, self.conversation
        messages = conversation.messages
        first = await _user_text(user.start())
        messages.append(Message(role="user", content=first))
        if STOP_TOKEN in first:
            conversation.termination = Termination.USER_STOP
        while conversation.termination is None:
            if self.out_of_time():
                conversation.termination = Termination.TIMEOUT
                break
            if conversation.steps >= limits.step_limit(tau2=False):
                conversation.termination = Termination.MAX_STEPS
                break
            reply = await agent.next_message(messages)
            conversation.steps += 1
            if reply.tool_calls:
                call = reply.tool_calls[0]
                content = None if reply.content is None else encodable_text(reply.content)
                messages.append(
                    Message(role="assistant", content=content, tool_calls=[bounded_call(call)])
                )
                observation = execute_tool_call(domain, db, call)
                messages.append(
                    Message(role="tool", content=observation, tool_call_id=call.id, name=call.name)
                )
                if ends_episode(domain, call):
                    conversation.termination = Termination.TERMINATING_TOOL
                elif limits.max_errors is not None and domain.is_error(observation):
                    conversation.tool_errors += 1
                    if conversation.tool_errors >= limits.max_errors:
                        conversation.termination = Termination.TOO_MANY_ERRORS
            else:
                content = encodable_text(reply.content or "")
                messages.append(Message(role="assistant", content=content))
                conversation.replies.append(content)
                answer = await _user_text(user.reply(content))
                messages.append(Message(role="user", content=answer))
                if STOP_TOKEN in answer:
                    conversation.termination = Termination.USER_STOP


async def _user_text(awaitable: object) -> str:
    """A text-only customer's turn (single-control domains have no user tools)."""
    return (await user_turn(awaitable)).content or ""
