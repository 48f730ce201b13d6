"""The root ``tautrait`` click group and helpers shared by the command modules."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tautrait_core.cli.error_lines import CommandError
from tautrait_core.errors import TautraitError, validation_problem

if TYPE_CHECKING:
    from tautrait_core.llm.client import ModelSpec


def library_call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call into the library, turning its typed errors (and invalid settings) into CLI
    errors."""
    try:
        return function(*args, **kwargs)
    except TautraitError as exc:
        from tautrait_core.llm.keys import redact

        raise CommandError(redact(str(exc))) from exc
    except Exception as exc:
        if not is_validation_error(exc):
            raise
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or 'value'}: {validation_problem(error)}"
            for error in exc.errors()
        )
        raise CommandError(f"invalid settings: {problems}") from exc


def is_validation_error(exc: Exception) -> bool:
    """Whether ``exc`` is pydantic's ``ValidationError``, without importing pydantic: a
    command that never imported it cannot have raised one."""
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(exc, pydantic.ValidationError)


def open_store(results_db: Path | None, *, create: bool = False) -> Any:
    """The results database (``--results-db`` or the default one), checked first (see
    :func:`~tautrait_core.store.database_file.check_results_database`).

    An explicit ``results_db`` must exist unless ``create`` (commands that store new runs):
    a mistyped path is an error, never a new empty database. The default database is
    created when missing.
    """
    from tautrait_core.paths import default_results_db
    from tautrait_core.store.results import ResultStore

    must_exist = results_db is not None and not create
    return library_call(ResultStore, results_db or default_results_db(), must_exist=must_exist)


