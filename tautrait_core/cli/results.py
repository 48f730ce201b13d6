"""Commands over installed parts and stored results: plugins, tasks, export, import,
import-results."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tautrait_core.cli.root import (
    cli,
    json_option,
    library_call,
    open_store,
    results_db_option,
    run_ids_argument,
)
from tautrait_core.errors import ConfigError
from tautrait_core.files import open_for_writing, write_text_file
from tautrait_core.render.console import (
    command_hint,
    console,
    echo_json,
    fit_fields,
    plugins_table,
    prose,
    shortened,
)

if TYPE_CHECKING:
    from tautrait_core.interchange.tau2_import import Tau2Import
    from tautrait_core.interchange.tau_trait_import import DomainImport


@cli.command()
@json_option
def plugins(as_json: bool) -> None:
    """List installed plugins: distribution, version and what each registers."""
    from tautrait_core.plugins import get_plugin_manager

    infos = library_call(get_plugin_manager().plugin_infos)
    if as_json:
        echo_json([info.__dict__ for info in infos])
        return
    console().print(plugins_table(infos))


@cli.command()
@click.option("--domain", required=True, help="The domain whose tasks to list.")
@click.option("--task-set", default=None, help="Task set (default: the domain's default).")
@json_option
def tasks(domain: str, task_set: str | None, as_json: bool) -> None:
    """List a domain's task sets, or the tasks of one set."""
    from tautrait_core.domain.task_sets import all_task_sets, resolve_task_set
    from tautrait_core.plugins import lookup

    found = library_call(lookup, "domain", domain)
    if task_set is None:
        sets = all_task_sets(found)
        rows = [
            {
                "task_set": name,
                "tasks": len(library_call(getattr, s, "tasks")),
                "description": s.description,
            }
            for name, s in sets.items()
        ]
        if as_json:
            echo_json(rows)
        else:
            for row in rows:
                console().print(
                    f"{row['task_set']:<20} {row['tasks']:>5} tasks  {row['description']}"
                )
        return
    selected = library_call(resolve_task_set, found, task_set)
    task_list = library_call(getattr, selected, "tasks")
    if as_json:
        echo_json([task.model_dump() for task in task_list])
        return
    out = console()
    for index, task in enumerate(task_list):
        lead = f"{index:>4}  {task.user_id:<28} {len(task.actions):>2} actions  "
        summary = shortened(" ".join(task.instruction.split()), max(20, out.width - len(lead)))
        out.print(lead + summary, markup=False)


