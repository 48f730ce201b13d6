"""Discoverable bank-account tools: opening, closing, transfers, credits, interest reports."""

from __future__ import annotations

from typing import Any

from tautrait_banking.discover.common import ACTIVE, age_days, holdings
from tautrait_banking.records import (
    short_hash,
)
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB

OPEN_RULES = ("checking", "savings", "business_checking", "business_savings")


def _kind(account: dict[str, Any]) -> Any:
    return account.get("account_type") or account.get("class")


def _eligible(bank: Bank, user_id: str, account_type: str) -> bool:
    accounts = [
        record for _, record in bank.records("accounts") if record.get("user_id") == user_id
    ]

    def has(kinds: tuple[str, ...], days: int) -> bool:
        return any(
            _kind(record) in kinds
            and record.get("status") in ACTIVE
            and age_days(record.get("date_opened")) >= days
            for record in accounts
        )

    if account_type == "savings":
        return has(("checking", "personal_checking"), 14)
    if account_type == "business_checking":
        closed = any(record.get("status") == "CLOSED" for record in accounts)
        return not closed and has(("checking", "personal_checking"), 0)
    if account_type == "business_savings":
        negative = any(holdings(record) < 0 for record in accounts)
        return not negative and has(("business_checking",), 30)
    return True


@agent_tool(writes=True)
def open_bank_account_4821(
    db: EpisodeDB, user_id: str, account_type: str, account_class: str
) -> str:
    if not (user_id and account_type and account_class):
        return "Error: Missing required parameters."
    if account_type not in OPEN_RULES:
        return f"Error: Invalid account_type. Must be one of: {list(OPEN_RULES)}"
    bank = Bank(db)
    if not _eligible(bank, user_id, account_type):
        return "Error: Account eligibility requirements not met."
    key = short_hash(f"account:{user_id}:{account_type}:{account_class}", 16)
    record = {
        "account_id": key,
        "user_id": user_id,
        "account_type": account_type,
        "account_class": account_class,
        "current_holdings": "0.00",
        "status": "OPEN",
        "date_opened": TODAY,
    }
    if not bank.add("accounts", key, record):
        return f"Failed to open account: Account ID '{key}' may already exist."
    return (
        f"Bank account opened successfully!\n  - Account ID: {key}\n  - User ID: {user_id}\n"
        f"  - Account Type: {account_type}\n  - Account Class: {account_class}\n  - Status: "
        f"OPEN\n  - Initial Balance: $0.00\n  - Date Opened: {TODAY}"
    )


CHECKING_FEES = {
    "Light Blue": (15, 30),
    "Light Green": (15, 30),
    "Green Fee-Free": (15, 30),
    "Blue": (25, 60),
    "Green": (25, 60),
    "Evergreen": (50, 90),
    "Bluest": (100, 180),
}


SAVINGS_FEES = {
    "Bronze": (20, 60),
    "Silver": (35, 90),
    "Silver Plus": (35, 90),
    "Gold": (75, 180),
    "Gold Plus": (75, 180),
    "Gold Years": (75, 180),
    "Platinum": (150, 270),
    "Platinum Plus": (150, 270),
    "Diamond Elite": (150, 270),
}


def _closure_fee(account: dict[str, Any]) -> tuple[float, int] | None:
    level = str(account.get("level", "")).removesuffix(" Account")
    table = {"checking": CHECKING_FEES, "savings": SAVINGS_FEES}.get(account.get("class"), {})
    return table.get(level)


