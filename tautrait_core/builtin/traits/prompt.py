"""The ``prompt`` trait backend: the trait mix is described in the user's system prompt."""

from __future__ import annotations

from typing import Any

from tautrait_core.episode.trait_backend import Generation, TraitBackend
from tautrait_core.llm.client import complete
from tautrait_core.trait_mix import TraitMix

TRAIT_BEHAVIOUR = {
    "impatience": (
        "You are a little short on time and would like things to move along.",
        "You are in a hurry: you push for quick answers, dislike repeated questions and "
        "say so when things take long.",
        "You are extremely impatient: you demand immediate results, interrupt long "
        "explanations, complain about every delay and threaten to give up.",
    ),
    "confusion": (
        "Now and then you are unsure of a detail and ask the agent to repeat it.",
        "You often mix up details (dates, names, which item is which), misunderstand the "
        "agent's questions and need things explained again.",
        "You are very confused: you contradict yourself, forget what was said a moment ago, "
        "misread options and need several tries to understand simple steps.",
    ),
    "skeptical": (
        "You like to double-check what the agent tells you.",
        "You doubt the agent's statements, ask for justification and want confirmation "
        "before agreeing to anything.",
        "You distrust the agent: you challenge every claim, suspect mistakes or tricks, "
        "demand proof and hesitate to accept any proposal.",
    ),
    "incoherence": (
        "Your messages are sometimes a bit rambling.",
        "Your messages wander: you jump between topics, leave sentences unfinished and add "
        "unrelated remarks.",
        "Your messages are hard to follow: fragmented sentences, abrupt topic changes, "
        "typos and irrelevant details mixed in with the facts that matter.",
    ),
}
INTENSITY_NAMES = ("low", "medium", "high")


def describe_traits(traits: TraitMix) -> str:
    """The personality section appended to the user's system prompt ("" for no traits)."""
    if not traits:
        return ""
    lines = [
        f"- {trait} ({INTENSITY_NAMES[level]}): {TRAIT_BEHAVIOUR[trait][level]}"
        for trait, level in traits.traits.items()
    ]
    return (
        "\n\nYour personality in this conversation (let it show in how you write, while still "
        "pursuing your goal and following the rules above):\n" + "\n".join(lines)
    )


class PromptTraitBackend(TraitBackend):
    """Adds a description of the traits to the system prompt and calls the user model."""

    name = "prompt"
    description = "describes the trait mix in the simulated user's system prompt"

    async def generate(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> Generation:
        prompt = [dict(message) for message in messages]
        if prompt and prompt[0]["role"] == "system":
            prompt[0]["content"] = prompt[0]["content"] + describe_traits(self.traits)
        completion = await complete(self.context.user_model(), prompt, tools=tools)
        return Generation(
            text=completion.message.content or "",
            usage=completion.usage,
            tool_calls=completion.message.tool_calls,
        )
