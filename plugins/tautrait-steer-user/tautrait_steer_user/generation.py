"""Generating customer turns with a local model steered by trait vectors.

One batch holds many conversations, each with its own trait mix, temperature and token
limit: prompts are left-padded, decoded together with a key/value cache, and each row stops
at end-of-sequence or at its own limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tautrait_core import TraitMix
from tautrait_steer_user.causal_lm import (
    cache_keyword,
    cache_of,
    encode_prompt,
    load_model,
    pad_token_id,
)
from tautrait_steer_user.protocol import SteerRequest
from tautrait_steer_user.steering import (
    DEFAULT_LEVEL_SCALES,
    coefficients_for,
    steered,
    steering_deltas,
)
from tautrait_steer_user.vectors import TraitVectors


@dataclass(frozen=True)
class SteerReply:
    """A generated turn and its token counts."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    tokens: tuple[int, ...] = ()
    """The generated token ids (end-of-sequence left out)."""


class SteeredGenerator:
    """A causal LM with a trait-vector set that writes the simulated customer's turns.

    Args:
        model: A Hugging Face causal LM in eval mode.
        tokenizer: Its tokenizer.
        vectors: Trait vectors built for this model (checked to fit).
        level_scales: Coefficients for intensity low, medium and high.
        seed: Seed of the sampler used for temperatures above 0.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        vectors: TraitVectors,
        level_scales: Sequence[float] = DEFAULT_LEVEL_SCALES,
        seed: int = 0,
    ) -> None:
        import torch

        vectors.check_fits(model)
        self.model = model
        self.tokenizer = tokenizer
        self.vectors = vectors
        self.level_scales = tuple(level_scales)
        self.device = next(model.parameters()).device
        self.pad_id = pad_token_id(tokenizer)
        self.eos_ids = _eos_ids(model, tokenizer)
        self._cache_keyword = cache_keyword(model)
        self._sampler = torch.Generator(device=self.device).manual_seed(seed)

    @classmethod
    def from_folder(
        cls,
        model_name: str,
        vectors_folder: Path,
        device: str | None = None,
        dtype: str | None = None,
        level_scales: Sequence[float] = DEFAULT_LEVEL_SCALES,
    ) -> SteeredGenerator:
        """Load a model and a saved vector set."""
        vectors = TraitVectors.load(vectors_folder)
        model, tokenizer = load_model(model_name, device, dtype)
        return cls(model, tokenizer, vectors, level_scales)

    def coefficients(self, traits: TraitMix) -> dict[str, float]:
        """The steering coefficient of each trait in ``traits``."""
        return coefficients_for(traits, self.level_scales)

    def check(self, request: SteerRequest) -> None:
        """Raise :class:`~tautrait_steer_user.errors.InvalidSteerRequest` if a trait of
        ``request`` has no vector in the set."""
        steering_deltas(self.vectors, [self.coefficients(request.traits)])

    def describe(self) -> dict[str, Any]:
        """What is served: model, layer range, traits and the vector set's content hash."""
        return {
            "engine": "eager",
            "model": self.vectors.model,
            "layers": f"{self.vectors.layers[0]}:{self.vectors.layers[1]}",
            "traits": sorted(self.vectors.vectors),
            "vectors": self.vectors.content_hash(),
            "level_scales": list(self.level_scales),
        }

    def prompt_ids(self, messages: list[dict[str, str]]) -> list[int]:
        """The token ids of the prompt that has the model write the next turn of ``messages``."""
        return encode_prompt(self.tokenizer, messages)

    def _batch(self, prompts: Sequence[list[int]]) -> tuple[Any, Any, Any]:
        """Left-padded ids, attention mask and position ids."""
        import torch

        width = max(len(prompt) for prompt in prompts)
        ids = torch.full((len(prompts), width), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(prompts), width), dtype=torch.long)
        for row, prompt in enumerate(prompts):
            ids[row, width - len(prompt) :] = torch.tensor(prompt, dtype=torch.long)
            attention[row, width - len(prompt) :] = 1
        positions = (attention.cumsum(dim=1) - 1).clamp(min=0)
        return ids.to(self.device), attention.to(self.device), positions.to(self.device)

    def next_token_logits(
        self,
        conversations: Sequence[list[dict[str, str]]],
        coefficients: Sequence[Mapping[str, float]],
    ) -> Any:
        """Next-token logits (float32, CPU, one row per conversation) under the given
        ``{trait: coefficient}`` steering, one mapping per conversation."""
        import torch

        prompts = [self.prompt_ids(messages) for messages in conversations]
        ids, attention, positions = self._batch(prompts)
        deltas = steering_deltas(self.vectors, coefficients)
        with torch.no_grad(), steered(self.model, self.vectors.layers, deltas):
            output = self.model(input_ids=ids, attention_mask=attention, position_ids=positions)
        return output.logits[:, -1, :].float().cpu()

    def generate(
        self, requests: Sequence[SteerRequest], stop_at_eos: bool = True
    ) -> list[SteerReply]:
        """One customer turn per request, generated as one batch.

        Args:
            requests: Conversations with their trait mixes, temperatures and token limits.
            stop_at_eos: Stop a row at end-of-sequence (``False``: always write
                ``max_tokens`` tokens, for benchmarks).
        """
        import torch

        prompts = [self.prompt_ids(request.messages) for request in requests]
        ids, attention, positions = self._batch(prompts)
        deltas = steering_deltas(self.vectors, [self.coefficients(r.traits) for r in requests])
        temperatures = torch.tensor([r.temperature for r in requests], device=self.device)
        limits = [request.max_tokens for request in requests]
        written: list[list[int]] = [[] for _ in requests]
        done = [False] * len(requests)
        cache = None
        with torch.no_grad(), steered(self.model, self.vectors.layers, deltas):
            for _step in range(max(limits)):
                output = self.model(
                    input_ids=ids,
                    attention_mask=attention,
                    position_ids=positions,
                    use_cache=True,
                    **{self._cache_keyword: cache},
                )
                cache = cache_of(output)
                chosen = self._choose(output.logits[:, -1, :].float(), temperatures).tolist()
                for row, token in enumerate(chosen):
                    if done[row]:
                        continue
                    if stop_at_eos and token in self.eos_ids:
                        done[row] = True
                        continue
                    written[row].append(token)
                    done[row] = len(written[row]) >= limits[row]
                if all(done):
                    break
                next_ids = [self.pad_id if done[r] else token for r, token in enumerate(chosen)]
                ids = torch.tensor(next_ids, device=self.device).unsqueeze(1)
                attention = torch.cat([attention, torch.ones_like(ids)], dim=1)
                positions = positions[:, -1:] + 1
        return [self.reply(prompt, tokens) for prompt, tokens in zip(prompts, written, strict=True)]

    def reply(self, prompt: Sequence[int], tokens: Sequence[int]) -> SteerReply:
        """The reply for the generated ``tokens`` of a turn prompted with ``prompt``."""
        return SteerReply(
            text=self.tokenizer.decode(list(tokens), skip_special_tokens=True).strip(),
            prompt_tokens=len(prompt),
            completion_tokens=len(tokens),
            tokens=tuple(tokens),
        )

    def _choose(self, logits: Any, temperatures: Any) -> Any:
        """Greedy for rows at temperature 0, sampled at their temperature otherwise."""
        import torch

        greedy = logits.argmax(dim=-1)
        if not bool((temperatures > 0).any()):
            return greedy
        scaled = logits / temperatures.clamp(min=1e-5).unsqueeze(1)
        sampled = torch.multinomial(scaled.softmax(dim=-1), 1, generator=self._sampler).squeeze(1)
        return torch.where(temperatures > 0, sampled, greedy)


def _eos_ids(model: Any, tokenizer: Any) -> set[int]:
    """Token ids that end a turn: the tokenizer's and the generation config's."""
    found = {tokenizer.eos_token_id}
    configured = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    found.update(configured if isinstance(configured, list) else [configured])
    return {token for token in found if isinstance(token, int)}
