"""``tautrait runs``: list stored runs (filtered by count, domain and date) and delete them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from tautrait_core.cli.root import (
    cli,
    json_option,
    library_call,
    open_store,
    results_db_option,
    run_ids_argument,
)
from tautrait_core.render.console import command_hint, console, echo_json, run_columns, runs_table


@cli.group()
def runs() -> None:
    """Stored runs."""


@runs.command("list")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the N newest runs.")
@click.option("--domain", default=None, help="Only runs of this domain.")
@click.option(
    "--since",
    type=click.DateTime(["%Y-%m-%d", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"]),
    default=None,
    help="Only runs created on or after this UTC date (YYYY-MM-DD [HH:MM]).",
)
@results_db_option
@json_option
def runs_list(
    limit: int | None,
    domain: str | None,
    since: dt.datetime | None,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """List stored runs, newest first (a run whose process is gone shows as stale)."""
    from tautrait_core.store.leases import STALE_STATUS
    from tautrait_core.store.results import RunFilter

    store = open_store(results_db)
    rows = []
    for record in store.list_runs(RunFilter(limit, domain, since)):
        counts = store.episode_counts(record.id)
        rows.append({**run_columns(record), **counts})
    if as_json:
        echo_json(rows)
        return
    out = console()
    if not rows:
        chosen = limit is not None or domain is not None or since is not None
        out.print(f"No runs {'match' if chosen else 'yet'} in {store.path}", markup=False)
        return
    out.print(runs_table(rows))
    for row in rows:
        if row["status"] == STALE_STATUS:
            lead = (
                f"Run {row['id']} is stale: its process is gone (killed or ended without a "
                "word). Continue it with"
            )
            resume = f"tautrait run --resume {row['id']}"
            out.print(command_hint(lead, resume, results_db), style="yellow", markup=False)


@runs.command("delete")
@run_ids_argument("RUN...")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@results_db_option
def runs_delete(run_ids: tuple[str, ...], yes: bool, results_db: Path | None) -> None:
    """Delete stored runs with their episodes, diagnoses and trait ratings.

    RUN is a run id, a unique prefix of one, 'latest', a run's name or a sweep's name (its
    runs; the sweep starts them anew when run again). A running run is refused.
    """
    from tautrait_core.store.housekeeping import delete_run
    from tautrait_core.store.run_names import with_sweep_runs

    store = open_store(results_db)
    names = library_call(with_sweep_runs, store, run_ids)
    records = {record.id: record for record in (library_call(store.get_run, n) for n in names)}
    if not yes:
        shown = ", ".join(records)
        click.confirm(f"Delete {len(records)} run(s) ({shown})?", abort=True, err=True)
    for run_id in records:
        deleted = library_call(delete_run, store, run_id)
        console().print(f"Deleted run {run_id} ({deleted.episodes} episodes)", markup=False)
