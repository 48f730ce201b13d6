"""τ²-bench task parts: a task's initial state and its declared evaluation criteria.

A τ-bench-style task is graded by its gold actions and required outputs
(:class:`tautrait_core.types.task.Task`). A τ²-style task may also say how the episode
starts (data merged into either side's state, functions run on either side, a prior message
history) and on what basis it is graded (:class:`EvaluationCriteria`). Field names follow
τ²-bench's task files, so its tasks load unchanged.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Side = Literal["assistant", "user"]
"""Who acts: the agent (``"assistant"``) or the customer (``"user"``, dual control only)."""


class RewardBasis(StrEnum):
    """A component a τ²-style reward is the product of."""

    DB = "DB"
    ENV_ASSERTION = "ENV_ASSERTION"
    NL_ASSERTION = "NL_ASSERTION"
    ACTION = "ACTION"
    COMMUNICATE = "COMMUNICATE"


DEFAULT_REWARD_BASIS = [RewardBasis.DB, RewardBasis.COMMUNICATE]
"""The basis of a task whose criteria do not name one (τ²-bench's default)."""


class EnvFunctionCall(BaseModel):
    """A call of a domain function on one side's state, by name (not a tool call: no
    observation is kept). ``env_type`` says which side's functions are searched."""

    model_config = ConfigDict(extra="ignore")

    env_type: Side
    func_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class EnvAssertion(EnvFunctionCall):
    """A function call whose boolean result must equal ``assert_value``."""

    assert_value: bool = True
    message: str | None = None


class InitialData(BaseModel):
    """Updates deep-merged into each side's state before the episode starts."""

    model_config = ConfigDict(extra="ignore")

    agent_data: dict[str, Any] | None = None
    user_data: dict[str, Any] | None = None


class InitialState(BaseModel):
    """How a τ²-style episode starts, applied in this order: data, actions, the message
    history's tool calls (re-run), then the domain's state sync."""

    model_config = ConfigDict(extra="ignore")

    initialization_data: InitialData | None = None
    initialization_actions: list[EnvFunctionCall] | None = None
    message_history: list[dict[str, Any]] | None = None


class EvaluationCriteria(BaseModel):
    """What a τ²-style task is graded on; the reward is the product of the components in
    ``reward_basis``, and every component is reported whether it counts or not."""

    model_config = ConfigDict(extra="ignore")

    actions: list[Any] | None = None
    """Gold tool calls of both sides (:class:`tautrait_core.types.task.Action`)."""
    env_assertions: list[EnvAssertion] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[RewardBasis] = Field(default_factory=lambda: list(DEFAULT_REWARD_BASIS))
