"""Dense retrieval against the scripted server's embeddings: ranking, the embeddings cache
on disk, and what is refused before a run."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core import Document, DocumentCollection, RetrievalSettings, RunConfig, execute
from tautrait_core.builtin.retrievals.dense import OpenAIEmbeddings, OpenAIEmbeddingsGrep
from tautrait_core.cli import cli
from tautrait_core.errors import ConfigError, StorageError
from tautrait_core.retrieval.shared import forget_built
from tautrait_core.scripted.server import ScriptedModelServer

DOCUMENTS = DocumentCollection(
    [
        Document("fines", "Late fines", "late books cost a fine per day"),
        Document("hours", "Opening hours", "the library opens at nine every day"),
        Document("cards", "Cards", "a lost card is replaced"),
    ]
)


def settings(server: ScriptedModelServer, **changes: str) -> RetrievalSettings:
    return RetrievalSettings(**{"model": "openai/embed", "api_base": server.base_url, **changes})


def test_queries_rank_documents_by_cosine_and_print_as_kb_search() -> None:
    forget_built()
    with ScriptedModelServer() as server:
        kb_search, grep = OpenAIEmbeddingsGrep(DOCUMENTS, settings(server)).tools()
        output = kb_search.invoke(None, {"query": "when does the library open"})
        assert [request["input"] for request in server.embedding_requests][-1] == [
            "when does the library open"
        ]
    assert output.startswith("1. Opening hours\n   ID: hours\n   Score: 0.")
    assert output.count("   ID: ") == 3 and "[Timing: retrieval=" in output
    assert grep.name == "grep" and grep.invoke(None, {"pattern": "card"}).startswith("1. Cards")
    assert kb_search.invoke(None, {"query": "  "}).startswith("No relevant documents found.")


def test_documents_are_embedded_once_per_machine(tautrait_home: Path) -> None:
    forget_built()
    with ScriptedModelServer() as server:
        OpenAIEmbeddings(DOCUMENTS, settings(server))
        assert [len(request["input"]) for request in server.embedding_requests] == [3]
        forget_built()  # as a new process would start
        OpenAIEmbeddings(DOCUMENTS, settings(server))
        assert len(server.embedding_requests) == 1  # read from the cache on disk
        forget_built()
        OpenAIEmbeddings(DOCUMENTS, settings(server, model="openai/other-embed"))
        assert len(server.embedding_requests) == 2  # another model embeds them again
    assert (tautrait_home / "embeddings-cache.db").is_file()


def test_a_damaged_cache_is_one_error_naming_the_file_and_the_fix(tautrait_home: Path) -> None:
    forget_built()
    tautrait_home.mkdir(parents=True, exist_ok=True)
    cache = tautrait_home / "embeddings-cache.db"
    cache.write_bytes(b"this is not a database" * 100)
    with ScriptedModelServer() as server, pytest.raises(StorageError) as raised:
        OpenAIEmbeddings(DOCUMENTS, settings(server))
    message = str(raised.value)
    assert message.startswith(f"{cache} is not a tautrait embeddings cache (")
    assert message.endswith(
        "delete it (documents are embedded again on the next run) or move it away"
    )
    assert "\n" not in message


def test_a_dense_run_needs_a_key_or_a_server(
    knowledge_plugin: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="needs OPENAI_API_KEY"):
        execute(RunConfig(domain="toyknow", agent="oracle", retrieval="openai_embeddings"))
    refused = CliRunner(env={"COLUMNS": "80"}).invoke(
        cli, ["run", "--domain", "toyknow", "--agent", "oracle", "--retrieval", "openai_embeddings"]
    )
    assert refused.exit_code == 1  # in 80 columns (was one line of 268)
    assert refused.output == (
        "Error: retrieval model text-embedding-3-large needs OPENAI_API_KEY:\n"
        "  tautrait keys set OPENAI_API_KEY, or --retrieval-api-base, or --retrieval bm25\n"
    )
    forget_built()
    with ScriptedModelServer() as server:
        config = RunConfig(
            domain="toyknow",
            agent="oracle",
            retrieval="openai_embeddings_grep",
            retrieval_model="openai/embed",
            retrieval_api_base=server.base_url,
        )
        report = execute(config)
    assert report.metrics.average_reward == 1.0
    assert report.run.config["retrieval_model"] == "openai/embed"
