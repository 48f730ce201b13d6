"""Billing entries: showing them, bill settings, payments and the senior discount."""

from __future__ import annotations

import json

from tautrait_core import EpisodeDB, tool
from tautrait_telecom.rows import set_fields, upstream_record
from tautrait_telecom.schema import Billing
from tautrait_telecom.tools.customers import customer_exists, record_json


@tool
def get_billing_details(db: EpisodeDB, customer_id: str) -> str:
    """Show a customer's billing entry: balance, monthly charges by service, last payment,
    payment history, next bill date and bill settings.

    Args:
        customer_id: The customer id.
    """
    return record_json(
        db, Billing, customer_id, f"Error: No billing information found for customer: {customer_id}"
    )


@tool(writes=True)
def manage_billing(
    db: EpisodeDB,
    customer_id: str,
    paperless: bool,
    auto_pay: bool,
    billing_cycle: str,
) -> str:
    """Change a customer's bill settings (paperless bills, automatic payment, billing cycle)
    on their billing entry, and show the updated entry. All three settings are written, so
    pass the current value of any setting the customer keeps.

    Args:
        customer_id: The customer id.
        paperless: Whether bills are sent electronically only.
        auto_pay: Whether bills are paid automatically.
        billing_cycle: The billing cycle, e.g. 'monthly'.
    """
    if not customer_exists(db, customer_id):
        return f"Error: Customer not found: {customer_id}"
    billing = db.read_row(Billing, customer_id)
    if billing is None:
        raise KeyError(customer_id)
    settings = {"paperless": paperless, "auto_pay": auto_pay, "billing_cycle": billing_cycle}
    db.update_row(Billing, customer_id, set_fields(billing, **settings))
    return json.dumps({"customer_id": customer_id, "billing": upstream_record(billing)})


@tool(writes=True)
def record_payment(db: EpisodeDB, customer_id: str, amount: float, method: str, date: str) -> str:
    """Record a payment the customer makes toward their balance. The balance never goes
    below zero: any amount above the balance is not kept as credit.

    Args:
        customer_id: The customer id.
        amount: The amount paid, in dollars (e.g. 120.5).
        method: How the customer pays, e.g. 'credit_card' or 'bank_transfer'.
        date: The payment date, 'YYYY-MM-DD'.
    """
    billing = db.read_row(Billing, customer_id)
    if billing is None:
        return f"Error: No billing information found for customer: {customer_id}"
    paid = round(amount, 2)  # a non-number is refused before the tool runs
    balance = billing["current_balance"] if billing["current_balance"] is not None else 0.0
    new_balance = max(round(balance - paid, 2), 0.0)
    history = billing["payment_history"] if billing["payment_history"] is not None else []
    history.append({"date": date, "amount": paid, "status": "completed"})
    last = {"amount": paid, "date": date, "method": method, "status": "completed"}
    changes = set_fields(
        billing, current_balance=new_balance, payment_history=history, last_payment=last
    )
    db.update_row(Billing, customer_id, changes)
    receipt = {
        "customer_id": customer_id,
        "amount": f"{paid:.2f}",
        "method": method,
        "date": date,
        "current_balance": f"{new_balance:.2f}",
    }
    return json.dumps(receipt)


@tool
def get_senior_discount(db: EpisodeDB, original_price: str | int | float) -> str:
    """Compute the price of a service after the senior discount ($5.00 off, never below
    zero), as a 2-decimal amount.

    Args:
        original_price: The regular monthly price, e.g. '45.00'.
    """
    try:
        price = float(original_price)
    except ValueError:
        return "Error: original_price must be a number"
    return f"{max(price - 5.0, 0.0):.2f}"
