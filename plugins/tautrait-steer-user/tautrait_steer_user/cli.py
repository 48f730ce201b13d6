"""``tautrait steer``: build, serve and probe trait vectors for a local model.

Thin: parse options, call the library, print. torch and transformers (the ``[local]``
extra) are imported only inside the commands.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from tautrait_core.commands import json_option, library_call

LOCAL_EXTRA_HINT = (
    "the local steer commands need torch and transformers: pip install 'tautrait-steer-user[local]'"
)

device_option = click.option(
    "--device", default=None, help="cpu, cuda, cuda:1, ... [default: cuda when present]."
)
dtype_option = click.option(
    "--dtype",
    type=click.Choice(["float32", "bfloat16", "float16"]),
    default=None,
    help="Model weights [default: bfloat16 on a GPU, float32 on CPU].",
)
level_scales_option = click.option(
    "--level-scales",
    default="0.5,1,1.5",
    show_default=True,
    help="Steering coefficients for intensity low,medium,high.",
)
vectors_option = click.option(
    "--vectors",
    "vectors_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder written by tautrait steer build.",
)
model_option = click.option(
    "--model",
    default=None,
    help="Model folder or name [default: the model the vectors were built on].",
)


def require_local() -> None:
    """Fail with the install hint unless torch, transformers and safetensors import; then
    quiet transformers (see :func:`quiet_transformers`)."""
    try:
        import safetensors  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as exc:
        raise click.ClickException(f"{LOCAL_EXTRA_HINT} ({exc})") from exc
    quiet_transformers()


def quiet_transformers() -> None:
    """No progress bars, notices or warnings from transformers (and the Hugging Face hub it
    downloads through) in the commands' output: what a command has to say it prints."""
    import warnings

    from transformers.utils import logging as transformers_logging

    transformers_logging.set_verbosity_error()
    transformers_logging.disable_progress_bar()
    warnings.filterwarnings("ignore", module=r"(transformers|huggingface_hub)(\.|$)")


def _scales(spec: str) -> tuple[float, float, float]:
    from tautrait_steer_user.steering import parse_level_scales

    try:
        return parse_level_scales(spec)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--level-scales") from exc


def _generator(
    model: str | None, vectors_dir: Path, device: str | None, dtype: str | None, scales: str
) -> Any:
    from tautrait_steer_user.generation import SteeredGenerator
    from tautrait_steer_user.vectors import TraitVectors

    vectors = library_call(TraitVectors.load, vectors_dir)
    return library_call(
        SteeredGenerator.from_folder, model or vectors.model, vectors_dir, device, dtype,
        _scales(scales),
    )  # fmt: skip


@click.group()
def steer() -> None:
    """Steered simulated users: build, serve and probe trait vectors.

    \b
    With a hosted steer service nothing here is needed:
      tautrait run ... --user llm --trait-backend steer --endpoint URL \\
        --traits impatience=high
    (key in STEER_API_KEY). To steer a model of your own (pip install
    'tautrait-steer-user[local]'):
      tautrait steer build --model MODEL --out vectors/
      tautrait steer probe --vectors vectors/
      tautrait steer serve --vectors vectors/ --port 8600
      tautrait run ... --trait-backend steer --endpoint http://127.0.0.1:8600/
    """


@steer.command()
@click.option("--model", required=True, help="Hugging Face causal LM: folder or model name.")
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder to write the vectors to (for --vectors of serve and probe).",
)
@click.option(
    "--layers", default=None, help="Layer range A:B, B exclusive [default: middle third]."
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=8,
    show_default=True,
    help="Example turns run through the model together.",
)
@device_option
@dtype_option
@json_option
def build(
    model: str,
    out_dir: Path,
    layers: str | None,
    batch_size: int,
    device: str | None,
    dtype: str | None,
    as_json: bool,
) -> None:
    """Build one vector per trait from the shipped contrastive examples.

    Each vector is the mean residual-stream activation of turns showing the trait minus
    that of the same turns written neutrally, at each layer of the range.
    """
    require_local()
    from tautrait_core.commands import echo_json
    from tautrait_steer_user.causal_lm import load_model, parse_layers
    from tautrait_steer_user.pairs import load_pairs
    from tautrait_steer_user.vectors import build_vectors

    loaded, tokenizer = library_call(load_model, model, device, dtype)
    layer_range = library_call(parse_layers, layers, loaded.config.num_hidden_layers)
    pairs = library_call(load_pairs)
    vectors = build_vectors(loaded, tokenizer, model, layer_range, pairs, batch_size=batch_size)
    path = vectors.save(out_dir)
    norms = {trait: float(v.norm(dim=-1).mean()) for trait, v in vectors.vectors.items()}
    summary = {
        "path": str(path),
        "model": model,
        "layers": f"{layer_range[0]}:{layer_range[1]}",
        "pairs_per_trait": len(pairs.neutral),
        "content_hash": vectors.content_hash(),
        "mean_norm": norms,
    }
    if as_json:
        echo_json(summary)
        return
    click.echo(f"Wrote {path}")
    click.echo(f"model {model}, layers {summary['layers']}, {len(pairs.neutral)} pairs per trait")
    click.echo(f"content hash {summary['content_hash']}")
    for trait, norm in norms.items():
        click.echo(f"  {trait:<12} mean norm per layer {norm:.4f}")


