"""Trait vectors: one residual-stream direction per trait and layer, and how they are built.

A trait's vector at a layer is the mean output of that decoder layer over the tokens of the
turns that show the trait, minus the same mean over the neutral turns. Each turn is read as
the customer's reply in a short fixed chat, so the activations are those of the model
writing a customer's turn, as it does when generating one.

A vector set is saved as ``trait_vectors.safetensors`` in a folder, with the model name, the
layer range, a digest of the contrastive examples and a content hash in its metadata.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tautrait_core import TRAITS
from tautrait_steer_user.causal_lm import decoder_layers, encode_prompt, hidden_of, pad_token_id
from tautrait_steer_user.errors import VectorSetError
from tautrait_steer_user.pairs import ContrastiveSet

VECTORS_FILE = "trait_vectors.safetensors"
FORMAT = "tautrait-steer-vectors/1"
BUILD_CHAT = [
    {"role": "system", "content": "You are a customer writing to a customer-service agent."},
    {"role": "user", "content": "Hello, how can I help you today?"},
]
"""The chat each contrastive turn is read in, as the customer's (assistant's) reply."""


@dataclass(frozen=True)
class TraitVectors:
    """A set of trait vectors for one model.

    Attributes:
        model: The model they were built on (name or folder).
        layers: The layer range ``(start, stop)``, stop exclusive.
        vectors: Trait -> float32 CPU tensor of shape ``(stop - start, hidden_size)``.
        pairs_digest: SHA-256 of the contrastive examples used.
    """

    model: str
    layers: tuple[int, int]
    vectors: dict[str, Any]
    pairs_digest: str

    @property
    def hidden_size(self) -> int:
        """The width of the residual stream."""
        return int(next(iter(self.vectors.values())).shape[-1])

    def content_hash(self) -> str:
        """SHA-256 of the model name, layer range, examples digest and every vector's bytes."""
        digest = hashlib.sha256()
        digest.update(f"{self.model}\n{self.layers[0]}:{self.layers[1]}\n".encode())
        digest.update(self.pairs_digest.encode())
        for trait in sorted(self.vectors):
            digest.update(trait.encode())
            digest.update(self.vectors[trait].contiguous().numpy().tobytes())
        return digest.hexdigest()

    def save(self, folder: Path) -> Path:
        """Write the set into ``folder`` (created if needed); returns the file written."""
        from safetensors.torch import save_file

        folder.mkdir(parents=True, exist_ok=True)
        path = folder / VECTORS_FILE
        metadata = {
            "format": FORMAT,
            "model": self.model,
            "layers": f"{self.layers[0]}:{self.layers[1]}",
            "pairs_digest": self.pairs_digest,
            "content_hash": self.content_hash(),
        }
        tensors = {trait: vector.contiguous() for trait, vector in self.vectors.items()}
        save_file(tensors, str(path), metadata=metadata)
        return path

    @classmethod
    def load(cls, folder: Path) -> TraitVectors:
        """Read a set written by :meth:`save`, checking its content hash.

        Raises:
            VectorSetError: no set in ``folder``, or its content does not match its hash.
        """
        from safetensors import SafetensorError, safe_open

        path = folder / VECTORS_FILE
        if not path.is_file():
            raise VectorSetError(
                f"no trait vectors in {folder} (expected {VECTORS_FILE}); build them with: "
                "tautrait steer build --model MODEL --out FOLDER"
            )
        try:
            with safe_open(str(path), framework="pt") as handle:
                metadata = handle.metadata() or {}
                vectors = {trait: handle.get_tensor(trait) for trait in handle.keys()}  # noqa: SIM118
        except (SafetensorError, OSError) as exc:
            raise VectorSetError(
                f"{path} is not a readable safetensors file ({exc}); build it again"
            ) from exc
        if metadata.get("format") != FORMAT:
            raise VectorSetError(f"{path} is not a tautrait trait-vector set ({FORMAT})")
        try:
            start, _, stop = metadata["layers"].partition(":")
            layers = (int(start), int(stop))
            loaded = cls(metadata["model"], layers, vectors, metadata["pairs_digest"])
        except (KeyError, ValueError) as exc:
            raise VectorSetError(f"{path} has damaged metadata ({exc}); build it again") from exc
        if loaded.content_hash() != metadata.get("content_hash"):
            raise VectorSetError(
                f"{path} does not match its content hash: the file was changed or damaged; "
                "build it again"
            )
        return loaded

    def check_fits(self, model: Any) -> None:
        """Raise :class:`VectorSetError` unless the set fits ``model``'s layers and width."""
        count = model.config.num_hidden_layers
        if self.layers[1] > count or self.hidden_size != model.config.hidden_size:
            raise VectorSetError(
                f"these trait vectors (built on {self.model!r}: layers "
                f"{self.layers[0]}:{self.layers[1]}, width {self.hidden_size}) do not fit a "
                f"model with {count} layers of width {model.config.hidden_size}"
            )


