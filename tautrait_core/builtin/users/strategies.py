"""The ``react``, ``verify`` and ``reflection`` user simulators.

All three build on the ``llm`` user: the same base prompt and user model whether traits
are on or off, and every customer utterance written through the run's trait backend.

* ``react``: the model writes ``Thought: ...`` then ``Response: ...``; only the response
  reaches the agent (so ``###STOP###`` counts only there). An answer that starts with a
  thought but has no response is generated again, at most :data:`FORMAT_RETRIES` times;
  then the episode ends as a user-simulator error (:class:`UserFormatError`).
* ``verify``: a second call of the user model (without traits) checks each message
  against the instruction and the conversation; a rejected message is generated again,
  up to :data:`MAX_REGENERATIONS` times. The last candidate is sent unchecked, and a
  verdict that cannot be read counts as acceptance.
* ``reflection``: as ``verify``, but a rejected message is followed by a call (again
  without traits) that explains what went wrong, and the message is rewritten with that
  advice in the prompt.

Checks and reflections are recorded with the roles ``user-verify`` and ``user-reflect``
and counted in the user's usage.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from tautrait_core.builtin.users.llm import LLMUser
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.trait_backend import Generation, TraitBackend
from tautrait_core.episode.user import UserTurn
from tautrait_core.llm.client import complete
from tautrait_core.types.messages import STOP_TOKEN

FORMAT_RETRIES = 2
MAX_REGENERATIONS = 2

RESPONSE_MARKER = "Response:"
THOUGHT_MARKER = "Thought:"

REACT_FORMAT = f"""

How to write each turn: first a line starting with "{THOUGHT_MARKER}" where you privately \
consider, in a sentence or two, what you want next and what to say; then a line starting \
with "{RESPONSE_MARKER}" followed by the message itself. The agent sees only the message \
after "{RESPONSE_MARKER}"; that is also where {STOP_TOKEN} goes when you are done."""

VERIFIER_PROMPT = f"""You review messages written by a simulated customer in a test of a \
customer-service agent. The customer acts out a given situation. Decide whether the \
customer's latest message is faithful to that situation and fits the conversation so far:
- it uses only facts the situation gives, and contradicts none of them;
- it pursues the customer's own goal and does not take over the agent's job;
- it contains {STOP_TOKEN} only when the goal is handled or clearly cannot be.
The customer may write impatiently, confusedly, skeptically or incoherently on purpose: \
judge what the message says, not its tone or style.

Answer with a line "Verdict: accept" or "Verdict: reject", then a line "Reason:" with \
one sentence."""

REFLECTION_PROMPT = """You coach a simulated customer in a test of a customer-service \
agent, so that they stay true to the situation they act out. A reviewer rejected the \
customer's draft of their next message. In two or three sentences, say what was wrong \
with the draft and what the next message should do instead. Do not write the message."""

REWRITE_NOTE = """

Your first draft of the next message was rejected.
Draft: {draft}
Why it was rejected: {reason}
Advice: {advice}
Write the next message again, following the advice."""

VERDICT = re.compile(r"verdict\s*:\s*(accept|reject)", re.IGNORECASE)
REASON = re.compile(r"reason\s*:\s*(.*)", re.IGNORECASE | re.DOTALL)


class UserFormatError(ValueError):
    """The user model kept answering in a form the strategy cannot read."""


def split_response(text: str) -> str:
    """The part of a react answer that the agent sees.

    The text after the last ``Response:``; an answer with neither marker is taken whole.

    Raises:
        UserFormatError: a thought without a response, or an empty response.
    """
    _, marker, response = text.rpartition(RESPONSE_MARKER)
    if not marker:
        if text.lstrip().startswith(THOUGHT_MARKER):
            raise UserFormatError(f'the answer has a thought but no "{RESPONSE_MARKER}" line')
        response = text
    if not response.strip():
        raise UserFormatError("the response is empty")
    return response.strip()


