"""Requests on delivered orders: returns and exchanges."""

from __future__ import annotations

from tautrait_core import EpisodeDB, tool
from tautrait_retail.catalog import catalog_of
from tautrait_retail.records import expand_items
from tautrait_retail.tools.orders import (
    change_order,
    check_item_swap,
    exchange_request,
    missing_item,
    order_in_status,
    order_json,
    order_owner,
    paying_method,
    return_request,
)


@tool(writes=True)
def exchange_delivered_order_items(
    db: EpisodeDB,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> str:
    """Request an exchange of delivered items for other variants of the same products. The
    price difference is settled with the given payment method once the exchange completes;
    the customer receives return instructions by email. An order can be exchanged only
    once, so all items must be collected first; only after the customer confirmed.

    Args:
        order_id: The order id, starting with '#', e.g. '#W0000001'.
        item_ids: The delivered item ids to exchange; an id appears as often as items are
            exchanged.
        new_item_ids: The new item ids, pairwise with item_ids (same product, available).
        payment_method_id: The saved payment method that pays or receives the difference,
            e.g. 'gift_card_1234567' or 'credit_card_1234567'.
    """
    order = order_in_status(
        db, order_id, "delivered", "Error: non-delivered order cannot be exchanged"
    )
    if isinstance(order, str):
        return order
    swap = check_item_swap(db, order, item_ids, new_item_ids)
    if isinstance(swap, str):
        return swap
    difference = round(swap.difference, 2)
    method = paying_method(
        order_owner(db, order),
        payment_method_id,
        difference,
        "Error: insufficient gift card balance to pay for the price difference",
    )
    if isinstance(method, str):
        return method
    exchange = exchange_request(
        order["extra_fields"], item_ids, new_item_ids, payment_method_id, difference
    )
    change_order(db, order, exchange)
    return order_json(db, order)


@tool(writes=True)
def return_delivered_order_items(
    db: EpisodeDB, order_id: str, item_ids: list[str], payment_method_id: str
) -> str:
    """Request a return of delivered items. The refund goes to the original payment method
    or to one of the customer's gift cards; the customer receives return instructions by
    email. Only after the customer confirmed the items and the refund method.

    Args:
        order_id: The order id, starting with '#', e.g. '#W0000001'.
        item_ids: The delivered item ids to return; an id appears as often as items are
            returned.
        payment_method_id: Where the refund goes: the order's original payment method or a
            gift card, e.g. 'gift_card_1234567'.
    """
    order = order_in_status(
        db, order_id, "delivered", "Error: non-delivered order cannot be returned"
    )
    if isinstance(order, str):
        return order
    if payment_method_id not in order_owner(db, order)["payment_methods"]:
        return "Error: payment method not found"
    if (
        "gift_card" not in payment_method_id
        and payment_method_id != order["payment_history"][0]["payment_method_id"]
    ):
        return "Error: payment method should be either the original payment method or a gift card"
    items = expand_items(order["items"], catalog_of(db))
    if missing_item(items, item_ids) is not None:
        return "Error: some item not found"
    change_order(db, order, return_request(order["extra_fields"], item_ids, payment_method_id))
    return order_json(db, order)
