"""Dense retrieval (τ³'s ``openai_embeddings`` and ``qwen_embeddings``, with or without
grep): documents and queries embedded by a model, ranked by cosine similarity.

The model is ``--retrieval-model`` (default: τ³'s), on ``--retrieval-api-base`` when given
(any OpenAI-compatible server; the scripted server answers embeddings offline). Documents
are embedded from their content once per machine (the embeddings cache); each query is
embedded as the agent asks it, which blocks that episode's tool call for the request.
Ranking follows τ³: ``numpy.argsort(scores)[::-1]``, so equal scores come in reverse
collection order.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tautrait_core.builtin.retrievals.bm25 import import_numpy
from tautrait_core.builtin.retrievals.search_tools import TOP_K, grep_tool, kb_search_tool
from tautrait_core.config.parts import RetrievalSettings
from tautrait_core.domain.documents import Document, DocumentCollection
from tautrait_core.domain.tools import Tool
from tautrait_core.errors import ConfigError
from tautrait_core.llm.embeddings import EmbeddingModel, embed
from tautrait_core.paths import embeddings_cache_path
from tautrait_core.retrieval.base import Retrieval
from tautrait_core.retrieval.results import Hits
from tautrait_core.retrieval.shared import shared_index

QWEN_QUERY_PREFIX = (
    "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"
)


class DenseIndex:
    """Unit-length document vectors of a collection, searched by cosine similarity."""

    def __init__(self, documents: list[Document], model: EmbeddingModel, query_prefix: str) -> None:
        self.documents = documents
        self.model = model
        self.query_prefix = query_prefix
        self._numpy = import_numpy()
        vectors = embed(model, [document.content for document in documents]) if documents else []
        self._matrix = self._unit(self._numpy.asarray(vectors, dtype=float))

    def _unit(self, vectors: Any) -> Any:
        """Rows scaled to length 1 (zero rows stay zero, so they score 0)."""
        if vectors.size == 0:
            return vectors
        norms = self._numpy.linalg.norm(vectors, axis=-1, keepdims=True)
        return self._numpy.divide(
            vectors, norms, out=self._numpy.zeros_like(vectors), where=norms > 0
        )

    def search(self, query: str, top_k: int = TOP_K) -> Hits:
        """The ``top_k`` documents most similar to ``query``; none for an empty query."""
        if not query.strip() or not self.documents:
            return []
        vector = self._unit(self._numpy.asarray(embed(self.model, [self.query_prefix + query])[0]))
        scores = self._matrix @ vector
        order = self._numpy.argsort(scores)[::-1][:top_k]
        return [(self.documents[index], float(scores[index])) for index in order]


def check_embedding_model(model: str, api_base: str | None) -> None:
    """Refuse an embedding model that names no provider or lacks its key, before a run."""
    from tautrait_core.llm.keys import keys_not_found, unknown_provider

    problem = unknown_provider(model, None, api_base)
    if problem is not None:
        raise ConfigError(
            f"the retrieval model {model!r} names no provider litellm knows ({problem}); give "
            "a litellm embedding model with --retrieval-model, or a server with "
            "--retrieval-api-base"
        )
    missing = keys_not_found(model, None, api_base)
    if missing:
        raise ConfigError(
            f"retrieval model {model} needs {missing[0]}:\n"
            f"  tautrait keys set {missing[0]}, or --retrieval-api-base, or --retrieval bm25"
        )


class DenseRetrieval(Retrieval):
    """``KB_search`` by cosine similarity of embeddings (the model of the settings)."""

    default_model: ClassVar[str] = "text-embedding-3-large"
    query_prefix: ClassVar[str] = ""

    def __init__(self, documents: DocumentCollection, settings: RetrievalSettings) -> None:
        super().__init__(documents, settings)
        model = self.embedding_model(settings)
        kind = f"dense:{model.model}@{model.api_base}:{self.query_prefix}"
        self.index = shared_index(
            kind, documents, lambda: DenseIndex(documents.documents, model, self.query_prefix)
        )

    @classmethod
    def embedding_model(cls, settings: RetrievalSettings) -> EmbeddingModel:
        """The embedding model these settings name (else the configuration's default)."""
        return EmbeddingModel(
            model=settings.model or cls.default_model,
            api_base=settings.api_base,
            cache_path=embeddings_cache_path(),
        )

    @classmethod
    def check(cls, settings: RetrievalSettings) -> None:
        check_embedding_model(settings.model or cls.default_model, settings.api_base)

    def tools(self) -> list[Tool]:
        return [kb_search_tool(self.index.search)]


class OpenAIEmbeddings(DenseRetrieval):
    name = "openai_embeddings"
    description = "KB_search by embeddings (text-embedding-3-large unless --retrieval-model)"
    template = "classic_rag_openai_no_grep"
    instructions = (
        "## Knowledge base\n\nSearch the knowledge base with the `KB_search` tool (dense "
        "retrieval: documents ranked by meaning)."
    )


class OpenAIEmbeddingsGrep(OpenAIEmbeddings):
    name = "openai_embeddings_grep"
    description = "KB_search by embeddings, and grep"
    template = "classic_rag_openai"
    instructions = (
        "## Knowledge base\n\nSearch the knowledge base with the `KB_search` tool (dense "
        "retrieval: documents ranked by meaning) and the `grep` tool (a regular expression "
        "over the documents)."
    )

    def tools(self) -> list[Tool]:
        return [*super().tools(), grep_tool(self.documents)]


class QwenEmbeddings(OpenAIEmbeddings):
    name = "qwen_embeddings"
    description = "KB_search by Qwen3 embeddings (OpenRouter unless --retrieval-api-base)"
    template = "classic_rag_qwen_no_grep"
    default_model = "openrouter/qwen/qwen3-embedding-8b"
    query_prefix = QWEN_QUERY_PREFIX


class QwenEmbeddingsGrep(OpenAIEmbeddingsGrep):
    name = "qwen_embeddings_grep"
    description = "KB_search by Qwen3 embeddings, and grep"
    template = "classic_rag_qwen"
    default_model = QwenEmbeddings.default_model
    query_prefix = QWEN_QUERY_PREFIX
