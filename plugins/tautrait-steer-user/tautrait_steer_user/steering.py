"""Adding trait vectors to the residual stream while a model generates.

Each conversation in a batch gets its own shift per layer: the sum of its traits' vectors,
each scaled by the trait's coefficient (from its intensity) and divided by the number of
steered layers, so a coefficient of 1 moves the residual stream by about the measured
difference between trait and neutral turns however wide the layer range is.

Only the positions that predict generated tokens are steered: the last prompt position and
then each new token. The rest of the prompt, and so its cached keys and values, stays as
the unsteered model computes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from tautrait_core import INTENSITY_WORDS, TraitMix
from tautrait_steer_user.causal_lm import decoder_layers, hidden_of, with_hidden
from tautrait_steer_user.errors import InvalidSteerRequest
from tautrait_steer_user.vectors import TraitVectors

DEFAULT_LEVEL_SCALES = (0.5, 1.0, 1.5)
"""Coefficients for intensity low, medium and high. Low is mild steering, not none: a trait
at low intensity still shows, as it does with the prompt backend. A trait left out of the
mix is not steered at all."""


def parse_level_scales(spec: str) -> tuple[float, float, float]:
    """Three coefficients ``low,medium,high`` such as ``0.5,1,1.5``.

    Raises:
        ValueError: not three comma-separated numbers.
    """
    parts = [part.strip() for part in spec.split(",")]
    if len(parts) != len(INTENSITY_WORDS):
        raise ValueError(f"give three coefficients low,medium,high such as 0.5,1,1.5, not {spec!r}")
    low, medium, high = (float(part) for part in parts)
    return low, medium, high


def coefficients_for(
    traits: TraitMix, level_scales: Sequence[float] = DEFAULT_LEVEL_SCALES
) -> dict[str, float]:
    """Each trait of the mix with the coefficient of its intensity."""
    return {trait: float(level_scales[level]) for trait, level in traits.traits.items()}


def steering_deltas(vectors: TraitVectors, coefficients: Sequence[Mapping[str, float]]) -> Any:
    """The shift each conversation gets at each steered layer.

    Args:
        vectors: The trait vectors.
        coefficients: One ``{trait: coefficient}`` per conversation of the batch.

    Returns:
        A float32 tensor of shape ``(batch, layers, hidden_size)``.

    Raises:
        InvalidSteerRequest: a trait has no vector in the set.
    """
    import torch

    start, stop = vectors.layers
    deltas = torch.zeros(len(coefficients), stop - start, vectors.hidden_size)
    for row, mix in enumerate(coefficients):
        for trait, coefficient in mix.items():
            if trait not in vectors.vectors:
                raise InvalidSteerRequest(
                    f"trait {trait!r} has no vector in this set (it has "
                    f"{', '.join(sorted(vectors.vectors))}); rebuild with tautrait steer build"
                )
            if coefficient:
                deltas[row] += coefficient * vectors.vectors[trait]
    return deltas / (stop - start)


@contextmanager
def steered(model: Any, layers: tuple[int, int], deltas: Any | None) -> Iterator[None]:
    """Inside the block, forward passes of ``model`` add ``deltas`` (from
    :func:`steering_deltas`, one row per batch row) to the last position's output of each
    layer in range. ``None`` or all-zero deltas install nothing: the model runs unchanged."""
    if deltas is None or not bool(deltas.any()):
        yield
        return
    parameter = next(model.parameters())
    shifts = deltas.to(device=parameter.device, dtype=parameter.dtype)
    blocks = decoder_layers(model)
    handles = []
    for slot, index in enumerate(range(*layers)):

        def hook(module: Any, args: Any, output: Any, slot: int = slot) -> Any:
            hidden = hidden_of(output).clone()
            hidden[:, -1, :] += shifts[:, slot, :]
            return with_hidden(output, hidden)

        handles.append(blocks[index].register_forward_hook(hook))
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()
