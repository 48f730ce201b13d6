"""The retail tools, in the order the model sees them (upstream's ALL_TOOLS order)."""

from __future__ import annotations

from tautrait_core import Tool, calculate, think, transfer_to_human_agents
from tautrait_retail.tools import account, delivered, lookup, pending

ALL_TOOLS: list[Tool] = [
    calculate,
    pending.cancel_pending_order,
    delivered.exchange_delivered_order_items,
    lookup.find_user_id_by_email,
    lookup.find_user_id_by_name_zip,
    lookup.get_order_details,
    lookup.get_product_details,
    lookup.get_user_details,
    lookup.list_all_product_types,
    pending.modify_pending_order_address,
    pending.modify_pending_order_items,
    pending.modify_pending_order_payment,
    account.modify_user_address,
    delivered.return_delivered_order_items,
    think,
    transfer_to_human_agents,
]
