"""Keeping the customer's phone consistent with the carrier's records (τ²'s
``sync_tools``, domain-spec §4.5).

Once a task has said who the customer is (``set_user_info``), their line's state is
mirrored onto the phone's surroundings after every tool call and set-up step: whether the
line is active, whether roaming is allowed, whether the data allowance is used up. A
payment the customer made marks the bill paid; a bill awaiting payment shows up as a
payment request on the phone. The phone does not search the network again here (a resumed
line shows no service until the phone reconnects, e.g. after a reboot).

It runs after every call, so it reads little and makes no ORM objects: the surroundings
record and the line with its plan through plain SQL, and the customer's bills only when some
bill awaits payment. Values are set only when they change, so an unchanged phone leaves
nothing to write.
"""

from __future__ import annotations

from typing import Any

from tautrait_core import EpisodeDB
from tautrait_telecom.tau2.tools.agent import bill_by_id, bills_awaiting_payment, customer_by_phone
from tautrait_telecom.tau2.tools.phone import surroundings

LINE_AND_PLAN = (
    "SELECT line.status, line.roaming_enabled, line.data_used_gb, line.data_refueling_gb, "
    "plan.data_limit_gb FROM tau2_telecom_lines AS line "
    "JOIN tau2_telecom_plans AS plan ON plan.plan_id = line.plan_id "
    "WHERE line.phone_number = ? ORDER BY line.rowid LIMIT 1"
)
"""What the sync needs of the customer's line (the first with their number) and plan."""
ANY_BILL_AWAITING_PAYMENT = (
    "SELECT 1 FROM tau2_telecom_bills WHERE status = 'Awaiting Payment' LIMIT 1"
)


def sync_state(db: EpisodeDB) -> None:
    """Mirror the customer's line onto their phone's surroundings (see the module docs)."""
    around = surroundings(db)
    phone_number = around.phone_number
    if phone_number is None:
        return
    found = db.plain_select(LINE_AND_PLAN, (phone_number,))
    if not found:
        raise ValueError(f"Line with phone number {phone_number} not found")
    status, roaming_enabled, data_used_gb, data_refueling_gb, data_limit_gb = found[0]
    wanted: dict[str, Any] = {
        "line_active": status == "Active",
        "roaming_allowed": bool(roaming_enabled),
        "mobile_data_usage_exceeded": data_used_gb >= data_limit_gb + data_refueling_gb,
    }
    request = around.payment_request
    if request is not None and request["paid"]:
        bill_by_id(db, request["bill_id"]).status = "Paid"
        wanted["payment_request"] = request = None
    if request is None and db.plain_select(ANY_BILL_AWAITING_PAYMENT):
        awaiting = bills_awaiting_payment(db, customer_by_phone(db, phone_number))
        if awaiting:
            bill = awaiting[0]
            wanted["payment_request"] = {
                "bill_id": bill.bill_id,
                "amount_due": bill.total_due,
                "paid": False,
            }
    for name, value in wanted.items():
        if getattr(around, name) != value:
            setattr(around, name, value)
