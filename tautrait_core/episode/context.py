"""What agents, user simulators and trait backends know about the episode they serve."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tautrait_core.config.parts import (
    AgentSettings,
    JudgeSettings,
    Limits,
    TransportSettings,
    UserSettings,
)
from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.domain import Domain
from tautrait_core.errors import ConfigError
from tautrait_core.llm.client import ModelSpec
from tautrait_core.paths import response_cache_path
from tautrait_core.types.task import Task


@dataclass(frozen=True)
class EpisodeContext:
    """One episode's fixed inputs: what it runs and the parts of the run's configuration it
    uses (storage and the executor stay with the run).

    Attributes:
        domain: The domain (policy, tools, schemas).
        task: The task being run.
        task_id: The task's index in its task set.
        trial: The trial number (0-based).
        seed: A per-episode seed derived from the run seed, task and trial.
        protocol: How the episode runs: its task set's protocol (``"tau-bench"`` or
            ``"tau2"``, see :class:`tautrait_core.domain.domain.TaskSet`); a dual-control
            domain and solo mode always run with τ²'s (:attr:`tau2`).
        rules: Whose rules a τ²-style episode follows: its task set's ``"tau2"`` (the
            fork) or ``"tau3"`` (τ²-bench v1.x), see :class:`TaskSet`.
        agent: The agent's strategy, model and temperature.
        user: The simulated user's strategy, model, temperature and traits.
        judge: The model that judges NL assertions, if any.
        transport: Retries, timeouts and the response cache of every model request.
        limits: The step and tool-error limits.
        solo: Whether the agent works alone (``--solo``): no customer, the agent gets the
            task's ticket and the user tools.
        plugin_options: The value of every run option the loaded plugins declare (as given,
            else the option's default); read one with :meth:`plugin_option`.
    """

    domain: Domain
    task: Task
    task_id: int
    trial: int
    seed: int
    protocol: Literal["tau-bench", "tau2"] = "tau-bench"
    rules: Literal["tau2", "tau3"] = "tau2"
    agent: AgentSettings = field(default_factory=AgentSettings)
    user: UserSettings = field(default_factory=UserSettings)
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    transport: TransportSettings = field(default_factory=TransportSettings)
    limits: Limits = field(default_factory=Limits)
    solo: bool = False
    plugin_options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of_run(
        cls,
        config: RunConfig,
        domain: Domain,
        task: Task,
        task_id: int = 0,
        trial: int = 0,
        seed: int = 0,
        protocol: Literal["tau-bench", "tau2"] = "tau-bench",
        plugin_options: Mapping[str, Any] | None = None,
        rules: Literal["tau2", "tau3"] = "tau2",
    ) -> EpisodeContext:
        """The context of one episode of a run configured by ``config``: its parts, and
        ``plugin_options`` (the run's option values with defaults filled in; by default the
        options as given in ``config``)."""
        return cls(
            domain=domain,
            task=task,
            task_id=task_id,
            trial=trial,
            seed=seed,
            protocol=protocol,
            rules=rules,
            agent=config.agent,
            user=config.user,
            judge=config.judge,
            transport=config.transport,
            limits=config.limits,
            solo=config.solo,
            plugin_options=dict(
                config.plugin_options if plugin_options is None else plugin_options
            ),
        )

    @property
    def tau2(self) -> bool:
        """Whether the episode runs with τ²-bench's protocol: every tool call of a message
        runs in order on the side that made it, the agent greets first, steps count hops,
        and the customer may stop, ask for a transfer or declare the request out of scope."""
        return self.protocol == "tau2" or self.domain.dual_control or self.solo

    @property
    def user_tool_schemas(self) -> list[dict[str, Any]]:
        """The tools the customer may call in this episode: the domain's, or those the task
        names (τ³'s ``user_tools``; ``[]``: none), and none in solo mode, where the agent
        has them."""
        if self.solo:
            return []
        schemas = list(self.domain.user_tool_schemas)
        allowed = self.task.user_tools  # τ³: the task's own choice (None: all of them)
        if allowed is None:
            return schemas
        return [schema for schema in schemas if schema["function"]["name"] in allowed]

    def plugin_option(self, name: str) -> Any:
        """The value of the run option ``name`` a plugin declares: as given, else its default.

        Raises:
            ConfigError: no loaded plugin declares ``name``.
        """
        if name not in self.plugin_options:
            raise ConfigError(
                f"no installed plugin declares the run option {name!r} "
                "(the loaded plugins and their options: tautrait plugins)"
            )
        return self.plugin_options[name]

    def agent_model(self) -> ModelSpec:
        """The agent's model, from ``--agent-model`` and friends."""
        agent = self.agent
        if not agent.model:
            raise ConfigError(f"agent {agent.strategy!r} needs a model: pass --agent-model")
        return self._model_spec(
            agent.model, agent.provider, agent.api_base, agent.temperature, "agent"
        )

    def user_model(self) -> ModelSpec:
        """The simulated user's model, from ``--user-model`` and friends."""
        user = self.user
        if not user.model:
            raise ConfigError(f"user simulator {user.strategy!r} needs a model: pass --user-model")
        return self._model_spec(user.model, user.provider, user.api_base, user.temperature, "user")

    def _model_spec(
        self,
        model: str,
        provider: str | None,
        api_base: str | None,
        temperature: float | None,
        role: str,
    ) -> ModelSpec:
        """A model of one side, with the run's retry, timeout and cache settings."""
        transport = self.transport
        return ModelSpec(
            model=model,
            provider=provider,
            api_base=api_base,
            temperature=temperature,
            max_retries=transport.max_retries,
            retry_base_s=transport.retry_base_s,
            timeout_s=transport.timeout_s,
            role=role,
            cache_path=self.cache_path(),
            cache_scope=self.cache_scope(),
        )

    def cache_path(self) -> Path | None:
        """The response cache, when the run uses one."""
        return response_cache_path() if self.transport.cache else None

    def cache_scope(self) -> str:
        """What keeps cached answers of different episodes apart."""
        return f"{self.domain.name}:{self.task_id}:{self.trial}"
