"""Steering a tiny random model: no-op at zero, monotone in intensity, composable, batched."""

from __future__ import annotations

import warnings

import pytest
from conftest import require_local_extra

require_local_extra()

import torch  # noqa: E402
from tautrait_steer_user.causal_lm import encode_prompt  # noqa: E402
from tautrait_steer_user.errors import InvalidSteerRequest  # noqa: E402
from tautrait_steer_user.generation import SteeredGenerator  # noqa: E402
from tautrait_steer_user.protocol import SteerRequest  # noqa: E402
from tautrait_steer_user.steering import (  # noqa: E402
    DEFAULT_LEVEL_SCALES,
    coefficients_for,
    parse_level_scales,
    steered,
    steering_deltas,
)
from tautrait_steer_user.vectors import TraitVectors, captured_layers  # noqa: E402

from tautrait_core import TRAITS, TraitMix  # noqa: E402

CHAT = [
    {"role": "system", "content": "You are a customer writing to a customer-service agent."},
    {"role": "user", "content": "Hello, how can I help you today?"},
]
SHORT_CHAT = [{"role": "user", "content": "Could you confirm your order number?"}]


@pytest.fixture(scope="module")
def generator(tiny: tuple, tiny_vectors: TraitVectors) -> SteeredGenerator:
    model, tokenizer = tiny
    return SteeredGenerator(model, tokenizer, tiny_vectors)


def shift(generator: SteeredGenerator, coefficients: dict[str, float]) -> float:
    logits = generator.next_token_logits([CHAT, CHAT], [{}, coefficients])
    return float((logits[1] - logits[0]).norm())


def test_no_steering_leaves_logits_unchanged(generator: SteeredGenerator) -> None:
    ids = torch.tensor([encode_prompt(generator.tokenizer, CHAT)])
    with torch.no_grad():
        plain = generator.model(input_ids=ids).logits[:, -1, :]
    for coefficients in ({}, {"impatience": 0.0}, {"confusion": 0.0, "skeptical": 0.0}):
        logits = generator.next_token_logits([CHAT], [coefficients])
        assert torch.equal(logits, plain)


def test_logits_move_monotonically_with_intensity(generator: SteeredGenerator) -> None:
    for trait in TRAITS:
        shifts = [
            shift(generator, coefficients_for(TraitMix(traits={trait: level})))
            for level in (0, 1, 2)
        ]
        assert 0 < shifts[0] < shifts[1] < shifts[2], (trait, shifts)


def test_low_intensity_still_steers_and_scales_are_configurable(tiny: tuple, tiny_vectors) -> None:
    assert coefficients_for(TraitMix(traits={"impatience": 0})) == {"impatience": 0.5}
    assert parse_level_scales("0, 2, 4") == (0.0, 2.0, 4.0)
    with pytest.raises(ValueError, match="three coefficients"):
        parse_level_scales("1,2")
    model, tokenizer = tiny
    zero_low = SteeredGenerator(model, tokenizer, tiny_vectors, level_scales=(0.0, 1.0, 2.0))
    assert zero_low.coefficients(TraitMix(traits={"confusion": 0})) == {"confusion": 0.0}
    assert DEFAULT_LEVEL_SCALES == (0.5, 1.0, 1.5)


def test_two_traits_compose(generator: SteeredGenerator, tiny_vectors: TraitVectors) -> None:
    both = {"impatience": 1.0, "skeptical": 1.5}
    deltas = steering_deltas(tiny_vectors, [both, {"impatience": 1.0}, {"skeptical": 1.5}])
    assert torch.allclose(deltas[0], deltas[1] + deltas[2], atol=1e-6)
    summed = TraitVectors(
        "tiny",
        tiny_vectors.layers,
        {"mixed": tiny_vectors.vectors["impatience"] + 1.5 * tiny_vectors.vectors["skeptical"]},
        tiny_vectors.pairs_digest,
    )
    one_vector = SteeredGenerator(generator.model, generator.tokenizer, summed)
    composed = generator.next_token_logits([CHAT], [both])
    assert torch.allclose(
        composed, one_vector.next_token_logits([CHAT], [{"mixed": 1.0}]), atol=1e-5
    )
    for single in ({"impatience": 1.0}, {"skeptical": 1.5}):
        assert not torch.allclose(composed, generator.next_token_logits([CHAT], [single]))


def test_only_positions_that_predict_new_tokens_are_steered(
    generator: SteeredGenerator, tiny_vectors: TraitVectors
) -> None:
    ids = torch.tensor([encode_prompt(generator.tokenizer, CHAT)])
    deltas = steering_deltas(tiny_vectors, [{"confusion": 1.5}])
    with torch.no_grad(), captured_layers(generator.model, (3, 4)) as outputs:
        generator.model(input_ids=ids)
        plain = outputs[0].clone()
        with steered(generator.model, tiny_vectors.layers, deltas):
            generator.model(input_ids=ids)
        steered_out = outputs[0].clone()
    assert torch.equal(plain[:, :-1], steered_out[:, :-1])
    assert not torch.equal(plain[:, -1], steered_out[:, -1])


def test_each_conversation_in_a_batch_gets_its_own_mix(generator: SteeredGenerator) -> None:
    chats = [CHAT, CHAT, SHORT_CHAT, CHAT]
    mixes = [{}, {"impatience": 1.5}, {"confusion": 1.0}, {"incoherence": 0.5, "skeptical": 1.0}]
    batch = generator.next_token_logits(chats, mixes)
    for row, (chat, mix) in enumerate(zip(chats, mixes, strict=True)):
        alone = generator.next_token_logits([chat], [mix])[0]
        assert torch.allclose(batch[row], alone, atol=1e-4), row
    assert not torch.allclose(batch[0], batch[1])


def test_generation_in_a_batch_matches_generation_alone(generator: SteeredGenerator) -> None:
    requests = [
        SteerRequest(TraitMix.parse("impatience=high"), CHAT, temperature=0.0, max_tokens=6),
        SteerRequest(TraitMix(), SHORT_CHAT, temperature=0.0, max_tokens=4),
        SteerRequest(TraitMix.parse("confusion=low"), CHAT, temperature=0.0, max_tokens=5),
    ]
    together = generator.generate(requests)
    alone = [generator.generate([request])[0] for request in requests]
    assert [r.text for r in together] == [r.text for r in alone]
    assert [r.completion_tokens for r in together] == [6, 4, 5]
    assert together[1].prompt_tokens < together[0].prompt_tokens
    assert all(reply.text for reply in together)


def test_generation_uses_no_deprecated_transformers_api(generator: SteeredGenerator) -> None:
    request = SteerRequest(TraitMix.parse("impatience=high"), CHAT, temperature=0.0, max_tokens=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        warnings.simplefilter("error", DeprecationWarning)
        (reply,) = generator.generate([request])
    assert reply.completion_tokens == 3


def test_sampled_generation_keeps_its_limit(generator: SteeredGenerator) -> None:
    request = SteerRequest(TraitMix.parse("skeptical=medium"), CHAT, temperature=1.0, max_tokens=3)
    (reply,) = generator.generate([request], stop_at_eos=False)
    assert reply.completion_tokens == 3 and reply.text


def test_unknown_trait_vector_is_an_invalid_request(tiny_vectors: TraitVectors) -> None:
    with pytest.raises(InvalidSteerRequest, match="no vector"):
        steering_deltas(tiny_vectors, [{"grumpiness": 1.0}])
