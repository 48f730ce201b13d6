"""What agents, user simulators and trait backends know about the episode they serve."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tautrait_core.config import RunConfig
from tautrait_core.domain.domain import Domain
from tautrait_core.domain.task import Task
from tautrait_core.errors import ConfigError
from tautrait_core.llm.client import ModelSpec
from tautrait_core.paths import response_cache_path


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
    """

    domain: Domain
    task: Task
    task_id: int
    trial: int
    config: RunConfig
    seed: int

    def agent_model(self) -> ModelSpec:
        """The agent's model, from ``--agent-model`` and friends."""
        config = self.config
        if not config.agent_model:
            raise ConfigError(f"agent {config.agent!r} needs a model: pass --agent-model")
        return self._model_spec(
            "agent",
            config.agent_model,
            config.agent_provider,
            config.agent_api_base,
            config.temperature,
        )

    def user_model(self) -> ModelSpec:
        """The simulated user's model, from ``--user-model`` and friends."""
        config = self.config
        if not config.user_model:
            raise ConfigError(f"user simulator {config.user!r} needs a model: pass --user-model")
        return self._model_spec(
            "user",
            config.user_model,
            config.user_provider,
            config.user_api_base,
            config.user_temperature,
        )

    def _model_spec(
        self,
        role: str,
        model: str,
        provider: str | None,
        api_base: str | None,
        temperature: float | None,
    ) -> ModelSpec:
        """A model of one side, with the run's retry, timeout and cache settings."""
        return ModelSpec(
            model=model,
            provider=provider,
            api_base=api_base,
            temperature=temperature,
            max_retries=self.config.max_retries,
            retry_base_s=self.config.retry_base_s,
            timeout_s=self.config.timeout_s,
            role=role,
            cache_path=self.cache_path(),
            cache_scope=self.cache_scope(),
        )

    def cache_path(self) -> Path | None:
        """The response cache, when the run uses one."""
        return response_cache_path() if self.config.cache else None

    def cache_scope(self) -> str:
        """What keeps cached answers of different episodes apart."""
        return f"{self.domain.name}:{self.task_id}:{self.trial}"
