"""The bank's listed tools: the agent's ten (the discoverable-tool wrappers come from the
core) and the customer's four own tools (domain-spec §B.5, §B.8), with τ³'s texts."""

from __future__ import annotations

from typing import Literal

from tautrait_banking.records import query_by, query_text, short_hash, transaction_id
from tautrait_banking.store import TODAY, Bank
from tautrait_core import EpisodeDB
from tautrait_core.tau2 import Tau2Tool, tau2_tool

agent_tool = tau2_tool("KnowledgeTools")
user_tool = tau2_tool("KnowledgeUserTools")

TRANSFER_REASONS = (
    "fraud_or_security_concern",
    "account_closure_request",
    "deceased_account_holder",
    "legal_or_regulatory_matter",
    "account_ownership_dispute",
    "complex_billing_dispute",
    "abusive_customer_behavior",
    "third_party_inquiry",
    "technical_system_error",
    "unconfirmed_external_communication",
    "customer_demands_after_unavailable_offer_refusal",
    "kb_search_unsuccessful_customer_requests_transfer",
    "specialized_department_required",
    "accessibility_or_special_needs",
    "customer_frustrated_demands_human",
    "supervisor_request_service_complaint",
    "customer_requests_human_no_specific_reason",
    "request_completed_customer_wants_human_followup",
    "other",
)
TransferReason = Literal[TRANSFER_REASONS]  # type: ignore[valid-type]


@agent_tool(tool_type="generic", mutates_state=False)
def transfer_to_human_agents(db: EpisodeDB, summary: str, reason: TransferReason = "other") -> str:
    """Transfer the customer to a human agent, with a summary and the reason.

    Args:
        summary: A summary of the customer's issue.
        reason: Why the customer is transferred.
    """
    if reason not in TRANSFER_REASONS:
        return f"Error: Invalid transfer reason '{reason}'. Must be one of: " + ", ".join(
            TRANSFER_REASONS
        )
    return f"Transfer successful (reason: {reason}). A human agent will assist you shortly."


@agent_tool
def get_current_time(db: EpisodeDB) -> str:
    """Get the current date and time."""
    return "The current time is 2025-11-14 03:40:00 EST."


@agent_tool
def get_user_information_by_id(db: EpisodeDB, user_id: str) -> str:
    """Look up a customer by user id.

    Args:
        user_id: The customer's user id.
    """
    return query_by(Bank(db), "users", "user_id", user_id)


@agent_tool
def get_user_information_by_name(db: EpisodeDB, customer_name: str) -> str:
    """Look up customers by full name (exact, case-sensitive).

    Args:
        customer_name: The customer's full name.
    """
    return query_by(Bank(db), "users", "name", customer_name)


@agent_tool
def get_user_information_by_email(db: EpisodeDB, email: str) -> str:
    """Look up customers by email address.

    Args:
        email: The customer's email address.
    """
    return query_by(Bank(db), "users", "email", email)


@agent_tool(writes=True)
def change_user_email(db: EpisodeDB, user_id: str, new_email: str) -> str:
    """Change a customer's email address.

    Args:
        user_id: The customer's user id.
        new_email: The new email address.
    """
    bank = Bank(db)
    user = bank.get("users", user_id)
    if user is None:
        return f"Error: User with ID '{user_id}' not found."
    user["email"] = new_email
    bank.put("users", user_id, user)
    return f"Email updated successfully.\n  - User ID: {user_id}\n  - New Email: {new_email}"


@agent_tool
def get_referrals_by_user(db: EpisodeDB, user_id: str) -> str:
    """List the referrals a customer made.

    Args:
        user_id: The referring customer's user id.
    """
    return query_by(Bank(db), "referrals", "referrer_id", user_id)


@agent_tool
def get_credit_card_transactions_by_user(db: EpisodeDB, user_id: str) -> str:
    """List a customer's credit card transactions.

    Args:
        user_id: The customer's user id.
    """
    return query_by(Bank(db), "credit_card_transaction_history", "user_id", user_id)


