"""The run configuration (:class:`RunConfig`) and the run options plugins declare.

Field names follow the upstream tau-bench / tau-trait types where they exist, so upstream
configurations and scripts port over. A plugin's own options (e.g. the steer backend's
``--endpoint``) are not fields here: the plugin declares them as :class:`RunOption` through
the ``register_run_options`` hook, and a run keeps their values in
``RunConfig.plugin_options``.
"""

from __future__ import annotations

from functools import cache
from os import PathLike
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from tautrait_core.errors import ConfigError
from tautrait_core.run_options import RunOption
from tautrait_core.trait_mix import TRAIT_ALIASES, TraitMix

EXECUTION_SETTINGS = frozenset(
    {
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
"""RunConfig fields that say how a run executes, not what it measures: left out of
:meth:`RunConfig.settings` (so they never make two runs incomparable) and taken from the new
command line when a run is resumed."""

TAU_BENCH_MAX_STEPS = 30
"""Default step limit with τ-bench's protocol (agent steps)."""
TAU2_MAX_STEPS = 200
"""Default step limit with τ²-bench's protocol (hops), as ``tau2 run`` has it."""

RESUME_SETTINGS = EXECUTION_SETTINGS | {"agent_api_base", "user_api_base", "judge_api_base"}
"""Fields that ``--resume`` takes from the new command line when they are given there (the
execution settings and the model servers, which may move between sessions); every other
field defines the run, and giving it with a different value is refused on resume."""

OMITTED_AT_DEFAULT = {"max_errors": None, "solo": False}
"""Settings added after runs and sweeps were first stored: left out of
:meth:`RunConfig.settings` at their default, so a run or sweep stored before them still
compares (and resumes) as equal."""

MOVED_TO_PLUGINS = {"steer_endpoint": "steer_endpoint", "endpoint": "steer_endpoint"}
"""Former RunConfig fields (and their aliases) now declared by a plugin, with the plugin
option each became. Stored runs and library calls that still give them keep working: the
value moves into ``plugin_options`` (a ``None`` value is dropped)."""


def declared_run_options() -> dict[str, RunOption]:
    """Every run option the loaded plugins declare, by name and by alias.

    An option that takes the name of a RunConfig field is refused (see ``tautrait plugins``
    and the warning) and left out.
    """
    from tautrait_core.plugins import get_plugin_manager

    manager = get_plugin_manager()
    options = manager.run_options()
    for key, option in list(options.items()):
        if key in run_config_keys() and key not in MOVED_TO_PLUGINS:
            problem = f"uses the name {key!r} of a RunConfig field"
            source = manager.source("run_option", option.name)
            manager.refuse("run_option", option.name, source, problem)
            options = {k: v for k, v in options.items() if v is not option}
    return options


def parse_task_ids(text: str) -> list[int]:
    """Task ids written as ``--task-ids`` takes them: ``'0,3,7'`` or ``'0 3 7'``.

    Raises:
        ValueError: a part is not an integer.
    """
    try:
        return [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise ValueError(f"task ids are integers, e.g. '0,3,7'; got {text!r}") from None


class RunConfig(BaseModel):
    """Everything that defines a run.

    Upstream tau-trait field names (``env``, ``model``, ``model_provider``,
    ``user_model_provider``, ``agent_strategy``, ``user_strategy``, ``task_split``,
    ``max_concurrency``, ``trait_dict``, ``start_index``, ``end_index``) are accepted as
    aliases, so ``RunConfig(env="retail", model="gpt-4o", ...)`` works unchanged.
    """

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    domain: str | None = Field(None, validation_alias=AliasChoices("domain", "env"))
    """``None`` only before it is given: a run needs a domain (see: tautrait plugins)."""
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
    max_steps: int | None = Field(None, ge=1)
    """Agent steps (τ-bench protocol), or hops of the conversation (τ² protocol: every
    agent message, user message and batch of tool results counts one). ``None``: the
    protocol's default, 30 agent steps or τ²-bench's 200 hops (:meth:`step_limit`); a
    prepared run stores the number it used."""
    max_errors: int | None = Field(None, ge=1)
    """End the episode after this many failed tool calls (either side); ``None``: 10 with the
    τ² protocol (τ²-bench's default, which it never enforces), no limit with τ-bench's."""
    judge_model: str | None = None
    """Judges the NL assertions of τ²-style tasks whose reward basis holds NL_ASSERTION;
    without one such episodes are not scoreable (recorded as errors, re-run on resume)."""
    judge_api_base: str | None = None
    solo: bool = False
    """Solo mode (domains with a solo policy, e.g. τ²'s mock and telecom): no customer; the
    agent gets the task's ticket and the user tools, and ends the episode itself."""
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
    plugin_options: dict[str, Any] = Field(default_factory=dict)
    """Values of the run options plugins declare (:class:`RunOption`), by option name; only
    those that differ from the option's default. Declared options may also be given by name
    or alias at the top level (``RunConfig(endpoint=...)``)."""

    def step_limit(self, tau2: bool) -> int:
        """The step limit of an episode: ``max_steps``, else 200 hops with the τ² protocol
        (τ²-bench's default) or 30 agent steps with τ-bench's."""
        if self.max_steps is not None:
            return self.max_steps
        return TAU2_MAX_STEPS if tau2 else TAU_BENCH_MAX_STEPS

    @model_validator(mode="before")
    @classmethod
    def _collect_plugin_options(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = run_config_keys()
        given = data.get("plugin_options") or {}
        if not isinstance(given, dict):
            return data  # pydantic reports the wrong type
        rest = {key: value for key, value in data.items() if key in fields}
        rest.pop("plugin_options", None)
        given = dict(given)
        declared: dict[str, RunOption] = {}
        for key, value in data.items():
            if key in fields:
                continue
            if key in MOVED_TO_PLUGINS:
                given[MOVED_TO_PLUGINS[key]] = value
                continue
            declared = declared or declared_run_options()
            if key in declared:
                given[declared[key].name] = value
            else:
                rest[key] = value  # not a run option: extra="forbid" names it
        if given:
            rest["plugin_options"] = _plugin_option_values(given, declared or None)
        return rest

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

    @field_validator("task_ids", mode="before")
    @classmethod
    def _task_ids(cls, value: object) -> object:
        return parse_task_ids(value) if isinstance(value, str) else value

    @field_validator("shuffle", mode="before")
    @classmethod
    def _shuffle(cls, value: object) -> bool:
        return bool(value)

    @model_validator(mode="after")
    def _check(self) -> RunConfig:
        if self.end != -1 and self.end < self.start:
            raise ConfigError(f"--end ({self.end}) is before --start ({self.start})")
        if self.task_ids == []:
            raise ConfigError("--task-ids is empty: give task ids (e.g. 0,3,7) or leave it out")
        return self

    def settings(self) -> dict[str, Any]:
        """The settings that make two runs comparable (all but :data:`EXECUTION_SETTINGS`)."""
        data = self.model_dump(exclude=set(EXECUTION_SETTINGS))
        data["traits"] = self.traits.as_words()
        for name, default in OMITTED_AT_DEFAULT.items():
            if data.get(name) == default:
                del data[name]
        return data

    def plugin_option(self, name: str) -> Any:
        """The value of the plugin-declared run option ``name``: as given, else its default.

        Raises:
            ConfigError: no loaded plugin declares ``name``.
        """
        if name in self.plugin_options:
            return self.plugin_options[name]
        option = declared_run_options().get(name)
        if option is None:
            raise ConfigError(
                f"no installed plugin declares the run option {name!r} "
                "(the loaded plugins and their options: tautrait plugins)"
            )
        return option.default


def stored_plugin_options(config: dict[str, Any]) -> dict[str, Any]:
    """The plugin options of a stored configuration (as stored, not validated), including
    those of a run stored while the option was still a RunConfig field."""
    options = {
        MOVED_TO_PLUGINS[key]: value
        for key, value in config.items()
        if key in MOVED_TO_PLUGINS and value is not None
    }
    return {**options, **(config.get("plugin_options") or {})}


@cache
def run_config_keys() -> frozenset[str]:
    """RunConfig's field names and their upstream aliases (the keys a configuration takes)."""
    keys = set()
    for name, field in RunConfig.model_fields.items():
        keys.add(name)
        if isinstance(field.validation_alias, AliasChoices):
            keys.update(str(choice) for choice in field.validation_alias.choices)
    return frozenset(keys)


def _plugin_option_values(
    given: dict[str, Any], declared: dict[str, RunOption] | None
) -> dict[str, Any]:
    """Plugin option values by canonical name, validated, without those equal to the default.

    Names no loaded plugin declares are kept as given (a stored run may name an option of a
    plugin not installed here); :func:`~tautrait_core.run.prepared.prepare` refuses them.
    """
    if declared is None:
        declared = declared_run_options()
    values: dict[str, Any] = {}
    for key, value in given.items():
        option = declared.get(key)
        if option is None:
            if value is not None:
                values[key] = value
            continue
        value = option.validate(value)
        if value != option.default:
            values[option.name] = value
    return values
