"""The fast path (static cache, rows joining and leaving) writes the eager path's tokens."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from conftest import require_local_extra

require_local_extra()

from tautrait_steer_user.decoder import StaticCacheDecoder, unsupported_reason  # noqa: E402
from tautrait_steer_user.errors import InvalidSteerRequest, UnsupportedModelError  # noqa: E402
from tautrait_steer_user.fast_generation import (  # noqa: E402
    FastSteeredGenerator,
    serving_generator,
)
from tautrait_steer_user.generation import SteeredGenerator  # noqa: E402
from tautrait_steer_user.protocol import SteerRequest  # noqa: E402

from tautrait_core import TraitMix  # noqa: E402

CHAT = [
    {"role": "system", "content": "You are a customer writing to a customer-service agent."},
    {"role": "user", "content": "Hello, how can I help you today?"},
]
SHORT_CHAT = [{"role": "user", "content": "Could you confirm your order number?"}]
MIXES = [
    "impatience=high",
    "",
    "confusion=low",
    "incoherence=high,skeptical=medium",
    "confusion=high",
]


def request(mix: str, max_tokens: int, chat: list[dict[str, str]] = CHAT, temperature: float = 0.0):
    traits = TraitMix.parse(mix) if mix else TraitMix()
    return SteerRequest(traits, chat, temperature=temperature, max_tokens=max_tokens)


@pytest.fixture(scope="module")
def eager(tiny: tuple, tiny_vectors: Any) -> SteeredGenerator:
    model, tokenizer = tiny
    return SteeredGenerator(model, tokenizer, tiny_vectors)


def fast(eager: SteeredGenerator, **options: Any) -> FastSteeredGenerator:
    return FastSteeredGenerator(eager, **{"max_batch": 8, "max_context": 128, **options})


def test_greedy_tokens_equal_the_eager_paths_for_steered_and_unsteered_rows(
    eager: SteeredGenerator,
) -> None:
    requests = [
        request(mix, 4 + 3 * index, SHORT_CHAT if index % 2 else CHAT)
        for index, mix in enumerate(MIXES)
    ]
    replies = fast(eager).generate(requests)  # 5 rows: the step runs 8, 3 of them free
    assert replies == eager.generate(requests)
    assert replies == [eager.generate([one])[0] for one in requests]
    assert [reply.completion_tokens for reply in replies] == [4, 7, 10, 13, 16]
    assert len({reply.text for reply in replies}) > 1


def test_more_requests_than_rows_join_as_rows_leave(eager: SteeredGenerator) -> None:
    requests = [request(MIXES[index % 5], 3 + index) for index in range(7)]
    engine = fast(eager, max_batch=2, sync_every=2)
    assert engine.generate(requests) == [eager.generate([one])[0] for one in requests]
    assert engine.active_rows == 0 and engine.free_rows == 2


def test_a_row_joining_mid_generation_writes_what_it_writes_alone(
    eager: SteeredGenerator,
) -> None:
    engine = fast(eager, sync_every=4)
    first, late = request("impatience=high", 20), request("confusion=medium", 9, SHORT_CHAT)
    (first_id,) = engine.admit([engine.prepare(first)])
    assert engine.advance() == [] and engine.active_rows == 1
    (late_id,) = engine.admit([engine.prepare(late)])
    replies: dict[int, Any] = {}
    while engine.active_rows:
        replies.update(engine.advance())
    assert replies[late_id] == eager.generate([late])[0]
    assert replies[first_id] == eager.generate([first])[0]


def test_a_row_leaves_as_soon_as_it_stops_and_the_others_go_on(eager: SteeredGenerator) -> None:
    engine = fast(eager, sync_every=8)
    requests = [request("", 2), request("skeptical=high", 30), request("confusion=low", 3)]
    ids = engine.admit([engine.prepare(one) for one in requests])
    assert engine.advance() == [(ids[0], eager.generate([requests[0]])[0])]  # after 1 step
    assert engine.active_rows == 2  # the last row moved into the first one's slot
    assert engine.advance() == [(ids[2], eager.generate([requests[2]])[0])]
    rest: dict[int, Any] = {}
    while engine.active_rows:  # the long row, now in slot 0, goes on from its cache
        rest.update(engine.advance())
    assert rest == {ids[1]: eager.generate([requests[1]])[0]}


def test_the_warm_up_before_a_cuda_graph_capture_leaves_no_trace(eager: SteeredGenerator) -> None:
    engine = fast(eager, sync_every=3)
    requests = [request("impatience=high", 12), request("", 9, SHORT_CHAT)]
    ids = engine.admit([engine.prepare(one) for one in requests])
    replies: dict[int, Any] = {}
    while engine.active_rows:  # on a GPU a capture can come before any round of steps
        engine.steps.warm_up(2, 64)
        replies.update(engine.advance())
    assert [replies[row_id] for row_id in ids] == [eager.generate([r])[0] for r in requests]


def test_each_row_keeps_its_temperature_and_limit(eager: SteeredGenerator) -> None:
    requests = [
        request("impatience=high", 6, temperature=1.5),
        request("confusion=low", 9),
        request("", 5, SHORT_CHAT, temperature=0.7),
        request("skeptical=medium", 7),
    ]
    replies = fast(eager, stop_at_eos=False).generate(requests)
    assert [reply.completion_tokens for reply in replies] == [6, 9, 5, 7]
    for index in (1, 3):  # greedy rows are untouched by their sampling neighbours
        assert replies[index] == eager.generate([requests[index]])[0]


def test_rows_stop_at_end_of_sequence_as_the_eager_path_does(eager: SteeredGenerator) -> None:
    plain, other = request("incoherence=high", 12), request("", 12, SHORT_CHAT)
    stopping = copy.copy(eager)
    stopping.eos_ids = {*eager.eos_ids, eager.generate([plain])[0].tokens[2]}
    replies = fast(stopping).generate([plain, other])
    assert replies == [stopping.generate([plain])[0], stopping.generate([other])[0]]
    assert replies[0].completion_tokens == 2 and replies[1].completion_tokens > 2


def test_a_conversation_longer_than_the_context_is_an_invalid_request(
    eager: SteeredGenerator,
) -> None:
    with pytest.raises(InvalidSteerRequest, match="larger --max-context"):
        fast(eager, max_context=64).prepare(request("", 60))


def test_a_trait_without_a_vector_is_an_invalid_request(tiny: tuple, tiny_vectors: Any) -> None:
    partial = dataclasses.replace(
        tiny_vectors, vectors={"impatience": tiny_vectors.vectors["impatience"]}
    )
    model, tokenizer = tiny
    engine = fast(SteeredGenerator(model, tokenizer, partial))
    with pytest.raises(InvalidSteerRequest, match="no vector"):
        engine.prepare(request("confusion=high", 3))


def test_models_the_decoder_cannot_run_are_refused_with_the_reason(tiny: tuple) -> None:
    from transformers import GPT2Config, GPT2LMHeadModel

    gpt2 = GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=50))
    with pytest.raises(UnsupportedModelError, match="'gpt2' models are not supported"):
        StaticCacheDecoder(gpt2, 2, 64, (0, 1))
    model, _ = tiny
    assert unsupported_reason(model, 4096) is None
    model.config.sliding_window = 32
    try:
        assert "sliding attention window of 32" in str(unsupported_reason(model, 64))
        assert unsupported_reason(model, 32) is None
    finally:
        model.config.sliding_window = None


def test_serving_falls_back_to_the_eager_path_only_when_asked_to(
    eager: SteeredGenerator,
) -> None:
    generator, reason = serving_generator(eager, "auto", max_batch=3, max_context=100)
    assert isinstance(generator, FastSteeredGenerator) and reason is None
    assert (generator.max_batch, generator.max_context) == (3, 100)
    assert serving_generator(eager, "eager") == (eager, None)
    eager.model.config.sliding_window = 32
    try:
        assert serving_generator(eager, "auto", max_context=64) == (
            eager,
            "a sliding attention window of 32 tokens is shorter than 64",
        )
        with pytest.raises(UnsupportedModelError, match="--engine eager"):
            serving_generator(eager, "fast", max_context=64)
    finally:
        eager.model.config.sliding_window = None
