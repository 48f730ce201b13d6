"""τ²-bench's airline tools (its ``AirlineTools``) on the airline tables (domain-spec §5.2)."""

from __future__ import annotations

import copy
import json
from typing import Any, Literal

from pydantic import BaseModel

from tautrait_airline.reads import next_position
from tautrait_airline.schema import Reservation, User
from tautrait_airline.tau2 import flights as timetable
from tautrait_airline.tau2.records import reservation_record, user_record
from tautrait_airline.tools.lookup import AIRPORTS
from tautrait_core import EpisodeDB, Tau2Tool, tau2_calculate, tau2_tool

airline_tool = tau2_tool("AirlineTools")
NEW_RESERVATION_IDS = ("HATHAT", "HATHAU", "HATHAV")
NEW_CERTIFICATE_IDS = ("certificate_3221322", "certificate_3221323", "certificate_3221324")
BOOKING_TIME = "2024-05-15T15:00:00"
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


def _user(db: EpisodeDB, user_id: str) -> User:
    user = db.get(User, user_id)
    if user is None:
        raise ValueError(f"User {user_id} not found")
    return user


def _reservation(db: EpisodeDB, reservation_id: str) -> Reservation:
    reservation = db.get(Reservation, reservation_id)
    if reservation is None:
        raise ValueError(f"Reservation {reservation_id} not found")
    return reservation


def _records(items: list[Any], keys: tuple[str, ...], model: str) -> list[dict[str, Any]]:
    """Nested arguments as τ² validates them into models (missing keys refused)."""
    records = []
    for item in items:
        if not isinstance(item, dict) or any(key not in item for key in keys):
            raise ValueError(f"1 validation error for {model}: expected fields {', '.join(keys)}")
        records.append({key: item[key] for key in keys})
    return records


def _answer(reservation: Reservation) -> str:
    return json.dumps(reservation_record(reservation))


def _pay_update(user: User, payment_id: str, total: float) -> dict[str, Any] | None:
    """τ²'s ``_payment_for_update``: checks the method, takes a gift card's share, returns
    the payment entry to record (none for a zero total)."""
    methods = user.payment_methods
    if payment_id not in methods:
        raise ValueError("Payment method not found")
    method = methods[payment_id]
    if method["source"] == "certificate":
        raise ValueError("Certificate cannot be used to update reservation")
    if method["source"] == "gift_card" and method["amount"] < total:
        raise ValueError("Gift card balance is not enough")
    if method["source"] == "gift_card":
        method["amount"] -= total
    return {"payment_id": payment_id, "amount": total} if total != 0 else None


@airline_tool
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
    choices = _records(flights, ("flight_number", "date"), "FlightInfo")
    travellers = _records(passengers, ("first_name", "last_name", "dob"), "Passenger")
    payments = _records(payment_methods, ("payment_id", "amount"), "Payment")
    user = _user(db, user_id)
    reservation_id = next(
        (key for key in NEW_RESERVATION_IDS if db.get(Reservation, key) is None), None
    )
    if reservation_id is None:
        raise ValueError("Too many reservations")
    segments, taken, total = [], [], 0
    for choice in choices:
        number = choice["flight_number"]
        found = timetable.flight(db, number)
        row, entry = timetable.bookable_entry(db, number, choice["date"], cabin, len(travellers))
        price = entry["prices"][cabin]
        segments.append(
            {
                "origin": found.origin,
                "destination": found.destination,
                "flight_number": number,
                "date": choice["date"],
                "price": price,
            }
        )
        taken.append((row, entry))
        total += price * len(travellers)
    if insurance == "yes":
        total += 30 * len(travellers)
    total += 50 * nonfree_baggages
    methods = user.payment_methods
    for payment in payments:
        payment_id = payment["payment_id"]
        if payment_id not in methods:
            raise ValueError(f"Payment method {payment_id} not found")
        method = methods[payment_id]
        if (
            method["source"] in ("gift_card", "certificate")
            and method["amount"] < payment["amount"]
        ):
            raise ValueError(f"Not enough balance in payment method {payment_id}")
    paid = sum(payment["amount"] for payment in payments)
    if paid != total:
        raise ValueError(f"Payment amount does not add up, total price is {total}, but paid {paid}")
    for payment in payments:
        method = methods[payment["payment_id"]]
        if method["source"] == "gift_card":
            method["amount"] -= payment["amount"]
        elif method["source"] == "certificate":
            del methods[payment["payment_id"]]
    for row, entry in taken:
        entry["available_seats"][cabin] -= len(travellers)
        timetable.store_entry(row, entry)
        db.add(row)
    reservation = Reservation(
        reservation_id=reservation_id,
        position=next_position(db, Reservation),
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
    )
    db.add(reservation)
    user.reservations = [*user.reservations, reservation_id]
    return _answer(reservation)


