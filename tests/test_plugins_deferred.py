"""Parts registered by name (DeferredPart): listed without importing, checked when loaded."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tautrait_core import DeferredPart, PluginError, UnknownNameError, domain_hook, hookimpl
from tautrait_core.plugins import (
    REGISTRY_HOOKS,
    PluginManager,
    get_plugin_manager,
    reset_plugin_manager,
)
from tautrait_core.registrations import PluginLoadWarning

PARTS_MODULE = """
from tautrait_core import Agent

class Parrot(Agent):
    name = "parrot"
    needs_model = False

class Misnamed(Agent):
    name = "something-else"

class NotAnAgent:
    name = "impostor"
"""


@pytest.fixture
def parts_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A module of agent classes on sys.path, forgotten again afterwards."""
    (tmp_path / "deferred_parts_for_test.py").write_text(PARTS_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "deferred_parts_for_test"
    sys.modules.pop("deferred_parts_for_test", None)


class DeferredAgents:
    @staticmethod
    @hookimpl
    def register_agents(register):  # type: ignore[no-untyped-def]
        register(DeferredPart("parrot", "deferred_parts_for_test:Parrot"))
        register(DeferredPart("misnamed", "deferred_parts_for_test:Misnamed"))
        register(DeferredPart("impostor", "deferred_parts_for_test:NotAnAgent"))
        register(DeferredPart("ghost", "no_such_module_anywhere:Ghost"))


@pytest.fixture
def manager(parts_module: str) -> Iterator[PluginManager]:
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(DeferredAgents, name="deferred-test")
    try:
        yield manager
    finally:
        manager.unregister("deferred-test")
        reset_plugin_manager()


def test_deferred_parts_are_listed_without_importing_them(manager: PluginManager) -> None:
    names = manager.names("agent")
    assert {"parrot", "misnamed", "impostor", "ghost"} <= set(names)
    assert "deferred_parts_for_test" not in sys.modules
    info = next(i for i in manager.plugin_infos() if i.name == "deferred-test")
    assert info.registers["agent"] == ["parrot", "misnamed", "impostor", "ghost"]
    assert "deferred_parts_for_test" not in sys.modules


def test_a_deferred_part_is_loaded_on_lookup_and_kept(manager: PluginManager) -> None:
    parrot = manager.get("agent", "parrot")
    assert parrot.__name__ == "Parrot" and parrot.name == "parrot"
    assert manager.get("agent", "parrot") is parrot
    assert manager.source("agent", "parrot").plugin == "deferred-test"


def test_a_deferred_part_is_checked_like_an_eager_one(manager: PluginManager) -> None:
    with pytest.warns(PluginLoadWarning), pytest.raises(PluginError, match="not a subclass"):
        manager.get("agent", "impostor")
    with pytest.warns(PluginLoadWarning), pytest.raises(PluginError) as misnamed:
        manager.get("agent", "misnamed")
    assert "'something-else' once loaded" in str(misnamed.value)
    assert "impostor" not in manager.names("agent")
    assert manager.get("agent", "parrot").name == "parrot"  # the others stay usable


def test_a_deferred_part_that_fails_to_load_is_reported_and_becomes_unknown(
    manager: PluginManager,
) -> None:
    with (
        pytest.warns(PluginLoadWarning) as caught,
        pytest.raises(UnknownNameError, match="unknown agent 'ghost'"),
    ):
        manager.get("agent", "ghost")
    message = str(caught[0].message)
    assert "register_agents" in message and "ModuleNotFoundError" in message
    assert "ghost" not in manager.names("agent")


def test_a_target_that_is_not_module_colon_attribute_is_refused() -> None:
    with pytest.raises(ValueError, match="'module:attribute'"):
        DeferredPart("parrot", "deferred_parts_for_test.Parrot")


def test_domain_hook_with_a_name_registers_the_domain_unbuilt() -> None:
    registered: list[object] = []
    domain_hook("tautrait_retail.domain:build_domain", name="retail")(register=registered.append)
    assert registered == [DeferredPart("retail", "tautrait_retail.domain:build_domain", True)]


def test_every_installed_deferred_part_loads_under_its_registered_name() -> None:
    """The names the built-ins and bundled plugins register match what they load."""
    reset_plugin_manager()
    manager = get_plugin_manager()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PluginLoadWarning)
            for kind in REGISTRY_HOOKS:
                for name in manager.names(kind):
                    assert manager.get(kind, name).name == name
    finally:
        reset_plugin_manager()
