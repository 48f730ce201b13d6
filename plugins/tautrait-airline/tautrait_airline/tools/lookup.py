"""Reading users, reservations and the airport list."""

from __future__ import annotations

import json

from tautrait_airline.reads import read_row
from tautrait_airline.records import reservation_json, user_record
from tautrait_airline.schema import Reservation, User
from tautrait_core import EpisodeDB, tool

AIRPORTS = {
    "SFO": "San Francisco",
    "JFK": "New York",
    "LAX": "Los Angeles",
    "ORD": "Chicago",
    "DFW": "Dallas",
    "DEN": "Denver",
    "SEA": "Seattle",
    "ATL": "Atlanta",
    "MIA": "Miami",
    "BOS": "Boston",
    "PHX": "Phoenix",
    "IAH": "Houston",
    "LAS": "Las Vegas",
    "MCO": "Orlando",
    "EWR": "Newark",
    "CLT": "Charlotte",
    "MSP": "Minneapolis",
    "DTW": "Detroit",
    "PHL": "Philadelphia",
    "LGA": "LaGuardia",
}
"""The airports served, IATA code -> city (upstream's fixed list and order)."""


@tool
def get_user_details(db: EpisodeDB, user_id: str) -> str:
    """Look up a customer's profile: name, address, email, date of birth, payment methods
    (with gift card and certificate balances), saved passengers, membership tier and
    reservation ids.

    Args:
        user_id: The user id, e.g. 'maria_lopez_1234'.
    """
    user = read_row(db, User, user_id)
    if user is None:
        return "Error: user not found"
    return json.dumps(user_record(user))


@tool
def get_reservation_details(db: EpisodeDB, reservation_id: str) -> str:
    """Look up a reservation: route, trip type, cabin, flight segments with the price paid
    per passenger, passengers, payment history, booking time, bags and insurance.

    Args:
        reservation_id: The six-character reservation code, e.g. 'ZK4T2Q'.
    """
    reservation = read_row(db, Reservation, reservation_id)
    if reservation is None:
        return "Error: user not found"  # upstream's wording
    return reservation_json(reservation)


@tool
def list_all_airports(db: EpisodeDB) -> str:
    """List the airports the airline serves, as IATA code and city."""
    return json.dumps(AIRPORTS)
