"""The customer's phone tools that change something (domain-spec §4.4); each answers
with τ²'s text followed by the status bar. The switches they share with the set-up
functions of :mod:`.user_setup` are here too."""

from __future__ import annotations

import copy
from collections.abc import Callable

from tautrait_core import EpisodeDB, Tool
from tautrait_telecom.tau2.schema import APNSettings, NetworkModePreference, default_apn_settings
from tautrait_telecom.tau2.tools import phone as device_state
from tautrait_telecom.tau2.tools.phone import (
    on_off,
    phone,
    surroundings,
    user_tool,
    with_status_bar,
)

DEFAULT_VPN = {
    "server_address": "192.168.1.1",
    "protocol": "OpenVPN",
    "server_performance": "excellent",
}


# -- switches shared with the set-up functions ------------------------------------------


def flip_airplane_mode(db: EpisodeDB) -> bool:
    """Flip airplane mode (radios off when on; searching again when off); the new state."""
    device = phone(db)
    turning_on = not device.airplane_mode
    device.airplane_mode = turning_on
    if not turning_on:
        device.network_connection_status = "searching"
    if turning_on or device.wifi_enabled:
        device.wifi_connected = False
        device.wifi_ssid = None
        device.wifi_signal_strength = "none"
    if turning_on and device.vpn_connected:
        drop_vpn(db)
    device_state.network_search(db)
    return turning_on


def flip_data(db: EpisodeDB) -> bool:
    device = phone(db)
    device.data_enabled = not device.data_enabled
    device_state.network_search(db)
    return device.data_enabled


def flip_roaming(db: EpisodeDB) -> bool:
    device = phone(db)
    device.roaming_enabled = not device.roaming_enabled
    device_state.network_search(db)
    return device.roaming_enabled


def flip_data_saver(db: EpisodeDB) -> bool:
    device = phone(db)
    device.data_saver_mode = not device.data_saver_mode
    return device.data_saver_mode


def flip_wifi_calling(db: EpisodeDB) -> bool:
    device = phone(db)
    device.wifi_calling_enabled = not device.wifi_calling_enabled
    return device.wifi_calling_enabled


def drop_vpn(db: EpisodeDB) -> bool:
    """Disconnect the VPN; whether one was connected."""
    device = phone(db)
    if not device.vpn_connected:
        return False
    device.vpn_connected = False
    device.vpn_details = None
    return True


# -- tools ------------------------------------------------------------------------------


def switch_tool(name: str, flip: Callable[[EpisodeDB], bool], label: str, summary: str) -> Tool:
    """The customer's tool ``name`` that flips one switch (``flip`` returns its new state)
    and answers ``<label> is now ON.`` (or ``OFF``) with the status bar."""

    def function(db: EpisodeDB) -> str:
        return with_status_bar(f"{label} is now {on_off(flip(db))}.", db)

    function.__name__ = name
    function.__doc__ = summary
    return user_tool(writes=True)(function)  # type: ignore[no-any-return]


@user_tool(writes=True)
def set_network_mode_preference(db: EpisodeDB, mode: NetworkModePreference | str) -> str:
    """Choose which network types the phone prefers (faster types use more battery).

    Args:
        mode: One of 4g_5g_preferred, 4g_only, 3g_only, 2g_only.
    """
    valid = [preference.value for preference in NetworkModePreference]
    if mode not in valid:
        return with_status_bar(
            f"Failed to set network mode: '{mode}' is not a valid option. "
            f"Please use one of: {', '.join(valid)}",
            db,
        )
    phone(db).network_mode_preference = str(mode)
    device_state.network_search(db)
    return with_status_bar(f"Preferred Network Mode set to: {mode}", db)


toggle_airplane_mode = switch_tool(
    "toggle_airplane_mode",
    flip_airplane_mode,
    "Airplane Mode",
    "Turn airplane mode on or off (on: cellular, Wi-Fi and Bluetooth are off).",
)


@user_tool(writes=True)
def reseat_sim_card(db: EpisodeDB) -> str:
    """Take the SIM card out and put it back in."""
    phone(db).sim_card_missing = False
    device_state.network_search(db)
    return with_status_bar("SIM card re-seated successfully.", db)


toggle_data = switch_tool("toggle_data", flip_data, "Mobile Data", "Turn mobile data on or off.")


toggle_roaming = switch_tool(
    "toggle_roaming",
    flip_roaming,
    "Data Roaming",
    "Turn data roaming on or off (on: data works on other carriers' networks abroad).",
)


