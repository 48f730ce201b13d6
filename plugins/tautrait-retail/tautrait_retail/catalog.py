"""The catalog (products and their variants) as the tools read it.

Tools never change products or variants, so all episodes of one template share one
:class:`Catalog`, read from the first episode that needs it (:func:`catalog_of`): item
look-ups, product details and the product list then cost no SQL. The catalog tables stay in
the database, so they are part of every state hash and of the export (which reads its own
:class:`Catalog` from the episode).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlmodel import SQLModel

from tautrait_core import EpisodeDB, per_template
from tautrait_retail.schema import Product, Variant


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


@per_template
def catalog_of(db: EpisodeDB) -> Catalog:
    """The catalog of ``db``'s template, read on first use and then shared.

    No tool changes products or variants, so every episode of a template sees the
    template's catalog; reading it once keeps item look-ups free of SQL.
    """
    return Catalog(_rows(db, Product), _rows(db, Variant))


def _rows(db: EpisodeDB, model: type[SQLModel]) -> list[Any]:
    table = model.__table__  # type: ignore[attr-defined]
    return list(db.execute(select(*table.columns).order_by(table.c.position)))
