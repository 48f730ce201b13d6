"""τ²-bench's airline domain (``--domain tau2-airline``) on the airline tables.

τ²'s airline has τ-bench's records (users also carry their ``user_id``) but behaves as its
own tools do (domain-spec §5.2): no ``think``, a ``get_flight_status`` tool, capitalised
exception texts, seats taken on booking, the cabin updated on a flight change, outputs as
its models dump them. It runs on the database and tasks of an imported τ²-bench checkout.
Importing this module is cheap; the domain is built when the hook runs.
"""

from __future__ import annotations

from tautrait_core import domain_hook

register_domains = domain_hook("tautrait_airline.tau2.domain:build_domain", name="tau2-airline")
