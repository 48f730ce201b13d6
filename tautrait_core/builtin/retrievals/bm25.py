"""BM25 as τ³ ranks it (domain-spec B.9.2), with ``rank_bm25.BM25Okapi``: the library τ³
uses, so scores match to the last bit.

Documents are indexed by ``content.lower().split()`` (titles are not indexed), with the
library's defaults (k1 1.5, b 0.75, epsilon 0.25). A query is tokenised the same way; an
empty one finds nothing. Ranking is a stable sort by score, so equal scores keep the
collection's order, and there is no threshold: the first ``top_k`` documents are returned
even when their score is 0. (bm25s is faster, but its scoring variants differ from
``BM25Okapi``'s, so its rankings differ: ``bench/retrieval.py`` measures both.)
"""

from __future__ import annotations

from typing import Any

from tautrait_core.builtin.retrievals.search_tools import TOP_K, grep_tool, kb_search_tool
from tautrait_core.domain.documents import Document, DocumentCollection
from tautrait_core.errors import ConfigError
from tautrait_core.retrieval.base import Retrieval
from tautrait_core.retrieval.results import Hits
from tautrait_core.retrieval.shared import shared_index

INSTALL_HINT = "install it with: pip install 'tautrait-core[retrieval]'"


def import_numpy() -> Any:
    """numpy, or a :class:`ConfigError` saying how to install it."""
    try:
        import numpy
    except ImportError as exc:
        raise ConfigError(
            f"this retrieval needs numpy, which is not installed; {INSTALL_HINT}"
        ) from exc
    return numpy


class BM25Index:
    """A BM25 (Okapi) index of a collection's contents."""

    def __init__(self, documents: list[Document]) -> None:
        try:
            from rank_bm25 import BM25Okapi
        except ImportError as exc:
            raise ConfigError(
                f"BM25 retrieval needs rank-bm25, which is not installed; {INSTALL_HINT}"
            ) from exc
        self.documents = documents
        self._numpy = import_numpy()
        corpus = [document.content.lower().split() for document in documents]
        self._okapi = BM25Okapi(corpus) if documents else None

    def scores(self, query: str) -> Any:
        """Every document's score for ``query`` (a numpy array in collection order)."""
        tokens = query.lower().split()
        if self._okapi is None or not tokens:
            return self._numpy.zeros(0 if self._okapi is None else len(self.documents))
        return self._okapi.get_scores(tokens)

    def search(self, query: str, top_k: int = TOP_K) -> Hits:
        """The ``top_k`` best documents for ``query``, best first (equal scores in
        collection order); none for an empty query."""
        if self._okapi is None or not query.split():
            return []
        scores = self.scores(query)
        order = self._numpy.argsort(-scores, kind="stable")[: min(top_k, len(scores))]
        return [(self.documents[index], float(scores[index])) for index in order]


def bm25_index(documents: DocumentCollection) -> BM25Index:
    """The collection's BM25 index, built once per process."""
    return shared_index("bm25", documents, lambda: BM25Index(documents.documents))


class BM25(Retrieval):
    """``KB_search``: the 10 best documents by BM25."""

    name = "bm25"
    description = "KB_search over a BM25 index (offline)"
    template = "classic_rag_bm25_no_grep"
    instructions = (
        "## Knowledge base\n\nSearch the knowledge base with the `KB_search` tool (BM25 "
        "ranking) whenever you need information the policy does not give."
    )

    def __init__(self, documents: DocumentCollection, settings: Any) -> None:
        super().__init__(documents, settings)
        self.index = bm25_index(documents)

    def tools(self) -> list[Any]:
        return [kb_search_tool(self.index.search)]


class BM25Grep(BM25):
    """``KB_search`` by BM25, and ``grep`` over the contents."""

    name = "bm25_grep"
    description = "KB_search over a BM25 index and grep (offline)"
    template = "classic_rag_bm25"
    instructions = (
        "## Knowledge base\n\nSearch the knowledge base with the `KB_search` tool (BM25 "
        "ranking) and the `grep` tool (a regular expression over the documents)."
    )

    def tools(self) -> list[Any]:
        return [*super().tools(), grep_tool(self.documents)]
