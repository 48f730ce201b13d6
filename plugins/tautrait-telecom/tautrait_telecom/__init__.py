"""The telecom domain plugin for tautrait: ``telecom`` (τ-Trait) and ``tau2-telecom`` /
``tau2-telecom-workflow`` (τ²-bench's telecom, where the customer acts on their own phone).

Importing this module is cheap: the CLI loads it on every start. The domains (tables,
tools, data) are built only when a command uses them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tautrait_core import domain_hook, hookimpl

if TYPE_CHECKING:
    from tautrait_core import DeferredPart, Domain

_DOMAIN_HOOKS = (
    domain_hook("tautrait_telecom.domain:build_domain", name="telecom"),
    domain_hook("tautrait_telecom.tau2.domain:build_domain", name="tau2-telecom"),
    domain_hook("tautrait_telecom.tau2.domain:build_workflow_domain", name="tau2-telecom-workflow"),
)


@hookimpl
def register_domains(register: Callable[[Domain | DeferredPart], None]) -> None:
    """Register ``telecom``, ``tau2-telecom`` and ``tau2-telecom-workflow``."""
    for register_domain in _DOMAIN_HOOKS:
        register_domain(register)
