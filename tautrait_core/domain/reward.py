"""The reward, with tau-bench / tau-trait semantics.

reward = 1 exactly when
  1. the agent's final database equals the database obtained by replaying the task's gold
     plan on a fresh copy (its gold actions less ``respond`` and terminating tools, see
     :func:`gold_plan`; a gold action that errors is a no-op apart from what it changed
     before failing), and
  2. every required output string appears in some agent reply, compared lower-cased with
     the commas of the reply removed.

The gold replay depends only on the task, the template and the episode's date, so its
result is cached per process.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.state import (
    EpisodeDB,
    RowKey,
    StateTemplate,
    describe_differences,
    state_hash,
)
from tautrait_core.domain.task import RESPOND_ACTION, Action, Task


class RewardInfo(BaseModel):
    """Both parts of the reward (tau-bench semantics) and what made it 0.

    ``r_actions`` compares the final database with the gold replay; ``r_outputs`` checks
    the required outputs (``None`` when the task has none). ``state_diff`` lists the
    records where the agent's database and the gold database differ.
    """

    reward: float
    r_actions: bool
    r_outputs: bool | None = None
    outputs: dict[str, bool] = Field(default_factory=dict)
    data_hash: str
    gt_data_hash: str
    state_diff: list[str] = Field(default_factory=list)

    # τ²-style grading (a task with evaluation criteria); each component in τ²'s JSON shape.
    # They are all ``None`` for a τ-bench-style task and then not serialised at all.
    reward_basis: list[str] | None = None
    """The components the reward is the product of (``None``: τ-bench-style grading)."""
    reward_breakdown: dict[str, float] | None = None
    """The reward of each basis component."""
    db_check: dict[str, Any] | None = None
    env_assertions: list[dict[str, Any]] | None = None
    action_checks: list[dict[str, Any]] | None = None
    communicate_checks: list[dict[str, Any]] | None = None
    nl_assertions: list[dict[str, Any]] | None = None
    info: dict[str, Any] | None = None
    """τ²'s notes: ``{"env", "nl", "communicate", "action"}``, or ``{"note": ...}``."""
    not_scoreable: str | None = None
    """Why the episode could not be graded (an NL assertion counts and no judge was
    given): its reward is not a verdict."""

    @model_serializer(mode="wrap")
    def _omit_tau2_fields_when_unused(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if self.reward_basis is None and isinstance(data, dict):
            for key in TAU2_REWARD_FIELDS:
                data.pop(key, None)
        return data


TAU2_REWARD_FIELDS = (
    "reward_basis",
    "reward_breakdown",
    "db_check",
    "env_assertions",
    "action_checks",
    "communicate_checks",
    "nl_assertions",
    "info",
    "not_scoreable",
)
"""The :class:`RewardInfo` fields only τ²-style grading fills."""


@dataclass(frozen=True)
class GoldState:
    """The result of replaying a task's gold actions on a fresh copy."""

    changes: dict[RowKey, str | None]
    hash: str
    observations: tuple[str, ...]


def is_gold_tool_call(action: Action, terminating_tools: Collection[str]) -> bool:
    """Whether the gold replay runs ``action`` through the tools: every action except
    ``respond`` (a message, not a tool call) and the terminating tools (which end the
    conversation and change no state)."""
    return action.name != RESPOND_ACTION and action.name not in terminating_tools


def gold_plan(
    actions: Iterable[Action], terminating_tools: Collection[str], *, with_replies: bool = False
) -> list[Action]:
    """The gold actions that the replay runs through the tools, in order: what an agent
    that follows the task exactly calls (see :func:`is_gold_tool_call`).

    Args:
        actions: A task's gold actions (``task.actions``).
        terminating_tools: The domain's terminating tools (``domain.terminating_tools``).
        with_replies: Keep the ``respond`` actions too (the agent's messages, in place).
    """
    return [
        action
        for action in actions
        if is_gold_tool_call(action, terminating_tools)
        or (with_replies and action.name == RESPOND_ACTION)
    ]


def replay_actions(domain: Domain, db: EpisodeDB, actions: Sequence[Action]) -> list[str]:
    """Run ``actions`` through the domain's tools as the gold replay does.

    Actions outside the gold plan (``respond`` and terminating tools, see
    :func:`gold_plan`) are skipped; their observation is ``""``. Returns one observation
    per action.
    """
    observations = []
    for action in actions:
        if not is_gold_tool_call(action, domain.terminating_tools):
            observations.append("")
            continue
        observations.append(domain.run_tool(db, action.name, dict(action.kwargs)))
    return observations


_gold_cache: dict[tuple[int, str, object], GoldState] = {}
_gold_lock = threading.Lock()


def gold_state(domain: Domain, template: StateTemplate, task: Task, today: object) -> GoldState:
    """Replay ``task``'s gold actions on a fresh copy of ``template`` (cached)."""
    key = (id(template), task.model_dump_json(), today)
    with _gold_lock:
        cached = _gold_cache.get(key)
    if cached is not None:
        return cached
    with template.new_episode(today) as db:  # type: ignore[arg-type]
        observations = replay_actions(domain, db, task.actions)
        changes = db.changes()
    result = GoldState(changes, state_hash(template, changes), tuple(observations))
    with _gold_lock:
        _gold_cache[key] = result
    return result


def outputs_found(outputs: Sequence[str], replies: Sequence[str]) -> dict[str, bool]:
    """For each required output, whether some reply contains it (case- and comma-insensitive)."""
    normalized = [reply.lower().replace(",", "") for reply in replies]
    return {output: any(output.lower() in reply for reply in normalized) for output in outputs}


def compute_reward(
    domain: Domain, task: Task, db: EpisodeDB, agent_replies: Sequence[str]
) -> RewardInfo:
    """Score an episode's final database and the agent's replies to the user."""
    agent_changes = db.changes()
    agent_hash = state_hash(db.template, agent_changes)
    gold = gold_state(domain, db.template, task, db.today)
    r_actions = agent_hash == gold.hash
    found = outputs_found(task.outputs, agent_replies)
    r_outputs = all(found.values()) if task.outputs else None
    reward = 1.0 if r_actions and r_outputs is not False else 0.0
    return RewardInfo(
        reward=reward,
        r_actions=r_actions,
        r_outputs=r_outputs,
        outputs=found,
        data_hash=agent_hash,
        gt_data_hash=gold.hash,
        state_diff=[] if r_actions else describe_differences(agent_changes, gold.changes),
    )
