"""Changing pending orders: cancel, shipping address, payment method and items."""

from __future__ import annotations

from typing import Any

from pydantic_core import CoreSchema, core_schema

from tautrait_core import EpisodeDB, tool
from tautrait_retail.records import compact_items
from tautrait_retail.tools.orders import (
    address_record,
    cancellation,
    change_order,
    charge_gift_card,
    check_item_swap,
    first_item,
    gift_card_by_id,
    method_change,
    order_in_status,
    order_json,
    order_owner,
    paying_method,
    refund_gift_cards,
    save_order,
    save_payment_methods,
    settlement,
    short_gift_card,
)

CANCEL_REASONS = ("no longer needed", "ordered by mistake")

MODIFY_REFUSAL = "Error: non-pending order cannot be modified"


class CancelReason(str):
    """A cancellation reason: any string is accepted (the tool answers an invalid one after
    its other checks, as upstream does), while the schema lists the two valid values."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> CoreSchema:
        return core_schema.str_schema()

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: Any) -> dict[str, Any]:
        return {**handler(schema), "enum": list(CANCEL_REASONS)}


@tool(writes=True)
def cancel_pending_order(db: EpisodeDB, order_id: str, reason: CancelReason) -> str:
    """Cancel a pending order. Every payment is refunded: at once to gift cards, within
    5 to 7 business days to other methods. Only after the customer confirmed the details.

    Args:
        order_id: The order id, starting with '#', e.g. '#W0000001'.
        reason: Why the customer cancels: 'no longer needed' or 'ordered by mistake'.
    """
    order = order_in_status(db, order_id, "pending", "Error: non-pending order cannot be cancelled")
    if isinstance(order, str):
        return order
    if reason not in CANCEL_REASONS:
        return "Error: invalid reason"
    history = order["payment_history"]
    owner = order_owner(db, order)
    if refund_gift_cards(history, gift_card_by_id(owner["payment_methods"])):
        save_payment_methods(db, owner)
    change_order(db, order, cancellation(order["extra_fields"], history, reason))
    return order_json(db, order)


@tool(writes=True)
def modify_pending_order_address(
    db: EpisodeDB,
    order_id: str,
    address1: str,
    address2: str,
    city: str,
    state: str,
    country: str,
    zip: str,
) -> str:
    """Change the shipping address of a pending order. Only after the customer confirmed
    the new address.

    Args:
        order_id: The order id, starting with '#', e.g. '#W0000001'.
        address1: First address line, e.g. '14 Birch Lane'.
        address2: Second address line, e.g. 'Apt 2B' (may be empty).
        city: The city, e.g. 'Portland'.
        state: The state code, e.g. 'OR'.
        country: The country, e.g. 'USA'.
        zip: The zip code, e.g. '97205'.
    """
    order = order_in_status(db, order_id, "pending", MODIFY_REFUSAL)
    if isinstance(order, str):
        return order
    order["address"] = address_record(address1, address2, city, state, country, zip)
    save_order(db, order, "address")
    return order_json(db, order)


@tool(writes=True)
def modify_pending_order_items(
    db: EpisodeDB,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> str:
    """Swap items of a pending order for other variants of the same products, charging or
    refunding the price difference. An order's items can be modified only once, so all
    changes must be collected first; only after the customer confirmed them.

    Args:
        order_id: The order id, starting with '#', e.g. '#W0000001'.
        item_ids: The item ids to swap; an id appears as often as items are swapped.
        new_item_ids: The new item ids, pairwise with item_ids (same product, available).
        payment_method_id: The saved payment method that pays or receives the difference,
            e.g. 'gift_card_1234567' or 'credit_card_1234567'.
    """
    order = order_in_status(db, order_id, "pending", MODIFY_REFUSAL)
    if isinstance(order, str):
        return order
    swap = check_item_swap(db, order, item_ids, new_item_ids)
    if isinstance(swap, str):
        return swap
    catalog, items, difference = swap.catalog, swap.items, swap.difference
    owner = order_owner(db, order)
    method = paying_method(
        owner,
        payment_method_id,
        difference,
        "Error: insufficient gift card balance to pay for the new item",
    )
    if isinstance(method, str):
        return method
    order["payment_history"] = [
        *order["payment_history"],
        settlement(difference, payment_method_id),
    ]
    if charge_gift_card(method, difference):
        save_payment_methods(db, owner)
    try:
        for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
            item = first_item(items, item_id)
            variant = catalog.variant_of(item["product_id"], new_item_id)
            if variant is None:
                raise KeyError(new_item_id)
            item["item_id"] = new_item_id
            item["price"] = variant.price
            item["options"] = dict(variant.options)
    finally:
        order["items"] = compact_items(items, catalog)
        save_order(db, order, "payment_history", "items")
    order["status"] = "pending (item modified)"
    save_order(db, order, "status")
    return order_json(db, order)


@tool(writes=True)
def modify_pending_order_payment(db: EpisodeDB, order_id: str, payment_method_id: str) -> str:
    """Pay a pending order with a different saved payment method; the original method is
    refunded (a gift card at once). Only after the customer confirmed the change.

    Args:
        order_id: The order id, starting with '#', e.g. '#W0000001'.
        payment_method_id: The new payment method, e.g. 'paypal_1234567'; it must differ
            from the current one.
    """
    order = order_in_status(db, order_id, "pending", MODIFY_REFUSAL)
    if isinstance(order, str):
        return order
    owner = order_owner(db, order)
    methods = owner["payment_methods"]
    if payment_method_id not in methods:
        return "Error: payment method not found"
    history = order["payment_history"]
    if len(history) > 1 or history[0]["transaction_type"] != "payment":
        return "Error: there should be exactly one payment for a pending order"
    old_method_id = history[0]["payment_method_id"]
    if old_method_id == payment_method_id:
        return "Error: the new payment method should be different from the current one"
    amount = history[0]["amount"]
    method = methods[payment_method_id]
    if short_gift_card(method, amount):
        return "Error: insufficient gift card balance to pay for the order"
    order["payment_history"] = [*history, *method_change(amount, payment_method_id, old_method_id)]
    save_order(db, order, "payment_history")
    charged = charge_gift_card(method, amount)
    if refund_gift_cards(history, gift_card_by_id(methods)) or charged:
        save_payment_methods(db, owner)
    return order_json(db, order)
