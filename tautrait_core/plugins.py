"""Plugin discovery and the registries of domains, agents, users and trait backends.

Built-in plugins (``DEFAULT_PLUGINS``) are registered exactly like third-party ones; the
only difference is that their distribution is ``tautrait-core``. Third-party plugins are
found through entry points in the ``tautrait`` group. ``TAUTRAIT_LOAD_PLUGINS=a,b`` loads
only the named entry points (an empty value loads none; a name no plugin has is reported);
built-ins always load, and an unknown name's error says which installed plugins were left out.

A plugin that fails to import, or whose hook raises (``sys.exit()`` too, never Ctrl-C), is
reported once (distribution, error, how to uninstall it) and skipped, so a broken plugin
never takes the command line down with it. A name registered twice is unusable: only the
commands that use it fail, with an error that names both distributions and advises removing
the plugin (never the core); ``tautrait plugins`` warns about it. A
registered agent, user simulator or trait backend that is not a subclass of the core's base
class is refused (a warning, and a :class:`PluginError` naming the distribution when the
name is used); the other plugins' parts stay usable.

A part may be registered as a :class:`DeferredPart` (its name and where it lives): listing
commands then never import it, and it is loaded, checked and kept on first lookup.
"""

from __future__ import annotations

import os
import warnings
from importlib import metadata
from typing import Any

import pluggy

from tautrait_core import hookspecs
from tautrait_core.errors import PluginError, UnknownNameError
from tautrait_core.hookmarkers import PROJECT_NAME
from tautrait_core.registrations import (
    CORE_DISTRIBUTION,
    LOAD_PLUGINS_ENV,
    DeferredPart,
    LoadFailure,
    NameClash,
    PluginInfo,
    PluginLoadWarning,
    Provenance,
    failure_reason,
    nonconformity,
    option_clash,
    unknown_selection,
)

DEFAULT_PLUGINS = (
    "tautrait_core.builtin.agents",
    "tautrait_core.builtin.users",
    "tautrait_core.builtin.traits",
    "tautrait_core.builtin.retrievals",
)


# registry kind -> the hook that fills it; each registered part has a ``name`` attribute
REGISTRY_HOOKS = {
    "domain": "register_domains",
    "agent": "register_agents",
    "user": "register_user_simulators",
    "trait_backend": "register_trait_backends",
    "run_option": "register_run_options",
    "retrieval": "register_retrievals",
}

# What a plugin may raise and be skipped for: sys.exit() too, never Ctrl-C (KeyboardInterrupt)
PLUGIN_FAILURES = (Exception, SystemExit)


