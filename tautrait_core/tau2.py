"""τ²-bench helpers for domain plugins that run τ²-bench's own domains.

Like :mod:`tautrait_core` and :mod:`tautrait_core.testing` this module is public: a plugin
imports these names from here, and the modules that define them may move. Names load on
first use.

Records of τ²'s retail and airline databases, which keep τ-bench's records:
:func:`tau2_records_without_key` reads a table of τ²'s ``db.json`` into τ-bench's shape;
:func:`tau2_address`, :func:`tau2_payment_methods` and :func:`tau2_user_identity` dump
records as τ²'s models do (``TAU2_ADDRESS_FIELDS`` is the address field order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tautrait_core.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from tautrait_core.compat.tau2.records import (
        TAU2_ADDRESS_FIELDS,
        tau2_address,
        tau2_payment_methods,
        tau2_records_without_key,
        tau2_user_identity,
    )

_EXPORTS = {
    "TAU2_ADDRESS_FIELDS": "tautrait_core.compat.tau2.records",
    "tau2_address": "tautrait_core.compat.tau2.records",
    "tau2_payment_methods": "tautrait_core.compat.tau2.records",
    "tau2_records_without_key": "tautrait_core.compat.tau2.records",
    "tau2_user_identity": "tautrait_core.compat.tau2.records",
}

__all__ = [
    "TAU2_ADDRESS_FIELDS",
    "tau2_address",
    "tau2_payment_methods",
    "tau2_records_without_key",
    "tau2_user_identity",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
