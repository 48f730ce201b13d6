"""End-to-end episode cost on τ³ task sets, with the scripted server standing in for the LLMs.

Issue 25 asks for tautrait's episode cost on τ³ (tau2-bench v1.x) task sets beside τ³'s own
runner on the same tasks. τ³'s code is not part of the reference material (only its data,
specs and golden outputs are), so only tautrait's side is measured here; the script says so
in its output and what a τ³ checkout would add.

Setup, in a temporary folder: a τ³ checkout is built from the reference material
(``build_tau3_checkout``: τ³'s retail, airline and banking_knowledge data) and imported with
``tautrait import tau2`` into one ``TAUTRAIT_HOME``; a fork checkout of retail (τ²-bench's
data, ``build_tau2_checkout``) is imported into another, as the baseline: the same domain
under the fork's rules.

For each task set a scripted OpenAI-compatible server (``tautrait serve-scripted``'s
responder, ``_episode_script``, in its own process) plays both LLMs: the tool-calling agent
makes the gold calls, the llm user reads the instruction and stops. Tasks whose τ³ grade has
NL assertions need a judge; the same server answers requests for model ``judge`` with every
expected outcome met (τ³'s golden stub), so those episodes are scored too. Every measured
episode is a whole gold episode that passes (the customer reads end signals its instruction
mentions out, as 44 of banking_knowledge's instructions do).

Every measured run is ``tautrait_core.run.runner.execute`` (what ``tautrait run`` calls, as
``bench/throughput.py`` measures it) of ``--agent tool-calling --user llm`` in a fresh child
process: CPU per episode is that process's CPU time (all its threads) over ``execute`` only,
so neither the server's process nor interpreter start-up is counted; wall per episode is the
run's wall time over its episodes. The server's own CPU per episode is printed beside them
(column ``server ms/ep``), not counted in the harness's: on a machine with few cores the
wall time holds both. Both harness figures include the run's one-time setup (loading the
domain, building the BM25 index) spread over its episodes: the cost of a whole run. Each
figure is the median of ``--repeats`` runs; the runs of all task sets alternate, so they
see the same machine. The last lines give, per
concurrency, retail under τ³'s rules (``tau2:retail/test``) over the fork's retail on the
same 40 task ids.

    python bench/tau3_episodes.py --concurrency 1,32 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REFERENCE = Path("/work/shared/peers")
"""The reference material folder (``tau2-bench/``, ``tau3-bench/``); ``--reference``."""
JUDGE_MODEL = "judge"
"""The model name the scripted server answers as the NL-assertion judge."""


def all_met(request: dict[str, Any]) -> str:
    """A judge that finds every expected outcome met (τ³'s golden stub)."""
    prompt = request["messages"][-1]["content"]
    outcomes = json.loads(prompt.split("<expected_outcomes>\n")[1].split("\n</expected")[0])
    results = [{"expectedOutcome": o, "reasoning": "met", "metExpectation": True} for o in outcomes]
    return json.dumps({"results": results})


def serve(home: str, domain: str, task_set: str, ready: Any, requests: Any, replies: Any) -> None:
    """Child process: ``serve-scripted``'s responder for ``task_set`` of ``domain`` (the
    imports under ``home``) and the judge, until terminated. Each item on ``requests`` is
    answered on ``replies`` with this process's CPU seconds so far."""
    os.environ["TAUTRAIT_HOME"] = home
    from tautrait_core.cli.serve import _episode_script
    from tautrait_core.scripted.server import ScriptedModelServer

    script = _episode_script(domain, task_set)

    def respond(request: dict[str, Any]) -> Any:
        return all_met(request) if request.get("model") == JUDGE_MODEL else script(request)

    with ScriptedModelServer(respond) as server:
        ready.put(server.base_url)
        while True:
            requests.get()
            replies.put(time.process_time())


def cell(spec: dict[str, Any]) -> dict[str, Any]:
    """Child process: one run of ``spec``'s task set at its concurrency; CPU and wall."""
    from tautrait_core.config.run_config import RunConfig
    from tautrait_core.domain.task_sets import resolve_task_set
    from tautrait_core.plugins import lookup
    from tautrait_core.run.runner import execute

    tasks = resolve_task_set(lookup("domain", spec["domain"]), spec["task_set"]).tasks
    chosen = spec["task_ids"]
    indices = list(range(len(tasks)))
    if isinstance(chosen, int):  # the first N tasks
        indices = indices[:chosen]
    elif chosen is not None:  # τ ids -> indices into the task set
        ids = [task.id for task in tasks]
        indices = [ids.index(task_id) for task_id in chosen]
    extra: dict[str, Any] = {"task_ids": indices}
    if spec["retrieval"]:
        extra["retrieval"] = spec["retrieval"]
    url, model = spec["url"], "openai/scripted"
    config = RunConfig(
        domain=spec["domain"],
        task_set=spec["task_set"],
        agent="tool-calling",
        agent_model=model,
        agent_api_base=url,
        user="llm",
        user_model=model,
        user_api_base=url,
        judge_model=f"openai/{JUDGE_MODEL}",
        judge_api_base=url,
        concurrency=spec["concurrency"],
        results_db=spec["database"],
        max_steps=200,  # τ³'s default
        **extra,
    )
    cpu_started, started = time.process_time(), time.perf_counter()
    report = execute(config)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    results = report.results
    return {
        "episodes": len(results),
        "passed": sum(1 for r in results if r.reward == 1.0),
        "errors": sum(1 for r in results if r.error),
        "first_error": next((r.error.splitlines()[0] for r in results if r.error), None),
        "calls": sum(len(r.calls) for r in results),
        "cpu_s": cpu,
        "wall_s": wall,
    }


def run_cell(spec: dict[str, Any], home: str) -> dict[str, Any]:
    """``cell(spec)`` in a fresh interpreter whose ``TAUTRAIT_HOME`` is ``home``."""
    env = {**os.environ, "TAUTRAIT_HOME": home}
    done = subprocess.run(
        [sys.executable, __file__, "--cell", json.dumps(spec)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"run of {spec['task_set']} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def tautrait_import(checkout: Path, home: Path) -> None:
    """``tautrait import tau2 checkout`` into ``home``."""
    tautrait = Path(sys.executable).with_name("tautrait")
    done = subprocess.run(
        [str(tautrait), "import", "tau2", str(checkout)],
        env={**os.environ, "TAUTRAIT_HOME": str(home)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"tautrait import tau2 {checkout} failed:\n{done.stdout}{done.stderr}")


def retail_test_ids(home: Path) -> list[str]:
    """The task ids of τ³ retail's ``test`` split, as the import keeps them."""
    splits = json.loads((home / "imports" / "tau2" / "retail" / "split_tasks.json").read_text())
    return list(splits["test"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cell", help=argparse.SUPPRESS)
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument("--concurrency", default="1,32")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (median)")
    parser.add_argument(
        "--banking-tasks",
        type=int,
        default=0,
        help="only the first N of banking_knowledge's 97 tasks (0: all)",
    )
    args = parser.parse_args()
    if args.cell:
        print(json.dumps(cell(json.loads(args.cell))))
        return
    from tautrait_core.testing import build_tau2_checkout
    from tautrait_core.testing.tau3_reference import build_tau3_checkout

    levels = [int(n) for n in args.concurrency.split(",")]
    if not (args.reference / "tau3-bench").is_dir():
        raise SystemExit(f"no τ³ reference material under {args.reference}")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        tau3_home, fork_home = root / "home-tau3", root / "home-fork"
        tau3 = ["retail", "airline", "banking_knowledge"]
        tautrait_import(build_tau3_checkout(args.reference, root / "tau3", tau3), tau3_home)
        fork = build_tau2_checkout(args.reference / "tau2-bench", root / "fork", ["retail"])
        tautrait_import(fork, fork_home)
        test_ids = retail_test_ids(tau3_home)
        banking: int | None = args.banking_tasks or None
        sets = [  # label, home, domain, task set, τ ids or the first N (None: all), retrieval
            ("τ³ retail/test", tau3_home, "tau2-retail", "tau2:retail/test", None, None),
            ("fork retail (same 40)", fork_home, "tau2-retail", "tau2:retail", test_ids, None),
            ("τ³ airline", tau3_home, "tau2-airline", "tau2:airline", None, None),
            (
                "τ³ banking bm25",
                tau3_home,
                "tau2-banking_knowledge",
                "tau2:banking_knowledge",
                banking,
                "bm25",
            ),
        ]
        context = multiprocessing.get_context("spawn")
        servers, urls, queues = [], {}, {}
        try:
            for label, home, domain, task_set, _, _ in sets:
                ready, requests, replies = context.Queue(), context.Queue(), context.Queue()
                queues[label] = (requests, replies)
                server = context.Process(
                    target=serve,
                    args=(str(home), domain, task_set, ready, requests, replies),
                    daemon=True,
                )
                server.start()
                servers.append(server)
                urls[label] = ready.get(timeout=180)
            print(
                f"{os.cpu_count()} cores (shared with other work on this machine), scripted "
                f"server without latency in its own process per task set, medians of "
                f"{args.repeats} runs; cpu ms/ep: the harness process over execute() only; "
                "server ms/ep: the scripted server's process (both LLMs and the judge), not "
                "counted in cpu"
            )
            samples: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for repeat in range(args.repeats):
                for level in levels:
                    for label, home, domain, task_set, ids, retrieval in sets:
                        spec = {
                            "domain": domain,
                            "task_set": task_set,
                            "task_ids": ids,
                            "retrieval": retrieval,
                            "url": urls[label],
                            "concurrency": level,
                            "database": str(root / f"r-{len(samples)}-{repeat}-{level}.db"),
                        }
                        requests, replies = queues[label]
                        requests.put("cpu")
                        server_started = replies.get(timeout=60)
                        figures = run_cell(spec, str(home))
                        requests.put("cpu")
                        figures["server_cpu_s"] = replies.get(timeout=60) - server_started
                        samples.setdefault((label, level), []).append(figures)
        finally:
            for server in servers:
                server.terminate()
    print(
        f"{'task set':<22} {'conc':>4} {'episodes':>8} {'pass':>5} {'err':>4} "
        f"{'calls/ep':>8} {'cpu ms/ep':>10} {'wall ms/ep':>10} {'wall s':>7} "
        f"{'server ms/ep':>12}"
    )
    medians: dict[tuple[str, int], tuple[float, float]] = {}
    for level in levels:
        for label, *_ in sets:
            runs = samples[(label, level)]
            episodes = runs[0]["episodes"]
            cpu = statistics.median(r["cpu_s"] / r["episodes"] * 1000 for r in runs)
            wall = statistics.median(r["wall_s"] / r["episodes"] * 1000 for r in runs)
            medians[(label, level)] = (cpu, wall)
            served = statistics.median(r["server_cpu_s"] / r["episodes"] * 1000 for r in runs)
            passed = min(r["passed"] for r in runs)  # the worst of the repeats
            errors = max(r["errors"] for r in runs)
            print(
                f"{label:<22} {level:>4} {episodes:>8} {passed:>5} "
                f"{errors:>4} {runs[0]['calls'] / episodes:>8.1f} {cpu:>10.1f} "
                f"{wall:>10.1f} {statistics.median(r['wall_s'] for r in runs):>7.2f} "
                f"{served:>12.1f}"
            )
            if runs[0]["first_error"]:
                print(f"  first error: {runs[0]['first_error'][:150]}")
    for level in levels:
        t3, fk = medians[("τ³ retail/test", level)], medians[("fork retail (same 40)", level)]
        print(
            f"concurrency {level}: retail τ³ rules / fork rules: CPU per episode "
            f"{t3[0]:.1f} / {fk[0]:.1f} = {t3[0] / fk[0]:.2f}, wall per episode "
            f"{t3[1]:.1f} / {fk[1]:.1f} = {t3[1] / fk[1]:.2f}"
        )
    print(
        "τ³'s own runner: NOT measured: its code is not available here (the reference "
        "material holds τ³'s data, specs and golden outputs only). To add its rows one needs "
        "a τ³ (tau2-bench v1.x) source checkout installed (pip install -e '.[knowledge]'), "
        "its `tau2 run` on the same tasks (task split test / base, retrieval config bm25) "
        "with agent, user and NL judge all pointed at this scripted server (its judge model "
        "is fixed in its code, so through OPENAI_API_BASE or a patch), at max_concurrency 1 "
        "and 32, timing that process's CPU and wall in this same run."
    )


if __name__ == "__main__":
    main()
