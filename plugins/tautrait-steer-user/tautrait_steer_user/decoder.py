"""A forward pass over a preallocated key/value cache, for Llama-family models.

It runs the Hugging Face model's own modules and weights (embeddings, each layer's norms,
projections and MLP, the rotary embedding with its scaling, the final norm and the LM head)
but keeps keys and values in one preallocated tensor each, shaped
``(layers, slots, kv_heads, max_len, head_dim)``. Each slot is one conversation with its own
length, so conversations can start and stop independently (continuous batching), and a
decoding step has fixed shapes (so it can be captured as a CUDA graph).

Steering is added exactly where the eager path's hooks add it (:mod:`.steering`): to the
output of each decoder layer in the vector set's range, at the position that predicts the
next token (the last prompt token, then each new token), cast to the model's dtype.

A small model's step is as many kernels as it has operations, so the decoder runs fewer:
each layer's query, key and value projections are one matrix product, and so are the MLP's
gate and up projections (the model's own weights become views of the joined matrices, so
nothing is copied), an RMS norm is PyTorch's ``rms_norm`` in float32 as the model computes
it, and keys are rotated together with queries.
"""

from __future__ import annotations

from typing import Any

from tautrait_steer_user.errors import UnsupportedModelError

SUPPORTED_MODEL_TYPES = ("llama", "mistral", "qwen2")
POSITION_FREE_ROPE = ("default", "linear", "llama3", "yarn")
"""Rope types whose frequencies do not change with the sequence length."""


def unsupported_reason(model: Any, max_len: int) -> str | None:
    """Why :class:`StaticCacheDecoder` cannot run ``model`` with ``max_len`` positions per
    conversation, or ``None`` when it can."""
    config = model.config
    model_type = getattr(config, "model_type", "?")
    if model_type not in SUPPORTED_MODEL_TYPES:
        return f"{model_type!r} models are not supported (only {', '.join(SUPPORTED_MODEL_TYPES)})"
    body = getattr(model, "model", None)
    parts = ("embed_tokens", "layers", "norm", "rotary_emb")
    if body is None or not all(hasattr(body, part) for part in parts):
        return f"{type(model).__name__} does not have the usual Llama module layout"
    if any(hasattr(layer.self_attn, "q_norm") for layer in body.layers):
        return "attention with query/key norms is not supported"
    norms = [body.norm, *(n for layer in body.layers for n in _norms(layer))]
    if not all(hasattr(norm, "variance_epsilon") for norm in norms):
        return "its normalisation layers are not RMS norms of the Llama kind"
    rope_type = getattr(body.rotary_emb, "rope_type", None)
    if rope_type not in POSITION_FREE_ROPE:
        return f"rope type {rope_type!r} is not supported (only {', '.join(POSITION_FREE_ROPE)})"
    window = getattr(config, "sliding_window", None)
    if window is not None and window < max_len:
        return f"a sliding attention window of {window} tokens is shorter than {max_len}"
    return None


def _norms(layer: Any) -> tuple[Any, Any]:
    return layer.input_layernorm, layer.post_attention_layernorm


def _joined(modules: list[Any]) -> tuple[Any, Any]:
    """The weights (and biases) of linear ``modules`` with the same input, joined along the
    output; each module's own weight becomes a view of the joined one."""
    import torch

    with torch.no_grad():
        weight = torch.cat([module.weight for module in modules])
        biases = [module.bias for module in modules]
        bias = None if any(b is None for b in biases) else torch.cat(biases)
        start = 0
        for module in modules:
            rows = module.weight.shape[0]
            module.weight.data = weight[start : start + rows]
            if bias is not None:
                module.bias.data = bias[start : start + rows]
            start += rows
    return weight, bias


