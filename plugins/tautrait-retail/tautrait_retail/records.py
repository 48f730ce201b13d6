"""Upstream records built from rows, and the compact form of order items.

Tools answer with ``json.dumps`` of upstream records and the codec exports them, so both
build them here, in upstream key order. An order row stores each item either as the bare
item id of the catalog variant it copies or as a full record (see :mod:`.schema`);
:func:`expand_items` and :func:`compact_items` convert between that form and upstream's
item records through an :class:`ItemCatalog`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any, Protocol

from tautrait_retail.schema import Order, OrderItem, Product, User, Variant

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
ITEM_FIELDS = ("name", "product_id", "item_id", "price", "options")


class ItemCatalog(Protocol):
    """Where the item record of a catalog variant comes from."""

    def item(self, item_id: str) -> dict[str, Any] | None:
        """A new item record copying variant ``item_id`` (``None`` if there is none)."""
        ...


class DictCatalog:
    """An :class:`ItemCatalog` over every variant, read once (for bulk conversion)."""

    def __init__(self, products: Iterable[Product], variants: Iterable[Variant]) -> None:
        names = {product.product_id: product.name for product in products}
        self._items = {
            variant.item_id: catalog_item(variant, names[variant.product_id])
            for variant in variants
            if variant.product_id in names
        }

    def item(self, item_id: str) -> dict[str, Any] | None:
        found = self._items.get(item_id)
        return None if found is None else {**found, "options": dict(found["options"])}


def catalog_item(variant: Variant, product_name: str) -> dict[str, Any]:
    """The order item that copies ``variant`` of the product called ``product_name``."""
    return {
        "name": product_name,
        "product_id": variant.product_id,
        "item_id": variant.item_id,
        "price": variant.price,
        "options": dict(variant.options),
    }


def expand_items(entries: Iterable[OrderItem], catalog: ItemCatalog) -> list[dict[str, Any]]:
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


def compact_items(items: Iterable[dict[str, Any]], catalog: ItemCatalog) -> list[OrderItem]:
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


def order_record(order: Order, catalog: ItemCatalog) -> dict[str, Any]:
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
    return {
        "name": user.name,
        "address": user.address,
        "email": user.email,
        "payment_methods": user.payment_methods,
        "orders": user.orders,
    }


def variant_record(variant: Variant) -> dict[str, Any]:
    """The upstream variant record inside a product's ``variants`` object."""
    return {
        "item_id": variant.item_id,
        "options": variant.options,
        "available": variant.available,
        "price": variant.price,
    }


def product_record(product: Product, variants: Iterable[Variant]) -> dict[str, Any]:
    """The upstream product record; ``variants`` in their upstream order."""
    return {
        "name": product.name,
        "product_id": product.product_id,
        "variants": {variant.item_id: variant_record(variant) for variant in variants},
    }
