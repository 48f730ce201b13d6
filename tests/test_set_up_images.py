"""A task's initial state is set up once per process: later fresh copies load its image,
with the same rows, hashes and history, and give the template's rows back when they end."""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Iterator
from typing import Any

import pytest

from tautrait_core.domain import set_up_images
from tautrait_core.domain.domain import Domain
from tautrait_core.domain.initial_state import apply_initial_state
from tautrait_core.domain.state import StateTemplate
from tautrait_core.grading import criteria_reward
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.types.task import Task
from tests.plugins import toy_phone

TODAY = dt.date(2025, 3, 1)


@pytest.fixture
def counted() -> Iterator[tuple[Domain, StateTemplate, list[str]]]:
    """The toy phone domain whose set-up function records each call, and a template."""
    calls: list[str] = []

    def turn_airplane_mode_on(db: Any) -> None:
        calls.append("turn_airplane_mode_on")
        toy_phone.turn_airplane_mode_on(db)

    domain = toy_phone.build_domain()
    domain.user_functions["turn_airplane_mode_on"] = turn_airplane_mode_on
    template = StateTemplate("toyphone:images", domain.tables, domain.seed_data())
    set_up_images.forget_images()
    yield domain, template, calls
    set_up_images.forget_images()


def restore_task(domain: Domain) -> Task:
    return domain.task_sets["test"].tasks[0]


def test_a_second_fresh_copy_loads_the_set_up_instead_of_running_it(counted) -> None:
    domain, template, calls = counted
    task = restore_task(domain)
    with template.new_episode(TODAY) as first:
        apply_initial_state(domain, first, task)
        first_state, first_hash = toy_phone.state(first), first.state_hash()
    with template.new_episode(TODAY) as second:
        apply_initial_state(domain, second, task)
        assert toy_phone.state(second) == first_state
        assert second.state_hash() == first_hash == second.full_state_hash()
    assert calls == ["turn_airplane_mode_on"]


def test_an_episode_goes_on_from_a_loaded_set_up_and_the_copy_is_reset(counted) -> None:
    domain, template, _ = counted
    task = restore_task(domain)
    for _ in range(2):
        with template.new_episode(TODAY) as db:
            apply_initial_state(domain, db, task)
            toy_phone.toggle_airplane_mode.function(db)
            toy_phone.resume_line.function(db, "L1")
            db.flush()
            assert toy_phone.state(db)["line"]["status"] == "active"
    with template.new_episode(TODAY) as fresh, template.new_episode(TODAY) as untouched:
        assert fresh.is_untouched()
        assert fresh.state_hash() == untouched.full_state_hash()
        assert toy_phone.state(fresh)["line"]["status"] == "active"  # the seed row
        assert toy_phone.state(fresh)["phone"]["airplane_mode"] is False


def test_the_history_is_returned_from_a_loaded_set_up_too(counted) -> None:
    domain, template, _ = counted
    task = domain.task_sets["test"].tasks[1]
    with template.new_episode(TODAY) as db:
        first = apply_initial_state(domain, db, task)
    with template.new_episode(TODAY) as db:
        again = apply_initial_state(domain, db, task)
    assert [message.model_dump() for message in again] == [m.model_dump() for m in first]
    again[0].content = "changed by the caller"
    with template.new_episode(TODAY) as db:
        assert apply_initial_state(domain, db, task)[0].content == "Is my line fine?"


def test_set_ups_differ_by_initial_state_and_date(counted) -> None:
    domain, template, calls = counted
    task = restore_task(domain)
    other = task.model_copy(deep=True)
    assert other.initial_state is not None
    other.initial_state.initialization_data = None
    for today, chosen in ((TODAY, task), (TODAY + dt.timedelta(days=1), task), (TODAY, other)):
        with template.new_episode(today) as db:
            apply_initial_state(domain, db, chosen)
    assert len(calls) == 3
    with template.new_episode(TODAY) as db:
        apply_initial_state(domain, db, other)
        assert toy_phone.state(db)["line"]["status"] == "active"  # no data merged
    assert len(calls) == 3


def test_a_copy_that_was_already_changed_runs_the_set_up_and_keeps_nothing(counted) -> None:
    domain, template, calls = counted
    task = restore_task(domain)
    with template.new_episode(TODAY) as db:
        toy_phone.suspend_line(db, "L1")
        db.flush()
        assert not db.is_untouched()
        apply_initial_state(domain, db, task)
    with template.new_episode(TODAY) as db:
        apply_initial_state(domain, db, task)
    assert len(calls) == 2


def test_a_failing_set_up_is_not_kept(counted) -> None:
    domain, template, _ = counted
    failures = []

    def broken(db: Any) -> None:
        failures.append(1)
        raise RuntimeError("the phone will not break")

    domain.user_functions["turn_airplane_mode_on"] = broken
    for _ in range(2):
        with template.new_episode(TODAY) as db, pytest.raises(RuntimeError, match="not break"):
            apply_initial_state(domain, db, restore_task(domain))
    assert len(failures) == 2


def test_loading_into_a_used_copy_is_refused(counted) -> None:
    domain, template, _ = counted
    with template.new_episode(TODAY) as db:
        apply_initial_state(domain, db, restore_task(domain))
        image = db.take_image()
    with template.new_episode(TODAY) as db:
        line = db.get(toy_phone.Line, "L1")  # a row object the image would leave stale
        with pytest.raises(ValueError, match="untouched"):
            db.load_image(image)
        line.status = "suspended"
        db.flush()
        db.expunge(line)
        with pytest.raises(ValueError, match="untouched"):  # a written copy
            db.load_image(image)


def test_the_store_is_bounded_and_forgets_a_template_that_is_gone(monkeypatch, counted) -> None:
    domain, template, calls = counted
    task = restore_task(domain)
    monkeypatch.setattr(set_up_images, "MAX_BYTES", template.size_bytes() * 2 + 1)
    for days in range(3):
        with template.new_episode(TODAY + dt.timedelta(days=days)) as db:
            apply_initial_state(domain, db, task)
    with template.new_episode(TODAY) as db:  # the oldest was dropped: set up again
        apply_initial_state(domain, db, task)
    assert len(calls) == 4
    assert set_up_images._held[0] <= set_up_images.MAX_BYTES

    other = StateTemplate("toyphone:gone", domain.tables, domain.seed_data())
    with other.new_episode(TODAY) as db:
        apply_initial_state(domain, db, task)
    held = set_up_images._held[0]
    del other, db
    gc.collect()
    assert set_up_images._held[0] < held


def test_the_gold_state_of_a_task_is_computed_once(counted) -> None:
    domain, template, _ = counted
    criteria_reward._gold_hashes.clear()
    runs = []
    original = domain.tools_by_name["resume_line"].function

    def resume_line(db: Any, line_id: str) -> str:
        runs.append(line_id)
        return original(db, line_id)

    domain.tools_by_name["resume_line"].function = resume_line
    task = restore_task(domain)
    try:
        rewards = [
            grade_criteria(domain, task, template, [], "user_stop", TODAY).reward for _ in range(2)
        ]
    finally:
        domain.tools_by_name["resume_line"].function = original
    assert rewards == [0.0, 0.0]  # nothing was done: the phone has no service
    assert runs == ["L1"]