@agent_tool
def get_credit_card_accounts_by_user(db: EpisodeDB, user_id: str) -> str:
    """List a customer's credit card accounts.

    Args:
        user_id: The customer's user id.
    """
    return query_by(Bank(db), "credit_card_accounts", "user_id", user_id)


@agent_tool(writes=True)
def log_verification(
    db: EpisodeDB,
    name: str,
    user_id: str,
    address: str,
    email: str,
    phone_number: str,
    date_of_birth: str,
    time_verified: str,
) -> str:
    """Record that the customer's identity was verified.

    Args:
        name: The customer's full name.
        user_id: The customer's user id.
        address: The address the customer confirmed.
        email: The email the customer confirmed.
        phone_number: The phone number the customer confirmed.
        date_of_birth: The date of birth the customer confirmed (MM/DD/YYYY).
        time_verified: When the identity was verified (from get_current_time).
    """
    key = f"{user_id}_{time_verified}".replace(" ", "_").replace(":", "").replace("-", "")
    record = {
        "name": name,
        "user_id": user_id,
        "address": address,
        "email": email,
        "phone_number": phone_number,
        "date_of_birth": date_of_birth,
        "time_verified": time_verified,
    }
    if not Bank(db).add("verification_history", key, record):
        return "Failed to log verification: Record may already exist."
    return (
        f"Verification logged successfully.\n  - User: {name} (ID: {user_id})\n"
        f"  - Verified at: {time_verified}"
    )


# -- the customer's own tools ------------------------------------------------------------

CARD_TYPES = (
    "Bronze Rewards Card",
    "Business Bronze Rewards Card",
    "Business Gold Rewards Card",
    "Business Platinum Rewards Card",
    "Business Silver Rewards Card",
    "Crypto-Cash Back",
    "Diamond Elite Card",
    "EcoCard",
    "Gold Rewards Card",
    "Green Rewards Card",
    "Platinum Rewards Card",
    "Silver Rewards Card",
    "Silver Zoom Card",
)

REWARD_RATES: dict[str, tuple[float, dict[str, float]]] = {
    "Bronze Rewards Card": (1, {}),
    "Silver Rewards Card": (1, {"Travel": 4, "Software": 4}),
    "Gold Rewards Card": (2.5, {}),
    "Platinum Rewards Card": (10, {}),
    "Business Bronze Rewards Card": (1, {}),
    "Business Silver Rewards Card": (1, {"Travel": 10, "Software": 10}),
    "Green Rewards Card": (1, {"Sustainable": 3}),
    "Business Gold Rewards Card": (1, {"Operations": 2.5}),
    "Business Platinum Rewards Card": (1.5, {"Travel": 4, "Software": 4, "Media": 4}),
    "Silver Zoom Card": (1, {"Transportation": 3}),
    "Diamond Elite Card": (5, {}),
    "EcoCard": (1, {"Green": 5}),
    "Crypto-Cash Back": (2, {}),
}
"""Points per dollar by card: (default rate, {category: rate}), in τ³'s table order."""


@user_tool(writes=True)
def apply_for_credit_card(
    db: EpisodeDB,
    card_type: str,
    customer_name: str,
    annual_income: float,
    rho_bank_subscription: bool = False,
) -> str:
    """Apply for a Rho-Bank credit card.

    Args:
        card_type: The card's name, e.g. 'Gold Rewards Card'.
        customer_name: Your full name.
        annual_income: Your annual income in USD.
        rho_bank_subscription: Whether you have a Rho-Bank+ subscription.
    """
    if card_type not in CARD_TYPES:
        return f"Error: Invalid card_type '{card_type}'. Must be one of: {list(CARD_TYPES)}"
    try:
        income = float(annual_income)
    except (TypeError, ValueError):
        return "Error: Invalid annual_income. Must be a number."
    key = short_hash(
        f"credit_card:{card_type}:{customer_name}:{income}:{rho_bank_subscription}", 16
    )
    record = {
        "application_id": key,
        "card_type": card_type,
        "customer_name": customer_name,
        "annual_income": income,
        "rho_bank_subscription": rho_bank_subscription,
        "status": "PENDING",
        "date": TODAY,
    }
    if not Bank(db).add("credit_card_applications", key, record):
        return f"Failed to submit application: Record ID '{key}' may already exist."
    return (
        "Credit card application submitted:\nYour application has been successfully "
        "submitted. You will receive a decision within 5-7 business days via email."
    )


