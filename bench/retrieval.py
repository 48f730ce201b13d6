"""Retrieval cost: index build time and per-query latency of each offline configuration.

On τ³'s 698 banking documents (``--tau3 PATH``, default ``../shared/peers/tau3-bench``, in
τ³'s recorded order) with τ³'s golden queries and grep patterns, or, where that material is
absent, on a synthetic collection of the same size. Printed per configuration: the index
build (median of ``--repeat`` fresh builds) and the median latency of one search over the
queries, measured through the agent's tool (ranking and printing included). BM25 is timed
with rank-bm25 (what tautrait ships: it ranks as τ³) and with bm25s (``pip install bm25s``;
skipped when missing) over the same tokens in the same run, with the ratio, and how many
queries' top 10 agree. Dense retrieval is timed against the scripted server's embeddings
(loopback HTTP; documents from the cache after the first build), the shell when bubblewrap
can make a sandbox here.

    python bench/retrieval.py --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_TAU3 = Path(__file__).resolve().parents[2] / "shared" / "peers" / "tau3-bench"


def collection(tau3: Path) -> tuple[Any, list[str], list[str], str]:
    """(documents, queries, grep patterns, where they come from)."""
    from tautrait_core import Document, DocumentCollection

    documents_folder = tau3 / "data" / "banking_knowledge" / "documents"
    if documents_folder.is_dir():
        order = json.loads((tau3 / "golden" / "retrieval_kb_order.json").read_text())["order"]
        records = [json.loads(x) for x in (tau3 / "golden" / "retrieval_bm25.jsonl").open()]
        patterns = [
            json.loads(x)["pattern"] for x in (tau3 / "golden" / "retrieval_grep.jsonl").open()
        ]
        queries = [r["query"] for r in records if r["tool"] == "KB_search" and r["query"].strip()]
        documents = DocumentCollection.from_folder(documents_folder, order)
        return documents, queries, patterns, f"τ³ banking_knowledge ({documents_folder})"
    rng = random.Random(7)
    words = [f"w{index}" for index in range(3000)]
    documents = [
        Document(f"doc_{i:03d}", f"Title {i}", " ".join(rng.choices(words, k=rng.randint(40, 400))))
        for i in range(698)
    ]
    queries = [" ".join(rng.choices(words, k=rng.randint(2, 9))) for _ in range(100)]
    patterns = [rng.choice(words) for _ in range(100)]
    return DocumentCollection(documents), queries, patterns, "synthetic (698 documents)"


def median_ms(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def per_query_ms(search: Callable[[str], object], queries: list[str]) -> float:
    search(queries[0])  # warm-up
    times = []
    for query in queries:
        started = time.perf_counter()
        search(query)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def bm25s_rows(
    documents: Any, queries: list[str], repeat: int
) -> list[tuple[str, float | None, float | None]]:
    """rank-bm25 against bm25s on the same tokens: (label, build ms, query ms), plus how
    often their top 10 agree (printed)."""
    import numpy
    from rank_bm25 import BM25Okapi

    corpus = [document.content.lower().split() for document in documents.documents]
    tokens = [query.lower().split() for query in queries]
    okapi = BM25Okapi(corpus)

    def okapi_top(query: list[str]) -> list[int]:
        return list(numpy.argsort(-okapi.get_scores(query), kind="stable")[:10])

    rows = [
        (
            "rank-bm25 BM25Okapi",
            median_ms(lambda: BM25Okapi(corpus), repeat),
            per_query_ms(okapi_top, tokens),
        ),
    ]
    try:
        import bm25s
    except ImportError:
        rows.append(("(bm25s: not installed, pip install bm25s)", None, None))
        return rows

    def build() -> Any:
        index = bm25s.BM25(method="robertson", k1=1.5, b=0.75)
        index.index(corpus, show_progress=False)
        return index

    fast = build()

    def fast_top(query: list[str]) -> list[int]:
        return list(numpy.argsort(-fast.get_scores(query), kind="stable")[:10])

    rows.append(("bm25s (robertson)", median_ms(build, repeat), per_query_ms(fast_top, tokens)))
    agree = sum(okapi_top(query) == fast_top(query) for query in tokens)
    rows.append((f"(top 10 identical for {agree} of {len(tokens)} queries)", None, None))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tau3", type=Path, default=DEFAULT_TAU3, help="τ³ reference folder")
    parser.add_argument("--repeat", type=int, default=5, help="fresh index builds to time")
    args = parser.parse_args()
    os.environ.setdefault("TAUTRAIT_HOME", tempfile.mkdtemp(prefix="tautrait-bench-"))

    from tautrait_core import RetrievalSettings
    from tautrait_core.builtin.retrievals import sandbox
    from tautrait_core.builtin.retrievals.alltools import AllTools
    from tautrait_core.builtin.retrievals.bm25 import BM25, BM25Index
    from tautrait_core.builtin.retrievals.dense import DenseIndex, OpenAIEmbeddings
    from tautrait_core.builtin.retrievals.grep import GrepOnly
    from tautrait_core.builtin.retrievals.knowledge import FullKnowledgeBase
    from tautrait_core.retrieval.shared import forget_built
    from tautrait_core.scripted.server import ScriptedModelServer
    from tautrait_core.types.task import Task

    documents, queries, patterns, source = collection(args.tau3)
    settings = RetrievalSettings()
    task = Task(user_id="", instruction="")
    print(f"collection: {source}; {len(queries)} queries, {len(patterns)} grep patterns")
    rows: list[tuple[str, float | None, float | None]] = []
    notes = [f"documents read: {len(documents.documents)}"]  # read before any timing

    (kb_search,) = BM25(documents, settings).tools()
    rows.append(
        (
            "bm25 (KB_search)",
            median_ms(lambda: BM25Index(documents.documents), args.repeat),
            per_query_ms(lambda q: kb_search.invoke(None, {"query": q}), queries),
        )
    )
    (grep,) = GrepOnly(documents, settings).tools()
    rows.append(
        (
            "grep_only (grep, no index)",
            None,
            per_query_ms(lambda p: grep.invoke(None, {"pattern": p}), patterns),
        )
    )
    rows.append(
        (
            "full_kb (policy assembly)",
            median_ms(lambda: FullKnowledgeBase(documents, settings).policy("", task), args.repeat),
            None,
        )
    )
    with ScriptedModelServer() as server:
        dense_settings = RetrievalSettings(model="openai/embed", api_base=server.base_url)
        model = OpenAIEmbeddings.embedding_model(dense_settings)
        first = median_ms(lambda: DenseIndex(documents.documents, model, ""), 1)
        cached = median_ms(lambda: DenseIndex(documents.documents, model, ""), args.repeat)
        forget_built()
        (dense,) = OpenAIEmbeddings(documents, dense_settings).tools()
        rows.append(("openai_embeddings, scripted (new)", first, None))
        rows.append(
            (
                "openai_embeddings, scripted (cached)",
                cached,
                per_query_ms(
                    lambda q: dense.invoke(None, {"query": q + " " + str(time.time())}), queries
                ),
            )
        )
        if sandbox.sandbox_problem() is None:
            forget_built()
            shell = AllTools(documents, dense_settings).tools()[2]
            rows.append(
                (
                    "terminal_use (shell in bwrap)",
                    median_ms(lambda: sandbox.export_documents(documents.documents), args.repeat),
                    per_query_ms(
                        lambda p: shell.invoke(None, {"command": f"grep -ril '{p}' ."}),
                        patterns[:20],
                    ),
                )
            )
        else:
            notes.append(f"terminal_use: not measured ({sandbox.sandbox_problem()})")
    rows += bm25s_rows(documents, queries, args.repeat)
    print("; ".join(notes))
    print(f"{'configuration':<38} {'index build ms':>15} {'per query ms':>13}")
    for label, build, query in rows:
        built = f"{build:15.2f}" if build is not None else f"{'-':>15}"
        shown = f"{query:13.3f}" if query is not None else f"{'-':>13}"
        print(f"{label:<38} {built} {shown}")
    okapi = next(row for row in rows if row[0].startswith("rank-bm25"))
    fast = next((row for row in rows if row[0].startswith("bm25s")), None)
    if fast is not None:
        print(
            f"ratio bm25s / rank-bm25: build {fast[1] / okapi[1]:.2f}x, "
            f"query {fast[2] / okapi[2]:.3f}x (rank-bm25 is kept: bm25s ranks differently)"
        )


if __name__ == "__main__":
    main()