def _rms_norm(norm: Any, hidden: Any) -> Any:
    """``norm`` (a Llama-family RMS norm) of ``hidden``: computed in float32, cast back,
    scaled by the weight, as the model's own module does, in fewer kernels."""
    from torch.nn.functional import rms_norm

    scaled = rms_norm(hidden.float(), (hidden.shape[-1],), eps=norm.variance_epsilon)
    return norm.weight * scaled.to(hidden.dtype)


def _rotate(x: Any, cos: Any, sin: Any) -> Any:
    """Rotary position embedding, written as transformers' ``apply_rotary_pos_emb``."""
    import torch

    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return (x * cos) + (rotated * sin)


class StaticCacheDecoder:
    """Prefill and decoding steps of a Llama-family model over a preallocated cache.

    Args:
        model: A Hugging Face Llama, Mistral or Qwen2 causal LM in eval mode.
        slots: Conversations the cache holds at once.
        max_len: Positions per conversation (prompt plus generated tokens).
        steered_layers: The vector set's layer range ``(start, stop)``.

    Raises:
        UnsupportedModelError: with :func:`unsupported_reason`'s reason.
    """

    def __init__(
        self, model: Any, slots: int, max_len: int, steered_layers: tuple[int, int]
    ) -> None:
        import torch

        reason = unsupported_reason(model, max_len)
        if reason is not None:
            raise UnsupportedModelError(
                f"the fast path cannot run this model: {reason}; use the eager path "
                "(steer serve --engine eager)"
            )
        config, body = model.config, model.model
        self.embed, self.layers, self.norm = body.embed_tokens, body.layers, body.norm
        self.rotary, self.lm_head = body.rotary_emb, model.lm_head
        self.heads = config.num_attention_heads
        self.kv_heads = config.num_key_value_heads
        self.head_dim = getattr(config, "head_dim", None) or config.hidden_size // self.heads
        self.scaling = getattr(self.layers[0].self_attn, "scaling", self.head_dim**-0.5)
        self.qkv = [
            _joined([layer.self_attn.q_proj, layer.self_attn.k_proj, layer.self_attn.v_proj])
            for layer in self.layers
        ]
        self.gate_up = [_joined([layer.mlp.gate_proj, layer.mlp.up_proj]) for layer in self.layers]
        self.steered = range(*steered_layers)
        weight = next(model.parameters())
        self.dtype, self.device = weight.dtype, weight.device
        shape = (len(self.layers), slots, self.kv_heads, max_len, self.head_dim)
        self.keys = torch.zeros(shape, dtype=self.dtype, device=self.device)
        self.values = torch.zeros_like(self.keys)

    def prefill(self, tokens: Any, lengths: Any, rows: slice, deltas: Any) -> Any:
        """Run right-padded prompts from position 0, filling the cache of slots ``rows``.

        Args:
            tokens: ``(batch, width)`` token ids, each prompt padded on the right.
            lengths: ``(batch,)`` prompt lengths.
            rows: The slots the prompts go to (``batch`` of them).
            deltas: ``(steered layers, batch, hidden)`` steering, in the model's dtype.

        Returns:
            Float32 logits ``(batch, vocab)`` at each prompt's last token.
        """
        import torch

        batch, width = tokens.shape
        positions = torch.arange(width, device=self.device).expand(batch, width)
        last = lengths - 1
        steer_at = (positions == last[:, None]).unsqueeze(-1).to(self.dtype)
        hidden = self._run(tokens, positions, rows, deltas, steer_at, self._attend_causal)
        return self._logits(hidden[torch.arange(batch, device=self.device), last])

    def decode(self, tokens: Any, positions: Any, rows: slice, length: int, deltas: Any) -> Any:
        """One token per conversation of slots ``rows``, each at its own position.

        Args:
            tokens: ``(batch,)`` the next input token of each slot.
            positions: ``(batch,)`` where each goes (its keys and values are cached there).
            rows: The slots (``batch`` of them).
            length: Cache positions attended to; above every position in ``positions``.
            deltas: ``(steered layers, batch, hidden)`` steering, in the model's dtype.

        Returns:
            Float32 logits ``(batch, vocab)``.
        """
        import torch

        visible = torch.arange(length, device=self.device) <= positions[:, None]
        mask = visible[:, None, None, :]

        def attend(query: Any, key: Any, value: Any, index: int) -> Any:
            return self._attend_cached(query, index, rows, length, mask)

        hidden = self._run(tokens[:, None], positions[:, None], rows, deltas, None, attend)
        return self._logits(hidden[:, 0])

    def move(self, sources: Any, targets: Any, length: int) -> None:
        """Copy the first ``length`` cached positions of slots ``sources`` to ``targets``."""
        self.keys[:, targets, :, :length] = self.keys[:, sources, :, :length]
        self.values[:, targets, :, :length] = self.values[:, sources, :, :length]

    def _logits(self, hidden: Any) -> Any:
        return self.lm_head(_rms_norm(self.norm, hidden)).float()

    def _run(
        self, tokens: Any, positions: Any, rows: slice, deltas: Any, steer_at: Any, attend: Any
    ) -> Any:
        """The decoder layers over ``tokens`` (``steer_at``: 1 where to steer, ``None``:
        everywhere), writing their keys and values to the cache; the last hidden states."""
        import torch
        from torch.nn.functional import linear

        batch, width = tokens.shape
        hidden = self.embed(tokens)
        cos, sin = self.rotary(hidden, positions)
        cos, sin = cos[:, :, None], sin[:, :, None]
        slot = torch.arange(batch, device=self.device)[:, None]
        rotated = self.heads + self.kv_heads
        for index, layer in enumerate(self.layers):
            attention = layer.self_attn
            normed = _rms_norm(layer.input_layernorm, hidden)
            heads = linear(normed, *self.qkv[index]).view(batch, width, -1, self.head_dim)
            turned = _rotate(heads[:, :, :rotated], cos, sin)
            query = turned[:, :, : self.heads].transpose(1, 2)
            key = turned[:, :, self.heads :].transpose(1, 2)
            value = heads[:, :, rotated:].transpose(1, 2)
            self.keys[index, rows][slot, :, positions] = key.transpose(1, 2)
            self.values[index, rows][slot, :, positions] = value.transpose(1, 2)
            mixed = attend(query, key, value, index).transpose(1, 2).reshape(batch, width, -1)
            hidden = hidden + attention.o_proj(mixed)
            normed = _rms_norm(layer.post_attention_layernorm, hidden)
            gate, up = linear(normed, *self.gate_up[index]).chunk(2, dim=-1)
            hidden = hidden + layer.mlp.down_proj(layer.mlp.act_fn(gate) * up)
            if index in self.steered:
                shift = deltas[index - self.steered.start][:, None, :]
                hidden = hidden + (shift if steer_at is None else shift * steer_at)
        return hidden

    def _attend_causal(self, query: Any, key: Any, value: Any, index: int) -> Any:
        """Prompt attention: each position over the prompt up to itself."""
        from torch.nn.functional import scaled_dot_product_attention

        repeat = self.heads // self.kv_heads
        key, value = key.repeat_interleave(repeat, 1), value.repeat_interleave(repeat, 1)
        return scaled_dot_product_attention(query, key, value, is_causal=True, scale=self.scaling)

    def _attend_cached(self, query: Any, index: int, rows: slice, length: int, mask: Any) -> Any:
        """One new position per slot over its cached positions. The query heads that share
        a key/value head are laid out as that head's queries, so nothing is repeated."""
        from torch.nn.functional import scaled_dot_product_attention

        batch = query.shape[0]
        grouped = query.reshape(batch, self.kv_heads, -1, self.head_dim)
        keys = self.keys[index, rows, :, :length]
        values = self.values[index, rows, :, :length]
        mixed = scaled_dot_product_attention(
            grouped, keys, values, attn_mask=mask, scale=self.scaling
        )
        return mixed.reshape(batch, self.heads, 1, self.head_dim)
