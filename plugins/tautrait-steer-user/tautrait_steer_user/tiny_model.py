"""A tiny randomly initialised causal LM and a word-level tokenizer, built in memory.

For the tests and the CPU run of the serving benchmark: nothing is downloaded. The
vocabulary is the lower-cased words and punctuation of the contrastive examples plus the
chats the plugin renders, so every shipped example tokenizes without unknown words.
"""

from __future__ import annotations

import re
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


def tiny_tokenizer() -> Any:
    """A ``PreTrainedTokenizerFast`` over a small word-level vocabulary, with a chat template."""
    from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    pairs = load_pairs()
    texts = [*pairs.neutral, *(t for turns in pairs.by_trait.values() for t in turns), EXTRA_TEXT]
    words = sorted({word for text in texts for word in re.findall(r"\w+|[^\w\s]", text.lower())})
    vocab = {token: index for index, token in enumerate([*SPECIAL_TOKENS, *words])}
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


def tiny_model(vocab_size: int, seed: int = 0, layers: int = 4, hidden: int = 64) -> Any:
    """A randomly initialised Llama-architecture model (float32, eval mode)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=4,
        max_position_embeddings=1024,
        pad_token_id=1,
        bos_token_id=2,
        eos_token_id=3,
    )
    torch.manual_seed(seed)
    return LlamaForCausalLM(config).eval()


def tiny_model_and_tokenizer(seed: int = 0, layers: int = 4, hidden: int = 64) -> tuple[Any, Any]:
    """The tiny model with its tokenizer."""
    tokenizer = tiny_tokenizer()
    return tiny_model(len(tokenizer), seed, layers, hidden), tokenizer
