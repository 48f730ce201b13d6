"""Discoverable agent tools for debit cards (domain-spec §B.7), τ³'s texts."""

from __future__ import annotations

import json
from typing import Any

from tautrait_banking.discover_bank import age_days
from tautrait_banking.discover_credit import title
from tautrait_banking.records import dispute_id, short_hash
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB

DELIVERY = {
    "STANDARD": "7-10 business days",
    "EXPEDITED": "3-5 business days",
    "RUSH": "1-2 business days",
}
DESIGNS = ["CLASSIC", "PREMIUM", "CUSTOM"]


def _cards_of(bank: Bank, account_id: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        (key, card)
        for key, card in bank.records("debit_cards")
        if card.get("account_id") == account_id
    ]


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
    cards = _cards_of(bank, account_id)
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
    cards = _cards_of(bank, account_id)
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


SEQUENTIAL = {"0123456789"[i : i + 4] for i in range(7)} | {
    "9876543210"[i : i + 4] for i in range(7)
}


def pin_problem(pin: Any) -> str | None:
    """Why τ³ refuses a PIN (``None``: it is acceptable)."""
    text = str(pin)
    if len(text) != 4 or not text.isdigit():
        return "PIN must be exactly 4 digits."
    if text in SEQUENTIAL:
        return "PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN."
    if len(set(text)) == 1:
        return "PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN."
    return None


def _four_digits(value: Any) -> bool:
    text = str(value)
    return len(text) == 4 and text.isdigit()


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
    if not _four_digits(last_4_digits):
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
    status = card.get("status")
    if status == "ACTIVE":
        return f"Error: Debit card '{card_id}' is already active."
    if status != "PENDING":
        return (
            f"Error: Debit card '{card_id}' cannot be activated. Current status: {status}. Only "
            "PENDING cards can be activated."
        )
    if str(card.get("last_4_digits")) != str(last_4_digits):
        return "Error: Card verification failed. The last 4 digits do not match our records."
    account_id = card.get("account_id")
    account = bank.get("accounts", account_id) if account_id else None
    if account is not None and account.get("status") != "OPEN":
        return (
            f"Error: The linked checking account '{account_id}' is no longer open. Card cannot "
            "be activated."
        )
    card.update(status="ACTIVE", activated_date=TODAY)
    bank.put("debit_cards", card_id, card)
    others = []
    for key, other in _cards_of(bank, account_id):
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


CLOSE_REASONS = [
    "lost",
    "stolen",
    "fraud_suspected",
    "damaged",
    "no_longer_needed",
    "account_closing",
]


@agent_tool(writes=True)
def close_debit_card_4721(db: EpisodeDB, card_id: str, reason: str) -> str:
    if not (card_id and reason):
        return "Error: Missing required parameters. Required: card_id, reason."
    why = str(reason).lower()
    if why not in CLOSE_REASONS:
        return f"Error: Invalid reason. Must be one of: {CLOSE_REASONS}"
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    status = card.get("status")
    if status not in ("ACTIVE", "PENDING"):
        return (
            f"Error: Debit card '{card_id}' cannot be closed. Current status: {status}. Only "
            "ACTIVE or PENDING cards can be closed."
        )
    card.update(status="CLOSED", closed_date=TODAY, closure_reason=why)
    bank.put("debit_cards", card_id, card)
    lines = [
        "Debit Card Closed Successfully",
        f"Card ID: {card_id}",
        f"Previous Status: {status}",
        "New Status: CLOSED",
        f"Closure Reason: {title(why)}",
        f"Closure Date: {TODAY}",
        "",
    ]
    if why in ("lost", "stolen", "fraud_suspected"):
        lines += [
            "IMPORTANT: This card has been immediately deactivated for security.",
            "Any pending transactions may still be processed.",
        ]
        if why == "fraud_suspected":
            lines += [
                "Please advise the customer to review recent transactions and file disputes "
                "for any unauthorized charges.",
                "Also recommend changing their online banking password.",
            ]
        lines.append("")
    lines += [
        "Note: This card cannot be reactivated. If the customer needs a new card, they can "
        "order one through the standard ordering process.",
        "Any recurring payments linked to this card will need to be updated with new payment "
        "information.",
    ]
    return "\n".join(lines)


