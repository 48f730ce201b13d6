"""Run options that plugins declare, checked against the loaded plugins when a run is
prepared: names looked up, values validated, defaults filled in for the episodes."""

from __future__ import annotations

import difflib
from typing import Any

from tautrait_core.config.run_config import MOVED_TO_PLUGINS, RunConfig, run_config_keys
from tautrait_core.errors import ConfigError
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.run_options import RunOption


def declared_run_options() -> dict[str, RunOption]:
    """Every run option the loaded plugins declare, by name and by alias.

    An option that takes the name of a RunConfig setting is refused (see ``tautrait plugins``
    and the warning) and left out.
    """
    manager = get_plugin_manager()
    options = manager.run_options()
    for key, option in list(options.items()):
        if key in run_config_keys() and key not in MOVED_TO_PLUGINS:
            problem = f"uses the name {key!r} of a RunConfig field"
            source = manager.source("run_option", option.name)
            manager.refuse("run_option", option.name, source, problem)
            options = {k: v for k, v in options.items() if v is not option}
    return options


def checked_plugin_options(config: RunConfig) -> RunConfig:
    """``config`` with its plugin options by canonical name, validated, and without those
    equal to the option's default (the form a run is stored and compared in).

    Raises:
        ConfigError: a name is neither a setting nor an option a loaded plugin declares, or
            a value does not fit its option.
    """
    declared = declared_run_options()
    unknown = sorted(set(config.plugin_options) - set(declared))
    if unknown:
        raise ConfigError(unknown_settings_message(unknown, declared))
    values: dict[str, Any] = {}
    for key, value in config.plugin_options.items():
        option = declared[key]
        value = option.validate(value)
        if value != option.default:
            values[option.name] = value
    return config.model_copy(update={"plugin_options": values})


def unknown_settings_message(unknown: list[str], declared: dict[str, RunOption]) -> str:
    """Why ``unknown`` keys are refused, with the closest known key for each."""
    known = sorted({*run_config_keys(), *declared})
    described = []
    for key in unknown:
        close = difflib.get_close_matches(key.replace("-", "_"), known, n=1)
        described.append(f"{key} (did you mean {close[0]}?)" if close else key)
    return (
        f"unknown setting(s) {', '.join(described)}: not a run setting, and no loaded plugin "
        "declares such a run option; install the plugin that declares it, or leave it out "
        "(loaded plugins and their options: tautrait plugins)"
    )


def plugin_option_values(config: RunConfig) -> dict[str, Any]:
    """The value of every declared run option in this run: as given, else its default."""
    declared = declared_run_options()
    values = {option.name: option.default for option in declared.values()}
    values.update(config.plugin_options)
    return values
