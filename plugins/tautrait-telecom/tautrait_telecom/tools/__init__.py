"""The telecom tools, in the order the model sees them (upstream's ALL_TOOLS order)."""

from __future__ import annotations

from tautrait_core import Tool, calculate, think
from tautrait_telecom.tools.billing import (
    get_billing_details,
    get_senior_discount,
    manage_billing,
    record_payment,
)
from tautrait_telecom.tools.catalog import (
    get_device_details,
    get_service_details,
    get_services,
    troubleshoot_device,
)
from tautrait_telecom.tools.customers import (
    add_device,
    find_customer_by_email,
    find_customer_by_phone,
    get_customer_details,
)
from tautrait_telecom.tools.services import manage_service
from tautrait_telecom.tools.tickets import (
    create_support_ticket,
    get_support_ticket_details,
    modify_support_ticket,
)

ALL_TOOLS: list[Tool] = [
    calculate,
    think,
    find_customer_by_email,
    find_customer_by_phone,
    get_customer_details,
    get_service_details,
    get_device_details,
    get_billing_details,
    manage_service,
    troubleshoot_device,
    create_support_ticket,
    get_support_ticket_details,
    add_device,
    manage_billing,
    get_services,
    get_senior_discount,
    modify_support_ticket,
    record_payment,
]
"""The 18 tools, in upstream order."""
