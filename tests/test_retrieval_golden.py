"""τ³'s retrieval outputs and policies, reproduced from its reference material (τ²-bench
v1.0.1's banking_knowledge documents, prompts and golden files)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tautrait_core import (
    Document,
    DocumentCollection,
    Domain,
    RetrievalSettings,
    Task,
    tool,
    without_timing,
)
from tautrait_core.builtin.retrievals.bm25 import BM25Grep
from tautrait_core.builtin.retrievals.grep import GrepOnly
from tautrait_core.builtin.retrievals.knowledge import (
    FullKnowledgeBase,
    GoldenRetrieval,
    NoKnowledge,
)
from tautrait_core.builtin.retrievals.search_tools import kb_search_k_tool
from tautrait_core.retrieval.episode_domain import with_retrieval

TRAILER = re.compile(r"\n\n\[Timing: retrieval=\d+ms(, reranking=\d+ms)?, total=\d+ms\]$")


@pytest.fixture(scope="module")
def tau3(request: pytest.FixtureRequest) -> Path:
    from tautrait_core.testing import reference_material_dir

    folder = reference_material_dir(request.path) / "tau3-bench"
    if not folder.is_dir():
        pytest.skip(f"τ³ reference material not found at {folder}")
    return folder


@pytest.fixture(scope="module")
def knowledge_base(tau3: Path) -> DocumentCollection:
    """The 698 documents in τ³'s load order (which breaks ties), with τ³'s prompts."""
    order = json.loads((tau3 / "golden" / "retrieval_kb_order.json").read_text())["order"]
    data = tau3 / "data" / "banking_knowledge"
    return DocumentCollection.from_folder(data / "documents", order, prompts=data / "prompts")


def golden(tau3: Path, name: str) -> list[dict[str, Any]]:
    lines = (tau3 / "golden" / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_the_collection_loads_in_the_given_order(knowledge_base: DocumentCollection) -> None:
    documents = knowledge_base.documents
    assert len(documents) == 698
    assert documents[0].id == "doc_business_savings_accounts_platinum_reserve_account_005"
    assert knowledge_base.resolve([documents[3].title, documents[5].id]) == [
        documents[3],
        documents[5],
    ]


def test_bm25_ranks_and_prints_as_tau3_ties_and_timing_aside(
    tau3: Path, knowledge_base: DocumentCollection
) -> None:
    retrieval = BM25Grep(knowledge_base, RetrievalSettings())
    kb_search = retrieval.tools()[0]
    kb_search_bm25 = kb_search_k_tool("KB_search_bm25", retrieval.index.search, "BM25")
    records = golden(tau3, "retrieval_bm25.jsonl")
    assert sum(record.get("tie_at_rank_10_11", False) for record in records) > 10
    for record in records:
        if record["tool"] == "KB_search":
            output = kb_search.invoke(None, {"query": record["query"]})
            scores = retrieval.index.scores(record["query"])
            assert int((scores > 0).sum()) == record["n_nonzero"], record["query"]
        else:
            arguments = {"query": record["query"], "k": record["k"]}
            output = kb_search_bm25.invoke(None, arguments)
        assert without_timing(output) == record["output_without_timing"], record["query"]
        assert TRAILER.search(output), output[-80:]


def test_grep_output_is_byte_identical(tau3: Path, knowledge_base: DocumentCollection) -> None:
    (grep,) = GrepOnly(knowledge_base, RetrievalSettings()).tools()
    for record in golden(tau3, "retrieval_grep.jsonl"):
        assert grep.invoke(None, {"pattern": record["pattern"]}) == record["output"], record


def test_policies_are_assembled_as_tau3_assembles_them(
    tau3: Path, knowledge_base: DocumentCollection
) -> None:
    policies = json.loads((tau3 / "golden" / "banking_policies.json").read_text())
    task = Task(user_id="", instruction="")
    for configuration in (NoKnowledge, BM25Grep.__base__, BM25Grep, GrepOnly, FullKnowledgeBase):
        built = configuration(knowledge_base, RetrievalSettings())  # type: ignore[misc]
        assert built.policy("(unused)", task) == policies[configuration.name], configuration.name
    golden_retrieval = GoldenRetrieval(knowledge_base, RetrievalSettings())
    tasks = tau3 / "data" / "banking_knowledge" / "tasks"
    for task_id, expected in policies["golden_retrieval"].items():
        required = json.loads((tasks / f"{task_id}.json").read_text())["required_documents"]
        task = Task(user_id="", instruction="", required_documents=required)
        assert golden_retrieval.policy("(unused)", task) == expected, task_id


@tool
def get_current_time(db: object) -> str:
    """The time."""
    return "now"


def schema_shape(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool schema without descriptions (as tool_schemas.json records them)."""
    if isinstance(schema, dict):
        return {k: schema_shape(v) for k, v in schema.items() if k not in ("description",)}
    return schema


def test_tools_come_first_with_tau3s_names_parameters_and_types(
    tau3: Path, knowledge_base: DocumentCollection
) -> None:
    schemas = json.loads((tau3 / "tool_schemas.json").read_text())["banking_knowledge"]
    domain = Domain("bank", "policy", [], list, [get_current_time])
    task = Task(user_id="", instruction="")
    for configuration in (NoKnowledge, BM25Grep.__base__, BM25Grep, GrepOnly, FullKnowledgeBase):
        built = configuration(knowledge_base, RetrievalSettings())  # type: ignore[misc]
        seen = with_retrieval(domain, built, task)
        expected = schemas["agent_by_retrieval_config"][configuration.name]
        assert [schema_shape(s["function"]) for s in seen.tool_schemas[: len(expected)]] == [
            s["function"] for s in expected
        ]
        assert seen.tools[len(expected)].name == "get_current_time"
        assert all(t.tool_type == "read" and not t.mutates_state for t in built.tools())


def test_equal_scores_keep_the_collection_order_and_zero_scores_fill_the_list() -> None:
    texts = ["b x", "a", "c", "a", "d"]
    documents = DocumentCollection([Document(str(i), f"T{i}", t) for i, t in enumerate(texts)])
    hits = BM25Grep(documents, RetrievalSettings()).index.search("A", top_k=4)
    assert [document.id for document, _ in hits] == ["1", "3", "0", "2"]
    assert hits[0][1] == hits[1][1] > 0 and hits[2][1] == hits[3][1] == 0
