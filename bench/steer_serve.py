"""Steered user turns per second: ``tautrait steer serve``'s eager and fast engines against
Hugging Face ``generate`` with forward hooks, and time to first token under arrivals.

Everything is measured in one run on one device, in three parts (``--parts``):

- ``equality``: greedy tokens of the fast path against the eager path's, for steered and
  unsteered rows in one batch; in the model's dtype and, when that is not float32, again
  on a float32 copy (bf16 kernels may round differently, so a mismatch there is reported,
  not hidden).
- ``table``: for each batch size, that many concurrent requests go to an in-process
  server (the one ``steer serve`` runs) and are timed until the last answer; the server's
  batch is the batch size. The requests come from another process
  (``bench/steer_load.py``), as runners' requests do. Steered rounds give every request
  a trait mix (cycling through single traits and a two-trait mix, low to high);
  unsteered rounds send an empty mix. Every turn is exactly ``--max-tokens`` tokens long
  (end-of-sequence is ignored), at temperature 0.7. Eager: the eager engine (static
  batching, as before the fast path). Fast: the fast engine over HTTP, and the same
  engine called directly (``generate``, no HTTP), which shows what HTTP costs. HF:
  ``model.generate`` with the steering hooks installed and its default sampling
  settings, called directly: what a user gets by writing a forward hook around
  ``generate``. Median over ``--rounds`` rounds after a warm-up round.
- ``arrivals``: ``--arrivals`` requests arrive as a Poisson process (rate ``--rate``,
  default: the eager engine's steered turns per second at batch 8, or 4/s), every second
  one a one-token request; the latency of those is the time to the first token a client
  sees, the others are full turns. Three servers get the same arrivals: static batching
  with the eager engine (what ``steer serve`` did before), static batching with the fast
  engine, and continuous batching with the fast engine (``steer serve`` now).

Three model choices: ``--random-model 1b`` (Llama-3.2-1B's shape with random weights,
created on the device, and a word-level tokenizer padded to its vocabulary; nothing is
downloaded), ``--random-model small`` (the same family scaled down, for CPU), ``--tiny``
(the tests' model), or ``--model NAME`` (a Hugging Face model).

    PYTHONPATH=.:plugins/tautrait-steer-user python3 bench/steer_serve.py \\
        --random-model 1b --device cuda --out steer_serve.md
    python bench/steer_serve.py --device cpu --tiny --batches 1,8 --max-tokens 16
"""

from __future__ import annotations

