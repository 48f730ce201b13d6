"""Customer-side functions that are not tools: what τ² telecom tasks call by name to
break the phone (``initialization_actions``) and to check it works again
(``env_assertions``)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from tautrait_core import EpisodeDB
from tautrait_telecom.tau2.tools import phone as device_state
from tautrait_telecom.tau2.tools.phone import phone, surroundings
from tautrait_telecom.tau2.tools.phone_settings import (
    connect_vpn,
    flip_airplane_mode,
    flip_data,
    flip_data_saver,
    flip_roaming,
    flip_wifi_calling,
)


def set_switch(db: EpisodeDB, flip: Callable[[EpisodeDB], bool], *, on: bool) -> None:
    """Flip a switch of the phone (``flip`` returns its new state) until it is ``on``."""
    if flip(db) != on:
        flip(db)


NETWORK_STATUSES = ("connected", "searching", "no_service", "emergency_only")


def set_user_info(db: EpisodeDB, name: str, phone_number: str) -> None:
    """Say who the customer is (the state sync starts mirroring their line)."""
    around = surroundings(db)
    around.name = name
    around.phone_number = phone_number


def set_user_location(db: EpisodeDB, abroad: bool) -> None:
    surroundings(db).is_abroad = abroad


def unseat_sim_card(db: EpisodeDB) -> str:
    phone(db).sim_card_missing = True
    device_state.network_search(db)
    return "SIM card un-seated successfully."


def lock_sim_card(db: EpisodeDB, mode: str) -> str:
    """Lock the SIM with a PIN (``"pin"``) or PUK (``"puk"``) code."""
    if mode in ("pin", "puk"):
        phone(db).sim_card_status = f"locked_{mode}"
    device_state.network_search(db)
    return f"SIM card locked successfully in {mode} mode."


def turn_data_on(db: EpisodeDB) -> str:
    phone(db).data_enabled = True
    return "Data connection restored."


def break_apn_settings(db: EpisodeDB) -> str:
    device = phone(db)
    device.active_apn_settings = {**device.active_apn_settings, "apn_name": "broken"}
    device_state.network_search(db)
    return "APN settings broken. Please call reset_apn_settings() to fix."


def break_apn_mms_setting(db: EpisodeDB) -> str:
    device = phone(db)
    device.active_apn_settings = {**device.active_apn_settings, "mmsc_url": None}
    return "APN MMS setting broken. Please call reset_apn_settings() to fix."


def break_vpn(db: EpisodeDB) -> str:
    """Connect a VPN whose server performs poorly (slow mobile data)."""
    connect_vpn.function(db)
    device = phone(db)
    device.vpn_details = {**(device.vpn_details or {}), "server_performance": "poor"}
    return "VPN connection broken."


def set_wifi_calling(db: EpisodeDB, enabled: bool, mms_over_wifi: bool | None = None) -> str:
    device = phone(db)
    if device.wifi_calling_enabled != enabled:
        flip_wifi_calling(db)
    message = f"Wi-Fi Calling is now {'ON' if enabled else 'OFF'}."
    if mms_over_wifi is not None:
        device.wifi_calling_mms_over_wifi = mms_over_wifi
        message += f"\nMMS over Wi-Fi is now {'ON' if mms_over_wifi else 'OFF'}."
    return message


def remove_app_permission(db: EpisodeDB, app_name: str, permission: str) -> tuple[bool, str]:
    device = phone(db)
    permission = permission.lower()
    if app_name not in device.app_statuses:
        return False, f"App '{app_name}' not found. Cannot remove permission."
    if permission not in device.app_statuses[app_name]["permissions"]:
        return False, f"Permission '{permission}' not tracked for app '{app_name}'."
    apps = copy.deepcopy(device.app_statuses)
    apps[app_name]["permissions"][permission] = False
    device.app_statuses = apps
    return True, f"Permission '{permission}' removed from app '{app_name}'."


def simulate_network_search(db: EpisodeDB) -> None:
    device_state.network_search(db)


# -- assertions -------------------------------------------------------------------------


def assert_airplane_mode_status(db: EpisodeDB, expected_status: bool) -> bool:
    return phone(db).airplane_mode == expected_status


def assert_service_status(db: EpisodeDB, expected_status: str) -> bool:
    if expected_status not in NETWORK_STATUSES:
        raise ValueError(f"{expected_status!r} is not a valid NetworkStatus")
    return phone(db).network_connection_status == expected_status


def assert_mobile_data_status(db: EpisodeDB, expected_status: bool) -> bool:
    return device_state.mobile_data_works(db) == expected_status


def assert_mobile_roaming_status(db: EpisodeDB, expected_status: bool) -> bool:
    return phone(db).roaming_enabled == expected_status


def assert_mobile_data_saver_mode_status(db: EpisodeDB, expected_status: bool) -> bool:
    return phone(db).data_saver_mode == expected_status


def assert_internet_speed(
    db: EpisodeDB, expected_speed: float, expected_desc: str | None = None
) -> bool:
    """Whether the speed test gives at least ``expected_speed`` (and the label, if given)."""
    speed, label = device_state.speed_test(db)
    fast_enough = (speed or 0.0) >= expected_speed
    if expected_desc is None:
        return fast_enough
    return fast_enough and label.lower() == expected_desc.lower()


def assert_internet_not_excellent(db: EpisodeDB) -> bool:
    return device_state.speed_test(db)[1].lower() != "excellent"


def assert_can_send_mms(db: EpisodeDB, expected_status: bool) -> bool:
    return device_state.can_send_mms(db) == expected_status


def assert_mobile_data_usage_exceeded(db: EpisodeDB, expected_status: bool) -> bool:
    return surroundings(db).mobile_data_usage_exceeded == expected_status


SWITCH_SETTERS: dict[str, tuple[Callable[[EpisodeDB], bool], bool, str]] = {
    "turn_airplane_mode_on": (flip_airplane_mode, True, "Airplane Mode is now ON."),
    "turn_airplane_mode_off": (flip_airplane_mode, False, "Airplane Mode is now OFF."),
    "turn_data_off": (flip_data, False, "Data connection broken."),
    "turn_roaming_on": (flip_roaming, True, "Data Roaming is now ON."),
    "turn_roaming_off": (flip_roaming, False, "Data Roaming is now OFF."),
    "turn_data_saver_mode_on": (flip_data_saver, True, "Data Saver Mode is now ON."),
    "turn_data_saver_mode_off": (flip_data_saver, False, "Data Saver Mode is now OFF."),
}
"""Set-up functions that put one switch in one position: name -> (the switch's flip,
the position, the answer)."""


def switch_setter(name: str) -> Callable[[EpisodeDB], str]:
    """The set-up function ``name`` of :data:`SWITCH_SETTERS`."""
    flip, on, answer = SWITCH_SETTERS[name]

    def put_switch(db: EpisodeDB) -> str:
        set_switch(db, flip, on=on)
        return answer

    put_switch.__name__ = name
    return put_switch


PHONE_FUNCTIONS: tuple[Callable[..., Any], ...] = (
    set_user_info,
    set_user_location,
    unseat_sim_card,
    lock_sim_card,
    turn_data_on,
    break_apn_settings,
    break_apn_mms_setting,
    break_vpn,
    set_wifi_calling,
    remove_app_permission,
    simulate_network_search,
    assert_airplane_mode_status,
    assert_service_status,
    assert_mobile_data_status,
    assert_mobile_roaming_status,
    assert_mobile_data_saver_mode_status,
    assert_internet_speed,
    assert_internet_not_excellent,
    assert_can_send_mms,
    assert_mobile_data_usage_exceeded,
    *(switch_setter(name) for name in SWITCH_SETTERS),
)
"""The customer-side functions tasks call by name."""
