"""The tools of τ² telecom: the agent's (carrier systems) and the customer's (their
phone), plus the functions tasks call by name on either side."""

from collections.abc import Callable, Iterable
from typing import Any

from tautrait_telecom.tau2.tools import phone_checks as checks, phone_settings as settings
from tautrait_telecom.tau2.tools.agent import AGENT_TOOLS
from tautrait_telecom.tau2.tools.agent_setup import CARRIER_FUNCTIONS
from tautrait_telecom.tau2.tools.user_setup import PHONE_FUNCTIONS


def by_name(functions: Iterable[Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """``functions`` keyed by their names, as tasks call them."""
    return {function.__name__: function for function in functions}


AGENT_FUNCTIONS = by_name(CARRIER_FUNCTIONS)
"""The carrier-side functions by name (the agent's tools are found besides these)."""
USER_FUNCTIONS = by_name(PHONE_FUNCTIONS)
"""The customer-side functions by name (the user tools are found besides these)."""

USER_TOOLS = [
    checks.check_status_bar,
    checks.check_network_status,
    checks.check_network_mode_preference,
    settings.set_network_mode_preference,
    checks.run_speed_test,
    settings.toggle_airplane_mode,
    checks.check_sim_status,
    settings.reseat_sim_card,
    settings.toggle_data,
    settings.toggle_roaming,
    checks.check_data_restriction_status,
    settings.toggle_data_saver_mode,
    checks.check_apn_settings,
    settings.set_apn_settings,
    settings.reset_apn_settings,
    settings.reboot_device,
    checks.check_wifi_status,
    settings.toggle_wifi,
    checks.check_wifi_calling_status,
    settings.toggle_wifi_calling,
    checks.check_vpn_status,
    settings.connect_vpn,
    settings.disconnect_vpn,
    checks.check_installed_apps,
    checks.check_app_status,
    checks.check_app_permissions,
    settings.grant_app_permission,
    checks.can_send_mms,
    checks.check_payment_request,
    settings.make_payment,
]
"""The customer's 30 tools, in the order the user simulator's model sees them."""

__all__ = ["AGENT_FUNCTIONS", "AGENT_TOOLS", "USER_FUNCTIONS", "USER_TOOLS"]
