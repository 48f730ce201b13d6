"""The built-in ``prompt`` trait backend, registered like a third-party plugin.

The class is imported only when the registry is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_core.hookspecs import hookimpl


@hookimpl
def register_trait_backends(register: Callable[[type[Any]], None]) -> None:
    from tautrait_core.builtin.traits.prompt import PromptTraitBackend

    register(PromptTraitBackend)
