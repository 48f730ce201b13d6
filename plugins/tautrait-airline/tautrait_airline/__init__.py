"""The airline domain plugin for tautrait.

Importing this module is cheap: the CLI loads it on every start. The domain (tables,
tools, data) is built only when a command uses the domain.
"""

from __future__ import annotations

from tautrait_core import domain_hook

register_domains = domain_hook("tautrait_airline.domain:build_domain", name="airline")
