"""Helpers the discoverable tools share: τ³'s display of enum values, balances, account ages."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tautrait_banking.records import (
    matching,
)
from tautrait_banking.store import NOW, Bank

ACTIVE = ("ACTIVE", "OPEN")


def title(value: str) -> str:
    """τ³'s display form of an enum value: ``fraud_suspected`` -> ``Fraud Suspected``."""
    return str(value).replace("_", " ").title()


def money(text: Any, default: str = "$0.00") -> float:
    """A balance string (``"$1,234.50"``) as a number."""
    return float(str(text if text is not None else default).replace("$", "").replace(",", ""))


def holdings(account: dict[str, Any]) -> float:
    """A bank account's balance as a number: its ``current_holdings``, else its ``balance``."""
    return money(account.get("current_holdings", account.get("balance", "0")))


def age_days(date_text: Any) -> int:
    """Days from an ``MM/DD/YYYY`` date to τ³'s now (0 when unparseable)."""
    try:
        return (NOW - dt.datetime.strptime(str(date_text), "%m/%d/%Y")).days
    except ValueError:
        return 0


def card_account(bank: Bank, account_id: str) -> tuple[str, dict[str, Any]] | None:
    """``(key, record)`` of the credit card account ``account_id`` (``None``: none)."""
    found = matching(bank, "credit_card_accounts", {"account_id": account_id})
    return found[0] if found else None


def cards_of(bank: Bank, account_id: str) -> list[tuple[str, dict[str, Any]]]:
    """``(key, record)`` of every debit card of bank account ``account_id``, in order."""
    return [
        (key, card)
        for key, card in bank.records("debit_cards")
        if card.get("account_id") == account_id
    ]


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


def four_digits(value: Any) -> bool:
    """Whether ``value`` reads as exactly four digits."""
    text = str(value)
    return len(text) == 4 and text.isdigit()


def card_state_problem(
    card_id: str,
    status: Any,
    allowed: tuple[str, ...],
    done: str,
    already: tuple[str, str] | None = None,
) -> str | None:
    """Why τ³ refuses to leave debit card ``card_id``, now ``status``, ``done`` (``None``:
    it may): the card is already in ``already``'s ``(status, word)``, or not ``allowed``."""
    if already is not None and status == already[0]:
        return f"Error: Debit card '{card_id}' is already {already[1]}."
    if status not in allowed:
        return (
            f"Error: Debit card '{card_id}' cannot be {done}. Current status: {status}. Only "
            f"{' or '.join(allowed)} cards can be {done}."
        )
    return None


def closed_link_problem(bank: Bank, card: dict[str, Any], done: str) -> str | None:
    """Why τ³ refuses to leave ``card`` ``done`` when its checking account is no longer open
    (``None``: it is open, or the card has none)."""
    account_id = card.get("account_id")
    account = bank.get("accounts", account_id) if account_id else None
    if account is not None and account.get("status") != "OPEN":
        return (
            f"Error: The linked checking account '{account_id}' is no longer open. Card cannot "
            f"be {done}."
        )
    return None


def choice_problem(**given: tuple[Any, list[str]]) -> str | None:
    """τ³'s refusal of the first argument (``name=(value, choices)``) whose value is not one
    of its choices (``None``: every one is)."""
    for name, (value, choices) in given.items():
        if value not in choices:
            return f"Error: Invalid {name}. Must be one of: {choices}"
    return None
