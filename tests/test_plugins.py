"""Plugin discovery through entry points, failures, duplicates and selection."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tautrait_core import Agent
from tautrait_core.errors import PluginError, UnknownNameError
from tautrait_core.hookmarkers import hookimpl
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tests.distributions import make_distribution, run_tautrait, toy_site

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


def test_duplicate_names_fail_only_the_commands_that_use_them(site: Path) -> None:
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
    toy_site(site)
    listing = tautrait(site, "plugins")
    assert listing.returncode == 0, listing.stderr
    assert tautrait(site, "one").stdout.strip() == "hello from one"
    result = tautrait(site, "run", "--domain", "toylib", "--agent", "same", "--user", "scripted")
    assert result.returncode != 0
    assert "agent 'same' is registered twice" in result.stderr
    assert "tautrait-one 1.2.0" in result.stderr and "tautrait-two 1.2.0" in result.stderr


CLASHING_USER_PLUGIN = """
from tautrait_core import UserSimulator, hookimpl

class Impostor(UserSimulator):
    name = "llm"

    async def start(self):
        return "hello"

    async def reply(self, agent_message):
        return "###STOP###"

@hookimpl
def register_user_simulators(register):
    register(Impostor)
"""


def test_plugin_reusing_a_core_name_breaks_only_that_name_and_names_the_plugin(
    site: Path,
) -> None:
    toy_site(site)
    make_distribution(site, "tautrait-impostor", "tautrait_impostor", CLASHING_USER_PLUGIN)
    listing = tautrait(site, "plugins", "--json")
    assert listing.returncode == 0, listing.stderr
    tasks = tautrait(site, "tasks", "--domain", "toylib", "--json")
    assert tasks.returncode == 0, tasks.stderr
    result = tautrait(site, "run", "--domain", "toylib", "--agent", "oracle", "--user", "llm")
    assert result.returncode != 0
    assert "user 'llm' is registered twice" in result.stderr
    assert "pip uninstall tautrait-impostor" in result.stderr
    assert "pip uninstall tautrait-core" not in result.stderr
    assert "Traceback" not in result.stderr


BROKEN_HOOK_PLUGIN = """
from tautrait_core import hookimpl

@hookimpl
def register_domains(register):
    from tautrait_broken_domain import build  # the module has a syntax error
    register(build())

@hookimpl
def register_agents(register):
    raise RuntimeError("agents exploded")
"""


def test_plugin_whose_hook_raises_is_reported_once_and_others_keep_working(
    site: Path,
) -> None:
    toy_site(site)
    (site / "tautrait_broken_domain.py").write_text("def build(:\n    pass\n")
    make_distribution(site, "tautrait-brokenhook", "tautrait_brokenhook", BROKEN_HOOK_PLUGIN)
    make_distribution(
        site,
        "tautrait-echo",
        "tautrait_echo",
        AGENT_PLUGIN.format(agent="echo", command="hello", dist="echo"),
    )
    result = tautrait(site, "plugins", "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if "tautrait-brokenhook" in line]
    assert len(warnings) == 2, result.stderr  # one per failing hook, each reported once
    domain_warning = next(line for line in warnings if "register_domains" in line)
    assert "SyntaxError" in domain_warning and "tautrait_broken_domain.py" in domain_warning
    assert "pip uninstall tautrait-brokenhook" in domain_warning
    assert "RuntimeError: agents exploded" in result.stderr
    listing = json.loads(result.stdout)
    assert plugin_named(listing, "tautrait_echo")["registers"]["agent"] == ["echo"]
    assert plugin_named(listing, "toylib")["registers"]["domain"] == ["toylib"]
    assert tautrait(site, "hello").stdout.strip() == "hello from echo"


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


def test_in_process_duplicate_with_a_builtin_is_rejected_where_used() -> None:
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(InProcessPlugin, name="twin")
    try:
        assert "tool-calling" in manager.names("agent")
        manager.get("agent", "tool-calling")
        with pytest.raises(
            PluginError, match="agent 'oracle' is registered twice: by tautrait-core"
        ) as error:
            manager.get("agent", "oracle")
        assert "pip uninstall tautrait-core" not in str(error.value)
    finally:
        manager.unregister("twin")
        reset_plugin_manager()


def test_unknown_names_list_what_is_available() -> None:
    reset_plugin_manager()
    with pytest.raises(
        UnknownNameError,
        match=r"unknown agent 'zzz' \(available: a2a, act, few-shot, human, noop, oracle, "
        r"oracle-plan, react, solo, tool-calling",
    ):
        get_plugin_manager().get("agent", "zzz")
    # a close name: that one, and where they are listed, not the whole list
    with pytest.raises(UnknownNameError) as typo:
        get_plugin_manager().get("agent", "nope")
    assert str(typo.value) == "unknown agent 'nope'; did you mean 'noop'? (see: tautrait plugins)"
