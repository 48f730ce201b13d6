"""Upstream records of the airline tables: from rows, and rows from records.

Every record has a fixed set of keys in a fixed order (a cancelled reservation adds
``status`` at the end); records that do not fit are refused with ``ValueError`` rather than
stored in a shape the export could not write back.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from tautrait_airline import flight_dates
from tautrait_airline.schema import Flight, FlightDate, Reservation, User
from tautrait_core import check_record_keys

FLIGHT_FIELDS = (
    "flight_number",
    "origin",
    "destination",
    "scheduled_departure_time_est",
    "scheduled_arrival_time_est",
)
"""A flight's keys before ``dates``."""

RESERVATION_FIELDS = (
    "reservation_id",
    "user_id",
    "origin",
    "destination",
    "flight_type",
    "cabin",
    "flights",
    "passengers",
    "payment_history",
    "created_at",
    "total_baggages",
    "nonfree_baggages",
    "insurance",
)
"""A reservation's keys; a cancelled one has ``status`` after them."""

USER_FIELDS = (
    "name",
    "address",
    "email",
    "dob",
    "payment_methods",
    "saved_passengers",
    "membership",
    "reservations",
)
"""A user's keys (the id is the record's key, not a field)."""

TEXT_FIELDS = frozenset(
    {
        *FLIGHT_FIELDS,
        "reservation_id",
        "user_id",
        "flight_type",
        "cabin",
        "created_at",
        "insurance",
        "status",
        "email",
        "dob",
        "membership",
    }
)
"""Fields stored in text columns (their values must be strings)."""


def flight_record(flight: Flight, dates: list[Any]) -> dict[str, Any]:
    """The upstream flight record; ``dates`` are the flight's date rows in order (anything
    with ``date``, ``status`` and ``details``)."""
    record: dict[str, Any] = {key: getattr(flight, key) for key in FLIGHT_FIELDS}
    record["dates"] = {row.date: flight_dates.decode(row.status, row.details) for row in dates}
    return record


def reservation_record(reservation: Any) -> dict[str, Any]:
    """The upstream reservation record of a row (or of a result row with the same columns).

    Nested values are shared with the row, not copied: serialize the record, or pass rows
    that were read for the purpose (as the export does).
    """
    record = {key: getattr(reservation, key) for key in RESERVATION_FIELDS}
    if reservation.status is not None:
        record["status"] = reservation.status
    return record


def reservation_json(reservation: Reservation) -> str:
    """``json.dumps`` of the reservation record, as the tools answer it."""
    return json.dumps(reservation_record(reservation))


def user_record(user: Any) -> dict[str, Any]:
    """The upstream user record of a row (nested values shared, as for reservations)."""
    return {key: getattr(user, key) for key in USER_FIELDS}


def flight_rows(record: dict[str, Any], position: int) -> list[Flight | FlightDate]:
    """The flight row and its date rows for an upstream flight record."""
    _check_keys("flights", record, (*FLIGHT_FIELDS, "dates"))
    dates = record["dates"]
    if not isinstance(dates, dict):
        raise ValueError(f"flights: dates of {record['flight_number']!r} must be an object")
    rows: list[Flight | FlightDate] = [
        Flight(**{key: record[key] for key in FLIGHT_FIELDS}, position=position)
    ]
    for place, (date, entry) in enumerate(dates.items()):
        if not isinstance(entry, dict):
            raise ValueError(f"flights: {record['flight_number']} {date} must be an object")
        status, details = flight_dates.encode(entry)
        rows.append(
            FlightDate(
                flight_number=record["flight_number"],
                date=date,
                position=place,
                status=status,
                details=copy.deepcopy(details),
            )
        )
    return rows


def reservation_row(record: dict[str, Any], position: int) -> Reservation:
    """The row of an upstream reservation record."""
    fields = RESERVATION_FIELDS + (("status",) if "status" in record else ())
    _check_keys("reservations", record, fields)
    if record.get("status", "") is None:
        raise ValueError("reservations: a status of null cannot be stored")
    for key in ("flights", "passengers", "payment_history"):
        items = record[key]
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise ValueError(f"reservations: {key} must be a list of objects")
    return Reservation(**copy.deepcopy(record), position=position)


def user_row(user_id: str, record: dict[str, Any], position: int) -> User:
    """The row of an upstream user record stored under ``user_id``."""
    _check_keys("users", record, USER_FIELDS)
    return User(user_id=user_id, **copy.deepcopy(record), position=position)


def _check_keys(collection: str, record: Any, fields: tuple[str, ...]) -> None:
    check_record_keys(collection, record, fields)
    for key in fields:
        if key in TEXT_FIELDS and not isinstance(record[key], str):
            raise ValueError(f"{collection}: field {key!r} holds {record[key]!r}, not a string")
