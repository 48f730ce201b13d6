"""Upstream records as rows: number types, key order, reading and checking upstream files."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from sqlmodel import JSON, Field, SQLModel

from tautrait_core import (
    JSONValue,
    RecordRow,
    StateTemplate,
    UpstreamCodec,
    check_record_id,
    check_record_keys,
    read_collections,
    upstream_collection,
)


class Gadget(RecordRow, table=True):
    """A record table with a text, a JSON-value, a JSON and a derived look-up column."""

    __tablename__ = "compat_test_gadgets"

    gadget_id: str = Field(primary_key=True)
    position: int
    name_key: str = ""
    name: str | None = None
    price: Any = Field(default=None, sa_type=JSONValue, nullable=True)
    tags: list[str] | None = Field(default=None, sa_type=JSON)

    BOOKKEEPING = frozenset({"position", "field_order", "name_key"})


RECORDS = [
    {"price": 25.0, "gadget_id": "g1", "name": "Lamp", "tags": ["a"]},
    {"gadget_id": "g2", "price": 25, "name": None},
    {"gadget_id": "g3", "name": "Mug", "price": True},
]


@pytest.fixture
def template() -> StateTemplate:
    rows = [
        Gadget.from_record(record, position, name_key=(record["name"] or "").lower())
        for position, record in enumerate(RECORDS)
    ]
    return StateTemplate("compat-records", [Gadget], rows)


def test_records_come_back_with_their_keys_order_and_number_types(template) -> None:
    with template.new_episode() as db:
        rows = sorted(db.exec(Gadget.__table__.select()), key=lambda row: row.position)
        assert [row.gadget_id for row in rows] == ["g1", "g2", "g3"]
        records = [db.get(Gadget, row.gadget_id).to_record() for row in rows]
    assert json.dumps(records) == json.dumps(RECORDS)
    assert [type(record["price"]) for record in records] == [float, int, bool]


def test_read_record_skips_the_orm_and_keeps_absent_keys_absent(template) -> None:
    with template.new_episode() as db:
        assert json.dumps(Gadget.read_record(db, "g2")) == json.dumps(RECORDS[1])
        assert Gadget.read_record(db, "nope") is None


def test_set_field_appends_a_new_key_and_field_tells_absent_from_null(template) -> None:
    with template.new_episode() as db:
        gadget = db.get(Gadget, "g2")
        assert gadget.has_field("name") and gadget.field("name") is None
        with pytest.raises(KeyError):
            gadget.field("tags")
        gadget.set_field("tags", ["new"])
        gadget.set_field("price", 30.5)
        assert list(gadget.to_record()) == ["gadget_id", "price", "name", "tags"]
        assert gadget.to_record()["price"] == 30.5


def test_bookkeeping_columns_are_not_upstream_fields() -> None:
    assert Gadget.upstream_fields() == ["gadget_id", "name", "price", "tags"]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"gadget_id": "g", "colour": "red"}, "unknown field"),
        ({"gadget_id": "g", "name": 5}, "expected a string"),
    ],
)
def test_records_that_would_not_round_trip_are_refused(record: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Gadget.from_record(record, 0)


def test_read_collections_reads_in_order_and_fills_optional_ones(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text('{"x": 1.0}')
    (tmp_path / "a.json").write_text("[1]")
    data = read_collections(tmp_path, ["b", "a", "c"], domain="demo", optional={"c": []})
    assert json.dumps(data) == '{"b": {"x": 1.0}, "a": [1], "c": []}'


def test_read_collections_names_a_missing_or_broken_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"demo data file .*a\.json is missing"):
        read_collections(tmp_path, ["a"], domain="demo")
    (tmp_path / "a.json").write_text("{oops")
    with pytest.raises(ValueError, match=r"a\.json: the demo data file is not valid JSON"):
        read_collections(tmp_path, ["a"], domain="demo")


def test_upstream_collection_checks_the_kind() -> None:
    assert upstream_collection({"a": {}}, "a", domain="demo") == {}
    assert upstream_collection({"a": []}, "a", domain="demo", kind=list) == []
    with pytest.raises(ValueError, match="demo data: a must be an object, not list"):
        upstream_collection({"a": []}, "a", domain="demo")
    with pytest.raises(ValueError, match="demo data: b must be a list, not NoneType"):
        upstream_collection({}, "b", domain="demo", kind=list)


class DemoCodec(UpstreamCodec):
    domain = "demo"
    collections = ("b", "a", "c")
    optional_collections: ClassVar[dict[str, Any]] = {"c": {}}

    def rows(self, data: Mapping[str, Any]) -> Iterator[SQLModel]:
        yield Gadget(gadget_id=json.dumps(data["c"]), position=0)

    def export(self, db: Any) -> dict[str, Any]:
        return {}


def test_an_upstream_codec_reads_its_collections_and_fills_optional_ones(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text("[2]")
    (tmp_path / "a.json").write_text('{"y": 1}')
    data = DemoCodec().read_data(tmp_path)
    assert json.dumps(data) == '{"b": [2], "a": {"y": 1}, "c": {}}'
    assert DemoCodec().collection(data, "b", list) == [2]
    with pytest.raises(ValueError, match="demo data: b must be an object, not list"):
        DemoCodec().collection(data, "b")
    assert DemoCodec().to_rows({"a": {}, "b": []})[0].gadget_id == "{}"
    (tmp_path / "b.json").unlink()
    with pytest.raises(FileNotFoundError, match=r"demo data file .*b\.json is missing"):
        DemoCodec().read_data(tmp_path)


def test_check_record_keys_wants_exact_keys_in_order() -> None:
    check_record_keys("users['u']", {"a": 1, "b": 2}, ("a", "b"))
    check_record_keys("orders['o']", {"a": 1, "b": 2, "z": 3}, ("a", "b"), more_allowed=True)
    with pytest.raises(ValueError, match=r"users\['u'\] has the keys \['b', 'a'\]"):
        check_record_keys("users['u']", {"b": 2, "a": 1}, ("a", "b"))
    with pytest.raises(ValueError, match="must be an object"):
        check_record_keys("users['u']", ["a"], ("a",))


def test_check_record_id_wants_each_record_under_its_own_id() -> None:
    check_record_id("users", "u1", {"user_id": "u1"}, "user_id")
    with pytest.raises(ValueError, match="own id"):
        check_record_id("users", "u1", {"user_id": "u2"}, "user_id")
