"""Airline's own rules for its built-in tasks (every task's gold replay and reward are checked
by the contract suite in ``test_airline_plugin.py``)."""

from __future__ import annotations

from tautrait_airline.domain import build_domain, load_tasks

TASKS = load_tasks()
WRITE_TOOLS = build_domain().write_tools


def test_at_least_six_tasks_ask_for_outputs() -> None:
    assert sum(1 for task in TASKS if task.outputs) >= 6


def test_the_task_set_includes_refusals_and_a_transfer() -> None:
    """Tasks where the right answer is to change nothing, without information to give."""
    names = [{action.name for action in task.actions} for task in TASKS]
    refusals = [
        index
        for index, task in enumerate(TASKS)
        if not names[index] & set(WRITE_TOOLS)
        and not task.outputs
        and "transfer_to_human_agents" not in names[index]
    ]
    assert len(refusals) >= 4
    assert any("transfer_to_human_agents" in found for found in names)


def test_the_tools_marked_as_writing_are_those_that_change_the_database() -> None:
    assert sorted(WRITE_TOOLS) == [
        "book_reservation",
        "cancel_reservation",
        "send_certificate",
        "update_reservation_baggages",
        "update_reservation_flights",
        "update_reservation_passengers",
    ]
