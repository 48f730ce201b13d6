"""Deterministic generator of the built-in telecom data.

``python -m tautrait_telecom.datagen [FOLDER]`` writes ``customers.json``, ``services.json``,
``devices.json``, ``billing.json`` and ``support_tickets.json`` in the upstream shape
(default: this package's ``data/`` folder). The same seed always gives the same files; the
committed data is this generator's output. Names, places, plans and devices are lists
written for this project.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

from tautrait_core import write_data_command

SEED = 20261122
CUSTOMER_COUNT = 80
TICKET_COUNT = 30
BILL_DAY = dt.date(2026, 11, 1)
"""The first day of the current billing month; bills and payments are dated around it."""

SERVICES: list[tuple[str, str, str, float]] = [
    ("mobile_essential", "Essential Mobile", "mobile", 30.0),
    ("mobile_unlimited_plus", "Unlimited Plus Mobile", "mobile", 75.0),
    ("mobile_unlimited_max", "Unlimited Max Mobile", "mobile", 95.0),
    ("mobile_family_3lines", "Family Share - 3 Lines", "mobile", 140.0),
    ("mobile_golden_years", "Golden Years Mobile", "mobile", 40.0),
    ("mobile_business_5lines", "Business Mobile - 5 Lines", "mobile", 260.0),
    ("internet_fiber_300", "Fiber Internet 300 Mbps", "internet", 50.0),
    ("internet_fiber_1000", "Fiber Internet 1 Gbps", "internet", 75.0),
    ("internet_fiber_5000", "Fiber Internet 5 Gbps", "internet", 130.0),
    ("internet_dsl_50", "DSL Internet 50 Mbps", "internet", 35.0),
    ("tv_starter", "Starter TV", "tv", 40.0),
    ("tv_entertainment", "Entertainment TV", "tv", 70.0),
    ("tv_sports_plus", "Sports Plus TV", "tv", 25.0),
    ("tv_movies_plus", "Movies Plus TV", "tv", 18.5),
    ("home_phone_unlimited", "Home Phone Unlimited", "phone", 25.0),
    ("business_voice_hub", "Business Voice Hub", "phone", 120.0),
    ("home_security_basic", "Home Security Basic", "security", 30.0),
    ("home_security_pro", "Home Security Pro", "security", 55.0),
]
"""(service id, name, category, monthly price) of the service catalog."""

DEVICES: list[tuple[str, str, str, str]] = [
    ("Pixel 8", "mobile_phone", "Google", "Pixel 8"),
    ("Pixel 8a", "mobile_phone", "Google", "Pixel 8a"),
    ("Galaxy S24", "mobile_phone", "Samsung", "SM-S921"),
    ("Galaxy A55", "mobile_phone", "Samsung", "SM-A556"),
    ("iPhone 16", "mobile_phone", "Apple", "iPhone 16"),
    ("iPhone SE", "mobile_phone", "Apple", "iPhone SE (3rd gen)"),
    ("Moto G Power", "mobile_phone", "Motorola", "Moto G Power 5G"),
    ("Easy Talk Flip", "mobile_phone", "Lumen Mobile", "ET-200 Flip"),
    ("Fiber Gateway G2", "networking", "Northwind Networks", "G2-FG"),
    ("Mesh WiFi Point", "networking", "Northwind Networks", "MP-6E"),
    ("DSL Modem D1", "networking", "Brightline", "D1-VDSL"),
    ("Business Router BR9", "networking", "Brightline", "BR9-Pro"),
    ("Streaming Box 4K", "tv", "Northwind Media", "SB-4K"),
    ('Vista 55" OLED TV', "tv", "Vista", "OLED55-V2"),
    ('Vista 43" LED TV', "tv", "Vista", "LED43-V1"),
    ("DVR Receiver", "tv", "Northwind Media", "DVR-500"),
    ("Cordless Home Phone", "phone", "Clearcall", "CH-3"),
    ("Desk Phone IP-40", "phone", "Clearcall", "IP-40"),
    ("Alarm Hub", "security", "Sentinel", "AH-2"),
    ("Doorbell Camera", "security", "Sentinel", "DC-1080"),
    ("Indoor Camera", "security", "Sentinel", "IC-720"),
]
"""(catalog name, category, manufacturer, model) of the device catalog."""

DEVICES_FOR_CATEGORY: dict[str, list[str]] = {
    "mobile": [name for name, category, _, _ in DEVICES if category == "mobile_phone"],
    "internet": ["Fiber Gateway G2", "Mesh WiFi Point"],
    "tv": ["Streaming Box 4K", 'Vista 55" OLED TV', 'Vista 43" LED TV', "DVR Receiver"],
    "phone": ["Cordless Home Phone", "Desk Phone IP-40"],
    "security": ["Alarm Hub", "Doorbell Camera", "Indoor Camera"],
}
"""The devices a subscriber of a service category may own."""

DEVICES_FOR_SERVICE: dict[str, list[str]] = {
    "internet_dsl_50": ["DSL Modem D1"],
    "internet_fiber_1000": ["Fiber Gateway G2", "Mesh WiFi Point", "Business Router BR9"],
}
"""Services whose devices differ from their category's."""

