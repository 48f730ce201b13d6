"""τ²'s retail tools for pending orders: cancel, and change the address, payment or items."""

from __future__ import annotations

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import tau2_address
from tautrait_retail.catalog import catalog_of
from tautrait_retail.records import compact_items, expand_items
from tautrait_retail.tau2.orders import (
    MODIFY_REFUSAL,
    check_counts,
    find_payment_method,
    gift_card_of,
    order_answer,
    order_in_status,
    retail_tool,
    swap_price,
)
from tautrait_retail.tools.orders import (
    address_record,
    cancellation,
    charge_gift_card,
    first_item,
    method_change,
    refund_gift_cards,
    settlement,
    short_gift_card,
)
from tautrait_retail.tools.pending import CANCEL_REASONS


@retail_tool(writes=True)
def cancel_pending_order(db: EpisodeDB, order_id: str, reason: str) -> str:
    """Cancel a pending order; payments are refunded (gift cards at once).

    Args:
        order_id: The order id, e.g. '#W0000000'.
        reason: 'no longer needed' or 'ordered by mistake'.
    """
    order = order_in_status(db, order_id, "pending", "Non-pending order cannot be cancelled")
    if reason not in CANCEL_REASONS:
        raise ValueError("Invalid reason")
    history = order.payment_history
    refund_gift_cards(history, gift_card_of(db, order.user_id))
    order.sqlmodel_update(cancellation(order.extra_fields, history, reason))
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
    order = order_in_status(db, order_id, "pending", MODIFY_REFUSAL, loosely=True)
    order.address = tau2_address(address_record(address1, address2, city, state, country, zip))
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
    order = order_in_status(db, order_id, "pending", MODIFY_REFUSAL)
    catalog = catalog_of(db)
    items = expand_items(order.items, catalog)
    check_counts(items, item_ids, "{item_id} not found")
    if len(item_ids) != len(new_item_ids):
        raise ValueError("The number of items to be exchanged should match")
    difference, last_variant = swap_price(db, items, item_ids, new_item_ids, check_same=True)
    method = find_payment_method(db, order.user_id, payment_method_id)
    if short_gift_card(method, difference):
        raise ValueError("Insufficient gift card balance to pay for the new item")
    order.payment_history = [*order.payment_history, settlement(difference, payment_method_id)]
    charge_gift_card(method, difference)
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
    order = order_in_status(db, order_id, "pending", MODIFY_REFUSAL, loosely=True)
    method = find_payment_method(db, order.user_id, payment_method_id)
    history = order.payment_history
    if len(history) != 1 or history[0]["transaction_type"] != "payment":
        raise ValueError("There should be exactly one payment for a pending order")
    old_method_id = history[0]["payment_method_id"]
    if old_method_id == payment_method_id:
        raise ValueError("The new payment method should be different from the current one")
    amount = history[0]["amount"]
    if short_gift_card(method, amount):
        raise ValueError("Insufficient gift card balance to pay for the order")
    order.payment_history = [*history, *method_change(amount, payment_method_id, old_method_id)]
    charge_gift_card(method, amount)
    refund_gift_cards(history, gift_card_of(db, order.user_id))
    return order_answer(db, order)
