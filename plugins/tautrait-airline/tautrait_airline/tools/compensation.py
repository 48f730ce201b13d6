"""Compensation: travel certificates."""

from __future__ import annotations

from tautrait_airline.schema import User
from tautrait_airline.tools.arguments import Amount
from tautrait_core import EpisodeDB, tool

CERTIFICATE_IDS = ("certificate_3221322", "certificate_3221323", "certificate_3221324")
"""Ids of new certificates, tried in order."""


@tool(writes=True)
def send_certificate(db: EpisodeDB, user_id: str, amount: Amount) -> str:
    """Give a customer a travel certificate as compensation, usable on a future booking.
    Only when the policy grants compensation and the customer asked for it.

    Args:
        user_id: The user id, e.g. 'maria_lopez_1234'.
        amount: The certificate's value in dollars.
    """
    user = db.get(User, user_id)
    if user is None:
        return "Error: user not found"
    for certificate_id in CERTIFICATE_IDS:
        if certificate_id not in user.payment_methods:
            user.payment_methods[certificate_id] = {
                "source": "certificate",
                "amount": amount,
                "id": certificate_id,
            }
            return f"Certificate {certificate_id} added to user {user_id} with amount {amount}."
    # upstream returns None here and its step crashes; an error observation is kinder
    return "Error: the user already holds the maximum number of new certificates"
