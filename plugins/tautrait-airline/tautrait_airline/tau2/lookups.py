"""What τ²'s airline tools share: the tool decorator, look-ups that raise τ²'s errors and the
answer (a reservation as τ²'s model dumps it)."""

from __future__ import annotations

import json

from tautrait_airline.schema import Reservation, User
from tautrait_airline.tau2.records import reservation_record
from tautrait_core import EpisodeDB
from tautrait_core.tau2 import tau2_found, tau2_tool

airline_tool = tau2_tool("AirlineTools")
"""Makes a function a tool of τ²'s ``AirlineTools``."""


def find_user(db: EpisodeDB, user_id: str) -> User:
    """The user; raises ``User {id} not found``."""
    return tau2_found(db.get(User, user_id), f"User {user_id} not found")


def find_reservation(db: EpisodeDB, reservation_id: str) -> Reservation:
    """The reservation; raises ``Reservation {id} not found``."""
    found = db.get(Reservation, reservation_id)
    return tau2_found(found, f"Reservation {reservation_id} not found")


def reservation_answer(reservation: Reservation) -> str:
    """The reservation as τ²'s model dumps it, the reservation tools' answer."""
    return json.dumps(reservation_record(reservation))
