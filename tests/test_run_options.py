"""Run options: plugin-declared options end to end, and `tautrait run` against RunConfig."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Annotated, Any

import click
import pytest
from click.testing import CliRunner
from pydantic import Field

from tautrait_core import ConfigError, PluginError, RunConfig, RunOption, hookimpl, prepare
from tautrait_core.builtin.agents.oracle import OracleAgent
from tautrait_core.cli import cli
from tautrait_core.config.run_config import (
    EXECUTION_SETTINGS,
    LEFT_OUT_AT_DEFAULT,
    flat_keys,
    stored_plugin_options,
)
from tautrait_core.errors import SweepError
from tautrait_core.plugins import PluginLoadWarning, Provenance, get_plugin_manager
from tautrait_core.run.sweep_file import build_sweep

VOLUME = RunOption(
    name="greeting_volume",
    aliases=("volume",),
    type=Annotated[int, Field(ge=1)],
    default=1,
    help="How loudly the test agent greets.",
)
SEEN: list[int] = []
"""The option's value as each LoudOracle episode saw it."""
BROKEN = {"on": False}


class LoudOracle(OracleAgent):
    """The oracle agent, recording the plugin option; fails while BROKEN is on."""

    name = "loud-oracle"

    def __init__(self, context: Any) -> None:
        if BROKEN["on"]:
            raise RuntimeError("switched off by the test")
        super().__init__(context)
        SEEN.append(context.plugin_option("greeting_volume"))


class OptionsPlugin:
    @staticmethod
    @hookimpl
    def register_run_options(register):  # type: ignore[no-untyped-def]
        register(VOLUME)

    @staticmethod
    @hookimpl
    def register_agents(register):  # type: ignore[no-untyped-def]
        register(LoudOracle)


@pytest.fixture
def options_plugin(toy_plugin: object) -> Iterator[None]:
    manager = get_plugin_manager()
    manager.register(OptionsPlugin, name="options-test")
    SEEN.clear()
    BROKEN["on"] = False
    try:
        yield
    finally:
        manager.unregister("options-test")


def invoke(*arguments: str) -> Any:
    return CliRunner().invoke(cli, list(arguments))


def run_loud(*extra: str, exit_code: int = 0) -> dict[str, Any]:
    result = invoke("run", "--domain", "toylib", "--agent", "loud-oracle", "--json", *extra)
    assert result.exit_code == exit_code, result.output
    return json.loads(result.stdout)


def test_plugin_option_is_in_run_help(options_plugin: None) -> None:
    output = invoke("run", "--help").output
    assert "--greeting-volume, --volume" in output
    assert "How loudly the test agent greets. [default: 1]" in output


def test_bad_value_is_one_line_naming_the_option(options_plugin: None) -> None:
    result = invoke("run", "--domain", "toylib", "--agent", "loud-oracle", "--volume", "0")
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0, result.output
    assert "--greeting-volume (greeting_volume)" in result.output
    assert "greater than or equal to 1" in result.output
    with pytest.raises(ConfigError, match="greeting_volume"):
        prepare(RunConfig(domain="toylib", agent="loud-oracle", volume="loud"))


def test_value_is_stored_shown_and_restored_on_resume(options_plugin: None) -> None:
    BROKEN["on"] = True
    first = run_loud("--volume", "3", "--num-trials", "2", exit_code=1)  # every episode errs
    run_id = first["run_id"]
    assert first["metrics"]["errors"] > 0 and SEEN == []

    document = json.loads(invoke("report", run_id, "--json").output)
    assert document["config"]["plugin_options"] == {"greeting_volume": 3}
    assert "Plugin options: greeting_volume=3" in invoke("report", run_id).output

    BROKEN["on"] = False
    resumed = run_loud("--resume", run_id)  # the option is not given again
    assert resumed["metrics"]["errors"] == 0
    assert SEEN and set(SEEN) == {3}


def test_default_is_used_and_not_stored(options_plugin: None) -> None:
    run_id = run_loud()["run_id"]
    assert SEEN and set(SEEN) == {1}
    document = json.loads(invoke("report", run_id, "--json").output)
    assert document["config"]["plugin_options"] == {}
    assert "Plugin options" not in invoke("report", run_id).output


def test_runs_differing_in_a_plugin_option_compare(options_plugin: None) -> None:
    plain, loud = run_loud()["run_id"], run_loud("--volume", "2")["run_id"]
    result = invoke("compare", plain, loud)
    assert result.exit_code == 0, result.output
    assert "greeting_volume" in result.output


