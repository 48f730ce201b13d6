"""τ²'s airline database shape: rows from ``db.json``, records as τ²'s models dump them
(field order, ``status`` as ``null`` until cancelled, balances as floats), the export and
its hash."""

from __future__ import annotations

from typing import Any

from sqlmodel import SQLModel

from tautrait_airline.records import RESERVATION_FIELDS
from tautrait_airline.upstream import AirlineUpstream
from tautrait_core import EpisodeDB
from tautrait_core.tau2 import (
    tau2_db_hash,
    tau2_payment_methods,
    tau2_records_without_key,
    tau2_user_identity,
)

PAYMENT_FIELDS = {
    "credit_card": ("source", "id", "brand", "last_four"),
    "gift_card": ("source", "id", "amount"),
    "certificate": ("source", "id", "amount"),
}
SEGMENT_FIELDS = ("flight_number", "origin", "destination", "date", "price")
PASSENGER_FIELDS = ("first_name", "last_name", "dob")


def rows_from(data: dict[str, Any]) -> list[SQLModel]:
    """Table rows for τ²'s airline database (read through the airline plugin's codec)."""
    users = tau2_records_without_key(data["users"], "user_id")
    upstream = {"flights": data["flights"], "reservations": data["reservations"], "users": users}
    return AirlineUpstream().to_rows(upstream)


def user_record(user: Any) -> dict[str, Any]:
    """τ²'s ``User`` dump of a user row."""
    return {
        **tau2_user_identity(user),
        "dob": user.dob,
        "payment_methods": tau2_payment_methods(
            user.payment_methods, PAYMENT_FIELDS, money="amount"
        ),
        "saved_passengers": [
            {key: p[key] for key in PASSENGER_FIELDS} for p in user.saved_passengers
        ],
        "membership": user.membership,
        "reservations": list(user.reservations),
    }


def reservation_record(reservation: Any) -> dict[str, Any]:
    """τ²'s ``Reservation`` dump of a reservation row: the upstream record with its flights,
    passengers and payments cut to the fields of τ²'s models, and ``status`` always there."""
    record = {key: getattr(reservation, key) for key in RESERVATION_FIELDS}
    record["flights"] = [{key: s[key] for key in SEGMENT_FIELDS} for s in reservation.flights]
    record["passengers"] = [
        {key: p[key] for key in PASSENGER_FIELDS} for p in reservation.passengers
    ]
    record["payment_history"] = [
        {"payment_id": p["payment_id"], "amount": p["amount"]} for p in reservation.payment_history
    ]
    record["status"] = reservation.status
    return record


def export(db: EpisodeDB) -> dict[str, Any]:
    """The episode database as τ²'s ``FlightDB.model_dump()``."""
    db.flush()
    data = AirlineUpstream().export(db)
    return {
        "flights": data["flights"],
        "reservations": {
            key: reservation_record(_Record(key, "reservation_id", record))
            for key, record in data["reservations"].items()
        },
        "users": {
            key: user_record(_Record(key, "user_id", record))
            for key, record in data["users"].items()
        },
    }


class _Record:
    """Attribute access to an exported record (whose id may be its key only)."""

    def __init__(self, key: str, id_field: str, record: dict[str, Any]) -> None:
        self.__dict__.update({"status": None, **record, id_field: key})


def agent_db_hash(db: EpisodeDB) -> str:
    """τ²'s hash of the airline database."""
    return tau2_db_hash(export(db))
