"""Payment rules shared by the tools that charge a reservation change."""

from __future__ import annotations

from typing import Any

from tautrait_airline.schema import Reservation, User
from tautrait_core import EpisodeDB


def owner(db: EpisodeDB, reservation: Reservation) -> User:
    """The user who holds a reservation (``KeyError`` if the profile is missing)."""
    user = db.get(User, reservation.user_id)
    if user is None:
        raise KeyError(reservation.user_id)
    return user


def change_payment(user: User, payment_id: str, total: int | float) -> dict[str, Any] | str:
    """The payment method for a change of ``total`` dollars, or the error text to answer.

    Certificates cannot pay for changes, and a gift card must hold at least the total.
    """
    method = user.payment_methods.get(payment_id)
    if method is None:
        return "Error: payment method not found"
    if method["source"] == "certificate":
        return "Error: certificate cannot be used to update reservation"
    if method["source"] == "gift_card" and method["amount"] < total:
        return "Error: gift card balance is not enough"
    return method


def charge(
    reservation: Reservation, method: dict[str, Any], payment_id: str, total: int | float
) -> None:
    """Take ``total`` from a gift card (a negative total credits it) and record a non-zero
    total in the reservation's payment history."""
    if method["source"] == "gift_card":
        method["amount"] -= total
    if total != 0:
        reservation.payment_history = [
            *reservation.payment_history,
            {"payment_id": payment_id, "amount": total},
        ]
