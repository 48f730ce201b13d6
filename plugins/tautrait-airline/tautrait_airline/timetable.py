"""The flights and their date entries as the tools read them.

No tool changes a flight or a date entry (upstream never takes seats when it books), so all
episodes of one template share one :class:`Timetable`, read from the first episode that
needs it (:func:`timetable_of`): searches and bookings then cost no SQL. The flight tables
stay in the database, so they are part of every state hash and of the export.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import select

from tautrait_airline import flight_dates
from tautrait_airline.reads import columns
from tautrait_airline.records import FLIGHT_FIELDS
from tautrait_airline.schema import Flight, FlightDate
from tautrait_core import EpisodeDB, per_template


class Timetable:
    """Every flight (in upstream order) and every date entry, read once.

    Args:
        flights: Rows with the flight columns, in upstream order.
        dates: Rows with ``flight_number``, ``date``, ``status`` and ``details``.
    """

    def __init__(self, flights: list[Any], dates: list[Any]) -> None:
        self.flights: dict[str, dict[str, Any]] = {
            row.flight_number: {key: getattr(row, key) for key in FLIGHT_FIELDS} for row in flights
        }
        self._entries = {(row.flight_number, row.date): (row.status, row.details) for row in dates}
        self._from: dict[str, list[dict[str, Any]]] = {}
        self._to: dict[str, list[dict[str, Any]]] = {}
        for flight in self.flights.values():
            self._from.setdefault(flight["origin"], []).append(flight)
            self._to.setdefault(flight["destination"], []).append(flight)

    def flight(self, flight_number: str) -> dict[str, Any] | None:
        """The flight's fields without ``dates`` (a new object), or ``None`` if unknown."""
        found = self.flights.get(flight_number)
        return None if found is None else dict(found)

    def entry(self, flight_number: str, date: str) -> dict[str, Any] | None:
        """The flight's upstream entry for ``date`` (a new object), or ``None`` if the
        flight has no such date."""
        stored = self._entries.get((flight_number, date))
        return None if stored is None else flight_dates.decode(*stored)

    def flights_from(self, origin: str, destination: str | None = None) -> list[dict[str, Any]]:
        """The flights leaving ``origin`` (for ``destination`` only, if given), in upstream
        order (new objects)."""
        found = self._from.get(origin, [])
        return [dict(f) for f in found if destination is None or f["destination"] == destination]

    def flights_to(self, destination: str) -> list[dict[str, Any]]:
        """The flights arriving at ``destination``, in upstream order (new objects)."""
        return [dict(flight) for flight in self._to.get(destination, [])]


@per_template
def timetable_of(db: EpisodeDB) -> Timetable:
    """The timetable of ``db``'s template, read on first use and then shared."""
    flights = list(db.exec(select(*columns(Flight)).order_by(Flight.position)))
    dates = list(db.exec(select(*columns(FlightDate))))
    return Timetable(flights, dates)
