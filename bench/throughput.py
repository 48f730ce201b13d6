"""End-to-end throughput: episodes per minute against a model server with fixed latency.

The full pipeline runs: the runner, the tool-calling agent and the llm user simulator,
litellm's real client path, and the results database. The model is the scripted
OpenAI-compatible server (``GoldScript``: the agent calls the gold actions, the user reads
the instruction and stops), in a separate process so its own work does not share this
process's interpreter, and every answer waits ``--latency`` seconds.

For each concurrency the script prints model calls per episode, episodes per minute and
the ratio to the latency-bound ideal ``concurrency x 60 s / (calls per episode x latency)``:
how close the run comes to spending all its time waiting on the model. Two rates:

- ``run``: all episodes over the whole wall time. A finite run starts with every slot
  opening at once and ends draining its last wave, whose slots sit idle while its
  longest episode finishes; at a few waves that alone keeps the ratio well under 1.
- ``steady``: the rate while every slot is busy, which the ideal describes: model answers
  per second counted by the server over the second half of the time before the last
  episode starts, times 60 over calls per episode.

It also prints the CPU time this process spent per model call and the peak resident
memory. With ``--executor ray`` the episodes run on Ray workers of a local Ray instance
(one per core); the CPU column then counts the driver only.

Before the runs, the same run measures the floor under the CPU column: bare
``litellm.acompletion`` calls, nothing of tautrait around them, carrying the domain's tool
schemas and policy to the same kind of server at the same latency. Its CPU per call bounds
how many calls per second one process (one core) can make, whatever the framework does:
``cores x 1000 / (ms per call)``. Also measured, for comparison only: litellm's
``EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER`` path, which skips the openai SDK; tautrait
does not enable it, because on that path a truncated answer is not retried.

    python bench/throughput.py --domain telehealth --latency 0.2 --concurrency 1,16,64,256
"""

from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import os
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

EXPERIMENTAL_HANDLER = "EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER"


class AnswerClock:
    """Wraps a responder and notes the wall-clock time of each answer it makes (the
    scripted server calls it after the latency wait)."""

    def __init__(self, responder: Any) -> None:
        self.responder = responder
        self.times: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Any:
        with self.lock:
            self.times.append(time.time())
        return self.responder(request)

    def take(self) -> list[float]:
        """The times noted since the last call."""
        with self.lock:
            times, self.times = self.times, []
        return times


def serve(domain_name: str, latency_s: float, ready: Any, requests: Any, replies: Any) -> None:
    """Child process: serve ``GoldScript`` answers for ``domain_name`` and, on a second
    server, one-line text answers (for the litellm floor), until terminated. Each item on
    ``requests`` is answered on ``replies`` with the times of the episode answers made
    since the previous item (the floor's answers are not timed)."""
    from tautrait_core.plugins import lookup
    from tautrait_core.testing.scripts import GoldScript
    from tautrait_core.testing.server import ScriptedModelServer

    domain = lookup("domain", domain_name)
    tasks = domain.task_sets[domain.default_task_set].tasks
    clock = AnswerClock(GoldScript(tasks, domain.terminating_tools))
    with (
        ScriptedModelServer(clock, latency_s=latency_s) as episodes,
        ScriptedModelServer(latency_s=latency_s) as plain,
    ):
        ready.put((episodes.base_url, plain.base_url))
        while True:
            requests.get()
            replies.put(clock.take())


class LastStart:
    """Progress receiver noting when the latest-starting episode started (wall clock)."""

    def __init__(self, begun: float) -> None:
        self.time = begun

    def started(self, run: Any, total: int, already_done: int) -> None:
        pass

    def episode_finished(self, result: Any) -> None:
        self.time = max(self.time, time.time() - result.duration_s)


def steady_calls_per_s(answers: list[float], started: float, last_start: float) -> float | None:
    """Answers per second over the second half of ``[started, last_start]``, while every
    slot has an episode (``None`` when that window is empty)."""
    window_start = started + (last_start - started) / 2
    if last_start <= window_start:
        return None
    inside = sum(1 for t in answers if window_start <= t <= last_start)
    return inside / (last_start - window_start)


def litellm_floor(
    domain_name: str, base_url: str, model: str, concurrency: int, calls: int
) -> float:
    """CPU milliseconds per bare ``litellm.acompletion`` call (tools and policy attached)."""
    from tautrait_core.llm.provider import load_litellm
    from tautrait_core.plugins import lookup

    litellm = load_litellm()
    domain = lookup("domain", domain_name)
    arguments = {
        "model": model,
        "api_base": base_url,
        "api_key": "sk-bench",
        "messages": [
            {"role": "system", "content": domain.policy},
            {"role": "user", "content": "Hi, I need help with my account."},
        ],
        "tools": list(domain.tool_schemas),
        "temperature": 0.0,
        "num_retries": 0,
        "max_retries": 0,
    }

    async def run() -> float:
        await litellm.acompletion(**arguments)  # connection set up, caches filled
        gate = asyncio.Semaphore(concurrency)

        async def one() -> None:
            async with gate:
                await litellm.acompletion(**arguments)

        started = time.process_time()
        await asyncio.gather(*(one() for _ in range(calls)))
        return (time.process_time() - started) / calls * 1000

    return asyncio.run(run())


