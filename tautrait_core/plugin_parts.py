"""Checks of the parts plugins register: the base class each kind must use, and run
options whose names another option has already (used by :mod:`tautrait_core.plugins`)."""

from __future__ import annotations

from typing import Any

# registry kind -> (module, class): agents, users and trait backends register subclasses of
# the class, run options register instances of it
REGISTRY_BASES = {
    "agent": ("tautrait_core.episode.agent", "Agent"),
    "user": ("tautrait_core.episode.user", "UserSimulator"),
    "trait_backend": ("tautrait_core.episode.trait_backend", "TraitBackend"),
    "run_option": ("tautrait_core.run_options", "RunOption"),
}


def nonconformity(kind: str, part: Any) -> str | None:
    """Why ``part`` may not be registered as a ``kind`` (``None``: it may)."""
    if kind not in REGISTRY_BASES:
        return None
    import importlib

    module, class_name = REGISTRY_BASES[kind]
    base = getattr(importlib.import_module(module), class_name)
    public = f"tautrait_core.{class_name}"
    if kind == "run_option":
        return None if isinstance(part, base) else f"is not a {public}"
    if isinstance(part, type) and issubclass(part, base):
        return None
    return f"is not a subclass of {public}"


def option_clash(kind: str, part: Any, registry: dict[str, tuple[Any, Any]]) -> str | None:
    """Why a run option's names cannot be used: another option has one of them.

    (A clash with a RunConfig field is found by ``config.declared_run_options``, which can
    afford to import the configuration model.)
    """
    if kind != "run_option":
        return None
    for key in part.names:
        for other, source in registry.values():
            if key in other.names and not key == part.name == other.name:
                return f"uses the name {key!r} that {source.describe()} declares already"
    return None
