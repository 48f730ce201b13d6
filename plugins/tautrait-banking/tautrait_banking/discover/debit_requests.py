"""Discoverable debit-card requests: temporary limit increases and Regulation E disputes."""

from __future__ import annotations

from tautrait_banking.discover.common import age_days, choice_problem, title
from tautrait_banking.records import (
    dispute_id,
)
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB

DEFAULT_ATM_LIMITS = {
    "blue account": 500,
    "green account": 600,
    "light blue account": 400,
    "green fee-free account": 500,
    "evergreen account": 750,
    "bluest account": 1500,
    "dark green account": 300,
    "gold years account": 600,
    "purple account": 1000,
}


@agent_tool(writes=True)
def request_temporary_debit_card_limit_increase_8374(
    db: EpisodeDB, card_id: str, limit_type: str, new_limit: int
) -> str:
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if not limit_type:
        return "Error: Missing required parameter: limit_type."
    if limit_type not in ("atm", "purchase"):
        return f"Error: Invalid limit_type '{limit_type}'. Must be 'atm' or 'purchase'."
    if new_limit is None:
        return "Error: Missing required parameter: new_limit."
    try:
        numeric = float(new_limit)
        if numeric != int(numeric):
            raise ValueError
    except (TypeError, ValueError):
        return f"Error: new_limit must be an integer, got '{new_limit}'."
    limit = int(numeric)
    if limit <= 0:
        return "Error: new_limit must be a positive amount."
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Debit card '{card_id}' is not active. Current status: {card.get('status')}. "
            "Only ACTIVE cards can have limit increases."
        )
    account_id = card.get("account_id")
    account = bank.get("accounts", account_id) if account_id else None
    if account is None:
        return f"Error: Could not find linked account for debit card '{card_id}'."
    if account.get("status") != "OPEN":
        return (
            f"Error: The linked account '{account_id}' is not in good standing. Account status: "
            f"{account.get('status')}."
        )
    age = age_days(account.get("date_opened"))
    if age < 60:
        return (
            "Error: Account must be at least 60 days old for a temporary limit increase. "
            f"Account age: {age} days."
        )
    field = f"daily_{limit_type}_limit"
    current = card.get(field)
    if current is None and limit_type == "atm":
        level = str(account.get("level", "")).lower()
        if "light green" in level:
            return (
                "Error: Light Green Account (teen checking) cards have policy-based limits that "
                "cannot be modified. The daily ATM withdrawal limit of $150 is fixed by account "
                "policy for safety reasons. The customer may request the parent/guardian to "
                "withdraw cash from their own account if needed."
            )
        current = DEFAULT_ATM_LIMITS.get(level)
        if current is None:
            return (
                "Error: Could not determine the default ATM limit for account type "
                f"'{account.get('level')}'. Please verify the account type."
            )
    if current is None:
        return (
            "Error: The card does not have a daily purchase limit configured. This may be a "
            "restricted account type where limits are set by account policy and cannot be "
            "modified."
        )
    maximum = int(1.5 * current)
    if limit > maximum:
        return (
            f"Error: Requested limit ${limit} exceeds the maximum allowed temporary increase. "
            f"Maximum temporary limit is ${maximum} (150% of current ${current} limit)."
        )
    if limit <= current:
        return (
            f"Error: Requested limit ${limit} is not higher than the current limit of ${current}."
        )
    card[field] = limit
    card[f"temporary_{limit_type}_limit_increase"] = True
    card[f"original_{limit_type}_limit"] = current
    card[f"temporary_{limit_type}_limit_expires"] = TODAY
    bank.put("debit_cards", card_id, card)
    name = "Daily ATM Withdrawal Limit" if limit_type == "atm" else "Daily Purchase Limit"
    return "\n".join(
        [
            f"Temporary {name} Increase Granted Successfully",
            f"Card ID: {card_id}",
            f"Previous Limit: ${current}",
            f"New Temporary Limit: ${limit}",
            f"Increase Amount: ${limit - current}",
            "",
            "Important Information:",
            "- This temporary increase expires in 24 hours",
            f"- After expiration, the limit will revert to ${current}",
            "- Only one temporary increase is allowed per 24-hour period",
            "",
            "Note: If the customer is at a third-party (non-Rho-Bank) ATM, that ATM may have its"
            " own",
            "per-transaction or daily limits that Rho-Bank cannot override. The customer may need"
            " to",
            "use a Rho-Bank ATM or make multiple smaller withdrawals at third-party ATMs.",
        ]
    )


DEBIT_CATEGORIES = [
    "unauthorized_transaction",
    "atm_cash_discrepancy",
    "atm_deposit_not_credited",
    "duplicate_charge",
    "incorrect_amount",
    "goods_services_not_received",
    "recurring_charge_after_cancellation",
    "card_present_fraud",
    "card_not_present_fraud",
]


