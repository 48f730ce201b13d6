"""τ³'s banking_knowledge domain for tautrait: ``--domain banking`` (a small fictional bank
built in) and ``--domain tau2-banking_knowledge`` (τ³'s own data, once imported).

Importing this module is cheap: the CLI loads it on every start. The domains are built
only when a command uses them.
"""

from __future__ import annotations

from tautrait_core import domain_hook

register_domains = domain_hook("tautrait_banking.builtin:build_domain", name="banking")
