"""The agent's search tools with τ³'s names, parameters and output text (domain-spec B.9).

Each tool is a :class:`~tautrait_core.domain.tools.Tool` of type ``read`` (never replayed,
never part of the database) whose episode-database argument goes unused: the documents are
the same in every episode.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tautrait_core.domain.documents import DocumentCollection
from tautrait_core.domain.tools import Tool
from tautrait_core.retrieval.results import NO_MATCHES, Hits, hit_list, timed_search

Search = Callable[[str, int], Hits]
"""``search(query, top_k)``: the best documents, best first."""

TOP_K = 10
"""How many documents a KB search retrieves (τ³'s ``top_k``) and grep keeps (``grep_top_k``)."""


def kb_search_tool(search: Search, top_k: int = TOP_K) -> Tool:
    """``KB_search(query)``: the ``top_k`` best documents, with the timing trailer."""

    def kb_search(db: object, query: str) -> str:
        """Search the knowledge base for documents relevant to a query.

        Args:
            query: What to look for, in words.
        """
        return timed_search(lambda: search(query, top_k), lambda hits: hits)

    return Tool(kb_search, name="KB_search")


def kb_search_k_tool(name: str, search: Search, method: str) -> Tool:
    """``<name>(query, k=10)`` (AllTools' ``KB_search_bm25`` / ``KB_search_dense``): the 10
    best documents cut to the first ``k`` (so at most 10, and a negative ``k`` drops the
    last ones, as in τ³)."""

    def kb_search(db: object, query: str, k: int = TOP_K) -> str:
        return timed_search(lambda: search(query, TOP_K), lambda hits: hits[:k])

    kb_search.__doc__ = f"""Search the knowledge base with {method}.

        Args:
            query: What to look for, in words.
            k: How many documents to return (at most 10).
        """
    return Tool(kb_search, name=name)


def grep_search(
    documents: DocumentCollection, pattern: str, top_k: int = TOP_K, case_sensitive: bool = False
) -> Hits:
    """Documents whose content matches ``pattern``, by number of matches (ties in collection
    order), the first ``top_k``. A pattern that is not a valid regular expression is
    searched literally; an empty one finds nothing. Case is ignored unless asked."""
    if not pattern.strip():
        return []
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        compiled = re.compile(re.escape(pattern), flags)
    counted = [
        (document, len(compiled.findall(document.content))) for document in documents.documents
    ]
    hits = [(document, float(count)) for document, count in counted if count]
    hits.sort(key=lambda hit: hit[1], reverse=True)
    return hits[:top_k]


def grep_tool(documents: DocumentCollection, top_k: int = TOP_K) -> Tool:
    """``grep(pattern)``: the documents with the most matches, without a timing trailer."""

    def grep(db: object, pattern: str) -> str:
        """Search the knowledge base's documents with a regular expression (case ignored).

        Args:
            pattern: A Python regular expression, or plain text.
        """
        hits = grep_search(documents, pattern, top_k)
        return hit_list(hits) if hits else NO_MATCHES.format(pattern=pattern)

    return Tool(grep, name="grep")
