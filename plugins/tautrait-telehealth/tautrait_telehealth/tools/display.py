"""Small text conventions shared by the telehealth tools' outputs."""

from __future__ import annotations

from typing import Any


def title_case(value: str) -> str:
    """``pending_approval`` -> ``Pending Approval`` (underscores to spaces, then title case)."""
    return value.replace("_", " ").title()


def provider_prefix(name: dict[str, Any]) -> str:
    """What stands before a provider's name: the stored ``title`` (e.g. ``MD``) or ``Dr.``."""
    return name.get("title") or "Dr."


def full_name(name: dict[str, Any]) -> str:
    """``first_name last_name`` of a stored name."""
    return f"{name['first_name']} {name['last_name']}"
