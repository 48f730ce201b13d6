"""The fast generation path: steered turns over a static key/value cache, row by row.

Each conversation occupies one slot of a preallocated cache (:mod:`.decoder`) for as long as
it generates. Conversations join between steps (their prompts are run through the model
together, eagerly) and leave as soon as they stop, so a batch never waits for its slowest
row. A decoding step takes the first ``batch`` slots, with ``batch`` and the attended
length rounded up to a few sizes, so on a GPU each (batch, length) pair is one CUDA graph
(:mod:`.cuda_graphs`); tokens are chosen and rows stopped on the device (:mod:`.slots`), and
the host looks at the state only every ``sync_every`` steps, or sooner when a row reaches
its token limit. Active rows are kept in the first slots: when rows leave, the last ones
move into the gaps.

With greedy decoding it writes the eager path's (:class:`SteeredGenerator`'s) tokens:
same model modules, same steering at the same positions. Only rounding can differ (the
matrix shapes are not all the same), which in bf16 can flip a near tie.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tautrait_steer_user.cuda_graphs import StepGraphs
from tautrait_steer_user.decoder import StaticCacheDecoder, unsupported_reason
from tautrait_steer_user.errors import InvalidSteerRequest
from tautrait_steer_user.generation import SteeredGenerator, SteerReply
from tautrait_steer_user.protocol import SteerRequest
from tautrait_steer_user.slots import SlotState
from tautrait_steer_user.steering import steering_deltas

DEFAULT_MAX_CONTEXT = 4096
PREFILL_TOKENS = 8192
"""The most (padded) prompt tokens run through the model in one prefill."""
SMALLEST_LENGTH = 64
"""The shortest attended length a step is captured for."""


@dataclass(frozen=True)
class PendingTurn:
    """A request checked and encoded, ready to join the batch."""

    request: SteerRequest
    prompt: list[int]
    deltas: Any
    """Float32 ``(steered layers, hidden)`` steering of this conversation."""


@dataclass
class _Row:
    """A conversation in a slot, as the host last saw it."""

    row_id: int
    prompt: list[int]
    limit: int
    count: int
    position: int


def default_max_context(model: Any) -> int:
    """The smaller of 4096 and the model's maximum number of positions."""
    positions = getattr(model.config, "max_position_embeddings", None) or DEFAULT_MAX_CONTEXT
    return min(DEFAULT_MAX_CONTEXT, positions)


def serving_generator(
    reference: SteeredGenerator,
    engine: str = "auto",
    max_batch: int = 32,
    max_context: int | None = None,
) -> tuple[SteeredGenerator | FastSteeredGenerator, str | None]:
    """The generator to serve with, and for ``auto`` on a model the fast path cannot run,
    why it is the eager one.

    Args:
        reference: The eager generator (served as it is for ``eager``).
        engine: ``fast``, ``eager``, or ``auto`` (fast where the model allows it).
        max_batch: Rows of the fast path.
        max_context: Positions per conversation of the fast path.

    Raises:
        UnsupportedModelError: ``fast`` on a model the fast path cannot run.
    """
    if engine == "eager":
        return reference, None
    context = max_context or default_max_context(reference.model)
    reason = unsupported_reason(reference.model, context)
    if engine == "auto" and reason is not None:
        return reference, reason
    return FastSteeredGenerator(reference, max_batch, context), None


def _sizes(largest: int, smallest: int) -> list[int]:
    """``smallest``, doubled while below ``largest``, then ``largest``."""
    sizes = [smallest]
    while sizes[-1] * 2 < largest:
        sizes.append(sizes[-1] * 2)
    return sorted({min(size, largest) for size in sizes} | {largest})


def _round_up(value: int, sizes: Sequence[int]) -> int:
    return next(size for size in sizes if size >= value)


