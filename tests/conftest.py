"""Shared fixtures: an isolated data directory and the toy library domain plugin."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from tautrait_core import hookimpl
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own TAUTRAIT_HOME and sees only the built-in plugins.

    Installed domain and user plugins stay out of the core's tests, so their results do
    not depend on which plugins the environment happens to have.
    """
    home = tmp_path / "tautrait-home"
    monkeypatch.setenv("TAUTRAIT_HOME", str(home))
    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", "")
    reset_plugin_manager()
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return home


@pytest.fixture
def toy_plugin() -> Iterator[object]:
    """The toy library domain registered in-process (removed afterwards)."""
    from tests.plugins import toy_library

    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(toy_library, name="toy_library")
    try:
        yield toy_library
    finally:
        manager.unregister("toy_library")
        reset_plugin_manager()


@pytest.fixture
def knowledge_plugin(toy_plugin: object) -> Iterator[object]:
    """The toy library (``toylib``, no documents) and its twin with documents (``toyknow``)."""
    from tests.plugins import toy_knowledge

    manager = get_plugin_manager()
    manager.register(toy_knowledge, name="toy_knowledge")
    try:
        yield toy_knowledge
    finally:
        manager.unregister("toy_knowledge")
        reset_plugin_manager()


class UpstreamToy:
    """The toy domain as ``toyup``, with an upstream data format (never read here)."""

    @staticmethod
    @hookimpl
    def register_domains(register):  # type: ignore[no-untyped-def]
        from tests.plugins.toy_library import build_domain

        register(dataclasses.replace(build_domain(), name="toyup", upstream=object()))


@pytest.fixture
def upstream_domain(toy_plugin: object) -> Iterator[None]:
    """The toy library, and its twin ``toyup`` with an upstream data format."""
    manager = get_plugin_manager()
    manager.register(UpstreamToy, name="upstream-toy")
    try:
        yield
    finally:
        manager.unregister("upstream-toy")
