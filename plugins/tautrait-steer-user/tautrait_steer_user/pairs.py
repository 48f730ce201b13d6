"""The contrastive examples that trait vectors are built from.

Each example is one customer-service user turn written neutrally and once per trait with the
same request (``data/contrastive_pairs.json``, written for this plugin). A trait's vector is
the difference between the mean activations of its versions and of the neutral versions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from tautrait_core import TRAITS
from tautrait_steer_user.errors import VectorSetError

PAIRS_FILE = Path(__file__).parent / "data" / "contrastive_pairs.json"
MIN_PAIRS = 32


@dataclass(frozen=True)
class ContrastiveSet:
    """Neutral turns and, per trait, the same turns showing the trait (index-aligned)."""

    neutral: tuple[str, ...]
    by_trait: dict[str, tuple[str, ...]]

    def digest(self) -> str:
        """A SHA-256 of the examples, recorded with the vectors built from them."""
        payload = json.dumps({"neutral": self.neutral, **self.by_trait}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()


def load_pairs(path: Path = PAIRS_FILE) -> ContrastiveSet:
    """Read a contrastive-pairs file.

    Raises:
        VectorSetError: a trait is missing from an example, or has fewer than 32 pairs.
    """
    examples = json.loads(path.read_text())["examples"]
    for index, example in enumerate(examples):
        missing = [key for key in ("neutral", *TRAITS) if not example.get(key)]
        if missing:
            raise VectorSetError(f"{path}: example {index} lacks {', '.join(missing)}")
    if len(examples) < MIN_PAIRS:
        raise VectorSetError(
            f"{path}: {len(examples)} examples; at least {MIN_PAIRS} per trait are needed"
        )
    return ContrastiveSet(
        neutral=tuple(example["neutral"] for example in examples),
        by_trait={trait: tuple(example[trait] for example in examples) for trait in TRAITS},
    )
