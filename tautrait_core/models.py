"""Pydantic models shared by the core and plugins.

Field names follow the upstream tau-bench / tau-trait types where they exist (``Task``,
``Action``, the result record), so upstream task files, result files and scripts port over.
"""

from __future__ import annotations

import datetime as dt
import json
from enum import StrEnum
from os import PathLike
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_serializer,
    model_validator,
)

from tautrait_core.errors import ConfigError, TraitError

RESPOND_ACTION = "respond"
"""Name of the pseudo-action an agent uses to talk to the user (upstream ``respond``)."""

STOP_TOKEN = "###STOP###"
"""A user message containing this token ends the episode."""


class Action(BaseModel):
    """One agent action: a tool call, or ``respond`` with ``kwargs={"content": ...}``."""

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)


class Task(BaseModel):
    """A task: who the user is, what they want, and the gold actions and outputs.

    The reward compares the agent's final database with the database obtained by replaying
    ``actions``, and requires every string in ``outputs`` to appear in an agent reply.
    Unknown fields (upstream's ``annotator``) are ignored.
    """

    model_config = ConfigDict(extra="ignore")

    user_id: str
    instruction: str
    actions: list[Action] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)

    @classmethod
    def list_from_file(cls, path: str | PathLike[str]) -> list[Task]:
        """The tasks of a JSON file holding a list of task objects (a domain's task set)."""
        with open(path, encoding="utf-8") as file:
            return [cls.model_validate(item) for item in json.load(file)]


class ToolCall(BaseModel):
    """A tool call as a model sent it; ``arguments`` is the raw JSON text."""

    id: str
    name: str
    arguments: str = "{}"

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as a dict; raises ``ValueError`` if they are not a JSON object."""
        value = json.loads(self.arguments or "{}")
        if not isinstance(value, dict):
            raise ValueError("tool arguments must be a JSON object")
        return value


class Message(BaseModel):
    """One message of the agent-side conversation, in OpenAI chat form."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    name: str | None = None

    def to_openai(self) -> dict[str, Any]:
        """The message as an OpenAI / litellm chat message dict."""
        message: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in self.tool_calls
            ]
        if self.role == "tool":
            message["tool_call_id"] = self.tool_call_id
            message["name"] = self.name
        return message


# -- traits --------------------------------------------------------------------------------

TRAITS = ("impatience", "confusion", "skeptical", "incoherence")
"""The trait names of tau-trait, in their canonical order."""

TRAIT_ALIASES = {"skepticism": "skeptical", "impatient": "impatience", "incoherent": "incoherence"}
INTENSITY_WORDS = ("low", "medium", "high")
"""Intensity 0, 1 and 2, as upstream's trait_dict and the steer service spell them."""


def parse_intensity(trait: str, value: object) -> int:
    """An intensity given as 0/1/2 (int or digit string) or low/medium/high."""
    if isinstance(value, bool):
        raise TraitError(f"intensity of {trait!r} must be 0/1/2 or low/medium/high, not {value!r}")
    if isinstance(value, int) and value in (0, 1, 2):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("0", "1", "2"):
            return int(word)
        if word in INTENSITY_WORDS:
            return INTENSITY_WORDS.index(word)
    raise TraitError(
        f"invalid intensity {value!r} for trait {trait!r}: use 0, 1, 2 or low, medium, high"
    )


def canonical_trait(name: str) -> str:
    """The canonical trait name for ``name`` (aliases such as ``skepticism`` accepted)."""
    key = name.strip().lower()
    key = TRAIT_ALIASES.get(key, key)
    if key not in TRAITS:
        raise TraitError(f"unknown trait {name!r}: known traits are {', '.join(TRAITS)}")
    return key


class TraitMix(BaseModel):
    """Which traits the simulated user shows, each at intensity 0 (low) to 2 (high).

    An empty mix is the no-trait baseline.
    """

    model_config = ConfigDict(frozen=True)

    traits: dict[str, int] = Field(default_factory=dict)

    @field_validator("traits", mode="before")
    @classmethod
    def _validate(cls, value: object) -> dict[str, int]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise TraitError(f"a trait mix must be a mapping of trait to intensity, not {value!r}")
        result: dict[str, int] = {}
        for name, intensity in value.items():
            trait = canonical_trait(str(name))
            result[trait] = parse_intensity(trait, intensity)
        return {t: result[t] for t in TRAITS if t in result}

    @classmethod
    def parse(cls, spec: str | None) -> TraitMix:
        """Parse ``"impatience=2,confusion=low"`` (``""`` or ``"none"`` is the empty mix)."""
        if spec is None or spec.strip().lower() in ("", "none"):
            return cls()
        pairs: dict[str, str] = {}
        for part in spec.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise TraitError(
                    f"invalid trait {part.strip()!r}: write TRAIT=INTENSITY, "
                    "e.g. --traits impatience=high,confusion=1"
                )
            name, _, value = part.partition("=")
            pairs[name.strip()] = value.strip()
        return cls(traits=pairs)

    @classmethod
    def from_trait_dict(cls, data: object) -> TraitMix:
        """Read upstream's ``trait_dict`` form: ``{"impatience": "medium", ...}``.

        A wrapper object ``{"trait_dict": {...}}`` is accepted too.
        """
        if isinstance(data, dict) and set(data) == {"trait_dict"}:
            data = data["trait_dict"]
        return cls(traits=data)  # type: ignore[arg-type]

    @model_serializer
    def _serialize(self) -> dict[str, int]:
        return dict(self.traits)

    def as_words(self) -> dict[str, str]:
        """``{"impatience": "high"}``: the form upstream and the steer service use."""
        return {trait: INTENSITY_WORDS[level] for trait, level in self.traits.items()}

    def label(self) -> str:
        """A short stable label such as ``impatience=high,confusion=low`` or ``none``."""
        if not self.traits:
            return "none"
        return ",".join(f"{trait}={word}" for trait, word in self.as_words().items())

    def __bool__(self) -> bool:
        return bool(self.traits)


# -- results -------------------------------------------------------------------------------


class Outcome(StrEnum):
    """How an episode ended, as counted by the metrics."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    """Infrastructure failure: excluded from pass^k and re-run on resume."""


class Termination(StrEnum):
    """Why the conversation stopped."""

    USER_STOP = "user_stop"
    TERMINATING_TOOL = "terminating_tool"
    MAX_STEPS = "max_steps"
    AGENT_ERROR = "agent_error"
    USER_ERROR = "user_error"
    CONTEXT_WINDOW = "context_window"
    PROVIDER_ERROR = "provider_error"


FINISHED_TERMINATIONS = frozenset({Termination.USER_STOP, Termination.TERMINATING_TOOL})
"""Endings that count as a finished conversation; any other ending scores 0."""


class RewardInfo(BaseModel):
    """Both parts of the reward (tau-bench semantics) and what made it 0.

    ``r_actions`` compares the final database with the gold replay; ``r_outputs`` checks
    the required outputs (``None`` when the task has none). ``state_diff`` lists the
    records where the agent's database and the gold database differ.
    """

    reward: float
    r_actions: bool
    r_outputs: bool | None = None
    outputs: dict[str, bool] = Field(default_factory=dict)
    data_hash: str
    gt_data_hash: str
    state_diff: list[str] = Field(default_factory=list)


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


# -- run configuration ---------------------------------------------------------------------


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
