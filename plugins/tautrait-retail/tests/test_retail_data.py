"""The built-in data is the seeded generator's output, and it is rich enough for tasks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tautrait_retail import datagen
from tautrait_retail.domain import DATA_DIR
from tautrait_retail.upstream import COLLECTIONS


def test_the_committed_data_equals_the_generator_output(tmp_path: Path) -> None:
    datagen.main([str(tmp_path)])
    for name in COLLECTIONS:
        committed = (DATA_DIR / f"{name}.json").read_text(encoding="utf-8")
        assert (tmp_path / f"{name}.json").read_text(encoding="utf-8") == committed, name


def test_another_seed_gives_other_data() -> None:
    assert datagen.generate(1) != datagen.generate(2)
    assert datagen.generate(3) == datagen.generate(3)


def test_the_data_is_consistent_and_varied() -> None:
    data = {name: json.loads((DATA_DIR / f"{name}.json").read_text()) for name in COLLECTIONS}
    orders, products, users = data["orders"], data["products"], data["users"]
    assert 40 <= len(users) <= 500 and 100 <= len(orders) <= 1000
    statuses = Counter(order["status"] for order in orders.values())
    assert set(statuses) == {"pending", "processed", "delivered", "cancelled"}
    variants = {
        item_id: (product_id, variant)
        for product_id, product in products.items()
        for item_id, variant in product["variants"].items()
    }
    assert any(not variant["available"] for _, variant in variants.values())
    sources = Counter(
        method["source"] for user in users.values() for method in user["payment_methods"].values()
    )
    assert set(sources) == {"credit_card", "paypal", "gift_card"}
    for order_id, order in orders.items():
        user = users[order["user_id"]]
        assert order_id in user["orders"]
        assert order["payment_history"][0]["payment_method_id"] in user["payment_methods"]
        for item in order["items"]:
            product_id, variant = variants[item["item_id"]]
            assert item["product_id"] == product_id
            assert item["price"] == variant["price"]
            assert isinstance(item["price"], float)
