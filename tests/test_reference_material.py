"""Where tests find the τ-Trait reference material: ``$TAUTRAIT_REFERENCE``, else the nearest
``shared/peers`` folder beside the checkout, else a skip that says how to provide it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tautrait_core.testing import missing_reference_material, reference_material_dir


def test_the_environment_variable_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "shared" / "peers").mkdir(parents=True)
    monkeypatch.setenv("TAUTRAIT_REFERENCE", str(tmp_path / "elsewhere"))
    assert reference_material_dir(tmp_path / "checkout") == tmp_path / "elsewhere"


def test_the_nearest_shared_peers_beside_the_checkout_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAUTRAIT_REFERENCE", raising=False)
    peers = tmp_path / "shared" / "peers"
    peers.mkdir(parents=True)
    test_file = tmp_path / "checkout" / "plugins" / "tautrait-clinic" / "tests" / "test_x.py"
    test_file.parent.mkdir(parents=True)
    test_file.write_text("")
    assert reference_material_dir(test_file) == peers


def test_without_material_the_expected_place_and_the_fix_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAUTRAIT_REFERENCE", raising=False)
    checkout = tmp_path / "checkout"
    (checkout / ".git").mkdir(parents=True)
    (checkout / "tests").mkdir()
    found = reference_material_dir(checkout / "tests")
    assert found == tmp_path / "shared" / "peers"
    assert not found.is_dir()
    reason = missing_reference_material(found)
    assert str(found) in reason and "TAUTRAIT_REFERENCE=" in reason


def test_the_fixture_skips_when_the_material_is_absent(tmp_path: Path) -> None:
    """A plugin's test that asks for ``reference_material`` is skipped, saying how to fix it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "test_needs_material.py").write_text(
        "def test_needs_material(reference_material):\n    raise AssertionError('not reached')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TAUTRAIT_REFERENCE"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert "1 skipped" in result.stdout, result.stdout + result.stderr
    assert "reference material not found" in result.stdout
    assert "TAUTRAIT_REFERENCE=" in result.stdout
