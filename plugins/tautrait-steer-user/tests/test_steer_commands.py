"""``tautrait steer build`` and ``tautrait steer probe`` on a tiny model folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import require_local_extra
from tautrait_steer_user.cli import require_local, steer

from tautrait_core import TRAITS


def test_missing_local_extra_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(click.ClickException, match=r"tautrait-steer-user\[local\]"):
        require_local()


@pytest.fixture(scope="module")
def built(tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """Vectors built by the command; the folder and its JSON summary."""
    out = tmp_path_factory.mktemp("vectors")
    arguments = ["build", "--model", str(tiny_model_dir), "--out", str(out), "--layers", "1:3"]
    result = CliRunner().invoke(steer, [*arguments, "--json"])
    assert result.exit_code == 0, result.output
    return out, json.loads(result.stdout)


def test_build_writes_vectors_with_their_provenance(
    built: tuple[Path, dict], tiny_model_dir: Path
) -> None:
    require_local_extra()
    from tautrait_steer_user.vectors import TraitVectors

    out, summary = built
    loaded = TraitVectors.load(out)
    assert summary["content_hash"] == loaded.content_hash()
    assert summary["model"] == loaded.model == str(tiny_model_dir)
    assert summary["layers"] == "1:3" and summary["pairs_per_trait"] >= 32
    assert set(summary["mean_norm"]) == set(TRAITS)


def test_build_is_deterministic(built: tuple[Path, dict], tiny_model_dir: Path, tmp_path) -> None:
    arguments = ["build", "--model", str(tiny_model_dir), "--out", str(tmp_path), "--layers", "1:3"]
    result = CliRunner().invoke(steer, arguments)
    assert result.exit_code == 0, result.output
    assert f"content hash {built[1]['content_hash']}" in result.output


def test_build_refuses_a_bad_layer_range(tiny_model_dir: Path, tmp_path: Path) -> None:
    arguments = ["build", "--model", str(tiny_model_dir), "--out", str(tmp_path), "--layers", "2:9"]
    result = CliRunner().invoke(steer, arguments)
    assert result.exit_code != 0 and "the model has 4 layers" in result.output


def test_probe_shows_the_shift_growing_with_intensity(built: tuple[Path, dict]) -> None:
    out, _ = built
    result = CliRunner().invoke(steer, ["probe", "--vectors", str(out), "--json", "--top", "3"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows[0]["trait"] == "none" and rows[0]["kl"] == 0 and rows[0]["logit_shift"] == 0
    for trait in TRAITS:
        mine = [row for row in rows if row["trait"] == trait]
        assert [row["intensity"] for row in mine] == ["low", "medium", "high"]
        kls = [row["kl"] for row in mine]
        assert 0 < kls[0] < kls[1] < kls[2]
        assert all(len(row["top_tokens"]) == 3 for row in mine)


def test_probe_table_for_one_trait(built: tuple[Path, dict]) -> None:
    out, _ = built
    arguments = ["probe", "--vectors", str(out), "--trait", "skepticism", "--prompt", "Hello?"]
    result = CliRunner().invoke(steer, arguments)
    assert result.exit_code == 0, result.output
    assert "skeptical" in result.output and "impatience" not in result.output
    assert "high" in result.output and "KL" in result.output


def test_serve_refuses_require_key_without_a_key(built: tuple[Path, dict]) -> None:
    out, _ = built
    result = CliRunner().invoke(steer, ["serve", "--vectors", str(out), "--require-key"])
    assert result.exit_code != 0 and "STEER_API_KEY" in result.output


@pytest.mark.parametrize(("engine", "shown"), [("auto", "fast engine"), ("eager", "eager engine")])
def test_serve_runs_the_engine_asked_for(
    built: tuple[Path, dict], monkeypatch: pytest.MonkeyPatch, engine: str, shown: str
) -> None:
    from tautrait_steer_user.server import SteerServer

    def interrupted(server: SteerServer) -> None:
        assert server.generator.describe()["engine"] == shown.split()[0]
        raise KeyboardInterrupt

    monkeypatch.setattr(SteerServer, "serve_forever", interrupted)
    out, _ = built
    arguments = ["serve", "--vectors", str(out), "--port", "0", "--device", "cpu"]
    result = CliRunner().invoke(steer, [*arguments, "--engine", engine, "--max-context", "256"])
    assert result.exit_code == 0, result.output
    assert f"{shown}, up to 32 requests at once" in result.output and "stopped" in result.output


def test_build_and_probe_print_no_transformers_output(tiny_model_dir: Path, tmp_path: Path) -> None:
    """Loading the model prints no progress bar, notice or warning of transformers."""
    require_local_extra()
    import os
    import subprocess

    env = {**os.environ, "TAUTRAIT_LOAD_PLUGINS": "steer", "TAUTRAIT_HOME": str(tmp_path)}
    commands = [
        ["build", "--model", str(tiny_model_dir), "--out", str(tmp_path), "--layers", "1:3"],
        ["probe", "--vectors", str(tmp_path), "--top", "1", "--trait", "impatience"],
    ]
    for arguments in commands:
        done = subprocess.run(
            [sys.executable, "-m", "tautrait_core", "steer", *arguments],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert (done.returncode, done.stderr) == (0, ""), arguments
        assert done.stdout
