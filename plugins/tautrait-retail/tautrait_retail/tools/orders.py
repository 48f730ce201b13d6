"""What the order tools share: the order's owner, its JSON, the checks that open a change
(order status, items to swap, the paying method) and the records a change writes (address,
payment-history entries, the fields of an exchange or return request, gift-card balances).
τ²'s retail tools (:mod:`tautrait_retail.tau2`) write the same records with these helpers.

The tools read and write orders and users as plain rows (column name -> value, see
``EpisodeDB.read_row``) rather than ORM objects: loading and flushing ORM objects cost most
of a retail episode. A tool changes a row's values and writes the changed columns back with
``EpisodeDB.update_row``; what is stored is what the ORM would have stored."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tautrait_core import EpisodeDB
from tautrait_retail.catalog import Catalog, catalog_of
from tautrait_retail.records import ORDER_FIELDS, USER_FIELDS, expand_items
from tautrait_retail.schema import Order, User

Row = dict[str, Any]
"""A row as plain values: column name -> value."""


def order_json(db: EpisodeDB, order: Row) -> str:
    """``json.dumps`` of the upstream order record of an order row, as the order tools
    answer (the keys of ``records.order_record``)."""
    record = {name: order[name] for name in ORDER_FIELDS}
    record["items"] = expand_items(order["items"], catalog_of(db))
    return json.dumps({**record, **order["extra_fields"]})


def user_json(user: Row) -> str:
    """``json.dumps`` of the upstream user record of a user row (``records.user_record``)."""
    return json.dumps({name: user[name] for name in USER_FIELDS})


def save_order(db: EpisodeDB, order: Row, *names: str) -> None:
    """Write the columns ``names`` of the order row ``order`` back to the episode."""
    db.update_row(Order, order["order_id"], {name: order[name] for name in names})


def change_order(db: EpisodeDB, order: Row, changes: Row) -> None:
    """Set ``changes`` (column -> value) on the order row ``order`` and write them back."""
    order.update(changes)
    db.update_row(Order, order["order_id"], changes)


def save_payment_methods(db: EpisodeDB, user: Row) -> None:
    """Write the payment methods (gift card balances) of the user row ``user`` back."""
    db.update_row(User, user["user_id"], {"payment_methods": user["payment_methods"]})


def order_owner(db: EpisodeDB, order: Row) -> Row:
    """The row of the user who placed ``order``; ``KeyError`` if there is none (as upstream)."""
    user = db.read_row(User, order["user_id"])
    if user is None:
        raise KeyError(order["user_id"])
    return user


def missing_item(items: Sequence[dict[str, Any]], item_ids: Sequence[str]) -> str | None:
    """The first of ``item_ids`` asked for more often than the order holds it, if any."""
    held = [item["item_id"] for item in items]
    for item_id in item_ids:
        if item_ids.count(item_id) > held.count(item_id):
            return item_id
    return None


def first_item(items: Sequence[dict[str, Any]], item_id: str) -> dict[str, Any]:
    """The first item carrying ``item_id``; raises ``Item {item_id} not found`` (τ²'s text;
    the τ-Trait tools look items up only after :func:`missing_item` found them all)."""
    found = next((item for item in items if item["item_id"] == item_id), None)
    if found is None:
        raise ValueError(f"Item {item_id} not found")
    return found


def price_difference(
    catalog: Catalog,
    items: Sequence[dict[str, Any]],
    item_ids: Sequence[str],
    new_item_ids: Sequence[str],
) -> tuple[int | float, str | None]:
    """Sum of new minus old prices over the pairs, in pair order and unrounded, or the
    first new item id that is not an available variant of the old item's product."""
    difference: int | float = 0
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        item = first_item(items, item_id)
        variant = catalog.variant_of(item["product_id"], new_item_id)
        if variant is None or not variant.available:
            return difference, new_item_id
        difference += variant.price - item["price"]
    return difference, None


def order_in_status(db: EpisodeDB, order_id: str, status: str, refusal: str) -> Row | str:
    """The row of the order ``order_id`` if its status is ``status``; otherwise the error
    observation (``refusal`` for an order in another status)."""
    order = db.read_row(Order, order_id)
    if order is None:
        return "Error: order not found"
    if order["status"] != status:
        return refusal
    return order


@dataclass
class ItemSwap:
    """The checked swap of an order's items for other variants of the same products."""

    catalog: Catalog
    items: list[dict[str, Any]]
    """The order's items, one entry per unit."""
    difference: int | float
    """New minus old prices over the pairs, unrounded."""


def check_item_swap(
    db: EpisodeDB, order: Row, item_ids: Sequence[str], new_item_ids: Sequence[str]
) -> ItemSwap | str:
    """The swap of ``item_ids`` for ``new_item_ids`` (pairwise) in ``order``, or the error
    observation, checked in upstream's order (exchanges and pending modifications alike)."""
    catalog = catalog_of(db)
    items = expand_items(order["items"], catalog)
    missing = missing_item(items, item_ids)
    if missing is not None:
        return f"Error: {missing} not found"
    if len(item_ids) != len(new_item_ids):
        return "Error: the number of items to be exchanged should match"
    difference, unavailable = price_difference(catalog, items, item_ids, new_item_ids)
    if unavailable is not None:
        return f"Error: new item {unavailable} not found or available"
    return ItemSwap(catalog, items, difference)