import argparse
import copy
import gc
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch
from tautrait_steer_user.causal_lm import load_model, parse_layers
from tautrait_steer_user.fast_generation import FastSteeredGenerator
from tautrait_steer_user.generation import SteeredGenerator, SteerReply
from tautrait_steer_user.pairs import load_pairs
from tautrait_steer_user.protocol import SteerRequest, parse_request
from tautrait_steer_user.server import SteerServer
from tautrait_steer_user.steering import steered, steering_deltas
from tautrait_steer_user.tiny_model import random_llama, tiny_model_and_tokenizer, tiny_tokenizer
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
LLAMA_1B = {
    "vocab_size": 128256,
    "hidden_size": 2048,
    "intermediate_size": 8192,
    "num_hidden_layers": 16,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "tie_word_embeddings": True,
    "max_position_embeddings": 131072,
    "rms_norm_eps": 1e-5,
    "rope_theta": 500000.0,
    "rope_scaling": {
        "rope_type": "llama3",
        "factor": 32.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
    "pad_token_id": 1,  # the word-level tokenizer's special tokens
    "bos_token_id": 2,
    "eos_token_id": 3,
}
"""Llama-3.2-1B's config.json, but for the token ids of the word-level tokenizer."""
RANDOM_MODELS = {
    "1b": LLAMA_1B,
    "small": {
        **LLAMA_1B,
        "vocab_size": 4096,
        "hidden_size": 256,
        "intermediate_size": 1024,
        "num_hidden_layers": 4,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 32,
    },
}


class Report:
    """Lines printed at once and, with ``--out``, rewritten to a file after each one."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.lines: list[str] = []
        self.started = time.perf_counter()

    def say(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)
        if self.out is not None:
            self.out.write_text("\n".join(self.lines) + "\n", encoding="utf-8")

    def elapsed(self) -> str:
        return f"[{time.perf_counter() - self.started:.0f} s]"


class WholeBatches:
    """A generator served by whole batches (static batching), every turn to its limit."""

    def __init__(self, inner: SteeredGenerator | FastSteeredGenerator) -> None:
        self.inner = inner

    def check(self, request: SteerRequest) -> None:
        self.inner.check(request)

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def generate(self, requests: Sequence[SteerRequest]) -> list[SteerReply]:
        if isinstance(self.inner, SteeredGenerator):
            return self.inner.generate(requests, stop_at_eos=False)
        return self.inner.generate(requests)  # built with stop_at_eos=False


def bodies(count: int, steered: bool, max_tokens: int, temperature: float = 0.7) -> list[dict]:
    return [
        {
            "trait_dict": STEERED_MIXES[index % len(STEERED_MIXES)] if steered else {},
            "messages": CHAT,
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        for index in range(count)
    ]


def synchronize(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def release(device: str) -> None:
    gc.collect()
    if device.startswith("cuda"):
        torch.cuda.empty_cache()


def median_seconds(run: Callable[[], float], rounds: int) -> float:
    """The median of ``rounds`` calls of ``run`` (seconds each), after one warm-up call."""
    run()
    return statistics.median(run() for _ in range(rounds))


def load_generator(job: dict[str, Any]) -> list[float]:
    """Run ``bench/steer_load.py`` on ``job`` in its own process; its seconds."""
    script = Path(__file__).with_name("steer_load.py")
    done = subprocess.run(
        [sys.executable, str(script)], input=json.dumps(job), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"the load generator failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def served_rate(generator: Any, batch: int, steered: bool, args: argparse.Namespace) -> float:
    """Turns per second of ``batch`` concurrent requests through an in-process server."""
    job = {"mode": "rounds", "bodies": bodies(batch, steered, args.max_tokens)}
    with SteerServer(generator, max_batch=batch, wait_s=0.5) as server:
        seconds = load_generator({**job, "url": server.url, "rounds": args.rounds})
    return batch / statistics.median(seconds)


def direct_rate(fast: FastSteeredGenerator, batch: int, steered: bool, args: Any) -> float:
    """Turns per second of the fast engine's ``generate`` (no HTTP)."""
    requests = [parse_request(body) for body in bodies(batch, steered, args.max_tokens)]

    def run() -> float:
        started = time.perf_counter()
        fast.generate(requests)
        return time.perf_counter() - started

    return batch / median_seconds(run, args.rounds)


def hf_generate_rate(eager: SteeredGenerator, batch: int, args: argparse.Namespace) -> float:
    """Tokens per second of ``model.generate`` with the steering hooks (no HTTP)."""
    model, prompt = eager.model, eager.prompt_ids(CHAT)
    ids = torch.tensor([prompt] * batch, device=eager.device)
    requests = [parse_request(body) for body in bodies(batch, True, args.max_tokens)]
    deltas = steering_deltas(eager.vectors, [eager.coefficients(r.traits) for r in requests])

    def run() -> float:
        started = time.perf_counter()
        with torch.no_grad(), steered(model, eager.vectors.layers, deltas):
            written = model.generate(
                input_ids=ids,
                attention_mask=torch.ones_like(ids),
                max_new_tokens=args.max_tokens,
                min_new_tokens=args.max_tokens,
                do_sample=True,
                temperature=0.7,
                pad_token_id=eager.pad_id,
            )
        synchronize(args.device)
        assert written.shape[1] == len(prompt) + args.max_tokens
        return time.perf_counter() - started

    return batch * args.max_tokens / median_seconds(run, args.rounds)


def fast_engine(
    eager: SteeredGenerator, max_batch: int, args: Any, stop_at_eos: bool = False
) -> FastSteeredGenerator:
    """The fast engine over ``eager``'s model, with room for the benchmark's turns."""
    context = -(-(len(eager.prompt_ids(CHAT)) + args.max_tokens) // 64) * 64
    graphs = False if args.no_cuda_graphs else None
    return FastSteeredGenerator(
        eager, max_batch, context, stop_at_eos=stop_at_eos, cuda_graphs=graphs
    )


def load(args: argparse.Namespace) -> tuple[SteeredGenerator, str]:
    """The eager generator over the chosen model, and a description of the setup."""
    if args.random_model:
        config = RANDOM_MODELS[args.random_model]
        dtype = args.dtype or ("float32" if args.device == "cpu" else "bfloat16")
        model = random_llama(config, args.device, dtype)
        tokenizer = tiny_tokenizer(config["vocab_size"])
        name = f"random Llama-3.2-1B shape ({args.random_model})"
    elif args.tiny:
        model, tokenizer = tiny_model_and_tokenizer(seed=0)
        model.to(args.device)
        name = "tiny random Llama"
    else:
        if not args.model:
            raise SystemExit("give --model MODEL, --random-model 1b|small or --tiny")
        model, tokenizer = load_model(args.model, args.device, args.dtype)
        name = args.model
    if getattr(tokenizer, "chat_template", None) and importlib.util.find_spec("jinja2") is None:
        tokenizer.chat_template = None  # chats are rendered as "role: content" lines
        name += " (no jinja2 here: chats as role: content lines)"
    if args.vectors:
        vectors = TraitVectors.load(Path(args.vectors))
    else:
        layers = parse_layers(args.layers, model.config.num_hidden_layers)
        vectors = build_vectors(model, tokenizer, name, layers, load_pairs())
    eager = SteeredGenerator(model, tokenizer, vectors)
    config = model.config
    parameters = sum(parameter.numel() for parameter in model.parameters())
    description = (
        f"{name}: {parameters / 1e6:,.1f}M parameters, {config.num_hidden_layers} layers, "
        f"width {config.hidden_size}, {config.num_attention_heads} heads "
        f"({config.num_key_value_heads} key/value), vocabulary {config.vocab_size}, "
        f"{next(model.parameters()).dtype}, on {args.device}"
        + (f" ({torch.cuda.get_device_name()})" if args.device.startswith("cuda") else "")
        + f"; steered layers {vectors.layers[0]}:{vectors.layers[1]}; prompt "
        f"{len(eager.prompt_ids(CHAT))} tokens; torch {torch.__version__}"
    )
    return eager, description


def greedy_match(eager: SteeredGenerator, args: argparse.Namespace, report: Report) -> None:
    """Greedy tokens of the fast path against the eager path's, steered and unsteered: in
    the model's dtype and, when that is not float32, in a float32 copy too."""
    payloads = bodies(6, True, args.max_tokens, temperature=0.0)
    payloads[1]["trait_dict"] = payloads[4]["trait_dict"] = {}
    requests = [parse_request(body) for body in payloads]
    widen = next(eager.model.parameters()).dtype != torch.float32
    for generator in (eager, *([None] if widen else [])):
        report.say(
            f"{greedy_line(generator or float32_copy(eager), requests, args)}  {report.elapsed()}"
        )
        release(args.device)


def float32_copy(eager: SteeredGenerator) -> SteeredGenerator:
    return SteeredGenerator(copy.deepcopy(eager.model).float(), eager.tokenizer, eager.vectors)


def greedy_line(generator: SteeredGenerator, requests: list[SteerRequest], args: Any) -> str:
    """How many rows and tokens the fast path writes as ``generator`` does."""
    expected = generator.generate(requests)
    fast = fast_engine(generator, len(requests), args, stop_at_eos=True)
    written = fast.generate(requests)
    rows = sum(a.tokens == b.tokens for a, b in zip(expected, written, strict=True))
    same = sum(_common_prefix(a.tokens, b.tokens) for a, b in zip(expected, written, strict=True))
    total = sum(len(reply.tokens) for reply in expected)
    dtype = next(generator.model.parameters()).dtype
    return (
        f"greedy, {dtype}: {rows}/{len(requests)} rows identical (4 steered, 2 not), "
        f"{same}/{total} tokens before the first difference"
    )


def _common_prefix(first: Sequence[int], second: Sequence[int]) -> int:
    same = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        same += 1
    return same


def throughput_table(eager: SteeredGenerator, args: argparse.Namespace, report: Report) -> dict:
    """The table of turns and tokens per second; returns the eager rates by batch."""
    tokens = args.max_tokens
    report.say(
        f"{tokens} tokens per turn, temperature 0.7, median of {args.rounds} rounds; "
        "turns/s through the HTTP server unless marked direct"
    )
    report.say()
    report.say(
        "| batch | eager steered turns/s | eager unsteered turns/s | eager steered tok/s "
        "| fast steered turns/s | fast unsteered turns/s | fast steered tok/s "
        "| fast direct steered tok/s | HF generate + hooks tok/s | fast/HF | fast direct/HF "
        "| fast steered/unsteered | fast/eager |"
    )
    report.say("|" + "---|" * 13)
    eager_rates = {}
    for batch in args.batch_sizes:
        fixed = WholeBatches(eager)
        eager_steered = attempt(report, served_rate, fixed, batch, True, args)
        eager_plain = attempt(report, served_rate, fixed, batch, False, args)
        eager_rates[batch] = eager_steered
        fast = attempt(report, fast_engine, eager, batch, args)
        fast_steered = fast and attempt(report, served_rate, fast, batch, True, args)
        fast_plain = fast and attempt(report, served_rate, fast, batch, False, args)
        direct = fast and attempt(report, direct_rate, fast, batch, True, args)
        fast = None
        release(args.device)
        hf = attempt(report, hf_generate_rate, eager, batch, args)
        cells = [
            cell(eager_steered, ".2f"),
            cell(eager_plain, ".2f"),
            cell(eager_steered and eager_steered * tokens, ",.0f"),
            cell(fast_steered, ".2f"),
            cell(fast_plain, ".2f"),
            cell(fast_steered and fast_steered * tokens, ",.0f"),
            cell(direct and direct * tokens, ",.0f"),
            cell(hf, ",.0f"),
            cell(fast_steered and hf and fast_steered * tokens / hf, ".2f"),
            cell(direct and hf and direct * tokens / hf, ".2f"),
            cell(fast_steered and fast_plain and fast_steered / fast_plain, ".2f"),
            cell(fast_steered and eager_steered and fast_steered / eager_steered, ".2f"),
        ]
        report.say(f"| {batch} | " + " | ".join(cells) + " |")
    report.say(report.elapsed())
    return eager_rates


def attempt(report: Report, measure: Callable[..., Any], *arguments: Any) -> Any:
    """``measure(*arguments)``, or ``None`` once the failure is reported (the run goes on)."""
    try:
        return measure(*arguments)
    except Exception as exc:
        traceback.print_exc()
        report.say(f"FAILED: {type(exc).__name__}: {str(exc).strip()[:300]}")
        return None


def cell(value: float | None, spec: str) -> str:
    return "failed" if value is None else format(value, spec)


def percentiles(values: Sequence[float]) -> tuple[float, float]:
    """Median and 90th percentile."""
    return statistics.median(values), statistics.quantiles(values, n=10)[-1]


def arrivals(
    eager: SteeredGenerator, rate: float, args: argparse.Namespace, report: Report
) -> None:
    """Time to first token and turn latency under Poisson arrivals, three ways of serving."""
    draw, at = random.Random(0), 0.0
    schedule = []
    for index in range(args.arrivals):
        at += draw.expovariate(rate)
        body = bodies(len(STEERED_MIXES), True, 1 if index % 2 else args.max_tokens)
        schedule.append((at, body[index % len(STEERED_MIXES)]))
    report.say()
    report.say(
        f"{args.arrivals} requests arriving at {rate:.2f}/s (Poisson), every second one "
        f"for 1 token (time to first token), the others for {args.max_tokens}; up to "
        f"{args.arrival_batch} at once; latencies in ms, median / p90"
    )
    report.say()
    report.say("| serving | time to first token | turn latency |")
    report.say("|---|---|---|")
    fast = fast_engine(eager, args.arrival_batch, args)
    warm = [parse_request(body) for body in bodies(args.arrival_batch, True, args.max_tokens)]
    size = 1
    while size <= args.arrival_batch:  # capture the graphs of every batch bucket first
        fast.generate(warm[:size])
        size *= 2
    servers = {
        "static batching, eager engine (before)": WholeBatches(eager),
        "static batching, fast engine": WholeBatches(fast),
        "continuous batching, fast engine (now)": fast,
    }
    first_token = {}
    for label, generator in servers.items():
        with SteerServer(generator, max_batch=args.arrival_batch, wait_s=0.01) as server:
            latencies = load_generator(
                {"mode": "arrivals", "url": server.url, "schedule": schedule}
            )
        probes = percentiles(
            [
                s * 1000
                for s, (_, b) in zip(latencies, schedule, strict=True)
                if b["max_tokens"] == 1
            ]
        )
        turns = percentiles(
            [s * 1000 for s, (_, b) in zip(latencies, schedule, strict=True) if b["max_tokens"] > 1]
        )
        first_token[label] = probes
        report.say(
            f"| {label} | {probes[0]:,.0f} / {probes[1]:,.0f} | {turns[0]:,.0f} / {turns[1]:,.0f} |"
        )
    before, now = first_token[next(iter(servers))], first_token[list(servers)[-1]]
    report.say()
    report.say(
        f"time to first token, before / now: median {before[0] / now[0]:.1f}x, "
        f"p90 {before[1] / now[1]:.1f}x  {report.elapsed()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="Hugging Face causal LM (folder or name).")
    parser.add_argument("--random-model", choices=sorted(RANDOM_MODELS), help="Random weights.")
    parser.add_argument("--tiny", action="store_true", help="The tests' tiny random model.")
    parser.add_argument("--vectors", help="A vector folder (default: build at --layers).")
    parser.add_argument("--layers", default=None, help="A:B for building (default: middle).")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--dtype", default=None, choices=["float32", "bfloat16", "float16"])
    parser.add_argument("--batches", default="1,8,32,64", help="Batch sizes, comma-separated.")
    parser.add_argument("--max-tokens", type=int, default=64, help="Tokens per user turn.")
    parser.add_argument("--rounds", type=int, default=3, help="Timed rounds per figure.")
    parser.add_argument("--parts", default="equality,table,arrivals", help="What to measure.")
    parser.add_argument("--arrivals", type=int, default=48, help="Requests in arrivals.")
    parser.add_argument("--rate", type=float, default=None, help="Arrivals per second.")
    parser.add_argument("--arrival-batch", type=int, default=32, help="Rows in arrivals.")
    parser.add_argument(
        "--no-cuda-graphs", action="store_true", help="The fast engine without CUDA graphs."
    )
    parser.add_argument("--out", type=Path, default=None, help="Also write the report here.")
    args = parser.parse_args()
    args.batch_sizes = [int(part) for part in args.batches.split(",")]
    parts = set(args.parts.split(","))
    report = Report(args.out)
    if args.device == "cpu":  # the server's worker thread and this one would each start an
        torch.set_num_threads(1)  # OpenMP team and slow each other down many times over
    eager, description = load(args)
    report.say(description)
    report.say(f"model and vectors ready {report.elapsed()}")
    eager_rates: dict[int, float | None] = {}
    if "equality" in parts:
        attempt(report, greedy_match, eager, args, report)
    if "table" in parts:
        eager_rates = attempt(report, throughput_table, eager, args, report) or {}
    if "arrivals" in parts:
        measured = [rate for batch, rate in eager_rates.items() if batch <= 8 and rate]
        rate = args.rate or (measured[-1] if measured else 4.0)
        attempt(report, arrivals, eager, rate, args, report)
    report.say(f"done {report.elapsed()}")


if __name__ == "__main__":
    main()
