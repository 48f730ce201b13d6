"""Flights and their date entries as τ²'s airline tools read and change them.

τ² takes seats when it books, so the date entries are read from the episode database (not
from the shared, read-only timetable of the τ-Trait tools) and written back when changed.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import select

from tautrait_airline import flight_dates
from tautrait_airline.schema import Flight, FlightDate
from tautrait_airline.tools.booking import check_bookable
from tautrait_core import EpisodeDB
from tautrait_core.tau2 import tau2_found


def flight(db: EpisodeDB, flight_number: str) -> Flight:
    """The flight; raises τ²'s ``Flight {n} not found``."""
    return tau2_found(db.get(Flight, flight_number), f"Flight {flight_number} not found")


def date_row(db: EpisodeDB, flight_number: str, date: str) -> FlightDate:
    """The flight's entry for ``date``; raises τ²'s not-found texts."""
    flight(db, flight_number)
    row = db.get(FlightDate, (flight_number, date))
    if row is None:
        raise ValueError(f"Flight {flight_number} not found on date {date}")
    return row


def entry(row: FlightDate) -> dict[str, Any]:
    """The τ² date entry of a row (a new object)."""
    return flight_dates.decode(row.status, row.details)


def store_entry(row: FlightDate, changed: dict[str, Any]) -> None:
    """Write a changed date entry back to its row."""
    row.status, row.details = flight_dates.encode(changed)


def bookable_entry(
    db: EpisodeDB, flight_number: str, date: str, cabin: str, travellers: int
) -> tuple[FlightDate, dict[str, Any]]:
    """The row and entry of a flight date that has ``travellers`` seats left in ``cabin``."""
    row = date_row(db, flight_number, date)
    found = entry(row)
    check_bookable(flight_number, date, found, cabin, travellers)
    return row, found


def booked_segment(
    db: EpisodeDB, flight_number: str, date: str, cabin: str, travellers: int
) -> tuple[dict[str, Any], FlightDate, dict[str, Any]]:
    """A reservation's segment for a flight date that has ``travellers`` seats left in
    ``cabin`` (at its price there), with the date's row and entry (to take the seats)."""
    found = flight(db, flight_number)
    row, current = bookable_entry(db, flight_number, date, cabin, travellers)
    segment = {
        "origin": found.origin,
        "destination": found.destination,
        "flight_number": flight_number,
        "date": date,
        "price": current["prices"][cabin],
    }
    return segment, row, current


def search_direct(
    db: EpisodeDB,
    date: str,
    origin: str | None = None,
    destination: str | None = None,
    leave_after: str | None = None,
) -> list[dict[str, Any]]:
    """τ²'s ``_search_direct_flight``: bookable flights on ``date`` as ``DirectFlight``
    records (``date`` null), in database order."""
    statement = select(Flight).order_by(Flight.position)
    if origin is not None:
        statement = statement.where(Flight.origin == origin)
    if destination is not None:
        statement = statement.where(Flight.destination == destination)
    rows = {
        row.flight_number: row for row in db.exec(select(FlightDate).where(FlightDate.date == date))
    }
    results = []
    for found in db.exec(statement):
        row = rows.get(found.flight_number)
        if row is None:
            continue
        current = entry(row)
        if current.get("status") != flight_dates.AVAILABLE:
            continue
        if leave_after is not None and found.scheduled_departure_time_est < leave_after:
            continue
        results.append(
            {
                "flight_number": found.flight_number,
                "origin": found.origin,
                "destination": found.destination,
                "status": "available",
                "scheduled_departure_time_est": found.scheduled_departure_time_est,
                "scheduled_arrival_time_est": found.scheduled_arrival_time_est,
                "date": None,
                "available_seats": current["available_seats"],
                "prices": current["prices"],
            }
        )
    return results
