"""Compatibility with upstream tau-trait: the data round trip and every upstream task's gold
replay against the golden outputs, changes and hashes.

The upstream material is read from ``tau-trait/`` in the reference material
(``$TAUTRAIT_REFERENCE``, or ``shared/peers`` beside the checkout; never copied into the
project); the tests skip when it is absent.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from tautrait_telehealth.domain import DATA_DIR
from tautrait_telehealth.upstream import COLLECTIONS, OPTIONAL_COLLECTIONS, TelehealthUpstream

from tautrait_core import (
    Action,
    Domain,
    StateTemplate,
    replay_actions,
    upstream_changes,
    upstream_hash,
)
from tautrait_core.testing import missing_reference_material, reference_material_dir

PEERS = reference_material_dir(__file__) / "tau-trait"
UPSTREAM_DATA = PEERS / "data" / "telehealth"
SPLITS = ("test", "train", "dev")
needs_peers = pytest.mark.skipif(not PEERS.is_dir(), reason=missing_reference_material(PEERS))
codec = TelehealthUpstream()


def _cases() -> list[tuple[str, int]]:
    if not PEERS.is_dir():
        return []
    return [
        (split, index)
        for split in SPLITS
        for index in range(len(_read_json(PEERS / "tasks" / f"telehealth_{split}.json")))
    ]


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _golden(split: str) -> list[dict[str, Any]]:
    lines = (PEERS / "golden" / f"telehealth_{split}.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def upstream_template(domain: Domain) -> StateTemplate:
    return StateTemplate("telehealth-upstream", domain.tables, codec.to_rows(_upstream_data()))


def _upstream_data() -> dict[str, Any]:
    return codec.read_data(UPSTREAM_DATA)


@pytest.fixture(scope="module")
def gold_hashes() -> dict[str, Any]:
    return _read_json(PEERS / "golden" / "gold_hashes.json")


def _computed_on(gold_hashes: dict[str, Any]) -> dt.date:
    """The day the golden files were made (their cancellations carry this date)."""
    return dt.date.fromisoformat(gold_hashes["_computed_on"])


def _same_output(ours: str, golden: str) -> bool:
    if golden.startswith("Error:"):
        return ours.startswith("Error:")
    try:
        return json.loads(ours) == json.loads(golden)
    except ValueError:
        return ours == golden


@needs_peers
def test_upstream_data_round_trips_exactly(upstream_template: StateTemplate) -> None:
    with upstream_template.new_episode() as db:
        exported = codec.export(db)
    original = _upstream_data()
    assert exported == original
    assert json.dumps(exported) == json.dumps(original)  # key order and int/float too
    initial = _read_json(PEERS / "golden" / "initial_hashes.json")["telehealth"]
    assert upstream_hash(exported) == initial


@needs_peers
@pytest.mark.parametrize(("split", "index"), _cases(), ids=lambda case: str(case))
def test_gold_replay_matches_upstream(
    domain: Domain,
    upstream_template: StateTemplate,
    gold_hashes: dict[str, Any],
    split: str,
    index: int,
) -> None:
    task = _read_json(PEERS / "tasks" / f"telehealth_{split}.json")[index]
    golden = _golden(split)[index]
    actions = [Action.model_validate(action) for action in task["actions"]]
    with upstream_template.new_episode(_computed_on(gold_hashes)) as db:
        before = codec.export(db)
        observations = replay_actions(domain, db, actions)
        after = codec.export(db)
        for action, observation, call in zip(actions, observations, golden["calls"], strict=True):
            assert call["name"] == action.name
            if action.name in domain.terminating_tools:  # skipped by the replay; stateless
                observation = domain.run_tool(db, action.name, action.kwargs)
            assert _same_output(observation, call["output"]), (
                f"{action.name}({action.kwargs})\nours:   {observation!r}\n"
                f"golden: {call['output']!r}"
            )
        assert codec.export(db) == after
    assert json.loads(json.dumps(upstream_changes(before, after))) == golden["changes"]
    expected = gold_hashes["tasks"][f"telehealth/{split}/{index}"]["gold_hash"]
    assert upstream_hash(after) == expected


@needs_peers
def test_state_hash_agrees_with_the_upstream_hash(
    domain: Domain, upstream_template: StateTemplate, gold_hashes: dict[str, Any]
) -> None:
    """Two episodes have equal canonical state hashes exactly when their upstream hashes
    are equal: the fresh state, every gold replay, and the date-stamping replays again on
    the next day."""
    day = _computed_on(gold_hashes)
    episodes = [(day, [])]
    for split, index in _cases():
        task = _read_json(PEERS / "tasks" / f"telehealth_{split}.json")[index]
        actions = [Action.model_validate(action) for action in task["actions"]]
        episodes.append((day, actions))
        if gold_hashes["tasks"][f"telehealth/{split}/{index}"]["date_dependent"]:
            episodes.append((day + dt.timedelta(days=1), actions))
    pairs = []
    for episode_day, actions in episodes:
        with upstream_template.new_episode(episode_day) as db:
            replay_actions(domain, db, actions)
            pairs.append((db.state_hash(), upstream_hash(codec.export(db))))
    upstream_by_state: dict[str, set[str]] = defaultdict(set)
    state_by_upstream: dict[str, set[str]] = defaultdict(set)
    for state, upstream in pairs:
        upstream_by_state[state].add(upstream)
        state_by_upstream[upstream].add(state)
    assert all(len(found) == 1 for found in upstream_by_state.values())
    assert all(len(found) == 1 for found in state_by_upstream.values())
    assert len(upstream_by_state) > len(_cases())  # a cancellation's date changes both


def test_builtin_data_round_trips_exactly(template: StateTemplate) -> None:
    with template.new_episode() as db:
        exported = codec.export(db)
    original = codec.read_data(DATA_DIR)
    assert list(exported) == list(COLLECTIONS)
    assert json.dumps(exported) == json.dumps(original)


def test_numbers_keep_their_int_or_float_type(domain: Domain) -> None:
    data = codec.read_data(DATA_DIR)
    data["appointments"]["APPT001"]["copay_amount"] = 25
    data["appointments"]["APPT002"]["duration_minutes"] = 45.0
    template = StateTemplate("telehealth-numbers", domain.tables, codec.to_rows(data))
    with template.new_episode() as db:
        assert json.dumps(codec.export(db)) == json.dumps(data)


def test_optional_collections_default_when_their_files_are_absent(tmp_path: Path) -> None:
    for path in DATA_DIR.glob("*.json"):
        if path.stem not in OPTIONAL_COLLECTIONS:
            shutil.copyfile(path, tmp_path / path.name)
    data = codec.read_data(tmp_path)
    assert [data[name] for name in OPTIONAL_COLLECTIONS] == [[], [], {}]
    assert codec.to_rows(data)
    (tmp_path / "patients.json").unlink()
    with pytest.raises(FileNotFoundError, match=r"patients\.json"):
        codec.read_data(tmp_path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data["appointments"]["APPT001"].update(room="A"), "unknown field"),
        (lambda data: data["appointments"]["APPT001"].update(time=900), "expected a string"),
        (lambda data: data["patients"]["grace_liu_8154"].update(patient_id="x"), "own id"),
        (lambda data: data.update(telemetry_uploads={}), "must be a list"),
    ],
    ids=["unknown-field", "number-for-text", "key-is-not-the-id", "object-for-list"],
)
def test_data_that_would_not_round_trip_is_refused(change: Any, message: str) -> None:
    data = codec.read_data(DATA_DIR)
    change(data)
    with pytest.raises(ValueError, match=message):
        codec.to_rows(data)