def test_library_api_takes_names_aliases_and_plugin_options(options_plugin: None) -> None:
    def prepared(**settings: Any) -> RunConfig:
        return prepare(RunConfig(domain="toylib", agent="loud-oracle", **settings)).config

    expected = {"greeting_volume": 2}
    assert prepared(volume=2).plugin_options == expected
    assert prepared(greeting_volume="2").plugin_options == expected
    assert prepared(plugin_options={"volume": 2}).plugin_options == expected
    assert prepared(volume=1).plugin_options == {}  # the default is not stored
    config = prepared(volume=2)
    assert RunConfig.model_validate_json(config.model_dump_json()) == config
    assert prepared(volume=2).settings() != prepared().settings()


def test_an_unknown_setting_is_refused_with_the_closest_name(options_plugin: None) -> None:
    config = RunConfig(domain="toylib", agent="loud-oracle", agent_modle="gpt-4o")
    with pytest.raises(ConfigError, match=r"agent_modle \(did you mean agent_model\?\)"):
        prepare(config)


def test_sweep_files_take_plugin_options(options_plugin: None) -> None:
    sweep_base = {"agent": "loud-oracle", "domain": "toylib"}
    sweep = build_sweep("loud", sweep_base, {"greeting_volume": [1, 2]}, "loud.toml")
    assert [p.config.plugin_options for p in sweep.points] == [{}, {"greeting_volume": 2}]
    with pytest.raises(SweepError, match="greeting_volume"):
        build_sweep("loud", sweep_base, {"greeting_volume": [0]}, "loud.toml")


def test_sweep_stored_before_plugin_options_keeps_its_fingerprint(options_plugin: None) -> None:
    base = {"agent": "loud-oracle", "domain": "toylib"}
    sweep = build_sweep("old", base, {"num_trials": [1, 2]}, "old.toml")
    # what the fingerprint hashed while steer_endpoint was a RunConfig field
    old_settings = []
    for point in sweep.points:
        settings = point.config.settings()
        assert settings.pop("plugin_options") == {}
        old_settings.append([point.values, {**settings, "steer_endpoint": None}])
    text = json.dumps(old_settings, sort_keys=True, default=str)
    assert sweep.fingerprint == hashlib.sha256(text.encode()).hexdigest()[:16]
    loud = build_sweep("old", {**base, "volume": 2}, {"num_trials": [1, 2]}, "old.toml")
    assert loud.fingerprint != sweep.fingerprint  # plugin options count


def test_option_of_a_plugin_not_loaded_is_kept_but_not_run(toy_plugin: object) -> None:
    config = RunConfig(domain="toylib", agent="oracle", plugin_options={"greeting_volume": 3})
    assert config.plugin_options == {"greeting_volume": 3}
    with pytest.raises(ConfigError, match=r"unknown setting.*greeting_volume.*no loaded plugin"):
        prepare(config)


def test_config_stored_before_options_moved_to_plugins_still_opens() -> None:
    # every run stored before the steer plugin declared its option holds steer_endpoint
    old = {"domain": "retail", "steer_endpoint": None, "traits": {}}
    assert RunConfig.model_validate(old).plugin_options == {}
    steered = {**old, "steer_endpoint": "http://127.0.0.1:8600/"}
    assert RunConfig.model_validate(steered).plugin_options == {
        "steer_endpoint": "http://127.0.0.1:8600/"
    }
    assert stored_plugin_options(steered) == {"steer_endpoint": "http://127.0.0.1:8600/"}


def test_run_without_domain_names_how_to_list_domains(toy_plugin: object) -> None:
    assert RunConfig().domain is None
    with pytest.raises(ConfigError, match=r"missing --domain.*tautrait plugins"):
        prepare(RunConfig(agent="oracle"))


def registered_by(plugin: object, distribution: str) -> None:
    get_plugin_manager().register(
        plugin, name="bad-test", provenance=Provenance("bad-test", distribution, "0.1")
    )


def test_non_subclass_registration_is_refused_and_the_rest_works(toy_plugin: object) -> None:
    class BadPlugin:
        @staticmethod
        @hookimpl
        def register_agents(register):  # type: ignore[no-untyped-def]
            register(type("Parrot", (), {"name": "parrot"}))

    registered_by(BadPlugin, "tautrait-parrot")
    manager = get_plugin_manager()
    try:
        with pytest.warns(PluginLoadWarning, match="tautrait-parrot"):
            assert "parrot" not in manager.names("agent")
        with pytest.raises(PluginError, match=r"tautrait-parrot 0.1.*subclass.*Agent"):
            manager.get("agent", "parrot")
        result = invoke("run", "--domain", "toylib", "--agent", "oracle")
        assert result.exit_code == 0, result.output
        result = invoke("run", "--domain", "toylib", "--agent", "parrot")
        assert result.exit_code != 0 and "pip uninstall tautrait-parrot" in result.output
    finally:
        manager.unregister("bad-test")


