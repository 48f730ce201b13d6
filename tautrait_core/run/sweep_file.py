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

Keys are :class:`~tautrait_core.config.RunConfig` field names (the ``tautrait run`` options
with ``_`` for ``-``) and the names of the run options plugins declare (e.g. the steer
plugin's ``steer_endpoint``). Every point must pass :func:`~tautrait_core.run.prepared.prepare`.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tautrait_core.config import MOVED_TO_PLUGINS, RunConfig, declared_run_options
from tautrait_core.errors import SweepError, TautraitError

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
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise SweepError(f"cannot read sweep file {path}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SweepError(f"{path} is not valid TOML: {exc}") from exc
    unknown = sorted(set(data) - {"name", "base", "grid"})
    if unknown:
        raise SweepError(
            f"{path}: unknown top-level key(s) {', '.join(unknown)}; a sweep file has "
            'name = "...", a [base] table and a [grid] table'
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or "/" in name:
        raise SweepError(
            f'{path}: name must be a non-empty string without "/", e.g. name = "trait-grid"'
        )
    for table in ("base", "grid"):
        if not isinstance(data.get(table, {}), dict):
            raise SweepError(f"{path}: {table} must be a table ([{table}])")
    return build_sweep(name.strip(), data.get("base", {}), data.get("grid", {}), str(path))


def build_sweep(name: str, base: dict[str, Any], grid: dict[str, Any], source: str) -> Sweep:
    """Validate ``base`` and ``grid`` and prepare every point; errors name ``source``, the
    key and, for a grid point, the combination."""
    _check_keys(base, grid, source)
    errors: dict[str, None] = {}
    points = []
    combinations = itertools.product(*grid.values())
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


def _check_keys(base: dict[str, Any], grid: dict[str, Any], source: str) -> None:
    fields = set(RunConfig.model_fields) | set(declared_run_options()) | set(MOVED_TO_PLUGINS)
    for table, keys in (("base", base), ("grid", grid)):
        for key in keys:
            if key in RESERVED_KEYS:
                raise SweepError(
                    f"{source}: [{table}] {key} cannot be set in a sweep file: {RESERVED_KEYS[key]}"
                )
            if key not in fields:
                close = difflib.get_close_matches(key.replace("-", "_"), sorted(fields), n=1)
                hint = f"; did you mean {close[0]}?" if close else ""
                raise SweepError(
                    f"{source}: [{table}] {key} is not a run option{hint} (keys are the "
                    "`tautrait run` options with _ for -, e.g. agent_model)"
                )
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise SweepError(
                f"{source}: [grid] {key} must be a non-empty list of values, "
                f"e.g. {key} = [{_show(values)}]"
            )
        if key in base:
            raise SweepError(f"{source}: {key} is in both [base] and [grid]; keep one")


def _prepare_point(
    name: str,
    index: int,
    base: dict[str, Any],
    values: dict[str, Any],
    source: str,
    errors: dict[str, None],
) -> SweepPoint | None:
    from tautrait_core.run.prepared import prepare

    where = f"grid point {index} ({', '.join(f'{k}={_show(v)}' for k, v in values.items())})"
    try:
        config = RunConfig.model_validate({**base, **values, "run_name": f"{name}/{index}"})
        prepared = prepare(config)
    except ValidationError as exc:
        for error in exc.errors():
            key = str(error["loc"][0]) if error["loc"] else "?"
            table = "grid" if key in values else "base"
            at = f" at {where}" if table == "grid" else ""
            errors[f"[{table}] {key}{at}: {error['msg']}"] = None
        return None
    except TautraitError as exc:
        errors[f"{where if values else '[base]'}: {exc}"] = None
        return None
    episodes = len(prepared.task_ids) * prepared.config.num_trials
    return SweepPoint(index, values, prepared.config, episodes)


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else repr(value)