FIRST_NAMES = [
    "Amara", "Bastian", "Carmen", "Desmond", "Elif", "Farid", "Greta", "Hiroshi", "Ingrid",
    "Jamal", "Keiko", "Lorenzo", "Mei", "Nikolai", "Olwen", "Priya", "Quentin", "Rosa",
    "Soren", "Tamsin", "Ulrich", "Valentina", "Wesley", "Ximena", "Yusuf", "Zora", "Anton",
    "Beatrix", "Cyrus", "Dalia", "Emeka", "Fiona", "Gideon", "Hana", "Idris", "Juno",
]  # fmt: skip
LAST_NAMES = [
    "Abernathy", "Bergstrom", "Castellano", "Delacroix", "Eriksen", "Fairbanks", "Gallagher",
    "Haddad", "Iwasaki", "Jovanovic", "Kowalczyk", "Lindqvist", "Mbeki", "Novak", "Okafor",
    "Petrakis", "Quintero", "Rahimi", "Santoro", "Thorne", "Uchenna", "Vasquez", "Whitfield",
    "Yamada", "Zielinski", "Achebe", "Brennan", "Cardenas",
]  # fmt: skip
STREETS = [
    "Juniper Lane", "Harbor View Road", "Copper Ridge Drive", "Millbrook Avenue", "Orchard Way",
    "Larkspur Court", "Granite Street", "Willow Bend", "Summit Terrace", "Foxglove Place",
]  # fmt: skip
CITIES = [
    ("Tacoma", "WA", "984"), ("Boise", "ID", "837"), ("Madison", "WI", "537"),
    ("Raleigh", "NC", "276"), ("Tucson", "AZ", "857"), ("Omaha", "NE", "681"),
    ("Richmond", "VA", "232"), ("Albany", "NY", "122"), ("Eugene", "OR", "974"),
    ("Savannah", "GA", "314"),
]  # fmt: skip
AREA_CODES = ["253", "208", "608", "919", "520", "402", "804", "518", "541", "912"]
EMAIL_DOMAINS = ["mailbox.example", "inbox.example", "post.example"]
PAYMENT_METHODS = ["credit_card", "debit_card", "bank_transfer", "auto_pay_credit_card"]
TICKET_STATUSES = ["open", "in_progress", "closed", "closed"]
TICKET_PRIORITIES = ["low", "medium", "medium", "high", "urgent"]
TICKET_CATEGORIES = ["mobile", "internet", "tv", "billing", "account", "device", "security"]
EXTRA_CHARGES = [("equipment_rental", 10.0), ("hd_receiver_fee", 7.5), ("mesh_extender", 6.0)]
SENIOR_DISCOUNT = -5.0


def generate(seed: int = SEED) -> dict[str, Any]:
    """The five collections, in the upstream shape, for ``seed``."""
    rng = random.Random(seed)
    services = {
        sid: {"service_id": sid, "name": name, "category": category, "price": price}
        for sid, name, category, price in SERVICES
    }
    devices = {
        name: {"category": category, "manufacturer": maker, "model": model}
        for name, category, maker, model in DEVICES
    }
    customers: dict[str, Any] = {}
    billing: dict[str, Any] = {}
    for index in range(CUSTOMER_COUNT):
        customer = _customer(rng, index, services)
        customers[customer["customer_id"]] = customer
        billing[customer["customer_id"]] = _billing(rng, customer, services)
    tickets: dict[str, Any] = {}
    owners = rng.sample(sorted(customers), TICKET_COUNT)
    for number, owner in enumerate(owners, start=1):
        ticket_id = f"TICKET{number:03d}"
        tickets[ticket_id] = {
            "ticket_id": ticket_id,
            "customer_id": owner,
            "status": rng.choice(TICKET_STATUSES),
            "priority": rng.choice(TICKET_PRIORITIES),
            "category": rng.choice(TICKET_CATEGORIES),
        }
    return {
        "customers": customers,
        "services": services,
        "devices": devices,
        "billing": billing,
        "support_tickets": tickets,
    }


