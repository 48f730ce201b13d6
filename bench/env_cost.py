"""Environment cost per episode, without any model: fresh state + gold actions + reward.

For each domain on the upstream tau-trait test split (read from the reference material or an
imported checkout), every task is run as an episode whose agent is the gold replay itself:
a fresh private copy of the database, the gold actions through the tools, then the reward
(gold replay on another fresh copy, canonical hashes, output check). The gold-replay cache
is cleared before every episode, so each reward pays for its own replay (upstream's way).
A second figure keeps the cache, as a run does for every trial of a task after its first
(the gold state of a task and date is computed once per process).

Baseline, measured in the same run: the upstream way of handling the data, i.e. reading the
domain's JSON files from disk twice per episode and hashing the whole database twice with
``sha256(str(to_hashable(data)))``. It leaves out upstream's tool work, so it is a lower
bound of upstream's cost per episode.

Memory: ``--inflight`` episodes are held open at once (after their gold actions) and the
process's peak resident memory is reported.

    python bench/env_cost.py --peers ../shared/peers/tau-trait
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from pathlib import Path
from typing import Any

from tautrait_core.compat.hashing import upstream_hash
from tautrait_core.domain import reward as reward_module
from tautrait_core.domain.reward import compute_reward, replay_actions
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.task import Task
from tautrait_core.plugins import get_plugin_manager

DEFAULT_PEERS = Path(__file__).resolve().parents[2] / "shared" / "peers" / "tau-trait"


def rss_mib(field: str = "VmRSS") -> float:
    """Resident memory of this process from /proc (VmRSS now, VmHWM peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run_episode(domain: Any, template: StateTemplate, task: Task, clear_gold: bool = True) -> None:
    if clear_gold:
        reward_module._gold_cache.clear()
    with template.new_episode() as db:
        replay_actions(domain, db, task.actions)
        compute_reward(domain, task, db, [])


def baseline_episode(domain: Any, data_folder: Path) -> None:
    for _ in range(2):  # upstream reloads the data for the episode and for the gold replay
        data = domain.upstream.read_data(data_folder)
        upstream_hash(data)


def measure(samples: int, action: Any) -> list[float]:
    timings = []
    for _ in range(samples):
        started = time.perf_counter()
        action()
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def bench_domain(
    name: str, peers: Path, repeat: int, inflight: int, baseline_samples: int
) -> dict[str, Any]:
    domain = get_plugin_manager().get("domain", name)
    data_folder = peers / "data" / name
    tasks = [
        Task.model_validate(t)
        for t in json.loads((peers / "tasks" / f"{name}_test.json").read_text())
    ]
    started = time.perf_counter()
    template = StateTemplate(
        f"{name}:upstream",
        domain.tables,
        domain.upstream.to_rows(domain.upstream.read_data(data_folder)),
    )
    build_ms = (time.perf_counter() - started) * 1000
    for task in tasks[:5]:  # warm up
        run_episode(domain, template, task)
    per_episode = []
    for _ in range(repeat):
        for task in tasks:
            per_episode.extend(measure(1, lambda task=task: run_episode(domain, template, task)))
    cached = []
    for _ in range(repeat):
        for task in tasks:
            run_episode(domain, template, task)  # fills the cache for this task
            cached.extend(measure(1, lambda task=task: run_episode(domain, template, task, False)))
    baseline = measure(baseline_samples, lambda: baseline_episode(domain, data_folder))
    gc.collect()
    before = rss_mib()
    held = []
    for index in range(inflight):
        db = template.new_episode()
        replay_actions(domain, db, tasks[index % len(tasks)].actions)
        db.flush()
        held.append(db)
    after = rss_mib()
    for db in held:
        db.close()
    ours = statistics.median(per_episode)
    theirs = statistics.median(baseline)
    return {
        "domain": name,
        "tasks": len(tasks),
        "episodes_timed": len(per_episode),
        "template_build_ms": round(build_ms, 1),
        "image_kib": template.size_bytes() // 1024,
        "median_ms": round(ours, 3),
        "p90_ms": round(statistics.quantiles(per_episode, n=10)[-1], 3),
        "gold_cached_median_ms": round(statistics.median(cached), 3),
        "baseline_median_ms": round(theirs, 1),
        "speedup_vs_baseline": round(theirs / ours, 1),
        "inflight": inflight,
        "inflight_rss_mib": round(after - before, 1),
        "peak_rss_mib": round(rss_mib("VmHWM"), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--peers", type=Path, default=DEFAULT_PEERS, help="tau-trait reference folder"
    )
    parser.add_argument("--domains", default="retail,airline,telecom,telehealth")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the test split")
    parser.add_argument("--inflight", type=int, default=256, help="episodes held open at once")
    parser.add_argument("--baseline-samples", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    installed = set(get_plugin_manager().names("domain"))
    for name in args.domains.split(","):
        if name not in installed or not (args.peers / "data" / name).is_dir():
            print(f"{name}: skipped (domain plugin not installed or no reference data)")
            continue
        result = bench_domain(name, args.peers, args.repeat, args.inflight, args.baseline_samples)
        if args.json:
            print(json.dumps(result))
            continue
        print(
            f"{name:<11} median {result['median_ms']:.3f} ms/episode "
            f"(p90 {result['p90_ms']:.3f}, {result['episodes_timed']} episodes; "
            f"gold cached {result['gold_cached_median_ms']:.3f}) | "
            f"baseline {result['baseline_median_ms']:.1f} ms "
            f"-> {result['speedup_vs_baseline']}x | image {result['image_kib']} KiB, "
            f"build {result['template_build_ms']:.0f} ms | {result['inflight']} in flight: "
            f"+{result['inflight_rss_mib']} MiB (peak RSS {result['peak_rss_mib']} MiB)"
        )


if __name__ == "__main__":
    main()
