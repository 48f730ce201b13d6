"""``--retrieval`` on a toy domain with documents: chosen, checked, stored with the run, and
seen by the agent as tools before the domain's own and an assembled policy."""

from __future__ import annotations

import dataclasses
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core import RetrievalSettings, RunConfig, execute, hookimpl, prepare, tool
from tautrait_core.builtin.retrievals.bm25 import BM25, BM25Index
from tautrait_core.builtin.retrievals.grep import GrepOnly
from tautrait_core.cli import cli
from tautrait_core.errors import ConfigError, UnknownNameError
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.run.sweep_file import load_sweep_file
from tautrait_core.scripted.server import ScriptedModelServer, reply_text, reply_tool_call
from tests.plugins import toy_knowledge


def run_cli(*arguments: str) -> Any:
    return CliRunner().invoke(cli, ["run", "--agent", "oracle", "--json", *arguments])


def test_the_retrieval_is_stored_with_the_run_and_the_default_is_bm25(
    knowledge_plugin: object, tautrait_home: Path
) -> None:
    chosen = run_cli("--domain", "toyknow", "--retrieval-config", "grep_only")
    assert chosen.exit_code == 0, chosen.output
    default = run_cli("--domain", "toyknow")
    assert default.exit_code == 0, default.output
    report = CliRunner().invoke(cli, ["report", json.loads(chosen.output)["run_id"], "--json"])
    assert json.loads(report.output)["config"]["retrieval"] == "grep_only"
    report = CliRunner().invoke(cli, ["report", json.loads(default.output)["run_id"], "--json"])
    assert json.loads(report.output)["config"]["retrieval"] == "bm25"
    without = run_cli("--domain", "toylib")
    report = CliRunner().invoke(cli, ["report", json.loads(without.output)["run_id"], "--json"])
    assert "retrieval" not in json.loads(report.output)["config"]  # the layout runs had before


def test_unknown_name_and_domain_without_documents_are_one_line_each(
    knowledge_plugin: object,
) -> None:
    unknown = run_cli("--domain", "toyknow", "--retrieval", "bm52")
    assert unknown.exit_code == 1
    # a typo gets the close name, in 80 columns (was every retrieval, on 255 columns)
    said = "Error: unknown retrieval 'bm52'; did you mean 'bm25'? (see: tautrait plugins)\n"
    assert unknown.output == said
    unknown = run_cli("--domain", "toyknow", "--retrieval", "zzz")
    assert unknown.exit_code == 1  # nothing close: they are listed
    assert unknown.output.startswith("Error: unknown retrieval 'zzz' (available: alltools, ")
    assert "grep_only" in unknown.output and unknown.output.count("\n") == 1
    no_documents = run_cli("--domain", "toylib", "--retrieval", "bm25")
    assert no_documents.exit_code == 1 and no_documents.output.count("\n") == 1
    assert "domain 'toylib' has no documents to search; leave out --retrieval" in (
        no_documents.output
    )


def test_a_model_agent_searches_first_and_reads_the_hits(knowledge_plugin: object) -> None:
    user_turns = iter(["How long may I keep a book?", "###STOP###"])

    def responder(request: dict[str, Any]) -> object:
        if not request.get("tools"):
            return reply_text(next(user_turns))
        if request["messages"][-1]["role"] == "tool":
            return reply_text("Books are lent for 14 days.")
        return reply_tool_call("KB_search", {"query": "how many days are books lent"})

    with ScriptedModelServer(responder) as server:
        config = RunConfig(
            domain="toyknow",
            task_ids=[1],
            agent_model="openai/agent",
            agent_api_base=server.base_url,
            user="llm",
            user_model="openai/user",
            user_api_base=server.base_url,
        )
        report = execute(config)
        agent_request = next(r for r in server.requests if r.get("tools"))
    names = [schema["function"]["name"] for schema in agent_request["tools"]]
    assert names[:3] == ["KB_search", "find_member", "get_book"]
    policy = agent_request["messages"][0]["content"]
    assert policy.startswith("You are a library assistant.") and "`KB_search`" in policy
    (result,) = report.results
    (observation,) = [m.content for m in result.messages if m.role == "tool"]
    assert observation.startswith("1. Loan periods\n   ID: doc_loans\n   Score: ")
    assert "[Timing: retrieval=" in observation


def test_golden_retrieval_gives_each_task_its_documents_and_warns_of_missing_ones(
    knowledge_plugin: object,
) -> None:
    prepared = prepare(RunConfig(domain="toyknow", agent="oracle", retrieval="golden_retrieval"))
    first, second = prepared.episode_domain(0).policy, prepared.episode_domain(1).policy
    assert "## Loan periods\n\nBooks are lent" in first and "## Late fines" in first
    assert "Rare books" not in first and "## Rare books" in second
    assert prepared.episode_domain(0).tools == prepared.domain.tools  # no search tools
    assert prepared.warnings == [
        "1 task(s) require documents the knowledge base lacks (task 0: 'no such document'); "
        "golden_retrieval leaves them out of the policy, as τ³ does"
    ]
    report = execute(RunConfig(domain="toyknow", agent="oracle", retrieval="full_kb"))
    assert report.metrics.average_reward == 1.0  # search tools are never replayed


