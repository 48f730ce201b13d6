"""Support tickets: opening, showing and updating them."""

from __future__ import annotations

from tautrait_core import EpisodeDB, tool
from tautrait_telecom.rows import set_fields
from tautrait_telecom.schema import SupportTicket
from tautrait_telecom.tools.customers import customer_exists, record_json

CATEGORIES = ("mobile", "internet", "tv", "billing", "account", "device", "security", "phone")
PRIORITIES = ("low", "medium", "high", "urgent")


@tool(writes=True)
def create_support_ticket(
    db: EpisodeDB, customer_id: str, category: str, priority: str = "medium"
) -> str:
    """Open a new support ticket for a customer. The ticket starts with status 'open'.

    Args:
        customer_id: The customer id.
        category: One of mobile, internet, tv, billing, account, device, security, phone.
        priority: One of low, medium, high, urgent (default medium).
    """
    if not customer_exists(db, customer_id):
        return f"Error: Customer not found: {customer_id}"
    if category not in CATEGORIES:
        return f"Error: Invalid category: {category}. Valid categories: {', '.join(CATEGORIES)}"
    if priority not in PRIORITIES:
        return f"Error: Invalid priority: {priority}. Valid priorities: {', '.join(PRIORITIES)}"
    slots = dict(
        db.plain_select(f'SELECT ticket_id, position FROM "{SupportTicket.__tablename__}"')
    )
    ticket_id = f"TICKET{len(slots) + 1:03d}"
    record = {
        "ticket_id": ticket_id,
        "customer_id": customer_id,
        "status": "open",
        "priority": priority,
        "category": category,
    }
    position = slots.get(ticket_id)
    if position is not None:  # upstream overwrites the record in place, keeping its slot
        db.delete_row(SupportTicket, ticket_id)
    else:
        position = max(slots.values(), default=-1) + 1
    db.insert_row(SupportTicket, {**record, "position": position, "field_order": list(record)})
    return f"Success: Created support ticket {ticket_id} for customer {customer_id}"


@tool
def get_support_ticket_details(db: EpisodeDB, ticket_id: str) -> str:
    """Show a support ticket: its customer, status, priority and category.

    Args:
        ticket_id: The ticket id, e.g. 'TICKET004'.
    """
    return record_json(
        db, SupportTicket, ticket_id, f"Error: Support ticket not found: {ticket_id}"
    )


@tool(writes=True)
def modify_support_ticket(db: EpisodeDB, ticket_id: str, status: str, priority: str) -> str:
    """Change a support ticket's status and priority. Both are written as given, so pass
    the current value of the one that stays.

    Args:
        ticket_id: The ticket id.
        status: The new status, e.g. 'open', 'in_progress' or 'closed'.
        priority: The new priority: low, medium, high or urgent.
    """
    ticket = db.read_row(SupportTicket, ticket_id)
    if ticket is None:
        return f"Error: Support ticket not found: {ticket_id}"
    db.update_row(SupportTicket, ticket_id, set_fields(ticket, status=status, priority=priority))
    return (
        f"Success: Modified support ticket {ticket_id} with status {status} and priority {priority}"
    )