@agent_tool(writes=True)
def freeze_debit_card_3892(db: EpisodeDB, card_id: str) -> str:
    if not card_id:
        return "Error: Missing required parameter: card_id."
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    status = card.get("status")
    if status == "FROZEN":
        return f"Error: Debit card '{card_id}' is already frozen."
    if status != "ACTIVE":
        return (
            f"Error: Debit card '{card_id}' cannot be frozen. Current status: {status}. Only "
            "ACTIVE cards can be frozen."
        )
    card.update(status="FROZEN", frozen_date=TODAY)
    bank.put("debit_cards", card_id, card)
    return (
        f"Debit Card Frozen Successfully\nCard ID: {card_id}\nStatus: FROZEN\nFrozen Date: "
        f"{TODAY}\n\nWhile frozen:\n- All new purchase transactions will be declined\n- "
        "Recurring payments and subscriptions will be declined\n- Pending transactions "
        "already authorized may still process\n\nTo unfreeze, the customer can call customer "
        "service or use the mobile app.\nIf the card is confirmed lost or stolen, recommend "
        "closing the card permanently instead."
    )


@agent_tool(writes=True)
def unfreeze_debit_card_3893(db: EpisodeDB, card_id: str) -> str:
    if not card_id:
        return "Error: Missing required parameter: card_id."
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    status = card.get("status")
    if status == "ACTIVE":
        return f"Error: Debit card '{card_id}' is already active."
    if status != "FROZEN":
        return (
            f"Error: Debit card '{card_id}' cannot be unfrozen. Current status: {status}. Only "
            "FROZEN cards can be unfrozen."
        )
    account_id = card.get("account_id")
    account = bank.get("accounts", account_id) if account_id else None
    if account is not None and account.get("status") != "OPEN":
        return (
            f"Error: The linked checking account '{account_id}' is no longer open. Card cannot "
            "be unfrozen."
        )
    card.update(status="ACTIVE", unfrozen_date=TODAY)
    bank.put("debit_cards", card_id, card)
    return (
        f"Debit Card Unfrozen Successfully\nCard ID: {card_id}\nStatus: ACTIVE\nUnfrozen Date: "
        f"{TODAY}\n\nThe card is now active and ready to use immediately.\nAll transactions "
        "will process normally."
    )


@agent_tool(writes=True)
def clear_debit_card_fraud_alert_4892(db: EpisodeDB, card_id: str, reason: str) -> str:
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if not reason:
        return "Error: Missing required parameter: reason."
    if reason not in ("customer_verified", "velocity_clear"):
        return (
            f"Error: Invalid reason '{reason}'. Must be one of: customer_verified, velocity_clear"
        )
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if reason == "velocity_clear":
        if not card.get("velocity_blocked"):
            return f"Error: Debit card '{card_id}' does not have an active velocity block."
        card.update(velocity_blocked=False, velocity_cleared_date=TODAY)
        bank.put("debit_cards", card_id, card)
        return (
            f"Velocity Block Cleared Successfully\nCard ID: {card_id}\nCleared Date: {TODAY}\n\n"
            "The card is now unblocked and ready for normal use.\nThe velocity monitoring will "
            "continue - if the same unusual patterns recur,\nthe card may be blocked again "
            "automatically."
        )
    if not card.get("fraud_alert_active"):
        return f"Error: Debit card '{card_id}' does not have an active fraud alert."
    if card.get("alert_source") == "bank_initiated":
        return (
            "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud "
            "detection system and cannot be cleared by customer service agents. Please "
            "transfer the customer to the security team using transfer_to_human_agents."
        )
    card.update(fraud_alert_active=False, alert_source=None, fraud_alert_cleared_date=TODAY)
    bank.put("debit_cards", card_id, card)
    return (
        f"Fraud Alert Cleared Successfully\nCard ID: {card_id}\nCleared Date: {TODAY}\n\nThe "
        "fraud alert has been removed from the card.\nAll transactions will process normally."
        "\n\nRemind the customer to review recent transactions and report any unauthorized "
        "charges."
    )


