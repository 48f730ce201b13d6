"""Discoverable credit-limit tools: requests, approvals, denials."""

from __future__ import annotations

from tautrait_banking.discover.common import card_account, money
from tautrait_banking.records import (
    short_hash,
)
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB


def _cli_id(account_id: str, user_id: str, amount: float) -> str:
    return "cli_" + short_hash(f"cli_request:{account_id}:{user_id}:{amount:.2f}", 12)


def _owned_card(bank: Bank, account_id: str, user_id: str) -> tuple[str, dict] | str:
    account = card_account(bank, account_id)
    if account is None:
        return f"Error: Credit card account '{account_id}' not found."
    if account[1].get("user_id") != user_id:
        return f"Error: Credit card account '{account_id}' does not belong to user '{user_id}'."
    return account


@agent_tool(writes=True)
def submit_credit_limit_increase_request_7392(
    db: EpisodeDB, credit_card_account_id: str, user_id: str, requested_increase_amount: int
) -> str:
    if not (credit_card_account_id and user_id) or requested_increase_amount is None:
        return "Error: Missing required parameters."
    try:
        value = float(requested_increase_amount)
    except (TypeError, ValueError):
        return "Error: Invalid requested_increase_amount. Must be a whole number."
    if value != int(value):
        return "Error: Invalid requested_increase_amount. Must be a whole number of dollars."
    amount = int(value)
    if amount <= 0:
        return "Error: Requested increase amount must be positive."
    bank = Bank(db)
    found = _owned_card(bank, credit_card_account_id, user_id)
    if isinstance(found, str):
        return found
    key = _cli_id(credit_card_account_id, user_id, amount)
    record = {
        "request_id": key,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "requested_increase_amount": amount,
        "submitted_at": TODAY,
        "status": "PENDING",
    }
    if not bank.add("credit_limit_increase_requests", key, record):
        return "Error: A similar request may already exist."
    return (
        "Credit limit increase request submitted successfully.\n\nExecuted: "
        f"submit_credit_limit_increase_request_7392\n  - Request ID: {key}\n  - Account: "
        f"{credit_card_account_id}\n  - Requested Increase: ${amount:,}\n  - Status: PENDING"
    )


@agent_tool(writes=True)
def approve_credit_limit_increase_5847(
    db: EpisodeDB, credit_card_account_id: str, user_id: str, new_credit_limit: int
) -> str:
    if not (credit_card_account_id and user_id) or new_credit_limit is None:
        return "Error: Missing required parameters."
    bank = Bank(db)
    found = _owned_card(bank, credit_card_account_id, user_id)
    if isinstance(found, str):
        return found
    key, account = found
    pending_dispute = any(
        record.get("user_id") == user_id
        and record.get("status") in ("SUBMITTED", "UNDER_REVIEW", "PENDING")
        for _, record in bank.records("transaction_disputes")
    )
    pending_order = any(
        record.get("credit_card_account_id") == credit_card_account_id
        and record.get("status") in ("PENDING", "PROCESSING", "SHIPPED")
        for _, record in bank.records("credit_card_orders")
    )
    bad_status = str(account.get("account_status", "")).upper() in (
        "PAST_DUE",
        "DELINQUENT",
        "COLLECTIONS",
        "CLOSED",
    )
    if pending_dispute or pending_order or bad_status:
        return "Error: Credit limit increase request cannot be approved at this time."
    old = money(account.get("credit_limit", "$0.00"))
    new = float(new_credit_limit)
    account["credit_limit"] = f"${new:.2f}"
    bank.put("credit_card_accounts", key, account)
    request = _cli_id(credit_card_account_id, user_id, new - old)
    bank.add(
        "credit_limit_increase_requests",
        request,
        {
            "request_id": request,
            "credit_card_account_id": credit_card_account_id,
            "user_id": user_id,
            "previous_limit": f"${old:.2f}",
            "new_limit": f"${new:.2f}",
            "increase_amount": f"${new - old:.2f}",
            "decision_date": TODAY,
            "status": "APPROVED",
        },
    )
    return (
        f"Credit limit increase approved!\n  - Account: {credit_card_account_id}\n  - Previous "
        f"Limit: ${old:.2f}\n  - New Limit: ${new:.2f}\n  - Increase: ${new - old:.2f}\n"
        f"  - Effective Date: {TODAY}\nThe customer will receive a confirmation email."
    )


DENIAL_REASONS = [
    "insufficient_account_age",
    "cooldown_period_active",
    "pending_disputes",
    "pending_replacement_card",
    "past_due_balance",
    "high_utilization",
    "insufficient_payment_history",
    "requested_amount_exceeds_limit",
    "other",
]


@agent_tool(writes=True)
def deny_credit_limit_increase_5848(
    db: EpisodeDB, credit_card_account_id: str, user_id: str, denial_reason: str
) -> str:
    if not (credit_card_account_id and user_id and denial_reason):
        return "Error: Missing required parameters."
    if denial_reason not in DENIAL_REASONS:
        return f"Error: Invalid denial_reason. Must be one of: {', '.join(DENIAL_REASONS)}"
    bank = Bank(db)
    if card_account(bank, credit_card_account_id) is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    key = _cli_id(credit_card_account_id, user_id, 0.0)
    bank.add(
        "credit_limit_increase_requests",
        key,
        {
            "request_id": key,
            "credit_card_account_id": credit_card_account_id,
            "user_id": user_id,
            "denial_reason": denial_reason,
            "decision_date": TODAY,
            "status": "DENIED",
        },
    )
    return (
        f"Credit limit increase request denied.\n  - Account: {credit_card_account_id}\n"
        f"  - Denial Reason: {denial_reason}\n  - Date: {TODAY}\nThe customer will receive a "
        "notification explaining the denial."
    )
