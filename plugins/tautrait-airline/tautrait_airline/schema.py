"""The airline database: flights, their per-date entries, reservations and users.

Upstream keeps three JSON objects keyed by id (``flights``, ``reservations``, ``users``).
Each record becomes one row whose columns carry the record's fields under the same names:
text columns for strings, JSON columns for nested values (JSON keeps key order and tells
``25`` from ``25.0`` inside objects and lists) and :class:`~tautrait_core.JSONValue`
columns for bare numbers. ``position`` is the record's place in its upstream object: tools
scan records in file order and the export writes them back in that order.

A flight's ``dates`` object (30 entries per flight upstream) is a table of its own,
:class:`FlightDate`, keyed by flight number and date, so a booking reads exactly the
entries it needs. Its ``status`` is a column and the rest of the entry sits in ``details``
in the compact form of :mod:`tautrait_airline.flight_dates`.

A reservation's flight segments, passengers and payments are lists of records with the
same keys: :class:`RecordList` stores them without repeating the keys. A reservation has no
``status`` key until it is cancelled; the column is NULL while the key
is absent (upstream never stores ``status: null``).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Index, Text, TypeDecorator
from sqlmodel import JSON, Field, SQLModel

from tautrait_core import JSONValue


class RecordList(TypeDecorator[Any]):
    """A list of records with the same keys, stored without repeating the keys.

    A record whose keys are exactly ``keys`` (in that order) is stored as the list of its
    values; any other item is stored as it is (upstream records are always objects, so a
    stored list can only be such a record). Tools assign new lists to these columns rather
    than changing them in place: the episode database watches only JSON columns for
    in-place changes.
    """

    impl = Text
    cache_ok = True

    def __init__(self, *keys: str) -> None:
        super().__init__()
        self.keys = keys

    def process_bind_param(self, value: Any, dialect: Any) -> str | None:
        if value is None:
            return None
        return json.dumps(
            [
                list(item.values()) if isinstance(item, dict) and tuple(item) == self.keys else item
                for item in value
            ]
        )

    def process_result_value(self, value: str | None, dialect: Any) -> Any:
        if value is None:
            return None
        return [
            dict(zip(self.keys, item, strict=True)) if isinstance(item, list) else item
            for item in json.loads(value)
        ]


SEGMENT_KEYS = ("origin", "destination", "flight_number", "date", "price")
PASSENGER_KEYS = ("first_name", "last_name", "dob")
PAYMENT_KEYS = ("payment_id", "amount")


class Flight(SQLModel, table=True):
    """A scheduled flight: route and daily times (its dates are :class:`FlightDate` rows)."""

    __tablename__ = "airline_flights"
    __table_args__ = (
        Index("ix_airline_flights_route", "origin", "destination"),
        {"sqlite_with_rowid": False},
    )

    flight_number: str = Field(primary_key=True)
    position: int
    origin: str
    destination: str
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str


class FlightDate(SQLModel, table=True):
    """One date of a flight: its status and, by status, seats and prices or actual times.

    ``position`` is the entry's place in the flight's ``dates`` object.
    """

    __tablename__ = "airline_flight_dates"
    __table_args__ = {"sqlite_with_rowid": False}

    flight_number: str = Field(primary_key=True)
    date: str = Field(primary_key=True)
    position: int
    status: str | None = None
    details: Any = Field(default=None, sa_type=JSON)


class Reservation(SQLModel, table=True):
    """A booking: route, cabin, flight segments, passengers, payments and extras."""

    __tablename__ = "airline_reservations"
    __table_args__ = {"sqlite_with_rowid": False}

    reservation_id: str = Field(primary_key=True)
    position: int
    user_id: str
    origin: str
    destination: str
    flight_type: str
    cabin: str
    flights: list[dict[str, Any]] = Field(sa_type=RecordList(*SEGMENT_KEYS))
    passengers: list[dict[str, Any]] = Field(sa_type=RecordList(*PASSENGER_KEYS))
    payment_history: list[dict[str, Any]] = Field(sa_type=RecordList(*PAYMENT_KEYS))
    created_at: str
    total_baggages: Any = Field(sa_type=JSONValue)
    nonfree_baggages: Any = Field(sa_type=JSONValue)
    insurance: str
    status: str | None = None


class User(SQLModel, table=True):
    """A customer: name, address, contact, payment methods, saved passengers, tier."""

    __tablename__ = "airline_users"
    __table_args__ = {"sqlite_with_rowid": False}

    user_id: str = Field(primary_key=True)
    position: int
    name: dict[str, Any] = Field(sa_type=JSON)
    address: dict[str, Any] = Field(sa_type=JSON)
    email: str
    dob: str
    payment_methods: dict[str, dict[str, Any]] = Field(sa_type=JSON)
    saved_passengers: list[dict[str, Any]] = Field(sa_type=JSON)
    membership: str
    reservations: list[str] = Field(sa_type=JSON)


TABLES: list[type[SQLModel]] = [Flight, FlightDate, Reservation, User]
"""Every table of the domain."""
