"""The agent's 13 tools of τ² telecom, and the carrier-side functions that task set-ups
and env assertions call by name (domain-spec §4.2).

Tools raise ``ValueError`` with τ²'s texts; :class:`~tautrait_core.Tau2Tool` turns an
exception into ``Error: <text>`` and a return value into τ²'s observation text (rows are
returned as their :func:`~tautrait_telecom.tau2.schema.record`, which dumps as τ²'s model).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from tautrait_core import EpisodeDB, PlainRecord
from tautrait_core.tau2 import Tau2Tool, tau2_found, tau2_tool
from tautrait_telecom.tau2.database import rows_in_order
from tautrait_telecom.tau2.schema import Bill, Customer, Device, Line, Plan, Record, record

TODAY = dt.date(2025, 2, 25)
"""τ² telecom's fixed clock (``get_today``)."""

agent_tool = tau2_tool("TelecomTools")


# -- look-ups, raising τ²'s "... not found" errors ---------------------------------------


def customer_by_id(db: EpisodeDB, customer_id: str) -> PlainRecord:
    return tau2_found(db.record(Customer, customer_id), f"Customer with ID {customer_id} not found")


def line_by_id(db: EpisodeDB, line_id: str) -> PlainRecord:
    return tau2_found(db.record(Line, line_id), f"Line with ID {line_id} not found")


def plan_by_id(db: EpisodeDB, plan_id: str) -> PlainRecord:
    return tau2_found(db.record(Plan, plan_id), f"Plan with ID {plan_id} not found")


def bill_by_id(db: EpisodeDB, bill_id: str) -> PlainRecord:
    return tau2_found(db.record(Bill, bill_id), f"Bill with ID {bill_id} not found")


def device_by_id(db: EpisodeDB, device_id: str) -> PlainRecord:
    return tau2_found(db.record(Device, device_id), f"Device with ID {device_id} not found")


def target_line(db: EpisodeDB, customer_id: str, line_id: str) -> PlainRecord:
    """The line ``line_id`` of customer ``customer_id`` (errors as τ² words them)."""
    customer = customer_by_id(db, customer_id)
    if line_id not in customer.line_ids:
        raise ValueError(f"Line {line_id} not found for customer {customer_id}")
    return line_by_id(db, line_id)


def bills_awaiting_payment(db: EpisodeDB, customer: PlainRecord) -> list[PlainRecord]:
    """The customer's bills in status Awaiting Payment, in ``bill_ids`` order."""
    bills = [bill_by_id(db, bill_id) for bill_id in customer.bill_ids]
    return [bill for bill in bills if bill.status == "Awaiting Payment"]


def customer_by_phone(db: EpisodeDB, phone_number: str) -> PlainRecord:
    """The first customer whose contact number, or one of whose lines' numbers, is
    ``phone_number``."""
    for customer in db.read_rows(Customer, order_by="rowid"):
        found = customer["phone_number"] == phone_number or any(
            line_by_id(db, line_id).phone_number == phone_number for line_id in customer["line_ids"]
        )
        if found:
            return customer_by_id(db, customer["customer_id"])
    raise ValueError(f"Customer with phone number {phone_number} not found")


def first_day_of_next_month(day: dt.date) -> dt.date:
    return (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1)


# -- tools --------------------------------------------------------------------------------


@agent_tool
def get_customer_by_phone(db: EpisodeDB, phone_number: str) -> Record:
    """Find a customer by their contact phone number or the number of one of their lines.

    Args:
        phone_number: The phone number to search for.
    """
    return record(customer_by_phone(db, phone_number))


@agent_tool
def get_customer_by_id(db: EpisodeDB, customer_id: str) -> Record:
    """Get a customer by their customer ID.

    Args:
        customer_id: The customer's ID, such as 'C1001'.
    """
    return record(customer_by_id(db, customer_id))


@agent_tool
def get_customer_by_name(db: EpisodeDB, full_name: str, dob: str) -> list[Record]:
    """Find customers by full name (any letter case) and date of birth.

    Args:
        full_name: The customer's full name.
        dob: The date of birth, as YYYY-MM-DD.
    """
    wanted = full_name.lower()
    return [
        record(customer)
        for customer in rows_in_order(db, Customer)
        if customer.full_name.lower() == wanted and customer.date_of_birth == dob
    ]


