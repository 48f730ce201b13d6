"""``tautrait check``: task-set defects, found by replaying gold actions (no model)."""

from __future__ import annotations

from collections import Counter

import click

from tautrait_core.cli.root import cli, json_option, library_call
from tautrait_core.render.console import console, echo_json


@cli.command()
@click.option("--domain", required=True, help="The domain whose tasks to check.")
@click.option("--task-set", default=None, help="Task set (default: the domain's default).")
@json_option
def check(domain: str, task_set: str | None, as_json: bool) -> None:
    """Report defective tasks: gold actions that error, unknown tools or bad arguments,
    required outputs no tool output contains, unknown user ids, write actions that
    change nothing, and τ²-style tasks whose criteria are empty or that the noop agent,
    which does nothing, passes. Shows the task set's splits. Exits with status 1 when any
    task has a problem."""
    from tautrait_core.domain.task_sets import (
        all_task_sets,
        resolve_task_set,
        split_sizes,
        template_for,
    )
    from tautrait_core.grading.checks import check_task_set
    from tautrait_core.plugins import lookup

    found = library_call(lookup, "domain", domain)
    selected = library_call(resolve_task_set, found, task_set)
    template = library_call(template_for, found, selected)
    reports = library_call(check_task_set, found, selected, template)
    defective = [r for r in reports if r.problems]
    whole = all_task_sets(found).get(selected.name.split("/")[0])
    splits = library_call(split_sizes, whole) if whole is not None else {}
    kinds = Counter(p.kind for r in reports for p in r.problems)
    if as_json:
        echo_json(
            {
                "domain": domain,
                "task_set": selected.name,
                "tasks": len(reports),
                "rules": selected.rules,
                "splits": splits,
                "defective_tasks": len(defective),
                "problems_by_kind": dict(sorted(kinds.items())),
                "reports": [r.model_dump() for r in defective],
            }
        )
    else:
        out = console()
        for report in defective:
            who = f" (user {report.user_id})" if report.user_id else ""
            out.print(f"task {report.task_name or report.task_id}{who}:")
            for problem in report.problems:
                where = (
                    f"action {problem.action_index}: " if problem.action_index is not None else ""
                )
                out.print(f"  {problem.kind}: {where}{problem.detail}")
        if splits:
            sizes = ", ".join(f"{name} {count}" for name, count in splits.items())
            out.print(f"splits of {whole.name}: {sizes}")  # type: ignore[union-attr]
        if selected.rules == "tau3":
            out.print(f"{selected.name} follows τ³'s rules (τ²-bench v1.x)")
        summary = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        out.print(
            f"{domain}/{selected.name}: {len(reports)} tasks, {len(defective)} with problems"
            + (f" ({summary})" if summary else "")
        )
    if defective:
        raise SystemExit(1)
