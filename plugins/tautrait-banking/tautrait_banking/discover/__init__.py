"""The bank's discoverable tools (τ³'s ``KnowledgeTools`` methods the model is not shown),
one module per group; :data:`MODULES` names them all."""

from __future__ import annotations

MODULES = (
    "tautrait_banking.discover.lookups",
    "tautrait_banking.discover.credit_cards",
    "tautrait_banking.discover.credit_limits",
    "tautrait_banking.discover.handoffs",
    "tautrait_banking.discover.bank_accounts",
    "tautrait_banking.discover.debit_orders",
    "tautrait_banking.discover.debit_cards",
    "tautrait_banking.discover.debit_requests",
    "tautrait_banking.discover.customer",
)
