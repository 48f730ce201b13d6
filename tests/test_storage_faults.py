"""A full disk is never the agent's failure: the run stops with one line saying how to
resume it, and exits non-zero.

Where no small file system can be mounted, a full disk is simulated with SQLite's
``max_page_count``: a write past it fails with ``SQLITE_FULL`` ("database or disk is
full"), exactly as on a full disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.errors import StorageError
from tautrait_core.llm.cache import ResponseCache, open_cache
from tautrait_core.paths import response_cache_path
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import ScriptedModelServer
from tautrait_core.store.results import ResultStore
from tests.test_serve_and_cache import model_run


def _full_cache(path: Path) -> ResponseCache:
    """The process's cache at ``path``, filled to a page limit it cannot grow past."""
    cache = open_cache(path)
    connection = cache._connection
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages + 2}")
    with pytest.raises(StorageError, match="database or disk is full"):
        for number in range(100):
            cache.put(f"filler {number}", {"text": "x" * 1000})
    return cache


def test_a_full_disk_under_the_response_cache_stops_the_run(
    toy_plugin, isolated_home: Path
) -> None:
    cache = _full_cache(response_cache_path())
    runner = CliRunner()
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])) as server:
        result = runner.invoke(cli, model_run(server.base_url, "--cache"))
    assert result.exit_code == 1
    line = result.output.splitlines()[-1]
    assert line.startswith(f"Error: could not write the response cache {cache.path}: ")
    assert "database or disk is full" in line
    (run,) = json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output)
    assert line.endswith(f"then continue with: tautrait run --resume {run['id']}")
    assert ResultStore(isolated_home / "results.db").episodes(run["id"]) == []


def test_a_full_disk_under_the_embeddings_cache_is_a_storage_fault(tmp_path: Path) -> None:
    """Not "not a tautrait embeddings cache": a healthy cache on a full disk says it could
    not be written, and what it held still reads."""
    from tautrait_core.llm.embedding_cache import EmbeddingCache

    cache = EmbeddingCache(tmp_path / "embeddings.db")
    cache.put_many("m", {"kept": [1.0, 2.0]})
    pages = cache._connection.execute("PRAGMA page_count").fetchone()[0]
    cache._connection.execute(f"PRAGMA max_page_count = {pages + 1}")
    big = {f"text {n}": [0.5] * 2048 for n in range(20)}
    with pytest.raises(StorageError) as error:
        cache.put_many("m", big)
    assert str(error.value).startswith(f"could not write the embeddings cache {cache.path}: ")
    assert "database or disk is full" in str(error.value)
    assert cache.get_many("m", ["kept", "text 0"]) == {"kept": [1.0, 2.0]}
