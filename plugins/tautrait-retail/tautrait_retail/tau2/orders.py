"""What τ²'s retail tools share: the tool decorator, look-ups that raise τ²'s errors, the
answer (an order as τ²'s model dumps it), gift-card balances and the item-swap checks."""

from __future__ import annotations

import json
from typing import Any

from tautrait_core import EpisodeDB, tau2_tool
from tautrait_retail.catalog import CatalogVariant, catalog_of
from tautrait_retail.schema import Order, User
from tautrait_retail.tau2.records import order_record

retail_tool = tau2_tool("RetailTools")
"""Makes a function a tool of τ²'s ``RetailTools``."""

CANCEL_REASONS = ("no longer needed", "ordered by mistake")


def find_order(db: EpisodeDB, order_id: str) -> Order:
    """The order; raises ``Order not found``."""
    order = db.get(Order, order_id)
    if order is None:
        raise ValueError("Order not found")
    return order


def find_user(db: EpisodeDB, user_id: str) -> User:
    """The user; raises ``User not found``."""
    user = db.get(User, user_id)
    if user is None:
        raise ValueError("User not found")
    return user


def find_variant(db: EpisodeDB, product_id: str, item_id: str) -> CatalogVariant:
    """A variant of the product; raises ``Product not found`` / ``Variant not found``."""
    catalog = catalog_of(db)
    if product_id not in catalog.product_names:
        raise ValueError("Product not found")
    variant = catalog.variants.get(item_id)
    if variant is None or variant.product_id != product_id:
        raise ValueError("Variant not found")
    return variant


def find_payment_method(db: EpisodeDB, user_id: str, payment_method_id: str) -> dict[str, Any]:
    """The user's saved payment method; raises ``Payment method not found``."""
    methods = find_user(db, user_id).payment_methods
    if payment_method_id not in methods:
        raise ValueError("Payment method not found")
    return methods[payment_method_id]


def is_gift_card(method: dict[str, Any]) -> bool:
    """Whether a saved payment method is a gift card."""
    return method.get("source") == "gift_card"


def add_balance(method: dict[str, Any], amount: float) -> None:
    """Change a gift card's balance by ``amount``, rounded to cents as τ² does."""
    method["balance"] = round(method["balance"] + amount, 2)


def order_answer(db: EpisodeDB, order: Order) -> str:
    """The order as τ²'s model dumps it, the order tools' answer."""
    return json.dumps(order_record(order, catalog_of(db)))


def check_counts(items: list[dict[str, Any]], item_ids: list[str], message: str) -> None:
    """Raise ``message`` (with ``{item_id}``) for an item id asked for more often than held."""
    held = [item["item_id"] for item in items]
    for item_id in item_ids:
        if item_ids.count(item_id) > held.count(item_id):
            raise ValueError(message.format(item_id=item_id))


def first_item(items: list[dict[str, Any]], item_id: str) -> dict[str, Any]:
    """The first item with ``item_id``; raises ``Item {id} not found``."""
    found = next((item for item in items if item["item_id"] == item_id), None)
    if found is None:
        raise ValueError(f"Item {item_id} not found")
    return found


def swap_price(
    db: EpisodeDB,
    items: list[dict[str, Any]],
    item_ids: list[str],
    new_item_ids: list[str],
    check_same: bool,
) -> tuple[float, CatalogVariant | None]:
    """New minus old prices over the pairs (unrounded) and the last new variant, checked
    in τ²'s order (``check_same``: the new id must differ, as item modifications require)."""
    difference: float = 0
    variant = None
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        if check_same and item_id == new_item_id:
            raise ValueError("The new item id should be different from the old item id")
        item = first_item(items, item_id)
        variant = find_variant(db, item["product_id"], new_item_id)
        if not variant.available:
            raise ValueError(f"New item {new_item_id} not found or available")
        difference += variant.price - item["price"]
    return difference, variant


def new_address(**fields: str) -> dict[str, str]:
    """An address in τ²'s field order."""
    return {key: fields[key] for key in ("address1", "address2", "city", "country", "state", "zip")}
