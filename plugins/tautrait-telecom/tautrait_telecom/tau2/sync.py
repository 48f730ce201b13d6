"""Keeping the customer's phone consistent with the carrier's records (τ²'s
``sync_tools``, domain-spec §4.5).

Once a task has said who the customer is (``set_user_info``), their line's state is
mirrored onto the phone's surroundings after every tool call and set-up step: whether the
line is active, whether roaming is allowed, whether the data allowance is used up. A
payment the customer made marks the bill paid; a bill awaiting payment shows up as a
payment request on the phone. The phone does not search the network again here (a resumed
line shows no service until the phone reconnects, e.g. after a reboot).
"""

from __future__ import annotations

from tautrait_core import EpisodeDB
from tautrait_telecom.tau2.tools.agent import (
    bill_by_id,
    bills_awaiting_payment,
    customer_by_phone,
    line_by_phone,
    plan_by_id,
)
from tautrait_telecom.tau2.tools.phone import surroundings


def sync_state(db: EpisodeDB) -> None:
    """Mirror the customer's line onto their phone's surroundings (see the module docs)."""
    around = surroundings(db)
    phone_number = around.phone_number
    if phone_number is None:
        return
    line = line_by_phone(db, phone_number)
    plan = plan_by_id(db, line.plan_id)
    around.line_active = line.status == "Active"
    around.roaming_allowed = line.roaming_enabled
    around.mobile_data_usage_exceeded = (
        line.data_used_gb >= plan.data_limit_gb + line.data_refueling_gb
    )
    request = around.payment_request
    if request is not None and request["paid"]:
        bill_by_id(db, request["bill_id"]).status = "Paid"
        around.payment_request = request = None
    if request is None:
        awaiting = bills_awaiting_payment(db, customer_by_phone(db, phone_number))
        if awaiting:
            bill = awaiting[0]
            around.payment_request = {
                "bill_id": bill.bill_id,
                "amount_due": bill.total_due,
                "paid": False,
            }