@user_tool(writes=True)
def submit_referral(db: EpisodeDB, user_id: str, account_type: str) -> str:
    """Refer someone to a Rho-Bank account or card.

    Args:
        user_id: Your user id.
        account_type: The account or card you refer them to.
    """
    key = short_hash(f"referral:{user_id}:{account_type}", 16)
    record = {
        "referral_id": key,
        "referrer_id": user_id,
        "referred_account_type": account_type,
        "referral_status": "NO_PROGRESS",
        "date": TODAY,
    }
    if not Bank(db).add("referrals", key, record):
        return f"Failed to submit referral: Record ID '{key}' may already exist."
    return (
        f"Referral request submitted successfully!\n  - Referral ID: {key}\n  - Referrer ID: "
        f"{user_id}\n  - Account Type: {account_type}\n  - Status: NO_PROGRESS\n  - Date: "
        f"{TODAY}\n\nShare your referral ID with the person you're referring. They will need "
        "to use this when applying for their account."
    )


@user_tool(writes=True)
def request_human_agent_transfer(db: EpisodeDB) -> str:
    """Ask to be transferred to a human agent."""
    bank = Bank(db)
    listing = query_text(bank, "human_transfer_requests")
    number = listing.count("request_id") + 1
    key = f"transfer_request_{number}"
    bank.add(
        "human_transfer_requests",
        key,
        {"request_id": key, "request_number": number, "requested_at": TODAY, "status": "PENDING"},
    )
    return f"Transfer request #{number} submitted.\nThe agent will process your request."


@user_tool(writes=True)
def submit_transaction(
    db: EpisodeDB,
    user_id: str,
    credit_card_type: str,
    merchant_name: str,
    amount: float,
    category: str,
) -> str:
    """Make a purchase with your credit card.

    Args:
        user_id: Your user id.
        credit_card_type: The card you pay with, e.g. 'Gold Rewards Card'.
        merchant_name: The merchant.
        amount: The amount in USD.
        category: The purchase category, e.g. 'Travel'.
    """
    rates = REWARD_RATES.get(credit_card_type)
    if rates is None:
        return (
            f"Error: Unknown credit card type '{credit_card_type}'. Available types: "
            f"{list(REWARD_RATES)}"
        )
    rate = float(rates[1].get(category, rates[0]))
    points = int(amount * rate)
    key = transaction_id(user_id, credit_card_type, merchant_name, amount, category)
    record = {
        "transaction_id": key,
        "user_id": user_id,
        "credit_card_type": credit_card_type,
        "merchant_name": merchant_name,
        "transaction_amount": f"${amount:.2f}",
        "transaction_date": TODAY,
        "category": category,
        "status": "COMPLETED",
        "rewards_earned": f"{points} points",
    }
    if not Bank(db).add("credit_card_transaction_history", key, record):
        return f"Failed to submit transaction: Record ID '{key}' may already exist."
    return (
        f"Transaction submitted successfully!\n  - Transaction ID: {key}\n  - User ID: "
        f"{user_id}\n  - Card Type: {credit_card_type}\n  - Merchant: {merchant_name}\n"
        f"  - Amount: ${amount:.2f}\n  - Category: {category}\n  - Date: {TODAY}\n"
        f"  - Rewards Earned: {points} points ({rate}% cashback rate)\n"
    )


BASE_AGENT_TOOLS: list[Tau2Tool] = [
    transfer_to_human_agents,
    get_current_time,
    get_user_information_by_id,
    get_user_information_by_name,
    get_user_information_by_email,
    change_user_email,
    get_referrals_by_user,
    get_credit_card_transactions_by_user,
    get_credit_card_accounts_by_user,
    log_verification,
]
"""The agent's always-listed tools before the discoverable-tool wrappers."""
