"""τ²'s retail tools for pending orders: cancel, and change the address, payment or items."""

from __future__ import annotations

from tautrait_core import EpisodeDB
from tautrait_retail.catalog import catalog_of
from tautrait_retail.records import compact_items, expand_items
from tautrait_retail.tau2.orders import (
    CANCEL_REASONS,
    add_balance,
    check_counts,
    find_order,
    find_payment_method,
    find_user,
    first_item,
    is_gift_card,
    new_address,
    order_answer,
    retail_tool,
    swap_price,
)


@retail_tool(writes=True)
def cancel_pending_order(db: EpisodeDB, order_id: str, reason: str) -> str:
    """Cancel a pending order; payments are refunded (gift cards at once).

    Args:
        order_id: The order id, e.g. '#W0000000'.
        reason: 'no longer needed' or 'ordered by mistake'.
    """
    order = find_order(db, order_id)
    if order.status != "pending":
        raise ValueError("Non-pending order cannot be cancelled")
    if reason not in CANCEL_REASONS:
        raise ValueError("Invalid reason")
    refunds = []
    for payment in order.payment_history:
        method_id = payment["payment_method_id"]
        refunds.append(
            {
                "transaction_type": "refund",
                "amount": payment["amount"],
                "payment_method_id": method_id,
            }
        )
        method = find_payment_method(db, find_user(db, order.user_id).user_id, method_id)
        if is_gift_card(method):
            add_balance(method, payment["amount"])
    order.status = "cancelled"
    order.extra_fields = {**order.extra_fields, "cancel_reason": reason}
    order.payment_history = [*order.payment_history, *refunds]
    return order_answer(db, order)


@retail_tool(writes=True)
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
    """Modify the shipping address of a pending order.

    Args:
        order_id: The order id, e.g. '#W0000000'.
        address1: The first line, e.g. '123 Main St'.
        address2: The second line, e.g. 'Apt 1' or ''.
        city: The city, e.g. 'San Francisco'.
        state: The state, e.g. 'CA'.
        country: The country, e.g. 'USA'.
        zip: The zip code, e.g. '12345'.
    """
    order = find_order(db, order_id)
    if "pending" not in order.status:
        raise ValueError("Non-pending order cannot be modified")
    order.address = new_address(
        address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
    )
    return order_answer(db, order)


@retail_tool(writes=True)
def modify_pending_order_items(
    db: EpisodeDB,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> str:
    """Modify items of a pending order to other variants of the same products (once).

    Args:
        order_id: The order id, e.g. '#W0000000'.
        item_ids: The item ids to modify.
        new_item_ids: The new item ids, pairwise with item_ids.
        payment_method_id: The payment method that pays or receives the price difference.
    """
    order = find_order(db, order_id)
    if order.status != "pending":
        raise ValueError("Non-pending order cannot be modified")
    catalog = catalog_of(db)
    items = expand_items(order.items, catalog)
    check_counts(items, item_ids, "{item_id} not found")
    if len(item_ids) != len(new_item_ids):
        raise ValueError("The number of items to be exchanged should match")
    difference, last_variant = swap_price(db, items, item_ids, new_item_ids, check_same=True)
    method = find_payment_method(db, order.user_id, payment_method_id)
    if is_gift_card(method) and method["balance"] < difference:
        raise ValueError("Insufficient gift card balance to pay for the new item")
    order.payment_history = [
        *order.payment_history,
        {
            "transaction_type": "payment" if difference > 0 else "refund",
            "amount": abs(difference),
            "payment_method_id": payment_method_id,
        },
    ]
    if is_gift_card(method):
        add_balance(method, -difference)
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        item = first_item(items, item_id)
        item["item_id"] = new_item_id
        if last_variant is not None:  # τ²'s rule: the last new variant's price and options
            item["price"] = last_variant.price
            item["options"] = dict(last_variant.options)
    order.items = compact_items(items, catalog)
    order.status = "pending (item modified)"
    return order_answer(db, order)


@retail_tool(writes=True)
def modify_pending_order_payment(db: EpisodeDB, order_id: str, payment_method_id: str) -> str:
    """Modify the payment method of a pending order.

    Args:
        order_id: The order id, e.g. '#W0000000'.
        payment_method_id: The new payment method id, e.g. 'gift_card_0000000'.
    """
    order = find_order(db, order_id)
    if "pending" not in order.status:
        raise ValueError("Non-pending order cannot be modified")
    method = find_payment_method(db, order.user_id, payment_method_id)
    history = order.payment_history
    if len(history) != 1 or history[0]["transaction_type"] != "payment":
        raise ValueError("There should be exactly one payment for a pending order")
    old_method_id = history[0]["payment_method_id"]
    if old_method_id == payment_method_id:
        raise ValueError("The new payment method should be different from the current one")
    amount = history[0]["amount"]
    if is_gift_card(method) and method["balance"] < amount:
        raise ValueError("Insufficient gift card balance to pay for the order")
    order.payment_history = [
        *history,
        {"transaction_type": "payment", "amount": amount, "payment_method_id": payment_method_id},
        {"transaction_type": "refund", "amount": amount, "payment_method_id": old_method_id},
    ]
    if is_gift_card(method):
        add_balance(method, -amount)
    old_method = find_payment_method(db, order.user_id, old_method_id)
    if is_gift_card(old_method):
        add_balance(old_method, amount)
    return order_answer(db, order)
