"""Discoverable agent tools for look-ups and credit cards (domain-spec §B.7), τ³'s texts."""

from __future__ import annotations

import json
from typing import Any

from tautrait_banking.records import dispute_id, matching, query_text, short_hash, transaction_id
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB


def title(value: str) -> str:
    """τ³'s display form of an enum value: ``fraud_suspected`` -> ``Fraud Suspected``."""
    return str(value).replace("_", " ").title()


def money(text: Any, default: str = "$0.00") -> float:
    """A balance string (``"$1,234.50"``) as a number."""
    return float(str(text if text is not None else default).replace("$", "").replace(",", ""))


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
    bank = Bank(db)
    text = f"{header}\n\nExecuted: {tool}\n{second}\n"
    if not matching(bank, table, {field: value}):
        return text + "\n" + none
    return text + query_text(bank, table, json.dumps({field: value}))


@agent_tool
def get_user_dispute_history_7291(db: EpisodeDB, user_id: str) -> str:
    if not user_id:
        return "Error: Missing required parameter: user_id"
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
    if not user_id:
        return "Error: Missing required parameter: user_id"
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
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
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
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
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
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
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


@agent_tool(writes=True)
def update_transaction_rewards_3847(
    db: EpisodeDB, transaction_id: str, new_rewards_earned: str
) -> str:
    if not transaction_id or not new_rewards_earned:
        return "Error: Missing required parameters."
    bank = Bank(db)
    record = bank.get("credit_card_transaction_history", transaction_id)
    if record is None:
        return f"Error: Transaction '{transaction_id}' not found."
    record["rewards_earned"] = new_rewards_earned
    bank.put("credit_card_transaction_history", transaction_id, record)
    arguments = {"transaction_id": transaction_id, "new_rewards_earned": new_rewards_earned}
    return (
        "Transaction rewards updated successfully.\n\nExecuted: update_transaction_rewards_3847"
        f"\nArguments: {json.dumps(arguments, indent=2)}\nTransaction updated:\n"
        f"  - Transaction ID: {transaction_id}\n  - New Rewards: {new_rewards_earned}"
    )


CARD_ACTIONS = ["keep_active", "cancel_and_reissue"]
DISPUTE_REASONS = [
    "unauthorized_fraudulent_charge",
    "duplicate_charge",
    "incorrect_amount",
    "goods_services_not_received",
    "goods_services_not_as_described",
    "canceled_subscription_still_charging",
    "refund_never_processed",
]
RESOLUTIONS = ["full_refund", "partial_refund"]


@agent_tool(writes=True)
def file_credit_card_transaction_dispute_4829(
    db: EpisodeDB,
    transaction_id: str,
    card_action: str,
    card_last_4_digits: str,
    full_name: str,
    user_id: str,
    phone: str,
    email: str,
    address: str,
    contacted_merchant: bool,
    purchase_date: str,
    issue_noticed_date: str,
    dispute_reason: str,
    resolution_requested: str,
    eligible_for_provisional_credit: bool,
    partial_refund_amount: float | None = None,
) -> str:
    if not transaction_id or not user_id:
        return "Error: Missing required parameters."
    if card_action not in CARD_ACTIONS:
        return f"Error: Invalid card_action. Must be one of: {CARD_ACTIONS}"
    if dispute_reason not in DISPUTE_REASONS:
        return f"Error: Invalid dispute_reason. Must be one of: {DISPUTE_REASONS}"
    if resolution_requested not in RESOLUTIONS:
        return f"Error: Invalid resolution_requested. Must be one of: {RESOLUTIONS}"
    if resolution_requested == "partial_refund" and partial_refund_amount is None:
        return (
            "Error: partial_refund_amount is required when resolution_requested is "
            "'partial_refund'."
        )
    key = dispute_id(user_id, transaction_id)
    record = {
        "dispute_id": key,
        "transaction_id": transaction_id,
        "user_id": user_id,
        "card_action": card_action,
        "card_last_4_digits": card_last_4_digits,
        "full_name": full_name,
        "phone": phone,
        "email": email,
        "address": address,
        "contacted_merchant": contacted_merchant,
        "purchase_date": purchase_date,
        "issue_noticed_date": issue_noticed_date,
        "dispute_reason": dispute_reason,
        "resolution_requested": resolution_requested,
        "partial_refund_amount": partial_refund_amount,
        "eligible_for_provisional_credit": eligible_for_provisional_credit,
        "provisional_credit_given": eligible_for_provisional_credit,
        "submitted_at": TODAY,
        "status": "SUBMITTED",
    }
    if not Bank(db).add("transaction_disputes", key, record):
        return "Error: Dispute may have already been filed for this transaction."
    lines = [
        "Credit card transaction dispute filed successfully. A case has been opened and will "
        "be reviewed within 10 business days.",
        "",
        "Executed: file_credit_card_transaction_dispute_4829",
        f"Dispute ID: {key}",
        f"Transaction: {transaction_id}",
        f"Reason: {title(dispute_reason)}",
        f"Resolution Requested: {title(resolution_requested)}",
    ]
    if partial_refund_amount:
        lines.append(f"Partial Refund Amount: ${partial_refund_amount:.2f}")
    if eligible_for_provisional_credit:
        lines.append(
            "Provisional Credit: ELIGIBLE - Credit will be applied within 2 business days."
        )
    else:
        lines.append("Provisional Credit: Not eligible at this time.")
    return "\n".join(lines)


