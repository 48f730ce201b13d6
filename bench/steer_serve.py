"""Throughput of ``tautrait steer serve``: steered user turns per second against unsteered.

A local steer server (the one ``tautrait steer serve`` runs) is started in-process with
``--max-batch`` equal to the batch size; each round sends that many concurrent requests over
HTTP and times them until the last answer. Steered rounds give every request a trait mix
(cycling through single traits and a two-trait mix, low to high); unsteered rounds send an
empty mix, which runs the same model with no hooks installed. Every turn is exactly
``--max-tokens`` tokens long (end-of-sequence is ignored), so both sides do the same work.
Reported: the median over rounds of turns per second, and steered / unsteered.

    python bench/steer_serve.py --model Qwen/Qwen2.5-0.5B-Instruct --device cuda
    python bench/steer_serve.py --device cpu --tiny      # a tiny random model, no download
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from typing import Any

import httpx
from tautrait_steer_user.causal_lm import load_model, parse_layers
from tautrait_steer_user.generation import SteeredGenerator, SteerReply
from tautrait_steer_user.pairs import load_pairs
from tautrait_steer_user.protocol import SteerRequest
from tautrait_steer_user.server import SteerServer
from tautrait_steer_user.tiny_model import tiny_model_and_tokenizer
from tautrait_steer_user.vectors import TraitVectors, build_vectors

CHAT = [
    {"role": "system", "content": "You are a customer writing to a customer-service agent."},
    {"role": "user", "content": "Hello, how can I help you today?"},
    {"role": "assistant", "content": "I want to return the shoes from my last order."},
    {"role": "user", "content": "Could you please confirm your order number so I can look it up?"},
]
STEERED_MIXES = [
    {"impatience": "high"},
    {"confusion": "medium"},
    {"skeptical": "low"},
    {"incoherence": "high"},
    {"impatience": "medium", "skeptical": "high"},
]


class FixedLengthGenerator:
    """Generates every turn to its full token limit, so all rounds do the same work."""

    def __init__(self, inner: SteeredGenerator) -> None:
        self.inner = inner

    def check(self, request: SteerRequest) -> None:
        self.inner.check(request)

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]:
        return self.inner.generate(requests, stop_at_eos=False)


async def one_round(url: str, bodies: list[dict[str, Any]]) -> float:
    """Seconds until every body has been answered (all sent at once)."""
    limits = httpx.Limits(max_connections=len(bodies))
    async with httpx.AsyncClient(timeout=600, limits=limits) as client:
        started = time.perf_counter()
        answers = await asyncio.gather(*(client.post(url, json=body) for body in bodies))
        elapsed = time.perf_counter() - started
    failed = [answer.text for answer in answers if answer.status_code != 200]
    if failed:
        raise RuntimeError(f"{len(failed)} requests failed: {failed[0][:200]}")
    return elapsed


def measure(
    generator: FixedLengthGenerator, batch: int, steered: bool, max_tokens: int, rounds: int
) -> tuple[float, float]:
    """Median turns per second over ``rounds`` (after one warm-up round) and mean batch."""
    bodies = [
        {
            "trait_dict": STEERED_MIXES[index % len(STEERED_MIXES)] if steered else {},
            "messages": CHAT,
            "temperature": 0.7,
            "max_tokens": max_tokens,
        }
        for index in range(batch)
    ]
    with SteerServer(generator, max_batch=batch, wait_s=0.5) as server:
        asyncio.run(one_round(server.url, bodies))
        rates = [batch / asyncio.run(one_round(server.url, bodies)) for _ in range(rounds)]
        sizes = server.batcher.batch_sizes[1:]
    return statistics.median(rates), sum(sizes) / len(sizes)


def load(arguments: argparse.Namespace) -> tuple[SteeredGenerator, str]:
    """The generator to benchmark and a description of it."""
    if arguments.tiny:
        model, tokenizer = tiny_model_and_tokenizer(seed=0)
        model.to(arguments.device)
        name = "tiny random Llama"
    else:
        if not arguments.model:
            raise SystemExit("give --model MODEL (or --tiny)")
        model, tokenizer = load_model(arguments.model, arguments.device, arguments.dtype)
        name = arguments.model
    if arguments.vectors:
        vectors = TraitVectors.load(arguments.vectors)
    else:
        layers = parse_layers(arguments.layers, model.config.num_hidden_layers)
        vectors = build_vectors(model, tokenizer, name, layers, load_pairs())
    description = (
        f"{name} ({model.config.num_hidden_layers} layers, width {model.config.hidden_size}, "
        f"{next(model.parameters()).dtype}) on {arguments.device}, steered layers "
        f"{vectors.layers[0]}:{vectors.layers[1]}"
    )
    return SteeredGenerator(model, tokenizer, vectors), description


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="Hugging Face causal LM (folder or name).")
    parser.add_argument("--tiny", action="store_true", help="A tiny random model instead.")
    parser.add_argument("--vectors", help="A vector folder (default: build at --layers).")
    parser.add_argument("--layers", default=None, help="A:B for building (default: middle).")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--dtype", default=None, choices=["float32", "bfloat16", "float16"])
    parser.add_argument("--batches", default="1,8,32", help="Batch sizes, comma-separated.")
    parser.add_argument("--max-tokens", type=int, default=64, help="Tokens per user turn.")
    parser.add_argument("--rounds", type=int, default=5, help="Timed rounds per setting.")
    parser.add_argument("--json", action="store_true", help="Print the results as JSON.")
    arguments = parser.parse_args()
    from pathlib import Path

    if arguments.vectors:
        arguments.vectors = Path(arguments.vectors)
    generator, description = load(arguments)
    fixed = FixedLengthGenerator(generator)
    results = []
    for batch in (int(part) for part in arguments.batches.split(",")):
        steered, steered_batch = measure(fixed, batch, True, arguments.max_tokens, arguments.rounds)
        plain, plain_batch = measure(fixed, batch, False, arguments.max_tokens, arguments.rounds)
        results.append(
            {
                "batch": batch,
                "steered_turns_per_s": steered,
                "unsteered_turns_per_s": plain,
                "ratio": steered / plain,
                "mean_batch_steered": steered_batch,
                "mean_batch_unsteered": plain_batch,
            }
        )
    if arguments.json:
        print(json.dumps({"setup": description, "results": results}, indent=2))
        return
    print(description)
    print(
        f"{arguments.max_tokens} tokens per turn, median of {arguments.rounds} rounds, "
        "through the HTTP server"
    )
    print(f"{'batch':>5}  {'steered/s':>10}  {'unsteered/s':>11}  {'ratio':>6}  mean batch")
    for row in results:
        print(
            f"{row['batch']:>5}  {row['steered_turns_per_s']:>10.2f}  "
            f"{row['unsteered_turns_per_s']:>11.2f}  {row['ratio']:>6.3f}  "
            f"{row['mean_batch_steered']:.1f} / {row['mean_batch_unsteered']:.1f}"
        )


if __name__ == "__main__":
    main()
