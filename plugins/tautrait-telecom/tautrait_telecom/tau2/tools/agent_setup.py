"""Carrier-side functions that are not tools: what τ² telecom tasks call by name to set
up a fault (``initialization_actions``) and to check the outcome (``env_assertions``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from tautrait_core import EpisodeDB
from tautrait_telecom.tau2.schema import Bill
from tautrait_telecom.tau2.tools.agent import (
    TODAY,
    bill_by_id,
    customer_by_id,
    line_by_id,
    plan_by_id,
    target_line,
)


def set_data_usage(db: EpisodeDB, customer_id: str, line_id: str, data_used_gb: float) -> str:
    """Set the data a line has used this cycle."""
    target_line(db, customer_id, line_id).data_used_gb = data_used_gb
    return f"Data usage set to {data_used_gb} GB for line {line_id}"


def suspend_line_for_overdue_bill(
    db: EpisodeDB, customer_id: str, line_id: str, new_bill_id: str, contract_ended: bool
) -> str:
    """Suspend an active line for last month's unpaid bill (``new_bill_id``, Overdue, one
    charge of the plan's monthly price); a contract that ended did so last month."""
    line = line_by_id(db, line_id)
    if line.status != "Active":
        raise ValueError("Line must be active to suspend for unpaid bill")
    plan = plan_by_id(db, line.plan_id)
    amount = plan.price_per_month
    if amount <= 0:
        raise ValueError("Amount must be positive for overdue bill")
    customer = customer_by_id(db, customer_id)
    if any(bill_by_id(db, bill_id).status == "Overdue" for bill_id in customer.bill_ids):
        raise ValueError("Customer already has an overdue bill")
    last_month_end = TODAY.replace(day=1) - dt.timedelta(days=1)
    last_month_start = last_month_end.replace(day=1)
    item = {
        "description": f"Charge for line {line.line_id}",
        "amount": amount,
        "date": TODAY.isoformat(),
        "item_type": "Charge",
    }
    db.add(
        Bill(
            bill_id=new_bill_id,
            customer_id=customer_id,
            period_start=last_month_start,
            period_end=last_month_end,
            issue_date=last_month_start,
            total_due=0.0 + amount,
            due_date=last_month_start + dt.timedelta(days=14),
            line_items=[item],
            status="Overdue",
        )
    )
    customer.bill_ids = [*customer.bill_ids, new_bill_id]
    line.status = "Suspended"
    line.suspension_start_date = TODAY
    if contract_ended:
        line.contract_end_date = last_month_end
    return (
        f"Line {line_id} suspended for unpaid bill {new_bill_id}. Contract ended: {contract_ended}"
    )


def assert_data_refueling_amount(
    db: EpisodeDB, customer_id: str, line_id: str, expected_amount: float
) -> bool:
    """Whether the line's refuelled data is ``expected_amount`` GB."""
    return abs(target_line(db, customer_id, line_id).data_refueling_gb - expected_amount) < 1e-6


def assert_line_status(db: EpisodeDB, customer_id: str, line_id: str, expected_status: str) -> bool:
    """Whether the line's status is ``expected_status``."""
    return target_line(db, customer_id, line_id).status == expected_status


def assert_overdue_bill_exists(db: EpisodeDB, customer_id: str, overdue_bill_id: str) -> bool:
    """True when the customer's bill is overdue; raises (as τ² does) otherwise."""
    customer = customer_by_id(db, customer_id)
    if overdue_bill_id not in customer.bill_ids:
        raise ValueError(f"Overdue bill {overdue_bill_id} not found")
    if bill_by_id(db, overdue_bill_id).status != "Overdue":
        raise ValueError(f"Overdue bill {overdue_bill_id} is not overdue")
    return True


def assert_no_overdue_bill(db: EpisodeDB, overdue_bill_id: str) -> bool:
    """Whether the bill is gone or paid."""
    bill = db.get(Bill, overdue_bill_id)
    return bill is None or bill.status == "Paid"


CARRIER_FUNCTIONS: tuple[Callable[..., Any], ...] = (
    set_data_usage,
    suspend_line_for_overdue_bill,
    assert_data_refueling_amount,
    assert_line_status,
    assert_overdue_bill_exists,
    assert_no_overdue_bill,
)
"""The carrier-side functions tasks call by name."""
