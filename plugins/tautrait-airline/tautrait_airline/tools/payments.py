"""Payment rules of the airline tools, τ-Trait's and τ²'s alike.

The rules raise ``ValueError`` with τ²'s texts; a τ-Trait tool answers the same text with a
lower-case first letter (:func:`error_answer`): τ² capitalised upstream's messages and
changed nothing else in them.
"""

from __future__ import annotations

from typing import Any

from tautrait_airline.schema import Reservation, User
from tautrait_core import EpisodeDB

INSURANCE_PER_PASSENGER = 30
PRICE_PER_EXTRA_BAG = 50


def error_answer(problem: ValueError) -> str:
    """A τ-Trait tool's answer to a broken rule: ``Error:`` and upstream's text (τ²'s text
    with a lower-case first letter)."""
    text = str(problem)
    return f"Error: {text[:1].lower()}{text[1:]}"


def owner(db: EpisodeDB, reservation: Reservation) -> User:
    """The user who holds a reservation (``KeyError`` if the profile is missing)."""
    user = db.get(User, reservation.user_id)
    if user is None:
        raise KeyError(reservation.user_id)
    return user


def booking_total(
    prices: list[Any], travellers: int, insurance: str, nonfree_baggages: Any
) -> int | float:
    """What a booking costs: each flight's price per traveller, insurance when it is
    ``"yes"``, and the paid bags (summed in upstream's order)."""
    total: int | float = 0
    for price in prices:
        total += price * travellers
    if insurance == "yes":
        total += INSURANCE_PER_PASSENGER * travellers
    total += PRICE_PER_EXTRA_BAG * nonfree_baggages
    return total


def pay_booking(methods: dict[str, Any], payments: list[dict[str, Any]], total: Any) -> None:
    """Check a booking's payments and take them from the user's ``methods``.

    Each method must be the user's, a gift card or certificate must hold its amount, and
    the amounts must add up to ``total``; then a gift card is debited and a certificate is
    used up. Raises before anything is taken.
    """
    for payment in payments:
        payment_id, amount = payment["payment_id"], payment["amount"]
        if payment_id not in methods:
            raise ValueError(f"Payment method {payment_id} not found")
        method = methods[payment_id]
        if method["source"] in ("gift_card", "certificate") and method["amount"] < amount:
            raise ValueError(f"Not enough balance in payment method {payment_id}")
    paid = sum(payment["amount"] for payment in payments)
    if paid != total:
        raise ValueError(f"Payment amount does not add up, total price is {total}, but paid {paid}")
    for payment in payments:
        payment_id = payment["payment_id"]
        if methods[payment_id]["source"] == "gift_card":
            methods[payment_id]["amount"] -= payment["amount"]
        elif methods[payment_id]["source"] == "certificate":
            del methods[payment_id]


def pay_change(user: User, reservation: Reservation, payment_id: str, total: Any) -> None:
    """Charge (or, when negative, refund) ``total`` dollars for a change of a reservation.

    Certificates cannot pay for changes, and a gift card must hold at least the total; a
    gift card's balance takes the total, and a non-zero total is recorded in the payment
    history. Raises before anything is changed.
    """
    method = user.payment_methods.get(payment_id)
    if method is None:
        raise ValueError("Payment method not found")
    if method["source"] == "certificate":
        raise ValueError("Certificate cannot be used to update reservation")
    if method["source"] == "gift_card" and method["amount"] < total:
        raise ValueError("Gift card balance is not enough")
    if method["source"] == "gift_card":
        method["amount"] -= total
    if total != 0:
        reservation.payment_history = [
            *reservation.payment_history,
            {"payment_id": payment_id, "amount": total},
        ]


def cancel_and_refund(reservation: Reservation) -> None:
    """Cancel a reservation: every payment is refunded to the method it came from."""
    refunds = [
        {"payment_id": payment["payment_id"], "amount": -payment["amount"]}
        for payment in reservation.payment_history
    ]
    reservation.payment_history = [*reservation.payment_history, *refunds]
    reservation.status = "cancelled"