results_db_option = click.option(
    "--results-db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Results database [default: in the tautrait data dir, or $TAUTRAIT_HOME].",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Output JSON.")
trait_backend_option = click.option(
    "--trait-backend",
    default="prompt",
    show_default=True,
    help="How the traits reach the simulated user: prompt, or steer (tautrait-steer-user).",
)


def concurrency_option(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--concurrency N`` (at least 1, 4 by default): how many model calls run at once;
    ``help`` says what one of them is."""
    return click.option(
        "--concurrency", type=click.IntRange(min=1), default=4, show_default=True, help=help
    )


def max_cost_option(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--max-cost DOLLARS`` (positive, no limit by default); ``help`` says what stops."""
    return click.option(
        "--max-cost", type=click.FloatRange(min=0, min_open=True), default=None, help=help
    )


def judge_options(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--judge-model`` (none by default; ``help`` says what the judge does) and
    ``--judge-api-base``, the OpenAI-compatible server it is called on."""
    judge_model = click.option("--judge-model", default=None, help=help)
    judge_api_base = click.option(
        "--judge-api-base", default=None, help="OpenAI-compatible server for the judge."
    )

    def add_options(command: Callable[..., Any]) -> Callable[..., Any]:
        return judge_model(judge_api_base(command))

    return add_options


def retrieval_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--retrieval`` (τ³'s ``--retrieval-config``), ``--retrieval-model`` and
    ``--retrieval-api-base``: how the agent searches a domain's documents."""
    name = click.option(
        "--retrieval",
        "--retrieval-config",
        "retrieval",
        default=None,
        help="How the agent searches the domain's documents (domains with a knowledge "
        "base): bm25, grep_only, bm25_grep, full_kb, golden_retrieval, no_knowledge, "
        "openai_embeddings, terminal_use, ... (see: tautrait plugins) [default: bm25, "
        "offline; τ³'s alltools needs embeddings and a sandbox].",
    )
    model = click.option(
        "--retrieval-model",
        default=None,
        help="Embedding model of the dense configurations [default: text-embedding-3-large].",
    )
    api_base = click.option(
        "--retrieval-api-base",
        default=None,
        help="OpenAI-compatible server for the embedding model.",
    )
    return name(model(api_base(command)))


def run_ids_argument(metavar: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """One or more stored runs (ids, unique prefixes of ids, or 'latest'), as ``run_ids``;
    ``metavar`` is how the help names them."""
    return click.argument("run_ids", nargs=-1, required=True, metavar=metavar)


def judge_spec(model: str, api_base: str | None, side: str, role: str) -> ModelSpec:
    """A judging model's :class:`~tautrait_core.llm.client.ModelSpec` (temperature 0),
    after checking that ``model`` has a provider and a key (``side`` names it in the
    error); ``role`` is recorded with each of its calls."""
    from tautrait_core.llm.client import ModelSpec
    from tautrait_core.llm.keys import require_keys

    library_call(require_keys, model, None, api_base, side)
    return ModelSpec(model=model, api_base=api_base, temperature=0.0, role=role)


COMMAND_MODULES = {
    "cache": "tautrait_core.cli.cache",
    "check": "tautrait_core.cli.check",
    "compare": "tautrait_core.cli.reports",
    "domain": "tautrait_core.cli.domains",
    "diagnose": "tautrait_core.cli.reports",
    "export": "tautrait_core.cli.results",
    "import": "tautrait_core.cli.results",
    "import-results": "tautrait_core.cli.results",
    "keys": "tautrait_core.cli.keys",
    "new": "tautrait_core.cli.new",
    "play": "tautrait_core.cli.play",
    "plugins": "tautrait_core.cli.results",
    "report": "tautrait_core.cli.reports",
    "rescore": "tautrait_core.cli.rescore",
    "run": "tautrait_core.cli.run",
    "runs": "tautrait_core.cli.runs",
    "serve-scripted": "tautrait_core.cli.serve",
    "show": "tautrait_core.cli.reports",
    "sweep": "tautrait_core.cli.sweep",
    "tasks": "tautrait_core.cli.results",
    "traits": "tautrait_core.cli.traits",
    "view": "tautrait_core.cli.view",
}
"""Each core command and the module whose ``@cli.command`` adds it to the root group."""


class LazyCommands(dict[str, click.Command]):
    """The root group's commands: looking up a core command that is not there yet imports
    its module (:data:`COMMAND_MODULES`), whose decorators add it, so a command starts
    without importing the others."""

    def __missing__(self, name: str) -> click.Command:
        module = COMMAND_MODULES.get(name)
        if module is None:
            raise KeyError(name)
        importlib.import_module(module)
        return dict.__getitem__(self, name)


class RootGroup(click.Group):
    """The ``tautrait`` group: core commands load on first use, plugin commands as added."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands: dict[str, click.Command] = LazyCommands(self.commands)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Add ``cmd``; a core command loaded late never replaces a plugin's command of the
        same name (plugins win, whatever was imported first)."""
        name = name or cmd.name
        existing = dict.get(self.commands, name) if name else None
        module = getattr(cmd.callback, "__module__", "")
        if existing is not None and module in COMMAND_MODULES.values():
            return
        super().add_command(cmd, name)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a typed library error it raised outside :func:`library_call`
        (in a plugin's command, or on the way to the library) is still one ``Error:``
        line, never a traceback, and Ctrl-C is one ``Interrupted.`` line and exit status
        130, as the shell reports a process ended by SIGINT."""
        try:
            return super().invoke(ctx)
        except TautraitError as exc:
            from tautrait_core.llm.keys import redact

            raise CommandError(redact(str(exc))) from exc
        except click.ClickException as exc:
            if type(exc) is not click.ClickException:
                raise  # a usage error, or one shown already as it should be
            raise CommandError(exc.message) from exc
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            raise click.exceptions.Exit(130) from None
        except click.exceptions.Abort as exc:
            if not isinstance(exc.__context__, KeyboardInterrupt):
                raise  # answered no: click's "Aborted!"
            click.echo("\nInterrupted.", err=True)  # Ctrl-C at a question
            raise click.exceptions.Exit(130) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, core and plugin, without importing any command module."""
        return sorted({*self.commands, *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, its module imported first if it is a core command not loaded yet."""
        try:
            return self.commands[cmd_name]
        except KeyError:
            return None


@click.group(
    cls=RootGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(package_name="tautrait-core", prog_name="tautrait")
def cli() -> None:
    """Evaluate tool-using agents against simulated users with personality traits.

    \b
    Quick start (offline, no API key):
      tautrait run --domain telehealth --agent oracle --num-trials 2
    With models (any litellm model name):
      tautrait run --domain telehealth --agent tool-calling --agent-model gpt-4o \\
                   --user llm --user-model gpt-4o --traits impatience=high
    """


reward_basis_option = click.option(
    "--reward-basis",
    default=None,
    metavar="DB,ACTION,...",
    help="Grade τ²-style tasks on these components instead of each task's own basis "
    "(DB, ENV_ASSERTION, ACTION, NL_ASSERTION, COMMUNICATE); the official reward is kept "
    "beside.",
)
"""``--reward-basis`` of ``run`` and ``rescore``."""
