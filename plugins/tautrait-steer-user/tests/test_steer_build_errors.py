"""A model that cannot be loaded is one ``Error:`` line saying what to pass, never a
traceback from transformers. Nothing is downloaded: the hub is offline in these tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import require_local_extra
from tautrait_steer_user.cli import steer


def build(model: str, out: Path) -> str:
    """The output of a ``steer build`` that must fail cleanly."""
    require_local_extra()
    result = CliRunner().invoke(steer, ["build", "--model", model, "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot load the model"), lines
    assert "--model" in lines[0]
    return lines[0]


def test_a_model_folder_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope-model"
    assert f"there is no folder {missing}" in build(str(missing), tmp_path / "vectors")
    assert not (tmp_path / "vectors").exists()


def test_a_folder_without_a_saved_model(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "holds no config.json" in build(str(empty), tmp_path / "vectors")


def test_a_model_name_neither_cached_nor_downloadable(tmp_path: Path) -> None:
    line = build("nonexistent-org/nonexistent-model", tmp_path / "vectors")
    assert "could not be fetched from the Hugging Face Hub" in line


def test_a_device_that_cannot_hold_the_model(tiny_model_dir: Path) -> None:
    from tautrait_steer_user.causal_lm import load_model
    from tautrait_steer_user.errors import ModelLoadError

    with pytest.raises(ModelLoadError, match="pass --device cpu") as caught:
        load_model(str(tiny_model_dir), device="no-such-device")
    assert "\n" not in str(caught.value)
