"""Changing and cancelling existing reservations."""

from __future__ import annotations

import copy
from typing import Any

from tautrait_airline.records import reservation_json
from tautrait_airline.schema import Reservation
from tautrait_airline.tools.arguments import Cabin, Count, FlightChoices, Passengers
from tautrait_airline.tools.booking import price_segment
from tautrait_airline.tools.payments import (
    PRICE_PER_EXTRA_BAG,
    cancel_and_refund,
    error_answer,
    owner,
    pay_change,
)
from tautrait_core import EpisodeDB, tool


def kept_segment(
    reservation: Reservation, choice: dict[str, Any], cabin: str
) -> dict[str, Any] | None:
    """The reservation's segment for the chosen flight and date when the cabin stays the
    same (a kept flight keeps the price paid), else ``None``."""
    return next(
        (
            old
            for old in reservation.flights
            if old["flight_number"] == choice["flight_number"]
            and old["date"] == choice["date"]
            and cabin == reservation.cabin
        ),
        None,
    )


@tool(writes=True)
def update_reservation_flights(
    db: EpisodeDB,
    reservation_id: str,
    cabin: Cabin,
    flights: FlightChoices,
    payment_id: str,
) -> str:
    """Replace the flights of a reservation, or move it to another cabin, and charge or
    refund the fare difference on a credit card or gift card. Pass every flight of the
    trip, changed or not: a kept flight in the same cabin keeps the price paid. Only after
    the customer confirmed the details.

    Args:
        reservation_id: The six-character reservation code, e.g. 'ZK4T2Q'.
        cabin: The cabin for the whole reservation (the current one if it does not change).
        flights: Every flight of the new itinerary, in travel order, with number and date.
        payment_id: The credit card or gift card that pays or receives the difference.
    """
    reservation = db.get(Reservation, reservation_id)
    if reservation is None:
        return "Error: reservation not found"
    travellers = len(reservation.passengers)
    segments = copy.deepcopy(flights)
    total: int | float = 0
    for segment in segments:
        kept = kept_segment(reservation, segment, cabin)
        if kept is not None:
            segment["price"] = kept["price"]
            segment["origin"] = kept["origin"]
            segment["destination"] = kept["destination"]
        else:
            problem = price_segment(db, segment, cabin, travellers)
            if problem:
                return problem
        total += segment["price"] * travellers
    total -= sum(old["price"] for old in reservation.flights) * travellers
    try:
        pay_change(owner(db, reservation), reservation, payment_id, total)
    except ValueError as problem:
        return error_answer(problem)
    reservation.flights = segments  # upstream leaves the cabin as it was
    return reservation_json(reservation)


@tool(writes=True)
def update_reservation_baggages(
    db: EpisodeDB,
    reservation_id: str,
    total_baggages: Count,
    nonfree_baggages: Count,
    payment_id: str,
) -> str:
    """Set the checked bags of a reservation; each bag added beyond the charged ones
    already paid costs 50 dollars, paid by credit card or gift card. Only after the
    customer confirmed the details.

    Args:
        reservation_id: The six-character reservation code, e.g. 'ZK4T2Q'.
        total_baggages: The new total number of checked bags.
        nonfree_baggages: The new number of charged bags.
        payment_id: The credit card or gift card that pays for added bags.
    """
    reservation = db.get(Reservation, reservation_id)
    if reservation is None:
        return "Error: reservation not found"
    total = PRICE_PER_EXTRA_BAG * max(0, nonfree_baggages - reservation.nonfree_baggages)
    try:
        pay_change(owner(db, reservation), reservation, payment_id, total)
    except ValueError as problem:
        return error_answer(problem)
    reservation.total_baggages = total_baggages
    reservation.nonfree_baggages = nonfree_baggages
    return reservation_json(reservation)


@tool(writes=True)
def update_reservation_passengers(
    db: EpisodeDB, reservation_id: str, passengers: Passengers
) -> str:
    """Replace the passenger details of a reservation; the number of passengers must stay
    the same. Only after the customer confirmed the details.

    Args:
        reservation_id: The six-character reservation code, e.g. 'ZK4T2Q'.
        passengers: Every passenger, in the reservation's order, with first name, last name
            and date of birth.
    """
    reservation = db.get(Reservation, reservation_id)
    if reservation is None:
        return "Error: reservation not found"
    if len(passengers) != len(reservation.passengers):
        return "Error: number of passengers does not match"
    reservation.passengers = passengers
    return reservation_json(reservation)


@tool(writes=True)
def cancel_reservation(db: EpisodeDB, reservation_id: str) -> str:
    """Cancel a whole reservation and refund every payment to the method it came from.
    Only when the policy allows it and after the customer confirmed.

    Args:
        reservation_id: The six-character reservation code, e.g. 'ZK4T2Q'.
    """
    reservation = db.get(Reservation, reservation_id)
    if reservation is None:
        return "Error: reservation not found"
    cancel_and_refund(reservation)
    return reservation_json(reservation)