class ReActUser(LLMUser):
    """Thinks before each message; the thought stays in its own history only."""

    name = "react"
    description = "a model plays the customer, writing a private thought before each message"

    def __init__(self, context: EpisodeContext, traits: TraitBackend) -> None:
        super().__init__(context, traits)
        self.messages[0]["content"] += REACT_FORMAT

    async def _next(self) -> UserTurn:
        attempts = 0
        while True:
            generation = await self._generate(self.messages)
            attempts += 1
            if generation.tool_calls:  # the thought stays private; the calls run
                return self._record(generation, shown="")
            try:
                response = split_response(generation.text)
            except UserFormatError as exc:
                if attempts > FORMAT_RETRIES:
                    raise UserFormatError(
                        f"no readable message after {attempts} attempts: {exc}; "
                        f"last answer: {generation.text[:300]!r}"
                    ) from exc
                continue
            return self._record(generation, shown=response)


@dataclass(frozen=True)
class Verdict:
    """A reviewer's judgement of one candidate message."""

    accepted: bool
    reason: str


def read_verdict(text: str) -> Verdict:
    """Parse ``Verdict: accept|reject`` and ``Reason: ...``; unreadable means accepted."""
    verdict = VERDICT.search(text)
    reason = REASON.search(text)
    accepted = verdict is None or verdict.group(1).lower() == "accept"
    return Verdict(accepted=accepted, reason=(reason.group(1) if reason else text).strip())


class VerifyingUser(LLMUser):
    """Checks each message with a second call and generates it again when rejected."""

    name = "verify"
    description = "a model plays the customer; each message is checked and regenerated if wrong"
    calls_user_model = True

    async def _next(self) -> UserTurn:
        candidate = await self._generate(self.messages)
        for _ in range(MAX_REGENERATIONS):
            if candidate.tool_calls:  # a call on the customer's own device is not reviewed
                break
            verdict = await self._review(candidate.text)
            if verdict.accepted:
                break
            candidate = await self._revise(candidate.text, verdict)
        return self._record(candidate)

    async def _revise(self, candidate: str, verdict: Verdict) -> Generation:
        """A new candidate after ``candidate`` was rejected: here, simply another sample."""
        return await self._generate(self.messages)

    async def _review(self, candidate: str) -> Verdict:
        answer = await self._auxiliary("user-verify", VERIFIER_PROMPT, self._case(candidate))
        return read_verdict(answer)

    async def _auxiliary(self, role: str, system: str, content: str) -> str:
        """One call of the user model without traits, counted in the user's usage."""
        spec = dataclasses.replace(self.context.user_model(), role=role)
        completion = await complete(
            spec, [{"role": "system", "content": system}, {"role": "user", "content": content}]
        )
        self.usage.add(completion.usage)
        return completion.message.content or ""

    def _case(self, candidate: str) -> str:
        """The situation, the conversation so far and the candidate, as review input."""
        lines = [
            f"{'Agent' if message['role'] == 'user' else 'Customer'}: {message['content']}"
            for message in self.messages[1:]
            if message["role"] != "tool" and not message.get("tool_calls")
        ]
        return (
            f"Situation:\n{self.context.task.instruction.strip()}\n\n"
            f"Conversation so far:\n" + "\n".join(lines) + "\n\n"
            f"Customer's latest message:\n{candidate}"
        )


class ReflectingUser(VerifyingUser):
    """As ``verify``, but reflects on a rejected message and rewrites it with the advice."""

    name = "reflection"
    description = "as verify, but a rejected message is reflected on and rewritten"

    async def _revise(self, candidate: str, verdict: Verdict) -> Generation:
        advice = await self._auxiliary(
            "user-reflect",
            REFLECTION_PROMPT,
            f"{self._case(candidate)}\n\nWhy the reviewer rejected it: {verdict.reason}",
        )
        messages = [dict(message) for message in self.messages]
        messages[0]["content"] += REWRITE_NOTE.format(
            draft=candidate, reason=verdict.reason, advice=advice.strip()
        )
        return await self._generate(messages)
