"""Faults of the model provider are infrastructure errors, never the agent's failure.

Both transports run against a scripted server on loopback: the direct aiohttp path and
litellm's (``TAUTRAIT_LLM_TRANSPORT=litellm``)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ProviderError
from tautrait_core.llm.client import ModelSpec, complete
from tautrait_core.llm.provider import load_litellm
from tautrait_core.run.runner import execute
from tautrait_core.scripted.server import Failure, Reply, ScriptedModelServer
from tautrait_core.testing.misbehaving_server import Act, MisbehavingServer
from tautrait_core.types.result import Outcome, Termination
from tests.scripted_runs import scripted_config

NO_CHOICES = {"id": "x", "object": "chat.completion", "created": 1, "model": "m", "choices": []}


def model_config(server: ScriptedModelServer, **overrides: object) -> RunConfig:
    return scripted_config(server, **{"max_retries": 1, "task_ids": [0], **overrides})


@pytest.fixture(params=["direct", "litellm"])
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TAUTRAIT_LLM_TRANSPORT", request.param)
    return str(request.param)


@pytest.mark.parametrize("side", ["agent", "user"])
def test_an_answer_without_choices_is_retried_then_an_infrastructure_error(
    toy_plugin, transport, side, tmp_path
) -> None:
    def responder(request: dict[str, Any]) -> Reply | Failure | str:
        agent_asks = bool(request.get("tools"))
        if agent_asks == (side == "agent"):
            return Failure(status=200, body=NO_CHOICES)
        return "Hello" if side == "agent" else "Let me check."

    with ScriptedModelServer(responder) as server:
        report = execute(model_config(server, results_db=str(tmp_path / "r.db")))
        empty = [r for r in server.requests if bool(r.get("tools")) == (side == "agent")]
    (episode,) = report.results
    assert episode.outcome is Outcome.ERROR
    assert episode.termination is Termination.PROVIDER_ERROR
    assert "no choices in the answer" in (episode.error or "")
    assert len(empty) == 2  # the first attempt and one retry


def _call(server: MisbehavingServer, timeout_s: float) -> tuple[ProviderError, float]:
    spec = ModelSpec(model="openai/x", api_base=server.base_url, max_retries=0, timeout_s=timeout_s)
    load_litellm()  # imported before the clock starts
    started = time.monotonic()
    with pytest.raises(ProviderError) as raised:
        asyncio.run(complete(spec, [{"role": "user", "content": "hi"}]))
    return raised.value, time.monotonic() - started


def test_the_timeout_bounds_a_server_trickling_its_answer(transport) -> None:
    with MisbehavingServer(default=Act.TRICKLE) as server:
        error, took = _call(server, timeout_s=1)
    assert str(error).startswith("openai/x: Timeout after 1 attempts: Request timed out.")
    assert took < 4  # the answer would take over a minute


def test_a_huge_error_answer_is_cut_before_it_is_kept(transport) -> None:
    with MisbehavingServer(default=Act.HUGE_ERROR) as server:
        error, took = _call(server, timeout_s=60)
    assert str(error).startswith("openai/x: InternalServerError after 1 attempts: ")
    assert len(str(error)) < 3_000
    assert took < 10
