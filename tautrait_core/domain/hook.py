"""The ``register_domains`` hook of a domain plugin, made from where its builder lives.

A domain plugin's hook module is imported on every start of the CLI, so it must not import
the domain (tables, tools, data) itself; :func:`domain_hook` makes the hook implementation
that imports the builder only when the hook runs, or, given the domain's name, only when a
command uses the domain. This module imports nothing heavy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from tautrait_core.hookmarkers import hookimpl
from tautrait_core.registrations import DeferredPart

if TYPE_CHECKING:
    from tautrait_core.domain.domain import Domain


def domain_hook(
    builder: str, name: str | None = None
) -> Callable[[Callable[[Domain | DeferredPart], None]], None]:
    """The ``register_domains`` hook implementation that registers what ``builder`` builds.

    ``builder`` names a function without arguments that returns a :class:`Domain`, as
    ``"package.module:function"``; the module is imported when the hook runs. A plugin's
    hook module assigns the result: ``register_domains = domain_hook("my_pkg.domain:build")``.
    With ``name`` (the built domain's name) the domain is registered as a
    :class:`DeferredPart` and built only when a command looks it up, so listing plugins
    never imports it.
    """
    module_name, _, function_name = builder.partition(":")
    if not module_name or not function_name:
        raise ValueError(f"domain builder {builder!r} is not 'module:function'")

    @hookimpl
    def register_domains(register: Callable[[Domain | DeferredPart], None]) -> None:
        if name is not None:
            register(DeferredPart(name, builder, build=True))
            return
        build: Callable[[], Domain] = getattr(importlib.import_module(module_name), function_name)
        register(build())

    register_domains.__doc__ = f"Register the domain that ``{builder}`` builds."
    return register_domains
