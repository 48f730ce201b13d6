"""Plugin discovery through entry points, failures, duplicates and selection."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tautrait_core import Agent
from tautrait_core.errors import PluginError, UnknownNameError
from tautrait_core.hookspecs import hookimpl
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tests.distributions import make_distribution, run_tautrait

AGENT_PLUGIN = """
from tautrait_core import Agent, hookimpl

class EchoAgent(Agent):
    name = "{agent}"
    needs_model = False

@hookimpl
def register_agents(register):
    register(EchoAgent)

@hookimpl
def register_commands(cli):
    import click

    @cli.command(name="{command}")
    def hello():
        "Say hello."
        click.echo("hello from {dist}")
"""


def tautrait(site: Path, *arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    return run_tautrait(site, *arguments, **environment)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    path = tmp_path / "site"
    path.mkdir()
    return path


def plugin_named(listing: list[dict], name: str) -> dict:
    return next(p for p in listing if p["name"] == name)


def test_installed_entry_point_is_discovered_with_its_distribution(site: Path) -> None:
    make_distribution(
        site,
        "tautrait-echo",
        "tautrait_echo",
        AGENT_PLUGIN.format(agent="echo", command="hello", dist="echo"),
    )
    result = tautrait(site, "plugins", "--json")
    assert result.returncode == 0, result.stderr
    echo = plugin_named(json.loads(result.stdout), "tautrait_echo")
    assert echo["distribution"] == "tautrait-echo" and echo["version"] == "1.2.0"
    assert echo["registers"]["agent"] == ["echo"]
    assert echo["registers"]["commands"] == ["hello"]
    assert tautrait(site, "hello").stdout.strip() == "hello from echo"


def test_plugin_that_fails_to_import_is_reported_and_skipped(site: Path) -> None:
    make_distribution(
        site, "tautrait-broken", "tautrait_broken", "import does_not_exist_anywhere\n", "0.3.0"
    )
    result = tautrait(site, "plugins", "--json")
    assert result.returncode == 0
    assert "tautrait-broken 0.3.0" in result.stderr
    assert "ModuleNotFoundError" in result.stderr
    assert "pip uninstall tautrait-broken" in result.stderr
    names = [p["name"] for p in json.loads(result.stdout)]
    assert "tautrait_broken" not in names and "tautrait_core.builtin.agents" in names


def test_duplicate_names_are_a_startup_error_naming_both_distributions(site: Path) -> None:
    make_distribution(
        site,
        "tautrait-one",
        "tautrait_one",
        AGENT_PLUGIN.format(agent="same", command="one", dist="one"),
    )
    make_distribution(
        site,
        "tautrait-two",
        "tautrait_two",
        AGENT_PLUGIN.format(agent="same", command="two", dist="two"),
    )
    result = tautrait(site, "plugins")
    assert result.returncode != 0
    assert "agent 'same' is registered twice" in result.stderr
    assert "tautrait-one 1.2.0" in result.stderr and "tautrait-two 1.2.0" in result.stderr


def test_load_plugins_variable_selects_entry_points(site: Path) -> None:
    make_distribution(
        site,
        "tautrait-one",
        "tautrait_one",
        AGENT_PLUGIN.format(agent="same", command="one", dist="one"),
    )
    make_distribution(
        site,
        "tautrait-two",
        "tautrait_two",
        AGENT_PLUGIN.format(agent="same", command="two", dist="two"),
    )
    result = tautrait(site, "plugins", "--json", TAUTRAIT_LOAD_PLUGINS="tautrait_two")
    assert result.returncode == 0, result.stderr
    names = [p["name"] for p in json.loads(result.stdout)]
    assert "tautrait_two" in names and "tautrait_one" not in names
    none = tautrait(site, "plugins", "--json", TAUTRAIT_LOAD_PLUGINS="")
    assert all(p["builtin"] for p in json.loads(none.stdout))


def test_help_does_not_import_heavy_modules(site: Path) -> None:
    probe = (
        "import sys; from tautrait_core.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('litellm', 'sqlalchemy', 'sqlmodel', 'pydantic')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert "HEAVY []" in result.stdout, result.stdout + result.stderr


class InProcessPlugin:
    @staticmethod
    @hookimpl
    def register_agents(register):  # type: ignore[no-untyped-def]
        class Twin(Agent):
            name = "oracle"

        register(Twin)


def test_in_process_duplicate_with_a_builtin_is_rejected() -> None:
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(InProcessPlugin, name="twin")
    try:
        with pytest.raises(
            PluginError, match="agent 'oracle' is registered twice: by tautrait-core"
        ):
            manager.names("agent")
    finally:
        manager.unregister("twin")
        reset_plugin_manager()


def test_unknown_names_list_what_is_available() -> None:
    reset_plugin_manager()
    with pytest.raises(
        UnknownNameError,
        match=r"unknown agent 'nope' \(available: act, few-shot, human, oracle, react, "
        r"tool-calling",
    ):
        get_plugin_manager().get("agent", "nope")