def measure(
    domain_name: str,
    base_url: str,
    model: str,
    executor: str,
    concurrency: int,
    episodes: int,
    database: Path,
) -> dict[str, Any]:
    """Run about ``episodes`` episodes at ``concurrency``; wall time, calls, CPU, and when
    the run and its last episode started (wall clock)."""
    from tautrait_core.config import RunConfig
    from tautrait_core.plugins import lookup
    from tautrait_core.run.runner import execute

    domain = lookup("domain", domain_name)
    total_tasks = len(domain.task_sets[domain.default_task_set].tasks)
    trials = max(1, math.ceil(episodes / total_tasks))
    config = RunConfig(
        domain=domain_name,
        agent="tool-calling",
        agent_model=model,
        agent_api_base=base_url,
        user="llm",
        user_model=model,
        user_api_base=base_url,
        num_trials=trials,
        concurrency=concurrency,
        results_db=str(database),
        max_steps=60,
        executor=executor,
    )
    begun = time.time()
    last_start = LastStart(begun)
    cpu_started, started = time.process_time(), time.perf_counter()
    report = execute(config, progress=last_start)
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
        "began": begun,
        "last_start": last_start.time,
    }


def start_ray(domain_name: str) -> None:
    """A local Ray instance whose workers load only the domain under test."""
    from tautrait_core.run.executors import import_ray

    ray = import_ray()
    env = {"TAUTRAIT_LOAD_PLUGINS": domain_name, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    ray.init(include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": env})


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
    parser.add_argument(
        "--model",
        default="openai/scripted",
        help="model name sent through litellm (a priced name such as openai/gpt-4o-mini "
        "takes litellm's cost path for known models)",
    )
    parser.add_argument("--executor", choices=["local", "ray"], default="local")
    parser.add_argument(
        "--floor-calls", type=int, default=640, help="bare litellm calls for the floor"
    )
    args = parser.parse_args()
    levels = [int(n) for n in args.concurrency.split(",")]

    context = multiprocessing.get_context("spawn")
    ready, requests, replies = context.Queue(), context.Queue(), context.Queue()
    server = context.Process(
        target=serve, args=(args.domain, args.latency, ready, requests, replies), daemon=True
    )
    server.start()
    episodes_url, plain_url = ready.get(timeout=120)
    cores = os.cpu_count() or 1
    print(
        f"domain {args.domain}, model {args.model}, executor {args.executor}, {cores} cores, "
        f"scripted server latency {args.latency * 1000:.0f} ms per call"
    )
    try:
        floor = litellm_floor(args.domain, plain_url, args.model, 64, args.floor_calls)
        os.environ[EXPERIMENTAL_HANDLER] = "True"
        experimental = litellm_floor(args.domain, plain_url, args.model, 64, args.floor_calls)
        del os.environ[EXPERIMENTAL_HANDLER]
        print(
            f"litellm alone: {floor:.2f} ms CPU per call, at most {1000 / floor:.0f} calls/s "
            f"per core ({EXPERIMENTAL_HANDLER}: {experimental:.2f} ms, not used)"
        )
        if args.executor == "ray":
            start_ray(args.domain)
        cpu_label = "cpu ms/call" if args.executor == "local" else "driver ms/call"
        print(
            f"{'concurrency':>11} {'episodes':>8} {'calls/ep':>8} {'wall s':>7} {'ideal':>8} "
            f"{'run ep/min':>10} {'ratio':>6} {'steady ep/min':>13} {'ratio':>6} {cpu_label:>14}"
        )
        with tempfile.TemporaryDirectory() as folder:
            for level in levels:
                figures = measure(
                    args.domain,
                    episodes_url,
                    args.model,
                    args.executor,
                    level,
                    max(args.waves * level, 1),
                    Path(folder) / f"results-{level}.db",
                )
                requests.put("answers")
                answers = replies.get(timeout=60)
                per_episode = figures["calls_per_episode"]
                ideal = level * 60 / (per_episode * args.latency)
                per_minute = figures["episodes"] / figures["wall_s"] * 60
                steady = steady_calls_per_s(answers, figures["began"], figures["last_start"])
                steady_text = (
                    f"{steady * 60 / per_episode:>13.0f} {steady * 60 / per_episode / ideal:>6.2f}"
                    if steady is not None
                    else f"{'n/a':>13} {'':>6}"
                )
                cpu_per_call = figures["cpu_s"] / figures["calls"] * 1000
                print(
                    f"{level:>11} {figures['episodes']:>8.0f} {per_episode:>8.1f} "
                    f"{figures['wall_s']:>7.1f} {ideal:>8.0f} {per_minute:>10.0f} "
                    f"{per_minute / ideal:>6.2f} {steady_text} {cpu_per_call:>14.2f}",
                    flush=True,
                )
    finally:
        server.terminate()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the runner process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
