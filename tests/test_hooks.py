"""Every hook spec is documented with its exact signature and exercised by a test here."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path

import click
from click.testing import CliRunner, Result

from tautrait_core import (
    Agent,
    Retrieval,
    RunOption,
    TraitBackend,
    UserSimulator,
    hookimpl,
    hookspecs,
)
from tautrait_core.cli import cli
from tautrait_core.errors import ConfigError
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

DOCS = Path(__file__).resolve().parents[1] / "docs" / "hooks.md"


def hook_names() -> list[str]:
    return [name for name, value in vars(hookspecs).items() if hasattr(value, "tautrait_spec")]


def registered(plugin: object, kind: str) -> list[str]:
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(plugin, name="hook-test")
    try:
        return manager.names(kind)
    finally:
        manager.unregister("hook-test")
        reset_plugin_manager()


def test_every_hook_is_documented_and_tested() -> None:
    text = DOCS.read_text()
    tests = {name for name in globals() if name.startswith("test_hook_")}
    assert hook_names(), "no hook specs found"
    for name in hook_names():
        assert f"### {name}" in text, f"{name} is not documented in docs/hooks.md"
        signature = str(inspect.signature(getattr(hookspecs, name))).replace("'", "")
        documented = re.search(rf"def {name}(\(.*?\)) -> None", text)
        assert documented, f"docs/hooks.md lacks the signature of {name}"
        assert documented.group(1) == signature.split(" -> ")[0], (
            f"{name}: {documented.group(1)} != {signature}"
        )
        assert f"test_hook_{name}" in tests, f"{name} has no test_hook_{name}"


def test_hook_register_domains(toy_plugin) -> None:
    assert "toylib" in get_plugin_manager().names("domain")


def test_hook_register_agents() -> None:
    class Plugin:
        @staticmethod
        @hookimpl
        def register_agents(register):  # type: ignore[no-untyped-def]
            register(type("Parrot", (Agent,), {"name": "parrot"}))

    assert "parrot" in registered(Plugin, "agent")


def test_hook_register_user_simulators() -> None:
    class Plugin:
        @staticmethod
        @hookimpl
        def register_user_simulators(register):  # type: ignore[no-untyped-def]
            register(type("Mime", (UserSimulator,), {"name": "mime"}))

    assert "mime" in registered(Plugin, "user")


def test_hook_register_trait_backends() -> None:
    class Plugin:
        @staticmethod
        @hookimpl
        def register_trait_backends(register):  # type: ignore[no-untyped-def]
            register(type("Whisper", (TraitBackend,), {"name": "whisper"}))

    assert registered(Plugin, "trait_backend") == ["prompt", "whisper"]


def test_hook_register_retrievals() -> None:
    class Plugin:
        @staticmethod
        @hookimpl
        def register_retrievals(register):  # type: ignore[no-untyped-def]
            register(type("Oracle", (Retrieval,), {"name": "oracle_search"}))

    assert {"oracle_search", "bm25", "grep_only"} <= set(registered(Plugin, "retrieval"))


def test_hook_register_run_options() -> None:
    class Plugin:
        @staticmethod
        @hookimpl
        def register_run_options(register):  # type: ignore[no-untyped-def]
            register(RunOption(name="whisper_level", help="How softly.", type=int, default=1))

    assert "whisper_level" in registered(Plugin, "run_option")


def invoke_plugin_command(name: str, command: Callable[[], None]) -> Result:
    """Run ``tautrait NAME`` where a plugin's ``register_commands`` hook added ``command``
    as NAME; the plugin and its command are gone afterwards."""

    class Plugin:
        @staticmethod
        @hookimpl
        def register_commands(cli):  # type: ignore[no-untyped-def]
            cli.command(name=name)(command)

    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(Plugin, name="hook-test")
    try:
        manager.add_commands(cli)
        return CliRunner().invoke(cli, [name])
    finally:
        cli.commands.pop(name, None)
        manager.unregister("hook-test")
        reset_plugin_manager()


def test_hook_register_commands() -> None:
    def greet() -> None:
        click.echo("greetings")

    assert invoke_plugin_command("greet-hook-test", greet).output == "greetings\n"


def test_a_plugin_command_raising_a_library_error_prints_one_line() -> None:
    def fail() -> None:
        raise ConfigError("the widget file /tmp/w.json is not a widget file")

    result = invoke_plugin_command("fail-hook-test", fail)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output == "Error: the widget file /tmp/w.json is not a widget file\n"
