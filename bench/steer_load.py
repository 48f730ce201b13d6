"""The load generator of ``bench/steer_serve.py``, run as its own process, as runners are:
in the server's process its work would take the interpreter from the server's threads.

Reads a JSON job on standard input and prints a JSON list of seconds:

- ``{"mode": "rounds", "url": URL, "bodies": [...], "rounds": N}``: a warm-up round,
  then N rounds, each posting every body at once; the seconds of each timed round until
  its last answer. The rounds share one client, whose connections stay open between
  them, as a runner's do (tautrait keeps one connection pool per backend).
- ``{"mode": "arrivals", "url": URL, "schedule": [[at_s, body], ...]}``: each body posted
  at its time; the latency of each request, in the schedule's order.

A request answered with anything but 200 ends the job with an error.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import aiohttp


async def post(client: aiohttp.ClientSession, url: str, body: dict[str, Any]) -> None:
    async with client.post(url, json=body) as answer:
        text = await answer.text()
    if answer.status != 200:
        raise SystemExit(f"a request failed with {answer.status}: {text[:200]}")


def session(connections: int) -> aiohttp.ClientSession:
    """A client with a connection per request in flight. aiohttp, not httpx: httpx spends
    milliseconds of CPU per request, which at 64 requests a round would be the client's
    time, not the server's."""
    connector = aiohttp.TCPConnector(limit=connections)
    return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=600))


async def one_round(client: aiohttp.ClientSession, url: str, bodies: list[dict[str, Any]]) -> float:
    """Seconds until every body has been answered (all sent at once)."""
    started = time.perf_counter()
    await asyncio.gather(*(post(client, url, body) for body in bodies))
    return time.perf_counter() - started


async def rounds(url: str, bodies: list[dict[str, Any]], count: int) -> list[float]:
    """A warm-up round (which also opens the connections), then ``count`` timed rounds."""
    async with session(len(bodies)) as client:
        await one_round(client, url, bodies)
        return [await one_round(client, url, bodies) for _ in range(count)]


async def arrivals(url: str, schedule: list[tuple[float, dict[str, Any]]]) -> list[float]:
    """Latency of each request, each sent at its time in ``schedule``."""
    async with session(len(schedule)) as client:
        started = time.perf_counter()

        async def one(at: float, body: dict[str, Any]) -> float:
            await asyncio.sleep(max(0.0, at - (time.perf_counter() - started)))
            sent = time.perf_counter()
            await post(client, url, body)
            return time.perf_counter() - sent

        return await asyncio.gather(*(one(at, body) for at, body in schedule))


def main() -> None:
    job = json.load(sys.stdin)
    if job["mode"] == "rounds":
        seconds = asyncio.run(rounds(job["url"], job["bodies"], job["rounds"]))
    else:
        seconds = asyncio.run(arrivals(job["url"], job["schedule"]))
    print(json.dumps(seconds))


if __name__ == "__main__":
    main()
