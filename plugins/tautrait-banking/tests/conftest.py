"""Fixtures of the banking plugin tests: τ³'s reference material, and its banking data laid
out where ``tautrait import tau2`` of a τ³ checkout puts it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def tau3_reference(reference_material: Path) -> Path:
    """The τ³ reference material (``tau3-bench/``; skipped, saying why, when absent)."""
    folder = reference_material / "tau3-bench"
    if not folder.is_dir():
        pytest.skip(f"τ³ reference material not found at {folder}")
    return folder


@pytest.fixture
def imported_banking(tau3_reference: Path, tautrait_home: Path) -> Path:
    """τ³'s banking_knowledge folder copied verbatim into the imported τ² data (as the
    τ³ import does); returns that folder."""
    from tautrait_core.tau2 import tau2_data_dir

    target = tau2_data_dir("banking_knowledge")
    shutil.copytree(tau3_reference / "data" / "banking_knowledge", target)
    return target


@pytest.fixture
def tau3_golden(tau3_reference: Path) -> Callable[[str], list[dict[str, Any]]]:
    """Factory: ``tau3_golden(name)``, the records of τ³'s ``golden/<name>.jsonl``."""

    def read(name: str) -> list[dict[str, Any]]:
        path = tau3_reference / "golden" / f"{name}.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line]

    return read
