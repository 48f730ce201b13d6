"""``--agent a2a``: a third-party agent service (examples/openai-agents-a2a, the OpenAI
Agents SDK behind A2A) scored through the episode's MCP tool endpoint, as a separate
process driven by the scripted model server."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.remote.mcp_server import ToolServer
from tautrait_core.remote.tool_channel import ToolChannel
from tautrait_core.run.runner import execute
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import ScriptedModelServer
from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tests.remote_agents import (
    EXAMPLE_PROCESSES,
    a2a_config,
    example_agent,
    free_port,
    misbehaving_agent,
    native_config,
)

pytest.importorskip("agents", reason="the example agent needs openai-agents")
pytest.importorskip("a2a", reason="--agent a2a needs a2a-sdk")


def trajectory(result: EpisodeResult) -> list[tuple[str, str | None, str | None]]:
    """What grading sees of an episode: each message's role, tool and text or arguments."""
    shown = []
    for message in result.messages:
        calls = message.tool_calls or []
        for call in calls:
            shown.append(("call", call.name, call.arguments.replace(" ", "")))
        if not calls:
            shown.append((message.role, message.name, message.content or None))
    return shown


@pytest.mark.parametrize("streaming", [True, False], ids=["streaming", "message-send"])
def test_the_example_agent_scores_as_the_tool_calling_agent(toy_plugin, streaming) -> None:
    script = GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer(script) as server:
        native = execute(native_config(server, domain="toylib"))
        native_tools = next(r["tools"] for r in server.requests if r.get("tools"))
        del server.requests[:]
        with example_agent(server, streaming=streaming) as url:
            remote = execute(a2a_config(server, url, domain="toylib"))
        remote_tools = next(r["tools"] for r in server.requests if r.get("tools"))
    # the tools the example agent listed over MCP reached its model as the native ones
    # (the Agents SDK adds its 'strict' flag)
    for tool in remote_tools:
        assert tool["function"].pop("strict") is False
    assert remote_tools == native_tools
    assert [r.reward for r in remote.results] == [r.reward for r in native.results]
    assert remote.metrics.average_reward == 1.0
    for mine, theirs in zip(remote.results, native.results, strict=True):
        # the remote agent's MCP calls are the agent's tool calls, in the same places
        assert trajectory(mine) == trajectory(theirs)
        assert mine.termination is Termination.USER_STOP


def test_concurrent_episodes_get_their_own_tools_and_data(toy_plugin, monkeypatch) -> None:
    open_endpoints: list[int] = []
    opening = ToolServer.open

    async def counted(server: ToolServer, channel: ToolChannel) -> str:
        url = await opening(server, channel)
        open_endpoints.append(len(server.channels))
        return url

    monkeypatch.setattr(ToolServer, "open", counted)
    script = GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer(script, latency_s=0.2) as server, example_agent(server) as url:
        config = a2a_config(server, url, domain="toylib", num_trials=11, concurrency=32)
        report = execute(config)
        first_messages = [r for r in server.requests if r.get("tools") and len(r["messages"]) == 2]
    assert len(report.results) == 33
    # every episode borrowed on its own database: a shared one would refuse the second
    # loan of a book, or show another episode's calls
    assert all(r.outcome is Outcome.PASS for r in report.results)
    calls_by_task: dict[int, set[tuple[str, ...]]] = {}
    for result in report.results:
        calls = tuple(m.content or "" for m in result.messages if m.role == "tool")
        calls_by_task.setdefault(result.task_id, set()).add(calls)
    # each trial of a task saw exactly its own observations
    assert {task: len(seen) for task, seen in calls_by_task.items()} == {0: 1, 1: 1, 2: 1}
    assert len(first_messages) == 33
    assert max(open_endpoints) == 32  # 32 episodes were in flight at once


@pytest.mark.parametrize(
    ("behaviour", "said"),
    [
        ("slow", "took longer than 1 s for one turn (--agent-timeout)"),
        ("raise", "RemoteAgentError"),
        ("textless", "the agent's answer holds no text"),
        ("garbage", "RemoteAgentError"),
    ],
)
def test_a_misbehaving_agent_fails_its_episodes_as_the_agent(toy_plugin, behaviour, said) -> None:
    script = GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer(script) as server, misbehaving_agent(behaviour) as url:
        config = a2a_config(server, url, domain="toylib", task_ids=[0, 1], agent_timeout=1)
        report = execute(config)
    for result in report.results:
        assert result.outcome is Outcome.FAIL and result.reward == 0.0
        assert result.termination is Termination.AGENT_ERROR
        assert said in (result.error or "")
    assert report.metrics.errors == 0 and report.metrics.scored == 2
    assert report.metrics.agent_errors == 2
    shown = CliRunner().invoke(
        cli, ["report", report.run.id, "--results-db", str(report.results_db)]
    )
    assert "2 episodes ended in an agent error (agent_error)" in shown.output


