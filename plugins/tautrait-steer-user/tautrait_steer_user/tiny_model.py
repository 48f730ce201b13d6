"""Randomly initialised Llama models and a word-level tokenizer, built in memory.

For the tests and the serving benchmark (a tiny model on CPU, a Llama-3.2-1B-shaped one on
a GPU): nothing is downloaded. The vocabulary is the lower-cased words and punctuation of
the contrastive examples plus the chats the plugin renders, so every shipped example
tokenizes without unknown words; filler words can pad it to a model's vocabulary size.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tautrait_steer_user.pairs import load_pairs

SPECIAL_TOKENS = ["<unk>", "<pad>", "<s>", "</s>", "<|system|>", "<|user|>", "<|assistant|>"]
CHAT_TEMPLATE = (
    "<s>{% for message in messages %}<|{{ message['role'] }}|> {{ message['content'] }} "
    "{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
EXTRA_TEXT = (
    "you are a customer writing to a customer-service agent. hello, how can i help you today? "
    "could you please confirm your order number so i can look it up? "
    "playing the customer who has contacted agent stay in this role"
)


def tiny_tokenizer(vocab_size: int | None = None) -> Any:
    """A ``PreTrainedTokenizerFast`` over a small word-level vocabulary, with a chat template.

    Args:
        vocab_size: Pad the vocabulary with filler words (``zz1``, ``zz2``, ...) to this
            size, so that every id of a model this wide decodes.
    """
    from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    pairs = load_pairs()
    texts = [*pairs.neutral, *(t for turns in pairs.by_trait.values() for t in turns), EXTRA_TEXT]
    words = sorted({word for text in texts for word in re.findall(r"\w+|[^\w\s]", text.lower())})
    tokens = [*SPECIAL_TOKENS, *words]
    tokens += [f"zz{index}" for index in range(1, (vocab_size or 0) - len(tokens) + 1)]
    vocab = {token: index for index, token in enumerate(tokens)}
    backend = Tokenizer(WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
    backend.add_special_tokens(SPECIAL_TOKENS)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="<unk>",
        pad_token="<pad>",
        bos_token="<s>",
        eos_token="</s>",
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def random_llama(
    config: Mapping[str, Any], device: str = "cpu", dtype: str = "float32", seed: int = 0
) -> Any:
    """A randomly initialised Llama model (eval mode), created directly on ``device``.

    Args:
        config: ``LlamaConfig`` fields, as in a model's ``config.json``.
        device: Where its weights are created and initialised.
        dtype: ``float32``, ``bfloat16`` or ``float16``.
        seed: Seed of the initialisation.
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    default = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, dtype))
    try:
        with torch.device(device):
            model = LlamaForCausalLM(LlamaConfig(**config))
    finally:
        torch.set_default_dtype(default)
    return model.eval()


def tiny_model(vocab_size: int, seed: int = 0, layers: int = 4, hidden: int = 64) -> Any:
    """A randomly initialised Llama-architecture model (float32, eval mode)."""
    config = {
        "vocab_size": vocab_size,
        "hidden_size": hidden,
        "intermediate_size": 2 * hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": 4,
        "num_key_value_heads": 4,
        "max_position_embeddings": 1024,
        "pad_token_id": 1,
        "bos_token_id": 2,
        "eos_token_id": 3,
    }
    return random_llama(config, seed=seed)


def tiny_model_and_tokenizer(seed: int = 0, layers: int = 4, hidden: int = 64) -> tuple[Any, Any]:
    """The tiny model with its tokenizer."""
    tokenizer = tiny_tokenizer()
    return tiny_model(len(tokenizer), seed, layers, hidden), tokenizer