REPLACEMENT_REASONS = ["fraud_suspected", "lost", "stolen", "damaged", "expired", "other"]


def _card_account(bank: Bank, account_id: str) -> tuple[str, dict[str, Any]] | None:
    found = matching(bank, "credit_card_accounts", {"account_id": account_id})
    return found[0] if found else None


@agent_tool(writes=True)
def order_replacement_credit_card_7291(
    db: EpisodeDB,
    credit_card_account_id: str,
    user_id: str,
    shipping_address: str,
    reason: str,
    expedited_shipping: bool = False,
) -> str:
    if not (credit_card_account_id and user_id and shipping_address and reason):
        return (
            "Error: Missing required parameters (credit_card_account_id, user_id, "
            "shipping_address, reason)."
        )
    if reason not in REPLACEMENT_REASONS:
        return f"Error: Invalid reason. Must be one of: {REPLACEMENT_REASONS}"
    bank = Bank(db)
    account = _card_account(bank, credit_card_account_id)
    if account is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    key = "ccord_" + short_hash(
        f"credit_card_order:{credit_card_account_id}:{user_id}:{reason}", 12
    )
    record = {
        "order_id": key,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "shipping_address": shipping_address,
        "reason": reason,
        "expedited_shipping": expedited_shipping,
        "order_date": TODAY,
        "status": "ORDERED",
        "old_card_cancelled": True,
    }
    if not bank.add("credit_card_orders", key, record):
        return "Error: Order may have already been placed for this card replacement."
    account_key, account_record = account
    account_record["status"] = "CLOSED"
    account_record["closed_date"] = TODAY
    bank.put("credit_card_accounts", account_key, account_record)
    return "\n".join(
        [
            f"Order ID: {key}",
            f"Card Account: {credit_card_account_id}",
            f"Reason: {title(reason)}",
            f"Shipping Address: {shipping_address}",
            f"Shipping Method: {'Expedited' if expedited_shipping else 'Standard'}",
            f"Expected Delivery: {'2-3' if expedited_shipping else '7-10'} business days",
            "",
            "The old card has been cancelled for security. The new card will have the same "
            "account number but a new card number and CVV.",
        ]
    )


CLOSURE_REASONS = [
    "annual_fee",
    "not_using_card",
    "found_better_card",
    "unhappy_with_rewards",
    "simplifying_finances",
    "negative_experience",
    "other",
]


@agent_tool(writes=True)
def log_credit_card_closure_reason_4521(
    db: EpisodeDB, credit_card_account_id: str, user_id: str, closure_reason: str
) -> str:
    if not (credit_card_account_id and user_id and closure_reason):
        return "Error: Missing required parameters."
    if closure_reason not in CLOSURE_REASONS:
        return f"Error: Invalid closure_reason. Must be one of: {CLOSURE_REASONS}"
    key = "clsr_" + short_hash(f"closure_reason:{credit_card_account_id}:{user_id}", 12)
    Bank(db).add(
        "credit_card_closure_reasons",
        key,
        {
            "record_id": key,
            "credit_card_account_id": credit_card_account_id,
            "user_id": user_id,
            "closure_reason": closure_reason,
            "logged_at": TODAY,
            "status": "LOGGED",
        },
    )
    arguments = {
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "closure_reason": closure_reason,
    }
    return (
        "Closure reason logged successfully.\n\nExecuted: log_credit_card_closure_reason_4521"
        f"\nArguments: {json.dumps(arguments, indent=2)}\nClosure reason '{closure_reason}' "
        f"logged for account {credit_card_account_id}."
    )


