"""Judge-model ratings of how strongly each simulated-user turn shows each trait.

One model call per user turn rates the turn on all four traits at once (0: not shown,
1: somewhat, 2: strongly), each with a one-line reason, as a JSON object. The judge sees
the message and the few before it, never the trait mix the user was given, so its
ratings are blind to what was requested.

Episodes that ended in an infrastructure error are not rated (they are re-run on
resume), and a turn that already has ratings by the same judge model is skipped, so the
command resumes where it stopped. Answers that cannot be read, and calls that fail, are
reported and not stored: running again retries exactly those.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.errors import TautraitError
from tautrait_core.grading.judge_answers import json_objects
from tautrait_core.llm.client import ModelSpec, complete
from tautrait_core.llm.http_session import session_scope
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import RunRecord, TraitRatingRecord
from tautrait_core.trait_mix import TRAIT_ALIASES, TRAITS
from tautrait_core.types.result import EpisodeResult, Outcome

RATINGS = (0, 1, 2)
CONTEXT_MESSAGES = 6
"""Messages before the rated one that the judge sees (agent and customer text)."""
CONTROL_TOKEN = re.compile(r"###[A-Z_-]+###")
"""``###STOP###`` and the like: signals to the loop, not part of what the user wrote."""

SYSTEM_PROMPT = """\
You rate the simulated customer of a customer-service conversation. Read the customer \
message marked for rating (the earlier messages are there for context only) and rate how \
strongly that message shows each of four traits:
- impatience: pushes for speed, complains about delays or long explanations, demands \
immediate results, threatens to give up.
- confusion: mixes up or forgets details, misunderstands questions, asks for things to be \
repeated or explained again, contradicts themself.
- skeptical: doubts what the agent says, asks for proof or justification, wants \
confirmation before agreeing, suspects mistakes or tricks.
- incoherence: fragmented or rambling sentences, abrupt topic changes, typos, irrelevant \
details mixed in.

Scale: 0 = not shown, 1 = shown somewhat, 2 = shown strongly. Rate how the customer \
writes, not what they ask for, and rate only the marked message.

Answer with one JSON object, nothing else:
{"impatience": {"rating": 0, "reason": "..."}, "confusion": {"rating": 0, "reason": "..."}, \
"skeptical": {"rating": 0, "reason": "..."}, "incoherence": {"rating": 0, "reason": "..."}}
Each reason is one short line naming what in the message shows the trait, or that nothing \
does."""


class TraitRatingParseError(TautraitError):
    """A judge's answer holds no readable rating of every trait."""


@dataclass(frozen=True)
class ParsedRating:
    """One trait's rating read from a judge's answer."""

    rating: int
    reason: str


def _trait_key(key: object) -> str:
    word = str(key).strip().lower()
    return TRAIT_ALIASES.get(word, word)


def _rating(trait: str, value: object) -> ParsedRating:
    reason: object = ""
    if isinstance(value, dict):
        fields = {str(key).strip().lower(): item for key, item in value.items()}
        if "rating" not in fields:
            raise TraitRatingParseError(f"{trait} has no rating: {value!r}")
        value, reason = fields["rating"], fields.get("reason", "")
    if isinstance(value, str) and value.strip() in ("0", "1", "2"):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value not in RATINGS:
        raise TraitRatingParseError(f"{trait} rating {value!r} is not 0, 1 or 2")
    return ParsedRating(rating=value, reason=" ".join(str(reason).split()))


def parse_trait_ratings(text: str) -> dict[str, ParsedRating]:
    """Read every trait's rating from an answer: the first JSON object that names a trait.

    Code fences and prose around the object, a ``{"ratings": {...}}`` wrapper, upper case
    and the alias ``skepticism`` are accepted; a rating is 0, 1 or 2 (a number or a digit
    string), alone or as ``{"rating": ..., "reason": ...}``. Nothing is guessed.

    Raises:
        TraitRatingParseError: no object names a trait, or the first that does lacks a
            trait or holds a rating outside 0-2.
    """
    for value in json_objects(text):
        fields = {_trait_key(key): item for key, item in value.items()}
        if isinstance(fields.get("ratings"), dict):
            fields = {_trait_key(key): item for key, item in fields["ratings"].items()}
        if not any(trait in fields for trait in TRAITS):
            continue
        missing = [trait for trait in TRAITS if trait not in fields]
        if missing:
            raise TraitRatingParseError(f"the answer does not rate {', '.join(missing)}")
        return {trait: _rating(trait, fields[trait]) for trait in TRAITS}
    raise TraitRatingParseError(f"no trait ratings in the answer: {text.strip()[:200]!r}")


def conversation_lines(result: EpisodeResult) -> list[tuple[bool, str]]:
    """``(is_user_turn, line)`` for every agent and customer message with text, in order.

    User turns are the customer's messages with something left once control tokens
    (``###STOP###``) are removed.
    """
    lines = []
    for message in result.messages:
        if message.role == "user":
            text = " ".join(CONTROL_TOKEN.sub(" ", message.content or "").split())
            if text:
                lines.append((True, text))
        elif message.role == "assistant" and (message.content or "").strip():
            lines.append((False, " ".join((message.content or "").split())))
    return lines


