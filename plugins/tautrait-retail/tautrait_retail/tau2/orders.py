"""What τ²'s retail tools share: the tool decorator, look-ups and checks that raise τ²'s
errors, and the answers (orders and users as τ²'s models dump them). The records they write
are built by the τ-Trait tools' helpers (:mod:`tautrait_retail.tools.orders`)."""

from __future__ import annotations

import json
from typing import Any

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import tau2_found, tau2_tool
from tautrait_retail.catalog import CatalogVariant, catalog_of
from tautrait_retail.schema import Order, User
from tautrait_retail.tau2.records import order_record, user_record
from tautrait_retail.tools.orders import GiftCardOf, first_item, is_gift_card, missing_item

retail_tool = tau2_tool("RetailTools")
"""Makes a function a tool of τ²'s ``RetailTools``."""

MODIFY_REFUSAL = "Non-pending order cannot be modified"


def find_order(db: EpisodeDB, order_id: str) -> Order:
    """The order; raises ``Order not found``."""
    return tau2_found(db.get(Order, order_id), "Order not found")


def find_user(db: EpisodeDB, user_id: str) -> User:
    """The user; raises ``User not found``."""
    return tau2_found(db.get(User, user_id), "User not found")


def order_in_status(
    db: EpisodeDB, order_id: str, status: str, refusal: str, *, loosely: bool = False
) -> Order:
    """The order ``order_id`` in status ``status``; raises ``Order not found``, or
    ``refusal`` for an order in another status (``loosely``: one whose status does not
    contain ``status``, as τ²'s address and payment changes check)."""
    order = find_order(db, order_id)
    in_status = status in order.status if loosely else order.status == status
    if not in_status:
        raise ValueError(refusal)
    return order


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
    """The user's saved payment method; raises ``User not found`` / ``Payment method not
    found``."""
    methods = find_user(db, user_id).payment_methods
    if payment_method_id not in methods:
        raise ValueError("Payment method not found")
    return methods[payment_method_id]


def gift_card_of(db: EpisodeDB, user_id: str) -> GiftCardOf:
    """τ²'s rule: a payment method is a gift card by its ``source``; each id is looked up
    in the user's saved methods first (raising ``User not found`` / ``Payment method not
    found``), gift card or not."""

    def card(method_id: str) -> dict[str, Any] | None:
        method = find_payment_method(db, user_id, method_id)
        return method if is_gift_card(method) else None

    return card


def order_answer(db: EpisodeDB, order: Order) -> str:
    """The order as τ²'s model dumps it, the order tools' answer."""
    return json.dumps(order_record(order, catalog_of(db)))


def user_answer(user: User) -> str:
    """The user as τ²'s model dumps it, the user tools' answer."""
    return json.dumps(user_record(user))


def check_counts(items: list[dict[str, Any]], item_ids: list[str], message: str) -> None:
    """Raise ``message`` (with ``{item_id}``) for an item id asked for more often than held."""
    missing = missing_item(items, item_ids)
    if missing is not None:
        raise ValueError(message.format(item_id=missing))


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
