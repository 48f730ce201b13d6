"""``tautrait view``: browse stored runs, their episodes and transcripts in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tautrait_core.cli.root import cli, library_call, open_store, results_db_option


@cli.command(short_help="Browse runs, failed episodes and their transcripts.")
@click.argument("run_id", required=False, metavar="[RUN]")
@results_db_option
def view(run_id: str | None, results_db: Path | None) -> None:
    """Browse stored runs in the terminal: pick a run, show only the episodes that
    failed, read a transcript with its tool calls and reward breakdown.

    RUN (a run id, a unique prefix of one, or 'latest') opens that run's episodes at
    once. Type an entry's number and Enter to open it; the keys of each screen are
    listed above its prompt (q quits).
    """
    from tautrait_core.render.run_browser import browse

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.ClickException(
            "tautrait view needs a terminal; in scripts: tautrait report RUN --tasks"
        )
    store = open_store(results_db)
    if run_id is None and not store.list_runs():  # an empty list would wait for a number
        raise click.ClickException(f"no runs yet in {store.path}")
    if run_id is not None:
        run_id = library_call(store.get_run, run_id).id
    browse(store, run_id)
