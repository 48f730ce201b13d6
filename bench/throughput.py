"""End-to-end throughput: episodes per minute against a model server with fixed latency.

The full pipeline runs: the runner, the tool-calling agent and the llm user simulator,
litellm's real client path, and the results database. The model is the scripted
OpenAI-compatible server (``GoldScript``: the agent calls the gold actions, the user reads
the instruction and stops), in a separate process so its own work does not share this
process's interpreter, and every answer waits ``--latency`` seconds.

For each concurrency the script prints episodes per minute, model calls per episode, and
the ratio to the latency-bound ideal ``concurrency x 60 s / (calls per episode x latency)``:
how close the run comes to spending all its time waiting on the model. It also prints the
CPU time this process spent per model call (what bounds throughput once the waiting
overlaps) and the peak resident memory.

    python bench/throughput.py --domain telehealth --latency 0.2 --concurrency 1,16,64,256
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def serve(domain_name: str, latency_s: float, ready: Any) -> None:
    """Child process: serve ``GoldScript`` answers for ``domain_name`` until terminated."""
    from tautrait_core.plugins import lookup
    from tautrait_core.testing.scripts import GoldScript
    from tautrait_core.testing.server import ScriptedModelServer

    domain = lookup("domain", domain_name)
    tasks = domain.task_sets[domain.default_task_set].tasks
    script = GoldScript(tasks, domain.terminating_tools)
    with ScriptedModelServer(script, latency_s=latency_s) as server:
        ready.put(server.base_url)
        while True:
            time.sleep(3600)


def measure(
    domain_name: str, base_url: str, concurrency: int, episodes: int, database: Path
) -> dict[str, float]:
    """Run about ``episodes`` episodes at ``concurrency``; wall time, calls and CPU."""
    from tautrait_core.models import RunConfig
    from tautrait_core.plugins import lookup
    from tautrait_core.runner import execute

    domain = lookup("domain", domain_name)
    total_tasks = len(domain.task_sets[domain.default_task_set].tasks)
    trials = max(1, math.ceil(episodes / total_tasks))
    config = RunConfig(
        domain=domain_name,
        agent="tool-calling",
        agent_model="openai/scripted",
        agent_api_base=base_url,
        user="llm",
        user_model="openai/scripted",
        user_api_base=base_url,
        num_trials=trials,
        concurrency=concurrency,
        results_db=str(database),
        max_steps=60,
    )
    cpu_started, started = time.process_time(), time.perf_counter()
    report = execute(config)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    results = report.results
    failed = [r for r in results if r.reward != 1.0]
    if failed:
        raise SystemExit(
            f"{len(failed)} of {len(results)} episodes did not pass (first: task "
            f"{failed[0].task_id}: {failed[0].error or failed[0].termination.value})"
        )
    calls = [len(r.calls) for r in results]
    return {
        "episodes": len(results),
        "wall_s": wall,
        "calls": sum(calls),
        "calls_per_episode": statistics.mean(calls),
        "cpu_s": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domain", default="telehealth")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per model answer")
    parser.add_argument("--concurrency", default="1,16,64,256")
    parser.add_argument(
        "--waves",
        type=int,
        default=3,
        help="episodes per run = waves x concurrency (at least one pass over the tasks)",
    )
    args = parser.parse_args()
    levels = [int(n) for n in args.concurrency.split(",")]

    context = multiprocessing.get_context("spawn")
    ready = context.Queue()
    server = context.Process(target=serve, args=(args.domain, args.latency, ready), daemon=True)
    server.start()
    base_url = ready.get(timeout=120)
    print(f"domain {args.domain}, scripted server latency {args.latency * 1000:.0f} ms per call")
    header = (
        f"{'concurrency':>11} {'episodes':>8} {'calls/ep':>8} {'wall s':>7} "
        f"{'ep/min':>8} {'ideal':>8} {'ratio':>6} {'cpu ms/call':>11}"
    )
    print(header)
    try:
        with tempfile.TemporaryDirectory() as folder:
            for level in levels:
                figures = measure(
                    args.domain,
                    base_url,
                    level,
                    max(args.waves * level, 1),
                    Path(folder) / f"results-{level}.db",
                )
                per_minute = figures["episodes"] / figures["wall_s"] * 60
                ideal = level * 60 / (figures["calls_per_episode"] * args.latency)
                cpu_per_call = figures["cpu_s"] / figures["calls"] * 1000
                print(
                    f"{level:>11} {figures['episodes']:>8.0f} {figures['calls_per_episode']:>8.1f} "
                    f"{figures['wall_s']:>7.1f} {per_minute:>8.0f} {ideal:>8.0f} "
                    f"{per_minute / ideal:>6.2f} {cpu_per_call:>11.2f}",
                    flush=True,
                )
    finally:
        server.terminate()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the runner process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
