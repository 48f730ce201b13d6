"""End-to-end throughput: episodes per minute against a model server with fixed latency.

The full pipeline runs: the runner, the tool-calling agent and the llm user simulator,
the real model client (the direct path on aiohttp, or litellm's), and the results
database. The model is the scripted OpenAI-compatible server (``GoldScript``: the agent
calls the gold actions, the user reads the instruction and stops), in a separate process
so its own work does not share this process's interpreter, and every answer waits
``--latency`` seconds.

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

Every figure is measured for two transports side by side in the same run (``--transports``):
``litellm``, every call through ``litellm.acompletion`` (``TAUTRAIT_LLM_TRANSPORT=litellm``,
how tautrait called models before its direct path), and ``direct``, the default, which posts
calls to an OpenAI-compatible server on aiohttp without litellm (``tautrait_core.llm.direct``).
Each figure is the median of ``--repeats`` runs; locally the transports' runs alternate, so
both see the same machine. The last lines give, per concurrency, the direct path's CPU per
call over litellm's, and over bare litellm calls' (below).

Before the runs, the same run measures the floor under litellm's CPU column: bare
``litellm.acompletion`` calls, nothing of tautrait around them, carrying the domain's tool
schemas and policy to the same kind of server at the same latency. Its CPU per call bounds
how many calls per second one process (one core) can make through litellm:
``cores x 1000 / (ms per call)``. Also measured, for comparison only: litellm's
``EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER`` path, which skips the openai SDK; tautrait
does not enable it, because on that path a truncated answer is not retried.

With ``--agent a2a`` it compares agents instead of transports: the built-in ``tool-calling``
agent on the direct path against the example Agents SDK service of
``examples/openai-agents-a2a`` behind ``--agent a2a`` (a separate process, its model on the
same scripted server, its tools over the episodes' MCP endpoints), and prints this
process's CPU per agent turn (a tool call or a reply: one step of τ-bench's protocol) for
each, and their ratio: what the harness spends on the A2A and MCP plumbing. The remote
agent's own CPU is not counted (it is another process), nor are its model calls.

    python bench/throughput.py --domain telehealth --latency 0.2 --concurrency 1,16,64,256
    python bench/throughput.py --executor ray --concurrency 256 --repeats 1
    python bench/throughput.py --agent a2a --concurrency 1,16 --latency 0.05
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

from tautrait_core.llm.direct import TRANSPORT_VARIABLE

EXPERIMENTAL_HANDLER = "EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER"
TRANSPORTS = {"litellm": "litellm", "direct": "auto"}
"""Transport names the bench compares, and the value of ``TAUTRAIT_LLM_TRANSPORT`` for each."""


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
    from tautrait_core.scripted.scripts import GoldScript
    from tautrait_core.scripted.server import ScriptedModelServer

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
    agent: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run about ``episodes`` episodes at ``concurrency``; wall time, calls, CPU, and when
    the run and its last episode started (wall clock)."""
    from tautrait_core.config.run_config import RunConfig
    from tautrait_core.plugins import lookup
    from tautrait_core.run.runner import execute

    domain = lookup("domain", domain_name)
    total_tasks = len(domain.task_sets[domain.default_task_set].tasks)
    trials = max(1, math.ceil(episodes / total_tasks))
    agent = agent or {"agent": "tool-calling", "agent_model": model, "agent_api_base": base_url}
    config = RunConfig(
        domain=domain_name,
        **agent,
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
        "steps": sum(r.steps for r in results),
        "began": begun,
        "last_start": last_start.time,
    }


