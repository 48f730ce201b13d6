"""A person plays one side of one task against a model on the other side.

As ``user``, the person is the customer (the ``human`` user simulator) and a model-backed
agent serves them; as ``agent``, the person is the agent (the ``human`` agent: replies and
``/tool NAME {json}`` calls) against a model-backed simulated user. The episode runs
through :func:`tautrait_core.episode.loop.run_episode` exactly as in a run, so it ends by
the same rules and is scored the same way. Played episodes are not stored.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any, Literal

from tautrait_core.builtin.human import HumanAgent, HumanConsole, HumanUser
from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.task_sets import template_for
from tautrait_core.episode.loop import run_episode
from tautrait_core.errors import ConfigError
from tautrait_core.llm.http_session import session_scope
from tautrait_core.plugins import lookup
from tautrait_core.run.prepared import episode_context, prepare
from tautrait_core.types.result import EpisodeResult

Side = Literal["agent", "user"]
HUMAN = "human"
DEFAULT_STRATEGY = {"user": "tool-calling", "agent": "llm"}
"""The model-backed side's strategy when none is given, by the side the person plays."""


def play_config(
    side: Side,
    strategy: str | None = None,
    model: str | None = None,
    provider: str | None = None,
    api_base: str | None = None,
    **settings: Any,
) -> RunConfig:
    """The run configuration of a played episode.

    Args:
        side: What the person plays (``agent`` or ``user``).
        strategy: The model-backed side's strategy (default: ``tool-calling`` against a
            human user, ``llm`` against a human agent).
        model / provider / api_base: The model-backed side's model settings.
        settings: Any other :class:`RunConfig` field (``domain``, ``traits``, ...).

    Raises:
        ConfigError: the agent needs a model and none is given.
    """
    other = "agent" if side == "user" else "user"
    strategy = strategy or DEFAULT_STRATEGY[side]
    if side == "user" and model is None and lookup("agent", strategy).needs_model:
        raise ConfigError(
            f"agent {strategy!r} calls a model: pass --model (e.g. gpt-4o), or play against "
            "the gold actions with --strategy oracle"
        )
    options: dict[str, Any] = {side: HUMAN, other: strategy}
    for field, value in (("model", model), ("provider", provider), ("api_base", api_base)):
        if value is not None:
            options[f"{other}_{field}"] = value
    return RunConfig.model_validate({**settings, **options})


def play_episode(
    config: RunConfig, task_id: int, console: HumanConsole | None = None
) -> EpisodeResult:
    """Play task ``task_id`` of ``config``'s task set; ``console`` is where the person
    reads and types (the terminal by default).

    Raises:
        ConfigError, UnknownNameError: as :func:`tautrait_core.run.prepared.prepare` does, before
            anything is shown.
    """
    prepared = prepare(config.with_settings(task_ids=[task_id], concurrency=1))
    context = episode_context(prepared, task_id, 0)
    traits = prepared.trait_backend_class(context)
    if issubclass(prepared.agent_class, HumanAgent):
        agent = prepared.agent_class(context, console=console)
    else:
        agent = prepared.agent_class(context)
    if issubclass(prepared.user_class, HumanUser):
        user = prepared.user_class(context, traits, console=console)
    else:
        user = prepared.user_class(context, traits)
    template = template_for(prepared.domain, prepared.task_set)

    async def played() -> EpisodeResult:
        async with session_scope():  # the episode's model connections end with it
            return await run_episode(context, template, agent, user, dt.date.today())

    return asyncio.run(played())
