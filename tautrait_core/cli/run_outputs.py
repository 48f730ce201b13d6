"""The files ``tautrait run`` writes besides the results database: their paths checked
before anything runs, and the upstream result list written after."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click

from tautrait_core.render.console import follow_up


def check_output_paths(config: Any) -> None:
    """Refuse, before anything runs, an output path that cannot be written (creating
    nothing): --results-db, and --result-fp or else --log-dir."""
    from tautrait_core.files import write_problem

    storage = config.storage
    paths = [("--results-db", storage.results_db), ("--result-fp", storage.export_path)]
    if not storage.export_path:  # --log-dir is unused with --result-fp
        paths.append(("--log-dir", storage.log_dir))
    for flag, value in paths:
        if not value:
            continue
        path, folder = Path(value), flag == "--log-dir"
        problem = write_problem(path, folder)
        if flag == "--results-db":  # SQLite also writes its journal beside the database
            problem = problem or write_problem(path.parent, folder=True)
        if problem:
            wanted = "a folder" if folder else "a file in a folder"
            raise click.ClickException(
                f"{flag} {path}: {problem}; nothing was run. Give {flag} {wanted} you can write"
            )


def write_result_list_of_run(report: Any, config: Any) -> Path:
    """Write the run's upstream result list (``--result-fp`` or into ``--log-dir``); if that
    fails, a ClickException says that the run is stored and how to write the file again."""
    from tautrait_core.errors import TautraitError
    from tautrait_core.interchange.result_files import default_file_name, write_result_list

    if config.storage.export_path:
        path = Path(config.storage.export_path)
    else:
        path = Path(config.storage.log_dir) / default_file_name(config)
    try:
        return write_result_list(
            report.run, report.results, config.with_settings(export_path=str(path))
        )
    except TautraitError as exc:
        export = f"tautrait export {report.run.id} --format tau-bench -o {shlex.quote(str(path))}"
        raise click.ClickException(
            f"{exc}. Run {report.run.id} is stored; write the file again with: "
            f"{follow_up(export, report.results_db)}"
        ) from exc
