"""Built-in retrieval configurations (τ³'s names), registered through the same hook as
third-party plugins."""

from __future__ import annotations

from collections.abc import Callable

from tautrait_core.builtin import register_builtin
from tautrait_core.hookmarkers import hookimpl
from tautrait_core.registrations import DeferredPart


@hookimpl
def register_retrievals(register: Callable[[DeferredPart], None]) -> None:
    register_builtin("retrieval", register)
