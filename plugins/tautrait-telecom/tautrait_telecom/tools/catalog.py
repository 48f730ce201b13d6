"""The service and device catalogs, and device troubleshooting."""

from __future__ import annotations

import json
from enum import StrEnum

from tautrait_core import EpisodeDB, tool
from tautrait_telecom.catalog import catalog_of


@tool
def get_service_details(db: EpisodeDB, service_id: str) -> str:
    """Show one service of the catalog: its name, category and monthly price.

    Args:
        service_id: The service id, e.g. 'internet_fiber_300'.
    """
    service = catalog_of(db).service(service_id)
    if service is None:
        return f"Error: Service not found: {service_id}"
    return json.dumps(service)


@tool
def get_device_details(db: EpisodeDB, device_name: str) -> str:
    """Show a device model of the catalog: its category, manufacturer and model.

    Args:
        device_name: The device's catalog name, exactly as written on the customer's
            device list, e.g. 'Pixel 8'.
    """
    device = catalog_of(db).device(device_name)
    if device is None:
        return f"Error: Device not found: {device_name}"
    return json.dumps(device)


@tool
def get_services(db: EpisodeDB) -> str:
    """List every service of the catalog with its name, category and monthly price."""
    return json.dumps(catalog_of(db).services())


class Issue(StrEnum):
    """The device problems troubleshooting knows."""

    NO_SERVICE = "no_service"
    SLOW_SPEEDS = "slow_speeds"
    BATTERY_DRAIN = "battery_drain"


PHONE_STEPS = {
    Issue.BATTERY_DRAIN: (
        "1) Restart device ",
        "2) Check brightness settings and reduce if needed",
        "3) Close background apps",
        "4) Contact support if issue persists",
    ),
    Issue.NO_SERVICE: (
        "1) Restart device ",
        "2) Check signal coverage ",
        "3) Reset network settings ",
        "4) Contact support if issue persists",
    ),
    Issue.SLOW_SPEEDS: (
        "1) Restart device ",
        "2) Check data usage and plan limits",
        "3) Reset network settings ",
        "4) Contact support if issue persists",
    ),
}
NETWORKING_STEPS = {
    Issue.NO_SERVICE: (
        "1) Restart router by unplugging for 30 seconds",
        "2) Check all cable connections ",
        "3) Update firmware if available",
        "4) Contact support if needed",
    ),
    Issue.SLOW_SPEEDS: (
        "1) Restart router by unplugging for 30 seconds",
        "2) Check cable connections ",
        "3) Run speed test ",
        "4) Contact support if needed",
    ),
}
TV_NO_SERVICE_STEPS = (
    "1) Check correct input/source ",
    "2) Verify cable connections ",
    "3) Restart cable box ",
    "4) Contact support if needed",
)


def _steps_text(steps: tuple[str, ...]) -> str:
    return "\nTroubleshooting steps: \n" + "".join(step + "\n" for step in steps)


@tool
def troubleshoot_device(db: EpisodeDB, device_name: str, issue: str) -> str:
    """Get troubleshooting steps for a device model and a problem.

    Args:
        device_name: The device's catalog name, e.g. 'WiFi 6 Router'.
        issue: The problem: 'no_service', 'slow_speeds' or 'battery_drain'.
    """
    try:
        problem = Issue(issue)
    except ValueError:
        raise ValueError(f"{issue!r} is not a valid Issue") from None
    device = catalog_of(db).device(device_name)
    if device is None:
        return f"Error: Device not found: {device_name}"
    category = device.get("category")
    if category in ("mobile_phone", "phone"):
        return _steps_text(PHONE_STEPS[problem])
    if category == "networking":
        steps = NETWORKING_STEPS.get(problem)
        return _steps_text(steps) if steps else "Unknown issue"
    if category == "tv":
        if problem is not Issue.NO_SERVICE:  # upstream names a missing enum member here
            raise AttributeError("NO_SIGNAL")
        return _steps_text(TV_NO_SERVICE_STEPS)
    return "Unknown issue"
