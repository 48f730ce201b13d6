"""τ²-bench's retail domain (``--domain tau2-retail``) on the retail tables.

τ²'s retail has the same records as τ-bench's but behaves as its own tools do (errors as
capitalised exception texts, outputs as its models dump them, the pending checks and the
multi-item price rule of domain-spec §5.3). It runs on the database and tasks of an
imported τ²-bench checkout. Importing this module is cheap; the domain is built when the
hook runs.
"""

from __future__ import annotations

from tautrait_core import domain_hook

register_domains = domain_hook("tautrait_retail.tau2.domain:build_domain", name="tau2-retail")
