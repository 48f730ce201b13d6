"""The direct path prices an answer as ``litellm.completion_cost`` does, from litellm's own
price list, without importing litellm."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from tautrait_core.llm.pricing import answer_cost, model_prices
from tautrait_core.llm.provider import load_litellm

USAGES = {
    "plain": {"prompt_tokens": 1200, "completion_tokens": 80},
    "cached": {
        "prompt_tokens": 1000,
        "completion_tokens": 50,
        "prompt_tokens_details": {"cached_tokens": 600},
    },
    "reasoning": {
        "prompt_tokens": 200,
        "completion_tokens": 400,
        "completion_tokens_details": {"reasoning_tokens": 300},
    },
    "long-prompt": {
        "prompt_tokens": 300_000,
        "completion_tokens": 500,
        "prompt_tokens_details": {"cached_tokens": 1000},
    },
}
PRICED = [
    "gpt-4o-mini",
    "gpt-4o",
    "gpt-4.1",
    "gpt-5",
    "o1",
    "gpt-4o-mini-2024-07-18",
    "ft:gpt-4o-mini-2024-07-18:my-org::abc123",
    "GPT-4o-mini",
]


def litellm_cost(model: str, usage: dict[str, Any], service_tier: str | None) -> float:
    litellm = load_litellm()
    answer: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}
        ],
        "usage": usage,
    }
    if service_tier:
        answer["service_tier"] = service_tier
    return float(
        litellm.completion_cost(
            completion_response=litellm.ModelResponse(**answer),
            model=model,
            custom_llm_provider="openai",
        )
    )


@pytest.mark.parametrize("model", PRICED)
@pytest.mark.parametrize("usage", USAGES, ids=list(USAGES))
@pytest.mark.parametrize("service_tier", [None, "priority", "flex"])
def test_priced_models_cost_what_litellm_says(model, usage, service_tier) -> None:
    prices = model_prices(model)
    assert prices is not None
    cost = answer_cost(prices, USAGES[usage], service_tier)
    assert cost == pytest.approx(litellm_cost(model, USAGES[usage], service_tier), rel=1e-12)
    assert cost > 0


@pytest.mark.parametrize(
    "model",
    ["scripted", "Qwen/Qwen2.5-7B-Instruct", "claude-3-5-sonnet-20240620"],
)
def test_models_litellm_does_not_price_as_openai_models_have_no_price(model) -> None:
    assert model_prices(model) is None
    with pytest.raises(Exception, match="isn't mapped"):
        load_litellm().get_model_info(model=model, custom_llm_provider="openai")


def test_the_price_list_is_read_without_importing_litellm() -> None:
    probe = (
        "import sys\n"
        "from tautrait_core.llm.pricing import answer_cost, model_prices\n"
        "cost = answer_cost(model_prices('gpt-4o-mini'), {'prompt_tokens': 10}, None)\n"
        "print(cost > 0, 'litellm' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.split() == ["True", "False"], done.stderr
