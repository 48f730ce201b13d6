"""Did the simulated user show the traits it was given? Statistics of judge ratings.

Every trait-drop figure assumes that an ``impatience=high`` user writes more impatiently
than an ``impatience=low`` one, throughout the conversation. From the stored ratings
(:mod:`tautrait_core.analysis.trait_rating`: 0-2 per user turn and trait) this module
gives, per run and trait, the requested intensity against the mean rated one; across
runs, their Spearman rank correlation; leakage, the mean rating of traits the run did not
request; and drift, the mean rating by position of the turn in its conversation (first,
middle or last third).

Requested intensities are 0 (low), 1 (medium) and 2 (high); a trait absent from the mix
is not requested and ranks below low in the correlation.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel

from tautrait_core.store.tables import RunRecord, TraitRatingRecord
from tautrait_core.trait_mix import TRAITS

if TYPE_CHECKING:
    from tautrait_core.store.results import ResultStore

TURN_THIRDS = ("first", "middle", "last")
ALL_RUNS = "all runs"
"""Key of the correlations over every run given (the others are per trait backend)."""
NOT_REQUESTED_RANK = -1
"""Where an absent trait ranks against the requested intensities 0-2."""


def turn_third(turn: int, turns: int) -> str:
    """``first``, ``middle`` or ``last``: where turn ``turn`` of ``turns`` falls.

    The turn's position ``turn / (turns - 1)`` runs from 0 to 1; below 1/3 is first,
    above 2/3 is last. A conversation's only turn is its first.
    """
    span = max(turns - 1, 0)
    if 3 * turn < span or span == 0:
        return "first"
    if 3 * turn > 2 * span:
        return "last"
    return "middle"


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in order[start : end + 1]:
            ranks[position] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (ties get their average rank).

    ``None`` when either side has fewer than 2 distinct values (no ranking to compare).
    """
    if len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    covariance = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    spread = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return covariance / spread


class TraitFidelity(BaseModel):
    """One trait of one run: what was requested, how it was rated."""

    trait: str
    requested: int | None
    """0 (low), 1 (medium), 2 (high), or ``None`` when the mix leaves the trait out."""
    mean_rating: float | None
    """Mean judge rating (0-2) over the run's rated user turns."""
    ratings: int
    by_third: dict[str, float | None]
    """Drift: mean rating of the turns in the first, middle and last third of their
    conversations."""


class RunTraitAudit(BaseModel):
    """One run's ratings by one judge model."""

    run_id: str
    traits: str
    """The run's trait mix label (``impatience=high``, ``none``)."""
    trait_backend: str
    episodes: int
    """Episodes with rated turns."""
    turns: int
    """Rated user turns."""
    fidelity: list[TraitFidelity]
    """One entry per trait, in the canonical order."""
    leakage: float | None
    """Mean rating of the traits the run did not request (``None`` if it requested all)."""

    def trait(self, name: str) -> TraitFidelity:
        """The entry of trait ``name``."""
        return next(entry for entry in self.fidelity if entry.trait == name)


class TraitAudit(BaseModel):
    """The ratings of one judge model over the runs given."""

    model: str
    runs: list[RunTraitAudit]
    correlations: dict[str, dict[str, float | None]]
    """Spearman correlation of requested against mean rated intensity across runs, per
    trait, over ``all runs`` and, when runs used several trait backends, per backend."""
    cost: float | None
    """Dollars the stored ratings cost (``None`` when a price is unknown)."""


def requested_levels(record: RunRecord) -> dict[str, int | None]:
    """``{trait: requested intensity or None}`` from a run's trait mix."""
    mix = record.run_config().user.traits.traits
    return {trait: mix.get(trait) for trait in TRAITS}


def _run_audit(record: RunRecord, ratings: list[TraitRatingRecord]) -> RunTraitAudit:
    requested = requested_levels(record)
    fidelity = []
    for trait in TRAITS:
        own = [r for r in ratings if r.trait == trait]
        thirds: dict[str, list[float]] = defaultdict(list)
        for rating in own:
            thirds[turn_third(rating.turn, rating.turns)].append(rating.rating)
        fidelity.append(
            TraitFidelity(
                trait=trait,
                requested=requested[trait],
                mean_rating=_mean([r.rating for r in own]),
                ratings=len(own),
                by_third={third: _mean(thirds[third]) for third in TURN_THIRDS},
            )
        )
    leaked = [r.rating for r in ratings if r.trait in requested and requested[r.trait] is None]
    return RunTraitAudit(
        run_id=record.id,
        traits=record.traits,
        trait_backend=record.run_config().user.trait_backend,
        episodes=len({(r.task_id, r.trial) for r in ratings}),
        turns=len({(r.task_id, r.trial, r.turn) for r in ratings}),
        fidelity=fidelity,
        leakage=_mean(leaked),
    )


def _correlations(runs: list[RunTraitAudit]) -> dict[str, float | None]:
    result: dict[str, float | None] = {}
    for trait in TRAITS:
        requested: list[float] = []
        rated: list[float] = []
        for entry in (run.trait(trait) for run in runs):
            if entry.mean_rating is not None:
                requested.append(NOT_REQUESTED_RANK if entry.requested is None else entry.requested)
                rated.append(entry.mean_rating)
        result[trait] = spearman(requested, rated)
    return result


def audit_runs(
    records: Sequence[RunRecord], ratings: dict[str, list[TraitRatingRecord]]
) -> list[TraitAudit]:
    """One audit per judge model that rated any of the runs (in model order).

    Args:
        records: The runs, in the order to show them.
        ratings: Each run's stored ratings, by run id.
    """
    models = sorted({r.model for run_ratings in ratings.values() for r in run_ratings})
    audits = []
    for model in models:
        runs, costs = [], []
        for record in records:
            own = [r for r in ratings.get(record.id, []) if r.model == model]
            if own:
                runs.append(_run_audit(record, own))
                costs += [r.cost for r in own]
        correlations = {ALL_RUNS: _correlations(runs)}
        backends = sorted({run.trait_backend for run in runs})
        if len(backends) > 1:
            for backend in backends:
                correlations[backend] = _correlations(
                    [run for run in runs if run.trait_backend == backend]
                )
        cost = None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)
        audits.append(TraitAudit(model=model, runs=runs, correlations=correlations, cost=cost))
    return audits


def stored_trait_audits(
    store: ResultStore, records: Sequence[RunRecord], model: str | None = None
) -> list[TraitAudit]:
    """:func:`audit_runs` over the ratings stored for the runs (of ``model`` only, if given)."""
    return audit_runs(
        records, {record.id: store.trait_ratings(record.id, model) for record in records}
    )
