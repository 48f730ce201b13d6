"""``tautrait serve-scripted``: the scripted model server, for trying model-backed runs offline."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import click

from tautrait_core.cli.root import cli, library_call
from tautrait_core.render.console import console

if TYPE_CHECKING:
    from tautrait_core.scripted.scripts import StrategyScript


@cli.command(
    "serve-scripted", short_help="Scripted OpenAI-compatible model server, for offline runs."
)
@click.option(
    "--domain",
    default=None,
    help="Play whole episodes of this domain's tasks [default: answer every request with --reply].",
)
@click.option("--task-set", default=None, help="Task set to play (default: the domain's).")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1 (0: any free port).",
)
@click.option(
    "--reply", default="OK", show_default=True, help="The answer when no --domain is given."
)
def serve_scripted(domain: str | None, task_set: str | None, port: int, reply: str) -> None:
    """Serve scripted model answers on 127.0.0.1 (OpenAI-compatible), until Ctrl-C.

    No API key, no network, no cost: the way to try model-backed runs, `tautrait diagnose`
    or a new plugin end to end on this machine. With --domain the server plays both sides
    of that domain's tasks: as the agent it calls each task's gold actions, then states the
    required outputs; as the user it sends the task instruction, then ends the
    conversation; as a diagnosis judge it gives a fixed verdict. Episodes therefore pass.
    On a τ²-bench domain (e.g. tau2-telecom) the user answers the agent's greeting, makes
    the customer's gold tool calls when the agent asks for them, and then stops. Where
    tasks share an instruction, the user first checks its own side with tools that change
    nothing and names its task in its first message; tasks it still cannot tell apart
    are counted when the server starts.
    Point tautrait at it with any model name under openai/ and the printed --*-api-base:

    \b
      tautrait serve-scripted --domain telehealth          # in one terminal
      tautrait run --domain telehealth --num-trials 2 \\
        --agent tool-calling --agent-model openai/scripted \\
        --agent-api-base http://127.0.0.1:8000/v1 \\
        --user llm --user-model openai/scripted \\
        --user-api-base http://127.0.0.1:8000/v1          # in another
      tautrait diagnose latest --model openai/scripted \\
        --api-base http://127.0.0.1:8000/v1

    It listens on 127.0.0.1 only, never on other interfaces.
    """
    from tautrait_core.scripted.server import ScriptedModelServer, reply_text

    responder = library_call(_episode_script, domain, task_set) if domain else None
    server = ScriptedModelServer(responder or (lambda request: reply_text(reply)), port=port)
    try:
        server.start()
    except OSError as exc:
        raise click.ClickException(
            f"cannot listen on 127.0.0.1:{port} ({exc.strerror}); choose another --port"
        ) from exc
    plays = f"Playing {domain} tasks" if domain else f"Answering {reply!r} to every request"
    out = console()
    out.print(f"Scripted model server on {server.base_url}", markup=False, soft_wrap=True)
    out.print(f"{plays}. Stop it with Ctrl-C.", markup=False)
    alike = responder.probe.alike if responder and responder.probe else 0
    if alike:
        out.print(
            f"{alike} tasks look alike to the scripted customer; it plays one of each kind.",
            style="yellow",
        )
    out.print("Use it with any model name under openai/, e.g.")
    example = f"  --agent-model openai/scripted --agent-api-base {server.base_url}"
    out.print(example, markup=False, soft_wrap=True)  # a command is never cut
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        out.print(f"Stopped after {len(server.requests)} requests.")
    finally:
        server.stop()


def _episode_script(domain_name: str, task_set: str | None) -> StrategyScript:
    """The responder that plays every built-in strategy on the tasks of a domain's task set."""
    from tautrait_core.domain.task_sets import resolve_task_set, template_for
    from tautrait_core.plugins import lookup
    from tautrait_core.scripted.probes import CustomerProbe
    from tautrait_core.scripted.scripts import StrategyScript

    domain = lookup("domain", domain_name)
    resolved = resolve_task_set(domain, task_set)
    tau2 = resolved.protocol == "tau2" or domain.dual_control
    probe = None
    if domain.dual_control:  # tasks sharing an instruction are told apart on the phone
        probe = CustomerProbe(domain, template_for(domain, resolved), resolved.tasks)
    return StrategyScript(resolved.tasks, domain.terminating_tools, tau2=tau2, probe=probe)
