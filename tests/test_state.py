"""Episode databases: private copies, the canonical state hash, in-place JSON changes."""

from __future__ import annotations

import datetime as dt

import pytest

from tautrait_core.domain.state import StateTemplate


@pytest.fixture
def template(toy_plugin) -> StateTemplate:
    domain = toy_plugin.build_domain()
    return StateTemplate("toylib:test", domain.tables, domain.seed_data())


def borrow(db, toy_plugin, book: str = "B1") -> str:
    return toy_plugin.borrow_book.invoke(db, {"member_id": "ann_1", "book_id": book, "days": 3})


def test_episodes_are_private_copies(template, toy_plugin) -> None:
    first, second = template.new_episode(), template.new_episode()
    assert "lent to Ann Lee" in borrow(first, toy_plugin)
    assert first.get(toy_plugin.Book, "B1").available is False
    assert second.get(toy_plugin.Book, "B1").available is True
    assert template.new_episode().get(toy_plugin.Member, "ann_1").loans == []


def test_hash_is_canonical_and_matches_a_full_scan(template, toy_plugin) -> None:
    untouched = template.new_episode()
    changed_a, changed_b = template.new_episode(), template.new_episode()
    borrow(changed_a, toy_plugin)
    borrow(changed_b, toy_plugin)
    assert changed_a.state_hash() == changed_b.state_hash() != untouched.state_hash()
    for db in (untouched, changed_a):
        assert db.state_hash() == db.full_state_hash()


def test_in_place_json_mutation_is_seen_even_after_the_row_is_dropped(template, toy_plugin) -> None:
    db = template.new_episode()
    before = db.state_hash()

    def mutate() -> None:  # the row object is only referenced inside this call
        db.get(toy_plugin.Book, "B2").details["shelf"] = "moved"

    mutate()
    assert db.state_hash() != before
    assert db.state_hash() == db.full_state_hash()
    assert list(db.changes()) == [("toylib_books", '["B2"]')]


def test_changing_a_row_back_restores_the_original_hash(template, toy_plugin) -> None:
    db = template.new_episode()
    original = db.state_hash()
    book = db.get(toy_plugin.Book, "B2")
    book.details["shelf"] = "elsewhere"
    assert db.state_hash() != original
    book.details["shelf"] = "CL-4"
    assert db.state_hash() == original
    assert db.changes() == {}


def test_int_and_float_values_hash_differently(template, toy_plugin) -> None:
    as_int, as_float = template.new_episode(), template.new_episode()
    as_int.get(toy_plugin.Book, "B1").details["fee"] = 1
    as_float.get(toy_plugin.Book, "B1").details["fee"] = 1.0
    assert as_int.state_hash() != as_float.state_hash()


def test_inserts_and_deletes_are_part_of_the_hash(template, toy_plugin) -> None:
    db = template.new_episode()
    db.add(toy_plugin.Book(book_id="B9", title="New"))
    db.delete(db.get(toy_plugin.Book, "B3"))
    changes = db.changes()
    assert changes[("toylib_books", '["B3"]')] is None
    assert ("toylib_books", '["B9"]') in changes
    assert db.state_hash() == db.full_state_hash()


def test_partial_changes_before_a_tool_error_are_kept(template, toy_plugin) -> None:
    db = template.new_episode()
    observation = toy_plugin.explode.invoke(db, {"book_id": "B1"})
    assert observation == "Error: shelf collapsed"
    assert db.get(toy_plugin.Book, "B1").details == {"shelf": "SF-1", "damaged": True}
    assert db.changes()


def test_episode_date_is_fixed(template) -> None:
    assert template.new_episode(dt.date(2025, 1, 2)).today == dt.date(2025, 1, 2)


def test_a_scalar_json_value_hashes_like_any_other_value(template, toy_plugin) -> None:
    """SQLite reads a JSON scalar back as a number (numeric affinity); hashing copes."""
    db = template.new_episode()
    before = db.state_hash()
    db.get(toy_plugin.Book, "B2").details = 25
    assert db.state_hash() != before
    assert db.state_hash() == db.full_state_hash()
    db.get(toy_plugin.Book, "B2").details = 26
    assert db.state_hash() == db.full_state_hash()


def test_a_later_episode_gets_the_template_rows_back(template, toy_plugin) -> None:
    fresh = template.new_episode()
    fresh_hash = fresh.state_hash()
    fresh.close()
    for _ in range(3):  # copies are kept and reused once their episode ends
        with template.new_episode() as db:
            assert db.state_hash() == fresh_hash
            borrow(db, toy_plugin)
            assert db.state_hash() != fresh_hash
    with template.new_episode() as db:
        assert db.get(toy_plugin.Book, "B1").available is True
        assert db.state_hash() == db.full_state_hash() == fresh_hash


def test_an_episode_that_commits_does_not_leak_into_later_ones(template, toy_plugin) -> None:
    with template.new_episode() as db:
        fresh_hash = db.state_hash()
        borrow(db, toy_plugin)
        db.commit()
    for _ in range(6):  # more than the copies kept: none of them holds the commit
        with template.new_episode() as db:
            assert db.get(toy_plugin.Book, "B1").available is True
            assert db.state_hash() == fresh_hash
