"""What agents, user simulators and trait backends know about the episode they serve."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tautrait_core.config import RunConfig
from tautrait_core.domain.domain import Domain
from tautrait_core.domain.task import Task
from tautrait_core.errors import ConfigError
from tautrait_core.llm.client import ModelSpec
from tautrait_core.paths import response_cache_path


@dataclass(frozen=True)
class _ModelSide:
    """Where one side's model settings live in :class:`RunConfig`: ``{role}_model``,
    ``{role}_provider``, ``{role}_api_base`` and the named temperature field."""

    role: str
    label: str
    temperature_field: str


_AGENT_SIDE = _ModelSide(role="agent", label="agent", temperature_field="temperature")
_USER_SIDE = _ModelSide(role="user", label="user simulator", temperature_field="user_temperature")


@dataclass(frozen=True)
class EpisodeContext:
    """One episode's fixed inputs.

    Attributes:
        domain: The domain (policy, tools, schemas).
        task: The task being run.
        task_id: The task's index in its task set.
        trial: The trial number (0-based).
        config: The run's configuration (models, traits, limits).
        seed: A per-episode seed derived from the run seed, task and trial.
        protocol: How the episode runs: its task set's protocol (``"tau-bench"`` or
            ``"tau2"``, see :class:`tautrait_core.domain.domain.TaskSet`); a dual-control
            domain and solo mode always run with τ²'s (:attr:`tau2`).
    """

    domain: Domain
    task: Task
    task_id: int
    trial: int
    config: RunConfig
    seed: int
    protocol: Literal["tau-bench", "tau2"] = "tau-bench"

    @property
    def tau2(self) -> bool:
        """Whether the episode runs with τ²-bench's protocol: every tool call of a message
        runs in order on the side that made it, the agent greets first, steps count hops,
        and the customer may stop, ask for a transfer or declare the request out of scope."""
        return self.protocol == "tau2" or self.domain.dual_control or self.solo

    @property
    def solo(self) -> bool:
        """Whether the agent works alone (``--solo``): no customer, the agent gets the
        task's ticket and the user tools."""
        return self.config.solo

    @property
    def user_tool_schemas(self) -> list[dict[str, Any]]:
        """The tools the customer may call in this episode (none in solo mode, where the
        agent has them)."""
        return [] if self.solo else list(self.domain.user_tool_schemas)

    def agent_model(self) -> ModelSpec:
        """The agent's model, from ``--agent-model`` and friends."""
        return self._model_spec(_AGENT_SIDE)

    def user_model(self) -> ModelSpec:
        """The simulated user's model, from ``--user-model`` and friends."""
        return self._model_spec(_USER_SIDE)

    def _model_spec(self, side: _ModelSide) -> ModelSpec:
        """A model of one side, with the run's retry, timeout and cache settings."""
        config = self.config
        model = getattr(config, f"{side.role}_model")
        if not model:
            strategy = getattr(config, side.role)
            raise ConfigError(f"{side.label} {strategy!r} needs a model: pass --{side.role}-model")
        return ModelSpec(
            model=model,
            provider=getattr(config, f"{side.role}_provider"),
            api_base=getattr(config, f"{side.role}_api_base"),
            temperature=getattr(config, side.temperature_field),
            max_retries=config.max_retries,
            retry_base_s=config.retry_base_s,
            timeout_s=config.timeout_s,
            role=side.role,
            cache_path=self.cache_path(),
            cache_scope=self.cache_scope(),
        )

    def cache_path(self) -> Path | None:
        """The response cache, when the run uses one."""
        return response_cache_path() if self.config.cache else None

    def cache_scope(self) -> str:
        """What keeps cached answers of different episodes apart."""
        return f"{self.domain.name}:{self.task_id}:{self.trial}"