@steer.command()
@model_option
@vectors_option
@click.option("--host", default="127.0.0.1", show_default=True, help="0.0.0.0 to serve others.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8600,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "fast", "eager"]),
    default="auto",
    show_default=True,
    help="fast: static cache, CUDA graphs, requests join and leave the running "
    "batch (Llama, Mistral, Qwen2); eager: any model, requests that arrive "
    "together form a batch; auto: fast where the model allows.",
)
@click.option(
    "--max-batch",
    type=click.IntRange(min=1),
    default=32,
    show_default=True,
    help="The most requests generated together.",
)
@click.option(
    "--max-context",
    type=click.IntRange(min=8),
    default=None,
    help="Fast engine: tokens per conversation, prompt plus reply (the cache "
    "holds max-batch of them) [default: 4096, or the model's maximum].",
)
@click.option(
    "--batch-wait-ms",
    type=click.FloatRange(min=0),
    default=10.0,
    show_default=True,
    help="How long a request to an idle server waits for others to join it.",
)
@level_scales_option
@click.option(
    "--require-key", is_flag=True, help="Answer 401 unless API-Key equals $STEER_API_KEY."
)
@device_option
@dtype_option
def serve(
    model: str | None,
    vectors_dir: Path,
    host: str,
    port: int,
    engine: str,
    max_batch: int,
    max_context: int | None,
    batch_wait_ms: float,
    level_scales: str,
    require_key: bool,
    device: str | None,
    dtype: str | None,
) -> None:
    """Serve steered user turns over HTTP with the hosted steer service's protocol."""
    require_local()
    from tautrait_core import apply_stored_keys
    from tautrait_steer_user.fast_generation import serving_generator
    from tautrait_steer_user.protocol import API_KEY_ENV
    from tautrait_steer_user.server import SteerServer

    api_key = None
    if require_key:
        apply_stored_keys()
        api_key = os.environ.get(API_KEY_ENV) or None
        if api_key is None:
            raise click.UsageError(f"--require-key needs the key in {API_KEY_ENV}")
    reference = _generator(model, vectors_dir, device, dtype, level_scales)
    generator, eager_because = library_call(
        serving_generator, reference, engine, max_batch, max_context
    )
    if eager_because:
        click.echo(f"Eager engine: the fast one cannot run this model ({eager_because})")
    server = SteerServer(generator, host, port, max_batch, batch_wait_ms / 1000, api_key)
    served = generator.describe()
    click.echo(
        f"Serving {served['model']} (layers {served['layers']}, vectors "
        f"{served['vectors'][:12]}) on {server.url}  {served['engine']} engine, "
        f"up to {max_batch} requests at once"
    )
    click.echo(f"Use it with: tautrait run ... --trait-backend steer --endpoint {server.url}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")


@steer.command()
@model_option
@vectors_option
@click.option("--trait", "traits", multiple=True, help="Only these traits (repeatable).")
@click.option("--prompt", default=None, help="The agent's message to answer [default: fixed].")
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="How many of the most likely next tokens to show.",
)
@level_scales_option
@device_option
@dtype_option
@json_option
def probe(
    model: str | None,
    vectors_dir: Path,
    traits: tuple[str, ...],
    prompt: str | None,
    top: int,
    level_scales: str,
    device: str | None,
    dtype: str | None,
    as_json: bool,
) -> None:
    """Show how the next-token distribution moves with each trait's intensity."""
    require_local()
    from dataclasses import asdict

    from rich.table import Table

    from tautrait_core import canonical_trait
    from tautrait_core.commands import console, echo_json
    from tautrait_steer_user.probe import PROBE_CHAT, probe as run_probe

    chosen = [library_call(canonical_trait, trait) for trait in traits]
    messages = [PROBE_CHAT[0], {"role": "user", "content": prompt}] if prompt else None
    generator = _generator(model, vectors_dir, device, dtype, level_scales)
    rows = library_call(run_probe, generator, chosen or None, messages, top)
    if as_json:
        echo_json([asdict(row) for row in rows])
        return
    table = Table("trait", "intensity", "coef", "KL (nats)", "|Δlogits|", "top next tokens")
    for row in rows:
        tokens = "  ".join(f"{token!r} {p:.3f}" for token, p in row.top_tokens)
        table.add_row(
            row.trait,
            row.intensity,
            f"{row.coefficient:g}",
            f"{row.kl:.3g}",
            f"{row.logit_shift:.3f}",
            tokens,
        )
    console().print(table)
