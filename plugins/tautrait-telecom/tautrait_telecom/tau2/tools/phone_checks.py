"""The customer's phone tools that only look (domain-spec §4.4): status bar, network,
SIM, data, APN, Wi-Fi, VPN, apps, MMS and payment requests. Outputs are τ²'s texts,
character for character."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_core import EpisodeDB
from tautrait_telecom.tau2.tools import phone as device_state
from tautrait_telecom.tau2.tools.phone import on_off, phone, surroundings, user_tool, yes_no

SIM_MESSAGES = {
    "active": "Your SIM card is active and working.",
    "missing": "No SIM card detected in the phone.",
    "locked_pin": "The SIM card is locked with a PIN code.",
    "locked_puk": "The SIM card is locked with a PUK code.",
}
SPEED_ADVICE = {
    "Very Poor": "Connection is very slow. Basic web browsing might be difficult.",
    "Poor": "Connection is slow. Web browsing may be sluggish, streaming difficult.",
    "Fair": "Connection is okay for web browsing and some standard definition streaming.",
    "Good": "Connection is good for most activities, including HD streaming.",
    "Excellent": "Connection is very fast.",
}


def vpn_details_text(details: dict[str, Any]) -> str:
    """The details as τ² prints them: a Python dict repr, the performance as its enum."""
    parts = []
    for key, value in details.items():
        if key == "server_performance":
            shown = f"<PerformanceLevel.{value.upper()}: {value!r}>"
        else:
            shown = repr(value)
        parts.append(f"{key!r}: {shown}")
    return "{" + ", ".join(parts) + "}"


@user_tool
def check_status_bar(db: EpisodeDB) -> str:
    """Show the icons in the phone's status bar: signal, network type, mobile data, Wi-Fi,
    VPN and battery."""
    return f"Status Bar: {device_state.status_bar(db)}"


@user_tool
def check_network_status(db: EpisodeDB) -> str:
    """Show airplane mode, SIM, cellular connection, signal, network type, mobile data,
    data roaming and Wi-Fi."""
    device = phone(db)
    lines = [
        f"Airplane Mode: {on_off(device.airplane_mode)}",
        f"SIM Card Status: {device_state.sim_status(device)}",
        f"Cellular Connection: {device.network_connection_status}",
        f"Cellular Signal: {device.network_signal_strength}",
        f"Cellular Network Type: {device.network_technology_connected}",
        f"Mobile Data Enabled: {yes_no(device.data_enabled)}",
        f"Data Roaming Enabled: {yes_no(device.roaming_enabled)}",
        f"Wi-Fi Radio: {on_off(device.wifi_enabled)}",
        f"Wi-Fi Connected: {yes_no(device.wifi_connected)}",
    ]
    if device.wifi_connected:
        lines.append(f"Connected Wi-Fi Network: {device.wifi_ssid}")
    return "\n".join(lines)


@user_tool
def check_network_mode_preference(db: EpisodeDB) -> str:
    """Show which network types the phone prefers."""
    return f"Network Mode Preference: {phone(db).network_mode_preference}"


@user_tool
def run_speed_test(db: EpisodeDB) -> str:
    """Measure the phone's download speed and say what it is good for."""
    speed, label = device_state.speed_test(db)
    if speed is None:
        return f"Speed test failed: {label}."
    return f"Speed Test Result: {speed:.2f} Mbps ({label}). {SPEED_ADVICE[label]}"


@user_tool
def check_sim_status(db: EpisodeDB) -> str:
    """Say whether the SIM card works, is missing or is locked."""
    return SIM_MESSAGES[device_state.sim_status(phone(db))]


@user_tool
def check_data_restriction_status(db: EpisodeDB) -> str:
    """Say whether Data Saver mode limits data use."""
    if phone(db).data_saver_mode:
        return "Data Saver mode is ON (limits data usage)."
    return "Data Saver mode is OFF."


