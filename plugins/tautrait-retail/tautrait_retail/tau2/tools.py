"""τ²-bench's retail tools (its ``RetailTools``) on the retail tables.

The same fifteen tools as τ-bench's retail less ``think``, with τ²'s behaviour (domain-spec
§5.3): errors raised with τ²'s texts, outputs as τ²'s models dump them, ``pending`` checks
that accept any status containing ``pending`` for address and payment changes, ``Variant
not found`` for a new item of another product, and the item-modification rule that gives
every modified item the price and options of the last new variant (the pending-order
tools are in :mod:`.pending`).
"""

from __future__ import annotations

import json

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import (
    Tau2Tool,
    tau2_address,
    tau2_calculate_tool,
    tau2_found,
    tau2_transfer_tool,
)
from tautrait_retail.catalog import catalog_of
from tautrait_retail.records import expand_items
from tautrait_retail.tau2.orders import (
    check_counts,
    find_order,
    find_payment_method,
    find_user,
    order_answer,
    order_in_status,
    retail_tool,
    swap_price,
    user_answer,
)
from tautrait_retail.tau2.pending import (
    cancel_pending_order,
    modify_pending_order_address,
    modify_pending_order_items,
    modify_pending_order_payment,
)
from tautrait_retail.tau2.records import product_record
from tautrait_retail.tools.lookup import product_types, user_id_by_email, user_id_by_name_zip
from tautrait_retail.tools.orders import (
    address_record,
    exchange_request,
    is_gift_card,
    return_request,
    short_gift_card,
)

calculate = tau2_calculate_tool(retail_tool)


@retail_tool(writes=True)
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
    order = order_in_status(db, order_id, "delivered", "Non-delivered order cannot be exchanged")
    items = expand_items(order.items, catalog_of(db))
    check_counts(items, item_ids, "Number of {item_id} not found.")
    if len(item_ids) != len(new_item_ids):
        raise ValueError("The number of items to be exchanged should match.")
    difference, _ = swap_price(db, items, item_ids, new_item_ids, check_same=False)
    difference = round(difference, 2)
    method = find_payment_method(db, order.user_id, payment_method_id)
    if short_gift_card(method, difference):
        raise ValueError("Insufficient gift card balance to pay for the price difference")
    order.sqlmodel_update(
        exchange_request(order.extra_fields, item_ids, new_item_ids, payment_method_id, difference)
    )
    return order_answer(db, order)


@retail_tool
def find_user_id_by_email(db: EpisodeDB, email: str) -> str:
    """Find a user id by email.

    Args:
        email: The email, e.g. 'something@example.com'.
    """
    return tau2_found(user_id_by_email(db, email), "User not found")


@retail_tool
def find_user_id_by_name_zip(db: EpisodeDB, first_name: str, last_name: str, zip: str) -> str:
    """Find a user id by first name, last name and zip code.

    Args:
        first_name: The first name, e.g. 'John'.
        last_name: The last name, e.g. 'Doe'.
        zip: The zip code, e.g. '12345'.
    """
    return tau2_found(user_id_by_name_zip(db, first_name, last_name, zip), "User not found")


@retail_tool
def get_order_details(db: EpisodeDB, order_id: str) -> str:
    """Get the status and details of an order.

    Args:
        order_id: The order id, e.g. '#W0000000'.
    """
    return order_answer(db, find_order(db, order_id))


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
def get_item_details(db: EpisodeDB, item_id: str) -> str:
    """Get the details of one item (a product variant): its options, availability and price.

    Args:
        item_id: The item id, e.g. '6086499569'.
    """
    catalog = catalog_of(db)
    variant = catalog.variants.get(item_id)
    if variant is None:
        raise ValueError("Item not found")
    record = product_record(catalog, variant.product_id)
    assert record is not None
    return json.dumps(record["variants"][item_id])


@retail_tool
def get_user_details(db: EpisodeDB, user_id: str) -> str:
    """Get the details of a user, including their orders.

    Args:
        user_id: The user id, e.g. 'sara_doe_496'.
    """
    return user_answer(find_user(db, user_id))


@retail_tool
def list_all_product_types(db: EpisodeDB) -> str:
    """List the name and product id of every product type."""
    return json.dumps(product_types(db))


@retail_tool(writes=True)
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
    user = find_user(db, user_id)
    user.address = tau2_address(address_record(address1, address2, city, state, country, zip))
    return user_answer(user)


@retail_tool(writes=True)
def return_delivered_order_items(
    db: EpisodeDB, order_id: str, item_ids: list[str], payment_method_id: str
) -> str:
    """Request a return of delivered items.

    Args:
        order_id: The order id, e.g. '#W0000000'.
        item_ids: The item ids to return.
        payment_method_id: Where the refund goes: the original payment method or a gift card.
    """
    order = order_in_status(db, order_id, "delivered", "Non-delivered order cannot be returned")
    method = find_payment_method(db, order.user_id, payment_method_id)
    original = order.payment_history[0]["payment_method_id"]
    if not is_gift_card(method) and payment_method_id != original:
        raise ValueError("Payment method should be the original payment method")
    items = expand_items(order.items, catalog_of(db))
    check_counts(items, item_ids, "Some item not found")
    order.sqlmodel_update(return_request(order.extra_fields, item_ids, payment_method_id))
    return order_answer(db, order)


transfer_to_human_agents = tau2_transfer_tool(retail_tool)


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

TAU3_TOOLS: list[Tau2Tool] = [
    *TOOLS[: TOOLS.index(get_product_details) + 1],
    get_item_details,
    *TOOLS[TOOLS.index(get_product_details) + 1 :],
]
"""τ³'s retail tools (τ²-bench v1.x): the fork's and ``get_item_details``."""
