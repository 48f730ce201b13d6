"""Reading and writing the upstream tau-trait telecom data shape.

Upstream's ``load_data`` returns five collections, one per ``data/<name>.json`` file, each a
JSON object keyed by id. :class:`TelecomUpstream` turns that dict into table rows and
rebuilds it exactly from an episode database, so ``upstream_hash(export(db))`` equals
upstream's data hash and a tool's ``json.dumps`` of a record matches upstream's text.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sqlmodel import SQLModel, select

from tautrait_core import RecordRow, UpstreamCodec, check_record_id
from tautrait_telecom.schema import Billing, Customer, Device, Service, SupportTicket

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


class TelecomUpstream(UpstreamCodec):
    """The :class:`~tautrait_core.UpstreamFormat` of the telecom domain."""

    domain = "telecom"
    collections = COLLECTIONS

    def export(self, db: Any) -> dict[str, Any]:
        """The episode database as upstream's dict of collections, in upstream order."""
        data: dict[str, Any] = {}
        for name, model in COLLECTIONS.items():
            key = RECORD_IDS.get(name, "catalog_name")
            rows = db.exec(select(model).order_by(model.position))  # type: ignore[attr-defined]
            data[name] = {getattr(row, key): row.to_record() for row in rows}
        return data

    def rows(self, data: Mapping[str, Any]) -> Iterator[SQLModel]:
        """Table rows for upstream data (a dict of the five collections)."""
        for name, model in COLLECTIONS.items():
            collection = self.collection(data, name)
            id_field = RECORD_IDS.get(name)
            for position, (key, record) in enumerate(collection.items()):
                if not isinstance(record, dict):
                    raise ValueError(f"telecom data: {name}[{key!r}] must be an object")
                if id_field is None:
                    yield Device.from_record(record, position, catalog_name=key)
                    continue
                check_record_id(name, key, record, id_field)
                if model is Customer:
                    yield Customer.from_customer_record(record, position)
                else:
                    yield model.from_record(record, position)