@agent_tool(writes=True)
def close_bank_account_7392(
    db: EpisodeDB,
    account_id: str,
    reason: str = "Customer requested closure",
    waive_early_closure_fee: bool = False,
) -> str:
    if not account_id:
        return "Error: Missing required parameter (account_id)."
    bank = Bank(db)
    account = bank.get("accounts", account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    if account.get("status") == "CLOSED":
        return f"Error: Account '{account_id}' is already closed."
    balance = holdings(account)
    fee = _closure_fee(account)
    if not waive_early_closure_fee and fee is not None:
        amount, window = fee
        if age_days(account.get("date_opened")) < window:
            if balance < amount:
                return "Error: Account unable to be closed."
            balance -= amount
    if balance != 0:
        return (
            f"Error: Account balance must be $0.00 before closing. Current balance: ${balance:.2f}"
        )
    account.update(
        status="CLOSED",
        date_closed=TODAY,
        closure_reason=reason,
        early_closure_fee_waived=waive_early_closure_fee,
    )
    bank.put("accounts", account_id, account)
    return (
        f"Bank account closed successfully!\n  - Account ID: {account_id}\n  - Account Type: "
        f"{account.get('account_type') or 'N/A'}\n  - Account Class: "
        f"{account.get('account_class') or 'N/A'}\n  - Status: CLOSED\n  - Date Closed: "
        f"{TODAY}\n  - Reason: {reason}\n  - Early Closure Fee Waived: "
        f"{'Yes' if waive_early_closure_fee else 'No'}"
    )


@agent_tool(writes=True)
def transfer_funds_between_bank_accounts_7291(
    db: EpisodeDB, source_account_id: str, destination_account_id: str, amount: float
) -> str:
    if not (source_account_id and destination_account_id) or amount is None:
        return (
            "Error: Missing required parameters (source_account_id, destination_account_id, "
            "amount)."
        )
    try:
        value = float(amount)
    except (TypeError, ValueError):
        return f"Error: Invalid amount '{amount}'. Must be a number."
    if value <= 0:
        return "Error: Transfer amount must be positive."
    if source_account_id == destination_account_id:
        return "Error: Source and destination accounts cannot be the same."
    bank = Bank(db)
    source = bank.get("accounts", source_account_id)
    if source is None:
        return f"Error: Source account '{source_account_id}' not found."
    destination = bank.get("accounts", destination_account_id)
    if destination is None:
        return f"Error: Destination account '{destination_account_id}' not found."
    if source.get("status") not in ACTIVE:
        return f"Error: Source account '{source_account_id}' is not active."
    if destination.get("status") not in ACTIVE:
        return f"Error: Destination account '{destination_account_id}' is not active."
    available = holdings(source)
    if available < value:
        return (
            f"Error: Insufficient funds. Source account balance is ${available:.2f}, but "
            f"transfer amount is ${value:.2f}."
        )
    received = holdings(destination)
    source["current_holdings"] = f"${available - value:.2f}"
    destination["current_holdings"] = f"${received + value:.2f}"
    bank.put("accounts", source_account_id, source)
    bank.put("accounts", destination_account_id, destination)
    return (
        f"Transfer completed successfully!\n  - Amount: ${value:.2f}\n  - From: "
        f"{source_account_id} (new balance: ${available - value:.2f})\n  - To: "
        f"{destination_account_id} (new balance: ${received + value:.2f})"
    )


def _account_credit(
    db: EpisodeDB,
    account_id: str,
    amount: Any,
    credit_type: str,
    *,
    kind: str,
) -> str:
    checking = kind == "checking"
    types = (
        {"rebate_credit": "REBATE CREDIT", "fee_refund": "FEE REFUND"}
        if checking
        else {
            "interest_correction": "INTEREST CORRECTION",
            "fee_refund": "FEE REFUND",
            "goodwill_credit": "GOODWILL CREDIT",
        }
    )
    if not (account_id and credit_type) or amount is None:
        return "Error: Missing required parameters."
    try:
        value = float(amount)
    except (TypeError, ValueError):
        return "Error: Invalid credit amount. Must be a number."
    if value <= 0:
        return "Error: Credit amount must be positive."
    if credit_type not in types:
        return f"Error: Invalid credit_type. Must be one of: {list(types)}"
    bank = Bank(db)
    account = bank.get("accounts", account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    account_class = str(account.get("class", "")).lower()
    if checking and account_class != "checking":
        return (
            f"Error: Account '{account_id}' is not a checking account. Credits can only be "
            "applied to checking accounts."
        )
    if not checking and account_class not in ("saving", "savings"):
        return (
            f"Error: Account '{account_id}' is not a savings account. This tool only applies "
            "to savings accounts."
        )
    if account.get("status") not in ACTIVE:
        return f"Error: Account '{account_id}' is not active."
    before = holdings(account)
    after = before + value
    account["current_holdings"] = f"${after:.2f}" if checking else f"{after:.2f}"
    bank.put("accounts", account_id, account)
    prefix = "checking_credit" if checking else "savings_credit"
    key = "txn_" + short_hash(f"{prefix}:{account_id}:{credit_type}:{value}:{TODAY}", 16)
    bank.put(
        "bank_account_transaction_history",
        key,
        {
            "transaction_id": key,
            "account_id": account_id,
            "date": TODAY,
            "description": f"{types[credit_type]} - CUSTOMER SERVICE",
            "amount": value,
            "type": credit_type,
            "status": "posted",
        },
    )
    return (
        f"\nCredit applied successfully!\n  - Transaction ID: {key}\n  - Account: {account_id}\n"
        f"  - Credit Type: {credit_type}\n  - Amount: ${value:.2f}\n  - Previous Balance: "
        f"${before:.2f}\n  - New Balance: ${after:.2f}"
    )


@agent_tool(writes=True)
def apply_checking_account_credit_5829(
    db: EpisodeDB, account_id: str, amount: float, credit_type: str
) -> str:
    return _account_credit(db, account_id, amount, credit_type, kind="checking")


@agent_tool(writes=True)
def apply_savings_account_credit_6831(
    db: EpisodeDB, account_id: str, amount: float, credit_type: str
) -> str:
    return _account_credit(db, account_id, amount, credit_type, kind="savings")


@agent_tool(writes=True)
def submit_interest_discrepancy_report_7294(
    db: EpisodeDB,
    account_id: str,
    user_id: str,
    expected_apy: float,
    actual_apy: float,
    amount_difference: float,
) -> str:
    if (
        not (account_id and user_id)
        or expected_apy is None
        or actual_apy is None
        or amount_difference is None
    ):
        return "Error: Missing required parameters."
    try:
        expected, actual, difference = (
            float(expected_apy),
            float(actual_apy),
            float(amount_difference),
        )
    except (TypeError, ValueError):
        return "Error: expected_apy, actual_apy, and amount_difference must be numbers."
    bank = Bank(db)
    account = bank.get("accounts", account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    user = bank.get("users", user_id)
    if user is None:
        return f"Error: User '{user_id}' not found."
    key = "IDR_" + short_hash(
        f"interest_report:{account_id}:{user_id}:{expected}:{actual}:{TODAY}", 16
    )
    return (
        f"\nInterest Discrepancy Report Submitted Successfully!\n  - Report ID: {key}\n"
        f"  - Account: {account_id} ({account.get('level', 'Unknown')})\n  - Customer: "
        f"{user.get('name', 'Unknown')}\n  - Expected APY: {expected}%\n  - Actual APY: "
        f"{actual}%\n  - APY Difference: {round(expected - actual, 4)}%\n  - Amount "
        f"Difference: ${difference:.2f}\n  - Status: PENDING_REVIEW\n\nThe backend team will "
        "investigate this discrepancy and ensure correct APY calculations are applied going "
        "forward."
    )
