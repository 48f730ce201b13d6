"""Read-only tools: identifying the customer and showing users, orders and products.

The look-ups behind them (:func:`user_id_by_email`, :func:`user_id_by_name_zip`,
:func:`product_types`) serve τ²'s retail tools too."""

from __future__ import annotations

import json

from sqlalchemy import text
from sqlmodel import select

from tautrait_core import EpisodeDB, tool
from tautrait_retail.catalog import catalog_of
from tautrait_retail.schema import Order, User
from tautrait_retail.tools.orders import order_json, user_json

_ZIP = text("json_extract(address, '$.zip') = :zip")


def user_id_by_email(db: EpisodeDB, email: str) -> str | None:
    """The id of the first user (in record order) whose email is ``email``, case ignored."""
    statement = select(User.user_id).where(User.email_key == email.lower())
    return db.exec(statement.order_by(User.position)).first()


def user_id_by_name_zip(db: EpisodeDB, first_name: str, last_name: str, zip: str) -> str | None:
    """The id of the first user (in record order) with this first and last name (case
    ignored) and this zip code in their address."""
    statement = select(User.user_id, User.name).where(_ZIP.bindparams(zip=zip))
    for user_id, name in db.exec(statement.order_by(User.position)):
        if (
            name["first_name"].lower() == first_name.lower()
            and name["last_name"].lower() == last_name.lower()
        ):
            return user_id
    return None


def product_types(db: EpisodeDB) -> dict[str, str]:
    """Every product type the store sells as product name -> product id, sorted by name."""
    names = catalog_of(db).product_names
    by_name = {name: product_id for product_id, name in names.items()}
    return dict(sorted(by_name.items()))


@tool
def find_user_id_by_email(db: EpisodeDB, email: str) -> str:
    """Look up a customer's user id by the email address on their account (upper and lower
    case do not matter). Use it to authenticate the customer.

    Args:
        email: The customer's email address, e.g. 'maya.ortiz4521@example.com'.
    """
    found = user_id_by_email(db, email)
    return found if found is not None else "Error: user not found"


@tool
def find_user_id_by_name_zip(db: EpisodeDB, first_name: str, last_name: str, zip: str) -> str:
    """Look up a customer's user id by first name, last name and the zip code of their
    account address. Use it to authenticate a customer who cannot give their email.

    Args:
        first_name: The customer's first name, e.g. 'Maya' (case does not matter).
        last_name: The customer's last name, e.g. 'Ortiz' (case does not matter).
        zip: The zip code of the customer's address, e.g. '60614'.
    """
    found = user_id_by_name_zip(db, first_name, last_name, zip)
    return found if found is not None else "Error: user not found"


@tool
def get_order_details(db: EpisodeDB, order_id: str) -> str:
    """Show an order: its status, items (with item ids, options and prices), shipping
    address, fulfillments and payment history.

    Args:
        order_id: The order id, starting with '#', e.g. '#W0000001'.
    """
    order = db.read_row(Order, order_id)
    if order is None:
        return "Error: order not found"
    return order_json(db, order)


@tool
def get_product_details(db: EpisodeDB, product_id: str) -> str:
    """Show a product type and all its variants (item ids, options, price, availability).

    Args:
        product_id: The product id, e.g. '6086499569'. It is not the same as an item id.
    """
    product = catalog_of(db).product_record(product_id)
    if product is None:
        return "Error: product not found"
    return json.dumps(product)


@tool
def get_user_details(db: EpisodeDB, user_id: str) -> str:
    """Show a customer's profile: name, address, email, saved payment methods (with gift
    card balances) and the ids of their orders.

    Args:
        user_id: The user id, e.g. 'maya_ortiz_4521'.
    """
    user = db.read_row(User, user_id)
    if user is None:
        return "Error: user not found"
    return user_json(user)


@tool
def list_all_product_types(db: EpisodeDB) -> str:
    """List every product type the store sells, as a JSON object of product name to product
    id, sorted by name."""
    return json.dumps(product_types(db))
