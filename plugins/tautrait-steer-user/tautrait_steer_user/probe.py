"""``tautrait steer probe``: does a vector set move the model, and does it scale?

For one fixed chat, the next-token distribution is computed unsteered and with each trait
at each intensity; each row reports how far it moved from the unsteered one (KL divergence
and the size of the logit change) and its most likely tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tautrait_core import INTENSITY_WORDS, TraitMix
from tautrait_steer_user.generation import SteeredGenerator

PROBE_CHAT = [
    {"role": "system", "content": "You are a customer writing to a customer-service agent."},
    {"role": "user", "content": "Could you please confirm your order number so I can look it up?"},
]
UNSTEERED = "none"


@dataclass(frozen=True)
class ProbeRow:
    """The next-token distribution under one trait at one intensity.

    Attributes:
        trait: The trait steered (``none`` for the unsteered row).
        intensity: ``none``, ``low``, ``medium`` or ``high``.
        coefficient: The steering coefficient used.
        kl: KL divergence from the unsteered distribution, in nats.
        logit_shift: Euclidean norm of the change in logits.
        top_tokens: The most likely next tokens with their probabilities.
    """

    trait: str
    intensity: str
    coefficient: float
    kl: float
    logit_shift: float
    top_tokens: list[tuple[str, float]]


def probe(
    generator: SteeredGenerator,
    traits: Sequence[str] | None = None,
    messages: list[dict[str, str]] | None = None,
    top: int = 5,
) -> list[ProbeRow]:
    """The unsteered row, then each trait at low, medium and high (one batch)."""
    traits = list(traits or sorted(generator.vectors.vectors))
    settings: list[tuple[str, str, dict[str, float]]] = [(UNSTEERED, UNSTEERED, {})]
    for trait in traits:
        for level, word in enumerate(INTENSITY_WORDS):
            mix = TraitMix(traits={trait: level})
            settings.append((trait, word, generator.coefficients(mix)))
    chat = messages or PROBE_CHAT
    logits = generator.next_token_logits([chat] * len(settings), [c for *_, c in settings])
    log_probs = logits.log_softmax(dim=-1)
    base_logits, base_log_probs = logits[0], log_probs[0]
    rows = []
    for (trait, word, coefficients), row_logits, row_log_probs in zip(
        settings, logits, log_probs, strict=True
    ):
        probs = row_log_probs.exp()
        kl = float((probs * (row_log_probs - base_log_probs)).sum())
        values, ids = probs.topk(min(top, probs.shape[-1]))
        tokens = [
            (generator.tokenizer.decode([token_id]), float(value))
            for value, token_id in zip(values.tolist(), ids.tolist(), strict=True)
        ]
        coefficient = next(iter(coefficients.values()), 0.0)
        shift = float((row_logits - base_logits).norm())
        rows.append(ProbeRow(trait, word, coefficient, max(kl, 0.0), shift, tokens))
    return rows
