"""The tools: schemas, argument checks and upstream's documented behaviours (quirks included),
on a small hand-made database in the upstream shape."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from tautrait_airline.schema import FlightDate, Reservation, User
from tautrait_airline.tools import ALL_TOOLS
from tautrait_airline.upstream import AirlineUpstream

from tautrait_core import Domain, EpisodeDB, StateTemplate

UPSTREAM_TOOL_ORDER = [
    "book_reservation",
    "calculate",
    "cancel_reservation",
    "get_reservation_details",
    "get_user_details",
    "list_all_airports",
    "search_direct_flight",
    "search_onestop_flight",
    "send_certificate",
    "think",
    "transfer_to_human_agents",
    "update_reservation_baggages",
    "update_reservation_flights",
    "update_reservation_passengers",
]
JSON_SCHEMA_TYPES = {"string", "integer", "number", "boolean", "array", "object"}
USER = "ines_varga_1001"
ANA = {"first_name": "Ines", "last_name": "Varga", "dob": "1980-02-03"}
BEN = {"first_name": "Ben", "last_name": "Varga", "dob": "1982-07-09"}


def _open(seats: int, prices: tuple[int, int, int]) -> dict[str, Any]:
    cabins = ("basic_economy", "economy", "business")
    return {
        "status": "available",
        "available_seats": dict.fromkeys(cabins, seats),
        "prices": dict(zip(cabins, prices, strict=True)),
    }


def _flight(number: str, route: str, times: tuple[str, str], dates: dict[str, Any]) -> Any:
    origin, destination = route.split("-")
    return {
        "flight_number": number,
        "origin": origin,
        "destination": destination,
        "scheduled_departure_time_est": times[0],
        "scheduled_arrival_time_est": times[1],
        "dates": dates,
    }


DATA: dict[str, Any] = {
    "flights": {
        "TT1": _flight(
            "TT1",
            "BOS-ORD",
            ("22:00:00", "01:00:00+1"),
            {"2024-05-20": _open(4, (100, 200, 500)), "2024-05-08": _open(4, (90, 190, 490))},
        ),
        "TT2": _flight(
            "TT2",
            "ORD-SEA",
            ("06:00:00", "09:00:00"),
            {
                "2024-05-20": _open(4, (110, 210, 510)),
                "2024-05-21": _open(4, (120, 220, 520)),
                "2024-05-08": _open(4, (111, 211, 511)),
                "2024-05-9": _open(4, (1, 2, 3)),  # reached only through the unpadded date
            },
        ),
        "TT3": _flight(
            "TT3",
            "BOS-ORD",
            ("08:00:00", "10:00:00"),
            {
                "2024-05-20": _open(1, (150, 250, 550)),
                "2024-05-21": {"status": "cancelled"},
                "2024-05-15": {
                    "status": "delayed",
                    "estimated_departure_time_est": "2024-05-15T10:00:00",
                    "estimated_arrival_time_est": "2024-05-15T12:00:00",
                },
            },
        ),
    },
    "reservations": {
        "AB12CD": {
            "reservation_id": "AB12CD",
            "user_id": USER,
            "origin": "BOS",
            "destination": "ORD",
            "flight_type": "one_way",
            "cabin": "economy",
            "flights": [
                {
                    "origin": "BOS",
                    "destination": "ORD",
                    "flight_number": "TT3",
                    "date": "2024-05-20",
                    "price": 240,
                }
            ],
            "passengers": [ANA, BEN],
            "payment_history": [{"payment_id": "credit_card_1", "amount": 480}],
            "created_at": "2024-05-01T10:00:00",
            "total_baggages": 1,
            "nonfree_baggages": 0,
            "insurance": "no",
        }
    },
    "users": {
        USER: {
            "name": {"first_name": "Ines", "last_name": "Varga"},
            "address": {
                "address1": "1 Elm Row",
                "address2": "",
                "city": "Boise",
                "country": "USA",
                "state": "ID",
                "zip": "83702",
            },
            "email": "ines@example.com",
            "dob": "1980-02-03",
            "payment_methods": {
                "credit_card_1": {
                    "source": "credit_card",
                    "brand": "visa",
                    "last_four": "1111",
                    "id": "credit_card_1",
                },
                "gift_card_1": {"source": "gift_card", "amount": 150, "id": "gift_card_1"},
                "certificate_1": {"source": "certificate", "amount": 100, "id": "certificate_1"},
            },
            "saved_passengers": [BEN],
            "membership": "gold",
            "reservations": ["AB12CD"],
        }
    },
}


@pytest.fixture(scope="module")
def small_template(domain: Domain) -> StateTemplate:
    return StateTemplate("airline-small", domain.tables, AirlineUpstream().to_rows(DATA))


@pytest.fixture
def db(small_template: StateTemplate) -> Iterator[EpisodeDB]:
    with small_template.new_episode() as episode:
        yield episode


def call(domain: Domain, db: EpisodeDB, name: str, **arguments: Any) -> str:
    return domain.run_tool(db, name, arguments)


def call_json(domain: Domain, db: EpisodeDB, name: str, **arguments: Any) -> Any:
    observation = call(domain, db, name, **arguments)
    assert not observation.startswith("Error"), observation
    return json.loads(observation)


def methods(db: EpisodeDB) -> dict[str, Any]:
    return db.get(User, USER).payment_methods


def booking(**changes: Any) -> dict[str, Any]:
    arguments = {
        "user_id": USER,
        "origin": "BOS",
        "destination": "ORD",
        "flight_type": "one_way",
        "cabin": "economy",
        "flights": [{"flight_number": "TT1", "date": "2024-05-20"}],
        "passengers": [ANA],
        "payment_methods": [{"payment_id": "credit_card_1", "amount": 200}],
        "total_baggages": 0,
        "nonfree_baggages": 0,
        "insurance": "no",
    }
    return {**arguments, **changes}


def test_tools_come_in_upstream_order(domain: Domain) -> None:
    assert [tool.name for tool in domain.tools] == UPSTREAM_TOOL_ORDER
    assert domain.terminating_tools == ["transfer_to_human_agents"]


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=lambda tool: tool.name)
def test_tool_schemas_are_documented_json_schema_objects(tool: Any) -> None:
    function = tool.schema["function"]
    assert function["name"] == tool.name
    assert len(function["description"]) > 20
    parameters = function["parameters"]
    assert parameters["type"] == "object"
    assert set(parameters["required"]) == set(parameters["properties"])
    for name, prop in parameters["properties"].items():
        assert prop.get("description"), f"{tool.name}.{name} has no description"
        assert prop.get("type") in JSON_SCHEMA_TYPES, f"{tool.name}.{name}: {prop}"
    json.dumps(tool.schema)


def test_booking_schema_lists_choices_and_item_fields(domain: Domain) -> None:
    properties = domain.tools_by_name["book_reservation"].schema["function"]["parameters"][
        "properties"
    ]
    assert properties["cabin"]["enum"] == ["basic_economy", "economy", "business"]
    assert properties["insurance"]["enum"] == ["yes", "no"]
    assert properties["passengers"]["items"]["required"] == ["first_name", "last_name", "dob"]
    assert properties["total_baggages"]["type"] == "integer"


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("get_user_details", {}),
        ("get_user_details", {"user_id": USER, "note": "x"}),
        ("update_reservation_passengers", {"reservation_id": "AB12CD", "passengers": "Ines"}),
        ("send_certificate", {"user_id": USER, "amount": "a lot"}),
        ("update_reservation_flight", {"reservation_id": "AB12CD"}),
    ],
    ids=["missing", "unknown", "not-a-list", "not-a-number", "unknown-tool"],
)
def test_bad_arguments_give_an_error_and_change_nothing(
    domain: Domain, db: EpisodeDB, name: str, arguments: dict[str, Any]
) -> None:
    assert call(domain, db, name, **arguments).startswith("Error:")
    assert not db.changes()


def test_lookups(domain: Domain, db: EpisodeDB) -> None:
    assert call_json(domain, db, "get_user_details", user_id=USER) == DATA["users"][USER]
    assert call(domain, db, "get_user_details", user_id="nobody") == "Error: user not found"
    assert call(domain, db, "get_reservation_details", reservation_id="ZZZ") == (
        "Error: user not found"  # upstream's wording
    )
    airports = call_json(domain, db, "list_all_airports")
    assert len(airports) == 20 and airports["LGA"] == "LaGuardia"


def test_direct_search_lists_bookable_flights_without_their_date(
    domain: Domain, db: EpisodeDB
) -> None:
    found = call_json(
        domain, db, "search_direct_flight", origin="BOS", destination="ORD", date="2024-05-20"
    )
    assert [flight["flight_number"] for flight in found] == ["TT1", "TT3"]
    assert "date" not in found[0] and found[0]["prices"]["economy"] == 200
    assert (
        call_json(
            domain, db, "search_direct_flight", origin="BOS", destination="ORD", date="2024-05-21"
        )
        == []
    )


def test_onestop_search_keeps_upstreams_date_quirks(domain: Domain, db: EpisodeDB) -> None:
    """A next-day arrival moves the second leg to ``2024-05-<day+1>`` unpadded, and the second
    leg's seats and prices come from the first leg's date."""
    found = call_json(
        domain, db, "search_onestop_flight", origin="BOS", destination="SEA", date="2024-05-08"
    )
    assert [[leg["flight_number"], leg["date"]] for leg in found[0]] == [
        ["TT1", "2024-05-08"],
        ["TT2", "2024-05-9"],
    ]
    assert found[0][1]["prices"]["economy"] == 211  # TT2 on 2024-05-08
    same_day = call_json(
        domain, db, "search_onestop_flight", origin="BOS", destination="SEA", date="2024-05-20"
    )
    # TT3 lands after TT2 leaves (plain string comparison); TT1's next-day arrival fits
    assert [[leg["flight_number"], leg["date"]] for leg in same_day[0]] == [
        ["TT1", "2024-05-20"],
        ["TT2", "2024-05-21"],
    ]
    assert len(same_day) == 1 and same_day[0][1]["prices"]["economy"] == 210


def test_booking_charges_and_stores_the_reservation(domain: Domain, db: EpisodeDB) -> None:
    arguments = booking(
        passengers=[ANA, BEN],
        insurance="yes",
        nonfree_baggages=1,
        total_baggages=4,
        payment_methods=[
            {"payment_id": "certificate_1", "amount": 50},
            {"payment_id": "gift_card_1", "amount": 120.5},
            {"payment_id": "credit_card_1", "amount": 339.5},
        ],
    )
    reservation = call_json(domain, db, "book_reservation", **arguments)
    assert reservation["reservation_id"] == "HATHAT"
    assert reservation["flights"] == [
        {
            "flight_number": "TT1",
            "date": "2024-05-20",
            "price": 200,
            "origin": "BOS",
            "destination": "ORD",
        }
    ]
    assert reservation["created_at"] == "2024-05-15T15:00:00" and "status" not in reservation
    assert "certificate_1" not in methods(db)  # deleted though half of it was used
    assert methods(db)["gift_card_1"]["amount"] == 29.5
    assert db.get(User, USER).reservations == ["AB12CD", "HATHAT"]
    seats = db.get(FlightDate, ("TT1", "2024-05-20")).details
    assert seats[:3] == [4, 4, 4]  # upstream never takes seats


def test_booking_errors(domain: Domain, db: EpisodeDB) -> None:
    def book(**changes: Any) -> str:
        return call(domain, db, "book_reservation", **booking(**changes))

    assert book(user_id="nobody") == "Error: user not found"
    assert book(flights=[{"flight_number": "TT9", "date": "2024-05-20"}]) == (
        "Error: flight TT9 not found"
    )
    assert book(flights=[{"flight_number": "TT1", "date": "2024-06-01"}]) == (
        "Error: flight TT1 not found on date 2024-06-01"
    )
    assert book(flights=[{"flight_number": "TT3", "date": "2024-05-21"}]) == (
        "Error: flight TT3 not available on date 2024-05-21"
    )
    two = [{"flight_number": "TT3", "date": "2024-05-20"}]
    assert book(flights=two, passengers=[ANA, BEN]) == "Error: not enough seats on flight TT3"
    assert book(cabin="first") == "Error: 'first'"
    assert book(payment_methods=[{"payment_id": "paypal_1", "amount": 200}]) == (
        "Error: payment method paypal_1 not found"
    )
    assert book(payment_methods=[{"payment_id": "gift_card_1", "amount": 200}]) == (
        "Error: not enough balance in payment method gift_card_1"
    )
    assert book(payment_methods=[{"payment_id": "credit_card_1", "amount": 150}]) == (
        "Error: payment amount does not add up, total price is 200, but paid 150"
    )
    assert not db.changes()


def test_a_fourth_booking_replaces_the_third(domain: Domain, db: EpisodeDB) -> None:
    ids = [call_json(domain, db, "book_reservation", **booking())["reservation_id"] for _ in "1234"]
    assert ids == ["HATHAT", "HATHAU", "HATHAV", "HATHAV"]
    assert db.get(User, USER).reservations == ["AB12CD", *ids]
    assert len(AirlineUpstream().export(db)["reservations"]) == 4


def test_flight_changes_reprice_but_keep_the_cabin(domain: Domain, db: EpisodeDB) -> None:
    kept = [{"flight_number": "TT3", "date": "2024-05-20"}]
    same = call_json(
        domain, db, "update_reservation_flights", reservation_id="AB12CD", cabin="economy",
        flights=kept, payment_id="gift_card_1",
    )  # fmt: skip
    assert same["flights"][0]["price"] == 240 and len(same["payment_history"]) == 1
    moved = call_json(
        domain, db, "update_reservation_flights", reservation_id="AB12CD", cabin="business",
        flights=[{"flight_number": "TT1", "date": "2024-05-20"}], payment_id="credit_card_1",
    )  # fmt: skip
    assert moved["cabin"] == "economy"  # upstream never updates the cabin
    assert moved["payment_history"][-1] == {"payment_id": "credit_card_1", "amount": 520}
    refund = call_json(
        domain, db, "update_reservation_flights", reservation_id="AB12CD", cabin="economy",
        flights=[{"flight_number": "TT2", "date": "2024-05-20"}], payment_id="gift_card_1",
    )  # fmt: skip
    assert refund["payment_history"][-1]["amount"] == -580
    assert methods(db)["gift_card_1"]["amount"] == 730


def test_change_payments_refuse_certificates(domain: Domain, db: EpisodeDB) -> None:
    assert call(
        domain, db, "update_reservation_baggages", reservation_id="AB12CD", total_baggages=0,
        nonfree_baggages=0, payment_id="certificate_1",
    ) == "Error: certificate cannot be used to update reservation"  # fmt: skip
    assert call(
        domain, db, "update_reservation_flights", reservation_id="AB12CD", cabin="business",
        flights=[{"flight_number": "TT3", "date": "2024-05-20"}], payment_id="gift_card_1",
    ) == "Error: not enough seats on flight TT3"  # fmt: skip
    assert not db.changes()


def test_baggage_changes(domain: Domain, db: EpisodeDB) -> None:
    added = call_json(
        domain, db, "update_reservation_baggages", reservation_id="AB12CD", total_baggages=4,
        nonfree_baggages=2, payment_id="gift_card_1",
    )  # fmt: skip
    assert added["payment_history"][-1] == {"payment_id": "gift_card_1", "amount": 100}
    assert methods(db)["gift_card_1"]["amount"] == 50
    fewer = call_json(
        domain, db, "update_reservation_baggages", reservation_id="AB12CD", total_baggages=1,
        nonfree_baggages=0.0, payment_id="credit_card_1",
    )  # fmt: skip
    assert len(fewer["payment_history"]) == 2 and fewer["nonfree_baggages"] == 0.0
    assert isinstance(db.get(Reservation, "AB12CD").nonfree_baggages, float)  # kept as given


def test_passenger_updates_keep_the_count(domain: Domain, db: EpisodeDB) -> None:
    renamed = {**BEN, "last_name": "Varga-Lind"}
    updated = call_json(
        domain, db, "update_reservation_passengers", reservation_id="AB12CD",
        passengers=[ANA, renamed],
    )  # fmt: skip
    assert updated["passengers"][1] == renamed
    assert (
        call(domain, db, "update_reservation_passengers", reservation_id="AB12CD", passengers=[ANA])
        == "Error: number of passengers does not match"
    )


def test_cancelling_twice_negates_the_history_again(domain: Domain, db: EpisodeDB) -> None:
    first = call_json(domain, db, "cancel_reservation", reservation_id="AB12CD")
    assert list(first)[-1] == "status" and first["status"] == "cancelled"
    assert [p["amount"] for p in first["payment_history"]] == [480, -480]
    second = call_json(domain, db, "cancel_reservation", reservation_id="AB12CD")
    assert [p["amount"] for p in second["payment_history"]] == [480, -480, -480, 480]
    assert methods(db)["gift_card_1"]["amount"] == 150  # no refund to stored balances


def test_certificates_are_numbered_and_keep_the_amount(domain: Domain, db: EpisodeDB) -> None:
    answers = [call(domain, db, "send_certificate", user_id=USER, amount=a) for a in (100, 50.5)]
    assert answers == [
        f"Certificate certificate_3221322 added to user {USER} with amount 100.",
        f"Certificate certificate_3221323 added to user {USER} with amount 50.5.",
    ]
    assert methods(db)["certificate_3221323"]["amount"] == 50.5
    call(domain, db, "send_certificate", user_id=USER, amount=10)
    assert call(domain, db, "send_certificate", user_id=USER, amount=10).startswith("Error:")
    assert call(domain, db, "send_certificate", user_id="x", amount=1) == "Error: user not found"


def test_the_small_data_round_trips(small_template: StateTemplate) -> None:
    with small_template.new_episode() as db:
        assert json.dumps(AirlineUpstream().export(db)) == json.dumps(DATA)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data["users"][USER].update(phone="1"), "keys"),
        (lambda data: data["reservations"]["AB12CD"].pop("insurance"), "keys"),
        (lambda data: data["reservations"]["AB12CD"].update(cabin=3), "not a string"),
        (lambda data: data["reservations"]["AB12CD"].update(reservation_id="X"), "own id"),
        (lambda data: data.update(flights=[]), "must be an object"),
        (lambda data: data["reservations"]["AB12CD"]["passengers"].append(["A"]), "objects"),
    ],
    ids=["unknown-user-field", "missing-field", "number-cabin", "wrong-id", "list", "item"],
)
def test_data_that_would_not_round_trip_is_refused(change: Any, message: str) -> None:
    data = json.loads(json.dumps(DATA))
    change(data)
    with pytest.raises(ValueError, match=message):
        AirlineUpstream().to_rows(data)


def test_unusual_records_are_kept_in_full(domain: Domain) -> None:
    data = json.loads(json.dumps(DATA))
    reservation = data["reservations"]["AB12CD"]
    reservation["passengers"].append({"last_name": "Varga", "first_name": "Lu", "dob": "2001"})
    reservation["payment_history"].append({"payment_id": "gift_card_1", "amount": 2.5, "x": 1})
    data["flights"]["TT1"]["dates"]["2024-05-22"] = {"status": "diverted", "note": "fog"}
    data["flights"]["TT1"]["dates"]["2024-05-23"] = {**_open(2, (1, 2, 3)), "meal": "yes"}
    template = StateTemplate("airline-odd", domain.tables, AirlineUpstream().to_rows(data))
    with template.new_episode() as db:
        assert json.dumps(AirlineUpstream().export(db)) == json.dumps(data)
