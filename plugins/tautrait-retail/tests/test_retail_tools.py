"""The tools on the built-in data: schemas, argument checks and the documented behaviours."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tautrait_retail.schema import Order, User
from tautrait_retail.tools import ALL_TOOLS

from tautrait_core import Domain, EpisodeDB

UPSTREAM_TOOL_ORDER = [
    "calculate",
    "cancel_pending_order",
    "exchange_delivered_order_items",
    "find_user_id_by_email",
    "find_user_id_by_name_zip",
    "get_order_details",
    "get_product_details",
    "get_user_details",
    "list_all_product_types",
    "modify_pending_order_address",
    "modify_pending_order_items",
    "modify_pending_order_payment",
    "modify_user_address",
    "return_delivered_order_items",
    "think",
    "transfer_to_human_agents",
]
JSON_SCHEMA_TYPES = {"string", "integer", "number", "boolean", "array", "object"}
NEW_ADDRESS = {
    "address1": "9 Foxglove Lane",
    "address2": "",
    "city": "Austin",
    "state": "TX",
    "country": "USA",
    "zip": "78701",
}


def call(domain: Domain, db: EpisodeDB, name: str, **arguments: Any) -> str:
    return domain.run_tool(db, name, arguments)


def call_json(domain: Domain, db: EpisodeDB, name: str, **arguments: Any) -> Any:
    observation = call(domain, db, name, **arguments)
    assert not observation.startswith("Error"), observation
    return json.loads(observation)


def balance(db: EpisodeDB, user_id: str, method_id: str) -> Any:
    return db.get(User, user_id).payment_methods[method_id]["balance"]


def test_tools_come_in_upstream_order(domain: Domain) -> None:
    assert [tool.name for tool in domain.tools] == UPSTREAM_TOOL_ORDER
    assert domain.terminating_tools == ["transfer_to_human_agents"]


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=lambda tool: tool.name)
def test_tool_schemas_are_documented_json_schema_objects(tool) -> None:
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


def test_the_cancel_reason_lists_its_two_values(domain: Domain) -> None:
    schema = domain.tools_by_name["cancel_pending_order"].schema
    reason = schema["function"]["parameters"]["properties"]["reason"]
    assert reason["enum"] == ["no longer needed", "ordered by mistake"]


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("think", {"note": "extra"}),
        ("get_order_details", {}),
        ("get_order_details", {"order_id": 5930630}),
        ("cancel_pending_order", {"order_id": "#W5930630"}),
        ("modify_pending_order_items", {"item_ids_to_remove": [], "order_id": "#W5930630"}),
        ("return_delivered_order_items", {"order_id": "#W6869117", "item_ids": "8493739640",
                                          "payment_method_id": "paypal_2763658"}),
        ("no_such_tool", {}),
    ],
)  # fmt: skip
def test_bad_arguments_are_error_observations(
    domain: Domain, db: EpisodeDB, name: str, arguments: dict
) -> None:
    assert call(domain, db, name, **arguments).startswith("Error: ")
    assert not db.changes()


def test_users_are_found_by_email_in_any_case(domain: Domain, db: EpisodeDB) -> None:
    found = call(domain, db, "find_user_id_by_email", email="RAVI.Mensah7074@example.COM")
    assert found == "ravi_mensah_7074"
    assert call(domain, db, "find_user_id_by_email", email="nobody@example.com") == (
        "Error: user not found"
    )


def test_users_are_found_by_name_and_the_current_zip(domain: Domain, db: EpisodeDB) -> None:
    def find(first: str, last: str, zip: str) -> str:
        return call(
            domain, db, "find_user_id_by_name_zip", first_name=first, last_name=last, zip=zip
        )

    assert find("zara", "DAS", "12264") == "zara_das_9397"
    assert find("Elias", "Mehta", "12264") == "elias_mehta_4898"  # same zip, other name
    assert find("Zara", "Das", "12265") == "Error: user not found"
    call_json(domain, db, "modify_user_address", user_id="zara_das_9397", **NEW_ADDRESS)
    assert find("Zara", "Das", "78701") == "zara_das_9397"
    assert find("Zara", "Das", "12264") == "Error: user not found"


def test_details_are_upstream_records(domain: Domain, db: EpisodeDB) -> None:
    order = call_json(domain, db, "get_order_details", order_id="#W2559550")
    assert list(order) == [
        "order_id", "user_id", "address", "items", "fulfillments", "status", "payment_history",
    ]  # fmt: skip
    assert list(order["items"][0]) == ["name", "product_id", "item_id", "price", "options"]
    user = call_json(domain, db, "get_user_details", user_id="theo_asante_5443")
    assert list(user) == ["name", "address", "email", "payment_methods", "orders"]
    product = call_json(domain, db, "get_product_details", product_id="8378401700")
    assert product["name"] == "Running Shoes"
    assert list(next(iter(product["variants"].values()))) == [
        "item_id", "options", "available", "price",
    ]  # fmt: skip
    for name, key in [("get_order_details", "order_id"), ("get_user_details", "user_id"),
                      ("get_product_details", "product_id")]:  # fmt: skip
        assert call(domain, db, name, **{key: "missing"}).startswith("Error: ")


def test_product_types_are_sorted_by_name(domain: Domain, db: EpisodeDB) -> None:
    types = call_json(domain, db, "list_all_product_types")
    assert list(types) == sorted(types)
    assert types["Running Shoes"] == "8378401700"


def test_cancelling_refunds_a_gift_card_at_once(domain: Domain, db: EpisodeDB) -> None:
    before = balance(db, "ravi_mensah_7074", "gift_card_6643797")
    order = call_json(
        domain, db, "cancel_pending_order", order_id="#W5930630", reason="ordered by mistake"
    )
    assert order["status"] == "cancelled"
    assert list(order)[-1] == "cancel_reason" and order["cancel_reason"] == "ordered by mistake"
    assert order["payment_history"][-1] == {
        "transaction_type": "refund",
        "amount": 62.89,
        "payment_method_id": "gift_card_6643797",
    }
    assert balance(db, "ravi_mensah_7074", "gift_card_6643797") == round(before + 62.89, 2)
    again = call(
        domain, db, "cancel_pending_order", order_id="#W5930630", reason="no longer needed"
    )
    assert again == "Error: non-pending order cannot be cancelled"


def test_cancel_checks_the_status_before_the_reason(domain: Domain, db: EpisodeDB) -> None:
    assert call(domain, db, "cancel_pending_order", order_id="#W3952886", reason="meh") == (
        "Error: non-pending order cannot be cancelled"
    )
    assert call(domain, db, "cancel_pending_order", order_id="#W5072004", reason="meh") == (
        "Error: invalid reason"
    )
    assert not db.changes()


def test_cancel_after_a_payment_change_refunds_every_entry(domain: Domain, db: EpisodeDB) -> None:
    """Upstream's quirk: the original payment is refunded twice."""
    call_json(
        domain, db, "modify_pending_order_payment",
        order_id="#W5401781", payment_method_id="gift_card_7120191",
    )  # fmt: skip
    assert balance(db, "sofia_park_8524", "gift_card_7120191") == 192.55
    order = call_json(
        domain, db, "cancel_pending_order", order_id="#W5401781", reason="no longer needed"
    )
    kinds = [(entry["transaction_type"], entry["payment_method_id"][:6]) for entry in
             order["payment_history"]]  # fmt: skip
    assert kinds == [
        ("payment", "paypal"), ("payment", "gift_c"), ("refund", "paypal"),
        ("refund", "paypal"), ("refund", "gift_c"), ("refund", "paypal"),
    ]  # fmt: skip
    assert balance(db, "sofia_park_8524", "gift_card_7120191") == 270.0


