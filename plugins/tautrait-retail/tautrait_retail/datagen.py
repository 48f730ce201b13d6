"""Deterministic generator of the built-in retail data.

``python -m tautrait_retail.datagen [FOLDER]`` writes ``orders.json``, ``products.json``
and ``users.json`` in the upstream shape (default: this package's ``data/`` folder). The
same seed always gives the same files; the committed data is this generator's output.
Names, places and products are lists written for this project.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

from tautrait_core import write_data_command

SEED = 20261122
USER_COUNT = 64
ORDER_COUNT = 160

PRODUCTS: dict[str, dict[str, list[str]]] = {
    "Desk Lamp": {
        "color": ["black", "white", "brass"],
        "bulb": ["LED", "halogen"],
        "arm": ["fixed", "swing"],
    },
    "Water Bottle": {
        "capacity": ["500ml", "750ml", "1000ml"],
        "material": ["stainless steel", "glass", "plastic"],
    },
    "Running Shoes": {
        "size": ["7", "8", "9", "10", "11"],
        "color": ["red", "navy", "grey"],
    },
    "Backpack": {
        "size": ["small", "medium", "large"],
        "color": ["olive", "black", "sand"],
        "laptop sleeve": ["yes", "no"],
    },
    "Coffee Grinder": {
        "grinder type": ["burr", "blade"],
        "capacity": ["150g", "300g"],
        "color": ["silver", "matte black"],
    },
    "Yoga Mat": {
        "thickness": ["4mm", "6mm", "8mm"],
        "material": ["cork", "rubber", "TPE"],
    },
    "Wireless Earbuds": {
        "color": ["white", "black", "teal"],
        "noise cancelling": ["yes", "no"],
        "case": ["standard", "wireless charging"],
    },
    "Electric Kettle": {
        "capacity": ["1L", "1.7L"],
        "material": ["glass", "stainless steel"],
        "temperature control": ["yes", "no"],
    },
    "Office Chair": {
        "color": ["charcoal", "blue", "beige"],
        "armrests": ["fixed", "adjustable"],
        "headrest": ["yes", "no"],
    },
    "Bluetooth Speaker": {
        "color": ["orange", "black", "forest green"],
        "waterproof": ["yes", "no"],
        "battery": ["10h", "20h"],
    },
    "Air Purifier": {
        "room size": ["small", "medium", "large"],
        "filter": ["HEPA", "carbon"],
    },
    "Camping Tent": {
        "capacity": ["2-person", "4-person", "6-person"],
        "season": ["3-season", "4-season"],
        "color": ["green", "orange"],
    },
    "Blender": {
        "power": ["600W", "1000W", "1500W"],
        "jar": ["glass", "plastic"],
        "color": ["red", "white"],
    },
    "Wall Clock": {
        "diameter": ["25cm", "35cm"],
        "style": ["modern", "vintage", "minimal"],
        "movement": ["silent", "ticking"],
    },
    "Rain Jacket": {
        "size": ["S", "M", "L", "XL"],
        "color": ["yellow", "navy", "black"],
    },
    "Cast Iron Skillet": {
        "diameter": ["20cm", "26cm", "30cm"],
        "pre-seasoned": ["yes", "no"],
    },
}
"""Product names and their option values (each variant picks one value per option)."""

PRICE_RANGES: dict[str, tuple[int, int]] = {
    "Desk Lamp": (24, 95),
    "Water Bottle": (12, 48),
    "Running Shoes": (60, 180),
    "Backpack": (35, 160),
    "Coffee Grinder": (30, 240),
    "Yoga Mat": (18, 110),
    "Wireless Earbuds": (45, 260),
    "Electric Kettle": (25, 130),
    "Office Chair": (110, 520),
    "Bluetooth Speaker": (30, 210),
    "Air Purifier": (80, 450),
    "Camping Tent": (90, 640),
    "Blender": (40, 380),
    "Wall Clock": (15, 90),
    "Rain Jacket": (45, 210),
    "Cast Iron Skillet": (22, 85),
}

FIRST_NAMES = [
    "Maya", "Tomas", "Priya", "Jonah", "Leila", "Arjun", "Nadia", "Felix", "Imani", "Oskar",
    "Rosa", "Kenji", "Amara", "Dmitri", "Lucia", "Ravi", "Hana", "Elias", "Zara", "Mateo",
    "Ingrid", "Kwame", "Sofia", "Bruno", "Anika", "Theo", "Yara", "Caleb", "Mei", "Omar",
]  # fmt: skip
LAST_NAMES = [
    "Ortiz", "Lindqvist", "Raman", "Whitfield", "Haddad", "Mehta", "Kowalski", "Brandt",
    "Okafor", "Nieminen", "Delgado", "Sato", "Mensah", "Volkov", "Ferreira", "Iyer", "Park",
    "Novak", "Quinn", "Castillo", "Berg", "Asante", "Moretti", "Keller", "Das", "Walsh",
]  # fmt: skip
PLACES = [
    ("Portland", "OR", "972"), ("Madison", "WI", "537"), ("Austin", "TX", "787"),
    ("Raleigh", "NC", "276"), ("Boise", "ID", "837"), ("Tucson", "AZ", "857"),
    ("Burlington", "VT", "054"), ("Omaha", "NE", "681"), ("Savannah", "GA", "314"),
    ("Spokane", "WA", "992"), ("Albany", "NY", "122"), ("Richmond", "VA", "232"),
]  # fmt: skip
STREETS = [
    "Birch Lane", "Harbor Street", "Maple Avenue", "Quarry Road", "Elm Court", "Willow Way",
    "Cedar Drive", "Lakeview Terrace", "Orchard Street", "Mill Road", "Juniper Place",
    "Summit Avenue", "Foxglove Lane", "Canal Street",
]  # fmt: skip
CARD_BRANDS = ["visa", "mastercard", "amex", "discover"]
STATUSES = ["pending"] * 7 + ["processed"] * 2 + ["delivered"] * 7 + ["cancelled"] * 2


def generate(seed: int = SEED) -> dict[str, dict[str, Any]]:
    """The three collections, in the upstream shape."""
    rng = random.Random(seed)
    products = _products(rng)
    users = _users(rng)
    orders = _orders(rng, products, users)
    return {"orders": orders, "products": products, "users": users}


def _digits(rng: random.Random, count: int, used: set[str]) -> str:
    while True:
        value = "".join(rng.choice("0123456789") for _ in range(count))
        if value[0] != "0" and value not in used:
            used.add(value)
            return value


def _products(rng: random.Random) -> dict[str, Any]:
    used: set[str] = set()
    products: dict[str, Any] = {}
    for name, options in PRODUCTS.items():
        product_id = _digits(rng, 10, used)
        combinations = list(itertools.product(*options.values()))
        chosen = rng.sample(combinations, k=min(len(combinations), rng.randint(5, 9)))
        low, high = PRICE_RANGES[name]
        variants = {}
        for values in chosen:
            item_id = _digits(rng, 10, used)
            variants[item_id] = {
                "item_id": item_id,
                "options": dict(zip(options, values, strict=True)),
                "available": rng.random() < 0.7,
                "price": float(round(rng.uniform(low, high), 2)),
            }
        products[product_id] = {"name": name, "product_id": product_id, "variants": variants}
    return products


def _address(rng: random.Random) -> dict[str, str]:
    city, state, zip_prefix = rng.choice(PLACES)
    return {
        "address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}",
        "address2": rng.choice(
            ["", "", f"Apt {rng.randint(1, 40)}", f"Suite {rng.randint(100, 999)}"]
        ),
        "city": city,
        "country": "USA",
        "state": state,
        "zip": f"{zip_prefix}{rng.randint(0, 99):02d}",
    }


def _users(rng: random.Random) -> dict[str, Any]:
    used: set[str] = set()
    users: dict[str, Any] = {}
    names = rng.sample(list(itertools.product(FIRST_NAMES, LAST_NAMES)), k=USER_COUNT)
    for first, last in names:
        number = _digits(rng, 4, used)
        user_id = f"{first.lower()}_{last.lower()}_{number}"
        methods: dict[str, Any] = {}
        for source in rng.sample(["credit_card", "paypal", "gift_card"], k=rng.randint(1, 3)):
            method_id = f"{source}_{_digits(rng, 7, used)}"
            if source == "credit_card":
                method = {
                    "source": source,
                    "brand": rng.choice(CARD_BRANDS),
                    "last_four": _digits(rng, 4, set()),
                    "id": method_id,
                }
            elif source == "gift_card":
                method = {"source": source, "balance": rng.randint(0, 300), "id": method_id}
            else:
                method = {"source": source, "id": method_id}
            methods[method_id] = method
        users[user_id] = {
            "name": {"first_name": first, "last_name": last},
            "address": _address(rng),
            "email": f"{first.lower()}.{last.lower()}{number}@example.com",
            "payment_methods": methods,
            "orders": [],
        }
    return users


def _orders(rng: random.Random, products: dict[str, Any], users: dict[str, Any]) -> dict[str, Any]:
    used: set[str] = set()
    variants = [
        (product, variant)
        for product in products.values()
        for variant in product["variants"].values()
    ]
    orders: dict[str, Any] = {}
    user_ids = list(users)
    for _ in range(ORDER_COUNT):
        user_id = rng.choice(user_ids)
        user = users[user_id]
        order_id = f"#W{_digits(rng, 7, used)}"
        items = [
            {
                "name": product["name"],
                "product_id": product["product_id"],
                "item_id": variant["item_id"],
                "price": variant["price"],
                "options": dict(variant["options"]),
            }
            for product, variant in rng.sample(variants, k=rng.choice([1, 1, 2, 2, 3, 4]))
        ]
        status = rng.choice(STATUSES)
        fulfillments = []
        if status in ("processed", "delivered"):
            fulfillments.append(
                {
                    "tracking_id": [_digits(rng, 12, used)],
                    "item_ids": [item["item_id"] for item in items],
                }
            )
        method_id = rng.choice(list(user["payment_methods"]))
        total = round(sum(item["price"] for item in items), 2)
        history = [{"transaction_type": "payment", "amount": total, "payment_method_id": method_id}]
        if status == "cancelled":
            history.append(
                {"transaction_type": "refund", "amount": total, "payment_method_id": method_id}
            )
        address = user["address"] if rng.random() < 0.85 else _address(rng)
        orders[order_id] = {
            "order_id": order_id,
            "user_id": user_id,
            "address": dict(address),
            "items": items,
            "fulfillments": fulfillments,
            "status": status,
            "payment_history": history,
        }
        user["orders"].append(order_id)
    return orders


def main(argv: list[str] | None = None) -> list[Path]:
    """Command line: ``python -m tautrait_retail.datagen [FOLDER]``; returns the paths written."""
    return write_data_command(generate, Path(__file__).parent, argv)


if __name__ == "__main__":
    main()
