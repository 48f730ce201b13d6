"""Discoverable look-ups of histories and accounts (τ³'s read tools, domain-spec §B.7)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from tautrait_banking.discover.common import cards_of
from tautrait_banking.records import (
    format_records,
    matching,
    query_text,
)
from tautrait_banking.store import Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB


def _history(
    db: EpisodeDB,
    tool: str,
    table: str,
    field: str,
    value: str,
    header: str,
    second: str,
    none: str,
) -> str:
    """τ³'s text of the records of ``table`` whose ``field`` is ``value`` (the tool's one
    argument, named as the field): ``header``, the call, ``second``, then them or ``none``."""
    if not value:
        return f"Error: Missing required parameter: {field}"
    bank = Bank(db)
    text = f"{header}\n\nExecuted: {tool}\n{second}\n"
    if not matching(bank, table, {field: value}):
        return text + "\n" + none
    return text + query_text(bank, table, json.dumps({field: value}))


@agent_tool
def get_user_dispute_history_7291(db: EpisodeDB, user_id: str) -> str:
    return _history(
        db,
        "get_user_dispute_history_7291",
        "transaction_disputes",
        "user_id",
        user_id,
        "User transaction dispute history retrieved successfully.",
        f"Transaction dispute history for user {user_id}:",
        "No transaction disputes found for this user.",
    )


@agent_tool
def get_debit_dispute_status_7483(db: EpisodeDB, user_id: str) -> str:
    return _history(
        db,
        "get_debit_dispute_status_7483",
        "debit_card_disputes",
        "user_id",
        user_id,
        "Debit card dispute history retrieved successfully.",
        f"Debit card dispute history for user {user_id}:",
        "No debit card disputes found for this user.",
    )


@agent_tool
def get_pending_replacement_orders_5765(db: EpisodeDB, credit_card_account_id: str) -> str:
    return _history(
        db,
        "get_pending_replacement_orders_5765",
        "credit_card_orders",
        "credit_card_account_id",
        credit_card_account_id,
        "Pending replacement orders check completed.",
        f"Replacement orders for credit card account {credit_card_account_id}:",
        "No pending replacement orders found for this credit card account.",
    )


@agent_tool
def get_closure_reason_history_8293(db: EpisodeDB, credit_card_account_id: str) -> str:
    return _history(
        db,
        "get_closure_reason_history_8293",
        "credit_card_closure_reasons",
        "credit_card_account_id",
        credit_card_account_id,
        "Closure reason history retrieved successfully.",
        f"Closure reason history for credit card account {credit_card_account_id}:",
        "No closure reason records found for this credit card account.",
    )


@agent_tool
def get_credit_limit_increase_history_4829(db: EpisodeDB, credit_card_account_id: str) -> str:
    return _history(
        db,
        "get_credit_limit_increase_history_4829",
        "credit_limit_increase_requests",
        "credit_card_account_id",
        credit_card_account_id,
        "Credit limit increase history retrieved.",
        f"Credit limit increase history for account {credit_card_account_id}:",
        "No credit limit increase requests found for this account.",
    )


@agent_tool
def get_payment_history_6183(db: EpisodeDB, credit_card_account_id: str, months: int) -> str:
    if not credit_card_account_id or months is None:
        return "Error: Missing required parameters (credit_card_account_id, months)."
    try:
        count = int(months)
    except (TypeError, ValueError):
        return "Error: Invalid months value. Must be a positive integer."
    if count <= 0:
        return "Error: months must be a positive integer."
    payments = [
        record
        for _, record in Bank(db).records("payment_history")
        if record.get("credit_card_account_id") == credit_card_account_id
    ]
    if not payments:
        return f"No payment history found for account '{credit_card_account_id}'."
    payments.sort(key=lambda record: str(record.get("payment_date", "")), reverse=True)
    payments = payments[:count]
    consecutive = 0
    for record in payments:
        if record.get("status") != "ON_TIME":
            break
        consecutive += 1
    lines = [
        f"Payment history for account '{credit_card_account_id}' (last {count} months):\n"
        f"Consecutive on-time payments: {consecutive}"
    ]
    for record in payments:
        lines.append(
            f"\n  - Payment Date: {record.get('payment_date')}\n    Amount: "
            f"{record.get('amount')}\n    Status: {record.get('status')}"
        )
    return "\n".join(lines)


@agent_tool
def get_all_user_accounts_by_user_id_3847(db: EpisodeDB, user_id: str) -> str:
    if not user_id:
        return "Error: Missing required parameter: user_id"
    bank = Bank(db)
    constraint = json.dumps({"user_id": user_id})
    accounts = (
        query_text(bank, "accounts", constraint)
        if matching(bank, "accounts", {"user_id": user_id})
        else "  No bank accounts found."
    )
    cards = (
        query_text(bank, "credit_card_accounts", constraint)
        if matching(bank, "credit_card_accounts", {"user_id": user_id})
        else "  No credit card accounts found."
    )
    return (
        "User accounts retrieved successfully.\n\nExecuted: "
        f"get_all_user_accounts_by_user_id_3847\nAccounts for user {user_id}:\n\nBank Accounts:\n"
        f"{accounts}\n\nCredit Card Accounts:\n{cards}"
    )


def _date_key(text: Any) -> dt.datetime:
    for layout in ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y"):
        try:
            return dt.datetime.strptime(str(text), layout)
        except ValueError:
            continue
    return dt.datetime.min


@agent_tool
def get_bank_account_transactions_9173(db: EpisodeDB, account_id: str) -> str:
    if not account_id:
        return "Error: Missing required parameter: account_id"
    bank = Bank(db)
    if bank.get("accounts", account_id) is None:
        return f"Error: Account '{account_id}' not found."
    found = matching(bank, "bank_account_transaction_history", {"account_id": account_id})
    found.sort(key=lambda item: _date_key(item[1].get("date")), reverse=True)
    text = (
        "Bank account transactions retrieved successfully.\n\nExecuted: "
        f"get_bank_account_transactions_9173\nTransactions for account {account_id}:\n"
    )
    if not found:
        return text + "\nNo transactions found for this account."
    return text + format_records("bank_account_transaction_history", found)


@agent_tool
def get_debit_cards_by_account_id_7823(db: EpisodeDB, account_id: str) -> str:
    if not account_id:
        return "Error: Missing required parameter 'account_id'."
    bank = Bank(db)
    account = bank.get("accounts", account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    if str(account.get("class", "")).lower() not in ("checking", "business_checking"):
        return (
            f"Error: Account '{account_id}' is not a checking account. Debit cards are only "
            "available for checking accounts."
        )
    cards = cards_of(bank, account_id)
    if not cards:
        return f"No debit cards found for account '{account_id}'."
    listed = []
    for key, card in cards:
        item = {"card_id": key, **card}
        if "last_4_digits" in item:
            item["card_number_last_4"] = item.pop("last_4_digits")
        if "issue_date" in item:
            item["date_issued"] = item.pop("issue_date")
        elif "created_date" in item:
            item["date_issued"] = item.pop("created_date")
        listed.append(item)
    listed.sort(key=lambda item: str(item.get("date_issued", "")), reverse=True)
    return json.dumps(listed, indent=2)


@agent_tool
def get_atm_deposit_images_8473(db: EpisodeDB, transaction_id: str) -> str:
    if not transaction_id:
        return "Error: Missing required parameter: transaction_id"
    record = Bank(db).get("bank_account_transaction_history", transaction_id)
    if record is None:
        return f"Error: Transaction '{transaction_id}' not found."
    if record.get("type") != "atm_deposit":
        return (
            f"Error: Transaction '{transaction_id}' is not an ATM deposit. This tool only works "
            "for ATM deposit transactions."
        )
    description = str(record.get("description", "")).upper()
    if "RHO-BANK" not in description and "RHOBANK" not in description:
        return (
            f"Error: Transaction '{transaction_id}' is from a third-party ATM. Deposit images "
            "are only available for Rho-Bank ATM deposits. For third-party ATM disputes, a "
            "chargeback request must be submitted to the ATM network."
        )
    # τ³ prints fixed envelope-scan templates here (no gold trajectory uses them)
    return (
        f"ATM deposit images for transaction {transaction_id}: IMAGES NOT AVAILABLE.\n\n"
        "Executed: get_atm_deposit_images_8473"
    )