def test_option_taking_a_run_config_name_is_refused(toy_plugin: object) -> None:
    class ClashPlugin:
        @staticmethod
        @hookimpl
        def register_run_options(register):  # type: ignore[no-untyped-def]
            register(RunOption(name="seed", help="clashes with RunConfig.seed"))
            register(RunOption(name="shout", aliases=("seed_words",), help="fine"))

    registered_by(ClashPlugin, "tautrait-clash")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            config = prepare(RunConfig(domain="toylib", agent="oracle", seed=3, shout="x")).config
        assert config.seed == 3 and config.plugin_options == {"shout": "x"}
        assert any("tautrait-clash" in str(w.message) for w in caught)
    finally:
        get_plugin_manager().unregister("bad-test")


def test_option_taking_another_plugin_s_name_is_refused(options_plugin: None) -> None:
    class EchoPlugin:
        @staticmethod
        @hookimpl
        def register_run_options(register):  # type: ignore[no-untyped-def]
            register(RunOption(name="loudness", aliases=("volume",), help="clashes"))

    registered_by(EchoPlugin, "tautrait-echo")
    manager = get_plugin_manager()
    try:
        with pytest.warns(PluginLoadWarning, match="uses the name 'volume'") as caught:
            kept = {option.name for option in manager.run_options().values()}
        assert len(kept & {"loudness", "greeting_volume"}) == 1  # the first one registered
        assert "tautrait-echo" in str(caught[0].message)
    finally:
        manager.unregister("bad-test")


# -- tautrait run's own options against RunConfig ------------------------------------------

CLI_ONLY = {"traits_file", "as_json", "split"}
"""`tautrait run` options that are not RunConfig fields (--split joins --task-set: NAME/SPLIT)."""
FLAG_EXCEPTIONS = {
    "run_name": ({"run_name"}, "the flag is --name"),
    "export_path": ({"export_path"}, "upstream's flag --result-fp"),
    "traits": ({"trait_dict"}, "--trait-dict reads upstream's trait_dict from a file"),
}
"""Field names and aliases that are not flags of the same spelling, and why."""
DEFAULT_EXCEPTIONS = {
    "traits": "None: no trait mix given, RunConfig's empty mix",
    "executor": "None: shared with `tautrait sweep`, where leaving it out keeps the file's",
}
"""Options whose default is None (not given: RunConfig's default applies), and why."""


def run_command_options() -> dict[str, click.Option]:
    command = cli.commands["run"]
    return {p.name: p for p in command.params if isinstance(p, click.Option) and p.name}


def test_every_run_config_key_is_a_run_option_with_its_default_and_aliases() -> None:
    options = run_command_options()
    defaults = RunConfig().model_dump()
    for name, aliases in flat_keys().items():
        assert name in options, f"RunConfig key {name} has no `tautrait run` option"
        option = options[name]
        if name in DEFAULT_EXCEPTIONS:
            assert option.default is None, name
        else:
            default = defaults.get(name, LEFT_OUT_AT_DEFAULT.get(name))  # left out: default
            assert option.default == default, f"--{name}: {option.default!r} != {default!r}"
        names = {name, *aliases} - FLAG_EXCEPTIONS.get(name, (set(), ""))[0]
        flags = {f"--{n.replace('_', '-')}" for n in names}
        assert flags <= set(option.opts), f"{name}: flags {flags - set(option.opts)} missing"


def test_every_run_option_is_a_run_config_key() -> None:
    extra = set(run_command_options()) - set(flat_keys()) - CLI_ONLY
    assert not extra, f"`tautrait run` options that RunConfig lacks: {extra}"


def test_execution_settings_are_fields_left_out_of_settings() -> None:
    assert set(flat_keys()) >= EXECUTION_SETTINGS
    assert not EXECUTION_SETTINGS & set(RunConfig(domain="toylib").settings())


def test_run_help_with_installed_plugins_stays_light() -> None:
    code = (
        "import sys\n"
        "from tautrait_core.cli import main\n"
        "try:\n    main(['run', '--help'])\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('pydantic', 'sqlmodel', 'litellm', 'torch', 'httpx')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TAUTRAIT_LOAD_PLUGINS"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=Path.cwd()
    )
    assert done.stdout.strip().endswith("[]"), done.stdout + done.stderr
    if "steer" in {entry.name for entry in entry_points(group="tautrait")}:
        assert "--steer-endpoint, --endpoint" in done.stdout