def start_ray(domain_name: str, transport: str) -> None:
    """A local Ray instance whose workers load only the domain under test and send model
    calls by ``transport``."""
    from tautrait_core.run.executors import import_ray

    ray = import_ray()
    if ray.is_initialized():
        ray.shutdown()
    env = {
        "TAUTRAIT_LOAD_PLUGINS": domain_name,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        TRANSPORT_VARIABLE: TRANSPORTS[transport],
    }
    ray.init(include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": env})


def use_transport(transport: str, executor: str, domain_name: str) -> None:
    """Send this process's (and, with Ray, the workers') model calls by ``transport``."""
    os.environ[TRANSPORT_VARIABLE] = TRANSPORTS[transport]
    if executor == "ray":
        start_ray(domain_name, transport)


def row(level: int, transport: str, latency: float, samples: list[dict[str, Any]]) -> str:
    """One table line: the medians of the repeated runs of ``transport`` at ``level``."""
    per_episode = statistics.median(s["calls_per_episode"] for s in samples)
    ideal = level * 60 / (per_episode * latency)
    per_minute = statistics.median(s["episodes"] / s["wall_s"] * 60 for s in samples)
    steady_rates = [s["steady"] * 60 / s["calls_per_episode"] for s in samples if s["steady"]]
    steady_text = f"{'n/a':>13} {'':>6}"
    if steady_rates:
        steady = statistics.median(steady_rates)
        steady_text = f"{steady:>13.0f} {steady / ideal:>6.2f}"
    return (
        f"{level:>11} {transport:>9} {samples[0]['episodes']:>8.0f} {per_episode:>8.1f} "
        f"{statistics.median(s['wall_s'] for s in samples):>7.1f} {ideal:>8.0f} "
        f"{per_minute:>10.0f} {per_minute / ideal:>6.2f} {steady_text} "
        f"{cpu_per_call(samples):>14.2f}"
    )


def cpu_per_call(samples: list[dict[str, Any]]) -> float:
    """Median CPU milliseconds per model call over repeated runs."""
    return statistics.median(s["cpu_s"] / s["calls"] * 1000 for s in samples)


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
        "--transports",
        default="litellm,direct",
        help="how model calls are sent, compared in the same run: litellm (everything "
        "through litellm.acompletion, as before the direct path) and direct (the default)",
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs per figure; every figure is their median"
    )
    parser.add_argument(
        "--floor-calls", type=int, default=640, help="bare litellm calls for the floor"
    )
    parser.add_argument(
        "--agent",
        choices=["tool-calling", "a2a"],
        default="tool-calling",
        help="a2a: CPU per agent turn of the example A2A agent beside tool-calling's",
    )
    args = parser.parse_args()
    levels = [int(n) for n in args.concurrency.split(",")]
    transports = args.transports.split(",")
    unknown = set(transports) - set(TRANSPORTS)
    if unknown:
        parser.error(f"unknown transport(s) {', '.join(sorted(unknown))}: use litellm, direct")

    context = multiprocessing.get_context("spawn")
    ready, requests, replies = context.Queue(), context.Queue(), context.Queue()
    server = context.Process(
        target=serve, args=(args.domain, args.latency, ready, requests, replies), daemon=True
    )
    server.start()
    episodes_url, plain_url = ready.get(timeout=120)
    if args.agent == "a2a":
        from remote_turns import compare_agents

        try:
            compare_agents(args, levels, episodes_url, measure)
        finally:
            server.terminate()
        return
    cores = os.cpu_count() or 1
    print(
        f"domain {args.domain}, model {args.model}, executor {args.executor}, {cores} cores, "
        f"scripted server latency {args.latency * 1000:.0f} ms per call, medians of "
        f"{args.repeats} runs each"
    )
    try:
        floors, experimental = [], []
        for _ in range(args.repeats):
            floors.append(litellm_floor(args.domain, plain_url, args.model, 64, args.floor_calls))
            os.environ[EXPERIMENTAL_HANDLER] = "True"
            experimental.append(
                litellm_floor(args.domain, plain_url, args.model, 64, args.floor_calls)
            )
            del os.environ[EXPERIMENTAL_HANDLER]
        floor = statistics.median(floors)
        print(
            f"litellm alone: {floor:.2f} ms CPU per call, at most {1000 / floor:.0f} calls/s "
            f"per core ({EXPERIMENTAL_HANDLER}: {statistics.median(experimental):.2f} ms, "
            "not used)"
        )
        samples: dict[tuple[int, str], list[dict[str, Any]]] = {}

        def run(level: int, transport: str, folder: str, repeat: int) -> None:
            figures = measure(
                args.domain,
                episodes_url,
                args.model,
                args.executor,
                level,
                max(args.waves * level, 1),
                Path(folder) / f"results-{level}-{transport}-{repeat}.db",
            )
            requests.put("answers")
            answers = replies.get(timeout=60)
            figures["steady"] = steady_calls_per_s(answers, figures["began"], figures["last_start"])
            samples.setdefault((level, transport), []).append(figures)

        with tempfile.TemporaryDirectory() as folder:
            if args.executor == "ray":  # a Ray instance per transport: its workers' setting
                for transport in transports:
                    use_transport(transport, args.executor, args.domain)
                    for level in levels:
                        for repeat in range(args.repeats):
                            run(level, transport, folder, repeat)
            else:  # interleaved, so that both see the same machine
                for level in levels:
                    for repeat in range(args.repeats):
                        for transport in transports:
                            use_transport(transport, args.executor, args.domain)
                            run(level, transport, folder, repeat)
        cpu_label = "cpu ms/call" if args.executor == "local" else "driver ms/call"
        print(
            f"{'concurrency':>11} {'transport':>9} {'episodes':>8} {'calls/ep':>8} "
            f"{'wall s':>7} {'ideal':>8} {'run ep/min':>10} {'ratio':>6} "
            f"{'steady ep/min':>13} {'ratio':>6} {cpu_label:>14}"
        )
        for level in levels:
            for transport in transports:
                print(row(level, transport, args.latency, samples[(level, transport)]))
        for level in levels:
            if "direct" not in transports:
                break
            direct = cpu_per_call(samples[(level, "direct")])
            if "litellm" in transports:
                baseline = cpu_per_call(samples[(level, "litellm")])
                print(
                    f"concurrency {level}: {cpu_label} direct {direct:.2f} / litellm "
                    f"{baseline:.2f} = {direct / baseline:.2f}"
                )
            print(
                f"concurrency {level}: {cpu_label} direct {direct:.2f} / bare litellm "
                f"{floor:.2f} = {direct / floor:.2f}"
            )
    finally:
        server.terminate()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the runner process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
