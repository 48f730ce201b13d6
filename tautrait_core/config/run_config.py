"""The run configuration: :class:`RunConfig`, its parts, and its flat form.

A configuration is written flat wherever people and files give it: ``tautrait run``'s
options, sweep files, ``RunConfig(agent_model=..., traits=...)`` and the configuration a
stored run keeps (``agent_model``, ``timeout_s``, upstream aliases such as ``model`` and
``env``). :class:`RunConfig` reads that form into its parts and writes it back unchanged
(``model_dump()``), so stored runs and sweeps keep their layout.

Keys that are neither settings nor their aliases are kept as plugin options (a plugin's own
``--name``, declared with a :class:`~tautrait_core.run_options.RunOption`); preparing the run
checks them against the loaded plugins (:mod:`tautrait_core.run.plugin_options`). This
module looks nothing up in the plugin registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Self

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from tautrait_core.config.parts import (
    FLAT_FIELDS,
    FLAT_NAME,
    PARTS,
    AgentSettings,
    ExecutorSettings,
    JudgeSettings,
    Limits,
    RetrievalSettings,
    StorageSettings,
    TransportSettings,
    UserSettings,
)
from tautrait_core.errors import ConfigError

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
"""Flat keys that say how a run executes, not what it measures: left out of
:meth:`RunConfig.settings` (so they never make two runs incomparable) and taken from the new
command line when a run is resumed."""

RESUME_SETTINGS = EXECUTION_SETTINGS | {
    "agent_api_base",
    "user_api_base",
    "judge_api_base",
    "retrieval_api_base",
}
"""Flat keys that ``--resume`` takes from the new command line when they are given there (the
execution settings and the model servers, which may move between sessions); every other
key defines the run, and giving it with a different value is refused on resume."""

OMITTED_AT_DEFAULT = {"max_errors": None, "solo": False}
"""Settings added after runs and sweeps were first stored: left out of
:meth:`RunConfig.settings` at their default, so a run or sweep stored before them still
compares (and resumes) as equal."""

LEFT_OUT_AT_DEFAULT: dict[str, Any] = {
    "retrieval": None,
    "retrieval_model": None,
    "retrieval_api_base": None,
    "reward_basis": None,
    "episode_timeout_s": None,
    "enforce_communication_protocol": False,
}
"""Settings left out of the flat form at their default: those of domains with documents,
and the τ³ options, so that runs that do not use them, and runs stored before them, keep
their layout (and compare, and resume, as equal)."""

MOVED_TO_PLUGINS = {"steer_endpoint": "steer_endpoint", "endpoint": "steer_endpoint"}
"""Former RunConfig fields (and their aliases) now declared by a plugin, with the plugin
option each became. Stored runs and library calls that still give them keep working: the
value moves into ``plugin_options`` (a ``None`` value is dropped)."""

FLAT_ORDER = (
    "domain",
    "task_set",
    *list(FLAT_FIELDS)[:12],
    "num_trials",
    "task_ids",
    "start",
    "end",
    "seed",
    "shuffle",
    *list(FLAT_FIELDS)[12:17],
    "solo",
    *list(FLAT_FIELDS)[17:],
    "plugin_options",
)
"""Every flat key, in the order a stored run lists them."""


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
    """Everything that defines a run: the domain and the episodes to run, and its parts.

    Built from the flat form (``RunConfig(domain="retail", agent_model="gpt-4o",
    traits="impatience=high")``; upstream τ-Trait names such as ``env``, ``model``,
    ``model_provider``, ``user_strategy``, ``task_split``, ``max_concurrency``,
    ``trait_dict``, ``start_index`` and ``end_index`` are accepted too) or from parts
    (``RunConfig(domain="retail", agent=AgentSettings(model="gpt-4o"))``).
    """

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    domain: str | None = Field(None, validation_alias=AliasChoices("domain", "env"))
    """``None`` only before it is given: a run needs a domain (see: tautrait plugins)."""
    task_set: str | None = Field(None, validation_alias=AliasChoices("task_set", "task_split"))
    num_trials: int = Field(1, ge=1)
    task_ids: list[int] | None = None
    start: int = Field(0, ge=0, validation_alias=AliasChoices("start", "start_index"))
    end: int = Field(-1, validation_alias=AliasChoices("end", "end_index"))
    seed: int = 10
    shuffle: bool = False
    solo: bool = False
    """Solo mode (domains with a solo policy, e.g. τ²'s mock and telecom): no customer; the
    agent gets the task's ticket and the user tools, and ends the episode itself."""

    agent: AgentSettings = Field(default_factory=AgentSettings)
    user: UserSettings = Field(default_factory=UserSettings)
    judge: JudgeSettings = Field(default_factory=JudgeSettings)
    transport: TransportSettings = Field(default_factory=TransportSettings)
    storage: StorageSettings = Field(default_factory=StorageSettings)
    executor: ExecutorSettings = Field(default_factory=ExecutorSettings)
    limits: Limits = Field(default_factory=Limits)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)

    plugin_options: dict[str, Any] = Field(default_factory=dict)
    """Values of the run options plugins declare, by option name, as given; preparing the
    run validates them and leaves out those equal to the option's default."""

    @model_validator(mode="before")
    @classmethod
    def _from_flat(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        return _structured(dict(data))

    @field_validator("task_ids", mode="before")
    @classmethod
    def _task_ids(cls, value: object) -> object:
        return parse_task_ids(value) if isinstance(value, str) else value

    @field_validator("shuffle", mode="before")
    @classmethod
    def _shuffle(cls, value: object) -> bool:
        return bool(value)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.end != -1 and self.end < self.start:
            raise ConfigError(f"--end ({self.end}) is before --start ({self.start})")
        if self.task_ids == []:
            raise ConfigError("--task-ids is empty: give task ids (e.g. 0,3,7) or leave it out")
        return self

    @model_serializer(mode="wrap")
    def _to_flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        nested = handler(self)
        flat = {}
        for key in FLAT_ORDER:
            where = FLAT_FIELDS.get(key)
            if where is None:
                if key in nested:
                    flat[key] = nested[key]
            elif where.field in nested.get(where.part, {}):
                value = nested[where.part][where.field]
                if key not in LEFT_OUT_AT_DEFAULT or value != LEFT_OUT_AT_DEFAULT[key]:
                    flat[key] = value
        return flat

    def given(self) -> set[str]:
        """The flat keys that were given (not left at their default)."""
        keys = set(self.model_fields_set) - set(PARTS) - {"plugin_options"}
        for name in PARTS:
            keys.update(FLAT_NAME[name, field] for field in getattr(self, name).model_fields_set)
        return keys

    def flat(self) -> dict[str, Any]:
        """The flat form, as stored with a run (JSON-ready)."""
        return self.model_dump(mode="json")

    def with_settings(self, **changes: Any) -> RunConfig:
        """A copy with flat keys changed (``config.with_settings(user="llm")``)."""
        return RunConfig.model_validate({**self.model_dump(), **changes})

    def settings(self) -> dict[str, Any]:
        """The settings that make two runs comparable (all but :data:`EXECUTION_SETTINGS`)."""
        data = {k: v for k, v in self.model_dump().items() if k not in EXECUTION_SETTINGS}
        data["traits"] = self.user.traits.as_words()
        for name, default in OMITTED_AT_DEFAULT.items():
            if data.get(name) == default:
                del data[name]
        return data


def _structured(data: dict[str, Any]) -> dict[str, Any]:
    """A flat (or partly structured) configuration as RunConfig's fields and parts."""
    provider = data.get("user_provider", data.get("user_model_provider"))
    if isinstance(provider, str) and provider.startswith("steer"):
        # upstream selects steering with --user-model-provider steer (or steer_rephraser)
        data = {k: v for k, v in data.items() if k not in ("user_provider", "user_model_provider")}
        data.setdefault("trait_backend", "steer")
    fields: dict[str, Any] = {}
    parts: dict[str, dict[str, Any]] = {name: {} for name in PARTS}
    given_parts: dict[str, Any] = {}
    options = dict(data.pop("plugin_options", None) or {})
    for key, value in data.items():
        if key in PARTS and isinstance(value, Mapping | BaseModel):
            given_parts[key] = value
            continue
        name = _flat_aliases().get(key, key)
        where = FLAT_FIELDS.get(name)
        if where is not None:
            parts[where.part].setdefault(where.field, value)
        elif name in _top_level_keys():
            fields.setdefault(name, value)
        elif key in MOVED_TO_PLUGINS:
            if value is not None:
                options[MOVED_TO_PLUGINS[key]] = value
        else:
            options[key] = value
    errors: list[Any] = []
    for name, part_class in PARTS.items():
        given = given_parts.get(name)
        if given is not None and parts[name]:
            raise ConfigError(f"give {name} settings either as a part or as flat keys, not both")
        if isinstance(given, BaseModel):
            fields[name] = given
            continue
        try:
            fields[name] = part_class.model_validate(given if given is not None else parts[name])
        except ValidationError as exc:
            errors += [_flat_error(name, error, given is None) for error in exc.errors()]
    if errors:
        raise ValidationError.from_exception_data("RunConfig", errors)
    fields["plugin_options"] = options
    return fields


def _flat_error(part: str, error: Any, flat: bool) -> dict[str, Any]:
    """A part's validation error (as pydantic's ``InitErrorDetails``) located at its flat
    key (``agent_model``)."""
    loc = tuple(error["loc"])
    if flat and loc:
        loc = (FLAT_NAME.get((part, str(loc[0])), f"{part}.{loc[0]}"), *loc[1:])
    else:
        loc = (part, *loc)
    details = {"type": error["type"], "loc": loc, "input": error.get("input")}
    if error.get("ctx"):
        details["ctx"] = error["ctx"]
    return details


@cache
def _top_level_keys() -> frozenset[str]:
    return frozenset(set(RunConfig.model_fields) - set(PARTS) - {"plugin_options"})


@cache
def flat_keys() -> dict[str, tuple[str, ...]]:
    """Every flat key (``plugin_options`` aside) with the other spellings it is accepted under,
    in stored order: ``{"agent_model": ("model",), ...}``."""
    keys = {name: flat.aliases for name, flat in FLAT_FIELDS.items()}
    for name, field in RunConfig.model_fields.items():
        alias = field.validation_alias
        if name not in PARTS and name != "plugin_options":
            choices = alias.choices if isinstance(alias, AliasChoices) else ()
            keys[name] = tuple(str(choice) for choice in choices if choice != name)
    return {name: keys[name] for name in FLAT_ORDER if name in keys}


@cache
def _flat_aliases() -> dict[str, str]:
    """Every other accepted spelling of a flat key, mapped to the key."""
    return {alias: name for name, aliases in flat_keys().items() for alias in aliases}


@cache
def run_config_keys() -> frozenset[str]:
    """Every flat key a configuration takes, upstream aliases included."""
    return frozenset({*FLAT_ORDER, *_flat_aliases()})


def stored_plugin_options(config: dict[str, Any]) -> dict[str, Any]:
    """The plugin options of a stored configuration (as stored, not validated), including
    those of a run stored while the option was still a RunConfig field."""
    options = {
        MOVED_TO_PLUGINS[key]: value
        for key, value in config.items()
        if key in MOVED_TO_PLUGINS and value is not None
    }
    return {**options, **(config.get("plugin_options") or {})}
