"""Changing and cancelling existing reservations.

The change rules (:func:`kept_segment`, :func:`pay_fare_difference`, :func:`change_baggages`,
:func:`change_passengers`) serve τ²'s tools too: they raise ``ValueError`` with τ²'s texts,
which these tools answer as upstream does (:func:`~.payments.error_answer`).
"""

from __future__ import annotations

import copy
from typing import Any

from tautrait_airline.records import reservation_json
from tautrait_airline.schema import Reservation, User
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


def pay_fare_difference(
    user: User, reservation: Reservation, segments: list[dict[str, Any]], payment_id: str
) -> None:
    """Charge (or refund, when cheaper) the new segments' fares less the reservation's,
    for every passenger, as :func:`~.payments.pay_change` does."""
    travellers = len(reservation.passengers)
    total: int | float = 0
    for segment in segments:
        total += segment["price"] * travellers
    total -= sum(old["price"] for old in reservation.flights) * travellers
    pay_change(user, reservation, payment_id, total)


def change_baggages(
    user: User,
    reservation: Reservation,
    total_baggages: Any,
    nonfree_baggages: Any,
    payment_id: str,
) -> None:
    """Set a reservation's bags; each paid bag beyond those already paid costs
    ``PRICE_PER_EXTRA_BAG``, charged as :func:`~.payments.pay_change` does."""
    total = PRICE_PER_EXTRA_BAG * max(0, nonfree_baggages - reservation.nonfree_baggages)
    pay_change(user, reservation, payment_id, total)
    reservation.total_baggages = total_baggages
    reservation.nonfree_baggages = nonfree_baggages


def change_passengers(reservation: Reservation, passengers: list[dict[str, Any]]) -> None:
    """Replace a reservation's passengers, as many as before."""
    if len(passengers) != len(reservation.passengers):
        raise ValueError("Number of passengers does not match")
    reservation.passengers = passengers


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
    segments = copy.deepcopy(flights)
    for segment in segments:
        kept = kept_segment(reservation, segment, cabin)
        if kept is not None:
            segment["price"] = kept["price"]
            segment["origin"] = kept["origin"]
            segment["destination"] = kept["destination"]
        else:
            problem = price_segment(db, segment, cabin, len(reservation.passengers))
            if problem:
                return problem
    try:
        pay_fare_difference(owner(db, reservation), reservation, segments, payment_id)
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
    try:
        change_baggages(
            owner(db, reservation), reservation, total_baggages, nonfree_baggages, payment_id
        )
    except ValueError as problem:
        return error_answer(problem)
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
    try:
        change_passengers(reservation, passengers)
    except ValueError as problem:
        return error_answer(problem)
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
