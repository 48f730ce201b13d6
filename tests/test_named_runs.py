"""Where a command takes runs it takes a sweep's name too; a sweep file's problems are
listed together; a mistyped name suggests the installed one; an export that writes
nothing says why."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.distributions import run_tautrait, toy_site
from tests.plugins.toy_library import TASKS


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return toy_site(tmp_path / "site")


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    return {
        "TAUTRAIT_HOME": str(tmp_path / "home"),
        "TAUTRAIT_LOAD_PLUGINS": "toylib",
        "COLUMNS": "80",
    }


def tautrait(site: Path, home: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return run_tautrait(site, *arguments, **home)


def run_sweep(site: Path, home: dict[str, str], tmp_path: Path, name: str, traits: str) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f"name = '{name}'\n[base]\ndomain = 'toylib'\nagent = 'oracle'\n[grid]\ntraits = {traits}\n"
    )
    done = tautrait(site, home, "sweep", str(path))
    assert done.returncode == 0, done.stderr


def test_a_sweep_name_stands_for_its_runs(site: Path, home: dict[str, str], tmp_path: Path) -> None:
    run_sweep(site, home, tmp_path, "trait-grid", "['', 'impatience=high']")
    run_sweep(site, home, tmp_path, "single", "['']")

    sft = tautrait(site, home, "export", "trait-grid", "--format", "sft")
    assert sft.returncode == 0, sft.stderr
    assert len(sft.stdout.splitlines()) == 2 * len(TASKS)
    one = tautrait(site, home, "export", "single")
    assert one.returncode == 0, one.stderr
    assert len(json.loads(one.stdout)) == len(TASKS)
    shown = tautrait(site, home, "show", "single", "--task", "0")
    assert shown.returncode == 0, shown.stderr
    several = tautrait(site, home, "export", "trait-grid")
    assert several.returncode == 1
    assert "sweep 'trait-grid' has 2 runs and this command takes one" in several.stderr
    assert "(trait-grid/0, trait-grid/1)" in several.stderr
    audit = tautrait(site, home, "traits", "audit", "trait-grid")
    assert "no trait ratings stored for these runs" in audit.stderr


def test_every_problem_of_a_sweep_file_is_listed_at_once(
    site: Path, home: dict[str, str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        "name = 'x'\n[base]\nagent = 'oracle'\nnum_trials = 0\n[grid]\ndomain = ['nowhere']\n"
    )

    done = tautrait(site, home, "sweep", str(path))

    assert done.returncode == 1
    assert "has 2 problem(s); nothing was run" in done.stderr
    assert "[base] num_trials: Input should be greater than or equal to 1" in done.stderr
    assert "grid point 0 (domain='nowhere'): unknown domain 'nowhere'" in done.stderr


def test_a_mistyped_domain_suggests_the_installed_one(site: Path, home: dict[str, str]) -> None:
    done = tautrait(site, home, "run", "--domain", "toylbi", "--agent", "oracle")

    assert done.returncode == 1
    said = "Error: unknown domain 'toylbi'; did you mean 'toylib'? (see: tautrait plugins)\n"
    assert done.stderr == said
    assert "pip install" not in done.stderr


def test_a_preference_export_without_pairs_says_why(
    site: Path, home: dict[str, str], tmp_path: Path
) -> None:
    ran = tautrait(site, home, "run", "--domain", "toylib", "--agent", "oracle")
    assert ran.returncode == 0, ran.stderr

    done = tautrait(site, home, "export", "latest", "--format", "preference")

    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    expected = f"no task and trait mix both passed and failed ({len(TASKS)} pass, 0 fail)"
    assert done.stderr == f"No pairs written: {expected}\n"
