"""The hook of ``tau2-banking_knowledge`` (τ³'s own bank data, once imported): importing
this module is cheap, the domain is built by :mod:`tautrait_banking.tau3` when used."""

from __future__ import annotations

from tautrait_core import domain_hook

register_domains = domain_hook("tautrait_banking.tau3:build_domain", name="tau2-banking_knowledge")
