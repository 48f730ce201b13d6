"""Upstream records built from rows, and the compact form of order items.

Tools answer with ``json.dumps`` of upstream records and the codec exports them, so both
build them here, in upstream key order. An order row stores each item either as the bare
item id of the catalog variant it copies or as a full record (see :mod:`.schema`);
:func:`expand_items` and :func:`compact_items` convert between that form and upstream's
item records through a :class:`~tautrait_retail.catalog.Catalog`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

from tautrait_retail.catalog import Catalog
from tautrait_retail.schema import Order, OrderItem, User

ORDER_FIELDS = (
    "order_id",
    "user_id",
    "address",
    "items",
    "fulfillments",
    "status",
    "payment_history",
)
"""The keys every upstream order starts with; tools may append more after them."""
USER_FIELDS = ("name", "address", "email", "payment_methods", "orders")
PRODUCT_FIELDS = ("name", "product_id", "variants")
VARIANT_FIELDS = ("item_id", "options", "available", "price")


def expand_items(entries: Iterable[OrderItem], catalog: Catalog) -> list[dict[str, Any]]:
    """Upstream item records for stored order items (new objects, safe to change)."""
    items = []
    for entry in entries:
        if isinstance(entry, str):
            item = catalog.item(entry)
            if item is None:
                raise ValueError(f"order item {entry!r} is not in the catalog")
            items.append(item)
        else:
            items.append(copy.deepcopy(entry))
    return items


def compact_items(items: Iterable[dict[str, Any]], catalog: Catalog) -> list[OrderItem]:
    """The stored form of upstream item records: the item id where an item copies its
    catalog variant exactly (key order and number types included), else the record."""
    entries: list[OrderItem] = []
    for item in items:
        item_id = item.get("item_id")
        original = catalog.item(item_id) if isinstance(item_id, str) else None
        if original is not None and json.dumps(original) == json.dumps(item):
            entries.append(item_id)
        else:
            entries.append(copy.deepcopy(item))
    return entries


def order_record(order: Order, catalog: Catalog) -> dict[str, Any]:
    """The upstream order record (shares nested values with the row, except items)."""
    return {
        "order_id": order.order_id,
        "user_id": order.user_id,
        "address": order.address,
        "items": expand_items(order.items, catalog),
        "fulfillments": order.fulfillments,
        "status": order.status,
        "payment_history": order.payment_history,
        **order.extra_fields,
    }


def user_record(user: User) -> dict[str, Any]:
    """The upstream user record (which has no id inside; shares values with the row)."""
    return {key: getattr(user, key) for key in USER_FIELDS}
