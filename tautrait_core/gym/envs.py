"""Gymnasium environments over tautrait episodes: play the agent, or play the customer.

:class:`AgentEnv` lets a policy play the agent against any registered user simulator with
any trait mix; :class:`UserEnv` lets it play the customer against any registered agent.
Each ``reset`` starts one episode (a task of the chosen task set) and each ``step`` gives
one message of the policy's side. The reward is 0 until the episode ends, then the
domain's reward (``info["reward_info"]`` holds its breakdown). An episode cut by the step
limit or by ``episode_timeout_s`` is ``truncated``; any other end is ``terminated``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import weakref
from typing import Any, ClassVar, Literal

import gymnasium
from gymnasium import spaces

from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.task_sets import template_for
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.loop import run_episode
from tautrait_core.errors import ConfigError, EpisodeError
from tautrait_core.gym.actions import (
    CHARSET,
    MAX_ACTION,
    MAX_OBSERVATION,
    agent_message,
    conversation_json,
    to_json,
)
from tautrait_core.gym.handoff import ExternalAgent, ExternalUser, Handoff
from tautrait_core.run.prepared import PreparedRun, prepare
from tautrait_core.types.messages import Message
from tautrait_core.types.result import EpisodeResult, Outcome, Termination

Side = Literal["agent", "user"]
PLACEHOLDER = "human"
"""The registered strategy that stands in for the policy's side while the configuration is
checked: it needs no model, so :func:`prepare` checks only the other side's."""


def text_space(max_length: int = MAX_OBSERVATION) -> spaces.Text:
    """A text space over :data:`CHARSET` (by default long enough for a conversation)."""
    return spaces.Text(max_length=max_length, min_length=0, charset=CHARSET)


class EpisodeEnv(gymnasium.Env[dict[str, str], Any]):
    """What both environments share: configuration, reset, step and the final info.

    Args:
        domain: The domain's name (any installed domain plugin).
        task_set: The task set (default: the domain's default).
        task_id: Always run this task; by default ``reset`` draws one from the task set
            (``start``/``end``/``task_ids`` narrow it) with its seed.
        today: The date the domain's tools take as today (default: the day the
            environment is made), so episodes replay alike on any day.
        config: A whole :class:`RunConfig` instead of the keyword settings.
        settings: Any other :class:`RunConfig` field for the other side: ``user``,
            ``user_model``, ``traits``, ``trait_backend``, ``agent``, ``agent_model``,
            ``max_steps``, ``seed``, ...

    Raises:
        ConfigError, UnknownNameError: as :func:`tautrait_core.run.prepared.prepare` does.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}
    side: ClassVar[Side]

    def __init__(
        self,
        domain: str = "retail",
        task_set: str | None = None,
        task_id: int | None = None,
        today: dt.date | str | None = None,
        config: RunConfig | None = None,
        **settings: Any,
    ) -> None:
        if config is None:
            config = RunConfig.model_validate({"domain": domain, "task_set": task_set, **settings})
        if task_id is not None:
            config = config.with_settings(task_ids=[task_id])
        checked = config.with_settings(**{self.side: PLACEHOLDER, "concurrency": 1})
        self.prepared: PreparedRun = prepare(checked)
        self.config = self.prepared.config.with_settings(**{self.side: "gym"})
        self.template = template_for(self.prepared.domain, self.prepared.task_set)
        if isinstance(today, str):
            today = dt.date.fromisoformat(today)
        self.today = today or dt.date.today()
        self._loop = asyncio.new_event_loop()
        # closed by close(), else when the environment is collected or Python exits: an
        # episode left running or an open HTTP session would otherwise print tracebacks
        self._shut = weakref.finalize(self, shut_loop, self._loop)
        self._handoff: Handoff | None = None
        self.context: EpisodeContext | None = None
        self.result: EpisodeResult | None = None
        """The last episode once it has ended (``None`` while one runs)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, str], dict[str, Any]]:
        """Start an episode; ``options={"task_id": n}`` picks its task.

        The same seed (and task) gives the same episode: the task drawn and the episode's
        seed, which seeded user simulators and agents use, both come from it.

        Raises:
            EpisodeError: the episode failed before the policy's first turn (e.g. the
                other side's model provider kept failing); ``self.result`` holds it.
        """
        super().reset(seed=seed)
        self._stop_episode()
        task_id = (options or {}).get("task_id")
        tasks = self.prepared.task_set.tasks
        if task_id is None:
            task_id = int(self.np_random.choice(self.prepared.task_ids))
        elif not 0 <= task_id < len(tasks):
            raise ConfigError(
                f"task_id {task_id} is out of range: the task set has 0..{len(tasks) - 1}"
            )
        self.context = EpisodeContext.of_run(
            self.config,
            self.prepared.episode_domain(task_id),
            tasks[task_id],
            task_id,
            trial=0,
            seed=int(self.np_random.integers(2**31)),
            protocol=self.prepared.task_set.protocol,
            rules=self.prepared.task_set.rules,
            plugin_options=self.prepared.plugin_options,
        )
        self._handoff = Handoff(self._loop)
        view = self._handoff.start(self._episode(self.context, self._handoff))
        self.result = result = self._handoff.result
        if result is not None and result.outcome is Outcome.ERROR:
            raise EpisodeError(
                f"the episode of task {task_id} failed before the policy's first turn: "
                f"{result.error or result.termination.value}"
            )
        return self._observation(view), self._info()

    def step(self, action: Any) -> tuple[dict[str, str], float, bool, bool, dict[str, Any]]:
        """Give one message of the policy's side (see the class for the action format).

        Raises:
            ActionError: the action is malformed (the episode waits for a valid one).
            RuntimeError: no episode is running (call ``reset``).
        """
        if self._handoff is None or self.result is not None:
            raise RuntimeError("no episode is running: call reset() first")
        view = self._handoff.answer(self._parse(action))
        self.result = result = self._handoff.result
        observation = self._observation(view)
        if result is None:
            return observation, 0.0, False, False, self._info()
        truncated = result.termination in (Termination.MAX_STEPS, Termination.TIMEOUT)
        return observation, result.reward, not truncated, truncated, self._info()

    def close(self) -> None:
        """Stop a running episode and close the event loop."""
        self._stop_episode()
        self._shut()

    def _stop_episode(self) -> None:
        if self._handoff is not None:
            self._handoff.cancel()
        self._handoff, self.result = None, None

    def _info(self) -> dict[str, Any]:
        """Task and trait mix always; once the episode ended, how and why it scored."""
        assert self.context is not None
        info: dict[str, Any] = {
            "task_id": self.context.task_id,
            "traits": self.config.user.traits.label(),
        }
        result = self.result
        if result is not None:
            info.update(
                outcome=result.outcome.value,
                termination=result.termination.value,
                reward=result.reward,
                reward_info=result.reward_info.model_dump() if result.reward_info else None,
                error=result.error,
                steps=result.steps,
            )
        return info

    def _episode(self, context: EpisodeContext, handoff: Handoff) -> Any:
        raise NotImplementedError

    def _parse(self, action: Any) -> Any:
        raise NotImplementedError

    def _observation(self, view: Any) -> dict[str, str]:
        raise NotImplementedError