@agent_tool(writes=True)
def reset_debit_card_pin_6284(db: EpisodeDB, card_id: str, last_4_digits: str, new_pin: str) -> str:
    if not (card_id and last_4_digits and new_pin):
        return "Error: Missing required parameters. Required: card_id, last_4_digits, new_pin."
    if not _four_digits(last_4_digits):
        return "Error: Last 4 digits must be exactly 4 digits."
    problem = pin_problem(new_pin)
    if problem:
        return f"Error: {problem}"
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if str(card.get("last_4_digits")) != str(last_4_digits):
        return "Error: Card verification failed. The last 4 digits do not match our records."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot reset PIN. Card status is {card.get('status')}. Only ACTIVE cards "
            "can have their PIN reset."
        )
    card.update(pin_last_changed=TODAY, pin_locked=False, pin_attempts_remaining=3)
    bank.put("debit_cards", card_id, card)
    return (
        f"Debit Card PIN Reset Successfully\nCard ID: {card_id}\nPIN Changed: {TODAY}\n\nThe new "
        "PIN is effective immediately.\nYour card has been unlocked and is ready to use.\n"
        "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.\n\n"
        "Security reminder: Never share your PIN with anyone."
    )


@agent_tool(writes=True)
def change_debit_card_pin_6285(db: EpisodeDB, card_id: str, current_pin: str, new_pin: str) -> str:
    if not (card_id and current_pin and new_pin):
        return "Error: Missing required parameters. Required: card_id, current_pin, new_pin."
    if not _four_digits(current_pin):
        return "Error: Current PIN must be exactly 4 digits."
    problem = pin_problem(new_pin)
    if problem:
        return f"Error: {problem}"
    if str(current_pin) == str(new_pin):
        return "Error: New PIN must be different from current PIN."
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot change PIN. Card status is {card.get('status')}. Only ACTIVE cards "
            "can have their PIN changed."
        )
    card["pin_last_changed"] = TODAY
    bank.put("debit_cards", card_id, card)
    return (
        f"Debit Card PIN Changed Successfully\nCard ID: {card_id}\nPIN Changed: {TODAY}\n\nThe "
        "new PIN is effective immediately.\nCustomer can use the new PIN for ATM withdrawals "
        "and point-of-sale transactions.\n\nSecurity reminder: Never share your PIN with anyone."
    )


@agent_tool(writes=True)
def set_debit_card_recurring_block_7382(db: EpisodeDB, card_id: str, block_recurring: bool) -> str:
    if not card_id:
        return "Error: Missing required parameter: card_id"
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    status = str(card.get("status", "")).upper()
    if status != "ACTIVE":
        return (
            f"Error: Cannot update recurring block settings for a card with status '{status}'. "
            "Card must be ACTIVE."
        )
    card["recurring_blocked"] = block_recurring
    bank.put("debit_cards", card_id, card)
    if block_recurring:
        return (
            f"Recurring payments BLOCKED for debit card {card_id}.\nAll recurring/subscription "
            "charges will be declined.\nOne-time purchases are not affected.\nThis change takes "
            "effect within 24 hours."
        )
    return (
        f"Recurring payments UNBLOCKED for debit card {card_id}.\nRecurring/subscription charges "
        "will now be allowed.\nThis change takes effect within 24 hours."
    )


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
    if dispute_category not in DEBIT_CATEGORIES:
        return f"Error: Invalid dispute_category. Must be one of: {DEBIT_CATEGORIES}"
    if transaction_type not in DEBIT_TRANSACTION_TYPES:
        return f"Error: Invalid transaction_type. Must be one of: {DEBIT_TRANSACTION_TYPES}"
    if pin_compromised not in PIN_COMPROMISED:
        return f"Error: Invalid pin_compromised. Must be one of: {PIN_COMPROMISED}"
    if card_action not in DEBIT_CARD_ACTIONS:
        return f"Error: Invalid card_action. Must be one of: {DEBIT_CARD_ACTIONS}"
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
