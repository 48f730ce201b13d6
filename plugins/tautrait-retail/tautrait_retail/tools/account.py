"""Changing a customer's account."""

from __future__ import annotations

from tautrait_core import EpisodeDB, tool
from tautrait_retail.schema import User
from tautrait_retail.tools.orders import address_record, user_json


@tool(writes=True)
def modify_user_address(
    db: EpisodeDB,
    user_id: str,
    address1: str,
    address2: str,
    city: str,
    state: str,
    country: str,
    zip: str,
) -> str:
    """Change the default address on a customer's account (existing orders keep theirs).
    Only after the customer confirmed the new address.

    Args:
        user_id: The user id, e.g. 'maya_ortiz_4521'.
        address1: First address line, e.g. '14 Birch Lane'.
        address2: Second address line, e.g. 'Apt 2B' (may be empty).
        city: The city, e.g. 'Portland'.
        state: The state code, e.g. 'OR'.
        country: The country, e.g. 'USA'.
        zip: The zip code, e.g. '97205'.
    """
    user = db.read_row(User, user_id)
    if user is None:
        return "Error: user not found"
    user["address"] = address_record(address1, address2, city, state, country, zip)
    db.update_row(User, user_id, {"address": user["address"]})
    return user_json(user)
