"""What the order tools share: the order's owner, its JSON and the item checks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tautrait_core import EpisodeDB
from tautrait_retail.catalog import Catalog, catalog_of
from tautrait_retail.records import order_record
from tautrait_retail.schema import Order, User


def order_json(db: EpisodeDB, order: Order) -> str:
    """``json.dumps`` of the upstream order record, as the order tools answer."""
    return json.dumps(order_record(order, catalog_of(db)))


def order_owner(db: EpisodeDB, order: Order) -> User:
    """The user who placed ``order``; ``KeyError`` if there is none (as upstream)."""
    user = db.get(User, order.user_id)
    if user is None:
        raise KeyError(order.user_id)
    return user


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
