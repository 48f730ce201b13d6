"""Plain-SQL row access of an episode database: same values and hashes as the ORM."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from tautrait_core.domain.state import StateTemplate


@pytest.fixture
def template(toy_plugin) -> StateTemplate:
    domain = toy_plugin.build_domain()
    return StateTemplate("toylib:plain", domain.tables, domain.seed_data())


def test_read_row_gives_the_values_the_orm_reads(template, toy_plugin) -> None:
    with template.new_episode() as db:
        values = db.read_row(toy_plugin.Book, "B2")
        book = db.get(toy_plugin.Book, "B2")
        assert values == {name: getattr(book, name) for name in values}
        assert isinstance(values["details"], dict) and values["available"] is True
        assert db.read_row(toy_plugin.Book, "missing") is None


def test_plain_writes_hash_like_orm_writes(template, toy_plugin) -> None:
    with template.new_episode() as orm, template.new_episode() as plain:
        book = orm.get(toy_plugin.Book, "B2")
        book.available = False
        book.details = {**book.details, "shelf": "moved"}
        orm.add(toy_plugin.Book(book_id="B9", title="New", details={"n": 1.0}))
        orm.delete(orm.get(toy_plugin.Book, "B1"))
        orm.flush()

        details = plain.read_row(toy_plugin.Book, "B2")["details"]
        plain.update_row(
            toy_plugin.Book, "B2", {"available": False, "details": {**details, "shelf": "moved"}}
        )
        new = {"book_id": "B9", "title": "New", "available": True, "details": {"n": 1.0}}
        plain.insert_row(toy_plugin.Book, new)
        plain.delete_row(toy_plugin.Book, "B1")

        assert plain.state_hash() == orm.state_hash() == plain.full_state_hash()
        assert plain.read_row(toy_plugin.Book, "B9")["details"] == {"n": 1.0}


def test_plain_and_orm_access_see_each_others_changes(template, toy_plugin) -> None:
    with template.new_episode() as db:
        book = db.get(toy_plugin.Book, "B2")
        book.details["shelf"] = "in place"  # seen by a plain write, which flushes first
        db.update_row(toy_plugin.Book, "B2", {"title": "Renamed"})
        assert db.get(toy_plugin.Book, "B2").title == "Renamed"  # the loaded object reloads
        assert db.read_row(toy_plugin.Book, "B2")["details"]["shelf"] == "in place"
        rows = db.plain_select('SELECT book_id FROM "toylib_books" WHERE title = ?', ("Renamed",))
        assert rows == [("B2",)]


def test_read_rows_filters_and_orders_with_sql(template, toy_plugin) -> None:
    with template.new_episode() as db:
        everything = db.read_rows(toy_plugin.Book, order_by='"book_id" DESC')
        assert [row["book_id"] for row in everything] == sorted(
            (book.book_id for book in db.exec(select(toy_plugin.Book))), reverse=True
        )
        db.update_row(toy_plugin.Book, "B1", {"available": False})
        lent = db.read_rows(toy_plugin.Book, '"available" = ?', (False,), '"book_id"')
        on_loan = select(toy_plugin.Book).where(toy_plugin.Book.available == False)  # noqa: E712
        assert [row["book_id"] for row in lent] == sorted(b.book_id for b in db.exec(on_loan))
        assert "B1" in [row["book_id"] for row in lent]


def test_get_keeps_the_session_semantics(template, toy_plugin) -> None:
    with template.new_episode() as db:
        book = db.get(toy_plugin.Book, "B2")
        assert db.get(toy_plugin.Book, "B2") is book  # the object already in the session
        assert db.get(toy_plugin.Book, "missing") is None
        db.add(toy_plugin.Book(book_id="B9", title="New", details={}))
        assert db.get(toy_plugin.Book, "B9").title == "New"  # pending rows are flushed first
        db.delete(book)
        assert db.get(toy_plugin.Book, "B2") is Session.get(db, toy_plugin.Book, "B2") is book
        db.flush()
        assert db.get(toy_plugin.Book, "B2") is None


def test_a_record_reads_like_the_orm_and_writes_at_the_next_flush(template, toy_plugin) -> None:
    with template.new_episode() as orm, template.new_episode() as plain:
        book = orm.get(toy_plugin.Book, "B2")
        book.available = False
        book.details = {**book.details, "shelf": "moved"}
        orm.flush()

        record = plain.record(toy_plugin.Book, "B2")
        assert record is plain.record(toy_plugin.Book, "B2")  # held for the episode
        assert record.title == plain.read_row(toy_plugin.Book, "B2")["title"]
        record.available = False
        record.details = {**record.details, "shelf": "moved"}
        assert plain.read_row(toy_plugin.Book, "B2")["available"] is False  # a query writes first
        assert plain.state_hash() == orm.state_hash() == plain.full_state_hash()
        assert plain.record(toy_plugin.Book, "missing") is None


def test_a_record_changed_in_place_is_written_at_an_explicit_flush(template, toy_plugin) -> None:
    with template.new_episode() as db:
        record = db.record(toy_plugin.Book, "B2")
        record.details["shelf"] = "in place"
        db.flush()
        assert db.read_row(toy_plugin.Book, "B2")["details"]["shelf"] == "in place"
        with pytest.raises(AttributeError, match="no column 'colour'"):
            record.colour = "red"
        with pytest.raises(AttributeError, match="no column 'colour'"):
            _ = record.colour


def test_records_and_orm_objects_of_one_row_stay_consistent(template, toy_plugin) -> None:
    with template.new_episode() as db:
        book = db.get(toy_plugin.Book, "B2")
        record = db.record(toy_plugin.Book, "B2")
        record.title = "Renamed"
        db.flush()
        assert book.title == "Renamed"  # the ORM object was expired and reloads
        db.update_row(toy_plugin.Book, "B2", {"title": "Again"})
        assert db.record(toy_plugin.Book, "B2").title == "Again"  # a new record is read
        assert db.record(toy_plugin.Book, "B2") is not record
