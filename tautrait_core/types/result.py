"""How an episode ended and what it produced: :class:`EpisodeResult` with its outcome,
termination, reward breakdown, transcript and usage.

Field names follow upstream's result record (``task_id``, ``reward``, ``info``, ``traj``,
``trial``), so exports port over.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from tautrait_core.types.messages import Message
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.usage import ModelCall, Usage


class Outcome(StrEnum):
    """How an episode ended, as counted by the metrics."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    """Infrastructure failure: excluded from pass^k and re-run on resume."""


class Termination(StrEnum):
    """Why the conversation stopped."""

    USER_STOP = "user_stop"
    USER_TRANSFER = "user_transfer"
    """The customer says they were transferred (``###TRANSFER###``, τ² protocol)."""
    USER_OUT_OF_SCOPE = "user_out_of_scope"
    """The customer's situation does not cover what was asked (``###OUT-OF-SCOPE###``)."""
    AGENT_STOP = "agent_stop"
    """The agent declared the task done (solo mode)."""
    TERMINATING_TOOL = "terminating_tool"
    MAX_STEPS = "max_steps"
    TOO_MANY_ERRORS = "too_many_errors"
    """Tool calls failed ``--max-errors`` times (τ² protocol)."""
    TIMEOUT = "timeout"
    """The episode ran past ``--episode-timeout-s`` (τ³'s ``timeout``)."""
    AGENT_ERROR = "agent_error"
    USER_ERROR = "user_error"
    CONTEXT_WINDOW = "context_window"
    PROVIDER_ERROR = "provider_error"


FINISHED_TERMINATIONS = frozenset(
    {
        Termination.USER_STOP,
        Termination.USER_TRANSFER,
        Termination.USER_OUT_OF_SCOPE,
        Termination.AGENT_STOP,
        Termination.TERMINATING_TOOL,
    }
)
"""Endings that count as a finished conversation; any other ending scores 0."""


class EpisodeResult(BaseModel):
    """One finished episode (a task at one trial)."""

    task_id: int
    trial: int
    outcome: Outcome
    reward: float
    termination: Termination
    reward_info: RewardInfo | None = None
    messages: list[Message] = Field(default_factory=list)
    error: str | None = None
    agent_usage: Usage = Field(default_factory=Usage)
    user_usage: Usage = Field(default_factory=Usage)
    calls: list[ModelCall] = Field(default_factory=list)
    steps: int = 0
    duration_s: float = 0.0
    env_date: dt.date | None = None
    """The date the domain's tools took as today (``None``: not recorded)."""

    @classmethod
    def not_run(cls, task_id: int, trial: int, error: str) -> EpisodeResult:
        """An episode that could not run for infrastructure reasons (an ``error``: left out
        of pass^k and run again on resume)."""
        return cls(
            task_id=task_id,
            trial=trial,
            outcome=Outcome.ERROR,
            reward=0.0,
            termination=Termination.AGENT_ERROR,
            error=error,
        )

    @property
    def traj(self) -> list[dict[str, Any]]:
        """The conversation in OpenAI message form (upstream ``traj``)."""
        return [message.to_openai() for message in self.messages]

    @property
    def info(self) -> dict[str, Any]:
        """A summary comparable to upstream's ``info`` dict."""
        return {
            "outcome": self.outcome.value,
            "termination": self.termination.value,
            "reward_info": self.reward_info.model_dump() if self.reward_info else None,
            "error": self.error,
        }
