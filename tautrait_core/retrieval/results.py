"""What the search tools answer, in τ³'s exact text (domain-spec B.9.1).

A hit list is ``(document, score)`` pairs, best first. Every entry shows the title, the id,
the score with four decimals and the full content; KB searches end with a timing trailer
(``[Timing: retrieval=3ms, reranking=0ms, total=3ms]``), which is measured with a wall clock
and so differs between runs: compare outputs with :func:`without_timing`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence

from tautrait_core.domain.documents import Document

Hits = list[tuple[Document, float]]

NO_DOCUMENTS_FOUND = "No relevant documents found."
NO_MATCHES = "No matches found for pattern: {pattern}"
TIMING = re.compile(r"\[Timing: [^\]]*\]")
TIMING_REMOVED = "[Timing: <removed>]"


def hit_list(hits: Sequence[tuple[Document, float]]) -> str:
    """The entries of ``hits`` as τ³ prints them, joined by newlines (each ends with one)."""
    return "\n".join(
        f"{rank}. {document.title}\n   ID: {document.id}\n   Score: {score:.4f}\n"
        f"   Content: {document.content}\n"
        for rank, (document, score) in enumerate(hits, start=1)
    )


def timed_search(retrieve: Callable[[], Hits], post_process: Callable[[Hits], Hits]) -> str:
    """Run a KB search as τ³ does: retrieve, post-process (cut, rerank), then print the hits
    and the timing trailer (``reranking=`` shows when post-processing took any time)."""
    started = time.perf_counter()
    hits = retrieve()
    retrieved = time.perf_counter()
    hits = post_process(hits)
    finished = time.perf_counter()
    retrieval_ms = (retrieved - started) * 1000
    post_ms = (finished - retrieved) * 1000
    total_ms = (finished - started) * 1000
    trailer = f"[Timing: retrieval={retrieval_ms:.0f}ms"
    if post_ms > 0:
        trailer += f", reranking={post_ms:.0f}ms"
    trailer += f", total={total_ms:.0f}ms]"
    body = hit_list(hits) if hits else NO_DOCUMENTS_FOUND
    return f"{body}\n\n{trailer}"


def without_timing(output: str) -> str:
    """``output`` with its timing trailer replaced by ``[Timing: <removed>]`` (the form τ³'s
    golden records compare)."""
    return TIMING.sub(TIMING_REMOVED, output)
