"""What the plugin manager records about plugins, and the checks a registered part passes.

Provenance (which distribution supplied a part), plugins that failed to load, names that two
plugins register, whether a registered class subclasses the core base class of its kind, and
parts registered by name whose import waits until a command uses them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.errors import PluginError

CORE_DISTRIBUTION = "tautrait-core"
LOAD_PLUGINS_ENV = "TAUTRAIT_LOAD_PLUGINS"


class PluginLoadWarning(UserWarning):
    """A plugin could not be imported and was skipped."""


@dataclass(frozen=True)
class Provenance:
    """Which plugin (and which installed distribution) supplied a registered part."""

    plugin: str
    distribution: str
    version: str

    def describe(self) -> str:
        return f"{self.distribution} {self.version} (plugin {self.plugin!r})"


@dataclass
class PluginInfo:
    """One loaded plugin and what it registered, for ``tautrait plugins``."""

    name: str
    distribution: str
    version: str
    builtin: bool
    registers: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class LoadFailure:
    """A plugin entry point that failed to import, or one of its hooks that raised."""

    name: str
    distribution: str
    version: str
    error: str
    hook: str | None = None
    """The hook that raised (``None``: the plugin failed to import)."""

    def message(self) -> str:
        failed = "failed to import" if self.hook is None else f"failed in its {self.hook} hook"
        return (
            f"plugin {self.name!r} from distribution {self.distribution} {self.version} "
            f"{failed} and was skipped: {self.error}. "
            f"Fix or remove it with: pip uninstall {self.distribution}"
        )


def describe_error(exc: Exception) -> str:
    """``Type: message``, with the file and line of a syntax error."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{type(exc).__name__}: {exc.msg} ({exc.filename}, line {exc.lineno})"
    return f"{type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class NameClash:
    """A name registered by two plugins; commands that use it fail with :meth:`error`."""

    kind: str
    name: str
    first: Provenance
    second: Provenance

    def error(self) -> PluginError:
        plugins = [s for s in (self.first, self.second) if s.distribution != CORE_DISTRIBUTION]
        removals = " or ".join(f"pip uninstall {s.distribution}" for s in plugins)
        return PluginError(
            f"{self.kind} {self.name!r} is registered twice: by {self.first.describe()} "
            f"and by {self.second.describe()}. Remove the plugin that should not supply it "
            f"({removals}), or choose which plugins to load with {LOAD_PLUGINS_ENV}."
        )


@dataclass(frozen=True)
class DeferredPart:
    """A part registered by its name and where it lives, imported when a command uses it.

    Listing commands (``tautrait plugins``, the names in an error) need only the name, so a
    plugin that registers ``DeferredPart("clinic", "tautrait_clinic.domain:build_domain",
    build=True)`` costs nothing until the part is looked up. The part is then loaded and
    checked as an eagerly registered one would be, and must carry the same ``name``.
    """

    name: str
    target: str
    """``"module:attribute"``: the part itself (a class), or with ``build``, a function
    without arguments that returns it (a :class:`~tautrait_core.Domain`)."""
    build: bool = False

    def __post_init__(self) -> None:
        module_name, _, attribute = self.target.partition(":")
        if not module_name or not attribute:
            raise ValueError(f"deferred part target {self.target!r} is not 'module:attribute'")

    def load(self) -> Any:
        """Import the part (and build it, with ``build``)."""
        module_name, _, attribute = self.target.partition(":")
        value = getattr(importlib.import_module(module_name), attribute)
        return value() if self.build else value


# registry kind -> (module, class): agents, users, trait backends and retrievals register
# subclasses of
# the class, run options register instances of it
REGISTRY_BASES = {
    "agent": ("tautrait_core.episode.agent", "Agent"),
    "user": ("tautrait_core.episode.user", "UserSimulator"),
    "trait_backend": ("tautrait_core.episode.trait_backend", "TraitBackend"),
    "run_option": ("tautrait_core.run_options", "RunOption"),
    "retrieval": ("tautrait_core.retrieval.base", "Retrieval"),
}


def nonconformity(kind: str, part: Any) -> str | None:
    """Why ``part`` may not be registered as a ``kind`` (``None``: it may)."""
    if kind not in REGISTRY_BASES:
        return None
    if isinstance(part, DeferredPart) and kind != "run_option":
        return None  # checked when it is loaded; run options are read as soon as registered
    module, class_name = REGISTRY_BASES[kind]
    base = getattr(importlib.import_module(module), class_name)
    public = f"tautrait_core.{class_name}"
    if kind == "run_option":
        return None if isinstance(part, base) else f"is not a {public}"
    if isinstance(part, type) and issubclass(part, base):
        return None
    return f"is not a subclass of {public}"


def option_clash(kind: str, part: Any, registry: dict[str, tuple[Any, Provenance]]) -> str | None:
    """Why a run option's names cannot be used: another option has one of them.

    (A clash with a RunConfig key is found when a run is prepared, by
    :func:`tautrait_core.run.plugin_options.declared_run_options`.)
    """
    if kind != "run_option":
        return None
    for key in part.names:
        for other, source in registry.values():
            if key in other.names and not key == part.name == other.name:
                return f"uses the name {key!r} that {source.describe()} declares already"
    return None


def failure_reason(exc: BaseException) -> str:
    """Why a plugin failed: ``Type: message``, or that it called ``sys.exit()``."""
    if isinstance(exc, Exception):
        return describe_error(exc)
    return f"{type(exc).__name__}: the plugin called sys.exit({getattr(exc, 'code', None)!r})"


def unknown_selection(unknown: list[str], installed: list[str]) -> str:
    """The warning about names in ``TAUTRAIT_LOAD_PLUGINS`` that no installed plugin has."""
    return (
        f"{LOAD_PLUGINS_ENV} names {', '.join(map(repr, unknown))}, which no installed plugin "
        f"is called (installed: {', '.join(installed) or 'none'}); fix the name, or unset "
        f"{LOAD_PLUGINS_ENV} to load every installed plugin"
    )
