"""One episode: stop rules, tool-call handling and how failures are classified."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

import pytest

from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.state import StateTemplate
from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.loop import run_episode
from tautrait_core.episode.user import UserSimulator
from tautrait_core.errors import ContextWindowError, ProviderError
from tautrait_core.types.messages import STOP_TOKEN, Message, ToolCall
from tautrait_core.types.result import Outcome, Termination


class ListAgent(Agent):
    """Sends a fixed list of messages; an exception in the list is raised instead."""

    name = "list"
    script: ClassVar[list[Message | Exception]] = []

    async def next_message(self, conversation: list[Message]) -> Message:
        step = self.script[
            min(len([m for m in conversation if m.role == "assistant"]), len(self.script) - 1)
        ]
        if isinstance(step, Exception):
            raise step
        return step


class EchoUser(UserSimulator):
    name = "echo"
    fail_with: Exception | None = None

    async def start(self) -> str:
        return "hello"

    async def reply(self, agent_message: str) -> str:
        if self.fail_with is not None:
            raise self.fail_with
        return STOP_TOKEN if "bye" in agent_message else "go on"


def call(name: str, arguments: str) -> Message:
    return Message(role="assistant", tool_calls=[ToolCall(id="c1", name=name, arguments=arguments)])


def say(text: str) -> Message:
    return Message(role="assistant", content=text)


@pytest.fixture
def episode(toy_plugin) -> Callable[..., object]:
    domain = toy_plugin.build_domain()
    template = StateTemplate("toylib", domain.tables, domain.seed_data())

    def run(
        script: list, task_id: int = 0, max_steps: int = 30, user_error: Exception | None = None
    ):
        config = RunConfig(domain="toylib", agent="list", user="echo", max_steps=max_steps)
        context = EpisodeContext.of_run(
            config, domain, domain.task_sets["test"].tasks[task_id], task_id, seed=1
        )
        agent = type("Scripted", (ListAgent,), {"script": script})(context)
        user = type("User", (EchoUser,), {"fail_with": user_error})(context, None)  # type: ignore[arg-type]
        return asyncio.run(run_episode(context, template, agent, user))

    return run


GOLD_0 = [
    call("find_member", '{"email": "ann@example.org"}'),
    call("borrow_book", '{"member_id": "ann_1", "book_id": "B1", "days": 7}'),
    say("done, bye"),
]


def test_gold_conversation_passes_and_records_the_trajectory(episode) -> None:
    result = episode(GOLD_0)
    assert result.outcome is Outcome.PASS and result.termination is Termination.USER_STOP
    assert [m.role for m in result.messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]
    assert result.steps == 3


def test_only_the_first_of_several_tool_calls_runs(episode) -> None:
    two = Message(
        role="assistant",
        tool_calls=[
            ToolCall(
                id="a",
                name="borrow_book",
                arguments='{"member_id": "ann_1", "book_id": "B1", "days": 7}',
            ),
            ToolCall(
                id="b",
                name="borrow_book",
                arguments='{"member_id": "ann_1", "book_id": "B2", "days": 7}',
            ),
        ],
    )
    result = episode([two, say("bye")])
    assert len(result.messages[2].tool_calls) == 1
    assert result.outcome is Outcome.PASS  # B2 was not lent, so the state equals the gold state


def test_malformed_arguments_and_unknown_tools_are_observations(episode) -> None:
    result = episode([call("borrow_book", '{"member_id": '), call("fly", "{}"), say("bye")])
    observations = [m.content for m in result.messages if m.role == "tool"]
    assert observations[0].startswith(
        "Error: the arguments for borrow_book are not a valid JSON object"
    )
    assert observations[1].startswith("Error: unknown tool 'fly'")
    assert result.outcome is Outcome.FAIL and result.reward_info.state_diff


def test_terminating_tool_ends_the_episode(episode) -> None:
    result = episode(
        [
            call("borrow_book", '{"member_id": "ann_1", "book_id": "B2"}'),
            call("transfer_to_librarian", '{"summary": "x"}'),
            say("never sent"),
        ],
        task_id=2,
    )
    assert result.termination is Termination.TERMINATING_TOOL
    assert result.outcome is Outcome.PASS
    assert result.messages[-1].role == "tool"


def test_step_limit_scores_zero(episode) -> None:
    result = episode([say("still working")], max_steps=3)
    assert result.termination is Termination.MAX_STEPS and result.steps == 3
    assert result.reward == 0.0 and result.outcome is Outcome.FAIL


def test_missing_output_fails_with_the_output_named(episode) -> None:
    result = episode(
        [call("get_book", '{"book_id": "B2"}'), say("It is on a shelf, bye")], task_id=1
    )
    assert result.outcome is Outcome.FAIL
    assert result.reward_info.r_actions is True and result.reward_info.outputs == {"CL-4": False}
    passing = episode([call("get_book", '{"book_id": "B2"}'), say("Shelf cl-4, bye")], task_id=1)
    assert passing.outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("failure", "termination", "outcome"),
    [
        (ProviderError("503 after 5 attempts"), Termination.PROVIDER_ERROR, Outcome.ERROR),
        (ContextWindowError("too long"), Termination.CONTEXT_WINDOW, Outcome.FAIL),
        (ValueError("could not parse the model's action"), Termination.AGENT_ERROR, Outcome.FAIL),
    ],
)
def test_agent_failures_are_classified(episode, failure, termination, outcome) -> None:
    result = episode([GOLD_0[0], failure])
    assert (result.termination, result.outcome) == (termination, outcome)
    assert str(failure) in result.error


def test_user_simulator_failures_are_errors(episode) -> None:
    provider = episode([say("hi")], user_error=ProviderError("429 forever"))
    assert (provider.termination, provider.outcome) == (Termination.PROVIDER_ERROR, Outcome.ERROR)
    broken = episode([say("hi")], user_error=KeyError("parse"))
    assert (broken.termination, broken.outcome) == (Termination.USER_ERROR, Outcome.ERROR)
    assert broken.reward_info is None
