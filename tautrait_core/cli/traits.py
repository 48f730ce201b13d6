"""``tautrait traits``: did the simulated users show the traits they were given?"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from tautrait_core.cli.root import (
    cli,
    concurrency_option,
    json_option,
    judge_options,
    judge_spec,
    library_call,
    max_cost_option,
    open_store,
    results_db_option,
    run_ids_argument,
)
from tautrait_core.money import format_cost
from tautrait_core.render.console import console, echo_json

if TYPE_CHECKING:
    from tautrait_core.analysis.trait_rating import RatingReport


@cli.group()
def traits() -> None:
    """Trait fidelity: how strongly the simulated users showed their traits."""


@traits.command()
@run_ids_argument("RUN...")
@judge_options("litellm model that rates the user turns not rated yet [default: only report].")
@concurrency_option("User turns rated at once.")
@max_cost_option("Stop starting judge calls once this command has spent this many dollars.")
@results_db_option
@json_option
def audit(
    run_ids: tuple[str, ...],
    judge_model: str | None,
    judge_api_base: str | None,
    concurrency: int,
    max_cost: float | None,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """Rate each user turn of the runs on every trait (0-2) and compare with the trait mix.

    With --judge-model, the judge rates every user turn that has no rating by it yet (one
    call per turn, all four traits at once, blind to the requested mix) and the ratings
    are stored with the runs; without it the stored ratings are reported. The report
    gives per run and trait the mean rating against the requested intensity, leakage
    (ratings of traits not requested), drift (ratings by turn position) and, across
    runs, the rank correlation of requested and rated intensity.
    """
    import asyncio

    from tautrait_core.analysis.trait_audit import stored_trait_audits
    from tautrait_core.analysis.trait_rating import rate_runs
    from tautrait_core.render.terminal import trait_audit_view, trait_drift_view
    from tautrait_core.store.run_names import with_sweep_runs

    store = open_store(results_db)
    names = library_call(with_sweep_runs, store, run_ids)
    records = [library_call(store.get_run, run_id) for run_id in names]
    rating = None
    if judge_model is not None:
        spec = judge_spec(judge_model, judge_api_base, "judge", "trait_judge")
        rating = library_call(asyncio.run, rate_runs(store, records, spec, concurrency, max_cost))
    audits = stored_trait_audits(store, records, judge_model)
    if as_json:
        echo_json(
            {
                "rating": _rating_json(rating) if rating is not None else None,
                "audits": [audit.model_dump() for audit in audits],
            }
        )
        return
    out = console()
    if rating is not None:
        _print_rating(rating, judge_model or "", max_cost)
    if not audits:
        raise click.ClickException(
            "no trait ratings stored for these runs; rate their user turns with: "
            f"tautrait traits audit {' '.join(run_ids)} --judge-model MODEL"
        )
    for index, audit_of_model in enumerate(audits):
        if index:
            out.print()
        for view in [*trait_audit_view(audit_of_model), *trait_drift_view(audit_of_model)]:
            out.print(view)


def _rating_json(rating: RatingReport) -> dict[str, object]:
    return {
        "rated_turns": rating.turns_rated,
        "ratings": len(rating.rated),
        "skipped": rating.skipped,
        "not_started": rating.not_started,
        "unreadable": [list(item) for item in rating.unreadable],
        "failed": [list(item) for item in rating.failed],
        "cost": rating.cost,
    }


def _print_rating(rating: RatingReport, model: str, max_cost: float | None) -> None:
    out = console(stderr=True)
    out.print(
        f"Rated {rating.turns_rated} user turns with {model} ({rating.skipped} already rated); "
        f"cost {format_cost(rating.cost)}",
        markup=False,
    )
    for run_id, task_id, trial, turn, why in rating.unreadable + rating.failed:
        out.print(
            f"  not rated: run {run_id} task {task_id} trial {trial} turn {turn}: {why}",
            markup=False,
        )
    if rating.not_started:
        out.print(
            f"Stopped early: --max-cost {max_cost} reached; {rating.not_started} user turns "
            "left unrated.",
            markup=False,
            style="yellow",
        )
    if max_cost is not None and rating.cost is None:
        out.print(
            f"The price of {model} is unknown, so --max-cost could not limit the spending.",
            markup=False,
            style="yellow",
        )
    if rating.unreadable or rating.failed or rating.not_started:
        out.print("Run the command again to rate the turns left.", markup=False)
