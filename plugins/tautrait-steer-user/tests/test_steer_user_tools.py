"""The steer backend on a dual-control domain: an impatient customer who must restart their
phone calls their own tool through a (fake) steer service, which speaks text only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from sqlmodel import Field, SQLModel
from tautrait_steer_user.fake_service import FakeSteerService
from tautrait_steer_user.user_tools import TOOL_CALL_PREFIX, read_tool_calls

from tautrait_core import (
    STOP_TOKEN,
    Domain,
    EpisodeDB,
    RunConfig,
    Task,
    TaskSet,
    Termination,
    execute,
    get_plugin_manager,
    hookimpl,
    tool,
)
from tautrait_core.testing import reset_plugin_manager


class Handset(SQLModel, table=True):
    __tablename__ = "steerphone_handsets"

    handset_id: str = Field(primary_key=True)
    frozen: bool = True


@tool
def restart_phone(db: EpisodeDB) -> str:
    """Restart the phone."""
    handset = db.get(Handset, "H1")
    handset.frozen = False
    db.add(handset)
    return "The phone restarted."


def is_working(db: EpisodeDB) -> bool:
    return not db.get(Handset, "H1").frozen


RESTART = Task.model_validate(
    {
        "user_id": "H1",
        "instruction": "Your phone is frozen. You want it working again, fast.",
        "evaluation_criteria": {
            "actions": [{"action_id": "0", "requestor": "user", "name": "restart_phone"}],
            "env_assertions": [{"env_type": "user", "func_name": "is_working"}],
            "reward_basis": ["ENV_ASSERTION"],
        },
    }
)


class PhonePlugin:
    @staticmethod
    @hookimpl
    def register_domains(register: Any) -> None:
        register(
            Domain(
                name="steerphone",
                policy="Help the customer with their phone.",
                tables=[Handset],
                seed_data=lambda: [Handset(handset_id="H1")],
                tools=[],
                task_sets={"test": TaskSet(name="test", load_tasks=lambda: [RESTART])},
                user_tools=[restart_phone],
                user_tables=[Handset],
                user_functions={"is_working": is_working},
            )
        )


@pytest.fixture
def phone_domain() -> Iterator[str]:
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(PhonePlugin, name="steerphone")
    try:
        yield "steerphone"
    finally:
        manager.unregister("steerphone")
        reset_plugin_manager()


def impatient_customer(body: dict[str, Any]) -> str:
    last = body["messages"][-1]["content"]
    if last.startswith("Tool result"):
        return STOP_TOKEN
    if "restart_phone" in last:
        return (
            f'Fine, doing it NOW. {TOOL_CALL_PREFIX} {{"name": "restart_phone", "arguments": {{}}}}'
        )
    return "My phone is frozen. Fix it, quickly!"


def test_an_impatient_customer_restarts_their_phone_through_steer(phone_domain) -> None:
    with FakeSteerService(impatient_customer) as service:
        report = execute(
            RunConfig.model_validate(
                {
                    "domain": phone_domain,
                    "agent": "oracle",
                    "user": "llm",
                    "trait_backend": "steer",
                    "steer_endpoint": service.url,
                    "traits": "impatience=high",
                }
            )
        )
        bodies = [request.body for request in service.requests]
    (result,) = report.results
    assert result.termination is Termination.USER_STOP and result.reward == 1.0
    call = next(m for m in result.messages if m.tool_calls)
    assert call.requestor == "user" and call.tool_calls[0].name == "restart_phone"
    assert all(body["trait_dict"] == {"impatience": "high"} for body in bodies)
    assert "restart_phone(): Restart the phone." in bodies[0]["messages"][0]["content"]
    last = bodies[-1]["messages"]
    assert last[-2]["role"] == "assistant" and TOOL_CALL_PREFIX in last[-2]["content"]
    assert last[-1] == {
        "role": "user",
        "content": "Tool result (restart_phone): The phone restarted.",
    }


def test_an_answer_without_a_readable_call_is_a_message() -> None:
    assert read_tool_calls("Just words.", "c1") == ("Just words.", None)
    assert read_tool_calls(f"{TOOL_CALL_PREFIX} not json", "c1")[1] is None
    text, calls = read_tool_calls(
        f'Ok. {TOOL_CALL_PREFIX} {{"name": "x", "arguments": {{"a": 1}}}}', "c1"
    )
    assert text == "Ok." and calls is not None
    assert (calls[0].name, json.loads(calls[0].arguments)) == ("x", {"a": 1})
