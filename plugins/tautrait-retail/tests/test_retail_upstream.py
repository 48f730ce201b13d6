"""Compatibility with upstream tau-trait: the data round trip and every upstream task's gold
replay against the golden outputs, changes and hashes.

The upstream material is read from ``tau-trait/`` in the reference material
(``$TAUTRAIT_REFERENCE``, or ``shared/peers`` beside the checkout; never copied into the
project); the tests skip when it is absent. One template serves the
whole module, and each task costs one replay and one export.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from tautrait_retail.domain import DATA_DIR
from tautrait_retail.upstream import COLLECTIONS, RetailUpstream

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
UPSTREAM_DATA = PEERS / "data" / "retail"
SPLITS = ("test", "train", "dev")
needs_peers = pytest.mark.skipif(not PEERS.is_dir(), reason=missing_reference_material(PEERS))
codec = RetailUpstream()


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _tasks(split: str) -> list[dict[str, Any]]:
    return _read_json(PEERS / "tasks" / f"retail_{split}.json")


def _cases() -> list[tuple[str, int]]:
    if not PEERS.is_dir():
        return []
    return [(split, index) for split in SPLITS for index in range(len(_tasks(split)))]


_golden_cache: dict[str, list[dict[str, Any]]] = {}


def _golden(split: str) -> list[dict[str, Any]]:
    if split not in _golden_cache:
        lines = (PEERS / "golden" / f"retail_{split}.jsonl").read_text().splitlines()
        _golden_cache[split] = [json.loads(line) for line in lines]
    return _golden_cache[split]


@pytest.fixture(scope="module")
def upstream_data() -> dict[str, Any]:
    return codec.read_data(UPSTREAM_DATA)


@pytest.fixture(scope="module")
def upstream_template(domain: Domain, upstream_data: dict[str, Any]) -> StateTemplate:
    return StateTemplate("retail-upstream", domain.tables, codec.to_rows(upstream_data))


def _as_golden(changes: dict[str, dict[str, Any]], before: dict[str, Any]) -> dict[str, Any]:
    """Changes as the golden files list them: a record counts as changed only when it
    differs under Python equality, so a gift card balance going from 9 to 9.0 (an item
    change with no price difference) is no change there. The data hash still tells them
    apart, and it is compared as well."""
    kept = {
        name: {
            key: value
            for key, value in records.items()
            if value is None or key not in before[name] or value != before[name][key]
        }
        for name, records in changes.items()
    }
    return json.loads(json.dumps({name: records for name, records in kept.items() if records}))


@pytest.fixture(scope="module")
def baseline(upstream_data: dict[str, Any]) -> UpstreamBaseline:
    return UpstreamBaseline(upstream_data)


@pytest.fixture(scope="module")
def gold_hashes() -> dict[str, Any]:
    return _read_json(PEERS / "golden" / "gold_hashes.json")


def _same_output(ours: str, golden: str) -> bool:
    if golden.startswith("Error:"):
        return ours.startswith("Error:")
    try:
        return json.loads(ours) == json.loads(golden)
    except ValueError:
        return ours == golden


@needs_peers
def test_upstream_data_round_trips_exactly(
    upstream_template: StateTemplate, upstream_data: dict[str, Any]
) -> None:
    with upstream_template.new_episode() as db:
        exported = codec.export(db)
    assert list(exported) == list(COLLECTIONS)
    assert json.dumps(exported) == json.dumps(upstream_data)  # key order and int/float too
    initial = _read_json(PEERS / "golden" / "initial_hashes.json")["retail"]
    assert upstream_hash(exported) == initial


@needs_peers
def test_the_baseline_agrees_with_the_full_computation(
    domain: Domain, upstream_template: StateTemplate, baseline: UpstreamBaseline
) -> None:
    """The first dev tasks' gold states and a state with added, removed and retyped records:
    the baseline's changes and hash equal ``upstream_changes`` and ``upstream_hash``."""
    states = []
    for task in _tasks("dev")[:8]:
        actions = [Action.model_validate(action) for action in task["actions"]]
        with upstream_template.new_episode() as db:
            replay_actions(domain, db, actions)
            states.append(codec.export(db))
    edited = json.loads(json.dumps(baseline.data))
    order_id = next(iter(edited["orders"]))
    edited["orders"]["#W0000000"] = edited["orders"].pop(order_id)
    next(iter(edited["users"].values()))["orders"] = []
    card = next(
        method
        for user in reversed(edited["users"].values())
        for method in user["payment_methods"].values()
        if "balance" in method
    )
    card["balance"] = float(card["balance"])  # equal under ==, yet a change for upstream
    states.append(edited)
    assert len(baseline.compare(edited)[0]["users"]) == 2
    for state in [baseline.data, *states]:
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
    # the initial export equals the upstream data (test above), so it stands in for it
    changes, data_hash = baseline.compare(after)
    assert _as_golden(changes, baseline.data) == golden["changes"]
    assert data_hash == gold_hashes["tasks"][f"retail/{split}/{index}"]["gold_hash"]


@needs_peers
def test_state_hash_agrees_with_the_upstream_hash(
    domain: Domain, upstream_template: StateTemplate
) -> None:
    """Two episodes have equal canonical state hashes exactly when their upstream hashes
    are equal: the fresh state and a sample of gold replays, each sampled task twice (and
    the read-only ones share the fresh state's hash)."""
    cases = random.Random(7).sample(_cases(), 24)
    episodes = [[]] + [
        [Action.model_validate(action) for action in _tasks(split)[index]["actions"]]
        for split, index in cases
        for _ in range(2)
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
    assert len(upstream_by_state) > 12


def test_builtin_data_round_trips_exactly(template: StateTemplate) -> None:
    with template.new_episode() as db:
        exported = codec.export(db)
    assert json.dumps(exported) == json.dumps(codec.read_data(DATA_DIR))


def test_numbers_and_uncatalogued_items_round_trip(domain: Domain) -> None:
    """Prices keep int or float, and an item that differs from its catalog variant (or has
    no variant) is stored in full."""
    data = codec.read_data(DATA_DIR)
    product = next(iter(data["products"].values()))
    variant = next(iter(product["variants"].values()))
    variant["price"] = 25
    order = next(iter(data["orders"].values()))
    order["items"][0]["price"] = 1.0
    order["items"].append({"name": "Gift wrap", "product_id": "0", "item_id": "1", "price": 3})
    order["gift_note"] = "happy birthday"
    template = StateTemplate("retail-numbers", domain.tables, codec.to_rows(data))
    with template.new_episode() as db:
        assert json.dumps(codec.export(db)) == json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: next(iter(data["users"].values())).update(phone="1"), "keys"),
        (lambda data: next(iter(data["orders"].values())).pop("fulfillments"), "keys"),
        (lambda data: next(iter(data["orders"].values())).update(status=3), "unexpected type"),
        (lambda data: next(iter(data["orders"].values())).update(order_id="#W1"), "order_id"),
        (lambda data: data.update(products=[]), "must be an object"),
    ],
    ids=["unknown-user-field", "missing-order-field", "number-status", "wrong-id", "list"],
)
def test_data_that_would_not_round_trip_is_refused(change: Any, message: str) -> None:
    data = codec.read_data(DATA_DIR)
    change(data)
    with pytest.raises(ValueError, match=message):
        codec.to_rows(data)


def test_a_missing_data_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"orders\.json"):
        codec.read_data(tmp_path)
