"""What a model (or the agent driving tools) sends back can be hostile: text UTF-8 cannot
encode, tool arguments nested hundreds of levels deep. Each is stored, shown and scored as
the agent's own doing; none of them ends the run or turns into an infrastructure error."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tautrait_core import Agent, EpisodeDB, Message, hookimpl, tool
from tautrait_core.config.run_config import RunConfig
from tautrait_core.run.runner import RunReport, execute
from tautrait_core.scripted.server import Reply, ScriptedModelServer, reply_tool_call
from tautrait_core.types.result import Outcome, Termination
from tests.plugins import toy_library
from tests.scripted_runs import scripted_config

LONE_SURROGATE = "\udcff"  # sent by the server as the JSON escape "\udcff"


def model_config(server: ScriptedModelServer, **overrides: object) -> RunConfig:
    return scripted_config(server, **{"task_ids": [0], **overrides})


def test_lone_surrogate_in_model_replies_is_stored_and_never_ends_the_run(
    toy_plugin, tmp_path
) -> None:
    user_turns = iter([f"Hello {LONE_SURROGATE} there", "###STOP###"])

    def responder(request: dict[str, Any]) -> Reply | str:
        if request.get("tools"):
            return f"bad {LONE_SURROGATE} x"
        return next(user_turns)

    with ScriptedModelServer(responder) as server:
        report = execute(model_config(server, results_db=str(tmp_path / "r.db")))
        requests = len(server.requests)
    assert report.run.status == "finished"
    (episode,) = report.results
    assert episode.outcome is Outcome.FAIL and episode.termination is Termination.USER_STOP
    texts = [m.content for m in episode.messages]
    assert "Hello \ufffd there" in texts and "bad \ufffd x" in texts
    assert requests == 3  # user, agent, user: nothing failed to encode, nothing was retried


def test_request_that_cannot_be_encoded_is_not_retried(toy_plugin) -> None:
    from tautrait_core.llm.provider import litellm_failure, load_litellm

    try:
        f"x{LONE_SURROGATE}".encode()
    except UnicodeEncodeError as cause:
        wrapped = RuntimeError("InternalServerError: OpenAIException - 'utf-8' codec can't")
        wrapped.__cause__ = cause
        wrapped.status_code = 500  # type: ignore[attr-defined]
    assert not litellm_failure(load_litellm(), wrapped).retryable


@tool
def annotate_book(db: EpisodeDB, book_id: str, note: dict) -> str:
    """Attach a note to a book.

    Args:
        book_id: The book id.
        note: The note, as an object.
    """
    book = db.get(toy_library.Book, book_id)
    if book is None:
        return "Error: book not found"
    book.details["note"] = note
    return "noted"


class AnnotatingLibrary:
    @staticmethod
    @hookimpl
    def register_domains(register: Any) -> None:
        domain = toy_library.build_domain()
        register(
            dataclasses.replace(
                domain,
                name="toylib-notes",
                tools=[*domain.tools, annotate_book],
                write_tools=[*domain.write_tools, "annotate_book"],
            )
        )


@pytest.fixture
def annotating_library():  # type: ignore[no-untyped-def]
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(AnnotatingLibrary, name="annotating_library")
    try:
        yield
    finally:
        manager.unregister("annotating_library")
        reset_plugin_manager()


def run_with_nested_note(depth: int, tmp_path: Path) -> RunReport:
    """A toylib-notes run whose agent annotates a book with a note nested ``depth`` objects
    deep, then transfers."""
    deep = '{"book_id": "B1", "note": ' + '{"a": ' * depth + "1" + "}" * depth + "}"
    agent_turns = iter(
        [
            reply_tool_call("annotate_book", deep),
            reply_tool_call("transfer_to_librarian", {"summary": "done"}),
        ]
    )

    def responder(request: dict[str, Any]) -> Reply | str:
        return next(agent_turns) if request.get("tools") else "Borrow Dune please"

    with ScriptedModelServer(responder) as server:
        return execute(
            model_config(server, domain="toylib-notes", results_db=str(tmp_path / "r.db"))
        )


def test_deeply_nested_tool_arguments_fail_the_episode_and_keep_the_transcript(
    annotating_library, tmp_path
) -> None:
    report = run_with_nested_note(600, tmp_path)
    (episode,) = report.results
    assert episode.outcome is Outcome.FAIL and episode.error is None
    assert episode.termination is Termination.TERMINATING_TOOL
    observations = [m.content for m in episode.messages if m.role == "tool"]
    assert observations[0].startswith("Error: the arguments for annotate_book nest deeper")
    assert observations[1] == "Transferred"
    assert report.run.status == "finished"


@pytest.mark.parametrize("transport", ["direct", "litellm"])
def test_tool_arguments_nested_past_any_parser_are_the_agents_error(
    annotating_library, tmp_path, monkeypatch, transport
) -> None:
    monkeypatch.setenv("TAUTRAIT_LLM_TRANSPORT", transport)
    (episode,) = run_with_nested_note(25_000, tmp_path).results
    assert episode.outcome is Outcome.FAIL and episode.error is None
    observations = [m.content for m in episode.messages if m.role == "tool"]
    assert observations[0].startswith("Error: the arguments for annotate_book ")
    assert observations[1] == "Transferred"


def test_store_replaces_unencodable_text_it_is_given(tmp_path) -> None:
    from tautrait_core.store.results import ResultStore
    from tautrait_core.types.messages import Message
    from tautrait_core.types.result import EpisodeResult

    store = ResultStore(tmp_path / "r.db")
    run = store.create_run(RunConfig(domain="toylib", user="scripted"), "test", [0], {})
    result = EpisodeResult(
        task_id=0,
        trial=0,
        outcome=Outcome.FAIL,
        reward=0.0,
        termination=Termination.AGENT_ERROR,
        messages=[Message(role="assistant", content=f"from a plugin agent {LONE_SURROGATE}")],
        error=f"agent: ValueError: {LONE_SURROGATE}",
    )
    store.save_episode(run.id, result)
    (stored,) = store.episodes(run.id)
    assert stored.messages[0].content == "from a plugin agent \ufffd"
    assert stored.error == "agent: ValueError: \ufffd"


class LoudAgent(Agent):
    """An agent that crashes with a megabyte of words."""

    name = "loud"
    needs_model = False

    async def next_message(self, conversation: list[Message]) -> Message:
        raise RuntimeError("x" * 1_000_000)


class LoudAgentPlugin:
    @staticmethod
    @hookimpl
    def register_agents(register: Any) -> None:
        register(LoudAgent)


def test_an_episode_error_is_cut_before_it_is_stored(toy_plugin, tmp_path) -> None:
    from tautrait_core.plugins import get_plugin_manager

    get_plugin_manager().register(LoudAgentPlugin, name="loud_agent")
    config = RunConfig(
        domain="toylib",
        agent="loud",
        user="scripted",
        task_ids=[0],
        results_db=str(tmp_path / "r.db"),
    )
    (episode,) = execute(config).results
    assert episode.outcome is Outcome.FAIL
    assert episode.error is not None and episode.error.startswith("agent: RuntimeError: xxx")
    assert len(episode.error) < 2_100
