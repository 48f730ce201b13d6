"""RunConfig in parts: the flat form people and stored runs use, and what an episode gets."""

from __future__ import annotations

import dataclasses
import json

import pytest
from pydantic import ValidationError

from tautrait_core import (
    AgentSettings,
    EpisodeContext,
    Limits,
    RunConfig,
    TransportSettings,
    UserSettings,
)
from tautrait_core.config.run_config import FLAT_ORDER, LEFT_OUT_AT_DEFAULT

STORED_BEFORE_THE_SPLIT = {
    "domain": "retail",
    "task_set": "test",
    "agent": "tool-calling",
    "agent_model": "gpt-4o",
    "agent_provider": None,
    "agent_api_base": None,
    "user": "llm",
    "user_model": "gpt-4o-mini",
    "user_provider": None,
    "user_api_base": "http://127.0.0.1:8000/v1",
    "trait_backend": "prompt",
    "traits": {"impatience": 2},
    "temperature": 0.0,
    "user_temperature": 0.7,
    "num_trials": 4,
    "task_ids": [0, 3],
    "start": 0,
    "end": -1,
    "seed": 10,
    "shuffle": False,
    "concurrency": 8,
    "max_steps": 30,
    "max_errors": None,
    "judge_model": None,
    "judge_api_base": None,
    "solo": False,
    "max_retries": 2,
    "max_cost": 5.0,
    "cache": True,
    "retry_base_s": 1.0,
    "timeout_s": 60.0,
    "few_shot_file": None,
    "results_db": "/tmp/r.db",
    "resume": None,
    "run_name": "nightly",
    "export_path": None,
    "log_dir": None,
    "executor": "local",
    "ray_address": None,
    "plugin_options": {},
}
"""A run's configuration as the results database stored it before RunConfig had parts."""


def test_a_stored_configuration_opens_into_parts_and_is_written_back_unchanged() -> None:
    config = RunConfig.model_validate(STORED_BEFORE_THE_SPLIT)
    assert config.agent == AgentSettings(strategy="tool-calling", model="gpt-4o")
    assert config.user.model == "gpt-4o-mini" and config.user.temperature == 0.7
    assert config.user.traits.as_words() == {"impatience": "high"}
    assert config.transport == TransportSettings(max_retries=2, timeout_s=60.0, cache=True)
    assert (config.executor.concurrency, config.limits.max_cost) == (8, 5.0)
    assert config.storage.run_name == "nightly"
    dumped = json.loads(config.model_dump_json())
    assert dumped == STORED_BEFORE_THE_SPLIT
    # the stored layout, key for key (settings of domains with documents left out while unset)
    assert list(dumped) == [key for key in FLAT_ORDER if key in STORED_BEFORE_THE_SPLIT]
    assert set(FLAT_ORDER) - set(dumped) == set(LEFT_OUT_AT_DEFAULT)


def test_upstream_names_and_parts_give_the_same_configuration() -> None:
    upstream = RunConfig(
        env="retail",
        model="gpt-4o",
        user_strategy="llm",
        trait_dict={"confusion": "low"},
        max_concurrency=3,
        start_index=2,
        end_index=5,
    )
    parts = RunConfig(
        domain="retail",
        agent=AgentSettings(model="gpt-4o"),
        user=UserSettings(strategy="llm", traits="confusion=low"),
        start=2,
        end=5,
        executor={"concurrency": 3},
    )
    assert upstream.model_dump() == parts.model_dump()


def test_a_bad_value_is_reported_under_its_flat_name() -> None:
    with pytest.raises(ValidationError) as raised:
        RunConfig(domain="retail", temperature="warm", max_steps=0, executor="gpu")
    located = {str(error["loc"][0]) for error in raised.value.errors()}
    assert located == {"temperature", "max_steps", "executor"}


def test_given_names_the_flat_keys_that_were_set() -> None:
    config = RunConfig(domain="retail", model="gpt-4o", timeout_s=5, num_trials=2)
    assert config.given() == {"domain", "agent_model", "timeout_s", "num_trials"}


def test_with_settings_changes_flat_keys_and_keeps_the_rest() -> None:
    config = RunConfig.model_validate(STORED_BEFORE_THE_SPLIT)
    changed = config.with_settings(user="scripted", concurrency=1)
    assert (changed.user.strategy, changed.executor.concurrency) == ("scripted", 1)
    assert changed.user.model == "gpt-4o-mini" and changed.transport == config.transport


def test_an_episode_gets_the_parts_it_uses_and_not_storage_or_executor() -> None:
    fields = {field.name for field in dataclasses.fields(EpisodeContext)}
    assert {"agent", "user", "judge", "transport", "limits"} <= fields
    assert not fields & {"config", "storage", "executor"}
    config = RunConfig.model_validate(STORED_BEFORE_THE_SPLIT)
    from tautrait_core import Domain, Task

    domain = Domain(name="empty", policy="", tables=[], seed_data=list, tools=[])
    context = EpisodeContext.of_run(config, domain, Task(user_id="u", instruction="hi"))
    assert context.limits == Limits(max_steps=30, max_cost=5.0)
    spec = context.user_model()
    assert (spec.model, spec.api_base, spec.timeout_s, spec.max_retries) == (
        "gpt-4o-mini",
        "http://127.0.0.1:8000/v1",
        60.0,
        2,
    )
