"""Discoverable tools (τ³) as a core capability, on a toy domain with no plugin: hidden tools
answer by name but are not listed, an unlock lasts one episode, JSON integers arrive as
floats, a read is logged only when the task's gold actions make it (so it is then
required and an extra one is harmless), and customer-side tools need to be given first."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Field, SQLModel

from tautrait_core import Action, Domain, EpisodeDB, Task, TaskSet, template_for
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.tau2 import Discoverables, DiscoverableTool, Parameter, tau2_tool
from tautrait_core.testing.tau2_golden import golden_trajectory
from tautrait_core.types.criteria import EvaluationCriteria

vault_tool = tau2_tool("VaultTools")


class Box(SQLModel, table=True):
    __tablename__ = "disc_boxes"

    box_id: str = Field(primary_key=True)
    value: float = 0.0
    note: str = ""


class UseLog(SQLModel, table=True):
    __tablename__ = "disc_use_log"

    kind: str = Field(primary_key=True)
    name: str = Field(primary_key=True)
    detail: str = Field(default="", primary_key=True)


class VaultLedger:
    """Use of discoverable tools, one row per (kind, tool, detail)."""

    def _add(self, db: EpisodeDB, kind: str, name: str, detail: str = "") -> None:
        if db.get(UseLog, (kind, name, detail)) is None:
            db.add(UseLog(kind=kind, name=name, detail=detail))
            db.flush()

    def log_agent_call(self, db: EpisodeDB, name: str) -> None:
        self._add(db, "called", name)

    def agent_calls(self, db: EpisodeDB) -> str:
        return ", ".join(row["name"] for row in db.read_rows(UseLog, '"kind" = ?', ["called"]))

    def log_given(self, db: EpisodeDB, name: str) -> None:
        self._add(db, "given", name)

    def is_given(self, db: EpisodeDB, name: str) -> bool:
        return db.get(UseLog, ("given", name, "")) is not None

    def log_user_call(self, db: EpisodeDB, name: str, arguments: dict[str, Any]) -> None:
        self._add(db, "user", name, json.dumps(arguments, sort_keys=True))

    def given(self, db: EpisodeDB) -> str:
        return ", ".join(row["name"] for row in db.read_rows(UseLog, '"kind" = ?', ["given"]))


@vault_tool(writes=True)
def add_to_box_1234(db: EpisodeDB, box_id: str, amount: float) -> str:
    box = db.get(Box, box_id)
    box.value += amount
    db.add(box)
    return f"added {amount!r}"


@vault_tool
def peek_box_5678(db: EpisodeDB, box_id: str) -> str:
    return f"{db.get(Box, box_id).value!r}"


@vault_tool(writes=True)
def label_box_0001(db: EpisodeDB, box_id: str, note: str) -> str:
    box = db.get(Box, box_id)
    box.note = note
    db.add(box)
    return "labelled"


def _parameters(*names: str) -> tuple[Parameter, ...]:
    return tuple(Parameter(name, "string", True, f"the {name}") for name in names)


CATALOG = Discoverables(
    agent=[
        DiscoverableTool(add_to_box_1234, "Add to a box.", _parameters("box_id", "amount")),
        DiscoverableTool(peek_box_5678, "Look into a box.", _parameters("box_id")),
    ],
    user=[DiscoverableTool(label_box_0001, "Label a box.", _parameters("box_id", "note"))],
    ledger=VaultLedger(),
    toolkit="VaultTools",
)


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"agent_tool_name": name, "arguments": json.dumps(arguments)}


def _task(actions: list[Action]) -> Task:
    criteria = EvaluationCriteria(actions=actions, reward_basis=["DB"])
    return Task(user_id="", instruction="", actions=actions, evaluation_criteria=criteria)


UNLOCK_ADD = Action(
    name="unlock_discoverable_agent_tool", kwargs={"agent_tool_name": "add_to_box_1234"}
)
UNLOCK_PEEK = Action(
    name="unlock_discoverable_agent_tool", kwargs={"agent_tool_name": "peek_box_5678"}
)
ADD = Action(
    name="call_discoverable_agent_tool", kwargs=_call("add_to_box_1234", box_id="b1", amount=5)
)
PEEK = Action(name="call_discoverable_agent_tool", kwargs=_call("peek_box_5678", box_id="b1"))
WITH_PEEK = _task([UNLOCK_PEEK, PEEK, UNLOCK_ADD, ADD])
WITHOUT_PEEK = _task([UNLOCK_ADD, ADD])

DOMAIN = Domain(
    name="vault",
    policy="Keep boxes.",
    tables=[Box, UseLog],
    seed_data=lambda: [Box(box_id="b1")],
    tools=[
        CATALOG.give_user_tool(),
        CATALOG.unlock_tool(),
        CATALOG.call_agent_tool(),
        CATALOG.list_agent_tools(),
    ],
    hidden_tools=CATALOG.direct_agent_tools(),
    user_tools=[CATALOG.call_user_tool(), CATALOG.list_user_tools()],
    hidden_user_tools=CATALOG.direct_user_tools(),
    task_sets={"test": TaskSet("test", lambda: [WITH_PEEK, WITHOUT_PEEK], protocol="tau2")},
)
TEMPLATE = template_for(DOMAIN, DOMAIN.task_sets["test"])


def _grade(task: Task, actions: list[Action]) -> float:
    calls = [
        {"requestor": a.requestor, "name": a.name, "arguments": a.kwargs, "output": ""}
        for a in actions
    ]
    messages = golden_trajectory({"calls": calls, "final_assistant_text": "ok"}, task)
    return grade_criteria(DOMAIN, task, TEMPLATE, messages, "user_stop", None).reward


def test_hidden_tools_are_not_listed_but_answer_by_name() -> None:
    listed = [schema["function"]["name"] for schema in DOMAIN.tool_schemas]
    assert listed == [
        "give_discoverable_user_tool",
        "unlock_discoverable_agent_tool",
        "call_discoverable_agent_tool",
        "list_discoverable_agent_tools",
    ]
    with TEMPLATE.new_episode() as db:
        assert DOMAIN.run_tool(db, "peek_box_5678", {"box_id": "b1"}) == "0.0"


def test_a_call_needs_an_unlock_in_the_same_episode_and_integers_become_floats() -> None:
    with TEMPLATE.new_episode() as db:
        assert DOMAIN.run_tool(db, "call_discoverable_agent_tool", ADD.kwargs) == (
            "Error: Tool 'add_to_box_1234' has not been unlocked. You must first use "
            "`unlock_discoverable_agent_tool` to unlock this tool before calling it."
        )
        unlocked = DOMAIN.run_tool(db, "unlock_discoverable_agent_tool", UNLOCK_ADD.kwargs)
        assert unlocked.startswith("Tool unlocked: add_to_box_1234\nDescription: Add to a box.")
        assert "  - amount: string (required) - the amount" in unlocked
        assert DOMAIN.run_tool(db, "call_discoverable_agent_tool", ADD.kwargs) == "added 5.0"
        bad = {"agent_tool_name": "add_to_box_1234", "arguments": "{}"}
        assert DOMAIN.run_tool(db, "call_discoverable_agent_tool", bad) == (
            "Error: Invalid arguments: VaultTools.add_to_box_1234() missing 2 required "
            "positional arguments: 'box_id' and 'amount'"
        )
        assert DOMAIN.run_tool(db, "list_discoverable_agent_tools", {}) == "add_to_box_1234"
    with TEMPLATE.new_episode() as db:
        assert "has not been unlocked" in DOMAIN.run_tool(
            db, "call_discoverable_agent_tool", ADD.kwargs
        )


def test_a_read_the_gold_makes_is_required_and_an_extra_read_is_not() -> None:
    assert _grade(WITH_PEEK, [UNLOCK_PEEK, PEEK, UNLOCK_ADD, ADD]) == 1.0
    assert _grade(WITH_PEEK, [UNLOCK_ADD, ADD]) == 0.0
    assert _grade(WITHOUT_PEEK, [UNLOCK_PEEK, PEEK, UNLOCK_ADD, ADD]) == 1.0
    spelled = Action(
        name="call_discoverable_agent_tool",
        kwargs={
            "agent_tool_name": "add_to_box_1234",
            "arguments": '{"box_id": "b1", "amount": 5.0}',
        },
    )
    assert _grade(WITHOUT_PEEK, [UNLOCK_ADD, spelled]) == 1.0


def test_customer_tools_must_be_given_and_their_calls_are_logged() -> None:
    arguments = {
        "discoverable_tool_name": "label_box_0001",
        "arguments": '{"box_id": "b1", "note": "x"}',
    }
    with TEMPLATE.new_episode() as db:
        user = DOMAIN.user_tools_by_name
        assert user["call_discoverable_user_tool"].invoke(db, arguments) == (
            "Error: Tool 'label_box_0001' has not been given to you by the agent. The agent "
            "must first use `give_discoverable_user_tool` to give this tool to you."
        )
        odd = {"discoverable_tool_name": "label_box_0001", "arguments": '{"color": "red"}'}
        assert DOMAIN.run_tool(db, "give_discoverable_user_tool", odd) == (
            "Error: Unexpected parameter: color"
        )
        given = DOMAIN.run_tool(db, "give_discoverable_user_tool", arguments)
        assert given.startswith("Tool given to user: label_box_0001\nDescription: Label a box.")
        assert user["list_discoverable_user_tools"].invoke(db, {}) == "label_box_0001"
        extra = {**arguments, "arguments": '{"box_id": "b1", "note": "x", "color": "red"}'}
        assert user["call_discoverable_user_tool"].invoke(db, extra) == (
            "Error: Unexpected parameter: color"
        )
        assert user["call_discoverable_user_tool"].invoke(db, arguments) == "labelled"
        assert db.get(Box, "b1").note == "x"
        assert db.get(UseLog, ("user", "label_box_0001", '{"box_id": "b1", "note": "x"}'))


def test_a_customer_tool_called_by_name_checks_its_arguments_first() -> None:
    with TEMPLATE.new_episode() as db:
        direct = DOMAIN.user_tools_by_name["label_box_0001"]
        assert direct.invoke(db, {"box_id": "b1"}) == (
            "Error: VaultTools.label_box_0001() missing 1 required positional argument: 'note'"
        )
        assert "has not been given" in direct.invoke(db, {"box_id": "b1", "note": "x"})
