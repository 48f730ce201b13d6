"""τ²-bench's airline variant (``tau2-airline``) against τ²'s own golden records: every gold
call's output byte-identical, the database hashes before and after equal to τ²'s; and the
τ-Trait ``airline`` domain untouched by it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tautrait_airline.tau2.domain import build_domain
from tautrait_airline.tau2.records import agent_db_hash

from tautrait_core import resolve_task_set, template_for
from tautrait_core.testing import golden_records, run_side_call, tau2_schema_differences

FRESH_AIRLINE_HASH = "92e570481b8ccad546dcf1983280dffbe42ab2f9bfd85fb6ce35d670e8b2c188"


def booking(date: str, travellers: int = 1) -> dict[str, Any]:
    """The arguments of a business-class booking of HAT271 (ORD to PHL) on ``date``."""
    return {
        "user_id": "sophia_silva_7557",
        "origin": "ORD",
        "destination": "PHL",
        "flight_type": "one_way",
        "cabin": "business",
        "flights": [{"flight_number": "HAT271", "date": date}],
        "passengers": [{"first_name": "S", "last_name": "S", "dob": "1957-10-05"}] * travellers,
        "payment_methods": [{"payment_id": "credit_card_4196779", "amount": 338}],
        "total_baggages": 0,
        "nonfree_baggages": 0,
        "insurance": "no",
    }


@pytest.fixture
def airline(tau2_imported: Callable[..., Path]):
    tau2_imported("airline")
    domain = build_domain()
    task_set = resolve_task_set(domain, "tau2:airline")
    return domain, task_set, template_for(domain, task_set)


def test_every_gold_replay_matches_tau2(airline, tau2_reference: Path) -> None:
    domain, task_set, template = airline
    records = golden_records(tau2_reference, "airline")
    assert len(records) == len(task_set.tasks) == 50
    with template.new_episode() as db:
        assert agent_db_hash(db) == FRESH_AIRLINE_HASH
    assert {record["initial_agent_db_hash"] for record in records} == {FRESH_AIRLINE_HASH}
    mismatches = []
    for record in records:
        with template.new_episode() as db:
            for call in record["calls"]:
                output = run_side_call(
                    domain, db, call["requestor"], call["name"], call["arguments"]
                )
                if output != call["output"]:
                    mismatches.append((record["task_id"], call["name"], output, call["output"]))
            if agent_db_hash(db) != record["final_agent_db_hash"]:
                mismatches.append((record["task_id"], "final hash"))
    assert not mismatches, mismatches[:3]


def test_booking_takes_seats_and_errors_are_tau2s(airline) -> None:
    domain, _, template = airline
    with template.new_episode() as db:
        before = domain.run_tool(
            db,
            "search_direct_flight",
            {"origin": "ORD", "destination": "PHL", "date": "2024-05-26"},
        )
        assert '"HAT271"' in before and '"date": null' in before
        booked = domain.run_tool(db, "book_reservation", booking("2024-05-26"))
        assert booked.startswith('{"reservation_id": "HATHAT"'), booked
        after = domain.run_tool(
            db,
            "search_direct_flight",
            {"origin": "ORD", "destination": "PHL", "date": "2024-05-26"},
        )
        assert before != after  # one business seat fewer on HAT271
        assert domain.run_tool(db, "get_user_details", {"user_id": "nobody"}) == (
            "Error: User nobody not found"
        )
        assert domain.run_tool(
            db, "get_flight_status", {"flight_number": "HAT001", "date": "x"}
        ) == ("Error: Flight HAT001 not found on date x")
        assert "think" not in domain.tools_by_name


def test_a_flight_date_that_cannot_be_booked_is_refused_with_tau2s_text(airline) -> None:
    domain, _, template = airline

    def book(date: str, travellers: int) -> str:
        return domain.run_tool(db, "book_reservation", booking(date, travellers))

    with template.new_episode() as db:
        status = {"flight_number": "HAT271", "date": "2024-05-10"}
        assert domain.run_tool(db, "get_flight_status", status) == "landed"
        assert book("2024-05-10", 1) == "Error: Flight HAT271 not available on date 2024-05-10"
        found = domain.run_tool(
            db,
            "search_direct_flight",
            {"origin": "ORD", "destination": "PHL", "date": "2024-05-26"},
        )
        (flight,) = [f for f in json.loads(found) if f["flight_number"] == "HAT271"]
        seats = flight["available_seats"]["business"]
        assert book("2024-05-26", seats + 1) == "Error: Not enough seats on flight HAT271"
        assert not db.changes()


def test_tool_schemas_match_tau2s(tau2_reference: Path) -> None:
    assert tau2_schema_differences(build_domain(), tau2_reference, "airline") == []
