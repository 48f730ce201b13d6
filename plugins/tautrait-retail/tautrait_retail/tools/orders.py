"""What the order tools share: the catalog, the order's owner, its JSON and item checks."""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlmodel import SQLModel

from tautrait_core.state import EpisodeDB, StateTemplate
from tautrait_retail.records import Catalog, order_record
from tautrait_retail.schema import Order, Product, User, Variant

_catalogs: weakref.WeakKeyDictionary[StateTemplate, Catalog] = weakref.WeakKeyDictionary()
_catalogs_lock = threading.Lock()


def catalog_of(db: EpisodeDB) -> Catalog:
    """The catalog of ``db``'s template, read on first use and then shared.

    No tool changes products or variants, so every episode of a template sees the
    template's catalog; reading it once keeps item look-ups free of SQL.
    """
    with _catalogs_lock:
        found = _catalogs.get(db.template)
    if found is not None:
        return found
    catalog = Catalog(_rows(db, Product), _rows(db, Variant))
    with _catalogs_lock:
        return _catalogs.setdefault(db.template, catalog)


def _rows(db: EpisodeDB, model: type[SQLModel]) -> list[Any]:
    table = model.__table__  # type: ignore[attr-defined]
    return list(db.execute(select(*table.columns).order_by(table.c.position)))


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
