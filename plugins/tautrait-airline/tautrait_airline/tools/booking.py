"""Booking a new reservation."""

from __future__ import annotations

import copy
from typing import Any

from tautrait_airline import flight_dates
from tautrait_airline.reads import next_position, row_exists
from tautrait_airline.records import reservation_json
from tautrait_airline.schema import Reservation, User
from tautrait_airline.timetable import timetable_of
from tautrait_airline.tools.arguments import (
    Cabin,
    Count,
    FlightChoices,
    FlightType,
    Insurance,
    Passengers,
    Payments,
)
from tautrait_airline.tools.payments import booking_total, error_answer, pay_booking
from tautrait_core import EpisodeDB, tool

NEW_RESERVATION_IDS = ("HATHAT", "HATHAU", "HATHAV")
"""Ids of new reservations, tried in order; when all exist the last one is replaced (τ²'s
book_reservation refuses instead)."""

BOOKING_TIME = "2024-05-15T15:00:00"


def check_bookable(
    flight_number: str, date: str, entry: dict[str, Any], cabin: str, travellers: int
) -> None:
    """Check that ``travellers`` can book ``cabin`` on the flight's ``date`` (its date entry
    ``entry``): it is available and has the seats left. Raises ``ValueError`` with τ²'s
    texts, which the τ-Trait tools answer as upstream does (:func:`~.payments.error_answer`).
    """
    if entry.get("status") != flight_dates.AVAILABLE:
        raise ValueError(f"Flight {flight_number} not available on date {date}")
    if entry["available_seats"][cabin] < travellers:
        raise ValueError(f"Not enough seats on flight {flight_number}")


def price_segment(
    db: EpisodeDB, segment: dict[str, Any], cabin: str, passengers: int
) -> str | None:
    """Check that a segment can be booked for ``passengers`` people in ``cabin`` and add
    its current ``price``, ``origin`` and ``destination``; returns the error to answer, if
    any."""
    timetable = timetable_of(db)
    number = segment["flight_number"]
    flight = timetable.flight(number)
    if flight is None:
        return f"Error: flight {number} not found"
    entry = timetable.entry(number, segment["date"])
    if entry is None:
        return f"Error: flight {number} not found on date {segment['date']}"
    try:
        check_bookable(number, segment["date"], entry, cabin, passengers)
    except ValueError as problem:
        return error_answer(problem)
    segment["price"] = entry["prices"][cabin]
    segment["origin"] = flight["origin"]
    segment["destination"] = flight["destination"]
    return None


@tool(writes=True)
def book_reservation(
    db: EpisodeDB,
    user_id: str,
    origin: str,
    destination: str,
    flight_type: FlightType,
    cabin: Cabin,
    flights: FlightChoices,
    passengers: Passengers,
    payment_methods: Payments,
    total_baggages: Count,
    nonfree_baggages: Count,
    insurance: Insurance,
) -> str:
    """Book a reservation for a customer, on flights found by a search, and charge it to
    the customer's payment methods. The amounts must add up to the total: each flight's
    price in the cabin times the passengers, plus insurance and extra bags. Only after the
    customer confirmed the details.

    Args:
        user_id: The user id of the customer who books, e.g. 'maria_lopez_1234'.
        origin: IATA code of the trip's origin, e.g. 'BOS'.
        destination: IATA code of the trip's destination, e.g. 'SEA'.
        flight_type: 'one_way' or 'round_trip'.
        cabin: The cabin for every flight and passenger.
        flights: Every flight of the trip, in travel order, each with its number and date.
        passengers: Every traveller, each with first name, last name and date of birth.
        payment_methods: The customer's payment method ids and the amount each pays.
        total_baggages: The number of checked bags.
        nonfree_baggages: The number of checked bags that are charged.
        insurance: Whether travel insurance is bought: 'yes' or 'no'.
    """
    user = db.get(User, user_id)
    if user is None:
        return "Error: user not found"
    reservation_id = next(
        (key for key in NEW_RESERVATION_IDS if not row_exists(db, Reservation, key)),
        NEW_RESERVATION_IDS[-1],
    )
    segments = copy.deepcopy(flights)
    for segment in segments:
        problem = price_segment(db, segment, cabin, len(passengers))
        if problem:
            return problem
    reservation = Reservation(
        reservation_id=reservation_id,
        position=0,
        user_id=user_id,
        origin=origin,
        destination=destination,
        flight_type=flight_type,
        cabin=cabin,
        flights=segments,
        passengers=passengers,
        payment_history=payment_methods,
        created_at=BOOKING_TIME,
        total_baggages=total_baggages,
        nonfree_baggages=nonfree_baggages,
        insurance=insurance,
    )
    try:
        stored = store_booking(db, user, reservation)
    except ValueError as problem:
        return error_answer(problem)
    return reservation_json(stored)


def store_booking(db: EpisodeDB, user: User, reservation: Reservation) -> Reservation:
    """Record a new booking: the user's payments for it are checked against its price
    (:func:`~.payments.booking_total`) and taken (:func:`~.payments.pay_booking`), then the
    reservation is stored and added to the user's reservations. Raises before anything is
    taken."""
    prices = [segment["price"] for segment in reservation.flights]
    total = booking_total(
        prices, len(reservation.passengers), reservation.insurance, reservation.nonfree_baggages
    )
    pay_booking(user.payment_methods, reservation.payment_history, total)
    stored = _store(db, reservation)
    user.reservations = [*user.reservations, reservation.reservation_id]
    return stored


def _store(db: EpisodeDB, reservation: Reservation) -> Reservation:
    """Add a new reservation at the end, or replace an existing one with the same id in
    its place (upstream overwrites its dict entry)."""
    if not row_exists(db, Reservation, reservation.reservation_id):
        reservation.position = next_position(db, Reservation)
        db.add(reservation)
        return reservation
    existing = db.get_one(Reservation, reservation.reservation_id)
    for key, value in reservation.model_dump(exclude={"position"}).items():
        setattr(existing, key, value)
    return existing
