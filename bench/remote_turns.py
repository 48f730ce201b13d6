"""``bench/throughput.py --agent a2a``: the harness's CPU per agent turn with a remote agent
(the example Agents SDK service over A2A, tools over MCP) beside the native tool-calling
agent's, measured in the same run, interleaved, medians of ``--repeats``."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples" / "openai-agents-a2a" / "agent_service.py"
)


def start_example(model_url: str, port: int = 9931) -> tuple[subprocess.Popen[bytes], str]:
    """The example agent as a separate process, its model the scripted server."""
    command = [sys.executable, str(EXAMPLE), "--port", str(port), "--model", "scripted"]
    process = subprocess.Popen([*command, "--base-url", model_url])
    url = f"http://127.0.0.1:{port}/"
    for _ in range(600):
        try:
            with urllib.request.urlopen(url + ".well-known/agent-card.json", timeout=1):
                return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the example agent did not start")


def compare_agents(args: Any, levels: list[int], model_url: str, measure: Any) -> None:
    """Run both agents at each concurrency and print CPU per agent turn and the ratio."""
    process, agent_url = start_example(model_url)
    agents = {
        "tool-calling": {
            "agent": "tool-calling",
            "agent_model": args.model,
            "agent_api_base": model_url,
        },
        "a2a": {"agent": "a2a", "agent_url": agent_url, "agent_timeout": 600},
    }
    samples: dict[tuple[int, str], list[float]] = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for level in levels:
                for repeat in range(args.repeats):
                    for name, agent in agents.items():
                        database = Path(folder) / f"{name}-{level}-{repeat}.db"
                        figures = measure(
                            args.domain,
                            model_url,
                            args.model,
                            "local",
                            level,
                            max(args.waves * level, 1),
                            database,
                            agent,
                        )
                        per_turn = 1000 * figures["cpu_s"] / figures["steps"]
                        samples.setdefault((level, name), []).append(per_turn)
    finally:
        process.terminate()
    print(
        f"domain {args.domain}, scripted latency {args.latency * 1000:.0f} ms, medians of "
        f"{args.repeats} runs; harness CPU per agent turn (ms)"
    )
    for level in levels:
        native = statistics.median(samples[(level, "tool-calling")])
        remote = statistics.median(samples[(level, "a2a")])
        print(
            f"concurrency {level:>4}: tool-calling {native:6.2f}  a2a {remote:6.2f}  "
            f"a2a / tool-calling {remote / native:.2f}"
        )
