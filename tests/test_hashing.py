"""Upstream hashes and change sets, and the fast baseline comparison used by golden tests."""

from __future__ import annotations

import json

from tautrait_core.compat.hashing import (
    UpstreamBaseline,
    canonical_json,
    to_hashable,
    upstream_changes,
    upstream_hash,
)

DATA = {
    "users": {"u1": {"name": "Ann", "balance": 9}, "u2": {"name": "Bo", "balance": 1.5}},
    "orders": {"o1": {"items": [1, 2], "status": "pending"}},
    "notes": {"n1": {"text": "only one record"}},
}


def test_baseline_comparison_equals_the_full_computation() -> None:
    baseline = UpstreamBaseline(DATA)
    states = [json.loads(json.dumps(DATA)) for _ in range(4)]
    states[1]["users"]["u1"]["balance"] = 9.0  # an int becoming a float is a change
    states[2]["orders"]["o2"] = {"items": [], "status": "new"}
    del states[2]["users"]["u2"]
    states[3]["orders"]["o1"]["items"].append(3)
    states[3]["notes"] = {}
    for state in states:
        assert baseline.compare(state) == (upstream_changes(DATA, state), upstream_hash(state))
    assert baseline.compare(states[0])[0] == {}
    assert baseline.compare(states[1])[0] == {"users": {"u1": {"name": "Ann", "balance": 9.0}}}
    assert baseline.compare(states[1])[1] != upstream_hash(DATA)


def test_canonical_json_is_the_parsed_hashable_form_and_keeps_ints_apart_from_floats() -> None:
    text = '{"b": [1, {"y": 2.0, "x": null}], "a": "z"}'
    assert canonical_json(text) == to_hashable(json.loads(text))
    assert canonical_json(text) is canonical_json(text)  # remembered, and immutable
    assert repr(canonical_json("[1]")) != repr(canonical_json("[1.0]"))