def paying_method(
    owner: Row, payment_method_id: str, amount: int | float, shortfall: str
) -> dict[str, Any] | str:
    """The saved payment method of the user row ``owner`` that pays ``amount`` (part of the
    row), or the error observation (``shortfall`` for a gift card whose balance is below
    ``amount``)."""
    methods = owner["payment_methods"]
    if payment_method_id not in methods:
        return "Error: payment method not found"
    method = methods[payment_method_id]
    if short_gift_card(method, amount):
        return shortfall
    return method


def is_gift_card(method: dict[str, Any]) -> bool:
    """Whether a saved payment method is a gift card."""
    return method["source"] == "gift_card"


def short_gift_card(method: dict[str, Any], amount: int | float) -> bool:
    """Whether a saved payment method is a gift card whose balance cannot pay ``amount``."""
    return is_gift_card(method) and method["balance"] < amount


def address_record(
    address1: str, address2: str, city: str, state: str, country: str, zip: str
) -> dict[str, str]:
    """An address as the records store it (key order as upstream)."""
    return {
        "address1": address1,
        "address2": address2,
        "city": city,
        "state": state,
        "country": country,
        "zip": zip,
    }


def add_balance(method: dict[str, Any], amount: int | float) -> None:
    """Change a gift card's balance by ``amount``, rounded to cents as upstream does."""
    method["balance"] = round(method["balance"] + amount, 2)


GiftCardOf = Callable[[str], dict[str, Any] | None]
"""The saved gift card behind a payment method id, or ``None`` for another kind of method
(each flavour tells gift cards apart its own way: τ-bench by the id, τ² by the method)."""


def gift_card_by_id(methods: dict[str, Any]) -> GiftCardOf:
    """τ-bench's rule: a method whose id contains ``gift_card`` is the gift card of that id
    in ``methods`` (a user row's saved methods; ``KeyError`` if it is not there)."""
    return lambda method_id: methods[method_id] if "gift_card" in method_id else None


def charge_gift_card(method: dict[str, Any], amount: int | float) -> bool:
    """Take ``amount`` from the saved ``method`` at once if it is a gift card (a negative
    amount is paid back to it; other methods are settled through the payment history only);
    whether it was a gift card."""
    if not is_gift_card(method):
        return False
    add_balance(method, -amount)
    return True


def refund_gift_cards(history: Sequence[dict[str, Any]], gift_card_of: GiftCardOf) -> bool:
    """Pay every payment of ``history`` that a gift card made back to that card at once, in
    order (a refund to another method takes days: it is only recorded); whether any was."""
    refunded = False
    for payment in history:
        card = gift_card_of(payment["payment_method_id"])
        if card is not None:
            add_balance(card, payment["amount"])
            refunded = True
    return refunded


def transaction(
    transaction_type: str, amount: int | float, payment_method_id: str
) -> dict[str, Any]:
    """An entry of an order's payment history (key order as upstream)."""
    return {
        "transaction_type": transaction_type,
        "amount": amount,
        "payment_method_id": payment_method_id,
    }


def settlement(difference: int | float, payment_method_id: str) -> dict[str, Any]:
    """The entry that settles a price difference with ``payment_method_id``: a payment of a
    positive difference, otherwise a refund."""
    return transaction(
        "payment" if difference > 0 else "refund", abs(difference), payment_method_id
    )


def method_change(
    amount: int | float, payment_method_id: str, old_method_id: str
) -> list[dict[str, Any]]:
    """The entries that move a payment of ``amount`` to another method: the payment with
    ``payment_method_id``, then the refund to ``old_method_id``."""
    return [
        transaction("payment", amount, payment_method_id),
        transaction("refund", amount, old_method_id),
    ]


def request_columns(status: str, extra_fields: dict[str, Any], **recorded: Any) -> Row:
    """The order columns a request changes: the new ``status``, and the ``recorded`` fields
    added to the order's ``extra_fields`` (in the order given)."""
    return {"status": status, "extra_fields": {**extra_fields, **recorded}}


def cancellation(
    extra_fields: dict[str, Any], history: Sequence[dict[str, Any]], reason: str
) -> Row:
    """The order columns a cancellation changes: the status, the reason (an extra field)
    and the payment history, to which a refund of every payment is added."""
    refunds = [
        transaction("refund", payment["amount"], payment["payment_method_id"])
        for payment in history
    ]
    return {
        **request_columns("cancelled", extra_fields, cancel_reason=reason),
        "payment_history": [*history, *refunds],
    }


def exchange_request(
    extra_fields: dict[str, Any],
    item_ids: Sequence[str],
    new_item_ids: Sequence[str],
    payment_method_id: str,
    difference: int | float,
) -> Row:
    """The order columns an exchange request changes (item ids sorted, as upstream)."""
    return request_columns(
        "exchange requested",
        extra_fields,
        exchange_items=sorted(item_ids),
        exchange_new_items=sorted(new_item_ids),
        exchange_payment_method_id=payment_method_id,
        exchange_price_difference=difference,
    )


def return_request(
    extra_fields: dict[str, Any], item_ids: Sequence[str], payment_method_id: str
) -> Row:
    """The order columns a return request changes (item ids sorted, as upstream)."""
    return request_columns(
        "return requested",
        extra_fields,
        return_items=sorted(item_ids),
        return_payment_method_id=payment_method_id,
    )
