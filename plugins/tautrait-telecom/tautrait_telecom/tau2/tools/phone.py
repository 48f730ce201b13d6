"""How the customer's phone behaves (domain-spec §4.3): the network search, whether
mobile data works, the speed test, MMS and the status bar; and the decorator that makes
the customer's tools.

Values are τ²'s enum strings. The phone and surroundings rows are read and changed as the
episode's records (:meth:`~tautrait_core.EpisodeDB.record`): the many small reads and
writes of a tool call cost no ORM work, and reach the table in one ``UPDATE``.
"""

from __future__ import annotations

from tautrait_core import EpisodeDB, PlainRecord
from tautrait_core.tau2 import tau2_tool
from tautrait_telecom.tau2.schema import Phone, Surroundings

user_tool = tau2_tool("TelecomUserTools")
"""Makes a function one of the customer's tools (argument errors name τ²'s user toolkit)."""

SPEED_RANGES = {
    "2G": (0.1, 0.4),
    "3G": (1.0, 5.0),
    "4G": (10.0, 100.0),
    "5G": (50.0, 500.0),
    "none": (0.0, 0.0),
}
"""Download speed range (Mbps) of each technology."""
SIGNAL_FACTORS = {"poor": 0.2, "fair": 0.5, "good": 0.8, "excellent": 1.0, "none": 0.0}
SIGNAL_ICONS = {
    "none": "📵 No Signal",
    "poor": "📶¹ Poor",
    "fair": "📶² Fair",
    "good": "📶³ Good",
    "excellent": "📶⁴ Excellent",
}
PREFERRED_TECHNOLOGY = {"4g_only": "4G", "3g_only": "3G", "2g_only": "2G"}


def on_off(flag: bool) -> str:
    return "ON" if flag else "OFF"


def yes_no(flag: bool) -> str:
    return "Yes" if flag else "No"


def phone(db: EpisodeDB) -> PlainRecord:
    """The customer's phone (the single row of :class:`~tautrait_telecom.tau2.schema.Phone`)."""
    found = db.record(Phone, 1)
    assert found is not None
    return found


def surroundings(db: EpisodeDB) -> PlainRecord:
    """Where the customer is (the single row of
    :class:`~tautrait_telecom.tau2.schema.Surroundings`)."""
    found = db.record(Surroundings, 1)
    assert found is not None
    return found


def sim_status(device: PlainRecord) -> str:
    return "missing" if device.sim_card_missing else device.sim_card_status


def network_search(db: EpisodeDB) -> None:
    """Reconnect: technology and signal from the preference and the surroundings when the
    SIM works; no service with no SIM, in airplane mode, with a broken APN or an inactive
    line."""
    device, around = phone(db), surroundings(db)
    signals = around.signal_strength
    if sim_status(device) == "active":
        device.network_connection_status = "connected"
        preference = device.network_mode_preference
        if preference == "4g_5g_preferred":
            technology = "4G" if signals.get("5G", "none") == "none" else "5G"
        else:
            technology = PREFERRED_TECHNOLOGY.get(preference, "4G")
        device.network_technology_connected = technology
        device.network_signal_strength = signals.get(technology, "none")
        offline = False
    else:
        offline = True
    offline = (
        offline
        or device.airplane_mode
        or device.active_apn_settings.get("apn_name") == "broken"
        or not around.line_active
    )
    if offline:
        device.network_connection_status = "no_service"
        device.network_technology_connected = "none"
        device.network_signal_strength = "none"


def mobile_data_works(db: EpisodeDB) -> bool:
    device, around = phone(db), surroundings(db)
    if device.airplane_mode or device.network_signal_strength == "none":
        return False
    if device.network_connection_status == "no_service":
        return False
    if around.is_abroad and not (device.roaming_enabled and around.roaming_allowed):
        return False
    return device.data_enabled and not around.mobile_data_usage_exceeded


def speed_test(db: EpisodeDB) -> tuple[float | None, str]:
    """(speed in Mbps, label), or (None, "No Connection") without mobile data."""
    if not mobile_data_works(db):
        return None, "No Connection"
    device = phone(db)
    vpn = device.vpn_details
    slow_vpn = device.vpn_connected and vpn and vpn.get("server_performance") == "poor"
    factor = 0.1 if slow_vpn else 1.0
    if device.data_saver_mode:
        factor *= 0.2
    low, high = SPEED_RANGES.get(device.network_technology_connected, (0.0, 0.0))
    signal = SIGNAL_FACTORS.get(device.network_signal_strength, 0.0)
    speed = round((low + high) / 2.0 * signal * factor, 2)
    for limit, label in ((1, "Very Poor"), (5, "Poor"), (25, "Fair"), (100, "Good")):
        if speed < limit:
            return speed, label
    return speed, "Excellent"


def can_send_mms(db: EpisodeDB) -> bool:
    if not mobile_data_works(db):
        return False
    device = phone(db)
    if device.network_technology_connected == "2G":
        return False
    if device.wifi_calling_enabled and device.wifi_calling_mms_over_wifi:
        return False
    if device.active_apn_settings.get("mmsc_url") is None:
        return False
    messaging = device.app_statuses.get("messaging")
    if messaging is None:
        return False
    permissions = messaging["permissions"]
    return bool(permissions["storage"] and permissions["sms"])


def status_bar(db: EpisodeDB) -> str:
    """The icons at the top of the screen, ``" | "``-joined."""
    device = phone(db)
    icons = []
    if device.airplane_mode:
        icons.append("✈️ Airplane Mode")
    else:
        icons.append(SIGNAL_ICONS.get(device.network_signal_strength, "📵 No Signal"))
        technology = device.network_technology_connected
        if technology != "none":
            icons.append(technology)
        if device.data_enabled and technology != "none":
            icons.append("📱 Data Enabled")
            if device.data_saver_mode:
                icons.append("🔽 Data Saver")
        else:
            icons.append("📵 Data Disabled")
    if device.wifi_enabled and device.wifi_connected:
        icons.append(f"📡 Connected to {device.wifi_ssid}" if device.wifi_ssid else "📡 Enabled")
    if device.vpn_connected:
        icons.append("🔒 VPN Connected")
    icons.append(f"🔋 {device.battery_level}%")
    return " | ".join(icons)


def with_status_bar(message: str, db: EpisodeDB) -> str:
    """``message`` followed by the status bar line, as τ²'s write tools answer."""
    return f"{message}\nStatus Bar: {status_bar(db)}"
