"""Compatibility with upstream tau-trait: the data round trip and every upstream task's gold
replay against the golden outputs, changes and hashes.

The upstream material is read from ``tau-trait/`` in the reference material
(``$TAUTRAIT_REFERENCE``, or ``shared/peers`` beside the checkout; never copied into the
project); the tests skip when it is absent. One template serves the
whole module, and each task costs one replay and one export; its changes and hash are
computed against an :class:`UpstreamBaseline` of the fresh data (checked against the full
computation).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from tautrait_airline.upstream import COLLECTIONS, AirlineUpstream

from tautrait_core import (
    Action,
    Domain,
    StateTemplate,
    UpstreamBaseline,
    replay_actions,
    upstream_changes,
    upstream_hash,
)
from tautrait_core.testing import missing_reference_material, reference_material_dir

PEERS = reference_material_dir(__file__) / "tau-trait"
UPSTREAM_DATA = PEERS / "data" / "airline"
SPLITS = ("test",)
needs_peers = pytest.mark.skipif(not PEERS.is_dir(), reason=missing_reference_material(PEERS))
codec = AirlineUpstream()


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _tasks(split: str) -> list[dict[str, Any]]:
    return _read_json(PEERS / "tasks" / f"airline_{split}.json")


def _cases() -> list[tuple[str, int]]:
    if not PEERS.is_dir():
        return []
    return [(split, index) for split in SPLITS for index in range(len(_tasks(split)))]


_golden_cache: dict[str, list[dict[str, Any]]] = {}


def _golden(split: str) -> list[dict[str, Any]]:
    if split not in _golden_cache:
        lines = (PEERS / "golden" / f"airline_{split}.jsonl").read_text().splitlines()
        _golden_cache[split] = [json.loads(line) for line in lines]
    return _golden_cache[split]


@pytest.fixture(scope="module")
def upstream_data() -> dict[str, Any]:
    return codec.read_data(UPSTREAM_DATA)


@pytest.fixture(scope="module")
def upstream_template(domain: Domain, upstream_data: dict[str, Any]) -> StateTemplate:
    return StateTemplate("airline-upstream", domain.tables, codec.to_rows(upstream_data))


@pytest.fixture(scope="module")
def initial_export(upstream_template: StateTemplate) -> dict[str, Any]:
    with upstream_template.new_episode() as db:
        return codec.export(db)


@pytest.fixture(scope="module")
def baseline(initial_export: dict[str, Any]) -> UpstreamBaseline:
    return UpstreamBaseline(initial_export)


@pytest.fixture(scope="module")
def gold_hashes() -> dict[str, Any]:
    return _read_json(PEERS / "golden" / "gold_hashes.json")


def _same_output(ours: str, golden: str) -> bool:
    if golden.startswith(("Error:", "Unknown action")):  # unknown tools are errors here
        return ours.startswith("Error:")
    try:
        return json.loads(ours) == json.loads(golden)
    except ValueError:
        return ours == golden


@needs_peers
def test_upstream_data_round_trips_exactly(
    initial_export: dict[str, Any], upstream_data: dict[str, Any]
) -> None:
    assert list(initial_export) == list(COLLECTIONS)
    assert json.dumps(initial_export) == json.dumps(upstream_data)  # key order, int/float
    initial = _read_json(PEERS / "golden" / "initial_hashes.json")["airline"]
    assert upstream_hash(initial_export) == initial


@needs_peers
def test_the_baseline_agrees_with_the_full_computation(
    domain: Domain, upstream_template: StateTemplate, baseline: UpstreamBaseline
) -> None:
    """Gold states of writing tasks and a state with added, removed and retyped records:
    the baseline's changes and hash equal ``upstream_changes`` and ``upstream_hash``."""
    states = []
    for index in (0, 1, 58, 59):
        actions = [Action.model_validate(action) for action in _tasks("test")[index]["actions"]]
        with upstream_template.new_episode() as db:
            replay_actions(domain, db, actions)
            states.append(codec.export(db))
    edited = json.loads(json.dumps(baseline.data))
    reservation_id = next(iter(edited["reservations"]))
    edited["reservations"]["ZZZZZZ"] = edited["reservations"].pop(reservation_id)
    next(iter(edited["users"].values()))["reservations"] = []
    flight = next(iter(edited["flights"].values()))
    entry = next(e for e in flight["dates"].values() if e["status"] == "available")
    entry["prices"]["economy"] = float(entry["prices"]["economy"])  # a change for upstream
    states.append(edited)
    assert len(baseline.compare(edited)[0]["flights"]) == 1
    for state in states:
        assert baseline.compare(state) == (
            upstream_changes(baseline.data, state),
            upstream_hash(state),
        )


@needs_peers
@pytest.mark.parametrize(("split", "index"), _cases(), ids=lambda case: str(case))
def test_gold_replay_matches_upstream(
    domain: Domain,
    upstream_template: StateTemplate,
    baseline: UpstreamBaseline,
    gold_hashes: dict[str, Any],
    split: str,
    index: int,
) -> None:
    actions = [Action.model_validate(action) for action in _tasks(split)[index]["actions"]]
    golden = _golden(split)[index]
    with upstream_template.new_episode() as db:
        observations = replay_actions(domain, db, actions)
        for action, observation, call in zip(actions, observations, golden["calls"], strict=True):
            assert call["name"] == action.name
            if action.name in domain.terminating_tools:  # skipped by the replay; stateless
                observation = domain.run_tool(db, action.name, action.kwargs)
            assert _same_output(observation, call["output"]), (
                f"{action.name}({action.kwargs})\nours:   {observation!r}\n"
                f"golden: {call['output']!r}"
            )
        after = codec.export(db)
    changes, data_hash = baseline.compare(after)
    assert json.loads(json.dumps(changes)) == golden["changes"]
    assert data_hash == gold_hashes["tasks"][f"airline/{split}/{index}"]["gold_hash"]


@needs_peers
def test_state_hash_agrees_with_the_upstream_hash(
    domain: Domain, upstream_template: StateTemplate, baseline: UpstreamBaseline
) -> None:
    """Two episodes have equal canonical state hashes exactly when their upstream hashes
    are equal: the fresh state and the gold replays of writing and read-only tasks, each
    task twice (the read-only ones share the fresh state's hash)."""
    cases = [("test", index) for index in (0, 1, 2, 5, 7, 12, 21, 50, 57, 58, 59)]
    episodes = [[]] + [
        [Action.model_validate(action) for action in _tasks(split)[index]["actions"]]
        for split, index in cases
        for _ in range(2)
    ]
    pairs = []
    for actions in episodes:
        with upstream_template.new_episode() as db:
            replay_actions(domain, db, actions)
            pairs.append((db.state_hash(), baseline.compare(codec.export(db))[1]))
    upstream_by_state: dict[str, set[str]] = defaultdict(set)
    state_by_upstream: dict[str, set[str]] = defaultdict(set)
    for state, upstream in pairs:
        upstream_by_state[state].add(upstream)
        state_by_upstream[upstream].add(state)
    assert all(len(found) == 1 for found in upstream_by_state.values())
    assert all(len(found) == 1 for found in state_by_upstream.values())
    assert len(upstream_by_state) > 3