@cli.command()
@run_ids_argument("RUN...")
@click.option(
    "--format",
    "export_format",
    type=click.Choice(["tau-bench", "tau2", "sft", "preference"]),
    default="tau-bench",
    help="tau-bench (the default): upstream's result list (one run); tau2: τ²-bench's "
    "results file (one run); sft: one chat-format conversation per line (JSONL); "
    "preference: pairs of a passing and a failing episode (JSONL).",
)
@click.option(
    "--outcome",
    type=click.Choice(["pass", "fail", "all"]),
    default=None,
    help="sft: which episodes to write [default: pass]; error episodes are never written.",
)
@click.option(
    "--min-reward", type=float, default=None, help="sft: only episodes with this reward or more."
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File to write [default: standard output].",
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="tau2: write τ³'s folder format here (results.json and simulations/<id>.json).",
)
@results_db_option
def export(
    run_ids: tuple[str, ...],
    export_format: str,
    outcome: str | None,
    min_reward: float | None,
    output: Path | None,
    folder: Path | None,
    results_db: Path | None,
) -> None:
    """Export runs: upstream's result-list JSON (task_id, reward, info, traj, trial),
    τ²-bench's results file (tau2; τ³'s v1.0.1 shape for a τ³ task set, its folder
    format with --dir), or training data in the OpenAI chat fine-tuning shape
    (sft, preference)."""
    if export_format != "sft" and (outcome is not None or min_reward is not None):
        raise click.UsageError("--outcome and --min-reward apply to --format sft only")
    store = open_store(results_db)
    if export_format in ("tau-bench", "tau2"):
        if len(run_ids) > 1:
            raise click.UsageError(f"--format {export_format} exports one run: give one RUN id")
        from tautrait_core.interchange.result_files import result_list, tau2_result_file

        record = library_call(store.get_run, run_ids[0])
        if folder is not None and export_format != "tau2":
            raise click.UsageError("--dir applies to --format tau2 only")
        if export_format == "tau2":
            data = library_call(tau2_result_file, record, store.episodes(record.id))
            if folder is not None:
                from tautrait_core.interchange.tau3_results import write_tau3_dir

                library_call(write_tau3_dir, data, folder)
                console(stderr=True).print(f"Wrote {folder}", markup=False)
                return
        else:
            from tautrait_core.interchange.run_tasks import tasks_of_run

            tasks = library_call(tasks_of_run, record.domain, record.task_set)
            data = result_list(store.episodes(record.id), tasks)
        text = json.dumps(data, indent=2)
        if output is None:
            click.echo(text)
        else:
            write_text_file(output, text, ConfigError, "the export")
            console(stderr=True).print(f"Wrote {output}", markup=False)
        return
    from tautrait_core.interchange import training_data
    from tautrait_core.store.run_names import with_sweep_runs

    names = library_call(with_sweep_runs, store, run_ids)
    episodes = library_call(training_data.stored_episodes, store, names)
    if export_format == "sft":
        chosen = training_data.select_episodes(episodes, outcome or "pass", min_reward)  # type: ignore[arg-type]
        records = training_data.sft_records(chosen)
    else:
        records = training_data.preference_records(episodes)
        if not records:
            reason = training_data.no_pairs_reason(episodes)
            console(stderr=True).print(f"No pairs written: {reason}", markup=False)
            return
    if output is None:
        lines = io.StringIO()
        training_data.write_jsonl(records, lines)
        click.echo(lines.getvalue(), nl=False)
        return
    with open_for_writing(output, ConfigError, "the export") as stream:
        count = training_data.write_jsonl(records, stream)
    console(stderr=True).print(f"Wrote {count} {export_format} lines to {output}", markup=False)


@cli.command("import")
@click.argument("source", type=click.Choice(["tau-trait", "tau2"]))
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
def import_command(source: str, path: Path) -> None:
    """Import upstream task sets and data from the checkout at PATH.

    The first argument says which upstream the checkout is: tau-trait for
    τ-Trait, tau2 for τ²-bench. Its task files are parsed, never executed.
    Afterwards run the imported task sets with:

    \b
      tautrait run --domain retail --task-set tau-trait:test   (or :train, :dev)
      tautrait run --domain tau2-retail --task-set tau2:retail
    and so on: tau2-<domain> with tau2:<domain> (e.g. tau2:telecom-small).
    """
    if source == "tau2":
        _import_tau2(path)
        return
    from tautrait_core.interchange.tau_trait_import import import_tau_trait
    from tautrait_core.plugins import get_plugin_manager

    manager = get_plugin_manager()
    domains = [manager.get("domain", name) for name in library_call(manager.names, "domain")]
    reports = library_call(import_tau_trait, path, domains)
    first = next(item for item in reports if item.splits)
    example = f"--domain {first.domain} --task-set tau-trait:{next(iter(first.splits))}"
    _print_imports(reports, _tau_trait_imported, example)


def _tau_trait_imported(item: DomainImport) -> str:
    if not item.splits:
        return "nothing imported"
    splits = ", ".join(f"tau-trait:{s} ({n} tasks)" for s, n in item.splits.items())
    return f"{splits}; data: {len(item.data_files)} files"