def test_an_agent_unreachable_at_the_start_is_an_error_rerun_on_resume(toy_plugin) -> None:
    script = GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer(script) as server:
        url = f"http://127.0.0.1:{free_port()}/"
        report = execute(a2a_config(server, url, domain="toylib"))
        assert {r.outcome for r in report.results} == {Outcome.ERROR}
        assert "no agent answers at" in (report.results[0].error or "")
        with example_agent(server) as moved:  # the agent may come back at another address
            resumed = execute(a2a_config(server, moved, domain="toylib", resume=report.run.id))
    assert [r.outcome for r in resumed.results] == [Outcome.PASS] * 3


def test_an_agent_killed_mid_run_leaves_the_run_intact_and_resumable(toy_plugin) -> None:
    script = GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    turns = []

    def responder(request: dict) -> object:
        if request.get("tools") and len(request["messages"]) == 2:
            turns.append(request)  # the agent's first model call of an episode
            if len(turns) == 4:  # the agent dies in the middle of the 4th episode's turn
                EXAMPLE_PROCESSES[url].kill()
                EXAMPLE_PROCESSES[url].wait()
        return script(request)

    with ScriptedModelServer(responder) as server:
        with example_agent(server, port=port):
            report = execute(a2a_config(server, url, domain="toylib", num_trials=2))
        before = {(r.task_id, r.trial): r for r in report.results}
        outcomes = sorted((r.outcome.value, r.termination.value) for r in before.values())
        # the episode it was serving failed as the agent's; those started after could not
        # reach it: infrastructure errors, not failures
        assert outcomes == [
            *[("error", "provider_error")] * 2,
            ("fail", "agent_error"),
            *[("pass", "user_stop")] * 3,
        ]
        kept = {pair for pair, r in before.items() if r.outcome is not Outcome.ERROR}
        with example_agent(server, port=port):
            resumed = execute(a2a_config(server, url, domain="toylib", resume=report.run.id))
    after = {(r.task_id, r.trial): r for r in resumed.results}
    assert resumed.skipped == 4 and len(after) == 6
    assert {after[pair].outcome for pair in set(after) - kept} == {Outcome.PASS}
    for pair in kept:  # finished episodes are kept as they were
        assert after[pair].messages == before[pair].messages
        assert after[pair].outcome is before[pair].outcome


def test_the_a2a_agent_without_its_extra_is_refused_in_one_line(toy_plugin, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "a2a.client", None)
    url = "http://127.0.0.1:9/"
    result = CliRunner().invoke(
        cli, ["run", "--domain", "toylib", "--agent", "a2a", "--agent-url", url]
    )
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "agent 'a2a' needs the A2A client: pip install 'tautrait-core[a2a]'" in result.output


def test_a_run_of_the_a2a_agent_without_its_url_is_refused_in_one_line(toy_plugin) -> None:
    result = CliRunner().invoke(cli, ["run", "--domain", "toylib", "--agent", "a2a"])
    assert result.exit_code != 0
    assert "agent 'a2a' talks to a remote agent: pass --agent-url URL" in result.output
    assert "Traceback" not in result.output
    result = CliRunner().invoke(
        cli, ["run", "--domain", "toylib", "--agent", "a2a", "--agent-url", "localhost:9999"]
    )
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "--agent-url 'localhost:9999' is not an http(s) URL" in result.output


def test_a_url_where_no_agent_card_is_found_is_an_error_rerun_on_resume(toy_plugin) -> None:
    """A wrong --agent-url that reaches some other server (here the model server: HTTP
    404 for the agent card) measured no agent: errors to re-run, not the agent's 0s."""
    script = GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer(script) as server:
        report = execute(a2a_config(server, server.base_url, domain="toylib"))
        assert {r.outcome for r in report.results} == {Outcome.ERROR}
        assert report.results[0].error == (
            f"agent: no agent answers at {server.base_url}: its agent card is not found (HTTP 404)"
        )
        with example_agent(server) as agent_url:
            resumed = execute(a2a_config(server, agent_url, domain="toylib", resume=report.run.id))
    assert [r.outcome for r in resumed.results] == [Outcome.PASS] * 3


def test_a_remote_agents_cost_is_unknown_not_zero(toy_plugin, tmp_path) -> None:
    """The remote agent's model calls are its own, unseen by tautrait: its cost, and the
    run's, read ``unknown`` in ``run``, ``report`` and the HTML report (was $0.0000)."""
    script = GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    database = str(tmp_path / "results.db")
    runner = CliRunner(env={"COLUMNS": "80"})
    with ScriptedModelServer(script) as server, example_agent(server) as url:
        arguments = ["run", "--domain", "toylib", "--agent", "a2a", "--agent-url", url]
        arguments += ["--user", "scripted", "--task-ids", "0", "--results-db", database]
        ran = runner.invoke(cli, [*arguments, "--max-cost", "1"])
    assert ran.exit_code == 0, ran.output
    said = "Cost: unknown (agent unknown, user $0.0000; 0 model calls)"
    assert said in ran.output
    assert "--max-cost cannot count a remote agent's model calls: not included" in ran.output
    page = tmp_path / "report.html"
    shown = runner.invoke(cli, ["report", "latest", "--results-db", database, "--html", page])
    assert shown.exit_code == 0, shown.output
    assert said in shown.output
    html = page.read_text()
    assert '<td class="num">unknown</td>' in html and "Cost: agent unknown, user $0.0000." in html
