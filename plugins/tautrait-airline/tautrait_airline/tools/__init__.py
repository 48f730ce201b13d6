"""The airline tools, in the order the model sees them (upstream's ALL_TOOLS order)."""

from __future__ import annotations

from tautrait_airline.tools.booking import book_reservation
from tautrait_airline.tools.changes import (
    cancel_reservation,
    update_reservation_baggages,
    update_reservation_flights,
    update_reservation_passengers,
)
from tautrait_airline.tools.compensation import send_certificate
from tautrait_airline.tools.lookup import (
    get_reservation_details,
    get_user_details,
    list_all_airports,
)
from tautrait_airline.tools.search import search_direct_flight, search_onestop_flight
from tautrait_core import Tool, calculate, think, transfer_to_human_agents

ALL_TOOLS: list[Tool] = [
    book_reservation,
    calculate,
    cancel_reservation,
    get_reservation_details,
    get_user_details,
    list_all_airports,
    search_direct_flight,
    search_onestop_flight,
    send_certificate,
    think,
    transfer_to_human_agents,
    update_reservation_baggages,
    update_reservation_flights,
    update_reservation_passengers,
]
