"""The gift-card rules both flavours of the retail tools share: a gift card pays and is
paid back at once, while each flavour tells gift cards apart its own way (τ-bench by the
method's id, τ² by its ``source``, after looking every method up)."""

from __future__ import annotations

from typing import Any

import pytest
from tautrait_retail.schema import User
from tautrait_retail.tau2.orders import gift_card_of
from tautrait_retail.tools.orders import charge_gift_card, gift_card_by_id, refund_gift_cards

from tautrait_core import EpisodeDB


def payment(amount: float, method_id: str) -> dict[str, Any]:
    return {"transaction_type": "payment", "amount": amount, "payment_method_id": method_id}


def test_a_gift_card_pays_and_is_paid_back_at_once_to_the_cent() -> None:
    card = {"source": "gift_card", "id": "gift_card_1", "balance": 100.0}
    assert charge_gift_card(card, 30.456) is True
    assert card["balance"] == 69.54
    assert charge_gift_card(card, -0.46) is True  # a negative difference is paid back
    assert card["balance"] == 70.0
    paypal = {"source": "paypal", "id": "paypal_1"}
    assert charge_gift_card(paypal, 30) is False
    assert paypal == {"source": "paypal", "id": "paypal_1"}


def test_only_the_gift_card_payments_are_refunded_at_once() -> None:
    methods = {
        "gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 10.0},
        "paypal_2": {"source": "paypal", "id": "paypal_2"},
    }
    history = [payment(2.5, "gift_card_1"), payment(7, "paypal_2"), payment(1.25, "gift_card_1")]
    assert refund_gift_cards(history, gift_card_by_id(methods)) is True
    assert methods["gift_card_1"]["balance"] == 13.75
    assert methods["paypal_2"] == {"source": "paypal", "id": "paypal_2"}
    assert refund_gift_cards(history[1:2], gift_card_by_id(methods)) is False


def test_tau_bench_tells_a_gift_card_by_its_id() -> None:
    methods = {"store_credit_9": {"source": "gift_card", "id": "store_credit_9", "balance": 5}}
    card_of = gift_card_by_id(methods)
    assert card_of("store_credit_9") is None  # a gift card by source, not by id
    with pytest.raises(KeyError):
        card_of("gift_card_0000000")  # looked up only when the id says gift card
    assert card_of("paypal_0000000") is None


def test_tau2_tells_a_gift_card_by_its_source_and_looks_every_method_up(db: EpisodeDB) -> None:
    methods = db.get_one(User, "sofia_park_8524").payment_methods
    other = next(key for key, method in methods.items() if method["source"] != "gift_card")
    card_of = gift_card_of(db, "sofia_park_8524")
    assert card_of("gift_card_7120191") == methods["gift_card_7120191"]
    assert card_of(other) is None
    with pytest.raises(ValueError, match=r"^Payment method not found$"):
        card_of("paypal_0000000")
    with pytest.raises(ValueError, match=r"^User not found$"):
        gift_card_of(db, "nobody_0")("gift_card_7120191")
