"""The service and device catalogs as the tools read them.

No tool changes services or devices, so all episodes of one template share one
:class:`Catalog`, read from the first episode that needs it (:func:`catalog_of`): catalog
look-ups then cost no SQL. The catalog tables stay in the database, so they are part of
every state hash and of the export.
"""

from __future__ import annotations

import copy
from typing import Any

from sqlmodel import select

from tautrait_core import EpisodeDB, per_template
from tautrait_telecom.schema import Device, Service


class Catalog:
    """Every service and device record, in upstream order, read once.

    Args:
        services: The service rows, in upstream order.
        devices: The device rows, in upstream order.
    """

    def __init__(self, services: list[Service], devices: list[Device]) -> None:
        self._services = {row.service_id: row.to_record() for row in services}
        self._devices = {row.catalog_name: row.to_record() for row in devices}

    def service(self, service_id: str) -> dict[str, Any] | None:
        """The upstream record of a service (a new object), or ``None``."""
        record = self._services.get(service_id)
        return None if record is None else copy.deepcopy(record)

    def services(self) -> dict[str, dict[str, Any]]:
        """Every service record by id, in upstream order (new objects)."""
        return copy.deepcopy(self._services)

    def device(self, name: str) -> dict[str, Any] | None:
        """The upstream record of a device model by catalog name (a new object), or ``None``."""
        record = self._devices.get(name)
        return None if record is None else copy.deepcopy(record)

    def has_device(self, name: str) -> bool:
        """Whether ``name`` is a catalog name."""
        return name in self._devices


@per_template
def catalog_of(db: EpisodeDB) -> Catalog:
    """The catalog of ``db``'s template, read on first use and then shared."""
    services = list(db.exec(select(Service).order_by(Service.position)))  # type: ignore[arg-type]
    devices = list(db.exec(select(Device).order_by(Device.position)))  # type: ignore[arg-type]
    return Catalog(services, devices)
