"""Discoverable debit-card maintenance: closing, freezing, fraud alerts, PINs, recurring blocks."""

from __future__ import annotations

from tautrait_banking.discover.common import (
    card_state_problem,
    closed_link_problem,
    four_digits,
    pin_problem,
    title,
)
from tautrait_banking.store import TODAY, Bank
from tautrait_banking.tools import agent_tool
from tautrait_core import EpisodeDB

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
    problem = card_state_problem(card_id, status, ("ACTIVE", "PENDING"), "closed")
    if problem:
        return problem
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


def _refreeze(db: EpisodeDB, card_id: str, frozen: bool) -> str | None:
    """Freeze (``frozen``) or unfreeze debit card ``card_id``, stamping the day; τ³'s
    refusal (``None``: done). Unfreezing also needs its checking account open."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    status, done, before, stamp = (
        ("FROZEN", "frozen", "ACTIVE", "frozen_date")
        if frozen
        else ("ACTIVE", "unfrozen", "FROZEN", "unfrozen_date")
    )
    problem = card_state_problem(
        card_id, card.get("status"), (before,), done, already=(status, status.lower())
    )
    if not problem and not frozen:
        problem = closed_link_problem(bank, card, done)
    if problem:
        return problem
    card.update({"status": status, stamp: TODAY})
    bank.put("debit_cards", card_id, card)
    return None


@agent_tool(writes=True)
def freeze_debit_card_3892(db: EpisodeDB, card_id: str) -> str:
    return _refreeze(db, card_id, frozen=True) or (
        f"Debit Card Frozen Successfully\nCard ID: {card_id}\nStatus: FROZEN\nFrozen Date: "
        f"{TODAY}\n\nWhile frozen:\n- All new purchase transactions will be declined\n- "
        "Recurring payments and subscriptions will be declined\n- Pending transactions "
        "already authorized may still process\n\nTo unfreeze, the customer can call customer "
        "service or use the mobile app.\nIf the card is confirmed lost or stolen, recommend "
        "closing the card permanently instead."
    )


@agent_tool(writes=True)
def unfreeze_debit_card_3893(db: EpisodeDB, card_id: str) -> str:
    return _refreeze(db, card_id, frozen=False) or (
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


PIN_TOOLS = {
    "reset": ("last_4_digits", "Last 4 digits", "Reset", "reset"),
    "change": ("current_pin", "Current PIN", "Changed", "changed"),
}
"""Per way of setting a new PIN: the argument that proves the customer, its name in τ³'s
texts, the heading's word, and the past form in the refusal of a card not ACTIVE."""


def _new_pin(db: EpisodeDB, verb: str, card_id: str, proof: str, new_pin: str) -> str:
    """τ³'s ``reset`` (proof: the card's last 4 digits; unlocks the PIN) or ``change``
    (proof: the current PIN) of debit card ``card_id``'s PIN to ``new_pin``."""
    name, label, heading, done = PIN_TOOLS[verb]
    if not (card_id and proof and new_pin):
        return f"Error: Missing required parameters. Required: card_id, {name}, new_pin."
    if not four_digits(proof):
        return f"Error: {label} must be exactly 4 digits."
    problem = pin_problem(new_pin)
    if problem:
        return f"Error: {problem}"
    if verb == "change" and str(proof) == str(new_pin):
        return "Error: New PIN must be different from current PIN."
    bank = Bank(db)
    card = bank.get("debit_cards", card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if verb == "reset" and str(card.get("last_4_digits")) != str(proof):
        return "Error: Card verification failed. The last 4 digits do not match our records."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot {verb} PIN. Card status is {card.get('status')}. Only ACTIVE cards "
            f"can have their PIN {done}."
        )
    card["pin_last_changed"] = TODAY
    unlocked = ""
    if verb == "reset":
        card.update(pin_locked=False, pin_attempts_remaining=3)
        unlocked = "Your card has been unlocked and is ready to use.\n"
    bank.put("debit_cards", card_id, card)
    return (
        f"Debit Card PIN {heading} Successfully\nCard ID: {card_id}\nPIN Changed: {TODAY}\n\n"
        f"The new PIN is effective immediately.\n{unlocked}Customer can use the new PIN for ATM "
        "withdrawals and point-of-sale transactions.\n\nSecurity reminder: Never share your "
        "PIN with anyone."
    )


@agent_tool(writes=True)
def reset_debit_card_pin_6284(db: EpisodeDB, card_id: str, last_4_digits: str, new_pin: str) -> str:
    return _new_pin(db, "reset", card_id, last_4_digits, new_pin)


@agent_tool(writes=True)
def change_debit_card_pin_6285(db: EpisodeDB, card_id: str, current_pin: str, new_pin: str) -> str:
    return _new_pin(db, "change", card_id, current_pin, new_pin)


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
