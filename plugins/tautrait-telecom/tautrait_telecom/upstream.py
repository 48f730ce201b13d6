"""Reading and writing the upstream tau-trait telecom data shape.

Upstream's ``load_data`` returns five collections, one per ``data/<name>.json`` file, each a
JSON object keyed by id. :class:`TelecomUpstream` turns that dict into table rows and
rebuilds it exactly from an episode database, so ``upstream_hash(export(db))`` equals
upstream's data hash and a tool's ``json.dumps`` of a record matches upstream's text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel, select

from tautrait_telecom.schema import Billing, Customer, Device, RecordRow, Service, SupportTicket

COLLECTIONS: dict[str, type[RecordRow]] = {
    "customers": Customer,
    "services": Service,
    "devices": Device,
    "billing": Billing,
    "support_tickets": SupportTicket,
}
"""The collections in upstream's order, with their tables."""

RECORD_IDS: dict[str, str] = {
    "customers": "customer_id",
    "services": "service_id",
    "billing": "customer_id",
    "support_tickets": "ticket_id",
}
"""The id field that keys each record; device records are keyed by their display name."""


class TelecomUpstream:
    """The :class:`~tautrait_core.domain.domain.UpstreamFormat` of the telecom domain."""

    def read_data(self, folder: Path) -> dict[str, Any]:
        """Read ``folder/<collection>.json`` for the five collections."""
        data: dict[str, Any] = {}
        for name in COLLECTIONS:
            path = folder / f"{name}.json"
            if not path.is_file():
                raise FileNotFoundError(f"telecom data file {path} is missing")
            data[name] = json.loads(path.read_text(encoding="utf-8"))
        return data

    def to_rows(self, data: dict[str, Any]) -> list[SQLModel]:
        """Table rows for upstream data (a dict of the five collections)."""
        return list(_rows(data))

    def export(self, db: Any) -> dict[str, Any]:
        """The episode database as upstream's dict of collections, in upstream order."""
        data: dict[str, Any] = {}
        for name, model in COLLECTIONS.items():
            key = RECORD_IDS.get(name, "catalog_name")
            rows = db.exec(select(model).order_by(model.position))  # type: ignore[attr-defined]
            data[name] = {getattr(row, key): row.to_record() for row in rows}
        return data


def _rows(data: dict[str, Any]) -> Iterator[SQLModel]:
    for name, model in COLLECTIONS.items():
        collection = data.get(name)
        if not isinstance(collection, dict):
            found = type(collection).__name__
            raise ValueError(f"telecom data: {name} must be an object, not {found}")
        id_field = RECORD_IDS.get(name)
        for position, (key, record) in enumerate(collection.items()):
            if not isinstance(record, dict):
                raise ValueError(f"telecom data: {name}[{key!r}] must be an object")
            if id_field is None:
                yield Device.from_record(record, position, catalog_name=key)
                continue
            if record.get(id_field) != key:
                raise ValueError(
                    f"{name}: the record under key {key!r} has {id_field}="
                    f"{record.get(id_field)!r}; upstream keys each record by its own id"
                )
            if model is Customer:
                yield Customer.from_customer_record(record, position)
            else:
                yield model.from_record(record, position)
