"""τ² telecom against τ²-bench's own outputs (``tau2-bench/golden/telecom*.jsonl``).

For every golden record (gold replays and failing variants of ``telecom`` and
``telecom_small``): the task's initial state is applied to τ²'s database (with the testing
helper until the core applies initial states itself), each recorded
call runs on its side and must give the recorded output byte for byte, both sides' τ²
database hashes must equal τ²'s before and after, and every env assertion must come out as
it did in τ². The fresh databases must hash as τ²'s do, and the tool schemas the models see
must match τ²'s.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tautrait_telecom.tau2.database import read_rows, side_hashes
from tautrait_telecom.tau2.domain import build_domain
from tautrait_telecom.tau2.schema import TABLES
from tautrait_telecom.tau2.tools.agent import TODAY

from tautrait_core import Domain, EnvAssertion, InitialState, StateTemplate, Task
from tautrait_core.testing import (
    apply_initial_state_for_test,
    call_function,
    missing_reference_material,
    reference_material_dir,
    run_side_call,
)

REFERENCE = reference_material_dir(__file__) / "tau2-bench"
TELECOM = REFERENCE / "data" / "telecom"
TASK_FILES = {"telecom": "tasks.json", "telecom_small": "tasks_small.json"}
FRESH_AGENT_HASH = "304cf5ef059852e117ea801ab9a5efc24c9713ec887679dc2e30acceb4b6742d"
FRESH_USER_HASH = "e1f3a8637388808221228ff3f87294444e6b64caf721f5eb243a85d0a9380b28"
"""τ²'s hashes of its fresh telecom databases (the reference README's table)."""

pytestmark = pytest.mark.skipif(not TELECOM.is_dir(), reason=missing_reference_material(REFERENCE))


def golden_records() -> list[dict[str, Any]]:
    records = []
    for task_set in TASK_FILES:
        path = REFERENCE / "golden" / f"{task_set}.jsonl"
        if path.is_file():
            records += [json.loads(line) for line in path.read_text().splitlines() if line]
    return records


RECORDS = golden_records() if TELECOM.is_dir() else []


@pytest.fixture(scope="module")
def domain() -> Domain:
    return build_domain()


@pytest.fixture(scope="module")
def template() -> StateTemplate:
    return StateTemplate("tau2-telecom:reference", TABLES, read_rows(TELECOM))


@pytest.fixture(scope="module")
def tasks() -> dict[str, dict[str, Any]]:
    found = {}
    for name in TASK_FILES.values():
        for task in json.loads((TELECOM / name).read_text()):
            found[task["id"]] = task
    return found


def task_with_initial_state(task: dict[str, Any]) -> Task:
    return Task(
        user_id="",
        instruction="",
        initial_state=InitialState.model_validate(task["initial_state"]),
    )


def test_fresh_databases_hash_as_tau2s(template: StateTemplate) -> None:
    with template.new_episode(TODAY) as db:
        assert side_hashes(db) == (FRESH_AGENT_HASH, FRESH_USER_HASH)


@pytest.mark.parametrize(
    "record",
    RECORDS,
    ids=[f"{r['task_set']}:{r['task_id']}:{r['variant']}" for r in RECORDS],
)
def test_golden_record_replays_identically(
    record: dict[str, Any], domain: Domain, template: StateTemplate, tasks: dict[str, Any]
) -> None:
    task = tasks[record["task_id"]]
    with template.new_episode(TODAY) as db:
        apply_initial_state_for_test(domain, db, task_with_initial_state(task))
        if "initial_agent_db_hash" in record:  # failing variants do not repeat them
            assert side_hashes(db) == (
                record["initial_agent_db_hash"],
                record["initial_user_db_hash"],
            )
        for call in record["calls"]:
            output = run_side_call(domain, db, call["requestor"], call["name"], call["arguments"])
            db.flush()
            assert output == call["output"], call["action_id"]
            assert output.startswith("Error: ") == call["error"]
        assert side_hashes(db) == (record["final_agent_db_hash"], record["final_user_db_hash"])
        for expected in record["env_assertions"]:
            assertion = EnvAssertion.model_validate(expected)
            result = call_function(
                domain, db, assertion.env_type, assertion.func_name, assertion.arguments
            )
            assert (result == assertion.assert_value) == expected["met"], assertion.func_name


@pytest.mark.parametrize(
    "record",
    [r for r in RECORDS if r["variant"] == "gold"],
    ids=lambda r: f"{r['task_set']}:{r['task_id']}",
)
def test_unsynced_gold_environment_hashes_as_tau2s(
    record: dict[str, Any], domain: Domain, template: StateTemplate, tasks: dict[str, Any]
) -> None:
    """τ²'s evaluator replays gold actions without the sync: the hashes of that
    environment (which differ from the live one for agent-side writes) match too."""
    task = tasks[record["task_id"]]
    with template.new_episode(TODAY) as db:
        apply_initial_state_for_test(domain, db, task_with_initial_state(task))
        for action in task["evaluation_criteria"]["actions"] or []:
            tools = (
                domain.user_tools_by_name if action["requestor"] == "user" else domain.tools_by_name
            )
            tools[action["name"]].function(db, **action["arguments"])
            db.flush()
        gold = record["gold_env"]
        assert side_hashes(db) == (gold["agent_db_hash"], gold["user_db_hash"])


def test_tool_schemas_match_tau2s(domain: Domain) -> None:
    """Names, parameters, types, enums and required arguments, for both sides."""
    reference = json.loads((REFERENCE / "tool_schemas.json").read_text())["telecom"]
    for side, tools in (("agent", domain.tools), ("user", domain.user_tools)):
        ours = {tool.name: shape(tool.schema["function"]["parameters"]) for tool in tools}
        theirs = {
            entry["function"]["name"]: shape(entry["function"]["parameters"])
            for entry in reference[side]
        }
        assert ours == theirs, side


def shape(parameters: dict[str, Any]) -> dict[str, Any]:
    """What of a parameter schema a model relies on: each parameter's types and enum
    values (references resolved, descriptions and titles ignored), and what is required."""
    defs = parameters.get("$defs", {})

    def types(schema: dict[str, Any]) -> set[str]:
        if "$ref" in schema:
            schema = defs[schema["$ref"].split("/")[-1]]
        if "anyOf" in schema:
            return set().union(*(types(option) for option in schema["anyOf"]))
        kind = schema.get("type", "any")
        if "enum" in schema:
            return {f"{kind}:{value}" for value in schema["enum"]} | {kind}
        return {kind}

    properties = parameters.get("properties", {})
    return {
        "properties": {name: sorted(types(schema)) for name, schema in properties.items()},
        "required": sorted(parameters.get("required", [])),
    }
