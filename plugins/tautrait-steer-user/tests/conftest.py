"""Shared fixtures of the steer plugin tests: a fake steer service and a tiny domain."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Field, SQLModel
from tautrait_steer_user.fake_service import FakeSteerService

from tautrait_core import Domain, EpisodeDB, Task, TaskSet, hookimpl, tool
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager


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