@airline_tool
def calculate(db: EpisodeDB, expression: str) -> str:
    """Calculate the result of a mathematical expression.

    Args:
        expression: The expression, e.g. '2 + 2'; numbers, + - * / ( ) . and spaces only.
    """
    return tau2_calculate(expression)


@airline_tool
def cancel_reservation(db: EpisodeDB, reservation_id: str) -> str:
    """Cancel the whole reservation; every payment is refunded.

    Args:
        reservation_id: The reservation id, e.g. 'ZFA04Y'.
    """
    reservation = _reservation(db, reservation_id)
    refunds = [
        {"payment_id": p["payment_id"], "amount": -p["amount"]} for p in reservation.payment_history
    ]
    reservation.payment_history = [*reservation.payment_history, *refunds]
    reservation.status = "cancelled"
    return _answer(reservation)


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
    return _answer(_reservation(db, reservation_id))


@airline_tool
def get_user_details(db: EpisodeDB, user_id: str) -> str:
    """Get the details of a user, including their reservations.

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
    """
    return json.dumps(user_record(_user(db, user_id)))


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


@airline_tool
def send_certificate(db: EpisodeDB, user_id: str, amount: int) -> str:
    """Send a certificate to a user (as compensation).

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
        amount: The certificate's amount.
    """
    user = _user(db, user_id)
    for payment_id in NEW_CERTIFICATE_IDS:
        if payment_id not in user.payment_methods:
            user.payment_methods[payment_id] = {
                "source": "certificate",
                "id": payment_id,
                "amount": float(amount),
            }
            return f"Certificate {payment_id} added to user {user_id} with amount {amount}."
    raise ValueError("Too many certificates")


@airline_tool
def transfer_to_human_agents(db: EpisodeDB, summary: str) -> str:
    """Transfer the user to a human agent, with a summary of their issue.

    Args:
        summary: A summary of the user's issue.
    """
    return "Transfer successful"


@airline_tool
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
    reservation = _reservation(db, reservation_id)
    user = _user(db, reservation.user_id)
    total = 50 * max(0, nonfree_baggages - reservation.nonfree_baggages)
    payment = _pay_update(user, payment_id, total)
    if payment is not None:
        reservation.payment_history = [*reservation.payment_history, payment]
    reservation.total_baggages = total_baggages
    reservation.nonfree_baggages = nonfree_baggages
    return _answer(reservation)


@airline_tool
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
    choices = _records(flights, ("flight_number", "date"), "FlightInfo")
    reservation = _reservation(db, reservation_id)
    user = _user(db, reservation.user_id)
    travellers = len(reservation.passengers)
    segments, total = [], 0
    for choice in choices:
        kept = next(
            (
                old
                for old in reservation.flights
                if old["flight_number"] == choice["flight_number"]
                and old["date"] == choice["date"]
                and cabin == reservation.cabin
            ),
            None,
        )
        if kept is not None:
            total += kept["price"] * travellers
            segments.append(kept)
            continue
        found = timetable.flight(db, choice["flight_number"])
        _, entry = timetable.bookable_entry(
            db, choice["flight_number"], choice["date"], cabin, travellers
        )
        price = entry["prices"][cabin]
        segments.append(
            {
                "origin": found.origin,
                "destination": found.destination,
                "flight_number": choice["flight_number"],
                "date": choice["date"],
                "price": price,
            }
        )
        total += price * travellers
    total -= sum(old["price"] for old in reservation.flights) * travellers
    payment = _pay_update(user, payment_id, total)
    if payment is not None:
        reservation.payment_history = [*reservation.payment_history, payment]
    reservation.flights = segments
    reservation.cabin = cabin
    return _answer(reservation)


@airline_tool
def update_reservation_passengers(
    db: EpisodeDB, reservation_id: str, passengers: list[Passenger]
) -> str:
    """Update the passenger information of a reservation (same number of passengers).

    Args:
        reservation_id: The reservation id, e.g. 'ZFA04Y'.
        passengers: Each passenger's 'first_name', 'last_name' and 'dob'.
    """
    travellers = _records(passengers, ("first_name", "last_name", "dob"), "Passenger")
    reservation = _reservation(db, reservation_id)
    if len(travellers) != len(reservation.passengers):
        raise ValueError("Number of passengers does not match")
    reservation.passengers = copy.deepcopy(travellers)
    return _answer(reservation)


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
WRITE_TOOLS = (
    "book_reservation",
    "cancel_reservation",
    "send_certificate",
    "update_reservation_baggages",
    "update_reservation_flights",
    "update_reservation_passengers",
)
