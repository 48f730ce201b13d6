"""What a call on the direct path costs, from litellm's price list, without importing litellm.

litellm ships its price list as a JSON file inside its package
(``model_prices_and_context_window_backup.json``, the one it reads itself with
``LITELLM_LOCAL_MODEL_COST_MAP=True``). This module reads that file once per process and
prices an answer the way ``litellm.completion_cost`` prices an OpenAI model's: uncached and
cached prompt tokens, completion tokens, the rates above a long-prompt threshold and the
rates of the service tier the answer was served at. A model the list does not price as an
``openai`` model has no known price (``None``), as through litellm.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

PRICE_FILE = "model_prices_and_context_window_backup.json"
PROVIDER = "openai"
SERVICE_TIER_SUFFIXES = {
    "flex": "_flex",
    "balanced": "_balanced",
    "priority": "_priority",
    "fast": "_priority",
    "ultrafast": "_ultrafast",
}
"""Service tiers an answer may report, and the suffix of their rates in the price list."""

_THRESHOLD = re.compile(r"^input_cost_per_token_above_(\d+)k_tokens$")
_FINE_TUNED = re.compile(r"^(ft:[^:]+):")
_DATED = re.compile(r"^(.+)-\d{4}-\d{2}-\d{2}$")


@functools.cache
def price_list() -> dict[str, Any]:
    """litellm's bundled price list (empty when litellm is not installed)."""
    spec = importlib.util.find_spec("litellm")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / PRICE_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


@functools.lru_cache(maxsize=256)
def model_prices(model: str) -> dict[str, Any] | None:
    """The price entry of ``model`` (the name sent to an OpenAI-compatible server), or
    ``None`` when the list prices no such OpenAI model. As litellm does, a fine-tuned model
    (``ft:base:org::id``) takes its base's entry, and a dated name its undated one's."""
    prices = price_list()
    model = model.removeprefix(f"{PROVIDER}/")
    names = [model, f"{PROVIDER}/{model}", model.lower()]
    if fine_tuned := _FINE_TUNED.match(model):
        names.append(fine_tuned.group(1))
    if dated := _DATED.match(model.lower()):
        names.append(dated.group(1))
    for name in names:
        entry = prices.get(name)
        if isinstance(entry, dict) and entry.get("litellm_provider", PROVIDER) == PROVIDER:
            priced = entry.get("input_cost_per_token") or entry.get("output_cost_per_token")
            return entry if priced else None
    return None


def answer_cost(entry: dict[str, Any], usage: dict[str, Any], service_tier: Any) -> float:
    """Dollars for an answer's ``usage`` (the chat completion's ``usage`` object) at the
    prices of ``entry``, served at ``service_tier`` (the answer's, ``None`` if it gave none)."""
    prompt = _count(usage.get("prompt_tokens"))
    completion = _count(usage.get("completion_tokens"))
    details = usage.get("prompt_tokens_details")
    cached = _count(details.get("cached_tokens")) if isinstance(details, dict) else 0
    cached = min(cached, prompt)
    tier = (
        SERVICE_TIER_SUFFIXES.get(service_tier.lower(), "") if isinstance(service_tier, str) else ""
    )
    above = _long_prompt_infix(entry, prompt)

    def rate(name: str, fallback: float) -> float:
        for key in (f"{name}{above}{tier}", f"{name}{above}", f"{name}{tier}", name):
            value = entry.get(key)
            if isinstance(value, int | float):
                return float(value)
        return fallback

    input_rate = rate("input_cost_per_token", 0.0)
    cached_rate = rate("cache_read_input_token_cost", input_rate)
    output_rate = rate("output_cost_per_token", 0.0)
    return (prompt - cached) * input_rate + cached * cached_rate + completion * output_rate


def _long_prompt_infix(entry: dict[str, Any], prompt_tokens: int) -> str:
    """``_above_Nk_tokens`` for the highest threshold the prompt exceeds, else ``""``."""
    passed = [
        int(match.group(1))
        for key in entry
        if (match := _THRESHOLD.match(key)) and prompt_tokens > int(match.group(1)) * 1000
    ]
    return f"_above_{max(passed)}k_tokens" if passed else ""


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
