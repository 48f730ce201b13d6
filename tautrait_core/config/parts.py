"""The parts of a run's configuration, each a group of settings that change together.

An episode receives only the parts it uses (its agent, its user, the judge, the model
transport and the limits); storage and the executor stay with the run. Every field also has
a flat name, the key it takes on the command line, in sweep files and in stored runs
(``agent_model`` for :attr:`AgentSettings.model`); :data:`FLAT_FIELDS` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tautrait_core.errors import ConfigError
from tautrait_core.trait_mix import TRAIT_ALIASES, TraitMix

TAU_BENCH_MAX_STEPS = 30
"""Default step limit with τ-bench's protocol (agent steps)."""
TAU2_MAX_STEPS = 200
"""Default step limit with τ²-bench's protocol (hops), as ``tau2 run`` has it."""


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AgentSettings(_Part):
    """The agent under test: its strategy and the model it calls."""

    strategy: str = "tool-calling"
    """The registered agent (``--agent``)."""
    model: str | None = None
    provider: str | None = None
    api_base: str | None = None
    temperature: float = 0.0
    few_shot_file: str | None = None
    """Demonstrations of the ``few-shot`` agent."""

    @field_validator("few_shot_file", mode="before")
    @classmethod
    def _path(cls, value: object) -> object:
        return str(value) if isinstance(value, PathLike) else value


class UserSettings(_Part):
    """The simulated user: its strategy, model, traits and how the traits reach it."""

    strategy: str | None = None
    """The registered user simulator (``--user``); ``None``: ``scripted`` for agents that
    need no model (oracle), else ``llm`` (decided when the run is prepared)."""
    model: str | None = "gpt-4o"
    provider: str | None = None
    api_base: str | None = None
    temperature: float | None = None
    """``None`` leaves the provider's default, as upstream's user simulator does."""
    trait_backend: str = "prompt"
    traits: TraitMix = Field(default_factory=TraitMix)

    @field_validator("traits", mode="before")
    @classmethod
    def _traits(cls, value: object) -> TraitMix:
        if isinstance(value, TraitMix):
            return value
        if isinstance(value, str):
            names = [part.split("=")[0].strip().lower() for part in value.split(",") if part]
            names = [TRAIT_ALIASES.get(name, name) for name in names]
            repeated = sorted({name for name in names if names.count(name) > 1})
            if repeated:
                raise ConfigError(
                    f"--traits {value!r} gives {', '.join(repeated)} more than once; "
                    "give each trait one intensity"
                )
            return TraitMix.parse(value)
        return TraitMix.from_trait_dict(value or {})


class JudgeSettings(_Part):
    """The model that judges NL assertions of τ²-style tasks whose reward basis holds
    NL_ASSERTION; without one such episodes are not scoreable (recorded as errors, re-run on
    resume)."""

    model: str | None = None
    api_base: str | None = None
    reward_basis: list[str] | None = None
    """``--reward-basis``: the components a τ²-style reward is the product of, instead of
    each task's own basis (``DB``, ``ENV_ASSERTION``, ``ACTION``, ``NL_ASSERTION``,
    ``COMMUNICATE``); the official reward on the task's basis is kept beside it."""

    @field_validator("reward_basis", mode="before")
    @classmethod
    def _basis(cls, value: object) -> object:
        if isinstance(value, str):
            value = [item.strip() for item in value.split(",") if item.strip()]
        if isinstance(value, list):
            value = [str(item).upper() for item in value]
            unknown = [item for item in value if item not in REWARD_BASIS_NAMES]
            if unknown or not value:
                raise ConfigError(
                    f"--reward-basis takes a comma-separated list of "
                    f"{', '.join(REWARD_BASIS_NAMES)}; got {', '.join(unknown) or 'nothing'}"
                )
        return value


REWARD_BASIS_NAMES = ("DB", "ENV_ASSERTION", "ACTION", "NL_ASSERTION", "COMMUNICATE")
"""The components a τ²-style reward may be the product of (``--reward-basis``)."""


class RetrievalSettings(_Part):
    """How the agent searches a domain's documents (domains with a knowledge base)."""

    name: str | None = None
    """The registered retrieval configuration (``--retrieval``, τ³'s names: ``bm25``,
    ``grep_only``, ``full_kb``, ...); ``None``: the domain's default (``bm25``), decided
    when the run is prepared."""
    model: str | None = None
    """The embedding model of the dense configurations (``None``: the configuration's
    default, τ³'s ``text-embedding-3-large``)."""
    api_base: str | None = None
    """The OpenAI-compatible server the embedding model is called on."""


class TransportSettings(_Part):
    """How model requests are sent: retries, timeouts and the response cache."""

    max_retries: int = Field(4, ge=0)
    retry_base_s: float = Field(1.0, ge=0)
    timeout_s: float = Field(120.0, gt=0)
    cache: bool = False
    """Answer repeated identical model requests from the response cache."""


class StorageSettings(_Part):
    """Where results go: the results database, the run's name, upstream result files."""

    results_db: str | None = None
    resume: str | None = None
    run_name: str | None = None
    export_path: str | None = None
    log_dir: str | None = None

    @field_validator("results_db", "export_path", "log_dir", mode="before")
    @classmethod
    def _paths(cls, value: object) -> object:
        return str(value) if isinstance(value, PathLike) else value