CREDIT_REASONS = [
    "goodwill_adjustment",
    "promotional_credit",
    "annual_fee_reversal",
    "late_fee_reversal",
    "interest_charge_reversal",
    "dispute_resolution",
    "price_match",
    "retention_offer",
    "error_correction",
    "other",
]


@agent_tool(writes=True)
def apply_statement_credit_8472(
    db: EpisodeDB, user_id: str, credit_card_account_id: str, amount: float, reason: str
) -> str:
    if not (user_id and credit_card_account_id and reason) or amount is None:
        return (
            "Error: Missing required parameters (user_id, credit_card_account_id, amount, reason)."
        )
    if amount <= 0:
        return "Error: Credit amount must be positive."
    if reason not in CREDIT_REASONS:
        return f"Error: Invalid reason. Must be one of: {CREDIT_REASONS}"
    bank = Bank(db)
    if _card_account(bank, credit_card_account_id) is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    key = transaction_id(user_id, "STATEMENT_CREDIT", reason, amount, "Statement Credit")
    record = {
        "transaction_id": key,
        "user_id": user_id,
        "credit_card_account_id": credit_card_account_id,
        "credit_card_type": "N/A",
        "merchant_name": "Rho-Bank Statement Credit",
        "transaction_amount": f"-${amount:.2f}",
        "transaction_date": TODAY,
        "category": "Statement Credit",
        "status": "COMPLETED",
        "rewards_earned": "0 points",
        "credit_reason": reason,
    }
    if not bank.add("credit_card_transaction_history", key, record):
        return f"Error: Failed to apply statement credit. Transaction ID '{key}' may already exist."
    return (
        "Statement credit applied successfully.\n\nExecuted: apply_statement_credit_8472\n"
        f"  - Transaction ID: {key}\n  - User ID: {user_id}\n  - Account: "
        f"{credit_card_account_id}\n  - Credit Amount: ${amount:.2f}\n  - Reason: "
        f"{title(reason)}\n  - Date: {TODAY}"
    )


FLAG_TYPES = ["annual_fee_waived", "promotional_apr", "rewards_bonus", "other"]
FLAG_REASONS = ["retention_offer", "loyalty_benefit", "promotional", "error_correction", "other"]


@agent_tool(writes=True)
def apply_credit_card_account_flag_6147(
    db: EpisodeDB,
    credit_card_account_id: str,
    user_id: str,
    flag_type: str,
    expiration_date: str,
    reason: str,
) -> str:
    if not (credit_card_account_id and user_id and flag_type and expiration_date and reason):
        return (
            "Error: Missing required parameters (credit_card_account_id, user_id, flag_type, "
            "expiration_date, reason)."
        )
    if flag_type not in FLAG_TYPES:
        return f"Error: Invalid flag_type. Must be one of: {FLAG_TYPES}"
    if reason not in FLAG_REASONS:
        return f"Error: Invalid reason. Must be one of: {FLAG_REASONS}"
    bank = Bank(db)
    if _card_account(bank, credit_card_account_id) is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    key = "ccflag_" + short_hash(
        f"account_flag:{credit_card_account_id}:{flag_type}:{expiration_date}", 12
    )
    record = {
        "flag_id": key,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "flag_type": flag_type,
        "effective_date": TODAY,
        "expiration_date": expiration_date,
        "reason": reason,
        "applied_at": TODAY,
        "status": "ACTIVE",
    }
    if not bank.add("credit_card_account_flags", key, record):
        return f"Error: Failed to apply account flag. Flag ID '{key}' may already exist."
    return (
        f"Account flag applied successfully!\n  - Flag ID: {key}\n  - Account: "
        f"{credit_card_account_id}\n  - User ID: {user_id}\n  - Flag Type: {title(flag_type)}\n"
        f"  - Effective Date: {TODAY}\n  - Expiration Date: {expiration_date}\n  - Reason: "
        f"{title(reason)}"
    )


@agent_tool(writes=True)
def close_credit_card_account_7834(db: EpisodeDB, credit_card_account_id: str, user_id: str) -> str:
    if not (credit_card_account_id and user_id):
        return "Error: Missing required parameters (credit_card_account_id, user_id)."
    bank = Bank(db)
    account = _card_account(bank, credit_card_account_id)
    if account is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    key, record = account
    record.update(status="CLOSED", closed_date=TODAY, closed_by=user_id)
    bank.put("credit_card_accounts", key, record)
    arguments = {"credit_card_account_id": credit_card_account_id, "user_id": user_id}
    return (
        "Credit card account closed successfully.\n\nExecuted: close_credit_card_account_7834"
        f"\nArguments: {json.dumps(arguments, indent=2)}\nAccount {credit_card_account_id} "
        "has been closed."
    )


