"""Deterministic generator of the built-in airline data.

``python -m tautrait_airline.datagen [FOLDER]`` writes ``flights.json``,
``reservations.json`` and ``users.json`` in the upstream shape (default: this package's
``data/`` folder). The same seed always gives the same files; the committed data is this
generator's output. Names, streets and routes are lists written for this project.

The clock of the domain is 2024-05-15 15:00 EST: flights before that date have flown (or
were cancelled), flights on it are in the air, delayed or on time, and later dates are open
for booking, with a few cancellations.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from pathlib import Path
from typing import Any

from tautrait_core import write_data_command

SEED = 20261122
USER_COUNT = 72
RESERVATION_COUNT = 180
FIRST_DATE = dt.date(2024, 5, 8)
LAST_DATE = dt.date(2024, 5, 30)
TODAY = dt.date(2024, 5, 15)
CABINS = ("basic_economy", "economy", "business")

ROUTES: list[tuple[str, str, int]] = [
    ("BOS", "JFK", 75),
    ("BOS", "ORD", 150),
    ("BOS", "ATL", 165),
    ("JFK", "MIA", 190),
    ("JFK", "LAX", 360),
    ("JFK", "ORD", 155),
    ("EWR", "DEN", 270),
    ("EWR", "CLT", 110),
    ("ORD", "DEN", 150),
    ("ORD", "SEA", 260),
    ("ORD", "MSP", 85),
    ("ATL", "DFW", 140),
    ("ATL", "MCO", 90),
    ("DFW", "PHX", 130),
    ("DFW", "IAH", 65),
    ("DEN", "SFO", 160),
    ("DEN", "LAS", 105),
    ("LAX", "SFO", 80),
    ("LAX", "SEA", 165),
    ("SEA", "SFO", 125),
    ("PHL", "CLT", 95),
    ("DTW", "ORD", 80),
    ("MIA", "IAH", 170),
    ("PHX", "LAS", 70),
]
"""Served routes: both directions are flown, with the flight time in minutes."""

FIRST_NAMES = [
    "Amara", "Bruno", "Clara", "Dmitri", "Elif", "Farah", "Gustavo", "Hanna", "Idris",
    "Joanna", "Kenji", "Lucia", "Mateo", "Noor", "Oskar", "Priya", "Quentin", "Rosa",
    "Santiago", "Talia", "Umar", "Vera", "Wesley", "Ximena", "Yusuf", "Zoe", "Anton",
    "Beatriz", "Cyrus", "Delia", "Emeka", "Freya",
]  # fmt: skip

LAST_NAMES = [
    "Okafor", "Lindqvist", "Moreau", "Tanaka", "Castillo", "Novak", "Haddad", "Brennan",
    "Kowalski", "Achebe", "Rossi", "Nakamura", "Fischer", "Delgado", "Sorensen", "Mbeki",
    "Petrov", "Gallagher", "Yilmaz", "Oliveira", "Chandra", "Whitfield",
]  # fmt: skip

STREETS = [
    "Harbor View Road", "Juniper Lane", "Cedar Hollow Drive", "Maple Terrace", "Orchard Way",
    "Quarry Street", "Beacon Avenue", "Willow Bend", "Larkspur Court", "Granite Row",
]  # fmt: skip

CITIES = [
    ("Portland", "OR", "97205"), ("Madison", "WI", "53703"), ("Raleigh", "NC", "27601"),
    ("Tucson", "AZ", "85701"), ("Albany", "NY", "12207"), ("Boise", "ID", "83702"),
    ("Savannah", "GA", "31401"), ("Omaha", "NE", "68102"), ("Richmond", "VA", "23219"),
    ("Spokane", "WA", "99201"),
]  # fmt: skip

CARD_BRANDS = ("visa", "mastercard", "amex")
CERTIFICATE_VALUES = (100, 150, 200, 250, 500)
MEMBERSHIPS = ("regular", "regular", "silver", "gold")
BASE_FARE = {"basic_economy": 0.35, "economy": 0.6, "business": 1.6}
"""Cabin price per minute of flight time (before day-to-day variation)."""


def generate(seed: int = SEED) -> dict[str, dict[str, Any]]:
    """The three collections (``flights``, ``reservations``, ``users``) for ``seed``."""
    rng = random.Random(seed)
    flights = _flights(rng)
    users = _users(rng)
    reservations = _reservations(rng, flights, users)
    return {"flights": flights, "reservations": reservations, "users": users}


def _flights(rng: random.Random) -> dict[str, Any]:
    flights: dict[str, Any] = {}
    legs = [(a, b, minutes) for a, b, minutes in ROUTES] + [(b, a, m) for a, b, m in ROUTES]
    number = 100
    for origin, destination, minutes in legs:
        for _ in range(rng.choice([1, 2, 2])):
            number += rng.randint(1, 9)
            departure = dt.datetime(2024, 1, 1, rng.randint(5, 22), rng.choice([0, 15, 30, 45]))
            arrival = departure + dt.timedelta(minutes=minutes)
            suffix = "+1" if arrival.date() > departure.date() else ""
            flight_number = f"TT{number}"
            flights[flight_number] = {
                "flight_number": flight_number,
                "origin": origin,
                "destination": destination,
                "scheduled_departure_time_est": departure.strftime("%H:%M:%S"),
                "scheduled_arrival_time_est": arrival.strftime("%H:%M:%S") + suffix,
                "dates": _dates(rng, departure.time(), minutes),
            }
    return flights


def _dates(rng: random.Random, departure: dt.time, minutes: int) -> dict[str, Any]:
    dates: dict[str, Any] = {}
    day = FIRST_DATE
    while day <= LAST_DATE:
        leave = dt.datetime.combine(day, departure)
        dates[day.isoformat()] = _entry(rng, day, leave, minutes)
        day += dt.timedelta(days=1)
    return dates


def _entry(rng: random.Random, day: dt.date, leave: dt.datetime, minutes: int) -> dict[str, Any]:
    def stamp(moment: dt.datetime) -> str:
        return moment.isoformat(timespec="seconds")

    shift = dt.timedelta(minutes=rng.randint(-15, 40))
    arrive = leave + dt.timedelta(minutes=minutes)
    if day < TODAY:
        if rng.random() < 0.06:
            return {"status": "cancelled"}
        return {
            "status": "landed",
            "actual_departure_time_est": stamp(leave + shift),
            "actual_arrival_time_est": stamp(arrive + shift),
        }
    if day == TODAY:
        status = rng.choice(["flying", "on time", "delayed", "delayed", "cancelled"])
        if status == "cancelled":
            return {"status": status}
        if status == "flying":
            return {
                "status": status,
                "actual_departure_time_est": stamp(leave + shift),
                "estimated_arrival_time_est": stamp(arrive + shift),
            }
        delay = dt.timedelta(minutes=rng.randint(60, 300)) if status == "delayed" else shift
        return {
            "status": status,
            "estimated_departure_time_est": stamp(leave + delay),
            "estimated_arrival_time_est": stamp(arrive + delay),
        }
    if rng.random() < 0.03:
        return {"status": "cancelled"}
    return {
        "status": "available",
        "available_seats": {
            "basic_economy": rng.randint(0, 18),
            "economy": rng.randint(2, 20),
            "business": rng.randint(0, 12),
        },
        "prices": {
            cabin: int(minutes * BASE_FARE[cabin] * rng.uniform(0.8, 1.3)) + 40 for cabin in CABINS
        },
    }


def _digits(rng: random.Random, count: int, used: set[str]) -> str:
    while True:
        value = "".join(rng.choice(string.digits) for _ in range(count))
        if value not in used:
            used.add(value)
            return value


def _person(rng: random.Random) -> dict[str, str]:
    born = dt.date(1940, 1, 1) + dt.timedelta(days=rng.randint(0, 365 * 65))
    return {
        "first_name": rng.choice(FIRST_NAMES),
        "last_name": rng.choice(LAST_NAMES),
        "dob": born.isoformat(),
    }


def _users(rng: random.Random) -> dict[str, Any]:
    users: dict[str, Any] = {}
    used: set[str] = set()
    while len(users) < USER_COUNT:
        person = _person(rng)
        first, last = person["first_name"], person["last_name"]
        user_id = f"{first.lower()}_{last.lower()}_{_digits(rng, 4, used)}"
        city, state, zip_code = rng.choice(CITIES)
        methods: dict[str, Any] = {}
        for _ in range(rng.choice([1, 1, 2])):
            method_id = f"credit_card_{_digits(rng, 7, used)}"
            methods[method_id] = {
                "source": "credit_card",
                "brand": rng.choice(CARD_BRANDS),
                "last_four": _digits(rng, 4, set()),
                "id": method_id,
            }
        for _ in range(rng.choice([0, 1, 1, 2])):
            method_id = f"gift_card_{_digits(rng, 7, used)}"
            methods[method_id] = {
                "source": "gift_card",
                "amount": rng.randint(20, 400),
                "id": method_id,
            }
        for _ in range(rng.choice([0, 0, 1, 2])):
            method_id = f"certificate_{_digits(rng, 7, used)}"
            methods[method_id] = {
                "source": "certificate",
                "amount": rng.choice(CERTIFICATE_VALUES),
                "id": method_id,
            }
        keys = list(methods)
        rng.shuffle(keys)
        users[user_id] = {
            "name": {"first_name": first, "last_name": last},
            "address": {
                "address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}",
                "address2": rng.choice(
                    ["", f"Apt {rng.randint(1, 40)}", f"Unit {rng.randint(100, 900)}"]
                ),
                "city": city,
                "country": "USA",
                "state": state,
                "zip": zip_code,
            },
            "email": f"{first.lower()}.{last.lower()}{_digits(rng, 3, set())}@example.com",
            "dob": person["dob"],
            "payment_methods": {key: methods[key] for key in keys},
            "saved_passengers": [_person(rng) for _ in range(rng.choice([0, 1, 1, 2]))],
            "membership": rng.choice(MEMBERSHIPS),
            "reservations": [],
        }
    return users


def _reservations(
    rng: random.Random, flights: dict[str, Any], users: dict[str, Any]
) -> dict[str, Any]:
    by_route: dict[tuple[str, str], list[str]] = {}
    for number, flight in flights.items():
        by_route.setdefault((flight["origin"], flight["destination"]), []).append(number)
    routes = sorted(by_route)
    reservations: dict[str, Any] = {}
    user_ids = list(users)
    while len(reservations) < RESERVATION_COUNT:
        reservation_id = "".join(
            rng.choice(string.ascii_uppercase + string.digits) for _ in range(6)
        )
        if reservation_id in reservations or reservation_id.startswith("HATHA"):
            continue
        user_id = rng.choice(user_ids)
        user = users[user_id]
        origin, destination = rng.choice(routes)
        cabin = rng.choice(CABINS)
        flight_type = rng.choice(["one_way", "round_trip"])
        outbound = FIRST_DATE + dt.timedelta(days=rng.randint(0, 18))
        days = [outbound]
        legs = [(origin, destination)]
        if flight_type == "round_trip":
            days.append(outbound + dt.timedelta(days=rng.randint(1, 4)))
            legs.append((destination, origin))
        segments = []
        for (leg_origin, leg_destination), day in zip(legs, days, strict=True):
            number = rng.choice(by_route[(leg_origin, leg_destination)])
            entry = flights[number]["dates"][day.isoformat()]
            price = entry["prices"][cabin] if "prices" in entry else rng.randint(60, 900)
            segments.append(
                {
                    "origin": leg_origin,
                    "destination": leg_destination,
                    "flight_number": number,
                    "date": day.isoformat(),
                    "price": price,
                }
            )
        travellers = [{**_name_of(user), "dob": user["dob"]}]
        for saved in user["saved_passengers"]:
            if rng.random() < 0.5:
                travellers.append(dict(saved))
        if rng.random() < 0.3:
            travellers.append(_person(rng))
        insurance = rng.choice(["yes", "no", "no"])
        bags = rng.randint(0, len(travellers) * 2)
        extra = rng.choice([0, 0, 0, 1]) if bags else 0
        total = sum(segment["price"] for segment in segments) * len(travellers)
        total += (30 * len(travellers) if insurance == "yes" else 0) + 50 * extra
        payers = [
            key
            for key, method in user["payment_methods"].items()
            if method["source"] != "certificate"
        ]
        booked = _booking_time(rng, outbound)
        reservations[reservation_id] = {
            "reservation_id": reservation_id,
            "user_id": user_id,
            "origin": origin,
            "destination": destination,
            "flight_type": flight_type,
            "cabin": cabin,
            "flights": segments,
            "passengers": travellers,
            "payment_history": [{"payment_id": rng.choice(payers), "amount": total}],
            "created_at": booked.isoformat(timespec="seconds"),
            "total_baggages": bags,
            "nonfree_baggages": extra,
            "insurance": insurance,
        }
        user["reservations"].append(reservation_id)
    return reservations


def _booking_time(rng: random.Random, outbound: dt.date) -> dt.datetime:
    """When a trip leaving on ``outbound`` was booked: before it left and before now; a
    few future trips were booked within the last day."""
    now = dt.datetime(2024, 5, 15, 14, 0)
    if outbound > TODAY and rng.random() < 0.08:
        return now - dt.timedelta(minutes=rng.randint(0, 22 * 60))
    latest = min(dt.datetime.combine(outbound, dt.time()) - dt.timedelta(days=1), now)
    earliest = dt.datetime(2024, 4, 20, 8, 0)
    return earliest + dt.timedelta(
        minutes=rng.randint(0, int((latest - earliest).total_seconds() // 60))
    )


def _name_of(user: dict[str, Any]) -> dict[str, str]:
    return {"first_name": user["name"]["first_name"], "last_name": user["name"]["last_name"]}


def main(argv: list[str] | None = None) -> list[Path]:
    """Command line: ``python -m tautrait_airline.datagen [FOLDER]``; returns the paths written."""
    return write_data_command(generate, Path(__file__).parent, argv)


if __name__ == "__main__":
    main()
