"""What the local backend needs from a Hugging Face causal LM: loading it, finding its
decoder layers (the residual stream is their output), and rendering a chat as a prompt.

Works for any ``AutoModelForCausalLM`` whose decoder blocks sit in one ``ModuleList`` of
``num_hidden_layers`` entries (GPT-2, Llama, Mistral, Qwen, Gemma, Phi, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tautrait_steer_user.errors import ModelLoadError, VectorSetError

FALLBACK_GENERATION_PROMPT = "assistant:"
"""Ends a prompt rendered without a chat template: the model writes the customer's turn."""

MODEL_FIX = (
    "pass --model with a folder written by save_pretrained, or the name of a Hugging Face "
    "causal LM that is in the local cache or can be downloaded"
)


def decoder_layers(model: Any) -> Any:
    """The model's decoder blocks, in order (a ``torch.nn.ModuleList``).

    Raises:
        VectorSetError: no list of ``num_hidden_layers`` blocks was found.
    """
    import torch

    count = model.config.num_hidden_layers
    for _name, module in model.named_modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == count:
            return module
    raise VectorSetError(
        f"cannot find the {count} decoder layers of {type(model).__name__}: the steer "
        "backend needs a causal LM whose blocks are in one ModuleList"
    )


def hidden_of(output: Any) -> Any:
    """The hidden states in a decoder block's output (a tensor or a tuple led by one)."""
    return output[0] if isinstance(output, tuple) else output


def with_hidden(output: Any, hidden: Any) -> Any:
    """``output`` with its hidden states replaced by ``hidden``."""
    return (hidden, *output[1:]) if isinstance(output, tuple) else hidden


def cache_keyword(model: Any) -> str:
    """The name under which ``model.forward`` takes its key/value cache: ``cache`` in
    recent transformers 5.x (``past_key_values`` is deprecated there), ``past_key_values``
    before."""
    import inspect

    parameters = inspect.signature(type(model).forward).parameters
    return "cache" if "cache" in parameters else "past_key_values"


def cache_of(output: Any) -> Any:
    """The key/value cache a forward pass returned, under either of its names."""
    return output["cache"] if "cache" in output else output["past_key_values"]


def default_layers(count: int) -> tuple[int, int]:
    """The middle third of ``count`` layers (at least one), where steering works best."""
    start = count // 3
    return start, max(start + 1, (2 * count) // 3)


def parse_layers(spec: str | None, count: int) -> tuple[int, int]:
    """A layer range ``A:B`` (B exclusive, like a Python slice) checked against ``count``.

    Raises:
        VectorSetError: not of the form ``A:B`` with ``0 <= A < B <= count``.
    """
    if spec is None:
        return default_layers(count)
    start_text, colon, stop_text = spec.partition(":")
    try:
        start, stop = int(start_text), int(stop_text)
    except ValueError:
        start = stop = -1
    if not colon or not 0 <= start < stop <= count:
        raise VectorSetError(
            f"invalid layer range {spec!r}: write A:B with 0 <= A < B <= {count} "
            f"(the model has {count} layers), e.g. {':'.join(map(str, default_layers(count)))}"
        )
    return start, stop


def render_prompt(tokenizer: Any, messages: list[dict[str, str]]) -> str:
    """The chat as prompt text ending where the next assistant (customer) turn begins.

    Uses the tokenizer's chat template; without one, ``role: content`` lines.
    """
    if getattr(tokenizer, "chat_template", None):
        return tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    lines = [f"{message['role']}: {message['content']}\n" for message in messages]
    return "".join(lines) + FALLBACK_GENERATION_PROMPT


def encode_prompt(tokenizer: Any, messages: list[dict[str, str]]) -> list[int]:
    """Token ids of :func:`render_prompt` (a template adds its own special tokens)."""
    text = render_prompt(tokenizer, messages)
    templated = bool(getattr(tokenizer, "chat_template", None))
    return list(tokenizer(text, add_special_tokens=not templated)["input_ids"])


def pad_token_id(tokenizer: Any) -> int:
    """The id used for padding: the pad token, else end-of-sequence, else 0."""
    for token_id in (tokenizer.pad_token_id, tokenizer.eos_token_id):
        if isinstance(token_id, int):
            return token_id
    return 0


def resolve_device(device: str | None) -> str:
    """``device`` or, when ``None``, ``cuda`` if a GPU is present, else ``cpu``."""
    import torch

    if device:
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_model(name: str, device: str | None = None, dtype: str | None = None) -> tuple[Any, Any]:
    """A causal LM and its tokenizer from a local folder or a model name, in eval mode.

    Args:
        name: A folder written by ``save_pretrained`` or a model name.
        device: ``cpu``, ``cuda``, ``cuda:1``, ... (default: a GPU when present).
        dtype: ``float32``, ``bfloat16``, ``float16`` (default: bfloat16 on a GPU).

    Raises:
        ModelLoadError: nothing loadable is at ``name`` (no such folder, a folder without
            a model, a name neither cached nor downloadable), or ``device`` cannot hold it.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    device = resolve_device(device)
    dtype = dtype or ("float32" if device == "cpu" else "bfloat16")
    try:
        tokenizer = AutoTokenizer.from_pretrained(name)
        model = AutoModelForCausalLM.from_pretrained(name, dtype=getattr(torch, dtype))
    except (OSError, ValueError, ImportError) as exc:  # transformers' errors are multi-line
        raise ModelLoadError(
            f"cannot load the model {name!r}: {_load_problem(name, exc)}; {MODEL_FIX}"
        ) from exc
    try:
        model.to(device).eval()
    except (RuntimeError, AssertionError, ValueError) as exc:
        raise ModelLoadError(
            f"cannot put the model {name!r} on device {device!r} ({_first_line(exc)}); "
            "pass --device cpu, or cuda:N for a GPU this machine has"
        ) from exc
    return model, tokenizer


def _load_problem(name: str, exc: BaseException) -> str:
    """Why ``name`` did not load, in words (transformers' own message is a page long)."""
    folder = Path(name).expanduser()
    if folder.is_dir():
        if not (folder / "config.json").is_file():
            return f"the folder {folder} holds no config.json, so no saved model"
        return f"the folder {folder} holds no loadable model and tokenizer ({_first_line(exc)})"
    if folder.exists():
        return f"{folder} is a file, not a model folder"
    if folder.is_absolute() or name.startswith((".", "~")):
        return f"there is no folder {folder}"
    return (
        "it is not a local folder and could not be fetched from the Hugging Face Hub (no "
        f"network, a misspelt name, or a gated model that needs HF_TOKEN): {_first_line(exc)}"
    )


def _first_line(exc: BaseException) -> str:
    """``Type: first line of the message``."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0].strip().rstrip('.')}" if lines else type(exc).__name__
