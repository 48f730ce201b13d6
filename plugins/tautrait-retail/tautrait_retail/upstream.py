"""Reading and writing the upstream tau-trait retail data shape.

Upstream's ``load_data`` returns ``{"orders": ..., "products": ..., "users": ...}``, one
JSON object per ``data/<name>.json`` file, each keyed by record id. :class:`RetailUpstream`
turns that dict into table rows and rebuilds it exactly from an episode database, so
``upstream_hash(export(db))`` equals upstream's data hash. Records must have upstream's
keys in upstream's order (orders may carry the keys upstream's tools append); anything
else is refused with a ``ValueError`` rather than silently reshaped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from types import SimpleNamespace
from typing import Any

from sqlalchemy import JSON, Boolean, text
from sqlmodel import SQLModel

from tautrait_core import JSONValue, UpstreamCodec, check_record_keys
from tautrait_retail.catalog import Catalog
from tautrait_retail.records import (
    ORDER_FIELDS,
    PRODUCT_FIELDS,
    USER_FIELDS,
    VARIANT_FIELDS,
    compact_items,
    order_record,
    user_record,
)
from tautrait_retail.schema import Order, Product, User, Variant

COLLECTIONS = ("orders", "products", "users")
"""The collections, in the order upstream's loader returns them."""


class RetailUpstream(UpstreamCodec):
    """The :class:`~tautrait_core.UpstreamFormat` of the retail domain."""

    domain = "retail"
    collections = COLLECTIONS

    def rows(self, data: Mapping[str, Any]) -> Iterator[SQLModel]:
        """Table rows for upstream data (a dict of the three collections)."""
        products, variants = _catalog_rows(self.collection(data, "products"))
        catalog = Catalog(products, variants)
        yield from products
        yield from variants
        yield from _user_rows(self.collection(data, "users"))
        yield from _order_rows(self.collection(data, "orders"), catalog)

    def export(self, db: Any) -> dict[str, Any]:
        """The episode database as upstream's dict of collections."""
        db.flush()
        catalog = Catalog(_all(db, Product), _all(db, Variant))
        return {
            "orders": {row.order_id: order_record(row, catalog) for row in _all(db, Order)},
            "products": {key: catalog.product_record(key) for key in catalog.product_names},
            "users": {row.user_id: user_record(row) for row in _all(db, User)},
        }


def _all(db: Any, model: type[SQLModel]) -> list[SimpleNamespace]:
    """Every row of ``model``, in upstream order, as plain objects with one attribute per
    column.

    SQLite renders each row as one JSON array (JSON columns embedded as they are stored),
    and one ``json.loads`` of all of them replaces a decode per value: the export runs once
    per compared episode, so its speed matters.
    """
    table = model.__table__  # type: ignore[attr-defined]
    columns = list(table.columns)
    rendered = ", ".join(
        f'json("{column.name}")'
        if isinstance(column.type, JSON | JSONValue)
        else f'"{column.name}"'
        for column in columns
    )
    statement = text(f'SELECT json_array({rendered}) FROM "{table.name}" ORDER BY position')
    arrays = json.loads("[" + ",".join(db.execute(statement).scalars()) + "]")
    names = [column.name for column in columns]
    flags = [column.name for column in columns if isinstance(column.type, Boolean)]
    rows = []
    for values in arrays:
        row = SimpleNamespace(**dict(zip(names, values, strict=True)))
        for name in flags:
            setattr(row, name, bool(getattr(row, name)))
        rows.append(row)
    return rows


def _check_types(where: str, values: dict[str, Any], types: dict[str, type | tuple]) -> None:
    for name, expected in types.items():
        value = values[name]
        if not isinstance(value, expected) or (expected is not bool and isinstance(value, bool)):
            raise ValueError(f"{where}: {name} holds {value!r} of an unexpected type")


def _catalog_rows(products: dict[str, Any]) -> tuple[list[Product], list[Variant]]:
    product_rows: list[Product] = []
    variant_rows: list[Variant] = []
    seen: dict[str, str] = {}
    for position, (product_id, record) in enumerate(products.items()):
        where = f"products[{product_id!r}]"
        check_record_keys(where, record, PRODUCT_FIELDS)
        _check_types(where, record, {"name": str, "product_id": str, "variants": dict})
        if record["product_id"] != product_id:
            raise ValueError(f"{where} has product_id {record['product_id']!r}")
        product_rows.append(Product(product_id=product_id, position=position, name=record["name"]))
        for variant_position, (item_id, variant) in enumerate(record["variants"].items()):
            spot = f"{where}.variants[{item_id!r}]"
            check_record_keys(spot, variant, VARIANT_FIELDS)
            _check_types(spot, variant, {"item_id": str, "options": dict, "available": bool})
            _check_types(spot, variant, {"price": (int, float)})
            if variant["item_id"] != item_id:
                raise ValueError(f"{spot} has item_id {variant['item_id']!r}")
            if item_id in seen:
                raise ValueError(f"{spot}: item id also used by product {seen[item_id]!r}")
            seen[item_id] = product_id
            variant_rows.append(
                Variant(
                    item_id=item_id,
                    product_id=product_id,
                    position=variant_position,
                    options=variant["options"],
                    available=variant["available"],
                    price=variant["price"],
                )
            )
    return product_rows, variant_rows


def _user_rows(users: dict[str, Any]) -> Iterator[User]:
    for position, (user_id, record) in enumerate(users.items()):
        where = f"users[{user_id!r}]"
        check_record_keys(where, record, USER_FIELDS)
        _check_types(
            where,
            record,
            {"name": dict, "address": dict, "email": str, "payment_methods": dict, "orders": list},
        )
        yield User(
            user_id=user_id,
            position=position,
            email_key=record["email"].lower(),
            **json.loads(json.dumps(record)),
        )


def _order_rows(orders: dict[str, Any], catalog: Catalog) -> Iterator[Order]:
    for position, (order_id, record) in enumerate(orders.items()):
        where = f"orders[{order_id!r}]"
        check_record_keys(where, record, ORDER_FIELDS, more_allowed=True)
        _check_types(
            where,
            record,
            {
                "order_id": str,
                "user_id": str,
                "address": dict,
                "items": list,
                "fulfillments": list,
                "status": str,
                "payment_history": list,
            },
        )
        if record["order_id"] != order_id:
            raise ValueError(f"{where} has order_id {record['order_id']!r}")
        record = json.loads(json.dumps(record))
        yield Order(
            order_id=order_id,
            position=position,
            user_id=record["user_id"],
            address=record["address"],
            items=compact_items(record["items"], catalog),
            fulfillments=record["fulfillments"],
            status=record["status"],
            payment_history=record["payment_history"],
            extra_fields={k: v for k, v in record.items() if k not in ORDER_FIELDS},
        )
