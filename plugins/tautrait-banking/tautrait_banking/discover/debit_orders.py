"""Discoverable debit-card ordering and activation (the three activation variants)."""

from __future__ import annotations

from typing import Any

from tautrait_banking.discover.common import (
    card_state_problem,
    cards_of,
    closed_link_problem,
    four_digits,
    pin_problem,
    title,
)
from tautrait_banking.records import (
    short_hash,
)
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB

DELIVERY = {
    "STANDARD": "7-10 business days",
    "EXPEDITED": "3-5 business days",
    "RUSH": "1-2 business days",
}


DESIGNS = ["CLASSIC", "PREMIUM", "CUSTOM"]


def _digits(text: str, count: int) -> str:
    return "".join(char for char in text if char.isdigit())[:count].rjust(count, "0")


def _expiration() -> str:
    month, _, year = TODAY.split("/")
    day = {"02": "28", "04": "30", "06": "30", "09": "30", "11": "30"}.get(month, "31")
    return f"{month}/{day}/{int(year) + 4}"


def _issue_reason(cards: list[tuple[str, dict[str, Any]]]) -> str:
    for _, card in cards:
        if card.get("status") == "CLOSED":
            reason = card.get("closure_reason")
            if reason in ("lost", "stolen", "fraud"):
                return reason
            if reason == "fraud_suspected":
                return "fraud"
            return "first_card"
    return "first_card" if cards else "new_account"


