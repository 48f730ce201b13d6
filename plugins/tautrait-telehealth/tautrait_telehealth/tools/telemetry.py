"""Remote-monitoring devices: the inventory and the daily uploads of a device."""

from __future__ import annotations

import json

from tautrait_core import EpisodeDB, tool
from tautrait_telehealth.rows import views
from tautrait_telehealth.schema import TelemetryDevice, TelemetryUpload


@tool
def list_telemetry_devices(
    db: EpisodeDB, status_filter: str | None = None, limit: int | None = None
) -> str:
    """List the remote-monitoring devices in the inventory by device id, with status,
    last audit date and notes.

    Args:
        status_filter: Only devices with this status, e.g. 'available', 'shipped',
            'maintenance', 'inspection' or 'missing_overdue' (any case).
        limit: Show at most this many devices (all when left out).
    """
    devices = views(db, TelemetryDevice)
    if not devices:
        return "Telemetry inventory is empty."
    if status_filter:
        devices = [d for d in devices if d.status.lower() == status_filter.lower()]
        if not devices:
            return f"No telemetry devices with status {status_filter}."
    devices.sort(key=lambda d: d.device_id)
    if limit and limit > 0:
        devices = devices[:limit]
    lines = ["Telemetry devices:"]
    lines += [
        f"{d.device_id} | status={d.status} | last_audit={d.last_audit} | notes={d.notes}"
        for d in devices
    ]
    return "\n".join(lines)


@tool
def list_telemetry_uploads(
    db: EpisodeDB,
    device_id: str,
    start_date: str | None = None,
    end_date: str | None = None,
    limit: int | None = None,
) -> str:
    """List a device's daily uploads (usage hours, sync time, event, alerts) as JSON, in
    date order, optionally within a date window.

    Args:
        device_id: The device id, e.g. 'RM-301'.
        start_date: The first day to include, YYYY-MM-DD.
        end_date: The last day to include, YYYY-MM-DD.
        limit: Show at most this many uploads (all when left out).
    """
    uploads = [
        u
        for u in views(db, TelemetryUpload, '"device_id" = ?', (device_id,))
        if (not start_date or u.date >= start_date) and (not end_date or u.date <= end_date)
    ]
    uploads.sort(key=lambda u: u.date)
    if limit and limit > 0:
        uploads = uploads[:limit]
    if not uploads:
        return f"No telemetry uploads found for device {device_id} in the specified window."
    return json.dumps([u.to_record() for u in uploads])


@tool
def get_telemetry_upload(db: EpisodeDB, device_id: str, date: str) -> str:
    """Show one day's upload of a device as JSON.

    Args:
        device_id: The device id, e.g. 'RM-301'.
        date: The day, YYYY-MM-DD.
    """
    found = views(db, TelemetryUpload, '"device_id" = ? AND "date" = ?', (device_id, date))
    upload = found[0] if found else None
    if upload is None:
        return f"No telemetry upload found for device {device_id} on {date}."
    return json.dumps(upload.to_record())
