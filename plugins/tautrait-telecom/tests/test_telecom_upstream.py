"""Compatibility with upstream tau-trait: the data round trip and every upstream task's gold
replay against the golden outputs, changes and hashes.

The upstream material is read from ``tau-trait/`` in the reference material
(``$TAUTRAIT_REFERENCE``, or ``shared/peers`` beside the checkout; never copied into the
project); the tests skip when it is absent. Upstream answers a call
of an unregistered tool (``manage_devices``, ``check_network_status``) with ``Unknown action
...``; here such a call is an ``Error: ...`` observation, which changes nothing either.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from tautrait_telecom.domain import DATA_DIR
from tautrait_telecom.upstream import COLLECTIONS, TelecomUpstream

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
UPSTREAM_DATA = PEERS / "data" / "telecom"
SPLITS = ("test", "train", "dev")
UPSTREAM_FAILURES = ("Error:", "Unknown action ")
"""How an upstream golden output reports a failed call."""
needs_peers = pytest.mark.skipif(not PEERS.is_dir(), reason=missing_reference_material(PEERS))
codec = TelecomUpstream()


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _tasks(split: str) -> list[dict[str, Any]]:
    return _read_json(PEERS / "tasks" / f"telecom_{split}.json")


def _cases() -> list[tuple[str, int]]:
    if not PEERS.is_dir():
        return []
    return [(split, index) for split in SPLITS for index in range(len(_tasks(split)))]


def _golden(split: str) -> list[dict[str, Any]]:
    lines = (PEERS / "golden" / f"telecom_{split}.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _same_output(ours: str, golden: str) -> bool:
    """A failure for a failure; otherwise the exact text. JSON outputs are compared as text
    too, since JSON equality would take ``85`` for ``85.0``."""
    if golden.startswith(UPSTREAM_FAILURES):
        return ours.startswith("Error:")
    return ours == golden


@pytest.fixture(scope="module")
def upstream_template(domain: Domain) -> StateTemplate:
    return StateTemplate("telecom-upstream", domain.tables, codec.to_rows(_upstream_data()))


def _upstream_data() -> dict[str, Any]:
    return codec.read_data(UPSTREAM_DATA)


@pytest.fixture(scope="module")
def gold_hashes() -> dict[str, Any]:
    return _read_json(PEERS / "golden" / "gold_hashes.json")


@needs_peers
def test_upstream_data_round_trips_exactly(upstream_template: StateTemplate) -> None:
    with upstream_template.new_episode() as db:
        exported = codec.export(db)
    original = _upstream_data()
    assert json.dumps(exported) == json.dumps(original)  # key order and int/float too
    initial = _read_json(PEERS / "golden" / "initial_hashes.json")["telecom"]
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
    task = _tasks(split)[index]
    golden = _golden(split)[index]
    actions = [Action.model_validate(action) for action in task["actions"]]
    with upstream_template.new_episode() as db:
        before = codec.export(db)
        observations = replay_actions(domain, db, actions)
        after = codec.export(db)
    for action, observation, call in zip(actions, observations, golden["calls"], strict=True):
        assert call["name"] == action.name
        assert _same_output(observation, call["output"]), (
            f"{action.name}({action.kwargs})\nours:   {observation!r}\ngolden: {call['output']!r}"
        )
    assert json.loads(json.dumps(upstream_changes(before, after))) == golden["changes"]
    expected = gold_hashes["tasks"][f"telecom/{split}/{index}"]["gold_hash"]
    assert upstream_hash(after) == expected


@needs_peers
def test_state_hash_agrees_with_the_upstream_hash(
    domain: Domain, upstream_template: StateTemplate
) -> None:
    """Two episodes have equal canonical state hashes exactly when their upstream hashes
    are equal: the fresh state and every gold replay."""
    episodes = [[]] + [
        [Action.model_validate(action) for action in _tasks(split)[index]["actions"]]
        for split, index in _cases()
    ]
    pairs = []
    for actions in episodes:
        with upstream_template.new_episode() as db:
            replay_actions(domain, db, actions)
            pairs.append((db.state_hash(), upstream_hash(codec.export(db))))
    upstream_by_state: dict[str, set[str]] = defaultdict(set)
    state_by_upstream: dict[str, set[str]] = defaultdict(set)
    for state, upstream in pairs:
        upstream_by_state[state].add(upstream)
        state_by_upstream[upstream].add(state)
    assert all(len(found) == 1 for found in upstream_by_state.values())
    assert all(len(found) == 1 for found in state_by_upstream.values())
    assert len(upstream_by_state) > 5  # the sample holds distinct states


@needs_peers
def test_upstream_quirks_are_kept(domain: Domain, upstream_template: StateTemplate) -> None:
    """The partial changes before a failure (spec §3.3, §8) stay, as upstream leaves them."""
    with upstream_template.new_episode() as db:
        before = codec.export(db)
        # Robert Wilson subscribes to internet_fiber_1gb but is billed internet_fiber_500mb
        arguments = {"customer_id": "robert_wilson_7890", "action": "remove"}
        arguments["service_id"] = "internet_fiber_1gb"
        removed = domain.run_tool(db, "manage_service", arguments)
        assert removed == "Error: 'internet_fiber_1gb'"
        customer = codec.export(db)["customers"]["robert_wilson_7890"]
        assert "internet_fiber_1gb" not in customer["services"]
        assert upstream_changes(before, codec.export(db)).keys() == {"customers"}
    with upstream_template.new_episode() as db:
        added = domain.run_tool(
            db,
            "manage_service",
            {
                "customer_id": "lisa_chen_3456",
                "action": "add",
                "service_id": "tv_basic",
                "devices_ids": ["1", "99"],
            },
        )
        assert added.startswith("Error: Device not found: 99 in devices [{'device_id': '1'")
        customer = codec.export(db)["customers"]["lisa_chen_3456"]
        assert customer["devices"][0]["service"] == "tv_basic"
        assert "tv_basic" not in customer["services"]


def test_builtin_data_round_trips_exactly(template: StateTemplate) -> None:
    with template.new_episode() as db:
        exported = codec.export(db)
    assert list(exported) == list(COLLECTIONS)
    assert json.dumps(exported) == json.dumps(codec.read_data(DATA_DIR))


def test_numbers_keep_their_int_or_float_type(domain: Domain) -> None:
    data = codec.read_data(DATA_DIR)
    first = next(iter(data["billing"]))
    data["billing"][first]["current_balance"] = 25
    data["services"]["tv_starter"]["price"] = 40
    template = StateTemplate("telecom-numbers", domain.tables, codec.to_rows(data))
    with template.new_episode() as db:
        assert json.dumps(codec.export(db)) == json.dumps(data)


def test_a_missing_data_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"customers\.json"):
        codec.read_data(tmp_path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data["services"]["tv_starter"].update(tier="A"), "unknown field"),
        (lambda data: data["services"]["tv_starter"].update(name=5), "expected a string"),
        (lambda data: data["services"]["tv_starter"].update(service_id="x"), "own id"),
        (lambda data: data.update(support_tickets=[]), "must be an object"),
    ],
    ids=["unknown-field", "number-for-text", "key-is-not-the-id", "list-for-object"],
)
def test_data_that_would_not_round_trip_is_refused(change: Any, message: str) -> None:
    data = codec.read_data(DATA_DIR)
    change(data)
    with pytest.raises(ValueError, match=message):
        codec.to_rows(data)
