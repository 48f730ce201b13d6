"""The decoding state of each slot (one conversation of the batch), kept on the device.

Choosing tokens (greedy at temperature 0, sampled otherwise), stopping at end-of-sequence
and at each row's token limit all happen on the device, so steps run back to back and the
host reads the state only when it asks which rows are done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def choose_tokens(logits: Any, temperatures: Any, generator: Any) -> Any:
    """The next token of each row: the most likely one at temperature 0, else a sample of
    ``softmax(logits / temperature)`` drawn as ``argmax(logits / temperature + Gumbel
    noise)``, which needs no host synchronisation."""
    import torch

    greedy = logits.argmax(dim=-1)
    noise = torch.empty_like(logits).exponential_(generator=generator)
    scaled = logits / temperatures.clamp(min=1e-5)[:, None]
    sampled = (scaled - noise.log()).argmax(dim=-1)
    return torch.where(temperatures > 0, sampled, greedy)


class SlotState:
    """Per-slot tensors: the next input token and its position, temperature, token limit,
    tokens written so far, whether the row is done, and its steering.

    A free slot is marked done, so a step over it changes nothing that matters.

    Args:
        slots: How many slots.
        max_len: Positions per slot (bounds the tokens a row can write).
        steering_shape: ``(steered layers, hidden size)``.
        eos_ids: Tokens that end a row (empty: rows always write their limit).
        dtype: The model's dtype (of the steering).
        device: Where the model is.
        generator: Random numbers for sampling (``None``: torch's default, the one a CUDA
            graph replays correctly).
    """

    def __init__(
        self,
        slots: int,
        max_len: int,
        steering_shape: tuple[int, int],
        eos_ids: Sequence[int],
        dtype: Any,
        device: Any,
        generator: Any = None,
    ) -> None:
        import torch

        def zeros(*shape: int, dtype: Any = torch.long) -> Any:
            return torch.zeros(shape, dtype=dtype, device=device)

        self.tokens = zeros(slots)
        self.positions = zeros(slots)
        self.temperatures = zeros(slots, dtype=torch.float32)
        self.limits = zeros(slots)
        self.counts = zeros(slots)
        self.done = torch.ones(slots, dtype=torch.bool, device=device)
        self.written = zeros(slots, max_len)
        layers, hidden = steering_shape
        self.deltas = zeros(layers, slots, hidden, dtype=dtype)
        self.eos_ids = torch.tensor(sorted(eos_ids), dtype=torch.long, device=device)
        self.generator = generator

    @property
    def stepped(self) -> list[Any]:
        """The tensors a decoding step changes that a repeated step would not restore."""
        return [self.tokens, self.positions, self.counts, self.done]

    def start(self, rows: slice, lengths: Any, temperatures: Any, limits: Any, deltas: Any) -> None:
        """Begin a conversation in each slot of ``rows``: its prompt ``lengths``,
        ``temperatures``, token ``limits`` and steering ``deltas`` (batch first)."""
        self.positions[rows] = lengths
        self.temperatures[rows] = temperatures
        self.limits[rows] = limits
        self.counts[rows] = 0
        self.done[rows] = False
        self.deltas[:, rows] = deltas.transpose(0, 1).to(self.deltas.dtype)

    def record(self, logits: Any, rows: slice, advance: bool) -> None:
        """Choose each row's next token from ``logits`` and write it down; a row is done at
        end-of-sequence (not written) or at its limit. ``advance``: rows still going move
        to the next position (after a decoding step; a prefill sets positions itself)."""
        tokens = choose_tokens(logits, self.temperatures[rows], self.generator)
        done, counts = self.done[rows], self.counts[rows]
        ends = (tokens[:, None] == self.eos_ids).any(dim=1)
        self.written[rows].scatter_(1, counts[:, None], tokens[:, None])
        counts.add_((~(done | ends)).long())
        done.logical_or_(ends | (counts >= self.limits[rows]))
        self.tokens[rows] = tokens
        if advance:
            self.positions[rows] += (~done).long()

    def move(self, sources: Any, targets: Any) -> None:
        """Copy the state of slots ``sources`` to slots ``targets`` (index tensors)."""
        for tensor in (*self.stepped, self.temperatures, self.limits, self.written):
            tensor[targets] = tensor[sources]
        self.deltas[:, targets] = self.deltas[:, sources]

    def free(self, rows: slice) -> None:
        """Mark the slots of ``rows`` free."""
        self.done[rows] = True
