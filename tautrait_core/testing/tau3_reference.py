"""τ³ (τ²-bench v1.x) reference material for tests: a checkout-shaped copy of its data.

The τ³ reference folder (``tau3-bench/`` of the ``reference_material`` fixture) holds only
what τ³ changed; every other file of a domain is the fork's (``tau2-bench/``).
:func:`build_tau3_checkout` lays both out as a τ³ checkout (``data/tau2/domains/<d>/``),
the airline database rebuilt with the fork's recipe. τ³'s telecom ``tasks.json`` (all 2 285
tasks, every split a filter over it) is not in the reference: the checkout's holds the
fork's 114 ``base`` tasks followed by the 20 ``small`` ones, which is how τ³ reads them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tautrait_core.testing.tau2_reference import build_tau2_checkout


def build_tau3_checkout(reference: Path, destination: Path, domains: list[str]) -> Path:
    """A τ³ checkout at ``destination`` holding ``domains`` (τ³ names, e.g. ``retail``,
    ``banking_knowledge``), built from the reference material folder ``reference``."""
    tau2, tau3 = reference / "tau2-bench", reference / "tau3-bench"
    fork_domains = [name for name in domains if (tau2 / "data" / name).is_dir()]
    checkout = build_tau2_checkout(tau2, destination, fork_domains)
    for name in domains:
        target = checkout / "data" / "tau2" / "domains" / name
        shutil.copytree(tau3 / "data" / name, target, dirs_exist_ok=True)
        if name == "telecom":
            fork = tau2 / "data" / "telecom"
            tasks = [
                *json.loads((fork / "tasks.json").read_text(encoding="utf-8")),
                *json.loads((fork / "tasks_small.json").read_text(encoding="utf-8")),
            ]
            (target / "tasks.json").write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    simulator = checkout / "data" / "tau2" / "user_simulator"
    shutil.copytree(tau3 / "data" / "user_simulator", simulator, dirs_exist_ok=True)
    return checkout