DEBIT_TRANSACTION_TYPES = [
    "pin_purchase",
    "signature_purchase",
    "online_purchase",
    "atm_withdrawal",
    "atm_deposit",
    "recurring_payment",
    "person_to_person",
]


PIN_COMPROMISED = ["yes_shared", "yes_observed", "no", "unknown"]


DEBIT_CARD_ACTIONS = ["keep_active", "freeze_pending_investigation", "close_and_reissue"]


FRAUD_CATEGORIES = ("unauthorized_transaction", "card_present_fraud", "card_not_present_fraud")


@agent_tool(writes=True)
def file_debit_card_transaction_dispute_6281(
    db: EpisodeDB,
    transaction_id: str,
    account_id: str,
    card_id: str,
    user_id: str,
    dispute_category: str,
    transaction_date: str,
    discovery_date: str,
    disputed_amount: float,
    transaction_type: str,
    card_in_possession: bool,
    pin_compromised: str,
    contacted_merchant: bool,
    police_report_filed: bool,
    written_statement_provided: bool,
    provisional_credit_eligible: bool,
    customer_max_liability_amount: float,
    card_action: str,
) -> str:
    required = (
        transaction_id,
        account_id,
        card_id,
        user_id,
        dispute_category,
        transaction_date,
        discovery_date,
        disputed_amount,
        transaction_type,
        pin_compromised,
        card_action,
    )
    if not all(required):
        return "Error: Missing required parameters."
    if customer_max_liability_amount is None:
        return "Error: customer_max_liability_amount is required."
    if None in (
        card_in_possession,
        contacted_merchant,
        police_report_filed,
        written_statement_provided,
    ):
        return (
            "Error: card_in_possession, contacted_merchant, police_report_filed, and "
            "written_statement_provided are required boolean fields."
        )
    problem = choice_problem(
        dispute_category=(dispute_category, DEBIT_CATEGORIES),
        transaction_type=(transaction_type, DEBIT_TRANSACTION_TYPES),
        pin_compromised=(pin_compromised, PIN_COMPROMISED),
        card_action=(card_action, DEBIT_CARD_ACTIONS),
    )
    if problem:
        return problem
    if disputed_amount <= 0:
        return "Error: disputed_amount must be a positive number."
    key = dispute_id(user_id, transaction_id)
    fraud = dispute_category in FRAUD_CATEGORIES
    record = {
        "dispute_id": key,
        "transaction_id": transaction_id,
        "account_id": account_id,
        "card_id": card_id,
        "user_id": user_id,
        "dispute_category": dispute_category,
        "transaction_date": transaction_date,
        "discovery_date": discovery_date,
        "disputed_amount": disputed_amount,
        "transaction_type": transaction_type,
        "card_in_possession": card_in_possession,
        "pin_compromised": pin_compromised,
        "contacted_merchant": contacted_merchant,
        "police_report_filed": police_report_filed,
        "written_statement_provided": written_statement_provided,
        "provisional_credit_eligible": provisional_credit_eligible,
        "provisional_credit_issued": provisional_credit_eligible,
        "provisional_credit_amount": disputed_amount if provisional_credit_eligible else None,
        "customer_max_liability_amount": customer_max_liability_amount,
        "card_action": card_action,
        "is_fraud_category": fraud,
        "pin_shared_voluntarily": pin_compromised == "yes_shared",
        "submitted_at": TODAY,
        "status": "OPEN",
    }
    if not Bank(db).add("debit_card_disputes", key, record):
        return "Error: Dispute may have already been filed for this transaction."
    lines = [
        f"Dispute ID: {key}",
        f"Transaction: {transaction_id}",
        f"Account: {account_id}",
        f"Category: {title(dispute_category)}",
        f"Disputed Amount: ${disputed_amount:.2f}",
        f"Card Action: {title(card_action)}",
    ]
    if provisional_credit_eligible:
        lines.append(
            f"Provisional Credit: ISSUED - ${disputed_amount:.2f} credited within 10 business "
            "days per Regulation E."
        )
    else:
        lines.append(
            "Provisional Credit: Not eligible - see Debit Card Provisional Credit Guidelines "
            "for details."
        )
    if pin_compromised == "yes_shared":
        lines.append(
            "WARNING: Customer indicated PIN was shared voluntarily. This may affect liability "
            "determination."
        )
    if fraud and not police_report_filed and disputed_amount > 500:
        lines.append(
            "RECOMMENDATION: For fraud disputes over $500, filing a police report is recommended."
        )
    return "\n".join(lines)
