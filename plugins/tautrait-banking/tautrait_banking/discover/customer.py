"""The customer's discoverable tools (domain-spec §B.8). The core's guard checks that the
agent gave the tool and logs the call before these run."""

from __future__ import annotations

import json
from typing import Any

from tautrait_banking.discover.common import holdings
from tautrait_banking.records import (
    dispute_id,
    short_hash,
)
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import user_tool
from tautrait_core import EpisodeDB


def _executed(name: str, arguments: dict[str, Any]) -> str:
    return f"\n\nExecuted: {name}\nArguments: {json.dumps(arguments, indent=2)}\n"


@user_tool(writes=True)
def submit_cash_back_dispute_0589(db: EpisodeDB, user_id: str, transaction_id: str) -> str:
    bank = Bank(db)
    key = dispute_id(user_id, transaction_id)
    config = bank.get("task_config", "dispute_settings") or {}
    text = "Cash back dispute submitted successfully. Your case has been queued for review."
    text += _executed(
        "submit_cash_back_dispute_0589", {"user_id": user_id, "transaction_id": transaction_id}
    )
    record: dict[str, Any] = {
        "dispute_id": key,
        "user_id": user_id,
        "transaction_id": transaction_id,
        "submitted_at": TODAY,
    }
    if config.get("auto_resolve_disputes"):
        record.update(status="RESOLVED", resolution="APPROVED")
        status = (
            "Status: RESOLVED - The dispute has been reviewed and approved. The transaction "
            "rewards need to be updated."
        )
    else:
        record["status"] = "SUBMITTED"
        status = "Status: SUBMITTED - Your dispute has been queued for review."
    if not bank.add("cash_back_disputes", key, record):
        return text + "Note: Dispute may have already been submitted for this transaction."
    return text + f"Dispute ID: {key}\n{status}"


@user_tool(writes=True)
def get_referral_link(db: EpisodeDB, user_id: str, card_name: str) -> str:
    key = short_hash(f"referral_link:{user_id}:{card_name}", 16)
    text = (
        "Referral link generated successfully. Share this link with the person you want to refer."
    )
    text += _executed("get_referral_link", {"user_id": user_id, "card_name": card_name})
    record = {
        "referral_id": key,
        "referrer_id": user_id,
        "referred_account_type": card_name,
        "referral_status": "NO_PROGRESS",
        "date": TODAY,
    }
    if not Bank(db).add("referrals", key, record):
        return text + "Note: A referral link for this card may have already been generated."
    return text + f"Referral ID: {key}\nReferral link: https://rhobank.com/refer/{key}"


@user_tool
def get_card_last_4_digits(db: EpisodeDB, credit_card_account_id: str) -> str:
    found = [
        record
        for _, record in Bank(db).records("credit_card_accounts")
        if record.get("account_id") == credit_card_account_id
    ]
    if not found:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    digest = short_hash(f"card_last4:{credit_card_account_id}", 64)
    digits = "".join(char for char in digest if char.isdigit())[:4].ljust(4, "0")
    return (
        "Card information retrieved successfully."
        + _executed("get_card_last_4_digits", {"credit_card_account_id": credit_card_account_id})
        + f"Last 4 digits of card: {digits}"
    )


@user_tool(writes=True)
def deposit_check_3847(db: EpisodeDB, account_id: str, check_amount: float) -> str:
    try:
        amount = float(check_amount)
    except (TypeError, ValueError):
        return f"Error: Invalid check amount '{check_amount}'. Must be a number."
    if amount <= 0:
        return "Error: Check amount must be positive."
    bank = Bank(db)
    account = bank.get("accounts", account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    if account.get("status") not in ("ACTIVE", "OPEN"):
        return f"Error: Account '{account_id}' is not active."
    before = holdings(account)
    account["current_holdings"] = f"${before + amount:.2f}"
    bank.put("accounts", account_id, account)
    return (
        "Check deposited successfully. Funds will be available according to your account's "
        "deposit policy."
        + _executed("deposit_check_3847", {"account_id": account_id, "check_amount": check_amount})
        + f"Check deposit processed!\n  - Account: {account_id}\n  - Check Amount: "
        f"${amount:.2f}\n  - Previous Balance: ${before:.2f}\n  - New Balance: "
        f"${before + amount:.2f}"
    )
