"""The built-in data: the committed files are the generator's output and hang together."""

from __future__ import annotations

import json
from pathlib import Path

from tautrait_telecom import datagen
from tautrait_telecom.domain import DATA_DIR


def test_committed_data_equals_the_generator_output(tmp_path: Path) -> None:
    written = datagen.main([str(tmp_path)])
    assert sorted(path.name for path in written) == sorted(p.name for p in DATA_DIR.glob("*.json"))
    for path in written:
        assert path.read_text(encoding="utf-8") == (DATA_DIR / path.name).read_text("utf-8")


def test_the_generator_is_deterministic_and_seeded() -> None:
    assert datagen.generate() == datagen.generate()
    assert datagen.generate(1) != datagen.generate()


def test_the_data_is_consistent() -> None:
    data = datagen.generate()
    customers, services, devices = data["customers"], data["services"], data["devices"]
    assert len(customers) == datagen.CUSTOMER_COUNT
    assert data["billing"].keys() == customers.keys()
    emails = [c["demographics"]["email"].lower() for c in customers.values()]
    phones = ["".join(filter(str.isdigit, c["demographics"]["phone"])) for c in customers.values()]
    assert len(set(emails)) == len(emails) and len(set(phones)) == len(phones)
    for cid, customer in customers.items():
        assert set(customer["services"]) <= services.keys()
        charges = data["billing"][cid]["monthly_charges"]
        assert all(charges[sid] == services[sid]["price"] for sid in customer["services"])
        ids = [device["device_id"] for device in customer["devices"]]
        assert ids == [str(n) for n in range(1, len(ids) + 1)]
        for device in customer["devices"]:
            assert device["name"] in devices
            assert device["service"] is None or device["service"] in customer["services"]
    tickets = data["support_tickets"]
    assert list(tickets) == [f"TICKET{n:03d}" for n in range(1, len(tickets) + 1)]
    assert all(ticket["customer_id"] in customers for ticket in tickets.values())


def test_money_is_stored_as_floats() -> None:
    data = json.loads((DATA_DIR / "billing.json").read_text(encoding="utf-8"))
    for entry in data.values():
        assert isinstance(entry["current_balance"], float)
        assert all(isinstance(value, float) for value in entry["monthly_charges"].values())
