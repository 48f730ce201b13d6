"""The root ``tautrait`` click group and helpers shared by the command modules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from tautrait_core.errors import TautraitError


def library_call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call into the library, turning its typed errors into CLI errors."""
    from pydantic import ValidationError

    try:
        return function(*args, **kwargs)
    except TautraitError as exc:
        from tautrait_core.llm.keys import redact

        raise click.ClickException(redact(str(exc))) from exc
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or 'value'}: {error['msg']}"
            for error in exc.errors()
        )
        raise click.ClickException(f"invalid settings: {problems}") from exc


def open_store(results_db: Path | None) -> Any:
    """The results database (``--results-db`` or the default one)."""
    from tautrait_core.paths import default_results_db
    from tautrait_core.store.results import ResultStore

    return ResultStore(results_db or default_results_db())


results_db_option = click.option(
    "--results-db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Results database [default: in the tautrait data dir, or $TAUTRAIT_HOME].",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Output JSON.")


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tautrait-core", prog_name="tautrait")
def cli() -> None:
    """Evaluate tool-using agents against simulated users with personality traits.

    \b
    Quick start (offline, no API key):
      tautrait run --domain telehealth --agent oracle --user scripted --num-trials 2
    With models (any litellm model name):
      tautrait run --domain telehealth --agent tool-calling --agent-model gpt-4o \\
                   --user llm --user-model gpt-4o --traits impatience=high
    """
