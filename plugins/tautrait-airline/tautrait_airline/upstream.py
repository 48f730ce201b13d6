"""Reading and writing the upstream tau-trait airline data shape.

Upstream's ``load_data`` returns ``{"flights", "reservations", "users"}``, one
``data/<name>.json`` file each, every one an object keyed by id (a flight and a reservation
also carry their id inside; a user does not). :class:`AirlineUpstream` turns that dict into
table rows and rebuilds it exactly from an episode database, so that
``upstream_hash(export(db))`` equals upstream's data hash.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sqlmodel import SQLModel, select

from tautrait_airline.records import (
    flight_record,
    flight_rows,
    reservation_record,
    reservation_row,
    user_record,
    user_row,
)
from tautrait_airline.schema import Flight, FlightDate, Reservation, User
from tautrait_core import UpstreamCodec, check_record_id

COLLECTIONS = ("flights", "reservations", "users")
"""The collections in upstream's order."""


class AirlineUpstream(UpstreamCodec):
    """The :class:`~tautrait_core.UpstreamFormat` of the airline domain."""

    domain = "airline"
    collections = COLLECTIONS

    def export(self, db: Any) -> dict[str, Any]:
        """The episode database as upstream's dict of collections, in upstream order.

        Rows are read as plain result rows (not as tracked objects), so every nested value
        of the export is freshly decoded and owned by the caller.
        """
        dates: dict[str, list[Any]] = {}
        for row in _plain_rows(db, FlightDate):
            dates.setdefault(row.flight_number, []).append(row)
        flights = {
            row.flight_number: flight_record(row, dates.get(row.flight_number, []))
            for row in _plain_rows(db, Flight)
        }
        reservations = {
            row.reservation_id: reservation_record(row) for row in _plain_rows(db, Reservation)
        }
        users = {row.user_id: user_record(row) for row in _plain_rows(db, User)}
        return {"flights": flights, "reservations": reservations, "users": users}

    def rows(self, data: Mapping[str, Any]) -> Iterator[SQLModel]:
        """Table rows for upstream data (a dict of the three collections)."""
        flights = self.collection(data, "flights")
        for position, (key, record) in enumerate(flights.items()):
            check_record_id("flights", key, record, "flight_number")
            yield from flight_rows(record, position)
        reservations = self.collection(data, "reservations")
        for position, (key, record) in enumerate(reservations.items()):
            check_record_id("reservations", key, record, "reservation_id")
            yield reservation_row(record, position)
        users = self.collection(data, "users")
        for position, (key, record) in enumerate(users.items()):
            yield user_row(key, record, position)


def _plain_rows(db: Any, model: Any) -> Any:
    """Every row of ``model``'s table as a result row, in upstream order."""
    columns = [getattr(model, name) for name in model.model_fields]
    return db.exec(select(*columns).order_by(model.position))
