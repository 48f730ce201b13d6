"""τ²'s airline tools that change the database: booking, cancelling, changing flights,
bags and passengers, and compensation certificates (domain-spec §5.2)."""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel

from tautrait_airline.schema import Reservation
from tautrait_airline.tau2 import flights as timetable
from tautrait_airline.tau2.lookups import (
    airline_tool,
    find_reservation,
    find_user,
    reservation_answer,
)
from tautrait_airline.tools.booking import BOOKING_TIME, NEW_RESERVATION_IDS, store_booking
from tautrait_airline.tools.changes import (
    change_baggages,
    change_passengers,
    kept_segment,
    pay_fare_difference,
)
from tautrait_airline.tools.compensation import CERTIFICATE_IDS
from tautrait_airline.tools.payments import cancel_and_refund
from tautrait_core import EpisodeDB

Cabin = Literal["business", "economy", "basic_economy"]


class FlightInfo(BaseModel):
    """A flight of the itinerary: its number and date."""

    # These models only describe the arguments to the model: the tools get the arguments
    # as sent and check them as τ² does.

    flight_number: str
    date: str


class Passenger(BaseModel):
    """A traveller."""

    first_name: str
    last_name: str
    dob: str


class Payment(BaseModel):
    """A payment method's share of a booking."""

    payment_id: str
    amount: int


def argument_records(items: list[Any], keys: tuple[str, ...], model: str) -> list[dict[str, Any]]:
    """Nested arguments as τ² validates them into models (missing keys refused)."""
    records = []
    for item in items:
        if not isinstance(item, dict) or any(key not in item for key in keys):
            raise ValueError(f"1 validation error for {model}: expected fields {', '.join(keys)}")
        records.append({key: item[key] for key in keys})
    return records


@airline_tool(writes=True)
def book_reservation(
    db: EpisodeDB,
    user_id: str,
    origin: str,
    destination: str,
    flight_type: Literal["round_trip", "one_way"],
    cabin: Cabin,
    flights: list[FlightInfo],
    passengers: list[Passenger],
    payment_methods: list[Payment],
    total_baggages: int,
    nonfree_baggages: int,
    insurance: Literal["yes", "no"],
) -> str:
    """Book a reservation.

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
        origin: IATA code of the origin, e.g. 'SFO'.
        destination: IATA code of the destination, e.g. 'JFK'.
        flight_type: 'round_trip' or 'one_way'.
        cabin: The cabin class.
        flights: Each flight's 'flight_number' and 'date'.
        passengers: Each passenger's 'first_name', 'last_name' and 'dob'.
        payment_methods: Each payment's 'payment_id' and 'amount'.
        total_baggages: The total number of bags.
        nonfree_baggages: The number of paid bags.
        insurance: Whether travel insurance is bought.
    """
    choices = argument_records(flights, ("flight_number", "date"), "FlightInfo")
    travellers = argument_records(passengers, ("first_name", "last_name", "dob"), "Passenger")
    payments = argument_records(payment_methods, ("payment_id", "amount"), "Payment")
    user = find_user(db, user_id)
    reservation_id = next(
        (key for key in NEW_RESERVATION_IDS if db.get(Reservation, key) is None), None
    )
    if reservation_id is None:
        raise ValueError("Too many reservations")
    segments, taken = [], []
    for choice in choices:
        segment, row, entry = timetable.booked_segment(
            db, choice["flight_number"], choice["date"], cabin, len(travellers)
        )
        segments.append(segment)
        taken.append((row, entry))
    reservation = store_booking(
        db,
        user,
        Reservation(
            reservation_id=reservation_id,
            position=0,
            user_id=user_id,
            origin=origin,
            destination=destination,
            flight_type=flight_type,
            cabin=cabin,
            flights=segments,
            passengers=copy.deepcopy(travellers),
            payment_history=copy.deepcopy(payments),
            created_at=BOOKING_TIME,
            total_baggages=total_baggages,
            nonfree_baggages=nonfree_baggages,
            insurance=insurance,
        ),
    )
    for row, entry in taken:
        entry["available_seats"][cabin] -= len(travellers)
        timetable.store_entry(row, entry)
        db.add(row)
    return reservation_answer(reservation)


@airline_tool(writes=True)
def cancel_reservation(db: EpisodeDB, reservation_id: str) -> str:
    """Cancel the whole reservation; every payment is refunded.

    Args:
        reservation_id: The reservation id, e.g. 'ZFA04Y'.
    """
    reservation = find_reservation(db, reservation_id)
    cancel_and_refund(reservation)
    return reservation_answer(reservation)


@airline_tool(writes=True)
def send_certificate(db: EpisodeDB, user_id: str, amount: int) -> str:
    """Send a certificate to a user (as compensation).

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
        amount: The certificate's amount.
    """
    user = find_user(db, user_id)
    for payment_id in CERTIFICATE_IDS:
        if payment_id not in user.payment_methods:
            user.payment_methods[payment_id] = {
                "source": "certificate",
                "id": payment_id,
                "amount": float(amount),
            }
            return f"Certificate {payment_id} added to user {user_id} with amount {amount}."
    raise ValueError("Too many certificates")


@airline_tool(writes=True)
def update_reservation_baggages(
    db: EpisodeDB,
    reservation_id: str,
    total_baggages: int,
    nonfree_baggages: int,
    payment_id: str,
) -> str:
    """Update the baggage information of a reservation.

    Args:
        reservation_id: The reservation id, e.g. 'ZFA04Y'.
        total_baggages: The updated total number of bags.
        nonfree_baggages: The updated number of paid bags.
        payment_id: The payment method id, e.g. 'credit_card_7815826'.
    """
    reservation = find_reservation(db, reservation_id)
    user = find_user(db, reservation.user_id)
    change_baggages(user, reservation, total_baggages, nonfree_baggages, payment_id)
    return reservation_answer(reservation)


@airline_tool(writes=True)
def update_reservation_flights(
    db: EpisodeDB,
    reservation_id: str,
    cabin: Cabin,
    flights: list[FlightInfo],
    payment_id: str,
) -> str:
    """Update the flights (and cabin) of a reservation.

    Args:
        reservation_id: The reservation id, e.g. 'ZFA04Y'.
        cabin: The cabin class of the reservation.
        flights: Every flight of the new itinerary, each 'flight_number' and 'date'.
        payment_id: The payment method id, e.g. 'credit_card_7815826'.
    """
    choices = argument_records(flights, ("flight_number", "date"), "FlightInfo")
    reservation = find_reservation(db, reservation_id)
    user = find_user(db, reservation.user_id)
    travellers = len(reservation.passengers)
    segments = []
    for choice in choices:
        segment = kept_segment(reservation, choice, cabin)
        if segment is None:
            segment, _, _ = timetable.booked_segment(
                db, choice["flight_number"], choice["date"], cabin, travellers
            )
        segments.append(segment)
    pay_fare_difference(user, reservation, segments, payment_id)
    reservation.flights = segments
    reservation.cabin = cabin
    return reservation_answer(reservation)


@airline_tool(writes=True)
def update_reservation_passengers(
    db: EpisodeDB, reservation_id: str, passengers: list[Passenger]
) -> str:
    """Update the passenger information of a reservation (same number of passengers).

    Args:
        reservation_id: The reservation id, e.g. 'ZFA04Y'.
        passengers: Each passenger's 'first_name', 'last_name' and 'dob'.
    """
    travellers = argument_records(passengers, ("first_name", "last_name", "dob"), "Passenger")
    reservation = find_reservation(db, reservation_id)
    change_passengers(reservation, copy.deepcopy(travellers))
    return reservation_answer(reservation)