toggle_data_saver_mode = switch_tool(
    "toggle_data_saver_mode",
    flip_data_saver,
    "Data Saver Mode",
    "Turn Data Saver mode on or off (on: less data, lower speed).",
)


@user_tool(writes=True)
def set_apn_settings(db: EpisodeDB, apn_settings: APNSettings | dict) -> str:  # type: ignore[type-arg]
    """Replace the phone's APN settings.

    Args:
        apn_settings: The new settings (apn_name, reset_at_reboot, mms_apn, mmsc_url,
            mms_proxy, mms_port).
    """
    if isinstance(apn_settings, dict):
        apn_settings = APNSettings(**apn_settings)
    if not isinstance(apn_settings, APNSettings):
        raise AttributeError(f"'{type(apn_settings).__name__}' object has no attribute 'apn_name'")
    phone(db).active_apn_settings = apn_settings.model_dump(mode="json")
    device_state.network_search(db)
    return with_status_bar(f"APN settings set to: {apn_settings.apn_name.value}", db)


@user_tool(writes=True)
def reset_apn_settings(db: EpisodeDB) -> str:
    """Reset the APN settings to the defaults at the next reboot."""
    device = phone(db)
    device.active_apn_settings = {**device.active_apn_settings, "reset_at_reboot": True}
    device_state.network_search(db)
    return with_status_bar("APN settings will reset at reboot.", db)


@user_tool(writes=True)
def reboot_device(db: EpisodeDB) -> str:
    """Restart the phone (pending APN resets apply; the network is searched again)."""
    device = phone(db)
    lines = []
    if device.active_apn_settings.get("reset_at_reboot"):
        lines.append("Resetting APN settings...")
        device.active_apn_settings = default_apn_settings()
    lines.append("Restarting network services...")
    device.network_connection_status = "searching"
    device_state.network_search(db)
    return with_status_bar("\n".join(lines), db)


@user_tool(writes=True)
def toggle_wifi(db: EpisodeDB) -> str:
    """Turn the Wi-Fi radio on or off (not while airplane mode is on)."""
    device = phone(db)
    if device.airplane_mode:
        return with_status_bar("Cannot change Wi-Fi settings while Airplane Mode is ON.", db)
    device.wifi_enabled = not device.wifi_enabled
    if not device.wifi_enabled:
        device.wifi_connected = False
        device.wifi_ssid = None
        device.wifi_signal_strength = "none"
    return with_status_bar(f"Wi-Fi is now {on_off(device.wifi_enabled)}.", db)


toggle_wifi_calling = switch_tool(
    "toggle_wifi_calling",
    flip_wifi_calling,
    "Wi-Fi Calling",
    "Turn Wi-Fi Calling (calls over Wi-Fi instead of the cellular network) on or off.",
)


@user_tool(writes=True)
def connect_vpn(db: EpisodeDB) -> str:
    """Connect to the VPN."""
    device = phone(db)
    if device.vpn_connected:
        return "VPN already connected."
    device.vpn_connected = True
    device.vpn_details = dict(DEFAULT_VPN)
    return with_status_bar("VPN connected successfully.", db)


@user_tool(writes=True)
def disconnect_vpn(db: EpisodeDB) -> str:
    """Disconnect the VPN, if one is connected."""
    if drop_vpn(db):
        return with_status_bar("VPN disconnected successfully.", db)
    return with_status_bar("No active VPN connection to disconnect.", db)


@user_tool(writes=True)
def grant_app_permission(db: EpisodeDB, app_name: str, permission: str) -> str:
    """Give an app a permission (sms, storage, phone or network).

    Args:
        app_name: The app's name, such as 'messaging'.
        permission: The permission, in lower case.
    """
    device = phone(db)
    permission = permission.lower()
    status = device.app_statuses.get(app_name)
    if status is None:
        message = f"Error. App '{app_name}' not found. Cannot grant permission."
    elif permission not in status["permissions"]:
        available = list(status["permissions"])
        message = (
            f"Error. Permission '{permission}' not tracked for app '{app_name}', "
            f"available permissions: {available}"
        )
    else:
        apps = copy.deepcopy(device.app_statuses)
        apps[app_name]["permissions"][permission] = True
        device.app_statuses = apps
        message = f"Success. Permission '{permission}' granted to app '{app_name}'."
    return with_status_bar(message, db)


@user_tool(writes=True)
def make_payment(db: EpisodeDB) -> str:
    """Pay the bill the agent sent a payment request for."""
    around = surroundings(db)
    request = around.payment_request
    if request is None:
        return "You do not have a payment request."
    around.payment_request = {**request, "paid": True}
    return f"Payment of {request['amount_due']} USD has been made for bill {request['bill_id']}."
