"""Searching bookable flights: direct and with one connection."""

from __future__ import annotations

import json
from typing import Any

from tautrait_airline import flight_dates
from tautrait_airline.timetable import Timetable, timetable_of
from tautrait_core import EpisodeDB, tool


@tool
def search_direct_flight(db: EpisodeDB, origin: str, destination: str, date: str) -> str:
    """Find nonstop flights between two airports that can be booked on a date, with the
    seats left and the price per passenger in each cabin.

    Args:
        origin: IATA code of the departure airport, e.g. 'BOS'.
        destination: IATA code of the arrival airport, e.g. 'SEA'.
        date: Travel date as YYYY-MM-DD.
    """
    timetable = timetable_of(db)
    found = []
    for flight in timetable.flights_from(origin, destination):
        entry = timetable.entry(flight["flight_number"], date)
        if entry is not None and entry["status"] == flight_dates.AVAILABLE:
            found.append({**flight, **entry})
    return json.dumps(found)


@tool
def search_onestop_flight(db: EpisodeDB, origin: str, destination: str, date: str) -> str:
    """Find two-flight itineraries with one connection between two airports, departing on
    a date; each result lists both flights with their own date, seats and prices.

    Args:
        origin: IATA code of the departure airport, e.g. 'BOS'.
        destination: IATA code of the final arrival airport, e.g. 'SEA'.
        date: Departure date of the first flight as YYYY-MM-DD.
    """
    timetable = timetable_of(db)
    seconds: dict[str, list[dict[str, Any]]] = {}
    for flight in timetable.flights_to(destination):
        seconds.setdefault(flight["origin"], []).append(flight)
    found = []
    for first in timetable.flights_from(origin):
        for second in seconds.get(first["destination"], []):
            pair = _connection(timetable, first, second, date)
            if pair is not None:
                found.append(pair)
    return json.dumps(found)


def _connection(
    timetable: Timetable, first: dict[str, Any], second: dict[str, Any], date: str
) -> list[dict[str, Any]] | None:
    """The result pair for two flights, or ``None`` when they do not connect.

    Upstream's rules, kept as they are: a next-day arrival moves the second flight to
    ``2024-05-<day + 1>`` (not zero-padded, always May); times are compared as strings;
    the second flight's seats and prices are read from the first flight's date.
    """
    arrival = first["scheduled_arrival_time_est"]
    second_date = f"2024-05-{int(date[-2:]) + 1}" if "+1" in arrival else date
    if arrival > second["scheduled_departure_time_est"]:
        return None
    first_entry = timetable.entry(first["flight_number"], date)
    second_entry = timetable.entry(second["flight_number"], second_date)
    if first_entry is None or second_entry is None:
        return None
    available = flight_dates.AVAILABLE
    if first_entry["status"] != available or second_entry["status"] != available:
        return None
    shown_entry = timetable.entry(second["flight_number"], date)
    if shown_entry is None:
        raise KeyError(date)
    return [
        {**first, **first_entry, "date": date},
        {**second, **shown_entry, "date": second_date},
    ]
