"""``alltools`` (τ³'s default, alias ``AllTools``) and ``alltools-qwen``: BM25, dense
retrieval and the read-only shell together (``KB_search_bm25``, ``KB_search_dense``,
``shell``). They need an embedding model and a sandbox."""

from __future__ import annotations

from typing import ClassVar

from tautrait_core.builtin.retrievals.bm25 import bm25_index
from tautrait_core.builtin.retrievals.dense import QWEN_QUERY_PREFIX, DenseRetrieval
from tautrait_core.builtin.retrievals.sandbox import require_sandbox
from tautrait_core.builtin.retrievals.search_tools import kb_search_k_tool
from tautrait_core.builtin.retrievals.shell import documents_folder, shell_tool
from tautrait_core.config.parts import RetrievalSettings
from tautrait_core.domain.documents import DocumentCollection
from tautrait_core.domain.tools import Tool
from tautrait_core.types.task import Task


class AllTools(DenseRetrieval):
    """BM25 and dense search with ``k``, and the read-only shell."""

    name = "alltools"
    description = "BM25, embeddings and a read-only shell (τ³'s default)"
    template = "all_tools"
    instructions = (
        "## Knowledge base\n\nSearch the knowledge base with `KB_search_bm25` (BM25), "
        "`KB_search_dense` ({{all_tools_dense_instructions}}) and the read-only `shell` over "
        "its Markdown files."
    )
    provider_words: ClassVar[str] = "**OpenAI API**"
    model_words: ClassVar[str] = "text-embedding-3-large"

    def __init__(self, documents: DocumentCollection, settings: RetrievalSettings) -> None:
        super().__init__(documents, settings)
        self.bm25 = bm25_index(documents)
        self.root = documents_folder(documents)

    @classmethod
    def check(cls, settings: RetrievalSettings) -> None:
        super().check(settings)
        require_sandbox(cls.name)

    def tools(self) -> list[Tool]:
        return [
            kb_search_k_tool("KB_search_bm25", self.bm25.search, "BM25"),
            kb_search_k_tool("KB_search_dense", self.index.search, "dense embeddings"),
            shell_tool(self.root),
        ]

    def placeholders(self, task: Task) -> dict[str, str]:
        provider = self.provider_words if self.settings.api_base is None else "a server"
        model = self.settings.model or self.model_words
        return {
            "all_tools_dense_instructions": f"The `KB_search_dense` tool uses {provider} with "
            f"embedding model `{model}` for dense retrieval."
        }


class AllToolsQwen(AllTools):
    name = "alltools-qwen"
    description = "BM25, Qwen3 embeddings and a read-only shell"
    default_model = "openrouter/qwen/qwen3-embedding-8b"
    query_prefix = QWEN_QUERY_PREFIX
    provider_words = "**OpenRouter**"
    model_words = "qwen3-embedding-8b"
