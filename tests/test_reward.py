"""The gold plan and its replay: which gold actions run through the tools."""

from __future__ import annotations

from tautrait_core import RESPOND_ACTION, Action, StateTemplate, gold_plan, replay_actions

ACTIONS = [
    Action(name="find_member", kwargs={"email": "ann@example.org"}),
    Action(name=RESPOND_ACTION, kwargs={"content": "Found you."}),
    Action(name="borrow_book", kwargs={"member_id": "ann_1", "book_id": "B1"}),
    Action(name="transfer_to_librarian", kwargs={"summary": "done"}),
]


def test_gold_plan_drops_replies_and_terminating_tools() -> None:
    plan = gold_plan(ACTIONS, ["transfer_to_librarian"])
    assert [action.name for action in plan] == ["find_member", "borrow_book"]


def test_gold_plan_can_keep_the_replies_in_place() -> None:
    plan = gold_plan(ACTIONS, ["transfer_to_librarian"], with_replies=True)
    assert [action.name for action in plan] == ["find_member", RESPOND_ACTION, "borrow_book"]


def test_the_replay_runs_exactly_the_gold_plan(toy_plugin) -> None:
    domain = toy_plugin.build_domain()
    template = StateTemplate("toylib:reward", domain.tables, domain.seed_data())
    with template.new_episode() as db:
        observations = replay_actions(domain, db, ACTIONS)
        assert db.get(toy_plugin.Book, "B1").available is False
    assert observations[0] == "ann_1"
    assert observations[1] == observations[3] == ""
    assert observations[2] != ""