@user_tool
def check_apn_settings(db: EpisodeDB) -> str:
    """Show the APN name and the MMS server address the phone uses."""
    settings = phone(db).active_apn_settings
    return (
        f"Current APN Name: {settings['apn_name'] or 'Not Set'}\n"
        f"MMSC URL (for picture messages): {settings['mmsc_url'] or 'Not Set'}\n"
        "(These are technical settings, usually best left unchanged.)"
    )


@user_tool
def check_wifi_status(db: EpisodeDB) -> str:
    """Say whether Wi-Fi is on, which network it is connected to and how strongly."""
    device = phone(db)
    if not device.wifi_enabled:
        return "Wi-Fi is turned OFF."
    if device.wifi_connected:
        return (
            f"Wi-Fi is ON and connected to '{device.wifi_ssid}'. "
            f"Signal strength: {device.wifi_signal_strength}."
        )
    return "Wi-Fi is ON but not connected to any network."


@user_tool
def check_wifi_calling_status(db: EpisodeDB) -> str:
    """Say whether Wi-Fi Calling is on."""
    return f"Wi-Fi Calling is currently turned {on_off(phone(db).wifi_calling_enabled)}."


@user_tool
def check_vpn_status(db: EpisodeDB) -> str:
    """Say whether a VPN is set up and connected, with its details."""
    device = phone(db)
    if device.vpn_connected:
        if device.vpn_details:
            return f"VPN is ON and connected. Details: {vpn_details_text(device.vpn_details)}"
        return "VPN is ON and connected (no specific details available)."
    if device.vpn_enabled_setting:
        return "VPN is turned ON in settings, but currently not connected."
    return "VPN is turned OFF."


@user_tool
def check_installed_apps(db: EpisodeDB) -> str:
    """List the apps installed on the phone."""
    return f"The following apps are installed on the phone: {', '.join(phone(db).app_statuses)}"


def app_answer(db: EpisodeDB, app_name: str, answer: Callable[[str, list[str]], str]) -> str:
    """``answer(app_name, granted)`` with the permissions the phone's app has (as τ² words
    them), or τ²'s text when the phone has no such app."""
    status = phone(db).app_statuses.get(app_name)
    if status is None:
        return f"App '{app_name}' not found on this phone."
    granted = [name.replace("_", " ").lower() for name, on in status["permissions"].items() if on]
    return answer(app_name, granted)


def app_status_text(app_name: str, granted: list[str]) -> str:
    """What check_app_status says of an app with the ``granted`` permissions."""
    lines = [f"Status for App: {app_name}"]
    if granted:
        lines.append(" - Permissions Granted:")
        lines.extend(f"   - {permission}" for permission in granted)
    else:
        lines.append(" - Permissions: None granted.")
    return "\n".join(lines)


def app_permissions_text(app_name: str, granted: list[str]) -> str:
    """What check_app_permissions says of an app with the ``granted`` permissions."""
    if not granted:
        return f"App '{app_name}' currently has no permissions granted."
    return f"App '{app_name}' has permission for: {', '.join(granted)}."


@user_tool
def check_app_status(db: EpisodeDB, app_name: str) -> str:
    """Show an app's status and the permissions it has.

    Args:
        app_name: The app's name, such as 'messaging'.
    """
    return app_answer(db, app_name, app_status_text)


@user_tool
def check_app_permissions(db: EpisodeDB, app_name: str) -> str:
    """Show which permissions an app has.

    Args:
        app_name: The app's name, such as 'messaging'.
    """
    return app_answer(db, app_name, app_permissions_text)


@user_tool
def can_send_mms(db: EpisodeDB) -> str:
    """Say whether the messaging app can send MMS (picture) messages."""
    if device_state.can_send_mms(db):
        return "Your messaging app can send MMS messages."
    return "Your messaging app cannot send MMS messages."


@user_tool
def check_payment_request(db: EpisodeDB) -> str:
    """Say whether the agent has sent a payment request, for which bill and amount."""
    request = surroundings(db).payment_request
    if request is None:
        return "No payment request has been made."
    return (
        f"You have a payment request for bill {request['bill_id']} of {request['amount_due']} USD."
    )
