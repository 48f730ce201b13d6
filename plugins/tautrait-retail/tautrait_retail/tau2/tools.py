"""τ²-bench's retail tools (its ``RetailTools``) on the retail tables.

The same fifteen tools as τ-bench's retail less ``think``, with τ²'s behaviour (domain-spec
§5.3): errors raised with τ²'s texts, outputs as τ²'s models dump them, ``pending`` checks
that accept any status containing ``pending`` for address and payment changes, ``Variant
not found`` for a new item of another product, and the item-modification rule that gives
every modified item the price and options of the last new variant.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import select

from tautrait_core import EpisodeDB, Tau2Tool, tau2_calculate, tau2_tool
from tautrait_retail.catalog import CatalogVariant, catalog_of
from tautrait_retail.records import compact_items, expand_items
from tautrait_retail.schema import Order, User
from tautrait_retail.tau2.records import order_record, product_record, user_record

retail_tool = tau2_tool("RetailTools")
CANCEL_REASONS = ("no longer needed", "ordered by mistake")


def _order(db: EpisodeDB, order_id: str) -> Order:
    order = db.get(Order, order_id)
    if order is None:
        raise ValueError("Order not found")
    return order


def _user(db: EpisodeDB, user_id: str) -> User:
    user = db.get(User, user_id)
    if user is None:
        raise ValueError("User not found")
    return user


def _variant(db: EpisodeDB, product_id: str, item_id: str) -> CatalogVariant:
    catalog = catalog_of(db)
    if product_id not in catalog.product_names:
        raise ValueError("Product not found")
    variant = catalog.variants.get(item_id)
    if variant is None or variant.product_id != product_id:
        raise ValueError("Variant not found")
    return variant


def _payment_method(db: EpisodeDB, user_id: str, payment_method_id: str) -> dict[str, Any]:
    methods = _user(db, user_id).payment_methods
    if payment_method_id not in methods:
        raise ValueError("Payment method not found")
    return methods[payment_method_id]


def _is_gift_card(method: dict[str, Any]) -> bool:
    return method.get("source") == "gift_card"


def _add_balance(method: dict[str, Any], amount: float) -> None:
    method["balance"] = round(method["balance"] + amount, 2)


def _answer(db: EpisodeDB, order: Order) -> str:
    return json.dumps(order_record(order, catalog_of(db)))


def _count_check(items: list[dict[str, Any]], item_ids: list[str], message: str) -> None:
    held = [item["item_id"] for item in items]
    for item_id in item_ids:
        if item_ids.count(item_id) > held.count(item_id):
            raise ValueError(message.format(item_id=item_id))


def _first(items: list[dict[str, Any]], item_id: str) -> dict[str, Any]:
    found = next((item for item in items if item["item_id"] == item_id), None)
    if found is None:
        raise ValueError(f"Item {item_id} not found")
    return found


@retail_tool
def calculate(db: EpisodeDB, expression: str) -> str:
    """Calculate the result of a mathematical expression.

    Args:
        expression: The expression, e.g. '2 + 2'; numbers, + - * / ( ) . and spaces only.
    """
    return tau2_calculate(expression)


@retail_tool
def cancel_pending_order(db: EpisodeDB, order_id: str, reason: str) -> str:
    """Cancel a pending order; payments are refunded (gift cards at once).

    Args:
        order_id: The order id, e.g. '#W0000000'.
        reason: 'no longer needed' or 'ordered by mistake'.
    """
    order = _order(db, order_id)
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
        method = _payment_method(db, _user(db, order.user_id).user_id, method_id)
        if _is_gift_card(method):
            _add_balance(method, payment["amount"])
    order.status = "cancelled"
    order.extra_fields = {**order.extra_fields, "cancel_reason": reason}
    order.payment_history = [*order.payment_history, *refunds]
    return _answer(db, order)


def _swap_price(
    db: EpisodeDB,
    items: list[dict[str, Any]],
    item_ids: list[str],
    new_item_ids: list[str],
    check_same: bool,
) -> tuple[float, CatalogVariant | None]:
    difference: float = 0
    variant = None
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        if check_same and item_id == new_item_id:
            raise ValueError("The new item id should be different from the old item id")
        item = _first(items, item_id)
        variant = _variant(db, item["product_id"], new_item_id)
        if not variant.available:
            raise ValueError(f"New item {new_item_id} not found or available")
        difference += variant.price - item["price"]
    return difference, variant


@retail_tool
def exchange_delivered_order_items(
    db: EpisodeDB,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> str:
    """Request an exchange of delivered items for other variants of the same products.

    Args:
        order_id: The order id, e.g. '#W0000000'.
        item_ids: The item ids to exchange.
        new_item_ids: The new item ids, pairwise with item_ids.
        payment_method_id: The payment method that settles the price difference.
    """
    order = _order(db, order_id)
    if order.status != "delivered":
        raise ValueError("Non-delivered order cannot be exchanged")
    items = expand_items(order.items, catalog_of(db))
    _count_check(items, item_ids, "Number of {item_id} not found.")
    if len(item_ids) != len(new_item_ids):
        raise ValueError("The number of items to be exchanged should match.")
    difference, _ = _swap_price(db, items, item_ids, new_item_ids, check_same=False)
    difference = round(difference, 2)
    method = _payment_method(db, order.user_id, payment_method_id)
    if _is_gift_card(method) and method["balance"] < difference:
        raise ValueError("Insufficient gift card balance to pay for the price difference")
    order.status = "exchange requested"
    order.extra_fields = {
        **order.extra_fields,
        "exchange_items": sorted(item_ids),
        "exchange_new_items": sorted(new_item_ids),
        "exchange_payment_method_id": payment_method_id,
        "exchange_price_difference": difference,
    }
    return _answer(db, order)


@retail_tool
def find_user_id_by_email(db: EpisodeDB, email: str) -> str:
    """Find a user id by email.

    Args:
        email: The email, e.g. 'something@example.com'.
    """
    statement = select(User.user_id).where(User.email_key == email.lower())
    found = db.exec(statement.order_by(User.position)).first()
    if found is None:
        raise ValueError("User not found")
    return found


@retail_tool
def find_user_id_by_name_zip(db: EpisodeDB, first_name: str, last_name: str, zip: str) -> str:
    """Find a user id by first name, last name and zip code.

    Args:
        first_name: The first name, e.g. 'John'.
        last_name: The last name, e.g. 'Doe'.
        zip: The zip code, e.g. '12345'.
    """
    users = db.exec(select(User).order_by(User.position))
    for user in users:
        if (
            user.name["first_name"].lower() == first_name.lower()
            and user.name["last_name"].lower() == last_name.lower()
            and user.address["zip"] == zip
        ):
            return user.user_id
    raise ValueError("User not found")


@retail_tool
def get_order_details(db: EpisodeDB, order_id: str) -> str:
    """Get the status and details of an order.

    Args:
        order_id: The order id, e.g. '#W0000000'.
    """
    return _answer(db, _order(db, order_id))


@retail_tool
def get_product_details(db: EpisodeDB, product_id: str) -> str:
    """Get the inventory details of a product.

    Args:
        product_id: The product id, e.g. '6086499569'.
    """
    product = product_record(catalog_of(db), product_id)
    if product is None:
        raise ValueError("Product not found")
    return json.dumps(product)


@retail_tool
def get_user_details(db: EpisodeDB, user_id: str) -> str:
    """Get the details of a user, including their orders.

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
    """
    return json.dumps(user_record(_user(db, user_id)))


@retail_tool
def list_all_product_types(db: EpisodeDB) -> str:
    """List the name and product id of every product type."""
    names = catalog_of(db).product_names
    return json.dumps({name: product_id for product_id, name in names.items()}, sort_keys=True)


def _new_address(**fields: str) -> dict[str, str]:
    return {key: fields[key] for key in ("address1", "address2", "city", "country", "state", "zip")}


@retail_tool
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
    order = _order(db, order_id)
    if "pending" not in order.status:
        raise ValueError("Non-pending order cannot be modified")
    order.address = _new_address(
        address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
    )
    return _answer(db, order)


@retail_tool
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
    order = _order(db, order_id)
    if order.status != "pending":
        raise ValueError("Non-pending order cannot be modified")
    catalog = catalog_of(db)
    items = expand_items(order.items, catalog)
    _count_check(items, item_ids, "{item_id} not found")
    if len(item_ids) != len(new_item_ids):
        raise ValueError("The number of items to be exchanged should match")
    difference, last_variant = _swap_price(db, items, item_ids, new_item_ids, check_same=True)
    method = _payment_method(db, order.user_id, payment_method_id)
    if _is_gift_card(method) and method["balance"] < difference:
        raise ValueError("Insufficient gift card balance to pay for the new item")
    order.payment_history = [
        *order.payment_history,
        {
            "transaction_type": "payment" if difference > 0 else "refund",
            "amount": abs(difference),
            "payment_method_id": payment_method_id,
        },
    ]
    if _is_gift_card(method):
        _add_balance(method, -difference)
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        item = _first(items, item_id)
        item["item_id"] = new_item_id
        if last_variant is not None:  # τ²'s rule: the last new variant's price and options
            item["price"] = last_variant.price
            item["options"] = dict(last_variant.options)
    order.items = compact_items(items, catalog)
    order.status = "pending (item modified)"
    return _answer(db, order)


@retail_tool
def modify_pending_order_payment(db: EpisodeDB, order_id: str, payment_method_id: str) -> str:
    """Modify the payment method of a pending order.

    Args:
        order_id: The order id, e.g. '#W0000000'.
        payment_method_id: The new payment method id, e.g. 'gift_card_0000000'.
    """
    order = _order(db, order_id)
    if "pending" not in order.status:
        raise ValueError("Non-pending order cannot be modified")
    method = _payment_method(db, order.user_id, payment_method_id)
    history = order.payment_history
    if len(history) != 1 or history[0]["transaction_type"] != "payment":
        raise ValueError("There should be exactly one payment for a pending order")
    old_method_id = history[0]["payment_method_id"]
    if old_method_id == payment_method_id:
        raise ValueError("The new payment method should be different from the current one")
    amount = history[0]["amount"]
    if _is_gift_card(method) and method["balance"] < amount:
        raise ValueError("Insufficient gift card balance to pay for the order")
    order.payment_history = [
        *history,
        {"transaction_type": "payment", "amount": amount, "payment_method_id": payment_method_id},
        {"transaction_type": "refund", "amount": amount, "payment_method_id": old_method_id},
    ]
    if _is_gift_card(method):
        _add_balance(method, -amount)
    old_method = _payment_method(db, order.user_id, old_method_id)
    if _is_gift_card(old_method):
        _add_balance(old_method, amount)
    return _answer(db, order)


@retail_tool
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
    """Modify the default address of a user.

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
        address1: The first line, e.g. '123 Main St'.
        address2: The second line, e.g. 'Apt 1' or ''.
        city: The city, e.g. 'San Francisco'.
        state: The state, e.g. 'CA'.
        country: The country, e.g. 'USA'.
        zip: The zip code, e.g. '12345'.
    """
    user = _user(db, user_id)
    user.address = _new_address(
        address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
    )
    return json.dumps(user_record(user))


@retail_tool
def return_delivered_order_items(
    db: EpisodeDB, order_id: str, item_ids: list[str], payment_method_id: str
) -> str:
    """Request a return of delivered items.

    Args:
        order_id: The order id, e.g. '#W0000000'.
        item_ids: The item ids to return.
        payment_method_id: Where the refund goes: the original payment method or a gift card.
    """
    order = _order(db, order_id)
    if order.status != "delivered":
        raise ValueError("Non-delivered order cannot be returned")
    method = _payment_method(db, _user(db, order.user_id).user_id, payment_method_id)
    original = order.payment_history[0]["payment_method_id"]
    if not _is_gift_card(method) and payment_method_id != original:
        raise ValueError("Payment method should be the original payment method")
    items = expand_items(order.items, catalog_of(db))
    _count_check(items, item_ids, "Some item not found")
    order.status = "return requested"
    order.extra_fields = {
        **order.extra_fields,
        "return_items": sorted(item_ids),
        "return_payment_method_id": payment_method_id,
    }
    return _answer(db, order)


@retail_tool
def transfer_to_human_agents(db: EpisodeDB, summary: str) -> str:
    """Transfer the user to a human agent, with a summary of their issue.

    Args:
        summary: A summary of the user's issue.
    """
    return "Transfer successful"


TOOLS: list[Tau2Tool] = [
    calculate,
    cancel_pending_order,
    exchange_delivered_order_items,
    find_user_id_by_email,
    find_user_id_by_name_zip,
    get_order_details,
    get_product_details,
    get_user_details,
    list_all_product_types,
    modify_pending_order_address,
    modify_pending_order_items,
    modify_pending_order_payment,
    modify_user_address,
    return_delivered_order_items,
    transfer_to_human_agents,
]
WRITE_TOOLS = tuple(
    t.name for t in TOOLS if t.name.startswith(("cancel", "exchange", "modify", "return"))
)
