"""Which runs may be compared: settings, their differences, and base/trait-run groups.

A trait-drop comparison is only meaningful between runs that differ in nothing but the
trait mix. :func:`group_runs` pairs every run that has traits with the no-trait run
(its *base*) whose settings are the same, so a whole sweep can be passed at once: each
(domain, task set, agent model, user model, ...) combination forms its own group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tautrait_core.errors import TautraitError
from tautrait_core.store.tables import RunRecord
from tautrait_core.trait_mix import TRAITS, TraitMix

SELECTION_SETTINGS = ("task_set", "task_ids", "start", "end")
"""Settings replaced by what the run actually selected (its task set and task ids)."""


class ComparisonError(TautraitError):
    """Runs cannot be compared as asked (settings differ, or no no-trait base run)."""


def comparable_settings(record: RunRecord) -> dict[str, Any]:
    """Everything that defines a run's results except its trait mix.

    The task selection is taken from what the run resolved (task set name and task ids),
    so ``--start 0 --end 3`` and ``--task-ids 0,1,2`` compare as equal.
    """
    settings = record.run_config().settings()
    for name in ("traits", *SELECTION_SETTINGS):
        settings.pop(name, None)
    settings["task_set"] = record.task_set
    settings["task_ids"] = sorted(record.task_ids)
    return settings


def setting_differences(
    first: dict[str, Any], second: dict[str, Any]
) -> dict[str, tuple[Any, Any]]:
    """``{setting: (first value, second value)}`` for every setting that differs."""
    names = sorted(set(first) | set(second))
    return {
        name: (first.get(name), second.get(name))
        for name in names
        if first.get(name) != second.get(name)
    }


def describe_differences(differences: dict[str, tuple[Any, Any]]) -> str:
    """``agent_model ('gpt-4o' vs 'gpt-5'), temperature (0.0 vs 0.7)``."""
    return ", ".join(f"{name} ({_short(a)} vs {_short(b)})" for name, (a, b) in differences.items())


def _short(value: Any) -> str:
    if isinstance(value, list) and len(value) > 6:
        return f"[{len(value)} ids: {', '.join(map(str, value[:3]))}, ...]"
    return repr(value)


def trait_sort_key(mix: TraitMix) -> tuple[tuple[int, int], ...]:
    """Order trait mixes by trait (canonical order), then intensity."""
    return tuple((TRAITS.index(trait), level) for trait, level in mix.traits.items())


@dataclass
class GroupedRun:
    """A run with traits, and how its settings differ from its base (``--allow-mismatch``)."""

    record: RunRecord
    differences: dict[str, tuple[Any, Any]] = field(default_factory=dict)


@dataclass
class RunGroup:
    """A no-trait base run and the runs with traits compared against it."""

    base: RunRecord
    runs: list[GroupedRun] = field(default_factory=list)


def group_runs(records: list[RunRecord], allow_mismatch: bool = False) -> list[RunGroup]:
    """Group runs under their no-trait base runs (see the module docstring).

    With ``allow_mismatch``, a run with no exactly matching base is compared against the
    base whose settings differ least, and the differences are recorded with it.

    Raises:
        ComparisonError: there is no no-trait run; two runs are interchangeable (same
            settings and trait mix); or a run has no matching base and ``allow_mismatch``
            is off. The message names the runs and the settings that differ.
    """
    unique = list({record.id: record for record in records}.values())
    settings = {record.id: comparable_settings(record) for record in unique}
    bases = [r for r in unique if not r.run_config().user.traits]
    treated = [r for r in unique if r.run_config().user.traits]
    if not bases:
        raise ComparisonError(
            f"none of the runs {', '.join(r.id for r in unique)} is a no-trait run; the trait "
            "drop is measured against one. Add the run made with --traits none"
        )
    for index, base in enumerate(bases):
        twin = next((b for b in bases[:index] if settings[b.id] == settings[base.id]), None)
        if twin is not None:
            raise ComparisonError(
                f"runs {twin.id} and {base.id} are both no-trait runs with the same settings; "
                "pass only one of them as the base"
            )
    groups = {base.id: RunGroup(base) for base in bases}
    for record in treated:
        base = min(
            bases,
            key=lambda b: len(setting_differences(settings[b.id], settings[record.id])),
        )
        differences = setting_differences(settings[base.id], settings[record.id])
        if differences and not allow_mismatch:
            raise ComparisonError(
                f"run {record.id} ({record.traits}) has no no-trait base run with the same "
                f"settings; the closest, {base.id}, differs in {describe_differences(differences)}"
                ". Runs compared for a trait drop must differ only in their traits; pass "
                "--allow-mismatch to compare them anyway"
            )
        groups[base.id].runs.append(GroupedRun(record, differences))
    for group in groups.values():
        seen: dict[str, RunRecord] = {}
        for run in group.runs:
            twin = seen.setdefault(run.record.traits, run.record)
            if twin is not run.record:
                raise ComparisonError(
                    f"runs {twin.id} and {run.record.id} both have traits "
                    f"{run.record.traits!r} and compare against base {group.base.id}; "
                    "pass only one of them"
                )
    return list(groups.values())
