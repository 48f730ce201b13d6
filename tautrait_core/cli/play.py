"""``tautrait play``."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from tautrait_core.cli.root import cli, library_call, trait_backend_option


@cli.command()
@click.option("--domain", required=True, help="Domain to play (see: tautrait plugins).")
@click.option("--task", "task_id", type=click.IntRange(min=0), required=True, help="Task id.")
@click.option("--task-set", default=None, help="Task set [default: the domain's own].")
@click.option(
    "--as",
    "side",
    type=click.Choice(["agent", "user"]),
    required=True,
    help="The side you play; a model plays the other.",
)
@click.option(
    "--strategy",
    default=None,
    help="The model side's strategy [default: tool-calling when you play the user, "
    "llm when you play the agent].",
)
@click.option("--model", default=None, help="The model side's litellm model name.")
@click.option("--provider", default=None, help="The model side's litellm provider.")
@click.option("--api-base", default=None, help="OpenAI-compatible server for the model side.")
@click.option("--traits", default=None, help="The simulated user's trait mix (--as agent).")
@trait_backend_option
@click.option("--few-shot-file", default=None, help="Examples for --strategy few-shot.")
@click.option(
    "--max-steps",
    type=click.IntRange(min=1),
    default=30,
    show_default=True,
    help="End the episode after this many agent steps (hops of the conversation with the "
    "τ² protocol).",
)
def play(task_id: int, **options: Any) -> None:
    """Play one side of a task yourself, against a model on the other side.

    \b
    As the user: you are the customer; type /stop when you are done.
    As the agent: type replies, or call a tool with
      /tool NAME {"argument": "value"}
    (/tools lists the tools, /policy shows the policy).
    The reward breakdown is printed at the end; played episodes are not stored.
    """
    from tautrait_core.analysis.transcript import reward_breakdown
    from tautrait_core.run.play import play_config, play_episode

    settings = {key: value for key, value in options.items() if value is not None}
    config = library_call(play_config, **settings)
    try:
        result = library_call(play_episode, config, task_id)
    except KeyboardInterrupt:
        click.echo("\nInterrupted: the episode was not scored.", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        # a thread may still be waiting for a typed line: leave without waiting for it
        os._exit(130)
    click.echo("")
    for line in reward_breakdown(result).lines():
        click.echo(line)
