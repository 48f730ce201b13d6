"""What an episode's grading found: the reward and each of its components."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer


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
    official_reward: float | None = None
    """When the run chose its own basis (``--reward-basis``), the reward on the task's own
    basis; ``reward`` and the components are then the chosen basis's."""

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
    "official_reward",
)
"""The :class:`RewardInfo` fields only τ²-style grading fills."""