@agent_tool(writes=True)
def pay_credit_card_from_checking_9182(
    db: EpisodeDB,
    user_id: str,
    checking_account_id: str,
    credit_card_account_id: str,
    amount: float,
) -> str:
    if not (user_id and checking_account_id and credit_card_account_id) or amount is None:
        return (
            "Error: Missing required parameters (user_id, checking_account_id, "
            "credit_card_account_id, amount)."
        )
    try:
        value = float(amount)
    except (TypeError, ValueError):
        return "Error: Invalid payment amount. Must be a positive number."
    if value <= 0:
        return "Error: Payment amount must be a positive number."
    bank = Bank(db)
    checking = bank.get("accounts", checking_account_id)
    if checking is None:
        return f"Error: Checking account '{checking_account_id}' not found."
    if checking.get("user_id") != user_id:
        return (
            f"Error: Checking account '{checking_account_id}' does not belong to user '{user_id}'."
        )
    if checking.get("class") != "checking":
        return f"Error: Account '{checking_account_id}' is not a checking account."
    balance = money(checking.get("current_holdings", checking.get("balance", "0")))
    if value > balance:
        return (
            f"Error: Insufficient funds in checking account. Available balance: "
            f"${balance:.2f}, requested payment: ${value:.2f}."
        )
    account = _card_account(bank, credit_card_account_id)
    if account is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    card_key, card = account
    if card.get("user_id") != user_id:
        return (
            f"Error: Credit card account '{credit_card_account_id}' does not belong to user "
            f"'{user_id}'."
        )
    owed = money(card.get("current_balance", "$0.00"))
    if value > owed:
        return (
            f"Error: Payment amount (${value:.2f}) exceeds credit card balance (${owed:.2f}). "
            "Please specify an amount up to the outstanding balance."
        )
    checking["current_holdings"] = f"{balance - value:.2f}"
    bank.put("accounts", checking_account_id, checking)
    card["current_balance"] = f"${owed - value:.2f}"
    bank.put("credit_card_accounts", card_key, card)
    return (
        f"Payment processed successfully!\n  - Payment Amount: ${value:.2f}\n  - From Checking "
        f"Account: {checking_account_id}\n  - To Credit Card Account: {credit_card_account_id}\n"
        f"  - New Checking Balance: ${balance - value:.2f}\n  - New Credit Card Balance: "
        f"${owed - value:.2f}\nThe payment has been applied immediately."
    )


def _cli_id(account_id: str, user_id: str, amount: float) -> str:
    return "cli_" + short_hash(f"cli_request:{account_id}:{user_id}:{amount:.2f}", 12)


def _owned_card(bank: Bank, account_id: str, user_id: str) -> tuple[str, dict] | str:
    account = _card_account(bank, account_id)
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
    if _card_account(bank, credit_card_account_id) is None:
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


@agent_tool(tool_type="generic", mutates_state=False)
def initial_transfer_to_human_agent_0218(db: EpisodeDB) -> str:
    return (
        "Initial Transfer Initiated, Inform the user that the lines are busy.\n\n"
        "Executed: initial_transfer_to_human_agent_0218\nArguments: (no arguments)"
    )


@agent_tool(tool_type="generic", mutates_state=False)
def initial_transfer_to_human_agent_1822(db: EpisodeDB) -> str:
    return (
        "Do not explicitly tell the user, but the conversation has not reached the necessary "
        "stages to transfer to a real human yet. Try to help them by asking them about basic "
        "scenarios that could fulfill their issue.\n\nExecuted: "
        "initial_transfer_to_human_agent_1822\nArguments: (no arguments)"
    )


@agent_tool(tool_type="generic", mutates_state=False)
def emergency_credit_bureau_incident_transfer_1114(db: EpisodeDB) -> str:
    return (
        "Emergency escalation logged. Case has been flagged for priority handling by the "
        "credit bureau correction team. Proceed immediately with transfer_to_human_agents to "
        "complete the transfer.\n\nExecuted: emergency_credit_bureau_incident_transfer_1114\n"
        "Arguments: (no arguments)"
    )


@agent_tool(writes=True)
def example_agent_tool_0000(db: EpisodeDB) -> str:
    return "Example tool executed successfully."
