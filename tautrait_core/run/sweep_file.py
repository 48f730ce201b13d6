"""Sweep files: a grid of runs described in TOML, validated as a whole before anything runs.

A sweep file has a ``name``, a ``[base]`` table of run options fixed for every run, and a
``[grid]`` table of lists; every combination of the grid's values is one point, evaluated
by one run::

    name = "trait-grid"
    [base]
    agent = "oracle"
    num_trials = 4
    [grid]
    domain = ["telehealth", "retail"]
    traits = ["", "impatience=high"]

Keys are the flat keys of :class:`~tautrait_core.config.run_config.RunConfig` (the
``tautrait run`` options with ``_`` for ``-``) and the names of the run options plugins
declare (e.g. the steer plugin's ``steer_endpoint``). Every point must pass
:func:`~tautrait_core.run.prepared.prepare`.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tautrait_core.config.run_config import MOVED_TO_PLUGINS, RunConfig, run_config_keys
from tautrait_core.errors import SweepError, TautraitError, validation_problem
from tautrait_core.files import read_text_file
from tautrait_core.run.plugin_options import declared_run_options

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tautrait_core.run.prepared import PreparedRun

RESERVED_KEYS = {
    "resume": "continue a sweep with: tautrait sweep --resume NAME",
    "results_db": "pass --results-db on the command line",
    "run_name": "the sweep names its runs NAME/POINT",
    "export_path": "export runs afterwards with: tautrait export RUN_ID",
    "log_dir": "export runs afterwards with: tautrait export RUN_ID",
}
"""Run options a sweep file may not set, with what to do instead."""

MAX_ERRORS = 12


@dataclass
class SweepPoint:
    """One combination of the grid's values and the run configuration it gives."""

    index: int
    values: dict[str, Any]
    """The grid's value for each grid key at this point."""
    config: RunConfig
    """The prepared configuration (defaults resolved), without results database."""
    episodes: int
    """How many (task, trial) episodes the point's run has."""

    def label(self) -> str:
        """``domain=retail, traits=impatience=high`` (``base`` for a grid without keys)."""
        return ", ".join(f"{key}={_show(value)}" for key, value in self.values.items()) or "base"


