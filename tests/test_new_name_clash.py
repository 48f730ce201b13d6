"""``tautrait new`` warns when the new plugin's name would clash with an official plugin
or an installed one (the package is still created)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.distributions import run_tautrait, toy_site


@pytest.mark.parametrize(
    ("kind", "name", "warning"),
    [
        ("domain", "retail", "'retail' shadows the official plugin tautrait-retail"),
        ("domain", "toylib", "domain 'toylib' is registered by an installed plugin"),
        ("user", "llm", "user 'llm' is registered by an installed plugin"),
    ],
)
def test_a_clashing_name_is_warned_about(
    tmp_path: Path, kind: str, name: str, warning: str
) -> None:
    site = toy_site(tmp_path / "site")
    home = {"TAUTRAIT_HOME": str(tmp_path / "home"), "TAUTRAIT_LOAD_PLUGINS": "toylib"}

    done = run_tautrait(site, "new", kind, name, "--dir", str(tmp_path), **home)

    assert done.returncode == 0, done.stderr
    assert done.stderr == f"Warning: {warning}: pick another NAME\n"
    assert (tmp_path / f"tautrait-{name}" / "pyproject.toml").exists()