class ExecutorSettings(_Part):
    """Where and how many episodes run at once."""

    kind: Literal["local", "ray"] = "local"
    """In this process, or on Ray actors (extra ``tautrait-core[ray]``)."""
    ray_address: str | None = None
    """Ray cluster to connect to (``None``: start a local Ray instance)."""
    concurrency: int = Field(1, ge=1)


class Limits(_Part):
    """When an episode or a run stops early."""

    max_steps: int | None = Field(None, ge=1)
    """Agent steps (τ-bench protocol), or hops of the conversation (τ² protocol: every
    agent message, user message and batch of tool results counts one). ``None``: the
    protocol's default, 30 agent steps or τ²-bench's 200 hops (:meth:`step_limit`); a
    prepared run stores the number it used."""
    max_errors: int | None = Field(None, ge=1)
    """End the episode after this many failed tool calls (either side); ``None``: 10 for a
    task set with τ³'s rules (τ²-bench v1.x), else no limit (τ²-bench's fork declares 10
    and never enforces it)."""
    max_cost: float | None = Field(None, gt=0)
    """Stop starting episodes once the run has spent this many dollars."""
    episode_timeout_s: float | None = Field(None, gt=0)
    """End an episode (``timeout``, scored 0) once it has run this many seconds, as τ³'s
    ``--timeout``: checked between turns, so a model call under way finishes first, and
    under τ³'s rules only when no tool call waits for its result. ``None``: no limit."""
    enforce_communication_protocol: bool = False
    """τ² protocol: a message with both text and tool calls ends the episode
    (``agent_error`` or ``user_error``, scored 0), as τ³'s
    ``--enforce-communication-protocol``."""

    def step_limit(self, tau2: bool) -> int:
        """The step limit of an episode: ``max_steps``, else 200 hops with the τ² protocol
        (τ²-bench's default) or 30 agent steps with τ-bench's."""
        if self.max_steps is not None:
            return self.max_steps
        return TAU2_MAX_STEPS if tau2 else TAU_BENCH_MAX_STEPS


PARTS: dict[str, type[_Part]] = {
    "agent": AgentSettings,
    "user": UserSettings,
    "judge": JudgeSettings,
    "transport": TransportSettings,
    "storage": StorageSettings,
    "executor": ExecutorSettings,
    "limits": Limits,
    "retrieval": RetrievalSettings,
}
"""RunConfig's parts by attribute name."""


@dataclass(frozen=True)
class FlatField:
    """Where a flat key (``agent_model``) lives in the parts (``agent.model``), and the
    other spellings it is accepted under (upstream τ-bench/τ-Trait names)."""

    part: str
    field: str
    aliases: tuple[str, ...] = ()


FLAT_FIELDS: dict[str, FlatField] = {
    "agent": FlatField("agent", "strategy", ("agent_strategy",)),
    "agent_model": FlatField("agent", "model", ("model",)),
    "agent_provider": FlatField("agent", "provider", ("model_provider",)),
    "agent_api_base": FlatField("agent", "api_base"),
    "user": FlatField("user", "strategy", ("user_strategy",)),
    "user_model": FlatField("user", "model"),
    "user_provider": FlatField("user", "provider", ("user_model_provider",)),
    "user_api_base": FlatField("user", "api_base"),
    "trait_backend": FlatField("user", "trait_backend"),
    "traits": FlatField("user", "traits", ("trait_dict",)),
    "temperature": FlatField("agent", "temperature"),
    "user_temperature": FlatField("user", "temperature"),
    "concurrency": FlatField("executor", "concurrency", ("max_concurrency",)),
    "max_steps": FlatField("limits", "max_steps"),
    "max_errors": FlatField("limits", "max_errors"),
    "judge_model": FlatField("judge", "model"),
    "judge_api_base": FlatField("judge", "api_base"),
    "reward_basis": FlatField("judge", "reward_basis"),
    "max_retries": FlatField("transport", "max_retries"),
    "max_cost": FlatField("limits", "max_cost"),
    "cache": FlatField("transport", "cache"),
    "retry_base_s": FlatField("transport", "retry_base_s"),
    "timeout_s": FlatField("transport", "timeout_s"),
    "few_shot_file": FlatField("agent", "few_shot_file", ("few_shot_displays_path",)),
    "results_db": FlatField("storage", "results_db"),
    "resume": FlatField("storage", "resume"),
    "run_name": FlatField("storage", "run_name"),
    "export_path": FlatField("storage", "export_path", ("result_fp",)),
    "log_dir": FlatField("storage", "log_dir"),
    "executor": FlatField("executor", "kind"),
    "ray_address": FlatField("executor", "ray_address"),
    "retrieval": FlatField("retrieval", "name", ("retrieval_config",)),
    "retrieval_model": FlatField("retrieval", "model"),
    "retrieval_api_base": FlatField("retrieval", "api_base"),
    "episode_timeout_s": FlatField("limits", "episode_timeout_s"),
    "enforce_communication_protocol": FlatField("limits", "enforce_communication_protocol"),
}
"""The flat key of every part field, in the order stored runs list them."""

FLAT_NAME = {(flat.part, flat.field): name for name, flat in FLAT_FIELDS.items()}
"""The flat key of a part field: ``FLAT_NAME["agent", "model"] == "agent_model"``."""
