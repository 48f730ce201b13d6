"""A judge model for τ²'s NL assertions (``--judge-model``).

τ² grades natural-language assertions by showing a model the conversation as
``"<role>: <content>"`` lines (tool calls left out) with the list of statements, and asking,
for each, whether the conversation meets it, as JSON
``{"results": [{"expectedOutcome", "reasoning", "metExpectation"}]}`` (domain-spec §3.4).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from tautrait_core.errors import ProviderError
from tautrait_core.grading.judge_answers import json_objects
from tautrait_core.llm.client import ModelSpec, complete
from tautrait_core.llm.http_session import session_scope
from tautrait_core.types.messages import Message

JUDGE_INSTRUCTIONS = (
    "You grade a recorded customer-service conversation. For each expected outcome in the "
    "list, decide from the conversation alone whether it was met. Answer with JSON only: "
    '{"results": [{"expectedOutcome": "<the statement>", "reasoning": "<one or two '
    'sentences>", "metExpectation": true or false}]}, one result per expected outcome, in '
    "the order given."
)


def conversation_text(messages: Sequence[Message]) -> str:
    """The conversation as the judge reads it: one ``role: content`` line per message."""
    return "\n".join(f"{message.role}: {message.content or ''}" for message in messages)


class ModelJudge:
    """Judges NL assertions with a chat model (an :class:`~tautrait_core.domain.
    criteria_reward.NLJudge`)."""

    def __init__(self, spec: ModelSpec) -> None:
        self.spec = spec

    def __call__(
        self, messages: Sequence[Message], assertions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """One τ²-shaped check per assertion.

        Raises:
            ProviderError: the model could not be called, or its answer holds no result for
                every assertion.
        """
        if not assertions:
            return []
        return asyncio.run(self.judge(messages, assertions))

    async def judge(
        self, messages: Sequence[Message], assertions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """:meth:`__call__` for callers already in an event loop."""
        prompt = [
            {"role": "system", "content": JUDGE_INSTRUCTIONS},
            {
                "role": "user",
                "content": f"<conversation>\n{conversation_text(messages)}\n</conversation>\n"
                f"<expected_outcomes>\n{json.dumps(list(assertions))}\n</expected_outcomes>",
            },
        ]
        async with session_scope():  # the judge's connections end with its judgement
            completion = await complete(self.spec, prompt)
        return parse_judgement(completion.message.content or "", assertions, self.spec.model)


def parse_judgement(text: str, assertions: Sequence[str], model: str) -> list[dict[str, Any]]:
    """The judge's answer as one check per assertion (``nl_assertion``, ``met``,
    ``justification``).

    Raises:
        ProviderError: the answer holds no ``results`` list with one entry per assertion.
    """
    for value in json_objects(text):
        results = value.get("results")
        if (
            isinstance(results, list)
            and len(results) == len(assertions)
            and all(isinstance(result, dict) for result in results)
        ):
            return [
                {
                    "nl_assertion": assertion,
                    "met": result.get("metExpectation") is True,
                    "justification": str(result.get("reasoning", "")),
                }
                for assertion, result in zip(assertions, results, strict=True)
            ]
    raise ProviderError(
        f"judge model {model} did not answer with a results list of {len(assertions)} "
        "entries; try a stronger --judge-model"
    )