def test_a_prompts_folder_gives_each_configuration_its_template(tmp_path: Path) -> None:
    components = tmp_path / "components"
    components.mkdir()
    (components / "header.md").write_text("You serve library members.")
    (tmp_path / "classic_rag_bm25_no_grep.md").write_text(
        "{{component:header}}\n\nUse `KB_search`.\n{{component:footer}}"
    )
    (tmp_path / "grep_only.md").write_text("{{component:header}}\n\nUse `grep`.")
    documents = toy_knowledge.build_domain(prompts=tmp_path).documents
    assert documents is not None
    task = toy_knowledge.TASKS[0]
    assert GrepOnly(documents, RetrievalSettings()).policy("unused", task) == (
        "You serve library members.\n\nUse `grep`."
    )
    with pytest.raises(ConfigError, match=r"\{\{component:footer\}\} but .*footer.md does not"):
        BM25(documents, RetrievalSettings()).policy("unused", task)


def test_the_index_is_built_once_per_collection_and_shared(
    knowledge_plugin: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tautrait_core.retrieval.shared import forget_built

    forget_built()
    builds = []
    original = BM25Index.__init__

    def counting(self: BM25Index, documents: list) -> None:
        builds.append(len(documents))
        original(self, documents)

    monkeypatch.setattr(BM25Index, "__init__", counting)
    for retrieval in ("bm25", "bm25_grep", "bm25"):
        execute(RunConfig(domain="toyknow", agent="oracle", retrieval=retrieval, num_trials=2))
    assert builds == [len(toy_knowledge.DOCUMENTS)]


def test_a_retrieval_tool_may_not_shadow_a_domain_tool(knowledge_plugin: object) -> None:
    @tool
    def grep(db: object, pattern: str) -> str:
        """The domain's own grep.

        Args:
            pattern: What to find.
        """
        return ""

    domain = toy_knowledge.build_domain()
    clashing = dataclasses.replace(domain, name="toyclash", tools=[*domain.tools, grep])

    class Plugin:
        @staticmethod
        @hookimpl
        def register_domains(register: Any) -> None:
            register(clashing)

    get_plugin_manager().register(Plugin, name="clash")
    with pytest.raises(ConfigError, match="adds tools that domain 'toyclash' has already: grep"):
        prepare(RunConfig(domain="toyclash", agent="oracle", retrieval="grep_only"))


def test_sweep_files_take_retrieval_as_a_grid_key(knowledge_plugin: object, tmp_path: Path) -> None:
    path = tmp_path / "grid.toml"
    path.write_text(
        textwrap.dedent(
            """
            name = "retrievals"
            [base]
            domain = "toyknow"
            agent = "oracle"
            [grid]
            retrieval = ["bm25", "grep_only", "full_kb"]
            """
        )
    )
    sweep = load_sweep_file(path)
    assert [point.config.retrieval.name for point in sweep.points] == [
        "bm25",
        "grep_only",
        "full_kb",
    ]
    bad = tmp_path / "bad.toml"
    bad.write_text(path.read_text().replace('"full_kb"', '"nope"'))
    with pytest.raises(Exception, match="unknown retrieval 'nope'"):
        load_sweep_file(bad)


def test_plugins_lists_the_retrievals(knowledge_plugin: object) -> None:
    listed = json.loads(CliRunner().invoke(cli, ["plugins", "--json"]).output)
    core = next(p for p in listed if p["name"] == "tautrait_core.builtin.retrievals")
    assert {"bm25", "grep_only", "full_kb", "terminal_use"} <= set(core["registers"]["retrieval"])


def test_unknown_retrieval_in_the_library_is_an_unknown_name(knowledge_plugin: object) -> None:
    with pytest.raises(UnknownNameError):
        prepare(RunConfig(domain="toyknow", agent="oracle", retrieval="nope"))


def test_bm25_without_its_extra_says_how_to_install_it(
    knowledge_plugin: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tautrait_core.retrieval.shared import forget_built

    forget_built()
    monkeypatch.setitem(sys.modules, "rank_bm25", None)
    with pytest.raises(ConfigError) as raised:
        prepare(RunConfig(domain="toyknow", agent="oracle", retrieval="bm25"))
    assert str(raised.value) == (
        "BM25 retrieval needs rank-bm25, which is not installed; install it with: "
        "pip install 'tautrait-core[retrieval]'"
    )


def test_report_names_the_retrieval_of_the_run(
    knowledge_plugin: object, tautrait_home: Path
) -> None:
    """Runs of one domain with different retrievals are told apart in report and view."""
    chosen = run_cli("--domain", "toyknow", "--retrieval", "grep_only")
    assert chosen.exit_code == 0, chosen.output
    report = CliRunner().invoke(cli, ["report", json.loads(chosen.output)["run_id"]])
    assert "retrieval grep_only" in report.output.split("Episodes:")[0]  # the heading
    plain = run_cli("--domain", "toylib")
    report = CliRunner().invoke(cli, ["report", json.loads(plain.output)["run_id"]])
    assert "retrieval" not in report.output  # a domain without documents has none