class FastSteeredGenerator:
    """Steered generation with continuous batching over a static cache.

    Args:
        reference: The eager generator whose model, tokenizer, vectors and coefficients
            are used (and which stays the reference for what is written).
        max_batch: Conversations generated at once (slots of the cache).
        max_context: Positions per conversation, prompt plus reply [default: the smaller of
            4096 and the model's maximum].
        sync_every: Steps between two looks of the host at which rows are done.
        stop_at_eos: Stop a row at end-of-sequence (``False``: always write ``max_tokens``
            tokens, for benchmarks).
        cuda_graphs: Run steps as CUDA graphs [default: when the model is on a GPU].
        seed: Seed of the sampler off a GPU (on a GPU, torch's default generator samples,
            the one CUDA graphs replay).

    Raises:
        UnsupportedModelError: the model is not one the static-cache decoder runs.
    """

    def __init__(
        self,
        reference: SteeredGenerator,
        max_batch: int = 32,
        max_context: int | None = None,
        sync_every: int = 8,
        stop_at_eos: bool = True,
        cuda_graphs: bool | None = None,
        seed: int = 0,
    ) -> None:
        import torch

        if max_batch < 1 or sync_every < 1:
            raise ValueError("max_batch and sync_every must be at least 1")
        model = reference.model
        self.reference = reference
        self.max_batch = max_batch
        self.max_context = max_context or default_max_context(model)
        self.sync_every = sync_every
        vectors = reference.vectors
        self.decoder = StaticCacheDecoder(model, max_batch, self.max_context, vectors.layers)
        on_gpu = self.decoder.device.type == "cuda"
        self.state = SlotState(
            max_batch,
            self.max_context,
            (vectors.layers[1] - vectors.layers[0], vectors.hidden_size),
            reference.eos_ids if stop_at_eos else [],
            self.decoder.dtype,
            self.decoder.device,
            None if on_gpu else torch.Generator().manual_seed(seed),
        )
        enabled = on_gpu if cuda_graphs is None else cuda_graphs
        self.steps = StepGraphs(self._step, self.state.stepped, enabled, self.decoder.device)
        self._batch_sizes = _sizes(max_batch, 1)
        self._lengths = _sizes(self.max_context, min(SMALLEST_LENGTH, self.max_context))
        self._rows: list[_Row] = []
        self._next_id = 0

    @property
    def active_rows(self) -> int:
        """Conversations generating now."""
        return len(self._rows)

    @property
    def free_rows(self) -> int:
        """Conversations that can join now."""
        return self.max_batch - len(self._rows)

    def check(self, request: SteerRequest) -> None:
        """Raise :class:`InvalidSteerRequest` if a trait of ``request`` has no vector."""
        self.reference.check(request)

    def describe(self) -> dict[str, Any]:
        """What is served, with the engine and its bounds."""
        bounds = {"max_batch": self.max_batch, "max_context": self.max_context}
        return {**self.reference.describe(), "engine": "fast", **bounds}

    def prepare(self, request: SteerRequest) -> PendingTurn:
        """Encode ``request`` and work out its steering.

        Raises:
            InvalidSteerRequest: a trait has no vector, or the prompt and reply do not fit
                in ``max_context`` positions.
        """
        reference = self.reference
        prompt = reference.prompt_ids(request.messages)
        if len(prompt) + request.max_tokens > self.max_context:
            raise InvalidSteerRequest(
                f"the conversation ({len(prompt)} tokens) and max_tokens "
                f"({request.max_tokens}) exceed the server's context of {self.max_context} "
                "positions: ask for fewer tokens or serve with a larger --max-context"
            )
        coefficients = reference.coefficients(request.traits)
        return PendingTurn(request, prompt, steering_deltas(reference.vectors, [coefficients])[0])

    def admit(self, turns: Sequence[PendingTurn]) -> list[int]:
        """Start generating ``turns`` (at most :attr:`free_rows`); returns their row ids,
        which :meth:`advance` names when their replies are ready."""
        if len(turns) > self.free_rows:
            raise ValueError(f"{len(turns)} turns do not fit in {self.free_rows} free rows")
        ids = []
        group: list[PendingTurn] = []
        for turn in turns:
            width = max([len(turn.prompt), *(len(other.prompt) for other in group)])
            if group and width * (len(group) + 1) > PREFILL_TOKENS:
                ids += self._prefill(group)
                group = []
            group.append(turn)
        if group:
            ids += self._prefill(group)
        return ids

    def advance(self) -> list[tuple[int, SteerReply]]:
        """Run up to ``sync_every`` steps, fewer when a row reaches its token limit sooner
        (none when one already has), then reply for the rows that stopped, by row id."""
        if not self._rows:
            return []
        steps = min(self.sync_every, *(row.limit - row.count for row in self._rows))
        if steps > 0:
            batch = _round_up(len(self._rows), self._batch_sizes)
            furthest = max(row.position for row in self._rows) + steps
            length = _round_up(min(furthest, self.max_context), self._lengths)
            for _ in range(steps):
                self.steps(batch, length)
        return self._harvest()

    def drop_all(self) -> list[int]:
        """Abandon every active row (after a failed step); their row ids."""
        dropped = [row.row_id for row in self._rows]
        self.state.free(slice(0, len(self._rows)))
        self._rows.clear()
        return dropped

    def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]:
        """One turn per request (all at once when they fit, else as rows free up)."""
        if self._rows:
            raise RuntimeError("generate() needs an idle engine; it is serving rows")
        turns = [self.prepare(request) for request in requests]
        order: dict[int, int] = {}
        replies: dict[int, SteerReply] = {}
        try:
            while len(order) < len(turns) or self._rows:
                joined = len(order)
                row_ids = self.admit(turns[joined : joined + self.free_rows])
                order.update((row_id, joined + i) for i, row_id in enumerate(row_ids))
                replies.update((order[row_id], reply) for row_id, reply in self.advance())
        finally:
            self.drop_all()
        return [replies[index] for index in range(len(turns))]

    def _prefill(self, group: Sequence[PendingTurn]) -> list[int]:
        """Run the prompts of ``group`` into the next free slots and choose first tokens."""
        import torch

        device = self.decoder.device
        start = len(self._rows)
        rows = slice(start, start + len(group))
        width = max(len(turn.prompt) for turn in group)
        tokens = torch.full((len(group), width), self.reference.pad_id, dtype=torch.long)
        for index, turn in enumerate(group):
            tokens[index, : len(turn.prompt)] = torch.tensor(turn.prompt, dtype=torch.long)
        lengths = torch.tensor([len(turn.prompt) for turn in group], device=device)
        self.state.start(
            rows,
            lengths,
            torch.tensor([turn.request.temperature for turn in group], device=device),
            torch.tensor([turn.request.max_tokens for turn in group], device=device),
            torch.stack([turn.deltas for turn in group]).to(device),
        )
        with torch.no_grad():
            deltas = self.state.deltas[:, rows]
            logits = self.decoder.prefill(tokens.to(device), lengths, rows, deltas)
            self.state.record(logits, rows, advance=False)
        ids = list(range(self._next_id, self._next_id + len(group)))
        self._next_id += len(group)
        for row_id, turn in zip(ids, group, strict=True):
            prompt = turn.prompt
            self._rows.append(_Row(row_id, prompt, turn.request.max_tokens, 1, len(prompt)))
        return ids

    def _step(self, batch: int, length: int) -> None:
        """One decoding step of the first ``batch`` slots (no host synchronisation)."""
        import torch

        rows, state = slice(0, batch), self.state
        with torch.no_grad():
            logits = self.decoder.decode(
                state.tokens[rows], state.positions[rows], rows, length, state.deltas[:, rows]
            )
            state.record(logits, rows, advance=True)

    def _harvest(self) -> list[tuple[int, SteerReply]]:
        """Read the rows' state; reply for the rows that are done and free their slots."""
        import torch

        state, count = self.state, len(self._rows)
        done, counts, positions = torch.stack(
            (state.done[:count].long(), state.counts[:count], state.positions[:count])
        ).tolist()
        for row, written, position in zip(self._rows, counts, positions, strict=True):
            row.count, row.position = written, position
        finished = [index for index in range(count) if done[index]]
        if not finished:
            return []
        picked = torch.tensor(finished, device=self.decoder.device)
        tokens = state.written[picked, : max(counts[i] for i in finished)].tolist()
        replies = [
            (self._rows[i].row_id, self.reference.reply(self._rows[i].prompt, row[: counts[i]]))
            for i, row in zip(finished, tokens, strict=True)
        ]
        self._compact(finished)
        return replies

    def _compact(self, finished: Sequence[int]) -> None:
        """Free the slots of ``finished`` rows, moving the last rows into the gaps."""
        import torch

        count = len(self._rows)
        kept = count - len(finished)
        gaps = [index for index in finished if index < kept]
        movers = [index for index in range(kept, count) if index not in set(finished)]
        if gaps:
            device = self.decoder.device
            sources = torch.tensor(movers, device=device)
            targets = torch.tensor(gaps, device=device)
            self.decoder.move(sources, targets, max(self._rows[i].position for i in movers))
            self.state.move(sources, targets)
            for gap, mover in zip(gaps, movers, strict=True):
                self._rows[gap] = self._rows[mover]
        self.state.free(slice(kept, count))
        del self._rows[kept:]