@agent_tool
def get_details_by_id(db: EpisodeDB, id: str) -> Record:
    """Get the record of a line, device, bill, customer or plan by its ID.

    Args:
        id: The ID; its first letter says what it is (L, D, B, C or P).
    """
    if id.startswith("L"):
        return record(line_by_id(db, id))
    if id.startswith("D"):
        return record(device_by_id(db, id))
    if id.startswith("B"):
        return record(bill_by_id(db, id))
    if id.startswith("C"):
        return record(customer_by_id(db, id))
    if id.startswith("P"):
        return record(plan_by_id(db, id))
    raise ValueError(f"Unknown ID format or type: {id}")


@agent_tool(writes=True)
def suspend_line(db: EpisodeDB, customer_id: str, line_id: str, reason: str) -> dict[str, Any]:
    """Suspend an active line of a customer (a monthly holding fee applies).

    Args:
        customer_id: The ID of the customer who owns the line.
        line_id: The ID of the line to suspend.
        reason: Why the line is suspended.
    """
    line = target_line(db, customer_id, line_id)
    if line.status != "Active":
        raise ValueError("Line must be active to suspend")
    line.status = "Suspended"
    line.suspension_start_date = TODAY
    return {
        "message": "Line suspended successfully. $5/month holding fee will apply.",
        "line": record(line),
    }


@agent_tool(writes=True)
def resume_line(db: EpisodeDB, customer_id: str, line_id: str) -> dict[str, Any]:
    """Resume a suspended (or pending) line of a customer.

    Args:
        customer_id: The ID of the customer who owns the line.
        line_id: The ID of the line to resume.
    """
    line = target_line(db, customer_id, line_id)
    if line.status not in ("Suspended", "Pending Activation"):
        raise ValueError("Line must be suspended to resume")
    line.status = "Active"
    line.suspension_start_date = None
    return {"message": "Line resumed successfully", "line": record(line)}


@agent_tool
def get_bills_for_customer(db: EpisodeDB, customer_id: str, limit: int = 12) -> list[Record]:
    """List a customer's bills, newest issue date first.

    Args:
        customer_id: The customer's ID.
        limit: How many bills to return at most.
    """
    customer = customer_by_id(db, customer_id)
    bills = [bill_by_id(db, bill_id) for bill_id in customer.bill_ids]
    newest_first = sorted(bills, key=lambda bill: bill.issue_date, reverse=True)
    return [record(bill) for bill in newest_first[:limit]]


@agent_tool(writes=True)
def send_payment_request(db: EpisodeDB, customer_id: str, bill_id: str) -> str:
    """Ask the customer to pay one of their bills (they see it on their phone).

    Args:
        customer_id: The ID of the customer who owns the bill.
        bill_id: The ID of the bill to request payment for.
    """
    customer = customer_by_id(db, customer_id)
    if bills_awaiting_payment(db, customer):
        raise ValueError("A bill is already awaiting payment for this customer")
    if bill_id not in customer.bill_ids:
        raise ValueError(f"Bill {bill_id} not found for customer {customer_id}")
    bill = bill_by_id(db, bill_id)
    bill.status = "Awaiting Payment"
    return f"Payment request sent to the customer for bill {bill.bill_id}"


@agent_tool
def get_data_usage(db: EpisodeDB, customer_id: str, line_id: str) -> dict[str, Any]:
    """Show a line's data use in the current cycle, its limit and refuelled data.

    Args:
        customer_id: The ID of the customer who owns the line.
        line_id: The ID of the line.
    """
    line = target_line(db, customer_id, line_id)
    plan = plan_by_id(db, line.plan_id)
    return {
        "line_id": line_id,
        "data_used_gb": line.data_used_gb,
        "data_limit_gb": plan.data_limit_gb,
        "data_refueling_gb": line.data_refueling_gb,
        "cycle_end_date": first_day_of_next_month(TODAY) - dt.timedelta(days=1),
    }


