"""τ²'s retail database shape: rows from ``db.json``, records as τ²'s models dump them (field
order, optional fields as ``null``, floats as floats), the export and its hash."""

from __future__ import annotations

from typing import Any

from sqlmodel import SQLModel

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import (
    tau2_address,
    tau2_db_hash,
    tau2_payment_methods,
    tau2_records_without_key,
    tau2_user_identity,
)
from tautrait_retail.catalog import Catalog
from tautrait_retail.records import ORDER_FIELDS, expand_items
from tautrait_retail.schema import Order, Product, User, Variant
from tautrait_retail.upstream import RetailUpstream, _all

ORDER_OPTIONAL_FIELDS = (
    "cancel_reason",
    "exchange_items",
    "exchange_new_items",
    "exchange_payment_method_id",
    "exchange_price_difference",
    "return_items",
    "return_payment_method_id",
)
"""τ²'s optional order fields, after the fields every order has, in model order."""
PAYMENT_FIELDS = {
    "credit_card": ("source", "id", "brand", "last_four"),
    "gift_card": ("source", "id", "balance"),
    "paypal": ("source", "id"),
}


def rows_from(data: dict[str, Any]) -> list[SQLModel]:
    """Table rows for τ²'s retail database (read through the retail plugin's own codec)."""
    users = tau2_records_without_key(data["users"], "user_id")
    orders = {
        key: {
            **{field: record[field] for field in ORDER_FIELDS},
            **{k: v for k, v in record.items() if k not in ORDER_FIELDS and v is not None},
        }
        for key, record in data["orders"].items()
    }
    upstream = {"orders": orders, "products": data["products"], "users": users}
    return RetailUpstream().to_rows(upstream)


def user_record(user: Any) -> dict[str, Any]:
    """τ²'s ``User`` dump of a user row."""
    return {
        **tau2_user_identity(user),
        "payment_methods": tau2_payment_methods(
            user.payment_methods, PAYMENT_FIELDS, money="balance"
        ),
        "orders": list(user.orders),
    }


def _payment(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "transaction_type": entry["transaction_type"],
        "amount": float(entry["amount"]),
        "payment_method_id": entry["payment_method_id"],
    }


def order_record(order: Any, catalog: Catalog) -> dict[str, Any]:
    """τ²'s ``Order`` dump of an order row."""
    extra = order.extra_fields
    record: dict[str, Any] = {
        "order_id": order.order_id,
        "user_id": order.user_id,
        "address": tau2_address(order.address),
        "items": [
            {
                "name": item["name"],
                "product_id": item["product_id"],
                "item_id": item["item_id"],
                "price": float(item["price"]),
                "options": dict(item["options"]),
            }
            for item in expand_items(order.items, catalog)
        ],
        "status": order.status,
        "fulfillments": [
            {"tracking_id": list(f["tracking_id"]), "item_ids": list(f["item_ids"])}
            for f in order.fulfillments
        ],
        "payment_history": [_payment(entry) for entry in order.payment_history],
    }
    for key in ORDER_OPTIONAL_FIELDS:
        record[key] = extra.get(key)
    if record["exchange_price_difference"] is not None:
        record["exchange_price_difference"] = float(record["exchange_price_difference"])
    return record


def product_record(catalog: Catalog, product_id: str) -> dict[str, Any] | None:
    """τ²'s ``Product`` dump (``None`` for an unknown product)."""
    product = catalog.product_record(product_id)
    if product is not None:
        for variant in product["variants"].values():
            variant["price"] = float(variant["price"])
    return product


def export(db: EpisodeDB) -> dict[str, Any]:
    """The episode database as τ²'s ``RetailDB.model_dump()``."""
    db.flush()
    catalog = Catalog(_all(db, Product), _all(db, Variant))
    return {
        "products": {key: product_record(catalog, key) for key in catalog.product_names},
        "users": {row.user_id: user_record(row) for row in _all(db, User)},
        "orders": {row.order_id: order_record(row, catalog) for row in _all(db, Order)},
    }


def agent_db_hash(db: EpisodeDB) -> str:
    """τ²'s hash of the retail database."""
    return tau2_db_hash(export(db))