@contextmanager
def captured_layers(model: Any, layers: tuple[int, int]) -> Iterator[list[Any]]:
    """Record the output hidden states of the layers in range during the forward passes
    inside the block: the list holds one tensor per layer, replaced on each pass."""
    blocks = decoder_layers(model)
    outputs: list[Any] = [None] * (layers[1] - layers[0])
    handles = []
    for slot, index in enumerate(range(*layers)):

        def hook(module: Any, args: Any, output: Any, slot: int = slot) -> None:
            outputs[slot] = hidden_of(output)

        handles.append(blocks[index].register_forward_hook(hook))
    try:
        yield outputs
    finally:
        for handle in handles:
            handle.remove()


def mean_turn_activations(
    model: Any, tokenizer: Any, turns: Sequence[str], layers: tuple[int, int], batch_size: int = 8
) -> Any:
    """Per layer, the mean over turns of each turn's mean activation over its own tokens.

    Returns a float32 CPU tensor of shape ``(stop - start, hidden_size)``.
    """
    import torch

    context = encode_prompt(tokenizer, BUILD_CHAT)
    pad = pad_token_id(tokenizer)
    device = next(model.parameters()).device
    total = None
    with torch.no_grad(), captured_layers(model, layers) as outputs:
        for first in range(0, len(turns), batch_size):
            batch = turns[first : first + batch_size]
            rows = [tokenizer(turn, add_special_tokens=False)["input_ids"] for turn in batch]
            width = len(context) + max(len(row) for row in rows)
            ids = torch.full((len(rows), width), pad, dtype=torch.long)
            attention = torch.zeros((len(rows), width), dtype=torch.long)
            turn_mask = torch.zeros((len(rows), width), dtype=torch.float32)
            for row_index, row in enumerate(rows):
                end = len(context) + len(row)
                ids[row_index, :end] = torch.tensor(context + row)
                attention[row_index, :end] = 1
                turn_mask[row_index, len(context) : end] = 1.0
            model(input_ids=ids.to(device), attention_mask=attention.to(device))
            weights = (turn_mask / turn_mask.sum(dim=1, keepdim=True)).to(device)
            per_layer = torch.stack(
                [torch.einsum("bt,bth->h", weights, out.float()) for out in outputs]
            ).cpu()
            total = per_layer if total is None else total + per_layer
    assert total is not None
    return total / len(turns)


def build_vectors(
    model: Any,
    tokenizer: Any,
    model_name: str,
    layers: tuple[int, int],
    pairs: ContrastiveSet,
    traits: Sequence[str] = TRAITS,
    batch_size: int = 8,
) -> TraitVectors:
    """One vector per trait: mean activations of its turns minus those of the neutral turns."""
    neutral = mean_turn_activations(model, tokenizer, pairs.neutral, layers, batch_size)
    vectors = {
        trait: mean_turn_activations(model, tokenizer, pairs.by_trait[trait], layers, batch_size)
        - neutral
        for trait in traits
    }
    return TraitVectors(model_name, layers, vectors, pairs.digest())
