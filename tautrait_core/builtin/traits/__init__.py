"""The built-in ``prompt`` trait backend, registered like a third-party plugin.

It is registered by name and imported only when a command uses it.
"""

from __future__ import annotations

from collections.abc import Callable

from tautrait_core.hookspecs import hookimpl
from tautrait_core.registrations import DeferredPart


@hookimpl
def register_trait_backends(register: Callable[[DeferredPart], None]) -> None:
    register(DeferredPart("prompt", "tautrait_core.builtin.traits.prompt:PromptTraitBackend"))
