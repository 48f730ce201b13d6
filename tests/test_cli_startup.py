"""What starting the command line imports, with every installed plugin loaded.

Start-up time is measured by ``bench/startup.py``; these tests hold what keeps it short:
listing commands and help never import the model client, the database layer, the
template engine or a domain, a command imports only its own module, and a run whose
models are on OpenAI-compatible servers never imports litellm. Each start sees the tests'
own plugin (``tests/plugins/toy_parts.py``: a domain, a run option, a command) beside
whatever plugins are installed, so the tests need none of the bundled ones.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from tautrait_core.cli import cli
from tautrait_core.cli.root import COMMAND_MODULES
from tautrait_core.scripted.server import ScriptedModelServer
from tautrait_core.types.messages import STOP_TOKEN
from tests.distributions import make_distribution, tautrait_env

HEAVY = ("litellm", "sqlalchemy", "sqlmodel", "pydantic", "jinja2", "torch", "httpx")
"""Modules that no listing command or help needs."""

BUNDLED_DOMAINS = {
    "airline": ["airline"],
    "retail": ["retail"],
    "telecom": ["telecom", "tau2-telecom", "tau2-telecom-workflow"],
    "telehealth": ["telehealth"],
    "tau2-airline": ["tau2-airline"],
    "tau2-retail": ["tau2-retail"],
    "tau2-mock": ["tau2-mock"],
}
"""What each entry point of the bundled domain plugins registers."""
BUNDLED = {
    "tautrait-airline",
    "tautrait-mock",
    "tautrait-retail",
    "tautrait-steer-user",
    "tautrait-telecom",
    "tautrait-telehealth",
}
INSTALLED = {distribution.metadata["Name"] for distribution in metadata.distributions()}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site folder where the tests' own plugin is installed (entry point ``toyparts``)."""
    path = tmp_path_factory.mktemp("site")
    make_distribution(path, "tautrait-toyparts", "toyparts", None, target="tests.plugins.toy_parts")
    return path


def imported_by(site: Path, *arguments: str) -> tuple[set[str], str]:
    """The modules a ``tautrait`` process that sees ``site`` had imported when it exited,
    and its stdout."""
    probe = (
        "import json, sys\n"
        "from tautrait_core.cli import main\n"
        f"try:\n    main({list(arguments)!r})\n"
        "except SystemExit:\n    pass\n"
        "print('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=tautrait_env(site)
    )
    output, _, modules = done.stdout.rpartition("\nMODULES ")
    assert modules, done.stdout + done.stderr
    return set(json.loads(modules)), output


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(name for name in names if name in modules)


def test_help_imports_nothing_heavy_and_lists_every_command(site: Path) -> None:
    modules, output = imported_by(site, "--help")
    assert loaded(modules, (*HEAVY, "rich")) == []
    for command in [*COMMAND_MODULES, "toy-hello"]:
        assert f"\n  {command} " in output, command


def test_plugins_lists_every_domain_without_building_one(site: Path) -> None:
    modules, output = imported_by(site, "plugins", "--json")
    assert loaded(modules, HEAVY) == []
    listing = {plugin["name"]: plugin["registers"] for plugin in json.loads(output)}
    assert listing["toyparts"]["domain"] == ["toylib"]
    built = {name for name in modules if name.endswith(".domain")} - {"tautrait_core.domain"}
    assert built == set()
    assert "tests.plugins.toy_library" not in modules
    assert "oracle" in listing["tautrait_core.builtin.agents"]["agent"]


@pytest.mark.skipif(
    not BUNDLED <= INSTALLED,
    reason=f"about the bundled plugins; not installed: {sorted(BUNDLED - INSTALLED)}",
)
def test_the_bundled_plugins_register_their_parts_without_loading_them(site: Path) -> None:
    modules, output = imported_by(site, "plugins", "--json")
    listing = {plugin["name"]: plugin["registers"] for plugin in json.loads(output)}
    for plugin, domains in BUNDLED_DOMAINS.items():
        assert listing[plugin] == {"domain": domains}
    assert listing["steer"]["trait_backend"] == ["steer"]
    assert "tautrait_steer_user.backend" not in modules
    _, output = imported_by(site, "--help")
    assert "\n  steer " in output
    _, output = imported_by(site, "run", "--help")
    assert "--steer-endpoint" in output


def test_a_command_imports_only_its_own_module(site: Path) -> None:
    modules, output = imported_by(site, "run", "--help")
    assert "--loan-desk" in output  # plugin options are still there
    assert loaded(modules, HEAVY) == []
    command_modules = {module for module in COMMAND_MODULES.values() if module in modules}
    assert command_modules == {"tautrait_core.cli.run"}


def test_every_core_command_is_in_the_table_of_command_modules() -> None:
    for module in set(COMMAND_MODULES.values()):
        importlib.import_module(module)
    core = {
        name: command.callback.__module__
        for name, command in cli.commands.items()
        if command.callback is not None and command.callback.__module__.startswith("tautrait_core")
    }
    assert core == COMMAND_MODULES


def test_a_command_is_found_before_its_module_is_imported() -> None:
    assert cli.commands["run"].name == "run"
    assert "run" in cli.list_commands(None)  # type: ignore[arg-type]


def test_a_plugin_command_keeps_its_name_when_a_core_module_loads_later() -> None:
    """A plugin's command named like a core command wins even when another command later
    imports that core command's module (``sweep`` imports ``run``'s)."""
    probe = (
        "import click\n"
        "from tautrait_core.cli import cli\n"
        "@click.command('run')\n"
        "def plugin_run():\n    'From a plugin.'\n"
        "cli.add_command(plugin_run)\n"
        "import tautrait_core.cli.sweep\n"
        "print(cli.commands['run'].help, cli.commands['sweep'].name)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.split() == ["From", "a", "plugin.", "sweep"], done.stderr


def test_a_model_backed_run_on_the_direct_path_never_imports_litellm(
    site: Path, tmp_path: Path
) -> None:
    def customer_and_agent(request: dict) -> str:
        if request.get("tools"):  # the agent
            return "Happy to help."
        said = any(message["role"] == "assistant" for message in request["messages"])
        return STOP_TOKEN if said else "Hi, I need help."

    with ScriptedModelServer(customer_and_agent) as server:
        modules, output = imported_by(
            site,
            *("run", "--domain", "toylib", "--task-ids", "0", "--json"),
            *("--agent", "tool-calling", "--agent-model", "openai/scripted"),
            *("--agent-api-base", server.base_url),
            *("--user", "llm", "--user-model", "openai/scripted"),
            *("--user-api-base", server.base_url),
            *("--results-db", str(tmp_path / "results.db")),
        )
        requests = len(server.requests)
    assert requests >= 3, output  # user, agent, user: the run called the models
    summary = json.loads(output)["metrics"]
    assert (summary["episodes"], summary["errors"]) == (1, 0), output
    assert "litellm" not in modules