def roaming_tool(name: str, *, enabled: bool) -> Tau2Tool:
    """The agent's tool ``name`` that turns a line's roaming on (``enabled``) or off; τ²'s
    answer says whether it already was."""
    direction, word = ("on", "enabled") if enabled else ("off", "disabled")

    def function(db: EpisodeDB, customer_id: str, line_id: str) -> str:
        line = target_line(db, customer_id, line_id)
        if line.roaming_enabled == enabled:
            return f"Roaming was already {word}"
        line.roaming_enabled = enabled
        return f"Roaming {word} successfully"

    function.__name__ = name
    function.__doc__ = f"""Turn {direction} international roaming for a line.

    Args:
        customer_id: The ID of the customer who owns the line.
        line_id: The ID of the line.
    """
    return agent_tool(writes=True)(function)  # type: ignore[no-any-return]


enable_roaming = roaming_tool("enable_roaming", enabled=True)
disable_roaming = roaming_tool("disable_roaming", enabled=False)


@agent_tool(tool_type="generic")
def transfer_to_human_agents(db: EpisodeDB, summary: str) -> str:
    """Hand the customer over to a human agent, with a summary of their issue. Only when
    the customer asks for one or the issue cannot be solved with these tools.

    Args:
        summary: A summary of the customer's issue.
    """
    return "Transfer successful"


@agent_tool(writes=True)
def refuel_data(db: EpisodeDB, customer_id: str, line_id: str, gb_amount: float) -> dict[str, Any]:
    """Add data to a line for the current cycle, charged at the plan's refuelling price.

    Args:
        customer_id: The ID of the customer who owns the line.
        line_id: The ID of the line.
        gb_amount: How many gigabytes to add.
    """
    line = target_line(db, customer_id, line_id)
    if gb_amount <= 0:
        raise ValueError("Refuel amount must be positive")
    plan = plan_by_id(db, line.plan_id)
    charge = gb_amount * plan.data_refueling_price_per_gb
    line.data_refueling_gb += gb_amount
    description = f"Data refueling: {gb_amount} GB at ${plan.data_refueling_price_per_gb}/GB"
    apply_one_time_charge(db, customer_id, charge, description)
    message = f"Successfully added {gb_amount} GB of data for line {line_id} for ${charge:.2f}"
    return {
        "message": message,
        "new_data_refueling_gb": line.data_refueling_gb,
        "charge": charge,
    }


AGENT_TOOLS = [
    get_customer_by_phone,
    get_customer_by_id,
    get_customer_by_name,
    get_details_by_id,
    suspend_line,
    resume_line,
    get_bills_for_customer,
    send_payment_request,
    get_data_usage,
    enable_roaming,
    disable_roaming,
    transfer_to_human_agents,
    refuel_data,
]


def apply_one_time_charge(db: EpisodeDB, customer_id: str, amount: float, description: str) -> None:
    """Add a charge (or a credit, when negative) to the customer's first draft bill; a new
    draft bill for next month is opened when there is none.

    τ² names a new bill ``B`` + 8 random hex digits; here the digits come from the customer
    and their bill count, so a gold replay opens the same bill as the episode did.
    """
    customer = customer_by_id(db, customer_id)
    bills = (bill_by_id(db, bill_id) for bill_id in customer.bill_ids)
    draft = next((bill for bill in bills if bill.status == "Draft"), None)
    if draft is None:
        start = first_day_of_next_month(TODAY)
        seed = f"{customer_id}:{len(customer.bill_ids)}".encode()
        draft = Bill(
            bill_id="B" + hashlib.sha256(seed).hexdigest()[:8],
            customer_id=customer_id,
            period_start=start,
            period_end=first_day_of_next_month(start) - dt.timedelta(days=1),
            issue_date=start,
            total_due=0.0,
            due_date=start + dt.timedelta(days=14),
            status="Draft",
        )
        db.add(draft)
        customer.bill_ids = [*customer.bill_ids, draft.bill_id]
    item = {
        "description": description,
        "amount": amount,
        "date": TODAY.isoformat(),
        "item_type": "Credit" if amount < 0 else "Charge",
    }
    draft.line_items = [*draft.line_items, item]
    draft.total_due += amount