def _import_tau2(path: Path) -> None:
    from tautrait_core.interchange.tau2_import import import_tau2

    reports = library_call(import_tau2, path)
    imported = [item for item in reports if item.task_sets]
    # τ³: show a test split where there is one
    first = next((item for item in imported if "test" in str(item.splits)), imported[0])
    example_set = next(iter(first.task_sets))
    if "test" in first.splits.get(example_set, {}):
        example_set += "/test"
    example = f"--domain tau2-{first.domain} --task-set {example_set}"
    if first.rules == "tau3":
        console().print("τ³ checkout (τ²-bench v1.x): its task sets follow τ³'s rules.")
    _print_imports(reports, _tau2_imported, example)


def _tau2_imported(item: Tau2Import) -> str:
    sets = []
    for name, count in item.task_sets.items():
        splits = item.splits.get(name)
        sizes = f"; splits {', '.join(f'{s} {n}' for s, n in splits.items())}" if splits else ""
        sets.append(f"{name} ({count} tasks{sizes})")
    return ", ".join(sets) or "nothing imported"


def _print_imports(
    reports: Sequence[DomainImport] | Sequence[Tau2Import],
    imported: Callable[[Any], str],
    example: str,
) -> None:
    """Each domain's line (``imported`` says what it got) and what it skipped, then how to
    run what was imported (``example``: the `tautrait run` options of one task set)."""
    out = console()
    for item in reports:
        line = f"{item.domain}: {imported(item)} -> {item.folder}"
        if len(line) > 80:  # the folder on a line of its own, never cut
            got = fit_fields(f"{item.domain}: {imported(item)}", separator=", ", indent="  ")
            line = f"{got}\n  -> {item.folder}"
        out.print(line, markup=False, soft_wrap=True)
        for problem in item.problems:
            out.print(f"  skipped: {problem}")
        for note in item.notes:
            out.print(f"  {note}")
    command = f"tautrait run {example} ..."
    out.print(command_hint("Run one with", command, None), markup=False, soft_wrap=True)


@cli.command("import-results")
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--domain", default=None, help="Domain [default: read from the file name].")
@click.option("--name", default=None, help="Run name [default: the file name].")
@click.option("--task-set", default=None, help="Task set [default: tau-trait:test].")
@click.option("--traits", default=None, help="Trait mix, or none [default: from the file name].")
@click.option(
    "--agent", default=None, help="Agent strategy [default: the file's, else tool-calling]."
)
@click.option("--agent-model", default=None, help="The agent's model.")
@click.option("--user", default=None, help="User strategy [default: the file's, else llm].")
@click.option("--user-model", default=None, help="The user simulator's model.")
@results_db_option
@json_option
def import_results(
    file: Path,
    domain: str | None,
    name: str | None,
    task_set: str | None,
    traits: str | None,
    agent: str | None,
    agent_model: str | None,
    user: str | None,
    user_model: str | None,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """Store an upstream result-list JSON file (tau-bench / tau-Trait) as a run.

    The file holds the episodes but not the settings, so give them as options; they
    decide which runs compare with it.
    """
    from tautrait_core.interchange.result_import import ImportSettings, import_result_list
    from tautrait_core.plugins import get_plugin_manager
    from tautrait_core.trait_mix import TraitMix

    settings = ImportSettings(
        domain=domain,
        name=name,
        task_set=task_set,
        traits=None if traits is None else library_call(TraitMix.parse, traits),
        agent=agent,
        agent_model=agent_model,
        user=user,
        user_model=user_model,
    )
    store = open_store(results_db, create=True)
    known = get_plugin_manager().names("domain")
    imported = library_call(import_result_list, store, file, settings, known)
    record = imported.record
    if as_json:
        echo_json(
            {
                "run": record.model_dump(exclude={"config"}),
                "episodes": imported.episodes,
                "duplicates": imported.duplicates,
            }
        )
        return
    out = console()
    out.print(
        prose(
            f"Imported {imported.episodes} episodes from {file} as run {record.id} "
            f"({record.domain}/{record.task_set}, traits {record.traits})"
        ),
        markup=False,
    )
    if imported.duplicates:
        out.print(f"{imported.duplicates} repeated (task, trial) records: the later one was kept")
    hint = command_hint("Report it with", f"tautrait report {record.id}", results_db)
    out.print(hint, markup=False)
