"""Shared fixtures of the steer plugin tests: a fake steer service and a tiny domain."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Field, SQLModel
from tautrait_steer_user.fake_service import FakeSteerService

from tautrait_core import Domain, EpisodeDB, Task, TaskSet, get_plugin_manager, hookimpl, tool
from tautrait_core.testing import reset_plugin_manager


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private TAUTRAIT_HOME, no steer settings from the caller's shell, no hub access."""
    home = tmp_path / "tautrait-home"
    monkeypatch.setenv("TAUTRAIT_HOME", str(home))
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("STEER_ENDPOINT", raising=False)
    monkeypatch.delenv("STEER_API_KEY", raising=False)
    return home


@pytest.fixture
def steer_service() -> Iterator[FakeSteerService]:
    """A fake hosted steer service on loopback, stopped after the test."""
    with FakeSteerService() as service:
        yield service


class Parcel(SQLModel, table=True):
    __tablename__ = "steertest_parcels"

    parcel_id: str = Field(primary_key=True)
    status: str = "in_transit"


@tool
def hold_parcel(db: EpisodeDB, parcel_id: str) -> str:
    """Hold a parcel at the depot.

    Args:
        parcel_id: The parcel id, such as 'P1'.
    """
    parcel = db.get(Parcel, parcel_id)
    if parcel is None:
        return "Error: parcel not found"
    parcel.status = "held"
    db.add(parcel)
    return "held"


PARCEL_TASKS = [
    Task(
        user_id="u1",
        instruction="You want parcel P1 held at the depot.",
        actions=[{"name": "hold_parcel", "kwargs": {"parcel_id": "P1"}}],
    ),
    Task(
        user_id="u2",
        instruction="You want parcel P2 held at the depot.",
        actions=[{"name": "hold_parcel", "kwargs": {"parcel_id": "P2"}}],
    ),
]


class ParcelPlugin:
    """A two-task parcel domain, registered in-process."""

    @staticmethod
    @hookimpl
    def register_domains(register: object) -> None:
        register(  # type: ignore[operator]
            Domain(
                name="steertest",
                policy="You help customers with parcels.",
                tables=[Parcel],
                seed_data=lambda: [Parcel(parcel_id="P1"), Parcel(parcel_id="P2")],
                tools=[hold_parcel],
                task_sets={"test": TaskSet(name="test", load_tasks=lambda: PARCEL_TASKS)},
                write_tools=["hold_parcel"],
            )
        )


@pytest.fixture
def parcel_domain() -> Iterator[str]:
    """The parcel domain registered in-process (removed afterwards); yields its name."""
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(ParcelPlugin, name="steertest")
    try:
        yield "steertest"
    finally:
        manager.unregister("steertest")
        reset_plugin_manager()


LOCAL_EXTRA = (
    "needs the [local] extra: pip install torch==2.13.0 && "
    "pip install -e 'plugins/tautrait-steer-user[local]'"
)


def require_local_extra() -> None:
    """Skip the calling test module unless torch and transformers are installed."""
    pytest.importorskip("torch", reason=LOCAL_EXTRA)
    pytest.importorskip("transformers", reason=LOCAL_EXTRA)
    pytest.importorskip("safetensors", reason=LOCAL_EXTRA)


@pytest.fixture(scope="session")
def tiny() -> tuple[object, object]:
    """A tiny random Llama-architecture model (4 layers, width 64) and its tokenizer."""
    require_local_extra()
    from tautrait_steer_user.tiny_model import tiny_model_and_tokenizer

    return tiny_model_and_tokenizer(seed=0)


@pytest.fixture(scope="session")
def tiny_vectors(tiny: tuple[object, object]) -> object:
    """Trait vectors of the tiny model at layers 1:3."""
    from tautrait_steer_user.pairs import load_pairs
    from tautrait_steer_user.vectors import build_vectors

    model, tokenizer = tiny
    return build_vectors(model, tokenizer, "tiny", (1, 3), load_pairs())


@pytest.fixture(scope="session")
def tiny_model_dir(tiny: tuple[object, object], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model and tokenizer saved as a model folder (for the commands)."""
    model, tokenizer = tiny
    folder = tmp_path_factory.mktemp("tiny-model")
    model.save_pretrained(folder)  # type: ignore[attr-defined]
    tokenizer.save_pretrained(folder)  # type: ignore[attr-defined]
    return folder
