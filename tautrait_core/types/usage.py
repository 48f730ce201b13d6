"""What model calls cost: tokens and dollars per side of an episode, and one record per call."""

from __future__ import annotations

from pydantic import BaseModel


class Usage(BaseModel):
    """Tokens and cost of the calls on one side of an episode."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0
    """Dollars; ``None`` once any call had no known price."""

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost = None if self.cost is None or other.cost is None else self.cost + other.cost


class ModelCall(BaseModel):
    """One model call made during an episode (one per completion, retries included)."""

    role: str
    """``agent``, ``user`` or another label (e.g. ``user-verify``)."""
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    """Dollars; ``None`` when the model has no known price."""
    attempts: int = 1
    duration_s: float = 0.0
    cached: bool = False
    finish_reason: str | None = None
