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

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.state import (
    EpisodeDB,
    RowKey,
    StateTemplate,
    describe_differences,
    state_hash,
)
from tautrait_core.grading.gold_cache import GoldCache, replay_key
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import RESPOND_ACTION, Action, Task


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


_gold_states: GoldCache[GoldState] = GoldCache()


def gold_state(domain: Domain, template: StateTemplate, task: Task, today: object) -> GoldState:
    """Replay ``task``'s gold actions on a fresh copy of ``template`` (cached)."""

    def replay() -> GoldState:
        with template.new_episode(today) as db:  # type: ignore[arg-type]
            observations = replay_actions(domain, db, task.actions)
            changes = db.changes()
        return GoldState(changes, state_hash(template, changes), tuple(observations))

    return _gold_states.get(replay_key(domain, template, task, today), replay)


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