def _core_version() -> str:
    try:
        return metadata.version(CORE_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


class PluginManager:
    """Loads plugins once and keeps the registries they fill.

    Registries are filled lazily, one kind at a time, so listing commands and
    ``tautrait --help`` never import a domain's heavy modules.
    """

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(PROJECT_NAME)
        self.pm.add_hookspecs(hookspecs)
        self.provenance: dict[str, Provenance] = {}
        self.load_failures: list[LoadFailure] = []
        self._registries: dict[str, dict[str, tuple[Any, Provenance]]] = {}
        self._clashes: dict[str, dict[str, NameClash]] = {}
        self.refused: dict[tuple[str, str], PluginError] = {}
        """Parts a plugin registered that were refused, by (kind, name), with why."""
        self.left_out: list[str] = []
        """Installed entry points that ``TAUTRAIT_LOAD_PLUGINS`` did not name."""
        self._loaded = False

    # -- loading ---------------------------------------------------------------------

    def load(self) -> None:
        """Register built-ins and installed entry points (idempotent)."""
        if self._loaded:
            return
        self._loaded = True
        import importlib

        version = _core_version()
        for module_name in DEFAULT_PLUGINS:
            module = importlib.import_module(module_name)
            self.register(
                module,
                name=module_name,
                provenance=Provenance(module_name, CORE_DISTRIBUTION, version),
            )
        self._load_entry_points()
        self.pm.check_pending()

    def _load_entry_points(self) -> None:
        selected = os.environ.get(LOAD_PLUGINS_ENV)
        wanted = None if selected is None else {n.strip() for n in selected.split(",")} - {""}
        entry_points = metadata.entry_points(group=PROJECT_NAME)
        if wanted is not None:
            installed = sorted({entry_point.name for entry_point in entry_points})
            self.left_out = [name for name in installed if name not in wanted]
            if unknown := sorted(wanted - set(installed)):
                warnings.warn(unknown_selection(unknown, installed), PluginLoadWarning, 4)
        for entry_point in entry_points:
            if wanted is not None and entry_point.name not in wanted:
                continue
            if self.pm.get_plugin(entry_point.name) is not None:
                continue
            dist = entry_point.dist
            fields = dist.metadata if dist is not None else None  # parsed once: it is slow
            dist_name = fields["Name"] if fields is not None else "unknown-distribution"
            version = fields["Version"] if fields is not None else "?"
            try:
                module = entry_point.load()
            except PLUGIN_FAILURES as exc:  # a broken plugin must not break the CLI
                self._report(LoadFailure(entry_point.name, dist_name, version, failure_reason(exc)))
                continue
            self.register(
                module,
                name=entry_point.name,
                provenance=Provenance(entry_point.name, dist_name, version),
            )

    def left_out_note(self) -> str:
        """Which installed plugins ``TAUTRAIT_LOAD_PLUGINS`` left out ('' if none)."""
        if not self.left_out:
            return ""
        return (
            f"{LOAD_PLUGINS_ENV}={os.environ.get(LOAD_PLUGINS_ENV, '')!r} left out the "
            f"installed plugins {', '.join(self.left_out)}: add the one that supplies it to "
            f"{LOAD_PLUGINS_ENV}, or unset {LOAD_PLUGINS_ENV}"
        )

    def _report(self, failure: LoadFailure) -> None:
        """Warn about a failed plugin once (registries are refilled after each change)."""
        if failure in self.load_failures:
            return
        self.load_failures.append(failure)
        warnings.warn(failure.message(), PluginLoadWarning, stacklevel=3)

    def _hook_failed(self, plugin: str, hook: str, exc: BaseException) -> None:
        source = self.provenance.get(plugin) or Provenance(plugin, "?", "")
        self._report(
            LoadFailure(plugin, source.distribution, source.version, failure_reason(exc), hook)
        )

    def register(self, plugin: object, name: str, provenance: Provenance | None = None) -> None:
        """Register a plugin object (module or class with ``@hookimpl`` functions).

        Tests use this to add a plugin in-process; ``unregister`` removes it again.
        """
        self.pm.register(plugin, name=name)
        self.provenance[name] = provenance or Provenance(name, "(in-process)", "")
        self._forget_registries()

    def unregister(self, name: str) -> None:
        """Remove a plugin registered with :meth:`register`."""
        self.pm.unregister(name=name)
        self.provenance.pop(name, None)
        self._forget_registries()

    def _forget_registries(self) -> None:
        self._registries.clear()
        self._clashes.clear()
        self.refused.clear()

    # -- registries ------------------------------------------------------------------

    def _implementations(self, hook_name: str) -> list[tuple[str, Any]]:
        """Each plugin implementing ``hook_name`` (in registration order) with pluggy's hook
        caller for that plugin's implementation alone, to be called with keyword arguments:
        every call is attributed to its plugin, and one plugin's failure stops no other."""
        plugins = [impl.plugin for impl in getattr(self.pm.hook, hook_name).get_hookimpls()]
        return [
            (
                self.pm.get_name(plugin) or "?",
                self.pm.subset_hook_caller(hook_name, [p for p in plugins if p is not plugin]),
            )
            for plugin in reversed(plugins)
        ]

    def _fill(self, kind: str) -> dict[str, tuple[Any, Provenance]]:
        self.load()
        if kind in self._registries:
            return self._registries[kind]
        registry: dict[str, tuple[Any, Provenance]] = {}
        clashes: dict[str, NameClash] = {}
        # Call each implementation on its own so every part is attributed to its plugin.
        for plugin_name, call in self._implementations(REGISTRY_HOOKS[kind]):
            source = self.provenance.get(plugin_name) or Provenance(plugin_name, "?", "")
            added: list[str] = []

            def register(
                part: Any, _source: Provenance = source, _added: list[str] = added
            ) -> None:
                part_name = getattr(part, "name", None)
                if not isinstance(part_name, str) or not part_name:
                    raise PluginError(f"{_source.describe()} registered a {kind} without a name")
                problem = nonconformity(kind, part) or option_clash(kind, part, registry)
                if problem:
                    self.refuse(kind, part_name, _source, problem)
                    return
                if part_name in registry or part_name in clashes:
                    first = registry.pop(part_name, None)
                    first_source = first[1] if first else clashes[part_name].first
                    clashes[part_name] = NameClash(kind, part_name, first_source, _source)
                    return
                registry[part_name] = (part, _source)
                _added.append(part_name)

            try:
                call(register=register)
            except PLUGIN_FAILURES as exc:  # a broken plugin must not break the others
                for part_name in added:
                    registry.pop(part_name, None)
                self._hook_failed(plugin_name, REGISTRY_HOOKS[kind], exc)
        self._registries[kind] = registry
        self._clashes[kind] = clashes
        return registry

    def refuse(self, kind: str, name: str, source: Provenance, problem: str) -> None:
        """Refuse a registered part: warn, and raise a :class:`PluginError` when it is used."""
        registry = self._registries.get(kind, {})
        registry.pop(name, None)
        error = PluginError(
            f"{source.describe()} registered the {kind.replace('_', ' ')} {name!r}, which "
            f"{problem}; it was refused. Fix the plugin, or remove it with: "
            f"pip uninstall {source.distribution}"
        )
        self.refused[(kind, name)] = error
        warnings.warn(str(error), PluginLoadWarning, stacklevel=3)

    def names(self, kind: str) -> list[str]:
        """Sorted names registered for ``kind`` (domain, agent, user, trait_backend)."""
        return sorted(self._fill(kind))

    def get(self, kind: str, name: str, hint: str = "") -> Any:
        """The part registered under ``name``; :class:`PluginError` if two plugins register
        it, :class:`UnknownNameError` if none does."""
        registry = self._fill(kind)
        if (kind, name) in self.refused:
            raise self.refused[(kind, name)]
        if name in self._clashes[kind]:
            raise self._clashes[kind][name].error()
        if name not in registry:
            hint = ". ".join(filter(None, [self.left_out_note(), hint]))
            raise UnknownNameError(
                kind.replace("_", " "), name, list(registry), hint, "tautrait plugins"
            )
        part, source = registry[name]
        if isinstance(part, DeferredPart):
            part = self._load_deferred(kind, part, source, hint)
        return part

    def _load_deferred(
        self, kind: str, deferred: DeferredPart, source: Provenance, hint: str
    ) -> Any:
        """Load a part registered by name, checked as if its hook had registered it.

        A part that fails to load is reported like a hook that raised and becomes unknown,
        as it would have been had it been loaded when the registry was filled.
        """
        registry = self._registries[kind]
        try:
            part = deferred.load()
        except PLUGIN_FAILURES as exc:  # a broken plugin must not break the others
            registry.pop(deferred.name)
            self._hook_failed(source.plugin, REGISTRY_HOOKS[kind], exc)
            raise UnknownNameError(
                kind.replace("_", " "), deferred.name, list(registry), hint, "tautrait plugins"
            ) from exc
        if getattr(part, "name", None) != deferred.name:
            problem = f"is named {getattr(part, 'name', None)!r} once loaded"
        else:
            problem = nonconformity(kind, part)
        if problem:
            self.refuse(kind, deferred.name, source, problem)
            raise self.refused[(kind, deferred.name)]
        registry[deferred.name] = (part, source)
        return part

    def source(self, kind: str, name: str) -> Provenance:
        """Which distribution registered ``name``."""
        self.get(kind, name)
        return self._registries[kind][name][1]

    def run_options(self) -> dict[str, Any]:
        """Every :class:`~tautrait_core.config.RunOption` plugins declare, by name and alias."""
        return {
            key: option
            for option, _source in self._fill("run_option").values()
            for key in option.names
        }

    def add_commands(self, cli: Any) -> None:
        """Let plugins add commands to the root click group."""
        self.load()
        for plugin_name, call in self._implementations("register_commands"):
            try:
                call(cli=cli)
            except PLUGIN_FAILURES as exc:  # a broken plugin must not break the others
                self._hook_failed(plugin_name, "register_commands", exc)

    def plugin_infos(self) -> list[PluginInfo]:
        """Every loaded plugin with its distribution and the names it registered.

        A name two plugins register is listed under both, with a warning naming them.
        """
        self.load()
        infos: dict[str, PluginInfo] = {}
        for name, _plugin in self.pm.list_name_plugin():
            source = self.provenance.get(name) or Provenance(name, "?", "")
            infos[name] = PluginInfo(
                name=name,
                distribution=source.distribution,
                version=source.version,
                builtin=name in DEFAULT_PLUGINS,
            )
        for kind in REGISTRY_HOOKS:
            parts = [(name, source) for name, (_part, source) in self._fill(kind).items()]
            for clash in self._clashes[kind].values():
                warnings.warn(str(clash.error()), PluginLoadWarning, stacklevel=2)
                parts += [(clash.name, clash.first), (clash.name, clash.second)]
            for part_name, source in dict.fromkeys(parts):  # a plugin may clash with itself
                plugin = infos.get(source.plugin)
                if plugin is not None:
                    plugin.registers.setdefault(kind, []).append(part_name)
        for plugin_name, commands in self._commands_by_plugin().items():
            if plugin_name in infos:
                infos[plugin_name].registers["commands"] = commands
        return sorted(infos.values(), key=lambda info: (not info.builtin, info.name))

    def _commands_by_plugin(self) -> dict[str, list[str]]:
        """The command names each plugin adds, learnt on a throwaway click group."""
        import click

        found: dict[str, list[str]] = {}
        for plugin_name, call in self._implementations("register_commands"):
            group = click.Group()
            try:
                call(cli=group)
            except PLUGIN_FAILURES as exc:  # listing plugins must survive a broken one
                found[plugin_name] = [f"(failed: {failure_reason(exc)})"]
            else:
                found[plugin_name] = sorted(group.commands)
        return found

    def run_plugin_set(self) -> dict[str, str]:
        """``{distribution: version}`` of every loaded plugin, recorded with each run."""
        self.load()
        return {
            source.distribution: source.version
            for source in self.provenance.values()
            if source.distribution
        }


_manager: PluginManager | None = None


def get_plugin_manager() -> PluginManager:
    """The process-wide plugin manager (created on first use)."""
    global _manager
    if _manager is None:
        _manager = PluginManager()
    return _manager


def reset_plugin_manager() -> None:
    """Forget the process-wide manager (tests use this after changing the environment)."""
    global _manager
    _manager = None


def lookup(kind: str, name: str, hint: str = "") -> Any:
    """Shortcut for ``get_plugin_manager().get(kind, name)``."""
    return get_plugin_manager().get(kind, name, hint)
