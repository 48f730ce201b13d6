"""Plugins that exit while loading, plugin selections that name nothing, names registered
twice: each is reported with the plugin's name and the fix, and the rest keeps working."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tautrait_core import Agent, DeferredPart, TraitBackend, UserSimulator
from tautrait_core.errors import UnknownNameError
from tautrait_core.hookmarkers import hookimpl
from tautrait_core.plugins import PluginManager, get_plugin_manager, reset_plugin_manager
from tautrait_core.registrations import PluginInfo, PluginLoadWarning
from tests.distributions import make_distribution, run_tautrait, toy_site

EXITING_ON_IMPORT = "import sys\nsys.exit('no licence key found')\n"

TWIN_AGENT_PLUGIN = """
from tautrait_core import Agent, hookimpl

class Twin(Agent):
    name = "oracle"

@hookimpl
def register_agents(register):
    register(Twin)
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return toy_site(tmp_path / "site")


@pytest.fixture
def manager() -> Iterator[PluginManager]:
    """A fresh plugin manager with only the built-ins (forgotten afterwards)."""
    reset_plugin_manager()
    try:
        yield get_plugin_manager()
    finally:
        reset_plugin_manager()


def plugin_warnings(call: object) -> list[str]:
    """The plugin warnings that ``call()`` issues, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()  # type: ignore[operator]
    return [str(w.message) for w in caught if issubclass(w.category, PluginLoadWarning)]


# -- a plugin that calls sys.exit() ---------------------------------------------------------


def test_a_plugin_exiting_on_import_is_reported_and_the_commands_keep_working(
    site: Path,
) -> None:
    make_distribution(site, "tautrait-quitter", "tautrait_quitter", EXITING_ON_IMPORT, "0.4.0")
    listing = run_tautrait(site, "plugins", "--json")
    assert listing.returncode == 0, listing.stderr
    warning = next(line for line in listing.stderr.splitlines() if "tautrait-quitter" in line)
    assert warning.startswith("Warning: plugin 'tautrait_quitter'")
    assert "tautrait-quitter 0.4.0 failed to import" in warning
    assert "sys.exit('no licence key found')" in warning
    assert "pip uninstall tautrait-quitter" in warning
    names = [plugin["name"] for plugin in json.loads(listing.stdout)]
    assert "toylib" in names and "tautrait_quitter" not in names
    tasks = run_tautrait(site, "tasks", "--domain", "toylib", "--json")
    assert tasks.returncode == 0, tasks.stderr
    assert "pip uninstall tautrait-quitter" in tasks.stderr


class ExitingHooks:
    @staticmethod
    @hookimpl
    def register_agents(register):  # type: ignore[no-untyped-def]
        raise SystemExit(3)

    @staticmethod
    @hookimpl
    def register_commands(cli):  # type: ignore[no-untyped-def]
        raise SystemExit


def test_a_hook_calling_sys_exit_is_reported_and_the_other_plugins_stay(
    manager: PluginManager,
) -> None:
    manager.register(ExitingHooks, name="exiting")
    reported = plugin_warnings(lambda: manager.names("agent"))
    assert len(reported) == 1
    assert "'exiting'" in reported[0] and "register_agents hook" in reported[0]
    assert "sys.exit(3)" in reported[0]
    assert "oracle" in manager.names("agent")
    import click

    reported = plugin_warnings(lambda: manager.add_commands(click.Group()))
    assert "register_commands hook" in reported[0] and "sys.exit(None)" in reported[0]
    infos = {info.name: info for info in manager.plugin_infos()}
    assert infos["exiting"].registers["commands"][0].startswith("(failed: SystemExit")


class InterruptedHook:
    @staticmethod
    @hookimpl
    def register_agents(register):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt


def test_ctrl_c_while_a_plugin_loads_is_not_swallowed(manager: PluginManager) -> None:
    manager.register(InterruptedHook, name="interrupted")
    with pytest.raises(KeyboardInterrupt):
        manager.names("agent")


# -- TAUTRAIT_LOAD_PLUGINS ------------------------------------------------------------------


def test_a_selected_name_that_no_plugin_has_is_reported(site: Path) -> None:
    result = run_tautrait(site, "tasks", "--domain", "toylib", TAUTRAIT_LOAD_PLUGINS="nope")
    assert result.returncode != 0
    warning = next(line for line in result.stderr.splitlines() if "'nope'" in line)
    assert warning.startswith("Warning: TAUTRAIT_LOAD_PLUGINS names 'nope'")
    assert "toylib" in warning.split("installed:", 1)[1]
    error = next(line for line in result.stderr.splitlines() if line.startswith("Error:"))
    assert "unknown domain 'toylib'" in error
    assert "TAUTRAIT_LOAD_PLUGINS='nope' left out the installed plugins" in error
    assert "toylib" in error.split("left out", 1)[1]


def test_a_selection_of_installed_plugins_warns_about_nothing(site: Path) -> None:
    result = run_tautrait(site, "tasks", "--domain", "toylib", TAUTRAIT_LOAD_PLUGINS="toylib")
    assert result.returncode == 0, result.stderr
    assert "TAUTRAIT_LOAD_PLUGINS" not in result.stderr


def test_the_left_out_note_comes_before_the_callers_hint(manager: PluginManager) -> None:
    manager.load()
    manager.left_out = ["toylib"]
    with pytest.raises(UnknownNameError) as caught:
        manager.get("domain", "toylib", "Install a domain plugin")
    message = str(caught.value)
    assert message.index("left out the installed plugins toylib") < message.index("Install")


# -- names registered twice ------------------------------------------------------------------


def test_tautrait_plugins_shows_an_agent_clash_under_both_plugins(site: Path) -> None:
    make_distribution(site, "tautrait-twin", "tautrait_twin", TWIN_AGENT_PLUGIN)
    result = run_tautrait(site, "plugins", "--json")
    assert result.returncode == 0, result.stderr
    warning = next(line for line in result.stderr.splitlines() if "registered twice" in line)
    assert warning.startswith("Warning: agent 'oracle' is registered twice")
    assert "tautrait-twin 1.2.0" in warning and "tautrait-core" in warning
    assert "pip uninstall tautrait-twin" in warning
    listing = {plugin["name"]: plugin for plugin in json.loads(result.stdout)}
    assert "oracle" in listing["tautrait_core.builtin.agents"]["registers"]["agent"]
    assert listing["tautrait_twin"]["registers"]["agent"] == ["oracle"]
    table = run_tautrait(site, "plugins", COLUMNS="80")
    assert "Warning: agent 'oracle' is registered twice" in table.stderr


class TwinParts:
    """Reuses a built-in name of each kind, and the toy library's domain name."""

    @staticmethod
    @hookimpl
    def register_agents(register):  # type: ignore[no-untyped-def]
        register(type("TwinAgent", (Agent,), {"name": "oracle"}))

    @staticmethod
    @hookimpl
    def register_user_simulators(register):  # type: ignore[no-untyped-def]
        register(type("TwinUser", (UserSimulator,), {"name": "llm"}))

    @staticmethod
    @hookimpl
    def register_trait_backends(register):  # type: ignore[no-untyped-def]
        register(type("TwinBackend", (TraitBackend,), {"name": "prompt"}))

    @staticmethod
    @hookimpl
    def register_domains(register):  # type: ignore[no-untyped-def]
        register(DeferredPart("toylib", "tests.plugins.toy_library:build_domain", build=True))


def test_every_kind_of_clash_is_warned_about_when_plugins_are_listed(toy_plugin) -> None:
    manager = get_plugin_manager()
    manager.register(TwinParts, name="twins")
    infos: dict[str, PluginInfo] = {}
    try:
        reported = plugin_warnings(
            lambda: infos.update((info.name, info) for info in manager.plugin_infos())
        )
    finally:
        manager.unregister("twins")
    for kind, name in [
        ("agent", "oracle"),
        ("user", "llm"),
        ("trait_backend", "prompt"),
        ("domain", "toylib"),
    ]:
        clash = f"{kind} {name!r} is registered twice"
        assert any(clash in line and "'twins'" in line for line in reported), (clash, reported)
        assert name in infos["twins"].registers[kind]
    assert "toylib" in infos["toy_library"].registers["domain"]
    assert "llm" in infos["tautrait_core.builtin.users"].registers["user"]
