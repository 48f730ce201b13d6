"""Trait mixes: which traits the simulated user shows, at which intensity.

Traits and intensity words follow tau-trait (``impatience``, ``confusion``, ``skeptical``,
``incoherence``; ``low``/``medium``/``high``).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_serializer

from tautrait_core.errors import TraitError
from tautrait_core.files import read_json_file

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

    @classmethod
    def from_file(cls, path: Path) -> TraitMix:
        """Read a JSON file in upstream's ``trait_dict`` form (``--traits-file``).

        Raises:
            TraitError: the file cannot be read, is not UTF-8 JSON, or is not a trait mix.
        """
        data = read_json_file(path, TraitError, "the traits file")  # one line, 80 columns
        try:
            return cls.from_trait_dict(data)
        except TraitError as exc:
            raise TraitError(f"the traits file {path}: {exc}") from exc

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