def test_payment_changes_are_checked(domain: Domain, db: EpisodeDB) -> None:
    def change(order_id: str, method_id: str) -> str:
        return call(
            domain,
            db,
            "modify_pending_order_payment",
            order_id=order_id,
            payment_method_id=method_id,
        )

    assert change("#W3805763", "gift_card_3833728") == (
        "Error: insufficient gift card balance to pay for the order"
    )
    assert change("#W3805763", "paypal_5509808") == (
        "Error: the new payment method should be different from the current one"
    )
    assert change("#W3805763", "paypal_0000000") == "Error: payment method not found"
    assert change("#W7778639", "paypal_5787096") == "Error: non-pending order cannot be modified"
    assert not db.changes()


def test_item_changes_store_the_unrounded_difference(domain: Domain, db: EpisodeDB) -> None:
    order = call_json(
        domain, db, "modify_pending_order_items", order_id="#W2559550",
        item_ids=["3397359296", "3381891928"], new_item_ids=["9371955627", "9507668057"],
        payment_method_id="gift_card_5529971",
    )  # fmt: skip
    difference = 0 + (84.57 - 69.84) + (45.52 - 41.57)
    assert order["payment_history"][-1] == {
        "transaction_type": "payment",
        "amount": difference,
        "payment_method_id": "gift_card_5529971",
    }
    assert difference != round(difference, 2)
    assert balance(db, "theo_asante_5443", "gift_card_5529971") == round(145 - difference, 2)
    assert order["status"] == "pending (item modified)"
    assert [item["item_id"] for item in order["items"]] == [
        "9371955627", "4658325944", "9371955627", "9507668057",
    ]  # fmt: skip
    assert order["items"][0]["options"] == {"color": "white", "bulb": "LED", "arm": "swing"}
    assert db.get(Order, "#W2559550").items == [item["item_id"] for item in order["items"]]
    assert (
        call(domain, db, "modify_pending_order_address", order_id="#W2559550", **NEW_ADDRESS)
        == "Error: non-pending order cannot be modified"
    )