def _customer(rng: random.Random, index: int, services: dict[str, Any]) -> dict[str, Any]:
    first = FIRST_NAMES[index % len(FIRST_NAMES)]
    last = rng.choice(LAST_NAMES)
    number = 1000 + rng.randrange(9000)
    city, state, zip_prefix = rng.choice(CITIES)
    senior = index % 6 == 0
    business = index % 9 == 4
    birth_year = rng.randint(1936, 1960) if senior else rng.randint(1962, 2004)
    birth = dt.date(birth_year, rng.randint(1, 12), rng.randint(1, 28))
    subscribed = _plans(rng, senior, business)
    owned: list[dict[str, Any]] = []
    for sid in subscribed:
        category = services[sid]["category"]
        count = 3 if sid.startswith(("mobile_family", "mobile_business")) else 1
        choices = DEVICES_FOR_SERVICE.get(sid, DEVICES_FOR_CATEGORY[category])
        for name in rng.sample(choices, min(count, len(choices), 2)):
            owned.append({"device_id": str(len(owned) + 1), "name": name, "service": sid})
    if rng.random() < 0.3:  # a spare device with no service
        spare = rng.choice(DEVICES_FOR_CATEGORY["mobile"] + DEVICES_FOR_CATEGORY["tv"])
        owned.append({"device_id": str(len(owned) + 1), "name": spare, "service": None})
    paperless = rng.random() < 0.6
    auto_pay = rng.random() < 0.5
    created = BILL_DAY - dt.timedelta(days=rng.randint(120, 3600))
    return {
        "customer_id": f"{first.lower()}_{last.lower()}_{number}",
        "name": {"first_name": first, "last_name": last},
        "demographics": {
            "date_of_birth": birth.isoformat(),
            "phone": f"({AREA_CODES[index % len(AREA_CODES)]}) {200 + index:03d}-"
            f"{rng.randrange(10000):04d}",
            "email": f"{first.lower()}.{last.lower()}{index}@{rng.choice(EMAIL_DOMAINS)}",
        },
        "address": {
            "address1": f"{rng.randint(10, 9899)} {rng.choice(STREETS)}",
            "address2": rng.choice(["", "", f"Apt {rng.randint(1, 40)}"]),
            "city": city,
            "state": state,
            "zip": f"{zip_prefix}{rng.randrange(100):02d}",
            "country": "USA",
        },
        "account": {
            "account_number": f"TEL{700000 + index * 37:07d}",
            "account_type": "business" if business else "residential",
            "created_date": created.isoformat(),
            "credit_score": rng.randint(560, 830),
            "payment_method": rng.choice(PAYMENT_METHODS),
        },
        "services": subscribed,
        "devices": owned,
        "billing_preferences": {
            "paperless": paperless,
            "auto_pay": auto_pay,
            "billing_cycle": "monthly",
        },
    }


def _plans(rng: random.Random, senior: bool, business: bool) -> list[str]:
    if business:
        plans = ["mobile_business_5lines", "internet_fiber_1000"]
        return plans + (["business_voice_hub"] if rng.random() < 0.6 else [])
    mobile = ["mobile_essential", "mobile_unlimited_plus", "mobile_unlimited_max"]
    mobile += ["mobile_family_3lines"]
    plans = ["mobile_golden_years" if senior else rng.choice(mobile)]
    if rng.random() < 0.8:
        internet = ["internet_fiber_300", "internet_fiber_1000", "internet_fiber_5000"]
        plans.append(rng.choice([*internet, "internet_dsl_50"]))
    if rng.random() < 0.5:
        plans.append(rng.choice(["tv_starter", "tv_entertainment"]))
        if rng.random() < 0.4:
            plans.append(rng.choice(["tv_sports_plus", "tv_movies_plus"]))
    if senior and rng.random() < 0.5:
        plans.append("home_phone_unlimited")
    if rng.random() < 0.25:
        plans.append(rng.choice(["home_security_basic", "home_security_pro"]))
    return plans


def _billing(
    rng: random.Random, customer: dict[str, Any], services: dict[str, Any]
) -> dict[str, Any]:
    charges: dict[str, float] = {sid: services[sid]["price"] for sid in customer["services"]}
    for key, amount in EXTRA_CHARGES:
        if rng.random() < 0.2:
            charges[key] = amount
    charges["taxes_fees"] = round(sum(charges.values()) * 0.08, 2)
    if "mobile_golden_years" in customer["services"]:
        charges["senior_discount"] = SENIOR_DISCOUNT
    monthly = round(sum(charges.values()), 2)
    owing = rng.random() < 0.35
    if owing and rng.random() < 0.4:
        charges["late_fee"] = 15.0
    balance = round(monthly + (15.0 if "late_fee" in charges else 0.0), 2) if owing else 0.0
    bill_day = rng.randint(1, 25)
    method = customer["account"]["payment_method"]
    history = []
    for months_back in range(3):
        paid_on = dt.date(2026, 10 - months_back, bill_day)
        late = owing and months_back == 2 and rng.random() < 0.5
        amount = monthly if not (owing and months_back == 0) else round(monthly / 2, 2)
        history.append(
            {
                "date": paid_on.isoformat(),
                "amount": amount,
                "status": "late" if late else "completed",
            }
        )
    preferences = customer["billing_preferences"]
    return {
        "customer_id": customer["customer_id"],
        "account_number": customer["account"]["account_number"],
        "current_balance": balance,
        "last_payment": {
            "amount": history[0]["amount"],
            "date": history[0]["date"],
            "method": method,
            "status": "completed",
        },
        "next_bill_date": dt.date(2026, 11, bill_day).isoformat(),
        "monthly_charges": charges,
        "payment_history": history,
        "auto_pay": preferences["auto_pay"],
        "paperless": preferences["paperless"],
    }


def main(argv: list[str] | None = None) -> list[Path]:
    """Command-line entry: write the data into the folder given, or the package's data/;
    print and return the paths written."""
    written = write_data_command(generate, Path(__file__).parent, argv)
    for path in written:
        print(path)
    return written


if __name__ == "__main__":
    main()