def user_turns(result: EpisodeResult) -> list[str]:
    """The text of each user turn of an episode (what gets rated), in order."""
    return [text for is_user, text in conversation_lines(result) if is_user]


def rating_messages(result: EpisodeResult, turn: int) -> list[dict[str, Any]]:
    """The chat messages that ask for the ratings of user turn ``turn`` of an episode."""
    lines = conversation_lines(result)
    positions = [index for index, (is_user, _) in enumerate(lines) if is_user]
    at = positions[turn]
    context = [
        f"[{'customer' if is_user else 'agent'}] {text}"
        for is_user, text in lines[max(0, at - CONTEXT_MESSAGES) : at]
    ]
    body = [
        "## The conversation before the message",
        *(context or ["(none: this is the customer's first message)"]),
        "",
        "## The customer message to rate",
        lines[at][1],
    ]
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n".join(body)},
    ]


@dataclass
class RatingReport:
    """What one ``tautrait traits audit --judge-model`` call rated."""

    rated: list[TraitRatingRecord] = field(default_factory=list)
    unreadable: list[tuple[str, int, int, int, str]] = field(default_factory=list)
    """(run, task, trial, turn, why) of answers with no readable ratings."""
    failed: list[tuple[str, int, int, int, str]] = field(default_factory=list)
    """(run, task, trial, turn, error) of calls that failed."""
    skipped: int = 0
    """User turns that already had ratings by this judge."""
    not_started: int = 0
    """User turns left unrated because ``--max-cost`` was reached."""
    call_costs: list[float | None] = field(default_factory=list)
    """Dollars of each judge call answered, unreadable answers included."""

    @property
    def cost(self) -> float | None:
        """Dollars spent on judge calls (``None`` when a price is unknown)."""
        costs = self.call_costs
        return None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)

    @property
    def turns_rated(self) -> int:
        """User turns rated by this call."""
        return len({(r.run_id, r.task_id, r.trial, r.turn) for r in self.rated})


def _rated_turns(store: ResultStore, run_id: str, model: str) -> set[tuple[int, int, int]]:
    traits: dict[tuple[int, int, int], set[str]] = {}
    for rating in store.trait_ratings(run_id, model):
        traits.setdefault((rating.task_id, rating.trial, rating.turn), set()).add(rating.trait)
    return {turn for turn, rated in traits.items() if rated >= set(TRAITS)}


async def rate_runs(
    store: ResultStore,
    records: list[RunRecord],
    spec: ModelSpec,
    concurrency: int = 4,
    max_cost: float | None = None,
) -> RatingReport:
    """Rate every unrated user turn of the runs with ``spec``'s model and store the ratings.

    Once ``max_cost`` dollars are spent no further call starts (calls already under way
    finish, so the total may pass it by up to ``concurrency`` calls); turns left are
    counted in ``not_started`` and rated by the next call. Unknown prices count as 0.
    """
    report = RatingReport()
    todo: list[tuple[str, EpisodeResult, int, int]] = []
    for record in records:
        done = _rated_turns(store, record.id, spec.model)
        for result in store.episodes(record.id):
            if result.outcome is Outcome.ERROR:
                continue
            turns = len(user_turns(result))
            for turn in range(turns):
                if (result.task_id, result.trial, turn) in done:
                    report.skipped += 1
                else:
                    todo.append((record.id, result, turn, turns))
    gate = asyncio.Semaphore(concurrency)
    spent = 0.0

    async def one(run_id: str, result: EpisodeResult, turn: int, turns: int) -> None:
        nonlocal spent
        where = (run_id, result.task_id, result.trial, turn)
        async with gate:
            if max_cost is not None and spent >= max_cost:
                report.not_started += 1
                return
            try:
                completion = await complete(spec, rating_messages(result, turn))
            except TautraitError as exc:
                report.failed.append((*where, str(exc)))
                return
            call_cost = completion.usage.cost
            report.call_costs.append(call_cost)
            spent += call_cost or 0.0
        try:
            parsed = parse_trait_ratings(completion.message.content or "")
        except TraitRatingParseError as exc:
            report.unreadable.append((*where, str(exc)))
            return
        share = None if call_cost is None else call_cost / len(parsed)
        ratings = [
            TraitRatingRecord(
                run_id=run_id,
                task_id=result.task_id,
                trial=result.trial,
                turn=turn,
                turns=turns,
                trait=trait,
                rating=value.rating,
                reason=value.reason,
                model=spec.model,
                cost=share,
            )
            for trait, value in parsed.items()
        ]
        store.save_trait_ratings(ratings)
        report.rated.extend(ratings)

    async with session_scope():  # the model connections end with the rating
        await asyncio.gather(*(one(*item) for item in todo))
    return report