def shut_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Close an environment's event loop as ``asyncio.run`` does: cancel what still runs
    (an episode, litellm's logging worker), close async generators (the HTTP session)."""
    if loop.is_closed():
        return
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.wait(pending))
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()


class AgentEnv(EpisodeEnv):
    """Play the agent against a registered user simulator (``user=``, ``traits=``).

    Observation (each value JSON text): ``{"messages": list of the conversation in OpenAI
    chat form (the system policy first), "tools": list of the domain's tool schemas}``.
    Action: text for the user, or a JSON object ``{"content": "..."}`` or ``{"tool_calls": [{"name":
    "...", "arguments": {...}}]}`` (OpenAI tool calls are accepted too).
    """

    side = "agent"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.observation_space = spaces.Dict({"messages": text_space(), "tools": text_space()})
        self.action_space = text_space(MAX_ACTION)
        first_task = self.prepared.task_ids[0]  # a retrieval's tools are the same in every task
        self._tools = to_json(self.prepared.episode_domain(first_task).tool_schemas)
        self._conversation: list[Message] = []

    def _episode(self, context: EpisodeContext, handoff: Handoff) -> Any:
        agent = ExternalAgent(context, handoff)
        user = self.prepared.user_class(context, self.prepared.trait_backend_class(context))
        return run_episode(context, self.template, agent, user, self.today)

    def _parse(self, action: Any) -> Message:
        return agent_message(action, call_prefix=f"call_{len(self._conversation)}_")

    def _observation(self, view: Any) -> dict[str, str]:
        if view is not None:
            self._conversation = view
        elif self.result is not None:
            self._conversation = self.result.messages
        return {"messages": conversation_json(self._conversation), "tools": self._tools}


class UserEnv(EpisodeEnv):
    """Play the customer against a registered agent (``agent=``, ``agent_model=``).

    Observation (each value JSON text): ``{"instruction": the task's instruction as a JSON
    string, "traits": the trait mix to play (e.g. ``{"impatience": "high"}``), "messages":
    list of the conversation as the customer sees it (the agent's messages as
    ``assistant``, the customer's as ``user``; tool calls stay hidden)}``. Action: the
    customer's next message; one containing ``###STOP###`` ends the episode.
    """

    side = "user"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.observation_space = spaces.Dict(
            {"instruction": text_space(), "traits": text_space(), "messages": text_space()}
        )
        self.action_space = text_space(MAX_ACTION)
        self._turns: list[dict[str, str]] = []

    def _episode(self, context: EpisodeContext, handoff: Handoff) -> Any:
        agent = self.prepared.agent_class(context)
        user = ExternalUser(context, self.prepared.trait_backend_class(context), handoff)
        return run_episode(context, self.template, agent, user, self.today)

    def _parse(self, action: Any) -> str:
        if not isinstance(action, str):
            raise TypeError(f"a user action is the customer's message as text, not {action!r}")
        return action

    def _observation(self, view: Any) -> dict[str, str]:
        if view is not None:
            self._turns = view
        assert self.context is not None
        return {
            "instruction": to_json(self.context.task.instruction),
            "traits": to_json(self.config.user.traits.as_words()),
            "messages": to_json(self._turns),
        }