@agent_tool(writes=True)
def order_debit_card_5739(
    db: EpisodeDB,
    account_id: str,
    user_id: str,
    delivery_option: str,
    delivery_fee: float,
    card_design: str,
    design_fee: float,
    shipping_address: str,
    excess_replacement_fee: float | None = None,
) -> str:
    try:
        delivery = None if delivery_fee is None else float(delivery_fee)
    except (TypeError, ValueError):
        return "Error: delivery_fee must be a number."
    try:
        design = None if design_fee is None else float(design_fee)
    except (TypeError, ValueError):
        return "Error: design_fee must be a number."
    try:
        excess = float(excess_replacement_fee) if excess_replacement_fee else 0.0
    except (TypeError, ValueError):
        excess = 0.0
    if (
        not (account_id and user_id and delivery_option and card_design and shipping_address)
        or delivery is None
        or design is None
    ):
        return (
            "Error: Missing required parameters. Required: account_id, user_id, "
            "delivery_option, delivery_fee, card_design, design_fee, shipping_address."
        )
    option, style = delivery_option.upper(), card_design.upper()
    if option not in DELIVERY:
        return f"Error: Invalid delivery_option. Must be one of: {list(DELIVERY)}"
    if style not in DESIGNS:
        return f"Error: Invalid card_design. Must be one of: {DESIGNS}"
    bank = Bank(db)
    account = bank.get("accounts", account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    if account.get("class") != "checking":
        return (
            f"Error: Debit cards can only be ordered for checking accounts. Account "
            f"'{account_id}' is a {account.get('class')} account."
        )
    if account.get("status") != "OPEN":
        status = account.get("status")
        return f"Error: Account must be OPEN. Account '{account_id}' has status: {status}"
    if account.get("user_id") != user_id:
        return f"Error: Account '{account_id}' does not belong to user '{user_id}'."
    try:
        holdings = float(str(account.get("current_holdings", "0")).replace(",", ""))
    except ValueError:
        holdings = 0.0
    if holdings < 25:
        return (
            f"Error: Account must have a minimum balance of $25. Current balance: ${holdings:.2f}"
        )
    if any(
        order.get("account_id") == account_id and order.get("status") == "PENDING"
        for _, order in bank.records("debit_card_orders")
    ):
        return f"Error: There is already a pending debit card order for account '{account_id}'."
    cards = cards_of(bank, account_id)
    if any(card.get("status") == "ACTIVE" for _, card in cards):
        return (
            f"Error: Account '{account_id}' already has an active debit card. Maximum 1 active "
            "card per checking account."
        )
    total = delivery + design + excess
    if total > 0 and holdings < total:
        return (
            f"Error: Insufficient funds for fees. Total fees: ${total:.2f}. Current balance: "
            f"${holdings:.2f}"
        )
    order_id = "dcord_" + short_hash(f"debit_card_order:{account_id}:{user_id}:{option}", 12)
    order = {
        "order_id": order_id,
        "account_id": account_id,
        "user_id": user_id,
        "delivery_option": option,
        "card_design": style,
        "shipping_address": shipping_address,
        "delivery_fee": delivery,
        "design_fee": design,
        "excess_replacement_fee": excess,
        "total_fee": total,
        "order_date": TODAY,
        "expected_delivery": DELIVERY[option],
        "status": "PENDING",
    }
    if not bank.add("debit_card_orders", order_id, order):
        return "Error: Failed to create debit card order. Order may already exist."
    charged: list[str] = []
    shown: list[str] = []
    if delivery > 0:
        charged.append(f"Delivery ${delivery}")
        shown.append(f"Delivery: ${delivery}")
    if design > 0:
        charged.append(f"Design ${design}")
        shown.append(f"Design: ${design}")
    if excess > 0:
        charged.append(f"Excess Replacement ${excess:.0f}")
        shown.append(f"Excess Replacement: ${excess:.0f}")
    if total > 0:
        account["current_holdings"] = f"{holdings - total:.2f}"
        bank.put("accounts", account_id, account)
        fee_id = f"btxn_dcfee_{order_id[-8:]}"
        bank.put(
            "bank_account_transaction_history",
            fee_id,
            {
                "transaction_id": fee_id,
                "account_id": account_id,
                "date": TODAY,
                "description": "DEBIT CARD ORDER FEE - " + ", ".join(charged),
                "amount": -total,
                "type": "debit_card_fee",
                "status": "posted",
            },
        )
    card_id = "dbc_" + short_hash(f"debit_card:{account_id}:{user_id}:{TODAY}", 12)
    user = bank.get("users", user_id)
    bank.put(
        "debit_cards",
        card_id,
        {
            "card_id": card_id,
            "account_id": account_id,
            "user_id": user_id,
            "cardholder_name": str(user["name"]).upper() if user else "CARDHOLDER",
            "last_4_digits": _digits(short_hash(f"card_details:{card_id}:last4", 8), 4),
            "cvv": _digits(short_hash(f"card_details:{card_id}:cvv", 6), 3),
            "status": "PENDING",
            "issue_date": TODAY,
            "expiration_date": _expiration(),
            "card_design": style,
            "issue_reason": _issue_reason(cards),
        },
    )
    lines = [
        "Debit Card Order Confirmed",
        f"Order ID: {order_id}",
        f"Card ID: {card_id}",
        f"Linked Account: {account_id}",
        f"Delivery Option: {option}",
        f"Card Design: {style}",
        f"Shipping Address: {shipping_address}",
        f"Expected Delivery: {DELIVERY[option]}",
        "",
        "Note: Card will arrive with status PENDING. Customer must call to activate after "
        "receiving the card.",
    ]
    if total > 0:
        lines.append(
            f"Total Fees: ${total:.2f} ({', '.join(shown)}) - CHARGED to account {account_id}"
        )
        lines.append(f"New Account Balance: ${holdings - total:.2f}")
    else:
        lines.append("Total Fees: $0 (No additional charges)")
    return "\n".join(lines)


ACTIVATION_TOOLS = {
    "activate_debit_card_8291": ("new_account", "first_card"),
    "activate_debit_card_8292": ("lost", "stolen", "fraud"),
    "activate_debit_card_8293": ("expired", "damaged", "upgrade", "bank_reissue"),
}


def _activate(
    db: EpisodeDB,
    tool: str,
    card_id: Any,
    last_4_digits: Any,
    expiration_date: Any,
    cvv: Any,
    pin: Any,
) -> str:
    if not (card_id and last_4_digits and expiration_date and cvv and pin):
        return (
            "Error: Missing required parameters. Required: card_id, last_4_digits, "
            "expiration_date, cvv, pin."
        )
    problem = pin_problem(pin)
    if problem:
        return f"Error: {problem}"
    if not (len(str(cvv)) == 3 and str(cvv).isdigit()):
        return "Error: CVV must be exactly 3 digits."
    if not four_digits(last_4_digits):
        return "Error: Last 4 digits must be exactly 4 digits."
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    reason = card.get("issue_reason", "new_account")
    if reason not in ACTIVATION_TOOLS[tool]:
        right = next(
            (name for name, kinds in ACTIVATION_TOOLS.items() if reason in kinds), "unknown"
        )
        return (
            f"Error: Wrong activation tool. This card has issue_reason='{reason}'. Please use "
            f"{right} instead of {tool}."
        )
    problem = card_state_problem(
        card_id, card.get("status"), ("PENDING",), "activated", already=("ACTIVE", "active")
    )
    if problem:
        return problem
    if str(card.get("last_4_digits")) != str(last_4_digits):
        return "Error: Card verification failed. The last 4 digits do not match our records."
    problem = closed_link_problem(bank, card, "activated")
    if problem:
        return problem
    account_id = card.get("account_id")
    card.update(status="ACTIVE", activated_date=TODAY)
    bank.put("debit_cards", card_id, card)
    others = []
    for key, other in cards_of(bank, account_id):
        if key == card_id or other.get("status") != "ACTIVE":
            continue
        others.append(key)
        if tool == "activate_debit_card_8293":
            other.update(
                status="GRACE_PERIOD",
                grace_period_ends=TODAY,
                deactivation_reason=f"Reissued card activated ({reason})",
            )
        else:
            why = (
                "New card activated"
                if tool == "activate_debit_card_8291"
                else f"Replacement card activated ({reason})"
            )
            other.update(status="DEACTIVATED", deactivated_date=TODAY, deactivation_reason=why)
        bank.put("debit_cards", key, other)
    listed = ", ".join(others)
    if tool == "activate_debit_card_8291":
        text = (
            f"New Debit Card Activation Successful\nCard ID: {card_id}\nStatus: ACTIVE\n"
            f"Activation Date: {TODAY}\n\nYour card is now ready to use at any ATM or point of "
            "sale terminal.\nFor security, please sign the back of your card."
        )
        if others:
            text += f"\n\nNote: Previous card(s) have been deactivated: {listed}"
        return text
    if tool == "activate_debit_card_8292":
        text = (
            f"Replacement Debit Card Activation Successful\nCard ID: {card_id}\nReplacement "
            f"Reason: {title(reason)}\nStatus: ACTIVE\nActivation Date: {TODAY}\n\nYour "
            "replacement card is now ready to use.\n\nIMPORTANT SECURITY REMINDERS:\n- Please "
            "review your recent transactions for any unauthorized charges\n- Report any "
            "suspicious activity immediately"
        )
        if reason == "fraud":
            text += (
                "\n- Since fraud was suspected, we recommend changing your online banking password"
            )
        if others:
            text += f"\n\nPrevious card(s) have been deactivated for security: {listed}"
        return text
    text = (
        f"Reissued Debit Card Activation Successful\nCard ID: {card_id}\nReissue Reason: "
        f"{title(reason)}\nStatus: ACTIVE\nActivation Date: {TODAY}\n\nYour reissued card is "
        "now ready to use."
    )
    if others:
        text += (
            f"\n\nNote: Your previous card(s) ({listed}) will remain active for 24 hours as a "
            "grace period.\nAfter 24 hours, the old card(s) will be automatically deactivated."
        )
    if reason in ("expired", "bank_reissue"):
        text += (
            "\n\nReminder: If your card number changed, please update any recurring payments "
            "with your new card details."
        )
    return text


@agent_tool(writes=True)
def activate_debit_card_8291(
    db: EpisodeDB, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    return _activate(
        db, "activate_debit_card_8291", card_id, last_4_digits, expiration_date, cvv, pin
    )


@agent_tool(writes=True)
def activate_debit_card_8292(
    db: EpisodeDB, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    return _activate(
        db, "activate_debit_card_8292", card_id, last_4_digits, expiration_date, cvv, pin
    )


@agent_tool(writes=True)
def activate_debit_card_8293(
    db: EpisodeDB, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    return _activate(
        db, "activate_debit_card_8293", card_id, last_4_digits, expiration_date, cvv, pin
    )
