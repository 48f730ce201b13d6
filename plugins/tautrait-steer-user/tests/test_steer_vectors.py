"""Building, saving and loading trait vectors on a tiny random model (CPU)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import require_local_extra

require_local_extra()

import torch  # noqa: E402
from tautrait_steer_user.causal_lm import default_layers, parse_layers  # noqa: E402
from tautrait_steer_user.errors import VectorSetError  # noqa: E402
from tautrait_steer_user.pairs import MIN_PAIRS, load_pairs  # noqa: E402
from tautrait_steer_user.tiny_model import tiny_model  # noqa: E402
from tautrait_steer_user.vectors import (  # noqa: E402
    FORMAT,
    VECTORS_FILE,
    TraitVectors,
    build_vectors,
)

from tautrait_core import TRAITS  # noqa: E402


def test_shipped_examples_have_enough_distinct_pairs_per_trait() -> None:
    pairs = load_pairs()
    assert len(pairs.neutral) >= MIN_PAIRS
    for trait in TRAITS:
        turns = pairs.by_trait[trait]
        assert len(turns) == len(pairs.neutral)
        assert all(a != b for a, b in zip(turns, pairs.neutral, strict=True))
        assert len(set(turns)) == len(turns)


def test_one_vector_per_trait_and_layer(tiny_vectors: TraitVectors) -> None:
    assert list(tiny_vectors.vectors) == list(TRAITS)
    for vector in tiny_vectors.vectors.values():
        assert vector.shape == (2, 64) and vector.dtype == torch.float32
        assert float(vector.norm()) > 0
    assert tiny_vectors.layers == (1, 3) and tiny_vectors.hidden_size == 64


def test_building_is_deterministic(tiny: tuple, tiny_vectors: TraitVectors) -> None:
    model, tokenizer = tiny
    again = build_vectors(model, tokenizer, "tiny", (1, 3), load_pairs(), batch_size=5)
    for trait in TRAITS:
        assert torch.allclose(again.vectors[trait], tiny_vectors.vectors[trait], atol=1e-6)
    same = build_vectors(model, tokenizer, "tiny", (1, 3), load_pairs())
    assert same.content_hash() == tiny_vectors.content_hash()
    other_layers = build_vectors(model, tokenizer, "tiny", (0, 2), load_pairs())
    assert other_layers.content_hash() != tiny_vectors.content_hash()


def test_save_and_load_round_trip(tiny_vectors: TraitVectors, tmp_path: Path) -> None:
    tiny_vectors.save(tmp_path)
    loaded = TraitVectors.load(tmp_path)
    assert loaded.model == "tiny" and loaded.layers == (1, 3)
    assert loaded.content_hash() == tiny_vectors.content_hash()
    assert all(torch.equal(loaded.vectors[t], tiny_vectors.vectors[t]) for t in TRAITS)


def test_damaged_file_is_refused(tiny_vectors: TraitVectors, tmp_path: Path) -> None:
    path = tiny_vectors.save(tmp_path)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(VectorSetError, match="content hash"):
        TraitVectors.load(tmp_path)


@pytest.mark.parametrize("cut", ["junk", "truncated", "metadata"])
def test_an_unreadable_file_is_refused_naming_it(
    tiny_vectors: TraitVectors, tmp_path: Path, cut: str
) -> None:
    path = tiny_vectors.save(tmp_path)
    if cut == "junk":
        path.write_bytes(b"not safetensors")
    elif cut == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    else:
        from safetensors.torch import save_file

        save_file(tiny_vectors.vectors, str(path), metadata={"format": FORMAT})
    with pytest.raises(VectorSetError, match=f"{path}.*build it again"):
        TraitVectors.load(tmp_path)


def test_missing_set_names_the_build_command(tmp_path: Path) -> None:
    with pytest.raises(VectorSetError, match=f"{VECTORS_FILE}.*tautrait steer build"):
        TraitVectors.load(tmp_path)


def test_vectors_refuse_a_model_they_do_not_fit(tiny_vectors: TraitVectors) -> None:
    with pytest.raises(VectorSetError, match="do not fit"):
        tiny_vectors.check_fits(tiny_model(vocab_size=50, hidden=32))


def test_layer_ranges() -> None:
    assert parse_layers("1:3", 4) == (1, 3)
    assert parse_layers(None, 32) == default_layers(32) == (10, 21)
    assert default_layers(1) == (0, 1)
    for bad in ("3:1", "0:5", "2", "a:b", "-1:2"):
        with pytest.raises(VectorSetError, match="A:B"):
            parse_layers(bad, 4)
