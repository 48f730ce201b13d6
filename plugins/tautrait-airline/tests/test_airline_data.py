"""The built-in data is the seeded generator's output, and it is rich enough for tasks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tautrait_airline import datagen
from tautrait_airline.domain import DATA_DIR
from tautrait_airline.tools.lookup import AIRPORTS
from tautrait_airline.upstream import COLLECTIONS


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
    flights, reservations, users = data["flights"], data["reservations"], data["users"]
    assert 40 <= len(users) <= 500 and 100 <= len(reservations) <= 1000
    assert all({f["origin"], f["destination"]} <= set(AIRPORTS) for f in flights.values())
    statuses = Counter(e["status"] for f in flights.values() for e in f["dates"].values())
    assert set(statuses) == {"available", "landed", "cancelled", "flying", "on time", "delayed"}
    sources = Counter(
        method["source"] for user in users.values() for method in user["payment_methods"].values()
    )
    assert set(sources) == {"credit_card", "gift_card", "certificate"}
    for reservation_id, reservation in reservations.items():
        user = users[reservation["user_id"]]
        assert reservation_id in user["reservations"]
        assert reservation["payment_history"][0]["payment_id"] in user["payment_methods"]
        booked = reservation["created_at"]
        assert booked < "2024-05-15T15:00:00"  # before now
        assert booked < min(segment["date"] for segment in reservation["flights"])
        for segment in reservation["flights"]:
            flight = flights[segment["flight_number"]]
            assert (flight["origin"], flight["destination"]) == (
                segment["origin"],
                segment["destination"],
            )
