"""The τ² record helpers of the public :mod:`tautrait_core.tau2`: τ²'s ``db.json`` records
read into τ-bench's shape, and records dumped as τ²'s retail and airline models dump them."""

from __future__ import annotations

import json
from types import SimpleNamespace

from tautrait_core.tau2 import (
    TAU2_ADDRESS_FIELDS,
    tau2_address,
    tau2_payment_methods,
    tau2_records_without_key,
    tau2_user_identity,
)

UPSTREAM_ADDRESS = {
    "address1": "14 Birch Lane",
    "address2": "",
    "city": "Portland",
    "state": "OR",
    "country": "USA",
    "zip": "97205",
}
"""An address in τ-bench's key order (``state`` before ``country``)."""

KINDS = {
    "credit_card": ("source", "id", "brand", "last_four"),
    "gift_card": ("source", "id", "balance"),
}


def test_a_tau2_table_loses_the_key_field_its_records_repeat() -> None:
    users = {"u1": {"name": "Ann", "user_id": "u1", "email": "a@x"}, "u2": {"user_id": "u2"}}
    before = json.dumps(users)
    assert tau2_records_without_key(users, "user_id") == {
        "u1": {"name": "Ann", "email": "a@x"},
        "u2": {},
    }
    assert list(tau2_records_without_key(users, "user_id")["u1"]) == ["name", "email"]
    assert json.dumps(users) == before  # the τ² records are left as they were


def test_an_address_takes_tau2s_field_order() -> None:
    dumped = tau2_address({**UPSTREAM_ADDRESS, "extra": "dropped"})
    assert (
        tuple(dumped)
        == TAU2_ADDRESS_FIELDS
        == (
            "address1",
            "address2",
            "city",
            "country",
            "state",
            "zip",
        )
    )
    assert dumped["state"] == "OR" and dumped["country"] == "USA"


def test_payment_methods_are_cut_to_their_kinds_fields_with_money_as_floats() -> None:
    methods = {
        "gift_card_1": {"balance": 57, "id": "gift_card_1", "source": "gift_card"},
        "gift_card_2": {"source": "gift_card", "id": "gift_card_2", "balance": None},
        "credit_card_1": {"source": "credit_card", "id": "credit_card_1", "brand": "visa"},
        "paypal_1": {"source": "paypal", "id": "paypal_1", "balance": 3},
    }
    dumped = tau2_payment_methods(methods, KINDS, money="balance")
    assert list(dumped) == list(methods)
    assert json.dumps(dumped["gift_card_1"]) == (
        '{"source": "gift_card", "id": "gift_card_1", "balance": 57.0}'
    )
    assert dumped["gift_card_2"]["balance"] is None
    # a field the method lacks is null; a kind not listed keeps its own fields
    assert dumped["credit_card_1"] == {**methods["credit_card_1"], "last_four": None}
    assert dumped["paypal_1"] == {"source": "paypal", "id": "paypal_1", "balance": 3.0}
    assert methods["gift_card_1"]["balance"] == 57  # the stored methods are left as they were


def test_the_money_field_is_the_domains() -> None:
    methods = {"certificate_1": {"source": "certificate", "id": "certificate_1", "amount": 250}}
    kinds = {"certificate": ("source", "id", "amount")}
    as_airline = tau2_payment_methods(methods, kinds, money="amount")["certificate_1"]
    as_retail = tau2_payment_methods(methods, kinds, money="balance")["certificate_1"]
    assert json.dumps(as_airline["amount"]) == "250.0"
    assert json.dumps(as_retail["amount"]) == "250"  # not the domain's money field


def test_a_user_opens_with_id_name_address_and_email() -> None:
    user = SimpleNamespace(
        user_id="ann_lee_1",
        name={"last_name": "Lee", "first_name": "Ann", "middle": "ignored"},
        address=UPSTREAM_ADDRESS,
        email="ann@example.com",
        orders=["#W1"],
    )
    assert json.dumps(tau2_user_identity(user)) == json.dumps(
        {
            "user_id": "ann_lee_1",
            "name": {"first_name": "Ann", "last_name": "Lee"},
            "address": tau2_address(UPSTREAM_ADDRESS),
            "email": "ann@example.com",
        }
    )