def test_an_empty_item_change_records_a_zero_refund(domain: Domain, db: EpisodeDB) -> None:
    order = call_json(
        domain, db, "modify_pending_order_items", order_id="#W8551782", item_ids=[],
        new_item_ids=[], payment_method_id="paypal_2799687",
    )  # fmt: skip
    entry = order["payment_history"][-1]
    assert entry["transaction_type"] == "refund" and entry["amount"] == 0
    assert isinstance(entry["amount"], int)


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"item_ids": ["3061570830", "3061570830"], "new_item_ids": ["7023177594"] * 2},
         "Error: 3061570830 not found"),
        ({"item_ids": ["3061570830"], "new_item_ids": []},
         "Error: the number of items to be exchanged should match"),
        ({"item_ids": ["3061570830"], "new_item_ids": ["5478914097"]},
         "Error: new item 5478914097 not found or available"),
        ({"item_ids": ["5945976867"], "new_item_ids": ["5945976867"]},
         "Error: new item 5945976867 not found or available"),
        ({"item_ids": ["3061570830"], "new_item_ids": ["7023177594"],
          "payment_method_id": "gift_card_0000000"}, "Error: payment method not found"),
    ],
    ids=["duplicate", "lengths", "other-product", "unavailable", "unknown-method"],
)  # fmt: skip
def test_item_changes_are_checked(
    domain: Domain, db: EpisodeDB, arguments: dict[str, Any], error: str
) -> None:
    arguments = {"order_id": "#W5252730", "payment_method_id": "paypal_1989654", **arguments}
    assert call(domain, db, "modify_pending_order_items", **arguments) == error
    assert not db.changes()


def test_addresses_are_written_in_upstream_key_order(domain: Domain, db: EpisodeDB) -> None:
    order = call_json(
        domain, db, "modify_pending_order_address", order_id="#W1872550", **NEW_ADDRESS
    )
    assert list(order["address"]) == ["address1", "address2", "city", "state", "country", "zip"]
    user = call_json(domain, db, "modify_user_address", user_id="mateo_berg_6152", **NEW_ADDRESS)
    assert user["address"] == NEW_ADDRESS
    assert call(domain, db, "modify_user_address", user_id="nobody", **NEW_ADDRESS) == (
        "Error: user not found"
    )


def test_exchanges_record_the_request_without_payment(domain: Domain, db: EpisodeDB) -> None:
    order = call_json(
        domain, db, "exchange_delivered_order_items", order_id="#W4448922",
        item_ids=["8749142322", "5108744277"], new_item_ids=["9101340105", "2734274293"],
        payment_method_id="paypal_5994401",
    )  # fmt: skip
    assert order["status"] == "exchange requested"
    assert list(order)[-4:] == [
        "exchange_items", "exchange_new_items", "exchange_payment_method_id",
        "exchange_price_difference",
    ]  # fmt: skip
    assert order["exchange_items"] == ["5108744277", "8749142322"]
    assert order["exchange_price_difference"] == -55.11
    assert len(order["payment_history"]) == 1
    assert call(
        domain, db, "exchange_delivered_order_items", order_id="#W4448922", item_ids=[],
        new_item_ids=[], payment_method_id="paypal_5994401",
    ) == "Error: non-delivered order cannot be exchanged"  # fmt: skip


def test_an_exchange_charged_to_a_small_gift_card_is_refused(domain: Domain, db: EpisodeDB) -> None:
    assert call(
        domain, db, "exchange_delivered_order_items", order_id="#W7256422",
        item_ids=["1133160259"], new_item_ids=["3278324685"],
        payment_method_id="gift_card_1707605",
    ) == "Error: insufficient gift card balance to pay for the price difference"  # fmt: skip
    assert not db.changes()


def test_returns_go_to_the_original_method_or_a_gift_card(domain: Domain, db: EpisodeDB) -> None:
    def give_back(item_ids: list[str], method_id: str) -> str:
        return call(
            domain, db, "return_delivered_order_items", order_id="#W7675306",
            item_ids=item_ids, payment_method_id=method_id,
        )  # fmt: skip

    assert give_back(["2862664503"], "credit_card_2316847") == (
        "Error: payment method should be either the original payment method or a gift card"
    )
    assert give_back(["1111111111"], "gift_card_9020907") == "Error: some item not found"
    assert not db.changes()
    order = json.loads(give_back(["2862664503"], "gift_card_9020907"))
    assert order["status"] == "return requested"
    assert order["return_items"] == ["2862664503"]
    assert order["return_payment_method_id"] == "gift_card_9020907"
    assert give_back([], "paypal_2269682") == "Error: non-delivered order cannot be returned"
