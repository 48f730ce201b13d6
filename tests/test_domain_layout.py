"""The domain plugins share one package layout, and ``tautrait new domain`` produces it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tautrait_core.scaffold import create_plugin

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
DOMAINS = ("retail", "airline", "telecom", "telehealth")
LAYOUT = (
    "__init__.py",
    "domain.py",
    "schema.py",
    "tools/__init__.py",
    "upstream.py",
    "policy.md",
    "data",
    "tasks/test.json",
)
"""What every domain package holds, by the same name for the same job."""
WITHOUT_GENERATOR = {"telehealth"}
"""Domains whose data is written by hand (see their README); the others have datagen.py."""


def missing_parts(package: Path, with_generator: bool) -> list[str]:
    expected = [*LAYOUT, *(["datagen.py"] if with_generator else [])]
    return [part for part in expected if not (package / part).exists()]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_domain_plugin_has_the_shared_layout(domain: str) -> None:
    package = PLUGINS / f"tautrait-{domain}" / f"tautrait_{domain}"
    assert missing_parts(package, domain not in WITHOUT_GENERATOR) == []
    assert list((package / "data").glob("*.json"))


def test_the_scaffold_has_the_layout_and_commits_its_generator_output(tmp_path: Path) -> None:
    package = create_plugin("domain", "layout-check", tmp_path) / "tautrait_layout_check"
    assert missing_parts(package, with_generator=True) == []
    spec = importlib.util.spec_from_file_location("scaffold_datagen", package / "datagen.py")
    assert spec is not None and spec.loader is not None
    datagen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(datagen)
    written = datagen.main([str(tmp_path / "regenerated")])
    committed = sorted(path.name for path in (package / "data").glob("*.json"))
    assert sorted(path.name for path in written) == committed
    for path in written:
        assert path.read_bytes() == (package / "data" / path.name).read_bytes(), path.name
