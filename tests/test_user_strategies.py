"""The react, verify, reflection and human user simulators."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tautrait_core.builtin.human import HumanUser
from tautrait_core.builtin.traits.prompt import describe_traits
from tautrait_core.builtin.users.strategies import (
    REFLECTION_PROMPT,
    VERIFIER_PROMPT,
    UserFormatError,
    read_verdict,
    split_response,
)
from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.run.runner import RunReport, execute
from tautrait_core.scripted.scripts import StrategyScript
from tautrait_core.scripted.server import Failure, ScriptedModelServer
from tautrait_core.trait_mix import TraitMix
from tautrait_core.types.messages import STOP_TOKEN
from tautrait_core.types.result import Outcome, Termination
from tests.scripted_runs import scripted_config

MODEL_USERS = ["react", "verify", "reflection"]
TERMINATING = ["transfer_to_librarian"]
REJECT = "Verdict: reject\nReason: the customer invented an order number."


def config(server: ScriptedModelServer, user: str, **overrides: Any) -> RunConfig:
    return scripted_config(server, user=user, **overrides)


def system_of(request: dict[str, Any]) -> str:
    return request["messages"][0]["content"]


def is_review(request: dict[str, Any]) -> bool:
    return system_of(request) in (VERIFIER_PROMPT, REFLECTION_PROMPT)


def is_generation(request: dict[str, Any]) -> bool:
    return request["model"] == "scripted-user" and not is_review(request)


def run(
    toy_plugin: Any,
    user: str,
    verdicts: list[str] = (),
    wrap: Callable[[StrategyScript], Callable[[dict[str, Any]], object]] | None = None,
    **overrides: Any,
) -> tuple[RunReport, list[dict[str, Any]]]:
    script = StrategyScript(toy_plugin.TASKS, TERMINATING, verdicts=verdicts)
    with ScriptedModelServer(wrap(script) if wrap else script) as server:
        report = execute(config(server, user, **overrides))
        return report, list(server.requests)


@pytest.mark.parametrize("user", MODEL_USERS)
def test_every_user_strategy_passes_every_task(toy_plugin, user) -> None:
    report, requests = run(toy_plugin, user, num_trials=2)
    assert len(report.results) == 6
    assert report.metrics.average_reward == 1.0
    assert {r.termination for r in report.results} == {Termination.USER_STOP}
    result = report.results[0]
    reviews = 2 if user != "react" else 0
    assert result.user_usage.calls == 2 + reviews
    roles = [c.role for c in result.calls if c.role.startswith("user")]
    assert roles.count("user-verify") == reviews and roles.count("user") == 2
    # the agent saw plain customer messages: no thoughts, no verdicts
    agent_requests = [r for r in requests if r.get("tools")]
    customer = [m["content"] for r in agent_requests for m in r["messages"] if m["role"] == "user"]
    assert customer and not any("Thought" in text or "Verdict" in text for text in customer)


def test_react_user_keeps_thoughts_in_its_own_history(toy_plugin) -> None:
    report, requests = run(toy_plugin, "react", task_ids=[1])
    result = report.results[0]
    assert result.messages[1].content == StrategyScript.opening(toy_plugin.TASKS[1])
    assert result.messages[-1].content == STOP_TOKEN
    generations = [r for r in requests if is_generation(r)]
    assert "Response:" in system_of(generations[0])
    own = [m["content"] for m in generations[-1]["messages"] if m["role"] == "assistant"]
    assert own[0].startswith("Thought: I will say what I need.\nResponse: ")


def test_react_user_regenerates_an_answer_without_response_then_gives_up(toy_plugin) -> None:
    def thinking_only(times: int) -> Callable[[StrategyScript], Callable[..., object]]:
        def wrap(script: StrategyScript) -> Callable[[dict[str, Any]], object]:
            left = [times]

            def responder(request: dict[str, Any]) -> object:
                if is_generation(request) and left[0] > 0:
                    left[0] -= 1
                    return f"Thought: I should not say {STOP_TOKEN} yet."
                return script(request)

            return responder

        return wrap

    report, _ = run(toy_plugin, "react", wrap=thinking_only(2), task_ids=[0])
    assert report.results[0].outcome is Outcome.PASS
    assert report.results[0].user_usage.calls == 2 + 2

    report, _ = run(toy_plugin, "react", wrap=thinking_only(99), task_ids=[0, 1])
    assert len(report.results) == 2
    result = report.results[0]
    assert (result.outcome, result.termination) == (Outcome.ERROR, Termination.USER_ERROR)
    assert result.error.startswith(
        "user simulator: UserFormatError: no readable message after 3 attempts"
    )


def test_verify_regenerates_a_rejected_message(toy_plugin) -> None:
    report, requests = run(toy_plugin, "verify", verdicts=[REJECT], task_ids=[1])
    result = report.results[0]
    assert result.outcome is Outcome.PASS
    assert [c.role for c in result.calls if c.role.startswith("user")] == [
        "user",
        "user-verify",
        "user",
        "user-verify",
        "user",
        "user-verify",
    ]
    review = next(r for r in requests if system_of(r) == VERIFIER_PROMPT)["messages"][1]["content"]
    assert review.startswith(f"Situation:\n{toy_plugin.TASKS[1].instruction}")
    assert "Agent: Hello, how can I help you today?" in review
    assert review.endswith(StrategyScript.opening(toy_plugin.TASKS[1]))


def test_verify_sends_the_last_candidate_after_the_bounded_attempts(toy_plugin) -> None:
    report, _ = run(toy_plugin, "verify", verdicts=[REJECT] * 10, task_ids=[1])
    result = report.results[0]
    roles = [c.role for c in result.calls if c.role.startswith("user")]
    # opening: 3 candidates, 2 reviews (the last candidate is sent unchecked)
    assert roles[:5] == ["user", "user-verify", "user", "user-verify", "user"]
    assert result.outcome is Outcome.PASS


def test_reflection_rewrites_with_the_advice(toy_plugin) -> None:
    report, requests = run(toy_plugin, "reflection", verdicts=[REJECT], task_ids=[1])
    result = report.results[0]
    assert result.outcome is Outcome.PASS
    assert [c.role for c in result.calls if c.role.startswith("user")][:4] == [
        "user",
        "user-verify",
        "user-reflect",
        "user",
    ]
    reflect = next(r for r in requests if system_of(r) == REFLECTION_PROMPT)
    assert reflect["messages"][1]["content"].endswith(
        "Why the reviewer rejected it: the customer invented an order number."
    )
    rewrite = [r for r in requests if is_generation(r)][1]
    assert "Advice: Advice: say only what the situation gives." in system_of(rewrite)
    assert "Why it was rejected: the customer invented an order number." in system_of(rewrite)
    assert result.user_usage.calls == 7  # 3 generations, 3 reviews, 1 reflection


@pytest.mark.parametrize("user", ["llm", *MODEL_USERS])
def test_traits_change_only_the_trait_section_and_not_the_reviews(toy_plugin, user) -> None:
    mix = TraitMix.parse("impatience=high,confusion=low")
    _, plain = run(toy_plugin, user, verdicts=[REJECT], task_ids=[1])
    _, traited = run(toy_plugin, user, verdicts=[REJECT], task_ids=[1], traits=mix.label())
    assert [r["model"] for r in plain] == [r["model"] for r in traited]
    for before, after in zip(plain, traited, strict=True):
        if is_generation(before):
            assert system_of(after) == system_of(before) + describe_traits(mix)
        else:
            assert after["messages"] == before["messages"]


@pytest.mark.parametrize("user", MODEL_USERS)
def test_transient_user_failures_are_retried(toy_plugin, user) -> None:
    def wrap(script: StrategyScript) -> Callable[[dict[str, Any]], object]:
        failures = [
            Failure(status=429, retry_after=0.01),
            Failure(status=503),
            Failure(delay_s=1.5),
            Failure(truncated=True),
        ]

        def responder(request: dict[str, Any]) -> object:
            # the first review (or, for react, the first generation) fails four times
            target = is_review(request) if user != "react" else is_generation(request)
            if target and failures:
                return failures.pop(0)
            return script(request)

        return responder

    report, _ = run(toy_plugin, user, wrap=wrap, task_ids=[0], timeout_s=1)
    result = report.results[0]
    assert result.outcome is Outcome.PASS, result.error
    assert max(c.attempts for c in result.calls) == 5


@pytest.mark.parametrize("user", MODEL_USERS)
def test_a_failing_user_model_is_an_error_and_resume_reruns_it(toy_plugin, user) -> None:
    broken = {"on": True}

    def wrap(script: StrategyScript) -> Callable[[dict[str, Any]], object]:
        def responder(request: dict[str, Any]) -> object:
            target = is_review(request) if user != "react" else is_generation(request)
            if target and broken["on"]:
                return Failure(status=500)
            return script(request)

        return responder

    script = StrategyScript(toy_plugin.TASKS, TERMINATING)
    with ScriptedModelServer(wrap(script)) as server:
        report = execute(config(server, user, max_retries=1, num_trials=2))
        assert len(report.results) == 6
        assert {(r.outcome, r.termination) for r in report.results} == {
            (Outcome.ERROR, Termination.PROVIDER_ERROR)
        }
        assert report.results[0].error.startswith("user simulator: ProviderError:")
        broken["on"] = False
        resumed = execute(config(server, user, resume=report.run.id))
    assert [r.outcome for r in resumed.results] == [Outcome.PASS] * 6


@pytest.mark.parametrize(
    ("text", "response"),
    [
        ("Thought: fine.\nResponse: I want Dune.", "I want Dune."),
        ("I want Dune.", "I want Dune."),
        (f"Thought: done.\nResponse: {STOP_TOKEN}", STOP_TOKEN),
    ],
)
def test_split_response(text, response) -> None:
    assert split_response(text) == response


@pytest.mark.parametrize("text", [f"Thought: say {STOP_TOKEN}?", "Thought: x\nResponse:  "])
def test_split_response_refuses_answers_without_a_message(text) -> None:
    with pytest.raises(UserFormatError):
        split_response(text)


def test_read_verdict() -> None:
    assert read_verdict(REJECT).accepted is False
    assert read_verdict(REJECT).reason == "the customer invented an order number."
    assert read_verdict("VERDICT: Accept\nReason: ok").accepted is True
    assert read_verdict("no idea").accepted is True  # unreadable counts as acceptance


# -- the human user -------------------------------------------------------------------------


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[str]], list[str]]:
    """Feed lines to ``input()``; returns the prompts it was called with."""

    def feed(lines: list[str]) -> list[str]:
        pending: Iterator[str] = iter(lines)
        prompts: list[str] = []

        def fake_input(prompt: str = "") -> str:
            prompts.append(prompt)
            try:
                return next(pending)
            except StopIteration:
                raise EOFError from None

        monkeypatch.setattr("builtins.input", fake_input)
        return prompts

    return feed


def test_human_user_types_the_customer_against_the_oracle(toy_plugin, typed, capsys) -> None:
    prompts = typed(["", "I'd like to borrow Dune, I'm ann@example.org", "/stop"])
    report = execute(RunConfig(domain="toylib", agent="oracle", user="human", task_ids=[0]))
    result = report.results[0]
    assert (result.outcome, result.termination) == (Outcome.PASS, Termination.USER_STOP)
    assert result.messages[1].content == "I'd like to borrow Dune, I'm ann@example.org"
    assert result.messages[-1].content == STOP_TOKEN
    assert prompts == ["You: "] * 3
    shown = capsys.readouterr().out
    assert toy_plugin.TASKS[0].instruction in shown and "Agent: Everything you asked" in shown


def test_human_user_closing_the_input_ends_the_conversation(toy_plugin, typed) -> None:
    typed(["hello"])
    traits = "impatience=high"
    report = execute(
        RunConfig(domain="toylib", agent="oracle", user="human", task_ids=[1], traits=traits)
    )
    result = report.results[0]
    assert result.termination is Termination.USER_STOP
    assert result.outcome is Outcome.PASS and result.user_usage.calls == 0


def test_human_user_needs_one_episode_at_a_time() -> None:
    with pytest.raises(ConfigError, match="--concurrency 1"):
        HumanUser.check_config(RunConfig(user="human", concurrency=2))
