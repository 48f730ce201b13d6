"""The retail tools, in the order the model sees them (upstream's ALL_TOOLS order)."""

from __future__ import annotations

from tautrait_core import Tool, calculate, think, transfer_to_human_agents
from tautrait_retail.tools.account import modify_user_address
from tautrait_retail.tools.delivered import (
    exchange_delivered_order_items,
    return_delivered_order_items,
)
from tautrait_retail.tools.lookup import (
    find_user_id_by_email,
    find_user_id_by_name_zip,
    get_order_details,
    get_product_details,
    get_user_details,
    list_all_product_types,
)
from tautrait_retail.tools.pending import (
    cancel_pending_order,
    modify_pending_order_address,
    modify_pending_order_items,
    modify_pending_order_payment,
)

ALL_TOOLS: list[Tool] = [
    calculate,
    cancel_pending_order,
    exchange_delivered_order_items,
    find_user_id_by_email,
    find_user_id_by_name_zip,
    get_order_details,
    get_product_details,
    get_user_details,
    list_all_product_types,
    modify_pending_order_address,
    modify_pending_order_items,
    modify_pending_order_payment,
    modify_user_address,
    return_delivered_order_items,
    think,
    transfer_to_human_agents,
]
