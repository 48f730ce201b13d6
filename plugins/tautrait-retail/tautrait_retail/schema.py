"""The retail database: products, their variants, users and orders.

Upstream keeps three JSON objects (``products``, ``users``, ``orders``) keyed by id. Each
record becomes one row; nested values live in JSON columns, which keep key order and tell
``25`` from ``25.0``. Two layouts keep an episode copy small and look-ups indexed:

* a product's ``variants`` object is a table of its own (:class:`Variant`, keyed by item
  id, with the product id and the variant's place in the object), so a variant is one
  primary-key read and a product's variants one indexed range;
* an order's ``items`` column holds, per item, either the bare item id (the item is an
  exact copy of that catalog variant: the product's name and id, the variant's id, price
  and options, in upstream key order) or, for any other item, the full record. Every item
  of the upstream data and every item the tools write is such a copy, so an order stores a
  list of ids; :mod:`tautrait_retail.records` expands them back.

``position`` is a record's place in its upstream object, so tools scan users in file order
and the export writes every object back in that order. Keys that upstream's tools append to
an order (``cancel_reason``, ``return_items``, ...) are kept, in the order they were added,
in the order's ``extra_fields`` object.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Index, text
from sqlmodel import JSON, Field, SQLModel

from tautrait_core import JSONValue

OrderItem = str | dict[str, Any]
"""An order item as stored: a catalog item id or a full upstream item record."""


class Product(SQLModel, table=True):
    """A product type of the catalog, e.g. 'Desk Lamp' (its variants are :class:`Variant`)."""

    __tablename__ = "retail_products"
    __table_args__ = {"sqlite_with_rowid": False}

    product_id: str = Field(primary_key=True)
    position: int
    name: str


class Variant(SQLModel, table=True):
    """One purchasable variant of a product: its options, price and availability."""

    __tablename__ = "retail_variants"
    __table_args__ = (
        Index("ix_retail_variants_product", "product_id", "position"),
        {"sqlite_with_rowid": False},
    )

    item_id: str = Field(primary_key=True)
    product_id: str
    position: int
    options: dict[str, str] = Field(sa_type=JSON)
    available: bool
    price: float = Field(sa_type=JSONValue)


class User(SQLModel, table=True):
    """A customer: name, default address, email, saved payment methods and order ids.

    ``email_key`` is the lower-cased email (the indexed key of the email look-up); the
    address's zip code has an expression index for the name-and-zip look-up.
    """

    __tablename__ = "retail_users"
    __table_args__ = (
        Index("ix_retail_users_zip", text("json_extract(address, '$.zip')")),
        {"sqlite_with_rowid": False},
    )

    user_id: str = Field(primary_key=True)
    position: int
    name: dict[str, Any] = Field(sa_type=JSON)
    address: dict[str, Any] = Field(sa_type=JSON)
    email: str
    email_key: str = Field(index=True)
    payment_methods: dict[str, dict[str, Any]] = Field(sa_type=JSON)
    orders: list[str] = Field(sa_type=JSON)


class Order(SQLModel, table=True):
    """An order: shipping address, items, fulfillments, status and payment history."""

    __tablename__ = "retail_orders"
    __table_args__ = {"sqlite_with_rowid": False}

    order_id: str = Field(primary_key=True)
    position: int
    user_id: str
    address: dict[str, Any] = Field(sa_type=JSON)
    items: list[OrderItem] = Field(sa_type=JSON)
    fulfillments: list[dict[str, Any]] = Field(sa_type=JSON)
    status: str
    payment_history: list[dict[str, Any]] = Field(sa_type=JSON)
    extra_fields: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)


TABLES: list[type[SQLModel]] = [Product, Variant, User, Order]
"""Every table of the domain."""
