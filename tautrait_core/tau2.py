"""The public API for τ²-bench-style domains: tools written as τ²'s are (``@tau2_tool``,
:class:`Tau2Tool`, the shared ``calculate`` and ``transfer_to_human_agents`` tools), τ²'s
database hash and deep merge, tool output serialised as τ² serialises it, where imported τ²
data lives, and a domain built on an imported τ² checkout. Plugin authors import these from
here; everything else comes from :mod:`tautrait_core`.

Records of τ²'s retail and airline databases, which keep τ-bench's records:
:func:`tau2_records_without_key` reads a table of τ²'s ``db.json`` into τ-bench's shape;
:func:`tau2_address`, :func:`tau2_payment_methods` and :func:`tau2_user_identity` dump
records as τ²'s models do (``TAU2_ADDRESS_FIELDS`` is the address field order).

Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tautrait_core.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from tautrait_core.compat.tau2.hashing import (
        tau2_db_hash as tau2_db_hash,
    )
    from tautrait_core.compat.tau2.merge import (
        tau2_deep_merge as tau2_deep_merge,
    )
    from tautrait_core.compat.tau2.records import (
        TAU2_ADDRESS_FIELDS as TAU2_ADDRESS_FIELDS,
        tau2_address as tau2_address,
        tau2_payment_methods as tau2_payment_methods,
        tau2_records_without_key as tau2_records_without_key,
        tau2_user_identity as tau2_user_identity,
    )
    from tautrait_core.compat.tau2.serialise import (
        tau2_json as tau2_json,
    )
    from tautrait_core.compat.tau2.tasks import (
        task_from_tau2 as task_from_tau2,
    )
    from tautrait_core.domain.discoverable import (
        Discoverables as Discoverables,
        DiscoverableTool as DiscoverableTool,
        Ledger as Ledger,
        Parameter as Parameter,
        episode_task as episode_task,
        read_log_allowlist as read_log_allowlist,
    )
    from tautrait_core.domain.layout import (
        imported_tau2_domain as imported_tau2_domain,
    )
    from tautrait_core.domain.task_sets import (
        tau2_data_dir as tau2_data_dir,
        tau2_data_file as tau2_data_file,
    )
    from tautrait_core.domain.tau2_tools import (
        TAU2_UNKNOWN_TOOL as TAU2_UNKNOWN_TOOL,
        Tau2Tool as Tau2Tool,
        tau2_calculate as tau2_calculate,
        tau2_calculate_tool as tau2_calculate_tool,
        tau2_found as tau2_found,
        tau2_tool as tau2_tool,
        tau2_transfer_tool as tau2_transfer_tool,
    )
    from tautrait_core.types.messages import (
        TAU2_GREETING as TAU2_GREETING,
    )

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
