"""Trait mixes and run configurations (including upstream field names)."""

from __future__ import annotations

import pytest

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError, TraitError
from tautrait_core.trait_mix import TraitMix


def test_trait_mix_accepts_numbers_words_and_aliases() -> None:
    mix = TraitMix.parse("confusion=low, impatience=2,skepticism=Medium")
    assert mix.traits == {"impatience": 2, "confusion": 0, "skeptical": 1}
    assert mix.as_words() == {"impatience": "high", "confusion": "low", "skeptical": "medium"}
    assert mix.label() == "impatience=high,confusion=low,skeptical=medium"
    assert not TraitMix.parse("none") and TraitMix.parse("none").label() == "none"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("patience=2", "unknown trait 'patience'"),
        ("impatience=3", "invalid intensity '3'"),
        ("impatience=extreme", "invalid intensity 'extreme'"),
        ("impatience", "write TRAIT=INTENSITY"),
    ],
)
def test_bad_trait_mixes_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(TraitError, match=message):
        TraitMix.parse(spec)


def test_upstream_trait_dict_form() -> None:
    mix = TraitMix.from_trait_dict(
        {"impatience": "medium", "confusion": "low", "incoherence": "high"}
    )
    assert mix.traits == {"impatience": 1, "confusion": 0, "incoherence": 2}
    assert TraitMix.from_trait_dict({"trait_dict": {"skeptical": 2}}).traits == {"skeptical": 2}


def test_upstream_run_config_fields_are_accepted() -> None:
    config = RunConfig(
        env="airline",
        model="gpt-4o",
        model_provider="openai",
        user_model_provider="anthropic",
        agent_strategy="react",
        user_strategy="verify",
        task_split="dev",
        max_concurrency=8,
        start_index=2,
        end_index=9,
        trait_dict={"impatience": "high"},
        shuffle=1,
    )
    assert (config.domain, config.agent.model, config.agent.provider) == (
        "airline",
        "gpt-4o",
        "openai",
    )
    assert (config.user.provider, config.agent.strategy, config.user.strategy) == (
        "anthropic",
        "react",
        "verify",
    )
    assert config.task_set == "dev"
    assert (config.executor.concurrency, config.start, config.end, config.shuffle) == (
        8,
        2,
        9,
        True,
    )
    assert config.user.traits.traits == {"impatience": 2}


def test_upstream_steer_provider_selects_the_steer_backend() -> None:
    config = RunConfig(user_model_provider="steer", endpoint="http://steer.local/v1")
    assert config.user.trait_backend == "steer" and config.user.provider is None
    assert config.plugin_options == {"steer_endpoint": "http://steer.local/v1"}


def test_stored_config_round_trips() -> None:
    config = RunConfig(domain="retail", traits="confusion=2")
    assert RunConfig.model_validate_json(config.model_dump_json()) == config


def test_inconsistent_range_is_rejected() -> None:
    with pytest.raises(ConfigError, match="before --start"):
        RunConfig(start=5, end=2)
