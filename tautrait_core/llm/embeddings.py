"""Embeddings through litellm (``litellm.embedding``), with a cache on disk.

Dense retrieval embeds a collection's documents once (a cache miss per document and model)
and each query as the agent asks it. Any OpenAI-compatible server works with ``api_base``;
without one, litellm picks the provider from the model name (``text-embedding-3-large``:
OpenAI). Vectors are cached in SQLite (:mod:`tautrait_core.llm.embedding_cache`) by model
and text hash, so a collection is embedded once per machine, not once per run.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tautrait_core.errors import ProviderError, first_line
from tautrait_core.llm.keys import server_key
from tautrait_core.llm.provider import load_litellm
from tautrait_core.llm.server_keys import LOCAL_KEY

BATCH_SIZE = 128
"""Texts per embeddings request (OpenAI accepts 2048 inputs, but also caps tokens)."""


@dataclass(frozen=True)
class EmbeddingModel:
    """Which embedding model to call and how.

    Attributes:
        model: litellm model name (``text-embedding-3-large``, ``openai/<name>`` on a
            server of your own).
        api_base: An OpenAI-compatible server (``None``: the provider's own).
        timeout_s: Per-request timeout.
        max_retries: Retries of a failed request (litellm's own backoff).
        cache_path: The embeddings cache (``None``: none).
    """

    model: str
    api_base: str | None = None
    timeout_s: float = 120.0
    max_retries: int = 4
    cache_path: Path | None = None

    def request_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``litellm.embedding`` (without ``input``)."""
        arguments: dict[str, Any] = {
            "model": self.model,
            "timeout": self.timeout_s,
            "num_retries": self.max_retries,
        }
        if self.api_base:
            arguments["api_base"] = self.api_base
            if "/" not in self.model:
                arguments["custom_llm_provider"] = "openai"
            arguments["api_key"] = server_key(self.api_base) or LOCAL_KEY
        return arguments


def text_key(text: str) -> str:
    """What identifies a text in the cache: sha256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def embed(spec: EmbeddingModel, texts: list[str]) -> list[list[float]]:
    """One vector per text, in order: from the cache where it has them, else from the model
    (in batches of :data:`BATCH_SIZE`), which fills the cache.

    Raises:
        ProviderError: the model kept failing or answered something that is not one
            vector per text.
        StorageError: the cache file is damaged.
    """
    from tautrait_core.llm.embedding_cache import open_embedding_cache

    cache = open_embedding_cache(spec.cache_path) if spec.cache_path is not None else None
    keys = [text_key(text) for text in texts]
    found = cache.get_many(spec.model, keys) if cache is not None else {}
    missing = list(dict.fromkeys(key for key in keys if key not in found))
    text_of = dict(zip(keys, texts, strict=True))
    for start in range(0, len(missing), BATCH_SIZE):
        batch = missing[start : start + BATCH_SIZE]
        vectors = _request(spec, [text_of[key] for key in batch])
        new = dict(zip(batch, vectors, strict=True))
        found.update(new)
        if cache is not None:
            cache.put_many(spec.model, new)
    return [found[key] for key in keys]


def _request(spec: EmbeddingModel, texts: list[str]) -> list[list[float]]:
    litellm = load_litellm()
    try:
        response = litellm.embedding(input=texts, **spec.request_arguments())
    except Exception as exc:  # litellm raises its own exception classes
        raise ProviderError(
            f"{spec.model}: embeddings failed: {type(exc).__name__}: {first_line(exc)}"
        ) from exc
    items = sorted(response.data, key=lambda item: _field(item, "index"))
    vectors = [[float(x) for x in _field(item, "embedding")] for item in items]
    if len(vectors) != len(texts):
        raise ProviderError(
            f"{spec.model}: asked for {len(texts)} embeddings, the server answered {len(vectors)}"
        )
    return vectors


def _field(item: Any, name: str) -> Any:
    return item[name] if isinstance(item, dict) else getattr(item, name)
