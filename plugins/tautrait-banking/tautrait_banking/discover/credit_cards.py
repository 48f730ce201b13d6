"""Discoverable credit-card tools: rewards, disputes, replacements, closures, statement
credits, flags, payments."""

from __future__ import annotations

import json

from tautrait_banking.discover.common import card_account, choice_problem, holdings, money, title
from tautrait_banking.records import (
    dispute_id,
    short_hash,
    transaction_id,
)
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB


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
    problem = choice_problem(
        card_action=(card_action, CARD_ACTIONS),
        dispute_reason=(dispute_reason, DISPUTE_REASONS),
        resolution_requested=(resolution_requested, RESOLUTIONS),
    )
    if problem:
        return problem
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
    account = card_account(bank, credit_card_account_id)
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
    if card_account(bank, credit_card_account_id) is None:
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
    problem = choice_problem(flag_type=(flag_type, FLAG_TYPES), reason=(reason, FLAG_REASONS))
    if problem:
        return problem
    bank = Bank(db)
    if card_account(bank, credit_card_account_id) is None:
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
    account = card_account(bank, credit_card_account_id)
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
    balance = holdings(checking)
    if value > balance:
        return (
            f"Error: Insufficient funds in checking account. Available balance: "
            f"${balance:.2f}, requested payment: ${value:.2f}."
        )
    account = card_account(bank, credit_card_account_id)
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
