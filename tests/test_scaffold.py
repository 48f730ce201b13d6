"""``tautrait new``: generated plugin packages install and pass their own tests unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli


def install_and_test(package: Path, site: Path, home: Path) -> subprocess.CompletedProcess[str]:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(site),
            str(package),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    env = {k: v for k, v in os.environ.items() if k != "TAUTRAIT_LOAD_PLUGINS"}
    env.update(PYTHONPATH=str(site), TAUTRAIT_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package / "tests")],
        capture_output=True,
        text=True,
        env=env,
        cwd=package,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("kind", "name", "options", "passed"),
    [
        ("domain", "bakery", [], "11 passed"),
        ("domain", "phone-shop", ["--dual-control"], "16 passed"),
        ("user", "brief-customer", [], "2 passed"),
    ],
)
def test_generated_plugin_installs_and_passes_its_tests(
    tmp_path: Path, kind: str, name: str, options: list[str], passed: str
) -> None:
    result = CliRunner().invoke(cli, ["new", kind, name, *options, "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    package = tmp_path / f"tautrait-{name}"
    assert (package / "pyproject.toml").read_text().count(
        f'{name} = "tautrait_{name.replace("-", "_")}"'
    ) == 1
    tests = install_and_test(package, tmp_path / "site", tmp_path / "home")
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert passed in tests.stdout


def test_bad_names_and_existing_folders_are_refused(tmp_path: Path) -> None:
    runner = CliRunner()
    assert (
        "invalid name"
        in runner.invoke(cli, ["new", "domain", "Bad Name", "--dir", str(tmp_path)]).output
    )
    assert runner.invoke(cli, ["new", "domain", "shop", "--dir", str(tmp_path)]).exit_code == 0
    assert (
        "already exists"
        in runner.invoke(cli, ["new", "domain", "shop", "--dir", str(tmp_path)]).output
    )
