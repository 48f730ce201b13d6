"""Upstream records built from rows, and the compact form of order items.

Tools answer with ``json.dumps`` of upstream records and the codec exports them, so both
build them here, in upstream key order. An order row stores each item either as the bare
item id of the catalog variant it copies or as a full record (see :mod:`.schema`);
:func:`expand_items` and :func:`compact_items` convert between that form and upstream's
item records through a :class:`Catalog`.

Tools never change products or variants, so the tools of all episodes of one template
share one :class:`Catalog` read from it (see :func:`tautrait_retail.tools.orders.catalog_of`);
the export reads its own from the episode.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class CatalogVariant:
    """What the order tools need to know about a variant (its options are not to be changed)."""

    product_id: str
    options: dict[str, str]
    available: bool
    price: int | float


class Catalog:
    """Every product and variant, read once: the item records of catalog copies, variant
    look-ups and the upstream product records.

    Args:
        products: Rows with ``product_id`` and ``name``, in upstream order.
        variants: Rows with ``item_id``, ``product_id``, ``options``, ``available`` and
            ``price``, each product's variants in upstream order; variants of unknown
            products are left out.
    """

    def __init__(self, products: Iterable[Any], variants: Iterable[Any]) -> None:
        self.product_names: dict[str, str] = {row.product_id: row.name for row in products}
        self.variants: dict[str, CatalogVariant] = {}
        self.product_variants: dict[str, list[str]] = {key: [] for key in self.product_names}
        for row in variants:
            if row.product_id in self.product_names:
                variant = CatalogVariant(row.product_id, row.options, row.available, row.price)
                self.variants[row.item_id] = variant
                self.product_variants[row.product_id].append(row.item_id)

    def product_record(self, product_id: str) -> dict[str, Any] | None:
        """The upstream product record (a new object), or ``None`` for an unknown product."""
        if product_id not in self.product_names:
            return None
        variants = {}
        for item_id in self.product_variants[product_id]:
            variant = self.variants[item_id]
            variants[item_id] = {
                "item_id": item_id,
                "options": dict(variant.options),
                "available": variant.available,
                "price": variant.price,
            }
        return {
            "name": self.product_names[product_id],
            "product_id": product_id,
            "variants": variants,
        }

    def item(self, item_id: str) -> dict[str, Any] | None:
        variant = self.variants.get(item_id)
        if variant is None:
            return None
        return {
            "name": self.product_names[variant.product_id],
            "product_id": variant.product_id,
            "item_id": item_id,
            "price": variant.price,
            "options": dict(variant.options),
        }

    def variant_of(self, product_id: str, item_id: str) -> CatalogVariant | None:
        """Variant ``item_id`` of product ``product_id`` (``None`` if the product lacks it).

        Raises ``KeyError(product_id)`` for an unknown product, as upstream's
        ``products[product_id]["variants"]`` does.
        """
        if product_id not in self.product_names:
            raise KeyError(product_id)
        variant = self.variants.get(item_id)
        return variant if variant is not None and variant.product_id == product_id else None


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
    return {
        "name": user.name,
        "address": user.address,
        "email": user.email,
        "payment_methods": user.payment_methods,
        "orders": user.orders,
    }
