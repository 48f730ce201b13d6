"""τ²-bench's airline tools (its ``AirlineTools``) on the airline tables (domain-spec §5.2):
the read-only ones here, those that change the database in :mod:`.changes`."""

from __future__ import annotations

import json

from tautrait_airline.tau2 import flights as timetable
from tautrait_airline.tau2.changes import (
    book_reservation,
    cancel_reservation,
    send_certificate,
    update_reservation_baggages,
    update_reservation_flights,
    update_reservation_passengers,
)
from tautrait_airline.tau2.lookups import (
    airline_tool,
    find_reservation,
    find_user,
    reservation_answer,
)
from tautrait_airline.tau2.records import user_record
from tautrait_airline.tools.lookup import AIRPORTS
from tautrait_core import EpisodeDB
from tautrait_core.tau2 import Tau2Tool, tau2_calculate_tool, tau2_transfer_tool

calculate = tau2_calculate_tool(airline_tool)

transfer_to_human_agents = tau2_transfer_tool(airline_tool)


@airline_tool
def get_flight_status(db: EpisodeDB, flight_number: str, date: str) -> str:
    """Get the status of a flight on a date.

    Args:
        flight_number: The flight number, e.g. 'HAT001'.
        date: The date, 'YYYY-MM-DD'.
    """
    return timetable.entry(timetable.date_row(db, flight_number, date))["status"]


@airline_tool
def get_reservation_details(db: EpisodeDB, reservation_id: str) -> str:
    """Get the details of a reservation.

    Args:
        reservation_id: The reservation id, e.g. '8JX2WO'.
    """
    return reservation_answer(find_reservation(db, reservation_id))


@airline_tool
def get_user_details(db: EpisodeDB, user_id: str) -> str:
    """Get the details of a user, including their reservations.

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
    """
    return json.dumps(user_record(find_user(db, user_id)))


@airline_tool
def list_all_airports(db: EpisodeDB) -> str:
    """List every airport and its city."""
    return json.dumps([{"iata": iata, "city": city} for iata, city in AIRPORTS.items()])


@airline_tool
def search_direct_flight(db: EpisodeDB, origin: str, destination: str, date: str) -> str:
    """Search direct flights between two cities on a date.

    Args:
        origin: IATA code of the origin, e.g. 'JFK'.
        destination: IATA code of the destination, e.g. 'LAX'.
        date: The date, 'YYYY-MM-DD'.
    """
    return json.dumps(timetable.search_direct(db, date, origin=origin, destination=destination))


@airline_tool
def search_onestop_flight(db: EpisodeDB, origin: str, destination: str, date: str) -> str:
    """Search one-stop flights between two cities on a date.

    Args:
        origin: IATA code of the origin, e.g. 'JFK'.
        destination: IATA code of the destination, e.g. 'LAX'.
        date: The date, 'YYYY-MM-DD'.
    """
    results = []
    for first in timetable.search_direct(db, date, origin=origin):
        first["date"] = date
        arrival = first["scheduled_arrival_time_est"]
        second_date = f"2024-05-{int(date[-2:]) + 1}" if "+1" in arrival else date
        for second in timetable.search_direct(
            db,
            second_date,
            origin=first["destination"],
            destination=destination,
            leave_after=arrival,
        ):
            second["date"] = second_date
            results.append([first, second])
    return json.dumps(results)


TOOLS: list[Tau2Tool] = [
    book_reservation,
    calculate,
    cancel_reservation,
    get_flight_status,
    get_reservation_details,
    get_user_details,
    list_all_airports,
    search_direct_flight,
    search_onestop_flight,
    send_certificate,
    transfer_to_human_agents,
    update_reservation_baggages,
    update_reservation_flights,
    update_reservation_passengers,
]