@dataclass
class Sweep:
    """A validated sweep: its name, the file's tables and every grid point."""

    name: str
    base: dict[str, Any]
    grid: dict[str, list[Any]]
    source: str
    points: list[SweepPoint]

    @property
    def spec(self) -> dict[str, Any]:
        """What is stored to rebuild the sweep (``tautrait sweep --resume NAME``)."""
        return {"base": self.base, "grid": self.grid}

    @property
    def fingerprint(self) -> str:
        """A hash of every point's run settings (execution options such as concurrency and
        executor may change between invocations)."""
        settings = [[point.values, _fingerprint_settings(point.config)] for point in self.points]
        text = json.dumps(settings, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _fingerprint_settings(config: RunConfig) -> dict[str, Any]:
    """A point's settings in the layout sweeps were stored with before plugins declared run
    options (former fields back at the top, no empty ``plugin_options``), so a sweep stored
    then still resumes."""
    settings = config.settings()
    options = dict(settings.pop("plugin_options"))
    for field in set(MOVED_TO_PLUGINS.values()):
        settings[field] = options.pop(field, None)
    if options:
        settings["plugin_options"] = options
    return settings


def load_sweep_file(path: Path) -> Sweep:
    """Read and validate a sweep file (see the module docstring)."""
    text = read_text_file(path, SweepError, "the sweep file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SweepError(_toml_problem(path, text, exc)) from exc
    except RecursionError as exc:
        raise SweepError(f"{path}: the sweep file is nested too deeply to parse") from exc
    problems = []
    unknown = sorted(set(data) - {"name", "base", "grid"})
    if unknown:
        problems.append(
            f"unknown top-level key(s) {', '.join(unknown)}; a sweep file has "
            'name = "...", a [base] table and a [grid] table'
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or "/" in name:
        problems.append('name must be a non-empty string without "/", e.g. name = "trait-grid"')
        name = "sweep"
    tables = {}
    for table in ("base", "grid"):
        tables[table] = data.get(table, {})
        if not isinstance(tables[table], dict):
            problems.append(f"{table} must be a table ([{table}])")
            tables[table] = {}
    return build_sweep(name.strip(), tables["base"], tables["grid"], str(path), problems)


def build_sweep(
    name: str,
    base: dict[str, Any],
    grid: dict[str, Any],
    source: str,
    problems: list[str] | None = None,
) -> Sweep:
    """Validate ``base`` and ``grid`` and prepare every point; one :class:`SweepError`
    lists every problem (up to ``MAX_ERRORS``, after ``problems`` found already), each
    naming the key and, for a grid point, the combination."""
    errors: dict[str, None] = dict.fromkeys(problems or [])
    bad_keys = _key_problems(base, grid, errors)
    base = {key: value for key, value in base.items() if key not in bad_keys}
    grid = {key: values for key, values in grid.items() if key not in bad_keys}
    points = []
    combinations: Iterable[tuple[Any, ...]] = itertools.product(*grid.values())
    if not {"domain", "task_set"} & {*base, *grid}:  # not once for every point
        errors['no domain: add domain = "NAME" to [base] (tautrait plugins lists them)'] = None
        combinations = ()
    for index, combination in enumerate(combinations):
        values = dict(zip(grid, combination, strict=True))
        point = _prepare_point(name, index, base, values, source, errors)
        if point is not None:
            points.append(point)
        if len(errors) >= MAX_ERRORS:
            break
    if errors:
        listed = "\n  ".join(errors)
        raise SweepError(f"{source} has {len(errors)} problem(s); nothing was run:\n  {listed}")
    return Sweep(
        name, dict(base), {key: list(values) for key, values in grid.items()}, source, points
    )


def _key_problems(base: dict[str, Any], grid: dict[str, Any], errors: dict[str, None]) -> set[str]:
    """Add a problem to ``errors`` for each unusable key; return those keys."""
    fields = set(run_config_keys()) | set(declared_run_options()) | set(MOVED_TO_PLUGINS)
    bad: set[str] = set()
    for table, keys in (("base", base), ("grid", grid)):
        for key in keys:
            if key in RESERVED_KEYS:
                errors[f"[{table}] {key} cannot be set in a sweep file: {RESERVED_KEYS[key]}"] = (
                    None
                )
                bad.add(key)
            elif key not in fields:
                close = difflib.get_close_matches(key.replace("-", "_"), sorted(fields), n=1)
                hint = f"; did you mean {close[0]}?" if close else ""
                errors[
                    f"[{table}] {key} is not a run option{hint} (keys are the "
                    "`tautrait run` options with _ for -, e.g. agent_model)"
                ] = None
                bad.add(key)
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            errors[
                f"[grid] {key} must be a non-empty list of values, e.g. {key} = [{_show(values)}]"
            ] = None
            bad.add(key)
        elif key in base:
            errors[f"{key} is in both [base] and [grid]; keep one"] = None
            bad.add(key)
    return bad


def _prepare_point(
    name: str,
    index: int,
    base: dict[str, Any],
    values: dict[str, Any],
    source: str,
    errors: dict[str, None],
) -> SweepPoint | None:
    where = f"grid point {index} ({', '.join(f'{k}={_show(v)}' for k, v in values.items())})"
    place = where if values else "[base]"
    settings = {**base, **values, "run_name": f"{name}/{index}"}
    invalid: set[str] = set()
    # a second try leaves the invalid settings out, so that the problems of the others
    # (an unknown domain beside a bad num_trials) are listed too
    for _attempt in range(2):
        try:
            config = RunConfig.model_validate(
                {key: value for key, value in settings.items() if key not in invalid}
            )
            break
        except ValidationError as exc:
            if invalid:
                return None
            invalid = _note_invalid(exc, values, where, errors)
        except TautraitError as exc:
            errors[f"{place}: {exc}"] = None
            return None
    prepared = _record_problem(config, place, errors)
    if prepared is None or invalid:
        return None
    episodes = len(prepared.task_ids) * prepared.config.num_trials
    return SweepPoint(index, values, prepared.config, episodes)


def _note_invalid(
    exc: ValidationError, values: dict[str, Any], where: str, errors: dict[str, None]
) -> set[str]:
    """Add each problem of ``exc`` to ``errors``; return the keys that have one."""
    invalid = set()
    for error in exc.errors():
        key = str(error["loc"][0]) if error["loc"] else "?"
        invalid.add(key)
        table = "grid" if key in values else "base"
        at = f" at {where}" if table == "grid" else ""
        errors[f"[{table}] {key}{at}: {validation_problem(error)}"] = None
    return invalid


def _record_problem(config: RunConfig, where: str, errors: dict[str, None]) -> PreparedRun | None:
    """``config`` prepared, or ``None`` after adding why it cannot be to ``errors``."""
    from tautrait_core.run.prepared import prepare

    try:
        return prepare(config)
    except TautraitError as exc:
        errors[f"{where}: {exc}"] = None
        return None


def _toml_problem(path: Path, text: str, exc: tomllib.TOMLDecodeError) -> str:
    """``PATH:LINE:COLUMN: bad TOML: what`` for a file ``tomllib`` cannot parse."""
    found = re.fullmatch(r"(.*) \(at (?:line (\d+), column (\d+)|end of document)\)", str(exc))
    if found is None:
        return f"{path}: bad TOML: {exc}"
    what, line, column = found.groups()
    if line is None:  # at the end of the document: its last line, after its last character
        lines = text.split("\n")
        line, column = str(len(lines)), str(len(lines[-1]) + 1)
    return f"{path}:{line}:{column}: bad TOML: {what[:1].lower()}{what[1:]}"


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else repr(value)
