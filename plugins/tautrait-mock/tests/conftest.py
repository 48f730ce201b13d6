"""Fixtures of the mock plugin tests: τ²-bench's mock domain imported from the reference."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def imported_mock(tau2_imported: Callable[..., Path]) -> Path:
    """τ²-bench's mock domain imported into a private tautrait home."""
    return tau2_imported("mock")
