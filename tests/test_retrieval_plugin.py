"""A third-party retrieval configuration, as docs/retrieval.md writes it, registered through
the ``register_retrievals`` hook and chosen with ``--retrieval``."""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core import RunConfig, prepare
from tautrait_core.cli import cli
from tautrait_core.plugins import get_plugin_manager

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "retrieval.md"


@pytest.fixture
def keywords_plugin(knowledge_plugin: object, tmp_path: Path) -> Iterator[object]:
    """The guide's ``tautrait_keywords`` package, written out, imported and registered."""
    text = GUIDE.read_text(encoding="utf-8")
    (source,) = re.findall(r"```python\n# tautrait_keywords/__init__.py\n(.*?)```", text, re.S)
    package = tmp_path / "tautrait_keywords"
    package.mkdir()
    (package / "__init__.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("tautrait_keywords")
        get_plugin_manager().register(module, name="keywords")
        yield module
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("tautrait_keywords", None)


def test_the_guides_keyword_retrieval_runs_and_is_stored(keywords_plugin: object) -> None:
    result = CliRunner().invoke(
        cli,
        ["run", "--domain", "toyknow", "--agent", "oracle", "--retrieval", "keywords", "--json"],
    )
    assert result.exit_code == 0, result.output
    run_id = json.loads(result.output)["run_id"]
    report = json.loads(CliRunner().invoke(cli, ["report", run_id, "--json"]).output)
    assert report["config"]["retrieval"] == "keywords"

    prepared = prepare(RunConfig(domain="toyknow", agent="oracle", retrieval="keywords"))
    domain, episode_domain = prepared.domain, prepared.episode_domain(0)
    assert [t.name for t in episode_domain.tools[:2]] == ["lookup", "find_member"]
    assert episode_domain.policy == (
        f"{domain.policy}\n\nLook things up in the knowledge base with the `lookup` tool."
    )
    lookup = episode_domain.tools_by_name["lookup"]
    assert lookup.invoke(None, {"query": "when does the library open"}).startswith(
        "1. Opening hours\n   ID: doc_hours\n   Score: 2.0000\n"
    )
    assert lookup.invoke(None, {"query": "zebra"}) == "Nothing found."
