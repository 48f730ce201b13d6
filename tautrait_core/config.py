""":class:`RunConfig`: everything that defines a run, and the settings that execute it.

Upstream tau-trait field names are accepted as aliases, so upstream configurations port over.
"""

from __future__ import annotations

from os import PathLike
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from tautrait_core.errors import ConfigError
from tautrait_core.trait_mix import TraitMix


def _alias(*names: str) -> Any:
    return Field(validation_alias=AliasChoices(*names))


class RunConfig(BaseModel):
    """Everything that defines a run.

    Upstream tau-trait field names (``env``, ``model``, ``model_provider``,
    ``user_model_provider``, ``agent_strategy``, ``user_strategy``, ``task_split``,
    ``max_concurrency``, ``trait_dict``, ``start_index``, ``end_index``) are accepted as
    aliases, so ``RunConfig(env="retail", model="gpt-4o", ...)`` works unchanged.
    """

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    domain: str = Field("retail", validation_alias=AliasChoices("domain", "env"))
    task_set: str | None = Field(None, validation_alias=AliasChoices("task_set", "task_split"))
    agent: str = Field("tool-calling", validation_alias=AliasChoices("agent", "agent_strategy"))
    agent_model: str | None = Field(None, validation_alias=AliasChoices("agent_model", "model"))
    agent_provider: str | None = Field(
        None, validation_alias=AliasChoices("agent_provider", "model_provider")
    )
    agent_api_base: str | None = None
    user: str | None = Field(None, validation_alias=AliasChoices("user", "user_strategy"))
    """``None``: ``scripted`` for agents that need no model (oracle), else ``llm``."""
    user_model: str | None = "gpt-4o"
    user_provider: str | None = Field(
        None, validation_alias=AliasChoices("user_provider", "user_model_provider")
    )
    user_api_base: str | None = None
    steer_endpoint: str | None = Field(
        None, validation_alias=AliasChoices("steer_endpoint", "endpoint")
    )
    """URL of a steer service (upstream ``--endpoint``), used by the ``steer`` trait backend."""
    trait_backend: str = "prompt"
    traits: TraitMix = Field(
        default_factory=TraitMix, validation_alias=AliasChoices("traits", "trait_dict")
    )
    temperature: float = 0.0
    user_temperature: float | None = None
    """``None`` leaves the provider's default, as upstream's user simulator does."""
    num_trials: int = Field(1, ge=1)
    task_ids: list[int] | None = None
    start: int = Field(0, ge=0, validation_alias=AliasChoices("start", "start_index"))
    end: int = Field(-1, validation_alias=AliasChoices("end", "end_index"))
    seed: int = 10
    shuffle: bool = False
    concurrency: int = Field(
        1, ge=1, validation_alias=AliasChoices("concurrency", "max_concurrency")
    )
    max_steps: int = Field(30, ge=1)
    max_retries: int = Field(4, ge=0)
    max_cost: float | None = Field(None, gt=0)
    """Stop starting episodes once the run has spent this many dollars."""
    cache: bool = False
    """Answer repeated identical model requests from the response cache."""
    retry_base_s: float = Field(1.0, ge=0)
    timeout_s: float = Field(120.0, gt=0)
    few_shot_file: str | None = Field(
        None, validation_alias=AliasChoices("few_shot_file", "few_shot_displays_path")
    )
    results_db: str | None = None
    resume: str | None = None
    run_name: str | None = None
    export_path: str | None = Field(None, validation_alias=AliasChoices("export_path", "result_fp"))
    log_dir: str | None = None
    executor: Literal["local", "ray"] = "local"
    """Where episodes run: in this process, or on Ray actors (extra ``tautrait-core[ray]``)."""
    ray_address: str | None = None
    """Ray cluster to connect to (``None``: start a local Ray instance)."""

    @field_validator("traits", mode="before")
    @classmethod
    def _traits(cls, value: object) -> TraitMix:
        if isinstance(value, TraitMix):
            return value
        if isinstance(value, str):
            return TraitMix.parse(value)
        return TraitMix.from_trait_dict(value or {})

    @model_validator(mode="before")
    @classmethod
    def _upstream_steer_provider(cls, data: Any) -> Any:
        # upstream selects steering with --user-model-provider steer (or steer_rephraser)
        if isinstance(data, dict):
            provider = data.get("user_provider", data.get("user_model_provider"))
            if isinstance(provider, str) and provider.startswith("steer"):
                data = {
                    k: v
                    for k, v in data.items()
                    if k not in ("user_provider", "user_model_provider")
                }
                data.setdefault("trait_backend", "steer")
        return data

    @field_validator("results_db", "few_shot_file", "export_path", "log_dir", mode="before")
    @classmethod
    def _paths(cls, value: object) -> object:
        return str(value) if isinstance(value, PathLike) else value

    @field_validator("shuffle", mode="before")
    @classmethod
    def _shuffle(cls, value: object) -> bool:
        return bool(value)

    @model_validator(mode="after")
    def _check(self) -> RunConfig:
        if self.end != -1 and self.end < self.start:
            raise ConfigError(f"--end ({self.end}) is before --start ({self.start})")
        return self

    def settings(self) -> dict[str, Any]:
        """The settings that make two runs comparable (everything but bookkeeping)."""
        data = self.model_dump(
            exclude={
                "results_db",
                "resume",
                "run_name",
                "export_path",
                "log_dir",
                "concurrency",
                "max_retries",
                "retry_base_s",
                "timeout_s",
                "max_cost",
                "cache",
                "executor",
                "ray_address",
            }
        )
        data["traits"] = self.traits.as_words()
        return data
