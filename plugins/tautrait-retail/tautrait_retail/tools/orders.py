"""What the order tools share: reading the catalog, the order's owner and its JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tautrait_core.state import EpisodeDB
from tautrait_retail.records import catalog_item, order_record
from tautrait_retail.schema import Order, Product, User, Variant


class EpisodeCatalog:
    """The :class:`~tautrait_retail.records.ItemCatalog` of an episode (primary-key reads)."""

    def __init__(self, db: EpisodeDB) -> None:
        self._db = db

    def item(self, item_id: str) -> dict[str, Any] | None:
        variant = self._db.get(Variant, item_id)
        if variant is None:
            return None
        product = self._db.get(Product, variant.product_id)
        return None if product is None else catalog_item(variant, product.name)


def order_json(db: EpisodeDB, order: Order) -> str:
    """``json.dumps`` of the upstream order record, as the order tools answer."""
    return json.dumps(order_record(order, EpisodeCatalog(db)))


def order_owner(db: EpisodeDB, order: Order) -> User:
    """The user who placed ``order``; ``KeyError`` if there is none (as upstream)."""
    user = db.get(User, order.user_id)
    if user is None:
        raise KeyError(order.user_id)
    return user


def product_variant(db: EpisodeDB, product_id: str, item_id: str) -> Variant | None:
    """Variant ``item_id`` of product ``product_id`` (``None`` if the product lacks it).

    Raises ``KeyError(product_id)`` when the product does not exist, as upstream's
    ``products[product_id]["variants"]`` does.
    """
    if db.get(Product, product_id) is None:
        raise KeyError(product_id)
    variant = db.get(Variant, item_id)
    return variant if variant is not None and variant.product_id == product_id else None


def missing_item(items: Sequence[dict[str, Any]], item_ids: Sequence[str]) -> str | None:
    """The first of ``item_ids`` asked for more often than the order holds it, if any."""
    held = [item["item_id"] for item in items]
    for item_id in item_ids:
        if item_ids.count(item_id) > held.count(item_id):
            return item_id
    return None


def first_item(items: Sequence[dict[str, Any]], item_id: str) -> dict[str, Any]:
    """The first item carrying ``item_id``."""
    return next(item for item in items if item["item_id"] == item_id)


def price_difference(
    db: EpisodeDB,
    items: Sequence[dict[str, Any]],
    item_ids: Sequence[str],
    new_item_ids: Sequence[str],
) -> tuple[int | float, str | None]:
    """Sum of new minus old prices over the pairs, in pair order and unrounded, or the
    first new item id that is not an available variant of the old item's product."""
    difference: int | float = 0
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        item = first_item(items, item_id)
        variant = product_variant(db, item["product_id"], new_item_id)
        if variant is None or not variant.available:
            return difference, new_item_id
        difference += variant.price - item["price"]
    return difference, None
