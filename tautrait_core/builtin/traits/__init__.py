"""The built-in ``prompt`` trait backend, registered like a third-party plugin."""

from __future__ import annotations

from collections.abc import Callable

from tautrait_core.builtin import register_builtin
from tautrait_core.hookmarkers import hookimpl
from tautrait_core.registrations import DeferredPart


@hookimpl
def register_trait_backends(register: Callable[[DeferredPart], None]) -> None:
    register_builtin("trait_backend", register)
